// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A set's dump message read in place.
 *
 * Listing 20,000 anonymous sets through libnftnl's set object (its
 * allocation, a copy of each attribute, its getters, its free) cost
 * more than the rest of reading them: here the attributes a plain set
 * declaration has are read straight from the message into struct
 * delin_set_attrs, as libnftnl's getters give them, and anything else
 * (expressions, concatenation field lengths, attributes not known
 * here, lengths libnftnl would refuse) leaves the message to libnftnl.
 */
#include <config.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "delin_int.h"
#include "rule.h"

/* How a known attribute is read (its payload length checked). */
enum sa_kind {
	SA_OTHER,	/* not read here: libnftnl's */
	SA_IGNORE,	/* not read by libnftnl either */
	SA_STR,
	SA_U32,
	SA_U64,
	SA_DATA,
	SA_DESC,
};

static const enum sa_kind sa_kinds[NFTA_SET_MAX + 1] = {
	[NFTA_SET_TABLE]	= SA_STR,
	[NFTA_SET_NAME]		= SA_STR,
	[NFTA_SET_FLAGS]	= SA_U32,
	[NFTA_SET_KEY_TYPE]	= SA_U32,
	[NFTA_SET_KEY_LEN]	= SA_U32,
	[NFTA_SET_DATA_TYPE]	= SA_U32,
	[NFTA_SET_DATA_LEN]	= SA_U32,
	[NFTA_SET_POLICY]	= SA_U32,
	[NFTA_SET_DESC]		= SA_DESC,
	[NFTA_SET_ID]		= SA_U32,
	[NFTA_SET_TIMEOUT]	= SA_U64,
	[NFTA_SET_GC_INTERVAL]	= SA_U32,
	[NFTA_SET_USERDATA]	= SA_DATA,
	[NFTA_SET_HANDLE]	= SA_U64,
	[NFTA_SET_OBJ_TYPE]	= SA_U32,
	[NFTA_SET_PAD]		= SA_IGNORE,
};

static uint32_t na_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, dx_payload(a), sizeof(v));
	return be32toh(v);
}

static uint64_t na_u64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, dx_payload(a), sizeof(v));
	return be64toh(v);
}

/* The payload of @a checked for its kind: false if libnftnl's. */
static bool sa_ok(const struct nlattr *a, enum sa_kind kind)
{
	uint16_t len = dx_payload_len(a);

	switch (kind) {
	case SA_STR:
		return len && !((const char *)dx_payload(a))[len - 1];
	case SA_U32:
		return len == sizeof(uint32_t);
	case SA_U64:
		return len == sizeof(uint64_t);
	case SA_DATA:
	case SA_IGNORE:
		return true;
	case SA_DESC:
	case SA_OTHER:
		break;
	}
	return false;
}

/* NFTA_SET_DESC with its size alone (concatenations are libnftnl's). */
static bool desc_read(const struct nlattr *desc, struct delin_set_attrs *s)
{
	const struct nlattr *a;

	na_foreach_nested(a, desc) {
		if (na_type(a) != NFTA_SET_DESC_SIZE ||
		    !sa_ok(a, SA_U32))
			return false;
		s->size = na_u32(a);
	}
	return true;
}

static bool attr_read(const struct nlattr *a, struct delin_set_attrs *s)
{
	uint16_t type = na_type(a);
	/* libnftnl skips attributes newer than its headers (a 6.x
	 * kernel's NFTA_SET_TYPE, the backend's name) */
	enum sa_kind kind = type <= NFTA_SET_MAX ? sa_kinds[type] : SA_IGNORE;

	if (kind == SA_DESC)
		return desc_read(a, s);
	if (!sa_ok(a, kind))
		return false;
	switch (type) {
	case NFTA_SET_TABLE:
		s->table = dx_payload(a);
		break;
	case NFTA_SET_NAME:
		s->name = dx_payload(a);
		break;
	case NFTA_SET_FLAGS:
		s->flags = na_u32(a);
		break;
	case NFTA_SET_KEY_TYPE:
		s->key_type = na_u32(a);
		break;
	case NFTA_SET_KEY_LEN:
		s->key_len = na_u32(a);
		break;
	case NFTA_SET_DATA_TYPE:
		s->has_data_type = true;
		s->data_type = na_u32(a);
		break;
	case NFTA_SET_DATA_LEN:
		s->data_len = na_u32(a);
		break;
	case NFTA_SET_POLICY:
		s->policy = na_u32(a);
		break;
	case NFTA_SET_ID:
		s->has_id = true;
		s->id = na_u32(a);
		break;
	case NFTA_SET_TIMEOUT:
		s->timeout = na_u64(a);
		break;
	case NFTA_SET_GC_INTERVAL:
		s->gc_int = na_u32(a);
		break;
	case NFTA_SET_USERDATA:
		s->udata = dx_payload(a);
		s->udata_len = dx_payload_len(a);
		break;
	case NFTA_SET_HANDLE:
		s->has_handle = true;
		s->handle = na_u64(a);
		break;
	case NFTA_SET_OBJ_TYPE:
		s->obj_type = na_u32(a);
		break;
	}
	return true;
}

struct set *delin_set_msg(const struct nlmsghdr *nlh, bool *other)
{
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	struct delin_set_attrs s = { 0 };
	const struct nlattr *a;
	const char *start;

	*other = true;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*g)))
		return NULL;
	start = (const char *)g + NLMSG_ALIGN(sizeof(*g));
	s.family = g->nfgen_family;
	na_foreach(a, start, end) {
		if (!attr_read(a, &s))
			return NULL;
	}
	*other = false;
	return delin_set_from(&s);
}
