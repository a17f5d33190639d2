// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * connlimit: "ct count [over] N".  The expression remembers the
 * connections it has seen (by the packet's conntrack id, meta ct_id; all
 * packets without conntrack count as one) and matches while their number
 * is at most N (inverted: above N).  Connections are never forgotten:
 * the VM has no conntrack table to tell it that one closed.
 */
#include "nftvm_int.h"

#define NFTVM_CONNLIMIT_MAX	4096	/* ids kept; more count as full */

struct nftvm_connlimit {
	__u32	*ids;
	__u32	count;
	__u32	cap;
	__u32	limit;
	bool	invert;
};

static const struct nftvm_nla_policy
nftvm_connlimit_policy[NFTA_CONNLIMIT_MAX + 1] = {
	[NFTA_CONNLIMIT_COUNT]	= { .type = NFTVM_NLA_U32 },
	[NFTA_CONNLIMIT_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

static int vm_connlimit_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			     const struct nlattr * const *tb)
{
	struct nftvm_connlimit *priv = nftvm_expr_priv(expr);
	__u32 flags;

	if (!tb[NFTA_CONNLIMIT_COUNT])
		return -NFTVM_EINVAL;
	priv->limit = nftvm_nla_be32(tb[NFTA_CONNLIMIT_COUNT]);
	if (tb[NFTA_CONNLIMIT_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_CONNLIMIT_FLAGS]);
		if (flags & ~NFT_CONNLIMIT_F_INV)
			return nftvm_fail(ctx, tb[NFTA_CONNLIMIT_FLAGS],
					  -NFTVM_EOPNOTSUPP);
		priv->invert = flags & NFT_CONNLIMIT_F_INV;
	}
	return 0;
}

/* Add @id if it is new; false when out of room. */
static bool vm_connlimit_add(struct nftvm_connlimit *priv, __u32 id)
{
	__u32 i, ncap, *n;

	for (i = 0; i < priv->count; i++)
		if (priv->ids[i] == id)
			return true;
	if (priv->count == priv->cap) {
		if (priv->cap == NFTVM_CONNLIMIT_MAX)
			return false;
		ncap = priv->cap ? priv->cap * 2 : 8;
		n = nftvm_alloc(ncap * sizeof(*n));
		if (!n)
			return false;
		if (priv->count)
			nftvm_memcpy(n, priv->ids,
				     priv->count * sizeof(*n));
		nftvm_free(priv->ids);
		priv->ids = n;
		priv->cap = ncap;
	}
	priv->ids[priv->count++] = id;
	return true;
}

static void vm_connlimit_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			      const struct nftvm_pktinfo *pkt)
{
	struct nftvm_connlimit *priv = nftvm_expr_priv(expr);
	__u32 id = nftvm_pkt_has_ct(pkt) ? pkt->meta->ct_id : 0;

	/* the kernel drops what it cannot account for */
	if (!vm_connlimit_add(priv, id)) {
		regs->verdict.code = NF_DROP;
		return;
	}
	if ((priv->count > priv->limit) != priv->invert)
		regs->verdict.code = NFT_BREAK;
}

static void vm_connlimit_dump(struct nftvm_nlbuf *b,
			      const struct nftvm_expr *expr)
{
	const struct nftvm_connlimit *priv = nftvm_expr_priv(expr);

	nftvm_nla_put_be32(b, NFTA_CONNLIMIT_COUNT, priv->limit);
	nftvm_nla_put_be32(b, NFTA_CONNLIMIT_FLAGS,
			   priv->invert ? NFT_CONNLIMIT_F_INV : 0);
}

static void vm_connlimit_destroy(struct nftvm_ctx *ctx,
				 struct nftvm_expr *expr)
{
	struct nftvm_connlimit *priv = nftvm_expr_priv(expr);

	nftvm_free(priv->ids);
	priv->ids = NULL;
	priv->count = 0;
	priv->cap = 0;
}

/* a per-element copy starts with no connections of its own */
static int vm_connlimit_clone(struct nftvm_expr *dst,
			      const struct nftvm_expr *src)
{
	struct nftvm_connlimit *d = nftvm_expr_priv(dst);

	d->ids = NULL;
	d->count = 0;
	d->cap = 0;
	return 0;
}

const struct nftvm_expr_ops nftvm_connlimit_ops = {
	.name		= "connlimit",
	.size		= sizeof(struct nftvm_connlimit),
	.maxattr	= NFTA_CONNLIMIT_MAX,
	.policy		= nftvm_connlimit_policy,
	.stateful	= true,
	.init		= vm_connlimit_init,
	.eval		= vm_connlimit_eval,
	.dump		= vm_connlimit_dump,
	.destroy	= vm_connlimit_destroy,
	.clone		= vm_connlimit_clone,
};
