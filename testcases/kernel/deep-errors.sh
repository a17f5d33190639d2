#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel rejections deep in big files, whose text nft no longer holds
# when the batch is sent (nftc/input_map.c reads a big file as the
# scanner goes and gives back what is behind it): rule 9,000 of a
# 10,000-rule file, and rule 9,500 of a 10,000-rule file it includes
# (found through -I), name a counter that does not exist. Stock nft and
# ours, from the file and from a pipe (-f -, text kept in memory), with
# and without the rule memo, must print the same errors (file, line,
# columns, source line, carets, "In file included from") and exit the
# same; nothing is loaded. Needs root (unshare -n) and nf_tables; skips
# (77) otherwise.
set -u
SKIP=77
STOCK=/usr/sbin/nft
NFT=${NFT:-}

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
[ -x "$STOCK" ] || { echo "no stock nft"; exit $SKIP; }
command -v python3 >/dev/null || { echo "no python3"; exit $SKIP; }
unshare -n "$STOCK" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/inc"
fail=0

python3 - "$work/main.nft" "$work/inc/deep-inc.nft" <<'PY'
import sys

def table(name, n, bad, head=""):
    out = [head, "table inet %s {" % name,
           "\tchain c {",
           "\t\ttype filter hook output priority 0;"]
    for i in range(n):
        ctr = ' counter name "nosuch"' if i == bad else ""
        out.append("\t\tip saddr 10.%d.%d.1 tcp dport %d%s accept"
                   % ((i >> 8) & 255, i & 255, 1 + i, ctr))
    out.append("\t}\n}\n")
    return "\n".join(out)

with open(sys.argv[1], "w") as f:
    f.write(table("outer", 10000, 8999, 'include "deep-inc.nft"'))
with open(sys.argv[2], "w") as f:
    f.write(table("inner", 10000, 9499))
PY

# $1: tag, rest: the command; its stderr, exit status and what it left
run() {
	tag=$1
	shift
	unshare -n sh -c 'cat "'"$work"'/main.nft" | "$@" 2> "$0.err";
		echo $? > "$0.rc";
		'"$STOCK"' list ruleset > "$0.left"' "$work/$tag" "$@"
}

run stock "$STOCK" -I "$work/inc" -f "$work/main.nft"
run stockin "$STOCK" -I "$work/inc" -f -
run on "$NFT" -I "$work/inc" -f "$work/main.nft"
NFTKIT_RULE_MEMO=0 run off "$NFT" -I "$work/inc" -f "$work/main.nft"
run stdin "$NFT" -I "$work/inc" -f -

[ "$(cat "$work/stock.rc")" = 1 ] ||
	{ echo "FAIL: stock did not reject the file"; fail=1; }
[ "$(grep -c 'Error: Could not process rule' "$work/stock.err")" = 2 ] ||
	{ echo "FAIL: stock did not report 2 errors"; fail=1; }
grep -q "^In file included from $work/main.nft:1:1-23:" "$work/stock.err" ||
	{ echo "FAIL: stock did not name the include"; fail=1; }
grep -q "main.nft:9004:" "$work/stock.err" ||
	{ echo "FAIL: stock did not locate rule 9,000"; fail=1; }
for t in on off; do
	if ! cmp -s "$work/stock.err" "$work/$t.err" ||
	   ! cmp -s "$work/stock.rc" "$work/$t.rc"; then
		echo "FAIL: $t: not stock's errors"
		diff "$work/stock.err" "$work/$t.err" | head -10
		fail=1
	fi
done
if ! cmp -s "$work/stockin.err" "$work/stdin.err" ||
   ! cmp -s "$work/stockin.rc" "$work/stdin.rc"; then
	echo "FAIL: -f -: not stock's errors"
	diff "$work/stockin.err" "$work/stdin.err" | head -10
	fail=1
fi
for t in stock stockin on off stdin; do
	[ -s "$work/$t.left" ] &&
		{ echo "FAIL: $t left a ruleset"; fail=1; }
done
[ $fail -eq 0 ] && echo "PASS: same kernel errors deep in big files"
exit $fail
