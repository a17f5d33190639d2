/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the IR printer (nftc/printer.c, print_expr.c,
 * print_stmt.c, print_undo.c). Expected text is what stock nft 1.0.6
 * lists for the same ruleset ("nft list ruleset" in a private network
 * namespace).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_log.h>
#include <linux/netfilter/nf_nat.h>

#include "nftc.h"
#include "printer.h"

/* ------------------------------------------------------------ helpers */

struct out {
	char			*buf;
	size_t			len;
	struct output_ctx	octx;
};

static void out_open(struct out *o, unsigned int flags)
{
	memset(o, 0, sizeof(*o));
	o->octx.f = open_memstream(&o->buf, &o->len);
	o->octx.flags = flags;
	ck_assert_ptr_nonnull(o->octx.f);
}

static char *out_close(struct out *o)
{
	fclose(o->octx.f);
	return o->buf;
}

static void expect_stmt(struct stmt *s, unsigned int flags, const char *want)
{
	struct out o;
	char *got;

	out_open(&o, flags);
	nftc_print_stmt(&o.octx, s);
	got = out_close(&o);
	ck_assert_str_eq(got, want);
	free(got);
	stmt_free(s);
}

static void expect_expr(struct expr *e, const char *want)
{
	struct out o;
	char *got;

	out_open(&o, 0);
	nftc_print_expr(&o.octx, e);
	got = out_close(&o);
	ck_assert_str_eq(got, want);
	free(got);
	expr_free(e);
}

static struct expr *u64c(const struct datatype *dt, unsigned int len,
			 uint64_t n)
{
	return constant_expr_u64(&internal_location, dt, dt->byteorder ?
				 dt->byteorder : BYTEORDER_HOST, len, n);
}

static struct expr *sym(const char *s)
{
	return symbol_expr_alloc(&internal_location, SYMBOL_VALUE, s);
}

/*
 * Parse and evaluate @text (nft syntax) and print it: every rule on its
 * own line, or with @ruleset the tables as "list ruleset" would.
 */
static char *compile_print(const char *text, unsigned int flags)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct nftc_ctx *ctx = nftc_ctx_alloc();
	const struct cmd *cmd;
	struct out o;
	int ret;

	ck_assert_ptr_nonnull(ctx);
	ret = nftc_parse_buffer(ctx, text, &cmds);
	if (ret == 0)
		ret = nftc_evaluate(ctx, &cmds);
	if (ret < 0)
		erec_queue_format(stderr, &ctx->erq);
	ck_assert_int_eq(ret, 0);
	out_open(&o, flags);
	list_for_each_entry(cmd, &cmds, list) {
		if (cmd->obj != CMD_OBJ_RULE || !cmd->rule)
			continue;
		nftc_print_rule(&o.octx, cmd->rule);
		fputc('\n', o.octx.f);
	}
	cmd_list_free(&cmds);
	nftc_ctx_free(ctx);
	return out_close(&o);
}

/* @rules: "\n"-separated rules of one chain in a table of @family. */
static void expect_rules(const char *family, const char *rules,
			 const char *want)
{
	char *text, *got;

	ck_assert_int_ge(asprintf(&text, "table %s t {\n\tchain c {\n%s\n"
				  "\t}\n}\n", family, rules), 0);
	got = compile_print(text, 0);
	ck_assert_str_eq(got, want);
	free(got);
	free(text);
}

/* --------------------------------------------------------- statements */

START_TEST(test_stateful)
{
	struct stmt *s;

	s = stmt_alloc(&internal_location, STMT_COUNTER);
	s->counter.packets = 5;
	s->counter.bytes = 10;
	expect_stmt(s, 0, "counter packets 5 bytes 10");
	s = stmt_alloc(&internal_location, STMT_COUNTER);
	expect_stmt(s, NFTC_OUTPUT_STATELESS, "counter");

	s = stmt_alloc(&internal_location, STMT_LIMIT);
	s->limit.rate = 10;
	s->limit.unit = 1;
	s->limit.burst = 5;
	s->limit.type = NFT_LIMIT_PKTS;
	expect_stmt(s, 0, "limit rate 10/second");
	s = stmt_alloc(&internal_location, STMT_LIMIT);
	s->limit.rate = 10 * 1024;
	s->limit.unit = 1;
	s->limit.burst = 20 * 1024;
	s->limit.type = NFT_LIMIT_PKT_BYTES;
	s->limit.flags = NFT_LIMIT_F_INV;
	expect_stmt(s, 0, "limit rate over 10 kbytes/second burst 20 kbytes");

	s = stmt_alloc(&internal_location, STMT_QUOTA);
	s->quota.bytes = 10 * 1024 * 1024;
	s->quota.used = 1024 * 1024;
	s->quota.flags = NFT_QUOTA_F_INV;
	expect_stmt(s, 0, "quota over 10 mbytes used 1 mbytes");

	s = stmt_alloc(&internal_location, STMT_CONNLIMIT);
	s->connlimit.count = 3;
	s->connlimit.flags = NFT_CONNLIMIT_F_INV;
	expect_stmt(s, 0, "ct count over 3");

	s = stmt_alloc(&internal_location, STMT_LAST);
	expect_stmt(s, 0, "last used never");
}
END_TEST

START_TEST(test_log_reject_nat)
{
	struct stmt *s;

	s = stmt_alloc(&internal_location, STMT_LOG);
	s->log.prefix = strdup("x ");
	s->log.level = 4;
	s->log.logflags = NF_LOG_MASK;
	s->log.flags = STMT_LOG_PREFIX | STMT_LOG_LEVEL;
	expect_stmt(s, 0, "log prefix \"x \" flags all");
	s = stmt_alloc(&internal_location, STMT_LOG);
	s->log.group = 2;
	s->log.snaplen = 100;
	s->log.qthreshold = 5;
	s->log.level = 7;
	s->log.logflags = NF_LOG_TCPSEQ | NF_LOG_TCPOPT;
	s->log.flags = STMT_LOG_GROUP | STMT_LOG_SNAPLEN |
		       STMT_LOG_QTHRESHOLD | STMT_LOG_LEVEL;
	expect_stmt(s, 0, "log group 2 snaplen 100 queue-threshold 5 "
		    "level debug flags tcp sequence,options");

	s = stmt_alloc(&internal_location, STMT_REJECT);
	s->reject.type = NFT_REJECT_TCP_RST;
	expect_stmt(s, 0, "reject with tcp reset");

	s = stmt_alloc(&internal_location, STMT_NAT);
	s->nat.kind = NAT_DNAT;
	s->nat.family = NFPROTO_IPV4;
	s->nat.addr = range_expr_alloc(&internal_location,
				       u64c(&ipaddr_type, 32, 0x0a000001),
				       u64c(&ipaddr_type, 32, 0x0a000005));
	s->nat.proto = range_expr_alloc(&internal_location,
					u64c(&inet_service_type, 16, 8080),
					u64c(&inet_service_type, 16, 8090));
	s->nat.flags = NF_NAT_RANGE_PERSISTENT | NF_NAT_RANGE_PROTO_RANDOM;
	expect_stmt(s, 0, "dnat ip to 10.0.0.1-10.0.0.5:8080-8090 "
		    "random,persistent");

	s = stmt_alloc(&internal_location, STMT_NAT);
	s->nat.kind = NAT_MASQ;
	expect_stmt(s, 0, "masquerade");
	s = stmt_alloc(&internal_location, STMT_NAT);
	s->nat.kind = NAT_REDIR;
	s->nat.proto = u64c(&inet_service_type, 16, 8080);
	expect_stmt(s, 0, "redirect to :8080");
}
END_TEST

START_TEST(test_exprs)
{
	struct expr *l;

	expect_expr(sym("foo"), "foo");
	expect_expr(prefix_expr_alloc(&internal_location,
				      u64c(&ipaddr_type, 32, 0x0a000000), 8),
		    "10.0.0.0/8");
	l = list_expr_alloc(&internal_location, EXPR_CONCAT);
	list_expr_add(l, u64c(&ipaddr_type, 32, 0x01010101));
	list_expr_add(l, u64c(&inet_service_type, 16, 22));
	expect_expr(l, "1.1.1.1 . 22");
	expect_expr(verdict_expr_alloc(&internal_location, NFT_JUMP,
				       sym("c2")), "jump c2");
	expect_expr(meta_expr_alloc(&internal_location, NFT_META_IIFNAME),
		    "iifname");
	expect_expr(meta_expr_alloc(&internal_location, NFT_META_MARK),
		    "meta mark");
	expect_expr(relational_expr_alloc(&internal_location, OP_NEQ,
				payload_expr_alloc(&internal_location,
						   &proto_tcp, 2),
				u64c(&inet_service_type, 16, 22)),
		    "tcp dport != 22");
	/* binop precedence as stock */
	expect_expr(binop_expr_alloc(&internal_location, OP_AND,
			binop_expr_alloc(&internal_location, OP_OR,
				meta_expr_alloc(&internal_location,
						NFT_META_MARK),
				u64c(&mark_type, 32, 1)),
			u64c(&mark_type, 32, 0xff)),
		    "(meta mark | 0x00000001) & 0x000000ff");
}
END_TEST

/* ------------------------------------------------------- round trips */

START_TEST(test_rules_ip)
{
	expect_rules("ip",
		"tcp dport { 22, 80, 443 } counter accept comment \"web\"\n"
		"ip saddr 10.0.0.0/8 ip daddr != 192.168.0.0/16 drop\n"
		"ip dscp cs1 ip hdrlength 5\n"
		"tcp flags & (syn|fin) == syn|fin\n"
		"ct state established,related accept\n"
		"ip ttl 1-10 meta mark set 0x10\n"
		"tcp sport 1024 tcp dport 22\n"
		"ip saddr vmap { 1.1.1.1 : drop, 2.2.2.2 : accept }\n"
		"ip saddr { 1.1.1.0/24, 2.2.2.2 }\n"
		"iifname \"eth*\" oifname != \"lo\"\n"
		"ip ttl set 23\n"
		"limit rate 400/minute burst 10 packets\n"
		"reject",
		"tcp dport { 22, 80, 443 } counter packets 0 bytes 0 accept "
		"comment \"web\"\n"
		"ip saddr 10.0.0.0/8 ip daddr != 192.168.0.0/16 drop\n"
		"ip dscp cs1 ip hdrlength 5\n"
		"tcp flags fin,syn / fin,syn\n"
		"ct state established,related accept\n"
		"ip ttl 1-10 meta mark set 0x00000010\n"
		"tcp sport 1024 tcp dport 22\n"
		"ip saddr vmap { 1.1.1.1 : drop, 2.2.2.2 : accept }\n"
		"ip saddr { 1.1.1.0/24, 2.2.2.2 }\n"
		"iifname \"eth*\" oifname != \"lo\"\n"
		"ip ttl set 23\n"
		"limit rate 400/minute burst 10 packets\n"
		"reject\n");
}
END_TEST

START_TEST(test_rules_inet)
{
	expect_rules("inet",
		"tcp dport 22 accept\n"
		"meta nfproto ipv4 icmp type echo-request\n"
		"reject with icmp port-unreachable\n"
		"meta l4proto tcp dnat ip to 10.0.0.1:80",
		"tcp dport 22 accept\n"
		"icmp type echo-request\n"
		"reject with icmp port-unreachable\n"
		"meta l4proto tcp dnat ip to 10.0.0.1:80\n");
}
END_TEST

/* A whole table as "nft list ruleset" lists it. */
START_TEST(test_table_layout)
{
	struct table *t = table_alloc();
	struct chain *c = chain_alloc();
	struct set *s = set_alloc(&internal_location);
	struct rule *r;
	struct expr *elems;
	struct handle h = { .family = NFPROTO_INET };
	struct out o;
	char *got;
	int i;

	t->handle.family = NFPROTO_INET;
	t->handle.table.name = strdup("t");
	c->handle.family = NFPROTO_INET;
	c->handle.chain.name = strdup("c1");
	c->is_base = true;
	c->type.name = strdup("filter");
	c->hooknum = NF_INET_LOCAL_IN;
	c->prio = 5;
	c->policy = sym("drop");
	c->comment = strdup("chain comment");
	r = rule_alloc(&internal_location, &h);
	list_add_tail(&verdict_stmt_alloc(&internal_location,
			verdict_expr_alloc(&internal_location, NF_ACCEPT,
					   NULL))->list, &r->stmts);
	list_add_tail(&r->list, &c->rules);
	list_add_tail(&c->list, &t->chains);

	s->handle.set.name = strdup("big");
	s->key = u64c(&inet_service_type, 16, 0);
	elems = list_expr_alloc(&internal_location, EXPR_SET);
	for (i = 1; i <= 7; i++)
		list_expr_add(elems, set_elem_expr_alloc(&internal_location,
				u64c(&inet_service_type, 16, i)));
	s->init = elems;
	s->size = 100;
	s->flags = SET_F_TIMEOUT;
	s->timeout = 10000;
	list_add_tail(&s->list, &t->sets);

	out_open(&o, 0);
	nftc_print_table(&o.octx, t);
	got = out_close(&o);
	ck_assert_str_eq(got,
		"table inet t {\n"
		"\tset big {\n"
		"\t\ttype inet_service\n"
		"\t\tsize 100\n"
		"\t\tflags timeout\n"
		"\t\ttimeout 10s\n"
		"\t\telements = { 1, 2, 3, 4, 5,\n"
		"\t\t\t     6, 7 }\n"
		"\t}\n"
		"\n"
		"\tchain c1 {\n"
		"\t\tcomment \"chain comment\"\n"
		"\t\ttype filter hook input priority filter + 5; "
		"policy drop;\n"
		"\t\taccept\n"
		"\t}\n"
		"}\n");
	free(got);
	table_free(t);
}
END_TEST

static Suite *printer_suite(void)
{
	Suite *s = suite_create("printer");
	TCase *tc = tcase_create("printer");

	tcase_add_test(tc, test_stateful);
	tcase_add_test(tc, test_log_reject_nat);
	tcase_add_test(tc, test_exprs);
	tcase_add_test(tc, test_rules_ip);
	tcase_add_test(tc, test_rules_inet);
	tcase_add_test(tc, test_table_layout);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(printer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
