#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sctp --chunk-types translations against the kernel's xt_sctp. In a
# private network namespace every spec below is loaded twice in OUTPUT:
# as an iptables-legacy rule (xt_sctp) and as ipt2nft's translation
# (loaded with our nft); crafted SCTP packets (bundled chunks, flags, a
# UDP packet, a non-first fragment) go out one by one through a raw
# socket and each rule's counter is read after each packet. A
# translation ipt2nft calls exact must count exactly the packets xt_sctp
# counts; an approximate one (a warning, status 1) may differ only where
# its warnings say (several chunks of one type, non-first fragments)
# and is reported with those packets; a refused one is skipped. Needs
# root, iptables-legacy with xt_sctp, python3; skips (77) otherwise.
set -u
SKIP=77
NFT=${NFT:-}
IPT2NFT=${IPT2NFT:-${top_builddir:-../..}/xlate/ipt2nft}

[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
[ -x "$IPT2NFT" ] || { echo "no ipt2nft ($IPT2NFT)"; exit $SKIP; }
command -v iptables-legacy >/dev/null 2>&1 || {
	echo "no iptables-legacy"; exit $SKIP; }
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit $SKIP; }
unshare -n iptables-legacy -w -A OUTPUT -p sctp --chunk-types all INIT \
	>/dev/null 2>&1 || { echo "no root, netns or xt_sctp"; exit $SKIP; }
unset NFTKIT_OFFLINE_CHECK
export NFT IPT2NFT

exec unshare -n python3 - <<'EOF'
import os, socket, struct, subprocess, sys

SPECS = [
    "--chunk-types all INIT,DATA:iUbE,SACK,ABORT:T",
    "--chunk-types all INIT,SACK",
    "--chunk-types any DATA",
    "--chunk-types any ABORT:t",
    "--chunk-types all DATA:U",
    "! --chunk-types any INIT,DATA",
    "! --chunk-types all ABORT",
    "--chunk-types all SHUTDOWN_COMPLETE:T --dport 6000",
    "--chunk-types only DATA",
    "--chunk-types any INIT,SACK",
]

def csum(b):
    s = 0
    for i in range(0, len(b), 2):
        s += (b[i] << 8) | (b[i + 1] if i + 1 < len(b) else 0)
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def chunk(t, flags, body):
    n = 4 + len(body)
    return struct.pack("!BBH", t, flags, n) + body + b"\0" * (-n % 4)

def data(flags):
    return chunk(0, flags, struct.pack("!IHHI", 1, 0, 0, 0) + b"abcde")

INIT = chunk(1, 0, struct.pack("!IIHHI", 1, 1500, 1, 1, 1))
SACK = chunk(3, 0, struct.pack("!IIHH", 1, 1, 0, 0))

def abort(flags):
    return chunk(6, flags, b"")

PACKETS = {
    "data(UE)": [data(5)],
    "data()": [data(0)],
    "data() data(UE)": [data(0), data(5)],
    "init": [INIT],
    "init data(UE) sack abort(T)": [INIT, data(5), SACK, abort(1)],
    "init data() data(UE) sack abort(T)":
        [INIT, data(0), data(5), SACK, abort(1)],
    "sack": [SACK],
    "abort()": [abort(0)],
    "init sack": [INIT, SACK],
    "shutdown-complete(T)": [chunk(14, 1, b"")],
    "UDP carrying init": ("udp", [INIT]),
    "non-first fragment of sack": ("frag", [SACK]),
}

def packet(spec):
    proto, frag, chunks = 132, 0, spec
    if isinstance(spec, tuple):
        kind, chunks = spec
        proto = 17 if kind == "udp" else 132
        frag = 0x10 if kind == "frag" else 0
    l4 = struct.pack("!HHII", 5000, 6000, 0, 0) + b"".join(chunks)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 0x1234, frag,
                     77, proto, 0, socket.inet_aton("127.0.0.1"),
                     socket.inet_aton("127.0.0.1"))
    return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + l4

def run(args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True, text=True)

subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
nft = os.environ["NFT"]
run([nft, "add table ip t"])
run([nft, "add chain ip t o { type filter hook output priority 0; }"])
rules = []
for spec in SPECS:
    r = run(["iptables-legacy", "-w", "-A", "OUTPUT", "-m", "ttl",
             "--ttl-eq", "77", "-p", "sctp"] + spec.split())
    if r.returncode:
        print("SKIP %s: iptables-legacy refuses it" % spec)
        continue
    x = run([os.environ["IPT2NFT"], "-q", "-c", "--", "iptables", "-A",
             "OUTPUT", "-p", "sctp"] + spec.split())
    text = x.stdout.strip()
    if not text:
        print("refused  %s" % spec)
        rules.append((spec, None, x.returncode))
        run(["iptables-legacy", "-w", "-D", "OUTPUT", "-m", "ttl", "--ttl-eq",
             "77", "-p", "sctp"] + spec.split())
        continue
    text = text.replace("add rule ip filter OUTPUT", "add rule ip t o "
                        "ip ttl 77")
    r = run([nft, "-f", "-"], text + "\n")
    if r.returncode:
        print("FAIL %s: our nft rejects %r: %s" % (spec, text, r.stderr))
        sys.exit(1)
    rules.append((spec, text, x.returncode))

def counters():
    xt = [int(l.split()[0]) for l in
          run(["iptables-legacy", "-w", "-L", "OUTPUT", "-v", "-x", "-n"])
          .stdout.splitlines()[2:] if l.strip()]
    nf = [int(l.split("counter packets ")[1].split()[0]) for l in
          run([nft, "list", "chain", "ip", "t", "o"]).stdout.splitlines()
          if "counter packets" in l]
    return xt, nf

live = [r for r in rules if r[1] is not None]
hits = {r[0]: [] for r in live}
sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
before = counters()
for name, spec in PACKETS.items():
    sock.sendto(packet(spec), ("127.0.0.1", 0))
    after = counters()
    for i, r in enumerate(live):
        hits[r[0]].append((name, after[0][i] - before[0][i],
                           after[1][i] - before[1][i]))
    before = after

# where the warnings allow an approximation to differ
def tolerated(name):
    return "fragment" in name or "data() data(UE)" in name

fail = 0
for spec, text, rc in live:
    wrong = [n for n, a, b in hits[spec] if a != b]
    if rc == 0 and wrong:
        fail += 1
        print("FAIL exact  %s -> %s: differs on %s" % (spec, text, wrong))
    elif rc == 0:
        print("ok   exact  %s" % spec)
    elif [n for n in wrong if not tolerated(n)]:
        fail += 1
        print("FAIL approx %s -> %s: differs on %s" % (spec, text, wrong))
    else:
        print("ok   approx %s: differs on %s" % (spec, wrong or "none"))
n_exact = sum(1 for r in live if r[2] == 0)
print("xlate-sctp: %d exact, %d approximate, %d refused, %d failed" %
      (n_exact, len(live) - n_exact, len(rules) - len(live), fail))
sys.exit(1 if fail else 0)
EOF
