// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Editing a finished batch (batch_edit.h): parse each message back with
 * libnftnl, let the caller edit rules, serialise into another batch.
 * One row per message kind: its libnftnl parse and the batch add.
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "lin_int.h"
#include "batch_edit.h"

struct edit_ctx {
	const struct nftc_batch	*src;
	struct nftc_batch	*dst;
	nftc_rule_edit_fn	fn;
	nftc_rule_write_fn	write;	/* rules without libnftnl */
	void			*priv;
	unsigned int		rules;
};

static int edit_table(struct edit_ctx *e, const struct nlmsghdr *nlh,
		      uint16_t type, uint32_t family)
{
	struct nftnl_table *t = nftnl_table_alloc();
	int ret = -EBADMSG;

	if (t && nftnl_table_nlmsg_parse(nlh, t) == 0)
		ret = batch_add_table(e->dst, type, nlh->nlmsg_flags, family,
				      t);
	nftnl_table_free(t);
	return ret;
}

static int edit_chain(struct edit_ctx *e, const struct nlmsghdr *nlh,
		      uint16_t type, uint32_t family)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	int ret = -EBADMSG;

	if (c && nftnl_chain_nlmsg_parse(nlh, c) == 0)
		ret = batch_add_chain(e->dst, type, nlh->nlmsg_flags, family,
				      c);
	nftnl_chain_free(c);
	return ret;
}

/* A rule written by e->write from @nlh's attributes. */
static int write_rule(struct edit_ctx *e, const struct nlmsghdr *nlh,
		      uint16_t type, uint32_t family)
{
	struct nlmsghdr *d = batch_obj_begin(e->dst, type, nlh->nlmsg_flags,
					     family);
	int ret;

	if (!d)
		return -ENOMEM;
	ret = e->write(e->priv, e->rules++, nlh, d, BATCH_MSG_MAX);
	return ret < 0 ? ret : batch_obj_end(e->dst, d);
}

static int edit_rule(struct edit_ctx *e, const struct nlmsghdr *nlh,
		     uint16_t type, uint32_t family)
{
	struct nftnl_rule *r;
	int ret = -EBADMSG;

	if (type == NFT_MSG_NEWRULE && e->write)
		return write_rule(e, nlh, type, family);
	r = nftnl_rule_alloc();

	if (!r || nftnl_rule_nlmsg_parse(nlh, r) < 0)
		goto out;
	ret = 0;
	if (type == NFT_MSG_NEWRULE && e->fn)
		ret = e->fn(e->priv, e->rules++, r);
	if (ret == 0)
		ret = batch_add_rule(e->dst, type, nlh->nlmsg_flags, family,
				     r);
out:
	nftnl_rule_free(r);
	return ret;
}

/* An element message without elements (an empty set's): a no-op. */
static bool elems_empty(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) == NFTA_SET_ELEM_LIST_ELEMENTS)
			return false;
	}
	return true;
}

static int edit_set(struct edit_ctx *e, const struct nlmsghdr *nlh,
		    uint16_t type, uint32_t family)
{
	struct nftnl_set *s = nftnl_set_alloc();
	int ret = -EBADMSG;

	if (!s)
		return -ENOMEM;
	if (type == NFT_MSG_NEWSET || type == NFT_MSG_DELSET) {
		if (nftnl_set_nlmsg_parse(nlh, s) == 0)
			ret = batch_add_set(e->dst, type, nlh->nlmsg_flags,
					    family, s);
	} else if (elems_empty(nlh)) {
		ret = 0;
	} else if (nftnl_set_elems_nlmsg_parse(nlh, s) == 0) {
		ret = batch_add_setelems(e->dst, type, nlh->nlmsg_flags,
					 family, s);
	}
	nftnl_set_free(s);
	return ret;
}

static int edit_obj(struct edit_ctx *e, const struct nlmsghdr *nlh,
		    uint16_t type, uint32_t family)
{
	struct nftnl_obj *o = nftnl_obj_alloc();
	int ret = -EBADMSG;

	if (o && nftnl_obj_nlmsg_parse(nlh, o) == 0)
		ret = batch_add_obj(e->dst, type, nlh->nlmsg_flags, family, o);
	nftnl_obj_free(o);
	return ret;
}

static int edit_flowtable(struct edit_ctx *e, const struct nlmsghdr *nlh,
			  uint16_t type, uint32_t family)
{
	struct nftnl_flowtable *f = nftnl_flowtable_alloc();
	int ret = -EBADMSG;

	if (f && nftnl_flowtable_nlmsg_parse(nlh, f) == 0)
		ret = batch_add_flowtable(e->dst, type, nlh->nlmsg_flags,
					  family, f);
	nftnl_flowtable_free(f);
	return ret;
}

static const struct {
	uint16_t	type;
	int		(*fn)(struct edit_ctx *, const struct nlmsghdr *,
			      uint16_t, uint32_t);
} edit_kinds[] = {
	{ NFT_MSG_NEWTABLE,	edit_table },
	{ NFT_MSG_DELTABLE,	edit_table },
	{ NFT_MSG_NEWCHAIN,	edit_chain },
	{ NFT_MSG_DELCHAIN,	edit_chain },
	{ NFT_MSG_NEWRULE,	edit_rule },
	{ NFT_MSG_DELRULE,	edit_rule },
	{ NFT_MSG_NEWSET,	edit_set },
	{ NFT_MSG_DELSET,	edit_set },
	{ NFT_MSG_NEWSETELEM,	edit_set },
	{ NFT_MSG_DELSETELEM,	edit_set },
	{ NFT_MSG_NEWOBJ,	edit_obj },
	{ NFT_MSG_DELOBJ,	edit_obj },
	{ NFT_MSG_NEWFLOWTABLE,	edit_flowtable },
	{ NFT_MSG_DELFLOWTABLE,	edit_flowtable },
};

static int edit_msg(struct edit_ctx *e, const struct nlmsghdr *nlh)
{
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
	uint16_t type = nlh->nlmsg_type & 0xff;
	struct nftc_seq_loc sl;
	unsigned int i;

	if (nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN ||
	    nlh->nlmsg_type == NFNL_MSG_BATCH_END)
		return 0;
	nftc_batch_set_source(e->dst, NULL,
			      nftc_batch_seq_lookup(e->src, nlh->nlmsg_seq,
						    &sl) ?
			      &sl.location : NULL);
	for (i = 0; i < sizeof(edit_kinds) / sizeof(edit_kinds[0]); i++) {
		if (edit_kinds[i].type == type)
			return edit_kinds[i].fn(e, nlh, type, g->nfgen_family);
	}
	return -EOPNOTSUPP;
}

static int edit_all(struct edit_ctx *e)
{
	const struct nftc_batch *src = e->src;
	const struct nlmsghdr *nlh;
	unsigned int i;
	size_t len;
	int ret;

	for (i = 0; i < nftc_batch_chunks(src); i++) {
		const void *buf = nftc_batch_chunk(src, i, &len);
		int rem = len;

		for (nlh = buf; mnl_nlmsg_ok(nlh, rem);
		     nlh = mnl_nlmsg_next(nlh, &rem)) {
			ret = edit_msg(e, nlh);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int nftc_batch_edit_rules(const struct nftc_batch *src,
			  struct nftc_batch *dst, nftc_rule_edit_fn fn,
			  void *priv)
{
	struct edit_ctx e = { .src = src, .dst = dst, .fn = fn, .priv = priv };

	return edit_all(&e);
}

int nftc_batch_rewrite_rules(const struct nftc_batch *src,
			     struct nftc_batch *dst, nftc_rule_write_fn fn,
			     void *priv)
{
	struct edit_ctx e = { .src = src, .dst = dst, .write = fn,
			      .priv = priv };

	return edit_all(&e);
}
