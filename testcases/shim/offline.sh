#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The drop-ins against the offline VM state (--offline STATEFILE,
# NFTKIT_OFFLINE), run as an unprivileged user where possible:
#  1. every ../shared/realworld file (its .fixed variant where there is
#     one) is restored into a fresh state and saved; the saved text,
#     restored into a second fresh state, must give the same ruleset
#     (`nft --offline S list ruleset`, chains sorted, empty accept base
#     chains aside: save prints every built-in chain) and `ipt2nft diff`
#     must prove file and saved text equivalent (files where it does but
#     the VM code differs are counted apart). Files that cannot go
#     offline are counted apart: an ipset the file needs, a match with
#     no native VM form (the VM runs no xt-compat), an expression the VM
#     lacks; so are files whose saved text has rules with no iptables
#     form ("# unsupported" lines). Fails on any other outcome, or below
#     MIN_OK files passing.
#  2. a restore with a bad line in the middle leaves the state file
#     byte-identical (every restorable file);
#  3. an iptables-nft -N/-A/-I/-D/-P session gives the same -S and -L -n
#     output offline as against the kernel (private netns, skipped
#     without root);
#  4. the matches xlate writes natively are saved as stock
#     iptables-nft-save prints them (private netns, skipped without
#     root);
#  5. nft --offline S trace packet after an offline restore gives the
#     verdicts the iptables ruleset means.
set -u
SKIP=77
SHARED=${NFTKIT_SHARED:-$(dirname "$0")/../../../shared}
RW="$SHARED/realworld"
BUILD=${top_builddir:-$(dirname "$0")/../../build}
SHIM=${SHIM:-$BUILD/iptables-shim}
NFTBIN=${NFT:-$BUILD/nftc/nft}
IPT2NFT=${IPT2NFT:-$BUILD/xlate/ipt2nft}
MIN_OK=${MIN_OK:-37}
[ -d "$RW" ] || { echo "no $RW"; exit $SKIP; }
for b in "$SHIM/iptables-restore-nft" "$NFTBIN" "$IPT2NFT"; do
	[ -x "$b" ] || { echo "no $b"; exit $SKIP; }
done
unset NFTKIT_OFFLINE_CHECK NFTKIT_OFFLINE
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"

# Unprivileged where we can: nobody, if it can reach the binaries.
RUN=
if [ "$(id -u)" = 0 ]; then
	for r in "setpriv --reuid=65534 --regid=65534 --clear-groups"; do
		if $r "$SHIM/iptables-save-nft" --offline "$work/probe" \
			>/dev/null 2>&1; then
			RUN=$r
		fi
	done
	rm -f "$work/probe"
fi
echo "running as: ${RUN:-$(id -un)}"
run() { $RUN "$@"; }

# nft list ruleset -> one line per chain/set block keyed by table and
# name, sorted; empty base chains with policy accept left out
norm() {
	awk '/^table / { table = $0; next }
	     /^}/ { next }
	     /^\t(chain|set|map) / { name = $0; body = ""; base = 0; n = 0
				      next }
	     /^\t}/ { if (!(base && n == 0)) print table "\001" name body
		      next }
	     /^\t\ttype .* hook .* policy accept;$/ { base = 1 }
	     /^$/ { next }
	     { body = body "\002" $0
	       if ($0 !~ /^\t\t(type|policy|flags|size|timeout) /) n++ }' |
	sort
}

ok=0 equiv=0 ipset=0 nonative=0 vmlacks=0 partial=0 failed=0 atomic=0 total=0
for f in "$RW"/*.rules; do
	n=$(basename "$f")
	b=${n%.rules}; b=${b%.fixed}
	case $n in
	*.fixed.rules) ;;
	*) [ -f "$RW/$b.fixed.rules" ] && continue ;;
	esac
	total=$((total + 1))
	fam=$(awk -F'\t' -v n="$b" '$1 == n { print $6 }' "$RW/manifest.tsv")
	P=iptables D=
	[ "$fam" = v6 ] && P=ip6tables D=-6
	s1="$work/s1" s2="$work/s2" saved="$work/saved"
	rm -f "$s1" "$s2" "$saved"
	if ! run "$SHIM/$P-restore-nft" --offline "$s1" "$f" \
		2> "$work/err"; then
		if grep -q "ipset .* is not known" "$work/err"; then
			ipset=$((ipset + 1)); r="ipset (not offline)"
		elif grep -q "Could not process rule: No such file" \
			"$work/err"; then
			vmlacks=$((vmlacks + 1)); r="VM lacks an expression"
		elif grep -q "nftables cannot" "$work/err"; then
			nonative=$((nonative + 1)); r="no native form"
		else
			failed=$((failed + 1)); r="FAIL restore"
		fi
		echo "$r  $n: $(head -1 "$work/err")"
		continue
	fi
	# a bad line in the middle: nothing changes
	cp "$s1" "$work/before"
	mid=$(grep -n '^-A ' "$f" | awk -F: '{ l[NR] = $1 }
		END { if (NR) print l[int((NR + 1) / 2)] }')
	awk -v m="$mid" '{ print }
		NR == m { print $1 " " $2 " -p tcp --dport 99999 -j ACCEPT" }' \
		"$f" > "$work/bad"
	if run "$SHIM/$P-restore-nft" --offline "$s1" "$work/bad" \
		2>/dev/null; then
		echo "FAIL bad line accepted  $n"
	elif cmp -s "$s1" "$work/before"; then
		atomic=$((atomic + 1))
	else
		echo "FAIL state changed by a failed restore  $n"
	fi
	if ! run "$SHIM/$P-save-nft" --offline "$s1" > "$saved" \
		2> "$work/err"; then
		failed=$((failed + 1))
		echo "FAIL save  $n: $(head -1 "$work/err")"
		continue
	fi
	if grep -q '^# unsupported' "$saved"; then
		partial=$((partial + 1))
		echo "partial  $n: $(grep -c '^# unsupported' "$saved") rules" \
			"without iptables form: $(grep -m1 '^# unsupported' \
			"$saved")"
		continue
	fi
	if ! run "$SHIM/$P-restore-nft" --offline "$s2" "$saved" \
		2> "$work/err"; then
		failed=$((failed + 1))
		echo "FAIL restoring the saved text  $n: $(head -1 "$work/err")"
		continue
	fi
	if ! "$IPT2NFT" diff --view none $D "$f" "$saved" > "$work/diff" 2>&1; then
		failed=$((failed + 1))
		echo "FAIL ipt2nft diff  $n: $(tail -1 "$work/diff")"
		continue
	fi
	run "$NFTBIN" --offline "$s1" list ruleset | norm > "$work/l1"
	run "$NFTBIN" --offline "$s2" list ruleset | norm > "$work/l2"
	if ! cmp -s "$work/l1" "$work/l2"; then
		# equivalent (ipt2nft proved it) but not the same VM code
		equiv=$((equiv + 1))
		echo "equivalent, other VM code  $n:"
		diff "$work/l1" "$work/l2" | tr '\001\002' ' \n' |
			grep '^[<>]\|^	' | head -6
		continue
	fi
	ok=$((ok + 1))
	echo "ok  $n"
done
echo "offline realworld: $ok/$total ok (save, restore again, same VM" \
	"code, ipt2nft equivalent); $equiv equivalent with other VM code;" \
	"$partial saved with unsupported rules;" \
	"$ipset need ipsets, $nonative no native form, $vmlacks VM lacks an" \
	"expression; $failed failed; failed restore left the state alone" \
	"$atomic times"
fail=0
[ "$failed" = 0 ] && [ "$ok" -ge "$MIN_OK" ] || fail=1
restorable=$((total - ipset - nonative - vmlacks))
[ "$atomic" = "$restorable" ] || fail=1

# ------------------------------------------------ command session
cat > "$work/session.sh" <<'EOF'
I=$1	# the commands, then -S and -L -n
$I -N web
$I -A INPUT -p tcp --dport 22 -j ACCEPT
$I -A INPUT -s 10.0.0.0/8 -j web
$I -I INPUT 1 -i lo -j ACCEPT
$I -A web -d 10.0.0.2 -p tcp -m multiport --dports 80,443 -j ACCEPT
# -m conntrack --ctstate and -m state are one VM code: offline (native,
# no xt-compat) save prints state for both
$I -A web -m state --state ESTABLISHED,RELATED -j ACCEPT
$I -I web 2 -p udp --sport 53 -m comment --comment dns -j ACCEPT
$I -A web -j DROP
$I -D INPUT -p tcp --dport 22 -j ACCEPT
$I -D web 1
$I -P FORWARD DROP
$I -t nat -A POSTROUTING -o eth0 -j MASQUERADE
$I -S
$I -L -n
$I -t nat -S
EOF
if unshare -n true 2>/dev/null; then
	unshare -n sh "$work/session.sh" "$SHIM/iptables-nft" \
		> "$work/kernel.out" 2>&1
	# by name, as scripts call it: the state from the environment
	run env NFTKIT_OFFLINE="$work/cmd" sh "$work/session.sh" \
		"$SHIM/iptables-nft" > "$work/offline.out" 2>&1
	if cmp -s "$work/kernel.out" "$work/offline.out" &&
	   grep -q -- '-A web -p udp -m udp --sport 53' "$work/offline.out"; then
		echo "command session: offline -S and -L -n as the kernel's"
	else
		fail=1
		echo "FAIL command session: offline differs from the kernel"
		diff "$work/kernel.out" "$work/offline.out" | head -20
	fi
else
	echo "command session: no private netns (not root), skipped"
fi

# ------------------------------------------------ save vs stock
# Matches xlate writes natively (as it does offline): our offline save
# must print them as stock iptables-nft-save prints what stock
# iptables-nft-restore wrote (xt-compat) in a private netns. Only
# rules xlate translates exactly: a --rcheck without --seconds is on a
# list of its own (on a list with a window it means "seen within the
# set's timeout", saved with that --seconds). -m state and -m
# conntrack --ctstate are one VM code: alone it is saved as -m state,
# with other conntrack options as one -m conntrack. A --hashlimit-name
# keeps only the characters set names have.
cat > "$work/stock.rules" <<'EOF'
*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
-A INPUT -m mac --mac-source 58:94:6b:17:41:7c -j RETURN
-A INPUT -p tcp -m multiport --dports 137,138 -m multiport --sports 1,2 -j DROP
-A INPUT -p udp -m multiport --ports 22,53:60 -j ACCEPT
-A INPUT -p sctp -m sctp --sport 1:5 --dport 7 -j ACCEPT
-A INPUT -p tcp --syn --dport 80 -m connlimit --connlimit-above 20 -j DROP
-A INPUT -m connlimit --connlimit-upto 5 --connlimit-mask 24 --connlimit-daddr -j ACCEPT
-A INPUT -p tcp --dport 22 -m recent --set --name SSH --rsource
-A INPUT -p tcp --dport 22 -m recent --update --seconds 60 --hitcount 4 --name SSH -j DROP
-A INPUT -p tcp --dport 23 -m recent --update --seconds 360 --hitcount 41 --name SSH -j DROP
-A INPUT -m recent ! --rcheck --name U --rdest -j DROP
-A INPUT -m recent --remove --name SSH --mask 255.255.255.0
-A INPUT -m recent --rcheck --seconds 30 --name T -j DROP
-A FORWARD -m conntrack --ctstate DNAT -j ACCEPT
-A FORWARD -m conntrack --ctstatus SEEN_REPLY -j ACCEPT
-A INPUT -m policy --dir in --pol ipsec -j ACCEPT
-A INPUT -s 10.0.0.0/8 -m policy --dir in --pol none -j DROP
-A OUTPUT -m policy --dir out --pol ipsec -j ACCEPT
-A OUTPUT -m policy --dir out --pol none -j ACCEPT
-A INPUT -m conntrack --ctstate NEW,RELATED --ctproto 6 -j ACCEPT
-A INPUT -i eth0.10 -m conntrack --ctstate NEW --ctproto 17 --ctorigsrcport 68 --ctorigdstport 67 -j ACCEPT
-A FORWARD -m conntrack --ctproto 6 --ctorigdst 131.159.20.148 --ctrepldst 1.2.3.4 --ctreplsrcport 5 --ctrepldstport 7:9 -j ACCEPT
-A FORWARD -m conntrack ! --ctstate NEW --ctproto 132 -j ACCEPT
-A FORWARD -m conntrack --ctstate NEW ! --ctproto 17 -j ACCEPT
-A INPUT -m hashlimit --hashlimit-above 1000/sec --hashlimit-burst 5 --hashlimit-mode srcip --hashlimit-name limit_icmp_src -j DROP
-A INPUT -m hashlimit --hashlimit-above 20/sec --hashlimit-burst 14497 --hashlimit-mode srcip --hashlimit-name newconn --hashlimit-htable-expire 31991 -j DROP
-A INPUT -m hashlimit --hashlimit-upto 30/min --hashlimit-mode dstip --hashlimit-name a1 --hashlimit-dstmask 16 -j ACCEPT
-A INPUT -p udp -m hashlimit --hashlimit-above 100/sec --hashlimit-mode srcip,srcport,dstip,dstport --hashlimit-name a4 --hashlimit-srcmask 8 --hashlimit-dstmask 24 -j DROP
-A INPUT -p tcp -m hashlimit --hashlimit-upto 7/day --hashlimit-mode srcip,dstport --hashlimit-name a5 --hashlimit-htable-size 1024 -j DROP
-A INPUT -m hashlimit --hashlimit-upto 7/hour --hashlimit-burst 1 --hashlimit-mode srcip --hashlimit-name a3 --hashlimit-htable-expire 60000 -m hashlimit --hashlimit-upto 2/sec --hashlimit-mode dstip --hashlimit-name a6 -j ACCEPT
-A INPUT -m hashlimit --hashlimit-upto 20kb/s --hashlimit-mode srcip --hashlimit-name b1 -j ACCEPT
-A INPUT -m hashlimit --hashlimit-upto 4kb/s --hashlimit-burst 400kb --hashlimit-mode srcip --hashlimit-name b2 -j ACCEPT
-A INPUT -m hashlimit --hashlimit-above 123456b/s --hashlimit-burst 1mb --hashlimit-mode dstip --hashlimit-name b4 -j DROP
-A INPUT -m hashlimit --hashlimit-above 1mb/s --hashlimit-burst 3mb --hashlimit-mode srcip --hashlimit-name b5 --hashlimit-htable-expire 1000 -j DROP
COMMIT
*mangle
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
-A FORWARD -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu
-A FORWARD -o eth0 -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --set-mss 1360
-A PREROUTING -i eth0.10 -m state --state NEW,RELATED -j CONNMARK --set-xmark 0xa00/0xff00
-A PREROUTING ! -d 192.168.0.0/16 -i eth0.13 -j CONNMARK --set-xmark 0x1/0x1
-A PREROUTING -i eth2 -j CONNMARK --set-mark 5
-A PREROUTING -i eth3 -j CONNMARK --set-xmark 0x0/0xf0
-A PREROUTING -i eth4 -j CONNMARK --set-xmark 0x3/0x0
-A PREROUTING -i eth5 -j CONNMARK --set-xmark 0x3/0x1
-A PREROUTING -i eth0.+ -j CONNMARK --restore-mark
-A POSTROUTING -j CONNMARK --save-mark
-A PREROUTING -i eth7 -j MARK --set-xmark 0xa00/0xff00
-A PREROUTING -i eth8 -j MARK --set-xmark 0x1/0x1
-A PREROUTING -i eth9 -j MARK --set-xmark 0x0/0xf0
-A PREROUTING -i eth10 -j MARK --set-xmark 0x3/0x0
-A PREROUTING -j CONNMARK --save-mark --left-shift-mark 8
-A PREROUTING -i eth11 -j MARK --and-mark 0xf0
-A PREROUTING -i eth12 -j CONNMARK --set-mark 0x1/0xff
-A PREROUTING -i eth13 -j CONNMARK --set-xmark 0x0/0x0
-A PREROUTING -j CONNMARK --restore-mark --right-shift-mark 31
-A PREROUTING -m connmark --mark 0x1 -j ACCEPT
-A PREROUTING -m mark ! --mark 0x2 -j ACCEPT
-A PREROUTING -m connmark ! --mark 0x100/0xff00 -j ACCEPT
-A PREROUTING -m mark --mark 0x0/0xff -j ACCEPT
-A PREROUTING -m conntrack --ctexpire 90 -j ACCEPT
-A PREROUTING -m conntrack --ctproto 6 --ctstatus ASSURED ! --ctexpire 3600:90061 --ctdir REPLY -j ACCEPT
COMMIT
EOF
if unshare -n true 2>/dev/null && command -v iptables-nft-restore \
	>/dev/null; then
	unshare -n sh -c "iptables-nft-restore '$work/stock.rules' &&
		iptables-nft-save" 2>&1 | grep -v '^#' > "$work/stock.out"
	run "$SHIM/iptables-restore-nft" --offline "$work/st" \
		"$work/stock.rules" &&
	run "$SHIM/iptables-save-nft" --offline "$work/st" 2>&1 |
		grep -v '^#' > "$work/ours.out"
	if cmp -s "$work/stock.out" "$work/ours.out"; then
		echo "save of native matches: as stock's" \
			"($(grep -c '^-A' "$work/ours.out") rules)"
	else
		fail=1
		echo "FAIL save of native matches differs from stock's"
		diff "$work/stock.out" "$work/ours.out"
	fi
else
	echo "save vs stock: no private netns or stock iptables, skipped"
fi

# ------------------------------------------------ trace
cat > "$work/trace.rules" <<'EOF'
*filter
:INPUT DROP [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:web - [0:0]
-A INPUT -i lo -j ACCEPT
-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT
-A INPUT -s 10.0.0.0/8 -p tcp -m multiport --dports 80,443 -j web
-A web -d 10.0.0.2/32 -j ACCEPT
-A web -j DROP
COMMIT
EOF
T="$work/trace"
run "$SHIM/iptables-restore-nft" --offline "$T" "$work/trace.rules" || fail=1
expect() {	# VERDICT SELECTORS...
	want=$1; shift
	got=$(run "$NFTBIN" --offline "$T" trace packet "$@" 2>&1 | tail -n 1)
	if [ "$got" = "verdict $want" ]; then
		echo "trace: $want for $*"
	else
		fail=1; echo "FAIL trace $*: want verdict $want, got $got"
	fi
}
expect accept ip saddr 10.0.0.1 ip daddr 10.0.0.2 tcp dport 80 \
	iifname '"eth0"'
expect drop ip saddr 10.0.0.1 ip daddr 10.0.0.3 tcp dport 443 \
	iifname '"eth0"'
expect accept ip saddr 192.168.1.1 tcp dport 22 iifname '"eth0"'
expect drop ip saddr 192.168.1.1 tcp dport 80 iifname '"eth0"'
expect accept ip saddr 192.168.1.1 udp dport 53 iifname '"lo"'
# ------------------------------------------------ recent windows
# A recent list's set keeps entries for the longest --seconds of the
# table's rules (xt_recent's "within S seconds"), also when the
# streamed restore declares the set at the list's first rule, a --set
# with no window: the offline state must hold the timeout ipt2nft
# prints for the whole file, and that is the file's 60s.
cat > "$work/recent.rules" <<'EOF'
*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:SSH - [0:0]
-A INPUT -p tcp -m tcp --dport 22 -m recent --set --name ssh --rsource
-A INPUT -p tcp -m tcp --dport 22 -j SSH
-A SSH -m recent --rcheck --seconds 60 --name ssh --rsource -j DROP
-A SSH -j ACCEPT
COMMIT
EOF
set_timeout() {	# the "timeout" line of set recent_ssh in nft text
	awk '/^\tset recent_ssh \{/ { in_set = 1; next }
	     in_set && /^\t\}/ { exit }
	     in_set && /^\t\ttimeout / { sub(/^\t\t/, ""); print }'
}
R="$work/recent"
if run "$SHIM/iptables-restore-nft" --offline "$R" "$work/recent.rules"
then
	got=$(run "$NFTBIN" --offline "$R" list ruleset | set_timeout)
	want=$("$IPT2NFT" "$work/recent.rules" 2>/dev/null | set_timeout)
	if [ "$got" = "timeout 1m" ] && [ "$got" = "$want" ]; then
		echo "recent: streamed set has $got, as ipt2nft prints"
	else
		fail=1
		echo "FAIL recent: offline set '$got', ipt2nft '$want'," \
		     "file says 60s"
	fi
else
	fail=1; echo "FAIL recent: restore failed"
fi
exit $fail
