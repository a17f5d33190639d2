// SPDX-License-Identifier: GPL-2.0-or-later
/* lookup: set membership, map values and verdict maps. */
#include "nftvm_int.h"

struct nftvm_lookup {
	struct nftvm_set		*set;
	struct nftvm_set_binding	binding;
	__u8				sreg;
	__u8				dreg;
	bool				has_dreg;
	bool				invert;
};

static const struct nftvm_nla_policy
nftvm_lookup_policy[NFTA_LOOKUP_MAX + 1] = {
	[NFTA_LOOKUP_SET]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_LOOKUP_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LOOKUP_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LOOKUP_SET_ID]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LOOKUP_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

static int vm_lookup_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_lookup *priv = nftvm_expr_priv(expr);
	struct nftvm_set *set;
	__u32 flags;
	int err;

	if (!tb[NFTA_LOOKUP_SET] || !tb[NFTA_LOOKUP_SREG])
		return -NFTVM_EINVAL;
	set = nftvm_set_lookup(ctx, tb[NFTA_LOOKUP_SET],
			       tb[NFTA_LOOKUP_SET_ID]);
	if (!set)
		return nftvm_fail(ctx, tb[NFTA_LOOKUP_SET], -NFTVM_ENOENT);
	err = nftvm_parse_reg_load(ctx, tb[NFTA_LOOKUP_SREG], &priv->sreg,
				   set->klen);
	if (err < 0)
		return err;
	if (tb[NFTA_LOOKUP_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_LOOKUP_FLAGS]);
		if (flags & ~NFT_LOOKUP_F_INV)
			return nftvm_fail(ctx, tb[NFTA_LOOKUP_FLAGS],
					  -NFTVM_EINVAL);
		priv->invert = flags & NFT_LOOKUP_F_INV;
	}
	if (tb[NFTA_LOOKUP_DREG]) {
		if (priv->invert || !(set->flags & NFT_SET_MAP))
			return nftvm_fail(ctx, tb[NFTA_LOOKUP_DREG],
					  -NFTVM_EINVAL);
		err = nftvm_parse_reg_store(ctx, tb[NFTA_LOOKUP_DREG],
					    &priv->dreg, NULL, set->dtype,
					    set->dlen);
		if (err < 0)
			return err;
		priv->has_dreg = true;
	}
	err = nftvm_set_bind(ctx, set, &priv->binding);
	if (err < 0)
		return nftvm_fail(ctx, tb[NFTA_LOOKUP_SET], err);
	priv->set = set;
	return 0;
}

static void vm_lookup_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_lookup *priv = nftvm_expr_priv(expr);
	const struct nftvm_set *set = priv->set;
	const struct nftvm_elem *e;

	e = nftvm_set_match(set, &regs->data[priv->sreg], pkt->now);
	if ((e != NULL) == priv->invert) {
		regs->verdict.code = NFT_BREAK;
		return;
	}
	/* the element's counters and the like count the packet */
	if (e && e->ext && !nftvm_ext_eval(e->ext, regs, pkt))
		return;
	if (!priv->has_dreg)
		return;
	if (priv->dreg == NFT_REG_VERDICT)
		regs->verdict = e->verdict;
	else
		nftvm_reg_store_bytes(&regs->data[priv->dreg],
				      nftvm_elem_data(set, e), set->dlen);
}

static void vm_lookup_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_lookup *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_str(b, NFTA_LOOKUP_SET, priv->set->name);
	nftvm_dump_reg(b, NFTA_LOOKUP_SREG, priv->sreg);
	if (priv->has_dreg)
		nftvm_dump_reg(b, NFTA_LOOKUP_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_LOOKUP_FLAGS,
			   priv->invert ? NFT_LOOKUP_F_INV : 0);
}

static int vm_lookup_validate_elem(const struct nftvm_set *set,
				   struct nftvm_elem *e, void *arg)
{
	if (e->flags & NFT_SET_ELEM_INTERVAL_END)
		return 0;
	return nftvm_validate_verdict(arg, &e->verdict);
}

static int vm_lookup_validate(struct nftvm_vctx *v,
			      const struct nftvm_expr *expr)
{
	const struct nftvm_lookup *priv = nftvm_expr_priv(expr);
	const struct nftvm_set *set = priv->set;
	int err;

	if (!priv->has_dreg || priv->dreg != NFT_REG_VERDICT)
		return 0;
	err = set->type->walk(set, vm_lookup_validate_elem, v);
	if (!err && set->catchall)
		err = vm_lookup_validate_elem(set, set->catchall, v);
	return err;
}

static void vm_lookup_activate(struct nftvm_ctx *ctx, struct nftvm_expr *expr)
{
	struct nftvm_lookup *priv = nftvm_expr_priv(expr);

	nftvm_set_rebind(ctx, priv->set, &priv->binding);
}

static void vm_lookup_deactivate(struct nftvm_ctx *ctx,
				 struct nftvm_expr *expr)
{
	struct nftvm_lookup *priv = nftvm_expr_priv(expr);

	nftvm_set_unbind(ctx, priv->set, &priv->binding);
}

const struct nftvm_expr_ops nftvm_lookup_ops = {
	.name		= "lookup",
	.size		= sizeof(struct nftvm_lookup),
	.maxattr	= NFTA_LOOKUP_MAX,
	.policy		= nftvm_lookup_policy,
	.init		= vm_lookup_init,
	.eval		= vm_lookup_eval,
	.dump		= vm_lookup_dump,
	.validate	= vm_lookup_validate,
	.activate	= vm_lookup_activate,
	.deactivate	= vm_lookup_deactivate,
};
