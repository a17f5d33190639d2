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

#define KEY_BUF_MAX	NFTC_VALUE_MAX

static unsigned int round_up4(unsigned int n)
{
	return (n + 3) & ~3u;
}

static bool set_is_anonymous(const struct set *set)
{
	return set->flags & SET_F_ANONYMOUS;
}

static bool set_is_map(const struct set *set)
{
	return set->flags & SET_F_MAP;
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

struct segments {
	struct lin_elems	*w;
	const struct set	*set;
};

static int segment_put(void *priv, const struct interval_point *p)
{
	const struct segments *sg = priv;

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
	const struct expr *i;
	int ret;

	list_for_each_entry(i, &elems->expressions, list) {
		if ((i->kind != EXPR_SET_ELEM && i->kind != EXPR_MAPPING) ||
		    (i->flags & EXPR_F_EXISTING))
			continue;
		ret = elem_put(w, set, i, NULL, false, false);
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

/*
 * "typeof" expressions in set userdata, as stock nft writes them so it
 * lists the set with its typeof: a nest holding stock's expression type
 * number and a nest of that expression's own attributes. Only the
 * expressions stock knows how to describe there are written.
 */
enum {
	UD_TYPEOF_VERDICT	= 1,	/* stock's expression type numbers */
	UD_TYPEOF_PAYLOAD	= 7,
	UD_TYPEOF_META		= 9,
	UD_TYPEOF_CT		= 12,
	UD_TYPEOF_CONCAT	= 13,
};

enum {
	UD_PAYLOAD_DESC,
	UD_PAYLOAD_TYPE,
	UD_PAYLOAD_BASE,
	UD_PAYLOAD_OFFSET,
	UD_PAYLOAD_LEN,
};

static int typeof_id(const struct expr *e)
{
	switch (e->kind) {
	case EXPR_VERDICT:
		return UD_TYPEOF_VERDICT;
	case EXPR_PAYLOAD:
		return e->payload.is_raw || (e->payload.desc &&
		       e->payload.desc->id <= PROTO_DESC_ETHER &&
		       e->payload.tmpl) ? UD_TYPEOF_PAYLOAD : -1;
	case EXPR_META:
		return UD_TYPEOF_META;
	case EXPR_CT:
		return UD_TYPEOF_CT;
	default:
		return -1;
	}
}

/* The attributes of one (non concat) typeof expression. */
static void typeof_put_data(struct nftnl_udata_buf *ud, const struct expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case EXPR_PAYLOAD:
		if (e->payload.is_raw) {
			nftnl_udata_put_u32(ud, UD_PAYLOAD_DESC, 0);
			nftnl_udata_put_u32(ud, UD_PAYLOAD_TYPE, 0);
			nftnl_udata_put_u32(ud, UD_PAYLOAD_BASE,
					    e->payload.base);
			nftnl_udata_put_u32(ud, UD_PAYLOAD_OFFSET,
					    e->payload.offset);
			nftnl_udata_put_u32(ud, UD_PAYLOAD_LEN, e->len);
			break;
		}
		nftnl_udata_put_u32(ud, UD_PAYLOAD_DESC, e->payload.desc->id);
		nftnl_udata_put_u32(ud, UD_PAYLOAD_TYPE,
				    e->payload.tmpl - e->payload.desc->templates);
		break;
	case EXPR_META:
		nftnl_udata_put_u32(ud, 0, e->meta.key);
		break;
	case EXPR_CT:
		nftnl_udata_put_u32(ud, 0, e->ct.key);
		nftnl_udata_put_u32(ud, 1, (uint32_t)(int32_t)e->ct.direction);
		break;
	default:
		break;
	}
}

static void typeof_put_one(struct nftnl_udata_buf *ud, const struct expr *e,
			   int id)
{
	struct nftnl_udata *nest;

	nftnl_udata_put_u32(ud, 0, id);
	nest = nftnl_udata_nest_start(ud, 1);
	typeof_put_data(ud, e);
	nftnl_udata_nest_end(ud, nest);
}

/* Write @e under @attr; nothing when stock could not read it back. */
static void typeof_put(struct nftnl_udata_buf *ud, unsigned int attr,
		       const struct expr *e)
{
	struct nftnl_udata *top, *data, *member;
	const struct expr *i;
	unsigned int k = 0;

	if (e->kind == EXPR_VALUE)
		return;
	if (e->kind != EXPR_CONCAT) {
		if (typeof_id(e) < 0)
			return;
		top = nftnl_udata_nest_start(ud, attr);
		typeof_put_one(ud, e, typeof_id(e));
		nftnl_udata_nest_end(ud, top);
		return;
	}
	list_for_each_entry(i, &e->expressions, list) {
		if (i->kind != EXPR_VALUE && typeof_id(i) < 0)
			return;
	}
	top = nftnl_udata_nest_start(ud, attr);
	nftnl_udata_put_u32(ud, 0, UD_TYPEOF_CONCAT);
	data = nftnl_udata_nest_start(ud, 1);
	/* members of "type a . b" are plain types: stock writes none */
	list_for_each_entry(i, &e->expressions, list) {
		if (i->kind == EXPR_VALUE)
			break;
		member = nftnl_udata_nest_start(ud, k++);
		typeof_put_one(ud, i, typeof_id(i));
		nftnl_udata_nest_end(ud, member);
	}
	nftnl_udata_nest_end(ud, data);
	nftnl_udata_nest_end(ud, top);
}

static void typeof_put_verdict(struct nftnl_udata_buf *ud)
{
	struct nftnl_udata *top = nftnl_udata_nest_start(ud,
					NFTNL_UDATA_SET_DATA_TYPEOF);

	typeof_put_one(ud, NULL, UD_TYPEOF_VERDICT);
	nftnl_udata_nest_end(ud, top);
}

/*
 * Byte order recorded in the set's userdata for @e. Strings are kept
 * as the bytes they are in memory, which we call big endian (no swap)
 * and stock calls host order: it reads a "big endian" string key back
 * byte-swapped, so record what stock records.
 */
static uint32_t udata_byteorder(const struct expr *e)
{
	if (e->dtype && datatype_is_a(e->dtype, &string_type))
		return BYTEORDER_HOST;
	return e->byteorder;
}

static void set_add_udata(struct nftnl_set *nls, const struct set *set)
{
	struct nftnl_udata_buf *ud;
	uint32_t order;

	ud = nftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);
	if (!ud)
		return;
	order = set->key->kind == EXPR_CONCAT ? BYTEORDER_INVALID :
						 udata_byteorder(set->key);
	nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_KEYBYTEORDER, order);
	if (set_is_map(set) && set->data) {
		order = set->data->kind == EXPR_CONCAT ||
			set->data->dtype == &verdict_type ?
			BYTEORDER_INVALID : udata_byteorder(set->data);
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_DATABYTEORDER, order);
	}
	if (set->automerge)
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_MERGE_ELEMENTS, 1);
	/*
	 * Stock describes no key of an anonymous map (the lookup in the
	 * rule gives it) and of map data only verdicts.
	 */
	if (!(set_is_anonymous(set) && set_is_map(set)))
		typeof_put(ud, NFTNL_UDATA_SET_KEY_TYPEOF, set->key);
	if (set_is_map(set) && set->data) {
		if (!set_is_anonymous(set))
			typeof_put(ud, NFTNL_UDATA_SET_DATA_TYPEOF, set->data);
		else if (set->data->dtype == &verdict_type)
			typeof_put_verdict(ud);
	}
	if (set_is_map(set))
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_DATA_INTERVAL,
				    set->data && (set->data->flags &
						  EXPR_F_INTERVAL) ? 1 : 0);
	if (set->comment)
		nftnl_udata_put_strz(ud, NFTNL_UDATA_SET_COMMENT,
				     set->comment);
	nftnl_set_set_data(nls, NFTNL_SET_USERDATA, nftnl_udata_buf_data(ud),
			   nftnl_udata_buf_len(ud));
	nftnl_udata_buf_free(ud);
}

static void set_add_concat_desc(struct nftnl_set *nls, const struct set *set)
{
	uint8_t field_len[NFT_REG32_COUNT];
	const struct expr *i;
	unsigned int n = 0;

	if (set->key->kind != EXPR_CONCAT || !(set->flags & SET_F_INTERVAL))
		return;
	list_for_each_entry(i, &set->key->expressions, list) {
		if (n == NFT_REG32_COUNT)
			break;
		field_len[n++] = BITS_TO_BYTES(i->len);
	}
	nftnl_set_set_data(nls, NFTNL_SET_DESC_CONCAT, field_len, n);
}

static void set_add_stmts(struct nftnl_set *nls, const struct set *set)
{
	const struct stmt *s;
	struct nftnl_expr *e;

	list_for_each_entry(s, &set->stmts, list) {
		if (s->kind != STMT_COUNTER)
			continue;
		e = nftnl_expr_alloc("counter");
		if (!e)
			return;
		nftnl_set_add_expr(nls, e);
	}
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

static struct nftnl_set *set_build(const struct set *set, uint32_t family)
{
	struct nftnl_set *nls = nftnl_set_alloc();
	uint32_t size;

	if (!nls)
		return NULL;
	nftnl_set_set_str(nls, NFTNL_SET_TABLE, set->handle.table.name);
	nftnl_set_set_str(nls, NFTNL_SET_NAME, set_name(set));
	nftnl_set_set_u32(nls, NFTNL_SET_FAMILY, family);
	nftnl_set_set_u32(nls, NFTNL_SET_FLAGS, set->flags & 0xffff);
	nftnl_set_set_u32(nls, NFTNL_SET_KEY_TYPE, type_expr_id(set->key));
	nftnl_set_set_u32(nls, NFTNL_SET_KEY_LEN, type_expr_bytes(set->key));
	if (set_is_map(set) && set->data) {
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_TYPE,
				  type_expr_id(set->data));
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_LEN, data_len(set));
	}
	if (set->flags & SET_F_OBJECT)
		nftnl_set_set_u32(nls, NFTNL_SET_OBJ_TYPE, set->objtype);
	if (set->handle.set_id)
		nftnl_set_set_u32(nls, NFTNL_SET_ID, set->handle.set_id);
	if (set->timeout)
		nftnl_set_set_u64(nls, NFTNL_SET_TIMEOUT, set->timeout);
	if (set->gc_int)
		nftnl_set_set_u32(nls, NFTNL_SET_GC_INTERVAL, set->gc_int);
	if (set->policy)
		nftnl_set_set_u32(nls, NFTNL_SET_POLICY, set->policy);
	size = set->size;
	if (!size && set_is_anonymous(set))
		size = set_desc_size(set);
	if (size)
		nftnl_set_set_u32(nls, NFTNL_SET_DESC_SIZE, size);
	set_add_concat_desc(nls, set);
	set_add_stmts(nls, set);
	set_add_udata(nls, set);
	return nls;
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
 * lin_set_add - the NEWSET message of @set
 *
 * The caller follows it with lin_set_elems(set->init). Anonymous sets
 * are emitted by the rule that uses them, just before it; named sets by
 * their declaration command. Returns 0 or negative errno.
 */
int lin_set_add(struct nftc_ctx *nft, struct nftc_batch *batch,
		const struct set *set, uint32_t family, FILE *debug_out)
{
	struct nftnl_set *nls;
	int ret;

	if (!set->key)
		return -EINVAL;
	nls = set_build(set, family);
	if (!nls)
		return -ENOMEM;
	if (nft->debug & NFTC_DEBUG_NETLINK)
		debug_print_set(debug_out, nls);
	ret = batch_add_set(batch, NFT_MSG_NEWSET, NLM_F_CREATE, family, nls);
	nftnl_set_free(nls);
	if (ret == 0 && set_is_anonymous(set) && !set->init &&
	    (nft->debug & NFTC_DEBUG_NETLINK))
		debug_print_empty_elems(debug_out, set);
	return ret;
}
