/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "nft describe": the type of a selector expression and its symbolic
 * constants, in stock nft 1.0.6's exact layout.
 */
#include <string.h>
#include "datatype_int.h"
#include "describe.h"

/* The expression names stock nft prints ("xfrm", not "ipsec"). */
static const char *const describe_kind_names[__EXPR_MAX] = {
	[EXPR_SYMBOL]		= "symbol",
	[EXPR_VARIABLE]		= "variable",
	[EXPR_VALUE]		= "value",
	[EXPR_VERDICT]		= "verdict",
	[EXPR_PREFIX]		= "prefix",
	[EXPR_RANGE]		= "range",
	[EXPR_PAYLOAD]		= "payload",
	[EXPR_EXTHDR]		= "exthdr",
	[EXPR_META]		= "meta",
	[EXPR_CT]		= "ct",
	[EXPR_RT]		= "rt",
	[EXPR_SOCKET]		= "socket",
	[EXPR_OSF]		= "osf",
	[EXPR_FIB]		= "fib",
	[EXPR_NUMGEN]		= "numgen",
	[EXPR_HASH]		= "hash",
	[EXPR_XFRM]		= "xfrm",
	[EXPR_CONCAT]		= "concat",
	[EXPR_LIST]		= "list",
	[EXPR_SET]		= "set",
	[EXPR_SET_REF]		= "set reference",
	[EXPR_SET_ELEM]		= "set element",
	[EXPR_MAPPING]		= "mapping",
	[EXPR_MAP]		= "map",
	[EXPR_UNARY]		= "unary",
	[EXPR_BINOP]		= "binop",
	[EXPR_RELATIONAL]	= "relational",
};

static void describe_basetypes(FILE *f, const struct datatype *dtype)
{
	const struct datatype *b;

	if (!dtype->basetype)
		return;
	fputs(" (basetype ", f);
	for (b = dtype->basetype; b; b = b->basetype)
		fprintf(f, "%s%s", b->desc, b->basetype ? ", " : "");
	fputc(')', f);
}

/* What follows the first line: the type's named constants. */
static void describe_symbols(FILE *f, const struct datatype *dtype,
			     bool by_name)
{
	const struct symbolic_constant *s;
	unsigned int n;

	/*
	 * Stock nft keeps big endian constants (ether types, ARP ops)
	 * byte swapped in its tables and swaps them back only when
	 * describing an expression: "describe ether_type" shows ip as
	 * 0x0008. Reproduce that.
	 */
	if (dtype->sym_tbl) {
		fprintf(f, "\npre-defined symbolic constants (in %s):\n",
			dtype->sym_tbl->base == DT_BASE_DECIMAL ?
			"decimal" : "hexadecimal");
		symbol_table_print(f, dtype->sym_tbl, dtype->size,
				   by_name && dtype->sym_tbl->byteorder ==
					      BYTEORDER_BIG);
		return;
	}
	if (dtype->type != TYPE_INET_PROTOCOL)
		return;
	/* Stock nft lists /etc/protocols, one (first) name per number. */
	for (n = 0; n < 255; n++) {
		for (s = nftc_builtin_protocols; s->identifier; s++) {
			if (s->value == n) {
				fprintf(f, "\t%-30s\t%u\n", s->identifier, n);
				break;
			}
		}
	}
}

/**
 * datatype_describe - "nft describe TYPENAME"
 */
void datatype_describe(FILE *f, const struct datatype *dtype)
{
	fprintf(f, "datatype %s (%s)", dtype->name, dtype->desc);
	describe_basetypes(f, dtype);
	fprintf(f, ", %u bits\n", dtype->size);
	describe_symbols(f, dtype, true);
}

static bool is_string_type(const struct datatype *dtype)
{
	for (; dtype; dtype = dtype->basetype) {
		if (dtype->type == TYPE_STRING)
			return true;
	}
	return false;
}

/**
 * describe_expr - "nft describe EXPR"
 */
void describe_expr(FILE *out, const struct expr *e)
{
	const struct datatype *dtype = e->dtype ? e->dtype : &invalid_type;
	const char *kind = NULL;
	unsigned int len = e->len;

	/*
	 * "exthdr frag", "tcp option maxseg", "sctp chunk init": stock
	 * describes the header's first field, what it loads before a
	 * comparison with exists/missing turns the load into a presence
	 * test.
	 */
	if (e->kind == EXPR_EXTHDR &&
	    (e->exthdr.flags & NFT_EXTHDR_F_PRESENT)) {
		const struct proto_hdr_template *t = e->exthdr.tmpl;

		/* "tcp option 34" has no template: its kind byte */
		dtype = t && t->dtype ? t->dtype : &integer_type;
		if (t)
			len = t->len;
	}

	if (e->kind == EXPR_SYMBOL) {
		const struct datatype *t;

		t = datatype_lookup_byname(e->sym.identifier);
		if (t) {
			datatype_describe(out, t);
			return;
		}
	}
	if (e->kind < __EXPR_MAX)
		kind = describe_kind_names[e->kind];
	fprintf(out, "%s expression, datatype %s (%s)", kind ? kind : "invalid",
		dtype->name, dtype->desc);
	/* Stock nft stops here, without a newline, for untyped keys. */
	if (dtype->type == TYPE_INVALID)
		return;

	/* Raw payloads carry nft's hex-printing alias of integer. */
	if (e->kind == EXPR_PAYLOAD && e->payload.is_raw &&
	    !dtype->basetype && dtype->type == TYPE_INTEGER)
		fputs(" (basetype integer)", out);
	else
		describe_basetypes(out, dtype);

	if (is_string_type(dtype)) {
		if (len)
			fprintf(out, ", %u characters", len / 8);
		else
			fputs(", dynamic length", out);
	} else {
		fprintf(out, ", %u bits", len);
	}
	fputc('\n', out);
	describe_symbols(out, dtype, false);
}
