// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IR printer: reading lowered forms back as the language writes them.
 *
 * Evaluation (and, later, decompiling VM code) leaves forms that stock
 * nft lists in their source shape: a sub-byte header field is a masked
 * load compared with a shifted constant ("ip dscp & 252 == 32" is "ip
 * dscp cs1"), a byte-aligned prefix is a shortened load ("ip saddr
 * 10.0.0.0/8"), a flag test is "(flags & mask) != 0", adjacent matches
 * are merged into one load, and a write to a field that is not a whole
 * number of bytes is a read-modify-write of its bytes. The functions here
 * recognise those shapes and print the source form; they print nothing
 * and return false for anything else. The IR is never modified: views
 * are printed from clones.
 */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "printer.h"

/* Contiguous run of ones in a mask: its lowest bit and its width. */
static bool mask_run(const struct expr *m, unsigned int *shift,
		     unsigned int *width)
{
	unsigned int i, lo = 0, n = 0;
	bool seen = false, ended = false;

	if (!m || m->kind != EXPR_VALUE)
		return false;
	for (i = 0; i < m->value.len; i++) {
		if (value_test_bit(&m->value, i)) {
			if (ended)
				return false;
			if (!seen)
				lo = i;
			seen = true;
			n++;
		} else if (seen) {
			ended = true;
		}
	}
	if (!n)
		return false;
	*shift = lo;
	*width = n;
	return true;
}

static const struct proto_hdr_template *field_tmpl(const struct expr *e)
{
	if (e->kind == EXPR_PAYLOAD && !e->payload.is_raw && e->payload.desc)
		return e->payload.tmpl;
	if (e->kind == EXPR_EXTHDR)
		return e->exthdr.tmpl;
	return NULL;
}

/* A copy of selector @e reading exactly its template's field. */
static struct expr *field_view(const struct expr *e,
			       const struct proto_hdr_template *t)
{
	struct expr *v = expr_clone(e);

	if (!v)
		return NULL;
	if (v->kind == EXPR_PAYLOAD)
		v->payload.tmpl = t;
	v->len = t->len;
	if (t->dtype)
		v->dtype = t->dtype;
	return v;
}

/*
 * Rewrite constants in clone @e in place: (value >> shift) cut to @len
 * bits, typed @dtype. Mapping data and concatenations are left alone.
 */
static void constants_view(struct expr *e, unsigned int shift,
			   unsigned int len, const struct datatype *dtype)
{
	struct expr *i;

	switch (e->kind) {
	case EXPR_VALUE:
		value_shr(&e->value, shift);
		value_resize(&e->value, len);
		e->len = len;
		e->dtype = dtype;
		break;
	case EXPR_RANGE:
		constants_view(e->pair.left, shift, len, dtype);
		constants_view(e->pair.right, shift, len, dtype);
		break;
	case EXPR_PREFIX:
		constants_view(e->prefix.expr, shift, len, dtype);
		break;
	case EXPR_SET:
	case EXPR_LIST:
		list_for_each_entry(i, &e->expressions, list)
			constants_view(i, shift, len, dtype);
		break;
	case EXPR_SET_ELEM:
		constants_view(e->elem.key, shift, len, dtype);
		break;
	case EXPR_MAPPING:
		constants_view(e->pair.left, shift, len, dtype);
		break;
	default:
		break;
	}
}

/* A clone of right-hand side @r (anonymous sets by their elements). */
static struct expr *rhs_clone(const struct expr *r)
{
	const struct set *s;

	if (r->kind == EXPR_SET_REF) {
		s = r->set_ref.set;
		if (!s || !(s->flags & SET_F_ANONYMOUS) || !s->init)
			return NULL;
		return expr_clone(s->init);
	}
	return expr_clone(r);
}

static void print_rel_view(struct output_ctx *octx, const struct expr *rel,
			   struct expr *l, struct expr *r)
{
	struct expr *v;

	if (!l || !r) {
		expr_free(l);
		expr_free(r);
		return;
	}
	v = relational_expr_alloc(&rel->location, rel->op, l, r);
	if (!v)
		return;
	nftc_print_expr(octx, v);
	expr_free(v);
}

/* "FIELD & MASK op C" where MASK selects exactly FIELD's bits. */
static bool undo_field_mask(struct output_ctx *octx, const struct expr *rel)
{
	const struct expr *b = rel->pair.left, *sel;
	const struct proto_hdr_template *t;
	unsigned int shift, width;
	struct expr *r;

	if (b->kind != EXPR_BINOP || b->op != OP_AND)
		return false;
	sel = b->pair.left;
	t = field_tmpl(sel);
	if (!t || !t->token || !mask_run(b->pair.right, &shift, &width) ||
	    width != t->len)
		return false;
	if (rel->op != OP_EQ && rel->op != OP_NEQ && rel->op != OP_IMPLICIT)
		return false;
	r = rhs_clone(rel->pair.right);
	if (!r)
		return false;
	constants_view(r, shift, t->len, t->dtype ? t->dtype : sel->dtype);
	print_rel_view(octx, rel, field_view(sel, t), r);
	return true;
}

/* A shortened load of an address: "ip saddr 10.0.0.0/8". */
static bool undo_prefix(struct output_ctx *octx, const struct expr *rel)
{
	const struct expr *l = rel->pair.left, *r = rel->pair.right;
	const struct proto_hdr_template *t = field_tmpl(l);
	struct expr *v, *p;

	if (!t || l->kind != EXPR_PAYLOAD || l->len >= t->len ||
	    r->kind != EXPR_VALUE || !t->dtype ||
	    !(t->dtype->flags & DTYPE_F_PREFIX) ||
	    (rel->op != OP_EQ && rel->op != OP_NEQ && rel->op != OP_IMPLICIT))
		return false;
	v = expr_clone(r);
	if (!v)
		return false;
	value_resize(&v->value, t->len);
	value_shl(&v->value, t->len - l->len);
	v->len = t->len;
	v->dtype = t->dtype;
	p = prefix_expr_alloc(&r->location, v, l->len);
	print_rel_view(octx, rel, field_view(l, t), p);
	return true;
}

/* "(FLAGS & MASK) != 0" is "FLAGS MASK"; "== 0" is "FLAGS ! MASK". */
static bool undo_flag_test(struct output_ctx *octx, const struct expr *rel)
{
	const struct expr *b = rel->pair.left, *r = rel->pair.right;
	const struct datatype *dt;
	unsigned int flags;

	if (b->kind != EXPR_BINOP || b->op != OP_AND ||
	    r->kind != EXPR_VALUE || !value_is_zero(&r->value) ||
	    b->pair.right->kind != EXPR_VALUE ||
	    (rel->op != OP_NEQ && rel->op != OP_EQ))
		return false;
	dt = b->pair.left->dtype;
	if (!dt || !datatype_is_a(dt, &bitmask_type) || dt == &bitmask_type)
		return false;
	nftc_print_expr(octx, b->pair.left);
	nftc_puts(rel->op == OP_EQ ? " ! " : " ", octx->f);
	flags = octx->flags;
	octx->flags |= NFTC_OUTPUT_INT_FLAGLIST;
	nftc_print_expr(octx, b->pair.right);
	octx->flags = flags;
	return true;
}

/*
 * One load covering adjacent fields of one header, compared with their
 * joined values: "tcp sport 1024 tcp dport 22". A protocol key field in
 * the run (a merged dependency such as ether type) is left out.
 */
static bool undo_merged(struct output_ctx *octx, const struct expr *rel)
{
	const struct expr *l = rel->pair.left, *r = rel->pair.right;
	const struct proto_desc *d = l->payload.desc;
	const struct proto_hdr_template *parts[PROTO_HDRS_MAX];
	unsigned int n = 0, at, end, i;
	const char *sep = "";
	struct expr *fv, *cv;

	if (l->kind != EXPR_PAYLOAD || !d || (l->payload.tmpl &&
					      l->payload.tmpl->len == l->len) ||
	    r->kind != EXPR_VALUE || d->base != l->payload.base ||
	    (rel->op != OP_EQ && rel->op != OP_IMPLICIT))
		return false;
	at = l->payload.offset;
	end = at + l->len;
	n = proto_fields_tile(d, at, end, parts);
	if (n < 2)
		return false;
	for (i = 0; i < n; i++) {
		const struct proto_hdr_template *t = parts[i];

		/* a merged dependency: the key of a header carrying others */
		if (d->protocol_key && d->protocols[0].desc &&
		    t == &d->templates[d->protocol_key])
			continue;
		fv = expr_clone(l);
		cv = expr_clone(r);
		if (!fv || !cv) {
			expr_free(fv);
			expr_free(cv);
			return true;
		}
		fv->payload.tmpl = t;
		fv->payload.offset = t->offset;
		fv->payload.is_raw = false;
		fv->len = t->len;
		fv->dtype = t->dtype;
		constants_view(cv, end - (t->offset + t->len), t->len,
			       t->dtype);
		nftc_puts(sep, octx->f);
		print_rel_view(octx, rel, fv, cv);
		sep = " ";
	}
	return true;
}

/**
 * nftc_print_rel_lowered - print a lowered relational in source form
 * Returns false (nothing printed) when @rel is not a lowered form.
 */
bool nftc_print_rel_lowered(struct output_ctx *octx, const struct expr *rel)
{
	return undo_flag_test(octx, rel) || undo_field_mask(octx, rel) ||
	       undo_prefix(octx, rel) || undo_merged(octx, rel);
}

/**
 * nftc_print_map_lowered - "FIELD & MASK map { ... }" as "FIELD map"
 */
bool nftc_print_map_lowered(struct output_ctx *octx, const struct expr *map,
			    const char *word)
{
	const struct expr *b = map->map.key, *sel;
	const struct proto_hdr_template *t;
	unsigned int shift, width;
	struct expr *fv, *m;

	if (b->kind != EXPR_BINOP || b->op != OP_AND)
		return false;
	sel = b->pair.left;
	t = field_tmpl(sel);
	if (!t || !t->token || !mask_run(b->pair.right, &shift, &width) ||
	    width != t->len)
		return false;
	m = rhs_clone(map->map.mappings);
	if (!m)
		return false;
	constants_view(m, shift, t->len, t->dtype ? t->dtype : sel->dtype);
	fv = field_view(sel, t);
	nftc_print_expr(octx, fv);
	nftc_puts(word, octx->f);
	nftc_print_expr(octx, m);
	expr_free(fv);
	expr_free(m);
	return true;
}

/**
 * nftc_print_payload_stmt_lowered - "FIELD set C" from its RMW form
 *
 * The statement writes @lhs's bytes with (load & keep) ^ (C << shift).
 */
bool nftc_print_payload_stmt_lowered(struct output_ctx *octx,
				     const struct stmt *s)
{
	const struct expr *lhs = s->payload.lhs, *x = s->payload.val, *c;
	const struct proto_hdr_template *t = field_tmpl(lhs);
	unsigned int shift;
	struct expr *fv, *cv;

	if (!t || !t->token || lhs->kind != EXPR_PAYLOAD ||
	    x->kind != EXPR_BINOP || x->op != OP_XOR ||
	    x->pair.left->kind != EXPR_BINOP ||
	    x->pair.left->op != OP_AND || x->pair.right->kind != EXPR_VALUE)
		return false;
	if (lhs->payload.offset + lhs->len < t->offset + t->len)
		return false;
	shift = lhs->payload.offset + lhs->len - (t->offset + t->len);
	c = x->pair.right;
	fv = field_view(lhs, t);
	cv = expr_clone(c);
	if (!fv || !cv) {
		expr_free(fv);
		expr_free(cv);
		return false;
	}
	fv->payload.offset = t->offset;
	constants_view(cv, shift, t->len, t->dtype ? t->dtype : lhs->dtype);
	nftc_print_expr(octx, fv);
	nftc_puts(" set ", octx->f);
	nftc_print_expr(octx, cv);
	expr_free(fv);
	expr_free(cv);
	return true;
}
