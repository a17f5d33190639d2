// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbolic interpretation of set lookups, free choices (stateful
 * expressions) and statements with effects (NAT, reject, queue,
 * notrack). Stateful expressions (limit, quota, connlimit, random
 * numbers, sets updated from the packet path) become fresh BDD
 * variables: "equivalent" then holds for every outcome of them. Both
 * sides share the variable of the same expression in the same chain
 * (paired by the expression's dump and its occurrence in the chain).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include "sd_int.h"

static uint32_t u32(struct nftnl_expr *e, uint16_t type)
{
	return sd_attr_u32(e, type);
}

struct occ_ctx {
	const char		*dump;
	struct nftnl_expr	*stop;
	unsigned int		n;
	bool			stopped;
};

static int occ_cb(struct nftnl_expr *e, void *data)
{
	struct occ_ctx *o = data;
	char buf[256];

	if (o->stopped || e == o->stop) {
		o->stopped = true;
		return 0;
	}
	nftnl_expr_snprintf(buf, sizeof(buf), e, NFTNL_OUTPUT_DEFAULT, 0);
	if (!strcmp(buf, o->dump))
		o->n++;
	return 0;
}

/* "family/table/chain/<dump>#n": the pairing key of a free choice. */
static void free_key(struct sd_eval *ev, struct nftnl_expr *e,
		     const char *what, char *key, size_t len)
{
	const struct sd_chain *c = ev->rule->chain;
	struct occ_ctx o = { .stop = e };
	char dump[256];
	unsigned int i;

	nftnl_expr_snprintf(dump, sizeof(dump), e, NFTNL_OUTPUT_DEFAULT, 0);
	o.dump = dump;
	for (i = 0; i < ev->rule->index && i < c->nrules; i++)
		nftnl_expr_foreach(c->rules[i]->nl, occ_cb, &o);
	o.stopped = false;
	nftnl_expr_foreach(ev->rule->nl, occ_cb, &o);
	snprintf(key, len, "%u/%s/%s/%s %s#%u", c->table->family,
		 c->table->name, c->name, what, dump, o.n);
}

int sd_free_bits(struct sd_eval *ev, const char *what, BDD *out,
		 unsigned int nbits)
{
	unsigned int i;
	int sp;

	if (ev->scan) {
		/* noted now, so that free choices get their place in the
		 * order (first, vars.c) */
		sp = sd_space_id(ev->vars, SP_FREE, 0, 0, what);
		if (sp < 0 || sd_space_use(ev->vars, sp, 0, (nbits + 7) / 8) < 0)
			return -ENOMEM;
		for (i = 0; i < nbits; i++)
			out[i] = bddfalse;
		return 0;
	}
	sp = sd_space_id(ev->vars, SP_FREE, 0, 0, what);
	if (sp < 0)
		return sp;
	for (i = 0; i < nbits; i++) {
		int v = sd_var_of(ev->vars, sp, i / 8, i % 8);

		if (v < 0)
			return -ENOMEM;
		out[i] = b_ref(bdd_ithvar(v));
	}
	return 0;
}

/*
 * Whether the rule goes on for one packet through a fresh VM: limits,
 * quotas and connection counts are not reached yet (the inverted
 * "over" forms do not match), a set the packet path fills is empty.
 * Counterexamples prefer these values, so that the VM's replay can
 * follow them (cex.c).
 */
static int fresh_goes_on(struct nftnl_expr *e)
{
	static const struct { const char *name; uint16_t flags; } inv[] = {
		{ "limit",	NFTNL_EXPR_LIMIT_FLAGS },
		{ "quota",	NFTNL_EXPR_QUOTA_FLAGS },
		{ "connlimit",	NFTNL_EXPR_CONNLIMIT_FLAGS },
	};
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	unsigned int i;

	for (i = 0; i < sizeof(inv) / sizeof(inv[0]); i++)
		if (!strcmp(name, inv[i].name))
			return !(u32(e, inv[i].flags) & 1);	/* *_F_INV */
	if (!strcmp(name, "lookup"))
		return !!(u32(e, NFTNL_EXPR_LOOKUP_FLAGS) & NFT_LOOKUP_F_INV);
	return 1;	/* dynset with a nested limit, objref */
}

/* The rule goes on for an unknown subset of the packets. */
int sd_expr_free_choice(struct sd_eval *ev, struct nftnl_expr *e)
{
	char key[400];
	BDD b;
	int sp;

	free_key(ev, e, nftnl_expr_get_str(e, NFTNL_EXPR_NAME), key,
		 sizeof(key));
	if (sd_free_bits(ev, key, &b, 1) < 0)
		return -ENOMEM;
	if (!ev->scan) {
		sp = sd_space_id(ev->vars, SP_FREE, 0, 0, key);
		if (sp >= 0)
			ev->vars->sp[sp].pref = fresh_goes_on(e) ? 2 : 1;
	}
	b_andin(&ev->alive, b);
	b_free(b);
	return 0;
}

/* numgen, hash: an unknown 32-bit value in the register. */
int sd_expr_free_data(struct sd_eval *ev, struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	uint32_t dreg = u32(e, !strcmp(name, "numgen") ?
			    NFTNL_EXPR_NG_DREG : NFTNL_EXPR_HASH_DREG);
	BDD *d = sd_reg_bits(ev, dreg, 4), bits[32];
	char key[400];
	unsigned int i;

	if (!d)
		return -EINVAL;
	free_key(ev, e, name, key, sizeof(key));
	if (sd_free_bits(ev, key, bits, 32) < 0)
		return -ENOMEM;
	for (i = 0; i < 32; i++)
		b_put(&d[i], bits[i]);
	return 0;
}

/* An element update may be refused (full set, nested limit): free. */
int sd_expr_dynset(struct sd_eval *ev, struct nftnl_expr *e)
{
	if (nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_EXPR) ||
	    nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_EXPRESSIONS))
		return sd_expr_free_choice(ev, e);
	return 0;
}

/* Whether the header/option of exthdr @a is in the packet: one bit. */
static BDD exthdr_present(struct sd_eval *ev, uint32_t a)
{
	int psp = sd_space_id(ev->vars, SP_EXTHDR, a, 1, NULL);

	return psp < 0 ? bddfalse : sd_space_bit(ev, psp, 0, 7);
}

/*
 * A TCP option write (tcp option maxseg size set ...), as the kernel
 * does it (nft_exthdr_tcp_set_eval): only where the option is there
 * (its present flag, the byte "exthdr ... present" reads, is 1), and
 * an MSS only ever lowered (the new value below the old one); the
 * rule goes on. The option's bytes are a field like any other, so the
 * written value is compared at the end of the hook.
 */
static int exthdr_write(struct sd_eval *ev, struct nftnl_expr *e,
			uint32_t a)
{
	uint32_t len = u32(e, NFTNL_EXPR_EXTHDR_LEN);
	uint32_t off = u32(e, NFTNL_EXPR_EXTHDR_OFFSET);
	int sp = sd_space_id(ev->vars, SP_EXTHDR, a, 0, NULL);
	BDD *src, nbits[32], obits[32], cond, keep;
	unsigned int i;

	if (u32(e, NFTNL_EXPR_EXTHDR_OP) != NFT_EXTHDR_OP_TCPOPT ||
	    (len != 2 && len != 4))
		return sd_eval_error(ev, "exthdr write of this header is "
				     "not modelled");
	src = sd_reg_bits(ev, u32(e, NFTNL_EXPR_EXTHDR_SREG), len);
	if (sp < 0 || !src || off + len > SD_SPACE_BYTES)
		return sd_eval_error(ev, "exthdr: bad layout");
	for (i = 0; i < len * 8; i++) {
		nbits[i] = b_ref(src[i]);
		obits[i] = sd_space_bit(ev, sp, off + i / 8, i % 8);
	}
	cond = exthdr_present(ev, a);
	if ((a & 0xff) == 2 && len == 2) {	/* TCPOPT_MSS */
		BDD lt = bv_lt(nbits, obits, 16);

		b_andin(&cond, lt);
		b_free(lt);
	}
	if (!ev->scan) {
		keep = b_ref(ev->alive);
		b_andin(&ev->alive, cond);
		sd_space_write(ev, sp, off, nbits, len);
		b_put(&ev->alive, keep);
	} else {
		sd_space_write(ev, sp, off, nbits, len);
	}
	b_free(cond);
	for (i = 0; i < len * 8; i++) {
		b_free(nbits[i]);
		b_free(obits[i]);
	}
	return 0;
}

/*
 * An extension header or TCP option read. Its "present" flag is one
 * bit (the kernel puts 1 or 0 in the register); a read of its bytes
 * goes on only where it is present (the kernel breaks the rule where
 * it is missing), so "size 1400 accept; size != 1400 accept" does not
 * cover a packet without the option.
 */
static int exthdr_load(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t a = u32(e, NFTNL_EXPR_EXTHDR_OP) << 8 |
		     u32(e, NFTNL_EXPR_EXTHDR_TYPE);
	uint32_t dreg = u32(e, NFTNL_EXPR_EXTHDR_DREG);
	uint32_t len = u32(e, NFTNL_EXPR_EXTHDR_LEN);
	uint32_t off = u32(e, NFTNL_EXPR_EXTHDR_OFFSET);
	BDD pres, *d;
	unsigned int i;
	int sp, roff;

	if (nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_SREG))
		return exthdr_write(ev, e, a);
	pres = exthdr_present(ev, a);
	if (u32(e, NFTNL_EXPR_EXTHDR_FLAGS) & NFT_EXTHDR_F_PRESENT) {
		d = sd_reg_bits(ev, dreg, 4);
		if (!d)
			return sd_eval_error(ev, "exthdr: bad layout");
		for (i = 0; i < 32; i++)
			b_put(&d[i], i == 7 ? b_ref(pres) : bddfalse);
		b_free(pres);
		return 0;
	}
	sp = sd_space_id(ev->vars, SP_EXTHDR, a, 0, NULL);
	roff = sd_reg_off(ev, dreg, len);
	if (sp < 0 || roff < 0 || off + len > SD_SPACE_BYTES) {
		b_free(pres);
		return sd_eval_error(ev, "exthdr: bad layout");
	}
	sd_reg_load_space(ev, roff, sp, off, len);
	if (!ev->scan)
		b_andin(&ev->alive, pres);
	b_free(pres);
	return 0;
}

/*
 * fib, rt, socket and exthdr read what the packet alone does not say
 * (routes, sockets, extension headers found by walking): each result
 * is a field of its own, the same on both sides.
 */
int sd_expr_space_load(struct sd_eval *ev, struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	uint32_t dreg, len, off = 0, a, b = 0;
	enum sd_space_kind kind;
	int sp, roff;

	if (!strcmp(name, "fib")) {
		uint32_t res = u32(e, NFTNL_EXPR_FIB_RESULT);

		kind = SP_FIB;
		a = u32(e, NFTNL_EXPR_FIB_FLAGS);
		b = res;
		dreg = u32(e, NFTNL_EXPR_FIB_DREG);
		len = res == NFT_FIB_RESULT_OIFNAME ? 16 : 4;
	} else if (!strcmp(name, "rt")) {
		kind = SP_RT;
		a = u32(e, NFTNL_EXPR_RT_KEY);
		dreg = u32(e, NFTNL_EXPR_RT_DREG);
		len = a == NFT_RT_NEXTHOP6 ? 16 : a == NFT_RT_TCPMSS ? 2 :
		      a == NFT_RT_XFRM ? 1 : 4;
	} else if (!strcmp(name, "socket")) {
		kind = SP_SOCKET;
		a = u32(e, NFTNL_EXPR_SOCKET_KEY);
		dreg = u32(e, NFTNL_EXPR_SOCKET_DREG);
		len = a == NFT_SOCKET_MARK ? 4 : a == NFT_SOCKET_CGROUPV2 ?
		      8 : 1;
	} else {
		return exthdr_load(ev, e);
	}
	sp = sd_space_id(ev->vars, kind, a, b, NULL);
	roff = sd_reg_off(ev, dreg, len);
	if (sp < 0 || roff < 0 || off + len > SD_SPACE_BYTES)
		return sd_eval_error(ev, "%s: bad layout", name);
	sd_reg_load_space(ev, roff, sp, off, len);
	return 0;
}

/* --- sets --- */

struct sort_ctx {
	const struct sd_set	*s;
};

static int elem_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sd_set *s = arg;
	const struct sd_elem *a = &s->elems[*(const unsigned int *)pa];
	const struct sd_elem *b = &s->elems[*(const unsigned int *)pb];

	return memcmp(a->key, b->key, s->key_len);
}

/* Per-field inclusive ranges of a concatenation (pipapo layout). */
static BDD concat_range(const struct sd_set *s, const BDD *x,
			const struct sd_elem *el)
{
	unsigned int f, off = 0;
	BDD r = bddtrue;

	if (!s->nfields)
		return bv_range_const(x, el->key, el->key_end, s->key_len);
	for (f = 0; f < s->nfields && off < s->key_len; f++) {
		unsigned int flen = s->field_len[f];
		BDD c = bv_range_const(x + off * 8, el->key + off,
				       el->key_end + off, flen);

		b_andin(&r, c);
		b_free(c);
		off += (flen + 3) / 4 * 4;
	}
	return r;
}

/* cond[i] for each "start" element i (others bddfalse). */
static int elem_conds(const struct sd_set *s, const BDD *x, BDD *cond)
{
	unsigned int i, n = s->nelems, *ord;
	uint8_t max[SD_KEY_MAX];

	for (i = 0; i < n; i++)
		cond[i] = bddfalse;
	if (!(s->flags & NFT_SET_INTERVAL)) {
		for (i = 0; i < n; i++)
			cond[i] = bv_eq_const(x, s->elems[i].key, s->key_len);
		return 0;
	}
	if (n && s->elems[0].has_end) {
		for (i = 0; i < n; i++)
			cond[i] = concat_range(s, x, &s->elems[i]);
		return 0;
	}
	/* Start elements open [key, next key); an end element closes. */
	ord = malloc((n + 1) * sizeof(*ord));
	if (!ord)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), elem_cmp, (void *)s);
	memset(max, 0xff, sizeof(max));
	for (i = 0; i < n; i++) {
		const struct sd_elem *el = &s->elems[ord[i]];
		BDD lo, hi;

		if (el->flags & NFT_SET_ELEM_INTERVAL_END)
			continue;
		lo = bv_gt_const(x, el->key, s->key_len, true);
		if (i + 1 < n)
			hi = bv_lt_const(x, s->elems[ord[i + 1]].key,
					 s->key_len, false);
		else
			hi = bv_lt_const(x, max, s->key_len, true);
		cond[ord[i]] = b_and(lo, hi);
		b_free(lo);
		b_free(hi);
	}
	free(ord);
	return 0;
}

static int lookup_map(struct sd_eval *ev, const struct sd_set *s,
		      uint32_t dreg, BDD *cond, BDD any)
{
	unsigned int i, j;

	if (dreg == NFT_REG_VERDICT) {
		for (i = 0; i < s->nelems; i++) {
			struct sd_verdict v = { 0 };
			BDD c;

			if (cond[i] == bddfalse || !s->elems[i].has_verdict)
				continue;
			v.code = s->elems[i].verdict;
			v.chain = s->elems[i].chain;
			if (v.code == NF_ACCEPT)
				strcpy(v.key, "accept");
			else if (v.code == NF_DROP)
				strcpy(v.key, "drop");
			c = b_and(ev->alive, cond[i]);
			sd_add_pair(ev, c, &v);
			b_free(c);
		}
		b_put(&ev->alive, bddfalse);
		return 0;
	} else {
		BDD *d = sd_reg_bits(ev, dreg, s->data_len);

		if (!d || s->data_len > SD_KEY_MAX)
			return -EINVAL;
		for (j = 0; j < s->data_len * 8; j++) {
			BDD v = bddfalse;

			for (i = 0; i < s->nelems; i++)
				if ((s->elems[i].data[j / 8] >>
				     (7 - j % 8)) & 1)
					b_orin(&v, cond[i]);
			b_put(&d[j], v);
		}
	}
	b_andin(&ev->alive, any);
	return 0;
}

int sd_expr_lookup(struct sd_eval *ev, struct nftnl_expr *e)
{
	const struct sd_table *t = ev->rule->chain->table;
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET);
	bool has_dreg = nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_DREG);
	const struct sd_set *s;
	BDD *x, *cond, any = bddfalse;
	unsigned int i;
	int ret;

	s = sd_set_find(t, name, u32(e, NFTNL_EXPR_LOOKUP_SET_ID),
			nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_SET_ID));
	if (!s)
		return sd_eval_error(ev, "set %s not found", name);
	x = sd_reg_bits(ev, u32(e, NFTNL_EXPR_LOOKUP_SREG), s->key_len);
	if (!x || s->key_len > SD_KEY_MAX)
		return -EINVAL;
	if (s->dynamic) {
		if (has_dreg)
			return sd_eval_error(ev, "map %s is updated from the "
					     "packet path", name);
		return sd_expr_free_choice(ev, e);
	}
	if (ev->scan)
		return 0;
	cond = malloc((s->nelems + 1) * sizeof(*cond));
	if (!cond)
		return -ENOMEM;
	ret = elem_conds(s, x, cond);
	for (i = 0; ret == 0 && i < s->nelems; i++)
		b_orin(&any, cond[i]);
	if (ret == 0 && has_dreg) {
		ret = lookup_map(ev, s, u32(e, NFTNL_EXPR_LOOKUP_DREG), cond,
				 any);
	} else if (ret == 0) {
		if (u32(e, NFTNL_EXPR_LOOKUP_FLAGS) & NFT_LOOKUP_F_INV)
			b_put(&any, b_not(any));
		b_andin(&ev->alive, any);
	}
	for (i = 0; i < s->nelems; i++)
		b_free(cond[i]);
	b_free(any);
	free(cond);
	return ret;
}

/* --- statements with effects --- */

enum { NAT_TYPE = 0, NAT_FLAGS = 1, NAT_ADDR_MIN = 5, NAT_ADDR_MAX = 21,
       NAT_PROTO_MIN = 37, NAT_PROTO_MAX = 39, NAT_LEN = 41 };

static void put_const(BDD *bits, unsigned int off, const uint8_t *d,
		      unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len * 8; i++)
		bits[off * 8 + i] = (d[i / 8] >> (7 - i % 8)) & 1 ? bddtrue
								  : bddfalse;
}

static int put_reg(struct sd_eval *ev, BDD *bits, unsigned int off,
		   struct nftnl_expr *e, uint16_t reg, uint16_t fallback,
		   unsigned int len)
{
	BDD *src;
	unsigned int i;

	if (!nftnl_expr_is_set(e, reg))
		reg = fallback;
	if (!reg || !nftnl_expr_is_set(e, reg))
		return 0;
	src = sd_reg_bits(ev, nftnl_expr_get_u32(e, reg), len);
	if (!src)
		return -EINVAL;
	for (i = 0; i < len * 8; i++)
		bits[off * 8 + i] = src[i];
	return 0;
}

/* The effect written, and the verdict: accept. */
static int nat_finish(struct sd_eval *ev, BDD *bits, uint8_t type,
		      uint32_t flags)
{
	struct sd_verdict v = { .code = NF_ACCEPT };
	int sp;

	put_const(bits, NAT_TYPE, &type, 1);
	put_const(bits, NAT_FLAGS, (const uint8_t *)&flags, 4);
	sp = sd_space_id(ev->vars, SP_NAT, 0, 0, NULL);
	if (sp < 0)
		return -ENOMEM;
	sd_space_write(ev, sp, 0, bits, NAT_LEN);
	strcpy(v.key, "accept");
	sd_add_pair(ev, ev->alive, &v);
	b_put(&ev->alive, bddfalse);
	return 0;
}

/*
 * NAT is an effect (type, flags, address and port range written to the
 * "nat" field, compared at the end of the hook) and a verdict: accept.
 */
static int stmt_nat(struct sd_eval *ev, struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	BDD bits[NAT_LEN * 8];
	uint8_t type, z[NAT_LEN] = { 0 };
	uint32_t flags, alen;

	put_const(bits, 0, z, NAT_LEN);
	if (!strcmp(name, "nat")) {
		type = u32(e, NFTNL_EXPR_NAT_TYPE) == NFT_NAT_SNAT ? 1 : 2;
		/* the kernel adds these flags itself (nft_nat_init):
		 * with or without them in the message, the same NAT */
		flags = u32(e, NFTNL_EXPR_NAT_FLAGS);
		if (nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_ADDR_MIN))
			flags |= NF_NAT_RANGE_MAP_IPS;
		if (nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MIN))
			flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
		alen = u32(e, NFTNL_EXPR_NAT_FAMILY) == NFPROTO_IPV6 ? 16 : 4;
		if (put_reg(ev, bits, NAT_ADDR_MIN, e,
			    NFTNL_EXPR_NAT_REG_ADDR_MIN, 0, alen) < 0 ||
		    put_reg(ev, bits, NAT_ADDR_MAX, e,
			    NFTNL_EXPR_NAT_REG_ADDR_MAX,
			    NFTNL_EXPR_NAT_REG_ADDR_MIN, alen) < 0 ||
		    put_reg(ev, bits, NAT_PROTO_MIN, e,
			    NFTNL_EXPR_NAT_REG_PROTO_MIN, 0, 2) < 0 ||
		    put_reg(ev, bits, NAT_PROTO_MAX, e,
			    NFTNL_EXPR_NAT_REG_PROTO_MAX,
			    NFTNL_EXPR_NAT_REG_PROTO_MIN, 2) < 0)
			return -EINVAL;
	} else {
		bool masq = !strcmp(name, "masq");
		uint16_t pmin = masq ? NFTNL_EXPR_MASQ_REG_PROTO_MIN
				     : NFTNL_EXPR_REDIR_REG_PROTO_MIN;
		uint16_t pmax = masq ? NFTNL_EXPR_MASQ_REG_PROTO_MAX
				     : NFTNL_EXPR_REDIR_REG_PROTO_MAX;

		type = masq ? 3 : 4;
		flags = u32(e, masq ? NFTNL_EXPR_MASQ_FLAGS
				    : NFTNL_EXPR_REDIR_FLAGS);
		if (put_reg(ev, bits, NAT_PROTO_MIN, e, pmin, 0, 2) < 0 ||
		    put_reg(ev, bits, NAT_PROTO_MAX, e, pmax, pmin, 2) < 0)
			return -EINVAL;
	}
	return nat_finish(ev, bits, type, flags);
}

/*
 * An xt NAT target (xt.c): the same effect from constants. @type as
 * above (1 snat, 2 dnat, 3 masquerade, 4 redirect); addresses of @alen
 * bytes, ports in network order.
 */
int sd_nat_const(struct sd_eval *ev, uint8_t type, uint32_t flags,
		 const uint8_t *amin, const uint8_t *amax, unsigned int alen,
		 const uint8_t *pmin, const uint8_t *pmax)
{
	BDD bits[NAT_LEN * 8];
	uint8_t z[NAT_LEN] = { 0 };

	put_const(bits, 0, z, NAT_LEN);
	if (amin) {
		put_const(bits, NAT_ADDR_MIN, amin, alen);
		put_const(bits, NAT_ADDR_MAX, amax, alen);
	}
	if (pmin) {
		put_const(bits, NAT_PROTO_MIN, pmin, 2);
		put_const(bits, NAT_PROTO_MAX, pmax, 2);
	}
	return nat_finish(ev, bits, type, flags);
}

static int stmt_reject(struct sd_eval *ev, struct nftnl_expr *e)
{
	char key[64];

	/* the code is a u8 attribute: u32() reads it by its size */
	snprintf(key, sizeof(key), "reject type %u code %u",
		 u32(e, NFTNL_EXPR_REJECT_TYPE),
		 u32(e, NFTNL_EXPR_REJECT_CODE));
	sd_terminal(ev, key);
	return 0;
}

static int stmt_queue(struct sd_eval *ev, struct nftnl_expr *e)
{
	char key[64];

	if (nftnl_expr_is_set(e, NFTNL_EXPR_QUEUE_SREG_QNUM))
		return sd_eval_error(ev, "queue to a register number is not "
				     "modelled");
	snprintf(key, sizeof(key), "queue num %u total %u flags 0x%x",
		 u32(e, NFTNL_EXPR_QUEUE_NUM), u32(e, NFTNL_EXPR_QUEUE_TOTAL),
		 u32(e, NFTNL_EXPR_QUEUE_FLAGS));
	sd_terminal(ev, key);
	return 0;
}

/* notrack: an effect (the packet leaves untracked). */
static int stmt_notrack(struct sd_eval *ev, struct nftnl_expr *e)
{
	static const uint8_t one = 1;
	BDD bits[8];
	int sp = sd_space_id(ev->vars, SP_EFFECT, 1, 0, NULL);

	if (sp < 0)
		return -ENOMEM;
	put_const(bits, 0, &one, 1);
	sd_space_write(ev, sp, 0, bits, 1);
	return 0;
}

static int stmt_objref(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t type = u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE);

	switch (type) {
	case NFT_OBJECT_COUNTER:
		return 0;
	case NFT_OBJECT_QUOTA:
	case NFT_OBJECT_LIMIT:
	case NFT_OBJECT_CONNLIMIT:
		return sd_expr_free_choice(ev, e);
	}
	return sd_eval_error(ev, "object reference of type %u is not "
			     "modelled", type);
}

const struct sd_expr_ops sd_stmt_ops[] = {
	{ "nat",	stmt_nat },
	{ "masq",	stmt_nat },
	{ "redir",	stmt_nat },
	{ "reject",	stmt_reject },
	{ "queue",	stmt_queue },
	{ "notrack",	stmt_notrack },
	{ "objref",	stmt_objref },
	{ "match",	sd_expr_xt },	/* xt.c */
	{ "target",	sd_expr_xt },
	{ NULL },
};
