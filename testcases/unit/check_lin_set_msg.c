/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the set messages written in place into the batch,
 * against libnftnl's encoders, without a kernel:
 *  - user data TLVs (lin_ud_*) against libnftnl's udata writer, for
 *    random sequences of u32s, strings and nests;
 *  - set declarations (lin_set_decl_put) against
 *    nftnl_set_nlmsg_build_payload() of a libnftnl set built here from
 *    the same random fields (names, flags, key and data types, object
 *    types, ids, policies, sizes, concatenation fields, timeouts, gc
 *    intervals, user data), and lin_set_decl_check() finding one
 *    changed byte;
 *  - key-only elements (lin_elems_put_key; interval ends with their
 *    flag) against the same elements
 *    written by lin_elems_put(), whose messages lin_elems_finish()
 *    checks against libnftnl's element encoder, random key widths and
 *    counts up to several 64 KiB element lists.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include "lin_int.h"

static unsigned int rnd(unsigned int n)
{
	return (unsigned int)random() % n;
}

static void rnd_str(char *buf, unsigned int max)
{
	unsigned int i, n = rnd(max);

	for (i = 0; i < n; i++)
		buf[i] = 'a' + rnd(26);
	buf[n] = '\0';
}

/*
 * The same random TLVs into @u and @ud: top level u32s, strings and
 * nests of u32s and strings (one level deeper at most), as set user
 * data has them, within 200 bytes.
 */
static void rnd_udata(struct lin_ud *u, struct nftnl_udata_buf *ud)
{
	unsigned int k, j, n = rnd(8), at;
	struct nftnl_udata *nest;
	char s[40];
	uint32_t v;
	uint8_t type;

	u->len = 0;
	u->full = false;
	for (k = 0; k < n && u->len < 120; k++) {
		type = rnd(10);
		switch (rnd(3)) {
		case 0:
			v = random();
			ck_assert(lin_ud_put_u32(u, type, v));
			ck_assert(nftnl_udata_put_u32(ud, type, v));
			break;
		case 1:
			rnd_str(s, sizeof(s) - 1);
			ck_assert(lin_ud_put_strz(u, type, s));
			ck_assert(nftnl_udata_put_strz(ud, type, s));
			break;
		default:
			at = lin_ud_nest_start(u, type);
			nest = nftnl_udata_nest_start(ud, type);
			for (j = rnd(4); j > 0; j--) {
				v = random();
				type = rnd(3);
				lin_ud_put_u32(u, type, v);
				nftnl_udata_put_u32(ud, type, v);
			}
			lin_ud_nest_end(u, at);
			nftnl_udata_nest_end(ud, nest);
			break;
		}
	}
}

START_TEST(test_udata_random)
{
	struct nftnl_udata_buf *ud;
	struct lin_ud u;
	unsigned int round;

	srandom(11);
	for (round = 0; round < 5000; round++) {
		ud = nftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);
		ck_assert_ptr_nonnull(ud);
		rnd_udata(&u, ud);
		ck_assert(!u.full);
		ck_assert_uint_eq(u.len, nftnl_udata_buf_len(ud));
		ck_assert(!memcmp(u.buf, nftnl_udata_buf_data(ud), u.len));
		nftnl_udata_buf_free(ud);
	}
}
END_TEST

/* A TLV that does not fit is left out (libnftnl's writer overruns). */
START_TEST(test_udata_full)
{
	char s[200];
	struct lin_ud u = { 0 };

	memset(s, 'x', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	ck_assert(lin_ud_put_strz(&u, 1, s));
	ck_assert(!lin_ud_put_strz(&u, 2, s));
	ck_assert(u.full);
	ck_assert_uint_eq(u.len, 2 + sizeof(s));
}
END_TEST

struct decl_case {
	struct lin_set_decl	d;
	char			table[40];
	char			name[40];
	struct nftnl_udata_buf	*ud;
};

static void rnd_decl(struct decl_case *c)
{
	struct lin_set_decl *d = &c->d;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	rnd_str(c->table, 30);
	if (rnd(3) == 0)
		strcpy(c->name, rnd(2) ? "__set%d" : "__map%d");
	else
		rnd_str(c->name, 30);
	d->table = c->table;
	d->name = c->name;
	d->flags = random() & 0xffff;
	d->key_type = random();
	d->key_len = 1 + rnd(64);
	d->has_data = rnd(3) == 0;
	if (d->has_data) {
		d->data_type = rnd(2) ? NFT_DATA_VERDICT : random();
		d->data_len = rnd(65);
	}
	d->has_obj = rnd(5) == 0;
	d->obj_type = rnd(10);
	d->set_id = rnd(2) ? random() : 0;
	d->policy = rnd(3) ? 0 : rnd(2);
	d->size = rnd(2) ? rnd(100000) : 0;
	d->gc_int = rnd(4) ? 0 : random();
	d->timeout = rnd(4) ? 0 : (uint64_t)random() * random();
	d->nfields = rnd(3) ? 0 : 1 + rnd(NFT_REG32_COUNT);
	for (i = 0; i < d->nfields; i++)
		d->field_len[i] = 1 + rnd(16);
	c->ud = nftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);
	ck_assert_ptr_nonnull(c->ud);
	rnd_udata(&d->ud, c->ud);
}

/* @c as a libnftnl set, built here attribute by attribute. */
static struct nftnl_set *ref_set(const struct decl_case *c)
{
	const struct lin_set_decl *d = &c->d;
	struct nftnl_set *s = nftnl_set_alloc();

	ck_assert_ptr_nonnull(s);
	nftnl_set_set_str(s, NFTNL_SET_TABLE, c->table);
	nftnl_set_set_str(s, NFTNL_SET_NAME, c->name);
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, d->flags);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, d->key_type);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, d->key_len);
	if (d->has_data) {
		nftnl_set_set_u32(s, NFTNL_SET_DATA_TYPE, d->data_type);
		nftnl_set_set_u32(s, NFTNL_SET_DATA_LEN, d->data_len);
	}
	if (d->has_obj)
		nftnl_set_set_u32(s, NFTNL_SET_OBJ_TYPE, d->obj_type);
	if (d->set_id)
		nftnl_set_set_u32(s, NFTNL_SET_ID, d->set_id);
	if (d->policy)
		nftnl_set_set_u32(s, NFTNL_SET_POLICY, d->policy);
	if (d->size)
		nftnl_set_set_u32(s, NFTNL_SET_DESC_SIZE, d->size);
	if (d->nfields)
		nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT, d->field_len,
				   d->nfields);
	if (d->timeout)
		nftnl_set_set_u64(s, NFTNL_SET_TIMEOUT, d->timeout);
	if (d->gc_int)
		nftnl_set_set_u32(s, NFTNL_SET_GC_INTERVAL, d->gc_int);
	if (nftnl_udata_buf_len(c->ud))
		nftnl_set_set_data(s, NFTNL_SET_USERDATA,
				   nftnl_udata_buf_data(c->ud),
				   nftnl_udata_buf_len(c->ud));
	return s;
}

START_TEST(test_set_decl_random)
{
	static char mine[8192], theirs[8192];
	struct nlmsghdr *a, *b;
	struct decl_case c;
	struct nftnl_set *s;
	unsigned int round, at;

	srandom(12);
	for (round = 0; round < 5000; round++) {
		rnd_decl(&c);
		ck_assert(lin_set_decl_direct(&c.d));
		memset(mine, 0, sizeof(mine));
		memset(theirs, 0, sizeof(theirs));
		a = nftnl_nlmsg_build_hdr(mine, NFT_MSG_NEWSET, NFPROTO_INET,
					  NLM_F_CREATE, round);
		b = nftnl_nlmsg_build_hdr(theirs, NFT_MSG_NEWSET, NFPROTO_INET,
					  NLM_F_CREATE, round);
		lin_set_decl_put(a, &c.d);
		s = ref_set(&c);
		nftnl_set_nlmsg_build_payload(b, s);
		ck_assert_uint_eq(a->nlmsg_len, b->nlmsg_len);
		ck_assert_msg(!memcmp(a, b, a->nlmsg_len),
			      "round %u: message differs", round);
		ck_assert_int_eq(lin_set_decl_check(a, s), 0);
		/* the check must see any changed byte of the payload */
		at = sizeof(struct nlmsghdr) + sizeof(struct nfgenmsg) +
		     rnd(a->nlmsg_len - sizeof(struct nlmsghdr) -
			 sizeof(struct nfgenmsg));
		mine[at] ^= 1 << rnd(8);
		ck_assert_int_eq(lin_set_decl_check(a, s), -EPROTO);
		nftnl_set_free(s);
		/* the object lin_set.c prints with --debug=netlink */
		s = lin_set_decl_object(&c.d, NFPROTO_INET);
		ck_assert_ptr_nonnull(s);
		memset(mine, 0, sizeof(mine));
		a = nftnl_nlmsg_build_hdr(mine, NFT_MSG_NEWSET, NFPROTO_INET,
					  NLM_F_CREATE, round);
		nftnl_set_nlmsg_build_payload(a, s);
		ck_assert(a->nlmsg_len == b->nlmsg_len &&
			  !memcmp(a, b, a->nlmsg_len));
		nftnl_set_free(s);
		nftnl_udata_buf_free(c.ud);
	}
}
END_TEST

/* The finished batch's bytes (the caller frees them). */
static char *batch_bytes(struct nftc_batch *b, size_t *len)
{
	unsigned int i, n = nftc_batch_chunks(b);
	char *all = NULL;
	size_t l, total = 0;
	const void *p;

	for (i = 0; i < n; i++) {
		p = nftc_batch_chunk(b, i, &l);
		all = realloc(all, total + l);
		ck_assert_ptr_nonnull(all);
		memcpy(all + total, p, l);
		total += l;
	}
	*len = total;
	return all;
}

/* @n elements of @klen byte keys, element-wise or key-only. */
static char *elems_batch(unsigned int n, unsigned int klen, bool keys,
			 unsigned int seed, size_t *len)
{
	struct nftc_batch *b = nftc_batch_alloc(1);
	struct lin_elems w;
	struct lin_elem *e = calloc(1, sizeof(*e));
	unsigned int i, j;
	char *bytes;

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(lin_elems_init(&w, b, NFT_MSG_NEWSETELEM,
					NLM_F_CREATE, NFPROTO_IPV4, "t",
					"__set%d", seed % 3 ? seed : 0,
					!keys), 0);
	srandom(seed);
	for (i = 0; i < n; i++) {
		memset(e->key, 0, sizeof(e->key));
		for (j = 0; j < klen; j++)
			e->key[j] = random();
		e->key_len = klen;
		/* interval ends: the flag and the key */
		e->flags = random() % 3 ? 0 : NFT_SET_ELEM_INTERVAL_END;
		if (keys)
			ck_assert_int_eq(lin_elems_put_key(&w, e->flags,
							   e->key, klen), 0);
		else
			ck_assert_int_eq(lin_elems_put(&w, e), 0);
	}
	/* element-wise: with the reference set, checked against libnftnl */
	ck_assert_int_eq(lin_elems_finish(&w, NULL), 0);
	lin_elems_release(&w);
	ck_assert_int_eq(nftc_batch_end(b), 0);
	bytes = batch_bytes(b, len);
	nftc_batch_free(b);
	free(e);
	return bytes;
}

START_TEST(test_elems_key_only)
{
	static const unsigned int counts[] = { 1, 2, 3, 17, 4000, 9000, 20000 };
	unsigned int k, klen;
	size_t la, lb;
	char *a, *b;

	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		klen = 1 + (k * 7 + 3) % NFT_DATA_VALUE_MAXLEN;
		a = elems_batch(counts[k], klen, false, 100 + k, &la);
		b = elems_batch(counts[k], klen, true, 100 + k, &lb);
		ck_assert_uint_eq(la, lb);
		ck_assert_msg(!memcmp(a, b, la), "%u keys of %u bytes differ",
			      counts[k], klen);
		free(a);
		free(b);
	}
}
END_TEST

static Suite *lin_set_msg_suite(void)
{
	Suite *s = suite_create("lin_set_msg");
	TCase *tc = tcase_create("lin_set_msg");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_udata_random);
	tcase_add_test(tc, test_udata_full);
	tcase_add_test(tc, test_set_decl_random);
	tcase_add_test(tc, test_elems_key_only);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lin_set_msg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
