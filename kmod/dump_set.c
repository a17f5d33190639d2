// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFT_MSG_GETSETELEM: the elements of one set, as the kernel dumps them.
 * A dump answers NEWSETELEM messages (table, set, a nest of elements) of
 * at most NFTVM_ELEM_MSG_MAX bytes each, at least one even for an empty
 * set, then NLMSG_DONE.  Interval sets list their boundaries in
 * descending key order, as the kernel's red-black tree walks them, sets
 * of small keys in its bitmap's order; the catch-all element comes last.
 */
#include "nftvm_int.h"

/* NLMSG_GOODSIZE on a 4k-page machine: what one kernel dump skb holds */
#define NFTVM_ELEM_MSG_MAX	(4096 * 2 - 320)

static const struct nftvm_nla_policy
nftvm_get_elem_policy[NFTA_SET_ELEM_MAX + 1] = {
	[NFTA_SET_ELEM_KEY]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_SET_ELEM_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_SET_ELEM_KEY_END]	= { .type = NFTVM_NLA_NESTED },
};

static void nftvm_dump_words(struct nftvm_nlbuf *b, __u16 attr,
			     const __u32 *words, unsigned int len)
{
	struct nftvm_data d;

	nftvm_memset(&d, 0, sizeof(d));
	nftvm_memcpy(d.data, words, len);
	nftvm_data_dump(b, attr, &d, NFT_DATA_VALUE, len);
}

static void nftvm_fill_elem(struct nftvm_nlbuf *b, const struct nftvm_set *s,
			    const struct nftvm_elem *e, __u64 now)
{
	struct nlattr *nest;
	struct nftvm_data d;

	nest = nftvm_nla_nest_start(b, NFTA_LIST_ELEM);
	if (!(e->flags & NFT_SET_ELEM_CATCHALL))
		nftvm_dump_words(b, NFTA_SET_ELEM_KEY, nftvm_elem_key(e),
				 s->klen);
	if (e->has_key_end)
		nftvm_dump_words(b, NFTA_SET_ELEM_KEY_END,
				 nftvm_elem_key_end(s, e), s->klen);
	if ((s->flags & NFT_SET_MAP) &&
	    !(e->flags & NFT_SET_ELEM_INTERVAL_END)) {
		if (s->dtype == NFT_DATA_VERDICT) {
			nftvm_memset(&d, 0, sizeof(d));
			d.verdict = e->verdict;
			nftvm_data_dump(b, NFTA_SET_ELEM_DATA, &d,
					NFT_DATA_VERDICT, 0);
		} else {
			nftvm_dump_words(b, NFTA_SET_ELEM_DATA,
					 nftvm_elem_data(s, e), s->dlen);
		}
	}
	if (e->obj)
		nftvm_nla_put_str(b, NFTA_SET_ELEM_OBJREF, e->obj->name);
	if (e->flags)
		nftvm_nla_put_be32(b, NFTA_SET_ELEM_FLAGS, e->flags);
	/* the kernel keeps (and dumps) only a timeout the set's differs from */
	if (e->timeout && e->timeout / NFTVM_NSEC_PER_MSEC != s->timeout)
		nftvm_nla_put_be64(b, NFTA_SET_ELEM_TIMEOUT,
				   e->timeout / NFTVM_NSEC_PER_MSEC);
	/* and, for every element with a timeout, the time left */
	if (e->timeout)
		nftvm_nla_put_be64(b, NFTA_SET_ELEM_EXPIRATION,
				   e->expires > now ? (e->expires - now) /
				   NFTVM_NSEC_PER_MSEC : 0);
	if (e->udata)
		nftvm_nla_put(b, NFTA_SET_ELEM_USERDATA, e->udata, e->udlen);
	nftvm_nla_nest_end(b, nest);
}

/**
 * struct nftvm_elem_dump - a NEWSETELEM message being filled
 * @nlh:	the open message, NULL before the first
 * @elems:	its NFTA_SET_ELEM_LIST_ELEMENTS nest
 * @count:	elements in it
 */
struct nftvm_elem_dump {
	struct nftvm_dump	*d;
	const struct nftvm_set	*set;
	struct nlmsghdr		*nlh;
	struct nlattr		*elems;
	unsigned int		count;
};

static void nftvm_elem_msg_open(struct nftvm_elem_dump *ed, __u16 flags)
{
	struct nftvm_dump *d = ed->d;

	ed->nlh = nftvm_dump_msg_start(d, NFT_MSG_NEWSETELEM, flags,
				       ed->set->table->family);
	nftvm_nla_put_str(&d->b, NFTA_SET_ELEM_LIST_TABLE,
			  ed->set->table->name);
	nftvm_nla_put_str(&d->b, NFTA_SET_ELEM_LIST_SET, ed->set->name);
	ed->elems = nftvm_nla_nest_start(&d->b, NFTA_SET_ELEM_LIST_ELEMENTS);
	ed->count = 0;
}

static int nftvm_elem_msg_close(struct nftvm_elem_dump *ed)
{
	nftvm_nla_nest_end(&ed->d->b, ed->elems);
	return nftvm_dump_msg_end(ed->d, ed->nlh);
}

/* Add @e, starting a new message when the current one is full. */
static int nftvm_elem_msg_add(struct nftvm_elem_dump *ed,
			      const struct nftvm_elem *e)
{
	struct nftvm_nlbuf *b = &ed->d->b;
	size_t mark = b->len;
	int err;

	nftvm_fill_elem(b, ed->set, e, ed->d->vm->now);
	if (!b->overflow && b->len <= NFTVM_ELEM_MSG_MAX)
		goto added;
	if (!ed->count)
		return -NFTVM_ENOSPC;	/* one element does not fit */
	b->len = mark;
	b->overflow = false;
	err = nftvm_elem_msg_close(ed);
	if (err < 0)
		return err;
	nftvm_elem_msg_open(ed, NLM_F_MULTI);
	nftvm_fill_elem(b, ed->set, e, ed->d->vm->now);
	if (b->overflow)
		return -NFTVM_ENOSPC;
added:
	ed->count++;
	return 0;
}

/*
 * Sets of 1- and 2-byte keys live in the kernel's bitmap backend, which
 * walks them by the key read as a host-order integer; user space shows
 * ties between equal-ranking elements in that order, so keep it.
 */
static bool nftvm_set_is_bitmap(const struct nftvm_set *s)
{
	return s->klen <= 2 &&
	       !(s->flags & (NFT_SET_INTERVAL | NFT_SET_MAP | NFT_SET_OBJECT |
			     NFT_SET_TIMEOUT | NFT_SET_EVAL));
}

static __u32 nftvm_bitmap_index(const struct nftvm_set *s,
				const struct nftvm_elem *e)
{
	__u16 k16;

	if (s->klen == 1)
		return *(const __u8 *)nftvm_elem_key(e);
	nftvm_memcpy(&k16, nftvm_elem_key(e), 2);
	return k16;
}

/* Shell sort by bitmap index: no libc in the VM core. */
static void nftvm_sort_bitmap(const struct nftvm_set *s,
			      struct nftvm_elem **v, unsigned int n)
{
	struct nftvm_elem *tmp;
	unsigned int gap, i, j;

	for (gap = n / 2; gap > 0; gap /= 2)
		for (i = gap; i < n; i++) {
			tmp = v[i];
			for (j = i; j >= gap &&
			     nftvm_bitmap_index(s, v[j - gap]) >
			     nftvm_bitmap_index(s, tmp); j -= gap)
				v[j] = v[j - gap];
			v[j] = tmp;
		}
}

static int nftvm_dump_elems(struct nftvm_dump *d, const struct nftvm_set *s)
{
	struct nftvm_elem_dump ed = { .d = d, .set = s };
	bool rev = s->flags & NFT_SET_INTERVAL;
	struct nftvm_elem **v;
	int i, n = nftvm_set_elems(s, &v);
	int err = 0;

	if (n < 0)
		return n;
	if (n && nftvm_set_is_bitmap(s))
		nftvm_sort_bitmap(s, v, n);
	nftvm_elem_msg_open(&ed, NLM_F_MULTI);
	/* the kernel dumps no expired element, collected or not */
	for (i = 0; i < n && !err; i++)
		if (!nftvm_elem_expired(v[rev ? n - 1 - i : i], d->vm->now))
			err = nftvm_elem_msg_add(&ed, v[rev ? n - 1 - i : i]);
	nftvm_free(v);
	if (!err && s->catchall &&
	    !nftvm_elem_expired(s->catchall, d->vm->now))
		err = nftvm_elem_msg_add(&ed, s->catchall);
	if (!err)
		err = nftvm_elem_msg_close(&ed);
	return err;
}

/* Single get: the element equal to each one the request names. */
static int nftvm_get_elem(struct nftvm_dump *d, const struct nftvm_set *s,
			  const struct nlattr *nest)
{
	struct nftvm_data_desc desc = {
		.type = NFT_DATA_VALUE, .len = s->klen,
		.size = NFTVM_DATA_MAXLEN,
	};
	const struct nlattr *tb[NFTA_SET_ELEM_MAX + 1];
	struct nftvm_elem_dump ed = { .d = d, .set = s };
	struct nftvm_elem *tmpl, *e = NULL;
	struct nftvm_data key;
	int err;

	err = nftvm_nla_parse_nested(&d->ctx, tb, NFTA_SET_ELEM_MAX,
				     nftvm_get_elem_policy, nest);
	if (err < 0)
		return err;
	tmpl = nftvm_elem_alloc(s);
	if (!tmpl)
		return -NFTVM_ENOMEM;
	if (tb[NFTA_SET_ELEM_FLAGS])
		tmpl->flags = nftvm_nla_be32(tb[NFTA_SET_ELEM_FLAGS]);
	if (tmpl->flags & NFT_SET_ELEM_CATCHALL) {
		e = s->catchall;
	} else if (tb[NFTA_SET_ELEM_KEY]) {
		err = nftvm_data_init(&d->ctx, &key, &desc,
				      tb[NFTA_SET_ELEM_KEY]);
		if (err == 0) {
			nftvm_memcpy(nftvm_elem_key(tmpl), key.data,
				     nftvm_set_kwords(s) * 4);
			e = s->type->find(s, tmpl);
		}
	} else {
		err = nftvm_fail(&d->ctx, nest, -NFTVM_EINVAL);
	}
	nftvm_elem_free(s, tmpl);
	if (err < 0)
		return err;
	if (!e)
		return nftvm_fail(&d->ctx, nest, -NFTVM_ENOENT);
	nftvm_elem_msg_open(&ed, 0);
	err = nftvm_elem_msg_add(&ed, e);
	return err < 0 ? err : nftvm_elem_msg_close(&ed);
}

int nftvm_getsetelem(struct nftvm_dump *d, const struct nlattr **tb)
{
	const struct nlattr *pos;
	struct nftvm_table *t;
	struct nftvm_set *s;
	int rem, err;

	if (!tb[NFTA_SET_ELEM_LIST_TABLE] || !tb[NFTA_SET_ELEM_LIST_SET])
		return -NFTVM_EINVAL;
	t = nftvm_table_lookup(d->vm, tb[NFTA_SET_ELEM_LIST_TABLE], d->family);
	if (!t)
		return nftvm_fail(&d->ctx, tb[NFTA_SET_ELEM_LIST_TABLE],
				  -NFTVM_ENOENT);
	s = nftvm_set_find_attr(t, tb[NFTA_SET_ELEM_LIST_SET]);
	if (!s)
		return nftvm_fail(&d->ctx, tb[NFTA_SET_ELEM_LIST_SET],
				  -NFTVM_ENOENT);
	if ((d->nlflags & NLM_F_DUMP) == NLM_F_DUMP) {
		err = nftvm_dump_elems(d, s);
		return err < 0 ? err : nftvm_dump_done(d);
	}
	if (!tb[NFTA_SET_ELEM_LIST_ELEMENTS])
		return -NFTVM_EINVAL;
	nftvm_nla_for_each_nested(pos, tb[NFTA_SET_ELEM_LIST_ELEMENTS], rem) {
		err = nftvm_get_elem(d, s, pos);
		if (err < 0)
			return err;
	}
	return 0;
}
