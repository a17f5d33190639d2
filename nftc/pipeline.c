// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The streaming compiler (see pipeline.h).
 *
 * The whole-file way evaluates every command, then linearizes every
 * command. Streaming gets the same batch by splitting the output in
 * items kept in source order:
 *  - rules are evaluated and linearized as soon as they are parsed, into
 *    batch segments (nftc_batch_segment_alloc), and freed;
 *  - everything else (tables, chains, sets, objects, elements, deletes)
 *    is evaluated in order too but linearized only at the end, because
 *    later commands may still change it (elements added to a set) and,
 *    in a table block, because stock order puts every declaration of the
 *    block before its rules.
 * At the end the items are linearized or spliced into one batch. Debug
 * text goes through temporary files so that nothing is printed unless
 * the whole file compiled.
 *
 * A table block streams its rules: at the first rule of a chain, the
 * declarations parsed so far (sets, then chains, the current one
 * included) are evaluated through nftc_evaluate() as a partial block;
 * the block's own command, at its end, evaluates the rest (objects,
 * flowtables, later declarations) and the block's declaration commands
 * are put in stock order in the item reserved at the first rule.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "pipeline.h"
#include "evaluate.h"
#include "linearize.h"
#include "rule_memo.h"
#include "anon_names.h"

/**
 * struct pipe_item - a piece of the output, in source order
 * @cmds: evaluated commands, linearized at the end
 * @seg: or rules linearized already (then @cmds is empty)
 * @dbg_start: @dbg_end: their debug text in pipeline.dbg
 */
struct pipe_item {
	struct list_head	list;
	struct list_head	cmds;
	struct nftc_batch	*seg;
	long			dbg_start;
	long			dbg_end;
};

/**
 * struct pipe_block - the table block being parsed
 * @active: between "table NAME" and the block's command
 * @handle: family and table name (own copy)
 * @decl: the parser's table under construction (borrowed)
 * @cache: the table's cache entry, once something was evaluated
 * @created: the cache entry was created by this block
 * @chain_name: @chain_nloc: chain being parsed (name borrowed)
 * @chain: that chain, once its first rule evaluated it
 * @decls: item reserved for the block's declarations (first rule)
 * @chain_cmds: @set_cmds: declarations evaluated before the block's end
 * @rules_used_ids: a streamed rule took a set id: a set evaluated now
 *                  would not get the id the whole-file way gives it
 * @fwd: placeholder cache entries of chains jumped to before their
 *       declaration (@nfwd of them, room for @fwd_cap)
 */
struct pipe_block {
	bool			active;
	struct handle		handle;
	struct table		*decl;
	struct table		*cache;
	bool			created;
	const char		*chain_name;
	struct location		chain_nloc;
	struct chain		*chain;
	struct pipe_item	*decls;
	struct list_head	chain_cmds;
	struct list_head	set_cmds;
	bool			rules_used_ids;
	struct chain		**fwd;
	unsigned int		nfwd;
	unsigned int		fwd_cap;
};

/**
 * struct pipeline - state of one streaming compilation
 * @nft: compiler context
 * @debug: debug text wanted (NFTC_DEBUG_NETLINK)
 * @dbg: temporary file holding the segments' debug text
 * @failed: gave up; the file must be compiled the whole-file way
 * @items: struct pipe_item, in order
 * @block: the table block being parsed
 */
struct pipeline {
	struct nftc_ctx		*nft;
	bool			debug;
	FILE			*dbg;
	bool			failed;
	struct list_head	items;
	struct pipe_block	block;
	struct rule_memo	*memo;
};

static struct pipeline *pipeline_alloc(struct nftc_ctx *nft)
{
	struct pipeline *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nft = nft;
	init_list_head(&p->items);
	init_list_head(&p->block.chain_cmds);
	init_list_head(&p->block.set_cmds);
	p->debug = nft->debug & NFTC_DEBUG_NETLINK;
	p->memo = rule_memo_new(nft, p);
	if (p->debug) {
		p->dbg = tmpfile();
		if (!p->dbg) {
			rule_memo_free(p->memo);
			free(p);
			return NULL;
		}
	}
	return p;
}

static void block_reset(struct pipe_block *b)
{
	free(b->fwd);
	cmd_list_free(&b->chain_cmds);
	cmd_list_free(&b->set_cmds);
	handle_free(&b->handle);
	memset(b, 0, sizeof(*b));
	init_list_head(&b->chain_cmds);
	init_list_head(&b->set_cmds);
}

static void pipeline_free(struct pipeline *p)
{
	struct pipe_item *i, *next;

	list_for_each_entry_safe(i, next, &p->items, list) {
		list_del(&i->list);
		cmd_list_free(&i->cmds);
		nftc_batch_free(i->seg);
		free(i);
	}
	block_reset(&p->block);
	rule_memo_free(p->memo);
	if (p->dbg)
		fclose(p->dbg);
	free(p);
}

/* Any diagnostic means the whole-file way must decide. */
static bool pipe_ok(struct pipeline *p)
{
	if (p->nft->erq.num_errors || !list_empty(&p->nft->erq.records))
		p->failed = true;
	return !p->failed;
}

static int pipe_fail(struct pipeline *p)
{
	p->failed = true;
	return -1;
}

bool pipeline_failed(const struct pipeline *p)
{
	return p && p->failed;
}

static struct pipe_item *item_new(struct pipeline *p)
{
	struct pipe_item *i = calloc(1, sizeof(*i));

	if (!i)
		return NULL;
	init_list_head(&i->cmds);
	list_add_tail(&i->list, &p->items);
	return i;
}

static struct pipe_item *item_last(struct pipeline *p)
{
	if (list_empty(&p->items))
		return NULL;
	return list_last_entry(&p->items, struct pipe_item, list);
}

/* The item evaluated declarations go to: the last one unless a segment. */
static struct pipe_item *item_decl(struct pipeline *p)
{
	struct pipe_item *i = item_last(p);

	if (i && !i->seg && i != p->block.decls)
		return i;
	return item_new(p);
}

/* The segment rules are linearized into: the last item if one. */
static struct pipe_item *item_seg(struct pipeline *p)
{
	struct pipe_item *i = item_last(p);

	if (i && i->seg)
		return i;
	i = item_new(p);
	if (!i)
		return NULL;
	i->seg = nftc_batch_segment_alloc();
	if (!i->seg)
		return NULL;
	if (p->dbg)
		i->dbg_start = i->dbg_end = ftell(p->dbg);
	return i;
}

/*
 * Linearize the evaluated rule command @cmd now. The command and rule
 * stay the caller's.
 */
static int pipe_lin_rule(struct pipeline *p, struct cmd *cmd)
{
	struct list_head one = LIST_HEAD_INIT(one);
	struct pipe_item *i = item_seg(p);
	int ret;

	if (!i)
		return pipe_fail(p);
	list_add(&cmd->list, &one);
	ret = nftc_linearize(p->nft, &one, i->seg, p->dbg);
	list_del(&cmd->list);
	init_list_head(&cmd->list);
	if (p->dbg)
		i->dbg_end = ftell(p->dbg);
	if (ret < 0 || !pipe_ok(p))
		return pipe_fail(p);
	return 0;
}

static bool cmd_is_rule_add(const struct cmd *c)
{
	if (c->obj != CMD_OBJ_RULE || !c->rule)
		return false;
	return c->op == CMD_ADD || c->op == CMD_CREATE ||
	       c->op == CMD_INSERT || c->op == CMD_REPLACE;
}

/*
 * The rule's anonymous sets were added to the table's cache, where
 * nothing finds them again (set_cache_find() returns the first set of a
 * name): drop them with the rule, or 100,000 rules would keep all their
 * sets and make every set lookup slower. Meter sets stay, they are
 * looked up by name.
 */
static void cache_drop_anon(struct table *t, struct list_head *from)
{
	struct list_head *pos = from->next, *next;
	struct set *s;

	for (; pos != &t->sets; pos = next) {
		next = pos->next;
		s = list_entry(pos, struct set, list);
		/* "__set%d" finds the first; a name of its own (anon_names.h)
		 * finds each, yet nothing looks for it */
		if (!(s->flags & SET_F_ANONYMOUS) || (s->flags & SET_F_EVAL) ||
		    (s->handle.set.name && strchr(s->handle.set.name, '%') &&
		     set_cache_find(t, s->handle.set.name) == s))
			continue;
		list_del(&s->list);
		init_list_head(&s->list);
		set_free(s);
	}
}

/*
 * A set @c declares takes its name from the anonymous sets' (a user may
 * call a set "__set3"), before any rule after it takes one.
 */
static void names_note(struct anon_names *an, const struct cmd *c)
{
	const char *name = c->set ? c->set->handle.set.name :
				    c->handle.set.name;

	if ((c->obj == CMD_OBJ_SET || c->obj == CMD_OBJ_MAP) &&
	    (c->op == CMD_ADD || c->op == CMD_CREATE))
		anon_names_note(an, c->handle.family, c->handle.table.name,
				name);
}

/*
 * Whatever @c removes whole leaves names of anonymous sets free for the
 * rest of the batch (anon_names.h). Other removals (rules, chains,
 * "flush table") may free some too: the names stay taken.
 */
static void names_forget(struct pipeline *p, const struct cmd *c)
{
	if (c->op == CMD_FLUSH && c->obj == CMD_OBJ_RULESET)
		anon_names_forget(p->nft->anon_names, c->handle.family, NULL);
	else if ((c->op == CMD_DELETE || c->op == CMD_DESTROY) &&
		 c->obj == CMD_OBJ_TABLE && c->handle.table.name)
		anon_names_forget(p->nft->anon_names, c->handle.family,
				  c->handle.table.name);
}

/*
 * Evaluate the one-command list @l (nftc_evaluate() may flatten it into
 * several). Rules are linearized and freed at once, the rest appended
 * to the current declaration item.
 */
static int pipe_eval_list(struct pipeline *p, struct list_head *l)
{
	struct cmd *c = list_first_entry(l, struct cmd, list), *next;
	struct list_head *tail = NULL;
	struct pipe_item *i;
	struct table *t;

	/*
	 * "add rule ... index N" and the like need the kernel's rules in
	 * the cache before the first command (and --debug=netlink prints
	 * them first for "replace rule"): the whole-file way does it.
	 */
	if (nftc_cmds_need_rule_cache(l) ||
	    (p->debug && nftc_cmds_read_rules(l)))
		goto err;
	names_forget(p, c);
	/* "add rule" with anonymous sets: see cache_drop_anon() */
	t = c->obj == CMD_OBJ_RULE ?
	    table_cache_find(p->nft, c->handle.family,
			     c->handle.table.name) : NULL;
	if (t)
		tail = t->sets.prev;
	if (nftc_evaluate(p->nft, l) < 0 || !pipe_ok(p))
		goto err;
	list_for_each_entry_safe(c, next, l, list) {
		list_del(&c->list);
		if (cmd_is_rule_add(c)) {
			if (pipe_lin_rule(p, c) < 0) {
				cmd_free(c);
				goto err;
			}
			cmd_free(c);
			continue;
		}
		names_note(p->nft->anon_names, c);
		i = item_decl(p);
		if (!i) {
			cmd_free(c);
			goto err;
		}
		list_add_tail(&c->list, &i->cmds);
	}
	if (tail)
		cache_drop_anon(t, tail);
	return 0;
err:
	cmd_list_free(l);
	return pipe_fail(p);
}

/*
 * Table blocks
 */

void pipeline_table_begin(struct pipeline *p, const struct handle *h)
{
	if (!p || p->failed)
		return;
	block_reset(&p->block);
	p->block.active = true;
	handle_merge(&p->block.handle, h);
}

void pipeline_chain_begin(struct pipeline *p, struct table *decl,
			  const char *name, const struct location *nloc)
{
	struct pipe_block *b = p ? &p->block : NULL;

	if (!b || p->failed || !b->active)
		return;
	b->decl = decl;
	b->chain_name = name;
	b->chain_nloc = *nloc;
	b->chain = NULL;
}

/*
 * Sets evaluated after a streamed rule took a set id would be numbered
 * differently than the whole-file way numbers them; a set name declared
 * again would change what rules evaluated before it saw.
 */
static bool block_sets_ok(struct pipe_block *b, const struct table *decl)
{
	const struct set *s;

	if (list_empty(&decl->sets) || !b->decls)
		return true;
	if (b->rules_used_ids)
		return false;
	list_for_each_entry(s, &decl->sets, list)
		if (set_cache_find(b->cache, s->handle.set.name))
			return false;
	return true;
}

/* Sort the flattened declarations of @l into the block's lists. */
static int block_collect(struct pipe_block *b, struct anon_names *an,
			 struct list_head *l, struct list_head *objs,
			 struct list_head *fts)
{
	struct cmd *c, *next;

	list_for_each_entry_safe(c, next, l, list) {
		list_del(&c->list);
		names_note(an, c);
		switch (c->obj) {
		case CMD_OBJ_CHAIN:
			list_add_tail(&c->list, &b->chain_cmds);
			break;
		case CMD_OBJ_SET:
		case CMD_OBJ_MAP:
			list_add_tail(&c->list, &b->set_cmds);
			break;
		case CMD_OBJ_FLOWTABLE:
			list_add_tail(&c->list, fts);
			break;
		default:
			if (!objs) {
				cmd_free(c);
				cmd_list_free(l);
				return -1;
			}
			list_add_tail(&c->list, objs);
			break;
		}
	}
	return 0;
}

/*
 * Forward jumps. The whole-file way knows every chain of a block before
 * it evaluates the block's rules; a rule streamed now may jump to a
 * chain declared further down. The chain names a rule jumps to get a
 * placeholder cache entry (name only) until the chain is declared: the
 * placeholder goes before the declaration is evaluated, and one left at
 * the block's end means the jump was wrong after all (the whole-file way
 * then reports it).
 */
static int block_fwd_add(struct pipe_block *b, const char *name)
{
	struct chain *c;

	if (!name || chain_cache_find(b->cache, name))
		return 0;
	if (b->nfwd == b->fwd_cap) {
		unsigned int cap = b->fwd_cap ? b->fwd_cap * 2 : 8;
		struct chain **n = realloc(b->fwd, cap * sizeof(*n));

		if (!n)
			return -1;
		b->fwd = n;
		b->fwd_cap = cap;
	}
	c = chain_alloc();
	if (!c)
		return -1;
	c->handle.chain.name = strdup(name);
	if (!c->handle.chain.name) {
		chain_free(c);
		return -1;
	}
	list_add_tail(&c->list, &b->cache->chains);
	b->fwd[b->nfwd++] = c;
	return 0;
}

/* Chain @name is about to be declared: drop its placeholder. */
static void block_fwd_resolve(struct pipe_block *b, const char *name)
{
	unsigned int i;

	for (i = 0; i < b->nfwd && name; i++) {
		if (strcmp(b->fwd[i]->handle.chain.name, name))
			continue;
		list_del(&b->fwd[i]->list);
		chain_free(b->fwd[i]);
		b->fwd[i] = b->fwd[--b->nfwd];
		return;
	}
}

static void block_fwd_resolve_all(struct pipe_block *b,
				  const struct list_head *chains)
{
	const struct chain *c;

	list_for_each_entry(c, chains, list)
		block_fwd_resolve(b, c->handle.chain.name);
}

/* The chain a jump/goto verdict names, as the parser left it. */
static const char *verdict_chain(const struct expr *v)
{
	const struct expr *c;

	if (!v || v->kind != EXPR_VERDICT ||
	    (v->verdict.verdict != NFT_JUMP && v->verdict.verdict != NFT_GOTO))
		return NULL;
	c = v->verdict.chain;
	if (c && c->kind == EXPR_VARIABLE)
		c = c->sym.value;
	return c && c->kind == EXPR_SYMBOL ? c->sym.identifier : NULL;
}

/* Placeholders for the chains rule @r jumps to ("jump", "vmap {...}"). */
static int block_fwd_rule(struct pipe_block *b, const struct rule *r)
{
	const struct expr *e, *m;
	const struct stmt *st;

	list_for_each_entry(st, &r->stmts, list) {
		e = st->expr;
		if (st->kind != STMT_VERDICT || !e)
			continue;
		if (block_fwd_add(b, verdict_chain(e)) < 0)
			return -1;
		if (e->kind != EXPR_MAP || !e->map.mappings ||
		    e->map.mappings->kind != EXPR_SET)
			continue;
		list_for_each_entry(m, &e->map.mappings->expressions, list)
			if (m->kind == EXPR_MAPPING &&
			    block_fwd_add(b, verdict_chain(m->pair.right)) < 0)
				return -1;
	}
	return 0;
}

/*
 * First rule of chain @cur: evaluate the block's sets and chains parsed
 * so far, @cur included, as a partial block.
 */
static int block_flush(struct pipeline *p, struct chain *cur)
{
	struct pipe_block *b = &p->block;
	struct list_head l = LIST_HEAD_INIT(l), fts = LIST_HEAD_INIT(fts);
	struct table *decl = b->decl, *tmp;
	struct cmd *cmd;
	char *name;

	if (!block_sets_ok(b, decl))
		return -1;
	tmp = table_alloc();
	name = strdup(b->chain_name);
	if (!tmp || !name) {
		table_free(tmp);
		free(name);
		return -1;
	}
	tmp->flags = decl->flags;
	list_splice_tail_init(&decl->sets, &tmp->sets);
	list_splice_tail_init(&decl->chains, &tmp->chains);
	free(cur->handle.chain.name);
	cur->handle.chain.name = name;
	cur->handle.chain.location = b->chain_nloc;
	cur->refcnt++;		/* one for the parser, one for the command */
	list_add_tail(&cur->list, &tmp->chains);
	block_fwd_resolve_all(b, &tmp->chains);

	if (!b->decls)
		b->created = !table_cache_find(p->nft, b->handle.family,
					       b->handle.table.name);
	cmd = cmd_alloc(CMD_ADD, CMD_OBJ_TABLE, &b->handle, &b->chain_nloc,
			tmp);
	if (!cmd) {
		table_free(tmp);
		return -1;
	}
	list_add(&cmd->list, &l);
	if (nftc_evaluate(p->nft, &l) < 0 || !pipe_ok(p)) {
		cmd_list_free(&l);
		return -1;
	}
	list_del(&cmd->list);
	cmd_free(cmd);
	if (block_collect(b, p->nft->anon_names, &l, NULL, &fts) < 0 ||
	    !list_empty(&fts)) {
		cmd_list_free(&fts);
		return -1;
	}
	b->cache = table_cache_find(p->nft, b->handle.family,
				    b->handle.table.name);
	if (!b->cache)
		return -1;
	if (!b->decls) {
		b->decls = item_new(p);
		if (!b->decls)
			return -1;
	}
	b->chain = cur;
	return 0;
}

static bool rule_binds_chain(const struct rule *r)
{
	const struct stmt *s;

	list_for_each_entry(s, &r->stmts, list)
		if (s->kind == STMT_CHAIN)
			return true;
	return false;
}

bool pipeline_rule(struct pipeline *p, struct chain *c, struct rule *r)
{
	struct pipe_block *b = p ? &p->block : NULL;
	unsigned int ids;
	struct list_head *tail;
	struct cmd cmd;
	bool borrowed;
	int ret;

	if (!b || !b->active || !b->chain_name || !pipe_ok(p))
		return false;
	/* its anonymous chains become commands of their own: whole-file */
	if (rule_binds_chain(r)) {
		pipe_fail(p);
		return false;
	}
	if (b->chain != c && (b->chain || block_flush(p, c) < 0)) {
		pipe_fail(p);
		return false;
	}
	/*
	 * The rule lives shorter than its chain: borrow the chain's names
	 * instead of the copies nftc_evaluate_rule() would make.
	 */
	borrowed = !r->handle.table.name && !r->handle.chain.name;
	if (borrowed) {
		r->handle.family = c->handle.family;
		r->handle.table = c->handle.table;
		r->handle.chain = c->handle.chain;
	}
	ids = p->nft->next_set_id;
	tail = b->cache->sets.prev;
	if (block_fwd_rule(b, r) < 0) {
		pipe_fail(p);
		goto out;
	}
	if (p->memo)
		rule_memo_rule_begin(p->memo, c, r, item_last(p) ?
				     item_last(p)->seg : NULL);
	ret = nftc_evaluate_rule(p->nft, b->cache, c, r);
	if (p->nft->next_set_id != ids)
		b->rules_used_ids = true;
	if (ret < 0 || !pipe_ok(p)) {
		rule_memo_rule_end(p->memo, NULL);
		pipe_fail(p);
		goto out;
	}
	/* What the whole-file way's flattening makes of the rule. */
	memset(&cmd, 0, sizeof(cmd));
	init_list_head(&cmd.list);
	cmd.location = r->location;
	cmd.op = CMD_ADD;
	cmd.obj = CMD_OBJ_RULE;
	cmd.handle = r->handle;
	cmd.rule = r;
	ret = pipe_lin_rule(p, &cmd);
	/* the rule's messages, to record or check (rule_memo.c) */
	if (p->memo)
		rule_memo_rule_end(p->memo, ret == 0 && item_last(p) ?
				   item_last(p)->seg : NULL);
	cache_drop_anon(b->cache, tail);
out:
	if (borrowed) {
		r->handle.table.name = NULL;
		r->handle.chain.name = NULL;
	}
	rule_free(r);
	return true;
}

struct rule_memo *pipeline_memo(struct pipeline *p)
{
	return p ? p->memo : NULL;
}

int pipeline_memo_emit(struct pipeline *p, struct chain *c,
		       const struct location *loc, const void *msg,
		       uint32_t len, const struct pipeline_patch *patch,
		       unsigned int n)
{
	const struct nlmsghdr *m = msg;
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(m);
	struct pipe_block *b = &p->block;
	struct nlmsghdr *nlh;
	struct pipe_item *i;
	uint32_t seq;

	if (!b->active || !b->chain_name || b->chain != c || !c ||
	    !pipe_ok(p))
		return -1;
	/* --debug=netlink: only rule messages are printed from bytes */
	if (p->dbg && (m->nlmsg_type & 0xff) != NFT_MSG_NEWRULE)
		return -1;
	i = item_seg(p);
	if (!i)
		return -1;
	nlh = nftc_batch_msg_begin(i->seg, m->nlmsg_type & 0xff,
				   m->nlmsg_flags, g->nfgen_family, loc);
	if (!nlh)
		return -1;
	seq = nlh->nlmsg_seq;
	memcpy(nlh, msg, len);
	nlh->nlmsg_seq = seq;
	while (n--)
		memcpy((char *)nlh + patch[n].off, patch[n].data,
		       patch[n].len);
	if (p->dbg) {
		if (nftc_lin_rule_debug(p->dbg, nlh) < 0)
			return pipe_fail(p);
		i->dbg_end = ftell(p->dbg);
	}
	return nftc_batch_msg_end(i->seg, nlh) < 0 ? pipe_fail(p) : 0;
}

void pipeline_memo_took_ids(struct pipeline *p, unsigned int n,
			    unsigned int names)
{
	if (names)
		anon_names_take(p->nft->anon_names, p->block.handle.family,
				p->block.handle.table.name, false, names);
	if (!n)
		return;
	p->nft->next_set_id += n;
	p->block.rules_used_ids = true;
}

int pipeline_memo_set_name(struct pipeline *p, unsigned int i, char *buf,
			   size_t len)
{
	if (!p->block.active)
		return -1;
	return anon_names_peek(p->nft->anon_names, p->block.handle.family,
			       p->block.handle.table.name, false, i, buf, len);
}

bool pipeline_chain_end(struct pipeline *p, struct chain *c,
			const struct location *loc)
{
	struct pipe_block *b = p ? &p->block : NULL;
	struct chain *cc;
	struct cmd *cmd;

	if (!b || !b->active)
		return false;
	b->chain_name = NULL;
	if (b->chain != c || !c)
		return false;
	b->chain = NULL;
	/* The location is complete only now. */
	c->location = *loc;
	list_for_each_entry(cmd, &b->chain_cmds, list)
		if (cmd->chain == c)
			cmd->location = *loc;
	cc = chain_cache_find(b->cache, c->handle.chain.name);
	if (cc && !memcmp(&cc->location, &internal_location,
			  sizeof(internal_location)))
		cc->location = *loc;
	return true;
}

void pipeline_chain_attr(struct pipeline *p, const struct chain *c)
{
	if (p && p->block.active && p->block.chain == c)
		pipe_fail(p);
}

void pipeline_table_attr(struct pipeline *p, const struct table *t)
{
	if (p && p->block.active && p->block.decl == t && p->block.decls)
		pipe_fail(p);
}

/*
 * The command of a block whose rules were streamed: evaluate what is
 * left and fill the block's item in stock order (table, chains,
 * objects, sets, flowtables).
 */
static int block_end(struct pipeline *p, struct cmd *cmd)
{
	struct pipe_block *b = &p->block;
	struct list_head l = LIST_HEAD_INIT(l), objs = LIST_HEAD_INIT(objs);
	struct list_head fts = LIST_HEAD_INIT(fts);
	struct list_head *to = &b->decls->cmds;

	if (!block_sets_ok(b, cmd->table)) {
		cmd_free(cmd);
		return pipe_fail(p);
	}
	block_fwd_resolve_all(b, &cmd->table->chains);
	list_add(&cmd->list, &l);
	if (b->nfwd || nftc_evaluate(p->nft, &l) < 0 || !pipe_ok(p)) {
		cmd_list_free(&l);
		return pipe_fail(p);
	}
	list_del(&cmd->list);
	list_add_tail(&cmd->list, to);
	block_collect(b, p->nft->anon_names, &l, &objs, &fts);
	if (b->created)
		b->cache->location = cmd->table->location;
	list_splice_tail_init(&b->chain_cmds, to);
	list_splice_tail_init(&objs, to);
	list_splice_tail_init(&b->set_cmds, to);
	list_splice_tail_init(&fts, to);
	block_reset(b);
	return 0;
}

int pipeline_cmd(struct pipeline *p, struct cmd *cmd)
{
	struct list_head l = LIST_HEAD_INIT(l);

	if (!pipe_ok(p)) {
		cmd_free(cmd);
		return -1;
	}
	switch (cmd->op) {
	case CMD_LIST:
	case CMD_DESCRIBE:
	case CMD_GET:
	case CMD_RESET:
		/* main() handles these whole-file */
		cmd_free(cmd);
		return pipe_fail(p);
	default:
		break;
	}
	if (p->block.active && cmd->obj == CMD_OBJ_TABLE &&
	    cmd->table == p->block.decl && p->block.decls)
		return block_end(p, cmd);
	block_reset(&p->block);
	list_add(&cmd->list, &l);
	return pipe_eval_list(p, &l);
}

/*
 * The end
 */

static int copy_range(FILE *from, long start, long end, FILE *to)
{
	char buf[65536];
	size_t n;

	if (fseek(from, start, SEEK_SET) < 0)
		return -1;
	while (start < end) {
		n = end - start < (long)sizeof(buf) ? end - start : sizeof(buf);
		n = fread(buf, 1, n, from);
		if (n == 0)
			return -1;
		if (fwrite(buf, 1, n, to) != n)
			return -1;
		start += n;
	}
	return 0;
}

/* Linearize / splice every item into one batch; debug text into @out. */
static struct nftc_batch *pipeline_finish(struct pipeline *p, FILE *out)
{
	struct nftc_batch *batch = nftc_batch_alloc(1);
	struct pipe_item *i;

	if (!batch)
		return NULL;
	if (p->dbg)
		fflush(p->dbg);
	list_for_each_entry(i, &p->items, list) {
		if (i->seg) {
			if (p->dbg && copy_range(p->dbg, i->dbg_start,
						 i->dbg_end, out) < 0)
				goto err;
			if (nftc_batch_splice(batch, i->seg) < 0) {
				i->seg = NULL;
				goto err;
			}
			i->seg = NULL;
		} else if (nftc_linearize(p->nft, &i->cmds, batch, out) < 0) {
			goto err;
		}
		if (!pipe_ok(p))
			goto err;
	}
	if (nftc_batch_end(batch) < 0)
		goto err;
	return batch;
err:
	nftc_batch_free(batch);
	return NULL;
}

static int copy_all(FILE *from, FILE *to)
{
	long end;

	fflush(from);
	end = ftell(from);
	return end < 0 ? -1 : copy_range(from, 0, end, to);
}

/**
 * nftc_compile_file_streaming - parse, evaluate and linearize @path at once
 *
 * See pipeline.h.
 */
int nftc_compile_file_streaming(struct nftc_ctx *nft, const char *path,
				char *data, size_t size, FILE *debug_out,
				struct nftc_batch **batchp)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct nftc_batch *batch = NULL;
	struct pipeline *p;
	FILE *out = NULL;
	int ret;

	*batchp = NULL;
	p = pipeline_alloc(nft);
	if (!p) {
		free(data);
		return -1;
	}
	ret = nftc_parse_file_pipe(nft, path, data, size, &cmds, p);
	/* Commands only get here after the pipeline gave up. */
	if (!list_empty(&cmds))
		p->failed = true;
	cmd_list_free(&cmds);
	if (ret < 0 || !pipe_ok(p) || p->block.active)
		goto out;
	if (p->debug && debug_out) {
		out = tmpfile();
		if (!out)
			goto out;
	}
	batch = pipeline_finish(p, out);
	if (!batch)
		goto out;
	if (out && copy_all(out, debug_out) < 0) {
		nftc_batch_free(batch);
		batch = NULL;
	}
out:
	if (out)
		fclose(out);
	pipeline_free(p);
	*batchp = batch;
	return batch ? 0 : -1;
}
