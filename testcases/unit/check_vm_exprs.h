/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builders for the VM expressions beyond check_vm_common.h (writes, ct,
 * exthdr, stateful, NAT, reject, log, ...) and independent checksum
 * helpers (RFC 791 / RFC 793 full recomputation) for the VM tests.
 */
#ifndef CHECK_VM_EXPRS_H
#define CHECK_VM_EXPRS_H

#include "check_vm_common.h"
#include <libnftnl/object.h>
#include <linux/netfilter/nf_conntrack_tuple_common.h>
#include <linux/netfilter/nf_nat.h>

static inline struct nftnl_expr *x_payload_set(uint32_t base, uint32_t off,
					       uint32_t len, uint32_t sreg,
					       uint32_t csum_type,
					       uint32_t csum_off,
					       uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("payload");

	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
	if (csum_type)
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_CSUM_TYPE, csum_type);
	if (csum_type || csum_off)
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_CSUM_OFFSET,
				   csum_off);
	if (flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_meta_set(uint32_t key, uint32_t sreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("meta");

	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_SREG, sreg);
	return e;
}

/* dir < 0: no direction attribute */
static inline struct nftnl_expr *x_ct(uint32_t key, uint32_t dreg, int dir)
{
	struct nftnl_expr *e = nftnl_expr_alloc("ct");

	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_DREG, dreg);
	if (dir >= 0)
		nftnl_expr_set_u8(e, NFTNL_EXPR_CT_DIR, dir);
	return e;
}

static inline struct nftnl_expr *x_ct_set(uint32_t key, uint32_t sreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("ct");

	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_SREG, sreg);
	return e;
}

static inline struct nftnl_expr *x_exthdr(uint32_t op, uint8_t type,
					  uint32_t off, uint32_t len,
					  uint32_t dreg, uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("exthdr");

	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_DREG, dreg);
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_LEN, len);
	if (flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_FLAGS, flags);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, op);
	return e;
}

static inline struct nftnl_expr *x_exthdr_set(uint8_t type, uint32_t off,
					      uint32_t len, uint32_t sreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("exthdr");

	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_SREG, sreg);
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, NFT_EXTHDR_OP_TCPOPT);
	return e;
}

static inline struct nftnl_expr *x_limit(uint64_t rate, uint64_t unit,
					 uint32_t burst, uint32_t type,
					 uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("limit");

	nftnl_expr_set_u64(e, NFTNL_EXPR_LIMIT_RATE, rate);
	nftnl_expr_set_u64(e, NFTNL_EXPR_LIMIT_UNIT, unit);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_BURST, burst);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_TYPE, type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_quota(uint64_t bytes, uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("quota");

	nftnl_expr_set_u64(e, NFTNL_EXPR_QUOTA_BYTES, bytes);
	nftnl_expr_set_u32(e, NFTNL_EXPR_QUOTA_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_objref(uint32_t type, const char *name)
{
	struct nftnl_expr *e = nftnl_expr_alloc("objref");

	nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE, type);
	nftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_IMM_NAME, name);
	return e;
}

static inline struct nftnl_expr *x_objref_map(const char *set, uint32_t id,
					      uint32_t sreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("objref");

	nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_SREG, sreg);
	nftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_SET_NAME, set);
	nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_ID, id);
	return e;
}

/* sreg_data 0: none; timeout_ms 0: none */
static inline struct nftnl_expr *x_dynset(const char *set, uint32_t id,
					  uint32_t op, uint32_t sreg_key,
					  uint32_t sreg_data,
					  uint64_t timeout_ms)
{
	struct nftnl_expr *e = nftnl_expr_alloc("dynset");

	nftnl_expr_set_str(e, NFTNL_EXPR_DYNSET_SET_NAME, set);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SET_ID, id);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_OP, op);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_KEY, sreg_key);
	if (sreg_data)
		nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_DATA, sreg_data);
	if (timeout_ms)
		nftnl_expr_set_u64(e, NFTNL_EXPR_DYNSET_TIMEOUT, timeout_ms);
	return e;
}

static inline struct nftnl_expr *x_fib(uint32_t result, uint32_t flags,
				       uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("fib");

	nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_RESULT, result);
	nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_rt(uint32_t key, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("rt");

	nftnl_expr_set_u32(e, NFTNL_EXPR_RT_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_RT_DREG, dreg);
	return e;
}

/* attach one stateful expression to a dynset (the element's template) */
static inline struct nftnl_expr *x_dynset_expr(struct nftnl_expr *dynset,
					       struct nftnl_expr *e)
{
	nftnl_expr_set(dynset, NFTNL_EXPR_DYNSET_EXPR, e, sizeof(e));
	return dynset;
}

static inline struct nftnl_expr *x_connlimit(uint32_t count, uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("connlimit");

	nftnl_expr_set_u32(e, NFTNL_EXPR_CONNLIMIT_COUNT, count);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CONNLIMIT_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_numgen(uint32_t type, uint32_t mod,
					  uint32_t off, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("numgen");

	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_MODULUS, mod);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_TYPE, type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_OFFSET, off);
	return e;
}

static inline struct nftnl_expr *x_jhash(uint32_t sreg, uint32_t len,
					 uint32_t mod, uint32_t seed,
					 uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("hash");

	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_MODULUS, mod);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_SEED, seed);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_TYPE, NFT_HASH_JENKINS);
	return e;
}

static inline struct nftnl_expr *x_symhash(uint32_t mod, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("hash");

	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_MODULUS, mod);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_TYPE, NFT_HASH_SYM);
	return e;
}

/* proto_min 0: no port range */
static inline struct nftnl_expr *x_nat(uint32_t type, uint32_t family,
				       uint32_t reg_addr, uint32_t reg_pmin,
				       uint32_t reg_pmax, uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("nat");

	nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_TYPE, type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_FAMILY, family);
	if (reg_addr)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN, reg_addr);
	if (reg_pmin)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MIN, reg_pmin);
	if (reg_pmax)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MAX, reg_pmax);
	if (flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_reject(uint32_t type, int code)
{
	struct nftnl_expr *e = nftnl_expr_alloc("reject");

	nftnl_expr_set_u32(e, NFTNL_EXPR_REJECT_TYPE, type);
	if (code >= 0)
		nftnl_expr_set_u8(e, NFTNL_EXPR_REJECT_CODE, code);
	return e;
}

static inline struct nftnl_expr *x_log(const char *prefix, int level)
{
	struct nftnl_expr *e = nftnl_expr_alloc("log");

	if (prefix)
		nftnl_expr_set_str(e, NFTNL_EXPR_LOG_PREFIX, prefix);
	if (level >= 0)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_LEVEL, level);
	return e;
}

/* ------------------------------------------------------------ objects */

static inline void vmb_obj(struct vmb *v, int family, struct nftnl_obj *o,
			   int type, int flags)
{
	struct nlmsghdr *nlh = vmb_hdr(v, type, family, flags);

	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_free(o);
	vmb_next(v);
}

static inline struct nftnl_obj *mk_obj(const char *table, const char *name,
				       uint32_t type)
{
	struct nftnl_obj *o = nftnl_obj_alloc();

	nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, table);
	nftnl_obj_set_str(o, NFTNL_OBJ_NAME, name);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, type);
	return o;
}

/* ------------------------------------------------------------ checksums */

/* RFC 1071 sum over @len bytes as big-endian words, folded */
static inline uint32_t ck_sum(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static inline uint16_t ck_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static inline uint16_t ck_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void ck_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* IPv4 header checksum computed from scratch (field taken as zero) */
static inline uint16_t ck_ip4_hdr(const uint8_t *ip)
{
	uint8_t h[60];
	size_t ihl = (ip[0] & 0xf) * 4;

	memcpy(h, ip, ihl);
	h[10] = h[11] = 0;
	return ck_fold(ck_sum(0, h, ihl));
}

/* TCP/UDP checksum with the pseudo header, from scratch (RFC 793/768,
 * RFC 8200 for IPv6); @csum_off is the field's offset in the L4 header */
static inline uint16_t ck_l4(const uint8_t *pkt, int v6, size_t thoff,
			     size_t l4len, uint8_t proto, size_t csum_off)
{
	uint8_t l4[256];
	uint32_t sum = 0;

	memcpy(l4, pkt + thoff, l4len);
	l4[csum_off] = l4[csum_off + 1] = 0;
	if (v6)
		sum = ck_sum(sum, pkt + 8, 32);
	else
		sum = ck_sum(sum, pkt + 12, 8);
	sum += proto + (uint32_t)l4len;
	return ck_fold(ck_sum(sum, l4, l4len));
}

/* give a crafted packet valid IPv4 header and TCP/UDP checksums */
static inline void pkt_fix_csums(struct pkt *p, int v6)
{
	size_t thoff = v6 ? 40 : (p->data[0] & 0xf) * 4;
	uint8_t proto = v6 ? p->data[6] : p->data[9];
	size_t coff = proto == IPPROTO_TCP ? 16 : 6;

	if (!v6)
		ck_put16(p->data + 10, ck_ip4_hdr(p->data));
	ck_put16(p->data + thoff + coff,
		 ck_l4(p->data, v6, thoff, p->len - thoff, proto, coff));
}

/*
 * SCTP chunk walks (RFC 9260 3.2: a 12-byte common header, then chunks
 * of type, flags, 16-bit length, padded to 4 bytes).  SCTP_PKTS packets
 * from 127.0.0.1 to itself, TTL @ttl; sctp_pkt_chunks() says what each
 * holds.  The last one is UDP carrying an INIT chunk's bytes where an
 * SCTP packet's first chunk would be.
 */
#define SCTP_PKTS	6

static inline void mk_sctp4(struct pkt *p, unsigned int i, uint8_t ttl)
{
	static const struct {
		uint8_t		proto;
		uint8_t		len;
		uint8_t		b[40];
	} pk[SCTP_PKTS] = {
		/* DATA (flags 3, length 19 + 1 byte padding), then SACK */
		{ IPPROTO_SCTP, 36, { 0, 3, 0, 19, 1, 2, 3, 4, 0, 7, 0, 9,
				      0x11, 0x22, 0x33, 0x44, 'a', 'b', 'c',
				      0,
				      3, 0, 0, 16, 0, 0, 0, 5, 0, 1, 0, 0,
				      0, 0, 0, 0 } },
		/* INIT: tag, a_rwnd, 10 out, 65535 in, initial TSN 1 */
		{ IPPROTO_SCTP, 20, { 1, 0, 0, 20, 0xde, 0xad, 0xbe, 0xef,
				      0, 0, 0xff, 0xff, 0, 10, 0xff, 0xff,
				      0, 0, 0, 1 } },
		/* a chunk of length 0 (the walk ends there), then INIT */
		{ IPPROTO_SCTP, 24, { 9, 0, 0, 0, 1, 0, 0, 20, 0xde, 0xad,
				      0xbe, 0xef, 0, 0, 0xff, 0xff, 0, 10,
				      0xff, 0xff, 0, 0, 0, 1 } },
		/* DATA whose length (40) runs past the packet's end */
		{ IPPROTO_SCTP, 12, { 0, 0, 0, 40, 1, 2, 3, 4, 0, 7, 0, 9 } },
		/* DATA of length 8 (TSN only), then INIT */
		{ IPPROTO_SCTP, 28, { 0, 0, 0, 8, 1, 2, 3, 4,
				      1, 0, 0, 20, 0xde, 0xad, 0xbe, 0xef,
				      0, 0, 0xff, 0xff, 0, 10, 0xff, 0xff,
				      0, 0, 0, 1 } },
		/* UDP: 4 payload bytes, then an INIT's */
		{ IPPROTO_UDP, 24, { 0, 0, 0, 0, 1, 0, 0, 20, 0xde, 0xad,
				     0xbe, 0xef, 0, 0, 0xff, 0xff, 0, 10,
				     0xff, 0xff, 0, 0, 0, 1 } },
	};

	mk_ip4(p, "127.0.0.1", "127.0.0.1", pk[i].proto, 5000, 6000);
	p->data[4] = 0x12;
	p->data[5] = 0x34;
	p->data[8] = ttl;
	/* SCTP: verification tag and checksum (not checked on output) */
	memset(p->data + 24, 0, 4);
	memcpy(p->data + 32, pk[i].b, pk[i].len);
	p->len = 32 + pk[i].len;
	if (pk[i].proto == IPPROTO_UDP)
		ck_put16(p->data + 24, p->len - 20);
	ck_put16(p->data + 2, p->len);
	ck_put16(p->data + 10, ck_ip4_hdr(p->data));
}

/*
 * Rules over mk_sctp4()'s packets, each ending in a counter, and how
 * many of the SCTP_PKTS packets each must count by the RFC layout above
 * and the rules of the walk (first chunk of the type; a field must lie
 * within the chunk's length and the packet; SCTP packets only).
 */
#define SCTP_RULES	10

static inline unsigned int vmb_sctp_rules(struct vmb *v, int family,
					  const char *table,
					  const char *chain)
{
	static const uint8_t one = 1, zero = 0, flags = 3;
	static const uint8_t tsn[4] = { 1, 2, 3, 4 }, cum[4] = { 0, 0, 0, 5 };
	static const uint8_t stream[2] = { 0, 7 }, dlen[2] = { 0, 19 };
	static const uint8_t ins[2] = { 0xff, 0xff };
	const uint32_t op = NFT_EXTHDR_OP_SCTP, P = NFT_EXTHDR_F_PRESENT;

	/* sctp chunk data exists: packets 0, 3, 4 */
	vmb_rule(v, family, table, chain, x_exthdr(op, 0, 0, 1, NFT_REG_1, P),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &one, 1), x_counter());
	/* sctp chunk init exists: 1, 4 (not behind a zero-length chunk,
	 * not in UDP) */
	vmb_rule(v, family, table, chain, x_exthdr(op, 1, 0, 1, NFT_REG_1, P),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &one, 1), x_counter());
	/* sctp chunk init missing: 0, 2, 3, 5 */
	vmb_rule(v, family, table, chain, x_exthdr(op, 1, 0, 1, NFT_REG_1, P),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &zero, 1), x_counter());
	/* sctp chunk data tsn 0x01020304: 0, 4 (3 is truncated) */
	vmb_rule(v, family, table, chain, x_exthdr(op, 0, 4, 4, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, tsn, 4), x_counter());
	/* sctp chunk data stream 7: 0 (4's chunk ends before it) */
	vmb_rule(v, family, table, chain, x_exthdr(op, 0, 8, 2, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, stream, 2), x_counter());
	/* sctp chunk data length 19: 0 */
	vmb_rule(v, family, table, chain, x_exthdr(op, 0, 2, 2, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, dlen, 2), x_counter());
	/* sctp chunk data flags 3: 0 */
	vmb_rule(v, family, table, chain, x_exthdr(op, 0, 1, 1, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, &flags, 1), x_counter());
	/* sctp chunk sack cum-tsn-ack 5: 0, behind DATA's padding */
	vmb_rule(v, family, table, chain, x_exthdr(op, 3, 4, 4, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, cum, 4), x_counter());
	/* sctp chunk init num-inbound-streams 65535: 1, 4 */
	vmb_rule(v, family, table, chain,
		 x_exthdr(op, 1, 14, 2, NFT_REG_1, 0),
		 x_cmp(NFT_REG_1, NFT_CMP_EQ, ins, 2), x_counter());
	/* meta l4proto sctp: 0 to 4 */
	vmb_rule(v, family, table, chain, X_L4PROTO(IPPROTO_SCTP),
		 x_counter());
	return SCTP_RULES;
}

/* what each of vmb_sctp_rules()' rules must count, in order */
static const unsigned int sctp_rule_hits[SCTP_RULES] = {
	3, 2, 4, 2, 1, 1, 1, 1, 2, 5
};

/* load one rule made of @e into a fresh table/chain: the batch's errno */
static inline int load_one(struct nftvm *vm, int family, int hook,
			   const char *type, struct nftvm_err *err,
			   struct nftnl_expr *e)
{
	struct vmb v;

	vmb_begin(&v);
	vmb_table(&v, family, "x", 0);
	vmb_chain(&v, family, "x", "c", hook, 0, NF_ACCEPT, type);
	vmb_rule(&v, family, "x", "c", e);
	return vmb_send(vm, &v, err);
}

/*
 * One table "d" (ip) using the VM's newer expressions in filter and nat
 * chains (handles: chains 1-3, object 4, set 5, rules from 6 on).
 */
static inline void vmb_sample_ruleset(struct vmb *v)
{
	uint32_t a = inet_addr("192.0.2.1"), one = 1;
	uint16_t port = htons(8080);
	struct nftnl_expr *e;
	struct nftnl_set *s;

	vmb_table(v, NFPROTO_IPV4, "d", 0);
	vmb_chain(v, NFPROTO_IPV4, "d", "out", NF_INET_LOCAL_OUT, 0,
		  NF_ACCEPT, NULL);
	vmb_chain(v, NFPROTO_IPV4, "d", "post", NF_INET_POST_ROUTING, 100,
		  NF_ACCEPT, "nat");
	vmb_chain(v, NFPROTO_IPV4, "d", "pre", NF_INET_PRE_ROUTING, -100,
		  NF_ACCEPT, "nat");
	vmb_obj(v, NFPROTO_IPV4, mk_obj("d", "c1", NFT_OBJECT_COUNTER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE);
	s = mk_set("d", "dyn", 1, NFT_SET_EVAL | NFT_SET_TIMEOUT, 4, 0, 0);
	vmb_set(v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	vmb_rule(v, NFPROTO_IPV4, "d", "out", x_imm(NFT_REG_1, &a, 4),
		 x_payload_set(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1,
			       NFT_PAYLOAD_CSUM_INET, 10,
			       NFT_PAYLOAD_L4CSUM_PSEUDOHDR));
	vmb_rule(v, NFPROTO_IPV4, "d", "out", x_imm(NFT_REG_1, &one, 4),
		 x_meta_set(NFT_META_MARK, NFT_REG_1),
		 x_ct_set(NFT_CT_MARK, NFT_REG_1));
	vmb_rule(v, NFPROTO_IPV4, "d", "out", x_ct(NFT_CT_STATE, NFT_REG_1, -1),
		 x_ct(NFT_CT_PROTO_DST, NFT_REG_2, IP_CT_DIR_REPLY),
		 x_ct(NFT_CT_BYTES, NFT_REG_3, IP_CT_DIR_ORIGINAL),
		 x_ct(NFT_CT_ZONE, NFT_REG_4, -1));
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 2, 2, 2, NFT_REG_1, 0),
		 x_exthdr(NFT_EXTHDR_OP_TCPOPT, 4, 0, 1, NFT_REG_2,
			  NFT_EXTHDR_F_PRESENT),
		 x_exthdr_set(2, 2, 2, NFT_REG_1),
		 x_exthdr(NFT_EXTHDR_OP_SCTP, 0, 4, 4, NFT_REG_3, 0),
		 x_exthdr(NFT_EXTHDR_OP_SCTP, 1, 0, 1, NFT_REG_4,
			  NFT_EXTHDR_F_PRESENT));
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_limit(10, 1, 5, NFT_LIMIT_PKTS, 0),
		 x_limit(1000, 60, 100, NFT_LIMIT_PKT_BYTES, NFT_LIMIT_F_INV),
		 x_quota(1000, NFT_QUOTA_F_INV), x_counter(),
		 nftnl_expr_alloc("last"), x_connlimit(3, NFT_CONNLIMIT_F_INV),
		 x_objref(NFT_OBJECT_COUNTER, "c1"));
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_numgen(NFT_NG_INCREMENTAL, 4, 2, NFT_REG_1),
		 x_jhash(NFT_REG_1, 4, 16, 0xfeed, NFT_REG_2),
		 x_symhash(8, NFT_REG_3), x_log("p: ", 2), x_log(NULL, -1));
	e = nftnl_expr_alloc("log");
	nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_GROUP, 3);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_SNAPLEN, 100);
	nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_QTHRESHOLD, 10);
	vmb_rule(v, NFPROTO_IPV4, "d", "out", e);
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_dynset_expr(x_dynset("dyn", 1, NFT_DYNSET_OP_UPDATE,
					NFT_REG_1, 0, 5000),
			       x_limit(1, 1, 0, 0, 0)),
		 nftnl_expr_alloc("notrack"));
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_reject(NFT_REJECT_ICMP_UNREACH, 3));
	vmb_rule(v, NFPROTO_IPV4, "d", "out", x_reject(NFT_REJECT_TCP_RST, -1));
	/* no queue: this machine's kernel has no nft_queue */
	vmb_rule(v, NFPROTO_IPV4, "d", "out", x_imm(NFT_REG_1, &a, 4),
		 ({ struct nftnl_expr *d = nftnl_expr_alloc("dup");
		    nftnl_expr_set_u32(d, NFTNL_EXPR_DUP_SREG_ADDR, NFT_REG_1);
		    d; }));
	vmb_rule(v, NFPROTO_IPV4, "d", "post", x_imm(NFT_REG_1, &a, 4),
		 x_imm(NFT_REG_2, &port, 2),
		 x_nat(NFT_NAT_SNAT, NFPROTO_IPV4, NFT_REG_1, NFT_REG_2, 0,
		       NF_NAT_RANGE_PERSISTENT));
	vmb_rule(v, NFPROTO_IPV4, "d", "post", nftnl_expr_alloc("masq"));
	vmb_rule(v, NFPROTO_IPV4, "d", "post", x_rt(NFT_RT_TCPMSS, NFT_REG_1),
		 x_rt(NFT_RT_NEXTHOP4, NFT_REG_2),
		 x_rt(NFT_RT_CLASSID, NFT_REG_3), x_rt(NFT_RT_XFRM, NFT_REG_4));
	vmb_rule(v, NFPROTO_IPV4, "d", "pre",
		 x_meta(NFT_META_SECPATH, NFT_REG_1));
	vmb_rule(v, NFPROTO_IPV4, "d", "pre",
		 x_fib(NFT_FIB_RESULT_OIF, NFTA_FIB_F_SADDR | NFTA_FIB_F_IIF |
		       NFTA_FIB_F_PRESENT, NFT_REG_1),
		 x_fib(NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR, NFT_REG_2),
		 x_fib(NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_DADDR, NFT_REG_3));
	vmb_rule(v, NFPROTO_IPV4, "d", "post", x_imm(NFT_REG_1, &port, 2),
		 ({ struct nftnl_expr *m = nftnl_expr_alloc("masq");
		    nftnl_expr_set_u32(m, NFTNL_EXPR_MASQ_FLAGS,
				       NF_NAT_RANGE_PROTO_RANDOM);
		    nftnl_expr_set_u32(m, NFTNL_EXPR_MASQ_REG_PROTO_MIN,
				       NFT_REG_1);
		    m; }));
	vmb_rule(v, NFPROTO_IPV4, "d", "pre", x_imm(NFT_REG_1, &a, 4),
		 x_nat(NFT_NAT_DNAT, NFPROTO_IPV4, NFT_REG_1, 0, 0, 0));
	/* a jhash without seed, exthdr ipv6, a dynset without timeout,
	 * quota and limit with defaults, ct zone set by direction */
	e = nftnl_expr_alloc("hash");
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_DREG, NFT_REG_2);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_LEN, 4);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_MODULUS, 2);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_OFFSET, 100);
	vmb_rule(v, NFPROTO_IPV4, "d", "out",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1), e,
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 0, 0, 1, NFT_REG_1,
			  NFT_EXTHDR_F_PRESENT),
		 x_exthdr(NFT_EXTHDR_OP_IPV6, 44, 2, 2, NFT_REG_1, 0),
		 x_dynset("dyn", 1, NFT_DYNSET_OP_ADD, NFT_REG_1, 0, 0),
		 ({ struct nftnl_expr *q = nftnl_expr_alloc("quota");
		    nftnl_expr_set_u64(q, NFTNL_EXPR_QUOTA_BYTES, 5);
		    q; }),
		 ({ struct nftnl_expr *l = nftnl_expr_alloc("limit");
		    nftnl_expr_set_u64(l, NFTNL_EXPR_LIMIT_RATE, 3);
		    nftnl_expr_set_u64(l, NFTNL_EXPR_LIMIT_UNIT, 1);
		    l; }));
	vmb_rule(v, NFPROTO_IPV4, "d", "pre", x_imm(NFT_REG_1, &port, 2),
		 ({ struct nftnl_expr *r = nftnl_expr_alloc("redir");
		    nftnl_expr_set_u32(r, NFTNL_EXPR_REDIR_REG_PROTO_MIN,
				       NFT_REG_1);
		    r; }));
}

#define VM_SUITE_MAIN(fn)						\
int main(void)								\
{									\
	SRunner *sr = srunner_create(fn());				\
	int failed;							\
									\
	srunner_run_all(sr, CK_NORMAL);					\
	failed = srunner_ntests_failed(sr);				\
	srunner_free(sr);						\
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;			\
}

#endif /* CHECK_VM_EXPRS_H */
