// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set element messages, written straight into the batch.
 *
 * lin_set.c composes each element (struct lin_elem, on the stack) and
 * hands it here; it is written as the attributes libnftnl writes for
 * the same nftnl_set_elem, in the same order, and nothing of it is kept.
 * A million elements then cost their wire size (some 20 bytes each)
 * instead of a million libnftnl objects.
 *
 * The messages are laid out as stock nft 1.0.6 lays them out (with
 * libnftnl's element encoder): the table's name, the set's name and id,
 * then one NFTA_SET_ELEM_LIST_ELEMENTS nest whose members are numbered
 * on from 1 across the command's messages; an element that would take
 * the nest past 64 KiB is cut and goes, numbered anew, into the next
 * message, which keeps the sequence number of the first.
 *
 * --debug=netlink: every element also becomes a libnftnl object, on a
 * set printed as stock prints it (which shows a cut element twice) and
 * on a reference set from which the messages are built again with
 * libnftnl's encoder, in stock's loop: they must be the bytes written
 * here (lin_elems_finish), so the conformance corpus checks the direct
 * encoder on every element it compiles.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "lin_int.h"
#include "stmt.h"

/* Largest message libnftnl builds for one element list, with slack. */
#define ELEM_MSG_MAX	(UINT16_MAX + 8192)

static void put_u64(struct nlmsghdr *nlh, uint16_t type, uint64_t v)
{
	uint64_t be = htobe64(v);

	nlw_put(nlh, type, sizeof(be), &be);
}

static void put_data(struct nlmsghdr *nlh, uint16_t type, const void *buf,
		     unsigned int len)
{
	struct nlattr *nest = nlw_nest_start(nlh, type);

	nlw_put(nlh, NFTA_DATA_VALUE, len, buf);
	nlw_nest_end(nlh, nest);
}

/* The element's counters, as libnftnl nests one or several. */
static int put_stmts(struct nlmsghdr *nlh, const struct list_head *stmts)
{
	struct nlattr *outer, *inner;
	const struct stmt *s;
	struct nftnl_expr *e;
	unsigned int n = 0;

	list_for_each_entry(s, stmts, list)
		if (s->kind == STMT_COUNTER)
			n++;
	if (!n)
		return 0;
	outer = nlw_nest_start(nlh, n == 1 ? NFTA_SET_ELEM_EXPR :
					     NFTA_SET_ELEM_EXPRESSIONS);
	list_for_each_entry(s, stmts, list) {
		if (s->kind != STMT_COUNTER)
			continue;
		e = nftnl_expr_alloc("counter");
		if (!e)
			return -ENOMEM;
		nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_PACKETS,
				   s->counter.packets);
		nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_BYTES, s->counter.bytes);
		inner = n > 1 ? nlw_nest_start(nlh, NFTA_LIST_ELEM) : NULL;
		nftnl_expr_build_payload(nlh, e);
		if (inner)
			nlw_nest_end(nlh, inner);
		nftnl_expr_free(e);
	}
	nlw_nest_end(nlh, outer);
	return 0;
}

/* The attributes of @e, in nftnl_set_elem_nlmsg_build_payload()'s order. */
static int put_elem(struct nlmsghdr *nlh, const struct lin_elem *e)
{
	struct nlattr *data, *verdict;

	if (e->flags)
		nlw_put_u32(nlh, NFTA_SET_ELEM_FLAGS, htonl(e->flags));
	if (e->timeout)
		put_u64(nlh, NFTA_SET_ELEM_TIMEOUT, e->timeout);
	if (e->expiration)
		put_u64(nlh, NFTA_SET_ELEM_EXPIRATION, e->expiration);
	if (e->key_len)
		put_data(nlh, NFTA_SET_ELEM_KEY, e->key, e->key_len);
	if (e->key_end_len)
		put_data(nlh, NFTA_SET_ELEM_KEY_END, e->key_end,
			 e->key_end_len);
	if (e->has_verdict) {
		data = nlw_nest_start(nlh, NFTA_SET_ELEM_DATA);
		verdict = nlw_nest_start(nlh, NFTA_DATA_VERDICT);
		nlw_put_u32(nlh, NFTA_VERDICT_CODE, htonl(e->verdict));
		if (e->chain)
			nlw_put_strz(nlh, NFTA_VERDICT_CHAIN, e->chain);
		nlw_nest_end(nlh, verdict);
		nlw_nest_end(nlh, data);
	}
	if (e->has_data)
		put_data(nlh, NFTA_SET_ELEM_DATA, e->data, e->data_len);
	if (e->udata_len)
		nlw_put(nlh, NFTA_SET_ELEM_USERDATA, e->udata_len,
			     e->udata);
	if (e->objref)
		nlw_put_strz(nlh, NFTA_SET_ELEM_OBJREF, e->objref);
	return e->stmts ? put_stmts(nlh, e->stmts) : 0;
}

/* @e as a libnftnl object, for the --debug=netlink reference set. */
static struct nftnl_set_elem *elem_object(const struct lin_elem *e)
{
	struct nftnl_set_elem *ne = nftnl_set_elem_alloc();
	const struct stmt *s;
	struct nftnl_expr *x;

	if (!ne)
		return NULL;
	if (e->key_len)
		nftnl_set_elem_set(ne, NFTNL_SET_ELEM_KEY, e->key, e->key_len);
	if (e->key_end_len)
		nftnl_set_elem_set(ne, NFTNL_SET_ELEM_KEY_END, e->key_end,
				   e->key_end_len);
	if (e->flags)
		nftnl_set_elem_set_u32(ne, NFTNL_SET_ELEM_FLAGS, e->flags);
	if (e->timeout)
		nftnl_set_elem_set_u64(ne, NFTNL_SET_ELEM_TIMEOUT, e->timeout);
	if (e->expiration)
		nftnl_set_elem_set_u64(ne, NFTNL_SET_ELEM_EXPIRATION,
				       e->expiration);
	if (e->stmts) {
		list_for_each_entry(s, e->stmts, list) {
			if (s->kind != STMT_COUNTER)
				continue;
			x = nftnl_expr_alloc("counter");
			if (!x)
				goto err;
			nftnl_expr_set_u64(x, NFTNL_EXPR_CTR_PACKETS,
					   s->counter.packets);
			nftnl_expr_set_u64(x, NFTNL_EXPR_CTR_BYTES,
					   s->counter.bytes);
			nftnl_set_elem_add_expr(ne, x);
		}
	}
	if (e->udata_len)
		nftnl_set_elem_set(ne, NFTNL_SET_ELEM_USERDATA, e->udata,
				   e->udata_len);
	if (e->has_verdict) {
		nftnl_set_elem_set_u32(ne, NFTNL_SET_ELEM_VERDICT, e->verdict);
		if (e->chain)
			nftnl_set_elem_set_str(ne, NFTNL_SET_ELEM_CHAIN,
					       e->chain);
	}
	if (e->objref)
		nftnl_set_elem_set_str(ne, NFTNL_SET_ELEM_OBJREF, e->objref);
	if (e->has_data)
		nftnl_set_elem_set(ne, NFTNL_SET_ELEM_DATA, e->data,
				   e->data_len);
	return ne;
err:
	nftnl_set_elem_free(ne);
	return NULL;
}

/**
 * lin_elems_init - start the element messages of one command
 * @type: NFT_MSG_NEWSETELEM / NFT_MSG_DELSETELEM / ...
 * @flags: NLM_F_* of every message
 * @table: @name: @set_id: the set (@set_id 0: none)
 * @debug: keep the sets for --debug=netlink
 *
 * No message is started before the first element. Returns 0 or -ENOMEM.
 */
int lin_elems_init(struct lin_elems *w, struct nftc_batch *batch,
		   uint16_t type, uint16_t flags, uint32_t family,
		   const char *table, const char *name, uint32_t set_id,
		   bool debug)
{
	struct nftnl_set **sets[] = { &w->ref, &w->prn };
	unsigned int i;

	memset(w, 0, sizeof(*w));
	w->batch = batch;
	w->type = type;
	w->flags = flags;
	w->family = family;
	w->table = table;
	w->name = name;
	w->set_id = set_id;
	if (!debug)
		return 0;
	for (i = 0; i < 2; i++) {
		*sets[i] = nftnl_set_alloc();
		if (!*sets[i])
			return -ENOMEM;
		nftnl_set_set_str(*sets[i], NFTNL_SET_TABLE, table);
		nftnl_set_set_str(*sets[i], NFTNL_SET_NAME, name);
		if (set_id)
			nftnl_set_set_u32(*sets[i], NFTNL_SET_ID, set_id);
	}
	return 0;
}

/* The attributes before the elements, in stock's order. */
static struct nlattr *put_list_start(struct nlmsghdr *nlh,
				     const struct lin_elems *w)
{
	nlw_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, w->table);
	nlw_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, w->name);
	if (w->set_id)
		nlw_put_u32(nlh, NFTA_SET_ELEM_LIST_SET_ID,
				 htonl(w->set_id));
	return nlw_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
}

static int msg_open(struct lin_elems *w)
{
	struct nlmsghdr *nlh;

	if (w->nmsgs)
		nlh = batch_obj_begin_cont(w->batch, w->type, w->flags,
					   w->family);
	else
		nlh = batch_obj_begin(w->batch, w->type, w->flags, w->family);
	if (!nlh)
		return -ENOMEM;
	if (w->ref && w->nmsgs == w->msgs_cap) {
		unsigned int cap = w->msgs_cap ? w->msgs_cap * 2 : 8;
		struct nlmsghdr **m = realloc(w->msgs, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		w->msgs = m;
		w->msgs_cap = cap;
	}
	w->list = put_list_start(nlh, w);
	w->nlh = nlh;
	return 0;
}

static int msg_close(struct lin_elems *w)
{
	struct nlmsghdr *nlh = w->nlh;
	int ret;

	if (!nlh)
		return 0;
	nlw_nest_end(nlh, w->list);
	w->nlh = NULL;
	if (w->nmsgs)
		ret = batch_obj_end_cont(w->batch, nlh);
	else
		ret = batch_obj_end(w->batch, nlh);
	if (ret == 0 && w->ref)
		w->msgs[w->nmsgs] = nlh;
	if (ret == 0)
		w->nmsgs++;
	return ret;
}

/* How one element's attributes are written: put_elem() or put_key(). */
typedef int (*elem_put_fn)(struct nlmsghdr *nlh, const void *arg);

static int put_lin_elem(struct nlmsghdr *nlh, const void *arg)
{
	return put_elem(nlh, arg);
}

/*
 * Write an element (@put with @arg) as the next member of the open
 * message's element list; 1 if it took the list past 64 KiB: then it is
 * cut off again.
 */
static int elem_write(struct lin_elems *w, elem_put_fn put, const void *arg)
{
	struct nlattr *nest = nlw_nest_start(w->nlh, ++w->idx);
	int ret = put(w->nlh, arg);

	nlw_nest_end(w->nlh, nest);
	if (ret < 0)
		return ret;
	if ((char *)nest + nest->nla_len - (char *)w->list > UINT16_MAX) {
		w->nlh->nlmsg_len -= nest->nla_len;
		return 1;
	}
	return 0;
}

/* Append an element; 1: it was cut and went into a new message. */
static int elems_append(struct lin_elems *w, elem_put_fn put,
			const void *arg)
{
	int ret;

	if (!w->nlh && (ret = msg_open(w)) < 0)
		return ret;
	ret = elem_write(w, put, arg);
	if (ret > 0) {
		/* the list is full: the element opens the next message */
		ret = msg_close(w);
		if (ret == 0)
			ret = msg_open(w);
		if (ret == 0)
			ret = elem_write(w, put, arg) > 0 ? -EMSGSIZE : 1;
	}
	if (ret < 0)
		return ret;
	w->count++;
	return ret;
}

/* --debug=netlink: @e on the printed set (@times times) and the reference. */
static int elem_debug(struct lin_elems *w, const struct lin_elem *e,
		      unsigned int times)
{
	struct nftnl_set_elem *ne;
	unsigned int i;

	for (i = 0; i <= times; i++) {
		ne = elem_object(e);
		if (!ne)
			return -ENOMEM;
		nftnl_set_elem_add(i < times ? w->prn : w->ref, ne);
	}
	return 0;
}

/**
 * lin_elems_put - append element @e
 *
 * Returns 0 or a negative errno.
 */
int lin_elems_put(struct lin_elems *w, const struct lin_elem *e)
{
	int ret = elems_append(w, put_lin_elem, e);

	if (ret < 0)
		return ret;
	return w->ref ? elem_debug(w, e, ret > 0 ? 2 : 1) : 0;
}

struct key_arg {
	uint32_t	flags;
	const uint8_t	*key;
	unsigned int	len;
};

static int put_key(struct nlmsghdr *nlh, const void *arg)
{
	const struct key_arg *k = arg;

	if (k->flags)
		nlw_put_u32(nlh, NFTA_SET_ELEM_FLAGS, htonl(k->flags));
	put_data(nlh, NFTA_SET_ELEM_KEY, k->key, k->len);
	return 0;
}

/**
 * lin_elems_put_key - append an element that is only its key (@len
 * bytes of @key, @len > 0) and @flags (0: none; the end of an interval):
 * the bytes lin_elems_put() writes for a struct lin_elem with nothing
 * else set, without composing one (the elements of most anonymous sets)
 *
 * Not with --debug=netlink (lin_elems.ref): that keeps every element as
 * a libnftnl object, from a struct lin_elem. Returns 0 or a negative
 * errno.
 */
int lin_elems_put_key(struct lin_elems *w, uint32_t flags,
		      const uint8_t *key, unsigned int len)
{
	struct key_arg k = { .flags = flags, .key = key, .len = len };
	int ret;

	if (w->ref)
		return -EINVAL;
	ret = elems_append(w, put_key, &k);
	return ret < 0 ? ret : 0;
}

/* Compare the reference message in @ref with the @k-th one written. */
static int check_msg(struct lin_elems *w, unsigned int k,
		     const struct nlmsghdr *ref)
{
	const struct nlmsghdr *nlh;

	if (k >= w->nmsgs)
		return -EPROTO;
	nlh = w->msgs[k];
	return ref->nlmsg_len == nlh->nlmsg_len &&
	       !memcmp(ref, nlh, nlh->nlmsg_len) ? 0 : -EPROTO;
}

static struct nlmsghdr *ref_open(struct lin_elems *w, char *buf,
				 struct nlattr **list)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, ELEM_MSG_MAX);
	nlh = nftnl_nlmsg_build_hdr(buf, w->type, w->family, w->flags,
				    w->msgs[0]->nlmsg_seq);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, w->table);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, w->name);
	if (w->set_id)
		mnl_attr_put_u32(nlh, NFTA_SET_ELEM_LIST_SET_ID,
				 htonl(w->set_id));
	*list = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	return nlh;
}

/*
 * The messages written must be what stock's loop writes for the
 * reference set with libnftnl's element encoder, message by message.
 */
static int check_bytes(struct lin_elems *w)
{
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;
	struct nlattr *list, *nest;
	struct nlmsghdr *nlh;
	unsigned int k = 0, i = 0;
	char *buf;
	int ret = 0;

	buf = malloc(ELEM_MSG_MAX);
	it = buf ? nftnl_set_elems_iter_create(w->ref) : NULL;
	if (!it) {
		free(buf);
		return -ENOMEM;
	}
	nlh = ref_open(w, buf, &list);
	e = nftnl_set_elems_iter_next(it);
	while (e && ret == 0) {
		nest = nftnl_set_elem_nlmsg_build(nlh, e, ++i);
		if ((char *)nest + nest->nla_len - (char *)list > UINT16_MAX) {
			nlh->nlmsg_len -= nest->nla_len;
			mnl_attr_nest_end(nlh, list);
			ret = check_msg(w, k++, nlh);
			nlh = ref_open(w, buf, &list);
			continue;
		}
		e = nftnl_set_elems_iter_next(it);
	}
	if (ret == 0) {
		mnl_attr_nest_end(nlh, list);
		ret = check_msg(w, k++, nlh);
	}
	if (ret == 0 && k != w->nmsgs)
		ret = -EPROTO;
	nftnl_set_elems_iter_destroy(it);
	free(buf);
	return ret;
}

/**
 * lin_elems_finish - close the last message; with --debug=netlink print
 * the elements (when there were any) to @debug_out and check the bytes
 *
 * Returns 0, -EPROTO if the messages differ from libnftnl's, or another
 * negative errno.
 */
int lin_elems_finish(struct lin_elems *w, FILE *debug_out)
{
	int ret = msg_close(w);

	if (ret < 0 || !w->ref || !w->count)
		return ret;
	if (debug_out) {
		nftnl_set_fprintf(debug_out, w->prn, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', debug_out);
	}
	return check_bytes(w);
}

/**
 * lin_elems_release - free what lin_elems_init() and the debug check took
 */
void lin_elems_release(struct lin_elems *w)
{
	if (w->ref)
		nftnl_set_free(w->ref);
	if (w->prn)
		nftnl_set_free(w->prn);
	free(w->msgs);
	w->ref = w->prn = NULL;
	w->msgs = NULL;
}
