// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Userspace implementation of the nftvm shims (include/nftvm/compat.h):
 * the only file of libnftvm that uses libc.  A kernel build replaces it
 * with a kmalloc-based twin.
 */
#include <stdlib.h>
#include <nftvm/compat.h>

void *nftvm_alloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void nftvm_free(void *p)
{
	free(p);
}
