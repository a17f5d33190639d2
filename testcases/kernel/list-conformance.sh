#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "nft list ruleset" against stock nft, over the nftables-py corpus: every
# case stock nft loads (in a private network namespace) is listed by
# stock nft and by ours; the listings must be byte-identical. Prints
# counts per family; with KEEP=DIR the differing listings are kept.
#
# Needs root (unshare -n) and nf_tables; skips (77) otherwise.
#   NFT=path/to/our/nft [JOBS=n] [KEEP=dir] [LIST_ARGS="-a"] [MIN_PCT=95] \
#	list-conformance.sh [FILES]
# LIST_ARGS are given to both listings (-a handles, -s stateless, -n).
# ROUNDTRIP=1 also loads our listing with stock nft and compares again.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"
SHARED=${NFTKIT_SHARED:-$srcdir/../../shared}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

need_nfts
[ -d "$SHARED/conformance/nftables-py" ] || { echo "no corpus"; exit $SKIP; }
need_netns

make_work
emit_cases '-ok\.nft$' "$@"

# One network namespace per worker; the ruleset is flushed between cases.
split -n "r/$JOBS" "$work/list" "$work/chunk."
for chunk in "$work"/chunk.*; do
	unshare -n sh -c '
		cd "$1/cases"
		while read -r f; do
			"$3" flush ruleset
			if ! "$3" -f "$f" >/dev/null 2>&1; then
				echo "SKIP $f"; continue
			fi
			# element expiry runs on while listing: not compared
			"$3" $5 list ruleset 2>&1 |
				sed -E "s/ expires [0-9a-z]+//g" > "$f.stock"
			"$2" $5 list ruleset 2>&1 |
				sed -E "s/ expires [0-9a-z]+//g" > "$f.ours"
			if cmp -s "$f.stock" "$f.ours"; then
				echo "OK $f"; rm -f "$f.stock" "$f.ours"
			else
				echo "DIFF $f"
			fi
			# round trip: stock loads our listing back
			[ -n "$6" ] || continue
			"$2" list ruleset > "$f.rt" 2>/dev/null
			"$3" flush ruleset
			if "$3" -f "$f.rt" >/dev/null 2>&1 &&
			   "$3" $5 list ruleset 2>&1 |
			   sed -E "s/ expires [0-9a-z]+//g" > "$f.again" &&
			   "$3" flush ruleset && "$3" -f "$f" >/dev/null 2>&1 &&
			   "$3" $5 list ruleset 2>&1 |
			   sed -E "s/ expires [0-9a-z]+//g" | cmp -s - "$f.again"
			then
				echo "RT-OK $f"; rm -f "$f.rt" "$f.again"
			else
				echo "RT-FAIL $f"
			fi
		done < "$4"' sh "$work" "$NFT" "$STOCK" "$chunk" \
		"${LIST_ARGS:-}" "${ROUNDTRIP:-}" > "$chunk.out" &
done
wait
cat "$work"/chunk.*.out > "$work/results"

# family of each case: "# file.t:N [FAMILY TABLE]" on its first line
awk '{ st=$1; f=$2; getline hdr < ("'"$work"'/cases/" f);
       match(hdr, /\[[a-z0-9]+ /); fam=substr(hdr, RSTART+1, RLENGTH-2);
       n[fam " " st]++; fams[fam]=1 }
     END { for (fa in fams) printf "%-7s ok %5d  diff %5d  (stock rejects %d)\n",
           fa, n[fa " OK"], n[fa " DIFF"], n[fa " SKIP"] }' \
	"$work/results" | sort
ok=$(grep -c '^OK' "$work/results")
diff=$(grep -c '^DIFF' "$work/results")
echo "list-conformance: $ok identical, $diff differ"
if [ -n "${ROUNDTRIP:-}" ]; then
	echo "round trip (stock nft -f loads our listing, lists the same):" \
	     "$(grep -c '^RT-OK' "$work/results") ok," \
	     "$(grep -c '^RT-FAIL' "$work/results") failed"
	grep '^RT-FAIL' "$work/results" | head -20
fi
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	grep '^DIFF' "$work/results" | while read -r _ f; do
		cp "$work/cases/$f" "$work/cases/$f.stock" \
		   "$work/cases/$f.ours" "$KEEP/" 2>/dev/null
	done
fi
# Known differences are the printer's (see the report); fail below
# MIN_PCT percent identical (default 95).
[ $((ok * 100)) -ge $(((ok + diff) * ${MIN_PCT:-95})) ]
