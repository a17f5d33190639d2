/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Linearization of expressions: loads (payload, exthdr, meta, ct, ...),
 * bitwise/byteorder operations, map lookups and relational matches, as
 * libnftnl expressions appended to the rule being built.
 *
 * Registers are allocated like a stack in 32-bit slots, the way stock
 * nft does it, so the register numbers (and therefore the debug text)
 * are identical: slot s (1-based) is written as the 128-bit register
 * NFT_REG_1 + (s - 1) / 4 when it starts one, else as NFT_REG32_00 +
 * (s - 1).
 */
#include <string.h>
#include <arpa/inet.h>
#include "lin_int.h"
#include "expr.h"
#include "rule.h"
#include "rule_memo.h"

#define REG32_BITS		32
#define REG_SLOTS_PER_REG128	4
#define REG_SLOTS_MAX		16

static unsigned int reg_slots(unsigned int len)
{
	return (len + REG32_BITS - 1) / REG32_BITS;
}

/* Netlink register number of the 1-based 32-bit slot @slot. */
static enum nft_registers slot_to_reg(unsigned int slot)
{
	unsigned int off = slot - 1;

	if (off % REG_SLOTS_PER_REG128 == 0)
		return NFT_REG_1 + off / REG_SLOTS_PER_REG128;
	return NFT_REG32_00 + off;
}

static unsigned int reg_to_slot(enum nft_registers reg)
{
	if (reg >= NFT_REG32_00)
		return reg - NFT_REG32_00 + 1;
	if (reg >= NFT_REG_1)
		return (reg - NFT_REG_1) * REG_SLOTS_PER_REG128 + 1;
	return 0;
}

/**
 * get_register - allocate the next free register
 * @ctx: linearization context
 * @len: width in bits of a concatenation (one 32-bit slot per member
 *       word); any @len up to 128 (or 0) takes a whole 128-bit register,
 *       as stock nft does for every single value
 *
 * Returns the netlink register number to put in the expression.
 */
enum nft_registers get_register(struct lin_ctx *ctx, unsigned int len)
{
	unsigned int n = len > 128 ? reg_slots(len) : REG_SLOTS_PER_REG128;
	unsigned int slot;

	if (ctx->reg_low < 1)
		ctx->reg_low = 1;
	slot = ctx->reg_low;
	ctx->reg_low += n;
	return slot_to_reg(slot);
}

/**
 * release_register - free the register last allocated with @len
 */
void release_register(struct lin_ctx *ctx, unsigned int len)
{
	unsigned int n = len > 128 ? reg_slots(len) : REG_SLOTS_PER_REG128;

	if (ctx->reg_low > n)
		ctx->reg_low -= n;
	else
		ctx->reg_low = 1;
}

/**
 * get_register_expr - allocate the register a value of @expr needs
 *
 * A concatenation takes one 32-bit slot per 4 bytes of its members;
 * everything else a full 128-bit register (stock nft's layout).
 */
enum nft_registers get_register_expr(struct lin_ctx *ctx,
				     const struct expr *expr)
{
	unsigned int n;
	unsigned int slot;

	if (expr && expr->kind == EXPR_CONCAT)
		n = reg_slots(expr->len);
	else
		n = REG_SLOTS_PER_REG128;
	if (n == 0)
		n = 1;
	if (ctx->reg_low < 1)
		ctx->reg_low = 1;
	slot = ctx->reg_low;
	ctx->reg_low += n;
	return slot_to_reg(slot);
}

/** release_register_expr - release what get_register_expr() took */
void release_register_expr(struct lin_ctx *ctx, const struct expr *expr)
{
	unsigned int n;

	if (expr && expr->kind == EXPR_CONCAT)
		n = reg_slots(expr->len);
	else
		n = REG_SLOTS_PER_REG128;
	if (n == 0)
		n = 1;
	if (ctx->reg_low > n)
		ctx->reg_low -= n;
	else
		ctx->reg_low = 1;
}


/* Round a member width up to whole 32-bit register words, in bytes. */
static unsigned int concat_member_bytes(const struct expr *e)
{
	return reg_slots(e->len) * (REG32_BITS / 8);
}

/**
 * lin_value_data - lay out constant @expr as register data
 * @buf: output, @bufsize bytes
 *
 * A concatenation is written member by member, each padded to whole
 * 32-bit words (its register layout). Returns the byte length written,
 * 0 if @expr is not a constant or does not fit.
 */
unsigned int lin_value_data(const struct expr *expr, uint8_t *buf,
			    unsigned int bufsize)
{
	unsigned int len, off = 0, n;
	const struct expr *i;

	switch (expr->kind) {
	case EXPR_VALUE:
		len = BITS_TO_BYTES(expr->len);
		if (len > bufsize)
			return 0;
		value_to_reg(&expr->value, expr->byteorder, buf, len);
		return len;
	case EXPR_CONCAT:
		list_for_each_entry(i, &expr->expressions, list) {
			n = concat_member_bytes(i);
			if (off + n > bufsize)
				return 0;
			memset(buf + off, 0, n);
			if (!lin_value_data(i, buf + off, n))
				return 0;
			off += n;
		}
		return off;
	case EXPR_SET_ELEM:
		return lin_value_data(expr->elem.key, buf, bufsize);
	case EXPR_PREFIX:
		return lin_value_data(expr->prefix.expr, buf, bufsize);
	default:
		return 0;
	}
}

static struct nftnl_expr *alloc_nle(const char *name)
{
	return nftnl_expr_alloc(name);
}

/* Written directly (lin_emit.c): the most frequent load. */
static void lin_payload(struct lin_ctx *ctx, enum nft_registers dreg,
			const struct expr *expr)
{
	struct nlmsghdr *nlh = lin_emit_begin(ctx, "payload");

	nlw_put_u32(nlh, NFTA_PAYLOAD_DREG, htonl(dreg));
	nlw_put_u32(nlh, NFTA_PAYLOAD_BASE,
			 htonl(expr->payload.base - 1));
	nlw_put_u32(nlh, NFTA_PAYLOAD_OFFSET,
			 htonl(expr->payload.offset / 8));
	nlw_put_u32(nlh, NFTA_PAYLOAD_LEN,
			 htonl(BITS_TO_BYTES(expr->len)));
	lin_emit_end(ctx, &expr->location);
}

static void lin_exthdr(struct lin_ctx *ctx, enum nft_registers dreg,
		       const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("exthdr");
	unsigned int len = BITS_TO_BYTES(expr->len);

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_DREG, dreg);
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, expr->exthdr.raw_type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OFFSET,
			   expr->exthdr.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_FLAGS, expr->exthdr.flags);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, expr->exthdr.op);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_meta(struct lin_ctx *ctx, enum nft_registers dreg,
		     const struct expr *expr)
{
	struct nlmsghdr *nlh = lin_emit_begin(ctx, "meta");

	nlw_put_u32(nlh, NFTA_META_KEY, htonl(expr->meta.key));
	nlw_put_u32(nlh, NFTA_META_DREG, htonl(dreg));
	lin_emit_end(ctx, &expr->location);
}

static void lin_ct(struct lin_ctx *ctx, enum nft_registers dreg,
		   const struct expr *expr)
{
	struct nlmsghdr *nlh = lin_emit_begin(ctx, "ct");

	nlw_put_u32(nlh, NFTA_CT_KEY, htonl(expr->ct.key));
	nlw_put_u32(nlh, NFTA_CT_DREG, htonl(dreg));
	if (expr->ct.direction >= 0)
		nlw_put_u8(nlh, NFTA_CT_DIRECTION, expr->ct.direction);
	lin_emit_end(ctx, &expr->location);
}

static void lin_rt(struct lin_ctx *ctx, enum nft_registers dreg,
		   const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("rt");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_RT_KEY, expr->rt.key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_RT_DREG, dreg);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_socket(struct lin_ctx *ctx, enum nft_registers dreg,
		       const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("socket");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_SOCKET_KEY, expr->socket.key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_SOCKET_DREG, dreg);
	if (expr->socket.key == NFT_SOCKET_CGROUPV2)
		nftnl_expr_set_u32(e, NFTNL_EXPR_SOCKET_LEVEL,
				   expr->socket.level);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_osf(struct lin_ctx *ctx, enum nft_registers dreg,
		    const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("osf");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_OSF_DREG, dreg);
	nftnl_expr_set_u8(e, NFTNL_EXPR_OSF_TTL, expr->osf.ttl);
	if (expr->osf.flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_OSF_FLAGS, expr->osf.flags);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_fib(struct lin_ctx *ctx, enum nft_registers dreg,
		    const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("fib");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_RESULT, expr->fib.result);
	nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_FLAGS, expr->fib.flags);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_numgen(struct lin_ctx *ctx, enum nft_registers dreg,
		       const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("numgen");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_TYPE, expr->numgen.type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_MODULUS, expr->numgen.mod);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NG_OFFSET, expr->numgen.offset);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_hash(struct lin_ctx *ctx, enum nft_registers dreg,
		     const struct expr *expr)
{
	enum nft_registers sreg = 0;
	const struct expr *arg = expr->hash.expr;
	struct nftnl_expr *e;

	if (arg) {
		sreg = get_register_expr(ctx, arg);
		lin_expr(ctx, sreg, arg);
		release_register_expr(ctx, arg);
	}
	e = alloc_nle("hash");
	if (!e)
		return;
	if (arg) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_SREG, sreg);
		nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_LEN,
				   BITS_TO_BYTES(arg->len));
	}
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_MODULUS, expr->hash.mod);
	if (expr->hash.seed_set)
		nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_SEED, expr->hash.seed);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_OFFSET, expr->hash.offset);
	nftnl_expr_set_u32(e, NFTNL_EXPR_HASH_TYPE, expr->hash.type);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_xfrm(struct lin_ctx *ctx, enum nft_registers dreg,
		     const struct expr *expr)
{
	struct nftnl_expr *e = alloc_nle("xfrm");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_XFRM_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_XFRM_KEY, expr->xfrm.key);
	nftnl_expr_set_u8(e, NFTNL_EXPR_XFRM_DIR, expr->xfrm.direction);
	nftnl_expr_set_u32(e, NFTNL_EXPR_XFRM_SPNUM, expr->xfrm.spnum);
	lin_add_expr(ctx, e, &expr->location);
}

/* Members go to consecutive 32-bit slots starting at @dreg's. */
static void lin_concat(struct lin_ctx *ctx, enum nft_registers dreg,
		       const struct expr *expr)
{
	unsigned int slot = reg_to_slot(dreg);
	const struct expr *i;

	list_for_each_entry(i, &expr->expressions, list) {
		lin_expr(ctx, slot_to_reg(slot), i);
		slot += reg_slots(i->len);
	}
}

static void lin_immediate_data(struct lin_ctx *ctx, enum nft_registers dreg,
			       const struct expr *expr)
{
	uint8_t buf[NFTC_VALUE_MAX];
	struct nftnl_expr *e;
	unsigned int len;

	len = lin_value_data(expr, buf, sizeof(buf));
	e = alloc_nle("immediate");
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, dreg);
	nftnl_expr_set(e, NFTNL_EXPR_IMM_DATA, buf, len);
	lin_add_expr(ctx, e, &expr->location);
}

/*
 * A chain of &, |, ^ with constant right sides folds into one
 * "bitwise" (reg & mask) ^ xor, as the kernel evaluates it.
 */
static const struct expr *bitwise_fold(const struct expr *expr,
				       struct value *mask, struct value *xor,
				       unsigned int len)
{
	const struct expr *left;
	struct value tmp, nv;

	if (expr->kind != EXPR_BINOP ||
	    (expr->op != OP_AND && expr->op != OP_OR && expr->op != OP_XOR)) {
		value_init(mask, len);
		value_not(mask, mask);
		value_init(xor, len);
		return expr;
	}
	left = bitwise_fold(expr->pair.left, mask, xor, len);
	tmp = expr->pair.right->value;
	value_resize(&tmp, mask->len);
	switch (expr->op) {
	case OP_AND:
		value_and(mask, mask, &tmp);
		value_and(xor, xor, &tmp);
		break;
	case OP_OR:
		value_not(&nv, &tmp);
		value_and(mask, mask, &nv);
		value_and(xor, xor, &nv);
		value_or(xor, xor, &tmp);
		break;
	case OP_XOR:
		value_xor(xor, xor, &tmp);
		break;
	default:
		break;
	}
	return left;
}

static void lin_bitwise(struct lin_ctx *ctx, enum nft_registers dreg,
			const struct expr *expr)
{
	uint8_t mbuf[NFTC_VALUE_MAX], xbuf[NFTC_VALUE_MAX];
	struct value mask, xor;
	const struct expr *load;
	struct nftnl_expr *e;
	unsigned int len = BITS_TO_BYTES(expr->len);

	load = bitwise_fold(expr, &mask, &xor, expr->len);
	lin_expr(ctx, dreg, load);
	memset(mbuf, 0, sizeof(mbuf));
	memset(xbuf, 0, sizeof(xbuf));
	value_to_reg(&mask, expr->byteorder, mbuf, len);
	value_to_reg(&xor, expr->byteorder, xbuf, len);
	e = alloc_nle("bitwise");
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_OP, NFT_BITWISE_BOOL);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mbuf, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, xbuf, len);
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_shift(struct lin_ctx *ctx, enum nft_registers dreg,
		      const struct expr *expr)
{
	uint32_t n = value_get_u64(&expr->pair.right->value);
	struct nftnl_expr *e;

	lin_expr(ctx, dreg, expr->pair.left);
	e = alloc_nle("bitwise");
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_OP,
			   expr->op == OP_LSHIFT ? NFT_BITWISE_LSHIFT :
						   NFT_BITWISE_RSHIFT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN,
			   BITS_TO_BYTES(expr->len));
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_DATA, &n, sizeof(n));
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_binop(struct lin_ctx *ctx, enum nft_registers dreg,
		      const struct expr *expr)
{
	if (expr->op == OP_LSHIFT || expr->op == OP_RSHIFT)
		lin_shift(ctx, dreg, expr);
	else
		lin_bitwise(ctx, dreg, expr);
}

static void lin_unary(struct lin_ctx *ctx, enum nft_registers dreg,
		      const struct expr *expr)
{
	const struct expr *arg = expr->unary.arg;
	struct nftnl_expr *e;
	unsigned int size;

	lin_expr(ctx, dreg, arg);
	if (arg->len % 64 == 0)
		size = 8;
	else if (arg->len % 32 == 0)
		size = 4;
	else
		size = 2;
	e = alloc_nle("byteorder");
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN,
			   BITS_TO_BYTES(expr->len));
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, size);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP,
			   expr->op == OP_HTON ? NFT_BYTEORDER_HTON :
						 NFT_BYTEORDER_NTOH);
	lin_add_expr(ctx, e, &expr->location);
}

static const struct set *set_of(const struct expr *ref)
{
	if (ref && ref->kind == EXPR_SET_REF)
		return ref->set_ref.set;
	return NULL;
}

static void lin_lookup_set(struct nftnl_expr *e, const struct set *set)
{
	if (!set)
		return;
	if (set->handle.set.name)
		nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET,
				   set->handle.set.name);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, set->handle.set_id);
}

/*
 * A lookup of @set, written directly (lin_emit.c) in libnftnl's order:
 * SREG, DREG (@has_dreg; verdict maps write NFT_REG_VERDICT, 0), SET, SET_ID, FLAGS (@flags 0: none). A
 * rule with an anonymous set has one, and it cost as much as the rest of
 * the rule through a libnftnl object. A name too long for the scratch
 * message (the kernel refuses it anyway) still goes through libnftnl.
 */
static void lin_lookup_write(struct lin_ctx *ctx, enum nft_registers sreg,
			     bool has_dreg, enum nft_registers dreg,
			     const struct set *set, uint32_t flags,
			     const struct location *loc)
{
	const char *name = set ? set->handle.set.name : NULL;
	struct nftnl_expr *e;
	struct nlmsghdr *nlh;

	if (!name || strlen(name) < NFT_SET_MAXNAMELEN) {
		nlh = lin_emit_begin(ctx, "lookup");
		nlw_put_u32(nlh, NFTA_LOOKUP_SREG, htonl(sreg));
		if (has_dreg)
			nlw_put_u32(nlh, NFTA_LOOKUP_DREG, htonl(dreg));
		if (name)
			nlw_put_strz(nlh, NFTA_LOOKUP_SET, name);
		if (set)
			nlw_put_u32(nlh, NFTA_LOOKUP_SET_ID,
				    htonl(set->handle.set_id));
		if (flags)
			nlw_put_u32(nlh, NFTA_LOOKUP_FLAGS, htonl(flags));
		lin_emit_end(ctx, loc);
		return;
	}
	e = alloc_nle("lookup");
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, sreg);
	if (has_dreg)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, dreg);
	lin_lookup_set(e, set);
	if (flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_FLAGS, flags);
	lin_add_expr(ctx, e, loc);
}

/* "KEY map { ... }" used as a value: lookup with a data register. */
static void lin_map(struct lin_ctx *ctx, enum nft_registers dreg,
		    const struct expr *expr)
{
	const struct expr *key = expr->map.key;
	enum nft_registers sreg;

	/* Stock nft loads the key into the result register itself. */
	if (dreg == NFT_REG_VERDICT) {
		sreg = get_register_expr(ctx, key);
		lin_expr(ctx, sreg, key);
		release_register_expr(ctx, key);
	} else {
		sreg = dreg;
		lin_expr(ctx, sreg, key);
	}
	lin_lookup_write(ctx, sreg, true, dreg, set_of(expr->map.mappings),
			 0, &expr->location);
}

/**
 * lin_expr - emit the code that leaves the value of @expr in @dreg
 */
void lin_expr(struct lin_ctx *ctx, enum nft_registers dreg,
	      const struct expr *expr)
{
	switch ((enum expr_kind)expr->kind) {
	case EXPR_PAYLOAD:
		lin_payload(ctx, dreg, expr);
		break;
	case EXPR_EXTHDR:
		lin_exthdr(ctx, dreg, expr);
		break;
	case EXPR_META:
		lin_meta(ctx, dreg, expr);
		break;
	case EXPR_CT:
		lin_ct(ctx, dreg, expr);
		break;
	case EXPR_RT:
		lin_rt(ctx, dreg, expr);
		break;
	case EXPR_SOCKET:
		lin_socket(ctx, dreg, expr);
		break;
	case EXPR_OSF:
		lin_osf(ctx, dreg, expr);
		break;
	case EXPR_FIB:
		lin_fib(ctx, dreg, expr);
		break;
	case EXPR_NUMGEN:
		lin_numgen(ctx, dreg, expr);
		break;
	case EXPR_HASH:
		lin_hash(ctx, dreg, expr);
		break;
	case EXPR_XFRM:
		lin_xfrm(ctx, dreg, expr);
		break;
	case EXPR_CONCAT:
		lin_concat(ctx, dreg, expr);
		break;
	case EXPR_BINOP:
		lin_binop(ctx, dreg, expr);
		break;
	case EXPR_UNARY:
		lin_unary(ctx, dreg, expr);
		break;
	case EXPR_MAP:
		lin_map(ctx, dreg, expr);
		break;
	case EXPR_VALUE:
		lin_immediate_data(ctx, dreg, expr);
		break;
	case EXPR_VARIABLE:
		if (expr->sym.value)
			lin_expr(ctx, dreg, expr->sym.value);
		break;
	case EXPR_INVALID:
	case EXPR_SYMBOL:
	case EXPR_VERDICT:
	case EXPR_PREFIX:
	case EXPR_RANGE:
	case EXPR_LIST:
	case EXPR_SET:
	case EXPR_SET_REF:
	case EXPR_SET_ELEM:
	case EXPR_MAPPING:
	case EXPR_RELATIONAL:
	case __EXPR_MAX:
		/* Not values: evaluate never leaves them here. */
		break;
	}
}

static const enum nft_cmp_ops cmp_ops[__OP_MAX] = {
	[OP_IMPLICIT]	= NFT_CMP_EQ,
	[OP_EQ]		= NFT_CMP_EQ,
	[OP_NEQ]	= NFT_CMP_NEQ,
	[OP_NEG]	= NFT_CMP_NEQ,
	[OP_LT]		= NFT_CMP_LT,
	[OP_GT]		= NFT_CMP_GT,
	[OP_LTE]	= NFT_CMP_LTE,
	[OP_GTE]	= NFT_CMP_GTE,
};

static void lin_cmp_data(struct lin_ctx *ctx, enum nft_registers sreg,
			 enum nft_cmp_ops op, const uint8_t *buf,
			 unsigned int len, const struct location *loc)
{
	struct nlmsghdr *nlh = lin_emit_begin(ctx, "cmp");

	nlw_put_u32(nlh, NFTA_CMP_SREG, htonl(sreg));
	nlw_put_u32(nlh, NFTA_CMP_OP, htonl(op));
	nlw_put_data(nlh, NFTA_CMP_DATA, buf, len);
	if (ctx->nft && ctx->nft->memo_rec && nlh == ctx->nlh)
		rule_memo_note_cmp(ctx->nft->memo_rec,
				   nlh->nlmsg_len - NLA_ALIGN(len), len);
	lin_emit_end(ctx, loc);
}

static void lin_cmp(struct lin_ctx *ctx, enum nft_registers sreg,
		    enum nft_cmp_ops op, const struct expr *right)
{
	uint8_t buf[NFTC_VALUE_MAX];
	unsigned int len;

	len = lin_value_data(right, buf, sizeof(buf));
	lin_cmp_data(ctx, sreg, op, buf, len, &right->location);
}

static void lin_bitwise_mask(struct lin_ctx *ctx, enum nft_registers sreg,
			     const uint8_t *mask, unsigned int len,
			     const struct location *loc)
{
	static const uint8_t zero[NFTC_VALUE_MAX];
	struct nlmsghdr *nlh = lin_emit_begin(ctx, "bitwise");

	/* written directly: prefixes and flag tests make it frequent */
	nlw_put_u32(nlh, NFTA_BITWISE_SREG, htonl(sreg));
	nlw_put_u32(nlh, NFTA_BITWISE_DREG, htonl(sreg));
	nlw_put_u32(nlh, NFTA_BITWISE_OP, htonl(NFT_BITWISE_BOOL));
	nlw_put_u32(nlh, NFTA_BITWISE_LEN, htonl(len));
	nlw_put_data(nlh, NFTA_BITWISE_MASK, mask, len);
	nlw_put_data(nlh, NFTA_BITWISE_XOR, zero, len);
	lin_emit_end(ctx, loc);
}

/* Flag test: (reg & flags) != 0 (or == 0 for "! flags"). */
static void lin_flagcmp(struct lin_ctx *ctx, enum nft_registers sreg,
			const struct expr *rel)
{
	const struct expr *left = rel->pair.left, *right = rel->pair.right;
	uint8_t buf[NFTC_VALUE_MAX], zero[NFTC_VALUE_MAX] = { 0 };
	unsigned int len = BITS_TO_BYTES(left->len);

	memset(buf, 0, sizeof(buf));
	value_to_reg(&right->value, right->byteorder, buf, len);
	lin_bitwise_mask(ctx, sreg, buf, len, &right->location);
	lin_cmp_data(ctx, sreg, rel->op == OP_NEG ? NFT_CMP_EQ : NFT_CMP_NEQ,
		     zero, len, &right->location);
}

static void lin_range(struct lin_ctx *ctx, enum nft_registers sreg,
		      const struct expr *rel)
{
	const struct expr *range = rel->pair.right;
	uint8_t lo[NFTC_VALUE_MAX], hi[NFTC_VALUE_MAX];
	unsigned int llen, hlen;
	struct nftnl_expr *e;

	llen = lin_value_data(range->pair.left, lo, sizeof(lo));
	hlen = lin_value_data(range->pair.right, hi, sizeof(hi));
	if (rel->op != OP_NEQ) {
		lin_cmp_data(ctx, sreg, NFT_CMP_GTE, lo, llen,
			     &range->location);
		lin_cmp_data(ctx, sreg, NFT_CMP_LTE, hi, hlen,
			     &range->location);
		return;
	}
	e = alloc_nle("range");
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_RANGE_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_RANGE_OP, NFT_RANGE_NEQ);
	nftnl_expr_set(e, NFTNL_EXPR_RANGE_FROM_DATA, lo, llen);
	nftnl_expr_set(e, NFTNL_EXPR_RANGE_TO_DATA, hi, hlen);
	lin_add_expr(ctx, e, &range->location);
}

/*
 * value/len: strings (interface name wildcards) compare only the prefix
 * bytes; numbers mask the register and compare the masked value.
 */
static void lin_prefix(struct lin_ctx *ctx, enum nft_registers sreg,
		       const struct expr *rel)
{
	const struct expr *left = rel->pair.left, *pfx = rel->pair.right;
	const struct expr *val = pfx->prefix.expr;
	uint8_t mbuf[NFTC_VALUE_MAX], vbuf[NFTC_VALUE_MAX];
	unsigned int len = BITS_TO_BYTES(left->len);
	struct value mask;

	memset(vbuf, 0, sizeof(vbuf));
	lin_value_data(val, vbuf, sizeof(vbuf));
	/*
	 * Strings (wildcards) and big endian values with a whole-byte
	 * prefix compare just the leading bytes: no mask needed.
	 */
	if (datatype_is_a(left->dtype, &string_type) ||
	    val->byteorder == BYTEORDER_INVALID ||
	    (left->byteorder == BYTEORDER_BIG && pfx->prefix.prefix_len &&
	     pfx->prefix.prefix_len % 8 == 0)) {
		lin_cmp_data(ctx, sreg, cmp_ops[rel->op], vbuf,
			     BITS_TO_BYTES(pfx->prefix.prefix_len),
			     &pfx->location);
		return;
	}
	value_prefix_mask(&mask, left->len, pfx->prefix.prefix_len);
	memset(mbuf, 0, sizeof(mbuf));
	value_to_reg(&mask, left->byteorder, mbuf, len);
	lin_bitwise_mask(ctx, sreg, mbuf, len, &pfx->location);
	lin_cmp_data(ctx, sreg, cmp_ops[rel->op], vbuf,
		     BITS_TO_BYTES(val->len), &pfx->location);
}

static void lin_lookup(struct lin_ctx *ctx, enum nft_registers sreg,
		       const struct expr *rel)
{
	lin_lookup_write(ctx, sreg, false, 0, set_of(rel->pair.right),
			 rel->op == OP_NEQ ? NFT_LOOKUP_F_INV : 0,
			 &rel->location);
}

static bool is_flag_test(const struct expr *rel)
{
	const struct expr *right = rel->pair.right;

	return (rel->op == OP_IMPLICIT || rel->op == OP_NEG) &&
	       right->kind == EXPR_VALUE &&
	       datatype_is_a(right->dtype, &bitmask_type);
}

/**
 * lin_relational - emit a match: load the left side, then compare
 *
 * cmp for constants, two cmps (or "range neq") for ranges, bitwise+cmp
 * for prefixes and flag tests, lookup for sets.
 */
void lin_relational(struct lin_ctx *ctx, const struct expr *expr)
{
	const struct expr *left = expr->pair.left, *right = expr->pair.right;
	enum nft_registers sreg;

	sreg = get_register_expr(ctx, left);
	lin_expr(ctx, sreg, left);
	switch (right->kind) {
	case EXPR_RANGE:
		lin_range(ctx, sreg, expr);
		break;
	case EXPR_PREFIX:
		lin_prefix(ctx, sreg, expr);
		break;
	case EXPR_SET_REF:
		lin_lookup(ctx, sreg, expr);
		break;
	default:
		if (is_flag_test(expr))
			lin_flagcmp(ctx, sreg, expr);
		else
			lin_cmp(ctx, sreg, cmp_ops[expr->op], right);
		break;
	}
	release_register_expr(ctx, left);
}
