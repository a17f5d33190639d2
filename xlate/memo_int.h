/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef XLATE_MEMO_INT_H
#define XLATE_MEMO_INT_H

/*
 * The translation memo's keys and values (memo_key.c), for memo.c: a
 * rule's words as a key with holes where values of known classes are,
 * the texts a value prints as, and other values of the same class.
 */

#include <stddef.h>
#include <stdint.h>
#include "xlate_int.h"

#define MEMO_HOLES	16
#define MEMO_WORDS	128
#define MEMO_KEY	4096

enum memo_kind { MK_ADDR, MK_PORT, MK_MARK, MK_DIGITS };
enum memo_fmt { MF_DEC, MF_ADDR, MF_HEX8 };

/* A value in the key's place of it: word @word, bytes @off..@off+@len. */
struct memo_hole {
	uint8_t			kind;
	uint8_t			plen;		/* MK_ADDR */
	uint16_t		word;
	uint16_t		off;		/* of the value in the word */
	uint16_t		len;
	uint32_t		v;
	uint32_t		mask;		/* MK_MARK: its mask */
};

/*
 * The key of the rule @tok[0..n) of @c (at most MEMO_KEY bytes, room for
 * 8 more), its holes in @h (MEMO_HOLES): the key's length, 0 when the
 * rule cannot be memoized.
 */
size_t xl_memo_key(const struct xlate_ctx *ctx, const struct xl_table *t,
		   const struct xl_chain *c, const struct xl_token *tok,
		   unsigned int n, unsigned char *key, struct memo_hole *h,
		   unsigned int *nh);
/* The hash of key @k[0..n), which has 8 bytes of room after @n. */
uint32_t xl_memo_hash(unsigned char *k, size_t n);
uint32_t xl_memo_prefix_mask(unsigned int plen);
/* Value @v of @h as formatter @fmt prints it into @s (24 bytes). */
size_t xl_memo_slot_fmt(unsigned int fmt, const struct memo_hole *h,
			uint32_t v, char *s);
/* Value @v of @h as the input would write it. */
size_t xl_memo_input_fmt(const struct memo_hole *h, uint32_t v, char *s);
/* The formatters a slot of @h may have, in the order tried. */
const uint8_t *xl_memo_hole_fmts(const struct memo_hole *h, unsigned int *n);
/* Other values of @h's class (up to 16, some maybe outside it). */
unsigned int xl_memo_probe_values(const struct memo_hole *h, uint32_t *out);

#endif
