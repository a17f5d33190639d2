// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exthdr: IPv6 extension headers, TCP options and SCTP chunks.  Load
 * bytes of the header/option/chunk of a given type, or with
 * NFT_EXTHDR_F_PRESENT just 1/0 for "is it there"; with a source register
 * (TCP options only) write a 2- or 4-byte field of the option and fix the
 * TCP checksum.  The variant is chosen at load time and shares the
 * private area's size.
 */
#include "nftvm_int.h"

struct nftvm_exthdr {
	__u8	type;
	__u8	offset;
	__u8	len;
	__u8	op;
	__u8	reg;		/* dreg, or sreg for writes */
	__u8	flags;
};

static const struct nftvm_nla_policy
nftvm_exthdr_policy[NFTA_EXTHDR_MAX + 1] = {
	[NFTA_EXTHDR_DREG]	= { .type = NFTVM_NLA_U32 },
	[NFTA_EXTHDR_TYPE]	= { .type = NFTVM_NLA_U8 },
	[NFTA_EXTHDR_OFFSET]	= { .type = NFTVM_NLA_U32 },
	[NFTA_EXTHDR_LEN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_EXTHDR_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_EXTHDR_OP]	= { .type = NFTVM_NLA_U32 },
	[NFTA_EXTHDR_SREG]	= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_expr_ops nftvm_exthdr_tcp_ops;
static const struct nftvm_expr_ops nftvm_exthdr_tcp_set_ops;
static const struct nftvm_expr_ops nftvm_exthdr_sctp_ops;

#define NFTVM_IPV6_NEXTHDR_FRAGMENT	44
#define NFTVM_IPV6_NEXTHDR_AUTH		51
#define NFTVM_IPV6_NEXTHDR_NONE		59
#define NFTVM_TCPOPT_NOP		1
#define NFTVM_TCPOPT_MSS		2

static bool vm_ipv6_is_exthdr(__u8 nh)
{
	switch (nh) {
	case 0:		/* hop-by-hop */
	case 43:	/* routing */
	case NFTVM_IPV6_NEXTHDR_FRAGMENT:
	case NFTVM_IPV6_NEXTHDR_AUTH:
	case NFTVM_IPV6_NEXTHDR_NONE:
	case 60:	/* destination options */
		return true;
	}
	return false;
}

/*
 * Offset of the first header of type @target after the IPv6 header
 * (an upper layer protocol number works too), or 0 if there is none: the
 * walk stops at an unknown header, at "no next header" and after a
 * non-first fragment.
 */
static __u32 vm_ipv6_find_hdr(const struct nftvm_pktinfo *pkt, __u8 target)
{
	const __u8 *d = pkt->data;
	__u32 off = 40, hlen;
	unsigned int guard;
	__u8 nh;

	if (pkt->l3family != NFPROTO_IPV6 || pkt->len < 40)
		return 0;
	nh = d[6];
	for (guard = 0; guard < 64; guard++) {
		if (nh == target)
			return off;
		if (nh == NFTVM_IPV6_NEXTHDR_NONE || !vm_ipv6_is_exthdr(nh))
			return 0;
		if (off + 8 > pkt->len)
			return 0;
		if (nh == NFTVM_IPV6_NEXTHDR_FRAGMENT) {
			if (nftvm_get_be16(d + off + 2) & 0xfff8)
				return 0;
			hlen = 8;
		} else if (nh == NFTVM_IPV6_NEXTHDR_AUTH) {
			hlen = (d[off + 1] + 2u) * 4u;
		} else {
			hlen = (d[off + 1] + 1u) * 8u;
		}
		nh = d[off];
		off += hlen;
	}
	return 0;
}

static void vm_exthdr_ipv6_eval(struct nftvm_expr *expr,
				struct nftvm_regs *regs,
				const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_exthdr *priv = nftvm_expr_priv(expr);
	__u32 *d = &regs->data[priv->reg];
	__u32 off = vm_ipv6_find_hdr(pkt, priv->type);

	if (priv->flags & NFT_EXTHDR_F_PRESENT) {
		nftvm_reg_store8(d, off != 0);
		return;
	}
	if (!off)
		goto nomatch;
	off += priv->offset;
	if (off > pkt->len || pkt->len - off < priv->len)
		goto nomatch;
	nftvm_reg_store_bytes(d, pkt->data + off, priv->len);
	return;
nomatch:
	regs->verdict.code = NFT_BREAK;
}

/* options of zero length (and EOL/NOP) advance by one byte */
static unsigned int vm_tcp_optlen(const __u8 *opt, unsigned int i,
				  unsigned int hlen)
{
	if (opt[i] <= NFTVM_TCPOPT_NOP || i + 1 >= hlen || opt[i + 1] == 0)
		return 1;
	return opt[i + 1];
}

/*
 * Find the option of type @priv->type whose field [offset, offset+len)
 * exists: *@pos is its offset in the TCP header, *@hdr the header.
 * Returns 1 if found, 0 if absent, -1 if malformed.
 */
static int vm_tcpopt_find(const struct nftvm_exthdr *priv,
			  const struct nftvm_pktinfo *pkt, __u32 *pos)
{
	const __u8 *th;
	unsigned int i, optl, hlen;

	if (!pkt->tprot_set || pkt->l4proto != IPPROTO_TCP || pkt->fragoff)
		return -1;
	if (pkt->thoff + 20 > pkt->len)
		return -1;
	th = pkt->data + pkt->thoff;
	hlen = (th[12] >> 4) * 4u;
	if (hlen < 20 || pkt->thoff + hlen > pkt->len)
		return -1;
	for (i = 20; i + 1 < hlen; i += optl) {
		optl = vm_tcp_optlen(th, i, hlen);
		if (th[i] != priv->type)
			continue;
		if (i + optl > hlen || priv->len + priv->offset > optl)
			return -1;
		*pos = i;
		return 1;
	}
	return 0;
}

static void vm_exthdr_tcp_eval(struct nftvm_expr *expr,
			       struct nftvm_regs *regs,
			       const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_exthdr *priv = nftvm_expr_priv(expr);
	__u32 *d = &regs->data[priv->reg];
	__u32 pos;

	if (vm_tcpopt_find(priv, pkt, &pos) == 1) {
		if (priv->flags & NFT_EXTHDR_F_PRESENT)
			nftvm_reg_store8(d, 1);
		else
			nftvm_reg_store_bytes(d, pkt->data + pkt->thoff + pos +
					      priv->offset, priv->len);
		return;
	}
	if (priv->flags & NFT_EXTHDR_F_PRESENT)
		*d = 0;
	else
		regs->verdict.code = NFT_BREAK;
}

#define NFTVM_SCTP_COMMON_HDR_LEN	12	/* ports, tag, checksum */
#define NFTVM_SCTP_CHUNK_HDR_LEN	4	/* type, flags, length */

/*
 * Offset in the packet of the first chunk of type @type after the SCTP
 * common header (RFC 9260 3.2: chunks are padded to 4 bytes, the length
 * field excludes the padding), its length in *@clen; 0 if there is none.
 * A chunk of length 0 ends the walk: it cannot be stepped over.
 */
static __u32 vm_sctp_find_chunk(const struct nftvm_pktinfo *pkt, __u8 type,
				__u32 *clen)
{
	__u32 off = pkt->thoff + NFTVM_SCTP_COMMON_HDR_LEN, len;
	const __u8 *ch;

	while (off < pkt->len && pkt->len - off >= NFTVM_SCTP_CHUNK_HDR_LEN) {
		ch = pkt->data + off;
		len = nftvm_get_be16(ch + 2);
		if (len == 0)
			return 0;
		if (ch[0] == type) {
			*clen = len;
			return off;
		}
		/* at most 16 bits plus padding: no overflow of a __u32 */
		off += (len + 3u) & ~3u;
	}
	return 0;
}

/*
 * Only in the first (or only) fragment of an SCTP packet, as the kernel:
 * a match never reads another protocol's bytes as chunks.  A field past
 * the chunk's length or the packet's end means "no match".
 */
static void vm_exthdr_sctp_eval(struct nftvm_expr *expr,
				struct nftvm_regs *regs,
				const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_exthdr *priv = nftvm_expr_priv(expr);
	__u32 *d = &regs->data[priv->reg];
	__u32 off = 0, clen = 0;

	if (pkt->tprot_set && pkt->l4proto == IPPROTO_SCTP && !pkt->fragoff)
		off = vm_sctp_find_chunk(pkt, priv->type, &clen);
	if (priv->flags & NFT_EXTHDR_F_PRESENT) {
		nftvm_reg_store8(d, off != 0);
		return;
	}
	if (!off || priv->offset + priv->len > clen ||
	    clen > pkt->len - off)
		goto nomatch;
	nftvm_reg_store_bytes(d, pkt->data + off + priv->offset, priv->len);
	return;
nomatch:
	regs->verdict.code = NFT_BREAK;
}

/* RFC 1624 update of the TCP checksum for one 16-bit word change */
static void vm_tcp_csum_replace2(__u8 *check, __u16 from, __u16 to)
{
	__u32 sum = (__u16)~nftvm_get_be16(check) + (__u32)(__u16)~from + to;

	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = (__u16)~sum;
	check[0] = (__u8)(sum >> 8);
	check[1] = (__u8)sum;
}

static void vm_exthdr_tcp_set_eval(struct nftvm_expr *expr,
				   struct nftvm_regs *regs,
				   const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_exthdr *priv = nftvm_expr_priv(expr);
	const __u8 *src = (const __u8 *)&regs->data[priv->reg];
	__u8 *th, *field;
	unsigned int i;
	__u32 pos;

	if (vm_tcpopt_find(priv, pkt, &pos) != 1)
		return;
	th = pkt->wdata + pkt->thoff;
	field = th + pos + priv->offset;
	/* the kernel never raises an MSS: a larger one can stall the
	 * connection; and writes nothing that is already there */
	if (priv->type == NFTVM_TCPOPT_MSS && priv->len == 2 &&
	    nftvm_get_be16(field) <= nftvm_get_be16(src))
		return;
	if (!nftvm_memcmp(field, src, priv->len))
		return;
	/* field and register hold network order: compare 16-bit words */
	for (i = 0; i < priv->len; i += 2) {
		vm_tcp_csum_replace2(th + 16, nftvm_get_be16(field + i),
				     nftvm_get_be16(src + i));
		field[i] = src[i];
		field[i + 1] = src[i + 1];
	}
	pkt->res->pkt_modified = true;
}

static int vm_exthdr_parse(struct nftvm_ctx *ctx, struct nftvm_exthdr *priv,
			   const struct nlattr * const *tb)
{
	__u32 offset, len, flags = 0, op = NFT_EXTHDR_OP_IPV6;
	int err;

	if (!tb[NFTA_EXTHDR_TYPE] || !tb[NFTA_EXTHDR_OFFSET] ||
	    !tb[NFTA_EXTHDR_LEN])
		return -NFTVM_EINVAL;
	err = nftvm_parse_u32_check(ctx, tb[NFTA_EXTHDR_OFFSET], 0xff,
				    &offset);
	if (err < 0)
		return err;
	err = nftvm_parse_u32_check(ctx, tb[NFTA_EXTHDR_LEN], 0xff, &len);
	if (err < 0)
		return err;
	if (tb[NFTA_EXTHDR_FLAGS]) {
		err = nftvm_parse_u32_check(ctx, tb[NFTA_EXTHDR_FLAGS], 0xff,
					    &flags);
		if (err < 0)
			return err;
		if (flags & ~NFT_EXTHDR_F_PRESENT)
			return nftvm_fail(ctx, tb[NFTA_EXTHDR_FLAGS],
					  -NFTVM_EINVAL);
	}
	if (tb[NFTA_EXTHDR_OP]) {
		err = nftvm_parse_u32_check(ctx, tb[NFTA_EXTHDR_OP], 0xff, &op);
		if (err < 0)
			return err;
	}
	priv->type = *(const __u8 *)nftvm_nla_data(tb[NFTA_EXTHDR_TYPE]);
	priv->offset = (__u8)offset;
	priv->len = (__u8)len;
	priv->flags = (__u8)flags;
	priv->op = (__u8)op;
	return 0;
}

static int vm_exthdr_set_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			      const struct nlattr * const *tb)
{
	struct nftvm_exthdr *priv = nftvm_expr_priv(expr);
	int err;

	if (priv->op != NFT_EXTHDR_OP_TCPOPT)
		return nftvm_fail(ctx, tb[NFTA_EXTHDR_OP], -NFTVM_EOPNOTSUPP);
	if (tb[NFTA_EXTHDR_FLAGS])
		return nftvm_fail(ctx, tb[NFTA_EXTHDR_FLAGS], -NFTVM_EINVAL);
	switch (priv->len) {
	case 2:
	case 4:
		break;
	default:
		return nftvm_fail(ctx, tb[NFTA_EXTHDR_LEN], -NFTVM_EOPNOTSUPP);
	}
	err = nftvm_parse_reg_load(ctx, tb[NFTA_EXTHDR_SREG], &priv->reg,
				   priv->len);
	if (err < 0)
		return err;
	expr->ops = &nftvm_exthdr_tcp_set_ops;
	return 0;
}

static int vm_exthdr_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_exthdr *priv = nftvm_expr_priv(expr);
	int err;

	if (tb[NFTA_EXTHDR_SREG] && tb[NFTA_EXTHDR_DREG])
		return -NFTVM_EOPNOTSUPP;
	err = vm_exthdr_parse(ctx, priv, tb);
	if (err < 0)
		return err;
	if (tb[NFTA_EXTHDR_SREG])
		return vm_exthdr_set_init(ctx, expr, tb);
	if (!tb[NFTA_EXTHDR_DREG])
		return -NFTVM_EINVAL;
	switch (priv->op) {
	case NFT_EXTHDR_OP_IPV6:
		break;
	case NFT_EXTHDR_OP_TCPOPT:
		expr->ops = &nftvm_exthdr_tcp_ops;
		break;
	case NFT_EXTHDR_OP_SCTP:
		expr->ops = &nftvm_exthdr_sctp_ops;
		break;
	default:
		/* IPv4 options, DCCP options: not modelled */
		return nftvm_fail(ctx, tb[NFTA_EXTHDR_OP], -NFTVM_EOPNOTSUPP);
	}
	return nftvm_parse_reg_store(ctx, tb[NFTA_EXTHDR_DREG], &priv->reg,
				     NULL, NFT_DATA_VALUE, priv->len);
}

static void vm_exthdr_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_exthdr *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_EXTHDR_DREG, priv->reg);
	nftvm_nla_put(b, NFTA_EXTHDR_TYPE, &priv->type, 1);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_OFFSET, priv->offset);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_LEN, priv->len);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_FLAGS, priv->flags);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_OP, priv->op);
}

static void vm_exthdr_set_dump(struct nftvm_nlbuf *b,
			       const struct nftvm_expr *expr)
{
	const struct nftvm_exthdr *priv = nftvm_expr_priv(expr);

	nftvm_dump_reg(b, NFTA_EXTHDR_SREG, priv->reg);
	nftvm_nla_put(b, NFTA_EXTHDR_TYPE, &priv->type, 1);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_OFFSET, priv->offset);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_LEN, priv->len);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_FLAGS, priv->flags);
	nftvm_nla_put_be32(b, NFTA_EXTHDR_OP, priv->op);
}

const struct nftvm_expr_ops nftvm_exthdr_ops = {
	.name		= "exthdr",
	.size		= sizeof(struct nftvm_exthdr),
	.maxattr	= NFTA_EXTHDR_MAX,
	.policy		= nftvm_exthdr_policy,
	.init		= vm_exthdr_init,
	.eval		= vm_exthdr_ipv6_eval,
	.dump		= vm_exthdr_dump,
};

/* selected by vm_exthdr_init; never looked up by name */
static const struct nftvm_expr_ops nftvm_exthdr_tcp_ops = {
	.name		= "exthdr",
	.size		= sizeof(struct nftvm_exthdr),
	.maxattr	= NFTA_EXTHDR_MAX,
	.policy		= nftvm_exthdr_policy,
	.init		= vm_exthdr_init,
	.eval		= vm_exthdr_tcp_eval,
	.dump		= vm_exthdr_dump,
};

static const struct nftvm_expr_ops nftvm_exthdr_tcp_set_ops = {
	.name		= "exthdr",
	.size		= sizeof(struct nftvm_exthdr),
	.maxattr	= NFTA_EXTHDR_MAX,
	.policy		= nftvm_exthdr_policy,
	.init		= vm_exthdr_init,
	.eval		= vm_exthdr_tcp_set_eval,
	.dump		= vm_exthdr_set_dump,
};

static const struct nftvm_expr_ops nftvm_exthdr_sctp_ops = {
	.name		= "exthdr",
	.size		= sizeof(struct nftvm_exthdr),
	.maxattr	= NFTA_EXTHDR_MAX,
	.policy		= nftvm_exthdr_policy,
	.init		= vm_exthdr_init,
	.eval		= vm_exthdr_sctp_eval,
	.dump		= vm_exthdr_dump,
};
