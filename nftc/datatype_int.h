/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the datatype implementation files (datatype.c,
 * datatype_inet.c, datatype_misc.c). Not part of the compiler contract.
 */
#ifndef NFTC_DATATYPE_INT_H
#define NFTC_DATATYPE_INT_H

#include "datatype.h"
#include "expr.h"
#include "erec.h"

#define DT_BASE_DECIMAL		10
#define DT_BASE_HEX		16

/* Queue an error located at @sym; returns -1. */
#define dt_error(ctx, sym, ...) \
	erec_error((ctx)->erq, &(sym)->location, __VA_ARGS__)

/* The text of a symbol expression. */
static inline const char *dt_text(const struct expr *sym)
{
	return sym->sym.identifier;
}

/*
 * Parse @s as an unsigned number the way GMP's mpz_set_str(.., 0) does:
 * "0x"/"0X" hex, leading "0" octal, else decimal; no sign, the whole
 * string must be digits. The result is NFTC_VALUE_MAX * 8 bits wide.
 * Returns 0, or -1 on bad syntax or overflow.
 */
int dt_parse_number(const char *s, struct value *v);

/* Register byte order a constant of @dtype gets (HOST when unset). */
enum byteorder dt_byteorder(const struct datatype *dtype);

/* *res = @n as a constant of @dtype (its size), located at @sym. */
int dt_const_u64(const struct datatype *dtype, const struct expr *sym,
		 uint64_t n, struct expr **res);

/*
 * Look @sym's text up in @tbl; on a hit store the constant in *res and
 * return 1. Returns 0 when the name is not in the table.
 */
int dt_symbol_parse(const struct symbol_table *tbl,
		    const struct datatype *dtype, const struct expr *sym,
		    struct expr **res);

/* The integer parser: numbers of any base, range-checked to dtype size. */
int integer_type_parse(struct dt_parse_ctx *ctx, const struct datatype *dtype,
		       const struct expr *sym, struct expr **res);
void integer_type_print(const struct expr *expr, struct output_ctx *octx);
void symbol_table_print(FILE *f, const struct symbol_table *tbl,
			unsigned int size_bits, bool swap);

#endif
