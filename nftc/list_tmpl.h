/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LIST_TMPL_H
#define NFTC_LIST_TMPL_H

/*
 * Listing templates (list_tmpl.c): the text of a rule, with holes where
 * the values of its compares, its packet limits' rates and its
 * anonymous sets are printed, reused for later rules of the same shape
 * (the same VM code but for those values).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "datatype.h"
#include "delinearize.h"

struct expr;
struct set;
struct table;
struct tmpl_span;

/*
 * Value slots (compares, limits, lookups, in the rule's order) of a rule
 * a template is recorded for (more: none recorded).
 */
#define TMPL_CMPS		16
/* location.first_line of what was read from slot k: MARK + k. */
#define TMPL_MARK		0x40000000u

/**
 * struct list_tmpl_rec - recording a template while a rule is listed
 * @ncmp: value slots; @cur: slots the decompiler read so far
 * @bad: the rule was read by libnftnl after all: no template
 * @cmp, @cmp_len: each slot's value (compare data, limit rate, set
 *                 name), in the message
 * @keyed: the slot's value steers decompiling (a protocol, a wildcard,
 *         ...) or is not printed as itself: not a hole
 * @set, @set_flags, @set_dtype, @set_len, @set_order: the anonymous set
 *       a lookup (slot k) named, as it was before the rule bound it
 * @spans: holes, in the text printed through a memory stream
 * @buf: that stream's buffer
 */
struct list_tmpl_rec {
	unsigned int		ncmp;
	unsigned int		cur;
	bool			bad;
	const uint8_t		*cmp[TMPL_CMPS];
	uint16_t		cmp_len[TMPL_CMPS];
	bool			keyed[TMPL_CMPS];
	const struct set	*set[TMPL_CMPS];
	uint32_t		set_flags[TMPL_CMPS];
	const struct datatype	*set_dtype[TMPL_CMPS];
	unsigned int		set_len[TMPL_CMPS];
	enum byteorder		set_order[TMPL_CMPS];
	unsigned int		nspan;
	struct tmpl_span	*spans;
	char			**buf;
};

struct list_tmpl;

struct list_tmpl *list_tmpl_new(void);
void list_tmpl_free(struct list_tmpl *lt);

/*
 * Print @lead and the statements of rule message @m of table @t from a
 * template made for an earlier rule; false if there is none (nothing
 * printed).
 */
bool list_tmpl_print(struct list_tmpl *lt, const struct table *t,
		     const struct delin_set_index *sets,
		     const struct delin_rmsg *m, struct output_ctx *octx,
		     const char *lead);

/*
 * Start recording for @m, just looked up with list_tmpl_print(): false
 * if it cannot be (too many compares, a comment, enough templates kept,
 * of its shape too).
 */
bool list_tmpl_rec_start(struct list_tmpl_rec *rec,
			 const struct list_tmpl *lt,
			 const struct delin_rmsg *m);
/* The printer's hook: value @e of compare k printed, as a hole. */
void list_tmpl_rec_value(struct output_ctx *octx, const struct expr *e);
/* ... and a limit's rate @v (of value slot @k), printed in decimal. */
void list_tmpl_rec_u64(struct output_ctx *octx, unsigned int k, uint64_t v);
/* Keep the template of @text (the rule's statements) recorded in @rec. */
void list_tmpl_add(struct list_tmpl *lt, const struct table *t,
		   const struct delin_rmsg *m, struct list_tmpl_rec *rec,
		   const char *text);
void list_tmpl_rec_done(struct list_tmpl_rec *rec);

#endif
