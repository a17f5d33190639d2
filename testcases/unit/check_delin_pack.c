/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the listing's packed elements (nftc/delin_pack.c)
 * without a kernel: element dump messages are built as the kernel sends
 * them (libmnl), read once packed and once through the IR path
 * (libnftnl, nftc_delinearize_set_elems), and the two sets must print
 * the same: random keys over many messages, host-order keys, interval
 * starts and ends in any order, an element with a comment late in the
 * dump (the set goes back to IR), anonymous sets (packed only when
 * asked, made IR again by delin_pack_unpack()). kernel/list-big-sets.sh checks both
 * against stock nft on a real kernel; here one known interval listing
 * (stock's text for what stock loads from "10.0.0.0/24, 1.2.3.4-1.2.3.9,
 * 5.5.5.5") is checked too.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/set.h>

#include "delinearize.h"
#include "delin_pack.h"
#include "printer.h"
#include "rule.h"
#include "check_text.h"

/* One element: key bytes, interval end, a comment or not. */
struct elem {
	uint8_t		key[4];
	bool		end;
	bool		comment;
};

static struct nlmsghdr *msg_build(char *buf, const struct elem *e,
				  unsigned int n)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *list, *el, *k;
	struct nfgenmsg *nfg;
	static const uint8_t ud[] = { 0, 2, 'x', 0 };	/* comment "x" */
	unsigned int i;

	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWSETELEM;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = NFPROTO_IPV4;
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, "s");
	list = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	for (i = 0; i < n; i++) {
		el = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
		k = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_KEY);
		mnl_attr_put(nlh, NFTA_DATA_VALUE, 4, e[i].key);
		mnl_attr_nest_end(nlh, k);
		if (e[i].end)
			mnl_attr_put_u32(nlh, NFTA_SET_ELEM_FLAGS,
					 htonl(NFT_SET_ELEM_INTERVAL_END));
		if (e[i].comment)
			mnl_attr_put(nlh, NFTA_SET_ELEM_USERDATA, sizeof(ud),
				     ud);
		mnl_attr_nest_end(nlh, el);
	}
	mnl_attr_nest_end(nlh, list);
	return nlh;
}

static struct set *set_new(const struct datatype *dt, enum byteorder order,
			   uint32_t flags)
{
	struct set *s = set_alloc(&internal_location);

	ck_assert_ptr_nonnull(s);
	s->handle.set.name = strdup("s");
	s->flags = flags;
	s->key = expr_alloc(&internal_location, EXPR_VALUE, dt, order, 32);
	ck_assert_ptr_nonnull(s->key);
	return s;
}

static char *set_text(const struct set *s)
{
	struct ck_text t;

	nftc_print_set(ck_text_open(&t), s);
	return ck_text_close(&t);
}

/*
 * The elements @e, @per_msg a message, listed packed and through IR;
 * returns the packed listing. @packed: whether the set must stay packed.
 */
static char *both_ways(const struct datatype *dt, enum byteorder order,
		       uint32_t flags, const struct elem *e, unsigned int n,
		       unsigned int per_msg, bool packed)
{
	char *buf = malloc(per_msg * 64 + 4096), *a, *b;
	struct set *sp = set_new(dt, order, flags);
	struct set *si = set_new(dt, order, flags);
	struct nftnl_set *nls;
	struct nlmsghdr *nlh;
	unsigned int i, m;
	int r;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < n; i += m) {
		m = n - i < per_msg ? n - i : per_msg;
		nlh = msg_build(buf, e + i, m);
		nls = nftnl_set_alloc();
		ck_assert_ptr_nonnull(nls);
		ck_assert_int_eq(nftnl_set_elems_nlmsg_parse(nlh, nls), 0);
		r = delin_pack_msg(sp, nlh, false);
		ck_assert_int_ge(r, 0);
		if (r == 0)
			nftc_delinearize_set_elems(sp, nls);
		nftc_delinearize_set_elems(si, nls);
		nftnl_set_free(nls);
	}
	nftc_delinearize_set_done(sp);
	nftc_delinearize_set_done(si);
	ck_assert_int_eq(delin_pack_count(sp->dpack) > 0, packed);
	ck_assert_ptr_null(si->dpack);
	a = set_text(sp);
	b = set_text(si);
	if (strcmp(a, b))
		fprintf(stderr, "packed:\n%.400s\nIR:\n%.400s\n", a, b);
	ck_assert_str_eq(a, b);
	free(b);
	free(buf);
	set_free(sp);
	set_free(si);
	return a;
}

static void key_of(uint8_t *k, uint32_t v)
{
	k[0] = v >> 24;
	k[1] = v >> 16;
	k[2] = v >> 8;
	k[3] = v;
}

START_TEST(test_plain_random)
{
	enum { N = 5000 };
	struct elem *e = calloc(N, sizeof(*e));
	unsigned int i;

	ck_assert_ptr_nonnull(e);
	srandom(1);
	for (i = 0; i < N; i++)	/* distinct: i in the low bits */
		key_of(e[i].key, (uint32_t)random() << 13 | i);
	free(both_ways(&ipaddr_type, BYTEORDER_BIG, 0, e, N, 97, true));
	/* host order (marks): the same bytes are other numbers */
	free(both_ways(&mark_type, BYTEORDER_HOST, 0, e, N, 211, true));
	free(both_ways(&integer_type, BYTEORDER_BIG, 0, e, N, 1000, true));
	/* a comment late in the dump: all of it IR */
	e[N - 3].comment = true;
	free(both_ways(&ipaddr_type, BYTEORDER_BIG, 0, e, N, 97, false));
	free(e);
}
END_TEST

/* Random disjoint intervals: starts and ends, shuffled. */
START_TEST(test_intervals_random)
{
	enum { N = 3000 };
	struct elem *e = calloc(2 * N + 1, sizeof(*e)), t;
	uint32_t v = 0, len;
	unsigned int i, j, n = 0;

	ck_assert_ptr_nonnull(e);
	srandom(2);
	for (i = 0; i < N; i++) {
		len = (random() % 4 == 0) ? 1u << (random() % 10) :
		      1 + random() % 300;
		v = (i % 7 == 0) ? (v + len - 1) / len * len : v;
		key_of(e[n++].key, v);
		if (random() % 5) {	/* else the next start ends it */
			key_of(e[n].key, v + len);
			e[n++].end = true;
		}
		v += len + random() % 50;
	}
	key_of(e[n++].key, 0xfffff000);	/* runs to the open end */
	for (i = n - 1; i > 0; i--) {
		j = random() % (i + 1);
		t = e[i];
		e[i] = e[j];
		e[j] = t;
	}
	free(both_ways(&ipaddr_type, BYTEORDER_BIG, NFT_SET_INTERVAL, e, n,
		       150, true));
	free(both_ways(&mark_type, BYTEORDER_HOST, NFT_SET_INTERVAL, e, n,
		       150, true));
	free(both_ways(&integer_type, BYTEORDER_BIG, NFT_SET_INTERVAL, e, n,
		       150, true));
	e[n / 2].comment = true;
	free(both_ways(&ipaddr_type, BYTEORDER_BIG, NFT_SET_INTERVAL, e, n,
		       150, false));
	free(e);
}
END_TEST

static char *elems_text(const struct set *s)
{
	struct ck_text t;
	struct output_ctx *octx = ck_text_open(&t);

	if (s->init)
		nftc_print_expr(octx, s->init);
	return ck_text_close(&t);
}

/*
 * An anonymous set's elements, packed (@anon) and through IR: after
 * delin_pack_unpack() both hold the same IR, in the same order. Without
 * @anon the set is not packed at all.
 */
static void anon_both_ways(const struct datatype *dt, enum byteorder order,
			   const struct elem *e, unsigned int n, bool anon)
{
	char *buf = malloc(n * 64 + 4096), *a, *b;
	struct set *sp = set_new(dt, order, NFT_SET_ANONYMOUS);
	struct set *si = set_new(dt, order, NFT_SET_ANONYMOUS);
	struct nftnl_set *nls;
	struct nlmsghdr *nlh;
	int r;

	ck_assert_ptr_nonnull(buf);
	nlh = msg_build(buf, e, n);
	nls = nftnl_set_alloc();
	ck_assert_ptr_nonnull(nls);
	ck_assert_int_eq(nftnl_set_elems_nlmsg_parse(nlh, nls), 0);
	r = delin_pack_msg(sp, nlh, anon);
	ck_assert_int_eq(r, anon ? 1 : 0);
	if (r == 0)
		nftc_delinearize_set_elems(sp, nls);
	nftc_delinearize_set_elems(si, nls);
	nftnl_set_free(nls);
	nftc_delinearize_set_done(sp);
	nftc_delinearize_set_done(si);
	ck_assert_int_eq(delin_pack_count(sp->dpack), anon ? n : 0);
	ck_assert_int_eq(delin_pack_unpack(sp), 0);
	ck_assert_int_eq(delin_pack_count(sp->dpack), 0);
	ck_assert_ptr_nonnull(sp->init);
	ck_assert_int_eq(sp->init->size, n);
	a = elems_text(sp);
	b = elems_text(si);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	free(buf);
	set_free(sp);
	set_free(si);
}

START_TEST(test_anonymous)
{
	static const uint32_t keys[] = {
		443, 22, 0x0a000001, 80, 0xffffffff, 0, 8080, 0x01000000,
	};
	struct elem e[8] = { 0 };
	unsigned int i;

	for (i = 0; i < 8; i++)
		key_of(e[i].key, keys[i]);
	anon_both_ways(&integer_type, BYTEORDER_BIG, e, 8, true);
	anon_both_ways(&mark_type, BYTEORDER_HOST, e, 8, true);
	anon_both_ways(&ipaddr_type, BYTEORDER_BIG, e, 8, true);
	anon_both_ways(&ipaddr_type, BYTEORDER_BIG, e, 8, false);
	anon_both_ways(&ipaddr_type, BYTEORDER_BIG, e, 1, true);
}
END_TEST

/* What stock lists for "10.0.0.0/24, 1.2.3.4-1.2.3.9, 5.5.5.5". */
START_TEST(test_intervals_known)
{
	/* as the kernel dumps them: ends flagged, newest first */
	static const uint32_t keys[][2] = {
		{ 0x0a000100, 1 }, { 0x0a000000, 0 }, { 0x05050506, 1 },
		{ 0x05050505, 0 }, { 0x0102030a, 1 }, { 0x01020304, 0 },
	};
	struct elem e[6] = { 0 };
	unsigned int i;
	char *text;

	for (i = 0; i < 6; i++) {
		key_of(e[i].key, keys[i][0]);
		e[i].end = keys[i][1];
	}
	text = both_ways(&ipaddr_type, BYTEORDER_BIG, NFT_SET_INTERVAL, e, 6,
			 6, true);
	ck_assert_ptr_nonnull(strstr(text, "\t\telements = { 1.2.3.4-1.2.3.9, "
				     "5.5.5.5,\n\t\t\t     10.0.0.0/24 }\n"));
	free(text);
}
END_TEST

static Suite *delin_pack_suite(void)
{
	Suite *s = suite_create("delin_pack");
	TCase *tc = tcase_create("delin_pack");

	tcase_add_test(tc, test_plain_random);
	tcase_add_test(tc, test_intervals_random);
	tcase_add_test(tc, test_intervals_known);
	tcase_add_test(tc, test_anonymous);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(delin_pack_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
