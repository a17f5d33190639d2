// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IR construction helpers for the mappings: they build exactly the
 * shapes the nft parser builds (nftc/PARSER-IR.md), constants as symbol
 * text the evaluator types in the context of their left-hand side.
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "xlate_int.h"
#include "keys.h"
#include "proto.h"
#include "fmt.h"

/* @v in @base (10 or 16, lower case) after @prefix, malloc'ed. */
static char *num_text(const char *prefix, uint64_t v, unsigned int base)
{
	char buf[32], *p = buf + sizeof(buf), *text;
	size_t plen = strlen(prefix), n;

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	n = buf + sizeof(buf) - p;
	text = malloc(plen + n + 1);
	if (!text)
		return NULL;
	memcpy(text, prefix, plen);
	memcpy(text + plen, p, n);
	text[plen + n] = '\0';
	return text;
}

/*
 * The formats the mappings use most are written without printf (a
 * third of the parse time went to vasprintf); the text is the same.
 */
struct expr *xl_sym(const struct location *loc, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	if (!strcmp(fmt, "%s")) {
		const char *arg = va_arg(ap, const char *);

		text = strdup(arg ? arg : "(null)");	/* as glibc prints */
	} else if (!strcmp(fmt, "%u")) {
		text = num_text("", va_arg(ap, unsigned int), 10);
	} else if (!strcmp(fmt, "%" PRIu64)) {
		text = num_text("", va_arg(ap, uint64_t), 10);
	} else if (!strcmp(fmt, "0x%x")) {
		text = num_text("0x", va_arg(ap, unsigned int), 16);
	} else if (!strcmp(fmt, "0x%" PRIx64)) {
		text = num_text("0x", va_arg(ap, uint64_t), 16);
	} else if (!strchr(fmt, '%')) {
		text = strdup(fmt);
	} else {
		n = vasprintf(&text, fmt, ap);
	}
	va_end(ap);
	if (n < 0 || !text)
		return NULL;
	return symbol_expr_alloc_own(loc, SYMBOL_VALUE, text);
}

struct expr *xl_qsym(const struct location *loc, const char *text)
{
	return symbol_expr_alloc(loc, SYMBOL_QUOTED, text);
}

/*
 * proto_field_lookup() compares the name with every field of the
 * header; the mappings ask for a few fields over and over. The last
 * four answers are kept, each taken again only when its field has the
 * name asked for (one strcmp).
 */
struct expr *xl_payload(const struct location *loc,
			const struct proto_desc *desc, const char *field)
{
	static __thread struct {
		const struct proto_desc	*desc;
		unsigned int		idx;
	} last[4];
	unsigned int i, idx = 0;

	for (i = 0; i < 4; i++) {
		if (last[i].desc == desc && last[i].idx &&
		    !strcmp(desc->templates[last[i].idx].token, field)) {
			idx = last[i].idx;
			break;
		}
	}
	if (!idx) {
		idx = proto_field_lookup(desc, field);
		memmove(&last[1], &last[0], sizeof(last[0]) * 3);
		last[0].desc = desc;
		last[0].idx = idx;
	}
	return payload_expr_alloc(loc, desc, idx);
}

struct expr *xl_exthdr(const struct location *loc, const char *hdr,
		       const char *field)
{
	const struct exthdr_desc *d = exthdr_ipv6_lookup(hdr);

	return exthdr_expr_alloc(loc, d, exthdr_field_lookup(d, field),
				 NFT_EXTHDR_OP_IPV6);
}

struct expr *xl_meta(const struct location *loc, enum nft_meta_keys key)
{
	return meta_expr_alloc(loc, key);
}

struct expr *xl_ct(const struct location *loc, enum nft_ct_keys key, int dir)
{
	return ct_expr_alloc(loc, key, dir);
}

/* @fmt prints one bound ("%" PRIu64 style, as a value of the type). */
struct expr *xl_range(const struct location *loc, uint64_t lo, uint64_t hi,
		      const char *fmt)
{
	if (lo == hi)
		return xl_sym(loc, fmt, lo);
	return range_expr_alloc(loc, xl_sym(loc, fmt, lo),
				xl_sym(loc, fmt, hi));
}

struct expr *xl_binop(const struct location *loc, enum ops op,
		      struct expr *l, struct expr *r)
{
	return binop_expr_alloc(loc, op, l, r);
}

void xl_add_stmt(struct xl_rule *r, struct stmt *stmt)
{
	list_add_tail(&stmt->list, &r->rule->stmts);
	r->rule->num_stmts++;
}

void xl_match(struct xl_rule *r, struct expr *lhs, enum ops op,
	      struct expr *rhs)
{
	struct expr *rel = relational_expr_alloc(&r->loc, op, lhs, rhs);

	xl_add_stmt(r, expr_stmt_alloc(&r->loc, rel));
}

void xl_match_inv(struct xl_rule *r, struct expr *lhs, bool inv,
		  struct expr *rhs)
{
	xl_match(r, lhs, inv ? OP_NEQ : OP_IMPLICIT, rhs);
}

/*
 * The types whose text parse of a number is that number as it is (no
 * unit, no scale, no name in the way): a number for such a field can
 * be built already typed.
 */
static const struct datatype *const xl_numeric_types[] = {
	&inet_service_type, &inet_protocol_type, &icmp_type_type,
	&icmp6_type_type, &mark_type, &tcp_flag_type,
};

/*
 * A constant of @lhs's type, as the evaluator would make it of its
 * decimal text in @lhs's context (dtype, byte order and width of the
 * field), so it needs no parsing there. NULL for other fields: they
 * go as text.
 */
struct expr *xl_typed(const struct location *loc, const struct expr *lhs,
		      uint64_t v)
{
	unsigned int i;

	if ((lhs->kind != EXPR_PAYLOAD && lhs->kind != EXPR_META) ||
	    !lhs->len || lhs->len > 32 || v >> lhs->len)
		return NULL;
	for (i = 0; i < sizeof(xl_numeric_types) /
			sizeof(xl_numeric_types[0]); i++) {
		if (lhs->dtype == xl_numeric_types[i] &&
		    lhs->dtype->size == lhs->len)
			return constant_expr_u64(loc, lhs->dtype,
						 lhs->byteorder, lhs->len, v);
	}
	return NULL;
}

struct expr *xl_value(const struct location *loc, const struct expr *lhs,
		      uint64_t v)
{
	struct expr *e = xl_typed(loc, lhs, v);

	return e ? e : xl_sym(loc, "%" PRIu64, v);
}

void xl_match_range(struct xl_rule *r, struct expr *lhs, uint64_t lo,
		    uint64_t hi, bool inv)
{
	struct expr *l = xl_typed(&r->loc, lhs, lo), *h;

	if (!l) {
		xl_match_inv(r, lhs, inv, xl_range(&r->loc, lo, hi,
						   "%" PRIu64));
		return;
	}
	if (lo == hi) {
		xl_match_inv(r, lhs, inv, l);
		return;
	}
	h = xl_typed(&r->loc, lhs, hi);
	xl_match_inv(r, lhs, inv, range_expr_alloc(&r->loc, l, h));
}

/* inet_ntop()'s text; IPv4 written directly (inet_ntop uses sprintf) */
static void addr_text(char *buf, size_t len, const uint8_t *a,
		      unsigned int alen)
{
	if (alen != 4 || len < INET_ADDRSTRLEN) {
		inet_ntop(alen == 4 ? AF_INET : AF_INET6, a, buf, len);
		return;
	}
	fmt_ip4(buf, a);
}

/* Prefix length of a contiguous mask, -1 otherwise. */
static int mask_plen(const uint8_t *m, unsigned int alen)
{
	unsigned int i, n, bits = 0;
	bool zero = false;

	/* a byte at a time: its ones must lead, and follow only ones */
	for (i = 0; i < alen; i++) {
		if (zero) {
			if (m[i])
				return -1;
			continue;
		}
		n = __builtin_popcount(m[i]);
		if (m[i] != (uint8_t)(0xff << (8 - n)))
			return -1;
		bits += n;
		zero = n < 8;
	}
	return bits;
}

/*
 * An address of @alen bytes as the evaluator makes it of its text for
 * an address field @lhs (ip saddr, ...); NULL for other fields.
 */
static struct expr *typed_addr(const struct location *loc,
			       const struct expr *lhs, const uint8_t *a,
			       unsigned int alen)
{
	struct expr *e;

	if (lhs->kind != EXPR_PAYLOAD || lhs->len != alen * 8 ||
	    lhs->dtype != (alen == 4 ? &ipaddr_type : &ip6addr_type) ||
	    lhs->byteorder != BYTEORDER_BIG)
		return NULL;
	e = constant_expr_alloc(loc, lhs->dtype, BYTEORDER_BIG, alen * 8,
				NULL);
	if (e)
		value_set_bytes(&e->value, alen * 8, a);
	return e;
}

void xl_match_addr(struct xl_rule *r, struct expr *lhs, const void *addr,
		   const void *mask, unsigned int alen, bool inv)
{
	const uint8_t *a = addr, *m = mask;
	char abuf[INET6_ADDRSTRLEN], mbuf[INET6_ADDRSTRLEN];
	uint8_t net[16] = { 0 };
	struct expr *val;
	unsigned int i;
	int plen;

	for (i = 0; i < alen; i++)
		net[i] = a[i] & m[i];
	plen = mask_plen(m, alen);
	if (plen < 0) {
		addr_text(abuf, sizeof(abuf), net, alen);
		addr_text(mbuf, sizeof(mbuf), m, alen);
		xl_match(r, xl_binop(&r->loc, OP_AND, lhs,
				     xl_sym(&r->loc, "%s", mbuf)),
			 inv ? OP_NEQ : OP_EQ, xl_sym(&r->loc, "%s", abuf));
		return;
	}
	if (plen == 0 && !inv) {
		expr_free(lhs);
		return;
	}
	val = typed_addr(&r->loc, lhs, net, alen);
	if (!val) {
		addr_text(abuf, sizeof(abuf), net, alen);
		val = xl_sym(&r->loc, "%s", abuf);
	}
	if ((unsigned int)plen == alen * 8)
		xl_match_inv(r, lhs, inv, val);
	else
		xl_match_inv(r, lhs, inv,
			     prefix_expr_alloc(&r->loc, val, plen));
}

void xl_match_masked(struct xl_rule *r, struct expr *lhs, uint32_t value,
		     uint32_t mask, bool inv)
{
	struct expr *v;

	if (mask == 0xffffffff) {
		v = xl_typed(&r->loc, lhs, value);
		xl_match_inv(r, lhs, inv, v ? v : xl_sym(&r->loc, "0x%x",
							 value));
		return;
	}
	xl_match(r, xl_binop(&r->loc, OP_AND, lhs,
			     xl_sym(&r->loc, "0x%x", mask)),
		 inv ? OP_NEQ : OP_EQ, xl_sym(&r->loc, "0x%x", value));
}

/* Add @key as an element of anonymous set @set (created when NULL). */
struct expr *xl_set_add(struct expr *set, struct expr *key)
{
	if (!set)
		set = list_expr_alloc(&key->location, EXPR_SET);
	list_expr_add(set, set_elem_expr_alloc(&key->location, key));
	return set;
}

static int xl_report(struct xl_rule *r, enum erec_type type,
		     const char *fmt, va_list ap)
{
	return erec_vadd(&r->ctx->erq, type, &r->loc, fmt, ap);
}

int xl_error(struct xl_rule *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xl_report(r, EREC_ERROR, fmt, ap);
	va_end(ap);
	r->failed = true;
	return -1;
}

void xl_warn(struct xl_rule *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xl_report(r, EREC_WARNING, fmt, ap);
	va_end(ap);
}

static const struct {
	uint8_t			proto;
	const struct proto_desc	*desc;
} l4_descs[] = {
	{ IPPROTO_TCP,		&proto_tcp },
	{ IPPROTO_UDP,		&proto_udp },
	{ IPPROTO_UDPLITE,	&proto_udplite },
	{ IPPROTO_SCTP,		&proto_sctp },
	{ IPPROTO_DCCP,		&proto_dccp },
	{ IPPROTO_ICMP,		&proto_icmp },
	{ IPPROTO_ICMPV6,	&proto_icmp6 },
	{ IPPROTO_AH,		&proto_ah },
	{ IPPROTO_ESP,		&proto_esp },
	{ IPPROTO_COMP,		&proto_comp },
};

const struct proto_desc *xl_l4_desc(uint16_t proto)
{
	unsigned int i;

	for (i = 0; i < sizeof(l4_descs) / sizeof(l4_descs[0]); i++) {
		if (l4_descs[i].proto == proto)
			return l4_descs[i].desc;
	}
	return NULL;
}

const struct proto_desc *xl_l3_desc(const struct xl_rule *r)
{
	return r->ctx->family == NFPROTO_IPV6 ? &proto_ip6 : &proto_ip;
}
