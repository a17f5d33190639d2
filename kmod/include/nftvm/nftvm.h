/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnftvm public API: the nftkit packet-classification VM.
 *
 * The VM is programmed with the same nfnetlink batches the kernel's
 * nf_tables accepts (NFNL_MSG_BATCH_BEGIN, NFT_MSG_NEWxxx and NFT_MSG_DELxxx,
 * NFNL_MSG_BATCH_END) and evaluates packets through the base chains of a
 * hook.  One struct nftvm is one ruleset (one "network namespace"); it is
 * not thread safe.
 */
#ifndef NFTVM_H
#define NFTVM_H

#include <nftvm/compat.h>

struct nftvm;

/**
 * struct nftvm_err - why a batch was rejected
 * @error:	negative errno, as the kernel would answer
 * @seq:	nlmsg_seq of the failing message
 * @msg_index:	index of the failing message in the batch (BEGIN is 0)
 * @msg_type:	NFT_MSG_* of the failing message (without the subsystem)
 * @attr:	type of the innermost attribute blamed, 0 if none
 * @attr_off:	offset of that attribute in the batch buffer, -1 if none
 *		(the kernel's extack bad_attr)
 */
struct nftvm_err {
	int		error;
	__u32		seq;
	int		msg_index;
	__u16		msg_type;
	__u16		attr;
	long		attr_off;
};

/**
 * struct nftvm_pktmeta - metadata that travels with a packet
 *
 * Interface indexes of 0 mean "no such interface" (a meta iif/oif load
 * then does not match); the @sk_valid flag says whether a local socket is
 * attached (meta skuid/skgid).
 */
struct nftvm_pktmeta {
	__u32	mark;
	__u32	priority;
	__u32	iif;
	__u32	oif;
	char	iifname[16];
	char	oifname[16];
	__u16	iiftype;
	__u16	oiftype;
	__u32	iifgroup;
	__u32	oifgroup;
	bool	sk_valid;
	__u32	skuid;
	__u32	skgid;
	__u32	cgroup;
	__u32	secmark;
	__u8	pkttype;
	__u8	nftrace;
	__u32	cpu;
	__u32	prandom;
	__u64	time_ns;
};

/**
 * struct nftvm_pkt - a packet handed to nftvm_eval()
 * @data:	the bytes, starting at the network header for ip/ip6/inet
 * @len:	number of valid bytes at @data
 */
struct nftvm_pkt {
	__u8	*data;
	__u32	len;
};

/* enum nft_trace_types values are used for nftvm_trace_step.type */
struct nftvm_trace_step {
	const char	*table;
	const char	*chain;
	__u8		family;
	__u8		type;		/* NFT_TRACETYPE_RULE/RETURN/POLICY */
	__u64		handle;		/* rule handle, 0 for policy/return */
	int		verdict;	/* NF_ACCEPT, NF_DROP, NFT_JUMP, ... */
	const char	*target;	/* jump/goto target chain or NULL */
};

#define NFTVM_TRACE_MAX	64

/**
 * struct nftvm_result - outcome of one nftvm_eval()
 * @verdict:	final netfilter verdict (NF_ACCEPT, NF_DROP, NF_QUEUE | ...)
 * @chains:	number of base chains the packet went through
 * @ntrace:	number of valid entries in @trace
 * @truncated:	more steps happened than @trace holds
 * @trace:	matching rules, returns and policies, in order
 *
 * Names in @trace point into the VM and stay valid until the next batch.
 */
struct nftvm_result {
	int			verdict;
	unsigned int		chains;
	unsigned int		ntrace;
	bool			truncated;
	struct nftvm_trace_step	trace[NFTVM_TRACE_MAX];
};

struct nftvm *nftvm_new(void);
void nftvm_destroy(struct nftvm *vm);

int nftvm_batch_process(struct nftvm *vm, const void *buf, size_t len,
			struct nftvm_err *err);

__u32 nftvm_genid(const struct nftvm *vm);

int nftvm_eval(struct nftvm *vm, unsigned int hook, unsigned int family,
	       struct nftvm_pkt *pkt, const struct nftvm_pktmeta *meta,
	       struct nftvm_result *res);

int nftvm_rule_counters(const struct nftvm *vm, unsigned int family,
			const char *table, const char *chain, __u64 handle,
			__u64 *packets, __u64 *bytes);

int nftvm_rule_count(const struct nftvm *vm, unsigned int family,
		     const char *table, const char *chain);

int nftvm_set_nelems(const struct nftvm *vm, unsigned int family,
		     const char *table, const char *set);

int nftvm_object_count(const struct nftvm *vm);

/**
 * typedef nftvm_reply_fn - receives one reply message of nftvm_request()
 * @arg:	the caller's cookie
 * @msg:	a complete netlink message (header included)
 * @len:	its length, NLMSG_ALIGNed
 *
 * The message is only valid during the call.  Return 0 to go on or a
 * negative errno to abort the request with it.
 */
typedef int (*nftvm_reply_fn)(void *arg, const void *msg, size_t len);

int nftvm_request(struct nftvm *vm, const void *buf, size_t len,
		  __u32 portid, nftvm_reply_fn fn, void *arg,
		  struct nftvm_err *err);

#endif /* NFTVM_H */
