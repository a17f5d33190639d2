#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Translation benchmark: a generated iptables-save file of N rules
# (xlate-gen.py, default 50,000) through ipt2nft and through stock
# iptables-restore-translate; wall seconds (median of RUNS runs) and the
# ratio stock/ours. Not part of `make check`.
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
	*) sed -n '3,10p' "$0"; exit 2 ;;
	esac
done
IPT2NFT=${IPT2NFT:-$here/../../build/xlate/ipt2nft}
STOCK=$(command -v iptables-restore-translate || true)
[ -x "$IPT2NFT" ] || { echo "no ipt2nft at $IPT2NFT"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/xlate-gen.py" "$rules" >"$tmp/rules"

# median wall time of $runs runs of "$@" (stdout discarded)
median() {
	i=0
	: >"$tmp/times"
	while [ $i -lt $runs ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		echo "$s $e" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$tmp/times"
		i=$((i + 1))
	done
	sort -n "$tmp/times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

ours=$(median "$IPT2NFT" "$tmp/rules")
"$IPT2NFT" -s "$tmp/rules" 2>&1 >/dev/null | tail -1
echo "ipt2nft:                    $rules rules in $ours s"
if [ -n "$STOCK" ]; then
	stock=$(median "$STOCK" -f "$tmp/rules")
	echo "iptables-restore-translate: $rules rules in $stock s"
	echo "$stock $ours" | awk '{ printf "ratio stock/ours: %.2f\n", $1 / $2 }'
fi
