#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nft --offline S trace packet: verdicts of packets described with
# selectors, against rulesets written so that each verdict follows from
# the ruleset's meaning (the expectation is the ruleset's, not our
# tool's output), plus the trace lines that show the way (jump, return,
# policy, the next base chain after an accept). Needs no root.
set -u
NFT=${NFT:-}
[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# expect STATE VERDICT SELECTORS...: the last line is "verdict VERDICT"
expect() {
	s=$1 want=$2
	shift 2
	if ! "$NFT" --offline "$s" trace packet "$@" > "$work/out" \
		2> "$work/err"; then
		fail=$((fail + 1)); echo "FAIL (error) $*"
		sed 's/^/  /' "$work/err"; return
	fi
	got=$(tail -n 1 "$work/out")
	if [ "$got" = "verdict $want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL $*: want verdict $want"
		sed 's/^/  /' "$work/out"
	fi
}

# has PATTERN: the last trace printed a line matching PATTERN
has() {
	if grep -q -- "$1" "$work/out"; then pass=$((pass + 1))
	else fail=$((fail + 1)); echo "FAIL: no line like '$1'"
		sed 's/^/  /' "$work/out"; fi
}

cat > "$work/host.nft" <<'NFT'
table ip filter {
	chain input {
		type filter hook input priority 0; policy drop;
		tcp dport 22 accept
		ip saddr 192.168.0.0/16 udp dport 53 accept
		iifname "lo" accept
		tcp dport 80 jump web
	}
	chain web {
		ip daddr 10.0.0.2 accept
		ip daddr 10.0.0.3 drop
	}
}
NFT
H="$work/host"
"$NFT" --offline "$H" -f "$work/host.nft" || { echo "load failed"; exit 1; }
expect "$H" accept ip saddr 10.0.0.1 ip daddr 10.0.0.2 tcp dport 22 \
	tcp flags syn iifname '"eth0"'
has 'ip filter input rule tcp dport 22 accept (verdict accept)'
expect "$H" drop tcp dport 23
has 'ip filter input policy drop'
expect "$H" accept ip saddr 192.168.7.9 udp dport 53
expect "$H" drop ip saddr 10.1.1.1 udp dport 53
expect "$H" drop ip saddr 192.168.7.9 udp dport 54
expect "$H" accept iifname '"lo"' udp dport 9
expect "$H" drop iifname '"eth0"' udp dport 9
expect "$H" accept tcp dport 80 ip daddr 10.0.0.2
has 'rule tcp dport 80 jump web (verdict jump web)'
has 'ip filter web rule ip daddr 10.0.0.2 accept (verdict accept)'
expect "$H" drop tcp dport 80 ip daddr 10.0.0.3
expect "$H" drop tcp dport 80 ip daddr 10.0.0.9
has 'ip filter web verdict continue'
# ip tables do not see IPv6; nothing hooks output
expect "$H" accept ip6 saddr 2001:db8::1 tcp dport 23
expect "$H" accept tcp dport 23 hook output

cat > "$work/gw.nft" <<'NFT'
table inet fw {
	set blocked {
		type ipv4_addr
		elements = { 203.0.113.7 }
	}
	chain early {
		type filter hook forward priority -10; policy accept;
		meta mark 0x2 drop
	}
	chain forward {
		type filter hook forward priority 0; policy accept;
		ip saddr @blocked drop
		tcp dport vmap { 25 : drop, 443 : accept }
		udp dport 9 drop
	}
}
NFT
G="$work/gw"
"$NFT" --offline "$G" -f "$work/gw.nft" || { echo "load failed"; exit 1; }
# both interfaces named: forward
expect "$G" drop iifname '"eth0"' oifname '"eth1"' ip saddr 203.0.113.7 \
	tcp dport 443
has 'inet fw forward rule ip saddr @blocked drop (verdict drop)'
expect "$G" accept iifname '"eth0"' oifname '"eth1"' ip saddr 198.51.100.1 \
	tcp dport 443
expect "$G" drop iifname '"eth0"' oifname '"eth1"' tcp dport 25
expect "$G" accept iifname '"eth0"' oifname '"eth1"' tcp dport 26
# an accept in the early chain moves on to the next: udp 9 still drops
expect "$G" drop iifname '"eth0"' oifname '"eth1"' udp dport 9
has 'inet fw early policy accept'
expect "$G" drop iifname '"eth0"' oifname '"eth1"' meta mark 0x2 \
	tcp dport 26
# inet tables see IPv6 too
expect "$G" drop iifname '"eth0"' oifname '"eth1"' ip6 saddr 2001:db8::5 \
	tcp dport 25
expect "$G" accept hook forward ip6 saddr 2001:db8::5 tcp dport 26
# not forwarded: the input hook has no chains here
expect "$G" accept iifname '"eth0"' udp dport 9

# errors: bad selectors, and no --offline
"$NFT" --offline "$H" trace packet tcp dport nosuchservice >/dev/null \
	2>&1 && { fail=$((fail + 1)); echo "FAIL: bad selector accepted"; } ||
	pass=$((pass + 1))
"$NFT" trace packet tcp dport 22 >/dev/null 2>&1 &&
	{ fail=$((fail + 1)); echo "FAIL: trace without --offline"; } ||
	pass=$((pass + 1))

# Conntrack: the ct selectors are what the VM's ct expression reads. A
# stateful firewall: replies of known connections pass, new ones only to
# ssh; a mark on the connection opens port 8080; NAT chains see only a
# connection's first packet (ct state new).
cat > "$work/ct.nft" <<'NFT'
table ip t {
	chain input {
		type filter hook input priority 0; policy drop;
		ct state established,related accept
		ct state invalid drop
		tcp dport 22 ct state new accept
		tcp dport 8080 ct mark 0x5 accept
	}
	chain pre {
		type nat hook prerouting priority dstnat;
		tcp dport 80 dnat to 10.0.0.9
	}
}
NFT
C="$work/ct"
"$NFT" --offline "$C" -f "$work/ct.nft" || { echo "load failed"; exit 1; }
expect "$C" accept ip saddr 10.0.0.1 tcp dport 22 ct state new
expect "$C" drop ip saddr 10.0.0.1 tcp dport 23 ct state new
expect "$C" accept ip saddr 10.0.0.1 tcp dport 23 ct state established
expect "$C" accept ip saddr 10.0.0.1 tcp dport 23 ct state related
expect "$C" drop ip saddr 10.0.0.1 tcp dport 22 ct state invalid
expect "$C" accept ip saddr 10.0.0.1 tcp dport 8080 ct state new ct mark 0x5
expect "$C" drop ip saddr 10.0.0.1 tcp dport 8080 ct state new ct mark 0x6
expect "$C" accept ip saddr 10.0.0.1 tcp dport 80 ct state new hook prerouting
has 'ip t pre rule tcp dport 80 dnat to 10.0.0.9'
expect "$C" accept ip saddr 10.0.0.1 tcp dport 80 ct state established hook prerouting
if grep -q 'dnat to' "$work/out"; then
	fail=$((fail + 1)); echo "FAIL: nat chain ran for an established packet"
else
	pass=$((pass + 1))
fi

# "meta length N" pads the packet to N bytes (IPv4 total length and UDP
# length follow); at input there is no output device: the kernel reads
# oif 0 and oifname "", so "oif != lo" matches (not a missing value).
cat > "$work/len.nft" <<'NFT'
table inet t {
	chain input {
		type filter hook input priority 0; policy accept;
		meta length > 100 ip length > 100 udp length > 80 drop
		meta l4proto tcp oif != "lo" oifname != "lo" counter drop
	}
}
NFT
L="$work/len"
"$NFT" --offline "$L" -f "$work/len.nft" || { echo "load failed"; exit 1; }
expect "$L" accept ip saddr 10.0.0.1 udp dport 53 meta length 100
expect "$L" drop ip saddr 10.0.0.1 udp dport 53 meta length 101
expect "$L" drop ip6 saddr 2001:db8::1 tcp dport 22
has 'inet t input rule meta l4proto tcp oif != .* (verdict drop)'

# "meta iiftype ether" makes "ether type ip6" the dependency of an ip6
# match (a link-header load): a received packet has its Ethernet header,
# one the host sends (output) has none.
cat > "$work/ll.nft" <<'NFT'
table inet t {
	chain input {
		type filter hook input priority 0; policy accept;
		meta iiftype ether ip6 nexthdr udp drop
	}
	chain output {
		type filter hook output priority 0; policy accept;
		ether type ip6 drop
	}
}
NFT
E="$work/ll"
"$NFT" --offline "$E" -f "$work/ll.nft" || { echo "load failed"; exit 1; }
expect "$E" drop ip6 saddr 2001:db8::1 udp dport 53 iifname '"eth0"' \
	meta iiftype ether
expect "$E" accept ip saddr 10.0.0.1 udp dport 53 iifname '"eth0"' \
	meta iiftype ether
expect "$E" accept ip6 saddr 2001:db8::1 udp dport 53 oifname '"eth0"'

# SCTP chunks: the packet carries the chunks the selectors name, one
# after the other (the walk must step over each, RFC 9260 padding);
# "missing" keeps one out; a chunk never makes a TCP packet.
cat > "$work/sctp.nft" <<'NFT'
table inet t {
	chain input {
		type filter hook input priority 0; policy accept;
		sctp chunk init exists sctp chunk data exists drop
		sctp chunk sack cum-tsn-ack 7 drop
		sctp chunk data ppid 46 sctp chunk data stream 2 drop
		meta l4proto sctp sctp chunk abort missing counter
		tcp dport 5 drop
	}
}
NFT
C="$work/sctp"
"$NFT" --offline "$C" -f "$work/sctp.nft" || { echo "load failed"; exit 1; }
expect "$C" drop sctp chunk data exists sctp chunk init exists
expect "$C" accept sctp chunk init exists sctp chunk data missing
expect "$C" drop sctp chunk heartbeat exists sctp chunk sack cum-tsn-ack 7
expect "$C" accept sctp chunk sack cum-tsn-ack 8
expect "$C" drop sctp chunk data stream 2 sctp chunk data ppid 46
expect "$C" accept sctp chunk data stream 3 sctp chunk data ppid 46
expect "$C" accept sctp chunk shutdown exists
has 'rule meta l4proto sctp sctp chunk abort missing counter'
expect "$C" accept sctp chunk abort exists
has 'policy accept'
expect "$C" drop tcp dport 5

# TCP options: the SYN carries the options the selectors name, laid out
# one after the other (the walk steps over each; NOPs pad to 4 bytes);
# "missing" keeps one out.  The route: "rt mtu N" is the MSS the path
# allows; "tcp option maxseg size set rt mtu" only ever lowers the MSS
# (a raise can stall the connection); before routing (prerouting) a
# packet has no route, so no rt selector of a rule matches there.
cat > "$work/tcpopt.nft" <<'NFT'
table ip m {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		rt ip nexthop 192.0.2.2 drop
	}
	chain forward {
		type filter hook forward priority 0; policy drop;
		tcp flags syn / syn,rst tcp option maxseg size set rt mtu
		tcp option maxseg size 1360 accept
		tcp option maxseg size 1200 counter
		tcp option sack-perm exists tcp option window count 9 accept
		tcp option timestamp tsval 77 tcp option maxseg size 1000 accept
		tcp option sack-perm missing tcp dport 7 accept
		rt ip nexthop 10.0.0.254 tcp dport 8 accept
		icmp type destination-unreachable ct original protocol udp accept
	}
}
NFT
T="$work/tcpopt"
"$NFT" --offline "$T" -f "$work/tcpopt.nft" || { echo "load failed"; exit 1; }
expect "$T" accept tcp flags syn tcp option maxseg size 1460 rt mtu 1360 \
	hook forward
has 'rule tcp option maxseg size 1360 accept (verdict accept)'
# the default route's MTU is 1500: 1460 stays, 1200 is not raised
expect "$T" drop tcp flags syn tcp option maxseg size 1460 hook forward
expect "$T" drop tcp flags syn tcp option maxseg size 1200 rt mtu 1360 \
	hook forward
has 'rule tcp option maxseg size 1200 counter'
expect "$T" accept tcp option window count 9 tcp option sack-perm exists \
	hook forward
expect "$T" drop tcp option window count 8 tcp option sack-perm exists \
	hook forward
expect "$T" accept tcp option maxseg size 1000 tcp option sack-perm exists \
	tcp option timestamp tsval 77 tcp option window count 2 hook forward
expect "$T" drop tcp option maxseg size 1000 tcp option timestamp tsval 78 \
	hook forward
expect "$T" accept tcp dport 7 tcp option maxseg size 1460 hook forward
expect "$T" drop tcp dport 7 tcp option sack-perm exists hook forward
expect "$T" accept tcp dport 8 rt ip nexthop 10.0.0.254 hook forward
expect "$T" drop tcp dport 8 rt ip nexthop 10.0.0.253 hook forward
expect "$T" accept ip daddr 192.0.2.2 hook prerouting
has 'policy accept'
# an ICMP error related to a UDP flow: the conntrack entry's protocol
expect "$T" accept icmp type destination-unreachable ct state related \
	ct original protocol udp hook forward
expect "$T" drop icmp type destination-unreachable ct state related \
	ct original protocol tcp hook forward

# Layer 2 families.  bridge frames (selectors with "ether"/"vlan", or
# "family bridge"): link, network and transport fields of one frame,
# chains of a hook by priority, an 802.1Q tag in front of the IP header.
# netdev ("hook ingress"/"egress"): chains of the packet's device only,
# with the inet tables' ingress chains merged by priority.  arp (a word
# "arp"): the ARP header is the network header.
cat > "$work/l2.nft" <<'NFT'
table bridge b {
	chain pre {
		type filter hook prerouting priority -10; policy accept;
		ether saddr 02:00:00:00:00:09 drop
		vlan id 10 jump v10
		ether type arp accept
	}
	chain late {
		type filter hook prerouting priority 10; policy accept;
		ip daddr 192.0.2.66 drop
	}
	chain v10 {
		ip saddr 10.0.0.1 drop
	}
	chain forward {
		type filter hook forward priority 0; policy drop;
		ether type ip tcp dport 22 accept
	}
}
table netdev n {
	chain ing {
		type filter hook ingress device "veth0" priority 0; policy accept;
		ether type ip6 drop
		meta protocol ip udp dport 53 drop
	}
	chain eg {
		type filter hook egress device "veth0" priority 0; policy accept;
		meta l4proto tcp drop
	}
}
table inet i {
	chain ing {
		type filter hook ingress device "veth0" priority -5; policy accept;
		ip saddr 10.9.9.9 drop
	}
}
table arp a {
	chain in {
		type filter hook input priority 0; policy accept;
		arp operation request meta iifname "veth7" drop
	}
	chain out {
		type filter hook output priority 0; policy accept;
		arp operation reply drop
	}
}
NFT
B="$work/l2"
"$NFT" --offline "$B" -f "$work/l2.nft" || { echo "load failed"; exit 1; }
expect "$B" drop ether saddr 02:00:00:00:00:09 hook prerouting
has 'bridge b pre rule ether saddr 02:00:00:00:00:09 drop (verdict drop)'
expect "$B" accept ether saddr 02:00:00:00:00:08 hook prerouting
expect "$B" drop vlan id 10 ip saddr 10.0.0.1 hook prerouting
has 'bridge b pre rule vlan id 10 jump v10 (verdict jump v10)'
has 'bridge b v10 rule ip saddr 10.0.0.1 drop (verdict drop)'
expect "$B" accept vlan id 11 ip saddr 10.0.0.1 hook prerouting
expect "$B" accept vlan id 10 ip saddr 10.0.0.2 hook prerouting
has 'bridge b v10 verdict continue'
# the accept of the first chain moves on to the later one
expect "$B" drop family bridge ip daddr 192.0.2.66 hook prerouting
has 'bridge b pre policy accept'
expect "$B" accept family bridge arp operation request hook prerouting
has 'bridge b pre rule ether type arp accept (verdict accept)'
# both interfaces named: forward
expect "$B" accept ether type ip tcp dport 22 iifname '"veth0"' \
	oifname '"veth1"'
expect "$B" drop ether type ip tcp dport 23 iifname '"veth0"' \
	oifname '"veth1"'
expect "$B" drop ether type ip6 tcp dport 22 hook forward
# netdev: the device decides which chains run
expect "$B" drop hook ingress meta iifname '"veth0"' udp dport 53
has 'netdev n ing rule meta protocol ip udp dport 53 drop (verdict drop)'
expect "$B" accept hook ingress meta iifname '"veth1"' udp dport 53
expect "$B" drop hook ingress iifname '"veth0"' ip6 saddr 2001:db8::1
expect "$B" drop hook ingress iifname '"veth0"' ip saddr 10.9.9.9
has 'inet i ing rule ip saddr 10.9.9.9 drop (verdict drop)'
expect "$B" accept hook ingress iifname '"veth0"' ip saddr 10.9.9.8 \
	udp dport 54
has 'inet i ing policy accept'
has 'netdev n ing policy accept'
expect "$B" drop hook egress oifname '"veth0"' tcp dport 80
expect "$B" accept hook egress oifname '"veth2"' tcp dport 80
expect "$B" accept oifname '"veth0"' family netdev udp dport 80
# arp: input by default, output with "hook output"
expect "$B" drop arp operation request iifname '"veth7"'
has 'arp a in rule arp operation request iifname "veth7" drop (verdict drop)'
expect "$B" accept arp operation request iifname '"veth6"'
expect "$B" accept arp operation reply
expect "$B" drop arp operation reply hook output
expect "$B" accept arp operation request hook output

echo "offline trace: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
