// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nat: source or destination NAT to an address and/or port range taken
 * from registers.  The VM does no translation: it records the decision
 * in the result (struct nftvm_nat_decision) and accepts, as
 * nf_nat_setup_info() does for the first packet of a connection.
 */
#include "nftvm_int.h"

struct nftvm_nat {
	__u8	type;		/* NFT_NAT_SNAT / NFT_NAT_DNAT */
	__u8	family;
	__u8	sreg_addr_min;
	__u8	sreg_addr_max;
	__u8	sreg_proto_min;
	__u8	sreg_proto_max;
	__u8	alen;
	__u32	flags;
};

static const struct nftvm_nla_policy nftvm_nat_policy[NFTA_NAT_MAX + 1] = {
	[NFTA_NAT_TYPE]		= { .type = NFTVM_NLA_U32 },
	[NFTA_NAT_FAMILY]	= { .type = NFTVM_NLA_U32 },
	[NFTA_NAT_REG_ADDR_MIN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_NAT_REG_ADDR_MAX]	= { .type = NFTVM_NLA_U32 },
	[NFTA_NAT_REG_PROTO_MIN] = { .type = NFTVM_NLA_U32 },
	[NFTA_NAT_REG_PROTO_MAX] = { .type = NFTVM_NLA_U32 },
	[NFTA_NAT_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

/**
 * nftvm_nat_chain_check - may a NAT statement live in this rule's chain?
 * @hooks: bitmap of NF_INET_* hooks allowed
 *
 * Like the kernel, only a base chain is checked here: it must be of type
 * nat and on one of @hooks.  Return: 0 or -EOPNOTSUPP.
 */
int nftvm_nat_chain_check(const struct nftvm_ctx *ctx, unsigned int hooks)
{
	const struct nftvm_chain *c = ctx->chain;

	if (!c || !c->base)
		return 0;
	if (c->type != NFTVM_CHAIN_NAT || !(hooks & (1u << c->hooknum)))
		return -NFTVM_EOPNOTSUPP;
	return 0;
}

/**
 * nftvm_nat_parse_flags - NFTA_*_FLAGS of nat, masq and redir
 * Return: 0, or -EINVAL for bits outside NF_NAT_RANGE_MASK.
 */
int nftvm_nat_parse_flags(struct nftvm_ctx *ctx, const struct nlattr *attr,
			  __u32 *flags)
{
	__u32 v;

	if (!attr)
		return 0;
	v = nftvm_nla_be32(attr);
	if (v & ~(__u32)NF_NAT_RANGE_MASK)
		return nftvm_fail(ctx, attr, -NFTVM_EINVAL);
	*flags |= v;
	return 0;
}

/**
 * nftvm_nat_parse_range - a min register and an optional max register
 * Return: 0 or negative errno; *@max defaults to *@min.
 */
int nftvm_nat_parse_range(struct nftvm_ctx *ctx, const struct nlattr *amin,
			  const struct nlattr *amax, __u8 *min, __u8 *max,
			  unsigned int len)
{
	int err;

	err = nftvm_parse_reg_load(ctx, amin, min, len);
	if (err < 0)
		return err;
	if (!amax) {
		*max = *min;
		return 0;
	}
	return nftvm_parse_reg_load(ctx, amax, max, len);
}

#define NFTVM_HOOKS_SNAT	(1u << NF_INET_POST_ROUTING | \
				 1u << NF_INET_LOCAL_IN)
#define NFTVM_HOOKS_DNAT	(1u << NF_INET_PRE_ROUTING | \
				 1u << NF_INET_LOCAL_OUT)

static int vm_nat_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		       const struct nlattr * const *tb)
{
	struct nftvm_nat *priv = nftvm_expr_priv(expr);
	__u32 type, family;
	int err;

	if (!tb[NFTA_NAT_TYPE] ||
	    (!tb[NFTA_NAT_REG_ADDR_MIN] && !tb[NFTA_NAT_REG_PROTO_MIN]))
		return -NFTVM_EINVAL;
	type = nftvm_nla_be32(tb[NFTA_NAT_TYPE]);
	if (type != NFT_NAT_SNAT && type != NFT_NAT_DNAT)
		return nftvm_fail(ctx, tb[NFTA_NAT_TYPE], -NFTVM_EOPNOTSUPP);
	priv->type = (__u8)type;
	err = nftvm_nat_chain_check(ctx, type == NFT_NAT_SNAT ?
				    NFTVM_HOOKS_SNAT : NFTVM_HOOKS_DNAT);
	if (err < 0)
		return err;
	if (!tb[NFTA_NAT_FAMILY])
		return -NFTVM_EINVAL;
	family = nftvm_nla_be32(tb[NFTA_NAT_FAMILY]);
	if (ctx->family != NFPROTO_INET && ctx->family != family)
		return nftvm_fail(ctx, tb[NFTA_NAT_FAMILY], -NFTVM_EOPNOTSUPP);
	if (family == NFPROTO_IPV4)
		priv->alen = 4;
	else if (family == NFPROTO_IPV6)
		priv->alen = 16;
	else if (tb[NFTA_NAT_REG_ADDR_MIN])
		return nftvm_fail(ctx, tb[NFTA_NAT_FAMILY],
				  -NFTVM_EAFNOSUPPORT);
	priv->family = (__u8)family;
	if (tb[NFTA_NAT_REG_ADDR_MIN]) {
		err = nftvm_nat_parse_range(ctx, tb[NFTA_NAT_REG_ADDR_MIN],
					    tb[NFTA_NAT_REG_ADDR_MAX],
					    &priv->sreg_addr_min,
					    &priv->sreg_addr_max, priv->alen);
		if (err < 0)
			return err;
		priv->flags |= NF_NAT_RANGE_MAP_IPS;
	}
	if (tb[NFTA_NAT_REG_PROTO_MIN]) {
		err = nftvm_nat_parse_range(ctx, tb[NFTA_NAT_REG_PROTO_MIN],
					    tb[NFTA_NAT_REG_PROTO_MAX],
					    &priv->sreg_proto_min,
					    &priv->sreg_proto_max, 2);
		if (err < 0)
			return err;
		priv->flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
	}
	return nftvm_nat_parse_flags(ctx, tb[NFTA_NAT_FLAGS], &priv->flags);
}

/**
 * nftvm_nat_record - store a NAT decision (the first one wins) and accept
 * @pmin/@pmax: the port range registers, or NULL
 */
void nftvm_nat_record(struct nftvm_regs *regs,
		      const struct nftvm_pktinfo *pkt, __u8 kind,
		      __u32 flags, const __u32 *pmin, const __u32 *pmax)
{
	struct nftvm_nat_decision *n = &pkt->res->nat;

	regs->verdict.code = NF_ACCEPT;
	if (n->kind != NFTVM_NAT_NONE)
		return;
	n->kind = kind;
	n->family = pkt->family;
	n->flags = flags;
	if (pmin && (flags & NF_NAT_RANGE_PROTO_SPECIFIED)) {
		n->proto_min = nftvm_ntohs(*(const __u16 *)pmin);
		n->proto_max = nftvm_ntohs(*(const __u16 *)pmax);
	}
}

static void vm_nat_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_nat *priv = nftvm_expr_priv(expr);
	struct nftvm_nat_decision *n = &pkt->res->nat;
	bool first = n->kind == NFTVM_NAT_NONE;

	/* an inet table's "ip" nat leaves IPv6 packets alone */
	if (priv->family != pkt->family)
		return;
	nftvm_nat_record(regs, pkt, priv->type == NFT_NAT_SNAT ?
			 NFTVM_NAT_SNAT : NFTVM_NAT_DNAT, priv->flags,
			 &regs->data[priv->sreg_proto_min],
			 &regs->data[priv->sreg_proto_max]);
	if (!first || !(priv->flags & NF_NAT_RANGE_MAP_IPS))
		return;
	nftvm_memcpy(n->addr_min, &regs->data[priv->sreg_addr_min],
		     priv->alen);
	nftvm_memcpy(n->addr_max, &regs->data[priv->sreg_addr_max],
		     priv->alen);
}

static void vm_nat_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_nat *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_be32(b, NFTA_NAT_TYPE, priv->type);
	nftvm_nla_put_be32(b, NFTA_NAT_FAMILY, priv->family);
	if (priv->flags & NF_NAT_RANGE_MAP_IPS) {
		nftvm_dump_reg(b, NFTA_NAT_REG_ADDR_MIN, priv->sreg_addr_min);
		nftvm_dump_reg(b, NFTA_NAT_REG_ADDR_MAX, priv->sreg_addr_max);
	}
	if (priv->flags & NF_NAT_RANGE_PROTO_SPECIFIED) {
		nftvm_dump_reg(b, NFTA_NAT_REG_PROTO_MIN,
			       priv->sreg_proto_min);
		nftvm_dump_reg(b, NFTA_NAT_REG_PROTO_MAX,
			       priv->sreg_proto_max);
	}
	if (priv->flags)
		nftvm_nla_put_be32(b, NFTA_NAT_FLAGS, priv->flags);
}

const struct nftvm_expr_ops nftvm_nat_ops = {
	.name		= "nat",
	.size		= sizeof(struct nftvm_nat),
	.maxattr	= NFTA_NAT_MAX,
	.policy		= nftvm_nat_policy,
	.init		= vm_nat_init,
	.eval		= vm_nat_eval,
	.dump		= vm_nat_dump,
};
