/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel side of the differential VM tests (check_vm_*_kernel.c,
 * check_vm_exprdump.c): a private network namespace (never the root
 * one), a NETLINK_NETFILTER socket in it, and the request/answer
 * patterns they all use on that socket.  Each test binary runs its
 * tests in forked children (Check's default), so the namespace entered
 * in a fixture's set-up dies with the test.
 */
#ifndef CHECK_VM_NETNS_H
#define CHECK_VM_NETNS_H

#include "check_vm_common.h"

#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static inline bool netns_lo_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok;

	if (fd < 0)
		return false;
	strcpy(ifr.ifr_name, "lo");
	ok = ioctl(fd, SIOCGIFFLAGS, &ifr) == 0;
	ifr.ifr_flags |= IFF_UP;
	ok = ok && ioctl(fd, SIOCSIFFLAGS, &ifr) == 0;
	close(fd);
	return ok;
}

/*
 * Move into a fresh network namespace (with its loopback up when @lo);
 * false, "SKIP" said, without root or namespaces.
 */
static inline bool netns_enter(bool lo)
{
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0 ||
	    (lo && !netns_lo_up())) {
		printf("SKIP: needs root and a private network namespace\n");
		return false;
	}
	return true;
}

/*
 * A bound NETLINK_NETFILTER socket whose reads give up after @usec
 * microseconds of silence; NULL, "SKIP" said, without nf_tables.
 */
static inline struct mnl_socket *nfnl_open(long usec)
{
	struct timeval tv = { .tv_usec = usec };
	struct mnl_socket *nl = mnl_socket_open(NETLINK_NETFILTER);

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		printf("SKIP: no nf_tables\n");
		if (nl)
			mnl_socket_close(nl);
		return NULL;
	}
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	return nl;
}

/* the kernel's answers until it goes quiet; -errno of the first error */
static inline int nfnl_drain(struct mnl_socket *nl)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int ret, err = 0;

	for (;;) {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret <= 0)
			return err;
		ret = mnl_cb_run(buf, ret, 0, 0, NULL, NULL);
		if (ret < 0 && !err)
			err = -errno;
	}
}

/* the kernel's answer to the one acknowledged message of a batch */
static inline int nfnl_ack(struct mnl_socket *nl)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const struct nlmsghdr *nlh;
	int ret;

	ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	ck_assert_int_gt(ret, 0);
	nlh = (const struct nlmsghdr *)buf;
	ck_assert_int_eq(nlh->nlmsg_type, NLMSG_ERROR);
	return ((const struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error;
}

/* send the dump request @req; every answer to @cb until the dump's end */
static inline void nfnl_dump(struct mnl_socket *nl,
			     const struct nlmsghdr *req, mnl_cb_t cb,
			     void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int ret;

	ck_assert_int_ge(mnl_socket_sendto(nl, req, req->nlmsg_len), 0);
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		ck_assert_int_gt(ret, 0);
		ret = mnl_cb_run(buf, ret, 0, 0, cb, data);
	} while (ret > 0);
	ck_assert_int_eq(ret, MNL_CB_STOP);
}

/* every rule of @family table @table, one message each to @cb */
static inline void nfnl_dump_rules(struct mnl_socket *nl, int family,
				   const char *table, mnl_cb_t cb,
				   void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nlmsghdr *nlh;

	memset(buf, 0, sizeof(buf));
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETRULE, family,
				    NLM_F_DUMP, 1);
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	nfnl_dump(nl, nlh, cb, data);
}

#endif
