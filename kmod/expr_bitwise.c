// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bitwise: dreg = (sreg & mask) ^ xor, or a shift of the register's
 * 32-bit words (host order) carrying bits across word boundaries.
 */
#include "nftvm_int.h"

struct nftvm_bitwise {
	struct nftvm_data	mask;
	struct nftvm_data	xor;
	__u32			shift;
	__u8			sreg;
	__u8			dreg;
	__u8			len;
	__u8			op;
};

static const struct nftvm_nla_policy
nftvm_bitwise_policy[NFTA_BITWISE_MAX + 1] = {
	[NFTA_BITWISE_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BITWISE_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BITWISE_LEN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BITWISE_MASK]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_BITWISE_XOR]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_BITWISE_OP]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BITWISE_DATA]	= { .type = NFTVM_NLA_NESTED },
};

static int vm_bitwise_init_bool(struct nftvm_ctx *ctx,
				struct nftvm_bitwise *priv,
				const struct nlattr * const *tb)
{
	struct nftvm_data_desc desc = {
		.type = NFT_DATA_VALUE, .len = priv->len,
		.size = sizeof(priv->mask),
	};
	int err;

	if (tb[NFTA_BITWISE_DATA])
		return nftvm_fail(ctx, tb[NFTA_BITWISE_DATA], -NFTVM_EINVAL);
	if (!tb[NFTA_BITWISE_MASK] || !tb[NFTA_BITWISE_XOR])
		return -NFTVM_EINVAL;
	err = nftvm_data_init(ctx, &priv->mask, &desc, tb[NFTA_BITWISE_MASK]);
	if (err < 0)
		return err;
	desc.len = priv->len;
	return nftvm_data_init(ctx, &priv->xor, &desc, tb[NFTA_BITWISE_XOR]);
}

static int vm_bitwise_init_shift(struct nftvm_ctx *ctx,
				 struct nftvm_bitwise *priv,
				 const struct nlattr * const *tb)
{
	struct nftvm_data_desc desc = {
		.type = NFT_DATA_VALUE, .len = sizeof(__u32),
		.size = sizeof(priv->mask),
	};
	struct nftvm_data d;
	int err;

	if (tb[NFTA_BITWISE_MASK] || tb[NFTA_BITWISE_XOR])
		return nftvm_fail(ctx, tb[NFTA_BITWISE_MASK] ?
				  tb[NFTA_BITWISE_MASK] : tb[NFTA_BITWISE_XOR],
				  -NFTVM_EINVAL);
	if (!tb[NFTA_BITWISE_DATA])
		return -NFTVM_EINVAL;
	err = nftvm_data_init(ctx, &d, &desc, tb[NFTA_BITWISE_DATA]);
	if (err < 0)
		return err;
	priv->shift = d.data[0];
	if (priv->shift >= 32)
		return nftvm_fail(ctx, tb[NFTA_BITWISE_DATA], -NFTVM_EINVAL);
	return 0;
}

static int vm_bitwise_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			   const struct nlattr * const *tb)
{
	struct nftvm_bitwise *priv = nftvm_expr_priv(expr);
	__u32 len, op = NFT_BITWISE_BOOL;
	int err;

	if (!tb[NFTA_BITWISE_SREG] || !tb[NFTA_BITWISE_DREG] ||
	    !tb[NFTA_BITWISE_LEN])
		return -NFTVM_EINVAL;
	err = nftvm_parse_u32_check(ctx, tb[NFTA_BITWISE_LEN], 0xff, &len);
	if (err < 0)
		return err;
	priv->len = (__u8)len;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_BITWISE_SREG], &priv->sreg,
				   len);
	if (err < 0)
		return err;
	err = nftvm_parse_reg_store(ctx, tb[NFTA_BITWISE_DREG], &priv->dreg,
				    NULL, NFT_DATA_VALUE, len);
	if (err < 0)
		return err;
	if (tb[NFTA_BITWISE_OP])
		op = nftvm_nla_be32(tb[NFTA_BITWISE_OP]);
	priv->op = (__u8)op;
	switch (op) {
	case NFT_BITWISE_BOOL:
		return vm_bitwise_init_bool(ctx, priv, tb);
	case NFT_BITWISE_LSHIFT:
	case NFT_BITWISE_RSHIFT:
		return vm_bitwise_init_shift(ctx, priv, tb);
	}
	return nftvm_fail(ctx, tb[NFTA_BITWISE_OP], -NFTVM_EOPNOTSUPP);
}

static void vm_bitwise_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			    const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_bitwise *priv = nftvm_expr_priv(expr);
	const __u32 *src = &regs->data[priv->sreg];
	__u32 *dst = &regs->data[priv->dreg];
	unsigned int i, n = NFTVM_DIV_ROUND_UP(priv->len, 4);
	__u32 carry = 0, w, s = priv->shift;

	switch ((enum nft_bitwise_ops)priv->op) {
	case NFT_BITWISE_BOOL:
		for (i = 0; i < n; i++)
			dst[i] = (src[i] & priv->mask.data[i]) ^
				 priv->xor.data[i];
		break;
	case NFT_BITWISE_LSHIFT:
		/* from the last word up, the high bits carry leftwards */
		for (i = n; i > 0; i--) {
			w = src[i - 1];
			dst[i - 1] = (w << s) | carry;
			carry = s ? w >> (32 - s) : 0;
		}
		break;
	case NFT_BITWISE_RSHIFT:
		for (i = 0; i < n; i++) {
			w = src[i];
			dst[i] = carry | (w >> s);
			carry = s ? w << (32 - s) : 0;
		}
		break;
	}
}

static void vm_bitwise_dump(struct nftvm_nlbuf *b,
			    const struct nftvm_expr *expr)
{
	const struct nftvm_bitwise *priv = nftvm_expr_priv(expr);
	struct nftvm_data d = { .data = { priv->shift } };

	nftvm_dump_reg(b, NFTA_BITWISE_SREG, priv->sreg);
	nftvm_dump_reg(b, NFTA_BITWISE_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_BITWISE_LEN, priv->len);
	nftvm_nla_put_be32(b, NFTA_BITWISE_OP, priv->op);
	if (priv->op == NFT_BITWISE_BOOL) {
		nftvm_data_dump(b, NFTA_BITWISE_MASK, &priv->mask,
				NFT_DATA_VALUE, priv->len);
		nftvm_data_dump(b, NFTA_BITWISE_XOR, &priv->xor,
				NFT_DATA_VALUE, priv->len);
	} else {
		nftvm_data_dump(b, NFTA_BITWISE_DATA, &d, NFT_DATA_VALUE,
				sizeof(__u32));
	}
}

const struct nftvm_expr_ops nftvm_bitwise_ops = {
	.name		= "bitwise",
	.size		= sizeof(struct nftvm_bitwise),
	.maxattr	= NFTA_BITWISE_MAX,
	.policy		= nftvm_bitwise_policy,
	.init		= vm_bitwise_init,
	.eval		= vm_bitwise_eval,
	.dump		= vm_bitwise_dump,
};
