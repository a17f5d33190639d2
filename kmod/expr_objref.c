// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * objref: run a named stateful object, either one fixed object
 * ("counter name foo") or the one an object map selects by a register
 * key ("counter name ip saddr map @m").  The map variant is chosen at
 * load time and shares the private area's size.
 */
#include "nftvm_int.h"

struct nftvm_objref {
	struct nftvm_obj		*obj;	/* fixed object */
	struct nftvm_set		*set;	/* object map */
	struct nftvm_set_binding	binding;
	__u8				sreg;
};

static const struct nftvm_nla_policy
nftvm_objref_policy[NFTA_OBJREF_MAX + 1] = {
	[NFTA_OBJREF_IMM_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_OBJREF_IMM_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_OBJREF_SET_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_OBJREF_SET_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_OBJREF_SET_ID]	= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_expr_ops nftvm_objref_map_ops;

static int vm_objref_map_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			      const struct nlattr * const *tb)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);
	struct nftvm_set *set;
	int err;

	set = nftvm_set_lookup(ctx, tb[NFTA_OBJREF_SET_NAME],
			       tb[NFTA_OBJREF_SET_ID]);
	if (!set)
		return nftvm_fail(ctx, tb[NFTA_OBJREF_SET_NAME] ?
				  tb[NFTA_OBJREF_SET_NAME] :
				  tb[NFTA_OBJREF_SET_ID], -NFTVM_ENOENT);
	if (!(set->flags & NFT_SET_OBJECT))
		return -NFTVM_EINVAL;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_OBJREF_SET_SREG], &priv->sreg,
				   set->klen);
	if (err < 0)
		return err;
	err = nftvm_set_bind(ctx, set, &priv->binding);
	if (err < 0)
		return err;
	priv->set = set;
	expr->ops = &nftvm_objref_map_ops;
	return 0;
}

static int vm_objref_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);

	if (tb[NFTA_OBJREF_SET_SREG] &&
	    (tb[NFTA_OBJREF_SET_NAME] || tb[NFTA_OBJREF_SET_ID]))
		return vm_objref_map_init(ctx, expr, tb);
	if (!tb[NFTA_OBJREF_IMM_NAME] || !tb[NFTA_OBJREF_IMM_TYPE])
		return -NFTVM_EOPNOTSUPP;
	priv->obj = nftvm_obj_lookup(ctx->table, tb[NFTA_OBJREF_IMM_NAME],
				     nftvm_nla_be32(tb[NFTA_OBJREF_IMM_TYPE]));
	if (!priv->obj)
		return nftvm_fail(ctx, tb[NFTA_OBJREF_IMM_NAME],
				  -NFTVM_ENOENT);
	priv->obj->use++;
	return 0;
}

static void vm_objref_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);

	priv->obj->type->eval(priv->obj, regs, pkt);
}

static void vm_objref_map_eval(struct nftvm_expr *expr,
			       struct nftvm_regs *regs,
			       const struct nftvm_pktinfo *pkt)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);
	const struct nftvm_elem *e;

	e = nftvm_set_match(priv->set, &regs->data[priv->sreg], pkt->now);
	if (!e || !e->obj) {
		regs->verdict.code = NFT_BREAK;
		return;
	}
	e->obj->type->eval(e->obj, regs, pkt);
}

static void vm_objref_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_objref *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_str(b, NFTA_OBJREF_IMM_NAME, priv->obj->name);
	nftvm_nla_put_be32(b, NFTA_OBJREF_IMM_TYPE, priv->obj->type->type);
}

static void vm_objref_map_dump(struct nftvm_nlbuf *b,
			       const struct nftvm_expr *expr)
{
	const struct nftvm_objref *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_OBJREF_SET_SREG, priv->sreg);
	nftvm_nla_put_str(b, NFTA_OBJREF_SET_NAME, priv->set->name);
}

static void vm_objref_activate(struct nftvm_ctx *ctx, struct nftvm_expr *expr)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);

	priv->obj->use++;
}

static void vm_objref_deactivate(struct nftvm_ctx *ctx,
				 struct nftvm_expr *expr)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);

	priv->obj->use--;
}

static void vm_objref_map_activate(struct nftvm_ctx *ctx,
				   struct nftvm_expr *expr)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);

	nftvm_set_rebind(ctx, priv->set, &priv->binding);
}

static void vm_objref_map_deactivate(struct nftvm_ctx *ctx,
				     struct nftvm_expr *expr)
{
	struct nftvm_objref *priv = nftvm_expr_priv(expr);

	nftvm_set_unbind(ctx, priv->set, &priv->binding);
}

const struct nftvm_expr_ops nftvm_objref_ops = {
	.name		= "objref",
	.size		= sizeof(struct nftvm_objref),
	.maxattr	= NFTA_OBJREF_MAX,
	.policy		= nftvm_objref_policy,
	.init		= vm_objref_init,
	.eval		= vm_objref_eval,
	.dump		= vm_objref_dump,
	.activate	= vm_objref_activate,
	.deactivate	= vm_objref_deactivate,
};

/* selected by vm_objref_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_objref_map_ops = {
	.name		= "objref",
	.size		= sizeof(struct nftvm_objref),
	.maxattr	= NFTA_OBJREF_MAX,
	.policy		= nftvm_objref_policy,
	.init		= vm_objref_init,
	.eval		= vm_objref_map_eval,
	.dump		= vm_objref_map_dump,
	.activate	= vm_objref_map_activate,
	.deactivate	= vm_objref_map_deactivate,
};
