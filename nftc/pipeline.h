/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_PIPELINE_H
#define NFTC_PIPELINE_H

/*
 * The streaming compiler: parse -> evaluate -> linearize one command (one
 * rule inside a table block) at a time, so that a rule is freed as soon
 * as its VM code is in the batch.
 *
 * Streaming is speculative. Whatever it cannot decide as the text goes
 * by (any diagnostic, a rule before a declaration it may depend on, a
 * chain header after rules, list/describe commands) makes it give up;
 * the caller then compiles the file the whole-file way
 * (nftc_parse_file + nftc_evaluate + nftc_linearize), which reports the
 * diagnostics. When it succeeds, batch and debug text are exactly what
 * the whole-file way produces.
 *
 * The parser calls the pipeline_* hooks; all accept a NULL pipeline
 * (whole-file parse) and then do nothing.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "nftc.h"

struct pipeline;
struct nftc_batch;

/*
 * Compile @path in streaming mode with @nft (a fresh context); @data is
 * its text (@size bytes, taken over) when read already (a pipe cannot
 * be read twice), else NULL. Returns 0 with the finished batch
 * (BATCH_END written) in *@batch and the debug text (NFTC_DEBUG_NETLINK)
 * written to @debug_out; or -1 when streaming gave up: nothing was
 * printed, @nft must be discarded and the file be compiled the
 * whole-file way.
 */
int nftc_compile_file_streaming(struct nftc_ctx *nft, const char *path,
				char *data, size_t size, FILE *debug_out,
				struct nftc_batch **batch);

/* Parser hooks (the grammar, nftc/grammar/) */
bool pipeline_failed(const struct pipeline *p);
/* A complete top-level command (taken over). -1: give up parsing. */
int pipeline_cmd(struct pipeline *p, struct cmd *cmd);
/* "table FAMILY NAME" of a block, before its '{'. */
void pipeline_table_begin(struct pipeline *p, const struct handle *h);
/* "chain NAME" of block @decl, before its '{' (@name is borrowed). */
void pipeline_chain_begin(struct pipeline *p, struct table *decl,
			  const char *name, const struct location *nloc);
/*
 * A rule of chain @c: true when the pipeline took it over (compiled and
 * freed it), false when the parser keeps it in @c as usual.
 */
bool pipeline_rule(struct pipeline *p, struct chain *c, struct rule *r);
/* rule_memo.h: the pipeline's rule memo (NULL: none) */
struct rule_memo *pipeline_memo(struct pipeline *p);
/*
 * A message of a rule of chain @c written by the memo: @msg (@len
 * bytes, its sequence number replaced) with the @n patches of @patch
 * written over it, source @loc. 0, or -1 if the pipeline cannot take it
 * now (nothing appended then; with --debug=netlink, any but a rule).
 */
struct pipeline_patch {
	uint32_t	off;
	uint32_t	len;
	const void	*data;
};
int pipeline_memo_emit(struct pipeline *p, struct chain *c,
		       const struct location *loc, const void *msg,
		       uint32_t len, const struct pipeline_patch *patch,
		       unsigned int n);
/*
 * The memo wrote a rule that took @n set ids and @names names of
 * anonymous sets, as pipeline_rule() would.
 */
void pipeline_memo_took_ids(struct pipeline *p, unsigned int n,
			    unsigned int names);
/*
 * The name the @i-th next anonymous set of the block's table would get
 * (anon_names_peek()): its length, -1 if sets keep "__set%d".
 */
int pipeline_memo_set_name(struct pipeline *p, unsigned int i, char *buf,
			   size_t len);
/*
 * End of chain @c of a block (@loc: the whole declaration). true when
 * the pipeline holds @c already: the parser drops its own reference and
 * the name instead of adding @c to the table.
 */
bool pipeline_chain_end(struct pipeline *p, struct chain *c,
			const struct location *loc);
/* A chain header line (type, policy, ...) / table flags or comment. */
void pipeline_chain_attr(struct pipeline *p, const struct chain *c);
void pipeline_table_attr(struct pipeline *p, const struct table *t);

/*
 * parser_state.c: parse @path (its text @data if not NULL, taken over)
 * handing commands to @p, or appending them to @cmds if @p is NULL.
 */
int nftc_parse_file_pipe(struct nftc_ctx *ctx, const char *path,
			 char *data, size_t size, struct list_head *cmds,
			 struct pipeline *p);

#endif
