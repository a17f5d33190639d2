// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dup: send a copy of the packet to a gateway address (ip, ip6), through
 * an output interface if given.  The VM sends nothing: it records the
 * last copy asked for (struct nftvm_dup_decision) and the original goes
 * on.
 */
#include "nftvm_int.h"

struct nftvm_dup {
	__u8	sreg_addr;
	__u8	sreg_dev;
	__u8	alen;
	bool	has_dev;
};

static const struct nftvm_nla_policy nftvm_dup_policy[NFTA_DUP_MAX + 1] = {
	[NFTA_DUP_SREG_ADDR]	= { .type = NFTVM_NLA_U32 },
	[NFTA_DUP_SREG_DEV]	= { .type = NFTVM_NLA_U32 },
};

static int vm_dup_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		       const struct nlattr * const *tb)
{
	struct nftvm_dup *priv = nftvm_expr_priv(expr);
	int err;

	/* dup exists for the ip and ip6 families only (netdev: fwd/dup
	 * by device, not modelled) */
	if (ctx->family == NFPROTO_IPV4)
		priv->alen = 4;
	else if (ctx->family == NFPROTO_IPV6)
		priv->alen = 16;
	else
		return -NFTVM_EOPNOTSUPP;
	if (!tb[NFTA_DUP_SREG_ADDR])
		return -NFTVM_EINVAL;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_DUP_SREG_ADDR],
				   &priv->sreg_addr, priv->alen);
	if (err < 0 || !tb[NFTA_DUP_SREG_DEV])
		return err;
	priv->has_dev = true;
	return nftvm_parse_reg_load(ctx, tb[NFTA_DUP_SREG_DEV],
				    &priv->sreg_dev, sizeof(__u32));
}

static void vm_dup_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_dup *priv = nftvm_expr_priv(expr);
	struct nftvm_dup_decision *d = &pkt->res->dup;

	d->set = true;
	d->family = pkt->l3family;
	nftvm_memset(d->addr, 0, sizeof(d->addr));
	nftvm_memcpy(d->addr, &regs->data[priv->sreg_addr], priv->alen);
	d->oif = priv->has_dev ? regs->data[priv->sreg_dev] : 0;
}

static void vm_dup_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_dup *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_DUP_SREG_ADDR, priv->sreg_addr);
	if (priv->has_dev)
		nftvm_dump_reg(b, NFTA_DUP_SREG_DEV, priv->sreg_dev);
}

const struct nftvm_expr_ops nftvm_dup_ops = {
	.name		= "dup",
	.size		= sizeof(struct nftvm_dup),
	.maxattr	= NFTA_DUP_MAX,
	.policy		= nftvm_dup_policy,
	.init		= vm_dup_init,
	.eval		= vm_dup_eval,
	.dump		= vm_dup_dump,
};
