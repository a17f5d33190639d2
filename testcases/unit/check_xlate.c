// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libxlate: the exact semantics of extension mappings, through the
 * public API (one iptables command in, nft rule text out, evaluated
 * and printed by nftc).
 */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "../../xlate/xlate.h"

/* Translate one command; returns the printed rule(s), malloc'ed. */
static char *xl(uint8_t family, const char *cmd, int *ret)
{
	char *argv[64], *copy = strdup(cmd), *save, *t, *buf = NULL;
	struct xlate_ctx *ctx = xlate_ctx_alloc(family, 0);
	int argc = 0;
	size_t len;
	FILE *f;

	for (t = strtok_r(copy, " ", &save); t && argc < 63;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	xlate_read_command(ctx, argc, argv);
	f = open_memstream(&buf, &len);
	*ret = xlate_print(ctx, f);
	fclose(f);
	xlate_ctx_free(ctx);
	free(copy);
	return buf;
}

#define CHECK_XL(cmd, expect) do {					\
	int _ret;							\
	char *_out = xl(NFPROTO_IPV4, cmd, &_ret);			\
	ck_assert_str_eq(_out, expect "\n");				\
	ck_assert_int_eq(_ret, 0);					\
	free(_out);							\
} while (0)

START_TEST(test_basic)
{
	CHECK_XL("iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
		 "add rule ip filter INPUT tcp dport 22 counter accept");
	/* -p udp -m udp alone keeps the protocol test */
	CHECK_XL("iptables -A INPUT -p udp -m udp -j DROP",
		 "add rule ip filter INPUT meta l4proto udp counter drop");
	CHECK_XL("iptables -A INPUT -s 10.1.2.3/255.255.0.0 ! -i eth+",
		 "add rule ip filter INPUT iifname != \"eth*\" "
		 "ip saddr 10.1.0.0/16 counter");
}
END_TEST

START_TEST(test_conntrack)
{
	CHECK_XL("iptables -A INPUT -m state --state ESTABLISHED,RELATED "
		 "-j ACCEPT",
		 "add rule ip filter INPUT ct state established,related "
		 "counter accept");
	CHECK_XL("iptables -A INPUT -m conntrack --ctdir ORIGINAL",
		 "add rule ip filter INPUT ct direction original counter");
}
END_TEST

START_TEST(test_marks)
{
	/* xmark: new = (old & ~mask) ^ value */
	CHECK_XL("iptables -t mangle -A OUTPUT -j MARK --set-xmark "
		 "0x40/0x32",
		 "add rule ip mangle OUTPUT counter meta mark set "
		 "meta mark & 0xffffffcd ^ 0x00000040");
	CHECK_XL("iptables -t mangle -A OUTPUT -j CONNMARK --save-mark",
		 "add rule ip mangle OUTPUT counter ct mark set meta mark");
}
END_TEST

START_TEST(test_limit)
{
	CHECK_XL("iptables -A INPUT -m limit --limit 3/hour "
		 "--limit-burst 7",
		 "add rule ip filter INPUT limit rate 3/hour burst 7 packets "
		 "counter");
}
END_TEST

START_TEST(test_errors)
{
	int ret;
	char *out = xl(NFPROTO_IPV4, "iptables -A INPUT -p tcp --dprt 1",
		       &ret);

	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

static Suite *xlate_suite(void)
{
	Suite *s = suite_create("xlate");
	TCase *tc = tcase_create("mappings");

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_conntrack);
	tcase_add_test(tc, test_marks);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(xlate_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
