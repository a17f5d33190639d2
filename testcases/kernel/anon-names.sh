#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Names of anonymous sets (nftc/anon_names.h): a streamed batch names
# them as the kernel would ("__set%d": the lowest number free in the
# table), so that the kernel skips its quadratic naming walk. Each case
# runs a sequence of loads and commands in a private namespace twice,
# once with stock nft loading the files and once with ours; the
# kernel's state, listed by stock with --debug=netlink (which shows the
# set names the rules look up; not the elements, whose order in a hash
# set is random) and by "nft -a list ruleset", must be the same, and ours must have named the sets itself (its streamed
# batch, NFTKIT_BATCH_DUMP, holds no "__set%d", and it sent one batch:
# a name the kernel refuses makes it load the file again). Cases:
#  - a fresh namespace; a table with a set its user called "__set1";
#    sets and maps in two tables and two families;
#  - the same file loaded twice (names continue after the table's);
#  - a rule with a set deleted in between (its number is reused);
#  - a file that starts with "flush ruleset", over a loaded ruleset
#    (names start again from 0), and one that deletes its table first;
#  - 1,500 rules with a set each, over a table with holes in its
#    numbers: names cross 9/10, 99/100 and 999/1000 while the rule memo
#    writes them (nftc/rule_memo_set.c), memo on and off;
#  - a race: a set stock adds between our reading of the names and our
#    commit takes the name we chose; the kernel refuses ours
#    (NLM_F_EXCL) and the file is loaded again the "__set%d" way: both
#    rules are there, nothing is reported.
# Needs root (unshare -n), nf_tables, python3 and strace; skips (77)
# otherwise.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel python3 strace
unset NFTKIT_ANON_NAMES NFTKIT_RULE_MEMO

make_work
fail=0
cases=0

cat > "$work/a.nft" <<'EOF'
table inet t {
	set __set1 {
		type inet_service
	}
	chain c {
		tcp dport { 22, 80, 443 } accept
		udp dport { 53, 123 } accept
		tcp dport @__set1 accept
		ip saddr { 10.0.0.1, 10.0.0.2 } tcp dport { 1, 2 } drop
		meta mark set tcp dport map { 22 : 1, 80 : 2 }
		tcp dport vmap { 25 : drop, 110 : accept }
	}
}
table ip t {
	chain c {
		ip daddr { 192.0.2.1, 192.0.2.9 } counter
	}
}
EOF
{ echo "flush ruleset"; cat "$work/a.nft"; } > "$work/flush.nft"
{ echo "table inet t"; echo "delete table inet t"; cat "$work/a.nft"; } \
	> "$work/deltable.nft"
python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
with open(w + "/big.nft", "w") as f:
    f.write("table inet t {\n\tchain c {\n")
    for i in range(1500):
        f.write("\t\ttcp dport { 22, 80, %d } accept\n" % (1024 + i))
    f.write("\t}\n}\n")
with open(w + "/small.nft", "w") as f:
    f.write("table inet t {\n\tchain c {\n")
    for i in range(30):
        f.write("\t\tudp dport { 53, %d } accept\n" % (2000 + i))
    f.write("\t}\n}\n")
PY

# state OUT IMPL STEP...: the steps in a fresh namespace, IMPL loading
# the files ("load FILE", with NFTKIT_RULE_MEMO=$memo when set), stock
# deleting rules ("delrules SEDRANGES": the rules of chain inet t c
# with a set, those of the handles sed picks); the state left in
# $work/OUT, the last batch IMPL streamed in $work/OUT.batch
memo=
state() {
	_out=$1 _impl=$2
	shift 2
	rm -f "$work/$_out.batch"
	unshare -n sh -c '
		w=$1 out=$2 impl=$3 stock=$4 memo=$5
		shift 5
		for step in "$@"; do
			set -- $step
			case $1 in
			load)	env ${memo:+NFTKIT_RULE_MEMO=$memo} \
				    NFTKIT_BATCH_DUMP="$w/$out.batch" \
				    strace -f -qq -o "$w/$out.trace" \
				    -e trace=sendmsg "$impl" -f "$w/$2" ||
					echo "load $2: $?";;
			delrules)
				for h in $($stock -a list chain inet t c |
					   sed -n "s/.*dport { .*handle //p" |
					   sed -n "$2"); do
					$stock delete rule inet t c handle $h
				done;;
			esac
		done
		# elements of hash sets come in the order of a random seed
		$stock --debug=netlink list ruleset | grep -v "^	element "
		$stock -a list ruleset' sh "$work" "$_out" "$_impl" "$STOCK" \
		"$memo" "$@" > "$work/$_out" 2>&1
}

# same TAG STEP...: ours leaves the state stock leaves, naming the sets
same() {
	_t=$1
	cases=$((cases + 1))
	shift
	state "$_t.stock" "$STOCK" "$@"
	state "$_t.ours" "$NFT" "$@"
	if ! cmp -s "$work/$_t.stock" "$work/$_t.ours"; then
		echo "FAIL: $_t: not stock's state"
		diff "$work/$_t.stock" "$work/$_t.ours" | head -10
		fail=1
	elif [ ! -s "$work/$_t.ours.batch" ] ||
	     grep -aq '__set%d' "$work/$_t.ours.batch"; then
		echo "FAIL: $_t: the sets were not named by us"
		fail=1
	elif [ "$(grep -c NFNL_MSG_BATCH_BEGIN "$work/$_t.ours.trace")" != 1 ]
	then
		# the kernel refused the names: loaded again with "__set%d"
		echo "FAIL: $_t: more than one batch sent"
		fail=1
	fi
}

same fresh "load a.nft"
same twice "load a.nft" "load a.nft"
same reuse "load a.nft" "delrules 1p" "load a.nft"
same flush "load a.nft" "load a.nft" "load flush.nft"
same deltable "load a.nft" "load deltable.nft"
same holes "load small.nft" "delrules 3p;7p;12,14p;25p" "load big.nft"
memo=0
same holes-nomemo "load small.nft" "delrules 3p;7p;12,14p;25p" "load big.nft"
memo=
if grep -q '__set999 ' "$work/holes.stock" &&
   grep -q '__set1000 ' "$work/holes.stock"; then :; else
	echo "FAIL: big.nft's names do not reach 1000"
	fail=1
fi

# The race. Stock adds a rule with a set while our nft waits before
# sending its batch (strace delays its third sendmsg: after the set
# dump and the generation): the name we chose is taken by then.
cases=$((cases + 1))
unshare -n sh -c '
	w=$1 nft=$2 stock=$3
	$stock add table inet t
	$stock add chain inet t c
	( sleep 0.5; $stock add rule inet t c tcp dport { 7, 9 } drop ) &
	strace -f -o /dev/null -e trace=sendmsg \
		-e inject=sendmsg:delay_enter=1500000:when=3 \
		"$nft" -f "$w/small.nft" 2> "$w/race.err"
	echo $? > "$w/race.rc"
	wait
	$stock list ruleset' sh "$work" "$NFT" "$STOCK" > "$work/race.out"
if [ "$(cat "$work/race.rc")" != 0 ] || [ -s "$work/race.err" ] ||
   [ "$(grep -c 'dport {' "$work/race.out")" != 31 ]; then
	echo "FAIL: race: exit $(cat "$work/race.rc"), $(grep -c 'dport {' \
		"$work/race.out") rules with sets, not 31"
	head -5 "$work/race.err"
	fail=1
fi

[ $fail -eq 0 ] &&
	echo "PASS: $cases cases, the kernel's state as with stock, names ours"
exit $fail
