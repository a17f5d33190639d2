#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Our nft loading into the kernel, stock nft as the oracle. For every
# example ruleset (testcases/examples/*.nft), each in a fresh private
# network namespace:
#  1. load it with ours, list with stock; load it with stock (another
#     fresh namespace), list with stock: both listings identical;
#  2. ours with -c against the kernel accepts what it loads.
# For every broken example (examples/broken/*.nft), on top of a loaded
# ruleset: ours rejects it like stock does, and the ruleset is exactly
# as it was (compared with `nft list ruleset` before and after).
# Never touches the root namespace. Needs root (unshare -n) and
# nf_tables; skips (77) otherwise.
set -u
srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
. "$srcdir/lib/kernel.sh"

need_kernel

make_work
fail=0 pass=0 skip=0
# element expiry runs on while listing: never compared
X='s/ expires [0-9a-z]+//g'

# load FILE with BINARY in a fresh netns, stock's listing into OUT
load_list() {	# binary file out
	(cd "$(dirname "$2")" &&
	 unshare -n sh -c '"$1" -I include -f "$2" >/dev/null &&
			   "$3" list ruleset' sh "$1" "$2" "$STOCK") \
		> "$3" 2> "$3.err"
}

for f in "$srcdir"/examples/*.nft; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	if ! load_list "$STOCK" "$f" "$work/stock"; then
		skip=$((skip + 1))	# stock rejects it: nothing to compare
		continue
	fi
	if ! load_list "$NFT" "$f" "$work/ours"; then
		fail=$((fail + 1))
		echo "FAIL $n: ours did not load it"
		sed 's/^/  /' "$work/ours.err" | head -10
		continue
	fi
	sed -E "$X" -i "$work/stock" "$work/ours"
	if ! diff -u "$work/stock" "$work/ours" > "$work/diff"; then
		fail=$((fail + 1))
		echo "FAIL $n: listing differs (stock-loaded vs ours-loaded)"
		head -30 "$work/diff" | sed 's/^/  /'
		continue
	fi
	if ! (cd "$(dirname "$f")" && unshare -n "$NFT" -c -I include \
		-f "$f") > "$work/check" 2>&1; then
		fail=$((fail + 1))
		echo "FAIL $n: ours -c (kernel check) rejects it"
		sed 's/^/  /' "$work/check" | head -10
		continue
	fi
	pass=$((pass + 1))
done

# A rejected file leaves the ruleset as it was.
base="$srcdir/examples/host-firewall.nft"
for f in "$srcdir"/examples/broken/*.nft; do
	[ -f "$f" ] || continue
	n=broken/$(basename "$f")
	(cd "$(dirname "$f")" && unshare -n sh -c '
		"$3" -f "$4" || exit 2
		"$3" list ruleset > "$1/before"
		"$2" -f "$5" 2> "$1/ours.err" && exit 3
		"$3" list ruleset > "$1/after"
		"$3" -f "$5" 2> "$1/stock.err" && exit 4
		exit 0' sh "$work" "$NFT" "$STOCK" "$base" "$f")
	rc=$?
	case $rc in
	0)	;;
	2)	skip=$((skip + 1)); continue ;;
	3)	fail=$((fail + 1)); echo "FAIL $n: ours accepted it"
		continue ;;
	4)	skip=$((skip + 1)); continue ;;	# stock accepts it
	*)	fail=$((fail + 1)); echo "FAIL $n: rc $rc"; continue ;;
	esac
	if ! diff -u "$work/before" "$work/after" > "$work/diff"; then
		fail=$((fail + 1))
		echo "FAIL $n: the rejected file changed the ruleset"
		head -20 "$work/diff" | sed 's/^/  /'
		continue
	fi
	if ! diff -u "$work/stock.err" "$work/ours.err" > "$work/diff"; then
		# the message is the evaluator's business: reported, not failed
		echo "NOTE $n: error text differs from stock"
		head -12 "$work/diff" | sed 's/^/  /'
	fi
	pass=$((pass + 1))
done

echo "kernel load-examples: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
