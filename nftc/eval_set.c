// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Evaluation of sets, maps and verdict maps: named set declarations,
 * their elements, anonymous sets and maps written in rules, and "@name"
 * references.
 *
 * After evaluation a set's key (and a map's data) is either a typed
 * single expression or an EXPR_CONCAT of typed members, and every element
 * of set->init is an EXPR_SET_ELEM (key NULL for the catch-all "*") or an
 * EXPR_MAPPING whose left side is one. Interval sets are normalised by
 * interval.c.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "evaluate.h"
#include "misspell.h"
#include "interval.h"
#include "rule.h"
#include "printer.h"

#define KEY_FIELDS_MAX		16

/**
 * struct key_field - what one member of a key (or map data) expects
 */
struct key_field {
	const struct datatype	*dtype;
	enum byteorder		byteorder;
	unsigned int		len;
};

static unsigned int round_up32(unsigned int bits)
{
	return (bits + 31) & ~31u;
}

/* The members of a key/data type expression; returns their count. */
static unsigned int key_fields(const struct expr *key, struct key_field *f)
{
	const struct expr *i;
	unsigned int n = 0;

	if (key->kind != EXPR_CONCAT) {
		f[0].dtype = key->dtype;
		f[0].byteorder = key->byteorder;
		f[0].len = key->len;
		return 1;
	}
	list_for_each_entry(i, &key->expressions, list) {
		if (n == KEY_FIELDS_MAX)
			break;
		f[n].dtype = i->dtype;
		f[n].byteorder = i->byteorder;
		f[n].len = i->len;
		n++;
	}
	return n;
}

static struct expr *type_placeholder(const struct location *loc,
				     const struct datatype *dtype)
{
	return constant_expr_alloc(loc, dtype, dtype->byteorder, dtype->size,
				   NULL);
}

/*
 * Concatenated type ids pack member ids, first member in the highest
 * bits; datatype.h keeps no member list, so rebuild it from the id.
 */
static struct expr *concat_from_type(const struct location *loc,
				     const struct datatype *dtype)
{
	unsigned int n = dtype->subtypes, k;
	struct expr *c, *m;
	const struct datatype *t;

	c = list_expr_alloc(loc, EXPR_CONCAT);
	if (!c)
		return NULL;
	for (k = 0; k < n; k++) {
		t = datatype_lookup((dtype->type >> (TYPE_BITS * (n - 1 - k))) &
				    TYPE_MASK);
		m = t ? type_placeholder(loc, t) : NULL;
		if (!m) {
			expr_free(c);
			return NULL;
		}
		list_expr_add(c, m);
	}
	return c;
}

/* Type, width and field lengths of a concatenation of typed members. */
static int concat_type_finish(struct eval_ctx *ctx, struct expr *c)
{
	const struct datatype *types[KEY_FIELDS_MAX];
	const struct datatype *dt;
	struct expr *i;
	unsigned int n = 0, len = 0;

	list_for_each_entry(i, &c->expressions, list) {
		if (n == KEY_FIELDS_MAX)
			return erec_error(&ctx->nft->erq, &c->location,
					  "too many concatenation components");
		types[n] = i->dtype;
		c->field_len[n] = BITS_TO_BYTES(i->len);
		len += round_up32(i->len);
		n++;
	}
	c->field_count = n;
	dt = concat_type_alloc(types, n);
	if (!dt)
		return erec_error(&ctx->nft->erq, &c->location,
				  "cannot build concatenated type");
	datatype_free(c->dtype);
	c->dtype = dt;
	c->len = len;
	c->byteorder = BYTEORDER_INVALID;
	return 0;
}

/* "type T" member: a symbol naming a type becomes a typed placeholder. */
static int type_member_evaluate(struct eval_ctx *ctx, struct expr **e)
{
	const struct datatype *dt;
	struct expr *p;

	if ((*e)->kind != EXPR_SYMBOL)
		return 0;
	dt = datatype_lookup_byname((*e)->sym.identifier);
	if (!dt)
		return erec_error(&ctx->nft->erq, &(*e)->location,
				  "unknown datatype %s", (*e)->sym.identifier);
	p = type_placeholder(&(*e)->location, dt);
	if (!p)
		return -1;
	expr_free(*e);
	*e = p;
	return 0;
}

/* Normalise a key or data type expression of a set declaration. */
static int set_type_evaluate(struct eval_ctx *ctx, struct expr **type)
{
	struct expr *e = *type, *i, *next, *c;

	if (e->kind == EXPR_SYMBOL && type_member_evaluate(ctx, type) < 0)
		return -1;
	e = *type;
	if (e->kind != EXPR_CONCAT && e->dtype->subtypes > 1) {
		c = concat_from_type(&e->location, e->dtype);
		if (!c)
			return erec_error(&ctx->nft->erq, &e->location,
					  "invalid concatenated type");
		expr_free(e);
		*type = e = c;
	}
	if (e->kind != EXPR_CONCAT)
		return 0;
	list_for_each_entry_safe(i, next, &e->expressions, list) {
		struct expr *m = i;

		if (type_member_evaluate(ctx, &m) < 0)
			return -1;
		if (m != i) {
			list_replace(&i->list, &m->list);
		}
	}
	return concat_type_finish(ctx, e);
}


static struct set *table_find_set(struct table *table, const char *name)
{
	struct set *s;

	list_for_each_entry(s, &table->sets, list) {
		if (s->handle.set.name && !(s->flags & SET_F_ANONYMOUS) &&
		    !strcmp(s->handle.set.name, name))
			return s;
	}
	return NULL;
}

/**
 * set_lookup_ref - resolve "@name" in the current table
 * @name: the name (without '@')
 * @loc: the reference, for the diagnostic
 *
 * Returns the set (no reference taken) or NULL with "No such file or
 * directory" queued, plus "did you mean set 'x' in table FAMILY 'y'?"
 * when a set of any table has a close name.
 */
struct set *set_lookup_ref(struct eval_ctx *ctx, const struct name_ref *name,
			   const struct location *loc)
{
	const struct set *best = NULL;
	const struct table *best_t = NULL;
	unsigned int best_d = ~0u;
	struct table *t;
	struct set *s;

	if (ctx->table) {
		s = table_find_set(ctx->table, name->name);
		if (s)
			return s;
	}
	list_for_each_entry(t, &ctx->nft->tables, list) {
		list_for_each_entry(s, &t->sets, list) {
			if (!s->handle.set.name || (s->flags & SET_F_ANONYMOUS))
				continue;
			/* stock's set_lookup_fuzzy: an exact name ends it */
			if (!strcmp(s->handle.set.name, name->name)) {
				best = s;
				best_t = t;
				goto found;
			}
			if (misspell_better(s->handle.set.name, name->name,
					    &best_d)) {
				best = s;
				best_t = t;
			}
		}
	}
found:
	if (best)
		erec_error(&ctx->nft->erq, loc,
			   "No such file or directory; did you mean %s "
			   "\u2018%s\u2019 in table %s \u2018%s\u2019?",
			   best->flags & SET_F_MAP ? "map" : "set",
			   best->handle.set.name,
			   nftc_family_name(best_t->handle.family),
			   best_t->handle.table.name);
	else
		erec_error(&ctx->nft->erq, loc, "No such file or directory");
	return NULL;
}

/* Evaluate a constant leaf in the context of key field @f. */
static int leaf_evaluate(struct eval_ctx *ctx, const struct key_field *f,
			 struct expr **e)
{
	expr_set_context(ctx, f->dtype, f->byteorder, f->len);
	if (expr_evaluate(ctx, e) < 0)
		return -1;
	return 0;
}

static int field_evaluate(struct eval_ctx *ctx, const struct key_field *f,
			  struct expr **e);

/*
 * Widen a constant to its field. Strings keep their first bytes (they
 * are zero padded after the text), numbers their value.
 */
static void value_fit(struct expr *e, const struct key_field *f)
{
	unsigned int old = e->value.len;

	if (!f->len || e->len == f->len || f->len > NFTC_VALUE_MAX * 8)
		return;
	value_resize(&e->value, f->len);
	if (datatype_is_a(f->dtype, &string_type) && old < f->len)
		value_shl(&e->value, f->len - old);
	e->len = f->len;
}

static void range_type(struct expr *r, const struct key_field *f)
{
	datatype_free(r->dtype);
	r->dtype = datatype_get(r->pair.left->dtype);
	r->byteorder = r->pair.left->byteorder;
	r->len = r->pair.left->len;
	r->flags |= EXPR_F_INTERVAL | EXPR_F_CONSTANT;
	r->flags &= ~EXPR_F_SINGLETON;
}

static int range_evaluate(struct eval_ctx *ctx, const struct key_field *f,
			  struct expr *r)
{
	if (field_evaluate(ctx, f, &r->pair.left) < 0 ||
	    field_evaluate(ctx, f, &r->pair.right) < 0)
		return -1;
	if (r->pair.left->kind != EXPR_VALUE ||
	    r->pair.right->kind != EXPR_VALUE)
		return erec_error(&ctx->nft->erq, &r->location,
				  "Range bounds must be constant values");
	if (value_cmp(&r->pair.left->value, &r->pair.right->value) > 0)
		return erec_error(&ctx->nft->erq, &r->location,
				  "Range has zero or negative size");
	range_type(r, f);
	return 0;
}

static int prefix_evaluate(struct eval_ctx *ctx, const struct key_field *f,
			   struct expr *p)
{
	struct expr *v;
	struct value mask;

	if (field_evaluate(ctx, f, &p->prefix.expr) < 0)
		return -1;
	v = p->prefix.expr;
	if (v->kind != EXPR_VALUE)
		return erec_error(&ctx->nft->erq, &p->location,
				  "Prefix expression must be a constant");
	if (p->prefix.prefix_len > v->len)
		return erec_error(&ctx->nft->erq, &p->location,
				  "Prefix length %u is invalid for type of %u bits",
				  p->prefix.prefix_len, v->len);
	/* host bits do not count, as stock masks them */
	value_prefix_mask(&mask, v->value.len, p->prefix.prefix_len);
	value_and(&v->value, &v->value, &mask);
	datatype_free(p->dtype);
	p->dtype = datatype_get(v->dtype);
	p->byteorder = v->byteorder;
	p->len = v->len;
	p->flags |= EXPR_F_INTERVAL | EXPR_F_CONSTANT;
	p->flags &= ~EXPR_F_SINGLETON;
	return 0;
}

/*
 * One member of a key: a value, prefix or range of field @f's type.
 * Variables are replaced by (a copy of) what they are bound to.
 */
static int field_evaluate(struct eval_ctx *ctx, const struct key_field *f,
			  struct expr **e)
{
	struct expr *c;

	switch ((*e)->kind) {
	case EXPR_VARIABLE:
		if (!(*e)->sym.value)
			break;
		c = expr_clone((*e)->sym.value);
		if (!c)
			return -1;
		expr_free(*e);
		*e = c;
		return field_evaluate(ctx, f, e);
	case EXPR_RANGE:
		return range_evaluate(ctx, f, *e);
	case EXPR_PREFIX:
		return prefix_evaluate(ctx, f, *e);
	default:
		break;
	}
	if (leaf_evaluate(ctx, f, e) < 0)
		return -1;
	switch ((*e)->kind) {
	case EXPR_RANGE:
		range_type(*e, f);
		break;
	case EXPR_PREFIX:
		(*e)->flags |= EXPR_F_INTERVAL;
		break;
	case EXPR_VALUE:
		value_fit(*e, f);
		break;
	default:
		break;
	}
	return 0;
}

static void concat_type_desc(char *buf, size_t size,
			     const struct key_field *f, unsigned int n)
{
	unsigned int k;
	size_t off = 0;

	buf[0] = '\0';
	for (k = 0; k < n && off < size; k++)
		off += snprintf(buf + off, size - off, "%s%s", k ? ", " : "",
				f[k].dtype->desc ? f[k].dtype->desc :
						   f[k].dtype->name);
}

/* A key (or map data) value against the type expression @type. */
static int key_evaluate(struct eval_ctx *ctx, const struct expr *type,
			struct expr **e)
{
	struct key_field f[KEY_FIELDS_MAX];
	unsigned int n = key_fields(type, f), k = 0;
	struct expr *i, *next, *m;
	char desc[256];

	if ((*e)->kind == EXPR_VARIABLE && (*e)->sym.value) {
		m = expr_clone((*e)->sym.value);
		if (!m)
			return -1;
		expr_free(*e);
		*e = m;
	}
	if (n == 1)
		return field_evaluate(ctx, &f[0], e);

	if ((*e)->kind != EXPR_CONCAT) {
		concat_type_desc(desc, sizeof(desc), f, n);
		return erec_error(&ctx->nft->erq, &(*e)->location,
				  "invalid data type, expected concatenation "
				  "of (%s)", desc);
	}
	list_for_each_entry_safe(i, next, &(*e)->expressions, list) {
		if (k == n)
			break;
		m = i;
		if (field_evaluate(ctx, &f[k], &m) < 0)
			return -1;
		if (m != i)
			list_replace(&i->list, &m->list);
		if (m->flags & EXPR_F_INTERVAL)
			(*e)->flags |= EXPR_F_INTERVAL;
		k++;
	}
	if (k != n || list_count(&(*e)->expressions) != n) {
		concat_type_desc(desc, sizeof(desc), f, n);
		return erec_error(&ctx->nft->erq, &(*e)->location,
				  "invalid data type, expected concatenation "
				  "of (%s)", desc);
	}
	datatype_free((*e)->dtype);
	(*e)->dtype = datatype_get(type->dtype);
	(*e)->len = type->len;
	(*e)->byteorder = BYTEORDER_INVALID;
	(*e)->flags |= EXPR_F_CONSTANT;
	return 0;
}

static bool is_catchall(const struct expr *e)
{
	return e->kind == EXPR_SYMBOL && e->sym.symtype == SYMBOL_VALUE &&
	       !strcmp(e->sym.identifier, "*");
}

/* Wrap @e into an EXPR_SET_ELEM unless it is one. */
static struct expr *elem_wrap(struct expr *e)
{
	struct expr *elem;

	if (e->kind == EXPR_SET_ELEM)
		return e;
	elem = set_elem_expr_alloc(&e->location, e);
	return elem;
}

/*
 * Bring the members of @elems into element form: nested sets and
 * variables bound to sets are spliced in place, bare keys wrapped.
 */
static int elems_flatten(struct eval_ctx *ctx, struct expr *elems)
{
	struct expr *i, *next, *c, *w, *j, *jn;
	struct list_head out;

	init_list_head(&out);
	list_for_each_entry_safe(i, next, &elems->expressions, list) {
		list_del(&i->list);
		/* the parser wraps a nested set into an element */
		if (i->kind == EXPR_SET_ELEM && i->elem.key &&
		    (i->elem.key->kind == EXPR_SET ||
		     (i->elem.key->kind == EXPR_VARIABLE &&
		      i->elem.key->sym.value &&
		      i->elem.key->sym.value->kind == EXPR_SET))) {
			c = i->elem.key;
			i->elem.key = NULL;
			expr_free(i);
			i = c;
		}
		if (i->kind == EXPR_VARIABLE && i->sym.value &&
		    i->sym.value->kind == EXPR_SET) {
			c = expr_clone(i->sym.value);
			expr_free(i);
			if (!c)
				return -1;
			i = c;
		}
		if (i->kind == EXPR_SET) {
			if (elems_flatten(ctx, i) < 0) {
				expr_free(i);
				return -1;
			}
			list_for_each_entry_safe(j, jn, &i->expressions, list) {
				list_del(&j->list);
				list_add_tail(&j->list, &out);
			}
			expr_free(i);
			continue;
		}
		if (i->kind == EXPR_MAPPING) {
			w = elem_wrap(i->pair.left);
			if (!w)
				return -1;
			i->pair.left = w;
		} else {
			i = elem_wrap(i);
			if (!i)
				return -1;
		}
		list_add_tail(&i->list, &out);
	}
	list_splice_tail_init(&out, &elems->expressions);
	elems->size = list_count(&elems->expressions);
	return 0;
}

/* Key of an element: catch-all, or typed against the set's key. */
static int elem_key_evaluate(struct eval_ctx *ctx, struct set *set,
			     struct expr *elem)
{
	struct expr *key = elem->elem.key;

	if (!key)
		return 0;
	if (is_catchall(key)) {
		expr_free(key);
		elem->elem.key = NULL;
		return 0;
	}
	if (key_evaluate(ctx, set->key, &elem->elem.key) < 0)
		return -1;
	key = elem->elem.key;
	datatype_free(elem->dtype);
	elem->dtype = datatype_get(key->dtype);
	elem->len = key->len;
	elem->byteorder = key->byteorder;
	if (key->flags & EXPR_F_INTERVAL)
		elem->flags |= EXPR_F_INTERVAL;
	return 0;
}

static int interval_flag_error(struct eval_ctx *ctx, const struct expr *key)
{
	const char *what = key->kind == EXPR_PREFIX ? "prefix" : "range";

	return erec_error(&ctx->nft->erq, &key->location,
			  "You must add 'flags interval' to your set "
			  "declaration if you want to add %s elements", what);
}

/* Name of a jump/goto target (symbol, or string value once evaluated). */
static bool verdict_target(const struct expr *v, char *buf, size_t size)
{
	const struct expr *c = v->verdict.chain;
	size_t n;

	if (!c)
		return false;
	if (c->kind == EXPR_SYMBOL) {
		snprintf(buf, size, "%s", c->sym.identifier);
		return true;
	}
	if (c->kind != EXPR_VALUE)
		return false;
	n = BITS_TO_BYTES(c->value.len);
	if (n >= size)
		n = size - 1;
	memcpy(buf, c->value.data, n);
	buf[n] = '\0';
	return true;
}

/*
 * Map data of one mapping, typed against set->data. What only the
 * kernel would refuse (a verdict where a value is expected, a jump to a
 * chain the input never declares) gets the kernel's error, located at
 * the element as stock reports it. Chains are known once the block's
 * chains are declared: for rules' maps and later element commands.
 */
static int elem_data_evaluate(struct eval_ctx *ctx, struct set *set,
			      struct expr *mapping, bool chains_known)
{
	const struct location *loc = &interval_elem(mapping)->location;
	struct expr *data;
	char name[NFT_CHAIN_MAXNAMELEN];

	if (!(set->flags & SET_F_MAP) && !(set->flags & SET_F_OBJECT))
		return erec_error(&ctx->nft->erq, &set->location,
				  "set is not a map");
	if (set->flags & SET_F_OBJECT) {
		/* object names stay symbols: the linearizer writes them */
		return 0;
	}
	if (mapping->pair.right->kind == EXPR_VERDICT &&
	    set->data->dtype != &verdict_type)
		return erec_error(&ctx->nft->erq, loc,
				  "Could not process rule: Invalid argument");
	if (key_evaluate(ctx, set->data, &mapping->pair.right) < 0)
		return -1;
	data = mapping->pair.right;
	/* ranges as data (nat maps): the map's data are intervals */
	if (data->flags & EXPR_F_INTERVAL)
		set->data->flags |= EXPR_F_INTERVAL;
	if (!chains_known || !ctx->table || data->kind != EXPR_VERDICT ||
	    (data->verdict.verdict != NFT_JUMP &&
	     data->verdict.verdict != NFT_GOTO) ||
	    !verdict_target(data, name, sizeof(name)) ||
	    chain_cache_find(ctx->table, name))
		return 0;
	return erec_error(&ctx->nft->erq, loc,
			  "Could not process rule: No such file or directory");
}

static enum interval_mode set_interval_mode(const struct set *set)
{
	bool map = set->flags & (SET_F_MAP | SET_F_OBJECT);

	if (set->automerge)
		return map ? INTERVAL_SORT : INTERVAL_MERGE;
	if ((set->flags & SET_F_ANONYMOUS) && !map)
		return INTERVAL_MERGE;
	return INTERVAL_CHECK;
}

/*
 * A map whose data are ranges sends every datum as a range: a single
 * value there has the wrong length and the kernel refuses it, which
 * stock reports at the element.
 */
static int data_intervals_check(struct eval_ctx *ctx, const struct set *set,
				const struct expr *elems)
{
	const struct expr *i;

	if (!set->data || !(set->data->flags & EXPR_F_INTERVAL) ||
	    set->data->kind == EXPR_CONCAT)
		return 0;
	list_for_each_entry(i, &elems->expressions, list) {
		if (i->kind == EXPR_MAPPING &&
		    i->pair.right->kind == EXPR_VALUE)
			return erec_error(&ctx->nft->erq,
					  &interval_elem(i)->location,
					  "Could not process rule: Invalid "
					  "argument");
	}
	return 0;
}

/*
 * Element options the set cannot hold: the kernel refuses a timeout in
 * a set without timeouts (EINVAL) and an expiration without a timeout
 * (EOPNOTSUPP); stock reports both at the element.
 */
static int elem_options_check(struct eval_ctx *ctx, const struct set *set,
			      const struct expr *elem)
{
	/* a default timeout implies the flag (the kernel's view of the
	 * set, read back, lists it without) */
	if (elem->elem.timeout && !(set->flags & SET_F_TIMEOUT) &&
	    !set->timeout)
		return erec_error(&ctx->nft->erq, &elem->location,
				  "Could not process rule: Invalid argument");
	if (elem->elem.expiration && !elem->elem.timeout && !set->timeout)
		return erec_error(&ctx->nft->erq, &elem->location,
				  "Could not process rule: Operation not "
				  "supported");
	return 0;
}

/* Type every element; anonymous sets with ranges become interval sets. */
static int elems_type(struct eval_ctx *ctx, struct set *set,
		      struct expr *elems)
{
	struct expr *i, *elem, *key;
	bool ranges = false;
	int ret = 0;

	if (elems->kind != EXPR_SET)
		return erec_error(&ctx->nft->erq, &elems->location,
				  "expected a set of elements");
	if (elems_flatten(ctx, elems) < 0)
		return -1;

	list_for_each_entry(i, &elems->expressions, list) {
		elem = interval_elem(i);
		if (elem_key_evaluate(ctx, set, elem) < 0) {
			ret = -1;
			continue;
		}
		if (elem_options_check(ctx, set, elem) < 0) {
			ret = -1;
			continue;
		}
		key = elem->elem.key;
		if (key && (key->flags & EXPR_F_INTERVAL)) {
			if (!(set->flags & (SET_F_INTERVAL | SET_F_ANONYMOUS))) {
				ret = interval_flag_error(ctx, key);
				continue;
			}
			ranges = true;
		}
		if (i->kind == EXPR_MAPPING) {
			if (elem_data_evaluate(ctx, set, i,
					       (set->flags & SET_F_ANONYMOUS) ||
					       elems != set->init) < 0)
				ret = -1;
		} else if (set->flags & SET_F_MAP) {
			ret = erec_error(&ctx->nft->erq, &i->location,
					 "Element has no data, expected %s",
					 set->data->dtype->desc);
		}
	}
	if (ret < 0 || data_intervals_check(ctx, set, elems) < 0)
		return -1;

	if (ranges && (set->flags & SET_F_ANONYMOUS))
		set->flags |= SET_F_INTERVAL;
	if ((set->flags & SET_F_INTERVAL) && set->key->kind == EXPR_CONCAT)
		set->flags |= SET_F_CONCAT;
	return 0;
}

/*
 * Duplicate keys in a map: the kernel keeps the first element and
 * refuses (EEXIST) a later one with other data. Elements are checked in
 * the order they are sent (interval maps: sorted, by their start).
 */
struct dup_ent {
	const struct expr	*key;
	const struct expr	*data;
	const struct expr	*elem;
	unsigned int		pos;
	bool			starts;	/* interval keys: by start */
};

static int dup_key_cmp(const struct expr *a, const struct expr *b,
		       bool starts)
{
	const struct expr *i, *j;
	int d;

	if (!a || !b)
		return !a - !b;
	if (a->kind != b->kind)
		return a->kind - b->kind;
	switch (a->kind) {
	case EXPR_VALUE:
		return value_cmp(&a->value, &b->value);
	case EXPR_RANGE:
		d = dup_key_cmp(a->pair.left, b->pair.left, starts);
		return d || starts ? d :
		       dup_key_cmp(a->pair.right, b->pair.right, starts);
	case EXPR_CONCAT:
		j = list_first_entry(&b->expressions, struct expr, list);
		list_for_each_entry(i, &a->expressions, list) {
			if (&j->list == &b->expressions)
				return 1;
			d = dup_key_cmp(i, j, false);
			if (d)
				return d;
			j = list_next_entry(j, list);
		}
		return &j->list == &b->expressions ? 0 : -1;
	default:
		return 0;
	}
}

/* Do two elements' data (map values, verdicts) say the same? */
bool set_elem_data_equal(const struct expr *a, const struct expr *b)
{
	char x[NFT_CHAIN_MAXNAMELEN], y[NFT_CHAIN_MAXNAMELEN];

	if (a->kind != b->kind)
		return false;
	if (a->kind != EXPR_VERDICT)
		return dup_key_cmp(a, b, false) == 0;
	if (a->verdict.verdict != b->verdict.verdict)
		return false;
	if (!verdict_target(a, x, sizeof(x)) ||
	    !verdict_target(b, y, sizeof(y)))
		return true;
	return !strcmp(x, y);
}

static int dup_ent_cmp(const void *a, const void *b)
{
	const struct dup_ent *x = a, *y = b;
	int d = dup_key_cmp(x->key, y->key, x->starts);

	return d ? d : (x->pos < y->pos ? -1 : 1);
}

static int map_dups_check(struct eval_ctx *ctx, const struct set *set,
			  const struct expr *elems)
{
	bool starts = !(set->flags & SET_F_CONCAT);
	const struct dup_ent *bad = NULL, *first;
	unsigned int n = 0, k;
	struct dup_ent *v;
	const struct expr *i;

	if (!(set->flags & SET_F_MAP))
		return 0;
	v = calloc(list_count(&elems->expressions) + 1, sizeof(*v));
	if (!v)
		return -1;
	list_for_each_entry(i, &elems->expressions, list) {
		if (i->kind != EXPR_MAPPING || (i->flags & EXPR_F_EXISTING))
			continue;
		v[n].elem = interval_elem(i);
		v[n].key = v[n].elem->elem.key;
		v[n].data = i->pair.right;
		v[n].pos = n;
		v[n].starts = starts;
		n++;
	}
	qsort(v, n, sizeof(*v), dup_ent_cmp);
	for (k = 0, first = v; k < n; k++) {
		if (dup_key_cmp(first->key, v[k].key, starts))
			first = &v[k];
		else if (!set_elem_data_equal(first->data, v[k].data) &&
			 (!bad || v[k].pos < bad->pos))
			bad = &v[k];
	}
	k = bad ? erec_error(&ctx->nft->erq, &bad->elem->location,
			     "Could not process rule: File exists") : 0;
	free(v);
	return k ? -1 : 0;
}

static int elems_normalize(struct eval_ctx *ctx, struct set *set,
			   struct expr *elems)
{
	if ((set->flags & SET_F_INTERVAL) && !(set->flags & SET_F_CONCAT) &&
	    interval_set_normalize(&ctx->nft->erq, elems,
				   set_interval_mode(set)) < 0)
		return -1;
	return map_dups_check(ctx, set, elems);
}

static int elems_clone_into(struct expr *dst, const struct expr *src,
			    bool existing)
{
	const struct expr *i;
	struct expr *c;

	list_for_each_entry(i, &src->expressions, list) {
		c = expr_clone(i);
		if (!c)
			return -1;
		if (existing)
			c->flags |= EXPR_F_EXISTING;
		list_expr_add(dst, c);
	}
	return 0;
}

/*
 * "add element" to an interval set declared in this file: the new
 * ranges must not overlap the ones the set already has (stock keeps the
 * cached set's elements for this). The batch is remembered in set->init
 * flagged EXPR_F_EXISTING (checks only, never emitted again); the first
 * batch to an empty set brings the leading zero end element.
 */
static int elems_add_existing(struct eval_ctx *ctx, struct set *set,
			      struct expr *elems)
{
	struct expr *tmp;
	int ret = 0;

	if (!set->init || list_empty(&set->init->expressions)) {
		elems->set_flags |= SET_F_ELEM_FIRST;
	} else if (!(set->flags & SET_F_CONCAT) &&
		   set_interval_mode(set) == INTERVAL_CHECK) {
		tmp = list_expr_alloc(&elems->location, EXPR_SET);
		if (!tmp || elems_clone_into(tmp, set->init, true) < 0 ||
		    elems_clone_into(tmp, elems, false) < 0)
			ret = -1;
		else
			ret = interval_set_normalize(&ctx->nft->erq, tmp,
						     INTERVAL_CHECK);
		expr_free(tmp);
		if (ret < 0)
			return -1;
	}
	if (!set->init) {
		set->init = list_expr_alloc(&elems->location, EXPR_SET);
		if (!set->init)
			return -1;
	}
	return elems_clone_into(set->init, elems, true);
}

/**
 * set_elements_evaluate - type the elements @elems of @set
 *
 * Keys are parsed with the set's key type (concatenation members each
 * with their own), map data with the data type. Ranges and prefixes need
 * an interval set; anonymous sets become one. Interval sets (not
 * concatenations) are normalised. Returns 0 or -1 with errors queued.
 */
int set_elements_evaluate(struct eval_ctx *ctx, struct set *set,
			  struct expr *elems)
{
	if (!elems)
		return 0;
	/* Its declaration failed (and said why): nothing to type against. */
	if (!set->key || !set->key->dtype)
		return -1;
	/* elements added later are checked against packed ranges as IR */
	if (elems != set->init && set->pack && (set->flags & SET_F_INTERVAL) &&
	    set_pack_unpack(set) < 0)
		return -1;
	if (elems_type(ctx, set, elems) < 0)
		return -1;
	if (elems_normalize(ctx, set, elems) < 0)
		return -1;
	if (ctx->cmd && (ctx->cmd->op == CMD_DELETE ||
			 ctx->cmd->op == CMD_DESTROY))
		return 0;
	if ((set->flags & SET_F_CONCAT) &&
	    concat_ranges_check(ctx, set, elems == set->init ? NULL :
				set->init, elems) < 0)
		return -1;
	if (elems == set->init || !(set->flags & SET_F_INTERVAL))
		return 0;
	return elems_add_existing(ctx, set, elems);
}

static void set_handle_complete(struct eval_ctx *ctx, struct set *set)
{
	if (ctx->table)
		handle_merge(&set->handle, &ctx->table->handle);
	if (!set->handle.set_id)
		set->handle.set_id = ++ctx->nft->next_set_id;
}

/**
 * set_evaluate - a named set or map declaration
 *
 * Types the key ("type"/"typeof", concatenations), the data of maps
 * (verdict maps, object maps), completes the flags and evaluates the
 * initial elements. Returns 0 or -1 with errors queued.
 */
int set_evaluate(struct eval_ctx *ctx, struct set *set)
{
	struct set *saved = ctx->set;
	int ret;

	if (!set->key)
		return erec_error(&ctx->nft->erq, &set->location,
				  "set definition does not specify key");
	if (set_type_evaluate(ctx, &set->key) < 0)
		return -1;
	if (set->data) {
		if (set_type_evaluate(ctx, &set->data) < 0)
			return -1;
		set->flags |= SET_F_MAP;
		if (set->data->dtype == &verdict_type)
			set->flags |= SET_F_VMAP;
	}
	if (set->objtype) {
		set->flags |= SET_F_OBJECT;
		set->flags &= ~SET_F_MAP;
	}
	if (set->timeout)
		set->flags |= SET_F_TIMEOUT;
	if ((set->flags & SET_F_INTERVAL) && set->key->kind == EXPR_CONCAT)
		set->flags |= SET_F_CONCAT;
	set_handle_complete(ctx, set);

	ctx->set = set;
	if (set->pack)
		ret = set_pack_evaluate(ctx, set);
	else
		ret = set_elements_evaluate(ctx, set, set->init);
	ctx->set = saved;
	return ret;
}

/* eval_set_pack.c: the parts of set_elements_evaluate() it runs itself. */
int set_elements_type(struct eval_ctx *ctx, struct set *set,
		      struct expr *elems)
{
	return elems_type(ctx, set, elems);
}

int set_elements_normalize(struct eval_ctx *ctx, struct set *set,
			   struct expr *elems)
{
	return elems_normalize(ctx, set, elems);
}

/* A new anonymous set of the current table keyed like @key. */
/* The field of @d that @k (a raw payload) loads exactly, or NULL. */
static const struct proto_hdr_template *
raw_field(const struct proto_desc *d, const struct expr *k)
{
	const struct proto_hdr_template *t;
	unsigned int i;

	for (i = 1; d && i < PROTO_HDRS_MAX; i++) {
		t = &d->templates[i];
		if (t->token && !t->meta_key && t->dtype &&
		    t->offset == k->payload.offset && t->len == k->len)
			return t;
	}
	return NULL;
}

/*
 * Stock keys an anonymous set looked up by a raw transport payload with
 * the field the protocol matched before names ("meta l4proto tcp
 * @th,16,16 { 22, 80 }" is a set of tcp dport), or else the th field.
 */
static void anon_key_complete(struct eval_ctx *ctx, struct expr *k)
{
	const struct proto_hdr_template *t;
	const struct proto_desc *d;

	if (k->kind != EXPR_PAYLOAD || !k->payload.is_raw ||
	    k->payload.base != PROTO_BASE_TRANSPORT_HDR ||
	    ctx->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].offset)
		return;
	d = ctx->pctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc;
	t = raw_field(d, k);
	if (!t) {
		d = &proto_th;
		t = raw_field(d, k);
	}
	if (!t)
		return;
	k->payload.desc = d;
	k->payload.tmpl = t;
	k->payload.is_raw = false;
	k->dtype = t->dtype;
	k->byteorder = t->byteorder;
}

static struct set *anon_set_alloc(struct eval_ctx *ctx, const struct expr *key,
				  struct expr *init, bool map)
{
	struct set *set = set_alloc(&init->location);

	if (!set)
		return NULL;
	set->flags = SET_F_ANONYMOUS | SET_F_CONSTANT;
	if (map)
		set->flags |= SET_F_MAP;
	set->key = expr_clone(key);
	if (!set->key) {
		set_free(set);
		return NULL;
	}
	anon_key_complete(ctx, set->key);
	set->handle.set.name = strdup(map ? "__map%d" : "__set%d");
	set->handle.set.location = init->location;
	if (ctx->table) {
		handle_merge(&set->handle, &ctx->table->handle);
	} else if (ctx->rule) {
		handle_merge(&set->handle, &ctx->rule->handle);
		set->handle.chain.name = NULL;
	}
	set->handle.set_id = ++ctx->nft->next_set_id;
	return set;
}

/* Hand @set to the table (one reference) and return an @ref to it. */
static struct expr *anon_set_publish(struct eval_ctx *ctx, struct set *set,
				     const struct location *loc)
{
	if (ctx->table)
		list_add_tail(&set_get(set)->list, &ctx->table->sets);
	return set_ref_expr_alloc(loc, set);
}

/* A set with one plain element is a plain comparison, as in stock. */
static struct expr *single_elem_key(struct expr *init)
{
	struct expr *i;

	if (list_count(&init->expressions) != 1)
		return NULL;
	i = list_first_entry(&init->expressions, struct expr, list);
	if (i->kind != EXPR_SET_ELEM || !i->elem.key ||
	    !list_empty(&i->elem.stmts) || i->elem.timeout ||
	    i->elem.comment)
		return NULL;
	switch (i->elem.key->kind) {
	case EXPR_VALUE:
	case EXPR_PREFIX:
	case EXPR_RANGE:
		return i->elem.key;
	default:
		return NULL;
	}
}

/**
 * expr_evaluate_anon_set - "{ ... }" on the right of a match
 * @key: the (evaluated) left side the elements are typed against
 * @expr: the EXPR_SET; replaced by an EXPR_SET_REF to a new anonymous
 *        set, or by the element's key when the set has one plain element
 */
int expr_evaluate_anon_set(struct eval_ctx *ctx, struct expr *key,
			   struct expr **expr)
{
	struct expr *init = *expr, *single, *ref;
	struct set *set;

	if (!key)
		return erec_error(&ctx->nft->erq, &init->location,
				  "set has no key in this context");
	set = anon_set_alloc(ctx, key, init, false);
	if (!set)
		return -1;
	if (set->key->kind == EXPR_CONCAT && set->key->dtype->subtypes < 2 &&
	    concat_type_finish(ctx, set->key) < 0)
		goto err;
	set->init = init;
	if (elems_type(ctx, set, init) < 0) {
		set->init = NULL;
		goto err;
	}
	single = single_elem_key(init);
	if (single && single->kind != EXPR_VALUE &&
	    set->key->kind == EXPR_CONCAT)
		single = NULL;
	if (single) {
		/* take the key out of its element, drop the set */
		list_first_entry(&init->expressions, struct expr,
				 list)->elem.key = NULL;
		set->init = NULL;
		set_free(set);
		expr_free(init);
		*expr = single;
		return 0;
	}
	/* stock marks anonymous interval sets auto-merged (userdata) */
	if (set->flags & SET_F_INTERVAL)
		set->automerge = true;
	if (elems_normalize(ctx, set, init) < 0 ||
	    concat_ranges_check(ctx, set, NULL, init) < 0)
		goto err_init;
	ref = anon_set_publish(ctx, set, &init->location);
	if (!ref)
		return -1;
	*expr = ref;
	return 0;
err_init:
	set->init = NULL;
err:
	set_free(set);
	return -1;
}

/* "dnat to KEY map { k : addr . port }": address and port data. */
static struct expr *nat_concat_data(const struct expr *map,
				    const struct datatype *dtype,
				    enum byteorder order, unsigned int len)
{
	struct expr *c = list_expr_alloc(&map->location, EXPR_CONCAT);
	struct expr *a, *p;

	if (!c)
		return NULL;
	a = constant_expr_alloc(&map->location, dtype, order,
				len ? len : dtype->size, NULL);
	p = type_placeholder(&map->location, &inet_service_type);
	if (!a || !p) {
		expr_free(a);
		expr_free(p);
		expr_free(c);
		return NULL;
	}
	list_expr_add(c, a);
	list_expr_add(c, p);
	return c;
}

/* Expected map data from the enclosing context (or verdicts for vmap). */
static struct expr *map_data_type(struct eval_ctx *ctx, const struct expr *map,
				  const struct datatype *dtype,
				  enum byteorder order, unsigned int len)
{
	const struct expr *i, *first = NULL;

	if (map->map.mappings->kind == EXPR_SET) {
		list_for_each_entry(i, &map->map.mappings->expressions, list) {
			if (i->kind == EXPR_MAPPING) {
				first = i->pair.right;
				break;
			}
		}
	}
	if ((map->map.mappings->set_flags & SET_F_VMAP) ||
	    dtype == &verdict_type ||
	    ((!dtype || dtype == &invalid_type) && first &&
	     first->kind == EXPR_VERDICT))
		return constant_expr_alloc(&map->location, &verdict_type,
					   BYTEORDER_INVALID, 0, NULL);
	if (!dtype || dtype == &invalid_type) {
		erec_error(&ctx->nft->erq, &map->location,
			   "map data type is unknown in this context");
		return NULL;
	}
	if (dtype->subtypes > 1)
		return concat_from_type(&map->location, dtype);
	if (first && first->kind == EXPR_CONCAT && ctx->stmt &&
	    ctx->stmt->kind == STMT_NAT)
		return nat_concat_data(map, dtype, order, len);
	return constant_expr_alloc(&map->location, dtype, order,
				   len ? len : dtype->size, NULL);
}

static int map_ref_resolve(struct eval_ctx *ctx, struct expr **mappings)
{
	struct expr *e = *mappings, *ref;
	struct name_ref name;
	struct set *set;

	if (e->kind == EXPR_SET_REF) {
		/* the parser's placeholder holds only the name */
		return expr_evaluate(ctx, mappings);
	}
	if (e->kind != EXPR_SYMBOL || e->sym.identifier[0] != '@')
		return erec_error(&ctx->nft->erq, &e->location,
				  "Expression is not a map");
	name.name = e->sym.identifier + 1;
	name.location = e->location;
	set = set_lookup_ref(ctx, &name, &e->location);
	if (!set)
		return -1;
	ref = set_ref_expr_alloc(&e->location, set_get(set));
	if (!ref)
		return -1;
	expr_free(e);
	*mappings = ref;
	return 0;
}

/* "KEY map { ... }": an anonymous map keyed like the key, data @data. */
static int anon_map_evaluate(struct eval_ctx *ctx, struct expr *map,
			     struct expr *data)
{
	struct expr *ref;
	struct set *set;

	set = anon_set_alloc(ctx, map->map.key, map->map.mappings, true);
	if (!set) {
		expr_free(data);
		return -1;
	}
	set->data = data;
	if (data->kind == EXPR_CONCAT && concat_type_finish(ctx, data) < 0)
		goto err;
	if (data->dtype == &verdict_type)
		set->flags |= SET_F_VMAP;
	set->init = map->map.mappings;
	if (set_elements_evaluate(ctx, set, set->init) < 0) {
		set->init = NULL;
		goto err;
	}
	ref = anon_set_publish(ctx, set, &set->init->location);
	if (!ref)
		return -1;
	map->map.mappings = ref;
	return 0;
err:
	set_free(set);
	return -1;
}

/* Range lookups compare big endian keys: convert host order ones. */
static int map_key_to_big(struct expr *map)
{
	struct expr *conv;

	if (map->map.key->byteorder != BYTEORDER_HOST)
		return 0;
	conv = unary_expr_alloc(&map->map.key->location, OP_HTON,
				map->map.key);
	if (!conv)
		return -1;
	conv->byteorder = BYTEORDER_BIG;
	conv->len = conv->unary.arg->len;
	map->map.key = conv;
	return 0;
}

/**
 * expr_evaluate_map - KEY map { k : v } / KEY vmap { k : verdict } /
 *                     KEY map @name
 *
 * The data type of an anonymous map is what the context expects
 * (ctx->ectx, set by the statement: meta mark set ..., verdicts for
 * vmap). Interval lookups on host byte order keys get an hton.
 */
int expr_evaluate_map(struct eval_ctx *ctx, struct expr **expr)
{
	struct expr *map = *expr, *data, *outer_key = ctx->ectx.key;
	const struct datatype *dtype = ctx->ectx.dtype;
	enum byteorder order = ctx->ectx.byteorder;
	unsigned int len = ctx->ectx.len;
	struct set *set;
	int ret;

	expr_set_context(ctx, NULL, BYTEORDER_INVALID, 0);
	ctx->ectx.key = NULL;
	ret = expr_evaluate(ctx, &map->map.key);
	ctx->ectx.key = outer_key;
	if (ret < 0)
		return -1;

	if (map->map.mappings->kind == EXPR_SET) {
		data = map_data_type(ctx, map, dtype, order, len);
		if (!data || anon_map_evaluate(ctx, map, data) < 0)
			return -1;
	} else if (map_ref_resolve(ctx, &map->map.mappings) < 0) {
		return -1;
	}

	set = map->map.mappings->set_ref.set;
	if (!(set->flags & (SET_F_MAP | SET_F_OBJECT)) ||
	    (!set->data && !(set->flags & SET_F_OBJECT)))
		return erec_error(&ctx->nft->erq, &map->map.mappings->location,
				  "Expression is not a map");
	if ((set->flags & SET_F_INTERVAL) && map_key_to_big(map) < 0)
		return -1;

	datatype_free(map->dtype);
	if (set->data) {
		map->dtype = datatype_get(set->data->dtype);
		map->len = set->data->len;
		map->byteorder = set->data->byteorder;
	} else {
		/* object maps yield object names */
		map->dtype = &string_type;
		map->len = NFT_OBJ_MAXNAMELEN * 8;
		map->byteorder = BYTEORDER_BIG;
	}
	map->flags &= ~EXPR_F_CONSTANT;
	return 0;
}

/**
 * set_meter_declare - the set of "meter NAME [size N] { KEY ... }"
 * @stmt: STMT_SET whose set reference is the parser's placeholder (flags
 *        SET_F_EVAL, no key) and whose key has been evaluated already
 *
 * Declares the set as stock nft does (anonymous and dynamic, plus timeout
 * when the key carries one, with the given size), keyed like the key,
 * adds it to the current table (the linearizer emits it before the
 * rule) and points the statement at it. A meter of the same name in the
 * table is reused. Returns 0 or -1 with an error queued.
 */
int set_meter_declare(struct eval_ctx *ctx, struct stmt *stmt)
{
	struct expr *ref = stmt->set.set, *key = stmt->set.key;
	struct set *ph = ref->set_ref.set, *set, *s;
	uint64_t timeout = 0;

	if (key->kind == EXPR_SET_ELEM) {
		timeout = key->elem.timeout;
		key = key->elem.key;
	}
	if (!ctx->table || !ph || !ph->handle.set.name || !key)
		return erec_error(&ctx->nft->erq, &ref->location,
				  "meter needs a table and a key");
	list_for_each_entry(s, &ctx->table->sets, list) {
		if (s != ph && s->handle.set.name &&
		    !strcmp(s->handle.set.name, ph->handle.set.name)) {
			ref->set_ref.set = set_get(s);
			set_free(ph);
			return 0;
		}
	}
	set = set_alloc(&ref->location);
	if (!set)
		return -1;
	set->flags = SET_F_ANONYMOUS | SET_F_EVAL;
	if (timeout)
		set->flags |= SET_F_TIMEOUT;
	set->size = ph->size;
	set->key = expr_clone(key);
	set->handle.set.name = strdup(ph->handle.set.name);
	set->handle.set.location = ph->handle.set.location;
	if (!set->key || !set->handle.set.name ||
	    (set->key->kind == EXPR_CONCAT && set->key->dtype->subtypes < 2 &&
	     concat_type_finish(ctx, set->key) < 0)) {
		set_free(set);
		return -1;
	}
	handle_merge(&set->handle, &ctx->table->handle);
	set->handle.set_id = ++ctx->nft->next_set_id;
	list_add_tail(&set_get(set)->list, &ctx->table->sets);
	ref->set_ref.set = set;
	set_free(ph);
	return 0;
}
