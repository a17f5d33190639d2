// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The VM object: creation, teardown, object lookups, the per-hook lists
 * of base chains, and the read-only queries of the public API.
 */
#include "nftvm_int.h"

/**
 * nftvm_new - create an empty ruleset
 * Return: the VM, or NULL when out of memory.
 */
struct nftvm *nftvm_new(void)
{
	struct nftvm *vm = nftvm_alloc(sizeof(*vm));

	if (!vm)
		return NULL;
	nftvm_list_init(&vm->tables);
	nftvm_list_init(&vm->trans);
	return vm;
}

/**
 * nftvm_destroy - free a VM and everything in it; accepts NULL
 */
void nftvm_destroy(struct nftvm *vm)
{
	struct nftvm_table *t, *tmp;

	if (!vm)
		return;
	nftvm_trans_abort(vm);
	nftvm_list_for_each_entry_safe(t, tmp, &vm->tables, list) {
		nftvm_list_del(&t->list);
		nftvm_table_free(t);
	}
	nftvm_hooks_free(vm);
	nftvm_free(vm);
}

__u32 nftvm_genid(const struct nftvm *vm)
{
	return vm->genid;
}

/**
 * nftvm_gc - collect the expired elements of every timeout set
 *
 * Run whenever the clock moves (nftvm_set_time(), a packet's time), so
 * that an element is gone from lookups, counts and dumps once expired,
 * as after a pass of the kernel's set GC.
 */
void nftvm_gc(struct nftvm *vm)
{
	struct nftvm_table *t;
	struct nftvm_set *s;

	nftvm_list_for_each_entry(t, &vm->tables, list)
		nftvm_list_for_each_entry(s, &t->sets, list)
			if (s->flags & NFT_SET_TIMEOUT)
				nftvm_set_gc(s, vm->now);
}

void nftvm_set_time(struct nftvm *vm, __u64 now_ns)
{
	vm->now = now_ns;
	nftvm_gc(vm);
}

__u64 nftvm_time(const struct nftvm *vm)
{
	return vm->now;
}

struct nftvm_table *nftvm_table_lookup(struct nftvm *vm,
				       const struct nlattr *name, __u8 family)
{
	struct nftvm_table *t;

	nftvm_list_for_each_entry(t, &vm->tables, list)
		if (t->family == family && nftvm_nla_streq(name, t->name))
			return t;
	return NULL;
}

struct nftvm_table *nftvm_table_find(const struct nftvm *vm, __u8 family,
				     const char *name)
{
	struct nftvm_table *t;

	nftvm_list_for_each_entry(t, &vm->tables, list)
		if (t->family == family && nftvm_streq(name, t->name))
			return t;
	return NULL;
}

struct nftvm_chain *nftvm_chain_lookup(const struct nftvm_table *table,
				       const struct nlattr *name)
{
	struct nftvm_chain *c;

	nftvm_list_for_each_entry(c, &table->chains, list)
		if (nftvm_nla_streq(name, c->name))
			return c;
	return NULL;
}

struct nftvm_chain *nftvm_chain_lookup_id(const struct nftvm_table *table,
					  const struct nlattr *id)
{
	__u32 want = nftvm_nla_be32(id);
	struct nftvm_chain *c;

	nftvm_list_for_each_entry(c, &table->chains, list)
		if (c->is_new && c->id == want)
			return c;
	return NULL;
}

struct nftvm_chain *nftvm_chain_find(const struct nftvm_table *table,
				     const char *name)
{
	struct nftvm_chain *c;

	nftvm_list_for_each_entry(c, &table->chains, list)
		if (nftvm_streq(name, c->name))
			return c;
	return NULL;
}

struct nftvm_set *nftvm_set_find(const struct nftvm_table *table,
				 const char *name)
{
	struct nftvm_set *s;

	nftvm_list_for_each_entry(s, &table->sets, list)
		if (nftvm_streq(name, s->name))
			return s;
	return NULL;
}

/*
 * Freeing a whole table needs no reference bookkeeping: jumps and set
 * bindings never leave their table.
 */
void nftvm_table_free(struct nftvm_table *table)
{
	struct nftvm_ctx ctx = { .table = table };
	struct nftvm_chain *c, *ctmp;
	struct nftvm_rule *r, *rtmp;
	struct nftvm_set *s, *stmp;
	struct nftvm_obj *o, *otmp;

	nftvm_list_for_each_entry(c, &table->chains, list) {
		nftvm_list_for_each_entry_safe(r, rtmp, &c->rules, list) {
			nftvm_list_del(&r->list);
			nftvm_rule_free(&ctx, r);
		}
	}
	nftvm_list_for_each_entry_safe(c, ctmp, &table->chains, list) {
		nftvm_list_del(&c->list);
		nftvm_chain_free(c);
	}
	nftvm_list_for_each_entry_safe(s, stmp, &table->sets, list) {
		nftvm_list_del(&s->list);
		nftvm_set_free(s);
	}
	nftvm_list_for_each_entry_safe(o, otmp, &table->objs, list) {
		nftvm_list_del(&o->list);
		nftvm_obj_free(o);
	}
	nftvm_free(table->udata);
	nftvm_free(table->name);
	nftvm_free(table);
}

void nftvm_chain_free(struct nftvm_chain *chain)
{
	nftvm_free(chain->devs);
	nftvm_free(chain->udata);
	nftvm_free(chain->name);
	nftvm_free(chain);
}

/* ------------------------------------------------------------ hooks */

void nftvm_hooks_free(struct nftvm *vm)
{
	unsigned int f, h;

	for (f = 0; f < NFTVM_NFPROTO_MAX; f++)
		for (h = 0; h < NFTVM_HOOK_MAX; h++) {
			nftvm_free(vm->hooks[f][h].ents);
			vm->hooks[f][h].ents = NULL;
			vm->hooks[f][h].n = 0;
		}
}

static bool nftvm_hookent_before(const struct nftvm_hookent *a,
				 const struct nftvm_hookent *b)
{
	if (a->prio != b->prio)
		return a->prio < b->prio;
	return a->seq < b->seq;
}

static void nftvm_hook_insert(struct nftvm_hooklist *hl,
			      struct nftvm_chain *c)
{
	struct nftvm_hookent e = {
		.prio = c->prio, .seq = c->reg_seq, .chain = c,
	};
	unsigned int i = hl->n;

	/* equal priorities run in registration order, as in netfilter */
	while (i > 0 && nftvm_hookent_before(&e, &hl->ents[i - 1])) {
		hl->ents[i] = hl->ents[i - 1];
		i--;
	}
	hl->ents[i] = e;
	hl->n++;
}

/* Which evaluated families a table's base chains attach to. */
static unsigned int nftvm_table_families(__u8 family, __u8 *out)
{
	if (family == NFPROTO_INET) {
		out[0] = NFPROTO_IPV4;
		out[1] = NFPROTO_IPV6;
		return 2;
	}
	out[0] = family;
	return family < NFTVM_NFPROTO_MAX ? 1 : 0;
}

/**
 * nftvm_hooks_rebuild - recompute the sorted base chain lists per hook
 *
 * Called at commit: the packet path then walks a flat array instead of
 * the object tree.  Dormant tables register nothing.  Out of memory
 * leaves a hook empty; the next commit retries.
 */
void nftvm_hooks_rebuild(struct nftvm *vm)
{
	unsigned int count[NFTVM_NFPROTO_MAX][NFTVM_HOOK_MAX] = { { 0 } };
	struct nftvm_table *t;
	struct nftvm_chain *c;
	unsigned int f, h, i, n;
	__u8 fam[2];

	nftvm_hooks_free(vm);
	nftvm_list_for_each_entry(t, &vm->tables, list) {
		if (t->flags & NFT_TABLE_F_DORMANT)
			continue;
		n = nftvm_table_families(t->family, fam);
		nftvm_list_for_each_entry(c, &t->chains, list)
			if (c->base && c->hooknum < NFTVM_HOOK_MAX)
				for (i = 0; i < n; i++)
					count[fam[i]][c->hooknum]++;
	}
	for (f = 0; f < NFTVM_NFPROTO_MAX; f++)
		for (h = 0; h < NFTVM_HOOK_MAX; h++)
			if (count[f][h])
				vm->hooks[f][h].ents = nftvm_alloc(count[f][h] *
					sizeof(struct nftvm_hookent));

	nftvm_list_for_each_entry(t, &vm->tables, list) {
		if (t->flags & NFT_TABLE_F_DORMANT)
			continue;
		n = nftvm_table_families(t->family, fam);
		nftvm_list_for_each_entry(c, &t->chains, list) {
			if (!c->base || c->hooknum >= NFTVM_HOOK_MAX)
				continue;
			for (i = 0; i < n; i++)
				if (vm->hooks[fam[i]][c->hooknum].ents)
					nftvm_hook_insert(
						&vm->hooks[fam[i]][c->hooknum],
						c);
		}
	}
	vm->hooks_dirty = false;
}

/* ------------------------------------------------------------ queries */

static struct nftvm_chain *nftvm_find_chain(const struct nftvm *vm,
					    unsigned int family,
					    const char *table,
					    const char *chain)
{
	struct nftvm_table *t = nftvm_table_find(vm, (__u8)family, table);

	return t ? nftvm_chain_find(t, chain) : NULL;
}

/**
 * nftvm_rule_counters - sum of the counter expressions of one rule
 * Return: 0, or -ENOENT if there is no such rule.
 */
int nftvm_rule_counters(const struct nftvm *vm, unsigned int family,
			const char *table, const char *chain, __u64 handle,
			__u64 *packets, __u64 *bytes)
{
	struct nftvm_chain *c = nftvm_find_chain(vm, family, table, chain);
	struct nftvm_rule *r;
	struct nftvm_expr *e;
	__u64 *ctr;

	if (!c)
		return -NFTVM_ENOENT;
	nftvm_list_for_each_entry(r, &c->rules, list) {
		if (r->handle != handle)
			continue;
		*packets = 0;
		*bytes = 0;
		nftvm_rule_for_each_expr(e, r) {
			if (e->ops != &nftvm_counter_ops)
				continue;
			ctr = nftvm_expr_priv(e);
			*packets += ctr[0];
			*bytes += ctr[1];
		}
		return 0;
	}
	return -NFTVM_ENOENT;
}

/** nftvm_rule_count - number of rules in a chain, or -ENOENT */
int nftvm_rule_count(const struct nftvm *vm, unsigned int family,
		     const char *table, const char *chain)
{
	struct nftvm_chain *c = nftvm_find_chain(vm, family, table, chain);
	struct nftvm_rule *r;
	int n = 0;

	if (!c)
		return -NFTVM_ENOENT;
	nftvm_list_for_each_entry(r, &c->rules, list)
		n++;
	return n;
}

/** nftvm_set_nelems - number of elements in a set, or -ENOENT */
int nftvm_set_nelems(const struct nftvm *vm, unsigned int family,
		     const char *table, const char *set)
{
	struct nftvm_table *t = nftvm_table_find(vm, (__u8)family, table);
	struct nftvm_set *s = t ? nftvm_set_find(t, set) : NULL;

	if (!s)
		return -NFTVM_ENOENT;
	return (int)(s->nelems + (s->catchall ? 1 : 0));
}

/** nftvm_object_count - tables + chains + rules + sets, for tests */
int nftvm_object_count(const struct nftvm *vm)
{
	struct nftvm_table *t;
	struct nftvm_chain *c;
	struct nftvm_rule *r;
	struct nftvm_set *s;
	int n = 0;

	nftvm_list_for_each_entry(t, &vm->tables, list) {
		n++;
		nftvm_list_for_each_entry(c, &t->chains, list) {
			n++;
			nftvm_list_for_each_entry(r, &c->rules, list)
				n++;
		}
		nftvm_list_for_each_entry(s, &t->sets, list)
			n += 1 + (int)s->nelems;
	}
	return n;
}

static struct nftvm_obj *nftvm_find_obj(const struct nftvm *vm,
					unsigned int family, const char *table,
					const char *name, __u32 type)
{
	struct nftvm_table *t = nftvm_table_find(vm, (__u8)family, table);

	return t ? nftvm_obj_find(t, name, type) : NULL;
}

/** nftvm_obj_counter - packets and bytes of a named counter */
int nftvm_obj_counter(const struct nftvm *vm, unsigned int family,
		      const char *table, const char *name,
		      __u64 *packets, __u64 *bytes)
{
	struct nftvm_obj *o = nftvm_find_obj(vm, family, table, name,
					     NFT_OBJECT_COUNTER);
	const __u64 *ctr;

	if (!o)
		return -NFTVM_ENOENT;
	ctr = nftvm_obj_priv(o);
	*packets = ctr[0];
	*bytes = ctr[1];
	return 0;
}

/** nftvm_obj_quota - bytes a named quota has consumed */
int nftvm_obj_quota(const struct nftvm *vm, unsigned int family,
		    const char *table, const char *name, __u64 *consumed)
{
	struct nftvm_obj *o = nftvm_find_obj(vm, family, table, name,
					     NFT_OBJECT_QUOTA);
	const __u64 *q;

	if (!o)
		return -NFTVM_ENOENT;
	/* struct nftvm_quota: quota, consumed */
	q = nftvm_obj_priv(o);
	*consumed = q[1];
	return 0;
}

/**
 * nftvm_elem_counter - the counter attached to a set element
 * @key: the element's key, @klen bytes (as a register holds it)
 * Return: 0, -ENOENT without such an element, -EOPNOTSUPP if it has
 * no counter.
 */
int nftvm_elem_counter(const struct nftvm *vm, unsigned int family,
		       const char *table, const char *set, const void *key,
		       unsigned int klen, __u64 *packets, __u64 *bytes)
{
	struct nftvm_table *t = nftvm_table_find(vm, (__u8)family, table);
	struct nftvm_set *s = t ? nftvm_set_find(t, set) : NULL;
	__u32 k[NFTVM_DATA_MAXLEN / 4] = { 0 };
	const struct nftvm_elem *e;
	const struct nftvm_expr *x;
	const __u64 *ctr;

	if (!s || klen > sizeof(k))
		return -NFTVM_ENOENT;
	nftvm_memcpy(k, key, klen);
	e = s->type->lookup(s, k);
	if (!e)
		return -NFTVM_ENOENT;
	if (!e->ext)
		return -NFTVM_EOPNOTSUPP;
	nftvm_ext_for_each_expr(x, e->ext) {
		if (x->ops != &nftvm_counter_ops)
			continue;
		ctr = nftvm_expr_priv(x);
		*packets = ctr[0];
		*bytes = ctr[1];
		return 0;
	}
	return -NFTVM_EOPNOTSUPP;
}
