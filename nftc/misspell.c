// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suggestions for misspelled names, as stock nft makes them.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "misspell.h"

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned int misspell_distance(const char *cand, const char *want)
{
	size_t la = strlen(cand), lb = strlen(want), i, j;
	unsigned int *d, r, sub;

	if (!lb)
		return la;
	d = calloc((la + 1) * (lb + 1), sizeof(*d));
	if (!d)
		return ~0u;
	/* stock's layout: row stride lb, so a row's last entry is the
	 * next row's first one */
#define D(i, j)	d[(i) * lb + (j)]
	for (i = 0; i <= la; i++)
		D(i, 0) = i;
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			sub = cand[i] != want[j];
			D(i, j) = min3(D(i - 1, j) + 1, D(i, j - 1) + 1,
				       D(i - 1, j - 1) + sub);
			if (i > 1 && j > 1 && cand[i] == want[j - 1] &&
			    cand[i - 1] == want[j] &&
			    D(i - 2, j - 2) + sub < D(i, j))
				D(i, j) = D(i - 2, j - 2) + sub;
		}
	}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

bool misspell_better(const char *cand, const char *want, unsigned int *best)
{
	size_t la, lb, max, min;
	unsigned int thr, dist;

	if (!cand || !want)
		return false;
	la = strlen(cand);
	lb = strlen(want);
	max = la > lb ? la : lb;
	min = la > lb ? lb : la;
	if (max <= 1)
		return false;
	if (max - min <= 1)
		thr = (max + 2) / 3 ? (unsigned int)(max + 2) / 3 : 1;
	else
		thr = (unsigned int)(max + 4) / 3;
	dist = misspell_distance(cand, want);
	if (dist > thr || dist >= *best)
		return false;
	*best = dist;
	return true;
}
