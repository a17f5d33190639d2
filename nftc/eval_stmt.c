/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statement evaluation: type each statement's arguments in the context
 * of what the statement writes (a mark, an address, a port, a queue
 * number), check the rules stock nft 1.0.6 enforces, with its messages,
 * and rewrite what the VM cannot do directly (sub-byte payload writes
 * become read-modify-write, "ct helper set" an object reference).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include "evaluate.h"
#include "keys.h"
#include "rule.h"
#include "stmt.h"

#define NFT_LOGLEVEL_AUDIT_	8
#define QUEUE_NUM_BITS		16
#define NFTC_LOG_PREFIXLEN	128

static const char *dtype_desc(const struct datatype *dtype)
{
	return dtype && dtype->desc ? dtype->desc : "invalid";
}

/*
 * Stock nft wants the argument's type to be the statement's type; a
 * plain integer (numgen, hash, raw arithmetic) goes where an integer
 * based type is expected.
 */
static bool arg_type_ok(const struct datatype *have,
			const struct datatype *want)
{
	if (have->type == want->type)
		return true;
	if (have->type == TYPE_INTEGER)
		return datatype_is_a(want, &integer_type);
	if (want->type == TYPE_INTEGER || want->type == TYPE_STRING)
		return have->type == want->type;
	return datatype_compatible(have, want) && have->subtypes > 1;
}

/*
 * Evaluate an argument expected to be of @dtype, @len bits, @order, as
 * stock's stmt_evaluate_arg: symbols parse in that type, other
 * expressions must have a compatible type.
 */
static int stmt_evaluate_arg(struct eval_ctx *ctx, const struct datatype *dtype,
			     unsigned int len, enum byteorder order,
			     struct expr **expr)
{
	expr_set_context(ctx, dtype, order, len);
	if (expr_evaluate(ctx, expr) < 0)
		return -1;
	if ((*expr)->kind == EXPR_MAP || !dtype)
		return 0;
	if ((*expr)->dtype && (*expr)->dtype->type != TYPE_INVALID &&
	    !arg_type_ok((*expr)->dtype, dtype))
		return eval_error(ctx, &(*expr)->location,
				  "datatype mismatch: expected %s, "
				  "expression has type %s",
				  dtype_desc(dtype),
				  dtype_desc((*expr)->dtype));
	return 0;
}

/* A symbol or string constant naming an object: a string value. */
static int stmt_evaluate_name(struct eval_ctx *ctx, struct expr **expr,
			      unsigned int maxlen)
{
	expr_set_context(ctx, &string_type, BYTEORDER_BIG, maxlen * 8);
	return expr_evaluate(ctx, expr);
}

static int name_of(const struct expr *e, char *buf, size_t size)
{
	size_t n;

	if (e->kind == EXPR_SYMBOL || e->kind == EXPR_VARIABLE) {
		if (!e->sym.identifier || strlen(e->sym.identifier) >= size)
			return -1;
		strcpy(buf, e->sym.identifier);
		return 0;
	}
	if (e->kind != EXPR_VALUE)
		return -1;
	n = BITS_TO_BYTES(e->value.len);
	if (n >= size)
		n = size - 1;
	memcpy(buf, e->value.data, n);
	buf[n] = '\0';
	return 0;
}

/*
 * Verdicts
 */
/*
 * An anonymous chain: bound to its rule (NFT_CHAIN_BINDING), named by
 * its chain id, its rules in the rule's table and family. They are
 * evaluated here, in the middle of the rule, which keeps its own
 * protocol context: save what rule_evaluate() resets.
 */
static char *name_dup(const char *name)
{
	return name ? strdup(name) : NULL;
}

static int stmt_evaluate_chain(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct chain *c = stmt->chain.chain;
	struct rule *outer = ctx->rule, *r;
	struct eval_ctx *save;
	int ret = 0;

	if (!c || !outer)
		return 0;
	save = malloc(sizeof(*save));
	if (!save)
		return eval_error(ctx, &stmt->location, "out of memory");
	*save = *ctx;
	c->flags |= NFT_CHAIN_BINDING;
	c->bound_rule = outer;
	c->bound_stmt = stmt;
	c->handle.family = outer->handle.family;
	free(c->handle.table.name);
	c->handle.table.name = name_dup(outer->handle.table.name);
	list_for_each_entry(r, &c->rules, list) {
		r->handle.family = outer->handle.family;
		free(r->handle.table.name);
		r->handle.table.name = name_dup(outer->handle.table.name);
		free(r->handle.chain.name);
		r->handle.chain.name = NULL;
		r->handle.chain_id = c->handle.chain_id;
		ctx->chain = NULL;
		/* stock stops at the chain's first wrong rule */
		if (rule_evaluate(ctx, r) < 0) {
			ret = -1;
			break;
		}
	}
	ctx->chain = save->chain;
	ctx->rule = save->rule;
	ctx->stmt = save->stmt;
	ctx->pctx = save->pctx;
	ctx->ectx = save->ectx;
	ctx->icmp_type_known = save->icmp_type_known;
	memcpy(ctx->th_protos, save->th_protos, sizeof(ctx->th_protos));
	ctx->num_th_protos = save->num_th_protos;
	free(save);
	return ret;
}

static int stmt_evaluate_verdict(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr *v;
	char chain[NFT_CHAIN_MAXNAMELEN];

	expr_set_context(ctx, &verdict_type, BYTEORDER_HOST, 0);
	if (expr_evaluate(ctx, &stmt->expr) < 0)
		return -1;
	v = stmt->expr;
	if (v->kind != EXPR_VERDICT || !v->verdict.chain)
		return 0;
	if (v->verdict.verdict != NFT_JUMP && v->verdict.verdict != NFT_GOTO)
		return 0;
	if (name_of(v->verdict.chain, chain, sizeof(chain)) < 0)
		return eval_error(ctx, &v->verdict.chain->location,
				  "Chain name too long");
	/*
	 * Only chains the input declares are known offline; the kernel
	 * refuses a jump to a missing one with ENOENT, reported here at
	 * the chain name as stock nft does.
	 */
	if (ctx->table && !chain_cache_find(ctx->table, chain))
		return eval_jump_enoent(ctx, &v->verdict.chain->location);
	return 0;
}

/*
 * Logging and stateful statements
 */
static int stmt_evaluate_log(struct eval_ctx *ctx, struct stmt *stmt)
{
	uint32_t flags = stmt->log.flags;

	if (stmt->log.prefix) {
		flags |= STMT_LOG_PREFIX;
		/* The kernel keeps NF_LOG_PREFIXLEN bytes, NUL included. */
		if (strlen(stmt->log.prefix) >= NFTC_LOG_PREFIXLEN)
			return erec_error(eval_kernel_errq(ctx),
					  &stmt->location,
					  "Could not process rule: %s",
					  strerror(ERANGE));
	}
	if (flags & (STMT_LOG_GROUP | STMT_LOG_SNAPLEN | STMT_LOG_QTHRESHOLD)) {
		if (flags & STMT_LOG_LEVEL)
			return eval_error(ctx, &stmt->location,
					  "level and group are mutually "
					  "exclusive");
		if (stmt->log.logflags)
			return eval_error(ctx, &stmt->location,
					  "flags and group are mutually "
					  "exclusive");
	}
	if ((flags & STMT_LOG_LEVEL) &&
	    stmt->log.level == NFT_LOGLEVEL_AUDIT_ &&
	    ((flags & ~STMT_LOG_LEVEL) || stmt->log.logflags))
		return eval_error(ctx, &stmt->location,
				  "log level audit doesn't support any "
				  "further options");
	stmt->log.flags = flags;
	return 0;
}

static int stmt_evaluate_limit(struct eval_ctx *ctx, struct stmt *stmt)
{
	if (stmt->limit.type == NFT_LIMIT_PKTS && stmt->limit.burst == 0)
		stmt->limit.burst = 5;
	return 0;
}

/*
 * Reject
 */

/*
 * Insert the dependency of a reject at the start of the rule, where stock
 * nft puts it, by asking for the dependency of a field of @desc.
 */
static int reject_add_dep(struct eval_ctx *ctx, const struct stmt *stmt,
			  const struct proto_desc *desc, const char *field)
{
	struct stmt *saved = ctx->stmt, *first;
	struct expr *dummy;
	int ret;

	if (!ctx->rule || list_empty(&ctx->rule->stmts))
		return 0;
	dummy = payload_expr_alloc(&stmt->location, desc,
				   proto_field_lookup(desc, field));
	if (!dummy)
		return eval_error(ctx, &stmt->location, "out of memory");
	first = list_first_entry(&ctx->rule->stmts, struct stmt, list);
	ctx->stmt = first;
	ret = expr_add_dependency(ctx, dummy);
	ctx->stmt = saved;
	expr_free(dummy);
	return ret;
}

static int reject_default(struct eval_ctx *ctx, struct stmt *stmt)
{
	const struct proto_desc *nh;

	stmt->reject.type = NFT_REJECT_ICMP_UNREACH;
	switch (ctx->pctx.family) {
	case NFPROTO_IPV4:
		stmt->reject.icmp_code = 3;	/* port unreachable */
		return 0;
	case NFPROTO_IPV6:
		stmt->reject.icmp_code = 4;	/* port unreachable */
		return 0;
	default:
		break;
	}
	nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	if (nh == &proto_ip) {
		stmt->reject.icmp_code = 3;
	} else if (nh == &proto_ip6) {
		stmt->reject.icmp_code = 4;
	} else {
		stmt->reject.type = NFT_REJECT_ICMPX_UNREACH;
		stmt->reject.icmp_code = NFT_REJECT_ICMPX_PORT_UNREACH;
	}
	return 0;
}

static int reject_tcp_reset(struct eval_ctx *ctx, struct stmt *stmt)
{
	const struct proto_desc *th;

	th = ctx->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc;
	if (th && th != &proto_tcp && th != &proto_inet_service)
		return eval_error(ctx, &stmt->location,
				  "you cannot use tcp reset with this "
				  "protocol");
	if (th == &proto_tcp)
		return 0;
	return reject_add_dep(ctx, stmt, &proto_tcp, "dport");
}

static int reject_icmp(struct eval_ctx *ctx, struct stmt *stmt)
{
	bool v6 = stmt->reject.family == NFPROTO_IPV6;
	const struct datatype *dtype = v6 ? &icmpv6_code_type :
					    &icmp_code_type;
	const struct proto_desc *want = v6 ? &proto_ip6 : &proto_ip;
	const struct proto_desc *nh;

	if (stmt->reject.type == NFT_REJECT_ICMPX_UNREACH)
		dtype = &icmpx_code_type;
	if (stmt->reject.expr) {
		if (stmt_evaluate_arg(ctx, dtype, 8, BYTEORDER_HOST,
				      &stmt->reject.expr) < 0)
			return -1;
		if (stmt->reject.expr->kind == EXPR_VALUE)
			stmt->reject.icmp_code =
				value_get_u64(&stmt->reject.expr->value);
	}
	if (stmt->reject.type == NFT_REJECT_ICMPX_UNREACH)
		return 0;
	switch (ctx->pctx.family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
		if ((ctx->pctx.family == NFPROTO_IPV6) != v6)
			return eval_error(ctx, &stmt->location,
					  "conflicting protocols specified: "
					  "%s vs. %s",
					  v6 ? "ip" : "ip6",
					  v6 ? "icmpv6" : "icmp");
		return 0;
	default:
		break;
	}
	nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	if (nh && nh != want)
		return eval_error(ctx, &stmt->location,
				  "conflicting protocols specified: %s vs. %s",
				  nh->name, v6 ? "icmpv6" : "icmp");
	if (nh)
		return 0;
	return reject_add_dep(ctx, stmt, want, "saddr");
}

static int stmt_evaluate_reject(struct eval_ctx *ctx, struct stmt *stmt)
{
	switch (stmt->reject.type) {
	case NFT_REJECT_TCP_RST:
		return reject_tcp_reset(ctx, stmt);
	case NFT_REJECT_ICMPX_UNREACH:
		if (!stmt->reject.expr && stmt->reject.icmp_code < 0)
			stmt->reject.icmp_code = NFT_REJECT_ICMPX_PORT_UNREACH;
		return reject_icmp(ctx, stmt);
	case NFT_REJECT_ICMP_UNREACH:
		if (!stmt->reject.expr && stmt->reject.icmp_code < 0 &&
		    stmt->reject.family == NFPROTO_UNSPEC)
			return reject_default(ctx, stmt);
		if (stmt->reject.family == NFPROTO_UNSPEC)
			stmt->reject.family = ctx->pctx.family;
		if (stmt->reject.icmp_code < 0 && !stmt->reject.expr)
			stmt->reject.icmp_code =
				stmt->reject.family == NFPROTO_IPV6 ? 4 : 3;
		return reject_icmp(ctx, stmt);
	default:
		return 0;
	}
}

/*
 * NAT
 */
static int nat_evaluate_family(struct eval_ctx *ctx, struct stmt *stmt)
{
	const struct proto_desc *nh;

	if (stmt->nat.kind == NAT_MASQ || stmt->nat.kind == NAT_REDIR)
		return 0;
	switch (ctx->pctx.family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
		if (stmt->nat.family == NFPROTO_UNSPEC)
			stmt->nat.family = ctx->pctx.family;
		return 0;
	case NFPROTO_INET:
		if (!stmt->nat.addr) {
			stmt->nat.family = NFPROTO_INET;
			return 0;
		}
		if (stmt->nat.family != NFPROTO_UNSPEC)
			return 0;
		nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
		if (nh == &proto_ip)
			stmt->nat.family = NFPROTO_IPV4;
		else if (nh == &proto_ip6)
			stmt->nat.family = NFPROTO_IPV6;
		else
			return eval_error(ctx, &stmt->location,
					  "ip or ip6 must be specified with "
					  "address for inet tables.");
		return 0;
	default:
		return eval_error(ctx, &stmt->location,
				  "NAT is only supported for IPv4/IPv6/INET");
	}
}

static const struct set *map_set(const struct expr *map)
{
	const struct expr *m = map->map.mappings;

	if (m && m->kind == EXPR_SET_REF)
		return m->set_ref.set;
	return NULL;
}

/* Are the data of map @set ranges (or prefixes)? */
static bool map_data_interval(const struct set *set)
{
	const struct expr *i, *data;

	if (!set->init)
		return false;
	list_for_each_entry(i, &set->init->expressions, list) {
		if (i->kind != EXPR_MAPPING)
			continue;
		data = i->pair.right;
		if (data->kind == EXPR_RANGE || data->kind == EXPR_PREFIX)
			return true;
		if (data->kind == EXPR_CONCAT) {
			const struct expr *m;

			list_for_each_entry(m, &data->expressions, list)
				if (m->kind == EXPR_RANGE ||
				    m->kind == EXPR_PREFIX)
					return true;
		}
	}
	return false;
}

static int nat_evaluate_addr(struct eval_ctx *ctx, struct stmt *stmt)
{
	bool v6 = stmt->nat.family == NFPROTO_IPV6;
	const struct datatype *dtype = v6 ? &ip6addr_type : &ipaddr_type;
	unsigned int len = v6 ? 128 : 32;
	const struct set *set;
	struct expr *addr;

	if (stmt_evaluate_arg(ctx, dtype, len, BYTEORDER_BIG,
			      &stmt->nat.addr) < 0)
		return -1;
	addr = stmt->nat.addr;
	if (addr->kind == EXPR_PREFIX) {
		/* "to 10.0.0.0/24": the range the prefix covers */
		struct expr *low = expr_clone(addr->prefix.expr);
		struct expr *high = expr_clone(addr->prefix.expr);
		struct value mask;
		unsigned int plen = addr->prefix.prefix_len;

		if (!low || !high) {
			expr_free(low);
			expr_free(high);
			return eval_error(ctx, &addr->location,
					  "out of memory");
		}
		value_prefix_mask(&mask, len, plen);
		value_and(&low->value, &low->value, &mask);
		value_not(&mask, &mask);
		value_or(&high->value, &low->value, &mask);
		stmt->nat.addr = range_expr_alloc(&addr->location, low, high);
		stmt->nat.addr->dtype = dtype;
		stmt->nat.addr->len = len;
		stmt->nat.addr->byteorder = BYTEORDER_BIG;
		expr_free(addr);
		return 0;
	}
	if (addr->kind != EXPR_MAP)
		return 0;
	set = map_set(addr);
	if (set && set->data) {
		if ((set->data->flags & EXPR_F_INTERVAL) ||
		    map_data_interval(set))
			stmt->nat.type_flags |= STMT_NAT_F_INTERVAL;
		if (set->data->kind == EXPR_CONCAT ||
		    (set->data->dtype && set->data->dtype->subtypes > 1))
			stmt->nat.type_flags |= STMT_NAT_F_CONCAT;
	}
	return 0;
}

static int stmt_evaluate_nat(struct eval_ctx *ctx, struct stmt *stmt)
{
	if (nat_evaluate_family(ctx, stmt) < 0)
		return -1;
	if (stmt->nat.type_flags & STMT_NAT_F_PREFIX)
		stmt->nat.flags |= NF_NAT_RANGE_NETMAP;
	if (stmt->nat.addr && nat_evaluate_addr(ctx, stmt) < 0)
		return -1;
	if (stmt->nat.proto) {
		if (stmt_evaluate_arg(ctx, &inet_service_type, 16,
				      BYTEORDER_BIG, &stmt->nat.proto) < 0)
			return -1;
		if (!ctx->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc)
			return eval_error(ctx, &stmt->nat.proto->location,
					  "transport protocol mapping is only "
					  "valid after transport protocol "
					  "match");
		stmt->nat.flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
	}
	return 0;
}

/*
 * Transparent proxy, queue, dup, fwd
 */
static int stmt_evaluate_tproxy(struct eval_ctx *ctx, struct stmt *stmt)
{
	const struct proto_desc *nh;
	bool v6;

	if (!ctx->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc)
		return eval_error(ctx, &stmt->location,
				  "Transparent proxy support requires "
				  "transport protocol match");
	if (!stmt->tproxy.addr && !stmt->tproxy.port)
		return eval_error(ctx, &stmt->location,
				  "Either address or port must be specified!");
	if (ctx->pctx.family == NFPROTO_IPV4 ||
	    ctx->pctx.family == NFPROTO_IPV6) {
		if (stmt->tproxy.family == NFPROTO_UNSPEC)
			stmt->tproxy.family = ctx->pctx.family;
		else if (stmt->tproxy.family != ctx->pctx.family)
			return eval_error(ctx, &stmt->location,
					  "Transparent proxy family does not "
					  "match table family");
	}
	nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	/* inet: an explicit family must agree with the network match. */
	if (stmt->tproxy.family != NFPROTO_UNSPEC &&
	    (nh == &proto_ip || nh == &proto_ip6) &&
	    (nh == &proto_ip6) != (stmt->tproxy.family == NFPROTO_IPV6))
		return eval_error(ctx, &stmt->location,
				  "conflicting protocols specified: %s vs. %s. "
				  "You must specify ip or ip6 family in tproxy "
				  "statement", nh->name,
				  stmt->tproxy.family == NFPROTO_IPV6 ?
				  "ip6" : "ip");
	if (stmt->tproxy.addr) {
		if (stmt->tproxy.family == NFPROTO_UNSPEC) {
			if (nh == &proto_ip)
				stmt->tproxy.family = NFPROTO_IPV4;
			else if (nh == &proto_ip6)
				stmt->tproxy.family = NFPROTO_IPV6;
			else
				return eval_error(ctx, &stmt->location,
						  "Family should be specified "
						  "in inet table for address");
		}
		v6 = stmt->tproxy.family == NFPROTO_IPV6;
		if (stmt_evaluate_arg(ctx, v6 ? &ip6addr_type : &ipaddr_type,
				      v6 ? 128 : 32, BYTEORDER_BIG,
				      &stmt->tproxy.addr) < 0)
			return -1;
		if (stmt->tproxy.addr->kind == EXPR_RANGE ||
		    stmt->tproxy.addr->kind == EXPR_PREFIX)
			return eval_error(ctx, &stmt->tproxy.addr->location,
					  "Address ranges are not supported "
					  "for tproxy.");
	}
	if (stmt->tproxy.port) {
		if (stmt_evaluate_arg(ctx, &inet_service_type, 16,
				      BYTEORDER_BIG, &stmt->tproxy.port) < 0)
			return -1;
		if (stmt->tproxy.port->kind == EXPR_RANGE)
			return eval_error(ctx, &stmt->tproxy.port->location,
					  "Port ranges are not supported for "
					  "tproxy.");
	}
	return 0;
}

static int queue_value(struct eval_ctx *ctx, struct expr *e, uint64_t *v)
{
	if (e->kind != EXPR_VALUE)
		return -1;
	*v = value_get_u64(&e->value);
	return 0;
}

/* Largest value a computed queue number can take. */
static uint64_t queue_expr_max(const struct expr *q)
{
	switch (q->kind) {
	case EXPR_NUMGEN:
		return (uint64_t)q->numgen.mod - 1 + q->numgen.offset;
	case EXPR_HASH:
		return (uint64_t)q->hash.mod - 1 + q->hash.offset;
	default:
		return 0;
	}
}

static int stmt_evaluate_queue(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr *q;
	uint64_t low, high;

	if (!stmt->queue.queue)
		return 0;
	if (stmt_evaluate_arg(ctx, &integer_type, QUEUE_NUM_BITS,
			      BYTEORDER_HOST, &stmt->queue.queue) < 0)
		return -1;
	q = stmt->queue.queue;
	if (q->kind == EXPR_RANGE) {
		if (queue_value(ctx, q->pair.left, &low) < 0 ||
		    queue_value(ctx, q->pair.right, &high) < 0)
			return eval_error(ctx, &q->location,
					  "queue range must be constant");
		if (low > high)
			return eval_error(ctx, &q->location,
					  "Range has zero or negative size");
		return 0;
	}
	if (stmt->queue.flags & NFT_QUEUE_FLAG_CPU_FANOUT)
		return eval_error(ctx, &q->location,
				  "fanout requires a range to be specified");
	if (queue_expr_max(q) > UINT16_MAX)
		return eval_error(ctx, &q->location,
				  "queue expression max value exceeds %u",
				  UINT16_MAX);
	return 0;
}

static int stmt_evaluate_dup(struct eval_ctx *ctx, struct stmt *stmt)
{
	bool v6 = ctx->pctx.family == NFPROTO_IPV6;

	switch (ctx->pctx.family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
		if (!stmt->dup.to)
			return eval_error(ctx, &stmt->location,
					  "missing destination address");
		if (stmt_evaluate_arg(ctx, v6 ? &ip6addr_type : &ipaddr_type,
				      v6 ? 128 : 32, BYTEORDER_BIG,
				      &stmt->dup.to) < 0)
			return -1;
		if (stmt->dup.dev &&
		    stmt_evaluate_arg(ctx, &ifindex_type, 32, BYTEORDER_HOST,
				      &stmt->dup.dev) < 0)
			return -1;
		return 0;
	case NFPROTO_NETDEV:
		if (!stmt->dup.to)
			return eval_error(ctx, &stmt->location,
					  "missing destination interface");
		if (stmt->dup.dev)
			return eval_error(ctx, &stmt->location,
					  "cannot specify device in netdev "
					  "family");
		return stmt_evaluate_arg(ctx, &ifindex_type, 32,
					 BYTEORDER_HOST, &stmt->dup.to);
	default:
		return eval_error(ctx, &stmt->location, "unsupported family");
	}
}

static int stmt_evaluate_fwd(struct eval_ctx *ctx, struct stmt *stmt)
{
	bool v6 = stmt->fwd.family == NFPROTO_IPV6;

	if (ctx->pctx.family != NFPROTO_NETDEV)
		return eval_error(ctx, &stmt->location, "unsupported family");
	if (!stmt->fwd.dev)
		return eval_error(ctx, &stmt->location,
				  "missing destination interface");
	if (stmt_evaluate_arg(ctx, &ifindex_type, 32, BYTEORDER_HOST,
			      &stmt->fwd.dev) < 0)
		return -1;
	if (!stmt->fwd.addr)
		return 0;
	if (stmt->fwd.family != NFPROTO_IPV4 &&
	    stmt->fwd.family != NFPROTO_IPV6)
		return eval_error(ctx, &stmt->location, "missing family");
	return stmt_evaluate_arg(ctx, v6 ? &ip6addr_type : &ipaddr_type,
				 v6 ? 128 : 32, BYTEORDER_BIG,
				 &stmt->fwd.addr);
}

/*
 * meta/ct set
 */
static int stmt_evaluate_meta(struct eval_ctx *ctx, struct stmt *stmt)
{
	const struct key_template *t;

	if ((unsigned int)stmt->meta.key >= META_KEYS_MAX ||
	    !meta_templates[stmt->meta.key].token)
		return eval_error(ctx, &stmt->location, "unknown meta key");
	t = &meta_templates[stmt->meta.key];
	return stmt_evaluate_arg(ctx, t->dtype, t->len, t->byteorder,
				 &stmt->meta.expr);
}

/* "ct helper set NAME": a reference to a ct helper object. */
static int ct_objref(struct eval_ctx *ctx, struct stmt *stmt, uint32_t type)
{
	struct expr *e = stmt->ct.expr;

	stmt->kind = STMT_OBJREF;
	stmt->objref.type = type;
	stmt->objref.expr = e;
	if (e->kind == EXPR_MAP) {
		expr_set_context(ctx, &string_type, BYTEORDER_BIG,
				 NFT_OBJ_MAXNAMELEN * 8);
		return expr_evaluate(ctx, &stmt->objref.expr);
	}
	return stmt_evaluate_name(ctx, &stmt->objref.expr, NFT_OBJ_MAXNAMELEN);
}

static int stmt_evaluate_ct(struct eval_ctx *ctx, struct stmt *stmt)
{
	const struct key_template *t;
	unsigned int len;

	if (stmt->ct.key == NFT_CT_HELPER)
		return ct_objref(ctx, stmt, NFT_OBJECT_CT_HELPER);
	if ((unsigned int)stmt->ct.key >= CT_KEYS_MAX ||
	    !ct_templates[stmt->ct.key].token)
		return eval_error(ctx, &stmt->location, "unknown ct key");
	t = &ct_templates[stmt->ct.key];
	len = t->len;
	return stmt_evaluate_arg(ctx, t->dtype, len, t->byteorder,
				 &stmt->ct.expr);
}

/*
 * Payload writes. The VM writes whole bytes, and the checksum update
 * needs an even length: a field that is not such gets read, masked and
 * merged, as stock nft does it:
 *	payload load N @ off => reg; bitwise (reg & keep) ^ (value << shift)
 */
struct payload_window {
	unsigned int	byte_off;
	unsigned int	byte_len;
	unsigned int	shift;
};

static bool payload_need_csum(const struct expr *lhs)
{
	const struct proto_desc *desc = lhs->payload.desc;

	return desc && desc->checksum_key;
}

static void payload_window_init(const struct expr *lhs,
				struct payload_window *w)
{
	unsigned int bit_off = lhs->payload.offset % 8;
	int shift = (int)((lhs->len + 7) / 8 * 8) - (int)(bit_off + lhs->len);
	unsigned int extra = 0;

	while (shift < 0) {
		shift += 8;
		extra += 8;
	}
	w->byte_off = lhs->payload.offset / 8;
	w->shift = shift;
	w->byte_len = (lhs->len + extra + 7) / 8;
	if (payload_need_csum(lhs) && (w->byte_len & 1)) {
		w->byte_len++;
		if (w->byte_off & 1)
			w->byte_off--;	/* prefer 16-bit aligned loads */
		else
			w->shift += 8;
	}
}

static int payload_rmw(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr *lhs = stmt->payload.lhs, *val = stmt->payload.val;
	struct expr *load, *mask, *and, *xor;
	struct payload_window w;
	unsigned int bits;
	struct value m, ones;

	payload_window_init(lhs, &w);
	bits = w.byte_len * 8;
	if (val->kind != EXPR_VALUE)
		return eval_error(ctx, &val->location,
				  "payload statement for this field needs a "
				  "constant value");

	/* value << shift, at the window's width */
	value_resize(&val->value, bits);
	value_shl(&val->value, w.shift);
	val->len = bits;
	val->byteorder = BYTEORDER_BIG;

	/* keep everything but the field */
	value_init(&ones, bits);
	value_not(&ones, &ones);
	value_init(&m, bits);
	value_prefix_mask(&m, bits, lhs->len);
	value_shr(&m, bits - lhs->len);
	value_shl(&m, w.shift);
	value_xor(&m, &ones, &m);

	load = payload_raw_alloc(&lhs->location, lhs->payload.base,
				 w.byte_off * 8, bits);
	mask = constant_expr_alloc(&lhs->location, &integer_type,
				   BYTEORDER_BIG, bits, &m);
	if (!load || !mask) {
		expr_free(load);
		expr_free(mask);
		return eval_error(ctx, &lhs->location, "out of memory");
	}
	load->payload.desc = lhs->payload.desc;
	load->byteorder = BYTEORDER_BIG;
	load->dtype = lhs->dtype;
	and = binop_expr_alloc(&lhs->location, OP_AND, load, mask);
	xor = binop_expr_alloc(&lhs->location, OP_XOR, and, val);
	if (!and || !xor)
		return eval_error(ctx, &lhs->location, "out of memory");
	and->dtype = xor->dtype = lhs->dtype;
	and->byteorder = xor->byteorder = BYTEORDER_BIG;
	and->len = xor->len = bits;
	stmt->payload.val = xor;

	/* the write covers the window; the field (tmpl) is kept */
	lhs->payload.offset = w.byte_off * 8;
	lhs->len = bits;
	return 0;
}

static int stmt_evaluate_payload(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr *lhs = stmt->payload.lhs;
	bool unaligned;

	if (lhs->kind != EXPR_PAYLOAD)
		return eval_error(ctx, &lhs->location,
				  "payload statement needs a header field");
	if (expr_add_dependency(ctx, lhs) < 0)
		return -1;
	if (stmt_evaluate_arg(ctx, lhs->dtype, lhs->len,
			      lhs->byteorder ? lhs->byteorder : BYTEORDER_BIG,
			      &stmt->payload.val) < 0)
		return -1;
	if (stmt->payload.val->kind == EXPR_SET ||
	    stmt->payload.val->kind == EXPR_SET_REF)
		return eval_error(ctx, &stmt->payload.val->location,
				  "payload statement does not support set");
	unaligned = lhs->payload.offset % 8 || lhs->len % 8;
	if (!unaligned &&
	    (!payload_need_csum(lhs) || ((lhs->len / 8) & 1) == 0))
		return 0;
	return payload_rmw(ctx, stmt);
}

static int stmt_evaluate_exthdr(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr *lhs = stmt->payload.lhs;

	if (lhs->kind != EXPR_EXTHDR)
		return eval_error(ctx, &lhs->location,
				  "exthdr statement needs a header field");
	if (lhs->exthdr.offset % 8 || lhs->len % 8)
		return eval_error(ctx, &lhs->location,
				  "Unsupported exthdr field alignment");
	if (stmt_evaluate_arg(ctx, lhs->dtype, lhs->len,
			      lhs->byteorder ? lhs->byteorder : BYTEORDER_BIG,
			      &stmt->payload.val) < 0)
		return -1;
	/* A host order value (rt mtu) is written in network order. */
	if (lhs->byteorder != BYTEORDER_HOST)
		return expr_byteorder_to_big(ctx, &stmt->payload.val);
	return 0;
}

/*
 * Dynamic set updates
 */
static bool stmt_is_stateful(const struct stmt *s)
{
	switch (s->kind) {
	case STMT_COUNTER:
	case STMT_LIMIT:
	case STMT_QUOTA:
	case STMT_CONNLIMIT:
	case STMT_LAST:
		return true;
	default:
		return false;
	}
}

/* "meter NAME { KEY ... }": the parser's placeholder set has no key. */
static bool stmt_is_meter(const struct stmt *stmt)
{
	const struct expr *ref = stmt->set.set;

	return ref && ref->kind == EXPR_SET_REF && ref->set_ref.set &&
	       (ref->set_ref.set->flags & SET_F_EVAL) &&
	       !ref->set_ref.set->key && !stmt->set.data;
}

/* The key decides the meter set's type: evaluate it, then declare. */
static int stmt_evaluate_meter(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr **key = &stmt->set.key;
	struct stmt *s;

	if ((*key)->kind == EXPR_SET_ELEM)
		key = &(*key)->elem.key;
	ctx->ectx.key = NULL;
	if (expr_evaluate(ctx, key) < 0)
		return -1;
	if (expr_is_constant(*key))
		return eval_error(ctx, &(*key)->location,
				  "Key expression can not be constant");
	if (stmt->set.key->kind == EXPR_SET_ELEM)
		stmt->set.key->len = (*key)->len;
	if (set_meter_declare(ctx, stmt) < 0)
		return -1;
	list_for_each_entry(s, &stmt->set.stmts, list) {
		if (stmt_evaluate(ctx, s) < 0)
			return -1;
		if (!stmt_is_stateful(s))
			return eval_error(ctx, &s->location,
					  "statement must be stateful");
	}
	return 0;
}

static int stmt_evaluate_set(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr **key = &stmt->set.key;
	struct stmt *s;
	struct set *set;

	expr_set_context(ctx, NULL, BYTEORDER_INVALID, 0);
	if (stmt_is_meter(stmt))
		return stmt_evaluate_meter(ctx, stmt);
	if (expr_evaluate(ctx, &stmt->set.set) < 0)
		return -1;
	if (stmt->set.set->kind != EXPR_SET_REF || !stmt->set.set->set_ref.set)
		return eval_error(ctx, &stmt->set.set->location,
				  "Expression does not refer to a set");
	set = stmt->set.set->set_ref.set;
	/* stock marks a set updated from the packet path dynamic */
	set->flags |= SET_F_EVAL;
	if ((*key)->kind == EXPR_SET_ELEM) {
		if ((*key)->elem.comment)
			return eval_error(ctx, &(*key)->location,
					  "Key expression comments are not "
					  "supported");
		key = &(*key)->elem.key;
	}
	ctx->ectx.key = NULL;
	if (set->key && stmt_evaluate_arg(ctx, set->key->dtype, set->key->len,
					  set->key->byteorder, key) < 0)
		return -1;
	if (expr_is_constant(*key))
		return eval_error(ctx, &(*key)->location,
				  "Key expression can not be constant");
	if (stmt->set.key->kind == EXPR_SET_ELEM)
		stmt->set.key->len = (*key)->len;
	if (stmt->set.data) {
		if (!(set->flags & SET_F_MAP) || !set->data)
			return eval_error(ctx, &stmt->set.set->location,
					  "set is not a map");
		if (stmt_evaluate_arg(ctx, set->data->dtype, set->data->len,
				      set->data->byteorder,
				      &stmt->set.data) < 0)
			return -1;
	}
	list_for_each_entry(s, &stmt->set.stmts, list) {
		if (stmt_evaluate(ctx, s) < 0)
			return -1;
		if (!stmt_is_stateful(s))
			return eval_error(ctx, &s->location,
					  "statement must be stateful");
	}
	return 0;
}

/*
 * Object references: "counter name X", "quota name X", ... and their
 * maps ("counter name ip saddr map { ... }").
 */
static int stmt_evaluate_objref(struct eval_ctx *ctx, struct stmt *stmt)
{
	char name[NFT_OBJ_MAXNAMELEN];
	const struct set *cset;
	struct set *set;

	if (stmt->objref.expr->kind == EXPR_MAP) {
		expr_set_context(ctx, &string_type, BYTEORDER_BIG,
				 NFT_OBJ_MAXNAMELEN * 8);
		if (expr_evaluate(ctx, &stmt->objref.expr) < 0)
			return -1;
		cset = map_set(stmt->objref.expr);
		if (cset && (cset->flags & SET_F_ANONYMOUS)) {
			set = (struct set *)cset;
			set->flags &= ~SET_F_MAP;
			set->flags |= SET_F_OBJECT;
			set->objtype = stmt->objref.type;
		}
		return 0;
	}
	/*
	 * Whether the object exists is the backend's question: a table
	 * block declares its objects after its rules are evaluated.
	 */
	if (stmt_evaluate_name(ctx, &stmt->objref.expr,
			       NFT_OBJ_MAXNAMELEN) < 0)
		return -1;
	if (name_of(stmt->objref.expr, name, sizeof(name)) < 0)
		return eval_error(ctx, &stmt->objref.expr->location,
				  "Object name too long");
	return 0;
}

/**
 * stmt_evaluate - evaluate @stmt of the rule in ctx->rule
 *
 * May insert dependency statements before @stmt (or, for reject, at the
 * start of the rule) and rewrite @stmt in place. Returns 0 or -1 with an
 * error queued.
 */
int stmt_evaluate(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct stmt *saved = ctx->stmt;
	int ret = 0;

	ctx->stmt = stmt;
	switch (stmt->kind) {
	case STMT_EXPRESSION:
		ret = expr_evaluate_relational(ctx, &stmt->expr);
		break;
	case STMT_VERDICT:
		ret = stmt_evaluate_verdict(ctx, stmt);
		break;
	case STMT_LOG:
		ret = stmt_evaluate_log(ctx, stmt);
		break;
	case STMT_LIMIT:
		ret = stmt_evaluate_limit(ctx, stmt);
		break;
	case STMT_REJECT:
		ret = stmt_evaluate_reject(ctx, stmt);
		break;
	case STMT_NAT:
		ret = stmt_evaluate_nat(ctx, stmt);
		break;
	case STMT_TPROXY:
		ret = stmt_evaluate_tproxy(ctx, stmt);
		break;
	case STMT_QUEUE:
		ret = stmt_evaluate_queue(ctx, stmt);
		break;
	case STMT_DUP:
		ret = stmt_evaluate_dup(ctx, stmt);
		break;
	case STMT_FWD:
		ret = stmt_evaluate_fwd(ctx, stmt);
		break;
	case STMT_META:
		ret = stmt_evaluate_meta(ctx, stmt);
		break;
	case STMT_CT:
		ret = stmt_evaluate_ct(ctx, stmt);
		break;
	case STMT_PAYLOAD:
		ret = stmt_evaluate_payload(ctx, stmt);
		break;
	case STMT_EXTHDR:
		ret = stmt_evaluate_exthdr(ctx, stmt);
		break;
	case STMT_SET:
	case STMT_MAP:
		ret = stmt_evaluate_set(ctx, stmt);
		break;
	case STMT_OBJREF:
		ret = stmt_evaluate_objref(ctx, stmt);
		break;
	case STMT_FLOW_OFFLOAD:
	case STMT_COUNTER:
	case STMT_QUOTA:
	case STMT_NOTRACK:
	case STMT_CONNLIMIT:
	case STMT_SYNPROXY:
	case STMT_LAST:
	case STMT_OPTSTRIP:
	case STMT_XT:
		break;
	case STMT_CHAIN:
		ret = stmt_evaluate_chain(ctx, stmt);
		break;
	case STMT_INVALID:
	case __STMT_MAX:
		ret = eval_error(ctx, &stmt->location, "unknown statement");
		break;
	}
	ctx->stmt = saved;
	return ret;
}
