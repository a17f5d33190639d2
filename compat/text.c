// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Short texts printed through stdio. glibc's open_memstream() callocs
 * an 8 KiB buffer per stream, more than the text of a statement costs
 * to print, and save and restore print several per rule: print into
 * the caller's stack buffer (fmemopen) and fall back to a memstream
 * only when the text does not fit.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "compat.h"
#include "printer.h"

FILE *compat_text_open(struct compat_text *t, char *small, size_t cap,
		       bool big)
{
	t->small = small;
	t->cap = cap;
	t->big = big;
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
	n = ftell(t->f);
	fclose(t->f);
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
	char small[1024], *text;
	int big, ret;

	for (big = 0; big < 2; big++) {
		octx.f = compat_text_open(&t, small, sizeof(small), big);
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
