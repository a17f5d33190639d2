// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftvm side effects: NAT decisions (snat/dnat/masq/redir, only for
 * new connections), reject replies, log lines, notrack; and the load-time
 * refusals (wrong chain type or hook, bad flags or codes).
 */
#include "check_vm_exprs.h"
#include "check_vm_fixture.h"

static const struct nftvm_pktmeta ct_new = { .ct_state = NFTVM_CT_NEW };
static const struct nftvm_pktmeta ct_est = {
	.ct_state = NFTVM_CT_ESTABLISHED,
};

START_TEST(test_snat_dnat)
{
	uint32_t to = inet_addr("192.0.2.1"), to2 = inet_addr("192.0.2.9");
	uint16_t pmin = htons(1000), pmax = htons(2000), p8080 = htons(8080);
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "nat", 0);
	vmb_chain(&v, NFPROTO_IPV4, "nat", "post", NF_INET_POST_ROUTING, 100,
		  NF_ACCEPT, "nat");
	vmb_chain(&v, NFPROTO_IPV4, "nat", "pre", NF_INET_PRE_ROUTING, -100,
		  NF_ACCEPT, "nat");
	/* snat to 192.0.2.1-192.0.2.9:1000-2000 */
	vmb_rule(&v, NFPROTO_IPV4, "nat", "post", x_imm(NFT_REG_1, &to, 4),
		 x_imm(NFT_REG_2, &to2, 4), x_imm(NFT_REG_3, &pmin, 2),
		 x_imm(NFT_REG_4, &pmax, 2),
		 ({ struct nftnl_expr *e = x_nat(NFT_NAT_SNAT, NFPROTO_IPV4,
						 NFT_REG_1, NFT_REG_3,
						 NFT_REG_4,
						 NF_NAT_RANGE_PERSISTENT);
		    nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX,
				       NFT_REG_2);
		    e; }));
	/* tcp dport 80 dnat to :8080 */
	vmb_rule(&v, NFPROTO_IPV4, "nat", "pre", X_DPORT(80),
		 x_imm(NFT_REG_1, &p8080, 2),
		 x_nat(NFT_NAT_DNAT, NFPROTO_IPV4, 0, NFT_REG_1, 0, 0));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.5", "198.51.100.7", IPPROTO_TCP, 40000, 443);
	ck_assert_int_eq(run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p,
			     &ct_new, &res), NF_ACCEPT);
	ck_assert_uint_eq(res.chains, 1);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_SNAT);
	ck_assert_uint_eq(res.nat.family, NFPROTO_IPV4);
	ck_assert_int_eq(memcmp(res.nat.addr_min, &to, 4), 0);
	ck_assert_int_eq(memcmp(res.nat.addr_max, &to2, 4), 0);
	ck_assert_uint_eq(res.nat.proto_min, 1000);
	ck_assert_uint_eq(res.nat.proto_max, 2000);
	ck_assert_uint_eq(res.nat.flags, NF_NAT_RANGE_MAP_IPS |
			  NF_NAT_RANGE_PROTO_SPECIFIED |
			  NF_NAT_RANGE_PERSISTENT);
	/* established: the nat chain is not consulted at all */
	ck_assert_int_eq(run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p,
			     &ct_est, &res), NF_ACCEPT);
	ck_assert_uint_eq(res.chains, 0);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_NONE);
	/* no conntrack: neither */
	run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_NONE);

	mk_ip4(&p, "10.0.0.5", "198.51.100.7", IPPROTO_TCP, 40000, 80);
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &ct_new, &res);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_DNAT);
	ck_assert_uint_eq(res.nat.flags, NF_NAT_RANGE_PROTO_SPECIFIED);
	ck_assert_uint_eq(res.nat.proto_min, 8080);
	ck_assert_uint_eq(res.nat.proto_max, 8080);
	mk_ip4(&p, "10.0.0.5", "198.51.100.7", IPPROTO_TCP, 40000, 81);
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &ct_new, &res);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_NONE);
}
END_TEST

START_TEST(test_masq_redir)
{
	uint16_t port = htons(3128);
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_INET, "nat", 0);
	vmb_chain(&v, NFPROTO_INET, "nat", "post", NF_INET_POST_ROUTING, 100,
		  NF_ACCEPT, "nat");
	vmb_chain(&v, NFPROTO_INET, "nat", "out", NF_INET_LOCAL_OUT, -100,
		  NF_ACCEPT, "nat");
	vmb_rule(&v, NFPROTO_INET, "nat", "post",
		 ({ struct nftnl_expr *e = nftnl_expr_alloc("masq");
		    nftnl_expr_set_u32(e, NFTNL_EXPR_MASQ_FLAGS,
				       NF_NAT_RANGE_PROTO_RANDOM_FULLY);
		    e; }));
	vmb_rule(&v, NFPROTO_INET, "nat", "out", X_DPORT(80),
		 x_imm(NFT_REG_1, &port, 2),
		 ({ struct nftnl_expr *e = nftnl_expr_alloc("redir");
		    nftnl_expr_set_u32(e, NFTNL_EXPR_REDIR_REG_PROTO_MIN,
				       NFT_REG_1);
		    e; }));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip6(&p, "2001:db8::1", "2001:db8::2", IPPROTO_UDP, 1, 53);
	ck_assert_int_eq(run(vm, NF_INET_POST_ROUTING, NFPROTO_IPV6, &p,
			     &ct_new, &res), NF_ACCEPT);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_MASQ);
	ck_assert_uint_eq(res.nat.family, NFPROTO_IPV6);
	ck_assert_uint_eq(res.nat.flags, NF_NAT_RANGE_PROTO_RANDOM_FULLY);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 80);
	run(vm, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &p, &ct_new, &res);
	ck_assert_uint_eq(res.nat.kind, NFTVM_NAT_REDIR);
	ck_assert_uint_eq(res.nat.proto_min, 3128);
	ck_assert_uint_eq(res.nat.proto_max, 3128);
}
END_TEST

START_TEST(test_nat_invalid)
{
	struct nftvm_err err;

	/* snat in a filter chain; dnat at postrouting; masq at input */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  NULL, &err,
				  x_nat(NFT_NAT_SNAT, NFPROTO_IPV4, NFT_REG_1,
					0, 0, 0)), -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  "nat", &err,
				  x_nat(NFT_NAT_DNAT, NFPROTO_IPV4, NFT_REG_1,
					0, 0, 0)), -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, "nat",
				  &err, nftnl_expr_alloc("masq")),
			 -EOPNOTSUPP);
	/* neither address nor port; an ip6 family in an ip table */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  "nat", &err,
				  x_nat(NFT_NAT_SNAT, NFPROTO_IPV4, 0, 0, 0,
					0)), -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  "nat", &err,
				  x_nat(NFT_NAT_SNAT, NFPROTO_IPV6, NFT_REG_1,
					0, 0, 0)), -EOPNOTSUPP);
	ck_assert_uint_eq(err.attr, NFTA_NAT_FAMILY);
	/* a flag outside NF_NAT_RANGE_MASK; an unknown type */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  "nat", &err,
				  x_nat(NFT_NAT_SNAT, NFPROTO_IPV4, NFT_REG_1,
					0, 0, 0x80)), -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_NAT_FLAGS);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  "nat", &err,
				  x_nat(5, NFPROTO_IPV4, NFT_REG_1, 0, 0, 0)),
			 -EOPNOTSUPP);
	/* an IPv6 address does not fit at NFT_REG32_13 */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV6, NF_INET_POST_ROUTING,
				  "nat", &err,
				  x_nat(NFT_NAT_SNAT, NFPROTO_IPV6,
					NFT_REG32_13, 0, 0, 0)), -ERANGE);
	ck_assert_int_eq(nftvm_object_count(vm), 0);
}
END_TEST

START_TEST(test_reject)
{
	struct nftvm_result res;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_INET, "f", 0);
	vmb_chain(&v, NFPROTO_INET, "f", "in", NF_INET_LOCAL_IN, 0,
		  NF_ACCEPT, NULL);
	/* tcp dport 23 reject with tcp reset; udp: icmpx port-unreach */
	vmb_rule(&v, NFPROTO_INET, "f", "in", X_L4PROTO(IPPROTO_TCP),
		 X_DPORT(23), x_reject(NFT_REJECT_TCP_RST, -1));
	vmb_rule(&v, NFPROTO_INET, "f", "in", X_L4PROTO(IPPROTO_UDP),
		 x_reject(NFT_REJECT_ICMPX_UNREACH,
			  NFT_REJECT_ICMPX_PORT_UNREACH));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 23);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL,
			     &res), NF_DROP);
	ck_assert(res.reject.set);
	ck_assert_uint_eq(res.reject.type, NFT_REJECT_TCP_RST);
	mk_ip6(&p, "2001:db8::1", "2001:db8::2", IPPROTO_UDP, 1, 53);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV6, &p, NULL,
			     &res), NF_DROP);
	ck_assert_uint_eq(res.reject.type, NFT_REJECT_ICMPX_UNREACH);
	ck_assert_uint_eq(res.reject.icmp_code, NFT_REJECT_ICMPX_PORT_UNREACH);
	ck_assert_uint_eq(res.reject.family, NFPROTO_IPV6);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL,
			     &res), NF_ACCEPT);
	ck_assert(!res.reject.set);

	/* icmpx code out of range; icmp without a code; postrouting */
	ck_assert_int_eq(load_one(vm, NFPROTO_INET, NF_INET_LOCAL_IN, NULL,
				  &err, x_reject(NFT_REJECT_ICMPX_UNREACH, 9)),
			 -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_REJECT_ICMP_CODE);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_reject(NFT_REJECT_ICMP_UNREACH, -1)),
			 -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  NULL, &err,
				  x_reject(NFT_REJECT_TCP_RST, -1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_reject(3, -1)), -EINVAL);
}
END_TEST

START_TEST(test_log)
{
	struct nftvm_pktmeta meta = { .iif = 2, .iifname = "eth0" };
	struct nftvm_result res;
	struct nftvm_err err;
	struct nftnl_expr *e;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_INET, "f", 0);
	vmb_chain(&v, NFPROTO_INET, "f", "in", NF_INET_LOCAL_IN, 0,
		  NF_ACCEPT, NULL);
	vmb_rule(&v, NFPROTO_INET, "f", "in", x_log("in: ", -1));
	e = nftnl_expr_alloc("log");
	nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_GROUP, 5);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_SNAPLEN, 64);
	vmb_rule(&v, NFPROTO_INET, "f", "in", X_DPORT(22), e);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	/* the kernel's format, fields in the order nf_log_syslog prints
	 * them: IN OUT SRC DST LEN TOS PREC TTL ID [DF] PROTO SPT DPT
	 * WINDOW RES flags URGP */
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 40000, 22);
	p.data[1] = 0x10;		/* TOS: low delay */
	p.data[4] = 0x12;		/* ID 0x1234 */
	p.data[5] = 0x34;
	p.data[6] = 0x40;		/* DF */
	p.data[34] = 0xfa;		/* window 64240 */
	p.data[35] = 0xf0;
	run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, &meta, &res);
	ck_assert_uint_eq(res.nlog, 2);
	ck_assert_str_eq(res.log[0].prefix, "in: ");
	ck_assert_uint_eq(res.log[0].level, NFT_LOGLEVEL_WARNING);
	ck_assert_str_eq(res.log[0].line,
			 "in: IN=eth0 OUT= SRC=10.0.0.1 DST=10.0.0.2 LEN=40 "
			 "TOS=0x10 PREC=0x00 TTL=64 ID=4660 DF PROTO=TCP "
			 "SPT=40000 DPT=22 WINDOW=64240 RES=0x00 SYN URGP=0");
	ck_assert(res.log[1].has_group);
	ck_assert_uint_eq(res.log[1].group, 5);
	ck_assert_uint_eq(res.log[1].snaplen, 64);

	mk_ip6(&p, "2001:db8::1", "2001:db8::2", IPPROTO_UDP, 1000, 53);
	run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV6, &p, NULL, &res);
	ck_assert_uint_eq(res.nlog, 1);
	ck_assert_str_eq(res.log[0].line,
			 "in: IN= OUT= SRC=2001:0db8:0000:0000:0000:0000:0000:"
			 "0001 DST=2001:0db8:0000:0000:0000:0000:0000:0002 "
			 "LEN=48 TC=0 HOPLIMIT=64 FLOWLBL=0 PROTO=UDP SPT=1000 "
			 "DPT=53 LEN=8");

	/* level and group together; flags with a group; level 9 */
	e = x_log(NULL, 4);
	nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_GROUP, 1);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, e), -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_log(NULL, 9)), -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_LOG_LEVEL);
	e = x_log(NULL, -1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_FLAGS, 0x10);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, e), -EINVAL);
}
END_TEST

START_TEST(test_notrack)
{
	uint32_t zero = 0;
	struct nftvm_result res;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "raw", 0);
	vmb_chain(&v, NFPROTO_IPV4, "raw", "pre", NF_INET_PRE_ROUTING, -300,
		  NF_ACCEPT, NULL);
	vmb_rule(&v, NFPROTO_IPV4, "raw", "pre", X_DPORT(53),
		 nftnl_expr_alloc("notrack"));
	/* ct state untracked counter */
	vmb_rule(&v, NFPROTO_IPV4, "raw", "pre",
		 x_ct(NFT_CT_STATE, NFT_REG_1, -1),
		 x_bitwise(NFT_REG_1, NFT_REG_1, 4,
			   &(uint32_t){ NFTVM_CT_UNTRACKED }, &zero),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, &zero, 4), x_counter());
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 53);
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert(res.notrack);
	ck_assert_uint_eq(res.meta.ct_state, NFTVM_CT_UNTRACKED);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "raw", "pre", 3), 1);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 54);
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, NULL, &res);
	ck_assert(!res.notrack);
	/* already tracked: notrack does nothing */
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 53);
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &ct_est, &res);
	ck_assert(!res.notrack);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "raw", "pre", 3), 1);
}
END_TEST

static struct nftnl_expr *x_queue(int num, int total, int flags, int sreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("queue");

	if (num >= 0)
		nftnl_expr_set_u16(e, NFTNL_EXPR_QUEUE_NUM, num);
	if (total >= 0)
		nftnl_expr_set_u16(e, NFTNL_EXPR_QUEUE_TOTAL, total);
	if (flags >= 0)
		nftnl_expr_set_u16(e, NFTNL_EXPR_QUEUE_FLAGS, flags);
	if (sreg >= 0)
		nftnl_expr_set_u32(e, NFTNL_EXPR_QUEUE_SREG_QNUM, sreg);
	return e;
}

START_TEST(test_queue_dup)
{
	struct nftvm_pktmeta meta = { .cpu = 5 };
	uint32_t gw = inet_addr("192.0.2.254"), oif = 7, q = 300;
	struct nftvm_result res;
	struct nftvm_err err;
	unsigned int i;
	struct vmb v;
	struct pkt p, r;
	int v1, v2;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "f", 0);
	vmb_chain(&v, NFPROTO_IPV4, "f", "fw", NF_INET_FORWARD, 0,
		  NF_ACCEPT, NULL);
	/* dup to 192.0.2.254 device 7, then go on */
	vmb_rule(&v, NFPROTO_IPV4, "f", "fw", x_imm(NFT_REG_1, &gw, 4),
		 x_imm(NFT_REG_2, &oif, 4),
		 ({ struct nftnl_expr *e = nftnl_expr_alloc("dup");
		    nftnl_expr_set_u32(e, NFTNL_EXPR_DUP_SREG_ADDR, NFT_REG_1);
		    nftnl_expr_set_u32(e, NFTNL_EXPR_DUP_SREG_DEV, NFT_REG_2);
		    e; }));
	/* tcp dport 22 queue num 3 bypass */
	vmb_rule(&v, NFPROTO_IPV4, "f", "fw", X_DPORT(22),
		 x_queue(3, -1, NFT_QUEUE_FLAG_BYPASS, -1));
	/* tcp dport 23 queue num 10-13 fanout */
	vmb_rule(&v, NFPROTO_IPV4, "f", "fw", X_DPORT(23),
		 x_queue(10, 4, NFT_QUEUE_FLAG_CPU_FANOUT, -1));
	/* tcp dport 24 queue to 300 (register) */
	vmb_rule(&v, NFPROTO_IPV4, "f", "fw", X_DPORT(24),
		 x_imm(NFT_REG_1, &q, 4), x_queue(-1, -1, -1, NFT_REG_1));
	/* tcp dport 25 queue num 20-27 (hashed) */
	vmb_rule(&v, NFPROTO_IPV4, "f", "fw", X_DPORT(25),
		 x_queue(20, 8, -1, -1));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     &res), (int)(NF_QUEUE_NR(3) |
					  NF_VERDICT_FLAG_QUEUE_BYPASS));
	ck_assert(res.dup.set);
	ck_assert_int_eq(memcmp(res.dup.addr, &gw, 4), 0);
	ck_assert_uint_eq(res.dup.oif, 7);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 23);
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     NULL), (int)NF_QUEUE_NR(10 + 5 % 4));
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 24);
	ck_assert_int_eq(run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, &meta,
			     NULL), (int)NF_QUEUE_NR(300));
	/* hashed: in range, and both directions of a flow alike */
	for (i = 0; i < 16; i++) {
		char src[16];

		snprintf(src, sizeof(src), "10.0.%u.1", i);
		mk_ip4(&p, src, "10.9.9.9", IPPROTO_TCP, 1, 25);
		mk_ip4(&r, "10.9.9.9", src, IPPROTO_TCP, 25, 25);
		v1 = run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &p, NULL, NULL);
		v2 = run(vm, NF_INET_FORWARD, NFPROTO_IPV4, &r, NULL, NULL);
		ck_assert_int_eq(v1 & NF_VERDICT_MASK, NF_QUEUE);
		ck_assert_uint_ge((unsigned int)v1 >> 16, 20);
		ck_assert_uint_le((unsigned int)v1 >> 16, 27);
		ck_assert_int_eq(v1, v2);
	}

	/* num with sreg; total 0; range past 65535; fanout by register;
	 * unknown flag; dup in an inet table */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_FORWARD, NULL,
				  &err, x_queue(1, -1, -1, NFT_REG_1)),
			 -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_FORWARD, NULL,
				  &err, x_queue(1, 0, -1, -1)), -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_FORWARD, NULL,
				  &err, x_queue(65535, 2, -1, -1)), -ERANGE);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_FORWARD, NULL,
				  &err, x_queue(-1, -1,
						NFT_QUEUE_FLAG_CPU_FANOUT,
						NFT_REG_1)), -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_FORWARD, NULL,
				  &err, x_queue(1, -1, 4, -1)), -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_INET, NF_INET_FORWARD, NULL,
				  &err, ({ struct nftnl_expr *e =
						nftnl_expr_alloc("dup");
					   nftnl_expr_set_u32(e,
						NFTNL_EXPR_DUP_SREG_ADDR,
						NFT_REG_1);
					   e; })), -EOPNOTSUPP);
}
END_TEST

#define RTN_UNICAST_	1
#define RTN_LOCAL_	2

START_TEST(test_fib)
{
	struct nftvm_pktmeta meta = { .iif = 2, .iifname = "eth0" };
	struct nftvm_result res;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "f", 0);
	vmb_chain(&v, NFPROTO_IPV4, "f", "pre", NF_INET_PRE_ROUTING, 0,
		  NF_ACCEPT, NULL);
	/* fib saddr . iif oif missing drop (reverse path filter) */
	vmb_rule(&v, NFPROTO_IPV4, "f", "pre",
		 x_fib(NFT_FIB_RESULT_OIF, NFTA_FIB_F_SADDR | NFTA_FIB_F_IIF |
		       NFTA_FIB_F_PRESENT, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 0 }, 1),
		 x_verdict(NF_DROP, NULL));
	/* fib daddr type local: meta mark set 1; fib daddr oifname
	 * "eth1": meta priority set 2 */
	vmb_rule(&v, NFPROTO_IPV4, "f", "pre",
		 x_fib(NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &(uint32_t){ RTN_LOCAL_ }, 4),
		 x_imm(NFT_REG_2, &(uint32_t){ 1 }, 4),
		 x_meta_set(NFT_META_MARK, NFT_REG_2));
	vmb_rule(&v, NFPROTO_IPV4, "f", "pre",
		 x_fib(NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_DADDR, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, "eth1\0\0\0\0\0\0\0\0\0\0\0",
		       16), x_imm(NFT_REG_2, &(uint32_t){ 2 }, 4),
		 x_meta_set(NFT_META_PRIORITY, NFT_REG_2));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	/* the way back to 10.0.0.1 is through eth0 = iif: passes */
	meta.fib_oif[0] = 2;
	meta.fib_type[1] = RTN_LOCAL_;
	ck_assert_int_eq(run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta,
			     &res), NF_ACCEPT);
	ck_assert_uint_eq(res.meta.mark, 1);
	ck_assert_uint_eq(res.meta.priority, 0);
	/* through another interface, or no route at all: dropped */
	meta.fib_oif[0] = 3;
	ck_assert_int_eq(run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_DROP);
	meta.fib_oif[0] = 0;
	ck_assert_int_eq(run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_DROP);
	/* forwarded to eth1 */
	meta.fib_oif[0] = 2;
	meta.fib_type[1] = RTN_UNICAST_;
	meta.fib_oif[1] = 4;
	strcpy(meta.fib_oifname[1], "eth1");
	run(vm, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta, &res);
	ck_assert_uint_eq(res.meta.mark, 0);
	ck_assert_uint_eq(res.meta.priority, 2);

	/* no flags; saddr and daddr; iif and oif; oif result with oif;
	 * unknown result */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_PRE_ROUTING, NULL,
				  &err, x_fib(NFT_FIB_RESULT_OIF, 0,
					      NFT_REG_1)), -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_FIB_FLAGS);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_PRE_ROUTING, NULL,
				  &err, x_fib(NFT_FIB_RESULT_OIF,
					      NFTA_FIB_F_SADDR |
					      NFTA_FIB_F_DADDR, NFT_REG_1)),
			 -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_PRE_ROUTING, NULL,
				  &err, x_fib(NFT_FIB_RESULT_ADDRTYPE,
					      NFTA_FIB_F_SADDR | NFTA_FIB_F_IIF |
					      NFTA_FIB_F_OIF, NFT_REG_1)),
			 -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_PRE_ROUTING, NULL,
				  &err, x_fib(NFT_FIB_RESULT_OIF,
					      NFTA_FIB_F_DADDR | NFTA_FIB_F_OIF,
					      NFT_REG_1)), -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_PRE_ROUTING, NULL,
				  &err, x_fib(9, NFTA_FIB_F_DADDR, NFT_REG_1)),
			 -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_FIB_RESULT);
}
END_TEST

/*
 * rt: the route comes with the packet; none breaks the rule.  The MSS is
 * the smaller of the route's and the reverse route's MTU less 40 (IPv4)
 * or 60 (IPv6) bytes of headers, 536 where that leaves nothing (the
 * kernel's nft_rt get_tcpmss()).
 */
START_TEST(test_rt)
{
	struct nftvm_pktmeta meta = { .rt_dst = true, .rt_mtu = 1500 };
	struct nftvm_result res;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;
	int fam;

	for (fam = NFPROTO_INET; fam; fam = fam == NFPROTO_INET ?
					    NFPROTO_IPV4 : 0) {
		teardown();
		setup();
		vmb_begin(&v);
		vmb_table(&v, fam, "r", 0);
		vmb_chain(&v, fam, "r", "fwd", NF_INET_FORWARD, 0,
			  NF_ACCEPT, NULL);
		/* rt mtu: meta mark set rt mtu */
		vmb_rule(&v, fam, "r", "fwd", x_rt(NFT_RT_TCPMSS, NFT_REG_1),
			 x_meta_set(NFT_META_MARK, NFT_REG_1));
		/* rt ip nexthop 10.0.0.254: meta priority set 1 */
		vmb_rule(&v, fam, "r", "fwd",
			 x_rt(NFT_RT_NEXTHOP4, NFT_REG_1),
			 x_cmp(NFT_REG_1, NFT_CMP_EQ,
			       (uint8_t[]){ 10, 0, 0, 254 }, 4),
			 x_imm(NFT_REG_2, &(uint32_t){ 1 }, 4),
			 x_meta_set(NFT_META_PRIORITY, NFT_REG_2));
		/* rt ipsec exists: drop */
		vmb_rule(&v, fam, "r", "fwd", x_rt(NFT_RT_XFRM, NFT_REG_1),
			 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 1 }, 1),
			 x_verdict(NF_DROP, NULL));
		ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

		mk_ip4(&p, "10.0.0.1", "10.0.0.254", IPPROTO_TCP, 1, 22);
		meta.rt_mtu = 1500;
		meta.rt_mtu_rev = 0;
		ck_assert_int_eq(run(vm, NF_INET_FORWARD, fam, &p, &meta,
				     &res), NF_ACCEPT);
		ck_assert_uint_eq(res.meta.mark, 1460);
		/* no gateway: the nexthop is the destination */
		ck_assert_uint_eq(res.meta.priority, 1);
		meta.rt_nexthop[0] = 10;
		meta.rt_nexthop[3] = 1;
		meta.rt_mtu_rev = 1400;
		run(vm, NF_INET_FORWARD, fam, &p, &meta, &res);
		ck_assert_uint_eq(res.meta.mark, 1360);
		ck_assert_uint_eq(res.meta.priority, 0);
		memset(meta.rt_nexthop, 0, sizeof(meta.rt_nexthop));
		/* an MTU the headers fill, or above 65535: 536 */
		meta.rt_mtu = 40;
		meta.rt_mtu_rev = 0;
		run(vm, NF_INET_FORWARD, fam, &p, &meta, &res);
		ck_assert_uint_eq(res.meta.mark, 536);
		meta.rt_mtu = 65536;
		run(vm, NF_INET_FORWARD, fam, &p, &meta, &res);
		ck_assert_uint_eq(res.meta.mark, 536);
		meta.rt_xfrm = 1;
		ck_assert_int_eq(run(vm, NF_INET_FORWARD, fam, &p, &meta,
				     NULL), NF_DROP);
		meta.rt_xfrm = 0;
		/* no route: no load matches, nothing is set */
		meta.rt_dst = false;
		run(vm, NF_INET_FORWARD, fam, &p, &meta, &res);
		ck_assert_uint_eq(res.meta.mark, 0);
		ck_assert_uint_eq(res.meta.priority, 0);
		meta.rt_dst = true;
		meta.rt_mtu = 1500;
		if (fam == NFPROTO_INET) {
			/* IPv6 in inet: 60 bytes of headers, no nexthop4 */
			mk_ip6(&p, "2001:db8::1", "2001:db8::2",
			       IPPROTO_TCP, 1, 22);
			run(vm, NF_INET_FORWARD, fam, &p, &meta, &res);
			ck_assert_uint_eq(res.meta.mark, 1440);
			ck_assert_uint_eq(res.meta.priority, 0);
		}
	}

	/* rt mtu only where the output route is known (nft_rt_validate) */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_rt(NFT_RT_TCPMSS, NFT_REG_1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_PRE_ROUTING, NULL,
				  &err, x_rt(NFT_RT_TCPMSS, NFT_REG_1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_rt(NFT_RT_XFRM + 1, NFT_REG_1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_rt(256, NFT_REG_1)), -ERANGE);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_rt(NFT_RT_NEXTHOP6, NFT_REG_1)), 0);
	teardown();
	setup();
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_POST_ROUTING,
				  NULL, &err, x_rt(NFT_RT_TCPMSS, NFT_REG_1)),
			 0);
}
END_TEST

/*
 * meta secpath: the packet came out of IPsec; only on the receive path
 * (prerouting, input, forward; netdev ingress), as the kernel validates.
 */
START_TEST(test_secpath)
{
	struct nftvm_pktmeta meta = { .secpath = 1 };
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_INET, "s", 0);
	vmb_chain(&v, NFPROTO_INET, "s", "in", NF_INET_LOCAL_IN, 0,
		  NF_ACCEPT, NULL);
	vmb_rule(&v, NFPROTO_INET, "s", "in", x_meta(NFT_META_SECPATH,
						     NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ 1 }, 1),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 53);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_INET, &p, &meta,
			     NULL), NF_DROP);
	meta.secpath = 0;
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_INET, &p, &meta,
			     NULL), NF_ACCEPT);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_OUT, NULL,
				  &err, x_meta(NFT_META_SECPATH, NFT_REG_1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_BRIDGE, NF_INET_LOCAL_IN, NULL,
				  &err, x_meta(NFT_META_SECPATH, NFT_REG_1)),
			 -EOPNOTSUPP);
}
END_TEST

static Suite *vm_actions_suite(void)
{
	Suite *s = suite_create("vm_actions");
	TCase *tc = tcase_create("actions");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_snat_dnat);
	tcase_add_test(tc, test_masq_redir);
	tcase_add_test(tc, test_nat_invalid);
	tcase_add_test(tc, test_reject);
	tcase_add_test(tc, test_log);
	tcase_add_test(tc, test_notrack);
	tcase_add_test(tc, test_queue_dup);
	tcase_add_test(tc, test_fib);
	tcase_add_test(tc, test_rt);
	tcase_add_test(tc, test_secpath);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_actions_suite)
