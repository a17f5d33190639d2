#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Compile-time benchmark: `nft -c -f` on one-chain rulesets of growing
# size, ours vs stock nft (in a private netns), wall time and peak RSS
# (GNU time), the median of RUNS runs. Not part of `make check`.
#
#   compile-100k.sh [-s "10000 20000 50000 100000"] [-n RUNS] [-S] [-o DIR]
#     -s  sizes (rules); stock needs ~100 s at 100k, so start small
#     -n  runs per size and tool (default 1; median reported)
#     -S  ours only (skip stock nft)
#     -o  where the generated rulesets go (default a temp dir)
# Environment: NFT=path to our nft (default ../../build/nftc/nft from here,
# else nft in BUILD).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sizes="10000 20000 50000 100000"
runs=1
stock=1
dir=""
while getopts s:n:So:h opt; do
	case $opt in
	s) sizes=$OPTARG ;;
	n) runs=$OPTARG ;;
	S) stock=0 ;;
	o) dir=$OPTARG ;;
	*) sed -n '3,14p' "$0"; exit 2 ;;
	esac
done
NFT=${NFT:-$here/../../build/nftc/nft}
STOCK=/usr/sbin/nft
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time (/usr/bin/time) is required"; exit 2; }
[ -x "$NFT" ] || { echo "our nft not found: set NFT=/path/to/nft"; exit 2; }
if [ $stock = 1 ] && { [ ! -x "$STOCK" ] || ! unshare -n true 2>/dev/null; }; then
	echo "note: stock nft cannot run in a netns here; ours only"
	stock=0
fi
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# measure CMD...: prints "SECONDS KB" (median over $runs), or "fail"
measure() {
	i=0
	: >"$dir/m"
	while [ $i -lt "$runs" ]; do
		if ! "$TIME" -f '%e %M' -o "$dir/t" "$@" >/dev/null 2>"$dir/err"; then
			echo fail
			sed 's/^/  | /' "$dir/err" | head -5 >&2
			return
		fi
		tail -1 "$dir/t" >>"$dir/m"
		i=$((i + 1))
	done
	sort -n "$dir/m" | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'
}

printf '%-8s %10s %10s %10s %10s %11s %10s\n' rules ours_s ours_MB \
	stock_s stock_MB time_x mem_x
: >"$dir/results"
for n in $sizes; do
	f="$dir/bench-$n.nft"
	[ -f "$f" ] || python3 "$here/gen-ruleset.py" "$n" >"$f"
	o=$(measure "$NFT" -c -f "$f")
	s="- -"
	[ $stock = 1 ] && s=$(measure unshare -n "$STOCK" -c -f "$f")
	echo "$n $o $s" >>"$dir/results"
	echo "$n $o $s" | awk '{
		os = $2; om = $3 / 1024; ss = $4; sm = $5 / 1024;
		tx = (ss != "-" && ss != "fail" && os > 0) ? sprintf("%.2f", ss / os) : "-";
		mx = (ss != "-" && ss != "fail" && om > 0) ? sprintf("%.2f", sm / om) : "-";
		printf "%-8s %10s %10.1f %10s %10s %11s %10s\n", $1, os, om, ss,
			(ss == "-" || ss == "fail") ? "-" : sprintf("%.1f", sm), tx, mx }'
done
echo "(time_x, mem_x: stock / ours; > 1 means ours is faster / smaller)"
awk 'NR == 1 { n0 = $1; o0 = $2; s0 = $4 } { n1 = $1; o1 = $2; s1 = $4 }
END {
	if (NR < 2) exit;
	printf "growth %s -> %s rules (x%.0f): ours time x%.2f", n0, n1, n1 / n0,
		(o0 > 0) ? o1 / o0 : 0;
	if (s0 != "-" && s0 != "fail" && s1 != "fail" && s0 > 0)
		printf ", stock time x%.2f", s1 / s0;
	print "" }' "$dir/results"
