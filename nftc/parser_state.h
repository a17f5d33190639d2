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
 * @ahead: a mapped file's text is read up to here (input_map.h)
 * @kept: ... and given back before here
 */
struct scanner_input {
	void			*buffer;
	struct input_desc	*indesc;
	unsigned int		line;
	unsigned int		line_offset;
	unsigned int		offset;
	bool			eof_sent;
	unsigned int		ahead;
	unsigned int		kept;
};

/**
 * struct symbol - a "define" binding
 */
struct symbol {
	struct list_head	list;
	char			*name;
	struct expr		*expr;
};

#define PARSER_SELECTOR_MEMO	64
/* table, chain and anonymous chain blocks open at once, as stock */
#define PARSER_SCOPE_MAX	3

/**
 * struct selector_memo - a payload selector looked up before
 * @proto: @field: the grammar's strings (keyword / pooled word)
 */
struct selector_memo {
	const char		*proto;
	const char		*field;
	const struct proto_desc	*desc;
	unsigned int		field_id;
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
 * @strpool: words kept alive for the grammar's <kw> values (field and key
 *           names), one copy of each, freed with the state; @strhash
 *           indexes them
 * @pipe: streaming compilation the commands go to (pipeline.h), or NULL
 *        to append them to @cmds
 * @words: the scanner's keyword hash table (scanner.l)
 * @selector_memo: payload selectors resolved so far (payload_sel)
 * @chain_ids: chain blocks and anonymous chains so far: the last one's
 *             chain id (NFTA_CHAIN_ID), numbered as stock does
 * @scope_depth: table, chain and anonymous chain blocks open around the
 *               parser (at most PARSER_SCOPE_MAX, as stock)
 * @scan_set: the set whose element list (declaration or element
 *            command) the scanner reads itself at its '{' (elem_scan.h),
 *            if it can; @scan_off: not at all (ELEM_SCAN_ENV)
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
	char			**strpool;
	unsigned int		nstrpool;
	unsigned int		strpool_cap;
	unsigned int		*strhash;	/* pool index + 1, open addressing */
	unsigned int		strhash_size;
	struct pipeline		*pipe;
	void			*words;
	struct selector_memo	selector_memo[PARSER_SELECTOR_MEMO];
	bool			pack_armed;
	struct elem_pack	*pack;
	const struct set	*scan_set;
	bool			scan_off;
	unsigned int		chain_ids;
	unsigned int		scope_depth;
	/* rule_memo.h: the memo, and whether the last token ended a line */
	struct rule_memo	*memo;
	int			memo_last_tok;
	/* token texts of the line the memo reads (scanner_dup()) */
	char			*memo_arena;
	unsigned int		memo_arena_used;
	unsigned int		memo_arena_size;
};

struct pipeline;

/*
 * parser_state.c: the element list of a set declaration ("elements =
 * { ... }") or of "add/delete element", between begin and end, packs
 * its plain elements past ELEM_PACK_MIN (elem_pack.h); the list of a
 * set whose key is known (@set) may be read whole by the scanner
 * (elem_scan.h);
 * set_elems_add() appends @elem to @list.
 */
struct set;
void parser_elements_begin(struct parser_state *state,
			   const struct set *set);
const struct set *parser_elements_cmd_set(struct parser_state *state,
					  const struct handle *h);
void parser_set_elems_add(struct parser_state *state, struct expr *list,
			  struct expr *elem);
struct elem_pack;
void parser_elements_end(struct parser_state *state, struct elem_pack **dst,
			 struct expr *list);

/* scanner.l: read the element list at the '{' just scanned (scan_set) */
void scanner_elem_scan(struct parser_state *state);

/* parser_state.c */
void parser_state_init(struct parser_state *state, struct nftc_ctx *nft,
		       struct list_head *cmds);
void parser_state_fini(struct parser_state *state);
/* A complete top-level command; -1: stop parsing (pipeline gave up). */
int parser_cmd_done(struct parser_state *state, struct cmd *cmd);
/* parser_decl.c: a chain name stock scans as a keyword: -1, error queued */
int parser_chain_name(struct parser_state *state, const char *name,
		      const struct location *loc, const char *expecting);
struct symbol *symbol_lookup(struct parser_state *state, const char *name);
int symbol_bind(struct parser_state *state, const char *name,
		struct expr *expr);
int symbol_unbind(struct parser_state *state, const char *name);
/* Register a new input with the context; it owns @data. */
struct input_desc *parser_input_add(struct parser_state *state,
				    enum input_kind kind, const char *name,
				    char *data, size_t size);
struct input_desc *parser_input_add_map(struct parser_state *state,
					const char *name, char *data,
					size_t size, size_t map_len);
/* Read a whole file; NULL with errno on failure. */
char *parser_read_file(const char *path, size_t *size);
/* File @path as a new input (mapped if big): -1 with errno if unread. */
int parser_input_file(struct parser_state *state, const char *path,
		      struct input_desc **in);

int parse_time_ms(const char *s, uint64_t *ms);
int parse_u64(const char *s, uint64_t *n);
int parse_byte_unit(const char *s, uint64_t *mult);
int parse_time_unit(const char *s, uint64_t *secs);
int parse_log_level(const char *s, uint32_t *level);

/* Grammar action helpers (parser_state.c). Strings passed as char * are
 * taken over (freed); const char * ones are borrowed. */
const char *keep_string(struct parser_state *state, char *s);
struct expr *sym_expr(const struct location *loc, char *s);
struct expr *neg_sym_expr(const struct location *loc, char *s);
struct expr *kw_expr(const struct location *loc, const char *kw);
struct expr *var_expr(struct parser_state *state, const struct location *loc,
		      char *name);
struct expr *set_ref(const struct location *loc, char *name,
		     const struct location *nloc);
struct expr *concat(struct expr *a, struct expr *b,
		    const struct location *loc);
struct expr *slash(const struct location *loc, struct expr *l,
		   struct expr *r);
struct stmt *match(struct parser_state *state, const struct location *loc,
		   int op, struct expr *lhs, struct expr *rhs);
struct expr *payload_sel(struct parser_state *state,
			 const struct location *loc, const char *proto,
			 const struct location *ploc, const char *field,
			 const struct location *floc);
struct expr *raw_payload(struct parser_state *state,
			 const struct location *loc, char *base,
			 const struct location *bloc, uint64_t off,
			 uint64_t len);
struct expr *exthdr_sel(struct parser_state *state,
			const struct location *loc, const char *name,
			const struct location *nloc, const char *field,
			const struct location *floc);
struct expr *option_sel(struct parser_state *state,
			const struct location *loc, const char *proto,
			const struct location *ploc, const char *opt,
			const struct location *oloc, const char *field,
			const struct location *floc);
struct expr *chunk_sel(struct parser_state *state,
		       const struct location *loc, const char *proto,
		       const struct location *ploc, const char *chunk,
		       const struct location *cloc, const char *field,
		       const struct location *floc);
struct expr *raw_option(struct parser_state *state,
			const struct location *loc, const char *proto,
			const struct location *ploc, uint64_t kind,
			uint64_t off, uint64_t len);
struct expr *meta_sel(struct parser_state *state, const struct location *loc,
		      const char *key, const struct location *kloc);
struct expr *ct_sel(struct parser_state *state, const struct location *loc,
		    int dir, uint64_t family, const char *key,
		    const struct location *kloc);
struct expr *rt_sel(struct parser_state *state, const struct location *loc,
		    uint64_t family, const char *key,
		    const struct location *kloc);
struct expr *socket_sel(struct parser_state *state,
			const struct location *loc, const char *key,
			const struct location *kloc, uint64_t level);
uint64_t osf_ttl_lookup(struct parser_state *state, char *s,
			const struct location *loc);
struct expr *fib_sel(struct parser_state *state, const struct location *loc,
		     uint64_t flags, const char *result,
		     const struct location *rloc);
uint64_t fib_flag_lookup(struct parser_state *state, char *s,
			 const struct location *loc);
struct expr *numgen_sel(struct parser_state *state,
			const struct location *loc, char *type,
			const struct location *tloc, uint64_t mod,
			uint64_t offset);
struct expr *xfrm_sel(struct parser_state *state, const struct location *loc,
		      char *dir, const struct location *dloc, uint64_t spnum,
		      uint64_t family, const char *key,
		      const struct location *kloc);
uint64_t time_ms(struct parser_state *state, const struct location *loc,
		 char *s);
struct stmt *limit_pkts(struct parser_state *state,
			const struct location *loc, uint64_t over,
			uint64_t rate, char *unit,
			const struct location *uloc, uint64_t burst);
struct stmt *limit_bytes(struct parser_state *state,
			 const struct location *loc, uint64_t over,
			 uint64_t rate, char *unit,
			 const struct location *uloc, char *tunit,
			 uint64_t burst, uint64_t burst_mult);
struct stmt *reject_with(struct parser_state *state,
			 const struct location *loc, const char *proto,
			 const struct location *ploc, struct expr *code);
struct stmt *nat_new(const struct location *loc, enum nat_kind kind);
struct stmt *assign(struct parser_state *state, const struct location *loc,
		    struct expr *sel, struct expr *val);
struct stmt *set_stmt(const struct location *loc, uint64_t op,
		      struct expr *set, struct expr *key, struct expr *data);
struct stmt *meter_stmt(const struct location *loc, char *name,
			const struct location *nloc, uint64_t size,
			struct expr *key);
struct stmt *objref(const struct location *loc, uint32_t type,
		    struct expr *expr);
struct obj *obj_new(const struct location *loc, uint32_t type);
uint8_t l4proto_lookup(struct parser_state *state, const char *s,
		       const struct location *loc);
struct cmd *cmd_obj(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
		    const struct location *loc, void *data);
struct cmd *cmd_new_obj(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
			const struct location *loc, struct obj *o);
struct cmd *cmd_rule(struct parser_state *state, enum cmd_ops op,
		     struct handle *h, struct rule *rule,
		     const struct location *loc);
void cmd_move_set_name(struct handle *h, int to);
struct cmd *cmd_named(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
		      const struct location *loc);
void handle_set_id(struct id_ref *id, uint64_t n, const struct location *loc);
void table_fixup(struct parser_state *state, struct table *t,
		 const struct handle *h, const struct location *loc);
void chain_fixup(struct chain *c, const struct handle *h);
void table_set_flag(struct parser_state *state, struct table *t, char *flag,
		    const struct location *loc);
void table_add_chain(struct table *t, char *name,
		     const struct location *nloc, struct chain *c,
		     const struct location *loc);
void table_add_set(struct table *t, char *name, const struct location *nloc,
		   struct set *s, const struct location *loc);
void table_add_flowtable(struct table *t, char *name,
			 const struct location *nloc, struct flowtable *f,
			 const struct location *loc);
void table_add_obj(struct table *t, char *name, const struct location *nloc,
		   struct obj *o, const struct location *loc);
int obj_set_comment(struct parser_state *state, struct obj *o, char *comment,
		    const struct location *loc);
void chain_set_hook(struct chain *c, char *type, const struct location *tloc,
		    char *hook, const struct location *hloc,
		    struct expr *devices, struct expr *prio);
struct expr *devices_from_set(struct expr *set);
void name_ref_set(struct name_ref *n, char *name,
		  const struct location *loc);
struct expr *type_expr(struct parser_state *state, const struct location *loc,
		       struct expr *prev, char *name,
		       const struct location *nloc);
struct expr *type_finish(struct expr *spec);
void set_objmap(struct set *set, struct expr *key, uint32_t type);
void set_policy(struct parser_state *state, struct set *set, char *s,
		const struct location *loc);
uint64_t set_flag_lookup(struct parser_state *state, char *s,
			 const struct location *loc);

/* scanner.l */
int scanner_init(struct parser_state *state);
void scanner_destroy(struct parser_state *state);
int scanner_push_buffer(struct parser_state *state,
			struct input_desc *indesc);
/* include "pattern": resolve, glob, push each file (in reverse). */
int scanner_include(struct parser_state *state, const char *pattern,
		    const struct location *loc);

/* the grammar (nftc/grammar/, put together as parser.y) */
int nft_parse(struct parser_state *state, void *scanner);

#endif
