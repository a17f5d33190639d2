#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Differential test of the offline VM ("trace packet") against the
# kernel: random rulesets (trace_kernel_gen.py: ip, ip6 and inet tables;
# addresses, prefixes, ranges; anonymous and named sets, interval sets,
# concatenations and concatenated intervals; maps and verdict maps;
# jump, goto, return and two base chains; tcp flags, udp, icmp, icmpv6;
# ct state, direction and mark; meta iif/iifname/oif/oifname/mark/
# l4proto/length, ttl and hop limit; meta and ct mark set) loaded into
# the kernel of a private network namespace and into an offline state
# file, then random packets (trace_kernel.py: IPv4 and IPv6 on lo and
# two veths, with marks, new/established/related/invalid conntrack
# states) sent through the kernel's receive path, or (three rounds in
# ten, output chains) sent by the host with raw sockets, and described
# to "trace packet" with the same fields. Verdicts must agree, and at the
# end of each round every rule's counter in the kernel must equal the
# number of times (and bytes) the VM's traces show the rule.
#
# Needs root (unshare -n), nf_tables, ip(8) and python3; skips (77)
# otherwise.
#   ROUNDS=n PACKETS=n SEED=n [VERBOSE=1] trace-kernel.sh
set -u
NFT=${NFT:-}
[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
command -v ip >/dev/null || { echo "no ip(8)"; exit 77; }
unshare -n "$NFT" list ruleset >/dev/null 2>&1 || {
	echo "no root/nf_tables in a private netns"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NFT WORK="$work" ROUNDS="${ROUNDS:-12}" PACKETS="${PACKETS:-25}" \
	SEED="${SEED:-1}"
unshare -n python3 "$here/trace_kernel.py"
