// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * u32: tests of 32-bit words of the packet, as raw payload matches.
 *
 * xt_u32 reads the big-endian word at an offset from the network
 * header, applies "&", "<<" and ">>" in order and matches when the
 * result lies in one of the ranges; the tests of a rule are ANDed, and
 * "!" negates them all. A chain of &/<</>> on a word always equals
 * shift(word & M, s) for one mask M and one net shift s, so each test is
 * "@nh,OFF,32 & M" against the ranges moved by s. "@" (read at an offset
 * computed from the packet) has no nft equivalent, except the idiom
 * "0>>22&0x3C@" (the IPv4 header length: the transport header).
 */
#define _GNU_SOURCE
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_u32.h>
#include "xlate_int.h"
#include "xlate_map.h"
#include "proto.h"

#define LOC	(&r->loc)

/**
 * struct u32_word - the value of a test as shift(word & mask, shift)
 * @src: per value bit, the word bit it comes from, -1 for none
 */
struct u32_word {
	int		src[32];
	uint32_t	mask;
	int		shift;		/* > 0: right, < 0: left */
	bool		zero;		/* no word bit left: the value is 0 */
};

static void word_init(struct u32_word *w)
{
	int j;

	w->shift = 0;
	for (j = 0; j < 32; j++)
		w->src[j] = j;
}

static void word_op(struct u32_word *w, uint8_t op, uint32_t n)
{
	int tmp[32], j;

	memcpy(tmp, w->src, sizeof(tmp));
	for (j = 0; j < 32; j++) {
		switch (op) {
		case XT_U32_AND:
			w->src[j] = (n >> j) & 1 ? tmp[j] : -1;
			break;
		case XT_U32_RIGHTSH:
			w->src[j] = n < 32 && j + n < 32 ? tmp[j + n] : -1;
			break;
		case XT_U32_LEFTSH:
			w->src[j] = n < 32 && j >= (int)n ? tmp[j - n] : -1;
			break;
		}
	}
}

/* Every value bit comes from word bit j + shift: find mask and shift. */
static void word_finish(struct u32_word *w)
{
	bool found = false;
	int j;

	w->mask = 0;
	for (j = 0; j < 32; j++) {
		if (w->src[j] < 0)
			continue;
		w->mask |= 1U << w->src[j];
		if (!found)
			w->shift = w->src[j] - j;
		found = true;
	}
	w->zero = !found;
}

/* The range [lo, hi] of the value as a range of word & mask, if any. */
static bool word_range(const struct u32_word *w, uint32_t lo, uint32_t hi,
		       uint64_t *wlo, uint64_t *whi)
{
	uint64_t a, b;

	if (w->shift >= 0) {
		a = (uint64_t)lo << w->shift;
		b = (uint64_t)hi << w->shift;
	} else {
		uint64_t d = 1ULL << -w->shift;

		a = (lo + d - 1) / d;
		b = hi / d;
	}
	if (a > w->mask || a > b)
		return false;
	*wlo = a;
	*whi = b > w->mask ? w->mask : b;
	return true;
}

/* "0>>22&0x3C@": IHL * 4, where the transport header starts (IPv4) */
static bool is_ihl_at(const struct xt_u32_test *t, unsigned int *next)
{
	const struct xt_u32_location_element *l = t->location;

	if (t->nnums < 4 || l[0].number != 0 ||
	    l[1].nextop != XT_U32_RIGHTSH || l[1].number != 22 ||
	    l[2].nextop != XT_U32_AND || l[2].number != 0x3c ||
	    l[3].nextop != XT_U32_AT)
		return false;
	*next = 4;
	return true;
}

static int u32_test(struct xl_rule *r, const struct xt_u32_test *t,
		    bool inv)
{
	enum proto_bases base = PROTO_BASE_NETWORK_HDR;
	uint32_t off = t->location[0].number;
	struct expr *lhs, *rhs = NULL;
	struct u32_word w;
	unsigned int i = 1, n = 0;
	uint64_t a, b;

	if (r->ctx->family == NFPROTO_IPV4 && is_ihl_at(t, &i)) {
		base = PROTO_BASE_TRANSPORT_HDR;
		off = t->location[3].number;
		xl_warn(r, "u32 \"0>>22&0x3C@\": read from nft's transport "
			"header, which non-first fragments do not have");
		r->inexact = true;
	}
	word_init(&w);
	for (; i < t->nnums; i++) {
		if (t->location[i].nextop == XT_U32_AT)
			return xl_error(r, "u32 \"@\" (an offset read from the "
					"packet) cannot be expressed in "
					"nftables");
		word_op(&w, t->location[i].nextop, t->location[i].number);
	}
	word_finish(&w);
	for (i = 0; i < t->nvalues; i++) {
		if (w.zero) {
			if (t->value[i].min == 0)
				break;
			continue;
		}
		if (!word_range(&w, t->value[i].min, t->value[i].max, &a, &b))
			continue;
		rhs = xl_set_add(rhs, xl_range(LOC, a, b, "0x%" PRIx64));
		n++;
	}
	if (w.zero) {	/* only the word's presence (length) is tested */
		if ((i < t->nvalues) == inv)
			return xl_error(r, "u32 test never matches");
		lhs = payload_raw_alloc(LOC, base, off * 8, 32);
		xl_match(r, xl_binop(LOC, OP_AND, lhs, xl_sym(LOC, "0x0")),
			 OP_EQ, xl_sym(LOC, "0x0"));
		return 0;
	}
	if (!n) {
		if (!inv)
			return xl_error(r, "u32 test never matches");
		/* "!" of nothing: only the word must be there */
		lhs = payload_raw_alloc(LOC, base, off * 8, 32);
		xl_match(r, xl_binop(LOC, OP_AND, lhs, xl_sym(LOC, "0x0")),
			 OP_EQ, xl_sym(LOC, "0x0"));
		return 0;
	}
	if (n == 1) {
		struct expr *e = list_first_entry(&rhs->expressions,
						  struct expr, list);

		e = expr_get(e->elem.key);
		expr_free(rhs);
		rhs = e;
	}
	lhs = payload_raw_alloc(LOC, base, off * 8, 32);
	if (w.mask != UINT32_MAX)
		lhs = xl_binop(LOC, OP_AND, lhs, xl_sym(LOC, "0x%x", w.mask));
	xl_match_inv(r, lhs, inv, rhs);
	return 0;
}

int xl_map_u32(struct xl_rule *r, const void *data)
{
	const struct xt_u32 *u = data;
	unsigned int i;

	if (!u->ntests || u->ntests > XT_U32_MAXSIZE + 1)
		return xl_error(r, "u32: bad test count");
	if (u->invert && u->ntests > 1)
		return xl_error(r, "! u32 with several tests (not all of "
				"them) cannot be expressed in one nftables "
				"rule");
	for (i = 0; i < u->ntests; i++) {
		if (u32_test(r, &u->tests[i], u->invert) < 0)
			return -1;
	}
	return 0;
}
