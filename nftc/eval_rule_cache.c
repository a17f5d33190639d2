// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rule cache: where "add/insert rule ... index N | position H |
 * handle H" puts a rule, as stock nft 1.0.6 decides it.
 *
 * When any rule command of a batch names an index, a position or a
 * handle, stock reads every rule of the kernel into its cache, and each
 * rule command of the batch (add, insert, replace; rules of table
 * blocks are adds) then places itself in the cache of its chain:
 *  - "index N" is the Nth rule of the chain (from 0) as the cache has it
 *    at that point; "add" goes after it, "insert" before it. A kernel
 *    rule is referred to by NFTA_RULE_POSITION (its handle), a rule of
 *    the same batch by NFTA_RULE_POSITION_ID (the id it then gets, as
 *    NFTA_RULE_ID);
 *  - "position H" and "handle H" (add/insert; the same thing) must name
 *    a rule of the cache, and "replace ... handle H" too;
 *  - without any of them, add appends and insert prepends.
 * A rule that is not there is "Could not process rule: No such file or
 * directory" at the index, position or handle. Deleted and flushed
 * rules stay in the cache (stock's does not follow them either).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "evaluate.h"

static bool cmd_places_rule(const struct cmd *c)
{
	const struct handle *h = &c->handle;

	if (c->obj != CMD_OBJ_RULE)
		return false;
	if (c->op != CMD_ADD && c->op != CMD_CREATE && c->op != CMD_INSERT)
		return false;
	return h->index.present || (h->position.present && h->position.id) ||
	       (h->handle.present && h->handle.id);
}

bool nftc_cmds_need_rule_cache(const struct list_head *cmds)
{
	const struct cmd *c;

	list_for_each_entry(c, cmds, list) {
		if (cmd_places_rule(c))
			return true;
	}
	return false;
}

bool nftc_cmds_read_rules(const struct list_head *cmds)
{
	const struct cmd *c;

	list_for_each_entry(c, cmds, list) {
		if (cmd_places_rule(c) ||
		    (c->obj == CMD_OBJ_RULE && c->op == CMD_REPLACE))
			return true;
	}
	return false;
}

/* Room for one more slot at @at of @c's rules; 0 or -ENOMEM. */
static int slot_insert(struct chain *c, unsigned int at, uint64_t handle,
		       struct handle *h)
{
	if (c->nslots == c->slots_cap) {
		unsigned int cap = c->slots_cap ? c->slots_cap * 2 : 16;
		struct rule_slot *s = realloc(c->slots, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		c->slots = s;
		c->slots_cap = cap;
	}
	memmove(c->slots + at + 1, c->slots + at,
		(c->nslots - at) * sizeof(*c->slots));
	c->slots[at].handle = handle;
	c->slots[at].h = h;
	c->nslots++;
	return 0;
}

/**
 * rule_cache_append - a kernel rule of @c, in the kernel's order
 */
int rule_cache_append(struct chain *c, uint64_t handle)
{
	return slot_insert(c, c->nslots, handle, NULL);
}

static int slot_find(const struct chain *c, uint64_t handle)
{
	unsigned int i;

	for (i = 0; i < c->nslots; i++) {
		if (c->slots[i].handle == handle)
			return i;
	}
	return -1;
}

static int not_found(struct eval_ctx *ctx, const struct location *loc)
{
	erec_error(&ctx->nft->erq, loc, "Could not process rule: %s",
		   strerror(ENOENT));
	return -1;
}

/* @rule goes next to slot @ref: by its handle, or by a rule id. */
static void link_rules(struct eval_ctx *ctx, struct rule *rule,
		       struct rule_slot *ref)
{
	struct handle *rh = &rule->handle;

	if (ref->handle) {
		rh->position.id = ref->handle;
		rh->position.present = true;
		rh->position.location = rh->index.location;
		return;
	}
	if (!ref->h->rule_id)
		ref->h->rule_id = ++ctx->nft->next_rule_id;
	rh->position_id = ref->h->rule_id;
}

/**
 * rule_cache_update - place the evaluated @rule of command @op in @c
 *
 * Only with the rule cache on (nftc_ctx.rule_cache). Returns 0, or -1
 * with an error queued.
 */
int rule_cache_update(struct eval_ctx *ctx, enum cmd_ops op, struct chain *c,
		      struct rule *rule)
{
	struct handle *rh = &rule->handle;
	int ref = -1, at;

	if (!ctx->nft->rule_cache || !c)
		return 0;
	if (rh->index.present) {
		if (rh->index.id >= c->nslots)
			return not_found(ctx, &rh->index.location);
		ref = rh->index.id;
		link_rules(ctx, rule, &c->slots[ref]);
	} else if (rh->handle.present && rh->handle.id) {
		ref = slot_find(c, rh->handle.id);
		if (ref < 0)
			return not_found(ctx, &rh->handle.location);
	} else if (rh->position.present && rh->position.id) {
		ref = slot_find(c, rh->position.id);
		if (ref < 0)
			return not_found(ctx, &rh->position.location);
	}
	switch (op) {
	case CMD_INSERT:
		at = ref < 0 ? 0 : ref;
		break;
	case CMD_ADD:
	case CMD_CREATE:
		at = ref < 0 ? (int)c->nslots : ref + 1;
		break;
	case CMD_REPLACE:
		if (ref < 0)
			return 0;
		/* the new rule takes the place, under the old handle */
		c->slots[ref].h = rh;
		return 0;
	default:
		return 0;
	}
	if (slot_insert(c, at, 0, rh) < 0) {
		erec_error(&ctx->nft->erq, &rule->location, "out of memory");
		return -1;
	}
	return 0;
}
