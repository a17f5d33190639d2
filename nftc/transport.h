/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_TRANSPORT_H
#define NFTC_TRANSPORT_H

/*
 * Where netlink requests go: a NETLINK_NETFILTER socket (the kernel) or
 * the nftkit VM in this process (offline backend, offline.c). Both look
 * like a datagram netlink socket: what is sent is processed at once and
 * its replies queue up to be received, so netlink.c and list.c talk to
 * either the same way.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

struct nftc_offline;

/**
 * struct nftc_transport_ops - one kind of transport
 * @sendv: send the concatenation of @iov as one datagram (a batch is
 *         one); returns bytes sent or -errno
 * @recv: copy the next queued replies (whole messages) to @buf; with
 *        @nonblock, -EAGAIN when nothing is queued
 * @close: release everything
 */
struct nftc_transport_ops {
	ssize_t	(*sendv)(void *priv, const struct iovec *iov, int iovcnt);
	ssize_t	(*recv)(void *priv, void *buf, size_t len, bool nonblock);
	void	(*close)(void *priv);
};

/**
 * struct nftc_transport - an open transport
 * @portid: our netlink address (replies carry it)
 * @fd: the socket, -1 for the VM (no socket options then)
 */
struct nftc_transport {
	const struct nftc_transport_ops	*ops;
	void				*priv;
	uint32_t			portid;
	int				fd;
};

/*
 * Open the kernel socket (@off NULL) or a channel to the offline VM.
 * Returns 0 or -errno (*@tp is then NULL).
 */
int nftc_transport_open(struct nftc_offline *off, struct nftc_transport **tp);
/* Accepts NULL. */
void nftc_transport_close(struct nftc_transport *tp);

ssize_t nftc_transport_sendv(struct nftc_transport *tp,
			     const struct iovec *iov, int iovcnt);
ssize_t nftc_transport_send(struct nftc_transport *tp, const void *buf,
			    size_t len);
ssize_t nftc_transport_recv(struct nftc_transport *tp, void *buf, size_t len,
			    bool nonblock);

/* ------------------------------------------------ offline backend */

/*
 * The offline backend: the VM and the state file it is kept in. Open
 * replays the file (created empty if missing, locked for the life of the
 * backend); every committed batch is appended to the file atomically
 * (temporary file + rename), a rejected one leaves it untouched.
 * Returns NULL with a message in @err (of @errlen bytes) on failure.
 */
struct nftc_offline *nftc_offline_open(const char *path, char *err,
				       size_t errlen);
void nftc_offline_close(struct nftc_offline *off);
/* The VM itself (struct nftvm, kmod/include/nftvm/nftvm.h). */
struct nftvm *nftc_offline_vm(struct nftc_offline *off);

/* The VM channel behind nftc_transport_open(off, ...). */
int nftc_offline_transport(struct nftc_offline *off,
			   struct nftc_transport *tp);

#endif
