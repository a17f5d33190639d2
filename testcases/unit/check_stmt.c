/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of statement linearization (nftc/lin_stmt.c) and of the
 * nfnetlink batch (nftc/batch.c). Expected VM code is what stock nft
 * 1.0.6 prints with --debug=netlink for the same statements.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>

#include "lin_int.h"
#include "stmt.h"
#include "rule.h"

/* Linearize @stmt alone and return libnftnl's text of the rule body. */
static char *lin_text(struct stmt *stmt)
{
	struct nftc_ctx *nft = nftc_ctx_alloc();
	struct lin_ctx ctx;
	char *buf = calloc(1, 4096);
	char *body;

	ck_assert_ptr_nonnull(nft);
	memset(&ctx, 0, sizeof(ctx));
	ctx.nft = nft;
	ctx.nlr = nftnl_rule_alloc();
	ctx.family = NFPROTO_IPV4;
	lin_stmt(&ctx, stmt);
	ck_assert_uint_eq(nft->erq.num_errors, 0);
	nftnl_rule_snprintf(buf, 4096, ctx.nlr, NFTNL_OUTPUT_DEFAULT, 0);
	nftnl_rule_free(ctx.nlr);
	nftc_ctx_free(nft);
	/* drop the "family table chain" header line */
	body = strchr(buf, '\n');
	body = strdup(body ? body + 1 : buf);
	free(buf);
	stmt_free(stmt);
	return body;
}

static void expect(struct stmt *stmt, const char *want)
{
	char *got = lin_text(stmt);

	ck_assert_str_eq(got, want);
	free(got);
}

static struct expr *u32_value(uint32_t n, enum byteorder bo,
			      unsigned int len)
{
	return constant_expr_u64(&internal_location, &integer_type, bo, len, n);
}

START_TEST(test_counter_log_limit_quota)
{
	struct stmt *s;

	expect(stmt_alloc(NULL, STMT_COUNTER),
	       "  [ counter pkts 0 bytes 0 ]\n");

	s = stmt_alloc(NULL, STMT_LOG);
	s->log.prefix = strdup("nft-test: ");
	s->log.group = 2;
	s->log.flags = STMT_LOG_PREFIX | STMT_LOG_GROUP;
	expect(s, "  [ log prefix nft-test:  group 2 snaplen 0 "
		  "qthreshold 0 ]\n");

	s = stmt_alloc(NULL, STMT_LOG);
	s->log.level = 4;
	s->log.flags = STMT_LOG_LEVEL;
	expect(s, "  [ log level 4 ]\n");

	s = stmt_alloc(NULL, STMT_LIMIT);
	s->limit.rate = 10;
	s->limit.unit = 1;
	s->limit.burst = 5;
	s->limit.type = NFT_LIMIT_PKTS;
	expect(s, "  [ limit rate 10/second burst 5 type packets "
		  "flags 0x0 ]\n");

	s = stmt_alloc(NULL, STMT_QUOTA);
	s->quota.bytes = 10485760;
	s->quota.flags = NFT_QUOTA_F_INV;
	expect(s, "  [ quota bytes 10485760 consumed 0 flags 1 ]\n");
}
END_TEST

START_TEST(test_reject_queue_misc)
{
	struct stmt *s;

	s = stmt_alloc(NULL, STMT_REJECT);
	s->reject.type = NFT_REJECT_ICMP_UNREACH;
	s->reject.icmp_code = 3;
	expect(s, "  [ reject type 0 code 3 ]\n");

	s = stmt_alloc(NULL, STMT_QUEUE);
	s->queue.queue = range_expr_alloc(&internal_location,
					  u32_value(4, BYTEORDER_HOST, 16),
					  u32_value(5, BYTEORDER_HOST, 16));
	s->queue.flags = NFT_QUEUE_FLAG_BYPASS | NFT_QUEUE_FLAG_CPU_FANOUT;
	expect(s, "  [ queue num 4-5 bypass fanout ]\n");

	expect(stmt_alloc(NULL, STMT_QUEUE), "  [ queue num 0 ]\n");
	expect(stmt_alloc(NULL, STMT_NOTRACK), "  [ notrack ]\n");

	s = stmt_alloc(NULL, STMT_CONNLIMIT);
	s->connlimit.count = 5;
	s->connlimit.flags = NFT_CONNLIMIT_F_INV;
	expect(s, "  [ connlimit count 5 flags 1 ]\n");

	s = stmt_alloc(NULL, STMT_SYNPROXY);
	s->synproxy.mss = 1460;
	s->synproxy.wscale = 7;
	expect(s, "  [ synproxy mss 1460 wscale 7 ]\n");

	s = stmt_alloc(NULL, STMT_OBJREF);
	s->objref.type = NFT_OBJECT_COUNTER;
	s->objref.expr = constant_expr_string(&internal_location,
					      &string_type, "c1", 0);
	expect(s, "  [ objref type 1 name c1 ]\n");
}
END_TEST

START_TEST(test_verdicts)
{
	struct expr *chain;

	expect(verdict_stmt_alloc(NULL, verdict_expr_alloc(&internal_location,
							   NF_ACCEPT, NULL)),
	       "  [ immediate reg 0 accept ]\n");
	chain = constant_expr_string(&internal_location, &string_type, "d",
				     0);
	expect(verdict_stmt_alloc(NULL, verdict_expr_alloc(&internal_location,
							   NFT_JUMP, chain)),
	       "  [ immediate reg 0 jump -> d ]\n");
}
END_TEST

START_TEST(test_meta_ct_set)
{
	struct stmt *s;

	s = stmt_alloc(NULL, STMT_META);
	s->meta.key = NFT_META_MARK;
	s->meta.expr = u32_value(1, BYTEORDER_HOST, 32);
	expect(s, "  [ immediate reg 1 0x00000001 ]\n"
		  "  [ meta set mark with reg 1 ]\n");

	s = stmt_alloc(NULL, STMT_CT);
	s->ct.key = NFT_CT_ZONE;
	s->ct.direction = IP_CT_DIR_ORIGINAL;
	s->ct.expr = u32_value(5, BYTEORDER_HOST, 16);
	expect(s, "  [ immediate reg 1 0x00000005 ]\n"
		  "  [ ct set zone with reg 1 , dir original ]\n");
}
END_TEST

START_TEST(test_nat)
{
	struct stmt *s;

	s = stmt_alloc(NULL, STMT_NAT);
	s->nat.kind = NAT_DNAT;
	s->nat.family = NFPROTO_IPV4;
	s->nat.addr = u32_value(0x01020304, BYTEORDER_BIG, 32);
	s->nat.proto = u32_value(8080, BYTEORDER_BIG, 16);
	s->nat.flags = NF_NAT_RANGE_PROTO_SPECIFIED;
	expect(s, "  [ immediate reg 1 0x04030201 ]\n"
		  "  [ immediate reg 2 0x0000901f ]\n"
		  "  [ nat dnat ip addr_min reg 1 proto_min reg 2 "
		  "flags 0x2 ]\n");

	s = stmt_alloc(NULL, STMT_NAT);
	s->nat.kind = NAT_MASQ;
	s->nat.flags = NF_NAT_RANGE_PROTO_RANDOM |
		       NF_NAT_RANGE_PROTO_RANDOM_FULLY |
		       NF_NAT_RANGE_PERSISTENT;
	expect(s, "  [ masq flags 0x1c ]\n");

	s = stmt_alloc(NULL, STMT_NAT);
	s->nat.kind = NAT_REDIR;
	s->nat.proto = range_expr_alloc(&internal_location,
					u32_value(1, BYTEORDER_BIG, 16),
					u32_value(2, BYTEORDER_BIG, 16));
	s->nat.flags = NF_NAT_RANGE_PROTO_SPECIFIED;
	expect(s, "  [ immediate reg 1 0x00000100 ]\n"
		  "  [ immediate reg 2 0x00000200 ]\n"
		  "  [ redir proto_min reg 1 proto_max reg 2 flags 0x2 ]\n");
}
END_TEST

/* Walk the messages of a finished batch. */
struct msg_seen {
	uint16_t	type;
	uint16_t	flags;
	uint32_t	seq;
	uint16_t	res_id;
};

static unsigned int batch_msgs(struct nftc_batch *b, struct msg_seen *out,
			       unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < nftc_batch_chunks(b); i++) {
		size_t len;
		const struct nlmsghdr *nlh = nftc_batch_chunk(b, i, &len);
		int rem = len;

		while (mnl_nlmsg_ok(nlh, rem)) {
			const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);

			if (n < max) {
				out[n].type = nlh->nlmsg_type;
				out[n].flags = nlh->nlmsg_flags;
				out[n].seq = nlh->nlmsg_seq;
				out[n].res_id = ntohs(g->res_id);
			}
			n++;
			nlh = mnl_nlmsg_next(nlh, &rem);
		}
		ck_assert_int_eq(rem, 0);
	}
	return n;
}

START_TEST(test_batch_framing)
{
	struct nftc_batch *b = nftc_batch_alloc(100);
	struct nftnl_table *t = nftnl_table_alloc();
	struct msg_seen m[4];
	struct nftc_seq_loc l;
	struct cmd dummy;

	ck_assert_ptr_nonnull(b);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, "x");
	nftc_batch_set_source(b, &dummy, &internal_location);
	ck_assert_int_eq(batch_add_table(b, NFT_MSG_NEWTABLE, NLM_F_CREATE,
					 NFPROTO_IPV4, t), 0);
	nftnl_table_free(t);
	ck_assert_int_eq(nftc_batch_end(b), 0);
	ck_assert_uint_eq(nftc_batch_num_msgs(b), 1);
	ck_assert_uint_eq(nftc_batch_seq_first(b), 100);
	ck_assert_uint_eq(nftc_batch_seq_next(b), 103);

	ck_assert_uint_eq(batch_msgs(b, m, 4), 3);
	ck_assert_uint_eq(m[0].type, NFNL_MSG_BATCH_BEGIN);
	ck_assert_uint_eq(m[0].seq, 100);
	ck_assert_uint_eq(m[0].res_id, NFNL_SUBSYS_NFTABLES);
	ck_assert_uint_eq(m[1].type,
			  (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWTABLE);
	ck_assert_uint_eq(m[1].seq, 101);
	ck_assert(m[1].flags & NLM_F_CREATE);
	ck_assert(m[1].flags & NLM_F_REQUEST);
	ck_assert_uint_eq(m[2].type, NFNL_MSG_BATCH_END);
	ck_assert_uint_eq(m[2].seq, 102);

	ck_assert(nftc_batch_seq_lookup(b, 101, &l));
	ck_assert_ptr_eq(l.cmd, &dummy);
	ck_assert(!nftc_batch_seq_lookup(b, 100, &l));
	ck_assert(!nftc_batch_seq_lookup(b, 102, &l));
	/* closed: nothing more goes in */
	ck_assert_int_ne(nftc_batch_end(b), 0);
	nftc_batch_free(b);
}
END_TEST

START_TEST(test_batch_large)
{
	struct nftc_batch *b = nftc_batch_alloc(1);
	const unsigned int n = 100000;
	struct nftc_seq_loc l;
	struct msg_seen last;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct nftnl_rule *r = nftnl_rule_alloc();
		struct nftnl_expr *e = nftnl_expr_alloc("counter");

		nftnl_rule_set_str(r, NFTNL_RULE_TABLE, "t");
		nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, "c");
		nftnl_rule_add_expr(r, e);
		ck_assert_int_eq(batch_add_rule(b, NFT_MSG_NEWRULE,
						NLM_F_CREATE | NLM_F_APPEND,
						NFPROTO_IPV4, r), 0);
		nftnl_rule_free(r);
	}
	ck_assert_int_eq(nftc_batch_end(b), 0);
	ck_assert_uint_gt(nftc_batch_chunks(b), 1);
	ck_assert_uint_eq(batch_msgs(b, &last, 1), n + 2);
	ck_assert_uint_eq(nftc_batch_seq_next(b), n + 3);
	ck_assert(nftc_batch_seq_lookup(b, n + 1, &l));
	ck_assert(!nftc_batch_seq_lookup(b, n + 2, &l));
	nftc_batch_free(b);
}
END_TEST

static Suite *stmt_suite(void)
{
	Suite *s = suite_create("stmt");
	TCase *tc = tcase_create("linearize");

	tcase_add_test(tc, test_counter_log_limit_quota);
	tcase_add_test(tc, test_reject_queue_misc);
	tcase_add_test(tc, test_verdicts);
	tcase_add_test(tc, test_meta_ct_set);
	tcase_add_test(tc, test_nat);
	suite_add_tcase(s, tc);

	tc = tcase_create("batch");
	tcase_add_test(tc, test_batch_framing);
	tcase_add_test(tc, test_batch_large);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stmt_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
