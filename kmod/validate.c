// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Load-time validation of the jump graph: no chain may reach itself
 * (-ELOOP) and no path from a base chain may need more than
 * NFTVM_JUMP_STACK_SIZE levels (-EMLINK).  Expressions expose their jump
 * targets through ops->validate, which calls nftvm_validate_verdict() for
 * each; every walk marks the chains it has seen with a fresh epoch so that
 * it visits each chain once (or once per deeper level).
 */
#include "nftvm_int.h"

static int nftvm_validate_chain(struct nftvm_vctx *v,
				struct nftvm_chain *chain);

/**
 * nftvm_validate_verdict - follow a jump or goto during validation
 * Return: 0 or negative errno.
 */
int nftvm_validate_verdict(struct nftvm_vctx *v,
			   const struct nftvm_verdict *vd)
{
	int err;

	if (vd->code != NFT_JUMP && vd->code != NFT_GOTO)
		return 0;
	v->jumped = true;
	v->level++;
	err = nftvm_validate_chain(v, vd->chain);
	v->level--;
	return err;
}

static int nftvm_validate_chain(struct nftvm_vctx *v,
				struct nftvm_chain *chain)
{
	const struct nftvm_rule *rule;
	const struct nftvm_expr *e;
	int err;

	if (v->mode == NFTVM_VALIDATE_LOOP) {
		if (chain == v->origin)
			return -NFTVM_ELOOP;
		if (chain->vepoch == v->epoch)
			return 0;
	} else {
		if (v->level >= NFTVM_JUMP_STACK_SIZE)
			return -NFTVM_EMLINK;
		/* seen at this depth or deeper: nothing new below */
		if (chain->vepoch == v->epoch && chain->vlevel >= v->level)
			return 0;
		chain->vlevel = (__u8)v->level;
	}
	chain->vepoch = v->epoch;

	nftvm_list_for_each_entry(rule, &chain->rules, list) {
		nftvm_rule_for_each_expr(e, rule) {
			if (!e->ops->validate)
				continue;
			err = e->ops->validate(v, e);
			if (err < 0)
				return err;
		}
	}
	return 0;
}

static void nftvm_vctx_init(struct nftvm_vctx *v, struct nftvm *vm,
			    enum nftvm_vmode mode,
			    const struct nftvm_chain *origin)
{
	v->vm = vm;
	v->mode = mode;
	v->origin = origin;
	v->level = 0;
	v->jumped = false;
	v->epoch = ++vm->vepoch;
}

/**
 * nftvm_validate_table - jump depth from every base chain of a table
 * Return: 0 or -EMLINK.
 */
int nftvm_validate_table(struct nftvm_ctx *ctx, struct nftvm_table *table)
{
	struct nftvm_chain *c;
	struct nftvm_vctx v;
	int err;

	nftvm_vctx_init(&v, ctx->vm, NFTVM_VALIDATE_DEPTH, NULL);
	nftvm_list_for_each_entry(c, &table->chains, list) {
		if (!c->base)
			continue;
		err = nftvm_validate_chain(&v, c);
		if (err < 0)
			return err;
	}
	return 0;
}

/**
 * nftvm_validate_rule_jumps - checks for a rule just added to ctx->chain
 *
 * Every jump the rule makes (directly or through a verdict map) must not
 * lead back to the rule's chain, and the table's depth must stay in
 * bounds.  Rules without jumps cost nothing.
 *
 * Return: 0 or negative errno.
 */
int nftvm_validate_rule_jumps(struct nftvm_ctx *ctx,
			      const struct nftvm_rule *rule)
{
	const struct nftvm_expr *e;
	struct nftvm_vctx v;
	int err;

	nftvm_vctx_init(&v, ctx->vm, NFTVM_VALIDATE_LOOP, rule->chain);
	nftvm_rule_for_each_expr(e, rule) {
		if (!e->ops->validate)
			continue;
		err = e->ops->validate(&v, e);
		if (err < 0)
			return err;
	}
	if (!v.jumped)
		return 0;
	return nftvm_validate_table(ctx, rule->chain->table);
}

/**
 * nftvm_validate_set_jumps - checks for a verdict map element just added
 *
 * The element's target must not lead back to any chain whose rules look
 * the map up.
 *
 * Return: 0 or negative errno.
 */
int nftvm_validate_set_jumps(struct nftvm_ctx *ctx,
			     const struct nftvm_set *set,
			     const struct nftvm_elem *e)
{
	const struct nftvm_set_binding *b;
	struct nftvm_vctx v;
	int err;

	if (e->verdict.code != NFT_JUMP && e->verdict.code != NFT_GOTO)
		return 0;
	nftvm_list_for_each_entry(b, &set->bindings, list) {
		nftvm_vctx_init(&v, ctx->vm, NFTVM_VALIDATE_LOOP, b->chain);
		err = nftvm_validate_verdict(&v, &e->verdict);
		if (err < 0)
			return err;
	}
	if (nftvm_list_empty(&set->bindings))
		return 0;
	return nftvm_validate_table(ctx, set->table);
}
