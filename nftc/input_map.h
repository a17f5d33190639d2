/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_INPUT_MAP_H
#define NFTC_INPUT_MAP_H

/*
 * Big input files mapped rather than read (see input_map.c), and the
 * pages of text the scanner is done with given back.
 */
#include <stddef.h>
#include "location.h"

/* Files smaller than this are read into memory as ever. */
#define INPUT_MAP_MIN	(256 * 1024)

/*
 * Map regular file @path (at least INPUT_MAP_MIN bytes) privately with
 * two NULs after its @size bytes; *@map_len is what input_unmap()
 * takes. NULL when it is not mapped (the caller reads it).
 */
char *input_map_file(const char *path, size_t *size, size_t *map_len);
void input_unmap(char *data, size_t map_len);

/*
 * The text of @in between @from and @to (offsets) will not be scanned
 * again: give its whole pages back. They are the file's and read again
 * from it if a diagnostic or the element scan needs them.
 */
void input_release(const struct input_desc *in, size_t from, size_t to);

#endif
