// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xt-compat fallback: the statements iptables-nft 1.8.9 never writes
 * natively (it uses the xtables "match"/"target" expressions for them)
 * are taken out of a rule's evaluated IR and returned as the xtables
 * kernel structures iptables-nft would have written, so stock
 * iptables-nft-save can read nftkit's rules. One row per extension.
 * Everything else (addresses, interfaces, protocol, single ports and
 * ranges, counters, limits, verdicts) stays native, as in iptables-nft.
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/xt_conntrack.h>
#include <linux/netfilter/xt_state.h>
#include <linux/netfilter/xt_LOG.h>
#include <linux/netfilter/xt_multiport.h>
#include <linux/netfilter/xt_addrtype.h>
#include <linux/netfilter/xt_owner.h>
#include <linux/netfilter/xt_mark.h>
#include <linux/netfilter/xt_mac.h>
#include <linux/netfilter/xt_CT.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv4/ipt_REJECT.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include <linux/netfilter_ipv6/ip6t_REJECT.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include "compat.h"
#include "rule.h"
#include "stmt.h"
#include "printer.h"

#define ARRAY_N(a)	(sizeof(a) / sizeof((a)[0]))

static char *stmt_text(uint8_t family, const struct stmt *s,
		       unsigned int flags)
{
	return compat_stmt_text(family, s, NFTC_OUTPUT_STATELESS | flags);
}

/* "SEL [!= |! ]VALUE": the value, *inv set; NULL if not SEL. */
static const char *after_sel(const char *text, const char *sel, bool *inv)
{
	size_t n = strlen(sel);

	if (strncmp(text, sel, n) || text[n] != ' ')
		return NULL;
	text += n + 1;
	*inv = false;
	if (!strncmp(text, "!= ", 3) || !strncmp(text, "! ", 2)) {
		*inv = true;
		text += text[1] == '=' ? 3 : 2;
	}
	return text;
}

/* Comma separated names of @tab in @s: their bits, 0 if any unknown. */
static uint32_t name_bits(const char *s, const char *const *tab,
			  unsigned int n)
{
	uint32_t bits = 0;
	unsigned int i;
	size_t len;

	while (*s) {
		len = strcspn(s, ",");
		for (i = 0; i < n; i++) {
			if (tab[i] && strlen(tab[i]) == len &&
			    !strncmp(s, tab[i], len))
				break;
		}
		if (i == n)
			return 0;
		bits |= 1u << i;
		s += len + (s[len] == ',');
	}
	return bits;
}

static int xt_add(struct compat_xt_list *l, bool target, const char *name,
		  uint8_t rev, const void *data, uint32_t len)
{
	struct compat_xt *v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	l->v = v;
	v = &l->v[l->n];
	memset(v, 0, sizeof(*v));
	v->target = target;
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->rev = rev;
	v->len = XT_ALIGN(len);
	v->data = calloc(1, v->len);
	if (!v->data)
		return -ENOMEM;
	memcpy(v->data, data, len);
	l->n++;
	return 0;
}

/* ct state bits by bit number (XT_STATE_BIT, same as nft's ct state) */
static const char *const ct_states[] = {
	[0] = "invalid", [1] = "established", [2] = "related", [3] = "new",
	[6] = "untracked",
};

static int fb_ctstate(uint8_t family, const char *text, unsigned int flags,
		      struct compat_xt_list *l)
{
	struct xt_conntrack_mtinfo3 ct = { 0 };
	const char *v;
	bool inv;

	v = after_sel(text, "ct state", &inv);
	if (!v)
		return 1;
	if (*v >= '0' && *v <= '9') {	/* numerically: "0x2,0x4" */
		char *end;

		for (;;) {
			ct.state_mask |= strtoul(v, &end, 0);
			if (*end != ',')
				break;
			v = end + 1;
		}
		if (*end)
			return 1;
	} else {
		ct.state_mask = name_bits(v, ct_states, ARRAY_N(ct_states));
	}
	if (!ct.state_mask)
		return 1;
	/* conntrack's untracked bit is not state's (XT_STATE_UNTRACKED) */
	if (ct.state_mask & XT_STATE_UNTRACKED) {
		ct.state_mask &= ~XT_STATE_UNTRACKED;
		ct.state_mask |= XT_CONNTRACK_STATE_UNTRACKED;
	}
	/* -m state is conntrack revision 3 with the state alias flag */
	ct.match_flags = XT_CONNTRACK_STATE;
	if (!(flags & COMPAT_XT_CONNTRACK))
		ct.match_flags |= XT_CONNTRACK_STATE_ALIAS;
	ct.invert_flags = inv ? XT_CONNTRACK_STATE : 0;
	return xt_add(l, false, "conntrack", 3, &ct, sizeof(ct));
}

/*
 * "ct status dnat" is how xlate reads conntrack's pseudo states
 * --ctstate SNAT/DNAT (IPS_SRC_NAT 0x10, IPS_DST_NAT 0x20).
 */
static int fb_ctstatus(uint8_t family, const char *text, unsigned int flags,
		       struct compat_xt_list *l)
{
	struct xt_conntrack_mtinfo3 ct = { 0 };
	unsigned long st;
	const char *v;
	char *end;
	bool inv;

	v = after_sel(text, "ct status", &inv);
	if (!v)
		return 1;
	st = strtoul(v, &end, 0);
	if (*end || (st != 0x10 && st != 0x20))
		return 1;
	ct.state_mask = st == 0x10 ? XT_CONNTRACK_STATE_SNAT :
				     XT_CONNTRACK_STATE_DNAT;
	ct.match_flags = XT_CONNTRACK_STATE;
	ct.invert_flags = inv ? XT_CONNTRACK_STATE : 0;
	return xt_add(l, false, "conntrack", 3, &ct, sizeof(ct));
}

static int parse_ports(const char *s, struct xt_multiport_v1 *mp)
{
	char *end;
	unsigned long lo, hi;

	if (*s++ != '{')
		return -1;
	while (*s == ' ')
		s++;
	while (*s && *s != '}') {
		lo = strtoul(s, &end, 10);
		hi = lo;
		if (end == s || lo > 65535)
			return -1;
		s = end;
		if (*s == '-') {
			hi = strtoul(s + 1, &end, 10);
			if (end == s + 1 || hi > 65535)
				return -1;
			s = end;
		}
		if (mp->count + (hi != lo) + 1 > XT_MULTI_PORTS)
			return -1;
		if (hi != lo)
			mp->pflags[mp->count] = 1;
		mp->ports[mp->count++] = lo;
		if (hi != lo)
			mp->ports[mp->count++] = hi;
		while (*s == ',' || *s == ' ')
			s++;
	}
	return *s == '}' && !s[1] ? 0 : -1;
}

static int fb_multiport(uint8_t family, const char *text, unsigned int flags,
			struct compat_xt_list *l)
{
	static const char *const sels[] = {
		"tcp sport", "tcp dport", "udp sport", "udp dport",
	};
	struct xt_multiport_v1 mp = { 0 };
	const char *v = NULL;
	unsigned int i;
	bool inv;

	char one[32];
	bool src;

	for (i = 0; i < ARRAY_N(sels) && !v; i++)
		v = after_sel(text, sels[i], &inv);
	if (!v)
		return 1;
	src = strstr(text, "sport") == text + 4;
	/* one port of "-m multiport --dports 22": a plain match in the IR */
	if (*v != '{' && (flags & (src ? COMPAT_XT_MP_SPORTS :
				   COMPAT_XT_MP_DPORTS)) &&
	    strlen(v) < sizeof(one) - 4 && !strchr(v, ' ')) {
		snprintf(one, sizeof(one), "{ %s }", v);
		v = one;
	}
	if (*v != '{' || parse_ports(v, &mp))
		return 1;
	mp.flags = src ? XT_MULTIPORT_SOURCE : XT_MULTIPORT_DESTINATION;
	mp.invert = inv;
	return xt_add(l, false, "multiport", 1, &mp, sizeof(mp));
}

/* RTN_* names, bit i is XT_ADDRTYPE 1 << i */
static const char *const rtn_types[] = {
	"unspec", "unicast", "local", "broadcast", "anycast", "multicast",
	"blackhole", "unreachable", "prohibit", "throw", "nat", "xresolve",
};

static int fb_addrtype(uint8_t family, const char *text, unsigned int flags,
		       struct compat_xt_list *l)
{
	static const struct {
		const char	*sel;
		bool		src;
		uint32_t	flags;
	} sels[] = {
		{ "fib saddr type", true, 0 },
		{ "fib daddr type", false, 0 },
		{ "fib saddr . iif type", true, XT_ADDRTYPE_LIMIT_IFACE_IN },
		{ "fib daddr . iif type", false, XT_ADDRTYPE_LIMIT_IFACE_IN },
		{ "fib saddr . oif type", true, XT_ADDRTYPE_LIMIT_IFACE_OUT },
		{ "fib daddr . oif type", false, XT_ADDRTYPE_LIMIT_IFACE_OUT },
	};
	struct xt_addrtype_info_v1 at = { 0 };
	const char *v = NULL;
	unsigned int i;
	uint32_t bits;
	bool inv;

	for (i = 0; i < ARRAY_N(sels) && !v; i++)
		v = after_sel(text, sels[i].sel, &inv);
	if (!v)
		return 1;
	i--;
	if (*v >= '0' && *v <= '9') {	/* printed numerically */
		char *end;
		unsigned long t = strtoul(v, &end, 0);

		if (*end || t >= ARRAY_N(rtn_types))
			return 1;
		bits = 1u << t;
	} else {
		bits = name_bits(v, rtn_types, ARRAY_N(rtn_types));
	}
	if (!bits)
		return 1;
	if (sels[i].src) {
		at.source = bits;
		at.flags = inv ? XT_ADDRTYPE_INVERT_SOURCE : 0;
	} else {
		at.dest = bits;
		at.flags = inv ? XT_ADDRTYPE_INVERT_DEST : 0;
	}
	at.flags |= sels[i].flags;
	return xt_add(l, false, "addrtype", 1, &at, sizeof(at));
}

static int fb_owner(uint8_t family, const char *text, unsigned int flags,
		    struct compat_xt_list *l)
{
	struct xt_owner_match_info o = { 0 };
	unsigned long lo, hi;
	const char *v;
	char *end;
	bool inv, gid = false;

	v = after_sel(text, "meta skuid", &inv);
	if (!v) {
		v = after_sel(text, "meta skgid", &inv);
		gid = true;
	}
	if (!v)
		return 1;
	lo = hi = strtoul(v, &end, 10);
	if (end == v)
		return 1;
	if (*end == '-')
		hi = strtoul(end + 1, &end, 10);
	if (*end)
		return 1;
	if (gid) {
		o.gid_min = lo;
		o.gid_max = hi;
		o.match = XT_OWNER_GID;
	} else {
		o.uid_min = lo;
		o.uid_max = hi;
		o.match = XT_OWNER_UID;
	}
	o.invert = inv ? o.match : 0;
	return xt_add(l, false, "owner", 1, &o, sizeof(o));
}

static int fb_icmp(uint8_t family, const char *text, unsigned int flags,
		   struct compat_xt_list *l)
{
	struct ipt_icmp ic = { .code = { 0, 0xff } };
	struct ip6t_icmp ic6 = { .code = { 0, 0xff } };
	const char *v;
	char *end;
	unsigned long t;
	bool inv;

	v = after_sel(text, family == NFPROTO_IPV6 ? "icmpv6 type" :
		      "icmp type", &inv);
	if (!v)
		return 1;
	t = strtoul(v, &end, 10);
	if (end == v || *end || t > 255)
		return 1;
	if (family == NFPROTO_IPV6) {
		ic6.type = t;
		ic6.invflags = inv ? IP6T_ICMP_INV : 0;
		return xt_add(l, false, "icmp6", 0, &ic6, sizeof(ic6));
	}
	ic.type = t;
	ic.invflags = inv ? IPT_ICMP_INV : 0;
	return xt_add(l, false, "icmp", 0, &ic, sizeof(ic));
}

/* -m mac --mac-source: "ether saddr 58:94:6b:17:41:7c" */
static int fb_mac(uint8_t family, const char *text, unsigned int flags,
		  struct compat_xt_list *l)
{
	struct xt_mac_info mi = { 0 };
	unsigned int b[6], i;
	const char *v;
	char end;
	bool inv;

	v = after_sel(text, "ether saddr", &inv);
	if (!v || sscanf(v, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3],
			 &b[4], &b[5], &end) != 6)
		return 1;
	for (i = 0; i < 6; i++)
		mi.srcaddr[i] = b[i];
	mi.invert = inv;
	return xt_add(l, false, "mac", 0, &mi, sizeof(mi));
}

/* Matches: the statement's text against each extension in turn. */
static int (*const fb_matches[])(uint8_t, const char *, unsigned int,
				 struct compat_xt_list *) = {
	fb_ctstate, fb_ctstatus, fb_multiport, fb_addrtype, fb_owner,
	fb_icmp, fb_mac,
};

static int fb_log(uint8_t family, const struct stmt *s,
		  struct compat_xt_list *l)
{
	struct xt_log_info li = { .level = 4 };

	if (s->log.flags & (STMT_LOG_GROUP | STMT_LOG_SNAPLEN |
			    STMT_LOG_QTHRESHOLD))
		return 1;
	if (s->log.flags & STMT_LOG_LEVEL)
		li.level = s->log.level;
	li.logflags = s->log.logflags & XT_LOG_MASK;
	if (s->log.prefix)
		snprintf(li.prefix, sizeof(li.prefix), "%s", s->log.prefix);
	return xt_add(l, true, "LOG", 0, &li, sizeof(li));
}

static const struct {
	uint8_t			family;
	enum nft_reject_types	type;
	int			code;	/* -1: default */
	uint32_t		with;
} fb_rejects[] = {
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, -1, IPT_ICMP_PORT_UNREACHABLE },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 0, IPT_ICMP_NET_UNREACHABLE },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 1, IPT_ICMP_HOST_UNREACHABLE },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 2, IPT_ICMP_PROT_UNREACHABLE },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 3, IPT_ICMP_PORT_UNREACHABLE },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 9, IPT_ICMP_NET_PROHIBITED },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 10, IPT_ICMP_HOST_PROHIBITED },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 13, IPT_ICMP_ADMIN_PROHIBITED },
	{ NFPROTO_IPV4, NFT_REJECT_TCP_RST, -1, IPT_TCP_RESET },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, -1, IP6T_ICMP6_PORT_UNREACH },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 0, IP6T_ICMP6_NO_ROUTE },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 1, IP6T_ICMP6_ADM_PROHIBITED },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 3, IP6T_ICMP6_ADDR_UNREACH },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 4, IP6T_ICMP6_PORT_UNREACH },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 5, IP6T_ICMP6_POLICY_FAIL },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 6, IP6T_ICMP6_REJECT_ROUTE },
	{ NFPROTO_IPV6, NFT_REJECT_TCP_RST, -1, IP6T_TCP_RESET },
};

static int fb_reject(uint8_t family, const struct stmt *s,
		     struct compat_xt_list *l)
{
	unsigned int i;
	uint32_t with;

	for (i = 0; i < ARRAY_N(fb_rejects); i++) {
		if (fb_rejects[i].family != family ||
		    fb_rejects[i].type != s->reject.type ||
		    fb_rejects[i].code != s->reject.icmp_code)
			continue;
		with = fb_rejects[i].with;
		return xt_add(l, true, "REJECT", 0, &with, sizeof(with));
	}
	return 1;
}

static char *expr_text(const struct expr *e)
{
	return compat_expr_text(e, NFTC_OUTPUT_STATELESS);
}

/* "a.b.c.d[-e.f.g.h]" into @r; false if not that. */
static bool nat_addrs(const struct expr *e, struct nf_nat_ipv4_range *r)
{
	char *t = expr_text(e), *dash;
	bool ok;

	if (!t)
		return false;
	dash = strchr(t, '-');
	if (dash)
		*dash++ = '\0';
	ok = inet_pton(AF_INET, t, &r->min_ip) == 1 &&
	     inet_pton(AF_INET, dash ? dash : t, &r->max_ip) == 1;
	free(t);
	r->flags |= NF_NAT_RANGE_MAP_IPS;
	return ok;
}

/* "N[-M]" ports into @r; false if not that. */
static bool nat_ports(const struct expr *e, struct nf_nat_ipv4_range *r)
{
	char *t = expr_text(e), *end;
	unsigned long lo, hi;
	bool ok;

	if (!t)
		return false;
	lo = hi = strtoul(t, &end, 10);
	ok = end != t && lo <= 65535;
	if (ok && *end == '-')
		hi = strtoul(end + 1, &end, 10);
	ok = ok && !*end && hi <= 65535 && hi >= lo;
	free(t);
	r->min.all = htons(lo);
	r->max.all = htons(hi);
	r->flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
	return ok;
}

/* IPv4 SNAT/DNAT/REDIRECT: revision 0, one range */
static int fb_nat4(const struct stmt *s, struct compat_xt_list *l)
{
	static const char *const names[] = {
		[NAT_SNAT] = "SNAT", [NAT_DNAT] = "DNAT",
		[NAT_REDIR] = "REDIRECT",
	};
	struct nf_nat_ipv4_multi_range_compat mr = { .rangesize = 1 };
	struct nf_nat_ipv4_range *r = &mr.range[0];

	if (s->nat.kind == NAT_MASQ || s->nat.type_flags ||
	    (s->nat.kind == NAT_REDIR && s->nat.addr) ||
	    (s->nat.kind != NAT_REDIR && !s->nat.addr))
		return 1;
	if (s->nat.addr && !nat_addrs(s->nat.addr, r))
		return 1;
	if (s->nat.proto && !nat_ports(s->nat.proto, r))
		return 1;
	r->flags |= s->nat.flags & (NF_NAT_RANGE_PROTO_RANDOM |
				    NF_NAT_RANGE_PERSISTENT);
	if (s->nat.kind == NAT_DNAT) {
		/* iptables-nft 1.8.9 writes DNAT as revision 2 */
		struct nf_nat_range2 r2 = {
			.flags = r->flags,
			.min_addr.ip = r->min_ip, .max_addr.ip = r->max_ip,
			.min_proto = r->min, .max_proto = r->max,
		};

		return xt_add(l, true, "DNAT", 2, &r2, sizeof(r2));
	}
	return xt_add(l, true, names[s->nat.kind], 0, &mr, sizeof(mr));
}

/* "addr[-addr]" of @family into @min/@max; false if not that. */
static bool nat_addrs6(const struct expr *e, union nf_inet_addr *min,
		       union nf_inet_addr *max)
{
	char *t = expr_text(e), *dash, *a = t;
	bool ok;

	if (!t)
		return false;
	if (*a == '[')		/* [addr]:port is printed for ports only */
		a++;
	dash = strchr(a, '-');
	if (dash)
		*dash++ = '\0';
	ok = inet_pton(AF_INET6, a, min) == 1 &&
	     inet_pton(AF_INET6, dash ? dash : a, max) == 1;
	free(t);
	return ok;
}

/*
 * IPv6 NAT targets as iptables-nft 1.8.9 writes them: SNAT revision 1,
 * DNAT revision 2, REDIRECT and MASQUERADE revision 0 (the first three
 * on struct nf_nat_range's layout, which nf_nat_range2 extends).
 */
static int fb_nat6(const struct stmt *s, struct compat_xt_list *l)
{
	static const struct {
		const char	*name;
		uint8_t		rev;
		bool		addr;	/* needs an address */
	} t[] = {
		[NAT_SNAT] = { "SNAT", 1, true },
		[NAT_DNAT] = { "DNAT", 2, true },
		[NAT_MASQ] = { "MASQUERADE", 0, false },
		[NAT_REDIR] = { "REDIRECT", 0, false },
	};
	struct nf_nat_range2 r = { 0 };
	struct nf_nat_ipv4_range p4 = { 0 };
	enum nat_kind k = s->nat.kind;

	if (s->nat.type_flags || !s->nat.addr != !t[k].addr)
		return 1;
	if (s->nat.addr) {
		if (!nat_addrs6(s->nat.addr, &r.min_addr, &r.max_addr))
			return 1;
		r.flags |= NF_NAT_RANGE_MAP_IPS;
	}
	if (s->nat.proto) {
		if (!nat_ports(s->nat.proto, &p4))
			return 1;
		r.min_proto = p4.min;
		r.max_proto = p4.max;
		r.flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
	}
	r.flags |= s->nat.flags & (NF_NAT_RANGE_PROTO_RANDOM |
				   NF_NAT_RANGE_PERSISTENT);
	return xt_add(l, true, t[k].name, t[k].rev, &r,
		      t[k].rev == 2 ? sizeof(struct nf_nat_range2) :
				      sizeof(struct nf_nat_range));
}

static int fb_masq(uint8_t family, const struct stmt *s,
		   struct compat_xt_list *l)
{
	struct nf_nat_ipv4_multi_range_compat mr = { .rangesize = 1 };
	struct nf_nat_range r6 = { 0 };

	if (family == NFPROTO_IPV6)
		return fb_nat6(s, l);
	if (s->nat.kind != NAT_MASQ)
		return fb_nat4(s, l);
	if (s->nat.kind != NAT_MASQ || s->nat.addr ||
	    (s->nat.proto && family == NFPROTO_IPV6))
		return 1;
	if (s->nat.proto && !nat_ports(s->nat.proto, &mr.range[0]))
		return 1;
	if (family == NFPROTO_IPV6) {
		r6.flags = s->nat.flags;
		return xt_add(l, true, "MASQUERADE", 0, &r6, sizeof(r6));
	}
	mr.range[0].flags |= s->nat.flags;
	return xt_add(l, true, "MASQUERADE", 0, &mr, sizeof(mr));
}

static int fb_mark(uint8_t family, const struct stmt *s,
		   struct compat_xt_list *l)
{
	struct xt_mark_tginfo2 m = { .mask = 0xffffffff };
	char *text;

	if (s->meta.key != NFT_META_MARK || !s->meta.expr ||
	    s->meta.expr->kind != EXPR_VALUE)
		return 1;
	text = stmt_text(family, s, 0);
	if (!text || strncmp(text, "meta mark set ", 14)) {
		free(text);
		return 1;
	}
	m.mark = strtoul(text + 14, NULL, 0);
	free(text);
	return xt_add(l, true, "MARK", 2, &m, sizeof(m));
}

/* CT --zone N / --notrack: revision 2, as iptables-nft 1.8.9 */
static int fb_ct(uint8_t family, const struct stmt *s,
		 struct compat_xt_list *l)
{
	struct xt_ct_target_info_v1 ct = { 0 };
	char *text, *end;
	unsigned long zone;

	if (s->kind == STMT_NOTRACK) {
		ct.flags = XT_CT_NOTRACK;
		return xt_add(l, true, "CT", 2, &ct, sizeof(ct));
	}
	if (s->ct.key != NFT_CT_ZONE || s->ct.direction >= 0 || !s->ct.expr ||
	    s->ct.expr->kind != EXPR_VALUE)
		return 1;
	text = expr_text(s->ct.expr);
	if (!text)
		return 1;
	zone = strtoul(text, &end, 0);
	if (*end || zone > 0xffff) {
		free(text);
		return 1;
	}
	free(text);
	ct.zone = zone;
	return xt_add(l, true, "CT", 2, &ct, sizeof(ct));
}

/*
 * Whether a match may have an xt form at all, by its selector, before
 * it is printed to be read (most are addresses, interfaces and ports).
 * A tcp or udp port only becomes multiport as a set ("{ ... }", an
 * anonymous one being a set reference once evaluated), or when the
 * input line said --dports/--sports (fb_multiport()).
 */
static bool fb_candidate(const struct stmt *s, unsigned int flags)
{
	static const struct {
		const char	*name;
		bool		ports;	/* only multiport reads it */
	} descs[] = {
		{ "tcp", true }, { "udp", true }, { "icmp", false },
		{ "icmpv6", false }, { "ether", false },
	};
	const struct expr *l;
	unsigned int i;

	if (s->expr->kind != EXPR_RELATIONAL)
		return false;
	l = s->expr->pair.left;
	if (l->kind == EXPR_BINOP)
		l = l->pair.left;
	switch (l->kind) {
	case EXPR_CT:
	case EXPR_FIB:
	case EXPR_CONCAT:	/* fib daddr . iif */
		return true;
	case EXPR_META:
		return l->meta.key == NFT_META_SKUID ||
		       l->meta.key == NFT_META_SKGID;
	case EXPR_PAYLOAD:
		for (i = 0; l->payload.desc && i < ARRAY_N(descs); i++) {
			if (strcmp(l->payload.desc->name, descs[i].name))
				continue;
			/* only these print as "{ ... }" */
			return !descs[i].ports ||
			       s->expr->pair.right->kind == EXPR_SET ||
			       s->expr->pair.right->kind == EXPR_SET_REF ||
			       (flags & (COMPAT_XT_MP_SPORTS |
					 COMPAT_XT_MP_DPORTS));
		}
		return false;
	default:
		return false;
	}
}

/* 0: converted, 1: stays native, <0: error */
static int fb_stmt(uint8_t family, const struct stmt *s, unsigned int flags,
		   struct compat_xt_list *l)
{
	unsigned int i;
	char *text;
	int ret = 1;

	switch (s->kind) {
	case STMT_EXPRESSION:
		if (!fb_candidate(s, flags))
			return 1;
		text = stmt_text(family, s, NFTC_OUTPUT_NUMERIC_SYMBOL);
		for (i = 0; text && ret == 1 && i < ARRAY_N(fb_matches); i++)
			ret = fb_matches[i](family, text, flags, l);
		free(text);
		return ret;
	case STMT_LOG:
		return fb_log(family, s, l);
	case STMT_REJECT:
		return fb_reject(family, s, l);
	case STMT_NAT:
		return fb_masq(family, s, l);
	case STMT_META:
		return fb_mark(family, s, l);
	case STMT_CT:
	case STMT_NOTRACK:
		return fb_ct(family, s, l);
	case STMT_XT:	/* kept whole by xlate: as it is */
		return xt_add(l, s->xt.target, s->xt.name, s->xt.rev,
			      s->xt.info, s->xt.len);
	default:
		return 1;
	}
}

/* Whether @s can print as "meta iiftype ...": a relational on it. */
static bool is_iiftype(const struct stmt *s)
{
	const struct expr *l;

	if (s->expr->kind != EXPR_RELATIONAL)
		return false;
	l = s->expr->pair.left;
	return l->kind == EXPR_META && l->meta.key == NFT_META_IIFTYPE;
}

/*
 * "meta iiftype ether" right before "ether saddr X": the evaluator's
 * dependency of the MAC match, which xt_mac checks itself (the device
 * must be Ethernet); iptables-nft writes the match alone.
 */
static int drop_mac_deps(uint8_t family, struct rule *r)
{
	struct stmt *s, *n;
	char *a, *b;
	bool dep;

	list_for_each_entry_safe(s, n, &r->stmts, list) {
		if (&n->list == &r->stmts)
			break;
		if (s->kind != STMT_EXPRESSION || n->kind != STMT_EXPRESSION ||
		    !is_iiftype(s))
			continue;
		a = stmt_text(family, s, 0);
		b = stmt_text(family, n, 0);
		if (!a || !b) {
			free(a);
			free(b);
			return -ENOMEM;
		}
		dep = !strcmp(a, "meta iiftype ether") &&
		      !strncmp(b, "ether saddr ", 12);
		free(a);
		free(b);
		if (dep) {
			list_del(&s->list);
			stmt_free(s);
			r->num_stmts--;
		}
	}
	return 0;
}

int compat_xt_fallback(uint8_t family, struct rule *r, unsigned int flags,
		       struct compat_xt_list *out)
{
	unsigned int kept = 0, first;
	struct stmt *s, *n;
	int ret;

	ret = drop_mac_deps(family, r);
	if (ret < 0)
		return ret;
	list_for_each_entry_safe(s, n, &r->stmts, list) {
		first = out->n;
		ret = fb_stmt(family, s, flags, out);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			for (; first < out->n; first++)
				out->v[first].at = kept;
			list_del(&s->list);
			stmt_free(s);
			r->num_stmts--;
		} else if (s->kind == STMT_EXPRESSION) {
			kept++;
		}
	}
	return 0;
}

void compat_xt_list_free(struct compat_xt_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].data);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static struct nftnl_expr *xt_expr(const struct compat_xt *x)
{
	struct nftnl_expr *e = nftnl_expr_alloc(x->target ? "target" :
						"match");
	void *info = malloc(x->len);

	if (!e || !info) {
		free(info);
		if (e)
			nftnl_expr_free(e);
		return NULL;
	}
	memcpy(info, x->data, x->len);
	nftnl_expr_set_str(e, x->target ? NFTNL_EXPR_TG_NAME :
			   NFTNL_EXPR_MT_NAME, x->name);
	nftnl_expr_set_u32(e, x->target ? NFTNL_EXPR_TG_REV :
			   NFTNL_EXPR_MT_REV, x->rev);
	/* libnftnl keeps (and frees) the info buffer it is given */
	nftnl_expr_set(e, x->target ? NFTNL_EXPR_TG_INFO : NFTNL_EXPR_MT_INFO,
		       info, x->len);
	return e;
}

/*
 * The protocol the rule matches ("meta l4proto X" as iptables-nft
 * writes -p): xt extensions such as multiport and REJECT --reject-with
 * tcp-reset check it in the kernel, which reads it from the rule's
 * NFTA_RULE_COMPAT attribute as iptables-nft sets it.
 */
/* Is expression @e "meta l4proto" or the ip/ip6 protocol field? */
static bool is_proto_load(uint8_t family, struct nftnl_expr *e)
{
	const char *a = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);

	if (!strcmp(a, "meta"))
		return nftnl_expr_get_u32(e, NFTNL_EXPR_META_KEY) ==
		       NFT_META_L4PROTO;
	if (strcmp(a, "payload") ||
	    nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_BASE) !=
	    NFT_PAYLOAD_NETWORK_HEADER ||
	    nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_LEN) != 1)
		return false;
	return nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET) ==
	       (family == NFPROTO_IPV6 ? 6 : 9);
}

static void xt_compat_proto(uint8_t family, struct nftnl_rule *r,
			    struct nftnl_expr **v, unsigned int n)
{
	unsigned int i;
	uint32_t len;
	const uint8_t *d;

	for (i = 0; i + 1 < n; i++) {
		const char *b = nftnl_expr_get_str(v[i + 1], NFTNL_EXPR_NAME);

		if (strcmp(b, "cmp") || !is_proto_load(family, v[i]))
			continue;
		d = nftnl_expr_get(v[i + 1], NFTNL_EXPR_CMP_DATA, &len);
		if (!d || len != 1)
			continue;
		nftnl_rule_set_u32(r, NFTNL_RULE_COMPAT_PROTO, d[0]);
		nftnl_rule_set_u32(r, NFTNL_RULE_COMPAT_FLAGS,
				   nftnl_expr_get_u32(v[i + 1],
						      NFTNL_EXPR_CMP_OP) ==
				   NFT_CMP_NEQ ? NFT_RULE_COMPAT_F_INV : 0);
		return;
	}
}

static bool is_cmp(struct nftnl_expr *e)
{
	return !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "cmp");
}

/* The expressions that end a match: each native match is one. */
static bool ends_match(struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);

	return !strcmp(name, "cmp") || !strcmp(name, "lookup") ||
	       !strcmp(name, "range");
}

static void add_matches(struct nftnl_rule *r, const struct compat_xt_list *l,
			unsigned int upto, unsigned int *done)
{
	struct nftnl_expr *e;

	for (; *done < l->n; (*done)++) {
		const struct compat_xt *x = &l->v[*done];

		if (x->target)
			continue;
		if (x->at > upto)
			break;
		e = xt_expr(x);
		if (e)
			nftnl_rule_add_expr(r, e);
	}
}

/*
 * Matches go where they were among the native ones (iptables-nft keeps
 * command line order), and all before the rule's counter; targets
 * last.
 */
int compat_xt_apply(uint8_t family, struct nftnl_rule *r,
		    const struct compat_xt_list *l)
{
	struct nftnl_expr **v, *e;
	struct nftnl_expr_iter *it;
	unsigned int n = 0, i, k, done = 0, ends = 0;
	bool placed = false;
	const char *name;

	if (!l->n)
		return 0;
	it = nftnl_expr_iter_create(r);
	if (!it)
		return -ENOMEM;
	while (nftnl_expr_iter_next(it))
		n++;
	nftnl_expr_iter_destroy(it);
	v = calloc(n + 1, sizeof(*v));
	it = nftnl_expr_iter_create(r);
	if (!v || !it) {
		free(v);
		if (it)
			nftnl_expr_iter_destroy(it);
		return -ENOMEM;
	}
	for (i = 0; i < n && (e = nftnl_expr_iter_next(it)); i++)
		v[i] = e;
	nftnl_expr_iter_destroy(it);
	xt_compat_proto(family, r, v, n);
	for (i = 0; i < n; i++)
		nftnl_rule_del_expr(v[i]);
	for (i = 0; i <= n; i++) {
		name = i < n ? nftnl_expr_get_str(v[i], NFTNL_EXPR_NAME) : NULL;
		if (!placed && (i == n || !strcmp(name, "counter"))) {
			add_matches(r, l, ~0u, &done);
			placed = true;
		}
		if (!placed)
			add_matches(r, l, ends, &done);
		if (i < n) {
			nftnl_rule_add_expr(r, v[i]);
			/* a range as "cmp gte, cmp lte" is one match */
			ends += ends_match(v[i]) &&
				!(i + 1 < n && is_cmp(v[i]) && is_cmp(v[i + 1]));
		}
	}
	for (k = 0; k < l->n; k++) {
		if (l->v[k].target && (e = xt_expr(&l->v[k])))
			nftnl_rule_add_expr(r, e);
	}
	free(v);
	return 0;
}
