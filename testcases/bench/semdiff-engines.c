// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Engine measurement for semdiff (not run by make check): the core
 * question "do two first-match rule lists give every packet the same
 * verdict?" answered with BuDDy BDDs and with the Z3 SMT solver, on N
 * random rules (fixed seed) over ip saddr/daddr prefixes, protocol and
 * destination port, against the same list with two adjacent rules of
 * the same verdict swapped (equivalent) and with one verdict flipped
 * (different).
 *
 * build: cc -O2 -o semdiff-engines semdiff-engines.c -lbdd -lz3
 * usage: semdiff-engines N
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <bdd.h>
#include <z3.h>

struct rule {
	uint32_t	saddr, daddr;
	int		splen, dplen;
	int		proto;		/* 0: any */
	int		dport;		/* -1: any */
	int		accept;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);	/* CPU: the machine is shared */
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void gen(struct rule *r, int n, unsigned int seed)
{
	uint32_t nets[64];
	int i;

	srand(seed);
	for (i = 0; i < 64; i++)
		nets[i] = (uint32_t)rand() << 16;
	for (i = 0; i < n; i++) {
		r[i].saddr = nets[rand() % 64] | (rand() & 0xffff);
		r[i].splen = 20 + rand() % 13;
		r[i].daddr = nets[rand() % 64] | (rand() & 0xffff);
		r[i].dplen = rand() % 3 ? 0 : 20 + rand() % 13;
		r[i].proto = rand() % 3 ? (rand() % 2 ? 6 : 17) : 0;
		r[i].dport = r[i].proto && rand() % 4 ? rand() % 2048 : -1;
		r[i].accept = rand() % 2;
	}
}

/* --- BuDDy: vars saddr 0-31, daddr 32-63, proto 64-71, dport 72-87 */
static BDD bdd_prefix(int base, uint32_t v, int plen, int width)
{
	BDD r = bddtrue;
	int i;

	for (i = plen - 1; i >= 0; i--) {
		int bit = (v >> (width - 1 - i)) & 1;
		BDD lit = bit ? bdd_ithvar(base + i) : bdd_nithvar(base + i);

		r = bdd_addref(bdd_and(lit, r));
		bdd_delref(r);	/* keep one reference below */
		bdd_addref(r);
		bdd_delref(r);
	}
	return bdd_addref(r);
}

static BDD bdd_match(const struct rule *r)
{
	BDD m = bdd_prefix(0, r->saddr, r->splen, 32), t;

	if (r->dplen) {
		t = bdd_prefix(32, r->daddr, r->dplen, 32);
		m = bdd_addref(bdd_and(m, t));
	}
	if (r->proto) {
		t = bdd_prefix(64, r->proto, 8, 8);
		m = bdd_addref(bdd_and(m, t));
	}
	if (r->dport >= 0) {
		t = bdd_prefix(72, r->dport, 16, 16);
		m = bdd_addref(bdd_and(m, t));
	}
	return m;
}

static BDD bdd_accepts(const struct rule *r, int n)
{
	BDD rem = bddtrue, acc = bddfalse;
	int i;

	for (i = 0; i < n; i++) {
		BDD m = bdd_match(&r[i]);
		BDD hit = bdd_addref(bdd_and(rem, m));

		if (r[i].accept)
			acc = bdd_addref(bdd_or(acc, hit));
		rem = bdd_addref(bdd_apply(rem, m, bddop_diff));
	}
	return acc;	/* policy drop */
}

/* --- Z3 */
static Z3_ast z3_prefix(Z3_context c, Z3_ast x, uint32_t v, int plen,
			int width)
{
	Z3_sort s;

	if (!plen)
		return Z3_mk_true(c);
	s = Z3_mk_bv_sort(c, plen);
	return Z3_mk_eq(c, Z3_mk_extract(c, width - 1, width - plen, x),
			Z3_mk_int64(c, (int64_t)(v >> (width - plen)), s));
}

static Z3_ast z3_accepts(Z3_context c, Z3_ast *f, const struct rule *r,
			 int n)
{
	Z3_ast res = Z3_mk_false(c);
	int i;

	for (i = n - 1; i >= 0; i--) {
		Z3_ast m[4] = {
			z3_prefix(c, f[0], r[i].saddr, r[i].splen, 32),
			z3_prefix(c, f[1], r[i].daddr, r[i].dplen, 32),
			r[i].proto ? z3_prefix(c, f[2], r[i].proto, 8, 8)
				   : Z3_mk_true(c),
			r[i].dport >= 0 ? z3_prefix(c, f[3], r[i].dport, 16, 16)
					: Z3_mk_true(c),
		};

		res = Z3_mk_ite(c, Z3_mk_and(c, 4, m),
				r[i].accept ? Z3_mk_true(c) : Z3_mk_false(c),
				res);
	}
	return res;
}

static int z3_equal(const struct rule *a, const struct rule *b, int n)
{
	Z3_config cfg = Z3_mk_config();
	Z3_context c = Z3_mk_context(cfg);
	Z3_solver s = Z3_mk_solver(c);
	Z3_ast f[4];
	int ret;

	Z3_solver_inc_ref(c, s);
	f[0] = Z3_mk_const(c, Z3_mk_string_symbol(c, "saddr"),
			   Z3_mk_bv_sort(c, 32));
	f[1] = Z3_mk_const(c, Z3_mk_string_symbol(c, "daddr"),
			   Z3_mk_bv_sort(c, 32));
	f[2] = Z3_mk_const(c, Z3_mk_string_symbol(c, "proto"),
			   Z3_mk_bv_sort(c, 8));
	f[3] = Z3_mk_const(c, Z3_mk_string_symbol(c, "dport"),
			   Z3_mk_bv_sort(c, 16));
	Z3_solver_assert(c, s, Z3_mk_xor(c, z3_accepts(c, f, a, n),
					  z3_accepts(c, f, b, n)));
	ret = Z3_solver_check(c, s) == Z3_L_FALSE;
	Z3_solver_dec_ref(c, s);
	Z3_del_context(c);
	Z3_del_config(cfg);
	return ret;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i, swap = -1;
	struct rule *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	struct rule *d = calloc(n, sizeof(*d)), t;
	double t0;
	BDD x, y, z;

	gen(a, n, 42);
	for (i = 0; i < n; i++)
		b[i] = d[i] = a[i];
	for (i = n / 2; i + 1 < n && swap < 0; i++)
		if (a[i].accept == a[i + 1].accept)
			swap = i;
	t = b[swap];
	b[swap] = b[swap + 1];
	b[swap + 1] = t;
	d[n / 3].accept = !d[n / 3].accept;

	t0 = now();
	bdd_init(1 << 22, 1 << 20);
	bdd_gbc_hook(NULL);
	bdd_setvarnum(88);
	x = bdd_accepts(a, n);
	y = bdd_accepts(b, n);
	z = bdd_accepts(d, n);
	printf("bdd  %5d rules: swapped %s, flipped %s, %.3f s, %d nodes\n",
	       n, x == y ? "equivalent" : "DIFFERENT",
	       x == z ? "equivalent" : "different", now() - t0,
	       bdd_nodecount(x));
	bdd_done();
	t0 = now();
	i = z3_equal(a, b, n);
	printf("z3   %5d rules: swapped %s, ", n, i ? "equivalent" : "DIFFERENT");
	i = z3_equal(a, d, n);
	printf("flipped %s, %.3f s\n", i ? "equivalent" : "different",
	       now() - t0);
	return 0;
}
