// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Translation memo (XLATE_F_MEMO, with XLATE_F_STREAM).
 *
 * Big save files repeat a few rule shapes with other addresses and
 * ports. The first rules of a shape go the whole way (libxtables, IR,
 * evaluator, printer); a later rule with the same words, but for values
 * in known option positions, is printed from the first one's text with
 * its own values filled in, in the spirit of nftc/list_tmpl.c.
 *
 * What makes that exact:
 * - the key is the table, the chain (a base chain itself, user chains
 *   all alike: nothing in a rule's translation depends on which user
 *   chain it is in but the name in -c's lead, printed apart) and every
 *   word byte for byte, but for holes: a strict dotted quad after
 *   -s/-d (its prefix length, and whether host bits are set, stay in the
 *   key; a network part of 0 is no hole), a port 1..65534 or a range of
 *   two (low below high) after --dport/--sport, distinct such ports in
 *   a multiport list without ranges, a mark 0x1..0xffffffff after --mark
 *   (within its mask, not the mask itself), and the digit runs without a
 *   leading zero of a --comment or --log-prefix (their length stays in
 *   the key). Anything else, and any value outside those classes, is
 *   part of the key as it is;
 * - a template is made from a rule that went the whole way and did
 *   nothing but print its text: no diagnostic (parse or evaluator), no
 *   approximation, no set, chain or table declared, only extensions
 *   rule.c lists as doing nothing else (recent, hashlimit, connlimit,
 *   set, ... never);
 * - a hole becomes a slot of the text only when proven: the rule is
 *   translated again (nothing kept) with two other values of the same
 *   class, and each time the text differs from the template's exactly
 *   in one place, the one where the slot's own formatter (decimal,
 *   dotted quad of the masked address, 0x%08x) put the value and now
 *   puts the probe's; then once more with all slots changed at once.
 *   A hole that fails is exact-matched from then on (its value goes
 *   into a second key);
 * - a shape is learned the second time it is seen; a bounded number of
 *   probes (256 + a quarter of the rules) and of entries.
 * A hit prints what xl_out_rule() would (lead, text), counts the rule
 * translated and takes its place as the full path does; declarations
 * made since are evaluated first, as for any rule.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "xlate_int.h"
#include "fmt.h"

#define MEMO_BUCKETS	4096
#define MEMO_ENTS_MAX	16384
#define MEMO_HOLES	16
#define MEMO_WORDS	128
#define MEMO_KEY	4096
#define MEMO_PROBE0	256	/* probes always allowed, then 1 per 4 rules */

enum memo_kind { MK_ADDR, MK_PORT, MK_MARK, MK_DIGITS };
enum memo_fmt { MF_DEC, MF_ADDR, MF_HEX8 };

struct memo_hole {
	uint8_t			kind;
	uint8_t			plen;		/* MK_ADDR */
	uint16_t		word;
	uint16_t		off;		/* of the value in the word */
	uint16_t		len;
	uint32_t		v;
	uint32_t		mask;		/* MK_MARK: its mask */
};

struct memo_slot {
	uint32_t		off;		/* in the template's text */
	uint32_t		len;		/* the template's value there */
	uint8_t			hole;
	uint8_t			fmt;
};

/*
 * A shape (its key with every hole) or, when some of its holes are
 * exact, a template under the shape's key plus those holes' values.
 */
struct memo_ent {
	struct memo_ent		*next;
	uint32_t		hash;
	uint32_t		klen;
	unsigned char		*key;
	uint32_t		exact;		/* shape: holes matched exactly */
	bool			learned;	/* shape: @exact is known */
	bool			dead;		/* no template here, ever */
	unsigned int		seen;
	unsigned int		fails;
	char			*text;		/* template: NULL if none yet */
	uint32_t		tlen;
	unsigned int		nslots;
	struct memo_slot	*slots;
};

struct memo_state {
	struct list_head	*erq_tail;
	unsigned int		num_errors;
	struct list_head	*sets_tail, *hints_tail, *chains_tail;
	struct list_head	*tables_tail, *plain_tail;
	unsigned int		set_seq;
	unsigned long		diags;
};

struct xl_memo {
	struct memo_ent		*tab[MEMO_BUCKETS];
	unsigned int		nents;
	unsigned long		rules;
	unsigned long		probes;
	unsigned long		hits;
	unsigned long		tmpls;
	/* the rule being looked up */
	unsigned char		key[MEMO_KEY + 8];
	size_t			klen;		/* of the shape's key */
	size_t			k2len;		/* with the exact holes */
	struct memo_hole	holes[MEMO_HOLES];
	unsigned int		nholes;
	struct memo_ent		*shape;
	/* learning: its words (copied before the parse) and the state */
	bool			learning;
	char			*words;
	size_t			wcap;
	uint32_t		woff[MEMO_WORDS];
	struct xl_token		tok[MEMO_WORDS];
	unsigned int		n;
	struct xl_memo_cap	cap;
	struct memo_state	st;		/* before the rule's parse */
	struct xlate_stats	stats;
	/* a second key, for a probe's words */
	unsigned char		pkey[MEMO_KEY + 8];
	struct memo_hole	pholes[MEMO_HOLES];
};

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

static uint32_t prefix_mask(unsigned int plen)
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
	mask = prefix_mask(plen);
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
 * The shape's key of the words @w[0..n) (@w[over] replaced by @otext
 * when @otext), its holes in @h: the key's length, 0 when the rule is
 * no candidate.
 */
static size_t memo_key(const struct xlate_ctx *ctx, const struct xl_table *t,
		       const struct xl_chain *c, const struct xl_token *tok,
		       unsigned int n, unsigned int over, const char *otext,
		       unsigned char *key, struct memo_hole *h,
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
	unsigned int i, pk = MO_NONE;
	const char *w;
	size_t len;

	if (n > MEMO_WORDS)
		return 0;
	key_put(&kw, ids, sizeof(ids));
	for (i = 0; i < n; i++, pk = opt_kind(w)) {
		w = i == over && otext ? otext : tok[i].text;
		if (i)
			key_put(&kw, "", 1);
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
		/* a literal, which must not read as a hole's mark */
		for (len = 0; w[len]; len++) {
			if ((unsigned char)w[len] < 3)
				return 0;
		}
		key_put(&kw, w, len);
	}
	*nh = kw.nh;
	return kw.full ? 0 : kw.len;
}

/* 8 bytes at a time, the last ones zero-extended. */
static uint32_t key_hash(const unsigned char *k, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15ull, w;
	size_t i;

	for (i = 0; i < n; i += 8) {
		w = 0;
		memcpy(&w, k + i, n - i >= 8 ? 8 : n - i);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (uint32_t)h;
}

static struct memo_ent *ent_find(struct xl_memo *m, const unsigned char *k,
				 size_t n, uint32_t hash)
{
	struct memo_ent *e;

	for (e = m->tab[hash % MEMO_BUCKETS]; e; e = e->next) {
		if (e->hash == hash && e->klen == n && !memcmp(e->key, k, n))
			return e;
	}
	return NULL;
}

static struct memo_ent *ent_add(struct xl_memo *m, const unsigned char *k,
				size_t n, uint32_t hash)
{
	struct memo_ent *e;

	if (m->nents >= MEMO_ENTS_MAX)
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = malloc(n);
	if (!e->key) {
		free(e);
		return NULL;
	}
	memcpy(e->key, k, n);
	e->klen = n;
	e->hash = hash;
	e->next = m->tab[hash % MEMO_BUCKETS];
	m->tab[hash % MEMO_BUCKETS] = e;
	m->nents++;
	return e;
}

/* The shape's key plus the values of its exact holes, in m->key. */
static bool key2(struct xl_memo *m, const struct xl_token *tok, uint32_t exact)
{
	size_t len = m->klen;
	unsigned int i;

	for (i = 0; i < m->nholes; i++) {
		const struct memo_hole *h = &m->holes[i];

		if (!(exact & (1u << i)))
			continue;
		if (len + 1 + h->len > MEMO_KEY)
			return false;
		m->key[len++] = 2;
		memcpy(m->key + len, tok[h->word].text + h->off, h->len);
		len += h->len;
	}
	m->k2len = len;
	return true;
}

/* ---------------------------------------------------------- formatting */

/* A slot's text for value @v of hole @h into @s (24 bytes): its length. */
static size_t slot_fmt(unsigned int fmt, const struct memo_hole *h,
		       uint32_t v, char *s)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t a[4];
	uint32_t x;
	int i;

	switch (fmt) {
	case MF_ADDR:
		x = v & prefix_mask(h->plen);
		a[0] = x >> 24;
		a[1] = x >> 16;
		a[2] = x >> 8;
		a[3] = x;
		return fmt_ip4(s, a) - s;
	case MF_HEX8:
		s[0] = '0';
		s[1] = 'x';
		for (i = 0; i < 8; i++)
			s[2 + i] = hex[(v >> (28 - 4 * i)) & 15];
		s[10] = '\0';
		return 10;
	default:
		return fmt_u64(s, v) - s;
	}
}

/* The value @v as the input writes it (a probe's word). */
static size_t input_fmt(const struct memo_hole *h, uint32_t v, char *s)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t a[4];
	char tmp[8];
	int n = 0;
	size_t k = 2;

	switch (h->kind) {
	case MK_ADDR:
		a[0] = v >> 24;
		a[1] = v >> 16;
		a[2] = v >> 8;
		a[3] = v;
		return fmt_ip4(s, a) - s;
	case MK_MARK:
		s[0] = '0';
		s[1] = 'x';
		do {
			tmp[n++] = hex[v & 15];
			v >>= 4;
		} while (v);
		while (n)
			s[k++] = tmp[--n];
		s[k] = '\0';
		return k;
	default:
		return fmt_u64(s, v) - s;
	}
}

static const uint8_t *hole_fmts(const struct memo_hole *h, unsigned int *n)
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

/* ----------------------------------------------------------------- hits */

static int memo_print(struct xlate_ctx *ctx, struct xl_table *t,
		      struct xl_chain *c, bool insert,
		      const struct memo_ent *e, const struct xl_memo *m,
		      const struct xl_token *tok)
{
	FILE *f = xl_out_memo_file(ctx, t, c, insert);
	char stack[512], *out = stack;
	uint32_t at = 0;
	unsigned int i;
	size_t n = 0;

	if (!f)
		return 1;
	if (e->tlen + e->nslots * 24 > sizeof(stack)) {
		out = malloc(e->tlen + e->nslots * 24);
		if (!out)
			return 1;
	}
	for (i = 0; i < e->nslots; i++) {
		const struct memo_slot *s = &e->slots[i];
		const struct memo_hole *h = &m->holes[s->hole];

		memcpy(out + n, e->text + at, s->off - at);
		n += s->off - at;
		if ((s->fmt == MF_DEC && h->kind != MK_MARK) ||
		    (s->fmt == MF_ADDR && !(h->v & ~prefix_mask(h->plen)))) {
			/* prints as the input wrote it */
			memcpy(out + n, tok[h->word].text + h->off, h->len);
			n += h->len;
		} else {
			n += slot_fmt(s->fmt, h, h->v, out + n);
		}
		at = s->off + s->len;
	}
	memcpy(out + n, e->text + at, e->tlen - at);
	n += e->tlen - at;
	fwrite(out, 1, n, f);
	if (out != stack)
		free(out);
	return 1;
}

static struct xl_memo *memo_get(struct xlate_ctx *ctx)
{
	if (!ctx->memo)
		ctx->memo = calloc(1, sizeof(*ctx->memo));
	return ctx->memo;
}

int xl_memo_try(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		struct xl_token *tok, unsigned int n, bool insert)
{
	struct xl_memo *m = memo_get(ctx);
	struct memo_ent *s, *e;
	uint32_t hash;
	unsigned int i;
	size_t len;
	char *w;

	if (!m)
		return 0;
	m->learning = false;
	m->rules++;
	m->klen = memo_key(ctx, t, c, tok, n, ~0u, NULL, m->key, m->holes,
			   &m->nholes);
	if (!m->klen)
		return 0;
	hash = key_hash(m->key, m->klen);
	s = ent_find(m, m->key, m->klen, hash);
	if (!s) {
		/* learned the second time it is seen */
		s = ent_add(m, m->key, m->klen, hash);
		if (s)
			s->seen = 1;
		return 0;
	}
	if (s->dead)
		return 0;
	e = s;
	if (s->learned && s->exact) {
		if (!key2(m, tok, s->exact))
			return 0;
		hash = key_hash(m->key, m->k2len);
		e = ent_find(m, m->key, m->k2len, hash);
		if (e && e->dead)
			return 0;
	}
	if (e && e->text) {
		m->hits++;
		return memo_print(ctx, t, c, insert, e, m, tok);
	}
	/* a miss: learn from it when allowed */
	if (++s->seen < 2 || m->nents >= MEMO_ENTS_MAX ||
	    m->probes > MEMO_PROBE0 + m->rules / 4)
		return 0;
	for (len = 0, i = 0; i < n; i++)
		len += strlen(tok[i].text) + 1;
	if (len > m->wcap) {
		w = realloc(m->words, len);
		if (!w)
			return 0;
		m->words = w;
		m->wcap = len;
	}
	for (len = 0, i = 0; i < n; i++) {
		size_t l = strlen(tok[i].text) + 1;

		memcpy(m->words + len, tok[i].text, l);
		m->woff[i] = len;
		m->tok[i] = tok[i];
		len += l;
	}
	for (i = 0; i < n; i++)
		m->tok[i].text = m->words + m->woff[i];
	m->n = n;
	m->shape = s;
	m->learning = true;
	return 0;
}

bool xl_memo_learning(const struct xlate_ctx *ctx)
{
	return ctx->memo && ctx->memo->learning;
}

/* -------------------------------------------------------------- learning */

static void state_take(const struct xlate_ctx *ctx, const struct xl_table *t,
		       struct memo_state *s)
{
	s->erq_tail = ctx->erq.records.prev;
	s->num_errors = ctx->erq.num_errors;
	s->sets_tail = ctx->sets.prev;
	s->hints_tail = ctx->recent_hints.prev;
	s->chains_tail = t->chains.prev;
	s->tables_tail = ctx->tables.prev;
	s->plain_tail = ctx->plain.prev;
	s->set_seq = ctx->set_seq;
	s->diags = xl_out_diag_count(ctx);
}

/* Nothing but the text: no diagnostic, declaration or note. */
static bool state_same(const struct xlate_ctx *ctx, const struct xl_table *t,
		       const struct memo_state *s)
{
	return s->erq_tail == ctx->erq.records.prev &&
	       s->num_errors == ctx->erq.num_errors &&
	       s->sets_tail == ctx->sets.prev &&
	       s->hints_tail == ctx->recent_hints.prev &&
	       s->chains_tail == t->chains.prev &&
	       s->tables_tail == ctx->tables.prev &&
	       s->plain_tail == ctx->plain.prev &&
	       s->set_seq == ctx->set_seq &&
	       s->diags == xl_out_diag_count(ctx);
}

/* Diagnostics a probe queued, dropped; false if it did more. */
static bool state_undo(struct xlate_ctx *ctx, const struct xl_table *t,
		       const struct memo_state *s)
{
	struct erec_queue q;

	erec_queue_init(&q, ~0u);
	while (ctx->erq.records.prev != s->erq_tail) {
		struct list_head *p = ctx->erq.records.prev;

		list_del(p);
		list_add(p, &q.records);
	}
	erec_queue_free(&q);
	ctx->erq.num_errors = s->num_errors;
	return state_same(ctx, t, s);
}

struct xl_memo_cap *xl_memo_begin(struct xlate_ctx *ctx, struct xl_table *t)
{
	struct xl_memo *m = ctx->memo;

	if (!m || !m->learning)
		return NULL;
	if (!m->cap.f) {
		m->cap.f = open_memstream(&m->cap.buf, &m->cap.len);
		if (!m->cap.f) {
			m->learning = false;
			return NULL;
		}
	}
	rewind(m->cap.f);
	m->cap.done = false;
	state_take(ctx, t, &m->st);
	m->stats = ctx->stats;
	return &m->cap;
}

/* The text of @tok[0..n) translated without a trace into @f; 0 if it was
 * all clean. -1 if not; -2 if it left something it cannot take back. */
static int dry_run(struct xlate_ctx *ctx, struct xl_table *t,
		   struct xl_chain *c, struct xl_token *tok, unsigned int n,
		   const struct location *loc, FILE *f)
{
	struct handle h = { .family = ctx->family };
	struct xl_rule r = { .ctx = ctx, .table = t, .chain = c };
	enum xl_err_kind kind = ctx->err_kind;
	struct memo_state s;
	int ret;

	state_take(ctx, t, &s);
	h.table.name = (char *)t->layout->name;
	h.chain.name = c->name;
	r.rule = rule_alloc(loc, &h);
	r.loc = *loc;
	r.memo_want = true;
	ctx->memo->probes++;
	ret = xl_parse_rule(&r, tok, n);
	free(r.comment);
	if (ret == 0 && r.memo_ok && !r.inexact) {
		ret = xl_out_probe(ctx, t, c, r.rule, f);
	} else {
		rule_free(r.rule);
		ret = -1;
	}
	ctx->err_kind = kind;
	if (!state_undo(ctx, t, &s))
		return -2;
	return ret;
}

/* The probe's text (NUL-terminated, in m->cap after @base), or NULL. */
static const char *probe_text(struct xlate_ctx *ctx, struct xl_table *t,
			      struct xl_chain *c, const struct location *loc,
			      struct xl_token *tok, size_t *len, bool *broken)
{
	struct xl_memo *m = ctx->memo;
	int ret;

	rewind(m->cap.f);
	ret = dry_run(ctx, t, c, tok, m->n, loc, m->cap.f);
	if (ret == -2)
		*broken = true;
	if (ret < 0 || fflush(m->cap.f))
		return NULL;
	*len = m->cap.len;
	return m->cap.buf;
}

/*
 * The words with the values @pv of the holes in @which, the words
 * changed rebuilt in @buf; false when the key changes (another class).
 */
static bool probe_words(struct xlate_ctx *ctx, struct xl_table *t,
			struct xl_chain *c, const struct memo_hole *hs,
			const uint32_t *pv, uint32_t which,
			struct xl_token *ptok, char *buf, size_t cap)
{
	struct xl_memo *m = ctx->memo;
	unsigned int i, k, nh;
	size_t at = 0, len, plen;
	char v[24], *w;

	memcpy(ptok, m->tok, m->n * sizeof(*ptok));
	if (!which)
		return false;
	for (i = 0; i < m->n; i++) {
		for (k = 0; k < m->nholes; k++) {
			if (which & (1u << k) && hs[k].word == i)
				break;
		}
		if (k == m->nholes)
			continue;
		/* word @i rebuilt, its holes' values replaced from the end */
		w = buf + at;
		len = strlen(m->tok[i].text);
		if (at + len + 1 > cap)
			return false;
		memcpy(w, m->tok[i].text, len + 1);
		for (k = m->nholes; k-- > 0; ) {
			if (!(which & (1u << k)) || hs[k].word != i)
				continue;
			plen = input_fmt(&hs[k], pv[k], v);
			if (at + len - hs[k].len + plen + 1 > cap)
				return false;
			memmove(w + hs[k].off + plen, w + hs[k].off + hs[k].len,
				len - hs[k].off - hs[k].len + 1);
			memcpy(w + hs[k].off, v, plen);
			len = len - hs[k].len + plen;
		}
		ptok[i].text = w;
		at += len + 1;
	}
	return memo_key(ctx, t, c, ptok, m->n, ~0u, NULL, m->pkey, m->pholes,
			&nh) == m->klen && nh == m->nholes &&
	       !memcmp(m->pkey, m->key, m->klen);
}

/*
 * Candidate values of hole @h's class, alternately near (the lowest
 * bits, the last digit) and far (the highest bits, the first digit).
 */
static unsigned int probe_values(const struct memo_hole *h, uint32_t *out)
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

/*
 * Hole @i proven a slot of @text: two probes, each differing from
 * @text only where formatter @fmt put the value. Its place in @slot.
 */
static bool hole_prove(struct xlate_ctx *ctx, struct xl_table *t,
		       struct xl_chain *c, const struct location *loc,
		       unsigned int i, const char *text, size_t tlen,
		       struct memo_slot *slot, uint32_t *pv1, uint32_t *pv2,
		       bool *broken)
{
	struct xl_memo *m = ctx->memo;
	const struct memo_hole *h = &m->holes[i];
	struct xl_token ptok[MEMO_WORDS];
	uint32_t cand[16], pv[MEMO_HOLES];
	unsigned int nc, f, nf, k, got = 0;
	const uint8_t *fmts = hole_fmts(h, &nf);
	char s0[24], sp[24], buf[512];
	size_t l0, lp, plen;
	const char *pt, *at;
	long where = -1;

	nc = probe_values(h, cand);
	for (f = 0; f < nf; f++) {
		l0 = slot_fmt(fmts[f], h, h->v, s0);
		got = 0;
		where = -1;
		for (k = 0; k < nc && got < 2; k++) {
			long found = -1;

			pv[i] = cand[k];
			if (cand[k] == h->v ||
			    !probe_words(ctx, t, c, m->holes, pv, 1u << i,
					 ptok, buf, sizeof(buf)))
				continue;
			lp = slot_fmt(fmts[f], h, cand[k], sp);
			if (lp == l0 && !memcmp(sp, s0, l0))
				continue;	/* prints the same */
			pt = probe_text(ctx, t, c, loc, ptok, &plen, broken);
			if (!pt || plen != tlen - l0 + lp)
				break;
			/* the one place the value's text can be */
			for (at = text; (at = memmem(at, tlen - (at - text),
						    s0, l0)); at++) {
				size_t off = at - text;

				if (!memcmp(pt, text, off) &&
				    !memcmp(pt + off, sp, lp) &&
				    !memcmp(pt + off + lp, text + off + l0,
					    tlen - off - l0)) {
					if (found >= 0) {
						found = -2;	/* ambiguous */
						break;
					}
					found = off;
				}
			}
			if (found < 0 || (where >= 0 && found != where))
				break;
			where = found;
			*(got ? pv2 : pv1) = cand[k];
			got++;
		}
		if (got == 2)
			break;
	}
	if (got < 2)
		return false;
	slot->off = where;
	slot->len = l0;
	slot->hole = i;
	slot->fmt = fmts[f];
	return true;
}

static int slot_cmp(const void *a, const void *b)
{
	const struct memo_slot *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* All slots changed at once: the text as the template predicts it. */
static bool slots_together(struct xlate_ctx *ctx, struct xl_table *t,
			   struct xl_chain *c, const struct location *loc,
			   const char *text, size_t tlen,
			   const struct memo_slot *slots, unsigned int ns,
			   const uint32_t *pv1, const uint32_t *pv2,
			   bool *broken)
{
	struct xl_memo *m = ctx->memo;
	struct xl_token ptok[MEMO_WORDS];
	const uint32_t *pv = pv1;
	char buf[2048], *want;
	uint32_t which = 0;
	size_t at, wl, plen;
	const char *pt;
	unsigned int j;
	bool ok;

	for (j = 0; j < ns; j++)
		which |= 1u << slots[j].hole;
	if (ns < 2)
		return true;	/* hole_prove() did it */
	/* the first probes of each, else the second (distinct ports) */
	if (!probe_words(ctx, t, c, m->holes, pv, which, ptok, buf,
			 sizeof(buf))) {
		pv = pv2;
		if (!probe_words(ctx, t, c, m->holes, pv, which, ptok, buf,
				 sizeof(buf)))
			return false;
	}
	want = malloc(tlen + ns * 24 + 1);
	if (!want)
		return false;
	for (at = 0, wl = 0, j = 0; j < ns; j++) {
		const struct memo_slot *s = &slots[j];

		memcpy(want + wl, text + at, s->off - at);
		wl += s->off - at;
		wl += slot_fmt(s->fmt, &m->holes[s->hole], pv[s->hole],
			       want + wl);
		at = s->off + s->len;
	}
	memcpy(want + wl, text + at, tlen - at);
	wl += tlen - at;
	pt = probe_text(ctx, t, c, loc, ptok, &plen, broken);
	ok = pt && plen == wl && !memcmp(pt, want, wl);
	free(want);
	return ok;
}

static void ent_fail(struct memo_ent *s)
{
	if (++s->fails >= 8 && !s->learned)
		s->dead = true;
}

void xl_memo_end(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		 const struct location *loc, bool ok)
{
	struct xl_memo *m = ctx->memo;
	struct memo_ent *s = m ? m->shape : NULL, *e;
	struct memo_slot slots[MEMO_HOLES];
	uint32_t exact = 0, pv[MEMO_HOLES], pv2[MEMO_HOLES];
	unsigned int i, ns = 0;
	bool broken = false;
	char *text = NULL;
	size_t tlen;

	if (!m || !m->learning)
		return;
	m->learning = false;
	if (!ok || !m->cap.done || !state_same(ctx, t, &m->st) ||
	    ctx->stats.translated != m->stats.translated + 1 ||
	    ctx->stats.inexact != m->stats.inexact ||
	    ctx->stats.failed != m->stats.failed) {
		ent_fail(s);
		return;
	}
	tlen = m->cap.len;
	text = malloc(tlen + 1);
	if (!text)
		return;
	memcpy(text, m->cap.buf, tlen);
	text[tlen] = '\0';
	for (i = 0; i < m->nholes; i++) {
		pv[i] = pv2[i] = m->holes[i].v;
		if (s->learned && (s->exact & (1u << i)))
			continue;
		if (hole_prove(ctx, t, c, loc, i, text, tlen, &slots[ns],
			       &pv[i], &pv2[i], &broken))
			ns++;
		else
			exact |= 1u << i;
		if (broken)
			break;
	}
	if (broken) {
		/* a probe did what cannot be taken back: no more memo */
		ctx->flags &= ~XLATE_F_MEMO;
		free(text);
		return;
	}
	qsort(slots, ns, sizeof(slots[0]), slot_cmp);
	for (i = 1; i < ns; i++) {
		if (slots[i].off < slots[i - 1].off + slots[i - 1].len)
			break;
	}
	if (i < ns || !slots_together(ctx, t, c, loc, text, tlen, slots, ns,
				      pv, pv2, &broken) || broken) {
		if (broken)
			ctx->flags &= ~XLATE_F_MEMO;
		free(text);
		ent_fail(s);
		return;
	}
	if (!s->learned) {
		s->learned = true;
		s->exact = exact;
	} else if (exact) {
		/* this key's values make another hole exact: not here */
		exact = 0;
		ns = 0;
		free(text);
		text = NULL;
	}
	e = s;
	if (s->exact) {
		uint32_t hash;

		if (!key2(m, m->tok, s->exact)) {
			free(text);
			return;
		}
		hash = key_hash(m->key, m->k2len);
		e = ent_find(m, m->key, m->k2len, hash);
		if (!e)
			e = ent_add(m, m->key, m->k2len, hash);
		if (!e) {
			free(text);
			return;
		}
		if (!text)
			e->dead = true;
	}
	if (!text || e->text) {
		free(text);
		return;
	}
	e->slots = ns ? malloc(ns * sizeof(*slots)) : NULL;
	if (ns && !e->slots) {
		free(text);
		return;
	}
	memcpy(e->slots, slots, ns * sizeof(*slots));
	e->nslots = ns;
	e->text = text;
	e->tlen = tlen;
	m->tmpls++;
}

void xlate_memo_stats(const struct xlate_ctx *ctx, unsigned long *hits,
		      unsigned long *templates, unsigned long *probes)
{
	const struct xl_memo *m = ctx->memo;

	*hits = m ? m->hits : 0;
	*templates = m ? m->tmpls : 0;
	*probes = m ? m->probes : 0;
}

void xl_memo_free(struct xlate_ctx *ctx)
{
	struct xl_memo *m = ctx->memo;
	struct memo_ent *e, *n;
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < MEMO_BUCKETS; i++) {
		for (e = m->tab[i]; e; e = n) {
			n = e->next;
			free(e->key);
			free(e->text);
			free(e->slots);
			free(e);
		}
	}
	if (m->cap.f)
		fclose(m->cap.f);
	free(m->cap.buf);
	free(m->words);
	free(m);
	ctx->memo = NULL;
}
