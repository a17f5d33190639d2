/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_NODE_CACHE_H
#define NFTC_NODE_CACHE_H

/*
 * A free list of IR nodes of one size (expressions, statements, rules).
 *
 * A compile allocates and frees some twenty nodes per rule, all of a few
 * sizes; struct expr (144 bytes) is above glibc's fast bins, so once the
 * thread cache's seven slots are full every free went through _int_free
 * and its bin consolidation (~75 instructions a node). Freed nodes are
 * kept here instead and handed out again; ownership and reference counts
 * are unchanged (a node is still freed exactly once, by whoever drops
 * its last reference).
 *
 * At most NODE_CACHE_MAX nodes are kept (the rest go back to malloc).
 * The bound is high: a tool that holds every rule (ipt2nft prints them
 * at the end) frees them all at once, and glibc would not give that
 * memory back to the system either (it is reused by the next
 * allocations), only take ~75 instructions a node to bin it. Nodes kept
 * at exit are reachable from the cache, which leak checkers do not
 * report.
 *
 * Memory checkers: an ASan build bypasses the cache (so a use after free
 * is still caught); under valgrind's memcheck a cached node is marked
 * inaccessible but for its first pointer, the link (memcheck then
 * reports a use after free as an invalid read/write, and its leak check
 * still follows the links). Whether memcheck runs is asked once per
 * cache (it answers -1 to a client request other tools answer 0 to):
 * the requests are ~11 instructions a node that runs without memcheck
 * skip, callgrind included.
 */
#include <stdbool.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define NODE_CACHE_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)	/* clang */
#define NODE_CACHE_ASAN	1
#endif
#endif

#ifdef NODE_CACHE_ASAN
#define NODE_CACHE_MAX	0
#else
#define NODE_CACHE_MAX	(1u << 20)
#endif

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define NODE_CACHE_VG	1
#endif
#endif
#ifndef NODE_CACHE_VG
#define VALGRIND_MAKE_MEM_NOACCESS(p, n)	((void)(p), (void)(n), 0)
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n)	((void)(p), (void)(n), 0)
#define VALGRIND_MAKE_MEM_DEFINED(p, n)		((void)(p), (void)(n), 0)
#endif

struct node_cache_link {
	struct node_cache_link	*next;
};

/**
 * struct node_cache - free nodes of one size
 * @head: the most recently freed node
 * @count: nodes kept
 * @probed: @memcheck is known
 * @memcheck: running under valgrind's memcheck
 */
struct node_cache {
	struct node_cache_link	*head;
	unsigned int		count;
	bool			probed;
	bool			memcheck;
};

static inline bool node_cache_memcheck(struct node_cache *c)
{
	char probe = 0;

	if (!c->probed) {
		c->probed = true;
		c->memcheck = VALGRIND_MAKE_MEM_DEFINED(&probe, 1) == -1;
	}
	return c->memcheck;
}

/* node_cache_get - a node of @size bytes, uninitialised (NULL: no memory) */
static inline void *node_cache_get(struct node_cache *c, size_t size)
{
	struct node_cache_link *n = c->head;

	if (!n)
		return malloc(size);
	c->head = n->next;
	c->count--;
	if (node_cache_memcheck(c))
		VALGRIND_MAKE_MEM_UNDEFINED(n, size);
	return n;
}

/* node_cache_put - give back a node of @size bytes got from @c */
static inline void node_cache_put(struct node_cache *c, void *p, size_t size)
{
	struct node_cache_link *n = p;

	if (c->count >= NODE_CACHE_MAX) {
		free(p);
		return;
	}
	n->next = c->head;
	c->head = n;
	c->count++;
	if (node_cache_memcheck(c))
		VALGRIND_MAKE_MEM_NOACCESS(n + 1, size - sizeof(*n));
}

#endif
