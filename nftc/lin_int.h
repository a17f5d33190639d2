/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LIN_INT_H
#define NFTC_LIN_INT_H

/* Internal interface of the linearization pass (linearize*.c, batch.c). */

#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/flowtable.h>
#include "linearize.h"

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

/* Append expression @e to the rule (records its source location). */
void lin_add_expr(struct lin_ctx *ctx, struct nftnl_expr *e,
		  const struct location *loc);

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
int lin_set_add(struct nftc_ctx *nft, struct nftc_batch *batch,
		const struct set *set, uint32_t family, FILE *debug_out);
int lin_set_elems(struct nftc_ctx *nft, struct nftc_batch *batch,
		  const struct set *set, const struct expr *elems,
		  uint32_t family, enum cmd_ops op, FILE *debug_out);

/* linearize.c: text of a string constant or symbol; -1 if not one. */
int lin_expr_to_string(const struct expr *expr, char *buf, size_t size);
/* linearize.c: VM code of @rule in a new nftnl_rule (NULL on error). */
struct nftnl_rule *lin_rule_build(struct nftc_ctx *nft,
				  struct nftc_batch *batch,
				  const struct rule *rule, uint32_t family,
				  FILE *debug_out);

/* batch.c: append libnftnl objects as messages. */
int batch_add_table(struct nftc_batch *b, uint16_t type, uint16_t flags,
		    uint32_t family, struct nftnl_table *t);
int batch_add_chain(struct nftc_batch *b, uint16_t type, uint16_t flags,
		    uint32_t family, struct nftnl_chain *c);
int batch_add_rule(struct nftc_batch *b, uint16_t type, uint16_t flags,
		   uint32_t family, struct nftnl_rule *r);
int batch_add_set(struct nftc_batch *b, uint16_t type, uint16_t flags,
		  uint32_t family, struct nftnl_set *s);
int batch_add_setelems(struct nftc_batch *b, uint16_t type, uint16_t flags,
		       uint32_t family, struct nftnl_set *s);
int batch_add_obj(struct nftc_batch *b, uint16_t type, uint16_t flags,
		  uint32_t family, struct nftnl_obj *o);
int batch_add_flowtable(struct nftc_batch *b, uint16_t type, uint16_t flags,
			uint32_t family, struct nftnl_flowtable *f);

#endif
