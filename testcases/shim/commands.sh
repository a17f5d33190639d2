#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# iptables-nft command front end against stock iptables-nft 1.8.9: one
# scripted session (-N -A -I -D by spec and by number -R -P -E -F -Z -X,
# -C, -S, -L in its forms, and error cases) runs with stock iptables-nft
# in one fresh private network namespace and with ours in another. Every
# step's exit status, stdout, stderr and the kernel's chains must be the
# same (listing steps are part of the session); then a listing with real
# counters. Prints one line per step and the number that agree. Needs root and nf_tables; skips
# (77) otherwise.
set -u
SKIP=77
SHIM=${SHIM:-${top_builddir:-$(dirname "$0")/../../build}/iptables-shim}
OURS="$SHIM/iptables-nft"
[ -x "$OURS" ] || { echo "no $OURS"; exit $SKIP; }
STOCK=$(command -v iptables-nft) || { echo "no stock iptables-nft"; exit $SKIP; }
unshare -n nft list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One command line per step (words split by the shell; no quotes).
cat > "$work/session" <<'X'
-N FOO
-N FOO
-A INPUT -i lo -j ACCEPT
-A INPUT -p tcp --dport 22 -j ACCEPT
-I INPUT -s 10.0.0.0/8 -j DROP
-I INPUT 2 -p udp --sport 53 -j FOO
-A FOO -d 192.168.1.1 -j RETURN
-A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
-A INPUT ! -s 10.1.0.0/16 -p tcp -m multiport --dports 80,443 -j ACCEPT
-A INPUT -p icmp -j REJECT
-A INPUT -g FOO
-A FOO -m comment --comment hello -j DROP
-S
-L -n
-L -n -v
-L INPUT -n -v -x --line-numbers
-S INPUT
-S INPUT 2
-L INPUT 3 -n
-C INPUT -p tcp --dport 22 -j ACCEPT
-C INPUT -p tcp --dport 23 -j ACCEPT
-D INPUT -p tcp --dport 23 -j ACCEPT
-D INPUT -p tcp --dport 22 -j ACCEPT
-D INPUT 1
-D INPUT 99
-I INPUT 99 -j ACCEPT
-R INPUT 1 -o eth0 -j REJECT
-R INPUT 1 -i eth0 -j REJECT
-R INPUT 99 -j ACCEPT
-A OUTPUT -i eth0 -j ACCEPT
-A NOCHAIN -j ACCEPT
-P FORWARD DROP
-P FOO DROP
-P INPUT FOO
-E FOO BAR
-E NOPE BAR2
-S
-L -n --line-numbers
-X BAR
-F BAR
-Z
-X BAR
-F NOPE
-L NOPE
-S NOPE
-S
-F
-X
-L -n -v
-t nat -A POSTROUTING -o eth0 -j MASQUERADE
-t nat -S
-t nat -L -n -v --line-numbers
-t nat -F
--bogus
-A
-w -A INPUT -j ACCEPT
-w 5 -nvL INPUT
-S
-A INPUT -p tcp --dport 22 -j ACCEPT
-A INPUT -p udp -m udp --dport 1000:2000 -j DROP
-A INPUT -s 1.2.3.4 -d 5.6.7.0/24 -j LOG --log-prefix x
-A INPUT -p tcp ! --dport 80 -j ACCEPT
-A INPUT -m state --state NEW -j ACCEPT
-A INPUT -m mark --mark 0x1 -j ACCEPT
-A INPUT -p tcp --tcp-flags SYN,ACK SYN -j DROP
-A INPUT -m limit --limit 5/min -j ACCEPT
-A INPUT -f -j DROP
-A INPUT -p icmp --icmp-type echo-request -j ACCEPT
-A INPUT -j MARK --set-mark 1
-t nat -A PREROUTING -p tcp --dport 80 -j DNAT --to-destination 1.2.3.4:8080
-t nat -A POSTROUTING -j SNAT --to-source 1.1.1.1
-t nat -L -n
-t mangle -A PREROUTING -j MARK --set-mark 1
-t mangle -L -n
-L
-L -n
-L -v -n -x
-Z INPUT 1
-D INPUT -s 1.2.3.4/32 -d 5.6.7.0/24 -j LOG --log-prefix x
-D INPUT 100
-X INPUT
-N a-very-long-chain-name-that-is-too-long-for-it
-t foo -L
-S INPUT 100
-L INPUT 100
-N X
-A X -j RETURN
-X X
-A INPUT -j NOPE
-I NOPE -j ACCEPT
-P INPUT
-F -t raw
-S
-F
-X
-A INPUT -s 1.2.3.4,5.6.7.8 -j DROP
-S
-D INPUT -s 1.2.3.4,5.6.7.8 -j DROP
-A INPUT -p all -j ACCEPT
-A INPUT -m tcp -p tcp --sport 1024:65535 -j ACCEPT
-S -v
-L -Z -n
-S INPUT 0
-L INPUT 0 -n
-I INPUT 0 -j ACCEPT
-D INPUT 0
-A INPUT -j ACCEPT extra
-A INPUT -p tcp --dport
-A INPUT --dport 22 -j ACCEPT
-N FOO BAR
-F INPUT 1
-X FOO BAR
-N 1abc
-N -x
-A INPUT -j DROP -j ACCEPT
-F
-X
-A INPUT -j ACCEPT
-I INPUT 1 -s 1.1.1.1,2.2.2.2 -d 3.3.3.3,4.4.4.4 -j DROP
-S INPUT
-C INPUT -s 1.1.1.1,9.9.9.9 -d 3.3.3.3 -j DROP
-D INPUT -s 1.1.1.1,9.9.9.9 -d 3.3.3.3 -j DROP
-S
-C INPUT -s 1.1.1.1,2.2.2.2 -d 3.3.3.3 -j DROP
-D INPUT -s 1.1.1.1,2.2.2.2 -d 3.3.3.3 -j DROP
-A INPUT --source 5.5.5.5,6.6.6.6 -j ACCEPT
-R INPUT 1 -s 7.7.7.7,8.8.8.8 -j ACCEPT
-S
-L -n -v
-N FOO
-N BAR
-A INPUT -j ACCEPT
-Z -v
-Z INPUT -v
-L -Z -v -n
-F -v
-X -v
-N FOO
-v -A INPUT -p tcp --dport 22 -j ACCEPT
-v -A INPUT -s 1.2.3.4,5.6.7.8 -i eth0 -j FOO
-v -A INPUT ! -s 1.2.3.4 -d 9.9.9.0/24 ! -i eth1 -j FOO
-v -A INPUT -g FOO
-v -D INPUT 1
-v -C INPUT -g FOO
-v -A INPUT -m comment --comment x -j DROP
-v -A INPUT -j LOG
-v -I INPUT 2 -p udp -m udp --sport 53 -j ACCEPT
-v -R INPUT 1 -p icmp -j REJECT
-v -D INPUT -p udp --sport 53 -j ACCEPT
-v -N BAR
-v -P INPUT DROP
-S
-I INPUT -j MASQUERADE
-A INPUT -j DNAT --to-destination 1.2.3.4
-t nat -A POSTROUTING -j NOTARGET
-A INPUT -m nosuchmatch -j ACCEPT
-R INPUT 1 -j MASQUERADE
-S
-N FOO2
-A INPUT -p tcp --dport 22 -j FOO2
-C INPUT -p tcp --dport 22 -j FOO2
-C INPUT -p tcp --dport 23 -g FOO2
-D INPUT -p tcp --dport 22 -j FOO2
-S
X

# The same for ip6tables-nft, shorter: addresses, icmpv6, the listing.
cat > "$work/session6" <<'X'
-N FOO
-A INPUT -i lo -j ACCEPT
-A INPUT -p tcp --dport 22 -s 2001:db8::/32 -j ACCEPT
-A INPUT -p ipv6-icmp --icmpv6-type echo-request -j ACCEPT
-I INPUT -d ::1 -j FOO
-A FOO -m conntrack --ctstate NEW -j REJECT
-S
-L -n -v
-L -n --line-numbers
-C INPUT -p tcp --dport 22 -s 2001:db8::/32 -j ACCEPT
-D INPUT -p tcp --dport 22 -s 2001:db8::/32 -j ACCEPT
-D INPUT 1
-P INPUT DROP
-S
-F
-X
-L -n
X

# Each step: exit status, stdout, stderr and the kernel's chains of the
# filter table ("lay": iptables-nft makes a base chain on first use).
run() {	# run BINARY OUTDIR SESSION FAMILY: one file set per step
	mkdir -p "$2"
	unshare -n sh -c '
		n=0
		while read -r l; do
			n=$((n + 1))
			$1 $l >"$2/$n.out" 2>"$2/$n.err"
			echo $? >"$2/$n.rc"
			nft list table $4 filter 2>/dev/null |
				grep -o "chain [^ ]*" | sort >"$2/$n.lay"
		done < "$3"' sh "$1" "$2" "$3" "$4"
}

pass=0 fail=0 total=0
compare() {	# compare NAME SESSION: stock's and our step files
	n=0
	while read -r l; do
		n=$((n + 1))
		total=$((total + 1))
		bad=""
		for k in rc out err lay; do
			cmp -s "$work/$1.stock/$n.$k" "$work/$1.ours/$n.$k" ||
				bad="$bad $k"
		done
		if [ -z "$bad" ]; then
			pass=$((pass + 1)); echo "ok   $1 $n: $l"
			continue
		fi
		fail=$((fail + 1)); echo "FAIL $1 $n: $l (differs:$bad)"
		for k in rc out err lay; do
			cmp -s "$work/$1.stock/$n.$k" "$work/$1.ours/$n.$k" ||
				diff -u "$work/$1.stock/$n.$k" \
					"$work/$1.ours/$n.$k" |
					sed -n '3,20s/^/	/p'
		done
	done < "$2"
}

STOCK6=$(command -v ip6tables-nft) || STOCK6=""
run "$STOCK" "$work/v4.stock" "$work/session" ip
run "$OURS" "$work/v4.ours" "$work/session" ip
compare v4 "$work/session"
if [ -n "$STOCK6" ] && [ -x "$SHIM/ip6tables-nft" ]; then
	run "$STOCK6" "$work/v6.stock" "$work/session6" ip6
	run "$SHIM/ip6tables-nft" "$work/v6.ours" "$work/session6" ip6
	compare v6 "$work/session6"
else
	echo "no ip6tables-nft: the IPv6 session is skipped"
fi
# Counters: the same UDP traffic over lo in both namespaces (ICMP
# errors, which are rate limited, are not counted), then the listings.
counted() {	# counted BINARY: the listings after 3000 datagrams
	unshare -n sh -c '
		ip link set lo up || exit 1
		$1 -A INPUT -i lo -p udp -j ACCEPT
		$1 -A OUTPUT -p udp -j ACCEPT
		python3 -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(3000):
    s.sendto(b\"x\" * 1000, (\"127.0.0.1\", 9))
"
		$1 -L -v -n
		$1 -L -v -n -x --line-numbers
		$1 -S -v
		$1 -Z OUTPUT 1
		$1 -L OUTPUT -v -n
		$1 -L -Z -v -n
		$1 -L -v -n' sh "$1"
}
if command -v python3 >/dev/null && command -v ip >/dev/null; then
	counted "$STOCK" >"$work/ctr.stock" 2>&1
	counted "$OURS" >"$work/ctr.ours" 2>&1
	total=$((total + 1))
	if grep -q "^ 3000" "$work/ctr.stock" &&
	   cmp -s "$work/ctr.stock" "$work/ctr.ours"; then
		pass=$((pass + 1)); echo "ok   counters: -L -v [-x], -S -v, -Z N, -L -Z"
	else
		fail=$((fail + 1)); echo "FAIL counters"
		diff -u "$work/ctr.stock" "$work/ctr.ours" | sed 's/^/	/'
	fi
else
	echo "no python3 or ip: the counter listing is skipped"
fi
echo "commands: $pass/$total steps agree with stock iptables-nft/ip6tables-nft"
[ "$fail" -eq 0 ]
