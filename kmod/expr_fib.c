// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fib: what the routing table says about the packet's source or
 * destination address: the output interface (index or name, or just
 * whether there is one) or the address type.  The VM has no routing
 * table: the answers come with the packet (struct nftvm_pktmeta fib_*);
 * "restricted to iif/oif" keeps an interface only if it is the packet's.
 */
#include "nftvm_int.h"

#define NFTVM_FIB_F_ALL	(NFTA_FIB_F_SADDR | NFTA_FIB_F_DADDR |		\
			 NFTA_FIB_F_MARK | NFTA_FIB_F_IIF |		\
			 NFTA_FIB_F_OIF | NFTA_FIB_F_PRESENT)

struct nftvm_fib {
	__u32	flags;
	__u8	result;
	__u8	dreg;
};

static const struct nftvm_nla_policy nftvm_fib_policy[NFTA_FIB_MAX + 1] = {
	[NFTA_FIB_DREG]		= { .type = NFTVM_NLA_U32 },
	[NFTA_FIB_RESULT]	= { .type = NFTVM_NLA_U32 },
	[NFTA_FIB_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

static int vm_fib_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		       const struct nlattr * const *tb)
{
	struct nftvm_fib *priv = nftvm_expr_priv(expr);
	__u32 f, result, both_addr = NFTA_FIB_F_SADDR | NFTA_FIB_F_DADDR;
	unsigned int len;

	if (!tb[NFTA_FIB_DREG] || !tb[NFTA_FIB_RESULT] || !tb[NFTA_FIB_FLAGS])
		return -NFTVM_EINVAL;
	f = nftvm_nla_be32(tb[NFTA_FIB_FLAGS]);
	if (!f || (f & ~NFTVM_FIB_F_ALL) || (f & both_addr) == both_addr ||
	    !(f & both_addr) ||
	    (f & (NFTA_FIB_F_IIF | NFTA_FIB_F_OIF)) ==
	    (NFTA_FIB_F_IIF | NFTA_FIB_F_OIF))
		return nftvm_fail(ctx, tb[NFTA_FIB_FLAGS], -NFTVM_EINVAL);
	result = nftvm_nla_be32(tb[NFTA_FIB_RESULT]);
	switch (result) {
	case NFT_FIB_RESULT_OIF:
	case NFT_FIB_RESULT_OIFNAME:
		if (f & NFTA_FIB_F_OIF)
			return nftvm_fail(ctx, tb[NFTA_FIB_FLAGS],
					  -NFTVM_EINVAL);
		len = result == NFT_FIB_RESULT_OIF ? 4 : NFTVM_IFNAMSIZ;
		break;
	case NFT_FIB_RESULT_ADDRTYPE:
		len = 4;
		break;
	default:
		return nftvm_fail(ctx, tb[NFTA_FIB_RESULT], -NFTVM_EINVAL);
	}
	priv->flags = f;
	priv->result = (__u8)result;
	return nftvm_parse_reg_store(ctx, tb[NFTA_FIB_DREG], &priv->dreg,
				     NULL, NFT_DATA_VALUE, len);
}

static void vm_fib_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_fib *priv = nftvm_expr_priv(expr);
	const struct nftvm_pktmeta *m = pkt->meta;
	unsigned int w = (priv->flags & NFTA_FIB_F_SADDR) ? 0 : 1;
	bool present = priv->flags & NFTA_FIB_F_PRESENT;
	__u32 *d = &regs->data[priv->dreg];
	__u32 oif = m->fib_oif[w];

	if ((priv->flags & NFTA_FIB_F_IIF) && oif != m->iif)
		oif = 0;
	if ((priv->flags & NFTA_FIB_F_OIF) && oif != m->oif)
		oif = 0;
	switch (priv->result) {
	case NFT_FIB_RESULT_OIF:
		if (present)
			nftvm_reg_store8(d, oif != 0);
		else
			*d = oif;
		break;
	case NFT_FIB_RESULT_OIFNAME:
		if (present) {
			nftvm_reg_store8(d, oif != 0);
			break;
		}
		nftvm_memset(d, 0, NFTVM_IFNAMSIZ);
		if (oif)
			nftvm_memcpy(d, m->fib_oifname[w],
				     nftvm_strnlen(m->fib_oifname[w],
						   NFTVM_IFNAMSIZ));
		break;
	default:
		*d = m->fib_type[w];
		break;
	}
}

static void vm_fib_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_fib *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_FIB_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_FIB_RESULT, priv->result);
	nftvm_nla_put_be32(b, NFTA_FIB_FLAGS, priv->flags);
}

const struct nftvm_expr_ops nftvm_fib_ops = {
	.name		= "fib",
	.size		= sizeof(struct nftvm_fib),
	.maxattr	= NFTA_FIB_MAX,
	.policy		= nftvm_fib_policy,
	.init		= vm_fib_init,
	.eval		= vm_fib_eval,
	.dump		= vm_fib_dump,
};
