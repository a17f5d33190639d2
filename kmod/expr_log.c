// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log: record that the packet passed here.  Syslog-style logging (level,
 * flags) gets a message line formatted like the kernel's log backend
 * writes it ("PREFIX IN= OUT= SRC= DST= LEN= TOS= PREC= TTL= ID= DF
 * PROTO=TCP SPT= DPT= WINDOW= RES= SYN URGP="; the MAC part and the
 * optional TCP sequence/option, IP option and UID parts are left out);
 * NFLOG-style logging (group, snaplen, qthreshold) records its
 * parameters.  Both land in the result's log list.
 */
#include "nftvm_int.h"

#define NFTVM_LOGLEVEL_WARNING	4	/* NFT_LOGLEVEL_WARNING */
#define NFTVM_LOGLEVEL_AUDIT	8	/* NFT_LOGLEVEL_AUDIT */
#define NFTVM_LOG_FLAGS_MASK	0x2f	/* NF_LOG_MASK */

struct nftvm_log {
	char	*prefix;
	__u32	level;
	__u32	flags;
	__u32	snaplen;
	__u16	group;
	__u16	qthreshold;
	bool	nflog;
	bool	has_snaplen;
};

static const struct nftvm_nla_policy nftvm_log_policy[NFTA_LOG_MAX + 1] = {
	[NFTA_LOG_GROUP]	= { .type = NFTVM_NLA_U16 },
	[NFTA_LOG_PREFIX]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_LOG_PREFIXLEN - 1 },
	[NFTA_LOG_SNAPLEN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LOG_QTHRESHOLD]	= { .type = NFTVM_NLA_U16 },
	[NFTA_LOG_LEVEL]	= { .type = NFTVM_NLA_U32 },
	[NFTA_LOG_FLAGS]	= { .type = NFTVM_NLA_U32 },
};

static int vm_log_init_syslog(struct nftvm_ctx *ctx, struct nftvm_log *priv,
			      const struct nlattr * const *tb)
{
	priv->level = NFTVM_LOGLEVEL_WARNING;
	if (tb[NFTA_LOG_LEVEL])
		priv->level = nftvm_nla_be32(tb[NFTA_LOG_LEVEL]);
	if (priv->level > NFTVM_LOGLEVEL_AUDIT)
		return nftvm_fail(ctx, tb[NFTA_LOG_LEVEL], -NFTVM_EINVAL);
	if (tb[NFTA_LOG_FLAGS]) {
		priv->flags = nftvm_nla_be32(tb[NFTA_LOG_FLAGS]);
		if (priv->flags & ~NFTVM_LOG_FLAGS_MASK)
			return nftvm_fail(ctx, tb[NFTA_LOG_FLAGS],
					  -NFTVM_EINVAL);
	}
	return 0;
}

static int vm_log_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
		       const struct nlattr * const *tb)
{
	struct nftvm_log *priv = nftvm_expr_priv(expr);
	int err;

	if (tb[NFTA_LOG_LEVEL] && tb[NFTA_LOG_GROUP])
		return -NFTVM_EINVAL;
	if (tb[NFTA_LOG_GROUP]) {
		if (tb[NFTA_LOG_FLAGS])
			return nftvm_fail(ctx, tb[NFTA_LOG_FLAGS],
					  -NFTVM_EINVAL);
		priv->nflog = true;
		priv->group =
			nftvm_get_be16(nftvm_nla_data(tb[NFTA_LOG_GROUP]));
		if (tb[NFTA_LOG_SNAPLEN]) {
			priv->has_snaplen = true;
			priv->snaplen = nftvm_nla_be32(tb[NFTA_LOG_SNAPLEN]);
		}
		if (tb[NFTA_LOG_QTHRESHOLD])
			priv->qthreshold = nftvm_get_be16(
				nftvm_nla_data(tb[NFTA_LOG_QTHRESHOLD]));
	} else {
		err = vm_log_init_syslog(ctx, priv, tb);
		if (err < 0)
			return err;
	}
	if (tb[NFTA_LOG_PREFIX]) {
		priv->prefix = nftvm_nla_strdup(tb[NFTA_LOG_PREFIX]);
		if (!priv->prefix)
			return -NFTVM_ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------ the line */

struct vm_line {
	char		*buf;
	unsigned int	len;
	unsigned int	cap;	/* including the NUL */
};

static void vm_putc(struct vm_line *l, char c)
{
	if (l->len + 1 < l->cap)
		l->buf[l->len++] = c;
	l->buf[l->len] = '\0';
}

static void vm_puts(struct vm_line *l, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++)
		vm_putc(l, s[i]);
}

static void vm_putu(struct vm_line *l, __u32 v, unsigned int base,
		    unsigned int width)
{
	static const char digits[] = "0123456789ABCDEF";
	char tmp[12];
	unsigned int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	while (n < width)
		tmp[n++] = '0';
	while (n)
		vm_putc(l, tmp[--n]);
}

/* IPv4 dotted quad; IPv6 as eight 4-digit groups (%pI6, uncompressed) */
static void vm_put_addr(struct vm_line *l, const __u8 *a, bool v6)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < (v6 ? 16u : 4u); i += v6 ? 2 : 1) {
		if (i)
			vm_putc(l, v6 ? ':' : '.');
		if (!v6) {
			vm_putu(l, a[i], 10, 0);
			continue;
		}
		vm_putc(l, hex[a[i] >> 4]);
		vm_putc(l, hex[a[i] & 0xf]);
		vm_putc(l, hex[a[i + 1] >> 4]);
		vm_putc(l, hex[a[i + 1] & 0xf]);
	}
}

static void vm_put_kv(struct vm_line *l, const char *k, __u32 v)
{
	vm_puts(l, k, 16);
	vm_putu(l, v, 10, 0);
	vm_putc(l, ' ');
}

/* TCP flag names, most significant first, as the kernel prints them */
static const char *const vm_tcp_flags[8] = {
	"CWR ", "ECE ", "URG ", "ACK ", "PSH ", "RST ", "SYN ", "FIN ",
};

static void vm_log_tcp(struct vm_line *l, const __u8 *th)
{
	unsigned int i;

	vm_put_kv(l, "WINDOW=", nftvm_get_be16(th + 14));
	vm_puts(l, "RES=0x", 8);
	vm_putu(l, th[12] & 0x0f, 16, 2);
	vm_putc(l, ' ');
	for (i = 0; i < 8; i++)
		if (th[13] & (0x80 >> i))
			vm_puts(l, vm_tcp_flags[i], 8);
	vm_put_kv(l, "URGP=", nftvm_get_be16(th + 18));
}

static void vm_log_l4(struct vm_line *l, const struct nftvm_pktinfo *pkt)
{
	const __u8 *th = pkt->data + pkt->thoff;
	bool tcp = pkt->l4proto == IPPROTO_TCP;

	switch (pkt->l4proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
		vm_puts(l, tcp ? "PROTO=TCP " : "PROTO=UDP ", 16);
		if (pkt->fragoff || pkt->thoff + (tcp ? 20 : 8) > pkt->len)
			return;
		vm_put_kv(l, "SPT=", nftvm_get_be16(th));
		vm_put_kv(l, "DPT=", nftvm_get_be16(th + 2));
		if (tcp)
			vm_log_tcp(l, th);
		else
			vm_put_kv(l, "LEN=", nftvm_get_be16(th + 4));
		return;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		vm_puts(l, pkt->l4proto == IPPROTO_ICMP ? "PROTO=ICMP " :
			"PROTO=ICMPv6 ", 16);
		if (pkt->fragoff || pkt->thoff + 2 > pkt->len)
			return;
		vm_put_kv(l, "TYPE=", th[0]);
		vm_put_kv(l, "CODE=", th[1]);
		return;
	}
	vm_put_kv(l, "PROTO=", pkt->l4proto);
}

static void vm_log_ipv4(struct vm_line *l, const __u8 *d)
{
	__u16 frag = nftvm_get_be16(d + 6);

	vm_put_kv(l, "LEN=", nftvm_get_be16(d + 2));
	vm_puts(l, "TOS=0x", 8);
	vm_putu(l, d[1] & 0x1e, 16, 2);
	vm_puts(l, " PREC=0x", 8);
	vm_putu(l, d[1] & 0xe0, 16, 2);
	vm_putc(l, ' ');
	vm_put_kv(l, "TTL=", d[8]);
	vm_put_kv(l, "ID=", nftvm_get_be16(d + 4));
	if (frag & 0x8000)
		vm_puts(l, "CE ", 4);
	if (frag & 0x4000)
		vm_puts(l, "DF ", 4);
	if (frag & 0x2000)
		vm_puts(l, "MF ", 4);
	if (frag & 0x1fff)
		vm_put_kv(l, "FRAG:", frag & 0x1fff);
}

static void vm_log_ipv6(struct vm_line *l, const __u8 *d)
{
	__u32 w = nftvm_get_be32(d);

	vm_put_kv(l, "LEN=", nftvm_get_be16(d + 4) + 40u);
	vm_put_kv(l, "TC=", (w >> 20) & 0xff);
	vm_put_kv(l, "HOPLIMIT=", d[7]);
	vm_put_kv(l, "FLOWLBL=", w & 0xfffff);
}

static void vm_log_line(struct vm_line *l, const struct nftvm_log *priv,
			const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_pktmeta *m = pkt->meta;
	const __u8 *d = pkt->data;
	bool v6 = pkt->l3family == NFPROTO_IPV6;

	if (priv->prefix)
		vm_puts(l, priv->prefix, NFTVM_LOG_PREFIXLEN);
	vm_puts(l, "IN=", 4);
	if (m->iif)
		vm_puts(l, m->iifname, NFTVM_IFNAMSIZ);
	vm_puts(l, " OUT=", 8);
	if (m->oif)
		vm_puts(l, m->oifname, NFTVM_IFNAMSIZ);
	vm_putc(l, ' ');
	/* the network header fields of IPv4 and IPv6 only */
	if (!pkt->l3family)
		goto out;
	if (pkt->len < (v6 ? 40u : 20u))
		return;
	vm_puts(l, "SRC=", 4);
	vm_put_addr(l, d + (v6 ? 8 : 12), v6);
	vm_puts(l, " DST=", 8);
	vm_put_addr(l, d + (v6 ? 24 : 16), v6);
	vm_putc(l, ' ');
	if (v6)
		vm_log_ipv6(l, d);
	else
		vm_log_ipv4(l, d);
	if (pkt->tprot_set)
		vm_log_l4(l, pkt);
out:
	/* no trailing blank */
	if (l->len && l->buf[l->len - 1] == ' ')
		l->buf[--l->len] = '\0';
}

static void vm_log_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt)
{
	const struct nftvm_log *priv = nftvm_expr_priv(expr);
	struct nftvm_result *res = pkt->res;
	struct nftvm_log_entry *le;
	struct vm_line l;

	if (res->nlog == NFTVM_LOG_MAX) {
		res->log_truncated = true;
		return;
	}
	le = &res->log[res->nlog++];
	/* entries are reused from packet to packet */
	nftvm_memset(le, 0, sizeof(*le));
	if (priv->prefix)
		nftvm_memcpy(le->prefix, priv->prefix,
			     nftvm_strnlen(priv->prefix,
					   NFTVM_LOG_PREFIXLEN - 1));
	le->level = priv->level;
	le->flags = priv->flags;
	le->has_group = priv->nflog;
	le->group = priv->group;
	le->snaplen = priv->snaplen;
	le->qthreshold = priv->qthreshold;
	if (priv->nflog)
		return;
	l.buf = le->line;
	l.len = 0;
	l.cap = sizeof(le->line);
	vm_log_line(&l, priv, pkt);
}

static void vm_log_dump(struct nftvm_nlbuf *b, const struct nftvm_expr *expr)
{
	const struct nftvm_log *priv = nftvm_expr_priv(expr);
	__u16 be;

	if (priv->prefix)
		nftvm_nla_put_str(b, NFTA_LOG_PREFIX, priv->prefix);
	if (priv->nflog) {
		be = nftvm_htons(priv->group);
		nftvm_nla_put(b, NFTA_LOG_GROUP, &be, sizeof(be));
		if (priv->has_snaplen)
			nftvm_nla_put_be32(b, NFTA_LOG_SNAPLEN, priv->snaplen);
		if (priv->qthreshold) {
			be = nftvm_htons(priv->qthreshold);
			nftvm_nla_put(b, NFTA_LOG_QTHRESHOLD, &be,
				      sizeof(be));
		}
		return;
	}
	nftvm_nla_put_be32(b, NFTA_LOG_LEVEL, priv->level);
	if (priv->flags)
		nftvm_nla_put_be32(b, NFTA_LOG_FLAGS, priv->flags);
}

static void vm_log_destroy(struct nftvm_ctx *ctx, struct nftvm_expr *expr)
{
	struct nftvm_log *priv = nftvm_expr_priv(expr);

	nftvm_free(priv->prefix);
	priv->prefix = NULL;
}

const struct nftvm_expr_ops nftvm_log_ops = {
	.name		= "log",
	.size		= sizeof(struct nftvm_log),
	.maxattr	= NFTA_LOG_MAX,
	.policy		= nftvm_log_policy,
	.init		= vm_log_init,
	.eval		= vm_log_eval,
	.dump		= vm_log_dump,
	.destroy	= vm_log_destroy,
};
