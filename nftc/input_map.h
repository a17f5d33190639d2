/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_INPUT_MAP_H
#define NFTC_INPUT_MAP_H

/*
 * Big input files in memory of their own (see input_map.c): the pages
 * of text the element scan has read are given back, and read again from
 * the file when a diagnostic or the scan needs them.
 */
#include <stddef.h>
#include "location.h"

/* Files smaller than this are read into the heap as ever. */
#define INPUT_MAP_MIN	(256 * 1024)

/*
 * Read regular file @path (at least INPUT_MAP_MIN bytes) into a mapping
 * of its own with two NULs after its @size bytes; *@map_len is its
 * length. NULL when it is not (the caller reads it).
 */
char *input_map_file(const char *path, size_t *size, size_t *map_len);
/* Unmap what input_map_file() gave @in, and forget what was released. */
void input_unmap(struct input_desc *in);

/*
 * The text of @in between @from and @to (offsets) will not be scanned
 * again: give its whole pages back (they read as NULs until restored).
 */
void input_release(const struct input_desc *in, size_t from, size_t to);
/* Read the released text of @in between @from and @to from the file. */
void input_restore(const struct input_desc *in, size_t from, size_t to);

#endif
