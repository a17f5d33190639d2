// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The translation memo's keys (memo.c says what they are for): a rule's
 * words byte for byte, but for holes, values of a known class in a
 * known option position, each marked in the key with its class:
 * - after -s/-d (IPv4): a strict dotted quad (fmt_parse_ip4()), its
 *   "/P" prefix length (1..32, no leading zero) kept in the key, and
 *   whether host bits are set; a network part of 0 is no hole;
 * - after --dport/--sport (and long forms): a port 1..65534 without a
 *   leading zero, or two such as "LO:HI" with LO < HI;
 * - after --dports/--sports/--ports: such ports, distinct, no range;
 * - after --mark: 0x and 1-8 lowercase hex digits, not 0, within the
 *   mask that follows (kept in the key) and not the mask itself;
 * - in a --comment or --log-prefix: the digit runs without a leading
 *   zero, their length in the key.
 * Any other word, or a value outside its class, is in the key as it is.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "memo_int.h"
#include "fmt.h"

/* ---------------------------------------------------------------- keys */

enum memo_opt { MO_NONE, MO_ADDR, MO_PORT, MO_MPORT, MO_MARK, MO_TEXT };

/* The long options whose argument may hold holes, by their third char. */
static const struct {
	const char	*name;
	uint8_t		kind;
} memo_opts[] = {
	{ "--comment", MO_TEXT },
	{ "--dport", MO_PORT },
	{ "--dports", MO_MPORT },
	{ "--destination", MO_ADDR },
	{ "--destination-port", MO_PORT },
	{ "--destination-ports", MO_MPORT },
	{ "--dst", MO_ADDR },
	{ "--log-prefix", MO_TEXT },
	{ "--mark", MO_MARK },
	{ "--ports", MO_MPORT },
	{ "--sport", MO_PORT },
	{ "--sports", MO_MPORT },
	{ "--source", MO_ADDR },
	{ "--source-port", MO_PORT },
	{ "--source-ports", MO_MPORT },
	{ "--src", MO_ADDR },
};

/* What the argument after option word @w may hold. */
static unsigned int opt_kind(const char *w)
{
	unsigned int k;

	if (w[0] != '-')
		return MO_NONE;
	if (w[1] != '-')
		return (w[1] == 's' || w[1] == 'd') && !w[2] ? MO_ADDR :
							      MO_NONE;
	for (k = 0; k < sizeof(memo_opts) / sizeof(memo_opts[0]); k++) {
		if (memo_opts[k].name[2] == w[2] &&
		    !strcmp(memo_opts[k].name + 3, w + 3))
			return memo_opts[k].kind;
	}
	return MO_NONE;
}

/* A decimal without a leading zero, at most 9 digits: its length. */
static unsigned int dec_parse(const char *s, uint32_t *v)
{
	unsigned int n = 0;

	*v = 0;
	if (s[0] == '0')
		return 0;
	while (s[n] >= '0' && s[n] <= '9' && n < 10)
		*v = *v * 10 + (s[n++] - '0');
	return n < 10 ? n : 0;
}

/* "0x" and 1-8 lowercase hex digits: its length, 0 if none. */
static unsigned int hex_parse(const char *s, uint32_t *v)
{
	unsigned int n = 2;
	int d;

	*v = 0;
	if (s[0] != '0' || s[1] != 'x')
		return 0;
	for (;; n++) {
		if (s[n] >= '0' && s[n] <= '9')
			d = s[n] - '0';
		else if (s[n] >= 'a' && s[n] <= 'f')
			d = s[n] - 'a' + 10;
		else
			break;
		if (n == 10)
			return 0;
		*v = *v << 4 | (uint32_t)d;
	}
	return n > 2 ? n : 0;
}

uint32_t xl_memo_prefix_mask(unsigned int plen)
{
	return plen ? ~0u << (32 - plen) : 0;
}

struct keyw {
	unsigned char		*k;
	size_t			len;
	struct memo_hole	*h;
	unsigned int		nh;
	bool			full;
};

static void key_put(struct keyw *kw, const void *p, size_t n)
{
	if (kw->len + n > MEMO_KEY) {
		kw->full = true;
		return;
	}
	memcpy(kw->k + kw->len, p, n);
	kw->len += n;
}

static struct memo_hole *hole_add(struct keyw *kw, unsigned int kind,
				  unsigned int word, unsigned int off,
				  unsigned int len, uint32_t v)
{
	struct memo_hole *h;
	unsigned char mk[2] = { 1, (unsigned char)('A' + kind) };

	if (kw->nh == MEMO_HOLES)
		return NULL;
	h = &kw->h[kw->nh++];
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	h->word = word;
	h->off = off;
	h->len = len;
	h->v = v;
	key_put(kw, mk, 2);
	return h;
}

/* -s/-d: "A" or "A/P"; false when it is no hole. */
static bool key_addr(struct keyw *kw, const char *w, unsigned int word)
{
	uint8_t a[4];
	const char *e = fmt_parse_ip4(w, a);
	uint32_t v, plen = 32, mask;
	unsigned int n;
	struct memo_hole *h;
	char cls;

	if (!e || (*e && *e != '/'))
		return false;
	if (*e == '/') {
		if (e[1] == '0' && !e[2])
			return false;
		n = dec_parse(e + 1, &plen);
		if (!n || e[1 + n] || plen > 32)
			return false;
	}
	v = (uint32_t)a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3];
	mask = xl_memo_prefix_mask(plen);
	if (!(v & mask))
		return false;
	cls = v & ~mask ? 'h' : 'n';
	h = hole_add(kw, MK_ADDR, word, 0, e - w, v);
	if (!h)
		return false;
	h->plen = plen;
	key_put(kw, &cls, 1);
	key_put(kw, e, strlen(e));
	return true;
}

static bool port_ok(uint32_t v, unsigned int n)
{
	return n && v >= 1 && v <= 65534;
}

/* --dport: "N" or "N:M", N < M. */
static bool key_port(struct keyw *kw, const char *w, unsigned int word)
{
	uint32_t lo, hi = 0;
	unsigned int n = dec_parse(w, &lo), m = 0;
	unsigned int nh = kw->nh;
	size_t len = kw->len;

	if (!port_ok(lo, n))
		return false;
	if (w[n] == ':') {
		m = dec_parse(w + n + 1, &hi);
		if (!port_ok(hi, m) || w[n + 1 + m] || hi <= lo)
			return false;
	} else if (w[n]) {
		return false;
	}
	if (!hole_add(kw, MK_PORT, word, 0, n, lo))
		return false;
	if (w[n]) {
		key_put(kw, ":", 1);
		if (!hole_add(kw, MK_PORT, word, n + 1, m, hi)) {
			kw->nh = nh;
			kw->len = len;
			return false;
		}
	}
	return true;
}

/* multiport: "N,N,..." distinct, no ranges. */
static bool key_mport(struct keyw *kw, const char *w, unsigned int word)
{
	unsigned int nh = kw->nh, i, j, n;
	size_t len = kw->len, off = 0;
	uint32_t v;

	for (i = 0;; i++) {
		n = dec_parse(w + off, &v);
		if (!port_ok(v, n) || (w[off + n] && w[off + n] != ',') ||
		    !hole_add(kw, MK_PORT, word, off, n, v))
			goto undo;
		for (j = nh; j + 1 < kw->nh; j++) {
			if (kw->h[j].v == v)
				goto undo;
		}
		off += n;
		if (!w[off])
			return true;
		key_put(kw, ",", 1);
		off++;
	}
undo:
	kw->nh = nh;
	kw->len = len;
	return false;
}

/* --mark: "0xV" or "0xV/0xM", V not 0, within M, not M. */
static bool key_mark(struct keyw *kw, const char *w, unsigned int word)
{
	uint32_t v, mask = ~0u;
	unsigned int n = hex_parse(w, &v), m;
	struct memo_hole *h;

	if (!n || !v)
		return false;
	if (w[n] == '/') {
		m = hex_parse(w + n + 1, &mask);
		if (!m || w[n + 1 + m])
			return false;
	} else if (w[n]) {
		return false;
	}
	if ((v & ~mask) || v == mask)
		return false;
	h = hole_add(kw, MK_MARK, word, 0, n, v);
	if (!h)
		return false;
	h->mask = mask;
	key_put(kw, w + n, strlen(w + n));
	return true;
}

/* --comment, --log-prefix: the digit runs, their length in the key. */
static void key_text(struct keyw *kw, const char *w, unsigned int word)
{
	size_t i = 0, run;
	unsigned int n;
	uint32_t v;
	char len;

	while (w[i]) {
		for (run = i; w[run] && !(w[run] >= '0' && w[run] <= '9');
		     run++)
			;
		key_put(kw, w + i, run - i);
		i = run;
		if (!w[i])
			break;
		n = dec_parse(w + i, &v);
		if (n && !(w[i + n] >= '0' && w[i + n] <= '9') &&
		    hole_add(kw, MK_DIGITS, word, i, n, v)) {
			len = (char)('0' + n);
			key_put(kw, &len, 1);
			i += n;
			continue;
		}
		/* a run with a leading zero, or too long: as it is */
		for (run = i; w[run] >= '0' && w[run] <= '9'; run++)
			;
		key_put(kw, w + i, run - i);
		i = run;
	}
}

/*
 * The shape's key of the words @tok[0..n), its holes in @h: the key's
 * length, 0 when the rule is no candidate.
 */
size_t xl_memo_key(const struct xlate_ctx *ctx, const struct xl_table *t,
		   const struct xl_chain *c, const struct xl_token *tok,
		   unsigned int n, unsigned char *key, struct memo_hole *h,
		   unsigned int *nh)
{
	/*
	 * The table; a base chain, or any user chain; the table's last
	 * chain: chains are only ever added, and a rule's words may mean
	 * another thing once there is one more ("-j LOG" and a chain LOG).
	 */
	const void *ids[3] = { t, c->hook ? (const void *)c : NULL,
			       t->chains.prev };
	struct keyw kw = { .k = key, .h = h };
	unsigned char *k, *end = key + MEMO_KEY;
	unsigned int i, pk = MO_NONE;
	const unsigned char *p;
	const char *w;

	if (n > MEMO_WORDS)
		return 0;
	key_put(&kw, ids, sizeof(ids));
	for (i = 0; i < n; i++, pk = opt_kind(w)) {
		w = tok[i].text;
		if (i && kw.len < MEMO_KEY)
			kw.k[kw.len++] = '\0';
		switch (pk) {
		case MO_ADDR:
			if (ctx->family == NFPROTO_IPV4 && key_addr(&kw, w, i))
				continue;
			break;
		case MO_PORT:
			if (key_port(&kw, w, i))
				continue;
			break;
		case MO_MPORT:
			if (key_mport(&kw, w, i))
				continue;
			break;
		case MO_MARK:
			if (key_mark(&kw, w, i))
				continue;
			break;
		case MO_TEXT:
			key_text(&kw, w, i);
			continue;
		}
		/* a literal, no byte of which could read as a hole's mark */
		for (p = (const unsigned char *)w, k = kw.k + kw.len; *p; p++) {
			if (*p < 3 || k == end)
				return 0;
			*k++ = *p;
		}
		kw.len = k - kw.k;
	}
	*nh = kw.nh;
	return kw.full ? 0 : kw.len;
}

/*
 * 8 bytes at a time; @k has 8 bytes of room after @n, which are zeroed
 * (the tail's bytes are not the key's).
 */
uint32_t xl_memo_hash(unsigned char *k, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15ull, w;
	size_t i;

	memset(k + n, 0, 8);
	for (i = 0; i < n; i += 8) {
		memcpy(&w, k + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (uint32_t)h;
}

/* ---------------------------------------------------------- formatting */

/* A slot's text for value @v of hole @h into @s (24 bytes): its length. */
size_t xl_memo_slot_fmt(unsigned int fmt, const struct memo_hole *h,
			uint32_t v, char *s)
{
	switch (fmt) {
	case MF_ADDR:
		return fmt_ip4_u32(s, v & xl_memo_prefix_mask(h->plen)) - s;
	case MF_HEX8:
		return fmt_hex32(s, v, 8) - s;
	default:
		return fmt_u64(s, v) - s;
	}
}

/* The value @v as the input writes it (a probe's word). */
size_t xl_memo_input_fmt(const struct memo_hole *h, uint32_t v, char *s)
{
	switch (h->kind) {
	case MK_ADDR:
		return fmt_ip4_u32(s, v) - s;
	case MK_MARK:
		return fmt_hex32(s, v, 0) - s;
	default:
		return fmt_u64(s, v) - s;
	}
}

const uint8_t *xl_memo_hole_fmts(const struct memo_hole *h, unsigned int *n)
{
	static const uint8_t addr[] = { MF_ADDR }, dec[] = { MF_DEC },
			     mark[] = { MF_HEX8, MF_DEC };

	switch (h->kind) {
	case MK_ADDR:
		*n = 1;
		return addr;
	case MK_MARK:
		*n = 2;
		return mark;
	default:
		*n = 1;
		return dec;
	}
}

/*
 * Candidate values of hole @h's class, alternately near (the lowest
 * bits, the last digit) and far (the highest bits, the first digit).
 */
unsigned int xl_memo_probe_values(const struct memo_hole *h, uint32_t *out)
{
	uint32_t v = h->v, p10 = 1, x, bits[32];
	unsigned int n = 0, nb = 0, b;

	switch (h->kind) {
	case MK_ADDR:
	case MK_MARK:
		/* the bits that print: the network part, the mask's */
		for (b = 0; b < 32; b++) {
			if (h->kind == MK_ADDR ? b >= 32 - h->plen :
						 !!(h->mask & (1u << b)))
				bits[nb++] = 1u << b;
		}
		for (b = 0; b < nb && n < 12; b++) {
			out[n++] = v ^ bits[b];
			if (n < 12)
				out[n++] = v ^ bits[nb - 1 - b];
		}
		break;
	default:
		for (x = v; x >= 10; x /= 10)
			p10 *= 10;
		out[n++] = v + 1;
		out[n++] = x < 9 ? v + p10 : v - p10;
		out[n++] = v - 1;
		out[n++] = v + 30000;
		out[n++] = v + 2;
		out[n++] = v - 30000;
		out[n++] = v - 2;
		out[n++] = v + 1000;
		out[n++] = v - 1000;
		out[n++] = v + 100;
		out[n++] = v - 100;
		break;
	}
	return n;
}
