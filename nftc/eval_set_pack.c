// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Evaluation of the packed elements of a set declaration (elem_pack.h).
 *
 * Packed elements are evaluated a chunk of IR at a time, as any batch
 * of elements is (the same errors at the same places), and only their
 * keys' bytes are kept:
 *  - a set whose elements are each checked on their own (no interval,
 *    map data or concatenation) keeps the keys;
 *  - an interval set (not a map, not concatenated) keeps each key as a
 *    range, set->init's too; the ranges are then sorted and checked or
 *    merged as interval_set_normalize() does with IR;
 *  - any other set gets them back in set->init as IR first.
 * An element that is more than a key (a name resolving to several
 * addresses, a catch-all, ...) puts what was kept and the rest back in
 * set->init as IR, in order, and the set is evaluated as IR.
 */
#include <stdlib.h>
#include "evaluate.h"
#include "elem_pack.h"
#include "elem_scan.h"
#include "rule.h"

/* Elements evaluated a chunk at a time from a pack. */
#define PACK_CHUNK	1024

static bool set_takes_keys(const struct set *set)
{
	return !(set->flags & (SET_F_INTERVAL | SET_F_MAP | SET_F_OBJECT |
			       SET_F_ANONYMOUS | SET_F_CONCAT)) &&
	       !set->data && set->key && set->key->kind != EXPR_CONCAT;
}

static bool set_takes_ranges(const struct set *set)
{
	return (set->flags & SET_F_INTERVAL) &&
	       !(set->flags & (SET_F_MAP | SET_F_OBJECT | SET_F_ANONYMOUS |
			       SET_F_CONCAT)) &&
	       !set->data && set->key && set->key->kind != EXPR_CONCAT;
}

/**
 * set_pack_unpack - put the packed elements of @set back in set->init
 *
 * As IR, in order (sorted ranges once normalised): whatever walks
 * set->init sees every element. Returns 0 or -1 without memory.
 */
int set_pack_unpack(struct set *set)
{
	int ret = 0;

	if (!set->pack)
		return 0;
	if (!set->init)
		set->init = list_expr_alloc(&set->location, EXPR_SET);
	if (!set->init || elem_pack_unpack(set->pack, set->init) < 0)
		ret = -1;
	elem_pack_free(set->pack);
	set->pack = NULL;
	return ret;
}

/* Is @i a plain element, a key and nothing else? */
static bool plain_elem(const struct expr *i)
{
	return i->kind == EXPR_SET_ELEM && i->elem.key &&
	       !i->elem.timeout && !i->elem.expiration && !i->elem.comment &&
	       list_empty(&i->elem.stmts) && !(i->flags & EXPR_F_EXISTING);
}

/* Can @pack keep every element of @list (typed)? */
static bool list_storable(const struct elem_pack *pack,
			  const struct expr *list, bool ranges)
{
	const struct expr *i, *first = NULL;

	list_for_each_entry(i, &list->expressions, list) {
		if (!plain_elem(i))
			return false;
		if (!ranges)
			continue;
		if (!first)
			first = i->elem.key;
		if (!elem_pack_range_ok(pack, first, i->elem.key,
					&i->elem.key->location))
			return false;
	}
	return true;
}

/*
 * Keep the keys of @list's elements in @pack, freeing them; 1 if an
 * element cannot be kept (it and those after it stay), -1 without
 * memory.
 */
static int list_store(struct elem_pack *pack, struct expr *list, bool ranges)
{
	struct expr *i, *next;

	if (!list_storable(pack, list, ranges))
		return 1;
	list_for_each_entry_safe(i, next, &list->expressions, list) {
		if (ranges) {
			if (elem_pack_store_range(pack, i->elem.key,
						  &i->elem.key->location) < 0)
				return -1;
		} else if (!elem_pack_store(pack, i->elem.key)) {
			return 1;	/* another type: kept ones go first */
		}
		list_del(&i->list);
		list->size--;
		expr_free(i);
	}
	return 0;
}

/* From now on the elements stay IR: what @pack kept goes first. */
static int pack_give_up(struct set *set, struct elem_pack *pack,
			struct expr **list)
{
	if (!*list)
		*list = list_expr_alloc(&set->location, EXPR_SET);
	if (!*list)
		return -1;
	return elem_pack_unpack_keys(pack, *list);
}

/*
 * Type *@list (@ranges: without normalising it) and then the elements
 * of @pack a chunk at a time, keeping what can be kept. Returns 1 when
 * everything was kept, 0 when the elements are (back) in *@list as
 * typed IR, -1 on errors (queued).
 */
static int pack_type(struct eval_ctx *ctx, struct set *set,
		     struct elem_pack *pack, struct expr **list, bool ranges)
{
	struct expr *chunk;
	bool store = true;
	int ret = 0, r;

	if (*list) {
		r = ranges ? set_elements_type(ctx, set, *list) :
			     set_elements_evaluate(ctx, set, *list);
		if (r < 0)
			ret = -1;
		else if (ranges && list_store(pack, *list, true) != 0)
			store = false;
	}
	for (;;) {
		chunk = list_expr_alloc(&set->location, EXPR_SET);
		if (!chunk)
			return -1;
		if (!elem_pack_next_raw(pack, chunk, PACK_CHUNK)) {
			expr_free(chunk);
			break;
		}
		r = ranges ? set_elements_type(ctx, set, chunk) :
			     set_elements_evaluate(ctx, set, chunk);
		if (r < 0) {
			expr_free(chunk);
			ret = -1;
			continue;
		}
		if (store) {
			r = list_store(pack, chunk, ranges);
			if (r < 0) {
				expr_free(chunk);
				return -1;
			}
			if (r > 0) {
				store = false;
				if (pack_give_up(set, pack, list) < 0) {
					expr_free(chunk);
					return -1;
				}
			}
		}
		if (!store) {
			list_splice_tail_init(&chunk->expressions,
					      &(*list)->expressions);
			(*list)->size = list_count(&(*list)->expressions);
		}
		expr_free(chunk);
	}
	elem_pack_evaluated(pack);
	if (ret < 0)
		return -1;
	return store ? 1 : 0;
}

/*
 * A scanned pack *@pack (elem_scan.c) of @set's declaration or of an
 * element command: if @set is still what its keys were read for, its
 * first element, made again as IR, is evaluated as usual and must give
 * the first key; the keys take its type. 1 if so, 0 when they are in
 * @list as IR instead (the pack freed), -1 on errors (queued).
 */
static int scan_adopt(struct eval_ctx *ctx, struct set *set,
		      struct elem_pack **pack, struct expr *list, bool ranges)
{
	const struct elem_scan_region *r = elem_pack_region(*pack);
	struct expr *one, *first;
	int ret = 0;
	bool ok;

	if (elem_scan_kind_of(set) == r->kind && r->ranges == ranges) {
		one = list_expr_alloc(&set->location, EXPR_SET);
		if (!one || elem_scan_unpack(r, one, 1) != 1) {
			expr_free(one);
			return -1;
		}
		ret = ranges ? set_elements_type(ctx, set, one) :
			       set_elements_evaluate(ctx, set, one);
		first = list_empty(&one->expressions) ? NULL :
			list_first_entry(&one->expressions, struct expr, list);
		ok = ret == 0 && one->size == 1 && first && plain_elem(first) &&
		     elem_pack_scan_adopt(*pack, first->elem.key);
		expr_free(one);
		if (ret < 0)
			return -1;
		if (ok)
			return 1;
	}
	if (elem_pack_unpack(*pack, list) < 0)
		ret = -1;
	elem_pack_free(*pack);
	*pack = NULL;
	return ret;
}

/**
 * set_pack_evaluate - the elements of a declaration with packed ones
 *
 * set->init's, then the packed ones, as set_elements_evaluate() would
 * evaluate them all in set->init. Returns 0 or -1 with errors queued.
 */
int set_pack_evaluate(struct eval_ctx *ctx, struct set *set)
{
	bool ranges = set_takes_ranges(set);
	int ret;

	if (!elem_pack_is_raw(set->pack))
		return set_elements_evaluate(ctx, set, set->init);
	if (!ranges && !set_takes_keys(set)) {
		if (set_pack_unpack(set) < 0)
			return -1;
		return set_elements_evaluate(ctx, set, set->init);
	}
	if (elem_pack_region(set->pack)) {
		if (!set->init)
			set->init = list_expr_alloc(&set->location, EXPR_SET);
		if (!set->init)
			return -1;
		ret = scan_adopt(ctx, set, &set->pack, set->init, ranges);
		if (ret <= 0)
			return ret < 0 ? -1 :
			       set_elements_evaluate(ctx, set, set->init);
	}
	ret = pack_type(ctx, set, set->pack, &set->init, ranges);
	if (ret < 0)
		return -1;
	if (ret == 0) {
		elem_pack_free(set->pack);
		set->pack = NULL;
		if (ranges && set_elements_normalize(ctx, set, set->init) < 0)
			return -1;
		return 0;
	}
	if (ranges && elem_pack_normalize(set->pack, &ctx->nft->erq,
					  set->automerge) < 0)
		return -1;
	if (!elem_pack_count(set->pack)) {
		elem_pack_free(set->pack);
		set->pack = NULL;
	}
	return 0;
}

/**
 * elems_pack_evaluate - an element command's elements, @elems and the
 * packed ones (*@pack, elem_pack.h)
 *
 * A set that checks no element against another (no interval, map data
 * or concatenation) keeps the packed keys; any other gets them back in
 * @elems as IR first. Returns what set_elements_evaluate() returns.
 */
int elems_pack_evaluate(struct eval_ctx *ctx, struct set *set,
			struct elem_pack **pack, struct expr *elems)
{
	int ret;

	if (!*pack || !elem_pack_is_raw(*pack) || !set_takes_keys(set) ||
	    !set->key || !set->key->dtype) {
		if (*pack && elem_pack_unpack(*pack, elems) < 0)
			return -1;
		elem_pack_free(*pack);
		*pack = NULL;
		return set_elements_evaluate(ctx, set, elems);
	}
	if (elem_pack_region(*pack)) {
		ret = scan_adopt(ctx, set, pack, elems, false);
		if (ret <= 0)
			return ret < 0 ? -1 : set_elements_evaluate(ctx, set,
								    elems);
	}
	ret = pack_type(ctx, set, *pack, &elems, false);
	if (ret <= 0 || !elem_pack_count(*pack)) {
		elem_pack_free(*pack);
		*pack = NULL;
	}
	return ret < 0 ? -1 : 0;
}
