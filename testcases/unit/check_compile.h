/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nft text compiled for the unit tests that read its batch back
 * (check_delinearize.c, check_delin_msg.c, check_compat.c): parsed,
 * evaluated and linearized with the built-in resolver (no name service)
 * into one ended batch. Any error fails the test, its messages printed
 * to stderr first.
 */
#ifndef CHECK_COMPILE_H
#define CHECK_COMPILE_H

#include <check.h>
#include <stdio.h>

#include "nftc.h"
#include "linearize.h"

struct ck_compiled {
	struct nftc_ctx		*ctx;
	struct list_head	cmds;
	struct nftc_batch	*batch;
};

static inline void ck_compile(struct ck_compiled *c, const char *text)
{
	init_list_head(&c->cmds);
	c->ctx = nftc_ctx_alloc();
	ck_assert_ptr_nonnull(c->ctx);
	c->ctx->resolver = &nftc_resolver_builtin;
	ck_assert_int_eq(nftc_parse_buffer(c->ctx, text, &c->cmds), 0);
	if (nftc_evaluate(c->ctx, &c->cmds) < 0)
		erec_queue_format(stderr, &c->ctx->erq);
	ck_assert_int_eq(c->ctx->erq.num_errors, 0);
	c->batch = nftc_batch_alloc(1);
	ck_assert_ptr_nonnull(c->batch);
	ck_assert_int_eq(nftc_linearize(c->ctx, &c->cmds, c->batch, NULL), 0);
	ck_assert_int_eq(nftc_batch_end(c->batch), 0);
}

static inline void ck_compiled_free(struct ck_compiled *c)
{
	nftc_batch_free(c->batch);
	cmd_list_free(&c->cmds);
	nftc_ctx_free(c->ctx);
}

#endif
