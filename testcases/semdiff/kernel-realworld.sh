#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The real-world corpus ($NFTKIT_SHARED/realworld) through the kernel: in
# a private network namespace each file is loaded with stock
# iptables-nft-restore (ip6tables-nft-restore for the v6 ones), whose
# ruleset keeps most extensions as xt compat expressions, then
# `ipt2nft diff kernel FILE` compares the live ruleset with the file's
# own translation. None may be different (the same file on both sides);
# an expression the engine does not model is trouble (counted, named);
# at least half must be proven equivalent.
# Needs root (unshare -n), nf_tables and stock iptables-nft-restore;
# skips (77) otherwise.
set -u
shared=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
dir=$shared/realworld
. "${srcdir:-$(dirname "$0")/..}/lib/realworld.sh"
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
stock_nft=${STOCK_NFT:-/usr/sbin/nft}
[ -d "$dir" ] || { echo "SKIP: no $dir"; exit 77; }
[ -x "$ipt2nft" ] || { echo "SKIP: no ipt2nft"; exit 77; }
if [ -z "${KRW_IN_NETNS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
	command -v iptables-nft-restore >/dev/null && [ -x "$stock_nft" ] ||
		{ echo "SKIP: no stock iptables-nft-restore/nft"; exit 77; }
	unshare -n "$stock_nft" list ruleset >/dev/null 2>&1 ||
		{ echo "SKIP: no nf_tables in a private netns"; exit 77; }
	KRW_IN_NETNS=1 IPT2NFT=$ipt2nft STOCK_NFT=$stock_nft \
		NFTKIT_SHARED=$shared exec unshare -n sh "$0" "$@"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=0 equiv=0 trouble=0 unloaded=0 bad=0
for f in "$dir"/*.rules; do
	rw_pick "$f" || continue
	restore=iptables-nft-restore
	[ -n "$fam" ] && restore=ip6tables-nft-restore
	files=$((files + 1))
	"$stock_nft" flush ruleset
	if ! "$restore" <"$f" 2>/dev/null; then
		unloaded=$((unloaded + 1))
		echo "skip $name: $restore refuses it"
		continue
	fi
	"$ipt2nft" diff $fam --view=none kernel "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $rc in
	0) equiv=$((equiv + 1)); r=equivalent ;;
	1) bad=1; r=DIFFERENT; sed -n '1,30p' "$tmp/out" ;;
	2) trouble=$((trouble + 1))
	   r="trouble: $(grep -m1 -o '`[^`]*$' "$tmp/err" | cut -c1-100)" ;;
	*) bad=1; r="CRASH rc=$rc"; cat "$tmp/err" ;;
	esac
	echo "$name: $r"
done
# The xt extensions one by one (cases/xt.rules, cases/xt6.rules):
# loaded by stock iptables-nft-restore / ip6tables-nft-restore (xt
# match/target expressions in the kernel), equivalent to the file;
# against cases/xt-changed.rules (a port, a uid range and a notrack
# address changed) different in each of the three hooks concerned, and
# against cases/xt6-changed.rules (a hop limit bound, a routing header
# type) in both.
cases=$(cd "$(dirname "$0")" && pwd)/cases
for x in "xt iptables-nft-restore 3" "xt6 ip6tables-nft-restore 2"; do
	set -- $x
	"$stock_nft" flush ruleset
	fam=
	[ "$1" = xt6 ] && fam=-6
	if ! $2 <"$cases/$1.rules" 2>"$tmp/err"; then
		echo "FAIL: $2 refuses cases/$1.rules"; cat "$tmp/err"; bad=1
		continue
	fi
	"$ipt2nft" diff $fam --view=none kernel "$cases/$1.rules" \
		>"$tmp/out" 2>&1
	rc=$?
	"$ipt2nft" diff $fam --view=none kernel "$cases/$1-changed.rules" \
		>"$tmp/out2" 2>&1
	rc2=$?
	nd=$(grep -c '^hook .*: DIFFERENT' "$tmp/out2")
	if [ $rc != 0 ] || [ $rc2 != 1 ] || [ "$nd" != "$3" ]; then
		echo "FAIL $1 cases: exit $rc (want 0), $rc2 with $nd" \
		     "different hooks (want 1, $3)"
		cat "$tmp/out" "$tmp/out2"
		bad=1
	else
		echo "$1 cases: equivalent; changed: $nd hooks different"
	fi
done
echo "semdiff kernel: $files files: $equiv equivalent, $trouble trouble," \
     "$unloaded not loadable, $((files - equiv - trouble - unloaded)) other"
[ $equiv -ge $((files / 2)) ] || { echo "FAIL: too few proven"; bad=1; }
exit $bad
