// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Facts about meta and ct keys: their names in the nft language, the
 * bytes a load writes, and how a counterexample prints their value.
 * One row per key.
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "sd_int.h"

static const struct sd_meta_key meta_keys[] = {
	[NFT_META_LEN]		= { "length",	4, FMT_DEC },
	[NFT_META_PROTOCOL]	= { "protocol",	2, FMT_HEX },
	[NFT_META_PRIORITY]	= { "priority",	4, FMT_HEX },
	[NFT_META_MARK]		= { "mark",	4, FMT_HEX },
	[NFT_META_IIF]		= { "iif",	4, FMT_DEC },
	[NFT_META_OIF]		= { "oif",	4, FMT_DEC },
	[NFT_META_IIFNAME]	= { "iifname",	16, FMT_STR },
	[NFT_META_OIFNAME]	= { "oifname",	16, FMT_STR },
	[NFT_META_IIFTYPE]	= { "iiftype",	2, FMT_DEC },
	[NFT_META_OIFTYPE]	= { "oiftype",	2, FMT_DEC },
	[NFT_META_SKUID]	= { "skuid",	4, FMT_DEC },
	[NFT_META_SKGID]	= { "skgid",	4, FMT_DEC },
	[NFT_META_NFTRACE]	= { "nftrace",	1, FMT_DEC },
	[NFT_META_RTCLASSID]	= { "rtclassid", 4, FMT_DEC },
	[NFT_META_SECMARK]	= { "secmark",	4, FMT_DEC },
	[NFT_META_NFPROTO]	= { "nfproto",	1, FMT_DEC },
	[NFT_META_L4PROTO]	= { "l4proto",	1, FMT_DEC },
	[NFT_META_BRI_IIFNAME]	= { "ibrname",	16, FMT_STR },
	[NFT_META_BRI_OIFNAME]	= { "obrname",	16, FMT_STR },
	[NFT_META_PKTTYPE]	= { "pkttype",	1, FMT_DEC },
	[NFT_META_CPU]		= { "cpu",	4, FMT_DEC },
	[NFT_META_IIFGROUP]	= { "iifgroup",	4, FMT_DEC },
	[NFT_META_OIFGROUP]	= { "oifgroup",	4, FMT_DEC },
	[NFT_META_CGROUP]	= { "cgroup",	4, FMT_DEC },
	[NFT_META_PRANDOM]	= { "random",	4, FMT_DEC },
	[NFT_META_SECPATH]	= { "ipsec",	1, FMT_DEC },
	[NFT_META_IIFKIND]	= { "iifkind",	16, FMT_STR },
	[NFT_META_OIFKIND]	= { "oifkind",	16, FMT_STR },
	[NFT_META_BRI_IIFPVID]	= { "ibrpvid",	2, FMT_DEC },
	[NFT_META_BRI_IIFVPROTO] = { "ibrvproto", 2, FMT_HEX },
	[NFT_META_TIME_NS]	= { "time",	8, FMT_DEC },
	[NFT_META_TIME_DAY]	= { "day",	1, FMT_DEC },
	[NFT_META_TIME_HOUR]	= { "hour",	4, FMT_DEC },
	[NFT_META_SDIF]		= { "sdif",	4, FMT_DEC },
	[NFT_META_SDIFNAME]	= { "sdifname",	16, FMT_STR },
};

static const struct sd_meta_key ct_keys[] = {
	[NFT_CT_STATE]		= { "state",	4, FMT_CTSTATE },
	[NFT_CT_DIRECTION]	= { "direction", 1, FMT_DEC },
	[NFT_CT_STATUS]		= { "status",	4, FMT_CTSTATUS },
	[NFT_CT_MARK]		= { "mark",	4, FMT_HEX },
	[NFT_CT_SECMARK]	= { "secmark",	4, FMT_DEC },
	[NFT_CT_EXPIRATION]	= { "expiration", 4, FMT_DEC },
	[NFT_CT_HELPER]		= { "helper",	16, FMT_STR },
	[NFT_CT_L3PROTOCOL]	= { "l3proto",	1, FMT_DEC },
	[NFT_CT_SRC]		= { "saddr",	16, FMT_IP6 },
	[NFT_CT_DST]		= { "daddr",	16, FMT_IP6 },
	[NFT_CT_PROTOCOL]	= { "protocol",	1, FMT_DEC },
	[NFT_CT_PROTO_SRC]	= { "proto-src", 2, FMT_BEDEC },
	[NFT_CT_PROTO_DST]	= { "proto-dst", 2, FMT_BEDEC },
	[NFT_CT_LABELS]		= { "label",	16, FMT_HEX },
	[NFT_CT_PKTS]		= { "packets",	8, FMT_DEC },
	[NFT_CT_BYTES]		= { "bytes",	8, FMT_DEC },
	[NFT_CT_AVGPKT]		= { "avgpkt",	8, FMT_DEC },
	[NFT_CT_ZONE]		= { "zone",	2, FMT_DEC },
	[NFT_CT_EVENTMASK]	= { "event",	4, FMT_HEX },
	[NFT_CT_SRC_IP]		= { "ip saddr",	4, FMT_IP4 },
	[NFT_CT_DST_IP]		= { "ip daddr",	4, FMT_IP4 },
	[NFT_CT_SRC_IP6]	= { "ip6 saddr", 16, FMT_IP6 },
	[NFT_CT_DST_IP6]	= { "ip6 daddr", 16, FMT_IP6 },
	[NFT_CT_ID]		= { "id",	4, FMT_DEC },
};

/* The family forms of the family-dependent ct src/dst keys, named as
 * the trace packet selectors take them. */
static const struct sd_meta_key ct_src4 = { "ip saddr", 4, FMT_IP4 };
static const struct sd_meta_key ct_dst4 = { "ip daddr", 4, FMT_IP4 };
static const struct sd_meta_key ct_src6 = { "ip6 saddr", 16, FMT_IP6 };
static const struct sd_meta_key ct_dst6 = { "ip6 daddr", 16, FMT_IP6 };

const struct sd_meta_key *sd_meta_key(uint32_t key)
{
	if (key >= sizeof(meta_keys) / sizeof(meta_keys[0]) ||
	    !meta_keys[key].name)
		return NULL;
	return &meta_keys[key];
}

const struct sd_meta_key *sd_ct_key(uint32_t key, uint8_t family)
{
	if (family == NFPROTO_IPV4 && key == NFT_CT_SRC)
		return &ct_src4;
	if (family == NFPROTO_IPV4 && key == NFT_CT_DST)
		return &ct_dst4;
	if (family == NFPROTO_IPV6 && key == NFT_CT_SRC)
		return &ct_src6;
	if (family == NFPROTO_IPV6 && key == NFT_CT_DST)
		return &ct_dst6;
	if (key >= sizeof(ct_keys) / sizeof(ct_keys[0]) || !ct_keys[key].name)
		return NULL;
	return &ct_keys[key];
}

/* ct state bits (host order u32), as nft names them. */
static const struct {
	uint32_t	bit;
	const char	*name;
} ct_states[] = {
	{ 1 << 0, "invalid" },
	{ 1 << 1, "established" },
	{ 1 << 2, "related" },
	{ 1 << 3, "new" },
	{ 1 << 6, "untracked" },
};

static uint64_t host_value(const uint8_t *v, unsigned int len)
{
	uint64_t x = 0;

	memcpy(&x, v, len > 8 ? 8 : len);
	return x;
}

void sd_format_value(FILE *f, enum sd_fmt fmt, const uint8_t *v,
		     unsigned int len)
{
	char buf[INET6_ADDRSTRLEN];
	unsigned int i;
	uint64_t x;

	switch (fmt) {
	case FMT_STR:
		fputc('"', f);
		for (i = 0; i < len && v[i]; i++)
			fputc(v[i] >= 0x20 && v[i] < 0x7f && v[i] != '"' ?
			      v[i] : '?', f);
		fputc('"', f);
		return;
	case FMT_IP4:
		fputs(inet_ntop(AF_INET, v, buf, sizeof(buf)), f);
		return;
	case FMT_IP6:
		if (len == 4)
			fputs(inet_ntop(AF_INET, v, buf, sizeof(buf)), f);
		else
			fputs(inet_ntop(AF_INET6, v, buf, sizeof(buf)), f);
		return;
	case FMT_MAC:
		for (i = 0; i < len; i++)
			fprintf(f, "%s%02x", i ? ":" : "", v[i]);
		return;
	case FMT_CTSTATE:
		x = host_value(v, len);
		for (i = 0; i < sizeof(ct_states) / sizeof(ct_states[0]); i++)
			if (x == ct_states[i].bit) {
				fputs(ct_states[i].name, f);
				return;
			}
		fprintf(f, "0x%llx", (unsigned long long)x);
		return;
	case FMT_CTSTATUS:
	case FMT_HEX:
		fprintf(f, "0x%llx", (unsigned long long)host_value(v, len));
		return;
	case FMT_DEC:
		fprintf(f, "%llu", (unsigned long long)host_value(v, len));
		return;
	case FMT_BEDEC:		/* ports: network order */
		for (x = 0, i = 0; i < len && i < 8; i++)
			x = x << 8 | v[i];
		fprintf(f, "%llu", (unsigned long long)x);
		return;
	case __FMT_MAX:
		break;
	}
}
