/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_DESCRIBE_H
#define NFTC_DESCRIBE_H

#include <stdio.h>

struct expr;

/*
 * Print what stock "nft describe EXPR" prints for @selector: a selector
 * expression as the parser built it (payload, meta, ct, ... with its
 * dtype and len set), or an EXPR_SYMBOL naming a datatype
 * ("describe ipv4_addr"). Byte-identical to nft 1.0.6.
 */
void describe_expr(FILE *out, const struct expr *selector);

#endif
