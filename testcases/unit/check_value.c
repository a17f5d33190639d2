/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of nftc/value.c: canonical fixed-width numbers. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "value.h"

START_TEST(test_set_get)
{
	struct value v;

	value_set_u64(&v, 32, 0x11223344);
	ck_assert_uint_eq(v.len, 32);
	ck_assert_uint_eq(v.data[0], 0x11);
	ck_assert_uint_eq(v.data[3], 0x44);
	ck_assert_uint_eq(value_get_u64(&v), 0x11223344);

	/* Truncation to the width, also for odd widths. */
	value_set_u64(&v, 12, 0xfffff);
	ck_assert_uint_eq(value_get_u64(&v), 0xfff);
	ck_assert_uint_eq(v.data[0], 0x0f);

	value_set_u64(&v, 128, 5);
	ck_assert_uint_eq(v.data[15], 5);
	ck_assert(!value_is_zero(&v));
	value_init(&v, 128);
	ck_assert(value_is_zero(&v));
}
END_TEST

START_TEST(test_bytes_resize)
{
	static const uint8_t be[] = { 0x0a, 0x00, 0x00, 0x01 };
	struct value v;

	value_set_bytes(&v, 32, be);
	ck_assert_uint_eq(value_get_u64(&v), 0x0a000001);
	value_resize(&v, 16);
	ck_assert_uint_eq(value_get_u64(&v), 0x0001);
	value_resize(&v, 64);
	ck_assert_uint_eq(value_get_u64(&v), 1);
	ck_assert_uint_eq(v.len, 64);

	/* Strings keep their leading bytes. */
	value_set_bytes(&v, 32, "eth0");
	value_resize_bytes(&v, 128);
	ck_assert_int_eq(memcmp(v.data, "eth0\0\0\0\0", 8), 0);
	ck_assert_uint_eq(v.len, 128);
}
END_TEST

START_TEST(test_cmp)
{
	struct value a, b;

	value_set_u64(&a, 32, 1);
	value_set_u64(&b, 32, 2);
	ck_assert_int_lt(value_cmp(&a, &b), 0);
	ck_assert_int_gt(value_cmp(&b, &a), 0);
	value_set_u64(&b, 64, 1);
	ck_assert_int_eq(value_cmp(&a, &b), 0);
	value_set_u64(&a, 128, 0);
	value_set_bit(&a, 127);
	ck_assert_int_gt(value_cmp(&a, &b), 0);
}
END_TEST

START_TEST(test_inc_dec)
{
	struct value v;

	value_set_u64(&v, 16, 0x00ff);
	ck_assert(!value_inc(&v));
	ck_assert_uint_eq(value_get_u64(&v), 0x0100);

	value_set_u64(&v, 16, 0xffff);
	ck_assert(value_inc(&v));
	ck_assert(value_is_zero(&v));

	value_set_u64(&v, 4, 0xf);
	ck_assert(value_inc(&v));
	ck_assert_uint_eq(value_get_u64(&v), 0);

	ck_assert(value_dec(&v));
	ck_assert_uint_eq(value_get_u64(&v), 0xf);
	ck_assert(!value_dec(&v));
	ck_assert_uint_eq(value_get_u64(&v), 0xe);

	value_set_u64(&v, 32, 0x100);
	ck_assert(!value_dec(&v));
	ck_assert_uint_eq(value_get_u64(&v), 0xff);
}
END_TEST

START_TEST(test_bitops)
{
	struct value a, b, r;

	value_set_u64(&a, 32, 0xff00ff00);
	value_set_u64(&b, 32, 0x0ff00ff0);
	value_and(&r, &a, &b);
	ck_assert_uint_eq(value_get_u64(&r), 0x0f000f00);
	value_or(&r, &a, &b);
	ck_assert_uint_eq(value_get_u64(&r), 0xfff0fff0);
	value_xor(&r, &a, &b);
	ck_assert_uint_eq(value_get_u64(&r), 0xf0f0f0f0);
	value_not(&r, &a);
	ck_assert_uint_eq(value_get_u64(&r), 0x00ff00ff);

	/* Aliasing the result with an operand. */
	value_and(&a, &a, &b);
	ck_assert_uint_eq(value_get_u64(&a), 0x0f000f00);

	value_set_u64(&a, 6, 0x3f);
	value_not(&r, &a);
	ck_assert(value_is_zero(&r));
	ck_assert_uint_eq(value_popcount(&a), 6);
}
END_TEST

START_TEST(test_shift)
{
	struct value v;

	value_set_u64(&v, 32, 0x12345678);
	value_shl(&v, 4);
	ck_assert_uint_eq(value_get_u64(&v), 0x23456780);
	value_shr(&v, 12);
	ck_assert_uint_eq(value_get_u64(&v), 0x00023456);
	value_shl(&v, 32);
	ck_assert(value_is_zero(&v));

	value_set_u64(&v, 128, 1);
	value_shl(&v, 100);
	ck_assert(value_test_bit(&v, 100));
	ck_assert_uint_eq(value_popcount(&v), 1);
	value_shr(&v, 99);
	ck_assert_uint_eq(value_get_u64(&v), 2);

	value_set_u64(&v, 12, 0xabc);
	value_shl(&v, 4);
	ck_assert_uint_eq(value_get_u64(&v), 0xbc0);
}
END_TEST

START_TEST(test_prefix)
{
	struct value v;

	value_prefix_mask(&v, 32, 24);
	ck_assert_uint_eq(value_get_u64(&v), 0xffffff00);
	ck_assert_int_eq(value_mask_to_prefix(&v), 24);
	value_prefix_mask(&v, 32, 0);
	ck_assert_int_eq(value_mask_to_prefix(&v), 0);
	value_prefix_mask(&v, 128, 128);
	ck_assert_int_eq(value_mask_to_prefix(&v), 128);
	ck_assert_uint_eq(value_popcount(&v), 128);
	value_set_u64(&v, 32, 0xff00ff00);
	ck_assert_int_eq(value_mask_to_prefix(&v), -1);
	value_set_u64(&v, 32, 0x0000ffff);
	ck_assert_int_eq(value_mask_to_prefix(&v), -1);
}
END_TEST

START_TEST(test_reg)
{
	uint8_t buf[16];
	struct value v;

	value_set_u64(&v, 32, 0x0a000001);
	value_to_reg(&v, BYTEORDER_BIG, buf, 4);
	ck_assert_uint_eq(buf[0], 0x0a);
	ck_assert_uint_eq(buf[3], 0x01);
	value_to_reg(&v, BYTEORDER_HOST, buf, 4);
	ck_assert_uint_eq(buf[0], 0x01);
	ck_assert_uint_eq(buf[3], 0x0a);

	/* A wider register is zero padded after the data. */
	value_set_u64(&v, 16, 0x0016);
	memset(buf, 0xaa, sizeof(buf));
	value_to_reg(&v, BYTEORDER_BIG, buf, 4);
	ck_assert_uint_eq(buf[0], 0x00);
	ck_assert_uint_eq(buf[1], 0x16);
	ck_assert_uint_eq(buf[2], 0x00);

	value_from_reg(&v, 32, BYTEORDER_HOST, (const uint8_t *)"\x01\x02\x03\x04");
	ck_assert_uint_eq(value_get_u64(&v), 0x04030201);
	value_from_reg(&v, 32, BYTEORDER_BIG, (const uint8_t *)"\x01\x02\x03\x04");
	ck_assert_uint_eq(value_get_u64(&v), 0x01020304);
}
END_TEST

START_TEST(test_fits_dec)
{
	char buf[200];
	struct value v;

	value_set_u64(&v, 64, 4294967296ULL);
	ck_assert(!value_fits(&v, 32));
	ck_assert(value_fits(&v, 33));
	value_to_dec(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4294967296");

	value_init(&v, 128);
	value_to_dec(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0");

	value_prefix_mask(&v, 128, 128);
	value_to_dec(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "340282366920938463463374607431768211455");
}
END_TEST

static Suite *value_suite(void)
{
	Suite *s = suite_create("value");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_set_get);
	tcase_add_test(tc, test_bytes_resize);
	tcase_add_test(tc, test_cmp);
	tcase_add_test(tc, test_inc_dec);
	tcase_add_test(tc, test_bitops);
	tcase_add_test(tc, test_shift);
	tcase_add_test(tc, test_prefix);
	tcase_add_test(tc, test_reg);
	tcase_add_test(tc, test_fits_dec);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(value_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
