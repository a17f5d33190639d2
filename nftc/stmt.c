/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IR statements: allocation, copies and release. A statement owns the
 * expressions, strings and nested statements it points to.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "stmt.h"
#include "rule.h"
#include "node_cache.h"

static struct node_cache stmt_cache;

static const char *const stmt_kind_names[__STMT_MAX] = {
	[STMT_INVALID]		= "invalid",
	[STMT_EXPRESSION]	= "expression",
	[STMT_VERDICT]		= "verdict",
	[STMT_COUNTER]		= "counter",
	[STMT_LOG]		= "log",
	[STMT_LIMIT]		= "limit",
	[STMT_QUOTA]		= "quota",
	[STMT_REJECT]		= "reject",
	[STMT_NAT]		= "nat",
	[STMT_TPROXY]		= "tproxy",
	[STMT_QUEUE]		= "queue",
	[STMT_DUP]		= "dup",
	[STMT_FWD]		= "fwd",
	[STMT_META]		= "meta",
	[STMT_CT]		= "ct",
	[STMT_PAYLOAD]		= "payload",
	[STMT_EXTHDR]		= "exthdr",
	[STMT_NOTRACK]		= "notrack",
	[STMT_SET]		= "set",
	[STMT_MAP]		= "map",
	[STMT_OBJREF]		= "objref",
	[STMT_CONNLIMIT]	= "connlimit",
	[STMT_SYNPROXY]		= "synproxy",
	[STMT_FLOW_OFFLOAD]	= "flow_offload",
	[STMT_LAST]		= "last",
	[STMT_OPTSTRIP]		= "optstrip",
	[STMT_CHAIN]		= "chain",
	[STMT_XT]		= "xt",
};

_Static_assert(sizeof(stmt_kind_names) / sizeof(stmt_kind_names[0]) ==
	       __STMT_MAX, "stmt_kind_names out of sync");

const char *stmt_kind_name(enum stmt_kind kind)
{
	if ((unsigned int)kind >= __STMT_MAX)
		return "unknown";
	return stmt_kind_names[kind];
}

/**
 * stmt_alloc - a zeroed statement of @kind
 *
 * Kinds with nested statement lists (STMT_SET, STMT_MAP) get them
 * initialised; the queue number of STMT_REJECT defaults to -1 (none).
 */
struct stmt *stmt_alloc(const struct location *loc, enum stmt_kind kind)
{
	struct stmt *s = node_cache_get(&stmt_cache, sizeof(*s));

	if (!s)
		return NULL;
	/* links, location and kind are set below: only the union is cleared */
	memset(&s->expr, 0, sizeof(*s) - offsetof(struct stmt, expr));
	init_list_head(&s->list);
	s->location = loc ? *loc : internal_location;
	s->kind = kind;
	switch (kind) {
	case STMT_SET:
	case STMT_MAP:
		init_list_head(&s->set.stmts);
		break;
	case STMT_REJECT:
		s->reject.icmp_code = -1;
		break;
	case STMT_CT:
		s->ct.direction = -1;
		break;
	default:
		break;
	}
	return s;
}

/**
 * expr_stmt_alloc - a match statement owning @expr (a relational)
 */
struct stmt *expr_stmt_alloc(const struct location *loc, struct expr *expr)
{
	struct stmt *s = stmt_alloc(loc, STMT_EXPRESSION);

	if (!s) {
		expr_free(expr);
		return NULL;
	}
	s->expr = expr;
	return s;
}

/**
 * verdict_stmt_alloc - a verdict statement owning @expr (EXPR_VERDICT,
 * or EXPR_MAP for "vmap")
 */
struct stmt *verdict_stmt_alloc(const struct location *loc,
				struct expr *expr)
{
	struct stmt *s = stmt_alloc(loc, STMT_VERDICT);

	if (!s) {
		expr_free(expr);
		return NULL;
	}
	s->expr = expr;
	return s;
}

static void stmt_destroy(struct stmt *s)
{
	switch (s->kind) {
	case STMT_EXPRESSION:
	case STMT_VERDICT:
		expr_free(s->expr);
		break;
	case STMT_LOG:
		free(s->log.prefix);
		break;
	case STMT_REJECT:
		expr_free(s->reject.expr);
		break;
	case STMT_NAT:
		expr_free(s->nat.addr);
		expr_free(s->nat.proto);
		break;
	case STMT_TPROXY:
		expr_free(s->tproxy.addr);
		expr_free(s->tproxy.port);
		break;
	case STMT_QUEUE:
		expr_free(s->queue.queue);
		break;
	case STMT_DUP:
		expr_free(s->dup.to);
		expr_free(s->dup.dev);
		break;
	case STMT_FWD:
		expr_free(s->fwd.dev);
		expr_free(s->fwd.addr);
		break;
	case STMT_META:
		expr_free(s->meta.expr);
		break;
	case STMT_CT:
		expr_free(s->ct.expr);
		break;
	case STMT_PAYLOAD:
	case STMT_EXTHDR:
		expr_free(s->payload.lhs);
		expr_free(s->payload.val);
		break;
	case STMT_SET:
	case STMT_MAP:
		expr_free(s->set.set);
		expr_free(s->set.key);
		expr_free(s->set.data);
		stmt_list_free(&s->set.stmts);
		break;
	case STMT_OBJREF:
		expr_free(s->objref.expr);
		break;
	case STMT_FLOW_OFFLOAD:
		free(s->flow.table_name);
		break;
	case STMT_OPTSTRIP:
		expr_free(s->optstrip.expr);
		break;
	case STMT_CHAIN:
		chain_free(s->chain.chain);
		expr_free(s->chain.verdict);
		break;
	case STMT_XT:
		free(s->xt.name);
		free(s->xt.info);
		break;
	case STMT_INVALID:
	case STMT_COUNTER:
	case STMT_LIMIT:
	case STMT_QUOTA:
	case STMT_NOTRACK:
	case STMT_CONNLIMIT:
	case STMT_SYNPROXY:
	case STMT_LAST:
	case __STMT_MAX:
		break;
	}
}

struct stmt *xt_stmt_alloc(const struct location *loc, const char *name,
			   uint32_t rev, bool target, const void *info,
			   uint32_t len)
{
	struct stmt *s = stmt_alloc(loc, STMT_XT);

	if (!s)
		return NULL;
	s->xt.name = strdup(name);
	s->xt.rev = rev;
	s->xt.target = target;
	s->xt.info = malloc(len ? len : 1);
	s->xt.len = len;
	if (!s->xt.name || !s->xt.info) {
		stmt_free(s);
		return NULL;
	}
	memcpy(s->xt.info, info, len);
	return s;
}

/**
 * stmt_free - free a statement that is not linked in a list (or whose
 * list the caller discards)
 */
void stmt_free(struct stmt *stmt)
{
	if (!stmt)
		return;
	stmt_destroy(stmt);
	node_cache_put(&stmt_cache, stmt, sizeof(*stmt));
}

/**
 * stmt_list_free - unlink and free every statement of @stmts
 */
void stmt_list_free(struct list_head *stmts)
{
	struct stmt *s, *next;

	list_for_each_entry_safe(s, next, stmts, list) {
		list_del(&s->list);
		stmt_free(s);
	}
}

static char *strdup_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void stmt_clone_children(struct stmt *d, const struct stmt *s)
{
	const struct stmt *i;

	switch (s->kind) {
	case STMT_EXPRESSION:
	case STMT_VERDICT:
		d->expr = expr_clone(s->expr);
		break;
	case STMT_LOG:
		d->log.prefix = strdup_null(s->log.prefix);
		break;
	case STMT_REJECT:
		d->reject.expr = expr_clone(s->reject.expr);
		break;
	case STMT_NAT:
		d->nat.addr = expr_clone(s->nat.addr);
		d->nat.proto = expr_clone(s->nat.proto);
		break;
	case STMT_TPROXY:
		d->tproxy.addr = expr_clone(s->tproxy.addr);
		d->tproxy.port = expr_clone(s->tproxy.port);
		break;
	case STMT_QUEUE:
		d->queue.queue = expr_clone(s->queue.queue);
		break;
	case STMT_DUP:
		d->dup.to = expr_clone(s->dup.to);
		d->dup.dev = expr_clone(s->dup.dev);
		break;
	case STMT_FWD:
		d->fwd.dev = expr_clone(s->fwd.dev);
		d->fwd.addr = expr_clone(s->fwd.addr);
		break;
	case STMT_META:
		d->meta.expr = expr_clone(s->meta.expr);
		break;
	case STMT_CT:
		d->ct.expr = expr_clone(s->ct.expr);
		break;
	case STMT_PAYLOAD:
	case STMT_EXTHDR:
		d->payload.lhs = expr_clone(s->payload.lhs);
		d->payload.val = expr_clone(s->payload.val);
		break;
	case STMT_SET:
	case STMT_MAP:
		d->set.set = expr_clone(s->set.set);
		d->set.key = expr_clone(s->set.key);
		d->set.data = expr_clone(s->set.data);
		init_list_head(&d->set.stmts);
		list_for_each_entry(i, &s->set.stmts, list) {
			struct stmt *c = stmt_clone(i);

			if (c)
				list_add_tail(&c->list, &d->set.stmts);
		}
		break;
	case STMT_OBJREF:
		d->objref.expr = expr_clone(s->objref.expr);
		break;
	case STMT_FLOW_OFFLOAD:
		d->flow.table_name = strdup_null(s->flow.table_name);
		break;
	case STMT_OPTSTRIP:
		d->optstrip.expr = expr_clone(s->optstrip.expr);
		break;
	case STMT_CHAIN:
		/* Anonymous chains are not shared; they are never cloned. */
		d->chain.chain = NULL;
		d->chain.verdict = expr_clone(s->chain.verdict);
		break;
	case STMT_XT:
		d->xt.name = strdup_null(s->xt.name);
		d->xt.info = malloc(s->xt.len ? s->xt.len : 1);
		if (d->xt.info)
			memcpy(d->xt.info, s->xt.info, s->xt.len);
		break;
	case STMT_INVALID:
	case STMT_COUNTER:
	case STMT_LIMIT:
	case STMT_QUOTA:
	case STMT_NOTRACK:
	case STMT_CONNLIMIT:
	case STMT_SYNPROXY:
	case STMT_LAST:
	case __STMT_MAX:
		break;
	}
}

/**
 * stmt_clone - deep copy of a statement (not linked in any list)
 */
struct stmt *stmt_clone(const struct stmt *stmt)
{
	struct stmt *s;

	if (!stmt)
		return NULL;
	s = node_cache_get(&stmt_cache, sizeof(*s));
	if (!s)
		return NULL;
	*s = *stmt;
	init_list_head(&s->list);
	stmt_clone_children(s, stmt);
	return s;
}
