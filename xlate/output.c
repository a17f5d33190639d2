// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output: the translated IR goes through nftc's evaluator (types,
 * dependencies, anonymous sets: exactly what "nft -f" would do with
 * it) and is printed by nftc's printer, as a ruleset or as commands.
 *
 * Tables, chains and sets are evaluated first; then each rule on its
 * own, so that a rule the evaluator rejects is reported and left out
 * without losing the others.
 *
 * With XLATE_F_STREAM, each rule is evaluated as soon as it is read
 * (after the declarations made so far), printed into its chain's text
 * and freed: what is held is the output text, not the file's IR. The
 * ruleset is written at the end, in the same order and the same bytes;
 * the evaluator's diagnostics are kept aside and queued, at the end, in
 * the order the whole-file evaluation gives them (declarations first,
 * then by table, chain and the rule's place in it).
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdio.h>
#include <stdio_ext.h>
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
	/* XLATE_F_STREAM */
	struct list_head	errs;		/* struct xl_out_errs */
	long			seq;		/* rules evaluated */
	unsigned long		ndiag;		/* records taken, ever */
	bool			fatal;		/* a declaration failed */
};

/*
 * The evaluator's diagnostics of one declaration batch (@t NULL) or one
 * rule: @pos its place in @c (inserted rules negative, the last first).
 */
struct xl_out_errs {
	struct list_head	list;
	const struct xl_table	*t;
	const struct xl_chain	*c;
	long			pos;
	struct list_head	recs;
	unsigned int		nerr;
};

/*
 * A chain's printed rules: appended ones in @app, inserted ones in @ins,
 * each starting at its @ins_off (printed last first). Printed through
 * ordinary buffered streams (fopencookie) whose writes append here:
 * much cheaper per fputs than a memory stream.
 */
struct xl_text {
	char			*buf;
	size_t			len;
	size_t			cap;
};

struct xl_chain_text {
	struct chain		*decl;		/* evaluated, in the cache */
	struct table		*table;		/* the cache's, of @decl */
	FILE			*app;
	struct xl_text		app_text;
	FILE			*ins;
	struct xl_text		ins_text;
	size_t			*ins_off;
	unsigned int		ins_n;
	unsigned int		ins_cap;
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

static int add_decl(struct list_head *cmds, enum cmd_obj obj, void *data,
		    const struct handle *h, const struct location *loc)
{
	struct cmd *cmd = cmd_alloc(CMD_ADD, obj, h, loc, data);

	if (!cmd)
		return -1;
	list_add_tail(&cmd->list, cmds);
	return 0;
}

/* The declarations of @t not evaluated yet, as commands onto @cmds. */
static int decl_table(struct xl_out *o, struct xl_table *t,
		      struct list_head *cmds)
{
	struct xlate_ctx *ctx = o->ctx;
	struct xl_set_decl *sd;
	struct xl_chain *c;
	struct handle h;
	int ret = 0;

	if (!t->declared) {
		t->declared = true;
		handle_set(&h, ctx->family, t->layout->name, NULL);
		ret |= add_decl(cmds, CMD_OBJ_TABLE, table_alloc(), &h,
				&t->loc);
		handle_free(&h);
	}
	list_for_each_entry(c, &t->chains, list) {
		if (c->declared)
			continue;
		c->declared = true;
		handle_set(&h, ctx->family, t->layout->name, c->name);
		ret |= add_decl(cmds, CMD_OBJ_CHAIN, chain_decl(ctx, t, c), &h,
				&c->loc);
		handle_free(&h);
	}
	list_for_each_entry(sd, &ctx->sets, list) {
		if (sd->declared || strcmp(sd->table, t->layout->name))
			continue;
		sd->declared = true;
		handle_set(&h, ctx->family, t->layout->name, NULL);
		h.set.name = strdup(sd->set->handle.set.name);
		ret |= add_decl(cmds, CMD_OBJ_SET, set_get(sd->set), &h,
				&sd->set->location);
		handle_free(&h);
	}
	return ret;
}

static int build_decls(struct xl_out *o)
{
	struct xl_table *t;
	int ret = 0;

	list_for_each_entry(t, &o->ctx->tables, list)
		ret |= decl_table(o, t, &o->decls);
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

/* ------------------------------------------------ XLATE_F_STREAM */

static void errs_free(struct xl_out_errs *oe)
{
	struct erec_queue q;

	erec_queue_init(&q, ~0u);
	list_splice_tail_init(&oe->recs, &q.records);
	erec_queue_free(&q);
	free(oe);
}

/* The evaluator's diagnostics so far, kept aside under their key. */
static void take_errors_keyed(struct xl_out *o, const struct xl_table *t,
			      const struct xl_chain *c, long pos)
{
	struct error_record *e, *n;
	struct xl_out_errs *oe;

	if (list_empty(&o->nft->erq.records))
		return;
	oe = calloc(1, sizeof(*oe));
	if (!oe) {
		take_errors(o);
		return;
	}
	oe->t = t;
	oe->c = c;
	oe->pos = pos;
	init_list_head(&oe->recs);
	list_for_each_entry_safe(e, n, &o->nft->erq.records, list) {
		list_del(&e->list);
		list_add_tail(&e->list, &oe->recs);
		o->ndiag++;
		if (e->type == EREC_ERROR)
			oe->nerr++;
	}
	o->nft->erq.num_errors = 0;
	list_add_tail(&oe->list, &o->errs);
}

static int list_index(const struct list_head *head,
		      const struct list_head *node)
{
	const struct list_head *p;
	int i = 0;

	for (p = head->next; p != head; p = p->next, i++) {
		if (p == node)
			return i;
	}
	return -1;
}

/* Declarations (-1) first, then by table, chain and place. */
static bool errs_before(const struct xlate_ctx *ctx,
			const struct xl_out_errs *a,
			const struct xl_out_errs *b)
{
	int ta = a->t ? list_index(&ctx->tables, &a->t->list) : -1;
	int tb = b->t ? list_index(&ctx->tables, &b->t->list) : -1;
	int ca, cb;

	if (ta != tb || ta < 0)
		return ta < tb;
	ca = list_index(&a->t->chains, &a->c->list);
	cb = list_index(&b->t->chains, &b->c->list);
	if (ca != cb)
		return ca < cb;
	return a->pos < b->pos;
}

/*
 * The diagnostics kept aside go to the context's queue, in the order a
 * whole-file evaluation gives them (a stable insertion sort: they are
 * few). After a failed declaration only the declarations' are kept.
 */
static void flush_errors(struct xl_out *o)
{
	struct list_head sorted = LIST_HEAD_INIT(sorted);
	struct xl_out_errs *oe, *on;
	struct list_head *p;

	list_for_each_entry_safe(oe, on, &o->errs, list) {
		list_del(&oe->list);
		if (o->fatal && oe->t) {
			errs_free(oe);
			continue;
		}
		for (p = sorted.prev; p != &sorted; p = p->prev) {
			if (!errs_before(o->ctx, oe, list_entry(p, struct
							       xl_out_errs,
							       list)))
				break;
		}
		list_add(&oe->list, p);
	}
	list_for_each_entry_safe(oe, on, &sorted, list) {
		list_splice_tail_init(&oe->recs, &o->ctx->erq.records);
		o->ctx->erq.num_errors += oe->nerr;
		free(oe);
	}
}

/*
 * Nothing new to declare: chains and sets are only ever appended, and
 * declared all at once, so when the last is declared all are (the last
 * set may be another table's: then the lists are walked).
 */
static bool decls_done(const struct xlate_ctx *ctx, const struct xl_table *t)
{
	return t->declared &&
	       (list_empty(&t->chains) ||
		list_last_entry(&t->chains, struct xl_chain, list)->declared) &&
	       (list_empty(&ctx->sets) ||
		list_last_entry(&ctx->sets, struct xl_set_decl,
				list)->declared);
}

/* @t's declarations made since the last call, evaluated. */
static void out_decls(struct xl_out *o, struct xl_table *t)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);

	if (decls_done(o->ctx, t))
		return;
	if (decl_table(o, t, &cmds) < 0)
		o->fatal = true;
	if (list_empty(&cmds))
		return;
	if (nftc_evaluate(o->nft, &cmds) < 0)
		o->fatal = true;
	take_errors_keyed(o, NULL, NULL, 0);
	list_splice_tail_init(&cmds, &o->decls);
}

/*
 * The anonymous sets the evaluator gave the table for one rule (after
 * @mark): the rule that used them is freed. Meters (SET_F_EVAL) stay,
 * later rules find them by name.
 */
static void drop_anon_sets(struct table *cached, struct list_head *mark)
{
	struct list_head *p = mark->next, *next;
	struct set *s;

	for (; p != &cached->sets; p = next) {
		next = p->next;
		s = list_entry(p, struct set, list);
		if ((s->flags & SET_F_ANONYMOUS) && !(s->flags & SET_F_EVAL)) {
			list_del(&s->list);
			set_free(s);
		}
	}
}

static struct xl_chain_text *chain_text(struct xl_chain *c)
{
	struct xl_chain_text *tx = c->text;

	if (!tx)
		tx = c->text = calloc(1, sizeof(*tx));
	return tx;
}

static ssize_t text_write(void *cookie, const char *data, size_t n)
{
	struct xl_text *tx = cookie;
	size_t cap;
	char *nb;

	if (tx->len + n > tx->cap) {
		cap = tx->cap ? tx->cap * 2 : 65536;
		while (cap < tx->len + n)
			cap *= 2;
		nb = realloc(tx->buf, cap);
		if (!nb)
			return -1;
		tx->buf = nb;
		tx->cap = cap;
	}
	memcpy(tx->buf + tx->len, data, n);
	tx->len += n;
	return n;
}

static FILE *text_open(struct xl_text *tx)
{
	static const cookie_io_functions_t io = { .write = text_write };
	FILE *f = fopencookie(tx, "w", io);

	/* one thread prints a context's rules: stdio need not lock */
	if (f)
		__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

/* The stream @tx prints an inserted (@insert) or appended rule to. */
static FILE *chain_text_file(struct xl_chain_text *tx, bool insert)
{
	size_t *off;

	if (!insert) {
		if (!tx->app)
			tx->app = text_open(&tx->app_text);
		return tx->app;
	}
	if (!tx->ins)
		tx->ins = text_open(&tx->ins_text);
	if (!tx->ins)
		return NULL;
	if (tx->ins_n == tx->ins_cap) {
		off = realloc(tx->ins_off, (tx->ins_cap * 2 + 8) *
			      sizeof(*off));
		if (!off)
			return NULL;
		tx->ins_off = off;
		tx->ins_cap = tx->ins_cap * 2 + 8;
	}
	fflush(tx->ins);
	tx->ins_off[tx->ins_n++] = tx->ins_text.len;
	return tx->ins;
}

/* @c's printed rules to @f: the inserted ones (last first), the rest. */
static void chain_text_write(struct xl_chain *c, FILE *f)
{
	struct xl_chain_text *tx = c->text;
	const struct xl_text *it;
	unsigned int i;
	size_t end;

	if (!tx)
		return;
	it = &tx->ins_text;
	if (tx->ins) {
		fflush(tx->ins);
		for (i = tx->ins_n; i-- > 0; ) {
			end = i + 1 < tx->ins_n ? tx->ins_off[i + 1] : it->len;
			fwrite(it->buf + tx->ins_off[i], 1,
			       end - tx->ins_off[i], f);
		}
	}
	if (tx->app) {
		fflush(tx->app);
		fwrite(tx->app_text.buf, 1, tx->app_text.len, f);
	}
}

void xl_chain_text_free(struct xl_chain *c)
{
	struct xl_chain_text *tx = c->text;

	if (!tx)
		return;
	if (tx->app)
		fclose(tx->app);
	if (tx->ins)
		fclose(tx->ins);
	free(tx->app_text.buf);
	free(tx->ins_text.buf);
	free(tx->ins_off);
	free(tx);
	c->text = NULL;
}

static struct xl_out *out_alloc(struct xlate_ctx *ctx)
{
	struct xl_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->ctx = ctx;
	init_list_head(&o->decls);
	init_list_head(&o->rules);
	init_list_head(&o->errs);
	o->nft = nftc_ctx_alloc();
	if (!o->nft) {
		free(o);
		return NULL;
	}
	o->nft->resolver = ctx->flags & XLATE_F_SYSTEM_IFACES ?
			   &nftc_resolver_builtin_ifaces :
			   &nftc_resolver_builtin;
	o->nft->erq.max_errors = ~0u;
	o->oflags = NFTC_OUTPUT_EXACT;
	if (!(ctx->flags & XLATE_F_COUNTERS))
		o->oflags |= NFTC_OUTPUT_STATELESS;
	return o;
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

static void out_free(struct xl_out *o)
{
	struct xl_out_errs *oe, *on;

	if (!o)
		return;
	detach_rule_cmds(o);
	cmd_list_free(&o->rules);
	cmd_list_free(&o->decls);
	list_for_each_entry_safe(oe, on, &o->errs, list)
		errs_free(oe);
	nftc_ctx_free(o->nft);
	free(o);
}

void xl_out_free(struct xlate_ctx *ctx)
{
	out_free(ctx->out);
	ctx->out = NULL;
}

/*
 * Where a rule of @c goes: the table's and chain's declarations made so
 * far evaluated, @c's text and its evaluated declaration. NULL when the
 * rule is dropped: no output context (@*oom set), or a declaration
 * failed (the translation is fatal from then on).
 */
static struct xl_chain_text *out_target(struct xlate_ctx *ctx,
					struct xl_table *t,
					struct xl_chain *c,
					struct table **cachedp, bool *oom)
{
	struct xl_out *o = ctx->out;
	struct xl_chain_text *tx;
	struct table *cached;

	*oom = false;
	if (!o)
		o = ctx->out = out_alloc(ctx);
	if (!o) {
		*oom = true;
		return NULL;
	}
	if (!o->fatal)
		out_decls(o, t);
	tx = c->text;
	if (tx && tx->table && !o->fatal) {
		/* found before: the cache keeps its tables to the end */
		*cachedp = tx->table;
		return tx;
	}
	cached = table_cache_find(o->nft, ctx->family, t->layout->name);
	tx = cached ? chain_text(c) : NULL;
	if (tx && !tx->decl)
		tx->decl = chain_cache_find(cached, c->name);
	if (o->fatal || !tx || !tx->decl) {
		o->fatal = true;
		return NULL;
	}
	tx->table = cached;
	*cachedp = cached;
	return tx;
}

/* "add rule FAMILY TABLE CHAIN " with -c, the ruleset's indent else. */
static void rule_lead(const struct xlate_ctx *ctx, const char *table,
		      const char *chain, FILE *f)
{
	if (ctx->flags & XLATE_F_COMMANDS)
		fprintf(f, "add rule %s %s %s ", nftc_family_name(ctx->family),
			table, chain);
	else
		nftc_puts("\t\t", f);
}

void xl_out_rule(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		 struct rule *rule, const struct location *loc, bool insert,
		 bool inexact)
{
	xl_out_rule_cap(ctx, t, c, rule, loc, insert, inexact, NULL);
}

void xl_out_rule_cap(struct xlate_ctx *ctx, struct xl_table *t,
		     struct xl_chain *c, struct rule *rule,
		     const struct location *loc, bool insert, bool inexact,
		     struct xl_memo_cap *cap)
{
	struct output_ctx octx = { .family = ctx->family };
	struct xl_chain_text *tx;
	struct list_head *mark;
	struct table *cached;
	struct xl_out *o;
	struct expr *dev;
	bool oom;
	long pos;

	if (!rule) {
		ctx->stats.failed++;
		return;
	}
	tx = out_target(ctx, t, c, &cached, &oom);
	if (!tx) {
		rule_free(rule);
		if (oom)
			ctx->stats.failed++;
		return;
	}
	o = ctx->out;
	pos = insert ? -++o->seq : ++o->seq;
	mark = cached->sets.prev;
	dev = dup_dev_save(rule);
	/*
	 * What nftc_evaluate() does for an "add rule" command, without the
	 * command: the table and chain are ours and declared, their names
	 * checked then.
	 */
	if (nftc_evaluate_rule(o->nft, cached, tx->decl, rule) < 0) {
		expr_free(dev);
		take_errors_keyed(o, t, c, pos);
		rule_free(rule);
		drop_anon_sets(cached, mark);
		ctx->stats.failed++;
		return;
	}
	take_errors_keyed(o, t, c, pos);
	dup_dev_restore(rule, dev);
	if (inexact)
		ctx->stats.inexact++;
	else
		ctx->stats.translated++;
	octx.flags = o->oflags;
	octx.f = chain_text_file(tx, insert);
	if (octx.f) {
		rule_lead(ctx, rule->handle.table.name,
			  rule->handle.chain.name, octx.f);
		nftc_print_rule(&octx, rule);
		nftc_putc('\n', octx.f);
		if (cap) {
			/* the same text again, for memo.c */
			octx.f = cap->f;
			nftc_print_rule(&octx, rule);
			nftc_putc('\n', cap->f);
			cap->done = fflush(cap->f) == 0;
		}
	}
	rule_free(rule);
	drop_anon_sets(cached, mark);
}

/*
 * memo.c's probe: @rule (taken over) evaluated and printed into @f as
 * xl_out_rule() would, but nothing kept: not its diagnostics (0 only
 * when there were none), nor the anonymous sets it made, nor a count.
 * -1 as well when it would have left a set in the table.
 */
int xl_out_probe(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		 struct rule *rule, FILE *f)
{
	struct output_ctx octx = { .family = ctx->family, .f = f };
	struct xl_out *o = ctx->out;
	struct xl_chain_text *tx = c->text;
	struct list_head *mark;
	struct table *cached;
	struct expr *dev;
	int ret = -1;

	cached = o ? table_cache_find(o->nft, ctx->family, t->layout->name) :
		     NULL;
	if (!cached || o->fatal || !tx || !tx->decl) {
		rule_free(rule);
		return -1;
	}
	mark = cached->sets.prev;
	dev = dup_dev_save(rule);
	if (nftc_evaluate_rule(o->nft, cached, tx->decl, rule) == 0 &&
	    list_empty(&o->nft->erq.records)) {
		dup_dev_restore(rule, dev);
		dev = NULL;
		octx.flags = o->oflags;
		nftc_print_rule(&octx, rule);
		nftc_putc('\n', f);
		ret = 0;
	}
	expr_free(dev);
	if (!list_empty(&o->nft->erq.records)) {
		erec_queue_free(&o->nft->erq);
		o->nft->erq.num_errors = 0;
	}
	rule_free(rule);
	drop_anon_sets(cached, mark);
	return cached->sets.prev == mark ? ret : -1;
}

unsigned long xl_out_diag_count(const struct xlate_ctx *ctx)
{
	return ctx->out ? ctx->out->ndiag + ctx->out->fatal : 0;
}

/*
 * memo.c's hit: where the rule's text goes (its lead printed), counted
 * as xl_out_rule() counts a rule translated exactly; NULL when the rule
 * is dropped as xl_out_rule() would drop it.
 */
FILE *xl_out_memo_file(struct xlate_ctx *ctx, struct xl_table *t,
		       struct xl_chain *c, bool insert)
{
	struct xl_chain_text *tx;
	struct table *cached;
	bool oom;
	FILE *f;

	tx = out_target(ctx, t, c, &cached, &oom);
	if (!tx) {
		if (oom)
			ctx->stats.failed++;
		return NULL;
	}
	++ctx->out->seq;	/* the place a rule's diagnostics would have */
	ctx->stats.translated++;
	f = chain_text_file(tx, insert);
	if (f)
		rule_lead(ctx, t->layout->name, c->name, f);
	return f;
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
			nftc_putc(';', o->f);
	}
	nftc_puts(" }\n", o->f);
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
				nftc_putc('\n', o->f);
			}
		}
	}
	list_for_each_entry(pc, &o->ctx->plain, list) {
		fprintf(o->f, "%s %s %s", pc->verb, fam, pc->table);
		if (pc->chain)
			fprintf(o->f, " %s", pc->chain);
		nftc_putc('\n', o->f);
	}
	print_set_commands(o, octx);
	if (o == o->ctx->out) {		/* streamed: printed already */
		list_for_each_entry(t, &o->ctx->tables, list) {
			list_for_each_entry(c, &t->chains, list)
				chain_text_write(c, o->f);
		}
	}
	list_for_each_entry(cmd, &o->rules, list) {
		if (cmd->obj != CMD_OBJ_RULE)
			continue;
		fprintf(o->f, "%s rule %s %s %s ",
			cmd->op == CMD_INSERT ? "insert" : "add", fam,
			cmd->handle.table.name, cmd->handle.chain.name);
		octx->family = o->ctx->family;
		nftc_print_rule(octx, cmd->rule);
		nftc_putc('\n', o->f);
	}
}

/*
 * A streamed table: as nftc_print_table() prints a table holding only
 * sets and chains, each chain's rules being its printed text.
 */
static void print_table_text(struct xl_out *o, struct xl_table *t,
			     struct output_ctx *octx)
{
	struct table *cached;
	const char *delim = "";
	struct xl_chain *c;
	struct chain *ch;
	struct set *s;

	cached = table_cache_find(o->nft, o->ctx->family, t->layout->name);
	octx->family = o->ctx->family;
	fprintf(o->f, "table %s %s {\n", nftc_family_name(o->ctx->family),
		t->layout->name);
	if (cached) {
		list_for_each_entry(s, &cached->sets, list) {
			if (s->flags & SET_F_ANONYMOUS)
				continue;
			nftc_puts(delim, o->f);
			nftc_print_set(octx, s);
			delim = "\n";
		}
	}
	list_for_each_entry(c, &t->chains, list) {
		ch = decl_chain(o, t->layout->name, c->name);
		if (!ch)
			continue;
		nftc_puts(delim, o->f);
		nftc_print_chain_open(octx, ch);
		chain_text_write(c, o->f);
		nftc_puts("\t}\n", o->f);
		delim = "\n";
	}
	nftc_puts("}\n", o->f);
}

/* XLATE_F_STREAM: the rules are evaluated and printed; the rest now. */
static int output_streamed(struct xlate_ctx *ctx, struct xl_out *o)
{
	struct output_ctx octx = { .f = o->f, .flags = o->oflags };
	struct xl_table *t;

	list_for_each_entry(t, &ctx->tables, list) {
		if (!o->fatal)
			out_decls(o, t);
	}
	flush_errors(o);
	if (o->fatal) {
		/* as when the whole file's declarations fail: no rule */
		ctx->stats.translated = ctx->stats.inexact = 0;
		ctx->stats.failed = 0;
		return -1;
	}
	if (ctx->flags & XLATE_F_COMMANDS) {
		print_commands(o, &octx);
	} else {
		list_for_each_entry(t, &ctx->tables, list)
			print_table_text(o, t, &octx);
	}
	return 0;
}

int xl_output(struct xlate_ctx *ctx, FILE *f)
{
	struct output_ctx octx = { .f = f };
	struct xl_table *t;
	struct xl_out *o;
	int ret = 0;

	if (ctx->out) {
		ctx->out->f = f;
		return output_streamed(ctx, ctx->out);
	}
	o = out_alloc(ctx);
	if (!o)
		return -1;
	o->f = f;
	octx.flags = o->oflags;
	if (build_decls(o) < 0) {
		ret = -1;
		goto out;
	}
	eval_rules(o);
	if (ctx->flags & XLATE_F_COMMANDS || ctx->cmd_mode) {
		print_commands(o, &octx);
	} else {
		list_for_each_entry(t, &ctx->tables, list)
			print_table(o, t, &octx);
	}
out:
	out_free(o);
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
		nftc_putc(line[i - 1] == '\t' ? '\t' : ' ', f);
	nftc_putc('^', f);
	for (i = loc->first_column + 1; i <= last; i++)
		nftc_putc('~', f);
	nftc_putc('\n', f);
}
