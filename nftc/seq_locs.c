// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where each message of a batch came from, in a few bytes a message.
 *
 * A batch of 100,000 rules kept a struct location and a command pointer
 * per message: 48 bytes, 4.8 MB, a tenth of the batch itself. They are
 * read only when the kernel rejects a message, so they are kept as a
 * byte stream, each record encoded against the one before it: a rule on
 * the line after the previous one, which ended at its line's end, in the
 * same column, takes one byte, its last column (below 128). Every
 * SEQ_LOCS_SPAN records a mark starts from nothing (no command, no
 * input, all zeros), so a lookup decodes at most SEQ_LOCS_SPAN records.
 * The stream is a mapping of its own: it grows by moving pages, never
 * copying them, and leaves no freed heap behind (100,000 rules grew a
 * heap block through 128 KB before it went to mmap, and the arena kept
 * the 190 KB).
 *
 * Record: a byte below 0x80 is a short record, the last column of a rule
 * with all of SL_SHORT. Otherwise the byte is 0x80 | flags, followed by
 * each field the flags say is there, as varints (LEB128; differences
 * zigzag encoded so small negatives are short):
 *	[cmd pointer]	 SL_CMD: differs from the previous record's
 *	[indesc pointer] SL_INDESC: differs
 *	[line_offset]	 difference, unless SL_LINE_AFTER (the line
 *			 after the previous record's last column)
 *	[first_line]	 difference, unless SL_NEXT_LINE (one more)
 *	[first_column]	 value, unless SL_SAME_COL
 *	[last_line]	 last_line - first_line, unless SL_ONE_LINE
 *	last_column	 value, always
 */
#define _GNU_SOURCE	/* mremap */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "seq_locs.h"
#include "pagesize.h"

enum {
	SL_CMD		= 1 << 0,
	SL_INDESC	= 1 << 1,
	SL_NEXT_LINE	= 1 << 2,
	SL_SAME_COL	= 1 << 3,
	SL_ONE_LINE	= 1 << 4,
	SL_LINE_AFTER	= 1 << 5,
	SL_LONG		= 1 << 7,
	SL_SHORT	= SL_NEXT_LINE | SL_SAME_COL | SL_ONE_LINE |
			  SL_LINE_AFTER,
};

/* flags, two pointers, five varints of up to 10 bytes */
#define SL_RECORD_MAX	(1 + 2 * 10 + 5 * 10)

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static const uint8_t *get_varint(const uint8_t *p, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	do {
		*v |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
	} while (*p++ & 0x80 && shift < 64);
	return p;
}

static uint8_t *put_delta(uint8_t *p, unsigned int from, unsigned int to)
{
	int64_t d = (int64_t)to - (int64_t)from;

	return put_varint(p, d < 0 ? ((uint64_t)(-d) << 1) - 1 :
				     (uint64_t)d << 1);
}

static const uint8_t *get_delta(const uint8_t *p, unsigned int from,
				unsigned int *to)
{
	uint64_t z;

	p = get_varint(p, &z);
	*to = (unsigned int)(from + (z & 1 ? -(int64_t)((z + 1) >> 1) :
					     (int64_t)(z >> 1)));
	return p;
}

/* Room for @need bytes in the stream's mapping (the first: 16 pages). */
static int stream_grow(struct seq_locs *s, size_t need)
{
	size_t cap = s->cap ? s->cap : 16 * nftc_page_size();
	void *p;

	if (need <= s->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (cap == s->cap)
		return 0;
	if (s->buf)
		p = mremap(s->buf, s->cap, cap, MREMAP_MAYMOVE);
	else
		p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	s->buf = p;
	s->cap = cap;
	return 0;
}

static int grow_marks(struct seq_locs *s, unsigned int need)
{
	unsigned int cap = s->marks_cap ? s->marks_cap : 64;
	struct seq_locs_mark *m;

	if (need <= s->marks_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	m = realloc(s->marks, cap * sizeof(*m));
	if (!m)
		return -ENOMEM;
	s->marks = m;
	s->marks_cap = cap;
	return 0;
}

static uint8_t *encode(uint8_t *p, const struct cmd *prev_cmd,
		       const struct location *prev, const struct cmd *cmd,
		       const struct location *loc)
{
	uint8_t *flags = p++;

	*flags = SL_LONG;
	if (cmd != prev_cmd) {
		*flags |= SL_CMD;
		p = put_varint(p, (uintptr_t)cmd);
	}
	if (loc->indesc != prev->indesc) {
		*flags |= SL_INDESC;
		p = put_varint(p, (uintptr_t)loc->indesc);
	}
	if (loc->line_offset == prev->line_offset + prev->last_column + 1)
		*flags |= SL_LINE_AFTER;
	else
		p = put_delta(p, prev->line_offset, loc->line_offset);
	if (loc->first_line == prev->first_line + 1)
		*flags |= SL_NEXT_LINE;
	else
		p = put_delta(p, prev->first_line, loc->first_line);
	if (loc->first_column == prev->first_column)
		*flags |= SL_SAME_COL;
	else
		p = put_varint(p, loc->first_column);
	if (loc->last_line == loc->first_line)
		*flags |= SL_ONE_LINE;
	else
		p = put_delta(p, loc->first_line, loc->last_line);
	if (*flags == (SL_LONG | SL_SHORT) && loc->last_column < SL_LONG) {
		*flags = (uint8_t)loc->last_column;
		return flags + 1;
	}
	return put_varint(p, loc->last_column);
}

static const uint8_t *decode(const uint8_t *p, const struct cmd **cmd,
			     struct location *loc)
{
	uint8_t flags = *p++;
	uint64_t v;

	if (!(flags & SL_LONG)) {
		loc->line_offset += loc->last_column + 1;
		loc->first_line++;
		loc->last_line = loc->first_line;
		loc->last_column = flags;
		return p;
	}

	if (flags & SL_CMD) {
		p = get_varint(p, &v);
		*cmd = (const struct cmd *)(uintptr_t)v;
	}
	if (flags & SL_INDESC) {
		p = get_varint(p, &v);
		loc->indesc = (const struct input_desc *)(uintptr_t)v;
	}
	if (flags & SL_LINE_AFTER)
		loc->line_offset += loc->last_column + 1;
	else
		p = get_delta(p, loc->line_offset, &loc->line_offset);
	if (flags & SL_NEXT_LINE)
		loc->first_line++;
	else
		p = get_delta(p, loc->first_line, &loc->first_line);
	if (!(flags & SL_SAME_COL)) {
		p = get_varint(p, &v);
		loc->first_column = (unsigned int)v;
	}
	if (flags & SL_ONE_LINE)
		loc->last_line = loc->first_line;
	else
		p = get_delta(p, loc->first_line, &loc->last_line);
	p = get_varint(p, &v);
	loc->last_column = (unsigned int)v;
	return p;
}

int seq_locs_add(struct seq_locs *s, const struct cmd *cmd,
		 const struct location *loc)
{
	bool mark = !s->nmarks ||
		    s->n - s->marks[s->nmarks - 1].rec >= SEQ_LOCS_SPAN;
	const struct location zero = { .indesc = NULL };

	if ((s->len + SL_RECORD_MAX > s->cap &&
	     stream_grow(s, s->len + SL_RECORD_MAX) < 0) ||
	    (mark && grow_marks(s, s->nmarks + 1) < 0))
		return -ENOMEM;
	if (mark) {
		s->marks[s->nmarks].rec = s->n;
		s->marks[s->nmarks++].off = (uint32_t)s->len;
		s->prev_cmd = NULL;
		s->prev = zero;
	}
	s->len = (size_t)(encode(s->buf + s->len, s->prev_cmd, &s->prev, cmd,
				 loc) - s->buf);
	s->prev_cmd = cmd;
	s->prev = *loc;
	s->n++;
	return 0;
}

bool seq_locs_get(const struct seq_locs *s, unsigned int i,
		  const struct cmd **cmd, struct location *loc)
{
	unsigned int lo = 0, hi = s->nmarks, r;
	const uint8_t *p;

	if (i >= s->n)
		return false;
	/* the last mark at or before record @i */
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (s->marks[mid].rec <= i)
			lo = mid;
		else
			hi = mid;
	}
	*cmd = NULL;
	memset(loc, 0, sizeof(*loc));
	p = s->buf + s->marks[lo].off;
	for (r = s->marks[lo].rec; r <= i; r++)
		p = decode(p, cmd, loc);
	return true;
}

int seq_locs_join(struct seq_locs *to, struct seq_locs *from)
{
	size_t len = to->len + from->len;
	unsigned int i, nmarks = to->nmarks;
	struct seq_locs *big = to->len < from->len ? from : to;

	if (!from->n)
		return 0;
	if (grow_marks(to, to->nmarks + from->nmarks) < 0 ||
	    stream_grow(big, len) < 0)
		return -ENOMEM;
	/*
	 * A segment of 100,000 rules is the big one: move the few records
	 * of @to in front of it rather than copying it.
	 */
	if (big == from) {
		memmove(from->buf + to->len, from->buf, from->len);
		if (to->len)
			memcpy(from->buf, to->buf, to->len);
		if (to->buf)
			munmap(to->buf, to->cap);
		to->buf = from->buf;
		to->cap = from->cap;
		from->buf = NULL;
	} else {
		memcpy(to->buf + to->len, from->buf, from->len);
	}
	for (i = 0; i < from->nmarks; i++) {
		to->marks[nmarks + i].rec = from->marks[i].rec + to->n;
		to->marks[nmarks + i].off =
			from->marks[i].off + (uint32_t)to->len;
	}
	to->nmarks += from->nmarks;
	to->len = len;
	to->n += from->n;
	to->prev_cmd = from->prev_cmd;
	to->prev = from->prev;
	seq_locs_free(from);
	return 0;
}

void seq_locs_clear(struct seq_locs *s)
{
	s->len = 0;
	s->nmarks = 0;
	s->n = 0;
}

void seq_locs_free(struct seq_locs *s)
{
	if (s->buf)
		munmap(s->buf, s->cap);
	free(s->marks);
	memset(s, 0, sizeof(*s));
}
