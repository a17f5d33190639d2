/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of reading rule messages in place (nftc/delin_msg.c)
 * without a kernel: rules are compiled into a netlink batch, and each
 * rule message is decompiled twice, read in place
 * (nftc_delinearize_rmsg) and through libnftnl objects
 * (nftc_delinearize_rule); both must print the same text, for every
 * expression read in place (payload, cmp, meta, ct, immediate with
 * values and verdicts, bitwise, byteorder, lookup, range, counter,
 * limit) and for rules with others (nat, log, ...: libnftnl reads
 * those). A few texts are checked against stock nft 1.0.6's listing of
 * the same rule too. kernel/list-conformance.sh checks the in-place
 * reading against stock on a real kernel over the whole corpus.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/rule.h>

#include "nftc.h"
#include "linearize.h"
#include "delinearize.h"
#include "printer.h"
#include "check_compile.h"
#include "check_text.h"

static char *rule_text(const struct rule *r)
{
	struct ck_text t;

	nftc_print_rule(ck_text_open(&t), r);
	return ck_text_close(&t);
}

/* Both ways of reading rule message @nlh; returns the text (in place). */
static char *both_ways(const struct nlmsghdr *nlh, uint32_t family)
{
	struct delin_ctx dctx = { .family = family };
	struct nftnl_rule *nlr = nftnl_rule_alloc();
	struct delin_rmsg m;
	struct rule *a, *b;
	char *ta, *tb;

	ck_assert_ptr_nonnull(nlr);
	ck_assert_int_eq(delin_rmsg_parse(nlh, &m), 0);
	ck_assert_str_eq(m.table, "t");
	ck_assert_str_eq(m.chain, "c");
	ck_assert_uint_eq(m.family, family);
	ck_assert_int_eq(nftnl_rule_nlmsg_parse(nlh, nlr), 0);
	a = nftc_delinearize_rmsg(&dctx, nlh, &m);
	b = nftc_delinearize_rule(&dctx, nlr);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ta = rule_text(a);
	tb = rule_text(b);
	ck_assert_str_eq(ta, tb);
	free(tb);
	rule_free(a);
	rule_free(b);
	nftnl_rule_free(nlr);
	return ta;
}

/*
 * Compile @rule into chain c of table t of @family (with a chain
 * "other" to jump to); decompile its rule message both ways. Returns
 * the text.
 */
static char *relist_rule(const char *family, const char *rule)
{
	struct ck_compiled c;
	const struct nlmsghdr *nlh;
	const struct nfgenmsg *nfg;
	char in[2048], *text = NULL;
	const void *buf;
	size_t len;
	unsigned int i;
	int rest;

	snprintf(in, sizeof(in),
		 "table %s t {\n\tchain other {\n\t}\n\tchain c {\n"
		 "\t\ttype filter hook input priority filter; "
		 "policy accept;\n\t\t%s\n\t}\n}\n", family, rule);
	ck_compile(&c, in);
	for (i = 0; (buf = nftc_batch_chunk(c.batch, i, &len)); i++) {
		rest = len;
		for (nlh = buf; mnl_nlmsg_ok(nlh, rest);
		     nlh = mnl_nlmsg_next(nlh, &rest)) {
			if ((nlh->nlmsg_type & 0xff) != NFT_MSG_NEWRULE)
				continue;
			ck_assert_ptr_null(text);
			nfg = mnl_nlmsg_get_payload(nlh);
			text = both_ways(nlh, nfg->nfgen_family);
		}
	}
	ck_assert_ptr_nonnull(text);
	ck_compiled_free(&c);
	return text;
}

static void same(const char *family, const char *rule)
{
	free(relist_rule(family, rule));
}

/* Read both ways and as stock lists it (the rule text itself). */
static void as_stock(const char *family, const char *rule)
{
	char *text = relist_rule(family, rule);

	ck_assert_str_eq(text, rule);
	free(text);
}

START_TEST(test_in_place)
{
	as_stock("ip", "ip saddr 10.1.2.3 tcp dport 22 accept");
	as_stock("inet", "ip daddr 192.168.4.0/24 udp dport 53 counter "
		 "packets 0 bytes 0 drop");
	as_stock("inet", "iifname \"eth3\" ip6 saddr 2001:db8::1 ct state "
		 "established,related accept");
	as_stock("inet", "tcp dport 1000-1099 ct state new counter "
		 "packets 0 bytes 0 accept");
	as_stock("inet", "meta mark 0x0000002a ip protocol udp counter "
		 "packets 0 bytes 0");
	as_stock("inet", "tcp flags syn tcp dport 80 limit rate 10/second "
		 "accept");
	/* no table here: the anonymous set is not found, both ways */
	same("ip", "tcp dport { 22, 80, 443 } accept");
	as_stock("ip", "ip saddr != 10.0.0.0/8 jump other");
	same("inet", "meta l4proto tcp tcp dport != { 1-10, 20 } drop");
	same("ip", "ip ttl 64 ip protocol tcp counter drop");
	same("ip6", "ip6 hoplimit 1 icmpv6 type echo-request accept");
	same("inet", "meta mark set 0x1 ct mark set meta mark");
	same("inet", "tcp dport vmap { 22 : accept, 80 : drop }");
	same("inet", "ct original ip saddr 1.2.3.4 counter");
	same("inet", "ip dscp cs1 ip ecn not-ect accept");
	same("bridge", "ether type ip ip saddr 1.1.1.1 ether saddr "
	     "00:11:22:33:44:55 accept");
	same("inet", "meta protocol ip udp sport 53 goto other");
	same("inet", "limit rate over 100/minute burst 20 packets drop");
	same("inet", "meta nfproto ipv4 meta skuid 0 accept");
}
END_TEST

/* Rules with expressions read by libnftnl (the whole rule so). */
START_TEST(test_libnftnl)
{
	same("inet", "tcp dport 22 log prefix \"ssh \" accept");
	same("ip", "ip saddr 10.0.0.1 snat to 1.2.3.4");
	same("inet", "tcp dport 25 reject with tcp reset");
	same("inet", "tcp dport 80 queue num 3");
	same("inet", "tcp dport 81 notrack");
}
END_TEST

static Suite *delin_msg_suite(void)
{
	Suite *s = suite_create("delin_msg");
	TCase *tc = tcase_create("delin_msg");

	tcase_add_test(tc, test_in_place);
	tcase_add_test(tc, test_libnftnl);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(delin_msg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
