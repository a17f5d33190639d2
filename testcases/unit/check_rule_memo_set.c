/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the rule memo's reading of a rule's messages
 * (nftc/rule_memo_set.c), on messages written here into a segment:
 *  - memo_msgs_since() and memo_msgs_map(): NEWSET, NEWSETELEM, NEWRULE
 *    with their sources (the braces', the rule's) and set ids found,
 *    and refused when an id is out of the rule's range, a source is
 *    neither, or the order is not declaration, elements, rule;
 *  - memo_elem_slot(): element j's key bytes, with and without flags
 *    before the key, none past the last;
 *  - memo_expr_attrs() and memo_ids_patch(): the lookups' set ids;
 *  - set names we chose (nftc/anon_names.h): each set's three name
 *    slots found (its NEWSET, NEWSETELEM and lookup), a lookup of
 *    another set left alone; refused when an element message names
 *    another set or names are chosen for some sets only.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include "rule_memo_int.h"
#include "linearize.h"

static const int input;	/* a source's input: only its address counts */

/*
 * The name messages give set @id: "__set%d" as stock sends it, or with
 * @named the name we would choose, "__set" and 5 + id (lengths vary);
 * @renamed: this id's set name in NEWSETELEM is another.
 */
static bool named;
static uint32_t renamed;

static const char *set_name(uint32_t id, bool elems)
{
	static char buf[4][16];
	static unsigned int next;
	char *b = buf[next++ % 4];

	if (!named)
		return "__set%d";
	snprintf(b, sizeof(buf[0]), "__set%u",
		 5 + id + (elems && id == renamed ? 100 : 0));
	return b;
}

static struct location loc(unsigned int col, unsigned int end)
{
	struct location l;

	memset(&l, 0, sizeof(l));
	l.indesc = (const struct input_desc *)&input;
	l.first_line = l.last_line = 3;
	l.first_column = col;
	l.last_column = end;
	return l;
}

static void put_set(struct nftc_batch *b, const struct location *l,
		    uint32_t id)
{
	struct nlmsghdr *nlh = nftc_batch_msg_begin(b, NFT_MSG_NEWSET, 0,
						    NFPROTO_INET, l);

	ck_assert_ptr_nonnull(nlh);
	mnl_attr_put_strz(nlh, NFTA_SET_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_NAME, set_name(id, false));
	mnl_attr_put_u32(nlh, NFTA_SET_FLAGS, htonl(3));
	mnl_attr_put_u32(nlh, NFTA_SET_ID, htonl(id));
	ck_assert_int_eq(nftc_batch_msg_end(b, nlh), 0);
}

/* @n two-byte keys from @k0 on; @flags: an (empty) flags attribute first */
static void put_elems(struct nftc_batch *b, const struct location *l,
		      uint32_t id, unsigned int n, uint16_t k0, bool flags)
{
	struct nlmsghdr *nlh = nftc_batch_msg_begin(b, NFT_MSG_NEWSETELEM, 0,
						    NFPROTO_INET, l);
	struct nlattr *list, *el, *key;
	unsigned int i;
	uint16_t k;

	ck_assert_ptr_nonnull(nlh);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, set_name(id, true));
	mnl_attr_put_u32(nlh, NFTA_SET_ELEM_LIST_SET_ID, htonl(id));
	list = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	for (i = 0; i < n; i++) {
		el = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
		if (flags)
			mnl_attr_put_u32(nlh, NFTA_SET_ELEM_FLAGS, 0);
		key = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_KEY);
		k = htons(k0 + i);
		mnl_attr_put(nlh, NFTA_DATA_VALUE, sizeof(k), &k);
		mnl_attr_nest_end(nlh, key);
		mnl_attr_nest_end(nlh, el);
	}
	mnl_attr_nest_end(nlh, list);
	ck_assert_int_eq(nftc_batch_msg_end(b, nlh), 0);
}

static void put_expr(struct nlmsghdr *nlh, const char *name, uint32_t id)
{
	struct nlattr *el = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM), *d;

	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, name);
	d = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	mnl_attr_put_u32(nlh, NFTA_LOOKUP_SREG, htonl(1));
	if (!strcmp(name, "lookup")) {
		mnl_attr_put_strz(nlh, NFTA_LOOKUP_SET,
				  id ? set_name(id, false) : "named");
		mnl_attr_put_u32(nlh, NFTA_LOOKUP_SET_ID, htonl(id));
	}
	mnl_attr_nest_end(nlh, d);
	mnl_attr_nest_end(nlh, el);
}

/* A rule looking up sets @id0 and @id1 (0: none), a payload between. */
static void put_rule(struct nftc_batch *b, const struct location *l,
		     uint32_t id0, uint32_t id1)
{
	struct nlmsghdr *nlh = nftc_batch_msg_begin(b, NFT_MSG_NEWRULE, 0,
						    NFPROTO_INET, l);
	struct nlattr *exprs;

	ck_assert_ptr_nonnull(nlh);
	mnl_attr_put_strz(nlh, NFTA_RULE_TABLE, "t");
	mnl_attr_put_strz(nlh, NFTA_RULE_CHAIN, "c");
	exprs = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	put_expr(nlh, "lookup", id0);
	put_expr(nlh, "payload", 0);
	if (id1)
		put_expr(nlh, "lookup", id1);
	mnl_attr_nest_end(nlh, exprs);
	ck_assert_int_eq(nftc_batch_msg_end(b, nlh), 0);
}

struct fixture {
	struct rule_memo	*m;
	struct nftc_batch	*seg;
	struct location		rule, set[2];
	const struct nlmsghdr	*nl[MEMO_MSGS];
	unsigned int		n;
};

static void fixture_init(struct fixture *f)
{
	f->m = calloc(1, sizeof(*f->m));	/* mark: a new segment */
	f->seg = nftc_batch_segment_alloc();
	ck_assert_ptr_nonnull(f->m);
	ck_assert_ptr_nonnull(f->seg);
	f->rule = loc(3, 60);
	f->set[0] = loc(13, 30);
	f->set[1] = loc(40, 50);
}

static void fixture_read(struct fixture *f)
{
	f->n = memo_msgs_since(f->m, f->seg, f->nl, MEMO_MSGS);
}

static void fixture_free(struct fixture *f)
{
	nftc_batch_free(f->seg);
	free(f->m);
}

/* A rule with two sets (ids 8 and 9, three and two elements), read. */
static void two_sets(struct fixture *f)
{
	fixture_init(f);
	put_set(f->seg, &f->set[0], 8);
	put_elems(f->seg, &f->set[0], 8, 3, 22, false);
	put_set(f->seg, &f->set[1], 9);
	put_elems(f->seg, &f->set[1], 9, 2, 80, true);
	put_rule(f->seg, &f->rule, 8, 9);
	fixture_read(f);
}

START_TEST(test_two_sets)
{
	struct pipeline_patch pt[MEMO_IDS];
	uint32_t val[MEMO_IDS], v;
	struct memo_msgs mm;
	struct fixture f;
	unsigned int i, n;

	two_sets(&f);
	ck_assert_uint_eq(f.n, 5);
	ck_assert(memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 2,
				7, 9));
	ck_assert_uint_eq(mm.ids, 2);
	ck_assert_uint_eq(mm.nid, 6);
	ck_assert_uint_eq(mm.set[0], 1);
	ck_assert_uint_eq(mm.set[1], 1);
	ck_assert_uint_eq(mm.set[2], 2);
	ck_assert_uint_eq(mm.set[3], 2);
	ck_assert_uint_eq(mm.set[4], 0);
	/* renumbered from 100: the first set's slots 101, the second's 102 */
	n = memo_ids_patch(&mm, 100, val, pt);
	ck_assert_uint_eq(n, 6);
	for (i = 0; i < n; i++) {
		unsigned int k = 0;

		while (k + 1 < f.n && pt[i].off >= mm.off[k + 1])
			k++;
		memcpy(&v, (const uint8_t *)f.nl[k] + pt[i].off - mm.off[k],
		       4);
		ck_assert_uint_eq(ntohl(v) - 7 + 100,
				  ntohl(*(const uint32_t *)pt[i].data));
	}
	/* ids out of the rule's range, or a source neither's */
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 2,
				 8, 9));
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 2,
				 7, 8));
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 1,
				 7, 9));
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.set[1], f.set, 2,
				 7, 9));
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl + 1, f.n - 2, &f.rule,
				 f.set, 2, 7, 9));
	fixture_free(&f);
}
END_TEST

START_TEST(test_elem_slot)
{
	struct fixture f;
	uint32_t off, len;
	unsigned int j, k;
	uint16_t v;

	fixture_init(&f);
	put_elems(f.seg, &f.set[0], 1, 4, 1000, false);
	put_elems(f.seg, &f.set[0], 1, 4, 2000, true);
	fixture_read(&f);
	ck_assert_uint_eq(f.n, 2);
	for (k = 0; k < 2; k++) {
		for (j = 0; j < 4; j++) {
			ck_assert(memo_elem_slot(f.nl[k], j, &off, &len));
			ck_assert_uint_eq(len, 2);
			memcpy(&v, (const uint8_t *)f.nl[k] + off, 2);
			ck_assert_uint_eq(ntohs(v), 1000 * (k + 1) + j);
		}
		ck_assert(!memo_elem_slot(f.nl[k], 4, &off, &len));
	}
	fixture_free(&f);
}
END_TEST

START_TEST(test_expr_attrs)
{
	struct fixture f;
	unsigned int nexpr;
	uint32_t off[2], v;

	fixture_init(&f);
	put_rule(f.seg, &f.rule, 5, 6);
	fixture_read(&f);
	ck_assert_uint_eq(f.n, 1);
	ck_assert_uint_eq(memo_expr_attrs(f.nl[0], "lookup",
					  NFTA_LOOKUP_SET_ID, 4, off, NULL, 2,
					  &nexpr), 2);
	ck_assert_uint_eq(nexpr, 2);
	memcpy(&v, (const uint8_t *)f.nl[0] + off[1], 4);
	ck_assert_uint_eq(ntohl(v), 6);
	/* counted past @max, stored up to it */
	ck_assert_uint_eq(memo_expr_attrs(f.nl[0], "lookup",
					  NFTA_LOOKUP_SET_ID, 4, off, NULL, 1,
					  &nexpr), 2);
	ck_assert_uint_eq(memo_expr_attrs(f.nl[0], "limit", 1, 8, off, NULL,
					  2, &nexpr), 0);
	ck_assert_uint_eq(nexpr, 0);
	fixture_free(&f);
}
END_TEST

/* The name in slot @i of @mm, as read from the messages @nl. */
static const char *slot_name(const struct memo_msgs *mm,
			     const struct nlmsghdr *const *nl, unsigned int n,
			     unsigned int i)
{
	unsigned int k = 0;

	while (k + 1 < n && mm->name_off[i] >= mm->off[k + 1])
		k++;
	return (const char *)nl[k] + mm->name_off[i] - mm->off[k];
}

START_TEST(test_named_sets)
{
	static const char *const want[6] = {
		"__set13", "__set13", "__set14", "__set14", "__set13",
		"__set14" };
	struct memo_msgs mm;
	struct fixture f;
	unsigned int i;

	named = true;
	renamed = 0;
	two_sets(&f);
	ck_assert_uint_eq(f.n, 5);
	ck_assert(memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 2,
				7, 9));
	ck_assert_uint_eq(mm.names, 2);
	ck_assert_uint_eq(mm.nname, 6);
	for (i = 0; i < mm.nname; i++) {
		ck_assert_str_eq(slot_name(&mm, f.nl, f.n, i), want[i]);
		ck_assert_uint_eq(mm.name_len[i], strlen(want[i]) + 1);
		ck_assert_uint_eq(mm.name_set[i], want[i][6] - '3');
	}
	fixture_free(&f);

	/* a lookup of a named set is no slot: the first set, alone */
	fixture_init(&f);
	put_set(f.seg, &f.set[0], 8);
	put_elems(f.seg, &f.set[0], 8, 3, 22, false);
	put_rule(f.seg, &f.rule, 8, 0);
	fixture_read(&f);
	ck_assert(memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 1,
				7, 8));
	ck_assert_uint_eq(mm.names, 1);
	ck_assert_uint_eq(mm.nname, 3);
	fixture_free(&f);

	/* elements of a set of another name */
	renamed = 9;
	two_sets(&f);
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 2,
				 7, 9));
	fixture_free(&f);

	/* a name chosen for one set, "__set%d" for the other */
	renamed = 0;
	fixture_init(&f);
	put_set(f.seg, &f.set[0], 8);
	put_elems(f.seg, &f.set[0], 8, 3, 22, false);
	named = false;
	put_set(f.seg, &f.set[1], 9);
	put_elems(f.seg, &f.set[1], 9, 2, 80, true);
	put_rule(f.seg, &f.rule, 8, 9);
	fixture_read(&f);
	ck_assert(!memo_msgs_map(&mm, f.seg, f.nl, f.n, &f.rule, f.set, 2,
				 7, 9));
	fixture_free(&f);
}
END_TEST

static Suite *rule_memo_set_suite(void)
{
	Suite *s = suite_create("rule_memo_set");
	TCase *tc = tcase_create("rule_memo_set");

	tcase_add_test(tc, test_two_sets);
	tcase_add_test(tc, test_elem_slot);
	tcase_add_test(tc, test_expr_attrs);
	tcase_add_test(tc, test_named_sets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rule_memo_set_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
