/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the printer writes, caught in a string for the unit tests that
 * compare texts: ck_text_open() gives the output context to print
 * with, ck_text_close() the NUL-terminated text (the caller frees it).
 */
#ifndef CHECK_TEXT_H
#define CHECK_TEXT_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "printer.h"

struct ck_text {
	struct output_ctx	octx;
	char			*buf;
	size_t			len;
};

static inline struct output_ctx *ck_text_open(struct ck_text *t)
{
	memset(t, 0, sizeof(*t));
	t->octx.f = open_memstream(&t->buf, &t->len);
	ck_assert_ptr_nonnull(t->octx.f);
	return &t->octx;
}

static inline char *ck_text_close(struct ck_text *t)
{
	fclose(t->octx.f);
	return t->buf;
}

#endif
