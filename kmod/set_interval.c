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
 * big-endian byte strings, as the kernel compares them.  Insertion
 * refuses overlaps as the kernel's rbtree and pipapo backends detect them
 * (-ENOTEMPTY, which NEWSETELEM reports as -EEXIST).
 */
#include "nftvm_int.h"

/**
 * struct nftvm_ivl - an interval set
 * @cookie:	the start a NEWSETELEM repeated last in batch
 *		@cookie_batch (the kernel's start_rbe_cookie)
 */
struct nftvm_ivl {
	struct nftvm_elem	**v;		/* boundaries, sorted */
	__u32			n;
	__u32			cap;
	struct nftvm_elem	*ranges;	/* elements with a key end */
	const struct nftvm_elem	*cookie;
	__u64			cookie_batch;
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

static bool nftvm_ivl_in_range(const struct nftvm_set *set,
			       const struct nftvm_elem *e, const __u32 *key);

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

/*
 * A range with a key end (the kernel's pipapo backend) overlaps when its
 * start or its end key falls into an existing range; a start inside the
 * very same range is the same element.  Ranges that only enclose another
 * one pass, as in the kernel.
 */
static int nftvm_ivl_range_overlap(const struct nftvm_set *set,
				   const struct nftvm_elem *e,
				   struct nftvm_elem **dup)
{
	const struct nftvm_ivl *iv = set->priv;
	struct nftvm_elem *r;

	for (r = iv->ranges; r; r = r->next) {
		if (!nftvm_ivl_in_range(set, r, nftvm_elem_key(e)))
			continue;
		if (nftvm_ivl_same_range(set, r, e)) {
			*dup = r;
			return -NFTVM_EEXIST;
		}
		return -NFTVM_ENOTEMPTY;
	}
	for (r = iv->ranges; r; r = r->next)
		if (nftvm_ivl_in_range(set, r, nftvm_elem_key_end(set, e)))
			return -NFTVM_ENOTEMPTY;
	return 0;
}

static bool nftvm_ivl_end(const struct nftvm_elem *e)
{
	return e->flags & NFT_SET_ELEM_INTERVAL_END;
}

/* an end boundary at key 0: nft's marker before a first interval */
static bool nftvm_ivl_null(const struct nftvm_set *set,
			   const struct nftvm_elem *e)
{
	const __u8 *k = (const __u8 *)nftvm_elem_key(e);
	unsigned int i;

	if (!nftvm_ivl_end(e))
		return false;
	for (i = 0; i < set->klen; i++)
		if (k[i])
			return false;
	return true;
}

static bool nftvm_ivl_same_key(const struct nftvm_set *set,
			       const struct nftvm_elem *a,
			       const struct nftvm_elem *b)
{
	return !nftvm_memcmp(nftvm_elem_key(a), nftvm_elem_key(b), set->klen);
}

/*
 * The neighbours of a new boundary @e as the kernel's rbtree walk finds
 * them: @ge the start with @e's key, else the lowest boundary above the
 * key; @le the end with @e's key, else the highest boundary below it
 * (indexes into the sorted array, -1 for none).
 */
static void nftvm_ivl_neighbours(const struct nftvm_set *set,
				 const struct nftvm_elem *e, int *ge, int *le)
{
	const struct nftvm_ivl *iv = set->priv;
	const __u32 *key = nftvm_elem_key(e);
	__u32 lo = nftvm_ivl_bound(set, key, true);	/* first key >= */
	__u32 st = nftvm_ivl_bound(set, key, false);	/* (key, start) */
	bool has_end = lo < iv->n && nftvm_ivl_same_key(set, iv->v[lo], e) &&
		       nftvm_ivl_end(iv->v[lo]);
	bool has_start = st < iv->n && nftvm_ivl_same_key(set, iv->v[st], e) &&
			 !nftvm_ivl_end(iv->v[st]);
	__u32 hi = has_start ? st + 1 : st;		/* first key > */

	*ge = has_start ? (int)st : hi < iv->n ? (int)hi : -1;
	*le = has_end ? (int)lo : lo > 0 ? (int)lo - 1 : -1;
}

/*
 * A repeated end must close the interval whose repeated start came just
 * before it in this batch (the start remembered in @iv->cookie).
 */
static bool nftvm_ivl_same_interval(struct nftvm_ivl *iv, int le)
{
	const struct nftvm_elem *below = le > 0 ? iv->v[le - 1] : NULL;
	bool same = !iv->cookie ||
		    (below && !nftvm_ivl_end(below) && below == iv->cookie);

	iv->cookie = NULL;
	return same;
}

/*
 * Whether a new boundary may go in, as the kernel's rbtree backend
 * (__nft_rbtree_insert() of Linux 6.18) decides: a start repeated is
 * -EEXIST and is remembered, an end repeated is -EEXIST if it closes the
 * remembered start's interval, the null end is dropped (-ECANCELED); a
 * start below which the closest boundary is a start (it opens inside an
 * interval; anonymous sets: unless an end precedes it) and an end next to
 * an end are partial overlaps, -ENOTEMPTY.
 */
static int nftvm_ivl_bound_check(struct nftvm_set *set,
				 const struct nftvm_elem *e,
				 struct nftvm_elem **dup)
{
	struct nftvm_ivl *iv = set->priv;
	bool anon = set->flags & NFT_SET_ANONYMOUS, end = nftvm_ivl_end(e);
	struct nftvm_elem *ge_e, *le_e;
	int ge, le;

	nftvm_ivl_neighbours(set, e, &ge, &le);
	ge_e = ge >= 0 ? iv->v[ge] : NULL;
	le_e = le >= 0 ? iv->v[le] : NULL;

	if (nftvm_ivl_null(set, e) || (!end && iv->cookie))
		iv->cookie = NULL;
	if (ge_e && !end && !nftvm_ivl_end(ge_e) &&
	    nftvm_ivl_same_key(set, e, ge_e)) {
		*dup = ge_e;
		iv->cookie = ge_e;
		return -NFTVM_EEXIST;
	}
	if (le_e && end && nftvm_ivl_end(le_e) &&
	    nftvm_ivl_same_key(set, e, le_e)) {
		if (nftvm_ivl_null(set, e))
			return -NFTVM_ECANCELED;
		*dup = le_e;
		if (!nftvm_ivl_same_interval(iv, le))
			return -NFTVM_ENOTEMPTY;
		return -NFTVM_EEXIST;
	}
	if (le_e && !nftvm_ivl_end(le_e) && !end) {
		if (!anon)
			return -NFTVM_ENOTEMPTY;
		if (le + 1 < (int)iv->n && nftvm_ivl_end(iv->v[le + 1]))
			return -NFTVM_ENOTEMPTY;
	}
	if (end && le_e && nftvm_ivl_end(le_e))
		return -NFTVM_ENOTEMPTY;
	if (end && ge_e && nftvm_ivl_end(ge_e))
		return -NFTVM_ENOTEMPTY;
	return 0;
}

static int nftvm_ivl_insert(struct nftvm_set *set, struct nftvm_elem *e,
			    const struct nftvm_set_ins *ins,
			    struct nftvm_elem **dup)
{
	struct nftvm_ivl *iv = set->priv;
	struct nftvm_elem **nv;
	__u32 i, cap;
	int err;

	if (e->has_key_end) {
		err = ins ? nftvm_ivl_range_overlap(set, e, dup) : 0;
		if (err < 0)
			return err;
		e->next = iv->ranges;
		iv->ranges = e;
		return 0;
	}
	if (ins) {
		/* what the kernel remembers lasts one transaction */
		if (iv->cookie_batch != ins->batch) {
			iv->cookie = NULL;
			iv->cookie_batch = ins->batch;
		}
		err = nftvm_ivl_bound_check(set, e, dup);
		if (err < 0)
			return err;
	} else {
		*dup = nftvm_ivl_find(set, e);
		if (*dup)
			return -NFTVM_EEXIST;
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

	if (iv->cookie == e)
		iv->cookie = NULL;
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
