// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel backend: one nfnetlink batch, one sendmsg(), every error
 * mapped back to the source.
 *
 * The kernel runs a batch synchronously inside the sender's sendmsg():
 * when the call returns, every error message (and the ack of BATCH_END,
 * which kernels since 6.x send when asked) is already queued on our
 * socket. So the replies are drained without blocking, and a kernel
 * that does not ack BATCH_END cannot make us wait forever.
 *
 * Error messages are capped (NETLINK_CAP_ACK): the kernel would echo the
 * whole rejected message, and 100,000 rejected rules would then need
 * hundreds of megabytes of receive buffer. The original message is in
 * the batch anyway, found by its sequence number; the extended ack's
 * attribute offset (NLMSGERR_ATTR_OFFS) is resolved against it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "lin_int.h"
#include "rule.h"
#include "erec.h"
#include "netlink.h"
#include "listing.h"
#include "transport.h"

/* Generation changes tolerated before giving up (-ERESTART). */
#define NL_GENID_RETRIES	8
/* Receive buffer per object message: an error skb's true size. */
#define NL_RCVBUF_PER_MSG	1024u
/* ... and with echo: the message coming back too */
#define NL_RCVBUF_PER_ECHO	8192u
#define NL_RCVBUF_MIN		(1u << 20)
/* sendmsg() takes at most UIO_MAXIOV pieces: 2 GiB of batch. */
#define NL_IOV_MAX		1024
#define NL_RECV_BUFSIZ		(MNL_SOCKET_BUFFER_SIZE * 4)

/**
 * struct nl_err - one error the kernel reported
 * @seq: sequence number of the rejected message
 * @err: positive errno
 * @off: offset of the rejected attribute in that message (0: unknown)
 */
struct nl_err {
	uint32_t	seq;
	int		err;
	uint32_t	off;
};

/**
 * struct nl_ctx - one conversation with the kernel
 * @nft: compiler context (errors go to nft->erq)
 * @batch: what is sent
 * @flags: enum nftc_nl_flags
 * @tp: the socket or the offline VM (transport.h); @portid its address
 * @genid: ruleset generation the batch is meant for
 * @nqueries: GETGEN requests so far (their sequence numbers differ)
 * @errs: errors received (@nerrs used, @errs_cap allocated)
 * @end_acked: the kernel acknowledged BATCH_END (committed)
 * @lost: replies were dropped (receive buffer overrun)
 * @echo: with nft->echo, the kernel's other messages (what it echoes of
 *        the batch), @echo_len bytes of them, room for @echo_cap
 */
struct nl_ctx {
	struct nftc_ctx			*nft;
	const struct nftc_batch		*batch;
	unsigned int			flags;
	struct nftc_transport		*tp;
	uint32_t			portid;
	uint32_t			genid;
	unsigned int			nqueries;
	struct nl_err			*errs;
	unsigned int			nerrs;
	unsigned int			errs_cap;
	bool				end_acked;
	bool				lost;
	bool				genid_fixed;	/* send_at: no retry */
	char				*echo;
	size_t				echo_len;
	size_t				echo_cap;
};

/* The fixed-size BATCH_BEGIN / BATCH_END framing messages. */
#define NL_FRAME_LEN	MNL_ALIGN(MNL_NLMSG_HDRLEN + sizeof(struct nfgenmsg))

static int nl_open(struct nl_ctx *ctx)
{
	int ret = nftc_transport_open(ctx->nft->offline, &ctx->tp);

	if (ret == 0)
		ctx->portid = ctx->tp->portid;
	return ret;
}

static int nl_genid_cb(const struct nlmsghdr *nlh, void *data)
{
	uint32_t *genid = data;
	const struct nlattr *a;

	if (NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWGEN)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) == NFTA_GEN_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			*genid = ntohl(mnl_attr_get_u32(a));
	}
	return MNL_CB_STOP;
}

/*
 * Read the ruleset generation (NFT_MSG_GETGEN). It also tells whether
 * nf_tables is there and we may talk to it: -EPERM without
 * CAP_NET_ADMIN, -EOPNOTSUPP / -EPROTONOSUPPORT without nf_tables.
 */
static int nl_get_genid(struct nl_ctx *ctx)
{
	char buf[NL_RECV_BUFSIZ];
	uint32_t seq = (uint32_t)time(NULL) + ctx->nqueries++;
	struct nlmsghdr *nlh;
	int ret;

	/* No ack: the NEWGEN reply (or an error) is the whole answer. */
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, 0, seq);
	ret = nftc_transport_send(ctx->tp, nlh, nlh->nlmsg_len);
	if (ret < 0)
		return ret;
	do {
		ret = nftc_transport_recv(ctx->tp, buf, sizeof(buf), false);
		if (ret < 0)
			return ret;
		ret = mnl_cb_run(buf, ret, seq, ctx->portid, nl_genid_cb,
				 &ctx->genid);
	} while (ret == MNL_CB_OK);
	return ret < 0 ? -errno : 0;
}

/*
 * Socket buffers: the send buffer must hold the whole batch (one skb);
 * the receive buffer every error the batch may cause. The *FORCE
 * variants pass the system limits (we are CAP_NET_ADMIN or the kernel
 * refuses the batch anyway); the plain ones are the fallback.
 */
static void nl_set_buffers(struct nl_ctx *ctx, size_t len, unsigned int msgs)
{
	int fd = ctx->tp->fd;
	size_t rcv = (size_t)msgs * (ctx->nft->echo ? NL_RCVBUF_PER_ECHO :
						      NL_RCVBUF_PER_MSG);
	int cur = 0, val;
	socklen_t sl = sizeof(cur);

	if (fd < 0)	/* the offline VM has no socket buffers */
		return;

	len += MNL_SOCKET_BUFFER_SIZE;
	if (len > INT_MAX / 2)
		len = INT_MAX / 2;
	getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &sl);
	if ((size_t)cur < len + 32) {
		val = (int)len;
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &val,
			       sizeof(val)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &val,
				   sizeof(val));
	}
	if (rcv < NL_RCVBUF_MIN)
		rcv = NL_RCVBUF_MIN;
	if (rcv > INT_MAX / 2)
		rcv = INT_MAX / 2;
	val = (int)rcv;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &val, sizeof(val)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val));
}

/* BATCH_BEGIN for nf_tables with the generation it applies to. */
static size_t nl_build_begin(char *buf, uint32_t seq, uint32_t genid)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg *nfg;

	nlh->nlmsg_type = NFNL_MSG_BATCH_BEGIN;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(NFNL_SUBSYS_NFTABLES);
	mnl_attr_put_u32(nlh, NFNL_BATCH_GENID, htonl(genid));
	return nlh->nlmsg_len;
}

/*
 * The batch as an iovec: our BATCH_BEGIN replaces the batch's own (it
 * has no generation), and in check mode BATCH_END is left out so that
 * the kernel aborts after validating. Returns the number of entries
 * (the caller frees *@iovp) or -errno.
 */
static int nl_build_iov(struct nl_ctx *ctx, char *begin, struct iovec **iovp,
			size_t *total)
{
	const struct nftc_batch *b = ctx->batch;
	unsigned int i, n = nftc_batch_chunks(b);
	struct iovec *iov;
	int cnt = 0;

	if (n + 2 > NL_IOV_MAX)
		return -EMSGSIZE;
	/* one more for a separate BATCH_END (nl_ack_end()) */
	iov = calloc(n + 2, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	iov[cnt].iov_base = begin;
	iov[cnt++].iov_len = nl_build_begin(begin, nftc_batch_seq_first(b),
					    ctx->genid);
	for (i = 0; i < n; i++) {
		size_t len;
		const char *p = nftc_batch_chunk(b, i, &len);

		if (i == 0) {
			const struct nlmsghdr *nlh = (const void *)p;

			p += MNL_ALIGN(nlh->nlmsg_len);
			len -= MNL_ALIGN(nlh->nlmsg_len);
		}
		if (i == n - 1 && (ctx->flags & NFTC_NL_CHECK) &&
		    len >= NL_FRAME_LEN) {
			const struct nlmsghdr *end = (const void *)
				(p + len - NL_FRAME_LEN);

			if (end->nlmsg_type == NFNL_MSG_BATCH_END)
				len -= NL_FRAME_LEN;
		}
		if (!len)
			continue;
		iov[cnt].iov_base = (void *)p;
		iov[cnt++].iov_len = len;
	}
	*total = 0;
	for (i = 0; i < (unsigned int)cnt; i++)
		*total += iov[i].iov_len;
	*iovp = iov;
	return cnt;
}

/*
 * Ask the kernel to ack BATCH_END: kernels that honour it (6.x) then
 * confirm the commit; older ones ignore the flag. The batch is const to
 * our callers: the flag is set on the copy of the header in @endbuf,
 * which replaces the batch's BATCH_END in the iovec.
 */
static void nl_ack_end(struct iovec *iov, int cnt, char *endbuf)
{
	struct iovec *last = &iov[cnt - 1];
	struct nlmsghdr *nlh;

	if (last->iov_len < NL_FRAME_LEN)
		return;
	nlh = (struct nlmsghdr *)((char *)last->iov_base + last->iov_len -
				  NL_FRAME_LEN);
	if (nlh->nlmsg_type != NFNL_MSG_BATCH_END)
		return;
	memcpy(endbuf, nlh, NL_FRAME_LEN);
	((struct nlmsghdr *)endbuf)->nlmsg_flags |= NLM_F_ACK;
	last->iov_len -= NL_FRAME_LEN;
	iov[cnt].iov_base = endbuf;
	iov[cnt].iov_len = NL_FRAME_LEN;
}

static int nl_err_add(struct nl_ctx *ctx, uint32_t seq, int err,
		      uint32_t off)
{
	struct nl_err *e;

	if (ctx->nerrs == ctx->errs_cap) {
		unsigned int cap = ctx->errs_cap ? ctx->errs_cap * 2 : 16;

		e = realloc(ctx->errs, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		ctx->errs = e;
		ctx->errs_cap = cap;
	}
	e = &ctx->errs[ctx->nerrs++];
	e->seq = seq;
	e->err = err;
	e->off = off;
	return 0;
}

/* One NLMSG_ERROR: an ack (error 0) or an error with its extended ack. */
static int nl_parse_error(struct nl_ctx *ctx, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t hlen = sizeof(*e);
	const struct nlattr *a;
	uint32_t off = 0;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return -EBADMSG;
	if (e->error == 0) {
		if (nlh->nlmsg_seq == nftc_batch_seq_next(ctx->batch) - 1)
			ctx->end_acked = true;
		return 0;
	}
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hlen += mnl_nlmsg_get_payload_len(&e->msg);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS &&
	    mnl_nlmsg_size(hlen) <= nlh->nlmsg_len) {
		mnl_attr_for_each(a, nlh, hlen) {
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_OFFS &&
			    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				off = mnl_attr_get_u32(a);
		}
	}
	return nl_err_add(ctx, nlh->nlmsg_seq,
			  e->error < 0 ? -e->error : e->error, off);
}

/* Keep a copy of @nlh, a change the kernel echoes (nft -e). */
static int nl_echo_keep(struct nl_ctx *ctx, const struct nlmsghdr *nlh)
{
	size_t n = MNL_ALIGN(nlh->nlmsg_len);

	if (NFNL_SUBSYS_ID(nlh->nlmsg_type) != NFNL_SUBSYS_NFTABLES)
		return 0;
	if (ctx->echo_len + n > ctx->echo_cap) {
		size_t cap = ctx->echo_cap ? ctx->echo_cap * 2 : 65536;
		char *p;

		while (cap < ctx->echo_len + n)
			cap *= 2;
		p = realloc(ctx->echo, cap);
		if (!p)
			return -ENOMEM;
		ctx->echo = p;
		ctx->echo_cap = cap;
	}
	memcpy(ctx->echo + ctx->echo_len, nlh, nlh->nlmsg_len);
	memset(ctx->echo + ctx->echo_len + nlh->nlmsg_len, 0,
	       n - nlh->nlmsg_len);
	ctx->echo_len += n;
	return 0;
}

/* Read every reply already queued; never blocks. */
static int nl_drain(struct nl_ctx *ctx)
{
	/* an echoed message is as large as the one sent (up to 64 KiB) */
	size_t size = ctx->nft->echo ? 4 * NL_RECV_BUFSIZ + 65536 :
				       NL_RECV_BUFSIZ;
	char *buf = malloc(size);
	const struct nlmsghdr *nlh;
	ssize_t len;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		len = nftc_transport_recv(ctx->tp, buf, size, true);
		if (len == -ENOBUFS) {
			ctx->lost = true;
			continue;
		}
		if (len <= 0)
			break;
		for (nlh = (const void *)buf; mnl_nlmsg_ok(nlh, (int)len);
		     nlh = mnl_nlmsg_next(nlh, (int *)&len)) {
			if (nlh->nlmsg_type != NLMSG_ERROR) {
				if (ctx->nft->echo &&
				    nlh->nlmsg_type >= NLMSG_MIN_TYPE)
					ret = nl_echo_keep(ctx, nlh);
				if (ret < 0)
					goto out;
				continue;
			}
			ret = nl_parse_error(ctx, nlh);
			if (ret < 0)
				goto out;
		}
	}
	if (len < 0 && len != -EAGAIN)
		ret = (int)len;
out:
	free(buf);
	return ret;
}

/* Send the batch once; replies end up in ctx->errs. */
static int nl_talk(struct nl_ctx *ctx)
{
	char begin[MNL_SOCKET_BUFFER_SIZE / 8], endbuf[NL_FRAME_LEN];
	struct iovec *iov = NULL;
	size_t total;
	ssize_t ret;
	int cnt;

	cnt = nl_build_iov(ctx, begin, &iov, &total);
	if (cnt < 0)
		return cnt;
	if (!(ctx->flags & NFTC_NL_CHECK))
		nl_ack_end(iov, cnt, endbuf);
	if (iov[cnt].iov_len)
		cnt++;
	nl_set_buffers(ctx, total, nftc_batch_num_msgs(ctx->batch));
	ret = nftc_transport_sendv(ctx->tp, iov, cnt);
	free(iov);
	if (ret < 0)
		return (int)ret;
	return nl_drain(ctx);
}

/* Only a generation change (at BATCH_BEGIN) was reported. */
static bool nl_genid_changed(const struct nl_ctx *ctx)
{
	return ctx->nerrs == 1 && ctx->errs[0].err == ERESTART &&
	       ctx->errs[0].seq == nftc_batch_seq_first(ctx->batch);
}

/* ------------------------------------------------ errors -> source */

/**
 * enum nl_hfield - which name of a handle an attribute carries
 */
enum nl_hfield {
	NL_H_NONE,
	NL_H_TABLE,
	NL_H_CHAIN,
	NL_H_SET,
	NL_H_OBJ,
	NL_H_FLOWTABLE,
	NL_H_HANDLE,
	NL_H_EXPRS,
	__NL_H_MAX
};

/* Attribute -> handle name, per message family (stock's located ones). */
static const struct {
	uint16_t	msg[2];
	uint16_t	attr;
	uint8_t		field;
} nl_attr_fields[] = {
	{ { NFT_MSG_NEWTABLE, NFT_MSG_DELTABLE },
	  NFTA_TABLE_NAME, NL_H_TABLE },
	{ { NFT_MSG_NEWTABLE, NFT_MSG_DELTABLE },
	  NFTA_TABLE_HANDLE, NL_H_HANDLE },
	{ { NFT_MSG_NEWCHAIN, NFT_MSG_DELCHAIN },
	  NFTA_CHAIN_TABLE, NL_H_TABLE },
	{ { NFT_MSG_NEWCHAIN, NFT_MSG_DELCHAIN },
	  NFTA_CHAIN_NAME, NL_H_CHAIN },
	{ { NFT_MSG_NEWCHAIN, NFT_MSG_DELCHAIN },
	  NFTA_CHAIN_HANDLE, NL_H_HANDLE },
	{ { NFT_MSG_NEWRULE, NFT_MSG_DELRULE },
	  NFTA_RULE_TABLE, NL_H_TABLE },
	{ { NFT_MSG_NEWRULE, NFT_MSG_DELRULE },
	  NFTA_RULE_CHAIN, NL_H_CHAIN },
	{ { NFT_MSG_NEWRULE, NFT_MSG_DELRULE },
	  NFTA_RULE_HANDLE, NL_H_HANDLE },
	{ { NFT_MSG_NEWRULE, NFT_MSG_NEWRULE },
	  NFTA_RULE_EXPRESSIONS, NL_H_EXPRS },
	{ { NFT_MSG_NEWSET, NFT_MSG_DELSET },
	  NFTA_SET_TABLE, NL_H_TABLE },
	{ { NFT_MSG_NEWSET, NFT_MSG_DELSET },
	  NFTA_SET_NAME, NL_H_SET },
	{ { NFT_MSG_NEWSET, NFT_MSG_DELSET },
	  NFTA_SET_HANDLE, NL_H_HANDLE },
	{ { NFT_MSG_NEWSETELEM, NFT_MSG_DELSETELEM },
	  NFTA_SET_ELEM_LIST_TABLE, NL_H_TABLE },
	{ { NFT_MSG_NEWSETELEM, NFT_MSG_DELSETELEM },
	  NFTA_SET_ELEM_LIST_SET, NL_H_SET },
	{ { NFT_MSG_NEWOBJ, NFT_MSG_DELOBJ },
	  NFTA_OBJ_TABLE, NL_H_TABLE },
	{ { NFT_MSG_NEWOBJ, NFT_MSG_DELOBJ },
	  NFTA_OBJ_NAME, NL_H_OBJ },
	{ { NFT_MSG_NEWOBJ, NFT_MSG_DELOBJ },
	  NFTA_OBJ_HANDLE, NL_H_HANDLE },
	{ { NFT_MSG_NEWFLOWTABLE, NFT_MSG_DELFLOWTABLE },
	  NFTA_FLOWTABLE_TABLE, NL_H_TABLE },
	{ { NFT_MSG_NEWFLOWTABLE, NFT_MSG_DELFLOWTABLE },
	  NFTA_FLOWTABLE_NAME, NL_H_FLOWTABLE },
	{ { NFT_MSG_NEWFLOWTABLE, NFT_MSG_DELFLOWTABLE },
	  NFTA_FLOWTABLE_HANDLE, NL_H_HANDLE },
};

static enum nl_hfield nl_attr_field(uint16_t msg, uint16_t attr)
{
	size_t i;

	for (i = 0; i < sizeof(nl_attr_fields) / sizeof(nl_attr_fields[0]);
	     i++) {
		if (nl_attr_fields[i].attr != attr)
			continue;
		if (nl_attr_fields[i].msg[0] == msg ||
		    nl_attr_fields[i].msg[1] == msg)
			return nl_attr_fields[i].field;
	}
	return NL_H_NONE;
}

/* Message @seq in the batch (object messages only; NULL if absent). */
static const struct nlmsghdr *nl_find_msg(const struct nftc_batch *b,
					  uint32_t seq)
{
	unsigned int i, n = nftc_batch_chunks(b);

	for (i = 0; i < n; i++) {
		size_t len;
		const char *p = nftc_batch_chunk(b, i, &len);
		const struct nlmsghdr *nlh = (const void *)p;
		int rest = (int)len;

		if (!len)
			continue;
		/* Chunks hold increasing sequence numbers: skip whole ones. */
		if (i + 1 < n) {
			size_t nlen;
			const struct nlmsghdr *next = nftc_batch_chunk(b, i + 1,
								       &nlen);

			if (nlen && next->nlmsg_seq <= seq)
				continue;
		}
		for (; mnl_nlmsg_ok(nlh, rest); nlh = mnl_nlmsg_next(nlh,
								      &rest))
			if (nlh->nlmsg_seq == seq)
				return nlh;
	}
	return NULL;
}

/**
 * struct nl_attr_hit - where an attribute offset falls in a message
 * @field: the handle name (or NL_H_EXPRS) it carries
 * @expr: for NL_H_EXPRS, the index of the expression in the rule
 */
struct nl_attr_hit {
	enum nl_hfield	field;
	unsigned int	expr;
};

static int nl_attr_at(const struct nlmsghdr *nlh, uint32_t off,
		      struct nl_attr_hit *hit)
{
	const struct nlattr *a, *e;
	uint16_t msg = NFNL_MSG_TYPE(nlh->nlmsg_type);
	uint32_t start, end;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		start = (const char *)a - (const char *)nlh;
		end = start + MNL_ALIGN(a->nla_len);
		if (off < start || off >= end)
			continue;
		hit->field = nl_attr_field(msg, mnl_attr_get_type(a));
		if (hit->field != NL_H_EXPRS)
			return off == start && hit->field ? 0 : -1;
		/* An expression, or an attribute inside it. */
		hit->expr = 0;
		mnl_attr_for_each_nested(e, a) {
			start = (const char *)e - (const char *)nlh;
			end = start + MNL_ALIGN(e->nla_len);
			if (off >= start && off < end)
				return 0;
			hit->expr++;
		}
		return -1;
	}
	return -1;
}

/**
 * struct nl_expr_find - looking for the location of expression @want
 * @n: expressions seen so far
 * @found: @loc is set
 */
struct nl_expr_find {
	unsigned int		want;
	unsigned int		n;
	bool			found;
	struct location		loc;
};

static void nl_expr_seen(void *priv, const struct location *loc)
{
	struct nl_expr_find *f = priv;

	if (f->n++ == f->want && loc && loc->indesc) {
		f->loc = *loc;
		f->found = true;
	}
}

/*
 * Location of expression @k of the rule @cmd adds. The batch keeps no
 * per-expression locations (100,000 rules would pay for them on every
 * load); this rare path linearizes the rule again and watches the
 * locations lin_add_expr() is given. Whatever the statements append to
 * the batch on the way (anonymous sets) goes to a scratch segment.
 */
static bool nl_expr_location(struct nftc_ctx *nft, const struct cmd *cmd,
			     unsigned int k, struct location *out)
{
	unsigned int set_id = nft->next_set_id, errors = nft->erq.num_errors;
	unsigned int max_errors = nft->erq.max_errors;
	struct nl_expr_find f = { .want = k };
	const struct stmt *s;
	struct lin_ctx l;

	if (cmd->obj != CMD_OBJ_RULE || !cmd->rule ||
	    cmd->op == CMD_DELETE || cmd->op == CMD_DESTROY)
		return false;
	memset(&l, 0, sizeof(l));
	l.nft = nft;
	l.family = cmd->handle.family;
	l.nlr = nftnl_rule_alloc();
	l.batch = nftc_batch_segment_alloc();
	l.expr_loc_cb = nl_expr_seen;
	l.expr_loc_priv = &f;
	/* It compiled before: errors now would be noise, keep none. */
	nft->erq.max_errors = 0;
	if (l.nlr && l.batch) {
		list_for_each_entry(s, &cmd->rule->stmts, list) {
			lin_stmt(&l, s);
			if (f.found)
				break;
		}
	}
	nftc_batch_free(l.batch);
	if (l.nlr)
		nftnl_rule_free(l.nlr);
	nft->next_set_id = set_id;
	nft->erq.num_errors = errors;
	nft->erq.max_errors = max_errors;
	if (f.found)
		*out = f.loc;
	return f.found;
}

/* The handle of what @cmd adds (its own, with source locations). */
static const struct handle *nl_obj_handle(const struct cmd *cmd)
{
	if (!cmd->data || cmd->op == CMD_DELETE || cmd->op == CMD_DESTROY ||
	    cmd->op == CMD_FLUSH || cmd->op == CMD_RESET ||
	    cmd->op == CMD_LIST || cmd->op == CMD_RENAME)
		return NULL;
	switch (cmd->obj) {
	case CMD_OBJ_TABLE:
		return &cmd->table->handle;
	case CMD_OBJ_CHAIN:
		return &cmd->chain->handle;
	case CMD_OBJ_RULE:
		return &cmd->rule->handle;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		return &cmd->set->handle;
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_LIMIT:
	case CMD_OBJ_CT_HELPER:
	case CMD_OBJ_SYNPROXY:
	case CMD_OBJ_SECMARK:
		return &cmd->object->handle;
	case CMD_OBJ_FLOWTABLE:
		return &cmd->flowtable->handle;
	default:
		return NULL;
	}
}

static const struct location *nl_handle_loc(const struct handle *h,
					    enum nl_hfield f)
{
	if (!h)
		return NULL;
	switch (f) {
	case NL_H_TABLE:
		return &h->table.location;
	case NL_H_CHAIN:
		return &h->chain.location;
	case NL_H_SET:
		return &h->set.location;
	case NL_H_OBJ:
		return &h->obj.location;
	case NL_H_FLOWTABLE:
		return &h->flowtable.location;
	case NL_H_HANDLE:
		return &h->handle.location;
	default:
		return NULL;
	}
}

/*
 * Where stock nft puts an error the kernel did not locate: on the
 * command, which for a rule of a table block is the rule itself.
 */
static struct location nl_cmd_location(const struct nftc_seq_loc *sl)
{
	const struct location *c = &sl->cmd->location;

	if (c->indesc && c->indesc == sl->location.indesc &&
	    c->first_line <= sl->location.first_line &&
	    c->last_line >= sl->location.last_line)
		return *c;
	return sl->location;
}

/*
 * The most precise location of error @e: the name or expression the
 * kernel pointed at, else the command's, else the message's.
 */
static struct location nl_err_location(const struct nl_ctx *ctx,
				       const struct nl_err *e)
{
	const struct nftc_batch *b = ctx->batch;
	const struct location *loc = NULL;
	struct nftc_seq_loc sl;
	const struct nlmsghdr *nlh;
	struct nl_attr_hit hit;
	struct location eloc;

	/* BATCH_BEGIN: the commit as a whole */
	if (!nftc_batch_seq_lookup(b, e->seq, &sl) &&
	    !nftc_batch_seq_lookup(b, nftc_batch_seq_first(b) + 1, &sl))
		return internal_location;
	if (!(ctx->flags & NFTC_NL_CMDS) || !sl.cmd)
		return sl.location;
	if (!e->off)
		return nl_cmd_location(&sl);
	nlh = nl_find_msg(ctx->batch, e->seq);
	if (nlh && nl_attr_at(nlh, e->off, &hit) == 0) {
		if (hit.field == NL_H_EXPRS &&
		    nl_expr_location(ctx->nft, sl.cmd, hit.expr, &eloc))
			return eloc;
		if (hit.field == NL_H_EXPRS)
			return sl.location;
		loc = nl_handle_loc(nl_obj_handle(sl.cmd), hit.field);
		if (!loc || !loc->indesc)
			loc = nl_handle_loc(&sl.cmd->handle, hit.field);
	}
	if (loc && loc->indesc)
		return *loc;
	return nl_cmd_location(&sl);
}

static int nl_report(struct nl_ctx *ctx)
{
	unsigned int i, max_errors = ctx->nft->erq.max_errors;

	/*
	 * The error limit is the parser's (stop after N); stock nft prints
	 * every error the kernel reports.
	 */
	ctx->nft->erq.max_errors = ctx->nft->erq.num_errors + ctx->nerrs + 1;
	for (i = 0; i < ctx->nerrs; i++) {
		struct location loc = nl_err_location(ctx, &ctx->errs[i]);

		erec_error(&ctx->nft->erq, &loc, "Could not process rule: %s",
			   strerror(ctx->errs[i].err));
	}
	if (ctx->lost)
		erec_error(&ctx->nft->erq, NULL,
			   "Could not process rule: %s (some errors lost)",
			   strerror(ENOBUFS));
	ctx->nft->erq.max_errors = max_errors;
	return -1;
}

/* A failure before the batch reached nf_tables, located at its start. */
static int nl_fail(struct nl_ctx *ctx, int err)
{
	struct nftc_seq_loc sl;
	bool found;

	found = nftc_batch_seq_lookup(ctx->batch,
				      nftc_batch_seq_first(ctx->batch) + 1,
				      &sl);
	erec_error(&ctx->nft->erq, found ? &sl.location : NULL,
		   "Could not process rule: %s", strerror(err));
	return -1;
}

static bool nl_unreachable(int err)
{
	return err == EPERM || err == EACCES || err == EOPNOTSUPP ||
	       err == EPROTONOSUPPORT || err == EAFNOSUPPORT ||
	       err == ENOENT;
}

static int nl_run(struct nl_ctx *ctx)
{
	unsigned int attempt;
	int ret;

	ret = nl_open(ctx);
	if (ret == 0 && !ctx->genid_fixed)
		ret = nl_get_genid(ctx);
	if (ret < 0) {
		if ((ctx->flags & NFTC_NL_CHECK) && nl_unreachable(-ret))
			return NFTC_NL_UNAVAILABLE;
		return nl_fail(ctx, -ret);
	}
	for (attempt = 0; attempt < NL_GENID_RETRIES; attempt++) {
		ctx->nerrs = 0;
		ctx->lost = false;
		ctx->echo_len = 0;
		ret = nl_talk(ctx);
		if (ret < 0)
			return nl_fail(ctx, -ret);
		if (!nl_genid_changed(ctx))
			break;
		if (ctx->genid_fixed)
			return NFTC_NL_RESTART;
		ret = nl_get_genid(ctx);
		if (ret < 0)
			return nl_fail(ctx, -ret);
	}
	if (!ctx->nerrs && !ctx->lost) {
		/* committed: print what the kernel echoed, as stock */
		if (ctx->nft->echo && !(ctx->flags & NFTC_NL_CHECK))
			nftc_echo_print(ctx->nft, ctx->echo, ctx->echo_len,
					ctx->nft->echo, ctx->nft->echo_oflags);
		return 0;
	}
	if (!(ctx->flags & NFTC_NL_CMDS) &&
	    (ctx->flags & NFTC_NL_IMPRECISE_OK))
		return NFTC_NL_IMPRECISE;
	return nl_report(ctx);
}

static int nl_send(struct nl_ctx *ctx)
{
	int ret;

	/* Nothing to do: stock nft does not even talk to the kernel. */
	if (!nftc_batch_num_msgs(ctx->batch))
		return 0;
	ret = nl_run(ctx);
	nftc_transport_close(ctx->tp);
	free(ctx->errs);
	free(ctx->echo);
	return ret;
}

int nftc_netlink_send(struct nftc_ctx *nft, const struct nftc_batch *batch,
		      unsigned int flags)
{
	struct nl_ctx ctx = { .nft = nft, .batch = batch, .flags = flags };

	return nl_send(&ctx);
}

int nftc_netlink_send_at(struct nftc_ctx *nft, const struct nftc_batch *batch,
			 unsigned int flags, uint32_t genid)
{
	struct nl_ctx ctx = {
		.nft		= nft,
		.batch		= batch,
		.flags		= flags,
		.genid		= genid,
		.genid_fixed	= true,
	};

	return nl_send(&ctx);
}

int nftc_netlink_genid(struct nftc_ctx *nft, uint32_t *genid)
{
	struct nl_ctx ctx = { .nft = nft };
	int ret;

	ret = nl_open(&ctx);
	if (ret == 0)
		ret = nl_get_genid(&ctx);
	if (ret == 0)
		*genid = ctx.genid;
	nftc_transport_close(ctx.tp);
	return ret;
}

int nftc_netlink_commit(struct nftc_ctx *nft, const struct nftc_batch *batch,
			bool check, unsigned int flags)
{
	int ret;

	/* an offline state file is always there to check against */
	if (check && getenv(NFTC_OFFLINE_ENV) && !nft->offline)
		return 0;
	ret = nftc_netlink_send(nft, batch, flags | (check ? NFTC_NL_CHECK :
							  0));
	return ret == NFTC_NL_UNAVAILABLE ? 0 : ret;
}

/* A kernel chain as the cache holds it: without its rules. */
static void cache_strip_table(struct table *t)
{
	struct chain *c;
	struct rule *r, *rn;
	struct set *s, *sn;

	list_for_each_entry(c, &t->chains, list) {
		list_for_each_entry_safe(r, rn, &c->rules, list) {
			list_del(&r->list);
			rule_free(r);
		}
	}
	/* Anonymous sets belong to their rules; commands cannot name them. */
	list_for_each_entry_safe(s, sn, &t->sets, list) {
		if (!(s->flags & SET_F_ANONYMOUS))
			continue;
		list_del(&s->list);
		set_free(s);
	}
}

static int cache_seed(struct nftc_ctx *nft, bool rules, FILE *debug,
		      bool update)
{
	struct nftc_ruleset rs;
	struct table *t, *tn;
	int ret;

	ret = nftc_ruleset_dump_decls(&rs, nft->offline, rules, update,
				      debug);
	if (ret < 0) {
		nftc_ruleset_free(&rs);
		return nl_unreachable(-ret) ? 0 : ret;
	}
	list_for_each_entry_safe(t, tn, &rs.tables, list) {
		struct chain *c;

		cache_strip_table(t);
		/* "did you mean" looks at what the kernel holds */
		list_for_each_entry(c, &t->chains, list)
			c->flags |= NFTC_CHAIN_F_KERNEL;
		list_del(&t->list);
		list_add_tail(&t->list, &nft->tables);
	}
	nftc_ruleset_free(&rs);
	if (update)
		nft->rule_cache = true;
	return 0;
}

int nftc_netlink_cache_seed(struct nftc_ctx *nft)
{
	return cache_seed(nft, false, NULL, false);
}

int nftc_netlink_cache_seed_rules(struct nftc_ctx *nft, FILE *debug,
				  bool update)
{
	return cache_seed(nft, true, debug, update);
}
