// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decompilation of statements: the VM expressions that act rather than
 * load or compare (counter, log, nat, dynset, ...), back to IR
 * statements. Values they take from registers were loaded by earlier
 * expressions (immediates, maps, selectors) and are typed here, where
 * what they mean is known.
 */
#include <config.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <net/ethernet.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_log.h>
#include <stdio.h>
#include "delin_int.h"
#include "rule.h"
#include "list_tmpl.h"

#define U32(e, a)	dx_u32(e, a)
#define U64(e, a)	dx_u64(e, a)
#define HAS(e, a)	dx_has(e, a)

typedef struct stmt *(*delin_stmt_fn)(struct delin_rule_ctx *c,
				       const struct dx *e);

/* A placeholder typed like @dtype for delin_retype(). */
static struct expr *like_alloc(const struct datatype *dtype,
			       enum byteorder order, unsigned int len)
{
	return expr_alloc(&delin_loc, EXPR_VALUE, dtype, order, len);
}

static struct expr *reg_typed(struct delin_rule_ctx *c, uint32_t reg,
			      const struct datatype *dtype,
			      enum byteorder order, unsigned int len)
{
	struct expr *like = like_alloc(dtype, order, len);
	struct expr *v = delin_reg_get(c, reg, 0);

	v = delin_retype(v, like);
	expr_free(like);
	return v;
}

/* ------------------------------------------------------ stateful ones */

static struct stmt *st_counter(struct delin_rule_ctx *c,
			       const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_COUNTER);

	if (s) {
		s->counter.packets = U64(e, NFTNL_EXPR_CTR_PACKETS);
		s->counter.bytes = U64(e, NFTNL_EXPR_CTR_BYTES);
	}
	return s;
}

static struct stmt *st_limit(struct delin_rule_ctx *c,
			     const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_LIMIT);
	struct list_tmpl_rec *rec = c && c->dctx ? c->dctx->rec : NULL;

	/* a listing template is recorded: the rate is value slot k */
	if (rec && rec->cur < TMPL_CMPS) {
		if (s)
			s->location.first_line = TMPL_MARK + rec->cur;
		rec->cur++;
	}
	if (s) {
		s->limit.rate = U64(e, NFTNL_EXPR_LIMIT_RATE);
		s->limit.unit = U64(e, NFTNL_EXPR_LIMIT_UNIT);
		s->limit.burst = U32(e, NFTNL_EXPR_LIMIT_BURST);
		s->limit.type = U32(e, NFTNL_EXPR_LIMIT_TYPE);
		s->limit.flags = U32(e, NFTNL_EXPR_LIMIT_FLAGS);
	}
	return s;
}

static struct stmt *st_quota(struct delin_rule_ctx *c,
			     const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_QUOTA);

	if (s) {
		s->quota.bytes = U64(e, NFTNL_EXPR_QUOTA_BYTES);
		s->quota.used = U64(e, NFTNL_EXPR_QUOTA_CONSUMED);
		s->quota.flags = U32(e, NFTNL_EXPR_QUOTA_FLAGS);
	}
	return s;
}

static struct stmt *st_connlimit(struct delin_rule_ctx *c,
				 const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_CONNLIMIT);

	if (s) {
		s->connlimit.count = U32(e, NFTNL_EXPR_CONNLIMIT_COUNT);
		s->connlimit.flags = U32(e, NFTNL_EXPR_CONNLIMIT_FLAGS);
	}
	return s;
}

static struct stmt *st_last(struct delin_rule_ctx *c,
			    const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_LAST);

	if (s) {
		s->last.used = U64(e, NFTNL_EXPR_LAST_MSECS);
		s->last.set = U32(e, NFTNL_EXPR_LAST_SET);
	}
	return s;
}

/* -------------------------------------------------------- the others */

static struct stmt *st_log(struct delin_rule_ctx *c,
			   const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_LOG);

	if (!s)
		return NULL;
	if (HAS(e, NFTNL_EXPR_LOG_PREFIX)) {
		s->log.prefix = strdup(dx_str(e,
						NFTNL_EXPR_LOG_PREFIX));
		s->log.flags |= STMT_LOG_PREFIX;
	}
	if (HAS(e, NFTNL_EXPR_LOG_GROUP)) {
		s->log.group = dx_u16(e, NFTNL_EXPR_LOG_GROUP);
		s->log.flags |= STMT_LOG_GROUP;
	}
	if (HAS(e, NFTNL_EXPR_LOG_SNAPLEN)) {
		s->log.snaplen = U32(e, NFTNL_EXPR_LOG_SNAPLEN);
		s->log.flags |= STMT_LOG_SNAPLEN;
	}
	if (HAS(e, NFTNL_EXPR_LOG_QTHRESHOLD)) {
		s->log.qthreshold = dx_u16(e,
						NFTNL_EXPR_LOG_QTHRESHOLD);
		s->log.flags |= STMT_LOG_QTHRESHOLD;
	}
	if (HAS(e, NFTNL_EXPR_LOG_LEVEL)) {
		s->log.level = U32(e, NFTNL_EXPR_LOG_LEVEL);
		s->log.flags |= STMT_LOG_LEVEL;
	}
	if (HAS(e, NFTNL_EXPR_LOG_FLAGS))
		s->log.logflags = U32(e, NFTNL_EXPR_LOG_FLAGS);
	return s;
}

/* The network family a statement works in: the table's, or the one the
 * rule matched so far (inet). */
static unsigned int net_family(struct delin_rule_ctx *c)
{
	const struct proto_desc *d =
		c->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;

	if (d == &proto_ip)
		return NFPROTO_IPV4;
	if (d == &proto_ip6)
		return NFPROTO_IPV6;
	if (c->dctx->family == NFPROTO_IPV4 || c->dctx->family == NFPROTO_IPV6)
		return c->dctx->family;
	return 0;
}

/*
 * "reject with tcp reset" needs the tcp match the compiler put before
 * it: that match is its dependency, not the user's.
 */
static void tcp_dep_used(struct delin_rule_ctx *c)
{
	struct stmt *s;
	const struct expr *l, *r;

	/* tables of several families keep it: it also picks the family */
	if (c->dctx->family != NFPROTO_IPV4 && c->dctx->family != NFPROTO_IPV6)
		return;
	list_for_each_entry(s, &c->rule->stmts, list) {
		if (s->kind != STMT_EXPRESSION || !s->expr ||
		    s->expr->kind != EXPR_RELATIONAL || s->expr->op != OP_EQ)
			continue;
		l = s->expr->pair.left;
		r = s->expr->pair.right;
		if (r->kind != EXPR_VALUE || r->value.len != 8 ||
		    value_get_u64(&r->value) != 6)	/* IPPROTO_TCP */
			continue;
		if ((l->kind == EXPR_META && l->meta.key == NFT_META_L4PROTO) ||
		    (l->kind == EXPR_PAYLOAD && (l->flags & EXPR_F_PROTOCOL) &&
		     l->payload.base == PROTO_BASE_NETWORK_HDR))
			s->expr->flags |= EXPR_F_IMPLICIT_DEP;
	}
}

static struct stmt *st_reject(struct delin_rule_ctx *c,
			      const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_REJECT);

	if (!s)
		return NULL;
	s->reject.type = U32(e, NFTNL_EXPR_REJECT_TYPE);
	s->reject.icmp_code = HAS(e, NFTNL_EXPR_REJECT_CODE) ?
			      dx_u8(e, NFTNL_EXPR_REJECT_CODE) : -1;
	if (s->reject.type == NFT_REJECT_ICMP_UNREACH)
		s->reject.family = net_family(c);
	if (s->reject.type == NFT_REJECT_TCP_RST)
		tcp_dep_used(c);
	return s;
}

static const struct datatype *addr_dtype(unsigned int family,
					 unsigned int *len)
{
	if (family == NFPROTO_IPV6) {
		*len = 128;
		return &ip6addr_type;
	}
	*len = 32;
	return &ipaddr_type;
}

/* Prefix length of the range @lo-@hi, -1 if it is none. */
static int range_prefix(const struct value *lo, const struct value *hi)
{
	struct value x, t;

	if (lo->len != hi->len || value_cmp(lo, hi) >= 0)
		return -1;
	value_xor(&x, lo, hi);
	value_and(&t, lo, &x);
	if (!value_is_zero(&t))
		return -1;
	t = x;
	value_inc(&t);
	if (!value_is_zero(&t) && value_popcount(&t) != 1)
		return -1;
	return lo->len - value_popcount(&x);
}

/* min..max registers: one value or a range. */
static struct expr *reg_pair(struct delin_rule_ctx *c, const struct dx *e,
			     uint16_t amin, uint16_t amax,
			     const struct datatype *dtype,
			     enum byteorder order, unsigned int len)
{
	struct expr *lo, *hi;

	if (!HAS(e, amin))
		return NULL;
	lo = reg_typed(c, U32(e, amin), dtype, order, len);
	if (!HAS(e, amax) || U32(e, amax) == U32(e, amin))
		return lo;
	hi = reg_typed(c, U32(e, amax), dtype, order, len);
	if (!lo || !hi) {
		expr_free(hi);
		return lo;
	}
	if (lo->kind == EXPR_VALUE && hi->kind == EXPR_VALUE &&
	    (dtype->flags & DTYPE_F_PREFIX)) {
		int plen = range_prefix(&lo->value, &hi->value);

		if (plen >= 0) {
			expr_free(hi);
			return prefix_expr_alloc(&delin_loc, lo, plen);
		}
	}
	return range_expr_alloc(&delin_loc, lo, hi);
}

static struct stmt *st_nat(struct delin_rule_ctx *c,
			   const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_NAT);
	const struct datatype *dt;
	unsigned int len;

	if (!s)
		return NULL;
	s->nat.kind = U32(e, NFTNL_EXPR_NAT_TYPE) == NFT_NAT_SNAT ?
		      NAT_SNAT : NAT_DNAT;
	s->nat.family = U32(e, NFTNL_EXPR_NAT_FAMILY);
	s->nat.flags = U32(e, NFTNL_EXPR_NAT_FLAGS);
	dt = addr_dtype(s->nat.family, &len);
	s->nat.addr = reg_pair(c, e, NFTNL_EXPR_NAT_REG_ADDR_MIN,
			       NFTNL_EXPR_NAT_REG_ADDR_MAX, dt, BYTEORDER_BIG,
			       len);
	s->nat.proto = reg_pair(c, e, NFTNL_EXPR_NAT_REG_PROTO_MIN,
				NFTNL_EXPR_NAT_REG_PROTO_MAX,
				&inet_service_type, BYTEORDER_BIG, 16);
	if (s->nat.addr && s->nat.addr->kind == EXPR_MAP &&
	    s->nat.addr->dtype && s->nat.addr->dtype->subtypes)
		s->nat.type_flags |= STMT_NAT_F_CONCAT;
	return s;
}

static struct stmt *st_masq_redir(struct delin_rule_ctx *c,
				  const struct dx *e, bool masq)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_NAT);

	if (!s)
		return NULL;
	s->nat.kind = masq ? NAT_MASQ : NAT_REDIR;
	s->nat.flags = U32(e, masq ? NFTNL_EXPR_MASQ_FLAGS :
			   NFTNL_EXPR_REDIR_FLAGS);
	s->nat.proto = reg_pair(c, e, masq ? NFTNL_EXPR_MASQ_REG_PROTO_MIN :
				NFTNL_EXPR_REDIR_REG_PROTO_MIN,
				masq ? NFTNL_EXPR_MASQ_REG_PROTO_MAX :
				NFTNL_EXPR_REDIR_REG_PROTO_MAX,
				&inet_service_type, BYTEORDER_BIG, 16);
	return s;
}

static struct stmt *st_masq(struct delin_rule_ctx *c,
			    const struct dx *e)
{
	return st_masq_redir(c, e, true);
}

static struct stmt *st_redir(struct delin_rule_ctx *c,
			     const struct dx *e)
{
	return st_masq_redir(c, e, false);
}

static struct stmt *st_tproxy(struct delin_rule_ctx *c,
			      const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_TPROXY);
	const struct datatype *dt;
	unsigned int len;

	if (!s)
		return NULL;
	s->tproxy.family = U32(e, NFTNL_EXPR_TPROXY_FAMILY);
	dt = addr_dtype(s->tproxy.family ? s->tproxy.family : net_family(c),
			&len);
	if (HAS(e, NFTNL_EXPR_TPROXY_REG_ADDR))
		s->tproxy.addr = reg_typed(c, U32(e, NFTNL_EXPR_TPROXY_REG_ADDR),
					   dt, BYTEORDER_BIG, len);
	if (HAS(e, NFTNL_EXPR_TPROXY_REG_PORT))
		s->tproxy.port = reg_typed(c, U32(e, NFTNL_EXPR_TPROXY_REG_PORT),
					   &inet_service_type, BYTEORDER_BIG,
					   16);
	return s;
}

static struct stmt *st_queue(struct delin_rule_ctx *c,
			     const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_QUEUE);
	uint16_t num, total;

	if (!s)
		return NULL;
	s->queue.flags = dx_u16(e, NFTNL_EXPR_QUEUE_FLAGS);
	if (HAS(e, NFTNL_EXPR_QUEUE_SREG_QNUM)) {
		s->queue.queue = delin_reg_get(c,
				U32(e, NFTNL_EXPR_QUEUE_SREG_QNUM), 0);
		return s;
	}
	num = dx_u16(e, NFTNL_EXPR_QUEUE_NUM);
	total = dx_u16(e, NFTNL_EXPR_QUEUE_TOTAL);
	s->queue.queue = constant_expr_u64(&delin_loc, &integer_type,
					   BYTEORDER_HOST, 16, num);
	if (total > 1)
		s->queue.queue = range_expr_alloc(&delin_loc, s->queue.queue,
				constant_expr_u64(&delin_loc, &integer_type,
						  BYTEORDER_HOST, 16,
						  num + total - 1));
	return s;
}

static struct stmt *st_dup(struct delin_rule_ctx *c,
			   const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_DUP);
	const struct datatype *dt;
	unsigned int len;

	if (!s)
		return NULL;
	dt = addr_dtype(net_family(c), &len);
	if (HAS(e, NFTNL_EXPR_DUP_SREG_ADDR))
		s->dup.to = reg_typed(c, U32(e, NFTNL_EXPR_DUP_SREG_ADDR), dt,
				      BYTEORDER_BIG, len);
	if (HAS(e, NFTNL_EXPR_DUP_SREG_DEV))
		s->dup.dev = reg_typed(c, U32(e, NFTNL_EXPR_DUP_SREG_DEV),
				       &ifindex_type, BYTEORDER_HOST, 32);
	/* netdev: "dup to DEVICE" */
	if (!s->dup.to) {
		s->dup.to = s->dup.dev;
		s->dup.dev = NULL;
	}
	return s;
}

static struct stmt *st_fwd(struct delin_rule_ctx *c,
			   const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_FWD);
	const struct datatype *dt;
	unsigned int len;

	if (!s)
		return NULL;
	s->fwd.family = U32(e, NFTNL_EXPR_FWD_NFPROTO);
	if (HAS(e, NFTNL_EXPR_FWD_SREG_DEV))
		s->fwd.dev = reg_typed(c, U32(e, NFTNL_EXPR_FWD_SREG_DEV),
				       &ifindex_type, BYTEORDER_HOST, 32);
	if (HAS(e, NFTNL_EXPR_FWD_SREG_ADDR)) {
		dt = addr_dtype(s->fwd.family, &len);
		s->fwd.addr = reg_typed(c, U32(e, NFTNL_EXPR_FWD_SREG_ADDR),
					dt, BYTEORDER_BIG, len);
	}
	return s;
}

static struct stmt *st_notrack(struct delin_rule_ctx *c,
			       const struct dx *e)
{
	return stmt_alloc(&delin_loc, STMT_NOTRACK);
}

static struct expr *map_ref(struct set *set, const char *name,
			    struct expr *key)
{
	struct expr *ref;

	if (!set) {
		expr_free(key);
		return delin_string_expr(name ? name : "?");
	}
	ref = set_ref_expr_alloc(&delin_loc, set_get(set));
	return map_expr_alloc(&delin_loc, key, ref);
}

static struct stmt *st_objref(struct delin_rule_ctx *c,
			      const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_OBJREF);
	const char *name;

	if (!s)
		return NULL;
	if (HAS(e, NFTNL_EXPR_OBJREF_IMM_NAME)) {
		s->objref.type = U32(e, NFTNL_EXPR_OBJREF_IMM_TYPE);
		name = dx_str(e, NFTNL_EXPR_OBJREF_IMM_NAME);
		s->objref.expr = delin_string_expr(name);
		return s;
	}
	name = dx_str(e, NFTNL_EXPR_OBJREF_SET_NAME);
	{
		struct set *set = delin_find_set(c, e,
						 NFTNL_EXPR_OBJREF_SET_NAME,
						 NFTNL_EXPR_OBJREF_SET_ID);

		s->objref.type = set ? set->objtype : NFT_OBJECT_COUNTER;
		struct expr *key = delin_reg_get(c,
				U32(e, NFTNL_EXPR_OBJREF_SET_SREG),
				set && set->key ? delin_key_bytes(set->key) :
				0);

		delin_set_bind(set, key);
		s->objref.expr = map_ref(set, name, key);
	}
	return s;
}

static int dynset_stmt_cb(struct nftnl_expr *e, void *data)
{
	struct list_head *stmts = data;
	struct stmt *s = delin_stateful(e);

	if (s)
		list_add_tail(&s->list, stmts);
	return 0;
}

static struct stmt *st_dynset(struct delin_rule_ctx *c,
			      const struct dx *e)
{
	const char *name = dx_str(e, NFTNL_EXPR_DYNSET_SET_NAME);
	struct set *set = delin_find_set(c, e, NFTNL_EXPR_DYNSET_SET_NAME,
					 NFTNL_EXPR_DYNSET_SET_ID);
	struct expr *key, *elem;
	struct stmt *s;
	bool map = HAS(e, NFTNL_EXPR_DYNSET_SREG_DATA);

	s = stmt_alloc(&delin_loc, map ? STMT_MAP : STMT_SET);
	if (!s)
		return NULL;
	init_list_head(&s->set.stmts);
	s->set.op = U32(e, NFTNL_EXPR_DYNSET_OP);
	key = delin_reg_get(c, U32(e, NFTNL_EXPR_DYNSET_SREG_KEY),
			    set && set->key ? delin_key_bytes(set->key) : 0);
	if (set && set->key)
		key = delin_retype(key, set->key);
	elem = set_elem_expr_alloc(&delin_loc, key);
	if (elem && HAS(e, NFTNL_EXPR_DYNSET_TIMEOUT))
		elem->elem.timeout = U64(e, NFTNL_EXPR_DYNSET_TIMEOUT);
	s->set.key = elem;
	if (set) {
		s->set.set = set_ref_expr_alloc(&delin_loc, set_get(set));
	} else {
		struct set *ph = set_alloc(&delin_loc);

		if (ph)
			ph->handle.set.name = strdup(name ? name : "?");
		s->set.set = set_ref_expr_alloc(&delin_loc, ph);
	}
	if (map) {
		s->set.data = delin_reg_get(c,
				U32(e, NFTNL_EXPR_DYNSET_SREG_DATA),
				set && set->data ?
				delin_key_bytes(set->data) : 0);
		if (set && set->data)
			s->set.data = delin_retype(s->set.data, set->data);
	}
	if (e->nle)
		nftnl_expr_expr_foreach(e->nle, dynset_stmt_cb, &s->set.stmts);
	return s;
}

static struct stmt *st_synproxy(struct delin_rule_ctx *c,
				const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_SYNPROXY);

	if (s) {
		s->synproxy.mss = dx_u16(e, NFTNL_EXPR_SYNPROXY_MSS);
		s->synproxy.wscale = dx_u8(e,
						NFTNL_EXPR_SYNPROXY_WSCALE);
		s->synproxy.flags = U32(e, NFTNL_EXPR_SYNPROXY_FLAGS);
	}
	return s;
}

static struct stmt *st_flow(struct delin_rule_ctx *c,
			    const struct dx *e)
{
	struct stmt *s = stmt_alloc(&delin_loc, STMT_FLOW_OFFLOAD);

	if (s)
		s->flow.table_name = strdup(dx_str(e,
					    NFTNL_EXPR_FLOW_TABLE_NAME));
	return s;
}

/* What the rule matched so far, as the extension's entry names it. */
static uint32_t xt_proto(struct delin_rule_ctx *c)
{
	static const struct {
		const struct proto_desc	*desc;
		uint32_t		num;
	} l4[] = {
		{ &proto_tcp,		IPPROTO_TCP },
		{ &proto_udp,		IPPROTO_UDP },
		{ &proto_udplite,	IPPROTO_UDPLITE },
		{ &proto_sctp,		IPPROTO_SCTP },
		{ &proto_dccp,		IPPROTO_DCCP },
		{ &proto_esp,		IPPROTO_ESP },
		{ &proto_ah,		IPPROTO_AH },
	};
	const struct proto_desc *d;
	size_t i;

	if (c->dctx->family == NFPROTO_BRIDGE) {
		d = c->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
		if (d == &proto_ip)
			return htons(ETH_P_IP);
		if (d == &proto_ip6)
			return htons(ETH_P_IPV6);
		return 0;
	}
	d = c->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc;
	for (i = 0; i < sizeof(l4) / sizeof(l4[0]); i++) {
		if (l4[i].desc == d)
			return l4[i].num;
	}
	return 0;
}

/*
 * xtables compat expressions (iptables-nft): translated by the CLI's
 * hook when it has one, else listed by name as stock nft does without
 * a translation.
 */
static struct stmt *st_xt(struct delin_rule_ctx *c, bool target,
			  const struct dx *e)
{
	struct delin_xt xt = { 0 };
	char buf[128], *text = NULL;
	struct expr *sym;

	xt.name = dx_str(e, target ? NFTNL_EXPR_TG_NAME :
				     NFTNL_EXPR_MT_NAME);
	xt.kind = target ? "target" : "match";
	if (!xt.name)
		xt.name = "";
	/* ebtables' log and nflog are watchers */
	if (target && c->dctx->family == NFPROTO_BRIDGE &&
	    (!strcmp(xt.name, "log") || !strcmp(xt.name, "nflog")))
		xt.kind = "watcher";
	xt.rev = U32(e, target ? NFTNL_EXPR_TG_REV : NFTNL_EXPR_MT_REV);
	xt.family = c->dctx->family;
	xt.proto = xt_proto(c);
	xt.info = dx_data(e, target ? NFTNL_EXPR_TG_INFO :
				 NFTNL_EXPR_MT_INFO, &xt.len);
	c->dctx->xt_count++;
	if (c->dctx->xt_xlate)
		text = c->dctx->xt_xlate(c->dctx->xt_priv, &xt);
	if (!text) {
		snprintf(buf, sizeof(buf), "xt %s %s", xt.kind, xt.name);
		sym = symbol_expr_alloc(&delin_loc, SYMBOL_VALUE, buf);
	} else {
		sym = symbol_expr_alloc(&delin_loc, SYMBOL_VALUE, text);
		free(text);
	}
	/*
	 * The IR has no xt statement: its text rides in a symbol. A verdict
	 * statement prints it as is and, not being a match, keeps the
	 * dependencies before it listed, as stock's xt statement does.
	 */
	return sym ? verdict_stmt_alloc(&delin_loc, sym) : NULL;
}

static struct stmt *st_match(struct delin_rule_ctx *c,
			     const struct dx *e)
{
	return st_xt(c, false, e);
}

static struct stmt *st_target(struct delin_rule_ctx *c,
			      const struct dx *e)
{
	return st_xt(c, true, e);
}

static const struct {
	const char	*name;
	delin_stmt_fn	fn;
	bool		stateful;
} delin_stmts[] = {
	{ "counter",		st_counter,	true },
	{ "limit",		st_limit,	true },
	{ "quota",		st_quota,	true },
	{ "connlimit",		st_connlimit,	true },
	{ "last",		st_last,	true },
	{ "log",		st_log },
	{ "reject",		st_reject },
	{ "nat",		st_nat },
	{ "masq",		st_masq },
	{ "redir",		st_redir },
	{ "tproxy",		st_tproxy },
	{ "queue",		st_queue },
	{ "dup",		st_dup },
	{ "fwd",		st_fwd },
	{ "notrack",		st_notrack },
	{ "objref",		st_objref },
	{ "dynset",		st_dynset },
	{ "synproxy",		st_synproxy },
	{ "flow_offload",	st_flow },
	{ "match",		st_match },
	{ "target",		st_target },
};

#define N_STMTS		(sizeof(delin_stmts) / sizeof(delin_stmts[0]))

/**
 * delin_stmt - decompile statement expression @e named @name
 * Returns 0 when handled, -1 for an unknown expression.
 */
int delin_stmt(struct delin_rule_ctx *c, const char *name,
	       const struct dx *e)
{
	size_t i;

	for (i = 0; i < N_STMTS; i++) {
		if (!strcmp(delin_stmts[i].name, name)) {
			delin_add_stmt(c, delin_stmts[i].fn(c, e));
			return 0;
		}
	}
	return -1;
}

/**
 * delin_stateful - a stateful expression (set element, dynset) as a
 * statement; NULL for anything else
 */
struct stmt *delin_stateful(const struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	struct dx x = { .nle = e };
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < N_STMTS; i++) {
		if (delin_stmts[i].stateful &&
		    !strcmp(delin_stmts[i].name, name))
			return delin_stmts[i].fn(NULL, &x);
	}
	return NULL;
}
