/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_TRACE_H
#define NFTC_TRACE_H

#include <stdio.h>

struct nftc_ctx;
struct nftc_offline;

/*
 * "trace packet SELECTORS... [hook NAME]" (@argv: the words after
 * "trace packet") against the offline VM @off: the steps as "nft monitor
 * trace" prints them, then "verdict accept" (drop, ...), on @out; notes
 * on @warn. Returns 0, or -1 with errors queued in ctx->erq.
 */
int nftc_trace_packet(struct nftc_ctx *ctx, struct nftc_offline *off,
		      int argc, char **argv, FILE *out, FILE *warn);

#endif
