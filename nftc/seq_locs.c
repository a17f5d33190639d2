// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where each message of a batch came from, in a few bytes a message.
 *
 * A batch of 100,000 rules kept a struct location and a command pointer
 * per message: 48 bytes, 4.8 MB, a tenth of the batch itself. They are
 * read only when the kernel rejects a message, so they are kept as a
 * byte stream, each record encoded against the one before it: a rule on
 * the line after the previous one, which ended at its line's end, in the
 * same column, takes a flags byte and its last column, two bytes. Every
 * SEQ_LOCS_SPAN records a mark
 * starts from nothing (no command, no input, all zeros), so a lookup
 * decodes at most SEQ_LOCS_SPAN records.
 *
 * Record: flags, then each field the flags say is there, as varints
 * (LEB128; differences zigzag encoded so small negatives are short):
 *	[cmd pointer]	 SL_CMD: differs from the previous record's
 *	[indesc pointer] SL_INDESC: differs
 *	[line_offset]	 difference, unless SL_LINE_AFTER (the line
 *			 after the previous record's last column)
 *	[first_line]	 difference, unless SL_NEXT_LINE (one more)
 *	[first_column]	 value, unless SL_SAME_COL
 *	[last_line]	 last_line - first_line, unless SL_ONE_LINE
 *	last_column	 value, always
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "seq_locs.h"

enum {
	SL_CMD		= 1 << 0,
	SL_INDESC	= 1 << 1,
	SL_NEXT_LINE	= 1 << 2,
	SL_SAME_COL	= 1 << 3,
	SL_ONE_LINE	= 1 << 4,
	SL_LINE_AFTER	= 1 << 5,
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

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static int grow_marks(struct seq_locs *s, unsigned int need)
{
	size_t cap = s->marks_cap;
	int ret = grow((void **)&s->marks, &cap, need, sizeof(*s->marks));

	s->marks_cap = (unsigned int)cap;
	return ret;
}

static uint8_t *encode(uint8_t *p, const struct cmd *prev_cmd,
		       const struct location *prev, const struct cmd *cmd,
		       const struct location *loc)
{
	uint8_t *flags = p++;

	*flags = 0;
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
	return put_varint(p, loc->last_column);
}

static const uint8_t *decode(const uint8_t *p, const struct cmd **cmd,
			     struct location *loc)
{
	uint8_t flags = *p++;
	uint64_t v;

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

	if (grow((void **)&s->buf, &s->cap, s->len + SL_RECORD_MAX, 1) < 0 ||
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

/* Put the @alen bytes of @a in front of the @blen of @b, in @b's memory. */
static int prepend(uint8_t **a, size_t alen, uint8_t **b, size_t blen)
{
	uint8_t *q = realloc(*b, alen + blen);

	if (!q)
		return -ENOMEM;
	memmove(q + alen, q, blen);
	memcpy(q, *a, alen);
	free(*a);
	*a = q;
	*b = NULL;
	return 0;
}

int seq_locs_join(struct seq_locs *to, struct seq_locs *from)
{
	size_t len = to->len + from->len;
	unsigned int i, nmarks = to->nmarks;
	uint8_t *q;

	if (!from->n)
		return 0;
	if (grow_marks(to, to->nmarks + from->nmarks) < 0)
		return -ENOMEM;
	/*
	 * A segment of 100,000 rules is the big one: move the few records
	 * of @to in front of it rather than copying it.
	 */
	if (to->len < from->len) {
		if (prepend(&to->buf, to->len, &from->buf, from->len) < 0)
			return -ENOMEM;
	} else {
		q = realloc(to->buf, len);
		if (!q)
			return -ENOMEM;
		memcpy(q + to->len, from->buf, from->len);
		to->buf = q;
	}
	to->cap = len;
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
	free(s->buf);
	free(s->marks);
	memset(s, 0, sizeof(*s));
}
