// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listing's compact elements: a named plain set's dumped elements kept
 * as key bytes (delin_pack.h).
 *
 * Decompiling each element into IR costs a few hundred bytes and several
 * allocations per element: a million-element set took 255 MB to list.
 * Here an element is its key in canonical form (value.h: most
 * significant byte first), plus one byte for interval sets (0 for an
 * interval's end, 1 for a start, so that an end sorts before a start of
 * the same key, as set_fold() in delin_set.c has it). The records are
 * sorted bytewise with a radix sort, which is the order
 * nftc_delinearize_set_done() gives the IR (stock's: by value), and
 * intervals are folded into [low, high] pairs the way set_fold() folds
 * them. Each element becomes IR again only while it is printed, built
 * with the same constructors the IR path uses, so that the listing is
 * the same.
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "delin_pack.h"
#include "fmt.h"
#include "delin_int.h"
#include "datatype.h"
#include "value.h"

/* Widest key kept packed (an IPv6 address). */
#define PACK_KEY_MAX	16

/**
 * struct delin_pack - a set's packed elements
 * @off: not packed (the set's elements are IR in set->init)
 * @interval: records carry the start/end byte
 * @folded: @v holds [low, high] pairs (after delin_pack_done())
 * @dtype: the keys' type, @order their byte order, @reg_order the
 *	kernel's (network order for a host-order interval key)
 * @len: key width in bits, @kb in bytes
 * @rec: bytes per record
 * @v: @n records (@cap allocated)
 */
struct delin_pack {
	bool			off;
	bool			interval;
	bool			folded;
	bool			small;	/* an anonymous set's few elements */
	const struct datatype	*dtype;
	enum byteorder		order;
	enum byteorder		reg_order;
	unsigned int		len;
	unsigned int		kb;
	unsigned int		rec;
	uint8_t			*v;
	size_t			n;
	size_t			cap;
};

/* The key type a constant of @set's elements takes (as delin_value). */
static const struct datatype *key_dtype(const struct expr *key)
{
	if (!key->dtype || key->dtype == &invalid_type)
		return &integer_type;
	return key->dtype;
}

/*
 * Sets whose elements can be packed: named, no data, one key of whole
 * bytes that sorts as a number (strings sort reversed, flag values by
 * their lowest flag: those stay IR).
 */
static bool set_packable(const struct set *set, bool anon)
{
	const struct expr *k = set->key;
	const struct datatype *dt;

	if (set->flags & (SET_F_MAP | SET_F_OBJECT))
		return false;
	if ((set->flags & SET_F_ANONYMOUS) &&
	    (!anon || (set->flags & SET_F_INTERVAL)))
		return false;
	if (set->data || !k || k->kind == EXPR_CONCAT || !k->len ||
	    k->len % 8 || k->len / 8 > PACK_KEY_MAX)
		return false;
	dt = key_dtype(k);
	return !datatype_is_a(dt, &string_type) &&
	       !datatype_is_a(dt, &bitmask_type);
}

static struct delin_pack *pack_new(const struct set *set, bool anon)
{
	struct delin_pack *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if ((set->init && set->init->size) || !set_packable(set, anon)) {
		p->off = true;
		return p;
	}
	p->small = set->flags & SET_F_ANONYMOUS;
	p->interval = set->flags & SET_F_INTERVAL;
	p->dtype = key_dtype(set->key);
	p->order = set->key->byteorder == BYTEORDER_INVALID ?
		   BYTEORDER_BIG : set->key->byteorder;
	/* as elem_key_value() in delin_set.c: host order kept in network
	 * order by interval sets */
	p->reg_order = p->interval && p->order == BYTEORDER_HOST ?
		       BYTEORDER_BIG : p->order;
	p->len = set->key->len;
	p->kb = p->len / 8;
	p->rec = p->kb + (p->interval ? 1 : 0);
	return p;
}

void delin_pack_free(struct delin_pack *p)
{
	if (!p)
		return;
	free(p->v);
	free(p);
}

/* ------------------------------------------------------------ parsing */

/*
 * Attributes walked inline: a million elements are three million
 * attributes, and a call into libmnl for each step showed in profiles.
 */
#define ATTR_HDR	NLA_ALIGN(sizeof(struct nlattr))

static inline const struct nlattr *attr_first(const struct nlattr *nest,
					      const uint8_t **end)
{
	*end = (const uint8_t *)nest + nest->nla_len;
	return (const struct nlattr *)((const uint8_t *)nest + ATTR_HDR);
}

static inline bool attr_ok(const struct nlattr *a, const uint8_t *end)
{
	return (const uint8_t *)a + sizeof(*a) <= end &&
	       a->nla_len >= sizeof(*a) &&
	       (const uint8_t *)a + a->nla_len <= end;
}

static inline const struct nlattr *attr_next(const struct nlattr *a)
{
	return (const struct nlattr *)((const uint8_t *)a +
				       NLA_ALIGN(a->nla_len));
}

static inline unsigned int attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static inline unsigned int attr_len(const struct nlattr *a)
{
	return a->nla_len - ATTR_HDR;
}

static inline const void *attr_data(const struct nlattr *a)
{
	return (const uint8_t *)a + ATTR_HDR;
}

/*
 * One dumped element: its key (register bytes) and whether it ends an
 * interval; false if it has anything else (or a key of another width).
 */
static bool elem_parse(const struct delin_pack *p, const struct nlattr *el,
		       const uint8_t **key, bool *end)
{
	const struct nlattr *a, *b;
	const uint8_t *ae, *be;
	uint32_t flags;

	*key = NULL;
	*end = false;
	for (a = attr_first(el, &ae); attr_ok(a, ae); a = attr_next(a)) {
		switch (attr_type(a)) {
		case NFTA_SET_ELEM_KEY:
			for (b = attr_first(a, &be); attr_ok(b, be);
			     b = attr_next(b)) {
				if (attr_type(b) != NFTA_DATA_VALUE ||
				    attr_len(b) != p->kb)
					return false;
				*key = attr_data(b);
			}
			break;
		case NFTA_SET_ELEM_FLAGS:
			if (attr_len(a) != sizeof(uint32_t))
				return false;
			memcpy(&flags, attr_data(a), sizeof(flags));
			flags = ntohl(flags);
			if (flags & ~(uint32_t)NFT_SET_ELEM_INTERVAL_END)
				return false;
			*end = flags & NFT_SET_ELEM_INTERVAL_END;
			break;
		default:
			return false;
		}
	}
	return *key && (!*end || p->interval);
}

/* The elements' list of a dump message, or NULL. */
static const struct nlattr *msg_elems(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) == NFTA_SET_ELEM_LIST_ELEMENTS)
			return a;
	}
	return NULL;
}

static int grow(struct delin_pack *p, size_t more)
{
	size_t cap = p->cap ? p->cap : p->small ? 4 : 1024;
	uint8_t *v;

	while (cap < p->n + more)
		cap *= 2;
	if (cap == p->cap)
		return 0;
	v = realloc(p->v, cap * p->rec);
	if (!v)
		return -ENOMEM;
	p->v = v;
	p->cap = cap;
	return 0;
}

static void store(struct delin_pack *p, const uint8_t *key, bool end)
{
	uint8_t *r = p->v + p->n * p->rec;
	unsigned int i;

	/* canonical form (value_from_reg(), whole bytes) */
	if (p->reg_order == BYTEORDER_HOST) {
		for (i = 0; i < p->kb; i++)
			r[p->kb - 1 - i] = key[i];
	} else {
		memcpy(r, key, p->kb);
	}
	if (p->interval)
		r[p->kb] = end ? 0 : 1;
	p->n++;
}

static struct expr *key_expr(const struct delin_pack *p, const uint8_t *b)
{
	struct value v;

	value_init(&v, p->len);
	memcpy(v.data, b, p->kb);
	return constant_expr_alloc(&delin_loc, p->dtype, p->order, p->len, &v);
}

/* Back to IR, in the kernel's order, as delin_elem() makes them. */
static int unpack(struct set *set, struct delin_pack *p)
{
	struct expr *e, *el;
	size_t i;

	if (p->n && !set->init) {
		set->init = list_expr_alloc(&delin_loc, EXPR_SET);
		if (!set->init)
			return -ENOMEM;
	}
	for (i = 0; i < p->n; i++) {
		e = key_expr(p, p->v + i * p->rec);
		if (e && p->interval) {
			el = set_elem_expr_alloc(&delin_loc, e);
			if (el && !p->v[i * p->rec + p->kb])
				el->flags |= EXPR_F_INTERVAL_END;
			e = el;
		}
		if (!e)
			return -ENOMEM;
		list_expr_add(set->init, e);
	}
	free(p->v);
	p->v = NULL;
	p->n = p->cap = 0;
	p->off = true;
	return 0;
}

int delin_pack_unpack(struct set *set)
{
	struct delin_pack *p = set->dpack;

	if (!p || p->off)
		return 0;
	return unpack(set, p);
}

int delin_pack_plain(const struct set *set, unsigned int kb,
		     const uint8_t **v)
{
	const struct delin_pack *p = set->dpack;

	if (!p || p->off || p->interval || p->kb != kb || p->rec != kb ||
	    p->order != BYTEORDER_BIG)
		return -1;
	*v = p->v;
	return p->n;
}

void delin_pack_drop(struct set *set)
{
	struct delin_pack *p = set->dpack;

	if (!p || p->off)
		return;
	free(p->v);
	p->v = NULL;
	p->n = p->cap = 0;
	p->off = true;
}

int delin_pack_msg(struct set *set, const struct nlmsghdr *nlh, bool anon)
{
	struct delin_pack *p = set->dpack;
	const struct nlattr *l, *el;
	const uint8_t *key, *le;
	size_t n0;
	bool end;
	int ret;

	if (!p) {
		p = pack_new(set, anon);
		if (!p)
			return -ENOMEM;
		set->dpack = p;
	}
	if (p->off)
		return 0;
	l = msg_elems(nlh);
	if (!l)
		return 1;
	n0 = p->n;
	for (el = attr_first(l, &le); attr_ok(el, le); el = attr_next(el)) {
		if (attr_type(el) != NFTA_LIST_ELEM ||
		    !elem_parse(p, el, &key, &end)) {
			/* this message is IR, and so are those before */
			p->n = n0;
			ret = unpack(set, p);
			return ret < 0 ? ret : 0;
		}
		if (p->n == p->cap && grow(p, 1) < 0)
			return -ENOMEM;
		store(p, key, end);
	}
	return 1;
}

/* ------------------------------------------------- sorting, intervals */

/* Records sorted bytewise (LSD radix sort: stable, byte by byte). */
/*
 * The same order for the few records of an anonymous set: insertion,
 * stable too. (Radix's 256 counters a byte, cleared and summed, and its
 * buffer cost 4,000 instructions a set of three.)
 */
static void insertion_sort(struct delin_pack *p)
{
	unsigned int rec = p->rec;
	uint8_t r[PACK_KEY_MAX * 2], *v = p->v;
	size_t i, j;

	for (i = 1; i < p->n; i++) {
		if (memcmp(v + (i - 1) * rec, v + i * rec, rec) <= 0)
			continue;
		memcpy(r, v + i * rec, rec);
		for (j = i; j > 0 && memcmp(v + (j - 1) * rec, r, rec) > 0; j--)
			memcpy(v + j * rec, v + (j - 1) * rec, rec);
		memcpy(v + j * rec, r, rec);
	}
}

#define INSERTION_MAX	16

static int radix_sort(struct delin_pack *p)
{
	size_t count[256], i, pos, sum;
	uint8_t *tmp, *src = p->v, *dst, *t;
	unsigned int b, rec = p->rec;

	if (p->n < 2)
		return 0;
	if (p->n <= INSERTION_MAX) {
		insertion_sort(p);
		return 0;
	}
	tmp = malloc(p->n * rec);
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (b = rec; b-- > 0;) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < p->n; i++)
			count[src[i * rec + b]]++;
		if (count[src[b]] == p->n)
			continue;	/* all the same: nothing to move */
		for (sum = 0, i = 0; i < 256; i++) {
			pos = count[i];
			count[i] = sum;
			sum += pos;
		}
		for (i = 0; i < p->n; i++)
			memcpy(dst + count[src[i * rec + b]]++ * rec,
			       src + i * rec, rec);
		t = src;
		src = dst;
		dst = t;
	}
	if (src != p->v)
		memcpy(p->v, src, p->n * rec);
	free(tmp);
	return 0;
}

/*
 * Sorted starts and ends into [low, high] pairs, as set_fold(): a start
 * runs to the next end's key - 1, or to the next start's key - 1, or to
 * the largest value; an end without a start goes.
 */
static int fold(struct delin_pack *p)
{
	unsigned int kb = p->kb, j;
	uint8_t *out, *r, *hi;
	bool open = false;
	size_t i, m = 0;

	out = malloc((p->n + 1) * 2 * kb);
	if (!out)
		return -ENOMEM;
	for (i = 0; i <= p->n; i++) {
		r = i < p->n ? p->v + i * p->rec : NULL;
		if (open) {
			/* the low end is in place: the high one is the
			 * next key - 1 (value_dec()), or all ones */
			hi = out + m * 2 * kb + kb;
			if (r) {
				memcpy(hi, r, kb);
				for (j = kb; j-- > 0;)
					if (hi[j]--)
						break;
			} else {
				memset(hi, 0xff, kb);
			}
			m++;
			open = false;
		}
		if (r && r[kb]) {
			memcpy(out + m * 2 * kb, r, kb);
			open = true;
		}
	}
	free(p->v);
	p->v = out;
	p->n = m;
	p->cap = p->n + 1;
	p->rec = 2 * kb;
	p->folded = true;
	return 0;
}

bool delin_pack_done(struct set *set)
{
	struct delin_pack *p = set->dpack;

	if (!p || p->off)
		return false;
	if (radix_sort(p) < 0 || (p->interval && fold(p) < 0)) {
		/* without memory for sorting: as the IR path would */
		unpack(set, p);
		return false;
	}
	return true;
}

unsigned int delin_pack_count(const struct delin_pack *p)
{
	return p && !p->off ? p->n : 0;
}

/*
 * IPv4 addresses printed straight from their bytes, as the IR would
 * print: ipaddr_type's inet_ntop() text, and for an interval, as
 * print_elem_range() does: one value, a prefix "a/N" (lo aligned to
 * hi - lo + 1, a power of two), or "lo-hi".
 */
bool delin_pack_print(const struct delin_pack *p, unsigned int k, FILE *f)
{
	const uint8_t *r = p->v + (size_t)k * p->rec;
	uint32_t lo, hi, x;
	char buf[40], *s;

	if (p->dtype != &ipaddr_type || p->kb != 4)
		return false;
	s = fmt_ip4(buf, r);
	if (p->interval && p->folded && memcmp(r, r + 4, 4)) {
		lo = (uint32_t)r[0] << 24 | r[1] << 16 | r[2] << 8 | r[3];
		hi = (uint32_t)r[4] << 24 | r[5] << 16 | r[6] << 8 | r[7];
		x = lo ^ hi;
		if (lo < hi && !(lo & x) && !(x & (x + 1))) {
			*s++ = '/';
			s = fmt_u8(s, 32 - __builtin_popcount(x));
		} else {
			*s++ = '-';
			s = fmt_ip4(s, r + 4);
		}
	}
	fwrite(buf, 1, s - buf, f);
	return true;
}

struct expr *delin_pack_elem(const struct delin_pack *p, unsigned int k)
{
	const uint8_t *r = p->v + (size_t)k * p->rec;
	struct expr *lo, *hi, *key, *el;

	if (!p->interval)
		return key_expr(p, r);
	lo = key_expr(p, r);
	if (!lo)
		return NULL;
	if (!p->folded || !memcmp(r, r + p->kb, p->kb)) {
		return set_elem_expr_alloc(&delin_loc, lo);
	}
	hi = key_expr(p, r + p->kb);
	if (!hi) {
		expr_free(lo);
		return NULL;
	}
	key = range_expr_alloc(&delin_loc, lo, hi);
	if (!key)
		return NULL;
	el = set_elem_expr_alloc(&delin_loc, key);	/* frees key if not */
	if (!el)
		return NULL;
	el->flags |= EXPR_F_INTERVAL;
	return el;
}
