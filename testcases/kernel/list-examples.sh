#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Example rulesets (testcases/examples/*.nft) and iptables-nft rulesets,
# in a private network namespace each:
#  1. load with stock nft, list with stock and with ours (also with -n):
#     identical;
#  2. round trip: flush, load OUR listing with stock nft, list again with
#     stock: identical to the first listing;
#  3. iptables-nft rules (when iptables-nft exists): listed identically.
# Needs root (unshare -n) and nf_tables; skips (77) otherwise.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel

make_work
fail=0 pass=0

check() {	# name, script run in a fresh netns
	if unshare -n sh -c "$2" sh "$work" "$NFT" "$STOCK" \
		> "$work/out" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1"
		sed 's/^/  /' "$work/out" | head -20
	fi
}

for f in "$srcdir"/examples/*.nft; do
	[ -f "$f" ] || continue
	check "$(basename "$f")" '
		cd "$(dirname "'"$f"'")"
		"$3" -I include -f "'"$f"'" >/dev/null || exit 0 # rejected
		# element expiry runs on while listing: not compared
		x="s/ expires [0-9a-z]+//g"
		"$3" list ruleset > "$1/stock" &&
		"$2" list ruleset > "$1/ours" || exit 1
		sed -E "$x" "$1/stock" > "$1/stock.x"
		sed -E "$x" "$1/ours" | diff -u "$1/stock.x" - || exit 1
		# numeric (-n): addresses, ports, flags as numbers
		"$3" -n list ruleset | sed -E "$x" > "$1/stock.n" &&
		"$2" -n list ruleset | sed -E "$x" |
			diff -u "$1/stock.n" - || exit 1
		"$3" flush ruleset && "$3" -f "$1/ours" || exit 1
		"$3" list ruleset | sed -E "$x" > "$1/again" || exit 1
		diff -u "$1/stock.x" "$1/again"'
done

if command -v iptables-nft >/dev/null 2>&1; then
	while read -r rule; do
		[ -n "$rule" ] || continue
		export RULE="$rule"
		check "iptables-nft $rule" '
			eval "iptables-nft $RULE" 2>/dev/null || exit 0
			"$3" list ruleset > "$1/stock" &&
			"$2" list ruleset > "$1/ours" || exit 1
			diff -u "$1/stock" "$1/ours"'
	done <<'RULES'
-A INPUT -p tcp --dport 22 -j ACCEPT
-A INPUT -s 10.0.0.0/8 -i eth0 -j DROP
-A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
-A INPUT -p udp -m multiport --dports 53,123 -j ACCEPT
-A FORWARD -m mark --mark 0x10/0xff -j LOG --log-prefix "fw: "
-A OUTPUT -d 192.168.1.1 -p icmp -j REJECT
-t nat -A POSTROUTING -o eth0 -j MASQUERADE
-A INPUT -m limit --limit 5/min -j ACCEPT
-N custom
-A INPUT ! -s 1.2.3.4 -p tcp --sport 1024:2048 -j RETURN
-A INPUT -p tcp -m tcp --tcp-flags SYN,RST SYN -j DROP
-A INPUT -p tcp --syn -m connlimit --connlimit-above 10 -j REJECT --reject-with tcp-reset
-A INPUT -m state --state NEW -p tcp --dport 80 -j ACCEPT
-A INPUT -m comment --comment "hello world" -j ACCEPT
-A INPUT -m iprange --src-range 10.0.0.1-10.0.0.9 -j DROP
-A INPUT -p icmp --icmp-type echo-request -j ACCEPT
-A INPUT -m mac --mac-source 00:11:22:33:44:55 -j DROP
-A INPUT -m pkttype --pkt-type broadcast -j DROP
-A INPUT -m recent --name foo --set
-A INPUT -m hashlimit --hashlimit-upto 5/sec --hashlimit-name h1 -j ACCEPT
-A INPUT -j NFLOG --nflog-group 2
-A INPUT -m length --length 100:200 -j DROP
-A INPUT -m ttl --ttl-gt 5 -j ACCEPT
-A INPUT -m set --match-set foo src -j DROP
-A OUTPUT -j MARK --set-mark 0x1
-A OUTPUT -j CONNMARK --save-mark
-t mangle -A PREROUTING -j TPROXY --on-port 80 --on-ip 1.2.3.4 -p tcp --tproxy-mark 1
-t nat -A PREROUTING -p tcp --dport 80 -j DNAT --to-destination 10.0.0.1:8080
-t nat -A POSTROUTING -s 10.0.0.0/24 -j SNAT --to-source 1.2.3.4
-t nat -A PREROUTING -p tcp --dport 80 -j REDIRECT --to-ports 8080
-A FORWARD -o eth1 -p udp --sport 53 -j ACCEPT
-A INPUT -m addrtype --dst-type LOCAL -j ACCEPT
-A INPUT -m physdev --physdev-in eth0 -j ACCEPT
-A INPUT -p tcp -m tcpmss --mss 1000:1500 -j ACCEPT
-A FORWARD -p tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu
-A INPUT -m u32 --u32 "0>>22&0x3C@12>>26&0x3C@0=0x2" -j DROP
RULES
fi

echo "list-examples: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
