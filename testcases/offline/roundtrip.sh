#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Offline round trip: each example ruleset (examples/*.nft) and each
# nftables-py conformance case is loaded into a fresh offline state file
# (nft --offline S -f FILE) and listed back (nft --offline S list
# ruleset); the listing must equal what our nft lists from the kernel for
# the same file (loaded in a private network namespace).
#
# Counts: same (listings equal), diff (both loaded, listings differ),
# vm-rejected (the kernel loads it, the VM does not: an expression the VM
# lacks), kernel-rejected (not compared). Fails when a listing differs,
# when the VM accepts nothing, or when the pass ratio falls below
# MIN_PCT of what both loaded (default 100).
#
# Needs root (unshare -n) and nf_tables for the kernel side; skips (77)
# otherwise. STEP=n compares every n-th conformance case only (default
# 4 under make check; STEP=1 runs all). KEEP=dir keeps differing
# listings.
set -u
SKIP=77
srcdir=${srcdir:-$(dirname "$0")/..}
SHARED=${NFTKIT_SHARED:-$srcdir/../../shared}
NFT=${NFT:-}
STEP=${STEP:-4}
MIN_PCT=${MIN_PCT:-100}
JOBS=${JOBS:-2}

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
unshare -n "$NFT" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/cases"
n=0
for f in "$srcdir"/examples/*.nft; do
	[ -f "$f" ] || continue
	cp "$f" "$work/cases/ex-$(basename "$f")"
done
[ -d "$srcdir/examples/include" ] && cp -r "$srcdir/examples/include" \
	"$work/cases/include"
if [ -d "$SHARED/conformance/nftables-py" ]; then
	"$srcdir/conformance/run-nftables-py" --corpus \
		"$SHARED/conformance/nftables-py" --emit "$work/emit" \
		>/dev/null 2>&1 || true
	ls "$work/emit" 2>/dev/null | grep -- '-ok\.nft$' |
		awk -v s="$STEP" 'NR % s == 0' > "$work/emitted" || true
	while read -r f; do
		cp "$work/emit/$f" "$work/cases/$f"
	done < "$work/emitted"
else
	echo "no conformance corpus: examples only"
fi
ls "$work/cases" | grep '\.nft$' > "$work/list"
split -n "r/$JOBS" "$work/list" "$work/chunk."

for chunk in "$work"/chunk.*; do
	unshare -n sh -c '
		cd "$1/cases"
		x="s/ expires [0-9a-z]+//g"
		while read -r f; do
			"$2" flush ruleset
			if ! "$2" -I include -f "$f" >/dev/null 2>&1; then
				echo "KREJ $f"; continue
			fi
			"$2" list ruleset 2>&1 | sed -E "$x" > "$f.kernel"
			s="$1/state.$$"
			rm -f "$s"
			if ! "$2" --offline "$s" -I include -f "$f" \
				> "$f.vmerr" 2>&1; then
				echo "VMREJ $f"; continue
			fi
			"$2" --offline "$s" list ruleset 2>&1 |
				sed -E "$x" > "$f.vm"
			if cmp -s "$f.kernel" "$f.vm"; then
				echo "SAME $f"
			else
				echo "DIFF $f"
			fi
		done < "$3"' sh "$work" "$NFT" "$chunk" > "$chunk.out" &
done
wait
cat "$work"/chunk.*.out > "$work/results"

same=$(grep -c '^SAME ' "$work/results")
diff=$(grep -c '^DIFF ' "$work/results")
vmrej=$(grep -c '^VMREJ ' "$work/results")
krej=$(grep -c '^KREJ ' "$work/results")
total=$(wc -l < "$work/list")
echo "offline round trip: $total cases: $same same, $diff differ," \
     "$vmrej rejected by the VM only, $krej rejected by the kernel"
# what the VM lacks, by the kernel's word for it
grep '^VMREJ ' "$work/results" | while read -r _ f; do
	cat "$work/cases/$f.vmerr"; done |
	grep -o 'Error: .*' | sort | uniq -c | sort -rn | head -5
grep '^DIFF ' "$work/results" | head -5 | while read -r _ f; do
	echo "DIFF $f"
	diff -u "$work/cases/$f.kernel" "$work/cases/$f.vm" | sed 's/^/  /' |
		head -12
done
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" && cp "$work/results" "$KEEP/" &&
	grep '^DIFF ' "$work/results" | while read -r _ f; do
		cp "$work/cases/$f"* "$KEEP/"; done
fi
[ "$same" -gt 0 ] || { echo "FAIL: nothing round-tripped"; exit 1; }
both=$((same + diff))
[ $((same * 100)) -ge $((both * MIN_PCT)) ] || {
	echo "FAIL: $same of $both below $MIN_PCT%"; exit 1; }
exit 0
