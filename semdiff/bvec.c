// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bit vectors of BDDs. A register or field is a run of bits in memory
 * order: bit 0 is the most significant bit of byte 0, as memcmp() (and
 * so nft_cmp/nft_range) orders them.
 */
#include "sd_int.h"

BDD b_and(BDD a, BDD b) { return bdd_addref(bdd_and(a, b)); }
BDD b_or(BDD a, BDD b) { return bdd_addref(bdd_or(a, b)); }
BDD b_not(BDD a) { return bdd_addref(bdd_not(a)); }
BDD b_xor(BDD a, BDD b) { return bdd_addref(bdd_xor(a, b)); }
BDD b_ite(BDD c, BDD t, BDD e) { return bdd_addref(bdd_ite(c, t, e)); }

void b_andin(BDD *dst, BDD b)
{
	b_put(dst, b_and(*dst, b));
}

void b_orin(BDD *dst, BDD b)
{
	b_put(dst, b_or(*dst, b));
}

static int cbit(const uint8_t *c, unsigned int i)
{
	return (c[i / 8] >> (7 - i % 8)) & 1;
}

BDD bv_eq_const(const BDD *x, const uint8_t *c, unsigned int nbytes)
{
	BDD r = bddtrue;
	int i;

	/* From the last bit up: the result then grows from the bottom. */
	for (i = nbytes * 8 - 1; i >= 0; i--) {
		BDD lit = cbit(c, i) ? x[i] : bdd_not(x[i]);

		bdd_addref(lit);
		b_put(&r, b_and(lit, r));
		bdd_delref(lit);
	}
	return r;
}

BDD bv_eq(const BDD *x, const BDD *y, unsigned int nbits)
{
	BDD r = bddtrue;
	int i;

	for (i = nbits - 1; i >= 0; i--) {
		BDD d = b_ref(bdd_biimp(x[i], y[i]));

		b_put(&r, b_and(d, r));
		b_free(d);
	}
	return r;
}

/*
 * x < c (or <=): from the least significant bit up, res is "x < c on
 * the bits below"; a 1 in c where x has 0 decides for "less".
 */
BDD bv_lt_const(const BDD *x, const uint8_t *c, unsigned int nbytes,
		bool or_equal)
{
	BDD r = or_equal ? bddtrue : bddfalse;
	int i;

	for (i = nbytes * 8 - 1; i >= 0; i--) {
		BDD nx = b_not(x[i]);

		if (cbit(c, i))
			b_put(&r, b_or(nx, r));
		else
			b_put(&r, b_and(nx, r));
		b_free(nx);
	}
	return r;
}

BDD bv_gt_const(const BDD *x, const uint8_t *c, unsigned int nbytes,
		bool or_equal)
{
	BDD r = or_equal ? bddtrue : bddfalse;
	int i;

	for (i = nbytes * 8 - 1; i >= 0; i--) {
		if (cbit(c, i))
			b_put(&r, b_and(x[i], r));
		else
			b_put(&r, b_or(x[i], r));
	}
	return r;
}

BDD bv_range_const(const BDD *x, const uint8_t *lo, const uint8_t *hi,
		   unsigned int nbytes)
{
	BDD a = bv_gt_const(x, lo, nbytes, true);
	BDD b = bv_lt_const(x, hi, nbytes, true);
	BDD r = b_and(a, b);

	b_free(a);
	b_free(b);
	return r;
}

/* x < y, both variable: a bit where they differ decides, else below. */
BDD bv_lt(const BDD *x, const BDD *y, unsigned int nbits)
{
	BDD r = bddfalse;
	int i;

	for (i = nbits - 1; i >= 0; i--) {
		BDD a = b_and(y[i], r), o = b_or(y[i], r);

		b_put(&r, b_ite(x[i], a, o));
		b_free(a);
		b_free(o);
	}
	return r;
}
