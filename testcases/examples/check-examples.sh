#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bundled example rulesets must load (nft -c -f) with our nft, and with
# stock nft when it can be run in a private netns. With both, the VM code
# (--debug=netlink) is compared too: reported, and fatal only when
# EXAMPLES_STRICT=1 (until the compiler covers everything they use).
# examples/pending/*.nft: valid rulesets (stock must load them) that our
# nft does not handle yet: reported, never fatal; move one up to
# examples/ once ours loads it.
set -u
here=${srcdir:-$(dirname "$0")/..}/examples
NFT=${NFT:-../nftc/nft}
STOCK=/usr/sbin/nft
export TZ=UTC LC_ALL=C

have_ours=0
[ -x "$NFT" ] && have_ours=1
have_stock=0
if [ -x "$STOCK" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
   unshare -n true 2>/dev/null; then
	have_stock=1
fi
if [ $have_ours = 0 ] && [ $have_stock = 0 ]; then
	echo "SKIP: neither our nft ($NFT) nor stock nft in a netns"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for f in "$here"/*.nft "$here"/pending/*.nft; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	pending=0
	case $f in */pending/*) pending=1; name=pending/$name ;; esac
	if [ $have_stock = 1 ]; then
		if unshare -n "$STOCK" -I "$here/include" --debug=netlink -c \
		   -f "$f" >"$tmp/stock.out" 2>"$tmp/stock.err"; then
			:
		else
			echo "FAIL: stock nft rejects $name:"
			cat "$tmp/stock.err"
			fail=$((fail + 1))
			continue
		fi
	fi
	if [ $have_ours = 1 ]; then
		if "$NFT" -I "$here/include" --debug=netlink -c -f "$f" \
		   >"$tmp/ours.out" 2>"$tmp/ours.err"; then
			:
		elif [ $pending = 1 ]; then
			echo "pending: our nft does not load $name yet:"
			head -6 "$tmp/ours.err" | sed 's/^/  | /'
			continue
		else
			echo "FAIL: our nft rejects $name:"
			cat "$tmp/ours.err"
			fail=$((fail + 1))
			continue
		fi
		if [ $pending = 1 ]; then
			echo "note: our nft now loads $name: move it to examples/"
		fi
		if [ $have_stock = 1 ] &&
		   ! diff -u "$tmp/stock.out" "$tmp/ours.out" >"$tmp/diff"; then
			echo "VM code differs from stock for $name" \
			     "($(grep -c '^[-+] ' "$tmp/diff") lines):"
			head -40 "$tmp/diff"
			if [ "${EXAMPLES_STRICT:-0}" = 1 ]; then
				fail=$((fail + 1))
				continue
			fi
		fi
	fi
	echo "ok: $name"
	pass=$((pass + 1))
done
echo "examples: $pass passed, $fail failed"
[ $fail = 0 ]
