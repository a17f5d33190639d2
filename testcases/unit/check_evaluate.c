/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of expression evaluation and linearization (nftc/evaluate.c,
 * eval_expr.c, lin_expr.c): protocol dependencies per family, conflicts,
 * byte order, bitfields, prefixes, flag tests and constant folding. The
 * expected VM code is what stock nft 1.0.6 prints with --debug=netlink.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>

#include "lin_int.h"
#include "evaluate.h"
#include "keys.h"
#include "stmt.h"
#include "rule.h"

struct fixture {
	struct nftc_ctx		*nft;
	struct list_head	cmds;
	struct rule		*rule;
	uint32_t		family;
};

static struct handle mk_handle(uint32_t family, const char *chain)
{
	struct handle h;

	memset(&h, 0, sizeof(h));
	h.family = family;
	h.table.name = (char *)"t";
	h.chain.name = (char *)chain;
	return h;
}

/* "table FAMILY t { chain c { } }" plus one empty rule to fill. */
static void fx_init(struct fixture *fx, uint32_t family)
{
	struct handle h = mk_handle(family, NULL), hc = mk_handle(family, "c");
	struct table *t = table_alloc();
	struct chain *c = chain_alloc();
	struct cmd *cmd;

	fx->nft = nftc_ctx_alloc();
	fx->family = family;
	init_list_head(&fx->cmds);
	cmd = cmd_alloc(CMD_ADD, CMD_OBJ_TABLE, &h, NULL, t);
	list_add_tail(&cmd->list, &fx->cmds);
	handle_merge(&c->handle, &hc);
	list_add_tail(&c->list, &t->chains);
	fx->rule = rule_alloc(NULL, &hc);
	cmd = cmd_alloc(CMD_ADD, CMD_OBJ_RULE, &hc, NULL, fx->rule);
	list_add_tail(&cmd->list, &fx->cmds);
}

static void fx_fini(struct fixture *fx)
{
	cmd_list_free(&fx->cmds);
	nftc_ctx_free(fx->nft);
}

static void fx_match(struct fixture *fx, struct expr *rel)
{
	struct stmt *s = expr_stmt_alloc(NULL, rel);

	list_add_tail(&s->list, &fx->rule->stmts);
	fx->rule->num_stmts++;
}

/* Evaluate, then linearize the rule's matches; the text of its body. */
static char *fx_run(struct fixture *fx)
{
	struct lin_ctx ctx;
	struct stmt *s;
	char *buf, *body;

	ck_assert_int_eq(nftc_evaluate(fx->nft, &fx->cmds), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.nft = fx->nft;
	ctx.nlr = nftnl_rule_alloc();
	ctx.family = fx->family;
	list_for_each_entry(s, &fx->rule->stmts, list) {
		ck_assert_int_eq(s->kind, STMT_EXPRESSION);
		lin_relational(&ctx, s->expr);
		ck_assert_uint_eq(ctx.reg_low <= 1, 1);
	}
	buf = calloc(1, 4096);
	nftnl_rule_snprintf(buf, 4096, ctx.nlr, NFTNL_OUTPUT_DEFAULT, 0);
	nftnl_rule_free(ctx.nlr);
	body = strchr(buf, '\n');
	body = strdup(body ? body + 1 : buf);
	free(buf);
	return body;
}

static void fx_expect(struct fixture *fx, const char *want)
{
	char *got = fx_run(fx);

	ck_assert_str_eq(got, want);
	free(got);
	fx_fini(fx);
}

static struct expr *sym(const char *s)
{
	return symbol_expr_alloc(NULL, SYMBOL_VALUE, s);
}

static struct expr *field(const struct proto_desc *d, const char *name)
{
	return payload_expr_alloc(NULL, d, proto_field_lookup(d, name));
}

static struct expr *meta(const char *key)
{
	return meta_expr_alloc(NULL, meta_key_lookup(key));
}

static struct expr *match(enum ops op, struct expr *l, struct expr *r)
{
	return relational_expr_alloc(NULL, op, l, r);
}

#define L4_TCP \
	"  [ meta load l4proto => reg 1 ]\n" \
	"  [ cmp eq reg 1 0x00000006 ]\n"
#define TCP_DPORT_22 \
	"  [ payload load 2b @ transport header + 2 => reg 1 ]\n" \
	"  [ cmp eq reg 1 0x00001600 ]\n"

START_TEST(test_dep_tcp_all_families)
{
	static const uint32_t fams[] = {
		NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_INET, NFPROTO_BRIDGE,
		NFPROTO_NETDEV,
	};
	struct fixture fx;
	unsigned int i;

	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		fx_init(&fx, fams[i]);
		fx_match(&fx, match(OP_IMPLICIT, field(&proto_tcp, "dport"),
				    sym("22")));
		fx_expect(&fx, L4_TCP TCP_DPORT_22);
	}
}
END_TEST

START_TEST(test_dep_network)
{
	static const char saddr[] =
		"  [ payload load 4b @ network header + 12 => reg 1 ]\n"
		"  [ cmp eq reg 1 0x01010101 ]\n";
	struct fixture fx;
	char want[512];

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "saddr"),
			    sym("1.1.1.1")));
	fx_expect(&fx, saddr);

	fx_init(&fx, NFPROTO_INET);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "saddr"),
			    sym("1.1.1.1")));
	snprintf(want, sizeof(want), "%s%s",
		 "  [ meta load nfproto => reg 1 ]\n"
		 "  [ cmp eq reg 1 0x00000002 ]\n", saddr);
	fx_expect(&fx, want);

	/* bridge prefers skb->protocol (matches vlan offloaded traffic) */
	fx_init(&fx, NFPROTO_BRIDGE);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "saddr"),
			    sym("1.1.1.1")));
	snprintf(want, sizeof(want), "%s%s",
		 "  [ meta load protocol => reg 1 ]\n"
		 "  [ cmp eq reg 1 0x00000008 ]\n", saddr);
	fx_expect(&fx, want);

	/* an explicit protocol match is the dependency */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "protocol"),
			    sym("tcp")));
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_tcp, "dport"),
			    sym("22")));
	fx_expect(&fx, "  [ payload load 1b @ network header + 9 => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x00000006 ]\n" TCP_DPORT_22);
}
END_TEST

START_TEST(test_conflict)
{
	static char text[] = "add rule ip t c tcp dport 22 udp dport 53\n";
	struct input_desc in = {
		.kind = INPUT_CMDLINE, .name = (char *)"<cmdline>",
		.data = text, .size = sizeof(text) - 1,
	};
	struct location loc = {
		.indesc = &in, .first_line = 1, .last_line = 1,
		.first_column = 30, .last_column = 38,
	};
	const struct error_record *erec;
	struct expr *udp;
	struct fixture fx;

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_tcp, "dport"),
			    sym("22")));
	udp = field(&proto_udp, "dport");
	udp->location = loc;
	fx_match(&fx, match(OP_IMPLICIT, udp, sym("53")));
	ck_assert_int_eq(nftc_evaluate(fx.nft, &fx.cmds), -1);
	ck_assert_uint_eq(fx.nft->erq.num_errors, 1);
	erec = list_first_entry(&fx.nft->erq.records, struct error_record,
				list);
	ck_assert_str_eq(erec->msg,
			 "conflicting protocols specified: tcp vs. udp");
	ck_assert_uint_eq(erec->loc.first_column, 30);
	ck_assert_uint_eq(erec->loc.last_column, 38);
	fx_fini(&fx);
}
END_TEST

START_TEST(test_byteorder)
{
	struct fixture fx;

	/* host order compare */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, meta("mark"), sym("0x10")));
	fx_expect(&fx, "  [ meta load mark => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x00000010 ]\n");

	/* ranges and ordered compares run on big endian */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, meta("mark"),
			    range_expr_alloc(NULL, sym("1"), sym("10"))));
	fx_expect(&fx, "  [ meta load mark => reg 1 ]\n"
		       "  [ byteorder reg 1 = hton(reg 1, 4, 4) ]\n"
		       "  [ cmp gte reg 1 0x01000000 ]\n"
		       "  [ cmp lte reg 1 0x0a000000 ]\n");

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_NEQ, meta("mark"),
			    range_expr_alloc(NULL, sym("1"), sym("10"))));
	fx_expect(&fx, "  [ meta load mark => reg 1 ]\n"
		       "  [ byteorder reg 1 = hton(reg 1, 4, 4) ]\n"
		       "  [ range neq reg 1 0x01000000 0x0a000000 ]\n");

	/* one byte needs no conversion */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_LT, meta("l4proto"), sym("6")));
	fx_expect(&fx, "  [ meta load l4proto => reg 1 ]\n"
		       "  [ cmp lt reg 1 0x00000006 ]\n");
}
END_TEST

START_TEST(test_bits_prefix_flags)
{
	struct fixture fx;

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "dscp"),
			    sym("cs1")));
	fx_expect(&fx, "  [ payload load 1b @ network header + 1 => reg 1 ]\n"
		       "  [ bitwise reg 1 = ( reg 1 & 0x000000fc ) ^ "
		       "0x00000000 ]\n"
		       "  [ cmp eq reg 1 0x00000020 ]\n");

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "saddr"),
			    prefix_expr_alloc(NULL, sym("10.0.0.0"), 8)));
	fx_expect(&fx, "  [ payload load 1b @ network header + 12 => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x0000000a ]\n");

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "saddr"),
			    prefix_expr_alloc(NULL, sym("10.128.0.0"), 9)));
	fx_expect(&fx, "  [ payload load 4b @ network header + 12 => reg 1 ]\n"
		       "  [ bitwise reg 1 = ( reg 1 & 0x000080ff ) ^ "
		       "0x00000000 ]\n"
		       "  [ cmp eq reg 1 0x0000800a ]\n");

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT,
			    ct_expr_alloc(NULL, NFT_CT_STATE, -1),
			    sym("established")));
	fx_expect(&fx, "  [ ct load state => reg 1 ]\n"
		       "  [ bitwise reg 1 = ( reg 1 & 0x00000002 ) ^ "
		       "0x00000000 ]\n"
		       "  [ cmp neq reg 1 0x00000000 ]\n");

	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_NEQ, ct_expr_alloc(NULL, NFT_CT_STATE, -1),
			    sym("established")));
	fx_expect(&fx, "  [ ct load state => reg 1 ]\n"
		       "  [ cmp neq reg 1 0x00000002 ]\n");
}
END_TEST

START_TEST(test_constant_folding)
{
	struct fixture fx;
	struct expr *mask;

	/* meta mark & (0xf0 | 0x0f) == 1: the right side folds to 0xff */
	mask = binop_expr_alloc(NULL, OP_OR, sym("0xf0"), sym("0x0f"));
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_EQ, binop_expr_alloc(NULL, OP_AND, meta("mark"),
						    mask), sym("1")));
	fx_expect(&fx, "  [ meta load mark => reg 1 ]\n"
		       "  [ bitwise reg 1 = ( reg 1 & 0x000000ff ) ^ "
		       "0x00000000 ]\n"
		       "  [ cmp eq reg 1 0x00000001 ]\n");
}
END_TEST

START_TEST(test_concat_registers)
{
	struct expr *l = list_expr_alloc(NULL, EXPR_CONCAT);
	struct expr *r = list_expr_alloc(NULL, EXPR_CONCAT);
	struct expr *set = list_expr_alloc(NULL, EXPR_SET);
	struct fixture fx;

	/* meta mark . ip saddr { 1 . 1.1.1.1 }: members in reg 1, reg 9 */
	list_expr_add(l, meta("mark"));
	list_expr_add(l, field(&proto_ip, "saddr"));
	list_expr_add(r, sym("1"));
	list_expr_add(r, sym("1.1.1.1"));
	list_expr_add(set, set_elem_expr_alloc(NULL, r));
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, l, set));
	fx_expect(&fx, "  [ meta load mark => reg 1 ]\n"
		       "  [ payload load 4b @ network header + 12 => reg 9 ]\n"
		       "  [ lookup reg 1 set __set%d ]\n");
}
END_TEST

START_TEST(test_payload_merge)
{
	struct fixture fx;

	/* adjacent equality matches become one load, as stock nft */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "ttl"), sym("1")));
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "protocol"),
			    sym("6")));
	fx_expect(&fx, "  [ payload load 2b @ network header + 8 => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x00000601 ]\n");

	/* whole 32-bit words stay separate */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "saddr"),
			    sym("1.1.1.1")));
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_ip, "daddr"),
			    sym("2.2.2.2")));
	fx_expect(&fx, "  [ payload load 4b @ network header + 12 => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x01010101 ]\n"
		       "  [ payload load 4b @ network header + 16 => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x02020202 ]\n");
}
END_TEST

START_TEST(test_vlan_and_iiftype)
{
	struct fixture fx;

	/* ip table: link layer needs meta iiftype, vlan needs ether type */
	fx_init(&fx, NFPROTO_IPV4);
	fx_match(&fx, match(OP_IMPLICIT, field(&proto_vlan, "id"), sym("1")));
	fx_expect(&fx, "  [ meta load iiftype => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x00000001 ]\n"
		       "  [ payload load 2b @ link header + 12 => reg 1 ]\n"
		       "  [ cmp eq reg 1 0x00000081 ]\n"
		       "  [ payload load 2b @ link header + 14 => reg 1 ]\n"
		       "  [ bitwise reg 1 = ( reg 1 & 0x0000ff0f ) ^ "
		       "0x00000000 ]\n"
		       "  [ cmp eq reg 1 0x00000100 ]\n");
}
END_TEST

START_TEST(test_terminal_statement)
{
	struct fixture fx;
	struct stmt *v;

	fx_init(&fx, NFPROTO_IPV4);
	v = verdict_stmt_alloc(NULL, verdict_expr_alloc(NULL, NF_ACCEPT,
							NULL));
	list_add_tail(&v->list, &fx.rule->stmts);
	fx_match(&fx, match(OP_IMPLICIT, meta("mark"), sym("1")));
	ck_assert_int_eq(nftc_evaluate(fx.nft, &fx.cmds), -1);
	ck_assert_uint_eq(fx.nft->erq.num_errors, 1);
	fx_fini(&fx);
}
END_TEST

static Suite *evaluate_suite(void)
{
	Suite *s = suite_create("evaluate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_dep_tcp_all_families);
	tcase_add_test(tc, test_dep_network);
	tcase_add_test(tc, test_conflict);
	tcase_add_test(tc, test_byteorder);
	tcase_add_test(tc, test_bits_prefix_flags);
	tcase_add_test(tc, test_constant_folding);
	tcase_add_test(tc, test_concat_registers);
	tcase_add_test(tc, test_payload_merge);
	tcase_add_test(tc, test_vlan_and_iiftype);
	tcase_add_test(tc, test_terminal_statement);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(evaluate_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
