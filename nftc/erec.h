/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_EREC_H
#define NFTC_EREC_H

#include <stdarg.h>
#include <stdio.h>
#include "list.h"
#include "location.h"

enum erec_type {
	EREC_ERROR,
	EREC_WARNING,
	EREC_INFO,
	__EREC_MAX
};

/**
 * struct error_record - one located diagnostic
 * @list: queue linkage
 * @type: severity
 * @loc: the offending source span (carets go under it)
 * @msg: formatted message, owned
 */
struct error_record {
	struct list_head	list;
	enum erec_type		type;
	struct location		loc;
	char			*msg;
};

/**
 * struct erec_queue - diagnostics of one compilation
 * @records: queued error_records in order of detection
 * @num_errors: errors queued so far
 * @max_errors: stop adding (and tell the caller to stop) beyond this
 */
struct erec_queue {
	struct list_head	records;
	unsigned int		num_errors;
	unsigned int		max_errors;
};

void erec_queue_init(struct erec_queue *q, unsigned int max_errors);
void erec_queue_free(struct erec_queue *q);

/*
 * Queue a diagnostic. Returns -1 for errors (so callers can write
 * "return erec_error(...)"), 0 for warnings.
 */
int erec_add(struct erec_queue *q, enum erec_type type,
	     const struct location *loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int erec_vadd(struct erec_queue *q, enum erec_type type,
	      const struct location *loc, const char *fmt, va_list ap);

#define erec_error(q, loc, ...) erec_add(q, EREC_ERROR, loc, __VA_ARGS__)
#define erec_warning(q, loc, ...) erec_add(q, EREC_WARNING, loc, __VA_ARGS__)

/*
 * Render one record in nft's format:
 *   FILE:LINE:COL-COL: Error: MESSAGE
 *   <source line>
 *   <carets>
 * into a caller-supplied stream (the library itself never prints).
 */
void erec_format(FILE *f, const struct error_record *erec);
void erec_queue_format(FILE *f, const struct erec_queue *q);

#endif
