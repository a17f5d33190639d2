/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the decompiler (nftc/delinearize.c, delin_*.c) without a
 * kernel: nft text is compiled (parse, evaluate, linearize into a
 * netlink batch), the batch's messages are read back as the kernel would
 * store them (nftc_ruleset_from_batch), decompiled and printed. The
 * expected text is stock nft 1.0.6's "list ruleset" of the same input,
 * so a listing must come back unchanged.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nftc.h"
#include "linearize.h"
#include "listing.h"
#include "printer.h"
#include "check_compile.h"
#include "check_text.h"

/* Compile @text and list what its batch creates, with output @flags. */
static char *relist(const char *text, unsigned int flags)
{
	struct output_ctx *octx;
	struct ck_compiled c;
	struct nftc_ruleset rs;
	struct ck_text out;
	struct table *t;
	char *buf;

	ck_compile(&c, text);
	ck_assert_int_eq(nftc_ruleset_from_batch(&rs, c.batch), 0);

	octx = ck_text_open(&out);
	octx->flags = flags;
	list_for_each_entry(t, &rs.tables, list)
		nftc_print_table(octx, t);
	buf = ck_text_close(&out);

	nftc_ruleset_free(&rs);
	ck_compiled_free(&c);
	return buf;
}

/* The first line where @got and @want differ, on stderr. */
static void show_diff(const char *got, const char *want)
{
	size_t gl, wl;

	while (*got && *want) {
		gl = strcspn(got, "\n");
		wl = strcspn(want, "\n");
		if (gl != wl || memcmp(got, want, gl))
			break;
		got += gl + (got[gl] == '\n');
		want += wl + (want[wl] == '\n');
	}
	fprintf(stderr, "  want: %.*s\n  got:  %.*s\n",
		(int)strcspn(want, "\n"), want, (int)strcspn(got, "\n"), got);
}

/* Mismatches of the running test (each is shown, the test fails once). */
static unsigned int failures;

static void expect_same(const char *text)
{
	char *got = relist(text, 0);

	if (strcmp(got, text)) {
		failures++;
		show_diff(got, text);
	}
	free(got);
}

/* One rule in a base chain of a table of @family: listed unchanged. */
static void expect_rule(const char *family, const char *rule)
{
	char in[2048];

	snprintf(in, sizeof(in),
		 "table %s t {\n\tchain c {\n"
		 "\t\ttype filter hook input priority filter; "
		 "policy accept;\n\t\t%s\n\t}\n}\n", family, rule);
	expect_same(in);
}

/* ---------------------------------------------------------------- tests */

/* A whole listing of stock nft comes back byte for byte. */
START_TEST(test_stock_listing)
{
	failures = 0;
	static const char listing[] =
	"table ip filter {\n"
	"\tcounter c1 {\n"
	"\t\tpackets 0 bytes 0\n"
	"\t}\n"
	"\n"
	"\tset blocked {\n"
	"\t\ttype ipv4_addr\n"
	"\t\tflags interval\n"
	"\t\telements = { 10.0.0.0/8, 192.168.1.1,\n"
	"\t\t\t     192.168.2.0-192.168.2.100 }\n"
	"\t}\n"
	"\n"
	"\tmap ports {\n"
	"\t\ttype inet_service : verdict\n"
	"\t\telements = { 22 : accept, 80 : drop }\n"
	"\t}\n"
	"\n"
	"\tchain input {\n"
	"\t\ttype filter hook input priority filter; policy drop;\n"
	"\t\tct state established,related accept\n"
	"\t\tiifname \"lo\" accept\n"
	"\t\tiifname \"eth*\" ip saddr 10.0.0.0/9 drop\n"
	"\t\tip saddr @blocked drop\n"
	"\t\ttcp dport @ports\n"
	"\t\ttcp dport { 22, 80, 443 } accept\n"
	"\t\ttcp dport 1000-2000 counter packets 0 bytes 0 accept\n"
	"\t\tudp sport != 53 ip daddr 1.2.3.4 log prefix \"x \" level info\n"
	"\t\ticmp type echo-request limit rate 5/second accept\n"
	"\t\ttcp flags syn / syn,ack meta mark set 0x00000010\n"
	"\t\tip dscp cs1 ip ttl 64 counter name \"c1\"\n"
	"\t\tmeta l4proto udp reject\n"
	"\t\ttcp dport 22 reject with tcp reset\n"
	"\t\tct mark 0x00000001 ip saddr . tcp dport { 1.2.3.4 . 22, 5.6.7.8 . 80 } accept\n"
	"\t\tjump other\n"
	"\t\tmeta mark set ct mark\n"
	"\t\tip ttl set 23 comment \"rewrite\"\n"
	"\t}\n"
	"\n"
	"\tchain other {\n"
	"\t\ttcp dport vmap { 22 : accept, 23 : drop }\n"
	"\t\treturn\n"
	"\t}\n"
	"}\n"
	"table inet nat {\n"
	"\tchain post {\n"
	"\t\ttype nat hook postrouting priority srcnat; policy accept;\n"
	"\t\toifname \"eth0\" masquerade\n"
	"\t\tip6 saddr ::1 meta l4proto tcp snat ip6 to [2001:db8::1]:80\n"
	"\t}\n"
	"\n"
	"\tchain pre {\n"
	"\t\ttype nat hook prerouting priority dstnat; policy accept;\n"
	"\t\tip daddr 10.0.0.1 tcp dport 80 dnat ip to 10.0.0.2:8080\n"
	"\t}\n"
	"}\n"
	"table bridge br {\n"
	"\tchain forward {\n"
	"\t\ttype filter hook forward priority 0; policy accept;\n"
	"\t\tip saddr 1.2.3.4 drop\n"
	"\t\tvlan id 10 accept\n"
	"\t}\n"
	"}\n";

	expect_same(listing);
	ck_assert_uint_eq(failures, 0);
}
END_TEST

START_TEST(test_matches)
{
	static const char *const rules[] = {
		"tcp dport 22 accept",
		"tcp sport 1024 tcp dport 22",
		"ip saddr 10.0.0.0/8 ip daddr != 192.168.0.0/16 drop",
		"ip daddr 1.2.3.0/25",
		"tcp dport != 1000-2000",
		"udp dport { 53, 123 } counter packets 0 bytes 0",
		"ip protocol tcp",
		"ct state established,new",
		"ct state ! established",
		"tcp flags == syn",
		"tcp flags fin,syn / fin,syn",
		"ip hdrlength 5",
		"ip dscp af11",
		"ip6 flowlabel 12345",
		"iifname \"eth*\"",
		"meta mark 0x00000010",
		"meta mark & 0x000000ff == 0x00000010",
		"meta skuid 1000",
		"ct mark set meta mark",
		"meta length 100-200",
		"icmp type echo-request",
		"icmpv6 type { echo-request, echo-reply }",
		"th dport 22",
		"ip ttl < 10",
	};
	size_t i;

	failures = 0;
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (strncmp(rules[i], "ip6", 3) && strncmp(rules[i], "icmpv6", 6))
			expect_rule("ip", rules[i]);
		if (strncmp(rules[i], "ip ", 3) && strncmp(rules[i], "icmp ", 5))
			expect_rule("inet", rules[i]);
	}
	ck_assert_uint_eq(failures, 0);
}
END_TEST

START_TEST(test_statements)
{
	static const char *const rules[] = {
		"counter packets 0 bytes 0",
		"log prefix \"hello \" level info flags all",
		"log group 2 snaplen 64",
		"limit rate over 10/minute burst 20 packets",
		"limit rate 1 mbytes/second",
		"quota over 10 mbytes",
		"reject with icmp host-unreachable",
		"reject with tcp reset",
		"meta mark set 0x00000001",
		"ct mark set 0x00000002",
		"meta nftrace set 1",
		"ip ttl set 1",
		"ip dscp set cs3",
		"tcp dport 80 tcp dport set 8080",
		"queue to 2-3",
		"queue flags bypass to 1",
		"notrack",
		"ct count over 10",
		"meta mark set tcp dport map { 22 : 0x00000001, 80 : 0x00000002 }",
		"tcp dport vmap { 22 : accept, 80 : drop }",
		"ip saddr . ip daddr { 1.2.3.4 . 5.6.7.8 }",
		"jump other",
		"goto other",
		"return",
	};
	size_t i;

	failures = 0;
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		char in[1024];

		snprintf(in, sizeof(in),
			 "table ip t {\n\tchain c {\n"
			 "\t\ttype filter hook input priority filter; "
			 "policy accept;\n\t\t%s\n\t}\n\n"
			 "\tchain other {\n\t}\n}\n", rules[i]);
		expect_same(in);
	}
	ck_assert_uint_eq(failures, 0);
}
END_TEST

/* Link layer families: ethernet, vlan, arp headers and dependencies. */
START_TEST(test_families)
{
	static const char *const bridge[] = {
		"ether saddr 00:11:22:33:44:55 accept",
		"ip saddr 1.2.3.4 drop",
		"ip saddr 1.2.3.4 tcp dport 22",
		"vlan id 10 accept",
		"ether saddr 00:0f:54:0c:11:04 ip daddr 1.2.3.4 accept",
		"ip6 daddr ::1 udp dport 53",
	};
	static const char *const arp[] = {
		"arp operation request",
		"arp htype 1 arp ptype ip",
		"arp hlen 6 arp plen 4",
	};
	size_t i;

	failures = 0;
	for (i = 0; i < sizeof(bridge) / sizeof(bridge[0]); i++)
		expect_rule("bridge", bridge[i]);
	for (i = 0; i < sizeof(arp) / sizeof(arp[0]); i++)
		expect_rule("arp", arp[i]);
	ck_assert_uint_eq(failures, 0);
}
END_TEST

START_TEST(test_nat)
{
	failures = 0;
	expect_same("table ip nat {\n"
		    "\tchain pre {\n"
		    "\t\ttype nat hook prerouting priority dstnat; "
		    "policy accept;\n"
		    "\t\ttcp dport 80 dnat to 10.0.0.1:8080\n"
		    "\t\tudp dport 53 dnat to 10.0.0.2\n"
		    "\t\ttcp dport 81 redirect to :8081\n"
		    "\t}\n\n"
		    "\tchain post {\n"
		    "\t\ttype nat hook postrouting priority srcnat; "
		    "policy accept;\n"
		    "\t\toifname \"eth0\" masquerade random\n"
		    "\t\tip saddr 10.0.0.0/24 snat to 1.2.3.4-1.2.3.10\n"
		    "\t}\n"
		    "}\n");
	ck_assert_uint_eq(failures, 0);
}
END_TEST

/*
 * Anonymous chains: bound chains and their rules named by chain ids in
 * the batch, listed inline again (stock's listing of the same ruleset).
 */
START_TEST(test_anonymous_chains)
{
	static const char listing[] =
	"table inet t {\n"
	"\tchain c {\n"
	"\t\ttype filter hook input priority filter; policy accept;\n"
	"\t\ttcp dport 22 jump {\n"
	"\t\t\tip saddr 10.0.0.0/8 accept\n"
	"\t\t\tcounter packets 0 bytes 0 drop\n"
	"\t\t}\n"
	"\t\tudp dport 53 counter packets 0 bytes 0 goto {\n"
	"\t\t\tip saddr 192.168.0.0/16 accept\n"
	"\t\t\tdrop\n"
	"\t\t} comment \"hi\"\n"
	"\t\tjump {\n"
	"\t\t}\n"
	"\t}\n"
	"\n"
	"\tchain d {\n"
	"\t\tgoto {\n"
	"\t\t\tjump d\n"
	"\t\t}\n"
	"\t}\n"
	"}\n";

	failures = 0;
	expect_same(listing);
	ck_assert_uint_eq(failures, 0);
}
END_TEST

START_TEST(test_sets)
{
	failures = 0;
	expect_same("table inet t {\n"
		    "\tset s4 {\n"
		    "\t\ttype ipv4_addr\n"
		    "\t\tflags interval\n"
		    "\t\telements = { 1.2.3.0/24, 10.0.0.1-10.0.0.5 }\n"
		    "\t}\n\n"
		    "\tset ports {\n"
		    "\t\ttype inet_service\n"
		    "\t\telements = { 22, 80, 443 }\n"
		    "\t}\n\n"
		    "\tset dyn {\n"
		    "\t\ttype ipv4_addr\n"
		    "\t\tsize 65535\n"
		    "\t\tflags dynamic,timeout\n"
		    "\t}\n\n"
		    "\tmap m {\n"
		    "\t\ttype ipv4_addr : mark\n"
		    "\t\telements = { 1.1.1.1 : 0x00000001 }\n"
		    "\t}\n\n"
		    "\tchain c {\n"
		    "\t\tip saddr @s4 tcp dport @ports accept\n"
		    "\t\tmeta mark set ip saddr map @m\n"
		    "\t\tupdate @dyn { ip saddr timeout 1m }\n"
		    "\t}\n"
		    "}\n");
	/* concatenations shorter than a register word when unpadded (1 + 2
	 * bytes): the key takes 8 register bytes, both members are read */
	expect_rule("inet", "meta l4proto . th dport { tcp . 22, udp . 53 } "
		    "accept");
	expect_rule("inet", "meta nfproto . th dport { ipv4 . 22 } drop");
	expect_rule("inet", "meta l4proto . th dport vmap { tcp . 22 : "
		    "accept, udp . 53 : drop }");
	expect_rule("inet", "meta mark set meta l4proto . th dport map "
		    "{ tcp . 22 : 0x00000001 }");
	ck_assert_uint_eq(failures, 0);
}
END_TEST

static Suite *delinearize_suite(void)
{
	Suite *s = suite_create("delinearize");
	TCase *tc = tcase_create("roundtrip");

	tcase_add_test(tc, test_stock_listing);
	tcase_add_test(tc, test_matches);
	tcase_add_test(tc, test_statements);
	tcase_add_test(tc, test_families);
	tcase_add_test(tc, test_nat);
	tcase_add_test(tc, test_sets);
	tcase_add_test(tc, test_anonymous_chains);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(delinearize_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
