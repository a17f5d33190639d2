/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the protocol, extension header and key tables (nftc
 * proto.c, exthdr.c, keys.c): lookups, field positions checked against
 * stock nft 1.0.6's VM code, links between layers, family contexts.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>

#include "proto.h"
#include "keys.h"

START_TEST(test_desc_lookup)
{
	ck_assert_ptr_eq(proto_desc_lookup("ether"), &proto_eth);
	ck_assert_ptr_eq(proto_desc_lookup("vlan"), &proto_vlan);
	ck_assert_ptr_eq(proto_desc_lookup("ip"), &proto_ip);
	ck_assert_ptr_eq(proto_desc_lookup("ip6"), &proto_ip6);
	ck_assert_ptr_eq(proto_desc_lookup("icmpv6"), &proto_icmp6);
	ck_assert_ptr_eq(proto_desc_lookup("th"), &proto_th);
	ck_assert_ptr_eq(proto_desc_lookup("udplite"), &proto_udplite);
	/* not names of the language */
	ck_assert_ptr_null(proto_desc_lookup("eth"));
	ck_assert_ptr_null(proto_desc_lookup("inet"));
	ck_assert_ptr_null(proto_desc_lookup("netdev"));
	ck_assert_ptr_eq(proto_desc_find(PROTO_DESC_TCP), &proto_tcp);
	ck_assert_ptr_eq(proto_desc_find(PROTO_DESC_INET), &proto_inet);
	ck_assert_ptr_null(proto_desc_find(PROTO_DESC_UNKNOWN));
	ck_assert_ptr_null(proto_desc_find(__PROTO_DESC_MAX));
}
END_TEST

/* One field's expected position, from stock nft's payload loads. */
struct field_case {
	const struct proto_desc	*desc;
	const char		*token;
	unsigned int		offset;
	unsigned int		len;
};

static const struct field_case field_cases[] = {
	{ &proto_eth,	"daddr",	0,	48 },
	{ &proto_eth,	"type",		96,	16 },
	{ &proto_vlan,	"pcp",		0,	3 },
	{ &proto_vlan,	"id",		4,	12 },
	{ &proto_vlan,	"type",		16,	16 },
	{ &proto_arp,	"operation",	48,	16 },
	{ &proto_arp,	"saddr ip",	112,	32 },
	{ &proto_arp,	"daddr ether",	144,	48 },
	{ &proto_ip,	"hdrlength",	4,	4 },
	{ &proto_ip,	"dscp",		8,	6 },
	{ &proto_ip,	"ecn",		14,	2 },
	{ &proto_ip,	"protocol",	72,	8 },
	{ &proto_ip,	"saddr",	96,	32 },
	{ &proto_ip6,	"flowlabel",	12,	20 },
	{ &proto_ip6,	"nexthdr",	48,	8 },
	{ &proto_ip6,	"daddr",	192,	128 },
	{ &proto_icmp,	"mtu",		48,	16 },
	{ &proto_icmp6,	"max-delay",	32,	16 },
	{ &proto_tcp,	"doff",		96,	4 },
	{ &proto_tcp,	"flags",	104,	8 },
	{ &proto_udplite, "csumcov",	32,	16 },
	{ &proto_dccp,	"type",		67,	4 },
	{ &proto_sctp,	"vtag",		32,	32 },
	{ &proto_th,	"dport",	16,	16 },
};

START_TEST(test_field_positions)
{
	const struct field_case *c = &field_cases[_i];
	unsigned int idx = proto_field_lookup(c->desc, c->token);

	ck_assert_msg(idx != 0, "%s %s not found", c->desc->name, c->token);
	ck_assert_uint_eq(c->desc->templates[idx].offset, c->offset);
	ck_assert_uint_eq(c->desc->templates[idx].len, c->len);
	ck_assert_int_eq(c->desc->templates[idx].byteorder, BYTEORDER_BIG);
}
END_TEST

START_TEST(test_field_misc)
{
	unsigned int i;

	ck_assert_uint_eq(proto_field_lookup(&proto_ip, "nosuch"), 0);
	/* meta pseudo fields are not payload fields */
	ck_assert_uint_eq(proto_field_lookup(&proto_inet, "nfproto"), 0);

	i = proto_field_lookup(&proto_icmp, "id");
	ck_assert_int_eq(proto_icmp.templates[i].icmp_dep, PROTO_ICMP_ECHO);
	ck_assert_uint_eq(proto_icmp_deps[PROTO_ICMP_ECHO].ntypes, 2);
	ck_assert_ptr_eq(proto_icmp_deps[PROTO_ICMP6_MTU].desc, &proto_icmp6);
	ck_assert_uint_eq(proto_icmp_deps[PROTO_ICMP6_MTU].types[0], 2);

	i = proto_field_lookup(&proto_ip, "saddr");
	ck_assert(proto_ip.templates[i].pseudohdr);
	i = proto_field_lookup(&proto_ip, "ttl");
	ck_assert(!proto_ip.templates[i].pseudohdr);

	ck_assert_str_eq(proto_ip.templates[proto_ip.checksum_key].token,
			 "checksum");
	ck_assert_uint_eq(proto_ip.templates[proto_ip.checksum_key].offset,
			  80);
	ck_assert_uint_eq(proto_sctp.checksum_type, NFT_PAYLOAD_CSUM_SCTP);
	ck_assert_uint_eq(proto_udplite.checksum_key, 0);

	ck_assert_uint_eq(proto_netdev.templates[proto_netdev.protocol_key]
			  .meta_key, NFT_META_PROTOCOL);
	ck_assert_uint_eq(proto_inet_service
			  .templates[proto_inet_service.protocol_key]
			  .meta_key, NFT_META_L4PROTO);
}
END_TEST

START_TEST(test_upper_links)
{
	ck_assert_ptr_eq(proto_find_upper(&proto_eth, 0x0800), &proto_ip);
	ck_assert_ptr_eq(proto_find_upper(&proto_eth, 0x86dd), &proto_ip6);
	ck_assert_ptr_eq(proto_find_upper(&proto_eth, 0x0806), &proto_arp);
	ck_assert_ptr_eq(proto_find_upper(&proto_vlan, 0x8100), &proto_vlan);
	ck_assert_ptr_eq(proto_find_upper(&proto_netdev, 0x0800), &proto_ip);
	ck_assert_ptr_eq(proto_find_upper(&proto_inet, NFPROTO_IPV6),
			 &proto_ip6);
	ck_assert_ptr_eq(proto_find_upper(&proto_ip, 1), &proto_icmp);
	ck_assert_ptr_eq(proto_find_upper(&proto_ip, 2), &proto_igmp);
	ck_assert_ptr_eq(proto_find_upper(&proto_ip6, 58), &proto_icmp6);
	ck_assert_ptr_eq(proto_find_upper(&proto_inet_service, 136),
			 &proto_udplite);
	ck_assert_ptr_null(proto_find_upper(&proto_ip, 250));
	ck_assert_ptr_null(proto_find_upper(&proto_tcp, 6));

	ck_assert_int_eq(proto_find_num(&proto_ip, &proto_tcp), 6);
	ck_assert_int_eq(proto_find_num(&proto_ip6, &proto_sctp), 132);
	ck_assert_int_eq(proto_find_num(&proto_eth, &proto_vlan), 0x8100);
	ck_assert_int_eq(proto_find_num(&proto_inet, &proto_ip), NFPROTO_IPV4);
	ck_assert_int_eq(proto_find_num(&proto_ah, &proto_udp), 17);
	ck_assert_int_eq(proto_find_num(&proto_tcp, &proto_ip), -1);
	ck_assert_int_eq(proto_find_num(&proto_ip, &proto_th), -1);
}
END_TEST

START_TEST(test_dev_types)
{
	uint16_t type = 0;

	ck_assert_int_eq(proto_dev_type(&proto_eth, &type), 0);
	ck_assert_uint_eq(type, 1);
	ck_assert_int_eq(proto_dev_type(&proto_vlan, &type), 0);
	ck_assert_int_eq(proto_dev_type(&proto_tcp, &type), -1);
	ck_assert_ptr_eq(proto_dev_desc(1), &proto_eth);
	ck_assert_ptr_null(proto_dev_desc(772));
}
END_TEST

static const struct {
	unsigned int			family;
	enum proto_bases		base;
	const struct proto_desc		*desc;
} family_cases[] = {
	{ NFPROTO_IPV4,		PROTO_BASE_NETWORK_HDR,	&proto_ip },
	{ NFPROTO_IPV6,		PROTO_BASE_NETWORK_HDR,	&proto_ip6 },
	{ NFPROTO_ARP,		PROTO_BASE_NETWORK_HDR,	&proto_arp },
	{ NFPROTO_INET,		PROTO_BASE_LL_HDR,	&proto_inet },
	{ NFPROTO_BRIDGE,	PROTO_BASE_LL_HDR,	&proto_eth },
	{ NFPROTO_NETDEV,	PROTO_BASE_LL_HDR,	&proto_netdev },
};

START_TEST(test_ctx_init)
{
	struct proto_ctx ctx;
	enum proto_bases base, b;

	proto_ctx_init(&ctx, family_cases[_i].family);
	ck_assert_uint_eq(ctx.family, family_cases[_i].family);
	for (b = PROTO_BASE_LL_HDR; b <= PROTO_BASE_MAX; b++) {
		if (b == family_cases[_i].base)
			ck_assert_ptr_eq(ctx.protocol[b].desc,
					 family_cases[_i].desc);
		else
			ck_assert_ptr_null(ctx.protocol[b].desc);
	}
	ck_assert_ptr_eq(proto_family_desc(family_cases[_i].family, &base),
			 family_cases[_i].desc);
	ck_assert_int_eq(base, family_cases[_i].base);
}
END_TEST

START_TEST(test_ctx_update)
{
	struct proto_ctx ctx;
	struct location loc;
	enum proto_bases base;

	memset(&loc, 0, sizeof(loc));
	proto_ctx_init(&ctx, NFPROTO_INET);
	proto_ctx_update(&ctx, PROTO_BASE_NETWORK_HDR, &loc, &proto_ip6);
	proto_ctx_update(&ctx, PROTO_BASE_TRANSPORT_HDR, &loc, &proto_tcp);
	ck_assert_ptr_eq(ctx.protocol[PROTO_BASE_LL_HDR].desc, &proto_inet);
	ck_assert_ptr_eq(ctx.protocol[PROTO_BASE_NETWORK_HDR].desc,
			 &proto_ip6);
	ck_assert_ptr_eq(ctx.protocol[PROTO_BASE_TRANSPORT_HDR].desc,
			 &proto_tcp);

	ck_assert_ptr_null(proto_family_desc(42, &base));
	ck_assert_int_eq(base, PROTO_BASE_INVALID);
	ck_assert_str_eq(proto_base_tokens[PROTO_BASE_TRANSPORT_HDR], "th");
	ck_assert_str_eq(proto_base_names[PROTO_BASE_LL_HDR], "link layer");
}
END_TEST

/* Every table entry is complete and every link goes upwards. */
START_TEST(test_table_integrity)
{
	unsigned int i, j;

	for (i = 0; proto_descs[i] != NULL; i++) {
		const struct proto_desc *d = proto_descs[i];

		ck_assert_ptr_null(d->templates[0].token);
		for (j = 1; j < PROTO_HDRS_MAX; j++) {
			const struct proto_hdr_template *t = &d->templates[j];

			if (t->token == NULL)
				continue;
			ck_assert_msg(t->dtype != NULL, "%s %s: no type",
				      d->name, t->token);
			ck_assert_msg(t->len > 0, "%s %s: no length",
				      d->name, t->token);
		}
		if (d->protocol_key)
			ck_assert_ptr_nonnull(d->templates[d->protocol_key]
					      .token);
		for (j = 0; j < PROTO_UPPER_MAX && d->protocols[j].desc; j++)
			ck_assert_msg(d->protocols[j].desc->base >= d->base,
				      "%s links down", d->name);
		ck_assert_ptr_eq(proto_desc_lookup(d->name), d);
		ck_assert_ptr_eq(proto_desc_find(d->id), d);
	}
}
END_TEST

START_TEST(test_exthdr)
{
	const struct exthdr_desc *d;
	unsigned int i;

	d = exthdr_ipv6_lookup("frag");
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->type, 44);
	i = exthdr_field_lookup(d, "frag-off");
	ck_assert_uint_eq(d->templates[i].offset, 16);
	ck_assert_uint_eq(d->templates[i].len, 13);
	i = exthdr_field_lookup(d, "more-fragments");
	ck_assert_uint_eq(d->templates[i].offset, 31);
	ck_assert_uint_eq(exthdr_field_lookup(d, "nosuch"), 0);

	d = exthdr_ipv6_lookup("srh");
	ck_assert_uint_eq(d->type, 43);
	ck_assert_int_eq(d->id, EXTHDR_DESC_SRH);
	ck_assert_uint_eq(d->templates[exthdr_field_lookup(d, "sid")].offset,
			  64);
	ck_assert_uint_eq(exthdr_ipv6_lookup("mh")->type, 135);
	ck_assert_ptr_null(exthdr_ipv6_lookup("tcp"));

	ck_assert_ptr_eq(exthdr_tcpopt_lookup("mss"),
			 exthdr_tcpopt_lookup("maxseg"));
	ck_assert_ptr_eq(exthdr_tcpopt_lookup("sack0"),
			 exthdr_tcpopt_lookup("sack"));
	d = exthdr_tcpopt_lookup("sack2");
	ck_assert_uint_eq(d->type, 5);
	ck_assert_uint_eq(d->templates[exthdr_field_lookup(d, "left")].offset,
			  144);
	d = exthdr_tcpopt_lookup("mptcp");
	i = exthdr_field_lookup(d, "subtype");
	ck_assert_uint_eq(d->templates[i].offset, 16);
	ck_assert_uint_eq(d->templates[i].len, 4);
	ck_assert_uint_eq(exthdr_tcpopt_lookup("fastopen")->type, 34);

	d = exthdr_ipopt_lookup("ra");
	ck_assert_uint_eq(d->type, 148);
	ck_assert_uint_eq(d->templates[exthdr_field_lookup(d, "value")].len,
			  16);
	ck_assert_uint_eq(exthdr_ipopt_lookup("ssrr")->type, 137);
}
END_TEST

START_TEST(test_keys)
{
	int k;

	ck_assert_int_eq(meta_key_lookup("mark"), NFT_META_MARK);
	ck_assert_int_eq(meta_key_lookup("length"), NFT_META_LEN);
	ck_assert_int_eq(meta_key_lookup("ipsec"), NFT_META_SECPATH);
	ck_assert_int_eq(meta_key_lookup("secpath"), NFT_META_SECPATH);
	ck_assert_int_eq(meta_key_lookup("ibriport"), NFT_META_BRI_IIFNAME);
	ck_assert_int_eq(meta_key_lookup("nosuch"), -1);
	ck_assert_uint_eq(meta_templates[NFT_META_TIME_NS].len, 64);
	ck_assert_uint_eq(meta_templates[NFT_META_IIFNAME].len, 128);
	ck_assert_int_eq(meta_templates[NFT_META_PROTOCOL].byteorder,
			 BYTEORDER_BIG);
	ck_assert_int_eq(meta_templates[NFT_META_MARK].byteorder,
			 BYTEORDER_HOST);
	ck_assert(meta_templates[NFT_META_IIFNAME].unqualified);
	ck_assert(!meta_templates[NFT_META_L4PROTO].unqualified);
	ck_assert(meta_templates[NFT_META_MARK].settable);
	ck_assert(!meta_templates[NFT_META_IIF].settable);

	ck_assert_int_eq(ct_key_lookup("state"), NFT_CT_STATE);
	k = ct_key_lookup("ip6 saddr");
	ck_assert_int_eq(k, NFT_CT_SRC_IP6);
	ck_assert_uint_eq(ct_templates[k].dir, 2);
	ck_assert_uint_eq(ct_templates[NFT_CT_BYTES].dir, 1);
	ck_assert_uint_eq(ct_templates[NFT_CT_STATE].dir, 0);
	ck_assert_uint_eq(ct_templates[NFT_CT_ZONE].len, 16);
	ck_assert(ct_templates[NFT_CT_LABELS].settable);

	ck_assert_int_eq(key_lookup(rt_templates, __NFT_RT_MAX, "mtu"),
			 NFT_RT_TCPMSS);
	ck_assert_int_eq(key_lookup(rt_templates, __NFT_RT_MAX, "nexthop"),
			 NFT_RT_NEXTHOP4);
	ck_assert_int_eq(key_lookup(socket_templates, __NFT_SOCKET_MAX,
				    "cgroupv2"), NFT_SOCKET_CGROUPV2);
	ck_assert_int_eq(xfrm_templates[NFT_XFRM_KEY_SPI].byteorder,
			 BYTEORDER_BIG);
	ck_assert_int_eq(key_lookup(fib_result_templates,
				    __NFT_FIB_RESULT_MAX, "type"),
			 NFT_FIB_RESULT_ADDRTYPE);
}
END_TEST

static Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_desc_lookup);
	tcase_add_loop_test(tc, test_field_positions, 0,
			    sizeof(field_cases) / sizeof(field_cases[0]));
	tcase_add_test(tc, test_field_misc);
	tcase_add_test(tc, test_upper_links);
	tcase_add_test(tc, test_dev_types);
	tcase_add_loop_test(tc, test_ctx_init, 0,
			    sizeof(family_cases) / sizeof(family_cases[0]));
	tcase_add_test(tc, test_ctx_update);
	tcase_add_test(tc, test_table_integrity);
	tcase_add_test(tc, test_exthdr);
	tcase_add_test(tc, test_keys);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proto_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
