// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * payload: load bytes of the link, network or transport header, or (with
 * a source register, chosen at load time) write them back and fix the
 * checksums: the IPv4 header or transport checksum at csum_offset
 * (NFT_PAYLOAD_CSUM_INET) and, for fields of the pseudo header
 * (NFT_PAYLOAD_L4CSUM_PSEUDOHDR), the TCP/UDP/ICMPv6 checksum too.
 * Checksums are updated incrementally (RFC 1624), as the kernel does.
 */
#include "nftvm_int.h"

struct nftvm_payload {
	__u8	base;
	__u8	offset;
	__u8	len;
	__u8	dreg;		/* sreg for writes */
	__u8	csum_type;
	__u8	csum_offset;
	__u8	csum_flags;
};

static const struct nftvm_expr_ops nftvm_payload_set_ops;

static const struct nftvm_expr_ops nftvm_payload_fast_ops;

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

/*
 * Like the kernel, a write takes offset and length modulo 256 and checks
 * only the checksum attributes and the source register.
 */
static int vm_payload_set_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			       const struct nlattr * const *tb)
{
	struct nftvm_payload *priv = nftvm_expr_priv(expr);
	__u32 csum_type = NFT_PAYLOAD_CSUM_NONE, v;
	int err;

	priv->base = (__u8)nftvm_nla_be32(tb[NFTA_PAYLOAD_BASE]);
	priv->offset = (__u8)nftvm_nla_be32(tb[NFTA_PAYLOAD_OFFSET]);
	priv->len = (__u8)nftvm_nla_be32(tb[NFTA_PAYLOAD_LEN]);
	if (tb[NFTA_PAYLOAD_CSUM_TYPE])
		csum_type = nftvm_nla_be32(tb[NFTA_PAYLOAD_CSUM_TYPE]);
	if (tb[NFTA_PAYLOAD_CSUM_OFFSET]) {
		err = nftvm_parse_u32_check(ctx, tb[NFTA_PAYLOAD_CSUM_OFFSET],
					    0xff, &v);
		if (err < 0)
			return err;
		priv->csum_offset = (__u8)v;
	}
	if (tb[NFTA_PAYLOAD_CSUM_FLAGS]) {
		v = nftvm_nla_be32(tb[NFTA_PAYLOAD_CSUM_FLAGS]);
		if (v & ~NFT_PAYLOAD_L4CSUM_PSEUDOHDR)
			return nftvm_fail(ctx, tb[NFTA_PAYLOAD_CSUM_FLAGS],
					  -NFTVM_EINVAL);
		priv->csum_flags = (__u8)v;
	}
	switch (csum_type) {
	case NFT_PAYLOAD_CSUM_NONE:
	case NFT_PAYLOAD_CSUM_INET:
		break;
	case NFT_PAYLOAD_CSUM_SCTP:
		/* CRC32c over the whole SCTP packet is not modelled */
	default:
		return nftvm_fail(ctx, tb[NFTA_PAYLOAD_CSUM_TYPE],
				  -NFTVM_EOPNOTSUPP);
	}
	priv->csum_type = (__u8)csum_type;
	err = nftvm_parse_reg_load(ctx, tb[NFTA_PAYLOAD_SREG], &priv->dreg,
				   priv->len);
	if (err < 0)
		return err;
	expr->ops = &nftvm_payload_set_ops;
	return 0;
}

static int vm_payload_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			   const struct nlattr * const *tb)
{
	struct nftvm_payload *priv = nftvm_expr_priv(expr);
	__u32 base, offset, len;
	int err;

	if (!tb[NFTA_PAYLOAD_BASE] || !tb[NFTA_PAYLOAD_OFFSET] ||
	    !tb[NFTA_PAYLOAD_LEN])
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
	if (tb[NFTA_PAYLOAD_SREG]) {
		if (tb[NFTA_PAYLOAD_DREG])
			return -NFTVM_EINVAL;
		return vm_payload_set_init(ctx, expr, tb);
	}
	if (!tb[NFTA_PAYLOAD_DREG])
		return -NFTVM_EINVAL;
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
	if (base != NFT_PAYLOAD_LL_HEADER && (len == 1 || len == 2 || len == 4))
		expr->ops = &nftvm_payload_fast_ops;
	return 0;
}

/*
 * Loads of 1, 2 or 4 bytes from the network or transport header (most
 * selectors): fixed-size copies instead of a memcpy() call, as the
 * kernel's nft_payload_fast_eval.
 */
static void vm_payload_fast_eval(struct nftvm_expr *expr,
				 struct nftvm_regs *regs,
				 const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_payload *priv = nftvm_expr_priv(expr);
	__u32 *dst = &regs->data[priv->dreg];
	__u32 off = priv->offset;

	if (priv->base == NFT_PAYLOAD_TRANSPORT_HEADER) {
		if (!pkt->tprot_set || pkt->fragoff)
			goto nomatch;
		off += pkt->thoff;
	}
	if (off > pkt->len || pkt->len - off < priv->len)
		goto nomatch;
	switch (priv->len) {
	case 4:
		nftvm_memcpy(dst, pkt->data + off, 4);
		return;
	case 2:
		*dst = 0;
		nftvm_memcpy(dst, pkt->data + off, 2);
		return;
	default:
		nftvm_reg_store8(dst, pkt->data[off]);
		return;
	}
nomatch:
	regs->verdict.code = NFT_BREAK;
}

/*
 * A link-layer load: from the link header in front of the network header
 * (the frame's for bridge and netdev; for the others the one the packet
 * was received with, none for packets the host sends: no match), and past
 * its end from the packet, as the kernel reads from its MAC header on.
 */
static void vm_payload_load_ll(const struct nftvm_payload *priv,
			       struct nftvm_regs *regs,
			       const struct nftvm_pktinfo *pkt)
{
	__u8 buf[256];
	unsigned int i, off;

	if (!pkt->ll_len ||
	    priv->offset + priv->len > pkt->ll_len + pkt->len) {
		regs->verdict.code = NFT_BREAK;
		return;
	}
	for (i = 0; i < priv->len; i++) {
		off = priv->offset + i;
		buf[i] = off < pkt->ll_len ? pkt->ll[off] :
					     pkt->data[off - pkt->ll_len];
	}
	nftvm_reg_store_bytes(&regs->data[priv->dreg], buf, priv->len);
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
		vm_payload_load_ll(priv, regs, pkt);
		return;
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

/* One's complement sum of @len bytes as big-endian 16-bit words. */
static __u32 vm_csum_partial(const __u8 *p, unsigned int len)
{
	__u32 sum = 0;
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (__u32)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (__u32)p[len - 1] << 8;
	return sum;
}

static __u16 vm_csum_fold(__u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)sum;
}

/*
 * RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), for the old bytes' sum @from
 * and the new bytes' sum @to.  A result of 0 is written as 0xffff, as
 * the kernel does (a zero UDP checksum would mean "none").
 */
static void vm_csum_replace(__u8 *field, __u32 from, __u32 to)
{
	__u16 hc = (__u16)nftvm_get_be16(field);
	__u32 sum;
	__u16 res;

	sum = (__u16)~hc + (__u32)(__u16)~vm_csum_fold(from) +
	      vm_csum_fold(to);
	res = (__u16)~vm_csum_fold(sum);
	if (!res)
		res = 0xffff;
	field[0] = (__u8)(res >> 8);
	field[1] = (__u8)res;
}

/* Where the transport checksum is, or 0 if there is none to fix. */
static __u32 vm_l4csum_offset(const struct nftvm_pktinfo *pkt)
{
	__u32 off;

	if (!pkt->tprot_set || pkt->fragoff)
		return 0;
	switch (pkt->l4proto) {
	case IPPROTO_TCP:
		off = pkt->thoff + 16;
		break;
	case IPPROTO_UDP:
		/* a UDP packet without checksum keeps none */
		if (pkt->thoff + 8 > pkt->len ||
		    !nftvm_get_be16(pkt->data + pkt->thoff + 6))
			return 0;
		/* fall through */
	case IPPROTO_UDPLITE:
		off = pkt->thoff + 6;
		break;
	case IPPROTO_ICMPV6:
		off = pkt->thoff + 2;
		break;
	default:
		return 0;
	}
	return off + 2 <= pkt->len ? off : 0;
}

static void vm_payload_set_eval(struct nftvm_expr *expr,
				struct nftvm_regs *regs,
				const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_payload *priv = nftvm_expr_priv(expr);
	const __u8 *src = (const __u8 *)&regs->data[priv->dreg];
	__u32 base, off, csum_off, l4off, fsum, tsum;

	switch (priv->base) {
	case NFT_PAYLOAD_NETWORK_HEADER:
		base = 0;
		break;
	case NFT_PAYLOAD_TRANSPORT_HEADER:
		if (!pkt->tprot_set || pkt->fragoff)
			goto nomatch;
		base = pkt->thoff;
		break;
	default:
		goto nomatch;
	}
	off = base + priv->offset;
	csum_off = base + priv->csum_offset;
	if (off > pkt->len || pkt->len - off < priv->len)
		goto nomatch;
	if (priv->csum_type == NFT_PAYLOAD_CSUM_INET || priv->csum_flags) {
		fsum = vm_csum_partial(pkt->data + off, priv->len);
		tsum = vm_csum_partial(src, priv->len);
		if (priv->csum_type == NFT_PAYLOAD_CSUM_INET) {
			if (csum_off + 2 > pkt->len)
				goto nomatch;
			vm_csum_replace(pkt->wdata + csum_off, fsum, tsum);
		}
		if (priv->csum_flags) {
			l4off = vm_l4csum_offset(pkt);
			if (l4off)
				vm_csum_replace(pkt->wdata + l4off, fsum, tsum);
		}
	}
	nftvm_memcpy(pkt->wdata + off, src, priv->len);
	pkt->res->pkt_modified = true;
	return;
nomatch:
	regs->verdict.code = NFT_BREAK;
}

static void vm_payload_set_dump(struct nftvm_nlbuf *b,
				const struct nftvm_expr *expr)
{
	const struct nftvm_payload *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_PAYLOAD_SREG, priv->dreg);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_BASE, priv->base);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_OFFSET, priv->offset);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_LEN, priv->len);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_CSUM_TYPE, priv->csum_type);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_CSUM_OFFSET, priv->csum_offset);
	nftvm_nla_put_be32(b, NFTA_PAYLOAD_CSUM_FLAGS, priv->csum_flags);
}

/* selected by vm_payload_set_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_payload_set_ops = {
	.name		= "payload",
	.size		= sizeof(struct nftvm_payload),
	.maxattr	= NFTA_PAYLOAD_MAX,
	.policy		= nftvm_payload_policy,
	.init		= vm_payload_init,
	.eval		= vm_payload_set_eval,
	.dump		= vm_payload_set_dump,
};

const struct nftvm_expr_ops nftvm_payload_ops = {
	.name		= "payload",
	.size		= sizeof(struct nftvm_payload),
	.maxattr	= NFTA_PAYLOAD_MAX,
	.policy		= nftvm_payload_policy,
	.init		= vm_payload_init,
	.eval		= vm_payload_eval,
	.dump		= vm_payload_dump,
};

/* chosen by vm_payload_init: same attributes, private data and dump */
static const struct nftvm_expr_ops nftvm_payload_fast_ops = {
	.name		= "payload",
	.size		= sizeof(struct nftvm_payload),
	.maxattr	= NFTA_PAYLOAD_MAX,
	.policy		= nftvm_payload_policy,
	.init		= vm_payload_init,
	.eval		= vm_payload_fast_eval,
	.dump		= vm_payload_dump,
};
