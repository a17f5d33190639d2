#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Real-world iptables-save files ($NFTKIT_SHARED/realworld): translate
# each with ipt2nft (its .fixed variant where one exists; the ipsets its
# .env.sh creates are passed with --ipsets, as `ipset save` prints them
# in a private namespace), then load the result with our nft and with
# stock nft, each in its own private network namespace (unshare -n; as
# root only, otherwise our nft -c). Prints one line per file and totals.
#
# Fails when ipt2nft crashes, when our nft or stock nft rejects a
# translation, or when more rules than $MAX_UNTRANSLATED (default: the
# measured figure) are not translated. Skips (77) without the corpus.
set -u
shared=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
dir=$shared/realworld
. "${srcdir:-$(dirname "$0")/..}/lib/realworld.sh"
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
nft=${NFT:-${top_builddir:-../..}/nftc/nft}
stock=/usr/sbin/nft
# one rule: -m string (payload search), which nftables cannot express
MAX_UNTRANSLATED=${MAX_UNTRANSLATED:-1}
# The 55 approximated rules (8bc138d) have no exact nft 1.0.6 form: 39
# recent --hitcount (xt_recent counts hits in a sliding window of
# timestamps; nft has token-bucket limits), 16 CHECKSUM --checksum-fill
# (fills in a CHECKSUM_PARTIAL packet's checksum; nft has no statement).
[ -d "$dir" ] || { echo "SKIP: no $dir"; exit 77; }
[ -x "$ipt2nft" ] || { echo "SKIP: no ipt2nft"; exit 77; }
[ -x "$nft" ] || { echo "SKIP: no nft"; exit 77; }
root=0
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -n true 2>/dev/null; then
	root=1
fi
use_stock=0
[ $root = 1 ] && [ -x $stock ] && use_stock=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=0 rules=0 exact=0 approx=0 untrans=0 ours_ok=0 stock_ok=0 bad=0
stock_untrans=0 stock_files=0
for f in "$dir"/*.rules; do
	rw_pick "$f" || continue
	sets=
	if [ -f "$dir/$name.env.sh" ] && [ $root = 1 ] &&
	   command -v ipset >/dev/null 2>&1; then
		unshare -n sh -c ". '$dir/$name.env.sh' >/dev/null 2>&1; ipset save" \
			>"$tmp/$name.ipsets" 2>/dev/null
		sets="--ipsets $tmp/$name.ipsets"
	fi
	out=$tmp/$name.nft
	"$ipt2nft" $fam -s -q $sets "$f" >"$out" 2>"$tmp/err"
	rc=$?
	files=$((files + 1))
	if [ $rc -gt 1 ]; then
		echo "FAIL: $name: ipt2nft exit status $rc"
		sed 's/^/  | /' "$tmp/err" | head -5
		bad=$((bad + 1))
		continue
	fi
	grep ': error:' "$tmp/err" | sed "s/^/NOTE: $name: /" | head -3
	set -- $(sed -n 's/^ipt2nft: \([0-9]*\) rules: \([0-9]*\) translated, \([0-9]*\) approximated, \([0-9]*\) not.*/\1 \2 \3 \4/p' "$tmp/err")
	rules=$((rules + $1)); exact=$((exact + $2))
	approx=$((approx + $3)); untrans=$((untrans + $4))
	o=no s=-
	if [ $root = 1 ]; then
		unshare -n "$nft" -f "$out" >/dev/null 2>"$tmp/nerr"
	else
		"$nft" -c -f "$out" >/dev/null 2>"$tmp/nerr"
	fi
	if [ $? = 0 ]; then
		o=yes; ours_ok=$((ours_ok + 1))
	else
		echo "FAIL: $name: our nft rejects the translation"
		sed 's/^/  | /' "$tmp/nerr" | head -3
		bad=$((bad + 1))
	fi
	if [ $use_stock = 1 ]; then
		if unshare -n $stock -f "$out" >/dev/null 2>"$tmp/serr"; then
			s=yes; stock_ok=$((stock_ok + 1))
		else
			s=no
			echo "FAIL: $name: stock nft rejects the translation"
			sed 's/^/  | /' "$tmp/serr" | head -5
			bad=$((bad + 1))
		fi
	fi
	# stock's translator, for comparison: "# -A ..." lines are the
	# rules it could not translate
	st=-
	xt=iptables-restore-translate
	[ -n "$fam" ] && xt=ip6tables-restore-translate
	if command -v $xt >/dev/null 2>&1 &&
	   $xt -f "$f" >"$tmp/stock.out" 2>/dev/null; then
		st=$(grep -c '^# -' "$tmp/stock.out")
		stock_untrans=$((stock_untrans + st))
		stock_files=$((stock_files + 1))
	fi
	printf '%-42s rules %5d exact %5d approx %3d untranslated %3d (stock %s) nft %s stock %s\n' \
		"$name" "$1" "$2" "$3" "$4" "$st" "$o" "$s"
done
echo "realworld: $files files, $rules rules: $exact exact, $approx approximated," \
	"$untrans not translated; loads: ours $ours_ok/$files," \
	"stock $( [ $use_stock = 1 ] && echo $stock_ok/$files || echo skipped)"
echo "stock iptables-restore-translate: $stock_untrans rules not translated" \
	"($stock_files files it read)"
if [ $untrans -gt $MAX_UNTRANSLATED ]; then
	echo "FAIL: $untrans rules not translated (at most $MAX_UNTRANSLATED)"
	bad=$((bad + 1))
fi
[ $bad -eq 0 ]
