// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota: match until (or, inverted, once) the bytes seen pass a limit.
 * The same state is the named object NFT_OBJECT_QUOTA behind objref.
 */
#include "nftvm_int.h"

/* core.c reads consumed as the second __u64: keep this layout */
struct nftvm_quota {
	__u64	quota;
	__u64	consumed;
	__u32	flags;
};

static const struct nftvm_nla_policy nftvm_quota_policy[NFTA_QUOTA_MAX + 1] = {
	[NFTA_QUOTA_BYTES]	= { .type = NFTVM_NLA_U64 },
	[NFTA_QUOTA_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_QUOTA_CONSUMED]	= { .type = NFTVM_NLA_U64 },
};

static int vm_quota_do_init(struct nftvm_ctx *ctx, struct nftvm_quota *priv,
			    const struct nlattr * const *tb)
{
	__u64 quota, consumed = 0;
	__u32 flags = 0;

	if (!tb[NFTA_QUOTA_BYTES])
		return -NFTVM_EINVAL;
	quota = nftvm_nla_be64(tb[NFTA_QUOTA_BYTES]);
	if (quota > (~0ull >> 1))
		return nftvm_fail(ctx, tb[NFTA_QUOTA_BYTES], -NFTVM_EOVERFLOW);
	if (tb[NFTA_QUOTA_CONSUMED]) {
		consumed = nftvm_nla_be64(tb[NFTA_QUOTA_CONSUMED]);
		if (consumed > quota)
			return nftvm_fail(ctx, tb[NFTA_QUOTA_CONSUMED],
					  -NFTVM_EINVAL);
	}
	if (tb[NFTA_QUOTA_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_QUOTA_FLAGS]);
		/* "depleted" is reported, never requested */
		if (flags & ~NFT_QUOTA_F_INV)
			return nftvm_fail(ctx, tb[NFTA_QUOTA_FLAGS],
					  -NFTVM_EINVAL);
	}
	priv->quota = quota;
	priv->consumed = consumed;
	priv->flags = flags;
	return 0;
}

/* over quota once the bytes consumed pass (not reach) the quota */
static void vm_quota_do_eval(struct nftvm_quota *priv,
			     struct nftvm_regs *regs,
			     const struct nftvm_pktinfo *pkt)
{
	bool over;

	priv->consumed += pkt->len;
	over = priv->consumed > priv->quota;
	if (over != !!(priv->flags & NFT_QUOTA_F_INV))
		regs->verdict.code = NFT_BREAK;
}

static void vm_quota_do_dump(struct nftvm_nlbuf *b,
			     const struct nftvm_quota *priv)
{
	__u32 flags = priv->flags;

	if (priv->consumed >= priv->quota)
		flags |= NFT_QUOTA_F_DEPLETED;
	nftvm_nla_put_be64(b, NFTA_QUOTA_BYTES, priv->quota);
	nftvm_nla_put_be32(b, NFTA_QUOTA_FLAGS, flags);
	nftvm_nla_put_be64(b, NFTA_QUOTA_CONSUMED, priv->consumed);
}

static int vm_quota_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			 const struct nlattr * const *tb)
{
	return vm_quota_do_init(ctx, nftvm_expr_priv(expr), tb);
}

static void vm_quota_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			  const struct nftvm_pktinfo *pkt)
{
	vm_quota_do_eval(nftvm_expr_priv(expr), regs, pkt);
}

static void vm_quota_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	vm_quota_do_dump(b, nftvm_expr_priv(expr));
}

const struct nftvm_expr_ops nftvm_quota_ops = {
	.stateful	= true,
	.name		= "quota",
	.size		= sizeof(struct nftvm_quota),
	.maxattr	= NFTA_QUOTA_MAX,
	.policy		= nftvm_quota_policy,
	.init		= vm_quota_init,
	.eval		= vm_quota_eval,
	.dump		= vm_quota_dump,
};

static int vm_quota_obj_init(struct nftvm_ctx *ctx, struct nftvm_obj *obj,
			     const struct nlattr * const *tb)
{
	return vm_quota_do_init(ctx, nftvm_obj_priv(obj), tb);
}

static void vm_quota_obj_eval(struct nftvm_obj *obj, struct nftvm_regs *regs,
			      const struct nftvm_pktinfo *pkt)
{
	vm_quota_do_eval(nftvm_obj_priv(obj), regs, pkt);
}

static void vm_quota_obj_dump(struct nftvm_nlbuf *b,
			      const struct nftvm_obj *obj)
{
	vm_quota_do_dump(b, nftvm_obj_priv(obj));
}

/* a new limit and flags; what was consumed stays (nft_quota_obj_update) */
static void vm_quota_obj_update(struct nftvm_obj *obj,
				const struct nftvm_obj *newobj)
{
	struct nftvm_quota *priv = nftvm_obj_priv(obj);
	const struct nftvm_quota *np = nftvm_obj_priv(newobj);

	priv->quota = np->quota;
	priv->flags = np->flags;
}

const struct nftvm_obj_type nftvm_obj_quota_type = {
	.type		= NFT_OBJECT_QUOTA,
	.size		= sizeof(struct nftvm_quota),
	.maxattr	= NFTA_QUOTA_MAX,
	.policy		= nftvm_quota_policy,
	.init		= vm_quota_obj_init,
	.eval		= vm_quota_obj_eval,
	.dump		= vm_quota_obj_dump,
	.update		= vm_quota_obj_update,
};
