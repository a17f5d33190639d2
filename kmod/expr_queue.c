// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * queue: hand the packet to a user space queue: the verdict is
 * NF_QUEUE with the queue number in its upper 16 bits (and the bypass
 * flag).  The number is fixed, taken from a register (chosen at load
 * time), or spread over a range by CPU (fanout, meta cpu) or by a hash
 * of the addresses and protocol.  The kernel seeds that hash randomly at
 * boot; the VM uses 0, so only the range is comparable.
 */
#include "nftvm_int.h"

struct nftvm_queue {
	__u16	num;
	__u16	total;
	__u16	flags;
	__u8	sreg;
};

static const struct nftvm_nla_policy nftvm_queue_policy[NFTA_QUEUE_MAX + 1] = {
	[NFTA_QUEUE_NUM]	= { .type = NFTVM_NLA_U16 },
	[NFTA_QUEUE_TOTAL]	= { .type = NFTVM_NLA_U16 },
	[NFTA_QUEUE_FLAGS]	= { .type = NFTVM_NLA_U16 },
	[NFTA_QUEUE_SREG_QNUM]	= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_expr_ops nftvm_queue_sreg_ops;

static __u16 vm_nla_be16(const struct nlattr *nla)
{
	return nftvm_get_be16(nftvm_nla_data(nla));
}

static int vm_queue_flags(struct nftvm_ctx *ctx, struct nftvm_queue *priv,
			  const struct nlattr *attr)
{
	if (!attr)
		return 0;
	priv->flags = vm_nla_be16(attr);
	if (priv->flags & ~NFT_QUEUE_FLAG_MASK)
		return nftvm_fail(ctx, attr, -NFTVM_EINVAL);
	return 0;
}

static int vm_queue_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			 const struct nlattr * const *tb)
{
	struct nftvm_queue *priv = nftvm_expr_priv(expr);
	int err;

	if (tb[NFTA_QUEUE_NUM] && tb[NFTA_QUEUE_SREG_QNUM])
		return -NFTVM_EINVAL;
	if (tb[NFTA_QUEUE_SREG_QNUM]) {
		err = nftvm_parse_reg_load(ctx, tb[NFTA_QUEUE_SREG_QNUM],
					   &priv->sreg, sizeof(__u32));
		if (err < 0)
			return err;
		err = vm_queue_flags(ctx, priv, tb[NFTA_QUEUE_FLAGS]);
		if (err < 0)
			return err;
		if (priv->flags & NFT_QUEUE_FLAG_CPU_FANOUT)
			return nftvm_fail(ctx, tb[NFTA_QUEUE_FLAGS],
					  -NFTVM_EOPNOTSUPP);
		expr->ops = &nftvm_queue_sreg_ops;
		return 0;
	}
	if (!tb[NFTA_QUEUE_NUM])
		return -NFTVM_EINVAL;
	priv->num = vm_nla_be16(tb[NFTA_QUEUE_NUM]);
	priv->total = tb[NFTA_QUEUE_TOTAL] ? vm_nla_be16(tb[NFTA_QUEUE_TOTAL])
					   : 1;
	if (!priv->total)
		return nftvm_fail(ctx, tb[NFTA_QUEUE_TOTAL], -NFTVM_EINVAL);
	if ((__u32)priv->num + priv->total - 1 > 0xffff)
		return nftvm_fail(ctx, tb[NFTA_QUEUE_TOTAL], -NFTVM_ERANGE);
	return vm_queue_flags(ctx, priv, tb[NFTA_QUEUE_FLAGS]);
}

/*
 * Which queue of the range: like the kernel, the source and destination
 * addresses are xor-ed (both directions pick the same queue) and mixed
 * with the protocol; the mixing constant stands for the kernel's random
 * seed.
 */
static __u32 vm_queue_hash(const struct nftvm_pktinfo *pkt)
{
	unsigned int i, words = pkt->l3family == NFPROTO_IPV6 ? 4 : 1;
	unsigned int off = pkt->l3family == NFPROTO_IPV6 ? 8 : 12;
	__u32 x = 0, h;

	if (pkt->len < off + 8 * words)
		return 0;
	for (i = 0; i < words; i++)
		x ^= nftvm_get_be32(pkt->data + off + 4 * i) ^
		     nftvm_get_be32(pkt->data + off + 4 * (words + i));
	h = (x ^ pkt->l4proto) * 0x9e3779b1u;
	return h ^ (h >> 15);
}

static void vm_queue_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			  const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_queue *priv = nftvm_expr_priv(expr);
	__u32 q = priv->num;

	if (priv->total > 1) {
		if (priv->flags & NFT_QUEUE_FLAG_CPU_FANOUT)
			q += pkt->meta->cpu % priv->total;
		else
			q += (__u32)(((__u64)vm_queue_hash(pkt) *
				      priv->total) >> 32);
	}
	regs->verdict.code = (int)NF_QUEUE_NR(q);
	if (priv->flags & NFT_QUEUE_FLAG_BYPASS)
		regs->verdict.code |= NF_VERDICT_FLAG_QUEUE_BYPASS;
}

static void vm_queue_sreg_eval(struct nftvm_expr *expr,
			       struct nftvm_regs *regs,
			       const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_queue *priv = nftvm_expr_priv(expr);

	regs->verdict.code = (int)NF_QUEUE_NR(regs->data[priv->sreg]);
	if (priv->flags & NFT_QUEUE_FLAG_BYPASS)
		regs->verdict.code |= NF_VERDICT_FLAG_QUEUE_BYPASS;
}

static void vm_put_be16(struct nftvm_nlbuf *b, __u16 type, __u16 v)
{
	__u16 be = nftvm_htons(v);

	nftvm_nla_put(b, type, &be, sizeof(be));
}

static void vm_queue_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_queue *priv = nftvm_expr_priv(expr);

	vm_put_be16(b, NFTA_QUEUE_NUM, priv->num);
	vm_put_be16(b, NFTA_QUEUE_TOTAL, priv->total);
	vm_put_be16(b, NFTA_QUEUE_FLAGS, priv->flags);
}

static void vm_queue_sreg_dump(struct nftvm_nlbuf *b,
			       const struct nftvm_expr *expr)
{
	const struct nftvm_queue *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_QUEUE_SREG_QNUM, priv->sreg);
	vm_put_be16(b, NFTA_QUEUE_FLAGS, priv->flags);
}

const struct nftvm_expr_ops nftvm_queue_ops = {
	.name		= "queue",
	.size		= sizeof(struct nftvm_queue),
	.maxattr	= NFTA_QUEUE_MAX,
	.policy		= nftvm_queue_policy,
	.init		= vm_queue_init,
	.eval		= vm_queue_eval,
	.dump		= vm_queue_dump,
};

/* selected by vm_queue_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_queue_sreg_ops = {
	.name		= "queue",
	.size		= sizeof(struct nftvm_queue),
	.maxattr	= NFTA_QUEUE_MAX,
	.policy		= nftvm_queue_policy,
	.init		= vm_queue_init,
	.eval		= vm_queue_sreg_eval,
	.dump		= vm_queue_sreg_dump,
};
