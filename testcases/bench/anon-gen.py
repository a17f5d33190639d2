# SPDX-License-Identifier: GPL-2.0-or-later
# anon-gen.py OUT [SEED]: a ruleset with random anonymous sets, named sets,
# maps, vmaps, intervals and concatenations, for batch-diff.sh.
import random, sys, os
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
out = sys.argv[1]
def port(): return str(random.randint(1, 65535))
def v4(): return "%d.%d.%d.%d" % (random.randint(1,223), random.randint(0,255), random.randint(0,255), random.randint(1,254))
def v6(): return "2001:db8:%x::%x" % (random.randint(0,65535), random.randint(1,65535))
def pfx4(): return "%d.%d.%d.0/%d" % (random.randint(1,223), random.randint(0,255), random.randint(0,255), random.choice([8,16,24]))
def rng(): a = random.randint(1, 60000); return "%d-%d" % (a, a + random.randint(1, 500))
def elems(f, n): return ", ".join(sorted(set(f() for _ in range(n))))
anon = [
 lambda: "tcp dport { %s } accept" % elems(port, random.randint(1, 8)),
 lambda: "udp sport != { %s } drop" % elems(port, random.randint(1, 5)),
 lambda: "ip saddr { %s } accept" % elems(v4, random.randint(1, 6)),
 lambda: "ip daddr { %s } counter drop" % elems(pfx4, random.randint(1, 4)),
 lambda: "tcp dport { %s } accept" % elems(rng, random.randint(1, 4)),
 lambda: "ip6 saddr { %s } accept" % elems(v6, random.randint(1, 4)),
 lambda: "meta iifname { %s } accept" % ", ".join('"eth%d"' % i for i in random.sample(range(50), random.randint(1,4))),
 lambda: "meta mark { %s } accept" % elems(lambda: hex(random.randint(1, 1<<31)), random.randint(1,4)),
 lambda: "ct state { established, related } accept",
 lambda: "tcp dport vmap { %s }" % ", ".join("%s : %s" % (p, random.choice(["accept", "drop", "jump other"])) for p in sorted(set(port() for _ in range(random.randint(1,5))))),
 lambda: "ip saddr . tcp dport { %s } accept" % ", ".join("%s . %s" % (v4(), port()) for _ in range(random.randint(1,4))),
 lambda: "meta mark set tcp dport map { %s }" % ", ".join("%s : %d" % (p, random.randint(1,100)) for p in sorted(set(port() for _ in range(random.randint(1,4))))),
 lambda: "ip daddr . tcp dport { %s . %s-%d } accept" % (pfx4(), port(), 65535),
 lambda: "tcp dport @ports accept",
 lambda: "ip saddr @addrs drop",
 lambda: "ip saddr vmap @vm",
 lambda: "meta mark set ip saddr map @mm",
 lambda: "ip saddr . tcp dport @cc accept",
 lambda: "ip saddr @iv accept",
 lambda: "tcp dport { 22, 80, %s } accept" % port(),
 lambda: "ip protocol { tcp, udp, icmp } accept",
 lambda: "tcp flags { syn, ack } accept",
]
def named():
    s = []
    s.append("\tset ports {\n\t\ttype inet_service\n%s%s\t\telements = { %s }\n\t}" % (
        random.choice(["", "\t\tflags interval\n", "\t\tflags timeout\n\t\ttimeout 30s\n", "\t\tsize 1000\n", "\t\tpolicy memory\n"]),
        random.choice(["", "\t\tcomment \"a comment\"\n", "\t\tcounter\n"]),
        elems(port, random.randint(1, 10))))
    s.append("\tset addrs {\n\t\ttypeof ip saddr\n%s\t\telements = { %s }\n\t}" % (
        random.choice(["", "\t\tflags interval\n\t\tauto-merge\n", "\t\tflags dynamic\n", "\t\tgc-interval 10s\n\t\tflags timeout\n"]),
        elems(v4, random.randint(1, 10))))
    s.append("\tset iv {\n\t\ttype ipv4_addr\n\t\tflags interval\n\t\telements = { %s }\n\t}" % elems(pfx4, random.randint(1, 6)))
    s.append("\tmap vm {\n\t\ttype ipv4_addr : verdict\n\t\telements = { %s }\n\t}" % ", ".join("%s : %s" % (a, random.choice(["accept", "drop", "goto other"])) for a in sorted(set(v4() for _ in range(random.randint(1,5))))))
    s.append("\tmap mm {\n\t\ttypeof ip saddr : meta mark\n\t\telements = { %s }\n\t}" % ", ".join("%s : %d" % (a, random.randint(1, 1000)) for a in sorted(set(v4() for _ in range(random.randint(1,5))))))
    s.append("\tset cc {\n\t\ttype ipv4_addr . inet_service\n%s\t\telements = { %s }\n\t}" % (
        random.choice(["", "\t\tflags interval\n"]),
        ", ".join("%s . %s" % (v4(), port()) for _ in range(random.randint(1,4)))))
    return "\n".join(s)
with open(out, "w") as f:
    fam = random.choice(["ip", "inet"])
    f.write("table %s t%d {\n%s\n\tchain other {\n\t}\n\tchain c {\n\t\ttype filter hook input priority 0; policy accept;\n" % (fam, random.randint(0, 9), named()))
    for _ in range(random.randint(1, 12)):
        f.write("\t\t%s\n" % random.choice(anon)())
    f.write("\t}\n}\n")
