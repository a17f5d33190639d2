// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output: the translated IR goes through nftc's evaluator (types,
 * dependencies, anonymous sets: exactly what "nft -f" would do with
 * it) and is printed by nftc's printer, as a ruleset or as commands.
 *
 * Tables, chains and sets are evaluated first; then each rule on its
 * own, so that a rule the evaluator rejects is reported and left out
 * without losing the others.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "xlate_int.h"
#include "nftc.h"
#include "printer.h"
#include "evaluate.h"

struct xl_out {
	struct xlate_ctx	*ctx;
	struct nftc_ctx		*nft;
	struct list_head	decls;		/* table/chain/set cmds */
	struct list_head	rules;		/* evaluated rule cmds */
	FILE			*f;
	unsigned int		oflags;
};

static void handle_set(struct handle *h, uint8_t family, const char *table,
		       const char *chain)
{
	memset(h, 0, sizeof(*h));
	h->family = family;
	h->table.name = strdup(table);
	if (chain)
		h->chain.name = strdup(chain);
}

/* Move the compiler's diagnostics into ours (their locations are ours). */
static void take_errors(struct xl_out *o)
{
	struct error_record *e, *n;

	list_for_each_entry_safe(e, n, &o->nft->erq.records, list) {
		list_del(&e->list);
		list_add_tail(&e->list, &o->ctx->erq.records);
		if (e->type == EREC_ERROR)
			o->ctx->erq.num_errors++;
	}
	o->nft->erq.num_errors = 0;
}

static struct chain *chain_decl(struct xlate_ctx *ctx, struct xl_table *t,
				struct xl_chain *c)
{
	struct chain *ch = chain_alloc();
	char prio[16];

	if (!ch)
		return NULL;
	handle_set(&ch->handle, ctx->family, t->layout->name, c->name);
	ch->location = c->loc;
	if (c->hook) {
		ch->is_base = true;
		ch->type.name = strdup(c->hook->type);
		ch->hook_name.name = strdup(c->hook->hook_name);
		snprintf(prio, sizeof(prio), "%d", c->hook->prio);
		ch->priority = symbol_expr_alloc(&c->loc, SYMBOL_VALUE, prio);
		ch->policy = symbol_expr_alloc(&c->loc, SYMBOL_VALUE,
					       c->policy == NF_DROP ? "drop" :
								      "accept");
	}
	return ch;
}

static int add_decl(struct xl_out *o, enum cmd_obj obj, void *data,
		    const struct handle *h, const struct location *loc)
{
	struct cmd *cmd = cmd_alloc(CMD_ADD, obj, h, loc, data);

	if (!cmd)
		return -1;
	list_add_tail(&cmd->list, &o->decls);
	return 0;
}

static int build_decls(struct xl_out *o)
{
	struct xlate_ctx *ctx = o->ctx;
	struct xl_set_decl *sd;
	struct xl_table *t;
	struct xl_chain *c;
	struct handle h;
	int ret = 0;

	list_for_each_entry(t, &ctx->tables, list) {
		struct table *tab = table_alloc();

		handle_set(&h, ctx->family, t->layout->name, NULL);
		ret |= add_decl(o, CMD_OBJ_TABLE, tab, &h, &t->loc);
		handle_free(&h);
		list_for_each_entry(c, &t->chains, list) {
			handle_set(&h, ctx->family, t->layout->name, c->name);
			ret |= add_decl(o, CMD_OBJ_CHAIN, chain_decl(ctx, t, c),
					&h, &c->loc);
			handle_free(&h);
		}
		list_for_each_entry(sd, &ctx->sets, list) {
			if (strcmp(sd->table, t->layout->name))
				continue;
			handle_set(&h, ctx->family, t->layout->name, NULL);
			h.set.name = strdup(sd->set->handle.set.name);
			ret |= add_decl(o, CMD_OBJ_SET, set_get(sd->set), &h,
					&sd->set->location);
			handle_free(&h);
		}
	}
	if (ret)
		return -1;
	ret = nftc_evaluate(o->nft, &o->decls);
	take_errors(o);
	return ret;
}

/*
 * A device (TEE --oif: "dup to ... device eth0") evaluates to its index
 * in this namespace; the output names it as the rule did, for where it
 * is loaded. @saved holds the symbol before evaluation, or NULL.
 */
static struct expr *dup_dev_save(struct rule *rule)
{
	struct stmt *s;

	list_for_each_entry(s, &rule->stmts, list) {
		if (s->kind == STMT_DUP && s->dup.dev &&
		    s->dup.dev->kind == EXPR_SYMBOL)
			return expr_clone(s->dup.dev);
	}
	return NULL;
}

static void dup_dev_restore(struct rule *rule, struct expr *saved)
{
	struct stmt *s;

	if (!saved)
		return;
	list_for_each_entry(s, &rule->stmts, list) {
		if (s->kind == STMT_DUP && s->dup.dev) {
			expr_free(s->dup.dev);
			s->dup.dev = saved;
			return;
		}
	}
	expr_free(saved);
}

static void eval_rules(struct xl_out *o)
{
	struct xlate_ctx *ctx = o->ctx;
	bool commands = ctx->flags & XLATE_F_COMMANDS || ctx->cmd_mode;
	struct xl_rule_ent *e;
	struct xl_table *t;
	struct xl_chain *c;
	struct list_head one;

	list_for_each_entry(t, &ctx->tables, list) {
		list_for_each_entry(c, &t->chains, list) {
			list_for_each_entry(e, &c->rules, list) {
				struct cmd *cmd;

				if (!e->rule) {
					ctx->stats.failed++;
					continue;
				}
				cmd = cmd_alloc(ctx->cmd_insert ? CMD_INSERT :
						CMD_ADD, CMD_OBJ_RULE,
						&e->rule->handle, &e->loc,
						e->rule);
				struct expr *dev = dup_dev_save(e->rule);

				init_list_head(&one);
				list_add_tail(&cmd->list, &one);
				if (nftc_evaluate(o->nft, &one) < 0) {
					expr_free(dev);
					take_errors(o);
					/* the cmd owns and frees the rule */
					e->rule = NULL;
					cmd_list_free(&one);
					ctx->stats.failed++;
					continue;
				}
				take_errors(o);
				dup_dev_restore(e->rule, dev);
				if (e->inexact)
					ctx->stats.inexact++;
				else
					ctx->stats.translated++;
				if (!commands) {
					/* a ruleset prints e->rule: the
					 * command is done with (a seventh
					 * of the memory held otherwise) */
					cmd->rule = NULL;
					cmd_list_free(&one);
					continue;
				}
				list_splice_tail_init(&one, &o->rules);
			}
		}
	}
}

static struct chain *decl_chain(struct xl_out *o, const char *table,
				const char *name)
{
	struct cmd *cmd;

	list_for_each_entry(cmd, &o->decls, list) {
		if (cmd->obj == CMD_OBJ_CHAIN &&
		    !strcmp(cmd->handle.table.name, table) &&
		    !strcmp(cmd->chain->handle.chain.name, name))
			return cmd->chain;
	}
	return NULL;
}

/* A listing view of table @t: its chains with their rules, its sets. */
static void print_table(struct xl_out *o, struct xl_table *t,
			struct output_ctx *octx)
{
	struct table *cached, view;
	struct xl_rule_ent *e;
	struct xl_chain *c;
	struct chain *ch;
	struct set *s, *sn;

	cached = table_cache_find(o->nft, o->ctx->family, t->layout->name);
	memset(&view, 0, sizeof(view));
	handle_set(&view.handle, o->ctx->family, t->layout->name, NULL);
	init_list_head(&view.chains);
	init_list_head(&view.sets);
	init_list_head(&view.objs);
	init_list_head(&view.flowtables);
	list_for_each_entry(c, &t->chains, list) {
		ch = decl_chain(o, t->layout->name, c->name);
		if (!ch)
			continue;
		init_list_head(&ch->rules);
		list_for_each_entry(e, &c->rules, list) {
			if (e->rule)
				list_add_tail(&e->rule->list, &ch->rules);
		}
		list_add_tail(&ch->list, &view.chains);
	}
	if (cached) {
		list_for_each_entry_safe(s, sn, &cached->sets, list) {
			if (!(s->flags & SET_F_ANONYMOUS)) {
				list_del(&s->list);
				list_add_tail(&s->list, &view.sets);
			}
		}
	}
	nftc_print_table(octx, &view);
	if (cached)
		list_splice_tail_init(&view.sets, &cached->sets);
	list_for_each_entry(c, &t->chains, list) {
		ch = decl_chain(o, t->layout->name, c->name);
		if (ch) {
			list_del(&ch->list);
			init_list_head(&ch->rules);
		}
	}
	handle_free(&view.handle);
}

/*
 * "add set FAMILY TABLE NAME { type ...; flags ...; }": the printer's
 * listing of the set, its lines joined (element lists stay as they are
 * continued: after '{' or ',').
 */
static void print_set_command(struct xl_out *o, struct output_ctx *octx,
			      const struct set *set)
{
	FILE *orig = octx->f, *m;
	char *buf = NULL, *line, *save, *p;
	size_t len = 0;
	bool first = true, cont = false;

	m = open_memstream(&buf, &len);
	if (!m)
		return;
	octx->f = m;
	nftc_print_set(octx, set);
	fclose(m);
	octx->f = orig;
	fprintf(o->f, "add set %s %s %s {", nftc_family_name(o->ctx->family),
		set->handle.table.name, set->handle.set.name);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (*line == '\t' || *line == ' ')
			line++;
		if (first) {		/* "set NAME {" */
			first = false;
			continue;
		}
		if (!strcmp(line, "}") && !cont)
			break;
		fprintf(o->f, cont ? " %s" : " %s", line);
		p = line + strlen(line);
		cont = p > line && (p[-1] == '{' || p[-1] == ',');
		if (!cont)
			fputc(';', o->f);
	}
	fputs(" }\n", o->f);
	free(buf);
}

static void print_set_commands(struct xl_out *o, struct output_ctx *octx)
{
	struct xl_table *t;
	struct table *cached;
	struct set *s;

	list_for_each_entry(t, &o->ctx->tables, list) {
		cached = table_cache_find(o->nft, o->ctx->family,
					  t->layout->name);
		if (!cached)
			continue;
		list_for_each_entry(s, &cached->sets, list) {
			if (!(s->flags & SET_F_ANONYMOUS))
				print_set_command(o, octx, s);
		}
	}
}

static void print_commands(struct xl_out *o, struct output_ctx *octx)
{
	const char *fam = nftc_family_name(o->ctx->family);
	struct xl_plain_cmd *pc;
	struct xl_table *t;
	struct xl_chain *c;
	struct cmd *cmd;

	if (!o->ctx->cmd_mode) {
		list_for_each_entry(t, &o->ctx->tables, list) {
			fprintf(o->f, "add table %s %s\n", fam,
				t->layout->name);
			list_for_each_entry(c, &t->chains, list) {
				fprintf(o->f, "add chain %s %s %s", fam,
					t->layout->name, c->name);
				if (c->hook)
					fprintf(o->f, " { type %s hook %s "
						"priority %d; policy %s; }",
						c->hook->type, c->hook->hook_name,
						c->hook->prio,
						c->policy == NF_DROP ?
						"drop" : "accept");
				fputc('\n', o->f);
			}
		}
	}
	list_for_each_entry(pc, &o->ctx->plain, list) {
		fprintf(o->f, "%s %s %s", pc->verb, fam, pc->table);
		if (pc->chain)
			fprintf(o->f, " %s", pc->chain);
		fputc('\n', o->f);
	}
	print_set_commands(o, octx);
	list_for_each_entry(cmd, &o->rules, list) {
		if (cmd->obj != CMD_OBJ_RULE)
			continue;
		fprintf(o->f, "%s rule %s %s %s ",
			cmd->op == CMD_INSERT ? "insert" : "add", fam,
			cmd->handle.table.name, cmd->handle.chain.name);
		octx->family = o->ctx->family;
		nftc_print_rule(octx, cmd->rule);
		fputc('\n', o->f);
	}
}

/* Rules the evaluator kept belong to the chains again for printing. */
static void detach_rule_cmds(struct xl_out *o)
{
	struct cmd *cmd;

	list_for_each_entry(cmd, &o->rules, list) {
		if (cmd->obj == CMD_OBJ_RULE)
			cmd->rule = NULL;
	}
}

int xl_output(struct xlate_ctx *ctx, FILE *f)
{
	struct xl_out o = { .ctx = ctx, .f = f };
	struct output_ctx octx = { .f = f };
	struct xl_table *t;
	int ret = 0;

	init_list_head(&o.decls);
	init_list_head(&o.rules);
	o.nft = nftc_ctx_alloc();
	if (!o.nft)
		return -1;
	o.nft->resolver = ctx->flags & XLATE_F_SYSTEM_IFACES ?
			  &nftc_resolver_builtin_ifaces :
			  &nftc_resolver_builtin;
	o.nft->erq.max_errors = ~0u;
	octx.flags |= NFTC_OUTPUT_EXACT;
	if (!(ctx->flags & XLATE_F_COUNTERS))
		octx.flags |= NFTC_OUTPUT_STATELESS;
	if (build_decls(&o) < 0) {
		ret = -1;
		goto out;
	}
	eval_rules(&o);
	if (ctx->flags & XLATE_F_COMMANDS || ctx->cmd_mode) {
		print_commands(&o, &octx);
	} else {
		list_for_each_entry(t, &ctx->tables, list)
			print_table(&o, t, &octx);
	}
out:
	detach_rule_cmds(&o);
	cmd_list_free(&o.rules);
	cmd_list_free(&o.decls);
	nftc_ctx_free(o.nft);
	return ret;
}

int xlate_print(struct xlate_ctx *ctx, FILE *f)
{
	if (xl_output(ctx, f) < 0)
		return -1;
	return ctx->stats.failed || ctx->stats.inexact ||
	       ctx->erq.num_errors ? 1 : 0;
}

int xlate_sources(struct xlate_ctx *ctx,
		  int (*fn)(void *priv, const struct xlate_source *src),
		  void *priv)
{
	struct xlate_source src;
	struct xl_rule_ent *e;
	struct xl_table *t;
	struct xl_chain *c;
	int ret;

	list_for_each_entry(t, &ctx->tables, list) {
		list_for_each_entry(c, &t->chains, list) {
			src.table = t->layout->name;
			src.chain = c->name;
			src.index = -1;
			src.loc = &c->loc;
			ret = fn(priv, &src);
			list_for_each_entry(e, &c->rules, list) {
				if (ret < 0)
					return ret;
				if (!e->rule)
					continue;
				src.index++;
				src.loc = &e->loc;
				ret = fn(priv, &src);
			}
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

void xlate_format_erec(FILE *f, const struct error_record *erec)
{
	static const char *const kind[] = {
		[EREC_ERROR] = "error", [EREC_WARNING] = "warning",
		[EREC_INFO] = "note",
	};
	const struct location *loc = &erec->loc;
	const struct input_desc *in = loc->indesc;
	const char *line, *end;
	unsigned int i, last;

	if (!in || in->kind == INPUT_INTERNAL) {
		fprintf(f, "%s: %s\n", kind[erec->type], erec->msg);
		return;
	}
	fprintf(f, "%s:%u:%u: %s: %s\n", in->name, loc->first_line,
		loc->first_column, kind[erec->type], erec->msg);
	line = in->data + loc->line_offset;
	end = strchr(line, '\n');
	if (!end)
		end = line + strlen(line);
	fprintf(f, "%.*s\n", (int)(end - line), line);
	last = loc->last_line == loc->first_line ? loc->last_column :
						   (unsigned int)(end - line);
	for (i = 1; i < loc->first_column; i++)
		fputc(line[i - 1] == '\t' ? '\t' : ' ', f);
	fputc('^', f);
	for (i = loc->first_column + 1; i <= last; i++)
		fputc('~', f);
	fputc('\n', f);
}
