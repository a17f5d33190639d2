/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of nftc/seq_locs.c: the compact message -> source records. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "seq_locs.h"

static const struct input_desc in_a, in_b;
static const struct cmd *const cmd_x = (const struct cmd *)&in_a;

static unsigned int base_offset(unsigned int i)
{
	return i * 57 + (i % 13) * 5;
}

static unsigned int base_last(unsigned int i)
{
	return 40 + (i * 31) % 200;
}

/*
 * Record @i of a made-up file: mostly one rule a line, with jumps back
 * and forth, spans over several lines, other inputs and commands, and
 * values near the 32-bit limit, so every flag and sign is taken.
 */
static void make(unsigned int i, const struct cmd **cmd,
		 struct location *l)
{
	memset(l, 0, sizeof(*l));
	*cmd = i % 7 == 3 ? cmd_x : NULL;
	l->indesc = i % 50 == 49 ? &in_b : &in_a;
	l->first_line = i + 2 - (i % 11 == 5 ? 3 : 0);
	/* every third on the line after the one before */
	l->line_offset = i % 3 == 1 ? base_offset(i - 1) + base_last(i - 1) + 1 :
				      base_offset(i);
	l->first_column = i % 9 == 0 ? 17 : 3;
	l->last_line = l->first_line + (i % 17 == 4 ? 2 : 0);
	l->last_column = base_last(i);
	if (i == 200) {
		l->line_offset = 0xfffffff0u;
		l->first_line = 0xffffffffu;
		l->last_line = 1;
		l->first_column = 0xffffffffu;
	}
	if (i == 201)
		memset(l, 0, sizeof(*l));
}

static void check_all(const struct seq_locs *s, unsigned int n,
		      unsigned int from)
{
	const struct cmd *cmd, *want_cmd;
	struct location l, want;
	unsigned int i;

	ck_assert_uint_eq(s->n, n);
	for (i = 0; i < n; i++) {
		make(from + i, &want_cmd, &want);
		ck_assert(seq_locs_get(s, i, &cmd, &l));
		ck_assert_ptr_eq(cmd, want_cmd);
		ck_assert_ptr_eq(l.indesc, want.indesc);
		ck_assert_uint_eq(l.line_offset, want.line_offset);
		ck_assert_uint_eq(l.first_line, want.first_line);
		ck_assert_uint_eq(l.first_column, want.first_column);
		ck_assert_uint_eq(l.last_line, want.last_line);
		ck_assert_uint_eq(l.last_column, want.last_column);
	}
	ck_assert(!seq_locs_get(s, n, &cmd, &l));
	ck_assert(!seq_locs_get(s, (unsigned int)-1, &cmd, &l));
}

static void fill(struct seq_locs *s, unsigned int from, unsigned int n)
{
	const struct cmd *cmd;
	struct location l;
	unsigned int i;

	for (i = from; i < from + n; i++) {
		make(i, &cmd, &l);
		ck_assert_int_eq(seq_locs_add(s, cmd, &l), 0);
	}
}

START_TEST(test_round_trip)
{
	struct seq_locs s = { 0 };

	fill(&s, 0, 1000);
	check_all(&s, 1000, 0);
	/* a rule a line costs a few bytes, not a struct location */
	ck_assert_uint_lt(s.len, 1000 * 8);
	ck_assert_uint_eq(s.nmarks, (1000 + SEQ_LOCS_SPAN - 1) /
				    SEQ_LOCS_SPAN);
	seq_locs_clear(&s);
	check_all(&s, 0, 0);
	fill(&s, 0, 3);
	check_all(&s, 3, 0);
	seq_locs_free(&s);
}
END_TEST

/* A rule a line, each to its line's end: one byte, its last column. */
START_TEST(test_compact)
{
	struct seq_locs s = { 0 };
	struct location l = { .indesc = &in_a, .first_column = 9 };
	const struct cmd *cmd;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		l.line_offset += l.last_column + 1;
		l.first_line = l.last_line = i + 3;
		l.last_column = 30 + i % 90;	/* below 128 */
		ck_assert_int_eq(seq_locs_add(&s, NULL, &l), 0);
	}
	/* the marks start over: pointer, line, offset, column again */
	ck_assert_uint_le(s.len, 1000 + s.nmarks * 16);
	ck_assert(seq_locs_get(&s, 999, &cmd, &l));
	ck_assert_uint_eq(l.first_line, 1002);
	ck_assert_uint_eq(l.last_column, 30 + 999 % 90);
	seq_locs_free(&s);
}
END_TEST

/* Join both ways: the big side's memory is kept, the order is not. */
static void join(unsigned int na, unsigned int nb)
{
	struct seq_locs a = { 0 }, b = { 0 };

	fill(&a, 0, na);
	fill(&b, na, nb);
	ck_assert_int_eq(seq_locs_join(&a, &b), 0);
	ck_assert_uint_eq(b.n, 0);
	ck_assert_ptr_null(b.buf);
	/* appending goes on against the joined records */
	fill(&a, na + nb, 150);
	check_all(&a, na + nb + 150, 0);
	seq_locs_free(&a);
}

START_TEST(test_join)
{
	join(3, 700);
	join(700, 3);
	join(64, 64);
	join(0, 130);
	join(130, 0);
}
END_TEST

static Suite *seq_locs_suite(void)
{
	Suite *s = suite_create("seq_locs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_compact);
	tcase_add_test(tc, test_join);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(seq_locs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
