// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rule dump messages read in place.
 *
 * Listing reads every rule once; making libnftnl objects of it (a
 * calloc per expression, every attribute validated, copied and freed)
 * cost more than decompiling and printing together. The expressions a
 * big ruleset is made of are read here straight from the message
 * instead: each attribute is found by its netlink type and kept as a
 * pointer into the message, under the libnftnl attribute number the
 * decompiler asks for (struct dx). A rule with any other expression is
 * left to libnftnl whole (delin_rmsg.direct false).
 */
#include <config.h>
#include <endian.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>
#include "delin_int.h"

/* What a netlink attribute holds, as the decompiler reads it. */
enum dx_kind {
	DXK_NONE,
	DXK_INT,	/* integer in network order (or one byte) */
	DXK_STR,	/* NUL-terminated string */
	DXK_DATA,	/* nested NFTA_DATA_VALUE */
	DXK_IMM,	/* nested NFTA_DATA_VALUE or NFTA_DATA_VERDICT */
	DXK_RAW,	/* bytes as they are (xt info blobs) */
};

struct dx_field {
	uint8_t		id;	/* libnftnl attribute - NFTNL_EXPR_BASE */
	uint8_t		kind;	/* enum dx_kind */
};

#define DX_NLA_MAX	9

/* The expressions read in place, by name; fields by netlink type. */
struct dx_type {
	const char		*name;
	struct dx_field		f[DX_NLA_MAX];
};

#define F(a, k)		{ (a) - NFTNL_EXPR_BASE, DXK_##k }

static const struct dx_type dx_types[__DX_MAX] = {
	[DX_CMP] = { "cmp", {
		[NFTA_CMP_SREG]		= F(NFTNL_EXPR_CMP_SREG, INT),
		[NFTA_CMP_OP]		= F(NFTNL_EXPR_CMP_OP, INT),
		[NFTA_CMP_DATA]		= F(NFTNL_EXPR_CMP_DATA, DATA),
	} },
	[DX_PAYLOAD] = { "payload", {
		[NFTA_PAYLOAD_DREG]	= F(NFTNL_EXPR_PAYLOAD_DREG, INT),
		[NFTA_PAYLOAD_BASE]	= F(NFTNL_EXPR_PAYLOAD_BASE, INT),
		[NFTA_PAYLOAD_OFFSET]	= F(NFTNL_EXPR_PAYLOAD_OFFSET, INT),
		[NFTA_PAYLOAD_LEN]	= F(NFTNL_EXPR_PAYLOAD_LEN, INT),
		[NFTA_PAYLOAD_SREG]	= F(NFTNL_EXPR_PAYLOAD_SREG, INT),
		[NFTA_PAYLOAD_CSUM_TYPE] = F(NFTNL_EXPR_PAYLOAD_CSUM_TYPE, INT),
		[NFTA_PAYLOAD_CSUM_OFFSET] =
				F(NFTNL_EXPR_PAYLOAD_CSUM_OFFSET, INT),
		[NFTA_PAYLOAD_CSUM_FLAGS] = F(NFTNL_EXPR_PAYLOAD_FLAGS, INT),
	} },
	[DX_META] = { "meta", {
		[NFTA_META_DREG]	= F(NFTNL_EXPR_META_DREG, INT),
		[NFTA_META_KEY]		= F(NFTNL_EXPR_META_KEY, INT),
		[NFTA_META_SREG]	= F(NFTNL_EXPR_META_SREG, INT),
	} },
	[DX_IMMEDIATE] = { "immediate", {
		[NFTA_IMMEDIATE_DREG]	= F(NFTNL_EXPR_IMM_DREG, INT),
		[NFTA_IMMEDIATE_DATA]	= F(NFTNL_EXPR_IMM_DATA, IMM),
	} },
	[DX_CT] = { "ct", {
		[NFTA_CT_DREG]		= F(NFTNL_EXPR_CT_DREG, INT),
		[NFTA_CT_KEY]		= F(NFTNL_EXPR_CT_KEY, INT),
		[NFTA_CT_DIRECTION]	= F(NFTNL_EXPR_CT_DIR, INT),
		[NFTA_CT_SREG]		= F(NFTNL_EXPR_CT_SREG, INT),
	} },
	[DX_BITWISE] = { "bitwise", {
		[NFTA_BITWISE_SREG]	= F(NFTNL_EXPR_BITWISE_SREG, INT),
		[NFTA_BITWISE_DREG]	= F(NFTNL_EXPR_BITWISE_DREG, INT),
		[NFTA_BITWISE_LEN]	= F(NFTNL_EXPR_BITWISE_LEN, INT),
		[NFTA_BITWISE_MASK]	= F(NFTNL_EXPR_BITWISE_MASK, DATA),
		[NFTA_BITWISE_XOR]	= F(NFTNL_EXPR_BITWISE_XOR, DATA),
		[NFTA_BITWISE_OP]	= F(NFTNL_EXPR_BITWISE_OP, INT),
		[NFTA_BITWISE_DATA]	= F(NFTNL_EXPR_BITWISE_DATA, DATA),
	} },
	[DX_COUNTER] = { "counter", {
		[NFTA_COUNTER_BYTES]	= F(NFTNL_EXPR_CTR_BYTES, INT),
		[NFTA_COUNTER_PACKETS]	= F(NFTNL_EXPR_CTR_PACKETS, INT),
	} },
	[DX_LOOKUP] = { "lookup", {
		[NFTA_LOOKUP_SET]	= F(NFTNL_EXPR_LOOKUP_SET, STR),
		[NFTA_LOOKUP_SREG]	= F(NFTNL_EXPR_LOOKUP_SREG, INT),
		[NFTA_LOOKUP_DREG]	= F(NFTNL_EXPR_LOOKUP_DREG, INT),
		[NFTA_LOOKUP_SET_ID]	= F(NFTNL_EXPR_LOOKUP_SET_ID, INT),
		[NFTA_LOOKUP_FLAGS]	= F(NFTNL_EXPR_LOOKUP_FLAGS, INT),
	} },
	[DX_RANGE] = { "range", {
		[NFTA_RANGE_SREG]	= F(NFTNL_EXPR_RANGE_SREG, INT),
		[NFTA_RANGE_OP]		= F(NFTNL_EXPR_RANGE_OP, INT),
		[NFTA_RANGE_FROM_DATA]	= F(NFTNL_EXPR_RANGE_FROM_DATA, DATA),
		[NFTA_RANGE_TO_DATA]	= F(NFTNL_EXPR_RANGE_TO_DATA, DATA),
	} },
	[DX_BYTEORDER] = { "byteorder", {
		[NFTA_BYTEORDER_SREG]	= F(NFTNL_EXPR_BYTEORDER_SREG, INT),
		[NFTA_BYTEORDER_DREG]	= F(NFTNL_EXPR_BYTEORDER_DREG, INT),
		[NFTA_BYTEORDER_OP]	= F(NFTNL_EXPR_BYTEORDER_OP, INT),
		[NFTA_BYTEORDER_LEN]	= F(NFTNL_EXPR_BYTEORDER_LEN, INT),
		[NFTA_BYTEORDER_SIZE]	= F(NFTNL_EXPR_BYTEORDER_SIZE, INT),
	} },
	[DX_LIMIT] = { "limit", {
		[NFTA_LIMIT_RATE]	= F(NFTNL_EXPR_LIMIT_RATE, INT),
		[NFTA_LIMIT_UNIT]	= F(NFTNL_EXPR_LIMIT_UNIT, INT),
		[NFTA_LIMIT_BURST]	= F(NFTNL_EXPR_LIMIT_BURST, INT),
		[NFTA_LIMIT_TYPE]	= F(NFTNL_EXPR_LIMIT_TYPE, INT),
		[NFTA_LIMIT_FLAGS]	= F(NFTNL_EXPR_LIMIT_FLAGS, INT),
	} },
	[DX_LOG] = { "log", {
		[NFTA_LOG_GROUP]	= F(NFTNL_EXPR_LOG_GROUP, INT),
		[NFTA_LOG_PREFIX]	= F(NFTNL_EXPR_LOG_PREFIX, STR),
		[NFTA_LOG_SNAPLEN]	= F(NFTNL_EXPR_LOG_SNAPLEN, INT),
		[NFTA_LOG_QTHRESHOLD]	= F(NFTNL_EXPR_LOG_QTHRESHOLD, INT),
		[NFTA_LOG_LEVEL]	= F(NFTNL_EXPR_LOG_LEVEL, INT),
		[NFTA_LOG_FLAGS]	= F(NFTNL_EXPR_LOG_FLAGS, INT),
	} },
	[DX_REJECT] = { "reject", {
		[NFTA_REJECT_TYPE]	= F(NFTNL_EXPR_REJECT_TYPE, INT),
		[NFTA_REJECT_ICMP_CODE]	= F(NFTNL_EXPR_REJECT_CODE, INT),
	} },
	/* xt-compat (iptables-nft): the info blob is read in place */
	[DX_MATCH] = { "match", {
		[NFTA_MATCH_NAME]	= F(NFTNL_EXPR_MT_NAME, STR),
		[NFTA_MATCH_REV]	= F(NFTNL_EXPR_MT_REV, INT),
		[NFTA_MATCH_INFO]	= F(NFTNL_EXPR_MT_INFO, RAW),
	} },
	[DX_TARGET] = { "target", {
		[NFTA_TARGET_NAME]	= F(NFTNL_EXPR_TG_NAME, STR),
		[NFTA_TARGET_REV]	= F(NFTNL_EXPR_TG_REV, INT),
		[NFTA_TARGET_INFO]	= F(NFTNL_EXPR_TG_INFO, RAW),
	} },
};

#undef F

/* The attribute's string, or NULL if it is not NUL-terminated. */
static const char *attr_str(const struct nlattr *a)
{
	uint16_t len = dx_payload_len(a);
	const char *s = dx_payload(a);

	return len && s[len - 1] == '\0' ? s : NULL;
}

/* The expression type named by string attribute @a, or __DX_MAX. */
static enum dx_op dx_op_find(const struct nlattr *a)
{
	uint16_t len = dx_payload_len(a);
	const char *name = dx_payload(a);
	unsigned int i;

	for (i = 0; i < __DX_MAX; i++) {
		if (dx_types[i].name[0] == name[0] &&
		    !strncmp(dx_types[i].name, name, len))
			return i;
	}
	return __DX_MAX;
}

/* The attribute of type @type nested in @nest, or NULL. */
static const struct nlattr *nested(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *a;

	na_foreach_nested(a, nest) {
		if (na_type(a) == type)
			return a;
	}
	return NULL;
}

/* Verdict data: its code and chain under the immediate's attributes. */
static void dx_verdict(struct dx *x, const struct nlattr *v)
{
	const struct nlattr *a;

	na_foreach_nested(a, v) {
		switch (na_type(a)) {
		case NFTA_VERDICT_CODE:
			x->f[NFTNL_EXPR_IMM_VERDICT - NFTNL_EXPR_BASE] = a;
			break;
		case NFTA_VERDICT_CHAIN:
			if (attr_str(a))
				x->f[NFTNL_EXPR_IMM_CHAIN -
				     NFTNL_EXPR_BASE] = a;
			break;
		}
	}
}

/* Store @a under its libnftnl number; false if it cannot be read. */
static bool dx_field_set(struct dx *x, const struct dx_type *t,
			 const struct nlattr *a)
{
	uint16_t type = na_type(a);
	const struct dx_field *f;
	const struct nlattr *in;

	if (type >= DX_NLA_MAX || t->f[type].kind == DXK_NONE)
		return true;		/* padding, or not read */
	f = &t->f[type];
	switch ((enum dx_kind)f->kind) {
	case DXK_NONE:
		break;
	case DXK_INT:
	case DXK_RAW:
		x->f[f->id] = a;
		break;
	case DXK_STR:
		if (!attr_str(a))
			return false;
		x->f[f->id] = a;
		break;
	case DXK_DATA:
		in = nested(a, NFTA_DATA_VALUE);
		if (!in)
			return false;
		x->f[f->id] = in;
		break;
	case DXK_IMM:
		in = nested(a, NFTA_DATA_VALUE);
		if (in) {
			x->f[f->id] = in;
			break;
		}
		in = nested(a, NFTA_DATA_VERDICT);
		if (!in)
			return false;
		dx_verdict(x, in);
		break;
	}
	return true;
}

/* @elem (NFTA_LIST_ELEM) as a view: false if it cannot be read here. */
static bool dx_read(struct dx *x, const struct nlattr *elem)
{
	const struct nlattr *a, *data = NULL;
	const struct dx_type *t;
	enum dx_op op = __DX_MAX;

	memset(x->f, 0, sizeof(x->f));
	x->nle = NULL;
	na_foreach_nested(a, elem) {
		switch (na_type(a)) {
		case NFTA_EXPR_NAME:
			if (attr_str(a))
				op = dx_op_find(a);
			break;
		case NFTA_EXPR_DATA:
			data = a;
			break;
		}
	}
	if (op == __DX_MAX)
		return false;
	t = &dx_types[op];
	x->op = op;
	x->name = t->name;
	if (!data)
		return true;
	na_foreach_nested(a, data) {
		if (!dx_field_set(x, t, a))
			return false;
	}
	return true;
}

/**
 * delin_rmsg_parse - read a rule dump message's attributes in place
 *
 * Returns 0, or -1 if @nlh is not a rule message. The expressions are
 * read by delin_rmsg_foreach().
 */
int delin_rmsg_parse(const struct nlmsghdr *nlh, struct delin_rmsg *m)
{
	const struct nfgenmsg *nfg = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;

	memset(m, 0, sizeof(*m));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*nfg))
		return -1;
	m->family = nfg->nfgen_family;
	na_foreach(a, (const char *)nfg + NLMSG_ALIGN(sizeof(*nfg)),
		   (const char *)nlh + nlh->nlmsg_len) {
		switch (na_type(a)) {
		case NFTA_RULE_TABLE:
			m->table = attr_str(a);
			break;
		case NFTA_RULE_CHAIN:
			m->chain = attr_str(a);
			break;
		case NFTA_RULE_HANDLE:
			if (dx_payload_len(a) != sizeof(uint64_t))
				return -1;
			memcpy(&m->handle, dx_payload(a), sizeof(m->handle));
			m->handle = be64toh(m->handle);
			m->has_handle = true;
			break;
		case NFTA_RULE_EXPRESSIONS:
			m->exprs = a;
			break;
		case NFTA_RULE_USERDATA:
			m->udata = dx_payload(a);
			m->udata_len = dx_payload_len(a);
			break;
		}
	}
	if (!m->table || !m->chain)
		return -1;
	return 0;
}

/**
 * delin_rmsg_foreach - call @fn on each expression of @m, read in place
 *
 * Returns 0, or -1 at the first expression that cannot be: the rule is
 * then read again by libnftnl.
 */
int delin_rmsg_foreach(const struct delin_rmsg *m,
		       void (*fn)(const struct dx *x, void *priv), void *priv)
{
	const struct nlattr *e;
	struct dx x;

	if (!m->exprs)
		return 0;
	na_foreach_nested(e, m->exprs) {
		if (!dx_read(&x, e))
			return -1;
		fn(&x, priv);
	}
	return 0;
}

/* ------------------------------------------------------------ the view */

uint64_t dx_u64(const struct dx *x, uint16_t attr)
{
	const struct nlattr *a;
	uint64_t v;

	if (x->nle)
		return nftnl_expr_get_u64(x->nle, attr);
	a = dx_attr(x, attr);
	if (!a || dx_payload_len(a) != sizeof(v))
		return 0;
	memcpy(&v, dx_payload(a), sizeof(v));
	return be64toh(v);
}

const char *dx_str(const struct dx *x, uint16_t attr)
{
	const struct nlattr *a;

	if (x->nle)
		return nftnl_expr_get_str(x->nle, attr);
	if (attr == NFTNL_EXPR_NAME)
		return x->name;
	a = dx_attr(x, attr);
	return a ? dx_payload(a) : NULL;
}

const void *dx_data(const struct dx *x, uint16_t attr, uint32_t *len)
{
	const struct nlattr *a;

	if (x->nle)
		return nftnl_expr_get(x->nle, attr, len);
	a = dx_attr(x, attr);
	if (!a) {
		*len = 0;
		return NULL;
	}
	*len = dx_payload_len(a);
	return dx_payload(a);
}
