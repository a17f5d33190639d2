#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vm-packet.sh: nanoseconds per packet of the VM (libnftvm, nftvm_eval)
# against the number of rules, beside the kernel's nf_tables with the
# same rules in a private network namespace. Not part of make check.
#
#   vm-packet.sh [-n RUNS] [-l "10 100 1000 10000"] [-s "10000 1000000"]
#                [-m MAPSIZE] [-K]
#
# Rulesets (table ip t, chain in: input hook, policy accept):
#   linear-N  N rules "ip saddr 10.a.b.c tcp dport 22 drop"; the packet
#             (192.0.2.1 -> 10.2.0.1, tcp dport 9) matches none, so every
#             rule runs its first load and compare (as iptables -A lists);
#   set-N     "ip saddr @s drop" over a hash set of N addresses, a miss;
#   vmap-M    "tcp dport vmap { ... }" of M ports, the packet's port maps
#             to "jump sub" (one counter rule there), then accept;
#   empty     the chain without rules (the fixed cost of a hook).
# VM: "vm-packet vm" evaluates the packet in a loop (the thread's CPU
# time, which leaves out waiting for a CPU on a shared machine; median
# of RUNS runs). Kernel (root, nf_tables; -K skips it): "vm-packet kernel"
# writes the packet as a frame on one end of a veth pair, so the other
# end receives it through the whole IPv4 receive path in the sending
# thread (the softirq work is the thread's system time); a table at
# priority 1000 counts and drops it after the tested chain. The kernel's
# figure is the CPU time per packet with the ruleset minus the time with
# no table t at all (median of RUNS). The per-rule slope is the
# least-squares slope over the linear rulesets.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=${BUILD:-$top/build}
NFT=${NFT:-$B/nftc/nft}
DRV=${DRV:-$B/testcases/bench/vm-packet}
runs=3 linear="10 100 1000 10000" sets="10000 1000000" mapsize=1000
kernel=1
while getopts n:l:s:m:K o; do
	case $o in
	n) runs=$OPTARG ;; l) linear=$OPTARG ;; s) sets=$OPTARG ;;
	m) mapsize=$OPTARG ;; K) kernel=0 ;;
	*) echo "usage: $0 [-n RUNS] [-l SIZES] [-s SIZES] [-m N] [-K]" >&2
	   exit 2 ;;
	esac
done
[ -x "$NFT" ] && [ -x "$DRV" ] || {
	echo "build first (make): need $NFT and $DRV" >&2; exit 77; }
if [ "$kernel" = 1 ] && ! unshare -n "$NFT" list ruleset >/dev/null 2>&1
then
	echo "no root/nf_tables: VM only" >&2
	kernel=0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# gen KIND N > FILE
gen() {
	python3 - "$1" "$2" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
out = sys.stdout
out.write("table ip t {\n")
if kind == "set":
    out.write("\tset s {\n\t\ttype ipv4_addr\n\t\telements = {\n")
    for i in range(n):
        out.write("\t\t\t10.%d.%d.%d,\n" % (i >> 16 & 255, i >> 8 & 255,
                                          i & 255))
    out.write("\t\t}\n\t}\n")
if kind == "vmap":
    out.write("\tchain sub {\n\t\tcounter\n\t}\n")
out.write("\tchain in {\n\t\ttype filter hook input priority 0; "
          "policy accept;\n")
if kind == "linear":
    for i in range(n):
        out.write("\t\tip saddr 10.%d.%d.%d tcp dport 22 drop\n" % (
            i >> 16 & 255, i >> 8 & 255, i & 255))
elif kind == "set":
    out.write("\t\tip saddr @s drop\n")
elif kind == "vmap":
    # ports 10000.. drop, the packet's port 9 jumps
    els = ["%d : drop" % (10000 + i) for i in range(n - 1)]
    els.append("9 : jump sub")
    out.write("\t\ttcp dport vmap { %s }\n" % ", ".join(els))
out.write("\t}\n}\n")
PY
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# the VM: vm_ns STATE N
vm_ns() {
	i=0
	while [ $i -lt "$runs" ]; do
		"$DRV" vm "$1" 192.0.2.1 10.2.0.1 9 "$2" |
			awk '/^ns\/packet/ {print $2}'
		i=$((i + 1))
	done | median
}

# packets per measurement: about 1e7 rule evaluations, at least 2000
count() { echo $(( 10000000 / ($1 + 10) + 2000 )); }

cases="empty:0"
for n in $linear; do cases="$cases linear:$n"; done
for n in $sets; do cases="$cases set:$n"; done
cases="$cases vmap:$mapsize"

for c in $cases; do
	kind=${c%%:*} n=${c#*:}
	gen "$kind" "$n" > "$work/$kind-$n.nft"
	"$NFT" --offline "$work/$kind-$n.state" -f "$work/$kind-$n.nft"
	verdict=$("$DRV" vm "$work/$kind-$n.state" 192.0.2.1 10.2.0.1 9 1 |
		  head -n 1)
	r=$(case $kind in linear) echo "$n" ;; *) echo 1 ;; esac)
	echo "$kind $n $(vm_ns "$work/$kind-$n.state" "$(count "$r")") $verdict"
done > "$work/vm.txt"

# The kernel, in a private network namespace.
if [ "$kernel" = 1 ]; then
	export NFT DRV WORK="$work" RUNS="$runs" CASES="$cases"
	unshare -n sh -eu <<'SH' > "$work/kernel.txt"
ip link set lo up
ip link add va type veth peer name vb
ip link set va up
ip link set vb up
ip addr add 10.2.0.1/32 dev vb
sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.vb.rp_filter=0
sysctl -qw net.ipv6.conf.va.disable_ipv6=1 net.ipv6.conf.vb.disable_ipv6=1
mac=$(ip -o link show dev vb | sed 's/.*link\/ether \([0-9a-f:]*\).*/\1/')
"$NFT" -f - <<'NFT'
table ip z {
	chain c {
		type filter hook input priority 1000; policy drop;
		counter
	}
}
NFT
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
kns() {
	i=0
	while [ $i -lt "$RUNS" ]; do
		"$DRV" kernel va "$mac" 192.0.2.1 10.2.0.1 9 "$1" |
			awk '{print $2}'
		i=$((i + 1))
	done | med
}
for c in $CASES; do
	kind=${c%%:*} n=${c#*:}
	r=$(case $kind in linear) echo "$n" ;; *) echo 1 ;; esac)
	cnt=$(( 4000000 / (r + 20) + 20000 ))
	base=$(kns "$cnt")
	"$NFT" -f "$WORK/$kind-$n.nft"
	with=$(kns "$cnt")
	"$NFT" delete table ip t
	echo "$kind $n $with $base"
done
# every frame sent reached the input hook (all are accepted by t)
"$NFT" list table ip z | sed -n 's/.*counter packets \([0-9]*\).*/seen \1/p'
SH
fi

python3 - "$work/vm.txt" "$work/kernel.txt" "$kernel" <<'PY'
import sys
vm = [l.split() for l in open(sys.argv[1])]
kern = {}
if sys.argv[3] == "1":
    for l in open(sys.argv[2]):
        if l.startswith("seen "):
            seen = int(l.split()[1])
            continue
        k, n, w, b = l.split()
        kern[(k, n)] = (float(w), float(b))
print("| ruleset | rules run | VM ns/packet | VM rules/s | kernel ns/packet "
      "(with - without) | kernel with / without | VM verdict |")
print("|---|---|---|---|---|---|---|")
lin_vm, lin_k = [], []
for k, n, ns, _, v, *_ in vm:
    ns = float(ns)
    rules = int(n) if k == "linear" else (0 if k == "empty" else 1)
    rps = "%.3g" % (rules / ns * 1e9) if rules else "-"
    if (k, n) in kern:
        w, b = kern[(k, n)]
        kc = "%.1f" % (w - b)
        kw = "%.1f / %.1f" % (w, b)
    else:
        kc = kw = "-"
    name = {"empty": "empty chain", "linear": "linear %s" % n,
            "set": "set lookup, %s elements" % n,
            "vmap": "vmap, %s elements" % n}[k]
    print("| %s | %s | %.1f | %s | %s | %s | %s |" % (
        name, rules if k == "linear" else "-", ns, rps, kc, kw,
        {"1": "accept", "0": "drop"}.get(v, v)))
    if k in ("linear", "empty"):
        lin_vm.append((rules, ns))
        if (k, n) in kern:
            lin_k.append((rules, kern[(k, n)][0] - kern[(k, n)][1]))


def slope(pts):
    if len(pts) < 2:
        return float("nan")
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


print()
if kern:
    print("frames that reached the kernel's last input chain: %d" % seen)
print("per-rule slope (least squares over empty and linear): VM %.2f ns/rule"
      % slope(lin_vm) + (", kernel %.2f ns/rule" % slope(lin_k)
                         if lin_k else ""))
PY
