// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbolic interpretation of VM expressions: one function per
 * expression kind, found through one table (sd_expr_ops_find). A
 * register is 8 BDDs per byte; a load puts the BDD variables (or the
 * current, possibly rewritten, value) of a field into it; cmp, range
 * and lookup turn registers into conditions that narrow the packets for
 * which the rule still runs (ev->alive).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include "sd_int.h"

int sd_eval_error(struct sd_eval *ev, const char *fmt, ...)
{
	const struct sd_rule *r = ev->rule;
	size_t n = 0;
	va_list ap;

	if (r) {
		char where[256];

		sd_rule_where(where, sizeof(where), ev->rs, r);
		n = snprintf(ev->err, ev->errlen, "%s: in chain %s: `%s': ",
			     where, r->chain->name, r->text);
	}
	if (n < ev->errlen) {
		va_start(ap, fmt);
		vsnprintf(ev->err + n, ev->errlen - n, fmt, ap);
		va_end(ap);
	}
	ev->error = -EOPNOTSUPP;
	return -EOPNOTSUPP;
}

/* Byte offset of register @reg in the register file, -1 if bad. */
int sd_reg_off(struct sd_eval *ev, uint32_t reg, unsigned int len)
{
	int off;

	if (reg >= NFT_REG_1 && reg <= NFT_REG_4)
		off = (reg - NFT_REG_1) * 16;
	else if (reg >= NFT_REG32_00 && reg <= NFT_REG32_15)
		off = (reg - NFT_REG32_00) * 4;
	else
		return sd_eval_error(ev, "bad register %u", reg), -1;
	if (off + len > SD_REG_BYTES)
		return sd_eval_error(ev, "register %u overflows", reg), -1;
	return off;
}

BDD *sd_reg_bits(struct sd_eval *ev, uint32_t reg, unsigned int len)
{
	int off = sd_reg_off(ev, reg, len);

	return off < 0 ? NULL : &ev->regs[off * 8];
}

static void reg_put(struct sd_eval *ev, unsigned int bit, BDD v)
{
	b_put(&ev->regs[bit], v);
}

/* Zero the rest of the last 32-bit word, as the kernel does. */
static void reg_pad(struct sd_eval *ev, int off, unsigned int len)
{
	unsigned int i;

	for (i = off + len; i % 4 && i < SD_REG_BYTES; i++) {
		unsigned int b;

		for (b = 0; b < 8; b++)
			reg_put(ev, i * 8 + b, bddfalse);
	}
}

void sd_reg_set_const(struct sd_eval *ev, int off, const uint8_t *d,
		      unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len * 8; i++)
		reg_put(ev, off * 8 + i,
			(d[i / 8] >> (7 - i % 8)) & 1 ? bddtrue : bddfalse);
	reg_pad(ev, off, len);
}

BDD sd_space_bit(struct sd_eval *ev, int space, unsigned int soff,
		 unsigned int bit)
{
	int var;

	if (ev->scan) {
		sd_space_use(ev->vars, space, soff, 1);
		return bddfalse;
	}
	if (space < (int)ev->ncur && ev->cur[space] &&
	    ev->cur[space][soff * 8 + bit] != -1)
		return b_ref(ev->cur[space][soff * 8 + bit]);
	var = sd_var_of(ev->vars, space, soff, bit);
	return var < 0 ? bddfalse : b_ref(bdd_ithvar(var));
}

void sd_reg_load_space(struct sd_eval *ev, int off, int space,
		       unsigned int soff, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len * 8; i++)
		reg_put(ev, off * 8 + i,
			sd_space_bit(ev, space, soff + i / 8, i % 8));
	reg_pad(ev, off, len);
}

static BDD *cur_of(struct sd_eval *ev, int space)
{
	unsigned int i;

	if (space >= (int)ev->ncur) {
		unsigned int n = space + 16;
		BDD **p = realloc(ev->cur, n * sizeof(*p));

		if (!p)
			return NULL;
		for (i = ev->ncur; i < n; i++)
			p[i] = NULL;
		ev->cur = p;
		ev->ncur = n;
	}
	if (!ev->cur[space]) {
		ev->cur[space] = malloc(SD_SPACE_BYTES * 8 * sizeof(BDD));
		if (!ev->cur[space])
			return NULL;
		for (i = 0; i < SD_SPACE_BYTES * 8; i++)
			ev->cur[space][i] = -1;
	}
	return ev->cur[space];
}

/* Packets still alive get @bits in the field; the others keep theirs. */
void sd_space_write(struct sd_eval *ev, int space, unsigned int soff,
		    const BDD *bits, unsigned int len)
{
	unsigned int i;
	BDD *cur, when;

	if (ev->scan) {
		sd_space_use(ev->vars, space, soff, len);
		return;
	}
	cur = cur_of(ev, space);
	if (!cur || soff + len > SD_SPACE_BYTES) {
		ev->error = -ENOMEM;
		return;
	}
	when = b_and(ev->alive, ev->in);
	for (i = 0; i < len * 8; i++) {
		BDD old = sd_space_bit(ev, space, soff + i / 8, i % 8);
		BDD n = b_ite(when, bits[i], old);

		b_free(old);
		if (cur[soff * 8 + i] != -1)
			b_free(cur[soff * 8 + i]);
		cur[soff * 8 + i] = n;
	}
	b_free(when);
}

void sd_add_pair(struct sd_eval *ev, BDD cond, const struct sd_verdict *v)
{
	struct sd_pair *p;

	if (cond == bddfalse || ev->scan)
		return;
	if (ev->npairs == ev->pcap) {
		unsigned int cap = ev->pcap ? ev->pcap * 2 : 8;

		p = realloc(ev->pairs, cap * sizeof(*p));
		if (!p) {
			ev->error = -ENOMEM;
			return;
		}
		ev->pairs = p;
		ev->pcap = cap;
	}
	p = &ev->pairs[ev->npairs++];
	p->cond = b_ref(cond);
	p->v = *v;
}

/* A terminal verdict other than accept/drop (reject, queue, ...). */
void sd_terminal(struct sd_eval *ev, const char *key)
{
	struct sd_verdict v = { .code = NF_DROP };

	snprintf(v.key, sizeof(v.key), "%s", key);
	sd_add_pair(ev, ev->alive, &v);
	b_put(&ev->alive, bddfalse);
}

static const void *attr(struct nftnl_expr *e, uint16_t type, uint32_t *len)
{
	*len = 0;
	if (!nftnl_expr_is_set(e, type))
		return NULL;
	return nftnl_expr_get(e, type, len);
}

static uint32_t u32(struct nftnl_expr *e, uint16_t type)
{
	return sd_attr_u32(e, type);
}

static int ex_payload(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t base = u32(e, NFTNL_EXPR_PAYLOAD_BASE);
	uint32_t off = u32(e, NFTNL_EXPR_PAYLOAD_OFFSET);
	uint32_t len = u32(e, NFTNL_EXPR_PAYLOAD_LEN);
	int sp = sd_space_id(ev->vars, SP_PAYLOAD, base, 0, NULL);
	int roff;

	if (sp < 0 || off + len > SD_SPACE_BYTES)
		return sd_eval_error(ev, "payload @%u,%u,%u out of range",
				     base, off, len);
	if (nftnl_expr_is_set(e, NFTNL_EXPR_PAYLOAD_SREG)) {
		BDD *src = sd_reg_bits(ev, u32(e, NFTNL_EXPR_PAYLOAD_SREG),
				       len);

		if (!src)
			return -EINVAL;
		sd_space_write(ev, sp, off, src, len);
		return 0;
	}
	roff = sd_reg_off(ev, u32(e, NFTNL_EXPR_PAYLOAD_DREG), len);
	if (roff < 0)
		return -EINVAL;
	sd_reg_load_space(ev, roff, sp, off, len);
	return 0;
}

/* meta l4proto of an IPv4 packet is its protocol field. */
static int meta_space(struct sd_eval *ev, uint32_t key, unsigned int *soff)
{
	*soff = 0;
	if (key == NFT_META_L4PROTO && ev->family == NFPROTO_IPV4) {
		*soff = 9;
		return sd_space_id(ev->vars, SP_PAYLOAD,
				   NFT_PAYLOAD_NETWORK_HEADER, 0, NULL);
	}
	return sd_space_id(ev->vars, SP_META, key, 0, NULL);
}

static int ex_meta(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t key = u32(e, NFTNL_EXPR_META_KEY);
	const struct sd_meta_key *mk = sd_meta_key(key);
	unsigned int soff;
	int sp, roff;

	if (!mk)
		return sd_eval_error(ev, "meta key %u is not modelled", key);
	sp = meta_space(ev, key, &soff);
	if (sp < 0)
		return -ENOMEM;
	if (nftnl_expr_is_set(e, NFTNL_EXPR_META_SREG)) {
		BDD *src = sd_reg_bits(ev, u32(e, NFTNL_EXPR_META_SREG),
				       mk->len);

		if (!src)
			return -EINVAL;
		sd_space_write(ev, sp, soff, src, mk->len);
		return 0;
	}
	roff = sd_reg_off(ev, u32(e, NFTNL_EXPR_META_DREG), mk->len);
	if (roff < 0)
		return -EINVAL;
	sd_reg_load_space(ev, roff, sp, soff, mk->len);
	return 0;
}

/* The packets that have a conntrack entry: ct state est/rel/new. */
static BDD ct_tracked(struct sd_eval *ev)
{
	static const uint32_t st[] = { 2, 4, 8 };
	int sp = sd_space_id(ev->vars, SP_CT, NFT_CT_STATE, 0, NULL);
	BDD bits[32], r = bddfalse;
	unsigned int i;

	if (sp < 0)
		return bddfalse;
	for (i = 0; i < 32; i++)
		bits[i] = sd_space_bit(ev, sp, i / 8, i % 8);
	for (i = 0; i < 3; i++) {
		BDD e = bv_eq_const(bits, (const uint8_t *)&st[i], 4);

		b_orin(&r, e);
		b_free(e);
	}
	for (i = 0; i < 32; i++)
		b_free(bits[i]);
	return r;
}

static int ex_ct(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t key = u32(e, NFTNL_EXPR_CT_KEY);
	uint32_t dir = nftnl_expr_is_set(e, NFTNL_EXPR_CT_DIR) ?
		       u32(e, NFTNL_EXPR_CT_DIR) + 1 : 0;
	const struct sd_meta_key *ck = sd_ct_key(key, ev->family);
	int sp, roff;

	if (!ck)
		return sd_eval_error(ev, "ct key %u is not modelled", key);
	/* "ct original ip saddr" and "ct original saddr" read the same
	 * tuple address (an IPv4 one in its first 4 bytes): one field */
	if (key == NFT_CT_SRC_IP || key == NFT_CT_SRC_IP6)
		key = NFT_CT_SRC;
	else if (key == NFT_CT_DST_IP || key == NFT_CT_DST_IP6)
		key = NFT_CT_DST;
	sp = sd_space_id(ev->vars, SP_CT, key, dir, NULL);
	if (sp < 0)
		return -ENOMEM;
	if (nftnl_expr_is_set(e, NFTNL_EXPR_CT_SREG)) {
		BDD *src = sd_reg_bits(ev, u32(e, NFTNL_EXPR_CT_SREG),
				       ck->len);

		if (!src)
			return -EINVAL;
		sd_space_write(ev, sp, 0, src, ck->len);
		return 0;
	}
	roff = sd_reg_off(ev, u32(e, NFTNL_EXPR_CT_DREG), ck->len);
	if (roff < 0)
		return -EINVAL;
	sd_reg_load_space(ev, roff, sp, 0, ck->len);
	/* every key but the state needs a conntrack entry (established,
	 * related, new): without one the rule stops (NFT_BREAK) */
	if (key != NFT_CT_STATE) {
		BDD has = ct_tracked(ev);

		b_andin(&ev->alive, has);
		b_free(has);
	}
	return 0;
}

static int ex_cmp(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t len, op = u32(e, NFTNL_EXPR_CMP_OP);
	const uint8_t *d = attr(e, NFTNL_EXPR_CMP_DATA, &len);
	BDD *x = sd_reg_bits(ev, u32(e, NFTNL_EXPR_CMP_SREG), len);
	BDD c;

	if (!x || !d)
		return x ? sd_eval_error(ev, "cmp without data") : -EINVAL;
	switch (op) {
	case NFT_CMP_EQ:
	case NFT_CMP_NEQ:
		c = bv_eq_const(x, d, len);
		if (op == NFT_CMP_NEQ)
			b_put(&c, b_not(c));
		break;
	case NFT_CMP_LT:
	case NFT_CMP_LTE:
		c = bv_lt_const(x, d, len, op == NFT_CMP_LTE);
		break;
	case NFT_CMP_GT:
	case NFT_CMP_GTE:
		c = bv_gt_const(x, d, len, op == NFT_CMP_GTE);
		break;
	default:
		return sd_eval_error(ev, "cmp op %u is not modelled", op);
	}
	b_andin(&ev->alive, c);
	b_free(c);
	return 0;
}

static int ex_range(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t flen, tlen, op = u32(e, NFTNL_EXPR_RANGE_OP);
	const uint8_t *from = attr(e, NFTNL_EXPR_RANGE_FROM_DATA, &flen);
	const uint8_t *to = attr(e, NFTNL_EXPR_RANGE_TO_DATA, &tlen);
	BDD *x = sd_reg_bits(ev, u32(e, NFTNL_EXPR_RANGE_SREG), flen);
	BDD c;

	if (!x || !from || !to || flen != tlen)
		return x ? sd_eval_error(ev, "malformed range") : -EINVAL;
	c = bv_range_const(x, from, to, flen);
	if (op == NFT_RANGE_NEQ)
		b_put(&c, b_not(c));
	b_andin(&ev->alive, c);
	b_free(c);
	return 0;
}

/* (x & mask) ^ xor per bit, or a shift of 32-bit host-order words. */
static int ex_bitwise(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t len = u32(e, NFTNL_EXPR_BITWISE_LEN), mlen, xlen, dlen;
	uint32_t op = u32(e, NFTNL_EXPR_BITWISE_OP);
	const uint8_t *m = attr(e, NFTNL_EXPR_BITWISE_MASK, &mlen);
	const uint8_t *x = attr(e, NFTNL_EXPR_BITWISE_XOR, &xlen);
	const uint8_t *d = attr(e, NFTNL_EXPR_BITWISE_DATA, &dlen);
	BDD *src = sd_reg_bits(ev, u32(e, NFTNL_EXPR_BITWISE_SREG), len);
	int doff = sd_reg_off(ev, u32(e, NFTNL_EXPR_BITWISE_DREG), len);
	BDD tmp[SD_REG_BITS];
	unsigned int i;

	if (!src || doff < 0)
		return -EINVAL;
	if (op == NFT_BITWISE_BOOL) {
		if (!m || !x || mlen < len || xlen < len)
			return sd_eval_error(ev, "malformed bitwise");
		for (i = 0; i < len * 8; i++) {
			int mb = (m[i / 8] >> (7 - i % 8)) & 1;
			int xb = (x[i / 8] >> (7 - i % 8)) & 1;

			if (!mb)
				tmp[i] = xb ? bddtrue : bddfalse;
			else
				tmp[i] = b_ref(xb ? bdd_not(src[i]) : src[i]);
		}
	} else if (op == NFT_BITWISE_LSHIFT || op == NFT_BITWISE_RSHIFT) {
		uint32_t sh = d && dlen >= 4 ? *(const uint32_t *)d : 0;

		for (i = 0; i < len * 8; i++) {
			/* value bit k of the word: byte k/8, LSB first */
			unsigned int w = i / 32 * 32, k;
			int from;

			k = (i % 32) / 8 * 8 + 7 - i % 8;
			from = op == NFT_BITWISE_LSHIFT ? (int)k - (int)sh
							: (int)(k + sh);
			tmp[i] = from < 0 || from > 31 ? bddfalse :
				 b_ref(src[w + from / 8 * 8 + 7 - from % 8]);
		}
	} else {
		return sd_eval_error(ev, "bitwise op %u is not modelled", op);
	}
	for (i = 0; i < len * 8; i++)
		reg_put(ev, doff * 8 + i, tmp[i]);
	reg_pad(ev, doff, len);
	return 0;
}

static int ex_byteorder(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t len = u32(e, NFTNL_EXPR_BYTEORDER_LEN);
	uint32_t size = u32(e, NFTNL_EXPR_BYTEORDER_SIZE);
	BDD *src = sd_reg_bits(ev, u32(e, NFTNL_EXPR_BYTEORDER_SREG), len);
	int doff = sd_reg_off(ev, u32(e, NFTNL_EXPR_BYTEORDER_DREG), len);
	BDD tmp[SD_REG_BITS];
	unsigned int i;

	if (!src || doff < 0)
		return -EINVAL;
	if (size != 2 && size != 4 && size != 8)
		return sd_eval_error(ev, "byteorder size %u", size);
	/* ntoh and hton are the same byte swap on a little-endian host */
	for (i = 0; i < len * 8; i++) {
		unsigned int byte = i / 8, grp = byte / size * size;
		unsigned int from = grp + size - 1 - (byte - grp);

		tmp[i] = b_ref(src[from * 8 + i % 8]);
	}
	for (i = 0; i < len * 8; i++)
		reg_put(ev, doff * 8 + i, tmp[i]);
	reg_pad(ev, doff, len);
	return 0;
}

static int ex_immediate(struct sd_eval *ev, struct nftnl_expr *e)
{
	uint32_t dreg = u32(e, NFTNL_EXPR_IMM_DREG), len;
	const uint8_t *d;
	struct sd_verdict v = { 0 };
	int off;

	if (dreg == NFT_REG_VERDICT) {
		v.code = (int)u32(e, NFTNL_EXPR_IMM_VERDICT);
		if (nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN))
			v.chain = nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN);
		if (v.code == NF_ACCEPT)
			strcpy(v.key, "accept");
		else if (v.code == NF_DROP)
			strcpy(v.key, "drop");
		sd_add_pair(ev, ev->alive, &v);
		b_put(&ev->alive, bddfalse);
		return 0;
	}
	d = attr(e, NFTNL_EXPR_IMM_DATA, &len);
	off = sd_reg_off(ev, dreg, len);
	if (!d || off < 0)
		return off < 0 ? -EINVAL : sd_eval_error(ev, "immediate");
	sd_reg_set_const(ev, off, d, len);
	return 0;
}

static int ex_nop(struct sd_eval *ev, struct nftnl_expr *e)
{
	return 0;
}

int sd_expr_lookup(struct sd_eval *ev, struct nftnl_expr *e);
int sd_expr_free_choice(struct sd_eval *ev, struct nftnl_expr *e);
int sd_expr_free_data(struct sd_eval *ev, struct nftnl_expr *e);
int sd_expr_space_load(struct sd_eval *ev, struct nftnl_expr *e);
int sd_expr_dynset(struct sd_eval *ev, struct nftnl_expr *e);

/* One row per VM expression the engine understands. */
static const struct sd_expr_ops expr_ops[] = {
	{ "payload",	ex_payload },
	{ "meta",	ex_meta },
	{ "ct",		ex_ct },
	{ "cmp",	ex_cmp },
	{ "range",	ex_range },
	{ "bitwise",	ex_bitwise },
	{ "byteorder",	ex_byteorder },
	{ "immediate",	ex_immediate },
	{ "lookup",	sd_expr_lookup },
	{ "counter",	ex_nop },	/* no effect on packets */
	{ "log",	ex_nop },	/* no effect on packets */
	{ "limit",	sd_expr_free_choice },
	{ "quota",	sd_expr_free_choice },
	{ "connlimit",	sd_expr_free_choice },
	{ "numgen",	sd_expr_free_data },
	{ "hash",	sd_expr_free_data },
	{ "dynset",	sd_expr_dynset },
	{ "fib",	sd_expr_space_load },
	{ "rt",		sd_expr_space_load },
	{ "socket",	sd_expr_space_load },
	{ "exthdr",	sd_expr_space_load },
};

const struct sd_expr_ops *sd_expr_ops_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(expr_ops) / sizeof(expr_ops[0]); i++)
		if (!strcmp(expr_ops[i].name, name))
			return &expr_ops[i];
	for (i = 0; sd_stmt_ops[i].name; i++)
		if (!strcmp(sd_stmt_ops[i].name, name))
			return &sd_stmt_ops[i];
	return NULL;
}

void sd_eval_init(struct sd_eval *ev, struct sd_vars *vars,
		  const struct sd_ruleset *rs, uint8_t family)
{
	unsigned int i;

	memset(ev, 0, sizeof(*ev));
	ev->vars = vars;
	ev->rs = rs;
	ev->family = family;
	for (i = 0; i < SD_REG_BITS; i++)
		ev->regs[i] = bddfalse;
	ev->alive = bddfalse;
	ev->in = bddtrue;
}

void sd_eval_fini(struct sd_eval *ev)
{
	unsigned int i, j;

	for (i = 0; i < SD_REG_BITS; i++)
		b_put(&ev->regs[i], bddfalse);
	b_put(&ev->alive, bddfalse);
	for (i = 0; i < ev->ncur; i++) {
		if (!ev->cur[i])
			continue;
		for (j = 0; j < SD_SPACE_BYTES * 8; j++)
			if (ev->cur[i][j] != -1)
				b_free(ev->cur[i][j]);
		free(ev->cur[i]);
	}
	free(ev->cur);
	ev->cur = NULL;
	ev->ncur = 0;
	for (i = 0; i < ev->npairs; i++)
		b_free(ev->pairs[i].cond);
	free(ev->pairs);
	ev->pairs = NULL;
	ev->npairs = ev->pcap = 0;
}

/*
 * Run rule @r for packets @in: afterwards ev->pairs holds (packets,
 * verdict) for the packets the rule gives a verdict; all others go on
 * to the next rule.
 */
int sd_eval_rule(struct sd_eval *ev, const struct sd_rule *r, BDD in)
{
	struct nftnl_expr_iter *it;
	struct nftnl_expr *e;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ev->npairs; i++)
		b_free(ev->pairs[i].cond);
	ev->npairs = 0;
	ev->rule = r;
	b_put(&ev->alive, b_ref(in));
	it = nftnl_expr_iter_create(r->nl);
	if (!it)
		return -ENOMEM;
	while ((e = nftnl_expr_iter_next(it))) {
		const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
		const struct sd_expr_ops *ops = sd_expr_ops_find(name);

		if (!ev->scan && ev->alive == bddfalse)
			break;
		if (!ops) {
			ret = sd_eval_error(ev, "expression `%s' is not "
					    "modelled", name);
			break;
		}
		ret = ops->eval(ev, e);
		if (ret < 0 || ev->error < 0) {
			ret = ret < 0 ? ret : ev->error;
			break;
		}
	}
	nftnl_expr_iter_destroy(it);
	return ret;
}
