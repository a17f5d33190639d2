#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: ipt2nft's translation memo (xlate/memo.c) changes no byte.
# Every input is translated with the memo (the default) and without it
# (NFTKIT_XLATE_MEMO=0): stdout, stderr and exit status must be the
# same. Inputs: every $NFTKIT_SHARED/realworld file, the bench file
# (xlate-gen.py), the conformance corpus's commands as save files
# (ip, ip6), generated files of many shapes with random and edge
# values, and every realworld file with each rule followed by four
# copies of other addresses and numbers (memo-gen.py), each with "",
# -6, -c, --counters, -c --counters and -s. The memo must also have been used: hits on the bench file and
# on the edge files, or the comparison proves nothing.
here=${srcdir:-$(dirname "$0")/..}
IPT2NFT=${top_builddir:-../..}/xlate/ipt2nft
SHARED=${NFTKIT_SHARED:-$here/../../shared}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -x "$IPT2NFT" ] || { echo "SKIP: no $IPT2NFT"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
runs=0

python3 "$here/bench/xlate-gen.py" 3000 >"$tmp/bench.rules"
for seed in 1 2 3; do
	python3 "$here/xlate/memo-gen.py" edge $seed 2500 >"$tmp/edge$seed.rules"
done
tsv=$SHARED/conformance/iptables-translate.tsv
if [ -f "$tsv" ]; then
	python3 "$here/xlate/memo-gen.py" conformance "$tsv" ip \
		>"$tmp/conf4.rules"
	python3 "$here/xlate/memo-gen.py" conformance "$tsv" ip6 \
		>"$tmp/conf6.rules"
fi

# hits of the memo on $1 (no options)
hits() {
	NFTKIT_XLATE_MEMO_STATS=1 "$IPT2NFT" "$1" 2>&1 >/dev/null |
		sed -n 's/^ipt2nft: memo: \([0-9]*\) hits.*/\1/p'
}

mkdir "$tmp/mut"
for f in "$SHARED"/realworld/*.rules; do
	[ -f "$f" ] || continue
	python3 "$here/xlate/memo-gen.py" mutate "$f" 1 \
		>"$tmp/mut/$(basename "$f")"
done

for f in "$tmp"/*.rules "$SHARED"/realworld/*.rules "$tmp"/mut/*.rules; do
	[ -f "$f" ] || continue
	for opts in "" "-6" "-c" "--counters" "-c --counters" "-s"; do
		# shellcheck disable=SC2086
		"$IPT2NFT" $opts "$f" >"$tmp/on.out" 2>"$tmp/on.err"
		on=$?
		# shellcheck disable=SC2086
		NFTKIT_XLATE_MEMO=0 "$IPT2NFT" $opts "$f" >"$tmp/off.out" \
			2>"$tmp/off.err"
		off=$?
		runs=$((runs + 1))
		if [ $on != $off ] || ! cmp -s "$tmp/on.out" "$tmp/off.out" ||
		   ! cmp -s "$tmp/on.err" "$tmp/off.err"; then
			echo "FAIL: ipt2nft $opts $(basename "$f"): memo on" \
			     "(exit $on) and off (exit $off) differ:"
			diff "$tmp/off.out" "$tmp/on.out" | head -5
			diff "$tmp/off.err" "$tmp/on.err" | head -5
			fail=1
		fi
	done
done
echo "$runs runs compared"
cat "$tmp"/mut/*.rules >"$tmp/mutated.rules"
for f in bench edge1 edge2 edge3 mutated; do
	h=$(hits "$tmp/$f.rules")
	echo "memo hits on $f: ${h:-none}"
	if [ "${h:-0}" -lt 200 ]; then
		echo "FAIL: the memo was hardly used on $f"
		fail=1
	fi
done
exit $fail
