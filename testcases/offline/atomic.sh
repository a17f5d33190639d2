#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The offline state file is all or nothing: a batch the VM rejects (at
# its first, middle or last message), a check run (-c) and a file that
# does not compile leave the state file byte-identical and the listing
# unchanged; a batch that commits changes both. Needs no root.
set -u
NFT=${NFT:-}
[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
S="$work/state"
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

cat > "$work/base.nft" <<'NFT'
table ip filter {
	chain input {
		type filter hook input priority 0; policy drop;
		tcp dport 22 accept
	}
}
NFT
"$NFT" --offline "$S" -f "$work/base.nft" || bad "base ruleset not loaded"
"$NFT" --offline "$S" list ruleset > "$work/list0" || bad "no listing"
grep -q 'tcp dport 22 accept' "$work/list0" || bad "base rule not listed"
cp "$S" "$work/state0"

# rejected by the VM: a jump to a chain that does not exist, after
# changes that would otherwise have applied
for where in first middle last; do
	case $where in
	first)	rule='add rule ip filter input jump nosuch
add table ip t2
add chain ip t2 c';;
	middle)	rule='add table ip t2
add rule ip filter input jump nosuch
add chain ip t2 c';;
	last)	rule='add table ip t2
add chain ip t2 c
add rule ip filter input jump nosuch';;
	esac
	printf '%s\n' "$rule" > "$work/bad.nft"
	if "$NFT" --offline "$S" -f "$work/bad.nft" 2> "$work/err"; then
		bad "$where: bad batch accepted"
	elif ! grep -q 'Error:' "$work/err"; then
		bad "$where: no error message"
	elif cmp -s "$S" "$work/state0"; then ok
	else bad "$where: state file changed by a rejected batch"; fi
	"$NFT" --offline "$S" list ruleset > "$work/list1"
	cmp -s "$work/list0" "$work/list1" && ok ||
		bad "$where: listing changed by a rejected batch"
done

# check mode: valid, but nothing may stick
"$NFT" --offline "$S" -c add table ip checked || bad "-c rejected a valid batch"
cmp -s "$S" "$work/state0" && ok || bad "-c changed the state file"
"$NFT" --offline "$S" list ruleset | grep -q checked &&
	bad "-c left a table behind" || ok
"$NFT" --offline "$S" -c add rule ip filter input jump nosuch 2>/dev/null &&
	bad "-c accepted a bad batch" || ok

# a syntax error never reaches the VM
printf 'table ip filter {\n\tchain input {\n\t\tbogus\n\t}\n}\n' \
	> "$work/syntax.nft"
"$NFT" --offline "$S" -f "$work/syntax.nft" 2>/dev/null &&
	bad "syntax error accepted" || ok
cmp -s "$S" "$work/state0" && ok || bad "syntax error changed the state"

# a good batch changes the file and survives a new process
"$NFT" --offline "$S" add rule ip filter input udp dport 53 accept ||
	bad "good rule rejected"
cmp -s "$S" "$work/state0" && bad "commit left the file unchanged" || ok
"$NFT" --offline "$S" list ruleset | grep -q 'udp dport 53 accept' && ok ||
	bad "committed rule not listed by the next run"
# handles survive the replay: delete by the handle -a listed
h=$("$NFT" --offline "$S" -a list ruleset |
	sed -n 's/.*tcp dport 22 accept # handle \([0-9]*\).*/\1/p')
[ -n "$h" ] && "$NFT" --offline "$S" delete rule ip filter input handle "$h" &&
	! "$NFT" --offline "$S" list ruleset | grep -q 'dport 22' && ok ||
	bad "delete by handle after replay"

# not a state file: refused, left alone
echo "hello" > "$work/notstate"
"$NFT" --offline "$work/notstate" list ruleset 2>/dev/null &&
	bad "foreign file accepted as state" || ok
[ "$(cat "$work/notstate")" = hello ] && ok || bad "foreign file changed"
ls "$work" | grep -q 'state\.' && bad "temporary file left behind" || ok

echo "offline atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
