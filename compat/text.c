// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Short texts printed through stdio. glibc's open_memstream() callocs
 * an 8 KiB buffer per stream, more than the text of a statement costs
 * to print, and save and restore print several per rule: print into
 * the caller's stack buffer or a slot's reused buffer (fmemopen) and
 * fall back to a memstream only when the text does not fit.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include "compat.h"
#include "printer.h"

/*
 * The streams of compat_text_open_slot(), one per slot and thread,
 * opened once and reused for each text: opening and closing a stream
 * per statement cost more than printing it. Each writes through a
 * cookie into a buffer of its own that grows, so a text never has to
 * be printed again and no text needs a seek (an fmemopen stream's
 * rewind and ftell cost a third of save's stdio). Never closed: they
 * stay reachable to the end, as stdio's own streams.
 */
struct slot {
	FILE	*f;
	char	*buf;
	size_t	len;
	size_t	cap;
	char	iobuf[512];
};

static __thread struct slot slots[__COMPAT_SLOT_MAX];

static ssize_t slot_write(void *cookie, const char *p, size_t n)
{
	struct slot *sl = cookie;
	size_t cap;
	char *b;

	if (sl->len + n + 1 > sl->cap) {
		cap = sl->cap ? sl->cap : 2048;
		while (cap < sl->len + n + 1)
			cap *= 2;
		b = realloc(sl->buf, cap);
		if (!b)
			return -1;
		sl->buf = b;
		sl->cap = cap;
	}
	memcpy(sl->buf + sl->len, p, n);
	sl->len += n;
	return n;
}

FILE *compat_text_open_slot(struct compat_text *t, unsigned int slot,
			    bool big)
{
	static const cookie_io_functions_t io = { .write = slot_write };
	struct slot *sl;

	if (big || slot >= __COMPAT_SLOT_MAX)
		return compat_text_open(t, NULL, 0, true);
	sl = &slots[slot];
	if (!sl->f) {
		sl->f = fopencookie(sl, "w", io);
		if (!sl->f)
			return compat_text_open(t, NULL, 0, true);
		setvbuf(sl->f, sl->iobuf, _IOFBF, sizeof(sl->iobuf));
	}
	/* not memset: @t's iobuf (512 bytes) is not used by a slot */
	t->small = NULL;
	t->cap = 0;
	t->big = false;
	t->buf = NULL;
	t->len = 0;
	t->slot = true;
	t->sl = sl;
	sl->len = 0;		/* the last close flushed it */
	clearerr(sl->f);
	return t->f = sl->f;
}

FILE *compat_text_open(struct compat_text *t, char *small, size_t cap,
		       bool big)
{
	t->small = small;
	t->cap = cap;
	t->big = big;
	t->slot = false;
	t->buf = NULL;
	t->len = 0;
	if (big)
		return t->f = open_memstream(&t->buf, &t->len);
	t->f = fmemopen(small, cap, "w");
	if (t->f)
		setvbuf(t->f, t->iobuf, _IOFBF, sizeof(t->iobuf));
	return t->f;
}

int compat_text_close(struct compat_text *t, char **text)
{
	long n;

	*text = NULL;
	if (!t->f)
		return -1;
	if (t->big) {
		fclose(t->f);
		t->f = NULL;
		*text = t->buf;
		return t->buf ? 0 : -1;
	}
	if (t->slot) {	/* stays open for the next text */
		struct slot *sl = t->sl;

		t->f = NULL;
		if (fflush(sl->f) || ferror(sl->f)) {
			__fpurge(sl->f);
			sl->len = 0;
			return -1;
		}
		*text = strndup(sl->buf ? sl->buf : "", sl->len);
		sl->len = 0;
		return *text ? 0 : -1;
	} else {
		n = ftell(t->f);
		fclose(t->f);
	}
	t->f = NULL;
	if (n < 0 || (size_t)n >= t->cap - 1)
		return 1;	/* full: do it again with big */
	*text = strndup(t->small, n);
	return *text ? 0 : -1;
}

char *compat_print_text(const struct output_ctx *tmpl, compat_print_fn fn,
			const void *obj)
{
	struct output_ctx octx = *tmpl;
	struct compat_text t;
	char *text;
	int big, ret;

	for (big = 0; big < 2; big++) {
		octx.f = compat_text_open_slot(&t, COMPAT_SLOT_TEXT, big);
		if (!octx.f)
			continue;
		fn(&octx, obj);
		ret = compat_text_close(&t, &text);
		if (ret == 0)
			return text;
		if (ret < 0)
			return NULL;
	}
	return NULL;
}

static void print_stmt_fn(struct output_ctx *octx, const void *s)
{
	nftc_print_stmt(octx, s);
}

static void print_expr_fn(struct output_ctx *octx, const void *e)
{
	nftc_print_expr(octx, e);
}

char *compat_stmt_text(uint8_t family, const struct stmt *s,
		       unsigned int flags)
{
	struct output_ctx octx = { .flags = flags, .family = family };

	return compat_print_text(&octx, print_stmt_fn, s);
}

char *compat_expr_text(const struct expr *e, unsigned int flags)
{
	struct output_ctx octx = { .flags = flags };

	return compat_print_text(&octx, print_expr_fn, e);
}
