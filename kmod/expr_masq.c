// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * masq: source NAT to the output interface's address, optionally to a
 * port range.  Recorded as a decision (NFTVM_NAT_MASQ); the address is
 * the output interface's, which the VM does not know.
 */
#include "nftvm_int.h"

struct nftvm_masq {
	__u32	flags;		/* as given: the kernel adds no flag here */
	__u8	sreg_proto_min;
	__u8	sreg_proto_max;
	bool	has_proto;
};

static const struct nftvm_nla_policy nftvm_masq_policy[NFTA_MASQ_MAX + 1] = {
	[NFTA_MASQ_FLAGS]		= { .type = NFTVM_NLA_U32 },
	[NFTA_MASQ_REG_PROTO_MIN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_MASQ_REG_PROTO_MAX]	= { .type = NFTVM_NLA_U32 },
};

static int vm_masq_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			const struct nlattr * const *tb)
{
	struct nftvm_masq *priv = nftvm_expr_priv(expr);
	int err;

	err = nftvm_nat_chain_check(ctx, 1u << NF_INET_POST_ROUTING);
	if (err < 0)
		return err;
	err = nftvm_nat_parse_flags(ctx, tb[NFTA_MASQ_FLAGS], &priv->flags);
	if (err < 0)
		return err;
	if (!tb[NFTA_MASQ_REG_PROTO_MIN])
		return 0;
	err = nftvm_nat_parse_range(ctx, tb[NFTA_MASQ_REG_PROTO_MIN],
				    tb[NFTA_MASQ_REG_PROTO_MAX],
				    &priv->sreg_proto_min,
				    &priv->sreg_proto_max, 2);
	if (err < 0)
		return err;
	priv->has_proto = true;
	return 0;
}

static void vm_masq_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			 const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_masq *priv = nftvm_expr_priv(expr);

	nftvm_nat_record(regs, pkt, NFTVM_NAT_MASQ, priv->flags |
			 (priv->has_proto ? NF_NAT_RANGE_PROTO_SPECIFIED : 0),
			 &regs->data[priv->sreg_proto_min],
			 &regs->data[priv->sreg_proto_max]);
}

static void vm_masq_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_masq *priv = nftvm_expr_priv(expr);

	if (priv->flags)
		nftvm_nla_put_be32(b, NFTA_MASQ_FLAGS, priv->flags);
	if (priv->has_proto) {
		nftvm_dump_reg(b, NFTA_MASQ_REG_PROTO_MIN,
			       priv->sreg_proto_min);
		nftvm_dump_reg(b, NFTA_MASQ_REG_PROTO_MAX,
			       priv->sreg_proto_max);
	}
}

const struct nftvm_expr_ops nftvm_masq_ops = {
	.name		= "masq",
	.size		= sizeof(struct nftvm_masq),
	.maxattr	= NFTA_MASQ_MAX,
	.policy		= nftvm_masq_policy,
	.init		= vm_masq_init,
	.eval		= vm_masq_eval,
	.dump		= vm_masq_dump,
};
