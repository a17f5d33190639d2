/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_PROTO_H
#define NFTC_PROTO_H

#include <stdint.h>
#include <stdbool.h>
#include "datatype.h"
#include "location.h"

/**
 * enum proto_bases - the header a payload offset is relative to
 *
 * Same numbering as the VM's payload bases (NFT_PAYLOAD_*_HEADER) + 1.
 */
enum proto_bases {
	PROTO_BASE_INVALID,
	PROTO_BASE_LL_HDR,
	PROTO_BASE_NETWORK_HDR,
	PROTO_BASE_TRANSPORT_HDR,
	PROTO_BASE_INNER_HDR,
	__PROTO_BASE_MAX
};
#define PROTO_BASE_MAX		(__PROTO_BASE_MAX - 1)

extern const char *const proto_base_names[__PROTO_BASE_MAX];
extern const char *const proto_base_tokens[__PROTO_BASE_MAX];

/**
 * enum proto_icmp_dep - ICMP/ICMPv6 fields valid for some message types only
 *
 * A match on such a field gets an implicit "icmp type" dependency on the
 * message types listed in proto_icmp_deps[] (e.g. "icmp id 1" first
 * matches type in { echo-request, echo-reply }).
 */
enum proto_icmp_dep {
	PROTO_ICMP_ANY,
	PROTO_ICMP_ECHO,
	PROTO_ICMP_MTU,
	PROTO_ICMP_ADDRESS,
	PROTO_ICMP6_MTU,
	PROTO_ICMP6_PPTR,
	PROTO_ICMP6_ECHO,
	PROTO_ICMP6_MGMQ,
	__PROTO_ICMP_DEP_MAX
};

/**
 * struct proto_hdr_template - one header field
 * @token: name in the language ("saddr")
 * @dtype: type of its values
 * @offset: offset in bits from the header start
 * @len: length in bits
 * @byteorder: register byte order after loading
 * @meta_key: when non-zero, the field is read with "meta <key>" rather
 *            than a payload load (e.g. inet's nfproto pseudo header)
 * @icmp_dep: message types the field needs (PROTO_ICMP_ANY: none)
 * @pseudohdr: part of the transport checksum pseudo header (a payload
 *             write sets NFT_PAYLOAD_L4CSUM_PSEUDOHDR)
 */
struct proto_hdr_template {
	const char			*token;
	const struct datatype		*dtype;
	uint16_t			offset;
	uint16_t			len;
	enum byteorder			byteorder;
	unsigned int			meta_key;
	enum proto_icmp_dep		icmp_dep;
	bool				pseudohdr;
};

/* A big endian header field at bit @off, @len bits wide (tables). */
#define PROTO_HDR_FIELD(__tok, __dtype, __off, __len)			\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.offset		= (__off),				\
		.len		= (__len),				\
		.byteorder	= BYTEORDER_BIG,			\
	}

#define PROTO_UPPER_MAX		16
#define PROTO_HDRS_MAX		24

/**
 * enum proto_desc_id - protocol descriptions, for fast identity tests
 *
 * Set userdata records typeof payload keys by these numbers: keep them
 * equal to stock nft 1.0.6's (UNKNOWN .. ETHER).
 */
enum proto_desc_id {
	PROTO_DESC_UNKNOWN,
	PROTO_DESC_AH,
	PROTO_DESC_ESP,
	PROTO_DESC_COMP,
	PROTO_DESC_ICMP,
	PROTO_DESC_IGMP,
	PROTO_DESC_UDP,
	PROTO_DESC_UDPLITE,
	PROTO_DESC_TCP,
	PROTO_DESC_DCCP,
	PROTO_DESC_SCTP,
	PROTO_DESC_TH,
	PROTO_DESC_IP,
	PROTO_DESC_IP6,
	PROTO_DESC_ICMPV6,
	PROTO_DESC_ARP,
	PROTO_DESC_VLAN,
	PROTO_DESC_ETHER,
	/* up to here the numbers are stock's set userdata (typeof) ABI */
	PROTO_DESC_INET,
	PROTO_DESC_INET_SERVICE,
	PROTO_DESC_NETDEV,
	PROTO_DESC_GRE,
	PROTO_DESC_VXLAN,
	__PROTO_DESC_MAX
};

/**
 * struct proto_desc - one protocol header
 * @name: protocol name ("tcp")
 * @id: identity
 * @base: header base its fields are relative to
 * @checksum_key: template index of the checksum field (0 if none)
 * @checksum_type: NFT_PAYLOAD_CSUM_* for payload writes
 * @protocol_key: template index of the field that names the upper layer
 *                protocol (ip protocol, ether type, ...), 0 if none
 * @length: fixed header length in bits (0 if variable)
 * @protocols: the upper layer protocols this header can carry, with the
 *             value of the protocol_key field that selects each, as a
 *             plain number (ether type ip is 0x0800, never byte swapped;
 *             inet: NFPROTO_*, netdev: ether type, inet-service: IPPROTO_*);
 *             the list ends at the first NULL desc
 * @templates: the fields, index 0 unused (so 0 means "none")
 * @format: how the dependency on this protocol's upper layer is written
 *          back when printing (unused by the compiler)
 */
struct proto_desc {
	const char			*name;
	enum proto_desc_id		id;
	enum proto_bases		base;
	unsigned int			checksum_key;
	unsigned int			checksum_type;
	unsigned int			protocol_key;
	unsigned int			length;
	struct {
		unsigned int			num;
		const struct proto_desc		*desc;
	}				protocols[PROTO_UPPER_MAX];
	struct proto_hdr_template	templates[PROTO_HDRS_MAX];
};

/* Families of the nft language (NFPROTO_* numbers). */
#define NFPROTO_FAMILY_UNSPEC	0

extern const struct proto_desc proto_icmp;
extern const struct proto_desc proto_igmp;
extern const struct proto_desc proto_ah;
extern const struct proto_desc proto_esp;
extern const struct proto_desc proto_comp;
extern const struct proto_desc proto_udp;
extern const struct proto_desc proto_udplite;
extern const struct proto_desc proto_tcp;
extern const struct proto_desc proto_dccp;
extern const struct proto_desc proto_sctp;
extern const struct proto_desc proto_th;
extern const struct proto_desc proto_icmp6;
extern const struct proto_desc proto_ip;
extern const struct proto_desc proto_ip6;
extern const struct proto_desc proto_inet;	/* pseudo: meta nfproto */
extern const struct proto_desc proto_inet_service; /* pseudo: meta l4proto */
extern const struct proto_desc proto_arp;
extern const struct proto_desc proto_vlan;
extern const struct proto_desc proto_eth;
extern const struct proto_desc proto_netdev;	/* pseudo: meta protocol */

/* Every header of the language, for name lookup (NULL terminated). */
extern const struct proto_desc *const proto_descs[];

const struct proto_desc *proto_desc_lookup(const char *name);
/* The description with identity @id, NULL for none/pseudo headers. */
const struct proto_desc *proto_desc_find(enum proto_desc_id id);

/**
 * struct proto_icmp_dep_types - the dependency of an enum proto_icmp_dep
 * @desc: &proto_icmp or &proto_icmp6 (its "type" field is matched)
 * @ntypes: 1 (cmp eq) or 2 (anonymous set, elements in this order)
 * @types: message type values
 */
struct proto_icmp_dep_types {
	const struct proto_desc		*desc;
	unsigned int			ntypes;
	uint8_t				types[2];
};
extern const struct proto_icmp_dep_types
	proto_icmp_deps[__PROTO_ICMP_DEP_MAX];

/*
 * Device types: netdev/inet link layer matches need "meta iiftype" first.
 * proto_dev_type() gives the ARPHRD_* type for @desc (or a protocol it
 * carries): 0 on success, -1 if none. proto_dev_desc() maps back.
 */
int proto_dev_type(const struct proto_desc *desc, uint16_t *res);
const struct proto_desc *proto_dev_desc(uint16_t type);
/* Template index of field @token in @desc, 0 if none. */
unsigned int proto_field_lookup(const struct proto_desc *desc,
				const char *token);
/*
 * The named fields of @desc that tile bit offsets [@at, @end) exactly,
 * in order, into @parts (PROTO_HDRS_MAX entries): their number, 0 if
 * the run is not made of whole fields.
 */
unsigned int proto_fields_tile(const struct proto_desc *desc,
			       unsigned int at, unsigned int end,
			       const struct proto_hdr_template **parts);
/* The upper layer @desc selects with protocol value @num, or NULL. */
const struct proto_desc *proto_find_upper(const struct proto_desc *base,
					  unsigned int num);
/* Value of base's protocol key field that selects @upper, -1 if none. */
int proto_find_num(const struct proto_desc *base,
		   const struct proto_desc *upper);

/**
 * struct proto_ctx - protocol context of one rule, built as it is read
 * @family: table family (NFPROTO_*)
 * @protocol: per base, the protocol known at this point of the rule and
 *            the location of the match that established it
 *
 * "ip saddr 1.2.3.4 tcp dport 22" in an inet table: the family sets the
 * link layer (netdev/bridge) or network layer (inet pseudo header) start;
 * each protocol match (explicit, or generated as a dependency) narrows
 * the next base.
 */
struct proto_ctx {
	unsigned int			family;
	struct {
		struct location			location;
		const struct proto_desc		*desc;
		bool				implicit;
		unsigned int			offset;	/* bits added to this
							 * base's payload offsets
							 * (headers stacked on
							 * it, e.g. vlan) */
	}				protocol[__PROTO_BASE_MAX];
};

void proto_ctx_init(struct proto_ctx *ctx, unsigned int family);
void proto_ctx_update(struct proto_ctx *ctx, enum proto_bases base,
		      const struct location *loc,
		      const struct proto_desc *desc);

/* Family's network/link layer start: the desc at the lowest known base. */
const struct proto_desc *proto_family_desc(unsigned int family,
					   enum proto_bases *base);

/*
 * Extension headers: IPv6 extension headers (exthdr), TCP options, IP
 * options and SCTP chunks share the template layout.
 */
enum exthdr_desc_id {
	EXTHDR_DESC_UNKNOWN,
	EXTHDR_DESC_HBH,
	EXTHDR_DESC_RT,
	EXTHDR_DESC_RT0,
	EXTHDR_DESC_RT2,
	EXTHDR_DESC_SRH,
	EXTHDR_DESC_FRAG,
	EXTHDR_DESC_DST,
	EXTHDR_DESC_MH,
	__EXTHDR_DESC_MAX
};

/**
 * struct exthdr_desc - an IPv6 extension header, TCP/IP option or SCTP chunk
 * @name: as in the language ("frag", "maxseg")
 * @id: identity (IPv6 extension headers)
 * @type: protocol number / option kind / chunk type used to locate it
 * @templates: fields, index 0 unused
 */
struct exthdr_desc {
	const char			*name;
	enum exthdr_desc_id		id;
	uint8_t				type;
	struct proto_hdr_template	templates[12];
};

extern const struct exthdr_desc *const exthdr_ipv6_descs[];	/* NULL end */
extern const struct exthdr_desc *const exthdr_tcpopt_descs[];	/* NULL end */
extern const struct exthdr_desc *const exthdr_ipopt_descs[];	/* NULL end */
extern const struct exthdr_desc *const exthdr_sctp_descs[];	/* NULL end */

const struct exthdr_desc *exthdr_ipv6_lookup(const char *name);
const struct exthdr_desc *exthdr_tcpopt_lookup(const char *name);
const struct exthdr_desc *exthdr_ipopt_lookup(const char *name);
const struct exthdr_desc *exthdr_sctp_lookup(const char *name);
unsigned int exthdr_field_lookup(const struct exthdr_desc *desc,
				 const char *token);

#endif
