/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Extension headers: IPv6 extension headers (NFT_EXTHDR_OP_IPV6), TCP
 * options (NFT_EXTHDR_OP_TCPOPT) and IPv4 options (NFT_EXTHDR_OP_IPV4).
 * The VM finds the header/option by its type, fields are at bit offsets
 * from its start. Checked against stock nft 1.0.6's VM code.
 */
#include <string.h>

#include "proto.h"

#define FIELD(__tok, __dtype, __off, __len)				\
	PROTO_HDR_FIELD(__tok, __dtype, __off, __len)
#define INT(__tok, __off, __len)					\
	FIELD(__tok, &integer_type, __off, __len)

/*
 * IPv6 extension headers (RFC 8200, 6275, 8754). Their type is the
 * next-header value announcing them; the routing header variants share
 * type 43 and differ in the routing type field.
 */
#define NEXTHDR_HOP		0
#define NEXTHDR_ROUTING		43
#define NEXTHDR_FRAGMENT	44
#define NEXTHDR_DEST		60
#define NEXTHDR_MOBILITY	135

static const struct exthdr_desc exthdr_hbh = {
	.name		= "hbh",
	.id		= EXTHDR_DESC_HBH,
	.type		= NEXTHDR_HOP,
	.templates	= {
		[1]	= FIELD("nexthdr", &inet_protocol_type, 0, 8),
		[2]	= INT("hdrlength", 8, 8),
	},
};

static const struct exthdr_desc exthdr_rt = {
	.name		= "rt",
	.id		= EXTHDR_DESC_RT,
	.type		= NEXTHDR_ROUTING,
	.templates	= {
		[1]	= FIELD("nexthdr", &inet_protocol_type, 0, 8),
		[2]	= INT("hdrlength", 8, 8),
		[3]	= INT("type", 16, 8),
		[4]	= INT("seg-left", 24, 8),
	},
};

/*
 * Type 0 routing header: "addr[N]" is the Nth address, the template
 * describes addr[1]; the parser adds (N - 1) * 128 bits.
 */
static const struct exthdr_desc exthdr_rt0 = {
	.name		= "rt0",
	.id		= EXTHDR_DESC_RT0,
	.type		= NEXTHDR_ROUTING,
	.templates	= {
		[1]	= INT("reserved", 32, 32),
		[2]	= FIELD("addr", &ip6addr_type, 64, 128),
	},
};

static const struct exthdr_desc exthdr_rt2 = {
	.name		= "rt2",
	.id		= EXTHDR_DESC_RT2,
	.type		= NEXTHDR_ROUTING,
	.templates	= {
		[1]	= INT("reserved", 32, 32),
		[2]	= FIELD("addr", &ip6addr_type, 64, 128),
	},
};

/* Segment routing header: "sid[N]" like rt0's addr[N]. */
static const struct exthdr_desc exthdr_srh = {
	.name		= "srh",
	.id		= EXTHDR_DESC_SRH,
	.type		= NEXTHDR_ROUTING,
	.templates	= {
		[1]	= INT("last-entry", 32, 8),
		[2]	= INT("flags", 40, 8),
		[3]	= INT("tag", 48, 16),
		[4]	= FIELD("sid", &ip6addr_type, 64, 128),
	},
};

static const struct exthdr_desc exthdr_frag = {
	.name		= "frag",
	.id		= EXTHDR_DESC_FRAG,
	.type		= NEXTHDR_FRAGMENT,
	.templates	= {
		[1]	= FIELD("nexthdr", &inet_protocol_type, 0, 8),
		[2]	= INT("reserved", 8, 8),
		[3]	= INT("frag-off", 16, 13),
		[4]	= INT("reserved2", 29, 2),
		[5]	= INT("more-fragments", 31, 1),
		[6]	= INT("id", 32, 32),
	},
};

static const struct exthdr_desc exthdr_dst = {
	.name		= "dst",
	.id		= EXTHDR_DESC_DST,
	.type		= NEXTHDR_DEST,
	.templates	= {
		[1]	= FIELD("nexthdr", &inet_protocol_type, 0, 8),
		[2]	= INT("hdrlength", 8, 8),
	},
};

static const struct exthdr_desc exthdr_mh = {
	.name		= "mh",
	.id		= EXTHDR_DESC_MH,
	.type		= NEXTHDR_MOBILITY,
	.templates	= {
		[1]	= FIELD("nexthdr", &inet_protocol_type, 0, 8),
		[2]	= INT("hdrlength", 8, 8),
		[3]	= FIELD("type", &mh_type_type, 16, 8),
		[4]	= INT("reserved", 24, 8),
		[5]	= INT("checksum", 32, 16),
	},
};

const struct exthdr_desc *const exthdr_ipv6_descs[] = {
	&exthdr_hbh,
	&exthdr_rt,
	&exthdr_rt0,
	&exthdr_rt2,
	&exthdr_srh,
	&exthdr_frag,
	&exthdr_dst,
	&exthdr_mh,
	NULL
};

/*
 * TCP options (RFC 9293, 7323, 2018, 7413, 2385, 8684). Every option
 * starts with its kind; all but eol/nop have a length byte.
 */
#define TCPOPT_KIND		INT("kind", 0, 8)
#define TCPOPT_LENGTH		INT("length", 8, 8)

static const struct exthdr_desc tcpopt_eol = {
	.name		= "eol",
	.type		= 0,
	.templates	= { [1] = TCPOPT_KIND },
};

static const struct exthdr_desc tcpopt_nop = {
	.name		= "nop",
	.type		= 1,
	.templates	= { [1] = TCPOPT_KIND },
};

static const struct exthdr_desc tcpopt_maxseg = {
	.name		= "maxseg",
	.type		= 2,
	.templates	= {
		[1]	= TCPOPT_KIND,
		[2]	= TCPOPT_LENGTH,
		[3]	= INT("size", 16, 16),
	},
};

static const struct exthdr_desc tcpopt_window = {
	.name		= "window",
	.type		= 3,
	.templates	= {
		[1]	= TCPOPT_KIND,
		[2]	= TCPOPT_LENGTH,
		[3]	= INT("count", 16, 8),
	},
};

static const struct exthdr_desc tcpopt_sack_perm = {
	.name		= "sack-perm",
	.type		= 4,
	.templates	= { [1] = TCPOPT_KIND, [2] = TCPOPT_LENGTH },
};

/* SACK blocks: "sackN" is block N, 64 bits after block N - 1. */
#define TCPOPT_SACK(__name, __n)					\
	{								\
		.name		= (__name),				\
		.type		= 5,					\
		.templates	= {					\
			[1]	= TCPOPT_KIND,				\
			[2]	= TCPOPT_LENGTH,			\
			[3]	= INT("left", 16 + 64 * (__n), 32),	\
			[4]	= INT("right", 48 + 64 * (__n), 32),	\
		},							\
	}

static const struct exthdr_desc tcpopt_sack0 = TCPOPT_SACK("sack", 0);
static const struct exthdr_desc tcpopt_sack1 = TCPOPT_SACK("sack1", 1);
static const struct exthdr_desc tcpopt_sack2 = TCPOPT_SACK("sack2", 2);
static const struct exthdr_desc tcpopt_sack3 = TCPOPT_SACK("sack3", 3);

static const struct exthdr_desc tcpopt_timestamp = {
	.name		= "timestamp",
	.type		= 8,
	.templates	= {
		[1]	= TCPOPT_KIND,
		[2]	= TCPOPT_LENGTH,
		[3]	= INT("tsval", 16, 32),
		[4]	= INT("tsecr", 48, 32),
	},
};

static const struct exthdr_desc tcpopt_md5sig = {
	.name		= "md5sig",
	.type		= 19,
	.templates	= { [1] = TCPOPT_KIND, [2] = TCPOPT_LENGTH },
};

static const struct exthdr_desc tcpopt_mptcp = {
	.name		= "mptcp",
	.type		= 30,
	.templates	= {
		[1]	= TCPOPT_KIND,
		[2]	= TCPOPT_LENGTH,
		[3]	= INT("subtype", 16, 4),
	},
};

static const struct exthdr_desc tcpopt_fastopen = {
	.name		= "fastopen",
	.type		= 34,
	.templates	= { [1] = TCPOPT_KIND, [2] = TCPOPT_LENGTH },
};

const struct exthdr_desc *const exthdr_tcpopt_descs[] = {
	&tcpopt_eol,
	&tcpopt_nop,
	&tcpopt_maxseg,
	&tcpopt_window,
	&tcpopt_sack_perm,
	&tcpopt_sack0,
	&tcpopt_sack1,
	&tcpopt_sack2,
	&tcpopt_sack3,
	&tcpopt_timestamp,
	&tcpopt_md5sig,
	&tcpopt_mptcp,
	&tcpopt_fastopen,
	NULL
};

/* Other spellings the language accepts for TCP options. */
static const struct {
	const char			*alias;
	const struct exthdr_desc	*desc;
} tcpopt_aliases[] = {
	{ "noop",		&tcpopt_nop },
	{ "mss",		&tcpopt_maxseg },
	{ "sack-permitted",	&tcpopt_sack_perm },
	{ "sack0",		&tcpopt_sack0 },
};

/*
 * IPv4 options (RFC 791, 2113). "addr" is the first route address,
 * an integer in stock nft.
 */
#define IPOPT_ROUTE(__name, __type)					\
	{								\
		.name		= (__name),				\
		.type		= (__type),				\
		.templates	= {					\
			[1]	= INT("type", 0, 8),			\
			[2]	= INT("length", 8, 8),			\
			[3]	= INT("ptr", 16, 8),			\
			[4]	= INT("addr", 24, 32),			\
		},							\
	}

static const struct exthdr_desc ipopt_lsrr = IPOPT_ROUTE("lsrr", 131);
static const struct exthdr_desc ipopt_rr = IPOPT_ROUTE("rr", 7);
static const struct exthdr_desc ipopt_ssrr = IPOPT_ROUTE("ssrr", 137);

static const struct exthdr_desc ipopt_ra = {
	.name		= "ra",
	.type		= 148,
	.templates	= {
		[1]	= INT("type", 0, 8),
		[2]	= INT("length", 8, 8),
		[3]	= INT("value", 16, 16),
	},
};

const struct exthdr_desc *const exthdr_ipopt_descs[] = {
	&ipopt_lsrr,
	&ipopt_rr,
	&ipopt_ssrr,
	&ipopt_ra,
	NULL
};

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

static const struct exthdr_desc *
exthdr_lookup(const struct exthdr_desc *const *descs, const char *name)
{
	unsigned int i;

	for (i = 0; descs[i] != NULL; i++) {
		if (strcmp(descs[i]->name, name) == 0)
			return descs[i];
	}
	return NULL;
}

/**
 * exthdr_ipv6_lookup - IPv6 extension header by name
 * @name: "hbh", "rt", "rt0", "rt2", "srh", "frag", "dst" or "mh"
 *
 * Returns the description, or NULL.
 */
const struct exthdr_desc *exthdr_ipv6_lookup(const char *name)
{
	return exthdr_lookup(exthdr_ipv6_descs, name);
}

/**
 * exthdr_tcpopt_lookup - TCP option by name
 * @name: "maxseg", "sack2", ... or an alias ("mss", "sack-permitted")
 *
 * Returns the description, or NULL.
 */
const struct exthdr_desc *exthdr_tcpopt_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tcpopt_aliases); i++) {
		if (strcmp(tcpopt_aliases[i].alias, name) == 0)
			return tcpopt_aliases[i].desc;
	}
	return exthdr_lookup(exthdr_tcpopt_descs, name);
}

/**
 * exthdr_ipopt_lookup - IPv4 option by name
 * @name: "lsrr", "rr", "ssrr" or "ra"
 *
 * Returns the description, or NULL.
 */
const struct exthdr_desc *exthdr_ipopt_lookup(const char *name)
{
	return exthdr_lookup(exthdr_ipopt_descs, name);
}

/**
 * exthdr_field_lookup - template index of a field
 * @desc: extension header or option
 * @token: field name ("frag-off", "left", ...)
 *
 * Returns the index into @desc->templates, 0 if there is no such field.
 */
unsigned int exthdr_field_lookup(const struct exthdr_desc *desc,
				 const char *token)
{
	unsigned int i;

	for (i = 1; i < ARRAY_SIZE(desc->templates); i++) {
		const char *t = desc->templates[i].token;

		if (t != NULL && strcmp(t, token) == 0)
			return i;
	}
	return 0;
}
