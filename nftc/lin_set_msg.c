// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The set declaration message (NFT_MSG_NEWSET), written straight into
 * the batch.
 *
 * lin_set.c composes the declaration (struct lin_set_decl, on the stack)
 * from the IR; it is written here as the attributes libnftnl writes for
 * the same nftnl_set (nftnl_set_nlmsg_build_payload()), in the same
 * order, user data included: its TLVs are laid out as libnftnl's udata
 * writer lays them out (a type byte, a length byte, the value; a nest is
 * a TLV whose value is the TLVs after it). A rule with an anonymous set
 * declares one, and the libnftnl object (allocation, a setter call per
 * attribute, a udata buffer, the serialisation, the free) cost more than
 * the rest of the rule.
 *
 * The same declaration still becomes a libnftnl object where one is
 * needed: sets with statements (their expressions are libnftnl's) and
 * --debug=netlink, which prints it and requires the bytes written here
 * to be libnftnl's serialisation of it (lin_set_decl_check), so the
 * conformance corpus checks this writer on every set it compiles;
 * unit/check_lin_set_msg.c does so on random declarations.
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

/* ------------------------------------------------------------ user data */

/* @u's TLV of @type with @len bytes of @value; false (nothing) if full. */
bool lin_ud_put(struct lin_ud *u, uint8_t type, unsigned int len,
		const void *value)
{
	if (len > UINT8_MAX || u->len + 2 + len > sizeof(u->buf)) {
		u->full = true;
		return false;
	}
	u->buf[u->len] = type;
	u->buf[u->len + 1] = len;
	if (len)
		memcpy(u->buf + u->len + 2, value, len);
	u->len += 2 + len;
	return true;
}

/* As nftnl_udata_put_u32(): the value in host byte order. */
bool lin_ud_put_u32(struct lin_ud *u, uint8_t type, uint32_t v)
{
	return lin_ud_put(u, type, sizeof(v), &v);
}

bool lin_ud_put_strz(struct lin_ud *u, uint8_t type, const char *s)
{
	return lin_ud_put(u, type, strlen(s) + 1, s);
}

/* Offset of the nest's TLV, for lin_ud_nest_end(). */
unsigned int lin_ud_nest_start(struct lin_ud *u, uint8_t type)
{
	unsigned int at = u->len;

	lin_ud_put(u, type, 0, NULL);
	return at;
}

void lin_ud_nest_end(struct lin_ud *u, unsigned int at)
{
	unsigned int len = u->len - at - 2;

	if (at + 2 <= u->len)
		u->buf[at + 1] = len > UINT8_MAX ? UINT8_MAX : len;
	if (len > UINT8_MAX)
		u->full = true;
}

/* ------------------------------------------------------------ message */

static bool name_ok(const char *s)
{
	return s && strlen(s) < 4096;
}

/*
 * Whether lin_set_decl_put() can write @d: it writes no statements, and
 * names must fit the room the batch keeps for a message.
 */
bool lin_set_decl_direct(const struct lin_set_decl *d)
{
	return name_ok(d->table) && name_ok(d->name);
}

static void put_u64(struct nlmsghdr *nlh, uint16_t type, uint64_t v)
{
	uint64_t be = htobe64(v);

	nlw_put(nlh, type, sizeof(be), &be);
}

/* NFTA_SET_DESC { SIZE, CONCAT { ELEM { FIELD_LEN } ... } } */
static void put_desc(struct nlmsghdr *nlh, const struct lin_set_decl *d)
{
	struct nlattr *desc, *concat, *field;
	unsigned int i;

	if (!d->size && !d->nfields)
		return;
	desc = nlw_nest_start(nlh, NFTA_SET_DESC);
	if (d->size)
		nlw_put_u32(nlh, NFTA_SET_DESC_SIZE, htonl(d->size));
	if (d->nfields) {
		concat = nlw_nest_start(nlh, NFTA_SET_DESC_CONCAT);
		for (i = 0; i < d->nfields; i++) {
			field = nlw_nest_start(nlh, NFTA_LIST_ELEM);
			nlw_put_u32(nlh, NFTA_SET_FIELD_LEN,
				    htonl(d->field_len[i]));
			nlw_nest_end(nlh, field);
		}
		nlw_nest_end(nlh, concat);
	}
	nlw_nest_end(nlh, desc);
}

/**
 * lin_set_decl_put - the attributes of @d into @nlh, in the order of
 * nftnl_set_nlmsg_build_payload()
 */
void lin_set_decl_put(struct nlmsghdr *nlh, const struct lin_set_decl *d)
{
	nlw_put_strz(nlh, NFTA_SET_TABLE, d->table);
	nlw_put_strz(nlh, NFTA_SET_NAME, d->name);
	nlw_put_u32(nlh, NFTA_SET_FLAGS, htonl(d->flags));
	nlw_put_u32(nlh, NFTA_SET_KEY_TYPE, htonl(d->key_type));
	nlw_put_u32(nlh, NFTA_SET_KEY_LEN, htonl(d->key_len));
	if (d->has_data) {
		nlw_put_u32(nlh, NFTA_SET_DATA_TYPE, htonl(d->data_type));
		nlw_put_u32(nlh, NFTA_SET_DATA_LEN, htonl(d->data_len));
	}
	if (d->has_obj)
		nlw_put_u32(nlh, NFTA_SET_OBJ_TYPE, htonl(d->obj_type));
	if (d->set_id)
		nlw_put_u32(nlh, NFTA_SET_ID, htonl(d->set_id));
	if (d->policy)
		nlw_put_u32(nlh, NFTA_SET_POLICY, htonl(d->policy));
	put_desc(nlh, d);
	if (d->timeout)
		put_u64(nlh, NFTA_SET_TIMEOUT, d->timeout);
	if (d->gc_int)
		nlw_put_u32(nlh, NFTA_SET_GC_INTERVAL, htonl(d->gc_int));
	if (d->ud.len)
		nlw_put(nlh, NFTA_SET_USERDATA, d->ud.len, d->ud.buf);
}

/**
 * lin_set_decl_object - @d as a libnftnl set (the caller frees it)
 */
struct nftnl_set *lin_set_decl_object(const struct lin_set_decl *d,
				      uint32_t family)
{
	struct nftnl_set *nls = nftnl_set_alloc();

	if (!nls)
		return NULL;
	nftnl_set_set_str(nls, NFTNL_SET_TABLE, d->table);
	nftnl_set_set_str(nls, NFTNL_SET_NAME, d->name);
	nftnl_set_set_u32(nls, NFTNL_SET_FAMILY, family);
	nftnl_set_set_u32(nls, NFTNL_SET_FLAGS, d->flags);
	nftnl_set_set_u32(nls, NFTNL_SET_KEY_TYPE, d->key_type);
	nftnl_set_set_u32(nls, NFTNL_SET_KEY_LEN, d->key_len);
	if (d->has_data) {
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_TYPE, d->data_type);
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_LEN, d->data_len);
	}
	if (d->has_obj)
		nftnl_set_set_u32(nls, NFTNL_SET_OBJ_TYPE, d->obj_type);
	if (d->set_id)
		nftnl_set_set_u32(nls, NFTNL_SET_ID, d->set_id);
	if (d->timeout)
		nftnl_set_set_u64(nls, NFTNL_SET_TIMEOUT, d->timeout);
	if (d->gc_int)
		nftnl_set_set_u32(nls, NFTNL_SET_GC_INTERVAL, d->gc_int);
	if (d->policy)
		nftnl_set_set_u32(nls, NFTNL_SET_POLICY, d->policy);
	if (d->size)
		nftnl_set_set_u32(nls, NFTNL_SET_DESC_SIZE, d->size);
	if (d->nfields)
		nftnl_set_set_data(nls, NFTNL_SET_DESC_CONCAT, d->field_len,
				   d->nfields);
	if (d->ud.len)
		nftnl_set_set_data(nls, NFTNL_SET_USERDATA, d->ud.buf,
				   d->ud.len);
	return nls;
}

/**
 * lin_set_decl_check - whether the message @nlh (written by
 * lin_set_decl_put()) is libnftnl's serialisation of @nls
 *
 * Returns 0, -EPROTO if the bytes differ, or -ENOMEM.
 */
int lin_set_decl_check(const struct nlmsghdr *nlh,
		       const struct nftnl_set *nls)
{
	char *buf = calloc(1, BATCH_MSG_MAX);
	struct nlmsghdr *ref;
	int ret;

	if (!buf)
		return -ENOMEM;
	ref = mnl_nlmsg_put_header(buf);
	memcpy(ref, nlh, MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg)));
	ref->nlmsg_len = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	nftnl_set_nlmsg_build_payload(ref, (struct nftnl_set *)nls);
	ret = ref->nlmsg_len == nlh->nlmsg_len &&
	      !memcmp(ref, nlh, nlh->nlmsg_len) ? 0 : -EPROTO;
	free(buf);
	return ret;
}
