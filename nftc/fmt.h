/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_FMT_H
#define NFTC_FMT_H

/*
 * Numbers into text without printf: listing a big ruleset prints a few
 * of them per rule, and vfprintf's format parsing cost more than the
 * rest of printing the rule.
 */

#include <stdint.h>

/* Decimal @v into @s (21 bytes are enough), NUL-terminated; the end. */
static inline char *fmt_u64(char *s, uint64_t v)
{
	char tmp[20];
	unsigned int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*s++ = tmp[--n];
	*s = '\0';
	return s;
}

/* "a.b.c.d" of 4 bytes in network order into @s (16 bytes); the end. */
static inline char *fmt_ip4(char *s, const uint8_t *a)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (i)
			*s++ = '.';
		s = fmt_u64(s, a[i]);
	}
	return s;
}

#endif
