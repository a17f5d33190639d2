#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fast element scan (nftc/elem_scan.c) against the parser's path
# (NFTKIT_ELEM_SCAN=0): set declarations of IPv4 and IPv6 addresses,
# prefixes, ranges and ports, plain and interval (with overlaps, merges
# and duplicates), written every way the scan takes (newlines, comments,
# trailing commas) or gives up on (names, variables, timeouts, comments
# on elements, concatenations, bad numbers, host bits, missing commas or
# braces, line continuations, flags or type given after the elements).
# For each file, "nft -c --debug=netlink" offline (NFTKIT_OFFLINE_CHECK)
# must print the same batch, the same diagnostics (messages, locations,
# carets) and exit the same with the scan on and off. No root needed
# (kernel/big-sets.sh checks such batches against stock's).
set -u
SKIP=77
NFT=${NFT:-}
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/on-off.sh"

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
command -v python3 >/dev/null || { echo "no python3"; exit $SKIP; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

python3 - "$work" <<'PY'
import random, sys
w = sys.argv[1]
random.seed(5)

def decl(name, family, typ, elems, flags="", extra="", after=""):
    with open("%s/%s.nft" % (w, name), "w") as f:
        f.write("table %s t {\n\tset s {\n\t\ttype %s\n" % (family, typ))
        if flags:
            f.write("\t\tflags %s\n" % flags)
        f.write(extra)
        f.write("\t\telements = { %s }\n" % elems)
        f.write(after)
        f.write("\t}\n}\n")

def v4(i):
    return "10.%d.%d.%d" % ((i >> 16) & 255, (i >> 8) & 255, i & 255)

def v6(i):
    return "2001:db8::%x:%x" % (i >> 16, i & 0xffff)

def join(items, style=0):
    """Comma separated in one of several layouts."""
    out = []
    for k, s in enumerate(items):
        out.append(s)
        if k == len(items) - 1:
            break
        r = (k * 7 + style) % 11
        if style == 0 or r < 6:
            out.append(", ")
        elif r < 8:
            out.append(",\n\t\t\t")
        elif r < 9:
            out.append(" ,\t# a comment, { } here\n\n\t")
        elif r < 10:
            out.append(",")
        else:
            out.append("  ,\n")
    return "".join(out)

for n in (5, 3000):
    tag = "%d" % n
    # plain, with duplicates
    ips = [v4(random.randrange(3 * n)) for _ in range(n)]
    decl("v4-" + tag, "ip", "ipv4_addr", join(ips, 1))
    decl("v4-flat-" + tag, "ip", "ipv4_addr", join(ips))
    decl("v4-trail-" + tag, "ip", "ipv4_addr", join(ips, 2) + ",\n\t# end\n")
    decl("v4-size-" + tag, "inet", "ipv4_addr", join(ips, 3),
         extra="\t\tsize 65536\n\t\ttimeout 1h\n\t\tcounter\n")
    decl("v4-timeout-" + tag, "ip", "ipv4_addr", join(ips, 4),
         flags="timeout")
    # interval: prefixes, ranges, values, overlapping or not
    items = []
    for i in range(n):
        r = i % 3
        if r == 0:
            items.append("10.%d.%d.0/24" % ((i >> 8) & 255, i & 255))
        elif r == 1:
            items.append("11.%d.%d.1-11.%d.%d.9" % ((i >> 8) & 255, i & 255,
                                                    (i >> 8) & 255, i & 255))
        else:
            items.append("12.%d.%d.%d" % ((i >> 16) & 255, (i >> 8) & 255,
                                          i & 255))
    random.shuffle(items)
    decl("iv4-" + tag, "ip", "ipv4_addr", join(items, 5), flags="interval")
    over = items + ["10.0.0.0/16", "11.0.1.5-11.0.2.3", "12.0.0.2"]
    random.shuffle(over)
    decl("iv4-over-" + tag, "ip", "ipv4_addr", join(over, 6),
         flags="interval")
    decl("iv4-merge-" + tag, "ip", "ipv4_addr", join(over, 7),
         flags="interval", extra="\t\tauto-merge\n")
    adj = ["10.0.%d.0/24" % (i % 256) for i in range(n)]
    decl("iv4-adj-" + tag, "ip", "ipv4_addr", join(adj, 8),
         flags="interval", extra="\t\tauto-merge\n")
    decl("iv4-dup-" + tag, "ip", "ipv4_addr", join(adj, 9), flags="interval")
    # IPv6
    six = [v6(random.randrange(2 * n)) for _ in range(n)]
    forms = ["::", "::1", "fe80::", "1:2:3:4:5:6:7:8", "a:b::c:d",
             "FFFF:0:00:000::1", "1::2:3:4:5:6:7", "2001:DB8:0:0:1::"]
    decl("v6-" + tag, "ip6", "ipv6_addr", join(six + forms, 1))
    items = ["2001:db8:%x::/48" % i for i in range(n)] + \
        ["2001:db9::%x-2001:db9::%x:1" % (i, i) for i in range(1, n)] + \
        ["::1", "fe80::/10", "ff00::/8", "2002::1/128"]
    random.shuffle(items)
    decl("iv6-" + tag, "ip6", "ipv6_addr", join(items, 2), flags="interval")
    decl("iv6-over-" + tag, "ip6", "ipv6_addr",
         join(items + ["2001:db8::/32"], 3), flags="interval")
    # ports
    ports = [str(random.randrange(1, 65536)) for _ in range(n)]
    decl("port-" + tag, "inet", "inet_service", join(ports, 4))
    pr = ["%d-%d" % (1000 + 10 * i, 1005 + 10 * i) for i in range(n)]
    decl("iport-" + tag, "inet", "inet_service",
         join(pr + ["1", "65535", "22"], 5), flags="interval")
    decl("iport-over-" + tag, "inet", "inet_service",
         join(pr + ["1003-1012"], 6), flags="interval")
    # set changed after its elements
    decl("late-flags-" + tag, "ip", "ipv4_addr", join(ips, 7),
         after="\t\tflags interval\n")
    decl("late-type-" + tag, "ip", "ipv4_addr", join(ips[:3]),
         after="\t\ttype ipv6_addr\n")
    decl("late-port-" + tag, "inet", "inet_service", join(ports[:4]),
         after="\t\ttype ipv4_addr\n")
    # something the scan gives up on, at the start, middle or end
    bad = ["300.1.2.3", "1.2.3", "01.2.3.4", "1.2.3.4.5", "1.2.3.4/33",
           "10.0.0.1/24", "10.0.0.9-10.0.0.1", "10.0.0.1-10.0.0.1",
           "1.2.3.4 . 5", "$undefined", "1.2.3.4 timeout 1s",
           "1.2.3.4 comment \"c\"", "1.2.3.4 counter", "1.2.3.4\n1.2.3.5",
           "1.2.3.4 # c\n, 1.2.3.5", "1.2.3.4 \\\n, 1.2.3.5", "0.0.0.0/0",
           "1.2.3.4/024", "{ 1.2.3.4 }", "1.2.3.4:5", "1.2.3.4a",
           "1.2.3.4 - 1.2.3.5", "1.2.3.0 / 24", "\"1.2.3.4\"", "1.2.3.4;"]
    for k, b in enumerate(bad):
        for where in (0, n // 2, n):
            lst = ips[:where] + [b] + ips[where:]
            decl("bad-%s-%d-%d" % (tag, k, where), "ip", "ipv4_addr",
                 join(lst, k))
            decl("ibad-%s-%d-%d" % (tag, k, where), "ip", "ipv4_addr",
                 join(lst, k), flags="interval")
    bad6 = ["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::1", "::ffff:1.2.3.4",
            "1:2:3:4:5:6:7::8", "g::1", "2001:db8::1/64", "::1/129", ":1"]
    for k, b in enumerate(bad6):
        lst = six[: n // 2] + [b] + six[n // 2:]
        decl("bad6-%s-%d" % (tag, k), "ip6", "ipv6_addr", join(lst, k),
             flags="interval" if k % 2 else "")
    badp = ["0", "65536", "022", "0x16", "ssh", "1-0", "5-5", "80/8",
            "-1", "1.5"]
    for k, b in enumerate(badp):
        lst = ports[: n // 2] + [b] + ports[n // 2:]
        decl("badp-%s-%d" % (tag, k), "inet", "inet_service", join(lst, k),
             flags="interval" if k % 2 else "")

# no closing brace; two element lists in one declaration
with open(w + "/eof.nft", "w") as f:
    f.write("table ip t {\n\tset s {\n\t\ttype ipv4_addr\n"
            "\t\telements = { 1.2.3.4, 1.2.3.5,\n")
with open(w + "/two.nft", "w") as f:
    f.write("table ip t {\n\tset s {\n\t\ttype ipv4_addr\n"
            "\t\telements = { 1.2.3.4, 1.2.3.5 }\n"
            "\t\telements = { 1.2.3.6 }\n\t}\n}\n")
# one line, a million characters into it
with open(w + "/long.nft", "w") as f:
    f.write("table ip t { set s { type ipv4_addr; flags interval; "
            "elements = { %s } } }\n" %
            ", ".join("%d.%d.%d.0/24" % (1 + (i >> 16), (i >> 8) & 255,
                                         i & 255) for i in range(70000)))
# element commands on a set declared before them (not interval sets)
def cmds(name, family, typ, elems, flags="", verb="add"):
    with open("%s/%s.nft" % (w, name), "w") as f:
        f.write("table %s t {\n\tset s {\n\t\ttype %s\n%s\t}\n}\n"
                % (family, typ, "\t\tflags %s\n" % flags if flags else ""))
        for e in elems:
            f.write("%s element %s t s { %s }\n" % (verb, family, e))

ips = [v4(i * 7) for i in range(3000)]
cmds("cmd-v4", "ip", "ipv4_addr", [join(ips[:2000], 1), join(ips[1500:], 2)])
cmds("cmd-v4-create", "ip", "ipv4_addr", [join(ips, 3)], verb="create")
cmds("cmd-v4-iv", "ip", "ipv4_addr", [join(ips, 4)], flags="interval")
cmds("cmd-v4-timeout", "ip", "ipv4_addr", [join(ips, 4)], flags="timeout")
cmds("cmd-v6", "ip6", "ipv6_addr", [join([v6(i) for i in range(3000)], 5)])
cmds("cmd-port", "inet", "inet_service",
     [join([str(i + 1) for i in range(3000)], 6), "22, 80, 443"])
cmds("cmd-bad", "ip", "ipv4_addr", [join(ips[:1500] + ["1.2.3.256"] +
                                         ips[1500:], 7)])
cmds("cmd-bad-port", "inet", "inet_service",
     [join([str(i + 1) for i in range(2000)] + ["http", "65536"], 8)])
with open(w + "/cmd-del.nft", "w") as f:
    f.write("table ip t {\n\tset s {\n\t\ttype ipv4_addr\n"
            "\t\telements = { %s }\n\t}\n}\n" % join(ips, 1))
    f.write("delete element ip t s { %s }\n" % join(ips[::2], 2))
    f.write("add element ip t nosuch { %s }\n" % join(ips[:5], 2))

# files of more than 256 KiB are mapped and the pages of an element list
# given back once read (nftc/input_map.c): diagnostics read them again
big = ["%d.%d.%d.0/24" % (1 + (i >> 16), (i >> 8) & 255, i & 255)
       for i in range(40000)]
decl("big-over", "ip", "ipv4_addr",
     join(big[:39000] + ["1.0.5.7"] + big[39000:], 2), flags="interval")
decl("big-late", "ip", "ipv4_addr", join([v4(i) for i in range(40000)], 3),
     after="\t\ttype ipv6_addr\n")
decl("big-bad", "ip", "ipv4_addr",
     join([v4(i) for i in range(40000)] + ["10.0.0.300"], 4))
PY

count=0
for f in "$work"/*.nft; do
	count=$((count + 1))
	same_on_off NFTKIT_ELEM_SCAN scan "$f" || fail=1
done
[ "$count" -gt 300 ] || { echo "FAIL: only $count files"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: $count files, same batch and errors"
exit $fail
