/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_DELIN_INT_H
#define NFTC_DELIN_INT_H

/* Internal interface of the decompiler (delinearize*.c, delin_*.c). */

#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include "delinearize.h"
#include "expr.h"
#include "stmt.h"
#include "proto.h"
#include "keys.h"

/* One 32-bit slot per VM register word: NFT_REG32_00 .. NFT_REG32_15. */
#define DELIN_SLOTS		16

/**
 * struct delin_rule_ctx - state of decompiling one rule
 * @dctx: table-level context (family, sets)
 * @rule: the rule being built
 * @pctx: protocol context, narrowed by each protocol match read so far
 *        (it names raw payload loads: "@th,16,16" after "meta l4proto
 *        tcp" is "tcp dport")
 * @regs: the expression whose value each register slot holds (owned)
 * @gte: a "cmp gte" just read, waiting for the "cmp lte" that makes it
 *       a range: the statement and the register value it tested
 */
struct delin_rule_ctx {
	struct delin_ctx	*dctx;
	struct rule		*rule;
	struct proto_ctx	pctx;
	struct expr		*regs[DELIN_SLOTS];
	struct stmt		*gte;
	const struct expr	*gte_src;
	const struct proto_desc	*icmp_desc;
	int			icmp_type;
};

extern const struct location delin_loc;

void delin_set_dtype(struct expr *e, const struct datatype *dtype);

/* delinearize.c */
int delin_reg_slot(uint32_t reg);
/* A new reference to (a concatenation of) the value(s) in @reg covering
 * @len bytes (0: whatever the first slot holds). NULL if empty. */
struct expr *delin_reg_get(struct delin_rule_ctx *c, uint32_t reg,
			   unsigned int len);
const struct expr *delin_reg_peek(struct delin_rule_ctx *c, uint32_t reg);
/* Store @e (taken over) as the value of @reg. */
void delin_reg_set(struct delin_rule_ctx *c, uint32_t reg, struct expr *e);
void delin_add_stmt(struct delin_rule_ctx *c, struct stmt *s);
/* Constant from register bytes, typed like @like (concat aware). */
struct expr *delin_value(const struct expr *like, const void *data,
			 unsigned int len);
/* Constant of @dtype from register bytes in @order. */
struct expr *delin_value_typed(const struct datatype *dtype,
			       enum byteorder order, unsigned int len_bits,
			       const void *data, unsigned int dlen);
/* Give an untyped immediate (or a set of them) the type of @like. */
struct expr *delin_retype(struct expr *e, const struct expr *like);
/* Name raw payload @p from the protocol context. */
void delin_payload_resolve(struct delin_rule_ctx *c, struct expr *p);
struct expr *delin_payload_alloc(enum proto_bases base, unsigned int offset,
				 unsigned int len);
struct expr *delin_exthdr_alloc(uint32_t op, uint8_t type,
				unsigned int offset, unsigned int len,
				uint32_t flags);
struct expr *delin_string_expr(const char *s);
struct expr *delin_verdict(int verdict, const char *chain);
/* The set @name of the rule's table, or NULL. */
struct set *delin_find_set(struct delin_rule_ctx *c,
			   const struct nftnl_expr *e, uint16_t name_attr,
			   uint16_t id_attr);

/* delin_set.c: anonymous sets are typed by the rule that uses them. */
#define SET_F_DELIN_BOUND	(1u << 24)
void delin_set_bind(struct set *set, const struct expr *key);
/*
 * Register bytes a set key (or data) @e takes: concatenation members
 * each start on a 32-bit word ("meta l4proto . th dport" is 8, not 3).
 */
unsigned int delin_key_bytes(const struct expr *e);
struct set *delin_set_index_lookup(const struct delin_set_index *idx,
				   const char *name);

/* delin_stmt.c: statements; returns 0 if @name is handled. */
int delin_stmt(struct delin_rule_ctx *c, const char *name,
	       const struct nftnl_expr *e);
/* delin_stmt.c: a stateful expression (set element, dynset) as stmt. */
struct stmt *delin_stateful(const struct nftnl_expr *e);

#endif
