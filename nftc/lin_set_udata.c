// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The user data of a set declaration (NFTA_SET_USERDATA): what stock nft
 * records there so it can list the set as it was written. Composed as
 * TLVs (struct lin_ud, lin_set_msg.c) for the declaration lin_set.c
 * builds.
 */
#include <libnftnl/udata.h>
#include "lin_int.h"
#include "rule.h"

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
static void typeof_put_data(struct lin_ud *ud, const struct expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case EXPR_PAYLOAD:
		if (e->payload.is_raw) {
			lin_ud_put_u32(ud, UD_PAYLOAD_DESC, 0);
			lin_ud_put_u32(ud, UD_PAYLOAD_TYPE, 0);
			lin_ud_put_u32(ud, UD_PAYLOAD_BASE,
					    e->payload.base);
			lin_ud_put_u32(ud, UD_PAYLOAD_OFFSET,
					    e->payload.offset);
			lin_ud_put_u32(ud, UD_PAYLOAD_LEN, e->len);
			break;
		}
		lin_ud_put_u32(ud, UD_PAYLOAD_DESC, e->payload.desc->id);
		lin_ud_put_u32(ud, UD_PAYLOAD_TYPE,
				    e->payload.tmpl - e->payload.desc->templates);
		break;
	case EXPR_META:
		lin_ud_put_u32(ud, 0, e->meta.key);
		break;
	case EXPR_CT:
		lin_ud_put_u32(ud, 0, e->ct.key);
		lin_ud_put_u32(ud, 1, (uint32_t)(int32_t)e->ct.direction);
		break;
	default:
		break;
	}
}

static void typeof_put_one(struct lin_ud *ud, const struct expr *e,
			   int id)
{
	unsigned int nest;

	lin_ud_put_u32(ud, 0, id);
	nest = lin_ud_nest_start(ud, 1);
	typeof_put_data(ud, e);
	lin_ud_nest_end(ud, nest);
}

/* Write @e under @attr; nothing when stock could not read it back. */
static void typeof_put_nest(struct lin_ud *ud, unsigned int attr,
			    const struct expr *e)
{
	unsigned int top, data, member;
	const struct expr *i;
	unsigned int k = 0;

	if (e->kind == EXPR_VALUE)
		return;
	if (e->kind != EXPR_CONCAT) {
		if (typeof_id(e) < 0)
			return;
		top = lin_ud_nest_start(ud, attr);
		typeof_put_one(ud, e, typeof_id(e));
		lin_ud_nest_end(ud, top);
		return;
	}
	list_for_each_entry(i, &e->expressions, list) {
		if (i->kind != EXPR_VALUE && typeof_id(i) < 0)
			return;
	}
	top = lin_ud_nest_start(ud, attr);
	lin_ud_put_u32(ud, 0, UD_TYPEOF_CONCAT);
	data = lin_ud_nest_start(ud, 1);
	/* members of "type a . b" are plain types: stock writes none */
	list_for_each_entry(i, &e->expressions, list) {
		if (i->kind == EXPR_VALUE)
			break;
		member = lin_ud_nest_start(ud, k++);
		typeof_put_one(ud, i, typeof_id(i));
		lin_ud_nest_end(ud, member);
	}
	lin_ud_nest_end(ud, data);
	lin_ud_nest_end(ud, top);
}

/*
 * The same, left out whole if it does not fit the user data (a long
 * concatenation): the kernel does not need it, stock then lists the
 * set's types instead of its typeof.
 */
static void typeof_put(struct lin_ud *ud, unsigned int attr,
		       const struct expr *e)
{
	unsigned int at = ud->len;
	bool full = ud->full;

	ud->full = false;
	typeof_put_nest(ud, attr, e);
	if (ud->full)
		ud->len = at;
	ud->full |= full;
}

static void typeof_put_verdict(struct lin_ud *ud)
{
	unsigned int top = lin_ud_nest_start(ud,
					     NFTNL_UDATA_SET_DATA_TYPEOF);

	typeof_put_one(ud, NULL, UD_TYPEOF_VERDICT);
	lin_ud_nest_end(ud, top);
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

/**
 * lin_set_udata - the user data of @set's declaration into @ud, as stock
 * nft writes it (byte orders, auto-merge, typeof descriptions, whether
 * map data are intervals, the comment)
 */
void lin_set_udata(struct lin_ud *ud, const struct set *set)
{
	uint32_t order;

	ud->len = 0;
	ud->full = false;
	order = set->key->kind == EXPR_CONCAT ? BYTEORDER_INVALID :
						 udata_byteorder(set->key);
	lin_ud_put_u32(ud, NFTNL_UDATA_SET_KEYBYTEORDER, order);
	if (set_is_map(set) && set->data) {
		order = set->data->kind == EXPR_CONCAT ||
			set->data->dtype == &verdict_type ?
			BYTEORDER_INVALID : udata_byteorder(set->data);
		lin_ud_put_u32(ud, NFTNL_UDATA_SET_DATABYTEORDER, order);
	}
	if (set->automerge)
		lin_ud_put_u32(ud, NFTNL_UDATA_SET_MERGE_ELEMENTS, 1);
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
		lin_ud_put_u32(ud, NFTNL_UDATA_SET_DATA_INTERVAL,
			       set->data && (set->data->flags &
					     EXPR_F_INTERVAL) ? 1 : 0);
	if (set->comment)
		lin_ud_put_strz(ud, NFTNL_UDATA_SET_COMMENT, set->comment);
}
