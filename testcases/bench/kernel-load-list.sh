#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel load and list benchmark, ours against stock nft 1.0.6. For
# each generated ruleset and each tool, in a fresh private network
# namespace: "nft -f" (load), then "nft list ruleset" (list), both under
# GNU time (wall, user, system seconds, peak RSS). Both listings must
# be identical to stock's listing of what stock loaded ("same"). Then
# the figures side by side, with the ratios stock/ours, and ours' wall
# time against its system time (the kernel's share, which bounds every
# user space). Rulesets:
#   rules   100k rules of gen-ruleset.py (no anonymous sets)
#   anon    100k rules, every fifth "tcp dport { 22, 80, N }" accept
#   set1m   one set of 1M IPv4 addresses
#   iv100k  one interval set of 100k /24 prefixes
# Not run by "make check" (minutes of kernel time). Needs root.
#   NFT=build/nftc/nft testcases/bench/kernel-load-list.sh \
#	[-s SCALE_PERCENT] [-r "rules anon set1m iv100k"] [-S: ours only]
set -u
SKIP=77
STOCK=/usr/sbin/nft
srcdir=${srcdir:-$(dirname "$0")/..}
NFT=${NFT:-}
scale=100
sets="rules anon set1m iv100k"
ours_only=
while [ $# -gt 0 ]; do
	case "$1" in
	-s) scale=$2; shift 2;;
	-r) sets=$2; shift 2;;
	-S) ours_only=1; shift;;
	*) echo "usage: $0 [-s PCT] [-r SETS] [-S]"; exit 2;;
	esac
done

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
[ -x /usr/bin/time ] || { echo "no GNU time"; exit $SKIP; }
unshare -n "$STOCK" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK

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
            f.write("\t\ttcp dport { 22, 80, %d } accept\n"
                    % (1024 + i % 60000))
        else:
            f.write("\t\tip saddr 10.%d.%d.1 accept\n"
                    % ((i >> 8) & 255, i & 255))
    f.write("\t}\n}\n")
with open(w + "/set1m.nft", "w") as f:
    f.write("table ip bench {\n\tset s {\n\t\ttype ipv4_addr\n"
            "\t\tsize %d\n\t\telements = { " % (2 * m))
    f.write(", ".join("10.%d.%d.%d" % ((i >> 16) & 255, (i >> 8) & 255,
                                      i & 255) for i in range(m)))
    f.write(" }\n\t}\n}\n")
with open(w + "/iv100k.nft", "w") as f:
    f.write("table ip bench {\n\tset s {\n\t\ttype ipv4_addr\n"
            "\t\tflags interval\n\t\telements = { ")
    f.write(", ".join("%d.%d.%d.0/24" % (1 + (i >> 16), (i >> 8) & 255,
                                         i & 255) for i in range(n)))
    f.write(" }\n\t}\n}\n")
PY

# run TOOL RULESET: load and list in a fresh namespace; t.TOOL.load,
# t.TOOL.list hold "wall user sys KB", out.TOOL the listing
run() {
	unshare -n sh -c '
		w=$1; t=$2; tool=$3; r=$4
		/usr/bin/time -f "%e %U %S %M" -o "$w/t.$t.load" \
			"$tool" -f "$w/$r.nft" || exit 1
		/usr/bin/time -f "%e %U %S %M" -o "$w/t.$t.list" \
			"$tool" list ruleset > "$w/out.$t" || exit 1
		' sh "$work" "$1" "$2" "$3"
}

ratio() {	# a b: a/b with two decimals, "-" if b is 0
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "-";
		else printf "%.1f", a / b }'
}

printf "%-7s %-5s | %7s %6s %6s %6s | %7s %6s %6s %6s | %6s %6s %6s %s\n" \
	ruleset step st_wall st_usr st_sys st_MB ou_wall ou_usr ou_sys ou_MB \
	usr_x mem_x w/sys same
for r in $sets; do
	if [ -z "$ours_only" ]; then
		run stock "$STOCK" "$r" || { echo "$r: stock failed"; continue; }
	fi
	run ours "$NFT" "$r" || { echo "$r: ours failed"; continue; }
	same=-
	if [ -z "$ours_only" ]; then
		sed -E "s/ expires [0-9a-z]+//g" "$work/out.stock" > "$work/a"
		sed -E "s/ expires [0-9a-z]+//g" "$work/out.ours" > "$work/b"
		same=no
		cmp -s "$work/a" "$work/b" && same=yes
	fi
	for step in load list; do
		set -- 0 0 0 0
		[ -z "$ours_only" ] && set -- $(cat "$work/t.stock.$step")
		sw=$1 su=$2 ss=$3 sm=$(($4 / 1024))
		set -- $(cat "$work/t.ours.$step")
		ow=$1 ou=$2 os=$3 om=$(($4 / 1024))
		printf "%-7s %-5s | %7s %6s %6s %6s | %7s %6s %6s %6s | %6s %6s %6s %s\n" \
			"$r" "$step" "$sw" "$su" "$ss" "$sm" "$ow" "$ou" "$os" \
			"$om" "$(ratio "$su" "$ou")" "$(ratio "$sm" "$om")" \
			"$(ratio "$ow" "$os")" "$same"
	done
done
echo "usr_x, mem_x: stock/ours; w/sys: ours' wall over its system time"
