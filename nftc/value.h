/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_VALUE_H
#define NFTC_VALUE_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

/* Largest constant the compiler handles: a full 16-register concatenation. */
#define NFTC_VALUE_MAX		64

#define BITS_TO_BYTES(bits)	(((bits) + 7) / 8)

/**
 * enum byteorder - how a value is laid out in a VM register
 * @BYTEORDER_INVALID: not known yet (raw symbols)
 * @BYTEORDER_HOST: host endian (meta mark, ct mark, lengths, ...)
 * @BYTEORDER_BIG: network order, and raw byte strings (interface names)
 */
enum byteorder {
	BYTEORDER_INVALID,
	BYTEORDER_HOST,
	BYTEORDER_BIG,
};

/**
 * struct value - a fixed-width unsigned number, kept canonical
 * @len: width in bits
 * @data: BITS_TO_BYTES(len) bytes, most significant byte first
 *
 * The compiler computes on numbers (interval merging, prefixes, masks,
 * shifts) in this canonical form whatever the register byte order is;
 * value_to_reg() lays it out for the VM. A string is the number whose
 * first byte is its first character, so the canonical form of a string is
 * its bytes.
 */
struct value {
	unsigned int	len;
	uint8_t		data[NFTC_VALUE_MAX];
};

void value_init(struct value *v, unsigned int len);
void value_set_u64(struct value *v, unsigned int len, uint64_t n);
uint64_t value_get_u64(const struct value *v);
/* Bytes are big-endian (network order), @len bits wide. */
void value_set_bytes(struct value *v, unsigned int len, const void *be);
/* Change width: truncate high bits or zero-extend. */
void value_resize(struct value *v, unsigned int len);
/*
 * Added: change width keeping the leading bytes, for strings: zero
 * padding or cutting at the end (value_resize works on the number).
 */
void value_resize_bytes(struct value *v, unsigned int len);
bool value_is_zero(const struct value *v);
/* Added: does the number @v fit in @len bits? */
bool value_fits(const struct value *v, unsigned int len);
/* Added: decimal text of @v into @buf (160 bytes hold any value). */
void value_to_dec(const struct value *v, char *buf, size_t size);
/* Compare as unsigned numbers of the same width. */
int value_cmp(const struct value *a, const struct value *b);
/* Returns true on wrap-around. */
bool value_inc(struct value *v);
bool value_dec(struct value *v);
void value_and(struct value *r, const struct value *a, const struct value *b);
void value_or(struct value *r, const struct value *a, const struct value *b);
void value_xor(struct value *r, const struct value *a, const struct value *b);
void value_not(struct value *r, const struct value *a);
void value_shl(struct value *v, unsigned int n);
void value_shr(struct value *v, unsigned int n);
/* All ones in the top @plen bits of a @len-bit value. */
void value_prefix_mask(struct value *v, unsigned int len, unsigned int plen);
/* Length of the prefix if @v is a prefix mask, -1 otherwise. */
int value_mask_to_prefix(const struct value *v);
/* Bit @n (0 = least significant). */
bool value_test_bit(const struct value *v, unsigned int n);
void value_set_bit(struct value *v, unsigned int n);
unsigned int value_popcount(const struct value *v);

/*
 * Lay out @v as register bytes: @len bytes, in @order. Host order on a
 * little-endian machine reverses the canonical bytes.
 */
void value_to_reg(const struct value *v, enum byteorder order,
		  uint8_t *buf, unsigned int len);
void value_from_reg(struct value *v, unsigned int len_bits,
		    enum byteorder order, const uint8_t *buf);

#endif
