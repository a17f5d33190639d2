#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nft --offline S trace pcap FILE: a capture written here (Ethernet and
# raw IP link types, a non-IP frame among them) replayed through a
# ruleset whose per-rule hit counts follow from the packets: so many to
# port 22, so many UDP 53 from the LAN, the rest to the policy. Needs no
# root; skips without python3 or when built without libpcap.
set -u
NFT=${NFT:-}
[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
S="$work/state"

cat > "$work/rs.nft" <<'NFT'
table ip filter {
	chain input {
		type filter hook input priority 0; policy drop;
		tcp dport 22 accept
		ip saddr 192.168.0.0/16 udp dport 53 counter accept
		tcp flags syn tcp dport 80 jump web
	}
	chain web {
		ip daddr 10.0.0.2 accept
	}
}
NFT
"$NFT" --offline "$S" -f "$work/rs.nft" || { echo "load failed"; exit 1; }

# write_pcap FILE LINKTYPE: 7 tcp/22, 4 udp/53 from 192.168.1.9,
# 2 udp/53 from 10.9.9.9, 3 syn to 80 for 10.0.0.2, 1 for 10.0.0.3,
# and (Ethernet only) one ARP frame
write_pcap() {
	python3 - "$1" "$2" <<'PY'
import socket, struct, sys
path, link = sys.argv[1], int(sys.argv[2])
def ip4(src, dst, proto, l4):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 0, 0, 64,
                    proto, 0, socket.inet_aton(src), socket.inet_aton(dst))
    return h + l4
def tcp(dport, flags):
    return struct.pack("!HHIIBBHHH", 40000, dport, 0, 0, 0x50, flags,
                       1024, 0, 0)
def udp(dport):
    return struct.pack("!HHHH", 40000, dport, 8, 0)
pkts = [ip4("10.1.1.1", "10.0.0.1", 6, tcp(22, 2))] * 7
pkts += [ip4("192.168.1.9", "10.0.0.1", 17, udp(53))] * 4
pkts += [ip4("10.9.9.9", "10.0.0.1", 17, udp(53))] * 2
pkts += [ip4("10.1.1.1", "10.0.0.2", 6, tcp(80, 2))] * 3
pkts += [ip4("10.1.1.1", "10.0.0.3", 6, tcp(80, 2))]
frames = []
for p in pkts:
    frames.append(b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + p
                  if link == 1 else p)
if link == 1:
    frames.append(b"\xff" * 6 + b"\x04" * 6 + b"\x08\x06" + b"\0" * 28)
with open(path, "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, link))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)) + fr)
PY
}

check() {	# file, expected line (grep -F)
	if grep -qF -- "$2" "$1"; then pass=$((pass + 1))
	else fail=$((fail + 1)); echo "FAIL: no '$2' in"; sed 's/^/  /' "$1"; fi
}

for link in 1 101; do
	write_pcap "$work/c.pcap" "$link" || { echo "no capture"; exit 77; }
	if ! "$NFT" --offline "$S" trace pcap "$work/c.pcap" > "$work/out" \
		2> "$work/err"; then
		grep -q "without libpcap" "$work/err" &&
			{ echo "built without libpcap"; exit 77; }
		fail=$((fail + 1)); echo "FAIL: link $link:"; cat "$work/err"
		continue
	fi
	if [ "$link" = 1 ]; then nonip=1; else nonip=0; fi
	total=$((17 + nonip))
	check "$work/out" "packets $total: accept 14, drop 3, other 0, not IP $nonip"
	check "$work/out" "7  ip filter input handle 3: tcp dport 22 accept"
	check "$work/out" "4  ip filter input handle 4: ip saddr 192.168.0.0/16 udp dport 53 counter"
	check "$work/out" "4  ip filter input handle 5: tcp flags syn tcp dport 80 jump web"
	check "$work/out" "3  ip filter web handle 6: ip daddr 10.0.0.2 accept"
done
# the replay is not a commit: the state file keeps its counters at 0
"$NFT" --offline "$S" list ruleset | grep -q "counter packets 0 bytes 0" &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: state changed"; }
"$NFT" --offline "$S" trace pcap "$work/nosuch.pcap" >/dev/null 2>&1 &&
	{ fail=$((fail + 1)); echo "FAIL: missing file accepted"; } ||
	pass=$((pass + 1))

echo "offline trace pcap: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
