// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decompilation of rules: VM code back to the IR the printer lists.
 *
 * A rule's expressions are read in order with a register file that holds,
 * per 32-bit register slot, the IR expression whose value the VM would
 * have there: loads (payload, meta, ct, ...) put a selector in their
 * destination, bitwise/byteorder wrap it, and consumers (cmp, range,
 * lookup, statements) take it back out to build matches. Raw payload
 * loads are named from the protocol context that the protocol matches
 * read so far establish, as the evaluator did when it compiled them.
 * Generated dependencies are left in the IR: the printer recognises and
 * drops them, whoever wrote them.
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/udata.h>
#include "delin_int.h"
#include "rule.h"
#include "list_tmpl.h"

const struct location delin_loc;

#define REG32_BYTES	4

/**
 * delin_set_dtype - retype @e, keeping allocated types' references right
 */
void delin_set_dtype(struct expr *e, const struct datatype *dtype)
{
	const struct datatype *old = e->dtype;

	if (dtype == old)
		return;
	if (dtype && (dtype->flags & DTYPE_F_ALLOC))
		datatype_get(dtype);
	e->dtype = dtype ? dtype : &invalid_type;
	if (old && (old->flags & DTYPE_F_ALLOC))
		datatype_free(old);
}

/**
 * delin_reg_slot - 32-bit slot of netlink register @reg, -1 if none
 */
int delin_reg_slot(uint32_t reg)
{
	if (reg >= NFT_REG32_00 && reg < NFT_REG32_00 + DELIN_SLOTS)
		return reg - NFT_REG32_00;
	if (reg >= NFT_REG_1 && reg <= NFT_REG_4)
		return (reg - NFT_REG_1) * 4;
	return -1;
}

static unsigned int slots_of(unsigned int bits)
{
	unsigned int n = (bits + 31) / 32;

	return n ? n : 1;
}

void delin_reg_set(struct delin_rule_ctx *c, uint32_t reg, struct expr *e)
{
	int s = delin_reg_slot(reg);

	if (s < 0) {
		expr_free(e);
		return;
	}
	expr_free(c->regs[s]);
	c->regs[s] = e;
}

const struct expr *delin_reg_peek(struct delin_rule_ctx *c, uint32_t reg)
{
	int s = delin_reg_slot(reg);

	return s < 0 ? NULL : c->regs[s];
}

/*
 * The value of @len bytes starting at @reg: one expression, or the
 * members of a concatenation loaded into consecutive slots.
 */
struct expr *delin_reg_get(struct delin_rule_ctx *c, uint32_t reg,
			   unsigned int len)
{
	int s = delin_reg_slot(reg);
	unsigned int have;
	struct expr *cat, *m;

	if (s < 0 || !c->regs[s])
		return NULL;
	have = BITS_TO_BYTES(c->regs[s]->len);
	if (!len || len <= have || c->regs[s]->kind == EXPR_CONCAT)
		return expr_clone(c->regs[s]);
	cat = list_expr_alloc(&delin_loc, EXPR_CONCAT);
	if (!cat)
		return NULL;
	have = 0;
	while (have < len && s < DELIN_SLOTS && c->regs[s]) {
		m = expr_clone(c->regs[s]);
		if (!m)
			break;
		list_expr_add(cat, m);
		cat->len += m->len;
		have += slots_of(m->len) * REG32_BYTES;
		s += slots_of(m->len);
	}
	if (cat->size == 1) {
		m = list_first_entry(&cat->expressions, struct expr, list);
		list_del(&m->list);
		cat->size = 0;
		expr_free(cat);
		return m;
	}
	delin_set_dtype(cat, &invalid_type);
	return cat;
}

void delin_add_stmt(struct delin_rule_ctx *c, struct stmt *s)
{
	if (!s)
		return;
	list_add_tail(&s->list, &c->rule->stmts);
	c->rule->num_stmts++;
}

struct expr *delin_value_typed(const struct datatype *dtype,
			       enum byteorder order, unsigned int len_bits,
			       const void *data, unsigned int dlen)
{
	uint8_t buf[NFTC_VALUE_MAX] = { 0 };
	struct value v;
	unsigned int n = BITS_TO_BYTES(len_bits);

	if (n > NFTC_VALUE_MAX)
		n = NFTC_VALUE_MAX;
	if (len_bits > NFTC_VALUE_MAX * 8)
		len_bits = NFTC_VALUE_MAX * 8;
	memcpy(buf, data, dlen < n ? dlen : n);
	if (order == BYTEORDER_INVALID)
		order = BYTEORDER_BIG;
	value_from_reg(&v, len_bits, order, buf);
	return constant_expr_alloc(&delin_loc, dtype ? dtype : &integer_type,
				   order, len_bits, &v);
}

/* The type a constant compared with @like takes. */
static const struct datatype *like_dtype(const struct expr *like)
{
	if (!like->dtype || like->dtype == &invalid_type)
		return &integer_type;
	return like->dtype;
}

/**
 * delin_value - a constant from register bytes, typed like @like
 *
 * A concatenation's members each start on a 32-bit word, as loaded.
 */
struct expr *delin_value(const struct expr *like, const void *data,
			 unsigned int len)
{
	const uint8_t *p = data;
	const struct expr *i;
	struct expr *cat, *m;
	unsigned int off = 0, n;

	if (like->kind != EXPR_CONCAT) {
		n = like->len ? like->len : len * 8;
		if (like->dtype && datatype_is_a(like->dtype, &string_type) &&
		    len * 8 > n)
			n = len * 8;
		return delin_value_typed(like_dtype(like), like->byteorder, n,
					 data, len);
	}
	cat = list_expr_alloc(&delin_loc, EXPR_CONCAT);
	if (!cat)
		return NULL;
	delin_set_dtype(cat, like->dtype);
	list_for_each_entry(i, &like->expressions, list) {
		n = slots_of(i->len) * REG32_BYTES;
		if (off >= len)
			break;
		m = delin_value(i, p + off, len - off < n ? len - off : n);
		if (!m)
			break;
		list_expr_add(cat, m);
		cat->len += i->len;
		off += n;
	}
	return cat;
}

/**
 * delin_retype - give an immediate (or a map/set of them) @like's type
 *
 * Immediates are read before anyone knows what they are for ("meta mark
 * set 0x10" loads 0x10 first): they carry their raw register bytes until
 * the consumer names the type. Takes over @e.
 */
struct expr *delin_retype(struct expr *e, const struct expr *like)
{
	uint8_t buf[NFTC_VALUE_MAX];
	unsigned int n;
	struct expr *r;

	if (!e || !like)
		return e;
	if (e->kind == EXPR_VALUE && e->byteorder == BYTEORDER_INVALID) {
		n = BITS_TO_BYTES(e->value.len);
		value_to_reg(&e->value, BYTEORDER_BIG, buf, n);
		r = delin_value(like, buf, n);
		if (r) {
			expr_free(e);
			return r;
		}
		e->byteorder = BYTEORDER_BIG;
		return e;
	}
	if (e->kind == EXPR_CONCAT && like->kind == EXPR_CONCAT) {
		struct expr *i, *l = list_first_entry(&like->expressions,
						      struct expr, list);
		struct list_head tmp = LIST_HEAD_INIT(tmp);

		list_splice_tail_init(&e->expressions, &tmp);
		e->size = 0;
		while (!list_empty(&tmp)) {
			i = list_first_entry(&tmp, struct expr, list);
			list_del(&i->list);
			if (&l->list != &like->expressions) {
				i = delin_retype(i, l);
				l = list_next_entry(l, list);
			}
			list_expr_add(e, i);
		}
		delin_set_dtype(e, like->dtype);
	}
	return e;
}

struct expr *delin_string_expr(const char *s)
{
	return constant_expr_string(&delin_loc, &string_type, s,
				    strlen(s) * 8);
}

struct expr *delin_verdict(int verdict, const char *chain)
{
	struct expr *c = NULL;

	if (chain) {
		c = symbol_expr_alloc(&delin_loc, SYMBOL_VALUE, chain);
		if (!c)
			return NULL;
	}
	return verdict_expr_alloc(&delin_loc, verdict, c);
}

/**
 * delin_find_set - the set expression @e names with attributes @name_attr
 * and @id_attr
 *
 * A batch (not yet applied) calls every anonymous set "__set%d" and tells
 * them apart by id.
 */
struct set *delin_find_set(struct delin_rule_ctx *c,
			   const struct dx *e, uint16_t name_attr,
			   uint16_t id_attr)
{
	const char *name = dx_has(e, name_attr) ?
			   dx_str(e, name_attr) : NULL;
	struct set *s;
	uint32_t id;

	if (!c->dctx || !c->dctx->table)
		return NULL;
	if (name && !strchr(name, '%'))
		return c->dctx->sets ?
		       delin_set_index_lookup(c->dctx->sets, name) :
		       delin_set_lookup(c->dctx->table, name);
	if (!dx_has(e, id_attr))
		return NULL;
	id = dx_u32(e, id_attr);
	list_for_each_entry(s, &c->dctx->table->sets, list) {
		if (s->handle.set_id == id)
			return s;
	}
	return NULL;
}

/* ------------------------------------------------------------ payload */

struct expr *delin_payload_alloc(enum proto_bases base, unsigned int offset,
				 unsigned int len)
{
	return payload_raw_alloc(&delin_loc, base, offset, len);
}

bool delin_desc_is_pseudo(const struct proto_desc *d)
{
	return d == &proto_inet || d == &proto_inet_service ||
	       d == &proto_netdev;
}

/*
 * The field of @d at @off: exactly @len bits, or a longer prefixable
 * field (a shortened address load).
 */
static const struct proto_hdr_template *
field_at(const struct proto_desc *d, unsigned int off, unsigned int len,
	 bool *exact)
{
	const struct proto_hdr_template *t, *pfx = NULL;
	unsigned int k;

	for (k = 1; k < PROTO_HDRS_MAX; k++) {
		t = &d->templates[k];
		if (!t->token || t->meta_key || t->offset != off)
			continue;
		if (t->len == len) {
			*exact = true;
			return t;
		}
		if (t->len > len && t->dtype &&
		    (t->dtype->flags & DTYPE_F_PREFIX) && !pfx)
			pfx = t;
	}
	*exact = false;
	return pfx;
}

/*
 * ICMP fields share offsets ("icmpv6 mtu", "icmpv6 param-problem"): the
 * message type matched before the load names the one meant.
 */
static const struct proto_hdr_template *
icmp_field(struct delin_rule_ctx *c, const struct proto_desc *d,
	   const struct proto_hdr_template *first)
{
	const struct proto_icmp_dep_types *dep;
	const struct proto_hdr_template *t;
	unsigned int k, j;

	if ((d != &proto_icmp && d != &proto_icmp6) || c->icmp_desc != d ||
	    c->icmp_type < 0)
		return first;
	for (k = 1; k < PROTO_HDRS_MAX; k++) {
		t = &d->templates[k];
		if (!t->token || t->offset != first->offset ||
		    t->len != first->len || t->icmp_dep == PROTO_ICMP_ANY)
			continue;
		dep = &proto_icmp_deps[t->icmp_dep];
		for (j = 0; j < dep->ntypes; j++) {
			if (dep->types[j] == c->icmp_type)
				return t;
		}
	}
	return first;
}

/**
 * delin_payload_resolve - name a raw payload load from the context
 */
void delin_payload_resolve(struct delin_rule_ctx *c, struct expr *p)
{
	enum proto_bases b = p->payload.base;
	const struct proto_desc *d;
	const struct proto_hdr_template *t;
	unsigned int off = p->payload.offset, stack;
	bool exact;

	if (b <= PROTO_BASE_INVALID || b > PROTO_BASE_TRANSPORT_HDR)
		return;
	d = c->pctx.protocol[b].desc;
	stack = c->pctx.protocol[b].offset;
	if (!d || delin_desc_is_pseudo(d)) {
		/* inet/netdev link layer: ethernet (the kernel checks
		 * the device type the dependency names); an unknown
		 * transport header still has ports ("th dport") */
		if (b == PROTO_BASE_LL_HDR)
			d = &proto_eth;
		else if (b == PROTO_BASE_TRANSPORT_HDR &&
			 field_at(&proto_th, off, p->len, &exact) && exact)
			d = &proto_th;
		else
			return;
		stack = 0;
	}
	if (off < stack)
		return;
	off -= stack;
	t = field_at(d, off, p->len, &exact);
	if (t && exact)
		t = icmp_field(c, d, t);
	p->payload.desc = d;
	p->payload.is_raw = false;
	if (!t)
		return;		/* several fields or part of one */
	p->payload.tmpl = t;
	delin_set_dtype(p, t->dtype ? t->dtype : &integer_type);
	p->byteorder = t->byteorder;
	if (delin_desc_is_pseudo(d))
		return;
	if (d->protocol_key && t == &d->templates[d->protocol_key])
		p->flags |= EXPR_F_PROTOCOL;
}

/* Bits of headers stacked below @p's (vlan on ethernet). */
unsigned int delin_payload_stack(struct delin_rule_ctx *c,
				 const struct expr *p)
{
	enum proto_bases b = p->payload.base;

	if (b >= __PROTO_BASE_MAX || c->pctx.protocol[b].desc != p->payload.desc)
		return 0;
	return c->pctx.protocol[b].offset <= p->payload.offset ?
	       c->pctx.protocol[b].offset : 0;
}

/*
 * A mask selecting exactly one sub-byte field of a payload load names
 * that field: "ip dscp" is the top six bits of byte 1.
 */
static void payload_mask_field(struct expr *p, const struct value *mask,
			       unsigned int stack)
{
	const struct proto_desc *d = p->payload.desc;
	const struct proto_hdr_template *t;
	struct value m;
	unsigned int k, lo, start;

	if (!d || p->payload.is_raw || (p->payload.tmpl &&
					 p->payload.tmpl->len == p->len))
		return;
	for (k = 1; k < PROTO_HDRS_MAX; k++) {
		t = &d->templates[k];
		if (!t->token || t->meta_key || !t->len)
			continue;
		/* template offsets are relative to the (stacked) header */
		start = p->payload.offset - stack;
		if (t->offset < start || t->offset + t->len > start + p->len)
			continue;
		lo = start + p->len - (t->offset + t->len);
		value_prefix_mask(&m, mask->len, t->len);
		value_shr(&m, mask->len - t->len - lo);
		if (value_cmp(&m, mask))
			continue;
		p->payload.tmpl = t;
		return;
	}
}

/* The same for extension header fields ("frag frag-off"). */
static void exthdr_mask_field(struct expr *x, const struct value *mask)
{
	const struct exthdr_desc *d = x->exthdr.desc;
	const struct proto_hdr_template *t;
	struct value m;
	unsigned int k, lo, start = x->exthdr.offset;

	if (!d || (x->exthdr.tmpl && x->exthdr.tmpl->len == x->len))
		return;
	for (k = 1; k < 12; k++) {
		t = &d->templates[k];
		if (!t->token || !t->len || t->offset < start ||
		    t->offset + t->len > start + x->len)
			continue;
		lo = start + x->len - (t->offset + t->len);
		value_prefix_mask(&m, mask->len, t->len);
		value_shr(&m, mask->len - t->len - lo);
		if (value_cmp(&m, mask))
			continue;
		x->exthdr.tmpl = t;
		return;
	}
}

/*
 * A write to part of the loaded bytes is "(load & keep) ^ value": name
 * the field the cleared bits are (the printer lists "ip ttl set 23"),
 * in the (x & keep) ^ v shape whatever bitwise form it was read as.
 */
static void payload_write_field(struct stmt *s, unsigned int stack)
{
	struct expr *v = s->payload.val, *x, *keep, *c;
	struct value nk;

	if (!v || v->kind != EXPR_BINOP)
		return;
	if (v->op == OP_OR && v->pair.right->kind == EXPR_VALUE) {
		/* x | c == (x & ~c) ^ c */
		c = v->pair.right;
		keep = expr_clone(c);
		if (!keep)
			return;
		value_not(&keep->value, &keep->value);
		x = binop_expr_alloc(&delin_loc, OP_AND, v->pair.left, keep);
		v->pair.left = x;
		v->op = OP_XOR;
		delin_set_dtype(x, v->dtype);
		x->len = v->len;
		x->byteorder = v->byteorder;
	} else if (v->op == OP_AND && v->pair.right->kind == EXPR_VALUE) {
		c = constant_expr_alloc(&delin_loc, v->dtype, v->byteorder,
					v->len, NULL);
		x = binop_expr_alloc(&delin_loc, OP_XOR, v, c);
		if (!x)
			return;
		delin_set_dtype(x, v->dtype);
		x->len = v->len;
		x->byteorder = v->byteorder;
		s->payload.val = v = x;
	}
	if (v->op != OP_XOR || v->pair.left->kind != EXPR_BINOP ||
	    v->pair.left->op != OP_AND ||
	    v->pair.left->pair.right->kind != EXPR_VALUE)
		return;
	value_not(&nk, &v->pair.left->pair.right->value);
	s->payload.lhs->payload.tmpl = NULL;
	payload_mask_field(s->payload.lhs, &nk, stack);
}

/* ------------------------------------------------------------- exthdr */

static const struct exthdr_desc *const *exthdr_table(uint32_t op)
{
	switch (op) {
	case NFT_EXTHDR_OP_TCPOPT:
		return exthdr_tcpopt_descs;
	case NFT_EXTHDR_OP_IPV4:
		return exthdr_ipopt_descs;
	case NFT_EXTHDR_OP_IPV6:
		return exthdr_ipv6_descs;
	case NFT_EXTHDR_OP_SCTP:
		return exthdr_sctp_descs;
	default:
		return NULL;
	}
}

/**
 * delin_exthdr_alloc - extension header/option field from its raw form
 * @offset, @len: in bytes, as in the VM expression
 */
struct expr *delin_exthdr_alloc(uint32_t op, uint8_t type,
				unsigned int offset, unsigned int len,
				uint32_t flags)
{
	const struct exthdr_desc *const *tbl = exthdr_table(op);
	const struct exthdr_desc *d = NULL;
	unsigned int k, field = 0;
	struct expr *e;

	for (; tbl && *tbl; tbl++) {
		if ((*tbl)->type == type) {
			d = *tbl;
			break;
		}
	}
	if (d && !(flags & NFT_EXTHDR_F_PRESENT)) {
		for (k = 1; k < 12; k++) {
			const struct proto_hdr_template *t = &d->templates[k];

			if (t->token && t->offset == offset * 8 &&
			    t->len == len * 8) {
				field = k;
				break;
			}
		}
	} else if (d) {
		field = 1;
	}
	if (d && (field || (flags & NFT_EXTHDR_F_PRESENT))) {
		e = exthdr_expr_alloc(&delin_loc, d, field, op);
		if (!e)
			return NULL;
		if (flags & NFT_EXTHDR_F_PRESENT) {
			delin_set_dtype(e, &boolean_type);
			e->byteorder = BYTEORDER_HOST;
			e->len = len * 8;
			e->exthdr.offset = offset * 8;
		}
	} else {
		e = exthdr_expr_alloc(&delin_loc, NULL, 0, op);
		if (!e)
			return NULL;
		e->exthdr.raw_type = type;
		e->exthdr.offset = offset * 8;
		e->len = len * 8;
		if (d)
			e->exthdr.desc = d;
	}
	e->exthdr.flags = flags;
	return e;
}

/* -------------------------------------------------------------- loads */

typedef void (*delin_fn)(struct delin_rule_ctx *c,
			 const struct dx *e);

#define U32(e, a)	dx_u32(e, a)
#define HAS(e, a)	dx_has(e, a)

static void delin_payload(struct delin_rule_ctx *c,
			  const struct dx *e)
{
	struct expr *p;

	p = delin_payload_alloc(U32(e, NFTNL_EXPR_PAYLOAD_BASE) + 1,
				U32(e, NFTNL_EXPR_PAYLOAD_OFFSET) * 8,
				U32(e, NFTNL_EXPR_PAYLOAD_LEN) * 8);
	if (!p)
		return;
	delin_payload_resolve(c, p);
	if (HAS(e, NFTNL_EXPR_PAYLOAD_DREG)) {
		delin_reg_set(c, U32(e, NFTNL_EXPR_PAYLOAD_DREG), p);
		return;
	}
	/* a write: "FIELD set VALUE" */
	{
		struct stmt *s = stmt_alloc(&delin_loc, STMT_PAYLOAD);
		struct expr *v = delin_reg_get(c,
				U32(e, NFTNL_EXPR_PAYLOAD_SREG),
				U32(e, NFTNL_EXPR_PAYLOAD_LEN));

		if (!s) {
			expr_free(p);
			expr_free(v);
			return;
		}
		s->payload.lhs = p;
		s->payload.val = delin_retype(v, p);
		payload_write_field(s, delin_payload_stack(c, p));
		if (!s->payload.val)
			s->payload.val = symbol_expr_alloc(&delin_loc,
							   SYMBOL_VALUE, "?");
		delin_add_stmt(c, s);
	}
}

static void delin_exthdr(struct delin_rule_ctx *c,
			 const struct dx *e)
{
	struct expr *x;
	struct stmt *s;

	x = delin_exthdr_alloc(U32(e, NFTNL_EXPR_EXTHDR_OP),
			       dx_u8(e, NFTNL_EXPR_EXTHDR_TYPE),
			       U32(e, NFTNL_EXPR_EXTHDR_OFFSET),
			       U32(e, NFTNL_EXPR_EXTHDR_LEN),
			       U32(e, NFTNL_EXPR_EXTHDR_FLAGS));
	if (!x)
		return;
	if (HAS(e, NFTNL_EXPR_EXTHDR_DREG)) {
		delin_reg_set(c, U32(e, NFTNL_EXPR_EXTHDR_DREG), x);
		return;
	}
	if (HAS(e, NFTNL_EXPR_EXTHDR_SREG)) {
		s = stmt_alloc(&delin_loc, STMT_EXTHDR);
		if (!s) {
			expr_free(x);
			return;
		}
		s->payload.lhs = x;
		s->payload.val = delin_retype(
			delin_reg_get(c, U32(e, NFTNL_EXPR_EXTHDR_SREG), 0), x);
		delin_add_stmt(c, s);
		return;
	}
	/* neither: option strip ("reset tcp option sack") */
	s = stmt_alloc(&delin_loc, STMT_OPTSTRIP);
	if (!s) {
		expr_free(x);
		return;
	}
	s->optstrip.expr = x;
	delin_add_stmt(c, s);
}

/* "ct saddr" and friends take their type from the network header. */
static void ct_addr_type(struct delin_rule_ctx *c, struct expr *x)
{
	const struct proto_desc *d = c->pctx.protocol[PROTO_BASE_NETWORK_HDR]
				     .desc;

	if (x->ct.key != NFT_CT_SRC && x->ct.key != NFT_CT_DST)
		return;
	if (d == &proto_ip || c->dctx->family == NFPROTO_IPV4) {
		delin_set_dtype(x, &ipaddr_type);
		x->len = 32;
		x->ct.nfproto = NFPROTO_IPV4;
	} else if (d == &proto_ip6 || c->dctx->family == NFPROTO_IPV6) {
		delin_set_dtype(x, &ip6addr_type);
		x->len = 128;
		x->ct.nfproto = NFPROTO_IPV6;
	}
	x->byteorder = BYTEORDER_BIG;
}

static void delin_meta(struct delin_rule_ctx *c, const struct dx *e)
{
	uint32_t key = U32(e, NFTNL_EXPR_META_KEY);
	struct expr *x;
	struct stmt *s;

	if (HAS(e, NFTNL_EXPR_META_DREG)) {
		x = meta_expr_alloc(&delin_loc, key);
		if (x)
			delin_reg_set(c, U32(e, NFTNL_EXPR_META_DREG), x);
		return;
	}
	s = stmt_alloc(&delin_loc, STMT_META);
	if (!s)
		return;
	s->meta.key = key;
	x = meta_expr_alloc(&delin_loc, key);
	s->meta.expr = delin_retype(
		delin_reg_get(c, U32(e, NFTNL_EXPR_META_SREG), 0), x);
	expr_free(x);
	delin_add_stmt(c, s);
}

static void delin_ct(struct delin_rule_ctx *c, const struct dx *e)
{
	uint32_t key = U32(e, NFTNL_EXPR_CT_KEY);
	int dir = HAS(e, NFTNL_EXPR_CT_DIR) ?
		  dx_u8(e, NFTNL_EXPR_CT_DIR) : -1;
	struct expr *x = ct_expr_alloc(&delin_loc, key, dir);
	struct stmt *s;

	if (!x)
		return;
	ct_addr_type(c, x);
	if (HAS(e, NFTNL_EXPR_CT_DREG)) {
		delin_reg_set(c, U32(e, NFTNL_EXPR_CT_DREG), x);
		return;
	}
	s = stmt_alloc(&delin_loc, STMT_CT);
	if (!s) {
		expr_free(x);
		return;
	}
	s->ct.key = key;
	s->ct.direction = dir;
	s->ct.expr = delin_retype(
		delin_reg_get(c, U32(e, NFTNL_EXPR_CT_SREG), 0), x);
	expr_free(x);
	delin_add_stmt(c, s);
}

static void delin_rt(struct delin_rule_ctx *c, const struct dx *e)
{
	delin_reg_set(c, U32(e, NFTNL_EXPR_RT_DREG),
		      rt_expr_alloc(&delin_loc, U32(e, NFTNL_EXPR_RT_KEY)));
}

static void delin_socket(struct delin_rule_ctx *c,
			 const struct dx *e)
{
	delin_reg_set(c, U32(e, NFTNL_EXPR_SOCKET_DREG),
		      socket_expr_alloc(&delin_loc,
					U32(e, NFTNL_EXPR_SOCKET_KEY),
					U32(e, NFTNL_EXPR_SOCKET_LEVEL)));
}

static void delin_osf(struct delin_rule_ctx *c, const struct dx *e)
{
	delin_reg_set(c, U32(e, NFTNL_EXPR_OSF_DREG),
		      osf_expr_alloc(&delin_loc,
				     dx_u8(e, NFTNL_EXPR_OSF_TTL),
				     U32(e, NFTNL_EXPR_OSF_FLAGS)));
}

static void delin_fib(struct delin_rule_ctx *c, const struct dx *e)
{
	delin_reg_set(c, U32(e, NFTNL_EXPR_FIB_DREG),
		      fib_expr_alloc(&delin_loc, U32(e, NFTNL_EXPR_FIB_FLAGS),
				     U32(e, NFTNL_EXPR_FIB_RESULT)));
}

static void delin_numgen(struct delin_rule_ctx *c,
			 const struct dx *e)
{
	delin_reg_set(c, U32(e, NFTNL_EXPR_NG_DREG),
		      numgen_expr_alloc(&delin_loc, U32(e, NFTNL_EXPR_NG_TYPE),
					U32(e, NFTNL_EXPR_NG_MODULUS),
					U32(e, NFTNL_EXPR_NG_OFFSET)));
}

static void delin_hash(struct delin_rule_ctx *c, const struct dx *e)
{
	struct expr *h;

	h = hash_expr_alloc(&delin_loc, U32(e, NFTNL_EXPR_HASH_MODULUS),
			    HAS(e, NFTNL_EXPR_HASH_SEED),
			    U32(e, NFTNL_EXPR_HASH_SEED),
			    U32(e, NFTNL_EXPR_HASH_OFFSET),
			    U32(e, NFTNL_EXPR_HASH_TYPE));
	if (!h)
		return;
	if (HAS(e, NFTNL_EXPR_HASH_SREG))
		h->hash.expr = delin_reg_get(c, U32(e, NFTNL_EXPR_HASH_SREG),
					     U32(e, NFTNL_EXPR_HASH_LEN));
	delin_reg_set(c, U32(e, NFTNL_EXPR_HASH_DREG), h);
}

static void delin_xfrm(struct delin_rule_ctx *c, const struct dx *e)
{
	delin_reg_set(c, U32(e, NFTNL_EXPR_XFRM_DREG),
		      xfrm_expr_alloc(&delin_loc, U32(e, NFTNL_EXPR_XFRM_KEY),
				      dx_u8(e, NFTNL_EXPR_XFRM_DIR),
				      U32(e, NFTNL_EXPR_XFRM_SPNUM)));
}

static void delin_immediate(struct delin_rule_ctx *c,
			    const struct dx *e)
{
	uint32_t dreg = U32(e, NFTNL_EXPR_IMM_DREG), len;
	const void *data;
	struct expr *v;
	struct stmt *s;

	if (dreg == NFT_REG_VERDICT || HAS(e, NFTNL_EXPR_IMM_VERDICT)) {
		v = delin_verdict(U32(e, NFTNL_EXPR_IMM_VERDICT),
				  HAS(e, NFTNL_EXPR_IMM_CHAIN) ?
				  dx_str(e, NFTNL_EXPR_IMM_CHAIN) :
				  NULL);
		s = v ? verdict_stmt_alloc(&delin_loc, v) : NULL;
		delin_add_stmt(c, s);
		return;
	}
	data = dx_data(e, NFTNL_EXPR_IMM_DATA, &len);
	if (!data)
		return;
	/* raw bytes until a consumer types it (see delin_retype) */
	v = delin_value_typed(&integer_type, BYTEORDER_BIG, len * 8, data,
			      len);
	if (v)
		v->byteorder = BYTEORDER_INVALID;
	delin_reg_set(c, dreg, v);
}

/* ------------------------------------------------- bitwise, byteorder */

static struct expr *value_expr_like(const struct expr *like,
				    const struct value *v)
{
	struct expr *r = constant_expr_alloc(&delin_loc, like_dtype(like),
					     like->byteorder, like->len, v);

	return r;
}

static void delin_bitwise(struct delin_rule_ctx *c,
			  const struct dx *e)
{
	uint32_t op = U32(e, NFTNL_EXPR_BITWISE_OP), len, mlen, xlen;
	struct expr *l, *r;
	const void *mdata, *xdata;
	struct value mask, xor, ones;
	uint8_t buf[NFTC_VALUE_MAX] = { 0 };

	len = U32(e, NFTNL_EXPR_BITWISE_LEN);
	l = delin_reg_get(c, U32(e, NFTNL_EXPR_BITWISE_SREG), len);
	if (!l)
		return;
	if (op == NFT_BITWISE_LSHIFT || op == NFT_BITWISE_RSHIFT) {
		const uint32_t *n = dx_data(e, NFTNL_EXPR_BITWISE_DATA,
						   &mlen);

		r = constant_expr_u64(&delin_loc, &integer_type,
				      BYTEORDER_HOST, 32, n ? *n : 0);
		l = binop_expr_alloc(&delin_loc, op == NFT_BITWISE_LSHIFT ?
				     OP_LSHIFT : OP_RSHIFT, l, r);
		delin_reg_set(c, U32(e, NFTNL_EXPR_BITWISE_DREG), l);
		return;
	}
	mdata = dx_data(e, NFTNL_EXPR_BITWISE_MASK, &mlen);
	xdata = dx_data(e, NFTNL_EXPR_BITWISE_XOR, &xlen);
	if (l->len < len * 8 && l->kind != EXPR_CONCAT)
		l->len = len * 8;
	memcpy(buf, mdata, mlen < sizeof(buf) ? mlen : sizeof(buf));
	value_from_reg(&mask, len * 8, l->byteorder ? l->byteorder :
		       BYTEORDER_BIG, buf);
	memset(buf, 0, sizeof(buf));
	if (xdata)
		memcpy(buf, xdata, xlen < sizeof(buf) ? xlen : sizeof(buf));
	value_from_reg(&xor, len * 8, l->byteorder ? l->byteorder :
		       BYTEORDER_BIG, buf);
	value_init(&ones, len * 8);
	value_not(&ones, &ones);
	if (l->kind == EXPR_PAYLOAD)
		payload_mask_field(l, &mask, delin_payload_stack(c, l));
	else if (l->kind == EXPR_EXTHDR)
		exthdr_mask_field(l, &mask);
	/* (x & m) ^ v: an OR when v only sets bits m clears */
	if (value_cmp(&mask, &ones)) {
		struct value nm, t;

		value_not(&nm, &mask);
		value_and(&t, &xor, &nm);
		if (!value_is_zero(&xor) && !value_cmp(&t, &xor) &&
		    !value_cmp(&nm, &xor)) {
			l = binop_expr_alloc(&delin_loc, OP_OR, l,
					     value_expr_like(l, &xor));
			goto out;
		}
		l = binop_expr_alloc(&delin_loc, OP_AND, l,
				     value_expr_like(l, &mask));
	}
	if (l && !value_is_zero(&xor))
		l = binop_expr_alloc(&delin_loc, OP_XOR, l,
				     value_expr_like(l, &xor));
out:
	if (l && l->kind == EXPR_BINOP) {
		delin_set_dtype(l, l->pair.left->dtype);
		l->byteorder = l->pair.left->byteorder;
		l->len = l->pair.left->len;
	}
	delin_reg_set(c, U32(e, NFTNL_EXPR_BITWISE_DREG), l);
}

static void delin_byteorder(struct delin_rule_ctx *c,
			    const struct dx *e)
{
	struct expr *l = delin_reg_get(c, U32(e, NFTNL_EXPR_BYTEORDER_SREG),
				       0);
	uint32_t op = U32(e, NFTNL_EXPR_BYTEORDER_OP);
	struct expr *u;

	if (!l)
		return;
	u = unary_expr_alloc(&delin_loc, op == NFT_BYTEORDER_HTON ?
			     OP_HTON : OP_NTOH, l);
	if (u) {
		delin_set_dtype(u, l->dtype);
		u->len = l->len;
		u->byteorder = op == NFT_BYTEORDER_HTON ? BYTEORDER_BIG :
							  BYTEORDER_HOST;
	}
	delin_reg_set(c, U32(e, NFTNL_EXPR_BYTEORDER_DREG), u);
}

/* -------------------------------------------------------- relationals */

/* What a protocol match says about the next header. */
static void delin_range(struct delin_rule_ctx *c, const struct dx *e)
{
	uint32_t flen, tlen;
	const void *from = dx_data(e, NFTNL_EXPR_RANGE_FROM_DATA,
					  &flen);
	const void *to = dx_data(e, NFTNL_EXPR_RANGE_TO_DATA, &tlen);
	struct expr *l = delin_reg_get(c, U32(e, NFTNL_EXPR_RANGE_SREG),
				       flen);

	if (!l || !from || !to) {
		expr_free(l);
		return;
	}
	delin_add_relational(c, U32(e, NFTNL_EXPR_RANGE_OP) == NFT_RANGE_NEQ ?
		       OP_NEQ : OP_EQ, l,
		       range_expr_alloc(&delin_loc, delin_value(l, from, flen),
					delin_value(l, to, tlen)));
}

static struct expr *set_ref(struct delin_rule_ctx *c, struct set *s,
			    const char *name)
{
	if (!s) {
		struct set *ph = set_alloc(&delin_loc);

		if (!ph)
			return NULL;
		ph->handle.set.name = strdup(name ? name : "?");
		return set_ref_expr_alloc(&delin_loc, ph);
	}
	return set_ref_expr_alloc(&delin_loc, set_get(s));
}

static void delin_lookup(struct delin_rule_ctx *c,
			 const struct dx *e)
{
	const char *name = dx_str(e, NFTNL_EXPR_LOOKUP_SET);
	struct set *set = delin_find_set(c, e, NFTNL_EXPR_LOOKUP_SET,
					 NFTNL_EXPR_LOOKUP_SET_ID);
	struct list_tmpl_rec *rec = c->dctx ? c->dctx->rec : NULL;
	int k = rec && rec->cur < TMPL_CMPS ? (int)rec->cur++ : -1;
	unsigned int klen = 0;
	struct expr *l, *ref, *m;
	uint32_t dreg;

	if (set && set->key)
		klen = delin_key_bytes(set->key);
	l = delin_reg_get(c, U32(e, NFTNL_EXPR_LOOKUP_SREG), klen);
	ref = set_ref(c, set, name);
	if (!l || !ref) {
		expr_free(l);
		expr_free(ref);
		if (k >= 0)
			delin_rec_keyed(c, k);
		return;
	}
	/* recording a listing template: the set as the kernel has it */
	if (k >= 0 && set && set->key &&
	    !(set->flags & SET_F_DELIN_BOUND)) {
		rec->set[k] = set;
		rec->set_flags[k] = set->flags;
		rec->set_dtype[k] = set->key->dtype;
		rec->set_len[k] = set->key->len;
		rec->set_order[k] = set->key->byteorder;
		delin_rec_mark(c, k, ref);
	} else if (k >= 0) {
		delin_rec_keyed(c, k);
	}
	delin_set_bind(set, l);
	if (set && (set->flags & SET_F_ANONYMOUS) &&
	    c->dctx->nanon < DELIN_ANON_MAX)
		c->dctx->anon[c->dctx->nanon++] = set;
	if (!HAS(e, NFTNL_EXPR_LOOKUP_DREG)) {
		delin_add_relational(c, (U32(e, NFTNL_EXPR_LOOKUP_FLAGS) &
				   NFT_LOOKUP_F_INV) ? OP_NEQ : OP_EQ, l, ref);
		return;
	}
	m = map_expr_alloc(&delin_loc, l, ref);
	if (!m)
		return;
	if (set && set->data) {
		delin_set_dtype(m, set->data->dtype);
		m->len = set->data->len;
		m->byteorder = set->data->byteorder;
	}
	dreg = U32(e, NFTNL_EXPR_LOOKUP_DREG);
	if (dreg == NFT_REG_VERDICT) {
		delin_add_stmt(c, verdict_stmt_alloc(&delin_loc, m));
		return;
	}
	delin_reg_set(c, dreg, m);
}

/* ------------------------------------------------------------- driver */

static const struct {
	const char	*name;
	delin_fn	fn;
} delin_exprs[] = {
	/* the most frequent first: lookups are by name */
	{ "cmp",	delin_cmp },
	{ "payload",	delin_payload },
	{ "exthdr",	delin_exthdr },
	{ "meta",	delin_meta },
	{ "ct",		delin_ct },
	{ "rt",		delin_rt },
	{ "socket",	delin_socket },
	{ "osf",	delin_osf },
	{ "fib",	delin_fib },
	{ "numgen",	delin_numgen },
	{ "hash",	delin_hash },
	{ "xfrm",	delin_xfrm },
	{ "immediate",	delin_immediate },
	{ "bitwise",	delin_bitwise },
	{ "byteorder",	delin_byteorder },
	{ "range",	delin_range },
	{ "lookup",	delin_lookup },
};

/* The expressions read in place, by enum dx_op (statements: NULL). */
static const delin_fn delin_dx_fns[__DX_MAX] = {
	[DX_CMP]	= delin_cmp,
	[DX_PAYLOAD]	= delin_payload,
	[DX_META]	= delin_meta,
	[DX_IMMEDIATE]	= delin_immediate,
	[DX_CT]		= delin_ct,
	[DX_BITWISE]	= delin_bitwise,
	[DX_LOOKUP]	= delin_lookup,
	[DX_RANGE]	= delin_range,
	[DX_BYTEORDER]	= delin_byteorder,
};

static void delin_one(const struct dx *e, void *data)
{
	struct delin_rule_ctx *c = data;
	const char *name = dx_str(e, NFTNL_EXPR_NAME);
	size_t i;

	if (!name)
		return;
	if (!e->nle && delin_dx_fns[e->op]) {
		delin_dx_fns[e->op](c, e);
		return;
	}
	for (i = 0; e->nle && i < sizeof(delin_exprs) / sizeof(delin_exprs[0]);
	     i++) {
		if (!strcmp(delin_exprs[i].name, name)) {
			delin_exprs[i].fn(c, e);
			return;
		}
	}
	c->gte = NULL;
	if (delin_stmt(c, name, e) < 0) {
		struct stmt *s = expr_stmt_alloc(&delin_loc,
			symbol_expr_alloc(&delin_loc, SYMBOL_VALUE, name));

		delin_add_stmt(c, s);
	}
}

static int delin_one_nle(struct nftnl_expr *e, void *data)
{
	struct dx x = { .nle = e };

	delin_one(&x, data);
	return 0;
}

static int rule_udata_cb(const struct nftnl_udata *attr, void *data)
{
	char **comment = data;
	const char *v;

	if (nftnl_udata_type(attr) != NFTNL_UDATA_RULE_COMMENT)
		return 0;
	v = nftnl_udata_get(attr);
	if (nftnl_udata_len(attr) && v[nftnl_udata_len(attr) - 1] == '\0') {
		free(*comment);
		*comment = strdup(v);
	}
	return 0;
}

static void rule_comment(struct rule *rule, const void *ud, uint32_t len)
{
	if (ud)
		nftnl_udata_parse(ud, len, rule_udata_cb, &rule->comment);
}

/* The rule @c is about to read, its handle from the message. */
static struct rule *rule_start(struct delin_rule_ctx *c, uint32_t family,
			       const char *table, const char *chain,
			       bool has_handle, uint64_t handle)
{
	struct handle h = { 0 };

	h.family = family;
	c->rule = rule_alloc(&delin_loc, &h);
	if (!c->rule)
		return NULL;
	if (table)
		c->rule->handle.table.name = strdup(table);
	if (chain)
		c->rule->handle.chain.name = strdup(chain);
	if (has_handle) {
		c->rule->handle.handle.id = handle;
		c->rule->handle.handle.present = true;
	}
	proto_ctx_init(&c->pctx, c->dctx->family ? c->dctx->family : family);
	return c->rule;
}

static void regs_free(struct delin_rule_ctx *c)
{
	unsigned int i;

	for (i = 0; i < DELIN_SLOTS; i++) {
		expr_free(c->regs[i]);
		c->regs[i] = NULL;
	}
}

/**
 * nftc_delinearize_rule - decompile one rule
 * @ctx: table context (family, sets for lookups)
 * @nlr: the rule with its expressions
 *
 * Returns a new rule (handle: family, table, chain, handle number) or
 * NULL on allocation failure.
 */
struct rule *nftc_delinearize_rule(struct delin_ctx *ctx,
				   const struct nftnl_rule *nlr)
{
	struct delin_rule_ctx c = { .dctx = ctx, .icmp_type = -1 };
	const void *ud = NULL;
	uint32_t len = 0;

	if (!rule_start(&c, nftnl_rule_get_u32(nlr, NFTNL_RULE_FAMILY),
			nftnl_rule_is_set(nlr, NFTNL_RULE_TABLE) ?
			nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE) : NULL,
			nftnl_rule_is_set(nlr, NFTNL_RULE_CHAIN) ?
			nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN) : NULL,
			nftnl_rule_is_set(nlr, NFTNL_RULE_HANDLE),
			nftnl_rule_get_u64(nlr, NFTNL_RULE_HANDLE)))
		return NULL;
	nftnl_expr_foreach((struct nftnl_rule *)nlr, delin_one_nle, &c);
	regs_free(&c);
	if (nftnl_rule_is_set(nlr, NFTNL_RULE_USERDATA))
		ud = nftnl_rule_get_data(nlr, NFTNL_RULE_USERDATA, &len);
	rule_comment(c.rule, ud, len);
	return c.rule;
}

/* The rule read by libnftnl, for expressions not read in place. */
static struct rule *delinearize_nle(struct delin_ctx *ctx,
				    const struct nlmsghdr *nlh)
{
	struct nftnl_rule *nlr = nftnl_rule_alloc();
	struct rule *r = NULL;

	if (!nlr)
		return NULL;
	if (nftnl_rule_nlmsg_parse(nlh, nlr) == 0)
		r = nftc_delinearize_rule(ctx, nlr);
	nftnl_rule_free(nlr);
	return r;
}

struct rule *nftc_delinearize_rmsg(struct delin_ctx *ctx,
				   const struct nlmsghdr *nlh,
				   const struct delin_rmsg *m)
{
	struct delin_rule_ctx c = { .dctx = ctx, .icmp_type = -1 };

	if (!rule_start(&c, m->family, m->table, m->chain, m->has_handle,
			m->handle))
		return NULL;
	if (delin_rmsg_foreach(m, delin_one, &c) < 0) {
		regs_free(&c);
		rule_free(c.rule);
		if (ctx->rec)
			ctx->rec->bad = true;
		return delinearize_nle(ctx, nlh);
	}
	regs_free(&c);
	rule_comment(c.rule, m->udata, m->udata_len);
	return c.rule;
}
