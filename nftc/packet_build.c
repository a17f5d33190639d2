// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packets from selectors (packet_build.h): the VM code of one compiled
 * rule read as constraints, then headers built around them.
 *
 * Registers are tracked as the VM lays them out (32-bit words, NFT_REG_n
 * is word 4n, NFT_REG32_nn word 4 + nn): a load records where its value
 * came from at its first word, a bitwise records the mask, and a compare
 * (or a range, or a lookup in an anonymous set of the same batch) writes
 * the value it wants back to the source, word by word for concatenations.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "packet_build.h"
#include "proto.h"

#define REG_WORDS	24

enum reg_src {
	SRC_NONE,
	SRC_PAYLOAD,
	SRC_META,
	SRC_CT,
	SRC_CHUNK,	/* an sctp chunk: base its type, off in the chunk */
	SRC_TCPOPT,	/* a tcp option: base its kind, off in the option */
	SRC_RT,		/* the route: base the rt key */
	SRC_OTHER,	/* a load no packet is built for */
};

/**
 * struct reg_val - where the value in a register came from
 * @len: bytes loaded; @mask: a bitwise's mask over them, if @masked
 */
struct reg_val {
	enum reg_src	src;
	uint32_t	base;		/* payload base, meta or ct key */
	uint32_t	off;
	uint32_t	len;
	bool		masked;
	bool		present;	/* SRC_CHUNK, SRC_TCPOPT: F_PRESENT */
	uint8_t		mask[16];
};

#define SCTP_CHUNKS_MAX	8
#define TCPOPTS_MAX	8
#define TCPOPT_ROOM	40	/* 60-byte header, 20 fixed */

/* a tcp option the selectors ask for, built into the SYN's options */
struct tcpopt {
	uint8_t		kind;
	uint8_t		size;		/* length byte, kind and length in */
	bool		missing;
	uint8_t		val[TCPOPT_ROOM];
	uint8_t		set[TCPOPT_ROOM];
};

struct solver {
	struct pkt_spec		*ps;
	struct nftnl_set_list	*sets;
	struct reg_val		regs[REG_WORDS];
	/* sctp chunks placed after the common header, and those refused */
	struct {
		uint8_t		type;
		uint8_t		off;	/* in the transport header */
		bool		missing;
	}			chunks[SCTP_CHUNKS_MAX];
	unsigned int		nchunks;
	struct tcpopt		opts[TCPOPTS_MAX];
	unsigned int		nopts;
	char			*err;
	size_t			errlen;
	int			failed;
};

/* One row per meta key that lives in struct nftvm_pktmeta. */
static const struct meta_field {
	uint32_t	key;
	size_t		off;
	unsigned int	size;
} meta_fields[] = {
	{ NFT_META_MARK,	offsetof(struct nftvm_pktmeta, mark),	  4 },
	{ NFT_META_PRIORITY,	offsetof(struct nftvm_pktmeta, priority), 4 },
	{ NFT_META_IIF,		offsetof(struct nftvm_pktmeta, iif),	  4 },
	{ NFT_META_OIF,		offsetof(struct nftvm_pktmeta, oif),	  4 },
	{ NFT_META_IIFNAME,	offsetof(struct nftvm_pktmeta, iifname), 16 },
	{ NFT_META_OIFNAME,	offsetof(struct nftvm_pktmeta, oifname), 16 },
	{ NFT_META_IIFTYPE,	offsetof(struct nftvm_pktmeta, iiftype),  2 },
	{ NFT_META_OIFTYPE,	offsetof(struct nftvm_pktmeta, oiftype),  2 },
	{ NFT_META_IIFGROUP,	offsetof(struct nftvm_pktmeta, iifgroup), 4 },
	{ NFT_META_OIFGROUP,	offsetof(struct nftvm_pktmeta, oifgroup), 4 },
	{ NFT_META_SKUID,	offsetof(struct nftvm_pktmeta, skuid),	  4 },
	{ NFT_META_SKGID,	offsetof(struct nftvm_pktmeta, skgid),	  4 },
	{ NFT_META_CGROUP,	offsetof(struct nftvm_pktmeta, cgroup),	  4 },
	{ NFT_META_SECMARK,	offsetof(struct nftvm_pktmeta, secmark),  4 },
	{ NFT_META_PKTTYPE,	offsetof(struct nftvm_pktmeta, pkttype),  1 },
	{ NFT_META_NFTRACE,	offsetof(struct nftvm_pktmeta, nftrace),  1 },
	{ NFT_META_CPU,		offsetof(struct nftvm_pktmeta, cpu),	  4 },
	{ NFT_META_SECPATH,	offsetof(struct nftvm_pktmeta, secpath),  1 },
};

/* One row per ct key that lives in struct nftvm_pktmeta ("ct state" apart). */
static const struct meta_field ct_fields[] = {
	{ NFT_CT_STATUS,	offsetof(struct nftvm_pktmeta, ct_status),  4 },
	{ NFT_CT_MARK,		offsetof(struct nftvm_pktmeta, ct_mark),    4 },
	{ NFT_CT_SECMARK,	offsetof(struct nftvm_pktmeta, ct_secmark), 4 },
	{ NFT_CT_EXPIRATION,	offsetof(struct nftvm_pktmeta, ct_expiration), 4 },
	{ NFT_CT_ID,		offsetof(struct nftvm_pktmeta, ct_id),	    4 },
	{ NFT_CT_DIRECTION,	offsetof(struct nftvm_pktmeta, ct_dir),	    1 },
	{ NFT_CT_ZONE,		offsetof(struct nftvm_pktmeta, ct_zone),    2 },
	{ NFT_CT_LABELS,	offsetof(struct nftvm_pktmeta, ct_labels), 16 },
	{ NFT_CT_HELPER,	offsetof(struct nftvm_pktmeta, ct_helper), 16 },
	{ NFT_CT_PROTOCOL,	offsetof(struct nftvm_pktmeta, ct_protonum), 1 },
	{ NFT_CT_L3PROTOCOL,	offsetof(struct nftvm_pktmeta, ct_l3num),   1 },
};

static int fail(struct solver *s, const char *what)
{
	if (!s->failed)
		snprintf(s->err, s->errlen, "%s", what);
	s->failed = -1;
	return -1;
}

static int reg_word(uint32_t reg)
{
	if (reg >= NFT_REG_1 && reg <= NFT_REG_4)
		return (int)reg * 4;
	if (reg >= NFT_REG32_00 && reg <= NFT_REG32_15)
		return (int)(reg - NFT_REG32_00) + 4;
	return -1;
}

static struct reg_val *reg_at(struct solver *s, struct nftnl_expr *e,
			      uint16_t attr)
{
	int w = reg_word(nftnl_expr_get_u32(e, attr));

	return w < 0 ? NULL : &s->regs[w];
}

/* dst = (dst & ~mask) | (src & mask); @set records the bits fixed */
static void merge(uint8_t *dst, uint8_t *set, const uint8_t *src,
		  const struct reg_val *r, unsigned int n)
{
	unsigned int i;
	uint8_t m;

	for (i = 0; i < n; i++) {
		m = r->masked && i < sizeof(r->mask) ? r->mask[i] : 0xff;
		dst[i] = (uint8_t)((dst[i] & ~m) | (src[i] & m));
		if (set)
			set[i] |= m;
	}
}

static void put_meta(struct solver *s, const struct reg_val *r,
		     const uint8_t *v)
{
	struct pkt_spec *ps = s->ps;
	uint16_t ethertype;
	size_t i;

	switch (r->base) {
	case NFT_META_L4PROTO:
		ps->l4proto = v[0];
		return;
	case NFT_META_NFPROTO:
		ps->nfproto = v[0];
		return;
	case NFT_META_LEN:
		memcpy(&ps->len, v, 4);
		return;
	case NFT_META_PROTOCOL:
		memcpy(&ethertype, v, 2);
		ps->ethertype = ntohs(ethertype);
		if (ps->ethertype == 0x86dd)
			ps->nfproto = NFPROTO_IPV6;
		else if (ps->ethertype == 0x0800)
			ps->nfproto = NFPROTO_IPV4;
		return;
	}
	for (i = 0; i < sizeof(meta_fields) / sizeof(meta_fields[0]); i++) {
		if (meta_fields[i].key != r->base)
			continue;
		merge((uint8_t *)&ps->meta + meta_fields[i].off, NULL, v, r,
		      r->len < meta_fields[i].size ? r->len :
						     meta_fields[i].size);
		if (r->base == NFT_META_SKUID || r->base == NFT_META_SKGID)
			ps->meta.sk_valid = true;
		return;
	}
}

/*
 * A ct key: "ct state" bits are or-ed (established,related lists), the
 * other keys are stored where the VM's ct expression reads them. A
 * packet that a non-state ct key is asked of has a conntrack entry:
 * established, unless a "ct state" says otherwise.
 */
static void put_ct(struct solver *s, const struct reg_val *r,
		   const uint8_t *v)
{
	struct pkt_spec *ps = s->ps;
	uint32_t state;
	size_t i;

	if (r->base == NFT_CT_STATE) {
		memcpy(&state, v, 4);
		ps->ct_state |= state;
		return;
	}
	for (i = 0; i < sizeof(ct_fields) / sizeof(ct_fields[0]); i++) {
		if (ct_fields[i].key != r->base)
			continue;
		merge((uint8_t *)&ps->meta + ct_fields[i].off, NULL, v, r,
		      r->len < ct_fields[i].size ? r->len :
						   ct_fields[i].size);
		ps->ct_other = true;
		return;
	}
	fail(s, "this ct key cannot be traced");
}

/*
 * SCTP chunks are laid out after the 12-byte common header in the order
 * the selectors name them, each as long as its longest field, so that
 * the walk finds every one; "missing" keeps a type out.
 */
static unsigned int chunk_size(uint8_t type)
{
	const struct exthdr_desc *const *d;
	unsigned int k, end = 32;

	for (d = exthdr_sctp_descs; *d; d++) {
		if ((*d)->type != type)
			continue;
		for (k = 1; k < sizeof((*d)->templates) /
				sizeof((*d)->templates[0]); k++) {
			const struct proto_hdr_template *t =
				&(*d)->templates[k];

			if (t->token && t->offset + t->len > end)
				end = t->offset + t->len;
		}
	}
	return (end / 8 + 3) & ~3u;
}

static int chunk_find(struct solver *s, uint8_t type)
{
	unsigned int i;

	for (i = 0; i < s->nchunks; i++) {
		if (s->chunks[i].type == type)
			return (int)i;
	}
	if (s->nchunks == SCTP_CHUNKS_MAX)
		return fail(s, "too many sctp chunks to trace");
	s->chunks[s->nchunks].type = type;
	s->chunks[s->nchunks].off = 0;
	s->chunks[s->nchunks].missing = false;
	return (int)s->nchunks++;
}

static void put_chunk(struct solver *s, const struct reg_val *r,
		      const uint8_t *v)
{
	struct pkt_spec *ps = s->ps;
	unsigned int off, size = chunk_size((uint8_t)r->base);
	int i = chunk_find(s, (uint8_t)r->base);

	if (i < 0)
		return;
	if (ps->l4proto >= 0 && ps->l4proto != IPPROTO_SCTP) {
		fail(s, "sctp chunks are only in sctp packets");
		return;
	}
	ps->l4proto = IPPROTO_SCTP;
	if (r->present && !v[0]) {
		if (s->chunks[i].off)
			fail(s, "an sctp chunk both present and missing");
		s->chunks[i].missing = true;
		return;
	}
	if (s->chunks[i].missing) {
		fail(s, "an sctp chunk both present and missing");
		return;
	}
	if (!s->chunks[i].off) {
		off = ps->th_len > 12 ? ps->th_len : 12;
		if (off + size > PKT_HDR_MAX) {
			fail(s, "sctp chunks beyond what trace builds");
			return;
		}
		s->chunks[i].off = (uint8_t)off;
		ps->th[off] = (uint8_t)r->base;
		ps->th[off + 2] = (uint8_t)(size >> 8);
		ps->th[off + 3] = (uint8_t)size;
		memset(ps->th_set + off, 0xff, 4);
		ps->th_len = off + size;
	}
	if (!r->present)
		merge(ps->th + s->chunks[i].off + r->off,
		      ps->th_set + s->chunks[i].off + r->off, v, r, r->len);
}

/*
 * TCP options, as a SYN carries them: each as long as its kind is
 * (maximum segment size 4, window scale 3, SACK permitted 2, timestamps
 * 10, a SACK with one block 10), others as far as the selectors read.
 */
static const uint8_t tcpopt_sizes[] = {
	[2] = 4, [3] = 3, [4] = 2, [5] = 10, [8] = 10,
};

/* the order Linux writes a SYN's options in: mss, sack-perm, ts, ws */
static const uint8_t tcpopt_order[] = { 2, 4, 8, 3, 5 };

static int tcpopt_find(struct solver *s, uint8_t kind)
{
	unsigned int i;

	for (i = 0; i < s->nopts; i++) {
		if (s->opts[i].kind == kind)
			return (int)i;
	}
	if (s->nopts == TCPOPTS_MAX)
		return fail(s, "too many tcp options to trace");
	memset(&s->opts[s->nopts], 0, sizeof(s->opts[0]));
	s->opts[s->nopts].kind = kind;
	s->opts[s->nopts].size = kind < sizeof(tcpopt_sizes) &&
				 tcpopt_sizes[kind] ? tcpopt_sizes[kind] : 2;
	/* values a SYN would carry where no selector says */
	if (kind == 2) {
		s->opts[s->nopts].val[2] = 1460 >> 8;
		s->opts[s->nopts].val[3] = 1460 & 0xff;
	} else if (kind == 3) {
		s->opts[s->nopts].val[2] = 7;
	} else if (kind == 8) {
		s->opts[s->nopts].val[5] = 1;		/* tsval */
	}
	return (int)s->nopts++;
}

static void put_tcpopt(struct solver *s, const struct reg_val *r,
		       const uint8_t *v)
{
	struct pkt_spec *ps = s->ps;
	int i = tcpopt_find(s, (uint8_t)r->base);
	struct tcpopt *o;

	if (i < 0)
		return;
	o = &s->opts[i];
	if (ps->l4proto >= 0 && ps->l4proto != IPPROTO_TCP) {
		fail(s, "tcp options are only in tcp packets");
		return;
	}
	ps->l4proto = IPPROTO_TCP;
	if (r->present) {
		o->missing = !v[0];
		return;
	}
	if (r->off + r->len > TCPOPT_ROOM) {
		fail(s, "tcp option field beyond what trace builds");
		return;
	}
	if (r->off + r->len > o->size)
		o->size = (uint8_t)(r->off + r->len);
	merge(o->val + r->off, o->set + r->off, v, r, r->len);
}

/* The options after the fixed header, NOPs to a multiple of 4 bytes. */
static void tcpopt_layout(struct solver *s)
{
	struct pkt_spec *ps = s->ps;
	uint8_t area[TCPOPT_ROOM], done[TCPOPTS_MAX] = { 0 };
	unsigned int i, k, n = 0, pad;
	struct tcpopt *o;

	for (k = 0; k <= sizeof(tcpopt_order); k++) {
		for (i = 0; i < s->nopts; i++) {
			o = &s->opts[i];
			if (done[i] || o->missing ||
			    (k < sizeof(tcpopt_order) &&
			     o->kind != tcpopt_order[k]))
				continue;
			done[i] = 1;
			/* window scale ends the area, NOPs before it */
			pad = o->kind == 3 ? (4 - (n + o->size) % 4) % 4 : 0;
			if (n + pad + o->size > sizeof(area)) {
				fail(s, "tcp options beyond 40 bytes");
				return;
			}
			memset(area + n, 1, pad);
			n += pad;
			memcpy(area + n, o->val, o->size);
			area[n] = o->kind;
			area[n + 1] = o->size;
			n += o->size;
		}
	}
	if (!n)
		return;
	pad = (4 - n % 4) % 4;
	if (n + pad > sizeof(area)) {
		fail(s, "tcp options beyond 40 bytes");
		return;
	}
	memset(area + n, 1, pad);
	n += pad;
	memcpy(ps->th + 20, area, n);
	memset(ps->th_set + 20, 0xff, n);
	if (ps->th_len < 20 + n)
		ps->th_len = 20 + n;
	ps->th[12] = (uint8_t)((ps->th[12] & 0x0f) | (((20 + n) / 4) << 4));
	ps->th_set[12] |= 0xf0;
}

/* "rt ..." selectors: the packet has a route that answers so */
static void put_rt(struct solver *s, const struct reg_val *r,
		   const uint8_t *v)
{
	struct pkt_spec *ps = s->ps;
	uint16_t mss;

	ps->rt_asked = true;
	switch (r->base) {
	case NFT_RT_CLASSID:
		merge((uint8_t *)&ps->meta.rt_classid, NULL, v, r, 4);
		return;
	case NFT_RT_NEXTHOP4:
		merge(ps->meta.rt_nexthop, NULL, v, r, 4);
		return;
	case NFT_RT_NEXTHOP6:
		merge(ps->meta.rt_nexthop, NULL, v, r, 16);
		return;
	case NFT_RT_TCPMSS:
		memcpy(&mss, v, 2);
		ps->rt_mss = mss;	/* the VM's register: host order */
		return;
	case NFT_RT_XFRM:
		ps->meta.rt_xfrm = v[0];
		return;
	}
	fail(s, "this rt key cannot be traced");
}

/* Give the source of @r the value @v (r->len bytes). */
static void put(struct solver *s, const struct reg_val *r, const uint8_t *v)
{
	struct pkt_spec *ps = s->ps;

	switch (r->src) {
	case SRC_PAYLOAD:
		if (r->off + r->len > PKT_HDR_MAX) {
			fail(s, "header field beyond what trace builds");
			return;
		}
		if (r->base == NFT_PAYLOAD_NETWORK_HEADER) {
			merge(ps->nh + r->off, ps->nh_set + r->off, v, r,
			      r->len);
			if (r->off + r->len > ps->nh_len)
				ps->nh_len = r->off + r->len;
		} else if (r->base == NFT_PAYLOAD_TRANSPORT_HEADER) {
			merge(ps->th + r->off, ps->th_set + r->off, v, r,
			      r->len);
			if (r->off + r->len > ps->th_len)
				ps->th_len = r->off + r->len;
		} else if (r->base == NFT_PAYLOAD_LL_HEADER &&
			   r->off + r->len <= PKT_LL_MAX) {
			merge(ps->ll + r->off, ps->ll_set + r->off, v, r,
			      r->len);
			if (r->off + r->len > ps->ll_len)
				ps->ll_len = r->off + r->len;
		} else {
			fail(s, "only link, network and transport header "
				"fields can be traced");
		}
		return;
	case SRC_META:
		put_meta(s, r, v);
		return;
	case SRC_CT:
		put_ct(s, r, v);
		return;
	case SRC_CHUNK:
		put_chunk(s, r, v);
		return;
	case SRC_TCPOPT:
		put_tcpopt(s, r, v);
		return;
	case SRC_RT:
		put_rt(s, r, v);
		return;
	case SRC_OTHER:
		fail(s, "this selector cannot be traced");
		return;
	case SRC_NONE:
		return;
	}
}

/* A value for the register(s) from word @w on: concatenations too. */
static void put_words(struct solver *s, int w, const uint8_t *v,
		      unsigned int len)
{
	unsigned int done = 0, n;
	uint8_t tmp[16];

	while (done < len && w < REG_WORDS) {
		const struct reg_val *r = &s->regs[w];

		if (r->src == SRC_NONE || !r->len)
			return;
		n = r->len < sizeof(tmp) ? r->len : sizeof(tmp);
		memset(tmp, 0, sizeof(tmp));
		memcpy(tmp, v + done, n <= len - done ? n : len - done);
		put(s, r, tmp);
		done += (r->len + 3) & ~3u;
		w += (int)((r->len + 3) / 4);
	}
}

static void do_cmp(struct solver *s, struct nftnl_expr *e)
{
	int w = reg_word(nftnl_expr_get_u32(e, NFTNL_EXPR_CMP_SREG));
	uint32_t op = nftnl_expr_get_u32(e, NFTNL_EXPR_CMP_OP), len, i;
	const uint8_t *d = nftnl_expr_get(e, NFTNL_EXPR_CMP_DATA, &len);
	uint8_t v[64];
	bool zero = true;

	if (w < 0 || !d || len > sizeof(v))
		return;
	memcpy(v, d, len);
	for (i = 0; i < len; i++)
		zero &= !v[i];
	switch (op) {
	case NFT_CMP_EQ:
	case NFT_CMP_LTE:
	case NFT_CMP_GTE:
		break;
	case NFT_CMP_NEQ:
		/* "flag set": (x & m) != 0 wants the bits of m */
		if (!zero || !s->regs[w].masked)
			return;
		memcpy(v, s->regs[w].mask, len < 16 ? len : 16);
		break;
	case NFT_CMP_GT:
		/* big-endian increment: the smallest value above */
		for (i = len; i-- > 0 && ++v[i] == 0;)
			;
		break;
	case NFT_CMP_LT:
		for (i = len; i-- > 0 && v[i]-- == 0;)
			;
		break;
	default:
		return;
	}
	put_words(s, w, v, len);
}

static void do_range(struct solver *s, struct nftnl_expr *e)
{
	int w = reg_word(nftnl_expr_get_u32(e, NFTNL_EXPR_RANGE_SREG));
	uint32_t len;
	const uint8_t *d = nftnl_expr_get(e, NFTNL_EXPR_RANGE_FROM_DATA,
					  &len);

	if (w >= 0 && d &&
	    nftnl_expr_get_u32(e, NFTNL_EXPR_RANGE_OP) == NFT_RANGE_EQ)
		put_words(s, w, d, len);
}

/* The first element (a range's start) of the set a lookup names. */
static void do_lookup(struct solver *s, struct nftnl_expr *e)
{
	int w = reg_word(nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_SREG));
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET);
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *el;
	struct nftnl_set *set;
	const void *key;
	uint32_t len;

	if (w < 0 || !name || !s->sets ||
	    (nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_FLAGS) &&
	     nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_FLAGS) &
	     NFT_LOOKUP_F_INV))
		return;
	set = nftnl_set_list_lookup_byname(s->sets, name);
	if (!set) {
		fail(s, "selector names a set: only sets written in the "
			"selectors ({ ... }) can be traced");
		return;
	}
	it = nftnl_set_elems_iter_create(set);
	while (it && (el = nftnl_set_elems_iter_next(it))) {
		if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_FLAGS) &&
		    (nftnl_set_elem_get_u32(el, NFTNL_SET_ELEM_FLAGS) &
		     (NFT_SET_ELEM_INTERVAL_END | NFT_SET_ELEM_CATCHALL)))
			continue;
		key = nftnl_set_elem_get(el, NFTNL_SET_ELEM_KEY, &len);
		if (key)
			put_words(s, w, key, len);
		break;
	}
	nftnl_set_elems_iter_destroy(it);
}

/* Loads trace builds nothing for, by their destination register. */
static const struct {
	const char	*name;
	uint16_t	dreg;
} other_loads[] = {
	{ "socket",	NFTNL_EXPR_SOCKET_DREG },
	{ "osf",	NFTNL_EXPR_OSF_DREG },
	{ "fib",	NFTNL_EXPR_FIB_DREG },
	{ "numgen",	NFTNL_EXPR_NG_DREG },
	{ "hash",	NFTNL_EXPR_HASH_DREG },
	{ "xfrm",	NFTNL_EXPR_XFRM_DREG },
};

static void do_exthdr(struct solver *s, struct nftnl_expr *e)
{
	struct reg_val *r;

	if (!nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_DREG))
		return;
	r = reg_at(s, e, NFTNL_EXPR_EXTHDR_DREG);
	if (!r)
		return;
	memset(r, 0, sizeof(*r));
	switch (nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_OP)) {
	case NFT_EXTHDR_OP_SCTP:
		r->src = SRC_CHUNK;
		break;
	case NFT_EXTHDR_OP_TCPOPT:
		r->src = SRC_TCPOPT;
		break;
	default:
		/* IPv6 extension headers and IP options: not built */
		r->src = SRC_OTHER;
		r->len = 4;
		return;
	}
	r->base = nftnl_expr_get_u8(e, NFTNL_EXPR_EXTHDR_TYPE);
	r->off = nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_OFFSET);
	r->len = nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_LEN);
	r->present = nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_FLAGS) &&
		     (nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_FLAGS) &
		      NFT_EXTHDR_F_PRESENT);
	if (r->off + r->len > 255)
		r->src = SRC_OTHER;
}

static void do_load(struct solver *s, struct nftnl_expr *e, const char *name)
{
	struct reg_val *r;
	unsigned int i;

	if (!strcmp(name, "exthdr")) {
		do_exthdr(s, e);
		return;
	}
	if (!strcmp(name, "rt")) {
		r = reg_at(s, e, NFTNL_EXPR_RT_DREG);
		if (!r)
			return;
		memset(r, 0, sizeof(*r));
		r->src = SRC_RT;
		r->base = nftnl_expr_get_u32(e, NFTNL_EXPR_RT_KEY);
		r->len = r->base == NFT_RT_NEXTHOP6 ? 16 :
			 r->base == NFT_RT_TCPMSS ? 2 :
			 r->base == NFT_RT_XFRM ? 1 : 4;
		return;
	}
	for (i = 0; i < sizeof(other_loads) / sizeof(other_loads[0]); i++) {
		if (strcmp(name, other_loads[i].name) ||
		    !nftnl_expr_is_set(e, other_loads[i].dreg))
			continue;
		r = reg_at(s, e, other_loads[i].dreg);
		if (r) {
			memset(r, 0, sizeof(*r));
			r->src = SRC_OTHER;
			r->len = 4;	/* a compare reaches put() */
		}
		return;
	}

	if (!strcmp(name, "payload")) {
		if (!nftnl_expr_is_set(e, NFTNL_EXPR_PAYLOAD_DREG))
			return;
		r = reg_at(s, e, NFTNL_EXPR_PAYLOAD_DREG);
		if (!r)
			return;
		memset(r, 0, sizeof(*r));
		r->src = SRC_PAYLOAD;
		r->base = nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_BASE);
		r->off = nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET);
		r->len = nftnl_expr_get_u32(e, NFTNL_EXPR_PAYLOAD_LEN);
	} else if (!strcmp(name, "meta") || !strcmp(name, "ct")) {
		bool meta = name[0] == 'm';
		uint16_t dreg = meta ? NFTNL_EXPR_META_DREG :
				       NFTNL_EXPR_CT_DREG;

		if (!nftnl_expr_is_set(e, dreg))
			return;
		r = reg_at(s, e, dreg);
		if (!r)
			return;
		memset(r, 0, sizeof(*r));
		r->src = meta ? SRC_META : SRC_CT;
		r->base = nftnl_expr_get_u32(e, meta ? NFTNL_EXPR_META_KEY :
						       NFTNL_EXPR_CT_KEY);
		r->len = r->src == SRC_META &&
			 (r->base == NFT_META_IIFNAME ||
			  r->base == NFT_META_OIFNAME) ? 16 :
			 r->base == NFT_META_L4PROTO ||
			 r->base == NFT_META_NFPROTO ||
			 r->base == NFT_META_PKTTYPE ||
			 r->base == NFT_META_SECPATH ? 1 :
			 r->base == NFT_META_PROTOCOL ? 2 : 4;
	}
}

static void do_bitwise(struct solver *s, struct nftnl_expr *e)
{
	int sw = reg_word(nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_SREG));
	int dw = reg_word(nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_DREG));
	const void *mask;
	uint32_t len = 0;

	if (sw < 0 || dw < 0)
		return;
	if (nftnl_expr_is_set(e, NFTNL_EXPR_BITWISE_OP) &&
	    nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_OP) != NFT_BITWISE_BOOL)
		return;
	s->regs[dw] = s->regs[sw];
	mask = nftnl_expr_get(e, NFTNL_EXPR_BITWISE_MASK, &len);
	if (!mask || len > sizeof(s->regs[dw].mask))
		return;
	s->regs[dw].masked = true;
	memset(s->regs[dw].mask, 0, sizeof(s->regs[dw].mask));
	memcpy(s->regs[dw].mask, mask, len);
}

static int solve_expr(struct nftnl_expr *e, void *data)
{
	struct solver *s = data;
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);

	if (!name)
		return 0;
	if (!strcmp(name, "cmp"))
		do_cmp(s, e);
	else if (!strcmp(name, "range"))
		do_range(s, e);
	else if (!strcmp(name, "lookup"))
		do_lookup(s, e);
	else if (!strcmp(name, "bitwise"))
		do_bitwise(s, e);
	else
		do_load(s, e, name);
	return 0;
}

int pkt_spec_from_rule(struct pkt_spec *ps, struct nftnl_rule *rule,
		       struct nftnl_set_list *sets, char *err, size_t errlen)
{
	struct solver s = {
		.ps = ps, .sets = sets, .err = err, .errlen = errlen,
	};

	memset(ps, 0, sizeof(*ps));
	ps->l4proto = -1;
	nftnl_expr_foreach(rule, solve_expr, &s);
	tcpopt_layout(&s);
	/* a named interface exists: give it an index ("lo" is 1) */
	if (ps->meta.iifname[0] && !ps->meta.iif)
		ps->meta.iif = strcmp(ps->meta.iifname, "lo") ? 2 : 1;
	if (ps->meta.oifname[0] && !ps->meta.oif)
		ps->meta.oif = strcmp(ps->meta.oifname, "lo") ? 3 : 1;
	ps->meta.ct_state = ps->ct_state;
	if (ps->ct_other && !ps->ct_state)
		ps->meta.ct_state = NFTVM_CT_ESTABLISHED;
	return s.failed;
}

/* ------------------------------------------------ building */

static uint16_t csum16(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Defaults under the selectors' bits: @set says which bytes are theirs. */
static void overlay(uint8_t *dst, const uint8_t *val, const uint8_t *set,
		    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dst[i] = (uint8_t)((dst[i] & ~set[i]) | (val[i] & set[i]));
}

static unsigned int l4_hdrlen(int proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return 20;
	case IPPROTO_SCTP:
		return 12;
	default:
		return 8;	/* udp, icmp, icmpv6, ... */
	}
}

static void l4_defaults(uint8_t *th, int proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		th[0] = 40000 >> 8;
		th[1] = 40000 & 0xff;
		th[12] = 5 << 4;	/* data offset */
		th[14] = 0xff;		/* window */
		break;
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
		th[0] = 40000 >> 8;
		th[1] = 40000 & 0xff;
		break;
	case IPPROTO_ICMP:
		th[0] = 8;		/* echo request */
		break;
	case IPPROTO_ICMPV6:
		th[0] = 128;		/* echo request */
		break;
	}
}

static int l4_of(const struct pkt_spec *ps, bool v6)
{
	unsigned int at = v6 ? 6 : 9;

	if (ps->l4proto >= 0)
		return ps->l4proto;
	if (ps->nh_set[at])
		return ps->nh[at];
	return IPPROTO_TCP;
}

static void tcp_csum(const uint8_t *nh, uint8_t *th, unsigned int len,
		     bool v6);

int pkt_build(const struct pkt_spec *ps, uint8_t *buf, size_t cap)
{
	bool v6 = ps->nfproto == NFPROTO_IPV6 ||
		  (!ps->nfproto && ps->nh_set[0] && (ps->nh[0] >> 4) == 6);
	unsigned int nhl = v6 ? 40 : 20, thl, total;
	int l4 = l4_of(ps, v6);
	uint8_t *nh = buf, *th;

	thl = l4_hdrlen(l4);
	if (ps->th_len > thl)
		thl = ps->th_len;
	total = nhl + thl;
	if (ps->len > total)
		total = ps->len;
	if (cap < total)
		return -1;
	memset(buf, 0, total);
	th = buf + nhl;
	if (v6) {
		static const uint8_t src[16] = { 0x20, 0x01, 0x0d, 0xb8,
			[15] = 1 }, dst[16] = { 0x20, 0x01, 0x0d, 0xb8,
			[15] = 2 };

		nh[0] = 0x60;
		nh[6] = (uint8_t)l4;
		nh[7] = 64;
		memcpy(nh + 8, src, 16);
		memcpy(nh + 24, dst, 16);
	} else {
		nh[0] = 0x45;
		nh[8] = 64;
		nh[9] = (uint8_t)l4;
		nh[12] = 192; nh[14] = 2; nh[15] = 1;	/* 192.0.2.1 */
		nh[16] = 192; nh[18] = 2; nh[19] = 2;	/* 192.0.2.2 */
	}
	overlay(nh, ps->nh, ps->nh_set, nhl);
	l4_defaults(th, l4);
	overlay(th, ps->th, ps->th_set, thl);
	/* the header's own shape is not the selectors' to break */
	if (v6) {
		nh[0] = (uint8_t)(0x60 | (nh[0] & 0x0f));
		nh[4] = (uint8_t)((total - nhl) >> 8);
		nh[5] = (uint8_t)(total - nhl);
		nh[6] = (uint8_t)l4;
	} else {
		nh[0] = 0x45;
		nh[2] = (uint8_t)(total >> 8);
		nh[3] = (uint8_t)total;
		nh[6] &= 0xe0;		/* no fragment offset */
		nh[7] = 0;
		nh[9] = (uint8_t)l4;
		nh[10] = nh[11] = 0;
		nh[10] = (uint8_t)(csum16(nh, 20) >> 8);
		nh[11] = (uint8_t)csum16(nh, 20);
	}
	if (l4 == IPPROTO_UDP) {
		th[4] = (uint8_t)((total - nhl) >> 8);
		th[5] = (uint8_t)(total - nhl);
	}
	if (l4 == IPPROTO_TCP && !ps->th_set[16] && !ps->th_set[17])
		tcp_csum(nh, th, total - nhl, v6);
	return (int)total;
}

/* The TCP checksum over the pseudo-header and the segment. */
static void tcp_csum(const uint8_t *nh, uint8_t *th, unsigned int len,
		     bool v6)
{
	uint8_t ph[40];
	unsigned int al = v6 ? 16 : 4, n = 2 * al;
	uint32_t sum = 0;
	uint16_t c;
	unsigned int i;

	memcpy(ph, nh + (v6 ? 8 : 12), n);
	ph[n++] = 0;
	ph[n++] = IPPROTO_TCP;
	ph[n++] = (uint8_t)(len >> 8);
	ph[n++] = (uint8_t)len;
	th[16] = th[17] = 0;
	/* one's complement sums add: the pseudo-header's, the segment's */
	c = (uint16_t)~csum16(ph, n);
	sum += c;
	c = (uint16_t)~csum16(th, len);
	sum += c;
	for (i = 0; i < 2 && (sum >> 16); i++)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	th[16] = (uint8_t)(c >> 8);
	th[17] = (uint8_t)c;
}

/* ------------------------------------------------ layer 2 */

#define ETH_P_IP_	0x0800
#define ETH_P_ARP_	0x0806
#define ETH_P_IPV6_	0x86dd
#define ETH_P_8021Q_	0x8100
#define ETH_P_8021AD_	0x88a8

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static bool is_vlan(uint16_t type)
{
	return type == ETH_P_8021Q_ || type == ETH_P_8021AD_;
}

int pkt_build_ether(const struct pkt_spec *ps, uint16_t type, uint8_t *buf)
{
	uint8_t h[PKT_LL_MAX] = { 0x02, 0, 0, 0, 0, 0x02,
				  0x02, 0, 0, 0, 0, 0x01 };
	unsigned int len = 14;

	h[12] = (uint8_t)(type >> 8);
	h[13] = (uint8_t)type;
	overlay(h, ps->ll, ps->ll_set, sizeof(h));
	/* a tag a selector asked for ("vlan id 10": ether type 8100):
	 * the EtherType moves behind it */
	if (ps->ll_set[12] && is_vlan(get16(h + 12))) {
		len = 18;
		if (!ps->ll_set[16] && !ps->ll_set[17]) {
			h[16] = (uint8_t)(type >> 8);
			h[17] = (uint8_t)type;
		}
	}
	memcpy(buf, h, len);
	return (int)len;
}

/* The EtherType of the frame's payload: the selectors' or IPv4. */
static uint16_t l3_type(const struct pkt_spec *ps)
{
	unsigned int at = 12;

	if (ps->ll_set[12] && is_vlan(get16(ps->ll + 12)))
		at = 16;
	if (ps->ll_set[at] || ps->ll_set[at + 1])
		return get16(ps->ll + at);
	if (ps->ethertype)
		return ps->ethertype;
	return ps->nfproto == NFPROTO_IPV6 ? ETH_P_IPV6_ : ETH_P_IP_;
}

/* An ARP request, IPv4 over Ethernet, under the selectors' bits. */
static int arp_build(const struct pkt_spec *ps, uint8_t *buf, size_t cap)
{
	static const uint8_t def[28] = {
		0, 1, 0x08, 0x00, 6, 4, 0, 1,			/* request */
		0x02, 0, 0, 0, 0, 0x01, 192, 0, 2, 1,		/* sender */
		0, 0, 0, 0, 0, 0, 192, 0, 2, 2,			/* target */
	};
	unsigned int len = sizeof(def);

	if (ps->nh_len > len)
		len = ps->nh_len;
	if (ps->len > len)
		len = ps->len;
	if (cap < len)
		return -1;
	memset(buf, 0, len);
	memcpy(buf, def, sizeof(def));
	overlay(buf, ps->nh, ps->nh_set, ps->nh_len);
	return (int)len;
}

int pkt_build_l2(const struct pkt_spec *ps, unsigned int family,
		 uint8_t *buf, size_t cap)
{
	struct pkt_spec l3 = *ps;
	uint16_t type;
	int hl, n;

	if (family == NFPROTO_ARP)
		return arp_build(ps, buf, cap);
	if (cap < PKT_LL_MAX)
		return -1;
	type = l3_type(ps);
	hl = pkt_build_ether(ps, type, buf);
	if (is_vlan(get16(buf + 12)) && hl == 18)
		type = get16(buf + 16);
	else
		type = get16(buf + 12);
	switch (type) {
	case ETH_P_IP_:
	case ETH_P_IPV6_:
		l3.nfproto = type == ETH_P_IPV6_ ? NFPROTO_IPV6 :
						   NFPROTO_IPV4;
		/* "meta length" counts from the network header */
		n = pkt_build(&l3, buf + hl, cap - (size_t)hl);
		break;
	case ETH_P_ARP_:
		n = arp_build(ps, buf + hl, cap - (size_t)hl);
		break;
	default:
		/* some other protocol: the bytes selectors fixed */
		n = (int)(ps->nh_len > ps->len ? ps->nh_len : ps->len);
		if ((size_t)n > cap - (size_t)hl)
			return -1;
		memset(buf + hl, 0, (size_t)n);
		overlay(buf + hl, ps->nh, ps->nh_set, ps->nh_len);
		break;
	}
	return n < 0 ? -1 : hl + n;
}

/* ------------------------------------------------ route */

void pkt_rt_meta(const struct pkt_spec *ps, unsigned int hook, bool v6,
		 struct nftvm_pktmeta *meta)
{
	unsigned int hdrs = v6 ? 60 : 40;	/* IP and TCP headers */

	meta->rt_dst = ps->rt_asked || hook == NF_INET_LOCAL_IN ||
		       hook == NF_INET_FORWARD || hook == NF_INET_LOCAL_OUT ||
		       hook == NF_INET_POST_ROUTING;
	meta->rt_mtu = ps->rt_mss ? ps->rt_mss + hdrs : 1500;
	meta->rt_mtu_rev = 0;
}
