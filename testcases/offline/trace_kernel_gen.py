# SPDX-License-Identifier: GPL-2.0-or-later
"""Random rulesets for trace-kernel.sh (the differential test of the
offline VM against the kernel).

A ruleset is one table of family ip, ip6 or inet with one or two input
base chains, up to three user chains (jumps and gotos only go from a
chain to a later one, so there is never a loop) and named sets, maps
and verdict maps. Every rule ends in a comment "rN"; every rule whose
last statement before the verdict can only be reached by a packet that
matched the whole rule also carries a counter there, so that the
kernel's counter equals the number of times the VM's trace shows the
rule (and the bytes the sum of those packets' lengths).

Everything is drawn from pools of addresses and ports (PKT below) that
the packets use too, so matches and misses both happen. Interval pools
are disjoint, so sets and concatenated-interval sets never overlap.
"""

# Addresses the packets use. Remote sources arrive on the veths, local
# destinations are the veths' addresses; loopback packets use 127/8.
REMOTE4 = ["10.1.0.%d" % i for i in range(1, 7)]
LOCAL4 = ["10.2.0.1", "10.2.0.2", "10.2.0.3"]
LO4 = ["127.0.0.%d" % i for i in range(1, 5)]
REMOTE6 = ["fd00:1::%d" % i for i in range(1, 7)]
LOCAL6 = ["fd00:2::1", "fd00:2::2", "fd00:2::3"]
DPORTS = [22, 53, 80, 443, 3000, 8080]
SPORT_MIN, SPORT_MAX = 30000, 65535
MARKS = [0, 0, 1, 2, 3, 0x10]
IFACES = ["lo", "vb1", "vb2"]

# disjoint items for interval sets
IVAL4 = ["10.1.0.0/30", "10.1.0.4", "10.1.0.5-10.1.0.6", "10.2.0.1",
         "10.2.0.2-10.2.0.3", "127.0.0.1", "127.0.0.2/31", "127.0.0.4"]
IVAL6 = ["fd00:1::/126", "fd00:1::4", "fd00:1::5-fd00:1::6", "fd00:2::1",
         "fd00:2::2-fd00:2::3"]
IVALP = ["22", "53", "80-100", "443", "1000-2999", "3000", "8000-8100",
         "30000-40000", "40001-50000", "60000-65535"]
SINGLE4 = REMOTE4 + LOCAL4 + LO4
SINGLE6 = REMOTE6 + LOCAL6
PREFIX4 = ["10.1.0.0/30", "10.1.0.4/31", "10.1.0.0/29", "10.2.0.0/30",
           "127.0.0.0/30", "10.0.0.0/8", "0.0.0.0/0"]
PREFIX6 = ["fd00:1::/126", "fd00:1::4/127", "fd00:1::/125", "fd00:2::/126",
           "fd00::/16", "::/0"]
RANGE4 = ["10.1.0.2-10.1.0.5", "10.2.0.1-10.2.0.2", "127.0.0.2-127.0.0.4"]
RANGE6 = ["fd00:1::2-fd00:1::5", "fd00:2::1-fd00:2::2"]
TCPFLAGS = ["syn", "ack", "rst", "fin", "psh"]
ICMP4T = ["echo-request", "echo-reply", "destination-unreachable",
          "time-exceeded"]
ICMP6T = ["echo-request", "echo-reply", "destination-unreachable",
          "time-exceeded"]
CTSTATES = ["new", "established", "related", "invalid"]


class Gen:
    """One ruleset: text() and the rule comments that carry counters."""

    def __init__(self, rnd, name="t", prefix="r", prios=(0, -10, 10),
                 fam=None, mode=None, hook="input"):
        self.r = rnd
        self.name, self.prefix, self.prios = name, prefix, prios
        self.hook = hook
        self.fam = fam or rnd.choice(["ip", "ip6", "inet", "inet"])
        self.l3s = {"ip": [4], "ip6": [6], "inet": [4, 6]}[self.fam]
        self.n = 0
        self.counted = set()
        # dag: jumps only go to later chains; any: to any user chain
        # (loops happen: both sides must refuse the ruleset alike);
        # deep: a path base -> s1 -> ... -> sN around the jump limit
        self.mode = mode or rnd.choice(["dag"] * 17 + ["any", "any",
                                                       "deep"])
        self.nsub = (rnd.randrange(13, 19) if self.mode == "deep" else
                     rnd.randrange(1, 4))

    # ------------------------------------------------------------ pools
    def pick(self, seq, k=None):
        if k is None:
            return self.r.choice(seq)
        return self.r.sample(seq, min(k, len(seq)))

    def anon(self, items):
        return "{ %s }" % ", ".join(str(i) for i in items)

    def addr(self, l3, sets):
        """An address expression: value, prefix, range, set, negations."""
        single, pref, rng, ival = ((SINGLE4, PREFIX4, RANGE4, IVAL4)
                                   if l3 == 4 else
                                   (SINGLE6, PREFIX6, RANGE6, IVAL6))
        k = self.r.randrange(10)
        neg = "!= " if self.r.random() < 0.2 else ""
        if k == 8:
            return self.pick(["& 0.0.0.3 == 0.0.0.1",
                              "& 255.255.255.254 != 10.1.0.2"] if l3 == 4
                             else ["& ::3 == ::1", "& ffff:: == fd00::"])
        if k == 0: return neg + self.pick(single)
        if k == 1: return neg + self.pick(pref)
        if k == 2: return neg + self.pick(rng)
        if k == 3: return neg + self.anon(self.pick(single,
                                                  self.r.randrange(1, 4)))
        if k == 4: return neg + self.anon(self.pick(ival,
                                                  self.r.randrange(1, 4)))
        if k == 5: return neg + "@a%d" % l3
        if k == 6: return neg + "@h%d" % l3
        return self.pick(single)

    def port(self):
        k = self.r.randrange(8)
        neg = "!= " if self.r.random() < 0.2 else ""
        if k == 0: return neg + str(self.pick(DPORTS))
        if k == 1: return neg + self.anon(self.pick(DPORTS,
                                                  self.r.randrange(2, 4)))
        if k == 2: return neg + self.anon(self.pick(IVALP,
                                                  self.r.randrange(1, 4)))
        if k == 3: return neg + "@p"
        if k == 4:
            a, b = sorted(self.pick(DPORTS, 2))
            return neg + "%d-%d" % (a, b)
        if k == 5: return self.pick(["< 1024", ">= 3000", "> 40000",
                                     "<= 53"])
        return str(self.pick(DPORTS))

    # ------------------------------------------------------------ matches
    def l4_match(self, l3, l4, th=True):
        r = self.r
        if l4 in ("tcp", "udp"):
            k = r.randrange(6 if th else 2)
            if k == 0: return "%s sport %s" % (l4, self.sport())
            if k == 1 and l4 == "tcp": return self.tcpflags()
            if k == 2:
                return "meta l4proto { tcp, udp } th dport %s" % self.port()
            return "%s dport %s" % (l4, self.port())
        if l4 == "icmp":
            k = r.randrange(3)
            if k == 0: return "icmp type %s" % self.pick(ICMP4T)
            if k == 1: return "icmp type %s" % self.anon(
                self.pick(ICMP4T, 2))
            return "icmp code %s" % self.pick(["0", "3", "!= 0"])
        if l4 == "icmpv6":
            k = r.randrange(3)
            if k == 0: return "icmpv6 type %s" % self.pick(ICMP6T)
            if k == 1: return "icmpv6 type %s" % self.anon(
                self.pick(ICMP6T, 2))
            return "icmpv6 code %s" % self.pick(["0", "4", "!= 0"])
        return None

    def sport(self):
        return self.pick(["30000-45000", "> 50000", "!= 30000-40000",
                          self.anon(self.pick(IVALP[6:], 2))])

    def tcpflags(self):
        f = self.pick(TCPFLAGS)
        k = self.r.randrange(5)
        if k == 0: return "tcp flags %s" % f
        if k == 1: return "tcp flags & (syn | ack) == syn | ack"
        if k == 2: return "tcp flags == %s" % f
        if k == 3: return "tcp flags & (fin | syn | rst | ack) != syn"
        return "tcp flags { syn, ack, syn | ack }"

    def meta_match(self, l3, l4):
        r = self.r
        k = r.randrange(17)
        if k == 12: return "meta iiftype %s" % self.pick(
            ["loopback", "ether", "!= loopback"])
        if k == 13: return "meta pkttype %s" % self.pick(
            ["host", "!= host", "{ broadcast, multicast }"])
        if k == 14 and l3:
            return "%s dscp %s" % ("ip" if l3 == 4 else "ip6", self.pick(
                ["cs1", "ef", "!= 0", "{ cs1, ef }", "0"]))
        if k == 15:
            return "meta mark %s" % self.pick(["1-3", "!= 2-16",
                                               "> 0x2"])
        if k == 16:
            # a socket at output (root's), none at input
            return "meta %s %s" % (self.pick(["skuid", "skgid"]),
                                   self.pick(["0", "!= 0", "{ 0, 1 }",
                                              "1000"]))
        if k == 0: return 'iifname "%s"' % self.pick(IFACES)
        if k == 1: return 'iifname "vb*"'
        if k == 2: return 'iifname != { "lo", "%s" }' % self.pick(IFACES)
        if k == 3: return 'iif "%s"' % self.pick(IFACES)
        if k == 4: return 'iif != "lo"'
        if k == 5: return 'oifname %s"lo"' % self.pick(["", "!= "])
        if k == 6: return 'oif %s"lo"' % self.pick(["", "!= "])
        if k == 7: return "meta mark %s" % self.pick(
            ["1", "!= 0", "{ 2, 3 }", "& 0x2 == 0x2", "0x10", "0"])
        if k == 8: return "meta length %s" % self.pick(
            ["< 60", "50-100", "> 80", "!= 40", "{ 40, 48, 60 }"])
        if k == 9:
            return "meta l4proto %s" % (l4 if l4 else self.anon(
                self.pick(["tcp", "udp", "icmp", "ipv6-icmp"], 2)))
        if k == 10 and l3:
            return "%s %s" % ("ip ttl" if l3 == 4 else "ip6 hoplimit",
                              self.pick(["64", "< 10", "!= 255", "255"]))
        return None

    def raw_match(self, l4):
        """A raw payload match (@nh/@th, bit offsets, masks) on bytes
        the kernel's and the VM's packets share: no checksums, sequence
        numbers or ICMP ids (the VM's packets leave them zero)."""
        nh = ["@nh,64,8 64", "@nh,64,8 < 10", "@nh,0,4 4", "@nh,4,4 5",
              "@nh,8,8 & 0xfc == 0x20", "@nh,72,8 6",
              "@nh,96,32 0x0a010001", "@nh,16,16 > 60", "@nh,6,6 8",
              "@nh,1,3 != 0", "@nh,4,8 != 0"]
        th = ["@th,0,16 > 50000", "@th,16,16 { 22, 53 }",
              "@th,16,12 & 0xff0 == 0x10"]
        tcp = ["@th,100,4 5", "@th,104,8 & 0x12 == 0x12",
               "@th,112,16 0xff00", "@th,107,3 != 0"]
        udp = ["@th,32,16 > 20"]
        pool = nh + (th if l4 in ("tcp", "udp") else []) + \
            (tcp if l4 == "tcp" else []) + (udp if l4 == "udp" else [])
        return self.pick(pool)

    def ct_match(self):
        k = self.r.randrange(7)
        if k == 0: return "ct state %s" % self.pick(CTSTATES)
        if k == 1: return "ct state %s" % self.anon(self.pick(CTSTATES, 2))
        if k == 2: return "ct state != %s" % self.pick(CTSTATES)
        if k == 3: return "ct direction %s" % self.pick(["original",
                                                          "reply"])
        if k == 4: return "ct mark %s" % self.pick(["0", "5", "!= 5"])
        return "ct state %s" % self.pick(["new", "established"])

    def concat(self, l3, l4):
        a = "ip" if l3 == 4 else "ip6"
        single = SINGLE4 if l3 == 4 else SINGLE6
        k = self.r.randrange(4)
        if l4 in ("tcp", "udp") and k == 0:
            return "%s saddr . %s dport @c%d" % (a, l4, l3)
        if l4 in ("tcp", "udp") and k == 1:
            return "%s saddr . %s dport @ci%d" % (a, l4, l3)
        if l4 in ("tcp", "udp") and k == 2:
            els = ["%s . %s" % (self.pick(single), self.pick(DPORTS))
                   for _ in range(3)]
            return "%s saddr . %s dport %s" % (a, l4,
                                               self.anon(sorted(set(els))))
        if k == 3:
            els = ["%s . %d" % (self.pick(["tcp", "udp"]),
                                self.pick(DPORTS)) for _ in range(3)]
            return "meta l4proto . th dport %s" % self.anon(
                sorted(set(els)))
        els = ['"%s" . %s' % (self.pick(IFACES), self.pick(single))
               for _ in range(3)]
        return "iifname . %s saddr %s" % (a, self.anon(sorted(set(els))))

    # ------------------------------------------------------------ rules
    def targets(self, chain):
        """The user chains a rule of chain number @chain may jump to."""
        first = 1 if self.mode == "any" else chain + 1
        return ["s%d" % i for i in range(first, self.nsub + 1)]

    def verdict(self, chain, l4):
        """A verdict for a rule in chain number @chain (0 = base)."""
        subs = self.targets(chain)
        v = ["accept", "drop", "accept", "drop", "", "reject"]
        if l4 == "tcp":
            v.append("reject with tcp reset")
        if chain:
            v += ["return"]
        if subs:
            v += ["jump " + self.pick(subs), "goto " + self.pick(subs),
                  "jump " + self.pick(subs)]
        return self.pick(v)

    def vmap(self, chain, l3, l4):
        subs = self.targets(chain)
        vv = ["accept", "drop"] + ["jump " + s for s in subs] + \
             ["goto " + s for s in subs]
        a = "ip" if l3 == 4 else "ip6"
        single = SINGLE4 if l3 == 4 else SINGLE6
        ival = IVAL4 if l3 == 4 else IVAL6
        k = self.r.randrange(6)
        if k == 0 and l4 in ("tcp", "udp"):
            key, items = "%s dport" % l4, self.pick(IVALP, 3)
        elif k == 1 and l4 in ("tcp", "udp") and chain == 0:
            return "%s dport vmap @vm" % l4
        elif k == 2:
            key, items = "ct state", self.pick(CTSTATES, 3)
        elif k == 3:
            key, items = "%s saddr" % a, self.pick(ival, 3)
        elif k == 4:
            key = "iifname"
            items = ['"%s"' % i for i in self.pick(IFACES, 2)]
        else:
            key, items = "meta mark", [str(m) for m in self.pick(
                sorted(set(MARKS)), 3)]
        els = ["%s : %s" % (i, self.pick(vv)) for i in items]
        return "%s vmap %s" % (key, self.anon(els))

    def stmt(self, l3, l4):
        """A statement that changes what later rules see, or nothing."""
        k = self.r.randrange(10)
        if k == 0: return "meta mark set %s" % self.pick(["1", "0x10", "3"])
        if k == 1: return "meta mark set meta mark | 0x2"
        if k == 2 and l3 == 4: return "meta mark set ip saddr map @mm4"
        if k == 3:
            a = "ip" if l3 == 4 else "ip6"
            single = SINGLE4 if l3 == 4 else SINGLE6
            els = ["%s : %d" % (x, i + 1) for i, x in
                   enumerate(self.pick(single, 3))]
            return "meta mark set %s daddr map %s" % (a, self.anon(els))
        if k == 4: return "ct mark set 5"
        a = "ip" if l3 == 4 else "ip6"
        if k == 5:
            return "meta mark set jhash %s saddr%s mod %d seed 0x%x%s" % (
                a, " . %s dport" % l4 if l4 in ("tcp", "udp") else "",
                self.r.choice([2, 3, 4]), self.r.randrange(1 << 32),
                self.r.choice(["", " offset 1"]))
        if k == 6: return "%s dscp set %s" % (a, self.pick(["cs1", "ef",
                                                               "0"]))
        if k == 7 and l4 in ("tcp", "udp"):
            return "%s dport set %d" % (l4, self.pick(DPORTS))
        if k == 8: return "meta mark set ct mark"
        return None

    def rule(self, chain):
        r = self.r
        l3 = r.choice(self.l3s + [None]) if self.fam == "inet" else \
            r.choice(self.l3s + self.l3s + [None])
        l4 = r.choice(["tcp", "udp", None,
                       "icmp" if l3 == 4 else "icmpv6" if l3 == 6 else None])
        parts = []
        for _ in range(r.randrange(0 if l3 or l4 else 1, 3)):
            k = r.randrange(6)
            m = None
            if k == 5:
                m = self.raw_match(l4)
            elif k == 0 and l3:
                m = "%s %s %s" % ("ip" if l3 == 4 else "ip6",
                                  r.choice(["saddr", "daddr"]),
                                  self.addr(l3, True))
            elif k == 1:
                m = self.meta_match(l3, l4)
            elif k == 2:
                m = self.ct_match()
            elif k == 3 and l3:
                m = self.concat(l3, l4)
            elif l3 and l4 is None:
                m = "%s saddr %s" % ("ip" if l3 == 4 else "ip6",
                                     self.addr(l3, True))
            if m:
                parts.append(m)
        use_vmap = r.random() < 0.12
        # "th dport" and a "udp dport" vmap conflict: no th then
        m = self.l4_match(l3, l4, th=not use_vmap)
        if m:
            parts.append(m)
            if " th " in m:
                l4 = None	# tcp or udp: no tcp-only statements
        if l3 and not parts:
            parts.append("%s version %d" % ("ip" if l3 == 4 else "ip6",
                                             l3))
        self.n += 1
        name = "%s%d" % (self.prefix, self.n)
        if use_vmap:
            parts.append(self.vmap(chain, l3 or self.pick(self.l3s), l4))
        else:
            s = self.stmt(l3 or self.pick(self.l3s), l4)
            if s:
                parts.append(s)
            parts.append("counter")
            self.counted.add(name)
            v = self.verdict(chain, l4)
            if v:
                parts.append(v)
        return " ".join(parts) + ' comment "%s"' % name

    def link(self, to):
        """A rule of the deep path: most packets go on to s@to."""
        self.n += 1
        name = "%s%d" % (self.prefix, self.n)
        self.counted.add(name)
        return "%scounter jump s%d comment \"%s\"" % (
            self.pick(["", "", "meta l4proto != icmp "]), to, name)

    # ------------------------------------------------------------ sets
    def sets(self):
        r, out = self.r, []
        subs = ["s%d" % self.nsub]
        for l3 in self.l3s:
            typ = "ipv4_addr" if l3 == 4 else "ipv6_addr"
            ival, single = ((IVAL4, SINGLE4) if l3 == 4 else
                            (IVAL6, SINGLE6))
            out.append("set a%d { type %s; flags interval; elements = %s }"
                       % (l3, typ, self.anon(self.pick(
                           ival, r.randrange(1, 5)))))
            out.append("set h%d { type %s; elements = %s }" % (
                l3, typ, self.anon(self.pick(single, r.randrange(1, 6)))))
            els = sorted({"%s . %s" % (r.choice(single), r.choice(DPORTS))
                          for _ in range(4)})
            out.append("set c%d { type %s . inet_service; elements = %s }"
                       % (l3, typ, self.anon(els)))
            pairs = sorted({(r.randrange(len(ival)), r.randrange(len(IVALP)))
                            for _ in range(4)})
            out.append("set ci%d { type %s . inet_service; flags interval; "
                       "elements = %s }" % (l3, typ, self.anon(
                           "%s . %s" % (ival[a], IVALP[p])
                           for a, p in pairs)))
            if l3 == 4:
                out.append("map mm4 { type ipv4_addr : mark; flags "
                           "interval; elements = %s }" % self.anon(
                               "%s : %d" % (x, r.choice([1, 2, 3, 0x10]))
                               for x in self.pick(IVAL4, 3)))
        out.append("set p { type inet_service; flags interval; "
                   "elements = %s }" % self.anon(self.pick(
                       IVALP, r.randrange(1, 5))))
        vv = ["accept", "drop", "jump " + subs[0], "goto " + subs[0]]
        out.append("map vm { type inet_service : verdict; flags interval; "
                   "elements = %s }" % self.anon(
                       "%s : %s" % (p, r.choice(vv))
                       for p in self.pick(IVALP, 4)))
        return out

    def text(self):
        r = self.r
        body = ["\t" + s for s in self.sets()]
        # user chains first: a chain's rules only jump to later chains,
        # and the named vmap jumps to the last one, which never uses it
        chains = []
        for i in range(1, self.nsub + 1):
            rules = [self.rule(i) for _ in range(r.randrange(1, 5))]
            if i == self.nsub:
                rules = [x for x in rules if "@vm" not in x]
            if self.mode == "deep" and i < self.nsub:
                rules.insert(r.randrange(len(rules) + 1), self.link(i + 1))
            chains.append(("s%d" % i, None, rules))
        bases = [("in", self.prios[0])]
        if r.random() < 0.3:
            bases.append(("in2", r.choice(self.prios[1:])))
        for name, prio in bases:
            rules = [self.rule(0) for _ in range(r.randrange(2, 9))]
            if self.mode == "deep" and name == "in":
                rules.insert(r.randrange(len(rules) + 1), self.link(1))
            chains.append((name, "type filter hook " + self.hook +
                           " priority %d; "
                           "policy %s;" % (prio, r.choice(["accept",
                                                            "drop"])),
                           rules))
        for name, hdr, rules in chains:
            body.append("\tchain %s {" % name)
            if hdr:
                body.append("\t\t" + hdr)
            body += ["\t\t" + x for x in rules]
            body.append("\t}")
        return "table %s %s {\n%s\n}\n" % (self.fam, self.name,
                                            "\n".join(body))
