// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Overlap checks of concatenated interval set elements, as the kernel's
 * pipapo backend refuses them (EEXIST), so that "nft -c" and the offline
 * check reject what the kernel would.
 */
#include <stdlib.h>
#include "evaluate.h"
#include "interval.h"
#include "rule.h"

/*
 * Concatenated ranges (the kernel's pipapo set) may not overlap: an
 * element whose first or last key falls inside an element added before
 * is refused (EEXIST), unless it is that very element with the same
 * data. Checked in the order the elements are sent, after the ones the
 * set already has (@prior).
 */
struct cat_range {
	struct value		*lo;
	struct value		*hi;
	const struct expr	*i;
};

static bool cat_inside(const struct cat_range *p, const struct value *v,
		       unsigned int nf)
{
	unsigned int f;

	for (f = 0; f < nf; f++) {
		if (value_cmp(&v[f], &p->lo[f]) < 0 ||
		    value_cmp(&v[f], &p->hi[f]) > 0)
			return false;
	}
	return true;
}

static bool cat_same(const struct cat_range *a, const struct cat_range *b,
		     unsigned int nf)
{
	unsigned int f;

	for (f = 0; f < nf; f++) {
		if (value_cmp(&a->lo[f], &b->lo[f]) ||
		    value_cmp(&a->hi[f], &b->hi[f]))
			return false;
	}
	return true;
}

static bool cat_fill(struct cat_range *c, const struct expr *i,
		     unsigned int nf)
{
	const struct expr *key = interval_elem(i)->elem.key, *m;
	unsigned int f = 0;

	if (!key || key->kind != EXPR_CONCAT)
		return false;
	list_for_each_entry(m, &key->expressions, list) {
		if (f == nf || interval_key_range(m, &c->lo[f], &c->hi[f]) < 0)
			return false;
		f++;
	}
	c->i = i;
	return f == nf;
}

/* Does @c clash with one of the @n accepted ranges? 1: yes, -1: dup. */
static int cat_clash(const struct cat_range *v, unsigned int n,
		     const struct cat_range *c, unsigned int nf)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (cat_same(&v[k], c, nf))
			return v[k].i->kind == EXPR_MAPPING &&
			       !set_elem_data_equal(v[k].i->pair.right,
					       c->i->pair.right) ? 1 : -1;
		if (cat_inside(&v[k], c->lo, nf) || cat_inside(&v[k], c->hi, nf))
			return 1;
	}
	return 0;
}

int concat_ranges_check(struct eval_ctx *ctx, const struct set *set,
			const struct expr *prior, const struct expr *elems)
{
	unsigned int nf, n = 0, total, k;
	const struct expr *lists[2] = { prior, elems }, *i;
	struct cat_range *v;
	struct value *vals;
	int ret = 0, c;

	if (!(set->flags & SET_F_INTERVAL) || set->key->kind != EXPR_CONCAT)
		return 0;
	nf = list_count(&set->key->expressions);
	total = list_count(&elems->expressions) +
		(prior ? list_count(&prior->expressions) : 0);
	v = calloc(total + 1, sizeof(*v));
	vals = calloc((size_t)(total + 1) * nf * 2, sizeof(*vals));
	if (!v || !vals) {
		ret = -1;
		goto out;
	}
	for (k = 0; k < 2 && ret == 0; k++) {
		if (!lists[k])
			continue;
		list_for_each_entry(i, &lists[k]->expressions, list) {
			v[n].lo = vals + (size_t)n * nf * 2;
			v[n].hi = v[n].lo + nf;
			if (!cat_fill(&v[n], i, nf))
				continue;
			c = cat_clash(v, n, &v[n], nf);
			if (c > 0 && k == 1) {
				ret = erec_error(&ctx->nft->erq,
						 &interval_elem(i)->location,
						 "Could not process rule: File "
						 "exists");
				break;
			}
			if (c == 0)
				n++;
		}
	}
out:
	free(vals);
	free(v);
	return ret;
}
