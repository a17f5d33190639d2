/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_TRACE_H
#define NFTC_TRACE_H

#include <stdio.h>

struct nftc_ctx;
struct nftc_offline;

/*
 * "trace packet SELECTORS... [hook NAME]" (@argv: the words after
 * "trace", "packet" first) against the offline VM @off; "trace pcap FILE
 * [hook NAME]" (argv[0] "pcap") is nftc_trace_pcap(): the steps as "nft monitor
 * trace" prints them, then "verdict accept" (drop, ...), on @out; notes
 * on @warn. Returns 0, or -1 with errors queued in ctx->erq.
 */
int nftc_trace_packet(struct nftc_ctx *ctx, struct nftc_offline *off,
		      int argc, char **argv, FILE *out, FILE *warn);

/*
 * "trace pcap FILE [hook NAME]": every IP packet of the capture @path
 * through @hook of the offline VM; verdict totals and per-rule hit
 * counts on @out. Returns 0, or -1 with errors queued in ctx->erq.
 */
int nftc_trace_pcap(struct nftc_ctx *ctx, struct nftc_offline *off,
		    const char *path, unsigned int hook, FILE *out);

/*
 * The packet "trace packet @sel" describes through @hook (NF_INET_*, -1:
 * from the selectors) of @vm, the result in @res and nothing printed.
 * Returns 0, or -1 with errors queued in ctx->erq.
 */
struct nftvm;
struct nftvm_result;
int nftc_trace_eval(struct nftc_ctx *ctx, struct nftvm *vm, const char *sel,
		    int hook, struct nftvm_result *res);

#endif
