// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ct: load conntrack data of the packet (struct nftvm_pktmeta ct_*), or
 * with a source register (chosen at load time) write the conntrack mark,
 * secmark, labels, zone or event mask.  One table row per loadable key:
 * its width, whether it needs or refuses a direction, and its fetch.
 * Without a conntrack entry only "ct state" matches.
 */
#include "nftvm_int.h"

#define NFTVM_CT_DIR_MAX	2	/* IP_CT_DIR_MAX */

struct nftvm_ct {
	__u8	key;
	__u8	dir;		/* NFTVM_CT_DIR_MAX: none */
	__u8	reg;		/* dreg, or sreg for ct set */
};

enum nftvm_ct_dirrule {
	NFTVM_CT_DIR_NONE,	/* a direction is -EINVAL */
	NFTVM_CT_DIR_NEED,	/* a direction is required */
	NFTVM_CT_DIR_MAY,	/* optional (sums both without) */
};

typedef bool (*nftvm_ct_get_fn)(__u32 *d, const struct nftvm_ct *priv,
				const struct nftvm_pktinfo *pkt);

struct nftvm_ct_key {
	__u8			len;	/* 0: per family (src/dst) */
	__u8			dirrule;
	nftvm_ct_get_fn		get;
};

static const struct nftvm_nla_policy nftvm_ct_policy[NFTA_CT_MAX + 1] = {
	[NFTA_CT_DREG]		= { .type = NFTVM_NLA_U32 },
	[NFTA_CT_KEY]		= { .type = NFTVM_NLA_U32 },
	[NFTA_CT_DIRECTION]	= { .type = NFTVM_NLA_U8 },
	[NFTA_CT_SREG]		= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_expr_ops nftvm_ct_set_ops;

static __u8 ct_l3num(const struct nftvm_pktinfo *pkt)
{
	return pkt->meta->ct_l3num ? pkt->meta->ct_l3num : pkt->l3family;
}

static bool ct_direction(__u32 *d, const struct nftvm_ct *priv,
			 const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, pkt->meta->ct_dir);
	return true;
}

static bool ct_u32(__u32 *d, __u32 v)
{
	*d = v;
	return true;
}

static bool ct_status(__u32 *d, const struct nftvm_ct *priv,
		      const struct nftvm_pktinfo *pkt)
{
	return ct_u32(d, pkt->meta->ct_status);
}

static bool ct_mark(__u32 *d, const struct nftvm_ct *priv,
		    const struct nftvm_pktinfo *pkt)
{
	return ct_u32(d, pkt->meta->ct_mark);
}

static bool ct_secmark(__u32 *d, const struct nftvm_ct *priv,
		       const struct nftvm_pktinfo *pkt)
{
	return ct_u32(d, pkt->meta->ct_secmark);
}

static bool ct_expiration(__u32 *d, const struct nftvm_ct *priv,
			  const struct nftvm_pktinfo *pkt)
{
	return ct_u32(d, pkt->meta->ct_expiration);
}

static bool ct_id(__u32 *d, const struct nftvm_ct *priv,
		  const struct nftvm_pktinfo *pkt)
{
	return ct_u32(d, pkt->meta->ct_id);
}

static bool ct_helper(__u32 *d, const struct nftvm_ct *priv,
		      const struct nftvm_pktinfo *pkt)
{
	size_t n = nftvm_strnlen(pkt->meta->ct_helper, 16);

	if (!n)
		return false;
	nftvm_memset(d, 0, 16);
	nftvm_memcpy(d, pkt->meta->ct_helper, n);
	return true;
}

static bool ct_labels(__u32 *d, const struct nftvm_ct *priv,
		      const struct nftvm_pktinfo *pkt)
{
	nftvm_memcpy(d, pkt->meta->ct_labels, 16);
	return true;
}

static __u64 ct_count(const __u64 *per_dir, __u8 dir)
{
	return dir < NFTVM_CT_DIR_MAX ? per_dir[dir] : per_dir[0] + per_dir[1];
}

static bool ct_pkts(__u32 *d, const struct nftvm_ct *priv,
		    const struct nftvm_pktinfo *pkt)
{
	__u64 v = ct_count(pkt->meta->ct_packets, priv->dir);

	nftvm_memcpy(d, &v, sizeof(v));
	return true;
}

static bool ct_bytes(__u32 *d, const struct nftvm_ct *priv,
		     const struct nftvm_pktinfo *pkt)
{
	__u64 v = ct_count(pkt->meta->ct_bytes, priv->dir);

	nftvm_memcpy(d, &v, sizeof(v));
	return true;
}

static bool ct_avgpkt(__u32 *d, const struct nftvm_ct *priv,
		      const struct nftvm_pktinfo *pkt)
{
	__u64 p = ct_count(pkt->meta->ct_packets, priv->dir);
	__u64 v = p ? ct_count(pkt->meta->ct_bytes, priv->dir) / p : 0;

	nftvm_memcpy(d, &v, sizeof(v));
	return true;
}

static bool ct_l3protocol(__u32 *d, const struct nftvm_ct *priv,
			  const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, ct_l3num(pkt));
	return true;
}

static bool ct_protocol(__u32 *d, const struct nftvm_ct *priv,
			const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store8(d, pkt->meta->ct_protonum ? pkt->meta->ct_protonum :
			    pkt->l4proto);
	return true;
}

static bool ct_zone(__u32 *d, const struct nftvm_ct *priv,
		    const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store16(d, pkt->meta->ct_zone);
	return true;
}

static bool ct_addr(__u32 *d, const __u8 *a, const struct nftvm_pktinfo *pkt,
		    __u8 want)
{
	__u8 l3 = ct_l3num(pkt);

	if (want && l3 != want)
		return false;
	nftvm_memcpy(d, a, l3 == NFPROTO_IPV4 ? 4 : 16);
	return true;
}

static bool ct_src(__u32 *d, const struct nftvm_ct *priv,
		   const struct nftvm_pktinfo *pkt)
{
	return ct_addr(d, pkt->meta->ct_src[priv->dir], pkt, 0);
}

static bool ct_dst(__u32 *d, const struct nftvm_ct *priv,
		   const struct nftvm_pktinfo *pkt)
{
	return ct_addr(d, pkt->meta->ct_dst[priv->dir], pkt, 0);
}

static bool ct_src_ip(__u32 *d, const struct nftvm_ct *priv,
		      const struct nftvm_pktinfo *pkt)
{
	return ct_addr(d, pkt->meta->ct_src[priv->dir], pkt, NFPROTO_IPV4);
}

static bool ct_dst_ip(__u32 *d, const struct nftvm_ct *priv,
		      const struct nftvm_pktinfo *pkt)
{
	return ct_addr(d, pkt->meta->ct_dst[priv->dir], pkt, NFPROTO_IPV4);
}

static bool ct_src_ip6(__u32 *d, const struct nftvm_ct *priv,
		       const struct nftvm_pktinfo *pkt)
{
	return ct_addr(d, pkt->meta->ct_src[priv->dir], pkt, NFPROTO_IPV6);
}

static bool ct_dst_ip6(__u32 *d, const struct nftvm_ct *priv,
		       const struct nftvm_pktinfo *pkt)
{
	return ct_addr(d, pkt->meta->ct_dst[priv->dir], pkt, NFPROTO_IPV6);
}

static bool ct_proto_src(__u32 *d, const struct nftvm_ct *priv,
			 const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store16(d, pkt->meta->ct_sport[priv->dir]);
	return true;
}

static bool ct_proto_dst(__u32 *d, const struct nftvm_ct *priv,
			 const struct nftvm_pktinfo *pkt)
{
	nftvm_reg_store16(d, pkt->meta->ct_dport[priv->dir]);
	return true;
}

/* NFT_CT_STATE is handled apart: it is the one key without an entry */
static const struct nftvm_ct_key nftvm_ct_keys[] = {
	[NFT_CT_STATE]		= { 4, NFTVM_CT_DIR_NONE, NULL },
	[NFT_CT_DIRECTION]	= { 1, NFTVM_CT_DIR_NONE, ct_direction },
	[NFT_CT_STATUS]		= { 4, NFTVM_CT_DIR_NONE, ct_status },
	[NFT_CT_MARK]		= { 4, NFTVM_CT_DIR_NONE, ct_mark },
	[NFT_CT_SECMARK]	= { 4, NFTVM_CT_DIR_NONE, ct_secmark },
	[NFT_CT_EXPIRATION]	= { 4, NFTVM_CT_DIR_NONE, ct_expiration },
	[NFT_CT_HELPER]		= { 16, NFTVM_CT_DIR_NONE, ct_helper },
	[NFT_CT_L3PROTOCOL]	= { 1, NFTVM_CT_DIR_MAY, ct_l3protocol },
	[NFT_CT_SRC]		= { 0, NFTVM_CT_DIR_NEED, ct_src },
	[NFT_CT_DST]		= { 0, NFTVM_CT_DIR_NEED, ct_dst },
	[NFT_CT_PROTOCOL]	= { 1, NFTVM_CT_DIR_MAY, ct_protocol },
	[NFT_CT_PROTO_SRC]	= { 2, NFTVM_CT_DIR_NEED, ct_proto_src },
	[NFT_CT_PROTO_DST]	= { 2, NFTVM_CT_DIR_NEED, ct_proto_dst },
	[NFT_CT_LABELS]		= { 16, NFTVM_CT_DIR_NONE, ct_labels },
	[NFT_CT_PKTS]		= { 8, NFTVM_CT_DIR_MAY, ct_pkts },
	[NFT_CT_BYTES]		= { 8, NFTVM_CT_DIR_MAY, ct_bytes },
	[NFT_CT_AVGPKT]		= { 8, NFTVM_CT_DIR_MAY, ct_avgpkt },
	[NFT_CT_ZONE]		= { 2, NFTVM_CT_DIR_MAY, ct_zone },
	[NFT_CT_SRC_IP]		= { 4, NFTVM_CT_DIR_NEED, ct_src_ip },
	[NFT_CT_DST_IP]		= { 4, NFTVM_CT_DIR_NEED, ct_dst_ip },
	[NFT_CT_SRC_IP6]	= { 16, NFTVM_CT_DIR_NEED, ct_src_ip6 },
	[NFT_CT_DST_IP6]	= { 16, NFTVM_CT_DIR_NEED, ct_dst_ip6 },
	[NFT_CT_ID]		= { 4, NFTVM_CT_DIR_NONE, ct_id },
};

NFTVM_BUILD_BUG_ON(NFTVM_ARRAY_SIZE(nftvm_ct_keys) != __NFT_CT_MAX);

static int vm_ct_parse_dir(struct nftvm_ctx *ctx, struct nftvm_ct *priv,
			   const struct nlattr *attr)
{
	priv->dir = NFTVM_CT_DIR_MAX;
	if (!attr)
		return 0;
	priv->dir = *(const __u8 *)nftvm_nla_data(attr);
	if (priv->dir >= NFTVM_CT_DIR_MAX)
		return nftvm_fail(ctx, attr, -NFTVM_EINVAL);
	return 0;
}

static int vm_ct_get_init(struct nftvm_ctx *ctx, struct nftvm_ct *priv,
			  const struct nlattr * const *tb)
{
	const struct nlattr *dir = tb[NFTA_CT_DIRECTION];
	const struct nftvm_ct_key *k;
	unsigned int len;
	int err;

	if (priv->key >= NFTVM_ARRAY_SIZE(nftvm_ct_keys))
		return nftvm_fail(ctx, tb[NFTA_CT_KEY], -NFTVM_EOPNOTSUPP);
	k = &nftvm_ct_keys[priv->key];
	/* the event mask can only be written */
	if (!k->get && priv->key != NFT_CT_STATE)
		return nftvm_fail(ctx, tb[NFTA_CT_KEY], -NFTVM_EOPNOTSUPP);
	if (k->dirrule == NFTVM_CT_DIR_NONE && dir)
		return nftvm_fail(ctx, dir, -NFTVM_EINVAL);
	if (k->dirrule == NFTVM_CT_DIR_NEED && !dir)
		return -NFTVM_EINVAL;
	len = k->len;
	if (!len) {
		/* the deprecated src/dst: as wide as the table's family */
		switch (ctx->family) {
		case NFPROTO_IPV4:
			len = 4;
			break;
		case NFPROTO_IPV6:
		case NFPROTO_INET:
			len = 16;
			break;
		default:
			return -NFTVM_EAFNOSUPPORT;
		}
	}
	err = vm_ct_parse_dir(ctx, priv, dir);
	if (err < 0)
		return err;
	return nftvm_parse_reg_store(ctx, tb[NFTA_CT_DREG], &priv->reg, NULL,
				     NFT_DATA_VALUE, len);
}

static int vm_ct_set_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_ct *priv = nftvm_expr_priv(expr);
	unsigned int len;
	int err;

	switch (priv->key) {
	case NFT_CT_MARK:
	case NFT_CT_SECMARK:
	case NFT_CT_EVENTMASK:
		len = 4;
		break;
	case NFT_CT_LABELS:
		len = 16;
		break;
	case NFT_CT_ZONE:
		len = 2;
		break;
	default:
		return nftvm_fail(ctx, tb[NFTA_CT_KEY], -NFTVM_EOPNOTSUPP);
	}
	if (priv->key != NFT_CT_ZONE && tb[NFTA_CT_DIRECTION])
		return nftvm_fail(ctx, tb[NFTA_CT_DIRECTION], -NFTVM_EINVAL);
	err = vm_ct_parse_dir(ctx, priv, tb[NFTA_CT_DIRECTION]);
	if (err < 0)
		return err;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_CT_SREG], &priv->reg, len);
	if (err < 0)
		return err;
	expr->ops = &nftvm_ct_set_ops;
	return 0;
}

static int vm_ct_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		      const struct nlattr * const *tb)
{
	struct nftvm_ct *priv = nftvm_expr_priv(expr);

	if (!tb[NFTA_CT_KEY] || (tb[NFTA_CT_DREG] && tb[NFTA_CT_SREG]))
		return -NFTVM_EINVAL;
	priv->key = (__u8)nftvm_nla_be32(tb[NFTA_CT_KEY]);
	if (nftvm_nla_be32(tb[NFTA_CT_KEY]) > 0xff)
		return nftvm_fail(ctx, tb[NFTA_CT_KEY], -NFTVM_EOPNOTSUPP);
	if (tb[NFTA_CT_DREG])
		return vm_ct_get_init(ctx, priv, tb);
	if (tb[NFTA_CT_SREG])
		return vm_ct_set_init(ctx, expr, tb);
	return -NFTVM_EINVAL;
}

static void vm_ct_get_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_ct *priv = nftvm_expr_priv(expr);
	__u32 *d = &regs->data[priv->reg];
	__u32 st = pkt->meta->ct_state;

	if (priv->key == NFT_CT_STATE) {
		if (nftvm_pkt_has_ct(pkt))
			*d = st & (NFTVM_CT_ESTABLISHED | NFTVM_CT_RELATED |
				   NFTVM_CT_NEW);
		else if (st & NFTVM_CT_UNTRACKED)
			*d = NFTVM_CT_UNTRACKED;
		else
			*d = NFTVM_CT_INVALID;
		return;
	}
	if (!nftvm_pkt_has_ct(pkt) ||
	    !nftvm_ct_keys[priv->key].get(d, priv, pkt))
		regs->verdict.code = NFT_BREAK;
}

/*
 * Writes go to the result's metadata copy.  Only the zone is set before
 * conntrack exists (on its template); everything else needs an entry.
 */
static void vm_ct_set_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_ct *priv = nftvm_expr_priv(expr);
	const __u32 *s = &regs->data[priv->reg];
	struct nftvm_pktmeta *m = &pkt->res->meta;
	unsigned int i;

	if (priv->key == NFT_CT_ZONE) {
		if (!nftvm_pkt_has_ct(pkt))
			m->ct_zone = *(const __u16 *)s;
		return;
	}
	if (!nftvm_pkt_has_ct(pkt))
		return;
	switch (priv->key) {
	case NFT_CT_MARK:
		m->ct_mark = *s;
		break;
	case NFT_CT_SECMARK:
		m->ct_secmark = *s;
		break;
	case NFT_CT_EVENTMASK:
		m->ct_eventmask = *s;
		break;
	case NFT_CT_LABELS:
		/* labels are only ever added */
		for (i = 0; i < 16; i++)
			m->ct_labels[i] |= ((const __u8 *)s)[i];
		break;
	}
}

static bool vm_ct_dumps_dir(const struct nftvm_ct *priv)
{
	const struct nftvm_ct_key *k = &nftvm_ct_keys[priv->key];

	if (k->dirrule == NFTVM_CT_DIR_NEED)
		return true;
	switch (priv->key) {
	case NFT_CT_BYTES:
	case NFT_CT_PKTS:
	case NFT_CT_AVGPKT:
	case NFT_CT_ZONE:
		return priv->dir < NFTVM_CT_DIR_MAX;
	}
	return false;
}

static void vm_ct_get_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_ct *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_CT_DREG, priv->reg);
	nftvm_nla_put_be32(b, NFTA_CT_KEY, priv->key);
	if (vm_ct_dumps_dir(priv))
		nftvm_nla_put(b, NFTA_CT_DIRECTION, &priv->dir, 1);
}

static void vm_ct_set_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_ct *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_CT_SREG, priv->reg);
	nftvm_nla_put_be32(b, NFTA_CT_KEY, priv->key);
	if (priv->key == NFT_CT_ZONE && priv->dir < NFTVM_CT_DIR_MAX)
		nftvm_nla_put(b, NFTA_CT_DIRECTION, &priv->dir, 1);
}

const struct nftvm_expr_ops nftvm_ct_ops = {
	.name		= "ct",
	.size		= sizeof(struct nftvm_ct),
	.maxattr	= NFTA_CT_MAX,
	.policy		= nftvm_ct_policy,
	.init		= vm_ct_init,
	.eval		= vm_ct_get_eval,
	.dump		= vm_ct_get_dump,
};

/* selected by vm_ct_set_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_ct_set_ops = {
	.name		= "ct",
	.size		= sizeof(struct nftvm_ct),
	.maxattr	= NFTA_CT_MAX,
	.policy		= nftvm_ct_policy,
	.init		= vm_ct_init,
	.eval		= vm_ct_set_eval,
	.dump		= vm_ct_set_dump,
};
