// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * redir: destination NAT to the local host, optionally to a port range.
 * Recorded as a decision (NFTVM_NAT_REDIR); the address is the input
 * interface's primary one (or loopback), which the VM does not know.
 */
#include "nftvm_int.h"

struct nftvm_redir {
	__u32	flags;
	__u8	sreg_proto_min;
	__u8	sreg_proto_max;
};

static const struct nftvm_nla_policy nftvm_redir_policy[NFTA_REDIR_MAX + 1] = {
	[NFTA_REDIR_FLAGS]		= { .type = NFTVM_NLA_U32 },
	[NFTA_REDIR_REG_PROTO_MIN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_REDIR_REG_PROTO_MAX]	= { .type = NFTVM_NLA_U32 },
};

static int vm_redir_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			const struct nlattr * const *tb)
{
	struct nftvm_redir *priv = nftvm_expr_priv(expr);
	int err;

	err = nftvm_nat_chain_check(ctx, 1u << NF_INET_PRE_ROUTING |
				    1u << NF_INET_LOCAL_OUT);
	if (err < 0)
		return err;
	err = nftvm_nat_parse_flags(ctx, tb[NFTA_REDIR_FLAGS], &priv->flags);
	if (err < 0)
		return err;
	if (!tb[NFTA_REDIR_REG_PROTO_MIN])
		return 0;
	err = nftvm_nat_parse_range(ctx, tb[NFTA_REDIR_REG_PROTO_MIN],
				    tb[NFTA_REDIR_REG_PROTO_MAX],
				    &priv->sreg_proto_min,
				    &priv->sreg_proto_max, 2);
	if (err < 0)
		return err;
	priv->flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
	return 0;
}

static void vm_redir_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			 const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_redir *priv = nftvm_expr_priv(expr);

	nftvm_nat_record(regs, pkt, NFTVM_NAT_REDIR, priv->flags,
			 &regs->data[priv->sreg_proto_min],
			 &regs->data[priv->sreg_proto_max]);
}

static void vm_redir_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_redir *priv = nftvm_expr_priv(expr);

	if (priv->flags)
		nftvm_nla_put_be32(b, NFTA_REDIR_FLAGS, priv->flags);
	if (priv->flags & NF_NAT_RANGE_PROTO_SPECIFIED) {
		nftvm_dump_reg(b, NFTA_REDIR_REG_PROTO_MIN,
			       priv->sreg_proto_min);
		nftvm_dump_reg(b, NFTA_REDIR_REG_PROTO_MAX,
			       priv->sreg_proto_max);
	}
}

const struct nftvm_expr_ops nftvm_redir_ops = {
	.name		= "redir",
	.size		= sizeof(struct nftvm_redir),
	.maxattr	= NFTA_REDIR_MAX,
	.policy		= nftvm_redir_policy,
	.init		= vm_redir_init,
	.eval		= vm_redir_eval,
	.dump		= vm_redir_dump,
};
