// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decompilation of compares: "cmp" back to relational matches (values
 * typed like what they are compared with, prefixes, wildcards, ranges
 * from a gte/lte pair, loads of adjacent fields split), and the protocol
 * context each protocol match narrows. While a listing template is
 * recorded (list_tmpl.c) the values read from compares are marked.
 */
#include <config.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "delin_int.h"
#include "list_tmpl.h"
#include "rule.h"

#define U32(e, a)	dx_u32(e, a)

static void pctx_update(struct delin_rule_ctx *c, const struct expr *rel)
{
	const struct expr *l = rel->pair.left, *r = rel->pair.right;
	const struct proto_desc *up = NULL, *d;
	struct proto_ctx *p = &c->pctx;
	uint64_t v;

	if (rel->op != OP_EQ || r->kind != EXPR_VALUE || r->value.len > 64)
		return;
	v = value_get_u64(&r->value);
	if (l->kind == EXPR_META) {
		switch (l->meta.key) {
		case NFT_META_NFPROTO:
			up = proto_find_upper(&proto_inet, v);
			break;
		case NFT_META_L4PROTO:
			up = proto_find_upper(&proto_inet_service, v);
			break;
		case NFT_META_PROTOCOL:
			up = proto_find_upper(&proto_netdev, v);
			break;
		case NFT_META_IIFTYPE:
			up = proto_dev_desc(v);
			break;
		default:
			return;
		}
		if (up)
			proto_ctx_update(p, up->base, &delin_loc, up);
		return;
	}
	if (l->kind != EXPR_PAYLOAD || !l->payload.desc || l->payload.is_raw)
		return;
	d = l->payload.desc;
	if (!d->protocol_key)
		return;
	if (!l->payload.tmpl || l->payload.tmpl->len != l->len) {
		/* a load merged with the protocol field ("ether saddr X
		 * ether type ip"): take the field's bits out of the value */
		const struct proto_hdr_template *t =
			&d->templates[d->protocol_key];
		unsigned int start = l->payload.offset, end = start + l->len;
		struct value x;

		if (t->meta_key || t->offset < start ||
		    t->offset + t->len > end || r->value.len != l->len)
			return;
		x = r->value;
		value_shr(&x, end - (t->offset + t->len));
		value_resize(&x, t->len);
		v = value_get_u64(&x);
	} else if (l->payload.tmpl != &d->templates[d->protocol_key]) {
		return;
	}
	if (d == &proto_icmp || d == &proto_icmp6) {
		c->icmp_desc = d;
		c->icmp_type = v;
		return;
	}
	up = proto_find_upper(d, v);
	if (!up)
		return;
	if (up->base == d->base) {
		/* stacked on the same base (vlan on ethernet) */
		p->protocol[d->base].offset += d->length;
		p->protocol[d->base].desc = up;
		return;
	}
	proto_ctx_update(p, up->base, &delin_loc, up);
}

void delin_add_relational(struct delin_rule_ctx *c, enum ops op,
			  struct expr *l, struct expr *r)
{
	struct expr *rel;
	struct stmt *s;

	if (!l || !r) {
		expr_free(l);
		expr_free(r);
		return;
	}
	rel = relational_expr_alloc(&delin_loc, op, l, r);
	if (!rel)
		return;
	s = expr_stmt_alloc(&delin_loc, rel);
	if (!s)
		return;
	delin_add_stmt(c, s);
	pctx_update(c, rel);
}

static const enum ops cmp_ops[] = {
	[NFT_CMP_EQ]	= OP_EQ,
	[NFT_CMP_NEQ]	= OP_NEQ,
	[NFT_CMP_LT]	= OP_LT,
	[NFT_CMP_LTE]	= OP_LTE,
	[NFT_CMP_GT]	= OP_GT,
	[NFT_CMP_GTE]	= OP_GTE,
};

/* "SEL & MASK == V" with a prefix mask on an address: "SEL V/N". */
static bool cmp_prefix(struct delin_rule_ctx *c, enum ops op,
		       struct expr *l, const void *data, unsigned int len)
{
	struct expr *sel = l->pair.left, *v;
	int plen;

	if (l->kind != EXPR_BINOP || l->op != OP_AND ||
	    l->pair.right->kind != EXPR_VALUE || !sel->dtype ||
	    datatype_is_a(sel->dtype, &bitmask_type) ||
	    (op != OP_EQ && op != OP_NEQ))
		return false;
	/* a sub-byte header field is a mask too: the printer names it */
	if ((sel->kind == EXPR_PAYLOAD &&
	     (!sel->payload.tmpl || sel->payload.tmpl->len != sel->len)) ||
	    (sel->kind == EXPR_EXTHDR &&
	     (!sel->exthdr.tmpl || sel->exthdr.tmpl->len != sel->len)))
		return false;
	plen = value_mask_to_prefix(&l->pair.right->value);
	if (plen < 0)
		return false;
	v = delin_value(sel, data, len);
	if (!v)
		return false;
	l->pair.left = NULL;
	expr_free(l);
	delin_add_relational(c, op, sel, prefix_expr_alloc(&delin_loc, v, plen));
	return true;
}

/* "iifname eth*": a string compared on its first bytes. */
static bool cmp_wildcard(struct delin_rule_ctx *c, enum ops op,
			 struct expr *l, const void *data, unsigned int len)
{
	struct expr *v;

	if (l->kind == EXPR_CONCAT || !l->dtype ||
	    !datatype_is_a(l->dtype, &string_type) || len * 8 >= l->len)
		return false;
	v = delin_value_typed(l->dtype, BYTEORDER_BIG, l->len, data, len);
	if (!v)
		return false;
	/* with its NUL (iptables-nft's "-i eth0") it is the whole name */
	if (len && ((const uint8_t *)data)[len - 1] == '\0') {
		delin_add_relational(c, op, l, v);
		return true;
	}
	delin_add_relational(c, op, l, prefix_expr_alloc(&delin_loc, v, len * 8));
	return true;
}

/*
 * "ct original ip saddr 10.0.0.0/8": a whole address loaded (ct keeps
 * no short loads) and compared on its first bytes, as nft writes a
 * byte-aligned prefix: the prefix, as stock lists it.
 */
static bool cmp_short_addr(struct delin_rule_ctx *c, enum ops op,
			   struct expr *l, const void *data, unsigned int len)
{
	struct expr *v;

	if (l->kind == EXPR_CONCAT || l->kind == EXPR_PAYLOAD || !l->dtype ||
	    !(datatype_is_a(l->dtype, &ipaddr_type) ||
	      datatype_is_a(l->dtype, &ip6addr_type)) ||
	    len * 8 >= l->len || (op != OP_EQ && op != OP_NEQ))
		return false;
	v = delin_value_typed(l->dtype, BYTEORDER_BIG, l->len, data, len);
	if (!v)
		return false;
	delin_add_relational(c, op, l, prefix_expr_alloc(&delin_loc, v, len * 8));
	return true;
}

/*
 * One load compared with several adjacent fields' values ("tcp sport 1
 * tcp dport 2" is one 4-byte compare, and a dependency such as "ether
 * type ip" merges with the match before it): one match per field, so the
 * printer sees each, and drops the generated ones, as stock does.
 */
static bool cmp_split(struct delin_rule_ctx *c, enum ops op,
		      const struct expr *l, const struct expr *r)
{
	const struct proto_hdr_template *parts[PROTO_HDRS_MAX], *t;
	const struct proto_desc *d = l->payload.desc;
	unsigned int n = 0, at, end, i, stack;
	struct expr *fl, *fv;

	if (l->kind != EXPR_PAYLOAD || !d || l->payload.is_raw ||
	    (l->payload.tmpl && l->payload.tmpl->len == l->len) ||
	    r->kind != EXPR_VALUE || op != OP_EQ ||
	    r->value.len != l->len || delin_desc_is_pseudo(d))
		return false;
	stack = delin_payload_stack(c, l);
	at = l->payload.offset - stack;
	end = at + l->len;
	n = proto_fields_tile(d, at, end, parts);
	if (n < 2)
		return false;
	for (i = 0; i < n; i++) {
		t = parts[i];
		fl = expr_clone(l);
		fv = expr_clone(r);
		if (!fl || !fv) {
			expr_free(fl);
			expr_free(fv);
			return true;
		}
		fl->payload.tmpl = t;
		fl->payload.offset = t->offset + stack;
		fl->len = t->len;
		fl->byteorder = t->byteorder;
		delin_set_dtype(fl, t->dtype ? t->dtype : &integer_type);
		if (d->protocol_key && t == &d->templates[d->protocol_key])
			fl->flags |= EXPR_F_PROTOCOL;
		value_shr(&fv->value, end - (t->offset + t->len));
		value_resize(&fv->value, t->len);
		fv->len = t->len;
		fv->byteorder = t->byteorder;
		delin_set_dtype(fv, fl->dtype);
		delin_add_relational(c, op, fl, fv);
	}
	return true;
}

/*
 * A listing template is being recorded (list_tmpl.c): the value @v read
 * from compare @k is marked, for the printer to find.
 */
struct expr *delin_rec_mark(struct delin_rule_ctx *c, int k, struct expr *v)
{
	if (v && k >= 0)
		v->location.first_line = TMPL_MARK + k;
	return v;
}

/* ... or the compare's value steers what is read: no hole for it. */
void delin_rec_keyed(struct delin_rule_ctx *c, int k)
{
	if (k >= 0)
		c->dctx->rec->keyed[k] = true;
}

/*
 * A protocol selector: its value names later loads (pctx_update) and
 * makes the printer drop dependencies (whatever the value).
 */
static bool is_selector(const struct expr *l)
{
	const struct proto_hdr_template *t;
	const struct proto_desc *d;

	if (l->kind == EXPR_META)
		return l->meta.key == NFT_META_NFPROTO ||
		       l->meta.key == NFT_META_L4PROTO ||
		       l->meta.key == NFT_META_PROTOCOL ||
		       l->meta.key == NFT_META_IIFTYPE;
	if (l->kind != EXPR_PAYLOAD)
		return false;
	d = l->payload.desc;
	if (!d || l->payload.is_raw)
		return true;
	if (!d->protocol_key)
		return false;
	t = &d->templates[d->protocol_key];
	if (l->payload.tmpl == t)
		return true;
	/* a load of several fields: with the protocol field in it */
	return !l->payload.tmpl || l->payload.tmpl->len != l->len ?
	       !(t->offset < l->payload.offset ||
		 t->offset + t->len > l->payload.offset + l->len) : false;
}

void delin_cmp(struct delin_rule_ctx *c, const struct dx *e)
{
	uint32_t sreg = U32(e, NFTNL_EXPR_CMP_SREG), nop, len;
	const void *data = dx_data(e, NFTNL_EXPR_CMP_DATA, &len);
	const struct expr *src = delin_reg_peek(c, sreg);
	struct expr *l = delin_reg_get(c, sreg, len), *r;
	struct list_tmpl_rec *rec = c->dctx ? c->dctx->rec : NULL;
	int k = rec && rec->cur < TMPL_CMPS ? (int)rec->cur++ : -1;
	enum ops op;

	nop = U32(e, NFTNL_EXPR_CMP_OP);
	if (!l || !data)
		goto err;
	if (k >= 0 && is_selector(l))
		delin_rec_keyed(c, k);
	op = nop < sizeof(cmp_ops) / sizeof(cmp_ops[0]) ? cmp_ops[nop] : OP_EQ;
	/* "cmp gte A; cmp lte B" on one value is the range A-B */
	if (op == OP_LTE && c->gte && c->gte_src == src &&
	    list_entry(c->rule->stmts.prev, struct stmt, list) == c->gte) {
		struct expr *rel = c->gte->expr;
		struct expr *lo = rel->pair.right;

		rel->pair.right = range_expr_alloc(&delin_loc, lo,
				delin_rec_mark(c, k, delin_value(l, data, len)));
		rel->op = OP_EQ;
		c->gte = NULL;
		expr_free(l);
		return;
	}
	c->gte = NULL;
	if (cmp_prefix(c, op, l, data, len)) {
		struct stmt *s = list_entry(c->rule->stmts.prev, struct stmt,
					    list);

		if (k >= 0 && s->kind == STMT_EXPRESSION &&
		    s->expr->pair.right->kind == EXPR_PREFIX)
			delin_rec_mark(c, k, s->expr->pair.right->prefix.expr);
		else
			delin_rec_keyed(c, k);
		return;
	}
	if (cmp_wildcard(c, op, l, data, len) ||
	    cmp_short_addr(c, op, l, data, len)) {
		delin_rec_keyed(c, k);
		return;
	}
	r = delin_rec_mark(c, k, delin_value(l, data, len));
	if (r && cmp_split(c, op, l, r)) {
		/* the fields' values keep the mark: the printer checks them */
		expr_free(l);
		expr_free(r);
		return;
	}
	delin_add_relational(c, op, l, r);
	if (op == OP_GTE) {
		c->gte = list_entry(c->rule->stmts.prev, struct stmt, list);
		c->gte_src = src;
	}
	return;
err:
	if (k >= 0)
		delin_rec_keyed(c, k);
	expr_free(l);
}
