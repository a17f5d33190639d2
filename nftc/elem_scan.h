/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_ELEM_SCAN_H
#define NFTC_ELEM_SCAN_H

/*
 * The element list of a set declaration read straight from its text
 * (see elem_scan.c): for a set whose key is an IPv4 or IPv6 address or
 * an inet_service, "elements = { ... }" written only with addresses,
 * prefixes, ranges or port numbers becomes key bytes without tokens,
 * IR or evaluation; anything else is left to the scanner and parser.
 */
#include <stdbool.h>
#include <stdint.h>
#include "expr.h"

/* Environment: "0" turns the fast scan off (tests compare both ways). */
#define ELEM_SCAN_ENV	"NFTKIT_ELEM_SCAN"

enum elem_scan_kind {
	ELEM_SCAN_NONE,
	ELEM_SCAN_IPV4,
	ELEM_SCAN_IPV6,
	ELEM_SCAN_PORT,
};

/**
 * struct elem_scan_region - where a scanned element list is
 * @indesc: its input text
 * @offset: first byte after the '{'
 * @line: @line_offset: the line @offset is on, where that line starts
 * @kind: what the elements were read as
 * @ranges: prefixes and ranges allowed (interval set)
 * @end: once read: the '}', @first_end: the byte after the first element
 */
struct elem_scan_region {
	const struct input_desc	*indesc;
	uint32_t		offset;
	uint32_t		line;
	uint32_t		line_offset;
	enum elem_scan_kind	kind;
	bool			ranges;
	uint32_t		end;
	uint32_t		first_end;
};

struct set;
struct elem_pack;

/* What the fast scan would read @set's elements as (NONE: not for it). */
enum elem_scan_kind elem_scan_kind_of(const struct set *set);

/*
 * Read the element list at @r (@r->offset right after its '{'); on
 * success a scanned pack (elem_pack.h) and, in @end, the '}' that ends
 * the list (offset, line, line start). NULL: something the fast scan
 * does not take (or no memory): the list is for the parser.
 */
struct elem_pack *elem_scan_list(const struct elem_scan_region *r,
				 struct elem_scan_region *end);

/*
 * The elements at @r as the parser makes them (EXPR_SET_ELEM of a
 * symbol, "word/N" prefix or "a-b" range, with the same locations),
 * appended to @list; at most @max of them. Returns how many, -1
 * without memory.
 */
int elem_scan_unpack(const struct elem_scan_region *r, struct expr *list,
		     unsigned int max);

/* Location of element @k (from 0) of the list at @r, into @loc. */
void elem_scan_locate(const struct elem_scan_region *r, unsigned int k,
		      struct location *loc);

#endif
