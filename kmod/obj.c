// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Named stateful objects: NFT_MSG_NEWOBJ and NFT_MSG_DELOBJ.  The object
 * families (counter, quota, limit) live beside their expressions; this
 * file only knows the registry and the object's life cycle.
 */
#include "nftvm_int.h"

const struct nftvm_nla_policy nftvm_obj_policy[NFTA_OBJ_MAX + 1] = {
	[NFTA_OBJ_TABLE]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_OBJ_NAME]		= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_OBJ_TYPE]		= { .type = NFTVM_NLA_U32 },
	[NFTA_OBJ_DATA]		= { .type = NFTVM_NLA_NESTED },
	[NFTA_OBJ_HANDLE]	= { .type = NFTVM_NLA_U64 },
	[NFTA_OBJ_USERDATA]	= { .type = NFTVM_NLA_BINARY,
				    .len = NFT_USERDATA_MAXLEN },
};

/* the object registry: one row per NFT_OBJECT_* the VM implements */
static const struct nftvm_obj_type *const nftvm_obj_types[] = {
	&nftvm_obj_counter_type,
	&nftvm_obj_quota_type,
	&nftvm_obj_limit_type,
};

#define NFTVM_OBJ_MAXATTR	16

static const struct nftvm_obj_type *nftvm_obj_type_find(__u32 type)
{
	unsigned int i;

	for (i = 0; i < NFTVM_ARRAY_SIZE(nftvm_obj_types); i++)
		if (nftvm_obj_types[i]->type == type)
			return nftvm_obj_types[i];
	return NULL;
}

struct nftvm_obj *nftvm_obj_lookup(const struct nftvm_table *table,
				   const struct nlattr *name, __u32 type)
{
	struct nftvm_obj *o;

	nftvm_list_for_each_entry(o, &table->objs, list)
		if (o->type->type == type && nftvm_nla_streq(name, o->name))
			return o;
	return NULL;
}

struct nftvm_obj *nftvm_obj_find(const struct nftvm_table *table,
				 const char *name, __u32 type)
{
	struct nftvm_obj *o;

	nftvm_list_for_each_entry(o, &table->objs, list)
		if (o->type->type == type && nftvm_streq(name, o->name))
			return o;
	return NULL;
}

void nftvm_obj_free(struct nftvm_obj *obj)
{
	if (!obj)
		return;
	nftvm_free(obj->udata);
	nftvm_free(obj->name);
	nftvm_free(obj);
}

static int nftvm_obj_table(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	if (!tb[NFTA_OBJ_TABLE])
		return -NFTVM_EINVAL;
	ctx->table = nftvm_table_lookup(ctx->vm, tb[NFTA_OBJ_TABLE],
					ctx->family);
	if (!ctx->table)
		return nftvm_fail(ctx, tb[NFTA_OBJ_TABLE], -NFTVM_ENOENT);
	return 0;
}

static struct nftvm_obj *nftvm_obj_build(struct nftvm_ctx *ctx,
					 const struct nftvm_obj_type *type,
					 const struct nlattr **tb, int *errp)
{
	const struct nlattr *dt[NFTVM_OBJ_MAXATTR + 1] = { NULL };
	struct nftvm_obj *obj;
	int err;

	err = nftvm_nla_parse_nested(ctx, dt, type->maxattr, type->policy,
				     tb[NFTA_OBJ_DATA]);
	if (err < 0)
		goto err_out;
	obj = nftvm_alloc(sizeof(*obj) + type->size);
	if (!obj) {
		err = -NFTVM_ENOMEM;
		goto err_out;
	}
	obj->type = type;
	obj->table = ctx->table;
	obj->is_new = true;
	obj->name = nftvm_nla_strdup(tb[NFTA_OBJ_NAME]);
	if (!obj->name) {
		err = -NFTVM_ENOMEM;
		goto err_free;
	}
	if (tb[NFTA_OBJ_USERDATA]) {
		obj->udlen = nftvm_nla_len(tb[NFTA_OBJ_USERDATA]);
		obj->udata = nftvm_nla_memdup(tb[NFTA_OBJ_USERDATA]);
		if (obj->udlen && !obj->udata) {
			err = -NFTVM_ENOMEM;
			goto err_free;
		}
	}
	err = type->init(ctx, obj, dt);
	if (err < 0) {
		nftvm_fail(ctx, tb[NFTA_OBJ_DATA], err);
		goto err_free;
	}
	return obj;

err_free:
	nftvm_obj_free(obj);
err_out:
	*errp = err;
	return NULL;
}

/*
 * NEWOBJ for an object that exists (nf_tables_updobj()): a type without
 * update keeps the object and does not even read the new data; one with
 * it checks the data as for a new object and applies it at commit.
 */
static int nftvm_obj_update(struct nftvm_ctx *ctx, struct nftvm_obj *obj,
			    const struct nlattr **tb)
{
	struct nftvm_obj *newobj;
	int err;

	if (!obj->type->update)
		return 0;
	newobj = nftvm_obj_build(ctx, obj->type, tb, &err);
	if (!newobj)
		return err;
	err = nftvm_trans_add(ctx, NFTVM_TRANS_UPDOBJ, obj, newobj, NULL);
	if (err < 0)
		nftvm_obj_free(newobj);
	return err;
}

int nftvm_newobj(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	const struct nftvm_obj_type *type;
	struct nftvm_obj *obj;
	__u32 objtype;
	int err;

	if (!tb[NFTA_OBJ_TYPE] || !tb[NFTA_OBJ_NAME] || !tb[NFTA_OBJ_DATA])
		return -NFTVM_EINVAL;
	err = nftvm_obj_table(ctx, tb);
	if (err < 0)
		return err;
	objtype = nftvm_nla_be32(tb[NFTA_OBJ_TYPE]);
	obj = nftvm_obj_lookup(ctx->table, tb[NFTA_OBJ_NAME], objtype);
	if (obj) {
		if (ctx->nlflags & NLM_F_EXCL)
			return nftvm_fail(ctx, tb[NFTA_OBJ_NAME],
					  -NFTVM_EEXIST);
		if (ctx->nlflags & NLM_F_REPLACE)
			return -NFTVM_EOPNOTSUPP;
		return nftvm_obj_update(ctx, obj, tb);
	}
	type = nftvm_obj_type_find(objtype);
	if (!type)
		return nftvm_fail(ctx, tb[NFTA_OBJ_TYPE], -NFTVM_ENOENT);
	obj = nftvm_obj_build(ctx, type, tb, &err);
	if (!obj)
		return err;
	err = nftvm_trans_add(ctx, NFTVM_TRANS_NEWOBJ, obj, ctx->table, NULL);
	if (err < 0) {
		nftvm_obj_free(obj);
		return err;
	}
	obj->handle = ++ctx->table->hgen;
	nftvm_list_add_tail(&obj->list, &ctx->table->objs);
	return 0;
}

int nftvm_delobj(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	const struct nlattr *attr;
	struct nftvm_obj *obj = NULL, *o;
	__u32 objtype;
	__u64 handle;
	int err;

	if (!tb[NFTA_OBJ_TYPE] || (!tb[NFTA_OBJ_NAME] && !tb[NFTA_OBJ_HANDLE]))
		return -NFTVM_EINVAL;
	err = nftvm_obj_table(ctx, tb);
	if (err < 0)
		return err;
	objtype = nftvm_nla_be32(tb[NFTA_OBJ_TYPE]);
	if (tb[NFTA_OBJ_HANDLE]) {
		attr = tb[NFTA_OBJ_HANDLE];
		handle = nftvm_nla_be64(attr);
		nftvm_list_for_each_entry(o, &ctx->table->objs, list)
			if (o->handle == handle && o->type->type == objtype)
				obj = o;
	} else {
		attr = tb[NFTA_OBJ_NAME];
		obj = nftvm_obj_lookup(ctx->table, attr, objtype);
	}
	if (!obj)
		return nftvm_missing(ctx, attr);
	if (obj->use)
		return nftvm_fail(ctx, attr, -NFTVM_EBUSY);
	err = nftvm_trans_add(ctx, NFTVM_TRANS_DELOBJ, obj, ctx->table,
			      obj->list.prev);
	if (err < 0)
		return err;
	nftvm_list_del(&obj->list);
	return 0;
}
