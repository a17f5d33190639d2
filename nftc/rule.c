/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Containers of the IR: handles, tables, chains, rules, sets, objects,
 * flowtables and commands.
 *
 * Handles are always deep-copied: rule_alloc() and cmd_alloc() copy the
 * names of the handle they are given, so the caller keeps (and frees)
 * its own. Every other constructor argument (data, expressions) is taken
 * over.
 */
#include <stdlib.h>
#include <string.h>
#include "rule.h"
#include "elem_pack.h"
#include "delin_pack.h"
#include "node_cache.h"

static struct node_cache rule_cache;

static void name_ref_free(struct name_ref *n)
{
	free(n->name);
	n->name = NULL;
}

/**
 * handle_free - free the names of @h (not @h itself)
 */
void handle_free(struct handle *h)
{
	if (!h)
		return;
	name_ref_free(&h->table);
	name_ref_free(&h->chain);
	name_ref_free(&h->set);
	name_ref_free(&h->obj);
	name_ref_free(&h->flowtable);
}

static void name_ref_merge(struct name_ref *dst, const struct name_ref *src)
{
	if (dst->name || !src->name)
		return;
	dst->name = strdup(src->name);
	dst->location = src->location;
}

static void id_ref_merge(struct id_ref *dst, const struct id_ref *src)
{
	if (!dst->present && src->present)
		*dst = *src;
}

/**
 * handle_merge - fill what @dst lacks from @src (names are copied)
 *
 * A handle without a table name also takes @src's family: the family
 * belongs to the table.
 */
void handle_merge(struct handle *dst, const struct handle *src)
{
	if (src->family && (!dst->table.name || !dst->family))
		dst->family = src->family;
	name_ref_merge(&dst->table, &src->table);
	name_ref_merge(&dst->chain, &src->chain);
	name_ref_merge(&dst->set, &src->set);
	name_ref_merge(&dst->obj, &src->obj);
	name_ref_merge(&dst->flowtable, &src->flowtable);
	id_ref_merge(&dst->handle, &src->handle);
	id_ref_merge(&dst->position, &src->position);
	id_ref_merge(&dst->index, &src->index);
	if (!dst->set_id)
		dst->set_id = src->set_id;
	if (!dst->chain_id)
		dst->chain_id = src->chain_id;
}

static void handle_copy(struct handle *dst, const struct handle *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src)
		handle_merge(dst, src);
}

struct table *table_alloc(void)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	init_list_head(&t->list);
	init_list_head(&t->chains);
	init_list_head(&t->sets);
	init_list_head(&t->objs);
	init_list_head(&t->flowtables);
	init_list_head(&t->bound);
	t->location = internal_location;
	t->refcnt = 1;
	return t;
}

void table_free(struct table *table)
{
	struct chain *c, *cn;
	struct set *s, *sn;
	struct obj *o, *on;
	struct flowtable *f, *fn;

	if (!table || --table->refcnt > 0)
		return;
	list_for_each_entry_safe(c, cn, &table->chains, list) {
		list_del(&c->list);
		chain_free(c);
	}
	list_for_each_entry_safe(c, cn, &table->bound, list) {
		list_del(&c->list);
		chain_free(c);
	}
	list_for_each_entry_safe(s, sn, &table->sets, list) {
		list_del(&s->list);
		set_free(s);
	}
	list_for_each_entry_safe(o, on, &table->objs, list) {
		list_del(&o->list);
		obj_free(o);
	}
	list_for_each_entry_safe(f, fn, &table->flowtables, list) {
		list_del(&f->list);
		flowtable_free(f);
	}
	handle_free(&table->handle);
	free(table->comment);
	free(table);
}

struct chain *chain_alloc(void)
{
	struct chain *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	init_list_head(&c->list);
	init_list_head(&c->rules);
	c->location = internal_location;
	c->refcnt = 1;
	return c;
}

void chain_free(struct chain *chain)
{
	struct rule *r, *rn;

	if (!chain || --chain->refcnt > 0)
		return;
	list_for_each_entry_safe(r, rn, &chain->rules, list) {
		list_del(&r->list);
		rule_free(r);
	}
	handle_free(&chain->handle);
	name_ref_free(&chain->type);
	name_ref_free(&chain->hook_name);
	expr_free(chain->priority);
	expr_free(chain->policy);
	expr_free(chain->devices);
	free(chain->comment);
	free(chain->slots);
	free(chain);
}

/**
 * rule_alloc - empty rule
 * @h: handle to copy (may be NULL)
 */
struct rule *rule_alloc(const struct location *loc, const struct handle *h)
{
	struct rule *r = node_cache_get(&rule_cache, sizeof(*r));

	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	init_list_head(&r->list);
	init_list_head(&r->stmts);
	r->location = loc ? *loc : internal_location;
	handle_copy(&r->handle, h);
	return r;
}

void rule_free(struct rule *rule)
{
	if (!rule)
		return;
	stmt_list_free(&rule->stmts);
	handle_free(&rule->handle);
	free(rule->comment);
	node_cache_put(&rule_cache, rule, sizeof(*rule));
}

struct set *set_alloc(const struct location *loc)
{
	struct set *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	init_list_head(&s->list);
	init_list_head(&s->stmts);
	s->location = loc ? *loc : internal_location;
	s->refcnt = 1;
	return s;
}

struct set *set_get(struct set *set)
{
	if (set)
		set->refcnt++;
	return set;
}

void set_free(struct set *set)
{
	if (!set || --set->refcnt > 0)
		return;
	handle_free(&set->handle);
	expr_free(set->key);
	expr_free(set->data);
	expr_free(set->init);
	elem_pack_free(set->pack);
	delin_pack_free(set->dpack);
	stmt_list_free(&set->stmts);
	free(set->comment);
	free(set);
}

struct obj *obj_alloc(const struct location *loc)
{
	struct obj *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	init_list_head(&o->list);
	o->location = loc ? *loc : internal_location;
	o->refcnt = 1;
	return o;
}

void obj_free(struct obj *obj)
{
	if (!obj || --obj->refcnt > 0)
		return;
	handle_free(&obj->handle);
	free(obj->comment);
	free(obj);
}

struct flowtable *flowtable_alloc(const struct location *loc)
{
	struct flowtable *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	init_list_head(&f->list);
	f->location = loc ? *loc : internal_location;
	f->refcnt = 1;
	return f;
}

void flowtable_free(struct flowtable *ft)
{
	if (!ft || --ft->refcnt > 0)
		return;
	handle_free(&ft->handle);
	name_ref_free(&ft->hook_name);
	expr_free(ft->priority);
	expr_free(ft->devices);
	free(ft);
}

/**
 * cmd_alloc - a command
 * @h: handle, copied (may be NULL)
 * @data: the object (see struct cmd), taken over
 */
struct cmd *cmd_alloc(enum cmd_ops op, enum cmd_obj obj,
		      const struct handle *h, const struct location *loc,
		      void *data)
{
	struct cmd *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	init_list_head(&c->list);
	c->location = loc ? *loc : internal_location;
	c->op = op;
	c->obj = obj;
	handle_copy(&c->handle, h);
	c->data = data;
	return c;
}

static void cmd_data_free(struct cmd *cmd)
{
	if (!cmd->data)
		return;
	switch (cmd->obj) {
	case CMD_OBJ_TABLE:
		table_free(cmd->table);
		break;
	case CMD_OBJ_CHAIN:
		chain_free(cmd->chain);
		break;
	case CMD_OBJ_RULE:
		rule_free(cmd->rule);
		break;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		set_free(cmd->set);
		break;
	case CMD_OBJ_ELEMENTS:
	case CMD_OBJ_EXPR:
		expr_free(cmd->expr);
		elem_pack_free(cmd->pack);
		break;
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_LIMIT:
	case CMD_OBJ_CT_HELPER:
	case CMD_OBJ_SYNPROXY:
	case CMD_OBJ_SECMARK:
		obj_free(cmd->object);
		break;
	case CMD_OBJ_FLOWTABLE:
		flowtable_free(cmd->flowtable);
		break;
	case CMD_OBJ_INVALID:
	case CMD_OBJ_RULESET:
	case CMD_OBJ_TABLES:
	case CMD_OBJ_CHAINS:
	case CMD_OBJ_SETS:
	case CMD_OBJ_MAPS:
	case CMD_OBJ_COUNTERS:
	case CMD_OBJ_QUOTAS:
	case CMD_OBJ_LIMITS:
	case CMD_OBJ_FLOWTABLES:
	case __CMD_OBJ_MAX:
		break;
	}
	cmd->data = NULL;
}

void cmd_free(struct cmd *cmd)
{
	if (!cmd)
		return;
	cmd_data_free(cmd);
	handle_free(&cmd->handle);
	free(cmd->arg);
	free(cmd);
}

void cmd_list_free(struct list_head *cmds)
{
	struct cmd *c, *next;

	list_for_each_entry_safe(c, next, cmds, list) {
		list_del(&c->list);
		cmd_free(c);
	}
}
