// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listings: interface indexes printed as interface names.
 */
#include <config.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include "listing.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"

static void ifname_rule(struct rule *r);

/*
 * Interface indexes list as names ("iif \"lo\""). The compiler core does
 * no I/O, so the CLI turns them into quoted symbols here, in place.
 */
static void ifname_expr(struct expr *e)
{
	char name[IF_NAMESIZE];
	struct expr *i;

	if (!e)
		return;
	switch (e->kind) {
	case EXPR_VALUE:
		if (e->dtype != &ifindex_type || e->value.len > 64 ||
		    !if_indextoname(value_get_u64(&e->value), name))
			return;
		e->kind = EXPR_SYMBOL;
		e->sym.identifier = strdup(name);
		e->sym.symtype = SYMBOL_QUOTED;
		e->sym.value = NULL;
		if (!e->sym.identifier)
			e->sym.identifier = strdup("?");
		break;
	case EXPR_PREFIX:
		ifname_expr(e->prefix.expr);
		break;
	case EXPR_RANGE:
	case EXPR_MAPPING:
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
		ifname_expr(e->pair.left);
		ifname_expr(e->pair.right);
		break;
	case EXPR_CONCAT:
	case EXPR_LIST:
	case EXPR_SET:
		list_for_each_entry(i, &e->expressions, list)
			ifname_expr(i);
		break;
	case EXPR_SET_ELEM:
		ifname_expr(e->elem.key);
		break;
	case EXPR_MAP:
		ifname_expr(e->map.key);
		ifname_expr(e->map.mappings);
		break;
	case EXPR_SET_REF:
		if (e->set_ref.set && e->set_ref.set->init &&
		    (e->set_ref.set->flags & SET_F_ANONYMOUS))
			ifname_expr(e->set_ref.set->init);
		break;
	default:
		break;
	}
}

static void ifname_stmt(struct stmt *s)
{
	struct rule *r;

	switch (s->kind) {
	case STMT_EXPRESSION:
	case STMT_VERDICT:
		ifname_expr(s->expr);
		break;
	case STMT_META:
		ifname_expr(s->meta.expr);
		break;
	case STMT_DUP:
		ifname_expr(s->dup.to);
		ifname_expr(s->dup.dev);
		break;
	case STMT_FWD:
		ifname_expr(s->fwd.dev);
		break;
	case STMT_SET:
	case STMT_MAP:
		ifname_expr(s->set.key);
		ifname_expr(s->set.data);
		break;
	case STMT_OBJREF:
		ifname_expr(s->objref.expr);
		break;
	case STMT_CHAIN:
		if (s->chain.chain)
			list_for_each_entry(r, &s->chain.chain->rules, list)
				ifname_rule(r);
		break;
	default:
		break;
	}
}

static void ifname_rule(struct rule *r)
{
	struct stmt *s;

	list_for_each_entry(s, &r->stmts, list)
		ifname_stmt(s);
}

void nftc_list_ifnames(struct rule *r, struct expr *elems)
{
	if (r)
		ifname_rule(r);
	ifname_expr(elems);
}
