#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A big file is read as the scanner goes (nftc/input_map.c), so a file
# renamed over it during the load must not be read from then on: the
# pass reads the file it opened first, to its end. Each pread() of ours
# is slowed by strace (inject delay) so that the load lasts seconds; a
# second into it, a file with every "accept" misspelled is renamed over
# the input. The load must succeed and print the same VM code
# (nft -c --debug=netlink, offline) as a load of the original alone, and
# the misspelled file must be refused on its own (so the test can fail).
# Skips (77) without strace.
set -u
SKIP=77
NFT=${NFT:-}
[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
command -v strace >/dev/null || { echo "no strace"; exit $SKIP; }
export NFTKIT_OFFLINE_CHECK=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 20,000 rules, ~1 MB: well above the 256 KB where reading goes by window
awk 'BEGIN {
	print "table ip t {\n\tchain c {\n\t\ttype filter hook input priority 0;"
	for (i = 0; i < 20000; i++)
		printf "\t\tip saddr 10.%d.%d.1 tcp dport %d accept\n",
		       int(i / 256) % 256, i % 256, 1 + i % 60000
	print "\t}\n}"
}' > "$work/orig.nft"
sed 's/accept/acept/' "$work/orig.nft" > "$work/bad.nft"

"$NFT" -c --debug=netlink -f "$work/orig.nft" > "$work/want" 2>&1 ||
	{ echo "FAIL: the original does not load"; exit 1; }
if "$NFT" -c -f "$work/bad.nft" > /dev/null 2>&1; then
	echo "FAIL: the misspelled file loads"; exit 1
fi

cp "$work/orig.nft" "$work/in.nft"
cp "$work/bad.nft" "$work/new.nft"
strace -f -qq -o /dev/null -e trace=pread64 \
	-e inject=pread64:delay_enter=100000 \
	"$NFT" -c --debug=netlink -f "$work/in.nft" > "$work/got" 2>&1 &
pid=$!
sleep 1
kill -0 "$pid" 2>/dev/null ||
	{ echo "SKIP: the load ended before the rename"; exit $SKIP; }
mv "$work/new.nft" "$work/in.nft"
# still loading when the name changed hands (else nothing was shown)
running=no
kill -0 "$pid" 2>/dev/null && running=yes
wait "$pid"
rc=$?

if [ "$rc" -ne 0 ] || ! cmp -s "$work/want" "$work/got"; then
	echo "FAIL: exit $rc, output differs from the original's:"
	diff "$work/want" "$work/got" | head -20
	exit 1
fi
[ "$running" = yes ] ||
	{ echo "SKIP: the load ended at the rename"; exit $SKIP; }
echo "PASS: a file renamed over the input mid-load was not read"
exit 0
