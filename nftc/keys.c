/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys of the keyed expressions: meta, ct, rt, socket, ipsec (xfrm) and
 * fib results. Each table is indexed by the VM's key number and gives the
 * language name, type, width and register byte order (as stock nft 1.0.6).
 */
#include <string.h>

#include "keys.h"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define IFNAMSIZ		16
#define NF_CT_HELPER_NAME_LEN	16

_Static_assert(META_KEYS_MAX >= __NFT_META_IIFTYPE,
	       "meta_templates too small for the VM's meta keys");
_Static_assert(CT_KEYS_MAX >= __NFT_CT_MAX,
	       "ct_templates too small for the VM's ct keys");

#define KEY(__tok, __dtype, __len, __order)				\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.len		= (__len),				\
		.byteorder	= (__order),				\
	}
/* Usable without the "meta" prefix ("mark", "iifname", ...). */
#define UKEY(__tok, __dtype, __len, __order)				\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.len		= (__len),				\
		.byteorder	= (__order),				\
		.unqualified	= true,					\
	}
/* Writable with "meta KEY set" / "ct KEY set"; @__u: unqualified too. */
#define SKEY(__tok, __dtype, __len, __order, __u)			\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.len		= (__len),				\
		.byteorder	= (__order),				\
		.unqualified	= (__u),				\
		.settable	= true,					\
	}
/* ct key with a direction: 1 optional, 2 required. */
#define DKEY(__tok, __dtype, __len, __order, __dir)			\
	{								\
		.token		= (__tok),				\
		.dtype		= (__dtype),				\
		.len		= (__len),				\
		.byteorder	= (__order),				\
		.dir		= (__dir),				\
	}

#define H	BYTEORDER_HOST
#define B	BYTEORDER_BIG

/*
 * Interface names and other strings are byte strings: big endian in the
 * compiler's value model (value.h), whatever stock nft calls them.
 */
const struct key_template meta_templates[META_KEYS_MAX] = {
	[NFT_META_LEN]		= KEY("length", &integer_type, 32, H),
	[NFT_META_PROTOCOL]	= KEY("protocol", &ethertype_type, 16, B),
	[NFT_META_PRIORITY]	= SKEY("priority", &classid_type, 32, H, false),
	[NFT_META_MARK]		= SKEY("mark", &mark_type, 32, H, true),
	[NFT_META_IIF]		= UKEY("iif", &ifindex_type, 32, H),
	[NFT_META_OIF]		= UKEY("oif", &ifindex_type, 32, H),
	[NFT_META_IIFNAME]	= UKEY("iifname", &ifname_type,
				       IFNAMSIZ * 8, B),
	[NFT_META_OIFNAME]	= UKEY("oifname", &ifname_type,
				       IFNAMSIZ * 8, B),
	[NFT_META_IIFTYPE]	= UKEY("iiftype", &arphrd_type, 16, H),
	[NFT_META_OIFTYPE]	= UKEY("oiftype", &arphrd_type, 16, H),
	[NFT_META_SKUID]	= UKEY("skuid", &uid_type, 32, H),
	[NFT_META_SKGID]	= UKEY("skgid", &gid_type, 32, H),
	[NFT_META_NFTRACE]	= SKEY("nftrace", &integer_type, 1, H, true),
	[NFT_META_RTCLASSID]	= UKEY("rtclassid", &realm_type, 32, H),
	[NFT_META_SECMARK]	= SKEY("secmark", &integer_type, 32, H, false),
	[NFT_META_NFPROTO]	= KEY("nfproto", &nfproto_type, 8, H),
	[NFT_META_L4PROTO]	= KEY("l4proto", &inet_protocol_type, 8, H),
	[NFT_META_BRI_IIFNAME]	= UKEY("ibrname", &ifname_type,
				       IFNAMSIZ * 8, B),
	[NFT_META_BRI_OIFNAME]	= UKEY("obrname", &ifname_type,
				       IFNAMSIZ * 8, B),
	[NFT_META_PKTTYPE]	= SKEY("pkttype", &pkttype_type, 8, H, true),
	[NFT_META_CPU]		= UKEY("cpu", &integer_type, 32, H),
	[NFT_META_IIFGROUP]	= UKEY("iifgroup", &devgroup_type, 32, H),
	[NFT_META_OIFGROUP]	= UKEY("oifgroup", &devgroup_type, 32, H),
	[NFT_META_CGROUP]	= UKEY("cgroup", &integer_type, 32, H),
	/* random bits have no byte order: loaded as they come */
	[NFT_META_PRANDOM]	= KEY("random", &integer_type, 32, B),
	[NFT_META_SECPATH]	= UKEY("ipsec", &boolean_type, 8, H),
	[NFT_META_IIFKIND]	= KEY("iifkind", &ifname_type,
				      IFNAMSIZ * 8, B),
	[NFT_META_OIFKIND]	= KEY("oifkind", &ifname_type,
				      IFNAMSIZ * 8, B),
	[NFT_META_BRI_IIFPVID]	= KEY("ibrpvid", &integer_type, 16, H),
	[NFT_META_BRI_IIFVPROTO] = KEY("ibrvproto", &ethertype_type, 16, B),
	[NFT_META_TIME_NS]	= UKEY("time", &date_type, 64, H),
	[NFT_META_TIME_DAY]	= UKEY("day", &day_type, 8, H),
	[NFT_META_TIME_HOUR]	= UKEY("hour", &hour_type, 32, H),
	[NFT_META_SDIF]		= KEY("sdif", &ifindex_type, 32, H),
	[NFT_META_SDIFNAME]	= KEY("sdifname", &ifname_type,
				      IFNAMSIZ * 8, B),
};

/*
 * ct keys. saddr/daddr take their type (ipv4 or ipv6 address) from the
 * protocol context; "ip saddr" etc. name the fixed-family keys.
 */
const struct key_template ct_templates[CT_KEYS_MAX] = {
	[NFT_CT_STATE]		= KEY("state", &ct_state_type, 32, H),
	[NFT_CT_DIRECTION]	= KEY("direction", &ct_dir_type, 8, H),
	[NFT_CT_STATUS]		= KEY("status", &ct_status_type, 32, H),
	[NFT_CT_MARK]		= SKEY("mark", &mark_type, 32, H, false),
	[NFT_CT_SECMARK]	= SKEY("secmark", &integer_type, 32, H, false),
	[NFT_CT_EXPIRATION]	= KEY("expiration", &time_type, 32, H),
	[NFT_CT_HELPER]		= KEY("helper", &string_type,
				      NF_CT_HELPER_NAME_LEN * 8, B),
	[NFT_CT_L3PROTOCOL]	= DKEY("l3proto", &nfproto_type, 8, H, 1),
	[NFT_CT_SRC]		= DKEY("saddr", &invalid_type, 0, B, 1),
	[NFT_CT_DST]		= DKEY("daddr", &invalid_type, 0, B, 1),
	[NFT_CT_PROTOCOL]	= DKEY("protocol", &inet_protocol_type,
				       8, B, 1),
	[NFT_CT_PROTO_SRC]	= DKEY("proto-src", &inet_service_type,
				       16, B, 1),
	[NFT_CT_PROTO_DST]	= DKEY("proto-dst", &inet_service_type,
				       16, B, 1),
	[NFT_CT_LABELS]		= SKEY("label", &ct_label_type, 128, H, false),
	[NFT_CT_PKTS]		= DKEY("packets", &integer_type, 64, H, 1),
	[NFT_CT_BYTES]		= DKEY("bytes", &integer_type, 64, H, 1),
	[NFT_CT_AVGPKT]		= DKEY("avgpkt", &integer_type, 64, H, 1),
	[NFT_CT_ZONE]		= {
		.token = "zone", .dtype = &integer_type, .len = 16,
		.byteorder = H, .dir = 1, .settable = true,
	},
	[NFT_CT_EVENTMASK]	= SKEY("event", &ct_event_type, 32, H, false),
	[NFT_CT_SRC_IP]		= DKEY("ip saddr", &ipaddr_type, 32, B, 2),
	[NFT_CT_DST_IP]		= DKEY("ip daddr", &ipaddr_type, 32, B, 2),
	[NFT_CT_SRC_IP6]	= DKEY("ip6 saddr", &ip6addr_type, 128, B, 2),
	[NFT_CT_DST_IP6]	= DKEY("ip6 daddr", &ip6addr_type, 128, B, 2),
	[NFT_CT_ID]		= KEY("id", &integer_type, 32, B),
};

/* rt keys: nexthop has one key per family, both spelt "nexthop". */
const struct key_template rt_templates[__NFT_RT_MAX] = {
	[NFT_RT_CLASSID]	= KEY("classid", &realm_type, 32, H),
	[NFT_RT_NEXTHOP4]	= KEY("nexthop", &ipaddr_type, 32, B),
	[NFT_RT_NEXTHOP6]	= KEY("nexthop", &ip6addr_type, 128, B),
	[NFT_RT_TCPMSS]		= KEY("mtu", &integer_type, 16, H),
	[NFT_RT_XFRM]		= KEY("ipsec", &boolean_type, 8, H),
};

const struct key_template socket_templates[__NFT_SOCKET_MAX] = {
	[NFT_SOCKET_TRANSPARENT] = KEY("transparent", &integer_type, 1, H),
	[NFT_SOCKET_MARK]	= KEY("mark", &mark_type, 32, H),
	[NFT_SOCKET_WILDCARD]	= KEY("wildcard", &integer_type, 1, H),
	[NFT_SOCKET_CGROUPV2]	= KEY("cgroupv2", &cgroupv2_type, 64, H),
};

/* ipsec (xfrm) keys: addresses have one key per family, as rt nexthop. */
const struct key_template xfrm_templates[__NFT_XFRM_KEY_MAX] = {
	[NFT_XFRM_KEY_DADDR_IP4] = KEY("daddr", &ipaddr_type, 32, B),
	[NFT_XFRM_KEY_DADDR_IP6] = KEY("daddr", &ip6addr_type, 128, B),
	[NFT_XFRM_KEY_SADDR_IP4] = KEY("saddr", &ipaddr_type, 32, B),
	[NFT_XFRM_KEY_SADDR_IP6] = KEY("saddr", &ip6addr_type, 128, B),
	[NFT_XFRM_KEY_REQID]	= KEY("reqid", &integer_type, 32, H),
	[NFT_XFRM_KEY_SPI]	= KEY("spi", &integer_type, 32, B),
};

const struct key_template fib_result_templates[__NFT_FIB_RESULT_MAX] = {
	[NFT_FIB_RESULT_OIF]	 = KEY("oif", &ifindex_type, 32, H),
	[NFT_FIB_RESULT_OIFNAME] = KEY("oifname", &ifname_type,
				       IFNAMSIZ * 8, B),
	[NFT_FIB_RESULT_ADDRTYPE] = KEY("type", &fib_addr_type, 32, H),
};

#undef H
#undef B

/* Older spellings still accepted, per table. */
static const struct {
	const struct key_template	*tbl;
	const char			*alias;
	unsigned int			key;
} key_aliases[] = {
	{ meta_templates, "ibriport",	NFT_META_BRI_IIFNAME },
	{ meta_templates, "obriport",	NFT_META_BRI_OIFNAME },
	{ meta_templates, "secpath",	NFT_META_SECPATH },
};

/**
 * key_lookup - key number of a name
 * @tbl: one of the key tables above
 * @n: its number of entries
 * @token: key name ("mark", "iifname", "ip saddr" for ct, ...)
 *
 * Where two keys share a name (rt nexthop, ipsec saddr/daddr) the IPv4
 * one is returned; the caller picks the IPv6 one from the context.
 * Returns the key number (NFT_META_*, ...), or -1 if unknown.
 */
int key_lookup(const struct key_template *tbl, unsigned int n,
	       const char *token)
{
	unsigned int i;

	/* the first byte rules out nearly every entry without a call */
	for (i = 0; i < n; i++) {
		if (tbl[i].token != NULL && tbl[i].token[0] == token[0] &&
		    strcmp(tbl[i].token, token) == 0)
			return i;
	}
	for (i = 0; i < ARRAY_SIZE(key_aliases); i++) {
		if (key_aliases[i].tbl == tbl &&
		    strcmp(key_aliases[i].alias, token) == 0)
			return key_aliases[i].key;
	}
	return -1;
}
