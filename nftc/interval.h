/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_INTERVAL_H
#define NFTC_INTERVAL_H

#include <stdbool.h>
#include "expr.h"
#include "erec.h"

/*
 * Interval sets. Evaluation normalises the elements of an interval set
 * (interval_set_normalize: every key becomes an EXPR_RANGE of two
 * EXPR_VALUEs, sorted by low end, overlaps merged or reported), then the
 * linearizer turns each range into the start/end element pairs the
 * kernel's rbtree backend wants (interval_expand).
 *
 * Elements of an EXPR_SET are EXPR_SET_ELEM (key in elem.key, NULL for
 * the catch-all "*") or EXPR_MAPPING whose left is such an EXPR_SET_ELEM.
 */

/**
 * enum interval_mode - what to do with overlapping ranges
 * @INTERVAL_CHECK: report "conflicting intervals specified" when two
 *                  ranges overlap (identical ranges are kept): named
 *                  sets and maps without auto-merge, anonymous maps
 * @INTERVAL_MERGE: merge overlapping and adjacent ranges (anonymous
 *                  sets, named sets with auto-merge)
 * @INTERVAL_SORT: only sort (named maps with auto-merge)
 * @INTERVAL_SPLIT: maps: where a range contains another one, split it
 *                  so that the smaller range's data wins; report
 *                  partial overlaps and identical ranges with
 *                  different data
 */
enum interval_mode {
	INTERVAL_CHECK,
	INTERVAL_MERGE,
	INTERVAL_SORT,
	INTERVAL_SPLIT,
};

/* The EXPR_SET_ELEM of an element (itself or a mapping's left side). */
struct expr *interval_elem(const struct expr *i);

/*
 * The bounds of a constant key: a value [v, v], a prefix (host bits
 * ignored) or a range. Returns 0, or -1 when @key is none of these.
 */
int interval_key_range(const struct expr *key, struct value *low,
		       struct value *high);

int interval_set_normalize(struct erec_queue *erq, struct expr *init,
			   enum interval_mode mode);

/**
 * struct interval_point - one element message of an expanded interval set
 * @key: the key (canonical form)
 * @end: NFT_SET_ELEM_INTERVAL_END: the previous range stops before @key
 * @open: the range runs to the largest key: no end element follows
 *        (stock records NFTNL_SET_ELEM_F_INTERVAL_OPEN in userdata)
 * @elem: the element starting here (data, timeout, comment); NULL for
 *        end elements
 */
struct interval_point {
	struct value		key;
	bool			end;
	bool			open;
	const struct expr	*elem;
};

enum interval_expand_flags {
	INTERVAL_F_ANONYMOUS	= (1 << 0),	/* no end between adjacent */
	INTERVAL_F_FIRST	= (1 << 1),	/* emit the leading zero end */
};

/*
 * Expand the normalised elements of @init into start/end points, in
 * order: a leading end element at 0 (when INTERVAL_F_FIRST and the first
 * range does not start at 0), then per range its start and an end
 * element at high + 1 (none when high is the largest key, none between
 * adjacent ranges of anonymous sets). Catch-all elements and elements
 * flagged EXPR_F_EXISTING are skipped.
 * Returns the number of points (*pts malloc'ed, NULL when 0) or -1 on
 * allocation failure.
 */
int interval_expand(const struct expr *init, unsigned int flags,
		    struct interval_point **pts);
/*
 * The same points handed to @cb one at a time; a negative return of @cb
 * stops and is returned. Returns the number of points otherwise.
 */
int interval_expand_each(const struct expr *init, unsigned int flags,
			 int (*cb)(void *priv, const struct interval_point *p),
			 void *priv);
/*
 * The same for ranges from @next (sorted, disjoint; @elem the element a
 * start point carries), e.g. packed ones (elem_pack.h).
 */
int interval_points(bool (*next)(void *it, struct value *low,
				 struct value *high, const struct expr **elem),
		    void *it, unsigned int flags,
		    int (*cb)(void *priv, const struct interval_point *p),
		    void *priv);

#endif
