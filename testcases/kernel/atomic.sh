#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Files are atomic. In a private network namespace holding a ruleset
# (examples/host-firewall.nft, loaded by stock nft):
#  * a file whose 1,000th statement (on line 1,000) the kernel rejects
#    (reject in a postrouting chain: only the kernel checks hooks) fails,
#    names line 1,000 in stock nft's words and carets,
#    and leaves `nft list ruleset` exactly as it was; the same in block
#    syntax, with 9,000 rules, and with a statement our evaluator
#    rejects;
#  * `nft -c` of a valid file changes nothing; loading it then adds all
#    of it.
# Needs root (unshare -n) and nf_tables; skips (77) otherwise. Never
# touches the root namespace.
set -u
srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
. "$srcdir/lib/kernel.sh"

need_kernel

make_work
fail=0 pass=0
base="$srcdir/examples/host-firewall.nft"

# Command syntax: statement N on line N; @last is the last statement.
gen_cmds() {	# nrules last
	echo "add table ip atomic"
	echo "add chain ip atomic c" \
	     "{ type filter hook postrouting priority 0; }"
	i=3
	while [ "$i" -lt "$1" ]; do
		echo "add rule ip atomic c tcp dport $i counter accept"
		i=$((i + 1))
	done
	echo "add rule ip atomic c $2"
}

# Block syntax: the last rule on line @nrules.
gen_block() {	# nrules last
	echo "table ip atomic {"
	echo "	chain c {"
	echo "		type filter hook postrouting priority 0;"
	i=4
	while [ "$i" -lt "$1" ]; do
		echo "		tcp dport $i counter accept"
		i=$((i + 1))
	done
	echo "		$2"
	echo "	}"
	echo "}"
}

# A rejected file: ours fails, the ruleset is unchanged, the error
# names line @line and reads as stock's.
rejected() {	# name file line
	unshare -n sh -c '
		"$3" -f "$4" || exit 2
		"$3" list ruleset > "$1/before"
		"$2" -f "$5" > /dev/null 2> "$1/ours.err" && exit 3
		"$3" list ruleset > "$1/after"
		"$3" -f "$5" > /dev/null 2> "$1/stock.err"
		exit 0' sh "$work" "$NFT" "$STOCK" "$base" "$2"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $1: $( [ $rc -eq 3 ] && echo "ours accepted it" ||
			echo "rc $rc")"
		fail=$((fail + 1)); return
	fi
	if ! diff -u "$work/before" "$work/after" > "$work/diff"; then
		echo "FAIL $1: the ruleset changed"
		head -20 "$work/diff" | sed 's/^/  /'
		fail=$((fail + 1)); return
	fi
	if ! grep -q "^$2:$3:" "$work/ours.err"; then
		echo "FAIL $1: the error does not name line $3"
		head -5 "$work/ours.err" | sed 's/^/  /'
		fail=$((fail + 1)); return
	fi
	if ! diff -u "$work/stock.err" "$work/ours.err" > "$work/diff"; then
		# Exact words and carets, "did you mean" included, must be
		# stock's (LENIENT=1 only notes a difference).
		if [ -z "${LENIENT:-}" ]; then
			echo "FAIL $1: the error differs from stock's"
			fail=$((fail + 1))
		else
			echo "NOTE $1: the error differs from stock's"
			pass=$((pass + 1))
		fi
		head -12 "$work/diff" | sed 's/^/  /'
		return
	fi
	pass=$((pass + 1))
}

gen_cmds 1000 "tcp dport 22 reject" > "$work/cmds.nft"
rejected "kernel rejects line 1000 (commands)" "$work/cmds.nft" 1000
gen_block 1000 "tcp dport 22 reject" > "$work/block.nft"
rejected "kernel rejects line 1000 (block)" "$work/block.nft" 1000
gen_cmds 9000 "tcp dport 22 reject" > "$work/cmds9k.nft"
rejected "kernel rejects line 9000 (commands)" "$work/cmds9k.nft" 9000
gen_cmds 1000 "tcp dport 22 jump nowhere" > "$work/eval.nft"
rejected "evaluator rejects line 1000" "$work/eval.nft" 1000

# -c of a valid file changes nothing; then it loads completely.
gen_cmds 1000 "tcp dport 22 drop" > "$work/good.nft"
if unshare -n sh -c '
	"$3" -f "$4" || exit 2
	"$3" list ruleset > "$1/before"
	"$2" -c -f "$5" || exit 3
	"$3" list ruleset > "$1/after"
	cmp -s "$1/before" "$1/after" || exit 4
	"$2" -f "$5" || exit 5
	n=$("$3" list chain ip atomic c | grep -c "counter\|drop")
	[ "$n" -eq 998 ] || exit 6' sh "$work" "$NFT" "$STOCK" "$base" \
	"$work/good.nft"; then
	pass=$((pass + 1))
else
	echo "FAIL check mode / full load (rc $?)"
	fail=$((fail + 1))
fi

echo "kernel atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
