/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FNV-1a (32 bits): the one string and byte hash of name tables and
 * trace ids. Not for keys an attacker chooses in bulk.
 */
#ifndef NFTC_HASH_H
#define NFTC_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV_BASIS	2166136261u
#define HASH_FNV_PRIME	16777619u

/* The hash of the @n bytes at @p. */
static inline uint32_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint32_t h = HASH_FNV_BASIS;

	while (n--)
		h = (h ^ *b++) * HASH_FNV_PRIME;
	return h;
}

/* The hash of the string @s; its length into *@len unless @len is NULL. */
static inline uint32_t hash_str(const char *s, size_t *len)
{
	uint32_t h = HASH_FNV_BASIS;
	size_t n = 0;

	for (; s[n]; n++)
		h = (h ^ (unsigned char)s[n]) * HASH_FNV_PRIME;
	if (len)
		*len = n;
	return h;
}

#endif
