/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_PRINTER_H
#define NFTC_PRINTER_H

/*
 * The IR printer: IR -> nft text, in the layout stock nft 1.0.6 uses for
 * "nft list ruleset" (tabs, braces, element wrapping). Used by "list
 * ruleset" (IR decompiled from VM code), ipt2nft and the conformance
 * runners. Output goes to octx->f; octx->flags (enum nftc_output_flags)
 * select numeric/stateless/handle output.
 */

#include <stdint.h>
#include "list.h"
#include "datatype.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"

void nftc_print_ruleset(struct output_ctx *octx,
			const struct list_head *tables);
void nftc_print_table(struct output_ctx *octx, const struct table *table);
void nftc_print_chain(struct output_ctx *octx, const struct chain *chain);
/*
 * The chain block's opening (name, comment, hook line) without its rules
 * and closing "\t}\n": for rules printed separately, one per line as
 * "\t\tRULE\n".
 */
void nftc_print_chain_open(struct output_ctx *octx, const struct chain *chain);
void nftc_print_set(struct output_ctx *octx, const struct set *set);
void nftc_print_obj(struct output_ctx *octx, const struct obj *obj);
void nftc_print_flowtable(struct output_ctx *octx,
			  const struct flowtable *ft);
/* One rule on one line, without indentation or newline. */
void nftc_print_rule(struct output_ctx *octx, const struct rule *rule);
void nftc_print_stmt(struct output_ctx *octx, const struct stmt *stmt);
void nftc_print_expr(struct output_ctx *octx, const struct expr *expr);

/* "ip", "ip6", "inet", "arp", "bridge", "netdev" ("unknown" otherwise). */
const char *nftc_family_name(uint32_t family);

/* Internal, shared by printer.c, print_expr.c and print_stmt.c. */

/*
 * Print the elements of @set (EXPR_SET) in braces. @multiline wraps the
 * way stock does in set declarations, by the key type @key_dtype.
 */
void nftc_print_set_elems(struct output_ctx *octx, const struct expr *set,
			  const struct datatype *key_dtype, bool multiline);
/*
 * The same for @n elements printed one at a time: @print(@arg, k, @octx)
 * prints the k-th.
 */
void nftc_print_set_elems_from(struct output_ctx *octx, unsigned int n,
			       void (*print)(const void *arg, unsigned int k,
					     struct output_ctx *octx),
			       const void *arg,
			       const struct datatype *key_dtype,
			       bool multiline);
/* A time in ms, honouring NFTC_OUTPUT_SECONDS. */
void nftc_print_time(struct output_ctx *octx, uint64_t ms);
/* "N unit" of a byte count: bytes, kbytes or mbytes, as stock. */
void nftc_print_bytes(struct output_ctx *octx, uint64_t bytes);
/* "second", "minute", ... for a limit unit in seconds. */
const char *nftc_limit_unit_name(uint64_t unit);
/* print_undo.c: lowered forms in source shape; false if not one. */
bool nftc_print_rel_lowered(struct output_ctx *octx, const struct expr *rel);
bool nftc_print_map_lowered(struct output_ctx *octx, const struct expr *map,
			    const char *word);
bool nftc_print_payload_stmt_lowered(struct output_ctx *octx,
				     const struct stmt *s);
/* "ct [original|reply] [ip|ip6] KEY" (print_expr.c) */
void nftc_print_ct_key(struct output_ctx *octx, unsigned int key,
		       int direction, unsigned int nfproto);

/* Printer-internal octx->flags bits, set only while printing a part. */
#define NFTC_OUTPUT_INT_SETELEM		(1u << 30)	/* set elements */
#define NFTC_OUTPUT_INT_HEX		(1u << 29)	/* raw payload data */
#define NFTC_OUTPUT_INT_FLAGLIST	(1u << 28)	/* flags as a,b */
#define NFTC_OUTPUT_INT_FLAGOR		(1u << 27)	/* flags as a | b */

#endif
