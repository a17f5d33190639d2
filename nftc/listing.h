/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LISTING_H
#define NFTC_LISTING_H

/*
 * "nft list ...": read the ruleset back from the kernel (netlink dumps of
 * tables, chains, sets and their elements, objects, flowtables and rules),
 * decompile it (delinearize.h) and print it (printer.h) as stock nft
 * 1.0.6 lists it.
 */

#include <stdio.h>
#include "nftc.h"

/**
 * struct nftc_ruleset - a decompiled ruleset
 * @tables: struct table list, in the kernel's order, each with its
 *          chains (rules inside), sets (elements in set->init), objects
 *          and flowtables
 * @warn: where stock's warnings go when printing (NULL: nowhere)
 */
struct nftc_ruleset {
	struct list_head	tables;
	FILE			*warn;
};

/*
 * Dump everything of @family (0: every family) from the kernel (or with
 * @off, the offline VM: transport.h) into @rs (initialised by the call).
 * Returns 0 or a negative errno; release with nftc_ruleset_free() either
 * way.
 */
struct nftc_offline;
int nftc_ruleset_dump(struct nftc_ruleset *rs, uint32_t family,
		      struct nftc_offline *off);
/*
 * Rules one chain at a time: nftc_dumper_open() reads everything of
 * @family but the rules into @rs (on failure NULL and *@err a negative
 * errno; @rs is to be freed either way), with @hook (and its @priv)
 * decompiling iptables-nft's compat expressions (delin_ctx.xt_xlate)
 * instead of nftc_xt_xlate when set; then
 * each nftc_dumper_rules() dumps the rules of @c in @t, handing each
 * decompiled rule to @sink, which owns it (rule_free()). Memory stays
 * that of one rule however long the chain.
 */
struct delin_xt;
typedef char *(*nftc_xt_hook)(void *priv, const struct delin_xt *xt);
struct nftc_dumper;
struct table;
struct chain;
struct rule;
typedef void (*nftc_rule_sink)(void *priv, struct chain *c, struct rule *r);

/* list_bound.c: anonymous (bound) chains of a dump, table->bound */
struct chain *nftc_bound_find(const struct table *t, const char *name);
void nftc_bind_rule(const struct table *t, struct rule *r);
void nftc_bind_table(struct table *t);
struct nftc_dumper *nftc_dumper_open(struct nftc_ruleset *rs,
				     uint32_t family, struct nftc_offline *off,
				     nftc_xt_hook hook, void *priv, int *err);
int nftc_dumper_rules(struct nftc_dumper *dp, struct table *t,
		      struct chain *c, nftc_rule_sink sink, void *priv);
void nftc_dumper_close(struct nftc_dumper *dp);
/*
 * Declarations only (no set elements): the evaluator's cache. With
 * @rules, the rules are read too, each printed on @debug (if not NULL)
 * as stock's --debug=netlink does, and with @slots their handles go to
 * their chains' slots (struct rule_slot).
 */
int nftc_ruleset_dump_decls(struct nftc_ruleset *rs, struct nftc_offline *off,
			    bool rules, bool slots, FILE *debug);
void nftc_ruleset_free(struct nftc_ruleset *rs);

/*
 * Build an IR ruleset from libnftnl objects without a kernel (the unit
 * tests feed the linearizer's output): the caller adds tables, chains,
 * sets (nftc_delinearize_*) and then rules with nftc_ruleset_add_rule().
 */
void nftc_ruleset_init(struct nftc_ruleset *rs);
/*
 * The ruleset the messages of @batch (linearize.h) create, read back as
 * if applied to an empty kernel: tests and offline listings.
 */
struct nftc_batch;
int nftc_ruleset_from_batch(struct nftc_ruleset *rs,
			    const struct nftc_batch *batch);
struct table *nftc_ruleset_table(struct nftc_ruleset *rs, uint32_t family,
				 const char *name);

/*
 * Run one CMD_LIST command: dump, decompile, print to @out with the
 * output flags @oflags (enum nftc_output_flags); stock's warnings (a
 * table managed by iptables-nft) go to @err. A missing table, chain,
 * set or object is reported in ctx->erq as stock nft words it. Returns 0
 * or -1.
 */
int nftc_list(struct nftc_ctx *ctx, const struct cmd *cmd,
	      unsigned int oflags, FILE *out, FILE *err);

/*
 * list_xt.c: libxtables translations of iptables-nft's compat
 * expressions (a delin_ctx.xt_xlate hook). Stock nft warns on @err that
 * such tables are managed by iptables-nft.
 */
struct delin_xt;
void nftc_xt_init(void);
char *nftc_xt_xlate(void *priv, const struct delin_xt *xt);
/* table->flags bit (decompiler only): the table holds xt expressions */
#define NFTC_TABLE_F_XT		(1u << 30)

/*
 * Interface indexes of rule @r and of elements @elems (either NULL)
 * become their names, as listings print them.
 */
void nftc_list_ifnames(struct rule *r, struct expr *elems);

/* Print what @cmd names from @rs (no kernel access). */
int nftc_list_print(struct nftc_ctx *ctx, const struct cmd *cmd,
		    struct nftc_ruleset *rs, unsigned int oflags, FILE *out);

#endif
