// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packet header parsing, once per packet, per family: where the network
 * and transport headers are, the layer 4 protocol, the EtherType
 * ("meta protocol") and the link-layer bytes in front of the network
 * header, as the kernel's nft_set_pktinfo_*() and the netdev, bridge and
 * arp chain entry points (nft_chain_filter.c) find them.
 */
#include "nftvm_int.h"

#define NFTVM_ETH_HLEN		14
#define NFTVM_VLAN_HLEN		4
#define NFTVM_ETH_P_IP		0x0800
#define NFTVM_ETH_P_ARP		0x0806
#define NFTVM_ETH_P_8021Q	0x8100
#define NFTVM_ETH_P_8021AD	0x88a8
#define NFTVM_ETH_P_IPV6	0x86dd

#define NFTVM_IPV6_MAX_EXTHDRS	16

static void nftvm_pkt_ipv4(struct nftvm_pktinfo *p)
{
	const __u8 *d = p->data;
	unsigned int ihl, totlen;

	if (p->len < 20 || (d[0] >> 4) != 4)
		return;
	ihl = (d[0] & 0x0f) * 4u;
	totlen = nftvm_get_be16(d + 2);
	if (ihl < 20 || totlen < ihl || totlen > p->len)
		return;
	/* ip_rcv() trims the buffer to the IP total length before the ip
	 * hooks; bridge and netdev see the frame untrimmed */
	if (p->family == NFPROTO_IPV4)
		p->len = totlen;
	p->l4proto = d[9];
	p->thoff = ihl;
	p->fragoff = nftvm_get_be16(d + 6) & 0x1fff;
	p->tprot_set = true;
}

static bool nftvm_ipv6_exthdr(__u8 nh)
{
	switch (nh) {
	case 0:		/* hop-by-hop options */
	case 43:	/* routing */
	case 44:	/* fragment */
	case 51:	/* authentication */
	case 59:	/* no next header */
	case 60:	/* destination options */
		return true;
	}
	return false;
}

static void nftvm_pkt_ipv6(struct nftvm_pktinfo *p)
{
	const __u8 *d = p->data;
	unsigned int off = 40, hlen, i, plen;
	__u8 nh;

	if (p->len < 40 || (d[0] >> 4) != 6)
		return;
	plen = nftvm_get_be16(d + 4);
	if (40 + plen > p->len)
		return;
	if (p->family == NFPROTO_IPV6)
		p->len = 40 + plen;
	nh = d[6];
	for (i = 0; i < NFTVM_IPV6_MAX_EXTHDRS; i++) {
		if (!nftvm_ipv6_exthdr(nh)) {
			p->l4proto = nh;
			p->thoff = off;
			p->tprot_set = true;
			return;
		}
		if (nh == 59 || off + 8 > p->len)
			return;
		if (nh == 44) {
			p->fragoff = nftvm_get_be16(d + off + 2) & 0xfff8;
			nh = d[off];
			off += 8;
			/* a later fragment: no upper layer header here */
			if (p->fragoff) {
				if (nftvm_ipv6_exthdr(nh))
					return;
				p->l4proto = nh;
				p->thoff = off;
				p->tprot_set = true;
				return;
			}
			continue;
		}
		/* AH counts 32-bit words, the others 64-bit words */
		if (nh == 51)
			hlen = (d[off + 1] + 2u) * 4u;
		else
			hlen = (d[off + 1] + 1u) * 8u;
		nh = d[off];
		off += hlen;
		if (off > p->len)
			return;
	}
}

static void nftvm_pkt_l3(struct nftvm_pktinfo *p)
{
	switch (nftvm_ntohs(p->protocol)) {
	case NFTVM_ETH_P_IP:
		p->l3family = NFPROTO_IPV4;
		nftvm_pkt_ipv4(p);
		break;
	case NFTVM_ETH_P_IPV6:
		p->l3family = NFPROTO_IPV6;
		nftvm_pkt_ipv6(p);
		break;
	}
}

/*
 * An Ethernet frame (bridge, netdev).  The receive path moves the outer
 * 802.1Q/802.1ad tag into the packet's metadata (skb_vlan_untag()): the
 * protocol is then the one behind the tag and the network header
 * follows it, while link-layer loads still see the tag in place
 * (nft_payload_copy_vlan() puts it back), as the frame's own bytes do.
 * A second tag stays in the packet: its protocol is the tag's.
 */
static int nftvm_pkt_ether(struct nftvm_pktinfo *p, const __u8 *frame,
			   __u32 len)
{
	__u32 nhoff = NFTVM_ETH_HLEN;
	__u16 proto;

	if (len < NFTVM_ETH_HLEN)
		return -NFTVM_EINVAL;
	proto = nftvm_get_be16(frame + 12);
	if ((proto == NFTVM_ETH_P_8021Q || proto == NFTVM_ETH_P_8021AD) &&
	    len >= NFTVM_ETH_HLEN + NFTVM_VLAN_HLEN) {
		nhoff += NFTVM_VLAN_HLEN;
		proto = nftvm_get_be16(frame + 16);
	}
	p->ll = frame;
	p->ll_len = nhoff;
	p->data = frame + nhoff;
	p->wdata = (__u8 *)p->data;
	p->len = len - nhoff;
	p->protocol = nftvm_htons(proto);
	return 0;
}

/**
 * nftvm_pkt_parse - fill in the headers of @p for the family @family
 * @p: data/len set to the bytes given to nftvm_eval(), meta set
 * @family: NFPROTO_IPV4, NFPROTO_IPV6 (bytes from the network header),
 *	    NFPROTO_ARP (from the ARP header), NFPROTO_BRIDGE and
 *	    NFPROTO_NETDEV (from the Ethernet header)
 *
 * Return: 0, -EINVAL for a frame without an Ethernet header,
 * -EOPNOTSUPP for another family.
 */
int nftvm_pkt_parse(struct nftvm_pktinfo *p, unsigned int family)
{
	const struct nftvm_pktmeta *m = p->meta;
	int err;

	p->family = (__u8)family;
	switch (family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_ARP:
		/* the link header the packet was received with, if any */
		if (m->ll_len && m->ll_len <= NFTVM_LL_MAX) {
			p->ll = m->ll;
			p->ll_len = m->ll_len;
		}
		p->protocol = nftvm_htons(family == NFPROTO_IPV4 ?
					  NFTVM_ETH_P_IP :
					  family == NFPROTO_IPV6 ?
					  NFTVM_ETH_P_IPV6 : NFTVM_ETH_P_ARP);
		nftvm_pkt_l3(p);
		return 0;
	case NFPROTO_BRIDGE:
	case NFPROTO_NETDEV:
		err = nftvm_pkt_ether(p, p->data, p->len);
		if (err < 0)
			return err;
		nftvm_pkt_l3(p);
		return 0;
	}
	return -NFTVM_EOPNOTSUPP;
}
