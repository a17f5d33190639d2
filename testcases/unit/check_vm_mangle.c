// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftvm writes: payload set with checksum update, meta set, ct
 * load/set and exthdr (IPv6 extension headers, TCP options; SCTP chunk
 * loads).  Checksums
 * after a write are compared with a from-scratch recomputation (RFC 791,
 * RFC 793/768 pseudo header), which the VM's incremental update (RFC
 * 1624) must agree with.
 */
#include "check_vm_exprs.h"
#include "check_vm_fixture.h"

static void base(struct vmb *v, int family, int hook)
{
	vmb_begin(v);
	vmb_table(v, family, "t", 0);
	vmb_chain(v, family, "t", "c", hook, 0, NF_ACCEPT, NULL);
}

static void assert_csums(const struct pkt *p, int v6)
{
	size_t thoff = v6 ? 40 : (p->data[0] & 0xf) * 4;
	uint8_t proto = v6 ? p->data[6] : p->data[9];
	size_t coff = proto == IPPROTO_TCP ? 16 : 6;

	if (!v6)
		ck_assert_uint_eq(ck_get16(p->data + 10), ck_ip4_hdr(p->data));
	ck_assert_uint_eq(ck_get16(p->data + thoff + coff),
			  ck_l4(p->data, v6, thoff, p->len - thoff, proto,
				coff));
}

START_TEST(test_payload_set_ip4_saddr)
{
	uint32_t nsrc = inet_addr("192.0.2.77");
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	base(&v, NFPROTO_IPV4, NF_INET_POST_ROUTING);
	/* ip saddr set 192.0.2.77: IP csum at 10, TCP via pseudo header */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_imm(NFT_REG_1, &nsrc, 4),
		 x_payload_set(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1,
			       NFT_PAYLOAD_CSUM_INET, 10,
			       NFT_PAYLOAD_L4CSUM_PSEUDOHDR));
	/* the rule after sees the new address */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &nsrc, 4), x_counter(),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 40000, 22);
	pkt_fix_csums(&p, 0);
	assert_csums(&p, 0);
	ck_assert_int_eq(run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p, NULL,
			     &res), NF_DROP);
	ck_assert(res.pkt_modified);
	ck_assert_int_eq(memcmp(p.data + 12, &nsrc, 4), 0);
	assert_csums(&p, 0);

	/* UDP: checksummed packets are fixed, checksum 0 stays 0 */
	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_UDP, 5353, 53);
	pkt_fix_csums(&p, 0);
	run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p, NULL, NULL);
	assert_csums(&p, 0);
	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_UDP, 5353, 53);
	ck_put16(p.data + 10, ck_ip4_hdr(p.data));
	run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p, NULL, NULL);
	ck_assert_uint_eq(ck_get16(p.data + 26), 0);
	ck_assert_uint_eq(ck_get16(p.data + 10), ck_ip4_hdr(p.data));
}
END_TEST

START_TEST(test_payload_set_ports_and_ip6)
{
	uint16_t port = htons(2222);
	uint8_t a6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xff, [15] = 0x42 };
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	base(&v, NFPROTO_INET, NF_INET_PRE_ROUTING);
	/* tcp dport set 2222: TCP checksum at th+16 */
	vmb_rule(&v, NFPROTO_INET, "t", "c", X_L4PROTO(IPPROTO_TCP),
		 x_imm(NFT_REG_1, &port, 2),
		 x_payload_set(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1,
			       NFT_PAYLOAD_CSUM_INET, 16, 0));
	/* ip6 saddr set 2001:db8:ff00::42: no L3 csum, L4 pseudo header */
	vmb_rule(&v, NFPROTO_INET, "t", "c",
		 x_meta(NFT_META_NFPROTO, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ NFPROTO_IPV6 }, 1),
		 x_imm(NFT_REG_2, a6, 16),
		 x_payload_set(NFT_PAYLOAD_NETWORK_HEADER, 8, 16, NFT_REG_2,
			       0, 0, NFT_PAYLOAD_L4CSUM_PSEUDOHDR));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 40000, 22);
	pkt_fix_csums(&p, 0);
	ck_assert_int_eq(run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, NULL,
			     &res), NF_ACCEPT);
	ck_assert_uint_eq(ck_get16(p.data + 22), 2222);
	assert_csums(&p, 0);

	mk_ip6(&p, "2001:db8::1", "2001:db8::2", IPPROTO_TCP, 1234, 80);
	pkt_fix_csums(&p, 1);
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV6, &p, NULL, &res);
	ck_assert(res.pkt_modified);
	ck_assert_int_eq(memcmp(p.data + 8, a6, 16), 0);
	ck_assert_uint_eq(ck_get16(p.data + 42), 2222);
	assert_csums(&p, 1);

	/* a write beyond the packet does not match and changes nothing */
	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 40000, 22);
	p.len = 22;
	p.data[3] = 22;
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert(!res.pkt_modified);
}
END_TEST

#define NH	NFT_PAYLOAD_NETWORK_HEADER

START_TEST(test_payload_set_invalid)
{
	struct nftvm_err err;
	struct nftnl_expr *e;

	/* SREG together with DREG */
	e = x_payload_set(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1, 0,
			  0, 0);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, NFT_REG_2);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, e), -EINVAL);
	/* SCTP CRC32c is not modelled; an unknown type neither */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_payload_set(NH,
						      12, 4, NFT_REG_1, 7, 0,
						      0)), -EOPNOTSUPP);
	ck_assert_uint_eq(err.attr, NFTA_PAYLOAD_CSUM_TYPE);
	/* only the pseudo header flag exists */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_payload_set(NH,
						      12, 4, NFT_REG_1, 0, 0,
						      2)), -EINVAL);
	/* csum offset beyond 255 */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_payload_set(NH,
						      12, 4, NFT_REG_1,
						      NFT_PAYLOAD_CSUM_INET,
						      256, 0)), -ERANGE);
	/* 20 bytes from NFT_REG_4 run off the register file */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_payload_set(NH,
						      0, 20, NFT_REG_4, 0, 0,
						      0)), -ERANGE);
	/* nothing of the failed batches stayed */
	ck_assert_int_eq(nftvm_object_count(vm), 0);
}
END_TEST

START_TEST(test_meta_set)
{
	uint32_t mark = 0x2a, prio = 0x10002;
	struct nftvm_pktmeta meta = { .mark = 7 };
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;
	struct nftvm_err err;

	base(&v, NFPROTO_IPV4, NF_INET_PRE_ROUTING);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_imm(NFT_REG_1, &mark, 4),
		 x_meta_set(NFT_META_MARK, NFT_REG_1),
		 x_imm(NFT_REG_2, &prio, 4),
		 x_meta_set(NFT_META_PRIORITY, NFT_REG_2),
		 x_imm(NFT_REG_3, (uint8_t[]){ 1 }, 1),
		 x_meta_set(NFT_META_NFTRACE, NFT_REG_3),
		 x_imm(NFT_REG_3, (uint8_t[]){ 9 }, 1),
		 x_meta_set(NFT_META_PKTTYPE, NFT_REG_3));
	/* meta mark 0x2a drop: sees the write */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_meta(NFT_META_MARK, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &mark, 4),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta,
			     &res), NF_DROP);
	ck_assert_uint_eq(res.meta.mark, 0x2a);
	ck_assert_uint_eq(res.meta.priority, 0x10002);
	ck_assert_uint_eq(res.meta.nftrace, 1);
	/* pkttype 9 is not a settable type: unchanged */
	ck_assert_uint_eq(res.meta.pkttype, 0);
	/* the caller's metadata is left alone */
	ck_assert_uint_eq(meta.mark, 7);

	/* iifname cannot be written; SREG with DREG is invalid */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_meta_set(NFT_META_IIFNAME,
						   NFT_REG_1)), -EOPNOTSUPP);
	ck_assert_uint_eq(err.attr, NFTA_META_KEY);
	{
		struct nftnl_expr *e = x_meta_set(NFT_META_MARK, NFT_REG_1);

		nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, NFT_REG_2);
		ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN,
					  NULL, &err, e), -EINVAL);
	}
}
END_TEST

START_TEST(test_ct_load)
{
	uint32_t newbit = NFTVM_CT_NEW | NFTVM_CT_ESTABLISHED, zero = 0;
	uint32_t cmark = 0x77;
	struct nftvm_pktmeta meta = { 0 };
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	base(&v, NFPROTO_IPV4, NF_INET_FORWARD);
	/* ct state invalid drop */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_ct(NFT_CT_STATE, NFT_REG_1, -1),
		 x_bitwise(NFT_REG_1, NFT_REG_1, 4,
			   &(uint32_t){ NFTVM_CT_INVALID }, &zero),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, &zero, 4),
		 x_verdict(NF_DROP, NULL));
	/* ct mark 0x77 accept */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_ct(NFT_CT_MARK, NFT_REG_1, -1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &cmark, 4),
		 x_verdict(NF_ACCEPT, NULL));
	/* ct original saddr 10.9.9.9 and ct direction reply: queue 0 */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_ct(NFT_CT_SRC_IP, NFT_REG_1, IP_CT_DIR_ORIGINAL),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ,
		       &(uint32_t){ inet_addr("10.9.9.9") }, 4),
		 x_ct(NFT_CT_DIRECTION, NFT_REG_2, -1),
		 x_cmp(NFT_REG_2, NFT_CMP_EQ,
		       (uint8_t[]){ IP_CT_DIR_REPLY }, 1),
		 x_verdict(NF_QUEUE, NULL));
	/* ct state new,established: counter, then continue */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_ct(NFT_CT_STATE, NFT_REG_1, -1),
		 x_bitwise(NFT_REG_1, NFT_REG_1, 4, &newbit, &zero),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, &zero, 4), x_counter());
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 1, 22);
	/* no conntrack at all: "invalid" */
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_DROP);
	meta.ct_state = NFTVM_CT_NEW;
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_ACCEPT);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 5), 1);
	meta.ct_mark = 0x77;
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     &res), NF_ACCEPT);
	ck_assert_uint_eq(res.trace[0].handle, 3);
	meta.ct_mark = 0;
	meta.ct_state = NFTVM_CT_ESTABLISHED;
	meta.ct_dir = IP_CT_DIR_REPLY;
	inet_pton(AF_INET, "10.9.9.9", meta.ct_src[IP_CT_DIR_ORIGINAL]);
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_QUEUE);
	/* untracked is neither invalid nor new */
	memset(&meta, 0, sizeof(meta));
	meta.ct_state = NFTVM_CT_UNTRACKED;
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_ACCEPT);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 5), 1);
}
END_TEST

START_TEST(test_ct_set_and_invalid)
{
	uint32_t cmark = 0x1234;
	uint8_t labels[16] = { [0] = 0x01, [15] = 0x80 };
	struct nftvm_pktmeta meta = { .ct_state = NFTVM_CT_NEW };
	struct nftvm_result res;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	base(&v, NFPROTO_IPV4, NF_INET_PRE_ROUTING);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_imm(NFT_REG_1, &cmark, 4),
		 x_ct_set(NFT_CT_MARK, NFT_REG_1), x_imm(NFT_REG_2, labels, 16),
		 x_ct_set(NFT_CT_LABELS, NFT_REG_2));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 1, 22);
	meta.ct_labels[1] = 0x02;
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta, &res);
	ck_assert_uint_eq(res.meta.ct_mark, 0x1234);
	/* labels are added to those already there */
	ck_assert_uint_eq(res.meta.ct_labels[0], 0x01);
	ck_assert_uint_eq(res.meta.ct_labels[1], 0x02);
	ck_assert_uint_eq(res.meta.ct_labels[15], 0x80);
	/* without a conntrack entry nothing is written */
	meta.ct_state = 0;
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta, &res);
	ck_assert_uint_eq(res.meta.ct_mark, 0);

	/* direction where none is allowed / required but missing */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct(NFT_CT_MARK, NFT_REG_1, 0)),
			 -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_CT_DIRECTION);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct(NFT_CT_PROTO_DST, NFT_REG_1, -1)),
			 -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct(NFT_CT_SRC_IP, NFT_REG_1, 2)),
			 -EINVAL);
	/* unknown key; a key that cannot be written */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct(200, NFT_REG_1, -1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct_set(NFT_CT_STATE, NFT_REG_1)),
			 -EOPNOTSUPP);
	/* and one that cannot be read */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct(NFT_CT_EVENTMASK, NFT_REG_1, -1)),
			 -EOPNOTSUPP);
	/* 16 bytes of labels do not fit at NFT_REG32_13 */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_ct(NFT_CT_LABELS, NFT_REG32_13, -1)),
			 -ERANGE);
}
END_TEST

/* IPv6 TCP packet with a hop-by-hop header (8 bytes) before TCP */
static void mk_ip6_hbh(struct pkt *p)
{
	mk_ip6(p, "2001:db8::1", "2001:db8::2", IPPROTO_TCP, 1000, 80);
	memmove(p->data + 48, p->data + 40, 20);
	memset(p->data + 40, 0, 8);
	p->data[40] = IPPROTO_TCP;
	p->data[42] = 5;	/* an option: type 5 (router alert) */
	p->data[43] = 2;
	p->data[6] = 0;
	p->len += 8;
	p->data[5] += 8;
}

START_TEST(test_exthdr_ipv6)
{
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	base(&v, NFPROTO_IPV6, NF_INET_LOCAL_IN);
	/* exthdr hbh exists: mark 1 -> reg, compared below */
	vmb_rule(&v, NFPROTO_IPV6, "t", "c",
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 1 }, 1),
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 43, 0, 1, NFT_REG_2,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_2, NFT_CMP_EQ, (uint8_t[]){ 0 }, 1),
		 x_counter());
	/* hbh nexthdr == tcp and its first option type 5: drop */
	vmb_rule(&v, NFPROTO_IPV6, "t", "c",
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 0, 1, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ IPPROTO_TCP }, 1),
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 2, 2, NFT_REG_2, 0),
		 x_cmp(NFT_REG_2, NFT_CMP_EQ, (uint8_t[]){ 5, 2 }, 2),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip6_hbh(&p);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV6, &p, NULL,
			     &res), NF_DROP);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "t", "c", 2), 1);
	/* no extension header: the F_PRESENT rule does not count it, the
	 * load rule does not match */
	mk_ip6(&p, "2001:db8::1", "2001:db8::2", IPPROTO_TCP, 1000, 80);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV6, &p, NULL,
			     NULL), NF_ACCEPT);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV6, "t", "c", 2), 1);
}
END_TEST

/* TCP SYN with options: MSS 1460, NOP, NOP, SACK permitted (2 bytes) */
static void mk_syn_opts(struct pkt *p)
{
	static const uint8_t opts[8] = { 2, 4, 0x05, 0xb4, 1, 1, 4, 2 };

	mk_ip4(p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 40000, 443);
	memcpy(p->data + 40, opts, 8);
	p->data[32] = 7 << 4;	/* 28-byte header */
	p->len += 8;
	p->data[3] = p->len;
	pkt_fix_csums(p, 0);
}

START_TEST(test_exthdr_tcpopt)
{
	uint16_t mss = htons(1460), clamp = htons(1200);
	struct nftvm_result res;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	base(&v, NFPROTO_IPV4, NF_INET_FORWARD);
	/* tcp option maxseg size 1460 counter */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 2, 2, 2, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &mss, 2), x_counter());
	/* tcp option sack-perm exists counter */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 4, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 1 }, 1),
		 x_counter());
	/* tcp option maxseg size set 1200 */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_imm(NFT_REG_2, &clamp, 2),
		 x_exthdr_set(2, 2, 2, NFT_REG_2));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_syn_opts(&p);
	run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 2), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 3), 1);
	ck_assert(res.pkt_modified);
	ck_assert_uint_eq(ck_get16(p.data + 42), 1200);
	assert_csums(&p, 0);
	/* a second pass sees 1200 (sack-perm is still there) */
	run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 2), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 3), 2);
	/* no options at all: neither rule counts, nothing is written */
	mk_ip4(&p, "10.1.2.3", "10.0.0.2", IPPROTO_TCP, 40000, 443);
	run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert(!res.pkt_modified);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 3), 2);

	/* invalid: flags beyond F_PRESENT, SCTP chunk writes, sreg with
	 * dreg, a 3-byte option write */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_exthdr(NFT_EXTHDR_OP_TCPOPT, 2, 0, 1,
						 NFT_REG_1, 2)), -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_EXTHDR_FLAGS);
	{
		struct nftnl_expr *e = x_exthdr_set(0, 4, 4, NFT_REG_2);

		nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP,
				   NFT_EXTHDR_OP_SCTP);
		ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN,
					  NULL, &err, e), -EOPNOTSUPP);
	}
	{
		struct nftnl_expr *e = x_exthdr_set(2, 2, 2, NFT_REG_2);

		nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_DREG, NFT_REG_1);
		ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN,
					  NULL, &err, e), -EOPNOTSUPP);
	}
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_exthdr_set(2, 2, 3, NFT_REG_2)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 0, 0,
						 NFT_REG_1, 0)), -EINVAL);
}
END_TEST

/*
 * SCTP chunks: the packets and rules of check_vm_exprs.h, whose expected
 * counts follow from RFC 9260's layout (check_vm_kernel.c holds the same
 * rules against the kernel's nft_exthdr).
 */
START_TEST(test_exthdr_sctp)
{
	struct vmb v;
	struct pkt p;
	unsigned int i, n;

	base(&v, NFPROTO_IPV4, NF_INET_LOCAL_OUT);
	n = vmb_sctp_rules(&v, NFPROTO_IPV4, "t", "c");
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	for (i = 0; i < SCTP_PKTS; i++) {
		mk_sctp4(&p, i, 64);
		run(vm, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &p, NULL, NULL);
	}
	/* handles: chain 1, rules 2.. */
	for (i = 0; i < n; i++)
		ck_assert_msg(rule_packets(vm, NFPROTO_IPV4, "t", "c", i + 2) ==
			      sctp_rule_hits[i], "sctp rule %u", i);
}
END_TEST

static Suite *vm_mangle_suite(void)
{
	Suite *s = suite_create("vm_mangle");
	TCase *tc = tcase_create("mangle");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_payload_set_ip4_saddr);
	tcase_add_test(tc, test_payload_set_ports_and_ip6);
	tcase_add_test(tc, test_payload_set_invalid);
	tcase_add_test(tc, test_meta_set);
	tcase_add_test(tc, test_ct_load);
	tcase_add_test(tc, test_ct_set_and_invalid);
	tcase_add_test(tc, test_exthdr_ipv6);
	tcase_add_test(tc, test_exthdr_tcpopt);
	tcase_add_test(tc, test_exthdr_sctp);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_mangle_suite)
