/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SCTP chunks (NFT_EXTHDR_OP_SCTP, RFC 9260, 3758, 5061, 4960 appendix
 * A): the VM walks the chunks after the 12-byte common header and finds
 * the first of a given type; fields are at bit offsets from the chunk's
 * start. Names, types and layout checked against stock nft 1.0.6
 * ("nft --debug=netlink" and "nft describe").
 */
#include <string.h>

#include "proto.h"

#define INT(__tok, __off, __len)					\
	{								\
		.token		= (__tok),				\
		.dtype		= &integer_type,			\
		.offset		= (__off),				\
		.len		= (__len),				\
		.byteorder	= BYTEORDER_BIG,			\
	}

/* every chunk starts with type, flags and length */
#define SCTP_CHUNK(__name, __type, ...)					\
	{								\
		.name		= (__name),				\
		.type		= (__type),				\
		.templates	= {					\
			[1]	= INT("type", 0, 8),			\
			[2]	= INT("flags", 8, 8),			\
			[3]	= INT("length", 16, 16),		\
			__VA_ARGS__					\
		},							\
	}

static const struct exthdr_desc sctp_data = SCTP_CHUNK("data", 0,
	[4]	= INT("tsn", 32, 32),
	[5]	= INT("stream", 64, 16),
	[6]	= INT("ssn", 80, 16),
	[7]	= INT("ppid", 96, 32),
);

#define SCTP_INIT_FIELDS						\
	[4]	= INT("init-tag", 32, 32),				\
	[5]	= INT("a-rwnd", 64, 32),				\
	[6]	= INT("num-outbound-streams", 96, 16),			\
	[7]	= INT("num-inbound-streams", 112, 16),			\
	[8]	= INT("initial-tsn", 128, 32),

static const struct exthdr_desc sctp_init = SCTP_CHUNK("init", 1,
	SCTP_INIT_FIELDS
);
static const struct exthdr_desc sctp_init_ack = SCTP_CHUNK("init-ack", 2,
	SCTP_INIT_FIELDS
);

static const struct exthdr_desc sctp_sack = SCTP_CHUNK("sack", 3,
	[4]	= INT("cum-tsn-ack", 32, 32),
	[5]	= INT("a-rwnd", 64, 32),
	[6]	= INT("num-gap-ack-blocks", 96, 16),
	[7]	= INT("num-dup-tsns", 112, 16),
);

static const struct exthdr_desc sctp_heartbeat = SCTP_CHUNK("heartbeat", 4);
static const struct exthdr_desc sctp_heartbeat_ack =
	SCTP_CHUNK("heartbeat-ack", 5);
static const struct exthdr_desc sctp_abort = SCTP_CHUNK("abort", 6);
static const struct exthdr_desc sctp_shutdown = SCTP_CHUNK("shutdown", 7,
	[4]	= INT("cum-tsn-ack", 32, 32),
);
static const struct exthdr_desc sctp_shutdown_ack =
	SCTP_CHUNK("shutdown-ack", 8);
static const struct exthdr_desc sctp_error = SCTP_CHUNK("error", 9);
static const struct exthdr_desc sctp_cookie_echo =
	SCTP_CHUNK("cookie-echo", 10);
static const struct exthdr_desc sctp_cookie_ack = SCTP_CHUNK("cookie-ack", 11);
static const struct exthdr_desc sctp_ecne = SCTP_CHUNK("ecne", 12,
	[4]	= INT("lowest-tsn", 32, 32),
);
static const struct exthdr_desc sctp_cwr = SCTP_CHUNK("cwr", 13,
	[4]	= INT("lowest-tsn", 32, 32),
);
static const struct exthdr_desc sctp_shutdown_complete =
	SCTP_CHUNK("shutdown-complete", 14);
static const struct exthdr_desc sctp_asconf_ack = SCTP_CHUNK("asconf-ack", 128,
	[4]	= INT("seqno", 32, 32),
);
static const struct exthdr_desc sctp_forward_tsn =
	SCTP_CHUNK("forward-tsn", 192,
	[4]	= INT("new-cum-tsn", 32, 32),
);
static const struct exthdr_desc sctp_asconf = SCTP_CHUNK("asconf", 193,
	[4]	= INT("seqno", 32, 32),
);

/* in chunk type order, which is the order stock nft knows them in */
const struct exthdr_desc *const exthdr_sctp_descs[] = {
	&sctp_data,
	&sctp_init,
	&sctp_init_ack,
	&sctp_sack,
	&sctp_heartbeat,
	&sctp_heartbeat_ack,
	&sctp_abort,
	&sctp_shutdown,
	&sctp_shutdown_ack,
	&sctp_error,
	&sctp_cookie_echo,
	&sctp_cookie_ack,
	&sctp_ecne,
	&sctp_cwr,
	&sctp_shutdown_complete,
	&sctp_asconf_ack,
	&sctp_forward_tsn,
	&sctp_asconf,
	NULL
};

/**
 * exthdr_sctp_lookup - SCTP chunk by name
 * @name: "data", "init-ack", "forward-tsn", ...
 *
 * Returns the description, or NULL.
 */
const struct exthdr_desc *exthdr_sctp_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; exthdr_sctp_descs[i] != NULL; i++) {
		if (strcmp(exthdr_sctp_descs[i]->name, name) == 0)
			return exthdr_sctp_descs[i];
	}
	return NULL;
}
