/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LIST_TMPL_INT_H
#define NFTC_LIST_TMPL_INT_H

/*
 * Listing templates' insides, shared by recording them (list_tmpl.c)
 * and printing from them (list_tmpl_print.c).
 */
#include "list_tmpl.h"
#include "delin_int.h"

#define TMPL_BUCKETS	256
#define TMPL_MAX	1024	/* templates kept in all */
#define SHAPE_MAX	4096	/* bytes of expressions */

/*
 * How a hole's value comes from its compare's bytes: as the decompiler
 * reads them; a field of them (the printer splits a load of adjacent
 * fields, "ip ttl 1 ip protocol 6" is one compare); the first bytes of
 * an address (a shortened load, "ip daddr 10.1.0.0/16").
 */
enum tmpl_mode {
	TMPL_VALUE,
	TMPL_FIELD,
	TMPL_PREFIX,
	TMPL_U64,	/* a limit's rate, in decimal */
	TMPL_SET,	/* an anonymous set a lookup names: its elements */
};

struct tmpl_span {
	uint32_t		off;
	uint32_t		end;
	unsigned int		k;
	enum tmpl_mode		mode;
	unsigned int		shift;		/* TMPL_FIELD */
	unsigned int		plen;		/* TMPL_PREFIX */
	const struct datatype	*dtype;
	enum byteorder		order;
	unsigned int		len;
	unsigned int		flags;
	unsigned int		family;
	/* TMPL_SET: the rule's key the set is bound to (owned), and the
	 * set as the kernel has it (flags, key type) */
	struct expr		*key;
	uint32_t		set_flags;
	const struct datatype	*set_dtype;
	unsigned int		set_len;
	enum byteorder		set_order;
};

struct tmpl {
	struct tmpl		*next;
	const struct table	*table;
	uint32_t		family;
	uint64_t		hash;
	uint8_t			*shape;
	uint32_t		shape_len;
	uint32_t		keyed_mask;	/* bit k: compare k keyed */
	uint8_t			*keyed;		/* their bytes, in order */
	uint32_t		keyed_len;
	char			*text;
	uint32_t		text_len;
	unsigned int		nspan;
	struct tmpl_span	*spans;
};

/*
 * @same: templates of the shape of the rule last looked up (whatever
 * their keyed values): a shape whose values are mostly keyed (a limit's
 * rate, a protocol merged with the field before it) is recorded twice,
 * not for every rule.
 */
#define TMPL_SAME_MAX	2

struct list_tmpl {
	struct tmpl		*bucket[TMPL_BUCKETS];
	unsigned int		n;
	unsigned int		same;
};

void tmpl_free(struct tmpl *t);

/*
 * The values of @m's compares, limits and lookups (slots), in order:
 * their count, or -1 if there are more than TMPL_CMPS or one without a
 * value.
 */
int tmpl_cmp_values(const struct delin_rmsg *m, const struct nlattr **v);
/* @m's expressions with the slots' values zeroed, into @buf (0: too
 * long). */
uint32_t tmpl_shape_of(const struct delin_rmsg *m,
		       const struct nlattr *const *v, int n, uint8_t *buf);
uint64_t tmpl_hash_of(const uint8_t *p, uint32_t len, uint32_t family,
		      const struct table *t);
/* The value of hole @s from compare bytes @p, @n (IR; NULL for limits
 * and sets). */
struct expr *tmpl_span_value(const struct tmpl_span *s, const void *p,
			     unsigned int n);

#endif
