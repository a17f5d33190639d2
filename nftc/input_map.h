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
/* What is read at first, and ahead of the scanner (then to a newline). */
#define INPUT_MAP_AHEAD	(32 * 1024)

/*
 * Map regular file @path (at least INPUT_MAP_MIN bytes): a mapping of
 * its own with two NULs after its @size bytes; *@map_len is its length.
 * Only the first *@loaded bytes are read (INPUT_MAP_AHEAD, then through
 * a newline): input_defer() notes the rest, to be read when needed from
 * *@fd, the file kept open. NULL when it is not a regular file or too
 * small (the caller reads it).
 */
char *input_map_file(const char *path, size_t *size, size_t *map_len,
		     size_t *loaded, int *fd);
/*
 * The text of @in (a mapped file) past @loaded is not read yet; @fd,
 * input_map_file()'s, is where it and any text given back are read from
 * (input_unmap() closes it).
 */
void input_defer(struct input_desc *in, size_t loaded, int fd);
/* Unmap what input_map_file() gave @in, and forget what was released. */
void input_unmap(struct input_desc *in);

/*
 * The text of @in between @from and @to (offsets) will not be scanned
 * again: give its whole pages back (they read as NULs until restored).
 * Returns the end of what was given back (@from if nothing was).
 */
size_t input_release(const struct input_desc *in, size_t from, size_t to);
/* Read the released text of @in between @from and @to from the file. */
void input_restore(const struct input_desc *in, size_t from, size_t to);
/*
 * The line of @in starting at @offset (at most the input's size), its
 * text restored if it was given back; its length without the newline
 * into *@len.
 */
const char *input_line(const struct input_desc *in, size_t offset,
		       size_t *len);

#endif
