#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# iptables-restore-nft vs stock iptables-nft-restore (and
# iptables-legacy-restore) on a generated N-rule filter table (default
# 50,000: addresses, prefixes, ports, port ranges, interfaces, state,
# LOG, REJECT, comments, user chains), each into a fresh private
# network namespace; then saving it back (iptables-save-nft vs stock
# iptables-nft-save). GNU time: wall, user, system seconds and peak RSS;
# the median of -n runs. Not part of make check.
#
#   testcases/bench/shim-restore.sh [-n RUNS] [-r RULES]
#   testcases/bench/shim-restore.sh -g RULES   # only print the file
set -u
RUNS=3 RULES=50000 GEN=
while getopts n:r:g: o; do
	case $o in
	n) RUNS=$OPTARG ;;
	r) RULES=$OPTARG ;;
	g) GEN=$OPTARG ;;
	*) exit 2 ;;
	esac
done

gen() {
	awk -v n="$1" 'BEGIN {
		print "*filter"
		print ":INPUT DROP [0:0]"; print ":FORWARD ACCEPT [0:0]"
		print ":OUTPUT ACCEPT [0:0]"
		for (c = 0; c < 10; c++) printf ":U%d - [0:0]\n", c
		for (i = 0; i < n; i++) {
			a = int(i / 250) % 250; b = i % 250; k = i % 10
			ch = (i % 3) ? "U" k : "INPUT"
			if (k == 0)
				printf "-A %s -s 10.%d.%d.0/24 -p tcp -m tcp --dport %d -j ACCEPT\n", ch, a, b, 1 + i % 65000
			else if (k == 1)
				printf "-A %s -d 192.168.%d.%d/32 -i eth%d -j DROP\n", ch, a, b, i % 4
			else if (k == 2)
				printf "-A %s -p udp -m udp --sport %d:%d -j RETURN\n", ch, 1000 + i % 500, 2000 + i % 500
			else if (k == 3)
				printf "-A %s -m state --state RELATED,ESTABLISHED -j ACCEPT\n", ch
			else if (k == 4)
				printf "-A %s -s 172.16.%d.%d/32 -j LOG --log-prefix \"r%d \"\n", ch, a, b, i
			else if (k == 5)
				printf "-A %s -p tcp -m tcp --dport %d -j REJECT --reject-with tcp-reset\n", ch, 1 + i % 65000
			else if (k == 6)
				printf "-A %s -i wg%d -m comment --comment \"rule %d\" -j ACCEPT\n", ch, i % 8, i
			else if (k == 7)
				printf "-A %s ! -s 10.%d.0.0/16 -p tcp -m tcp --sport 1024:65535 --dport %d -j ACCEPT\n", ch, a, 1 + i % 65000
			else if (k == 8)
				printf "-A %s -p icmp -m icmp --icmp-type 8 -j ACCEPT\n", ch
			else
				printf "-A INPUT -s 10.%d.%d.1/32 -j U%d\n", a, b, i % 10
		}
		print "COMMIT"
	}'
}

if [ -n "$GEN" ]; then	# the file alone (restore-fast.sh reads it)
	gen "$GEN"
	exit
fi
SHIM=${SHIM:-$(cd "$(dirname "$0")/../.." && pwd)/build/iptables-shim}
[ -x "$SHIM/iptables-restore-nft" ] || { echo "no $SHIM"; exit 77; }
[ -x /usr/bin/time ] || { echo "no GNU time"; exit 77; }
unshare -n iptables-nft-save >/dev/null 2>&1 || { echo "needs root"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen "$RULES" > "$work/rules"
echo "shim-restore: $RULES rules, median of $RUNS runs, 2 cores"

# median of RUNS "wall user sys rss" lines (by wall)
median() { sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2)'; }

measure() {	# label command...   (in a fresh namespace each run)
	label=$1; shift
	i=0
	: > "$work/t"
	while [ "$i" -lt "$RUNS" ]; do
		unshare -n sh -c "$PREP; /usr/bin/time -f '%e %U %S %M' -o '$work/one' $* > /dev/null 2>'$work/err'" ||
			{ echo "$label: failed: $(head -2 "$work/err")"; return; }
		cat "$work/one" >> "$work/t"
		i=$((i + 1))
	done
	median < "$work/t" | awk -v l="$label" '{ printf "%-34s wall %6.2f s  user %6.2f s  sys %6.2f s  peak RSS %7.1f MB\n", l, $1, $2, $3, $4 / 1024 }'
}

PREP=true
measure "restore: iptables-restore-nft (ours)" "$SHIM/iptables-restore-nft $work/rules"
measure "restore: iptables-nft-restore (stock)" "iptables-nft-restore $work/rules"
measure "restore: iptables-legacy-restore" "iptables-legacy-restore $work/rules"
PREP="iptables-nft-restore $work/rules"
measure "save: iptables-save-nft (ours)" "$SHIM/iptables-save-nft"
measure "save: iptables-nft-save (stock)" "iptables-nft-save"
