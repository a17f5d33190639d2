// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decompilation of the objects around rules: tables, chains, sets with
 * their elements (interval end elements folded back into ranges), named
 * objects and flowtables, from libnftnl objects to IR.
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/udata.h>
#include "delin_int.h"
#include "delin_pack.h"
#include "hash.h"
#include "rule.h"

static char *dup_str(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* ----------------------------------------------------------- comments */

struct udata_str {
	uint8_t		type;
	char		*str;
};

static int udata_str_cb(const struct nftnl_udata *attr, void *data)
{
	struct udata_str *u = data;
	const char *v = nftnl_udata_get(attr);
	uint8_t len = nftnl_udata_len(attr);

	if (nftnl_udata_type(attr) == u->type && len && v[len - 1] == '\0') {
		free(u->str);
		u->str = strdup(v);
	}
	return 0;
}

static char *udata_comment(const void *ud, uint32_t len, uint8_t type)
{
	struct udata_str u = { .type = type };

	if (ud && len)
		nftnl_udata_parse(ud, len, udata_str_cb, &u);
	return u.str;
}

/* -------------------------------------------------------------- table */

/**
 * nftc_delinearize_table - a table (name, family, flags, comment)
 */
struct table *nftc_delinearize_table(const struct nftnl_table *nlt)
{
	struct table *t = table_alloc();
	const void *ud;
	uint32_t len;

	if (!t)
		return NULL;
	t->handle.family = nftnl_table_get_u32(nlt, NFTNL_TABLE_FAMILY);
	t->handle.table.name = dup_str(nftnl_table_get_str(nlt,
							   NFTNL_TABLE_NAME));
	t->flags = nftnl_table_get_u32(nlt, NFTNL_TABLE_FLAGS);
	if (nftnl_table_is_set(nlt, NFTNL_TABLE_HANDLE)) {
		t->handle.handle.id = nftnl_table_get_u64(nlt,
							  NFTNL_TABLE_HANDLE);
		t->handle.handle.present = true;
	}
	if (nftnl_table_is_set(nlt, NFTNL_TABLE_USERDATA)) {
		ud = nftnl_table_get_data(nlt, NFTNL_TABLE_USERDATA, &len);
		t->comment = udata_comment(ud, len, NFTNL_UDATA_TABLE_COMMENT);
	}
	return t;
}

/* -------------------------------------------------------------- chain */

static struct expr *dev_list(const char *const *devs, const char *dev)
{
	struct expr *l = list_expr_alloc(&delin_loc, EXPR_LIST);
	unsigned int i;

	if (!l)
		return NULL;
	for (i = 0; devs && devs[i]; i++)
		list_expr_add(l, symbol_expr_alloc(&delin_loc, SYMBOL_VALUE,
						   devs[i]));
	if (dev)
		list_expr_add(l, symbol_expr_alloc(&delin_loc, SYMBOL_VALUE,
						   dev));
	return l;
}

/**
 * nftc_delinearize_chain - a chain; a base chain when it has a hook
 */
struct chain *nftc_delinearize_chain(const struct nftnl_chain *nlc)
{
	struct chain *c = chain_alloc();
	const void *ud;
	uint32_t len;

	if (!c)
		return NULL;
	c->handle.family = nftnl_chain_get_u32(nlc, NFTNL_CHAIN_FAMILY);
	c->handle.table.name = dup_str(nftnl_chain_get_str(nlc,
							   NFTNL_CHAIN_TABLE));
	c->handle.chain.name = dup_str(nftnl_chain_get_str(nlc,
							   NFTNL_CHAIN_NAME));
	if (nftnl_chain_is_set(nlc, NFTNL_CHAIN_HANDLE)) {
		c->handle.handle.id = nftnl_chain_get_u64(nlc,
							  NFTNL_CHAIN_HANDLE);
		c->handle.handle.present = true;
	}
	c->flags = nftnl_chain_get_u32(nlc, NFTNL_CHAIN_FLAGS);
	if (nftnl_chain_is_set(nlc, NFTNL_CHAIN_USERDATA)) {
		ud = nftnl_chain_get_data(nlc, NFTNL_CHAIN_USERDATA, &len);
		c->comment = udata_comment(ud, len, NFTNL_UDATA_CHAIN_COMMENT);
	}
	if (!nftnl_chain_is_set(nlc, NFTNL_CHAIN_HOOKNUM))
		return c;
	c->is_base = true;
	c->hooknum = nftnl_chain_get_u32(nlc, NFTNL_CHAIN_HOOKNUM);
	c->prio = nftnl_chain_get_s32(nlc, NFTNL_CHAIN_PRIO);
	c->type.name = dup_str(nftnl_chain_get_str(nlc, NFTNL_CHAIN_TYPE));
	c->policy = verdict_expr_alloc(&delin_loc,
			nftnl_chain_is_set(nlc, NFTNL_CHAIN_POLICY) ?
			(int)nftnl_chain_get_u32(nlc, NFTNL_CHAIN_POLICY) :
			NF_ACCEPT, NULL);
	if (nftnl_chain_is_set(nlc, NFTNL_CHAIN_DEVICES) ||
	    nftnl_chain_is_set(nlc, NFTNL_CHAIN_DEV))
		c->devices = dev_list(
			nftnl_chain_is_set(nlc, NFTNL_CHAIN_DEVICES) ?
			nftnl_chain_get_array(nlc, NFTNL_CHAIN_DEVICES) : NULL,
			nftnl_chain_is_set(nlc, NFTNL_CHAIN_DEV) &&
			!nftnl_chain_is_set(nlc, NFTNL_CHAIN_DEVICES) ?
			nftnl_chain_get_str(nlc, NFTNL_CHAIN_DEV) : NULL);
	return c;
}

/* ---------------------------------------------------------- flowtable */

struct flowtable *nftc_delinearize_flowtable(const struct nftnl_flowtable *f)
{
	struct flowtable *ft = flowtable_alloc(&delin_loc);

	if (!ft)
		return NULL;
	ft->handle.family = nftnl_flowtable_get_u32(f, NFTNL_FLOWTABLE_FAMILY);
	ft->handle.table.name = dup_str(nftnl_flowtable_get_str(f,
						NFTNL_FLOWTABLE_TABLE));
	ft->handle.flowtable.name = dup_str(nftnl_flowtable_get_str(f,
						NFTNL_FLOWTABLE_NAME));
	if (nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_HANDLE)) {
		ft->handle.handle.id = nftnl_flowtable_get_u64(f,
						NFTNL_FLOWTABLE_HANDLE);
		ft->handle.handle.present = true;
	}
	ft->hooknum = nftnl_flowtable_get_u32(f, NFTNL_FLOWTABLE_HOOKNUM);
	ft->prio = nftnl_flowtable_get_s32(f, NFTNL_FLOWTABLE_PRIO);
	ft->flags = nftnl_flowtable_get_u32(f, NFTNL_FLOWTABLE_FLAGS);
	if (nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_DEVICES))
		ft->devices = dev_list(nftnl_flowtable_get_array(f,
						NFTNL_FLOWTABLE_DEVICES), NULL);
	return ft;
}

/* ------------------------------------------------------------ objects */

/**
 * nftc_delinearize_obj - a named stateful object
 */
struct obj *nftc_delinearize_obj(struct nftnl_obj *o)
{
	struct obj *obj = obj_alloc(&delin_loc);
	const void *ud;
	const char *s;
	uint32_t len;

	if (!obj)
		return NULL;
	obj->handle.family = nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY);
	obj->handle.table.name = dup_str(nftnl_obj_get_str(o,
							   NFTNL_OBJ_TABLE));
	obj->handle.obj.name = dup_str(nftnl_obj_get_str(o, NFTNL_OBJ_NAME));
	if (nftnl_obj_is_set(o, NFTNL_OBJ_HANDLE)) {
		obj->handle.handle.id = nftnl_obj_get_u64(o, NFTNL_OBJ_HANDLE);
		obj->handle.handle.present = true;
	}
	if (nftnl_obj_is_set(o, NFTNL_OBJ_USERDATA)) {
		ud = nftnl_obj_get_data(o, NFTNL_OBJ_USERDATA, &len);
		obj->comment = udata_comment(ud, len, NFTNL_UDATA_OBJ_COMMENT);
	}
	obj->type = nftnl_obj_get_u32(o, NFTNL_OBJ_TYPE);
	switch (obj->type) {
	case NFT_OBJECT_COUNTER:
		obj->counter.packets = nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_PKTS);
		obj->counter.bytes = nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_BYTES);
		break;
	case NFT_OBJECT_QUOTA:
		obj->quota.bytes = nftnl_obj_get_u64(o, NFTNL_OBJ_QUOTA_BYTES);
		obj->quota.used = nftnl_obj_get_u64(o,
						    NFTNL_OBJ_QUOTA_CONSUMED);
		obj->quota.flags = nftnl_obj_get_u32(o, NFTNL_OBJ_QUOTA_FLAGS);
		break;
	case NFT_OBJECT_LIMIT:
		obj->limit.rate = nftnl_obj_get_u64(o, NFTNL_OBJ_LIMIT_RATE);
		obj->limit.unit = nftnl_obj_get_u64(o, NFTNL_OBJ_LIMIT_UNIT);
		obj->limit.burst = nftnl_obj_get_u32(o, NFTNL_OBJ_LIMIT_BURST);
		obj->limit.type = nftnl_obj_get_u32(o, NFTNL_OBJ_LIMIT_TYPE);
		obj->limit.flags = nftnl_obj_get_u32(o, NFTNL_OBJ_LIMIT_FLAGS);
		break;
	case NFT_OBJECT_CT_HELPER:
		s = nftnl_obj_get_str(o, NFTNL_OBJ_CT_HELPER_NAME);
		if (s)
			snprintf(obj->ct_helper.name,
				 sizeof(obj->ct_helper.name), "%s", s);
		obj->ct_helper.l3proto = nftnl_obj_get_u16(o,
						NFTNL_OBJ_CT_HELPER_L3PROTO);
		obj->ct_helper.l4proto = nftnl_obj_get_u8(o,
						NFTNL_OBJ_CT_HELPER_L4PROTO);
		break;
	case NFT_OBJECT_SYNPROXY:
		obj->synproxy.mss = nftnl_obj_get_u16(o, NFTNL_OBJ_SYNPROXY_MSS);
		obj->synproxy.wscale = nftnl_obj_get_u8(o,
						NFTNL_OBJ_SYNPROXY_WSCALE);
		obj->synproxy.flags = nftnl_obj_get_u32(o,
						NFTNL_OBJ_SYNPROXY_FLAGS);
		break;
	case NFT_OBJECT_SECMARK:
		s = nftnl_obj_get_str(o, NFTNL_OBJ_SECMARK_CTX);
		if (s)
			snprintf(obj->secmark.ctx, sizeof(obj->secmark.ctx),
				 "%s", s);
		break;
	default:
		break;
	}
	return obj;
}

/* --------------------------------------------------------------- sets */

/* Set userdata, as stock nft and our linearizer write it. */
enum {
	UD_TYPEOF_VERDICT	= 1,
	UD_TYPEOF_PAYLOAD	= 7,
	UD_TYPEOF_META		= 9,
	UD_TYPEOF_CT		= 12,
	UD_TYPEOF_CONCAT	= 13,
};

#define UD_MAX		16

struct ud_tb {
	const struct nftnl_udata	*a[UD_MAX];
};

static int ud_tb_cb(const struct nftnl_udata *attr, void *data)
{
	struct ud_tb *tb = data;
	uint8_t type = nftnl_udata_type(attr);

	if (type < UD_MAX)
		tb->a[type] = attr;
	return 0;
}

static void ud_parse(const struct nftnl_udata *attr, struct ud_tb *tb)
{
	memset(tb, 0, sizeof(*tb));
	if (attr)
		nftnl_udata_parse(nftnl_udata_get(attr), nftnl_udata_len(attr),
				  ud_tb_cb, tb);
}

static bool ud_u32(const struct nftnl_udata *a, uint32_t *v)
{
	if (!a || nftnl_udata_len(a) != sizeof(uint32_t))
		return false;
	*v = nftnl_udata_get_u32(a);
	return true;
}

static struct expr *typeof_one(uint32_t id, const struct nftnl_udata *data)
{
	const struct proto_desc *d;
	struct ud_tb tb;
	uint32_t a = 0, b = 0;

	ud_parse(data, &tb);
	switch (id) {
	case UD_TYPEOF_PAYLOAD:
		if (!ud_u32(tb.a[0], &a) || !ud_u32(tb.a[1], &b))
			return NULL;
		if (a == 0) {
			uint32_t base, off, len;

			if (!ud_u32(tb.a[2], &base) || !ud_u32(tb.a[3], &off) ||
			    !ud_u32(tb.a[4], &len))
				return NULL;
			return payload_raw_alloc(&delin_loc, base, off, len);
		}
		d = proto_desc_find(a);
		if (!d || b == 0 || b >= PROTO_HDRS_MAX ||
		    !d->templates[b].token)
			return NULL;
		return payload_expr_alloc(&delin_loc, d, b);
	case UD_TYPEOF_META:
		if (!ud_u32(tb.a[0], &a))
			return NULL;
		return meta_expr_alloc(&delin_loc, a);
	case UD_TYPEOF_CT:
		if (!ud_u32(tb.a[0], &a))
			return NULL;
		if (!ud_u32(tb.a[1], &b))
			b = (uint32_t)-1;
		return ct_expr_alloc(&delin_loc, a, (int32_t)b);
	default:
		return NULL;
	}
}

static struct expr *typeof_expr(const struct nftnl_udata *attr)
{
	struct ud_tb top, members, m;
	struct expr *cat, *e;
	uint32_t id;
	unsigned int i;

	ud_parse(attr, &top);
	if (!ud_u32(top.a[0], &id))
		return NULL;
	if (id != UD_TYPEOF_CONCAT)
		return typeof_one(id, top.a[1]);
	ud_parse(top.a[1], &members);
	cat = list_expr_alloc(&delin_loc, EXPR_CONCAT);
	if (!cat)
		return NULL;
	for (i = 0; i < UD_MAX && members.a[i]; i++) {
		ud_parse(members.a[i], &m);
		if (!ud_u32(m.a[0], &id) || !(e = typeof_one(id, m.a[1]))) {
			expr_free(cat);
			return NULL;
		}
		list_expr_add(cat, e);
		cat->len += e->len;
	}
	if (!cat->size) {
		expr_free(cat);
		return NULL;
	}
	return cat;
}

struct set_ud {
	struct ud_tb	tb;
};

static int set_ud_cb(const struct nftnl_udata *attr, void *data)
{
	return ud_tb_cb(attr, data);
}

/* A placeholder of a datatype id (concatenations decoded). */
static struct expr *type_expr(uint32_t id, unsigned int len_bytes,
			      uint32_t order, const uint8_t *field_len,
			      unsigned int nfields)
{
	const struct datatype *dt, *types[16];
	unsigned int n = 0, i, len, used = 0;
	uint32_t ids[16];
	struct expr *cat, *m;

	if (id <= TYPE_MAX) {
		dt = datatype_lookup(id);
		if (!dt)
			dt = &integer_type;
		/* sub-byte types (dscp) fill whole bytes in a set key */
		len = len_bytes ? len_bytes * 8 : dt->size;
		/* stock tags strings host-endian; their bytes are in order */
		if (datatype_is_a(dt, &string_type))
			order = BYTEORDER_BIG;
		return expr_alloc(&delin_loc, EXPR_VALUE, dt,
				  order ? order : dt->byteorder, len);
	}
	while (id && n < 16) {
		ids[n++] = id & TYPE_MASK;
		id >>= TYPE_BITS;
	}
	cat = list_expr_alloc(&delin_loc, EXPR_CONCAT);
	if (!cat)
		return NULL;
	for (i = 0; i < n; i++) {
		dt = datatype_lookup(ids[n - 1 - i]);
		if (!dt)
			dt = &integer_type;
		types[i] = dt;
		if (i < nfields && field_len[i])
			len = field_len[i] * 8;
		else if (dt->size)
			len = dt->size;
		else
			len = len_bytes * 8 > used * 8 ?
			      (len_bytes - used) * 8 : 32;
		m = expr_alloc(&delin_loc, EXPR_VALUE, dt, dt->byteorder, len);
		if (!m)
			break;
		list_expr_add(cat, m);
		cat->len += len;
		used += (len + 31) / 32 * 4;
	}
	{
		const struct datatype *ct = concat_type_alloc(types, n);

		delin_set_dtype(cat, ct);
		datatype_free(ct);	/* the expression holds its own */
	}
	return cat;
}

/* Register bytes a key of @e takes (concatenation members padded). */
unsigned int delin_key_bytes(const struct expr *e)
{
	const struct expr *i;
	unsigned int n = 0;

	if (e->kind != EXPR_CONCAT)
		return BITS_TO_BYTES(e->len);
	list_for_each_entry(i, &e->expressions, list)
		n += (BITS_TO_BYTES(i->len) + 3) / 4 * 4;
	return n;
}

static int set_stmt_cb(struct nftnl_expr *e, void *data)
{
	struct set *set = data;
	struct stmt *s = delin_stateful(e);

	if (s)
		list_add_tail(&s->list, &set->stmts);
	return 0;
}

static void set_handle(struct set *set, const struct delin_set_attrs *a)
{
	set->handle.family = a->family;
	set->handle.table.name = dup_str(a->table);
	set->handle.set.name = dup_str(a->name);
	if (a->has_handle) {
		set->handle.handle.id = a->handle;
		set->handle.handle.present = true;
	}
	/* a batch refers to a set it creates by id */
	if (a->has_id)
		set->handle.set_id = a->id;
}

/* A map's data: typeof expression, verdict or a type's placeholder. */
static struct expr *set_data_expr(struct set *set,
				  const struct delin_set_attrs *a,
				  const struct set_ud *ud, uint32_t dorder)
{
	struct expr *e = NULL;
	uint32_t v;

	if (ud->tb.a[NFTNL_UDATA_SET_DATA_TYPEOF])
		e = typeof_expr(ud->tb.a[NFTNL_UDATA_SET_DATA_TYPEOF]);
	if (e)
		set->data_typeof = true;
	else if (a->data_type == NFT_DATA_VERDICT)
		e = expr_alloc(&delin_loc, EXPR_VALUE, &verdict_type,
			       BYTEORDER_INVALID, 0);
	else
		e = type_expr(a->data_type, a->data_len, dorder, NULL, 0);
	if (e && ud_u32(ud->tb.a[NFTNL_UDATA_SET_DATA_INTERVAL], &v) && v)
		e->flags |= EXPR_F_INTERVAL;
	return e;
}

/**
 * delin_set_from - a set declaration with its types and options
 */
struct set *delin_set_from(const struct delin_set_attrs *a)
{
	struct set *set = set_alloc(&delin_loc);
	uint8_t field_len[NFT_REG32_COUNT] = { 0 };
	unsigned int nfields = 0;
	uint32_t korder = 0, dorder = 0, v;
	struct set_ud ud = { 0 };
	struct expr *e;

	if (!set)
		return NULL;
	set_handle(set, a);
	set->flags = a->flags;
	if (a->udata)
		nftnl_udata_parse(a->udata, a->udata_len, set_ud_cb, &ud.tb);
	ud_u32(ud.tb.a[NFTNL_UDATA_SET_KEYBYTEORDER], &korder);
	ud_u32(ud.tb.a[NFTNL_UDATA_SET_DATABYTEORDER], &dorder);
	if (ud_u32(ud.tb.a[NFTNL_UDATA_SET_MERGE_ELEMENTS], &v) && v)
		set->automerge = true;
	if (ud.tb.a[NFTNL_UDATA_SET_COMMENT]) {
		const struct nftnl_udata *c = ud.tb.a[NFTNL_UDATA_SET_COMMENT];
		const char *s = nftnl_udata_get(c);

		if (nftnl_udata_len(c) && s[nftnl_udata_len(c) - 1] == '\0')
			set->comment = strdup(s);
	}
	if (a->concat) {
		nfields = a->concat_len < sizeof(field_len) ?
			  a->concat_len : sizeof(field_len);
		memcpy(field_len, a->concat, nfields);
		while (nfields && !field_len[nfields - 1])
			nfields--;
	}
	e = NULL;
	/* anonymous sets are typed by the rule that looks them up */
	if (ud.tb.a[NFTNL_UDATA_SET_KEY_TYPEOF] &&
	    !(set->flags & SET_F_ANONYMOUS))
		e = typeof_expr(ud.tb.a[NFTNL_UDATA_SET_KEY_TYPEOF]);
	if (e && delin_key_bytes(e) != a->key_len) {
		expr_free(e);	/* a description we read differently */
		e = NULL;
	}
	if (e) {
		set->key_typeof = true;
	} else {
		e = type_expr(a->key_type, a->key_len, korder, field_len,
			      nfields);
	}
	set->key = e;
	if (set->flags & SET_F_OBJECT)
		set->objtype = a->obj_type;
	if ((set->flags & SET_F_MAP) && a->has_data_type)
		set->data = set_data_expr(set, a, &ud, dorder);
	set->timeout = a->timeout;
	/*
	 * Stock lists "flags timeout" only beside another flag when the set
	 * has a default timeout (the flag alone adds nothing to it).
	 */
	if (set->timeout &&
	    !(set->flags & (SET_F_CONSTANT | SET_F_INTERVAL | SET_F_EVAL)))
		set->flags &= ~SET_F_TIMEOUT;
	set->gc_int = a->gc_int;
	set->size = a->size;
	set->policy = a->policy;
	set->init = list_expr_alloc(&delin_loc, EXPR_SET);
	return set;
}

/**
 * nftc_delinearize_set - a set declaration read by libnftnl
 */
struct set *nftc_delinearize_set(const struct nftnl_set *nls)
{
	struct delin_set_attrs a = {
		.family		= nftnl_set_get_u32(nls, NFTNL_SET_FAMILY),
		.table		= nftnl_set_get_str(nls, NFTNL_SET_TABLE),
		.name		= nftnl_set_get_str(nls, NFTNL_SET_NAME),
		.has_handle	= nftnl_set_is_set(nls, NFTNL_SET_HANDLE),
		.handle		= nftnl_set_get_u64(nls, NFTNL_SET_HANDLE),
		.has_id		= nftnl_set_is_set(nls, NFTNL_SET_ID),
		.id		= nftnl_set_get_u32(nls, NFTNL_SET_ID),
		.flags		= nftnl_set_get_u32(nls, NFTNL_SET_FLAGS),
		.key_type	= nftnl_set_get_u32(nls, NFTNL_SET_KEY_TYPE),
		.key_len	= nftnl_set_get_u32(nls, NFTNL_SET_KEY_LEN),
		.obj_type	= nftnl_set_get_u32(nls, NFTNL_SET_OBJ_TYPE),
		.has_data_type	= nftnl_set_is_set(nls, NFTNL_SET_DATA_TYPE),
		.data_type	= nftnl_set_get_u32(nls, NFTNL_SET_DATA_TYPE),
		.data_len	= nftnl_set_get_u32(nls, NFTNL_SET_DATA_LEN),
		.timeout	= nftnl_set_get_u64(nls, NFTNL_SET_TIMEOUT),
		.gc_int		= nftnl_set_get_u32(nls, NFTNL_SET_GC_INTERVAL),
		.size		= nftnl_set_get_u32(nls, NFTNL_SET_DESC_SIZE),
		.policy		= nftnl_set_get_u32(nls, NFTNL_SET_POLICY),
	};
	struct set *set;

	if (nftnl_set_is_set(nls, NFTNL_SET_USERDATA))
		a.udata = nftnl_set_get_data(nls, NFTNL_SET_USERDATA,
					     &a.udata_len);
	if (nftnl_set_is_set(nls, NFTNL_SET_DESC_CONCAT))
		a.concat = nftnl_set_get_data(nls, NFTNL_SET_DESC_CONCAT,
					      &a.concat_len);
	set = delin_set_from(&a);
	if (set)
		nftnl_set_expr_foreach(nls, set_stmt_cb, set);
	return set;
}

/**
 * delin_set_lookup - a table's set by name
 */
struct set *delin_set_lookup(const struct table *table, const char *name)
{
	struct set *s;

	if (!table || !name)
		return NULL;
	list_for_each_entry(s, &table->sets, list) {
		if (s->handle.set.name && !strcmp(s->handle.set.name, name))
			return s;
	}
	return NULL;
}

/*
 * struct delin_set_index - open addressing hash of set names
 * @mask: slots - 1 (a power of two, at least twice the sets)
 */
struct delin_set_index {
	unsigned int	mask;
	struct set	*slot[];
};

struct delin_set_index *delin_set_index_build(const struct table *table)
{
	struct delin_set_index *idx;
	unsigned int n = 0, size = 16, h;
	struct set *s;

	list_for_each_entry(s, &table->sets, list)
		n++;
	while (size < 2 * n)
		size *= 2;
	idx = calloc(1, sizeof(*idx) + size * sizeof(idx->slot[0]));
	if (!idx)
		return NULL;
	idx->mask = size - 1;
	list_for_each_entry(s, &table->sets, list) {
		if (!s->handle.set.name)
			continue;
		h = hash_str(s->handle.set.name, NULL) & idx->mask;
		while (idx->slot[h])
			h = (h + 1) & idx->mask;
		idx->slot[h] = s;
	}
	return idx;
}

void delin_set_index_free(struct delin_set_index *idx)
{
	free(idx);
}

struct set *delin_set_index_lookup(const struct delin_set_index *idx,
				   const char *name)
{
	unsigned int h = hash_str(name, NULL) & idx->mask;

	for (; idx->slot[h]; h = (h + 1) & idx->mask) {
		if (!strcmp(idx->slot[h]->handle.set.name, name))
			return idx->slot[h];
	}
	return NULL;
}

/* ----------------------------------------------------------- elements */

static int elem_stmt_cb(struct nftnl_expr *e, void *data)
{
	struct expr *elem = data;
	struct stmt *s = delin_stateful(e);

	if (s)
		list_add_tail(&s->list, &elem->elem.stmts);
	return 0;
}

/* The element data: verdict, object name or a value of the data type. */
static struct expr *elem_data(const struct set *set, struct nftnl_set_elem *ne)
{
	const void *p;
	uint32_t len;

	if (nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_VERDICT))
		return delin_verdict(
			(int)nftnl_set_elem_get_u32(ne, NFTNL_SET_ELEM_VERDICT),
			nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_CHAIN) ?
			nftnl_set_elem_get_str(ne, NFTNL_SET_ELEM_CHAIN) :
			NULL);
	if (nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_OBJREF))
		return delin_string_expr(nftnl_set_elem_get_str(ne,
						NFTNL_SET_ELEM_OBJREF));
	if (!nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_DATA) || !set->data)
		return NULL;
	p = nftnl_set_elem_get(ne, NFTNL_SET_ELEM_DATA, &len);
	return delin_value(set->data, p, len);
}

/* A concatenation of per-member ranges from a key and its key end. */
static struct expr *concat_range(struct expr *lo, struct expr *hi)
{
	struct expr *i, *j, *r, *cat;

	if (lo->kind != EXPR_CONCAT || hi->kind != EXPR_CONCAT)
		return range_expr_alloc(&delin_loc, lo, hi);
	cat = list_expr_alloc(&delin_loc, EXPR_CONCAT);
	if (!cat)
		return NULL;
	delin_set_dtype(cat, lo->dtype);
	cat->len = lo->len;
	j = list_first_entry(&hi->expressions, struct expr, list);
	list_for_each_entry(i, &lo->expressions, list) {
		if (&j->list == &hi->expressions)
			break;
		if (i->kind == EXPR_VALUE && j->kind == EXPR_VALUE &&
		    !value_cmp(&i->value, &j->value))
			r = expr_clone(i);
		else
			r = range_expr_alloc(&delin_loc, expr_clone(i),
					     expr_clone(j));
		list_expr_add(cat, r);
		j = list_next_entry(j, list);
	}
	expr_free(lo);
	expr_free(hi);
	return cat;
}

static int elem_udata(struct expr *elem, struct nftnl_set_elem *ne)
{
	const void *p;
	uint32_t len;

	if (!nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_USERDATA))
		return 0;
	p = nftnl_set_elem_get(ne, NFTNL_SET_ELEM_USERDATA, &len);
	elem->elem.comment = udata_comment(p, len,
					   NFTNL_UDATA_SET_ELEM_COMMENT);
	return 0;
}

/*
 * A plain element of a plain named set lists as its key alone: keeping
 * just the key halves the memory of a million-element set.
 */
static struct expr *elem_bare(const struct set *set, struct expr *elem)
{
	struct expr *key = elem->elem.key;

	if ((set->flags & (SET_F_INTERVAL | SET_F_ANONYMOUS | SET_F_MAP |
			   SET_F_OBJECT)) || !key || elem->elem.timeout ||
	    elem->elem.expiration || elem->elem.comment ||
	    !list_empty(&elem->elem.stmts))
		return elem;
	elem->elem.key = NULL;
	expr_free(elem);
	return key;
}

/*
 * A named interval set's host-order key is in network order in the
 * kernel (stock switches it, the kernel compares bytes): read it so.
 */
static struct expr *elem_key_value(const struct set *set, const void *p,
				   uint32_t len)
{
	const struct expr *k = set->key;
	struct expr *v;

	if (!(set->flags & SET_F_INTERVAL) || (set->flags & SET_F_ANONYMOUS) ||
	    k->kind == EXPR_CONCAT || k->byteorder != BYTEORDER_HOST ||
	    (k->dtype && datatype_is_a(k->dtype, &string_type)))
		return delin_value(k, p, len);
	v = delin_value_typed(k->dtype && k->dtype != &invalid_type ?
			      k->dtype : &integer_type, BYTEORDER_BIG,
			      k->len ? k->len : len * 8, p, len);
	if (v)
		v->byteorder = BYTEORDER_HOST;
	return v;
}

static struct expr *delin_elem(struct set *set, struct nftnl_set_elem *ne)
{
	uint32_t flags = 0, len;
	struct expr *key = NULL, *elem, *data;
	const void *p;

	if (nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_FLAGS))
		flags = nftnl_set_elem_get_u32(ne, NFTNL_SET_ELEM_FLAGS);
	if (nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_KEY) && set->key) {
		p = nftnl_set_elem_get(ne, NFTNL_SET_ELEM_KEY, &len);
		key = elem_key_value(set, p, len);
		if (key && nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_KEY_END)) {
			p = nftnl_set_elem_get(ne, NFTNL_SET_ELEM_KEY_END, &len);
			key = concat_range(key, delin_value(set->key, p, len));
		}
	}
	elem = set_elem_expr_alloc(&delin_loc, key);
	if (!elem)
		return NULL;
	if (flags & NFT_SET_ELEM_INTERVAL_END)
		elem->flags |= EXPR_F_INTERVAL_END;
	if (nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_TIMEOUT))
		elem->elem.timeout = nftnl_set_elem_get_u64(ne,
						NFTNL_SET_ELEM_TIMEOUT);
	if (nftnl_set_elem_is_set(ne, NFTNL_SET_ELEM_EXPIRATION))
		elem->elem.expiration = nftnl_set_elem_get_u64(ne,
						NFTNL_SET_ELEM_EXPIRATION);
	elem_udata(elem, ne);
	nftnl_set_elem_expr_foreach(ne, elem_stmt_cb, elem);
	if (flags & NFT_SET_ELEM_INTERVAL_END)
		return elem;
	data = elem_data(set, ne);
	if (data)
		return mapping_expr_alloc(&delin_loc, elem, data);
	return elem_bare(set, elem);
}

/**
 * nftc_delinearize_set_elems - add the elements of a dump message
 */
int nftc_delinearize_set_elems(struct set *set, const struct nftnl_set *nls)
{
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *ne;
	struct expr *e;

	if (!set->init) {
		set->init = list_expr_alloc(&delin_loc, EXPR_SET);
		if (!set->init)
			return -ENOMEM;
	}
	it = nftnl_set_elems_iter_create(nls);
	if (!it)
		return -ENOMEM;
	while ((ne = nftnl_set_elems_iter_next(it))) {
		e = delin_elem(set, ne);
		if (e)
			list_expr_add(set->init, e);
	}
	nftnl_set_elems_iter_destroy(it);
	return 0;
}

/* ------------------------------------------------- sorting, intervals */

static const struct expr *elem_key(const struct expr *e)
{
	if (e->kind == EXPR_MAPPING)
		e = e->pair.left;
	if (e->kind == EXPR_SET_ELEM)
		e = e->elem.key;
	if (e && e->kind == EXPR_RANGE)
		e = e->pair.left;
	return e;
}

static bool elem_is_end(const struct expr *e)
{
	if (e->kind == EXPR_MAPPING)
		e = e->pair.left;
	return e->flags & EXPR_F_INTERVAL_END;
}

static int key_cmp(const struct expr *a, const struct expr *b)
{
	const struct expr *i, *j;
	int r;

	if (!a || !b)
		return !a ? (b ? 1 : 0) : -1;	/* catch-all last */
	if (a->kind == EXPR_RANGE)
		a = a->pair.left;
	if (b->kind == EXPR_RANGE)
		b = b->pair.left;
	if (a->kind == EXPR_VALUE && b->kind == EXPR_VALUE)
		return a->value.len == b->value.len ?
		       value_cmp(&a->value, &b->value) :
		       (int)a->value.len - (int)b->value.len;
	if (a->kind == EXPR_CONCAT && b->kind == EXPR_CONCAT) {
		j = list_first_entry(&b->expressions, struct expr, list);
		list_for_each_entry(i, &a->expressions, list) {
			if (&j->list == &b->expressions)
				return 1;
			r = key_cmp(i, j);
			if (r)
				return r;
			j = list_next_entry(j, list);
		}
		return 0;
	}
	return 0;
}

static int elem_cmp(const void *pa, const void *pb)
{
	const struct expr *a = *(const struct expr *const *)pa;
	const struct expr *b = *(const struct expr *const *)pb;
	int r = key_cmp(elem_key(a), elem_key(b));

	if (r)
		return r;
	/* an interval's end sorts before the next one's start */
	return (int)elem_is_end(b) - (int)elem_is_end(a);
}

static struct expr **elems_sorted(struct expr *set, unsigned int *n)
{
	struct expr **v, *i, *tmp;
	unsigned int k = 0;

	v = calloc(set->size + 1, sizeof(*v));
	if (!v)
		return NULL;
	list_for_each_entry_safe(i, tmp, &set->expressions, list) {
		list_del(&i->list);
		v[k++] = i;
	}
	set->size = 0;
	qsort(v, k, sizeof(*v), elem_cmp);
	*n = k;
	return v;
}

static struct expr *elem_of(struct expr *e)
{
	return e->kind == EXPR_MAPPING ? e->pair.left : e;
}

/* Close start element @s at @end (the next end element's key - 1, or
 * the largest value). */
static void close_range(struct expr *s, const struct expr *end)
{
	struct expr *el = elem_of(s), *lo = el->elem.key, *hi;

	if (!lo || lo->kind != EXPR_VALUE)
		return;
	hi = expr_clone(end ? end : lo);
	if (!hi)
		return;
	if (end) {
		value_dec(&hi->value);
	} else {
		value_init(&hi->value, lo->value.len);
		value_not(&hi->value, &hi->value);
	}
	if (!value_cmp(&lo->value, &hi->value)) {
		expr_free(hi);
		return;
	}
	el->elem.key = range_expr_alloc(&delin_loc, lo, hi);
	el->flags |= EXPR_F_INTERVAL;
}

static void set_fold(struct set *set)
{
	struct expr **v, *start = NULL;
	unsigned int n = 0, i;

	/* the kernel's order is the listing's order, except for intervals */
	if (!set->init || !set->init->size || !(set->flags & SET_F_INTERVAL) ||
	    (set->key && set->key->kind == EXPR_CONCAT))
		return;
	v = elems_sorted(set->init, &n);
	if (!v)
		return;
	for (i = 0; i < n; i++) {
		if (elem_is_end(v[i])) {
			if (start)
				close_range(start, elem_of(v[i])->elem.key);
			start = NULL;
			expr_free(v[i]);
			continue;
		}
		/* a start also ends the interval before it */
		if (start)
			close_range(start, elem_of(v[i])->elem.key);
		start = v[i];
		list_expr_add(set->init, v[i]);
	}
	if (start)
		close_range(start, NULL);
	free(v);
}

/*
 * Stock lists a set's elements sorted by their value as a number in its
 * own representation: strings and concatenations are little-endian
 * numbers of their bytes, and a value of several flags sorts as its
 * lowest flag. Ties list in reverse kernel order, as stock does.
 */
struct sort_key {
	uint8_t		b[NFTC_VALUE_MAX];	/* most significant first */
	unsigned int	n;
	struct expr	*e;
	unsigned int	pos;
};

static void sort_key_of(struct sort_key *k, const struct expr *e)
{
	const struct expr *v = elem_key(e), *i;
	uint8_t tmp[NFTC_VALUE_MAX];
	unsigned int n, j, off = 0;
	struct value low;

	k->n = 0;
	if (!v)
		return;
	if (v->kind == EXPR_VALUE) {
		n = BITS_TO_BYTES(v->value.len);
		/* stock compares strings as host-order numbers */
		if (v->dtype && datatype_is_a(v->dtype, &string_type) &&
		    v->byteorder != BYTEORDER_HOST) {
			for (j = 0; j < n; j++)
				k->b[j] = v->value.data[n - 1 - j];
		} else if (v->dtype && v->dtype != &bitmask_type &&
			   v->dtype->sym_tbl &&
			   datatype_is_a(v->dtype, &bitmask_type) &&
			   value_popcount(&v->value) > 1) {
			/* listed as "a | b": sorts by its first flag */
			value_init(&low, v->value.len);
			for (j = 0; j < v->value.len; j++) {
				if (value_test_bit(&v->value, j)) {
					value_set_bit(&low, j);
					break;
				}
			}
			memcpy(k->b, low.data, n);
		} else {
			memcpy(k->b, v->value.data, n);
		}
		k->n = n;
		return;
	}
	if (v->kind != EXPR_CONCAT)
		return;
	list_for_each_entry(i, &v->expressions, list) {
		if (i->kind == EXPR_RANGE)
			i = i->pair.left;
		if (i->kind != EXPR_VALUE)
			return;
		n = BITS_TO_BYTES(i->value.len);
		if (off + n > sizeof(tmp))
			return;
		value_to_reg(&i->value, i->byteorder ? i->byteorder :
			     BYTEORDER_BIG, tmp + off, n);
		off += n;
	}
	for (j = 0; j < off; j++)
		k->b[j] = tmp[off - 1 - j];
	k->n = off;
}

static int sort_key_cmp(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;
	int r;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;	/* catch-all (none) last */
	r = memcmp(a->b, b->b, a->n);
	if (r)
		return r;
	/* ties: stock's list has the kernel's elements the other way */
	return a->pos > b->pos ? -1 : a->pos < b->pos;
}

static void set_sort(struct set *set)
{
	struct sort_key *keys;
	struct expr *i, *tmp;
	unsigned int n = 0, j;

	if (!set->init || set->init->size < 2)
		return;
	keys = calloc(set->init->size, sizeof(*keys));
	if (!keys)
		return;
	list_for_each_entry_safe(i, tmp, &set->init->expressions, list) {
		sort_key_of(&keys[n], i);
		keys[n].e = i;
		keys[n].pos = n;
		list_del(&i->list);
		n++;
	}
	set->init->size = 0;
	qsort(keys, n, sizeof(*keys), sort_key_cmp);
	for (j = 0; j < n; j++)
		list_expr_add(set->init, keys[j].e);
	free(keys);
}

/**
 * nftc_delinearize_set_done - fold interval ends into ranges
 *
 * Anonymous sets wait for the rule that looks them up: their key type
 * in the kernel is often just what the rule's expression says, so they
 * are typed and folded by delin_set_bind().
 */
void nftc_delinearize_set_done(struct set *set)
{
	if (delin_pack_done(set))
		return;
	if (!(set->flags & SET_F_INTERVAL))
		set_sort(set);
	if (set->flags & SET_F_ANONYMOUS)
		return;
	set_fold(set);
}

/* Register bytes of constant @e (concatenation members word aligned). */
static unsigned int encode(const struct expr *e, uint8_t *buf,
			   unsigned int size)
{
	const struct expr *i;
	unsigned int off = 0, n;

	switch (e->kind) {
	case EXPR_VALUE:
		n = BITS_TO_BYTES(e->value.len);
		if (n > size)
			return 0;
		value_to_reg(&e->value, e->byteorder ? e->byteorder :
			     BYTEORDER_BIG, buf, n);
		return n;
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->expressions, list) {
			n = (BITS_TO_BYTES(i->len) + 3) / 4 * 4;
			if (off + n > size || !encode(i, buf + off, n))
				return 0;
			off += n;
		}
		return off;
	default:
		return 0;
	}
}

static void rekey(struct expr **k, const struct expr *like)
{
	uint8_t buf[NFTC_VALUE_MAX] = { 0 };
	unsigned int n;
	struct expr *v;

	if (!*k || ((*k)->kind != EXPR_VALUE && (*k)->kind != EXPR_CONCAT))
		return;
	n = encode(*k, buf, sizeof(buf));
	if (!n)
		return;
	v = delin_value(like, buf, n);
	if (!v)
		return;
	expr_free(*k);
	*k = v;
}

/**
 * delin_set_bind - type an anonymous set's elements like @key
 * @key: the expression a rule looks up in @set
 */
void delin_set_bind(struct set *set, const struct expr *key)
{
	struct expr *i, *el;

	if (!set || !(set->flags & SET_F_ANONYMOUS) ||
	    (set->flags & SET_F_DELIN_BOUND))
		return;
	set->flags |= SET_F_DELIN_BOUND;
	delin_pack_unpack(set);
	if (key && set->init && key->kind != EXPR_MAP) {
		list_for_each_entry(i, &set->init->expressions, list) {
			el = elem_of(i);
			if (el->kind == EXPR_SET_ELEM)
				rekey(&el->elem.key, key);
		}
		expr_free(set->key);
		set->key = expr_clone(key);
	}
	set_fold(set);
}
