/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixed-width unsigned numbers in canonical form: BITS_TO_BYTES(len)
 * bytes, most significant first, bits above @len always zero. Keeping
 * the unused high bits clear lets comparison be a plain memcmp.
 */
#include <string.h>
#include "value.h"

static unsigned int value_bytes(const struct value *v)
{
	return BITS_TO_BYTES(v->len);
}

/* Clear the bits of the first byte that lie above @len. */
static void value_canonicalize(struct value *v)
{
	unsigned int rem = v->len % 8;
	unsigned int n = value_bytes(v);

	if (n == 0)
		return;
	if (rem)
		v->data[0] &= (uint8_t)((1u << rem) - 1);
	if (n < NFTC_VALUE_MAX)
		memset(v->data + n, 0, NFTC_VALUE_MAX - n);
}

static unsigned int clamp_len(unsigned int len)
{
	return len > NFTC_VALUE_MAX * 8 ? NFTC_VALUE_MAX * 8 : len;
}

/**
 * value_init - make @v a zero of width @len bits
 */
void value_init(struct value *v, unsigned int len)
{
	memset(v, 0, sizeof(*v));
	v->len = clamp_len(len);
}

/**
 * value_set_u64 - @v = @n, @len bits wide (high bits of @n truncated)
 */
void value_set_u64(struct value *v, unsigned int len, uint64_t n)
{
	unsigned int i, nb;

	value_init(v, len);
	nb = value_bytes(v);
	for (i = 0; i < nb && i < 8; i++) {
		v->data[nb - 1 - i] = n & 0xff;
		n >>= 8;
	}
	/* value_canonicalize() without its memset: the tail is zero */
	if (v->len % 8)
		v->data[0] &= (uint8_t)((1u << (v->len % 8)) - 1);
}

/**
 * value_get_u64 - the low 64 bits of @v
 */
uint64_t value_get_u64(const struct value *v)
{
	unsigned int i, nb = value_bytes(v);
	uint64_t n = 0;

	for (i = nb > 8 ? nb - 8 : 0; i < nb; i++)
		n = (n << 8) | v->data[i];
	return n;
}

/**
 * value_set_bytes - @v = the big-endian number in @be, @len bits wide
 */
void value_set_bytes(struct value *v, unsigned int len, const void *be)
{
	value_init(v, len);
	memcpy(v->data, be, value_bytes(v));
	value_canonicalize(v);
}

/**
 * value_resize - change the width of @v, keeping its numeric value
 * modulo 2^@len (truncating high bits or zero-extending)
 */
void value_resize(struct value *v, unsigned int len)
{
	unsigned int ob = value_bytes(v), nb;
	uint8_t tmp[NFTC_VALUE_MAX];

	len = clamp_len(len);
	nb = BITS_TO_BYTES(len);
	memset(tmp, 0, sizeof(tmp));
	if (nb >= ob)
		memcpy(tmp + (nb - ob), v->data, ob);
	else
		memcpy(tmp, v->data + (ob - nb), nb);
	memcpy(v->data, tmp, sizeof(tmp));
	v->len = len;
	value_canonicalize(v);
}

/**
 * value_is_zero - is every bit of @v clear?
 */
bool value_is_zero(const struct value *v)
{
	unsigned int i, nb = value_bytes(v);

	for (i = 0; i < nb; i++)
		if (v->data[i])
			return false;
	return true;
}

/**
 * value_cmp - compare @a and @b as unsigned numbers
 *
 * Values of different widths compare by numeric value. Returns <0, 0, >0.
 */
int value_cmp(const struct value *a, const struct value *b)
{
	unsigned int na = value_bytes(a), nb = value_bytes(b);
	unsigned int n = na > nb ? na : nb, i;

	for (i = 0; i < n; i++) {
		uint8_t x = i + na >= n ? a->data[i + na - n] : 0;
		uint8_t y = i + nb >= n ? b->data[i + nb - n] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/**
 * value_inc - @v += 1 modulo 2^len; returns true when it wrapped to zero
 */
bool value_inc(struct value *v)
{
	int i;

	for (i = (int)value_bytes(v) - 1; i >= 0; i--) {
		if (++v->data[i] != 0)
			break;
	}
	value_canonicalize(v);
	return value_is_zero(v);
}

/**
 * value_dec - @v -= 1 modulo 2^len; returns true when it wrapped (was 0)
 */
bool value_dec(struct value *v)
{
	bool was_zero = value_is_zero(v);
	int i;

	for (i = (int)value_bytes(v) - 1; i >= 0; i--) {
		if (v->data[i]-- != 0)
			break;
	}
	value_canonicalize(v);
	return was_zero;
}

/*
 * Binary operators on values of possibly different widths: the result has
 * @a's width and @b is aligned on its least significant byte.
 */
enum value_binop { VB_AND, VB_OR, VB_XOR };

static void value_binop(struct value *r, const struct value *a,
			const struct value *b, enum value_binop op)
{
	unsigned int na = value_bytes(a), nb = value_bytes(b), i;
	struct value t = *a;

	for (i = 0; i < na; i++) {
		uint8_t y = i + nb >= na ? b->data[i + nb - na] : 0;

		switch (op) {
		case VB_AND:
			t.data[i] &= y;
			break;
		case VB_OR:
			t.data[i] |= y;
			break;
		case VB_XOR:
			t.data[i] ^= y;
			break;
		}
	}
	value_canonicalize(&t);
	*r = t;
}

/** value_and - @r = @a & @b (@r may alias either) */
void value_and(struct value *r, const struct value *a, const struct value *b)
{
	value_binop(r, a, b, VB_AND);
}

/** value_or - @r = @a | @b (@r may alias either) */
void value_or(struct value *r, const struct value *a, const struct value *b)
{
	value_binop(r, a, b, VB_OR);
}

/** value_xor - @r = @a ^ @b (@r may alias either) */
void value_xor(struct value *r, const struct value *a, const struct value *b)
{
	value_binop(r, a, b, VB_XOR);
}

/** value_not - @r = ~@a within @a's width */
void value_not(struct value *r, const struct value *a)
{
	unsigned int i, nb = value_bytes(a);
	struct value t = *a;

	for (i = 0; i < nb; i++)
		t.data[i] = ~t.data[i];
	value_canonicalize(&t);
	*r = t;
}

/**
 * value_shl - @v <<= @n, bits shifted past the width are lost
 */
void value_shl(struct value *v, unsigned int n)
{
	unsigned int nb = value_bytes(v), bytes = n / 8, bits = n % 8, i;
	uint8_t tmp[NFTC_VALUE_MAX];

	if (n >= v->len) {
		value_init(v, v->len);
		return;
	}
	memset(tmp, 0, sizeof(tmp));
	for (i = 0; i + bytes < nb; i++) {
		unsigned int src = i + bytes;
		uint8_t hi = v->data[src] << bits;
		uint8_t lo = (bits && src + 1 < nb) ?
			     v->data[src + 1] >> (8 - bits) : 0;

		tmp[i] = hi | lo;
	}
	memcpy(v->data, tmp, nb);
	value_canonicalize(v);
}

/**
 * value_shr - @v >>= @n (logical)
 */
void value_shr(struct value *v, unsigned int n)
{
	unsigned int nb = value_bytes(v), bytes = n / 8, bits = n % 8;
	uint8_t tmp[NFTC_VALUE_MAX];
	int i;

	if (n >= v->len) {
		value_init(v, v->len);
		return;
	}
	memset(tmp, 0, sizeof(tmp));
	for (i = (int)nb - 1; i >= (int)bytes; i--) {
		unsigned int src = i - bytes;
		uint8_t lo = v->data[src] >> bits;
		uint8_t hi = (bits && src > 0) ?
			     v->data[src - 1] << (8 - bits) : 0;

		tmp[i] = hi | lo;
	}
	memcpy(v->data, tmp, nb);
	value_canonicalize(v);
}

/**
 * value_test_bit - is bit @n (0 = least significant) of @v set?
 */
bool value_test_bit(const struct value *v, unsigned int n)
{
	unsigned int nb = value_bytes(v);

	if (n >= v->len)
		return false;
	return v->data[nb - 1 - n / 8] & (1u << (n % 8));
}

/**
 * value_set_bit - set bit @n (0 = least significant) of @v
 */
void value_set_bit(struct value *v, unsigned int n)
{
	unsigned int nb = value_bytes(v);

	if (n >= v->len)
		return;
	v->data[nb - 1 - n / 8] |= 1u << (n % 8);
}

/**
 * value_popcount - number of set bits of @v
 */
unsigned int value_popcount(const struct value *v)
{
	unsigned int i, nb = value_bytes(v), c = 0;

	for (i = 0; i < nb; i++)
		c += __builtin_popcount(v->data[i]);
	return c;
}

/**
 * value_prefix_mask - @v = @plen one bits followed by @len - @plen zeros
 */
void value_prefix_mask(struct value *v, unsigned int len, unsigned int plen)
{
	unsigned int i;

	value_init(v, len);
	if (plen > v->len)
		plen = v->len;
	for (i = 0; i < plen; i++)
		value_set_bit(v, v->len - 1 - i);
}

/**
 * value_mask_to_prefix - prefix length of a contiguous high mask
 *
 * Returns the number of leading one bits when every bit after them is
 * zero, -1 when @v is not of that shape.
 */
int value_mask_to_prefix(const struct value *v)
{
	unsigned int i = 0;

	while (i < v->len && value_test_bit(v, v->len - 1 - i))
		i++;
	for (unsigned int j = i; j < v->len; j++)
		if (value_test_bit(v, v->len - 1 - j))
			return -1;
	return i;
}

/**
 * value_to_reg - lay @v out as @len register bytes in @order
 *
 * Big endian copies the canonical bytes; host order (little endian on
 * the machines nft runs on) reverses them. A register wider than the
 * value is zero padded after the data, as a load zeroes the rest of a
 * register; a narrower one keeps the least significant bytes for host
 * order and the leading bytes for big endian (string prefixes).
 */
void value_to_reg(const struct value *v, enum byteorder order,
		  uint8_t *buf, unsigned int len)
{
	unsigned int nb = value_bytes(v), i;

	memset(buf, 0, len);
	if (order == BYTEORDER_HOST) {
		for (i = 0; i < nb && i < len; i++)
			buf[i] = v->data[nb - 1 - i];
	} else {
		memcpy(buf, v->data, nb < len ? nb : len);
	}
}

/**
 * value_from_reg - read a @len_bits wide value from register bytes
 */
void value_from_reg(struct value *v, unsigned int len_bits,
		    enum byteorder order, const uint8_t *buf)
{
	unsigned int nb, i;

	value_init(v, len_bits);
	nb = value_bytes(v);
	if (order == BYTEORDER_HOST) {
		for (i = 0; i < nb; i++)
			v->data[nb - 1 - i] = buf[i];
	} else {
		memcpy(v->data, buf, nb);
	}
	value_canonicalize(v);
}

/**
 * value_resize_bytes - change the width of a string-like value
 *
 * Keeps the first bytes: "eth0" padded to 16 bytes stays "eth0\0..".
 */
void value_resize_bytes(struct value *v, unsigned int len)
{
	unsigned int nb;

	len = clamp_len(len);
	nb = BITS_TO_BYTES(len);
	if (nb > value_bytes(v))
		memset(v->data + value_bytes(v), 0, nb - value_bytes(v));
	v->len = len;
	value_canonicalize(v);
}

/**
 * value_fits - does the number @v fit in @len bits?
 */
bool value_fits(const struct value *v, unsigned int len)
{
	unsigned int nb = value_bytes(v), i, full;

	if (len >= v->len)
		return true;
	/* Bytes wholly above @len, then the partial byte holding bit @len. */
	full = nb - BITS_TO_BYTES(len);
	for (i = 0; i < full; i++)
		if (v->data[i])
			return false;
	if (len % 8 && (v->data[full] >> (len % 8)))
		return false;
	return true;
}

/* @v /= @d, returns the remainder. */
static unsigned int value_divmod_small(struct value *v, unsigned int d)
{
	unsigned int i, nb = value_bytes(v), rem = 0;

	for (i = 0; i < nb; i++) {
		unsigned int cur = (rem << 8) | v->data[i];

		v->data[i] = cur / d;
		rem = cur % d;
	}
	return rem;
}

/**
 * value_to_dec - write the decimal text of @v into @buf
 * @size: size of @buf; 160 bytes hold the widest value
 */
void value_to_dec(const struct value *v, char *buf, size_t size)
{
	char tmp[NFTC_VALUE_MAX * 3 + 2];
	struct value t = *v;
	unsigned int n = 0, i;

	if (!size)
		return;
	do {
		tmp[n++] = '0' + value_divmod_small(&t, 10);
	} while (!value_is_zero(&t) && n < sizeof(tmp));
	for (i = 0; i < n && i + 1 < size; i++)
		buf[i] = tmp[n - 1 - i];
	buf[i] = '\0';
}
