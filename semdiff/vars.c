// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Field/variable allocation. Everything a ruleset reads or writes is a
 * byte of a "space": a payload base, a meta key, a ct key, ... Both
 * sides are scanned first; then every used byte gets 8 BDD variables,
 * MSB first, spaces in a fixed order (ct, network header, transport
 * header, link layer, meta, the rest) and bytes ascending, so that a field
 * (ip saddr = nh bytes 12..15) is a contiguous run of variables: prefix
 * and range matches are then linear-size BDDs. Free choices (stateful
 * expressions) are added afterwards, at the end of the order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include "sd_int.h"

int sd_space_id(struct sd_vars *v, enum sd_space_kind kind, uint32_t a,
		uint32_t b, const char *label)
{
	struct sd_space *s;
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		s = &v->sp[i];
		if (s->kind == kind && s->a == a && s->b == b &&
		    (!label || (s->label && !strcmp(s->label, label))))
			return i;
	}
	if (v->n == v->cap) {
		unsigned int cap = v->cap ? v->cap * 2 : 32;
		struct sd_space *n = realloc(v->sp, cap * sizeof(*n));

		if (!n) {
			v->oom = true;
			return -ENOMEM;
		}
		v->sp = n;
		v->cap = cap;
	}
	s = &v->sp[v->n];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->a = a;
	s->b = b;
	s->label = label ? strdup(label) : NULL;
	return v->n++;
}

static int alloc_byte_vars(struct sd_vars *v, struct sd_space *s,
			   unsigned int off)
{
	if (!s->var) {
		unsigned int i;

		s->var = malloc(SD_SPACE_BYTES * sizeof(int));
		if (!s->var)
			return -ENOMEM;
		for (i = 0; i < SD_SPACE_BYTES; i++)
			s->var[i] = -1;
	}
	if (s->var[off] >= 0)
		return 0;
	if (bdd_extvarnum(8) < 0)
		return -ENOMEM;
	s->var[off] = v->nvars;
	v->nvars += 8;
	return 0;
}

int sd_space_use(struct sd_vars *v, int id, unsigned int off,
		 unsigned int len)
{
	struct sd_space *s = &v->sp[id];
	unsigned int i;

	if (off + len > SD_SPACE_BYTES)
		return -ERANGE;
	for (i = off; i < off + len; i++) {
		s->used[i] = true;
		if (v->frozen && alloc_byte_vars(v, s, i) < 0)
			return -ENOMEM;
	}
	if (off + len > s->nbytes)
		s->nbytes = off + len;
	return 0;
}

static int kind_rank(const struct sd_space *s)
{
	static const int payload_rank[] = {
		[NFT_PAYLOAD_LL_HEADER]		= 2,
		[NFT_PAYLOAD_NETWORK_HEADER]	= 0,
		[NFT_PAYLOAD_TRANSPORT_HEADER]	= 1,
		[NFT_PAYLOAD_INNER_HEADER]	= 3,
	};

	/*
	 * ct state first: rulesets test it first ("established,related
	 * accept"), so it splits every later set at the root instead of
	 * doubling every path at the bottom (TUM: -8%).
	 */
	if (s->kind == SP_FREE)
		return -2;
	if (s->kind == SP_CT)
		return -1;
	if (s->kind == SP_PAYLOAD)
		return s->a < 4 ? payload_rank[s->a] : 4;
	return 4 + s->kind;
}

static int space_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sd_space *sp = arg;
	const struct sd_space *a = &sp[*(const int *)pa];
	const struct sd_space *b = &sp[*(const int *)pb];

	if (kind_rank(a) != kind_rank(b))
		return kind_rank(a) - kind_rank(b);
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return 0;
}

int sd_vars_freeze(struct sd_vars *v)
{
	unsigned int i, j;
	int *order;

	order = malloc((v->n + 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < v->n; i++)
		order[i] = i;
	qsort_r(order, v->n, sizeof(*order), space_cmp, v->sp);
	v->frozen = true;
	for (i = 0; i < v->n; i++) {
		struct sd_space *s = &v->sp[order[i]];

		for (j = 0; j < s->nbytes; j++)
			if (s->used[j] && alloc_byte_vars(v, s, j) < 0) {
				free(order);
				return -ENOMEM;
			}
	}
	free(order);
	return 0;
}

int sd_var_of(struct sd_vars *v, int id, unsigned int off, unsigned int bit)
{
	struct sd_space *s = &v->sp[id];

	if (off >= SD_SPACE_BYTES)
		return -1;
	if ((!s->var || s->var[off] < 0) && sd_space_use(v, id, off, 1) < 0)
		return -1;
	if (!s->var || s->var[off] < 0)
		return -1;
	return s->var[off] + bit;
}

void sd_vars_fini(struct sd_vars *v)
{
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		free(v->sp[i].var);
		free(v->sp[i].label);
	}
	free(v->sp);
	memset(v, 0, sizeof(*v));
}
