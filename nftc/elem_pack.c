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
 * holds ELEM_PACK_MIN elements, every further plain element (a symbol,
 * without timeout, comment or statement) is packed in 16 bytes: its
 * location on one line, which is where the word is in the input text
 * (kept for error messages anyway; a quoted string, which is not, is
 * kept aside). Anything else ends packing: what was packed goes back
 * to the list as IR, in order.
 *
 * Evaluation (eval_set.c) hands the words out as IR a chunk at a time,
 * evaluates the chunk as it evaluates any elements (same errors, same
 * locations) and stores each key's canonical bytes here; then the words
 * are dropped. Linearization (lin_set.c) emits the keys after the
 * elements of set->init. Whatever cannot take packed keys (interval
 * sets, maps) unpacks them into the list first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "elem_pack.h"
#include "datatype.h"

/* Column field: the column in the low bits, flags above. */
#define PACK_COL_MASK		0x00ffffffu
#define PACK_F_QUOTED		(1u << 24)	/* SYMBOL_QUOTED */
#define PACK_F_HEAP		(1u << 25)	/* word in .heap, not the input */

/**
 * struct pack_word - one packed element while parsing
 * @line_offset: @first_line: @first_column: @last_column: its location,
 *               on one line (input in struct elem_pack); the word is the
 *               input text there, unless PACK_F_HEAP in @first_column:
 *               then it is the next one of struct elem_pack.heap
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
};

static bool loc_same(const struct location *a, const struct location *b)
{
	return a->indesc == b->indesc && a->line_offset == b->line_offset &&
	       a->first_line == b->first_line &&
	       a->first_column == b->first_column &&
	       a->last_line == b->last_line &&
	       a->last_column == b->last_column;
}

/* @elem is exactly what the parser makes of a lone word. */
static bool elem_packable(const struct expr *elem)
{
	const struct expr *key = elem->elem.key;

	if (elem->kind != EXPR_SET_ELEM || elem->refcnt != 1 || !key ||
	    key->kind != EXPR_SYMBOL || key->refcnt != 1 || key->sym.value ||
	    !key->sym.identifier)
		return false;
	if (elem->elem.timeout || elem->elem.expiration ||
	    elem->elem.comment || !list_empty(&elem->elem.stmts))
		return false;
	if (key->dtype != &invalid_type || key->len ||
	    key->flags != (EXPR_F_CONSTANT | EXPR_F_SINGLETON) ||
	    elem->flags != key->flags || elem->dtype != key->dtype ||
	    key->byteorder != BYTEORDER_INVALID)
		return false;
	if (!loc_same(&elem->location, &key->location) ||
	    key->location.first_line != key->location.last_line ||
	    key->location.first_column > PACK_COL_MASK ||
	    key->location.last_column > PACK_COL_MASK)
		return false;
	return key->sym.symtype == SYMBOL_VALUE ||
	       key->sym.symtype == SYMBOL_QUOTED;
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
	size_t start;

	if (w->first_column & PACK_F_QUOTED || !p->indesc ||
	    !p->indesc->data || !n || w->first_column == 0 ||
	    w->last_column - w->first_column + 1 != n)
		return false;
	start = (size_t)w->line_offset + w->first_column - 1;
	return start + n <= p->indesc->size &&
	       !memcmp(p->indesc->data + start, text, n);
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
	w->line_offset = key->location.line_offset;
	w->first_line = key->location.first_line;
	w->first_column = key->location.first_column;
	w->last_column = key->location.last_column;
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
		.last_column	= w->last_column,
	};
	enum symbol_kind kind = w->first_column & PACK_F_QUOTED ?
				SYMBOL_QUOTED : SYMBOL_VALUE;
	struct expr *sym;
	char *text;

	if (w->first_column & PACK_F_HEAP) {
		text = p->heap[p->heap_next];
		p->heap[p->heap_next++] = NULL;
	} else {
		text = strndup(p->indesc->data + w->line_offset +
			       (w->first_column & PACK_COL_MASK) - 1,
			       w->last_column - (w->first_column & PACK_COL_MASK) +
			       1);
	}
	if (!text)
		return NULL;
	sym = symbol_expr_alloc_own(&loc, kind, text);
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
	return p->evaluated ? p->nkeys : p->nwords - p->next + p->nkeys;
}

bool elem_pack_is_raw(const struct elem_pack *p)
{
	return !p->evaluated;
}

int elem_pack_unpack_keys(struct elem_pack *p, struct expr *list)
{
	struct expr tmp, *key, *e;
	unsigned int k;

	for (k = 0; k < p->nkeys; k++) {
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
	return 0;
}

int elem_pack_unpack(struct elem_pack *p, struct expr *list)
{
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
	free(p);
}
