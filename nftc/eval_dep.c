/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Protocol dependencies and the protocol context of a rule: which
 * matches stock nft 1.0.6 inserts before a header field match, and what
 * a protocol match tells later selectors (see PASSES.md).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "evaluate.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"
#include "keys.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Dependencies. A header field needs the protocol of its header to be
 * known at its base; if the rule has not established it, a match is
 * generated before the current statement, the same one stock nft 1.0.6
 * generates (meta l4proto for transport headers, meta nfproto in inet,
 * meta protocol in netdev and for bridge network headers, ether type
 * for vlan and bridge icmp, meta iiftype for link layer fields where
 * the family has no link layer).
 */

/*
 * "meta KEY == VALUE" with a constant of the key's own width is built in
 * its evaluated form: for these keys expr_evaluate_relational() would
 * only retype the relational, leave the key's type as the context and
 * update the protocol context (checked byte for byte against the
 * general path). False for anything else, which is evaluated in full.
 */
static bool dep_rel_direct(struct eval_ctx *ctx, struct expr *rel)
{
	const struct expr *left = rel->pair.left, *right = rel->pair.right;

	if (left->kind != EXPR_META || right->kind != EXPR_VALUE ||
	    right->len != left->len || rel->dtype != &boolean_type)
		return false;
	switch (left->meta.key) {
	case NFT_META_NFPROTO:
		/* elsewhere the evaluator reports it */
		if (ctx->pctx.family != NFPROTO_INET)
			return false;
		break;
	case NFT_META_L4PROTO:
	case NFT_META_PROTOCOL:
	case NFT_META_IIFTYPE:
		break;
	default:
		return false;
	}
	expr_set_context(ctx, left->dtype, left->byteorder, left->len);
	ctx->ectx.key = NULL;
	rel->byteorder = BYTEORDER_HOST;
	rel->len = 1;
	rel->flags &= ~EXPR_F_CONSTANT;
	expr_pctx_update(ctx, rel);
	return true;
}

/* Evaluate "left == right" and insert it before the current statement. */
static int dep_insert_rel(struct eval_ctx *ctx, struct expr *left,
			  struct expr *right, const struct location *loc)
{
	struct stmt *stmt;
	struct expr *rel;

	rel = relational_expr_alloc(loc, OP_EQ, left, right);
	if (!rel)
		return erec_error(&ctx->nft->erq, loc, "out of memory");
	rel->flags |= EXPR_F_IMPLICIT_DEP;
	if (!dep_rel_direct(ctx, rel) &&
	    expr_evaluate_relational(ctx, &rel) < 0) {
		expr_free(rel);
		return -1;
	}
	if (!ctx->stmt || !ctx->rule) {
		/* Outside of a rule (set keys): nothing to insert. */
		expr_free(rel);
		return 0;
	}
	stmt = expr_stmt_alloc(loc, rel);
	if (!stmt) {
		expr_free(rel);
		return erec_error(&ctx->nft->erq, loc, "out of memory");
	}
	list_add_tail(&stmt->list, &ctx->stmt->list);
	ctx->rule->num_stmts++;
	return 0;
}

static int dep_insert(struct eval_ctx *ctx, struct expr *left, uint64_t num,
		      const struct location *loc)
{
	struct expr *right = constant_expr_u64(loc, left->dtype,
					       left->byteorder, left->len, num);

	return dep_insert_rel(ctx, left, right, loc);
}

/*
 * ICMP fields valid for some message types only ("icmp id") first match
 * the type: one value, or an anonymous set of two, as stock nft.
 */
static int dep_icmp_type(struct eval_ctx *ctx, const struct expr *expr)
{
	const struct proto_hdr_template *tmpl = expr->payload.tmpl;
	const struct proto_icmp_dep_types *d;
	struct expr *left, *set, *v;
	unsigned int i, field;

	if (!tmpl || tmpl->icmp_dep == PROTO_ICMP_ANY ||
	    tmpl->icmp_dep >= __PROTO_ICMP_DEP_MAX || ctx->icmp_type_known)
		return 0;
	d = &proto_icmp_deps[tmpl->icmp_dep];
	if (!d->desc || !d->ntypes)
		return 0;
	field = proto_field_lookup(d->desc, "type");
	left = payload_expr_alloc(&expr->location, d->desc, field);
	if (!left)
		return expr_error(ctx, expr, "out of memory");
	if (d->ntypes == 1)
		return dep_insert(ctx, left, d->types[0], &expr->location);
	set = list_expr_alloc(&expr->location, EXPR_SET);
	for (i = 0; set && i < d->ntypes; i++) {
		v = constant_expr_u64(&expr->location, left->dtype,
				      left->byteorder, left->len,
				      d->types[i]);
		if (v)
			list_expr_add(set, v);
	}
	if (!set) {
		expr_free(left);
		return expr_error(ctx, expr, "out of memory");
	}
	return dep_insert_rel(ctx, left, set, &expr->location);
}

/* "lower's protocol key == the value selecting upper" */
static int dep_link(struct eval_ctx *ctx, const struct proto_desc *lower,
		    const struct proto_desc *upper, const struct expr *expr)
{
	const struct proto_hdr_template *tmpl;
	struct expr *left;
	int num;

	num = proto_find_num(lower, upper);
	if (num < 0 || !lower->protocol_key)
		return expr_error(ctx, expr, "conflicting protocols specified: "
				  "%s vs. %s", lower->name, upper->name);
	tmpl = &lower->templates[lower->protocol_key];
	if (tmpl->meta_key)
		left = meta_expr_alloc(&expr->location, tmpl->meta_key);
	else
		left = payload_expr_alloc(&expr->location, lower,
					  lower->protocol_key);
	if (!left)
		return expr_error(ctx, expr, "out of memory");
	return dep_insert(ctx, left, num, &expr->location);
}

/* "meta iiftype TYPE" for a link layer header in ip/ip6/inet/netdev. */
static int dep_iiftype(struct eval_ctx *ctx, const struct proto_desc *desc,
		       const struct expr *expr)
{
	struct expr *left;
	uint16_t type;

	if (proto_dev_type(desc, &type) < 0)
		return expr_error(ctx, expr, "protocol specification is "
				  "invalid for this family");
	left = meta_expr_alloc(&expr->location, NFT_META_IIFTYPE);
	if (!left)
		return expr_error(ctx, expr, "out of memory");
	return dep_insert(ctx, left, type, &expr->location);
}

static bool desc_is_pseudo(const struct proto_desc *d)
{
	return d == &proto_inet || d == &proto_netdev;
}

/* Network protocol @upper needed for "icmp"/"icmpv6" in mixed families. */
static int dep_network(struct eval_ctx *ctx, const struct proto_desc *upper,
		       const struct expr *expr)
{
	const struct proto_desc *ll = ctx->pctx.protocol[PROTO_BASE_LL_HDR].desc;

	if (ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc)
		return 0;
	if (!ll)
		return expr_error(ctx, expr, "ambiguous payload specification: "
				  "no %s protocol specified",
				  proto_base_names[PROTO_BASE_LL_HDR]);
	return dep_link(ctx, ll, upper, expr);
}

static int dep_transport(struct eval_ctx *ctx, const struct proto_desc *desc,
			 const struct expr *expr)
{
	const struct proto_desc *nh;

	if (desc == &proto_th)
		return 0;
	/* a known network header other than ip/ip6 (arp) must carry it */
	nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	if (nh && nh != &proto_ip && nh != &proto_ip6 &&
	    proto_find_num(nh, desc) < 0)
		return expr_error(ctx, expr, "conflicting protocols specified: "
				  "%s vs. %s", nh->name, desc->name);
	if (desc == &proto_icmp &&
	    dep_network(ctx, &proto_ip, expr) < 0)
		return -1;
	if (desc == &proto_icmp6 &&
	    dep_network(ctx, &proto_ip6, expr) < 0)
		return -1;
	return dep_link(ctx, &proto_inet_service, desc, expr);
}

/* The header below @base is known but is not @desc: stack or conflict. */
/*
 * A header stacked on the link layer (vlan) now is the link layer; the
 * network header is unknown again, except in ip/ip6/arp tables where
 * the family fixes it.
 */
static void pctx_stack(struct proto_ctx *p, enum proto_bases base,
		       const struct proto_desc *cur,
		       const struct proto_desc *desc)
{
	enum proto_bases fbase;
	const struct proto_desc *fdesc = proto_family_desc(p->family, &fbase);

	p->protocol[base + 1].desc = fbase == base + 1 ? fdesc : NULL;
	p->protocol[base].desc = desc;
	p->protocol[base].offset += cur->length;
}

/*
 * @allow_link: a link layer header may be stacked by generating the
 * lower header's type match ("ether type vlan"). Stock nft does that in
 * bridge/inet/netdev tables, and in ip/ip6 tables only right after the
 * "meta iiftype" it generated for the same selector.
 */
static int dep_resolve_conflict(struct eval_ctx *ctx,
				const struct proto_desc *cur,
				const struct proto_desc *desc,
				enum proto_bases base, const struct expr *expr,
				bool allow_link)
{
	struct proto_ctx *p = &ctx->pctx;

	/* "ether type vlan" seen: the next header is stacked on this base */
	if (base < PROTO_BASE_MAX && p->protocol[base + 1].desc == desc &&
	    base == PROTO_BASE_LL_HDR) {
		pctx_stack(p, base, cur, desc);
		return 0;
	}
	if (desc_is_pseudo(cur) && base == PROTO_BASE_LL_HDR) {
		if (dep_iiftype(ctx, desc, expr) < 0)
			return -1;
		cur = p->protocol[base].desc;
		if (!cur || cur == desc)
			return 0;
	}
	if (base == PROTO_BASE_LL_HDR && allow_link &&
	    proto_find_num(cur, desc) >= 0) {
		if (dep_link(ctx, cur, desc, expr) < 0)
			return -1;
		pctx_stack(p, base, cur, desc);
		return 0;
	}
	if (base == PROTO_BASE_TRANSPORT_HDR && desc == &proto_th)
		return 0;
	if (base == PROTO_BASE_TRANSPORT_HDR && cur == &proto_th) {
		unsigned int i;

		/* a set of protocols: any specific one conflicts */
		for (i = 0; i < ctx->num_th_protos; i++) {
			if (ctx->th_protos[i] != desc) {
				cur = ctx->th_protos[i];
				break;
			}
		}
	}
	return expr_error(ctx, expr, "conflicting protocols specified: "
			  "%s vs. %s", cur->name, desc->name);
}

static int payload_dependency(struct eval_ctx *ctx,
			      const struct proto_desc *desc,
			      enum proto_bases base, const struct expr *expr)
{
	struct proto_ctx *p = &ctx->pctx;
	const struct proto_desc *cur = p->protocol[base].desc, *lower;
	enum proto_bases fbase;

	if (cur == desc)
		return 0;
	proto_family_desc(p->family, &fbase);
	if (cur)
		return dep_resolve_conflict(ctx, cur, desc, base, expr,
					    base >= fbase);
	if (base < fbase) {
		if (base + 1 < fbase)
			return expr_error(ctx, expr, "payload base is invalid "
					  "for this family");
		if (dep_iiftype(ctx, desc, expr) < 0)
			return -1;
		cur = p->protocol[base].desc;
		if (cur && cur != desc)
			return dep_resolve_conflict(ctx, cur, desc, base, expr,
						    true);
		return 0;
	}
	if (base == PROTO_BASE_TRANSPORT_HDR)
		return dep_transport(ctx, desc, expr);
	if (base == PROTO_BASE_LL_HDR || base > PROTO_BASE_TRANSPORT_HDR)
		return 0;

	lower = p->protocol[base - 1].desc;
	if (!lower)
		return expr_error(ctx, expr, "ambiguous payload specification: "
				  "no %s protocol specified",
				  proto_base_names[base - 1]);
	/*
	 * Bridge: skb->protocol also matches vlan-offloaded traffic, so
	 * stock nft prefers "meta protocol" over "ether type" here.
	 */
	if (p->family == NFPROTO_BRIDGE && lower == &proto_eth &&
	    (desc == &proto_ip || desc == &proto_ip6))
		lower = &proto_netdev;
	return dep_link(ctx, lower, desc, expr);
}

/*
 * IPv6 extension headers and IPv4 options need their network protocol:
 * matched from the link layer when unknown (ether type in bridge, not
 * meta protocol), an error when another one is known.
 */
static int exthdr_dependency(struct eval_ctx *ctx,
			     const struct proto_desc *want,
			     const struct expr *expr)
{
	const struct proto_desc *cur, *ll;

	cur = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	if (cur == want)
		return 0;
	if (cur)
		return expr_error(ctx, expr, "cannot use exthdr with %s",
				  cur->name);
	ll = ctx->pctx.protocol[PROTO_BASE_LL_HDR].desc;
	if (!ll)
		return expr_error(ctx, expr, "ambiguous payload specification: "
				  "no %s protocol specified",
				  proto_base_names[PROTO_BASE_LL_HDR]);
	return dep_link(ctx, ll, want, expr);
}

/**
 * expr_add_dependency - protocol dependencies of a load
 * @expr: payload, exthdr or key expression just evaluated
 *
 * Inserts the generated matches before ctx->stmt and updates ctx->pctx;
 * a contradiction ("tcp dport 1 udp dport 2") is reported at @expr.
 */
int expr_add_dependency(struct eval_ctx *ctx, struct expr *expr)
{
	int ret = 0;

	/* Set keys ("typeof ip saddr") have no rule to depend on. */
	if (!ctx->rule || !ctx->stmt)
		return 0;
	switch (expr->kind) {
	case EXPR_PAYLOAD:
		if (expr->payload.is_raw || !expr->payload.desc)
			return 0;
		ret = payload_dependency(ctx, expr->payload.desc,
					 expr->payload.base, expr);
		if (ret == 0)
			ret = dep_icmp_type(ctx, expr);
		if (ret == 0)
			expr->payload.offset +=
				ctx->pctx.protocol[expr->payload.base].offset;
		return ret;
	case EXPR_EXTHDR:
		switch (expr->exthdr.op) {
		case NFT_EXTHDR_OP_IPV6:
			return exthdr_dependency(ctx, &proto_ip6, expr);
		case NFT_EXTHDR_OP_IPV4:
			return exthdr_dependency(ctx, &proto_ip, expr);
		default:
			/*
			 * tcp options, sctp chunks: stock nft adds no
			 * dependency (the VM checks the l4 protocol)
			 */
			return 0;
		}
	default:
		return 0;
	}
}

/*
 * Protocol context updates: an equality on a protocol key field (ip
 * protocol, ether type, meta l4proto, ...) tells later selectors which
 * header follows.
 */
static void pctx_update_meta(struct eval_ctx *ctx, const struct expr *left,
			     const struct expr *right,
			     const struct location *loc)
{
	struct proto_ctx *p = &ctx->pctx;
	const struct proto_desc *ll = p->protocol[PROTO_BASE_LL_HDR].desc;
	const struct proto_desc *desc;
	uint64_t num = value_get_u64(&right->value);

	switch (left->meta.key) {
	case NFT_META_IIFTYPE:
		/* bridge tables know their link layer from the start */
		if (p->family == NFPROTO_BRIDGE)
			return;
		desc = proto_dev_desc(num);
		if (desc)
			proto_ctx_update(p, PROTO_BASE_LL_HDR, loc, desc);
		break;
	case NFT_META_NFPROTO:
		if (ll != &proto_inet)
			return;
		desc = proto_find_upper(ll, num);
		if (desc)
			proto_ctx_update(p, PROTO_BASE_NETWORK_HDR, loc, desc);
		break;
	case NFT_META_L4PROTO:
		desc = proto_find_upper(&proto_inet_service, num);
		if (desc)
			proto_ctx_update(p, PROTO_BASE_TRANSPORT_HDR, loc,
					 desc);
		break;
	case NFT_META_PROTOCOL:
		if (p->family != NFPROTO_NETDEV && p->family != NFPROTO_BRIDGE)
			return;
		if (!ll)
			return;
		desc = proto_find_upper(ll == &proto_eth ? &proto_netdev : ll,
					num);
		if (desc)
			proto_ctx_update(p, PROTO_BASE_NETWORK_HDR, loc, desc);
		break;
	default:
		break;
	}
}

/* Upper protocols a protocol key selects, NULL when none is known. */
static const struct proto_desc *pctx_key_upper(const struct expr *left,
					       uint64_t num)
{
	if (left->kind == EXPR_META && left->meta.key == NFT_META_L4PROTO)
		return proto_find_upper(&proto_inet_service, num);
	if (left->kind == EXPR_PAYLOAD && (left->flags & EXPR_F_PROTOCOL) &&
	    left->payload.desc &&
	    left->payload.base == PROTO_BASE_NETWORK_HDR)
		return proto_find_upper(left->payload.desc, num);
	return NULL;
}

/*
 * "ip protocol { tcp, udp }": several transport protocols are possible;
 * "th dport" is fine after it, "tcp dport" a conflict (stock nft 1.0.6).
 */
static void pctx_update_set(struct eval_ctx *ctx, const struct expr *rel)
{
	const struct expr *left = rel->pair.left, *e;
	const struct set *set = rel->pair.right->set_ref.set;
	const struct proto_desc *d;
	unsigned int n = 0;

	if (!set || !(set->flags & SET_F_ANONYMOUS) || !set->init ||
	    set->init->kind != EXPR_SET)
		return;
	list_for_each_entry(e, &set->init->expressions, list) {
		const struct expr *k = e;

		if (k->kind == EXPR_SET_ELEM)
			k = k->elem.key;
		if (k->kind != EXPR_VALUE)
			return;
		d = pctx_key_upper(left, value_get_u64(&k->value));
		if (!d || n == ARRAY_SIZE(ctx->th_protos))
			return;
		ctx->th_protos[n++] = d;
	}
	if (n == 0)
		return;
	ctx->num_th_protos = n;
	proto_ctx_update(&ctx->pctx, PROTO_BASE_TRANSPORT_HDR, &rel->location,
			 n == 1 ? ctx->th_protos[0] : &proto_th);
}

/**
 * expr_pctx_update - what an evaluated match tells later selectors
 * @rel: the relational just evaluated
 *
 * An equality on a protocol key (ip protocol, ether type, meta l4proto,
 * meta nfproto, meta protocol, meta iiftype, or a set of them) records
 * the next header in ctx->pctx; an icmp(v6) type match is remembered.
 */
void expr_pctx_update(struct eval_ctx *ctx, const struct expr *rel)
{
	const struct expr *left = rel->pair.left, *right = rel->pair.right;
	const struct proto_desc *desc;
	enum proto_bases base;

	if (rel->op != OP_EQ && rel->op != OP_IMPLICIT)
		return;
	if (left->kind == EXPR_PAYLOAD && left->payload.tmpl &&
	    (left->payload.desc == &proto_icmp ||
	     left->payload.desc == &proto_icmp6) &&
	    left->payload.tmpl ==
	    &left->payload.desc->templates[left->payload.desc->protocol_key])
		ctx->icmp_type_known = true;
	if (right->kind == EXPR_SET_REF && rel->op == OP_EQ) {
		pctx_update_set(ctx, rel);
		return;
	}
	if (right->kind != EXPR_VALUE)
		return;
	/* "ct protocol tcp" gives "ct proto-src" its type */
	if (left->kind == EXPR_CT && left->ct.key == NFT_CT_PROTOCOL) {
		desc = proto_find_upper(&proto_inet_service,
					value_get_u64(&right->value));
		if (desc)
			proto_ctx_update(&ctx->pctx, PROTO_BASE_TRANSPORT_HDR,
					 &rel->location, desc);
		return;
	}
	if (left->kind == EXPR_META) {
		pctx_update_meta(ctx, left, right, &rel->location);
		return;
	}

	if (left->kind != EXPR_PAYLOAD || !(left->flags & EXPR_F_PROTOCOL) ||
	    !left->payload.desc)
		return;
	base = left->payload.base;
	if (base >= PROTO_BASE_MAX)
		return;
	desc = proto_find_upper(left->payload.desc,
				value_get_u64(&right->value));
	if (desc)
		proto_ctx_update(&ctx->pctx, base + 1, &rel->location, desc);
}

