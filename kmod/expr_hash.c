// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hash: dreg = offset + (hash * modulus) >> 32, where hash is either the
 * Jenkins hash (lookup3, as the kernel's jhash) of len bytes of a source
 * register with a seed, or a symmetric hash of the packet's flow
 * (addresses and ports, so both directions hash alike).  The kernel's
 * symmetric hash uses a boot-time random key; the VM's uses seed 0 over
 * the sorted endpoints, so only its symmetry matches the kernel's.
 */
#include "nftvm_int.h"

struct nftvm_hash {
	__u32	modulus;
	__u32	offset;
	__u32	seed;
	__u8	sreg;
	__u8	dreg;
	__u8	len;
	__u8	type;
	bool	has_seed;
};

static const struct nftvm_nla_policy nftvm_hash_policy[NFTA_HASH_MAX + 1] = {
	[NFTA_HASH_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_LEN]		= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_MODULUS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_SEED]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_OFFSET]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HASH_SET_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_HASH_SET_ID]	= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_expr_ops nftvm_symhash_ops;

static __u32 vm_rol32(__u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

/* lookup3's mix and final rounds (Bob Jenkins, public domain) */
#define VM_JMIX(a, b, c) do {						\
	a -= c; a ^= vm_rol32(c, 4);  c += b;				\
	b -= a; b ^= vm_rol32(a, 6);  a += c;				\
	c -= b; c ^= vm_rol32(b, 8);  b += a;				\
	a -= c; a ^= vm_rol32(c, 16); c += b;				\
	b -= a; b ^= vm_rol32(a, 19); a += c;				\
	c -= b; c ^= vm_rol32(b, 4);  b += a;				\
} while (0)

#define VM_JFINAL(a, b, c) do {						\
	c ^= b; c -= vm_rol32(b, 14);					\
	a ^= c; a -= vm_rol32(c, 11);					\
	b ^= a; b -= vm_rol32(a, 25);					\
	c ^= b; c -= vm_rol32(b, 16);					\
	a ^= c; a -= vm_rol32(c, 4);					\
	b ^= a; b -= vm_rol32(a, 14);					\
	c ^= b; c -= vm_rol32(b, 24);					\
} while (0)

/* the word at @k in CPU byte order, as the kernel reads it */
static __u32 vm_get32(const __u8 *k)
{
	__u32 w;

	nftvm_memcpy(&w, k, sizeof(w));
	return w;
}

static __u32 vm_jhash(const __u8 *k, unsigned int len, __u32 seed)
{
	__u32 a, b, c, t[3] = { 0, 0, 0 };
	unsigned int i;

	a = b = c = 0xdeadbeef + len + seed;
	for (; len > 12; len -= 12, k += 12) {
		a += vm_get32(k);
		b += vm_get32(k + 4);
		c += vm_get32(k + 8);
		VM_JMIX(a, b, c);
	}
	if (!len)
		return c;
	/* the tail: byte i goes to bits 8*(i%4) of word i/4 */
	for (i = 0; i < len; i++)
		t[i / 4] += (__u32)k[i] << (8 * (i % 4));
	a += t[0];
	b += t[1];
	c += t[2];
	VM_JFINAL(a, b, c);
	return c;
}

static __u32 vm_scale(__u32 val, __u32 n)
{
	return (__u32)(((__u64)val * n) >> 32);
}

static int vm_hash_common(struct nftvm_ctx *ctx, struct nftvm_hash *priv,
			  const struct nlattr * const *tb)
{
	if (tb[NFTA_HASH_OFFSET])
		priv->offset = nftvm_nla_be32(tb[NFTA_HASH_OFFSET]);
	priv->modulus = nftvm_nla_be32(tb[NFTA_HASH_MODULUS]);
	if (priv->modulus < 1)
		return nftvm_fail(ctx, tb[NFTA_HASH_MODULUS], -NFTVM_ERANGE);
	if (priv->offset + priv->modulus - 1 < priv->offset)
		return nftvm_fail(ctx, tb[NFTA_HASH_OFFSET],
				  -NFTVM_EOVERFLOW);
	return nftvm_parse_reg_store(ctx, tb[NFTA_HASH_DREG], &priv->dreg,
				     NULL, NFT_DATA_VALUE, sizeof(__u32));
}

static int vm_hash_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			const struct nlattr * const *tb)
{
	struct nftvm_hash *priv = nftvm_expr_priv(expr);
	__u32 type = NFT_HASH_JENKINS, len;
	int err;

	if (tb[NFTA_HASH_TYPE])
		type = nftvm_nla_be32(tb[NFTA_HASH_TYPE]);
	priv->type = (__u8)type;
	if (type == NFT_HASH_SYM) {
		if (!tb[NFTA_HASH_DREG] || !tb[NFTA_HASH_MODULUS])
			return -NFTVM_EINVAL;
		expr->ops = &nftvm_symhash_ops;
		return vm_hash_common(ctx, priv, tb);
	}
	if (type != NFT_HASH_JENKINS)
		return nftvm_fail(ctx, tb[NFTA_HASH_TYPE], -NFTVM_EOPNOTSUPP);
	if (!tb[NFTA_HASH_SREG] || !tb[NFTA_HASH_DREG] ||
	    !tb[NFTA_HASH_LEN] || !tb[NFTA_HASH_MODULUS])
		return -NFTVM_EINVAL;
	err = nftvm_parse_u32_check(ctx, tb[NFTA_HASH_LEN], 0xff, &len);
	if (err < 0)
		return err;
	if (!len)
		return nftvm_fail(ctx, tb[NFTA_HASH_LEN], -NFTVM_ERANGE);
	priv->len = (__u8)len;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_HASH_SREG], &priv->sreg, len);
	if (err < 0)
		return err;
	/* without a seed the kernel picks a random one; the VM picks 0 */
	if (tb[NFTA_HASH_SEED]) {
		priv->seed = nftvm_nla_be32(tb[NFTA_HASH_SEED]);
		priv->has_seed = true;
	}
	return vm_hash_common(ctx, priv, tb);
}

static void vm_hash_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			 const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_hash *priv = nftvm_expr_priv(expr);
	__u32 h = vm_jhash((const __u8 *)&regs->data[priv->sreg], priv->len,
			   priv->seed);

	regs->data[priv->dreg] = vm_scale(h, priv->modulus) + priv->offset;
}

/* put the smaller of two byte strings first */
static void vm_sort2(__u8 *buf, unsigned int n)
{
	__u8 t;
	unsigned int i;

	if (nftvm_memcmp(buf, buf + n, n) <= 0)
		return;
	for (i = 0; i < n; i++) {
		t = buf[i];
		buf[i] = buf[n + i];
		buf[n + i] = t;
	}
}

static void vm_symhash_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			    const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_hash *priv = nftvm_expr_priv(expr);
	__u8 key[2 * 16 + 4 + 1] = { 0 };
	unsigned int alen = pkt->l3family == NFPROTO_IPV6 ? 16 : 4;
	unsigned int aoff = pkt->l3family == NFPROTO_IPV6 ? 8 : 12;
	__u32 h;

	if (pkt->len >= aoff + 2 * alen) {
		nftvm_memcpy(key, pkt->data + aoff, 2 * alen);
		vm_sort2(key, alen);
	}
	if (pkt->tprot_set && !pkt->fragoff &&
	    pkt->thoff + 4 <= pkt->len &&
	    (pkt->l4proto == IPPROTO_TCP || pkt->l4proto == IPPROTO_UDP ||
	     pkt->l4proto == IPPROTO_SCTP || pkt->l4proto == IPPROTO_DCCP)) {
		nftvm_memcpy(key + 2 * alen, pkt->data + pkt->thoff, 4);
		vm_sort2(key + 2 * alen, 2);
	}
	key[2 * alen + 4] = pkt->tprot_set ? pkt->l4proto : 0;
	h = vm_jhash(key, 2 * alen + 5, 0);
	regs->data[priv->dreg] = vm_scale(h, priv->modulus) + priv->offset;
}

static void vm_hash_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_hash *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_HASH_SREG, priv->sreg);
	nftvm_dump_reg(b, NFTA_HASH_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_HASH_LEN, priv->len);
	nftvm_nla_put_be32(b, NFTA_HASH_MODULUS, priv->modulus);
	/* like the kernel, a seed it picked itself is not reported */
	if (priv->has_seed)
		nftvm_nla_put_be32(b, NFTA_HASH_SEED, priv->seed);
	if (priv->offset)
		nftvm_nla_put_be32(b, NFTA_HASH_OFFSET, priv->offset);
	nftvm_nla_put_be32(b, NFTA_HASH_TYPE, NFT_HASH_JENKINS);
}

static void vm_symhash_dump(struct nftvm_nlbuf *b,
			    const struct nftvm_expr *expr)
{
	const struct nftvm_hash *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_HASH_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_HASH_MODULUS, priv->modulus);
	if (priv->offset)
		nftvm_nla_put_be32(b, NFTA_HASH_OFFSET, priv->offset);
	nftvm_nla_put_be32(b, NFTA_HASH_TYPE, NFT_HASH_SYM);
}

const struct nftvm_expr_ops nftvm_hash_ops = {
	.name		= "hash",
	.size		= sizeof(struct nftvm_hash),
	.maxattr	= NFTA_HASH_MAX,
	.policy		= nftvm_hash_policy,
	.init		= vm_hash_init,
	.eval		= vm_hash_eval,
	.dump		= vm_hash_dump,
};

/* selected by vm_hash_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_symhash_ops = {
	.name		= "hash",
	.size		= sizeof(struct nftvm_hash),
	.maxattr	= NFTA_HASH_MAX,
	.policy		= nftvm_hash_policy,
	.init		= vm_hash_init,
	.eval		= vm_symhash_eval,
	.dump		= vm_symhash_dump,
};
