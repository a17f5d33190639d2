/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LIN_INT_H
#define NFTC_LIN_INT_H

/* Internal interface of the linearization pass (linearize*.c, batch.c). */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/flowtable.h>
#include "linearize.h"
#include "nlw.h"


/* Room for one directly written expression (an immediate with a chain). */
#define LIN_SCRATCH_WORDS	256
/*
 * The kernel's limit of expressions per rule (nf_tables_api.c). A rule
 * message stops growing there (the rule is refused anyway), so that it
 * always fits the room the batch keeps for one message.
 */
#define LIN_RULE_MAXEXPRS	128

/**
 * struct lin_ctx - state of the linearization of one rule
 * @nft: compiler context
 * @nlr: rule being built
 * @family: NFPROTO_* of the table
 * @reg_low: lowest free 32-bit register (NFT_REG32_00 based); registers
 *           are allocated stack-like: an expression's result takes the
 *           next free slot and releases it when consumed
 * @batch: the batch being written (statements that need objects, e.g.
 *         anonymous sets, append them before the rule)
 */
struct lin_ctx {
	struct nftc_ctx		*nft;
	struct nftnl_rule	*nlr;
	uint32_t		family;
	unsigned int		reg_low;
	struct nftc_batch	*batch;
	FILE			*debug_out;
	/*
	 * Error mapping (netlink.c): told the source location of every
	 * expression appended, in order. NULL when compiling.
	 */
	void			(*expr_loc_cb)(void *priv,
					       const struct location *loc);
	void			*expr_loc_priv;
	/*
	 * lin_emit.c: the rule message being written, with its
	 * NFTA_RULE_EXPRESSIONS nest open (linearize.c); NULL: expressions
	 * become libnftnl objects on @nlr. @nexprs: expressions so far.
	 * @cur, @nest_*: the expression being written; @scratch: its
	 * message when @nlh is NULL.
	 */
	struct nlmsghdr		*nlh;
	unsigned int		nexprs;
	struct nlmsghdr		*cur;
	struct nlattr		*nest_list;
	struct nlattr		*nest_elem;
	struct nlattr		*nest_data;
	uint32_t		scratch[LIN_SCRATCH_WORDS];
};

/*
 * Register allocation, stack-like as in stock nft: a value of up to 16
 * bytes takes the next 128-bit register (NFT_REG_1..NFT_REG_4, printed
 * "reg 1".."reg 4"); concatenation members are loaded into consecutive
 * 32-bit registers (NFT_REG32_00 + n, printed "reg 8".. except that the
 * first one is expressed as NFT_REG_1 when it starts a 128-bit register,
 * exactly as stock nft writes them: see PASSES.md).
 */
enum nft_registers get_register(struct lin_ctx *ctx, unsigned int len);
void release_register(struct lin_ctx *ctx, unsigned int len);
/*
 * The register a value of @expr needs: one 32-bit slot per member word
 * for a concatenation, a whole 128-bit register otherwise (stock nft's
 * layout). Release with release_register_expr() in reverse order.
 */
struct expr;
enum nft_registers get_register_expr(struct lin_ctx *ctx,
				     const struct expr *expr);
void release_register_expr(struct lin_ctx *ctx, const struct expr *expr);

/*
 * lin_emit.c: append expression @e to the rule (takes ownership, records
 * its source location); or write one directly: lin_emit_begin() returns
 * the message to put the attributes of NFTA_EXPR_DATA into, in
 * libnftnl's order, and lin_emit_end() closes it.
 */
void lin_add_expr(struct lin_ctx *ctx, struct nftnl_expr *e,
		  const struct location *loc);
struct nlmsghdr *lin_emit_scratch(struct lin_ctx *ctx);

/*
 * Inline, with @name a string literal (the macro makes sure): its
 * length is known, so the name attribute is a few stores, not strlen
 * and memcpy calls (a rule writes some eight expressions).
 */
#define lin_emit_begin(ctx, name) lin_emit_begin_n(ctx, "" name, sizeof(name))
static inline struct nlmsghdr *lin_emit_begin_n(struct lin_ctx *ctx,
						const char *name, size_t size)
{
	struct nlmsghdr *nlh = ctx->nlh;

	if (!nlh || ctx->nexprs >= LIN_RULE_MAXEXPRS)
		nlh = lin_emit_scratch(ctx);
	ctx->cur = nlh;
	ctx->nest_elem = nlw_nest_start(nlh, NFTA_LIST_ELEM);
	nlw_put(nlh, NFTA_EXPR_NAME, size, name);
	ctx->nest_data = nlw_nest_start(nlh, NFTA_EXPR_DATA);
	return nlh;
}

void lin_emit_end_rest(struct lin_ctx *ctx, const struct location *loc);

/* lin_emit_end - close the expression lin_emit_begin() started; @loc:
 * the source token that produced it (kept for error mapping) */
static inline void lin_emit_end(struct lin_ctx *ctx,
				const struct location *loc)
{
	struct nlmsghdr *nlh = ctx->cur;

	nlw_nest_end(nlh, ctx->nest_data);
	nlw_nest_end(nlh, ctx->nest_elem);
	if ((nlh != ctx->nlh && ctx->nlr) || ctx->expr_loc_cb)
		lin_emit_end_rest(ctx, loc);
	else
		ctx->nexprs++;
}
void lin_emit_object(struct lin_ctx *ctx, struct nftnl_expr *e,
		     const struct location *loc);
/* Print the rule message @nlh (--debug=netlink), checking its bytes. */
int lin_rule_debug(FILE *out, const struct nlmsghdr *nlh, bool with_handle);
/* lin_debug_bound.c: the same for rules naming chains by id; 1: none */
int lin_rule_debug_bound(FILE *out, const struct nlmsghdr *nlh,
			 bool with_handle);

/* lin_expr.c: load the value of @expr into @dreg. */
void lin_expr(struct lin_ctx *ctx, enum nft_registers dreg,
	      const struct expr *expr);
/* lin_expr.c: a relational (match) statement. */
void lin_relational(struct lin_ctx *ctx, const struct expr *expr);
/* Write a constant into a data attribute buffer (register layout). */
unsigned int lin_value_data(const struct expr *expr, uint8_t *buf,
			    unsigned int bufsize);

/* lin_stmt.c: every statement kind. */
void lin_stmt(struct lin_ctx *ctx, const struct stmt *stmt);
/*
 * lin_stmt.c: the expression of a stateful statement (counter, limit,
 * quota, connlimit, last) for set declarations and dynset; NULL for
 * other statements.
 */
struct nftnl_expr *lin_stmt_stateful(const struct stmt *stmt);

/* lin_set.c: sets (declaration message + element messages). */
int lin_anon_set_name(struct nftc_ctx *nft, struct set *set,
		      uint32_t family);
int lin_set_add(struct nftc_ctx *nft, struct nftc_batch *batch,
		const struct set *set, uint32_t family, FILE *debug_out);
int lin_set_elems(struct nftc_ctx *nft, struct nftc_batch *batch,
		  const struct set *set, const struct expr *elems,
		  uint32_t family, enum cmd_ops op, FILE *debug_out);
/* The same followed by the packed keys @pack (elem_pack.h) of a command. */
struct elem_pack;
int lin_set_elems_packed(struct nftc_ctx *nft, struct nftc_batch *batch,
			 const struct set *set, const struct expr *elems,
			 const struct elem_pack *pack, uint32_t family,
			 enum cmd_ops op, FILE *debug_out);

/**
 * struct lin_elem - one set element as its message carries it
 * @flags: NFTA_SET_ELEM_FLAGS (written when not zero)
 * @timeout: @expiration: in ms, written when not zero
 * @key: @key_len: NFTA_SET_ELEM_KEY, none if @key_len is 0
 * @key_end: @key_end_len: NFTA_SET_ELEM_KEY_END (concatenated ranges)
 * @has_verdict: @verdict: @chain: verdict data (@chain may be NULL)
 * @data: @data_len: @has_data: value data
 * @objref: object name of an object map, NULL if none
 * @udata: @udata_len: NFTA_SET_ELEM_USERDATA (TLVs), none if 0
 * @stmts: statements of the element (counters), NULL if none
 *
 * Composed from the IR by lin_set.c, written by lin_elem.c.
 */
struct lin_elem {
	uint32_t		flags;
	uint64_t		timeout;
	uint64_t		expiration;
	unsigned int		key_len;
	unsigned int		key_end_len;
	unsigned int		data_len;
	unsigned int		udata_len;
	bool			has_verdict;
	bool			has_data;
	uint32_t		verdict;
	const char		*chain;
	const char		*objref;
	const struct list_head	*stmts;
	uint8_t			key[NFT_DATA_VALUE_MAXLEN];
	uint8_t			key_end[NFT_DATA_VALUE_MAXLEN];
	uint8_t			data[NFT_DATA_VALUE_MAXLEN];
	uint8_t			udata[NFT_USERDATA_MAXLEN];
};

/**
 * struct lin_elems - the element messages of one command being written
 *
 * Elements go straight into the batch, split over messages where stock
 * nft splits them (the element list is a 16-bit nest; @idx numbers the
 * members across the messages, @nmsgs written so far). With
 * --debug=netlink they also become libnftnl objects: on @prn, printed
 * as stock prints them, and on @ref, serialised again: the messages
 * (@msgs) must be its bytes.
 */
struct lin_elems {
	struct nftc_batch	*batch;
	uint16_t		type;
	uint16_t		flags;
	uint32_t		family;
	const char		*table;
	const char		*name;
	uint32_t		set_id;
	struct nlmsghdr		*nlh;
	struct nlattr		*list;
	unsigned int		idx;
	unsigned int		count;
	struct nftnl_set	*ref;
	struct nftnl_set	*prn;
	struct nlmsghdr		**msgs;
	unsigned int		nmsgs;
	unsigned int		msgs_cap;
};

int lin_elems_init(struct lin_elems *w, struct nftc_batch *batch,
		   uint16_t type, uint16_t flags, uint32_t family,
		   const char *table, const char *name, uint32_t set_id,
		   bool debug);
int lin_elems_put(struct lin_elems *w, const struct lin_elem *e);
int lin_elems_put_key(struct lin_elems *w, uint32_t flags,
		      const uint8_t *key, unsigned int len);
int lin_elems_finish(struct lin_elems *w, FILE *debug_out);
void lin_elems_release(struct lin_elems *w);

/**
 * struct lin_ud - user data TLVs as libnftnl's udata writer lays them out
 * (lin_set_msg.c); @full: a TLV did not fit and was left out
 */
struct lin_ud {
	unsigned int		len;
	bool			full;
	uint8_t			buf[NFT_USERDATA_MAXLEN];
};

bool lin_ud_put(struct lin_ud *u, uint8_t type, unsigned int len,
		const void *value);
bool lin_ud_put_u32(struct lin_ud *u, uint8_t type, uint32_t v);
bool lin_ud_put_strz(struct lin_ud *u, uint8_t type, const char *s);
unsigned int lin_ud_nest_start(struct lin_ud *u, uint8_t type);
void lin_ud_nest_end(struct lin_ud *u, unsigned int at);

/**
 * struct lin_set_decl - a set declaration as its NEWSET message carries
 * it; zero @set_id, @policy, @size, @timeout, @gc_int: not sent
 * @nfields: @field_len: NFTA_SET_DESC_CONCAT (0: none)
 *
 * Composed from the IR by lin_set.c, written by lin_set_msg.c.
 */
struct lin_set_decl {
	const char		*table;
	const char		*name;
	uint32_t		flags;
	uint32_t		key_type;
	uint32_t		key_len;
	bool			has_data;
	bool			has_obj;
	uint32_t		data_type;
	uint32_t		data_len;
	uint32_t		obj_type;
	uint32_t		set_id;
	uint32_t		policy;
	uint32_t		size;
	uint32_t		gc_int;
	uint64_t		timeout;
	unsigned int		nfields;
	uint8_t			field_len[NFT_REG32_COUNT];
	struct lin_ud		ud;
};

bool lin_set_decl_direct(const struct lin_set_decl *d);
/* lin_set_udata.c */
struct set;
void lin_set_udata(struct lin_ud *ud, const struct set *set);
void lin_set_decl_put(struct nlmsghdr *nlh, const struct lin_set_decl *d);
struct nftnl_set *lin_set_decl_object(const struct lin_set_decl *d,
				      uint32_t family);
int lin_set_decl_check(const struct nlmsghdr *nlh,
		       const struct nftnl_set *nls);

/* linearize.c: text of a string constant or symbol; -1 if not one. */
int lin_expr_to_string(const struct expr *expr, char *buf, size_t size);

/* batch.c: append libnftnl objects as messages. */
int batch_add_table(struct nftc_batch *b, uint16_t type, uint16_t flags,
		    uint32_t family, struct nftnl_table *t);
int batch_add_chain(struct nftc_batch *b, uint16_t type, uint16_t flags,
		    uint32_t family, struct nftnl_chain *c);
int batch_add_rule(struct nftc_batch *b, uint16_t type, uint16_t flags,
		   uint32_t family, struct nftnl_rule *r);
/* Largest message: a 64 KiB attribute nest plus headers and slack. */
#define BATCH_MSG_MAX		(UINT16_MAX + 4096)

/*
 * batch.c: a message written in place: header (next sequence number)
 * and room for BATCH_MSG_MAX bytes; batch_obj_end() appends it, a
 * message never ended is simply not part of the batch.
 */
struct nlmsghdr *batch_obj_begin(struct nftc_batch *b, uint16_t type,
				 uint16_t flags, uint32_t family);
int batch_obj_end(struct nftc_batch *b, struct nlmsghdr *nlh);
/* The same continuing the last message, under its sequence number. */
struct nlmsghdr *batch_obj_begin_cont(struct nftc_batch *b, uint16_t type,
				      uint16_t flags, uint32_t family);
int batch_obj_end_cont(struct nftc_batch *b, struct nlmsghdr *nlh);
int batch_add_set(struct nftc_batch *b, uint16_t type, uint16_t flags,
		  uint32_t family, struct nftnl_set *s);
int batch_add_setelems(struct nftc_batch *b, uint16_t type, uint16_t flags,
		       uint32_t family, struct nftnl_set *s);
int batch_add_obj(struct nftc_batch *b, uint16_t type, uint16_t flags,
		  uint32_t family, struct nftnl_obj *o);
int batch_add_flowtable(struct nftc_batch *b, uint16_t type, uint16_t flags,
			uint32_t family, struct nftnl_flowtable *f);

#endif
