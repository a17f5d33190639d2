// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The translation as nftc commands, for callers that linearize it
 * themselves (iptables-restore-nft): the same tables, sets, chains and
 * rules xl_output() evaluates and prints, handed over instead.
 */
#include <config.h>
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

static int take_sets(struct xlate_ctx *ctx, struct xl_table *t,
		     struct list_head *cmds)
{
	struct xl_set_decl *sd;
	struct handle h;
	int ret = 0;

	list_for_each_entry(sd, &ctx->sets, list) {
		if (strcmp(sd->table, t->layout->name))
			continue;
		memset(&h, 0, sizeof(h));
		h.family = ctx->family;
		h.table.name = strdup(t->layout->name);
		h.set.name = strdup(sd->set->handle.set.name);
		ret |= add_cmd(cmds, CMD_ADD, CMD_OBJ_SET, &h,
			       &sd->set->location, set_get(sd->set));
		handle_free(&h);
	}
	return ret;
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

static int take_rules(struct xl_table *t, struct xl_chain *c,
		      struct list_head *cmds)
{
	struct xl_rule_ent *e;
	char *orig = orig_name(c);

	list_for_each_entry(e, &c->rules, list) {
		if (!e->rule)
			continue;
		if (orig) {
			free(e->rule->handle.chain.name);
			e->rule->handle.chain.name = strdup(orig);
		}
		unrename_jumps(t, e->rule);
		if (add_cmd(cmds, CMD_ADD, CMD_OBJ_RULE, &e->rule->handle,
			    &e->loc, e->rule) < 0)
			return -1;
		e->rule = NULL;	/* the command owns it now */
	}
	free(orig);
	return 0;
}

int xlate_take_cmds(struct xlate_ctx *ctx, const struct xlate_cmd_ops *ops,
		    void *priv, struct list_head *cmds)
{
	struct xlate_chain_info ci;
	struct xl_table *t;
	struct xl_chain *c;
	int ret;

	list_for_each_entry(t, &ctx->tables, list) {
		ret = ops->table(priv, t->layout->name, &t->loc, cmds);
		if (ret < 0)
			return ret;
		if (ret > 0)
			continue;
		if (take_sets(ctx, t, cmds))
			return -1;
		list_for_each_entry(c, &t->chains, list) {
			char *orig = orig_name(c);

			ci = (struct xlate_chain_info) {
				.table = t->layout->name,
				.name = orig ? orig : c->name,
				.base = c->hook != NULL, .policy = c->policy,
				.packets = c->packets, .bytes = c->bytes,
				.loc = &c->loc,
			};
			ret = ops->chain(priv, &ci, cmds);
			free(orig);
			if (ret < 0)
				return ret;
		}
		list_for_each_entry(c, &t->chains, list) {
			if (take_rules(t, c, cmds))
				return -1;
		}
	}
	return 0;
}
