#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Compile-time benchmark: `nft -c -f` on one-chain rulesets of growing
# size, ours vs stock nft 1.0.6, with GNU time: wall, user CPU, system
# CPU and peak RSS, each the median of RUNS runs. Not part of make check.
#
#   compile-100k.sh [-s "10000 20000 50000 100000"] [-n RUNS] [-S] [-o DIR]
#                   [-I RULES]
#     -s  sizes (rules), ascending; growth is reported first -> last
#     -n  runs per size and tool (default 3; medians reported)
#     -S  ours only (skip stock nft)
#     -o  where the generated rulesets go (default a temp dir)
#     -I  also count user-space instructions (valgrind callgrind) on a
#         RULES-rule file: independent of the machine's load; ~1 minute
#         for stock at 10000
# Environment: NFT=path to our nft (default ../../build/nftc/nft from here).
#
# Three columns of figures per size:
#   ours-kernel  `unshare -n nft -c -f F`: ours compiles, then sends the
#                batch to the kernel without commit (root, nf_tables);
#                like stock -c, so this is the like-for-like comparison
#   ours-offline NFTKIT_OFFLINE_CHECK=1 nft -c -f F: compile only
#   stock        `unshare -n /usr/sbin/nft -c -f F` (always asks the
#                kernel)
# In kernel mode the kernel's own work (system time) is part of every
# tool's figure and bounds the wall-time ratio.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sizes="10000 20000 50000 100000"
runs=3
stock=1
dir=""
icount=""
while getopts s:n:So:I:h opt; do
	case $opt in
	s) sizes=$OPTARG ;;
	n) runs=$OPTARG ;;
	S) stock=0 ;;
	o) dir=$OPTARG ;;
	I) icount=$OPTARG ;;
	*) sed -n '3,24p' "$0"; exit 2 ;;
	esac
done
NFT=${NFT:-$here/../../build/nftc/nft}
STOCK=/usr/sbin/nft
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time (/usr/bin/time, package time) is required"; exit 2; }
[ -x "$NFT" ] || { echo "our nft not found: set NFT=/path/to/nft"; exit 2; }
kernel=1
if ! unshare -n true 2>/dev/null; then
	echo "note: no private netns (not root?): kernel mode and stock skipped"
	kernel=0
	stock=0
fi
if [ $stock = 1 ] && [ ! -x "$STOCK" ]; then
	echo "note: $STOCK not found: ours only"
	stock=0
fi
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# measure CMD...: prints "WALL USER SYS KB" (per-column medians over
# $runs runs), or "fail"
measure() {
	i=0
	: >"$dir/m"
	while [ $i -lt "$runs" ]; do
		if ! "$TIME" -f '%e %U %S %M' -o "$dir/t" "$@" >/dev/null \
		    2>"$dir/err"; then
			echo fail
			sed 's/^/  | /' "$dir/err" | head -5 >&2
			return
		fi
		tail -1 "$dir/t" >>"$dir/m"
		i=$((i + 1))
	done
	for c in 1 2 3 4; do
		cut -d' ' -f$c "$dir/m" | sort -n |
			awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'
	done | tr '\n' ' '
	echo
}

printf '%-8s %-13s %8s %8s %8s %9s %9s\n' rules tool wall_s user_s sys_s \
	peak_MB B/rule
: >"$dir/results"
for n in $sizes; do
	f="$dir/bench-$n.nft"
	[ -f "$f" ] || python3 "$here/gen-ruleset.py" "$n" >"$f"
	r_ok="fail"; r_ko="- - - -"; r_st="- - - -"
	r_ko=$(if [ $kernel = 1 ]; then
		measure env -u NFTKIT_OFFLINE_CHECK unshare -n "$NFT" -c -f "$f"
		else echo "- - - -"; fi)
	r_ok=$(measure env NFTKIT_OFFLINE_CHECK=1 "$NFT" -c -f "$f")
	[ $stock = 1 ] && r_st=$(measure unshare -n "$STOCK" -c -f "$f")
	for t in ours-kernel ours-offline stock; do
		case $t in
		ours-kernel) r=$r_ko ;;
		ours-offline) r=$r_ok ;;
		stock) r=$r_st ;;
		esac
		echo "$n $t $r" >>"$dir/results"
		echo "$n $t $r" | awk '$3 != "-" && $3 != "fail" {
			printf "%-8s %-13s %8.2f %8.2f %8.2f %9.1f %9.0f\n",
				$1, $2, $3, $4, $5, $6 / 1024, $6 * 1024 / $1; next }
			{ printf "%-8s %-13s %8s\n", $1, $2, $3 }'
	done
done
awk '
{ k = $1 SUBSEP $2; w[k] = $3; u[k] = $4; s[k] = $5; m[k] = $6
  if (!($1 in seen)) { seen[$1] = 1; n[++nn] = $1 } }
function ok(k) { return (k in w) && w[k] != "-" && w[k] != "fail" }
function ratio(a, b) { return (b > 0) ? sprintf("%.2f", a / b) : "-" }
END {
	print ""
	print "ratios stock / ours (> 1: ours faster / smaller):"
	printf "%-8s %-13s %8s %8s %8s\n", "rules", "vs", "wall", "user", "peak_RSS"
	for (i = 1; i <= nn; i++) {
		st = n[i] SUBSEP "stock"
		if (!ok(st)) continue
		split("ours-kernel ours-offline", ts, " ")
		for (j = 1; j <= 2; j++) {
			o = n[i] SUBSEP ts[j]
			if (!ok(o)) continue
			printf "%-8s %-13s %8s %8s %8s\n", n[i], ts[j],
				ratio(w[st], w[o]), ratio(u[st], u[o]),
				ratio(m[st], m[o])
		}
	}
	if (nn < 2) exit
	print ""
	printf "growth %s -> %s rules (x%.0f):\n", n[1], n[nn], n[nn] / n[1]
	split("ours-kernel ours-offline stock", ts, " ")
	for (j = 1; j <= 3; j++) {
		a = n[1] SUBSEP ts[j]; b = n[nn] SUBSEP ts[j]
		if (!ok(a) || !ok(b)) continue
		printf "  %-13s wall x%s  user x%s  sys x%s  peak_RSS x%s" \
			"  (%.0f B per added rule)\n",
			ts[j], ratio(w[b], w[a]), ratio(u[b], u[a]),
			ratio(s[b], s[a]), ratio(m[b], m[a]),
			(m[b] - m[a]) * 1024 / (n[nn] - n[1])
	}
}' "$dir/results"

# instructions PREFIX... -- CMD...: user-space instructions CMD executes
# (callgrind), PREFIX (env, unshare) running valgrind itself
instructions() {
	pre=""
	while [ "$1" != "--" ]; do pre="$pre $1"; shift; done
	shift
	$pre valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
		>/dev/null 2>"$dir/vg" || { echo fail; return; }
	sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$dir/vg" | tail -1
}

if [ -n "$icount" ]; then
	if ! command -v valgrind >/dev/null; then
		echo "note: valgrind not installed: no instruction counts"
		exit 0
	fi
	f="$dir/bench-$icount.nft"
	[ -f "$f" ] || python3 "$here/gen-ruleset.py" "$icount" >"$f"
	io=$(instructions env NFTKIT_OFFLINE_CHECK=1 -- "$NFT" -c -f "$f")
	ik=-; is=-
	[ $kernel = 1 ] && ik=$(instructions env -u NFTKIT_OFFLINE_CHECK \
		unshare -n -- "$NFT" -c -f "$f")
	[ $stock = 1 ] && is=$(instructions unshare -n -- "$STOCK" -c -f "$f")
	echo
	echo "user-space instructions, $icount rules (callgrind):"
	echo "$io $ik $is" | awk '{
		printf "  ours-offline %s\n  ours-kernel  %s\n  stock        %s\n",
			$1, $2, $3
		if ($3 != "-" && $3 != "fail" && $2 > 0)
			printf "  stock / ours-kernel x%.2f\n", $3 / $2 }'
fi
