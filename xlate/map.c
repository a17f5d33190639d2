// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of extension mappings: one row per iptables match/target
 * (kernel name, kind, structure size) and the function that maps its
 * parsed structure to IR. Adding an extension is one row and one
 * function.
 */
#include <config.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/xt_tcpudp.h>
#include <linux/netfilter/xt_multiport.h>
#include <linux/netfilter/xt_conntrack.h>
#include <linux/netfilter/xt_state.h>
#include <linux/netfilter/xt_mark.h>
#include <linux/netfilter/xt_connmark.h>
#include <linux/netfilter/xt_addrtype.h>
#include <linux/netfilter/xt_iprange.h>
#include <linux/netfilter/xt_owner.h>
#include <linux/netfilter/xt_socket.h>
#include <linux/netfilter/xt_CT.h>
#include <linux/netfilter/xt_recent.h>
#include <linux/netfilter/xt_hashlimit.h>
#include <linux/netfilter/xt_connlimit.h>
#include <linux/netfilter/xt_set.h>
#include <linux/netfilter/xt_time.h>
#include <linux/netfilter/xt_policy.h>
#include <linux/netfilter/xt_string.h>
#include <linux/netfilter/xt_cgroup.h>
#include <linux/netfilter/xt_connbytes.h>
#include <linux/netfilter/xt_u32.h>
#include "xlate_int.h"
#include "xlate_map.h"

/**
 * struct xl_map - one extension mapping
 * @name: kernel name of the extension ("conntrack" for -m state too)
 * @target: a target (else a match)
 * @family: NFPROTO_IPV4/IPV6 when the structure is family specific
 * @size: XT_ALIGN'ed size of the structure the mapping reads, 0 = any
 * @fn: the mapping
 * @scan: what the pre-pass over a table notes (xl_scan_ext()), or NULL
 */
struct xl_map {
	const char	*name;
	bool		target;
	uint8_t		family;
	unsigned int	size;
	xl_map_fn	fn;
	xl_scan_fn	scan;
};

#define M(n, s, f)	{ .name = n, .size = XT_ALIGN(s), .fn = f }
#define M4(n, s, f)	{ .name = n, .family = NFPROTO_IPV4, \
			  .size = XT_ALIGN(s), .fn = f }
#define M6(n, s, f)	{ .name = n, .family = NFPROTO_IPV6, \
			  .size = XT_ALIGN(s), .fn = f }
#define T(n, s, f)	{ .name = n, .target = true, .size = s, .fn = f }

static const struct xl_map xl_maps[] = {
	M("tcp",	sizeof(struct xt_tcp),		xl_map_tcp),
	M("udp",	sizeof(struct xt_udp),		xl_map_udp),
	M("udplite",	sizeof(struct xt_udp),		xl_map_udp),
	{ .name = "icmp", .family = NFPROTO_IPV4, .fn = xl_map_icmp },
	{ .name = "icmp6", .family = NFPROTO_IPV6, .fn = xl_map_icmp6 },
	M("multiport",	sizeof(struct xt_multiport_v1),	xl_map_multiport),
	M("conntrack",	sizeof(struct xt_conntrack_mtinfo3), xl_map_conntrack),
	M("state",	sizeof(struct xt_state_info),	xl_map_state),
	{ .name = "comment", .fn = xl_map_comment },
	{ .name = "limit", .fn = xl_map_limit },
	M("mark",	sizeof(struct xt_mark_mtinfo1),	xl_map_mark),
	M("connmark",	sizeof(struct xt_connmark_mtinfo1), xl_map_connmark),
	M("addrtype",	sizeof(struct xt_addrtype_info_v1), xl_map_addrtype),
	M("iprange",	sizeof(struct xt_iprange_mtinfo), xl_map_iprange),
	M("owner",	sizeof(struct xt_owner_match_info), xl_map_owner),
	{ .name = "pkttype", .fn = xl_map_pkttype },
	{ .name = "mac", .fn = xl_map_mac },
	{ .name = "ttl", .fn = xl_map_ttl },
	{ .name = "hl", .fn = xl_map_hl },
	{ .name = "length", .fn = xl_map_length },
	{ .name = "tcpmss", .fn = xl_map_tcpmss },
	{ .name = "dscp", .fn = xl_map_dscp },
	{ .name = "tos", .fn = xl_map_tos },
	{ .name = "esp", .fn = xl_map_esp },
	{ .name = "ipcomp", .fn = xl_map_ipcomp },
	{ .name = "ah", .fn = xl_map_ah },
	{ .name = "helper", .fn = xl_map_helper },
	{ .name = "cpu", .fn = xl_map_cpu },
	{ .name = "devgroup", .fn = xl_map_devgroup },
	{ .name = "quota", .fn = xl_map_quota },
	{ .name = "realm", .fn = xl_map_realm },
	{ .name = "statistic", .fn = xl_map_statistic },
	M("socket",	sizeof(struct xt_socket_mtinfo3), xl_map_socket),
	{ .name = "frag", .fn = xl_map_frag },
	{ .name = "hbh", .fn = xl_map_hbh },
	{ .name = "dst", .fn = xl_map_dst },
	{ .name = "rt", .fn = xl_map_rt },
	{ .name = "mh", .fn = xl_map_mh },
	{ .name = "recent", .size = XT_ALIGN(sizeof(struct xt_recent_mtinfo_v1)),
	  .fn = xl_map_recent, .scan = xl_scan_recent },
	M("hashlimit",	sizeof(struct xt_hashlimit_mtinfo3), xl_map_hashlimit),
	M("connlimit",	sizeof(struct xt_connlimit_info), xl_map_connlimit),
	M("time",	sizeof(struct xt_time_info),	xl_map_time),
	M("policy",	sizeof(struct xt_policy_info),	xl_map_policy),
	M("set",	sizeof(struct xt_set_info_match_v4), xl_map_set),
	M("cgroup",	sizeof(struct xt_cgroup_info_v2), xl_map_cgroup_v2),
	M("cgroup",	sizeof(struct xt_cgroup_info_v1), xl_map_cgroup_v1),
	{ .name = "cluster", .fn = xl_map_cluster },
	M("connbytes",	sizeof(struct xt_connbytes_info), xl_map_connbytes),
	{ .name = "connlabel", .fn = xl_map_connlabel },
	{ .name = "dccp", .fn = xl_map_dccp },
	{ .name = "sctp", .fn = xl_map_sctp },
	{ .name = "ecn", .fn = xl_map_ecn },
	{ .name = "rpfilter", .fn = xl_map_rpfilter },
	M("u32",	sizeof(struct xt_u32),		xl_map_u32),

	T("LOG",	0, xl_map_log),
	T("NFLOG",	0, xl_map_nflog),
	T("AUDIT",	0, xl_map_audit),
	T("REJECT",	0, xl_map_reject),
	T("SNAT",	0, xl_map_snat),
	T("DNAT",	0, xl_map_dnat),
	T("MASQUERADE",	0, xl_map_masquerade),
	T("REDIRECT",	0, xl_map_redirect),
	T("MARK",	XT_ALIGN(sizeof(struct xt_mark_tginfo2)),
	  xl_map_mark_tg),
	T("CONNMARK",	XT_ALIGN(sizeof(struct xt_connmark_tginfo2)),
	  xl_map_connmark_tg),
	T("NOTRACK",	0, xl_map_notrack),
	T("TRACE",	0, xl_map_trace),
	T("CT",		0, xl_map_ct),
	T("TCPMSS",	0, xl_map_tcpmss_tg),
	T("DSCP",	0, xl_map_dscp_tg),
	T("CLASSIFY",	0, xl_map_classify),
	T("NFQUEUE",	0, xl_map_nfqueue),
	T("TEE",	0, xl_map_tee),
	T("TPROXY",	0, xl_map_tproxy),
	T("SYNPROXY",	0, xl_map_synproxy),
	T("TTL",	0, xl_map_ttl_tg),
	T("HL",		0, xl_map_hl_tg),
	T("TOS",	XT_ALIGN(2), xl_map_tos_tg),
	T("CHECKSUM",	0, xl_map_checksum),
};

/*
 * Extensions nftables has no equivalent for at all: a clear reason,
 * rather than "not translated yet".
 */
static const struct {
	const char	*name;
	const char	*why;
} xl_unmappable[] = {
	{ "string",	"nftables cannot search packet payload for a string" },
	{ "physdev",	"nftables has no bridge port match for routed "
			"packets (br_netfilter)" },
	{ "bpf",	"nftables cannot run BPF programs" },
	{ "ipvs",	"nftables has no IPVS match" },
	{ "osf",	"osf options not translated yet" },
	{ "rateest",	"nftables has no rate estimator" },
	{ "RATEEST",	"nftables has no rate estimator" },
	{ "IDLETIMER",	"nftables has no idle timer" },
	{ "LED",	"nftables has no LED trigger" },
	{ "CLUSTERIP",	"nftables has no CLUSTERIP" },
	{ "ECN",	"nftables cannot clear ECN bits of TCP headers" },
};

/* What iptables-nft 1.8.9 writes as VM code of its own, not as xt. */
static const char *const xl_nft_native[] = { "tcp", "udp", "mark", "limit" };

static bool xl_any_port(const uint16_t *spts, const uint16_t *dpts)
{
	return !spts[0] && spts[1] == 0xffff && !dpts[0] && dpts[1] == 0xffff;
}

bool xl_ext_as_xt(const struct xl_rule *r, const struct xl_ext *ext)
{
	const char *name = xl_ext_name(ext);
	unsigned int i;

	if (!(r->ctx->flags & XLATE_F_XT) || ext->setref)
		return false;
	if (ext->target)
		return strcmp(name, "TRACE") != 0;
	/*
	 * iptables-nft's own tcp and udp test ports and flags; a match
	 * that tests nothing (any port, "-p tcp -m tcp") and tcp's
	 * --tcp-option go as xt
	 */
	if (!strcmp(name, "tcp") && xl_ext_size(ext) >= sizeof(struct xt_tcp)) {
		const struct xt_tcp *t = xl_ext_data(ext);

		return t->option || (xl_any_port(t->spts, t->dpts) &&
				     !t->flg_mask && !t->invflags);
	}
	if (!strcmp(name, "udp") && xl_ext_size(ext) >= sizeof(struct xt_udp)) {
		const struct xt_udp *u = xl_ext_data(ext);

		return xl_any_port(u->spts, u->dpts) && !u->invflags;
	}
	for (i = 0; i < sizeof(xl_nft_native) / sizeof(xl_nft_native[0]); i++) {
		if (!strcmp(name, xl_nft_native[i]))
			return false;
	}
	return true;
}

static const struct xl_map *map_search(const struct xl_rule *r,
				       const char *name, bool target,
				       unsigned int size)
{
	unsigned int i;

	for (i = 0; i < sizeof(xl_maps) / sizeof(xl_maps[0]); i++) {
		const struct xl_map *m = &xl_maps[i];

		if (m->target != target || strcmp(m->name, name))
			continue;
		if (m->family && m->family != r->ctx->family)
			continue;
		if (m->size && m->size != size)
			continue;
		return m;
	}
	return NULL;
}

/*
 * The table is searched by name (a strcmp per entry); the answers for
 * the extensions met last are kept, by the extension's name as
 * libxtables holds it (the same pointer for every rule), its kind,
 * size and the family.
 */
#define XL_MAP_MEMO	16

static const struct xl_map *map_find(const struct xl_rule *r,
				     const struct xl_ext *ext)
{
	static __thread struct {
		const char		*name;
		const struct xl_map	*map;
		unsigned int		size;
		uint8_t			family;
		bool			target;
	} memo[XL_MAP_MEMO];
	static __thread unsigned int next;
	const char *name = xl_ext_name(ext);
	bool target = ext->target != NULL;
	unsigned int i, size = xl_ext_size(ext);
	const struct xl_map *m;

	for (i = 0; i < XL_MAP_MEMO && memo[i].name; i++) {
		if (memo[i].name == name && memo[i].size == size &&
		    memo[i].target == target &&
		    memo[i].family == r->ctx->family)
			return memo[i].map;
	}
	m = map_search(r, name, target, size);
	if (m) {
		i = next++ % XL_MAP_MEMO;
		memo[i].name = name;
		memo[i].map = m;
		memo[i].size = size;
		memo[i].family = r->ctx->family;
		memo[i].target = target;
	}
	return m;
}

int xl_map_ext(struct xl_rule *r, const struct xl_ext *ext)
{
	const char *name = xl_ext_name(ext);
	bool target = ext->target != NULL;
	unsigned int i, size = xl_ext_size(ext);
	const struct xl_map *m;
	struct stmt *xt;

	r->ext_size = size;
	if (xl_ext_as_xt(r, ext)) {
		xt = xt_stmt_alloc(&r->loc, name, xl_ext_rev(ext), target,
				   xl_ext_data(ext), size);
		if (!xt)
			return xl_error(r, "%s", "out of memory");
		xl_add_stmt(r, xt);
		return 0;
	}
	if (ext->setref)	/* -m set / -j SET: parsed by ipset.c */
		return xl_map_setref(r, ext->setref);
	m = map_find(r, ext);
	if (m)
		return m->fn(r, xl_ext_data(ext));
	for (i = 0; i < sizeof(xl_unmappable) / sizeof(xl_unmappable[0]);
	     i++) {
		if (!strcmp(xl_unmappable[i].name, name))
			return xl_error(r, "%s %s: %s", target ? "target" :
					"match", name, xl_unmappable[i].why);
	}
	return xl_error(r, "%s %s (revision %u) is not translated",
			target ? "target" : "match", name, xl_ext_rev(ext));
}

/*
 * The pre-pass over a table (reader.c): what the extension would need
 * known before the table's first rule is translated. Same choice of
 * mapping as xl_map_ext().
 */
void xl_scan_ext(struct xl_rule *r, const struct xl_ext *ext)
{
	const struct xl_map *m;

	if (xl_ext_as_xt(r, ext) || ext->setref)
		return;
	m = map_find(r, ext);
	if (m && m->scan)
		m->scan(r, xl_ext_data(ext));
}
