/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rule memo: compiled rule templates for "nft -f" (rule_memo.c).
 *
 * The scanner reads a rule line of a chain body as tokens first; a line
 * of a shape compiled before (same tokens but for literal values) is
 * written from the rule message kept then, each value converted as the
 * evaluator converts it; any other line is given to the parser as read.
 * NFTKIT_RULE_MEMO=0 turns it off.
 */
#ifndef NFTC_RULE_MEMO_H
#define NFTC_RULE_MEMO_H

#include <stdint.h>
#include "expr.h"
#include "datatype.h"

#define RULE_MEMO_ENV	"NFTKIT_RULE_MEMO"

struct rule_memo;
struct pipeline;
struct parser_state;
struct chain;
struct rule;
struct nftc_batch;
struct nftc_ctx;

struct rule_memo *rule_memo_new(struct nftc_ctx *nft, struct pipeline *p);
void rule_memo_free(struct rule_memo *m);
void rule_memo_attach(struct rule_memo *m, struct parser_state *state);

/* grammar: the parser is at the start of a line of @chain's body */
void rule_memo_arm(struct rule_memo *m, struct chain *chain);
/* grammar: anything but a rule in a chain body, or its end */
void rule_memo_clear(struct rule_memo *m);

/* the parser's scanner when a memo is attached (scanner.l) */
int rule_memo_lex(struct rule_memo *m, void *lval, struct location *lloc);

/*
 * pipeline.c: around the full compile of rule @r of @c, whose messages
 * go to the end of segment @seg (NULL: a new one)
 */
void rule_memo_rule_begin(struct rule_memo *m, const struct chain *c,
			  const struct rule *r, const struct nftc_batch *seg);
/* @seg: where its messages went, NULL if it failed */
void rule_memo_rule_end(struct rule_memo *m, const struct nftc_batch *seg);

/* recording notes from the evaluator and the linearizer */
struct rule_memo_rec;
void rule_memo_note_sym(struct rule_memo_rec *rec,
			const struct location *loc,
			const struct datatype *dtype, unsigned int len,
			enum byteorder bo, const struct expr *res);
void rule_memo_note_cmp(struct rule_memo_rec *rec, uint32_t off,
			uint32_t len);

/* scanner.l */
int nft_lex_raw(void *lval, struct location *lloc, void *scanner);

#endif
