// SPDX-License-Identifier: GPL-2.0-or-later
/* Set elements: NFT_MSG_NEWSETELEM and NFT_MSG_DELSETELEM. */
#include "nftvm_int.h"

const struct nftvm_nla_policy
nftvm_set_elem_list_policy[NFTA_SET_ELEM_LIST_MAX + 1] = {
	[NFTA_SET_ELEM_LIST_TABLE]	= { .type = NFTVM_NLA_STRING,
					    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_SET_ELEM_LIST_SET]	= { .type = NFTVM_NLA_STRING,
					    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_SET_ELEM_LIST_ELEMENTS]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ELEM_LIST_SET_ID]	= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_nla_policy
nftvm_set_elem_policy[NFTA_SET_ELEM_MAX + 1] = {
	[NFTA_SET_ELEM_KEY]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ELEM_DATA]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ELEM_FLAGS]		= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_ELEM_TIMEOUT]		= { .type = NFTVM_NLA_U64 },
	[NFTA_SET_ELEM_EXPIRATION]	= { .type = NFTVM_NLA_U64 },
	[NFTA_SET_ELEM_USERDATA]	= { .type = NFTVM_NLA_BINARY,
					    .len = NFT_USERDATA_MAXLEN },
	[NFTA_SET_ELEM_EXPR]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ELEM_OBJREF]		= { .type = NFTVM_NLA_STRING,
					    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_SET_ELEM_KEY_END]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ELEM_EXPRESSIONS]	= { .type = NFTVM_NLA_NESTED },
};

static int nftvm_elem_set(struct nftvm_ctx *ctx, const struct nlattr **tb,
			  struct nftvm_set **setp)
{
	if (!tb[NFTA_SET_ELEM_LIST_TABLE])
		return -NFTVM_EINVAL;
	ctx->table = nftvm_table_lookup(ctx->vm, tb[NFTA_SET_ELEM_LIST_TABLE],
					ctx->family);
	if (!ctx->table)
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_LIST_TABLE],
				  -NFTVM_ENOENT);
	if (!tb[NFTA_SET_ELEM_LIST_SET] && !tb[NFTA_SET_ELEM_LIST_SET_ID])
		return -NFTVM_EINVAL;
	*setp = nftvm_set_lookup(ctx, tb[NFTA_SET_ELEM_LIST_SET],
				 tb[NFTA_SET_ELEM_LIST_SET_ID]);
	if (!*setp)
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_LIST_SET] ?
				  tb[NFTA_SET_ELEM_LIST_SET] :
				  tb[NFTA_SET_ELEM_LIST_SET_ID],
				  -NFTVM_ENOENT);
	/* a constant set is frozen once a rule uses it */
	if (((*setp)->flags & NFT_SET_CONSTANT) && (*setp)->use)
		return -NFTVM_EBUSY;
	return 0;
}

static int nftvm_elem_parse_key(struct nftvm_ctx *ctx,
				const struct nftvm_set *set,
			  const struct nlattr *attr, __u32 *dst)
{
	struct nftvm_data_desc desc = {
		.type = NFT_DATA_VALUE, .len = set->klen,
		.size = NFTVM_DATA_MAXLEN,
	};
	struct nftvm_data d;
	int err;

	err = nftvm_data_init(ctx, &d, &desc, attr);
	if (err < 0)
		return err;
	nftvm_memcpy(dst, d.data, nftvm_set_kwords(set) * 4);
	return 0;
}


/*
 * Timeouts travel in milliseconds; the element keeps nanoseconds and an
 * absolute expiry on the VM clock.  Without its own timeout an element
 * of a timeout set inherits the set's.
 */
static int nftvm_elem_parse_timeout(struct nftvm_ctx *ctx,
				    const struct nftvm_set *set,
				    const struct nlattr **tb,
				    struct nftvm_elem *e)
{
	__u64 timeout = 0, expiration = 0;

	if (tb[NFTA_SET_ELEM_TIMEOUT])
		timeout = nftvm_nla_be64(tb[NFTA_SET_ELEM_TIMEOUT]);
	else if ((set->flags & NFT_SET_TIMEOUT) &&
		 !(e->flags & NFT_SET_ELEM_INTERVAL_END))
		timeout = set->timeout;
	if (tb[NFTA_SET_ELEM_EXPIRATION]) {
		if (!timeout)
			return nftvm_fail(ctx, tb[NFTA_SET_ELEM_EXPIRATION],
					  -NFTVM_EOPNOTSUPP);
		expiration = nftvm_nla_be64(tb[NFTA_SET_ELEM_EXPIRATION]);
		if (expiration > timeout)
			return nftvm_fail(ctx, tb[NFTA_SET_ELEM_EXPIRATION],
					  -NFTVM_ERANGE);
	}
	if (timeout > ~0ull / NFTVM_NSEC_PER_MSEC)
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_TIMEOUT],
				  -NFTVM_ERANGE);
	e->timeout = timeout * NFTVM_NSEC_PER_MSEC;
	if (timeout)
		e->expires = ctx->vm->now + (expiration ? expiration *
			     NFTVM_NSEC_PER_MSEC : e->timeout);
	return 0;
}

/*
 * An element's own stateful expressions must be of the set's types; an
 * element without any gets copies of the set's templates.
 */
static int nftvm_elem_parse_exprs(struct nftvm_ctx *ctx,
				  const struct nftvm_set *set,
				  const struct nlattr **tb,
				  struct nftvm_elem *e)
{
	int err;

	err = nftvm_ext_parse(ctx, tb[NFTA_SET_ELEM_EXPR],
			      tb[NFTA_SET_ELEM_EXPRESSIONS], set, &e->ext);
	if (err < 0)
		return err;
	if (e->ext && set->exprs && !nftvm_ext_same_types(e->ext, set->exprs))
		return -NFTVM_EOPNOTSUPP;
	if (!e->ext && set->exprs && !(e->flags & NFT_SET_ELEM_INTERVAL_END)) {
		e->ext = nftvm_ext_clone(set->exprs);
		if (!e->ext)
			return -NFTVM_ENOMEM;
	}
	return 0;
}

/* map values and object references: what a set of this kind needs */
static int nftvm_elem_check_data(struct nftvm_ctx *ctx,
				 const struct nftvm_set *set,
				 const struct nlattr **tb,
				 const struct nlattr *nest, __u32 flags)
{
	bool end = flags & NFT_SET_ELEM_INTERVAL_END;

	if (tb[NFTA_SET_ELEM_OBJREF] && !(set->flags & NFT_SET_OBJECT))
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_OBJREF],
				  -NFTVM_EINVAL);
	if ((set->flags & NFT_SET_OBJECT) && !tb[NFTA_SET_ELEM_OBJREF] &&
	    !end)
		return nftvm_fail(ctx, nest, -NFTVM_EINVAL);
	if (set->flags & NFT_SET_MAP) {
		if (!tb[NFTA_SET_ELEM_DATA] && !end)
			return nftvm_fail(ctx, nest, -NFTVM_EINVAL);
	} else if (tb[NFTA_SET_ELEM_DATA]) {
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_DATA], -NFTVM_EINVAL);
	}
	if (tb[NFTA_SET_ELEM_DATA] && end)
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_DATA], -NFTVM_EINVAL);
	return 0;
}

/*
 * What only an added element has: timeout, stateful expressions, the
 * object of an object map (referenced here; map values come later and
 * never together with an object).
 */
static int nftvm_elem_parse_extras(struct nftvm_ctx *ctx,
				   const struct nftvm_set *set,
				   const struct nlattr **tb,
				   struct nftvm_elem *e)
{
	int err;

	err = nftvm_elem_parse_timeout(ctx, set, tb, e);
	if (err < 0)
		return err;
	err = nftvm_elem_parse_exprs(ctx, set, tb, e);
	if (err < 0)
		return err;
	if (tb[NFTA_SET_ELEM_USERDATA]) {
		e->udlen = nftvm_nla_len(tb[NFTA_SET_ELEM_USERDATA]);
		e->udata = nftvm_nla_memdup(tb[NFTA_SET_ELEM_USERDATA]);
		if (e->udlen && !e->udata)
			return -NFTVM_ENOMEM;
	}
	if (!tb[NFTA_SET_ELEM_OBJREF])
		return 0;
	e->obj = nftvm_obj_lookup(ctx->table, tb[NFTA_SET_ELEM_OBJREF],
				  set->objtype);
	if (!e->obj)
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_OBJREF],
				  -NFTVM_ENOENT);
	/* the verdict of an object map element stays empty */
	e->obj->use++;
	return 0;
}

/*
 * Parse one element into a fresh struct nftvm_elem.  The map value of a
 * verdict map holds a chain reference when it jumps.
 */
static int nftvm_elem_parse(struct nftvm_ctx *ctx, struct nftvm_set *set,
			    const struct nlattr *nest, bool with_data,
			    struct nftvm_elem **ep)
{
	const struct nlattr *tb[NFTA_SET_ELEM_MAX + 1];
	struct nftvm_data_desc desc = { 0 };
	struct nftvm_elem *e;
	struct nftvm_data d;
	__u32 flags = 0;
	int err;

	err = nftvm_nla_parse_nested(ctx, tb, NFTA_SET_ELEM_MAX,
				     nftvm_set_elem_policy, nest);
	if (err < 0)
		return err;
	if (tb[NFTA_SET_ELEM_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_SET_ELEM_FLAGS]);
		if (flags & ~(NFT_SET_ELEM_INTERVAL_END |
			      NFT_SET_ELEM_CATCHALL))
			return nftvm_fail(ctx, tb[NFTA_SET_ELEM_FLAGS],
					  -NFTVM_EOPNOTSUPP);
		if ((flags & NFT_SET_ELEM_INTERVAL_END) &&
		    !(set->flags & NFT_SET_INTERVAL))
			return nftvm_fail(ctx, tb[NFTA_SET_ELEM_FLAGS],
					  -NFTVM_EOPNOTSUPP);
	}
	if (flags & NFT_SET_ELEM_CATCHALL) {
		if (tb[NFTA_SET_ELEM_KEY] || tb[NFTA_SET_ELEM_KEY_END])
			return nftvm_fail(ctx, nest, -NFTVM_EINVAL);
	} else if (!tb[NFTA_SET_ELEM_KEY]) {
		return nftvm_fail(ctx, nest, -NFTVM_EINVAL);
	}
	if (tb[NFTA_SET_ELEM_KEY_END] && !(set->flags & NFT_SET_INTERVAL))
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_KEY_END],
				  -NFTVM_EOPNOTSUPP);
	if (tb[NFTA_SET_ELEM_TIMEOUT] && !(set->flags & NFT_SET_TIMEOUT))
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_TIMEOUT],
				  -NFTVM_EINVAL);
	if (tb[NFTA_SET_ELEM_EXPIRATION] && !(set->flags & NFT_SET_TIMEOUT))
		return nftvm_fail(ctx, tb[NFTA_SET_ELEM_EXPIRATION],
				  -NFTVM_EINVAL);
	if (with_data) {
		err = nftvm_elem_check_data(ctx, set, tb, nest, flags);
		if (err < 0)
			return err;
	}

	e = nftvm_elem_alloc(set);
	if (!e)
		return -NFTVM_ENOMEM;
	e->flags = flags;
	if (with_data) {
		err = nftvm_elem_parse_extras(ctx, set, tb, e);
		if (err < 0)
			goto err_free;
	}
	if (tb[NFTA_SET_ELEM_KEY]) {
		err = nftvm_elem_parse_key(ctx, set, tb[NFTA_SET_ELEM_KEY],
					   nftvm_elem_key(e));
		if (err < 0)
			goto err_free;
	}
	if (tb[NFTA_SET_ELEM_KEY_END]) {
		err = nftvm_elem_parse_key(ctx, set,
					   tb[NFTA_SET_ELEM_KEY_END],
					   nftvm_elem_key_end(set, e));
		if (err < 0)
			goto err_free;
		e->has_key_end = true;
	}
	if (with_data && tb[NFTA_SET_ELEM_DATA]) {
		desc.type = set->dtype == NFT_DATA_VERDICT ? NFT_DATA_VERDICT :
							     NFT_DATA_VALUE;
		desc.len = set->dtype == NFT_DATA_VERDICT ? 0 : set->dlen;
		desc.size = NFTVM_DATA_MAXLEN;
		err = nftvm_data_init(ctx, &d, &desc, tb[NFTA_SET_ELEM_DATA]);
		if (err < 0)
			goto err_free;
		/* a chain to bind belongs to one rule, never to a map */
		if (desc.type == NFT_DATA_VERDICT && d.verdict.chain &&
		    (d.verdict.chain->flags & NFT_CHAIN_BINDING)) {
			nftvm_data_release(&d, desc.type);
			err = nftvm_fail(ctx, tb[NFTA_SET_ELEM_DATA],
					 -NFTVM_EINVAL);
			goto err_free;
		}
		if (desc.type == NFT_DATA_VERDICT)
			e->verdict = d.verdict;
		else
			nftvm_memcpy(nftvm_elem_data(set, e), d.data,
				     NFTVM_ALIGN(set->dlen, 4));
	}
	*ep = e;
	return 0;

err_free:
	if (e->obj)
		e->obj->use--;
	nftvm_elem_free(set, e);
	return err;
}

static bool nftvm_elem_same_data(const struct nftvm_set *set,
				 const struct nftvm_elem *a,
				 const struct nftvm_elem *b)
{
	if (!(set->flags & NFT_SET_MAP))
		return true;
	if (set->dtype == NFT_DATA_VERDICT)
		return a->verdict.code == b->verdict.code &&
		       a->verdict.chain == b->verdict.chain;
	return !nftvm_memcmp(nftvm_elem_data(set, a), nftvm_elem_data(set, b),
			     set->dlen);
}

static void nftvm_elem_drop(struct nftvm_set *set, struct nftvm_elem *e)
{
	struct nftvm_data d = { .verdict = e->verdict };

	if (!(e->flags & NFT_SET_ELEM_INTERVAL_END))
		nftvm_data_release(&d, set->dtype);
	if (e->obj)
		e->obj->use--;
	nftvm_elem_free(set, e);
}

static int nftvm_elem_add(struct nftvm_ctx *ctx, struct nftvm_set *set,
			  const struct nlattr *nest)
{
	struct nftvm_set_ins ins = { .batch = ctx->vm->batch_seq };
	struct nftvm_elem *e, *dup = NULL;
	int err;

	err = nftvm_elem_parse(ctx, set, nest, true, &e);
	if (err < 0)
		return err;

	if (e->flags & NFT_SET_ELEM_CATCHALL) {
		dup = set->catchall;
		err = dup ? -NFTVM_EEXIST : 0;
	} else if (set->size && set->nelems >= set->size) {
		err = -NFTVM_ENFILE;
	} else {
		err = set->type->insert(set, e, &ins, &dup);
	}
	/* a repeated end at key 0, nft's marker in front of a first
	 * interval above 0, is dropped even with NLM_F_EXCL */
	if (err == -NFTVM_ECANCELED) {
		nftvm_elem_drop(set, e);
		return 0;
	}
	if (err == -NFTVM_EEXIST) {
		/* re-adding an identical element is not an error */
		if (!nftvm_elem_same_data(set, e, dup))
			err = -NFTVM_EBUSY;
		else if (!(ctx->nlflags & NLM_F_EXCL))
			err = 0;
		nftvm_elem_drop(set, e);
		return err ? nftvm_fail(ctx, nest, err) : 0;
	}
	/* an overlap with another interval is reported as -EEXIST, with or
	 * without NLM_F_EXCL (nft_add_set_elem()) */
	if (err == -NFTVM_ENOTEMPTY)
		err = -NFTVM_EEXIST;
	if (err < 0) {
		nftvm_elem_drop(set, e);
		return nftvm_fail(ctx, nest, err);
	}
	if (e->flags & NFT_SET_ELEM_CATCHALL)
		set->catchall = e;
	else
		set->nelems++;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_NEWELEM, e, set, NULL);
	if (err < 0) {
		if (e->flags & NFT_SET_ELEM_CATCHALL)
			set->catchall = NULL;
		else
			set->type->remove(set, e);
		set->nelems -= !(e->flags & NFT_SET_ELEM_CATCHALL);
		nftvm_elem_drop(set, e);
		return err;
	}
	if (set->dtype == NFT_DATA_VERDICT && e->verdict.chain) {
		err = nftvm_validate_set_jumps(ctx, set, e);
		if (err < 0)
			return nftvm_fail(ctx, nest, err);
	}
	return 0;
}

int nftvm_newsetelem(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	const struct nlattr *pos;
	struct nftvm_set *set;
	int rem, err;

	err = nftvm_elem_set(ctx, tb, &set);
	if (err < 0)
		return err;
	if (!tb[NFTA_SET_ELEM_LIST_ELEMENTS])
		return -NFTVM_EINVAL;
	nftvm_nla_for_each_nested(pos, tb[NFTA_SET_ELEM_LIST_ELEMENTS], rem) {
		err = nftvm_elem_add(ctx, set, pos);
		if (err < 0)
			return err;
	}
	return 0;
}

static int nftvm_elem_remove(struct nftvm_ctx *ctx, struct nftvm_set *set,
			     struct nftvm_elem *e)
{
	struct nftvm_data d = { .verdict = e->verdict };
	int err;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_DELELEM, e, set, NULL);
	if (err < 0)
		return err;
	if (e->flags & NFT_SET_ELEM_CATCHALL) {
		set->catchall = NULL;
	} else {
		set->type->remove(set, e);
		set->nelems--;
	}
	if (!(e->flags & NFT_SET_ELEM_INTERVAL_END))
		nftvm_data_release(&d, set->dtype);
	if (e->obj)
		e->obj->use--;
	return 0;
}

static int nftvm_elem_del(struct nftvm_ctx *ctx, struct nftvm_set *set,
			  const struct nlattr *nest)
{
	struct nftvm_elem *tmpl, *e;
	int err;

	err = nftvm_elem_parse(ctx, set, nest, false, &tmpl);
	if (err < 0)
		return err;
	if (tmpl->flags & NFT_SET_ELEM_CATCHALL)
		e = set->catchall;
	else
		e = set->type->find(set, tmpl);
	nftvm_elem_free(set, tmpl);
	if (!e)
		return nftvm_missing(ctx, nest);
	return nftvm_elem_remove(ctx, set, e);
}

struct nftvm_elem_vec {
	struct nftvm_elem	**v;
	unsigned int		n;
};

static int nftvm_elem_collect(const struct nftvm_set *set,
			      struct nftvm_elem *e, void *arg)
{
	struct nftvm_elem_vec *vec = arg;

	vec->v[vec->n++] = e;
	return 0;
}

/*
 * The elements of @set (its catch-all left out) in the backend's walk
 * order, in a new array in *@out (NULL when there are none, else
 * nftvm_free() it): how many, or -NFTVM_ENOMEM.
 */
int nftvm_set_elems(const struct nftvm_set *set, struct nftvm_elem ***out)
{
	struct nftvm_elem_vec vec = { 0 };

	if (set->nelems) {
		vec.v = nftvm_alloc(set->nelems * sizeof(*vec.v));
		if (!vec.v)
			return -NFTVM_ENOMEM;
		set->type->walk(set, nftvm_elem_collect, &vec);
	}
	*out = vec.v;
	return vec.n;
}

/* DELSETELEM without elements empties the set */
static int nftvm_set_flush(struct nftvm_ctx *ctx, struct nftvm_set *set)
{
	struct nftvm_elem **v;
	int i, n = nftvm_set_elems(set, &v);
	int err = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++)
		err = nftvm_elem_remove(ctx, set, v[i]);
	nftvm_free(v);
	if (!err && set->catchall)
		err = nftvm_elem_remove(ctx, set, set->catchall);
	return err;
}

int nftvm_delsetelem(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	const struct nlattr *pos;
	struct nftvm_set *set;
	int rem, err;

	err = nftvm_elem_set(ctx, tb, &set);
	if (err < 0)
		return err;
	if (!tb[NFTA_SET_ELEM_LIST_ELEMENTS])
		return nftvm_set_flush(ctx, set);
	nftvm_nla_for_each_nested(pos, tb[NFTA_SET_ELEM_LIST_ELEMENTS], rem) {
		err = nftvm_elem_del(ctx, set, pos);
		if (err < 0)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------ GC */

/**
 * struct nftvm_gc - expired elements of one set being collected
 * @start_gone:	the boundary before was an expired interval start: its
 *		end boundary goes with it
 */
struct nftvm_gc {
	struct nftvm_elem	**v;
	unsigned int		n;
	__u64			now;
	bool			start_gone;
};

static int nftvm_gc_collect(const struct nftvm_set *set,
			    struct nftvm_elem *e, void *arg)
{
	struct nftvm_gc *g = arg;
	bool end = e->flags & NFT_SET_ELEM_INTERVAL_END;
	bool take = end ? g->start_gone : nftvm_elem_expired(e, g->now);

	if (take)
		g->v[g->n++] = e;
	g->start_gone = take && !end && (set->flags & NFT_SET_INTERVAL) &&
			!e->has_key_end;
	return 0;
}

/**
 * nftvm_set_gc - drop the elements of @set expired at @now
 *
 * What the kernel's set garbage collector does some time after an
 * element expired: it leaves the set, its count and its dumps, and gives
 * back what it referenced (a chain of a verdict map, an object).  An
 * interval's end boundary goes with its start.  Never inside a batch:
 * the transaction log may point at elements.
 */
void nftvm_set_gc(struct nftvm_set *set, __u64 now)
{
	struct nftvm_gc g = { .now = now };
	unsigned int i;

	if (set->catchall && nftvm_elem_expired(set->catchall, now)) {
		nftvm_elem_drop(set, set->catchall);
		set->catchall = NULL;
	}
	if (!set->nelems)
		return;
	g.v = nftvm_alloc(set->nelems * sizeof(*g.v));
	if (!g.v)
		return;		/* the next pass tries again */
	set->type->walk(set, nftvm_gc_collect, &g);
	for (i = 0; i < g.n; i++) {
		set->type->remove(set, g.v[i]);
		nftvm_elem_drop(set, g.v[i]);
		set->nelems--;
	}
	nftvm_free(g.v);
}
