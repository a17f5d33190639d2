/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_ELEM_PACK_H
#define NFTC_ELEM_PACK_H

/*
 * Packed elements of a big set declaration (see elem_pack.c).
 *
 * "elements = { ... }" of a named set with thousands of plain elements
 * (a bare word, number or "word/N" each, nothing else) keeps them past
 * the first ELEM_PACK_MIN not as IR but packed: the word's location (16
 * bytes) while parsing, the key's bytes once evaluated (a [low, high]
 * pair for interval sets). They follow the elements of set->init, in
 * source order.
 */
#include <stdbool.h>
#include <stdint.h>
#include "expr.h"

/* Elements a list holds as IR before the rest is packed. */
#define ELEM_PACK_MIN	1024

struct elem_pack;

/*
 * Parsing: take @elem (an EXPR_SET_ELEM) if it is a plain word or number
 * with nothing else; false if it is not (the caller keeps it as IR).
 * Frees @elem when taken. Returns -1 without memory.
 */
int elem_pack_take(struct elem_pack **pack, struct expr *elem);
/* Append the packed elements to @list as IR (symbols, or constants). */
int elem_pack_unpack(struct elem_pack *pack, struct expr *list);
/* Only the evaluated keys stored so far, as constants; the pack drops them. */
int elem_pack_unpack_keys(struct elem_pack *pack, struct expr *list);
void elem_pack_free(struct elem_pack *pack);

/* Number of packed elements. */
unsigned int elem_pack_count(const struct elem_pack *pack);
/* Parsed, not evaluated yet. */
bool elem_pack_is_raw(const struct elem_pack *pack);

/*
 * Evaluation, in chunks: the next (at most @max) raw elements as IR
 * (EXPR_SET_ELEM of a symbol each) appended to @list; returns how many,
 * 0 when all were handed out.
 */
unsigned int elem_pack_next_raw(struct elem_pack *pack, struct expr *list,
				unsigned int max);
/*
 * Store the evaluated key @key (an EXPR_VALUE) of the next element;
 * false if it is not like the ones stored before (type, width, byte
 * order), then nothing is stored.
 */
bool elem_pack_store(struct elem_pack *pack, const struct expr *key);
/* All raw elements handed out: drop the words, keep the keys. */
void elem_pack_evaluated(struct elem_pack *pack);

/*
 * Linearization: element @k's key as a constant expression (in @e, a
 * caller provided buffer). Only after elem_pack_evaluated().
 */
void elem_pack_key(const struct elem_pack *pack, unsigned int k,
		   struct expr *e);

/*
 * Interval sets: the evaluated keys (values, prefixes, ranges) kept as
 * ranges. range_ok: can @key, located at @loc, be stored alongside the
 * ones stored and @first (the first key of the batch being checked)?
 * store_range: store it (-1 without memory). normalize: sort them as
 * interval_set_normalize() does, then check them (stock's "conflicting
 * intervals specified" at the later one, queued on @erq: -1) or @merge
 * them. range: the @k-th one (sorted once normalised).
 */
struct erec_queue;
struct value;
bool elem_pack_range_ok(const struct elem_pack *pack, const struct expr *first,
			const struct expr *key, const struct location *loc);
int elem_pack_store_range(struct elem_pack *pack, const struct expr *key,
			  const struct location *loc);
int elem_pack_normalize(struct elem_pack *pack, struct erec_queue *erq,
			bool merge);
bool elem_pack_has_ranges(const struct elem_pack *pack);
void elem_pack_range(const struct elem_pack *pack, unsigned int k,
		     struct value *low, struct value *high);

/*
 * Scanned packs (elem_scan.c): a whole element list read from the text
 * at @r, @key_bytes a key. put: the next element's key (@low), with
 * @high as a range in an interval set (r->ranges); @loc of the first
 * is kept (the others' are found in the text again for errors).
 * region: where a pack not typed yet was read (NULL: not scanned, or
 * typed). scan_adopt: type the keys as @key, the first element made
 * again as IR and evaluated, if it gives the same key; false if not
 * (the caller unpacks them, elem_pack_unpack() reads the text again).
 */
struct elem_scan_region;
struct elem_pack *elem_pack_scanned(const struct elem_scan_region *r,
				    unsigned int key_bytes);
int elem_pack_put(struct elem_pack *pack, const uint8_t *low,
		  const uint8_t *high, const struct location *loc);
const struct elem_scan_region *elem_pack_region(const struct elem_pack *pack);
/* Once read: the region with its end (elem_scan.c). */
void elem_pack_scan_region_set(struct elem_pack *pack,
			       const struct elem_scan_region *r);
bool elem_pack_scan_adopt(struct elem_pack *pack, const struct expr *key);

#endif
