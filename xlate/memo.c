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
 *   chain it is in but the name in -c's lead, printed apart), the
 *   table's last chain (chains are only added; "-j LOG" means a chain
 *   once there is one of that name) and every word byte for byte, but
 *   for holes: addresses after -s/-d, ports, multiport lists, marks and
 *   the numbers in comments and log prefixes, each only within a class
 *   of values that part of the key keeps (memo_key.c). Anything else,
 *   and any value outside its class, is part of the key as it is;
 * - a template is made from a rule that went the whole way and did
 *   nothing but print its text: no diagnostic (parse or evaluator), no
 *   approximation, no set, chain or table declared, only extensions
 *   rule.c lists as doing nothing else (recent, hashlimit, connlimit,
 *   set, ... never);
 * - a hole becomes a slot of the text only when proven: the rule is
 *   translated again (nothing kept) with another value of the same
 *   class (one near: low bits, last digit), and the text differs from
 *   the template's exactly in one place, the one where the slot's own
 *   formatter (decimal, dotted quad of the masked address, 0x%08x) put
 *   the value and now puts the probe's; then once more with every slot
 *   changed at once to a far value (high bits, first digit), the text
 *   exactly what the template predicts.
 *   A hole that fails is exact-matched from then on (its value goes
 *   into a second key);
 * - a shape is learned the third time it is seen (real-world files have
 *   many shapes seen twice, whose learning would cost more than it
 *   saves); a bounded number of probes (32 + an eighth of the rules)
 *   and of entries.
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
#include "memo_int.h"

#define MEMO_BUCKETS	4096
#define MEMO_ENTS_MAX	16384
#define MEMO_PROBE0	32	/* probes always allowed, then 1 per 8 rules */
#define MEMO_SEEN	3	/* a shape is learned when seen this often */

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
		    (s->fmt == MF_ADDR && !(h->v & ~xl_memo_prefix_mask(h->plen)))) {
			/* prints as the input wrote it */
			memcpy(out + n, tok[h->word].text + h->off, h->len);
			n += h->len;
		} else {
			n += xl_memo_slot_fmt(s->fmt, h, h->v, out + n);
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
	m->klen = xl_memo_key(ctx, t, c, tok, n, m->key, m->holes,
			      &m->nholes);
	if (!m->klen)
		return 0;
	hash = xl_memo_hash(m->key, m->klen);
	s = ent_find(m, m->key, m->klen, hash);
	if (!s) {
		/* learned the MEMO_SEEN-th time it is seen */
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
		hash = xl_memo_hash(m->key, m->k2len);
		e = ent_find(m, m->key, m->k2len, hash);
		if (e && e->dead)
			return 0;
	}
	if (e && e->text) {
		m->hits++;
		return memo_print(ctx, t, c, insert, e, m, tok);
	}
	/* a miss: learn from it when allowed */
	if (++s->seen < MEMO_SEEN || m->nents >= MEMO_ENTS_MAX ||
	    m->probes > MEMO_PROBE0 + m->rules / 8)
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
			plen = xl_memo_input_fmt(&hs[k], pv[k], v);
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
	return xl_memo_key(ctx, t, c, ptok, m->n, m->pkey, m->pholes,
			   &nh) == m->klen && nh == m->nholes &&
	       !memcmp(m->pkey, m->key, m->klen);
}

/*
 * Hole @i proven a slot of @text: a probe (*@pv1) whose text differs
 * from @text only where formatter @fmt put the value, at one place,
 * @slot. *@pv2 is another value of the class, far from the first, for
 * slots_together().
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
	const uint8_t *fmts = xl_memo_hole_fmts(h, &nf);
	char s0[24], sp[24], buf[512];
	size_t l0, lp, plen;
	const char *pt, *at;
	long where = -1;

	nc = xl_memo_probe_values(h, cand);
	for (f = 0; f < nf; f++) {
		l0 = xl_memo_slot_fmt(fmts[f], h, h->v, s0);
		got = 0;
		where = -1;
		for (k = 0; k < nc && got < 2; k++) {
			long found = -1;

			pv[i] = cand[k];
			if (cand[k] == h->v ||
			    !probe_words(ctx, t, c, m->holes, pv, 1u << i,
					 ptok, buf, sizeof(buf)))
				continue;
			lp = xl_memo_slot_fmt(fmts[f], h, cand[k], sp);
			if (lp == l0 && !memcmp(sp, s0, l0))
				continue;	/* prints the same */
			if (got) {
				/* the far one: slots_together() probes it */
				*pv2 = cand[k];
				got++;
				break;
			}
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
			*pv1 = cand[k];
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

/*
 * All slots changed at once: the text as the template predicts it (each
 * hole's second probe value, hole_prove() having checked its first).
 */
static bool slots_together(struct xlate_ctx *ctx, struct xl_table *t,
			   struct xl_chain *c, const struct location *loc,
			   const char *text, size_t tlen,
			   const struct memo_slot *slots, unsigned int ns,
			   const uint32_t *pv1, const uint32_t *pv2,
			   bool *broken)
{
	struct xl_memo *m = ctx->memo;
	struct xl_token ptok[MEMO_WORDS];
	const uint32_t *pv = pv2;
	char buf[2048], *want;
	uint32_t which = 0;
	size_t at, wl, plen;
	const char *pt;
	unsigned int j;
	bool ok;

	for (j = 0; j < ns; j++)
		which |= 1u << slots[j].hole;
	if (!ns)
		return true;
	/*
	 * The second (far) values of each, else, when the key changes
	 * (ports of a list equal), the first ones together.
	 */
	if (!probe_words(ctx, t, c, m->holes, pv, which, ptok, buf,
			 sizeof(buf))) {
		pv = pv1;
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
		wl += xl_memo_slot_fmt(s->fmt, &m->holes[s->hole],
				       pv[s->hole], want + wl);
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
		hash = xl_memo_hash(m->key, m->k2len);
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
