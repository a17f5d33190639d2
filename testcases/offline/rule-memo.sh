#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The rule memo (nftc/rule_memo.c) against the full path
# (NFTKIT_RULE_MEMO=0). For each file, "nft -c --debug=netlink" offline
# (NFTKIT_OFFLINE_CHECK; the debug text is decoded from the rule
# messages' bytes) must print the same batch, the same diagnostics and
# exit the same with the memo on and off. Files:
# - the bench generator's rulesets and the anonymous-set bench file;
# - every example under testcases/ (*.nft);
# - the rules of the nftables tests/py corpus (../shared/conformance,
#   when present) written as chain bodies, one file per .t file and
#   table, each rule three times, and again with its numbers changed;
# - generated files of rules of many shapes (compares, merged compares,
#   prefixes, ranges, protocol numbers, bit fields, marks, IPv6, limits
#   (rates and bursts at 0, 1, u32/u64 max and past them, hex, octal,
#   "over", byte units; one shape a file too),
#   comments, two rules a line, jumps) with random and edge values (0,
#   max, hex, leading zeros) in varying orders so that memo hits happen
#   with them, most with one bad value (max+1, malformed addresses, /33,
#   inverted ranges, conflicting protocols) after a shape is memoized;
# - ranges in order (equal bounds too) until one is inverted after the
#   shape is memoized, whole-byte prefixes with host bits; bit fields
#   and narrow fields memoized, then given a value past their width;
# - anonymous sets: rule-memo-anon.nft (hand-written edge cases) as it
#   is and with one invalid line inserted late, generated files of sets
#   of ports, addresses, marks, integers (random, edge, repeated and
#   named elements, one to many, negated, several sets a rule), one
#   with a bad element after memoization, and anon-gen.py's rulesets.
# Each file also without --debug=netlink, where the streamed batch must
# be the same bytes (the memo's set messages are used only there).
# No root needed.
set -u
SKIP=77
NFT=${NFT:-}
srcdir=${srcdir:-$(dirname "$0")/..}
CONF=${CONF:-$srcdir/../../shared/conformance/nftables-py}
[ -d "$CONF" ] || CONF=/work/shared/conformance/nftables-py

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
command -v python3 >/dev/null || { echo "no python3"; exit $SKIP; }

work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
fail=0
mkdir -p "$work/f"

python3 "$srcdir/bench/gen-ruleset.py" 3000 inet > "$work/f/bench-inet.nft"
python3 "$srcdir/bench/gen-ruleset.py" 600 ip > "$work/f/bench-ip.nft"
python3 "$srcdir/bench/gen-ruleset.py" 600 ip6 > "$work/f/bench-ip6.nft"
n=0
for f in $(find "$srcdir" -name '*.nft' | sort); do
	n=$((n + 1))
	# includes are relative to the example's directory
	cp "$f" "$work/f/ex-$n-$(basename "$f")"
done

for seed in 1 2 3 4 5 6 7 8; do
	python3 "$srcdir/bench/anon-gen.py" "$work/f/anon-gen-$seed.nft" $seed
done

python3 - "$work/f" "$CONF" "$srcdir/offline/rule-memo-anon.nft" <<'PY'
import os, random, re, sys
w, conf, anon_edge = sys.argv[1], sys.argv[2], sys.argv[3]
R = random.Random(7)

def write(name, text):
    with open(os.path.join(w, name), "w") as f:
        f.write(text)

# the anonymous-set bench file
lines = []
for i in range(3000):
    lines.append("tcp dport { 22, 80, %d } accept" % (1024 + i % 60000)
                 if i % 5 == 0 else
                 "ip saddr 10.%d.%d.1 accept" % ((i >> 8) & 255, i & 255))
write("anon.nft", "table inet bench {\n\tchain input {\n\t\ttype filter "
      "hook input priority 0; policy accept;\n\t\t" +
      "\n\t\t".join(lines) + "\n\t}\n}\n")

# ---------------------------------------------------------------- shapes
def ip4():
    return "%d.%d.%d.%d" % tuple(R.randrange(256) for _ in range(4))

def num(bits):
    return lambda: str(R.randrange(1 << bits))

EDGE = {
    "A": ["0.0.0.0", "255.255.255.255", "1.2.3.4", "10.0.0.1"],
    "B": ["::", "::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
          "2001:db8::1", "fe80::1:2:3:4", "1:2:3:4:5:6:7:8"],
    "P": ["1", "65535", "0", "22", "80", "0x16", "0xffff"],
    "N8": ["0", "255", "6", "17", "0xff", "1"],
    "N4": ["0", "15", "5", "0xf"],
    "N6": ["0", "63", "8", "0x3f"],
    "N16": ["0", "65535", "0xffff", "1"],
    "N32": ["0", "4294967295", "0xffffffff", "1"],
    "M": ["0", "0xffffffff", "4294967295", "0x00000001", "1"],
    "PL": ["0", "1", "7", "8", "16", "24", "31", "32"],
    "PL6": ["0", "1", "64", "127", "128", "48"],
    # limit rates (u64) and bursts (u32 in the message)
    "LR": ["0", "1", "4294967295", "4294967296", "18446744073709551615",
           "0xffffffffffffffff", "0x10", "010", "007", "999"],
    "LB": ["0", "1", "5", "4294967295", "4294967296", "0xffffffff"],
}
RANDOM = {
    "A": ip4,
    "B": lambda: "2001:db8:%x::%x" % (R.randrange(65536), R.randrange(65536)),
    "P": lambda: str(R.randrange(1, 65536)),
    "N8": num(8), "N4": num(4), "N6": num(6), "N16": num(16),
    "N32": num(32), "M": lambda: "0x%08x" % R.randrange(1 << 32),
    "PL": lambda: str(R.randrange(33)), "PL6": lambda: str(R.randrange(129)),
    "LR": lambda: str(R.randrange(1, 1000) if R.random() < 0.7
                      else R.randrange(1 << 64)),
    "LB": num(16),
}
BAD = {
    "A": ["256.1.1.1", "1.2.3.256", "999.0.0.1", "01.2.3.4", "1.2.3.04",
          "1.2.3.4.5"],
    "B": ["1::2::3", "12345::1", "1:2:3:4:5:6:7:8:9", "g::1", "::ffff:1.2.3.4"],
    "P": ["65536", "99999999999999999999", "022", "00080", "0x10000", "-1"],
    "N8": ["256", "0x100", "007", "1000"],
    "N4": ["16", "0x10", "017"],
    "N6": ["64", "0x40"],
    "N16": ["65536", "0x10000"],
    "N32": ["4294967296", "0x100000000"],
    "M": ["4294967296", "0x100000000", "0x1ffffffff"],
    "PL": ["33", "032", "99"],
    "PL6": ["129", "0129"],
    "LR": ["18446744073709551616", "99999999999999999999999",
           "0x10000000000000000", "08", "0x"],
    "LB": ["18446744073709551616", "0x1ffffffffffffffff"],
}
SHAPES = [
    "ip saddr {A} accept",
    "ip saddr {A} tcp dport {P} accept",
    "ip daddr {A} ip saddr {A} counter drop",
    "ip saddr {A} ip daddr {A} tcp sport {P} tcp dport {P} counter accept",
    "ip6 saddr {B} udp dport {P} drop",
    "ip6 daddr {B} accept",
    "tcp sport {P} tcp dport {P} accept",
    "tcp dport != {P} drop",
    "ip saddr != {A} accept",
    "meta mark {M} counter",
    "meta mark != {M} accept",
    "ct mark {M} accept",
    "meta mark set {M} accept",
    "ct mark set {M}",
    "ip ttl {N8} drop",
    "ip ttl {N8} ip protocol tcp counter drop",
    "ip protocol {N8} accept",
    "meta l4proto {N8} th dport {P} accept",
    "ip protocol {N8} tcp dport {P} accept",
    "ip dscp {N6} accept",
    "ip hdrlength {N4} drop",
    "ip version {N4} accept",
    "ip length {N16} drop",
    "ip id {N16} accept",
    "meta length {N32} accept",
    "meta length > {N32} drop",
    "ct zone {N16} accept",
    "ip daddr {A}/{PL} drop",
    "ip6 daddr {B}/{PL6} drop",
    "tcp dport {P}-{P} accept",
    "ip saddr {A}-{A} drop",
    "limit rate {N16}/second accept",
    "tcp dport {P} limit rate {N8}/minute accept",
    "ip saddr {A} tcp dport {P} ct state new,established counter accept",
    "udp dport {P} ip daddr {A} counter accept",
    "iifname \"eth{N4}\" ip saddr {A} accept",
    "ip saddr {A} ip saddr {A} accept",
    "tcp dport {P} tcp dport {P} accept",
    "ip saddr {A}; tcp dport {P} accept",
    "tcp dport {P} accept comment \"c{N8}\"",
    "ip saddr {A} jump other",
    "ip saddr {A} counter packets {N16} bytes {N32} accept",
    "tcp flags & (syn|ack) == syn tcp dport {P} accept",
    "ct state established accept",
    "ip saddr {A} log prefix \"x{N8}\" drop",
    "udp length {N16} udp checksum {N16} accept",
    "icmp type echo-request icmp id {N16} accept",
    "tcp dport {P} reject with tcp reset",
    "ip saddr {A} queue num {N16}",
    "meta skuid {N16} accept",
    "limit rate {LR}/second accept",
    "tcp flags syn tcp dport {P} limit rate {LR}/second accept",
    "limit rate over {LR}/minute drop",
    "limit rate until {LR}/hour counter accept",
    "limit rate {LR}/day burst {LB} packets accept",
    "ip saddr {A} limit rate over {LR}/second burst {LB} packets drop",
    "limit rate {LR} bytes/second accept",
    "limit rate over {LR} mbytes/second burst {LB} kbytes drop",
    "limit rate {LR} kbytes/minute accept",
    "limit rate {LR}/week accept",
    "limit rate {LR}/second limit rate {LR}/minute accept",
]
PH = re.compile(r"\{(A|B|P|N8|N4|N6|N16|N32|M|PL6|PL|LR|LB)\}")

def order(c, t):
    """A sort key for a value of class c, None if it is not one."""
    try:
        if c == "A":
            return tuple(int(x) for x in t.split("."))
        return int(t, 0)
    except ValueError:
        return None

def fill(shape, bad_at=None):
    """Random and edge values; a range's bounds in order unless bad_at
    is the range's low bound (then inverted) or its high bound (then a
    bad value)."""
    holes = PH.findall(shape)
    k = [0]
    vals = []
    def rep(m):
        c = m.group(1)
        i = k[0]
        k[0] += 1
        if bad_at == i:
            v = R.choice(BAD[c])
        elif R.random() < 0.3:
            v = R.choice(EDGE[c])
        else:
            v = RANDOM[c]()
        vals.append(v)
        return "\x00%d\x00" % i
    text = PH.sub(rep, shape)
    for i in range(len(holes) - 1):
        if "\x00%d\x00-\x00%d\x00" % (i, i + 1) not in text:
            continue
        a, b = order(holes[i], vals[i]), order(holes[i], vals[i + 1])
        if a is None or b is None or bad_at == i + 1:
            continue
        if (a > b) != (bad_at == i):
            vals[i], vals[i + 1] = vals[i + 1], vals[i]
    for i, v in enumerate(vals):
        text = text.replace("\x00%d\x00" % i, v)
    return text, len(holes)

for fi in range(160):
    family = R.choice(["inet", "inet", "ip"])
    shapes = R.sample(SHAPES, R.choice([1, 2, 3, 5]))
    nlines = R.randrange(20, 90)
    out = []
    for _ in range(nlines):
        out.append(fill(R.choice(shapes))[0])
    if fi % 4 != 0:
        s = R.choice(shapes)
        line, nh = fill(s)
        if nh:
            line, _ = fill(s, R.randrange(nh))
        out.insert(R.randrange(len(out) // 2, len(out) + 1), line)
    sep = R.choice(["\n\t\t", "\n\n\t\t", "\n\t\t# c\n\t\t", ";\n\t\t"])
    write("gen-%03d.nft" % fi,
          "table %s t {\n\tchain c {\n\t\ttype filter hook input priority "
          "0; policy accept;\n\t\t%s\n\t}\n\tchain other {\n\t}\n}\n"
          % (family, sep.join(out)))

# limits: one shape a file, memoized, then hits with edge rates and
# bursts (0, 1, u32 and u64 max and past them, hex, octal), a bad one late
for k, shape in enumerate(s for s in SHAPES if "{LR}" in s):
    for j in range(3):
        out = [fill(shape)[0] for _ in range(40)]
        if j:
            line, _ = fill(shape, R.randrange(len(PH.findall(shape))))
            out.insert(R.randrange(20, len(out) + 1), line)
        write("limit-%d-%d.nft" % (k, j), "table inet t {\n\tchain c {"
              "\n\t\t%s\n\t}\n}\n" % "\n\t\t".join(out))

# ranges: bounds in order (equal ones too) until one is inverted, once
# the shape is memoized; host bits under whole-byte prefixes
RANGES = [
    ("tcp dport %s-%s accept", lambda: R.randrange(65536), str),
    ("udp sport != %s-%s drop", lambda: R.randrange(65536), str),
    ("ip saddr %s-%s drop", lambda: R.randrange(1 << 32),
     lambda v: "%d.%d.%d.%d" % (v >> 24, (v >> 16) & 255, (v >> 8) & 255,
                                v & 255)),
    ("meta mark %s-%s counter", lambda: R.randrange(1 << 32), hex),
    ("ip6 daddr %s-%s accept", lambda: R.randrange(1 << 64),
     lambda v: "2001:db8::%x:%x" % (v >> 48, v & 0xffff)),
]
for k, (fmt, draw, show) in enumerate(RANGES):
    for bad in (None, 5, 40):
        out = []
        for j in range(50):
            a, b = sorted((draw(), draw()))
            if j % 7 == 3:
                b = a
            if j == bad:
                a, b = b + 1, a
            out.append(fmt % (show(a), show(b)))
        write("range-%d-%s.nft" % (k, bad), "table inet t {\n\tchain c {\n"
              "\t\t%s\n\t}\n}\n" % "\n\t\t".join(out))
out = []
for j in range(60):
    plen = (8, 16, 24, 32)[j % 4]
    out.append("ip daddr %d.%d.%d.%d/%d drop" % (
        R.randrange(256), R.randrange(256), R.randrange(256),
        R.randrange(256), plen))
    out.append("ip6 saddr 2001:db8:%x:%x::%x/%d accept" % (
        R.randrange(65536), R.randrange(65536), R.randrange(65536),
        (16, 48, 64, 120)[j % 4]))
write("prefix-host-bits.nft", "table inet t {\n\tchain c {\n\t\t%s\n"
      "\t}\n}\n" % "\n\t\t".join(out))

# fields narrower than their bytes or shifted: ten values, then one
# past the field (the evaluator's checks, not the memo's, must decide)
FIELDS = ["ip hdrlength %s drop", "ip version %s accept", "ip dscp %s accept",
          "tcp doff %s drop", "ip6 flowlabel %s accept", "ip frag-off %s drop",
          "ip6 dscp %s accept", "ip ecn %s accept", "tcp flags %s accept",
          "ip ttl %s drop", "udp dport %s accept", "ct mark %s accept"]
for k, fmt in enumerate(FIELDS):
    for b, bad in enumerate(["4", "15", "16", "0x10", "63", "64", "256",
                             "4096", "65536", "1048576", "4294967296"]):
        lines = [fmt % v for v in (0, 5, 3, 7, 2, 1, 4, 6, 1, 0)]
        lines.append(fmt % bad)
        write("field-%d-%d.nft" % (k, b), "table inet t {\n\tchain c {"
              "\n\t\t%s\n\t}\n}\n" % "\n\t\t".join(lines))

# ---------------------------------------------------- anonymous sets
# the hand-written edge cases, each time with one invalid line late
edge = open(anon_edge).read()
at = edge.rindex("\t}\n}")
for k, bad in enumerate([
        "tcp dport { 22, 80, 70000 } accept",
        "tcp dport { 65536 } accept",
        "tcp dport { -1, 80, 1 } accept",
        "tcp dport != { 22, 99999 } drop",
        "ip saddr { 10.0.0.1, 256.1.1.1 } accept",
        "ip saddr { 1.2.3, 10.0.0.2 } accept",
        "ip6 daddr { ::1, 1::2::3, fe80::1 } drop",
        "meta mark { 0x1ffffffff, 0x2 } counter accept",
        "ip ttl { 256, 64 } drop",
        "tcp dport { nosuchservice, 80, 1 } accept",
        "ct mark != { 1, 2, 0x100000000 } drop",
        "ip saddr { 10.0.0.1, 10.0.0.2 } tcp dport { 22, 65536 } counter accept",
        ]):
    write("anon-edge-bad-%d.nft" % k, edge[:at] + "\t\t" + bad + "\n" +
          edge[at:])

ANON = [
    ("tcp dport {P} accept", "P"),
    ("udp sport != {P} drop", "P"),
    ("th dport {P} counter accept", "P"),
    ("ip saddr {A} accept", "A"),
    ("ip daddr != {A} drop", "A"),
    ("ip6 saddr {B} accept", "B"),
    ("meta mark {M} counter", "M"),
    ("ct mark != {M} accept", "M"),
    ("ip ttl {N8} drop", "N8"),
    ("ip length {N16} accept", "N16"),
    ("ct zone {N16} accept", "N16"),
    ("ip dscp {N6} accept", "N6"),
    ("meta length {N32} drop", "N32"),
]
NAMES = {"P": ["ssh", "http", "https", "domain", "ntp"]}

def anon_set(c, n, bad=False):
    vals = []
    for _ in range(n):
        r = R.random()
        if vals and r < 0.1:
            vals.append(R.choice(vals))         # a duplicate
        elif c in NAMES and r < 0.2:
            vals.append(R.choice(NAMES[c]))
        elif r < 0.4:
            vals.append(R.choice(EDGE[c]))
        else:
            vals.append(RANDOM[c]())
    if R.random() < 0.3:
        vals.sort(key=lambda v: (order(c, v) is None, order(c, v) or 0),
                  reverse=R.random() < 0.5)
    if bad:
        vals[R.randrange(n)] = R.choice(BAD[c])
    return "{ %s }" % ", ".join(vals)

for fi in range(60):
    shapes = R.sample(ANON, R.choice([1, 2, 3]))
    family = "inet" if any(c == "B" for _, c in shapes) else \
        R.choice(["inet", "inet", "ip"])
    sizes = {s: R.choice([1, 2, 3, 5, 8, 13]) for s, _ in shapes}
    out = []
    for _ in range(R.randrange(20, 70)):
        s, c = R.choice(shapes)
        n = sizes[s] if R.random() < 0.9 else R.randrange(1, 6)
        line = s.replace("{%s}" % c, anon_set(c, n))
        if R.random() < 0.15:   # two sets a rule, one a plain compare
            line = "tcp sport %s %s" % (anon_set("P", n), line) \
                if c not in ("P",) else \
                "ip saddr %s %s" % (RANDOM["A"](), line)
        out.append(line)
    if fi % 3 == 0:
        s, c = R.choice(shapes)
        out.insert(R.randrange(len(out) // 2, len(out) + 1),
                   s.replace("{%s}" % c, anon_set(c, sizes[s], True)))
    write("anonset-%03d.nft" % fi,
          "table %s t {\n\tchain c {\n\t\ttype filter hook input priority "
          "0; policy accept;\n\t\t%s\n\t}\n}\n"
          % (family, "\n\t\t".join(out)))

# ------------------------------------------------ the tests/py corpus
def bump(rule):
    """Numbers and the last octet of addresses changed."""
    def n(m):
        t = m.group(0)
        if t.startswith("0x"):
            return "0x%x" % (int(t, 16) ^ 1)
        return str(int(t) ^ 1)
    return re.sub(r"(?<![\w.:/-])(0x[0-9a-fA-F]+|\d+)(?![\w.:])", n, rule)

if os.path.isdir(conf):
    for fam in sorted(os.listdir(conf)):
        d = os.path.join(conf, fam)
        if not os.path.isdir(d):
            continue
        for t in sorted(os.listdir(d)):
            if not t.endswith(".t"):
                continue
            chains, tables, rules, sets = {}, [], [], []
            for raw in open(os.path.join(d, t), errors="replace"):
                line = raw.rstrip("\n")
                if not line or line[0] in "#-":
                    continue
                if line[0] == ":":
                    name, _, spec = line[1:].partition(";")
                    chains[name] = spec
                elif line[0] == "*":
                    f, tn, cs = line[1:].split(";")[:3]
                    tables.append((f, tn, cs.split(",")))
                elif line[0] == "!":
                    parts = line[1:].split(";")
                    if len(parts) > 1 and parts[1] == "ok":
                        sets.append(parts[0])
                elif line[0] in "%?":
                    continue
                else:
                    parts = line.split(";")
                    if len(parts) > 1 and parts[1] == "ok":
                        rules.append(parts[0])
            for k, (f, tn, cs) in enumerate(tables):
                body = []
                for s in sets:
                    name, _, spec = s.partition(" ")
                    kw = "map" if " : " in spec else "set"
                    spec = re.sub(r" (flags|timeout|size|policy) ",
                                  r"; \1 ", spec)
                    body.append("\t%s %s { %s; }" % (kw, name, spec))
                for c in cs:
                    spec = chains.get(c, "")
                    body.append("\tchain %s {\n\t\t%s;\n\t\t%s\n\t}" % (
                        c, spec, "\n\t\t".join(r for r in rules
                                               for _ in range(3))))
                base = "%s-%s-%d" % (fam, t[:-2], k)
                write("py-%s.nft" % base, "table %s %s {\n%s\n}\n"
                      % (f, tn, "\n".join(body)))
                body2 = [b for b in body if not b.startswith("\tchain")]
                for c in cs:
                    spec = chains.get(c, "")
                    rs = []
                    for r in rules:
                        rs += [r, bump(r), r, bump(r)]
                    body2.append("\tchain %s {\n\t\t%s;\n\t\t%s\n\t}" % (
                        c, spec, "\n\t\t".join(rs)))
                write("py-%s-bump.nft" % base, "table %s %s {\n%s\n}\n"
                      % (f, tn, "\n".join(body2)))
PY

. "$srcdir/lib/on-off.sh"
export TZ=UTC-2		# both runs print times the same way
count=0
memo_ok=0
for f in "$work"/f/*.nft; do
	count=$((count + 1))
	same_on_off NFTKIT_RULE_MEMO memo "$f" -I "$(dirname "$f")" || fail=1
	[ "$on" = 0 ] && memo_ok=$((memo_ok + 1))
	same_batch_on_off NFTKIT_RULE_MEMO memo "$f" -I "$(dirname "$f")" ||
		fail=1
done
# the files must exercise the memo: most of them compile
[ "$count" -gt 200 ] || { echo "FAIL: only $count files"; fail=1; }
[ "$memo_ok" -gt $((count / 3)) ] ||
	{ echo "FAIL: only $memo_ok of $count files compile"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: $count files ($memo_ok compile), same batch and errors"
exit $fail
