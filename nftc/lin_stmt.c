/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statements to VM code: one (or a few) libnftnl expressions each, with
 * exactly the attributes stock nft sets, so that "nft --debug=netlink"
 * prints the same lines and the kernel sees the same messages.
 *
 * Register use follows stock nft: every source operand takes a whole
 * 128-bit register from the stack allocator, released once the
 * statement's expression is emitted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <endian.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "lin_int.h"
#include "rule.h"

#define LIN_LOG_PREFIXLEN	128
#define REG32_PER_REG128	4

static struct nftnl_expr *lin_alloc(struct lin_ctx *ctx, const char *name,
				    const struct location *loc)
{
	struct nftnl_expr *e = nftnl_expr_alloc(name);

	if (!e)
		erec_error(&ctx->nft->erq, loc, "Could not process rule: %s",
			   strerror(ENOMEM));
	return e;
}

/*
 * Register arithmetic in 32-bit slots: "the register after the first
 * @bits of the value in @reg" (a map lookup leaves addr . port or
 * addr_min . addr_max in consecutive slots).
 */
static enum nft_registers reg_advance(enum nft_registers reg,
				      unsigned int bits)
{
	unsigned int slot;

	if (reg >= NFT_REG32_00)
		slot = reg - NFT_REG32_00;
	else
		slot = (reg - NFT_REG_1) * REG32_PER_REG128;
	slot += (bits + 31) / 32;
	if (slot % REG32_PER_REG128 == 0)
		return NFT_REG_1 + slot / REG32_PER_REG128;
	return NFT_REG32_00 + slot;
}

/* Load @expr into a new register; the caller releases it. */
static enum nft_registers lin_load(struct lin_ctx *ctx,
				   const struct expr *expr)
{
	enum nft_registers reg = get_register_expr(ctx, expr);

	lin_expr(ctx, reg, expr);
	return reg;
}

/* libnftnl cannot read back a jump to a chain named by its id */
static void lin_verdict_object(struct lin_ctx *ctx, const struct expr *expr)
{
	struct nftnl_expr *e = nftnl_expr_alloc("immediate");

	if (!e) {
		erec_error(&ctx->nft->erq, &expr->location,
			   "Could not process rule: %s", strerror(ENOMEM));
		return;
	}
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT,
			   (uint32_t)expr->verdict.verdict);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_CHAIN_ID, expr->verdict.chain_id);
	lin_emit_object(ctx, e, &expr->location);
}

static void lin_verdict(struct lin_ctx *ctx, const struct expr *expr,
			const struct location *loc)
{
	char chain[NFT_CHAIN_MAXNAMELEN];
	struct nlattr *data, *verdict;
	struct nlmsghdr *nlh;

	if (expr->kind != EXPR_VERDICT) {
		/* vmap: a lookup whose result is the verdict */
		lin_expr(ctx, NFT_REG_VERDICT, expr);
		return;
	}
	if (!ctx->nlh && ctx->nlr && expr->verdict.chain_id) {
		lin_verdict_object(ctx, expr);
		return;
	}
	/* written directly (lin_emit.c): nearly every rule ends in one */
	nlh = lin_emit_begin(ctx, "immediate");
	nlw_put_u32(nlh, NFTA_IMMEDIATE_DREG, htonl(NFT_REG_VERDICT));
	data = nlw_nest_start(nlh, NFTA_IMMEDIATE_DATA);
	verdict = nlw_nest_start(nlh, NFTA_DATA_VERDICT);
	nlw_put_u32(nlh, NFTA_VERDICT_CODE,
			 htonl((uint32_t)expr->verdict.verdict));
	if (expr->verdict.chain &&
	    lin_expr_to_string(expr->verdict.chain, chain, sizeof(chain)) >= 0)
		nlw_put_strz(nlh, NFTA_VERDICT_CHAIN, chain);
	else if (expr->verdict.chain_id)
		nlw_put_u32(nlh, NFTA_VERDICT_CHAIN_ID,
				 htonl(expr->verdict.chain_id));
	nlw_nest_end(nlh, verdict);
	nlw_nest_end(nlh, data);
	lin_emit_end(ctx, &expr->location);
}

/**
 * lin_stmt_stateful - the expression of a stateful statement
 *
 * Counter, limit, quota, connlimit and last also appear inside set
 * declarations and dynset expressions, where they are not added to a
 * rule. Returns NULL for other statements or without memory.
 */
struct nftnl_expr *lin_stmt_stateful(const struct stmt *stmt)
{
	struct nftnl_expr *e = NULL;

	switch (stmt->kind) {
	case STMT_COUNTER:
		e = nftnl_expr_alloc("counter");
		if (!e)
			break;
		if (stmt->counter.packets)
			nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_PACKETS,
					   stmt->counter.packets);
		if (stmt->counter.bytes)
			nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_BYTES,
					   stmt->counter.bytes);
		break;
	case STMT_LIMIT:
		e = nftnl_expr_alloc("limit");
		if (!e)
			break;
		nftnl_expr_set_u64(e, NFTNL_EXPR_LIMIT_RATE, stmt->limit.rate);
		nftnl_expr_set_u64(e, NFTNL_EXPR_LIMIT_UNIT, stmt->limit.unit);
		nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_TYPE, stmt->limit.type);
		if (stmt->limit.burst > 0)
			nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_BURST,
					   stmt->limit.burst);
		nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_FLAGS,
				   stmt->limit.flags);
		break;
	case STMT_QUOTA:
		e = nftnl_expr_alloc("quota");
		if (!e)
			break;
		nftnl_expr_set_u64(e, NFTNL_EXPR_QUOTA_BYTES,
				   stmt->quota.bytes);
		nftnl_expr_set_u64(e, NFTNL_EXPR_QUOTA_CONSUMED,
				   stmt->quota.used);
		nftnl_expr_set_u32(e, NFTNL_EXPR_QUOTA_FLAGS,
				   stmt->quota.flags);
		break;
	case STMT_CONNLIMIT:
		e = nftnl_expr_alloc("connlimit");
		if (!e)
			break;
		nftnl_expr_set_u32(e, NFTNL_EXPR_CONNLIMIT_COUNT,
				   stmt->connlimit.count);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CONNLIMIT_FLAGS,
				   stmt->connlimit.flags);
		break;
	case STMT_LAST:
		e = nftnl_expr_alloc("last");
		if (!e)
			break;
		if (stmt->last.set) {
			nftnl_expr_set_u64(e, NFTNL_EXPR_LAST_MSECS,
					   stmt->last.used);
			nftnl_expr_set_u32(e, NFTNL_EXPR_LAST_SET,
					   stmt->last.set);
		}
		break;
	default:
		break;
	}
	return e;
}

static void lin_put_u64(struct nlmsghdr *nlh, uint16_t type, uint64_t v)
{
	v = htobe64(v);
	nlw_put(nlh, type, sizeof(v), &v);
}

/*
 * A rule's counter and limit, written directly (lin_emit.c): the
 * attributes libnftnl writes for lin_stmt_stateful()'s object, in its
 * order (--debug=netlink compares the two).
 */
static bool lin_stateful_direct(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nlmsghdr *nlh;

	switch (stmt->kind) {
	case STMT_COUNTER:
		nlh = lin_emit_begin(ctx, "counter");
		if (stmt->counter.bytes)
			lin_put_u64(nlh, NFTA_COUNTER_BYTES,
				    stmt->counter.bytes);
		if (stmt->counter.packets)
			lin_put_u64(nlh, NFTA_COUNTER_PACKETS,
				    stmt->counter.packets);
		break;
	case STMT_LIMIT:
		nlh = lin_emit_begin(ctx, "limit");
		lin_put_u64(nlh, NFTA_LIMIT_RATE, stmt->limit.rate);
		lin_put_u64(nlh, NFTA_LIMIT_UNIT, stmt->limit.unit);
		if (stmt->limit.burst > 0)
			nlw_put_u32(nlh, NFTA_LIMIT_BURST,
					 htonl(stmt->limit.burst));
		nlw_put_u32(nlh, NFTA_LIMIT_TYPE,
				 htonl(stmt->limit.type));
		nlw_put_u32(nlh, NFTA_LIMIT_FLAGS,
				 htonl(stmt->limit.flags));
		break;
	default:
		return false;
	}
	lin_emit_end(ctx, &stmt->location);
	return true;
}

static void lin_stateful(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e;

	if (lin_stateful_direct(ctx, stmt))
		return;
	e = lin_stmt_stateful(stmt);

	if (!e) {
		erec_error(&ctx->nft->erq, &stmt->location,
			   "Could not process rule: %s", strerror(ENOMEM));
		return;
	}
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_log(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e = lin_alloc(ctx, "log", &stmt->location);
	char prefix[LIN_LOG_PREFIXLEN];

	if (!e)
		return;
	if (stmt->log.prefix) {
		strncpy(prefix, stmt->log.prefix, sizeof(prefix) - 1);
		prefix[sizeof(prefix) - 1] = '\0';
		nftnl_expr_set_str(e, NFTNL_EXPR_LOG_PREFIX, prefix);
	}
	if (stmt->log.flags & STMT_LOG_GROUP) {
		nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_GROUP, stmt->log.group);
		if (stmt->log.flags & STMT_LOG_SNAPLEN)
			nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_SNAPLEN,
					   stmt->log.snaplen);
		if (stmt->log.flags & STMT_LOG_QTHRESHOLD)
			nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_QTHRESHOLD,
					   stmt->log.qthreshold);
	} else {
		if (stmt->log.flags & STMT_LOG_LEVEL)
			nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_LEVEL,
					   stmt->log.level);
		if (stmt->log.logflags)
			nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_FLAGS,
					   stmt->log.logflags);
	}
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_reject(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e = lin_alloc(ctx, "reject", &stmt->location);

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_REJECT_TYPE, stmt->reject.type);
	if (stmt->reject.icmp_code != -1)
		nftnl_expr_set_u8(e, NFTNL_EXPR_REJECT_CODE,
				  stmt->reject.icmp_code);
	lin_add_expr(ctx, e, &stmt->location);
}

/**
 * struct nat_attrs - the attribute numbers of one NAT expression kind
 */
struct nat_attrs {
	const char	*name;
	int		flags;
	int		pmin;
	int		pmax;
};

static const struct nat_attrs nat_attrs[] = {
	[NAT_SNAT]  = { "nat", NFTNL_EXPR_NAT_FLAGS,
			NFTNL_EXPR_NAT_REG_PROTO_MIN,
			NFTNL_EXPR_NAT_REG_PROTO_MAX },
	[NAT_DNAT]  = { "nat", NFTNL_EXPR_NAT_FLAGS,
			NFTNL_EXPR_NAT_REG_PROTO_MIN,
			NFTNL_EXPR_NAT_REG_PROTO_MAX },
	[NAT_MASQ]  = { "masq", NFTNL_EXPR_MASQ_FLAGS,
			NFTNL_EXPR_MASQ_REG_PROTO_MIN,
			NFTNL_EXPR_MASQ_REG_PROTO_MAX },
	[NAT_REDIR] = { "redir", NFTNL_EXPR_REDIR_FLAGS,
			NFTNL_EXPR_REDIR_REG_PROTO_MIN,
			NFTNL_EXPR_REDIR_REG_PROTO_MAX },
};

static unsigned int nat_addrlen(uint8_t family)
{
	return family == NFPROTO_IPV6 ? 128 : 32;
}

static bool nat_map_interval(const struct stmt *stmt)
{
	const struct expr *addr = stmt->nat.addr;
	const struct expr *m;

	if (stmt->nat.type_flags & STMT_NAT_F_INTERVAL)
		return true;
	if (addr->kind != EXPR_MAP)
		return false;
	m = addr->map.mappings;
	return m && m->kind == EXPR_SET_REF && m->set_ref.set &&
	       m->set_ref.set->data &&
	       (m->set_ref.set->data->flags & EXPR_F_INTERVAL);
}

/* The address part: a value, a range, or a map lookup. */
static unsigned int lin_nat_addr(struct lin_ctx *ctx, const struct stmt *stmt,
				 const struct nat_attrs *a,
				 struct nftnl_expr *e)
{
	const struct expr *addr = stmt->nat.addr;
	unsigned int alen = nat_addrlen(stmt->nat.family);
	bool concat = stmt->nat.type_flags & STMT_NAT_F_CONCAT;
	bool interval = stmt->nat.type_flags & STMT_NAT_F_INTERVAL;
	enum nft_registers amin, amax, pmin;
	unsigned int regs = 1;

	amin = get_register(ctx, 0);
	if (addr->kind == EXPR_RANGE) {
		amax = get_register(ctx, 0);
		regs++;
		lin_expr(ctx, amin, addr->pair.left);
		lin_expr(ctx, amax, addr->pair.right);
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN, amin);
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX, amax);
	} else {
		lin_expr(ctx, amin, addr);
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN, amin);
		if (addr->kind == EXPR_MAP && nat_map_interval(stmt)) {
			/* the lookup left addr_min . addr_max in a row */
			amin = reg_advance(amin, alen);
			nftnl_expr_set_u32(e, concat ? a->pmin :
					   NFTNL_EXPR_NAT_REG_ADDR_MAX, amin);
		}
	}
	if (concat) {
		/* ... or addr[-addr] . port[-port] */
		pmin = amin;
		if (interval) {
			pmin = reg_advance(pmin, alen);
			nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX,
					   pmin);
		}
		pmin = reg_advance(pmin, alen);
		nftnl_expr_set_u32(e, interval ? a->pmax : a->pmin, pmin);
	}
	return regs;
}

static void lin_nat(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct nat_attrs *a = &nat_attrs[stmt->nat.kind];
	const struct expr *proto = stmt->nat.proto;
	enum nft_registers pmin, pmax;
	unsigned int regs = 0;
	struct nftnl_expr *e;

	e = lin_alloc(ctx, a->name, &stmt->location);
	if (!e)
		return;
	if (stmt->nat.kind == NAT_SNAT || stmt->nat.kind == NAT_DNAT) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_TYPE, stmt->nat.kind);
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_FAMILY, stmt->nat.family);
	}
	if (stmt->nat.flags)
		nftnl_expr_set_u32(e, a->flags, stmt->nat.flags);
	if (stmt->nat.addr)
		regs += lin_nat_addr(ctx, stmt, a, e);
	if (proto) {
		pmin = get_register(ctx, 0);
		regs++;
		if (proto->kind == EXPR_RANGE) {
			pmax = get_register(ctx, 0);
			regs++;
			lin_expr(ctx, pmin, proto->pair.left);
			lin_expr(ctx, pmax, proto->pair.right);
			nftnl_expr_set_u32(e, a->pmin, pmin);
			nftnl_expr_set_u32(e, a->pmax, pmax);
		} else {
			lin_expr(ctx, pmin, proto);
			nftnl_expr_set_u32(e, a->pmin, pmin);
		}
	}
	while (regs-- > 0)
		release_register(ctx, 0);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_tproxy(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e = lin_alloc(ctx, "tproxy", &stmt->location);
	enum nft_registers reg;
	unsigned int regs = 0;

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_TPROXY_FAMILY, stmt->tproxy.family);
	if (stmt->tproxy.addr) {
		reg = get_register(ctx, 0);
		regs++;
		lin_expr(ctx, reg, stmt->tproxy.addr);
		nftnl_expr_set_u32(e, NFTNL_EXPR_TPROXY_REG_ADDR, reg);
	}
	if (stmt->tproxy.port) {
		reg = get_register(ctx, 0);
		regs++;
		lin_expr(ctx, reg, stmt->tproxy.port);
		nftnl_expr_set_u32(e, NFTNL_EXPR_TPROXY_REG_PORT, reg);
	}
	while (regs-- > 0)
		release_register(ctx, 0);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_queue(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct expr *q = stmt->queue.queue;
	enum nft_registers sreg = NFT_REG_VERDICT;
	uint16_t low = 0, high = 0;
	struct nftnl_expr *e;

	if (q && q->kind == EXPR_VALUE) {
		low = high = value_get_u64(&q->value);
	} else if (q && q->kind == EXPR_RANGE &&
		   q->pair.left->kind == EXPR_VALUE &&
		   q->pair.right->kind == EXPR_VALUE) {
		low = value_get_u64(&q->pair.left->value);
		high = value_get_u64(&q->pair.right->value);
	} else if (q) {
		sreg = lin_load(ctx, q);
		release_register_expr(ctx, q);
	}
	e = lin_alloc(ctx, "queue", &stmt->location);
	if (!e)
		return;
	if (sreg != NFT_REG_VERDICT) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_QUEUE_SREG_QNUM, sreg);
	} else {
		nftnl_expr_set_u16(e, NFTNL_EXPR_QUEUE_NUM, low);
		nftnl_expr_set_u16(e, NFTNL_EXPR_QUEUE_TOTAL, high - low + 1);
	}
	if (stmt->queue.flags)
		nftnl_expr_set_u16(e, NFTNL_EXPR_QUEUE_FLAGS,
				   stmt->queue.flags);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_dup(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e = lin_alloc(ctx, "dup", &stmt->location);
	const struct expr *to = stmt->dup.to, *dev = stmt->dup.dev;
	enum nft_registers reg;

	if (!e)
		return;
	if (to) {
		reg = lin_load(ctx, to);
		nftnl_expr_set_u32(e, to->dtype == &ifindex_type ?
				   NFTNL_EXPR_DUP_SREG_DEV :
				   NFTNL_EXPR_DUP_SREG_ADDR, reg);
	}
	if (dev) {
		reg = lin_load(ctx, dev);
		nftnl_expr_set_u32(e, NFTNL_EXPR_DUP_SREG_DEV, reg);
		release_register_expr(ctx, dev);
	}
	if (to)
		release_register_expr(ctx, to);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_fwd(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e = lin_alloc(ctx, "fwd", &stmt->location);
	enum nft_registers reg;

	if (!e)
		return;
	if (stmt->fwd.dev) {
		reg = lin_load(ctx, stmt->fwd.dev);
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_SREG_DEV, reg);
	}
	if (stmt->fwd.addr) {
		reg = lin_load(ctx, stmt->fwd.addr);
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_SREG_ADDR, reg);
		release_register_expr(ctx, stmt->fwd.addr);
	}
	if (stmt->fwd.dev)
		release_register_expr(ctx, stmt->fwd.dev);
	if (stmt->fwd.family)
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_NFPROTO,
				   stmt->fwd.family);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_meta_set(struct lin_ctx *ctx, const struct stmt *stmt)
{
	enum nft_registers sreg = lin_load(ctx, stmt->meta.expr);
	struct nftnl_expr *e;

	release_register_expr(ctx, stmt->meta.expr);
	e = lin_alloc(ctx, "meta", &stmt->location);
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, stmt->meta.key);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_ct_set(struct lin_ctx *ctx, const struct stmt *stmt)
{
	enum nft_registers sreg = lin_load(ctx, stmt->ct.expr);
	struct nftnl_expr *e;

	release_register_expr(ctx, stmt->ct.expr);
	e = lin_alloc(ctx, "ct", &stmt->location);
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, stmt->ct.key);
	if (stmt->ct.direction >= 0)
		nftnl_expr_set_u8(e, NFTNL_EXPR_CT_DIR, stmt->ct.direction);
	lin_add_expr(ctx, e, &stmt->location);
}

/* Does writing this field change the transport checksum pseudo header? */
static bool payload_pseudohdr(const struct expr *lhs)
{
	if (lhs->payload.base == PROTO_BASE_INNER_HDR)
		return true;
	return lhs->payload.base == PROTO_BASE_NETWORK_HDR &&
	       lhs->payload.tmpl && lhs->payload.tmpl->pseudohdr;
}

static void lin_payload_set(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct expr *lhs = stmt->payload.lhs;
	const struct proto_desc *desc = lhs->payload.desc;
	unsigned int csum_off = 0;
	enum nft_registers sreg;
	struct nftnl_expr *e;

	sreg = lin_load(ctx, stmt->payload.val);
	release_register_expr(ctx, stmt->payload.val);
	if (desc && desc->checksum_key)
		csum_off = desc->templates[desc->checksum_key].offset;

	e = lin_alloc(ctx, "payload", &stmt->location);
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_SREG, sreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, lhs->payload.base - 1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET,
			   lhs->payload.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, lhs->len / 8);
	if (csum_off) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_CSUM_TYPE,
				   desc->checksum_type);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_CSUM_OFFSET,
				   csum_off / 8);
	}
	if (payload_pseudohdr(lhs))
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_FLAGS,
				   NFT_PAYLOAD_L4CSUM_PSEUDOHDR);
	lin_add_expr(ctx, e, &lhs->location);
}

static void lin_exthdr_set(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct expr *lhs = stmt->payload.lhs;
	enum nft_registers sreg;
	struct nftnl_expr *e;

	sreg = lin_load(ctx, stmt->payload.val);
	release_register_expr(ctx, stmt->payload.val);
	e = lin_alloc(ctx, "exthdr", &stmt->location);
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_SREG, sreg);
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, lhs->exthdr.desc ?
			  lhs->exthdr.desc->type : lhs->exthdr.raw_type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OFFSET,
			   lhs->exthdr.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_LEN, BITS_TO_BYTES(lhs->len));
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, lhs->exthdr.op);
	lin_add_expr(ctx, e, &lhs->location);
}

/* "tcp option X reset": strip the option (exthdr with no register). */
static void lin_optstrip(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct expr *x = stmt->optstrip.expr;
	struct nftnl_expr *e = lin_alloc(ctx, "exthdr", &stmt->location);

	if (!e)
		return;
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, x->exthdr.desc ?
			  x->exthdr.desc->type : x->exthdr.raw_type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, x->exthdr.op);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_dynset_stmts(struct lin_ctx *ctx, struct nftnl_expr *e,
			     const struct stmt *stmt, bool set_flags)
{
	const struct stmt *s;
	unsigned int n = 0;

	list_for_each_entry(s, &stmt->set.stmts, list)
		n++;
	list_for_each_entry(s, &stmt->set.stmts, list) {
		struct nftnl_expr *se = lin_stmt_stateful(s);

		if (!se) {
			erec_error(&ctx->nft->erq, &s->location,
				   "statement is not supported for sets");
			continue;
		}
		if (n == 1)
			nftnl_expr_set(e, NFTNL_EXPR_DYNSET_EXPR, se, 0);
		else
			nftnl_expr_add_expr(e, NFTNL_EXPR_DYNSET_EXPRESSIONS,
					    se);
	}
	if (n > 1 && set_flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_FLAGS,
				   NFT_DYNSET_F_EXPR);
}

/* add/update/delete @set { key [timeout T] [stmts] } and maps. */
static void lin_dynset(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct expr *key = stmt->set.key, *data = stmt->set.data;
	const struct expr *ref = stmt->set.set;
	const struct set *set = ref && ref->kind == EXPR_SET_REF ?
				ref->set_ref.set : NULL;
	enum nft_registers sreg_key, sreg_data = NFT_REG_VERDICT;
	uint64_t timeout = 0;
	struct nftnl_expr *e;

	if (key->kind == EXPR_SET_ELEM) {
		timeout = key->elem.timeout;
		key = key->elem.key;
	}
	sreg_key = lin_load(ctx, key);
	if (data)
		sreg_data = lin_load(ctx, data);
	if (data)
		release_register_expr(ctx, data);
	release_register_expr(ctx, key);

	e = lin_alloc(ctx, "dynset", &stmt->location);
	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_KEY, sreg_key);
	if (data)
		nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_DATA, sreg_data);
	if (timeout)
		nftnl_expr_set_u64(e, NFTNL_EXPR_DYNSET_TIMEOUT, timeout);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_OP, stmt->set.op);
	if (set) {
		nftnl_expr_set_str(e, NFTNL_EXPR_DYNSET_SET_NAME,
				   set->handle.set.name);
		nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SET_ID,
				   set->handle.set_id);
	}
	/* before it is added: adding writes it into the message */
	lin_dynset_stmts(ctx, e, stmt, stmt->kind == STMT_SET);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_objref(struct lin_ctx *ctx, const struct stmt *stmt)
{
	const struct expr *expr = stmt->objref.expr;
	const struct expr *m;
	char name[NFT_OBJ_MAXNAMELEN];
	enum nft_registers sreg;
	struct nftnl_expr *e;

	e = lin_alloc(ctx, "objref", &stmt->location);
	if (!e)
		return;
	if (expr->kind == EXPR_MAP) {
		sreg = lin_load(ctx, expr->map.key);
		release_register_expr(ctx, expr->map.key);
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_SREG, sreg);
		m = expr->map.mappings;
		if (m && m->kind == EXPR_SET_REF && m->set_ref.set) {
			nftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_SET_NAME,
					   m->set_ref.set->handle.set.name);
			nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_ID,
					   m->set_ref.set->handle.set_id);
		}
	} else {
		if (lin_expr_to_string(expr, name, sizeof(name)) < 0)
			name[0] = '\0';
		nftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_IMM_NAME, name);
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE,
				   stmt->objref.type);
	}
	lin_add_expr(ctx, e, &expr->location);
}

static void lin_synproxy(struct lin_ctx *ctx, const struct stmt *stmt)
{
	struct nftnl_expr *e = lin_alloc(ctx, "synproxy", &stmt->location);

	if (!e)
		return;
	nftnl_expr_set_u16(e, NFTNL_EXPR_SYNPROXY_MSS, stmt->synproxy.mss);
	nftnl_expr_set_u8(e, NFTNL_EXPR_SYNPROXY_WSCALE,
			  stmt->synproxy.wscale);
	nftnl_expr_set_u32(e, NFTNL_EXPR_SYNPROXY_FLAGS,
			   stmt->synproxy.flags);
	lin_add_expr(ctx, e, &stmt->location);
}

static void lin_simple(struct lin_ctx *ctx, const struct stmt *stmt,
		       const char *name)
{
	struct nftnl_expr *e = lin_alloc(ctx, name, &stmt->location);

	if (!e)
		return;
	if (stmt->kind == STMT_FLOW_OFFLOAD && stmt->flow.table_name)
		nftnl_expr_set_str(e, NFTNL_EXPR_FLOW_TABLE_NAME,
				   stmt->flow.table_name);
	lin_add_expr(ctx, e, &stmt->location);
}

/* An xtables match or target expression (nft_compat). */
static void lin_xt(struct lin_ctx *ctx, const struct stmt *stmt)
{
	bool tg = stmt->xt.target;
	struct nftnl_expr *e = lin_alloc(ctx, tg ? "target" : "match",
					 &stmt->location);
	void *info;

	if (!e)
		return;
	info = malloc(stmt->xt.len ? stmt->xt.len : 1);
	if (info)
		memcpy(info, stmt->xt.info, stmt->xt.len);
	nftnl_expr_set_str(e, tg ? NFTNL_EXPR_TG_NAME : NFTNL_EXPR_MT_NAME,
			   stmt->xt.name);
	nftnl_expr_set_u32(e, tg ? NFTNL_EXPR_TG_REV : NFTNL_EXPR_MT_REV,
			   stmt->xt.rev);
	/* libnftnl keeps (and frees) the buffer it is given */
	if (info)
		nftnl_expr_set(e, tg ? NFTNL_EXPR_TG_INFO : NFTNL_EXPR_MT_INFO,
			       info, stmt->xt.len);
	lin_add_expr(ctx, e, &stmt->location);
}

/**
 * lin_stmt - append the VM code of @stmt to the rule in @ctx
 *
 * Errors (only out of memory or IR the evaluator should have refused)
 * are queued in ctx->nft->erq.
 */
void lin_stmt(struct lin_ctx *ctx, const struct stmt *stmt)
{
	switch (stmt->kind) {
	case STMT_EXPRESSION:
		lin_relational(ctx, stmt->expr);
		break;
	case STMT_VERDICT:
		lin_verdict(ctx, stmt->expr, &stmt->location);
		break;
	case STMT_COUNTER:
	case STMT_LIMIT:
	case STMT_QUOTA:
	case STMT_CONNLIMIT:
	case STMT_LAST:
		lin_stateful(ctx, stmt);
		break;
	case STMT_LOG:
		lin_log(ctx, stmt);
		break;
	case STMT_REJECT:
		lin_reject(ctx, stmt);
		break;
	case STMT_NAT:
		lin_nat(ctx, stmt);
		break;
	case STMT_TPROXY:
		lin_tproxy(ctx, stmt);
		break;
	case STMT_QUEUE:
		lin_queue(ctx, stmt);
		break;
	case STMT_DUP:
		lin_dup(ctx, stmt);
		break;
	case STMT_FWD:
		lin_fwd(ctx, stmt);
		break;
	case STMT_META:
		lin_meta_set(ctx, stmt);
		break;
	case STMT_CT:
		lin_ct_set(ctx, stmt);
		break;
	case STMT_PAYLOAD:
		lin_payload_set(ctx, stmt);
		break;
	case STMT_EXTHDR:
		lin_exthdr_set(ctx, stmt);
		break;
	case STMT_OPTSTRIP:
		lin_optstrip(ctx, stmt);
		break;
	case STMT_NOTRACK:
		lin_simple(ctx, stmt, "notrack");
		break;
	case STMT_XT:
		lin_xt(ctx, stmt);
		break;
	case STMT_FLOW_OFFLOAD:
		lin_simple(ctx, stmt, "flow_offload");
		break;
	case STMT_SET:
	case STMT_MAP:
		lin_dynset(ctx, stmt);
		break;
	case STMT_OBJREF:
		lin_objref(ctx, stmt);
		break;
	case STMT_SYNPROXY:
		lin_synproxy(ctx, stmt);
		break;
	case STMT_CHAIN:
		if (stmt->chain.verdict)
			lin_verdict(ctx, stmt->chain.verdict,
				    &stmt->location);
		break;
	case STMT_INVALID:
	case __STMT_MAX:
		erec_error(&ctx->nft->erq, &stmt->location,
			   "unsupported statement");
		break;
	}
}
