// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hash set backend: exact-match keys, chained buckets, doubling when the
 * load factor passes 2.  Keys are compared as whole 32-bit words: the
 * padding of a key is always zero both in elements and in registers.
 */
#include "nftvm_int.h"

struct nftvm_hash {
	struct nftvm_elem	**buckets;
	__u32			nbuckets;	/* power of two */
};

#define NFTVM_HASH_MIN	16

static __u32 nftvm_hash_key(const __u32 *key, unsigned int words)
{
	__u32 h = 0x9e3779b9u ^ words;
	unsigned int i;

	for (i = 0; i < words; i++) {
		h ^= key[i];
		h *= 0x85ebca6bu;
		h ^= h >> 13;
	}
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static int nftvm_hash_init(struct nftvm_set *set)
{
	struct nftvm_hash *h = nftvm_alloc(sizeof(*h));

	if (!h)
		return -NFTVM_ENOMEM;
	h->nbuckets = NFTVM_HASH_MIN;
	h->buckets = nftvm_alloc(h->nbuckets * sizeof(*h->buckets));
	if (!h->buckets) {
		nftvm_free(h);
		return -NFTVM_ENOMEM;
	}
	set->priv = h;
	return 0;
}

static void nftvm_hash_destroy(struct nftvm_set *set)
{
	struct nftvm_hash *h = set->priv;
	struct nftvm_elem *e, *next;
	__u32 i;

	for (i = 0; i < h->nbuckets; i++)
		for (e = h->buckets[i]; e; e = next) {
			next = e->next;
			nftvm_elem_free(set, e);
		}
	nftvm_free(h->buckets);
	nftvm_free(h);
	set->priv = NULL;
}

static struct nftvm_elem **nftvm_hash_slot(const struct nftvm_set *set,
					   const __u32 *key)
{
	const struct nftvm_hash *h = set->priv;
	unsigned int words = nftvm_set_kwords(set);

	return &h->buckets[nftvm_hash_key(key, words) & (h->nbuckets - 1)];
}

/* Growing is best effort: a failed allocation keeps the old table. */
static void nftvm_hash_grow(struct nftvm_set *set)
{
	struct nftvm_hash *h = set->priv;
	struct nftvm_elem **nb, *e, *next;
	__u32 n = h->nbuckets * 2, i, b;

	nb = nftvm_alloc(n * sizeof(*nb));
	if (!nb)
		return;
	for (i = 0; i < h->nbuckets; i++)
		for (e = h->buckets[i]; e; e = next) {
			next = e->next;
			b = nftvm_hash_key(nftvm_elem_key(e),
					   nftvm_set_kwords(set)) & (n - 1);
			e->next = nb[b];
			nb[b] = e;
		}
	nftvm_free(h->buckets);
	h->buckets = nb;
	h->nbuckets = n;
}

static const struct nftvm_elem *nftvm_hash_lookup(const struct nftvm_set *set,
						  const __u32 *key)
{
	const struct nftvm_elem *e = *nftvm_hash_slot(set, key);
	size_t bytes = nftvm_set_kwords(set) * 4;

	for (; e; e = e->next)
		if (!nftvm_memcmp(nftvm_elem_key(e), key, bytes))
			return e;
	return NULL;
}

static struct nftvm_elem *nftvm_hash_find(const struct nftvm_set *set,
					  const struct nftvm_elem *tmpl)
{
	return (struct nftvm_elem *)nftvm_hash_lookup(set,
						      nftvm_elem_key(tmpl));
}

static int nftvm_hash_insert(struct nftvm_set *set, struct nftvm_elem *e,
			     const struct nftvm_set_ins *ins,
			     struct nftvm_elem **dup)
{
	struct nftvm_hash *h = set->priv;
	struct nftvm_elem **slot;

	*dup = nftvm_hash_find(set, e);
	if (*dup)
		return -NFTVM_EEXIST;
	if (set->nelems >= h->nbuckets * 2)
		nftvm_hash_grow(set);
	slot = nftvm_hash_slot(set, nftvm_elem_key(e));
	e->next = *slot;
	*slot = e;
	return 0;
}

static void nftvm_hash_remove(struct nftvm_set *set, struct nftvm_elem *e)
{
	struct nftvm_elem **pp = nftvm_hash_slot(set, nftvm_elem_key(e));

	for (; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			e->next = NULL;
			return;
		}
}

static int nftvm_hash_walk(const struct nftvm_set *set,
			   int (*fn)(const struct nftvm_set *set,
				     struct nftvm_elem *e, void *arg),
			   void *arg)
{
	const struct nftvm_hash *h = set->priv;
	struct nftvm_elem *e, *next;
	__u32 i;
	int err;

	for (i = 0; i < h->nbuckets; i++)
		for (e = h->buckets[i]; e; e = next) {
			next = e->next;
			err = fn(set, e, arg);
			if (err)
				return err;
		}
	return 0;
}

const struct nftvm_set_type nftvm_set_hash_type = {
	.name		= "hash",
	.init		= nftvm_hash_init,
	.destroy	= nftvm_hash_destroy,
	.insert		= nftvm_hash_insert,
	.remove		= nftvm_hash_remove,
	.find		= nftvm_hash_find,
	.lookup		= nftvm_hash_lookup,
	.walk		= nftvm_hash_walk,
};
