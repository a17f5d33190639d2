/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the datatypes: parsing every kind of constant, the
 * errors stock nft 1.0.6 gives, printing, concatenated type ids and
 * "describe" output.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "datatype.h"
#include "describe.h"
#include "erec.h"
#include "expr.h"

struct fixture {
	struct erec_queue	erq;
	struct dt_parse_ctx	ctx;
};

static void fixture_init(struct fixture *fx)
{
	erec_queue_init(&fx->erq, 10);
	fx->ctx.erq = &fx->erq;
	fx->ctx.resolver = &nftc_resolver_builtin;
}

/* Parse @text as @dtype; NULL on failure. */
static struct expr *parse(struct fixture *fx, const struct datatype *dtype,
			  const char *text)
{
	struct expr *sym = symbol_expr_alloc(&internal_location,
					     SYMBOL_VALUE, text);
	struct expr *res = NULL;
	int ret;

	ck_assert_ptr_nonnull(sym);
	ret = datatype_parse_symbol(&fx->ctx, dtype, sym, &res);
	expr_free(sym);
	if (ret < 0) {
		ck_assert_ptr_null(res);
		return NULL;
	}
	ck_assert_ptr_nonnull(res);
	return res;
}

static uint64_t parse_u64(const struct datatype *dtype, const char *text)
{
	struct fixture fx;
	struct expr *e;
	uint64_t n;

	fixture_init(&fx);
	e = parse(&fx, dtype, text);
	ck_assert_msg(e != NULL, "%s: %s did not parse", dtype->name, text);
	ck_assert_int_eq(e->kind, EXPR_VALUE);
	n = value_get_u64(&e->value);
	expr_free(e);
	erec_queue_free(&fx.erq);
	return n;
}

/* Parsing @text as @dtype fails with exactly @msg. */
static void parse_fails(const struct datatype *dtype, const char *text,
			const char *msg)
{
	const struct error_record *rec;
	struct fixture fx;

	fixture_init(&fx);
	ck_assert_ptr_null(parse(&fx, dtype, text));
	ck_assert_uint_eq(fx.erq.num_errors, 1);
	rec = list_first_entry(&fx.erq.records, struct error_record, list);
	ck_assert_str_eq(rec->msg, msg);
	erec_queue_free(&fx.erq);
}

START_TEST(test_registry)
{
	unsigned int i;

	for (i = 0; i < __TYPE_MAX; i++) {
		ck_assert_ptr_nonnull(datatypes[i]);
		ck_assert_uint_eq(datatypes[i]->type, i);
		ck_assert_ptr_eq(datatype_lookup(i), datatypes[i]);
	}
	ck_assert_ptr_eq(datatype_lookup_byname("ipv4_addr"), &ipaddr_type);
	ck_assert_ptr_eq(datatype_lookup_byname("time"), &time_type);
	ck_assert_ptr_eq(datatype_lookup_byname("cgroupsv2"), &cgroupv2_type);
	ck_assert_ptr_null(datatype_lookup_byname("nope"));
	ck_assert(datatype_is_a(&tcp_flag_type, &bitmask_type));
	ck_assert(datatype_is_a(&tcp_flag_type, &integer_type));
	ck_assert(!datatype_is_a(&integer_type, &tcp_flag_type));
	ck_assert(datatype_is_a(&etheraddr_type, &lladdr_type));
	ck_assert(datatype_compatible(&integer_type, &mark_type));
	ck_assert(!datatype_compatible(&ipaddr_type, &ip6addr_type));
}
END_TEST

START_TEST(test_integer)
{
	struct fixture fx;
	struct expr *e;

	ck_assert_uint_eq(parse_u64(&integer_type, "22"), 22);
	ck_assert_uint_eq(parse_u64(&integer_type, "0x16"), 0x16);
	ck_assert_uint_eq(parse_u64(&integer_type, "010"), 8);
	ck_assert_uint_eq(parse_u64(&integer_type, "0"), 0);
	ck_assert_uint_eq(parse_u64(&mark_type, "0xffffffff"), 0xffffffff);
	parse_fails(&integer_type, "08", "Could not parse integer");
	parse_fails(&integer_type, "foo", "Could not parse integer");
	parse_fails(&mark_type, "foo", "Could not parse packet mark");
	parse_fails(&mark_type, "0x", "Could not parse packet mark");

	/* Too wide for the type: returned wider, for the range error. */
	fixture_init(&fx);
	e = parse(&fx, &mark_type, "4294967296");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_gt(e->len, 32);
	ck_assert(!value_fits(&e->value, 32));
	expr_free(e);
	e = parse(&fx, &mark_type, "7");
	ck_assert_uint_eq(e->len, 32);
	ck_assert_uint_eq(e->byteorder, BYTEORDER_HOST);
	ck_assert_ptr_eq(e->dtype, &mark_type);
	expr_free(e);
	/* Numbers beyond 64 bits. */
	e = parse(&fx, &integer_type, "18446744073709551616");
	ck_assert_ptr_nonnull(e);
	ck_assert(!value_fits(&e->value, 64));
	expr_free(e);
	erec_queue_free(&fx.erq);
}
END_TEST

START_TEST(test_symbols)
{
	ck_assert_uint_eq(parse_u64(&tcp_flag_type, "syn"), 0x02);
	ck_assert_uint_eq(parse_u64(&tcp_flag_type, "0x12"), 0x12);
	ck_assert_uint_eq(parse_u64(&ct_state_type, "established"), 0x02);
	ck_assert_uint_eq(parse_u64(&ct_state_type, "untracked"), 0x40);
	ck_assert_uint_eq(parse_u64(&ct_status_type, "dying"), 0x200);
	ck_assert_uint_eq(parse_u64(&ct_dir_type, "reply"), 1);
	ck_assert_uint_eq(parse_u64(&ct_event_type, "label"), 0x400);
	ck_assert_uint_eq(parse_u64(&icmp_type_type, "echo-request"), 8);
	ck_assert_uint_eq(parse_u64(&icmp6_type_type, "nd-neighbor-solicit"),
			  135);
	ck_assert_uint_eq(parse_u64(&icmpx_code_type, "admin-prohibited"), 3);
	ck_assert_uint_eq(parse_u64(&icmp_code_type, "frag-needed"), 4);
	ck_assert_uint_eq(parse_u64(&icmpv6_code_type, "reject-route"), 6);
	ck_assert_uint_eq(parse_u64(&igmp_type_type, "leave-group"), 0x17);
	ck_assert_uint_eq(parse_u64(&ethertype_type, "ip6"), 0x86dd);
	ck_assert_uint_eq(parse_u64(&ethertype_type, "vlan"), 0x8100);
	ck_assert_uint_eq(parse_u64(&arpop_type, "reply"), 2);
	ck_assert_uint_eq(parse_u64(&arphrd_type, "loopback"), 772);
	ck_assert_uint_eq(parse_u64(&pkttype_type, "broadcast"), 1);
	ck_assert_uint_eq(parse_u64(&nfproto_type, "ipv6"), 10);
	ck_assert_uint_eq(parse_u64(&boolean_type, "exists"), 1);
	ck_assert_uint_eq(parse_u64(&boolean_type, "missing"), 0);
	ck_assert_uint_eq(parse_u64(&fib_addr_type, "local"), 2);
	ck_assert_uint_eq(parse_u64(&dscp_type, "af41"), 0x22);
	ck_assert_uint_eq(parse_u64(&ecn_type, "ce"), 3);
	ck_assert_uint_eq(parse_u64(&dccp_pkttype_type, "syncack"), 9);
	ck_assert_uint_eq(parse_u64(&mh_type_type, "home-test"), 3);
	ck_assert_uint_eq(parse_u64(&day_type, "Monday"), 1);
	ck_assert_uint_eq(parse_u64(&day_type, "3"), 3);
	ck_assert_uint_eq(parse_u64(&devgroup_type, "default"), 0);
	ck_assert_uint_eq(parse_u64(&realm_type, "cosmos"), 0);
	ck_assert_uint_eq(parse_u64(&realm_type, "12"), 12);

	parse_fails(&ct_state_type, "establishe", "Could not parse conntrack state");
	parse_fails(&tcp_flag_type, "foo", "Could not parse TCP flag");
	parse_fails(&icmp_type_type, "foo", "Could not parse ICMP type");
	parse_fails(&boolean_type, "true", "Could not parse boolean type");
	parse_fails(&day_type, "Mon",
		    "Could not parse Day of week of packet reception");
	parse_fails(&day_type, "7", "Value 7 exceeds valid range 0-6");
	parse_fails(&realm_type, "foo", "Could not parse routing realm");
	parse_fails(&devgroup_type, "foo", "Could not parse devgroup name");
	parse_fails(&fib_addr_type, "foo", "Could not parse fib address type");
}
END_TEST

START_TEST(test_addresses)
{
	struct fixture fx;
	struct expr *e;

	ck_assert_uint_eq(parse_u64(&ipaddr_type, "10.0.0.1"), 0x0a000001);
	ck_assert_uint_eq(parse_u64(&ipaddr_type, "255.255.255.255"),
			  0xffffffff);
	parse_fails(&ipaddr_type, "1.2.3.256",
		    "Could not resolve hostname: Name or service not known");
	parse_fails(&ipaddr_type, "foo.invalid",
		    "Could not resolve hostname: Name or service not known");

	fixture_init(&fx);
	e = parse(&fx, &ip6addr_type, "2001:db8::1");
	ck_assert_uint_eq(e->len, 128);
	ck_assert_uint_eq(e->byteorder, BYTEORDER_BIG);
	ck_assert_uint_eq(e->value.data[0], 0x20);
	ck_assert_uint_eq(e->value.data[1], 0x01);
	ck_assert_uint_eq(e->value.data[15], 0x01);
	expr_free(e);
	e = parse(&fx, &ip6addr_type, "::ffff:1.2.3.4");
	ck_assert_uint_eq(value_get_u64(&e->value), 0xffff01020304ULL);
	expr_free(e);
	e = parse(&fx, &ip6addr_type, "::");
	ck_assert(value_is_zero(&e->value));
	expr_free(e);
	e = parse(&fx, &ip6addr_type, "fe80:0:0:0:0:0:0:1");
	ck_assert_uint_eq(e->value.data[0], 0xfe);
	expr_free(e);
	ck_assert_ptr_null(parse(&fx, &ip6addr_type, "::g"));

	e = parse(&fx, &etheraddr_type, "00:0f:54:0c:11:04");
	ck_assert_uint_eq(e->len, 48);
	ck_assert_uint_eq(value_get_u64(&e->value), 0x000f540c1104ULL);
	expr_free(e);
	erec_queue_free(&fx.erq);
	parse_fails(&etheraddr_type, "00:zz", "Invalid LL address");
}
END_TEST

START_TEST(test_services_protocols)
{
	ck_assert_uint_eq(parse_u64(&inet_service_type, "22"), 22);
	ck_assert_uint_eq(parse_u64(&inet_service_type, "ssh"), 22);
	ck_assert_uint_eq(parse_u64(&inet_service_type, "http"), 80);
	ck_assert_uint_eq(parse_u64(&inet_service_type, "https"), 443);
	ck_assert_uint_eq(parse_u64(&inet_service_type, "telnet"), 23);
	ck_assert_uint_eq(parse_u64(&inet_service_type, "domain"), 53);
	ck_assert_uint_eq(parse_u64(&inet_service_type, "0x16"), 22);
	parse_fails(&inet_service_type, "70000", "Service out of range");
	parse_fails(&inet_service_type, "foobar",
		    "Could not resolve service: Servname not supported for ai_socktype");

	ck_assert_uint_eq(parse_u64(&inet_protocol_type, "tcp"), 6);
	ck_assert_uint_eq(parse_u64(&inet_protocol_type, "udp"), 17);
	ck_assert_uint_eq(parse_u64(&inet_protocol_type, "ipv6-icmp"), 58);
	ck_assert_uint_eq(parse_u64(&inet_protocol_type, "IPv6-ICMP"), 58);
	ck_assert_uint_eq(parse_u64(&inet_protocol_type, "0x11"), 17);
	parse_fails(&inet_protocol_type, "300", "Protocol out of range");
	parse_fails(&inet_protocol_type, "foo", "Could not resolve protocol name");
	ck_assert_str_eq(nftc_protocol_name(6), "tcp");
	ck_assert_str_eq(nftc_protocol_name(0), "ip");
	ck_assert_str_eq(nftc_service_name(22), "ssh");
}
END_TEST

START_TEST(test_strings)
{
	struct fixture fx;
	struct expr *e;

	fixture_init(&fx);
	e = parse(&fx, &ifname_type, "eth0");
	ck_assert_int_eq(e->kind, EXPR_VALUE);
	ck_assert_uint_eq(e->len, 32);
	ck_assert_int_eq(memcmp(e->value.data, "eth0", 4), 0);
	expr_free(e);

	e = parse(&fx, &ifname_type, "eth*");
	ck_assert_int_eq(e->kind, EXPR_PREFIX);
	ck_assert_uint_eq(e->prefix.prefix_len, 24);
	ck_assert_uint_eq(e->prefix.expr->len, 128);
	ck_assert_int_eq(memcmp(e->prefix.expr->value.data, "eth\0", 4), 0);
	expr_free(e);

	e = parse(&fx, &ifname_type, "eth\\*");
	ck_assert_int_eq(e->kind, EXPR_VALUE);
	ck_assert_uint_eq(e->len, 32);
	ck_assert_int_eq(memcmp(e->value.data, "eth*", 4), 0);
	expr_free(e);
	erec_queue_free(&fx.erq);

	parse_fails(&ifname_type, "*", "All-wildcard strings are not supported");
	parse_fails(&ifname_type, "0123456789abcdef",
		    "String exceeds maximum length of 16");
}
END_TEST

static void check_print(const struct datatype *dtype, const char *text,
			unsigned int flags, const char *expect);

START_TEST(test_time)
{
	struct fixture fx;
	uint64_t ms;

	fixture_init(&fx);
	ck_assert_int_eq(nftc_time_parse(&fx.erq, &internal_location,
					 "1h2m3s4ms", &ms), 0);
	ck_assert_uint_eq(ms, 3723004);
	ck_assert_int_eq(nftc_time_parse(&fx.erq, &internal_location,
					 "30", &ms), 0);
	ck_assert_uint_eq(ms, 30000);
	ck_assert_int_eq(nftc_time_parse(&fx.erq, &internal_location,
					 "2d", &ms), 0);
	ck_assert_uint_eq(ms, 2 * 86400000ULL);
	erec_queue_free(&fx.erq);

	ck_assert_uint_eq(parse_u64(&time_type, "1h2m3s4ms"), 0x38cefc);
	ck_assert_uint_eq(parse_u64(&time_type, "1d"), 0x05265c00);
	parse_fails(&time_type, "1h1h", "Hour has been specified twice");
	parse_fails(&time_type, "1x", "wrong time format");
	parse_fails(&time_type, "50d", "value too large");
	parse_fails(&time_type, "123456789s", "value too large");

	/* Local time, in the zone the nftables test suite uses. */
	setenv("TZ", "UTC-2", 1);
	tzset();
	ck_assert_uint_eq(parse_u64(&hour_type, "17:00"), 0xd2f0);
	ck_assert_uint_eq(parse_u64(&hour_type, "17:00:01"), 0xd2f1);
	ck_assert_uint_eq(parse_u64(&hour_type, "00:00"), 0x13560);
	ck_assert_uint_eq(parse_u64(&hour_type, "00:01"), 0x1359c);
	parse_fails(&hour_type, "24:00", "wrong time format");
	ck_assert_uint_eq(parse_u64(&date_type, "2019-06-21 17:00:00"),
			  0x15aa3ebc767d6000ULL);
	ck_assert_uint_eq(parse_u64(&date_type, "1970-05-23 21:07:14"),
			  0x002bd50343f05400ULL);
	ck_assert_uint_eq(parse_u64(&date_type, "12341234"),
			  0x002bd84974a8f400ULL);
	check_print(&date_type, "12341234", 0, "\"1970-05-23 22:07:14\"");
	check_print(&hour_type, "17:00", 0, "\"17:00\"");

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_uint_eq(parse_u64(&hour_type, "17:00"), 61200);
	ck_assert_uint_eq(parse_u64(&hour_type, "1:02"), 3720);
	ck_assert_uint_eq(parse_u64(&hour_type, "10"), 10);
	ck_assert_uint_eq(parse_u64(&hour_type, "1h"), 3600);
	ck_assert_uint_eq(parse_u64(&date_type, "2019-06-06 17:00"),
			  0x15a5aa94544da000ULL);
	ck_assert_uint_eq(parse_u64(&date_type, "2019-06-06"),
			  0x15a572eb180b0000ULL);
	parse_fails(&date_type, "1h", "Cannot parse date");
}
END_TEST

START_TEST(test_misc)
{
	struct fixture fx;
	struct expr *e;

	ck_assert_uint_eq(parse_u64(&classid_type, "1:2"), 0x00010002);
	ck_assert_uint_eq(parse_u64(&classid_type, "ffff:ffff"), 0xffffffff);
	ck_assert_uint_eq(parse_u64(&classid_type, "root"), 0xffffffff);
	ck_assert_uint_eq(parse_u64(&classid_type, "none"), 0);
	ck_assert_uint_eq(parse_u64(&classid_type, "10"), 10);
	ck_assert_uint_eq(parse_u64(&uid_type, "root"), 0);
	ck_assert_uint_eq(parse_u64(&uid_type, "bin"), 2);
	ck_assert_uint_eq(parse_u64(&uid_type, "0x10"), 16);
	ck_assert_uint_eq(parse_u64(&gid_type, "daemon"), 1);
	parse_fails(&uid_type, "foo", "User does not exist");
	parse_fails(&gid_type, "foo", "Group does not exist");
	parse_fails(&uid_type, "4294967296", "Value too large");
	ck_assert_uint_eq(parse_u64(&ifindex_type, "lo"), 1);
	ck_assert_uint_eq(parse_u64(&ifindex_type, "5"), 5);
	parse_fails(&ifindex_type, "foo", "Interface does not exist");
	parse_fails(&ct_label_type, "128",
		    "128: bit 128 out of range (128 max)");
	parse_fails(&ct_label_type, "foo",
		    "/etc/connlabel.conf: could not parse conntrack label \"foo\"");
	parse_fails(&cgroupv2_type, "foo",
		    "cgroupv2 path fails: No such file or directory");

	fixture_init(&fx);
	e = parse(&fx, &ct_label_type, "127");
	ck_assert_uint_eq(e->len, 128);
	ck_assert(value_test_bit(&e->value, 127));
	ck_assert_uint_eq(value_popcount(&e->value), 1);
	expr_free(e);
	erec_queue_free(&fx.erq);
}
END_TEST

static char *print_expr(const struct expr *e, unsigned int flags)
{
	struct output_ctx octx = { .flags = flags };
	char *buf = NULL;
	size_t size = 0;

	octx.f = open_memstream(&buf, &size);
	datatype_print(e, &octx);
	fclose(octx.f);
	return buf;
}

static void check_print(const struct datatype *dtype, const char *text,
			unsigned int flags, const char *expect)
{
	struct fixture fx;
	struct expr *e;
	char *out;

	fixture_init(&fx);
	e = parse(&fx, dtype, text);
	ck_assert_ptr_nonnull(e);
	out = print_expr(e, flags);
	ck_assert_str_eq(out, expect);
	free(out);
	expr_free(e);
	erec_queue_free(&fx.erq);
}

START_TEST(test_print)
{
	check_print(&ipaddr_type, "10.0.0.1", 0, "10.0.0.1");
	check_print(&ip6addr_type, "2001:0db8::0001", 0, "2001:db8::1");
	check_print(&etheraddr_type, "0:f:54:c:11:4", 0, "00:0f:54:0c:11:04");
	check_print(&mark_type, "42", 0, "0x0000002a");
	check_print(&integer_type, "0x2a", 0, "42");
	check_print(&tcp_flag_type, "syn", 0, "syn");
	check_print(&tcp_flag_type, "syn", NFTC_OUTPUT_NUMERIC_SYMBOL, "0x2");
	check_print(&ct_state_type, "0x80", 0, "0x80");
	check_print(&inet_protocol_type, "6", 0, "tcp");
	check_print(&inet_protocol_type, "6", NFTC_OUTPUT_NUMERIC_PROTO, "6");
	check_print(&inet_service_type, "ssh", 0, "22");
	check_print(&inet_service_type, "22", NFTC_OUTPUT_SERVICE, "\"ssh\"");
	check_print(&time_type, "90061001ms", 0, "1d1h1m1s1ms");
	check_print(&time_type, "0", 0, "0s");
	check_print(&ifname_type, "eth0", 0, "\"eth0\"");
	check_print(&classid_type, "1:2", 0, "1:2");
	check_print(&ethertype_type, "0x1234", 0, "0x1234");
	/* stock nft 1.0.6 lists day names quoted: meta day "Tuesday" */
	check_print(&day_type, "2", 0, "\"Tuesday\"");
}
END_TEST

START_TEST(test_concat)
{
	const struct datatype *types[] = { &ipaddr_type, &inet_service_type };
	const struct datatype *c, *d;

	c = concat_type_alloc(types, 2);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->type, (TYPE_IPADDR << TYPE_BITS) |
			  TYPE_INET_SERVICE);
	ck_assert_str_eq(c->name, "ipv4_addr . inet_service");
	ck_assert_str_eq(c->desc,
			 "concatenation of (IPv4 address, internet network service)");
	ck_assert_uint_eq(c->size, 64);
	ck_assert_uint_eq(c->subtypes, 2);

	d = concat_type_lookup(c->type);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->name, c->name);
	ck_assert(datatype_compatible(c, d));
	ck_assert_ptr_eq(datatype_get(d), d);
	datatype_free(d);
	datatype_free(d);
	datatype_free(c);
	ck_assert_ptr_null(concat_type_lookup(0));
}
END_TEST

static char *describe_type(const struct datatype *dtype)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	datatype_describe(f, dtype);
	fclose(f);
	return buf;
}

START_TEST(test_describe)
{
	char *out;

	out = describe_type(&ipaddr_type);
	ck_assert_str_eq(out, "datatype ipv4_addr (IPv4 address) "
			 "(basetype integer), 32 bits\n");
	free(out);

	out = describe_type(&boolean_type);
	ck_assert_str_eq(out, "datatype boolean (boolean type) (basetype "
			 "integer), 1 bits\n\npre-defined symbolic constants "
			 "(in decimal):\n"
			 "\texists                        \t"
			 "                   1\n"
			 "\tmissing                       \t"
			 "                   0\n");
	free(out);

	out = describe_type(&tcp_flag_type);
	ck_assert(strstr(out, "(basetype bitmask, integer), 8 bits\n") != NULL);
	ck_assert(strstr(out, "\tcwr                           \t0x80\n") != NULL);
	free(out);

	/* Stock nft shows big endian constants byte swapped here. */
	out = describe_type(&ethertype_type);
	ck_assert(strstr(out, "\tip                            \t0x0008\n") != NULL);
	free(out);

	ck_assert_ptr_null(datatype_lookup_byname("ct_label"));
	ck_assert_ptr_null(datatype_lookup_byname("ct_event"));

	out = describe_type(&inet_protocol_type);
	ck_assert(strstr(out, "\tip                            \t0\n") != NULL);
	ck_assert(strstr(out, "\tethernet                      \t143\n") != NULL);
	ck_assert(strstr(out, "hopopt") == NULL);
	free(out);
}
END_TEST

static Suite *datatype_suite(void)
{
	Suite *s = suite_create("datatype");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_integer);
	tcase_add_test(tc, test_symbols);
	tcase_add_test(tc, test_addresses);
	tcase_add_test(tc, test_services_protocols);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_misc);
	tcase_add_test(tc, test_print);
	tcase_add_test(tc, test_concat);
	tcase_add_test(tc, test_describe);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(datatype_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
