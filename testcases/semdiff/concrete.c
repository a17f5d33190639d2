// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tiny concrete evaluator of compiled rulesets, the independent judge
 * of the semdiff tests: it runs ONE packet (the "raw" lines of a
 * counterexample printed by `ipt2nft diff --raw`) through both sides'
 * VM code byte by byte (no BDDs) and prints each side's verdict and
 * whether the packet leaves with different fields.
 *
 * usage: concrete OLD NEW CEX-FILE     (first counterexample of the file)
 *        concrete --any OLD NEW FILE    (every packet of the file)
 * exit: 0 verdicts/effects differ, 1 they agree, 2 trouble
 *
 * Only the loading (xlate + nftc -> libnftnl model) is shared with
 * libsemdiff; every expression is interpreted here.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include "sd_int.h"

#define MAXSP 128

struct space {
	int		kind;
	unsigned int	a, b;
	char		label[400];
	uint8_t		d[SD_SPACE_BYTES];
};

struct pkt {
	struct space	sp[MAXSP];
	unsigned int	n;
	unsigned int	family, hook;
};

struct run {
	struct pkt		p;	/* a copy: writes change it */
	const struct sd_rule	*rule;
	uint8_t			reg[SD_REG_BYTES];
	int			verdict;
	const char		*chain;
	char			key[96];
	bool			trouble;
};

static struct space *space(struct pkt *p, int kind, unsigned int a,
			   unsigned int b, const char *label)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->sp[i].kind == kind && p->sp[i].a == a &&
		    p->sp[i].b == b &&
		    (!label || !strcmp(p->sp[i].label, label)))
			return &p->sp[i];
	if (p->n == MAXSP)
		return NULL;
	memset(&p->sp[p->n], 0, sizeof(p->sp[0]));
	p->sp[p->n].kind = kind;
	p->sp[p->n].a = a;
	p->sp[p->n].b = b;
	snprintf(p->sp[p->n].label, sizeof(p->sp[0].label), "%s",
		 label ? label : "-");
	return &p->sp[p->n++];
}

#define MAXPKT 2048

/* Every "raw-hook" block of @path: one packet each. */
static int read_cex(const char *path, struct pkt *pk, unsigned int *npk)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	struct pkt *p = NULL;

	*npk = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " "), *hex, *lab;
		int kind;
		unsigned int a, b, i, n;
		struct space *sp;

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(s, "raw-hook ", 9)) {
			if (*npk == MAXPKT)
				break;
			p = &pk[(*npk)++];
			memset(p, 0, sizeof(*p));
			sscanf(s + 9, "%u %u", &p->family, &p->hook);
			continue;
		}
		if (strncmp(s, "raw ", 4) || !p)
			continue;
		hex = strrchr(s, ' ');
		*hex++ = 0;
		if (sscanf(s + 4, "%d %u %u %n", &kind, &a, &b, &n) < 3)
			continue;
		lab = s + 4 + n;
		sp = space(p, kind, a, b, strcmp(lab, "-") ? lab : "-");
		for (i = 0; sp && hex[2 * i] && hex[2 * i + 1] &&
		     i < SD_SPACE_BYTES; i++)
			sscanf(hex + 2 * i, "%2hhx", &sp->d[i]);
	}
	fclose(f);
	return *npk ? 0 : -1;
}

/* by the attribute's size: u8 ones (ct direction, exthdr type, reject
 * code) read 0 through nftnl_expr_get_u32 */
static uint32_t u32(struct nftnl_expr *e, uint16_t t)
{
	uint32_t len = 0;
	const void *d = nftnl_expr_is_set(e, t) ? nftnl_expr_get(e, t, &len)
						: NULL;

	if (!d)
		return 0;
	return len == 1 ? *(const uint8_t *)d : len == 2 ?
	       *(const uint16_t *)d : len == 4 ? *(const uint32_t *)d : 0;
}

static uint8_t *reg(struct run *r, uint32_t n, unsigned int len)
{
	unsigned int off;

	if (n >= NFT_REG_1 && n <= NFT_REG_4)
		off = (n - NFT_REG_1) * 16;
	else if (n >= NFT_REG32_00 && n <= NFT_REG32_15)
		off = (n - NFT_REG32_00) * 4;
	else
		off = SD_REG_BYTES;
	if (off + len > SD_REG_BYTES) {
		r->trouble = true;
		return r->reg;
	}
	return r->reg + off;
}

static void load(struct run *r, uint32_t dreg, struct space *sp,
		 unsigned int off, unsigned int len)
{
	uint8_t *d = reg(r, dreg, (len + 3) / 4 * 4);

	memset(d, 0, (len + 3) / 4 * 4);
	if (sp && off + len <= SD_SPACE_BYTES)
		memcpy(d, sp->d + off, len);
}

/* meta l4proto of IPv4 is the protocol field (the kernel's pkt->tprot) */
static struct space *meta_sp(struct run *r, uint32_t key, unsigned int *off)
{
	*off = 0;
	if (key == NFT_META_L4PROTO && r->p.family == NFPROTO_IPV4) {
		*off = 9;
		return space(&r->p, SP_PAYLOAD, 1, 0, NULL);
	}
	return space(&r->p, SP_META, key, 0, NULL);
}

/* The free choice's pairing key, as libsemdiff names it. */
struct occ { const char *dump; struct nftnl_expr *stop; unsigned n; bool s; };

static int occ_cb(struct nftnl_expr *e, void *data)
{
	struct occ *o = data;
	char buf[256];

	if (o->s || e == o->stop) {
		o->s = true;
		return 0;
	}
	nftnl_expr_snprintf(buf, sizeof(buf), e, NFTNL_OUTPUT_DEFAULT, 0);
	o->n += !strcmp(buf, o->dump);
	return 0;
}

static bool free_choice(struct run *r, struct nftnl_expr *e, const char *what)
{
	const struct sd_chain *c = r->rule->chain;
	struct occ o = { .stop = e };
	char dump[256], key[400];
	unsigned int i;

	nftnl_expr_snprintf(dump, sizeof(dump), e, NFTNL_OUTPUT_DEFAULT, 0);
	o.dump = dump;
	for (i = 0; i < r->rule->index; i++)
		nftnl_expr_foreach(c->rules[i]->nl, occ_cb, &o);
	o.s = false;
	nftnl_expr_foreach(r->rule->nl, occ_cb, &o);
	snprintf(key, sizeof(key), "%u/%s/%s/%s %s#%u", c->table->family,
		 c->table->name, c->name, what, dump, o.n);
	return space(&r->p, SP_FREE, 0, 0, key)->d[0] & 0x80;
}

static bool in_set(const struct sd_set *s, const uint8_t *k, int *idx)
{
	unsigned int i, best = s->nelems, f, off;

	for (i = 0; i < s->nelems; i++) {
		const struct sd_elem *el = &s->elems[i];

		if (!(s->flags & NFT_SET_INTERVAL)) {
			if (!memcmp(el->key, k, s->key_len))
				goto hit;
		} else if (el->has_end) {
			bool ok = true;

			for (f = 0, off = 0; f < (s->nfields ? s->nfields : 1);
			     f++) {
				unsigned int l = s->nfields ? s->field_len[f]
							    : s->key_len;

				ok &= memcmp(k + off, el->key + off, l) >= 0 &&
				      memcmp(k + off, el->key_end + off, l) <= 0;
				off += (l + 3) / 4 * 4;
			}
			if (ok)
				goto hit;
		} else if (memcmp(el->key, k, s->key_len) <= 0 &&
			   (best == s->nelems ||
			    memcmp(el->key, s->elems[best].key,
				   s->key_len) > 0)) {
			best = i;	/* greatest element <= k */
		}
		continue;
hit:
		*idx = i;
		return true;
	}
	if (best < s->nelems &&
	    !(s->elems[best].flags & NFT_SET_ELEM_INTERVAL_END)) {
		*idx = best;
		return true;
	}
	return false;
}

static bool lookup(struct run *r, struct nftnl_expr *e)
{
	const struct sd_set *s = sd_set_find(r->rule->chain->table,
		nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET),
		u32(e, NFTNL_EXPR_LOOKUP_SET_ID),
		nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_SET_ID));
	bool hit;
	int i = -1;

	if (!s) {
		r->trouble = true;
		return false;
	}
	if (s->dynamic)
		return free_choice(r, e, "lookup");
	hit = in_set(s, reg(r, u32(e, NFTNL_EXPR_LOOKUP_SREG), s->key_len),
		     &i);
	if (nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_DREG) && hit) {
		uint32_t d = u32(e, NFTNL_EXPR_LOOKUP_DREG);

		if (d == NFT_REG_VERDICT) {
			r->verdict = s->elems[i].verdict;
			r->chain = s->elems[i].chain;
		} else {
			memcpy(reg(r, d, s->data_len), s->elems[i].data,
			       s->data_len);
		}
		return true;
	}
	if (u32(e, NFTNL_EXPR_LOOKUP_FLAGS) & NFT_LOOKUP_F_INV)
		hit = !hit;
	return hit;
}

/* One expression: false when the rule stops (no match, or a verdict). */
static bool expr(struct run *r, struct nftnl_expr *e)
{
	const char *n = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	uint32_t len, l2;
	unsigned int off, i;
	const uint8_t *d, *d2;
	uint8_t *x, tmp[SD_REG_BYTES];
	int c;

	if (!strcmp(n, "payload")) {
		struct space *sp = space(&r->p, SP_PAYLOAD,
					 u32(e, NFTNL_EXPR_PAYLOAD_BASE), 0,
					 NULL);

		off = u32(e, NFTNL_EXPR_PAYLOAD_OFFSET);
		len = u32(e, NFTNL_EXPR_PAYLOAD_LEN);
		if (nftnl_expr_is_set(e, NFTNL_EXPR_PAYLOAD_SREG))
			memcpy(sp->d + off, reg(r, u32(e,
				NFTNL_EXPR_PAYLOAD_SREG), len), len);
		else
			load(r, u32(e, NFTNL_EXPR_PAYLOAD_DREG), sp, off, len);
	} else if (!strcmp(n, "exthdr")) {
		/* as the kernel: a missing header/option breaks a read,
		 * "present" reads 1/0, a TCP option write changes a present
		 * option only and an MSS only downwards */
		unsigned int a = u32(e, NFTNL_EXPR_EXTHDR_OP) << 8 |
				 u32(e, NFTNL_EXPR_EXTHDR_TYPE);
		struct space *val = space(&r->p, SP_EXTHDR, a, 0, NULL);
		bool present = space(&r->p, SP_EXTHDR, a, 1, NULL)->d[0];

		off = u32(e, NFTNL_EXPR_EXTHDR_OFFSET);
		len = u32(e, NFTNL_EXPR_EXTHDR_LEN);
		if (nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_SREG)) {
			const uint8_t *nv = reg(r, u32(e,
					NFTNL_EXPR_EXTHDR_SREG), len);

			if (present && off + len <= SD_SPACE_BYTES &&
			    ((a & 0xff) != 2 || len != 2 ||
			     memcmp(nv, val->d + off, 2) < 0))
				memcpy(val->d + off, nv, len);
		} else if (u32(e, NFTNL_EXPR_EXTHDR_FLAGS) &
			   NFT_EXTHDR_F_PRESENT) {
			x = reg(r, u32(e, NFTNL_EXPR_EXTHDR_DREG), 4);
			memset(x, 0, 4);
			x[0] = present;
		} else if (!present) {
			return false;
		} else {
			load(r, u32(e, NFTNL_EXPR_EXTHDR_DREG), val, off, len);
		}
	} else if (!strcmp(n, "meta") || !strcmp(n, "ct")) {
		bool meta = n[0] == 'm';
		uint32_t key = u32(e, meta ? NFTNL_EXPR_META_KEY
					   : NFTNL_EXPR_CT_KEY);
		const struct sd_meta_key *k = meta ? sd_meta_key(key) :
					      sd_ct_key(key, r->p.family);
		struct space *sp = meta ? meta_sp(r, key, &off) :
			space(&r->p, SP_CT, key,
			      nftnl_expr_is_set(e, NFTNL_EXPR_CT_DIR) ?
			      u32(e, NFTNL_EXPR_CT_DIR) + 1 : 0, NULL);
		uint16_t sreg = meta ? NFTNL_EXPR_META_SREG : NFTNL_EXPR_CT_SREG;

		/* the kernel's ct SRC_IP/SRC_IP6 read the tuple address
		 * NFT_CT_SRC does (likewise DST); one field here too */
		if (!meta && (key == NFT_CT_SRC_IP || key == NFT_CT_SRC_IP6 ||
			      key == NFT_CT_DST_IP || key == NFT_CT_DST_IP6)) {
			sp = space(&r->p, SP_CT, key == NFT_CT_SRC_IP ||
				   key == NFT_CT_SRC_IP6 ? NFT_CT_SRC :
				   NFT_CT_DST, sp->b, NULL);
		}

		if (!meta)
			off = 0;
		if (!k) {
			r->trouble = true;
			return false;
		}
		if (nftnl_expr_is_set(e, sreg))
			memcpy(sp->d + off, reg(r, u32(e, sreg), k->len),
			       k->len);
		else
			load(r, u32(e, meta ? NFTNL_EXPR_META_DREG :
				    NFTNL_EXPR_CT_DREG), sp, off, k->len);
	} else if (!strcmp(n, "cmp")) {
		d = nftnl_expr_get(e, NFTNL_EXPR_CMP_DATA, &len);
		c = memcmp(reg(r, u32(e, NFTNL_EXPR_CMP_SREG), len), d, len);
		switch (u32(e, NFTNL_EXPR_CMP_OP)) {
		case NFT_CMP_EQ: return c == 0;
		case NFT_CMP_NEQ: return c != 0;
		case NFT_CMP_LT: return c < 0;
		case NFT_CMP_LTE: return c <= 0;
		case NFT_CMP_GT: return c > 0;
		case NFT_CMP_GTE: return c >= 0;
		}
	} else if (!strcmp(n, "range")) {
		d = nftnl_expr_get(e, NFTNL_EXPR_RANGE_FROM_DATA, &len);
		d2 = nftnl_expr_get(e, NFTNL_EXPR_RANGE_TO_DATA, &l2);
		x = reg(r, u32(e, NFTNL_EXPR_RANGE_SREG), len);
		c = memcmp(x, d, len) >= 0 && memcmp(x, d2, len) <= 0;
		return u32(e, NFTNL_EXPR_RANGE_OP) == NFT_RANGE_EQ ? c : !c;
	} else if (!strcmp(n, "bitwise")) {
		len = u32(e, NFTNL_EXPR_BITWISE_LEN);
		x = reg(r, u32(e, NFTNL_EXPR_BITWISE_SREG), len);
		if (u32(e, NFTNL_EXPR_BITWISE_OP) == NFT_BITWISE_BOOL) {
			d = nftnl_expr_get(e, NFTNL_EXPR_BITWISE_MASK, &l2);
			d2 = nftnl_expr_get(e, NFTNL_EXPR_BITWISE_XOR, &l2);
			for (i = 0; i < len; i++)
				tmp[i] = (x[i] & d[i]) ^ d2[i];
		} else {
			uint32_t sh = *(const uint32_t *)nftnl_expr_get(e,
					NFTNL_EXPR_BITWISE_DATA, &l2), w;

			for (i = 0; i + 4 <= len; i += 4) {
				memcpy(&w, x + i, 4);
				w = u32(e, NFTNL_EXPR_BITWISE_OP) ==
				    NFT_BITWISE_LSHIFT ? w << sh : w >> sh;
				memcpy(tmp + i, &w, 4);
			}
		}
		memcpy(reg(r, u32(e, NFTNL_EXPR_BITWISE_DREG), len), tmp, len);
	} else if (!strcmp(n, "byteorder")) {
		uint32_t size = u32(e, NFTNL_EXPR_BYTEORDER_SIZE);

		len = u32(e, NFTNL_EXPR_BYTEORDER_LEN);
		x = reg(r, u32(e, NFTNL_EXPR_BYTEORDER_SREG), len);
		for (i = 0; i < len; i++)
			tmp[i] = x[i / size * size + size - 1 - i % size];
		memcpy(reg(r, u32(e, NFTNL_EXPR_BYTEORDER_DREG), len), tmp,
		       len);
	} else if (!strcmp(n, "immediate")) {
		if (u32(e, NFTNL_EXPR_IMM_DREG) == NFT_REG_VERDICT) {
			r->verdict = (int)u32(e, NFTNL_EXPR_IMM_VERDICT);
			r->chain = nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) ?
				nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN) :
				NULL;
			return false;
		}
		d = nftnl_expr_get(e, NFTNL_EXPR_IMM_DATA, &len);
		x = reg(r, u32(e, NFTNL_EXPR_IMM_DREG), (len + 3) / 4 * 4);
		memset(x, 0, (len + 3) / 4 * 4);
		memcpy(x, d, len);
	} else if (!strcmp(n, "lookup")) {
		return lookup(r, e) && r->verdict == NFT_CONTINUE;
	} else if (!strcmp(n, "limit") || !strcmp(n, "quota") ||
		   !strcmp(n, "connlimit")) {
		return free_choice(r, e, n);
	} else if (!strcmp(n, "dynset")) {
		if (nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_EXPR) ||
		    nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_EXPRESSIONS))
			return free_choice(r, e, n);
	} else if (!strcmp(n, "reject") || !strcmp(n, "queue")) {
		r->verdict = NF_DROP;
		snprintf(r->key, sizeof(r->key), "%s %u %u", n,
			 u32(e, NFTNL_EXPR_REJECT_TYPE),
			 u32(e, NFTNL_EXPR_REJECT_CODE));
		return false;
	} else if (!strcmp(n, "nat") || !strcmp(n, "masq") ||
		   !strcmp(n, "redir")) {
		char dump[256];
		struct space *sp = space(&r->p, SP_NAT, 0, 0, NULL);

		/* the NAT mapping, as text with register contents */
		nftnl_expr_snprintf(dump, sizeof(dump), e,
				    NFTNL_OUTPUT_DEFAULT, 0);
		snprintf((char *)sp->d, 320, "%s %08x%08x %08x%08x", dump,
			 *(uint32_t *)reg(r, NFT_REG_1, 4),
			 *(uint32_t *)reg(r, NFT_REG_2, 4),
			 *(uint32_t *)reg(r, NFT_REG32_01, 4),
			 *(uint32_t *)reg(r, NFT_REG32_02, 4));
		r->verdict = NF_ACCEPT;
		return false;
	} else if (!strcmp(n, "notrack")) {
		space(&r->p, SP_EFFECT, 1, 0, NULL)->d[0] = 1;
	} else if (strcmp(n, "counter") && strcmp(n, "log")) {
		fprintf(stderr, "concrete: expression %s not supported\n", n);
		r->trouble = true;
		return false;
	}
	return true;
}

static bool run_rule(struct run *r, const struct sd_rule *rule)
{
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(rule->nl);
	struct nftnl_expr *e;
	bool match = true;

	r->rule = rule;
	r->verdict = NFT_CONTINUE;
	r->chain = NULL;
	r->key[0] = 0;
	while (match && (e = nftnl_expr_iter_next(it)))
		match = expr(r, e);
	nftnl_expr_iter_destroy(it);
	return r->verdict != NFT_CONTINUE;
}

/* Returns the verdict; NFT_RETURN/NFT_CONTINUE for falling off. */
static int run_chain(struct run *r, const struct sd_chain *c, int depth)
{
	unsigned int i;

	if (depth > 32) {
		r->trouble = true;
		return NF_DROP;
	}
	for (i = 0; i < c->nrules; i++) {
		const struct sd_chain *to;
		int v, kind;

		if (!run_rule(r, c->rules[i]))
			continue;
		v = r->verdict;
		if (v == NFT_RETURN)
			return NFT_RETURN;
		if (v != NFT_JUMP && v != NFT_GOTO)
			return v;
		to = sd_chain_find(c->table, r->chain);
		if (!to) {
			r->trouble = true;
			return NF_DROP;
		}
		kind = v;	/* the callee's rules overwrite r->verdict */
		v = run_chain(r, to, depth + 1);
		if (kind == NFT_GOTO && (v == NFT_RETURN || v == NFT_CONTINUE))
			return NFT_RETURN;
		if (v != NFT_RETURN && v != NFT_CONTINUE)
			return v;
	}
	return NFT_CONTINUE;
}

/* Every base chain of the hook in priority order; accept goes on. */
static void run_hook(struct run *r, const struct sd_ruleset *rs)
{
	const struct sd_chain *done[256];
	unsigned int nd = 0;

	strcpy(r->key, "accept");
	for (;;) {
		const struct sd_chain *best = NULL;
		unsigned int i, j, k;
		int v;

		for (i = 0; i < rs->ntables; i++)
			for (j = 0; j < rs->tables[i]->nchains; j++) {
				const struct sd_chain *c =
					rs->tables[i]->chains[j];
				uint8_t f = c->table->family;
				bool seen = false;

				if (!c->base || c->hook != r->p.hook ||
				    (f != r->p.family && f != NFPROTO_INET))
					continue;
				for (k = 0; k < nd; k++)
					seen |= done[k] == c;
				if (!seen && (!best || c->prio < best->prio))
					best = c;
			}
		if (!best || nd == 256)
			return;
		done[nd++] = best;
		r->key[0] = 0;
		v = run_chain(r, best, 0);
		if (v == NFT_RETURN || v == NFT_CONTINUE)
			v = best->policy;
		if (v == NF_ACCEPT) {
			strcpy(r->key, "accept");
			continue;
		}
		if (!r->key[0] && v == NF_DROP)
			strcpy(r->key, "drop");
		else if (!r->key[0])
			snprintf(r->key, sizeof(r->key), "verdict %d", v);
		return;
	}
}

/* 0: they differ, 1: they agree, 2: trouble */
static int judge(struct sd_ruleset **rs, const struct pkt *p, bool print)
{
	static struct run run[2];
	int i;

	for (i = 0; i < 2; i++) {
		memset(&run[i], 0, sizeof(run[i]));
		run[i].p = *p;
		run_hook(&run[i], rs[i]);
		if (run[i].trouble)
			return 2;
	}
	if (strcmp(run[0].key, run[1].key)) {
		if (print)
			printf("old %s\nnew %s\n", run[0].key, run[1].key);
		return 0;
	}
	if (!strcmp(run[0].key, "accept") &&
	    memcmp(run[0].p.sp, run[1].p.sp, sizeof(p->sp))) {
		if (print)
			printf("old %s\nnew %s\nfields differ\n",
			       run[0].key, run[1].key);
		return 0;
	}
	return 1;
}

/*
 * Default: judge the first packet (a counterexample). --any: judge
 * every packet of the file, exit 0 when any of them differs.
 */
int main(int argc, char **argv)
{
	static struct pkt pk[MAXPKT];
	struct sd_ruleset *rs[2];
	bool any = argc == 5 && !strcmp(argv[1], "--any");
	unsigned int npk, k;
	char err[4096];
	int i, ret = 1;

	if (any) {
		argv++;
		argc--;
	}
	if (argc != 4 || read_cex(argv[3], pk, &npk) < 0) {
		fprintf(stderr, "usage: concrete [--any] OLD NEW CEX "
			"(with raw lines)\n");
		return 2;
	}
	for (i = 0; i < 2; i++) {
		rs[i] = sd_ruleset_alloc(argv[1 + i]);
		if (!rs[i] || sd_load(rs[i], argv[1 + i], SD_KIND_AUTO, 0, err,
				      sizeof(err)) < 0) {
			fprintf(stderr, "concrete: %s\n", err);
			return 2;
		}
	}
	for (k = 0; k < (any ? npk : 1); k++) {
		ret = judge(rs, &pk[k], true);
		if (ret != 1) {
			if (any)
				printf("packet %u\n", k + 1);
			break;
		}
	}
	sd_ruleset_free(rs[0]);
	sd_ruleset_free(rs[1]);
	return ret;
}
