/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Datatypes of protocol headers: addresses, protocols and services,
 * and the symbolic constants of header fields (ICMP types, TCP flags,
 * ether types, ...). Names, values, sizes and byte orders are those of
 * stock nft 1.0.6; symbolic values are the numbers as written in the
 * header field, the canonical form of value.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "datatype_int.h"
#include "fmt.h"

#define SYM(name, val)	{ .identifier = (name), .value = (val) }

/* Link layer and IP addresses */

static void lladdr_type_print(const struct expr *expr,
			      struct output_ctx *octx)
{
	unsigned int i, nb = BITS_TO_BYTES(expr->value.len);

	for (i = 0; i < nb; i++)
		fprintf(octx->f, "%s%.2x", i ? ":" : "", expr->value.data[i]);
}

/* Hex bytes separated by single characters: "00:0f:54:0c:11:04". */
static int lladdr_type_parse(struct dt_parse_ctx *ctx,
			     const struct datatype *dtype,
			     const struct expr *sym, struct expr **res)
{
	uint8_t buf[NFTC_VALUE_MAX];
	const char *s = dt_text(sym);
	unsigned int len = 0;
	unsigned long n;
	char *p;

	for (;;) {
		n = strtoul(s, &p, 16);
		if (s == p || n > 0xff || len == sizeof(buf))
			return dt_error(ctx, sym, "Invalid LL address");
		buf[len++] = n;
		if (*p == '\0')
			break;
		s = p + 1;
	}
	*res = constant_expr_alloc(&sym->location, dtype, BYTEORDER_BIG,
				   len * 8, NULL);
	if (!*res)
		return -1;
	value_set_bytes(&(*res)->value, len * 8, buf);
	return 0;
}

const struct datatype lladdr_type = {
	.type		= TYPE_LLADDR,
	.name		= "ll_addr",
	.desc		= "link layer address",
	.byteorder	= BYTEORDER_BIG,
	.basetype	= &integer_type,
	.print		= lladdr_type_print,
	.parse		= lladdr_type_parse,
};

const struct datatype etheraddr_type = {
	.type		= TYPE_ETHERADDR,
	.name		= "ether_addr",
	.desc		= "Ethernet address",
	.byteorder	= BYTEORDER_BIG,
	.size		= 6 * 8,
	.basetype	= &lladdr_type,
};

static const char *resolve_strerror(int err)
{
	switch (err) {
	case -EAGAIN:
		return "Temporary failure in name resolution";
	case -EAFNOSUPPORT:
		return "Address family for hostname not supported";
	default:
		return "Name or service not known";
	}
}

/*
 * An address literal of @family, else a host name through the
 * resolver; a name must resolve to exactly one address.
 */
static int addr_parse(struct dt_parse_ctx *ctx, const struct datatype *dtype,
		      const struct expr *sym, int family, struct expr **res)
{
	unsigned int alen = family == AF_INET ? 4 : 16;
	const struct nftc_resolver *r = ctx->resolver;
	uint8_t addrs[2][16];
	const char *e;
	int n;

	if (!(family == AF_INET &&
	      (e = fmt_parse_ip4(dt_text(sym), addrs[0])) && !*e) &&
	    inet_pton(family, dt_text(sym), addrs[0]) != 1) {
		n = -ENOENT;
		if (r && r->host)
			n = r->host(r->priv, dt_text(sym), family, addrs, 2);
		if (n == 0)
			n = -ENOENT;
		if (n < 0)
			return dt_error(ctx, sym,
					"Could not resolve hostname: %s",
					resolve_strerror(n));
		if (n > 1)
			return dt_error(ctx, sym,
					"Hostname resolves to multiple addresses");
	}
	*res = constant_expr_alloc(&sym->location, dtype, BYTEORDER_BIG,
				   alen * 8, NULL);
	if (!*res)
		return -1;
	value_set_bytes(&(*res)->value, alen * 8, addrs[0]);
	return 0;
}

static void ipaddr_type_print(const struct expr *expr,
			      struct output_ctx *octx)
{
	char buf[INET_ADDRSTRLEN];
	uint8_t a[4] = { 0 };

	/* inet_ntop()'s dotted quad, without its sprintf */
	value_to_reg(&expr->value, BYTEORDER_BIG, a, sizeof(a));
	fmt_ip4(buf, a);
	nftc_puts(buf, octx->f);
}

static int ipaddr_type_parse(struct dt_parse_ctx *ctx,
			     const struct datatype *dtype,
			     const struct expr *sym, struct expr **res)
{
	return addr_parse(ctx, dtype, sym, AF_INET, res);
}

const struct datatype ipaddr_type = {
	.type		= TYPE_IPADDR,
	.name		= "ipv4_addr",
	.desc		= "IPv4 address",
	.byteorder	= BYTEORDER_BIG,
	.size		= 4 * 8,
	.flags		= DTYPE_F_PREFIX,
	.basetype	= &integer_type,
	.print		= ipaddr_type_print,
	.parse		= ipaddr_type_parse,
};

static void ip6addr_type_print(const struct expr *expr,
			       struct output_ctx *octx)
{
	char buf[INET6_ADDRSTRLEN];
	uint8_t a[16] = { 0 };

	value_to_reg(&expr->value, BYTEORDER_BIG, a, sizeof(a));
	nftc_puts(inet_ntop(AF_INET6, a, buf, sizeof(buf)), octx->f);
}

static int ip6addr_type_parse(struct dt_parse_ctx *ctx,
			      const struct datatype *dtype,
			      const struct expr *sym, struct expr **res)
{
	return addr_parse(ctx, dtype, sym, AF_INET6, res);
}

const struct datatype ip6addr_type = {
	.type		= TYPE_IP6ADDR,
	.name		= "ipv6_addr",
	.desc		= "IPv6 address",
	.byteorder	= BYTEORDER_BIG,
	.size		= 16 * 8,
	.flags		= DTYPE_F_PREFIX,
	.basetype	= &integer_type,
	.print		= ip6addr_type_print,
	.parse		= ip6addr_type_parse,
};

/* Protocols and services */

/*
 * A whole-string unsigned number as strtoumax reads it (base prefix
 * allowed). Returns 1 when @s is a number, 0 when it is a name.
 */
static int parse_uint(const char *s, uintmax_t *n, bool *range)
{
	const char *p = s;
	uintmax_t v = 0;
	char *end;

	/*
	 * Plain decimal without a leading zero and at most 19 digits (the
	 * common port number) cannot overflow: read it without strtoumax.
	 */
	if (*p >= '1' && *p <= '9') {
		while (*p >= '0' && *p <= '9' && p - s < 19)
			v = v * 10 + (unsigned int)(*p++ - '0');
		if (*p == '\0') {
			*n = v;
			*range = false;
			return 1;
		}
	}
	errno = 0;
	*n = strtoumax(s, &end, 0);
	if (end == s || *end != '\0')
		return 0;
	*range = errno == ERANGE;
	return 1;
}

static void inet_protocol_type_print(const struct expr *expr,
				     struct output_ctx *octx)
{
	uint64_t n = value_get_u64(&expr->value);
	const char *name = NULL;

	if (!(octx->flags & NFTC_OUTPUT_NUMERIC_PROTO) && n <= UINT8_MAX)
		name = nftc_protocol_name(n);
	if (name)
		nftc_puts(name, octx->f);
	else
		integer_type_print(expr, octx);
}

/*
 * The language's own header names are protocol names too ("comp" is
 * IPPROTO_COMP although /etc/protocols calls it "ipcomp"): the number
 * is whatever selects that header above the network layer.
 */
static int protocol_header_number(const char *name, uint8_t *proto)
{
	const struct proto_desc *desc = proto_desc_lookup(name);
	int num;

	if (!desc)
		return -1;
	num = proto_find_num(&proto_inet_service, desc);
	if (num < 0)
		return -1;
	*proto = num;
	return 0;
}

static int inet_protocol_type_parse(struct dt_parse_ctx *ctx,
				    const struct datatype *dtype,
				    const struct expr *sym, struct expr **res)
{
	const struct nftc_resolver *r = ctx->resolver;
	uintmax_t n;
	uint8_t proto;
	bool range;

	if (parse_uint(dt_text(sym), &n, &range)) {
		if (range || n > UINT8_MAX)
			return dt_error(ctx, sym, "Protocol out of range");
		proto = n;
	} else if ((!r || !r->protocol ||
		    r->protocol(r->priv, dt_text(sym), &proto) < 0) &&
		   protocol_header_number(dt_text(sym), &proto) < 0) {
		return dt_error(ctx, sym, "Could not resolve protocol name");
	}
	return dt_const_u64(&inet_protocol_type, sym, proto, res);
}

const struct datatype inet_protocol_type = {
	.type		= TYPE_INET_PROTOCOL,
	.name		= "inet_proto",
	.desc		= "Internet protocol",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8,
	.basetype	= &integer_type,
	.print		= inet_protocol_type_print,
	.parse		= inet_protocol_type_parse,
};

static void inet_service_type_print(const struct expr *expr,
				    struct output_ctx *octx)
{
	uint64_t n = value_get_u64(&expr->value);
	const char *name = NULL;

	if ((octx->flags & NFTC_OUTPUT_SERVICE) && n <= UINT16_MAX)
		name = nftc_service_name(n);
	if (name)
		fprintf(octx->f, "\"%s\"", name);
	else
		integer_type_print(expr, octx);
}

static int inet_service_type_parse(struct dt_parse_ctx *ctx,
				   const struct datatype *dtype,
				   const struct expr *sym, struct expr **res)
{
	const struct nftc_resolver *r = ctx->resolver;
	uint16_t port;
	uintmax_t n;
	bool range;

	if (parse_uint(dt_text(sym), &n, &range)) {
		if (range || n > UINT16_MAX)
			return dt_error(ctx, sym, "Service out of range");
		port = n;
	} else if (!r || !r->service ||
		   r->service(r->priv, dt_text(sym), &port) < 0) {
		return dt_error(ctx, sym, "Could not resolve service: %s",
				"Servname not supported for ai_socktype");
	}
	return dt_const_u64(&inet_service_type, sym, port, res);
}

const struct datatype inet_service_type = {
	.type		= TYPE_INET_SERVICE,
	.name		= "inet_service",
	.desc		= "internet network service",
	.byteorder	= BYTEORDER_BIG,
	.size		= 2 * 8,
	.basetype	= &integer_type,
	.print		= inet_service_type_print,
	.parse		= inet_service_type_parse,
};

static const struct symbolic_constant nfproto_syms[] = {
	SYM("ipv4",	2),
	SYM("ipv6",	10),
	SYMBOL_LIST_END
};

static const struct symbol_table nfproto_tbl = {
	.base = DT_BASE_DECIMAL, .size = 8, .symbols = nfproto_syms,
};

const struct datatype nfproto_type = {
	.type		= TYPE_NFPROTO,
	.name		= "nf_proto",
	.desc		= "netfilter protocol",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &nfproto_tbl,
};

/* Link layer */

static const struct symbolic_constant ethertype_syms[] = {
	SYM("ip",	0x0800),
	SYM("arp",	0x0806),
	SYM("ip6",	0x86dd),
	SYM("8021q",	0x8100),
	SYM("8021ad",	0x88a8),
	SYM("vlan",	0x8100),
	SYMBOL_LIST_END
};

static const struct symbol_table ethertype_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_BIG, .size = 16,
	.symbols = ethertype_syms,
};

const struct datatype ethertype_type = {
	.type		= TYPE_ETHERTYPE,
	.name		= "ether_type",
	.desc		= "Ethernet protocol",
	.byteorder	= BYTEORDER_BIG,
	.size		= 2 * 8,
	.basefmt	= "0x%.4" PRIx64,
	.basetype	= &integer_type,
	.sym_tbl	= &ethertype_tbl,
};

static const struct symbolic_constant arpop_syms[] = {
	SYM("request",		1),
	SYM("reply",		2),
	SYM("rrequest",		3),
	SYM("rreply",		4),
	SYM("inrequest",	8),
	SYM("inreply",		9),
	SYM("nak",		10),
	SYMBOL_LIST_END
};

static const struct symbol_table arpop_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_BIG, .size = 16,
	.symbols = arpop_syms,
};

const struct datatype arpop_type = {
	.type		= TYPE_ARPOP,
	.name		= "arp_op",
	.desc		= "ARP operation",
	.byteorder	= BYTEORDER_BIG,
	.size		= 2 * 8,
	.basetype	= &integer_type,
	.sym_tbl	= &arpop_tbl,
};

/* ICMP, ICMPv6, IGMP */

static const struct symbolic_constant icmp_type_syms[] = {
	SYM("echo-reply",		0),
	SYM("destination-unreachable",	3),
	SYM("source-quench",		4),
	SYM("redirect",			5),
	SYM("echo-request",		8),
	SYM("router-advertisement",	9),
	SYM("router-solicitation",	10),
	SYM("time-exceeded",		11),
	SYM("parameter-problem",	12),
	SYM("timestamp-request",	13),
	SYM("timestamp-reply",		14),
	SYM("info-request",		15),
	SYM("info-reply",		16),
	SYM("address-mask-request",	17),
	SYM("address-mask-reply",	18),
	SYMBOL_LIST_END
};

static const struct symbol_table icmp_type_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = icmp_type_syms,
};

const struct datatype icmp_type_type = {
	.type		= TYPE_ICMP_TYPE,
	.name		= "icmp_type",
	.desc		= "ICMP type",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &icmp_type_tbl,
};

static const struct symbolic_constant icmp6_type_syms[] = {
	SYM("destination-unreachable",	1),
	SYM("packet-too-big",		2),
	SYM("time-exceeded",		3),
	SYM("parameter-problem",	4),
	SYM("echo-request",		128),
	SYM("echo-reply",		129),
	SYM("mld-listener-query",	130),
	SYM("mld-listener-report",	131),
	SYM("mld-listener-done",	132),
	SYM("mld-listener-reduction",	132),
	SYM("nd-router-solicit",	133),
	SYM("nd-router-advert",		134),
	SYM("nd-neighbor-solicit",	135),
	SYM("nd-neighbor-advert",	136),
	SYM("nd-redirect",		137),
	SYM("router-renumbering",	138),
	SYM("ind-neighbor-solicit",	141),
	SYM("ind-neighbor-advert",	142),
	SYM("mld2-listener-report",	143),
	SYMBOL_LIST_END
};

static const struct symbol_table icmp6_type_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = icmp6_type_syms,
};

const struct datatype icmp6_type_type = {
	.type		= TYPE_ICMP6_TYPE,
	.name		= "icmpv6_type",
	.desc		= "ICMPv6 type",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &icmp6_type_tbl,
};

static const struct symbolic_constant icmp_code_syms[] = {
	SYM("net-unreachable",		0),
	SYM("host-unreachable",		1),
	SYM("prot-unreachable",		2),
	SYM("port-unreachable",		3),
	SYM("net-prohibited",		9),
	SYM("host-prohibited",		10),
	SYM("admin-prohibited",		13),
	SYM("frag-needed",		4),
	SYMBOL_LIST_END
};

static const struct symbol_table icmp_code_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = icmp_code_syms,
};

const struct datatype icmp_code_type = {
	.type		= TYPE_ICMP_CODE,
	.name		= "icmp_code",
	.desc		= "icmp code",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &icmp_code_tbl,
};

static const struct symbolic_constant icmpv6_code_syms[] = {
	SYM("no-route",			0),
	SYM("admin-prohibited",		1),
	SYM("addr-unreachable",		3),
	SYM("port-unreachable",		4),
	SYM("policy-fail",		5),
	SYM("reject-route",		6),
	SYMBOL_LIST_END
};

static const struct symbol_table icmpv6_code_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = icmpv6_code_syms,
};

const struct datatype icmpv6_code_type = {
	.type		= TYPE_ICMPV6_CODE,
	.name		= "icmpv6_code",
	.desc		= "icmpv6 code",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &icmpv6_code_tbl,
};

/* The kernel's NFT_REJECT_ICMPX_* codes. */
static const struct symbolic_constant icmpx_code_syms[] = {
	SYM("port-unreachable",		1),
	SYM("admin-prohibited",		3),
	SYM("no-route",			0),
	SYM("host-unreachable",		2),
	SYMBOL_LIST_END
};

static const struct symbol_table icmpx_code_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = icmpx_code_syms,
};

const struct datatype icmpx_code_type = {
	.type		= TYPE_ICMPX_CODE,
	.name		= "icmpx_code",
	.desc		= "icmpx code",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &icmpx_code_tbl,
};

static const struct symbolic_constant igmp_type_syms[] = {
	SYM("membership-query",		0x11),
	SYM("membership-report-v1",	0x12),
	SYM("membership-report-v2",	0x16),
	SYM("membership-report-v3",	0x22),
	SYM("leave-group",		0x17),
	SYMBOL_LIST_END
};

static const struct symbol_table igmp_type_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = igmp_type_syms,
};

const struct datatype igmp_type_type = {
	.type		= TYPE_IGMP_TYPE,
	.name		= "igmp_type",
	.desc		= "IGMP type",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &igmp_type_tbl,
};

/* Transport */

static const struct symbolic_constant tcp_flag_syms[] = {
	SYM("fin",	0x01),
	SYM("syn",	0x02),
	SYM("rst",	0x04),
	SYM("psh",	0x08),
	SYM("ack",	0x10),
	SYM("urg",	0x20),
	SYM("ecn",	0x40),
	SYM("cwr",	0x80),
	SYMBOL_LIST_END
};

static const struct symbol_table tcp_flag_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = tcp_flag_syms,
};

const struct datatype tcp_flag_type = {
	.type		= TYPE_TCP_FLAG,
	.name		= "tcp_flag",
	.desc		= "TCP flag",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &bitmask_type,
	.sym_tbl	= &tcp_flag_tbl,
};

static const struct symbolic_constant dccp_pkttype_syms[] = {
	SYM("request",	0),
	SYM("response",	1),
	SYM("data",	2),
	SYM("ack",	3),
	SYM("dataack",	4),
	SYM("closereq",	5),
	SYM("close",	6),
	SYM("reset",	7),
	SYM("sync",	8),
	SYM("syncack",	9),
	SYMBOL_LIST_END
};

static const struct symbol_table dccp_pkttype_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_BIG, .size = 4,
	.symbols = dccp_pkttype_syms,
};

const struct datatype dccp_pkttype_type = {
	.type		= TYPE_DCCP_PKTTYPE,
	.name		= "dccp_pkttype",
	.desc		= "DCCP packet type",
	.byteorder	= BYTEORDER_BIG,
	.size		= 4,
	.basetype	= &integer_type,
	.sym_tbl	= &dccp_pkttype_tbl,
};

static const struct symbolic_constant mh_type_syms[] = {
	SYM("binding-refresh-request",		0),
	SYM("home-test-init",			1),
	SYM("careof-test-init",			2),
	SYM("home-test",			3),
	SYM("careof-test",			4),
	SYM("binding-update",			5),
	SYM("binding-acknowledgement",		6),
	SYM("binding-error",			7),
	SYM("fast-binding-update",		8),
	SYM("fast-binding-acknowledgement",	9),
	SYM("fast-binding-advertisement",	10),
	SYM("experimental-mobility-header",	11),
	SYM("home-agent-switch-message",	12),
	SYMBOL_LIST_END
};

static const struct symbol_table mh_type_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_BIG, .size = 8,
	.symbols = mh_type_syms,
};

const struct datatype mh_type_type = {
	.type		= TYPE_MH_TYPE,
	.name		= "mh_type",
	.desc		= "Mobility Header Type",
	.byteorder	= BYTEORDER_BIG,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &mh_type_tbl,
};

/* IP header bits */

static const struct symbolic_constant dscp_syms[] = {
	SYM("cs0",	0x00),
	SYM("cs1",	0x08),
	SYM("cs2",	0x10),
	SYM("cs3",	0x18),
	SYM("cs4",	0x20),
	SYM("cs5",	0x28),
	SYM("cs6",	0x30),
	SYM("cs7",	0x38),
	SYM("df",	0x00),
	SYM("be",	0x00),
	SYM("lephb",	0x01),
	SYM("af11",	0x0a),
	SYM("af12",	0x0c),
	SYM("af13",	0x0e),
	SYM("af21",	0x12),
	SYM("af22",	0x14),
	SYM("af23",	0x16),
	SYM("af31",	0x1a),
	SYM("af32",	0x1c),
	SYM("af33",	0x1e),
	SYM("af41",	0x22),
	SYM("af42",	0x24),
	SYM("af43",	0x26),
	SYM("va",	0x2c),
	SYM("ef",	0x2e),
	SYMBOL_LIST_END
};

static const struct symbol_table dscp_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_BIG, .size = 6,
	.symbols = dscp_syms,
};

const struct datatype dscp_type = {
	.type		= TYPE_DSCP,
	.name		= "dscp",
	.desc		= "Differentiated Services Code Point",
	.byteorder	= BYTEORDER_BIG,
	.size		= 6,
	.basetype	= &integer_type,
	.basefmt	= "0x%.2" PRIx64,	/* unnamed values, as stock */
	.sym_tbl	= &dscp_tbl,
};

static const struct symbolic_constant ecn_syms[] = {
	SYM("not-ect",	0x00),
	SYM("ect1",	0x01),
	SYM("ect0",	0x02),
	SYM("ce",	0x03),
	SYMBOL_LIST_END
};

static const struct symbol_table ecn_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_BIG, .size = 2,
	.symbols = ecn_syms,
};

const struct datatype ecn_type = {
	.type		= TYPE_ECN,
	.name		= "ecn",
	.desc		= "Explicit Congestion Notification",
	.byteorder	= BYTEORDER_BIG,
	.size		= 2,
	.basetype	= &integer_type,
	.sym_tbl	= &ecn_tbl,
};
