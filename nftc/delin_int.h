/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_DELIN_INT_H
#define NFTC_DELIN_INT_H

/* Internal interface of the decompiler (delinearize*.c, delin_*.c). */

#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include "delinearize.h"
#include "expr.h"
#include "stmt.h"
#include "proto.h"
#include "keys.h"
#include <endian.h>
#include <string.h>
#include <linux/netlink.h>
#include "nlr.h"

/*
 * struct dx - one VM expression as the decompiler reads it: libnftnl's
 * object (@nle), or attributes of a dump message read in place
 * (delin_msg.c): @f[attribute - NFTNL_EXPR_BASE] points at each, by the
 * libnftnl attribute number (NFTNL_EXPR_*) the readers ask for.
 */
#define DX_FIELDS		8

/* The expressions read in place (delin_msg.c), for dispatch. */
enum dx_op {
	DX_CMP,
	DX_PAYLOAD,
	DX_META,
	DX_IMMEDIATE,
	DX_CT,
	DX_BITWISE,
	DX_COUNTER,
	DX_LOOKUP,
	DX_RANGE,
	DX_BYTEORDER,
	DX_LIMIT,
	DX_LOG,
	DX_REJECT,
	DX_MATCH,
	DX_TARGET,
	__DX_MAX
};

struct dx {
	const struct nftnl_expr	*nle;
	const char		*name;
	enum dx_op		op;
	const struct nlattr	*f[DX_FIELDS];
};

static inline const void *dx_payload(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static inline uint16_t dx_payload_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static inline const struct nlattr *dx_attr(const struct dx *x, uint16_t attr)
{
	unsigned int i = attr - NFTNL_EXPR_BASE;

	return i < DX_FIELDS ? x->f[i] : NULL;
}

static inline bool dx_has(const struct dx *x, uint16_t attr)
{
	return x->nle ? nftnl_expr_is_set(x->nle, attr) :
	       dx_attr(x, attr) != NULL;
}

/* Integers as libnftnl gives them: host order, 0 if absent. */
static inline uint32_t dx_u32(const struct dx *x, uint16_t attr)
{
	const struct nlattr *a;
	uint32_t v;

	if (x->nle)
		return nftnl_expr_get_u32(x->nle, attr);
	a = dx_attr(x, attr);
	if (!a || dx_payload_len(a) != sizeof(v))
		return 0;
	memcpy(&v, dx_payload(a), sizeof(v));
	return be32toh(v);
}

static inline uint16_t dx_u16(const struct dx *x, uint16_t attr)
{
	const struct nlattr *a;
	uint16_t v;

	if (x->nle)
		return nftnl_expr_get_u16(x->nle, attr);
	a = dx_attr(x, attr);
	if (!a || dx_payload_len(a) != sizeof(v))
		return 0;
	memcpy(&v, dx_payload(a), sizeof(v));
	return be16toh(v);
}

static inline uint8_t dx_u8(const struct dx *x, uint16_t attr)
{
	const struct nlattr *a;

	if (x->nle)
		return nftnl_expr_get_u8(x->nle, attr);
	a = dx_attr(x, attr);
	return a && dx_payload_len(a) >= 1 ?
	       *(const uint8_t *)dx_payload(a) : 0;
}

uint64_t dx_u64(const struct dx *x, uint16_t attr);
const char *dx_str(const struct dx *x, uint16_t attr);
const void *dx_data(const struct dx *x, uint16_t attr, uint32_t *len);
int delin_rmsg_foreach(const struct delin_rmsg *m,
		       void (*fn)(const struct dx *x, void *priv), void *priv);

/* One 32-bit slot per VM register word: NFT_REG32_00 .. NFT_REG32_15. */
#define DELIN_SLOTS		16

/**
 * struct delin_rule_ctx - state of decompiling one rule
 * @dctx: table-level context (family, sets)
 * @rule: the rule being built
 * @pctx: protocol context, narrowed by each protocol match read so far
 *        (it names raw payload loads: "@th,16,16" after "meta l4proto
 *        tcp" is "tcp dport")
 * @regs: the expression whose value each register slot holds (owned)
 * @gte: a "cmp gte" just read, waiting for the "cmp lte" that makes it
 *       a range: the statement and the register value it tested
 */
struct delin_rule_ctx {
	struct delin_ctx	*dctx;
	struct rule		*rule;
	struct proto_ctx	pctx;
	struct expr		*regs[DELIN_SLOTS];
	struct stmt		*gte;
	const struct expr	*gte_src;
	const struct proto_desc	*icmp_desc;
	int			icmp_type;
};

extern const struct location delin_loc;

void delin_set_dtype(struct expr *e, const struct datatype *dtype);

/* delinearize.c */
int delin_reg_slot(uint32_t reg);
/* A new reference to (a concatenation of) the value(s) in @reg covering
 * @len bytes (0: whatever the first slot holds). NULL if empty. */
struct expr *delin_reg_get(struct delin_rule_ctx *c, uint32_t reg,
			   unsigned int len);
const struct expr *delin_reg_peek(struct delin_rule_ctx *c, uint32_t reg);
/* Store @e (taken over) as the value of @reg. */
void delin_reg_set(struct delin_rule_ctx *c, uint32_t reg, struct expr *e);
void delin_add_stmt(struct delin_rule_ctx *c, struct stmt *s);
/* Constant from register bytes, typed like @like (concat aware). */
struct expr *delin_value(const struct expr *like, const void *data,
			 unsigned int len);
/* Constant of @dtype from register bytes in @order. */
struct expr *delin_value_typed(const struct datatype *dtype,
			       enum byteorder order, unsigned int len_bits,
			       const void *data, unsigned int dlen);
/* Give an untyped immediate (or a set of them) the type of @like. */
struct expr *delin_retype(struct expr *e, const struct expr *like);
/* Name raw payload @p from the protocol context. */
void delin_payload_resolve(struct delin_rule_ctx *c, struct expr *p);
struct expr *delin_payload_alloc(enum proto_bases base, unsigned int offset,
				 unsigned int len);
struct expr *delin_exthdr_alloc(uint32_t op, uint8_t type,
				unsigned int offset, unsigned int len,
				uint32_t flags);
struct expr *delin_string_expr(const char *s);
struct expr *delin_verdict(int verdict, const char *chain);
/* A header that only says which one follows (not printed). */
bool delin_desc_is_pseudo(const struct proto_desc *d);
/* Bits of headers stacked below @p's (vlan on ethernet). */
unsigned int delin_payload_stack(struct delin_rule_ctx *c,
				 const struct expr *p);

/* delin_cmp.c */
/* "@l OP @r" as a match statement; protocol matches narrow the context. */
void delin_add_relational(struct delin_rule_ctx *c, enum ops op,
			  struct expr *l, struct expr *r);
void delin_cmp(struct delin_rule_ctx *c, const struct dx *e);
/* A listing template being recorded (list_tmpl.c): @v is read from the
 * value in slot @k (-1: none), or slot @k is no hole. */
struct expr *delin_rec_mark(struct delin_rule_ctx *c, int k, struct expr *v);
void delin_rec_keyed(struct delin_rule_ctx *c, int k);

/* The set @name of the rule's table, or NULL. */
struct set *delin_find_set(struct delin_rule_ctx *c,
			   const struct dx *e, uint16_t name_attr,
			   uint16_t id_attr);

/*
 * struct delin_set_attrs - what a set declaration is made from, as
 * libnftnl's getters give it (host order, 0 or NULL when absent): read
 * from libnftnl's object (nftc_delinearize_set) or from a dump message
 * in place (delin_set_msg.c)
 */
struct delin_set_attrs {
	uint32_t	family;
	const char	*table;
	const char	*name;
	bool		has_handle;
	uint64_t	handle;
	bool		has_id;
	uint32_t	id;
	uint32_t	flags;
	const void	*udata;
	uint32_t	udata_len;
	const uint8_t	*concat;	/* field lengths, bytes */
	uint32_t	concat_len;
	uint32_t	key_type;
	uint32_t	key_len;
	uint32_t	obj_type;
	bool		has_data_type;
	uint32_t	data_type;
	uint32_t	data_len;
	uint64_t	timeout;
	uint32_t	gc_int;
	uint32_t	size;
	uint32_t	policy;
};

/* delin_set.c: the declaration of @a (no expressions), or NULL. */
struct set *delin_set_from(const struct delin_set_attrs *a);

/* delin_set.c: anonymous sets are typed by the rule that uses them. */
#define SET_F_DELIN_BOUND	(1u << 24)
void delin_set_bind(struct set *set, const struct expr *key);
/*
 * Register bytes a set key (or data) @e takes: concatenation members
 * each start on a 32-bit word ("meta l4proto . th dport" is 8, not 3).
 */
unsigned int delin_key_bytes(const struct expr *e);
struct set *delin_set_index_lookup(const struct delin_set_index *idx,
				   const char *name);

/* delin_stmt.c: statements; returns 0 if @name is handled. */
int delin_stmt(struct delin_rule_ctx *c, const char *name,
	       const struct dx *e);
/* delin_stmt.c: a stateful expression (set element, dynset) as stmt. */
struct stmt *delin_stateful(const struct nftnl_expr *e);

#endif
