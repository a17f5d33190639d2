// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listing templates: a rule printed from the template recorded for an
 * earlier rule of its shape (list_tmpl.c records them).
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include "list_tmpl_int.h"
#include "printer.h"
#include "value.h"
#include "fmt.h"

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


static void print_span(const struct tmpl_span *s, const struct nlattr *v,
		       struct output_ctx *octx)
{
	struct output_ctx o = *octx;
	char buf[24];
	struct expr *e;
	uint64_t u;

	if (s->mode == TMPL_U64) {
		memcpy(&u, dx_payload(v), sizeof(u));
		fmt_u64(buf, be64toh(u));
		fputs(buf, octx->f);
		return;
	}
	e = tmpl_span_value(s, dx_payload(v), dx_payload_len(v));
	o.flags = s->flags;
	o.family = s->family;
	nftc_print_expr(&o, e);
	expr_free(e);
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
		      struct output_ctx *octx)
{
	struct output_ctx o = *octx;
	struct expr *ref;

	delin_set_bind(s, sp->key);
	ref = set_ref_expr_alloc(&internal_location, set_get(s));
	o.flags = sp->flags;
	o.family = sp->family;
	nftc_print_expr(&o, ref);
	expr_free(ref);
	expr_free(s->init);
	s->init = NULL;
}

bool list_tmpl_print(struct list_tmpl *lt, const struct table *table,
		     const struct delin_set_index *sets,
		     const struct delin_rmsg *m, struct output_ctx *octx,
		     const char *lead)
{
	struct set *set[TMPL_CMPS];
	const struct nlattr *v[TMPL_CMPS];
	uint8_t shape[SHAPE_MAX];
	const struct tmpl *t;
	uint32_t len, pos;
	uint64_t h;
	unsigned int i;
	int n;

	if (!lt)
		return false;
	lt->same = 0;
	if (!lt->n || !m->exprs || m->udata)
		return false;
	n = tmpl_cmp_values(m, v);
	if (n < 0)
		return false;
	len = tmpl_shape_of(m, v, n, shape);
	if (!len)
		return false;
	h = tmpl_hash_of(shape, len, m->family, table);
	lt->same = 0;
	for (t = lt->bucket[h % TMPL_BUCKETS]; t; t = t->next) {
		if (t->hash != h || t->table != table ||
		    t->family != m->family || t->shape_len != len ||
		    memcmp(t->shape, shape, len))
			continue;
		if (keyed_match(t, v, n))
			break;
		lt->same++;
	}
	if (!t || !sets_resolve(t, sets, v, set))
		return false;
	fputs(lead, octx->f);
	for (pos = 0, i = 0; i < t->nspan; i++) {
		fwrite(t->text + pos, 1, t->spans[i].off - pos, octx->f);
		if (t->spans[i].mode == TMPL_SET)
			print_set(&t->spans[i], set[t->spans[i].k], octx);
		else
			print_span(&t->spans[i], v[t->spans[i].k], octx);
		pos = t->spans[i].end;
	}
	fwrite(t->text + pos, 1, t->text_len - pos, octx->f);
	return true;
}
