// SPDX-License-Identifier: GPL-2.0-or-later
/* byteorder: convert 16/32/64-bit units of a register between orders. */
#include "nftvm_int.h"

struct nftvm_byteorder {
	__u8	sreg;
	__u8	dreg;
	__u8	op;
	__u8	len;
	__u8	size;
};

static const struct nftvm_nla_policy
nftvm_byteorder_policy[NFTA_BYTEORDER_MAX + 1] = {
	[NFTA_BYTEORDER_SREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BYTEORDER_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BYTEORDER_OP]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BYTEORDER_LEN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_BYTEORDER_SIZE]	= { .type = NFTVM_NLA_U32 },
};

static int vm_byteorder_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			     const struct nlattr * const *tb)
{
	struct nftvm_byteorder *priv = nftvm_expr_priv(expr);
	__u32 op, size, len;
	int err;

	if (!tb[NFTA_BYTEORDER_SREG] || !tb[NFTA_BYTEORDER_DREG] ||
	    !tb[NFTA_BYTEORDER_LEN] || !tb[NFTA_BYTEORDER_SIZE] ||
	    !tb[NFTA_BYTEORDER_OP])
		return -NFTVM_EINVAL;
	op = nftvm_nla_be32(tb[NFTA_BYTEORDER_OP]);
	if (op != NFT_BYTEORDER_NTOH && op != NFT_BYTEORDER_HTON)
		return nftvm_fail(ctx, tb[NFTA_BYTEORDER_OP], -NFTVM_EINVAL);
	err = nftvm_parse_u32_check(ctx, tb[NFTA_BYTEORDER_SIZE], 0xff, &size);
	if (err < 0)
		return err;
	if (size != 2 && size != 4 && size != 8)
		return nftvm_fail(ctx, tb[NFTA_BYTEORDER_SIZE], -NFTVM_EINVAL);
	err = nftvm_parse_u32_check(ctx, tb[NFTA_BYTEORDER_LEN], 0xff, &len);
	if (err < 0)
		return err;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_BYTEORDER_SREG], &priv->sreg,
				   len);
	if (err < 0)
		return err;
	err = nftvm_parse_reg_store(ctx, tb[NFTA_BYTEORDER_DREG], &priv->dreg,
				    NULL, NFT_DATA_VALUE, len);
	if (err < 0)
		return err;
	priv->op = (__u8)op;
	priv->size = (__u8)size;
	priv->len = (__u8)len;
	return 0;
}

/*
 * Both directions swap on a little-endian host and copy on a big-endian
 * one; the conversion goes through a scratch copy because source and
 * destination may overlap.
 */
static void vm_byteorder_eval(struct nftvm_expr *expr,
			      struct nftvm_regs *regs,
			      const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_byteorder *priv = nftvm_expr_priv(expr);
	__u32 tmp[NFTVM_REG32_WORDS];
	unsigned int i, len = priv->len;
	__u64 v64;
	__u32 v32;
	__u16 v16;

	nftvm_memcpy(tmp, &regs->data[priv->sreg], NFTVM_ALIGN(len, 4));
	switch (priv->size) {
	case 8:
		for (i = 0; i + 8 <= len; i += 8) {
			nftvm_memcpy(&v64, (__u8 *)tmp + i, 8);
			v64 = nftvm_ntohll(v64);
			nftvm_memcpy((__u8 *)tmp + i, &v64, 8);
		}
		break;
	case 4:
		for (i = 0; i + 4 <= len; i += 4) {
			nftvm_memcpy(&v32, (__u8 *)tmp + i, 4);
			v32 = nftvm_ntohl(v32);
			nftvm_memcpy((__u8 *)tmp + i, &v32, 4);
		}
		break;
	case 2:
		for (i = 0; i + 2 <= len; i += 2) {
			nftvm_memcpy(&v16, (__u8 *)tmp + i, 2);
			v16 = nftvm_ntohs(v16);
			nftvm_memcpy((__u8 *)tmp + i, &v16, 2);
		}
		break;
	}
	nftvm_reg_store_bytes(&regs->data[priv->dreg], tmp, len);
}

static void vm_byteorder_dump(struct nftvm_nlbuf *b,
			      const struct nftvm_expr *expr)
{
	const struct nftvm_byteorder *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_BYTEORDER_SREG, priv->sreg);
	nftvm_dump_reg(b, NFTA_BYTEORDER_DREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_BYTEORDER_OP, priv->op);
	nftvm_nla_put_be32(b, NFTA_BYTEORDER_LEN, priv->len);
	nftvm_nla_put_be32(b, NFTA_BYTEORDER_SIZE, priv->size);
}

const struct nftvm_expr_ops nftvm_byteorder_ops = {
	.name		= "byteorder",
	.size		= sizeof(struct nftvm_byteorder),
	.maxattr	= NFTA_BYTEORDER_MAX,
	.policy		= nftvm_byteorder_policy,
	.init		= vm_byteorder_init,
	.eval		= vm_byteorder_eval,
	.dump		= vm_byteorder_dump,
};
