// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Big input files, and the text of big element lists given back.
 *
 * "nft -f" of a set of a million addresses held its 13 MB of text for
 * the whole run (diagnostics quote it), next to the 16 MB batch. A big
 * regular file is read into an anonymous mapping of its own; once the
 * element scan (elem_scan.c) has read a set's elements, the whole pages
 * of that text are given back (MADV_DONTNEED: they read as zeros) and
 * noted. Whatever reads that text again (a diagnostic quoting the line,
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
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "input_map.h"

/**
 * struct input_released - text of an input given back, page ranges
 * @from: @to: offsets of @n ranges [from, to), page aligned (@cap)
 */
struct input_released {
	size_t		*from;
	size_t		*to;
	unsigned int	n;
	unsigned int	cap;
};

static size_t page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (size_t)n : 4096;
}

char *input_map_file(const char *path, size_t *size, size_t *map_len)
{
	size_t pg = page_size(), len, got = 0;
	struct stat st;
	ssize_t n;
	char *area;
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
	while (got < (size_t)st.st_size) {
		n = read(fd, area + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;		/* shorter than it was: what was read */
		got += (size_t)n;
	}
	close(fd);
	*size = got;
	*map_len = len;
	return area;
}

void input_unmap(struct input_desc *in)
{
	if (in->released) {
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

void input_release(const struct input_desc *in, size_t from, size_t to)
{
	struct input_desc *w = (struct input_desc *)in;
	size_t pg = page_size();

	if (!in || !in->map_len || to > in->size)
		return;
	from = (from + pg - 1) / pg * pg;
	to = to / pg * pg;
	if (from >= to)
		return;
	if (!w->released)
		w->released = calloc(1, sizeof(*w->released));
	/* not noted, not given back: it stays readable */
	if (!w->released || released_add(w->released, from, to) < 0)
		return;
	madvise(in->data + from, to - from, MADV_DONTNEED);
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
	size_t pg = page_size(), lo, hi, a, b;
	unsigned int i, n;
	int fd = -1;

	if (!r || !r->n)
		return;
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
		if (fd < 0)
			fd = open(in->name, O_RDONLY | O_CLOEXEC);
		pages_read(in, fd, lo, hi);
		/* what is left of the range: before lo, after hi */
		r->to[i] = lo;
		if (hi < b)
			released_add(r, hi, b);
	}
	if (fd >= 0)
		close(fd);
	for (i = n = 0; i < r->n; i++) {
		if (r->from[i] >= r->to[i])
			continue;
		r->from[n] = r->from[i];
		r->to[n] = r->to[i];
		n++;
	}
	r->n = n;
}
