/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_EVALUATE_H
#define NFTC_EVALUATE_H

#include "nftc.h"
#include "proto.h"

/**
 * struct eval_ctx - state of the evaluation pass (one per nftc_evaluate)
 * @nft: the compiler context (erq, resolver, table cache)
 * @cmd: command being evaluated
 * @table: table the current object lives in (from the cache)
 * @chain: chain of the current rule
 * @rule: rule being evaluated
 * @set: set being evaluated (declaration or element command)
 * @stmt: statement being evaluated
 * @pctx: protocol context of the current rule
 * @ectx: what the enclosing expression expects of the one being
 *        evaluated: its type, width and byte order ("constants parsed in
 *        the context of their left-hand side")
 *
 * Contract of the pass (what linearize may rely on), see PASSES.md.
 */
struct eval_ctx {
	struct nftc_ctx		*nft;
	struct cmd		*cmd;
	struct table		*table;
	struct chain		*chain;
	struct rule		*rule;
	struct set		*set;
	struct stmt		*stmt;
	struct proto_ctx	pctx;
	struct {
		const struct datatype	*dtype;
		enum byteorder		byteorder;
		unsigned int		len;
		unsigned int		maxval;
		struct expr		*key;	/* map/set key being matched */
	} ectx;
	bool			icmp_type_known; /* rule matched icmp(v6) type */
	/*
	 * Errors the kernel would report ("Could not process rule: ..."):
	 * stock nft only gets them when evaluation found nothing wrong, so
	 * they are kept here and reported only in that case.
	 */
	struct erec_queue	kernel_errors;
	/* "meta l4proto { tcp, udp }": the transport protocols allowed */
	const struct proto_desc	*th_protos[8];
	unsigned int		num_th_protos;
};

/* Where kernel-like errors go (ctx->kernel_errors once initialised). */
static inline struct erec_queue *eval_kernel_errq(struct eval_ctx *ctx)
{
	return ctx->kernel_errors.records.next ? &ctx->kernel_errors :
						 &ctx->nft->erq;
}

/* ENOENT of a jump to a missing chain at @loc, in stock's words. */
int eval_jump_enoent(struct eval_ctx *ctx, const struct location *loc);
/* An error at @loc in ctx->nft->erq; returns -1. */
int eval_error(struct eval_ctx *ctx, const struct location *loc,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* eval_error() at the location of expression @expr */
#define expr_error(ctx, expr, ...) \
	eval_error((ctx), &(expr)->location, __VA_ARGS__)
/* eval_chain.c: hooks, priorities, policy and devices of a declaration */
int chain_evaluate(struct eval_ctx *ctx, struct chain *chain);
int flowtable_evaluate(struct eval_ctx *ctx, struct flowtable *ft);

/* Set what the next expression to evaluate is expected to be. */
void expr_set_context(struct eval_ctx *ctx, const struct datatype *dtype,
		      enum byteorder byteorder, unsigned int len);

/*
 * eval_expr.c: every expression kind. May replace *expr. A node linked
 * in a list (concat member, set element) is replaced IN PLACE (same
 * pointer, same list position, new contents), so list cursors stay
 * valid; a node on no list is freed and *expr points to the new one.
 */
int expr_evaluate(struct eval_ctx *ctx, struct expr **expr);
/* Evaluate a relational match. */
int expr_evaluate_relational(struct eval_ctx *ctx, struct expr **expr);
/*
 * Insert the implicit dependency statements @expr (a payload/exthdr/meta
 * load) needs before ctx->stmt (e.g. "meta l4proto tcp" for "tcp dport"
 * in inet), or report a conflict. Updates ctx->pctx.
 */
int expr_add_dependency(struct eval_ctx *ctx, struct expr *expr);
/*
 * Ranges, ordered compares and interval lookups work on big endian data:
 * wrap a host order load (or each concat member) into hton(); constants
 * just switch their byte order.
 */
int expr_byteorder_to_big(struct eval_ctx *ctx, struct expr **expr);
/* eval_dep.c: record what match @rel tells about the next headers. */
void expr_pctx_update(struct eval_ctx *ctx, const struct expr *rel);
/* Parse EXPR_SYMBOL *expr with the context's type into a constant. */
int expr_evaluate_symbol(struct eval_ctx *ctx, struct expr **expr);
int eval_symbol_constant(struct eval_ctx *ctx, const struct expr *sym,
			 struct expr **res);
bool eval_range_ordered(const struct expr *lo, const struct expr *hi);

/* eval_stmt.c: every statement kind. */
int stmt_evaluate(struct eval_ctx *ctx, struct stmt *stmt);

/* eval_set.c: sets, maps and elements. */
int set_evaluate(struct eval_ctx *ctx, struct set *set);
/*
 * eval_set_pack.c: the elements of a set declaration that has packed
 * ones (elem_pack.h), evaluated; or the packed ones put back into
 * set->init as IR.
 */
int set_pack_evaluate(struct eval_ctx *ctx, struct set *set);
struct elem_pack;
int elems_pack_evaluate(struct eval_ctx *ctx, struct set *set,
			struct elem_pack **pack, struct expr *elems);
int set_pack_unpack(struct set *set);
/* eval_set.c: typing and normalising only (for eval_set_pack.c). */
int set_elements_type(struct eval_ctx *ctx, struct set *set,
		      struct expr *elems);
int set_elements_normalize(struct eval_ctx *ctx, struct set *set,
			   struct expr *elems);
/*
 * Evaluate an anonymous set (EXPR_SET in a rule) against key @key:
 * type the elements, normalise intervals, wrap it into a new anonymous
 * struct set (SET_F_ANONYMOUS | SET_F_CONSTANT, added to ctx->table's
 * sets) and replace *expr by an EXPR_SET_REF to it.
 */
int expr_evaluate_anon_set(struct eval_ctx *ctx, struct expr *key,
			   struct expr **expr);
/* Elements of "add element" / a set's init: type and check them. */
/* eval_concat.c: concatenated ranges of @elems overlapping @prior's or
 * each other's are refused with a located error (-1). */
int concat_ranges_check(struct eval_ctx *ctx, const struct set *set,
			const struct expr *prior, const struct expr *elems);
bool set_elem_data_equal(const struct expr *a, const struct expr *b);
int set_elements_evaluate(struct eval_ctx *ctx, struct set *set,
			  struct expr *elems);
/* Resolve "@name" in the current table; error with "did you mean". */
struct set *set_lookup_ref(struct eval_ctx *ctx, const struct name_ref *name,
			   const struct location *loc);
/* The EXPR_MAP in *expr: its key and mappings. */
int expr_evaluate_map(struct eval_ctx *ctx, struct expr **expr);
/*
 * "meter NAME { KEY ... }" (STMT_SET whose set reference is the parser's
 * placeholder with SET_F_EVAL and no key): call once the key is
 * evaluated; declares the meter's set and points the reference at it.
 */
int set_meter_declare(struct eval_ctx *ctx, struct stmt *stmt);

/* evaluate.c: tables, chains, rules, objects; cache lookups. */
struct table *table_cache_find(struct nftc_ctx *nft, uint32_t family,
			       const char *name);
struct chain *chain_cache_find(struct table *table, const char *name);
struct set *set_cache_find(struct table *table, const char *name);
struct obj *obj_cache_find(struct table *table, const char *name,
			   uint32_t type);
int rule_evaluate(struct eval_ctx *ctx, struct rule *rule);
/*
 * eval_rule_cache.c: with the rule cache on (nftc_ctx.rule_cache), put
 * the evaluated @rule of an @op command in its cache chain @c, resolving
 * "index N" to a position (or position id) and checking positions and
 * handles, as stock does. 0, or -1 with an error queued.
 */
int rule_cache_update(struct eval_ctx *ctx, enum cmd_ops op, struct chain *c,
		      struct rule *rule);

/* One rule of a table block, outside nftc_evaluate() (pipeline.c). */
int nftc_evaluate_rule(struct nftc_ctx *nft, struct table *t,
		       struct chain *chain, struct rule *rule);

#endif
