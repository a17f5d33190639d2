/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_MISSPELL_H
#define NFTC_MISSPELL_H

/*
 * "did you mean ..." suggestions, chosen exactly as stock nft 1.0.6
 * chooses them, so that its messages can be matched word for word.
 */

#include <stdbool.h>

/*
 * The edit distance stock computes between candidate @cand and the name
 * written, @want. Stock's table has rows one entry short and compares
 * the characters after the current ones, so its figures are not the
 * textbook Damerau-Levenshtein distance (e.g. "input" is within reach
 * of "c"): this reproduces them.
 */
unsigned int misspell_distance(const char *cand, const char *want);

/*
 * Is @cand a better suggestion for @want than the best so far (*@best,
 * start with ~0u)? Stock's threshold: a third of the longer length
 * (plus two thirds when the lengths differ by more than one). Updates
 * *@best when it is.
 */
bool misspell_better(const char *cand, const char *want, unsigned int *best);

#endif
