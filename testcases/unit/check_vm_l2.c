// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftvm packet path of the layer 2 families: bridge and netdev frames
 * from the Ethernet header (with and without an 802.1Q tag), arp packets
 * from the ARP header; link, network and transport payload bases, meta
 * protocol/nfproto/l4proto, base chains in priority order, netdev chains
 * per device merged with inet ingress chains.  The kernel facts come from
 * nft_chain_filter.c (nft_do_chain_bridge/netdev/arp) and nft_payload.c
 * (the VLAN tag as the receive path leaves it in the metadata, put back
 * in place for link-layer loads); check_vm_kernel.c compares netdev
 * ingress with the running kernel.
 */
#define _GNU_SOURCE
#include "check_vm_exprs.h"
#include <linux/netfilter_arp.h>
#include <linux/netfilter_bridge.h>
#include "check_vm_fixture.h"

static const uint8_t mac_dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t mac_src[6] = { 0x02, 0, 0, 0, 0, 0x01 };

/* Ethernet header (+ 802.1Q tag if @vid >= 0) in front of @l3 */
static void mk_frame(struct pkt *f, const struct pkt *l3, uint16_t type,
		     int vid)
{
	uint32_t off = 12;

	memset(f, 0, sizeof(*f));
	memcpy(f->data, mac_dst, 6);
	memcpy(f->data + 6, mac_src, 6);
	if (vid >= 0) {
		f->data[off++] = 0x81;
		f->data[off++] = 0x00;
		f->data[off++] = (uint8_t)(vid >> 8);
		f->data[off++] = (uint8_t)vid;
	}
	f->data[off++] = (uint8_t)(type >> 8);
	f->data[off++] = (uint8_t)type;
	memcpy(f->data + off, l3->data, l3->len);
	f->len = off + l3->len;
}

/* an ARP request for IPv4 over Ethernet */
static void mk_arp(struct pkt *p, uint16_t op)
{
	memset(p, 0, sizeof(*p));
	p->data[1] = 1;			/* hardware: Ethernet */
	p->data[2] = 0x08;		/* protocol: IPv4 */
	p->data[4] = 6;
	p->data[5] = 4;
	p->data[7] = (uint8_t)op;
	memcpy(p->data + 8, mac_src, 6);
	inet_pton(AF_INET, "10.0.0.1", p->data + 14);
	inet_pton(AF_INET, "10.0.0.2", p->data + 24);
	p->len = 28;
}

static struct nftnl_expr *x_cmp16(uint16_t v)
{
	uint16_t be = htons(v);

	return x_cmp(NFT_REG_1, NFT_CMP_EQ, &be, 2);
}

static struct nftnl_expr *x_cmp8(uint8_t v)
{
	return x_cmp(NFT_REG_1, NFT_CMP_EQ, &v, 1);
}

/*
 * Bridge: link, network and transport bases and the meta keys of one
 * frame; two base chains of one hook in priority order, the later one
 * registered first.
 */
START_TEST(test_bridge_bases)
{
	struct nftvm_result res;
	struct pkt ip, f;
	uint8_t saddr[4];
	struct vmb v;
	unsigned int h;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_BRIDGE, "b", 0);
	vmb_chain(&v, NFPROTO_BRIDGE, "b", "late", NF_BR_PRE_ROUTING, 10,
		  NF_ACCEPT, NULL);
	vmb_chain(&v, NFPROTO_BRIDGE, "b", "early", NF_BR_PRE_ROUTING, -10,
		  NF_ACCEPT, NULL);
	vmb_chain(&v, NFPROTO_BRIDGE, "b", "fwd", NF_BR_FORWARD, 0,
		  NF_DROP, NULL);
	/* handles 4..10: ether saddr, ether type, meta protocol, nfproto,
	 * l4proto, ip saddr, tcp dport */
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_payload(NFT_PAYLOAD_LL_HEADER, 6, 6, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, mac_src, 6), x_counter());
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_payload(NFT_PAYLOAD_LL_HEADER, 12, 2, NFT_REG_1),
		 x_cmp16(0x0800), x_counter());
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_meta(NFT_META_PROTOCOL, NFT_REG_1), x_cmp16(0x0800),
		 x_counter());
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_meta(NFT_META_NFPROTO, NFT_REG_1), x_cmp8(NFPROTO_BRIDGE),
		 x_counter());
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_meta(NFT_META_L4PROTO, NFT_REG_1), x_cmp8(IPPROTO_TCP),
		 x_counter());
	inet_pton(AF_INET, "10.0.0.1", saddr);
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, saddr, 4), x_counter());
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "early",
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1),
		 x_cmp16(22), x_counter());
	/* handle 11: the late chain drops */
	vmb_rule(&v, NFPROTO_BRIDGE, "b", "late", x_counter(),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&ip, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1000, 22);
	mk_frame(&f, &ip, 0x0800, -1);
	ck_assert_int_eq(run(vm, NF_BR_PRE_ROUTING, NFPROTO_BRIDGE, &f, NULL,
			     &res), NF_DROP);
	ck_assert_uint_eq(res.chains, 2);
	ck_assert_str_eq(res.trace[0].chain, "early");
	ck_assert_str_eq(res.trace[res.ntrace - 1].chain, "late");
	for (h = 4; h <= 11; h++)
		ck_assert_msg(rule_packets(vm, NFPROTO_BRIDGE, "b",
					   h == 11 ? "late" : "early", h) == 1,
			      "rule %u did not match", h);

	/* the forward hook has its own chain; other hooks none */
	ck_assert_int_eq(run(vm, NF_BR_FORWARD, NFPROTO_BRIDGE, &f, NULL,
			     &res), NF_DROP);
	ck_assert_int_eq(run(vm, NF_BR_LOCAL_IN, NFPROTO_BRIDGE, &f, NULL,
			     &res), NF_ACCEPT);
	ck_assert_uint_eq(res.chains, 0);

	/* an IPv6 frame: no ip saddr, and ether type/protocol differ */
	mk_ip6(&ip, "2001:db8::1", "2001:db8::2", IPPROTO_TCP, 1000, 22);
	mk_frame(&f, &ip, 0x86dd, -1);
	run(vm, NF_BR_PRE_ROUTING, NFPROTO_BRIDGE, &f, NULL, &res);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 4),
			  2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 5),
			  1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 6),
			  1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 8),
			  2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 10),
			  2);

	/* an ARP frame in the bridge: no transport header, no l4proto */
	mk_arp(&ip, 1);
	mk_frame(&f, &ip, 0x0806, -1);
	run(vm, NF_BR_PRE_ROUTING, NFPROTO_BRIDGE, &f, NULL, &res);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 7),
			  3);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 8),
			  2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_BRIDGE, "b", "early", 10),
			  2);

	/* a frame needs its Ethernet header */
	{
		struct nftvm_pkt pk = { .data = f.data, .len = 13 };

		ck_assert_int_eq(nftvm_eval(vm, NF_BR_PRE_ROUTING,
					    NFPROTO_BRIDGE, &pk, NULL, &res),
				 -EINVAL);
	}
}
END_TEST

/*
 * An 802.1Q tag: link-layer loads see it in place (ether type 0x8100,
 * vlan id at offset 14), the network header and meta protocol are the
 * ones behind it.  A second tag stays: the packet is not IP then.
 */
START_TEST(test_vlan)
{
	struct nftvm_result res;
	struct pkt ip, f, qinq;
	uint16_t mask = htons(0x0fff);
	uint8_t saddr[4];
	struct vmb v;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_NETDEV, "n", 0);
	vmb_devchain(&v, NFPROTO_NETDEV, "n", "in", NF_NETDEV_INGRESS, 0,
		     "veth1");
	/* handles 2..6: ether type vlan, vlan id 10, meta protocol ip,
	 * ip saddr, udp dport */
	vmb_rule(&v, NFPROTO_NETDEV, "n", "in",
		 x_payload(NFT_PAYLOAD_LL_HEADER, 12, 2, NFT_REG_1),
		 x_cmp16(0x8100), x_counter());
	vmb_rule(&v, NFPROTO_NETDEV, "n", "in",
		 x_payload(NFT_PAYLOAD_LL_HEADER, 14, 2, NFT_REG_1),
		 x_bitwise(NFT_REG_1, NFT_REG_1, 2, &mask, "\0\0"),
		 x_cmp16(10), x_counter());
	vmb_rule(&v, NFPROTO_NETDEV, "n", "in",
		 x_meta(NFT_META_PROTOCOL, NFT_REG_1), x_cmp16(0x0800),
		 x_counter());
	inet_pton(AF_INET, "10.0.0.1", saddr);
	vmb_rule(&v, NFPROTO_NETDEV, "n", "in",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, saddr, 4), x_counter());
	vmb_rule(&v, NFPROTO_NETDEV, "n", "in",
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1),
		 x_cmp16(53), x_counter());
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	struct nftvm_pktmeta m = { .iif = 2, .iifname = "veth1" };

	mk_ip4(&ip, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1000, 53);
	mk_frame(&f, &ip, 0x0800, 10);
	run(vm, NF_NETDEV_INGRESS, NFPROTO_NETDEV, &f, &m, &res);
	ck_assert_uint_eq(res.chains, 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 2), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 3), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 4), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 5), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 6), 1);

	/* vlan 11: all but the vlan id rule */
	mk_frame(&f, &ip, 0x0800, 11);
	run(vm, NF_NETDEV_INGRESS, NFPROTO_NETDEV, &f, &m, &res);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 2), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 3), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 4), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 6), 2);

	/* QinQ: outer 10, inner 20 stays in the packet */
	mk_frame(&f, &ip, 0x0800, 20);
	qinq = f;
	memmove(qinq.data + 16, f.data + 12, f.len - 12);
	qinq.data[12] = 0x81;
	qinq.data[13] = 0x00;
	qinq.data[14] = 0;
	qinq.data[15] = 10;
	qinq.len = f.len + 4;
	run(vm, NF_NETDEV_INGRESS, NFPROTO_NETDEV, &qinq, &m, &res);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 2), 3);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 3), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 4), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 5), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "in", 6), 2);
}
END_TEST

/*
 * netdev: a chain runs for the devices it is hooked on; ingress merges
 * netdev chains and the inet tables' ingress chains (IP only) by
 * priority, each seeing its own nfproto.
 */
START_TEST(test_netdev_devices)
{
	struct nftvm_pktmeta m = { .iif = 2, .iifname = "veth1",
				   .oif = 3, .oifname = "veth9" };
	struct nftvm_result res;
	struct pkt ip, f;
	struct vmb v;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_NETDEV, "n", 0);
	vmb_table(&v, NFPROTO_INET, "i", 0);
	vmb_devchain(&v, NFPROTO_NETDEV, "n", "a", NF_NETDEV_INGRESS, -5,
		     "veth1");
	vmb_devchain(&v, NFPROTO_NETDEV, "n", "other", NF_NETDEV_INGRESS,
		     -20, "eth7");
	vmb_devchain(&v, NFPROTO_INET, "i", "ing", NF_INET_INGRESS, -10,
		     "veth1");
	vmb_devchain(&v, NFPROTO_NETDEV, "n", "out", NF_NETDEV_EGRESS, 0,
		     "veth9");
	/* handles: n 4 (a), 5 (other), 6 (out); i 2 */
	vmb_rule(&v, NFPROTO_NETDEV, "n", "a",
		 x_meta(NFT_META_NFPROTO, NFT_REG_1), x_cmp8(NFPROTO_NETDEV),
		 x_counter());
	vmb_rule(&v, NFPROTO_NETDEV, "n", "other", x_counter());
	vmb_rule(&v, NFPROTO_NETDEV, "n", "out", x_counter(),
		 x_verdict(NF_DROP, NULL));
	vmb_rule(&v, NFPROTO_INET, "i", "ing",
		 x_meta(NFT_META_NFPROTO, NFT_REG_1), x_cmp8(NFPROTO_IPV4),
		 x_counter());
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&ip, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1000, 53);
	mk_frame(&f, &ip, 0x0800, -1);
	ck_assert_int_eq(run(vm, NF_NETDEV_INGRESS, NFPROTO_NETDEV, &f, &m,
			     &res), NF_ACCEPT);
	ck_assert_uint_eq(res.chains, 2);
	ck_assert_str_eq(res.trace[0].chain, "ing");
	ck_assert_str_eq(res.trace[res.ntrace - 1].chain, "a");
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "a", 4), 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_NETDEV, "n", "other", 5),
			  0);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_INET, "i", "ing", 2), 1);

	/* ARP: the inet ingress chain does not see it */
	mk_arp(&ip, 1);
	mk_frame(&f, &ip, 0x0806, -1);
	run(vm, NF_NETDEV_INGRESS, NFPROTO_NETDEV, &f, &m, &res);
	ck_assert_uint_eq(res.chains, 1);

	/* egress goes by the output device */
	ck_assert_int_eq(run(vm, NF_NETDEV_EGRESS, NFPROTO_NETDEV, &f, &m,
			     &res), NF_DROP);
	strcpy(m.oifname, "veth8");
	ck_assert_int_eq(run(vm, NF_NETDEV_EGRESS, NFPROTO_NETDEV, &f, &m,
			     &res), NF_ACCEPT);
	ck_assert_uint_eq(res.chains, 0);
}
END_TEST

/*
 * arp: the packet starts at the ARP header (network base), meta
 * protocol is ARP; the link header comes with the metadata on input.
 */
START_TEST(test_arp)
{
	struct nftvm_pktmeta m = { .iif = 2, .iifname = "veth1", .ll_len = 14 };
	struct nftvm_result res;
	struct pkt p;
	struct vmb v;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_ARP, "a", 0);
	vmb_chain(&v, NFPROTO_ARP, "a", "in", NF_ARP_IN, 0, NF_ACCEPT, NULL);
	vmb_chain(&v, NFPROTO_ARP, "a", "out", NF_ARP_OUT, 0, NF_ACCEPT,
		  NULL);
	/* handles 3..7: meta protocol arp, nfproto arp, ether saddr,
	 * arp operation request (drop), ether saddr at output */
	vmb_rule(&v, NFPROTO_ARP, "a", "in",
		 x_meta(NFT_META_PROTOCOL, NFT_REG_1), x_cmp16(0x0806),
		 x_counter());
	vmb_rule(&v, NFPROTO_ARP, "a", "in",
		 x_meta(NFT_META_NFPROTO, NFT_REG_1), x_cmp8(NFPROTO_ARP),
		 x_counter());
	vmb_rule(&v, NFPROTO_ARP, "a", "in",
		 x_payload(NFT_PAYLOAD_LL_HEADER, 6, 6, NFT_REG_1),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, mac_src, 6), x_counter());
	vmb_rule(&v, NFPROTO_ARP, "a", "in",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 6, 2, NFT_REG_1),
		 x_cmp16(1), x_counter(), x_verdict(NF_DROP, NULL));
	vmb_rule(&v, NFPROTO_ARP, "a", "out",
		 x_payload(NFT_PAYLOAD_LL_HEADER, 6, 6, NFT_REG_1),
		 x_counter());
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	memcpy(m.ll, mac_dst, 6);
	memcpy(m.ll + 6, mac_src, 6);
	m.ll[12] = 0x08;
	m.ll[13] = 0x06;
	mk_arp(&p, 1);
	ck_assert_int_eq(run(vm, NF_ARP_IN, NFPROTO_ARP, &p, &m, &res),
			 NF_DROP);
	mk_arp(&p, 2);
	ck_assert_int_eq(run(vm, NF_ARP_IN, NFPROTO_ARP, &p, &m, &res),
			 NF_ACCEPT);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_ARP, "a", "in", 3), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_ARP, "a", "in", 4), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_ARP, "a", "in", 5), 2);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_ARP, "a", "in", 6), 1);
	/* output: the host's own ARP has no link header yet */
	ck_assert_int_eq(run(vm, NF_ARP_OUT, NFPROTO_ARP, &p, NULL, &res),
			 NF_ACCEPT);
	ck_assert_uint_eq(res.chains, 1);
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_ARP, "a", "out", 7), 0);
}
END_TEST

static Suite *vm_l2_suite(void)
{
	Suite *s = suite_create("vm_l2");
	TCase *tc = tcase_create("l2");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bridge_bases);
	tcase_add_test(tc, test_vlan);
	tcase_add_test(tc, test_netdev_devices);
	tcase_add_test(tc, test_arp);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_l2_suite)
