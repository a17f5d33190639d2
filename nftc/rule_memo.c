// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rule memo: compiled rule templates, the load-side twin of the listing
 * templates (list_tmpl.c).
 *
 * Big files repeat a few rule shapes with other addresses and ports.
 * Each line of a chain body is first read here as tokens (the parser
 * has just taken the separator before it: the grammar arms the memo).
 * The line's key is its tokens, every keyword by identity and every
 * word by its text, except literals (numbers, dotted quads, IPv6-like
 * words) that no operator but == or != touches, the address of a
 * whole-byte prefix ("A/24", the length exact) and the bounds of a
 * range ("A-B"): those are holes, keyed by their class only. A key seen
 * before with a template leads to:
 *  - a hit: the template's message copied, each hole's bytes written by
 *    converting its text exactly as the evaluator does (the same
 *    function, expr_evaluate_symbol(), with the context it had, range
 *    checks included) and laid out as the linearizer does; any failure
 *    and the line goes to the parser;
 *  - otherwise the tokens go to the parser, which compiles the rule the
 *    full way (pipeline_rule()) while the evaluator and the linearizer
 *    note what they do with the hole tokens (recording).
 *
 * What makes a hit exact:
 * - the same tokens in the same chain body since the last thing that
 *   was not a rule (the memo is cleared then): the same parse, the
 *   same context;
 * - a hole is one only if its token was converted once, as a constant
 *   of an integer, address, port or mark type (never a protocol, which
 *   would set the protocol context), that conversion is repeated here
 *   with the same bytes, and those bytes (for a prefix their leading
 *   length / 8 bytes, a compare's whole data: lin_prefix() compares
 *   nothing else) are found exactly once among the message's compare
 *   data; every other literal of the rule is an exact part of the
 *   template (its text must be equal);
 * - the rate N and burst B of "limit rate [over|until] N/UNIT [burst B
 *   packets]" are holes converted by the parser's and the evaluator's
 *   code (parse_u64(), limit_pkts(), stmt_evaluate()), their bytes the
 *   NFTA_LIMIT_RATE / NFTA_LIMIT_BURST payload of the message's only
 *   limit expression; units, "over", byte rates stay exact;
 * - a range's bounds are holes both or neither, and on a hit they must
 *   pass the evaluator's own order check (eval_range_ordered());
 * - a template is on probation until a rule of its key with other hole
 *   values compiled the full way gives the message the template would
 *   give; a hole never seen with another value is made exact; one
 *   mismatch and the template is dead;
 * - anonymous sets "{ A, B, ... }" of one-token elements (lex_set()):
 *   the template holds the rule's messages (rule_memo_set.c), each
 *   element a hole of its set (its bytes found in the set's NEWSETELEM
 *   at the element's index: the full path writes them as written,
 *   duplicates kept, and the count is the key's), the set ids patched
 *   from the evaluator's next_set_id and taken on a hit; each message
 *   has the source the full path gives it (checked when recording).
 * Diagnostics only come from the full path: a file with any goes the
 * whole-file way (pipeline.c), which does not use the memo.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include "rule_memo_int.h"
#include "env.h"
#include "pipeline.h"
#include "evaluate.h"
#include "lin_int.h"
#include "linearize.h"

/* ------------------------------------------------------------ set up */

static void tokinfo_init(uint8_t *ti);

struct rule_memo *rule_memo_new(struct nftc_ctx *nft, struct pipeline *p)
{
	struct rule_memo *m;

	if (env_off(RULE_MEMO_ENV))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->nft = nft;
	m->p = p;
	m->ectx.nft = nft;
	tokinfo_init(m->tokinfo);
	return m;
}

void memo_tmpl_free(struct memo_tmpl *t)
{
	unsigned int i;

	for (i = 0; i < MEMO_HOLES; i++)
		free(t->text[i]);
	free(t->msg);
	free(t);
}

void memo_pend_reset(struct rule_memo *m)
{
	unsigned int i;

	for (i = 0; i < m->pend_nhole; i++) {
		free(m->pend_text[i]);
		m->pend_text[i] = NULL;
	}
	m->pend_nhole = 0;
	m->pend_key = NULL;
	m->pend_tmpl = NULL;
}

void rule_memo_clear(struct rule_memo *m)
{
	struct memo_key *k, *n;
	struct memo_tmpl *t, *tn;
	unsigned int i;

	if (!m)
		return;
	m->arm = NULL;
	memo_pend_reset(m);
	for (i = 0; i < MEMO_BUCKETS && m->nkeys; i++) {
		for (k = m->bucket[i]; k; k = n) {
			n = k->next;
			for (t = k->tmpls; t; t = tn) {
				tn = t->next;
				memo_tmpl_free(t);
			}
			free(k);
		}
		m->bucket[i] = NULL;
	}
	m->nkeys = 0;
}

static bool tok_has_text(int tok)
{
	return tok == STRING || tok == NUM || tok == QUOTED_STRING ||
	       tok == VARIABLE;
}

static bool tok_ends_line(int tok)
{
	return tok == NEWLINE || tok == SEMICOLON;
}

/* Tokens after which the line is left to the parser as it is. */
static bool tok_stops_line(int tok)
{
	return tok <= 0 || tok == '{' || tok == '}' || tok == '@' ||
	       tok == '$' || tok == VARIABLE || tok == JUNK ||
	       tok >= TOKINFO_MAX;
}

/* Tokens next to which a literal is not a plain value. */
static bool tok_plain_neighbour(int tok)
{
	switch (tok) {
	case '/': case '-': case ':': case '.': case ',': case '&':
	case '|': case '^': case '*': case '+': case '[': case ']':
	case '(': case ')': case '<': case '>': case '=': case '!':
	case LSHIFT: case RSHIFT: case LT: case GT: case LTE: case GTE:
	case COMMA:
		return false;
	default:
		return true;
	}
}

static void tokinfo_init(uint8_t *ti)
{
	int tok;

	for (tok = 0; tok < TOKINFO_MAX; tok++)
		ti[tok] = (tok_has_text(tok) ? TI_TEXT : 0) |
			  (tok_ends_line(tok) ? TI_END : 0) |
			  (tok_stops_line(tok) ? TI_STOP : 0) |
			  (tok_plain_neighbour(tok) ? 0 : TI_NOTPLAIN);
}

/* The token's info; numbers past the table stop a line. */
static inline unsigned int ti(const struct rule_memo *m, int tok)
{
	return (unsigned int)tok < TOKINFO_MAX ? m->tokinfo[tok] : TI_STOP;
}

static bool in_arena(const struct rule_memo *m, const char *s)
{
	return s >= m->arena && s < m->arena + MEMO_ARENA;
}

static void tok_free(const struct rule_memo *m, struct memo_tok *t)
{
	if ((ti(m, t->tok) & TI_TEXT) && !in_arena(m, t->val.string))
		free(t->val.string);
}

void rule_memo_free(struct rule_memo *m)
{
	unsigned int i;

	if (!m)
		return;
	rule_memo_clear(m);
	/* tokens read but never given to the parser */
	for (i = m->rpos; m->replaying && i < m->ntok; i++)
		tok_free(m, &m->tok[i]);
	free(m);
}

void rule_memo_attach(struct rule_memo *m, struct parser_state *state)
{
	if (m)
		m->state = state;
}

void rule_memo_arm(struct rule_memo *m, struct chain *chain)
{
	if (!m)
		return;
	m->arm = NULL;
	/*
	 * Only if the parser asked for nothing past the separator (or the
	 * chain's '{'): the next token it asks for starts a line.
	 */
	if (m->state && !m->replaying && m->state->memo_last_tok != 0 &&
	    chain)
		m->arm = chain;
}

/* ------------------------------------------------------------ tokens */


static enum hole_class text_class(int tok, const char *s)
{
	unsigned int dots = 0, colons = 0, digits = 0;
	const char *p;

	if (tok == NUM)
		return HC_NUM;
	if (tok != STRING)
		return HC_NONE;
	for (p = s; *p; p++) {
		if (*p == '.')
			dots++;
		else if (*p == ':')
			colons++;
		else if (*p >= '0' && *p <= '9')
			digits++;
		else if (!((*p >= 'a' && *p <= 'f') ||
			   (*p >= 'A' && *p <= 'F')))
			return HC_NONE;
	}
	if (!colons && dots == 3 && digits == (unsigned int)(p - s) - 3)
		return HC_IP4;
	if (colons >= 2)
		return HC_IP6;
	return HC_NONE;
}

/*
 * An address followed by "/N" (@i: the '/') with N whole bytes, no more
 * than 128 bits, written in decimal without leading zeros, and a plain
 * neighbour after: N, else 0. The linearizer compares the leading N / 8
 * bytes of the address as converted, nothing else of it (lin_prefix()).
 */
static unsigned int prefix_len(const struct rule_memo *m, unsigned int i,
			       unsigned int n)
{
	const char *q;
	unsigned int v = 0;

	if (i + 1 >= n || m->tok[i].tok != '/' || m->tok[i + 1].tok != NUM ||
	    (i + 2 < n && (ti(m, m->tok[i + 2].tok) & TI_NOTPLAIN)))
		return 0;
	q = m->tok[i + 1].val.string;
	if (!q || q[0] < '1' || q[0] > '9' || strlen(q) > 3)
		return 0;
	for (; *q; q++) {
		if (*q < '0' || *q > '9')
			return 0;
		v = v * 10 + (*q - '0');
	}
	return v <= 128 && v % 8 == 0 ? v : 0;
}

/*
 * Key words: a keyword is its name's (static) address, other tokens
 * without text their number, a hole its class and token, an exact text
 * its length and token, then its bytes. The tags keep them apart.
 */
#define KEY_HOLE	(1ull << 48)
#define KEY_TEXT	(2ull << 48)
#define KEY_RANGE	(4ull << 48)
#define KEY_LIMIT	(8ull << 48)
#define KEY_ELEM	(16ull << 48)
#define KEY_NAMES	(32ull << 48)

/*
 * Token @i is N of "limit rate [over|until] N / UNIT" (the packet form,
 * limit_pkts()): the rate is a hole, the unit and the rest exact.
 */
static bool is_limit_rate(const struct rule_memo *m, unsigned int i,
			  unsigned int n)
{
	unsigned int r = i;

	if (m->tok[i].tok != NUM || i + 2 >= n || m->tok[i + 1].tok != '/' ||
	    (m->tok[i + 2].tok != STRING && m->tok[i + 2].tok != META_UKEY) ||
	    i < 2)
		return false;
	if (m->tok[r - 1].tok == OVER || m->tok[r - 1].tok == UNTIL)
		r--;
	return r >= 2 && m->tok[r - 1].tok == RATE &&
	       m->tok[r - 2].tok == LIMIT;
}

/*
 * HK_LIMIT_RATE if number token @i is N above, HK_LIMIT_BURST if it is
 * B of "limit rate [over|until] N / UNIT burst B packets", else 0.
 */
static unsigned int limit_kind(const struct rule_memo *m, unsigned int i,
			       unsigned int n)
{
	int next = i + 1 < n ? m->tok[i + 1].tok : 0;

	if (next == '/')
		return is_limit_rate(m, i, n) ? HK_LIMIT_RATE : 0;
	if (next == PACKETS && i >= 5 && m->tok[i - 1].tok == BURST &&
	    is_limit_rate(m, i - 4, n))
		return HK_LIMIT_BURST;
	return 0;
}

/* Tokens @i, @i + 2 are "A-B" of literals of class @c, plain around. */
static bool is_range(const struct rule_memo *m, unsigned int i,
		     unsigned int n, enum hole_class c)
{
	const struct memo_tok *b = &m->tok[i + 2];

	return i + 2 < n && m->tok[i + 1].tok == '-' &&
	       b->tok == m->tok[i].tok && b->val.string &&
	       text_class(b->tok, b->val.string) == c &&
	       (i + 3 == n || !(ti(m, m->tok[i + 3].tok) & TI_NOTPLAIN));
}

static void key_word(struct rule_memo *m, uint64_t w)
{
	if (m->keylen < MEMO_KEY_WORDS) {
		m->keybuf[m->keylen++] = w;
		m->hash = (m->hash ^ w) * 0xff51afd7ed558ccdull;
		m->hash ^= m->hash >> 32;
	} else {
		m->keylen = MEMO_KEY_WORDS + 1;
	}
}

static void hole_add(struct rule_memo *m, unsigned int i, unsigned int plen,
		     unsigned int range, unsigned int kind)
{
	m->hole_plen[m->nhole] = plen;
	m->hole_range[m->nhole] = range;
	m->hole_kind[m->nhole] = kind;
	m->hole_set[m->nhole] = 0;
	m->hole_elem[m->nhole] = 0;
	m->hole_tok[m->nhole++] = i;
}

/*
 * Text token @i of class @c, in brace group @g if it is inside it (its
 * element *@elem): a hole (added) and its key word, or 0 if it is exact.
 * *@range_hi: the high bound of a range whose low bound was a hole.
 */
static uint64_t tok_hole(struct rule_memo *m, unsigned int i, unsigned int n,
			 enum hole_class c, unsigned int g, unsigned int *elem,
			 unsigned int *range_hi)
{
	uint64_t tok = (uint32_t)m->tok[i].tok;
	unsigned int plen = 0, kind;

	if (i > m->set_tok[g]) {	/* set_tok[nset]: UINT_MAX */
		/* an element of set g: a hole but for its neighbours */
		if (c == HC_NONE || m->nhole == MEMO_HOLES ||
		    *elem > UINT8_MAX) {
			++*elem;
			return 0;
		}
		hole_add(m, i, 0, 0, HK_CONST);
		m->hole_set[m->nhole - 1] = g + 1;
		m->hole_elem[m->nhole - 1] = (*elem)++;
		return KEY_HOLE | KEY_ELEM | (uint64_t)c << 32 | tok;
	}
	if (c == HC_NUM && m->nhole < MEMO_HOLES &&
	    (kind = limit_kind(m, i, n))) {
		hole_add(m, i, 0, 0, kind);
		return KEY_HOLE | KEY_LIMIT | tok;
	}
	if (i == *range_hi) {
		hole_add(m, i, 0, RANGE_HI, HK_CONST);
		return KEY_HOLE | KEY_RANGE | (uint64_t)c << 32 | tok;
	}
	if (c == HC_NONE ||
	    (i && (ti(m, m->tok[i - 1].tok) & TI_NOTPLAIN)))
		return 0;
	if (m->nhole + 1 < MEMO_HOLES && is_range(m, i, n, c)) {
		*range_hi = i + 2;
		hole_add(m, i, 0, RANGE_LO, HK_CONST);
		return KEY_HOLE | KEY_RANGE | (uint64_t)c << 32 | tok;
	}
	if (m->nhole < MEMO_HOLES &&
	    (i + 1 == n || !(ti(m, m->tok[i + 1].tok) & TI_NOTPLAIN) ||
	     (plen = prefix_len(m, i + 1, n)))) {
		hole_add(m, i, plen, 0, HK_CONST);
		return KEY_HOLE | (uint64_t)plen << 40 | (uint64_t)c << 32 |
		       tok;
	}
	return 0;
}

/*
 * The lengths of the names the line's sets would take (anon_names.h):
 * a template's names are patched in place, so lines that would take
 * names of other lengths ("__set9" and "__set10") need another. The
 * names stay in m->nameval for the patches (memo_names_patch()).
 */
static uint64_t names_word(struct rule_memo *m)
{
	uint64_t w = KEY_NAMES;
	unsigned int k;
	int len;

	for (k = 0; k < m->nset; k++) {
		len = pipeline_memo_set_name(m->p, k, m->nameval[k],
					     MEMO_NAME_MAX);
		if (len < 0)
			break;
		w |= (uint64_t)len << (8 * k);
	}
	m->nnameval = k;
	return w;
}

/* The key of the line's tokens (separator excluded); false if none. */
static bool line_key(struct rule_memo *m)
{
	unsigned int i, n = m->ntok - 1;
	const struct memo_tok *t;
	unsigned int range_hi = 0, g = 0, elem = 0;	/* brace group g */
	enum hole_class c;
	const char *q;
	uint64_t w;
	size_t len;

	m->keylen = 0;
	m->nhole = 0;
	m->nnameval = 0;
	m->hash = 0x9e3779b97f4a7c15ull;
	for (i = 0; i < n; i++) {
		t = &m->tok[i];
		if (!(ti(m, t->tok) & TI_TEXT)) {
			if (i == m->set_end[g]) {
				g++;
				elem = 0;
			}
			key_word(m, t->val.kw ? (uint64_t)(uintptr_t)t->val.kw :
				 (uint64_t)(uint32_t)t->tok);
			continue;
		}
		q = t->val.string;
		if (!q)
			return false;
		c = text_class(t->tok, q);
		w = tok_hole(m, i, n, c, g, &elem, &range_hi);
		if (w) {
			key_word(m, w);
			continue;
		}
		len = strlen(q);
		if (len > MEMO_KEY_WORDS * 8)
			return false;
		key_word(m, KEY_TEXT | (uint64_t)len << 32 | (uint32_t)t->tok);
		for (; len >= 8; len -= 8, q += 8) {
			memcpy(&w, q, 8);
			key_word(m, w);
		}
		if (len) {
			w = 0;
			memcpy(&w, q, len);
			key_word(m, w);
		}
	}
	if (m->nset)
		key_word(m, names_word(m));
	return m->keylen <= MEMO_KEY_WORDS;
}

static struct memo_key *key_find(struct rule_memo *m, uint64_t h)
{
	struct memo_key *k;

	for (k = m->bucket[h % MEMO_BUCKETS]; k; k = k->next)
		if (k->hash == h && k->len == m->keylen &&
		    !memcmp(k->key, m->keybuf, m->keylen * 8))
			return k;
	return NULL;
}

static struct memo_key *key_add(struct rule_memo *m, uint64_t h)
{
	struct memo_key *k = calloc(1, sizeof(*k) + m->keylen * 8);

	if (!k)
		return NULL;
	k->hash = h;
	k->len = m->keylen;
	memcpy(k->key, m->keybuf, m->keylen * 8);
	k->next = m->bucket[h % MEMO_BUCKETS];
	m->bucket[h % MEMO_BUCKETS] = k;
	m->nkeys++;
	return k;
}

/* The template of @k whose exact holes have the line's texts. */
static struct memo_tmpl *tmpl_find(struct rule_memo *m, struct memo_key *k)
{
	struct memo_tmpl *t;
	unsigned int i;

	for (t = k->tmpls; t; t = t->next) {
		for (i = 0; i < t->nhole; i++)
			if (t->hole[i].exact &&
			    strcmp(t->text[i], hole_text(m, i)))
				break;
		if (i == t->nhole)
			return t;
	}
	return NULL;
}

static bool set_may_open(const struct rule_memo *m)
{
	int prev = m->ntok >= 2 ? m->tok[m->ntok - 2].tok : 0;

	return prev && prev != JUMP && prev != GOTO && prev != MAP &&
	       prev != VMAP && m->nset < MEMO_SETS;
}

/* The next token of the line into m->tok; false if there is no room. */
static bool lex_one(struct rule_memo *m)
{
	struct memo_tok *tk;

	if (m->ntok == MEMO_TOKS)
		return false;
	tk = &m->tok[m->ntok++];
	tk->val.kw = NULL;
	tk->tok = nft_lex_raw(&tk->val, &tk->loc, m->state->scanner);
	return m->ntok != MEMO_TOKS;
}

/*
 * The line's last token is a '{' that may start an anonymous set: read
 * the rest of "{ A, B, ... [,] }", one token an element, through its
 * '}'. false, the offending token read, on anything else: maps, ranges,
 * prefixes, concatenations, keywords, newlines, nested braces. Braces
 * after "jump", "goto", "map" or "vmap" (chains, maps) and more than
 * MEMO_SETS groups are not read here (the '{' stops the line).
 */
static bool lex_set(struct rule_memo *m)
{
	bool want_elem = true;
	int tok;

	m->set_tok[m->nset] = m->ntok - 1;
	while (lex_one(m)) {
		tok = m->tok[m->ntok - 1].tok;
		if (want_elem && (tok == NUM || tok == STRING ||
				  tok == QUOTED_STRING)) {
			want_elem = false;
			continue;
		}
		if (!want_elem && tok == COMMA) {
			want_elem = true;
			continue;
		}
		/* "{ A, }": a comma may end the list, not open it */
		if (tok != '}' || m->tok[m->ntok - 2].tok == '{')
			return false;
		m->set_end[m->nset++] = m->ntok - 1;
		return true;
	}
	return false;
}

/* ------------------------------------------------------------- lexing */

static int replay(struct rule_memo *m, NFT_STYPE *lval,
		  struct location *lloc)
{
	const struct memo_tok *t = &m->tok[m->rpos++];

	*lval = t->val;
	*lloc = t->loc;
	/* the parser owns its strings */
	if ((ti(m, t->tok) & TI_TEXT) && in_arena(m, t->val.string))
		lval->string = strdup(t->val.string);
	if (m->rpos == m->ntok)
		m->replaying = false;
	m->state->memo_last_tok = t->tok == NEWLINE || t->tok == SEMICOLON;
	return t->tok;
}

/* The rule's location as the parser makes it: first to last token. */
static struct location line_loc(const struct rule_memo *m)
{
	struct location l = m->tok[0].loc;
	const struct location *e = &m->tok[m->ntok - 2].loc;

	if (e->indesc == l.indesc) {
		l.last_line = e->last_line;
		l.last_column = e->last_column;
	}
	return l;
}

/* The line to the parser, maybe recording or checking what it makes. */
static int line_replay(struct rule_memo *m, NFT_STYPE *lval,
		       struct location *lloc, struct memo_key *k,
		       struct memo_tmpl *t)
{
	unsigned int i;

	memo_pend_reset(m);
	if (k && m->ntok > 1) {
		for (i = 0; i < m->nhole; i++) {
			m->pend_text[i] = strdup(hole_text(m, i));
			m->pend_nhole = i + 1;
			if (!m->pend_text[i])
				break;
		}
		if (i == m->nhole) {
			m->pend_key = k;
			m->pend_tmpl = t;
			m->pend_loc = line_loc(m);
			m->pend_nset = m->nset;
			for (i = 0; i < m->nset; i++)
				m->pend_set_loc[i] = memo_set_loc(m, i);
			m->pend_id = m->nft->next_set_id;
		} else {
			memo_pend_reset(m);
		}
	}
	m->rpos = 0;
	m->replaying = true;
	return replay(m, lval, lloc);
}

/* The line written by the memo: its tokens are done with. */
static int line_done(struct rule_memo *m, NFT_STYPE *lval,
		     struct location *lloc)
{
	struct memo_tok *tk = &m->tok[m->ntok - 1];
	unsigned int i;

	for (i = 0; i + 1 < m->ntok; i++)
		tok_free(m, &m->tok[i]);
	*lval = tk->val;
	*lloc = tk->loc;
	m->state->memo_last_tok = 1;
	return tk->tok;
}

/*
 * The messages of @t with the line's values (m->patch, offsets in
 * t->msg) into the batch, each with the source the full path gives it;
 * then the set ids they took are taken. 0, or -1 if the pipeline took
 * none of them.
 */
static int tmpl_emit(struct rule_memo *m, const struct memo_tmpl *t)
{
	const struct memo_msgs *mm = &t->msgs;
	struct pipeline_patch pt[MEMO_HOLES + MEMO_IDS + MEMO_NAMES];
	struct location loc;
	unsigned int i, j, n;

	for (i = 0; i < mm->n; i++) {
		for (n = 0, j = 0; j < m->npatch; j++) {
			if (m->patch[j].off < mm->off[i] ||
			    m->patch[j].off >= mm->off[i] + mm->len[i])
				continue;
			pt[n] = m->patch[j];
			pt[n++].off -= mm->off[i];
		}
		loc = mm->set[i] ? memo_set_loc(m, mm->set[i] - 1) :
				   line_loc(m);
		if (pipeline_memo_emit(m->p, m->chain, &loc,
				       t->msg + mm->off[i], mm->len[i], pt,
				       n) < 0)
			return -1;	/* later ones: no memory, failed */
	}
	pipeline_memo_took_ids(m->p, mm->ids, mm->names);
	return 0;
}

static int memo_line(struct rule_memo *m, NFT_STYPE *lval,
		     struct location *lloc)
{
	struct memo_tmpl *t = NULL;
	struct memo_key *k;
	struct memo_tok *tk;
	bool set_bad = false;
	struct location loc;
	uint64_t h;
	int ret;

	m->ntok = 0;
	m->state->memo_arena = m->arena;
	m->state->memo_arena_used = 0;
	m->state->memo_arena_size = MEMO_ARENA;
	m->nset = 0;
	for (;;) {
		if (!lex_one(m))
			break;
		tk = &m->tok[m->ntok - 1];
		if (!(ti(m, tk->tok) & (TI_END | TI_STOP)))
			continue;
		if (tk->tok != '{' || !set_may_open(m))
			break;
		if (!lex_set(m)) {
			set_bad = true;
			break;
		}
	}
	tk = &m->tok[m->ntok - 1];
	/* line_key()'s sentinels */
	m->set_tok[m->nset] = m->set_end[m->nset] = UINT_MAX;
	m->state->memo_arena = NULL;
	if (m->ntok == 1) {
		/* an empty line, the body's end */
		m->rpos = 0;
		m->replaying = true;
		return replay(m, lval, lloc);
	}
	if (!(ti(m, tk->tok) & TI_END) || set_bad)
		return line_replay(m, lval, lloc, NULL, NULL);
	if (!line_key(m))
		return line_replay(m, lval, lloc, NULL, NULL);
	h = m->hash ^ (m->hash >> 29);
	k = key_find(m, h);
	if (k)
		t = tmpl_find(m, k);
	if (t && t->state == TS_ACTIVE && tmpl_values(m, t)) {
		/* the rule alone (most): m->patch as it is */
		if (t->msgs.n == 1 && !t->msgs.ids) {
			loc = line_loc(m);
			ret = pipeline_memo_emit(m->p, m->chain, &loc, t->msg,
						 t->msg_len, m->patch,
						 m->npatch);
		} else {
			ret = tmpl_emit(m, t);
		}
		if (ret == 0) {
			m->hits++;
			return line_done(m, lval, lloc);
		}
		return line_replay(m, lval, lloc, NULL, NULL);
	}
	if (t && t->state == TS_PROBATION) {
		if (!tmpl_fill(m, t, m->pend_msg))
			return line_replay(m, lval, lloc, NULL, NULL);
		return line_replay(m, lval, lloc, k, t);
	}
	if (t)		/* dead */
		return line_replay(m, lval, lloc, NULL, NULL);
	/* shapes that do not repeat: stop recording */
	if (m->records > 256 && m->hits < m->records)
		return line_replay(m, lval, lloc, NULL, NULL);
	if (!k) {
		if (m->nkeys >= MEMO_KEYS)
			return line_replay(m, lval, lloc, NULL, NULL);
		k = key_add(m, h);
		if (!k)
			return line_replay(m, lval, lloc, NULL, NULL);
	}
	if (k->ntmpl >= MEMO_TMPLS)
		return line_replay(m, lval, lloc, NULL, NULL);
	return line_replay(m, lval, lloc, k, NULL);
}

int rule_memo_lex(struct rule_memo *m, void *lvalp, struct location *lloc)
{
	NFT_STYPE *lval = lvalp;
	struct chain *c;
	int tok;

	if (m->replaying)
		return replay(m, lval, lloc);
	if (m->arm) {
		c = m->arm;
		m->arm = NULL;
		m->chain = c;
		return memo_line(m, lval, lloc);
	}
	memset(lval, 0, sizeof(*lval));
	tok = nft_lex_raw(lval, lloc, m->state->scanner);
	m->state->memo_last_tok = tok == NEWLINE || tok == SEMICOLON ||
				  tok == '{';
	return tok;
}
