// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The nfnetlink batch interface: NFNL_MSG_BATCH_BEGIN, NFT_MSG_* requests,
 * NFNL_MSG_BATCH_END, applied all or nothing.
 */
#include "nftvm_int.h"

#define NFTVM_ATTR_MAX	32
/* one reply message at most: a rule of 128 expressions fits */
#define NFTVM_DUMP_BUFSIZ	(64 * 1024)

/**
 * struct nftvm_msg_desc - how to handle one NFT_MSG_*
 * @fn:		in a batch; a message without one (GET*, unknown) is
 *		-EINVAL there, as in a kernel batch
 * @get:	outside a batch (nftvm_request(), dump.c)
 */
struct nftvm_msg_desc {
	nftvm_msg_fn			fn;
	nftvm_get_fn			get;
	unsigned int			maxattr;
	const struct nftvm_nla_policy	*policy;
};

static const struct nftvm_nla_policy nftvm_gen_policy[NFTA_GEN_MAX + 1] = {
	[NFTA_GEN_ID]		= { .type = NFTVM_NLA_U32 },
};

static const struct nftvm_msg_desc nftvm_msgs[NFTVM_MSG_MAX] = {
	[NFT_MSG_GETGEN]	= { NULL, nftvm_getgen, NFTA_GEN_MAX,
				    nftvm_gen_policy },
	[NFT_MSG_GETTABLE]	= { NULL, nftvm_gettable, NFTA_TABLE_MAX,
				    nftvm_table_policy },
	[NFT_MSG_GETCHAIN]	= { NULL, nftvm_getchain, NFTA_CHAIN_MAX,
				    nftvm_chain_policy },
	[NFT_MSG_GETRULE]	= { NULL, nftvm_getrule, NFTA_RULE_MAX,
				    nftvm_rule_policy },
	[NFT_MSG_GETSET]	= { NULL, nftvm_getset, NFTA_SET_MAX,
				    nftvm_set_policy },
	[NFT_MSG_GETSETELEM]	= { NULL, nftvm_getsetelem,
				    NFTA_SET_ELEM_LIST_MAX,
				    nftvm_set_elem_list_policy },
	[NFT_MSG_GETOBJ]	= { NULL, nftvm_getobj, NFTA_OBJ_MAX,
				    nftvm_obj_policy },
	[NFT_MSG_GETFLOWTABLE]	= { NULL, nftvm_getflowtable, 0,
				    nftvm_gen_policy },
	[NFT_MSG_NEWTABLE]	= { nftvm_newtable, NULL, NFTA_TABLE_MAX,
				    nftvm_table_policy },
	[NFT_MSG_DELTABLE]	= { nftvm_deltable, NULL,
				    NFTA_TABLE_MAX,
				    nftvm_table_policy },
	[NFT_MSG_NEWCHAIN]	= { nftvm_newchain, NULL,
				    NFTA_CHAIN_MAX,
				    nftvm_chain_policy },
	[NFT_MSG_DELCHAIN]	= { nftvm_delchain, NULL,
				    NFTA_CHAIN_MAX,
				    nftvm_chain_policy },
	[NFT_MSG_NEWRULE]	= { nftvm_newrule, NULL,
				    NFTA_RULE_MAX,
				    nftvm_rule_policy },
	[NFT_MSG_DELRULE]	= { nftvm_delrule, NULL,
				    NFTA_RULE_MAX,
				    nftvm_rule_policy },
	[NFT_MSG_NEWSET]	= { nftvm_newset, NULL,
				    NFTA_SET_MAX,
				    nftvm_set_policy },
	[NFT_MSG_DELSET]	= { nftvm_delset, NULL,
				    NFTA_SET_MAX,
				    nftvm_set_policy },
	[NFT_MSG_NEWSETELEM]	= { nftvm_newsetelem, NULL,
				    NFTA_SET_ELEM_LIST_MAX,
				    nftvm_set_elem_list_policy },
	[NFT_MSG_DELSETELEM]	= { nftvm_delsetelem, NULL,
				    NFTA_SET_ELEM_LIST_MAX,
				    nftvm_set_elem_list_policy },
	[NFT_MSG_NEWOBJ]	= { nftvm_newobj, NULL, NFTA_OBJ_MAX,
				    nftvm_obj_policy },
	[NFT_MSG_DELOBJ]	= { nftvm_delobj, NULL, NFTA_OBJ_MAX,
				    nftvm_obj_policy },
	/* DESTROY: the DEL handlers, which check nftvm_ctx.destroy */
	[NFTVM_MSG_DESTROYTABLE]	= { nftvm_deltable, NULL,
					    NFTA_TABLE_MAX,
					    nftvm_table_policy },
	[NFTVM_MSG_DESTROYCHAIN]	= { nftvm_delchain, NULL,
					    NFTA_CHAIN_MAX,
					    nftvm_chain_policy },
	[NFTVM_MSG_DESTROYRULE]		= { nftvm_delrule, NULL,
					    NFTA_RULE_MAX,
					    nftvm_rule_policy },
	[NFTVM_MSG_DESTROYSET]		= { nftvm_delset, NULL,
					    NFTA_SET_MAX,
					    nftvm_set_policy },
	[NFTVM_MSG_DESTROYSETELEM]	= { nftvm_delsetelem, NULL,
					    NFTA_SET_ELEM_LIST_MAX,
					    nftvm_set_elem_list_policy },
	[NFTVM_MSG_DESTROYOBJ]		= { nftvm_delobj, NULL,
					    NFTA_OBJ_MAX,
					    nftvm_obj_policy },
};

/* the DESTROY twins of the DEL messages */
static bool nftvm_msg_is_destroy(unsigned int msg)
{
	return msg >= NFTVM_MSG_DESTROYTABLE &&
	       msg <= NFTVM_MSG_DESTROYFLOWTABLE;
}

static const struct nftvm_nla_policy nftvm_batch_policy[NFNL_BATCH_MAX + 1] = {
	[NFNL_BATCH_GENID]	= { .type = NFTVM_NLA_U32 },
};

NFTVM_BUILD_BUG_ON(NFTA_TABLE_MAX > NFTVM_ATTR_MAX ||
		   NFTA_CHAIN_MAX > NFTVM_ATTR_MAX ||
		   NFTA_RULE_MAX > NFTVM_ATTR_MAX ||
		   NFTA_SET_MAX > NFTVM_ATTR_MAX ||
		   NFTA_OBJ_MAX > NFTVM_ATTR_MAX);

#define NFTVM_NFGEN_LEN	NLMSG_LENGTH(sizeof(struct nfgenmsg))

static const void *nftvm_msg_attrs(const struct nlmsghdr *nlh, size_t *len)
{
	*len = nlh->nlmsg_len - NLMSG_ALIGN(NFTVM_NFGEN_LEN);
	if (nlh->nlmsg_len < NLMSG_ALIGN(NFTVM_NFGEN_LEN))
		*len = 0;
	return (const char *)nlh + NLMSG_ALIGN(NFTVM_NFGEN_LEN);
}

static int nftvm_batch_begin(struct nftvm *vm, const struct nlmsghdr *nlh,
			     struct nftvm_ctx *ctx)
{
	const struct nlattr *tb[NFNL_BATCH_MAX + 1];
	const struct nfgenmsg *nfg;
	const void *attrs;
	size_t alen;
	int err;

	if (nlh->nlmsg_type != NFNL_MSG_BATCH_BEGIN ||
	    nlh->nlmsg_len < NFTVM_NFGEN_LEN)
		return -NFTVM_EINVAL;
	nfg = NLMSG_DATA(nlh);
	/* res_id 0 means nf_tables for old user space */
	if (nfg->res_id != nftvm_htons(NFNL_SUBSYS_NFTABLES) &&
	    nfg->res_id != 0)
		return -NFTVM_EINVAL;
	attrs = nftvm_msg_attrs(nlh, &alen);
	err = nftvm_nla_parse(ctx, tb, NFNL_BATCH_MAX, nftvm_batch_policy,
			      attrs, alen);
	if (err < 0)
		return err;
	if (tb[NFNL_BATCH_GENID] &&
	    nftvm_nla_be32(tb[NFNL_BATCH_GENID]) != vm->genid)
		return nftvm_fail(ctx, tb[NFNL_BATCH_GENID],
				  -NFTVM_ERESTART);
	return 0;
}

static int nftvm_batch_msg(struct nftvm_ctx *ctx, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NFTVM_ATTR_MAX + 1];
	const struct nftvm_msg_desc *d;
	const struct nfgenmsg *nfg;
	const void *attrs;
	unsigned int msg;
	size_t alen;
	int err;

	if ((nlh->nlmsg_type >> 8) != NFNL_SUBSYS_NFTABLES)
		return -NFTVM_EINVAL;
	msg = nlh->nlmsg_type & 0xff;
	if (msg >= NFTVM_MSG_MAX || !nftvm_msgs[msg].fn)
		return -NFTVM_EINVAL;
	if (!(nlh->nlmsg_flags & NLM_F_REQUEST) ||
	    nlh->nlmsg_len < NFTVM_NFGEN_LEN)
		return -NFTVM_EINVAL;

	d = &nftvm_msgs[msg];
	nfg = NLMSG_DATA(nlh);
	ctx->family = nfg->nfgen_family;
	ctx->nlflags = nlh->nlmsg_flags;
	ctx->destroy = nftvm_msg_is_destroy(msg);
	ctx->table = NULL;
	ctx->chain = NULL;
	attrs = nftvm_msg_attrs(nlh, &alen);
	err = nftvm_nla_parse(ctx, tb, d->maxattr, d->policy, attrs, alen);
	if (err < 0)
		return err;
	return d->fn(ctx, tb);
}

static void nftvm_err_set(struct nftvm_err *err, const void *buf,
			  const struct nlmsghdr *nlh, int index,
			  const struct nftvm_ctx *ctx, int error)
{
	if (!err)
		return;
	err->error = error;
	err->msg_index = index;
	err->seq = nlh ? nlh->nlmsg_seq : 0;
	err->msg_type = nlh ? (nlh->nlmsg_type & 0xff) : 0;
	err->attr = 0;
	err->attr_off = -1;
	if (ctx->bad_attr) {
		err->attr = nftvm_nla_type(ctx->bad_attr);
		err->attr_off = (const char *)ctx->bad_attr - (const char *)buf;
	}
}

/**
 * nftvm_batch_process - apply one nfnetlink batch, all or nothing
 * @vm: the ruleset
 * @buf: BATCH_BEGIN, requests, BATCH_END, as sent to a NETLINK_NETFILTER
 *	 socket
 * @len: bytes in @buf
 * @err: filled in when the batch is rejected (may be NULL)
 *
 * On failure the ruleset is exactly as before the call and @err names the
 * failing message (sequence number, index, type), the attribute blamed
 * and the errno the kernel would have answered.
 *
 * Return: 0 or the negative errno also stored in @err.
 */
int nftvm_batch_process(struct nftvm *vm, const void *buf, size_t len,
			struct nftvm_err *err)
{
	struct nftvm_ctx ctx = { .vm = vm, .in_batch = true };
	const struct nlmsghdr *nlh = NULL;
	size_t pos = 0;
	int index = 0, ret = -NFTVM_EINVAL;
	bool ended = false;

	vm->batch_seq++;

	if (err) {
		nftvm_memset(err, 0, sizeof(*err));
		err->attr_off = -1;
	}
	while (len - pos >= NLMSG_HDRLEN) {
		nlh = (const struct nlmsghdr *)((const char *)buf + pos);
		ctx.bad_attr = NULL;
		if (nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - pos) {
			ret = -NFTVM_EINVAL;
			goto err_abort;
		}
		if (index == 0)
			ret = nftvm_batch_begin(vm, nlh, &ctx);
		else if (nlh->nlmsg_type == NFNL_MSG_BATCH_END)
			ended = true;
		else if (nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN)
			ret = -NFTVM_EINVAL;
		else
			ret = nftvm_batch_msg(&ctx, nlh);
		if (ret < 0)
			goto err_abort;
		if (ended)
			break;
		index++;
		if (NLMSG_ALIGN(nlh->nlmsg_len) >= len - pos)
			break;
		pos += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	if (!ended) {
		/* a batch without its END never commits */
		ctx.bad_attr = NULL;
		ret = -NFTVM_EINVAL;
		goto err_abort;
	}
	ctx.bad_attr = NULL;
	ret = nftvm_chain_bind_sweep(&ctx);
	if (ret < 0)
		goto err_abort;
	nftvm_trans_commit(vm);
	return 0;

err_abort:
	nftvm_trans_abort(vm);
	nftvm_err_set(err, buf, nlh, index, &ctx, ret);
	return ret;
}

/**
 * nftvm_request - answer one request sent outside a batch (GET*)
 * @vm: the ruleset
 * @buf: the request message, as sent to a NETLINK_NETFILTER socket
 * @len: bytes in @buf
 * @portid: the requester's netlink port, echoed in the replies
 * @fn: receives every reply message (NEW* messages, NLMSG_DONE)
 * @arg: passed to @fn
 * @err: filled in when the request fails (may be NULL)
 *
 * Dumps (NLM_F_DUMP) answer NLM_F_MULTI messages and NLMSG_DONE, single
 * gets one message; acknowledgements and NLMSG_ERROR are the caller's
 * (the netlink core's) business, as in the kernel.
 *
 * Return: 0, or the negative errno the kernel would answer.
 */
int nftvm_request(struct nftvm *vm, const void *buf, size_t len,
		  __u32 portid, nftvm_reply_fn fn, void *arg,
		  struct nftvm_err *err)
{
	const struct nlattr *tb[NFTVM_ATTR_MAX + 1];
	const struct nlmsghdr *nlh = buf;
	struct nftvm_dump d = { .vm = vm, .portid = portid, .fn = fn,
				.arg = arg };
	const struct nftvm_msg_desc *desc;
	const struct nfgenmsg *nfg;
	const void *attrs;
	unsigned int msg;
	size_t alen;
	int ret = -NFTVM_EINVAL;

	d.ctx.vm = vm;
	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NFTVM_NFGEN_LEN ||
	    nlh->nlmsg_len > len ||
	    (nlh->nlmsg_type >> 8) != NFNL_SUBSYS_NFTABLES)
		goto out;
	msg = nlh->nlmsg_type & 0xff;
	if (msg >= NFTVM_MSG_MAX || !nftvm_msgs[msg].get) {
		ret = -NFTVM_EOPNOTSUPP;
		goto out;
	}
	desc = &nftvm_msgs[msg];
	nfg = NLMSG_DATA(nlh);
	d.family = nfg->nfgen_family;
	d.ctx.family = nfg->nfgen_family;
	d.nlflags = nlh->nlmsg_flags;
	d.seq = nlh->nlmsg_seq;
	attrs = nftvm_msg_attrs(nlh, &alen);
	ret = nftvm_nla_parse(&d.ctx, tb, desc->maxattr, desc->policy, attrs,
			      alen);
	if (ret < 0)
		goto out;
	d.b.cap = NFTVM_DUMP_BUFSIZ;
	d.b.buf = nftvm_alloc(d.b.cap);
	if (!d.b.buf) {
		ret = -NFTVM_ENOMEM;
		goto out;
	}
	ret = desc->get(&d, tb);
	nftvm_free(d.b.buf);
out:
	if (ret < 0)
		nftvm_err_set(err, buf, ret == -NFTVM_EINVAL &&
			      len < NLMSG_HDRLEN ? NULL : nlh, 0, &d.ctx, ret);
	return ret;
}
