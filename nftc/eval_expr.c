/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Evaluation of expressions: typing of constants in the context of their
 * left-hand side, protocol dependencies, bitfield and prefix
 * optimisations, byte order conversions and constant folding, so that the
 * linearizer only has to emit what it finds (see PASSES.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "evaluate.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"
#include "keys.h"
#include "rule_memo.h"

#define REG32_BITS	32

static int byteorder_to_big(struct eval_ctx *ctx, struct expr **expr);
static int binop_transfer(struct eval_ctx *ctx, struct expr *rel);

/* Give @e a new type, keeping allocated (concat) types' references. */
static void expr_set_type(struct expr *e, const struct datatype *dtype,
			  enum byteorder byteorder, unsigned int len)
{
	if (dtype && dtype != e->dtype) {
		if (dtype->flags & DTYPE_F_ALLOC)
			datatype_get(dtype);
		if (e->dtype && (e->dtype->flags & DTYPE_F_ALLOC))
			datatype_free(e->dtype);
		e->dtype = dtype;
	}
	e->byteorder = byteorder;
	e->len = len;
}

/* Re-point the neighbours of a list head whose struct was copied. */
static void list_head_moved(struct list_head *h, const struct list_head *was)
{
	if (h->next == was) {
		init_list_head(h);
		return;
	}
	h->next->prev = h;
	h->prev->next = h;
}

static void expr_lists_moved(struct expr *e, const struct expr *was)
{
	switch (e->kind) {
	case EXPR_CONCAT:
	case EXPR_LIST:
	case EXPR_SET:
		list_head_moved(&e->expressions, &was->expressions);
		break;
	case EXPR_SET_ELEM:
		list_head_moved(&e->elem.stmts, &was->elem.stmts);
		break;
	default:
		break;
	}
}

static bool expr_in_list(const struct expr *e)
{
	return e->list.next && !list_empty(&e->list);
}

/* A new node holding @e's contents (moved, not copied). */
static struct expr *expr_move_contents(struct expr *e)
{
	struct expr *m = expr_node_alloc();

	if (!m)
		return NULL;
	*m = *e;
	expr_lists_moved(m, e);
	init_list_head(&m->list);
	m->refcnt = 1;
	return m;
}

/* @e's node takes over @res's contents (its link and refcount stay). */
static void expr_become(struct expr *e, struct expr *res)
{
	struct list_head link = e->list;
	unsigned int refcnt = e->refcnt;

	*e = *res;
	expr_lists_moved(e, res);
	e->list = link;
	e->refcnt = refcnt;
	expr_node_release(res);	/* the shell only */
}

/*
 * Wrap *expr into a new expression built by the caller around the
 * returned inner node: when *expr is on a list, its node is kept (and
 * later becomes the wrapper, see wrap_finish), so cursors stay valid.
 */
static struct expr *wrap_begin(struct expr **expr)
{
	if (!expr_in_list(*expr))
		return *expr;
	return expr_move_contents(*expr);
}

static void wrap_finish(struct expr **expr, struct expr *wrapper)
{
	if (expr_in_list(*expr))
		expr_become(*expr, wrapper);
	else
		*expr = wrapper;
}

/*
 * @old is linked in a list (concat member, set element): @new takes over
 * @old's node in place, so the caller's cursor stays valid whichever way
 * it iterates; @old's previous contents and @new's shell are freed.
 */
static void expr_replace_in_list(struct expr *old, struct expr *new)
{
	struct expr *dead = expr_move_contents(old);

	if (!dead)
		return;
	expr_become(old, new);
	expr_free(dead);
}

static void expr_replace(struct expr **old, struct expr *new)
{
	struct expr *o = *old;

	if (o != new && expr_in_list(o) && new->refcnt == 1) {
		expr_replace_in_list(o, new);
		return;
	}
	expr_free(o);
	*old = new;
}

/**
 * expr_set_context - what the next expression evaluated is expected to be
 */
void expr_set_context(struct eval_ctx *ctx, const struct datatype *dtype,
		      enum byteorder byteorder, unsigned int len)
{
	ctx->ectx.dtype = dtype;
	ctx->ectx.byteorder = byteorder;
	ctx->ectx.len = len;
	ctx->ectx.maxval = 0;
}

static bool dtype_is_string(const struct datatype *dtype)
{
	return datatype_is_a(dtype, &string_type);
}

/* Bits needed for the number @v. */
static unsigned int value_bits(const struct value *v)
{
	unsigned int i, nb = BITS_TO_BYTES(v->len);

	for (i = 0; i < nb; i++) {
		if (v->data[i]) {
			unsigned int b = 8;

			while (!(v->data[i] & (1u << (b - 1))))
				b--;
			return (nb - 1 - i) * 8 + b;
		}
	}
	return 0;
}

/* Strings grow at the end: pad "eth0" with zeros to @len bits. */
static void string_resize(struct value *v, unsigned int len)
{
	struct value n;
	unsigned int nb = BITS_TO_BYTES(v->len);

	value_init(&n, len);
	if (nb > BITS_TO_BYTES(len))
		nb = BITS_TO_BYTES(len);
	memcpy(n.data, v->data, nb);
	*v = n;
}

/* Fit constant @e to the context width, or report it out of range. */
static int value_fit_context(struct eval_ctx *ctx, struct expr *e,
			     unsigned int len)
{
	char maxbuf[32];

	if (!len || e->len == len)
		return 0;
	if (dtype_is_string(e->dtype)) {
		if (BITS_TO_BYTES(e->len) > BITS_TO_BYTES(len) &&
		    value_bits(&e->value) > 0) {
			unsigned int nb = BITS_TO_BYTES(e->len), i;

			for (i = BITS_TO_BYTES(len); i < nb; i++)
				if (e->value.data[i])
					return expr_error(ctx, e,
						"String exceeds maximum length of %u",
						len / 8);
		}
		string_resize(&e->value, len);
		e->len = len;
		return 0;
	}
	if (value_bits(&e->value) > len) {
		if (len <= 64)
			snprintf(maxbuf, sizeof(maxbuf), "%llu",
				 (unsigned long long)(len == 64 ? ~0ULL :
						      (1ULL << len) - 1));
		else
			snprintf(maxbuf, sizeof(maxbuf), "2^%u-1", len);
		if (e->len <= 64)
			return expr_error(ctx, e,
					  "Value %llu exceeds valid range 0-%s",
					  (unsigned long long)
					  value_get_u64(&e->value), maxbuf);
		return expr_error(ctx, e, "Value exceeds valid range 0-%s",
				  maxbuf);
	}
	value_resize(&e->value, len);
	e->len = len;
	return 0;
}

/* Type a freshly parsed constant like its context (left-hand side). */
static int constant_adopt_context(struct eval_ctx *ctx, struct expr *e)
{
	const struct datatype *dtype = ctx->ectx.dtype;
	enum byteorder bo = ctx->ectx.byteorder;

	switch (e->kind) {
	case EXPR_VALUE:
		if (value_fit_context(ctx, e, ctx->ectx.len) < 0)
			return -1;
		expr_set_type(e, dtype && dtype->type != TYPE_INVALID ?
				 dtype : e->dtype,
			      bo != BYTEORDER_INVALID ? bo : e->byteorder,
			      e->len);
		return 0;
	case EXPR_PREFIX:
		if (constant_adopt_context(ctx, e->prefix.expr) < 0)
			return -1;
		expr_set_type(e, e->prefix.expr->dtype,
			      e->prefix.expr->byteorder, e->prefix.expr->len);
		return 0;
	case EXPR_RANGE:
		if (constant_adopt_context(ctx, e->pair.left) < 0 ||
		    constant_adopt_context(ctx, e->pair.right) < 0)
			return -1;
		expr_set_type(e, e->pair.left->dtype, e->pair.left->byteorder,
			      e->pair.left->len);
		return 0;
	default:
		return 0;
	}
}

/**
 * eval_symbol_constant - the constant symbol @sym is in the context's type
 *
 * What expr_evaluate_symbol() replaces the symbol with, into *@res
 * (also for the rule memo, rule_memo.c, which converts literals so).
 */
static inline int symbol_constant(struct eval_ctx *ctx,
				  const struct expr *sym, struct expr **res)
{
	struct dt_parse_ctx pctx = {
		.erq		= &ctx->nft->erq,
		.resolver	= ctx->nft->resolver,
	};

	*res = NULL;
	if (!ctx->ectx.dtype || ctx->ectx.dtype->type == TYPE_INVALID)
		return expr_error(ctx, sym,
				  "Can't parse symbolic invalid expressions");
	if (dtype_is_string(ctx->ectx.dtype) && !sym->sym.identifier[0])
		return expr_error(ctx, sym, "Empty string is not allowed");
	if (datatype_parse_symbol(&pctx, ctx->ectx.dtype, sym, res) < 0)
		return -1;
	if (!*res)
		return expr_error(ctx, sym, "Could not parse %s",
				  ctx->ectx.dtype->desc);
	(*res)->location = sym->location;
	if (constant_adopt_context(ctx, *res) < 0) {
		expr_free(*res);
		*res = NULL;
		return -1;
	}
	return 0;
}

int eval_symbol_constant(struct eval_ctx *ctx, const struct expr *sym,
			 struct expr **res)
{
	return symbol_constant(ctx, sym, res);
}

/**
 * expr_evaluate_symbol - parse an EXPR_SYMBOL in the context's type
 */
int expr_evaluate_symbol(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *res;

	if (symbol_constant(ctx, *expr, &res) < 0)
		return -1;
	if (ctx->nft->memo_rec)
		rule_memo_note_sym(ctx->nft->memo_rec, &res->location,
				   ctx->ectx.dtype, ctx->ectx.len,
				   ctx->ectx.byteorder, res);
	expr_replace(expr, res);
	return 0;
}

static int expr_evaluate_variable(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *val = (*expr)->sym.value, *c;

	if (!val)
		return expr_error(ctx, *expr, "unknown identifier '%s'",
				  (*expr)->sym.identifier);
	c = expr_clone(val);
	if (!c)
		return expr_error(ctx, *expr, "out of memory");
	expr_replace(expr, c);
	return expr_evaluate(ctx, expr);
}

static int expr_evaluate_value(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (ctx->ectx.len && e->len != ctx->ectx.len &&
	    !datatype_is_a(e->dtype, &verdict_type))
		return value_fit_context(ctx, e, ctx->ectx.len);
	return 0;
}

static int expr_evaluate_prefix(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *pfx = *expr, *base;
	unsigned int width;

	if (expr_evaluate(ctx, &pfx->prefix.expr) < 0)
		return -1;
	base = pfx->prefix.expr;
	if (base->kind == EXPR_PREFIX) {
		/* A wildcard string parsed into a prefix already. */
		pfx->prefix.prefix_len = base->prefix.prefix_len;
		pfx->prefix.expr = expr_get(base->prefix.expr);
		expr_free(base);
		base = pfx->prefix.expr;
	}
	width = ctx->ectx.len ? ctx->ectx.len : base->len;
	if (base->kind != EXPR_VALUE)
		return expr_error(ctx, pfx, "Prefix expression is undefined "
				  "for %s types", base->dtype->desc);
	if (pfx->prefix.prefix_len > width)
		return expr_error(ctx, pfx, "Prefix length %u is invalid for "
				  "type of %u bits width",
				  pfx->prefix.prefix_len, width);
	if (!dtype_is_string(base->dtype)) {
		struct value mask;

		/* Host bits of the address are ignored, as stock does. */
		value_prefix_mask(&mask, base->len, pfx->prefix.prefix_len);
		value_and(&base->value, &base->value, &mask);
	}
	expr_set_type(pfx, base->dtype, base->byteorder, base->len);
	pfx->flags |= EXPR_F_CONSTANT;
	return 0;
}

/* The bounds of a range, as evaluated: in order? (also rule_memo.c) */
bool eval_range_ordered(const struct expr *lo, const struct expr *hi)
{
	return value_cmp(&lo->value, &hi->value) <= 0;
}

static int expr_evaluate_range(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *r = *expr, *lo, *hi;

	if (expr_evaluate(ctx, &r->pair.left) < 0 ||
	    expr_evaluate(ctx, &r->pair.right) < 0)
		return -1;
	lo = r->pair.left;
	hi = r->pair.right;
	if (lo->kind != EXPR_VALUE || hi->kind != EXPR_VALUE)
		return expr_error(ctx, r, "Range bounds must be constant");
	if (!eval_range_ordered(lo, hi))
		return expr_error(ctx, r, "Range has zero or negative size");
	expr_set_type(r, lo->dtype, lo->byteorder, lo->len);
	r->flags |= EXPR_F_CONSTANT;
	return 0;
}

/*
 * Concatenation member @n of @count: its type comes from the key being
 * matched (ectx.key) when there is one, else from the concatenated
 * type's id (TYPE_BITS per member, first member in the high bits).
 */
static void concat_member_context(struct eval_ctx *ctx,
				  const struct datatype *cdtype,
				  const struct expr *key, unsigned int n,
				  unsigned int count)
{
	const struct datatype *dt = NULL;
	const struct expr *k;
	unsigned int i = 0;

	if (key && key->kind == EXPR_CONCAT) {
		list_for_each_entry(k, &key->expressions, list) {
			if (i++ == n) {
				expr_set_context(ctx, k->dtype, k->byteorder,
						 k->len);
				return;
			}
		}
	}
	if (cdtype && cdtype->subtypes && count) {
		unsigned int shift = TYPE_BITS * (cdtype->subtypes - 1 - n);

		dt = datatype_lookup((cdtype->type >> shift) & TYPE_MASK);
	}
	if (dt)
		expr_set_context(ctx, dt, dt->byteorder, dt->size);
	else
		expr_set_context(ctx, NULL, BYTEORDER_INVALID, 0);
}

static unsigned int padded_len(unsigned int len)
{
	return (len + REG32_BITS - 1) / REG32_BITS * REG32_BITS;
}

static int expr_evaluate_concat(struct eval_ctx *ctx, struct expr **expr)
{
	const struct datatype *types[16], *cdtype = ctx->ectx.dtype, *dt;
	struct expr *concat = *expr, *key = ctx->ectx.key, *i, *next;
	unsigned int n = 0, count = 0, len = 0;
	bool constant = true;

	list_for_each_entry(i, &concat->expressions, list)
		count++;
	if (count > 16)
		return expr_error(ctx, concat, "too many concatenation "
				  "components");
	list_for_each_entry_safe(i, next, &concat->expressions, list) {
		struct expr *m = i;

		concat_member_context(ctx, cdtype, key, n, count);
		ctx->ectx.key = NULL;
		if (expr_evaluate(ctx, &m) < 0) {
			ctx->ectx.key = key;
			return -1;
		}
		ctx->ectx.key = key;
		if (m->kind == EXPR_CONCAT)
			return expr_error(ctx, m, "nested concatenations "
					  "are not supported");
		if (!expr_is_constant(m))
			constant = false;
		types[n++] = m->dtype;
		len += padded_len(m->len);
		next = list_entry(m->list.next, struct expr, list);
	}
	dt = concat_type_alloc(types, n);
	if (!dt)
		return expr_error(ctx, concat, "out of memory");
	expr_set_type(concat, dt, BYTEORDER_BIG, len);
	datatype_free(dt);
	concat->size = n;
	if (constant)
		concat->flags |= EXPR_F_CONSTANT;
	else
		concat->flags &= ~EXPR_F_CONSTANT;
	return 0;
}

/* OR the members of a flag list ("syn,ack") into one constant. */
static int expr_evaluate_list(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *list = *expr, *i, *next, *res = NULL;

	list_for_each_entry_safe(i, next, &list->expressions, list) {
		struct expr *m = i;

		if (expr_evaluate(ctx, &m) < 0) {
			expr_free(res);
			return -1;
		}
		next = list_entry(m->list.next, struct expr, list);
		if (m->kind != EXPR_VALUE) {
			expr_free(res);
			return expr_error(ctx, m, "List member must be a "
					  "constant value");
		}
		if (!datatype_is_a(m->dtype, &bitmask_type)) {
			expr_free(res);
			return expr_error(ctx, m, "Basetype of type %s is not "
					  "bitmask", m->dtype->desc);
		}
		if (!res) {
			res = expr_clone(m);
			if (!res)
				return expr_error(ctx, m, "out of memory");
			res->location = list->location;
		} else {
			value_or(&res->value, &res->value, &m->value);
		}
	}
	if (!res)
		return expr_error(ctx, list, "empty list");
	expr_replace(expr, res);
	return 0;
}

/* Constant folding of "a OP b" on two values. */
static int binop_fold(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *b = *expr, *l = b->pair.left, *r = b->pair.right, *res;
	unsigned int n;

	res = expr_clone(l);
	if (!res)
		return expr_error(ctx, b, "out of memory");
	res->location = b->location;
	switch (b->op) {
	case OP_AND:
		value_resize(&r->value, l->len);
		value_and(&res->value, &l->value, &r->value);
		break;
	case OP_OR:
		value_resize(&r->value, l->len);
		value_or(&res->value, &l->value, &r->value);
		break;
	case OP_XOR:
		value_resize(&r->value, l->len);
		value_xor(&res->value, &l->value, &r->value);
		break;
	case OP_LSHIFT:
		n = value_get_u64(&r->value);
		value_shl(&res->value, n);
		break;
	case OP_RSHIFT:
		n = value_get_u64(&r->value);
		value_shr(&res->value, n);
		break;
	default:
		expr_free(res);
		return expr_error(ctx, b, "invalid binary operation");
	}
	expr_replace(expr, res);
	return 0;
}

static int expr_evaluate_binop(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *b = *expr, *left, *right;
	unsigned int shift_len;

	if (expr_evaluate(ctx, &b->pair.left) < 0)
		return -1;
	left = b->pair.left;
	if (b->op == OP_LSHIFT || b->op == OP_RSHIFT) {
		shift_len = 32;
		expr_set_context(ctx, &integer_type, BYTEORDER_HOST,
				 shift_len);
	} else {
		expr_set_context(ctx, left->dtype, left->byteorder,
				 left->len);
	}
	if (expr_evaluate(ctx, &b->pair.right) < 0)
		return -1;
	right = b->pair.right;
	if (right->kind != EXPR_VALUE)
		return expr_error(ctx, right, "Right hand side of binary "
				  "operation must be constant");
	if (left->kind == EXPR_VALUE)
		return binop_fold(ctx, expr);
	if (b->op != OP_LSHIFT && b->op != OP_RSHIFT &&
	    left->byteorder == BYTEORDER_HOST && left->len > 8 &&
	    !datatype_is_a(left->dtype, &integer_type) &&
	    !datatype_is_a(left->dtype, &bitmask_type))
		return expr_error(ctx, b, "Binary operation (%s) is undefined "
				  "for %s types", op_names[b->op],
				  left->dtype->desc);
	expr_set_type(b, left->dtype, left->byteorder, left->len);
	b->flags &= ~EXPR_F_CONSTANT;
	return 0;
}

static int expr_evaluate_unary(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *u = *expr;

	if (expr_evaluate(ctx, &u->unary.arg) < 0)
		return -1;
	expr_set_type(u, u->unary.arg->dtype,
		      u->op == OP_HTON ? BYTEORDER_BIG : BYTEORDER_HOST,
		      u->unary.arg->len);
	return 0;
}

/*
 * Bitfield header fields (ip dscp, ip6 flowlabel, vlan id) are loaded in
 * whole bytes: (load & mask) >> shift, exactly as stock nft. A relational
 * match later moves the shift to its constant side.
 */
static int expr_evaluate_bits(struct eval_ctx *ctx, struct expr **expr,
			      unsigned int offset)
{
	struct expr *e, *mask, *and, *sh, *res;
	unsigned int len = (*expr)->len, bitoff = offset % 8, masklen;
	unsigned int extra = 0, i;
	int shift;
	struct value m;

	shift = (int)((len + 7) / 8 * 8) - (int)(bitoff + len);
	while (shift < 0) {
		shift += 8;
		extra += 8;
	}
	masklen = len + shift;
	e = wrap_begin(expr);
	if (!e)
		return expr_error(ctx, *expr, "out of memory");
	value_init(&m, masklen);
	for (i = 0; i < len; i++)
		value_set_bit(&m, shift + i);
	mask = constant_expr_alloc(&e->location, &integer_type,
				   BYTEORDER_HOST, masklen, &m);
	if (!mask)
		return expr_error(ctx, e, "out of memory");
	and = binop_expr_alloc(&e->location, OP_AND, e, mask);
	if (!and)
		return expr_error(ctx, e, "out of memory");
	expr_set_type(and, e->dtype, e->byteorder, masklen);
	res = and;
	if (shift) {
		sh = constant_expr_u64(&e->location, &integer_type,
				       BYTEORDER_HOST, 32, shift);
		res = binop_expr_alloc(&e->location, OP_RSHIFT, and, sh);
		if (!res)
			return expr_error(ctx, e, "out of memory");
		expr_set_type(res, e->dtype, e->byteorder, masklen);
	}
	e->len += extra;
	wrap_finish(expr, res);
	return 0;
}

static bool payload_needs_bits(const struct expr *e)
{
	return e->payload.offset % 8 || e->len % 8;
}

static int expr_evaluate_payload(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (!e->payload.is_raw && e->payload.desc) {
		if (expr_add_dependency(ctx, e) < 0)
			return -1;
	}
	e->flags &= ~EXPR_F_CONSTANT;
	if (payload_needs_bits(e))
		return expr_evaluate_bits(ctx, expr, e->payload.offset);
	return 0;
}

static int expr_evaluate_exthdr(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (expr_add_dependency(ctx, e) < 0)
		return -1;
	if (e->exthdr.flags & NFT_EXTHDR_F_PRESENT) {
		expr_set_type(e, &boolean_type, BYTEORDER_HOST, 8);
		return 0;
	}
	if (e->len && (e->exthdr.offset % 8 || e->len % 8))
		return expr_evaluate_bits(ctx, expr, e->exthdr.offset);
	return 0;
}

/* ct saddr/daddr take their width from the network protocol. */
static int ct_update_type(struct eval_ctx *ctx, struct expr *e)
{
	const struct proto_desc *nh;

	if (e->ct.key == NFT_CT_PROTO_SRC || e->ct.key == NFT_CT_PROTO_DST) {
		/* a port only means something once the protocol is known */
		if (!ctx->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc &&
		    ctx->rule)
			expr_set_type(e, &invalid_type, BYTEORDER_BIG, 16);
		return 0;
	}
	nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	if (nh && ctx->rule && (e->ct.nfproto == NFPROTO_IPV4 ||
				e->ct.nfproto == NFPROTO_IPV6)) {
		const struct proto_desc *want = e->ct.nfproto == NFPROTO_IPV4 ?
						&proto_ip : &proto_ip6;

		if (nh != want)
			return expr_error(ctx, e, "conflicting protocols "
					  "specified: %s vs. %s", nh->name,
					  want->name);
	}
	if (e->ct.key != NFT_CT_SRC && e->ct.key != NFT_CT_DST)
		return 0;
	if (e->dtype->type != TYPE_INVALID && e->len)
		return 0;
	if (nh == &proto_ip || e->ct.nfproto == NFPROTO_IPV4)
		expr_set_type(e, &ipaddr_type, BYTEORDER_BIG, 32);
	else if (nh == &proto_ip6 || e->ct.nfproto == NFPROTO_IPV6)
		expr_set_type(e, &ip6addr_type, BYTEORDER_BIG, 128);
	else
		return expr_error(ctx, e, "cannot determine ip protocol "
				  "version, use \"ip %s\" or \"ip6 %s\" "
				  "instead",
				  e->ct.key == NFT_CT_SRC ? "saddr" : "daddr",
				  e->ct.key == NFT_CT_SRC ? "saddr" : "daddr");
	return 0;
}

/*
 * "rt nexthop" takes the address family of the network protocol; "rt ip
 * nexthop" names it (nft needs no dependency for it, in inet either).
 */
static int expr_evaluate_rt(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;
	const struct proto_desc *nh;

	if (e->rt.key != NFT_RT_NEXTHOP4 || !ctx->rule ||
	    e->rt.nfproto == NFPROTO_IPV4)
		return 0;
	nh = ctx->pctx.protocol[PROTO_BASE_NETWORK_HDR].desc;
	if (nh == &proto_ip6) {
		e->rt.key = NFT_RT_NEXTHOP6;
		expr_set_type(e, &ip6addr_type, BYTEORDER_BIG, 128);
	} else if (nh != &proto_ip) {
		return expr_error(ctx, e, "cannot determine ip protocol "
				  "version, use \"ip nexthop\" or \"ip6 "
				  "nexthop\" instead");
	}
	return 0;
}

static int expr_evaluate_meta(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (e->meta.key == NFT_META_NFPROTO &&
	    ctx->pctx.family != NFPROTO_INET)
		return expr_error(ctx, e, "meta nfproto is only useful in "
				  "the inet family");
	/* The kernel has the bridge keys in bridge tables only. */
	switch (e->meta.key) {
	case NFT_META_BRI_IIFNAME:
	case NFT_META_BRI_OIFNAME:
	case NFT_META_BRI_IIFPVID:
	case NFT_META_BRI_IIFVPROTO:
		if (ctx->pctx.family != NFPROTO_BRIDGE && ctx->rule) {
			/* reported as the kernel would (see eval_ctx) */
			erec_error(eval_kernel_errq(ctx), &e->location,
				   "Could not process rule: Operation not "
				   "supported");
			return -1;
		}
		break;
	default:
		break;
	}
	return 0;
}

static int expr_evaluate_hash(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (e->hash.expr) {
		expr_set_context(ctx, NULL, BYTEORDER_INVALID, 0);
		if (expr_evaluate(ctx, &e->hash.expr) < 0)
			return -1;
	}
	if (!e->hash.mod)
		return expr_error(ctx, e, "hash modulus must be non-zero");
	return 0;
}

/*
 * Expressions the kernel has for some families only: the batch would be
 * rejected with @err (reported like the kernel's answer, see eval_ctx).
 */
static int family_check(struct eval_ctx *ctx, const struct expr *e,
			unsigned int families, int err)
{
	if (!ctx->rule || (families & (1u << ctx->pctx.family)))
		return 0;
	erec_error(eval_kernel_errq(ctx), &e->location,
		   "Could not process rule: %s", strerror(err));
	return -1;
}

#define FAM(f)		(1u << (f))
#define FAM_INET	(FAM(NFPROTO_IPV4) | FAM(NFPROTO_IPV6) | \
			 FAM(NFPROTO_INET))

static int expr_evaluate_socket(struct eval_ctx *ctx, struct expr **expr)
{
	return family_check(ctx, *expr, FAM_INET, EOPNOTSUPP);
}

static int expr_evaluate_fib(struct eval_ctx *ctx, struct expr **expr)
{
	uint32_t f = (*expr)->fib.flags;

	if (family_check(ctx, *expr, FAM_INET | FAM(NFPROTO_NETDEV),
			 ENOENT) < 0)
		return -1;

	if (!(f & (NFTA_FIB_F_SADDR | NFTA_FIB_F_DADDR)))
		return expr_error(ctx, *expr, "fib: need either saddr or "
				  "daddr");
	if ((f & NFTA_FIB_F_SADDR) && (f & NFTA_FIB_F_DADDR))
		return expr_error(ctx, *expr, "fib: saddr and daddr are "
				  "mutually exclusive");
	if ((f & NFTA_FIB_F_IIF) && (f & NFTA_FIB_F_OIF))
		return expr_error(ctx, *expr, "fib: iif and oif are mutually "
				  "exclusive");
	return 0;
}

static int expr_evaluate_numgen(struct eval_ctx *ctx, struct expr **expr)
{
	if (!(*expr)->numgen.mod)
		return expr_error(ctx, *expr, "numgen modulus must be "
				  "non-zero");
	return 0;
}

static int expr_evaluate_verdict(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *v = *expr, *c = v->verdict.chain;

	if (!c)
		return 0;
	if (c->kind == EXPR_VARIABLE && c->sym.value &&
	    c->sym.value->kind == EXPR_SYMBOL) {
		/* a chain name: not a verdict, whatever the context says */
		struct expr *name = expr_clone(c->sym.value);

		if (!name)
			return expr_error(ctx, c, "out of memory");
		expr_replace(&v->verdict.chain, name);
		c = name;
	} else if (c->kind == EXPR_VARIABLE) {
		if (expr_evaluate_variable(ctx, &v->verdict.chain) < 0)
			return -1;
		c = v->verdict.chain;
	}
	if (c->kind == EXPR_SYMBOL) {
		struct expr *s = constant_expr_string(&c->location,
						      &string_type,
						      c->sym.identifier, 0);

		if (!s)
			return expr_error(ctx, c, "out of memory");
		expr_replace(&v->verdict.chain, s);
	}
	return 0;
}

static int expr_evaluate_set_ref(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;
	struct set *set = e->set_ref.set, *found;
	struct name_ref name;

	/* The parser leaves a placeholder holding only the name. */
	if (!set || !set->handle.set.name || !ctx->table ||
	    set_cache_find(ctx->table, set->handle.set.name) == set)
		return 0;
	name = set->handle.set;
	found = set_lookup_ref(ctx, &name, &e->location);
	if (!found)
		return -1;
	e->set_ref.set = set_get(found);
	set_free(set);
	return 0;
}

static int expr_evaluate_set_elem(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (expr_evaluate(ctx, &e->elem.key) < 0)
		return -1;
	expr_set_type(e, e->elem.key->dtype, e->elem.key->byteorder,
		      e->elem.key->len);
	e->flags |= e->elem.key->flags & EXPR_F_CONSTANT;
	return 0;
}

static int expr_evaluate_mapping(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr;

	if (expr_evaluate(ctx, &e->pair.left) < 0)
		return -1;
	expr_set_type(e, e->pair.left->dtype, e->pair.left->byteorder,
		      e->pair.left->len);
	return 0;
}

/*
 * "ip dscp map { cs1 : 1 }": an anonymous map's keys take the bitfield
 * shift, as in a relational match (see binop_transfer).
 */
static int map_binop_transfer(struct eval_ctx *ctx, struct expr *map)
{
	struct expr rel;

	if (map->kind != EXPR_MAP || map->map.key->kind != EXPR_BINOP ||
	    map->map.key->op != OP_RSHIFT ||
	    map->map.mappings->kind != EXPR_SET_REF)
		return 0;
	memset(&rel, 0, sizeof(rel));
	rel.kind = EXPR_RELATIONAL;
	rel.op = OP_EQ;
	rel.pair.left = map->map.key;
	rel.pair.right = map->map.mappings;
	if (binop_transfer(ctx, &rel) < 0)
		return -1;
	map->map.key = rel.pair.left;
	return 0;
}

/**
 * expr_evaluate - evaluate *expr in the current context
 *
 * May replace *expr (symbols become values, bitfield loads become
 * binops, variables their bound expression). Returns 0 or -1 with an
 * error queued.
 */
int expr_evaluate(struct eval_ctx *ctx, struct expr **expr)
{
	switch ((enum expr_kind)(*expr)->kind) {
	case EXPR_SYMBOL:
		return expr_evaluate_symbol(ctx, expr);
	case EXPR_VARIABLE:
		return expr_evaluate_variable(ctx, expr);
	case EXPR_VALUE:
		return expr_evaluate_value(ctx, expr);
	case EXPR_VERDICT:
		return expr_evaluate_verdict(ctx, expr);
	case EXPR_PREFIX:
		return expr_evaluate_prefix(ctx, expr);
	case EXPR_RANGE:
		return expr_evaluate_range(ctx, expr);
	case EXPR_PAYLOAD:
		return expr_evaluate_payload(ctx, expr);
	case EXPR_EXTHDR:
		return expr_evaluate_exthdr(ctx, expr);
	case EXPR_META:
		return expr_evaluate_meta(ctx, expr);
	case EXPR_CT:
		return ct_update_type(ctx, *expr);
	case EXPR_HASH:
		return expr_evaluate_hash(ctx, expr);
	case EXPR_NUMGEN:
		return expr_evaluate_numgen(ctx, expr);
	case EXPR_FIB:
		return expr_evaluate_fib(ctx, expr);
	case EXPR_RT:
		return expr_evaluate_rt(ctx, expr);
	case EXPR_SOCKET:
		return expr_evaluate_socket(ctx, expr);
	case EXPR_OSF:
	case EXPR_XFRM:
		return expr_add_dependency(ctx, *expr);
	case EXPR_CONCAT:
		return expr_evaluate_concat(ctx, expr);
	case EXPR_LIST:
		return expr_evaluate_list(ctx, expr);
	case EXPR_SET:
		return expr_evaluate_anon_set(ctx, ctx->ectx.key, expr);
	case EXPR_SET_REF:
		return expr_evaluate_set_ref(ctx, expr);
	case EXPR_SET_ELEM:
		return expr_evaluate_set_elem(ctx, expr);
	case EXPR_MAPPING:
		return expr_evaluate_mapping(ctx, expr);
	case EXPR_MAP:
		if (expr_evaluate_map(ctx, expr) < 0)
			return -1;
		return map_binop_transfer(ctx, *expr);
	case EXPR_UNARY:
		return expr_evaluate_unary(ctx, expr);
	case EXPR_BINOP:
		return expr_evaluate_binop(ctx, expr);
	case EXPR_RELATIONAL:
		return expr_evaluate_relational(ctx, expr);
	case EXPR_INVALID:
	case __EXPR_MAX:
		break;
	}
	return expr_error(ctx, *expr, "unknown expression");
}

/**
 * expr_byteorder_to_big - make a value big endian for range compares
 *
 * A host order load wider than a byte is wrapped in hton() (each member
 * of a concatenation separately); a constant only changes its byte order
 * flag (the canonical value is laid out by the linearizer).
 */
int expr_byteorder_to_big(struct eval_ctx *ctx, struct expr **expr)
{
	return byteorder_to_big(ctx, expr);
}

/* Wrap a host order load wider than a byte into hton(). */
static int byteorder_to_big(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *e = *expr, *i, *u;

	if (e->kind == EXPR_CONCAT) {
		list_for_each_entry(i, &e->expressions, list) {
			struct expr *m = i;

			if (byteorder_to_big(ctx, &m) < 0)
				return -1;
			i = m;
		}
		return 0;
	}
	if (e->byteorder != BYTEORDER_HOST || e->len <= 8)
		return 0;
	if (expr_is_constant(e)) {
		e->byteorder = BYTEORDER_BIG;
		return 0;
	}
	e = wrap_begin(expr);
	if (!e)
		return expr_error(ctx, *expr, "out of memory");
	u = unary_expr_alloc(&e->location, OP_HTON, e);
	if (!u)
		return expr_error(ctx, e, "out of memory");
	expr_set_type(u, e->dtype, BYTEORDER_BIG, e->len);
	wrap_finish(expr, u);
	return 0;
}

static void constant_to_big(struct expr *e)
{
	struct expr *i;

	switch (e->kind) {
	case EXPR_VALUE:
		if (e->byteorder == BYTEORDER_HOST)
			e->byteorder = BYTEORDER_BIG;
		break;
	case EXPR_RANGE:
		constant_to_big(e->pair.left);
		constant_to_big(e->pair.right);
		e->byteorder = e->pair.left->byteorder;
		break;
	case EXPR_PREFIX:
		constant_to_big(e->prefix.expr);
		e->byteorder = e->prefix.expr->byteorder;
		break;
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->expressions, list)
			constant_to_big(i);
		break;
	default:
		break;
	}
}

/* Apply the inverse of @op (by @arg) to every constant of @e (keys only). */
static void constant_transfer(struct expr *e, enum ops op,
			      const struct value *arg)
{
	struct expr *i;
	struct value a;
	unsigned int n = value_get_u64(arg);

	switch (e->kind) {
	case EXPR_VALUE:
		switch (op) {
		case OP_RSHIFT:
			value_shl(&e->value, n);
			break;
		case OP_LSHIFT:
			value_shr(&e->value, n);
			break;
		case OP_XOR:
			a = *arg;
			value_resize(&a, e->value.len);
			value_xor(&e->value, &e->value, &a);
			break;
		default:
			break;
		}
		break;
	case EXPR_RANGE:
		constant_transfer(e->pair.left, op, arg);
		constant_transfer(e->pair.right, op, arg);
		break;
	case EXPR_PREFIX:
		constant_transfer(e->prefix.expr, op, arg);
		break;
	case EXPR_SET_ELEM:
		constant_transfer(e->elem.key, op, arg);
		break;
	case EXPR_MAPPING:
		constant_transfer(e->pair.left, op, arg);
		break;
	case EXPR_SET:
		list_for_each_entry(i, &e->expressions, list)
			constant_transfer(i, op, arg);
		break;
	default:
		break;
	}
}

/* Can every constant of @e take the inverse of "<< n"? */
static bool constant_can_unshift(const struct expr *e, unsigned int n)
{
	const struct expr *i;
	unsigned int b;

	switch (e->kind) {
	case EXPR_VALUE:
		for (b = 0; b < n && b < e->value.len; b++)
			if (value_test_bit(&e->value, b))
				return false;
		return true;
	case EXPR_RANGE:
		return constant_can_unshift(e->pair.left, n) &&
		       constant_can_unshift(e->pair.right, n);
	case EXPR_SET_ELEM:
		return constant_can_unshift(e->elem.key, n);
	case EXPR_MAPPING:
		return constant_can_unshift(e->pair.left, n);
	case EXPR_SET:
		list_for_each_entry(i, &e->expressions, list)
			if (!constant_can_unshift(i, n))
				return false;
		return true;
	default:
		return true;
	}
}

/*
 * "(load & mask) >> n OP c" becomes "(load & mask) OP c << n", "x ^ a OP
 * c" becomes "x OP c ^ a" and "x << n OP c" "x OP c >> n" (stock nft's
 * binop transfer): the kernel then needs no shift or xor.
 */
static int binop_transfer(struct eval_ctx *ctx, struct expr *rel)
{
	struct expr *left = rel->pair.left, *right = rel->pair.right;
	struct expr *inner, *target;
	struct set *set;

	if (left->kind != EXPR_BINOP || left->pair.right->kind != EXPR_VALUE)
		return 0;
	if (left->op != OP_RSHIFT && left->op != OP_LSHIFT &&
	    left->op != OP_XOR)
		return 0;
	switch (right->kind) {
	case EXPR_VALUE:
	case EXPR_RANGE:
		if (left->op == OP_XOR && right->kind == EXPR_RANGE)
			return 0;
		target = right;
		break;
	case EXPR_SET_REF:
		set = right->set_ref.set;
		if (!set || !(set->flags & SET_F_ANONYMOUS) || !set->init ||
		    left->op == OP_XOR)
			return 0;
		target = set->init;
		break;
	default:
		return 0;
	}
	if (left->op == OP_LSHIFT &&
	    !constant_can_unshift(target,
				  value_get_u64(&left->pair.right->value)))
		return expr_error(ctx, right, "Comparison is always false");
	constant_transfer(target, left->op, &left->pair.right->value);
	inner = expr_get(left->pair.left);
	if (left->op == OP_XOR)
		expr_set_type(inner, left->dtype, inner->byteorder,
			      inner->len);
	rel->pair.left = inner;
	expr_free(left);
	return 0;
}

/*
 * "ip saddr 10.0.0.0/8": a byte-aligned prefix on a header field loads
 * only the prefix bytes and compares them (stock nft's shorter load).
 */
static void prefix_shorten_payload(struct expr *rel)
{
	struct expr *left = rel->pair.left, *pfx = rel->pair.right, *val;
	unsigned int plen = pfx->prefix.prefix_len;

	if (left->kind != EXPR_PAYLOAD || plen == 0 || plen % 8 ||
	    left->len % 8 || left->payload.offset % 8 ||
	    dtype_is_string(left->dtype))
		return;
	val = expr_get(pfx->prefix.expr);
	value_shr(&val->value, val->len - plen);
	value_resize(&val->value, plen);
	val->len = plen;
	left->len = plen;
	rel->pair.right = val;
	expr_free(pfx);
}

/*
 * A constant compared with a bitfield ("ip dscp 64", "@th,16,1 2") must
 * fit the field, not just the bytes loaded for it.
 */
static int relational_check_width(struct eval_ctx *ctx, const struct expr *rel)
{
	const struct expr *left = rel->pair.left, *right = rel->pair.right;
	unsigned int width = left->len;

	if (right->kind != EXPR_VALUE || dtype_is_string(right->dtype))
		return 0;
	if (left->kind == EXPR_BINOP && left->op == OP_RSHIFT &&
	    left->pair.right->kind == EXPR_VALUE)
		width = left->len - value_get_u64(&left->pair.right->value);
	else if (!(left->kind == EXPR_PAYLOAD && left->len == 0))
		return 0;
	if (value_bits(&right->value) <= width)
		return 0;
	return expr_error(ctx, right, "Value %llu exceeds valid range 0-%llu",
			  (unsigned long long)value_get_u64(&right->value),
			  width >= 64 ? ~0ULL :
			  (unsigned long long)((1ULL << width) - 1));
}

static bool set_is_singleton(const struct expr *set)
{
	const struct expr *e;

	if (set->kind != EXPR_SET || list_count(&set->expressions) != 1)
		return false;
	e = list_first_entry(&set->expressions, struct expr, list);
	if (e->kind == EXPR_SET_ELEM) {
		if (!list_empty(&e->elem.stmts) || e->elem.timeout ||
		    e->elem.comment)
			return false;
		e = e->elem.key;
	}
	return e->kind != EXPR_CONCAT && e->kind != EXPR_MAPPING &&
	       e->kind != EXPR_SET;
}

/* "{ x }" matches like "x" (stock nft folds one-element sets). */
static void set_unwrap_singleton(struct expr *rel)
{
	struct expr *set = rel->pair.right, *e;

	e = list_first_entry(&set->expressions, struct expr, list);
	list_del(&e->list);
	if (e->kind == EXPR_SET_ELEM) {
		struct expr *k = expr_get(e->elem.key);

		expr_free(e);
		e = k;
	}
	rel->pair.right = e;
	expr_free(set);
}

static bool is_exists_symbol(const struct expr *e)
{
	return e->kind == EXPR_SYMBOL &&
	       (!strcmp(e->sym.identifier, "exists") ||
		!strcmp(e->sym.identifier, "missing"));
}

static int relational_resolve_op(struct eval_ctx *ctx, struct expr *rel)
{
	struct expr *right = rel->pair.right;
	const struct set *set;

	switch (right->kind) {
	case EXPR_SET_REF:
		if (rel->op == OP_IMPLICIT)
			rel->op = OP_EQ;
		if (rel->op != OP_EQ && rel->op != OP_NEQ)
			return expr_error(ctx, rel, "Relational expression "
					  "(%s) is undefined for set",
					  op_names[rel->op]);
		set = right->set_ref.set;
		if (set && (set->flags & SET_F_INTERVAL))
			return byteorder_to_big(ctx, &rel->pair.left);
		return 0;
	case EXPR_RANGE:
		if (rel->op == OP_IMPLICIT)
			rel->op = OP_EQ;
		if (rel->op != OP_EQ && rel->op != OP_NEQ)
			return expr_error(ctx, rel, "Relational expression "
					  "(%s) is undefined for range",
					  op_names[rel->op]);
		constant_to_big(right);
		return byteorder_to_big(ctx, &rel->pair.left);
	case EXPR_PREFIX:
		if (rel->op == OP_IMPLICIT)
			rel->op = OP_EQ;
		return 0;
	default:
		break;
	}
	switch (rel->op) {
	case OP_IMPLICIT:
		if (right->kind == EXPR_VALUE &&
		    datatype_is_a(right->dtype, &bitmask_type) &&
		    rel->pair.left->kind != EXPR_BINOP &&
		    !value_is_zero(&right->value))
			return 0;	/* flag test */
		rel->op = OP_EQ;
		return 0;
	case OP_LT:
	case OP_GT:
	case OP_LTE:
	case OP_GTE:
		constant_to_big(right);
		return byteorder_to_big(ctx, &rel->pair.left);
	default:
		return 0;
	}
}

/**
 * expr_evaluate_relational - evaluate a match LEFT OP RIGHT
 *
 * The left side is evaluated first and gives the right side its type;
 * then bitfield shifts move to the constant side, byte-aligned payload
 * prefixes shrink the load, OP_IMPLICIT is resolved (it stays only for
 * bitmask flag tests), ranges, ordered comparisons and interval lookups
 * get big endian operands, and protocol matches update the context.
 */
int expr_evaluate_relational(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *rel = *expr, *left, *right;
	int ret;

	expr_set_context(ctx, NULL, BYTEORDER_INVALID, 0);
	ctx->ectx.key = NULL;
	if (rel->pair.left->kind == EXPR_EXTHDR &&
	    (is_exists_symbol(rel->pair.right) ||
	     (rel->pair.right->kind == EXPR_VALUE &&
	      rel->pair.right->dtype == &boolean_type)))
		rel->pair.left->exthdr.flags |= NFT_EXTHDR_F_PRESENT;
	if (rel->pair.left->kind == EXPR_FIB &&
	    is_exists_symbol(rel->pair.right)) {
		rel->pair.left->fib.flags |= NFTA_FIB_F_PRESENT;
		/* stock compares the present flag as a 32-bit word */
		expr_set_type(rel->pair.left, &boolean_type, BYTEORDER_HOST, 32);
	}
	if (expr_evaluate(ctx, &rel->pair.left) < 0)
		return -1;
	left = rel->pair.left;
	if (rel->op == OP_NEG && left->kind == EXPR_BINOP)
		return expr_error(ctx, left, "cannot combine negation with "
				  "binary expression");
	if (expr_is_constant(left))
		return expr_error(ctx, left, "Relational expression (%s) has "
				  "constant value", op_names[rel->op]);
	if (left->kind == EXPR_CONCAT && rel->pair.right->kind != EXPR_SET &&
	    rel->pair.right->kind != EXPR_SET_REF)
		return expr_error(ctx, left, "Use concatenations with sets and "
				  "maps, not singleton values");
	if (set_is_singleton(rel->pair.right))
		set_unwrap_singleton(rel);

	expr_set_context(ctx, left->dtype, left->byteorder, left->len);
	ctx->ectx.key = left;
	ret = expr_evaluate(ctx, &rel->pair.right);
	ctx->ectx.key = NULL;
	if (ret < 0)
		return -1;
	right = rel->pair.right;
	if (!expr_is_constant(right) && right->kind != EXPR_SET_REF)
		return expr_error(ctx, right, "Right hand side of relational "
				  "expression (%s) must be constant",
				  op_names[rel->op]);
	if (right->kind == EXPR_SET_REF && right->set_ref.set &&
	    right->set_ref.set->key) {
		const struct datatype *kt = right->set_ref.set->key->dtype;

		if (kt && kt->type != TYPE_INVALID &&
		    !datatype_compatible(left->dtype, kt))
			return expr_error(ctx, right, "datatype mismatch, "
					  "expected %s, expression has type %s",
					  left->dtype->desc, kt->desc);
	}
	if (relational_check_width(ctx, rel) < 0)
		return -1;
	if (binop_transfer(ctx, rel) < 0)
		return -1;
	if (right->kind == EXPR_PREFIX &&
	    (rel->op == OP_EQ || rel->op == OP_NEQ || rel->op == OP_IMPLICIT))
		prefix_shorten_payload(rel);
	if (relational_resolve_op(ctx, rel) < 0)
		return -1;
	expr_set_type(rel, &boolean_type, BYTEORDER_HOST, 1);
	rel->flags &= ~EXPR_F_CONSTANT;
	expr_pctx_update(ctx, rel);
	return 0;
}
