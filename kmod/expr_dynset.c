// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dynset: add, update or delete a set element from the packet path
 * ("add @s { ip saddr timeout 10s }", "update @m { ip saddr : mark }").
 * The rule matches when the element is (now) there; an update refreshes
 * the element's expiry.  Up to two stateful expressions (a "meter":
 * "add @m { ip saddr limit rate over 10/second }") are kept as templates
 * and copied into every new element, then run for each packet that
 * finds the element; a NFT_BREAK of theirs ends the rule.
 */
#include "nftvm_int.h"

#define NFTVM_DYNSET_SIZE	0xffff	/* the kernel's default bound */
struct nftvm_dynset {
	struct nftvm_elem_ext		*tmpl;	/* own expressions */
	struct nftvm_set		*set;
	struct nftvm_set_binding	binding;
	__u64				timeout;	/* ns, 0: set's */
	__u64				timeout_ms;
	__u8				op;
	__u8				sreg_key;
	__u8				sreg_data;
	bool				has_data;
	bool				invert;
};

static const struct nftvm_nla_policy
nftvm_dynset_policy[NFTA_DYNSET_MAX + 1] = {
	[NFTA_DYNSET_SET_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_DYNSET_SET_ID]	= { .type = NFTVM_NLA_U32 },
	[NFTA_DYNSET_OP]	= { .type = NFTVM_NLA_U32 },
	[NFTA_DYNSET_SREG_KEY]	= { .type = NFTVM_NLA_U32 },
	[NFTA_DYNSET_SREG_DATA]	= { .type = NFTVM_NLA_U32 },
	[NFTA_DYNSET_TIMEOUT]	= { .type = NFTVM_NLA_U64 },
	[NFTA_DYNSET_EXPR]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_DYNSET_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_DYNSET_EXPRESSIONS] = { .type = NFTVM_NLA_NESTED },
};

static int vm_dynset_set(struct nftvm_ctx *ctx, struct nftvm_dynset *priv,
			 const struct nlattr * const *tb)
{
	struct nftvm_set *set;

	set = nftvm_set_lookup(ctx, tb[NFTA_DYNSET_SET_NAME],
			       tb[NFTA_DYNSET_SET_ID]);
	if (!set)
		return nftvm_fail(ctx, tb[NFTA_DYNSET_SET_NAME],
				  -NFTVM_ENOENT);
	/* object maps, and interval sets (no packet-path update) */
	if ((set->flags & NFT_SET_OBJECT) ||
	    set->type == &nftvm_set_interval_type)
		return nftvm_fail(ctx, tb[NFTA_DYNSET_SET_NAME],
				  -NFTVM_EOPNOTSUPP);
	if (set->flags & NFT_SET_CONSTANT)
		return nftvm_fail(ctx, tb[NFTA_DYNSET_SET_NAME],
				  -NFTVM_EBUSY);
	priv->set = set;
	return 0;
}

static int vm_dynset_regs(struct nftvm_ctx *ctx, struct nftvm_dynset *priv,
			  const struct nlattr * const *tb)
{
	const struct nftvm_set *set = priv->set;
	int err;

	err = nftvm_parse_reg_load(ctx, tb[NFTA_DYNSET_SREG_KEY],
				   &priv->sreg_key, set->klen);
	if (err < 0)
		return err;
	if (tb[NFTA_DYNSET_SREG_DATA]) {
		if (!(set->flags & NFT_SET_MAP) ||
		    set->dtype == NFT_DATA_VERDICT)
			return nftvm_fail(ctx, tb[NFTA_DYNSET_SREG_DATA],
					  -NFTVM_EOPNOTSUPP);
		priv->has_data = true;
		return nftvm_parse_reg_load(ctx, tb[NFTA_DYNSET_SREG_DATA],
					    &priv->sreg_data, set->dlen);
	}
	if (set->flags & NFT_SET_MAP)
		return -NFTVM_EINVAL;
	return 0;
}

static void vm_dynset_destroy(struct nftvm_ctx *ctx, struct nftvm_expr *expr)
{
	struct nftvm_dynset *priv = nftvm_expr_priv(expr);

	nftvm_ext_free(priv->tmpl);
	priv->tmpl = NULL;
}

static int vm_dynset_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			  const struct nlattr * const *tb)
{
	struct nftvm_dynset *priv = nftvm_expr_priv(expr);
	__u32 flags, op;
	int err;

	if (!tb[NFTA_DYNSET_SET_NAME] || !tb[NFTA_DYNSET_OP] ||
	    !tb[NFTA_DYNSET_SREG_KEY])
		return -NFTVM_EINVAL;
	if (tb[NFTA_DYNSET_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_DYNSET_FLAGS]);
		if (flags & ~(NFT_DYNSET_F_INV | NFT_DYNSET_F_EXPR))
			return nftvm_fail(ctx, tb[NFTA_DYNSET_FLAGS],
					  -NFTVM_EOPNOTSUPP);
		priv->invert = flags & NFT_DYNSET_F_INV;
	}
	err = vm_dynset_set(ctx, priv, tb);
	if (err < 0)
		return err;
	op = nftvm_nla_be32(tb[NFTA_DYNSET_OP]);
	if (op > NFT_DYNSET_OP_DELETE)
		return nftvm_fail(ctx, tb[NFTA_DYNSET_OP], -NFTVM_EOPNOTSUPP);
	priv->op = (__u8)op;
	if (tb[NFTA_DYNSET_TIMEOUT]) {
		if (!(priv->set->flags & NFT_SET_TIMEOUT))
			return nftvm_fail(ctx, tb[NFTA_DYNSET_TIMEOUT],
					  -NFTVM_EOPNOTSUPP);
		priv->timeout_ms = nftvm_nla_be64(tb[NFTA_DYNSET_TIMEOUT]);
		if (priv->timeout_ms > ~0ull / NFTVM_NSEC_PER_MSEC)
			return nftvm_fail(ctx, tb[NFTA_DYNSET_TIMEOUT],
					  -NFTVM_ERANGE);
		priv->timeout = priv->timeout_ms * NFTVM_NSEC_PER_MSEC;
	}
	err = vm_dynset_regs(ctx, priv, tb);
	if (err < 0)
		return err;
	if ((tb[NFTA_DYNSET_EXPR] || tb[NFTA_DYNSET_EXPRESSIONS]) &&
	    !(priv->set->flags & NFT_SET_EVAL))
		return -NFTVM_EINVAL;
	err = nftvm_ext_parse(ctx, tb[NFTA_DYNSET_EXPR],
			      tb[NFTA_DYNSET_EXPRESSIONS], priv->set,
			      &priv->tmpl);
	if (err < 0)
		return err;
	err = nftvm_set_bind(ctx, priv->set, &priv->binding);
	if (err < 0) {
		vm_dynset_destroy(ctx, expr);
		return err;
	}
	if (!priv->set->size)
		priv->set->size = NFTVM_DYNSET_SIZE;
	return 0;
}

static __u64 vm_dynset_timeout(const struct nftvm_dynset *priv)
{
	if (priv->timeout)
		return priv->timeout;
	return priv->set->timeout * NFTVM_NSEC_PER_MSEC;
}

static struct nftvm_elem *vm_dynset_new(const struct nftvm_dynset *priv,
					const struct nftvm_regs *regs,
					__u64 now)
{
	struct nftvm_set *set = priv->set;
	const struct nftvm_elem_ext *tmpl;
	struct nftvm_elem *e, *dup;

	if (set->nelems >= set->size)
		return NULL;
	e = nftvm_elem_alloc(set);
	if (!e)
		return NULL;
	nftvm_memcpy(nftvm_elem_key(e), &regs->data[priv->sreg_key],
		     nftvm_set_kwords(set) * 4);
	if (priv->has_data)
		nftvm_reg_store_bytes(nftvm_elem_data(set, e),
				      &regs->data[priv->sreg_data],
				      set->dlen);
	e->dynamic = true;
	/* the dynset's own expressions, else the set's */
	tmpl = priv->tmpl ? priv->tmpl : set->exprs;
	if (tmpl) {
		e->ext = nftvm_ext_clone(tmpl);
		if (!e->ext) {
			nftvm_elem_free(set, e);
			return NULL;
		}
	}
	if (set->flags & NFT_SET_TIMEOUT) {
		e->timeout = vm_dynset_timeout(priv);
		e->expires = e->timeout ? now + e->timeout : 0;
	}
	if (set->type->insert(set, e, NULL, &dup) < 0) {
		nftvm_elem_free(set, e);
		return NULL;
	}
	set->nelems++;
	return e;
}

static void vm_dynset_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt)
{
	struct nftvm_dynset *priv = nftvm_expr_priv(expr);
	struct nftvm_set *set = priv->set;
	const __u32 *key = &regs->data[priv->sreg_key];
	struct nftvm_elem *e;

	e = (struct nftvm_elem *)set->type->lookup(set, key);
	if (priv->op == NFT_DYNSET_OP_DELETE) {
		if (e) {
			set->type->remove(set, e);
			set->nelems--;
			nftvm_elem_free(set, e);
		}
		return;
	}
	if (e && nftvm_elem_expired(e, pkt->now)) {
		/* an expired element is replaced by a fresh one */
		set->type->remove(set, e);
		set->nelems--;
		nftvm_elem_free(set, e);
		e = NULL;
	}
	if (!e) {
		e = vm_dynset_new(priv, regs, pkt->now);
	} else if (priv->op == NFT_DYNSET_OP_UPDATE && e->expires) {
		e->expires = pkt->now + (vm_dynset_timeout(priv) ?
					 vm_dynset_timeout(priv) : e->timeout);
	}
	if (e && e->ext && !nftvm_ext_eval(e->ext, regs, pkt))
		return;
	if ((e != NULL) == priv->invert)
		regs->verdict.code = NFT_BREAK;
}

static void vm_dynset_dump(struct nftvm_nlbuf *b,
			   const struct nftvm_expr *expr)
{
	const struct nftvm_dynset *priv = nftvm_expr_priv(expr);
	const struct nftvm_elem_ext *ext = priv->tmpl;
	__u32 flags = priv->invert ? NFT_DYNSET_F_INV : 0;
	const struct nftvm_expr *x;
	struct nlattr *list;

	nftvm_dump_reg(b, NFTA_DYNSET_SREG_KEY, priv->sreg_key);
	if (priv->has_data)
		nftvm_dump_reg(b, NFTA_DYNSET_SREG_DATA, priv->sreg_data);
	nftvm_nla_put_be32(b, NFTA_DYNSET_OP, priv->op);
	nftvm_nla_put_str(b, NFTA_DYNSET_SET_NAME, priv->set->name);
	nftvm_nla_put_be64(b, NFTA_DYNSET_TIMEOUT, priv->timeout_ms);
	if (ext && ext->n == 1) {
		nftvm_expr_dump_nested(b, NFTA_DYNSET_EXPR,
				       (const struct nftvm_expr *)ext->data);
	} else if (ext && ext->n > 1) {
		flags |= NFT_DYNSET_F_EXPR;
		list = nftvm_nla_nest_start(b, NFTA_DYNSET_EXPRESSIONS);
		nftvm_ext_for_each_expr(x, ext)
			nftvm_expr_dump_nested(b, NFTA_LIST_ELEM, x);
		nftvm_nla_nest_end(b, list);
	}
	nftvm_nla_put_be32(b, NFTA_DYNSET_FLAGS, flags);
}

static void vm_dynset_activate(struct nftvm_ctx *ctx, struct nftvm_expr *expr)
{
	struct nftvm_dynset *priv = nftvm_expr_priv(expr);

	nftvm_set_rebind(ctx, priv->set, &priv->binding);
}

static void vm_dynset_deactivate(struct nftvm_ctx *ctx,
				 struct nftvm_expr *expr)
{
	struct nftvm_dynset *priv = nftvm_expr_priv(expr);

	nftvm_set_unbind(ctx, priv->set, &priv->binding);
}

const struct nftvm_expr_ops nftvm_dynset_ops = {
	.name		= "dynset",
	.size		= sizeof(struct nftvm_dynset),
	.maxattr	= NFTA_DYNSET_MAX,
	.policy		= nftvm_dynset_policy,
	.init		= vm_dynset_init,
	.eval		= vm_dynset_eval,
	.dump		= vm_dynset_dump,
	.activate	= vm_dynset_activate,
	.deactivate	= vm_dynset_deactivate,
	.destroy	= vm_dynset_destroy,
};
