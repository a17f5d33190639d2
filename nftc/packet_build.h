/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_PACKET_BUILD_H
#define NFTC_PACKET_BUILD_H

/*
 * A packet made to match selectors: the selectors are compiled as one
 * rule (the usual parser, evaluator and linearizer, so every protocol
 * field sits where proto.c says), and the rule's VM code is read as a
 * set of constraints: each "load a field into a register, [mask it],
 * compare" sequence writes the value the comparison wants into the
 * packet header or the packet's metadata. What no selector fixes keeps
 * a default (TEST-NET addresses, TTL 64, TCP).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <nftvm/nftvm.h>

struct nftnl_rule;

#define PKT_HDR_MAX	64
/* link-layer bytes a selector may fix: Ethernet and two VLAN tags */
#define PKT_LL_MAX	22
/* the longest packet "meta length N" can ask for */
#define PKT_LEN_MAX	2048

/**
 * struct pkt_spec - what the selectors ask of the packet
 * @nfproto: NFPROTO_IPV4 / NFPROTO_IPV6, 0 if no selector says
 * @l4proto: IPPROTO_*, -1 if no selector says
 * @nh, @th: network and transport header bytes, @nh_set/@th_set: the
 *           bits a selector fixed
 * @meta: interface names, mark, ... (the VM's packet metadata)
 * @ct_state: the "ct state" bits asked for (NF_CT_STATE_*_BIT), 0 for
 *            none; with @meta's ct_* fields, what the VM's ct expression
 *            reads (pkt_spec_from_rule() copies it into @meta)
 * @ct_other: some other ct key was asked for (the packet is tracked)
 * @len: the packet's length from "meta length" (zero bytes after the
 *       transport header), 0 for headers only
 * @ll, @ll_set: link-layer header bytes (Ethernet, an 802.1Q tag) and
 *       the bits a selector fixed; @ll_len how far they go
 * @ethertype: "meta protocol" asked for (host order), 0 if none
 * @rt_asked: an rt selector was given (the packet has a route; its
 *       fields are in @meta rt_*), @rt_mss: "rt mtu" asked for, 0 if none
 *       (the route's MTU follows from it and the family: pkt_rt_meta())
 */
struct pkt_spec {
	uint8_t			nfproto;
	int			l4proto;
	uint8_t			nh[PKT_HDR_MAX];
	uint8_t			nh_set[PKT_HDR_MAX];
	uint8_t			th[PKT_HDR_MAX];
	uint8_t			th_set[PKT_HDR_MAX];
	unsigned int		nh_len;
	unsigned int		th_len;
	struct nftvm_pktmeta	meta;
	uint32_t		ct_state;
	bool			ct_other;
	uint32_t		len;
	uint8_t			ll[PKT_LL_MAX];
	uint8_t			ll_set[PKT_LL_MAX];
	unsigned int		ll_len;
	uint16_t		ethertype;
	bool			rt_asked;
	uint32_t		rt_mss;
};

/*
 * Read the constraints of @rule (and of the anonymous sets @sets, a
 * libnftnl set list of the same batch, may be NULL) into @ps (zeroed
 * here). Returns 0, or -1 with a reason in @err.
 */
struct nftnl_set_list;
int pkt_spec_from_rule(struct pkt_spec *ps, struct nftnl_rule *rule,
		       struct nftnl_set_list *sets, char *err, size_t errlen);

/*
 * The packet bytes from the network header on: headers filled with
 * defaults, the selectors' bits written over them, padded with zeros to
 * @ps->len, lengths and the IPv4 checksum computed. Returns the length,
 * or -1 if @cap is too small.
 */
int pkt_build(const struct pkt_spec *ps, uint8_t *buf, size_t cap);

/*
 * The route of a packet of @ps at @hook (NF_INET_*; @v6: an IPv6
 * packet) into @meta rt_*: after the routing step (input, forward,
 * output, postrouting) a route with MTU 1500, or the MTU that gives the
 * "rt mtu" asked for; before it none unless an rt selector asks.
 */
void pkt_rt_meta(const struct pkt_spec *ps, unsigned int hook, bool v6,
		 struct nftvm_pktmeta *meta);

/*
 * The Ethernet header the selectors describe, defaults under their bits
 * (02:00:00:00:00:02 <- 02:00:00:00:00:01), with @type as EtherType
 * unless a selector fixed one; 14 bytes, or 18 with an 802.1Q/802.1ad
 * tag a selector asked for.  Returns the length.
 */
int pkt_build_ether(const struct pkt_spec *ps, uint16_t type, uint8_t *buf);

/*
 * The packet of a layer 2 family: for NFPROTO_BRIDGE and NFPROTO_NETDEV
 * the frame from the Ethernet header (pkt_build_ether()) with the IPv4,
 * IPv6 or ARP packet its EtherType says; for NFPROTO_ARP the ARP packet
 * (an IPv4-over-Ethernet request unless selectors say otherwise).
 * Returns the length, or -1 if @cap is too small.
 */
int pkt_build_l2(const struct pkt_spec *ps, unsigned int family,
		 uint8_t *buf, size_t cap);

#endif
