// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transport choice and the kernel transport: a NETLINK_NETFILTER
 * socket (libmnl) with extended and capped acknowledgements.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include "transport.h"

static ssize_t sock_sendv(void *priv, const struct iovec *iov, int iovcnt)
{
	struct sockaddr_nl snl = { .nl_family = AF_NETLINK };
	struct msghdr msg = {
		.msg_name	= &snl,
		.msg_namelen	= sizeof(snl),
		.msg_iov	= (struct iovec *)iov,
		.msg_iovlen	= iovcnt,
	};
	ssize_t ret;

	do {
		ret = sendmsg(mnl_socket_get_fd(priv), &msg, 0);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

/* ENOBUFS (replies dropped) is passed on: the caller decides. */
static ssize_t sock_recv(void *priv, void *buf, size_t len, bool nonblock)
{
	ssize_t ret;

	do {
		ret = recv(mnl_socket_get_fd(priv), buf, len,
			   nonblock ? MSG_DONTWAIT : 0);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0 && errno == EWOULDBLOCK)
		return -EAGAIN;
	return ret < 0 ? -errno : ret;
}

static void sock_close(void *priv)
{
	mnl_socket_close(priv);
}

static const struct nftc_transport_ops sock_ops = {
	.sendv	= sock_sendv,
	.recv	= sock_recv,
	.close	= sock_close,
};

static int sock_open(struct nftc_transport *tp)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_NETFILTER);
	int one = 1, err;

	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		mnl_socket_close(nl);
		return err;
	}
	/* Both are optional: old kernels just give less detail. */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	tp->ops = &sock_ops;
	tp->priv = nl;
	tp->portid = mnl_socket_get_portid(nl);
	tp->fd = mnl_socket_get_fd(nl);
	return 0;
}

int nftc_transport_open(struct nftc_offline *off, struct nftc_transport **tp)
{
	struct nftc_transport *t = calloc(1, sizeof(*t));
	int ret;

	*tp = NULL;
	if (!t)
		return -ENOMEM;
	t->fd = -1;
	ret = off ? nftc_offline_transport(off, t) : sock_open(t);
	if (ret < 0) {
		free(t);
		return ret;
	}
	*tp = t;
	return 0;
}

void nftc_transport_close(struct nftc_transport *tp)
{
	if (!tp)
		return;
	tp->ops->close(tp->priv);
	free(tp);
}

ssize_t nftc_transport_sendv(struct nftc_transport *tp,
			     const struct iovec *iov, int iovcnt)
{
	return tp->ops->sendv(tp->priv, iov, iovcnt);
}

ssize_t nftc_transport_send(struct nftc_transport *tp, const void *buf,
			    size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return tp->ops->sendv(tp->priv, &iov, 1);
}

ssize_t nftc_transport_recv(struct nftc_transport *tp, void *buf, size_t len,
			    bool nonblock)
{
	return tp->ops->recv(tp->priv, buf, len, nonblock);
}
