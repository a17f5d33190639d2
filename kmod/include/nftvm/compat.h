/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nftvm compatibility shims: the only place where the VM core meets its
 * environment.  The core includes this header (and the uapi headers) and
 * nothing else, so the same sources build as the userspace libnftvm and,
 * later, as a kernel module.  In userspace the out-of-line helpers are
 * implemented by compat_user.c on top of libc.
 */
#ifndef NFTVM_COMPAT_H
#define NFTVM_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
#else
#include <stddef.h>
#include <stdbool.h>
#include <linux/types.h>
#endif

#include <nftvm/errno.h>

/* Memory: every allocation is zeroed; nftvm_free() accepts NULL. */
void *nftvm_alloc(size_t size);
void nftvm_free(void *p);

/*
 * The compiler builtins turn into inline code for small constant sizes and
 * into calls to the environment's memcpy/memset/memcmp otherwise, which both
 * the kernel and libc provide.
 */
static inline void *nftvm_memcpy(void *d, const void *s, size_t n)
{
	return __builtin_memcpy(d, s, n);
}

static inline void *nftvm_memmove(void *d, const void *s, size_t n)
{
	return __builtin_memmove(d, s, n);
}

static inline void *nftvm_memset(void *d, int c, size_t n)
{
	return __builtin_memset(d, c, n);
}

static inline int nftvm_memcmp(const void *a, const void *b, size_t n)
{
	return __builtin_memcmp(a, b, n);
}

/* Length of @s, at most @max: names from netlink are not trusted. */
static inline size_t nftvm_strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

static inline int nftvm_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Byte order: network order is big endian. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NFTVM_BIG_ENDIAN 1
static inline __u16 nftvm_ntohs(__u16 x) { return x; }
static inline __u32 nftvm_ntohl(__u32 x) { return x; }
static inline __u64 nftvm_ntohll(__u64 x) { return x; }
#else
#define NFTVM_BIG_ENDIAN 0
static inline __u16 nftvm_ntohs(__u16 x) { return __builtin_bswap16(x); }
static inline __u32 nftvm_ntohl(__u32 x) { return __builtin_bswap32(x); }
static inline __u64 nftvm_ntohll(__u64 x) { return __builtin_bswap64(x); }
#endif
#define nftvm_htons(x)	nftvm_ntohs(x)
#define nftvm_htonl(x)	nftvm_ntohl(x)
#define nftvm_htonll(x)	nftvm_ntohll(x)

/* Unaligned big-endian loads from packet bytes. */
static inline __u16 nftvm_get_be16(const void *p)
{
	const __u8 *b = p;

	return (__u16)(b[0] << 8 | b[1]);
}

static inline __u32 nftvm_get_be32(const void *p)
{
	const __u8 *b = p;

	return (__u32)b[0] << 24 | (__u32)b[1] << 16 | (__u32)b[2] << 8 | b[3];
}

#define NFTVM_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NFTVM_ALIGN(x, a)	(((x) + (a) - 1) & ~((size_t)(a) - 1))
#define NFTVM_DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define nftvm_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define NFTVM_BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)

#endif /* NFTVM_COMPAT_H */
