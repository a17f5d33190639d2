#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not run by make check): ipt2nft diff of the TUM university
# firewall (isem-tum-net-2015-05.fixed.rules, 4,841 rules) against its
# own ipt2nft translation, and of 500/1000/2000/5000-rule prefixes of
# it: wall time, CPU time (user + system) and peak RSS of each. The
# whole file, its 2 "-m recent --hitcount" rules included (their
# translation, a dynset with a nested limit, compiles now).
set -u
shared=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
f=$shared/realworld/isem-tum-net-2015-05.fixed.rules
[ -f "$f" ] || { echo "SKIP: no $f"; exit 77; }
[ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A prefix with N rules: the first N "-A" lines of each table, headers,
# chain declarations and COMMITs kept.
prefix() {
	awk -v max="$1" '/^-A / { if (n >= max) next; n++ } { print }' "$2"
}

cp "$f" "$tmp/all.rules"
for n in 500 1000 2000 5000; do
	prefix $n "$tmp/all.rules" >"$tmp/p.rules"
	rules=$(grep -c '^-A ' "$tmp/p.rules")
	"$ipt2nft" -q "$tmp/p.rules" >"$tmp/p.nft" 2>/dev/null
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
		"$ipt2nft" diff --view=none "$tmp/p.rules" "$tmp/p.nft" \
		>"$tmp/out" 2>/dev/null
	rc=$?
	read -r secs user sys kb <"$tmp/time"
	user=$(echo "$user $sys" | awk '{ print $1 + $2 }')
	printf 'semdiff-tum: %5d rules: %6.2f s (%6.2f s CPU), %5d MB peak RSS, %s\n' \
		"$rules" "$secs" "$user" $((kb / 1024)) \
		"$(tail -1 "$tmp/out") (exit $rc)"
done
# The engine choice (DESIGN.md): BuDDy against Z3 on random first-match
# rule lists, when a compiler and both libraries are there.
src=$(dirname "$0")/semdiff-engines.c
if ${CC:-cc} -O2 -o "$tmp/engines" "$src" -lbdd -lz3 2>/dev/null; then
	for n in 500 1000 2000 5000; do
		"$tmp/engines" $n
	done
fi
