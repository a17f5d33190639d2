// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: nft text -> parse -> evaluate -> linearize, the way
 * `nft -c --debug=netlink -f` drives the library. Any crash, sanitizer
 * report, leak or hang is a bug: bad input must only ever produce queued
 * diagnostics and a -1.
 *
 * Build and run: testcases/fuzz/build-and-run.sh (clang, libFuzzer).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nftc.h"
#include "linearize.h"

/* Inputs beyond this only slow the fuzzer down without new coverage. */
#define FUZZ_MAX_INPUT	(64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The debug printer is part of what we test; its text is dropped. */
	static FILE *devnull;
	struct list_head cmds;
	struct nftc_batch *batch;
	struct nftc_ctx *ctx;
	char *buf;
	int ret;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';

	ctx = nftc_ctx_alloc();
	if (!ctx) {
		free(buf);
		return 0;
	}
	ctx->debug = devnull ? NFTC_DEBUG_NETLINK : 0;
	init_list_head(&cmds);

	ret = nftc_parse_buffer(ctx, buf, &cmds);
	/* As the CLI does: evaluate even after parse errors. */
	if (nftc_evaluate(ctx, &cmds) < 0)
		ret = -1;
	if (ret == 0) {
		batch = nftc_batch_alloc(1);
		if (batch) {
			if (nftc_linearize(ctx, &cmds, batch, devnull) == 0)
				nftc_batch_end(batch);
			nftc_batch_free(batch);
		}
	}
	/* Rendering diagnostics walks locations: exercise it too. */
	if (devnull)
		erec_queue_format(devnull, &ctx->erq);

	cmd_list_free(&cmds);
	nftc_ctx_free(ctx);
	free(buf);
	return 0;
}
