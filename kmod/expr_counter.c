// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counter: count packets and bytes of the packets that reach it; the
 * same state as a named object (NFT_OBJECT_COUNTER) behind objref.
 */
#include "nftvm_int.h"

/* core.c reads the two counters as __u64[2]: keep this layout */
struct nftvm_counter {
	__u64	packets;
	__u64	bytes;
};

static const struct nftvm_nla_policy
nftvm_counter_policy[NFTA_COUNTER_MAX + 1] = {
	[NFTA_COUNTER_BYTES]	= { .type = NFTVM_NLA_U64 },
	[NFTA_COUNTER_PACKETS]	= { .type = NFTVM_NLA_U64 },
};

static void vm_counter_do_init(struct nftvm_counter *priv,
			       const struct nlattr * const *tb)
{
	if (tb[NFTA_COUNTER_PACKETS])
		priv->packets = nftvm_nla_be64(tb[NFTA_COUNTER_PACKETS]);
	if (tb[NFTA_COUNTER_BYTES])
		priv->bytes = nftvm_nla_be64(tb[NFTA_COUNTER_BYTES]);
}

static int vm_counter_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			   const struct nlattr * const *tb)
{
	vm_counter_do_init(nftvm_expr_priv(expr), tb);
	return 0;
}

static void vm_counter_do_eval(struct nftvm_counter *priv,
			       const struct nftvm_pktinfo *pkt)
{
	priv->packets++;
	priv->bytes += pkt->len;
}

static void vm_counter_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			    const struct nftvm_pktinfo *pkt)
{
	vm_counter_do_eval(nftvm_expr_priv(expr), pkt);
}

static void vm_counter_do_dump(struct nftvm_nlbuf *b,
			       const struct nftvm_counter *priv)
{
	nftvm_nla_put_be64(b, NFTA_COUNTER_BYTES, priv->bytes);
	nftvm_nla_put_be64(b, NFTA_COUNTER_PACKETS, priv->packets);
}

static void vm_counter_dump(struct nftvm_nlbuf *b,
			    const struct nftvm_expr *expr)
{
	vm_counter_do_dump(b, nftvm_expr_priv(expr));
}

static int vm_counter_obj_init(struct nftvm_ctx *ctx, struct nftvm_obj *obj,
			       const struct nlattr * const *tb)
{
	vm_counter_do_init(nftvm_obj_priv(obj), tb);
	return 0;
}

static void vm_counter_obj_eval(struct nftvm_obj *obj,
				struct nftvm_regs *regs,
				const struct nftvm_pktinfo *pkt)
{
	vm_counter_do_eval(nftvm_obj_priv(obj), pkt);
}

static void vm_counter_obj_dump(struct nftvm_nlbuf *b,
				const struct nftvm_obj *obj)
{
	vm_counter_do_dump(b, nftvm_obj_priv(obj));
}

const struct nftvm_obj_type nftvm_obj_counter_type = {
	.type		= NFT_OBJECT_COUNTER,
	.size		= sizeof(struct nftvm_counter),
	.maxattr	= NFTA_COUNTER_MAX,
	.policy		= nftvm_counter_policy,
	.init		= vm_counter_obj_init,
	.eval		= vm_counter_obj_eval,
	.dump		= vm_counter_obj_dump,
};

const struct nftvm_expr_ops nftvm_counter_ops = {
	.stateful	= true,
	.name		= "counter",
	.size		= sizeof(struct nftvm_counter),
	.maxattr	= NFTA_COUNTER_MAX,
	.policy		= nftvm_counter_policy,
	.init		= vm_counter_init,
	.eval		= vm_counter_eval,
	.dump		= vm_counter_dump,
};
