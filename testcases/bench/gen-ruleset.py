#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-ruleset.py N [FAMILY]: print a ruleset of N varied, realistic rules
in one base chain (addresses, ports, port ranges, ct state, interfaces,
counters, marks, limits; no anonymous sets). Deterministic (fixed seed)
so that every tool compiles the same text."""
import random
import sys


def ip4(r):
    return "10.%d.%d.%d" % (r.randrange(256), r.randrange(256),
                            r.randrange(1, 255))


def ip6(r):
    return "2001:db8:%x::%x" % (r.randrange(65536), r.randrange(1, 65536))


TEMPLATES = [
    lambda r: "ip saddr %s tcp dport %d accept" % (ip4(r), r.randrange(1, 65536)),
    lambda r: "ip daddr 192.168.%d.0/24 udp dport %d counter drop" % (
        r.randrange(256), r.randrange(1, 65536)),
    lambda r: "iifname \"eth%d\" ip saddr %s counter accept" % (
        r.randrange(16), ip4(r)),
    lambda r: "ip6 saddr %s tcp dport %d ct state new accept" % (
        ip6(r), r.randrange(1, 65536)),
    lambda r: "tcp dport %d-%d ct state new counter accept" % (
        (lambda a: (a, a + r.randrange(1, 100)))(r.randrange(1, 60000))),
    lambda r: "meta mark 0x%08x ip protocol udp counter" % r.randrange(1 << 32),
    lambda r: "ip saddr %s ip daddr %s tcp sport %d tcp dport %d counter accept"
    % (ip4(r), ip4(r), r.randrange(1024, 65536), r.randrange(1, 1024)),
    lambda r: "ct state established,related counter accept",
    lambda r: "oifname \"wan%d\" ip daddr %s/%d drop" % (
        r.randrange(4), ip4(r), r.choice((8, 16, 24, 32))),
    lambda r: "tcp flags syn tcp dport %d limit rate %d/second accept" % (
        r.randrange(1, 65536), r.randrange(1, 1000)),
    lambda r: "ip ttl %d ip protocol tcp counter drop" % r.randrange(1, 255),
    lambda r: "udp sport 53 ip saddr %s ct state established accept" % ip4(r),
]


def main():
    n = int(sys.argv[1])
    family = sys.argv[2] if len(sys.argv) > 2 else "inet"
    r = random.Random(20240601)
    out = sys.stdout
    out.write("table %s bench {\n\tchain input {\n"
              "\t\ttype filter hook input priority 0; policy accept;\n"
              % family)
    for i in range(n):
        out.write("\t\t" + TEMPLATES[i % len(TEMPLATES)](r) + "\n")
    out.write("\t}\n}\n")


if __name__ == "__main__":
    main()
