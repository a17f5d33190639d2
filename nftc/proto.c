/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Protocol header descriptions: every header field the nft language can
 * match, with its position in bits, type and byte order, and the links
 * between layers (which value of which field selects the next header).
 *
 * Offsets and lengths follow the wire formats; they were checked field by
 * field against the VM code stock nft 1.0.6 generates.
 */
#include <string.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "proto.h"

#ifndef IPPROTO_UDPLITE
#define IPPROTO_UDPLITE		136
#endif

#define ETH_P_IP		0x0800
#define ETH_P_ARP		0x0806
#define ETH_P_8021Q		0x8100
#define ETH_P_IPV6		0x86dd
#define ETH_P_8021AD		0x88a8

const char *const proto_base_names[__PROTO_BASE_MAX] = {
	[PROTO_BASE_INVALID]		= "invalid",
	[PROTO_BASE_LL_HDR]		= "link layer",
	[PROTO_BASE_NETWORK_HDR]	= "network layer",
	[PROTO_BASE_TRANSPORT_HDR]	= "transport layer",
	[PROTO_BASE_INNER_HDR]		= "payload data",
};

const char *const proto_base_tokens[__PROTO_BASE_MAX] = {
	[PROTO_BASE_INVALID]		= "invalid",
	[PROTO_BASE_LL_HDR]		= "ll",
	[PROTO_BASE_NETWORK_HDR]	= "nh",
	[PROTO_BASE_TRANSPORT_HDR]	= "th",
	[PROTO_BASE_INNER_HDR]		= "ih",
};

/* A big endian header field at bit @off, @len bits wide. */
#define HDR(__tok, __dtype, __off, __len)				\
	PROTO_HDR_FIELD(__tok, __dtype, __off, __len)
/* The same, at byte @off, @len bytes wide. */
#define HDRB(__tok, __dtype, __off, __len)				\
	HDR(__tok, __dtype, (__off) * 8, (__len) * 8)
/* A field of the transport checksum pseudo header. */
#define HDRP(__tok, __dtype, __off, __len)				\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.offset		= (__off) * 8,				\
		.len		= (__len) * 8,				\
		.byteorder	= BYTEORDER_BIG,			\
		.pseudohdr	= true,					\
	}
/* An ICMP field valid for message types @__dep only. */
#define HDRI(__tok, __dtype, __off, __len, __dep)			\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.offset		= (__off) * 8,				\
		.len		= (__len) * 8,				\
		.byteorder	= BYTEORDER_BIG,			\
		.icmp_dep	= (__dep),				\
	}
/* A pseudo header field read with "meta @__key". */
#define META(__tok, __dtype, __key, __len, __order)			\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.len		= (__len),				\
		.byteorder	= (__order),				\
		.meta_key	= (__key),				\
	}
#define LINK(__num, __desc)	{ .num = (__num), .desc = (__desc) }

/*
 * The transport protocols an IP-style header can carry, by IPPROTO_*.
 * AH and IPComp carry the same set minus ICMP/IGMP (stock nft's choice).
 */
#define IPSEC_UPPER_LINKS						\
	LINK(IPPROTO_ESP,	&proto_esp),				\
	LINK(IPPROTO_AH,	&proto_ah),				\
	LINK(IPPROTO_COMP,	&proto_comp),				\
	LINK(IPPROTO_UDP,	&proto_udp),				\
	LINK(IPPROTO_UDPLITE,	&proto_udplite),			\
	LINK(IPPROTO_TCP,	&proto_tcp),				\
	LINK(IPPROTO_DCCP,	&proto_dccp),				\
	LINK(IPPROTO_SCTP,	&proto_sctp)

#define L4_UPPER_LINKS							\
	IPSEC_UPPER_LINKS,						\
	LINK(IPPROTO_ICMP,	&proto_icmp),				\
	LINK(IPPROTO_IGMP,	&proto_igmp),				\
	LINK(IPPROTO_ICMPV6,	&proto_icmp6)

#define ETHER_UPPER_LINKS						\
	LINK(ETH_P_IP,		&proto_ip),				\
	LINK(ETH_P_ARP,		&proto_arp),				\
	LINK(ETH_P_IPV6,	&proto_ip6),				\
	LINK(ETH_P_8021Q,	&proto_vlan),				\
	LINK(ETH_P_8021AD,	&proto_vlan)

/*
 * AH (RFC 4302)
 */
enum { AH_NEXTHDR = 1, AH_HDRLENGTH, AH_RESERVED, AH_SPI, AH_SEQUENCE };

const struct proto_desc proto_ah = {
	.name		= "ah",
	.id		= PROTO_DESC_AH,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.protocol_key	= AH_NEXTHDR,
	.protocols	= { IPSEC_UPPER_LINKS },
	.templates	= {
		[AH_NEXTHDR]	= HDRB("nexthdr", &inet_protocol_type, 0, 1),
		[AH_HDRLENGTH]	= HDRB("hdrlength", &integer_type, 1, 1),
		[AH_RESERVED]	= HDRB("reserved", &integer_type, 2, 2),
		[AH_SPI]	= HDRB("spi", &integer_type, 4, 4),
		[AH_SEQUENCE]	= HDRB("sequence", &integer_type, 8, 4),
	},
};

/*
 * ESP (RFC 4303)
 */
const struct proto_desc proto_esp = {
	.name		= "esp",
	.id		= PROTO_DESC_ESP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.templates	= {
		[1]	= HDRB("spi", &integer_type, 0, 4),
		[2]	= HDRB("sequence", &integer_type, 4, 4),
	},
};

/*
 * IPComp (RFC 3173)
 */
enum { COMP_NEXTHDR = 1, COMP_FLAGS, COMP_CPI };

const struct proto_desc proto_comp = {
	.name		= "comp",
	.id		= PROTO_DESC_COMP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.protocol_key	= COMP_NEXTHDR,
	.protocols	= { IPSEC_UPPER_LINKS },
	.templates	= {
		[COMP_NEXTHDR]	= HDRB("nexthdr", &inet_protocol_type, 0, 1),
		[COMP_FLAGS]	= HDRB("flags", &bitmask_type, 1, 1),
		[COMP_CPI]	= HDRB("cpi", &integer_type, 2, 2),
	},
};

/*
 * ICMP. The type field is the protocol key: message-specific fields
 * (id, mtu, ...) depend on it, see proto_icmp_deps[].
 */
enum {
	ICMP_F_TYPE = 1, ICMP_F_CODE, ICMP_F_CHECKSUM, ICMP_F_ID,
	ICMP_F_SEQ, ICMP_F_GATEWAY, ICMP_F_MTU,
};

const struct proto_desc proto_icmp = {
	.name		= "icmp",
	.id		= PROTO_DESC_ICMP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.protocol_key	= ICMP_F_TYPE,
	.checksum_key	= ICMP_F_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_INET,
	.templates	= {
		[ICMP_F_TYPE]	  = HDRB("type", &icmp_type_type, 0, 1),
		[ICMP_F_CODE]	  = HDRB("code", &icmp_code_type, 1, 1),
		[ICMP_F_CHECKSUM] = HDRB("checksum", &integer_type, 2, 2),
		[ICMP_F_ID]	  = HDRI("id", &integer_type, 4, 2,
					 PROTO_ICMP_ECHO),
		[ICMP_F_SEQ]	  = HDRI("sequence", &integer_type, 6, 2,
					 PROTO_ICMP_ECHO),
		[ICMP_F_GATEWAY]  = HDRI("gateway", &integer_type, 4, 4,
					 PROTO_ICMP_ADDRESS),
		[ICMP_F_MTU]	  = HDRI("mtu", &integer_type, 6, 2,
					 PROTO_ICMP_MTU),
	},
};

/*
 * IGMP (RFC 2236)
 */
enum { IGMP_F_TYPE = 1, IGMP_F_MRT, IGMP_F_CHECKSUM, IGMP_F_GROUP };

const struct proto_desc proto_igmp = {
	.name		= "igmp",
	.id		= PROTO_DESC_IGMP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.checksum_key	= IGMP_F_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_INET,
	.templates	= {
		[IGMP_F_TYPE]	  = HDRB("type", &igmp_type_type, 0, 1),
		[IGMP_F_MRT]	  = HDRB("mrt", &integer_type, 1, 1),
		[IGMP_F_CHECKSUM] = HDRB("checksum", &integer_type, 2, 2),
		[IGMP_F_GROUP]	  = HDRB("group", &integer_type, 4, 4),
	},
};

/*
 * UDP and UDP-Lite share the layout; UDP-Lite's length is the checksum
 * coverage, and stock nft does not fix its checksum on writes.
 */
enum { UDP_SPORT = 1, UDP_DPORT, UDP_LENGTH, UDP_CHECKSUM };

const struct proto_desc proto_udp = {
	.name		= "udp",
	.id		= PROTO_DESC_UDP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.checksum_key	= UDP_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_INET,
	.templates	= {
		[UDP_SPORT]	= HDRB("sport", &inet_service_type, 0, 2),
		[UDP_DPORT]	= HDRB("dport", &inet_service_type, 2, 2),
		[UDP_LENGTH]	= HDRB("length", &integer_type, 4, 2),
		[UDP_CHECKSUM]	= HDRB("checksum", &integer_type, 6, 2),
	},
};

const struct proto_desc proto_udplite = {
	.name		= "udplite",
	.id		= PROTO_DESC_UDPLITE,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.templates	= {
		[UDP_SPORT]	= HDRB("sport", &inet_service_type, 0, 2),
		[UDP_DPORT]	= HDRB("dport", &inet_service_type, 2, 2),
		[UDP_LENGTH]	= HDRB("csumcov", &integer_type, 4, 2),
		[UDP_CHECKSUM]	= HDRB("checksum", &integer_type, 6, 2),
	},
};

/*
 * TCP
 */
enum {
	TCP_SPORT = 1, TCP_DPORT, TCP_SEQ, TCP_ACKSEQ, TCP_DOFF,
	TCP_RESERVED, TCP_FLAGS, TCP_WINDOW, TCP_CHECKSUM, TCP_URGPTR,
};

const struct proto_desc proto_tcp = {
	.name		= "tcp",
	.id		= PROTO_DESC_TCP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.checksum_key	= TCP_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_INET,
	.templates	= {
		[TCP_SPORT]	= HDRB("sport", &inet_service_type, 0, 2),
		[TCP_DPORT]	= HDRB("dport", &inet_service_type, 2, 2),
		[TCP_SEQ]	= HDRB("sequence", &integer_type, 4, 4),
		[TCP_ACKSEQ]	= HDRB("ackseq", &integer_type, 8, 4),
		[TCP_DOFF]	= HDR("doff", &integer_type, 96, 4),
		[TCP_RESERVED]	= HDR("reserved", &integer_type, 100, 4),
		[TCP_FLAGS]	= HDRB("flags", &tcp_flag_type, 13, 1),
		[TCP_WINDOW]	= HDRB("window", &integer_type, 14, 2),
		[TCP_CHECKSUM]	= HDRB("checksum", &integer_type, 16, 2),
		[TCP_URGPTR]	= HDRB("urgptr", &integer_type, 18, 2),
	},
};

/*
 * DCCP (RFC 4340): the packet type is 4 bits after 3 reserved bits and
 * the X bit of byte 8.
 */
const struct proto_desc proto_dccp = {
	.name		= "dccp",
	.id		= PROTO_DESC_DCCP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.templates	= {
		[1]	= HDRB("sport", &inet_service_type, 0, 2),
		[2]	= HDRB("dport", &inet_service_type, 2, 2),
		[3]	= HDR("type", &dccp_pkttype_type, 8 * 8 + 3, 4),
	},
};

/*
 * SCTP (RFC 9260): CRC32c checksum.
 */
enum { SCTP_SPORT = 1, SCTP_DPORT, SCTP_VTAG, SCTP_CHECKSUM };

const struct proto_desc proto_sctp = {
	.name		= "sctp",
	.id		= PROTO_DESC_SCTP,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.checksum_key	= SCTP_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_SCTP,
	.templates	= {
		[SCTP_SPORT]	= HDRB("sport", &inet_service_type, 0, 2),
		[SCTP_DPORT]	= HDRB("dport", &inet_service_type, 2, 2),
		[SCTP_VTAG]	= HDRB("vtag", &integer_type, 4, 4),
		[SCTP_CHECKSUM]	= HDRB("checksum", &integer_type, 8, 4),
	},
};

/*
 * "th": the ports every port-based transport header has at the same
 * place, for matching them without naming the protocol.
 */
const struct proto_desc proto_th = {
	.name		= "th",
	.id		= PROTO_DESC_TH,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.templates	= {
		[1]	= HDRB("sport", &inet_service_type, 0, 2),
		[2]	= HDRB("dport", &inet_service_type, 2, 2),
	},
};

/*
 * IPv4. The transport dependency stock nft generates in ip/ip6/inet
 * tables is "meta l4proto" (proto_inet_service's key), not a load of the
 * protocol field; an explicit "ip protocol X" still selects X.
 */
enum {
	IPH_VERSION = 1, IPH_HDRLENGTH, IPH_DSCP, IPH_ECN, IPH_LENGTH, IPH_ID,
	IPH_FRAG_OFF, IPH_TTL, IPH_PROTOCOL, IPH_CHECKSUM, IPH_SADDR, IPH_DADDR,
};

const struct proto_desc proto_ip = {
	.name		= "ip",
	.id		= PROTO_DESC_IP,
	.base		= PROTO_BASE_NETWORK_HDR,
	.protocol_key	= IPH_PROTOCOL,
	.checksum_key	= IPH_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_INET,
	.protocols	= { L4_UPPER_LINKS },
	.templates	= {
		[IPH_VERSION]	= HDR("version", &integer_type, 0, 4),
		[IPH_HDRLENGTH]	= HDR("hdrlength", &integer_type, 4, 4),
		[IPH_DSCP]	= HDR("dscp", &dscp_type, 8, 6),
		[IPH_ECN]	= HDR("ecn", &ecn_type, 14, 2),
		[IPH_LENGTH]	= HDRP("length", &integer_type, 2, 2),
		[IPH_ID]		= HDRB("id", &integer_type, 4, 2),
		[IPH_FRAG_OFF]	= HDRB("frag-off", &integer_type, 6, 2),
		[IPH_TTL]	= HDRB("ttl", &integer_type, 8, 1),
		[IPH_PROTOCOL]	= HDRP("protocol", &inet_protocol_type, 9, 1),
		[IPH_CHECKSUM]	= HDRB("checksum", &integer_type, 10, 2),
		[IPH_SADDR]	= HDRP("saddr", &ipaddr_type, 12, 4),
		[IPH_DADDR]	= HDRP("daddr", &ipaddr_type, 16, 4),
	},
};

/*
 * ICMPv6 (RFC 4443, MLD RFC 2710)
 */
enum {
	ICMP6_F_TYPE = 1, ICMP6_F_CODE, ICMP6_F_CHECKSUM, ICMP6_F_PPTR,
	ICMP6_F_MTU, ICMP6_F_ID, ICMP6_F_SEQ, ICMP6_F_MAXDELAY,
};

const struct proto_desc proto_icmp6 = {
	.name		= "icmpv6",
	.id		= PROTO_DESC_ICMPV6,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.protocol_key	= ICMP6_F_TYPE,
	.checksum_key	= ICMP6_F_CHECKSUM,
	.checksum_type	= NFT_PAYLOAD_CSUM_INET,
	.templates	= {
		[ICMP6_F_TYPE]	   = HDRB("type", &icmp6_type_type, 0, 1),
		[ICMP6_F_CODE]	   = HDRB("code", &icmpv6_code_type, 1, 1),
		[ICMP6_F_CHECKSUM] = HDRB("checksum", &integer_type, 2, 2),
		[ICMP6_F_PPTR]	   = HDRI("param-problem", &integer_type, 4, 4,
					  PROTO_ICMP6_PPTR),
		[ICMP6_F_MTU]	   = HDRI("mtu", &integer_type, 4, 4,
					  PROTO_ICMP6_MTU),
		[ICMP6_F_ID]	   = HDRI("id", &integer_type, 4, 2,
					  PROTO_ICMP6_ECHO),
		[ICMP6_F_SEQ]	   = HDRI("sequence", &integer_type, 6, 2,
					  PROTO_ICMP6_ECHO),
		[ICMP6_F_MAXDELAY] = HDRI("max-delay", &integer_type, 4, 2,
					  PROTO_ICMP6_MGMQ),
	},
};

/*
 * IPv6
 */
enum {
	IP6H_VERSION = 1, IP6H_DSCP, IP6H_ECN, IP6H_FLOWLABEL, IP6H_LENGTH,
	IP6H_NEXTHDR, IP6H_HOPLIMIT, IP6H_SADDR, IP6H_DADDR,
};

const struct proto_desc proto_ip6 = {
	.name		= "ip6",
	.id		= PROTO_DESC_IP6,
	.base		= PROTO_BASE_NETWORK_HDR,
	.protocol_key	= IP6H_NEXTHDR,
	.protocols	= { L4_UPPER_LINKS },
	.templates	= {
		[IP6H_VERSION]	= HDR("version", &integer_type, 0, 4),
		[IP6H_DSCP]	= HDR("dscp", &dscp_type, 4, 6),
		[IP6H_ECN]	= HDR("ecn", &ecn_type, 10, 2),
		[IP6H_FLOWLABEL] = HDR("flowlabel", &integer_type, 12, 20),
		[IP6H_LENGTH]	= HDRP("length", &integer_type, 4, 2),
		[IP6H_NEXTHDR]	= HDRP("nexthdr", &inet_protocol_type, 6, 1),
		[IP6H_HOPLIMIT]	= HDRB("hoplimit", &integer_type, 7, 1),
		[IP6H_SADDR]	= HDRP("saddr", &ip6addr_type, 8, 16),
		[IP6H_DADDR]	= HDRP("daddr", &ip6addr_type, 24, 16),
	},
};

/*
 * Pseudo header of inet tables: the network protocol is known from
 * "meta nfproto". It sits at the link layer base so that "ip saddr"
 * finds it one layer down and depends on "meta nfproto ipv4".
 */
const struct proto_desc proto_inet = {
	.name		= "inet",
	.id		= PROTO_DESC_INET,
	.base		= PROTO_BASE_LL_HDR,
	.protocol_key	= 1,
	.protocols	= {
		LINK(NFPROTO_IPV4,	&proto_ip),
		LINK(NFPROTO_IPV6,	&proto_ip6),
	},
	.templates	= {
		[1]	= META("nfproto", &nfproto_type, NFT_META_NFPROTO, 8,
			       BYTEORDER_HOST),
	},
};

/*
 * Pseudo header for a transport protocol under an unknown (ip or ip6)
 * network header: "meta l4proto" names it.
 */
const struct proto_desc proto_inet_service = {
	.name		= "inet-service",
	.id		= PROTO_DESC_INET_SERVICE,
	.base		= PROTO_BASE_TRANSPORT_HDR,
	.protocol_key	= 1,
	.protocols	= { L4_UPPER_LINKS },
	.templates	= {
		[1]	= META("l4proto", &inet_protocol_type, NFT_META_L4PROTO,
			       8, BYTEORDER_HOST),
	},
};

/*
 * ARP (RFC 826), Ethernet/IPv4 addresses
 */
enum {
	ARP_HTYPE = 1, ARP_PTYPE, ARP_HLEN, ARP_PLEN, ARP_OP,
	ARP_SADDR_ETHER, ARP_SADDR_IP, ARP_DADDR_ETHER, ARP_DADDR_IP,
};

const struct proto_desc proto_arp = {
	.name		= "arp",
	.id		= PROTO_DESC_ARP,
	.base		= PROTO_BASE_NETWORK_HDR,
	.templates	= {
		[ARP_HTYPE]	  = HDRB("htype", &integer_type, 0, 2),
		[ARP_PTYPE]	  = HDRB("ptype", &ethertype_type, 2, 2),
		[ARP_HLEN]	  = HDRB("hlen", &integer_type, 4, 1),
		[ARP_PLEN]	  = HDRB("plen", &integer_type, 5, 1),
		[ARP_OP]	  = HDRB("operation", &arpop_type, 6, 2),
		[ARP_SADDR_ETHER] = HDRB("saddr ether", &etheraddr_type, 8, 6),
		[ARP_SADDR_IP]	  = HDRB("saddr ip", &ipaddr_type, 14, 4),
		[ARP_DADDR_ETHER] = HDRB("daddr ether", &etheraddr_type, 18, 6),
		[ARP_DADDR_IP]	  = HDRB("daddr ip", &ipaddr_type, 24, 4),
	},
};

/*
 * 802.1Q VLAN tag. Offsets are relative to the tag: the evaluator places
 * it after the ethernet header (proto_eth.length).
 */
enum { VLAN_PCP = 1, VLAN_DEI, VLAN_CFI, VLAN_ID, VLAN_TYPE };

const struct proto_desc proto_vlan = {
	.name		= "vlan",
	.id		= PROTO_DESC_VLAN,
	.base		= PROTO_BASE_LL_HDR,
	.protocol_key	= VLAN_TYPE,
	.length		= 4 * 8,
	.protocols	= { ETHER_UPPER_LINKS },
	.templates	= {
		[VLAN_PCP]	= HDR("pcp", &integer_type, 0, 3),
		[VLAN_DEI]	= HDR("dei", &integer_type, 3, 1),
		[VLAN_CFI]	= HDR("cfi", &integer_type, 3, 1),
		[VLAN_ID]	= HDR("id", &integer_type, 4, 12),
		[VLAN_TYPE]	= HDRB("type", &ethertype_type, 2, 2),
	},
};

/*
 * Ethernet II
 */
enum { ETH_DADDR = 1, ETH_SADDR, ETH_TYPE };

const struct proto_desc proto_eth = {
	.name		= "ether",
	.id		= PROTO_DESC_ETHER,
	.base		= PROTO_BASE_LL_HDR,
	.protocol_key	= ETH_TYPE,
	.length		= 14 * 8,
	.protocols	= { ETHER_UPPER_LINKS },
	.templates	= {
		[ETH_DADDR]	= HDRB("daddr", &etheraddr_type, 0, 6),
		[ETH_SADDR]	= HDRB("saddr", &etheraddr_type, 6, 6),
		[ETH_TYPE]	= HDRB("type", &ethertype_type, 12, 2),
	},
};

/*
 * Pseudo header of netdev tables: the network protocol is known from
 * "meta protocol" (the ether type, big endian).
 */
const struct proto_desc proto_netdev = {
	.name		= "netdev",
	.id		= PROTO_DESC_NETDEV,
	.base		= PROTO_BASE_LL_HDR,
	.protocol_key	= 1,
	.protocols	= { ETHER_UPPER_LINKS },
	.templates	= {
		[1]	= META("protocol", &ethertype_type, NFT_META_PROTOCOL,
			       16, BYTEORDER_BIG),
	},
};

/* Real headers of the language, by the name "payload" selectors use. */
const struct proto_desc *const proto_descs[] = {
	&proto_eth,
	&proto_vlan,
	&proto_arp,
	&proto_ip,
	&proto_icmp,
	&proto_igmp,
	&proto_ip6,
	&proto_icmp6,
	&proto_ah,
	&proto_esp,
	&proto_comp,
	&proto_udp,
	&proto_udplite,
	&proto_tcp,
	&proto_dccp,
	&proto_sctp,
	&proto_th,
	NULL
};

static const struct proto_desc *const proto_by_id[__PROTO_DESC_MAX] = {
	[PROTO_DESC_AH]			= &proto_ah,
	[PROTO_DESC_ESP]		= &proto_esp,
	[PROTO_DESC_COMP]		= &proto_comp,
	[PROTO_DESC_ICMP]		= &proto_icmp,
	[PROTO_DESC_IGMP]		= &proto_igmp,
	[PROTO_DESC_UDP]		= &proto_udp,
	[PROTO_DESC_UDPLITE]		= &proto_udplite,
	[PROTO_DESC_TCP]		= &proto_tcp,
	[PROTO_DESC_DCCP]		= &proto_dccp,
	[PROTO_DESC_SCTP]		= &proto_sctp,
	[PROTO_DESC_ICMPV6]		= &proto_icmp6,
	[PROTO_DESC_IP]			= &proto_ip,
	[PROTO_DESC_IP6]		= &proto_ip6,
	[PROTO_DESC_ARP]		= &proto_arp,
	[PROTO_DESC_VLAN]		= &proto_vlan,
	[PROTO_DESC_ETHER]		= &proto_eth,
	[PROTO_DESC_TH]			= &proto_th,
	[PROTO_DESC_INET]		= &proto_inet,
	[PROTO_DESC_INET_SERVICE]	= &proto_inet_service,
	[PROTO_DESC_NETDEV]		= &proto_netdev,
};

/*
 * Message types each ICMP field class depends on; requests before
 * replies, the element order of stock nft's anonymous set.
 */
const struct proto_icmp_dep_types proto_icmp_deps[__PROTO_ICMP_DEP_MAX] = {
	[PROTO_ICMP_ANY]	= { .desc = NULL },
	[PROTO_ICMP_ECHO]	= { &proto_icmp, 2, { 8, 0 } },
	[PROTO_ICMP_MTU]	= { &proto_icmp, 1, { 3 } },
	[PROTO_ICMP_ADDRESS]	= { &proto_icmp, 1, { 5 } },
	[PROTO_ICMP6_MTU]	= { &proto_icmp6, 1, { 2 } },
	[PROTO_ICMP6_PPTR]	= { &proto_icmp6, 1, { 4 } },
	[PROTO_ICMP6_ECHO]	= { &proto_icmp6, 2, { 128, 129 } },
	[PROTO_ICMP6_MGMQ]	= { &proto_icmp6, 1, { 130 } },
};

/* Link layer headers by device type (ARPHRD_*). */
static const struct {
	uint16_t			type;
	const struct proto_desc		*desc;
} dev_proto_descs[] = {
	{ ARPHRD_ETHER, &proto_eth },
};

/* Where each family's protocol context starts. */
static const struct {
	enum proto_bases		base;
	const struct proto_desc		*desc;
} family_descs[] = {
	[NFPROTO_INET]		= { PROTO_BASE_LL_HDR,		&proto_inet },
	[NFPROTO_IPV4]		= { PROTO_BASE_NETWORK_HDR,	&proto_ip },
	[NFPROTO_ARP]		= { PROTO_BASE_NETWORK_HDR,	&proto_arp },
	[NFPROTO_NETDEV]	= { PROTO_BASE_LL_HDR,		&proto_netdev },
	[NFPROTO_BRIDGE]	= { PROTO_BASE_LL_HDR,		&proto_eth },
	[NFPROTO_IPV6]		= { PROTO_BASE_NETWORK_HDR,	&proto_ip6 },
};

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

_Static_assert(ARRAY_SIZE(proto_base_names) == __PROTO_BASE_MAX,
	       "proto_base_names out of sync with enum proto_bases");
_Static_assert(ARRAY_SIZE(proto_by_id) == __PROTO_DESC_MAX,
	       "proto_by_id out of sync with enum proto_desc_id");
_Static_assert(ARRAY_SIZE(proto_icmp_deps) == __PROTO_ICMP_DEP_MAX,
	       "proto_icmp_deps out of sync with enum proto_icmp_dep");
_Static_assert(ARRAY_SIZE(family_descs) == NFPROTO_IPV6 + 1,
	       "family_descs must cover every NFPROTO up to ipv6");

/**
 * proto_desc_lookup - find a header by its name in the language
 * @name: "ether", "vlan", "ip", "tcp", ...
 *
 * Returns the description, or NULL. Pseudo headers (inet, netdev,
 * inet-service) are not names of the language and are not found.
 */
const struct proto_desc *proto_desc_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; proto_descs[i] != NULL; i++) {
		if (strcmp(proto_descs[i]->name, name) == 0)
			return proto_descs[i];
	}
	return NULL;
}

/**
 * proto_desc_find - description by identity
 * @id: enum proto_desc_id
 *
 * Returns NULL for PROTO_DESC_UNKNOWN and ids without a description.
 */
const struct proto_desc *proto_desc_find(enum proto_desc_id id)
{
	if ((unsigned int)id >= __PROTO_DESC_MAX)
		return NULL;
	return proto_by_id[id];
}

/**
 * proto_field_lookup - template index of a field
 * @desc: header
 * @token: field name ("saddr", "saddr ip" for arp)
 *
 * Returns the index into @desc->templates, 0 if @desc has no such field.
 * Fields read through meta keys (pseudo headers) are not payload fields
 * and are never found.
 */
unsigned int proto_field_lookup(const struct proto_desc *desc,
				const char *token)
{
	unsigned int i;

	for (i = 1; i < PROTO_HDRS_MAX; i++) {
		const struct proto_hdr_template *t = &desc->templates[i];

		if (t->token != NULL && t->meta_key == 0 &&
		    strcmp(t->token, token) == 0)
			return i;
	}
	return 0;
}

unsigned int proto_fields_tile(const struct proto_desc *desc,
			       unsigned int at, unsigned int end,
			       const struct proto_hdr_template **parts)
{
	unsigned int n = 0, k;

	while (at < end && n < PROTO_HDRS_MAX) {
		for (k = 1; k < PROTO_HDRS_MAX; k++) {
			const struct proto_hdr_template *t =
				&desc->templates[k];

			if (t->token && !t->meta_key && t->offset == at &&
			    t->len && at + t->len <= end)
				break;
		}
		if (k == PROTO_HDRS_MAX)
			return 0;
		parts[n++] = &desc->templates[k];
		at += desc->templates[k].len;
	}
	return at == end ? n : 0;
}

/**
 * proto_find_upper - upper layer selected by a protocol value
 * @base: lower layer header
 * @num: value of @base's protocol key field (a plain number)
 *
 * Returns the upper layer description, or NULL.
 */
const struct proto_desc *proto_find_upper(const struct proto_desc *base,
					  unsigned int num)
{
	unsigned int i;

	for (i = 0; i < PROTO_UPPER_MAX && base->protocols[i].desc; i++) {
		if (base->protocols[i].num == num)
			return base->protocols[i].desc;
	}
	return NULL;
}

/**
 * proto_find_num - protocol value linking two headers
 * @base: lower layer header
 * @upper: upper layer header
 *
 * Returns the value of @base's protocol key field that selects @upper
 * (the first one when several do, e.g. vlan: 802.1Q), -1 if none.
 */
int proto_find_num(const struct proto_desc *base,
		   const struct proto_desc *upper)
{
	unsigned int i;

	for (i = 0; i < PROTO_UPPER_MAX && base->protocols[i].desc; i++) {
		if (base->protocols[i].desc == upper)
			return base->protocols[i].num;
	}
	return -1;
}

/**
 * proto_dev_type - device type carrying a header
 * @desc: a link layer header, or a header it carries
 * @res: set to the ARPHRD_* type
 *
 * Returns 0, or -1 if no device type is known for @desc.
 */
int proto_dev_type(const struct proto_desc *desc, uint16_t *res)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dev_proto_descs); i++) {
		const struct proto_desc *base = dev_proto_descs[i].desc;

		if (base == desc || proto_find_num(base, desc) >= 0) {
			*res = dev_proto_descs[i].type;
			return 0;
		}
	}
	return -1;
}

/**
 * proto_dev_desc - link layer header of a device type
 * @type: ARPHRD_* type
 *
 * Returns the description, or NULL.
 */
const struct proto_desc *proto_dev_desc(uint16_t type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dev_proto_descs); i++) {
		if (dev_proto_descs[i].type == type)
			return dev_proto_descs[i].desc;
	}
	return NULL;
}

/**
 * proto_family_desc - where a family's protocol knowledge starts
 * @family: NFPROTO_* of the table
 * @base: if not NULL, set to the base of the returned description
 *
 * ip/ip6/arp tables start at the network header; bridge at ethernet;
 * inet and netdev at their pseudo headers on the link layer base.
 * Returns NULL (and PROTO_BASE_INVALID) for unknown families.
 */
const struct proto_desc *proto_family_desc(unsigned int family,
					   enum proto_bases *base)
{
	const struct proto_desc *desc = NULL;
	enum proto_bases b = PROTO_BASE_INVALID;

	if (family < ARRAY_SIZE(family_descs) && family_descs[family].desc) {
		desc = family_descs[family].desc;
		b = family_descs[family].base;
	}
	if (base != NULL)
		*base = b;
	return desc;
}

/**
 * proto_ctx_init - protocol context at the start of a rule
 * @ctx: context to initialise
 * @family: NFPROTO_* of the table
 */
void proto_ctx_init(struct proto_ctx *ctx, unsigned int family)
{
	const struct proto_desc *desc;
	enum proto_bases base;

	memset(ctx, 0, sizeof(*ctx));
	ctx->family = family;
	desc = proto_family_desc(family, &base);
	if (desc != NULL)
		ctx->protocol[base].desc = desc;
}

/**
 * proto_ctx_update - record the protocol of one base
 * @ctx: context
 * @base: the base @desc was established for
 * @loc: the match that established it
 * @desc: the protocol now known at @base
 */
void proto_ctx_update(struct proto_ctx *ctx, enum proto_bases base,
		      const struct location *loc,
		      const struct proto_desc *desc)
{
	if ((unsigned int)base >= __PROTO_BASE_MAX)
		return;
	ctx->protocol[base].location = *loc;
	ctx->protocol[base].desc = desc;
	ctx->protocol[base].implicit = false;
}
