/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_DELIN_PACK_H
#define NFTC_DELIN_PACK_H

/*
 * Listing's compact elements (see delin_pack.c).
 *
 * "nft list" of a named plain set (one non-string, non-flag key, no
 * data) keeps the elements the kernel dumps as their key bytes, not as
 * IR: sorted and, for interval sets, folded into [low, high] pairs on
 * those bytes, and made into IR one at a time while printing. The first
 * element that needs more (timeout, comment, expressions, a key end,
 * the catch-all...) turns the set back to IR: what was packed is
 * appended to set->init as nftc_delinearize_set_elems() would have.
 */
#include <stdbool.h>
#include <stdio.h>
#include <linux/netlink.h>
#include "expr.h"
#include "rule.h"

struct delin_pack;

/*
 * Add the elements of dump message @nlh to @set packed: 1 if done, 0 if
 * the caller must add them as IR (set->init holds what was packed
 * before, in the kernel's order), -ENOMEM. With @anon, anonymous sets
 * (not interval ones) are packed too: a listing's 20,000 of them held
 * as IR until their rules were printed took most of its memory. They
 * must be made IR with delin_pack_unpack() before they are used.
 */
int delin_pack_msg(struct set *set, const struct nlmsghdr *nlh, bool anon);
/* @set's packed elements as IR in set->init (in their sorted order). */
int delin_pack_unpack(struct set *set);
/*
 * @set's packed records, if it is packed, has no intervals and its keys
 * are @kb bytes, most significant first (a big endian key): their count
 * (in their sorted order, that of delin_pack_unpack()), records at *@v;
 * else -1.
 */
int delin_pack_plain(const struct set *set, unsigned int kb,
		     const uint8_t **v);
/* @set's packed elements gone (printed from their bytes). */
void delin_pack_drop(struct set *set);
/* All elements in: sort them, fold intervals. False if not packed. */
bool delin_pack_done(struct set *set);
void delin_pack_free(struct delin_pack *p);

/* Elements to print (0 if none or not packed). */
unsigned int delin_pack_count(const struct delin_pack *p);
/*
 * Print element @k straight from its bytes, as its IR would print; false
 * for types not printed so (then print delin_pack_elem()).
 */
bool delin_pack_print(const struct delin_pack *p, unsigned int k, FILE *f);
/* Element @k as IR, as the IR path would list it (free it after). */
struct expr *delin_pack_elem(const struct delin_pack *p, unsigned int k);

#endif
