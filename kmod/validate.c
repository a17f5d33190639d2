// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Load-time validation of the jump graph, as the kernel does it since
 * "prefer nft_chain_validate" (6.10, and the stable kernels): no path
 * from a base chain may need more than NFTVM_JUMP_STACK_SIZE levels
 * (-EMLINK). A loop is refused only when a base chain reaches it, and
 * then as too deep (-EMLINK, never -ELOOP); loops among user chains that
 * no base chain reaches load. The kernel checks the table at commit and,
 * when that fails, replays the batch checking the table after every
 * rule and element: the first message after which the table is invalid
 * is the one reported. Only a jump (a rule's, or a verdict map
 * element's, or a rule looking up a verdict map) can make a table
 * invalid, so the table is walked after those only. Expressions expose
 * their jump targets through ops->validate, which calls
 * nftvm_validate_verdict() for each; every walk marks the chains it has
 * seen with a fresh epoch so that it visits each chain once per deeper
 * level.
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
	if (v->mode == NFTVM_VALIDATE_PROBE)
		return 0;
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

	if (v->level >= NFTVM_JUMP_STACK_SIZE)
		return -NFTVM_EMLINK;
	/* seen at this depth or deeper: nothing new below */
	if (chain->vepoch == v->epoch && chain->vlevel >= v->level)
		return 0;
	chain->vlevel = (__u8)v->level;
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
			    enum nftvm_vmode mode)
{
	v->vm = vm;
	v->mode = mode;
	v->level = 0;
	v->jumped = false;
	v->base = NULL;
	v->epoch = ++vm->vepoch;
}

/**
 * nftvm_validate_hooks - an expression that runs only at some hooks
 * @hooks: bitmap of the hook numbers allowed
 *
 * As the kernel's nft_chain_validate_hooks() at commit: every base chain
 * that reaches the expression, directly or through jumps, must be at
 * one of @hooks.  A probe asks for the table walk.
 *
 * Return: 0 or -EOPNOTSUPP.
 */
int nftvm_validate_hooks(struct nftvm_vctx *v, unsigned int hooks)
{
	if (v->mode == NFTVM_VALIDATE_PROBE) {
		v->jumped = true;
		return 0;
	}
	if (v->base && !(hooks & (1u << v->base->hooknum)))
		return -NFTVM_EOPNOTSUPP;
	return 0;
}

/**
 * nftvm_validate_table - jump depth from every base chain of a table,
 * and the hooks of the expressions each reaches
 * Return: 0, -EMLINK or -EOPNOTSUPP.
 */
int nftvm_validate_table(struct nftvm_ctx *ctx, struct nftvm_table *table)
{
	struct nftvm_chain *c;
	struct nftvm_vctx v;
	int err;

	nftvm_vctx_init(&v, ctx->vm, NFTVM_VALIDATE_DEPTH);
	nftvm_list_for_each_entry(c, &table->chains, list) {
		if (!c->base)
			continue;
		/* hook limits hold per base chain: a walk of its own */
		v.base = c;
		v.epoch = ++ctx->vm->vepoch;
		err = nftvm_validate_chain(&v, c);
		if (err < 0)
			return err;
	}
	return 0;
}

/**
 * nftvm_validate_rule_jumps - checks for a rule just added to ctx->chain
 *
 * A rule that jumps (directly or through a verdict map) may make the
 * table too deep, or make a loop reachable: the table is walked again.
 * Rules without jumps cost nothing.
 *
 * Return: 0 or negative errno.
 */
int nftvm_validate_rule_jumps(struct nftvm_ctx *ctx,
			      const struct nftvm_rule *rule)
{
	const struct nftvm_expr *e;
	struct nftvm_vctx v;

	nftvm_vctx_init(&v, ctx->vm, NFTVM_VALIDATE_PROBE);
	nftvm_rule_for_each_expr(e, rule) {
		if (e->ops->validate)
			e->ops->validate(&v, e);
	}
	if (!v.jumped)
		return 0;
	return nftvm_validate_table(ctx, rule->chain->table);
}

/**
 * nftvm_validate_set_jumps - checks for a verdict map element just added
 *
 * A jump in a map that rules look up is a new edge of the jump graph:
 * the table is walked again.
 *
 * Return: 0 or negative errno.
 */
int nftvm_validate_set_jumps(struct nftvm_ctx *ctx,
			     const struct nftvm_set *set,
			     const struct nftvm_elem *e)
{
	if (e->verdict.code != NFT_JUMP && e->verdict.code != NFT_GOTO)
		return 0;
	if (nftvm_list_empty(&set->bindings))
		return 0;
	return nftvm_validate_table(ctx, set->table);
}
