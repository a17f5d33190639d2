// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packed elements: a big set declaration without its IR.
 *
 * An element of "elements = { 10.0.0.1, 10.0.0.2, ... }" costs two
 * expression nodes and a string as IR (some 320 bytes), a million of
 * them a third of a gigabyte, while all that is needed of most of them
 * is the word, where it was (for errors), and later the key's bytes.
 *
 * While parsing (parser_state.c), once a set declaration's element list
 * holds ELEM_PACK_MIN elements, every further plain element (a symbol or
 * "symbol/N", without timeout, comment or statement) is packed in 16
 * bytes: its
 * location on one line, which is where the word is in the input text
 * (kept for error messages anyway; a quoted string, which is not, is
 * kept aside). Anything else ends packing: what was packed goes back
 * to the list as IR, in order.
 *
 * Evaluation (eval_set.c) hands the words out as IR a chunk at a time,
 * evaluates the chunk as it evaluates any elements (same errors, same
 * locations) and stores each key's canonical bytes here; then the words
 * are dropped. Interval sets keep [low, high] pairs instead, sorted and
 * checked or merged here (elem_pack_normalize) as interval.c does with
 * IR. Linearization (lin_set.c) emits the keys after the elements of
 * set->init, or the ranges. Whatever cannot take packed keys (maps,
 * concatenations) unpacks them into the list first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "elem_pack.h"
#include "elem_scan.h"
#include "datatype.h"
#include "erec.h"
#include "input_map.h"
#include "interval.h"

/* Column field: the column in the low bits, flags above. */
#define PACK_COL_MASK		0x00ffffffu
#define PACK_F_QUOTED		(1u << 24)	/* SYMBOL_QUOTED */
#define PACK_F_HEAP		(1u << 25)	/* word in .heap, not the input */
#define PACK_F_PREFIX		(1u << 26)	/* "word/N" */

/* Last column field: the column in the low bits, a prefix's N above. */
#define PACK_PLEN_SHIFT		24

/**
 * struct pack_word - one packed element while parsing
 * @line_offset: @first_line: @first_column: @last_column: its location,
 *               on one line (input in struct elem_pack); the word is the
 *               input text there, unless PACK_F_HEAP in @first_column:
 *               then it is the next one of struct elem_pack.heap
 *               PACK_F_PREFIX: "word/N" written without blanks, N in
 *               the high bits of @last_column
 */
struct pack_word {
	uint32_t	line_offset;
	uint32_t	first_line;
	uint32_t	first_column;
	uint32_t	last_column;
};

/**
 * struct elem_pack - the packed elements of one list
 * @indesc: input all the words come from
 * @words: @nwords: @cap: the words, in order
 * @next: first word not handed out for evaluation yet
 * @heap: @nheap: @heap_cap: words that are not input text as they are
 *        (quoted strings), in order; @heap_next: next one to hand out
 * @keys: evaluated keys, @key_bytes each, @nkeys of them (@keys_cap)
 * @dtype: @byteorder: @len: @kflags: what every key is
 * @loc: location given to unpacked constants (the first element's)
 * @evaluated: words dropped, @keys complete
 * @highs: ranges (interval sets): the high ends, @keys the low ones
 * @locs: the ranges' locations (for overlap errors) until normalised
 * @order: once normalised, the @nranges ranges kept, sorted
 * @scanned: keys read by elem_scan.c at @region, not typed yet
 * @from_scan: so read (typed or not): ranges have no @locs, an error
 *             finds its element's location in the text again
 */
struct elem_pack {
	const struct input_desc	*indesc;
	struct pack_word	*words;
	unsigned int		nwords;
	unsigned int		cap;
	unsigned int		next;
	char			**heap;
	unsigned int		nheap;
	unsigned int		heap_cap;
	unsigned int		heap_next;
	uint8_t			*keys;
	unsigned int		key_bytes;
	unsigned int		nkeys;
	unsigned int		keys_cap;
	const struct datatype	*dtype;
	enum byteorder		byteorder;
	unsigned int		len;
	uint16_t		kflags;
	struct location		loc;
	bool			evaluated;
	uint8_t			*highs;
	struct pack_word	*locs;
	uint32_t		*order;
	unsigned int		nranges;
	bool			scanned;
	bool			from_scan;
	struct elem_scan_region	region;
};

static bool loc_same(const struct location *a, const struct location *b)
{
	return a->indesc == b->indesc && a->line_offset == b->line_offset &&
	       a->first_line == b->first_line &&
	       a->first_column == b->first_column &&
	       a->last_line == b->last_line &&
	       a->last_column == b->last_column;
}

/* @sym is exactly what the parser makes of a lone word. */
static bool sym_packable(const struct expr *sym)
{
	if (sym->kind != EXPR_SYMBOL || sym->refcnt != 1 || sym->sym.value ||
	    !sym->sym.identifier || sym->dtype != &invalid_type || sym->len ||
	    sym->flags != (EXPR_F_CONSTANT | EXPR_F_SINGLETON) ||
	    sym->byteorder != BYTEORDER_INVALID)
		return false;
	if (sym->location.first_line != sym->location.last_line ||
	    sym->location.first_column > PACK_COL_MASK ||
	    sym->location.last_column > PACK_COL_MASK)
		return false;
	return sym->sym.symtype == SYMBOL_VALUE ||
	       sym->sym.symtype == SYMBOL_QUOTED;
}

/* Last column of "word/N" without blanks, the word ending at @col. */
static unsigned int prefix_last_column(unsigned int col, unsigned int n)
{
	col += 2;	/* '/' and a digit */
	while (n >= 10) {
		n /= 10;
		col++;
	}
	return col;
}

/* @key is what the parser makes of "word/N" (slash()). */
static bool prefix_packable(const struct expr *key)
{
	return key->kind == EXPR_PREFIX && key->refcnt == 1 &&
	       key->prefix.expr && sym_packable(key->prefix.expr) &&
	       key->prefix.prefix_len < 256 && key->flags == EXPR_F_CONSTANT &&
	       key->dtype == &invalid_type && !key->len &&
	       key->byteorder == BYTEORDER_INVALID &&
	       key->location.indesc == key->prefix.expr->location.indesc &&
	       key->location.line_offset ==
			key->prefix.expr->location.line_offset &&
	       key->location.first_line == key->prefix.expr->location.first_line &&
	       key->location.first_column ==
			key->prefix.expr->location.first_column &&
	       key->location.first_line == key->location.last_line &&
	       key->location.last_column ==
			prefix_last_column(key->prefix.expr->location.last_column,
					   key->prefix.prefix_len);
}

/* @elem is a lone word or "word/N" with nothing else. */
static bool elem_packable(const struct expr *elem)
{
	const struct expr *key = elem->elem.key;

	if (elem->kind != EXPR_SET_ELEM || elem->refcnt != 1 || !key)
		return false;
	if (elem->elem.timeout || elem->elem.expiration ||
	    elem->elem.comment || !list_empty(&elem->elem.stmts))
		return false;
	if (!loc_same(&elem->location, &key->location) ||
	    elem->dtype != key->dtype ||
	    elem->flags != (key->flags & (EXPR_F_CONSTANT |
					  EXPR_F_SINGLETON)))
		return false;
	return sym_packable(key) || prefix_packable(key);
}

static struct elem_pack *pack_alloc(const struct expr *elem)
{
	struct elem_pack *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->indesc = elem->location.indesc;
	p->loc = elem->location;
	return p;
}

/* Is @text (@n bytes) the input text at @w's location? */
static bool word_in_input(const struct elem_pack *p,
			  const struct pack_word *w, const char *text,
			  size_t n)
{
	uint32_t col = w->first_column & PACK_COL_MASK;
	size_t start;

	if (w->first_column & PACK_F_QUOTED || !p->indesc ||
	    !p->indesc->data || !n || col == 0 ||
	    (w->last_column & PACK_COL_MASK) - col + 1 != n)
		return false;
	start = (size_t)w->line_offset + col - 1;
	if (start + n > p->indesc->size)
		return false;
	/* a big file's text is given back behind the scanner */
	input_restore(p->indesc, start, start + n);
	return !memcmp(p->indesc->data + start, text, n);
}

int elem_pack_take(struct elem_pack **pack, struct expr *elem)
{
	struct elem_pack *p = *pack;
	struct expr *key;
	struct pack_word *w;
	size_t n;

	if (!elem_packable(elem) || (p && (p->evaluated || p->next ||
		p->indesc != elem->location.indesc)))
		return 0;
	if (!p) {
		p = pack_alloc(elem);
		if (!p)
			return -1;
		*pack = p;
	}
	if (p->nwords == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 4096;

		w = realloc(p->words, cap * sizeof(*w));
		if (!w)
			return -1;
		p->words = w;
		p->cap = cap;
	}
	key = elem->elem.key;
	w = &p->words[p->nwords];
	if (key->kind == EXPR_PREFIX)
		key = key->prefix.expr;
	w->line_offset = key->location.line_offset;
	w->first_line = key->location.first_line;
	w->first_column = key->location.first_column;
	w->last_column = key->location.last_column;
	if (elem->elem.key->kind == EXPR_PREFIX) {
		w->first_column |= PACK_F_PREFIX;
		w->last_column |= elem->elem.key->prefix.prefix_len <<
				  PACK_PLEN_SHIFT;
	}
	if (key->sym.symtype == SYMBOL_QUOTED)
		w->first_column |= PACK_F_QUOTED;
	n = strlen(key->sym.identifier);
	if (!word_in_input(p, w, key->sym.identifier, n)) {
		if (p->nheap == p->heap_cap) {
			unsigned int cap = p->heap_cap ? p->heap_cap * 2 : 64;
			char **h = realloc(p->heap, cap * sizeof(*h));

			if (!h)
				return -1;
			p->heap = h;
			p->heap_cap = cap;
		}
		p->heap[p->nheap++] = key->sym.identifier;
		key->sym.identifier = NULL;
		w->first_column |= PACK_F_HEAP;
	}
	p->nwords++;
	expr_free(elem);
	return 1;
}

static struct expr *word_expr(struct elem_pack *p, const struct pack_word *w)
{
	struct location loc = {
		.indesc		= p->indesc,
		.line_offset	= w->line_offset,
		.first_line	= w->first_line,
		.first_column	= w->first_column & PACK_COL_MASK,
		.last_line	= w->first_line,
		.last_column	= w->last_column & PACK_COL_MASK,
	};
	enum symbol_kind kind = w->first_column & PACK_F_QUOTED ?
				SYMBOL_QUOTED : SYMBOL_VALUE;
	unsigned int plen;
	struct expr *sym;
	char *text;

	if (w->first_column & PACK_F_HEAP) {
		text = p->heap[p->heap_next];
		p->heap[p->heap_next++] = NULL;
	} else {
		size_t at = (size_t)w->line_offset + loc.first_column - 1;
		size_t n = loc.last_column - loc.first_column + 1;

		input_restore(p->indesc, at, at + n);
		text = strndup(p->indesc->data + at, n);
	}
	if (!text)
		return NULL;
	sym = symbol_expr_alloc_own(&loc, kind, text);
	if (sym && (w->first_column & PACK_F_PREFIX)) {
		plen = w->last_column >> PACK_PLEN_SHIFT;
		loc.last_column = prefix_last_column(loc.last_column, plen);
		sym = prefix_expr_alloc(&loc, sym, plen);
	}
	return sym ? set_elem_expr_alloc(&loc, sym) : NULL;
}

unsigned int elem_pack_next_raw(struct elem_pack *p, struct expr *list,
				unsigned int max)
{
	unsigned int n = 0;
	struct expr *e;

	while (n < max && p->next < p->nwords) {
		e = word_expr(p, &p->words[p->next++]);
		if (!e)
			return n;
		list_expr_add(list, e);
		n++;
	}
	return n;
}

bool elem_pack_store(struct elem_pack *p, const struct expr *key)
{
	unsigned int bytes = BITS_TO_BYTES(key->len);
	uint8_t *k;

	if (key->kind != EXPR_VALUE || !key->len ||
	    key->value.len != key->len || bytes > NFTC_VALUE_MAX)
		return false;
	if (!p->nkeys) {
		p->dtype = key->dtype;
		p->byteorder = key->byteorder;
		p->len = key->len;
		p->kflags = key->flags;
		p->key_bytes = bytes;
	} else if (key->dtype != p->dtype || key->byteorder != p->byteorder ||
		   key->len != p->len || key->flags != p->kflags) {
		return false;
	}
	if (p->nkeys == p->keys_cap) {
		unsigned int cap = p->keys_cap ? p->keys_cap * 2 : 4096;

		k = realloc(p->keys, (size_t)cap * bytes);
		if (!k)
			return false;
		p->keys = k;
		p->keys_cap = cap;
	}
	memcpy(p->keys + (size_t)p->nkeys * bytes, key->value.data, bytes);
	p->nkeys++;
	return true;
}

static void words_free(struct elem_pack *p)
{
	unsigned int i;

	for (i = p->heap_next; i < p->nheap; i++)
		free(p->heap[i]);
	free(p->heap);
	p->heap = NULL;
	p->nheap = p->heap_cap = p->heap_next = 0;
	free(p->words);
	p->words = NULL;
	p->nwords = p->cap = p->next = 0;
}

void elem_pack_evaluated(struct elem_pack *p)
{
	words_free(p);
	p->evaluated = true;
}

void elem_pack_key(const struct elem_pack *p, unsigned int k,
		   struct expr *e)
{
	memset(e, 0, sizeof(*e));
	init_list_head(&e->list);
	e->location = p->loc;
	e->kind = EXPR_VALUE;
	e->dtype = p->dtype;
	e->byteorder = p->byteorder;
	e->len = p->len;
	e->flags = p->kflags;
	e->refcnt = 1;
	e->value.len = p->len;
	memcpy(e->value.data, p->keys + (size_t)k * p->key_bytes,
	       p->key_bytes);
}

unsigned int elem_pack_count(const struct elem_pack *p)
{
	if (p->order)
		return p->nranges;
	return p->evaluated ? p->nkeys : p->nwords - p->next + p->nkeys;
}

bool elem_pack_is_raw(const struct elem_pack *p)
{
	return !p->evaluated;
}

/* Range @k as IR: what interval_set_normalize() leaves (elem_set_range). */
static struct expr *range_elem(const struct elem_pack *p, unsigned int k)
{
	struct value low, high;
	struct expr *l, *h, *r;

	elem_pack_range(p, k, &low, &high);
	l = constant_expr_alloc(&p->loc, p->dtype, p->byteorder, p->len,
				&low);
	h = constant_expr_alloc(&p->loc, p->dtype, p->byteorder, p->len,
				&high);
	if (!l || !h) {
		expr_free(l);
		expr_free(h);
		return NULL;
	}
	r = range_expr_alloc(&p->loc, l, h);
	if (!r)
		return NULL;
	r->dtype = datatype_get(p->dtype);
	r->byteorder = p->byteorder;
	r->len = p->len;
	r->flags |= EXPR_F_INTERVAL;
	return set_elem_expr_alloc(&p->loc, r);
}

int elem_pack_unpack_keys(struct elem_pack *p, struct expr *list)
{
	unsigned int k, n = p->order ? p->nranges : p->nkeys;
	struct expr tmp, *key, *e;

	for (k = 0; k < n; k++) {
		if (p->highs) {
			e = range_elem(p, k);
			if (!e)
				return -1;
			list_expr_add(list, e);
			continue;
		}
		elem_pack_key(p, k, &tmp);
		key = constant_expr_alloc(&p->loc, tmp.dtype, tmp.byteorder,
					  tmp.len, &tmp.value);
		if (!key)
			return -1;
		key->flags = tmp.flags;
		e = set_elem_expr_alloc(&p->loc, key);
		if (!e)
			return -1;
		list_expr_add(list, e);
	}
	p->nkeys = 0;
	p->nranges = 0;
	free(p->order);
	p->order = NULL;
	return 0;
}

int elem_pack_unpack(struct elem_pack *p, struct expr *list)
{
	if (p->scanned) {
		/* made again from the text, as the parser makes them */
		p->scanned = false;
		p->nkeys = 0;
		return elem_scan_unpack(&p->region, list, ~0u) < 0 ? -1 : 0;
	}
	if (elem_pack_unpack_keys(p, list) < 0)
		return -1;
	while (p->next < p->nwords)
		if (!elem_pack_next_raw(p, list, p->nwords - p->next))
			return -1;
	words_free(p);
	return 0;
}

void elem_pack_free(struct elem_pack *p)
{
	if (!p)
		return;
	words_free(p);
	free(p->keys);
	free(p->highs);
	free(p->locs);
	free(p->order);
	free(p);
}

/*
 * Ranges (interval sets): the key of each element as [low, high] in
 * @keys and @highs, its location in @locs; normalised, @order lists the
 * ranges kept, sorted.
 */
static bool key_like(const struct elem_pack *p, const struct expr *key)
{
	return key->dtype == p->dtype && key->byteorder == p->byteorder &&
	       key->len == p->len;
}

bool elem_pack_range_ok(const struct elem_pack *p, const struct expr *first,
			const struct expr *key, const struct location *loc)
{
	struct value low, high;

	if (!key->len || BITS_TO_BYTES(key->len) > NFTC_VALUE_MAX ||
	    interval_key_range(key, &low, &high) < 0 ||
	    low.len != key->len || high.len != key->len)
		return false;
	if (key->dtype != first->dtype || key->byteorder != first->byteorder ||
	    key->len != first->len || (p->nkeys && !key_like(p, key)))
		return false;
	return !p->from_scan && loc->indesc == p->indesc &&
	       loc->first_line == loc->last_line &&
	       loc->first_column <= PACK_COL_MASK &&
	       loc->last_column <= PACK_COL_MASK;
}

int elem_pack_store_range(struct elem_pack *p, const struct expr *key,
			  const struct location *loc)
{
	struct value low, high;
	unsigned int bytes = BITS_TO_BYTES(key->len);
	struct pack_word *w;
	uint8_t *k;

	if (interval_key_range(key, &low, &high) < 0)
		return -1;
	if (!p->nkeys) {
		p->dtype = key->dtype;
		p->byteorder = key->byteorder;
		p->len = key->len;
		p->kflags = 0;
		p->key_bytes = bytes;
		p->loc = *loc;
	}
	if (p->nkeys == p->keys_cap) {
		unsigned int cap = p->keys_cap ? p->keys_cap * 2 : 4096;

		k = realloc(p->keys, (size_t)cap * bytes);
		if (!k)
			return -1;
		p->keys = k;
		k = realloc(p->highs, (size_t)cap * bytes);
		if (!k)
			return -1;
		p->highs = k;
		w = realloc(p->locs, cap * sizeof(*w));
		if (!w)
			return -1;
		p->locs = w;
		p->keys_cap = cap;
	}
	memcpy(p->keys + (size_t)p->nkeys * bytes, low.data, bytes);
	memcpy(p->highs + (size_t)p->nkeys * bytes, high.data, bytes);
	w = &p->locs[p->nkeys];
	w->line_offset = loc->line_offset;
	w->first_line = loc->first_line;
	w->first_column = loc->first_column;
	w->last_column = loc->last_column;
	p->nkeys++;
	return 0;
}

static const uint8_t *low_of(const struct elem_pack *p, uint32_t k)
{
	return p->keys + (size_t)k * p->key_bytes;
}

static uint8_t *high_of(const struct elem_pack *p, uint32_t k)
{
	return p->highs + (size_t)k * p->key_bytes;
}

/* Canonical bytes of equal width compare as the numbers they are. */
static int key_cmp(const struct elem_pack *p, const uint8_t *a,
		   const uint8_t *b)
{
	return memcmp(a, b, p->key_bytes);
}

/* interval.c's ival_msort() on indices: the same order for equal keys. */
static void range_msort(const struct elem_pack *p, uint32_t *v,
			uint32_t *tmp, unsigned int n)
{
	unsigned int h = (n + 1) / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	range_msort(p, v, tmp, h);
	range_msort(p, v + h, tmp, n - h);
	while (i < h || j < n) {
		if (j == n || (i < h && key_cmp(p, low_of(p, v[i]),
						low_of(p, v[j])) < 0))
			tmp[k++] = v[i++];
		else
			tmp[k++] = v[j++];
	}
	memcpy(v, tmp, n * sizeof(*v));
}

static struct location range_loc(const struct elem_pack *p, uint32_t k)
{
	const struct pack_word *w = p->locs ? &p->locs[k] : NULL;
	struct location loc;

	if (!w) {
		/* read from the text: element k of the list, read again */
		loc = p->loc;
		elem_scan_locate(&p->region, k, &loc);
		return loc;
	}
	loc = (struct location){
		.indesc		= p->indesc,
		.line_offset	= w->line_offset,
		.first_line	= w->first_line,
		.first_column	= w->first_column,
		.last_line	= w->first_line,
		.last_column	= w->last_column,
	};

	return loc;
}

/* Is @low right after @high (high + 1, without wrapping)? */
static bool adjacent(const struct elem_pack *p, const uint8_t *high,
		     const uint8_t *low)
{
	struct value next;

	value_set_bytes(&next, p->len, high);
	return !value_inc(&next) && !memcmp(next.data, low, p->key_bytes);
}

/*
 * The ranges kept, sorted, in place of all of them: @order and what the
 * merge dropped are gone before the batch is written (400 KB each at
 * 100k IPv4 ranges). Without memory for the copy, @order stays.
 */
static void ranges_compact(struct elem_pack *p)
{
	size_t bytes = p->key_bytes, n = p->nranges ? p->nranges : 1;
	uint8_t *keys = malloc(n * bytes), *highs = malloc(n * bytes);
	unsigned int k;

	if (!keys || !highs) {
		free(keys);
		free(highs);
		return;
	}
	for (k = 0; k < p->nranges; k++) {
		memcpy(keys + k * bytes, low_of(p, p->order[k]), bytes);
		memcpy(highs + k * bytes, high_of(p, p->order[k]), bytes);
	}
	free(p->keys);
	free(p->highs);
	p->keys = keys;
	p->highs = highs;
	p->nkeys = p->keys_cap = p->nranges;
	free(p->order);
	p->order = NULL;
}

int elem_pack_normalize(struct elem_pack *p, struct erec_queue *erq,
			bool merge)
{
	unsigned int k, n = p->nkeys, kept = 0;
	uint32_t *v, *tmp, cur, prev = 0;
	bool have_prev = false;
	struct location loc;
	int ret = 0;

	v = malloc((n + 1) * sizeof(*v));
	tmp = malloc((n + 1) * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return -1;
	}
	for (k = 0; k < n; k++)
		v[k] = k;
	range_msort(p, v, tmp, n);
	free(tmp);
	for (k = 0; k < n && ret == 0; k++) {
		cur = v[k];
		if (!have_prev) {
			have_prev = true;
		} else if (!merge) {
			/* stock's check: ranges sharing a key, unless equal */
			if (!(key_cmp(p, low_of(p, prev), low_of(p, cur)) == 0 &&
			      key_cmp(p, high_of(p, prev), high_of(p, cur)) ==
									0) &&
			    key_cmp(p, low_of(p, cur), high_of(p, prev)) <= 0) {
				loc = range_loc(p, cur);
				ret = erec_error(erq, &loc,
					"conflicting intervals specified");
				break;
			}
		} else if (key_cmp(p, high_of(p, cur), high_of(p, prev)) <= 0) {
			continue;	/* inside the previous one */
		} else if (key_cmp(p, low_of(p, cur), high_of(p, prev)) <= 0 ||
			   adjacent(p, high_of(p, prev), low_of(p, cur))) {
			memcpy(high_of(p, prev), high_of(p, cur),
			       p->key_bytes);
			continue;
		}
		v[kept++] = cur;
		prev = cur;
	}
	if (ret < 0) {
		free(v);
		return ret;
	}
	free(p->locs);
	p->locs = NULL;
	free(p->order);
	p->order = v;
	p->nranges = kept;
	ranges_compact(p);
	return 0;
}

bool elem_pack_has_ranges(const struct elem_pack *p)
{
	return p->highs != NULL;
}

void elem_pack_range(const struct elem_pack *p, unsigned int k,
		     struct value *low, struct value *high)
{
	uint32_t i = p->order ? p->order[k] : k;

	value_set_bytes(low, p->len, low_of(p, i));
	value_set_bytes(high, p->len, high_of(p, i));
}

/*
 * Scanned packs (elem_scan.c): the keys of a whole element list read
 * from its text, in order, as [low, high] ranges with their locations
 * for an interval set; typed once evaluation has checked the first.
 */
struct elem_pack *elem_pack_scanned(const struct elem_scan_region *r,
				    unsigned int key_bytes)
{
	struct elem_pack *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->indesc = r->indesc;
	p->scanned = true;
	p->from_scan = true;
	p->region = *r;
	p->key_bytes = key_bytes;
	return p;
}

void elem_pack_scan_region_set(struct elem_pack *p,
			       const struct elem_scan_region *r)
{
	p->region = *r;
}

const struct elem_scan_region *elem_pack_region(const struct elem_pack *p)
{
	return p && p->scanned ? &p->region : NULL;
}

/* Room for one more key (and range), doubling. */
static int keys_grow(struct elem_pack *p, bool ranges)
{
	unsigned int cap = p->keys_cap ? p->keys_cap * 2 : 4096;
	uint8_t *k;

	k = realloc(p->keys, (size_t)cap * p->key_bytes);
	if (!k)
		return -1;
	p->keys = k;
	if (ranges) {
		k = realloc(p->highs, (size_t)cap * p->key_bytes);
		if (!k)
			return -1;
		p->highs = k;
	}
	p->keys_cap = cap;
	return 0;
}

int elem_pack_put(struct elem_pack *p, const uint8_t *low,
		  const uint8_t *high, const struct location *loc)
{
	bool ranges = p->region.ranges;

	if (p->nkeys == p->keys_cap && keys_grow(p, ranges) < 0)
		return -1;
	if (!p->nkeys)
		p->loc = *loc;
	memcpy(p->keys + (size_t)p->nkeys * p->key_bytes, low, p->key_bytes);
	if (ranges)
		memcpy(p->highs + (size_t)p->nkeys * p->key_bytes, high,
		       p->key_bytes);
	p->nkeys++;
	return 0;
}

bool elem_pack_scan_adopt(struct elem_pack *p, const struct expr *key)
{
	unsigned int bytes = BITS_TO_BYTES(key->len);
	struct value low, high;

	if (!p->scanned || !p->nkeys || !key->len || bytes != p->key_bytes)
		return false;
	if (p->region.ranges) {
		if (interval_key_range(key, &low, &high) < 0 ||
		    low.len != key->len || high.len != key->len ||
		    memcmp(low.data, p->keys, bytes) ||
		    memcmp(high.data, p->highs, bytes))
			return false;
		p->kflags = 0;
	} else {
		if (key->kind != EXPR_VALUE || key->value.len != key->len ||
		    memcmp(key->value.data, p->keys, bytes))
			return false;
		p->kflags = key->flags;
	}
	p->dtype = key->dtype;
	p->byteorder = key->byteorder;
	p->len = key->len;
	p->scanned = false;
	return true;
}
