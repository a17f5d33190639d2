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
#include <stdlib.h>
#include <string.h>
#include "compat.h"
#include "printer.h"

/*
 * The streams of compat_text_open_slot(), one per slot and thread,
 * opened once and rewound for each text: opening and closing a stream
 * per statement cost more than printing it. Never closed: they stay
 * reachable to the end, as stdio's own streams.
 */
static __thread struct {
	FILE	*f;
	char	buf[2048];
	char	iobuf[512];
} slots[__COMPAT_SLOT_MAX];

FILE *compat_text_open_slot(struct compat_text *t, unsigned int slot,
			    bool big)
{
	if (big || slot >= __COMPAT_SLOT_MAX)
		return compat_text_open(t, NULL, 0, true);
	if (!slots[slot].f) {
		slots[slot].f = fmemopen(slots[slot].buf,
					 sizeof(slots[slot].buf), "w");
		if (!slots[slot].f)
			return compat_text_open(t, NULL, 0, true);
		setvbuf(slots[slot].f, slots[slot].iobuf, _IOFBF,
			sizeof(slots[slot].iobuf));
	}
	memset(t, 0, sizeof(*t));
	t->small = slots[slot].buf;
	t->cap = sizeof(slots[slot].buf);
	t->slot = true;
	rewind(slots[slot].f);	/* clears the error of a full one too */
	return t->f = slots[slot].f;
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
		n = fflush(t->f) || ferror(t->f) ? -1 : ftell(t->f);
		if (n < 0)
			n = t->cap;	/* full: do it again with big */
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
