#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Missing tables, chains and sets get stock nft's message, "did you
# mean" included (and keyword chain names, anonymous chains nested or
# jumping nowhere): in a private network namespace holding
# examples/host-firewall.nft plus a small table, each command below is
# run by stock nft and by ours (from the command line and from a file);
# stderr and the exit status must be identical and the ruleset
# unchanged. Needs root (unshare -n) and nf_tables; skips (77)
# otherwise. Never touches the root namespace.
set -u
srcdir=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
. "$srcdir/lib/kernel.sh"

need_kernel

make_work
cat > "$work/base.nft" <<'NFT'
table ip t {
	set ss { type ipv4_addr; }
	map mm { type ipv4_addr : verdict; }
	chain cc { }
}
NFT
cat > "$work/cmds" <<'CMDS'
add rule ip nosuch c accept
add rule ip atomic c jump inptu
add rule inet filtr input accept
add rule inet filter inptu accept
add rule inet filter input jump inptu
add rule inet filter input jump nowhere
add rule ip t c accept
add rule ip t nosuch accept
add rule ip t cc jump cx
add rule ip t cc ip saddr @s
add rule ip t cc ip saddr @mn
add rule ip t cc ip saddr vmap @m
add rule ip t cc ip saddr @admin_hosts
add element ip t s { 1.1.1.1 }
add element ip t zzzz { 1.1.1.1 }
add element inet filter admin_host { 1.1.1.1 }
add chain ip nosuch c
add chain inet filtr foo
add set ip tt s { type ipv4_addr; }
delete table ip tt
delete table ip filter
delete table ip zzzzzz
delete chain inet filter inptu
delete chain ip t c
delete chain ip tx cc
flush chain inet filter inptu
flush table ip tt
list table inet filtr
list chain inet filter inptu
list set inet filter blocklst
list set ip t s
list map ip t m
add rule ip t cc sctp chunk data tsn set 1
add rule ip t cc sctp chunk foo exists
add rule ip t cc sctp chunk init-ack a-rwnd 0x1ffffffff
add chain ip t fwd
add chain ip t "quoted"
add rule ip t cc jump "cc"
add rule ip t fwd accept
add rule ip t cc jump accept
add rule ip t cc jump { jump { accept; }; }
add rule ip t cc jump { jump { jump { jump { accept; }; }; }; }
add rule ip t cc jump { jump nowhere; }
add rule ip t cc goto { ip saddr @nosuch accept; }
CMDS
fail=0 pass=0
n=0
while read -r cmd; do
	n=$((n + 1))
	printf '%s\n' "$cmd" > "$work/cmd.nft"
	unshare -n sh -c '
		"$3" -f "$4" && "$3" -f "$5" || exit 2
		"$3" list ruleset > "$1/before"
		"$3" $6 2> "$1/stock.err"; echo $? > "$1/stock.rc"
		"$2" $6 2> "$1/ours.err"; echo $? > "$1/ours.rc"
		"$3" -f "$1/cmd.nft" 2> "$1/stock.ferr"
		"$2" -f "$1/cmd.nft" 2> "$1/ours.ferr"
		"$3" list ruleset | cmp -s - "$1/before" || exit 3
		' sh "$work" "$NFT" "$STOCK" \
		"$srcdir/examples/host-firewall.nft" "$work/base.nft" "$cmd"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $cmd: rc $rc"
		fail=$((fail + 1))
		continue
	fi
	sed "s|$work/cmd.nft|FILE|" "$work/ours.ferr" > "$work/o.f"
	sed "s|$work/cmd.nft|FILE|" "$work/stock.ferr" > "$work/s.f"
	if cmp -s "$work/stock.err" "$work/ours.err" &&
	   cmp -s "$work/stock.rc" "$work/ours.rc" &&
	   cmp -s "$work/s.f" "$work/o.f"; then
		pass=$((pass + 1))
	else
		echo "FAIL $cmd"
		diff "$work/stock.err" "$work/ours.err" | sed 's/^/  /'
		diff "$work/s.f" "$work/o.f" | sed 's/^/  f /'
		fail=$((fail + 1))
	fi
done < "$work/cmds"
echo "kernel errors: $pass identical to stock, $fail differ"
[ "$fail" -eq 0 ]
