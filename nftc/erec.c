// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Located diagnostics: queued while compiling, rendered by the caller.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "erec.h"
#include "input_map.h"

const struct location internal_location = {
	.indesc = NULL,
};

static const char *const erec_type_names[__EREC_MAX] = {
	[EREC_ERROR]	= "Error",
	[EREC_WARNING]	= "Warning",
	[EREC_INFO]	= "Info",
};

void erec_queue_init(struct erec_queue *q, unsigned int max_errors)
{
	init_list_head(&q->records);
	q->num_errors = 0;
	q->max_errors = max_errors;
}

void erec_queue_free(struct erec_queue *q)
{
	struct error_record *erec, *next;

	list_for_each_entry_safe(erec, next, &q->records, list) {
		list_del(&erec->list);
		free(erec->msg);
		free(erec);
	}
	q->num_errors = 0;
}

int erec_vadd(struct erec_queue *q, enum erec_type type,
	      const struct location *loc, const char *fmt, va_list ap)
{
	struct error_record *erec;
	va_list aq;
	int len;

	if (type == EREC_ERROR) {
		/* Past the limit, count but keep no more records. */
		if (q->num_errors++ >= q->max_errors)
			return -1;
	}

	erec = calloc(1, sizeof(*erec));
	if (!erec)
		return type == EREC_ERROR ? -1 : 0;
	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	erec->msg = malloc(len + 1);
	if (!erec->msg) {
		free(erec);
		return type == EREC_ERROR ? -1 : 0;
	}
	vsnprintf(erec->msg, len + 1, fmt, ap);
	erec->type = type;
	erec->loc = loc ? *loc : internal_location;
	list_add_tail(&erec->list, &q->records);
	return type == EREC_ERROR ? -1 : 0;
}

int erec_add(struct erec_queue *q, enum erec_type type,
	     const struct location *loc, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = erec_vadd(q, type, loc, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * The caret line: the source line's leading whitespace up to the span is
 * copied (so tabs keep the carets aligned), then '^' under every column
 * of the span on its first line.
 */
static void erec_print_carets(FILE *f, const char *line, size_t len,
			      const struct location *loc)
{
	unsigned int first = loc->first_column, last = loc->last_column;
	unsigned int col;

	if (loc->last_line != loc->first_line)
		last = len;
	if (first == 0)
		first = 1;
	if (last < first)
		last = first;
	for (col = 1; col < first; col++)
		fputc(col <= len && line[col - 1] == '\t' ? '\t' : ' ', f);
	for (; col <= last; col++)
		fputc('^', f);
	fputc('\n', f);
}

/* "In file included from ..." for each enclosing file, outermost first. */
static void erec_print_include_chain(FILE *f, const struct input_desc *parent,
				     const struct input_desc *child)
{
	if (!parent)
		return;
	erec_print_include_chain(f, parent->parent, parent);
	fprintf(f, "In file included from %s:%u:%u-%u:\n", parent->name,
		child->parent_line, child->parent_first_column,
		child->parent_last_column);
}

void erec_format(FILE *f, const struct error_record *erec)
{
	const struct location *loc = &erec->loc;
	const struct input_desc *in = loc->indesc;
	const char *line;
	size_t len;

	if (!in || in->kind == INPUT_INTERNAL || !in->data) {
		fprintf(f, "%s: %s\n", erec_type_names[erec->type], erec->msg);
		return;
	}

	erec_print_include_chain(f, in->parent, in);
	/* stock names no position in the command line, only underlines */
	if (in->kind == INPUT_CMDLINE)
		fprintf(f, "%s: %s\n", erec_type_names[erec->type], erec->msg);
	else
		fprintf(f, "%s:%u:%u-%u: %s: %s\n", in->name,
			loc->first_line, loc->first_column,
			loc->last_line == loc->first_line ?
			loc->last_column : loc->first_column,
			erec_type_names[erec->type], erec->msg);

	if (loc->line_offset > in->size)
		return;
	/* the line may run through text given back (input_map.h) */
	line = input_line(in, loc->line_offset, &len);
	fprintf(f, "%.*s\n", (int)len, line);
	erec_print_carets(f, line, len, loc);
}

void erec_queue_format(FILE *f, const struct erec_queue *q)
{
	const struct error_record *erec;

	list_for_each_entry(erec, &q->records, list)
		erec_format(f, erec);
}
