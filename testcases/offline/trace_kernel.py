# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver of trace-kernel.sh: run inside a private network namespace
(unshare -n). See trace-kernel.sh for what it compares.

Network: lo, and two veth pairs va1/vb1, va2/vb2. Frames are written
with packet sockets on lo, va1 or va2, so they arrive on lo, vb1 or vb2
(iif) through the whole receive path (prerouting, conntrack, input).
vb1/vb2 hold 10.2.0.1-3 and fd00:2::1-3; the remote sources 10.1.0.x
and fd00:1::x are routed out of vb1 with permanent neighbours, so the
kernel's own answers (RST, ICMP errors) leave by vb1 and never come
back in; on lo, output is dropped for the same reason.

Connection tracking states: "new" is a fresh tuple; "established" and
"related" first send a primer from the host (raw socket, output path:
never through the input chains) in the opposite direction, then the
reply (or an ICMP error quoting the primer). The state the kernel gave
the packet is read from counters in an inet table "obs" (input,
priority -1000) and handed to the VM with the packet; the verdict is
read from a counter at priority 1000 that only accepted packets reach.
At the end of each round the kernel's counters of the tested rules are
compared with the VM's trace hits (and byte sums).

Three rounds in ten test the output hook instead: the packets are sent
by the host with raw sockets (root's: meta skuid/skgid 0), out of vb1
to a remote address or over lo to a local one, with marks; primers then
come in as frames on va1. The state and the verdict are read from
counters in output chains of "obs" (priority -150, after conntrack, and
1000).
"""
import os
import random
import re
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_kernel_gen as G  # noqa: E402

NFT, WORK = os.environ["NFT"], os.environ["WORK"]
ROUNDS, PACKETS = int(os.environ["ROUNDS"]), int(os.environ["PACKETS"])
VERBOSE = os.environ.get("VERBOSE")
rnd = random.Random(int(os.environ["SEED"]))
SO_MARK = 36
TCPF = {"fin": 1, "syn": 2, "rst": 4, "psh": 8, "ack": 16}
ICMP4 = {"echo-request": (8, 0), "echo-reply": (0, 0),
         "destination-unreachable": (3, 3), "time-exceeded": (11, 0)}
ICMP6 = {"echo-request": (128, 0), "echo-reply": (129, 0),
         "destination-unreachable": (1, 4), "time-exceeded": (3, 0)}


def sh(*cmd):
    subprocess.run(cmd, check=True, capture_output=True)


def nft(*args, inp=None):
    return subprocess.run([NFT] + list(args), input=inp, text=True,
                          capture_output=True)


# ---------------------------------------------------------------- network
def setup():
    sh("ip", "link", "set", "lo", "up")
    for i in (1, 2):
        sh("ip", "link", "add", "va%d" % i, "type", "veth", "peer", "name",
           "vb%d" % i)
        sh("sysctl", "-qw", "net.ipv6.conf.va%d.disable_ipv6=1" % i)
        sh("sysctl", "-qw", "net.ipv6.conf.vb%d.accept_dad=0" % i)
        sh("sysctl", "-qw", "net.ipv6.conf.vb%d.router_solicitations=0" % i)
        sh("sysctl", "-qw", "net.ipv4.conf.vb%d.rp_filter=0" % i)
        for d in ("va", "vb"):
            sh("ip", "link", "set", "%s%d" % (d, i), "up")
    sh("sysctl", "-qw", "net.ipv4.conf.all.rp_filter=0")
    # frames written on lo carry no route: 127/8 must be routable and
    # local sources accepted, as for the looped-back packets of the host
    sh("sysctl", "-qw", "net.ipv4.conf.lo.route_localnet=1")
    sh("sysctl", "-qw", "net.ipv4.conf.lo.accept_local=1")
    for a, dev in (("10.2.0.1", "vb1"), ("10.2.0.3", "vb1"),
                   ("10.2.0.2", "vb2")):
        sh("ip", "addr", "add", a + "/32", "dev", dev)
    for a, dev in (("fd00:2::1", "vb1"), ("fd00:2::3", "vb1"),
                   ("fd00:2::2", "vb2")):
        sh("ip", "addr", "add", a + "/128", "dev", dev, "nodad")
    sh("ip", "route", "add", "10.1.0.0/24", "dev", "vb1")
    sh("ip", "-6", "route", "add", "fd00:1::/64", "dev", "vb1")
    # (/sys is the root namespace's: ask ip)
    mac = {d: re.search(r"link/\S+ ([0-9a-f:]{17})", subprocess.run(
        ["ip", "-o", "link", "show", "dev", d], capture_output=True,
        text=True).stdout).group(1)
        for d in ("va1", "va2", "vb1", "vb2", "lo")}
    for a in G.REMOTE4 + G.REMOTE6:
        sh("ip", "neigh", "replace", a, "lladdr", mac["va1"], "nud",
           "permanent", "dev", "vb1")
    return {k: bytes.fromhex(v.replace(":", "")) for k, v in mac.items()}


OBS = """table inet obs {
	chain pre {
		type filter hook input priority -1000; policy accept;
		ct state new counter
		ct state established counter
		ct state related counter
		ct state invalid counter
		ct direction reply counter
	}
	chain post {
		type filter hook input priority 1000; policy accept;
		counter
	}
	chain opre {
		type filter hook output priority -150; policy accept;
		ct state new counter
		ct state established counter
		ct state related counter
		ct state invalid counter
		ct direction reply counter
	}
	chain opost {
		type filter hook output priority 1000; policy accept;
		counter
	}
	chain keep {
		type filter hook output priority -300; policy drop;
		meta skuid != 12345 accept
	}
	chain out {
		type filter hook output priority 2000; policy accept;
		oif "lo" drop
	}
}
"""
# Counters in listing order: input (pre, post), then output (opre,
# opost). "keep" lets out only packets of sockets with an owner (ours):
# the kernel's own answers (RST, ICMP errors, echo replies: its control
# sockets have no owner) never reach the output chains, and "out" keeps
# what is sent to a local address from coming back in.
OBS_NAMES = ["new", "established", "related", "invalid", "reply", "post"]
OBS_BASE = {"input": 0, "output": 6}


def obs():
    out = nft("list", "table", "inet", "obs").stdout
    return [int(x) for x in re.findall(r"counter packets (\d+)", out)]


# ---------------------------------------------------------------- packets
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ip_packet(v, src, dst, proto, l4, ttl=64, dscp=0):
    """An IPv4/IPv6 packet around @l4, whose checksum field (at the
    protocol's offset) is filled in here."""
    off = {6: 16, 17: 6, 1: 2, 58: 2}[proto]
    if v == 4:
        s, d = socket.inet_aton(src), socket.inet_aton(dst)
        pseudo = s + d + struct.pack("!BBH", 0, proto, len(l4))
    else:
        s, d = (socket.inet_pton(socket.AF_INET6, src),
                socket.inet_pton(socket.AF_INET6, dst))
        pseudo = s + d + struct.pack("!IxxxB", len(l4), proto)
    if proto == 1:
        pseudo = b""
    c = csum(pseudo + l4)
    l4 = l4[:off] + struct.pack("!H", c) + l4[off + 2:]
    if v == 4:
        h = struct.pack("!BBHHHBBH4s4s", 0x45, dscp << 2, 20 + len(l4), 0,
                        0, ttl,
                        proto, 0, s, d)
        return h[:10] + struct.pack("!H", csum(h)) + h[12:] + l4
    return struct.pack("!IHBB16s16s", 6 << 28 | dscp << 22, len(l4), proto,
                       ttl, s, d) + l4


def tcp(sport, dport, flags, seq=0, ack=0, pad=0):
    return struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags,
                       0xff00, 0, 0) + b"\0" * pad


def udp(sport, dport, pad=0):
    return struct.pack("!HHHH", sport, dport, 8 + pad, 0) + b"\0" * pad


def icmp(t, c, rest=b"", ident=0):
    return struct.pack("!BBHHH", t, c, 0, ident, 0) + rest


class Packet:
    """One test packet: what the kernel gets and what the VM is told."""

    def __init__(self, l3, iif):
        self.l3, self.iif = l3, iif
        self.primer = None
        self.sel = []

    def frame(self, mac):
        dst = mac["lo"] if self.iif == "lo" else mac[self.iif]
        src = mac["lo"] if self.iif == "lo" else mac["va" + self.iif[2]]
        et = 0x0800 if self.l3 == 4 else 0x86dd
        return dst + src + struct.pack("!H", et) + self.data


def make_packet(hook):
    l3 = rnd.choice(L3S)
    iif = rnd.choice(["lo", "vb1", "vb2"] if l3 == 4 else ["vb1", "vb2"])
    if hook == "output":
        # sent by the host: to a remote address out of vb1, or to a
        # local one over lo
        iif = rnd.choice(["lo", "vb1", "vb1"])
    p = Packet(l3, iif)
    p.hook = hook
    if iif == "lo":
        if hook == "output" and (l3 == 6 or rnd.random() < 0.5):
            pool = G.LOCAL4 if l3 == 4 else G.LOCAL6
            src, dst = rnd.choice(pool), rnd.choice(pool)
        else:
            src, dst = rnd.choice(G.LO4), rnd.choice(G.LO4)
    elif l3 == 4:
        src, dst = rnd.choice(G.REMOTE4), rnd.choice(G.LOCAL4)
    else:
        src, dst = rnd.choice(G.REMOTE6), rnd.choice(G.LOCAL6)
    if hook == "output" and iif != "lo":
        src, dst = dst, src
    intent = "new" if iif == "lo" else rnd.choice(
        ["new", "new", "reply", "reply", "related"])
    proto = rnd.choice(["tcp", "tcp", "udp", "icmp"])
    sport = rnd.randrange(G.SPORT_MIN, G.SPORT_MAX + 1)
    dport = rnd.choice(G.DPORTS)
    pad = rnd.choice([0, 0, 0, 8, 20, 52])
    ttl = rnd.choice([64, 64, 64, 1, 255])
    dscp = rnd.choice([0, 0, 8, 46])
    a = "ip" if l3 == 4 else "ip6"
    icmpn = "icmp" if l3 == 4 else "icmpv6"
    ipn = 1 if l3 == 4 else 58
    types = ICMP4 if l3 == 4 else ICMP6
    if intent == "related":
        proto = "icmp"
    sel = ["%s saddr %s" % (a, src), "%s daddr %s" % (a, dst),
           "%s %s" % ("ip ttl" if l3 == 4 else "ip6 hoplimit", ttl),
           "%s dscp %d" % (a, dscp)]
    if proto == "tcp":
        if intent == "reply":
            flags = rnd.choice([0x12, 0x12, 0x10, 0x04, 0x11])
            p.primer = ip_packet(l3, dst, src, 6,
                                 tcp(dport, sport, 0x02, seq=1000))
            l4 = tcp(sport, dport, flags, seq=5000, ack=1001, pad=pad)
        else:
            flags = rnd.choice([0x02, 0x02, 0x10, 0x12, 0x04, 0x11, 0x03,
                                0x18])
            l4 = tcp(sport, dport, flags, seq=5000, pad=pad)
        names = [n for n, b in TCPF.items() if flags & b]
        sel += ["tcp sport %d" % sport, "tcp dport %d" % dport,
                "tcp flags == %s" % "|".join(names)]
        data = ip_packet(l3, src, dst, 6, l4, ttl, dscp)
    elif proto == "udp":
        if intent == "reply":
            p.primer = ip_packet(l3, dst, src, 17, udp(dport, sport))
        sel += ["udp sport %d" % sport, "udp dport %d" % dport]
        data = ip_packet(l3, src, dst, 17, udp(sport, dport, pad), ttl, dscp)
    else:
        ident = rnd.randrange(1, 65536)
        if intent == "related":
            name = "destination-unreachable"
            inner = rnd.choice([17, 6])
            l4i = udp(dport, sport) if inner == 17 else \
                tcp(dport, sport, 0x02, seq=1000)
            p.primer = ip_packet(l3, dst, src, inner, l4i)
            quoted = p.primer[:(20 if l3 == 4 else 40) + 8]
            t, c = types[name]
            l4 = icmp(t, c, quoted)
        elif intent == "reply":
            name = "echo-reply"
            t, c = types["echo-request"]
            p.primer = ip_packet(l3, dst, src, ipn, icmp(t, c, b"",
                                                         ident))
            t, c = types[name]
            l4 = icmp(t, c, b"\0" * pad, ident)
        else:
            name = rnd.choice(list(types))
            t, c = types[name]
            l4 = icmp(t, c, b"\0" * pad, ident)
        sel += ["%s type %s" % (icmpn, name), "%s code %d" % (icmpn, c)]
        data = ip_packet(l3, src, dst, ipn, l4, ttl, dscp)
    p.data = data
    p.mark = rnd.choice(G.MARKS)
    if hook == "input":
        sel += ['iifname "%s"' % iif, 'iif "%s"' % iif,
                "meta iiftype %s" % ("loopback" if iif == "lo" else
                                     "ether")]
    else:
        # the raw socket's owner is root
        sel += ['oifname "%s"' % iif, 'oif "%s"' % iif,
                "meta oiftype %s" % ("loopback" if iif == "lo" else
                                     "ether"),
                "meta skuid 0", "meta skgid 0", "hook output"]
    sel += ["meta length %d" % len(data)]
    if p.mark:
        sel.append("meta mark %d" % p.mark)
    p.sel = sel
    return p


RAW = {4: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW),
       6: socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                        socket.IPPROTO_RAW)}
PKTSOCK = {}


def send_raw(l3, data, mark):
    """Out of the host (output hook) with a raw socket."""
    dst = data[16:20] if l3 == 4 else data[24:40]
    fam = socket.AF_INET if l3 == 4 else socket.AF_INET6
    RAW[l3].setsockopt(socket.SOL_SOCKET, SO_MARK, mark)
    try:
        RAW[l3].sendto(data, (socket.inet_ntop(fam, dst), 0))
    except PermissionError:
        pass	# dropped at output: the counters tell


def send_frame(p, iif, data, mac, mark):
    """Into the host (input hook) on @iif, with a packet socket."""
    dev = "lo" if iif == "lo" else "va" + iif[2]
    if dev not in PKTSOCK:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind((dev, 0))
        PKTSOCK[dev] = s
    s = PKTSOCK[dev]
    s.setsockopt(socket.SOL_SOCKET, SO_MARK, mark)
    q = Packet(p.l3, iif)
    q.data = data
    s.send(q.frame(mac))


def send(p, mac):
    """The primer takes the other path than the packet, so that only
    the packet passes the tested chains."""
    if p.hook == "input":
        if p.primer:
            send_raw(p.l3, p.primer, 0)
        send_frame(p, p.iif, p.data, mac, p.mark)
    else:
        if p.primer:
            send_frame(p, "vb1", p.primer, mac, 0)
        send_raw(p.l3, p.data, p.mark)


# ---------------------------------------------------------------- the run
def first_error(text):
    """The first error nft printed: its location, message and line."""
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if "Error:" in ln:
            return lines[i:i + 2]
    return None


def kernel_counters(fam, name):
    out = nft("list", "table", fam, name).stdout
    got = {}
    for m in re.finditer(r'counter packets (\d+) bytes (\d+).*comment '
                         r'"([a-z]\d+)"', out):
        got[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return got


def main():
    mac = setup()
    if nft("-f", "-", inp=OBS).returncode:
        print("cannot load the observer table")
        return 1
    last = obs()
    hooks = {}
    pairs = bad = lost = rounds_bad = counted = hit = refused = 0
    rounds_cut = 0
    tally = {"accept": 0, "drop": 0}
    states = {}
    t0 = time.time()
    # ROUNDS rounds with packets: rulesets refused alike come on top
    # (at most ROUNDS of them)
    for r in range(2 * ROUNDS):
        if r - refused >= ROUNDS:
            break
        hook = "output" if rnd.random() < 0.3 else "input"
        ob = OBS_BASE[hook]
        gens = [G.Gen(rnd, hook=hook)]
        if rnd.random() < 0.3:
            # a second table, its chains between and around the first's
            gens.append(G.Gen(rnd, "u", "q", (5, -5, 15), rnd.choice(
                ["ip", "ip6", "inet"]), "dag", hook))
        text = "".join(g.text() for g in gens)
        L3S[:] = sorted({v for g in gens for v in g.l3s})
        counted_names = set().union(*(g.counted for g in gens))
        state = os.path.join(WORK, "state%d" % r)
        k = nft("-f", "-", inp=text)
        o = nft("--offline", state, "-f", "-", inp=text)
        if k.returncode and o.returncode and first_error(k.stderr) == \
                first_error(o.stderr) and gens[0].mode != "dag":
            # a reachable loop or too deep: refused alike at the same
            # message (the kernel goes on to refuse every later rule of
            # the table, the VM stops at the first error)
            refused += 1
            for g in gens:
                nft("delete", "table", g.fam, g.name)
            continue
        if k.returncode or o.returncode:
            print("ruleset not loaded (kernel %d, offline %d):\n%s"
                  "kernel:\n%soffline:\n%s" % (
                      k.returncode, o.returncode, text, k.stderr, o.stderr))
            bad += 1
            for g in gens:
                nft("delete", "table", g.fam, g.name)
            continue
        vm = {}
        log = []
        truncated = False
        for _ in range(PACKETS):
            p = make_packet(hook)
            before = last
            send(p, mac)
            now = obs()
            for _ in range(20):
                if sum(now[ob + i] - before[ob + i] for i in range(4)) == 1:
                    break
                time.sleep(0.005)
                now = obs()
            d = [now[ob + i] - before[ob + i] for i in range(6)]
            last = now
            if sum(d[:4]) != 1:
                lost += 1
                print("packet not seen once by the kernel (%s): %s" % (
                    d, " ".join(p.sel)))
                continue
            st = OBS_NAMES[d[:4].index(1)]
            states[st] = states.get(st, 0) + 1
            kv = "accept" if d[5] else "drop"
            sel = list(p.sel) + ["ct state %s" % st]
            if d[4]:
                sel.append("ct direction reply")
            t = nft("--offline", state, "trace", "packet", *" ".join(
                sel).split())
            lines = t.stdout.strip().splitlines()
            vv = lines[-1].split()[-1] if lines else "error"
            if "(more steps not shown)" in t.stdout:
                truncated = True
            for ln in lines:
                m = re.search(r' rule .*comment "([a-z]\d+)" \(verdict',
                              ln)
                if m:
                    n, b = vm.get(m.group(1), (0, 0))
                    vm[m.group(1)] = (n + 1, b + len(p.data))
            log.append((" ".join(sel), kv, vv))
            pairs += 1
            tally[kv] += 1
            hooks[hook] = hooks.get(hook, 0) + 1
            if vv != kv:
                bad += 1
                print("MISMATCH kernel %s vm %s: %s\n%s%s" % (
                    kv, vv, " ".join(sel), text, t.stdout + t.stderr))
        kc = {}
        for g in gens:
            kc.update(kernel_counters(g.fam, g.name))
        counted += len([n for n in counted_names if n in kc])
        hit += len([n for n in counted_names if kc.get(n, (0, 0))[0]])
        diff = [(n, kc.get(n), vm.get(n, (0, 0))) for n in
                sorted(counted_names, key=lambda x: (x[0], int(x[1:])))
                if n in kc and kc[n] != vm.get(n, (0, 0))]
        if diff and truncated:
            # the VM's trace of some packet was cut: its hits are not
            # all known, only its verdict was compared
            rounds_cut += 1
        elif diff:
            rounds_bad += 1
            print("COUNTERS differ (rule, kernel, vm): %s\n%s" % (diff,
                                                                  text))
            for s, kv, vv in log:
                print("  %s -> kernel %s vm %s" % (s, kv, vv))
        elif VERBOSE:
            print(text)
            for s, kv, vv in log:
                print("  %s -> kernel %s vm %s" % (s, kv, vv))
            print("  counters (kernel): %s" % sorted(kc.items()))
        for g in gens:
            nft("delete", "table", g.fam, g.name)
    print("trace vs kernel: %d (ruleset, packet) pairs (%s) in %d rounds "
          "(and %d rulesets refused alike) "
          "(kernel: %d accepted, %d dropped; ct %s), %d verdict "
          "mismatches, %d rounds with counter mismatches (%d of %d "
          "counted rules hit; %d rounds with traces cut short not compared), "
          "%d packets lost, %.1f s" % (
              pairs, ", ".join("%s %d" % kv for kv in sorted(hooks.items())),
              ROUNDS, refused, tally["accept"], tally["drop"],
              ", ".join("%s %d" % kv for kv in sorted(states.items())),
              bad, rounds_bad, hit, counted, rounds_cut, lost,
              time.time() - t0))
    # both verdicts must occur, or the kernel side saw nothing
    ok = not bad and not rounds_bad and not lost and tally["accept"] and \
        tally["drop"]
    return 0 if ok else 1


L3S = [4]
sys.exit(main())
