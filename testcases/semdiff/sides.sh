#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sides of `ipt2nft diff` that are not rule files: `kernel` (the live
# ruleset of the network namespace, read over netlink) and an offline VM
# state file (`nft --offline STATE`). In a private network namespace:
# * an iptables-save file loaded with stock iptables-nft-restore: kernel
#   against the file equivalent; one rule replaced with stock iptables-nft
#   (another port): different, the counterexample has the old or the new
#   port, the kernel side's deciding rule is the replaced one and the
#   VM's trace of both sides (the kernel's dump loaded into a VM)
#   confirms it;
# * a file of extensions iptables-nft keeps as xt compat expressions
#   (conntrack, state, tcp, udp, multiport, icmp, addrtype, iprange, mac,
#   comment, LOG, REJECT,
#   MARK, SNAT, DNAT, MASQUERADE, REDIRECT): kernel against the file
#   equivalent; a port, a reject code, a ct direction, a SNAT range
#   changed in the kernel: different;
# * each hand-written case (cases/X-a.nft) loaded with stock nft: kernel
#   against X-a equivalent, against X-c (different by construction)
#   different;
# * the iptables-save file's translation loaded into a state file with
#   our nft --offline: the state file against the iptables-save file
#   equivalent; one rule replaced in the state file: different;
# * the name `kernel` means the live ruleset even with a file of that name
#   in the working directory; --old-kind nft reads the file.
# Needs root (unshare -n), nf_tables and stock iptables-nft-restore/nft;
# skips (77) otherwise.
set -u
ipt2nft=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}
nft=${NFT:-${top_builddir:-../..}/nftc/nft}
stock_nft=${STOCK_NFT:-/usr/sbin/nft}
cases=$(cd "$(dirname "$0")" && pwd)/cases
[ -x "$ipt2nft" ] || { echo "SKIP: no ipt2nft"; exit 77; }
[ -x "$nft" ] || { echo "SKIP: no nft"; exit 77; }
if [ -z "${SIDES_IN_NETNS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
	command -v iptables-nft-restore >/dev/null &&
		command -v iptables-nft >/dev/null &&
		[ -x "$stock_nft" ] ||
		{ echo "SKIP: no stock iptables-nft/nft"; exit 77; }
	unshare -n "$stock_nft" list ruleset >/dev/null 2>&1 ||
		{ echo "SKIP: no nf_tables in a private netns"; exit 77; }
	SIDES_IN_NETNS=1 IPT2NFT=$ipt2nft NFT=$nft STOCK_NFT=$stock_nft \
		exec unshare -n sh "$0" "$@"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
bad=0 n=0

# check NAME WANT-EXIT [GREP-PATTERN] -- diff arguments
check() {
	cname=$1 want=$2 pat=$3
	shift 4
	n=$((n + 1))
	"$ipt2nft" diff --view=none "$@" >out 2>&1
	rc=$?
	if [ $rc != "$want" ]; then
		echo "FAIL $cname: exit $rc, expected $want"
		cat out
		bad=1
	elif [ -n "$pat" ] && ! grep -q -e "$pat" out; then
		echo "FAIL $cname: no line matching /$pat/"
		cat out
		bad=1
	else
		echo "ok   $cname: exit $rc"
	fi
}

cat >fw.rules <<'EOF'
*filter
:INPUT DROP [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:svc - [0:0]
-A INPUT -i lo -j ACCEPT
-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT
-A INPUT -s 10.0.0.0/8 -p udp -m udp --dport 53 -j ACCEPT
-A INPUT -p icmp -j ACCEPT
-A INPUT -j svc
-A INPUT -p tcp -j DROP
-A svc -d 192.168.1.1/32 -j RETURN
-A svc -p tcp -m tcp --dport 80 -j ACCEPT
-A svc -p udp -m mark --mark 0x1 -m udp --sport 123 -j ACCEPT
-A FORWARD -i eth0 -o eth1 -d 192.0.2.0/24 -j DROP
COMMIT
EOF

# --- kernel, loaded by stock iptables-nft-restore
iptables-nft-restore <fw.rules || { echo "FAIL: iptables-nft-restore"; exit 1; }
check iptables-kernel-same 0 'rulesets are equivalent' -- kernel fw.rules
check iptables-file-kernel-same 0 'rulesets are equivalent' -- fw.rules kernel
# --- `kernel` is the live ruleset even with a file named kernel here
cat >kernel <<'EOF'
table ip filter {
	chain INPUT { type filter hook input priority 0; policy accept; }
}
EOF
check kernel-name-is-live 0 'rulesets are equivalent' -- kernel fw.rules
check kernel-kind-nft 1 'rulesets DIFFER' -- --old-kind nft kernel fw.rules
check kernel-kind-forced 0 '^--- ./kernel: kernel,' -- --old-kind kernel ./kernel fw.rules

iptables-nft -R svc 2 -p tcp -m tcp --dport 8080 -j ACCEPT
check iptables-kernel-changed 1 'tcp dport \(80\|8080\)$\|tcp dport \(80\|8080\) ' \
	-- kernel fw.rules
grep -q 'deciding rule: tcp dport 8080' out ||
	{ echo "FAIL iptables-kernel-changed: the kernel's deciding rule is" \
		"not the replaced one"; cat out; bad=1; }
# Every counterexample confirmed by the VM's trace, except one setting a
# field the VM's packet cannot carry (a TCP option: features.sh has the
# concrete evaluator replay those pairs file against file).
vm_confirmed() {
	! grep '^    replay: \(DISAGREES\|not\)' out |
		grep -vq "not possible: the VM's packet cannot carry" &&
		grep -q "^    replay: \(confirmed by the VM\|not possible: the VM's packet cannot carry\)" out ||
		{ echo "FAIL $1: the VM's trace does not confirm it"; cat out
		  bad=1; }
}
vm_confirmed iptables-kernel-changed
# the file's side names its iptables-save line
want=$(grep -n -- '--dport 80 -j ACCEPT' fw.rules | cut -d: -f1)
grep -qx "         at fw.rules:$want: -A svc -p tcp -m tcp --dport 80 -j ACCEPT" out ||
	{ echo "FAIL iptables-kernel-changed: fw.rules:$want not named"
	  cat out; bad=1; }

# --- iptables-nft's xt compat expressions (conntrack, state, multiport,
# icmp, comment, LOG, REJECT) against the file's native translation
"$stock_nft" flush ruleset
cat >xt.rules <<'EOF'
*filter
:INPUT DROP [0:0]
:FORWARD DROP [0:0]
:OUTPUT ACCEPT [0:0]
-A INPUT -m state --state RELATED,ESTABLISHED -j ACCEPT
-A INPUT -m conntrack --ctstate INVALID -j DROP
-A INPUT -m addrtype --dst-type BROADCAST,MULTICAST --limit-iface-in -j DROP
-A INPUT -p tcp -m multiport --dports 80,443,8000:8080 -m comment --comment "web" -j ACCEPT
-A INPUT -p icmp -m icmp --icmp-type 8 -j ACCEPT
-A INPUT -p tcp -j LOG --log-prefix "tcp: "
-A INPUT -p tcp -j REJECT --reject-with tcp-reset
-A INPUT -p udp -j REJECT --reject-with icmp-host-prohibited
-A INPUT -m iprange --src-range 10.0.0.5-10.0.0.20 ! --dst-range 10.0.1.1-10.0.1.9 -j ACCEPT
-A INPUT -p tcp -m tcp -m mac ! --mac-source 00:11:22:33:44:55 -j DROP
-A INPUT -p udp -m udp -j DROP
-A FORWARD -m conntrack --ctstate DNAT -j ACCEPT
-A FORWARD -p tcp -m conntrack --ctproto tcp --ctstatus CONFIRMED --ctdir ORIGINAL -j ACCEPT
-A FORWARD -m conntrack --ctstate NEW --ctdir REPLY -j DROP
COMMIT
EOF
iptables-nft-restore <xt.rules || { echo "FAIL: iptables-nft-restore xt.rules"; exit 1; }
if "$stock_nft" --debug=netlink list ruleset 2>/dev/null | grep -q 'match name multiport'; then
	check xt-kernel-same 0 'rulesets are equivalent' -- kernel xt.rules
	iptables-nft -R INPUT 4 -p tcp -m multiport --dports 80,443,8000:8081 \
		-m comment --comment web -j ACCEPT
	check xt-kernel-port 1 'tcp dport 8081' -- kernel xt.rules
	vm_confirmed xt-kernel-port
	iptables-nft -R INPUT 4 -p tcp -m multiport --dports 80,443,8000:8080 \
		-m comment --comment web -j ACCEPT
	iptables-nft -R INPUT 8 -p udp -j REJECT
	check xt-kernel-reject 1 \
		'(old reject type 0 code 3, new reject type 0 code 10)' \
		-- kernel xt.rules
	vm_confirmed xt-kernel-reject
	iptables-nft -R INPUT 8 -p udp -j REJECT --reject-with icmp-host-prohibited
	iptables-nft -R FORWARD 2 -p tcp -m conntrack --ctproto tcp \
		--ctstatus CONFIRMED --ctdir REPLY -j ACCEPT
	check xt-kernel-ctdir 1 'ct direction' -- kernel xt.rules
	# NAT targets (xt SNAT/DNAT/MASQUERADE/REDIRECT), one changed
	"$stock_nft" flush ruleset
	cat >nat.rules <<'EOF'
*nat
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
-A PREROUTING -p tcp -m tcp --dport 80 -j DNAT --to-destination 10.0.0.1:8080
-A PREROUTING -p tcp -m tcp --dport 81 -j DNAT --to-destination 10.0.0.1
-A PREROUTING -p tcp -m tcp --dport 82 -j REDIRECT --to-ports 3128
-A PREROUTING -p tcp -m tcp --dport 83 -j REDIRECT
-A POSTROUTING -o eth0 -j MASQUERADE
-A POSTROUTING -o eth1 -p tcp -j MASQUERADE --to-ports 1000-2000
-A POSTROUTING -o eth2 -j SNAT --to-source 1.2.3.4
-A POSTROUTING -o eth3 -p udp -j SNAT --to-source 1.2.3.4-1.2.3.8:1000-2000
COMMIT
*mangle
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
-A PREROUTING -i eth0 -j MARK --set-mark 0x63
-A PREROUTING -i eth1 -j MARK --set-xmark 0x4/0xff
-A PREROUTING -m mark --mark 0x63 -j ACCEPT
COMMIT
EOF
	iptables-nft-restore <nat.rules
	check xt-kernel-nat-same 0 'rulesets are equivalent' -- kernel nat.rules
	iptables-nft -t nat -R POSTROUTING 4 -o eth3 -p udp -j SNAT \
		--to-source 1.2.3.4-1.2.3.9:1000-2000
	check xt-kernel-nat-changed 1 'different marks/NAT' -- kernel nat.rules
	vm_confirmed xt-kernel-nat-changed
	want=$(grep -n -- '-o eth3' nat.rules | cut -d: -f1)
	grep -q "at nat.rules:$want: -A POSTROUTING -o eth3" out ||
		{ echo "FAIL xt-kernel-nat-changed: nat.rules:$want not named"
		  cat out; bad=1; }
else
	echo "skip xt: this iptables-nft spells them natively"
fi

# --- kernel, loaded by stock nft with each hand-written case
for a in "$cases"/*-a.nft; do
	x=${a%-a.nft}
	name=$(basename "$x")
	"$stock_nft" flush ruleset
	if ! "$stock_nft" -f "$a" 2>/dev/null; then
		echo "skip $name: stock nft does not load it"
		continue
	fi
	check "nft-kernel-$name-a" 0 'rulesets are equivalent' -- kernel "$a"
	[ -f "$x-c.nft" ] || continue
	check "nft-kernel-$name-c" 1 'counterexample' -- kernel "$x-c.nft"
	vm_confirmed "nft-kernel-$name-c"
done

# --- an offline VM state file
"$ipt2nft" fw.rules >fw.nft 2>/dev/null
"$nft" --offline fw.state -f fw.nft || { echo "FAIL: nft --offline"; exit 1; }
check state-same 0 'rulesets are equivalent' -- fw.state fw.rules
check state-forced 0 'VM state' -- --old-kind state fw.state fw.rules
h=$("$nft" --offline fw.state -a list chain ip filter svc |
	sed -n 's/.*tcp dport 80 .*# handle \([0-9]*\)$/\1/p')
"$nft" --offline fw.state replace rule ip filter svc handle "$h" \
	tcp dport 8080 accept ||
	{ echo "FAIL: replace rule in the state file"; exit 1; }
check state-changed 1 'deciding rule: tcp dport 8080' -- fw.state fw.rules
vm_confirmed state-changed
# the kernel (iptables-nft's port 8080) against the changed state file
"$stock_nft" flush ruleset
iptables-nft-restore <fw.rules
iptables-nft -R svc 2 -p tcp -m tcp --dport 8080 -j ACCEPT
check state-kernel-same 0 'rulesets are equivalent' -- kernel fw.state

echo "semdiff sides: $n checks"
exit $bad
