// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * numgen: a number in [offset, offset + modulus): incrementing (0, 1, ...
 * per packet, wrapping) or random.  The random source is the packet's
 * meta prandom, so runs are reproducible.
 */
#include "nftvm_int.h"

struct nftvm_numgen {
	__u32	modulus;
	__u32	offset;
	__u32	counter;
	__u8	type;
	__u8	dreg;
};

static const struct nftvm_nla_policy nftvm_numgen_policy[NFTA_NG_MAX + 1] = {
	[NFTA_NG_DREG]		= { .type = NFTVM_NLA_U32 },
	[NFTA_NG_MODULUS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_NG_TYPE]		= { .type = NFTVM_NLA_U32 },
	[NFTA_NG_OFFSET]	= { .type = NFTVM_NLA_U32 },
};

static int vm_numgen_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_numgen *priv = nftvm_expr_priv(expr);
	__u32 type;

	if (!tb[NFTA_NG_DREG] || !tb[NFTA_NG_MODULUS] || !tb[NFTA_NG_TYPE])
		return -NFTVM_EINVAL;
	type = nftvm_nla_be32(tb[NFTA_NG_TYPE]);
	if (type != NFT_NG_INCREMENTAL && type != NFT_NG_RANDOM)
		return nftvm_fail(ctx, tb[NFTA_NG_TYPE], -NFTVM_EOPNOTSUPP);
	priv->type = (__u8)type;
	if (tb[NFTA_NG_OFFSET])
		priv->offset = nftvm_nla_be32(tb[NFTA_NG_OFFSET]);
	priv->modulus = nftvm_nla_be32(tb[NFTA_NG_MODULUS]);
	if (!priv->modulus)
		return nftvm_fail(ctx, tb[NFTA_NG_MODULUS], -NFTVM_ERANGE);
	if (priv->offset + priv->modulus - 1 < priv->offset)
		return nftvm_fail(ctx, tb[NFTA_NG_OFFSET], -NFTVM_EOVERFLOW);
	/* the first packet gets 0 */
	priv->counter = priv->modulus - 1;
	return nftvm_parse_reg_store(ctx, tb[NFTA_NG_DREG], &priv->dreg, NULL,
				     NFT_DATA_VALUE, sizeof(__u32));
}

/* (val * n) >> 32: [0, 2^32) onto [0, n) */
static __u32 vm_scale(__u32 val, __u32 n)
{
	return (__u32)(((__u64)val * n) >> 32);
}

static void vm_numgen_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	struct nftvm_numgen *priv = nftvm_expr_priv(expr);
	__u32 v;

	if (priv->type == NFT_NG_INCREMENTAL) {
		v = priv->counter + 1 < priv->modulus ? priv->counter + 1 : 0;
		priv->counter = v;
	} else {
		v = vm_scale(pkt->meta->prandom, priv->modulus);
	}
	regs->data[priv->dreg] = v + priv->offset;
}

static void vm_numgen_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_numgen *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_NG_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_NG_MODULUS, priv->modulus);
	nftvm_nla_put_be32(b, NFTA_NG_TYPE, priv->type);
	nftvm_nla_put_be32(b, NFTA_NG_OFFSET, priv->offset);
}

const struct nftvm_expr_ops nftvm_numgen_ops = {
	.name		= "numgen",
	.size		= sizeof(struct nftvm_numgen),
	.maxattr	= NFTA_NG_MAX,
	.policy		= nftvm_numgen_policy,
	.init		= vm_numgen_init,
	.eval		= vm_numgen_eval,
	.dump		= vm_numgen_dump,
};
