#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hand-written pairs for the semantic diff (cases/X-a.nft against X-b.nft
# equivalent by construction, against X-c.nft different): interval and
# concatenated-range sets against single rules, verdict maps against
# jumps (and a goto that changes where the packet returns), a mark set
# and read later in the chain, SNAT target addresses, TCP MSS clamping
# (only ever lowered, only where the option is there). Every difference
# must come with a counterexample the independent concrete evaluator
# replays to different verdicts or fields, and that the VM's trace
# (replay.c) confirms, unless it sets a field the VM's packet cannot
# carry (a TCP option): then the concrete evaluator is the judge.
set -u
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
concrete=${SEMDIFF_CONCRETE:-${top_builddir:-../..}/testcases/semdiff/concrete}
cases=$(cd "$(dirname "$0")" && pwd)/cases
[ -x "$ipt2nft" ] || { echo "SKIP: no ipt2nft"; exit 77; }
[ -x "$concrete" ] || { echo "SKIP: no $concrete"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0
for a in "$cases"/*-a.nft; do
	x=${a%-a.nft}
	for other in b c; do
		[ -f "$x-$other.nft" ] || continue
		n=$((n + 1))
		"$ipt2nft" diff --raw --view=none "$a" "$x-$other.nft" \
			>"$tmp/out" 2>&1
		rc=$?
		want=0
		[ $other = c ] && want=1
		name=$(basename "$x")-$other
		if [ $rc != $want ]; then
			echo "FAIL $name: exit $rc, expected $want"
			cat "$tmp/out"
			bad=1
		elif [ $rc = 1 ] &&
		     { grep -q '^    replay: DISAGREES' "$tmp/out" ||
		       ! grep -q "^    replay: \(confirmed\|not possible: the VM's packet cannot carry\)" "$tmp/out"; }; then
			echo "FAIL $name: the VM's trace does not confirm it"
			cat "$tmp/out"
			bad=1
		elif [ $rc = 1 ] && ! "$concrete" "$a" "$x-$other.nft" \
			"$tmp/out" >"$tmp/conc" 2>&1; then
			echo "FAIL $name: counterexample does not replay"
			cat "$tmp/out" "$tmp/conc"
			bad=1
		else
			echo "ok   $name: exit $rc" \
			     "$(grep -m1 '^  counterexample' "$tmp/out")"
		fi
	done
done
# iptables-save pairs (cases/X-a.rules against X-c.rules, different by
# construction): every deciding rule or policy is named by its
# iptables-save line ("at FILE:LINE: TEXT", the file's line LINE being
# TEXT), one of them a line the two files differ in, and the VM's trace
# confirms every counterexample.
src_lines_ok() {
	grep '^         at .*:[0-9]*: ' "$1" | sed 's/^         at //' |
	while IFS= read -r l; do
		file=${l%%:*} rest=${l#*:}
		num=${rest%%:*} text=${rest#*: }
		[ "$(sed -n "${num}p" "$file")" = "$text" ] ||
			{ echo "wrong source line: $l"; exit 1; }
	done
}
for a in "$cases"/*-a.rules; do
	[ -f "$a" ] || continue
	c=${a%-a.rules}-c.rules
	name=$(basename "$a" -a.rules)-rules
	n=$((n + 1))
	"$ipt2nft" diff --view=none "$a" "$c" >"$tmp/out" 2>&1
	rc=$?
	changed=0
	for l in $(sed -n 's/^         at [^:]*:\([0-9]*\): .*/\1/p' "$tmp/out"); do
		[ "$(sed -n "${l}p" "$a")" != "$(sed -n "${l}p" "$c")" ] &&
			changed=1
	done
	if [ $rc != 1 ]; then
		echo "FAIL $name: exit $rc, expected 1"; cat "$tmp/out"; bad=1
	elif ! src_lines_ok "$tmp/out"; then
		echo "FAIL $name: a source line is not the file's"
		cat "$tmp/out"; bad=1
	elif [ $changed = 0 ]; then
		echo "FAIL $name: no deciding line is a changed line"
		cat "$tmp/out"; bad=1
	elif grep -q '^    replay: \(DISAGREES\|not\)' "$tmp/out" ||
	     ! grep -q '^    replay: confirmed' "$tmp/out"; then
		echo "FAIL $name: the VM's trace does not confirm it"
		cat "$tmp/out"; bad=1
	else
		echo "ok   $name: exit $rc, $(grep -c '^         at ' "$tmp/out")" \
		     "deciding lines named"
	fi
done
# The family of an iptables-save file without a generator header comes
# from its rules (a chain named icmpv6-input and a NAT target
# ADDR:PORT do not make an IPv4 file IPv6): each file against itself,
# every rule translated, hooks of the family whose stock
# iptables-restore-translate accepts the file.
for f in "$cases"/family-*.rules; do
	n=$((n + 1))
	name=$(basename "$f" .rules)
	if iptables-restore-translate -f "$f" >/dev/null 2>&1; then
		want=ip
	elif ip6tables-restore-translate -f "$f" >/dev/null 2>&1; then
		want=ip6
	else
		echo "skip $name: no stock iptables-restore-translate"; continue
	fi
	"$ipt2nft" diff --view=none "$f" "$f" >"$tmp/out" 2>&1
	rc=$?
	fams=$(sed -n 's/^hook \([a-z0-9]*\) .*/\1/p' "$tmp/out" | sort -u)
	if [ $rc != 0 ] || grep -q 'not translated' "$tmp/out" ||
	   [ "$fams" != "$want" ]; then
		echo "FAIL $name: exit $rc, hook families '$fams' (want $want)"
		cat "$tmp/out"; bad=1
	else
		echo "ok   $name: read as $want"
	fi
done
# One pair under valgrind: source lines, the VM replay, the model.
if command -v valgrind >/dev/null 2>&1 &&
   ! grep -q __asan_init "$ipt2nft" 2>/dev/null; then
	n=$((n + 1))
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$ipt2nft" diff --view=all \
		"$cases/ipt-a.rules" "$cases/ipt-c.rules" >"$tmp/out" 2>"$tmp/err"
	if [ $? != 1 ]; then
		echo "FAIL ipt-rules under valgrind"; cat "$tmp/err"; bad=1
	else
		echo "ok   ipt-rules under valgrind"
	fi
fi
echo "semdiff features: $n pairs checked"
exit $bad
