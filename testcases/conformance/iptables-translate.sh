#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: iptables-translate.tsv (ip, ip6) through ipt2nft, exact and
# semantic agreement. Floors just below the measured figures (259 cases:
# 94.2% semantic with the corpus as is, 100% with the 15 corrections of
# iptables-translate.errata; as root in a private netns holding the
# devices TEE --oif names, else that case is skipped and reported).
MIN_SEMANTIC=${MIN_SEMANTIC:-93}
MIN_CORRECTED=${MIN_CORRECTED:-99}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
here=${srcdir:-$(dirname "$0")/..}
exec python3 "$here/conformance/run-iptables-translate" \
	--ipt2nft "${top_builddir:-../..}/xlate/ipt2nft" \
	--nft "${NFT:-../nftc/nft}" --min-semantic "$MIN_SEMANTIC" \
	--min-corrected "$MIN_CORRECTED"
