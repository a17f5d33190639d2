// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listing templates: a rule printed from the template recorded for an
 * earlier rule of its shape (list_tmpl.c records them).
 */
#include <config.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include "list_tmpl_int.h"
#include "printer.h"
#include "value.h"
#include "fmt.h"
#include "delin_pack.h"

enum tmpl_fast tmpl_fast_of(const struct datatype *dt, enum byteorder order,
			    unsigned int len, unsigned int flags)
{
	if (order != BYTEORDER_BIG)
		return TMPL_FAST_NONE;
	if (dt == &ipaddr_type && len == 32)
		return TMPL_FAST_IP4;
	if (dt == &inet_service_type && len == 16 &&
	    !(flags & NFTC_OUTPUT_SERVICE))
		return TMPL_FAST_PORT;
	if (dt == &ip6addr_type && len == 128)
		return TMPL_FAST_IP6;
	return TMPL_FAST_NONE;
}

/* Bytes a value of @fast takes. */
static unsigned int fast_bytes(enum tmpl_fast fast)
{
	static const unsigned int bytes[] = {
		[TMPL_FAST_IP4]		= 4,
		[TMPL_FAST_PORT]	= 2,
		[TMPL_FAST_IP6]		= 16,
	};

	return bytes[fast];
}

char *tmpl_fast_fmt(enum tmpl_fast fast, char *buf, const uint8_t *p)
{
	switch (fast) {
	case TMPL_FAST_IP4:
		return fmt_ip4(buf, p);
	case TMPL_FAST_PORT:
		return fmt_u64(buf, (unsigned int)p[0] << 8 | p[1]);
	case TMPL_FAST_IP6:
		/* as ip6addr_type_print() */
		if (!inet_ntop(AF_INET6, p, buf, INET6_ADDRSTRLEN))
			break;
		return buf + strlen(buf);
	case TMPL_FAST_NONE:
		break;
	}
	*buf = '\0';
	return buf;
}

char *tmpl_span_fast_fmt(const struct tmpl_span *s, char *buf,
			 const uint8_t *p, unsigned int n)
{
	unsigned int nb = fast_bytes(s->fast);
	uint8_t b[16];
	char *e;

	if (!s->fast)
		return NULL;
	switch (s->mode) {
	case TMPL_VALUE:
		return n == nb ? tmpl_fast_fmt(s->fast, buf, p) : NULL;
	case TMPL_PREFIX:
		/* the compare's bytes, the rest of the address zero */
		if (n > nb || nb > sizeof(b) || s->plen > nb * 8)
			return NULL;
		memcpy(b, p, n);
		memset(b + n, 0, nb - n);
		e = tmpl_fast_fmt(s->fast, buf, b);
		*e++ = '/';
		return fmt_u64(e, s->plen);
	default:
		return NULL;
	}
}

static bool keyed_match(const struct tmpl *t, const struct nlattr *const *v,
			int n)
{
	const uint8_t *p = t->keyed;
	uint16_t len;
	int k;

	for (k = 0; k < n; k++) {
		if (!(t->keyed_mask & (1u << k)))
			continue;
		len = dx_payload_len(v[k]);
		if (memcmp(p, dx_payload(v[k]), len))
			return false;
		p += len;
	}
	return true;
}


/*
 * A rule's line put together in memory and written at once: a few
 * fwrite() calls a rule, each locking-free but still a call through
 * libio's layers, cost as much as the rest of printing it.
 */
struct lbuf {
	FILE	*f;
	size_t	n;
	char	b[1024];
};

static void lb_flush(struct lbuf *lb)
{
	if (lb->n)
		fwrite(lb->b, 1, lb->n, lb->f);
	lb->n = 0;
}

static void lb_put(struct lbuf *lb, const void *p, size_t len)
{
	if (lb->n + len > sizeof(lb->b)) {
		lb_flush(lb);
		if (len > sizeof(lb->b)) {
			fwrite(p, 1, len, lb->f);
			return;
		}
	}
	memcpy(lb->b + lb->n, p, len);
	lb->n += len;
}

/* Room for @len bytes at the end of @lb (at most TMPL_FAST_MAX). */
static char *lb_room(struct lbuf *lb, size_t len)
{
	if (lb->n + len > sizeof(lb->b))
		lb_flush(lb);
	return lb->b + lb->n;
}

static void print_span(const struct tmpl_span *s, const struct nlattr *v,
		       struct output_ctx *octx, struct lbuf *lb)
{
	struct output_ctx o = *octx;
	struct expr *x;
	uint64_t u;
	char *p, *e;

	if (s->mode == TMPL_U64) {
		memcpy(&u, dx_payload(v), sizeof(u));
		p = lb_room(lb, TMPL_FAST_MAX);
		lb->n += fmt_u64(p, be64toh(u)) - p;
		return;
	}
	if (s->fast) {
		p = lb_room(lb, TMPL_FAST_MAX);
		e = tmpl_span_fast_fmt(s, p, dx_payload(v), dx_payload_len(v));
		if (e) {
			lb->n += e - p;
			return;
		}
	}
	lb_flush(lb);
	x = tmpl_span_value(s, dx_payload(v), dx_payload_len(v));
	o.flags = s->flags;
	o.family = s->family;
	nftc_print_expr(&o, x);
	expr_free(x);
}

/*
 * The anonymous sets @t's set holes name in @v, into @set: false unless
 * each is there, not bound yet, and as the template's was in the kernel.
 */
static bool sets_resolve(const struct tmpl *t,
			 const struct delin_set_index *sets,
			 const struct nlattr *const *v, struct set **set)
{
	const struct tmpl_span *sp;
	struct set *s;
	unsigned int i;

	for (i = 0; i < t->nspan; i++) {
		sp = &t->spans[i];
		if (sp->mode != TMPL_SET)
			continue;
		/* a set's name, checked by tmpl_cmp_values() on the way
		 * that walks the expressions, not on the recent one */
		if (((const char *)dx_payload(v[sp->k]))
				[dx_payload_len(v[sp->k]) - 1])
			return false;
		s = sets ? delin_set_index_lookup(sets, dx_payload(v[sp->k])) :
			   NULL;
		if (!s || !s->key || (s->flags & SET_F_DELIN_BOUND) ||
		    s->flags != sp->set_flags || s->data ||
		    s->key->dtype != sp->set_dtype ||
		    s->key->len != sp->set_len ||
		    s->key->byteorder != sp->set_order)
			return false;
		set[sp->k] = s;
	}
	return true;
}

/*
 * Anonymous set @s bound to the template's key, as the rule that looks
 * it up binds it, printed, and its elements freed (no other rule uses
 * them).
 */
static void print_set(const struct tmpl_span *sp, struct set *s,
		      struct output_ctx *octx, struct lbuf *lb)
{
	struct output_ctx o = *octx;
	const uint8_t *r;
	struct expr *ref;
	char *p;
	int i, n;

	/* packed elements of a key the fast printer takes, in the order
	 * binding would leave them: from their bytes */
	n = sp->fast ? delin_pack_plain(s, fast_bytes(sp->fast), &r) : -1;
	if (n >= 0) {
		lb_put(lb, "{ ", 2);
		for (i = 0; i < n; i++, r += fast_bytes(sp->fast)) {
			p = lb_room(lb, TMPL_FAST_MAX);
			p = tmpl_fast_fmt(sp->fast, p, r);
			if (i + 1 < n) {
				*p++ = ',';
				*p++ = ' ';
			}
			lb->n = p - lb->b;
		}
		lb_put(lb, " }", 2);
		s->flags |= SET_F_DELIN_BOUND;
		delin_pack_drop(s);
		expr_free(s->init);
		s->init = NULL;
		return;
	}
	lb_flush(lb);
	delin_set_bind(s, sp->key);
	ref = set_ref_expr_alloc(&internal_location, set_get(s));
	o.flags = sp->flags;
	o.family = sp->family;
	nftc_print_expr(&o, ref);
	expr_free(ref);
	expr_free(s->init);
	s->init = NULL;
}

/*
 * @m of template @t's shape, compared outside the slots' values: its
 * slots' values into @v, or false.
 */
static bool shape_match(const struct tmpl *t, const struct table *table,
			const struct delin_rmsg *m, const struct nlattr **v)
{
	const uint8_t *base = dx_payload(m->exprs);
	uint32_t pos = 0;
	unsigned int k;

	if (t->table != table || t->family != m->family ||
	    t->shape_len != dx_payload_len(m->exprs))
		return false;
	for (k = 0; k < t->nslot; k++) {
		if (memcmp(base + pos, t->shape + pos, t->slot_off[k] - pos))
			return false;
		v[k] = (const struct nlattr *)(base + t->slot_off[k] -
					       NLA_HDRLEN);
		pos = t->slot_off[k] + t->slot_len[k];
	}
	return !memcmp(base + pos, t->shape + pos, t->shape_len - pos);
}

/* Print @m from @t (whose slots' values in @m are @v): false if its
 * anonymous sets are not as @t needs them. */
static bool print_from(const struct tmpl *t,
		       const struct delin_set_index *sets,
		       const struct nlattr *const *v, struct output_ctx *octx,
		       const char *lead)
{
	struct set *set[TMPL_CMPS];
	unsigned int i;
	uint32_t pos;

	struct lbuf lb;

	if (!sets_resolve(t, sets, v, set))
		return false;
	lb.f = octx->f;
	lb.n = 0;
	lb_put(&lb, lead, strlen(lead));
	for (pos = 0, i = 0; i < t->nspan; i++) {
		lb_put(&lb, t->text + pos, t->spans[i].off - pos);
		if (t->spans[i].mode == TMPL_SET)
			print_set(&t->spans[i], set[t->spans[i].k], octx, &lb);
		else
			print_span(&t->spans[i], v[t->spans[i].k], octx, &lb);
		pos = t->spans[i].end;
	}
	lb_put(&lb, t->text + pos, t->text_len - pos);
	lb_flush(&lb);
	return true;
}

/* Way @w of @recent made the first (the others move down). */
static void recent_use(struct tmpl **recent, unsigned int w)
{
	struct tmpl *t = recent[w];

	for (; w > 0; w--)
		recent[w] = recent[w - 1];
	recent[0] = t;
}

bool list_tmpl_print(struct list_tmpl *lt, const struct table *table,
		     const struct delin_set_index *sets,
		     const struct delin_rmsg *m, struct output_ctx *octx,
		     const char *lead)
{
	const struct nlattr *v[TMPL_CMPS];
	uint8_t shape[SHAPE_MAX];
	struct tmpl *t, **recent;
	unsigned int w;
	uint32_t len;
	uint64_t h;
	int n;

	if (!lt)
		return false;
	lt->same = 0;
	if (!lt->n || !m->exprs || m->udata)
		return false;
	/* lengths are whole 32-bit words */
	recent = lt->recent[dx_payload_len(m->exprs) / 4 % TMPL_RECENT];
	for (w = 0; w < TMPL_WAYS; w++) {
		t = recent[w];
		if (t && shape_match(t, table, m, v) &&
		    keyed_match(t, v, t->nslot) &&
		    print_from(t, sets, v, octx, lead)) {
			recent_use(recent, w);
			return true;
		}
	}
	n = tmpl_cmp_values(m, v);
	if (n < 0)
		return false;
	len = tmpl_shape_of(m, v, n, shape);
	if (!len)
		return false;
	h = tmpl_hash_of(shape, len, m->family, table);
	for (t = lt->bucket[h % TMPL_BUCKETS]; t; t = t->next) {
		if (t->hash != h || t->table != table ||
		    t->family != m->family || t->shape_len != len ||
		    memcmp(t->shape, shape, len))
			continue;
		if (keyed_match(t, v, n))
			break;
		lt->same++;
	}
	if (!t || !print_from(t, sets, v, octx, lead))
		return false;
	recent[TMPL_WAYS - 1] = t;
	recent_use(recent, TMPL_WAYS - 1);
	return true;
}
