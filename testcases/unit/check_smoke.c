// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Smoke test of the libnftc entry points: context lifetime, located
 * diagnostics, and the parse -> evaluate -> linearize pipeline on a
 * trivial ruleset and on a syntax error. The per-module unit tests live
 * in the other check_*.c files; this one only proves the wiring works.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nftc.h"
#include "linearize.h"

START_TEST(test_ctx_alloc_free)
{
	struct nftc_ctx *ctx = nftc_ctx_alloc();

	ck_assert_ptr_nonnull(ctx);
	ck_assert_uint_eq(ctx->erq.num_errors, 0);
	ck_assert(list_empty(&ctx->erq.records));
	nftc_ctx_free(ctx);
	nftc_ctx_free(NULL);
}
END_TEST

START_TEST(test_include_path_limit)
{
	struct nftc_ctx *ctx = nftc_ctx_alloc();
	unsigned int i;

	for (i = 0; i < NFTC_MAX_INCLUDE_PATHS; i++)
		ck_assert_int_eq(nftc_add_include_path(ctx, "/tmp"), 0);
	ck_assert_int_eq(nftc_add_include_path(ctx, "/tmp"), -ENOSPC);
	nftc_ctx_free(ctx);
}
END_TEST

/* A diagnostic renders as FILE:LINE:COL-COL, the source line, carets. */
START_TEST(test_erec_format)
{
	struct input_desc in = {
		.kind = INPUT_FILE,
		.name = "x.nft",
		.data = "add rule ip t c bogus\n",
	};
	struct location loc = {
		.indesc = &in,
		.line_offset = 0,
		.first_line = 1, .last_line = 1,
		.first_column = 17, .last_column = 21,
	};
	struct erec_queue q;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	in.size = strlen(in.data);
	erec_queue_init(&q, 2);
	ck_assert_int_eq(erec_error(&q, &loc, "syntax error, %s", "bogus"),
			 -1);
	ck_assert_uint_eq(q.num_errors, 1);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	erec_queue_format(f, &q);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "x.nft:1:17-21: Error: "
					  "syntax error, bogus"));
	ck_assert_ptr_nonnull(strstr(buf, "add rule ip t c bogus"));
	ck_assert_ptr_nonnull(strstr(buf, "^^^^^"));
	free(buf);

	/* Past max_errors the count goes on but no record is kept. */
	erec_error(&q, &loc, "two");
	erec_error(&q, &loc, "three");
	ck_assert_uint_eq(q.num_errors, 3);
	erec_queue_free(&q);
}
END_TEST

static int compile(const char *text, char **debug)
{
	struct nftc_ctx *ctx = nftc_ctx_alloc();
	struct nftc_batch *batch;
	struct list_head cmds;
	size_t len = 0;
	FILE *f;
	int ret;

	ck_assert_ptr_nonnull(ctx);
	init_list_head(&cmds);
	ctx->debug = NFTC_DEBUG_NETLINK;
	*debug = NULL;
	f = open_memstream(debug, &len);
	batch = nftc_batch_alloc(1);
	ret = nftc_parse_buffer(ctx, text, &cmds);
	if (ret == 0)
		ret = nftc_evaluate(ctx, &cmds);
	if (ret == 0)
		ret = nftc_linearize(ctx, &cmds, batch, f);
	if (ret == 0)
		ret = nftc_batch_end(batch);
	fclose(f);
	if (ret < 0)
		ck_assert_uint_gt(ctx->erq.num_errors, 0);
	cmd_list_free(&cmds);
	nftc_batch_free(batch);
	nftc_ctx_free(ctx);
	return ret;
}

START_TEST(test_pipeline_accepts)
{
	char *out;

	ck_assert_int_eq(compile("table ip t {\n"
				 "\tchain c {\n"
				 "\t\ttype filter hook input priority 0;\n"
				 "\t\ttcp dport 22 accept\n"
				 "\t}\n"
				 "}\n", &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "[ payload load 2b @ transport "
					  "header + 2 => reg 1 ]"));
	ck_assert_ptr_nonnull(strstr(out, "[ immediate reg 0 accept ]"));
	free(out);
}
END_TEST

START_TEST(test_pipeline_rejects)
{
	char *out;

	ck_assert_int_lt(compile("table ip t { chain c { tcp dport } }\n",
				 &out), 0);
	free(out);
	ck_assert_int_lt(compile("table ip t {\n", &out), 0);
	free(out);
}
END_TEST

static Suite *smoke_suite(void)
{
	Suite *s = suite_create("smoke");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ctx_alloc_free);
	tcase_add_test(tc, test_include_path_limit);
	tcase_add_test(tc, test_erec_format);
	suite_add_tcase(s, tc);

	tc = tcase_create("pipeline");
	tcase_add_test(tc, test_pipeline_accepts);
	tcase_add_test(tc, test_pipeline_rejects);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(smoke_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
