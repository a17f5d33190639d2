#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sets declared or added to with thousands of elements, which ours
# keeps packed past the first 1024 (nftc/elem_pack.c) and writes
# straight into the batch (nftc/lin_elem.c): plain keys, quoted
# strings, numbers, IPv6, an element with a comment in the middle
# (packing ends there), add/create/delete element commands, interval
# sets (prefixes and addresses packed as ranges, sorted and checked or
# merged packed), maps and concatenations (unpacked before evaluation),
# and element messages split over several netlink messages.
#  - the --debug=netlink text (the batch as libnftnl prints it) equals
#    stock's;
#  - each file loaded by ours into a private network namespace lists
#    (by stock) as the file loaded by stock does;
#  - a bad element far into a big list is reported by ours as by stock
#    (first message, location and carets), with stock's exit status,
#    and nothing is loaded; so is an overlap in a big interval set
#    (message and location).
# Needs root (unshare -n) and nf_tables; skips (77) otherwise. Never
# touches the root namespace.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel awk

make_work
fail=0

# gen KIND N FIRST: N elements, comma separated, ten a line
gen() {
	awk -v kind="$1" -v n="$2" -v first="${3:-0}" 'BEGIN {
		for (i = first; i < first + n; i++) {
			if (kind == "ip")
				s = sprintf("10.%d.%d.%d", int(i / 65536) % 256,
					    int(i / 256) % 256, i % 256)
			else if (kind == "ip6")
				s = sprintf("2001:db8::%x:%x", int(i / 65536),
					    i % 65536)
			else if (kind == "mark")
				s = sprintf("0x%x", i)
			else if (kind == "port")
				s = sprintf("%d", i % 65535 + 1)
			else if (kind == "map")
				s = sprintf("10.1.%d.%d : %s", int(i / 256) % 256,
					    i % 256, i % 2 ? "accept" : "drop")
			else if (kind == "net")
				s = sprintf("%d.%d.%d.0/24", 1 + int(i / 65536),
					    int(i / 256) % 256, i % 256)
			else if (kind == "concat")
				s = sprintf("10.2.%d.%d . %d", int(i / 256) % 256,
					    i % 256, i % 1000 + 1)
			else if (kind == "ifname")
				s = sprintf((i % 3) ? "\"if%d\"" : "if%d", i)
			if (kind == "ip" && i == first + int(n * 2 / 3))
				s = s " comment \"middle\""
			last = (i + 1 == first + n)
			sep = last ? "" : ","
			nl = last ? "" : ((i - first) % 10 == 9) ? "\n\t\t\t" : " "
			printf "%s%s%s", s, sep, nl
		}
	}'
}

cat > "$work/plain.nft" <<EOF
table ip t {
	set a {
		type ipv4_addr
		elements = { $(gen ip 5000) }
	}
	set c {
		type ipv4_addr
		size 100000
		elements = { $(gen ip 6000 70000) }
	}
	set m {
		type mark
		elements = { $(gen mark 3000) }
	}
	set p {
		typeof tcp dport
		elements = { $(gen port 2000) }
	}
	chain ch {
		ip saddr @a ip daddr @c meta mark @m tcp dport @p accept
	}
}
table ip6 t6 {
	set s {
		type ipv6_addr
		elements = { $(gen ip6 3000) }
	}
}
add element ip t a { $(gen ip 3000 200000) }
delete element ip t c { $(gen ip 2000 71000) }
create element ip t m { $(gen mark 2000 10000) }
EOF
cat > "$work/mixed.nft" <<EOF
table ip t {
	map v {
		type ipv4_addr : verdict
		elements = { $(gen map 3000) }
	}
	set i {
		type ipv4_addr
		elements = { $(gen net 3000) }
		flags interval
	}
	set k {
		type ipv4_addr . inet_service
		elements = { $(gen concat 2000) }
	}
}
EOF
cat > "$work/ranges.nft" <<EOF
table ip t {
	set i {
		type ipv4_addr
		flags interval
		elements = { 0.0.0.0/24, $(gen net 4000 1), 255.255.255.0/24 }
	}
	set m {
		type ipv4_addr
		flags interval
		auto-merge
		elements = { $(gen net 1500 2000), $(gen net 1500 1000),
			     $(gen ip 1000 65536), 2.0.0.0/16, 2.0.3.0/24 }
	}
	set d {
		type ipv4_addr
		flags interval
		elements = { $(gen net 2000 300), $(gen net 20 310) }
	}
}
table ip6 t6 {
	set i {
		type ipv6_addr
		flags interval
		elements = { $(gen ip6 2000) }
	}
}
EOF
cat > "$work/names.nft" <<EOF
table inet t {
	set n {
		type ifname
		elements = { $(gen ifname 3000) }
	}
}
EOF
# in an interval set, the range on line 150 overlaps an earlier one
gen net 3000 | awk 'NR == 146 { sub(/1\.5\.175\.0\/24/, "1.0.200.128/25") } 1' \
	> "$work/conflict.elems"
{
	printf 'table ip t {\n\tset s {\n\t\ttype ipv4_addr\n'
	printf '\t\tflags interval\n\t\telements = { '
	cat "$work/conflict.elems"
	printf ' }\n\t}\n}\n'
} > "$work/conflict.nft"
grep -q '1\.0\.200\.128/25' "$work/conflict.nft" || {
	echo "FAIL: no conflicting range"; exit 1; }
# the bad element is on line 200 of its file: 10.0.7.300
gen ip 3000 | awk 'NR == 197 { sub(/10\.0\.7\.170/, "10.0.7.300") } 1' \
	> "$work/bad.elems"
{
	printf 'table ip t {\n\tset s {\n\t\ttype ipv4_addr\n\t\telements = { '
	cat "$work/bad.elems"
	printf ' }\n\t}\n}\n'
} > "$work/bad.nft"
grep -q '10\.0\.7\.300' "$work/bad.nft" || { echo "FAIL: no bad element"; exit 1; }

# The debug text (stock prints an element cut off at the end of a
# message twice).
for f in plain mixed names ranges; do
	unshare -n "$STOCK" -c --debug=netlink -f "$work/$f.nft" \
		> "$work/$f.dbg.stock" 2>&1
	unshare -n "$NFT" -c --debug=netlink -f "$work/$f.nft" \
		> "$work/$f.dbg.ours" 2>&1
	if cmp -s "$work/$f.dbg.stock" "$work/$f.dbg.ours"; then
		echo "ok: $f --debug=netlink"
	else
		echo "FAIL: $f --debug=netlink differs from stock's"
		diff "$work/$f.dbg.stock" "$work/$f.dbg.ours" | cut -c1-200 | head -5
		fail=1
	fi
done

# What the kernel holds, listed by stock.
for f in plain mixed names ranges; do
	unshare -n sh -c '"$1" -f "$3" && "$1" list ruleset' sh \
		"$STOCK" "$NFT" "$work/$f.nft" > "$work/$f.list.stock" 2>&1
	unshare -n sh -c '"$2" -f "$3" && "$1" list ruleset' sh \
		"$STOCK" "$NFT" "$work/$f.nft" > "$work/$f.list.ours" 2>&1
	if [ ! -s "$work/$f.list.stock" ] ||
	   ! grep -q 'elements = ' "$work/$f.list.stock"; then
		echo "FAIL: $f: stock loaded nothing"
		fail=1
	elif cmp -s "$work/$f.list.stock" "$work/$f.list.ours"; then
		echo "ok: $f loads as stock's"
	else
		echo "FAIL: $f: ours loads another ruleset"
		diff "$work/$f.list.stock" "$work/$f.list.ours" | cut -c1-200 | head -5
		fail=1
	fi
done

# A bad element far into the list: stock's first message, nothing loaded.
unshare -n "$STOCK" -f "$work/bad.nft" > "$work/bad.stock" 2>&1
rs=$?
unshare -n sh -c '"$2" -f "$3"; echo "rc=$?"; "$1" list ruleset' sh \
	"$STOCK" "$NFT" "$work/bad.nft" > "$work/bad.ours" 2>&1
head -3 "$work/bad.stock" > "$work/bad.first.stock"
head -3 "$work/bad.ours" > "$work/bad.first.ours"
if ! grep -q '^.*bad.nft:200:' "$work/bad.first.stock"; then
	echo "FAIL: stock did not report line 200"; cat "$work/bad.stock"
	fail=1
elif ! cmp -s "$work/bad.first.stock" "$work/bad.first.ours"; then
	echo "FAIL: bad element: ours reports otherwise"
	diff "$work/bad.first.stock" "$work/bad.first.ours" | cut -c1-200
	fail=1
elif ! grep -qx "rc=$rs" "$work/bad.ours" ||
     [ "$(sed -n '/^rc=/,$p' "$work/bad.ours" | wc -l)" -ne 1 ]; then
	echo "FAIL: bad element: exit status or ruleset differs"
	sed -n '/^rc=/,$p' "$work/bad.ours" | head -5
	fail=1
else
	echo "ok: bad element at line 200 reported as stock, nothing loaded"
fi
# The overlap: stock's message at stock's place (stock also marks the
# other range), nothing loaded.
unshare -n "$STOCK" -f "$work/conflict.nft" > "$work/conflict.stock" 2>&1
rs=$?
unshare -n sh -c '"$2" -f "$3"; echo "rc=$?"; "$1" list ruleset' sh \
	"$STOCK" "$NFT" "$work/conflict.nft" > "$work/conflict.ours" 2>&1
if ! head -1 "$work/conflict.stock" |
     grep -q 'conflict.nft:150:.*conflicting intervals specified'; then
	echo "FAIL: stock did not report the overlap on line 150"
	head -3 "$work/conflict.stock"
	fail=1
elif [ "$(head -2 "$work/conflict.stock")" != \
       "$(head -2 "$work/conflict.ours")" ] ||
     ! grep -qx "rc=$rs" "$work/conflict.ours" ||
     [ "$(sed -n '/^rc=/,$p' "$work/conflict.ours" | wc -l)" -ne 1 ]; then
	echo "FAIL: overlap: ours reports otherwise or loads something"
	head -3 "$work/conflict.stock"
	head -4 "$work/conflict.ours"
	fail=1
else
	echo "ok: overlap on line 150 reported as stock, nothing loaded"
fi
exit $fail
