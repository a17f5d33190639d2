// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Match mappings: each function reads the kernel structure libxtables
 * parsed (xt_tcp, xt_conntrack_mtinfo3, ...) and appends the equivalent
 * IR to the rule. Registered in map.c, one table row per extension.
 * Semantics follow the kernel's xt_* match code, not iptables-translate.
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_tcpudp.h>
#include <linux/netfilter/xt_multiport.h>
#include <linux/netfilter/xt_conntrack.h>
#include <linux/netfilter/xt_state.h>
#include <linux/netfilter/xt_comment.h>
#include <linux/netfilter/xt_limit.h>
#include <linux/netfilter/xt_mark.h>
#include <linux/netfilter/xt_connmark.h>
#include <linux/netfilter/xt_addrtype.h>
#include <linux/netfilter/xt_iprange.h>
#include <linux/netfilter/xt_owner.h>
#include <linux/netfilter/xt_pkttype.h>
#include <linux/netfilter/xt_mac.h>
#include <linux/netfilter/xt_length.h>
#include <linux/netfilter/xt_tcpmss.h>
#include <linux/netfilter/xt_dscp.h>
#include <linux/netfilter/xt_esp.h>
#include <linux/netfilter/xt_helper.h>
#include <linux/netfilter/xt_cpu.h>
#include <linux/netfilter/xt_devgroup.h>
#include <linux/netfilter/xt_quota.h>
#include <linux/netfilter/xt_realm.h>
#include <linux/netfilter/xt_statistic.h>
#include <linux/netfilter/xt_socket.h>
#include <linux/netfilter/xt_ipcomp.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter_ipv4/ipt_ttl.h>
#include <linux/netfilter_ipv4/ipt_ah.h>
#include <linux/netfilter_ipv6/ip6t_hl.h>
#include <linux/netfilter_ipv6/ip6t_ah.h>
#include <linux/netfilter_ipv6/ip6t_frag.h>
#include <linux/netfilter_ipv6/ip6t_opts.h>
#include <linux/netfilter_ipv6/ip6t_rt.h>
#include <linux/netfilter_ipv6/ip6t_mh.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include "xlate_int.h"
#include "xlate_map.h"
#include "keys.h"
#include "proto.h"

#define LOC	(&r->loc)

static void match_ports(struct xl_rule *r, const struct proto_desc *d,
			const char *field, const uint16_t *pts, bool inv)
{
	if (pts[0] == 0 && pts[1] == 0xffff && !inv)
		return;
	xl_match_range(r, xl_payload(LOC, d, field), pts[0], pts[1], inv);
}

/* A TCP option present/absent: the named one when nft knows it. */
static struct expr *tcpopt_present(struct xl_rule *r, uint8_t kind)
{
	const struct exthdr_desc *const *d;
	struct expr *e;

	for (d = exthdr_tcpopt_descs; *d; d++) {
		if ((*d)->type == kind) {
			unsigned int f = exthdr_field_lookup(*d, "kind");

			e = exthdr_expr_alloc(LOC, *d, f ? f : 1,
					      NFT_EXTHDR_OP_TCPOPT);
			goto present;
		}
	}
	e = exthdr_expr_alloc(LOC, NULL, 0, NFT_EXTHDR_OP_TCPOPT);
	e->exthdr.raw_type = kind;
	e->exthdr.offset = 0;
	e->len = 8;
present:
	e->exthdr.flags = NFT_EXTHDR_F_PRESENT;
	e->dtype = &boolean_type;
	return e;
}

int xl_map_tcp(struct xl_rule *r, const void *data)
{
	const struct xt_tcp *t = data;

	match_ports(r, &proto_tcp, "sport", t->spts,
		    t->invflags & XT_TCP_INV_SRCPT);
	match_ports(r, &proto_tcp, "dport", t->dpts,
		    t->invflags & XT_TCP_INV_DSTPT);
	if (t->option) {
		/* the VM's "missing" holds on any packet that is not TCP */
		if (t->invflags & XT_TCP_INV_OPTION)
			r->proto_needed = true;
		xl_match(r, tcpopt_present(r, t->option), OP_IMPLICIT,
			 xl_sym(LOC, "%s", t->invflags & XT_TCP_INV_OPTION ?
				"missing" : "exists"));
	}
	if (t->flg_mask) {
		struct expr *f = xl_payload(LOC, &proto_tcp, "flags");
		struct expr *mask = xl_typed(LOC, f, t->flg_mask);
		struct expr *cmp = xl_typed(LOC, f, t->flg_cmp);

		xl_match(r, xl_binop(LOC, OP_AND, f, mask ? mask :
				     xl_sym(LOC, "0x%x", t->flg_mask)),
			 t->invflags & XT_TCP_INV_FLAGS ? OP_NEQ : OP_EQ,
			 cmp ? cmp : xl_sym(LOC, "0x%x", t->flg_cmp));
	}
	return 0;
}

int xl_map_udp(struct xl_rule *r, const void *data)
{
	const struct xt_udp *u = data;
	const struct proto_desc *d = r->proto == IPPROTO_UDPLITE ?
				     &proto_udplite : &proto_udp;

	match_ports(r, d, "sport", u->spts, u->invflags & XT_UDP_INV_SRCPT);
	match_ports(r, d, "dport", u->dpts, u->invflags & XT_UDP_INV_DSTPT);
	return 0;
}

static int map_icmp_any(struct xl_rule *r, const struct proto_desc *d,
			uint8_t type, const uint8_t *code, bool inv)
{
	struct expr *set, *key;

	if (type == 0xff && !inv)
		return 0;
	if (type == 0xff)
		return xl_error(r, "rule would never match");
	if (code[0] == 0 && code[1] == 0xff) {
		key = xl_payload(LOC, d, "type");
		xl_match_inv(r, key, inv, xl_value(LOC, key, type));
		return 0;
	}
	if (!inv) {
		key = xl_payload(LOC, d, "type");
		xl_match(r, key, OP_IMPLICIT, xl_value(LOC, key, type));
		xl_match_range(r, xl_payload(LOC, d, "code"), code[0],
			       code[1], false);
		return 0;
	}
	/* the type and code test is negated as a whole */
	set = list_expr_alloc(LOC, EXPR_CONCAT);
	list_expr_add(set, xl_sym(LOC, "%u", type));
	list_expr_add(set, xl_range(LOC, code[0], code[1], "%" PRIu64));
	set = xl_set_add(NULL, set);
	key = list_expr_alloc(LOC, EXPR_CONCAT);
	list_expr_add(key, xl_payload(LOC, d, "type"));
	list_expr_add(key, xl_payload(LOC, d, "code"));
	xl_match(r, key, OP_NEQ, set);
	return 0;
}

int xl_map_icmp(struct xl_rule *r, const void *data)
{
	const struct ipt_icmp *i = data;

	return map_icmp_any(r, &proto_icmp, i->type, i->code,
			    i->invflags & IPT_ICMP_INV);
}

int xl_map_icmp6(struct xl_rule *r, const void *data)
{
	const struct ip6t_icmp *i = data;

	return map_icmp_any(r, &proto_icmp6, i->type, i->code,
			    i->invflags & IP6T_ICMP_INV);
}

static const struct proto_desc *port_desc(struct xl_rule *r)
{
	switch (r->proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		return xl_l4_desc(r->proto);
	}
	return NULL;
}

static struct expr *port_elem(struct xl_rule *r,
			      const struct xt_multiport_v1 *m, unsigned int *i)
{
	unsigned int k = *i;

	if (m->pflags[k] && k + 1 < m->count) {
		*i = k + 1;
		return xl_range(LOC, m->ports[k], m->ports[k + 1],
				"%" PRIu64);
	}
	return constant_expr_u64(LOC, &inet_service_type, BYTEORDER_BIG, 16,
				 m->ports[k]);
}

int xl_map_multiport(struct xl_rule *r, const void *data)
{
	const struct xt_multiport_v1 *m = data;
	const struct proto_desc *d = port_desc(r);
	struct expr *rhs = NULL, *e, *key, *c;
	unsigned int i, n = 0;

	if (!d || r->proto_inv)
		return xl_error(r, "multiport needs `-p tcp', `-p udp', "
				"`-p udplite', `-p sctp' or `-p dccp'");
	for (i = 0; i < m->count; i++, n++) {
		e = port_elem(r, m, &i);
		if (m->flags != XT_MULTIPORT_EITHER) {
			rhs = xl_set_add(rhs, e);
			continue;
		}
		/* either port: sport . dport in { any . P, P . any } */
		c = list_expr_alloc(LOC, EXPR_CONCAT);
		list_expr_add(c, xl_range(LOC, 0, 65535, "%" PRIu64));
		list_expr_add(c, expr_clone(e));
		rhs = xl_set_add(rhs, c);
		c = list_expr_alloc(LOC, EXPR_CONCAT);
		list_expr_add(c, e);
		list_expr_add(c, xl_range(LOC, 0, 65535, "%" PRIu64));
		rhs = xl_set_add(rhs, c);
	}
	if (m->flags == XT_MULTIPORT_EITHER) {
		key = list_expr_alloc(LOC, EXPR_CONCAT);
		list_expr_add(key, xl_payload(LOC, d, "sport"));
		list_expr_add(key, xl_payload(LOC, d, "dport"));
		xl_match_inv(r, key, m->invert, rhs);
		return 0;
	}
	key = xl_payload(LOC, d, m->flags == XT_MULTIPORT_SOURCE ?
			 "sport" : "dport");
	if (n == 1) {
		/* one port or range: no set, as stock writes it */
		struct expr *elem = list_first_entry(&rhs->expressions,
						     struct expr, list);

		e = expr_get(elem->elem.key);
		expr_free(rhs);
		rhs = e;
	}
	xl_match_inv(r, key, m->invert, rhs);
	return 0;
}

/* ct state bits the way xt_conntrack numbers them, to nft's */
static void ct_state_match(struct xl_rule *r, uint16_t mask, bool inv)
{
	static const struct {
		uint16_t	xt;
		const char	*name;
	} bits[] = {
		{ XT_CONNTRACK_STATE_INVALID,	"invalid" },
		{ XT_CONNTRACK_STATE_BIT(IP_CT_ESTABLISHED), "established" },
		{ XT_CONNTRACK_STATE_BIT(IP_CT_RELATED), "related" },
		{ XT_CONNTRACK_STATE_BIT(IP_CT_NEW), "new" },
		{ XT_CONNTRACK_STATE_UNTRACKED,	"untracked" },
	};
	struct expr *l = NULL;
	unsigned int i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (!(mask & bits[i].xt))
			continue;
		if (!l)
			l = list_expr_alloc(LOC, EXPR_LIST);
		list_expr_add(l, xl_sym(LOC, "%s", bits[i].name));
	}
	if (l)
		xl_match(r, xl_ct(LOC, NFT_CT_STATE, -1),
			 inv ? OP_NEQ : OP_IMPLICIT, l);
}

static void ct_status_match(struct xl_rule *r, uint32_t status, bool inv)
{
	xl_match(r, xl_ct(LOC, NFT_CT_STATUS, -1), inv ? OP_NEQ : OP_IMPLICIT,
		 xl_sym(LOC, "0x%x", status));
}

static void ct_addr(struct xl_rule *r, enum nft_ct_keys key, int dir,
		    const union nf_inet_addr *a, const union nf_inet_addr *m,
		    bool inv)
{
	unsigned int alen = r->ctx->family == NFPROTO_IPV6 ? 16 : 4;

	xl_match_addr(r, xl_ct(LOC, key, dir), a, m, alen, inv);
}

static void ct_port(struct xl_rule *r, enum nft_ct_keys key, int dir,
		    uint16_t lo, uint16_t hi, bool inv)
{
	xl_match_range(r, xl_ct(LOC, key, dir), lo, hi, inv);
}

int xl_map_conntrack(struct xl_rule *r, const void *data)
{
	const struct xt_conntrack_mtinfo3 *c = data;
	uint16_t f = c->match_flags, inv = c->invert_flags;
	uint32_t status = 0;

	if (f & (XT_CONNTRACK_STATE | XT_CONNTRACK_STATE_ALIAS)) {
		uint16_t nat = c->state_mask & (XT_CONNTRACK_STATE_SNAT |
						XT_CONNTRACK_STATE_DNAT);

		if (nat && (c->state_mask & ~nat)) {
			xl_warn(r, "state SNAT/DNAT mixed with other states: "
				"translated as both required");
			r->inexact = true;
		}
		ct_state_match(r, c->state_mask & ~nat,
			       inv & XT_CONNTRACK_STATE);
		if (nat & XT_CONNTRACK_STATE_SNAT)
			status |= IPS_SRC_NAT;
		if (nat & XT_CONNTRACK_STATE_DNAT)
			status |= IPS_DST_NAT;
		if (status)
			ct_status_match(r, status, inv & XT_CONNTRACK_STATE);
	}
	if (f & XT_CONNTRACK_PROTO)
		xl_match_inv(r, xl_ct(LOC, NFT_CT_PROTOCOL, IP_CT_DIR_ORIGINAL),
			     inv & XT_CONNTRACK_PROTO,
			     xl_sym(LOC, "%u", c->l4proto));
	if (f & XT_CONNTRACK_ORIGSRC)
		ct_addr(r, NFT_CT_SRC, IP_CT_DIR_ORIGINAL, &c->origsrc_addr,
			&c->origsrc_mask, inv & XT_CONNTRACK_ORIGSRC);
	if (f & XT_CONNTRACK_ORIGDST)
		ct_addr(r, NFT_CT_DST, IP_CT_DIR_ORIGINAL, &c->origdst_addr,
			&c->origdst_mask, inv & XT_CONNTRACK_ORIGDST);
	if (f & XT_CONNTRACK_REPLSRC)
		ct_addr(r, NFT_CT_SRC, IP_CT_DIR_REPLY, &c->replsrc_addr,
			&c->replsrc_mask, inv & XT_CONNTRACK_REPLSRC);
	if (f & XT_CONNTRACK_REPLDST)
		ct_addr(r, NFT_CT_DST, IP_CT_DIR_REPLY, &c->repldst_addr,
			&c->repldst_mask, inv & XT_CONNTRACK_REPLDST);
	if (f & XT_CONNTRACK_ORIGSRC_PORT)
		ct_port(r, NFT_CT_PROTO_SRC, IP_CT_DIR_ORIGINAL,
			c->origsrc_port, c->origsrc_port_high,
			inv & XT_CONNTRACK_ORIGSRC_PORT);
	if (f & XT_CONNTRACK_ORIGDST_PORT)
		ct_port(r, NFT_CT_PROTO_DST, IP_CT_DIR_ORIGINAL,
			c->origdst_port, c->origdst_port_high,
			inv & XT_CONNTRACK_ORIGDST_PORT);
	if (f & XT_CONNTRACK_REPLSRC_PORT)
		ct_port(r, NFT_CT_PROTO_SRC, IP_CT_DIR_REPLY,
			c->replsrc_port, c->replsrc_port_high,
			inv & XT_CONNTRACK_REPLSRC_PORT);
	if (f & XT_CONNTRACK_REPLDST_PORT)
		ct_port(r, NFT_CT_PROTO_DST, IP_CT_DIR_REPLY,
			c->repldst_port, c->repldst_port_high,
			inv & XT_CONNTRACK_REPLDST_PORT);
	if (f & XT_CONNTRACK_STATUS)
		ct_status_match(r, c->status_mask, inv & XT_CONNTRACK_STATUS);
	if (f & XT_CONNTRACK_EXPIRES)
		xl_match_inv(r, xl_ct(LOC, NFT_CT_EXPIRATION, -1),
			     inv & XT_CONNTRACK_EXPIRES,
			     xl_range(LOC, c->expires_min, c->expires_max,
				      "%" PRIu64 "s"));
	if (f & XT_CONNTRACK_DIRECTION)
		xl_match(r, xl_ct(LOC, NFT_CT_DIRECTION, -1), OP_IMPLICIT,
			 xl_sym(LOC, "%s", inv & XT_CONNTRACK_DIRECTION ?
				"reply" : "original"));
	return 0;
}

/* state revision 0 (xt_state_info): same bits as conntrack's */
int xl_map_state(struct xl_rule *r, const void *data)
{
	const struct xt_state_info *s = data;

	ct_state_match(r, s->statemask, false);
	return 0;
}

int xl_map_comment(struct xl_rule *r, const void *data)
{
	const struct xt_comment_info *c = data;
	char *s;

	if (r->comment) {
		if (asprintf(&s, "%s %s", r->comment, c->comment) < 0)
			return xl_error(r, "out of memory");
		free(r->comment);
	} else {
		s = strndup(c->comment, XT_MAX_COMMENT_LEN);
	}
	r->comment = s;
	return 0;
}

/*
 * The rate a user gave, from the interval libxtables stored: iptables
 * keeps avg = scale * unit / rate (integer division), so the rate per
 * the smallest unit whose rate gives back exactly @avg is the one that
 * was written. Returns false (rate rounded, per day) when none does.
 */
bool xl_limit_rate(uint64_t avg, uint64_t scale, uint64_t *rate,
		   uint64_t *unit)
{
	static const uint64_t units[] = { 1, 60, 3600, 86400 };
	unsigned int i;

	for (i = 0; avg && i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t mult = units[i] * scale, r = (mult + avg / 2) / avg;

		if (r && mult / r == avg) {
			*rate = r;
			*unit = units[i];
			return true;
		}
	}
	*rate = avg ? (scale * 86400 + avg / 2) / avg : 0;
	*unit = 86400;
	return false;
}

int xl_map_limit(struct xl_rule *r, const void *data)
{
	const struct xt_rateinfo *l = data;
	struct stmt *s = stmt_alloc(LOC, STMT_LIMIT);

	if (!xl_limit_rate(l->avg, XT_LIMIT_SCALE, &s->limit.rate,
			   &s->limit.unit)) {
		/* "1/3s" cannot be written in nft: round, and say so */
		xl_warn(r, "limit rate rounded to %" PRIu64 "/day",
			s->limit.rate);
		r->inexact = true;
	}
	s->limit.burst = l->burst ? l->burst : 5;
	s->limit.type = NFT_LIMIT_PKTS;
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_mark(struct xl_rule *r, const void *data)
{
	const struct xt_mark_mtinfo1 *m = data;

	xl_match_masked(r, xl_meta(LOC, NFT_META_MARK), m->mark, m->mask,
			m->invert);
	return 0;
}

int xl_map_connmark(struct xl_rule *r, const void *data)
{
	const struct xt_connmark_mtinfo1 *m = data;

	xl_match_masked(r, xl_ct(LOC, NFT_CT_MARK, -1), m->mark, m->mask,
			m->invert);
	return 0;
}

static void addrtype_one(struct xl_rule *r, uint16_t types, bool inv,
			 uint32_t flags)
{
	struct expr *set = NULL, *e;
	unsigned int b, n = 0;

	for (b = 0; b < 12; b++) {
		if (types & (1 << b)) {
			set = xl_set_add(set, xl_sym(LOC, "%u", b));
			n++;
		}
	}
	if (!n)
		return;
	if (n == 1) {
		struct expr *elem = list_first_entry(&set->expressions,
						     struct expr, list);

		e = expr_get(elem->elem.key);
		expr_free(set);
		set = e;
	}
	xl_match_inv(r, fib_expr_alloc(LOC, flags, NFT_FIB_RESULT_ADDRTYPE),
		     inv, set);
}

int xl_map_addrtype(struct xl_rule *r, const void *data)
{
	const struct xt_addrtype_info_v1 *a = data;
	uint32_t dev = 0;

	if (a->flags & XT_ADDRTYPE_LIMIT_IFACE_IN)
		dev = NFTA_FIB_F_IIF;
	if (a->flags & XT_ADDRTYPE_LIMIT_IFACE_OUT)
		dev = NFTA_FIB_F_OIF;
	addrtype_one(r, a->source, a->flags & XT_ADDRTYPE_INVERT_SOURCE,
		     NFTA_FIB_F_SADDR | dev);
	addrtype_one(r, a->dest, a->flags & XT_ADDRTYPE_INVERT_DEST,
		     NFTA_FIB_F_DADDR | dev);
	return 0;
}

static void iprange_one(struct xl_rule *r, const char *field,
			const union nf_inet_addr *lo,
			const union nf_inet_addr *hi, bool inv)
{
	int af = r->ctx->family == NFPROTO_IPV6 ? AF_INET6 : AF_INET;
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];

	inet_ntop(af, lo, a, sizeof(a));
	inet_ntop(af, hi, b, sizeof(b));
	xl_match_inv(r, xl_payload(LOC, xl_l3_desc(r), field), inv,
		     strcmp(a, b) ? range_expr_alloc(LOC, xl_sym(LOC, "%s", a),
						     xl_sym(LOC, "%s", b)) :
				    xl_sym(LOC, "%s", a));
}

int xl_map_iprange(struct xl_rule *r, const void *data)
{
	const struct xt_iprange_mtinfo *m = data;

	if (m->flags & IPRANGE_SRC)
		iprange_one(r, "saddr", &m->src_min, &m->src_max,
			    m->flags & IPRANGE_SRC_INV);
	if (m->flags & IPRANGE_DST)
		iprange_one(r, "daddr", &m->dst_min, &m->dst_max,
			    m->flags & IPRANGE_DST_INV);
	return 0;
}

int xl_map_owner(struct xl_rule *r, const void *data)
{
	const struct xt_owner_match_info *o = data;

	if (o->match & XT_OWNER_SOCKET) {
		/*
		 * xt_owner matches --socket-exists when the packet has a
		 * full socket of this netns with a file; nft's skuid load
		 * fails (no match) exactly when there is none, so any uid
		 * is the same test.
		 */
		xl_match_inv(r, xl_meta(LOC, NFT_META_SKUID),
			     o->invert & XT_OWNER_SOCKET,
			     xl_range(LOC, 0, UINT32_MAX, "%" PRIu64));
	}
	if (o->match & XT_OWNER_UID)
		xl_match_range(r, xl_meta(LOC, NFT_META_SKUID), o->uid_min,
			       o->uid_max, o->invert & XT_OWNER_UID);
	if (o->match & XT_OWNER_GID) {
		if (o->match & XT_OWNER_SUPPL_GROUPS)
			return xl_error(r, "--suppl-groups cannot be expressed "
					"in nftables");
		xl_match_range(r, xl_meta(LOC, NFT_META_SKGID), o->gid_min,
			       o->gid_max, o->invert & XT_OWNER_GID);
	}
	return 0;
}

int xl_map_pkttype(struct xl_rule *r, const void *data)
{
	const struct xt_pkttype_info *p = data;

	xl_match_inv(r, xl_meta(LOC, NFT_META_PKTTYPE), p->invert,
		     xl_sym(LOC, "%u", p->pkttype));
	return 0;
}

int xl_map_mac(struct xl_rule *r, const void *data)
{
	const struct xt_mac_info *m = data;
	const uint8_t *a = m->srcaddr;

	xl_match_inv(r, xl_payload(LOC, &proto_eth, "saddr"), m->invert,
		     xl_sym(LOC, "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1],
			    a[2], a[3], a[4], a[5]));
	return 0;
}

static void ttl_match(struct xl_rule *r, const struct proto_desc *d,
		      const char *field, uint8_t mode, uint8_t v)
{
	static const enum ops ops[] = { OP_IMPLICIT, OP_NEQ, OP_LT, OP_GT };

	xl_match(r, xl_payload(LOC, d, field), ops[mode & 3],
		 xl_sym(LOC, "%u", v));
}

int xl_map_ttl(struct xl_rule *r, const void *data)
{
	const struct ipt_ttl_info *t = data;

	ttl_match(r, &proto_ip, "ttl", t->mode, t->ttl);
	return 0;
}

int xl_map_hl(struct xl_rule *r, const void *data)
{
	const struct ip6t_hl_info *h = data;

	ttl_match(r, &proto_ip6, "hoplimit", h->mode, h->hop_limit);
	return 0;
}

int xl_map_length(struct xl_rule *r, const void *data)
{
	const struct xt_length_info *l = data;

	xl_match_range(r, xl_meta(LOC, NFT_META_LEN), l->min, l->max,
		       l->invert);
	return 0;
}

int xl_map_tcpmss(struct xl_rule *r, const void *data)
{
	const struct xt_tcpmss_match_info *m = data;
	const struct exthdr_desc *d = exthdr_tcpopt_lookup("maxseg");

	xl_match_range(r, exthdr_expr_alloc(LOC, d,
					    exthdr_field_lookup(d, "size"),
					    NFT_EXTHDR_OP_TCPOPT),
		       m->mss_min, m->mss_max, m->invert);
	return 0;
}

int xl_map_dscp(struct xl_rule *r, const void *data)
{
	const struct xt_dscp_info *d = data;

	xl_match_inv(r, xl_payload(LOC, xl_l3_desc(r), "dscp"), d->invert,
		     xl_sym(LOC, "0x%02x", d->dscp));
	return 0;
}

/* The TOS byte / IPv6 traffic class, raw: nft names only its parts. */
static struct expr *tos_field(struct xl_rule *r)
{
	return payload_raw_alloc(LOC, PROTO_BASE_NETWORK_HDR,
				 r->ctx->family == NFPROTO_IPV6 ? 4 : 8, 8);
}

int xl_map_tos(struct xl_rule *r, const void *data)
{
	const struct xt_tos_match_info *t = data;

	xl_match(r, xl_binop(LOC, OP_AND, tos_field(r),
			     xl_sym(LOC, "0x%02x", t->tos_mask)),
		 t->invert ? OP_NEQ : OP_EQ,
		 xl_sym(LOC, "0x%02x", t->tos_value & t->tos_mask));
	return 0;
}

static void spi_match(struct xl_rule *r, const struct proto_desc *d,
		      const char *field, const uint32_t *spis, bool inv)
{
	if (spis[0] == 0 && spis[1] == UINT32_MAX && !inv)
		return;
	xl_match_range(r, xl_payload(LOC, d, field), spis[0], spis[1], inv);
}

int xl_map_esp(struct xl_rule *r, const void *data)
{
	const struct xt_esp *e = data;

	spi_match(r, &proto_esp, "spi", e->spis, e->invflags & XT_ESP_INV_SPI);
	return 0;
}

int xl_map_ipcomp(struct xl_rule *r, const void *data)
{
	const struct xt_ipcomp *c = data;

	if (c->spis[0] == 0 && c->spis[1] == UINT32_MAX &&
	    !(c->invflags & XT_IPCOMP_INV_SPI))
		return 0;
	if (c->spis[1] > 0xffff)
		return xl_error(r, "ipcomp SPIs above 65535 cannot be "
				"expressed in nftables");
	xl_match_range(r, xl_payload(LOC, &proto_comp, "cpi"), c->spis[0],
		       c->spis[1], c->invflags & XT_IPCOMP_INV_SPI);
	return 0;
}

int xl_map_ah(struct xl_rule *r, const void *data)
{
	if (r->ctx->family == NFPROTO_IPV6) {
		const struct ip6t_ah *a = data;
		unsigned int n = r->rule->num_stmts;

		spi_match(r, &proto_ah, "spi", a->spis,
			  a->invflags & IP6T_AH_INV_SPI);
		if (a->hdrlen || (a->invflags & IP6T_AH_INV_LEN))
			xl_match_inv(r, xl_payload(LOC, &proto_ah, "hdrlength"),
				     a->invflags & IP6T_AH_INV_LEN,
				     xl_sym(LOC, "%u", a->hdrlen));
		/* --ahres: the kernel wants the reserved field zero */
		if (a->hdrres)
			xl_match(r, xl_payload(LOC, &proto_ah, "reserved"),
				 OP_IMPLICIT, xl_sym(LOC, "0"));
		/* nothing tested: the AH header must still be there (nft
		 * finds it as the l4 protocol, as ip6t_ah finds it in the
		 * extension header chain) */
		if (r->rule->num_stmts == n)
			xl_match(r, xl_meta(LOC, NFT_META_L4PROTO), OP_IMPLICIT,
				 xl_sym(LOC, "%u", IPPROTO_AH));
		return 0;
	} else {
		const struct ipt_ah *a = data;

		spi_match(r, &proto_ah, "spi", a->spis,
			  a->invflags & IPT_AH_INV_SPI);
	}
	return 0;
}

int xl_map_helper(struct xl_rule *r, const void *data)
{
	const struct xt_helper_info *h = data;

	xl_match_inv(r, xl_ct(LOC, NFT_CT_HELPER, -1), h->invert,
		     xl_qsym(LOC, h->name));
	return 0;
}

int xl_map_cpu(struct xl_rule *r, const void *data)
{
	const struct xt_cpu_info *c = data;

	xl_match_inv(r, xl_meta(LOC, NFT_META_CPU), c->invert,
		     xl_sym(LOC, "%u", c->cpu));
	return 0;
}

int xl_map_devgroup(struct xl_rule *r, const void *data)
{
	const struct xt_devgroup_info *d = data;

	if (d->flags & XT_DEVGROUP_MATCH_SRC)
		xl_match_masked(r, xl_meta(LOC, NFT_META_IIFGROUP),
				d->src_group, d->src_mask,
				d->flags & XT_DEVGROUP_INVERT_SRC);
	if (d->flags & XT_DEVGROUP_MATCH_DST)
		xl_match_masked(r, xl_meta(LOC, NFT_META_OIFGROUP),
				d->dst_group, d->dst_mask,
				d->flags & XT_DEVGROUP_INVERT_DST);
	return 0;
}

int xl_map_quota(struct xl_rule *r, const void *data)
{
	const struct xt_quota_info *q = data;
	struct stmt *s = stmt_alloc(LOC, STMT_QUOTA);

	s->quota.bytes = q->quota;
	if (q->flags & XT_QUOTA_INVERT)
		s->quota.flags = NFT_QUOTA_F_INV;
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_realm(struct xl_rule *r, const void *data)
{
	const struct xt_realm_info *re = data;

	xl_match_masked(r, xl_meta(LOC, NFT_META_RTCLASSID), re->id, re->mask,
			re->invert);
	return 0;
}

int xl_map_statistic(struct xl_rule *r, const void *data)
{
	const struct xt_statistic_info *s = data;
	bool inv = s->flags & XT_STATISTIC_INVERT;

	if (s->mode == XT_STATISTIC_MODE_RANDOM) {
		xl_match(r, xl_binop(LOC, OP_AND, xl_meta(LOC, NFT_META_PRANDOM),
				     xl_sym(LOC, "2147483647")),
			 inv ? OP_GTE : OP_LT,
			 xl_sym(LOC, "%u", s->u.random.probability));
		return 0;
	}
	if (s->u.nth.count) {
		xl_warn(r, "statistic nth: the start count is not kept");
		r->inexact = true;
	}
	xl_match_inv(r, numgen_expr_alloc(LOC, NFT_NG_INCREMENTAL,
					  s->u.nth.every + 1, 0),
		     inv, xl_sym(LOC, "%u", s->u.nth.packet));
	return 0;
}

int xl_map_socket(struct xl_rule *r, const void *data)
{
	const struct xt_socket_mtinfo3 *s = data;
	struct stmt *st;

	if (!(s->flags & XT_SOCKET_NOWILDCARD))
		xl_match(r, socket_expr_alloc(LOC, NFT_SOCKET_WILDCARD, 0),
			 OP_IMPLICIT, xl_sym(LOC, "0"));
	if (s->flags & XT_SOCKET_TRANSPARENT)
		xl_match(r, socket_expr_alloc(LOC, NFT_SOCKET_TRANSPARENT, 0),
			 OP_IMPLICIT, xl_sym(LOC, "1"));
	if (s->flags & XT_SOCKET_RESTORESKMARK) {
		st = stmt_alloc(LOC, STMT_META);
		st->meta.key = NFT_META_MARK;
		st->meta.expr = socket_expr_alloc(LOC, NFT_SOCKET_MARK, 0);
		xl_add_stmt(r, st);
	}
	if ((s->flags & XT_SOCKET_NOWILDCARD) &&
	    !(s->flags & XT_SOCKET_TRANSPARENT)) {
		xl_warn(r, "socket --nowildcard alone: translated as "
			"\"socket transparent 0-1\"");
		xl_match(r, socket_expr_alloc(LOC, NFT_SOCKET_TRANSPARENT, 0),
			 OP_IMPLICIT, range_expr_alloc(LOC, xl_sym(LOC, "0"),
						       xl_sym(LOC, "1")));
		r->inexact = true;
	}
	return 0;
}

/* IPv6 extension headers: frag, hbh/dst, rt, mh */
static void exthdr_range(struct xl_rule *r, const char *hdr,
			 const char *field, uint32_t lo, uint32_t hi,
			 uint32_t max, bool inv)
{
	if (lo == 0 && hi == max && !inv)
		return;
	xl_match_range(r, xl_exthdr(LOC, hdr, field), lo, hi, inv);
}

static void exthdr_exists(struct xl_rule *r, const char *hdr)
{
	struct expr *e = xl_exthdr(LOC, hdr, "nexthdr");

	e->exthdr.flags = NFT_EXTHDR_F_PRESENT;
	e->dtype = &boolean_type;
	xl_match(r, e, OP_IMPLICIT, xl_sym(LOC, "exists"));
}

int xl_map_frag(struct xl_rule *r, const void *data)
{
	const struct ip6t_frag *f = data;
	unsigned int n = r->rule->num_stmts;

	exthdr_range(r, "frag", "id", f->ids[0], f->ids[1], UINT32_MAX,
		     f->invflags & IP6T_FRAG_INV_IDS);
	if (f->flags & IP6T_FRAG_RES)
		xl_match(r, xl_exthdr(LOC, "frag", "reserved"), OP_NEQ,
			 xl_sym(LOC, "0"));
	if (f->flags & IP6T_FRAG_FST)
		xl_match(r, xl_exthdr(LOC, "frag", "frag-off"), OP_IMPLICIT,
			 xl_sym(LOC, "0"));
	if (f->flags & IP6T_FRAG_MF)
		xl_match(r, xl_exthdr(LOC, "frag", "more-fragments"),
			 OP_IMPLICIT, xl_sym(LOC, "1"));
	if (f->flags & IP6T_FRAG_NMF)
		xl_match(r, xl_exthdr(LOC, "frag", "more-fragments"),
			 OP_IMPLICIT, xl_sym(LOC, "0"));
	if (r->rule->num_stmts == n)
		exthdr_exists(r, "frag");
	return 0;
}

static int map_opts(struct xl_rule *r, const void *data, const char *hdr)
{
	const struct ip6t_opts *o = data;

	if (o->flags & IP6T_OPTS_OPTS)
		return xl_error(r, "%s options list cannot be expressed in "
				"nftables", hdr);
	if (o->flags & IP6T_OPTS_LEN)
		xl_match_inv(r, xl_exthdr(LOC, hdr, "hdrlength"),
			     o->invflags & IP6T_OPTS_INV_LEN,
			     xl_sym(LOC, "%u", o->hdrlen));
	else
		exthdr_exists(r, hdr);
	return 0;
}

int xl_map_hbh(struct xl_rule *r, const void *data)
{
	return map_opts(r, data, "hbh");
}

int xl_map_dst(struct xl_rule *r, const void *data)
{
	return map_opts(r, data, "dst");
}

int xl_map_rt(struct xl_rule *r, const void *data)
{
	const struct ip6t_rt *t = data;
	unsigned int n = r->rule->num_stmts;

	if (t->flags & IP6T_RT_TYP)
		xl_match_inv(r, xl_exthdr(LOC, "rt", "type"),
			     t->invflags & IP6T_RT_INV_TYP,
			     xl_sym(LOC, "%u", t->rt_type));
	exthdr_range(r, "rt", "seg-left", t->segsleft[0], t->segsleft[1],
		     UINT32_MAX, t->invflags & IP6T_RT_INV_SGS);
	if (t->flags & IP6T_RT_LEN)
		xl_match_inv(r, xl_exthdr(LOC, "rt", "hdrlength"),
			     t->invflags & IP6T_RT_INV_LEN,
			     xl_sym(LOC, "%u", t->hdrlen));
	if (t->flags & (IP6T_RT_RES | IP6T_RT_FST_MASK))
		return xl_error(r, "rt --rt-0-res/--rt-0-addrs cannot be "
				"expressed in nftables");
	if (r->rule->num_stmts == n)
		exthdr_exists(r, "rt");
	return 0;
}

int xl_map_mh(struct xl_rule *r, const void *data)
{
	const struct ip6t_mh *m = data;

	if (m->types[0] == 0 && m->types[1] == 0xff &&
	    !(m->invflags & IP6T_MH_INV_TYPE)) {
		exthdr_exists(r, "mh");
		return 0;
	}
	xl_match_range(r, xl_exthdr(LOC, "mh", "type"), m->types[0],
		       m->types[1], m->invflags & IP6T_MH_INV_TYPE);
	return 0;
}
