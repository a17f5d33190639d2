/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the listing's fast paths, without a kernel:
 *  - set dump messages read in place (nftc/delin_set_msg.c) against the
 *    same messages read by libnftnl and nftc_delinearize_set(): random
 *    declarations (key types, maps, flags, timeouts, sizes, policies,
 *    comments and byte orders in user data, handles, ids, a newer
 *    kernel's attribute, padding) must give the same set, printed and
 *    field by field; expressions and concatenations must be left to
 *    libnftnl;
 *  - the listing templates' printers of values from their bytes
 *    (nftc/list_tmpl_print.c) against the types' own printers, for
 *    random and edge IPv4 and IPv6 addresses, ports and address
 *    prefixes.
 * kernel/list-repeated.sh and kernel/list-conformance.sh check both
 * against stock nft on a real kernel.
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
#include <libnftnl/udata.h>

#include "delinearize.h"
#include "list_tmpl_int.h"
#include "printer.h"
#include "rule.h"
#include "value.h"
#include "check_text.h"

/* ---------------------------------------------------- set messages */

static unsigned int rnd(unsigned int n)
{
	return (unsigned int)random() % n;
}

static void put_udata(struct nlmsghdr *nlh)
{
	struct nftnl_udata_buf *ud = nftnl_udata_buf_alloc(256);

	ck_assert_ptr_nonnull(ud);
	if (rnd(2))
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_KEYBYTEORDER,
				    rnd(2) ? BYTEORDER_HOST : BYTEORDER_BIG);
	if (rnd(3) == 0)
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_DATABYTEORDER,
				    BYTEORDER_BIG);
	if (rnd(3) == 0)
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_MERGE_ELEMENTS, 1);
	if (rnd(3) == 0)
		nftnl_udata_put_strz(ud, NFTNL_UDATA_SET_COMMENT,
				     rnd(2) ? "a comment" : "");
	if (nftnl_udata_buf_len(ud))
		mnl_attr_put(nlh, NFTA_SET_USERDATA, nftnl_udata_buf_len(ud),
			     nftnl_udata_buf_data(ud));
	nftnl_udata_buf_free(ud);
}

/*
 * A random set declaration as the kernel dumps it; @extra: 1 adds an
 * expression, 2 concatenation field lengths (both libnftnl's).
 */
static struct nlmsghdr *set_msg(char *buf, int extra)
{
	static const struct datatype *const keys[] = {
		&ipaddr_type, &ip6addr_type, &inet_service_type, &mark_type,
		&integer_type, &ifname_type,
	};
	static const uint8_t families[] = {
		NFPROTO_INET, NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_BRIDGE,
	};
	static const uint32_t flag_bits[] = {
		NFT_SET_ANONYMOUS, NFT_SET_CONSTANT, NFT_SET_INTERVAL,
		NFT_SET_MAP, NFT_SET_TIMEOUT, NFT_SET_EVAL, NFT_SET_OBJECT,
	};
	const struct datatype *k = keys[rnd(6)];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *nest, *el;
	struct nfgenmsg *nfg;
	uint32_t flags = 0;
	unsigned int i;
	char name[16];

	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWSET;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = families[rnd(4)];
	mnl_attr_put_strz(nlh, NFTA_SET_TABLE, rnd(2) ? "t" : "filter");
	snprintf(name, sizeof(name), rnd(2) ? "__set%u" : "s%u", rnd(100));
	mnl_attr_put_strz(nlh, NFTA_SET_NAME, name);
	if (rnd(4))
		mnl_attr_put_u64(nlh, NFTA_SET_HANDLE,
				 htobe64((uint64_t)random() << 8 | rnd(256)));
	for (i = 0; i < 7; i++)
		if (rnd(4) == 0)
			flags |= flag_bits[i];
	mnl_attr_put_u32(nlh, NFTA_SET_FLAGS, htonl(flags));
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_TYPE, htonl(k->type));
	mnl_attr_put_u32(nlh, NFTA_SET_KEY_LEN,
			 htonl(k->size ? k->size / 8 : 16));
	if ((flags & NFT_SET_MAP) && rnd(4)) {
		mnl_attr_put_u32(nlh, NFTA_SET_DATA_TYPE,
				 htonl(rnd(2) ? NFT_DATA_VERDICT :
					ipaddr_type.type));
		mnl_attr_put_u32(nlh, NFTA_SET_DATA_LEN, htonl(rnd(2) ? 4 : 16));
	}
	if (flags & NFT_SET_OBJECT)
		mnl_attr_put_u32(nlh, NFTA_SET_OBJ_TYPE, htonl(1 + rnd(10)));
	if (rnd(3) == 0)
		mnl_attr_put_u32(nlh, NFTA_SET_POLICY, htonl(rnd(2)));
	if (rnd(3) == 0)
		mnl_attr_put_u64(nlh, NFTA_SET_TIMEOUT,
				 htobe64(rnd(2) ? 1000 * (1 + rnd(3600)) : 0));
	if (rnd(3) == 0)
		mnl_attr_put_u32(nlh, NFTA_SET_GC_INTERVAL, htonl(rnd(100000)));
	if (rnd(3) == 0)
		mnl_attr_put_u32(nlh, NFTA_SET_ID, htonl(rnd(1000)));
	if (rnd(2) || extra == 2) {
		nest = mnl_attr_nest_start(nlh, NFTA_SET_DESC);
		if (rnd(2))
			mnl_attr_put_u32(nlh, NFTA_SET_DESC_SIZE,
					 htonl(rnd(1 << 20)));
		if (extra == 2) {
			el = mnl_attr_nest_start(nlh, NFTA_SET_DESC_CONCAT);
			mnl_attr_put_u32(nlh, NFTA_LIST_ELEM, htonl(4));
			mnl_attr_nest_end(nlh, el);
		}
		mnl_attr_nest_end(nlh, nest);
	}
	if (rnd(2))
		put_udata(nlh);
	if (extra == 1) {
		nest = mnl_attr_nest_start(nlh, NFTA_SET_EXPR);
		mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, "counter");
		mnl_attr_nest_end(nlh, nest);
	}
	if (rnd(3) == 0)	/* a newer kernel's NFTA_SET_TYPE */
		mnl_attr_put_strz(nlh, NFTA_SET_MAX + 1, "nft_set_hash");
	if (rnd(5) == 0)
		mnl_attr_put(nlh, NFTA_SET_PAD, 0, NULL);
	return nlh;
}

static char *set_text(const struct set *s)
{
	struct ck_text t;

	nftc_print_set(ck_text_open(&t), s);
	return ck_text_close(&t);
}

static void same_set(const struct set *a, const struct set *b)
{
	char *ta = set_text(a), *tb = set_text(b);

	ck_assert_str_eq(ta, tb);
	ck_assert_uint_eq(a->handle.family, b->handle.family);
	ck_assert_str_eq(a->handle.table.name, b->handle.table.name);
	ck_assert_str_eq(a->handle.set.name, b->handle.set.name);
	ck_assert_int_eq(a->handle.handle.present, b->handle.handle.present);
	ck_assert_uint_eq(a->handle.handle.id, b->handle.handle.id);
	ck_assert_uint_eq(a->handle.set_id, b->handle.set_id);
	ck_assert_uint_eq(a->flags, b->flags);
	ck_assert_uint_eq(a->timeout, b->timeout);
	ck_assert_uint_eq(a->gc_int, b->gc_int);
	ck_assert_uint_eq(a->size, b->size);
	ck_assert_uint_eq(a->policy, b->policy);
	ck_assert_uint_eq(a->objtype, b->objtype);
	ck_assert_int_eq(a->automerge, b->automerge);
	ck_assert_int_eq(!a->comment, !b->comment);
	if (a->comment)
		ck_assert_str_eq(a->comment, b->comment);
	ck_assert_int_eq(!a->data, !b->data);
	ck_assert_ptr_eq(a->key->dtype, b->key->dtype);
	ck_assert_uint_eq(a->key->len, b->key->len);
	ck_assert_uint_eq(a->key->byteorder, b->key->byteorder);
	free(ta);
	free(tb);
}

START_TEST(test_set_msg_random)
{
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	struct nftnl_set *nls;
	struct nlmsghdr *nlh;
	struct set *a, *b;
	unsigned int i;
	bool other;

	ck_assert_ptr_nonnull(buf);
	srandom(7);
	for (i = 0; i < 3000; i++) {
		nlh = set_msg(buf, 0);
		a = delin_set_msg(nlh, &other);
		ck_assert(!other);
		ck_assert_ptr_nonnull(a);
		nls = nftnl_set_alloc();
		ck_assert_int_eq(nftnl_set_nlmsg_parse(nlh, nls), 0);
		b = nftc_delinearize_set(nls);
		nftnl_set_free(nls);
		ck_assert_ptr_nonnull(b);
		same_set(a, b);
		set_free(a);
		set_free(b);
	}
	free(buf);
}
END_TEST

START_TEST(test_set_msg_other)
{
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	unsigned int i;
	bool other;

	ck_assert_ptr_nonnull(buf);
	srandom(8);
	for (i = 0; i < 200; i++) {
		other = false;
		ck_assert_ptr_null(delin_set_msg(set_msg(buf, 1 + i % 2),
						 &other));
		ck_assert(other);
	}
	free(buf);
}
END_TEST

/* ------------------------------------------------- value printers */

/* The type's own printing of the @bits wide big endian value @b. */
static char *type_text(const struct datatype *dt, const uint8_t *b,
		       unsigned int bits, int plen)
{
	struct ck_text t;
	struct value v;
	struct expr *e;
	char *buf;

	value_init(&v, bits);
	memcpy(v.data, b, bits / 8);
	e = constant_expr_alloc(&internal_location, dt, BYTEORDER_BIG, bits,
				&v);
	ck_assert_ptr_nonnull(e);
	if (plen >= 0)
		e = prefix_expr_alloc(&internal_location, e, plen);
	ck_assert_ptr_nonnull(e);
	nftc_print_expr(ck_text_open(&t), e);
	buf = ck_text_close(&t);
	expr_free(e);
	return buf;
}

static void random_bytes(uint8_t *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		switch (rnd(8)) {
		case 0:
			b[i] = 0;
			break;
		case 1:
			b[i] = 0xff;
			break;
		default:
			b[i] = rnd(256);
		}
	}
	if (rnd(8) == 0)
		memset(b, rnd(2) ? 0 : 0xff, n);
}

START_TEST(test_fast_values)
{
	static const struct {
		const struct datatype	*dt;
		unsigned int		bits;
	} types[] = {
		{ &ipaddr_type, 32 },
		{ &inet_service_type, 16 },
		{ &ip6addr_type, 128 },
	};
	struct tmpl_span s = { .mode = TMPL_VALUE, .order = BYTEORDER_BIG };
	char buf[TMPL_FAST_MAX], *end, *want;
	unsigned int t, i, n;
	uint8_t b[16];

	srandom(9);
	for (t = 0; t < 3; t++) {
		s.dtype = types[t].dt;
		s.len = types[t].bits;
		s.fast = tmpl_fast_of(s.dtype, s.order, s.len, 0);
		ck_assert_int_ne(s.fast, TMPL_FAST_NONE);
		n = s.len / 8;
		for (i = 0; i < 20000; i++) {
			random_bytes(b, n);
			if (t == 2 && rnd(3) == 0)	/* zero runs */
				memset(b + rnd(8) * 2, 0, rnd(8) * 2);
			end = tmpl_span_fast_fmt(&s, buf, b, n);
			ck_assert_ptr_nonnull(end);
			want = type_text(s.dtype, b, s.len, -1);
			ck_assert_uint_eq(end - buf, strlen(want));
			ck_assert(!memcmp(buf, want, end - buf));
			free(want);
		}
		/* not the compare's whole width: not printed so */
		ck_assert_ptr_null(tmpl_span_fast_fmt(&s, buf, b, n - 1));
	}
	/* service names asked for: the type's printer's */
	ck_assert_int_eq(tmpl_fast_of(&inet_service_type, BYTEORDER_BIG, 16,
				      NFTC_OUTPUT_SERVICE), TMPL_FAST_NONE);
	ck_assert_int_eq(tmpl_fast_of(&mark_type, BYTEORDER_HOST, 32, 0),
			 TMPL_FAST_NONE);
}
END_TEST

START_TEST(test_fast_prefixes)
{
	struct tmpl_span s = { .mode = TMPL_PREFIX, .order = BYTEORDER_BIG };
	char buf[TMPL_FAST_MAX], *end, *want;
	unsigned int t, i, n, nb;
	uint8_t b[16], full[16];

	srandom(10);
	for (t = 0; t < 2; t++) {
		s.dtype = t ? &ip6addr_type : &ipaddr_type;
		s.len = t ? 128 : 32;
		nb = s.len / 8;
		s.fast = tmpl_fast_of(s.dtype, s.order, s.len, 0);
		for (i = 0; i < 20000; i++) {
			s.plen = rnd(s.len + 1);
			n = (s.plen + 7) / 8;
			random_bytes(b, nb);
			if (s.plen % 8)
				b[n - 1] &= 0xff << (8 - s.plen % 8);
			memset(full, 0, sizeof(full));
			memcpy(full, b, n);
			end = tmpl_span_fast_fmt(&s, buf, b, n);
			ck_assert_ptr_nonnull(end);
			want = type_text(s.dtype, full, s.len, s.plen);
			ck_assert_uint_eq(end - buf, strlen(want));
			ck_assert(!memcmp(buf, want, end - buf));
			free(want);
		}
	}
}
END_TEST

static Suite *list_fast_suite(void)
{
	Suite *s = suite_create("list_fast");
	TCase *tc = tcase_create("list_fast");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_set_msg_random);
	tcase_add_test(tc, test_set_msg_other);
	tcase_add_test(tc, test_fast_values);
	tcase_add_test(tc, test_fast_prefixes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(list_fast_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
