// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reject: drop the packet and answer with an ICMP/ICMPv6 error or a TCP
 * reset.  The VM sends nothing: the reply asked for is recorded in the
 * result (struct nftvm_reject_decision) and the verdict is drop.
 */
#include "nftvm_int.h"

struct nftvm_reject {
	__u8	type;
	__u8	icmp_code;
};

static const struct nftvm_nla_policy
nftvm_reject_policy[NFTA_REJECT_MAX + 1] = {
	[NFTA_REJECT_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_REJECT_ICMP_CODE]	= { .type = NFTVM_NLA_U8 },
};

/* the hooks a reject may run at: it must be able to route a reply */
#define NFTVM_REJECT_HOOKS	(1u << NF_INET_PRE_ROUTING |		\
				 1u << NF_INET_LOCAL_IN |		\
				 1u << NF_INET_FORWARD |		\
				 1u << NF_INET_LOCAL_OUT)

static int vm_reject_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_reject *priv = nftvm_expr_priv(expr);
	__u32 type;
	__u8 code;

	if (ctx->chain && ctx->chain->base &&
	    !(NFTVM_REJECT_HOOKS & (1u << ctx->chain->hooknum)))
		return -NFTVM_EOPNOTSUPP;
	if (!tb[NFTA_REJECT_TYPE])
		return -NFTVM_EINVAL;
	type = nftvm_nla_be32(tb[NFTA_REJECT_TYPE]);
	/* the type is bounded by the attribute policy first */
	if (type > 0xff)
		return nftvm_fail(ctx, tb[NFTA_REJECT_TYPE], -NFTVM_ERANGE);
	switch (type) {
	case NFT_REJECT_ICMP_UNREACH:
	case NFT_REJECT_ICMPX_UNREACH:
		if (!tb[NFTA_REJECT_ICMP_CODE])
			return -NFTVM_EINVAL;
		code = *(const __u8 *)nftvm_nla_data(tb[NFTA_REJECT_ICMP_CODE]);
		if (type == NFT_REJECT_ICMPX_UNREACH &&
		    code > NFT_REJECT_ICMPX_MAX)
			return nftvm_fail(ctx, tb[NFTA_REJECT_ICMP_CODE],
					  -NFTVM_EINVAL);
		priv->icmp_code = code;
		break;
	case NFT_REJECT_TCP_RST:
		break;
	default:
		return nftvm_fail(ctx, tb[NFTA_REJECT_TYPE], -NFTVM_EINVAL);
	}
	priv->type = (__u8)type;
	return 0;
}

static void vm_reject_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_reject *priv = nftvm_expr_priv(expr);
	struct nftvm_reject_decision *r = &pkt->res->reject;

	r->set = true;
	r->type = priv->type;
	r->icmp_code = priv->icmp_code;
	r->family = pkt->l3family;
	regs->verdict.code = NF_DROP;
}

static void vm_reject_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_reject *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_be32(b, NFTA_REJECT_TYPE, priv->type);
	if (priv->type != NFT_REJECT_TCP_RST)
		nftvm_nla_put(b, NFTA_REJECT_ICMP_CODE, &priv->icmp_code, 1);
}

const struct nftvm_expr_ops nftvm_reject_ops = {
	.name		= "reject",
	.size		= sizeof(struct nftvm_reject),
	.maxattr	= NFTA_REJECT_MAX,
	.policy		= nftvm_reject_policy,
	.init		= vm_reject_init,
	.eval		= vm_reject_eval,
	.dump		= vm_reject_dump,
};
