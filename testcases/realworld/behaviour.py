#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Behaviour test: the same packets through iptables-legacy and through
our translation, in separate network namespaces; compare verdicts.

For each real-world file: namespace A loads the file with
iptables-legacy-restore (ip6tables-legacy-restore), namespace B loads ipt2nft's translation with
our nft. Each has a sender namespace joined by one veth pair per input
interface the rules name, and routes every address to itself (AnyIP),
so a packet sent to it goes through PREROUTING and INPUT. One packet is
built from each rule's own addresses, protocol, ports and input
interface (a TCP SYN, a UDP datagram or an ICMP echo request, i.e. the
first packet of a connection; its own source address when the rule
names none); raw sockets in A and B record which
packets were delivered. A verdict mismatch is a packet delivered in one
namespace and not in the other. Only the path to a local socket
(PREROUTING, INPUT) is exercised: rules of FORWARD and OUTPUT get no
packets of their own, and rules of user chains are tested on the way
INPUT reaches them (or not). Files whose rules depend on rates or
time (limit, hashlimit, recent --hitcount, statistic, quota, time) get
verdicts that depend on when each packet arrives: their mismatches are
reported but not counted.

    behaviour.py --ipt2nft P --nft P [--max-mismatch N] DIR
    behaviour.py recv            (internal: the receiver, in a netns)
    behaviour.py send IF FILE    (internal: the sender, in a netns)

Exit 0 when mismatches <= --max-mismatch, 1 otherwise, 77 when not root
or a tool is missing.
"""

import argparse
import os
import re
import select
import shlex
import socket
import struct
import subprocess
import sys
import tempfile
import time

DEF_DST = "203.0.113.9"
DEF_DST6 = "2001:db8:ffff::9"


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def l4(proto, s, d, sport, dport, ident, v6):
    """TCP SYN (seq = ident), UDP (payload = ident) or ICMP echo (id/seq)."""
    if v6:
        ph = s + d + struct.pack("!IxxxB", 0, proto)
    else:
        ph = s + d + struct.pack("!BB", 0, proto)
    if proto == 6:
        h = struct.pack("!HHIIBBHHH", sport, dport, ident, 0, 5 << 4,
                        0x02, 64240, 0, 0)
        off = 16
    elif proto == 17:
        h = struct.pack("!HHHHI", sport, dport, 12, 0, ident)
        off = 6
    else:
        h = struct.pack("!BBHHHI", 128 if v6 else 8, 0, 0, ident >> 16,
                        ident & 0xffff, 0)
        off = 2
    if v6:
        ph = s + d + struct.pack("!I3xB", len(h), proto)
    elif proto in (6, 17):
        ph = ph + struct.pack("!H", len(h))
    else:
        ph = b""	# ICMPv4: no pseudo-header
    c = csum(ph + h)
    return h[:off] + struct.pack("!H", c) + h[off + 2:]


def build(pkt, ident):
    """An IP packet (no link header) for pkt = (src, dst, proto, sp, dp)."""
    src, dst, proto, sport, dport = pkt
    v6 = ":" in src
    fam = socket.AF_INET6 if v6 else socket.AF_INET
    s, d = socket.inet_pton(fam, src), socket.inet_pton(fam, dst)
    if proto not in (6, 17):
        proto = 58 if v6 else 1
    body = l4(proto, s, d, sport, dport, ident, v6)
    if v6:
        return struct.pack("!IHBB16s16s", 6 << 28, len(body), proto, 64, s,
                           d) + body
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), ident & 0xffff,
                     0x4000, 64, proto, 0, s, d)
    return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + body


def l4_ident(proto, data):
    """The ident of one of our packets, None for anything else."""
    if proto == 6 and len(data) >= 14 and data[13] == 0x02:
        return struct.unpack("!I", data[4:8])[0]
    if proto == 17 and len(data) >= 12:
        return struct.unpack("!I", data[8:12])[0]
    if proto in (1, 58) and len(data) >= 8 and data[0] in (8, 128):
        hi, lo = struct.unpack("!HH", data[4:8])
        return hi << 16 | lo
    return None


def recv_main():
    socks = []
    for fam, protos in ((socket.AF_INET, (1, 6, 17)),
                        (socket.AF_INET6, (58, 6, 17))):
        for proto in protos:
            s = socket.socket(fam, socket.SOCK_RAW, proto)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
            socks.append((s, fam, proto))
    print("ready", flush=True)
    while True:
        r, _, _ = select.select([x[0] for x in socks], [], [], 60)
        if not r:
            return 0
        for s, fam, proto in socks:
            if s not in r:
                continue
            data, addr = s.recvfrom(65535)
            if fam == socket.AF_INET:	# v4 raw sockets see the header
                data = data[(data[0] & 0xf) * 4:]
            ident = l4_ident(proto, data)
            if ident is not None:
                print("%d %d %s" % (ident, 1 if proto == 58 else proto,
                                    addr[0]), flush=True)


def send_main(ifname, path):
    peer_mac = bytes.fromhex(open(path + ".mac").read().strip()
                             .replace(":", ""))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    my_mac = s.getsockname()[4]
    for n, line in enumerate(open(path)):
        ident, src, dst, proto, sp, dp = line.split()
        etype = b"\x86\xdd" if ":" in src else b"\x08\x00"
        frame = peer_mac + my_mac + etype + build(
            (src, dst, int(proto), int(sp), int(dp)), int(ident))
        s.send(frame)
        if n % 64 == 63:	# stay below the receiver's backlog
            time.sleep(0.01)
    return 0


# ------------------------------------------------------------- packets

def first_addr(text, v6):
    a = text.split(",")[0].split("/")[0]
    if "-" in a:
        a = a.split("-")[0]
    try:
        raw = socket.inet_pton(socket.AF_INET6 if v6 else socket.AF_INET, a)
    except OSError:
        return None
    if v6:
        if raw[0] == 0xff or raw == bytes(16) or raw[:2] == b"\xfe\x80" or \
                raw == bytes(15) + b"\x01":
            return None
        if raw[-1] == 0:
            raw = raw[:-1] + b"\x01"
        return socket.inet_ntop(socket.AF_INET6, raw)
    if a.endswith(".0"):
        a = a[:-1] + "1"
    if a.startswith(("0.", "127.", "224.", "255.")) or a[0:2] == "24":
        return None
    return a


def first_port(text):
    p = re.split("[,:]", text)[0]
    return int(p) if p.isdigit() and 0 < int(p) < 65536 else None


TIMED = re.compile(r"-m (limit|hashlimit|statistic|quota|time)\b|--hitcount")

PROTOS = {"tcp": 6, "udp": 17, "icmp": 1, "6": 6, "17": 17, "1": 1,
          "icmpv6": 1, "ipv6-icmp": 1, "58": 1}


def rule_packet(toks, n, v6):
    """(iface, (src, dst, proto, sport, dport)) from a rule's options.

    A rule without a source gets a source of its own (the n-th of
    198.18.0.0/15), so that per-source state (recent, hashlimit,
    connlimit) sees one packet per address, as the first packet of a
    connection from a new peer."""
    if v6:
        src = "2001:db8:5ee::%x" % (n + 1)
        dst = DEF_DST6
    else:
        src = "198.18.%d.%d" % ((n >> 8) & 0xff, (n & 0xff) | 1)
        dst = DEF_DST
    proto, sport, dport, iface = 6, 40000, 80, None
    inv = False
    i = 0
    while i < len(toks):
        t = toks[i]
        arg = toks[i + 1] if i + 1 < len(toks) else ""
        if t == "!":
            inv = True
            i += 1
            continue
        if not inv:
            if t in ("-s", "--source") and first_addr(arg, v6):
                src = first_addr(arg, v6)
            elif t in ("-d", "--destination") and first_addr(arg, v6):
                dst = first_addr(arg, v6)
            elif t in ("-p", "--protocol") and arg.lower() in PROTOS:
                proto = PROTOS[arg.lower()]
            elif t in ("--dport", "--destination-port", "--dports") \
                    and first_port(arg):
                dport = first_port(arg)
            elif t in ("--sport", "--source-port", "--sports") \
                    and first_port(arg):
                sport = first_port(arg)
            elif t in ("-i", "--in-interface"):
                iface = arg.replace("+", "0")[:15]
        inv = False
        i += 1
    return iface, (src, dst, proto, sport, dport)


def packets(path, v6):
    """Packets of the filter INPUT/PREROUTING path, with their iface."""
    out = []
    table = None
    for line in open(path):
        line = line.strip()
        if line.startswith("*"):
            table = line[1:]
            continue
        if not line.startswith("-A ") or table not in ("filter", "nat",
                                                       "mangle", "raw"):
            continue
        try:
            toks = shlex.split(line)
        except ValueError:
            continue
        chain = toks[1]
        if chain in ("OUTPUT", "POSTROUTING", "FORWARD"):
            continue
        iface, pkt = rule_packet(toks[2:], len(out), v6)
        if iface != "lo":	# local traffic: not sent from outside
            out.append((iface or "eth0", pkt))
    seen, uniq = set(), []
    for p in out:
        if p not in seen:
            seen.add(p)
            uniq.append(p)
    return uniq


# ----------------------------------------------------------- namespaces

def same_addr(a, b):
    fam = socket.AF_INET6 if ":" in a else socket.AF_INET
    try:
        return socket.inet_pton(fam, a) == socket.inet_pton(fam, b)
    except OSError:
        return False


def sh(cmd, check=True, **kw):
    return subprocess.run(cmd, shell=True, check=check,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


class Pair:
    """Namespace NAME (the firewall) and NAME-s (the sender)."""

    def __init__(self, name, ifaces):
        self.ns, self.sns = name, name + "-s"
        self.ifaces = {}
        try:
            self.setup(ifaces)
        except Exception:
            self.close()
            raise

    def setup(self, ifaces):
        sh("ip netns add %s && ip netns add %s" % (self.ns, self.sns))
        x = "ip netns exec %s " % self.ns
        sh(x + "ip link set lo up")
        # every address is local (AnyIP), the sources too: accept them
        sh(x + "sysctl -qw net.ipv4.conf.all.rp_filter=0 "
           "net.ipv4.conf.default.rp_filter=0 "
           "net.ipv4.conf.all.accept_local=1 "
           "net.ipv4.conf.default.accept_local=1")
        sh(x + "ip route add local 0.0.0.0/0 dev lo table local")
        sh(x + "ip -6 route add local ::/0 dev lo table local")
        for k, name in enumerate(sorted(ifaces)):
            peer = "s%d" % k
            sh("ip link add %s netns %s type veth peer name %s netns %s"
               % (shlex.quote(name), self.ns, peer, self.sns))
            sh(x + "ip link set %s up" % shlex.quote(name))
            sh(x + "sysctl -qw net.ipv4.conf.%s.rp_filter=0 "
               "net.ipv4.conf.%s.accept_local=1"
               % (name.replace(".", "/"), name.replace(".", "/")),
               check=False)
            sh("ip netns exec %s ip link set %s up" % (self.sns, peer))
            mac = sh(x + "cat /sys/class/net/%s/address"
                     % shlex.quote(name)).stdout.strip()
            self.ifaces[name] = (peer, mac)

    def run(self, pkts, tmp):
        """Send @pkts (iface, packet); the idents delivered."""
        me = os.path.abspath(__file__)
        rx = subprocess.Popen(["ip", "netns", "exec", self.ns, "python3",
                               me, "recv"], stdout=subprocess.PIPE,
                              text=True)
        rx.stdout.readline()
        for name, (peer, mac) in self.ifaces.items():
            path = os.path.join(tmp, "%s.%s.pkts" % (self.ns, peer))
            with open(path, "w") as f:
                for ident, (iface, p) in enumerate(pkts):
                    if iface == name:
                        f.write("%d %s %s %d %d %d\n" % ((ident,) + p))
            with open(path + ".mac", "w") as f:
                f.write(mac)
            sh("ip netns exec %s python3 %s send %s %s"
               % (self.sns, me, peer, path))
        time.sleep(0.5)
        rx.terminate()
        got = set()
        for line in rx.stdout.read().splitlines():
            ident, proto, src = line.split()
            ident = int(ident)
            # ours, not a reply the stack sent back to itself
            if ident < len(pkts) and same_addr(pkts[ident][1][0], src) and \
                    (pkts[ident][1][2] in (6, 17)) == (int(proto) in (6, 17)):
                got.add(ident)
        rx.wait()
        return got

    def close(self):
        sh("ip netns del %s" % self.ns, check=False)
        sh("ip netns del %s" % self.sns, check=False)


def one_file(args, path, env, tmp, tag, v6):
    pkts = packets(path, v6)
    if not pkts:
        return 0, 0, 0
    ifaces = {i for i, _ in pkts}
    out = os.path.join(tmp, "out.nft")
    sets = []
    a = b = None
    try:
        a = Pair("xlbA%s" % tag, ifaces)
        b = Pair("xlbB%s" % tag, ifaces)
        if env:
            for p in (a, b):
                sh("ip netns exec %s sh %s" % (p.ns, shlex.quote(env)))
            sv = os.path.join(tmp, "sets")
            with open(sv, "w") as f:
                f.write(sh("ip netns exec %s ipset save" % a.ns).stdout)
            sets = ["--ipsets", sv]
        with open(out, "w") as f:
            subprocess.run([args.ipt2nft, "-q"] + (["-6"] if v6 else []) +
                           sets + [path], stdout=f,
                           stderr=subprocess.DEVNULL)
        # -w: the xtables lock is one file for every namespace, and
        # other tests may run iptables-legacy at the same time
        sh("ip netns exec %s %s-legacy-restore -w < %s"
           % (a.ns, "ip6tables" if v6 else "iptables", shlex.quote(path)))
        sh("ip netns exec %s %s -f %s" % (b.ns, args.nft, out))
        got_a = a.run(pkts, tmp)
        got_b = b.run(pkts, tmp)
    finally:
        for p in (a, b):
            if p:
                p.close()
    bad = sorted(got_a ^ got_b)
    for ident in bad[:int(os.environ.get("XLB_SHOW", "5"))]:
        print("  mismatch: %s %s: iptables %s, ours %s"
              % (pkts[ident][0], pkts[ident][1],
                 "delivered" if ident in got_a else "dropped",
                 "delivered" if ident in got_b else "dropped"))
    return len(pkts), len(bad), len(got_a)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "recv":
        return recv_main()
    if len(sys.argv) > 1 and sys.argv[1] == "send":
        return send_main(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser()
    ap.add_argument("--ipt2nft", required=True)
    ap.add_argument("--nft", required=True)
    ap.add_argument("--max-mismatch", type=int, default=0)
    ap.add_argument("dir")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("SKIP: not root")
        return 77
    for tool in ("ip", "iptables-legacy-restore", "ip6tables-legacy-restore"):
        if sh("command -v %s" % tool, check=False).returncode:
            print("SKIP: no %s" % tool)
            return 77
    manifest = {}
    for line in open(os.path.join(args.dir, "manifest.tsv")):
        cols = line.rstrip("\n").split("\t")
        if len(cols) > 5:
            manifest[cols[0]] = cols[5]
    total = mism = files = delivered = timed_mism = 0
    with tempfile.TemporaryDirectory() as tmp:
        for fn in sorted(os.listdir(args.dir)):
            if not fn.endswith(".rules") or fn.endswith(".fixed.rules"):
                continue
            name = fn[:-len(".rules")]
            v6 = manifest.get(name) == "v6"
            path = os.path.join(args.dir, fn)
            fixed = os.path.join(args.dir, name + ".fixed.rules")
            if os.path.exists(fixed):
                path = fixed
            env = os.path.join(args.dir, name + ".env.sh")
            env = env if os.path.exists(env) else None
            try:
                n, bad, acc = one_file(args, path, env, tmp,
                                       str(os.getpid()), v6)
            except subprocess.CalledProcessError as e:
                print("ERROR: %s: %s: %s" % (name, e.cmd, e.stderr.strip()))
                mism += 1
                continue
            files += 1
            total += n
            with open(path) as f:
                timed = TIMED.search(f.read())
            if timed:
                timed_mism += bad
            else:
                mism += bad
            delivered += acc
            print("%-42s packets %5d delivered %5d mismatches %d%s"
                  % (name, n, acc, bad, " (rate/time dependent: not "
                     "counted)" if timed and bad else ""))
    print("behaviour: %d files, %d packets (%d delivered by "
          "iptables), %d verdict mismatches (and %d in files with rate or "
          "time dependent rules)" % (files, total, delivered, mism,
                                     timed_mism))
    return 0 if mism <= args.max_mismatch else 1


if __name__ == "__main__":
    sys.exit(main())
