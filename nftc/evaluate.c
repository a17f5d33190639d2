/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command evaluation: the table cache, block syntax flattening, base
 * chain hooks and priorities, and the per-rule driver that hands each
 * statement to stmt_evaluate().
 *
 * After nftc_evaluate() the command list holds one command per object in
 * stock nft's order: for a table block, the table, its chains, objects,
 * sets and flowtables, then the rules of every chain (see PASSES.md).
 */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include "evaluate.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"
#include "misspell.h"
#include "netlink.h"
#include "printer.h"

/* What stock nft lets a comment be (the kernel stores 256 bytes). */
#define NFTC_COMMENT_MAXLEN	128

/*
 * Cache lookups
 */

/**
 * table_cache_find - a table declared so far
 * @nft: compiler context holding the cache
 * @family: NFPROTO_*
 * @name: table name
 */
struct table *table_cache_find(struct nftc_ctx *nft, uint32_t family,
			       const char *name)
{
	struct table *t;

	if (!name)
		return NULL;
	list_for_each_entry(t, &nft->tables, list) {
		if (t->handle.family == family && t->handle.table.name &&
		    !strcmp(t->handle.table.name, name))
			return t;
	}
	return NULL;
}

/** chain_cache_find - a chain of @table by name */
struct chain *chain_cache_find(struct table *table, const char *name)
{
	struct chain *c;

	if (!table || !name)
		return NULL;
	list_for_each_entry(c, &table->chains, list) {
		if (c->handle.chain.name && !strcmp(c->handle.chain.name, name))
			return c;
	}
	return NULL;
}

/** set_cache_find - a named set or map of @table */
struct set *set_cache_find(struct table *table, const char *name)
{
	struct set *s;

	if (!table || !name)
		return NULL;
	list_for_each_entry(s, &table->sets, list) {
		if (s->handle.set.name && !strcmp(s->handle.set.name, name))
			return s;
	}
	return NULL;
}

/** obj_cache_find - a named object of @table and type @type (0: any) */
struct obj *obj_cache_find(struct table *table, const char *name,
			   uint32_t type)
{
	struct obj *o;

	if (!table || !name)
		return NULL;
	list_for_each_entry(o, &table->objs, list) {
		if ((!type || o->type == type) && o->handle.obj.name &&
		    !strcmp(o->handle.obj.name, name))
			return o;
	}
	return NULL;
}

int eval_error(struct eval_ctx *ctx, const struct location *loc,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	erec_vadd(&ctx->nft->erq, EREC_ERROR, loc, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error the kernel would report for the batch (see eval_ctx). */
static int kernel_error(struct eval_ctx *ctx, const struct location *loc,
			int err)
{
	erec_error(eval_kernel_errq(ctx), loc, "Could not process rule: %s",
		   strerror(err));
	return -1;
}

static const struct location *name_loc(const struct name_ref *n,
				       const struct cmd *cmd)
{
	if (n->location.indesc)
		return &n->location;
	return &cmd->location;
}

/*
 * "did you mean ...": stock's fuzzy lookups. A table by name in any
 * family; a chain of what the kernel holds (a rejected batch leaves
 * only that), an exact name first.
 */
static struct table *table_fuzzy(struct eval_ctx *ctx, const char *name)
{
	struct table *t, *found = NULL;
	unsigned int best = ~0u;

	list_for_each_entry(t, &ctx->nft->tables, list) {
		if (!t->handle.table.name)
			continue;
		if (!strcmp(t->handle.table.name, name))
			return t;
		if (misspell_better(t->handle.table.name, name, &best))
			found = t;
	}
	return found;
}

static struct chain *chain_fuzzy(struct eval_ctx *ctx, const char *name,
				 struct table **tp)
{
	struct chain *c, *found = NULL;
	unsigned int best = ~0u;
	struct table *t;

	*tp = NULL;
	list_for_each_entry(t, &ctx->nft->tables, list) {
		list_for_each_entry(c, &t->chains, list) {
			if (!(c->flags & NFTC_CHAIN_F_KERNEL) ||
			    !c->handle.chain.name)
				continue;
			if (!strcmp(c->handle.chain.name, name)) {
				*tp = t;
				return c;
			}
			if (misspell_better(c->handle.chain.name, name,
					    &best)) {
				found = c;
				*tp = t;
			}
		}
	}
	return found;
}

/*
 * The kernel's ENOENT for a rule of chain @chain in table @h at @loc,
 * worded as stock words it: a close table, else a close chain, else
 * the kernel's words. @exact_ok: a chain of that very name elsewhere
 * is no suggestion (rules; not chain commands).
 */
static int enoent_chain(struct eval_ctx *ctx, const struct handle *h,
			const struct location *tloc, const char *chain,
			const struct location *loc, bool exact_ok)
{
	struct table *t = NULL;
	struct chain *c = chain ? chain_fuzzy(ctx, chain, &t) : NULL;

	if (t && !table_cache_find(ctx->nft, h->family, h->table.name)) {
		erec_error(eval_kernel_errq(ctx), tloc,
			   "%s; did you mean table \u2018%s\u2019 in family "
			   "%s?", strerror(ENOENT), t->handle.table.name,
			   nftc_family_name(t->handle.family));
		return -1;
	}
	if (c && !(exact_ok && !strcmp(c->handle.chain.name, chain))) {
		erec_error(eval_kernel_errq(ctx), loc,
			   "%s; did you mean chain \u2018%s\u2019 in table %s "
			   "\u2018%s\u2019?", strerror(ENOENT),
			   c->handle.chain.name,
			   nftc_family_name(t->handle.family),
			   t->handle.table.name);
		return -1;
	}
	return kernel_error(ctx, loc, ENOENT);
}

/* A jump to a chain the kernel will not find (eval_stmt.c). */
int eval_jump_enoent(struct eval_ctx *ctx, const struct location *loc)
{
	const struct handle *h = ctx->table ? &ctx->table->handle :
					      &ctx->cmd->handle;
	const char *chain = ctx->chain ? ctx->chain->handle.chain.name :
					 ctx->cmd->handle.chain.name;

	return enoent_chain(ctx, h, loc, chain, loc, true);
}

static bool cmd_is_rule_add(const struct cmd *cmd)
{
	return cmd->obj == CMD_OBJ_RULE &&
	       (cmd->op == CMD_ADD || cmd->op == CMD_CREATE ||
		cmd->op == CMD_INSERT || cmd->op == CMD_REPLACE);
}

/* No table @h names: ENOENT, with the closest name stock suggests. */
static void enoent_table(struct eval_ctx *ctx, const struct handle *h,
			 const struct location *loc)
{
	const struct table *t;

	t = h->table.name ? table_fuzzy(ctx, h->table.name) : NULL;
	if (t)
		eval_error(ctx, loc, "%s; did you mean table "
			   "\u2018%s\u2019 in family %s?",
			   strerror(ENOENT), t->handle.table.name,
			   nftc_family_name(t->handle.family));
	else
		eval_error(ctx, loc, "%s", strerror(ENOENT));
}

/* The table a command names, or ENOENT in stock's words. */
static struct table *cmd_table(struct eval_ctx *ctx, struct cmd *cmd)
{
	const struct handle *h = &cmd->handle;
	const struct location *loc = name_loc(&h->table, cmd);
	struct table *t;

	t = table_cache_find(ctx->nft, h->family, h->table.name);
	if (t)
		return t;
	if (cmd_is_rule_add(cmd) && ctx->nft->rule_cache) {
		/* stock's rule cache finds no table: its own words */
		enoent_table(ctx, h, loc);
		return NULL;
	}
	if (cmd_is_rule_add(cmd) ||
	    (cmd->op == CMD_DELETE && cmd->obj == CMD_OBJ_CHAIN)) {
		enoent_chain(ctx, h, loc, h->chain.name, loc,
			     cmd->obj == CMD_OBJ_RULE);
		return NULL;
	}
	t = h->table.name ? table_fuzzy(ctx, h->table.name) : NULL;
	if (cmd->op == CMD_ADD || cmd->op == CMD_CREATE) {
		/* the evaluator's own words (no "Could not process") */
		enoent_table(ctx, h, loc);
	} else if (t && cmd->op == CMD_DELETE && cmd->obj == CMD_OBJ_TABLE) {
		erec_error(eval_kernel_errq(ctx), loc, "%s; did you mean "
			   "table \u2018%s\u2019 in family %s?",
			   strerror(ENOENT), t->handle.table.name,
			   nftc_family_name(t->handle.family));
	} else {
		kernel_error(ctx, loc, ENOENT);
	}
	return NULL;
}

static struct chain *cmd_chain(struct eval_ctx *ctx, struct cmd *cmd,
			       struct table *table)
{
	const struct handle *h = &cmd->handle;
	struct chain *c;

	c = chain_cache_find(table, h->chain.name);
	if (c)
		return c;
	if (cmd_is_rule_add(cmd) || cmd->op == CMD_DELETE)
		enoent_chain(ctx, h, name_loc(&h->table, cmd), h->chain.name,
			     name_loc(&h->chain, cmd), cmd_is_rule_add(cmd));
	else
		kernel_error(ctx, name_loc(&h->chain, cmd), ENOENT);
	return NULL;
}

/*
 * Rules
 */

/*
 * Payload match merging, as stock nft: equality matches on adjacent
 * header bytes of the same base ("tcp sport 1 tcp dport 2", "ip ttl 1
 * ip protocol 6") become one load and compare.
 */
static bool merge_candidate(const struct stmt *s)
{
	const struct expr *rel = s->expr;

	return rel && rel->kind == EXPR_RELATIONAL && rel->op == OP_EQ &&
	       rel->pair.left->kind == EXPR_PAYLOAD &&
	       rel->pair.right->kind == EXPR_VALUE;
}

static int merge_offset_cmp(const void *a, const void *b)
{
	const struct stmt *sa = *(const struct stmt *const *)a;
	const struct stmt *sb = *(const struct stmt *const *)b;
	unsigned int oa = sa->expr->pair.left->payload.offset;
	unsigned int ob = sb->expr->pair.left->payload.offset;

	return oa < ob ? -1 : oa > ob;
}

static bool payload_can_merge(const struct expr *a, const struct expr *b)
{
	if (a->payload.base != b->payload.base ||
	    a->payload.offset + a->len != b->payload.offset)
		return false;
	if (a->payload.offset % 8 || a->len % 8 || b->len % 8)
		return false;
	/*
	 * Up to a register; a load of whole 32-bit words (ip saddr, tcp
	 * sequence, or already merged sport . dport) is fast on its own and
	 * stays separate (what stock nft 1.0.6 does).
	 */
	if (a->len + b->len > 128)
		return false;
	return a->len % 32 && b->len % 32;
}

/* Merge @b's match into @a's: a's load grows, values concatenate. */
static void payload_merge_into(struct stmt *a, struct stmt *b)
{
	struct expr *la = a->expr->pair.left, *lb = b->expr->pair.left;
	struct expr *va = a->expr->pair.right, *vb = b->expr->pair.right;
	unsigned int total = la->len + lb->len;
	struct value v, w;

	v = va->value;
	value_resize(&v, total);
	value_shl(&v, lb->len);
	w = vb->value;
	value_resize(&w, total);
	value_or(&v, &v, &w);
	va->value = v;
	va->len = total;
	va->byteorder = BYTEORDER_BIG;
	va->dtype = &integer_type;
	la->len = total;
	la->dtype = &integer_type;
	la->payload.tmpl = NULL;
	list_del(&b->list);
	stmt_free(b);
}

/*
 * Merge the matches of @a and @b (@a's header bytes first). The result
 * stays where @a was, unless @b selects the next protocol (ether type):
 * then it stays at @b, where that protocol context is established.
 * Returns the surviving statement.
 */
static struct stmt *payload_merge(struct stmt *a, struct stmt *b)
{
	struct expr *t;

	if (!(b->expr->pair.left->flags & EXPR_F_PROTOCOL)) {
		payload_merge_into(a, b);
		return a;
	}
	/* Keep b's statement: swap the matches so a's comes first. */
	t = a->expr;
	a->expr = b->expr;
	b->expr = t;
	payload_merge_into(b, a);
	return b;
}

static void payload_do_merge(struct stmt **sa, unsigned int n)
{
	unsigned int i, j;

	if (n > 16) {
		qsort(sa, n, sizeof(sa[0]), merge_offset_cmp);
	} else {
		/* a few: insertion sort, stable as glibc's merge sort */
		for (i = 1; i < n; i++) {
			struct stmt *s = sa[i];

			for (j = i; j > 0 && merge_offset_cmp(&sa[j - 1],
							      &s) > 0; j--)
				sa[j] = sa[j - 1];
			sa[j] = s;
		}
	}
	for (j = 0, i = 1; i < n; i++) {
		if (!payload_can_merge(sa[j]->expr->pair.left,
				       sa[i]->expr->pair.left)) {
			j = i;
			continue;
		}
		sa[j] = payload_merge(sa[j], sa[i]);
	}
}

static void payload_try_merge(struct rule *rule)
{
	struct stmt *stmt, *next, **sa, *small[16];
	unsigned int n = 0, count = list_count(&rule->stmts);

	/* most rules fit on the stack: no allocation per rule */
	sa = count < 16 ? small : calloc(count + 1, sizeof(*sa));
	if (!sa)
		return;
	list_for_each_entry_safe(stmt, next, &rule->stmts, list) {
		if (stmt->kind != STMT_EXPRESSION) {
			if (n > 1)
				payload_do_merge(sa, n);
			n = 0;
			continue;
		}
		if (merge_candidate(stmt))
			sa[n++] = stmt;
	}
	if (n > 1)
		payload_do_merge(sa, n);
	rule->num_stmts = list_count(&rule->stmts);
	if (sa != small)
		free(sa);
}

/*
 * "meta protocol ip" in an ip table (ip6 in ip6) says what the family
 * already guarantees: stock nft drops it unless it is the rule's last
 * statement.
 */
static void rule_drop_redundant_protocol(struct eval_ctx *ctx,
					 struct rule *rule)
{
	struct stmt *stmt, *next;
	const struct expr *rel;
	uint64_t want;

	if (rule->handle.family == NFPROTO_IPV4)
		want = 0x0800;
	else if (rule->handle.family == NFPROTO_IPV6)
		want = 0x86dd;
	else
		return;
	list_for_each_entry_safe(stmt, next, &rule->stmts, list) {
		if (&next->list == &rule->stmts)
			break;
		rel = stmt->expr;
		if (stmt->kind != STMT_EXPRESSION || !rel ||
		    rel->kind != EXPR_RELATIONAL || rel->op != OP_EQ ||
		    rel->pair.left->kind != EXPR_META ||
		    rel->pair.left->meta.key != NFT_META_PROTOCOL ||
		    rel->pair.right->kind != EXPR_VALUE ||
		    value_get_u64(&rel->pair.right->value) != want)
			continue;
		list_del(&stmt->list);
		stmt_free(stmt);
		rule->num_stmts--;
	}
}

/* Statements after which nothing runs (stock nft's STMT_F_TERMINAL). */
static bool stmt_is_terminal(const struct stmt *stmt)
{
	switch (stmt->kind) {
	case STMT_VERDICT:
		return stmt->expr && stmt->expr->kind == EXPR_VERDICT &&
		       stmt->expr->verdict.verdict != NFT_CONTINUE;
	case STMT_REJECT:
	case STMT_NAT:
	case STMT_QUEUE:
	case STMT_FWD:
		return true;
	default:
		return false;
	}
}

/**
 * rule_evaluate - evaluate every statement of @rule in order
 *
 * Each rule starts from the family's protocol context; statements may
 * insert dependency statements before themselves. Evaluation of the rule
 * stops at its first error (as stock nft).
 */
int rule_evaluate(struct eval_ctx *ctx, struct rule *rule)
{
	struct stmt *stmt, *next;
	bool terminal = false;

	proto_ctx_init(&ctx->pctx, rule->handle.family);
	ctx->icmp_type_known = false;
	ctx->num_th_protos = 0;
	ctx->rule = rule;
	list_for_each_entry_safe(stmt, next, &rule->stmts, list) {
		if (terminal) {
			eval_error(ctx, &stmt->location, "Statement after "
				   "terminal statement has no effect");
			goto err;
		}
		ctx->stmt = stmt;
		expr_set_context(ctx, NULL, BYTEORDER_INVALID, 0);
		ctx->ectx.key = NULL;
		if (stmt_evaluate(ctx, stmt) < 0)
			goto err;
		terminal = stmt_is_terminal(stmt);
	}
	ctx->stmt = NULL;
	ctx->rule = NULL;
	if (rule->comment && strlen(rule->comment) > NFTC_COMMENT_MAXLEN)
		return eval_error(ctx, &rule->location, "comment too long, %d "
				  "characters maximum allowed",
				  NFTC_COMMENT_MAXLEN);
	rule_drop_redundant_protocol(ctx, rule);
	payload_try_merge(rule);
	return 0;
err:
	ctx->stmt = NULL;
	ctx->rule = NULL;
	return -1;
}

/*
 * Commands
 */

static bool too_many_errors(struct eval_ctx *ctx)
{
	const struct erec_queue *q = &ctx->nft->erq;

	return q->max_errors && q->num_errors >= q->max_errors;
}

static enum cmd_obj obj_cmd_type(uint32_t type)
{
	switch (type) {
	case NFT_OBJECT_COUNTER:
		return CMD_OBJ_COUNTER;
	case NFT_OBJECT_QUOTA:
		return CMD_OBJ_QUOTA;
	case NFT_OBJECT_LIMIT:
		return CMD_OBJ_LIMIT;
	case NFT_OBJECT_CT_HELPER:
		return CMD_OBJ_CT_HELPER;
	case NFT_OBJECT_SYNPROXY:
		return CMD_OBJ_SYNPROXY;
	case NFT_OBJECT_SECMARK:
		return CMD_OBJ_SECMARK;
	default:
		return CMD_OBJ_INVALID;
	}
}

/* The cache entry of the table @h names, created on first use. */
static struct table *table_cache_get(struct eval_ctx *ctx,
				     const struct handle *h,
				     const struct table *decl)
{
	struct table *t = table_cache_find(ctx->nft, h->family, h->table.name);

	if (t)
		return t;
	t = table_alloc();
	if (!t)
		return NULL;
	handle_merge(&t->handle, h);
	if (decl) {
		t->flags = decl->flags;
		t->location = decl->location;
	}
	list_add_tail(&t->list, &ctx->nft->tables);
	return t;
}

/* The cache keeps its own copy of a chain: the declaration (with its
 * rules) moves on to a command. */
static int chain_cache_add(struct table *t, const struct chain *c)
{
	struct chain *cc;

	if (chain_cache_find(t, c->handle.chain.name))
		return 0;
	cc = chain_alloc();
	if (!cc)
		return -1;
	handle_merge(&cc->handle, &c->handle);
	cc->location = c->location;
	cc->is_base = c->is_base;
	cc->hooknum = c->hooknum;
	cc->prio = c->prio;
	cc->flags = c->flags;
	if (c->type.name)
		cc->type.name = strdup(c->type.name);
	if (c->hook_name.name)
		cc->hook_name.name = strdup(c->hook_name.name);
	list_add_tail(&cc->list, &t->chains);
	return 0;
}

static void set_cache_add(struct table *t, struct set *s)
{
	struct set *old = set_cache_find(t, s->handle.set.name);

	if (old == s)
		return;
	if (old) {
		list_del(&old->list);
		set_free(old);
	}
	list_add_tail(&set_get(s)->list, &t->sets);
}

static void obj_cache_add(struct table *t, struct obj *o)
{
	struct obj *old = obj_cache_find(t, o->handle.obj.name, o->type);

	if (old == o)
		return;
	if (old) {
		list_del(&old->list);
		obj_free(old);
	}
	o->refcnt++;
	list_add_tail(&o->list, &t->objs);
}

static void flowtable_cache_add(struct table *t, struct flowtable *f)
{
	f->refcnt++;
	list_add_tail(&f->list, &t->flowtables);
}

/* Append a new command for @data after @pos; returns it or NULL. */
static struct cmd *cmd_emit(struct list_head *pos, enum cmd_ops op,
			    enum cmd_obj obj, const struct handle *h,
			    const struct location *loc, void *data)
{
	struct cmd *c = cmd_alloc(op, obj, h, loc, data);

	if (c)
		list_add_tail(&c->list, pos);
	return c;
}

static void rule_emit(struct list_head *pos, struct rule *r);

/*
 * The anonymous chains @r binds, each with its rules (and theirs in
 * turn), before @pos: stock sends a bound chain and its rules just
 * before the rule that jumps to it.
 */
static void bound_chains_emit(struct list_head *pos, const struct rule *r)
{
	struct rule *br, *bn;
	struct stmt *s;
	struct chain *c;

	list_for_each_entry(s, &r->stmts, list) {
		if (s->kind != STMT_CHAIN || !s->chain.chain)
			continue;
		c = s->chain.chain;
		c->refcnt++;	/* the statement keeps its own */
		if (!cmd_emit(pos, CMD_ADD, CMD_OBJ_CHAIN, &c->handle,
			      &c->location, c))
			chain_free(c);
		list_for_each_entry_safe(br, bn, &c->rules, list) {
			list_del(&br->list);
			init_list_head(&br->list);
			rule_emit(pos, br);
		}
	}
}

/* The command adding rule @r (taken over) before @pos, its chains first. */
static void rule_emit(struct list_head *pos, struct rule *r)
{
	bound_chains_emit(pos, r);
	cmd_emit(pos, CMD_ADD, CMD_OBJ_RULE, &r->handle, &r->location, r);
}

static int set_decl_evaluate(struct eval_ctx *ctx, struct table *t,
			     struct set *set)
{
	int ret;

	ctx->set = set;
	ret = set_evaluate(ctx, set);
	ctx->set = NULL;
	set_cache_add(t, set);
	return ret;
}

static int chain_rules_evaluate(struct eval_ctx *ctx, struct chain *chain)
{
	struct rule *r;
	int err = 0;

	struct chain *cc = ctx->nft->rule_cache && ctx->table ?
			   chain_cache_find(ctx->table,
					    chain->handle.chain.name) : NULL;

	ctx->chain = chain;
	list_for_each_entry(r, &chain->rules, list) {
		handle_merge(&r->handle, &chain->handle);
		/* a block's rules are adds (stock expands them first) */
		if (rule_evaluate(ctx, r) < 0 ||
		    rule_cache_update(ctx, CMD_ADD, cc, r) < 0)
			err = -1;
		if (too_many_errors(ctx))
			break;
	}
	ctx->chain = NULL;
	return err;
}

/**
 * struct block - the objects of a table block, detached in source order
 */
struct block {
	struct chain		**chains;
	struct set		**sets;
	struct obj		**objs;
	struct flowtable	**fts;
	unsigned int		nchains, nsets, nobjs, nfts;
};

/* Move every node of @head into a new array (NULL on no memory). */
static void **detach_list(struct list_head *head, size_t off,
			  unsigned int *n)
{
	struct list_head *l, *next;
	void **arr;
	unsigned int i = 0;

	*n = list_count(head);
	arr = calloc(*n + 1, sizeof(*arr));
	if (!arr)
		return NULL;
	for (l = head->next; l != head; l = next) {
		next = l->next;
		list_del(l);
		init_list_head(l);
		arr[i++] = (char *)l - off;
	}
	return arr;
}

static int block_detach(struct block *b, struct table *decl)
{
	b->chains = (struct chain **)detach_list(&decl->chains,
			offsetof(struct chain, list), &b->nchains);
	b->sets = (struct set **)detach_list(&decl->sets,
			offsetof(struct set, list), &b->nsets);
	b->objs = (struct obj **)detach_list(&decl->objs,
			offsetof(struct obj, list), &b->nobjs);
	b->fts = (struct flowtable **)detach_list(&decl->flowtables,
			offsetof(struct flowtable, list), &b->nfts);
	return b->chains && b->sets && b->objs && b->fts ? 0 : -1;
}

static void block_free(struct block *b)
{
	free(b->chains);
	free(b->sets);
	free(b->objs);
	free(b->fts);
}

/*
 * Object names longer than the kernel's NFT_NAME_MAXLEN can never load;
 * stock nft refuses them at the name, with the same words.
 */
static int handle_check_names(struct eval_ctx *ctx, const struct handle *h)
{
	const struct name_ref *names[] = {
		&h->table, &h->chain, &h->set, &h->obj, &h->flowtable,
	};
	unsigned int i;
	int err = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i]->name &&
		    strlen(names[i]->name) > NFT_NAME_MAXLEN)
			err = eval_error(ctx, &names[i]->location,
					 "name too long, %d characters "
					 "maximum allowed", NFT_NAME_MAXLEN);
	}
	return err;
}

static int block_evaluate(struct eval_ctx *ctx, struct table *t,
			  struct table *decl, struct block *b)
{
	unsigned int i;
	int err = 0;

	ctx->table = t;
	for (i = 0; i < b->nsets; i++) {
		handle_merge(&b->sets[i]->handle, &decl->handle);
		if (handle_check_names(ctx, &b->sets[i]->handle) < 0 ||
		    set_decl_evaluate(ctx, t, b->sets[i]) < 0)
			err = -1;
	}
	for (i = 0; i < b->nchains; i++) {
		handle_merge(&b->chains[i]->handle, &decl->handle);
		if (handle_check_names(ctx, &b->chains[i]->handle) < 0 ||
		    chain_evaluate(ctx, b->chains[i]) < 0)
			err = -1;
		if (chain_cache_add(t, b->chains[i]) < 0)
			err = eval_error(ctx, &b->chains[i]->location,
					 "out of memory");
	}
	for (i = 0; i < b->nchains && !too_many_errors(ctx); i++) {
		if (chain_rules_evaluate(ctx, b->chains[i]) < 0)
			err = -1;
	}
	for (i = 0; i < b->nfts; i++) {
		handle_merge(&b->fts[i]->handle, &decl->handle);
		if (handle_check_names(ctx, &b->fts[i]->handle) < 0 ||
		    flowtable_evaluate(ctx, b->fts[i]) < 0)
			err = -1;
		flowtable_cache_add(t, b->fts[i]);
	}
	for (i = 0; i < b->nobjs; i++) {
		handle_merge(&b->objs[i]->handle, &decl->handle);
		if (handle_check_names(ctx, &b->objs[i]->handle) < 0)
			err = -1;
		obj_cache_add(t, b->objs[i]);
	}
	ctx->table = NULL;
	return err;
}

/* One command per object, after @pos's predecessor, in stock order. */
static void block_emit(struct list_head *pos, const struct block *b,
		       enum cmd_ops op)
{
	struct rule *r, *rn;
	unsigned int i;

	for (i = 0; i < b->nchains; i++)
		cmd_emit(pos, op, CMD_OBJ_CHAIN, &b->chains[i]->handle,
			 &b->chains[i]->location, b->chains[i]);
	for (i = 0; i < b->nobjs; i++)
		cmd_emit(pos, CMD_ADD, obj_cmd_type(b->objs[i]->type),
			 &b->objs[i]->handle, &b->objs[i]->location,
			 b->objs[i]);
	for (i = 0; i < b->nsets; i++)
		cmd_emit(pos, CMD_ADD, (b->sets[i]->flags & SET_F_MAP) ?
			 CMD_OBJ_MAP : CMD_OBJ_SET, &b->sets[i]->handle,
			 &b->sets[i]->location, b->sets[i]);
	for (i = 0; i < b->nfts; i++)
		cmd_emit(pos, CMD_ADD, CMD_OBJ_FLOWTABLE, &b->fts[i]->handle,
			 &b->fts[i]->location, b->fts[i]);
	for (i = 0; i < b->nchains; i++) {
		list_for_each_entry_safe(r, rn, &b->chains[i]->rules, list) {
			list_del(&r->list);
			init_list_head(&r->list);
			rule_emit(pos, r);
		}
	}
}

/*
 * A table block: evaluate sets first (rules may use any of them), then
 * chains with their rules, flowtables and objects, as stock nft; then
 * flatten into one command per object after the table command.
 */
static int table_block_evaluate(struct eval_ctx *ctx, struct cmd *cmd)
{
	struct table *decl = cmd->table, *t;
	struct block b = { 0 };
	int err;

	if (!decl)
		return table_cache_get(ctx, &cmd->handle, NULL) ? 0 :
		       eval_error(ctx, &cmd->location, "out of memory");
	handle_merge(&decl->handle, &cmd->handle);
	t = table_cache_get(ctx, &cmd->handle, decl);
	if (!t || block_detach(&b, decl) < 0) {
		block_free(&b);
		return eval_error(ctx, &cmd->location, "out of memory");
	}
	t->flags |= decl->flags;
	err = block_evaluate(ctx, t, decl, &b);
	block_emit(cmd->list.next, &b,
		   cmd->op == CMD_CREATE ? CMD_ADD : cmd->op);
	block_free(&b);
	return err;
}

static int chain_cmd_evaluate(struct eval_ctx *ctx, struct cmd *cmd,
			      struct table *t)
{
	struct chain *chain = cmd->chain;
	struct rule *r, *rn;
	int err = 0;

	if (!chain) {
		struct chain tmp = { .handle = cmd->handle,
				     .location = cmd->location };

		return chain_cache_add(t, &tmp) < 0 ?
		       eval_error(ctx, &cmd->location, "out of memory") : 0;
	}
	handle_merge(&chain->handle, &cmd->handle);
	if (chain_evaluate(ctx, chain) < 0)
		err = -1;
	if (chain_cache_add(t, chain) < 0)
		return eval_error(ctx, &cmd->location, "out of memory");
	if (chain_rules_evaluate(ctx, chain) < 0)
		err = -1;
	list_for_each_entry_safe(r, rn, &chain->rules, list) {
		list_del(&r->list);
		init_list_head(&r->list);
		rule_emit(cmd->list.next, r);
	}
	return err;
}

/* Stock's rule cache finds no chain for @cmd: its words. */
static int rule_cache_chain_enoent(struct eval_ctx *ctx, struct cmd *cmd)
{
	const struct location *loc = name_loc(&cmd->handle.chain, cmd);
	struct table *t;
	struct chain *c = chain_fuzzy(ctx, cmd->handle.chain.name, &t);

	if (!c)
		return eval_error(ctx, loc, "%s", strerror(ENOENT));
	return eval_error(ctx, loc, "%s; did you mean chain \u2018%s\u2019 in "
			  "table %s \u2018%s\u2019?", strerror(ENOENT),
			  c->handle.chain.name,
			  nftc_family_name(t->handle.family),
			  t->handle.table.name);
}

/*
 * The rule's statements are evaluated even when its chain is missing,
 * as stock does: their errors come first (the kernel's ENOENT only
 * without them; with the rule cache, stock's own words after them).
 */
static int rule_cmd_evaluate(struct eval_ctx *ctx, struct cmd *cmd,
			     struct table *t)
{
	struct chain *c = chain_cache_find(t, cmd->handle.chain.name);
	bool cache = ctx->nft->rule_cache;
	int ret;

	if (!c && !cache)
		cmd_chain(ctx, cmd, t);
	if (!cmd->rule) {
		if (!c && cache)
			rule_cache_chain_enoent(ctx, cmd);
		return c ? 0 : -1;
	}
	handle_merge(&cmd->rule->handle, &cmd->handle);
	ctx->chain = c;
	ret = rule_evaluate(ctx, cmd->rule);
	ctx->chain = NULL;
	if (!c) {
		if (ret == 0 && cache)
			rule_cache_chain_enoent(ctx, cmd);
		return -1;
	}
	if (ret == 0)
		ret = rule_cache_update(ctx, cmd->op, c, cmd->rule);
	if (ret == 0)
		bound_chains_emit(&cmd->list, cmd->rule);
	return ret;
}

static int elems_cmd_evaluate(struct eval_ctx *ctx, struct cmd *cmd,
			      struct table *t)
{
	struct set *set = set_cache_find(t, cmd->handle.set.name);
	int ret;

	if (!set) {
		/* stock's words, "did you mean" included */
		ctx->table = t;
		set_lookup_ref(ctx, &cmd->handle.set,
			       name_loc(&cmd->handle.set, cmd));
		return -1;
	}
	if (!cmd->expr)
		return 0;
	ctx->set = set;
	ret = elems_pack_evaluate(ctx, set, &cmd->pack, cmd->expr);
	ctx->set = NULL;
	return ret;
}

static int add_cmd_evaluate(struct eval_ctx *ctx, struct cmd *cmd)
{
	struct table *t;

	if (cmd->obj == CMD_OBJ_TABLE)
		return table_block_evaluate(ctx, cmd);
	t = cmd_table(ctx, cmd);
	if (!t)
		return -1;
	ctx->table = t;
	switch (cmd->obj) {
	case CMD_OBJ_CHAIN:
		return chain_cmd_evaluate(ctx, cmd, t);
	case CMD_OBJ_RULE:
		return rule_cmd_evaluate(ctx, cmd, t);
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		if (!cmd->set)
			return 0;
		handle_merge(&cmd->set->handle, &cmd->handle);
		return set_decl_evaluate(ctx, t, cmd->set);
	case CMD_OBJ_ELEMENTS:
		return elems_cmd_evaluate(ctx, cmd, t);
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_LIMIT:
	case CMD_OBJ_CT_HELPER:
	case CMD_OBJ_SYNPROXY:
	case CMD_OBJ_SECMARK:
		if (!cmd->object)
			return 0;
		handle_merge(&cmd->object->handle, &cmd->handle);
		obj_cache_add(t, cmd->object);
		return 0;
	case CMD_OBJ_FLOWTABLE:
		if (!cmd->flowtable)
			return 0;
		handle_merge(&cmd->flowtable->handle, &cmd->handle);
		if (flowtable_evaluate(ctx, cmd->flowtable) < 0)
			return -1;
		flowtable_cache_add(t, cmd->flowtable);
		return 0;
	default:
		return 0;
	}
}

/* delete/flush/list/...: the named table (and chain) must exist. */
static int other_cmd_evaluate(struct eval_ctx *ctx, struct cmd *cmd)
{
	struct table *t, *tn;

	if (cmd->obj == CMD_OBJ_RULESET && cmd->op == CMD_FLUSH) {
		list_for_each_entry_safe(t, tn, &ctx->nft->tables, list) {
			if (cmd->handle.family &&
			    t->handle.family != cmd->handle.family)
				continue;
			list_del(&t->list);
			table_free(t);
		}
		return 0;
	}
	if (!cmd->handle.table.name || cmd->op == CMD_DESTROY ||
	    cmd->op == CMD_DESCRIBE)
		return 0;
	t = cmd_table(ctx, cmd);
	if (!t)
		return -1;
	switch (cmd->obj) {
	case CMD_OBJ_TABLE:
		if (cmd->op == CMD_DELETE) {
			list_del(&t->list);
			table_free(t);
		}
		return 0;
	case CMD_OBJ_CHAIN:
	case CMD_OBJ_RULE: {
		struct chain *c;

		if (!cmd->handle.chain.name)
			return 0;
		c = cmd_chain(ctx, cmd, t);
		/* a deleted chain leaves stock's rule cache */
		if (c && cmd->op == CMD_DELETE && cmd->obj == CMD_OBJ_CHAIN)
			c->nslots = 0;
		return c ? 0 : -1;
	}
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
	case CMD_OBJ_ELEMENTS:
		if (cmd->handle.set.name &&
		    !set_cache_find(t, cmd->handle.set.name))
			return eval_error(ctx, name_loc(&cmd->handle.set, cmd),
					  "%s", strerror(ENOENT));
		if (cmd->obj == CMD_OBJ_ELEMENTS && cmd->expr) {
			struct set *set = set_cache_find(t,
							 cmd->handle.set.name);
			int ret;

			ctx->table = t;
			ctx->set = set;
			ret = elems_pack_evaluate(ctx, set, &cmd->pack,
						  cmd->expr);
			ctx->set = NULL;
			return ret;
		}
		return 0;
	default:
		return 0;
	}
}

/**
 * nftc_evaluate - evaluate commands in place
 * @nft: compiler context (its table cache grows with what is declared)
 * @cmds: parsed commands; block syntax is flattened in place
 *
 * Keeps going after an error to report more, up to erq.max_errors.
 * Returns 0, or -1 when any error was queued.
 */
int nftc_evaluate(struct nftc_ctx *nft, struct list_head *cmds)
{
	struct eval_ctx ctx = { .nft = nft };
	struct error_record *erec, *enext;
	struct cmd *cmd, *next;
	int err = 0, ret;

	erec_queue_init(&ctx.kernel_errors, nft->erq.max_errors);

	list_for_each_entry_safe(cmd, next, cmds, list) {
		ctx.cmd = cmd;
		ctx.table = NULL;
		if (handle_check_names(&ctx, &cmd->handle) < 0) {
			err = -1;
			continue;
		}
		switch (cmd->op) {
		case CMD_ADD:
		case CMD_CREATE:
		case CMD_INSERT:
		case CMD_REPLACE:
			ret = add_cmd_evaluate(&ctx, cmd);
			break;
		default:
			ret = other_cmd_evaluate(&ctx, cmd);
			break;
		}
		if (ret < 0)
			err = -1;
		if (too_many_errors(&ctx))
			break;
	}
	if (nft->erq.num_errors == 0) {
		list_for_each_entry_safe(erec, enext,
					 &ctx.kernel_errors.records, list) {
			list_del(&erec->list);
			list_add_tail(&erec->list, &nft->erq.records);
			if (erec->type == EREC_ERROR)
				nft->erq.num_errors++;
		}
	}
	erec_queue_free(&ctx.kernel_errors);
	return err;
}

/**
 * nftc_evaluate_rule - evaluate one rule of a table block on its own
 * @nft: compiler context
 * @t: the cache entry of the rule's table
 * @chain: the rule's chain declaration, already evaluated
 * @rule: the rule; takes the chain's family, table and chain names
 *
 * For pipeline.c, which evaluates the rules of a table block while the
 * block is parsed: the same as nftc_evaluate() does for each rule of a
 * block. Errors are queued in nft->erq. Returns 0 or -1.
 */
int nftc_evaluate_rule(struct nftc_ctx *nft, struct table *t,
		       struct chain *chain, struct rule *rule)
{
	struct eval_ctx ctx = { .nft = nft, .table = t, .chain = chain };

	handle_merge(&rule->handle, &chain->handle);
	return rule_evaluate(&ctx, rule);
}
