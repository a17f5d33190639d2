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
