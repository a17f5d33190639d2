// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target mappings: the kernel structure of each iptables target to IR
 * statements (and, for targets that end the rule, the verdict iptables
 * implies: TPROXY accepts, for instance). Registered in map.c.
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_log.h>
#include <linux/netfilter/nf_synproxy.h>
#include <linux/netfilter/xt_LOG.h>
#include <linux/netfilter/xt_NFLOG.h>
#include <linux/netfilter/xt_mark.h>
#include <linux/netfilter/xt_connmark.h>
#include <linux/netfilter/xt_CT.h>
#include <linux/netfilter/xt_NFQUEUE.h>
#include <linux/netfilter/xt_TEE.h>
#include <linux/netfilter/xt_TPROXY.h>
#include <linux/netfilter/xt_TCPMSS.h>
#include <linux/netfilter/xt_DSCP.h>
#include <linux/netfilter/xt_CLASSIFY.h>
#include <linux/netfilter/xt_SYNPROXY.h>
#include <linux/netfilter/xt_AUDIT.h>
#include <linux/netfilter_ipv4/ipt_REJECT.h>
#include <linux/netfilter_ipv4/ipt_TTL.h>
#include <linux/netfilter_ipv6/ip6t_REJECT.h>
#include <linux/netfilter_ipv6/ip6t_HL.h>
#include "xlate_int.h"
#include "xlate_map.h"
#include "keys.h"
#include "proto.h"

#define LOC	(&r->loc)

static void meta_set(struct xl_rule *r, enum nft_meta_keys key,
		     struct expr *val)
{
	struct stmt *s = stmt_alloc(LOC, STMT_META);

	s->meta.key = key;
	s->meta.expr = val;
	xl_add_stmt(r, s);
}

static void add_verdict(struct xl_rule *r, int verdict)
{
	xl_add_stmt(r, verdict_stmt_alloc(LOC, verdict_expr_alloc(LOC, verdict,
								  NULL)));
}

int xl_map_log(struct xl_rule *r, const void *data)
{
	const struct xt_log_info *l = data;
	struct stmt *s = stmt_alloc(LOC, STMT_LOG);

	if (l->prefix[0]) {
		s->log.prefix = strndup(l->prefix, sizeof(l->prefix));
		s->log.flags |= STMT_LOG_PREFIX;
	}
	if (l->level != LOG_WARNING) {
		s->log.level = l->level;
		s->log.flags |= STMT_LOG_LEVEL;
	}
	s->log.logflags = l->logflags & (NF_LOG_TCPSEQ | NF_LOG_TCPOPT |
					 NF_LOG_IPOPT | NF_LOG_UID |
					 NF_LOG_MACDECODE);
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_nflog(struct xl_rule *r, const void *data)
{
	const struct xt_nflog_info *l = data;
	struct stmt *s = stmt_alloc(LOC, STMT_LOG);

	if (l->prefix[0]) {
		s->log.prefix = strndup(l->prefix, sizeof(l->prefix));
		s->log.flags |= STMT_LOG_PREFIX;
	}
	s->log.group = l->group;
	s->log.flags |= STMT_LOG_GROUP;
	if (l->flags & XT_NFLOG_F_COPY_LEN) {
		s->log.snaplen = l->len;
		s->log.flags |= STMT_LOG_SNAPLEN;
	}
	if (l->threshold > 1) {
		s->log.qthreshold = l->threshold;
		s->log.flags |= STMT_LOG_QTHRESHOLD;
	}
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_audit(struct xl_rule *r, const void *data)
{
	struct stmt *s = stmt_alloc(LOC, STMT_LOG);

	s->log.level = NFT_LOGLEVEL_AUDIT;
	s->log.flags |= STMT_LOG_LEVEL;
	xl_add_stmt(r, s);
	return 0;
}

static const char *const reject4[] = {
	[IPT_ICMP_NET_UNREACHABLE]	= "net-unreachable",
	[IPT_ICMP_HOST_UNREACHABLE]	= "host-unreachable",
	[IPT_ICMP_PROT_UNREACHABLE]	= "prot-unreachable",
	[IPT_ICMP_PORT_UNREACHABLE]	= "port-unreachable",
	[IPT_ICMP_NET_PROHIBITED]	= "net-prohibited",
	[IPT_ICMP_HOST_PROHIBITED]	= "host-prohibited",
	[IPT_ICMP_ADMIN_PROHIBITED]	= "admin-prohibited",
};

static const char *const reject6[] = {
	[IP6T_ICMP6_NO_ROUTE]		= "no-route",
	[IP6T_ICMP6_ADM_PROHIBITED]	= "admin-prohibited",
	[IP6T_ICMP6_ADDR_UNREACH]	= "addr-unreachable",
	[IP6T_ICMP6_PORT_UNREACH]	= "port-unreachable",
	[IP6T_ICMP6_POLICY_FAIL]	= "policy-fail",
	[IP6T_ICMP6_REJECT_ROUTE]	= "reject-route",
};

int xl_map_reject(struct xl_rule *r, const void *data)
{
	bool v6 = r->ctx->family == NFPROTO_IPV6;
	unsigned int with = v6 ?
		((const struct ip6t_reject_info *)data)->with :
		((const struct ipt_reject_info *)data)->with;
	const char *name = NULL;
	struct stmt *s;

	if (v6 ? with == IP6T_TCP_RESET : with == IPT_TCP_RESET) {
		if (r->proto != IPPROTO_TCP || r->proto_inv)
			return xl_error(r, "TCP reset is only valid with "
					"`-p tcp'");
	} else if (v6 ? with == IP6T_ICMP6_ECHOREPLY || with == 2 :
			with == IPT_ICMP_ECHOREPLY) {
		return xl_error(r, "REJECT with echo-reply is no longer "
				"supported");
	} else {
		name = v6 ? (with < sizeof(reject6) / sizeof(reject6[0]) ?
			     reject6[with] : NULL) :
			    (with < sizeof(reject4) / sizeof(reject4[0]) ?
			     reject4[with] : NULL);
		if (!name)
			return xl_error(r, "unknown REJECT type %u", with);
	}
	s = stmt_alloc(LOC, STMT_REJECT);
	s->reject.icmp_code = -1;
	if (!name) {
		s->reject.type = NFT_REJECT_TCP_RST;
	} else {
		s->reject.type = NFT_REJECT_ICMP_UNREACH;
		/* the default is port-unreachable: write it as stock would */
		if (strcmp(name, "port-unreachable")) {
			s->reject.family = v6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
			s->reject.expr = xl_sym(LOC, "%s", name);
		}
	}
	xl_add_stmt(r, s);
	return 0;
}

/**
 * struct xl_nat - a NAT target's range, whatever structure revision
 * libxtables filled
 */
struct xl_nat {
	uint32_t		flags;
	union nf_inet_addr	min, max;
	uint16_t		pmin, pmax;	/* host order */
};

static void nat_read(const struct xl_rule *r, const void *data,
		     unsigned int size, struct xl_nat *n)
{
	memset(n, 0, sizeof(*n));
	if (size == XT_ALIGN(sizeof(struct nf_nat_ipv4_multi_range_compat))) {
		const struct nf_nat_ipv4_range *c =
			&((const struct nf_nat_ipv4_multi_range_compat *)
			  data)->range[0];

		n->flags = c->flags;
		n->min.ip = c->min_ip;
		n->max.ip = c->max_ip;
		n->pmin = ntohs(c->min.all);
		n->pmax = ntohs(c->max.all);
		return;
	}
	{
		const struct nf_nat_range *nr = data;

		n->flags = nr->flags;
		n->min = nr->min_addr;
		n->max = nr->max_addr;
		n->pmin = ntohs(nr->min_proto.all);
		n->pmax = ntohs(nr->max_proto.all);
	}
}

static struct stmt *nat_stmt(struct xl_rule *r, enum nat_kind kind,
			     const struct xl_nat *n)
{
	int af = r->ctx->family == NFPROTO_IPV6 ? AF_INET6 : AF_INET;
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	struct stmt *s = stmt_alloc(LOC, STMT_NAT);

	s->nat.kind = kind;
	if (n->flags & NF_NAT_RANGE_MAP_IPS) {
		inet_ntop(af, &n->min, a, sizeof(a));
		inet_ntop(af, &n->max, b, sizeof(b));
		s->nat.addr = strcmp(a, b) ?
			range_expr_alloc(LOC, xl_sym(LOC, "%s", a),
					 xl_sym(LOC, "%s", b)) :
			xl_sym(LOC, "%s", a);
	}
	if (n->flags & NF_NAT_RANGE_PROTO_SPECIFIED)
		s->nat.proto = xl_range(LOC, n->pmin, n->pmax, "%" PRIu64);
	s->nat.flags = n->flags & (NF_NAT_RANGE_PROTO_RANDOM |
				   NF_NAT_RANGE_PERSISTENT |
				   NF_NAT_RANGE_PROTO_RANDOM_FULLY);
	return s;
}

static int map_nat(struct xl_rule *r, const void *data, enum nat_kind kind)
{
	struct xl_nat n;

	nat_read(r, data, r->ext_size, &n);
	if ((n.flags & NF_NAT_RANGE_PROTO_SPECIFIED) && kind != NAT_MASQ &&
	    kind != NAT_REDIR && !xl_l4_desc(r->proto))
		return xl_error(r, "port range needs a protocol with ports");
	if (n.flags & NF_NAT_RANGE_PROTO_OFFSET)
		return xl_error(r, "NAT port offsets cannot be expressed in "
				"nftables");
	xl_add_stmt(r, nat_stmt(r, kind, &n));
	return 0;
}

int xl_map_snat(struct xl_rule *r, const void *data)
{
	return map_nat(r, data, NAT_SNAT);
}

int xl_map_dnat(struct xl_rule *r, const void *data)
{
	return map_nat(r, data, NAT_DNAT);
}

int xl_map_masquerade(struct xl_rule *r, const void *data)
{
	return map_nat(r, data, NAT_MASQ);
}

int xl_map_redirect(struct xl_rule *r, const void *data)
{
	return map_nat(r, data, NAT_REDIR);
}

/*
 * The kernel's mark/xmark: new = (old & ~mask) ^ value, written as
 * stock nft writes the simple cases.
 */
static struct expr *xmark_expr(struct xl_rule *r, struct expr *old,
			       uint32_t value, uint32_t mask)
{
	if (mask == UINT32_MAX) {
		expr_free(old);
		return xl_sym(LOC, "0x%x", value);
	}
	if (value == 0)
		return xl_binop(LOC, OP_AND, old, xl_sym(LOC, "0x%x", ~mask));
	if (value == mask)
		return xl_binop(LOC, OP_OR, old, xl_sym(LOC, "0x%x", value));
	if (mask == 0)
		return xl_binop(LOC, OP_XOR, old, xl_sym(LOC, "0x%x", value));
	return xl_binop(LOC, OP_XOR,
			xl_binop(LOC, OP_AND, old, xl_sym(LOC, "0x%x", ~mask)),
			xl_sym(LOC, "0x%x", value));
}

int xl_map_mark_tg(struct xl_rule *r, const void *data)
{
	const struct xt_mark_tginfo2 *m = data;

	meta_set(r, NFT_META_MARK, xmark_expr(r, xl_meta(LOC, NFT_META_MARK),
					      m->mark, m->mask));
	return 0;
}

static void ct_set(struct xl_rule *r, enum nft_ct_keys key, struct expr *val)
{
	struct stmt *s = stmt_alloc(LOC, STMT_CT);

	s->ct.key = key;
	s->ct.direction = -1;
	s->ct.expr = val;
	xl_add_stmt(r, s);
}

static struct expr *shifted(struct xl_rule *r, struct expr *e,
			    const struct xt_connmark_tginfo2 *c)
{
	if (!c->shift_bits)
		return e;
	return xl_binop(LOC, c->shift_dir == D_SHIFT_RIGHT ? OP_RSHIFT :
			OP_LSHIFT, e, xl_sym(LOC, "%u", c->shift_bits));
}

int xl_map_connmark_tg(struct xl_rule *r, const void *data)
{
	const struct xt_connmark_tginfo2 *c = data;

	switch (c->mode) {
	case XT_CONNMARK_SET:
		ct_set(r, NFT_CT_MARK,
		       shifted(r, xmark_expr(r, xl_ct(LOC, NFT_CT_MARK, -1),
					     c->ctmark, c->ctmask), c));
		return 0;
	case XT_CONNMARK_SAVE:
		if (c->ctmask == UINT32_MAX && c->nfmask == UINT32_MAX) {
			ct_set(r, NFT_CT_MARK,
			       shifted(r, xl_meta(LOC, NFT_META_MARK), c));
			return 0;
		}
		if (c->ctmask == c->nfmask && !c->shift_bits) {
			/* ct mark keeps ~mask bits: only when they are 0 */
			break;
		}
		break;
	case XT_CONNMARK_RESTORE:
		if (c->ctmask == UINT32_MAX && c->nfmask == UINT32_MAX) {
			meta_set(r, NFT_META_MARK,
				 shifted(r, xl_ct(LOC, NFT_CT_MARK, -1), c));
			return 0;
		}
		break;
	}
	return xl_error(r, "CONNMARK with partial masks cannot be expressed "
			"in nftables (it combines two marks)");
}

/* -j TRACE: nftables' packet tracing, as iptables-nft writes it */
int xl_map_trace(struct xl_rule *r, const void *data)
{
	meta_set(r, NFT_META_NFTRACE, xl_sym(LOC, "%s", "1"));
	return 0;
}

int xl_map_notrack(struct xl_rule *r, const void *data)
{
	xl_add_stmt(r, stmt_alloc(LOC, STMT_NOTRACK));
	return 0;
}

int xl_map_ct(struct xl_rule *r, const void *data)
{
	const struct xt_ct_target_info_v1 *c = data;

	if (c->flags & XT_CT_NOTRACK) {
		xl_add_stmt(r, stmt_alloc(LOC, STMT_NOTRACK));
		return 0;
	}
	if (c->helper[0] || c->timeout[0] || c->ct_events || c->exp_events)
		return xl_error(r, "CT --helper/--timeout/--ctevents need "
				"named ct objects: not translated");
	if (c->flags & (XT_CT_ZONE_DIR_ORIG | XT_CT_ZONE_DIR_REPL |
			XT_CT_ZONE_MARK))
		return xl_error(r, "CT directional or mark-derived zones "
				"cannot be expressed in nftables");
	if (c->zone)
		ct_set(r, NFT_CT_ZONE, xl_sym(LOC, "%u", c->zone));
	return 0;
}

int xl_map_tcpmss_tg(struct xl_rule *r, const void *data)
{
	const struct xt_tcpmss_info *t = data;
	const struct exthdr_desc *d = exthdr_tcpopt_lookup("maxseg");
	struct stmt *s;

	if (r->proto != IPPROTO_TCP || r->proto_inv)
		return xl_error(r, "TCPMSS target needs `-p tcp'");
	s = stmt_alloc(LOC, STMT_EXTHDR);
	s->payload.lhs = exthdr_expr_alloc(LOC, d, exthdr_field_lookup(d,
					   "size"), NFT_EXTHDR_OP_TCPOPT);
	s->payload.val = t->mss == XT_TCPMSS_CLAMP_PMTU ?
			 rt_expr_alloc(LOC, NFT_RT_TCPMSS) :
			 xl_sym(LOC, "%u", t->mss);
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_dscp_tg(struct xl_rule *r, const void *data)
{
	const struct xt_DSCP_info *d = data;
	struct stmt *s = stmt_alloc(LOC, STMT_PAYLOAD);

	s->payload.lhs = xl_payload(LOC, xl_l3_desc(r), "dscp");
	s->payload.val = xl_sym(LOC, "0x%02x", d->dscp);
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_classify(struct xl_rule *r, const void *data)
{
	const struct xt_classify_target_info *c = data;

	meta_set(r, NFT_META_PRIORITY, xl_sym(LOC, "%x:%x", c->priority >> 16,
					      c->priority & 0xffff));
	return 0;
}

int xl_map_nfqueue(struct xl_rule *r, const void *data)
{
	const struct xt_NFQ_info_v3 *q = data;
	struct stmt *s = stmt_alloc(LOC, STMT_QUEUE);
	uint16_t flags = r->ext_size >= sizeof(struct xt_NFQ_info_v3) ? q->flags : 0;
	unsigned int total = q->queues_total ? q->queues_total : 1;

	s->queue.queue = xl_range(LOC, q->queuenum, q->queuenum + total - 1,
				  "%" PRIu64);
	if (flags & NFQ_FLAG_BYPASS)
		s->queue.flags |= NFT_QUEUE_FLAG_BYPASS;
	if (flags & NFQ_FLAG_CPU_FANOUT)
		s->queue.flags |= NFT_QUEUE_FLAG_CPU_FANOUT;
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_tee(struct xl_rule *r, const void *data)
{
	const struct xt_tee_tginfo *t = data;
	int af = r->ctx->family == NFPROTO_IPV6 ? AF_INET6 : AF_INET;
	struct stmt *s = stmt_alloc(LOC, STMT_DUP);
	char a[INET6_ADDRSTRLEN];

	inet_ntop(af, &t->gw, a, sizeof(a));
	s->dup.to = xl_sym(LOC, "%s", a);
	if (t->oif[0])
		s->dup.dev = xl_qsym(LOC, t->oif);
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_tproxy(struct xl_rule *r, const void *data)
{
	const struct xt_tproxy_target_info_v1 *t = data;
	int af = r->ctx->family == NFPROTO_IPV6 ? AF_INET6 : AF_INET;
	static const uint8_t zero[16];
	struct stmt *s = stmt_alloc(LOC, STMT_TPROXY);
	char a[INET6_ADDRSTRLEN];

	if (memcmp(&t->laddr, zero, af == AF_INET ? 4 : 16)) {
		inet_ntop(af, &t->laddr, a, sizeof(a));
		s->tproxy.addr = xl_sym(LOC, "%s", a);
	}
	if (t->lport)
		s->tproxy.port = xl_sym(LOC, "%u", ntohs(t->lport));
	xl_add_stmt(r, s);
	if (t->mark_mask)
		meta_set(r, NFT_META_MARK,
			 xmark_expr(r, xl_meta(LOC, NFT_META_MARK),
				    t->mark_value, t->mark_mask));
	/* TPROXY accepts the packet */
	add_verdict(r, NF_ACCEPT);
	return 0;
}

int xl_map_synproxy(struct xl_rule *r, const void *data)
{
	const struct xt_synproxy_info *i = data;
	struct stmt *s = stmt_alloc(LOC, STMT_SYNPROXY);

	s->synproxy.mss = i->mss;
	s->synproxy.wscale = i->wscale;
	s->synproxy.flags = i->options & (NF_SYNPROXY_OPT_MSS |
					  NF_SYNPROXY_OPT_WSCALE |
					  NF_SYNPROXY_OPT_SACK_PERM |
					  NF_SYNPROXY_OPT_TIMESTAMP);
	xl_add_stmt(r, s);
	return 0;
}

static int ttl_set(struct xl_rule *r, const char *field, uint8_t mode,
		   uint8_t v)
{
	struct stmt *s;

	if (mode != IPT_TTL_SET)
		return xl_error(r, "%s increment/decrement cannot be expressed "
				"in nftables", field);
	s = stmt_alloc(LOC, STMT_PAYLOAD);
	s->payload.lhs = xl_payload(LOC, xl_l3_desc(r), field);
	s->payload.val = xl_sym(LOC, "%u", v);
	xl_add_stmt(r, s);
	return 0;
}

int xl_map_ttl_tg(struct xl_rule *r, const void *data)
{
	const struct ipt_TTL_info *t = data;

	return ttl_set(r, "ttl", t->mode, t->ttl);
}

int xl_map_hl_tg(struct xl_rule *r, const void *data)
{
	const struct ip6t_HL_info *h = data;

	return ttl_set(r, "hoplimit", h->mode, h->hop_limit);
}
