// SPDX-License-Identifier: GPL-2.0-or-later
/* Tables: NFT_MSG_NEWTABLE and NFT_MSG_DELTABLE. */
#include "nftvm_int.h"

const struct nftvm_nla_policy nftvm_table_policy[NFTA_TABLE_MAX + 1] = {
	[NFTA_TABLE_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_TABLE_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_TABLE_HANDLE]	= { .type = NFTVM_NLA_U64 },
	[NFTA_TABLE_USERDATA]	= { .type = NFTVM_NLA_BINARY,
				    .len = NFT_USERDATA_MAXLEN },
};

/* the families nf_tables knows, as a bitmap of NFPROTO_* */
#define NFTVM_FAMILIES	(1u << NFPROTO_INET | 1u << NFPROTO_IPV4 |	\
			 1u << NFPROTO_ARP | 1u << NFPROTO_NETDEV |	\
			 1u << NFPROTO_BRIDGE | 1u << NFPROTO_IPV6)

static bool nftvm_family_ok(__u8 family)
{
	return family < 32 && (NFTVM_FAMILIES & (1u << family));
}

static struct nftvm_table *nftvm_table_lookup_handle(struct nftvm *vm,
						     const struct nlattr *h,
						     __u8 family)
{
	__u64 handle = nftvm_nla_be64(h);
	struct nftvm_table *t;

	nftvm_list_for_each_entry(t, &vm->tables, list)
		if (t->family == family && t->handle == handle)
			return t;
	return NULL;
}

static int nftvm_table_update(struct nftvm_ctx *ctx, struct nftvm_table *t,
			      const struct nlattr **tb)
{
	struct nftvm_trans *trans;
	__u32 flags;
	int err;

	if (!tb[NFTA_TABLE_FLAGS])
		return 0;
	flags = nftvm_nla_be32(tb[NFTA_TABLE_FLAGS]);
	if (flags & ~NFT_TABLE_F_MASK)
		return nftvm_fail(ctx, tb[NFTA_TABLE_FLAGS],
				  -NFTVM_EOPNOTSUPP);
	/* ownership is decided at creation */
	if ((flags ^ t->flags) & NFT_TABLE_F_OWNER)
		return nftvm_fail(ctx, tb[NFTA_TABLE_FLAGS],
				  -NFTVM_EOPNOTSUPP);
	if (flags == t->flags)
		return 0;
	err = nftvm_trans_add(ctx, NFTVM_TRANS_UPDTABLE, t, NULL, NULL);
	if (err < 0)
		return err;
	trans = nftvm_trans_last(ctx->vm);
	trans->old[0] = t->flags;
	t->flags = flags;
	ctx->vm->hooks_dirty = true;
	return 0;
}

int nftvm_newtable(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_table *t;
	__u32 flags = 0;
	int err;

	if (!nftvm_family_ok(ctx->family))
		return -NFTVM_EAFNOSUPPORT;
	if (!tb[NFTA_TABLE_NAME])
		return -NFTVM_EINVAL;

	t = nftvm_table_lookup(ctx->vm, tb[NFTA_TABLE_NAME], ctx->family);
	if (t) {
		if (ctx->nlflags & NLM_F_EXCL)
			return nftvm_fail(ctx, tb[NFTA_TABLE_NAME],
					  -NFTVM_EEXIST);
		if (ctx->nlflags & NLM_F_REPLACE)
			return -NFTVM_EOPNOTSUPP;
		return nftvm_table_update(ctx, t, tb);
	}

	if (tb[NFTA_TABLE_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_TABLE_FLAGS]);
		if (flags & ~NFT_TABLE_F_MASK)
			return nftvm_fail(ctx, tb[NFTA_TABLE_FLAGS],
					  -NFTVM_EOPNOTSUPP);
	}

	t = nftvm_alloc(sizeof(*t));
	if (!t)
		return -NFTVM_ENOMEM;
	nftvm_list_init(&t->chains);
	nftvm_list_init(&t->sets);
	nftvm_list_init(&t->objs);
	t->name = nftvm_nla_strdup(tb[NFTA_TABLE_NAME]);
	if (!t->name)
		goto err_nomem;
	if (tb[NFTA_TABLE_USERDATA]) {
		t->udlen = nftvm_nla_len(tb[NFTA_TABLE_USERDATA]);
		t->udata = nftvm_nla_memdup(tb[NFTA_TABLE_USERDATA]);
		if (!t->udata && t->udlen)
			goto err_nomem;
	}
	t->family = ctx->family;
	t->flags = flags;
	t->is_new = true;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_NEWTABLE, t, NULL, NULL);
	if (err < 0)
		goto err_free;
	t->handle = ++ctx->vm->table_handle;
	nftvm_list_add_tail(&t->list, &ctx->vm->tables);
	return 0;

err_nomem:
	err = -NFTVM_ENOMEM;
err_free:
	nftvm_table_free(t);
	return err;
}

static int nftvm_table_del(struct nftvm_ctx *ctx, struct nftvm_table *t)
{
	struct nftvm_list *prev = t->list.prev;
	int err;

	err = nftvm_trans_add(ctx, NFTVM_TRANS_DELTABLE, t, NULL, prev);
	if (err < 0)
		return err;
	nftvm_list_del(&t->list);
	ctx->vm->hooks_dirty = true;
	return 0;
}

/* DELTABLE without a table, or for every family: "flush ruleset" */
static int nftvm_table_flush(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_table *t, *tmp;
	int err;

	nftvm_list_for_each_entry_safe(t, tmp, &ctx->vm->tables, list) {
		if (ctx->family != NFPROTO_UNSPEC && t->family != ctx->family)
			continue;
		if (tb[NFTA_TABLE_NAME] &&
		    !nftvm_nla_streq(tb[NFTA_TABLE_NAME], t->name))
			continue;
		err = nftvm_table_del(ctx, t);
		if (err < 0)
			return err;
	}
	return 0;
}

int nftvm_deltable(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	const struct nlattr *attr;
	struct nftvm_table *t;

	if (ctx->family == NFPROTO_UNSPEC ||
	    (!tb[NFTA_TABLE_NAME] && !tb[NFTA_TABLE_HANDLE]))
		return nftvm_table_flush(ctx, tb);

	if (tb[NFTA_TABLE_HANDLE]) {
		attr = tb[NFTA_TABLE_HANDLE];
		t = nftvm_table_lookup_handle(ctx->vm, attr, ctx->family);
	} else {
		attr = tb[NFTA_TABLE_NAME];
		t = nftvm_table_lookup(ctx->vm, attr, ctx->family);
	}
	if (!t)
		return nftvm_missing(ctx, attr);
	return nftvm_table_del(ctx, t);
}
