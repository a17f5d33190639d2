#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Concurrent writers: iptables-nft commands from three processes at once
# in one private network namespace (appends to INPUT, inserts at its
# head, new chains each with a rule), then with a stock iptables-nft
# writer mixed in. Every command reads the table at a ruleset
# generation and writes only onto it, starting again when another
# writer came in between: no update may be lost, no command may fail.
# Bounded: 3 x 25 commands per round, 2 rounds.
# Needs root and nf_tables; skips (77) otherwise.
set -u
SKIP=77
SHIM=${SHIM:-${top_builddir:-$(dirname "$0")/../../build}/iptables-shim}
I="$SHIM/iptables-nft"
[ -x "$I" ] || { echo "no $I"; exit $SKIP; }
command -v iptables-nft >/dev/null || { echo "no stock iptables"; exit $SKIP; }
unshare -n nft list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK
N=25
fail=0

round() {	# name, command of the third writer
	out=$(unshare -n sh -c "
		appends() { i=0; while [ \$i -lt $N ]; do
			'$I' -A INPUT -s 10.1.0.\$i -j ACCEPT || echo FAILED; i=\$((i + 1)); done; }
		inserts() { i=0; while [ \$i -lt $N ]; do
			'$I' -I INPUT 1 -s 10.2.0.\$i -j DROP || echo FAILED; i=\$((i + 1)); done; }
		chains() { i=0; while [ \$i -lt $N ]; do
			$2 -N C\$i && $2 -A C\$i -p tcp --dport \$i -j ACCEPT || echo FAILED
			i=\$((i + 1)); done; }
		appends & inserts & chains & wait
		echo INPUT \$('$I' -S INPUT | grep -c '^-A INPUT')
		echo APPENDS \$('$I' -S INPUT | grep -c '10\\.1\\.0\\.')
		echo CHAINS \$('$I' -S | grep -c '^-A C[0-9]* -p tcp')
		echo STOCK-INPUT \$(iptables-nft -S INPUT | grep -c '^-A INPUT')
		# appends kept their order: 10.1.0.0 .. 10.1.0.N-1
		'$I' -S INPUT | sed -n 's/^-A INPUT -s 10\\.1\\.0\\.\\([0-9]*\\)\\/32.*/\\1/p' | tr '\\n' ' '
		echo
	" 2>&1)
	want_order=$(seq 0 $((N - 1)) | tr '\n' ' ')
	if echo "$out" | grep -q FAILED; then
		echo "FAIL $1: a command failed"; echo "$out" | head -5; fail=1
	elif ! echo "$out" | grep -qx "INPUT $((2 * N))" ||
	     ! echo "$out" | grep -qx "APPENDS $N" ||
	     ! echo "$out" | grep -qx "CHAINS $N" ||
	     ! echo "$out" | grep -qx "STOCK-INPUT $((2 * N))" ||
	     ! echo "$out" | grep -qxF "$want_order"; then
		echo "FAIL $1: updates lost or reordered"; echo "$out"; fail=1
	else
		echo "ok   $1: $((3 * N)) commands from 3 writers, none lost"
	fi
}

round "ours x3" "'$I'"
round "ours x2 + stock" "iptables-nft"
exit $fail
