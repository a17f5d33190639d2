// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftvm GET answers (kmod/dump.c, dump_set.c) read back by libnftnl:
 * what a batch built with libnftnl put in, a dump must give back, in the
 * kernel's framing (NLM_F_MULTI, NLMSG_DONE, the request's seq and port).
 */
#define _GNU_SOURCE
#include "check_vm_common.h"

#define PORTID	4242

static struct nftvm *vm;

/* the replies of one request, concatenated */
struct replies {
	char	*buf;
	size_t	len;
	int	nmsgs;
	int	ndone;
};

static int collect(void *arg, const void *msg, size_t len)
{
	struct replies *r = arg;
	const struct nlmsghdr *nlh = msg;

	r->buf = realloc(r->buf, r->len + len);
	ck_assert_ptr_nonnull(r->buf);
	memcpy(r->buf + r->len, msg, len);
	r->len += len;
	r->nmsgs++;
	if (nlh->nlmsg_type == NLMSG_DONE)
		r->ndone++;
	return 0;
}

static int request(int type, int family, int flags, uint32_t seq,
		   void (*payload)(struct nlmsghdr *, void *), void *arg,
		   struct replies *r, struct nftvm_err *err)
{
	char buf[4096];
	struct nlmsghdr *nlh;

	memset(r, 0, sizeof(*r));
	nlh = nftnl_nlmsg_build_hdr(buf, type, family, flags, seq);
	if (payload)
		payload(nlh, arg);
	return nftvm_request(vm, buf, nlh->nlmsg_len, PORTID, collect, r,
			     err);
}

#define for_each_reply(nlh, r, rest)					\
	for (nlh = (struct nlmsghdr *)(r)->buf, rest = (int)(r)->len;	\
	     mnl_nlmsg_ok(nlh, rest); nlh = mnl_nlmsg_next(nlh, &rest))

static void setup(void)
{
	uint32_t k22 = htonl(22), k80 = htonl(80);
	uint32_t a1 = htonl(0x0a000000), a2 = htonl(0x0b000000);
	struct nftnl_set *s;
	struct vmb v;

	vm = nftvm_new();
	ck_assert_ptr_nonnull(vm);
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "t", 0);
	vmb_table(&v, NFPROTO_IPV6, "six", 0);
	vmb_chain(&v, NFPROTO_IPV4, "t", "in", NF_INET_LOCAL_IN, -5, NF_DROP,
		  NULL);
	vmb_chain(&v, NFPROTO_IPV4, "t", "c1", -1, 0, -1, NULL);
	s = mk_set("t", "ports", 1, 0, 4, 0, 0);
	nftnl_set_set_data(s, NFTNL_SET_USERDATA, "ud", 2);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &k22, 4, 0);
	set_add_key(s, &k80, 4, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	s = mk_set("t", "nets", 2, NFT_SET_INTERVAL, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &a1, 4, 0);
	set_add_key(s, &a2, 4, NFT_SET_ELEM_INTERVAL_END);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_counter(),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_verdict(NFT_JUMP, "c1"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
}

static void teardown(void)
{
	nftvm_destroy(vm);
	vm = NULL;
}

/* every reply carries the request's seq and port; one DONE, last */
static void check_framing(const struct replies *r, uint32_t seq, int n)
{
	struct nlmsghdr *nlh;
	int rest, i = 0;

	ck_assert_int_eq(r->nmsgs, n + 1);
	ck_assert_int_eq(r->ndone, 1);
	for_each_reply(nlh, r, rest) {
		ck_assert_uint_eq(nlh->nlmsg_seq, seq);
		ck_assert_uint_eq(nlh->nlmsg_pid, PORTID);
		if (++i <= n)
			ck_assert(nlh->nlmsg_flags & NLM_F_MULTI);
		else
			ck_assert_int_eq(nlh->nlmsg_type, NLMSG_DONE);
	}
	ck_assert_int_eq(i, n + 1);
}

START_TEST(test_tables)
{
	struct nftnl_table *t;
	struct nlmsghdr *nlh;
	struct replies r;
	int rest, n = 0;

	ck_assert_int_eq(request(NFT_MSG_GETTABLE, NFPROTO_UNSPEC,
				 NLM_F_DUMP, 7, NULL, NULL, &r, NULL), 0);
	check_framing(&r, 7, 2);
	for_each_reply(nlh, &r, rest) {
		if (nlh->nlmsg_type == NLMSG_DONE)
			break;
		t = nftnl_table_alloc();
		ck_assert_int_eq(nftnl_table_nlmsg_parse(nlh, t), 0);
		if (n == 0) {
			ck_assert_str_eq(nftnl_table_get_str(t,
					 NFTNL_TABLE_NAME), "t");
			ck_assert_int_eq(nftnl_table_get_u32(t,
					 NFTNL_TABLE_FAMILY), NFPROTO_IPV4);
			/* two chains and two sets */
			ck_assert_int_eq(nftnl_table_get_u32(t,
					 NFTNL_TABLE_USE), 4);
			ck_assert_int_eq(nftnl_table_get_u64(t,
					 NFTNL_TABLE_HANDLE), 1);
		} else {
			ck_assert_str_eq(nftnl_table_get_str(t,
					 NFTNL_TABLE_NAME), "six");
			ck_assert_int_eq(nftnl_table_get_u64(t,
					 NFTNL_TABLE_HANDLE), 2);
		}
		nftnl_table_free(t);
		n++;
	}
	free(r.buf);

	/* a family narrows the dump */
	ck_assert_int_eq(request(NFT_MSG_GETTABLE, NFPROTO_IPV6, NLM_F_DUMP,
				 8, NULL, NULL, &r, NULL), 0);
	check_framing(&r, 8, 1);
	free(r.buf);
}
END_TEST

static void chain_payload(struct nlmsghdr *nlh, void *arg)
{
	struct nftnl_chain *c = nftnl_chain_alloc();

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, "t");
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, arg);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
}

START_TEST(test_chains)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nftvm_err err;
	struct replies r;

	/* single get: one message, no DONE, no MULTI */
	ck_assert_int_eq(request(NFT_MSG_GETCHAIN, NFPROTO_IPV4, 0, 9,
				 chain_payload, "in", &r, NULL), 0);
	ck_assert_int_eq(r.nmsgs, 1);
	ck_assert_int_eq(r.ndone, 0);
	ck_assert_int_eq(nftnl_chain_nlmsg_parse((void *)r.buf, c), 0);
	ck_assert_str_eq(nftnl_chain_get_str(c, NFTNL_CHAIN_NAME), "in");
	ck_assert_str_eq(nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE), "filter");
	ck_assert_int_eq(nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM),
			 NF_INET_LOCAL_IN);
	ck_assert_int_eq(nftnl_chain_get_s32(c, NFTNL_CHAIN_PRIO), -5);
	ck_assert_int_eq(nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY), NF_DROP);
	/* two rules */
	ck_assert_int_eq(nftnl_chain_get_u32(c, NFTNL_CHAIN_USE), 2);
	ck_assert_int_eq(nftnl_chain_get_u64(c, NFTNL_CHAIN_HANDLE), 1);
	nftnl_chain_free(c);
	free(r.buf);

	ck_assert_int_eq(request(NFT_MSG_GETCHAIN, NFPROTO_IPV4, 0, 10,
				 chain_payload, "c1", &r, NULL), 0);
	c = nftnl_chain_alloc();
	ck_assert_int_eq(nftnl_chain_nlmsg_parse((void *)r.buf, c), 0);
	ck_assert(!nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM));
	/* one jump to it, no rules */
	ck_assert_int_eq(nftnl_chain_get_u32(c, NFTNL_CHAIN_USE), 1);
	nftnl_chain_free(c);
	free(r.buf);

	/* missing chain: ENOENT blamed on the name, nothing sent */
	ck_assert_int_eq(request(NFT_MSG_GETCHAIN, NFPROTO_IPV4, 0, 11,
				 chain_payload, "nope", &r, &err), -ENOENT);
	ck_assert_int_eq(err.attr, NFTA_CHAIN_NAME);
	ck_assert_int_eq(r.nmsgs, 0);
}
END_TEST

struct expr_names {
	const char	*v[8];
	int		n;
};

static int expr_name_cb(struct nftnl_expr *e, void *data)
{
	struct expr_names *x = data;

	x->v[x->n++] = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	return 0;
}

START_TEST(test_rules)
{
	struct expr_names x = { 0 };
	struct nftnl_rule *rule;
	struct nlmsghdr *nlh;
	struct replies r;
	int rest, n = 0;

	ck_assert_int_eq(request(NFT_MSG_GETRULE, NFPROTO_IPV4, NLM_F_DUMP,
				 12, NULL, NULL, &r, NULL), 0);
	check_framing(&r, 12, 2);
	for_each_reply(nlh, &r, rest) {
		if (nlh->nlmsg_type == NLMSG_DONE)
			break;
		rule = nftnl_rule_alloc();
		ck_assert_int_eq(nftnl_rule_nlmsg_parse(nlh, rule), 0);
		ck_assert_str_eq(nftnl_rule_get_str(rule, NFTNL_RULE_CHAIN),
				 "in");
		if (n == 0) {
			/* handles 1, 2: chains; 3, 4: sets; 5, 6 rules */
			ck_assert_int_eq(nftnl_rule_get_u64(rule,
					 NFTNL_RULE_HANDLE), 5);
			ck_assert(!nftnl_rule_is_set(rule,
						     NFTNL_RULE_POSITION));
			nftnl_expr_foreach(rule, expr_name_cb, &x);
			ck_assert_int_eq(x.n, 2);
			ck_assert_str_eq(x.v[0], "counter");
			ck_assert_str_eq(x.v[1], "immediate");
		} else {
			ck_assert_int_eq(nftnl_rule_get_u64(rule,
					 NFTNL_RULE_POSITION), 5);
		}
		nftnl_rule_free(rule);
		n++;
	}
	free(r.buf);
}
END_TEST

static void elem_payload(struct nlmsghdr *nlh, void *arg)
{
	struct nftnl_set *s = nftnl_set_alloc();

	nftnl_set_set_str(s, NFTNL_SET_TABLE, "t");
	nftnl_set_set_str(s, NFTNL_SET_NAME, arg);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
}

static struct nftnl_set *dump_elems(const char *set)
{
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;
	struct replies r;
	int rest;

	ck_assert_int_eq(request(NFT_MSG_GETSETELEM, NFPROTO_IPV4, NLM_F_DUMP,
				 13, elem_payload, (void *)set, &r, NULL), 0);
	check_framing(&r, 13, 1);
	for_each_reply(nlh, &r, rest)
		if (nlh->nlmsg_type != NLMSG_DONE)
			ck_assert_int_eq(nftnl_set_elems_nlmsg_parse(nlh, s),
					 0);
	free(r.buf);
	return s;
}

START_TEST(test_sets)
{
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;
	struct nftnl_set *s;
	struct nlmsghdr *nlh;
	struct replies r;
	uint32_t len, k, seen = 0;
	const void *p;
	int rest, n = 0;

	ck_assert_int_eq(request(NFT_MSG_GETSET, NFPROTO_IPV4, NLM_F_DUMP,
				 14, NULL, NULL, &r, NULL), 0);
	check_framing(&r, 14, 2);
	for_each_reply(nlh, &r, rest) {
		if (nlh->nlmsg_type == NLMSG_DONE)
			break;
		s = nftnl_set_alloc();
		ck_assert_int_eq(nftnl_set_nlmsg_parse(nlh, s), 0);
		ck_assert_int_eq(nftnl_set_get_u32(s, NFTNL_SET_KEY_LEN), 4);
		if (n++ == 0) {
			ck_assert_str_eq(nftnl_set_get_str(s, NFTNL_SET_NAME),
					 "ports");
			p = nftnl_set_get_data(s, NFTNL_SET_USERDATA, &len);
			ck_assert_int_eq(len, 2);
			ck_assert(!memcmp(p, "ud", 2));
		} else {
			ck_assert_int_eq(nftnl_set_get_u32(s, NFTNL_SET_FLAGS),
					 NFT_SET_INTERVAL);
		}
		nftnl_set_free(s);
	}
	free(r.buf);

	s = dump_elems("ports");
	it = nftnl_set_elems_iter_create(s);
	while ((e = nftnl_set_elems_iter_next(it))) {
		p = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
		ck_assert_int_eq(len, 4);
		memcpy(&k, p, 4);
		seen |= ntohl(k) == 22 ? 1 : ntohl(k) == 80 ? 2 : 4;
	}
	nftnl_set_elems_iter_destroy(it);
	nftnl_set_free(s);
	ck_assert_int_eq(seen, 3);

	/* interval boundaries: descending, the end flagged */
	s = dump_elems("nets");
	it = nftnl_set_elems_iter_create(s);
	while ((e = nftnl_set_elems_iter_next(it))) {
		p = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
		memcpy(&k, p, 4);
		if (seen == 3) {
			ck_assert_uint_eq(ntohl(k), 0x0b000000);
			ck_assert_int_eq(nftnl_set_elem_get_u32(e,
					 NFTNL_SET_ELEM_FLAGS),
					 NFT_SET_ELEM_INTERVAL_END);
		} else {
			ck_assert_uint_eq(ntohl(k), 0x0a000000);
			ck_assert(!nftnl_set_elem_is_set(e,
						NFTNL_SET_ELEM_FLAGS));
		}
		seen++;
	}
	nftnl_set_elems_iter_destroy(it);
	nftnl_set_free(s);
	ck_assert_int_eq(seen, 5);
}
END_TEST

/* many elements: split over messages, none lost */
START_TEST(test_many_elems)
{
	struct nftnl_set *s = mk_set("t", "big", 9, 0, 4, 0, 0);
	struct nftnl_set_elems_iter *it;
	struct nlmsghdr *nlh;
	struct replies r;
	struct vmb v;
	uint32_t i, k;
	int rest, n = 0, msgs = 0;

	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s);
	for (i = 0; i < 3000; i++) {
		k = htonl(i);
		set_add_key(s, &k, 4, 0);
	}
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	s = nftnl_set_alloc();
	ck_assert_int_eq(request(NFT_MSG_GETSETELEM, NFPROTO_IPV4, NLM_F_DUMP,
				 15, elem_payload, "big", &r, NULL), 0);
	for_each_reply(nlh, &r, rest) {
		ck_assert_uint_le(nlh->nlmsg_len, 8192);
		if (nlh->nlmsg_type == NLMSG_DONE)
			continue;
		msgs++;
		ck_assert_int_eq(nftnl_set_elems_nlmsg_parse(nlh, s), 0);
	}
	free(r.buf);
	ck_assert_int_gt(msgs, 1);
	it = nftnl_set_elems_iter_create(s);
	while (nftnl_set_elems_iter_next(it))
		n++;
	nftnl_set_elems_iter_destroy(it);
	nftnl_set_free(s);
	ck_assert_int_eq(n, 3000);
}
END_TEST

START_TEST(test_genid_and_errors)
{
	struct nlmsghdr *nlh;
	struct nftvm_err err;
	struct replies r;
	const struct nlattr *a;
	uint32_t gen = 0;

	ck_assert_int_eq(request(NFT_MSG_GETGEN, NFPROTO_UNSPEC, 0, 16, NULL,
				 NULL, &r, NULL), 0);
	ck_assert_int_eq(r.nmsgs, 1);
	nlh = (struct nlmsghdr *)r.buf;
	ck_assert_int_eq(NFNL_MSG_TYPE(nlh->nlmsg_type), NFT_MSG_NEWGEN);
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(a) == NFTA_GEN_ID)
			gen = ntohl(mnl_attr_get_u32(a));
	ck_assert_uint_eq(gen, nftvm_genid(vm));
	ck_assert_uint_eq(gen, 1);
	free(r.buf);

	/* elements of a set that does not exist */
	ck_assert_int_eq(request(NFT_MSG_GETSETELEM, NFPROTO_IPV4, NLM_F_DUMP,
				 17, elem_payload, "nope", &r, &err), -ENOENT);
	ck_assert_int_eq(err.attr, NFTA_SET_ELEM_LIST_SET);
	/* a NEW message is no request */
	ck_assert_int_eq(request(NFT_MSG_NEWTABLE, NFPROTO_IPV4, 0, 18, NULL,
				 NULL, &r, NULL), -EOPNOTSUPP);
	/* objects: none, an empty dump */
	ck_assert_int_eq(request(NFT_MSG_GETOBJ, NFPROTO_UNSPEC, NLM_F_DUMP,
				 19, NULL, NULL, &r, NULL), 0);
	check_framing(&r, 19, 0);
	free(r.buf);
}
END_TEST

static Suite *vm_dump_suite(void)
{
	Suite *s = suite_create("vm_dump");
	TCase *tc = tcase_create("dump");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_chains);
	tcase_add_test(tc, test_rules);
	tcase_add_test(tc, test_sets);
	tcase_add_test(tc, test_many_elems);
	tcase_add_test(tc, test_genid_and_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vm_dump_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
