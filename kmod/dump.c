// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GET requests and dumps: NFT_MSG_GETGEN, GETTABLE, GETCHAIN, GETRULE,
 * GETSET, GETOBJ and GETFLOWTABLE answered in the kernel's wire format
 * (set elements are in dump_set.c).  A dump is a series of NEW* messages
 * flagged NLM_F_MULTI closed by NLMSG_DONE; a single get is one NEW*
 * message.  Every message is built in the request's scratch buffer and
 * handed to the caller's reply function at once, so a dump of any size
 * needs one message worth of memory.
 */
#include "nftvm_int.h"

#define NFTVM_PROC_NAME	"nftvm"

static __u16 nftvm_dump_res_id(const struct nftvm_dump *d)
{
	/* nft_base_seq(): the low 16 bits of the generation */
	return nftvm_htons((__u16)(d->vm->genid & 0xffff));
}

/**
 * nftvm_dump_msg_start - begin reply message @event (NFT_MSG_NEW*)
 * Return: the header, or NULL if the scratch buffer is too small.
 */
struct nlmsghdr *nftvm_dump_msg_start(struct nftvm_dump *d, __u16 event,
				      __u16 flags, __u8 family)
{
	struct nfgenmsg *nfg;
	struct nlmsghdr *nlh;
	size_t hlen = NLMSG_ALIGN(NLMSG_LENGTH(sizeof(*nfg)));

	d->b.len = 0;
	d->b.overflow = false;
	if (d->b.cap < hlen) {
		d->b.overflow = true;
		return NULL;
	}
	nftvm_memset(d->b.buf, 0, hlen);
	nlh = (struct nlmsghdr *)d->b.buf;
	nlh->nlmsg_type = (__u16)(NFNL_SUBSYS_NFTABLES << 8 | event);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = d->seq;
	nlh->nlmsg_pid = d->portid;
	nfg = NLMSG_DATA(nlh);
	nfg->nfgen_family = family;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = nftvm_dump_res_id(d);
	d->b.len = hlen;
	return nlh;
}

/** nftvm_dump_msg_end - finish the message and hand it to the caller */
int nftvm_dump_msg_end(struct nftvm_dump *d, struct nlmsghdr *nlh)
{
	if (!nlh || d->b.overflow)
		return -NFTVM_ENOSPC;
	nlh->nlmsg_len = (__u32)d->b.len;
	return d->fn(d->arg, d->b.buf, d->b.len);
}

/* NLMSG_DONE closes a dump; its payload is the dump's result (0). */
int nftvm_dump_done(struct nftvm_dump *d)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)d->b.buf;
	size_t len = NLMSG_LENGTH(sizeof(int));

	if (d->b.cap < NLMSG_ALIGN(len))
		return -NFTVM_ENOSPC;
	nftvm_memset(d->b.buf, 0, NLMSG_ALIGN(len));
	nlh->nlmsg_len = (__u32)len;
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = d->seq;
	nlh->nlmsg_pid = d->portid;
	return d->fn(d->arg, d->b.buf, NLMSG_ALIGN(len));
}

static bool nftvm_dump_is_dump(const struct nftvm_dump *d)
{
	return (d->nlflags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* Does a dump of family @want include @family?  0 means all. */
static bool nftvm_family_match(__u8 want, __u8 family)
{
	return want == NFPROTO_UNSPEC || want == family;
}

/* ------------------------------------------------------------ generation */

int nftvm_getgen(struct nftvm_dump *d, const struct nlattr **tb)
{
	struct nlmsghdr *nlh;

	nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWGEN, 0, NFPROTO_UNSPEC);
	nftvm_nla_put_be32(&d->b, NFTA_GEN_ID, d->vm->genid);
	nftvm_nla_put_be32(&d->b, NFTA_GEN_PROC_PID, d->portid);
	nftvm_nla_put_str(&d->b, NFTA_GEN_PROC_NAME, NFTVM_PROC_NAME);
	return nftvm_dump_msg_end(d, nlh);
}

/* ------------------------------------------------------------ tables */

/* table->use in the kernel: its chains, sets, objects and flowtables */
static __u32 nftvm_table_use(const struct nftvm_table *t)
{
	const struct nftvm_chain *c;
	const struct nftvm_set *s;
	const struct nftvm_obj *o;
	__u32 n = 0;

	nftvm_list_for_each_entry(c, &t->chains, list)
		n++;
	nftvm_list_for_each_entry(s, &t->sets, list)
		n++;
	nftvm_list_for_each_entry(o, &t->objs, list)
		n++;
	return n;
}

static int nftvm_fill_table(struct nftvm_dump *d, const struct nftvm_table *t,
			    __u16 flags)
{
	struct nlmsghdr *nlh;

	nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWTABLE, flags, t->family);
	nftvm_nla_put_str(&d->b, NFTA_TABLE_NAME, t->name);
	nftvm_nla_put_be32(&d->b, NFTA_TABLE_FLAGS, t->flags & NFT_TABLE_F_MASK);
	nftvm_nla_put_be32(&d->b, NFTA_TABLE_USE, nftvm_table_use(t));
	nftvm_nla_put_be64(&d->b, NFTA_TABLE_HANDLE, t->handle);
	if (t->flags & NFT_TABLE_F_OWNER)
		nftvm_nla_put_be32(&d->b, NFTA_TABLE_OWNER, d->portid);
	if (t->udata)
		nftvm_nla_put(&d->b, NFTA_TABLE_USERDATA, t->udata, t->udlen);
	return nftvm_dump_msg_end(d, nlh);
}

/* The table a single get names: -EINVAL without a name, else -ENOENT. */
static struct nftvm_table *nftvm_dump_table(struct nftvm_dump *d,
					    const struct nlattr *name,
					    int *err)
{
	struct nftvm_table *t;

	if (!name) {
		*err = -NFTVM_EINVAL;
		return NULL;
	}
	t = nftvm_table_lookup(d->vm, name, d->family);
	if (!t)
		*err = nftvm_fail(&d->ctx, name, -NFTVM_ENOENT);
	return t;
}

int nftvm_gettable(struct nftvm_dump *d, const struct nlattr **tb)
{
	struct nftvm_table *t;
	int err = 0;

	if (!nftvm_dump_is_dump(d)) {
		t = nftvm_dump_table(d, tb[NFTA_TABLE_NAME], &err);
		return t ? nftvm_fill_table(d, t, 0) : err;
	}
	nftvm_list_for_each_entry(t, &d->vm->tables, list) {
		if (!nftvm_family_match(d->family, t->family))
			continue;
		err = nftvm_fill_table(d, t, NLM_F_MULTI);
		if (err < 0)
			return err;
	}
	return nftvm_dump_done(d);
}

/* ------------------------------------------------------------ chains */

static const char *const nftvm_chain_type_names[__NFTVM_CHAIN_TYPE_MAX] = {
	[NFTVM_CHAIN_FILTER]	= "filter",
	[NFTVM_CHAIN_NAT]	= "nat",
	[NFTVM_CHAIN_ROUTE]	= "route",
};

/* chain->use in the kernel: its rules plus the jumps and gotos to it */
static __u32 nftvm_chain_use(const struct nftvm_chain *c)
{
	const struct nftvm_rule *r;
	/* binding a chain takes one more use than the jump */
	__u32 n = c->use + (c->bound ? 1 : 0);

	nftvm_list_for_each_entry(r, &c->rules, list)
		n++;
	return n;
}

/* As the kernel: the list, and the one device again on its own. */
static void nftvm_fill_devs(struct nftvm_nlbuf *b, const struct nftvm_chain *c)
{
	struct nlattr *devs;
	unsigned int i;

	devs = nftvm_nla_nest_start(b, NFTA_HOOK_DEVS);
	for (i = 0; i < c->ndevs; i++)
		nftvm_nla_put_str(b, NFTA_DEVICE_NAME, c->devs[i]);
	nftvm_nla_nest_end(b, devs);
	if (c->ndevs == 1)
		nftvm_nla_put_str(b, NFTA_HOOK_DEV, c->devs[0]);
}

static int nftvm_fill_chain(struct nftvm_dump *d, const struct nftvm_chain *c,
			    __u16 flags)
{
	const struct nftvm_table *t = c->table;
	struct nlmsghdr *nlh;
	struct nlattr *hook, *stats;

	nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWCHAIN, flags, t->family);
	nftvm_nla_put_str(&d->b, NFTA_CHAIN_TABLE, t->name);
	nftvm_nla_put_be64(&d->b, NFTA_CHAIN_HANDLE, c->handle);
	nftvm_nla_put_str(&d->b, NFTA_CHAIN_NAME, c->name);
	if (c->base) {
		hook = nftvm_nla_nest_start(&d->b, NFTA_CHAIN_HOOK);
		nftvm_nla_put_be32(&d->b, NFTA_HOOK_HOOKNUM, c->hooknum);
		nftvm_nla_put_be32(&d->b, NFTA_HOOK_PRIORITY, (__u32)c->prio);
		if (c->ndevs)
			nftvm_fill_devs(&d->b, c);
		nftvm_nla_nest_end(&d->b, hook);
		nftvm_nla_put_be32(&d->b, NFTA_CHAIN_POLICY, c->policy);
		nftvm_nla_put_str(&d->b, NFTA_CHAIN_TYPE,
				  nftvm_chain_type_names[c->type]);
		if (c->has_stats) {
			stats = nftvm_nla_nest_start(&d->b,
						     NFTA_CHAIN_COUNTERS);
			nftvm_nla_put_be64(&d->b, NFTA_COUNTER_PACKETS,
					   c->stats[0]);
			nftvm_nla_put_be64(&d->b, NFTA_COUNTER_BYTES,
					   c->stats[1]);
			nftvm_nla_nest_end(&d->b, stats);
		}
	}
	if (c->flags)
		nftvm_nla_put_be32(&d->b, NFTA_CHAIN_FLAGS, c->flags);
	nftvm_nla_put_be32(&d->b, NFTA_CHAIN_USE, nftvm_chain_use(c));
	if (c->udata)
		nftvm_nla_put(&d->b, NFTA_CHAIN_USERDATA, c->udata, c->udlen);
	return nftvm_dump_msg_end(d, nlh);
}

int nftvm_getchain(struct nftvm_dump *d, const struct nlattr **tb)
{
	struct nftvm_table *t;
	struct nftvm_chain *c;
	int err = 0;

	if (!nftvm_dump_is_dump(d)) {
		t = nftvm_dump_table(d, tb[NFTA_CHAIN_TABLE], &err);
		if (!t)
			return err;
		if (!tb[NFTA_CHAIN_NAME])
			return -NFTVM_EINVAL;
		c = nftvm_chain_lookup(t, tb[NFTA_CHAIN_NAME]);
		if (!c)
			return nftvm_fail(&d->ctx, tb[NFTA_CHAIN_NAME],
					  -NFTVM_ENOENT);
		return nftvm_fill_chain(d, c, 0);
	}
	nftvm_list_for_each_entry(t, &d->vm->tables, list) {
		if (!nftvm_family_match(d->family, t->family))
			continue;
		nftvm_list_for_each_entry(c, &t->chains, list) {
			err = nftvm_fill_chain(d, c, NLM_F_MULTI);
			if (err < 0)
				return err;
		}
	}
	return nftvm_dump_done(d);
}

/* ------------------------------------------------------------ rules */

static void nftvm_dump_expr(struct nftvm_nlbuf *b, const struct nftvm_expr *e)
{
	struct nlattr *elem, *data;

	elem = nftvm_nla_nest_start(b, NFTA_LIST_ELEM);
	nftvm_nla_put_str(b, NFTA_EXPR_NAME, e->ops->name);
	if (e->ops->dump) {
		data = nftvm_nla_nest_start(b, NFTA_EXPR_DATA);
		e->ops->dump(b, e);
		nftvm_nla_nest_end(b, data);
	}
	nftvm_nla_nest_end(b, elem);
}

/* @prev: handle of the rule before (dumps only), 0 for none */
static int nftvm_fill_rule(struct nftvm_dump *d, const struct nftvm_rule *r,
			   __u64 prev, __u16 flags)
{
	const struct nftvm_chain *c = r->chain;
	const struct nftvm_expr *e;
	struct nlmsghdr *nlh;
	struct nlattr *list;

	nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWRULE, flags, c->table->family);
	nftvm_nla_put_str(&d->b, NFTA_RULE_TABLE, c->table->name);
	nftvm_nla_put_str(&d->b, NFTA_RULE_CHAIN, c->name);
	nftvm_nla_put_be64(&d->b, NFTA_RULE_HANDLE, r->handle);
	if (prev)
		nftvm_nla_put_be64(&d->b, NFTA_RULE_POSITION, prev);
	list = nftvm_nla_nest_start(&d->b, NFTA_RULE_EXPRESSIONS);
	nftvm_rule_for_each_expr(e, r)
		nftvm_dump_expr(&d->b, e);
	nftvm_nla_nest_end(&d->b, list);
	if (r->udata)
		nftvm_nla_put(&d->b, NFTA_RULE_USERDATA, r->udata, r->udlen);
	return nftvm_dump_msg_end(d, nlh);
}

static int nftvm_dump_chain_rules(struct nftvm_dump *d,
				  const struct nftvm_chain *c)
{
	const struct nftvm_rule *r;
	__u64 prev = 0;
	int err;

	nftvm_list_for_each_entry(r, &c->rules, list) {
		err = nftvm_fill_rule(d, r, prev, NLM_F_MULTI | NLM_F_APPEND);
		if (err < 0)
			return err;
		prev = r->handle;
	}
	return 0;
}

static int nftvm_getrule_one(struct nftvm_dump *d, const struct nlattr **tb)
{
	struct nftvm_table *t;
	struct nftvm_chain *c;
	struct nftvm_rule *r;
	__u64 handle;
	int err = 0;

	t = nftvm_dump_table(d, tb[NFTA_RULE_TABLE], &err);
	if (!t)
		return err;
	if (!tb[NFTA_RULE_CHAIN])
		return -NFTVM_EINVAL;
	c = nftvm_chain_lookup(t, tb[NFTA_RULE_CHAIN]);
	if (!c)
		return nftvm_fail(&d->ctx, tb[NFTA_RULE_CHAIN], -NFTVM_ENOENT);
	if (!tb[NFTA_RULE_HANDLE])
		return -NFTVM_EINVAL;
	handle = nftvm_nla_be64(tb[NFTA_RULE_HANDLE]);
	nftvm_list_for_each_entry(r, &c->rules, list)
		if (r->handle == handle)
			return nftvm_fill_rule(d, r, 0, 0);
	return nftvm_fail(&d->ctx, tb[NFTA_RULE_HANDLE], -NFTVM_ENOENT);
}

/*
 * A rule dump may be narrowed to one table, or one chain of it; a chain
 * that does not exist dumps nothing (as in the kernel).
 */
int nftvm_getrule(struct nftvm_dump *d, const struct nlattr **tb)
{
	const struct nlattr *tname = tb[NFTA_RULE_TABLE];
	const struct nlattr *cname = tb[NFTA_RULE_CHAIN];
	struct nftvm_table *t;
	struct nftvm_chain *c;
	int err;

	if (!nftvm_dump_is_dump(d))
		return nftvm_getrule_one(d, tb);
	nftvm_list_for_each_entry(t, &d->vm->tables, list) {
		if (!nftvm_family_match(d->family, t->family))
			continue;
		if (tname && !nftvm_nla_streq(tname, t->name))
			continue;
		nftvm_list_for_each_entry(c, &t->chains, list) {
			if (tname && cname && !nftvm_nla_streq(cname, c->name))
				continue;
			err = nftvm_dump_chain_rules(d, c);
			if (err < 0)
				return err;
		}
		if (tname)
			break;
	}
	return nftvm_dump_done(d);
}

/* ------------------------------------------------------------ sets */

static void nftvm_fill_set_desc(struct nftvm_nlbuf *b,
				const struct nftvm_set *s)
{
	struct nlattr *desc, *concat, *field;
	unsigned int i;

	desc = nftvm_nla_nest_start(b, NFTA_SET_DESC);
	if (s->size)
		nftvm_nla_put_be32(b, NFTA_SET_DESC_SIZE, s->size);
	if (s->field_count > 1) {
		concat = nftvm_nla_nest_start(b, NFTA_SET_DESC_CONCAT);
		for (i = 0; i < s->field_count; i++) {
			field = nftvm_nla_nest_start(b, NFTA_LIST_ELEM);
			nftvm_nla_put_be32(b, NFTA_SET_FIELD_LEN,
					   s->field_len[i]);
			nftvm_nla_nest_end(b, field);
		}
		nftvm_nla_nest_end(b, concat);
	}
	nftvm_nla_nest_end(b, desc);
}

static int nftvm_fill_set(struct nftvm_dump *d, const struct nftvm_set *s,
			  __u16 flags)
{
	struct nftvm_nlbuf *b = &d->b;
	struct nlmsghdr *nlh;

	nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWSET, flags, s->table->family);
	nftvm_nla_put_str(b, NFTA_SET_TABLE, s->table->name);
	nftvm_nla_put_str(b, NFTA_SET_NAME, s->name);
	nftvm_nla_put_be64(b, NFTA_SET_HANDLE, s->handle);
	if (s->flags)
		nftvm_nla_put_be32(b, NFTA_SET_FLAGS, s->flags);
	nftvm_nla_put_be32(b, NFTA_SET_KEY_TYPE, s->ktype);
	nftvm_nla_put_be32(b, NFTA_SET_KEY_LEN, s->klen);
	if (s->flags & NFT_SET_MAP) {
		nftvm_nla_put_be32(b, NFTA_SET_DATA_TYPE, s->dtype);
		nftvm_nla_put_be32(b, NFTA_SET_DATA_LEN, s->dlen);
	}
	if (s->flags & NFT_SET_OBJECT)
		nftvm_nla_put_be32(b, NFTA_SET_OBJ_TYPE, s->objtype);
	if (s->timeout)
		nftvm_nla_put_be64(b, NFTA_SET_TIMEOUT, s->timeout);
	if (s->gc_interval)
		nftvm_nla_put_be32(b, NFTA_SET_GC_INTERVAL, s->gc_interval);
	if (s->policy != NFT_SET_POL_PERFORMANCE)
		nftvm_nla_put_be32(b, NFTA_SET_POLICY, s->policy);
	if (s->udata)
		nftvm_nla_put(b, NFTA_SET_USERDATA, s->udata, s->udlen);
	nftvm_fill_set_desc(b, s);
	return nftvm_dump_msg_end(d, nlh);
}

int nftvm_getset(struct nftvm_dump *d, const struct nlattr **tb)
{
	struct nftvm_table *t, *only = NULL;
	struct nftvm_set *s;
	int err = 0;

	if (tb[NFTA_SET_TABLE]) {
		only = nftvm_dump_table(d, tb[NFTA_SET_TABLE], &err);
		if (!only)
			return err;
	}
	if (!nftvm_dump_is_dump(d)) {
		/* only a dump may span families */
		if (d->family == NFPROTO_UNSPEC)
			return -NFTVM_EAFNOSUPPORT;
		if (!only || !tb[NFTA_SET_NAME])
			return -NFTVM_EINVAL;
		s = nftvm_set_find_attr(only, tb[NFTA_SET_NAME]);
		if (!s)
			return nftvm_fail(&d->ctx, tb[NFTA_SET_NAME],
					  -NFTVM_ENOENT);
		return nftvm_fill_set(d, s, 0);
	}
	nftvm_list_for_each_entry(t, &d->vm->tables, list) {
		if (!nftvm_family_match(d->family, t->family))
			continue;
		if (only && only != t)
			continue;
		nftvm_list_for_each_entry(s, &t->sets, list) {
			err = nftvm_fill_set(d, s, NLM_F_MULTI);
			if (err < 0)
				return err;
		}
	}
	return nftvm_dump_done(d);
}

struct nftvm_set *nftvm_set_find_attr(const struct nftvm_table *t,
				      const struct nlattr *name)
{
	struct nftvm_set *s;

	nftvm_list_for_each_entry(s, &t->sets, list)
		if (nftvm_nla_streq(name, s->name))
			return s;
	return NULL;
}

/* ------------------------------------------------------------ objects */

/*
 * The VM holds no stateful objects or flowtables yet: a dump is empty, a
 * single get finds nothing.
 */
static int nftvm_fill_obj(struct nftvm_dump *d, const struct nftvm_obj *o,
			  __u16 flags)
{
	struct nftvm_nlbuf *b = &d->b;
	struct nlmsghdr *nlh;
	struct nlattr *data;

	nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWOBJ, flags, o->table->family);
	nftvm_nla_put_str(b, NFTA_OBJ_TABLE, o->table->name);
	nftvm_nla_put_str(b, NFTA_OBJ_NAME, o->name);
	nftvm_nla_put_be32(b, NFTA_OBJ_TYPE, o->type->type);
	nftvm_nla_put_be32(b, NFTA_OBJ_USE, o->use);
	nftvm_nla_put_be64(b, NFTA_OBJ_HANDLE, o->handle);
	data = nftvm_nla_nest_start(b, NFTA_OBJ_DATA);
	if (o->type->dump)
		o->type->dump(b, o);
	nftvm_nla_nest_end(b, data);
	if (o->udata)
		nftvm_nla_put(b, NFTA_OBJ_USERDATA, o->udata, o->udlen);
	return nftvm_dump_msg_end(d, nlh);
}

/*
 * A single get names table, name and type (-EINVAL otherwise); a dump
 * may be narrowed to a table and to a type, as the kernel's is.
 */
int nftvm_getobj(struct nftvm_dump *d, const struct nlattr **tb)
{
	struct nftvm_table *t, *only = NULL;
	const struct nftvm_obj *o;
	__u32 type = 0;
	int err = 0;

	if (tb[NFTA_OBJ_TYPE])
		type = nftvm_nla_be32(tb[NFTA_OBJ_TYPE]);
	if (!nftvm_dump_is_dump(d)) {
		if (!tb[NFTA_OBJ_TABLE] || !tb[NFTA_OBJ_NAME] ||
		    !tb[NFTA_OBJ_TYPE])
			return -NFTVM_EINVAL;
		only = nftvm_dump_table(d, tb[NFTA_OBJ_TABLE], &err);
		if (!only)
			return err;
		o = nftvm_obj_lookup(only, tb[NFTA_OBJ_NAME], type);
		if (!o)
			return nftvm_fail(&d->ctx, tb[NFTA_OBJ_NAME],
					  -NFTVM_ENOENT);
		return nftvm_fill_obj(d, o, 0);
	}
	if (tb[NFTA_OBJ_TABLE]) {
		only = nftvm_dump_table(d, tb[NFTA_OBJ_TABLE], &err);
		if (!only)
			return err;
	}
	nftvm_list_for_each_entry(t, &d->vm->tables, list) {
		if (!nftvm_family_match(d->family, t->family))
			continue;
		if (only && only != t)
			continue;
		nftvm_list_for_each_entry(o, &t->objs, list) {
			if (type && o->type->type != type)
				continue;
			err = nftvm_fill_obj(d, o, NLM_F_MULTI);
			if (err < 0)
				return err;
		}
	}
	return nftvm_dump_done(d);
}

int nftvm_getflowtable(struct nftvm_dump *d, const struct nlattr **tb)
{
	if (!nftvm_dump_is_dump(d))
		return -NFTVM_ENOENT;
	return nftvm_dump_done(d);
}
