/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the fast element scan (nftc/elem_scan.c), the part
 * offline/elem-scan.sh cannot see (there the scan must change nothing):
 *  - lists it must take are taken: "add set" declarations of IPv4, IPv6
 *    and port sets parse into a scanned pack holding every element, its
 *    keys the bytes inet_pton() and htons() give;
 *  - lists it must not take (names, variables, options on an element,
 *    bad numbers, host bits, missing commas...) are left to the parser;
 *  - element locations (for overlap errors) are found again in the text,
 *    across newlines and comments;
 *  - NFTKIT_ELEM_SCAN=0 turns it off.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "nftc.h"
#include "elem_pack.h"
#include "elem_scan.h"
#include "rule.h"

/* Parse @text ("add set ..."): the set's pack, or NULL (then *@ctxp too). */
static struct elem_pack *parse_pack(const char *text, struct nftc_ctx **ctxp,
				    struct list_head *cmds)
{
	struct nftc_ctx *ctx = nftc_ctx_alloc();
	struct cmd *cmd;

	ck_assert_ptr_nonnull(ctx);
	ctx->resolver = &nftc_resolver_builtin;
	init_list_head(cmds);
	ck_assert_int_eq(nftc_parse_buffer(ctx, text, cmds), 0);
	*ctxp = ctx;
	ck_assert(!list_empty(cmds));
	cmd = list_first_entry(cmds, struct cmd, list);
	ck_assert_int_eq(cmd->obj, CMD_OBJ_SET);
	return cmd->set->pack;
}

static void done(struct nftc_ctx *ctx, struct list_head *cmds)
{
	cmd_list_free(cmds);
	nftc_ctx_free(ctx);
}

/* The scanned pack of @decl holds @n keys, each @bytes long as @want. */
static void check_keys(const char *decl, const uint8_t *want,
		       unsigned int n, unsigned int bytes)
{
	struct list_head cmds;
	struct nftc_ctx *ctx;
	struct elem_pack *p = parse_pack(decl, &ctx, &cmds);
	struct expr e;
	unsigned int k;

	ck_assert_msg(p && elem_pack_region(p), "not scanned: %.60s", decl);
	ck_assert_uint_eq(elem_pack_count(p), n);
	for (k = 0; k < n; k++) {
		elem_pack_key(p, k, &e);
		ck_assert_msg(!memcmp(e.value.data, want + k * bytes, bytes),
			      "key %u of %.60s", k, decl);
	}
	done(ctx, &cmds);
}

START_TEST(test_ipv4_taken)
{
	static const char *const addrs[] = {
		"10.0.0.1", "0.0.0.0", "255.255.255.255", "1.2.3.4",
		"192.168.100.9", "10.0.0.1",
	};
	unsigned int n = sizeof(addrs) / sizeof(addrs[0]), i;
	uint8_t want[sizeof(addrs) / sizeof(addrs[0])][4];
	char *decl;

	for (i = 0; i < n; i++)
		ck_assert_int_eq(inet_pton(AF_INET, addrs[i], want[i]), 1);
	ck_assert_int_ge(asprintf(&decl, "add set ip t s { type ipv4_addr; "
		"elements = {\n\t%s, %s,# c, 9.9.9.9\n\n %s ,%s,\t%s,\n"
		"%s,\n # end\n } }", addrs[0], addrs[1], addrs[2], addrs[3],
		addrs[4], addrs[5]), 0);
	check_keys(decl, &want[0][0], n, 4);
	free(decl);
}
END_TEST

START_TEST(test_ipv6_taken)
{
	static const char *const addrs[] = {
		"::", "::1", "fe80::", "1:2:3:4:5:6:7:8", "a:b::c:d",
		"FFFF:0:00:000::1", "1::2:3:4:5:6:7", "2001:DB8:0:0:1::",
	};
	unsigned int n = sizeof(addrs) / sizeof(addrs[0]), i;
	uint8_t want[sizeof(addrs) / sizeof(addrs[0])][16];
	char decl[512];
	size_t off;

	off = (size_t)snprintf(decl, sizeof(decl),
			       "add set ip6 t s { type ipv6_addr; elements = {");
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(inet_pton(AF_INET6, addrs[i], want[i]), 1);
		off += (size_t)snprintf(decl + off, sizeof(decl) - off, "%s%s",
					i ? ", " : " ", addrs[i]);
	}
	snprintf(decl + off, sizeof(decl) - off, " } }");
	check_keys(decl, &want[0][0], n, 16);
}
END_TEST

START_TEST(test_ports_taken)
{
	static const uint16_t ports[] = { 22, 80, 443, 1, 65535, 8080 };
	unsigned int n = sizeof(ports) / sizeof(ports[0]), i;
	uint16_t want[sizeof(ports) / sizeof(ports[0])];

	for (i = 0; i < n; i++)
		want[i] = htons(ports[i]);
	check_keys("add set inet t s { type inet_service; "
		   "elements = { 22, 80, 443, 1, 65535, 8080 } }",
		   (const uint8_t *)want, n, 2);
}
END_TEST

/* Interval sets: prefixes and ranges taken, counted as ranges. */
START_TEST(test_ranges_taken)
{
	struct list_head cmds;
	struct nftc_ctx *ctx;
	struct elem_pack *p;

	p = parse_pack("add set ip t s { type ipv4_addr; flags interval; "
		       "elements = { 10.0.0.0/8, 1.2.3.4-1.2.3.9, 5.5.5.5, "
		       "192.168.0.0/16 } }", &ctx, &cmds);
	ck_assert(p && elem_pack_region(p));
	ck_assert(elem_pack_region(p)->ranges);
	ck_assert_uint_eq(elem_pack_count(p), 4);
	done(ctx, &cmds);
	p = parse_pack("add set inet t s { type inet_service; flags interval; "
		       "elements = { 1-1023, 8080 } }", &ctx, &cmds);
	ck_assert(p && elem_pack_region(p));
	ck_assert_uint_eq(elem_pack_count(p), 2);
	done(ctx, &cmds);
}
END_TEST

/* Element lists the scan leaves to the parser (which then may fail). */
START_TEST(test_left_to_parser)
{
	static const char *const lists[] = {
		"1.2.3.4, foo", "1.2.3.4, $x", "1.2.3.4 timeout 1s",
		"1.2.3.4 comment \"c\"", "1.2.3.4, 1.2.3.256", "01.2.3.4",
		"1.2.3.4.5", "1.2.3.4 . 5", "1.2.3.4\n1.2.3.5",
		"1.2.3.4 # c\n, 1.2.3.5", "1.2.3.4 \\\n, 1.2.3.5",
		"10.0.0.0/8", "1.2.3.4-1.2.3.5", "1.2.3.4:80", "1.2.3.4;",
	};
	unsigned int i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct nftc_ctx *ctx = nftc_ctx_alloc();
		struct list_head cmds = LIST_HEAD_INIT(cmds);
		char *decl;
		struct cmd *cmd;

		ck_assert_int_ge(asprintf(&decl, "add set ip t s { type "
			"ipv4_addr; elements = { %s } }", lists[i]), 0);
		nftc_parse_buffer(ctx, decl, &cmds);
		list_for_each_entry(cmd, &cmds, list)
			ck_assert_msg(cmd->obj != CMD_OBJ_SET ||
				      !elem_pack_region(cmd->set->pack),
				      "scanned: %s", lists[i]);
		free(decl);
		done(ctx, &cmds);
	}
}
END_TEST

/* Locations: found again in the text, lines and columns counted. */
START_TEST(test_locate)
{
	static const char text[] =
		"{ 10.0.0.0/24,\n  # a comment\n\t1.2.3.4-1.2.3.9, 5.5.5.5 }";
	struct input_desc in = { .kind = INPUT_CMDLINE, .name = "x" };
	struct elem_scan_region r = {
		.indesc = &in, .offset = 1, .line = 7, .line_offset = 0,
		.kind = ELEM_SCAN_IPV4, .ranges = true,
	}, end;
	struct location loc;
	struct elem_pack *p;

	in.data = calloc(1, sizeof(text) + 2);
	ck_assert_ptr_nonnull(in.data);
	memcpy(in.data, text, sizeof(text));
	in.size = sizeof(text) - 1;
	p = elem_scan_list(&r, &end);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(elem_pack_count(p), 3);
	ck_assert_int_eq(in.data[end.offset], '}');
	ck_assert_uint_eq(end.line, 9);
	elem_scan_locate(&r, 0, &loc);
	ck_assert_uint_eq(loc.first_line, 7);
	ck_assert_uint_eq(loc.first_column, 3);
	ck_assert_uint_eq(loc.last_column, 13);
	elem_scan_locate(&r, 1, &loc);
	ck_assert_uint_eq(loc.first_line, 9);
	ck_assert_uint_eq(loc.first_column, 2);
	ck_assert_uint_eq(loc.last_column, 16);
	ck_assert_uint_eq(loc.line_offset, sizeof("{ 10.0.0.0/24,\n  # a "
						  "comment\n") - 1);
	elem_scan_locate(&r, 2, &loc);
	ck_assert_uint_eq(loc.first_column, 19);
	ck_assert_uint_eq(loc.last_column, 25);
	elem_pack_free(p);
	free(in.data);
}
END_TEST

START_TEST(test_switch_off)
{
	struct list_head cmds;
	struct nftc_ctx *ctx;
	struct elem_pack *p;

	setenv(ELEM_SCAN_ENV, "0", 1);
	p = parse_pack("add set ip t s { type ipv4_addr; "
		       "elements = { 1.2.3.4, 1.2.3.5 } }", &ctx, &cmds);
	unsetenv(ELEM_SCAN_ENV);
	ck_assert(!elem_pack_region(p));
	done(ctx, &cmds);
}
END_TEST

static Suite *elem_scan_suite(void)
{
	Suite *s = suite_create("elem_scan");
	TCase *tc = tcase_create("elem_scan");

	tcase_add_test(tc, test_ipv4_taken);
	tcase_add_test(tc, test_ipv6_taken);
	tcase_add_test(tc, test_ports_taken);
	tcase_add_test(tc, test_ranges_taken);
	tcase_add_test(tc, test_left_to_parser);
	tcase_add_test(tc, test_locate);
	tcase_add_test(tc, test_switch_off);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(elem_scan_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
