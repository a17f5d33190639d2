// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The side-by-side view: per chain, old rules on the left and new on
 * the right, aligned by a longest common subsequence of their texts
 * (counters left out); rules between two aligned pairs are paired as
 * changed ("|") and the rest marked old-only ("<") or new-only (">").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sd_int.h"

#define LCS_MAX_CELLS	(4u << 20)

/* Rule text without "counter" / "counter packets N bytes M". */
static void normalize(const char *in, char *out, size_t len)
{
	size_t o = 0;

	while (*in && o + 1 < len) {
		if (!strncmp(in, "counter", 7) && (in[7] == ' ' || !in[7])) {
			in += 7;
			if (!strncmp(in, " packets ", 9)) {
				in += 9;
				in += strspn(in, "0123456789");
				if (!strncmp(in, " bytes ", 7)) {
					in += 7;
					in += strspn(in, "0123456789");
				}
			}
			while (*in == ' ')
				in++;
			continue;
		}
		out[o++] = *in++;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

struct col {
	char		**t;
	unsigned int	n;
};

static int col_of(const struct sd_chain *c, struct col *col)
{
	unsigned int i;

	col->n = c ? c->nrules : 0;
	col->t = calloc(col->n + 1, sizeof(char *));
	if (!col->t)
		return -1;
	for (i = 0; i < col->n; i++) {
		size_t l = strlen(c->rules[i]->text) + 1;

		col->t[i] = malloc(l);
		if (!col->t[i])
			return -1;
		normalize(c->rules[i]->text, col->t[i], l);
	}
	return 0;
}

static void col_free(struct col *col)
{
	unsigned int i;

	for (i = 0; i < col->n && col->t; i++)
		free(col->t[i]);
	free(col->t);
}

static void cell(FILE *f, const char *s, unsigned int w)
{
	unsigned int l = s ? strlen(s) : 0;

	if (l > w)
		fprintf(f, "%.*s~", w - 1, s);
	else
		fprintf(f, "%s%*s", s ? s : "", (int)(w - l), "");
}

static void row(FILE *f, const char *a, const char *b, char mark,
		unsigned int w)
{
	fputs("  ", f);
	cell(f, a, w);
	fprintf(f, " %c ", mark);
	if (b)
		fputs(b, f);
	fputc('\n', f);
}

/* match[i] = j: old rule i is new rule j (LCS), else -1. */
static void lcs(const struct col *a, const struct col *b, int *match)
{
	unsigned int i, j, n = a->n, m = b->n;
	uint32_t *L;

	for (i = 0; i < n; i++)
		match[i] = -1;
	if ((size_t)(n + 1) * (m + 1) > LCS_MAX_CELLS ||
	    !(L = calloc((size_t)(n + 1) * (m + 1), sizeof(*L)))) {
		/* too big: align by position where the texts agree */
		for (i = 0; i < n && i < m; i++)
			if (!strcmp(a->t[i], b->t[i]))
				match[i] = i;
		return;
	}
#define LL(x, y) L[(size_t)(x) * (m + 1) + (y)]
	for (i = n; i-- > 0;)
		for (j = m; j-- > 0;)
			LL(i, j) = !strcmp(a->t[i], b->t[j]) ?
				   LL(i + 1, j + 1) + 1 :
				   (LL(i + 1, j) > LL(i, j + 1) ?
				    LL(i + 1, j) : LL(i, j + 1));
	for (i = 0, j = 0; i < n && j < m;) {
		if (!strcmp(a->t[i], b->t[j])) {
			match[i++] = j++;
		} else if (LL(i + 1, j) >= LL(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef LL
	free(L);
}

/* Print the rows of one chain; returns the number of unequal rows. */
static unsigned int chain_rows(FILE *f, const struct col *a,
			       const struct col *b, const int *match,
			       unsigned int w, bool print)
{
	unsigned int i = 0, j = 0, diff = 0;

	while (i < a->n || j < b->n) {
		unsigned int ni = i, nj;

		while (ni < a->n && match[ni] < 0)
			ni++;
		nj = ni < a->n ? (unsigned int)match[ni] : b->n;
		/* gap: a[i..ni) against b[j..nj) */
		for (; i < ni || j < nj; diff++) {
			const char *l = i < ni ? a->t[i] : NULL;
			const char *r = j < nj ? b->t[j] : NULL;

			if (print)
				row(f, l, r, l && r ? '|' : l ? '<' : '>', w);
			i += i < ni;
			j += j < nj;
		}
		if (ni < a->n) {
			if (print)
				row(f, a->t[ni], b->t[nj], ' ', w);
			i = ni + 1;
			j = nj + 1;
		}
	}
	return diff;
}

static void view_chain(FILE *f, const struct sd_table *ta,
		       const struct sd_chain *ca, const struct sd_chain *cb,
		       bool only_diff, unsigned int w)
{
	const struct sd_chain *c = ca ? ca : cb;
	struct col a = { 0 }, b = { 0 };
	int *match;

	if (col_of(ca, &a) < 0 || col_of(cb, &b) < 0)
		goto out;
	match = malloc((a.n + 1) * sizeof(*match));
	if (!match)
		goto out;
	lcs(&a, &b, match);
	if (!only_diff || chain_rows(f, &a, &b, match, w, false)) {
		fprintf(f, "chain %s %s %s%s%s:\n", sd_family_name(ta->family),
			ta->name, c->name, ca ? "" : " (new only)",
			cb ? "" : " (old only)");
		chain_rows(f, &a, &b, match, w, true);
	}
	free(match);
out:
	col_free(&a);
	col_free(&b);
}

void sd_view_print(FILE *f, const struct sd_ruleset *ra,
		   const struct sd_ruleset *rb, bool only_diff,
		   unsigned int width)
{
	unsigned int i, j, w = width ? width : 60;

	for (i = 0; i < ra->ntables; i++) {
		const struct sd_table *ta = ra->tables[i];
		const struct sd_table *tb = NULL;

		for (j = 0; j < rb->ntables; j++)
			if (rb->tables[j]->family == ta->family &&
			    !strcmp(rb->tables[j]->name, ta->name))
				tb = rb->tables[j];
		for (j = 0; j < ta->nchains; j++)
			view_chain(f, ta, ta->chains[j], tb ?
				   sd_chain_find(tb, ta->chains[j]->name) :
				   NULL, only_diff, w);
		for (j = 0; tb && j < tb->nchains; j++)
			if (!sd_chain_find(ta, tb->chains[j]->name))
				view_chain(f, tb, NULL, tb->chains[j],
					   only_diff, w);
	}
	for (i = 0; i < rb->ntables; i++) {
		const struct sd_table *tb = rb->tables[i];
		bool found = false;

		for (j = 0; j < ra->ntables; j++)
			if (ra->tables[j]->family == tb->family &&
			    !strcmp(ra->tables[j]->name, tb->name))
				found = true;
		for (j = 0; !found && j < tb->nchains; j++)
			view_chain(f, tb, NULL, tb->chains[j], only_diff, w);
	}
}
