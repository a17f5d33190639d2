#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Round trip through the kernel: for every ../shared/realworld file our
# iptables-restore-nft loads, restore it into a private namespace, save
# it with iptables-save-nft, restore that output into a second fresh
# namespace: both must hold identical VM code (stock nft's
# `nft --debug=netlink list ruleset`, counters zeroed, handles aside). Counts the files
# that come back identical; fails below the floor MIN_SAME.
# Needs root and nf_tables; skips (77) otherwise.
set -u
SKIP=77
SHARED=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
RW="$SHARED/realworld"
SHIM=${SHIM:-${top_builddir:-$(dirname "$0")/../../build}/iptables-shim}
MIN_SAME=${MIN_SAME:-43}
[ -d "$RW" ] || { echo "no $RW"; exit $SKIP; }
[ -x "$SHIM/iptables-restore-nft" ] || { echo "no $SHIM"; exit $SKIP; }
unshare -n nft list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The VM code parts (rules, set elements) of the debug listing (stock
# nft interleaves them with each table's listing, left out), counters
# zeroed and rule handles left out: saving prints every built-in chain,
# so the second restore may create empty base chains the first did not,
# which shifts handles; and it prints tables in iptables-save's order,
# so blocks are sorted (stably) by table and chain.
vm() {
	awk '/^table / { skip = 1 } !skip { print } /^}/ { skip = 0 }' |
	sed -E 's/(pkts|bytes) [0-9]+/\1 0/g; s/^(ip6? [^ ]+ [^ ]+)( [0-9]+)+$/\1/' |
	awk 'BEGIN { RS = ""; FS = "\n" }
	     { k = $1; gsub(/\n/, "\001");
	       print k "\002" $0 }' |
	sort -s -t "$(printf '\002')" -k1,1
}

same=0 total=0
for f in "$RW"/*.rules; do
	n=$(basename "$f")
	b=${n%.rules}; b=${b%.fixed}
	fam=$(awk -F'\t' -v n="$b" '$1 == n { print $6 }' "$RW/manifest.tsv")
	if [ "$fam" = v6 ]; then P=ip6tables; else P=iptables; fi
	env="$RW/$b.env.sh"
	prep=true
	[ -f "$env" ] && prep="sh $env"
	unshare -n sh -c "$prep >/dev/null 2>&1
		'$SHIM/$P-restore-nft' '$f' 2>/dev/null || exit 1
		nft --debug=netlink list ruleset > '$work/vm1' 2>/dev/null
		'$SHIM/$P-save-nft' > '$work/saved' 2>/dev/null" || continue
	total=$((total + 1))
	unshare -n sh -c "$prep >/dev/null 2>&1
		'$SHIM/$P-restore-nft' '$work/saved' 2>'$work/err' &&
		nft --debug=netlink list ruleset > '$work/vm2' 2>/dev/null"
	if [ $? = 0 ] && vm < "$work/vm1" > "$work/a" &&
	   vm < "$work/vm2" > "$work/b" && cmp -s "$work/a" "$work/b"; then
		same=$((same + 1))
		echo "same     $n"
	else
		echo "differs  $n: $(head -1 "$work/err")"
	fi
done
echo "roundtrip: $same/$total files give identical VM code"
[ "$same" -ge "$MIN_SAME" ]
