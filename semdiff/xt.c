// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xt compat expressions: what stock iptables-nft puts in the kernel for
 * the extensions it does not spell natively (`-m conntrack/state`,
 * `-m tcp/udp`, `-m multiport`, `-m icmp`, `-m addrtype`, `-m iprange`,
 * `-m mac`, `-m comment`, `-m owner`, `-j REJECT`, `-j LOG`, `-j MARK`,
 * `-j SNAT/DNAT/MASQUERADE/REDIRECT`, `-j CT --notrack/--zone`,
 * `-j CHECKSUM`, `-m rt/policy/ttl/hl`,
 * ...). A `kernel` side loaded by
 * iptables-nft-restore is full of them. Each modelled extension reads
 * or writes the same spaces (ct state, status, protocol and direction,
 * header bytes, fib address types, the NAT effect) as the native
 * expressions its translation uses, so both sides compare. The
 * semantics are the kernel extensions' (xt_conntrack.c, xt_state.c,
 * xt_tcpudp.c, xt_multiport.c, ip_tables.c icmp_match, xt_addrtype.c,
 * xt_iprange.c, xt_mac.c, xt_mark.c, ipt_REJECT.c, xt_nat.c,
 * xt_MASQUERADE.c, xt_REDIRECT.c), read for facts; the layouts are the
 * uapi headers'. Anything else is "not modelled" (trouble), as before.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter/xt_conntrack.h>
#include <linux/netfilter/xt_state.h>
#include <linux/netfilter/xt_multiport.h>
#include <linux/netfilter/xt_tcpudp.h>
#include <linux/netfilter/xt_addrtype.h>
#include <linux/netfilter/xt_iprange.h>
#include <linux/netfilter/xt_mac.h>
#include <linux/netfilter/xt_mark.h>
#include <linux/netfilter/xt_owner.h>
#include <linux/netfilter/xt_CT.h>
#include <linux/netfilter/xt_policy.h>
#include <linux/netfilter_ipv6/ip6t_rt.h>
#include <netinet/in.h>
#include <linux/if_arp.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv4/ipt_REJECT.h>
#include <linux/netfilter_ipv6/ip6t_REJECT.h>
#include <libnftnl/expr.h>
#include "sd_int.h"

/* Bits of @len bytes of space @sp from @soff (references owned). */
static void field(struct sd_eval *ev, int sp, unsigned int soff,
		  unsigned int len, BDD *out)
{
	unsigned int i;

	for (i = 0; i < len * 8; i++)
		out[i] = sd_space_bit(ev, sp, soff + i / 8, i % 8);
}

static void field_free(BDD *bits, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len * 8; i++)
		b_free(bits[i]);
}

/* The packets for which the rule still runs: also @c (consumed). */
static void narrow(struct sd_eval *ev, BDD c)
{
	b_andin(&ev->alive, c);
	b_free(c);
}

/* ------------------------------------------------ conntrack, state */

/* The ct state values a packet has (one at a time), nft's encoding. */
static const uint32_t ct_states[] = {
	NF_CT_STATE_INVALID_BIT, NF_CT_STATE_BIT(IP_CT_ESTABLISHED),
	NF_CT_STATE_BIT(IP_CT_RELATED), NF_CT_STATE_BIT(IP_CT_NEW),
	NF_CT_STATE_UNTRACKED_BIT,
};

/* ct state is one of the values @pick accepts (by their xt bit). */
static BDD ct_state_in(struct sd_eval *ev, uint32_t (*xtbit)(uint32_t),
		       uint32_t mask)
{
	int sp = sd_space_id(ev->vars, SP_CT, NFT_CT_STATE, 0, NULL);
	BDD bits[32], r = bddfalse;
	unsigned int i;

	if (sp < 0)
		return bddfalse;
	field(ev, sp, 0, 4, bits);
	for (i = 0; i < sizeof(ct_states) / sizeof(ct_states[0]); i++) {
		BDD e;

		if (!(xtbit(ct_states[i]) & mask))
			continue;
		e = bv_eq_const(bits, (const uint8_t *)&ct_states[i], 4);
		b_orin(&r, e);
		b_free(e);
	}
	field_free(bits, 4);
	return r;
}

static uint32_t conntrack_bit(uint32_t nft)
{
	return nft == NF_CT_STATE_UNTRACKED_BIT ?
	       XT_CONNTRACK_STATE_UNTRACKED : nft;
}

static uint32_t state_bit(uint32_t nft)
{
	return nft == NF_CT_STATE_UNTRACKED_BIT ? XT_STATE_UNTRACKED : nft;
}

/* Some bit of @mask (host order, as ct status is kept) set in @sp. */
static BDD any_bit(struct sd_eval *ev, int sp, uint32_t mask)
{
	const uint8_t *m = (const uint8_t *)&mask;
	BDD bits[32], r = bddfalse;
	unsigned int i;

	field(ev, sp, 0, 4, bits);
	for (i = 0; i < 32; i++)
		if (m[i / 8] & (0x80 >> (i % 8)))
			b_orin(&r, bits[i]);
	field_free(bits, 4);
	return r;
}

/* ct status has a bit of @mask (the space made on first use). */
static BDD ct_status_any(struct sd_eval *ev, uint32_t mask)
{
	int sp = sd_space_id(ev->vars, SP_CT, NFT_CT_STATUS, 0, NULL);

	return sp < 0 ? bddfalse : any_bit(ev, sp, mask);
}

/*
 * xt_conntrack: the state test (the SNAT/DNAT pseudo-states are the
 * entry's NAT status bits), then, for packets with a conntrack entry
 * (established, related, new) only, protocol, status and direction.
 */
/*
 * The tuple tests of -m conntrack: addresses (under a mask) and ports
 * of either direction, over the ct fields nft's "ct original saddr",
 * "ct reply proto-dst", ... read (expr.c keeps "ct original ip saddr"
 * in the same field). The layouts of revisions 1-3 agree
 * up to the flags; revision 3 adds port ranges (@high).
 */
static const struct {
	uint16_t	flag;
	uint8_t		key, dir;
	size_t		addr, mask;
} ct_addrs[] = {
	{ XT_CONNTRACK_ORIGSRC, NFT_CT_SRC,
	  IP_CT_DIR_ORIGINAL, offsetof(struct xt_conntrack_mtinfo1,
	  origsrc_addr), offsetof(struct xt_conntrack_mtinfo1, origsrc_mask) },
	{ XT_CONNTRACK_ORIGDST, NFT_CT_DST,
	  IP_CT_DIR_ORIGINAL, offsetof(struct xt_conntrack_mtinfo1,
	  origdst_addr), offsetof(struct xt_conntrack_mtinfo1, origdst_mask) },
	{ XT_CONNTRACK_REPLSRC, NFT_CT_SRC,
	  IP_CT_DIR_REPLY, offsetof(struct xt_conntrack_mtinfo1,
	  replsrc_addr), offsetof(struct xt_conntrack_mtinfo1, replsrc_mask) },
	{ XT_CONNTRACK_REPLDST, NFT_CT_DST,
	  IP_CT_DIR_REPLY, offsetof(struct xt_conntrack_mtinfo1,
	  repldst_addr), offsetof(struct xt_conntrack_mtinfo1, repldst_mask) },
};

static const struct {
	uint16_t	flag;
	uint8_t		key, dir;
	size_t		port, high;
} ct_ports[] = {
	{ XT_CONNTRACK_ORIGSRC_PORT, NFT_CT_PROTO_SRC, IP_CT_DIR_ORIGINAL,
	  offsetof(struct xt_conntrack_mtinfo3, origsrc_port),
	  offsetof(struct xt_conntrack_mtinfo3, origsrc_port_high) },
	{ XT_CONNTRACK_ORIGDST_PORT, NFT_CT_PROTO_DST, IP_CT_DIR_ORIGINAL,
	  offsetof(struct xt_conntrack_mtinfo3, origdst_port),
	  offsetof(struct xt_conntrack_mtinfo3, origdst_port_high) },
	{ XT_CONNTRACK_REPLSRC_PORT, NFT_CT_PROTO_SRC, IP_CT_DIR_REPLY,
	  offsetof(struct xt_conntrack_mtinfo3, replsrc_port),
	  offsetof(struct xt_conntrack_mtinfo3, replsrc_port_high) },
	{ XT_CONNTRACK_REPLDST_PORT, NFT_CT_PROTO_DST, IP_CT_DIR_REPLY,
	  offsetof(struct xt_conntrack_mtinfo3, repldst_port),
	  offsetof(struct xt_conntrack_mtinfo3, repldst_port_high) },
};

/* ct DIR KEY (@len bytes) equals @val under @mask (NULL: all bits). */
static BDD ct_masked_eq(struct sd_eval *ev, uint8_t key, uint8_t dir,
			const uint8_t *val, const uint8_t *mask,
			unsigned int len)
{
	int sp = sd_space_id(ev->vars, SP_CT, key, dir + 1, NULL);
	BDD bits[128], r = bddtrue;
	unsigned int i;

	if (sp < 0)
		return bddfalse;
	field(ev, sp, 0, len, bits);
	for (i = 0; i < len * 8; i++) {
		bool m = !mask || (mask[i / 8] & (0x80 >> (i % 8)));
		bool v = val[i / 8] & (0x80 >> (i % 8));

		if (m)
			b_andin(&r, v ? bits[i] : bdd_not(bits[i]));
	}
	field_free(bits, len);
	return r;
}

static BDD ct_tuple(struct sd_eval *ev, const uint8_t *info, uint32_t len,
		    uint32_t rev, uint16_t flags, uint16_t inv)
{
	unsigned int alen = ev->family == NFPROTO_IPV6 ? 16 : 4, i;
	BDD c = bddtrue, x;

	for (i = 0; i < sizeof(ct_addrs) / sizeof(ct_addrs[0]); i++) {
		if (!(flags & ct_addrs[i].flag))
			continue;
		x = ct_masked_eq(ev, ct_addrs[i].key, ct_addrs[i].dir,
				 info + ct_addrs[i].addr,
				 info + ct_addrs[i].mask, alen);
		if (inv & ct_addrs[i].flag)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	for (i = 0; i < sizeof(ct_ports) / sizeof(ct_ports[0]); i++) {
		uint8_t lo[2], hi[2];
		int sp;
		BDD bits[16];

		if (!(flags & ct_ports[i].flag))
			continue;
		memcpy(lo, info + ct_ports[i].port, 2);
		if (rev >= 3 && len >= sizeof(struct xt_conntrack_mtinfo3)) {
			/* revision 3: a range, both ends in host order
			 * (xt_conntrack's port_match); before: one port,
			 * in network order */
			uint16_t l, h;

			memcpy(&l, lo, 2);
			memcpy(&h, info + ct_ports[i].high, 2);
			l = htons(l);
			h = htons(h);
			memcpy(lo, &l, 2);
			memcpy(hi, &h, 2);
		} else {
			memcpy(hi, lo, 2);
		}
		sp = sd_space_id(ev->vars, SP_CT, ct_ports[i].key,
				 ct_ports[i].dir + 1, NULL);
		if (sp < 0)
			return bddfalse;
		field(ev, sp, 0, 2, bits);
		x = bv_range_const(bits, lo, hi, 2);
		field_free(bits, 2);
		if (inv & ct_ports[i].flag)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	return c;
}

static int conntrack_eval(struct sd_eval *ev, const void *info,
			  uint32_t len, uint32_t rev, uint16_t flags,
			  uint16_t inv, uint32_t state_mask,
			  uint32_t status_mask, uint16_t l4proto)
{
	const uint16_t tuple = XT_CONNTRACK_ORIGSRC | XT_CONNTRACK_ORIGDST |
			       XT_CONNTRACK_REPLSRC | XT_CONNTRACK_REPLDST |
			       XT_CONNTRACK_ORIGSRC_PORT |
			       XT_CONNTRACK_ORIGDST_PORT |
			       XT_CONNTRACK_REPLSRC_PORT |
			       XT_CONNTRACK_REPLDST_PORT;
	const uint16_t known = XT_CONNTRACK_STATE | XT_CONNTRACK_STATUS |
			       XT_CONNTRACK_DIRECTION | XT_CONNTRACK_PROTO |
			       XT_CONNTRACK_STATE_ALIAS | tuple;
	const uint16_t entry = XT_CONNTRACK_STATUS | XT_CONNTRACK_DIRECTION |
			       XT_CONNTRACK_PROTO | tuple;
	uint32_t tracked = NF_CT_STATE_BIT(IP_CT_ESTABLISHED) |
			   NF_CT_STATE_BIT(IP_CT_RELATED) |
			   NF_CT_STATE_BIT(IP_CT_NEW);
	BDD has_ct, c, x;
	int sp;

	/* STATE_ALIAS: written as -m state, printed so; no effect */
	if (flags & ~known)
		return sd_eval_error(ev, "xt match `conntrack' option 0x%x is "
				     "not modelled", flags & ~known);
	has_ct = ct_state_in(ev, state_bit, tracked);
	if (flags & XT_CONNTRACK_STATE) {
		c = ct_state_in(ev, conntrack_bit, state_mask);
		if (state_mask & XT_CONNTRACK_STATE_SNAT) {
			x = ct_status_any(ev, IPS_SRC_NAT);
			b_andin(&x, has_ct);
			b_orin(&c, x);
			b_free(x);
		}
		if (state_mask & XT_CONNTRACK_STATE_DNAT) {
			x = ct_status_any(ev, IPS_DST_NAT);
			b_andin(&x, has_ct);
			b_orin(&c, x);
			b_free(x);
		}
		if (inv & XT_CONNTRACK_STATE)
			b_put(&c, b_not(c));
		narrow(ev, c);
	}
	if (!(flags & entry)) {
		b_free(has_ct);
		return 0;
	}
	c = bddtrue;
	if (flags & XT_CONNTRACK_PROTO) {
		uint8_t proto = (uint8_t)l4proto;
		BDD bits[8];

		/* ct original protocol (nft's key, original direction) */
		sp = sd_space_id(ev->vars, SP_CT, NFT_CT_PROTOCOL,
				 IP_CT_DIR_ORIGINAL + 1, NULL);
		if (sp < 0)
			return -ENOMEM;
		field(ev, sp, 0, 1, bits);
		x = bv_eq_const(bits, &proto, 1);
		field_free(bits, 1);
		if (inv & XT_CONNTRACK_PROTO)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	if (flags & XT_CONNTRACK_STATUS) {
		x = ct_status_any(ev, status_mask);
		if (inv & XT_CONNTRACK_STATUS)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	if (flags & XT_CONNTRACK_DIRECTION) {
		BDD bits[8];
		uint8_t zero = IP_CT_DIR_ORIGINAL;

		sp = sd_space_id(ev->vars, SP_CT, NFT_CT_DIRECTION, 0, NULL);
		if (sp < 0)
			return -ENOMEM;
		field(ev, sp, 0, 1, bits);
		x = bv_eq_const(bits, &zero, 1);
		field_free(bits, 1);
		/* the original direction, or with the invert bit (as
		 * --ctdir REPLY sets it) the reply direction */
		if (inv & XT_CONNTRACK_DIRECTION)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	if (flags & tuple) {
		x = ct_tuple(ev, info, len, rev, flags, inv);
		b_andin(&c, x);
		b_free(x);
	}
	/* with an entry: these tests; without: as the state test said */
	b_put(&c, b_ite(has_ct, c, (flags & XT_CONNTRACK_STATE) ? bddtrue :
				   bddfalse));
	b_free(has_ct);
	narrow(ev, c);
	return 0;
}

static int mt_conntrack(struct sd_eval *ev, const void *info, uint32_t len,
			uint32_t rev)
{
	if (rev == 1 && len >= sizeof(struct xt_conntrack_mtinfo1)) {
		const struct xt_conntrack_mtinfo1 *m = info;

		return conntrack_eval(ev, info, len, rev, m->match_flags,
				      m->invert_flags,
				      m->state_mask, m->status_mask,
				      m->l4proto);
	}
	if (rev == 2 && len >= sizeof(struct xt_conntrack_mtinfo2)) {
		const struct xt_conntrack_mtinfo2 *m = info;

		return conntrack_eval(ev, info, len, rev, m->match_flags,
				      m->invert_flags,
				      m->state_mask, m->status_mask,
				      m->l4proto);
	}
	if (rev == 3 && len >= sizeof(struct xt_conntrack_mtinfo3)) {
		const struct xt_conntrack_mtinfo3 *m = info;

		return conntrack_eval(ev, info, len, rev, m->match_flags,
				      m->invert_flags,
				      m->state_mask, m->status_mask,
				      m->l4proto);
	}
	return sd_eval_error(ev, "xt match `conntrack' revision %u is not "
			     "modelled", rev);
}

static int mt_state(struct sd_eval *ev, const void *info, uint32_t len,
		    uint32_t rev)
{
	const struct xt_state_info *m = info;

	if (len < sizeof(*m))
		return -EINVAL;
	narrow(ev, ct_state_in(ev, state_bit, m->statemask));
	return 0;
}

/* ------------------------------------------------ ports, icmp */

/* Transport header bytes @off.. as a BE port in [lo, hi]. */
static BDD th_range(struct sd_eval *ev, unsigned int off, uint16_t lo,
		    uint16_t hi)
{
	int sp = sd_space_id(ev->vars, SP_PAYLOAD,
			     NFT_PAYLOAD_TRANSPORT_HEADER, 0, NULL);
	uint16_t l = htons(lo), h = htons(hi);
	BDD bits[16], r;

	if (sp < 0)
		return bddfalse;
	field(ev, sp, off, 2, bits);
	r = bv_range_const(bits, (const uint8_t *)&l, (const uint8_t *)&h, 2);
	field_free(bits, 2);
	return r;
}

/* xt_multiport: any listed port (or range, v1) of the sides asked. */
static int multiport_eval(struct sd_eval *ev, uint8_t flags, uint8_t count,
			  const uint16_t *ports, const uint8_t *pflags,
			  bool invert)
{
	BDD r = bddfalse;
	unsigned int i;

	if (count > XT_MULTI_PORTS)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		uint16_t lo = ports[i], hi = ports[i];
		BDD x;

		if (pflags && pflags[i] && i + 1 < count)
			hi = ports[++i];
		if (flags != XT_MULTIPORT_DESTINATION) {
			x = th_range(ev, 0, lo, hi);
			b_orin(&r, x);
			b_free(x);
		}
		if (flags != XT_MULTIPORT_SOURCE) {
			x = th_range(ev, 2, lo, hi);
			b_orin(&r, x);
			b_free(x);
		}
	}
	if (invert)
		b_put(&r, b_not(r));
	narrow(ev, r);
	return 0;
}

static int mt_multiport(struct sd_eval *ev, const void *info, uint32_t len,
			uint32_t rev)
{
	if (rev == 0 && len >= sizeof(struct xt_multiport)) {
		const struct xt_multiport *m = info;

		return multiport_eval(ev, m->flags, m->count, m->ports, NULL,
				      false);
	}
	if (rev == 1 && len >= sizeof(struct xt_multiport_v1)) {
		const struct xt_multiport_v1 *m = info;

		return multiport_eval(ev, m->flags, m->count, m->ports,
				      m->pflags, m->invert);
	}
	return sd_eval_error(ev, "xt match `multiport' revision %u is not "
			     "modelled", rev);
}

/* A port in [lo, hi], or with @inv outside. */
static void port_in(struct sd_eval *ev, unsigned int off, const uint16_t *r,
		    bool inv)
{
	BDD c = th_range(ev, off, r[0], r[1]);

	if (inv)
		b_put(&c, b_not(c));
	narrow(ev, c);
}

/* xt_tcp: port ranges and the flags byte; options are not modelled. */
static int mt_tcp(struct sd_eval *ev, const void *info, uint32_t len,
		  uint32_t rev)
{
	const struct xt_tcp *m = info;
	int sp = sd_space_id(ev->vars, SP_PAYLOAD,
			     NFT_PAYLOAD_TRANSPORT_HEADER, 0, NULL);
	BDD bits[8], c = bddtrue;
	unsigned int i;

	if (len < sizeof(*m) || sp < 0)
		return -EINVAL;
	if (m->option)
		return sd_eval_error(ev, "xt match `tcp' --tcp-option is not "
				     "modelled");
	port_in(ev, 0, m->spts, m->invflags & XT_TCP_INV_SRCPT);
	port_in(ev, 2, m->dpts, m->invflags & XT_TCP_INV_DSTPT);
	/* (flags & mask) == cmp, bit by bit of the mask */
	field(ev, sp, 13, 1, bits);
	for (i = 0; i < 8; i++) {
		if (!(m->flg_mask & (0x80 >> i)))
			continue;
		if (m->flg_cmp & (0x80 >> i)) {
			b_andin(&c, bits[i]);
		} else {
			BDD n = b_not(bits[i]);

			b_andin(&c, n);
			b_free(n);
		}
	}
	field_free(bits, 1);
	if (m->invflags & XT_TCP_INV_FLAGS)
		b_put(&c, b_not(c));
	narrow(ev, c);
	return 0;
}

static int mt_udp(struct sd_eval *ev, const void *info, uint32_t len,
		  uint32_t rev)
{
	const struct xt_udp *m = info;

	if (len < sizeof(*m))
		return -EINVAL;
	port_in(ev, 0, m->spts, m->invflags & XT_UDP_INV_SRCPT);
	port_in(ev, 2, m->dpts, m->invflags & XT_UDP_INV_DSTPT);
	return 0;
}

/* icmp / icmp6: type 0xff is any; else the type and a code range. */
static int mt_icmp(struct sd_eval *ev, const void *info, uint32_t len,
		   uint32_t rev)
{
	const struct ipt_icmp *m = info;	/* ip6t_icmp: the same layout */
	int sp = sd_space_id(ev->vars, SP_PAYLOAD,
			     NFT_PAYLOAD_TRANSPORT_HEADER, 0, NULL);
	BDD bits[16], r;

	if (len < sizeof(*m) || sp < 0)
		return -EINVAL;
	if (m->type == 0xff) {
		r = bddtrue;
	} else {
		BDD c;

		field(ev, sp, 0, 2, bits);
		r = bv_eq_const(bits, &m->type, 1);
		c = bv_range_const(bits + 8, &m->code[0], &m->code[1], 1);
		b_andin(&r, c);
		b_free(c);
		field_free(bits, 2);
	}
	if (m->invflags & IPT_ICMP_INV)
		b_put(&r, b_not(r));
	narrow(ev, r);
	return 0;
}

static int xt_nop(struct sd_eval *ev, const void *info, uint32_t len,
		  uint32_t rev)
{
	return 0;
}

/* ------------------------------------------------ iprange */

/* The network header's address at @off (of @alen bytes) in [lo, hi]. */
static BDD nh_range(struct sd_eval *ev, unsigned int off, unsigned int alen,
		    const void *lo, const void *hi)
{
	int sp = sd_space_id(ev->vars, SP_PAYLOAD, NFT_PAYLOAD_NETWORK_HEADER,
			     0, NULL);
	BDD bits[128], r;

	if (sp < 0)
		return bddfalse;
	field(ev, sp, off, alen, bits);
	r = bv_range_const(bits, lo, hi, alen);
	field_free(bits, alen);
	return r;
}

/* xt_iprange (revision 1): source and/or destination address ranges. */
static int mt_iprange(struct sd_eval *ev, const void *info, uint32_t len,
		      uint32_t rev)
{
	const struct xt_iprange_mtinfo *m = info;
	bool v6 = ev->family == NFPROTO_IPV6;
	unsigned int alen = v6 ? 16 : 4;
	BDD c;

	if (rev != 1 || len < sizeof(*m))
		return sd_eval_error(ev, "xt match `iprange' revision %u is "
				     "not modelled", rev);
	if (m->flags & IPRANGE_SRC) {
		c = nh_range(ev, v6 ? 8 : 12, alen, &m->src_min, &m->src_max);
		if (m->flags & IPRANGE_SRC_INV)
			b_put(&c, b_not(c));
		narrow(ev, c);
	}
	if (m->flags & IPRANGE_DST) {
		c = nh_range(ev, v6 ? 24 : 16, alen, &m->dst_min, &m->dst_max);
		if (m->flags & IPRANGE_DST_INV)
			b_put(&c, b_not(c));
		narrow(ev, c);
	}
	return 0;
}

/* ------------------------------------------------ mac */

/*
 * xt_mac: an Ethernet input device and its source address (inverted or
 * not); what nft's `ether saddr` with its `meta iiftype ether`
 * dependency reads.
 */
static int mt_mac(struct sd_eval *ev, const void *info, uint32_t len,
		  uint32_t rev)
{
	const struct xt_mac_info *m = info;
	int ll = sd_space_id(ev->vars, SP_PAYLOAD, NFT_PAYLOAD_LL_HEADER, 0,
			     NULL);
	int ty = sd_space_id(ev->vars, SP_META, NFT_META_IIFTYPE, 0, NULL);
	uint16_t ether = ARPHRD_ETHER;
	BDD bits[48], c, t;

	if (len < sizeof(*m) || ll < 0 || ty < 0)
		return -EINVAL;
	field(ev, ty, 0, 2, bits);
	t = bv_eq_const(bits, (const uint8_t *)&ether, 2);
	field_free(bits, 2);
	field(ev, ll, 6, 6, bits);
	c = bv_eq_const(bits, m->srcaddr, 6);
	field_free(bits, 6);
	if (m->invert)
		b_put(&c, b_not(c));
	narrow(ev, t);
	narrow(ev, c);
	return 0;
}

/* ------------------------------------------------ addrtype */

/*
 * The address type the route lookup gives (fib ... type, RTN_*) is in
 * @mask's bits: the space of nft's `fib saddr|daddr [. iif|oif] type`,
 * with the flags ipt2nft translates addrtype to.
 */
static BDD addrtype_in(struct sd_eval *ev, uint32_t flags, uint16_t mask)
{
	int sp = sd_space_id(ev->vars, SP_FIB, flags, NFT_FIB_RESULT_ADDRTYPE,
			     NULL);
	BDD bits[32], r = bddfalse;
	uint32_t t;

	if (sp < 0)
		return bddfalse;
	field(ev, sp, 0, 4, bits);
	for (t = 0; t < 16; t++) {
		BDD e;

		if (!(mask & (1u << t)))
			continue;
		e = bv_eq_const(bits, (const uint8_t *)&t, 4);
		b_orin(&r, e);
		b_free(e);
	}
	field_free(bits, 4);
	return r;
}

static int mt_addrtype(struct sd_eval *ev, const void *info, uint32_t len,
		       uint32_t rev)
{
	const struct xt_addrtype_info_v1 *m = info;
	uint32_t dev = 0;
	BDD c;

	if (rev != 1 || len < sizeof(*m))
		return sd_eval_error(ev, "xt match `addrtype' revision %u is "
				     "not modelled", rev);
	/* the kernel looks at the input interface first */
	if (m->flags & XT_ADDRTYPE_LIMIT_IFACE_IN)
		dev = NFTA_FIB_F_IIF;
	else if (m->flags & XT_ADDRTYPE_LIMIT_IFACE_OUT)
		dev = NFTA_FIB_F_OIF;
	if (m->source) {
		c = addrtype_in(ev, NFTA_FIB_F_SADDR | dev, m->source);
		if (m->flags & XT_ADDRTYPE_INVERT_SOURCE)
			b_put(&c, b_not(c));
		narrow(ev, c);
	}
	if (m->dest) {
		c = addrtype_in(ev, NFTA_FIB_F_DADDR | dev, m->dest);
		if (m->flags & XT_ADDRTYPE_INVERT_DEST)
			b_put(&c, b_not(c));
		narrow(ev, c);
	}
	return 0;
}

/* ------------------------------------------------ REJECT */

/* The reject each `--reject-with` is, as nft's reject expression. */
static const struct { uint8_t type, code; } reject4[] = {
	[IPT_ICMP_NET_UNREACHABLE]	= { NFT_REJECT_ICMP_UNREACH, 0 },
	[IPT_ICMP_HOST_UNREACHABLE]	= { NFT_REJECT_ICMP_UNREACH, 1 },
	[IPT_ICMP_PROT_UNREACHABLE]	= { NFT_REJECT_ICMP_UNREACH, 2 },
	[IPT_ICMP_PORT_UNREACHABLE]	= { NFT_REJECT_ICMP_UNREACH, 3 },
	[IPT_ICMP_NET_PROHIBITED]	= { NFT_REJECT_ICMP_UNREACH, 9 },
	[IPT_ICMP_HOST_PROHIBITED]	= { NFT_REJECT_ICMP_UNREACH, 10 },
	[IPT_TCP_RESET]			= { NFT_REJECT_TCP_RST, 0 },
	[IPT_ICMP_ADMIN_PROHIBITED]	= { NFT_REJECT_ICMP_UNREACH, 13 },
}, reject6[] = {
	[IP6T_ICMP6_NO_ROUTE]		= { NFT_REJECT_ICMP_UNREACH, 0 },
	[IP6T_ICMP6_ADM_PROHIBITED]	= { NFT_REJECT_ICMP_UNREACH, 1 },
	[IP6T_ICMP6_NOT_NEIGHBOUR]	= { NFT_REJECT_ICMP_UNREACH, 2 },
	[IP6T_ICMP6_ADDR_UNREACH]	= { NFT_REJECT_ICMP_UNREACH, 3 },
	[IP6T_ICMP6_PORT_UNREACH]	= { NFT_REJECT_ICMP_UNREACH, 4 },
	[IP6T_TCP_RESET]		= { NFT_REJECT_TCP_RST, 0 },
	[IP6T_ICMP6_POLICY_FAIL]	= { NFT_REJECT_ICMP_UNREACH, 5 },
	[IP6T_ICMP6_REJECT_ROUTE]	= { NFT_REJECT_ICMP_UNREACH, 6 },
};

static int tg_reject(struct sd_eval *ev, const void *info, uint32_t len,
		     uint32_t rev)
{
	const uint32_t *with = info;	/* ipt/ip6t_reject_info */
	bool v6 = ev->family == NFPROTO_IPV6;
	unsigned int n = v6 ? sizeof(reject6) / sizeof(reject6[0]) :
			      sizeof(reject4) / sizeof(reject4[0]);
	char key[64];

	if (len < sizeof(*with) || *with >= n ||
	    (!v6 && *with == IPT_ICMP_ECHOREPLY) ||
	    (v6 && *with == IP6T_ICMP6_ECHOREPLY))
		return sd_eval_error(ev, "xt target `REJECT' with %u is not "
				     "modelled", len >= 4 ? *with : 0);
	snprintf(key, sizeof(key), "reject type %u code %u",
		 v6 ? reject6[*with].type : reject4[*with].type,
		 v6 ? reject6[*with].code : reject4[*with].code);
	sd_terminal(ev, key);
	return 0;
}

/* ------------------------------------------------ MARK */

/*
 * xt MARK (revision 2): meta mark = (mark & ~mask) ^ value, as nft's
 * `meta mark set mark and ... xor ...`; the rule goes on.
 */
static int tg_mark(struct sd_eval *ev, const void *info, uint32_t len,
		   uint32_t rev)
{
	const struct xt_mark_tginfo2 *m = info;
	int sp = sd_space_id(ev->vars, SP_META, NFT_META_MARK, 0, NULL);
	const uint8_t *mask, *val;
	BDD bits[32];
	unsigned int i;

	if (rev != 2 || len < sizeof(*m))
		return sd_eval_error(ev, "xt target `MARK' revision %u is not "
				     "modelled", rev);
	if (sp < 0)
		return -ENOMEM;
	mask = (const uint8_t *)&m->mask;	/* host order, as meta mark */
	val = (const uint8_t *)&m->mark;
	field(ev, sp, 0, 4, bits);
	for (i = 0; i < 32; i++) {
		bool mb = mask[i / 8] & (0x80 >> (i % 8));
		bool vb = val[i / 8] & (0x80 >> (i % 8));

		if (mb)
			b_put(&bits[i], vb ? bddtrue : bddfalse);
		else if (vb)
			b_put(&bits[i], b_not(bits[i]));
	}
	sd_space_write(ev, sp, 0, bits, 4);
	field_free(bits, 4);
	return 0;
}

/* ------------------------------------------------ NAT targets */

/* A NAT target's range, whatever its revision's layout. */
struct xt_nat {
	uint32_t	flags;
	uint8_t		amin[16], amax[16];
	uint8_t		pmin[2], pmax[2];
};

/*
 * Revision 0 of SNAT/DNAT and IPv4 MASQUERADE/REDIRECT: the IPv4
 * multi-range (one range); revision 1 and IPv6's MASQUERADE/REDIRECT:
 * nf_nat_range; revision 2: nf_nat_range2 (a base for offsets).
 */
static int nat_range(struct sd_eval *ev, const void *info, uint32_t len,
		     bool v0, bool v2, struct xt_nat *n)
{
	memset(n, 0, sizeof(*n));
	if (v0) {
		const struct nf_nat_ipv4_multi_range_compat *m = info;

		if (len < sizeof(*m) || m->rangesize != 1)
			return -EINVAL;
		n->flags = m->range[0].flags;
		memcpy(n->amin, &m->range[0].min_ip, 4);
		memcpy(n->amax, &m->range[0].max_ip, 4);
		memcpy(n->pmin, &m->range[0].min, 2);
		memcpy(n->pmax, &m->range[0].max, 2);
	} else {
		const struct nf_nat_range *r = info;

		if (len < (v2 ? sizeof(struct nf_nat_range2) : sizeof(*r)))
			return -EINVAL;
		n->flags = r->flags;
		memcpy(n->amin, &r->min_addr, 16);
		memcpy(n->amax, &r->max_addr, 16);
		memcpy(n->pmin, &r->min_proto, 2);
		memcpy(n->pmax, &r->max_proto, 2);
	}
	if (n->flags & NF_NAT_RANGE_PROTO_OFFSET)
		return sd_eval_error(ev, "xt NAT with a port offset is not "
				     "modelled");
	return 0;
}

static int nat_target(struct sd_eval *ev, uint8_t type, const void *info,
		      uint32_t len, uint32_t rev)
{
	bool v6 = ev->family == NFPROTO_IPV6;
	bool addr = type == 1 || type == 2;
	struct xt_nat n;
	int ret;

	if (rev > (addr ? 2u : 0u))
		return sd_eval_error(ev, "xt NAT target revision %u is not "
				     "modelled", rev);
	ret = nat_range(ev, info, len, rev == 0 && !v6, rev == 2, &n);
	if (ret < 0)
		return ret;
	/* what a range leaves unset is not part of the mapping */
	return sd_nat_const(ev, type, n.flags,
			    addr && (n.flags & NF_NAT_RANGE_MAP_IPS) ?
			    n.amin : NULL, n.amax, v6 ? 16 : 4,
			    n.flags & NF_NAT_RANGE_PROTO_SPECIFIED ?
			    n.pmin : NULL, n.pmax);
}

static int tg_snat(struct sd_eval *ev, const void *info, uint32_t len,
		   uint32_t rev)
{
	return nat_target(ev, 1, info, len, rev);
}

static int tg_dnat(struct sd_eval *ev, const void *info, uint32_t len,
		   uint32_t rev)
{
	return nat_target(ev, 2, info, len, rev);
}

static int tg_masq(struct sd_eval *ev, const void *info, uint32_t len,
		   uint32_t rev)
{
	return nat_target(ev, 3, info, len, rev);
}

static int tg_redir(struct sd_eval *ev, const void *info, uint32_t len,
		    uint32_t rev)
{
	return nat_target(ev, 4, info, len, rev);
}

/* ------------------------------------------------ owner, CT */

/* Host-order u32 of @sp's 4 bytes in [lo, hi] (bits MSB first). */
static BDD host_u32_range(struct sd_eval *ev, int sp, uint32_t lo,
			  uint32_t hi)
{
	uint8_t l[4] = { lo >> 24, lo >> 16, lo >> 8, lo };
	uint8_t h[4] = { hi >> 24, hi >> 16, hi >> 8, hi };
	BDD bits[32], be[32], r;
	unsigned int i;

	field(ev, sp, 0, 4, bits);
	for (i = 0; i < 32; i++)	/* little-endian bytes, reversed */
		be[i] = bits[(3 - i / 8) * 8 + i % 8];
	r = bv_range_const(be, l, h, 4);
	field_free(bits, 4);
	return r;
}

/*
 * xt owner (revision 1): the socket's uid/gid in a range, each test
 * inverted by its invert bit, over meta skuid/skgid as nft's
 * translation reads them. As there, a packet is taken to have a socket
 * (meta skuid of a packet without one breaks the rule; the engine does
 * not model sockets); --socket-exists and supplementary groups are not
 * modelled.
 */
static int mt_owner(struct sd_eval *ev, const void *info, uint32_t len,
		    uint32_t rev)
{
	static const struct { uint8_t flag, key; size_t min, max; } ids[] = {
		{ XT_OWNER_UID, NFT_META_SKUID,
		  offsetof(struct xt_owner_match_info, uid_min),
		  offsetof(struct xt_owner_match_info, uid_max) },
		{ XT_OWNER_GID, NFT_META_SKGID,
		  offsetof(struct xt_owner_match_info, gid_min),
		  offsetof(struct xt_owner_match_info, gid_max) },
	};
	const struct xt_owner_match_info *m = info;
	BDD c = bddtrue, x;
	unsigned int i;

	if (rev != 1 || len < sizeof(*m))
		return sd_eval_error(ev, "xt match `owner' revision %u is not "
				     "modelled", rev);
	if (m->match & ~(XT_OWNER_UID | XT_OWNER_GID))
		return sd_eval_error(ev, "xt match `owner' option 0x%x is not "
				     "modelled", m->match);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		uint32_t lo, hi;
		int sp;

		if (!(m->match & ids[i].flag))
			continue;
		sp = sd_space_id(ev->vars, SP_META, ids[i].key, 0, NULL);
		if (sp < 0)
			return -ENOMEM;
		memcpy(&lo, (const uint8_t *)m + ids[i].min, 4);
		memcpy(&hi, (const uint8_t *)m + ids[i].max, 4);
		x = host_u32_range(ev, sp, lo, hi);
		if (m->invert & ids[i].flag)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	narrow(ev, c);
	return 0;
}

/*
 * xt CT: --notrack (revisions 0-2 start with the flags) is nft's
 * notrack, an effect; --zone N (no direction or mark flags) is nft's
 * `ct zone set N`, a write of the ct zone (host order, both
 * directions). The rule goes on (XT_CONTINUE). Helpers, timeouts and
 * event masks are not modelled.
 */
static int tg_ct(struct sd_eval *ev, const void *info, uint32_t len,
		 uint32_t rev)
{
	const struct xt_ct_target_info *t = info;
	const struct xt_ct_target_info_v1 *t1 = info;
	static const uint8_t one = 1;
	BDD bits[16];
	unsigned int i;
	int sp;

	if (rev > 2 || len < (rev ? sizeof(*t1) : sizeof(*t)) - 8)
		return sd_eval_error(ev, "xt target `CT' revision %u is not "
				     "modelled", rev);
	if (t->flags & XT_CT_NOTRACK) {
		sp = sd_space_id(ev->vars, SP_EFFECT, 1, 0, NULL);
		if (sp < 0)
			return -ENOMEM;
		for (i = 0; i < 8; i++)
			bits[i] = (one >> (7 - i)) & 1 ? bddtrue : bddfalse;
		sd_space_write(ev, sp, 0, bits, 1);
		return 0;
	}
	if (t->flags || t->ct_events || t->exp_events || t->helper[0] ||
	    (rev && t1->timeout[0]))
		return sd_eval_error(ev, "xt target `CT' with a helper, "
				     "timeout, events or zone flags is not "
				     "modelled");
	sp = sd_space_id(ev->vars, SP_CT, NFT_CT_ZONE, 0, NULL);
	if (sp < 0)
		return -ENOMEM;
	for (i = 0; i < 16; i++)
		bits[i] = ((const uint8_t *)&t->zone)[i / 8] &
			  (0x80 >> (i % 8)) ? bddtrue : bddfalse;
	sd_space_write(ev, sp, 0, bits, 2);
	return 0;
}

/* ------------------------------------------------ rt, policy */

/* Byte @off of the IPv6 routing header, and whether there is one. */
static int rt_spaces(struct sd_eval *ev, int *val, int *pres)
{
	uint32_t a = NFT_EXTHDR_OP_IPV6 << 8 | IPPROTO_ROUTING;

	*val = sd_space_id(ev->vars, SP_EXTHDR, a, 0, NULL);
	*pres = sd_space_id(ev->vars, SP_EXTHDR, a, 1, NULL);
	return *val < 0 || *pres < 0 ? -ENOMEM : 0;
}

/*
 * ip6t rt: no routing header, no match (inverted or not); else the
 * segments-left range (always tested, 0-0xffffffff unless given) and,
 * if asked, the type, each with its invert bit. The spaces are nft's
 * `rt type` / `rt seg-left` ones (exthdr ipv6 43, bytes 2 and 3, and
 * its present bit, expr_stmt.c). Length, reserved field and addresses
 * are not modelled.
 */
static int mt_rt(struct sd_eval *ev, const void *info, uint32_t len,
		 uint32_t rev)
{
	const struct ip6t_rt *r = info;
	BDD c, x, bits[8];
	int val, pres;

	if (rev != 0 || len < sizeof(*r) ||
	    (r->flags & ~(IP6T_RT_TYP | IP6T_RT_SGS)))
		return sd_eval_error(ev, "xt match `rt' with these options is "
				     "not modelled");
	if (rt_spaces(ev, &val, &pres) < 0)
		return -ENOMEM;
	c = sd_space_bit(ev, pres, 0, 7);
	if (r->segsleft[0] > 0 || r->segsleft[1] < 0xffffffffu) {
		uint8_t lo = r->segsleft[0] > 255 ? 255 : r->segsleft[0];
		uint8_t hi = r->segsleft[1] > 255 ? 255 : r->segsleft[1];

		field(ev, val, 3, 1, bits);
		x = r->segsleft[0] > 255 || r->segsleft[0] > r->segsleft[1] ?
		    bddfalse : bv_range_const(bits, &lo, &hi, 1);
		field_free(bits, 1);
		if (r->invflags & IP6T_RT_INV_SGS)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	if (r->flags & IP6T_RT_TYP) {
		uint8_t t = r->rt_type;

		field(ev, val, 2, 1, bits);
		x = r->rt_type > 255 ? bddfalse : bv_eq_const(bits, &t, 1);
		field_free(bits, 1);
		if (r->invflags & IP6T_RT_INV_TYP)
			b_put(&x, b_not(x));
		b_andin(&c, x);
		b_free(x);
	}
	narrow(ev, c);
	return 0;
}

/*
 * xt policy --pol none: matches where the packet has no IPsec policy in
 * the direction asked (xt_policy.c: no secpath on the way in, no xfrm
 * on the route out), i.e. nft's `meta ipsec missing` / `rt ipsec
 * missing` (the meta secpath / rt xfrm byte 0). Matching policies
 * (--pol ipsec and its elements) are not modelled.
 */
static int mt_policy(struct sd_eval *ev, const void *info, uint32_t len,
		     uint32_t rev)
{
	const struct xt_policy_info *p = info;
	static const uint8_t zero;
	BDD bits[8];
	int sp;

	if (rev != 0 || len < sizeof(*p) ||
	    !(p->flags & XT_POLICY_MATCH_NONE))
		return sd_eval_error(ev, "xt match `policy' other than --pol "
				     "none is not modelled");
	if (p->flags & XT_POLICY_MATCH_IN)
		sp = sd_space_id(ev->vars, SP_META, NFT_META_SECPATH, 0, NULL);
	else
		sp = sd_space_id(ev->vars, SP_RT, NFT_RT_XFRM, 0, NULL);
	if (sp < 0)
		return -ENOMEM;
	field(ev, sp, 0, 1, bits);
	narrow(ev, bv_eq_const(bits, &zero, 1));
	field_free(bits, 1);
	return 0;
}

/*
 * ttl (IPv4, network header byte 8) and hl (IPv6, byte 7): the same
 * four modes (equal, not equal, less, greater) over the byte nft's
 * `ip ttl` / `ip6 hoplimit` read.
 */
static int ttl_hl(struct sd_eval *ev, const void *info, uint32_t len,
		  unsigned int off)
{
	const uint8_t *m = info;	/* mode, value: both layouts */
	uint8_t lo = 0, hi = 255, v;
	BDD r;

	if (len < 2 || m[0] > 3)
		return sd_eval_error(ev, "xt match `ttl/hl' mode is not "
				     "modelled");
	v = m[1];
	switch (m[0]) {
	case 0: case 1: lo = hi = v; break;		/* EQ, NE */
	case 2: if (!v) { narrow(ev, bddfalse); return 0; }
		hi = v - 1; break;			/* LT */
	case 3: if (v == 255) { narrow(ev, bddfalse); return 0; }
		lo = v + 1; break;			/* GT */
	}
	r = nh_range(ev, off, 1, &lo, &hi);
	if (m[0] == 1)
		b_put(&r, b_not(r));
	narrow(ev, r);
	return 0;
}

static int mt_ttl(struct sd_eval *ev, const void *info, uint32_t len,
		  uint32_t rev)
{
	return ttl_hl(ev, info, len, 8);
}

static int mt_hl(struct sd_eval *ev, const void *info, uint32_t len,
		 uint32_t rev)
{
	return ttl_hl(ev, info, len, 7);
}

/* ------------------------------------------------ the table */

static const struct {
	bool		target;
	const char	*name;
	int		(*eval)(struct sd_eval *ev, const void *info,
				uint32_t len, uint32_t rev);
} xt_exts[] = {
	{ false, "conntrack",	mt_conntrack },
	{ false, "state",	mt_state },
	{ false, "multiport",	mt_multiport },
	{ false, "tcp",		mt_tcp },
	{ false, "udp",		mt_udp },
	{ false, "icmp",	mt_icmp },
	{ false, "addrtype",	mt_addrtype },
	{ false, "iprange",	mt_iprange },
	{ false, "mac",		mt_mac },
	{ false, "icmp6",	mt_icmp },
	{ false, "comment",	xt_nop },	/* no effect on packets */
	{ false, "owner",	mt_owner },
	{ false, "rt",		mt_rt },
	{ false, "policy",	mt_policy },
	{ false, "ttl",		mt_ttl },
	{ false, "hl",		mt_hl },
	{ true,  "LOG",		xt_nop },	/* no effect; goes on */
	/* fills in a checksum the kernel would otherwise leave to the
	 * NIC: no field the engine compares; goes on */
	{ true,  "CHECKSUM",	xt_nop },
	{ true,  "CT",		tg_ct },
	{ true,  "REJECT",	tg_reject },
	{ true,  "MARK",	tg_mark },
	{ true,  "SNAT",	tg_snat },
	{ true,  "DNAT",	tg_dnat },
	{ true,  "MASQUERADE",	tg_masq },
	{ true,  "REDIRECT",	tg_redir },
};

int sd_expr_xt(struct sd_eval *ev, struct nftnl_expr *e)
{
	const char *kind = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	bool target = strcmp(kind, "match");
	const char *name = nftnl_expr_get_str(e, target ? NFTNL_EXPR_TG_NAME :
					      NFTNL_EXPR_MT_NAME);
	uint16_t irev = target ? NFTNL_EXPR_TG_REV : NFTNL_EXPR_MT_REV;
	uint16_t iinfo = target ? NFTNL_EXPR_TG_INFO : NFTNL_EXPR_MT_INFO;
	uint32_t rev = nftnl_expr_is_set(e, irev) ? nftnl_expr_get_u32(e, irev)
						  : 0;
	const void *info = NULL;
	uint32_t len = 0;
	unsigned int i;

	if (nftnl_expr_is_set(e, iinfo))
		info = nftnl_expr_get(e, iinfo, &len);
	for (i = 0; name && i < sizeof(xt_exts) / sizeof(xt_exts[0]); i++) {
		if (xt_exts[i].target != target ||
		    strcmp(xt_exts[i].name, name))
			continue;
		if (!info && xt_exts[i].eval != xt_nop)
			break;
		return xt_exts[i].eval(ev, info, len, rev);
	}
	return sd_eval_error(ev, "xt %s `%s' is not modelled", kind,
			     name ? name : "?");
}
