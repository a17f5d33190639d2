#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Replay semdiff counterexamples through the kernel (mutations.sh).

usage (root, inside a private network namespace: unshare -n):
    kernel_replay.py NFT MAX PAIRS-FILE
PAIRS-FILE: lines "OLD.nft NEW.nft DIFF-OUTPUT" (ipt2nft diff --raw).
Free choices are allowed only as limits not reached (a fresh kernel's
first packet passes them).

For each pair, the first counterexample of the input hook that a packet
on a wire can carry (IPv4 TCP/UDP, addresses that are not martians,
ct state new or open, an input interface name, no free choices, one
side accepting) is sent as an Ethernet frame into a veth whose far end
is named as the packet's input interface and holds its destination
address. Each side's ruleset is loaded in turn with stock nft, next to
a table "obs" that counts the packet where the input hook starts
(priority -1000: it got there) and where it ends (priority 1000: it was
accepted). The kernel's accept/not accept must be the counterexample's
"old:"/"new:" outcome; a packet that does not reach the input hook
(dropped in prerouting) is not counted either way.
Stops after MAX replayed counterexamples. Prints one line per replay
and "kernel replay: N replayed, M agree"; exit 1 on a disagreement.
"""
import re
import socket
import struct
import subprocess
import sys

NFT = sys.argv[1]
MAX = int(sys.argv[2])
OBS = """table inet obs {
	chain first { type filter hook input priority -1000; counter; }
	chain last { type filter hook input priority 1000; counter; }
}
"""


def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def martian(a):
    o = [int(x) for x in a.split('.')]
    return o[0] in (0, 127) or o[0] >= 224 or a == '255.255.255.255'


SEL = re.compile(r'(ip saddr|ip daddr|ip protocol|ip frag-off|'
                 r'tcp sport|tcp dport|tcp flags|udp sport|udp dport|'
                 r'meta iifname|ct state) ("[^"]*"|\S+)')


def parse(block):
    """Selectors of a "trace packet" line, or None if not carriable."""
    m = re.match(r'\s*trace packet (.*) hook (\w+)$', block)
    if not m or m.group(2) != 'input':
        return None
    # limits not reached (the rule goes on): what a fresh kernel does
    # for one packet; any other note cannot be carried
    text = re.sub(r' \[free choice [^\]]*/limit rate [^\]]* flags 0x0 '
                  r'#\d+ = 1\]', '', m.group(1))
    if '[' in text:
        return None
    sel = {}
    pos = 0
    for t in SEL.finditer(text):
        if text[pos:t.start()].strip():
            return None     # a selector this replay cannot carry
        sel[t.group(1)] = t.group(2).strip('"')
        pos = t.end()
    if text[pos:].strip():
        return None
    proto = sel.get('ip protocol', '')
    if proto not in ('6', '17') or sel.get('ct state', 'new') != 'new':
        return None
    if sel.get('ip frag-off', '0') != '0':
        return None
    src, dst = sel.get('ip saddr', '10.9.0.1'), sel.get('ip daddr', '10.9.0.2')
    if martian(src) or martian(dst):
        return None
    sel['ip saddr'], sel['ip daddr'] = src, dst
    ifn = sel.get('meta iifname', 'vb0')
    if not ifn or len(ifn) > 15 or not re.fullmatch(r'[\w.-]+', ifn) or \
            ifn in ('lo', 'va0'):
        return None
    sel['meta iifname'] = ifn
    return sel


def frame(sel, smac, dmac):
    proto = int(sel['ip protocol'])
    src = socket.inet_aton(sel['ip saddr'])
    dst = socket.inet_aton(sel['ip daddr'])
    p = 'tcp' if proto == 6 else 'udp'
    sport = int(sel.get(p + ' sport', 40000))
    dport = int(sel.get(p + ' dport', 40001))
    if proto == 6:
        flags = int(sel.get('tcp flags', '2'), 0)
        l4 = struct.pack('!HHIIBBHHH', sport, dport, 1, 0, 5 << 4, flags,
                         1024, 0, 0)
    else:
        l4 = struct.pack('!HHHH', sport, dport, 8, 0)
    pseudo = src + dst + struct.pack('!BBH', 0, proto, len(l4))
    c = csum(pseudo + l4)
    off = 16 if proto == 6 else 6
    l4 = l4[:off] + struct.pack('!H', c or 0xffff) + l4[off + 2:]
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(l4), 1, 0, 64,
                     proto, 0, src, dst)
    ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
    return dmac + smac + b'\x08\x00' + ip + l4


MAC_A, MAC_B = '02:00:00:00:00:0a', '02:00:00:00:00:0b'


def mac(m):
    return bytes.fromhex(m.replace(':', ''))


def counters():
    out = sh(NFT, 'list', 'table', 'inet', 'obs').stdout
    return [int(x) for x in re.findall(r'counter packets (\d+)', out)]


def replay(ruleset, sel):
    """'accept', 'not accept', or None (did not reach input)."""
    ifn = sel['meta iifname']
    sh('ip', 'link', 'del', 'va0')
    # MACs given (sysfs shows the namespace it was mounted in)
    r = sh('ip', 'link', 'add', 'va0', 'address', MAC_A, 'type', 'veth',
           'peer', 'name', ifn, 'address', MAC_B)
    if r.returncode:
        return None
    for cmd in (('ip', 'link', 'set', 'va0', 'up'),
                ('ip', 'link', 'set', ifn, 'up'),
                ('ip', 'addr', 'add', sel['ip daddr'] + '/32', 'dev', ifn),
                ('ip', 'route', 'add', sel['ip saddr'] + '/32', 'dev', ifn),
                ('sysctl', '-qw', 'net.ipv4.conf.all.rp_filter=0'),
                ('sysctl', '-qw', 'net.ipv4.conf.%s.rp_filter=0'
                 % ifn.replace('.', '/')),
                # a source that is our own address (the counterexample
                # may have saddr == daddr): not a martian then
                ('sysctl', '-qw', 'net.ipv4.conf.all.accept_local=1'),
                ('sysctl', '-qw', 'net.ipv4.conf.%s.accept_local=1'
                 % ifn.replace('.', '/'))):
        sh(*cmd)
    sh(NFT, 'flush', 'ruleset')
    r = subprocess.run([NFT, '-f', '-'], input=open(ruleset).read() + OBS,
                       capture_output=True, text=True)
    if r.returncode:
        return None
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind(('va0', 0))
    s.send(frame(sel, mac(MAC_A), mac(MAC_B)))
    s.close()
    for _ in range(50):
        c = counters()
        if len(c) == 2 and c[0]:
            break
        subprocess.run(['sleep', '0.02'])
    sh('ip', 'link', 'del', 'va0')
    if len(c) != 2 or not c[0]:
        return None
    return 'accept' if c[1] else 'not accept'


def main():
    sh('ip', 'link', 'set', 'lo', 'up')
    done = agree = 0
    bad = False
    for line in open(sys.argv[3]):
        if done >= MAX:
            break
        old, new, out = line.split()
        text = open(out).read().split('\n')
        for i, l in enumerate(text):
            sel = parse(l) if 'trace packet' in l else None
            if not sel:
                continue
            want = {}
            for l2 in text[i + 1:i + 20]:
                m = re.match(r'\s+(old|new): (\S+)', l2)
                if m and m.group(1) not in want:
                    want[m.group(1)] = m.group(2)
            if len(want) != 2 or 'accept' not in want.values() or \
                    want['old'] == want['new']:
                continue
            got = {k: replay(f, sel) for k, f in (('old', old),
                                                  ('new', new))}
            if None in got.values():
                continue
            done += 1
            exp = {k: 'accept' if v == 'accept' else 'not accept'
                   for k, v in want.items()}
            ok = got == exp
            agree += ok
            print('%s %s: %s; engine old %s new %s, kernel old %s new %s'
                  % ('ok  ' if ok else 'FAIL', new, l.strip(), want['old'],
                     want['new'], got['old'], got['new']))
            bad |= not ok
            break
    print('kernel replay: %d replayed, %d agree' % (done, agree))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
