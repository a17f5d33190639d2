#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Rulesets written by stock iptables-nft, listed by ours: every
# ../shared/realworld/*.rules file (the .fixed variant where there is
# one) is loaded with iptables-nft-restore (ip6tables-nft-restore for
# *-v6 / ip6 files, the .env.sh preparation first) in a private network
# namespace, then "nft list ruleset" of stock and of ours must be
# byte-identical, and so must their stderr (stock warns that
# iptables-nft manages the table). Prints the counts. Needs root (unshare -n),
# nf_tables and iptables-nft; skips (77) otherwise.
#   NFT=path/to/nft [KEEP=dir] [MIN_PCT=90] list-iptables.sh
set -u
srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
. "$srcdir/lib/kernel.sh"
SHARED=${NFTKIT_SHARED:-$srcdir/../../shared}

need_nfts
need_cmd iptables-nft-restore
[ -d "$SHARED/realworld" ] || { echo "no realworld corpus"; exit $SKIP; }
need_netns

make_work
same=0 differ=0 noload=0
for f in "$SHARED"/realworld/*.rules; do
	case "$f" in *.fixed.rules) continue;; esac
	name=$(basename "$f" .rules)
	src=$f
	[ -f "${f%.rules}.fixed.rules" ] && src=${f%.rules}.fixed.rules
	restore=iptables-nft-restore
	case "$name" in *v6*|*ip6*) restore=ip6tables-nft-restore;; esac
	env=${f%.rules}.env.sh
	[ -f "$env" ] || env=
	unshare -n sh -c '
		w=$1; ours=$2; stock=$3; restore=$4; src=$5; env=$6
		if [ -n "$env" ]; then sh "$env" >/dev/null 2>&1; fi
		$restore < "$src" > /dev/null 2>&1 || exit 2
		"$stock" list ruleset > "$w/stock" 2> "$w/stock.err"
		"$ours" list ruleset > "$w/ours" 2> "$w/ours.err"
		cmp -s "$w/stock" "$w/ours" || exit 1
		cmp -s "$w/stock.err" "$w/ours.err" || exit 3
		' sh "$work" "$NFT" "$STOCK" "$restore" "$src" "$env"
	case $? in
	0) same=$((same + 1));;
	2) noload=$((noload + 1));;
	*)
		differ=$((differ + 1))
		echo "DIFF $name"
		diff "$work/stock" "$work/ours" | head -6 | sed 's/^/  /'
		diff "$work/stock.err" "$work/ours.err" | head -4 |
			sed 's/^/  err /'
		if [ -n "${KEEP:-}" ]; then
			mkdir -p "$KEEP"
			cp "$work/stock" "$KEEP/$name.stock"
			cp "$work/ours" "$KEEP/$name.ours"
		fi;;
	esac
done
echo "list-iptables: $same identical, $differ differ" \
     "($noload not loadable by iptables-nft-restore)"
[ $((same * 100)) -ge $(((same + differ) * ${MIN_PCT:-90})) ]
