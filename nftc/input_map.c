// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Big input files, read as the scanner goes and given back behind it.
 *
 * "nft -f" of a set of a million addresses held its 13 MB of text for
 * the whole run (diagnostics quote it), next to the 16 MB batch; 100,000
 * rules held 5.6 MB next to a 44 MB batch. A big regular file gets an
 * anonymous mapping of its own, of which only the first INPUT_MAP_AHEAD
 * bytes (to a newline) are read at first; the rest is noted as not read.
 * The scanner reads ahead of the line it is on and gives back the text
 * well behind it (scanner_window() in scanner.l); once the element scan
 * (elem_scan.c) has read a set's elements, the whole pages of that text
 * are given back (MADV_DONTNEED: they read as zeros) and noted. Text not
 * read yet and text given back are the same kind of noted range.
 * Whatever reads that text again (a diagnostic quoting the line,
 * evaluation remaking the first element, an overlap error finding its
 * element, a set changed after its elements) restores the pages it
 * needs from the file first (pread), the same text unless the file was
 * changed while nft ran (stock reads it once; then the new text, or
 * NULs past a new end, is quoted). The file is never mapped: a file
 * truncated under nft cannot end it with SIGBUS.
 *
 * The scanner needs two NULs after the text: the mapping is at least
 * two bytes longer than the file, zeroed.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "input_map.h"
#include "pagesize.h"

/**
 * struct input_released - text of an input given back, page ranges
 * @from: @to: offsets of @n ranges [from, to), page aligned (@cap)
 * @fd: the file, open from the first read to the last: what is read
 * again comes from the file read first, even if another was renamed over
 * its name meanwhile
 */
struct input_released {
	size_t		*from;
	size_t		*to;
	unsigned int	n;
	unsigned int	cap;
	int		fd;
};

/*
 * Read @fd into @area from @got on, to at least @want bytes and then
 * through a newline, or to @size; *@eof if the file ended before.
 * Returns how far it read: whole pages, unless at the end.
 */
static size_t read_ahead(int fd, char *area, size_t got, size_t want,
			 size_t size, bool *eof)
{
	size_t pg = nftc_page_size(), to = (want + pg - 1) / pg * pg;
	ssize_t n;

	*eof = false;
	for (;;) {
		if (to > size)
			to = size;
		while (got < to) {
			n = pread(fd, area + got, to - got, (off_t)got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				*eof = true;
				return got;
			}
			got += (size_t)n;
		}
		if (got >= size || memchr(area + want, '\n', got - want))
			return got;
		want = got;
		to = got + pg;
	}
}

char *input_map_file(const char *path, size_t *size, size_t *map_len,
		     size_t *loaded, int *fdp)
{
	size_t pg = nftc_page_size(), len, got;
	struct stat st;
	char *area;
	bool eof;
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
	got = read_ahead(fd, area, 0, INPUT_MAP_AHEAD, (size_t)st.st_size,
			 &eof);
	*size = eof ? got : (size_t)st.st_size;	/* shorter than it was */
	*map_len = len;
	*loaded = got;
	*fdp = fd;
	return area;
}

void input_unmap(struct input_desc *in)
{
	if (in->released) {
		close(in->released->fd);
		free(in->released->from);
		free(in->released->to);
		free(in->released);
		in->released = NULL;
	}
	if (in->data && in->map_len)
		munmap(in->data, in->map_len);
}

static int released_add(struct input_released *r, size_t from, size_t to)
{
	unsigned int cap = r->cap ? r->cap * 2 : 8;
	size_t *f, *t;

	if (r->n == r->cap) {
		f = realloc(r->from, cap * sizeof(*f));
		if (!f)
			return -1;
		r->from = f;
		t = realloc(r->to, cap * sizeof(*t));
		if (!t)
			return -1;
		r->to = t;
		r->cap = cap;
	}
	r->from[r->n] = from;
	r->to[r->n] = to;
	r->n++;
	return 0;
}

/* released_add(), or the range ending at @from grown to @to */
static int released_extend(struct input_released *r, size_t from,
			   size_t to)
{
	unsigned int i;

	/* the scanner gives text back a window after the other */
	for (i = 0; i < r->n; i++) {
		if (r->to[i] == from) {
			r->to[i] = to;
			return 0;
		}
	}
	return released_add(r, from, to);
}

size_t input_release(const struct input_desc *in, size_t from, size_t to)
{
	struct input_desc *w = (struct input_desc *)in;
	size_t pg = nftc_page_size();

	if (!in || !in->map_len || to > in->size)
		return from;
	from = (from + pg - 1) / pg * pg;
	to = to / pg * pg;
	if (from >= to)
		return from;
	/* no file to read it again from (input_defer()), or not noted:
	 * not given back, it stays readable */
	if (!w->released || released_extend(w->released, from, to) < 0)
		return from;
	madvise(in->data + from, to - from, MADV_DONTNEED);
	return to;
}

/* Read [@from, @to) of the file into @in's text; NULs where it ends. */
static void pages_read(const struct input_desc *in, int fd, size_t from,
		       size_t to)
{
	ssize_t n;

	if (to > in->size)
		to = in->size;
	while (fd >= 0 && from < to) {
		n = pread(fd, in->data + from, to - from, (off_t)from);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		from += (size_t)n;
	}
}

void input_restore(const struct input_desc *in, size_t from, size_t to)
{
	struct input_released *r = in ? in->released : NULL;
	size_t pg, lo, hi, a, b;
	unsigned int i, n;

	if (!r || !r->n)
		return;
	pg = nftc_page_size();
	from = from / pg * pg;
	to = to > SIZE_MAX - pg ? SIZE_MAX : (to + pg - 1) / pg * pg;
	n = r->n;
	for (i = 0; i < n; i++) {
		a = r->from[i];
		b = r->to[i];
		lo = a > from ? a : from;
		hi = b < to ? b : to;
		if (lo >= hi)
			continue;
		pages_read(in, r->fd, lo, hi);
		/* what is left of the range: before lo, after hi */
		r->to[i] = lo;
		if (hi < b)
			released_add(r, hi, b);
	}
	for (i = n = 0; i < r->n; i++) {
		if (r->from[i] >= r->to[i])
			continue;
		r->from[n] = r->from[i];
		r->to[n] = r->to[i];
		n++;
	}
	r->n = n;
}

const char *input_line(const struct input_desc *in, size_t offset,
		       size_t *len)
{
	size_t pg = nftc_page_size(), from, to = offset;
	const char *nl;

	/* a page at a time: a line is short, the rest of the file is not */
	do {
		from = to;
		to = (to / pg + 1) * pg;
		if (to > in->size)
			to = in->size;
		input_restore(in, from, to);
		nl = memchr(in->data + from, '\n', to - from);
	} while (!nl && to < in->size);
	*len = (size_t)((nl ? nl : in->data + to) - (in->data + offset));
	return in->data + offset;
}

void input_defer(struct input_desc *in, size_t loaded, int fd)
{
	struct input_released *r = calloc(1, sizeof(*r));
	bool eof;

	if (r) {
		r->fd = fd;
		in->released = r;
		if (loaded >= in->size || released_add(r, loaded, in->size) == 0)
			return;
		in->released = NULL;
		free(r);
	}
	/* cannot be noted: read it all now, and never give it back */
	if (loaded < in->size)
		read_ahead(fd, in->data, loaded, in->size, in->size, &eof);
	close(fd);
}
