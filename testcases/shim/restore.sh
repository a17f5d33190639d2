#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# iptables-restore-nft semantics, in private network namespaces, with
# stock nft / iptables-nft-save as the oracle:
#  * an error in the last COMMIT (one our translator finds, and one only
#    the kernel finds) changes nothing: `nft list ruleset` is unchanged,
#    the exit status is stock's and stderr names FILE:LINE of the bad
#    line;
#  * a restored table is replaced, a table the file does not name is
#    untouched; --noflush appends and flushes only declared chains;
#  * policies and, with -c, rule and base chain counters are kept;
#  * -T restores one table only; -t changes nothing.
# Needs root and nf_tables; skips (77) otherwise.
set -u
SKIP=77
SHIM=${SHIM:-${top_builddir:-$(dirname "$0")/../../build}/iptables-shim}
R="$SHIM/iptables-restore-nft"
S="$SHIM/iptables-save-nft"
[ -x "$R" ] || { echo "no $R"; exit $SKIP; }
command -v iptables-nft-save >/dev/null || { echo "no stock iptables"; exit $SKIP; }
unshare -n nft list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }

cat > "$work/base" <<'X'
*filter
:INPUT DROP [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:OLD - [0:0]
-A INPUT -i lo -j ACCEPT
-A INPUT -j OLD
-A OLD -p tcp -m tcp --dport 22 -j ACCEPT
COMMIT
*mangle
:PREROUTING ACCEPT [0:0]
-A PREROUTING -i eth9 -j MARK --set-xmark 0x1/0xffffffff
COMMIT
X
# line 12 (the last COMMIT's rule) is wrong for our translator
cat > "$work/bad-xlate" <<'X'
*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
-A INPUT -p udp -m udp --dport 53 -j ACCEPT
COMMIT
*nat
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
-A POSTROUTING -o eth0 -j NOSUCHTARGET
COMMIT
X
# line 9: only the kernel knows masquerade is for nat chains
sed 's/-j NOSUCHTARGET/-j ACCEPT/' "$work/bad-xlate" > "$work/bad-kernel"
cat >> "$work/bad-kernel" <<'X'
*raw
:PREROUTING ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
-A PREROUTING -j MASQUERADE
COMMIT
X

for bad in bad-xlate:12 bad-kernel:17; do
	f=${bad%:*} line=${bad#*:}
	unshare -n sh -c "'$R' '$work/base' || exit 9
		nft list ruleset > '$work/before' 2>/dev/null
		'$R' '$work/$f' 2> '$work/err'; echo \$? > '$work/rc'
		nft list ruleset > '$work/after' 2>/dev/null"
	unshare -n sh -c "iptables-nft-restore '$work/base' || exit 9
		iptables-nft-restore '$work/$f' 2>/dev/null
		echo \$? > '$work/stock-rc'"
	if [ "$(cat "$work/rc")" = "$(cat "$work/stock-rc")" ] &&
	   cmp -s "$work/before" "$work/after" &&
	   grep -q "^$work/$f:$line:" "$work/err"; then
		ok "$f: refused at line $line, nothing changed"
	else
		ko "$f: rc=$(cat "$work/rc") (stock $(cat "$work/stock-rc")) $(head -2 "$work/err")"
		diff "$work/before" "$work/after" | head -5
	fi
done

# replace / untouched / --noflush / -T / -t
cat > "$work/new" <<'X'
*filter
:INPUT ACCEPT [0:0]
:FORWARD DROP [0:0]
:OUTPUT ACCEPT [0:0]
:NEW - [0:0]
-A INPUT -j NEW
COMMIT
X
unshare -n sh -c "'$R' '$work/base' && '$R' '$work/new' &&
	nft list ruleset 2>/dev/null" > "$work/o"
if grep -q 'hook forward priority filter; policy drop;' "$work/o" &&
   grep -q 'counter packets 0 bytes 0 jump NEW$' "$work/o" &&
   ! grep -q 'OLD\|dport 22\|"lo"' "$work/o" &&
   grep -q 'iifname "eth9" counter packets 0 bytes 0 meta mark set' "$work/o"
then
	ok "filter replaced, mangle untouched"
else
	ko "replace"; cat "$work/o"
fi
unshare -n sh -c "'$R' '$work/base' && '$R' -n '$work/new' &&
	iptables-nft-save -t filter" | grep -v '^#' > "$work/o"
if grep -q '^-A INPUT -i lo -j ACCEPT$' "$work/o" &&
   grep -q '^-A INPUT -j NEW$' "$work/o" && grep -q '^:OLD' "$work/o" &&
   grep -q 'dport 22' "$work/o"; then
	ok "--noflush appends"
else
	ko "--noflush"; cat "$work/o"
fi
unshare -n sh -c "'$R' '$work/base' && '$R' -T mangle '$work/new' &&
	'$R' -t '$work/new' && iptables-nft-save -t filter" |
	grep -v '^#' > "$work/o"
if grep -q '^-A INPUT -j OLD$' "$work/o" && ! grep -q NEW "$work/o"; then
	ok "-T other table and -t change nothing"
else
	ko "-T/-t"; cat "$work/o"
fi
cat > "$work/ctr" <<'X'
*filter
:INPUT DROP [9:900]
:FORWARD ACCEPT [4:400]
:OUTPUT ACCEPT [0:0]
[7:700] -A INPUT -i lo -j ACCEPT
[0:0] -A INPUT -p icmp -j ACCEPT
COMMIT
X
unshare -n sh -c "'$R' -c '$work/ctr' && iptables-nft-save -c" |
	grep -v '^#' > "$work/o"
if grep -q '^\[7:700\] -A INPUT -i lo -j ACCEPT$' "$work/o" &&
   grep -q '^:INPUT DROP \[9:900\]$' "$work/o" &&
   grep -q '^:FORWARD ACCEPT \[4:400\]$' "$work/o"; then
	ok "-c keeps rule and base chain counters, policy kept"
else
	ko "-c"; cat "$work/o"
fi
unshare -n sh -c "'$R' -c '$work/ctr' && '$S' -c" | grep -v '^#' > "$work/o2"
if cmp -s "$work/o" "$work/o2"; then
	ok "save -c prints what stock save -c prints"
else
	ko "save -c"; diff "$work/o" "$work/o2"
fi
# --noflush onto a chain only the kernel holds, as stock: an undeclared
# chain may be appended to and jumped to, and is neither made nor
# flushed; without --noflush the same file is refused (status 2)
cat > "$work/nf-add" <<'X'
*filter
-A INPUT -p tcp --dport 22 -j OLD
-A OLD -s 192.0.2.1 -j DROP
COMMIT
X
for tool in "$R" iptables-nft-restore; do
	unshare -n sh -c "'$R' '$work/base' && '$tool' --noflush '$work/nf-add' &&
		iptables-nft-save -t filter | grep -v '^#'
		'$tool' '$work/nf-add' 2>/dev/null; echo rc=\$?"
done > "$work/o"
n=$(grep -c . "$work/o")
if [ $((n % 2)) = 0 ] && [ "$(head -n $((n / 2)) "$work/o")" = \
     "$(tail -n $((n / 2)) "$work/o")" ] &&
   grep -q '^-A OLD -p tcp -m tcp --dport 22 -j ACCEPT$' "$work/o" &&
   grep -q '^-A OLD -s 192.0.2.1/32 -j DROP$' "$work/o" &&
   grep -q '^rc=2$' "$work/o"; then
	ok "--noflush uses a chain only the kernel holds, as stock"
else
	ko "--noflush onto kernel chains"; cat "$work/o"
fi
# the xt-compat forms (multiport lists with ranges or one port, state,
# conntrack, icmp, LOG, REJECT with the protocol iptables-nft records):
# stock save and stock nft read the same rules from our kernel state as
# from stock's, the file given by name (mapped) or on stdin
cat > "$work/xt" <<'X'
*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
-A INPUT -p tcp -m multiport --dports 22,80:89,443 -j ACCEPT
-A INPUT -p udp -m multiport --sports 53 -j ACCEPT
-A INPUT -p udp -m multiport ! --dports 1000:2000 -j DROP
-A INPUT ! -p udp -m state --state INVALID -j DROP
-A INPUT -s 10.0.0.0/8 -p tcp -m tcp --dport 25 -j REJECT --reject-with tcp-reset
-A INPUT -m state --state RELATED,ESTABLISHED -j ACCEPT
-A INPUT -m conntrack --ctstate NEW -j LOG --log-prefix "new "
-A INPUT -p icmp -m icmp --icmp-type 8 -j ACCEPT
-A INPUT -i wg0 -m comment --comment "a comment" -j ACCEPT
COMMIT
X
for how in file stdin; do
	for tool in "$R" iptables-nft-restore; do
		if [ $how = file ]; then in="'$work/xt'"; else in="< '$work/xt'"; fi
		unshare -n sh -c "$tool $in && iptables-nft-save -t filter |
			grep -v '^#'; nft list ruleset" > "$work/o-${tool##*/}" 2>&1
	done
	if cmp -s "$work/o-${R##*/}" "$work/o-iptables-nft-restore" &&
	   grep -q 'multiport --dports 22,80:89,443' "$work/o-${R##*/}"; then
		ok "xt-compat forms read back by stock as its own ($how)"
	else
		ko "xt-compat forms ($how)"
		diff "$work/o-${R##*/}" "$work/o-iptables-nft-restore"
	fi
done
echo "shim/restore: $pass passed, $fail failed"
[ "$fail" = 0 ]
