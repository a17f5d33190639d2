// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listing templates.
 *
 * Big rulesets repeat a few rule shapes with other addresses and ports:
 * "ip saddr A tcp dport P accept" a hundred thousand times. Listing
 * decompiled and printed each through IR, 19,000 instructions a rule.
 * Here the first rule of a shape is listed so, and its text kept with
 * holes where the values of its compares were printed; a later rule
 * whose VM code is the same but for those values is printed from the
 * text, each hole filled by printing its own value.
 *
 * What makes that exact:
 * - the shape is the rule's expressions byte for byte, compare data
 *   and limit rates aside, in the same table, printed with the same
 *   flags;
 * - a compare is a hole only if the decompiler took its value as a
 *   plain constant (no protocol selector that names later loads or
 *   drops dependencies, no wildcard, prefix of a whole address, split
 *   field), every print of it was checked while recording: the value
 *   made from the compare's bytes alone, printed alone with the flags
 *   of the moment, gives the same text, and its type prints values in
 *   isolation (addresses, ports, integers, marks, interface names);
 *   a packet limit's rate is a hole when it printed as the number;
 * - every other compare's (or rate's) bytes are part of the template's
 *   key.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include "list_tmpl_int.h"
#include "printer.h"
#include "value.h"
#include "fmt.h"

struct list_tmpl *list_tmpl_new(void)
{
	return calloc(1, sizeof(struct list_tmpl));
}

void tmpl_free(struct tmpl *t)
{
	unsigned int i;

	for (i = 0; t->spans && i < t->nspan; i++)
		expr_free(t->spans[i].key);
	free(t->shape);
	free(t->keyed);
	free(t->text);
	free(t->spans);
	free(t);
}

void list_tmpl_free(struct list_tmpl *lt)
{
	struct tmpl *t, *n;
	unsigned int i;

	if (!lt)
		return;
	for (i = 0; i < TMPL_BUCKETS; i++) {
		for (t = lt->bucket[i]; t; t = n) {
			n = t->next;
			tmpl_free(t);
		}
	}
	free(lt);
}

/* ------------------------------------------------------------- shapes */

/* Expressions with a value that may be a hole. */
enum slot_kind {
	SLOT_NONE,
	SLOT_CMP,
	SLOT_LIMIT,
	SLOT_LOOKUP,
};

static enum slot_kind slot_kind(const struct nlattr *name)
{
	if (dx_payload_len(name) == 4 && !memcmp(dx_payload(name), "cmp", 4))
		return SLOT_CMP;
	if (dx_payload_len(name) == 6 &&
	    !memcmp(dx_payload(name), "limit", 6))
		return SLOT_LIMIT;
	if (dx_payload_len(name) == 7 &&
	    !memcmp(dx_payload(name), "lookup", 7))
		return SLOT_LOOKUP;
	return SLOT_NONE;
}

/* The value of expression @data (NFTA_EXPR_DATA) of @kind, or NULL. */
static const struct nlattr *slot_value(const struct nlattr *data,
				       enum slot_kind kind)
{
	const struct nlattr *b, *c;

	na_foreach_nested(b, data) {
		if (kind == SLOT_LIMIT && na_type(b) == NFTA_LIMIT_RATE)
			return dx_payload_len(b) == 8 ? b : NULL;
		if (kind == SLOT_LOOKUP && na_type(b) == NFTA_LOOKUP_SET)
			return dx_payload_len(b) &&
			       !((const char *)dx_payload(b))
					[dx_payload_len(b) - 1] ? b : NULL;
		if (kind != SLOT_CMP || na_type(b) != NFTA_CMP_DATA)
			continue;
		na_foreach_nested(c, b) {
			if (na_type(c) == NFTA_DATA_VALUE)
				return c;
		}
	}
	return NULL;
}

/*
 * The values of @m's compares and limits (slots), in order: their
 * count, or -1 if there are more than TMPL_CMPS or one without a value.
 */
int tmpl_cmp_values(const struct delin_rmsg *m, const struct nlattr **v)
{
	const struct nlattr *e, *a, *data;
	enum slot_kind kind;
	int n = 0;

	if (!m->exprs)
		return 0;
	na_foreach_nested(e, m->exprs) {
		kind = SLOT_NONE;
		data = NULL;
		na_foreach_nested(a, e) {
			if (na_type(a) == NFTA_EXPR_NAME)
				kind = slot_kind(a);
			else if (na_type(a) == NFTA_EXPR_DATA)
				data = a;
		}
		if (kind == SLOT_NONE)
			continue;
		if (n == TMPL_CMPS || !data)
			return -1;
		v[n] = slot_value(data, kind);
		if (!v[n])
			return -1;
		n++;
	}
	return n;
}

/* @m's expressions with the compares' values zeroed, into @buf. */
uint32_t tmpl_shape_of(const struct delin_rmsg *m,
			 const struct nlattr *const *v, int n, uint8_t *buf)
{
	const uint8_t *base = dx_payload(m->exprs);
	uint32_t len = dx_payload_len(m->exprs);
	int i;

	if (len > SHAPE_MAX)
		return 0;
	memcpy(buf, base, len);
	for (i = 0; i < n; i++)
		memset(buf + ((const uint8_t *)dx_payload(v[i]) - base), 0,
		       dx_payload_len(v[i]));
	return len;
}

uint64_t tmpl_hash_of(const uint8_t *p, uint32_t len, uint32_t family,
			const struct table *t)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len ^ ((uint64_t)family << 40) ^
		     (uint64_t)(uintptr_t)t;
	uint64_t w;
	uint32_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

/* The compare's bytes as one big endian value. */
static void raw_value(struct value *x, const void *p, unsigned int n)
{
	if (n > NFTC_VALUE_MAX)
		n = NFTC_VALUE_MAX;
	value_init(x, n * 8);
	memcpy(x->data, p, n);
}

/* The value of hole @s from compare bytes @p, @n. */
struct expr *tmpl_span_value(const struct tmpl_span *s, const void *p,
			     unsigned int n)
{
	struct value x;
	struct expr *v;

	switch (s->mode) {
	case TMPL_VALUE:
		return delin_value_typed(s->dtype, s->order, s->len, p, n);
	case TMPL_FIELD:
		raw_value(&x, p, n);
		value_shr(&x, s->shift);
		value_resize(&x, s->len);
		return constant_expr_alloc(&internal_location, s->dtype,
					   s->order, s->len, &x);
	case TMPL_PREFIX:
		raw_value(&x, p, n);
		value_resize(&x, s->len);
		value_shl(&x, s->len - n * 8);
		v = constant_expr_alloc(&internal_location, s->dtype,
					s->order, s->len, &x);
		return v ? prefix_expr_alloc(&internal_location, v, s->plen) :
			   NULL;
	case TMPL_U64:
	case TMPL_SET:
		break;
	}
	return NULL;
}

/* ---------------------------------------------------------- recording */

bool list_tmpl_rec_start(struct list_tmpl_rec *rec,
			 const struct list_tmpl *lt,
			 const struct delin_rmsg *m)
{
	const struct nlattr *v[TMPL_CMPS];
	int n, k;

	memset(rec, 0, sizeof(*rec));
	if (!lt || lt->n >= TMPL_MAX || lt->same >= TMPL_SAME_MAX || !m->exprs || m->udata || dx_payload_len(m->exprs) > SHAPE_MAX)
		return false;
	n = tmpl_cmp_values(m, v);
	if (n < 0)
		return false;
	for (k = 0; k < n; k++) {
		rec->cmp[k] = dx_payload(v[k]);
		rec->cmp_len[k] = dx_payload_len(v[k]);
	}
	rec->ncmp = n;
	return true;
}

void list_tmpl_rec_done(struct list_tmpl_rec *rec)
{
	unsigned int i;

	for (i = 0; i < rec->nspan; i++)
		expr_free(rec->spans[i].key);
	free(rec->spans);
	rec->spans = NULL;
}

/* Types whose values print alone: the same bytes, the same text. */
static bool dtype_isolated(const struct datatype *dt)
{
	return dt == &ipaddr_type || dt == &ip6addr_type ||
	       dt == &inet_service_type || dt == &integer_type ||
	       dt == &mark_type || dt == &ifname_type;
}

/* The text of printing @e alone with @o's flags equals @text? */
static bool prints_as(const struct output_ctx *o, const struct expr *e,
		      const char *text, size_t len)
{
	struct output_ctx s = *o;
	char *buf = NULL;
	size_t n = 0;
	bool same;

	s.rec = NULL;
	s.f = open_memstream(&buf, &n);
	if (!s.f)
		return false;
	nftc_print_expr(&s, e);
	fclose(s.f);
	same = n == len && !memcmp(buf, text, len);
	free(buf);
	return same;
}

/* Keep hole @s; false without memory. */
static bool span_add(struct list_tmpl_rec *rec, const struct tmpl_span *s)
{
	struct tmpl_span *sp;

	if (!(rec->nspan & 7)) {
		sp = realloc(rec->spans, (rec->nspan + 8) * sizeof(*sp));
		if (!sp)
			return false;
		rec->spans = sp;
	}
	rec->spans[rec->nspan++] = *s;
	return true;
}

/*
 * How printed @e (marked as read from compare bytes @p, @n) comes from
 * them, into @s; false if not known. A field is where exactly one shift
 * of the bytes gives its value (the true one always does).
 */
static bool span_mode(struct tmpl_span *s, const struct expr *e,
		      const void *p, unsigned int n)
{
	const struct expr *in = e;
	unsigned int sh, found = 0;
	struct value x, y;

	memset(s, 0, sizeof(*s));
	if (e->kind == EXPR_PREFIX)
		in = e->prefix.expr;
	if (in->kind != EXPR_VALUE || !dtype_isolated(in->dtype) ||
	    n > NFTC_VALUE_MAX || in->len > NFTC_VALUE_MAX * 8)
		return false;
	s->dtype = in->dtype;
	s->order = in->byteorder;
	s->len = in->len;
	if (e->kind == EXPR_PREFIX) {
		s->mode = TMPL_PREFIX;
		s->plen = e->prefix.prefix_len;
		return n * 8 <= in->len;
	}
	if (in->len >= n * 8)
		return true;		/* TMPL_VALUE */
	raw_value(&x, p, n);
	for (sh = 0; sh + in->len <= n * 8; sh++) {
		y = x;
		value_shr(&y, sh);
		value_resize(&y, in->len);
		if (!value_cmp(&y, &in->value)) {
			s->shift = sh;
			found++;
		}
	}
	s->mode = TMPL_FIELD;
	return found == 1;
}

/*
 * The fast printer of bound anonymous set @s's elements, if its text
 * (@text, @len) is theirs printed so, each from its bytes: the same
 * type, order and width as the key it is bound to.
 */
static enum tmpl_fast set_fast(const struct set *s, const struct output_ctx *o,
			       const char *text, size_t len)
{
	enum tmpl_fast fast = tmpl_fast_of(s->key->dtype, s->key->byteorder,
					   s->key->len, o->flags);
	const unsigned int kb = s->key->len / 8;
	const struct expr *i;
	uint8_t b[16];
	char buf[TMPL_FAST_MAX];
	size_t pos;

	if (!fast || !s->init || len < 4 || memcmp(text, "{ ", 2))
		return TMPL_FAST_NONE;
	pos = 2;
	list_for_each_entry(i, &s->init->expressions, list) {
		if (i->kind != EXPR_VALUE || i->dtype != s->key->dtype ||
		    i->byteorder != BYTEORDER_BIG || i->len != s->key->len ||
		    (i->flags & EXPR_F_EXISTING) || kb > sizeof(b))
			return TMPL_FAST_NONE;
		value_to_reg(&i->value, BYTEORDER_BIG, b, kb);
		if (pos > 2) {
			if (pos + 2 > len || memcmp(text + pos, ", ", 2))
				return TMPL_FAST_NONE;
			pos += 2;
		}
		*tmpl_fast_fmt(fast, buf, b) = '\0';
		if (pos + strlen(buf) > len ||
		    memcmp(text + pos, buf, strlen(buf)))
			return TMPL_FAST_NONE;
		pos += strlen(buf);
	}
	return pos + 2 == len && !memcmp(text + pos, " }", 2) ? fast :
	       TMPL_FAST_NONE;
}

/*
 * A set hole: anonymous set @s (of slot @k) printed by a set reference,
 * bound to a key of a type whose values print alone; @o printed it.
 */
static bool set_span(struct list_tmpl_rec *rec, unsigned int k,
		     const struct set *s, const struct output_ctx *o,
		     long off, long end, struct tmpl_span *sp)
{
	struct expr *ref;
	bool ok;

	if (!s || rec->set[k] != s || !(s->flags & SET_F_ANONYMOUS) ||
	    (s->flags & (SET_F_MAP | SET_F_OBJECT)) || s->data || !s->key ||
	    s->key->kind == EXPR_CONCAT || !dtype_isolated(s->key->dtype))
		return false;
	ref = set_ref_expr_alloc(&internal_location,
				 set_get((struct set *)s));
	ok = ref && prints_as(o, ref, *rec->buf + off, end - off);
	expr_free(ref);
	if (!ok)
		return false;
	memset(sp, 0, sizeof(*sp));
	sp->mode = TMPL_SET;
	sp->fast = set_fast(s, o, *rec->buf + off, end - off);
	sp->key = expr_clone(s->key);
	sp->set_flags = rec->set_flags[k];
	sp->set_dtype = rec->set_dtype[k];
	sp->set_len = rec->set_len[k];
	sp->set_order = rec->set_order[k];
	return sp->key != NULL;
}

/*
 * The fast printer of value or prefix hole @s (compare bytes @p, @n,
 * printed as @text, @len), if its type has one and it prints them so.
 */
static enum tmpl_fast value_fast(const struct tmpl_span *s,
				 const struct output_ctx *o, const uint8_t *p,
				 unsigned int n, const char *text, size_t len)
{
	struct tmpl_span f = *s;
	char buf[TMPL_FAST_MAX], *end;

	f.fast = tmpl_fast_of(s->dtype, s->order, s->len, o->flags);
	end = tmpl_span_fast_fmt(&f, buf, p, n);
	return end && (size_t)(end - buf) == len && !memcmp(buf, text, len) ?
	       f.fast : TMPL_FAST_NONE;
}

void list_tmpl_rec_value(struct output_ctx *octx, const struct expr *e)
{
	struct list_tmpl_rec *rec = octx->rec;
	unsigned int k = e->location.first_line - TMPL_MARK;
	struct output_ctx o = *octx;
	struct tmpl_span s;
	struct expr *v;
	long off, end;
	bool ok;

	o.rec = NULL;
	memset(&s, 0, sizeof(s));
	if (k >= rec->ncmp) {
		nftc_print_expr(&o, e);
		return;
	}
	fflush(octx->f);
	off = ftell(octx->f);
	nftc_print_expr(&o, e);
	fflush(octx->f);
	end = ftell(octx->f);
	if (e->kind == EXPR_SET_REF) {
		ok = off >= 0 && end >= off &&
		     set_span(rec, k, e->set_ref.set, &o, off, end, &s);
		s.off = off;
		s.end = end;
		s.k = k;
		s.flags = o.flags;
		s.family = o.family;
		if (!ok || !span_add(rec, &s)) {
			expr_free(s.key);
			rec->keyed[k] = true;
		}
		return;
	}
	ok = off >= 0 && end >= off && span_mode(&s, e, rec->cmp[k],
						 rec->cmp_len[k]);
	if (ok) {
		v = tmpl_span_value(&s, rec->cmp[k], rec->cmp_len[k]);
		ok = v && prints_as(&o, v, *rec->buf + off, end - off);
		expr_free(v);
	}
	if (ok)
		s.fast = value_fast(&s, &o, rec->cmp[k], rec->cmp_len[k],
				    *rec->buf + off, end - off);
	s.off = off;
	s.end = end;
	s.k = k;
	s.flags = o.flags;
	s.family = o.family;
	if (!ok || !span_add(rec, &s))
		rec->keyed[k] = true;
}

void list_tmpl_rec_u64(struct output_ctx *octx, unsigned int k, uint64_t v)
{
	struct list_tmpl_rec *rec = octx->rec;
	struct tmpl_span s = { .mode = TMPL_U64, .k = k };
	char buf[24];
	uint64_t u;
	long off;

	fflush(octx->f);
	off = ftell(octx->f);
	fmt_u64(buf, v);
	fputs(buf, octx->f);
	if (k >= rec->ncmp)
		return;
	memcpy(&u, rec->cmp[k], sizeof(u));
	s.off = off;
	s.end = off + strlen(buf);
	if (off < 0 || rec->cmp_len[k] != sizeof(u) || be64toh(u) != v ||
	    !span_add(rec, &s))
		rec->keyed[k] = true;
}

void list_tmpl_add(struct list_tmpl *lt, const struct table *table,
		   const struct delin_rmsg *m, struct list_tmpl_rec *rec,
		   const char *text)
{
	const struct nlattr *v[TMPL_CMPS];
	uint8_t shape[SHAPE_MAX];
	bool hole[TMPL_CMPS] = { false };
	struct tmpl *t;
	unsigned int i, j, k;
	uint32_t len, klen = 0;
	int n;

	if (!lt || lt->n >= TMPL_MAX || rec->bad || rec->cur != rec->ncmp)
		return;
	n = tmpl_cmp_values(m, v);
	if (n != (int)rec->ncmp)
		return;
	len = tmpl_shape_of(m, v, n, shape);
	if (!len)
		return;
	for (i = 0; i < rec->nspan; i++)
		hole[rec->spans[i].k] = true;
	for (k = 0; k < rec->ncmp; k++) {
		if (rec->keyed[k])
			hole[k] = false;
		if (!hole[k])
			klen += rec->cmp_len[k];
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return;
	t->table = table;
	t->family = m->family;
	t->shape_len = len;
	t->shape = malloc(len);
	t->keyed = malloc(klen + 1);
	t->text_len = strlen(text);
	t->text = strdup(text);
	t->spans = malloc((rec->nspan + 1) * sizeof(*t->spans));
	if (!t->shape || !t->keyed || !t->text || !t->spans) {
		tmpl_free(t);
		return;
	}
	memcpy(t->shape, shape, len);
	t->hash = tmpl_hash_of(shape, len, m->family, table);
	t->nslot = n;
	for (k = 0; k < rec->ncmp; k++) {
		t->slot_off[k] = (const uint8_t *)dx_payload(v[k]) -
				 (const uint8_t *)dx_payload(m->exprs);
		t->slot_len[k] = dx_payload_len(v[k]);
	}
	for (k = 0; k < rec->ncmp; k++) {
		if (hole[k])
			continue;
		t->keyed_mask |= 1u << k;
		memcpy(t->keyed + t->keyed_len, rec->cmp[k], rec->cmp_len[k]);
		t->keyed_len += rec->cmp_len[k];
	}
	for (i = 0, j = 0; i < rec->nspan; i++) {
		if (!hole[rec->spans[i].k])
			continue;
		if (j && rec->spans[i].off < t->spans[j - 1].end)
			break;		/* out of order: no template */
		t->spans[j++] = rec->spans[i];
		rec->spans[i].key = NULL;	/* the template's now */
	}
	t->nspan = j;
	if (i < rec->nspan || (j && t->spans[j - 1].end > t->text_len)) {
		tmpl_free(t);
		return;
	}
	t->next = lt->bucket[t->hash % TMPL_BUCKETS];
	lt->bucket[t->hash % TMPL_BUCKETS] = t;
	lt->n++;
}
