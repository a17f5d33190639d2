// SPDX-License-Identifier: GPL-2.0-or-later
/* Sets and maps: NFT_MSG_NEWSET, NFT_MSG_DELSET, bindings, lookups. */
#include "nftvm_int.h"

const struct nftvm_nla_policy nftvm_set_policy[NFTA_SET_MAX + 1] = {
	[NFTA_SET_TABLE]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_SET_NAME]		= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_SET_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_KEY_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_KEY_LEN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_DATA_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_DATA_LEN]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_POLICY]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_DESC]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ID]		= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_TIMEOUT]	= { .type = NFTVM_NLA_U64 },
	[NFTA_SET_GC_INTERVAL]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_USERDATA]	= { .type = NFTVM_NLA_BINARY,
				    .len = NFT_USERDATA_MAXLEN },
	[NFTA_SET_OBJ_TYPE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_HANDLE]	= { .type = NFTVM_NLA_U64 },
	[NFTA_SET_EXPR]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_EXPRESSIONS]	= { .type = NFTVM_NLA_NESTED },
};

static const struct nftvm_nla_policy
nftvm_set_desc_policy[NFTA_SET_DESC_MAX + 1] = {
	[NFTA_SET_DESC_SIZE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_DESC_CONCAT]	= { .type = NFTVM_NLA_NESTED },
};

static const struct nftvm_nla_policy
nftvm_set_field_policy[NFTA_SET_FIELD_MAX + 1] = {
	[NFTA_SET_FIELD_LEN]	= { .type = NFTVM_NLA_U32 },
};

#define NFTVM_SET_FLAGS	(NFT_SET_ANONYMOUS | NFT_SET_CONSTANT |		\
			 NFT_SET_INTERVAL | NFT_SET_MAP |		\
			 NFT_SET_TIMEOUT | NFT_SET_EVAL |		\
			 NFT_SET_OBJECT | NFT_SET_CONCAT | NFT_SET_EXPR)
#define NFTVM_SET_ANONLEN	16	/* NFT_SET_MAX_ANONLEN */
#define NFTVM_SET_ANONMAX	32768

struct nftvm_elem *nftvm_elem_alloc(const struct nftvm_set *set)
{
	unsigned int words = nftvm_set_kwords(set) * 2 +
			     NFTVM_DIV_ROUND_UP(set->dlen, 4);

	return nftvm_alloc(sizeof(struct nftvm_elem) + words * 4);
}

void nftvm_elem_free(const struct nftvm_set *set, struct nftvm_elem *e)
{
	nftvm_ext_free(e->ext);
	nftvm_free(e->udata);
	nftvm_free(e);
}

void nftvm_set_free(struct nftvm_set *set)
{
	if (set->priv)
		set->type->destroy(set);
	if (set->catchall)
		nftvm_elem_free(set, set->catchall);
	nftvm_ext_free(set->exprs);
	nftvm_free(set->udata);
	nftvm_free(set->name);
	nftvm_free(set);
}

/**
 * nftvm_set_lookup - a set of the context's table by name or batch id
 * Return: the set or NULL.
 */
struct nftvm_set *nftvm_set_lookup(struct nftvm_ctx *ctx,
				   const struct nlattr *name,
				   const struct nlattr *id)
{
	struct nftvm_set *s;
	__u32 want;

	if (name) {
		nftvm_list_for_each_entry(s, &ctx->table->sets, list)
			if (nftvm_nla_streq(name, s->name))
				return s;
		/* anonymous "__set%d" names are resolved by id below */
	}
	if (!id)
		return NULL;
	want = nftvm_nla_be32(id);
	nftvm_list_for_each_entry(s, &ctx->table->sets, list)
		if (s->is_new && s->id == want)
			return s;
	return NULL;
}

/**
 * nftvm_set_match - the element a packet key selects, catch-all included
 */
const struct nftvm_elem *nftvm_set_match(const struct nftvm_set *set,
					 const __u32 *key, __u64 now)
{
	const struct nftvm_elem *e = set->type->lookup(set, key);

	/* an expired element is gone for the packet path */
	if (e && nftvm_elem_expired(e, now))
		e = NULL;
	if (!e && set->catchall && !nftvm_elem_expired(set->catchall, now))
		e = set->catchall;
	return e;
}

static int nftvm_elem_release_fn(const struct nftvm_set *set,
				 struct nftvm_elem *e, void *arg)
{
	struct nftvm_data d = { .verdict = e->verdict };

	if (!(e->flags & NFT_SET_ELEM_INTERVAL_END))
		nftvm_data_release(&d, set->dtype);
	if (e->obj)
		e->obj->use--;
	return 0;
}

static int nftvm_set_del(struct nftvm_ctx *ctx, struct nftvm_set *set)
{
	int err;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_DELSET, set, set->table,
			      set->list.prev);
	if (err < 0)
		return err;
	nftvm_list_del(&set->list);
	/* verdict map elements let go of their chains */
	set->type->walk(set, nftvm_elem_release_fn, NULL);
	if (set->catchall)
		nftvm_elem_release_fn(set, set->catchall, NULL);
	return 0;
}

int nftvm_set_bind(struct nftvm_ctx *ctx, struct nftvm_set *set,
		   struct nftvm_set_binding *b)
{
	/* an anonymous set belongs to exactly one rule */
	if ((set->flags & NFT_SET_ANONYMOUS) && set->use)
		return -NFTVM_EBUSY;
	b->chain = ctx->chain;
	nftvm_list_add_tail(&b->list, &set->bindings);
	set->use++;
	return 0;
}

void nftvm_set_rebind(struct nftvm_ctx *ctx, struct nftvm_set *set,
		      struct nftvm_set_binding *b)
{
	nftvm_list_add_tail(&b->list, &set->bindings);
	set->use++;
}

/*
 * Unbinding in a batch deletes an anonymous set with its last rule; the
 * undo path (not in a batch) only drops the reference.
 */
void nftvm_set_unbind(struct nftvm_ctx *ctx, struct nftvm_set *set,
		      struct nftvm_set_binding *b)
{
	nftvm_list_del(&b->list);
	set->use--;
	if (ctx->in_batch && (set->flags & NFT_SET_ANONYMOUS) && !set->use)
		nftvm_set_del(ctx, set);
}

static int nftvm_set_parse_desc(struct nftvm_ctx *ctx, struct nftvm_set *set,
				const struct nlattr *attr)
{
	const struct nlattr *tb[NFTA_SET_DESC_MAX + 1];
	const struct nlattr *ft[NFTA_SET_FIELD_MAX + 1];
	const struct nlattr *pos;
	unsigned int total = 0;
	__u32 len;
	int rem, err;

	err = nftvm_nla_parse_nested(ctx, tb, NFTA_SET_DESC_MAX,
				     nftvm_set_desc_policy, attr);
	if (err < 0)
		return err;
	if (tb[NFTA_SET_DESC_SIZE])
		set->size = nftvm_nla_be32(tb[NFTA_SET_DESC_SIZE]);
	if (!tb[NFTA_SET_DESC_CONCAT])
		return 0;
	nftvm_nla_for_each_nested(pos, tb[NFTA_SET_DESC_CONCAT], rem) {
		if (nftvm_nla_type(pos) != NFTA_LIST_ELEM)
			return nftvm_fail(ctx, pos, -NFTVM_EINVAL);
		if (set->field_count >= NFTVM_SET_MAXFIELDS)
			return nftvm_fail(ctx, pos, -NFTVM_E2BIG);
		err = nftvm_nla_parse_nested(ctx, ft, NFTA_SET_FIELD_MAX,
					     nftvm_set_field_policy, pos);
		if (err < 0)
			return err;
		if (!ft[NFTA_SET_FIELD_LEN])
			return nftvm_fail(ctx, pos, -NFTVM_EINVAL);
		len = nftvm_nla_be32(ft[NFTA_SET_FIELD_LEN]);
		if (!len || len > NFTVM_DATA_MAXLEN)
			return nftvm_fail(ctx, ft[NFTA_SET_FIELD_LEN],
					  -NFTVM_EINVAL);
		set->field_len[set->field_count++] = (__u8)len;
		total += NFTVM_ALIGN(len, 4);
	}
	if (set->field_count > 1 && total != set->klen)
		return nftvm_fail(ctx, tb[NFTA_SET_DESC_CONCAT],
				  -NFTVM_EINVAL);
	return 0;
}

/* "__set%d" gets the lowest number free in the table */
static int nftvm_set_alloc_name(struct nftvm_ctx *ctx, struct nftvm_set *set,
				const struct nlattr *attr)
{
	const char *tmpl = nftvm_nla_data(attr);
	size_t len = nftvm_strnlen(tmpl, nftvm_nla_len(attr));
	char buf[NFTVM_SET_ANONLEN + 8], digits[8];
	size_t i, pct = len, nd, k;
	unsigned int n;

	for (i = 0; i < len; i++)
		if (tmpl[i] == '%') {
			if (pct != len)
				return -NFTVM_EINVAL;
			pct = i;
		}
	if (pct == len) {
		set->name = nftvm_nla_strdup(attr);
		return set->name ? 0 : -NFTVM_ENOMEM;
	}
	if (len >= NFTVM_SET_ANONLEN || pct + 1 >= len || tmpl[pct + 1] != 'd')
		return -NFTVM_EINVAL;

	for (n = 0; n < NFTVM_SET_ANONMAX; n++) {
		nd = 0;
		k = n;
		do {
			digits[nd++] = (char)('0' + k % 10);
			k /= 10;
		} while (k);
		nftvm_memcpy(buf, tmpl, pct);
		for (i = 0; i < nd; i++)
			buf[pct + i] = digits[nd - 1 - i];
		nftvm_memcpy(buf + pct + nd, tmpl + pct + 2, len - pct - 2);
		buf[len - 2 + nd] = '\0';
		if (nftvm_set_find(ctx->table, buf))
			continue;
		set->name = nftvm_alloc(len - 2 + nd + 1);
		if (!set->name)
			return -NFTVM_ENOMEM;
		nftvm_memcpy(set->name, buf, len - 2 + nd + 1);
		return 0;
	}
	return -NFTVM_ENFILE;
}

static int nftvm_set_parse_types(struct nftvm_ctx *ctx, struct nftvm_set *set,
				 const struct nlattr **tb)
{
	int err;

	set->klen = nftvm_nla_be32(tb[NFTA_SET_KEY_LEN]);
	if (!set->klen || set->klen > NFTVM_DATA_MAXLEN)
		return nftvm_fail(ctx, tb[NFTA_SET_KEY_LEN], -NFTVM_EINVAL);
	if (tb[NFTA_SET_KEY_TYPE])
		set->ktype = nftvm_nla_be32(tb[NFTA_SET_KEY_TYPE]);

	if (tb[NFTA_SET_DATA_TYPE]) {
		if (!(set->flags & NFT_SET_MAP))
			return nftvm_fail(ctx, tb[NFTA_SET_DATA_TYPE],
					  -NFTVM_EINVAL);
		set->dtype = nftvm_nla_be32(tb[NFTA_SET_DATA_TYPE]);
		if (set->dtype == NFT_DATA_VERDICT) {
			set->dlen = sizeof(struct nftvm_verdict);
		} else {
			if (!tb[NFTA_SET_DATA_LEN])
				return nftvm_fail(ctx, tb[NFTA_SET_DATA_TYPE],
						  -NFTVM_EINVAL);
			set->dlen = nftvm_nla_be32(tb[NFTA_SET_DATA_LEN]);
			if (!set->dlen || set->dlen > NFTVM_DATA_MAXLEN)
				return nftvm_fail(ctx, tb[NFTA_SET_DATA_LEN],
						  -NFTVM_EINVAL);
		}
	} else if (set->flags & NFT_SET_MAP) {
		return -NFTVM_EINVAL;
	}

	if (set->flags & NFT_SET_OBJECT) {
		if (!tb[NFTA_SET_OBJ_TYPE])
			return -NFTVM_EINVAL;
		set->objtype = nftvm_nla_be32(tb[NFTA_SET_OBJ_TYPE]);
		if (set->objtype == NFT_OBJECT_UNSPEC ||
		    set->objtype > NFT_OBJECT_MAX)
			return nftvm_fail(ctx, tb[NFTA_SET_OBJ_TYPE],
					  -NFTVM_EOPNOTSUPP);
	} else if (tb[NFTA_SET_OBJ_TYPE]) {
		return nftvm_fail(ctx, tb[NFTA_SET_OBJ_TYPE], -NFTVM_EINVAL);
	}
	if (tb[NFTA_SET_TIMEOUT]) {
		if (!(set->flags & NFT_SET_TIMEOUT))
			return nftvm_fail(ctx, tb[NFTA_SET_TIMEOUT],
					  -NFTVM_EINVAL);
		set->timeout = nftvm_nla_be64(tb[NFTA_SET_TIMEOUT]);
	}
	if (tb[NFTA_SET_GC_INTERVAL]) {
		if (!(set->flags & NFT_SET_TIMEOUT))
			return nftvm_fail(ctx, tb[NFTA_SET_GC_INTERVAL],
					  -NFTVM_EINVAL);
		set->gc_interval = nftvm_nla_be32(tb[NFTA_SET_GC_INTERVAL]);
	}
	err = nftvm_ext_parse(ctx, tb[NFTA_SET_EXPR], tb[NFTA_SET_EXPRESSIONS],
			      set, &set->exprs);
	if (err < 0)
		return err;
	if (tb[NFTA_SET_POLICY])
		set->policy = nftvm_nla_be32(tb[NFTA_SET_POLICY]);
	if (tb[NFTA_SET_DESC])
		return nftvm_set_parse_desc(ctx, set, tb[NFTA_SET_DESC]);
	return 0;
}

static int nftvm_set_parse_flags(struct nftvm_ctx *ctx,
				 const struct nlattr *attr, __u32 *flags)
{
	*flags = attr ? nftvm_nla_be32(attr) : 0;
	if (*flags & ~NFTVM_SET_FLAGS)
		return nftvm_fail(ctx, attr, -NFTVM_EOPNOTSUPP);
	if ((*flags & (NFT_SET_MAP | NFT_SET_OBJECT)) ==
	    (NFT_SET_MAP | NFT_SET_OBJECT) ||
	    (*flags & (NFT_SET_EVAL | NFT_SET_OBJECT)) ==
	    (NFT_SET_EVAL | NFT_SET_OBJECT))
		return nftvm_fail(ctx, attr, -NFTVM_EOPNOTSUPP);
	return 0;
}

int nftvm_newset(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_set *set;
	__u32 flags;
	int err;

	if (!tb[NFTA_SET_TABLE] || !tb[NFTA_SET_NAME] ||
	    !tb[NFTA_SET_KEY_LEN] || !tb[NFTA_SET_ID])
		return -NFTVM_EINVAL;
	err = nftvm_set_parse_flags(ctx, tb[NFTA_SET_FLAGS], &flags);
	if (err < 0)
		return err;
	ctx->table = nftvm_table_lookup(ctx->vm, tb[NFTA_SET_TABLE],
					ctx->family);
	if (!ctx->table)
		return nftvm_fail(ctx, tb[NFTA_SET_TABLE], -NFTVM_ENOENT);

	set = nftvm_set_lookup(ctx, tb[NFTA_SET_NAME], NULL);
	if (set) {
		if (ctx->nlflags & NLM_F_EXCL)
			return nftvm_fail(ctx, tb[NFTA_SET_NAME],
					  -NFTVM_EEXIST);
		if (ctx->nlflags & NLM_F_REPLACE)
			return -NFTVM_EOPNOTSUPP;
		return 0;
	}

	set = nftvm_alloc(sizeof(*set));
	if (!set)
		return -NFTVM_ENOMEM;
	nftvm_list_init(&set->bindings);
	set->table = ctx->table;
	set->flags = flags;
	set->id = nftvm_nla_be32(tb[NFTA_SET_ID]);
	set->is_new = true;
	err = nftvm_set_parse_types(ctx, set, tb);
	if (err < 0)
		goto err_free;
	err = nftvm_set_alloc_name(ctx, set, tb[NFTA_SET_NAME]);
	if (err < 0) {
		nftvm_fail(ctx, tb[NFTA_SET_NAME], err);
		goto err_free;
	}
	if (tb[NFTA_SET_USERDATA]) {
		set->udlen = nftvm_nla_len(tb[NFTA_SET_USERDATA]);
		set->udata = nftvm_nla_memdup(tb[NFTA_SET_USERDATA]);
		if (set->udlen && !set->udata) {
			err = -NFTVM_ENOMEM;
			goto err_free;
		}
	}
	set->type = (flags & NFT_SET_INTERVAL) ? &nftvm_set_interval_type :
						 &nftvm_set_hash_type;
	err = set->type->init(set);
	if (err < 0)
		goto err_free;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_NEWSET, set, ctx->table, NULL);
	if (err < 0)
		goto err_free;
	set->handle = ++ctx->table->hgen;
	nftvm_list_add_tail(&set->list, &ctx->table->sets);
	return 0;

err_free:
	nftvm_set_free(set);
	return err;
}

int nftvm_delset(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	const struct nlattr *attr;
	struct nftvm_set *set = NULL, *s;
	__u64 handle;

	if (!tb[NFTA_SET_TABLE])
		return -NFTVM_EINVAL;
	ctx->table = nftvm_table_lookup(ctx->vm, tb[NFTA_SET_TABLE],
					ctx->family);
	if (!ctx->table)
		return nftvm_fail(ctx, tb[NFTA_SET_TABLE], -NFTVM_ENOENT);

	if (tb[NFTA_SET_HANDLE]) {
		attr = tb[NFTA_SET_HANDLE];
		handle = nftvm_nla_be64(attr);
		nftvm_list_for_each_entry(s, &ctx->table->sets, list)
			if (s->handle == handle)
				set = s;
	} else if (tb[NFTA_SET_NAME]) {
		attr = tb[NFTA_SET_NAME];
		set = nftvm_set_lookup(ctx, attr, NULL);
	} else {
		return -NFTVM_EINVAL;
	}
	if (!set)
		return nftvm_missing(ctx, attr);
	if (set->use)
		return nftvm_fail(ctx, attr, -NFTVM_EBUSY);
	return nftvm_set_del(ctx, set);
}
