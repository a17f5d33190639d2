// SPDX-License-Identifier: GPL-2.0-or-later
/* immediate: load a constant into a data register or set the verdict. */
#include "nftvm_int.h"

struct nftvm_immediate {
	struct nftvm_data	data;
	__u8			dreg;
	__u8			dlen;
	__u32			type;	/* NFT_DATA_VALUE or NFT_DATA_VERDICT */
};

static const struct nftvm_nla_policy
nftvm_immediate_policy[NFTA_IMMEDIATE_MAX + 1] = {
	[NFTA_IMMEDIATE_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_IMMEDIATE_DATA]	= { .type = NFTVM_NLA_NESTED },
};

/* the chain to bind (NFT_CHAIN_BINDING) a verdict jumps to, or NULL */
static struct nftvm_chain *
vm_immediate_binding(const struct nftvm_immediate *priv)
{
	const struct nftvm_verdict *v = &priv->data.verdict;

	if (priv->type != NFT_DATA_VERDICT ||
	    (v->code != NFT_JUMP && v->code != NFT_GOTO) ||
	    !(v->chain->flags & NFT_CHAIN_BINDING))
		return NULL;
	return v->chain;
}

static int vm_immediate_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			     const struct nlattr * const *tb)
{
	struct nftvm_immediate *priv = nftvm_expr_priv(expr);
	struct nftvm_data_desc desc = { .size = NFTVM_EXPR_DATA_LEN };
	struct nftvm_chain *chain;
	int err;

	if (!tb[NFTA_IMMEDIATE_DREG] || !tb[NFTA_IMMEDIATE_DATA])
		return -NFTVM_EINVAL;
	err = nftvm_data_init(ctx, &priv->data, &desc,
			      tb[NFTA_IMMEDIATE_DATA]);
	if (err < 0)
		return err;
	priv->dlen = (__u8)desc.len;
	priv->type = desc.type;
	err = nftvm_parse_reg_store(ctx, tb[NFTA_IMMEDIATE_DREG], &priv->dreg,
				    &priv->data, desc.type, desc.len);
	if (err < 0)
		goto err_release;
	/* a chain to bind: this rule is the one way into it, and it is
	 * no rule of a bound chain itself (nf_tables_bind_chain()) */
	chain = vm_immediate_binding(priv);
	if (chain) {
		err = -NFTVM_EOPNOTSUPP;
		if (!ctx->chain || (ctx->chain->flags & NFT_CHAIN_BINDING))
			goto err_release;
		err = nftvm_fail(ctx, tb[NFTA_IMMEDIATE_DATA], -NFTVM_EBUSY);
		if (chain->bound)
			goto err_release;
		chain->bound = true;
	}
	return 0;

err_release:
	nftvm_data_release(&priv->data, desc.type);
	return err;
}

static void vm_immediate_eval(struct nftvm_expr *expr,
			      struct nftvm_regs *regs,
			      const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_immediate *priv = nftvm_expr_priv(expr);

	if (priv->dreg == NFT_REG_VERDICT)
		regs->verdict = priv->data.verdict;
	else
		nftvm_reg_store_bytes(&regs->data[priv->dreg], priv->data.data,
				      priv->dlen);
}

static void vm_immediate_dump(struct nftvm_nlbuf *b,
			      const struct nftvm_expr *expr)
{
	const struct nftvm_immediate *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_IMMEDIATE_DREG, priv->dreg);
	nftvm_data_dump(b, NFTA_IMMEDIATE_DATA, &priv->data, priv->type,
			priv->dlen);
}

static int vm_immediate_validate(struct nftvm_vctx *v,
				 const struct nftvm_expr *expr)
{
	const struct nftvm_immediate *priv = nftvm_expr_priv(expr);

	if (priv->type != NFT_DATA_VERDICT)
		return 0;
	return nftvm_validate_verdict(v, &priv->data.verdict);
}

static void vm_immediate_activate(struct nftvm_ctx *ctx,
				  struct nftvm_expr *expr)
{
	const struct nftvm_immediate *priv = nftvm_expr_priv(expr);
	struct nftvm_chain *chain = vm_immediate_binding(priv);

	nftvm_data_hold(&priv->data, priv->type);
	if (chain)
		chain->bound = true;
}

static void vm_immediate_deactivate(struct nftvm_ctx *ctx,
				    struct nftvm_expr *expr)
{
	const struct nftvm_immediate *priv = nftvm_expr_priv(expr);
	struct nftvm_chain *chain = vm_immediate_binding(priv);

	nftvm_data_release(&priv->data, priv->type);
	/* the batch's end takes the chain away unless it comes back */
	if (chain)
		chain->bound = false;
}

const struct nftvm_expr_ops nftvm_immediate_ops = {
	.name		= "immediate",
	.size		= sizeof(struct nftvm_immediate),
	.maxattr	= NFTA_IMMEDIATE_MAX,
	.policy		= nftvm_immediate_policy,
	.init		= vm_immediate_init,
	.eval		= vm_immediate_eval,
	.dump		= vm_immediate_dump,
	.validate	= vm_immediate_validate,
	.activate	= vm_immediate_activate,
	.deactivate	= vm_immediate_deactivate,
};
