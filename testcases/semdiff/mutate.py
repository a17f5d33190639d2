#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Single-rule mutations of an nft ruleset file, for the semdiff test.

usage: mutate.py IN.nft OUTDIR SEED COUNT
       mutate.py --packets A.nft B.nft SEED COUNT
       mutate.py --probes ORIG.nft MUT.nft KIND LINES OUTPREFIX
The second form prints COUNT IPv4 packets per hook as "raw" blocks for
testcases/semdiff/concrete (--any): header fields drawn from the
constants of both files (addresses within their prefixes, ports,
interface names), ct state one of the real states.
Writes OUTDIR/mNN.nft and prints one line per mutation:
  mNN.nft KIND EXPECT LINES
EXPECT is "change" (may change behaviour: must be found unless the rule
is shadowed) or "same" (behaviour-preserving rewrite); LINES are the
1-based lines of the mutated rule(s), where a counterexample's deciding
rule must be when the mutation is found.
"""
import random
import re
import sys

TERMINAL = re.compile(r'^(.*?)(?:counter )?(accept|drop)$')


def rules(lines):
    """Indexes of rule lines (inside chains, not headers/sets)."""
    out = []
    depth_chain = False
    for i, l in enumerate(lines):
        s = l.strip()
        if s.startswith('chain '):
            depth_chain = True
            continue
        if s == '}':
            depth_chain = False
            continue
        if not depth_chain or not s or s.startswith(('type ', 'policy')):
            continue
        if 'limit' in s or '@' in s or 'ct count' in s:
            continue    # free choices: keep the test exact
        out.append(i)
    return out


def adjacent_pairs(lines, idx):
    return [(a, b) for a, b in zip(idx, idx[1:]) if b == a + 1]


def mutate(lines, rnd, kind, idx):
    """Returns (new lines, expect, mutated line numbers) or None."""
    new = list(lines)
    if kind == 'port':
        c = [i for i in idx if re.search(r'dport \d+\b', lines[i])]
        if not c:
            return None
        i = rnd.choice(c)
        new[i] = re.sub(r'dport (\d+)\b',
                        lambda m: 'dport %d' % (int(m.group(1)) % 65535 + 1),
                        lines[i], count=1)
        return new, 'change', [i]
    if kind == 'prefix':
        c = [i for i in idx if re.search(r'addr \d+\.\d+\.\d+\.\d+', lines[i])]
        if not c:
            return None
        i = rnd.choice(c)
        new[i] = re.sub(r'addr (\d+)\.(\d+)\.(\d+)\.(\d+)',
                        lambda m: 'addr %s.%s.%d.%s' % (
                            m.group(1), m.group(2),
                            (int(m.group(3)) + 1) % 256, m.group(4)),
                        lines[i], count=1)
        return new, 'change', [i]
    if kind == 'verdict':
        c = [i for i in idx if TERMINAL.match(lines[i].strip())]
        if not c:
            return None
        i = rnd.choice(c)
        s = lines[i]
        new[i] = s[:s.rfind('accept')] + 'drop' if s.rstrip().endswith(
            'accept') else s[:s.rfind('drop')] + 'accept'
        return new, 'change', [i]
    if kind == 'delete':
        i = rnd.choice(idx)
        del new[i]
        return new, 'change', [i]
    pairs = adjacent_pairs(lines, idx)
    if kind in ('swap-dependent', 'swap-independent'):
        want_same = kind == 'swap-independent'
        c = []
        for a, b in pairs:
            ma, mb = (TERMINAL.match(lines[a].strip()),
                      TERMINAL.match(lines[b].strip()))
            if not ma or not mb:
                continue
            if (ma.group(2) == mb.group(2)) == want_same:
                c.append((a, b))
        if not c:
            return None
        a, b = rnd.choice(c)
        new[a], new[b] = lines[b], lines[a]
        return new, 'same' if want_same else 'change', [a, b]
    if kind == 'merge':
        c = []
        for a, b in pairs:
            pa = re.sub(r'dport \d+\b', 'dport X', lines[a])
            pb = re.sub(r'dport \d+\b', 'dport X', lines[b])
            if pa == pb and 'dport X' in pa and lines[a] != lines[b] and \
                    TERMINAL.match(lines[a].strip()):
                c.append((a, b))
        if not c:
            return None
        a, b = rnd.choice(c)
        pa = re.search(r'dport (\d+)\b', lines[a]).group(1)
        pb = re.search(r'dport (\d+)\b', lines[b]).group(1)
        new[a] = re.sub(r'dport \d+\b', 'dport { %s, %s }' % (pa, pb),
                        lines[a], count=1)
        del new[b]
        return new, 'same', [a, b]
    return None


ACTION = re.compile(
    r'\b(counter|log|accept|drop|return|reject|jump|goto|queue|masquerade|'
    r'snat|dnat|redirect|notrack|meta \w+ set|ct \w+ set|mark set)\b')
PROBE = 'queue num 4242'


def match_of(line):
    """The match part of a rule line (before its first statement)."""
    m = ACTION.search(line)
    return line[:m.start()].rstrip() if m else None


def probes(orig, mut, kind, lines, prefix):
    """Probe rulesets for a mutation the engine found equivalent.

    Each is ORIG with one rule inserted before the (first) mutated rule:
    the match of a rule whose outcome the mutation could change, then a
    verdict no ruleset uses (queue num 4242). ORIG against a probe is
    equivalent iff no packet reaching that point matches it; a packet
    that does is a counterexample. The rules whose match must be
    unreachable for the mutation to be harmless:
      port, prefix: the original rule's match and the mutated one's;
      verdict, delete: the original rule's match;
      swap-dependent: both rules' matches at once (only packets matching
      both are decided differently by the swap).
    A rule with no match part (a bare verdict) probes reachability.
    Prints one probe file name per line."""
    o = open(orig).read().split('\n')
    m = open(mut).read().split('\n')
    at = [int(x) - 1 for x in lines.split(',')]
    i = at[0]
    indent = o[i][:len(o[i]) - len(o[i].lstrip())]

    def part(line):
        mm = match_of(line.strip())
        return mm if mm is not None else ''

    if kind == 'delete':
        st = o[i].strip()[len(part(o[i])):].strip()
        if re.fullmatch(r'(counter\s*|log( prefix "[^"]*")?\s*)*', st):
            # no verdict, no write: the rule changes nothing
            print('NOEFFECT')
            return
    if kind in ('port', 'prefix'):
        want = [part(o[i]), part(m[i])]
    elif kind == 'swap-dependent':
        want = [(part(o[at[0]]) + ' ' + part(o[at[1]])).strip()]
    else:
        want = [part(o[i])]
    family = 'ip'
    for j in range(i, -1, -1):
        t = re.match(r'\s*table (\w+) ', o[j])
        if t:
            family = t.group(1)
            break
    for n, w in enumerate(want):
        p = list(o)
        p.insert(i, indent + (w + ' ' if w else '') + PROBE)
        name = '%s-p%d.nft' % (prefix, n)
        with open(name, 'w') as f:
            f.write('\n'.join(p))
        # the match alone, in a base chain of every hook, and the
        # same without it: their differences are packets that hit it
        for suffix, rule in (('hit', w + ' ' + PROBE), ('none', '')):
            with open('%s-p%d-%s.nft' % (prefix, n, suffix), 'w') as f:
                f.write('table %s probe {\n' % family)
                for h in ('prerouting', 'input', 'forward', 'output',
                          'postrouting'):
                    f.write('\tchain %s {\n\t\ttype filter hook %s '
                            'priority 0; policy accept;\n\t\t%s\n\t}\n'
                            % (h, h, rule))
                f.write('}\n')
        print(name)


def packets(a, b, seed, count):
    text = open(a).read() + open(b).read()
    rnd = random.Random(seed)
    nets = [(m.group(1), int(m.group(2) or 32)) for m in re.finditer(
        r'(\d+\.\d+\.\d+\.\d+)(?:/(\d+))?', text)]
    ports = [int(p) for p in re.findall(r'port (\d+)', text)]
    ports += [int(p) for p in re.findall(r'(\d+)-\d+', text)]
    names = re.findall(r'ifname "([^"]*)"', text) + ['', 'x']

    def addr():
        if not nets or rnd.random() < 0.1:
            return [rnd.randrange(256) for _ in range(4)]
        base, plen = rnd.choice(nets)
        v = 0
        for o in base.split('.'):
            v = v << 8 | int(o)
        v = (v & ~((1 << (32 - plen)) - 1)) | \
            rnd.randrange(1 << (32 - plen)) if plen < 32 else v
        return [(v >> s) & 0xff for s in (24, 16, 8, 0)]

    def port():
        p = rnd.choice(ports) if ports and rnd.random() < 0.8 \
            else rnd.randrange(65536)
        p = (p + rnd.choice((0, 0, 0, 1, -1))) % 65536
        return [p >> 8, p & 0xff]

    def name():
        n = rnd.choice(names).encode()[:15]
        return list(n) + [0] * (16 - len(n))

    def hx(b):
        return ''.join('%02x' % x for x in b)

    for hook in range(5):
        for _ in range(count):
            nh = [0x45] + [0] * 19
            nh[9] = rnd.choice((6, 6, 17, 17, 1, 47))
            nh[8] = rnd.randrange(256)
            nh[12:16] = addr()
            nh[16:20] = addr()
            th = port() + port() + [rnd.randrange(256) for _ in range(16)]
            th[13] = rnd.choice((2, 16, 18, 1, 4, rnd.randrange(256)))
            state = rnd.choice((1, 2, 4, 8, 64))
            print('    raw-hook 2 %d' % hook)
            print('    raw 0 1 0 - ' + hx(nh))
            print('    raw 0 2 0 - ' + hx(th))
            print('    raw 1 6 0 - ' + hx(name()))
            print('    raw 1 7 0 - ' + hx(name()))
            print('    raw 2 0 0 - ' + hx([state, 0, 0, 0]))


def main():
    if sys.argv[1] == '--probes':
        probes(*sys.argv[2:7])
        return
    if sys.argv[1] == '--packets':
        packets(sys.argv[2], sys.argv[3], int(sys.argv[4]),
                int(sys.argv[5]))
        return
    src, outdir, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        int(sys.argv[4])
    lines = open(src).read().split('\n')
    idx = rules(lines)
    rnd = random.Random(seed)
    kinds = ['port', 'prefix', 'verdict', 'delete', 'swap-dependent',
             'swap-independent', 'merge']
    n = 0
    tries = 0
    while n < count and tries < count * 20 and idx:
        tries += 1
        kind = kinds[tries % len(kinds)] if tries <= len(kinds) \
            else rnd.choice(kinds)
        r = mutate(lines, rnd, kind, idx)
        if not r:
            continue
        new, expect, where = r
        name = 'm%02d.nft' % n
        with open('%s/%s' % (outdir, name), 'w') as f:
            f.write('\n'.join(new))
        print(name, kind, expect, ','.join(str(i + 1) for i in where))
        n += 1


if __name__ == '__main__':
    main()
