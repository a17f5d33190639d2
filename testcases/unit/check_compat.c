/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of libcompat: the iptables-nft table layout and the
 * reverse map. A rule written in nft syntax is compiled into a batch,
 * read back as the kernel stores it (nftc_ruleset_from_batch), and
 * printed with compat_rule_save(); the expected text is the
 * iptables-save line of the iptables rule iptables-translate turns
 * into that nft rule (iptables 1.8.9 semantics), written by hand.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter/xt_conntrack.h>
#include <linux/netfilter/xt_state.h>
#include <linux/netfilter/xt_LOG.h>
#include <linux/netfilter/xt_multiport.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/rule.h>

#include "nftc.h"
#include "linearize.h"
#include "listing.h"
#include "check_compile.h"
#include "compat.h"
#include "rule.h"
#include "batch_edit.h"

START_TEST(test_layout)
{
	const struct compat_table *t;
	const struct compat_chain *c;
	unsigned int n;

	ck_assert_ptr_nonnull(compat_tables(NFPROTO_IPV4, &n));
	ck_assert_uint_eq(n, 5);
	ck_assert_ptr_null(compat_tables(NFPROTO_ARP, &n));
	t = compat_table_find(NFPROTO_IPV6, "nat");
	ck_assert_ptr_nonnull(t);
	c = compat_chain_find(t, "POSTROUTING");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->prio, 100);
	ck_assert_str_eq(c->type, "nat");
	ck_assert_ptr_eq(compat_chain_by_hook(t, NF_INET_PRE_ROUTING, -100,
					      "nat"), &t->chains[0]);
	t = compat_table_find(NFPROTO_IPV4, "mangle");
	c = compat_chain_find(t, "OUTPUT");
	ck_assert_str_eq(c->type, "route");
	ck_assert_int_eq(c->prio, -150);
	t = compat_table_find(NFPROTO_IPV4, "security");
	ck_assert_int_eq(compat_chain_find(t, "INPUT")->prio, 150);
	ck_assert_ptr_null(compat_chain_find(t, "PREROUTING"));
	ck_assert_ptr_null(compat_table_find(NFPROTO_IPV4, "broute"));
	/* iptables-nft-save order: mangle security raw filter nat */
	ck_assert_uint_lt(compat_table_find(NFPROTO_IPV4, "mangle")->save_rank,
			  compat_table_find(NFPROTO_IPV4, "raw")->save_rank);
	ck_assert_uint_lt(compat_table_find(NFPROTO_IPV4, "filter")->save_rank,
			  compat_table_find(NFPROTO_IPV4, "nat")->save_rank);
}
END_TEST

/* Compile "table FAM T { chain C { RULE } }" and save its one rule. */
static char *save_one(uint8_t family, const char *rule, int *ret)
{
	struct ck_compiled cc;
	struct nftc_ruleset rs;
	struct table *t;
	struct chain *c;
	char *text, *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_ge(asprintf(&text, "table %s filter { chain Y { }; chain X { %s; }; }",
				  family == NFPROTO_IPV6 ? "ip6" : "ip", rule),
			 0);
	ck_compile(&cc, text);
	ck_assert_int_eq(nftc_ruleset_from_batch(&rs, cc.batch), 0);
	f = open_memstream(&buf, &len);
	*ret = 1;
	list_for_each_entry(t, &rs.tables, list)
		list_for_each_entry(c, &t->chains, list) {
			struct rule *r;

			list_for_each_entry(r, &c->rules, list)
				*ret = compat_rule_save(f, family, "X", r,
							false);
		}
	fclose(f);
	nftc_ruleset_free(&rs);
	ck_compiled_free(&cc);
	free(text);
	return buf;
}

static const struct {
	uint8_t		family;
	const char	*nft;
	const char	*ipt;
	int		ret;
} cases[] = {
	{ NFPROTO_IPV4, "iifname \"lo\" counter accept", "-A X -i lo -j ACCEPT\n" },
	{ NFPROTO_IPV4, "oifname \"eth*\" ip saddr != 10.0.0.0/8 drop",
	  "-A X ! -s 10.0.0.0/8 -o eth+ -j DROP\n" },
	{ NFPROTO_IPV4, "ip daddr 192.0.2.1 ip protocol tcp tcp dport 22 accept",
	  "-A X -d 192.0.2.1/32 -p tcp -m tcp --dport 22 -j ACCEPT\n" },
	{ NFPROTO_IPV4, "meta l4proto udp udp sport 1000-2000 return",
	  "-A X -p udp -m udp --sport 1000:2000 -j RETURN\n" },
	{ NFPROTO_IPV4, "tcp dport { 80, 443 } accept",
	  "-A X -p tcp -m multiport --dports 80,443 -j ACCEPT\n" },
	{ NFPROTO_IPV4, "ct state established,related accept",
	  "-A X -m state --state RELATED,ESTABLISHED -j ACCEPT\n" },
	{ NFPROTO_IPV4, "limit rate 3/minute burst 7 packets log prefix \"in \"",
	  "-A X -m limit --limit 3/min --limit-burst 7 -j LOG --log-prefix \"in \"\n" },
	{ NFPROTO_IPV4, "meta l4proto tcp reject with tcp reset",
	  "-A X -p tcp -j REJECT --reject-with tcp-reset\n" },
	{ NFPROTO_IPV4, "reject with icmp type host-prohibited",
	  "-A X -j REJECT --reject-with icmp-host-prohibited\n" },
	{ NFPROTO_IPV4, "counter jump Y comment \"a b\"",
	  "-A X -m comment --comment \"a b\" -j Y\n" },
	{ NFPROTO_IPV6, "ip6 saddr 2001:db8::/32 goto Y",
	  "-A X -s 2001:db8::/32 -g Y\n" },
	{ NFPROTO_IPV4, "meta mark 0x1 counter", "-A X -m mark --mark 0x1\n" },
	/* no iptables form: flagged, never silently dropped */
	{ NFPROTO_IPV4, "tcp dport 80 tcp flags syn / fin,syn,rst,ack drop",
	  "-A X -p tcp -m tcp --dport 80 --tcp-flags FIN,SYN,RST,ACK SYN -j DROP\n" },
	{ NFPROTO_IPV4, "ip frag-off & 0x1fff != 0 drop", "-A X -f -j DROP\n" },
	{ NFPROTO_IPV4, "meta skuid 3 meta skgid != 4 return",
	  "-A X -m owner --uid-owner 3 ! --gid-owner 4 -j RETURN\n" },
	{ NFPROTO_IPV4, "ip saddr 10.0.0.1-10.0.0.9 accept",
	  "-A X -m iprange --src-range 10.0.0.1-10.0.0.9 -j ACCEPT\n" },
	{ NFPROTO_IPV4, "icmp type echo-request accept",
	  "-A X -p icmp -m icmp --icmp-type 8 -j ACCEPT\n" },
	{ NFPROTO_IPV4, "log prefix \"x\" flags tcp options flags ip options",
	  "-A X -j LOG --log-prefix x --log-tcp-options --log-ip-options\n" },
	{ NFPROTO_IPV4, "meta mark set 0x63", "-A X -j MARK --set-xmark 0x63/0xffffffff\n" },
	/* CONNMARK and -m conntrack options (iptables-translate's forms,
	 * the xmark as the kernel computes it) */
	{ NFPROTO_IPV4, "ct mark set ct mark & 0xffff00ff ^ 0xa00",
	  "-A X -j CONNMARK --set-xmark 0xa00/0xff00\n" },
	{ NFPROTO_IPV4, "ct mark set ct mark | 0x1",
	  "-A X -j CONNMARK --set-xmark 0x1/0x1\n" },
	{ NFPROTO_IPV4, "meta mark set ct mark",
	  "-A X -j CONNMARK --restore-mark --nfmask 0xffffffff --ctmask 0xffffffff\n" },
	{ NFPROTO_IPV4, "ct mark set meta mark",
	  "-A X -j CONNMARK --save-mark --nfmask 0xffffffff --ctmask 0xffffffff\n" },
	{ NFPROTO_IPV4, "ct mark & 0xff00 == 0x100 accept",
	  "-A X -m connmark --mark 0x100/0xff00 -j ACCEPT\n" },
	{ NFPROTO_IPV4, "ct state new ct protocol udp ct original proto-dst 53 accept",
	  "-A X -m conntrack --ctstate NEW --ctproto 17 --ctorigdstport 53 -j ACCEPT\n" },
	{ NFPROTO_IPV4, "ct expiration 10s-20s ct direction reply",
	  "-A X -m conntrack --ctexpire 10:20 --ctdir REPLY\n" },
	/* no iptables form: flagged, never silently dropped */
	{ NFPROTO_IPV4, "ip length 100 accept", NULL, -EOPNOTSUPP },
};

START_TEST(test_revmap)
{
	unsigned int i, fails = 0;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = save_one(cases[i].family, cases[i].nft, &ret);

		if (ret != cases[i].ret ||
		    (cases[i].ipt && strcmp(got, cases[i].ipt)) ||
		    (!cases[i].ipt && strncmp(got, "# unsupported", 13))) {
			fprintf(stderr, "revmap %s\n  want: %s  got:  %s",
				cases[i].nft, cases[i].ipt ? cases[i].ipt :
				"# unsupported\n", got);
			fails++;
		}
		free(got);
	}
	ck_assert_uint_eq(fails, 0);
}
END_TEST

/* Evaluate "table ip filter { chain X { RULE; } }", return its rule. */
static struct rule *eval_one(struct nftc_ctx *ctx, struct list_head *cmds,
			     const char *rule)
{
	struct cmd *cmd;
	char *text;

	ck_assert_int_ge(asprintf(&text, "table ip filter { chain X { %s; }; }",
				  rule), 0);
	ck_assert_int_eq(nftc_parse_buffer(ctx, text, cmds), 0);
	free(text);
	ck_assert_int_eq(nftc_evaluate(ctx, cmds), 0);
	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj == CMD_OBJ_RULE)
			return cmd->rule;
	}
	ck_abort_msg("no rule");
	return NULL;
}

START_TEST(test_xt_fallback)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct compat_xt_list l = { 0 };
	const struct xt_conntrack_mtinfo3 *ct;
	const struct xt_log_info *li;
	const struct xt_multiport_v1 *mp;
	struct nftc_ctx *ctx = nftc_ctx_alloc();
	struct rule *r;

	ctx->resolver = &nftc_resolver_builtin;
	r = eval_one(ctx, &cmds, "meta l4proto tcp tcp dport { 22, 80-89 } "
		     "ct state established,related counter "
		     "log prefix \"in \" level warn");
	ck_assert_int_eq(compat_xt_fallback(NFPROTO_IPV4, r, 0, &l), 0);
	ck_assert_uint_eq(l.n, 3);
	/* multiport revision 1: dports 22 and the range 80:89 */
	ck_assert(!l.v[0].target);
	ck_assert_str_eq(l.v[0].name, "multiport");
	ck_assert_uint_eq(l.v[0].rev, 1);
	mp = l.v[0].data;
	ck_assert_uint_eq(mp->flags, XT_MULTIPORT_DESTINATION);
	ck_assert_uint_eq(mp->count, 3);
	ck_assert_uint_eq(mp->ports[0], 22);
	ck_assert_uint_eq(mp->ports[1], 80);
	ck_assert_uint_eq(mp->pflags[1], 1);
	ck_assert_uint_eq(mp->ports[2], 89);
	/* after "meta l4proto tcp": one native match before it */
	ck_assert_uint_eq(l.v[0].at, 1);
	/* -m state: conntrack revision 3 with the state alias */
	ck_assert_str_eq(l.v[1].name, "conntrack");
	ck_assert_uint_eq(l.v[1].rev, 3);
	ct = l.v[1].data;
	ck_assert_uint_eq(ct->state_mask, XT_STATE_BIT(IP_CT_ESTABLISHED) |
			  XT_STATE_BIT(IP_CT_RELATED));
	ck_assert_uint_eq(ct->match_flags, XT_CONNTRACK_STATE |
			  XT_CONNTRACK_STATE_ALIAS);
	/* LOG: level warn is 4, the prefix as given */
	ck_assert(l.v[2].target);
	ck_assert_str_eq(l.v[2].name, "LOG");
	li = l.v[2].data;
	ck_assert_uint_eq(li->level, 4);
	ck_assert_str_eq(li->prefix, "in ");
	/* what stays native: l4proto and the counter */
	ck_assert_uint_eq(list_count(&r->stmts), 2);
	compat_xt_list_free(&l);
	cmd_list_free(&cmds);
	nftc_ctx_free(ctx);
}
END_TEST

/*
 * compat_xt_write() against compat_xt_apply(): both forms of a rule
 * with its xt-compat expressions, read by libnftnl and built again by
 * it, must be the same bytes (libnftnl's build puts attributes in one
 * order, so only what they say counts).
 */
static int xt_apply_cb(void *priv, unsigned int idx, struct nftnl_rule *r)
{
	return idx ? 0 : compat_xt_apply(NFPROTO_IPV4, r, priv);
}

static int xt_apply6_cb(void *priv, unsigned int idx, struct nftnl_rule *r)
{
	return idx ? 0 : compat_xt_apply(NFPROTO_IPV6, r, priv);
}

struct xt_write_arg {
	uint8_t				family;
	const struct compat_xt_list	*l;
};

static int xt_write_cb(void *priv, unsigned int idx,
		       const struct nlmsghdr *src, struct nlmsghdr *dst,
		       size_t room)
{
	static const struct compat_xt_list none;
	const struct xt_write_arg *a = priv;

	return compat_xt_write(a->family, src, dst, room, idx ? &none : a->l);
}

/* The NEWRULE messages of @b, each parsed and built again by libnftnl. */
static size_t rules_rebuilt(const struct nftc_batch *b, char *out,
			    size_t cap, unsigned int *nrules)
{
	size_t used = 0, len;
	unsigned int i;

	*nrules = 0;
	for (i = 0; i < nftc_batch_chunks(b); i++) {
		const struct nlmsghdr *nlh = nftc_batch_chunk(b, i, &len);
		int rem = len;

		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			struct nftnl_rule *r;
			struct nlmsghdr *o;

			if ((nlh->nlmsg_type & 0xff) != NFT_MSG_NEWRULE ||
			    nlh->nlmsg_type >> 8 != NFNL_SUBSYS_NFTABLES)
				continue;
			r = nftnl_rule_alloc();
			ck_assert_int_eq(nftnl_rule_nlmsg_parse(nlh, r), 0);
			ck_assert_uint_lt(used + 8192, cap);
			o = nftnl_nlmsg_build_hdr(out + used, NFT_MSG_NEWRULE,
						  NFPROTO_IPV4, 0, 1);
			nftnl_rule_nlmsg_build_payload(o, r);
			used += o->nlmsg_len;
			nftnl_rule_free(r);
			(*nrules)++;
		}
	}
	return used;
}

START_TEST(test_xt_write)
{
	static const struct {
		const char	*family;
		const char	*rule;
		unsigned int	nxt;	/* xt expressions it gets */
	} rules[] = {
		{ "ip", "meta l4proto tcp tcp dport { 22, 80-89 } ct state "
		  "established,related counter log prefix \"in \" level warn",
		  3 },
		{ "ip", "ip saddr 10.0.0.0/8 meta l4proto tcp tcp dport 22 "
		  "counter reject with tcp reset", 1 },
		{ "ip", "meta l4proto icmp icmp type 8 counter accept", 1 },
		{ "ip", "ip protocol != udp ct state new counter drop", 1 },
		{ "ip", "ct state invalid log prefix \"x\"", 2 },
		{ "ip", "counter log accept comment \"a comment\"", 1 },
		{ "ip", "ip daddr 10.1.2.3 iifname \"eth0\" counter accept", 0 },
		{ "ip6", "meta l4proto tcp tcp sport { 1, 2 } counter "
		  "reject with tcp reset", 2 },
	};
	unsigned int i, na, nb;
	static char a[65536], b[65536];

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct list_head cmds = LIST_HEAD_INIT(cmds);
		struct compat_xt_list l = { 0 };
		struct nftc_ctx *ctx = nftc_ctx_alloc();
		struct nftc_batch *seg, *ba, *bb;
		uint8_t family = strcmp(rules[i].family, "ip6") ?
				 NFPROTO_IPV4 : NFPROTO_IPV6;
		struct xt_write_arg arg = { family, &l };
		struct cmd *cmd;
		struct rule *r = NULL;
		char *text;
		size_t la, lb;

		ctx->resolver = &nftc_resolver_builtin;
		ck_assert_int_ge(asprintf(&text, "table %s filter { chain X "
					  "{ %s; }; }", rules[i].family,
					  rules[i].rule), 0);
		ck_assert_int_eq(nftc_parse_buffer(ctx, text, &cmds), 0);
		free(text);
		ck_assert_int_eq(nftc_evaluate(ctx, &cmds), 0);
		list_for_each_entry(cmd, &cmds, list) {
			if (cmd->obj == CMD_OBJ_RULE)
				r = cmd->rule;
		}
		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(compat_xt_fallback(family, r, 0, &l), 0);
		ck_assert_msg(l.n == rules[i].nxt, "%s: %u xt expressions",
			      rules[i].rule, l.n);
		seg = nftc_batch_segment_alloc();
		ba = nftc_batch_alloc(1);
		bb = nftc_batch_alloc(1);
		ck_assert_int_eq(nftc_linearize(ctx, &cmds, seg, NULL), 0);
		ck_assert_int_eq(nftc_batch_edit_rules(seg, ba, family ==
			NFPROTO_IPV6 ? xt_apply6_cb : xt_apply_cb, &l), 0);
		ck_assert_int_eq(nftc_batch_rewrite_rules(seg, bb, xt_write_cb,
							  &arg), 0);
		la = rules_rebuilt(ba, a, sizeof(a), &na);
		lb = rules_rebuilt(bb, b, sizeof(b), &nb);
		ck_assert_uint_eq(na, 1);
		ck_assert_uint_eq(nb, 1);
		ck_assert_msg(la == lb && !memcmp(a, b, la),
			      "%s: the rules differ", rules[i].rule);
		nftc_batch_free(seg);
		nftc_batch_free(ba);
		nftc_batch_free(bb);
		compat_xt_list_free(&l);
		cmd_list_free(&cmds);
		nftc_ctx_free(ctx);
	}
}
END_TEST

/* compat_text: a text that does not fit the stack buffer is redone. */
START_TEST(test_text_overflow)
{
	struct compat_text t;
	char small[64], *text;
	unsigned int big, i;
	int ret = -1;

	for (big = 0; big < 2; big++) {
		FILE *f = compat_text_open(&t, small, sizeof(small), big);

		ck_assert_ptr_nonnull(f);
		for (i = 0; i < 500; i++)
			fprintf(f, "%u,", i % 10);
		ret = compat_text_close(&t, &text);
		if (!big) {
			ck_assert_int_eq(ret, 1);
			ck_assert_ptr_null(text);
		}
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(strlen(text), 1000);
	ck_assert(strncmp(text, "0,1,2,", 6) == 0);
	free(text);

	/* a short one fits and is exact */
	compat_text_open(&t, small, sizeof(small), false);
	fputs("tcp dport 22", t.f);
	ck_assert_int_eq(compat_text_close(&t, &text), 0);
	ck_assert_str_eq(text, "tcp dport 22");
	free(text);

	/* exactly cap - 1 bytes counts as full: nothing is cut silently */
	compat_text_open(&t, small, sizeof(small), false);
	for (i = 0; i < sizeof(small) - 1; i++)
		fputc('x', t.f);
	ck_assert_int_eq(compat_text_close(&t, &text), 1);

	/* a slot's stream grows: a long text comes whole the first time,
	 * with @big as well, and the slot is fine after */
	for (big = 0; big < 2; big++) {
		FILE *f = compat_text_open_slot(&t, COMPAT_SLOT_TEXT, big);

		ck_assert_ptr_nonnull(f);
		for (i = 0; i < 3000; i++)
			fprintf(f, "%u", i % 10);
		ret = compat_text_close(&t, &text);
		ck_assert_int_eq(ret, 0);
		ck_assert_uint_eq(strlen(text), 3000);
		ck_assert(strncmp(text, "0123456789", 10) == 0);
		ck_assert(strcmp(text + 2990, "0123456789") == 0);
		free(text);
	}
	for (i = 0; i < 2; i++) {
		compat_text_open_slot(&t, COMPAT_SLOT_TEXT, false);
		fputs(i ? "ct state new" : "tcp dport 22", t.f);
		ck_assert_int_eq(compat_text_close(&t, &text), 0);
		ck_assert_str_eq(text, i ? "ct state new" : "tcp dport 22");
		free(text);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compat");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nfail;

	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_revmap);
	tcase_add_test(tc, test_xt_fallback);
	tcase_add_test(tc, test_xt_write);
	tcase_add_test(tc, test_text_overflow);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? 1 : 0;
}
