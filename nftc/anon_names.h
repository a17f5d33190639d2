/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_ANON_NAMES_H
#define NFTC_ANON_NAMES_H

/*
 * Names for the anonymous sets of a streamed batch (anon_names.c).
 *
 * Stock sends every anonymous set as "__set%d" and the kernel picks the
 * lowest number free in the table, walking all of the table's sets with
 * sscanf() for each new one: a quadratic cost that dominates loading
 * rulesets with many anonymous sets. Sending the name the kernel would
 * have picked spares that walk and lets rules and elements find the set
 * by name rather than by a walk of the transaction list (set id). The
 * names are the kernel's own (the lowest free number), so listings,
 * --debug=netlink listings included, are unchanged.
 *
 * The numbers a table already holds are read once (a set dump of the
 * table, names only) before its first anonymous set; a table created
 * after "flush ruleset" or "delete table" in the same batch is known to
 * be empty. Numbers are never given back within a batch (a rule deleted
 * earlier in it may have freed some: the kernel would reuse them, we do
 * not), so a name never collides with what the batch leaves. A race
 * with another writer is caught by the kernel (NLM_F_EXCL on the set):
 * the batch then fails whole and is redone with "__set%d".
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct anon_names;
struct nftc_offline;

/* Set to "0" in the environment: every anonymous set is "__set%d". */
#define ANON_NAMES_ENV	"NFTKIT_ANON_NAMES"

/* Reading names through @off (NULL: the kernel); NULL: no memory. */
struct anon_names *anon_names_new(struct nftc_offline *off);
void anon_names_free(struct anon_names *an);

/*
 * The name the @i-th next anonymous set (map with @map) of table
 * @family @table would get, into @buf (@len bytes). Returns its length,
 * or -1 when the table's names cannot be known (no kernel to ask): use
 * "__set%d" then.
 */
int anon_names_peek(struct anon_names *an, uint32_t family,
		    const char *table, bool map, unsigned int i, char *buf,
		    size_t len);
/* The next @n names (as peeked) are taken. */
void anon_names_take(struct anon_names *an, uint32_t family,
		     const char *table, bool map, unsigned int n);
/* A set of any kind named @name is created in the table. */
void anon_names_note(struct anon_names *an, uint32_t family,
		     const char *table, const char *name);
/*
 * Every table of @family (0: of all families), or table @table of
 * @family only, is gone: whatever takes the name later is empty.
 */
void anon_names_forget(struct anon_names *an, uint32_t family,
		       const char *table);

#endif
