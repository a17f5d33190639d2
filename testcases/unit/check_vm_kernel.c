// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Differential test of the VM's newer expressions against the running
 * kernel.  In a private network namespace (unshare(CLONE_NEWNET), never
 * the root one) the very same nfnetlink batch is loaded into nf_tables
 * and into libnftvm; the same crafted IPv4 packets are sent through the
 * kernel's output hook (raw socket to 127.0.0.1) and through the VM's;
 * then every rule's counter is read back from the kernel (GETRULE dump
 * parsed with libnftnl) and compared with the VM's.  Covered: quota
 * (until/over, reaching it exactly), numgen, jhash with a seed, limit
 * burst, dynset into a bounded set, a meter (dynset with a per-element
 * limit), exthdr TCP options (value, F_PRESENT present/absent),
 * TCP option write, IPv6 extension headers (present, absent, values,
 * the transport header behind them), SCTP chunks (presence, fields,
 * padding, truncation, non-SCTP packets), payload writes with the checksum
 * fixed (the kernel's
 * and the VM's checksums are compared through cmp rules holding the
 * value recomputed from scratch here).
 * Needs root and nf_tables: otherwise each test says SKIP and passes.
 */
#define _GNU_SOURCE
#include "check_vm_exprs.h"
#include "check_vm_netns.h"

#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define TTL_MARK	77	/* our packets; kernel replies use 64 */
#define MAXRULES	64

struct ctr {
	uint64_t	handle;
	uint64_t	packets;
	bool		has;
};

struct kstate {
	struct mnl_socket	*nl;
	int			raw;
	struct ctr		ctr[MAXRULES];
	unsigned int		n;
};

static struct nftvm *vm;
static struct kstate ks;
static bool have_kernel;
static const struct nftvm_pktmeta *send_meta;	/* send_both()'s, or none */

static void setup(void)
{
	vm = nftvm_new();
	ck_assert_ptr_nonnull(vm);
	send_meta = NULL;
	have_kernel = false;
	memset(&ks, 0, sizeof(ks));
	ks.raw = -1;
	if (!netns_enter(true))
		return;
	ks.nl = nfnl_open(200000);
	if (!ks.nl)
		return;
	ks.raw = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	have_kernel = ks.raw >= 0;
	if (!have_kernel)
		printf("SKIP: no raw socket\n");
}

static void teardown(void)
{
	if (ks.nl)
		mnl_socket_close(ks.nl);
	if (ks.raw >= 0)
		close(ks.raw);
	nftvm_destroy(vm);
	vm = NULL;
}

/* close the batch and hand the same bytes to the kernel and the VM */
static void load_both(struct vmb *v)
{
	struct nftvm_err err;

	nftnl_batch_end(mnl_nlmsg_batch_current(v->b), v->seq++);
	mnl_nlmsg_batch_next(v->b);
	ck_assert_int_eq(nftvm_batch_process(vm, mnl_nlmsg_batch_head(v->b),
					     mnl_nlmsg_batch_size(v->b),
					     &err), 0);
	ck_assert_int_ge(mnl_socket_sendto(ks.nl, mnl_nlmsg_batch_head(v->b),
					   mnl_nlmsg_batch_size(v->b)), 0);
	ck_assert_int_eq(nfnl_drain(ks.nl), 0);
	mnl_nlmsg_batch_stop(v->b);
	free(v->buf);
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nftnl_expr_iter *it;
	struct nftnl_expr *e;
	struct ctr *c;

	if (nftnl_rule_nlmsg_parse(nlh, r) < 0 || ks.n == MAXRULES) {
		nftnl_rule_free(r);
		return MNL_CB_OK;
	}
	c = &ks.ctr[ks.n++];
	c->handle = nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE);
	it = nftnl_expr_iter_create(r);
	while ((e = nftnl_expr_iter_next(it)) != NULL)
		if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME),
			    "counter")) {
			c->packets += nftnl_expr_get_u64(e,
						NFTNL_EXPR_CTR_PACKETS);
			c->has = true;
		}
	nftnl_expr_iter_destroy(it);
	nftnl_rule_free(r);
	return MNL_CB_OK;
}

/* every counter of table @table, kernel against VM; returns how many */
static unsigned int compare_counters_in(int family, const char *table)
{
	unsigned int i, n = 0;
	__u64 pk, by;

	ks.n = 0;
	nfnl_dump_rules(ks.nl, family, table, rule_cb, NULL);
	for (i = 0; i < ks.n; i++) {
		if (!ks.ctr[i].has)
			continue;
		ck_assert_int_eq(nftvm_rule_counters(vm, family, table,
						     "out", ks.ctr[i].handle,
						     &pk, &by), 0);
		ck_assert_msg(pk == ks.ctr[i].packets,
			      "rule %llu: kernel %llu packets, VM %llu",
			      (unsigned long long)ks.ctr[i].handle,
			      (unsigned long long)ks.ctr[i].packets,
			      (unsigned long long)pk);
	n++;
	}
	return n;
}

static unsigned int compare_counters(void)
{
	return compare_counters_in(NFPROTO_IPV4, "d");
}

/* send through the kernel's output hook and the VM's */
static void send_both(struct pkt *p)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct nftvm_pkt vp;
	struct nftvm_result res;
	struct pkt copy = *p;

	memcpy(&to.sin_addr, p->data + 16, 4);
	ck_assert_int_eq(sendto(ks.raw, p->data, p->len, 0,
				(struct sockaddr *)&to, sizeof(to)),
			 (ssize_t)p->len);
	vp.data = copy.data;
	vp.len = copy.len;
	ck_assert_int_eq(nftvm_eval(vm, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &vp,
				    send_meta, &res), 0);
}

/* an IPv4 packet as the raw socket will send it: id set, checksums ok */
static void mk_raw(struct pkt *p, uint8_t proto, uint16_t sport,
		   uint16_t dport)
{
	mk_ip4(p, "127.0.0.1", "127.0.0.1", proto, sport, dport);
	p->data[4] = 0x12;
	p->data[5] = 0x34;
	p->data[8] = TTL_MARK;
	pkt_fix_csums(p, 0);
}

static void base(struct vmb *v)
{
	vmb_begin(v);
	vmb_table(v, NFPROTO_IPV4, "d", 0);
	vmb_chain(v, NFPROTO_IPV4, "d", "out", NF_INET_LOCAL_OUT, 0,
		  NF_ACCEPT, NULL);
	/* ip ttl != 77 accept: leaves the kernel's own replies alone */
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 8, 1, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, (uint8_t[]){ TTL_MARK }, 1),
		 x_verdict(NF_ACCEPT, NULL));
}

START_TEST(test_diff_stateful)
{
	struct nftnl_set *s;
	unsigned int i, n;
	struct vmb v;
	struct pkt p;

	if (!have_kernel)
		return;
	base(&v);
	/* quota 100 bytes counter; quota over 100 bytes counter */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", x_quota(100, 0), x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", x_quota(100, NFT_QUOTA_F_INV),
		 x_counter());
	/* quota 84 bytes: three 28-byte packets reach it exactly */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", x_quota(84, 0), x_counter());
	/* numgen inc mod 3 == 0 counter; offset 5, == 6 counter */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_numgen(NFT_NG_INCREMENTAL, 3, 0, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &(uint32_t){ 0 }, 4),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_numgen(NFT_NG_INCREMENTAL, 3, 5, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &(uint32_t){ 6 }, 4),
		 x_counter());
	/* jhash udp sport . udp dport mod 4 seed 0x1234: one rule each */
	for (i = 0; i < 4; i++)
		vmb_rule(&v, NFPROTO_IPV4, "d", "out",
			 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 0, 2,
				   NFT_REG32_00),
			 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2,
				   NFT_REG32_01),
			 x_jhash(NFT_REG32_00, 8, 4, 0x1234, NFT_REG_2),
			 x_cmp(NFT_REG_2, NFT_CMP_EQ, &i, 4), x_counter());
	/* limit rate 1/minute burst 3 counter */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_limit(1, 60, 3, NFT_LIMIT_PKTS, 0), x_counter());
	/* add @seen { udp sport } with room for 2 elements, counter */
	s = mk_set("d", "seen", 9, NFT_SET_EVAL, 2, 0, 0);
	nftnl_set_set_u32(s, NFTNL_SET_DESC_SIZE, 2);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_UDP),
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 0, 2, NFT_REG_1),
		 x_dynset("seen", 9, NFT_DYNSET_OP_ADD, NFT_REG_1, 0, 0),
		 x_counter());
	/* a meter: add @mt { udp sport limit rate over 1/minute burst 2 }
	 * counter */
	s = mk_set("d", "mt", 10, NFT_SET_EVAL, 2, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_UDP),
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 0, 2, NFT_REG_1),
		 x_dynset_expr(x_dynset("mt", 10, NFT_DYNSET_OP_ADD, NFT_REG_1,
					0, 0),
			       x_limit(1, 60, 2, NFT_LIMIT_PKTS,
				       NFT_LIMIT_F_INV)),
		 x_counter());
	load_both(&v);

	for (i = 0; i < 12; i++) {
		mk_raw(&p, IPPROTO_UDP, 1000 + i % 5, 2000 + 7 * i);
		send_both(&p);
	}
	n = compare_counters();
	ck_assert_uint_eq(n, 12);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "d", "seen"), 2);
	/* the values themselves, from the semantics (handles: chain 1,
	 * guard 2, then one per rule, the set taking 13): 12 packets of
	 * 28 bytes */
	ck_assert_uint_eq(p.len, 28);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 3), 3);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 4), 9);
	/* reaching the quota exactly is not yet over it */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 5), 3);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 6), 4);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 7), 4);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 12), 3);
	/* sports 1000..1004 in turn: only 1000 and 1001 fit the set */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 14), 6);
	/* sports 1000 and 1001 come 3 times: one over the burst each */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 16), 2);
}
END_TEST

/* TCP SYN, 28-byte header: MSS 1460, NOP, NOP, SACK permitted */
static void mk_raw_syn(struct pkt *p, uint16_t dport)
{
	static const uint8_t opts[8] = { 2, 4, 0x05, 0xb4, 1, 1, 4, 2 };

	mk_raw(p, IPPROTO_TCP, 40000, dport);
	memcpy(p->data + 40, opts, 8);
	p->data[32] = 7 << 4;
	p->len += 8;
	p->data[3] = p->len;
	pkt_fix_csums(p, 0);
}

static bool lo_mtu(int mtu)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok;

	if (fd < 0)
		return false;
	strcpy(ifr.ifr_name, "lo");
	ifr.ifr_mtu = mtu;
	ok = ioctl(fd, SIOCSIFMTU, &ifr) == 0;
	close(fd);
	return ok;
}

/*
 * rt: packets the host sends to 127.0.0.1 have their route (lo, MTU 1400
 * here, no gateway, no IPsec); the VM gets the same route in its
 * metadata and must compute what the kernel does: the MSS (1400 less 40
 * bytes of headers), the nexthop (the destination), and clamp a SYN's
 * MSS to it ("tcp option maxseg size set rt mtu", with nft's byteorder),
 * but never raise it.
 */
START_TEST(test_diff_rt)
{
	static const struct nftvm_pktmeta rt = {
		.rt_dst = true, .rt_mtu = 1400, .rt_mtu_rev = 1400,
	};
	uint16_t mss_h = 1360, mss_n = htons(1360), big = htons(1500);
	uint32_t lo = inet_addr("127.0.0.1");
	struct nftnl_expr *bo;
	unsigned int n;
	struct pkt p;
	struct vmb v;

	if (!have_kernel)
		return;
	if (!lo_mtu(1400)) {
		printf("SKIP: cannot set the MTU of lo\n");
		return;
	}
	send_meta = &rt;
	base(&v);
	/* rt mtu 1360 counter; rt ip nexthop 127.0.0.1 counter; rt ipsec
	 * missing counter; rt ip6 nexthop (never for IPv4) counter */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", x_rt(NFT_RT_TCPMSS, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &mss_h, 2), x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_rt(NFT_RT_NEXTHOP4, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &lo, 4), x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", x_rt(NFT_RT_XFRM, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 0 }, 1),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_rt(NFT_RT_NEXTHOP6, NFT_REG_1), x_counter());
	/* tcp option maxseg size set rt mtu; then maxseg size set 1500
	 * (a raise: ignored); tcp option maxseg size 1360 counter */
	bo = nftnl_expr_alloc("byteorder");
	nftnl_expr_set_u32(bo, NFTNL_EXPR_BYTEORDER_SREG, NFT_REG_1);
	nftnl_expr_set_u32(bo, NFTNL_EXPR_BYTEORDER_DREG, NFT_REG_1);
	nftnl_expr_set_u32(bo, NFTNL_EXPR_BYTEORDER_OP, NFT_BYTEORDER_HTON);
	nftnl_expr_set_u32(bo, NFTNL_EXPR_BYTEORDER_LEN, 2);
	nftnl_expr_set_u32(bo, NFTNL_EXPR_BYTEORDER_SIZE, 2);
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_TCP),
		 x_rt(NFT_RT_TCPMSS, NFT_REG_1), bo,
		 x_exthdr_set(2, 2, 2, NFT_REG_1));
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_TCP),
		 x_imm(NFT_REG_1, &big, 2), x_exthdr_set(2, 2, 2, NFT_REG_1));
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 2, 2, 2, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &mss_n, 2), x_counter());
	load_both(&v);

	mk_raw_syn(&p, 5001);
	send_both(&p);
	mk_raw(&p, IPPROTO_UDP, 3000, 53);
	send_both(&p);
	n = compare_counters();
	ck_assert_uint_eq(n, 5);
	/* handles: chain 1, guard 2, then 3.. : the loads did match */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 3), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 4), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 5), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 6), 0);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 9), 1);
}
END_TEST

START_TEST(test_diff_mangle)
{
	uint16_t mss = htons(1460), clamp = htons(1200), port = htons(9999);
	uint32_t nsrc = inet_addr("127.0.0.9");
	struct pkt p, want;
	uint16_t ip_ck, l4_ck, mss_ck;
	unsigned int n;
	struct vmb v;

	if (!have_kernel)
		return;
	/* the checksums the writes must produce, computed from scratch */
	mk_raw_syn(&want, 5001);
	want.data[42] = 1200 >> 8;
	want.data[43] = 1200 & 0xff;
	pkt_fix_csums(&want, 0);
	mss_ck = ck_get16(want.data + 36);
	mk_raw(&want, IPPROTO_UDP, 3000, 9999);
	memcpy(want.data + 12, &nsrc, 4);
	pkt_fix_csums(&want, 0);
	ip_ck = htons(ck_get16(want.data + 10));
	l4_ck = htons(ck_get16(want.data + 26));

	base(&v);
	/* tcp option maxseg size 1460 counter; sack-perm exists counter;
	 * timestamp missing counter; then maxseg size set 1200 and the
	 * TCP checksum must be the recomputed one */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 2, 2, 2, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &mss, 2), x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 4, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 1 }, 1),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_TCP),
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 8, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 0 }, 1),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_TCP),
		 x_imm(NFT_REG_2, &clamp, 2),
		 x_exthdr_set(2, 2, 2, NFT_REG_2),
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 16, 2, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ,
		       (uint16_t[]){ htons(mss_ck) }, 2), x_counter());
	/* udp dport set 9999 (UDP checksum at th+6), ip saddr set
	 * 127.0.0.9 (IP checksum, pseudo header): both checksums as
	 * recomputed */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_UDP),
		 x_imm(NFT_REG_1, &port, 2),
		 x_payload_set(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1,
			       NFT_PAYLOAD_CSUM_INET, 6, 0),
		 x_imm(NFT_REG_1, &nsrc, 4),
		 x_payload_set(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1,
			       NFT_PAYLOAD_CSUM_INET, 10,
			       NFT_PAYLOAD_L4CSUM_PSEUDOHDR),
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 10, 2, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &ip_ck, 2),
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 6, 2, NFT_REG_2),
		 x_cmp(NFT_REG_2, NFT_CMP_EQ, &l4_ck, 2), x_counter());
	load_both(&v);

	mk_raw_syn(&p, 5001);
	send_both(&p);
	mk_raw(&p, IPPROTO_TCP, 40000, 5002);
	send_both(&p);
	mk_raw(&p, IPPROTO_UDP, 3000, 53);
	send_both(&p);
	n = compare_counters();
	ck_assert_uint_eq(n, 5);
	/* and the writes really happened (not just "both zero"): handles
	 * are chain 1, guard 2, then 3..7 */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 3), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 5), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 6), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "d", "out", 7), 1);
}
END_TEST

/* IPv6 ::1 -> ::1 UDP, hop limit 77, optionally behind a hop-by-hop
 * header (PadN) and a destination options header (type 0x1e, 4 bytes) */
static void mk_raw6(struct pkt *p, bool exts)
{
	static const uint8_t hbh[8] = { 60, 0, 1, 4, 0, 0, 0, 0 };
	static const uint8_t dst[8] = { IPPROTO_UDP, 0, 0x1e, 4, 0xca, 0xfe,
					0xba, 0xbe };
	size_t thoff = exts ? 56 : 40;

	mk_ip6(p, "::1", "::1", IPPROTO_UDP, 4000, 4001);
	p->data[7] = TTL_MARK;
	if (exts) {
		memmove(p->data + 56, p->data + 40, 8);
		memcpy(p->data + 40, hbh, 8);
		memcpy(p->data + 48, dst, 8);
		p->data[6] = 0;
		p->len += 16;
		p->data[5] += 16;
	}
	ck_put16(p->data + thoff + 6,
		 ck_l4(p->data, 1, thoff, 8, IPPROTO_UDP, 6));
}

static void send6_both(struct pkt *p, int fd)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6 };
	struct nftvm_result res;
	struct nftvm_pkt vp;
	struct pkt copy = *p;

	to.sin6_addr = in6addr_loopback;
	ck_assert_int_eq(sendto(fd, p->data, p->len, 0,
				(struct sockaddr *)&to, sizeof(to)),
			 (ssize_t)p->len);
	vp.data = copy.data;
	vp.len = copy.len;
	ck_assert_int_eq(nftvm_eval(vm, NF_INET_LOCAL_OUT, NFPROTO_IPV6, &vp,
				    NULL, &res), 0);
}

START_TEST(test_diff_ip6)
{
	uint8_t a6[16] = { [15] = 2 };
	uint16_t l4_ck;
	struct pkt p, want;
	unsigned int n;
	struct vmb v;
	int fd;

	if (!have_kernel)
		return;
	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		printf("SKIP: no raw IPv6 socket\n");
		return;
	}
	/* ip6 saddr set ::2 through the pseudo header: the UDP checksum
	 * must become the one recomputed here */
	mk_raw6(&want, true);
	want.data[23] = 2;
	l4_ck = htons(ck_l4(want.data, 1, 56, 8, IPPROTO_UDP, 6));

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV6, "d6", 0);
	vmb_chain(&v, NFPROTO_IPV6, "d6", "out", NF_INET_LOCAL_OUT, 0,
		  NF_ACCEPT, NULL);
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 7, 1, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, (uint8_t[]){ TTL_MARK }, 1),
		 x_verdict(NF_ACCEPT, NULL));
	/* exthdr hbh exists; exthdr rt missing; hbh nexthdr dst options;
	 * dst option bytes at 2..5; udp dport seen behind them */
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out",
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 1 }, 1),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out",
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 43, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 0 }, 1),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out",
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 0, 1, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 60 }, 1),
		 x_counter());
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out",
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 60, 2, 4, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ,
		       (uint8_t[]){ 0x1e, 4, 0xca, 0xfe }, 4), x_counter());
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out", X_L4PROTO(IPPROTO_UDP),
		 X_DPORT(4001), x_counter());
	vmb_rule(&v, NFPROTO_IPV6, "d6", "out", X_L4PROTO(IPPROTO_UDP),
		 x_imm(NFT_REG_1, a6, 16),
		 x_payload_set(NFT_PAYLOAD_NETWORK_HEADER, 8, 16, NFT_REG_1,
			       0, 0, NFT_PAYLOAD_L4CSUM_PSEUDOHDR),
		 x_exthdr(NFT_EXTHDR_OP_IPV6, IPPROTO_UDP, 6, 2, NFT_REG_2, 0),
		 x_cmp(NFT_REG_2, NFT_CMP_EQ, &l4_ck, 2), x_counter());
	load_both(&v);

	mk_raw6(&p, true);
	send6_both(&p, fd);
	mk_raw6(&p, false);
	send6_both(&p, fd);
	close(fd);
	n = compare_counters_in(NFPROTO_IPV6, "d6");
	ck_assert_uint_eq(n, 6);
	/* handles: chain 1, guard 2, then 3..8 */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "d6", "out", 3), 1);
	/* no routing header in either packet */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "d6", "out", 4), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "d6", "out", 5), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "d6", "out", 6), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "d6", "out", 7), 2);
	/* extension headers are outside the UDP checksum: both packets
	 * carry the same one, and keep it */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "d6", "out", 8), 2);
}
END_TEST

/*
 * SCTP chunks (check_vm_exprs.h): the kernel's counts against the VM's,
 * and both against what the RFC layout says each rule must count.
 */
START_TEST(test_diff_sctp)
{
	unsigned int i, n;
	struct pkt p;
	struct vmb v;

	if (!have_kernel)
		return;
	base(&v);
	n = vmb_sctp_rules(&v, NFPROTO_IPV4, "d", "out");
	load_both(&v);
	for (i = 0; i < SCTP_PKTS; i++) {
		mk_sctp4(&p, i, TTL_MARK);
		send_both(&p);
	}
	ck_assert_uint_eq(compare_counters(), n);
	/* handles: chain 1, guard 2, then 3.. */
	for (i = 0; i < n; i++)
		ck_assert_msg(rule_packets(vm, NFPROTO_IPV4, "d", "out",
					   i + 3) == sctp_rule_hits[i],
			      "sctp rule %u", i);
}
END_TEST

/* ------------------------------------------------------------ DESTROY */

enum dkind { D_TABLE, D_CHAIN, D_RULE, D_SET, D_ELEM, D_OBJ };

/* one DEL (or DESTROY) request naming objects that may be missing */
struct dcase {
	enum dkind	kind;
	const char	*table;
	const char	*name;		/* chain, set or object */
	uint64_t	handle;		/* rule */
	uint32_t	keys[2];	/* elements, 0 ends */
};

static void dcase_build(struct vmb *v, const struct dcase *c, bool destroy)
{
	static const int del[] = {
		[D_TABLE] = NFT_MSG_DELTABLE, [D_CHAIN] = NFT_MSG_DELCHAIN,
		[D_RULE] = NFT_MSG_DELRULE, [D_SET] = NFT_MSG_DELSET,
		[D_ELEM] = NFT_MSG_DELSETELEM, [D_OBJ] = NFT_MSG_DELOBJ,
	};
	static const int des[] = {
		[D_TABLE] = NFTVM_MSG_DESTROYTABLE,
		[D_CHAIN] = NFTVM_MSG_DESTROYCHAIN,
		[D_RULE] = NFTVM_MSG_DESTROYRULE,
		[D_SET] = NFTVM_MSG_DESTROYSET,
		[D_ELEM] = NFTVM_MSG_DESTROYSETELEM,
		[D_OBJ] = NFTVM_MSG_DESTROYOBJ,
	};
	struct nftnl_set *s;
	unsigned int i;

	switch (c->kind) {
	case D_TABLE:
		vmb_deltable(v, NFPROTO_IPV4, c->table);
		break;
	case D_CHAIN:
		vmb_delchain(v, NFPROTO_IPV4, c->table, c->name);
		break;
	case D_RULE:
		vmb_delrule(v, NFPROTO_IPV4, c->table, c->name, c->handle);
		break;
	case D_SET:
		s = mk_set(c->table, c->name, 1, 0, 4, 0, 0);
		nftnl_set_nlmsg_build_payload(vmb_hdr(v, NFT_MSG_DELSET,
						      NFPROTO_IPV4, 0), s);
		vmb_next(v);
		nftnl_set_free(s);
		break;
	case D_ELEM:
		s = mk_set(c->table, c->name, 1, 0, 4, 0, 0);
		for (i = 0; i < 2 && c->keys[i]; i++)
			set_add_key(s, &c->keys[i], 4, 0);
		vmb_elems(v, NFPROTO_IPV4, s, NFT_MSG_DELSETELEM, 0);
		nftnl_set_free(s);
		break;
	case D_OBJ:
		vmb_obj(v, NFPROTO_IPV4,
			mk_obj(c->table, c->name, NFT_OBJECT_COUNTER),
			NFT_MSG_DELOBJ, 0);
		break;
	}
	vmb_retype_last(v, destroy ? des[c->kind] : del[c->kind]);
	vmb_last(v)->nlmsg_flags |= NLM_F_ACK;
}

/* the same one-request batch to both; their answers must agree */
static void dcase_both(const struct dcase *c, bool destroy)
{
	struct nftvm_err err;
	struct vmb v;
	int kret, vret;

	vmb_begin(&v);
	dcase_build(&v, c, destroy);
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	vret = nftvm_batch_process(vm, mnl_nlmsg_batch_head(v.b),
				   mnl_nlmsg_batch_size(v.b), &err);
	ck_assert_int_ge(mnl_socket_sendto(ks.nl, mnl_nlmsg_batch_head(v.b),
					   mnl_nlmsg_batch_size(v.b)), 0);
	kret = nfnl_ack(ks.nl);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);
	ck_assert_msg(kret == vret,
		      "%s kind %d %s/%s: kernel %d, VM %d",
		      destroy ? "DESTROY" : "DEL", c->kind, c->table,
		      c->name ? c->name : "-", kret, vret);
}

START_TEST(test_diff_destroy)
{
	/* missing objects, then objects in use, then present ones */
	static const struct dcase missing[] = {
		{ D_TABLE, "zz" },
		{ D_CHAIN, "x", "zz" },
		{ D_CHAIN, "zz", "c" },
		{ D_RULE, "x", "c", 999 },
		{ D_RULE, "x", "zz", 999 },
		{ D_RULE, "x", "zz" },
		{ D_RULE, "zz", "c" },
		{ D_SET, "x", "zz" },
		{ D_SET, "zz", "s" },
		{ D_ELEM, "x", "s", 0, { 99 } },
		{ D_ELEM, "x", "zz", 0, { 1 } },
		{ D_ELEM, "zz", "s", 0, { 1 } },
		{ D_OBJ, "x", "zz" },
		{ D_OBJ, "zz", "o" },
	};
	static const struct dcase busy[] = {
		{ D_CHAIN, "x", "c" },		/* target of a jump */
		{ D_SET, "x", "s" },		/* used by a lookup */
		{ D_OBJ, "x", "o" },		/* used by an objref */
	};
	static const struct dcase present[] = {
		{ D_ELEM, "x", "s", 0, { 99, 1 } },	/* 1 goes, 99 is skipped */
		{ D_ELEM, "x", "s", 0, { 1 } },		/* gone now */
		{ D_RULE, "x", "u" },
		{ D_CHAIN, "x", "c" },
		{ D_SET, "x", "s" },
		{ D_OBJ, "x", "o" },
		{ D_TABLE, "x" },
		{ D_TABLE, "x" },
	};
	uint32_t k1 = 1, k2 = 2;
	struct nftnl_set *s;
	unsigned int i, n = 0;
	struct vmb v;

	if (!ks.nl)
		return;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	vmb_chain(&v, NFPROTO_IPV4, "x", "c", -1, 0, -1, NULL);
	vmb_chain(&v, NFPROTO_IPV4, "x", "u", -1, 0, -1, NULL);
	s = mk_set("x", "s", 1, 0, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &k1, 4, 0);
	set_add_key(s, &k2, 4, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("x", "o", NFT_OBJECT_COUNTER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE);
	vmb_rule(&v, NFPROTO_IPV4, "x", "u",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_lookup("s", 1, NFT_REG_1, -1, 0),
		 x_objref(NFT_OBJECT_COUNTER, "o"),
		 x_verdict(NFT_JUMP, "c"));
	load_both(&v);

	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++, n += 2) {
		dcase_both(&missing[i], false);
		dcase_both(&missing[i], true);
	}
	for (i = 0; i < sizeof(busy) / sizeof(busy[0]); i++, n += 2) {
		dcase_both(&busy[i], false);
		dcase_both(&busy[i], true);
	}
	for (i = 0; i < sizeof(present) / sizeof(present[0]); i++, n++)
		dcase_both(&present[i], true);
	ck_assert_int_eq(nftvm_object_count(vm), 0);
	printf("destroy: %u requests, kernel and VM agree\n", n);
}
END_TEST

/* ------------------------------------------------------------ NEWOBJ */

static int obj_text_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_obj *o = nftnl_obj_alloc();
	char *out = data, line[512];

	if (nftnl_obj_nlmsg_parse(nlh, o) == 0) {
		nftnl_obj_snprintf(line, sizeof(line), o, NFTNL_OUTPUT_DEFAULT,
				   0);
		strncat(out, line, 4095 - strlen(out));
		strncat(out, "\n", 4095 - strlen(out));
	}
	nftnl_obj_free(o);
	return MNL_CB_OK;
}

static int obj_vm_reply(void *arg, const void *msg, size_t len)
{
	const struct nlmsghdr *nlh = msg;

	if (nlh->nlmsg_type != NLMSG_DONE)
		obj_text_cb(nlh, arg);
	return 0;
}

/* every object of table x as libnftnl prints it, kernel and VM */
static void obj_dumps(char *kout, char *vout)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	kout[0] = vout[0] = '\0';
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETOBJ, NFPROTO_IPV4,
				    NLM_F_DUMP, 9);
	ck_assert_int_eq(nftvm_request(vm, buf, nlh->nlmsg_len, 0,
				       obj_vm_reply, vout, NULL), 0);
	nfnl_dump(ks.nl, nlh, obj_text_cb, kout);
}

static struct nftnl_obj *quota_obj(uint64_t bytes, uint64_t consumed,
				   uint32_t flags)
{
	struct nftnl_obj *o = mk_obj("x", "q", NFT_OBJECT_QUOTA);

	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_BYTES, bytes);
	if (consumed)
		nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_CONSUMED, consumed);
	nftnl_obj_set_u32(o, NFTNL_OBJ_QUOTA_FLAGS, flags);
	return o;
}

/* one NEWOBJ (@flags) in a batch to both; answers and dumps agree */
static int obj_both(struct nftnl_obj *o, int flags, bool then_fail)
{
	char kout[4096], vout[4096];
	struct nftvm_err err;
	struct vmb v;
	int kret, vret;

	vmb_begin(&v);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE | flags);
	if (then_fail)
		/* the update must not survive the batch's failure */
		vmb_deltable(&v, NFPROTO_IPV4, "nosuchtable");
	vmb_last(&v)->nlmsg_flags |= NLM_F_ACK;
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	vret = nftvm_batch_process(vm, mnl_nlmsg_batch_head(v.b),
				   mnl_nlmsg_batch_size(v.b), &err);
	ck_assert_int_ge(mnl_socket_sendto(ks.nl, mnl_nlmsg_batch_head(v.b),
					   mnl_nlmsg_batch_size(v.b)), 0);
	kret = nfnl_ack(ks.nl);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);
	ck_assert_msg(kret == vret, "NEWOBJ: kernel %d, VM %d", kret, vret);
	obj_dumps(kout, vout);
	ck_assert_msg(!strcmp(kout, vout), "kernel:\n%sVM:\n%s", kout, vout);
	return kret;
}

/*
 * NEWOBJ for objects that exist: a quota takes the new limit and flags
 * and keeps what it consumed, a counter and a limit stay as they are
 * (no update in the kernel), bad data for a quota is refused, EXCL and
 * REPLACE are refused, and a failing batch keeps the old settings.
 */
START_TEST(test_diff_objupdate)
{
	struct nftnl_obj *o;
	struct vmb v;
	int n = 0;

	if (!ks.nl)
		return;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	vmb_obj(&v, NFPROTO_IPV4, quota_obj(100, 50, 0), NFT_MSG_NEWOBJ,
		NLM_F_CREATE);
	o = mk_obj("x", "c", NFT_OBJECT_COUNTER);
	nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_PKTS, 3);
	nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_BYTES, 300);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	o = mk_obj("x", "l", NFT_OBJECT_LIMIT);
	nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_RATE, 10);
	nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_UNIT, 1);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	load_both(&v);

	/* each row: the object to send, NEWOBJ flags, fail the batch */
	ck_assert_int_eq(obj_both(quota_obj(200, 0, NFT_QUOTA_F_INV), 0,
				  false), 0);
	ck_assert_int_eq(obj_both(quota_obj(10, 0, 0), 0, false), 0);
	ck_assert_int_eq(obj_both(quota_obj(300, 400, 0), 0, false),
			 -EINVAL);
	ck_assert_int_eq(obj_both(quota_obj(300, 0, 0), NLM_F_EXCL, false),
			 -EEXIST);
	ck_assert_int_eq(obj_both(quota_obj(300, 0, 0), NLM_F_REPLACE,
				  false), -EOPNOTSUPP);
	ck_assert_int_eq(obj_both(quota_obj(5000, 0, 0), 0, true), -ENOENT);
	o = mk_obj("x", "c", NFT_OBJECT_COUNTER);
	nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_PKTS, 9);
	ck_assert_int_eq(obj_both(o, 0, false), 0);
	o = mk_obj("x", "l", NFT_OBJECT_LIMIT);
	nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_RATE, 99);
	nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_UNIT, 60);
	ck_assert_int_eq(obj_both(o, 0, false), 0);
	n = 8;
	printf("object updates: %d requests, answers and dumps agree\n", n);
}
END_TEST

/* ------------------------------------------------------------ bindings */

/* a chain to bind (NFT_CHAIN_BINDING): named, or nameless with @id */
static void bind_chain(struct vmb *v, const char *name, uint32_t id)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, "x");
	if (name)
		nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FLAGS, NFT_CHAIN_BINDING);
	if (id)
		nftnl_chain_set_u32(c, NFTNL_CHAIN_ID, id);
	nlh = vmb_hdr(v, NFT_MSG_NEWCHAIN, NFPROTO_IPV4, NLM_F_CREATE);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	vmb_next(v);
}

/* "counter accept" into the nameless chain @id */
static void rule_in_id(struct vmb *v, uint32_t id)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nlmsghdr *nlh;

	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, "x");
	nftnl_rule_add_expr(r, x_counter());
	nftnl_rule_add_expr(r, x_verdict(NF_ACCEPT, NULL));
	nlh = vmb_hdr(v, NFT_MSG_NEWRULE, NFPROTO_IPV4,
		      NLM_F_CREATE | NLM_F_APPEND);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	mnl_attr_put_u32(nlh, NFTA_RULE_CHAIN_ID, htonl(id));
	nftnl_rule_free(r);
	vmb_next(v);
}

/* "jump" to the nameless chain @id, from chain c */
static void jump_id(struct vmb *v, uint32_t id)
{
	struct nftnl_expr *e = nftnl_expr_alloc("immediate");

	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, NFT_JUMP);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_CHAIN_ID, id);
	vmb_rule(v, NFPROTO_IPV4, "x", "c", e);
}

static int chain_text_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	char *out = data;
	const char *name;

	if (nftnl_chain_nlmsg_parse(nlh, c) == 0) {
		name = nftnl_chain_get_str(c, NFTNL_CHAIN_NAME);
		/* the kernel numbers nameless chains across namespaces */
		if (!strncmp(name, "__chain", 7))
			name = "__chain*";
		snprintf(out + strlen(out), 4096 - strlen(out),
			 "%s flags %u use %u\n", name,
			 nftnl_chain_get_u32(c, NFTNL_CHAIN_FLAGS),
			 nftnl_chain_get_u32(c, NFTNL_CHAIN_USE));
		/* base chain counters, where the chain has them */
		if (nftnl_chain_is_set(c, NFTNL_CHAIN_PACKETS))
			snprintf(out + strlen(out), 4096 - strlen(out),
				 "  counters packets %llu bytes %llu\n",
				 (unsigned long long)nftnl_chain_get_u64(c,
					NFTNL_CHAIN_PACKETS),
				 (unsigned long long)nftnl_chain_get_u64(c,
					NFTNL_CHAIN_BYTES));
	}
	nftnl_chain_free(c);
	return MNL_CB_OK;
}

static int chain_vm_reply(void *arg, const void *msg, size_t len)
{
	const struct nlmsghdr *nlh = msg;

	if (nlh->nlmsg_type != NLMSG_DONE)
		chain_text_cb(nlh, arg);
	return 0;
}

static char chains_seen[4096];	/* the kernel's, as last compared */

/* the chains of both, as names, flags and use counts */
static void chain_dumps_agree(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], kout[4096] = "", vout[4096] = "";
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETCHAIN, NFPROTO_IPV4,
				    NLM_F_DUMP, 11);
	ck_assert_int_eq(nftvm_request(vm, buf, nlh->nlmsg_len, 0,
				       chain_vm_reply, vout, NULL), 0);
	nfnl_dump(ks.nl, nlh, chain_text_cb, kout);
	ck_assert_msg(!strcmp(kout, vout), "kernel:\n%sVM:\n%s", kout, vout);
	strcpy(chains_seen, kout);
}

/* close the batch, send it to both; the answers must agree */
static int bind_both(struct vmb *v)
{
	struct nftvm_err err;
	int kret, vret;

	vmb_last(v)->nlmsg_flags |= NLM_F_ACK;
	nftnl_batch_end(mnl_nlmsg_batch_current(v->b), v->seq++);
	mnl_nlmsg_batch_next(v->b);
	vret = nftvm_batch_process(vm, mnl_nlmsg_batch_head(v->b),
				   mnl_nlmsg_batch_size(v->b), &err);
	ck_assert_int_ge(mnl_socket_sendto(ks.nl, mnl_nlmsg_batch_head(v->b),
					   mnl_nlmsg_batch_size(v->b)), 0);
	/* a failure at commit answers the END message, not ours */
	kret = nfnl_drain(ks.nl);
	mnl_nlmsg_batch_stop(v->b);
	free(v->buf);
	ck_assert_msg(kret == vret, "kernel %d, VM %d (message %d)", kret,
		      vret, err.msg_index);
	chain_dumps_agree();
	return kret;
}

/*
 * Chains to bind (NFT_CHAIN_BINDING, nft's "jump { ... }"): one rule
 * binds each; a second jump, deleting the chain or its rules, adding
 * rules once bound, a verdict map element and a chain nobody binds are
 * refused; deleting the binding rule (a chain flush, a table flush)
 * takes the chain along.  Answers and chain dumps compared.
 */
START_TEST(test_diff_binding)
{
	struct nftnl_set *s;
	uint32_t k = 1;
	struct vmb v;
	int n = 0;

	if (!ks.nl)
		return;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	vmb_chain(&v, NFPROTO_IPV4, "x", "c", -1, 0, -1, NULL);
	s = mk_set("x", "m", 1, 0, 4, NFT_DATA_VERDICT, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	load_both(&v);

	vmb_begin(&v);
	bind_chain(&v, "b1", 0);
	vmb_rule(&v, NFPROTO_IPV4, "x", "b1", x_counter(),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(&v, NFPROTO_IPV4, "x", "c", x_verdict(NFT_JUMP, "b1"));
	ck_assert_int_eq(bind_both(&v), 0);
	n++;

	vmb_begin(&v);
	bind_chain(&v, "b2", 0);
	vmb_rule(&v, NFPROTO_IPV4, "x", "b2", x_counter());
	ck_assert_int_eq(bind_both(&v), -EINVAL);
	n++;

	vmb_begin(&v);
	/* a bound chain takes no second jump */
	vmb_rule(&v, NFPROTO_IPV4, "x", "c", x_verdict(NFT_GOTO, "b1"));
	ck_assert_int_eq(bind_both(&v), -EINVAL);
	n++;

	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "x", "b1");
	ck_assert_int_eq(bind_both(&v), -EOPNOTSUPP);
	n++;

	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "x", "b1", 0);
	ck_assert_int_eq(bind_both(&v), -EOPNOTSUPP);
	n++;

	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "x", "b1", x_counter());
	ck_assert_int_eq(bind_both(&v), -EOPNOTSUPP);
	n++;

	vmb_begin(&v);
	bind_chain(&v, "b3", 0);
	vmb_rule(&v, NFPROTO_IPV4, "x", "c", x_verdict(NFT_JUMP, "b3"));
	s = mk_set("x", "m", 1, 0, 4, NFT_DATA_VERDICT, 0);
	set_add_verdict(s, &k, 4, NFT_JUMP, "b3");
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(bind_both(&v), -EINVAL);
	n++;

	/* no bound chain inside a bound chain */
	vmb_begin(&v);
	bind_chain(&v, "b5", 0);
	bind_chain(&v, "b6", 0);
	vmb_rule(&v, NFPROTO_IPV4, "x", "b6", x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "x", "b5", x_verdict(NFT_JUMP, "b6"));
	vmb_rule(&v, NFPROTO_IPV4, "x", "c", x_verdict(NFT_JUMP, "b5"));
	ck_assert_int_eq(bind_both(&v), -EOPNOTSUPP);
	n++;

	/* nameless, by batch ids, as nft sends "jump { ... }" */
	vmb_begin(&v);
	bind_chain(&v, NULL, 77);
	rule_in_id(&v, 77);
	jump_id(&v, 77);
	ck_assert_int_eq(bind_both(&v), 0);
	n++;

	/* flushing c takes b1 and the nameless one along */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "x", "c", 0);
	ck_assert_int_eq(bind_both(&v), 0);
	n++;

	vmb_begin(&v);
	bind_chain(&v, "b4", 0);
	vmb_rule(&v, NFPROTO_IPV4, "x", "b4", x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "x", "c", x_verdict(NFT_GOTO, "b4"));
	ck_assert_int_eq(bind_both(&v), 0);
	n++;

	/* a table flush: b4 goes with its rule */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "x", NULL, 0);
	ck_assert_int_eq(bind_both(&v), 0);
	n++;
	printf("bound chains: %d batches, answers and chain dumps agree\n",
	       n);
}
END_TEST

/* a chain message with NFTA_CHAIN_COUNTERS (@bytes < 0: packets only) */
static void chain_counters(struct vmb *v, const char *name, int hook,
			   uint64_t packets, int64_t bytes)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, "d");
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	if (hook >= 0) {
		nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, hook);
		nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, 0);
		nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, "filter");
		nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, NF_ACCEPT);
	}
	nftnl_chain_set_u64(c, NFTNL_CHAIN_PACKETS, packets);
	nftnl_chain_set_u64(c, NFTNL_CHAIN_BYTES,
			    bytes < 0 ? 0 : (uint64_t)bytes);
	nlh = vmb_hdr(v, NFT_MSG_NEWCHAIN, NFPROTO_IPV4, NLM_F_CREATE);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	if (bytes < 0) {
		/* drop the BYTES attribute: the last one of the nest */
		struct nlattr *a, *n = NULL;

		mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
			if (mnl_attr_get_type(a) == NFTA_CHAIN_COUNTERS)
				n = a;
		ck_assert_ptr_nonnull(n);
		mnl_attr_for_each_nested(a, n)
			if (mnl_attr_get_type(a) == NFTA_COUNTER_BYTES)
				a->nla_type = NFTA_COUNTER_PAD;
	}
	vmb_next(v);
}

/*
 * Base chain counters (NFTA_CHAIN_COUNTERS, iptables' "[packets:bytes]"
 * of a policy): created with values, counting the packets the policy
 * takes (not those a rule accepts), replaced by an update at commit,
 * refused on a regular chain's update (-EOPNOTSUPP) and without bytes
 * (-EINVAL), ignored when a regular chain is created.  Answers and chain
 * dumps (with the counters) compared with the kernel.
 */
START_TEST(test_diff_chain_counters)
{
	struct pkt p;
	struct vmb v;

	if (!have_kernel)
		return;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "d", 0);
	chain_counters(&v, "out", NF_INET_LOCAL_OUT, 5, 100);
	chain_counters(&v, "reg", -1, 7, 70);
	/* ip ttl != 77 accept (the kernel's replies); udp dport 53 accept */
	vmb_rule(&v, NFPROTO_IPV4, "d", "out",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 8, 1, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, (uint8_t[]){ TTL_MARK }, 1),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(&v, NFPROTO_IPV4, "d", "out", X_L4PROTO(IPPROTO_UDP),
		 x_verdict(NF_ACCEPT, NULL));
	ck_assert_int_eq(bind_both(&v), 0);

	mk_raw(&p, IPPROTO_TCP, 40000, 5002);
	send_both(&p);
	mk_raw_syn(&p, 5003);
	send_both(&p);
	mk_raw(&p, IPPROTO_UDP, 3000, 53);
	send_both(&p);
	chain_dumps_agree();
	/* two packets met the policy: 5 + 2, 100 + 40 + 48 bytes */
	ck_assert_msg(strstr(chains_seen, "packets 7 bytes 188"), "%s",
		      chains_seen);

	/* an update replaces the values */
	vmb_begin(&v);
	chain_counters(&v, "out", NF_INET_LOCAL_OUT, 1, 2);
	ck_assert_int_eq(bind_both(&v), 0);
	/* refused: on a regular chain; without bytes (nothing changes) */
	vmb_begin(&v);
	chain_counters(&v, "reg", -1, 3, 4);
	ck_assert_int_eq(bind_both(&v), -EOPNOTSUPP);
	vmb_begin(&v);
	chain_counters(&v, "out", NF_INET_LOCAL_OUT, 9, -1);
	ck_assert_int_eq(bind_both(&v), -EINVAL);
	/* an aborted update leaves them; the policy counts on from there */
	vmb_begin(&v);
	chain_counters(&v, "out", NF_INET_LOCAL_OUT, 50, 5000);
	chain_counters(&v, "reg", -1, 3, 4);
	ck_assert_int_eq(bind_both(&v), -EOPNOTSUPP);
	mk_raw(&p, IPPROTO_TCP, 40000, 5004);
	send_both(&p);
	chain_dumps_agree();
	ck_assert_msg(strstr(chains_seen, "packets 2 bytes 42"), "%s",
		      chains_seen);
}
END_TEST

/* a batch: table "h", base chain "b" at @hook, chain "r" */
static void hook_case(struct vmb *v, int hook)
{
	vmb_begin(v);
	vmb_table(v, NFPROTO_IPV4, "h", 0);
	vmb_chain(v, NFPROTO_IPV4, "h", "b", hook, 0, NF_ACCEPT, NULL);
	vmb_chain(v, NFPROTO_IPV4, "h", "r", -1, 0, -1, NULL);
}

static void hook_case_end(struct vmb *v, int want)
{
	struct vmb d;

	ck_assert_int_eq(bind_both(v), want);
	vmb_begin(&d);
	vmb_deltable(&d, NFPROTO_IPV4, "h");
	bind_both(&d);
}

/*
 * Expressions limited to some hooks (rt mtu: forward, output,
 * postrouting; meta secpath: prerouting, input, forward) are checked in
 * every chain a base chain reaches, whichever comes first, the jump or
 * the expression (the kernel's nft_chain_validate_hooks at commit).
 */
START_TEST(test_diff_hook_limits)
{
	struct vmb v;

	if (!ks.nl)
		return;
	/* rt mtu in r, then a jump from output: allowed */
	hook_case(&v, NF_INET_LOCAL_OUT);
	vmb_rule(&v, NFPROTO_IPV4, "h", "r", x_rt(NFT_RT_TCPMSS, NFT_REG_1));
	vmb_rule(&v, NFPROTO_IPV4, "h", "b", x_verdict(NFT_JUMP, "r"));
	hook_case_end(&v, 0);
	/* ... from input: refused at the jump */
	hook_case(&v, NF_INET_LOCAL_IN);
	vmb_rule(&v, NFPROTO_IPV4, "h", "r", x_rt(NFT_RT_TCPMSS, NFT_REG_1));
	vmb_rule(&v, NFPROTO_IPV4, "h", "b", x_verdict(NFT_JUMP, "r"));
	hook_case_end(&v, -EOPNOTSUPP);
	/* the jump first, then rt mtu in r: refused at the rt rule */
	hook_case(&v, NF_INET_LOCAL_IN);
	vmb_rule(&v, NFPROTO_IPV4, "h", "b", x_verdict(NFT_JUMP, "r"));
	vmb_rule(&v, NFPROTO_IPV4, "h", "r", x_rt(NFT_RT_TCPMSS, NFT_REG_1));
	hook_case_end(&v, -EOPNOTSUPP);
	/* rt nexthop has no limit */
	hook_case(&v, NF_INET_LOCAL_IN);
	vmb_rule(&v, NFPROTO_IPV4, "h", "b", x_verdict(NFT_JUMP, "r"));
	vmb_rule(&v, NFPROTO_IPV4, "h", "r",
		 x_rt(NFT_RT_NEXTHOP4, NFT_REG_1));
	hook_case_end(&v, 0);
	/* meta secpath through a jump: from input yes, from output no */
	hook_case(&v, NF_INET_LOCAL_IN);
	vmb_rule(&v, NFPROTO_IPV4, "h", "b", x_verdict(NFT_JUMP, "r"));
	vmb_rule(&v, NFPROTO_IPV4, "h", "r",
		 x_meta(NFT_META_SECPATH, NFT_REG_1));
	hook_case_end(&v, 0);
	hook_case(&v, NF_INET_POST_ROUTING);
	vmb_rule(&v, NFPROTO_IPV4, "h", "b", x_verdict(NFT_JUMP, "r"));
	vmb_rule(&v, NFPROTO_IPV4, "h", "r",
		 x_meta(NFT_META_SECPATH, NFT_REG_1));
	hook_case_end(&v, -EOPNOTSUPP);
}
END_TEST

static Suite *vm_kernel_suite(void)
{
	Suite *s = suite_create("vm_kernel");
	TCase *tc = tcase_create("kernel");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_diff_stateful);
	tcase_add_test(tc, test_diff_mangle);
	tcase_add_test(tc, test_diff_rt);
	tcase_add_test(tc, test_diff_ip6);
	tcase_add_test(tc, test_diff_sctp);
	tcase_add_test(tc, test_diff_destroy);
	tcase_add_test(tc, test_diff_objupdate);
	tcase_add_test(tc, test_diff_binding);
	tcase_add_test(tc, test_diff_chain_counters);
	tcase_add_test(tc, test_diff_hook_limits);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_kernel_suite)
