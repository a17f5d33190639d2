// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Evaluation of the packed elements of a set declaration (elem_pack.h).
 *
 * A set whose elements are each checked on their own (no intervals, no
 * map data, no concatenation) keeps them packed: they are evaluated a
 * chunk at a time through set_elements_evaluate(), like any batch of
 * elements, and only their keys' bytes are kept. Any other set gets them
 * back in set->init as IR before its elements are evaluated.
 */
#include <stdlib.h>
#include "evaluate.h"
#include "elem_pack.h"
#include "rule.h"

/* Elements evaluated a chunk at a time from a pack. */
#define PACK_CHUNK	1024

/*
 * Can @set keep packed keys (elem_pack.h)? Not when its elements are
 * checked against each other or carry more than a key: intervals, maps,
 * concatenations.
 */
bool set_takes_pack(const struct set *set)
{
	return !(set->flags & (SET_F_INTERVAL | SET_F_MAP | SET_F_OBJECT |
			       SET_F_ANONYMOUS | SET_F_CONCAT)) &&
	       !set->data && set->key && set->key->kind != EXPR_CONCAT;
}

/**
 * set_pack_unpack - put the packed elements of @set back in set->init
 *
 * As IR, in order: whatever walks set->init sees every element.
 * Returns 0 or -1 without memory.
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

/* Keep @i's key in the pack; false if the element is more than a key. */
static bool pack_store(struct set *set, const struct expr *i)
{
	if (i->kind != EXPR_SET_ELEM || !i->elem.key ||
	    i->elem.timeout || i->elem.expiration || i->elem.comment ||
	    !list_empty(&i->elem.stmts) || (i->flags & EXPR_F_EXISTING))
		return false;
	return elem_pack_store(set->pack, i->elem.key);
}

/*
 * The packed elements of @set, evaluated as set->init's are, a chunk of
 * IR at a time (the same errors at the same places); each key is kept
 * as bytes and the IR freed. An element that is more than a key (a name
 * resolving to several addresses, ...) sends what was kept and the rest
 * to set->init as IR, in order. Returns 0 or -1 with errors queued.
 */
int set_pack_evaluate(struct eval_ctx *ctx, struct set *set)
{
	struct expr *chunk, *i, *next;
	bool store = true;
	int ret = 0;

	if (!elem_pack_is_raw(set->pack))
		return 0;
	for (;;) {
		chunk = list_expr_alloc(&set->location, EXPR_SET);
		if (!chunk)
			return -1;
		if (!elem_pack_next_raw(set->pack, chunk, PACK_CHUNK)) {
			expr_free(chunk);
			break;
		}
		if (set_elements_evaluate(ctx, set, chunk) < 0) {
			expr_free(chunk);
			ret = -1;
			continue;
		}
		list_for_each_entry_safe(i, next, &chunk->expressions, list) {
			if (store && pack_store(set, i))
				continue;
			if (store) {
				/* from here on, elements stay IR */
				store = false;
				if (!set->init)
					set->init = list_expr_alloc(
						&set->location, EXPR_SET);
				if (!set->init ||
				    elem_pack_unpack_keys(set->pack,
							  set->init) < 0) {
					expr_free(chunk);
					return -1;
				}
			}
			list_del(&i->list);
			chunk->size--;
			list_expr_add(set->init, i);
		}
		expr_free(chunk);
	}
	elem_pack_evaluated(set->pack);
	if (!store || !elem_pack_count(set->pack)) {
		elem_pack_free(set->pack);
		set->pack = NULL;
	}
	return ret;
}
