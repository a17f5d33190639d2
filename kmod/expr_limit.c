// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * limit: a token bucket in nanoseconds of credit.  A packet (or each of
 * its bytes) costs unit/rate; the bucket holds at most burst packets'
 * (bytes') worth and refills with the time elapsed on the VM clock.  The
 * same state is the named object NFT_OBJECT_LIMIT behind objref.
 */
#include "nftvm_int.h"

#define NFTVM_NSEC_PER_SEC	1000000000ull
#define NFTVM_LIMIT_BURST_PKTS	5	/* NFT_LIMIT_PKT_BURST_DEFAULT */

struct nftvm_limit {
	__u64	rate;
	__u64	nsecs;		/* unit in ns */
	__u64	tokens;
	__u64	tokens_max;
	__u64	last;
	__u64	cost;		/* per packet (NFT_LIMIT_PKTS) */
	__u32	burst;
	__u8	type;
	bool	invert;
};

static const struct nftvm_nla_policy nftvm_limit_policy[NFTA_LIMIT_MAX + 1] = {
	[NFTA_LIMIT_RATE]	= { .type = NFTVM_NLA_U64 },
	[NFTA_LIMIT_UNIT]	= { .type = NFTVM_NLA_U64 },
	[NFTA_LIMIT_BURST]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LIMIT_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LIMIT_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

static int vm_limit_tokens(struct nftvm_limit *priv, bool pkts)
{
	__u64 tmp;

	if (pkts) {
		tmp = priv->nsecs / priv->rate;
		if (__builtin_mul_overflow(tmp, (__u64)priv->burst,
					   &priv->tokens))
			return -NFTVM_EOVERFLOW;
		priv->cost = tmp;
		return 0;
	}
	if (__builtin_mul_overflow(priv->nsecs, (__u64)priv->burst, &tmp))
		return -NFTVM_EOVERFLOW;
	priv->tokens = tmp / priv->rate;
	return 0;
}

static int vm_limit_do_init(struct nftvm_ctx *ctx, struct nftvm_limit *priv,
			    const struct nlattr * const *tb)
{
	__u64 unit, sum;
	__u32 type = NFT_LIMIT_PKTS, flags;
	int err;

	if (!tb[NFTA_LIMIT_RATE] || !tb[NFTA_LIMIT_UNIT])
		return -NFTVM_EINVAL;
	if (tb[NFTA_LIMIT_TYPE])
		type = nftvm_nla_be32(tb[NFTA_LIMIT_TYPE]);
	if (type != NFT_LIMIT_PKTS && type != NFT_LIMIT_PKT_BYTES)
		return nftvm_fail(ctx, tb[NFTA_LIMIT_TYPE], -NFTVM_EOPNOTSUPP);
	priv->type = (__u8)type;
	priv->rate = nftvm_nla_be64(tb[NFTA_LIMIT_RATE]);
	if (!priv->rate)
		return nftvm_fail(ctx, tb[NFTA_LIMIT_RATE], -NFTVM_EINVAL);
	unit = nftvm_nla_be64(tb[NFTA_LIMIT_UNIT]);
	if (__builtin_mul_overflow(unit, NFTVM_NSEC_PER_SEC, &priv->nsecs))
		return nftvm_fail(ctx, tb[NFTA_LIMIT_UNIT], -NFTVM_EOVERFLOW);
	if (tb[NFTA_LIMIT_BURST])
		priv->burst = nftvm_nla_be32(tb[NFTA_LIMIT_BURST]);
	if (type == NFT_LIMIT_PKTS && !priv->burst)
		priv->burst = NFTVM_LIMIT_BURST_PKTS;
	if (__builtin_add_overflow(priv->rate, (__u64)priv->burst, &sum))
		return -NFTVM_EOVERFLOW;
	err = vm_limit_tokens(priv, type == NFT_LIMIT_PKTS);
	if (err < 0)
		return err;
	if (tb[NFTA_LIMIT_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_LIMIT_FLAGS]);
		if (flags & ~NFT_LIMIT_F_INV)
			return nftvm_fail(ctx, tb[NFTA_LIMIT_FLAGS],
					  -NFTVM_EOPNOTSUPP);
		priv->invert = flags & NFT_LIMIT_F_INV;
	}
	priv->tokens_max = priv->tokens;
	priv->last = ctx->vm->now;
	return 0;
}

/* true when the packet is over the limit (after inversion) */
static bool vm_limit_over(struct nftvm_limit *priv, __u64 now, __u64 cost)
{
	__u64 tokens;

	/* a clock that went backwards refills nothing */
	tokens = priv->tokens + (now > priv->last ? now - priv->last : 0);
	if (tokens > priv->tokens_max)
		tokens = priv->tokens_max;
	priv->last = now > priv->last ? now : priv->last;
	if (tokens >= cost) {
		priv->tokens = tokens - cost;
		return priv->invert;
	}
	priv->tokens = tokens;
	return !priv->invert;
}

static void vm_limit_do_eval(struct nftvm_limit *priv,
			     struct nftvm_regs *regs,
			     const struct nftvm_pktinfo *pkt)
{
	__u64 cost = priv->cost;

	if (priv->type == NFT_LIMIT_PKT_BYTES)
		cost = priv->nsecs * pkt->len / priv->rate;
	if (vm_limit_over(priv, pkt->now, cost))
		regs->verdict.code = NFT_BREAK;
}

static void vm_limit_do_dump(struct nftvm_nlbuf *b,
			     const struct nftvm_limit *priv)
{
	nftvm_nla_put_be64(b, NFTA_LIMIT_RATE, priv->rate);
	nftvm_nla_put_be64(b, NFTA_LIMIT_UNIT,
			   priv->nsecs / NFTVM_NSEC_PER_SEC);
	nftvm_nla_put_be32(b, NFTA_LIMIT_BURST, priv->burst);
	nftvm_nla_put_be32(b, NFTA_LIMIT_TYPE, priv->type);
	nftvm_nla_put_be32(b, NFTA_LIMIT_FLAGS,
			   priv->invert ? NFT_LIMIT_F_INV : 0);
}

static int vm_limit_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			 const struct nlattr * const *tb)
{
	return vm_limit_do_init(ctx, nftvm_expr_priv(expr), tb);
}

static void vm_limit_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			  const struct nftvm_pktinfo *pkt)
{
	vm_limit_do_eval(nftvm_expr_priv(expr), regs, pkt);
}

static void vm_limit_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	vm_limit_do_dump(b, nftvm_expr_priv(expr));
}

const struct nftvm_expr_ops nftvm_limit_ops = {
	.stateful	= true,
	.name		= "limit",
	.size		= sizeof(struct nftvm_limit),
	.maxattr	= NFTA_LIMIT_MAX,
	.policy		= nftvm_limit_policy,
	.init		= vm_limit_init,
	.eval		= vm_limit_eval,
	.dump		= vm_limit_dump,
};

static int vm_limit_obj_init(struct nftvm_ctx *ctx, struct nftvm_obj *obj,
			     const struct nlattr * const *tb)
{
	return vm_limit_do_init(ctx, nftvm_obj_priv(obj), tb);
}

static void vm_limit_obj_eval(struct nftvm_obj *obj, struct nftvm_regs *regs,
			      const struct nftvm_pktinfo *pkt)
{
	vm_limit_do_eval(nftvm_obj_priv(obj), regs, pkt);
}

static void vm_limit_obj_dump(struct nftvm_nlbuf *b,
			      const struct nftvm_obj *obj)
{
	vm_limit_do_dump(b, nftvm_obj_priv(obj));
}

const struct nftvm_obj_type nftvm_obj_limit_type = {
	.type		= NFT_OBJECT_LIMIT,
	.size		= sizeof(struct nftvm_limit),
	.maxattr	= NFTA_LIMIT_MAX,
	.policy		= nftvm_limit_policy,
	.init		= vm_limit_obj_init,
	.eval		= vm_limit_obj_eval,
	.dump		= vm_limit_obj_dump,
};
