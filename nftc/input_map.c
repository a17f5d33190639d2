// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mapped input files.
 *
 * "nft -f" of a set of a million addresses holds its 13 MB of text for
 * the whole run (diagnostics quote it), next to the 16 MB batch. A big
 * regular file is therefore mapped privately instead of read: the pages
 * are the file's until written. The scanner writes into its text only a
 * NUL after the current token, which it puts back; the element scan
 * (elem_scan.c) reads the elements of a set declaration without writing.
 * Once an element list has been read, its whole pages are given back
 * (MADV_DONTNEED): the process no longer holds them, and reading them
 * again (a diagnostic, the set's first element made again as IR) reads
 * the file again, with the same text as long as the file is not changed
 * while nft runs (stock reads it once; a file rewritten under nft -f
 * may then be quoted with its new text, and one truncated under it
 * ends nft with SIGBUS when text past the new end is read).
 *
 * The scanner needs two NULs after the text: an anonymous zeroed area
 * one page longer than the file is reserved and the file mapped over
 * its start; the bytes after the end of the file are zeros.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "input_map.h"

static size_t page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (size_t)n : 4096;
}

char *input_map_file(const char *path, size_t *size, size_t *map_len)
{
	size_t pg = page_size(), len;
	struct stat st;
	void *area, *m;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < INPUT_MAP_MIN || (uint64_t)st.st_size > UINT32_MAX) {
		close(fd);
		return NULL;
	}
	len = ((size_t)st.st_size + 2 + pg - 1) / pg * pg;
	area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	m = mmap(area, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		munmap(area, len);
		return NULL;
	}
	*size = (size_t)st.st_size;
	*map_len = len;
	return area;
}

void input_unmap(char *data, size_t map_len)
{
	if (data && map_len)
		munmap(data, map_len);
}

void input_release(const struct input_desc *in, size_t from, size_t to)
{
	size_t pg = page_size();

	if (!in || !in->map_len || to > in->size)
		return;
	from = (from + pg - 1) / pg * pg;
	to = to / pg * pg;
	if (from < to)
		madvise(in->data + from, to - from, MADV_DONTNEED);
}
