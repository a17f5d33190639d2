// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interval sets: normalisation (ranges, sort, merge, overlap checks) and
 * the expansion into the start/end elements of the kernel's rbtree set.
 *
 * Numbers are struct value in canonical form, so a host byte order key
 * and a network one sort the same way: by numeric value.
 */
#include <stdlib.h>
#include <string.h>
#include "interval.h"

struct expr *interval_elem(const struct expr *i)
{
	if (i->kind == EXPR_MAPPING)
		return i->pair.left;
	return (struct expr *)i;
}

static struct expr *elem_key(const struct expr *i)
{
	const struct expr *e = interval_elem(i);

	return e && e->kind == EXPR_SET_ELEM ? e->elem.key : NULL;
}

int interval_key_range(const struct expr *key, struct value *low,
		       struct value *high)
{
	struct value mask, inv;

	switch (key->kind) {
	case EXPR_VALUE:
		*low = key->value;
		*high = key->value;
		return 0;
	case EXPR_PREFIX:
		if (key->prefix.expr->kind != EXPR_VALUE)
			return -1;
		value_prefix_mask(&mask, key->prefix.expr->value.len,
				  key->prefix.prefix_len);
		value_and(low, &key->prefix.expr->value, &mask);
		value_not(&inv, &mask);
		value_or(high, low, &inv);
		return 0;
	case EXPR_RANGE:
		if (key->pair.left->kind != EXPR_VALUE ||
		    key->pair.right->kind != EXPR_VALUE)
			return -1;
		*low = key->pair.left->value;
		*high = key->pair.right->value;
		return 0;
	default:
		return -1;
	}
}

/* Replace the key of element @i by the EXPR_RANGE [low, high]. */
static int elem_set_range(struct expr *i, const struct value *low,
			  const struct value *high)
{
	struct expr *elem = interval_elem(i), *key = elem->elem.key;
	const struct location *loc = &key->location;
	struct expr *l, *h, *r;

	l = constant_expr_alloc(loc, key->dtype, key->byteorder, key->len,
				low);
	h = constant_expr_alloc(loc, key->dtype, key->byteorder, key->len,
				high);
	r = range_expr_alloc(loc, l, h);
	if (!l || !h || !r)
		return -1;
	r->dtype = datatype_get(key->dtype);
	r->byteorder = key->byteorder;
	r->len = key->len;
	r->flags |= EXPR_F_INTERVAL;
	elem->elem.key = r;
	expr_free(key);
	return 0;
}

/**
 * struct ival - an element with its bounds, for sorting
 */
struct ival {
	struct value	low;
	struct value	high;
	struct expr	*i;
	bool		catchall;
	unsigned int	pos;
};

/* By low end, catch-all last (as stock lists it); 0 on ties. */
static int ival_key_cmp(const struct ival *x, const struct ival *y)
{
	if (x->catchall != y->catchall)
		return x->catchall ? 1 : -1;
	if (x->catchall)
		return 0;
	return value_cmp(&x->low, &y->low);
}

static int ival_cmp(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;
	int d = ival_key_cmp(x, y);

	if (d)
		return d;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Sort as stock's list merge sort does, since which of two equal keys
 * comes first decides where an overlap is reported: the first half
 * (the larger one for odd counts) and the second are sorted, then an
 * element of the first half goes before the second half's elements
 * only when strictly smaller.
 */
static void ival_msort(struct ival *v, struct ival *tmp, unsigned int n)
{
	unsigned int h = (n + 1) / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	ival_msort(v, tmp, h);
	ival_msort(v + h, tmp, n - h);
	while (i < h || j < n) {
		if (j == n || (i < h && ival_key_cmp(&v[i], &v[j]) < 0))
			tmp[k++] = v[i++];
		else
			tmp[k++] = v[j++];
	}
	memcpy(v, tmp, n * sizeof(*v));
}

/* Ranges of every element of @init, sorted; *n set to their count. */
static struct ival *ival_collect(struct expr *init, unsigned int *n)
{
	struct ival *v, *tmp;
	struct expr *i;
	unsigned int k = 0;

	v = calloc(list_count(&init->expressions) + 1, sizeof(*v));
	if (!v)
		return NULL;
	list_for_each_entry(i, &init->expressions, list) {
		struct expr *key = elem_key(i);

		v[k].i = i;
		v[k].pos = k;
		if (!key)
			v[k].catchall = true;
		else if (interval_key_range(key, &v[k].low, &v[k].high) < 0)
			v[k].catchall = true;	/* not constant: leave it */
		k++;
	}
	tmp = calloc(k + 1, sizeof(*tmp));
	if (!tmp) {
		free(v);
		return NULL;
	}
	ival_msort(v, tmp, k);
	free(tmp);
	*n = k;
	return v;
}

static const struct location *ival_loc(const struct ival *v)
{
	const struct expr *key = elem_key(v->i);

	return key ? &key->location : &v->i->location;
}

/* Same value (data) for two mapping elements? Plain elements: always. */
static bool same_data(const struct expr *a, const struct expr *b)
{
	const struct expr *x, *y;

	if (a->kind != EXPR_MAPPING || b->kind != EXPR_MAPPING)
		return true;
	x = a->pair.right;
	y = b->pair.right;
	if (x->kind != y->kind)
		return false;
	if (x->kind == EXPR_VALUE)
		return value_cmp(&x->value, &y->value) == 0;
	if (x->kind == EXPR_VERDICT) {
		if (x->verdict.verdict != y->verdict.verdict)
			return false;
		if (!x->verdict.chain || !y->verdict.chain)
			return x->verdict.chain == y->verdict.chain;
		if (x->verdict.chain->kind == EXPR_VALUE &&
		    y->verdict.chain->kind == EXPR_VALUE)
			return value_cmp(&x->verdict.chain->value,
					 &y->verdict.chain->value) == 0;
		if (x->verdict.chain->kind == EXPR_SYMBOL &&
		    y->verdict.chain->kind == EXPR_SYMBOL)
			return !strcmp(x->verdict.chain->sym.identifier,
				       y->verdict.chain->sym.identifier);
	}
	return false;
}

static void drop_elem(struct expr *init, struct ival *v)
{
	list_del(&v->i->list);
	expr_free(v->i);
	v->i = NULL;
	init->size--;
}

/*
 * Stock automerge: a range inside the previous one disappears, one that
 * overlaps or touches it extends it.
 */
static void ival_merge(struct expr *init, struct ival *v, unsigned int n)
{
	struct ival *prev = NULL;
	struct value next;
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (v[k].catchall)
			continue;
		if (!prev) {
			prev = &v[k];
			continue;
		}
		next = prev->high;
		if (value_cmp(&v[k].high, &prev->high) <= 0) {
			drop_elem(init, &v[k]);
			continue;
		}
		if (value_cmp(&v[k].low, &prev->high) <= 0 ||
		    (!value_inc(&next) && !value_cmp(&v[k].low, &next))) {
			prev->high = v[k].high;
			drop_elem(init, &v[k]);
			continue;
		}
		prev = &v[k];
	}
}

/* Stock overlap check: any two ranges that share a key, unless equal. */
static int ival_check(struct erec_queue *erq, struct ival *v, unsigned int n)
{
	struct ival *prev = NULL;
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (v[k].catchall)
			continue;
		if (prev && !(value_cmp(&prev->low, &v[k].low) == 0 &&
			      value_cmp(&prev->high, &v[k].high) == 0) &&
		    value_cmp(&v[k].low, &prev->high) <= 0) {
			/* blame the element being added, not the set's */
			bool old = v[k].i->flags & EXPR_F_EXISTING;

			return erec_error(erq, ival_loc(old ? prev : &v[k]),
					  "conflicting intervals specified");
		}
		prev = &v[k];
	}
	return 0;
}

/* The element to emit for [low, high] with @src's data and options. */
static struct expr *ival_piece(const struct expr *src, const struct value *low,
			       const struct value *high)
{
	struct expr *c = expr_clone(src);

	if (c && elem_set_range(c, low, high) < 0) {
		expr_free(c);
		return NULL;
	}
	return c;
}

/*
 * Smaller range wins: sweep the ranges sorted by low end (larger first on
 * ties) keeping the stack of ranges that enclose the current point. The
 * uncovered part of each enclosing range is emitted around the ranges
 * nested in it. Ranges must nest: a partial overlap is an error.
 */
struct split_ctx {
	struct erec_queue	*erq;
	struct list_head	out;
	struct value		pos;	/* first key not yet emitted */
	bool			done;	/* pos wrapped past the largest key */
	struct ival		**stack;
	unsigned int		depth;
};

static int split_emit(struct split_ctx *s, const struct ival *v,
		      const struct value *upto)
{
	struct expr *c;

	if (s->done || value_cmp(&s->pos, upto) > 0)
		return 0;
	c = ival_piece(v->i, &s->pos, upto);
	if (!c)
		return -1;
	list_add_tail(&c->list, &s->out);
	s->pos = *upto;
	s->done = value_inc(&s->pos);
	return 0;
}

static int split_pop(struct split_ctx *s)
{
	struct ival *top = s->stack[--s->depth];

	return split_emit(s, top, &top->high);
}

static int split_push(struct split_ctx *s, struct ival *v)
{
	struct ival *top;
	struct value before;

	while (s->depth) {
		top = s->stack[s->depth - 1];
		if (value_cmp(&top->high, &v->low) >= 0)
			break;
		if (split_pop(s) < 0)
			return -1;
	}
	if (s->depth) {
		top = s->stack[s->depth - 1];
		if (value_cmp(&top->high, &v->high) < 0 ||
		    (!value_cmp(&top->low, &v->low) &&
		     !value_cmp(&top->high, &v->high) &&
		     !same_data(top->i, v->i)))
			return erec_error(s->erq, ival_loc(v),
					  "conflicting intervals specified");
		if (!value_cmp(&top->low, &v->low) &&
		    !value_cmp(&top->high, &v->high))
			return 0;	/* duplicate */
		before = v->low;
		if (!value_dec(&before) && split_emit(s, top, &before) < 0)
			return -1;
	}
	s->pos = v->low;
	s->done = false;
	s->stack[s->depth++] = v;
	return 0;
}

static int ival_split_cmp(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;
	int d = ival_cmp(a, b);

	if (x->catchall || y->catchall || value_cmp(&x->low, &y->low))
		return d;
	d = value_cmp(&y->high, &x->high);
	return d ? d : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

static int ival_split(struct erec_queue *erq, struct expr *init,
		      struct ival *v, unsigned int n)
{
	struct split_ctx s = { .erq = erq };
	struct expr *i, *next;
	unsigned int k;
	int ret = 0;

	init_list_head(&s.out);
	s.stack = calloc(n + 1, sizeof(*s.stack));
	if (!s.stack)
		return -1;
	qsort(v, n, sizeof(*v), ival_split_cmp);
	for (k = 0; k < n && ret == 0; k++) {
		if (!v[k].catchall)
			ret = split_push(&s, &v[k]);
	}
	while (ret == 0 && s.depth)
		ret = split_pop(&s);
	free(s.stack);
	if (ret < 0) {
		list_for_each_entry_safe(i, next, &s.out, list) {
			list_del(&i->list);
			expr_free(i);
		}
		return -1;
	}
	/* keep catch-all elements, after the ranges */
	for (k = 0; k < n; k++) {
		if (v[k].catchall) {
			list_del(&v[k].i->list);
			list_add_tail(&v[k].i->list, &s.out);
		}
	}
	list_for_each_entry_safe(i, next, &init->expressions, list) {
		list_del(&i->list);
		expr_free(i);
	}
	list_splice_tail_init(&s.out, &init->expressions);
	init->size = list_count(&init->expressions);
	return 0;
}

/**
 * interval_set_normalize - ranges, sorted, merged or checked
 * @erq: where "conflicting intervals specified" goes, located at the
 *       later of the two ranges
 * @init: EXPR_SET whose elements have constant keys (values, prefixes,
 *        ranges) or are catch-alls
 * @mode: see enum interval_mode
 *
 * On success every non catch-all key is an EXPR_RANGE of two EXPR_VALUEs
 * and the list is sorted by low end, catch-alls last. Returns 0 or -1.
 */
int interval_set_normalize(struct erec_queue *erq, struct expr *init,
			   enum interval_mode mode)
{
	struct ival *v;
	unsigned int n, k;
	int ret = 0;

	v = ival_collect(init, &n);
	if (!v)
		return -1;

	if (mode == INTERVAL_SPLIT) {
		ret = ival_split(erq, init, v, n);
		free(v);
		return ret;
	}

	/* re-link in sorted order */
	for (k = 0; k < n; k++) {
		list_del(&v[k].i->list);
		list_add_tail(&v[k].i->list, &init->expressions);
	}
	switch (mode) {
	case INTERVAL_CHECK:
		ret = ival_check(erq, v, n);
		break;
	case INTERVAL_MERGE:
		ival_merge(init, v, n);
		break;
	case INTERVAL_SORT:
	case INTERVAL_SPLIT:
		break;
	}
	for (k = 0; k < n && ret == 0; k++) {
		if (v[k].i && !v[k].catchall &&
		    elem_set_range(v[k].i, &v[k].low, &v[k].high) < 0)
			ret = -1;
	}
	free(v);
	return ret;
}

static bool value_is_max(const struct value *v)
{
	struct value x = *v;

	return value_inc(&x);
}

/**
 * interval_points - start/end points of sorted, disjoint ranges
 * @next: gives the next range (its bounds and element), false at the end
 *
 * See interval.h. Each range [low, high] gives a start point at low
 * carrying the element, then an end point at high + 1; for anonymous
 * sets an end point that coincides with the next start is dropped.
 * The points go to @cb one by one (nothing is kept: a set of 100,000
 * ranges costs no array of 200,000 points).
 */
int interval_points(bool (*next)(void *it, struct value *low,
				 struct value *high, const struct expr **elem),
		    void *it, unsigned int flags,
		    int (*cb)(void *priv, const struct interval_point *p),
		    void *priv)
{
	struct interval_point p, pend;
	bool have_end = false, first = true;
	struct value low, high;
	const struct expr *i;
	int n = 0, ret;

#define EMIT(pt)	do {					\
		ret = cb(priv, (pt));				\
		if (ret < 0)					\
			return ret;				\
		n++;						\
	} while (0)
	while (next(it, &low, &high, &i)) {
		if (first && (flags & INTERVAL_F_FIRST) &&
		    !value_is_zero(&low)) {
			memset(&p, 0, sizeof(p));
			value_init(&p.key, low.len);
			p.end = true;
			EMIT(&p);
		}
		first = false;
		if (have_end && (!(flags & INTERVAL_F_ANONYMOUS) ||
				 value_cmp(&pend.key, &low)))
			EMIT(&pend);
		have_end = false;
		memset(&p, 0, sizeof(p));
		p.key = low;
		p.elem = i;
		if (value_is_max(&high)) {
			p.open = true;
		} else {
			memset(&pend, 0, sizeof(pend));
			pend.key = high;
			value_inc(&pend.key);
			pend.end = true;
			have_end = true;
		}
		EMIT(&p);
	}
	if (have_end)
		EMIT(&pend);
#undef EMIT
	return n;
}

struct list_it {
	const struct list_head	*head;
	const struct list_head	*pos;
};

/* The next element of the list with a constant key. */
static bool list_next_range(void *priv, struct value *low, struct value *high,
			    const struct expr **elem)
{
	struct list_it *it = priv;

	while (it->pos != it->head) {
		const struct expr *i = container_of(it->pos, struct expr,
						    list);
		const struct expr *key = elem_key(i);

		it->pos = it->pos->next;
		if (key && !(i->flags & EXPR_F_EXISTING) &&
		    interval_key_range(key, low, high) == 0) {
			*elem = i;
			return true;
		}
	}
	return false;
}

int interval_expand_each(const struct expr *init, unsigned int flags,
			 int (*cb)(void *priv, const struct interval_point *p),
			 void *priv)
{
	struct list_it it = {
		.head	= &init->expressions,
		.pos	= init->expressions.next,
	};

	return interval_points(list_next_range, &it, flags, cb, priv);
}

struct points {
	struct interval_point	*v;
	unsigned int		n;
	unsigned int		cap;
};

static int point_keep(void *priv, const struct interval_point *p)
{
	struct points *pts = priv;

	if (pts->n == pts->cap) {
		unsigned int c = pts->cap ? pts->cap * 2 : 16;
		struct interval_point *v = realloc(pts->v, c * sizeof(*v));

		if (!v)
			return -1;
		pts->v = v;
		pts->cap = c;
	}
	pts->v[pts->n++] = *p;
	return 0;
}

/**
 * interval_expand - the points of interval_expand_each() in an array
 */
int interval_expand(const struct expr *init, unsigned int flags,
		    struct interval_point **out)
{
	struct points pts = { 0 };
	int n = interval_expand_each(init, flags, point_keep, &pts);

	if (n < 0) {
		free(pts.v);
		pts.v = NULL;
	}
	*out = pts.v;
	return n;
}
