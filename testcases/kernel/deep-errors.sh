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
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel python3

make_work
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

# -f - reads a pipe: its text is kept, not read again from a file
main() { cat "$work/main.nft"; }
run_err stock "$STOCK" -I "$work/inc" -f "$work/main.nft"
main | run_err stockin "$STOCK" -I "$work/inc" -f -
run_err on "$NFT" -I "$work/inc" -f "$work/main.nft"
NFTKIT_RULE_MEMO=0 run_err off "$NFT" -I "$work/inc" -f "$work/main.nft"
main | run_err stdin "$NFT" -I "$work/inc" -f -

[ "$(cat "$work/stock.rc")" = 1 ] ||
	{ echo "FAIL: stock did not reject the file"; fail=1; }
[ "$(grep -c 'Error: Could not process rule' "$work/stock.err")" = 2 ] ||
	{ echo "FAIL: stock did not report 2 errors"; fail=1; }
grep -q "^In file included from $work/main.nft:1:1-23:" "$work/stock.err" ||
	{ echo "FAIL: stock did not name the include"; fail=1; }
grep -q "main.nft:9004:" "$work/stock.err" ||
	{ echo "FAIL: stock did not locate rule 9,000"; fail=1; }
same_err on stock
same_err off stock
same_err stdin stockin
none_left stock stockin on off stdin
[ $fail -eq 0 ] && echo "PASS: same kernel errors deep in big files"
exit $fail
