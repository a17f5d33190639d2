// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * More match and target mappings (registered in map.c, one row each):
 * cgroup, cluster, connbytes, connlabel, dccp, sctp, ecn, rpfilter, the
 * TOS target and CHECKSUM. As in map_match.c, the semantics follow the
 * kernel's xt_* code (what the packet path does with the structure),
 * not iptables-translate's output.
 */
#define _GNU_SOURCE
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_cgroup.h>
#include <linux/netfilter/xt_cluster.h>
#include <linux/netfilter/xt_connbytes.h>
#include <linux/netfilter/xt_connlabel.h>
#include <linux/netfilter/xt_dccp.h>
#include <linux/netfilter/xt_sctp.h>
#include <linux/netfilter/xt_ecn.h>
#include <linux/netfilter/xt_rpfilter.h>
#include <linux/netfilter/xt_DSCP.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter/nf_conntrack_tuple_common.h>
#include "xlate_int.h"
#include "xlate_map.h"
#include "datatype.h"
#include "keys.h"
#include "proto.h"

#define LOC	(&r->loc)

/* cgroup v1/v2: --cgroup CLASSID is the net_cls class of the socket. */
static int cgroup_common(struct xl_rule *r, bool has_path, bool inv_path,
			 const char *path, bool has_classid, bool inv_classid,
			 uint32_t classid)
{
	unsigned int level = 0;
	const char *p;

	if (has_classid)
		xl_match_inv(r, xl_meta(LOC, NFT_META_CGROUP), inv_classid,
			     xl_sym(LOC, "%u", classid));
	if (!has_path)
		return 0;
	/* --path: the socket's cgroup v2 ancestor at the path's depth */
	for (p = path; *p; p++) {
		if (*p != '/' && (p == path || p[-1] == '/'))
			level++;
	}
	if (!level)
		return xl_error(r, "cgroup --path \"%s\": the root cgroup "
				"cannot be matched in nftables", path);
	xl_match_inv(r, socket_expr_alloc(LOC, NFT_SOCKET_CGROUPV2, level),
		     inv_path, xl_qsym(LOC, path[0] == '/' ? path + 1 : path));
	return 0;
}

int xl_map_cgroup_v2(struct xl_rule *r, const void *data)
{
	const struct xt_cgroup_info_v2 *c = data;
	char path[XT_CGROUP_PATH_MAX + 1];

	snprintf(path, sizeof(path), "%.*s", XT_CGROUP_PATH_MAX,
		 c->has_path ? c->path : "");
	return cgroup_common(r, c->has_path, c->invert_path, path,
			     c->has_classid, c->invert_classid,
			     c->has_path ? 0 : c->classid);
}

int xl_map_cgroup_v1(struct xl_rule *r, const void *data)
{
	const struct xt_cgroup_info_v1 *c = data;

	return cgroup_common(r, c->has_path, c->invert_path, c->path,
			     c->has_classid, c->invert_classid, c->classid);
}

/*
 * cluster: the node of a connection is reciprocal_scale(jhash of the
 * original source address, total nodes); the rule matches when that
 * node's bit is in the mask. The kernel also turns link-layer multicast
 * into host packets (cluster nodes answer ARP with a multicast MAC).
 */
int xl_map_cluster(struct xl_rule *r, const void *data)
{
	const struct xt_cluster_match_info *c = data;
	struct expr *h, *set = NULL, *e;
	unsigned int b, n = 0;
	struct stmt *s;

	for (b = 0; b < c->total_nodes && b < XT_CLUSTER_NODES_MAX; b++) {
		if (c->node_mask & (1U << b)) {
			set = xl_set_add(set, xl_sym(LOC, "%u", b));
			n++;
		}
	}
	if (!n && !(c->flags & XT_CLUSTER_F_INV))
		return xl_error(r, "cluster: no local node, the rule never "
				"matches");
	h = hash_expr_alloc(LOC, c->total_nodes, true, c->hash_seed, 0,
			    NFT_HASH_JENKINS);
	h->hash.expr = xl_ct(LOC, NFT_CT_SRC, IP_CT_DIR_ORIGINAL);
	if (n == 1) {
		e = list_first_entry(&set->expressions, struct expr, list);
		e = expr_get(e->elem.key);
		expr_free(set);
		set = e;
	}
	if (set)
		xl_match_inv(r, h, c->flags & XT_CLUSTER_F_INV, set);
	else
		expr_free(h);
	s = stmt_alloc(LOC, STMT_META);
	s->meta.key = NFT_META_PKTTYPE;
	s->meta.expr = xl_sym(LOC, "host");
	xl_add_stmt(r, s);
	xl_warn(r, "cluster: packets are set to pkttype host when they "
		"match, not before the test for link-layer multicast only");
	r->inexact = true;
	return 0;
}

/*
 * connbytes: from <= count <= to; "! --connbytes" swaps the bounds and
 * the kernel then matches count < to || count > from.
 */
int xl_map_connbytes(struct xl_rule *r, const void *data)
{
	static const enum nft_ct_keys keys[] = {
		[XT_CONNBYTES_PKTS]	= NFT_CT_PKTS,
		[XT_CONNBYTES_BYTES]	= NFT_CT_BYTES,
		[XT_CONNBYTES_AVGPKT]	= NFT_CT_AVGPKT,
	};
	static const int dirs[] = {
		[XT_CONNBYTES_DIR_ORIGINAL]	= IP_CT_DIR_ORIGINAL,
		[XT_CONNBYTES_DIR_REPLY]	= IP_CT_DIR_REPLY,
		[XT_CONNBYTES_DIR_BOTH]		= -1,
	};
	const struct xt_connbytes_info *c = data;
	uint64_t from = c->count.from, to = c->count.to;
	struct expr *ct;

	if (c->what > XT_CONNBYTES_AVGPKT ||
	    c->direction > XT_CONNBYTES_DIR_BOTH)
		return xl_error(r, "connbytes: bad mode or direction");
	ct = xl_ct(LOC, keys[c->what], dirs[c->direction]);
	if (to >= from) {
		if (to == UINT64_MAX)
			xl_match(r, ct, OP_GTE, xl_sym(LOC, "%" PRIu64, from));
		else
			xl_match_range(r, ct, from, to, false);
		return 0;
	}
	if (from == UINT64_MAX)
		xl_match(r, ct, OP_LT, xl_sym(LOC, "%" PRIu64, to));
	else
		xl_match_range(r, ct, to, from, true);
	return 0;
}

/*
 * connlabel: bit set; with --set the bit is set first, and the match
 * then always succeeds (never with "!").
 */
int xl_map_connlabel(struct xl_rule *r, const void *data)
{
	const struct xt_connlabel_mtinfo *c = data;
	bool inv = c->options & XT_CONNLABEL_OP_INVERT;
	struct stmt *s;

	if (!(c->options & XT_CONNLABEL_OP_SET)) {
		xl_match_inv(r, xl_ct(LOC, NFT_CT_LABELS, -1), inv,
			     xl_sym(LOC, "%u", c->bit));
		return 0;
	}
	s = stmt_alloc(LOC, STMT_CT);
	s->ct.key = NFT_CT_LABELS;
	s->ct.direction = -1;
	s->ct.expr = xl_sym(LOC, "%u", c->bit);
	xl_add_stmt(r, s);
	if (inv)	/* set, then a test that cannot hold */
		xl_match(r, xl_binop(LOC, OP_AND,
				     xl_ct(LOC, NFT_CT_LABELS, -1),
				     xl_sym(LOC, "%u", c->bit)),
			 OP_NEQ, xl_sym(LOC, "%u", c->bit));
	return 0;
}

static void port_range(struct xl_rule *r, const struct proto_desc *d,
		       const char *field, const uint16_t *pts, bool inv)
{
	xl_match_range(r, xl_payload(LOC, d, field), pts[0], pts[1], inv);
}

/* dccp packet types by number, as nft names them */
static const char *const dccp_type_names[] = {
	"request", "response", "data", "ack", "dataack", "closereq",
	"close", "reset", "sync", "syncack",
};

int xl_map_dccp(struct xl_rule *r, const void *data)
{
	const struct xt_dccp_info *d = data;
	struct expr *set = NULL, *e;
	unsigned int t, n = 0;

	if (d->flags & XT_DCCP_SRC_PORTS)
		port_range(r, &proto_dccp, "sport", d->spts,
			   d->invflags & XT_DCCP_SRC_PORTS);
	if (d->flags & XT_DCCP_DEST_PORTS)
		port_range(r, &proto_dccp, "dport", d->dpts,
			   d->invflags & XT_DCCP_DEST_PORTS);
	if (d->flags & XT_DCCP_OPTION)
		return xl_error(r, "dccp --dccp-option cannot be expressed in "
				"nftables 1.0.6");
	if (!(d->flags & XT_DCCP_TYPE))
		return 0;
	/* the type is 4 bits: bits 10-15 of the mask are one range */
	for (t = 0; t < 16; t++) {
		unsigned int hi = t;

		if (!(d->typemask & (1U << t)))
			continue;
		if (t >= 10) {
			while (hi + 1 < 16 && (d->typemask & (1U << (hi + 1))))
				hi++;
			e = xl_range(LOC, t, hi, "%" PRIu64);
			t = hi;
		} else {
			e = xl_sym(LOC, "%s", dccp_type_names[t]);
		}
		set = xl_set_add(set, e);
		n++;
	}
	if (!set)
		return xl_error(r, "dccp: empty type list never matches");
	if (n == 1) {
		e = list_first_entry(&set->expressions, struct expr, list);
		e = expr_get(e->elem.key);
		expr_free(set);
		set = e;
	}
	xl_match_inv(r, xl_payload(LOC, &proto_dccp, "type"),
		     d->invflags & XT_DCCP_TYPE, set);
	return 0;
}

/*
 * sctp --chunk-types (xt_sctp's match_packet): the chunks are walked
 * once; "all" wants each listed type seen in some chunk whose flags
 * match, "any" one such chunk, "only" no chunk of an unlisted type nor a
 * listed one with other flags; non-first fragments never match. nft's
 * "sctp chunk T" looks at the first chunk of type T only, knows 18 types
 * by name, and "missing" holds on a non-first fragment. (xt_sctp also
 * drops malformed chunk lists outright, as xt_tcpudp does with TCP
 * options: not modelled, as for tcp --tcp-option.)
 */
static const struct exthdr_desc *sctp_chunk_desc(unsigned int type)
{
	unsigned int i;

	for (i = 0; exthdr_sctp_descs[i]; i++) {
		if (exthdr_sctp_descs[i]->type == type)
			return exthdr_sctp_descs[i];
	}
	return NULL;
}

/* the flags wanted for chunks of @type: the first entry, as xt_sctp */
static const struct xt_sctp_flag_info *
sctp_chunk_flags(const struct xt_sctp_info *s, unsigned int type)
{
	int i;

	for (i = 0; i < s->flag_count && i < XT_NUM_SCTP_FLAGS; i++) {
		if (s->flag_info[i].chunktype == type)
			return &s->flag_info[i];
	}
	return NULL;
}

static struct expr *sctp_chunk_field(struct xl_rule *r,
				     const struct exthdr_desc *d,
				     const char *field)
{
	return exthdr_expr_alloc(LOC, d, exthdr_field_lookup(d, field),
				 NFT_EXTHDR_OP_SCTP);
}

static void sctp_chunk_match(struct xl_rule *r, const struct exthdr_desc *d,
			     const struct xt_sctp_flag_info *f, bool missing)
{
	struct expr *e;

	if (f) {
		xl_match(r, xl_binop(LOC, OP_AND,
				     sctp_chunk_field(r, d, "flags"),
				     xl_sym(LOC, "0x%x", f->flag_mask)),
			 OP_EQ, xl_sym(LOC, "0x%x", f->flag));
		return;
	}
	e = sctp_chunk_field(r, d, "type");
	if (e) {
		e->exthdr.flags = NFT_EXTHDR_F_PRESENT;
		e->dtype = &boolean_type;
	}
	xl_match(r, e, OP_IMPLICIT, xl_sym(LOC, missing ? "missing" :
					   "exists"));
}

static int sctp_chunk_types(struct xl_rule *r, const struct xt_sctp_info *s)
{
	bool inv = s->invflags & XT_SCTP_CHUNK_TYPES;
	const char *flagged = NULL;
	unsigned int t, n = 0;

	for (t = 0; t < 256; t++) {
		if (!SCTP_CHUNKMAP_IS_SET(s->chunkmap, t))
			continue;
		if (!sctp_chunk_desc(t))
			return xl_error(r, "sctp --chunk-types: nftables "
					"has no name for chunk type %u", t);
		if (sctp_chunk_flags(s, t) && !flagged)
			flagged = sctp_chunk_desc(t)->name;
		n++;
	}
	switch (s->chunk_match_type) {
	case SCTP_CHUNK_MATCH_ONLY:
		return xl_error(r, "sctp --chunk-types only: nftables cannot "
				"test that no chunk of another type is present "
				"(it names 18 of the 256 chunk types)");
	case SCTP_CHUNK_MATCH_ANY:
		/* inverted: none of them, i.e. each one missing */
		if (!inv && n > 1)
			return xl_error(r, "sctp --chunk-types any with %u "
					"types: one rule cannot test for one "
					"of several chunks", n);
		if (!inv && !n)
			return xl_error(r, "sctp --chunk-types any without "
					"types never matches");
		break;
	case SCTP_CHUNK_MATCH_ALL:
		if (inv && n > 1)
			return xl_error(r, "sctp ! --chunk-types all with %u "
					"types: one rule cannot test that one "
					"of several chunks is missing", n);
		if (inv && !n)
			return xl_error(r, "sctp ! --chunk-types all without "
					"types never matches");
		break;
	default:
		return xl_error(r, "sctp --chunk-types: unknown match type "
				"%u", s->chunk_match_type);
	}
	if (inv && flagged)
		return xl_error(r, "sctp ! --chunk-types with flags (%s): one "
				"rule cannot test for a missing chunk or one "
				"with other flags", flagged);
	for (t = 0; t < 256; t++) {
		if (SCTP_CHUNKMAP_IS_SET(s->chunkmap, t))
			sctp_chunk_match(r, sctp_chunk_desc(t),
					 sctp_chunk_flags(s, t), inv);
	}
	/* "missing" holds on any packet that is not SCTP */
	if (inv)
		r->proto_needed = true;
	if (flagged) {
		xl_warn(r, "sctp --chunk-types: nftables tests the flags of "
			"the first %s chunk only, xt_sctp those of each %s "
			"chunk", flagged, flagged);
		r->inexact = true;
	}
	if (inv && n) {
		xl_warn(r, "sctp ! --chunk-types: \"sctp chunk ... missing\" "
			"also holds on non-first fragments, which xt_sctp "
			"never matches");
		r->inexact = true;
	}
	return 0;
}

int xl_map_sctp(struct xl_rule *r, const void *data)
{
	const struct xt_sctp_info *s = data;

	if (s->flags & XT_SCTP_SRC_PORTS)
		port_range(r, &proto_sctp, "sport", s->spts,
			   s->invflags & XT_SCTP_SRC_PORTS);
	if (s->flags & XT_SCTP_DEST_PORTS)
		port_range(r, &proto_sctp, "dport", s->dpts,
			   s->invflags & XT_SCTP_DEST_PORTS);
	if (s->flags & XT_SCTP_CHUNK_TYPES)
		return sctp_chunk_types(r, s);
	return 0;
}

/* ECN: the IP field's two bits; CWR/ECE are TCP flags. */
int xl_map_ecn(struct xl_rule *r, const void *data)
{
	static const char *const ect[] = { "not-ect", "ect1", "ect0", "ce" };
	const struct xt_ecn_info *e = data;
	static const struct {
		uint8_t		op;
		const char	*flag;
	} tcp[] = {
		{ XT_ECN_OP_MATCH_ECE, "ecn" },
		{ XT_ECN_OP_MATCH_CWR, "cwr" },
	};
	unsigned int i;

	if (e->operation & XT_ECN_OP_MATCH_IP)
		xl_match_inv(r, xl_payload(LOC, xl_l3_desc(r), "ecn"),
			     e->invert & XT_ECN_OP_MATCH_IP,
			     xl_sym(LOC, "%s", ect[e->ip_ect & 3]));
	for (i = 0; i < sizeof(tcp) / sizeof(tcp[0]); i++) {
		if (!(e->operation & tcp[i].op))
			continue;
		if (e->invert & tcp[i].op)	/* the flag is clear */
			xl_match(r, xl_binop(LOC, OP_AND,
					     xl_payload(LOC, &proto_tcp,
							"flags"),
					     xl_sym(LOC, "%s", tcp[i].flag)),
				 OP_NEQ, xl_sym(LOC, "%s", tcp[i].flag));
		else
			xl_match(r, xl_payload(LOC, &proto_tcp, "flags"),
				 OP_IMPLICIT, xl_sym(LOC, "%s", tcp[i].flag));
	}
	return 0;
}

/*
 * rpfilter: a route back to the source exists through the interface
 * the packet came in on (any interface with --loose), with the mark of
 * the packet with --validmark.
 */
int xl_map_rpfilter(struct xl_rule *r, const void *data)
{
	const struct xt_rpfilter_info *i = data;
	uint32_t flags = NFTA_FIB_F_SADDR;

	if (i->flags & XT_RPFILTER_ACCEPT_LOCAL)
		return xl_error(r, "rpfilter --accept-local cannot be "
				"expressed in one nftables rule");
	if (i->flags & XT_RPFILTER_VALID_MARK)
		flags |= NFTA_FIB_F_MARK;
	if (!(i->flags & XT_RPFILTER_LOOSE))
		flags |= NFTA_FIB_F_IIF;
	xl_match(r, fib_expr_alloc(LOC, flags, NFT_FIB_RESULT_OIF),
		 i->flags & XT_RPFILTER_INVERT ? OP_IMPLICIT : OP_NEQ,
		 xl_sym(LOC, "0"));
	return 0;
}

/* "lhs & keep ^ flip" in its shortest form; NULL when it is lhs itself */
static struct expr *keep_flip(struct xl_rule *r, struct expr *lhs,
			      uint32_t keep, uint32_t flip, uint32_t all,
			      const char *fmt)
{
	if (keep == all && !flip) {
		expr_free(lhs);
		return NULL;
	}
	if (!keep) {
		expr_free(lhs);
		return xl_sym(LOC, fmt, flip);
	}
	if (keep != all)
		lhs = xl_binop(LOC, OP_AND, lhs, xl_sym(LOC, fmt, keep));
	if (flip)
		lhs = xl_binop(LOC, OP_XOR, lhs, xl_sym(LOC, fmt, flip));
	return lhs;
}

static void payload_set(struct xl_rule *r, struct expr *lhs,
			struct expr *val)
{
	struct stmt *s = stmt_alloc(LOC, STMT_PAYLOAD);

	s->payload.lhs = lhs;
	s->payload.val = val;
	xl_add_stmt(r, s);
}

/*
 * TOS target: tos = (tos & ~mask) ^ value over the whole byte (IPv6:
 * the traffic class), DSCP and ECN bits alike. nft sets the DSCP and
 * ECN fields only to constants; a partial change of a field is written
 * on the raw bytes for IPv6 (no header checksum) and is refused for
 * IPv4, where a raw write would leave the header checksum stale.
 */
int xl_map_tos_tg(struct xl_rule *r, const void *data)
{
	const struct xt_tos_target_info *t = data;
	uint8_t keep = ~t->tos_mask, flip = t->tos_value;
	uint8_t dkeep = keep >> 2, dflip = flip >> 2;
	uint8_t ekeep = keep & 3, eflip = flip & 3;
	const struct proto_desc *d = xl_l3_desc(r);
	struct expr *v;

	if ((dkeep == 0 || dkeep == 0x3f) && (ekeep == 0 || ekeep == 3)) {
		v = keep_flip(r, xl_payload(LOC, d, "dscp"), dkeep, dflip,
			      0x3f, "0x%02x");
		if (v)
			payload_set(r, xl_payload(LOC, d, "dscp"), v);
		v = keep_flip(r, xl_payload(LOC, d, "ecn"), ekeep, eflip, 3,
			      "%u");
		if (v)
			payload_set(r, xl_payload(LOC, d, "ecn"), v);
		return 0;
	}
	if (r->ctx->family != NFPROTO_IPV6)
		return xl_error(r, "TOS --set-tos 0x%02x/0x%02x changes part of "
				"the DSCP or ECN bits: nftables can set them "
				"only to constants in IPv4",
				t->tos_value, t->tos_mask);
	/* version(4) traffic class(8) flow label(4 of 20): bits 4-11 */
	v = keep_flip(r, payload_raw_alloc(LOC, PROTO_BASE_NETWORK_HDR, 0, 16),
		      0xf00f | (keep << 4), flip << 4, 0xffff, "0x%04x");
	payload_set(r, payload_raw_alloc(LOC, PROTO_BASE_NETWORK_HDR, 0, 16),
		    v);
	return 0;
}

/*
 * CHECKSUM --checksum-fill computes the checksum of packets whose
 * checksum is left to the NIC (CHECKSUM_PARTIAL), for old DHCP clients
 * in virtual machines. nftables has no such action; the packet itself
 * and the verdict are unchanged, so the rule keeps its matches and
 * counter and loses the action, with a warning.
 */
int xl_map_checksum(struct xl_rule *r, const void *data)
{
	xl_warn(r, "CHECKSUM --checksum-fill has no nftables equivalent: "
		"translated without the action (the verdict is unchanged)");
	r->inexact = true;
	return 0;
}
