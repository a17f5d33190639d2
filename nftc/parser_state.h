/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_PARSER_STATE_H
#define NFTC_PARSER_STATE_H

#include <stdint.h>
#include <stdbool.h>
#include "nftc.h"
#include "expr.h"
#include "rule.h"

#define MAX_INCLUDE_DEPTH	16

/**
 * struct scanner_input - one buffer on the scanner's include stack
 * @buffer: flex buffer (YY_BUFFER_STATE, opaque here)
 * @indesc: the text being scanned
 * @line: current line (1-based)
 * @line_offset: byte offset of the current line's start in indesc->data
 * @offset: byte offset of the next character to scan
 * @eof_sent: the synthetic end-of-input newline was returned
 */
struct scanner_input {
	void			*buffer;
	struct input_desc	*indesc;
	unsigned int		line;
	unsigned int		line_offset;
	unsigned int		offset;
	bool			eof_sent;
};

/**
 * struct symbol - a "define" binding
 */
struct symbol {
	struct list_head	list;
	char			*name;
	struct expr		*expr;
};

/**
 * struct parser_state - state of one parse (file or buffer)
 * @nft: compiler context (erq, inputs, include paths)
 * @erq: where diagnostics go (&nft->erq)
 * @cmds: where parsed commands are appended
 * @scanner: the reentrant flex scanner (yyscan_t)
 * @inputs: include stack, @depth entries in use
 * @symbols: define bindings, global to the parse
 * @aborted: max_errors reached, stop
 */
struct parser_state {
	struct nftc_ctx		*nft;
	struct erec_queue	*erq;
	struct list_head	*cmds;
	void			*scanner;
	struct scanner_input	inputs[MAX_INCLUDE_DEPTH];
	unsigned int		depth;
	struct list_head	symbols;
	bool			aborted;
};

/* parser_state.c */
void parser_state_init(struct parser_state *state, struct nftc_ctx *nft,
		       struct list_head *cmds);
void parser_state_fini(struct parser_state *state);
struct symbol *symbol_lookup(struct parser_state *state, const char *name);
int symbol_bind(struct parser_state *state, const char *name,
		struct expr *expr);
int symbol_unbind(struct parser_state *state, const char *name);
/* Register a new input with the context; it owns @data. */
struct input_desc *parser_input_add(struct parser_state *state,
				    enum input_kind kind, const char *name,
				    char *data, size_t size);
/* Read a whole file; NULL with errno on failure. */
char *parser_read_file(const char *path, size_t *size);

int parse_time_ms(const char *s, uint64_t *ms);
int parse_u64(const char *s, uint64_t *n);
int parse_byte_unit(const char *s, uint64_t *mult);
int parse_time_unit(const char *s, uint64_t *secs);
int parse_log_level(const char *s, uint32_t *level);

/* scanner.l */
int scanner_init(struct parser_state *state);
void scanner_destroy(struct parser_state *state);
int scanner_push_buffer(struct parser_state *state,
			struct input_desc *indesc);
/* include "pattern": resolve, glob, push each file (in reverse). */
int scanner_include(struct parser_state *state, const char *pattern,
		    const struct location *loc);

/* parser.y */
int nft_parse(struct parser_state *state, void *scanner);

#endif
