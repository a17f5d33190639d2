#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Translation benchmark: a generated iptables-save file of N rules
# (xlate-gen.py, default 50,000) through ipt2nft and through stock
# iptables-restore-translate; wall seconds (median of RUNS runs) and the
# ratio stock/ours; with GNU time (/usr/bin/time) also user and system
# CPU seconds and peak RSS (each a median) and the CPU ratio. Not part
# of `make check`.
#
#   xlate-bench.sh [-r RULES] [-n RUNS]
# Environment: IPT2NFT=path to ipt2nft (default build/xlate/ipt2nft).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rules=50000
runs=3
while getopts r:n:h opt; do
	case $opt in
	r) rules=$OPTARG ;;
	n) runs=$OPTARG ;;
	*) sed -n '3,12p' "$0"; exit 2 ;;
	esac
done
IPT2NFT=${IPT2NFT:-$here/../../build/xlate/ipt2nft}
STOCK=$(command -v iptables-restore-translate || true)
[ -x "$IPT2NFT" ] || { echo "no ipt2nft at $IPT2NFT"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/xlate-gen.py" "$rules" >"$tmp/rules"

TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=

# "WALL USER SYS MB" of "$@" (stdout discarded), per-column medians of
# $runs runs; USER SYS MB are "-" without GNU time
measure() {
	i=0
	: >"$tmp/times"
	while [ $i -lt $runs ]; do
		if [ -n "$TIME" ]; then
			"$TIME" -f '%e %U %S %M' -o "$tmp/t" "$@" >/dev/null \
				2>&1 || true
			tail -1 "$tmp/t" >>"$tmp/times"
		else
			s=$(date +%s.%N)
			"$@" >/dev/null 2>&1 || true
			e=$(date +%s.%N)
			echo "$s $e" | awk '{ printf "%.3f - - -\n", $2 - $1 }' \
				>>"$tmp/times"
		fi
		i=$((i + 1))
	done
	for c in 1 2 3 4; do
		cut -d' ' -f$c "$tmp/times" | sort -n |
			awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
	done | tr '\n' ' ' | awk '{ mb = $4 == "-" ? "-" : sprintf("%.1f", $4 / 1024)
		print $1, $2, $3, mb }'
}

# "NAME: RULES rules in WALL s (user U s, system S s, peak MB MB)"
report() {
	echo "$2" | awk -v n="$1" -v r="$rules" '{
		printf "%-27s %s rules in %s s", n ":", r, $1
		if ($2 != "-")
			printf " (user %s s, system %s s, peak %s MB)", $2, $3, $4
		printf "\n" }'
}

ours=$(measure "$IPT2NFT" "$tmp/rules")
"$IPT2NFT" -s "$tmp/rules" 2>&1 >/dev/null | tail -1
report ipt2nft "$ours"
if [ -n "$STOCK" ]; then
	stock=$(measure "$STOCK" -f "$tmp/rules")
	report iptables-restore-translate "$stock"
	echo "$stock $ours" | awk '{ printf "ratio stock/ours: %.2f", $1 / $5
		if ($2 != "-" && $6 + $7 > 0)
			printf " (CPU user+system: %.2f)", ($2 + $3) / ($6 + $7)
		printf "\n" }'
fi
