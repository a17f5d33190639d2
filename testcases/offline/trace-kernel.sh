#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Differential test of "trace packet" verdicts: random rulesets (saddr,
# daddr, ports, port sets and ranges, tcp flags, jumps and returns,
# policies) loaded into the kernel in a private network namespace and
# into an offline state file; random TCP/UDP packets sent on loopback
# (raw socket) and described to "trace packet" with the same fields.
# The kernel's verdict is read from a counter in a later base chain
# (reached only when the tested chain accepts). Verdicts must agree.
#
# Needs root (unshare -n), nf_tables and python3; skips (77) otherwise.
#   ROUNDS=n PACKETS=n SEED=n trace-kernel.sh
set -u
NFT=${NFT:-}
[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
unshare -n "$NFT" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NFT WORK="$work" ROUNDS="${ROUNDS:-12}" PACKETS="${PACKETS:-25}" \
	SEED="${SEED:-1}"
exec unshare -n python3 - <<'PY'
import os, random, re, socket, struct, subprocess, sys

NFT, WORK = os.environ["NFT"], os.environ["WORK"]
rnd = random.Random(int(os.environ["SEED"]))
ADDRS = ["127.0.0.%d" % i for i in range(1, 6)]
PORTS = [22, 53, 80, 443, 8080]
V = ["accept", "drop"]

def nft(*args, inp=None):
    return subprocess.run([NFT] + list(args), input=inp, text=True,
                          capture_output=True)

def rule():
    k = rnd.randrange(8)
    v = rnd.choice(V)
    if k == 0: return "ip saddr %s %s" % (rnd.choice(ADDRS), v)
    if k == 1: return "tcp dport %d %s" % (rnd.choice(PORTS), v)
    if k == 2: return "ip saddr 127.0.0.0/30 tcp dport { %d, %d } %s" % (
        rnd.choice(PORTS), rnd.choice(PORTS), v)
    if k == 3: return "udp dport %d %s" % (rnd.choice(PORTS), v)
    if k == 4: return "tcp dport %d jump sub" % rnd.choice(PORTS)
    if k == 5:
        a, b = sorted(rnd.sample(PORTS, 2))
        return "ip daddr %s tcp dport %d-%d %s" % (rnd.choice(ADDRS), a, b, v)
    if k == 6: return "tcp flags syn tcp dport %d %s" % (rnd.choice(PORTS), v)
    return "ip daddr != %s udp dport %d %s" % (rnd.choice(ADDRS),
                                               rnd.choice(PORTS), v)

def ruleset():
    rules = "\n\t\t".join(rule() for _ in range(rnd.randrange(2, 7)))
    sub = "\n\t\t".join("ip daddr %s %s" % (rnd.choice(ADDRS),
                        rnd.choice(V + ["return"]))
                        for _ in range(rnd.randrange(1, 3)))
    return ("table ip t {\n\tchain sub {\n\t\t%s\n\t}\n"
            "\tchain in {\n\t\ttype filter hook input priority 0; "
            "policy %s;\n\t\t%s\n\t}\n}\n" % (sub, rnd.choice(V), rules))

def csum(b):
    if len(b) % 2: b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def send(src, dst, proto, dport, flags):
    if proto == "tcp":
        l4 = struct.pack("!HHIIBBHHH", 40000, dport, 1, 0, 5 << 4,
                         flags, 255, 0, 0)
        pn = 6
    else:
        l4 = struct.pack("!HHHH", 40000, dport, 8, 0)
        pn = 17
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, pn,
                     0, socket.inet_aton(src), socket.inet_aton(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.sendto(ip + l4, (dst, 0))
    s.close()

def seen():
    out = nft("list", "chain", "ip", "obs", "in").stdout
    m = re.search(r"counter packets (\d+)", out)
    return int(m.group(1)) if m else -1

subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
pairs = bad = 0
verdicts = {"accept": 0, "drop": 0}
for r in range(int(os.environ["ROUNDS"])):
    text = ruleset()
    state = os.path.join(WORK, "state%d" % r)
    nft("flush", "ruleset")
    k = nft("-f", "-", inp=text)
    o = nft("--offline", state, "-f", "-", inp=text)
    if k.returncode or o.returncode:
        print("ruleset not loaded (kernel %d, offline %d):\n%s%s%s" % (
            k.returncode, o.returncode, text, k.stderr, o.stderr))
        bad += 1
        continue
    nft("-f", "-", inp="table ip obs { chain in { type filter hook input "
        "priority 100; policy accept; counter } }\n")
    for _ in range(int(os.environ["PACKETS"])):
        src, dst = rnd.choice(ADDRS), rnd.choice(ADDRS)
        proto, dport = rnd.choice(["tcp", "udp"]), rnd.choice(PORTS)
        flags = rnd.choice([0x02, 0x10])
        before = seen()
        send(src, dst, proto, dport, flags)
        kv = "accept" if seen() > before else "drop"
        sel = ["iifname", '"lo"', "ip", "saddr", src, "ip", "daddr", dst,
               proto, "dport", str(dport)]
        if proto == "tcp":
            sel += ["tcp", "flags", "syn" if flags == 2 else "ack"]
        t = nft("--offline", state, "trace", "packet", *sel)
        lines = t.stdout.strip().splitlines()
        vv = lines[-1].split()[-1] if lines else "error"
        pairs += 1
        verdicts[kv] += 1
        if vv != kv:
            bad += 1
            print("MISMATCH kernel %s vm %s: %s\n%s%s" % (
                kv, vv, " ".join(sel), text, t.stdout + t.stderr))
print("trace vs kernel: %d (ruleset, packet) pairs (kernel: %d accepted, "
      "%d dropped), %d mismatches" % (pairs, verdicts["accept"],
                                      verdicts["drop"], bad))
# both verdicts must occur, or the kernel side saw nothing
sys.exit(1 if bad or not verdicts["accept"] or not verdicts["drop"] else 0)
PY
