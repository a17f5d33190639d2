/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_DELINEARIZE_H
#define NFTC_DELINEARIZE_H

/*
 * Decompilation: VM code (libnftnl objects, as dumped by the kernel or
 * built by the linearizer) back to IR that the printer lists the way
 * stock nft 1.0.6 does. The inverse of linearize.h:
 *
 *   nftnl_table/chain/set/obj/flowtable -> struct table/chain/set/...
 *   nftnl_rule (expressions)            -> struct rule (statements)
 *
 * Rules refer to sets by name: decompile a table's sets (with their
 * elements) first and pass the table, so lookups find anonymous sets and
 * print their elements inline.
 */

#include <stdint.h>
#include "rule.h"

struct nftnl_table;
struct nftnl_chain;
struct nftnl_rule;
struct nftnl_set;
struct nftnl_obj;
struct nftnl_flowtable;

/**
 * struct delin_xt - an xtables compat expression (iptables-nft)
 * @name: match/target name; @kind: "match", "target" or "watcher"
 * @rev: revision; @family: table family
 * @proto: what the rule matched so far (IPPROTO_*, or ETH_P_* in
 *         network order in bridge tables), for the extension's text
 * @info, @len: the extension's private data
 */
struct delin_xt {
	const char		*name;
	const char		*kind;
	uint32_t		rev;
	uint32_t		family;
	uint32_t		proto;
	const void		*info;
	uint32_t		len;
};

/*
 * Text of an xtables extension in nft syntax (malloc'ed), or NULL to list
 * it as 'xt KIND "NAME"'. Injected by the CLI: the compiler core does no
 * I/O and loads no plugins.
 */
typedef char *(*delin_xt_fn)(void *priv, const struct delin_xt *xt);

struct delin_set_index;
struct list_tmpl_rec;

/* Anonymous sets a rule looks up, noted (the first few) in @anon. */
#define DELIN_ANON_MAX		4

/**
 * struct delin_ctx - what decompiling a rule may consult
 * @family: NFPROTO_* of the table
 * @table: the table the rule lives in (sets looked up by name), or NULL
 * @xt_xlate: xtables translation (NULL: none); @xt_priv its argument
 * @xt_count: incremented for every xtables expression read (stock nft
 *            warns that such a table is managed by iptables-nft)
 * @sets: name index of @table's sets (delin_set_index_build), or NULL
 * @anon, @nanon: the anonymous sets the rule looked up (the first
 *                DELIN_ANON_MAX), set by decompiling it
 * @rec: a listing template being recorded (list_tmpl.h), or NULL: what
 *       is read from compares, limits and lookups is marked (locations)
 */
struct delin_ctx {
	uint32_t		family;
	struct table		*table;
	delin_xt_fn		xt_xlate;
	void			*xt_priv;
	unsigned int		xt_count;
	const struct delin_set_index *sets;	/* optional, by name */
	struct set		*anon[DELIN_ANON_MAX];
	unsigned int		nanon;
	struct list_tmpl_rec	*rec;
};

/*
 * A name index of @table's sets, for tables with many (anonymous) sets:
 * put it in delin_ctx.sets. NULL on ENOMEM (lookups then scan the list).
 */
struct delin_set_index *delin_set_index_build(const struct table *table);
void delin_set_index_free(struct delin_set_index *idx);

/* Each returns a new object (one reference) or NULL on bad input/ENOMEM. */
struct table *nftc_delinearize_table(const struct nftnl_table *nlt);
struct chain *nftc_delinearize_chain(const struct nftnl_chain *nlc);
struct obj *nftc_delinearize_obj(struct nftnl_obj *nlo);
struct flowtable *nftc_delinearize_flowtable(const struct nftnl_flowtable *f);

/*
 * A set declaration (key/data types, flags, userdata: typeof, byte
 * order, comment). Elements are added with nftc_delinearize_set_elems().
 */
struct set *nftc_delinearize_set(const struct nftnl_set *nls);
/*
 * The set of dump message @nlh read in place (delin_set_msg.c), NULL
 * without memory; with *@other set (and NULL), a message to give to
 * libnftnl (expressions, concatenations, attributes not known there).
 */
struct nlmsghdr;
struct set *delin_set_msg(const struct nlmsghdr *nlh, bool *other);

/*
 * Add the elements held by @nls (a set element dump) to @set->init,
 * typed by the set's key/data, interval end elements folded into ranges.
 * May be called several times (one per dump message); call
 * nftc_delinearize_set_done() once all elements are in.
 * Returns 0 or a negative errno.
 */
int nftc_delinearize_set_elems(struct set *set, const struct nftnl_set *nls);
/* Fold interval sets' start/end elements into ranges, sort as stock. */
void nftc_delinearize_set_done(struct set *set);

/*
 * Decompile one rule's VM code. Statements the decompiler cannot read
 * back are kept as an "unknown" marker so the rule still prints.
 * Returns NULL only on allocation failure.
 */
struct rule *nftc_delinearize_rule(struct delin_ctx *ctx,
				   const struct nftnl_rule *nlr);

/**
 * struct delin_rmsg - a rule dump message's attributes, read in place
 * (pointers into the message)
 */
struct delin_rmsg {
	uint32_t		family;
	const char		*table;
	const char		*chain;
	uint64_t		handle;
	bool			has_handle;
	const void		*udata;
	uint16_t		udata_len;
	const struct nlattr	*exprs;
};

struct nlmsghdr;
int delin_rmsg_parse(const struct nlmsghdr *nlh, struct delin_rmsg *m);

/*
 * nftc_delinearize_rule() for a rule dump message @nlh read into @m:
 * without libnftnl objects unless an expression needs them.
 */
struct rule *nftc_delinearize_rmsg(struct delin_ctx *ctx,
				   const struct nlmsghdr *nlh,
				   const struct delin_rmsg *m);

/* A set of @table by name (NULL if none). */
struct set *delin_set_lookup(const struct table *table, const char *name);

#endif
