/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LINEARIZE_H
#define NFTC_LINEARIZE_H

#include <stdint.h>
#include <stdio.h>
#include "nftc.h"

struct nftnl_rule;
struct nftnl_set;
struct nftc_batch;

/**
 * nftc_batch_alloc - an nfnetlink batch under construction
 *
 * Messages are appended in command order between BATCH_BEGIN and
 * BATCH_END; the buffer grows in pages so 100,000 rules never need one
 * contiguous allocation.
 */
struct nftc_batch *nftc_batch_alloc(uint32_t seq);
void nftc_batch_free(struct nftc_batch *batch);
/*
 * A segment: messages without BATCH_BEGIN, appended to a batch later
 * with nftc_batch_splice() (which renumbers them and frees @seg).
 */
struct nftc_batch *nftc_batch_segment_alloc(void);
int nftc_batch_splice(struct nftc_batch *batch, struct nftc_batch *seg);
/* Empty a segment for reuse (its first chunk is kept). */
void nftc_batch_segment_reset(struct nftc_batch *seg);
/* Close the batch (BATCH_END). */
int nftc_batch_end(struct nftc_batch *batch);
/* "nft -e": ask the kernel to echo what the batch adds (batch.c). */
void nftc_batch_set_echo(struct nftc_batch *batch);
/* Iterate the finished batch as iovec-like chunks for sendmsg(). */
unsigned int nftc_batch_chunks(const struct nftc_batch *batch);
const void *nftc_batch_chunk(const struct nftc_batch *batch, unsigned int i,
			     size_t *len);
/* Sequence number of the first message and of the next free one. */
uint32_t nftc_batch_seq_first(const struct nftc_batch *batch);
uint32_t nftc_batch_seq_next(const struct nftc_batch *batch);

/**
 * struct nftc_seq_loc - which command and location produced a message
 *
 * The backend maps a kernel error (by sequence number, and by attribute
 * offset with extended acks) back to the source token.
 */
struct nftc_seq_loc {
	uint32_t		seq;
	const struct cmd	*cmd;
	struct location		location;
};

/*
 * A message its caller writes itself (iptables-restore-nft's fast path):
 * the header, with the next sequence number, and room for
 * NFTC_BATCH_MSG_ROOM bytes, attributed to @loc; nftc_batch_msg_end()
 * appends it (one never ended is not part of the batch).
 */
#define NFTC_BATCH_MSG_ROOM	(UINT16_MAX + 4096)
struct nlmsghdr *nftc_batch_msg_begin(struct nftc_batch *batch, uint16_t type,
				      uint16_t flags, uint32_t family,
				      const struct location *loc);
int nftc_batch_msg_end(struct nftc_batch *batch, struct nlmsghdr *nlh);

/* Object messages in the batch (BATCH_BEGIN/END excluded). */
unsigned int nftc_batch_num_msgs(const struct nftc_batch *batch);
/* Attribute the messages appended from now on to @cmd at @loc. */
void nftc_batch_set_source(struct nftc_batch *batch, const struct cmd *cmd,
			   const struct location *loc);
/* The object message appended last (NULL: none). */
const struct nlmsghdr *nftc_batch_last_msg(const struct nftc_batch *b);
/* Print rule message @nlh as --debug=netlink does (0, or < 0). */
int nftc_lin_rule_debug(FILE *out, const struct nlmsghdr *nlh);

/* Which command produced message @seq, into *@out (false: BATCH_BEGIN,
 * BATCH_END, unknown numbers). */
bool nftc_batch_seq_lookup(const struct nftc_batch *batch, uint32_t seq,
			   struct nftc_seq_loc *out);

/*
 * Linearize evaluated commands into @batch: one message per object, with
 * VM code for rules (register allocation included). With
 * NFTC_DEBUG_NETLINK in ctx->debug, the VM code is written to @debug_out
 * in the textual form of libnftnl / "nft --debug=netlink".
 * Returns 0, or -1 with errors queued in ctx->erq.
 */
int nftc_linearize(struct nftc_ctx *ctx, struct list_head *cmds,
		   struct nftc_batch *batch, FILE *debug_out);

/* lin_debug_bound.c: a rule message naming chains by id, renamed */
struct nlmsghdr;
struct nlmsghdr *nftc_rule_msg_named(const struct nlmsghdr *nlh, int *err);

#endif
