// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meta: load packet metadata.  One table row per key: its register width
 * and the function that fetches it; a fetch that finds nothing (no input
 * interface, no socket, no transport header) makes the rule not match.
 */
#include "nftvm_int.h"

struct nftvm_meta {
	__u8	key;
	__u8	dreg;		/* sreg for meta set */
};

static const struct nftvm_expr_ops nftvm_meta_set_ops;

typedef bool (*nftvm_meta_get_fn)(__u32 *dest,
				  const struct nftvm_pktinfo *pkt);

struct nftvm_meta_key {
	__u8			len;
	nftvm_meta_get_fn	get;
};

static const struct nftvm_nla_policy nftvm_meta_policy[NFTA_META_MAX + 1] = {
	[NFTA_META_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_META_KEY]		= { .type = NFTVM_NLA_U32 },
	[NFTA_META_SREG]	= { .type = NFTVM_NLA_U32 },
};

#define NFTVM_NSEC_PER_SEC	1000000000ull
#define NFTVM_SECS_PER_DAY	86400u

static bool meta_len(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->len;
	return true;
}

static bool meta_protocol(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store16(d, pkt->protocol);
	return true;
}

static bool meta_nfproto(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, pkt->family);
	return true;
}

static bool meta_l4proto(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	if (!pkt->tprot_set)
		return false;
	nftvm_reg_store8(d, pkt->l4proto);
	return true;
}

static bool meta_priority(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->priority;
	return true;
}

static bool meta_mark(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->mark;
	return true;
}

/*
 * Without the device (no oif at input, no iif at output) the kernel
 * loads index 0 and the empty name, so "oif != lo" matches there; only
 * the type and group keys end the rule.
 */
static bool meta_iif(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->iif;
	return true;
}

static bool meta_oif(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->oif;
	return true;
}

static void meta_ifname(__u32 *d, const char *name)
{
	size_t n = nftvm_strnlen(name, NFTVM_IFNAMSIZ);

	nftvm_memset(d, 0, NFTVM_IFNAMSIZ);
	nftvm_memcpy(d, name, n);
}

static bool meta_iifname(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	meta_ifname(d, pkt->meta->iif ? pkt->meta->iifname : "");
	return true;
}

static bool meta_oifname(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	meta_ifname(d, pkt->meta->oif ? pkt->meta->oifname : "");
	return true;
}

static bool meta_iiftype(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	if (!pkt->meta->iif)
		return false;
	nftvm_reg_store16(d, pkt->meta->iiftype);
	return true;
}

static bool meta_oiftype(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	if (!pkt->meta->oif)
		return false;
	nftvm_reg_store16(d, pkt->meta->oiftype);
	return true;
}

static bool meta_skuid(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->skuid;
	return pkt->meta->sk_valid;
}

static bool meta_skgid(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->skgid;
	return pkt->meta->sk_valid;
}

static bool meta_nftrace(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, pkt->meta->nftrace);
	return true;
}

static bool meta_secmark(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->secmark;
	return true;
}

static bool meta_pkttype(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, pkt->meta->pkttype);
	return true;
}

static bool meta_cpu(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->cpu;
	return true;
}

static bool meta_iifgroup(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->iifgroup;
	return pkt->meta->iif != 0;
}

static bool meta_oifgroup(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->oifgroup;
	return pkt->meta->oif != 0;
}

static bool meta_cgroup(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->cgroup;
	return pkt->meta->sk_valid;
}

static bool meta_prandom(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = pkt->meta->prandom;
	return true;
}

static bool meta_time_ns(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	__u64 t = pkt->meta->time_ns;

	nftvm_memcpy(d, &t, sizeof(t));
	return true;
}

/* 1970-01-01 was a Thursday (4); times are UTC */
static bool meta_time_day(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	__u64 days = pkt->meta->time_ns / NFTVM_NSEC_PER_SEC /
		     NFTVM_SECS_PER_DAY;

	nftvm_reg_store8(d, (__u8)((days + 4) % 7));
	return true;
}

static bool meta_time_hour(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	*d = (__u32)(pkt->meta->time_ns / NFTVM_NSEC_PER_SEC %
		     NFTVM_SECS_PER_DAY);
	return true;
}

/* the packet came out of IPsec (the kernel's skb secpath) */
static bool meta_secpath(__u32 *d, const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, pkt->meta->secpath != 0);
	return true;
}

static const struct nftvm_meta_key nftvm_meta_keys[] = {
	[NFT_META_LEN]		= { 4, meta_len },
	[NFT_META_PROTOCOL]	= { 2, meta_protocol },
	[NFT_META_PRIORITY]	= { 4, meta_priority },
	[NFT_META_MARK]		= { 4, meta_mark },
	[NFT_META_IIF]		= { 4, meta_iif },
	[NFT_META_OIF]		= { 4, meta_oif },
	[NFT_META_IIFNAME]	= { NFTVM_IFNAMSIZ, meta_iifname },
	[NFT_META_OIFNAME]	= { NFTVM_IFNAMSIZ, meta_oifname },
	[NFT_META_IIFTYPE]	= { 2, meta_iiftype },
	[NFT_META_OIFTYPE]	= { 2, meta_oiftype },
	[NFT_META_SKUID]	= { 4, meta_skuid },
	[NFT_META_SKGID]	= { 4, meta_skgid },
	[NFT_META_NFTRACE]	= { 1, meta_nftrace },
	[NFT_META_SECMARK]	= { 4, meta_secmark },
	[NFT_META_NFPROTO]	= { 1, meta_nfproto },
	[NFT_META_L4PROTO]	= { 1, meta_l4proto },
	[NFT_META_PKTTYPE]	= { 1, meta_pkttype },
	[NFT_META_CPU]		= { 4, meta_cpu },
	[NFT_META_IIFGROUP]	= { 4, meta_iifgroup },
	[NFT_META_OIFGROUP]	= { 4, meta_oifgroup },
	[NFT_META_CGROUP]	= { 4, meta_cgroup },
	[NFT_META_PRANDOM]	= { 4, meta_prandom },
	[NFT_META_TIME_NS]	= { 8, meta_time_ns },
	[NFT_META_TIME_DAY]	= { 1, meta_time_day },
	[NFT_META_TIME_HOUR]	= { 4, meta_time_hour },
	[NFT_META_SECPATH]	= { 1, meta_secpath },
};

/* the keys a rule may write, and their widths */
static unsigned int vm_meta_set_len(__u32 key)
{
	switch (key) {
	case NFT_META_MARK:
	case NFT_META_PRIORITY:
	case NFT_META_SECMARK:
		return 4;
	case NFT_META_NFTRACE:
	case NFT_META_PKTTYPE:
		return 1;
	}
	return 0;
}

static int vm_meta_set_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			    const struct nlattr * const *tb)
{
	struct nftvm_meta *priv = nftvm_expr_priv(expr);
	__u32 key = nftvm_nla_be32(tb[NFTA_META_KEY]);
	unsigned int len = vm_meta_set_len(key);
	int err;

	if (!len)
		return nftvm_fail(ctx, tb[NFTA_META_KEY], -NFTVM_EOPNOTSUPP);
	priv->key = (__u8)key;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_META_SREG], &priv->dreg, len);
	if (err < 0)
		return err;
	expr->ops = &nftvm_meta_set_ops;
	return 0;
}

#define NFTVM_PACKET_OTHERHOST	3	/* highest settable pkttype */

static void vm_meta_set_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			     const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_meta *priv = nftvm_expr_priv(expr);
	struct nftvm_pktmeta *m = &pkt->res->meta;
	__u32 v = regs->data[priv->dreg];
	__u8 v8 = *(const __u8 *)&regs->data[priv->dreg];

	switch (priv->key) {
	case NFT_META_MARK:
		m->mark = v;
		break;
	case NFT_META_PRIORITY:
		m->priority = v;
		break;
	case NFT_META_SECMARK:
		m->secmark = v;
		break;
	case NFT_META_NFTRACE:
		m->nftrace = v8 ? 1 : 0;
		break;
	case NFT_META_PKTTYPE:
		/* only between host, broadcast, multicast and otherhost */
		if (v8 <= NFTVM_PACKET_OTHERHOST &&
		    m->pkttype <= NFTVM_PACKET_OTHERHOST)
			m->pkttype = v8;
		break;
	}
}

static void vm_meta_set_dump(struct nftvm_nlbuf *b,
			     const struct nftvm_expr *expr)
{
	const struct nftvm_meta *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_be32(b, NFTA_META_KEY, priv->key);
	nftvm_dump_reg(b, NFTA_META_SREG, priv->dreg);
}

/*
 * A secpath exists only on the receive path, where IPsec decapsulated
 * the packet (the kernel's nft_meta_get_validate_xfrm): base chains of
 * other hooks and families refuse the key.
 */
static unsigned int vm_meta_secpath_hooks(unsigned int family)
{
	switch (family) {
	case NFPROTO_NETDEV:
		return 1u << NF_NETDEV_INGRESS;
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_INET:
		return 1u << NF_INET_PRE_ROUTING | 1u << NF_INET_LOCAL_IN |
		       1u << NF_INET_FORWARD;
	default:
		return 0;
	}
}

static int vm_meta_secpath_check(const struct nftvm_ctx *ctx)
{
	unsigned int hooks = vm_meta_secpath_hooks(ctx->family);

	if (!hooks)
		return -NFTVM_EOPNOTSUPP;
	if (ctx->chain && ctx->chain->base &&
	    !(hooks & (1u << ctx->chain->hooknum)))
		return -NFTVM_EOPNOTSUPP;
	return 0;
}

/* ... and in the chains a base chain reaches (vm_meta_secpath_check()
 * sees the rule's own chain only) */
static int vm_meta_validate(struct nftvm_vctx *v,
			    const struct nftvm_expr *expr)
{
	const struct nftvm_meta *priv = nftvm_expr_priv(expr);

	if (priv->key != NFT_META_SECPATH)
		return 0;
	return nftvm_validate_hooks(v, v->base ?
		vm_meta_secpath_hooks(v->base->table->family) : 0);
}

static int vm_meta_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			const struct nlattr * const *tb)
{
	struct nftvm_meta *priv = nftvm_expr_priv(expr);
	__u32 key;
	int err;

	if (!tb[NFTA_META_KEY])
		return -NFTVM_EINVAL;
	if (tb[NFTA_META_SREG]) {
		if (tb[NFTA_META_DREG])
			return -NFTVM_EINVAL;
		return vm_meta_set_init(ctx, expr, tb);
	}
	if (!tb[NFTA_META_DREG])
		return -NFTVM_EINVAL;
	key = nftvm_nla_be32(tb[NFTA_META_KEY]);
	if (key >= NFTVM_ARRAY_SIZE(nftvm_meta_keys) ||
	    !nftvm_meta_keys[key].get)
		return nftvm_fail(ctx, tb[NFTA_META_KEY], -NFTVM_EOPNOTSUPP);
	if (key == NFT_META_SECPATH) {
		err = vm_meta_secpath_check(ctx);
		if (err < 0)
			return err;
	}
	priv->key = (__u8)key;
	return nftvm_parse_reg_store(ctx, tb[NFTA_META_DREG], &priv->dreg,
				     NULL, NFT_DATA_VALUE,
				     nftvm_meta_keys[key].len);
}

static void vm_meta_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			 const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_meta *priv = nftvm_expr_priv(expr);

	if (!nftvm_meta_keys[priv->key].get(&regs->data[priv->dreg], pkt))
		regs->verdict.code = NFT_BREAK;
}

static void vm_meta_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_meta *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_be32(b, NFTA_META_KEY, priv->key);
	nftvm_dump_reg(b, NFTA_META_DREG, priv->dreg);
}

const struct nftvm_expr_ops nftvm_meta_ops = {
	.name		= "meta",
	.size		= sizeof(struct nftvm_meta),
	.maxattr	= NFTA_META_MAX,
	.policy		= nftvm_meta_policy,
	.init		= vm_meta_init,
	.eval		= vm_meta_eval,
	.dump		= vm_meta_dump,
	.validate	= vm_meta_validate,
};

/* selected by vm_meta_set_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_meta_set_ops = {
	.name		= "meta",
	.size		= sizeof(struct nftvm_meta),
	.maxattr	= NFTA_META_MAX,
	.policy		= nftvm_meta_policy,
	.init		= vm_meta_init,
	.eval		= vm_meta_set_eval,
	.dump		= vm_meta_set_dump,
};
