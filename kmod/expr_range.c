// SPDX-License-Identifier: GPL-2.0-or-later
/* range: is a register within [from, to] (big-endian byte order)? */
#include "nftvm_int.h"

struct nftvm_range {
	struct nftvm_data	from;
	struct nftvm_data	to;
	__u8			sreg;
	__u8			len;
	__u8			op;
};

static const struct nftvm_nla_policy
nftvm_range_policy[NFTA_RANGE_MAX + 1] = {
	[NFTA_RANGE_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_RANGE_OP]		= { .type = NFTVM_NLA_U32 },
	[NFTA_RANGE_FROM_DATA]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_RANGE_TO_DATA]	= { .type = NFTVM_NLA_NESTED },
};

static int vm_range_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			 const struct nlattr * const *tb)
{
	struct nftvm_range *priv = nftvm_expr_priv(expr);
	struct nftvm_data_desc from = {
		.type = NFT_DATA_VALUE, .size = NFTVM_EXPR_DATA_LEN,
	};
	struct nftvm_data_desc to = {
		.type = NFT_DATA_VALUE, .size = NFTVM_EXPR_DATA_LEN,
	};
	__u32 op;
	int err;

	if (!tb[NFTA_RANGE_SREG] || !tb[NFTA_RANGE_OP] ||
	    !tb[NFTA_RANGE_FROM_DATA] || !tb[NFTA_RANGE_TO_DATA])
		return -NFTVM_EINVAL;
	err = nftvm_data_init(ctx, &priv->from, &from,
			      tb[NFTA_RANGE_FROM_DATA]);
	if (err < 0)
		return err;
	err = nftvm_data_init(ctx, &priv->to, &to, tb[NFTA_RANGE_TO_DATA]);
	if (err < 0)
		return err;
	if (from.len != to.len)
		return nftvm_fail(ctx, tb[NFTA_RANGE_TO_DATA], -NFTVM_EINVAL);
	err = nftvm_parse_reg_load(ctx, tb[NFTA_RANGE_SREG], &priv->sreg,
				   from.len);
	if (err < 0)
		return err;
	op = nftvm_nla_be32(tb[NFTA_RANGE_OP]);
	if (op != NFT_RANGE_EQ && op != NFT_RANGE_NEQ)
		return nftvm_fail(ctx, tb[NFTA_RANGE_OP], -NFTVM_EINVAL);
	priv->op = (__u8)op;
	priv->len = (__u8)from.len;
	return 0;
}

static void vm_range_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			  const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_range *priv = nftvm_expr_priv(expr);
	const __u32 *v = &regs->data[priv->sreg];
	bool inside = nftvm_memcmp(v, priv->from.data, priv->len) >= 0 &&
		      nftvm_memcmp(v, priv->to.data, priv->len) <= 0;

	if (inside != (priv->op == NFT_RANGE_EQ))
		regs->verdict.code = NFT_BREAK;
}

static void vm_range_dump(struct nftvm_nlbuf *b,
			  const struct nftvm_expr *expr)
{
	const struct nftvm_range *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_RANGE_SREG, priv->sreg);
	nftvm_nla_put_be32(b, NFTA_RANGE_OP, priv->op);
	nftvm_data_dump(b, NFTA_RANGE_FROM_DATA, &priv->from, NFT_DATA_VALUE,
			priv->len);
	nftvm_data_dump(b, NFTA_RANGE_TO_DATA, &priv->to, NFT_DATA_VALUE,
			priv->len);
}

const struct nftvm_expr_ops nftvm_range_ops = {
	.name		= "range",
	.size		= sizeof(struct nftvm_range),
	.maxattr	= NFTA_RANGE_MAX,
	.policy		= nftvm_range_policy,
	.init		= vm_range_init,
	.eval		= vm_range_eval,
	.dump		= vm_range_dump,
};
