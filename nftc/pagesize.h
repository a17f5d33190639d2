/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_PAGESIZE_H
#define NFTC_PAGESIZE_H

#include <stddef.h>
#include <unistd.h>

/*
 * The system's page size, asked once: sysconf() is a few hundred
 * instructions, and the scanner and the batch want it per line and per
 * message.
 */
static inline size_t nftc_page_size(void)
{
	static size_t pg;

	if (!pg) {
		long n = sysconf(_SC_PAGESIZE);

		pg = n > 0 ? (size_t)n : 4096;
	}
	return pg;
}

#endif
