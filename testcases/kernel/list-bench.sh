#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "list ruleset" benchmark, ours against stock nft 1.0.6: each ruleset is
# loaded by stock nft into a fresh private network namespace, then listed
# by both (output compared), with GNU time: wall, user and system seconds
# and peak RSS side by side. Rulesets: 100k rules (bench/gen-ruleset.py),
# 100k rules with an anonymous set in every fifth, a set of 1M IPv4
# addresses, an interval set of 100k prefixes. Not run by "make check".
#   NFT=build/nftc/nft testcases/kernel/list-bench.sh [-s SCALE_PERCENT]
set -u
SKIP=77
STOCK=/usr/sbin/nft
srcdir=${srcdir:-$(dirname "$0")/..}
NFT=${NFT:-}
scale=100
[ "${1:-}" = "-s" ] && scale=$2

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
[ -x /usr/bin/time ] || { echo "no GNU time"; exit $SKIP; }
unshare -n "$STOCK" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n100k=$((100000 * scale / 100))
n1m=$((1000000 * scale / 100))

python3 "$srcdir/bench/gen-ruleset.py" "$n100k" inet > "$work/rules.nft"
python3 - "$n100k" "$n1m" "$work" <<'PY'
import sys
n, m, w = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(w + "/anon.nft", "w") as f:
    f.write("table inet bench {\n\tchain input {\n\t\ttype filter hook "
            "input priority 0; policy accept;\n")
    for i in range(n):
        if i % 5 == 0:
            f.write("\t\ttcp dport { 22, 80, %d } accept\n" % (1024 + i % 60000))
        else:
            f.write("\t\tip saddr 10.%d.%d.1 accept\n" % ((i >> 8) & 255, i & 255))
    f.write("\t}\n}\n")
with open(w + "/set1m.nft", "w") as f:
    f.write("table ip bench {\n\tset s {\n\t\ttype ipv4_addr\n\t\tsize %d\n"
            "\t\telements = { " % (2 * m))
    f.write(", ".join("10.%d.%d.%d" % ((i >> 16) & 255, (i >> 8) & 255, i & 255)
                      for i in range(m)))
    f.write(" }\n\t}\n}\n")
with open(w + "/iv100k.nft", "w") as f:
    f.write("table ip bench {\n\tset s {\n\t\ttype ipv4_addr\n"
            "\t\tflags interval\n\t\telements = { ")
    f.write(", ".join("%d.%d.%d.0/24" % (1 + (i >> 16), (i >> 8) & 255, i & 255)
                      for i in range(n)))
    f.write(" }\n\t}\n}\n")
PY

printf "%-10s %-6s %8s %8s %8s %9s %s\n" ruleset tool wall_s user_s sys_s peak_MB same
for r in rules anon set1m iv100k; do
	unshare -n sh -c '
		"$3" -f "$1/$4.nft" || exit 1
		/usr/bin/time -f "%e %U %S %M" -o "$1/t.stock" \
			"$3" list ruleset > "$1/out.stock"
		/usr/bin/time -f "%e %U %S %M" -o "$1/t.ours" \
			"$2" list ruleset > "$1/out.ours"
		' sh "$work" "$NFT" "$STOCK" "$r" || { echo "$r: load failed"; continue; }
	same=no
	cmp -s "$work/out.stock" "$work/out.ours" && same=yes
	for tool in stock ours; do
		read -r w u s m < "$work/t.$tool"
		printf "%-10s %-6s %8s %8s %8s %9d %s\n" "$r" "$tool" "$w" "$u" \
			"$s" $((m / 1024)) "$same"
	done
done
