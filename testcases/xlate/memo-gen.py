#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Save files for memo.sh: ipt2nft's memo must not change a byte.

    memo-gen.py edge SEED N > FILE     rules of many shapes with random
                                       and edge values, each shape often
                                       enough that the memo is hit with
                                       the edge values
    memo-gen.py mutate FILE SEED > FILE
                                       FILE with each rule followed by
                                       four copies, their addresses and
                                       numbers (any, not only where the
                                       memo has holes) changed at random
    memo-gen.py conformance TSV FAMILY > FILE
                                       the conformance corpus's commands
                                       of FAMILY (ip, ip6) as one save
                                       file, three times over
"""
import csv
import random
import re
import shlex
import sys

BASE = {"filter": ["INPUT", "FORWARD", "OUTPUT"],
        "nat": ["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"],
        "mangle": ["PREROUTING", "INPUT", "FORWARD", "OUTPUT",
                   "POSTROUTING"],
        "raw": ["PREROUTING", "OUTPUT"],
        "security": ["INPUT", "FORWARD", "OUTPUT"]}
USER = ["user%d" % i for i in range(4)] + ["counter", "u-x"]


def addr(rng):
    k = rng.randrange(20)
    edge = ["0.0.0.0", "255.255.255.255", "1.2.3", "010.1.2.3",
            "0x0a.1.2.3", "300.1.2.3", "1.2.3.4.5", "10.0.0.01", "1.2.3.4 ",
            "224.0.0.1", "127.0.0.1", "10.0.0.0"]
    if k < len(edge) and rng.randrange(3) == 0:
        a = edge[k].strip()
    else:
        a = "%d.%d.%d.%d" % (rng.randrange(1, 256), rng.randrange(256),
                             rng.randrange(256), rng.randrange(256))
    p = rng.choice(["", "", "", "/32", "/24", "/16", "/8", "/0", "/1",
                    "/31", "/33", "/255.255.0.0", "/08", "/-1", "/30"])
    return a + p


def port(rng):
    if rng.randrange(6):
        return str(rng.randrange(1, 65535))
    return rng.choice(["0", "1", "65534", "65535", "65536", "010", "0x10",
                       "-1", "ssh", "99999999999", "00"])


def prange(rng):
    k = rng.randrange(8)
    lo, hi = rng.randrange(0, 65536), rng.randrange(0, 65536)
    if k == 0:
        return "%d:%d" % (lo, lo)
    if k == 1:
        return "%d:%d" % (max(lo, hi), min(lo, hi))
    if k == 2:
        return rng.choice([":100", "100:", "0:65535", "1:65535", "0:0",
                           "1:2", "65534:65535"])
    return "%d:%d" % (min(lo, hi), max(lo, hi) + 1)


def plist(rng):
    n = rng.choice([1, 2, 3, 4, 4, 15, 16])
    ps = [port(rng) if rng.randrange(8) else prange(rng) for _ in range(n)]
    if rng.randrange(5) == 0 and n > 1:
        ps[1] = ps[0]
    return ",".join(ps)


def hexv(rng):
    if rng.randrange(5):
        v = "0x%x" % rng.randrange(1, 1 << rng.choice([4, 8, 16, 32]))
    else:
        v = rng.choice(["0x0", "0xffffffff", "0x100000000", "0XFF", "0xFF",
                        "255", "0x00ff", "-1"])
    if rng.randrange(2):
        v += "/" + rng.choice(["0xff", "0xffff", "0xffffffff", "0xf0",
                               "0x0", "0xff00", "0x%x" % rng.randrange(1, 1 << 32)])
    return v


def text(rng, maxlen=40):
    w = rng.choice(["host", "drop", "x", "a b", "quote\\\"d", "long" * 8])
    n = rng.choice([str(rng.randrange(10 ** rng.randrange(1, 10))), "007",
                    "0", "12345678901", ""])
    return '"%s %s: "' % (w, n) if rng.randrange(2) else '"%s%s"' % (w, n)


SHAPES = [
    lambda r: "-s %s -j DROP" % addr(r),
    lambda r: "! -s %s -d %s -j ACCEPT" % (addr(r), addr(r)),
    lambda r: "-d %s -i eth%d -j ACCEPT" % (addr(r), r.randrange(3)),
    lambda r: "-p tcp -m tcp --dport %s -j ACCEPT" % port(r),
    lambda r: "-p tcp --dport %s -j ACCEPT" % port(r),
    lambda r: "-p udp -m udp --sport %s -j DROP" % prange(r),
    lambda r: "-s %s -p udp -m udp ! --sport %s --dport %s -j DROP" % (
        addr(r), prange(r), port(r)),
    lambda r: "-p tcp -m multiport --dports %s -j ACCEPT" % plist(r),
    lambda r: "-p udp -m multiport ! --sports %s -j ACCEPT" % plist(r),
    lambda r: "-p tcp -m multiport --ports %s -j ACCEPT" % plist(r),
    lambda r: "-m mark --mark %s -j RETURN" % hexv(r),
    lambda r: "-m mark ! --mark %s -j RETURN" % hexv(r),
    lambda r: "-m connmark --mark %s -j ACCEPT" % hexv(r),
    lambda r: "-m comment --comment %s -j ACCEPT" % text(r),
    lambda r: "-s %s -j LOG --log-prefix %s" % (addr(r), text(r)),
    lambda r: "-m comment --comment %s -j LOG --log-prefix %s --log-level %d"
    % (text(r), text(r), r.randrange(9)),
    lambda r: "-p icmp -m icmp --icmp-type %s -j ACCEPT" % r.choice(
        ["8", "0", "3/4", "255", "echo-request", str(r.randrange(300))]),
    lambda r: "-m limit --limit %d/sec --limit-burst %d -j ACCEPT" % (
        r.randrange(1, 100), r.randrange(1, 20)),
    lambda r: "-m state --state NEW -p tcp -m tcp --dport %s -j %s" % (
        port(r), r.choice(USER + ["ACCEPT", "nosuch"])),
    lambda r: "-m conntrack --ctstate %s -j ACCEPT" % r.choice(
        ["NEW", "RELATED,ESTABLISHED", "INVALID", "BOGUS"]),
    lambda r: "-p tcp -m tcp --tcp-flags SYN,ACK SYN -j REJECT "
    "--reject-with tcp-reset",
    lambda r: "-j MARK --set-mark %s" % hexv(r),
    lambda r: "-o eth1 -d %s -g %s" % (addr(r), r.choice(USER)),
    lambda r: "-p tcp -m tcp --dport %s -m recent --name r%d --set" % (
        port(r), r.randrange(2)),
    lambda r: "-p tcp -m tcp --dport %s -m hashlimit --hashlimit-above "
    "%d/sec --hashlimit-name h%d -j DROP" % (port(r), r.randrange(1, 9),
                                             r.randrange(2)),
    lambda r: "-p tcp -m tcp --dport %s -m connlimit --connlimit-above %d "
    "-j REJECT" % (port(r), r.randrange(1, 9)),
    lambda r: "-m iprange --src-range 10.0.0.%d-10.0.0.%d -j ACCEPT" % (
        r.randrange(256), r.randrange(256)),
    lambda r: "-p tcp -m tcp --dport %s -m mac --mac-source "
    "00:11:22:33:44:%02x -j ACCEPT" % (port(r), r.randrange(256)),
    lambda r: "-m owner --uid-owner %d -j ACCEPT" % r.randrange(2000),
    lambda r: "-s %s -p tcp -m tcp --dport %s -m comment --comment %s -j "
    "%s" % (addr(r), port(r), text(r), r.choice(USER)),
    lambda r: "-4 -s %s -j ACCEPT" % addr(r),
    lambda r: "-6 -p tcp --dport %s -j ACCEPT" % port(r),
    lambda r: "-j NFLOG --nflog-group %d --nflog-range %d" % (
        r.randrange(3), r.randrange(3)),
]
NAT = [
    lambda r: "-p tcp -m tcp --dport %s -j DNAT --to-destination %s:%s" % (
        port(r), addr(r).split("/")[0], port(r)),
    lambda r: "-s %s -o eth0 -j MASQUERADE" % addr(r),
    lambda r: "-s %s -j SNAT --to-source %s" % (addr(r),
                                               addr(r).split("/")[0]),
    lambda r: "-p udp -m udp --dport %s -j REDIRECT --to-ports %s" % (
        port(r), port(r)),
]


def edge(seed, n):
    rng = random.Random(seed)
    out = ["# memo-gen.py edge %d %d" % (seed, n)]
    for table, shapes in (("filter", SHAPES), ("nat", NAT)):
        out.append("*" + table)
        out += [":%s ACCEPT [0:0]" % c for c in BASE[table]]
        out += [":%s - [0:0]" % c for c in USER]
        count = n if table == "filter" else n // 4
        for i in range(count):
            chain = rng.choice(BASE[table] + USER[:2] + ["counter"])
            line = "-%s %s %s" % ("I" if rng.randrange(20) == 0 else "A",
                                  chain, rng.choice(shapes)(rng))
            if rng.randrange(10) == 0:
                line = "[%d:%d] %s" % (rng.randrange(100),
                                       rng.randrange(10000), line)
            out.append(line)
        if table == "filter":
            # new chains in the middle: declarations after rules
            out.append(":late%d - [0:0]" % seed)
            out.append("-A INPUT -j late%d" % seed)
            out.append("-A late%d -p tcp -m tcp --dport 22 -j ACCEPT" % seed)
        out.append("COMMIT")
    # the same table again: its rules go on where they were
    out.append("*filter")
    for i in range(n // 10):
        out.append("-A INPUT %s" % rng.choice(SHAPES)(rng))
    out.append("COMMIT")
    print("\n".join(out))


def quote(w):
    if w and not any(c in w for c in ' "\\\t'):
        return w
    return '"%s"' % w.replace("\\", "\\\\").replace('"', '\\"')


def conformance(tsv, family):
    tables = {}
    with open(tsv, newline="") as f:
        rd = csv.reader(f, delimiter="\t")
        next(rd, None)
        for row in rd:
            if len(row) < 5 or row[2] != family:
                continue
            try:
                w = shlex.split(row[3])
            except ValueError:
                continue
            if not w or not w[0].endswith("tables-translate"):
                continue
            w = w[1:]
            table = "filter"
            if "-t" in w:
                i = w.index("-t")
                table = w[i + 1] if i + 1 < len(w) else "filter"
                del w[i:i + 2]
            if len(w) < 2 or w[0] not in ("-A", "-I"):
                continue
            t = tables.setdefault(table, {"chains": set(), "rules": []})
            t["chains"].add(w[1])
            for j in range(len(w) - 1):
                if w[j] in ("-j", "-g", "--jump", "--goto") and \
                        not w[j + 1].isupper():
                    t["chains"].add(w[j + 1])
            t["rules"].append(" ".join(quote(x) for x in w))
    out = []
    for table, t in sorted(tables.items()):
        out.append("*" + table)
        base = BASE.get(table, [])
        out += [":%s ACCEPT [0:0]" % c for c in base]
        out += [":%s - [0:0]" % c for c in sorted(t["chains"]) if c not in base]
        out += t["rules"] * 3
        out.append("COMMIT")
    print("\n".join(out))


QUAD = re.compile(r"\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b")
NUM = re.compile(r"(?<![\d.])\d+(?![\d.])")


def mutate(path, seed):
    rng = random.Random(seed)

    def quad(m):
        if rng.randrange(3) == 0:
            return m.group(0)
        return "%d.%d.%d.%d" % (rng.randrange(1, 255), rng.randrange(256),
                                rng.randrange(256), rng.randrange(256))

    def num(m):
        d = len(m.group(0))
        if rng.randrange(3) == 0:
            return m.group(0)
        return str(rng.randrange(10 ** (d - 1) if d > 1 else 0, 10 ** d))

    def mut(line):
        # the command, chain and option words stay: values change
        w = line.split(" ")
        return " ".join(x if i < 2 or x.startswith("-") else
                        NUM.sub(num, QUAD.sub(quad, x))
                        for i, x in enumerate(w))

    out = []
    with open(path, errors="replace") as f:
        for line in f.read().split("\n"):
            out.append(line)
            if line.startswith(("-A ", "-I ")):
                out += [mut(line) for _ in range(4)]
    print("\n".join(out))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "edge":
        edge(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "mutate":
        mutate(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "conformance":
        conformance(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
