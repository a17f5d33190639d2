// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Anonymous chains in a kernel dump. The kernel names a bound chain
 * (NFT_CHAIN_BINDING) itself, "__chainN", and lists it as any chain;
 * the rule bound to it jumps to that name. nft lists neither the name
 * nor the chain: the rule shows "jump { RULES }" instead (stock 1.0.6).
 * The dump keeps bound chains apart (table->bound); here a rule's jump
 * to one becomes the anonymous chain statement again.
 */
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include "listing.h"
#include "rule.h"

/**
 * nftc_bound_find - the bound chain @name of @t, or NULL
 */
struct chain *nftc_bound_find(const struct table *t, const char *name)
{
	struct chain *c;

	if (!t || !name)
		return NULL;
	list_for_each_entry(c, &t->bound, list) {
		if (c->handle.chain.name && !strcmp(c->handle.chain.name, name))
			return c;
	}
	return NULL;
}

/* The bound chain of @t verdict statement @s jumps to, or NULL. */
static struct chain *stmt_bound_target(const struct table *t,
				       const struct stmt *s)
{
	const struct expr *v = s->expr, *name;

	if (s->kind != STMT_VERDICT || !v || v->kind != EXPR_VERDICT ||
	    (v->verdict.verdict != NFT_JUMP &&
	     v->verdict.verdict != NFT_GOTO))
		return NULL;
	name = v->verdict.chain;
	if (!name || name->kind != EXPR_SYMBOL)
		return NULL;
	return nftc_bound_find(t, name->sym.identifier);
}

/**
 * nftc_bind_rule - @r's jumps to bound chains of @t as anonymous chain
 * statements (each holds a reference to its chain)
 */
void nftc_bind_rule(const struct table *t, struct rule *r)
{
	struct chain *c;
	struct expr *v;
	struct stmt *s;

	if (list_empty(&t->bound))
		return;
	list_for_each_entry(s, &r->stmts, list) {
		c = stmt_bound_target(t, s);
		if (!c)
			continue;
		v = s->expr;
		c->refcnt++;
		s->kind = STMT_CHAIN;
		s->chain.chain = c;
		s->chain.verdict = v;
	}
}

/**
 * nftc_bind_table - nftc_bind_rule() for every rule of @t, those of its
 * bound chains included
 */
void nftc_bind_table(struct table *t)
{
	struct chain *c;
	struct rule *r;

	if (list_empty(&t->bound))
		return;
	list_for_each_entry(c, &t->chains, list)
		list_for_each_entry(r, &c->rules, list)
			nftc_bind_rule(t, r);
	list_for_each_entry(c, &t->bound, list)
		list_for_each_entry(r, &c->rules, list)
			nftc_bind_rule(t, r);
}
