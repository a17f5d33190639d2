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
# With -I PCT, each ruleset is also made at PCT percent of its size and
# each tool's load and list run under valgrind's callgrind, again in a
# fresh private namespace (the kernel does its work, unseen by
# callgrind): their user space instruction counts side by side, with
# the ratios stock/ours (GNU time's user figure is sampled by ticks and
# unreliable next to seconds of system time). -T leaves the GNU time
# table out.
# Not run by "make check" (minutes of kernel time). Needs root.
#   NFT=build/nftc/nft testcases/bench/kernel-load-list.sh \
#	[-s SCALE_PERCENT] [-r "rules anon set1m iv100k"] [-S: ours only]
#	[-I CALLGRIND_SCALE_PERCENT] [-T: no GNU time table]
set -u
SKIP=77
STOCK=/usr/sbin/nft
srcdir=${srcdir:-$(dirname "$0")/..}
NFT=${NFT:-}
scale=100
sets="rules anon set1m iv100k"
ours_only=
iscale=
no_time=
while [ $# -gt 0 ]; do
	case "$1" in
	-s) scale=$2; shift 2;;
	-r) sets=$2; shift 2;;
	-S) ours_only=1; shift;;
	-I) iscale=$2; shift 2;;
	-T) no_time=1; shift;;
	*) echo "usage: $0 [-s PCT] [-r SETS] [-S] [-I PCT] [-T]"; exit 2;;
	esac
done

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
[ -x /usr/bin/time ] || { echo "no GNU time"; exit $SKIP; }
[ -z "$iscale" ] || command -v valgrind >/dev/null ||
	{ echo "no valgrind"; exit $SKIP; }
unshare -n "$STOCK" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# gen SCALE DIR: the four rulesets at SCALE percent, DIR/RULESET.nft
gen() {
	n100k=$((100000 * $1 / 100))
	n1m=$((1000000 * $1 / 100))
	python3 "$srcdir/bench/gen-ruleset.py" "$n100k" inet > "$2/rules.nft"
	python3 - "$n100k" "$n1m" "$2" <<'PY'
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
}

# run TOOL BINARY RULESET: load and list in a fresh namespace;
# t.TOOL.load, t.TOOL.list hold "wall user sys KB", out.TOOL the listing
run() {
	unshare -n sh -c '
		w=$1; t=$2; tool=$3; r=$4
		/usr/bin/time -f "%e %U %S %M" -o "$w/t.$t.load" \
			"$tool" -f "$w/$r.nft" || exit 1
		/usr/bin/time -f "%e %U %S %M" -o "$w/t.$t.list" \
			"$tool" list ruleset > "$w/out.$t" || exit 1
		' sh "$work" "$1" "$2" "$3"
}

# irun TOOL BINARY RULESET: the same under callgrind, from the files of
# $work/i; i.TOOL.load, i.TOOL.list hold the instruction counts
irun() {
	unshare -n sh -c '
		w=$1; t=$2; tool=$3; r=$4
		cg() {	# STEP ARGS...: the run, its count in i.$t.STEP
			s=$1; shift
			valgrind --tool=callgrind -q \
				--callgrind-out-file="$w/cg.$t.$s" "$tool" "$@" ||
				return 1
			sed -n "s/^summary: *//p" "$w/cg.$t.$s" > "$w/i.$t.$s"
			rm -f "$w/cg.$t.$s"
		}
		cg load -f "$w/i/$r.nft" || exit 1
		cg list list ruleset > "$w/iout.$t" || exit 1
		' sh "$work" "$1" "$2" "$3"
}

ratio() {	# a b: a/b with one decimal, "-" if b is 0
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "-";
		else printf "%.1f", a / b }'
}

mega() {	# n: n / 1e6 with one decimal
	awk -v n="$1" 'BEGIN { printf "%.1f", n / 1e6 }'
}

# same A B: "yes" if the listings A and B are the same but for timeouts
same() {
	sed -E "s/ expires [0-9a-z]+//g" "$1" > "$work/a"
	sed -E "s/ expires [0-9a-z]+//g" "$2" > "$work/b"
	if cmp -s "$work/a" "$work/b"; then echo yes; else echo no; fi
}

time_table() {
	gen "$scale" "$work"
	printf "%-7s %-5s | %7s %6s %6s %6s | %7s %6s %6s %6s | %6s %6s %6s %s\n" \
		ruleset step st_wall st_usr st_sys st_MB ou_wall ou_usr ou_sys \
		ou_MB usr_x mem_x w/sys same
	for r in $sets; do
		if [ -z "$ours_only" ]; then
			run stock "$STOCK" "$r" ||
				{ echo "$r: stock failed"; continue; }
		fi
		run ours "$NFT" "$r" || { echo "$r: ours failed"; continue; }
		same=-
		[ -z "$ours_only" ] && same=$(same "$work/out.stock" "$work/out.ours")
		for step in load list; do
			set -- 0 0 0 0
			[ -z "$ours_only" ] && set -- $(cat "$work/t.stock.$step")
			sw=$1 su=$2 ss=$3 sm=$(($4 / 1024))
			set -- $(cat "$work/t.ours.$step")
			ow=$1 ou=$2 os=$3 om=$(($4 / 1024))
			printf "%-7s %-5s | %7s %6s %6s %6s | %7s %6s %6s %6s | %6s %6s %6s %s\n" \
				"$r" "$step" "$sw" "$su" "$ss" "$sm" "$ow" "$ou" \
				"$os" "$om" "$(ratio "$su" "$ou")" \
				"$(ratio "$sm" "$om")" "$(ratio "$ow" "$os")" "$same"
		done
	done
	echo "usr_x, mem_x: stock/ours; w/sys: ours' wall over its system time"
}

instr_table() {
	mkdir -p "$work/i"
	gen "$iscale" "$work/i"
	echo "callgrind, ${iscale}% scale: user space instructions, millions"
	printf "%-7s %-5s | %10s %10s | %7s %s\n" ruleset step stock ours \
		instr_x same
	for r in $sets; do
		if [ -z "$ours_only" ]; then
			irun stock "$STOCK" "$r" ||
				{ echo "$r: stock failed"; continue; }
		fi
		irun ours "$NFT" "$r" || { echo "$r: ours failed"; continue; }
		same=-
		[ -z "$ours_only" ] &&
			same=$(same "$work/iout.stock" "$work/iout.ours")
		for step in load list; do
			si=0
			[ -z "$ours_only" ] && si=$(cat "$work/i.stock.$step")
			oi=$(cat "$work/i.ours.$step")
			printf "%-7s %-5s | %10s %10s | %7s %s\n" "$r" "$step" \
				"$(mega "$si")" "$(mega "$oi")" \
				"$(ratio "$si" "$oi")" "$same"
		done
	done
	echo "instr_x: stock/ours"
}

[ -n "$no_time" ] || time_table
[ -z "$iscale" ] || instr_table
