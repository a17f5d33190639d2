// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * last: remember when a packet last reached this point (the VM clock);
 * the dump reports milliseconds since then.
 */
#include "nftvm_int.h"


struct nftvm_last {
	const __u64	*clock;		/* the VM's, for dumps */
	__u64		when;
	bool		set;
};

static const struct nftvm_nla_policy nftvm_last_policy[NFTA_LAST_MAX + 1] = {
	[NFTA_LAST_SET]		= { .type = NFTVM_NLA_U32 },
	[NFTA_LAST_MSECS]	= { .type = NFTVM_NLA_U64 },
};

static int vm_last_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			const struct nlattr * const *tb)
{
	struct nftvm_last *priv = nftvm_expr_priv(expr);
	__u64 ms, ns;

	priv->clock = &ctx->vm->now;
	priv->when = ctx->vm->now;
	if (tb[NFTA_LAST_SET])
		priv->set = nftvm_nla_be32(tb[NFTA_LAST_SET]) != 0;
	if (priv->set && tb[NFTA_LAST_MSECS]) {
		ms = nftvm_nla_be64(tb[NFTA_LAST_MSECS]);
		if (__builtin_mul_overflow(ms, NFTVM_NSEC_PER_MSEC, &ns))
			return nftvm_fail(ctx, tb[NFTA_LAST_MSECS],
					  -NFTVM_ERANGE);
		priv->when = ns < priv->when ? priv->when - ns : 0;
	}
	return 0;
}

static void vm_last_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			 const struct nftvm_pktinfo *pkt)
{
	struct nftvm_last *priv = nftvm_expr_priv(expr);

	priv->when = pkt->now;
	priv->set = true;
}

static void vm_last_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_last *priv = nftvm_expr_priv(expr);
	__u64 now = *priv->clock, ms = 0;

	if (priv->set && now > priv->when)
		ms = (now - priv->when) / NFTVM_NSEC_PER_MSEC;
	nftvm_nla_put_be32(b, NFTA_LAST_SET, priv->set);
	nftvm_nla_put_be64(b, NFTA_LAST_MSECS, ms);
}

const struct nftvm_expr_ops nftvm_last_ops = {
	.stateful	= true,
	.name		= "last",
	.size		= sizeof(struct nftvm_last),
	.maxattr	= NFTA_LAST_MAX,
	.policy		= nftvm_last_policy,
	.init		= vm_last_init,
	.eval		= vm_last_eval,
	.dump		= vm_last_dump,
};
