#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# iptables-restore-nft / iptables-save-nft against stock iptables-nft on
# ../shared/realworld/*.rules. For each file (family from manifest.tsv),
# each in a fresh private network namespace (unshare -n):
#   stock: iptables-nft-restore FILE; iptables-nft-save      -> S
#          and our iptables-save-nft of that same state      -> R
#   ours:  iptables-restore-nft FILE; iptables-save-nft      -> O
#          and stock iptables-nft-save of that same state    -> X
# "save" passes when O == S, "stock-reads" when X == S, "reads-stock"
# when R == S (header comment lines and counter values aside). A file stock refuses must be refused
# by ours too. Prints one line per file and the counts.
#
# Floors (MIN_SAVE, MIN_STOCK_READS, MIN_LOAD) keep the test honest: it
# fails when fewer files pass than did when it was written.
# Needs root and nf_tables; skips (77) otherwise. Never touches the root
# namespace.
set -u
SKIP=77
SHARED=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
RW="$SHARED/realworld"
SHIM=${SHIM:-${top_builddir:-$(dirname "$0")/../../build}/iptables-shim}
MIN_LOAD=${MIN_LOAD:-43}
MIN_SAVE=${MIN_SAVE:-43}
MIN_STOCK_READS=${MIN_STOCK_READS:-43}
MIN_READS_STOCK=${MIN_READS_STOCK:-43}
# isem-ugent.rules: xlate reads the pre-2010 "-d ! X" that 1.8.9 refuses
MAX_ACCEPTED=${MAX_ACCEPTED:-0}

[ -d "$RW" ] || { echo "no $RW"; exit $SKIP; }
[ -x "$SHIM/iptables-restore-nft" ] || { echo "no $SHIM"; exit $SKIP; }
command -v iptables-nft-restore >/dev/null || {
	echo "no stock iptables-nft-restore"; exit $SKIP; }
unshare -n iptables-nft-save >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# header comments out, counters zeroed
norm() { grep -v '^#' | sed -E 's/\[[0-9]+:[0-9]+\]/[0:0]/g'; }

family_of() {	# file -> 4|6
	b=$(basename "$1" .rules)
	b=${b%.fixed}
	f=$(awk -F'\t' -v n="$b" '$1 == n { print $6 }' "$RW/manifest.tsv")
	[ "$f" = v6 ] && echo 6 || echo 4
}

loaded=0 saved=0 sreads=0 rstock=0 both_refuse=0 total=0 bad=0
for f in "$RW"/*.rules; do
	n=$(basename "$f")
	env="$RW/${n%.rules}.env.sh"
	env=${env%.fixed.env.sh}
	[ -f "$env" ] || env="$RW/$(echo "$n" | sed 's/\(\.fixed\)\?\.rules$//').env.sh"
	fam=$(family_of "$f")
	if [ "$fam" = 6 ]; then P=ip6tables; else P=iptables; fi
	prep=true
	[ -f "$env" ] && prep="sh $env"
	total=$((total + 1))
	unshare -n sh -c "$prep >/dev/null 2>&1; $P-nft-restore '$f' \
		2>/dev/null || exit 1; $P-nft-save > '$work/S' 2>/dev/null &&
		'$SHIM/$P-save-nft' > '$work/R' 2>/dev/null; true"
	s_rc=$?
	unshare -n sh -c "$prep >/dev/null 2>&1; '$SHIM/$P-restore-nft' '$f' \
		2>'$work/err' || exit 1; '$SHIM/$P-save-nft' > '$work/O' \
		2>/dev/null; $P-nft-save > '$work/X' 2>/dev/null; true"
	o_rc=$?
	if [ "$s_rc" != 0 ]; then
		if [ "$o_rc" != 0 ]; then
			both_refuse=$((both_refuse + 1))
			echo "refused-by-both  $n: $(head -1 "$work/err")"
		else
			bad=$((bad + 1))
			echo "FAIL accepted    $n (stock refuses it)"
		fi
		continue
	fi
	if [ "$o_rc" != 0 ]; then
		echo "FAIL load        $n: $(head -1 "$work/err")"
		continue
	fi
	loaded=$((loaded + 1))
	norm < "$work/S" > "$work/S.n"
	norm < "$work/O" > "$work/O.n"
	norm < "$work/X" > "$work/X.n"
	norm < "$work/R" > "$work/R.n"
	r1=differs r2=differs r3=differs
	if cmp -s "$work/S.n" "$work/R.n"; then
		r3=same; rstock=$((rstock + 1))
	fi
	if cmp -s "$work/S.n" "$work/O.n"; then
		r1=same; saved=$((saved + 1))
	fi
	if cmp -s "$work/S.n" "$work/X.n"; then
		r2=same; sreads=$((sreads + 1))
	fi
	d=$(diff "$work/S.n" "$work/O.n" | grep -c '^[<>]')
	echo "loaded save=$r1 ($d lines) stock-reads=$r2 reads-stock=$r3  $n"
	if [ -n "${VERBOSE:-}" ] && [ "$r1" = differs ]; then
		diff "$work/S.n" "$work/O.n" | head -${VERBOSE}
	fi
done
echo "realworld: $total files: $loaded loaded ($both_refuse refused by" \
     "both, $bad accepted wrongly); save identical $saved/$loaded;" \
     "stock save of our state identical $sreads/$loaded;" \
     "our save of stock's state identical $rstock/$loaded"
[ "$bad" -le "$MAX_ACCEPTED" ] && [ "$loaded" -ge "$MIN_LOAD" ] &&
	[ "$saved" -ge "$MIN_SAVE" ] && [ "$sreads" -ge "$MIN_STOCK_READS" ] &&
	[ "$rstock" -ge "$MIN_READS_STOCK" ]
