/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_FMT_H
#define NFTC_FMT_H

/*
 * Numbers into text without printf: listing a big ruleset prints a few
 * of them per rule, and vfprintf's format parsing cost more than the
 * rest of printing the rule. And back: the dotted quad in the one form
 * inet_pton(AF_INET) takes, without its generic loop.
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

/*
 * "0x" and @v in lowercase hex into @s (11 bytes): @width digits, or as
 * few as @v needs when @width is 0; NUL-terminated, the end.
 */
static inline char *fmt_hex32(char *s, uint32_t v, unsigned int width)
{
	unsigned int n = 0;
	char tmp[8];

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v || n < width);
	*s++ = '0';
	*s++ = 'x';
	while (n)
		*s++ = tmp[--n];
	*s = '\0';
	return s;
}

/* Decimal @v (0-255) into @s, not NUL-terminated; the end. */
static inline char *fmt_u8(char *s, unsigned int v)
{
	if (v >= 100) {
		*s++ = '0' + v / 100;
		v %= 100;
		*s++ = '0' + v / 10;
	} else if (v >= 10) {
		*s++ = '0' + v / 10;
	}
	*s++ = '0' + v % 10;
	return s;
}

/* "a.b.c.d" of 4 bytes in network order into @s (16 bytes),
 * NUL-terminated; the end. */
static inline char *fmt_ip4(char *s, const uint8_t *a)
{
	s = fmt_u8(s, a[0]);
	*s++ = '.';
	s = fmt_u8(s, a[1]);
	*s++ = '.';
	s = fmt_u8(s, a[2]);
	*s++ = '.';
	s = fmt_u8(s, a[3]);
	*s = '\0';
	return s;
}

/* fmt_ip4() of the host-order address @v. */
static inline char *fmt_ip4_u32(char *s, uint32_t v)
{
	const uint8_t a[4] = { v >> 24, v >> 16, v >> 8, v };

	return fmt_ip4(s, a);
}

/* The value of the hex digit @c (either case); -1 if @c is none. */
static inline int fmt_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * One number of a dotted quad: 1-3 digits without a leading zero, at
 * most 255 (the text ends with a NUL: nothing past it is read).
 */
static inline const char *fmt_parse_octet(const char *s, uint8_t *out)
{
	unsigned int d0 = (unsigned char)s[0] - '0', d1, d2, v;

	if (d0 > 9)
		return NULL;
	d1 = (unsigned char)s[1] - '0';
	if (d1 > 9) {
		*out = (uint8_t)d0;
		return s + 1;
	}
	if (!d0)
		return NULL;
	d2 = (unsigned char)s[2] - '0';
	if (d2 > 9) {
		*out = (uint8_t)(d0 * 10 + d1);
		return s + 2;
	}
	v = d0 * 100 + d1 * 10 + d2;
	if ((unsigned int)((unsigned char)s[3] - '0') <= 9 || v > 255)
		return NULL;
	*out = (uint8_t)v;
	return s + 3;
}

/*
 * Dotted quad, as the scanner's ip4addr and inet_pton(AF_INET) take
 * it, into 4 bytes in network order: the end of it, NULL if @s does not
 * start with one.
 */
static inline const char *fmt_parse_ip4(const char *s, uint8_t *out)
{
	unsigned int i;

	for (i = 0; i < 4 && s; i++) {
		if (i && *s++ != '.')
			return NULL;
		s = fmt_parse_octet(s, &out[i]);
	}
	return s;
}

#endif
