#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: the behaviour test (behaviour.py): packets from the rules'
# own addresses and ports through iptables-legacy and through our
# translation, in private namespaces; zero verdict mismatches allowed.
# Skips (77) without root, the corpus or the tools.
shared=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
[ -d "$shared/realworld" ] || { echo "SKIP: no $shared/realworld"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
here=${srcdir:-$(dirname "$0")/..}
exec python3 "$here/realworld/behaviour.py" \
	--ipt2nft "${top_builddir:-../..}/xlate/ipt2nft" \
	--nft "${top_builddir:-../..}/nftc/nft" \
	--max-mismatch "${MAX_MISMATCH:-0}" "$shared/realworld"
