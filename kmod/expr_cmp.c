// SPDX-License-Identifier: GPL-2.0-or-later
/* cmp: compare a register with a constant, break on mismatch. */
#include "nftvm_int.h"

/*
 * @fmask, @fdata: for a comparison of at most 4 bytes for (in)equality,
 * the bytes compared as one masked 32-bit word (the first @len bytes in
 * memory order), so that the common "field == constant" needs no
 * memcmp() call (vm_cmp_fast_eval, as the kernel's nft_cmp_fast).
 */
struct nftvm_cmp {
	/* what a compare reads first, in the expression's first line */
	__u32			fmask;
	__u32			fdata;
	__u8			sreg;
	__u8			len;
	__u8			op;
	struct nftvm_data	data;
};

static const struct nftvm_expr_ops nftvm_cmp_fast_ops;

static const struct nftvm_nla_policy nftvm_cmp_policy[NFTA_CMP_MAX + 1] = {
	[NFTA_CMP_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_CMP_OP]	= { .type = NFTVM_NLA_U32 },
	[NFTA_CMP_DATA]	= { .type = NFTVM_NLA_NESTED },
};

static int vm_cmp_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		       const struct nlattr * const *tb)
{
	struct nftvm_cmp *priv = nftvm_expr_priv(expr);
	struct nftvm_data_desc desc = {
		.type = NFT_DATA_VALUE, .size = NFTVM_EXPR_DATA_LEN,
	};
	__u32 op;
	int err;

	if (!tb[NFTA_CMP_SREG] || !tb[NFTA_CMP_OP] || !tb[NFTA_CMP_DATA])
		return -NFTVM_EINVAL;
	err = nftvm_data_init(ctx, &priv->data, &desc, tb[NFTA_CMP_DATA]);
	if (err < 0)
		return err;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_CMP_SREG], &priv->sreg,
				   desc.len);
	if (err < 0)
		return err;
	op = nftvm_nla_be32(tb[NFTA_CMP_OP]);
	if (op > NFT_CMP_GTE)
		return nftvm_fail(ctx, tb[NFTA_CMP_OP], -NFTVM_EINVAL);
	priv->op = (__u8)op;
	priv->len = (__u8)desc.len;
	if (desc.len <= 4 && (op == NFT_CMP_EQ || op == NFT_CMP_NEQ)) {
		__u8 m[4] = { 0 };

		nftvm_memset(m, 0xff, desc.len);
		nftvm_memcpy(&priv->fmask, m, 4);
		priv->fdata = priv->data.data[0] & priv->fmask;
		expr->ops = &nftvm_cmp_fast_ops;
	}
	return 0;
}

static void vm_cmp_fast_eval(struct nftvm_expr *expr,
			     struct nftvm_regs *regs,
			     const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_cmp *priv = nftvm_expr_priv(expr);
	bool eq = (regs->data[priv->sreg] & priv->fmask) == priv->fdata;

	if (eq != (priv->op == NFT_CMP_EQ))
		regs->verdict.code = NFT_BREAK;
}

static void vm_cmp_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_cmp *priv = nftvm_expr_priv(expr);
	int d = nftvm_memcmp(&regs->data[priv->sreg], priv->data.data,
			     priv->len);
	bool match = false;

	switch ((enum nft_cmp_ops)priv->op) {
	case NFT_CMP_EQ:
		match = d == 0;
		break;
	case NFT_CMP_NEQ:
		match = d != 0;
		break;
	case NFT_CMP_LT:
		match = d < 0;
		break;
	case NFT_CMP_LTE:
		match = d <= 0;
		break;
	case NFT_CMP_GT:
		match = d > 0;
		break;
	case NFT_CMP_GTE:
		match = d >= 0;
		break;
	}
	if (!match)
		regs->verdict.code = NFT_BREAK;
}

static void vm_cmp_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_cmp *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_CMP_SREG, priv->sreg);
	nftvm_nla_put_be32(b, NFTA_CMP_OP, priv->op);
	nftvm_data_dump(b, NFTA_CMP_DATA, &priv->data, NFT_DATA_VALUE,
			priv->len);
}

const struct nftvm_expr_ops nftvm_cmp_ops = {
	.name		= "cmp",
	.size		= sizeof(struct nftvm_cmp),
	.maxattr	= NFTA_CMP_MAX,
	.policy		= nftvm_cmp_policy,
	.init		= vm_cmp_init,
	.eval		= vm_cmp_eval,
	.dump		= vm_cmp_dump,
};

/* chosen by vm_cmp_init: same attributes, private data and dump */
static const struct nftvm_expr_ops nftvm_cmp_fast_ops = {
	.name		= "cmp",
	.size		= sizeof(struct nftvm_cmp),
	.maxattr	= NFTA_CMP_MAX,
	.policy		= nftvm_cmp_policy,
	.init		= vm_cmp_init,
	.eval		= vm_cmp_fast_eval,
	.dump		= vm_cmp_dump,
};
