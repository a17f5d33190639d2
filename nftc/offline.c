// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The offline backend: "nft --offline STATEFILE ..." sends every request
 * to the nftkit VM (libnftvm) in this process instead of the kernel.
 *
 * The state file is the history of the ruleset as the netlink batches
 * that made it: a 16-byte header, then every committed batch (BATCH_BEGIN
 * .. BATCH_END) in commit order. Opening replays them into a fresh VM;
 * replaying the same batches in the same order gives back the same
 * objects with the same handles and generation, which a regenerated
 * ruleset would not (handles are never reused). A committed batch is
 * appended by writing the whole file anew beside it and renaming it over
 * the old one, so a crash or a rejected batch never leaves a torn file.
 * The file is locked (flock) while the backend is open: two nft runs on
 * one state file take turns.
 *
 * The channel behaves like a netlink socket: sending a request or batch
 * processes it at once and queues the replies the kernel would send
 * (NEW* messages, NLMSG_DONE, acks, NLMSG_ERROR with the extended ack's
 * attribute offset), which the caller then receives.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <nftvm/nftvm.h>
#include "transport.h"

#define STATE_MAGIC	"NFTKIT-VMSTATE1\n"
#define STATE_HDRLEN	16

/**
 * struct nftc_offline - the VM and its state file
 * @fd: the state file, flock()ed
 * @log: the file's contents (header and batches), @len bytes of @cap
 */
struct nftc_offline {
	char		*path;
	int		fd;
	struct nftvm	*vm;
	unsigned char	*log;
	size_t		len;
	size_t		cap;
	uint32_t	next_portid;
};

/**
 * struct off_chan - one "socket" to the VM
 * @q: replies not received yet, from @qoff to @qlen
 */
struct off_chan {
	struct nftc_offline	*off;
	uint32_t		portid;
	unsigned char		*q;
	size_t			qlen;
	size_t			qcap;
	size_t			qoff;
};

/* ------------------------------------------------ the state file */

static int log_append(struct nftc_offline *off, const void *p, size_t len)
{
	unsigned char *n;
	size_t cap;

	if (off->len + len > off->cap) {
		cap = off->cap ? off->cap : 4096;
		while (cap < off->len + len)
			cap *= 2;
		n = realloc(off->log, cap);
		if (!n)
			return -ENOMEM;
		off->log = n;
		off->cap = cap;
	}
	memcpy(off->log + off->len, p, len);
	off->len += len;
	return 0;
}

static int read_all(int fd, struct nftc_offline *off)
{
	unsigned char buf[65536];
	ssize_t n;
	int ret;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		ret = log_append(off, buf, (size_t)n);
		if (ret < 0)
			return ret;
	}
}

static int write_all(int fd, const void *p, size_t len)
{
	const unsigned char *c = p;
	ssize_t n;

	while (len) {
		n = write(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Lock the file @path names now: a writer may have renamed a new file
 * over the one we opened while we waited for the lock.
 */
static int lock_open(const char *path)
{
	struct stat a, b;
	int fd;

	for (;;) {
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (flock(fd, LOCK_EX) < 0) {
			close(fd);
			return -errno;
		}
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);
	}
}

/* BATCH_BEGIN's generation is for the VM as it is now: replays pass. */
static void batch_set_genid(unsigned char *begin, uint32_t genid)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)begin;
	size_t off = NLMSG_ALIGN(NLMSG_LENGTH(sizeof(struct nfgenmsg)));
	struct nlattr *a;
	uint32_t be = htonl(genid);

	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		a = (struct nlattr *)(begin + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > nlh->nlmsg_len)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NFNL_BATCH_GENID &&
		    a->nla_len >= NLA_HDRLEN + 4)
			memcpy((unsigned char *)a + NLA_HDRLEN, &be, 4);
		off += NLA_ALIGN(a->nla_len);
	}
}

/* Length of the batch at @p (up to and with its BATCH_END), 0 if torn. */
static size_t batch_len(const unsigned char *p, size_t rest)
{
	const struct nlmsghdr *nlh;
	size_t off = 0;

	while (rest - off >= NLMSG_HDRLEN) {
		nlh = (const struct nlmsghdr *)(p + off);
		if (nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > rest - off)
			return 0;
		if (off == 0 && nlh->nlmsg_type != NFNL_MSG_BATCH_BEGIN)
			return 0;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		if (nlh->nlmsg_type == NFNL_MSG_BATCH_END)
			return off > rest ? rest : off;
	}
	return 0;
}

/* A fresh VM with every batch of the log applied. */
static int replay(struct nftc_offline *off, char *err, size_t errlen)
{
	struct nftvm_err verr;
	size_t pos = STATE_HDRLEN, n;
	unsigned int k = 0;
	int ret;

	nftvm_destroy(off->vm);
	off->vm = nftvm_new();
	if (!off->vm) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	while (pos < off->len) {
		n = batch_len(off->log + pos, off->len - pos);
		if (!n) {
			snprintf(err, errlen, "%s: corrupt state at byte %zu",
				 off->path, pos);
			return -EINVAL;
		}
		batch_set_genid(off->log + pos, nftvm_genid(off->vm));
		ret = nftvm_batch_process(off->vm, off->log + pos, n, &verr);
		if (ret < 0) {
			snprintf(err, errlen,
				 "%s: batch %u (byte %zu) no longer loads: %s",
				 off->path, k, pos, strerror(-ret));
			return ret;
		}
		pos += n;
		k++;
	}
	return 0;
}

struct nftc_offline *nftc_offline_open(const char *path, char *err,
				       size_t errlen)
{
	struct nftc_offline *off = calloc(1, sizeof(*off));
	int ret;

	if (!off || !(off->path = strdup(path))) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		goto err_free;
	}
	off->next_portid = (uint32_t)getpid() << 8;
	off->fd = lock_open(path);
	if (off->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-off->fd));
		goto err_free;
	}
	ret = read_all(off->fd, off);
	if (ret == 0 && off->len == 0) {
		/* first use: an empty ruleset */
		ret = log_append(off, STATE_MAGIC, STATE_HDRLEN);
		if (ret == 0)
			ret = write_all(off->fd, off->log, off->len);
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto err_free;
	}
	if (off->len < STATE_HDRLEN ||
	    memcmp(off->log, STATE_MAGIC, STATE_HDRLEN)) {
		snprintf(err, errlen, "%s: not an nftkit offline state file",
			 path);
		goto err_free;
	}
	if (replay(off, err, errlen) < 0)
		goto err_free;
	return off;

err_free:
	nftc_offline_close(off);
	return NULL;
}

void nftc_offline_close(struct nftc_offline *off)
{
	if (!off)
		return;
	if (off->fd >= 0)
		close(off->fd);
	nftvm_destroy(off->vm);
	free(off->log);
	free(off->path);
	free(off);
}

struct nftvm *nftc_offline_vm(struct nftc_offline *off)
{
	return off->vm;
}

/*
 * Write the log with @batch appended to a new file and rename it over
 * the state file; the new file's lock is taken before it becomes
 * visible, so the file stays locked throughout.
 */
static int commit_file(struct nftc_offline *off, const void *batch,
		       size_t len)
{
	size_t plen = strlen(off->path);
	char *tmp = malloc(plen + 8);
	int fd, ret;

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, off->path, plen);
	memcpy(tmp + plen, ".XXXXXX", 8);
	fd = mkstemp(tmp);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		return ret;
	}
	ret = flock(fd, LOCK_EX) < 0 ? -errno : 0;
	if (!ret)
		ret = write_all(fd, off->log, off->len);
	if (!ret)
		ret = write_all(fd, batch, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (!ret && rename(tmp, off->path) < 0)
		ret = -errno;
	if (ret < 0) {
		unlink(tmp);
		close(fd);
	} else {
		close(off->fd);
		off->fd = fd;
		ret = log_append(off, batch, len);
	}
	free(tmp);
	return ret;
}

/* ------------------------------------------------ the channel */

static int q_put(struct off_chan *ch, const void *p, size_t len)
{
	unsigned char *n;
	size_t cap;

	if (ch->qlen + len > ch->qcap) {
		cap = ch->qcap ? ch->qcap : 65536;
		while (cap < ch->qlen + len)
			cap *= 2;
		n = realloc(ch->q, cap);
		if (!n)
			return -ENOMEM;
		ch->q = n;
		ch->qcap = cap;
	}
	memcpy(ch->q + ch->qlen, p, len);
	ch->qlen += len;
	return 0;
}

static int q_reply(void *arg, const void *msg, size_t len)
{
	return q_put(arg, msg, len);
}

/*
 * NLMSG_ERROR for @req (an ack when @error is 0), capped as with
 * NETLINK_CAP_ACK; @attr_off >= 0 adds NLMSGERR_ATTR_OFFS.
 */
static int q_error(struct off_chan *ch, const struct nlmsghdr *req,
		   int error, long attr_off)
{
	unsigned char buf[NLMSG_HDRLEN + sizeof(struct nlmsgerr) + 8];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t len = NLMSG_LENGTH(sizeof(*e));
	struct nlattr *a;
	uint32_t v;

	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = ch->portid;
	e->error = error;
	memcpy(&e->msg, req, sizeof(*req));
	e->msg.nlmsg_len = sizeof(*req);
	if (error && attr_off > 0) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		a = (struct nlattr *)(buf + len);
		a->nla_type = NLMSGERR_ATTR_OFFS;
		a->nla_len = NLA_HDRLEN + 4;
		v = (uint32_t)attr_off;
		memcpy((unsigned char *)a + NLA_HDRLEN, &v, 4);
		len += NLA_ALIGN(a->nla_len);
	}
	nlh->nlmsg_len = (uint32_t)len;
	return q_put(ch, buf, NLMSG_ALIGN(len));
}

/* Offset and header of message @index of the batch in @buf. */
static const struct nlmsghdr *msg_at(const unsigned char *buf, size_t len,
				     int index, size_t *off)
{
	const struct nlmsghdr *nlh = NULL;
	size_t pos = 0;
	int i = 0;

	while (len - pos >= NLMSG_HDRLEN) {
		nlh = (const struct nlmsghdr *)(buf + pos);
		if (nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - pos)
			break;
		if (i == index)
			break;
		i++;
		pos += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	*off = pos;
	return nlh;
}

/* Acks for the messages that asked, after a committed batch. */
static int q_batch_acks(struct off_chan *ch, const unsigned char *buf,
			size_t len)
{
	const struct nlmsghdr *nlh;
	size_t pos = 0;
	int ret;

	while (len - pos >= NLMSG_HDRLEN) {
		nlh = (const struct nlmsghdr *)(buf + pos);
		if (nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - pos)
			break;
		if (nlh->nlmsg_flags & NLM_F_ACK) {
			ret = q_error(ch, nlh, 0, -1);
			if (ret < 0)
				return ret;
		}
		pos += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 0;
}

static int q_batch_error(struct off_chan *ch, const unsigned char *buf,
			 size_t len, const struct nftvm_err *verr)
{
	const struct nlmsghdr *nlh;
	size_t off;

	nlh = msg_at(buf, len, verr->msg_index, &off);
	if (!nlh)
		return -EINVAL;
	return q_error(ch, nlh, verr->error,
		       verr->attr_off >= 0 ? verr->attr_off - (long)off : -1);
}

static bool batch_has_end(const unsigned char *buf, size_t len)
{
	const struct nlmsghdr *nlh = NULL;
	size_t pos = 0;

	while (len - pos >= NLMSG_HDRLEN) {
		nlh = (const struct nlmsghdr *)(buf + pos);
		if (nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - pos)
			return false;
		pos += NLMSG_ALIGN(nlh->nlmsg_len);
		if (nlh->nlmsg_type == NFNL_MSG_BATCH_END)
			return true;
	}
	return false;
}

/*
 * A batch without BATCH_END ("nft -c"): the kernel checks every message
 * and aborts. Here it is applied with an END of its own, then the VM is
 * rebuilt from the untouched state file.
 */
static int chan_check_batch(struct off_chan *ch, unsigned char *buf,
			    size_t len)
{
	struct nftc_offline *off = ch->off;
	struct nlmsghdr *end;
	struct nftvm_err verr;
	char msg[256];
	unsigned char *copy = malloc(len + NLMSG_HDRLEN + 16);
	int ret;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	end = (struct nlmsghdr *)(copy + len);
	memset(end, 0, NLMSG_ALIGN(NLMSG_LENGTH(sizeof(struct nfgenmsg))));
	end->nlmsg_len = NLMSG_LENGTH(sizeof(struct nfgenmsg));
	end->nlmsg_type = NFNL_MSG_BATCH_END;
	end->nlmsg_flags = NLM_F_REQUEST;
	ret = nftvm_batch_process(off->vm, copy,
				  len + NLMSG_ALIGN(end->nlmsg_len), &verr);
	if (ret < 0)
		ret = q_batch_error(ch, copy, len, &verr);
	else
		ret = replay(off, msg, sizeof(msg));
	free(copy);
	return ret;
}

static int chan_batch(struct off_chan *ch, unsigned char *buf, size_t len)
{
	struct nftc_offline *off = ch->off;
	const struct nlmsghdr *begin = (const struct nlmsghdr *)buf;
	struct nftvm_err verr;
	char msg[256];
	int ret;

	if (!batch_has_end(buf, len))
		return chan_check_batch(ch, buf, len);
	ret = nftvm_batch_process(off->vm, buf, len, &verr);
	if (ret < 0)
		return q_batch_error(ch, buf, len, &verr);
	ret = commit_file(off, buf, len);
	if (ret < 0) {
		/* not on disk: not done; the VM goes back to the file */
		replay(off, msg, sizeof(msg));
		return q_error(ch, begin, ret, -1);
	}
	return q_batch_acks(ch, buf, len);
}

/* One request outside a batch, answered like the netlink core does. */
static int chan_request(struct off_chan *ch, const struct nlmsghdr *nlh)
{
	struct nftvm_err verr;
	size_t qmark = ch->qlen;
	int ret;

	ret = nftvm_request(ch->off->vm, nlh, nlh->nlmsg_len, ch->portid,
			    q_reply, ch, &verr);
	if (ret < 0) {
		ch->qlen = qmark;	/* a failed dump sends only the error */
		return q_error(ch, nlh, ret, verr.attr_off);
	}
	if ((nlh->nlmsg_flags & NLM_F_ACK) &&
	    (nlh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		return q_error(ch, nlh, 0, -1);
	return 0;
}

static ssize_t chan_sendv(void *priv, const struct iovec *iov, int iovcnt)
{
	struct off_chan *ch = priv;
	const struct nlmsghdr *nlh;
	unsigned char *buf;
	size_t len = 0, pos = 0;
	int i, ret = 0;

	for (i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < iovcnt; i++) {
		memcpy(buf + pos, iov[i].iov_base, iov[i].iov_len);
		pos += iov[i].iov_len;
	}
	nlh = (const struct nlmsghdr *)buf;
	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN) {
		ret = chan_batch(ch, buf, len);
		goto out;
	}
	for (pos = 0; len - pos >= NLMSG_HDRLEN && ret == 0;
	     pos += NLMSG_ALIGN(nlh->nlmsg_len)) {
		nlh = (const struct nlmsghdr *)(buf + pos);
		if (nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - pos)
			break;
		ret = chan_request(ch, nlh);
	}
out:
	free(buf);
	return ret < 0 ? ret : (ssize_t)len;
}

/* Whole messages, as many as fit; a message larger than @len is cut. */
static ssize_t chan_recv(void *priv, void *buf, size_t len, bool nonblock)
{
	struct off_chan *ch = priv;
	const struct nlmsghdr *nlh;
	size_t n = 0, m;

	if (ch->qoff >= ch->qlen)
		return -EAGAIN;
	while (ch->qoff + n < ch->qlen) {
		nlh = (const struct nlmsghdr *)(ch->q + ch->qoff + n);
		m = NLMSG_ALIGN(nlh->nlmsg_len);
		if (n + m > len) {
			if (n == 0) {
				memcpy(buf, nlh, len);
				ch->qoff += m;
				return (ssize_t)len;
			}
			break;
		}
		n += m;
	}
	memcpy(buf, ch->q + ch->qoff, n);
	ch->qoff += n;
	if (ch->qoff == ch->qlen)
		ch->qoff = ch->qlen = 0;
	return (ssize_t)n;
}

static void chan_close(void *priv)
{
	struct off_chan *ch = priv;

	free(ch->q);
	free(ch);
}

static const struct nftc_transport_ops chan_ops = {
	.sendv	= chan_sendv,
	.recv	= chan_recv,
	.close	= chan_close,
};

int nftc_offline_transport(struct nftc_offline *off,
			   struct nftc_transport *tp)
{
	struct off_chan *ch = calloc(1, sizeof(*ch));

	if (!ch)
		return -ENOMEM;
	ch->off = off;
	ch->portid = ++off->next_portid;
	tp->ops = &chan_ops;
	tp->priv = ch;
	tp->portid = ch->portid;
	tp->fd = -1;
	return 0;
}
