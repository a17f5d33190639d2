#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# batch-diff.sh OLD_NFT NEW_NFT FILE... - do two builds of nftkit's nft
# compile the same batches? For each file: the same exit status, output
# and errors of "nft -c --debug=netlink -f FILE" (offline), and the same
# raw batch: "nft --offline STATE -f FILE" into a fresh state file, which
# holds the committed batch byte for byte (nftc/offline.c), must leave
# identical state files. For checking that a change of the linearizer
# keeps the batch bytes (bench README: "Anonymous sets' messages written
# in place"); anon-gen.py makes such files. Exit 1 on any difference.

[ $# -ge 3 ] || { echo "usage: $0 OLD_NFT NEW_NFT FILE..."; exit 2; }
old=$1 new=$2
shift 2
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
fail=0 n=0 ok=0
for f in "$@"; do
	n=$((n + 1))
	NFTKIT_OFFLINE_CHECK=1 "$old" -c --debug=netlink -f "$f" \
		> "$w/o.out" 2> "$w/o.err"
	ro=$?
	NFTKIT_OFFLINE_CHECK=1 "$new" -c --debug=netlink -f "$f" \
		> "$w/n.out" 2> "$w/n.err"
	rn=$?
	if [ $ro != $rn ] || ! cmp -s "$w/o.out" "$w/n.out" ||
	   ! cmp -s "$w/o.err" "$w/n.err"; then
		echo "DIFF (--debug=netlink): $f (exit $ro, $rn)"
		fail=1
		continue
	fi
	rm -f "$w/s1" "$w/s2"
	"$old" --offline "$w/s1" -f "$f" > /dev/null 2>&1
	ro=$?
	"$new" --offline "$w/s2" -f "$f" > /dev/null 2>&1
	rn=$?
	if [ $ro != $rn ] || ! cmp -s "$w/s1" "$w/s2"; then
		echo "DIFF (batch): $f (exit $ro, $rn)"
		fail=1
		continue
	fi
	[ $ro = 0 ] && ok=$((ok + 1))
done
echo "$n files ($ok committed): $([ $fail = 0 ] && echo same || echo DIFFERENT)"
exit $fail
