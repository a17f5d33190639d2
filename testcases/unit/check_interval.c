/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of nftc/interval.c: interval set normalisation (merge,
 * overlap detection, smaller-range-wins splitting for maps) and the
 * start/end element expansion for the rbtree backend.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "interval.h"
#include "erec.h"

#define W 16	/* key width in bits (inet_service like) */

/* Each element gets a distinct column so diagnostics can be checked. */
static struct location col_loc(unsigned int col)
{
	struct location l = { 0 };

	l.first_line = l.last_line = 1;
	l.first_column = col;
	l.last_column = col;
	return l;
}

static struct expr *val(unsigned int col, uint64_t n)
{
	struct location l = col_loc(col);

	return constant_expr_u64(&l, &integer_type, BYTEORDER_BIG, W, n);
}

static struct expr *range(unsigned int col, uint64_t lo, uint64_t hi)
{
	struct location l = col_loc(col);
	struct expr *r = range_expr_alloc(&l, val(col, lo), val(col, hi));

	r->dtype = &integer_type;
	r->len = W;
	r->byteorder = BYTEORDER_BIG;
	return r;
}

static struct expr *elem(struct expr *key)
{
	return set_elem_expr_alloc(&key->location, key);
}

static struct expr *mapping(struct expr *key, uint64_t data)
{
	return mapping_expr_alloc(&key->location, elem(key),
				  constant_expr_u64(NULL, &integer_type,
						    BYTEORDER_HOST, 32, data));
}

static struct expr *set_of(struct expr **e, unsigned int n)
{
	struct expr *s = list_expr_alloc(NULL, EXPR_SET);
	unsigned int k;

	for (k = 0; k < n; k++)
		list_expr_add(s, e[k]->kind == EXPR_MAPPING ? e[k] :
				 elem(e[k]));
	return s;
}

/* Bounds and data of element @k of @s; data is 0 for plain elements. */
static void get_elem(const struct expr *s, unsigned int k, uint64_t *lo,
		     uint64_t *hi, uint64_t *data)
{
	const struct expr *i;
	struct value l, h;

	list_for_each_entry(i, &s->expressions, list) {
		if (k-- > 0)
			continue;
		ck_assert_int_eq(interval_key_range(interval_elem(i)->elem.key,
						    &l, &h), 0);
		ck_assert_int_eq(interval_elem(i)->elem.key->kind, EXPR_RANGE);
		*lo = value_get_u64(&l);
		*hi = value_get_u64(&h);
		*data = i->kind == EXPR_MAPPING ?
			value_get_u64(&i->pair.right->value) : 0;
		return;
	}
	ck_abort_msg("element %u missing", k);
}

static void assert_elem(const struct expr *s, unsigned int k, uint64_t lo,
			uint64_t hi, uint64_t data)
{
	uint64_t l, h, d;

	get_elem(s, k, &l, &h, &d);
	ck_assert_uint_eq(l, lo);
	ck_assert_uint_eq(h, hi);
	ck_assert_uint_eq(d, data);
}

static const struct error_record *first_error(const struct erec_queue *q)
{
	ck_assert(!list_empty(&q->records));
	return list_first_entry(&q->records, struct error_record, list);
}

START_TEST(test_merge)
{
	struct expr *e[] = {
		range(1, 21, 30), range(2, 10, 20), val(3, 25), val(4, 40),
		range(5, 41, 50), val(6, 100), range(7, 90, 110),
	};
	struct expr *s = set_of(e, 7);
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_MERGE), 0);
	ck_assert_uint_eq(list_count(&s->expressions), 3);
	ck_assert_uint_eq(s->size, 3);
	assert_elem(s, 0, 10, 30, 0);
	assert_elem(s, 1, 40, 50, 0);
	assert_elem(s, 2, 90, 110, 0);
	ck_assert(list_empty(&q.records));
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_prefix_to_range)
{
	struct value v, lo, hi;
	struct expr *p;

	value_set_u64(&v, 32, 0x0a010203);	/* 10.1.2.3/8 */
	p = prefix_expr_alloc(NULL, constant_expr_alloc(NULL, &integer_type,
							BYTEORDER_BIG, 32, &v),
			      8);
	ck_assert_int_eq(interval_key_range(p, &lo, &hi), 0);
	ck_assert_uint_eq(value_get_u64(&lo), 0x0a000000);
	ck_assert_uint_eq(value_get_u64(&hi), 0x0affffff);
	expr_free(p);
}
END_TEST

START_TEST(test_overlap_error)
{
	struct expr *e[] = { range(1, 10, 20), range(2, 21, 30), val(3, 25) };
	struct expr *s = set_of(e, 3);
	const struct error_record *er;
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_lt(interval_set_normalize(&q, s, INTERVAL_CHECK), 0);
	er = first_error(&q);
	ck_assert_str_eq(er->msg, "conflicting intervals specified");
	/* located at the later element of the sorted pair */
	ck_assert_uint_eq(er->loc.first_column, 3);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_check_adjacent_and_duplicates)
{
	struct expr *e[] = { range(1, 21, 30), range(2, 10, 20),
			     range(3, 10, 20) };
	struct expr *s = set_of(e, 3);
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_CHECK), 0);
	/* not merged, identical ranges kept, sorted stably */
	ck_assert_uint_eq(list_count(&s->expressions), 3);
	assert_elem(s, 0, 10, 20, 0);
	assert_elem(s, 1, 10, 20, 0);
	assert_elem(s, 2, 21, 30, 0);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_map_split)
{
	struct expr *e[] = {
		mapping(range(1, 10, 30), 1), mapping(range(2, 15, 20), 2),
		mapping(range(3, 100, 200), 3), mapping(val(4, 100), 4),
		mapping(val(5, 200), 5),
	};
	struct expr *s = set_of(e, 5);
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_SPLIT), 0);
	ck_assert_uint_eq(list_count(&s->expressions), 6);
	assert_elem(s, 0, 10, 14, 1);
	assert_elem(s, 1, 15, 20, 2);
	assert_elem(s, 2, 21, 30, 1);
	assert_elem(s, 3, 100, 100, 4);
	assert_elem(s, 4, 101, 199, 3);
	assert_elem(s, 5, 200, 200, 5);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_map_split_edges)
{
	/* nested at both ends of the key space */
	struct expr *e[] = {
		mapping(range(1, 0, 0xffff), 1), mapping(range(2, 0, 10), 2),
		mapping(range(3, 0xfff0, 0xffff), 3),
		mapping(range(4, 5, 6), 4),
	};
	struct expr *s = set_of(e, 4);
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_SPLIT), 0);
	ck_assert_uint_eq(list_count(&s->expressions), 5);
	assert_elem(s, 0, 0, 4, 2);
	assert_elem(s, 1, 5, 6, 4);
	assert_elem(s, 2, 7, 10, 2);
	assert_elem(s, 3, 11, 0xffef, 1);
	assert_elem(s, 4, 0xfff0, 0xffff, 3);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_map_partial_overlap)
{
	struct expr *e[] = { mapping(range(1, 10, 20), 1),
			     mapping(range(2, 15, 30), 2) };
	struct expr *s = set_of(e, 2);
	const struct error_record *er;
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_lt(interval_set_normalize(&q, s, INTERVAL_SPLIT), 0);
	er = first_error(&q);
	ck_assert_str_eq(er->msg, "conflicting intervals specified");
	ck_assert_uint_eq(er->loc.first_column, 2);
	/* the set is left as it was */
	ck_assert_uint_eq(list_count(&s->expressions), 2);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_map_same_range_different_data)
{
	struct expr *e[] = { mapping(range(1, 10, 20), 1),
			     mapping(range(2, 10, 20), 2),
			     mapping(range(3, 30, 40), 3),
			     mapping(range(4, 30, 40), 3) };
	struct expr *s = set_of(e, 2);
	struct expr *t = set_of(e + 2, 2);
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_lt(interval_set_normalize(&q, s, INTERVAL_SPLIT), 0);
	/* identical range and data: a duplicate, kept once */
	ck_assert_int_eq(interval_set_normalize(&q, t, INTERVAL_SPLIT), 0);
	ck_assert_uint_eq(list_count(&t->expressions), 1);
	assert_elem(t, 0, 30, 40, 3);
	expr_free(s);
	expr_free(t);
	erec_queue_free(&q);
}
END_TEST

static void assert_point(const struct interval_point *p, uint64_t key,
			 bool end, bool open)
{
	ck_assert_uint_eq(value_get_u64(&p->key), key);
	ck_assert_int_eq(p->end, end);
	ck_assert_int_eq(p->open, open);
	ck_assert(end ? p->elem == NULL : p->elem != NULL);
}

START_TEST(test_expand_anonymous)
{
	struct expr *e[] = { range(1, 0x0100, 0x01ff), range(2, 0x0300,
							       0x03ff) };
	struct expr *s = set_of(e, 2);
	struct interval_point *p;
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_MERGE), 0);
	ck_assert_int_eq(interval_expand(s, INTERVAL_F_ANONYMOUS |
					 INTERVAL_F_FIRST, &p), 5);
	assert_point(&p[0], 0, true, false);
	assert_point(&p[1], 0x0100, false, false);
	assert_point(&p[2], 0x0200, true, false);
	assert_point(&p[3], 0x0300, false, false);
	assert_point(&p[4], 0x0400, true, false);
	free(p);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_expand_adjacent)
{
	struct expr *e[] = { mapping(range(1, 10, 20), 1),
			     mapping(range(2, 21, 30), 2) };
	struct expr *s = set_of(e, 2);
	struct interval_point *p;
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_CHECK), 0);
	/* named: an end element between adjacent ranges */
	ck_assert_int_eq(interval_expand(s, INTERVAL_F_FIRST, &p), 5);
	assert_point(&p[0], 0, true, false);
	assert_point(&p[1], 10, false, false);
	assert_point(&p[2], 21, true, false);
	assert_point(&p[3], 21, false, false);
	assert_point(&p[4], 31, true, false);
	free(p);
	/* anonymous: none */
	ck_assert_int_eq(interval_expand(s, INTERVAL_F_FIRST |
					 INTERVAL_F_ANONYMOUS, &p), 4);
	assert_point(&p[2], 21, false, false);
	assert_point(&p[3], 31, true, false);
	free(p);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

START_TEST(test_expand_open_and_zero)
{
	struct expr *e[] = { val(1, 0xffff), range(2, 0, 20) };
	struct expr *s = set_of(e, 2);
	struct interval_point *p;
	struct erec_queue q;

	erec_queue_init(&q, 10);
	ck_assert_int_eq(interval_set_normalize(&q, s, INTERVAL_MERGE), 0);
	/* starts at zero: no leading end; runs to the top: open, no end */
	ck_assert_int_eq(interval_expand(s, INTERVAL_F_ANONYMOUS |
					 INTERVAL_F_FIRST, &p), 3);
	assert_point(&p[0], 0, false, false);
	assert_point(&p[1], 21, true, false);
	assert_point(&p[2], 0xffff, false, true);
	free(p);
	/* no first segment for additions to a populated set */
	ck_assert_int_eq(interval_expand(s, 0, &p), 3);
	free(p);
	expr_free(s);
	erec_queue_free(&q);
}
END_TEST

static Suite *interval_suite(void)
{
	Suite *s = suite_create("interval");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_prefix_to_range);
	tcase_add_test(tc, test_overlap_error);
	tcase_add_test(tc, test_check_adjacent_and_duplicates);
	tcase_add_test(tc, test_map_split);
	tcase_add_test(tc, test_map_split_edges);
	tcase_add_test(tc, test_map_partial_overlap);
	tcase_add_test(tc, test_map_same_range_different_data);
	tcase_add_test(tc, test_expand_anonymous);
	tcase_add_test(tc, test_expand_adjacent);
	tcase_add_test(tc, test_expand_open_and_zero);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(interval_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
