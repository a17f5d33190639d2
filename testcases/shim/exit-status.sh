#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# iptables-restore-nft's exit status on bad input, against stock
# iptables-nft-restore 1.8.9 on the same file in a fresh private network
# namespace: 1 for a file's structure or a chain missing at COMMIT, 2
# (parameter problem) for a rule's options or a table name, 4 when the
# kernel refuses the batch; whichever error stock reports first decides.
# Each case is a file in shim/bad/. Where stock iptables-nft and stock
# iptables-legacy disagree we may side with legacy (counted apart): a
# policy on a user-defined chain is refused as legacy does, because
# iptables-nft drops it silently.
# Needs root and nf_tables; skips (77) otherwise.
set -u
SKIP=77
SHIM=${SHIM:-${top_builddir:-$(dirname "$0")/../../build}/iptables-shim}
R="$SHIM/iptables-restore-nft"
dir=${srcdir:-$(dirname "$0")/..}/shim/bad
[ -x "$R" ] || { echo "no $R"; exit $SKIP; }
command -v iptables-nft-restore >/dev/null ||
	{ echo "no stock iptables"; exit $SKIP; }
unshare -n nft list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK
same=0 legacy=0 differ=0
for f in "$dir"/*.rules; do
	name=$(basename "$f" .rules)
	ours=$(unshare -n sh -c "'$R' '$f' >/dev/null 2>&1; echo \$?")
	stock=$(unshare -n sh -c "iptables-nft-restore '$f' >/dev/null 2>&1
		echo \$?")
	if [ "$ours" = "$stock" ]; then
		same=$((same + 1))
		echo "same   $name: $ours"
		continue
	fi
	# -w: the xtables lock is shared by every namespace (and test);
	# -w takes the next word as its seconds, so the file comes on stdin
	leg=$(unshare -n sh -c "iptables-legacy-restore -w <'$f' >/dev/null 2>&1
		echo \$?")
	if [ "$ours" = "$leg" ] && [ "$ours" != 0 ]; then
		legacy=$((legacy + 1))
		echo "legacy $name: ours $ours, iptables-nft $stock, legacy $leg"
	else
		differ=$((differ + 1))
		echo "DIFFER $name: ours $ours, stock $stock"
	fi
done
echo "exit-status: $((same + legacy + differ)) files: $same as stock," \
	"$legacy as iptables-legacy (refused), $differ differ"
[ "$differ" -eq 0 ] && [ "$same" -gt 0 ]
