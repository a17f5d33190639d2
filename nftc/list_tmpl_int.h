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

/*
 * Holes printed straight from their bytes (list_tmpl_print.c), chosen
 * while recording where the type's printer gives the same text for
 * every value of those bytes with the flags of the moment: a value of
 * the compare's whole bytes, or each element of a packed anonymous set.
 */
enum tmpl_fast {
	TMPL_FAST_NONE,
	TMPL_FAST_IP4,		/* ipv4_addr: dotted quad */
	TMPL_FAST_PORT,		/* inet_service, no service names: decimal */
	TMPL_FAST_IP6,		/* ipv6_addr: inet_ntop()'s text */
};

/* Room for a fast printer's text (an IPv6 prefix and ", "). */
#define TMPL_FAST_MAX	64

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
	enum tmpl_fast		fast;
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
	/* where the slots' values are, in the expressions' payload */
	unsigned int		nslot;
	uint16_t		slot_off[TMPL_CMPS];
	uint16_t		slot_len[TMPL_CMPS];
};

/*
 * @same: templates of the shape of the rule last looked up (whatever
 * their keyed values): a shape whose values are mostly keyed (a limit's
 * rate, a protocol merged with the field before it) is recorded twice,
 * not for every rule.
 */
#define TMPL_SAME_MAX	2

/*
 * @recent: by the length of its expressions, the two templates rules of
 * that length used last (the latest first); a rule compared with them
 * alone, outside its slots' values, needs no walk of its expressions
 * and no hash.
 */
#define TMPL_RECENT	64
#define TMPL_WAYS	2

struct list_tmpl {
	struct tmpl		*bucket[TMPL_BUCKETS];
	struct tmpl		*recent[TMPL_RECENT][TMPL_WAYS];
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

/* Which fast printer prints values of @dt (@order, @len bits) with
 * output @flags as the type's printer does, if any. */
enum tmpl_fast tmpl_fast_of(const struct datatype *dt, enum byteorder order,
			    unsigned int len, unsigned int flags);
/* Value @p (of @fast's width) printed into @buf: the text's end. */
char *tmpl_fast_fmt(enum tmpl_fast fast, char *buf, const uint8_t *p);
/*
 * Value or prefix hole @s with a fast printer, of compare bytes @p, @n,
 * printed into @buf (TMPL_FAST_MAX bytes): the text's end, or NULL if
 * not printed so.
 */
char *tmpl_span_fast_fmt(const struct tmpl_span *s, char *buf,
			 const uint8_t *p, unsigned int n);

#endif
