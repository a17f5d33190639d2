// SPDX-License-Identifier: GPL-2.0-or-later
/* Rules: NFT_MSG_NEWRULE and NFT_MSG_DELRULE, the expression list. */
#include "nftvm_int.h"

const struct nftvm_nla_policy nftvm_rule_policy[NFTA_RULE_MAX + 1] = {
	[NFTA_RULE_TABLE]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_RULE_CHAIN]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_RULE_HANDLE]	= { .type = NFTVM_NLA_U64 },
	[NFTA_RULE_EXPRESSIONS]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_RULE_COMPAT]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_RULE_POSITION]	= { .type = NFTVM_NLA_U64 },
	[NFTA_RULE_USERDATA]	= { .type = NFTVM_NLA_BINARY,
				    .len = NFT_USERDATA_MAXLEN },
	[NFTA_RULE_ID]		= { .type = NFTVM_NLA_U32 },
	[NFTA_RULE_POSITION_ID]	= { .type = NFTVM_NLA_U32 },
	[NFTA_RULE_CHAIN_ID]	= { .type = NFTVM_NLA_U32 },
};

#define NFTVM_EXT_MAXNAMELEN	16	/* NFT_EXTENSION_MAXNAMELEN */
/* room for any expression's attributes */
#define NFTVM_EXPR_MAXATTR	16

static const struct nftvm_nla_policy nftvm_expr_policy[NFTA_EXPR_MAX + 1] = {
	[NFTA_EXPR_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_EXT_MAXNAMELEN - 1 },
	[NFTA_EXPR_DATA]	= { .type = NFTVM_NLA_NESTED },
};

/* the expression registry: one row per VM instruction family */
static const struct nftvm_expr_ops *const nftvm_expr_types[] = {
	&nftvm_immediate_ops,
	&nftvm_cmp_ops,
	&nftvm_bitwise_ops,
	&nftvm_byteorder_ops,
	&nftvm_range_ops,
	&nftvm_payload_ops,
	&nftvm_meta_ops,
	&nftvm_lookup_ops,
	&nftvm_counter_ops,
	&nftvm_ct_ops,
	&nftvm_exthdr_ops,
	&nftvm_limit_ops,
	&nftvm_quota_ops,
	&nftvm_objref_ops,
	&nftvm_log_ops,
	&nftvm_reject_ops,
	&nftvm_nat_ops,
	&nftvm_masq_ops,
	&nftvm_redir_ops,
	&nftvm_notrack_ops,
	&nftvm_hash_ops,
	&nftvm_numgen_ops,
	&nftvm_last_ops,
	&nftvm_dynset_ops,
	&nftvm_connlimit_ops,
	&nftvm_queue_ops,
	&nftvm_dup_ops,
	&nftvm_fib_ops,
	&nftvm_rt_ops,
};

const struct nftvm_expr_ops *nftvm_expr_find(const struct nlattr *name)
{
	unsigned int i;

	for (i = 0; i < NFTVM_ARRAY_SIZE(nftvm_expr_types); i++)
		if (nftvm_nla_streq(name, nftvm_expr_types[i]->name))
			return nftvm_expr_types[i];
	return NULL;
}

void nftvm_rule_free(struct nftvm_ctx *ctx, struct nftvm_rule *rule)
{
	struct nftvm_expr *e;

	nftvm_rule_for_each_expr(e, rule)
		if (e->ops->destroy)
			e->ops->destroy(ctx, e);
	nftvm_free(rule->udata);
	nftvm_free(rule);
}

void nftvm_rule_deactivate(struct nftvm_ctx *ctx, struct nftvm_rule *rule)
{
	struct nftvm_expr *e;

	nftvm_rule_for_each_expr(e, rule)
		if (e->ops->deactivate)
			e->ops->deactivate(ctx, e);
}

void nftvm_rule_activate(struct nftvm_ctx *ctx, struct nftvm_rule *rule)
{
	struct nftvm_expr *e;

	nftvm_rule_for_each_expr(e, rule)
		if (e->ops->activate)
			e->ops->activate(ctx, e);
}

/**
 * nftvm_rule_del - take a rule out of its chain, logged for undo
 * Return: 0 or -ENOMEM.
 */
int nftvm_rule_del(struct nftvm_ctx *ctx, struct nftvm_rule *rule)
{
	int err;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_DELRULE, rule, rule->chain,
			      rule->list.prev);
	if (err < 0)
		return err;
	nftvm_list_del(&rule->list);
	nftvm_rule_deactivate(ctx, rule);
	return 0;
}

static struct nftvm_rule *nftvm_rule_lookup(const struct nftvm_chain *chain,
					    __u64 handle)
{
	struct nftvm_rule *r;

	nftvm_list_for_each_entry(r, &chain->rules, list)
		if (r->handle == handle)
			return r;
	return NULL;
}

static struct nftvm_rule *nftvm_rule_lookup_id(const struct nftvm_chain *chain,
					       __u32 id)
{
	struct nftvm_rule *r;

	nftvm_list_for_each_entry(r, &chain->rules, list)
		if (r->is_new && r->id == id)
			return r;
	return NULL;
}

/**
 * nftvm_expr_init_nested - one expression (NFTA_EXPR_NAME/DATA) into @e
 * @room: bytes available at @e
 *
 * For the expressions a dynset instantiates per element: only stateful
 * ones are allowed (-EOPNOTSUPP otherwise, -ENOENT if unknown).
 */
int nftvm_expr_init_nested(struct nftvm_ctx *ctx, const struct nlattr *nest,
			   struct nftvm_expr *e, unsigned int room)
{
	const struct nlattr *tb[NFTA_EXPR_MAX + 1];
	const struct nlattr *dt[NFTVM_EXPR_MAXATTR + 1] = { NULL };
	const struct nftvm_expr_ops *ops;
	int err;

	err = nftvm_nla_parse_nested(ctx, tb, NFTA_EXPR_MAX,
				     nftvm_expr_policy, nest);
	if (err < 0)
		return err;
	if (!tb[NFTA_EXPR_NAME])
		return nftvm_fail(ctx, nest, -NFTVM_EINVAL);
	ops = nftvm_expr_find(tb[NFTA_EXPR_NAME]);
	if (!ops)
		return nftvm_fail(ctx, tb[NFTA_EXPR_NAME], -NFTVM_ENOENT);
	if (!ops->stateful || nftvm_expr_size(ops) > room)
		return nftvm_fail(ctx, tb[NFTA_EXPR_NAME], -NFTVM_EOPNOTSUPP);
	e->ops = ops;
	if (tb[NFTA_EXPR_DATA]) {
		err = nftvm_nla_parse_nested(ctx, dt, ops->maxattr,
					     ops->policy, tb[NFTA_EXPR_DATA]);
		if (err < 0)
			return err;
	}
	err = ops->init(ctx, e, dt);
	if (err < 0)
		return nftvm_fail(ctx, nest, err);
	return 0;
}

void nftvm_expr_dump_nested(struct nftvm_nlbuf *b, __u16 attr,
			    const struct nftvm_expr *e)
{
	struct nlattr *nest = nftvm_nla_nest_start(b, attr), *data;

	nftvm_nla_put_str(b, NFTA_EXPR_NAME, e->ops->name);
	data = nftvm_nla_nest_start(b, NFTA_EXPR_DATA);
	e->ops->dump(b, e);
	nftvm_nla_nest_end(b, data);
	nftvm_nla_nest_end(b, nest);
}

struct nftvm_expr_info {
	const struct nftvm_expr_ops	*ops;
	const struct nlattr		*data;
};

/* First pass: names and sizes, so the rule is allocated once. */
static int nftvm_rule_scan_exprs(struct nftvm_ctx *ctx,
				 const struct nlattr *list,
				 struct nftvm_expr_info *info,
				 unsigned int *n, unsigned int *size)
{
	const struct nlattr *tb[NFTA_EXPR_MAX + 1];
	const struct nlattr *pos;
	int rem, err;

	*n = 0;
	*size = 0;
	nftvm_nla_for_each_nested(pos, list, rem) {
		if (nftvm_nla_type(pos) != NFTA_LIST_ELEM ||
		    *n == NFTVM_RULE_MAXEXPRS)
			return nftvm_fail(ctx, pos, -NFTVM_EINVAL);
		err = nftvm_nla_parse_nested(ctx, tb, NFTA_EXPR_MAX,
					     nftvm_expr_policy, pos);
		if (err < 0)
			return err;
		if (!tb[NFTA_EXPR_NAME])
			return nftvm_fail(ctx, pos, -NFTVM_EINVAL);
		info[*n].ops = nftvm_expr_find(tb[NFTA_EXPR_NAME]);
		if (!info[*n].ops)
			return nftvm_fail(ctx, tb[NFTA_EXPR_NAME],
					  -NFTVM_ENOENT);
		info[*n].data = tb[NFTA_EXPR_DATA];
		*size += nftvm_expr_size(info[*n].ops);
		(*n)++;
	}
	return 0;
}


static int nftvm_expr_init(struct nftvm_ctx *ctx, struct nftvm_expr *e,
			   const struct nftvm_expr_info *info)
{
	const struct nlattr *tb[NFTVM_EXPR_MAXATTR + 1] = { NULL };
	const struct nftvm_expr_ops *ops = info->ops;
	int err;

	e->ops = ops;
	if (info->data) {
		err = nftvm_nla_parse_nested(ctx, tb, ops->maxattr,
					     ops->policy, info->data);
		if (err < 0)
			return err;
	}
	err = ops->init(ctx, e, tb);
	if (err < 0)
		return nftvm_fail(ctx, info->data, err);
	return 0;
}

static struct nftvm_rule *nftvm_rule_build(struct nftvm_ctx *ctx,
					   const struct nlattr **tb, int *errp)
{
	struct nftvm_expr_info info[NFTVM_RULE_MAXEXPRS];
	unsigned int n = 0, size = 0, i, done;
	struct nftvm_rule *rule;
	struct nftvm_expr *e;
	int err;

	if (tb[NFTA_RULE_EXPRESSIONS]) {
		err = nftvm_rule_scan_exprs(ctx, tb[NFTA_RULE_EXPRESSIONS],
					    info, &n, &size);
		if (err < 0)
			goto err_out;
	}
	rule = nftvm_alloc(sizeof(*rule) + size);
	if (!rule) {
		err = -NFTVM_ENOMEM;
		goto err_out;
	}
	rule->dlen = size;
	if (tb[NFTA_RULE_USERDATA]) {
		rule->udlen = nftvm_nla_len(tb[NFTA_RULE_USERDATA]);
		rule->udata = nftvm_nla_memdup(tb[NFTA_RULE_USERDATA]);
		if (rule->udlen && !rule->udata) {
			err = -NFTVM_ENOMEM;
			goto err_free;
		}
	}

	e = (struct nftvm_expr *)rule->data;
	for (done = 0; done < n; done++) {
		err = nftvm_expr_init(ctx, e, &info[done]);
		if (err < 0)
			goto err_release;
		e = (struct nftvm_expr *)((unsigned char *)e +
					  nftvm_expr_size(e->ops));
	}
	return rule;

err_release:
	/* the expressions before the failing one hold references */
	e = (struct nftvm_expr *)rule->data;
	for (i = 0; i < done; i++) {
		if (e->ops->deactivate)
			e->ops->deactivate(ctx, e);
		if (e->ops->destroy)
			e->ops->destroy(ctx, e);
		e = (struct nftvm_expr *)((unsigned char *)e +
					  nftvm_expr_size(e->ops));
	}
	rule->dlen = 0;
err_free:
	nftvm_rule_free(ctx, rule);
err_out:
	*errp = err;
	return NULL;
}

static int nftvm_rule_chain(struct nftvm_ctx *ctx, const struct nlattr **tb,
			    bool required)
{
	if (!tb[NFTA_RULE_TABLE])
		return -NFTVM_EINVAL;
	ctx->table = nftvm_table_lookup(ctx->vm, tb[NFTA_RULE_TABLE],
					ctx->family);
	if (!ctx->table)
		return nftvm_fail(ctx, tb[NFTA_RULE_TABLE], -NFTVM_ENOENT);
	if (tb[NFTA_RULE_CHAIN]) {
		ctx->chain = nftvm_chain_lookup(ctx->table,
						tb[NFTA_RULE_CHAIN]);
		if (!ctx->chain)
			return nftvm_fail(ctx, tb[NFTA_RULE_CHAIN],
					  -NFTVM_ENOENT);
	} else if (tb[NFTA_RULE_CHAIN_ID]) {
		ctx->chain = nftvm_chain_lookup_id(ctx->table,
						   tb[NFTA_RULE_CHAIN_ID]);
		if (!ctx->chain)
			return nftvm_fail(ctx, tb[NFTA_RULE_CHAIN_ID],
					  -NFTVM_ENOENT);
	} else if (required) {
		return -NFTVM_EINVAL;
	}
	return 0;
}

/* Where the new rule goes: *old is the anchor, NULL for an end. */
static int nftvm_rule_anchor(struct nftvm_ctx *ctx, const struct nlattr **tb,
			     struct nftvm_rule **old, bool *replace)
{
	*old = NULL;
	*replace = false;
	if (tb[NFTA_RULE_HANDLE]) {
		*old = nftvm_rule_lookup(ctx->chain,
					 nftvm_nla_be64(tb[NFTA_RULE_HANDLE]));
		if (!*old)
			return nftvm_fail(ctx, tb[NFTA_RULE_HANDLE],
					  -NFTVM_ENOENT);
		if (ctx->nlflags & NLM_F_EXCL)
			return nftvm_fail(ctx, tb[NFTA_RULE_HANDLE],
					  -NFTVM_EEXIST);
		if (!(ctx->nlflags & NLM_F_REPLACE))
			return -NFTVM_EOPNOTSUPP;
		*replace = true;
		return 0;
	}
	if (!(ctx->nlflags & NLM_F_CREATE) || (ctx->nlflags & NLM_F_REPLACE))
		return -NFTVM_EINVAL;
	if (tb[NFTA_RULE_POSITION]) {
		*old = nftvm_rule_lookup(ctx->chain,
				nftvm_nla_be64(tb[NFTA_RULE_POSITION]));
		if (!*old)
			return nftvm_fail(ctx, tb[NFTA_RULE_POSITION],
					  -NFTVM_ENOENT);
	} else if (tb[NFTA_RULE_POSITION_ID]) {
		*old = nftvm_rule_lookup_id(ctx->chain,
				nftvm_nla_be32(tb[NFTA_RULE_POSITION_ID]));
		if (!*old)
			return nftvm_fail(ctx, tb[NFTA_RULE_POSITION_ID],
					  -NFTVM_ENOENT);
	}
	return 0;
}

int nftvm_newrule(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_rule *rule, *old;
	bool replace;
	int err;

	err = nftvm_rule_chain(ctx, tb, true);
	if (err < 0)
		return err;
	/* a chain to bind takes its rules before the jump binds it */
	if (ctx->chain->bound)
		return -NFTVM_EOPNOTSUPP;
	err = nftvm_rule_anchor(ctx, tb, &old, &replace);
	if (err < 0)
		return err;
	if (replace && (ctx->chain->flags & NFT_CHAIN_BINDING))
		return -NFTVM_EOPNOTSUPP;

	rule = nftvm_rule_build(ctx, tb, &err);
	if (!rule)
		return err;
	rule->chain = ctx->chain;
	rule->is_new = true;
	if (tb[NFTA_RULE_ID])
		rule->id = nftvm_nla_be32(tb[NFTA_RULE_ID]);

	err = nftvm_trans_add(ctx, NFTVM_TRANS_NEWRULE, rule, ctx->chain,
			      NULL);
	if (err < 0) {
		nftvm_rule_deactivate(ctx, rule);
		nftvm_rule_free(ctx, rule);
		return err;
	}
	rule->handle = ++ctx->table->hgen;
	if (replace) {
		nftvm_list_add_after(&rule->list, &old->list);
		err = nftvm_rule_del(ctx, old);
		if (err < 0)
			return err;
	} else if (old) {
		if (ctx->nlflags & NLM_F_APPEND)
			nftvm_list_add_after(&rule->list, &old->list);
		else
			nftvm_list_add_tail(&rule->list, &old->list);
	} else if (ctx->nlflags & NLM_F_APPEND) {
		nftvm_list_add_tail(&rule->list, &ctx->chain->rules);
	} else {
		nftvm_list_add(&rule->list, &ctx->chain->rules);
	}
	/* logged already: a failure here is undone with the batch */
	return nftvm_validate_rule_jumps(ctx, rule);
}

static int nftvm_chain_flush(struct nftvm_ctx *ctx, struct nftvm_chain *c)
{
	struct nftvm_rule *r, *tmp;
	int err;

	nftvm_list_for_each_entry_safe(r, tmp, &c->rules, list) {
		err = nftvm_rule_del(ctx, r);
		if (err < 0)
			return err;
	}
	return 0;
}

int nftvm_delrule(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_chain *c;
	struct nftvm_rule *r;
	int err;

	err = nftvm_rule_chain(ctx, tb, false);
	/* DESTROY forgives a missing chain, not a missing table */
	if (err == -NFTVM_ENOENT && ctx->table && tb[NFTA_RULE_CHAIN] &&
	    ctx->destroy) {
		ctx->bad_attr = NULL;
		return 0;
	}
	if (err < 0)
		return err;
	if (!ctx->chain) {
		/* bound chains go with the rules that jump to them */
		nftvm_list_for_each_entry(c, &ctx->table->chains, list) {
			if (c->flags & NFT_CHAIN_BINDING)
				continue;
			err = nftvm_chain_flush(ctx, c);
			if (err < 0)
				return err;
		}
		return 0;
	}
	if (ctx->chain->flags & NFT_CHAIN_BINDING)
		return nftvm_fail(ctx, tb[NFTA_RULE_CHAIN], -NFTVM_EOPNOTSUPP);
	if (tb[NFTA_RULE_HANDLE]) {
		r = nftvm_rule_lookup(ctx->chain,
				      nftvm_nla_be64(tb[NFTA_RULE_HANDLE]));
		if (!r)
			return nftvm_missing(ctx, tb[NFTA_RULE_HANDLE]);
		return nftvm_rule_del(ctx, r);
	}
	if (tb[NFTA_RULE_ID]) {
		r = nftvm_rule_lookup_id(ctx->chain,
					 nftvm_nla_be32(tb[NFTA_RULE_ID]));
		if (!r)
			return nftvm_missing(ctx, tb[NFTA_RULE_ID]);
		return nftvm_rule_del(ctx, r);
	}
	return nftvm_chain_flush(ctx, ctx->chain);
}
