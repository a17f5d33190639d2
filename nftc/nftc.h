/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_NFTC_H
#define NFTC_NFTC_H

#include <stdbool.h>
#include <stdio.h>
#include "list.h"
#include "erec.h"
#include "datatype.h"
#include "rule.h"

#define NFTC_MAX_INCLUDE_PATHS	16
#define NFTC_DEFAULT_MAX_ERRORS	10

enum nftc_debug {
	NFTC_DEBUG_SCANNER	= (1 << 0),
	NFTC_DEBUG_PARSER	= (1 << 1),
	NFTC_DEBUG_EVALUATION	= (1 << 2),
	NFTC_DEBUG_NETLINK	= (1 << 3),
};

/**
 * struct nftc_ctx - one compiler instance (no globals anywhere)
 * @erq: diagnostics of everything done with this context
 * @resolver: name resolution (see struct nftc_resolver)
 * @include_paths: -I directories, searched in order, then the default
 * @inputs: every buffer read, kept for diagnostics
 * @tables: what the commands so far declared: the cache that later
 *          commands (add rule ..., @set references) resolve against
 * @debug: enum nftc_debug
 * @next_set_id: batch-local ids of anonymous sets
 * @offline: the offline backend (transport.h) requests go to instead of
 *           the kernel, NULL for the kernel; not owned
 * @rule_cache: the cache chains hold their rules (chain->slots), as
 *              stock's cache does when a rule command names an index
 *              or position: rule commands then place themselves in it
 * @next_rule_id: last NFTA_RULE_ID given out
 * @echo: "nft -e": where what the kernel echoes of a committed batch is
 *        printed (NULL: not asked); @echo_oflags: enum nftc_output_flags
 *        for it
 */
struct nftc_ctx {
	struct erec_queue		erq;
	const struct nftc_resolver	*resolver;
	const char			*include_paths[NFTC_MAX_INCLUDE_PATHS];
	unsigned int			num_include_paths;
	struct input_desc		*inputs;
	struct list_head		tables;
	unsigned int			debug;
	unsigned int			next_set_id;
	struct nftc_offline		*offline;
	bool				rule_cache;
	uint32_t			next_rule_id;
	FILE				*echo;
	unsigned int			echo_oflags;
	/* rule_memo.c: notes of the rule being recorded, or NULL */
	struct rule_memo_rec		*memo_rec;
	/* anon_names.h: names of anonymous sets (NULL: "__set%d"); owned */
	struct anon_names		*anon_names;
};

struct nftc_ctx *nftc_ctx_alloc(void);
void nftc_ctx_free(struct nftc_ctx *ctx);
int nftc_add_include_path(struct nftc_ctx *ctx, const char *path);

/*
 * Parse nft text into commands appended to @cmds. Returns 0, or -1 with
 * errors queued in ctx->erq (the parser recovers at statement boundaries
 * and keeps going up to erq.max_errors).
 */
int nftc_parse_file(struct nftc_ctx *ctx, const char *path,
		    struct list_head *cmds);
int nftc_parse_buffer(struct nftc_ctx *ctx, const char *buf,
		      struct list_head *cmds);

/*
 * Evaluate commands in place: resolve symbols, type, generate
 * dependencies, check, fold, expand block syntax into one command per
 * object. Returns 0 or -1 with errors queued; evaluation continues past
 * an error to report further ones.
 */
int nftc_evaluate(struct nftc_ctx *ctx, struct list_head *cmds);

/*
 * Whether @cmds place a rule by index, position or handle ("add rule ...
 * index 2"): stock then reads the kernel's rules into its cache, and
 * every rule command of the batch places itself in it (ctx->rule_cache).
 */
bool nftc_cmds_need_rule_cache(const struct list_head *cmds);
/*
 * Whether stock reads the kernel's rules for @cmds: for the rule cache,
 * and for "replace rule" (which does not use them; only its
 * --debug=netlink output shows it).
 */
bool nftc_cmds_read_rules(const struct list_head *cmds);

#endif
