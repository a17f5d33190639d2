/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the VM unit tests (check_vm_*.c): build nfnetlink
 * batches with libnftnl/libmnl, craft IPv4/IPv6 TCP/UDP packets, run them
 * through libnftvm.  Test code only: the VM itself never uses libnftnl.
 */
#ifndef CHECK_VM_COMMON_H
#define CHECK_VM_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>

#include <nftvm/nftvm.h>

#define VMB_SIZE	(1u << 20)

/* a batch under construction */
struct vmb {
	char			*buf;
	struct mnl_nlmsg_batch	*b;
	uint32_t		seq;
};

static inline void vmb_begin(struct vmb *v)
{
	v->buf = calloc(1, VMB_SIZE);
	ck_assert_ptr_nonnull(v->buf);
	v->b = mnl_nlmsg_batch_start(v->buf, VMB_SIZE);
	v->seq = 100;
	nftnl_batch_begin(mnl_nlmsg_batch_current(v->b), v->seq++);
	mnl_nlmsg_batch_next(v->b);
}

static inline struct nlmsghdr *vmb_hdr(struct vmb *v, int type, int family,
				       int flags)
{
	return nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(v->b), type,
				     family, flags, v->seq++);
}

static inline void vmb_next(struct vmb *v)
{
	mnl_nlmsg_batch_next(v->b);
}

/*
 * The message added last, e.g. to turn a DEL built with libnftnl into its
 * DESTROY twin (NFTVM_MSG_DESTROY*), which libnftnl may not know.
 */
static inline struct nlmsghdr *vmb_last(struct vmb *v)
{
	struct nlmsghdr *nlh = mnl_nlmsg_batch_head(v->b), *last = NULL;
	size_t left = mnl_nlmsg_batch_size(v->b);

	while (left >= sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= left) {
		last = nlh;
		left -= NLMSG_ALIGN(nlh->nlmsg_len) < left ?
			NLMSG_ALIGN(nlh->nlmsg_len) : left;
		nlh = (struct nlmsghdr *)((char *)nlh +
					  NLMSG_ALIGN(nlh->nlmsg_len));
	}
	return last;
}

static inline void vmb_retype_last(struct vmb *v, int type)
{
	vmb_last(v)->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | type;
}

/* close the batch, run it, free it; returns the VM's answer */
static inline int vmb_send(struct nftvm *vm, struct vmb *v,
			   struct nftvm_err *err)
{
	struct nftvm_err tmp;
	int ret;

	nftnl_batch_end(mnl_nlmsg_batch_current(v->b), v->seq++);
	mnl_nlmsg_batch_next(v->b);
	ret = nftvm_batch_process(vm, mnl_nlmsg_batch_head(v->b),
				  mnl_nlmsg_batch_size(v->b),
				  err ? err : &tmp);
	mnl_nlmsg_batch_stop(v->b);
	free(v->buf);
	v->buf = NULL;
	return ret;
}

/* send without the BATCH_END message */
static inline int vmb_send_noend(struct nftvm *vm, struct vmb *v,
				 struct nftvm_err *err)
{
	int ret = nftvm_batch_process(vm, mnl_nlmsg_batch_head(v->b),
				      mnl_nlmsg_batch_size(v->b), err);

	mnl_nlmsg_batch_stop(v->b);
	free(v->buf);
	v->buf = NULL;
	return ret;
}

static inline void vmb_table(struct vmb *v, int family, const char *name,
			     int flags)
{
	struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	nftnl_table_set_str(t, NFTNL_TABLE_NAME, name);
	nlh = vmb_hdr(v, NFT_MSG_NEWTABLE, family, NLM_F_CREATE | flags);
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	vmb_next(v);
}

static inline void vmb_deltable(struct vmb *v, int family, const char *name)
{
	struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	if (name)
		nftnl_table_set_str(t, NFTNL_TABLE_NAME, name);
	nlh = vmb_hdr(v, NFT_MSG_DELTABLE, family, 0);
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	vmb_next(v);
}

/* hook < 0: regular chain; type NULL: filter */
static inline void vmb_chain(struct vmb *v, int family, const char *table,
			     const char *name, int hook, int prio,
			     int policy, const char *type)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	if (hook >= 0) {
		nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, hook);
		nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, prio);
		nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE,
				    type ? type : "filter");
		if (policy >= 0)
			nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, policy);
	}
	nlh = vmb_hdr(v, NFT_MSG_NEWCHAIN, family, NLM_F_CREATE);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	vmb_next(v);
}

/* a netdev-style base chain (netdev, inet ingress) on @dev, accepting */
static inline void vmb_devchain(struct vmb *v, int family,
				const char *table, const char *name,
				int hook, int prio, const char *dev)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, hook);
	nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, prio);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, "filter");
	nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, NF_ACCEPT);
	nftnl_chain_set_str(c, NFTNL_CHAIN_DEV, dev);
	nlh = vmb_hdr(v, NFT_MSG_NEWCHAIN, family, NLM_F_CREATE);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	vmb_next(v);
}

static inline void vmb_delchain(struct vmb *v, int family, const char *table,
				const char *name)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nlh = vmb_hdr(v, NFT_MSG_DELCHAIN, family, 0);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	vmb_next(v);
}

/* append a rule made of the NULL-terminated expression list */
static inline void vmb_rule_flags(struct vmb *v, int family,
				  const char *table, const char *chain,
				  int flags, uint64_t position, ...)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nftnl_expr *e;
	struct nlmsghdr *nlh;
	va_list ap;

	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	if (position)
		nftnl_rule_set_u64(r, NFTNL_RULE_POSITION, position);
	va_start(ap, position);
	while ((e = va_arg(ap, struct nftnl_expr *)) != NULL)
		nftnl_rule_add_expr(r, e);
	va_end(ap);
	nlh = vmb_hdr(v, NFT_MSG_NEWRULE, family, flags);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	vmb_next(v);
}

#define vmb_rule(v, fam, table, chain, ...)				\
	vmb_rule_flags(v, fam, table, chain, NLM_F_CREATE | NLM_F_APPEND, \
		       0, __VA_ARGS__, NULL)

static inline void vmb_delrule(struct vmb *v, int family, const char *table,
			       const char *chain, uint64_t handle)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nlmsghdr *nlh;

	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	if (chain)
		nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	if (handle)
		nftnl_rule_set_u64(r, NFTNL_RULE_HANDLE, handle);
	nlh = vmb_hdr(v, NFT_MSG_DELRULE, family, 0);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	vmb_next(v);
}

/* dtype 0: plain set; NFT_DATA_VERDICT: verdict map; else value map */
static inline struct nftnl_set *mk_set(const char *table, const char *name,
				       uint32_t id, uint32_t flags,
				       uint32_t klen, uint32_t dtype,
				       uint32_t dlen)
{
	struct nftnl_set *s = nftnl_set_alloc();

	nftnl_set_set_str(s, NFTNL_SET_TABLE, table);
	nftnl_set_set_str(s, NFTNL_SET_NAME, name);
	nftnl_set_set_u32(s, NFTNL_SET_ID, id);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, 0);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, klen);
	if (dtype) {
		flags |= NFT_SET_MAP;
		nftnl_set_set_u32(s, NFTNL_SET_DATA_TYPE, dtype);
		if (dtype != NFT_DATA_VERDICT)
			nftnl_set_set_u32(s, NFTNL_SET_DATA_LEN, dlen);
	}
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, flags);
	return s;
}

static inline void vmb_set(struct vmb *v, int family, struct nftnl_set *s)
{
	struct nlmsghdr *nlh = vmb_hdr(v, NFT_MSG_NEWSET, family,
				       NLM_F_CREATE);

	nftnl_set_nlmsg_build_payload(nlh, s);
	vmb_next(v);
}

static inline void set_add_key(struct nftnl_set *s, const void *key,
			       uint32_t klen, uint32_t flags)
{
	struct nftnl_set_elem *e = nftnl_set_elem_alloc();

	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, klen);
	if (flags)
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_FLAGS, flags);
	nftnl_set_elem_add(s, e);
}

static inline void set_add_verdict(struct nftnl_set *s, const void *key,
				   uint32_t klen, int verdict,
				   const char *chain)
{
	struct nftnl_set_elem *e = nftnl_set_elem_alloc();

	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, klen);
	nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_VERDICT, verdict);
	if (chain)
		nftnl_set_elem_set_str(e, NFTNL_SET_ELEM_CHAIN, chain);
	nftnl_set_elem_add(s, e);
}

static inline void set_add_value(struct nftnl_set *s, const void *key,
				 uint32_t klen, const void *val,
				 uint32_t vlen)
{
	struct nftnl_set_elem *e = nftnl_set_elem_alloc();

	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, klen);
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_DATA, val, vlen);
	nftnl_set_elem_add(s, e);
}

static inline void vmb_elems(struct vmb *v, int family, struct nftnl_set *s,
			     int type, int flags)
{
	struct nlmsghdr *nlh = vmb_hdr(v, type, family, flags);

	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	vmb_next(v);
}

/* ------------------------------------------------------------ exprs */

static inline struct nftnl_expr *x_payload(uint32_t base, uint32_t off,
					   uint32_t len, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("payload");

	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
	return e;
}

static inline struct nftnl_expr *x_cmp(uint32_t sreg, uint32_t op,
				       const void *data, uint32_t len)
{
	struct nftnl_expr *e = nftnl_expr_alloc("cmp");

	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
	nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	return e;
}

static inline struct nftnl_expr *x_verdict(int verdict, const char *chain)
{
	struct nftnl_expr *e = nftnl_expr_alloc("immediate");

	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, verdict);
	if (chain)
		nftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN, chain);
	return e;
}

static inline struct nftnl_expr *x_imm(uint32_t dreg, const void *data,
				       uint32_t len)
{
	struct nftnl_expr *e = nftnl_expr_alloc("immediate");

	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, dreg);
	nftnl_expr_set(e, NFTNL_EXPR_IMM_DATA, data, len);
	return e;
}

static inline struct nftnl_expr *x_counter(void)
{
	return nftnl_expr_alloc("counter");
}

static inline struct nftnl_expr *x_meta(uint32_t key, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("meta");

	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, dreg);
	return e;
}

/* dreg < 0: plain membership test */
static inline struct nftnl_expr *x_lookup(const char *set, uint32_t id,
					  uint32_t sreg, int dreg,
					  uint32_t flags)
{
	struct nftnl_expr *e = nftnl_expr_alloc("lookup");

	nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, set);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, id);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, sreg);
	if (dreg >= 0)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, dreg);
	if (flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_FLAGS, flags);
	return e;
}

static inline struct nftnl_expr *x_bitwise(uint32_t sreg, uint32_t dreg,
					   uint32_t len, const void *mask,
					   const void *xor)
{
	struct nftnl_expr *e = nftnl_expr_alloc("bitwise");

	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mask, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, xor, len);
	return e;
}

static inline struct nftnl_expr *x_shift(uint32_t sreg, uint32_t dreg,
					 uint32_t len, uint32_t op,
					 uint32_t shift)
{
	struct nftnl_expr *e = nftnl_expr_alloc("bitwise");

	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_OP, op);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_DATA, &shift, sizeof(shift));
	return e;
}

static inline struct nftnl_expr *x_range(uint32_t sreg, uint32_t op,
					 const void *from, const void *to,
					 uint32_t len)
{
	struct nftnl_expr *e = nftnl_expr_alloc("range");

	nftnl_expr_set_u32(e, NFTNL_EXPR_RANGE_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_RANGE_OP, op);
	nftnl_expr_set(e, NFTNL_EXPR_RANGE_FROM_DATA, from, len);
	nftnl_expr_set(e, NFTNL_EXPR_RANGE_TO_DATA, to, len);
	return e;
}

static inline struct nftnl_expr *x_byteorder(uint32_t sreg, uint32_t dreg,
					     uint32_t op, uint32_t len,
					     uint32_t size)
{
	struct nftnl_expr *e = nftnl_expr_alloc("byteorder");

	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP, op);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, size);
	return e;
}

/* match the transport protocol and destination port (tcp/udp) */
#define X_L4PROTO(p)	x_meta(NFT_META_L4PROTO, NFT_REG_1),		\
			x_cmp(NFT_REG_1, NFT_CMP_EQ, (uint8_t[]){ p }, 1)
#define X_DPORT(port)	x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2,	\
				  NFT_REG_1),				\
			x_cmp(NFT_REG_1, NFT_CMP_EQ,			\
			      (uint16_t[]){ htons(port) }, 2)

/* ------------------------------------------------------------ packets */

struct pkt {
	uint8_t		data[256];
	uint32_t	len;
};

static inline void pkt_l4(uint8_t *l4, uint8_t proto, uint16_t sport,
			  uint16_t dport, uint32_t *len)
{
	l4[0] = sport >> 8;
	l4[1] = sport & 0xff;
	l4[2] = dport >> 8;
	l4[3] = dport & 0xff;
	if (proto == IPPROTO_TCP) {
		l4[12] = 5 << 4;	/* data offset */
		l4[13] = 0x02;		/* SYN */
		*len = 20;
	} else {
		*len = 8;
		l4[4] = 0;
		l4[5] = 8;
	}
}

static inline void mk_ip4(struct pkt *p, const char *src, const char *dst,
			  uint8_t proto, uint16_t sport, uint16_t dport)
{
	uint32_t l4len;

	memset(p, 0, sizeof(*p));
	p->data[0] = 0x45;
	p->data[8] = 64;
	p->data[9] = proto;
	inet_pton(AF_INET, src, p->data + 12);
	inet_pton(AF_INET, dst, p->data + 16);
	pkt_l4(p->data + 20, proto, sport, dport, &l4len);
	p->len = 20 + l4len;
	p->data[2] = p->len >> 8;
	p->data[3] = p->len & 0xff;
}

static inline void mk_ip6(struct pkt *p, const char *src, const char *dst,
			  uint8_t proto, uint16_t sport, uint16_t dport)
{
	uint32_t l4len;

	memset(p, 0, sizeof(*p));
	p->data[0] = 0x60;
	p->data[6] = proto;
	p->data[7] = 64;
	inet_pton(AF_INET6, src, p->data + 8);
	inet_pton(AF_INET6, dst, p->data + 24);
	pkt_l4(p->data + 40, proto, sport, dport, &l4len);
	p->len = 40 + l4len;
	p->data[4] = l4len >> 8;
	p->data[5] = l4len & 0xff;
}

static inline int run(struct nftvm *vm, int hook, int family, struct pkt *p,
		      const struct nftvm_pktmeta *meta,
		      struct nftvm_result *res)
{
	struct nftvm_pkt pk = { .data = p->data, .len = p->len };
	struct nftvm_result tmp;

	ck_assert_int_eq(nftvm_eval(vm, hook, family, &pk, meta,
				    res ? res : &tmp), 0);
	return (res ? res : &tmp)->verdict;
}

static inline uint64_t rule_packets(struct nftvm *vm, int family,
				    const char *table, const char *chain,
				    uint64_t handle)
{
	__u64 packets = 0, bytes = 0;

	ck_assert_int_eq(nftvm_rule_counters(vm, family, table, chain, handle,
					     &packets, &bytes), 0);
	return packets;
}

#endif /* CHECK_VM_COMMON_H */
