// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compiler context: everything one compilation owns.
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "input_map.h"
#include "nftc.h"
#include "anon_names.h"

struct nftc_ctx *nftc_ctx_alloc(void)
{
	struct nftc_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	erec_queue_init(&ctx->erq, NFTC_DEFAULT_MAX_ERRORS);
	init_list_head(&ctx->tables);
	ctx->resolver = &nftc_resolver_builtin;
	return ctx;
}

static void nftc_inputs_free(struct input_desc *in)
{
	struct input_desc *next;

	for (; in; in = next) {
		next = in->next;
		free(in->name);
		if (in->map_len)
			input_unmap(in);
		else
			free(in->data);
		free(in);
	}
}

void nftc_ctx_free(struct nftc_ctx *ctx)
{
	struct table *table, *next;

	if (!ctx)
		return;
	list_for_each_entry_safe(table, next, &ctx->tables, list) {
		list_del(&table->list);
		table_free(table);
	}
	erec_queue_free(&ctx->erq);
	nftc_inputs_free(ctx->inputs);
	anon_names_free(ctx->anon_names);
	free(ctx);
}

int nftc_add_include_path(struct nftc_ctx *ctx, const char *path)
{
	if (ctx->num_include_paths >= NFTC_MAX_INCLUDE_PATHS)
		return -ENOSPC;
	ctx->include_paths[ctx->num_include_paths++] = path;
	return 0;
}
