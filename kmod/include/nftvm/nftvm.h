/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnftvm public API: the nftkit packet-classification VM.
 *
 * The VM is programmed with the same nfnetlink batches the kernel's
 * nf_tables accepts (NFNL_MSG_BATCH_BEGIN, NFT_MSG_NEWxxx, NFT_MSG_DELxxx
 * and NFT_MSG_DESTROYxxx, NFNL_MSG_BATCH_END) and evaluates packets
 * through the base chains of a hook.  One struct nftvm is one ruleset (one
 * "network namespace"); it is not thread safe.
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

/*
 * NFT_MSG_DESTROY* (Linux 6.3): DEL that does not fail when the object
 * is missing.  Older uapi headers lack them, so the values are kept here
 * once; NFTVM_MSG_MAX bounds every table indexed by message type.
 */
#define NFTVM_MSG_DESTROYTABLE		26
#define NFTVM_MSG_DESTROYCHAIN		27
#define NFTVM_MSG_DESTROYRULE		28
#define NFTVM_MSG_DESTROYSET		29
#define NFTVM_MSG_DESTROYSETELEM	30
#define NFTVM_MSG_DESTROYOBJ		31
#define NFTVM_MSG_DESTROYFLOWTABLE	32
#define NFTVM_MSG_MAX			34

#define NFTVM_LL_MAX	32

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
	/*
	 * Conntrack (the ct expression).  @ct_state holds the "ct state"
	 * bits (invalid 1, established 2, related 4, new 8, untracked 64);
	 * a packet has a conntrack entry when one of established, related
	 * or new is set, otherwise every other ct key does not match.
	 * Tuples are per direction (IP_CT_DIR_ORIGINAL, IP_CT_DIR_REPLY),
	 * addresses and ports in network order; @ct_l3num and
	 * @ct_protonum of 0 mean "the packet's".
	 */
	__u32	ct_state;
	__u32	ct_status;
	__u32	ct_mark;
	__u32	ct_secmark;
	__u32	ct_expiration;	/* ms */
	__u32	ct_id;
	__u32	ct_eventmask;
	__u16	ct_zone;
	__u8	ct_dir;
	__u8	ct_l3num;
	__u8	ct_protonum;
	__u8	ct_labels[16];
	char	ct_helper[16];
	__u64	ct_packets[2];
	__u64	ct_bytes[2];
	__u8	ct_src[2][16];
	__u8	ct_dst[2][16];
	__u16	ct_sport[2];
	__u16	ct_dport[2];
	/*
	 * FIB answers for the fib expression (the VM has no routing
	 * table), per address looked up (0: saddr, 1: daddr): the route's
	 * output interface index (0: no route) and name, and the address
	 * type (RTN_UNICAST, RTN_LOCAL, ...).
	 */
	__u32	fib_oif[2];
	char	fib_oifname[2][16];
	__u32	fib_type[2];
	/*
	 * The packet's route (the kernel's skb dst) for the rt expression:
	 * @rt_dst false for none (a received packet before the routing
	 * step: prerouting, ingress): every rt load then does not match.
	 * @rt_classid: the route's realm; @rt_nexthop: its gateway (IPv4
	 * in the first 4 bytes), all zero for a directly connected
	 * destination (the nexthop is then the packet's destination
	 * address); @rt_mtu: the route's MTU; @rt_mtu_rev: the MTU of the
	 * route back to the packet's source address (0: no such route),
	 * for "rt mtu" (TCP MSS); @rt_xfrm: the route has an IPsec
	 * transform ("rt ipsec exists").
	 */
	bool	rt_dst;
	__u8	rt_xfrm;
	/* the packet came out of IPsec ("meta secpath exists") */
	__u8	secpath;
	__u32	rt_classid;
	__u8	rt_nexthop[16];
	__u32	rt_mtu;
	__u32	rt_mtu_rev;
	/*
	 * The link-layer header in front of an ip/ip6/inet packet (the
	 * kernel's MAC header of a received packet: 14 bytes of Ethernet
	 * on veth or lo), @ll_len 0 for none (packets the host sends):
	 * "payload @ link header" loads read it, and past its end the
	 * packet's bytes, as from the kernel's MAC header on.
	 */
	__u8	ll_len;
	__u8	ll[NFTVM_LL_MAX];
};

/* ct state bits, as nft's "ct state" values */
#define NFTVM_CT_INVALID	0x01
#define NFTVM_CT_ESTABLISHED	0x02
#define NFTVM_CT_RELATED	0x04
#define NFTVM_CT_NEW		0x08
#define NFTVM_CT_UNTRACKED	0x40

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

/* steps a result keeps: a path through 16 levels of jumps with a few
 * matching rules per chain stays below it (trace-kernel.sh's deep
 * rounds went past 64) */
#define NFTVM_TRACE_MAX	256
#define NFTVM_LOG_MAX	8
#define NFTVM_LOG_PREFIXLEN	128
#define NFTVM_LOG_LINELEN	256

enum nftvm_nat_kind {
	NFTVM_NAT_NONE,
	NFTVM_NAT_SNAT,
	NFTVM_NAT_DNAT,
	NFTVM_NAT_MASQ,
	NFTVM_NAT_REDIR,
	__NFTVM_NAT_MAX
};

/**
 * struct nftvm_nat_decision - what a nat/masq/redir expression decided
 * @kind:	enum nftvm_nat_kind, NFTVM_NAT_NONE if nothing was decided
 * @family:	NFPROTO_IPV4/IPV6 of the addresses
 * @flags:	NF_NAT_RANGE_* (MAP_IPS, PROTO_SPECIFIED, ...)
 * @addr_min/@addr_max: the address range (network order, 4 or 16 bytes)
 * @proto_min/@proto_max: the port range (host order)
 */
struct nftvm_nat_decision {
	__u8	kind;
	__u8	family;
	__u32	flags;
	__u8	addr_min[16];
	__u8	addr_max[16];
	__u16	proto_min;
	__u16	proto_max;
};

/**
 * struct nftvm_reject_decision - the reply a reject expression asked for
 * @type:	NFT_REJECT_ICMP_UNREACH, NFT_REJECT_TCP_RST or
 *		NFT_REJECT_ICMPX_UNREACH
 * @icmp_code:	ICMP / ICMPv6 / NFT_REJECT_ICMPX_* code
 * @family:	NFPROTO_IPV4 or NFPROTO_IPV6 of the packet
 */
struct nftvm_reject_decision {
	bool	set;
	__u8	type;
	__u8	icmp_code;
	__u8	family;
};

/**
 * struct nftvm_dup_decision - the last copy a dup expression asked for
 * @addr:	gateway address (network order, 4 or 16 bytes)
 * @oif:	output interface index, 0 if none was given
 */
struct nftvm_dup_decision {
	bool	set;
	__u8	family;
	__u8	addr[16];
	__u32	oif;
};

/**
 * struct nftvm_log_entry - one log statement that fired
 * @line:	the message as the kernel's log backend writes it, prefix
 *		first ("PREFIX IN=eth0 OUT= SRC=... DST=... PROTO=TCP ...")
 */
struct nftvm_log_entry {
	char	prefix[NFTVM_LOG_PREFIXLEN];
	__u32	level;
	__u32	flags;
	__u16	group;
	__u16	qthreshold;
	__u32	snaplen;
	bool	has_group;
	char	line[NFTVM_LOG_LINELEN];
};

/**
 * struct nftvm_result - outcome of one nftvm_eval()
 * @verdict:	final netfilter verdict (NF_ACCEPT, NF_DROP, NF_QUEUE | ...)
 * @chains:	number of base chains the packet went through
 * @ntrace:	number of valid entries in @trace
 * @truncated:	more steps happened than @trace holds
 * @trace:	matching rules, returns and policies, in order
 * @meta:	the packet's metadata after the ruleset ran (meta set, ct set)
 * @pkt_modified: a payload or exthdr write changed the packet bytes
 *		(nftvm_pkt.data, in place, checksums updated)
 * @notrack:	a notrack expression ran
 * @nat:	the NAT decision (first nat/masq/redir that ran)
 * @reject:	the reject decision (the verdict is then NF_DROP)
 * @log:	the log statements that ran, in order (@nlog of them)
 * @dup:	the last dup (packet copy) asked for
 *
 * Names in @trace point into the VM and stay valid until the next batch.
 */
struct nftvm_result {
	int			verdict;
	unsigned int		chains;
	unsigned int		ntrace;
	bool			truncated;
	struct nftvm_trace_step	trace[NFTVM_TRACE_MAX];
	/* side effects (all zero when nothing happened) */
	struct nftvm_pktmeta		meta;
	bool				pkt_modified;
	bool				notrack;
	struct nftvm_nat_decision	nat;
	struct nftvm_reject_decision	reject;
	unsigned int			nlog;
	bool				log_truncated;
	struct nftvm_log_entry		log[NFTVM_LOG_MAX];
	struct nftvm_dup_decision	dup;
};

struct nftvm *nftvm_new(void);
void nftvm_destroy(struct nftvm *vm);

int nftvm_batch_process(struct nftvm *vm, const void *buf, size_t len,
			struct nftvm_err *err);

__u32 nftvm_genid(const struct nftvm *vm);

/*
 * The VM clock (nanoseconds, any epoch): set element timeouts given in a
 * batch expire relative to it.  A packet with a non-zero meta time_ns
 * moves the clock forward to that time; limits, quotas, dynset timeouts
 * and "last" use the packet's time.
 */
void nftvm_set_time(struct nftvm *vm, __u64 now_ns);
__u64 nftvm_time(const struct nftvm *vm);

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

/* Named objects (NFT_MSG_NEWOBJ): counter packets/bytes, quota consumed
 * bytes, limit: 0 or -ENOENT/-EOPNOTSUPP. */
int nftvm_obj_counter(const struct nftvm *vm, unsigned int family,
		      const char *table, const char *name,
		      __u64 *packets, __u64 *bytes);
int nftvm_obj_quota(const struct nftvm *vm, unsigned int family,
		    const char *table, const char *name, __u64 *consumed);

/* The counter of a set element ("set s { counter; }", dynset meters). */
int nftvm_elem_counter(const struct nftvm *vm, unsigned int family,
		       const char *table, const char *set, const void *key,
		       unsigned int klen, __u64 *packets, __u64 *bytes);

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
