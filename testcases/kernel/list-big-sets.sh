#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Listing sets with thousands of elements (over many dump messages),
# which ours keeps as key bytes until printed (nftc/delin_pack.c):
# plain sets of addresses, ports, marks (host order), protocols
# (symbols), MAC and IPv6 addresses; interval sets with prefixes,
# single values, ranges that are no prefix, 0.0.0.0 and the open end,
# host-order and IPv6 intervals; and the sets that fall back to IR:
# an element with a comment after thousands of plain ones, timeouts,
# counters, maps, concatenations and strings. (Flag types, IR too, are
# left out: "-n" prints a value of several flags as one number where
# stock prints "0x1 | 0x8", a known difference of the IR printer.)
#  - each ruleset loaded by stock into a private network namespace is
#    listed by ours byte for byte as stock lists it, with the options
#    -n, -a and -s too, and with "list set";
#  - stock loads ours' listing back to the same listing (round trip).
# Needs root (unshare -n) and nf_tables; skips (77) otherwise. Never
# touches the root namespace.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/lib/kernel.sh"

need_kernel awk

make_work
fail=0

# gen KIND N FIRST: N elements, comma separated
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
				s = sprintf("0x%x", i * 7919 % 1000003)
			else if (kind == "port")
				s = sprintf("%d", (i * 7) % 65535 + 1)
			else if (kind == "mac")
				s = sprintf("02:00:00:%02x:%02x:%02x",
					    int(i / 65536) % 256,
					    int(i / 256) % 256, i % 256)
			else if (kind == "net")
				s = sprintf("%d.%d.%d.0/24", 1 + int(i / 65536),
					    int(i / 256) % 256, i % 256)
			else if (kind == "range")
				s = sprintf("20.%d.%d.10-20.%d.%d.200",
					    int(i / 256) % 256, i % 256,
					    int(i / 256) % 256, i % 256)
			else if (kind == "single")
				s = sprintf("30.%d.%d.%d", int(i / 256) % 256,
					    i % 256, 1 + i % 200)
			else if (kind == "markr")
				s = sprintf("0x%x-0x%x", i * 1000, i * 1000 + 99)
			else if (kind == "net6")
				s = sprintf("2001:db8:%x::/48", i)
			else if (kind == "ipc")
				s = sprintf("10.%d.%d.%d counter",
					    int(i / 65536) % 256,
					    int(i / 256) % 256, i % 256)
			printf "%s%s", s, (i + 1 == first + n) ? "" : ", "
		}
	}'
}

cat > "$work/plain.nft" <<EOF
table ip t {
	set a {
		type ipv4_addr
		elements = { $(gen ip 5000) }
	}
	set m {
		type mark
		elements = { $(gen mark 3000) }
	}
	set p {
		typeof tcp dport
		elements = { $(gen port 3000) }
	}
	set pr {
		type inet_proto
		elements = { 6, 17, 1, 47, 50, 132, 253 }
	}
	set e {
		type ether_addr
		elements = { $(gen mac 2000) }
	}
	set z {
		type ipv4_addr
	}
	chain c {
		ip saddr @a meta mark @m tcp dport @p accept
	}
}
table ip6 t6 {
	set s {
		type ipv6_addr
		elements = { $(gen ip6 3000) }
	}
}
EOF
cat > "$work/intervals.nft" <<EOF
table ip t {
	set i {
		type ipv4_addr
		flags interval
		elements = { 0.0.0.0/24, $(gen net 4000 1), $(gen range 500),
			     $(gen single 500), 255.255.255.0/24 }
	}
	set o {
		type ipv4_addr
		flags interval
		elements = { 0.0.0.0, 128.0.0.0-255.255.255.254, $(gen single 300) }
	}
	set whole {
		type ipv4_addr
		flags interval
		elements = { 0.0.0.0/0 }
	}
	set m {
		type mark
		flags interval
		elements = { $(gen markr 2000) }
	}
	set s {
		type inet_service
		flags interval
		elements = { 1-1023, 2049, 6000-6063, 8080 }
	}
}
table ip6 t6 {
	set i {
		type ipv6_addr
		flags interval
		elements = { $(gen net6 3000), ffff::/16 }
	}
}
EOF
cat > "$work/fallback.nft" <<EOF
table ip t {
	set c {
		type ipv4_addr
		elements = { $(gen ip 3000), 10.200.0.1 comment "late",
			     $(gen ip 10 70000) }
	}
	set t {
		type ipv4_addr
		flags timeout
		elements = { $(gen ip 2000) }
	}
	set k {
		type ipv4_addr
		counter
		elements = { $(gen ip 1000) }
	}
	set ic {
		type ipv4_addr
		flags interval
		elements = { $(gen net 2000), 9.0.0.0/8 comment "late" }
	}
	map v {
		type ipv4_addr : verdict
		elements = { 10.1.0.1 : accept, 10.1.0.2 : drop }
	}
	set cat {
		type ipv4_addr . inet_service
		elements = { 10.2.0.1 . 22, 10.2.0.2 . 80 }
	}
	set n {
		type ifname
		elements = { "eth0", "lo", "veth1" }
	}
}
EOF

same() {	# what, stock file, ours file
	if cmp -s "$2" "$3"; then
		echo "ok: $1"
	else
		echo "FAIL: $1 differs from stock's"
		diff "$2" "$3" | cut -c1-200 | head -6
		fail=1
	fi
}

for f in plain intervals fallback; do
	unshare -n sh -c '
		"$1" -f "$3" || exit 1
		for o in "" -n -a -s; do
			"$1" $o list ruleset > "$4.stock$o"
			"$2" $o list ruleset > "$4.ours$o" 2>&1
		done
		"$1" list set ip t "$5" > "$4.set.stock"
		"$2" list set ip t "$5" > "$4.set.ours" 2>&1
		"$1" flush ruleset
		"$1" -f "$4.ours" && "$1" list ruleset > "$4.back"
	' sh "$STOCK" "$NFT" "$work/$f.nft" "$work/$f" \
		"$(case $f in plain) echo a;; intervals) echo i;; *) echo c;; esac)" \
		> "$work/$f.log" 2>&1
	if ! grep -q 'elements = ' "$work/$f.stock" 2>/dev/null; then
		echo "FAIL: $f: stock loaded nothing"
		head -3 "$work/$f.log"
		fail=1
		continue
	fi
	for o in "" -n -a -s; do
		same "$f: list ruleset $o" "$work/$f.stock$o" "$work/$f.ours$o"
	done
	same "$f: list set" "$work/$f.set.stock" "$work/$f.set.ours"
	same "$f: stock loads ours' listing back" "$work/$f.stock" \
		"$work/$f.back"
done
exit $fail
