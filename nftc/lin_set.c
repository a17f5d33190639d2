// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linearization of sets: the set declaration message and the element
 * messages, with the --debug=netlink text libnftnl prints for them.
 *
 * Element keys are laid out as registers hold them: a value in its key's
 * byte order, concatenation members each padded to 32 bits. Interval
 * sets are expanded into start/end elements for the rbtree backend
 * (interval.c); their host byte order keys are sent big endian, since
 * the rule converts the looked-up value with hton for range lookups.
 */
#include <errno.h>
#include <stddef.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/udata.h>
#include "lin_int.h"
#include "interval.h"
#include "rule.h"
#include "elem_pack.h"
#include "anon_names.h"

#define KEY_BUF_MAX	NFTC_VALUE_MAX

static unsigned int round_up4(unsigned int n)
{
	return (n + 3) & ~3u;
}

/* Non-concatenated interval sets use start/end elements. */
static bool set_uses_segments(const struct set *set)
{
	return (set->flags & SET_F_INTERVAL) && !(set->flags & SET_F_CONCAT) &&
	       set->key->kind != EXPR_CONCAT;
}

/* Width in register bytes of a key or data type expression. */
static unsigned int type_expr_bytes(const struct expr *e)
{
	const struct expr *i;
	unsigned int n = 0;

	if (e->kind != EXPR_CONCAT)
		return BITS_TO_BYTES(e->len);
	list_for_each_entry(i, &e->expressions, list)
		n += round_up4(BITS_TO_BYTES(i->len));
	return n;
}

/* Type id as the kernel stores it: concatenations pack member ids. */
static uint32_t type_expr_id(const struct expr *e)
{
	const struct expr *i;
	uint32_t id = 0;

	if (e->dtype == &verdict_type)
		return NFT_DATA_VERDICT;
	if (e->kind != EXPR_CONCAT)
		return e->dtype->type;
	list_for_each_entry(i, &e->expressions, list)
		id = (id << TYPE_BITS) | i->dtype->type;
	return id;
}

/*
 * Lay out the constant @e (value, or concat of values/ranges) into @buf.
 * @order overrides the value's byte order (interval keys: BIG makes
 * host order members big endian too, as range lookups compare them
 * so), @hi picks the high ends of ranges (the KEY_END of concatenated
 * intervals).
 */
static unsigned int lay_out(const struct expr *e, enum byteorder order,
			    bool hi, uint8_t *buf, unsigned int size)
{
	enum byteorder member = order == BYTEORDER_BIG ? BYTEORDER_BIG :
							 BYTEORDER_INVALID;
	const struct expr *i;
	unsigned int off = 0, n;
	struct value low, high;

	switch (e->kind) {
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->expressions, list) {
			n = round_up4(BITS_TO_BYTES(i->len));
			if (off + n > size)
				return off;
			lay_out(i, member, hi, buf + off, n);
			off += n;
		}
		return off;
	case EXPR_SET_ELEM:
		return lay_out(e->elem.key, order, hi, buf, size);
	case EXPR_VALUE:
		/* its own low and high end, without copying it twice */
		n = BITS_TO_BYTES(e->len ? e->len : e->value.len);
		if (n > size)
			n = size;
		if (order == BYTEORDER_INVALID)
			order = e->byteorder;
		value_to_reg(&e->value, order, buf, n);
		return n;
	case EXPR_RANGE:
	case EXPR_PREFIX:
		if (interval_key_range(e, &low, &high) < 0)
			return 0;
		n = BITS_TO_BYTES(e->len ? e->len : low.len);
		if (n > size)
			n = size;
		if (order == BYTEORDER_INVALID)
			order = e->byteorder;
		value_to_reg(hi ? &high : &low, order, buf, n);
		return n;
	default:
		return 0;
	}
}

/*
 * Byte order element keys of @set are sent in: interval sets compare
 * keys as big endian numbers, so host order keys (and concatenation
 * members) are converted, as the rule converts the looked-up value.
 */
static enum byteorder set_key_order(const struct set *set)
{
	if (set->key->kind == EXPR_CONCAT)
		return set->flags & SET_F_INTERVAL ? BYTEORDER_BIG :
						     BYTEORDER_INVALID;
	if ((set->flags & SET_F_INTERVAL) &&
	    set->key->byteorder == BYTEORDER_HOST)
		return BYTEORDER_BIG;
	return set->key->byteorder;
}

static const char *verdict_chain_name(const struct expr *chain, char *buf,
				      size_t size)
{
	if (!chain)
		return NULL;
	if (chain->kind == EXPR_SYMBOL || chain->kind == EXPR_VARIABLE)
		return chain->sym.identifier;
	if (chain->kind == EXPR_VALUE) {
		size_t n = BITS_TO_BYTES(chain->value.len);

		if (n >= size)
			n = size - 1;
		memcpy(buf, chain->value.data, n);
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

static void elem_set_data(struct lin_elem *le, const struct set *set,
			  const struct expr *data, char *name, size_t size)
{
	uint8_t *buf = le->data;
	unsigned int n;

	if (data->kind == EXPR_VERDICT) {
		le->has_verdict = true;
		le->verdict = data->verdict.verdict;
		le->chain = verdict_chain_name(data->verdict.chain, name, size);
		return;
	}
	if (set->flags & SET_F_OBJECT) {
		le->objref = verdict_chain_name(data, name, size);
		return;
	}
	memset(buf, 0, sizeof(le->data));
	if (data->kind == EXPR_RANGE ||
	    (set->data && (set->data->flags & EXPR_F_INTERVAL) &&
	     data->kind != EXPR_CONCAT)) {
		/* interval data: low and high back to back */
		n = round_up4(BITS_TO_BYTES(data->len));
		if (2 * n > sizeof(le->data))
			n = sizeof(le->data) / 2;
		lay_out(data, BYTEORDER_INVALID, false, buf, n);
		lay_out(data, BYTEORDER_INVALID, true, buf + n, n);
		n *= 2;
	} else {
		n = set->data ? type_expr_bytes(set->data) : 0;
		if (!n || n > sizeof(le->data))
			n = type_expr_bytes(data);
		if (n > sizeof(le->data))
			n = sizeof(le->data);
		lay_out(data, BYTEORDER_INVALID, false, buf, n);
	}
	le->has_data = true;
	le->data_len = n;
}

/* Userdata TLVs of an element, as libnftnl's udata writer lays them out. */
static void elem_set_udata(struct lin_elem *le, const struct expr *elem,
			   uint32_t elem_flags)
{
	struct nftnl_udata_buf *ud;
	uint32_t len;

	if (!(elem && elem->elem.comment) && !elem_flags)
		return;
	ud = nftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);
	if (!ud)
		return;
	if (elem && elem->elem.comment)
		nftnl_udata_put_strz(ud, NFTNL_UDATA_SET_ELEM_COMMENT,
				     elem->elem.comment);
	if (elem_flags)
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_ELEM_FLAGS,
				    elem_flags);
	len = nftnl_udata_buf_len(ud);
	if (len > sizeof(le->udata))
		len = sizeof(le->udata);
	memcpy(le->udata, nftnl_udata_buf_data(ud), len);
	le->udata_len = len;
	nftnl_udata_buf_free(ud);
}

/*
 * Compose one element message into @le. @i is the element (SET_ELEM or
 * MAPPING, NULL for an interval end); @key the key value (segments) or
 * NULL to take it from @i; @open marks a segment running to the largest
 * key. @name holds a verdict's chain or an object's name.
 */
static void elem_compose(struct lin_elem *le, const struct set *set,
			 const struct expr *i, const struct value *key,
			 bool end, bool open, char *name, size_t size)
{
	const struct expr *elem = i ? interval_elem(i) : NULL;
	unsigned int klen = type_expr_bytes(set->key);

	memset(le, 0, offsetof(struct lin_elem, key));
	if (klen > sizeof(le->key))
		klen = sizeof(le->key);
	memset(le->key, 0, sizeof(le->key));
	if (key) {
		value_to_reg(key, set_key_order(set), le->key, klen);
		le->key_len = klen;
	} else if (elem && elem->elem.key) {
		lay_out(elem->elem.key, set_key_order(set), false, le->key,
			klen);
		le->key_len = klen;
		if (set->flags & SET_F_CONCAT) {
			memset(le->key_end, 0, sizeof(le->key_end));
			lay_out(elem->elem.key, set_key_order(set), true,
				le->key_end, klen);
			le->key_end_len = klen;
		}
	} else if (elem) {
		le->flags |= NFT_SET_ELEM_CATCHALL;
	}
	if (end)
		le->flags |= NFT_SET_ELEM_INTERVAL_END;
	if (end || !elem)
		return;

	le->timeout = elem->elem.timeout;
	le->expiration = elem->elem.expiration;
	if (!list_empty(&elem->elem.stmts))
		le->stmts = &elem->elem.stmts;
	elem_set_udata(le, elem, open ? NFTNL_SET_ELEM_F_INTERVAL_OPEN : 0);
	if (i->kind == EXPR_MAPPING && i->pair.right)
		elem_set_data(le, set, i->pair.right, name, size);
}

static int elem_put(struct lin_elems *w, const struct set *set,
		    const struct expr *i, const struct value *key, bool end,
		    bool open)
{
	char name[NFT_CHAIN_MAXNAMELEN];
	struct lin_elem le;

	elem_compose(&le, set, i, key, end, open, name, sizeof(name));
	return lin_elems_put(w, &le);
}

/*
 * Whether element @i is nothing but its key: elem_compose() would set
 * no flags, timeouts, statements, user data or data, so
 * lin_elems_put_key() writes the same bytes.
 */
static bool elem_is_bare(const struct expr *i)
{
	return i && i->kind == EXPR_SET_ELEM && !i->elem.timeout &&
	       !i->elem.expiration && !i->elem.comment &&
	       list_empty(&i->elem.stmts);
}

/* ... and its key a constant, no concatenation (no KEY_END either). */
static bool elem_is_bare_key(const struct set *set, const struct expr *i)
{
	return elem_is_bare(i) && i->elem.key &&
	       i->elem.key->kind == EXPR_VALUE && !(set->flags & SET_F_CONCAT);
}

struct segments {
	struct lin_elems	*w;
	const struct set	*set;
};

static int segment_put(void *priv, const struct interval_point *p)
{
	const struct segments *sg = priv;
	uint8_t key[NFT_DATA_VALUE_MAXLEN];
	unsigned int klen;

	/* an end, or a start that is only its key: no struct lin_elem */
	if (!sg->w->ref && (p->end || (!p->open && elem_is_bare(p->elem)))) {
		klen = type_expr_bytes(sg->set->key);
		if (klen && klen <= sizeof(key)) {
			value_to_reg(&p->key, set_key_order(sg->set), key,
				     klen);
			return lin_elems_put_key(sg->w, p->end ?
						 NFT_SET_ELEM_INTERVAL_END : 0,
						 key, klen);
		}
	}
	return elem_put(sg->w, sg->set, p->end ? NULL : p->elem, &p->key,
			p->end, p->open);
}

/* The packed ranges of @set (elem_pack.h), sorted, for interval_points(). */
struct packed_ranges {
	const struct elem_pack	*pack;
	unsigned int		k;
	unsigned int		n;
	struct expr		elem;
};

static bool packed_next(void *priv, struct value *low, struct value *high,
			const struct expr **elem)
{
	struct packed_ranges *it = priv;

	if (it->k == it->n)
		return false;
	elem_pack_range(it->pack, it->k++, low, high);
	*elem = &it->elem;
	return true;
}

static int elems_add_segments(struct lin_elems *w, const struct set *set,
			      const struct expr *elems)
{
	struct segments sg = { .w = w, .set = set };
	struct packed_ranges it;
	const struct expr *i;
	unsigned int flags = 0;
	int ret;

	if (set_is_anonymous(set))
		flags |= INTERVAL_F_ANONYMOUS | INTERVAL_F_FIRST;
	else if (elems == set->init || (elems->set_flags & SET_F_ELEM_FIRST))
		flags |= INTERVAL_F_FIRST;
	if (elems == set->init && set->pack &&
	    elem_pack_has_ranges(set->pack)) {
		/* every element is packed: set->init holds none */
		memset(&it, 0, sizeof(it));
		it.pack = set->pack;
		it.n = elem_pack_count(set->pack);
		init_list_head(&it.elem.list);
		init_list_head(&it.elem.elem.stmts);
		it.elem.kind = EXPR_SET_ELEM;
		it.elem.elem.key = &it.elem;
		ret = interval_points(packed_next, &it, flags, segment_put, &sg);
		return ret < 0 ? (ret == -1 ? -ENOMEM : ret) : 0;
	}
	ret = interval_expand_each(elems, flags, segment_put, &sg);
	if (ret < 0)
		return ret == -1 ? -ENOMEM : ret;
	/* catch-all elements follow the ranges */
	list_for_each_entry(i, &elems->expressions, list) {
		if (interval_elem(i)->elem.key || (i->flags & EXPR_F_EXISTING))
			continue;
		ret = elem_put(w, set, i, NULL, false, false);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int elems_add_plain(struct lin_elems *w, const struct set *set,
			   const struct expr *elems)
{
	unsigned int klen = type_expr_bytes(set->key);
	enum byteorder order = set_key_order(set);
	uint8_t key[NFT_DATA_VALUE_MAXLEN];
	const struct expr *i;
	int ret;

	if (klen > sizeof(key))
		klen = sizeof(key);
	list_for_each_entry(i, &elems->expressions, list) {
		if ((i->kind != EXPR_SET_ELEM && i->kind != EXPR_MAPPING) ||
		    (i->flags & EXPR_F_EXISTING))
			continue;
		if (!w->ref && klen && elem_is_bare_key(set, i)) {
			memset(key, 0, klen);
			lay_out(i->elem.key, order, false, key, klen);
			ret = lin_elems_put_key(w, 0, key, klen);
		} else {
			ret = elem_put(w, set, i, NULL, false, false);
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The packed keys @pack (elem_pack.h), after the elements of the list. */
static int elems_add_packed(struct lin_elems *w, const struct set *set,
			    const struct elem_pack *pack)
{
	unsigned int k, n = elem_pack_count(pack);
	struct expr key, elem;
	int ret;

	memset(&elem, 0, sizeof(elem));
	init_list_head(&elem.list);
	init_list_head(&elem.elem.stmts);
	elem.kind = EXPR_SET_ELEM;
	elem.elem.key = &key;
	for (k = 0; k < n; k++) {
		elem_pack_key(pack, k, &key);
		ret = elem_put(w, set, &elem, NULL, false, false);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void debug_print_set(FILE *out, const struct nftnl_set *nls)
{
	if (!out)
		return;
	nftnl_set_fprintf(out, nls, NFTNL_OUTPUT_DEFAULT, 0);
	fputc('\n', out);
}

static const char *set_name(const struct set *set)
{
	if (set->handle.set.name)
		return set->handle.set.name;
	return set_is_map(set) ? "__map%d" : "__set%d";
}

/**
 * lin_set_elems_packed - element messages for @elems of @set and then
 * the packed keys @pack (NULL: none) of an element command
 * @op: CMD_ADD/CMD_CREATE (NFT_MSG_NEWSETELEM) or CMD_DELETE/CMD_DESTROY
 *
 * Written straight into @batch (lin_elem.c); nothing when no element is
 * left to send. Returns 0 or a negative errno (-EPROTO: with
 * --debug=netlink, the messages differ from libnftnl's).
 */
int lin_set_elems_packed(struct nftc_ctx *nft, struct nftc_batch *batch,
			 const struct set *set, const struct expr *elems,
			 const struct elem_pack *pack, uint32_t family,
			 enum cmd_ops op, FILE *debug_out)
{
	uint16_t type = NFT_MSG_NEWSETELEM, flags = NLM_F_CREATE;
	struct lin_elems w;
	int ret;

	if (elems && elems == set->init)
		pack = set->pack;
	if (!elems || (list_empty(&elems->expressions) && !pack))
		return 0;
	switch (op) {
	case CMD_DELETE:
		type = NFT_MSG_DELSETELEM;
		flags = 0;
		break;
	case CMD_DESTROY:
#ifdef NFT_MSG_DESTROYSETELEM
		type = NFT_MSG_DESTROYSETELEM;
#else
		type = NFT_MSG_DELSETELEM;
#endif
		flags = 0;
		break;
	case CMD_CREATE:
		flags |= NLM_F_EXCL;
		break;
	default:
		break;
	}
	ret = lin_elems_init(&w, batch, type, flags, family,
			     set->handle.table.name, set_name(set),
			     set->handle.set_id,
			     nft->debug & NFTC_DEBUG_NETLINK);
	/* packed elements exist once evaluated: never drop them */
	if (ret == 0 && pack && elem_pack_is_raw(pack))
		ret = -EINVAL;
	if (ret == 0) {
		if (set_uses_segments(set))
			ret = elems_add_segments(&w, set, elems);
		else
			ret = elems_add_plain(&w, set, elems);
		if (ret == 0 && pack && !elem_pack_has_ranges(pack))
			ret = elems_add_packed(&w, set, pack);
	}
	if (ret == 0)
		ret = lin_elems_finish(&w, nft->debug & NFTC_DEBUG_NETLINK ?
					   debug_out : NULL);
	lin_elems_release(&w);
	if (ret == -EPROTO)
		erec_error(&nft->erq, &set->location,
			   "Could not process rule: element message of set "
			   "%s differs from libnftnl's", set_name(set));
	return ret;
}

/**
 * lin_set_elems - element messages for @elems of @set (with set->pack's
 * keys when @elems is set->init)
 */
int lin_set_elems(struct nftc_ctx *nft, struct nftc_batch *batch,
		  const struct set *set, const struct expr *elems,
		  uint32_t family, enum cmd_ops op, FILE *debug_out)
{
	return lin_set_elems_packed(nft, batch, set, elems, NULL, family, op,
				    debug_out);
}

/* Number of elements the kernel must make room for (anonymous sets). */
static uint32_t set_desc_size(const struct set *set)
{
	const struct expr *i;
	struct value low, high;
	uint32_t n = 0;
	bool first = true;

	if (!set->init)
		return 0;
	if (!set_uses_segments(set))
		return set->init->size ? set->init->size :
			list_count(&set->init->expressions);
	/* stock reserves a start and an end per range, plus the zero end */
	list_for_each_entry(i, &set->init->expressions, list) {
		const struct expr *key = interval_elem(i)->elem.key;

		if (!key || interval_key_range(key, &low, &high) < 0) {
			n++;
			continue;
		}
		if (first && !value_is_zero(&low))
			n++;
		first = false;
		n += 2;
	}
	return n;
}

static void set_add_concat_desc(struct lin_set_decl *d, const struct set *set)
{
	const struct expr *i;

	d->nfields = 0;
	if (set->key->kind != EXPR_CONCAT || !(set->flags & SET_F_INTERVAL))
		return;
	list_for_each_entry(i, &set->key->expressions, list) {
		if (d->nfields == NFT_REG32_COUNT)
			break;
		d->field_len[d->nfields++] = BITS_TO_BYTES(i->len);
	}
}

static bool set_has_stmts(const struct set *set)
{
	const struct stmt *s;

	list_for_each_entry(s, &set->stmts, list) {
		if (s->kind == STMT_COUNTER)
			return true;
	}
	return false;
}

static int set_add_stmts(struct nftnl_set *nls, const struct set *set)
{
	const struct stmt *s;
	struct nftnl_expr *e;

	list_for_each_entry(s, &set->stmts, list) {
		if (s->kind != STMT_COUNTER)
			continue;
		e = nftnl_expr_alloc("counter");
		if (!e)
			return -ENOMEM;
		nftnl_set_add_expr(nls, e);
	}
	return 0;
}

/* Map data width: none for verdicts, low and high for interval data. */
static uint32_t data_len(const struct set *set)
{
	unsigned int n = type_expr_bytes(set->data);

	if (set->data->dtype == &verdict_type)
		return 0;
	if ((set->data->flags & EXPR_F_INTERVAL) &&
	    set->data->kind != EXPR_CONCAT)
		return round_up4(n) * 2;
	return n;
}

static void set_compose(struct lin_set_decl *d, const struct set *set)
{
	d->table = set->handle.table.name;
	d->name = set_name(set);
	d->flags = set->flags & 0xffff;
	d->key_type = type_expr_id(set->key);
	d->key_len = type_expr_bytes(set->key);
	d->has_data = set_is_map(set) && set->data;
	if (d->has_data) {
		d->data_type = type_expr_id(set->data);
		d->data_len = data_len(set);
	}
	d->has_obj = set->flags & SET_F_OBJECT;
	d->obj_type = set->objtype;
	d->set_id = set->handle.set_id;
	d->timeout = set->timeout;
	d->gc_int = set->gc_int;
	d->policy = set->policy;
	d->size = set->size;
	if (!d->size && set_is_anonymous(set))
		d->size = set_desc_size(set);
	set_add_concat_desc(d, set);
	lin_set_udata(&d->ud, set);
}

/*
 * Stock prints the (empty) element batch of an anonymous set without
 * elements (meters) as it prints any element batch.
 */
static void debug_print_empty_elems(FILE *out, const struct set *set)
{
	struct nftnl_set *nls = nftnl_set_alloc();

	if (!nls)
		return;
	nftnl_set_set_str(nls, NFTNL_SET_TABLE, set->handle.table.name);
	nftnl_set_set_str(nls, NFTNL_SET_NAME, set_name(set));
	debug_print_set(out, nls);
	nftnl_set_free(nls);
}

/**
 * lin_anon_set_name - name anonymous @set as the kernel would
 *
 * With nft->anon_names (a streamed batch: anon_names.h), "__set%d" and
 * "__map%d" become the name the kernel would pick, which the set's
 * messages and the rule's lookup then carry. Otherwise, or when the
 * table's names cannot be known, the set keeps its format. Returns 0
 * or -ENOMEM.
 */
int lin_anon_set_name(struct nftc_ctx *nft, struct set *set, uint32_t family)
{
	const char *fmt = set->handle.set.name;
	bool map;
	char buf[32], *name;

	if (!nft->anon_names || !set_is_anonymous(set) || !fmt ||
	    !strchr(fmt, '%'))
		return 0;
	map = !strncmp(fmt, "__map", 5);
	if (anon_names_peek(nft->anon_names, family, set->handle.table.name,
			    map, 0, buf, sizeof(buf)) < 0)
		return 0;
	name = strdup(buf);
	if (!name)
		return -ENOMEM;
	anon_names_take(nft->anon_names, family, set->handle.table.name, map,
			1);
	free(set->handle.set.name);
	set->handle.set.name = name;
	return 0;
}

/* NEWSET's flags: a name we chose must be new (anon_names.h) */
static uint16_t set_add_flags(const struct set *set)
{
	if (set_is_anonymous(set) && set->handle.set.name &&
	    !strchr(set->handle.set.name, '%') && !(set->flags & SET_F_EVAL))
		return NLM_F_CREATE | NLM_F_EXCL;
	return NLM_F_CREATE;
}

/**
 * lin_set_add - the NEWSET message of @set
 *
 * The caller follows it with lin_set_elems(set->init). Anonymous sets
 * are emitted by the rule that uses them, just before it; named sets by
 * their declaration command. Returns 0 or negative errno.
 */
int lin_set_add(struct nftc_ctx *nft, struct nftc_batch *batch,
		const struct set *set, uint32_t family, FILE *debug_out)
{
	bool debug = nft->debug & NFTC_DEBUG_NETLINK;
	struct nftnl_set *nls = NULL;
	struct lin_set_decl d;
	struct nlmsghdr *nlh;
	bool direct;
	int ret = 0;

	if (!set->key)
		return -EINVAL;
	memset(&d, 0, offsetof(struct lin_set_decl, ud));
	set_compose(&d, set);
	direct = lin_set_decl_direct(&d) && !set_has_stmts(set);
	if (debug || !direct) {
		nls = lin_set_decl_object(&d, family);
		if (!nls || set_add_stmts(nls, set) < 0) {
			if (nls)
				nftnl_set_free(nls);
			return -ENOMEM;
		}
		if (debug)
			debug_print_set(debug_out, nls);
	}
	if (direct) {
		nlh = batch_obj_begin(batch, NFT_MSG_NEWSET,
				      set_add_flags(set), family);
		if (!nlh)
			ret = -ENOMEM;
		if (nlh) {
			lin_set_decl_put(nlh, &d);
			/* --debug=netlink: the bytes must be libnftnl's */
			if (nls)
				ret = lin_set_decl_check(nlh, nls);
			if (ret == 0)
				ret = batch_obj_end(batch, nlh);
		}
	} else {
		ret = batch_add_set(batch, NFT_MSG_NEWSET, set_add_flags(set),
				    family, nls);
	}
	if (nls)
		nftnl_set_free(nls);
	if (ret == -EPROTO)
		erec_error(&nft->erq, &set->location,
			   "Could not process rule: set message of %s differs "
			   "from libnftnl's", set_name(set));
	if (ret == 0 && set_is_anonymous(set) && !set->init && debug)
		debug_print_empty_elems(debug_out, set);
	return ret;
}
