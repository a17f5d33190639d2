/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parser support for declarations: commands, tables, chains, sets, maps,
 * flowtables and objects as the grammar's actions build them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include "parser_state.h"
#include "keys.h"
#include "pipeline.h"

/*
 * Build a command and release the grammar's handle @h (allocated by the
 * spec rules; cmd_alloc copies it).
 */
struct cmd *cmd_obj(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
		    const struct location *loc, void *data)
{
	struct cmd *c = cmd_alloc(op, obj, h, loc, data);

	handle_free(h);
	free(h);
	return c;
}

/*
 * Object and flowtable commands are parsed with set_spec: move the last
 * name to where it belongs (1: obj, 2: flowtable).
 */
void cmd_move_set_name(struct handle *h, int to)
{
	struct name_ref *dst = to == 2 ? &h->flowtable : &h->obj;

	free(dst->name);
	*dst = h->set;
	h->set.name = NULL;
}

/* A command on a named set, map, flowtable or stateful object. */
struct cmd *cmd_named(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
		      const struct location *loc)
{
	switch (obj) {
	case CMD_OBJ_FLOWTABLE:
		cmd_move_set_name(h, 2);
		break;
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_LIMIT:
	case CMD_OBJ_CT_HELPER:
	case CMD_OBJ_SYNPROXY:
	case CMD_OBJ_SECMARK:
		cmd_move_set_name(h, 1);
		break;
	default:
		break;
	}
	return cmd_obj(op, obj, h, loc, NULL);
}

void handle_set_id(struct id_ref *id, uint64_t n, const struct location *loc)
{
	id->id = n;
	id->present = true;
	id->location = *loc;
}

struct cmd *cmd_new_obj(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
			const struct location *loc, struct obj *o)
{
	cmd_move_set_name(h, 1);
	if (o) {
		o->location = *loc;
		handle_merge(&o->handle, h);
	}
	return cmd_obj(op, obj, h, loc, o);
}

struct cmd *cmd_rule(struct parser_state *state, enum cmd_ops op,
		     struct handle *h, struct rule *rule,
		     const struct location *loc)
{
	handle_merge(&rule->handle, h);
	return cmd_obj(op, CMD_OBJ_RULE, h, loc, rule);
}

void chain_fixup(struct chain *c, const struct handle *h)
{
	struct rule *r;

	handle_merge(&c->handle, h);
	list_for_each_entry(r, &c->rules, list)
		handle_merge(&r->handle, &c->handle);
}

/* Give the nested objects of a table block their family and table. */
void table_fixup(struct parser_state *state, struct table *t,
		 const struct handle *h, const struct location *loc)
{
	struct chain *c;
	struct set *s;
	struct obj *o;
	struct flowtable *f;

	t->location = *loc;
	handle_merge(&t->handle, h);
	list_for_each_entry(c, &t->chains, list)
		chain_fixup(c, h);
	list_for_each_entry(s, &t->sets, list)
		handle_merge(&s->handle, h);
	list_for_each_entry(o, &t->objs, list)
		handle_merge(&o->handle, h);
	list_for_each_entry(f, &t->flowtables, list)
		handle_merge(&f->handle, h);
}

void table_set_flag(struct parser_state *state, struct table *t, char *flag,
		    const struct location *loc)
{
	if (!strcmp(flag, "dormant"))
		t->flags |= NFT_TABLE_F_DORMANT;
	else if (!strcmp(flag, "owner"))
		t->flags |= NFT_TABLE_F_OWNER;
	else
		erec_error(state->erq, loc, "unknown table option %s", flag);
	free(flag);
}

void name_ref_set(struct name_ref *n, char *name,
		  const struct location *loc)
{
	free(n->name);
	n->name = name;
	n->location = *loc;
}

void table_add_chain(struct table *t, char *name,
		     const struct location *nloc, struct chain *c,
		     const struct location *loc)
{
	name_ref_set(&c->handle.chain, name, nloc);
	c->location = *loc;
	list_add_tail(&c->list, &t->chains);
}

void table_add_set(struct table *t, char *name, const struct location *nloc,
		   struct set *s, const struct location *loc)
{
	name_ref_set(&s->handle.set, name, nloc);
	s->location = *loc;
	list_add_tail(&s->list, &t->sets);
}

void table_add_flowtable(struct table *t, char *name,
			 const struct location *nloc, struct flowtable *f,
			 const struct location *loc)
{
	name_ref_set(&f->handle.flowtable, name, nloc);
	f->location = *loc;
	list_add_tail(&f->list, &t->flowtables);
}

/*
 * The comment of an object block; a second one is stock's error (-1,
 * @comment freed).
 */
int obj_set_comment(struct parser_state *state, struct obj *o, char *comment,
		    const struct location *loc)
{
	if (o->comment) {
		erec_error(state->erq, loc, "You can only specify this once. "
			   "This statement is duplicated.");
		free(comment);
		return -1;
	}
	o->comment = comment;
	return 0;
}

void table_add_obj(struct table *t, char *name, const struct location *nloc,
		   struct obj *o, const struct location *loc)
{
	name_ref_set(&o->handle.obj, name, nloc);
	o->location = *loc;
	list_add_tail(&o->list, &t->objs);
}

void chain_set_hook(struct chain *c, char *type, const struct location *tloc,
		    char *hook, const struct location *hloc,
		    struct expr *devices, struct expr *prio)
{
	c->is_base = true;
	name_ref_set(&c->type, type, tloc);
	name_ref_set(&c->hook_name, hook, hloc);
	if (devices) {
		expr_free(c->devices);
		c->devices = devices;
	}
	expr_free(c->priority);
	c->priority = prio;
}

/* "devices = { a, b }": the element keys, as an EXPR_LIST. */
struct expr *devices_from_set(struct expr *set)
{
	struct expr *list, *i, *next, *key;

	if (set->kind != EXPR_SET)
		return set;
	list = list_expr_alloc(&set->location, EXPR_LIST);
	list_for_each_entry_safe(i, next, &set->expressions, list) {
		list_del(&i->list);
		if (i->kind == EXPR_SET_ELEM) {
			key = i->elem.key;
			i->elem.key = NULL;
			expr_free(i);
		} else {
			key = i;
		}
		list_expr_add(list, key);
	}
	expr_free(set);
	return list;
}

/* "type a . b": a concat of typed placeholders until type_finish(). */
struct expr *type_expr(struct parser_state *state, const struct location *loc,
		       struct expr *prev, char *name,
		       const struct location *nloc)
{
	const struct datatype *dtype = datatype_lookup_byname(name);
	struct expr *e;

	if (!dtype) {
		erec_error(state->erq, nloc, "unknown datatype %s", name);
		dtype = &invalid_type;
	}
	free(name);
	e = constant_expr_alloc(nloc, dtype, dtype->byteorder, dtype->size,
				NULL);
	if (!prev)
		return e;
	return concat(prev, e, loc);
}

struct expr *type_finish(struct expr *spec)
{
	const struct datatype *types[16];
	const struct datatype *dtype;
	unsigned int n = 0;
	struct expr *i, *e;

	if (spec->kind != EXPR_CONCAT)
		return spec;
	list_for_each_entry(i, &spec->expressions, list) {
		if (n < 16)
			types[n++] = i->dtype;
	}
	dtype = concat_type_alloc(types, n);
	if (!dtype)
		return spec;
	e = constant_expr_alloc(&spec->location, dtype, BYTEORDER_INVALID,
				dtype->size, NULL);
	datatype_free(dtype);
	expr_free(spec);
	return e;
}

void set_objmap(struct set *set, struct expr *key, uint32_t type)
{
	expr_free(set->key);
	set->key = key;
	set->objtype = type;
	set->flags |= SET_F_MAP | SET_F_OBJECT;
}

void set_policy(struct parser_state *state, struct set *set, char *s,
		const struct location *loc)
{
	if (!strcmp(s, "performance"))
		set->policy = NFT_SET_POL_PERFORMANCE;
	else if (!strcmp(s, "memory"))
		set->policy = NFT_SET_POL_MEMORY;
	else
		erec_error(state->erq, loc, "unknown set policy %s", s);
	free(s);
}

uint64_t set_flag_lookup(struct parser_state *state, char *s,
			 const struct location *loc)
{
	uint64_t f = 0;

	if (!strcmp(s, "constant"))
		f = SET_F_CONSTANT;
	else if (!strcmp(s, "interval"))
		f = SET_F_INTERVAL;
	else if (!strcmp(s, "timeout"))
		f = SET_F_TIMEOUT;
	else if (!strcmp(s, "dynamic"))
		f = SET_F_EVAL;
	else
		erec_error(state->erq, loc, "syntax error, unexpected string, "
			   "expecting constant or interval or dynamic or "
			   "timeout");
	free(s);
	return f;
}

/*
 * Words stock nft 1.0.6 scans as keywords where a chain name goes, so
 * that "chain fwd" is a syntax error there (measured against it; the
 * keywords it scans as plain words in that place are fine). Sorted.
 */
static const char *const chain_name_keywords[] = {
	"accept", "add", "all", "auto-merge", "chain", "comment", "continue",
	"counter", "create", "define", "delete", "describe", "device",
	"devices", "dnat", "drop", "dup", "element", "elements", "exists",
	"expires", "flags", "flow", "flowtable", "flush", "fwd",
	"gc-interval", "get", "handle", "hook", "include", "index", "insert",
	"limit", "list", "log", "map", "masquerade", "meter", "missing",
	"notrack", "offload", "policy", "position", "priority", "queue",
	"quota", "random", "redefine", "redirect", "reject", "rename",
	"replace", "reset", "return", "rule", "ruleset", "secmark", "set",
	"size", "snat", "synproxy", "table", "timeout", "tproxy", "type",
	"typeof", "undefine", "update", "vmap",
};

static int name_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/*
 * parser_chain_name - refuse chain name @name at @loc as stock does when
 * it is one of its keywords: its syntax error, "expecting @expecting".
 * Returns 0 when the name is fine, -1 with the error queued.
 */
int parser_chain_name(struct parser_state *state, const char *name,
		      const struct location *loc, const char *expecting)
{
	if (!name || !bsearch(name, chain_name_keywords,
			      sizeof(chain_name_keywords) /
			      sizeof(chain_name_keywords[0]),
			      sizeof(chain_name_keywords[0]), name_cmp))
		return 0;
	erec_error(state->erq, loc, "syntax error, unexpected %s, expecting %s",
		   name, expecting);
	return -1;
}
