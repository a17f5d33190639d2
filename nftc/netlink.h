/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_NETLINK_H
#define NFTC_NETLINK_H

/*
 * The kernel backend: send a finished batch (linearize.h) over a
 * NETLINK_NETFILTER socket as one atomic transaction and map every error
 * the kernel reports back to the source text that produced it.
 */

#include <stdint.h>
#include "nftc.h"

struct nftc_batch;

/**
 * enum nftc_nl_flags - how nftc_netlink_send() talks to the kernel
 * @NFTC_NL_CHECK: "nft -c": send the batch without BATCH_END, so the
 *                 kernel checks every message, validates the result and
 *                 aborts it (stock nft's check mode). A kernel that
 *                 cannot be reached is not an error then.
 * @NFTC_NL_CMDS: the commands the batch's seq map points to are still
 *                allocated, so errors can be located down to the table
 *                or chain name or the expression the kernel rejected.
 *                Without it only the location kept in the seq map is
 *                known (streaming compilation frees its commands).
 * @NFTC_NL_IMPRECISE_OK: without NFTC_NL_CMDS, rather than reporting
 *                errors at the seq map's locations, return
 *                NFTC_NL_IMPRECISE: the caller compiles again keeping
 *                its commands and sends again (the kernel left the
 *                ruleset as it was).
 */
enum nftc_nl_flags {
	NFTC_NL_CHECK	= (1 << 0),
	NFTC_NL_CMDS	= (1 << 1),
	NFTC_NL_IMPRECISE_OK = (1 << 2),
};

/* nftc_netlink_send() results besides 0 and -1 */
enum nftc_nl_result {
	/* rejected, nothing queued: compile with commands, send again */
	NFTC_NL_IMPRECISE	= 1,
	/* NFTC_NL_CHECK and no kernel (not root, no nf_tables) */
	NFTC_NL_UNAVAILABLE	= 2,
	/* nftc_netlink_send_at(): the ruleset is not that generation */
	NFTC_NL_RESTART		= 3,
};

/**
 * nftc_netlink_send - apply (or with NFTC_NL_CHECK, test) @batch
 * @ctx: errors are queued in ctx->erq ("Could not process rule: ...")
 * @batch: ended batch (nftc_batch_end()); not modified
 * @flags: enum nftc_nl_flags
 *
 * The batch goes to the kernel in one sendmsg() (a batch cannot be split:
 * the kernel aborts a batch whose BATCH_END is not in the same skb),
 * headed by a BATCH_BEGIN carrying the ruleset generation read with
 * NFT_MSG_GETGEN; a generation change in between (-ERESTART) makes it
 * retry. Either all of the batch applies or none of it.
 *
 * Returns 0 on success (also for an empty batch, which is not sent), -1
 * with errors queued, or an enum nftc_nl_result.
 */
int nftc_netlink_send(struct nftc_ctx *ctx, const struct nftc_batch *batch,
		      unsigned int flags);

/*
 * Read-modify-write: send @batch only if the ruleset is still generation
 * @genid (from nftc_netlink_genid() before it was read), else change
 * nothing and return NFTC_NL_RESTART. A commit that applies makes the
 * generation genid + 1 (0 is skipped). Otherwise as nftc_netlink_send().
 */
int nftc_netlink_send_at(struct nftc_ctx *ctx, const struct nftc_batch *batch,
			 unsigned int flags, uint32_t genid);
/* The ruleset generation (NFT_MSG_GETGEN): 0 or a negative errno. */
int nftc_netlink_genid(struct nftc_ctx *ctx, uint32_t *genid);

/**
 * nftc_netlink_cache_seed - the kernel's ruleset as the evaluator's cache
 *
 * Tables with their chains (without rules), named sets (with elements),
 * objects and flowtables go to ctx->tables, so that commands naming
 * what only the kernel holds ("add rule ip filter input ...", "@set",
 * "jump chain") evaluate as with stock nft. Call before evaluation.
 * Without a kernel (not root, no nf_tables) the cache stays empty and 0
 * is returned: the compilation then stands on its own, as offline.
 * Returns 0 or a negative errno (the cache is then empty).
 */
int nftc_netlink_cache_seed(struct nftc_ctx *ctx);
/*
 * The same, reading the kernel's rules too: with @debug, they are
 * printed there as stock's --debug=netlink prints its cache; with
 * @update, their handles go to their chains' slots (struct rule_slot)
 * and ctx->rule_cache is turned on: what "index N" needs
 * (nftc_cmds_need_rule_cache()).
 */
int nftc_netlink_cache_seed_rules(struct nftc_ctx *ctx, FILE *debug,
				  bool update);
/* chain->flags bit of a seeded chain: the kernel holds it */
#define NFTC_CHAIN_F_KERNEL	(1u << 31)

/*
 * echo.c: print @len bytes of netlink messages, what the kernel echoed of
 * a committed batch (NLM_F_ECHO, nftc_batch_set_echo()), on @out as
 * stock's "nft -e" does: one "add ..." line per table, chain, set,
 * element, object, flowtable and rule, then the new generation.
 * Anonymous sets are not printed but read for the rules using them.
 */
void nftc_echo_print(struct nftc_ctx *ctx, const void *msgs, size_t len,
		     FILE *out, unsigned int oflags);

/* Set (to anything) in the environment: -c never talks to the kernel. */
#define NFTC_OFFLINE_ENV	"NFTKIT_OFFLINE_CHECK"

/**
 * nftc_netlink_commit - what "nft" does with a compiled batch
 * @check: "nft -c": a kernel check (NFTC_NL_CHECK) where a kernel can be
 *         reached and NFTC_OFFLINE_ENV is not set, else nothing (the
 *         compilation was the check)
 * @flags: NFTC_NL_CMDS, NFTC_NL_IMPRECISE_OK
 *
 * Returns 0, -1 with errors queued in ctx->erq, or NFTC_NL_IMPRECISE.
 */
int nftc_netlink_commit(struct nftc_ctx *ctx, const struct nftc_batch *batch,
			bool check, unsigned int flags);

#endif
