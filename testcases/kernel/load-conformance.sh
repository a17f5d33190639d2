#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Loading into the kernel, over the nftables-py corpus (the per-rule
# files of run-nftables-py --emit), stock nft as the oracle. In private
# network namespaces, for every case:
#  * stock accepts it (NNNN-ok): stock loads it and lists; ours loads it
#    into an empty ruleset and stock lists: the listings must be equal;
#  * stock rejects it: ours must reject it too and leave the ruleset
#    empty.
# Prints counts per family. Needs root (unshare -n) and nf_tables; skips
# (77) otherwise. Never touches the root namespace.
#   NFT=path/to/our/nft [JOBS=n] [SAMPLE=n: every nth case] [KEEP=dir] \
#	[MIN_PCT=90] load-conformance.sh [run-nftables-py FILES]
set -u
srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
. "$srcdir/lib/kernel.sh"
SHARED=${NFTKIT_SHARED:-$srcdir/../../shared}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

need_nfts
[ -d "$SHARED/conformance/nftables-py" ] || { echo "no corpus"; exit $SKIP; }
need_netns

make_work
emit_cases '\.nft$' --sample "${SAMPLE:-1}" "$@"

# One network namespace per worker; the ruleset is flushed between cases.
# Results: OK/DIFF/REJECT (ours refused what stock loads), BOTH-REJECT,
# ACCEPT (ours loaded what stock refuses), DIRTY (a rejection left state).
split -n "r/$JOBS" "$work/list" "$work/chunk."
for chunk in "$work"/chunk.*; do
	unshare -n sh -c '
		cd "$1/cases"
		x="s/ expires [0-9a-z]+//g"
		while read -r f; do
			"$3" flush ruleset
			if ! "$3" -f "$f" >/dev/null 2>&1; then
				"$3" flush ruleset
				if "$2" -f "$f" >/dev/null 2>"$f.err"; then
					echo "ACCEPT $f"
				elif [ -n "$("$3" list ruleset)" ]; then
					echo "DIRTY $f"
				else
					echo "BOTH-REJECT $f"
				fi
				continue
			fi
			"$3" list ruleset 2>&1 | sed -E "$x" > "$f.stock"
			"$3" flush ruleset
			if ! "$2" -f "$f" >/dev/null 2>"$f.err"; then
				if [ -n "$("$3" list ruleset)" ]; then
					echo "DIRTY $f"
				else
					echo "REJECT $f"
				fi
				continue
			fi
			"$3" list ruleset 2>&1 | sed -E "$x" > "$f.ours"
			if cmp -s "$f.stock" "$f.ours"; then
				echo "OK $f"
			else
				echo "DIFF $f"
			fi
		done < "$4"' sh "$work" "$NFT" "$STOCK" "$chunk" \
		> "$chunk.out" &
done
wait
cat "$work"/chunk.*.out > "$work/results"

# family of each case: "# file.t:N [FAMILY TABLE]" on its first line
awk '{ st=$1; f=$2; getline hdr < ("'"$work"'/cases/" f);
       match(hdr, /\[[a-z0-9]+ /); fam=substr(hdr, RSTART+1, RLENGTH-2);
       n[fam " " st]++; fams[fam]=1 }
     END { for (fa in fams)
	printf "%-7s same %5d  differ %4d  ours rejects %4d | " \
	       "stock rejects: ours too %4d, ours accepts %4d | " \
	       "left state %d\n", fa, n[fa " OK"], n[fa " DIFF"],
	       n[fa " REJECT"], n[fa " BOTH-REJECT"], n[fa " ACCEPT"],
	       n[fa " DIRTY"] }' "$work/results" | sort
ok=$(grep -c '^OK' "$work/results")
bad=$(grep -c '^DIFF\|^REJECT' "$work/results")
dirty=$(grep -c '^DIRTY' "$work/results")
echo "load-conformance: $ok loaded identically, $bad not" \
     "($(grep -c '^REJECT' "$work/results") rejected by ours)," \
     "$dirty rejections left state"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	grep -v '^OK\|^BOTH-REJECT' "$work/results" | while read -r st f; do
		for s in "" .stock .ours .err; do
			[ -f "$work/cases/$f$s" ] &&
				cp "$work/cases/$f$s" "$KEEP/$st-$f$s"
		done
	done
fi
[ "$dirty" -eq 0 ] && [ $((ok * 100)) -ge $(((ok + bad) * ${MIN_PCT:-90})) ]
