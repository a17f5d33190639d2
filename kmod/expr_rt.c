// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt: what the packet's route says: its realm (classid), the nexthop
 * for IPv4 or IPv6, the TCP MSS the path allows ("rt mtu") and whether
 * an IPsec transform is attached.  The VM has no routing table: the
 * route comes with the packet (struct nftvm_pktmeta rt_*).  A packet
 * without a route, or a nexthop of the other protocol, breaks the rule
 * (no match), as the kernel's load does.
 */
#include "nftvm_int.h"

#define NFTVM_RT_KEY_MAX	255	/* the attribute's policy bound */
#define NFTVM_TCP_MSS_DEFAULT	536	/* RFC 1122 */
#define NFTVM_IP4_TCP_MINLEN	(20 + 20)	/* IPv4 + TCP headers */
#define NFTVM_IP6_TCP_MINLEN	(40 + 20)
#define NFTVM_OTHER_MINLEN	40	/* another family: an IPv6 header */

/* the hooks "rt mtu" may run at: the packet has its output route */
#define NFTVM_RT_TCPMSS_HOOKS	(1u << NF_INET_FORWARD |		\
				 1u << NF_INET_LOCAL_OUT |		\
				 1u << NF_INET_POST_ROUTING)

struct nftvm_rt {
	__u8	key;
	__u8	dreg;
};

static const struct nftvm_nla_policy nftvm_rt_policy[NFTA_RT_MAX + 1] = {
	[NFTA_RT_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_RT_KEY]	= { .type = NFTVM_NLA_U32 },
};

/* register bytes per key, 0 for keys the kernel does not know */
static const __u8 nftvm_rt_len[NFT_RT_MAX + 1] = {
	[NFT_RT_CLASSID]	= 4,
	[NFT_RT_NEXTHOP4]	= 4,
	[NFT_RT_NEXTHOP6]	= 16,
	[NFT_RT_TCPMSS]		= 2,
	[NFT_RT_XFRM]		= 1,
};

static int vm_rt_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		      const struct nlattr * const *tb)
{
	struct nftvm_rt *priv = nftvm_expr_priv(expr);
	__u32 key;

	if (!tb[NFTA_RT_KEY] || !tb[NFTA_RT_DREG])
		return -NFTVM_EINVAL;
	key = nftvm_nla_be32(tb[NFTA_RT_KEY]);
	if (key > NFTVM_RT_KEY_MAX)
		return nftvm_fail(ctx, tb[NFTA_RT_KEY], -NFTVM_ERANGE);
	if (key > NFT_RT_MAX || !nftvm_rt_len[key])
		return nftvm_fail(ctx, tb[NFTA_RT_KEY], -NFTVM_EOPNOTSUPP);
	/* the kernel's validate: the MSS needs the output route (here
	 * for a base chain; vm_rt_validate() for those it reaches) */
	if (key == NFT_RT_TCPMSS && ctx->chain && ctx->chain->base &&
	    !(NFTVM_RT_TCPMSS_HOOKS & (1u << ctx->chain->hooknum)))
		return -NFTVM_EOPNOTSUPP;
	priv->key = (__u8)key;
	return nftvm_parse_reg_store(ctx, tb[NFTA_RT_DREG], &priv->dreg,
				     NULL, NFT_DATA_VALUE, nftvm_rt_len[key]);
}

/* the nfproto the kernel's hook runs with: inet runs as IPv4 or IPv6 */
static unsigned int vm_rt_pf(const struct nftvm_pktinfo *pkt)
{
	return pkt->family == NFPROTO_INET ? pkt->l3family : pkt->family;
}

/*
 * The MSS the path allows: the smaller MTU of the packet's route and of
 * the route back to its source, less the IP and TCP headers; the
 * default MSS where that makes no sense.
 */
static __u16 vm_rt_tcpmss(const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_pktmeta *m = pkt->meta;
	__u32 mtu = m->rt_mtu, minlen = NFTVM_OTHER_MINLEN;

	switch (vm_rt_pf(pkt)) {
	case NFPROTO_IPV4:
		minlen = NFTVM_IP4_TCP_MINLEN;
		break;
	case NFPROTO_IPV6:
		minlen = NFTVM_IP6_TCP_MINLEN;
		break;
	}
	if (m->rt_mtu_rev && m->rt_mtu_rev < mtu)
		mtu = m->rt_mtu_rev;
	if (mtu <= minlen || mtu > 0xffff)
		return NFTVM_TCP_MSS_DEFAULT;
	return (__u16)(mtu - minlen);
}

static bool vm_rt_zero(const __u8 *p, unsigned int n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

static void vm_rt_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
		       const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_rt *priv = nftvm_expr_priv(expr);
	const struct nftvm_pktmeta *m = pkt->meta;
	__u32 *d = &regs->data[priv->dreg];
	unsigned int pf = vm_rt_pf(pkt);

	if (!m->rt_dst)
		goto brk;
	switch (priv->key) {
	case NFT_RT_CLASSID:
		*d = m->rt_classid;
		return;
	case NFT_RT_NEXTHOP4:
		if (pf != NFPROTO_IPV4 || pkt->len < 20)
			goto brk;
		/* no gateway: the destination itself */
		nftvm_memcpy(d, vm_rt_zero(m->rt_nexthop, 4) ?
			     pkt->data + 16 : m->rt_nexthop, 4);
		return;
	case NFT_RT_NEXTHOP6:
		if (pf != NFPROTO_IPV6 || pkt->len < 40)
			goto brk;
		nftvm_memcpy(d, vm_rt_zero(m->rt_nexthop, 16) ?
			     pkt->data + 24 : m->rt_nexthop, 16);
		return;
	case NFT_RT_TCPMSS:
		nftvm_reg_store16(d, vm_rt_tcpmss(pkt));
		return;
	case NFT_RT_XFRM:
		nftvm_reg_store8(d, m->rt_xfrm != 0);
		return;
	}
brk:
	regs->verdict.code = NFT_BREAK;
}

static int vm_rt_validate(struct nftvm_vctx *v, const struct nftvm_expr *expr)
{
	const struct nftvm_rt *priv = nftvm_expr_priv(expr);

	if (priv->key != NFT_RT_TCPMSS)
		return 0;
	return nftvm_validate_hooks(v, NFTVM_RT_TCPMSS_HOOKS);
}

static void vm_rt_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_rt *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_be32(b, NFTA_RT_KEY, priv->key);
	nftvm_dump_reg(b, NFTA_RT_DREG, priv->dreg);
}

const struct nftvm_expr_ops nftvm_rt_ops = {
	.name		= "rt",
	.size		= sizeof(struct nftvm_rt),
	.maxattr	= NFTA_RT_MAX,
	.policy		= nftvm_rt_policy,
	.init		= vm_rt_init,
	.eval		= vm_rt_eval,
	.dump		= vm_rt_dump,
	.validate	= vm_rt_validate,
};
