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
 * New nodes come in slabs of NODE_SLAB (one malloc, not one a node: a
 * tool that holds every rule, ipt2nft, allocates its whole IR before
 * freeing any of it, at ~190 instructions a malloc'ed node). Slab nodes
 * are never given back to malloc: a freed node always goes on the list
 * (glibc would not return that memory to the system either, it keeps
 * it for the next allocations; ipt2nft's peak RSS went down, without
 * malloc's header a node).
 *
 * Memory checkers: an ASan build bypasses the cache (so a use after free
 * is still caught). Under valgrind's memcheck there are no slabs (each
 * node is its own malloc block, for the leak check), at most
 * NODE_CACHE_MAX nodes are kept (the rest are freed), and a cached node
 * is marked inaccessible but for its first pointer, the link (memcheck
 * then reports a use after free as an invalid read/write, and its leak
 * check still follows the links). Whether memcheck runs is asked once
 * per cache (it answers -1 to a client request other tools answer 0
 * to): the requests are ~11 instructions a node that runs without
 * memcheck skip, callgrind included.
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
#define NODE_SLAB	32

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
 * @slabs: nodes come from slabs (so none may be passed to free())
 */
struct node_cache {
	struct node_cache_link	*head;
	unsigned int		count;
	bool			probed;
	bool			memcheck;
	bool			slabs;
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

/* A slab's node size: a multiple of 16, malloc's alignment. */
static inline size_t node_cache_stride(size_t size)
{
	return (size + 15) & ~(size_t)15;
}

/* The first node of a new slab; the others go on the list. */
__attribute__((noinline, cold))
static void *node_cache_slab(struct node_cache *c, size_t size)
{
	size_t stride = node_cache_stride(size);
	char *slab = malloc(stride * NODE_SLAB);
	struct node_cache_link *n;
	unsigned int i;

	if (!slab)
		return NULL;
	c->slabs = true;
	for (i = NODE_SLAB - 1; i > 0; i--) {
		n = (struct node_cache_link *)(slab + i * stride);
		n->next = c->head;
		c->head = n;
	}
	c->count += NODE_SLAB - 1;
	return slab;
}

/* node_cache_get - a node of @size bytes, uninitialised (NULL: no memory) */
static inline void *node_cache_get(struct node_cache *c, size_t size)
{
	struct node_cache_link *n = c->head;

	if (!n) {
		if (NODE_CACHE_MAX == 0 || node_cache_memcheck(c))
			return malloc(size);
		return node_cache_slab(c, size);
	}
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

	if (!c->slabs && c->count >= NODE_CACHE_MAX) {
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
