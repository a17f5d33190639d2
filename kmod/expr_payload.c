// SPDX-License-Identifier: GPL-2.0-or-later
/* payload: load bytes of the link, network or transport header. */
#include "nftvm_int.h"

struct nftvm_payload {
	__u8	base;
	__u8	offset;
	__u8	len;
	__u8	dreg;
};

static const struct nftvm_nla_policy
nftvm_payload_policy[NFTA_PAYLOAD_MAX + 1] = {
	[NFTA_PAYLOAD_DREG]		= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_BASE]		= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_OFFSET]		= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_LEN]		= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_SREG]		= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_CSUM_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_CSUM_OFFSET]	= { .type = NFTVM_NLA_U32 },
	[NFTA_PAYLOAD_CSUM_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

static int vm_payload_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			   const struct nlattr * const *tb)
{
	struct nftvm_payload *priv = nftvm_expr_priv(expr);
	__u32 base, offset, len;
	int err;

	if (!tb[NFTA_PAYLOAD_BASE] || !tb[NFTA_PAYLOAD_OFFSET] ||
	    !tb[NFTA_PAYLOAD_LEN])
		return -NFTVM_EINVAL;
	/* payload writes (with checksum update) are not there yet */
	if (tb[NFTA_PAYLOAD_SREG])
		return nftvm_fail(ctx, tb[NFTA_PAYLOAD_SREG],
				  -NFTVM_EOPNOTSUPP);
	if (!tb[NFTA_PAYLOAD_DREG])
		return -NFTVM_EINVAL;
	base = nftvm_nla_be32(tb[NFTA_PAYLOAD_BASE]);
	switch (base) {
	case NFT_PAYLOAD_LL_HEADER:
	case NFT_PAYLOAD_NETWORK_HEADER:
	case NFT_PAYLOAD_TRANSPORT_HEADER:
		break;
	default:
		return nftvm_fail(ctx, tb[NFTA_PAYLOAD_BASE],
				  -NFTVM_EOPNOTSUPP);
	}
	err = nftvm_parse_u32_check(ctx, tb[NFTA_PAYLOAD_OFFSET], 0xff,
				    &offset);
	if (err < 0)
		return err;
	err = nftvm_parse_u32_check(ctx, tb[NFTA_PAYLOAD_LEN], 0xff, &len);
	if (err < 0)
		return err;
	err = nftvm_parse_reg_store(ctx, tb[NFTA_PAYLOAD_DREG], &priv->dreg,
				    NULL, NFT_DATA_VALUE, len);
	if (err < 0)
		return err;
	priv->base = (__u8)base;
	priv->offset = (__u8)offset;
	priv->len = (__u8)len;
	return 0;
}

static void vm_payload_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			    const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_payload *priv = nftvm_expr_priv(expr);
	__u32 off;

	switch (priv->base) {
	case NFT_PAYLOAD_NETWORK_HEADER:
		off = 0;
		break;
	case NFT_PAYLOAD_TRANSPORT_HEADER:
		if (!pkt->tprot_set || pkt->fragoff)
			goto nomatch;
		off = pkt->thoff;
		break;
	default:
		/* ip, ip6 and inet packets come without a link header */
		goto nomatch;
	}
	off += priv->offset;
	if (off > pkt->len || pkt->len - off < priv->len)
		goto nomatch;
	nftvm_reg_store_bytes(&regs->data[priv->dreg], pkt->data + off,
			      priv->len);
	return;
nomatch:
	regs->verdict.code = NFT_BREAK;
}

static void vm_payload_dump(struct nftvm_nlbuf *b,
			    const struct nftvm_expr *expr)
{
	const struct nftvm_payload *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_PAYLOAD_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_BASE, priv->base);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_OFFSET, priv->offset);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_LEN, priv->len);
}

const struct nftvm_expr_ops nftvm_payload_ops = {
	.name		= "payload",
	.size		= sizeof(struct nftvm_payload),
	.maxattr	= NFTA_PAYLOAD_MAX,
	.policy		= nftvm_payload_policy,
	.init		= vm_payload_init,
	.eval		= vm_payload_eval,
	.dump		= vm_payload_dump,
};
