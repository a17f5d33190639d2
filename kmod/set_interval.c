// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interval set backend, for ranges and prefixes.
 *
 * Two element shapes arrive from user space.  Single-field interval sets
 * send boundaries: a start element and an end element (flag
 * NFT_SET_ELEM_INTERVAL_END) holding the first key past the range; they
 * live in a sorted array and a key matches when the greatest boundary not
 * above it is a start.  Concatenated ranges send one element with a
 * closing key (NFTA_SET_ELEM_KEY_END); those live in a list and a key
 * matches when every field lies between start and end.  Keys compare as
 * big-endian byte strings, as the kernel compares them.
 */
#include "nftvm_int.h"

struct nftvm_ivl {
	struct nftvm_elem	**v;		/* boundaries, sorted */
	__u32			n;
	__u32			cap;
	struct nftvm_elem	*ranges;	/* elements with a key end */
};

static int nftvm_ivl_init(struct nftvm_set *set)
{
	set->priv = nftvm_alloc(sizeof(struct nftvm_ivl));
	return set->priv ? 0 : -NFTVM_ENOMEM;
}

static void nftvm_ivl_destroy(struct nftvm_set *set)
{
	struct nftvm_ivl *iv = set->priv;
	struct nftvm_elem *e, *next;
	__u32 i;

	for (i = 0; i < iv->n; i++)
		nftvm_elem_free(set, iv->v[i]);
	for (e = iv->ranges; e; e = next) {
		next = e->next;
		nftvm_elem_free(set, e);
	}
	nftvm_free(iv->v);
	nftvm_free(iv);
	set->priv = NULL;
}

/* Order boundaries by key; at equal keys an end sorts before a start. */
static int nftvm_ivl_cmp(const struct nftvm_set *set, const __u32 *key,
			 bool end, const struct nftvm_elem *b)
{
	int d = nftvm_memcmp(key, nftvm_elem_key(b), set->klen);
	bool bend = b->flags & NFT_SET_ELEM_INTERVAL_END;

	if (d || end == bend)
		return d;
	return end ? -1 : 1;
}

/* index of the first boundary not below (key, end) */
static __u32 nftvm_ivl_bound(const struct nftvm_set *set, const __u32 *key,
			     bool end)
{
	const struct nftvm_ivl *iv = set->priv;
	__u32 lo = 0, hi = iv->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (nftvm_ivl_cmp(set, key, end, iv->v[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool nftvm_ivl_same_range(const struct nftvm_set *set,
				 const struct nftvm_elem *a,
				 const struct nftvm_elem *b)
{
	return !nftvm_memcmp(nftvm_elem_key(a), nftvm_elem_key(b),
			     set->klen) &&
	       !nftvm_memcmp(nftvm_elem_key_end(set, a),
			     nftvm_elem_key_end(set, b), set->klen);
}

static struct nftvm_elem *nftvm_ivl_find(const struct nftvm_set *set,
					 const struct nftvm_elem *tmpl)
{
	const struct nftvm_ivl *iv = set->priv;
	bool end = tmpl->flags & NFT_SET_ELEM_INTERVAL_END;
	struct nftvm_elem *e;
	__u32 i;

	if (tmpl->has_key_end) {
		for (e = iv->ranges; e; e = e->next)
			if (nftvm_ivl_same_range(set, e, tmpl))
				return e;
		return NULL;
	}
	i = nftvm_ivl_bound(set, nftvm_elem_key(tmpl), end);
	if (i < iv->n &&
	    !nftvm_ivl_cmp(set, nftvm_elem_key(tmpl), end, iv->v[i]))
		return iv->v[i];
	return NULL;
}

static int nftvm_ivl_insert(struct nftvm_set *set, struct nftvm_elem *e,
			    struct nftvm_elem **dup)
{
	struct nftvm_ivl *iv = set->priv;
	struct nftvm_elem **nv;
	__u32 i, cap;

	*dup = nftvm_ivl_find(set, e);
	if (*dup)
		return -NFTVM_EEXIST;
	if (e->has_key_end) {
		e->next = iv->ranges;
		iv->ranges = e;
		return 0;
	}
	if (iv->n == iv->cap) {
		cap = iv->cap ? iv->cap * 2 : 16;
		nv = nftvm_alloc(cap * sizeof(*nv));
		if (!nv)
			return -NFTVM_ENOMEM;
		if (iv->n)
			nftvm_memcpy(nv, iv->v, iv->n * sizeof(*nv));
		nftvm_free(iv->v);
		iv->v = nv;
		iv->cap = cap;
	}
	i = nftvm_ivl_bound(set, nftvm_elem_key(e),
			    e->flags & NFT_SET_ELEM_INTERVAL_END);
	nftvm_memmove(&iv->v[i + 1], &iv->v[i], (iv->n - i) * sizeof(*iv->v));
	iv->v[i] = e;
	iv->n++;
	return 0;
}

static void nftvm_ivl_remove(struct nftvm_set *set, struct nftvm_elem *e)
{
	struct nftvm_ivl *iv = set->priv;
	struct nftvm_elem **pp;
	__u32 i;

	if (e->has_key_end) {
		for (pp = &iv->ranges; *pp; pp = &(*pp)->next)
			if (*pp == e) {
				*pp = e->next;
				return;
			}
		return;
	}
	for (i = 0; i < iv->n; i++)
		if (iv->v[i] == e) {
			nftvm_memmove(&iv->v[i], &iv->v[i + 1],
				      (iv->n - i - 1) * sizeof(*iv->v));
			iv->n--;
			return;
		}
}

/* Every field of @key within [start, end] of @e, field by field. */
static bool nftvm_ivl_in_range(const struct nftvm_set *set,
			       const struct nftvm_elem *e, const __u32 *key)
{
	const __u8 *k = (const __u8 *)key;
	const __u8 *s = (const __u8 *)nftvm_elem_key(e);
	const __u8 *t = (const __u8 *)nftvm_elem_key_end(set, e);
	unsigned int f, off = 0, len;

	if (set->field_count <= 1)
		return nftvm_memcmp(k, s, set->klen) >= 0 &&
		       nftvm_memcmp(k, t, set->klen) <= 0;
	for (f = 0; f < set->field_count; f++) {
		len = set->field_len[f];
		if (nftvm_memcmp(k + off, s + off, len) < 0 ||
		    nftvm_memcmp(k + off, t + off, len) > 0)
			return false;
		off += NFTVM_ALIGN(len, 4);
	}
	return true;
}

static const struct nftvm_elem *nftvm_ivl_lookup(const struct nftvm_set *set,
						 const __u32 *key)
{
	const struct nftvm_ivl *iv = set->priv;
	const struct nftvm_elem *e;
	__u32 i;

	for (e = iv->ranges; e; e = e->next)
		if (nftvm_ivl_in_range(set, e, key))
			return e;
	if (!iv->n)
		return NULL;
	/* first boundary above (key, start) minus one: the last one <= key */
	i = nftvm_ivl_bound(set, key, false);
	if (i < iv->n && !nftvm_ivl_cmp(set, key, false, iv->v[i]))
		return iv->v[i];
	if (i == 0)
		return NULL;
	e = iv->v[i - 1];
	return (e->flags & NFT_SET_ELEM_INTERVAL_END) ? NULL : e;
}

static int nftvm_ivl_walk(const struct nftvm_set *set,
			  int (*fn)(const struct nftvm_set *set,
				    struct nftvm_elem *e, void *arg),
			  void *arg)
{
	const struct nftvm_ivl *iv = set->priv;
	struct nftvm_elem *e, *next;
	__u32 i;
	int err;

	for (i = 0; i < iv->n; i++) {
		err = fn(set, iv->v[i], arg);
		if (err)
			return err;
	}
	for (e = iv->ranges; e; e = next) {
		next = e->next;
		err = fn(set, e, arg);
		if (err)
			return err;
	}
	return 0;
}

const struct nftvm_set_type nftvm_set_interval_type = {
	.name		= "interval",
	.init		= nftvm_ivl_init,
	.destroy	= nftvm_ivl_destroy,
	.insert		= nftvm_ivl_insert,
	.remove		= nftvm_ivl_remove,
	.find		= nftvm_ivl_find,
	.lookup		= nftvm_ivl_lookup,
	.walk		= nftvm_ivl_walk,
};
