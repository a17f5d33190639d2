// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The translation as nftc commands, for callers that linearize it
 * themselves (iptables-restore-nft): the same tables, sets, chains and
 * rules xl_output() evaluates and prints, handed over while the file is
 * read (xlate_stream()).
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xlate_int.h"

static int add_cmd(struct list_head *cmds, enum cmd_ops op,
		   enum cmd_obj obj, const struct handle *h,
		   const struct location *loc, void *data)
{
	struct cmd *cmd = cmd_alloc(op, obj, h, loc, data);

	if (!cmd)
		return -1;
	list_add_tail(&cmd->list, cmds);
	return 0;
}

/*
 * A chain named like an nft keyword got a trailing '_' for nft text;
 * the kernel takes any name, so the commands use the iptables one.
 */
static char *orig_name(const struct xl_chain *c)
{
	size_t n = strlen(c->name);

	return c->renamed && n > 1 ? strndup(c->name, n - 1) : NULL;
}

static void unrename_jumps(struct xl_table *t, struct rule *r)
{
	struct xl_chain *c;
	struct stmt *s;
	struct expr *ch;
	char *orig;

	list_for_each_entry(s, &r->stmts, list) {
		if (s->kind != STMT_VERDICT || s->expr->kind != EXPR_VERDICT)
			continue;
		ch = s->expr->verdict.chain;
		if (!ch || ch->kind != EXPR_SYMBOL)
			continue;
		list_for_each_entry(c, &t->chains, list) {
			if (!c->renamed || strcmp(c->name, ch->sym.identifier))
				continue;
			orig = orig_name(c);
			if (orig) {
				free(ch->sym.identifier);
				ch->sym.identifier = orig;
			}
			break;
		}
	}
}

void xlate_stream(struct xlate_ctx *ctx, const struct xlate_cmd_ops *ops,
		  void *priv)
{
	ctx->stream = ops;
	ctx->stream_priv = priv;
	ctx->stream_err = 0;
}

int xlate_stream_status(const struct xlate_ctx *ctx)
{
	return ctx->stream_err;
}

static bool stream_live(const struct xlate_ctx *ctx)
{
	return ctx->stream && !ctx->stream_err && !ctx->erq.num_errors;
}

/* What @t declared since the last call: 0, 1 (table skipped) or < 0. */
static int stream_decls(struct xlate_ctx *ctx, struct xl_table *t)
{
	const struct xlate_cmd_ops *ops = ctx->stream;
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct xlate_chain_info ci;
	struct xl_set_decl *sd;
	struct xl_chain *c;
	struct handle h;
	bool any = false;
	int ret = 0;

	if (!t->streamed) {
		t->streamed = true;
		ret = ops->table(ctx->stream_priv, t->layout->name, &t->loc,
				 &cmds);
		t->stream_skip = ret > 0;
		any = ret == 0;
	}
	if (t->stream_skip || ret < 0)
		goto out;
	list_for_each_entry(sd, &ctx->sets, list) {
		if (sd->streamed || strcmp(sd->table, t->layout->name))
			continue;
		sd->streamed = any = true;
		memset(&h, 0, sizeof(h));
		h.family = ctx->family;
		h.table.name = strdup(t->layout->name);
		h.set.name = strdup(sd->set->handle.set.name);
		ret = add_cmd(&cmds, CMD_ADD, CMD_OBJ_SET, &h,
			      &sd->set->location, set_get(sd->set));
		handle_free(&h);
		if (ret < 0)
			goto out;
	}
	list_for_each_entry(c, &t->chains, list) {
		char *orig;

		if (c->streamed || c->external)
			continue;
		c->streamed = any = true;
		orig = orig_name(c);
		ci = (struct xlate_chain_info) {
			.table = t->layout->name,
			.name = orig ? orig : c->name,
			.base = c->hook != NULL, .policy = c->policy,
			.packets = c->packets, .bytes = c->bytes,
			.loc = &c->loc,
		};
		ret = ops->chain(ctx->stream_priv, &ci, &cmds);
		free(orig);
		if (ret < 0)
			goto out;
	}
	if (any)
		ret = ops->decls(ctx->stream_priv, &cmds);
out:
	cmd_list_free(&cmds);
	if (ret < 0)
		ctx->stream_err = ret;
	return ret < 0 ? ret : t->stream_skip;
}

/* At @t's COMMIT: declarations of a table without (further) rules. */
void xl_stream_table(struct xlate_ctx *ctx, struct xl_table *t)
{
	if (stream_live(ctx))
		stream_decls(ctx, t);
}

int xl_stream_rule(struct xlate_ctx *ctx, struct xl_table *t,
		   struct xl_chain *c, struct rule *r,
		   const struct location *loc, bool insert)
{
	struct cmd *cmd;
	char *orig;
	int ret;

	if (!stream_live(ctx) || stream_decls(ctx, t) != 0) {
		rule_free(r);
		return 0;
	}
	orig = orig_name(c);
	if (orig) {
		free(r->handle.chain.name);
		r->handle.chain.name = orig;
	}
	unrename_jumps(t, r);
	cmd = cmd_alloc(insert ? CMD_INSERT : CMD_ADD, CMD_OBJ_RULE,
			&r->handle, loc, r);
	if (!cmd) {
		rule_free(r);
		ctx->stream_err = -ENOMEM;
		return -1;
	}
	ret = ctx->stream->rule(ctx->stream_priv, cmd);
	if (ret < 0)
		ctx->stream_err = ret;
	return 0;
}

static int fast_jump_ok(const struct xlate_fast_rule *fr, const char *name)
{
	struct xl_chain *c = xl_chain_find(fr->priv[1], name);

	if (!c)
		return 0;
	return !c->hook && !c->renamed && !c->external ? 1 : -1;
}

static int fast_ready(const struct xlate_fast_rule *fr)
{
	return stream_decls(fr->priv[0], fr->priv[1]);
}

/* At most this many words go the fast way (more: parsed). */
#define XL_FAST_MAX_WORDS	64

int xl_stream_fast(struct xlate_ctx *ctx, struct xl_table *t,
		   struct xl_chain *c, const struct xl_token *tok,
		   unsigned int n, const struct location *loc, bool insert)
{
	const char *argv[XL_FAST_MAX_WORDS];
	struct xlate_fast_rule fr = {
		.table = t->layout->name, .chain = c->name, .argv = argv,
		.argc = n, .loc = loc, .insert = insert,
		.jump_ok = fast_jump_ok, .ready = fast_ready,
		.priv = { ctx, t },
	};
	unsigned int i;
	int ret;

	if (!ctx->stream->fast || !stream_live(ctx) || c->renamed ||
	    n > XL_FAST_MAX_WORDS)
		return 0;
	for (i = 0; i < n; i++)
		argv[i] = tok[i].text;
	ret = ctx->stream->fast(ctx->stream_priv, &fr);
	if (ret < 0)
		ctx->stream_err = ret;
	return ret != 0;
}
