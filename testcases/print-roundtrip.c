// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * print-roundtrip: parse + evaluate an nft file with libnftc, then print
 * the evaluated IR with the printer (nftc/printer.h).
 *
 *   print-roundtrip [-s] [-a] [-n] FILE       one line per rule
 *   print-roundtrip -r [-s] [-a] [-n] FILE    the whole ruleset, as
 *                                             "nft list ruleset" would
 *
 * A test driver for the printer and the conformance listing checks, not
 * a product tool. Not built by "make": build it against a build tree with
 *
 *   libtool --mode=link gcc -std=gnu11 -I$SRC/nftc -I$B/nftc -I$B \
 *     -o print-roundtrip $SRC/testcases/print-roundtrip.c \
 *     $B/nftc/libnftc.la $(pkg-config --libs libnftnl libmnl)
 *
 * The builtin resolver is used, so output does not depend on the host.
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nftc.h"
#include "printer.h"

struct opts {
	bool		ruleset;
	unsigned int	flags;
	const char	*file;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c;

	while ((c = getopt(argc, argv, "rsan")) != -1) {
		switch (c) {
		case 'r':
			o->ruleset = true;
			break;
		case 's':
			o->flags |= NFTC_OUTPUT_STATELESS;
			break;
		case 'a':
			o->flags |= NFTC_OUTPUT_HANDLE;
			break;
		case 'n':
			o->flags |= NFTC_OUTPUT_NUMERIC_ALL |
				    NFTC_OUTPUT_NUMERIC_SYMBOL |
				    NFTC_OUTPUT_NUMERIC_PROTO;
			break;
		default:
			return -1;
		}
	}
	if (optind + 1 != argc)
		return -1;
	o->file = argv[optind];
	return 0;
}

static void print_rules(struct output_ctx *octx, const struct list_head *cmds)
{
	const struct cmd *cmd;

	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj != CMD_OBJ_RULE || !cmd->rule ||
		    cmd->op == CMD_DELETE)
			continue;
		nftc_print_rule(octx, cmd->rule);
		fputc('\n', octx->f);
	}
}

static bool same_table(const struct handle *a, const struct handle *b)
{
	return a->family == b->family && a->table.name && b->table.name &&
	       !strcmp(a->table.name, b->table.name);
}

static struct chain *find_chain(const struct list_head *cmds,
				const struct handle *h)
{
	const struct cmd *cmd;

	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj == CMD_OBJ_CHAIN && cmd->chain &&
		    cmd->op != CMD_DELETE && same_table(&cmd->handle, h) &&
		    h->chain.name && cmd->chain->handle.chain.name &&
		    !strcmp(cmd->chain->handle.chain.name, h->chain.name))
			return cmd->chain;
	}
	return NULL;
}

/*
 * The evaluated commands hold the chains (with hook, policy, devices)
 * and rules; the context's table cache holds sets, objects and
 * flowtables. Build a listing view: a shallow table per cached table
 * whose chains are the declared ones with their rules linked in; undone
 * before anything is freed.
 */
static void print_ruleset(struct output_ctx *octx, struct nftc_ctx *ctx,
			  struct list_head *cmds)
{
	struct chain *chain, *cn;
	struct rule *rule, *rn;
	struct table *t, view;
	struct cmd *cmd;

	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj == CMD_OBJ_CHAIN && cmd->chain &&
		    cmd->op != CMD_DELETE)
			init_list_head(&cmd->chain->rules);
	}
	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj != CMD_OBJ_RULE || !cmd->rule ||
		    cmd->op == CMD_DELETE)
			continue;
		chain = find_chain(cmds, &cmd->handle);
		if (chain)
			list_add_tail(&cmd->rule->list, &chain->rules);
	}
	list_for_each_entry(t, &ctx->tables, list) {
		view = *t;
		init_list_head(&view.chains);
		init_list_head(&view.objs);
		init_list_head(&view.sets);
		init_list_head(&view.flowtables);
		if (!list_empty(&t->objs))
			list_splice_tail_init(&t->objs, &view.objs);
		if (!list_empty(&t->sets))
			list_splice_tail_init(&t->sets, &view.sets);
		if (!list_empty(&t->flowtables))
			list_splice_tail_init(&t->flowtables, &view.flowtables);
		list_for_each_entry(cmd, cmds, list) {
			if (cmd->obj == CMD_OBJ_TABLE && cmd->table &&
			    same_table(&cmd->handle, &t->handle) &&
			    cmd->table->comment && !view.comment)
				view.comment = cmd->table->comment;
			if (cmd->obj == CMD_OBJ_CHAIN && cmd->chain &&
			    cmd->op != CMD_DELETE &&
			    same_table(&cmd->handle, &t->handle) &&
			    cmd->chain == find_chain(cmds,
						     &cmd->chain->handle))
				list_add_tail(&cmd->chain->list, &view.chains);
		}
		nftc_print_table(octx, &view);
		list_splice_tail_init(&view.objs, &t->objs);
		list_splice_tail_init(&view.sets, &t->sets);
		list_splice_tail_init(&view.flowtables, &t->flowtables);
		list_for_each_entry_safe(chain, cn, &view.chains, list)
			list_del(&chain->list);
	}
	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj != CMD_OBJ_CHAIN || !cmd->chain ||
		    cmd->op == CMD_DELETE)
			continue;
		list_for_each_entry_safe(rule, rn, &cmd->chain->rules, list)
			list_del(&rule->list);
	}
}

int main(int argc, char **argv)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct output_ctx octx = { .f = stdout };
	struct opts o = { 0 };
	struct nftc_ctx *ctx;
	int ret;

	if (parse_opts(argc, argv, &o) < 0) {
		fprintf(stderr, "usage: %s [-r] [-s] [-a] [-n] FILE\n",
			argv[0]);
		return 2;
	}
	octx.flags = o.flags;
	ctx = nftc_ctx_alloc();
	if (!ctx)
		return 2;
	ctx->resolver = &nftc_resolver_builtin;
	ret = nftc_parse_file(ctx, o.file, &cmds);
	if (nftc_evaluate(ctx, &cmds) < 0 || ret < 0) {
		erec_queue_format(stderr, &ctx->erq);
		cmd_list_free(&cmds);
		nftc_ctx_free(ctx);
		return 1;
	}
	if (o.ruleset)
		print_ruleset(&octx, ctx, &cmds);
	else
		print_rules(&octx, &cmds);
	cmd_list_free(&cmds);
	nftc_ctx_free(ctx);
	return 0;
}
