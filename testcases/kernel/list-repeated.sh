#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Listing rules of repeated shapes, which ours prints from the text of
# the first rule of a shape with its compares' values filled in
# (nftc/list_tmpl.c): thousands of rules of some sixty shapes with
# random values, edge values among them (0, all ones, /0 and /32
# prefixes, one-port ranges, names that resolve and numbers that do
# not), protocol selectors whose value steers how the rest is read,
# loads merged over adjacent fields, shortened address loads, masks,
# wildcards, anonymous sets, counters, packet and byte limits, in inet,
# ip, ip6 and bridge tables:
#  - each ruleset loaded by stock into a private network namespace is
#    listed by ours byte for byte as stock lists it, plain and with -a,
#    -n, -s, -nn, -nnn and -as;
#  - and as ours lists it without templates (NFTKIT_LIST_NO_TEMPLATES).
# Needs root (unshare -n), nf_tables and python3; skips (77) otherwise.
# Never touches the root namespace.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel python3
unset NFTKIT_LIST_NO_TEMPLATES

make_work

python3 - "$work/rules.nft" "$work/own.nft" <<'PY'
import random, sys
r = random.Random(5)

def ip4():
    return r.choice(["0.0.0.0", "255.255.255.255",
                     "%d.%d.%d.%d" % tuple(r.randrange(256) for _ in range(4))])

def ip6():
    return r.choice(["::", "::1", "2001:db8::%x" % r.randrange(1, 65536),
                     "fe80::%x:%x" % (r.randrange(65536), r.randrange(65536))])

def port():
    return r.choice([0, 1, 22, 53, 80, 443, 65535, r.randrange(65536)])

def net4():
    n = r.choice([0, 1, 7, 8, 15, 16, 23, 24, 31, 32, r.randrange(33)])
    a = r.randrange(1 << 32) & (((1 << 32) - 1) << (32 - n)) if n else 0
    return "%d.%d.%d.%d/%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255,
                               a & 255, n)

def rng():
    a = port()
    b = r.choice([a, min(65535, a + r.randrange(1, 1000))])
    return "%d-%d" % (a, b) if b != a else "%d" % a

def mark():
    return "0x%08x" % r.choice([0, 1, 0xffffffff, r.randrange(1 << 32)])

def proto():
    return r.choice(["tcp", "udp", "icmp", "47", "132", "200", "0", "255"])

def ifn():
    return r.choice(["eth%d" % r.randrange(20), "lo", "wan", "br-x",
                     "e*", "veth%d*" % r.randrange(9), "a" * 15])

common = [
    lambda: "ip saddr %s tcp dport %d accept" % (ip4(), port()),
    lambda: "ip daddr %s udp dport %d counter drop" % (net4(), port()),
    lambda: "ip saddr != %s tcp sport != %d drop" % (net4(), port()),
    lambda: "tcp dport %s ct state new counter accept" % rng(),
    lambda: "udp sport %s udp dport %s accept" % (rng(), rng()),
    lambda: "ip saddr %s ip daddr %s tcp sport %d tcp dport %d accept"
    % (ip4(), ip4(), port(), port()),
    lambda: "meta mark %s ip protocol %s counter" % (mark(), proto()),
    lambda: "ct mark %s ct state established accept" % mark(),
    lambda: "iifname \"%s\" ip saddr %s accept" % (ifn(), ip4()),
    lambda: "oifname \"%s\" ip daddr %s drop" % (ifn(), net4()),
    lambda: "ip ttl %d ip protocol %s drop" % (r.randrange(256), proto()),
    lambda: "ip length %d ip id %d accept" % (r.randrange(65536),
                                              r.randrange(65536)),
    lambda: "ip protocol %s accept" % proto(),
    lambda: "meta l4proto %s accept" % proto(),
    lambda: "tcp flags %s tcp dport %d accept" % (
        r.choice(["syn", "syn,ack", "fin | rst", "0x0"]), port()),
    lambda: "tcp dport { %d, %d, %d } accept" % (port(), port(), port()),
    # the same rule code, the set an interval one or not
    lambda: "udp dport { %s, %s } drop" % (rng(), rng()),
    lambda: "ip saddr != { %s } counter" % ", ".join(
        ip4() for _ in range(r.randrange(1, 4))),
    lambda: "ip daddr { %s, %s } counter drop" % (ip4(), net4()),
    lambda: "ip dscp %s accept" % r.choice(["cs1", "ef", "af41", "0x00",
                                            "0x3f"]),
    lambda: "icmp type %s accept" % r.choice(["echo-request", "echo-reply",
                                              "0", "3", "200"]),
    lambda: "icmp code %d icmp type destination-unreachable accept"
    % r.randrange(256),
    lambda: "meta skuid %d meta skgid %d accept" % (r.randrange(70000),
                                                    r.randrange(70000)),
    lambda: "ct original ip saddr %s accept" % net4(),
    lambda: "meta length %d-%d accept" % tuple(sorted((r.randrange(65536),
                                                       r.randrange(65536)))),
    lambda: "ip saddr %s limit rate %d/second accept" % (ip4(),
                                                        r.randrange(1, 999)),
    lambda: "tcp dport %d limit rate over %d/%s burst %d packets drop" % (
        port(), r.choice([1, 5, 1000, r.randrange(1, 1 << 30)]),
        r.choice(["second", "minute", "hour", "day"]), r.randrange(1, 99)),
    lambda: "limit rate %d %s/second accept" % (
        r.randrange(1, 4096), r.choice(["bytes", "kbytes", "mbytes"])),
    lambda: "meta pkttype %s accept" % r.choice(["host", "broadcast",
                                                 "multicast", "other"]),
    lambda: "th dport %d accept" % port(),
    # (not icmp, gre, 200: stock drops "meta l4proto X" before "th" for
    # protocols it has no header for, ours keeps it; a difference of
    # the decompiler, templates or not)
    lambda: "meta l4proto %s th dport %d accept" % (
        r.choice(["tcp", "udp", "udplite", "sctp", "dccp"]), port()),
    lambda: "ip protocol %s th sport %d drop" % (
        r.choice(["tcp", "udp", "udplite", "sctp", "dccp"]), port()),
    lambda: "udp length %d udp checksum %d accept" % (r.randrange(65536),
                                                      r.randrange(65536)),
    lambda: "ip saddr %s ip daddr %s accept" % (net4(), ip4()),
    lambda: "meta priority %s accept" % r.choice(["none", "1:2", "abcd:1234"]),
]
inet_only = [
    lambda: "ip6 saddr %s tcp dport %d accept" % (ip6(), port()),
    lambda: "meta nfproto %s accept" % r.choice(["ipv4", "ipv6", "99"]),
    lambda: "ip6 daddr %s udp dport %d counter accept" % (ip6(), port()),
    lambda: "ip6 hoplimit %d ip6 nexthdr %s accept" % (r.randrange(256),
                                                       proto()),
    lambda: "icmpv6 type %s accept" % r.choice(["echo-request", "1", "250"]),
]
ip6_rules = [
    lambda: "ip6 saddr %s tcp dport %d accept" % (ip6(), port()),
    lambda: "ip6 daddr %s/%d accept" % (ip6(), r.choice([0, 8, 64, 127, 128])),
    lambda: "ip6 hoplimit %d accept" % r.randrange(256),
    lambda: "ip6 flowlabel %d accept" % r.randrange(1 << 20),
    lambda: "udp dport %s accept" % rng(),
]
bridge_rules = [
    lambda: "ether saddr %s accept" % ":".join("%02x" % r.randrange(256)
                                               for _ in range(6)),
    lambda: "ether type %s accept" % r.choice(["ip", "ip6", "arp", "0x1234"]),
    lambda: "ip saddr %s accept" % ip4(),
    lambda: "vlan id %d accept" % r.randrange(4096),
    lambda: "ether type ip ip daddr %s tcp dport %d accept" % (ip4(), port()),
]

def table(fam, name, shapes, n):
    out = ["table %s %s {" % (fam, name), "\tchain c {",
           "\t\ttype filter hook input priority 0; policy accept;"
           if fam != "bridge" else
           "\t\ttype filter hook input priority 0; policy accept;"]
    for i in range(n):
        out.append("\t\t" + r.choice(shapes)())
    out += ["\t}", "}"]
    return "\n".join(out) + "\n"

# listed by ours unlike stock, templates or not (stock drops "meta
# l4proto X" before "th" for protocols it has no header for): compared
# with ours without templates only, as a protocol's value steers how
# "th" reads
own = [
    lambda: "meta l4proto %s th dport %d accept" % (proto(), port()),
    lambda: "ip protocol %s th sport %d drop" % (proto(), port()),
    lambda: "meta l4proto %s accept" % proto(),
]

with open(sys.argv[2], "w") as f:
    f.write(table("inet", "e", own, 600))
with open(sys.argv[1], "w") as f:
    f.write(table("inet", "a", common + inet_only, 3000))
    f.write(table("ip", "b", common, 2000))
    f.write(table("ip6", "c", ip6_rules, 800))
    f.write(table("bridge", "d", bridge_rules, 500))
PY

fail=0
total=$(grep -c "^		[a-z]" "$work/rules.nft")
for opt in "" -a -n -s -nn -nnn -as; do
	unshare -n sh -c '
		"$1" -f "$2" || exit 3
		"$1" $4 list ruleset > "$3.stock" || exit 3
		"$5" $4 list ruleset > "$3.ours" || exit 3
		NFTKIT_LIST_NO_TEMPLATES=1 "$5" $4 list ruleset \
			> "$3.plain" || exit 3
		' sh "$STOCK" "$work/rules.nft" "$work/out" "$opt" "$NFT" ||
		{ echo "FAIL: load/list ($opt)"; fail=1; continue; }
	if ! cmp -s "$work/out.stock" "$work/out.ours"; then
		echo "FAIL: listing${opt:+ $opt} differs from stock's:"
		diff "$work/out.stock" "$work/out.ours" | head -10
		fail=1
	fi
	if ! cmp -s "$work/out.plain" "$work/out.ours"; then
		echo "FAIL: listing${opt:+ $opt} differs without templates:"
		diff "$work/out.plain" "$work/out.ours" | head -10
		fail=1
	fi
done
unshare -n sh -c '
	"$1" -f "$2" || exit 3
	"$4" list ruleset > "$3.ours" || exit 3
	NFTKIT_LIST_NO_TEMPLATES=1 "$4" list ruleset > "$3.plain" || exit 3
	' sh "$STOCK" "$work/own.nft" "$work/own" "$NFT" ||
	{ echo "FAIL: load/list (own)"; fail=1; }
if ! cmp -s "$work/own.plain" "$work/own.ours"; then
	echo "FAIL: protocol selectors listed otherwise without templates:"
	diff "$work/own.plain" "$work/own.ours" | head -10
	fail=1
fi
echo "list-repeated: $total rules, options: (none) -a -n -s -nn -nnn -as"
exit $fail
