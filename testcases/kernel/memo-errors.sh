#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel rejections of rules the rule memo wrote (nftc/rule_memo.c): a
# 10,000-rule chain whose rules 9,000 to 9,006 name a counter that does
# not exist, in a shape the memo has by then (the first of them
# recorded, the rest written from the template). Stock nft and ours,
# with the memo and without (NFTKIT_RULE_MEMO=0), with and without
# --debug=netlink (ours locate errors differently then), must print the
# same errors (line, expression, caret) and exit the same; nothing is
# loaded. Needs root (unshare -n) and nf_tables; skips (77) otherwise.
set -u
SKIP=77
STOCK=/usr/sbin/nft
srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
NFT=${NFT:-}

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
[ -x "$STOCK" ] || { echo "no stock nft"; exit $SKIP; }
command -v python3 >/dev/null || { echo "no python3"; exit $SKIP; }
unshare -n "$STOCK" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

python3 - > "$work/rules.nft" <<'PY'
print("table inet t {\n\tchain c {\n\t\ttype filter hook output priority 0;")
for i in range(10000):
    bad = ' counter name "nosuch"' if 8999 <= i < 9006 else ""
    print('\t\tip saddr 10.%d.%d.1 tcp dport %d%s accept'
          % ((i >> 8) & 255, i & 255, 1 + i, bad))
print("\t}\n}")
PY

# $1: tag, rest: the command; its stderr, exit status and what it left
run() {
	tag=$1
	shift
	unshare -n sh -c '"$@" 2> "$0.err"; echo $? > "$0.rc";
		'"$STOCK"' list ruleset > "$0.left"' "$work/$tag" "$@"
}

run stock "$STOCK" -f "$work/rules.nft"
run on "$NFT" -f "$work/rules.nft"
NFTKIT_RULE_MEMO=0 run off "$NFT" -f "$work/rules.nft"
run ondbg "$NFT" --debug=netlink -f "$work/rules.nft" > /dev/null
NFTKIT_RULE_MEMO=0 run offdbg "$NFT" --debug=netlink -f "$work/rules.nft" \
	> /dev/null

[ "$(cat "$work/stock.rc")" = 1 ] && [ -s "$work/stock.err" ] ||
	{ echo "FAIL: stock did not reject the file"; fail=1; }
[ "$(grep -c 'Error: Could not process rule' "$work/stock.err")" = 7 ] ||
	{ echo "FAIL: stock did not report 7 errors"; fail=1; }
for t in on off; do
	if ! cmp -s "$work/stock.err" "$work/$t.err" ||
	   ! cmp -s "$work/stock.rc" "$work/$t.rc"; then
		echo "FAIL: $t: not stock's errors"
		diff "$work/stock.err" "$work/$t.err" | head -10
		fail=1
	fi
done
if ! cmp -s "$work/ondbg.err" "$work/offdbg.err" ||
   ! cmp -s "$work/ondbg.rc" "$work/offdbg.rc" ||
   [ "$(cat "$work/ondbg.rc")" != 1 ]; then
	echo "FAIL: --debug=netlink: errors differ with the memo"
	diff "$work/offdbg.err" "$work/ondbg.err" | head -10
	fail=1
fi
for t in stock on off ondbg offdbg; do
	[ -s "$work/$t.left" ] &&
		{ echo "FAIL: $t left a ruleset"; fail=1; }
done
[ $fail -eq 0 ] && echo "PASS: same kernel errors on memoized rules"
exit $fail
