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
# loaded. The same again with an anonymous set in every rule, whose
# template holds the set's messages too (rule_memo_set.c): 2,000 rules,
# 1,500 to 1,506 rejected (the kernel's cost of anonymous sets grows
# with their square). Needs root (unshare -n) and nf_tables; skips (77)
# otherwise.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel python3

make_work
fail=0

# gen KIND: the 10,000-rule file, rules 9,000-9,006 naming the missing
# counter; "anon": 2,000 rules with an anonymous set each (a template of
# the set's messages and the rule's), 1,500-1,506 naming it
gen() {
	python3 - "$1" <<'PY'
import sys
anon = sys.argv[1] == "anon"
n, first = (2000, 1499) if anon else (10000, 8999)
print("table inet t {\n\tchain c {\n\t\ttype filter hook output priority 0;")
for i in range(n):
    bad = ' counter name "nosuch"' if first <= i < first + 7 else ""
    if anon:
        print('\t\ttcp dport { 22, 80, %d }%s accept' % (1024 + i, bad))
    else:
        print('\t\tip saddr 10.%d.%d.1 tcp dport %d%s accept'
              % ((i >> 8) & 255, i & 255, 1 + i, bad))
print("\t}\n}")
PY
}

for kind in plain anon; do
	gen $kind > "$work/rules.nft"
	run_err stock "$STOCK" -f "$work/rules.nft"
	run_err on "$NFT" -f "$work/rules.nft"
	NFTKIT_RULE_MEMO=0 run_err off "$NFT" -f "$work/rules.nft"
	run_err ondbg "$NFT" --debug=netlink -f "$work/rules.nft" > /dev/null
	NFTKIT_RULE_MEMO=0 run_err offdbg "$NFT" --debug=netlink \
		-f "$work/rules.nft" > /dev/null

	[ "$(cat "$work/stock.rc")" = 1 ] && [ -s "$work/stock.err" ] ||
		{ echo "FAIL ($kind): stock did not reject the file"; fail=1; }
	[ "$(grep -c 'Error: Could not process rule' "$work/stock.err")" = 7 ] ||
		{ echo "FAIL ($kind): stock did not report 7 errors"; fail=1; }
	same_err on stock
	same_err off stock
	same_err ondbg offdbg
	[ "$(cat "$work/ondbg.rc")" = 1 ] ||
		{ echo "FAIL ($kind): --debug=netlink: not rejected"; fail=1; }
	none_left stock on off ondbg offdbg
done

[ $fail -eq 0 ] && echo "PASS: same kernel errors on memoized rules"
exit $fail
