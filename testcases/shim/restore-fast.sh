#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# iptables-restore-nft's fast path (iptables-shim/restore_fast.c) against
# its IR path: every input is restored twice with NFTKIT_RESTORE_DUMP
# (the batch into a file, no kernel, no root), once with the fast path
# turned off (NFTKIT_RESTORE_SLOW=1); the two batches must be the same
# bytes, message for message, and the exit status and diagnostics
# (with -v: warnings too) the same. Both with xt-compat expressions (as
# against the kernel) and native only (offline, NFTKIT_OFFLINE).
#
# Inputs: ../shared/realworld/*.rules (skipped when absent), the
# benchmark's generated file (bench/shim-restore.sh -g), shim/fast/
# edge.rules and edge6.rules (ip6tables), and one rule a file: shim/
# fast/edge-bad.lines and edge6-bad.lines, the rules the other shim
# tests restore (shim/*.sh), and shim/bad/*.rules.
#
# Prints how many rules took the fast path; fails when the benchmark's
# rules do not all take it, or fewer real-world rules do than did when
# this was written (MIN_RW_FAST), so that a fast path turned off cannot
# pass as identical.
set -u
SKIP=77
here=$(cd "$(dirname "$0")" && pwd)
SHARED=${NFTKIT_SHARED:-$here/../../../shared}
RW="$SHARED/realworld"
SHIM=${SHIM:-${top_builddir:-$here/../../build}/iptables-shim}
BENCH_RULES=${BENCH_RULES:-2000}
MIN_RW_FAST=${MIN_RW_FAST:-6050}

[ -x "$SHIM/iptables-restore-nft" ] || { echo "no $SHIM"; exit $SKIP; }
unset NFTKIT_OFFLINE NFTKIT_OFFLINE_CHECK NFTKIT_RESTORE_SLOW

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

family_of() {	# realworld file -> 4|6
	b=$(basename "$1" .rules)
	b=${b%.fixed}
	f=$(awk -F'\t' -v n="$b" '$1 == n { print $6 }' "$RW/manifest.tsv" \
		2>/dev/null)
	[ "$f" = v6 ] && echo 6 || echo 4
}

files=0 rules=0 fast=0 bad=0 rw_fast=0 rw_rules=0 bench_fast=0 bench_rules=0
FAST_LINE='-restore: [0-9]* of [0-9]* rules by the fast path$'

# one restore: $1 slow|fast, $2 mode xt|native, $3 program, $4 file
run() {
	rm -f "$work/$1.bin"
	if [ "$2" = native ]; then
		rm -f "$work/state"
		set -- "$1" "$2" "$3" "$4" "NFTKIT_OFFLINE=$work/state"
	else
		set -- "$1" "$2" "$3" "$4" "RESTORE_FAST_MODE=xt"
	fi
	if [ "$1" = slow ]; then
		env "$5" NFTKIT_RESTORE_SLOW=1 \
			NFTKIT_RESTORE_DUMP="$work/$1.bin" "$3" -v "$4" \
			>"$work/$1.out" 2>"$work/$1.err"
	else
		env "$5" NFTKIT_RESTORE_DUMP="$work/$1.bin" "$3" -v "$4" \
			>"$work/$1.out" 2>"$work/$1.err"
	fi
	echo $? > "$work/$1.rc"
	grep -e "$FAST_LINE" "$work/$1.err" > "$work/$1.count"
	grep -v -e "$FAST_LINE" "$work/$1.err" > "$work/$1.diag"
}

# $1 file, $2 family 4|6, $3 label; sets last_fast, last_rules
check() {
	P=iptables
	[ "$2" = 6 ] && P=ip6tables
	last_fast=0 last_rules=0
	for mode in xt native; do
		run slow $mode "$SHIM/$P-restore-nft" "$1"
		run fast $mode "$SHIM/$P-restore-nft" "$1"
		files=$((files + 1))
		why=
		cmp -s "$work/slow.rc" "$work/fast.rc" ||
			why="exit status $(cat "$work/slow.rc") vs $(cat "$work/fast.rc")"
		cmp -s "$work/slow.diag" "$work/fast.diag" || why="$why diagnostics"
		cmp -s "$work/slow.out" "$work/fast.out" || why="$why output"
		if [ -f "$work/slow.bin" ] || [ -f "$work/fast.bin" ]; then
			c=$(cmp "$work/slow.bin" "$work/fast.bin" 2>&1) ||
				why="$why batch ($c)"
		fi
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			echo "FAIL $3 ($mode):$why"
			diff "$work/slow.diag" "$work/fast.diag" | head -5
			continue
		fi
		set -- "$1" "$2" "$3" $(sed -E 's/.*: ([0-9]+) of ([0-9]+) .*/\1 \2/' \
			"$work/fast.count")
		if [ $# = 5 ] && [ "$mode" = xt ]; then
			last_fast=$4 last_rules=$5
			fast=$((fast + $4))
			rules=$((rules + $5))
		fi
		set -- "$1" "$2" "$3"
	done
}

# each line of $2... that is a rule, alone in a filter table (family $1)
one_by_one() {
	fam=$1
	shift
	grep -h -E '^[[:space:]]*(\[[0-9]+:[0-9]+\] )?-[AI] ' "$@" |
	sed -E 's/^[[:space:]]+//' | sort -u > "$work/lines"
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\n' '*filter' ':INPUT ACCEPT [0:0]' \
			':FORWARD ACCEPT [0:0]' ':OUTPUT ACCEPT [0:0]' \
			':U0 - [0:0]' ':LOG - [0:0]' ':OLD - [0:0]' \
			"$line" COMMIT > "$work/one.rules"
		check "$work/one.rules" "$fam" "line: $line"
	done < "$work/lines"
	echo "one rule a file: $n rules"
}

if [ -d "$RW" ]; then
	for f in "$RW"/*.rules; do
		check "$f" "$(family_of "$f")" "$(basename "$f")"
		rw_fast=$((rw_fast + last_fast))
		rw_rules=$((rw_rules + last_rules))
	done
	echo "real-world: $rw_fast of $rw_rules rules by the fast path"
else
	echo "no $RW: real-world files skipped"
fi

sh "$here/../bench/shim-restore.sh" -g "$BENCH_RULES" > "$work/bench.rules"
check "$work/bench.rules" 4 "bench file ($BENCH_RULES rules)"
bench_fast=$last_fast bench_rules=$last_rules
echo "bench file: $bench_fast of $bench_rules rules by the fast path"

for e in edge:4 edge6:6; do
	check "$here/fast/${e%:*}.rules" "${e#*:}" "${e%:*}.rules"
	echo "${e%:*}.rules: $last_fast of $last_rules rules by the fast path"
	if [ "$last_fast" = 0 ]; then	# it must restore, and take some
		bad=$((bad + 1))
		echo "FAIL ${e%:*}.rules: no rule by the fast path"
	fi
done
for f in "$here"/bad/*.rules; do
	check "$f" 4 "bad/$(basename "$f")"
done
one_by_one 4 "$here/fast/edge-bad.lines" "$here"/*.sh
one_by_one 6 "$here/fast/edge6-bad.lines"

echo "restore-fast: $files restores compared, $fast of $rules rules" \
	"by the fast path, $bad differing"
[ "$bad" = 0 ] || exit 1
if [ "$bench_fast" != "$bench_rules" ] || [ "$bench_rules" = 0 ]; then
	echo "FAIL the bench file's rules did not all take the fast path"
	exit 1
fi
if [ -d "$RW" ] && [ "$rw_fast" -lt "$MIN_RW_FAST" ]; then
	echo "FAIL $rw_fast real-world rules by the fast path," \
		"fewer than $MIN_RW_FAST"
	exit 1
fi
exit 0
