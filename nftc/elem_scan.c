// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fast element scan: a big set declaration's elements read from the text.
 *
 * A million addresses in "elements = { ... }" cost, one by one, a flex
 * token, bison's reductions, two expression nodes and a string, then
 * their evaluation (inet_pton) and freeing, for four bytes of key each.
 * When the set's key is known to be an IPv4 or IPv6 address or an
 * inet_service (a "type" line before the elements, or for an element
 * command a plain set declared or listed before it), the scanner hands
 * the text after the '{' to elem_scan_list() first. It reads it as
 * that list and nothing else:
 *   - elements: an address (dotted quad, IPv6 groups with at most one
 *     "::", no embedded IPv4) or a port number (1-65535), in decimal
 *     without leading zeros; in an interval set also "addr/N" (host
 *     bits clear) and "a-b" (a below b), written without blanks;
 *   - between them: a comma, blanks, and after the comma newlines and
 *     comments; blanks, a comment, newlines and a comma before the '}'.
 * These are exactly what the scanner and the grammar would make into
 * symbols, prefixes and ranges the evaluator accepts, each key what it
 * would be evaluated to. On the first thing it does not take (a name,
 * a variable, a timeout, a comment on an element, a concatenation, a
 * bad or out of range number, a line continuation, the end of the
 * text...) it gives up the whole list and the parser reads it as ever,
 * with its errors. Otherwise the keys ([low, high] pairs for an
 * interval set; an overlap error reads the list again to find where the
 * element was) go into a scanned pack (elem_pack.h),
 * the scanner resumes at the '}' and the parser sees "{ }".
 *
 * Evaluation (eval_set_pack.c) checks that the set is still what the
 * keys were read for: its first element, made again as IR by
 * elem_scan_unpack() and evaluated the usual way, must give the same
 * key; the pack takes that key's type. Otherwise (the type or flags
 * given after the elements) all of them are made again as IR, as the
 * parser would have made them.
 */
#include <stdlib.h>
#include <string.h>
#include "elem_scan.h"
#include "fmt.h"
#include "elem_pack.h"
#include "datatype.h"
#include "input_map.h"
#include "rule.h"

/**
 * struct scan_elem - one element read
 * @low: @high: its key bytes (big endian), equal for a single value
 * @bytes: key width in bytes
 * @plen: "addr/N": N, else 0
 * @start: @end: its text (offsets in the input), @a_end: end of its
 *               first word (the address of "addr/N", the low of "a-b"),
 *               @b_start: start of the high word of "a-b" (else 0)
 * @loc: its location (one line)
 */
struct scan_elem {
	uint8_t		low[16];
	uint8_t		high[16];
	unsigned int	bytes;
	unsigned int	plen;
	uint32_t	start;
	uint32_t	end;
	uint32_t	a_end;
	uint32_t	b_start;
	struct location	loc;
};

/* Element sink: 0 to go on, 1 to stop there (success), -1 to fail. */
typedef int (*scan_emit_fn)(void *arg, const struct scan_elem *e);

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Decimal without leading zeros, at most @digits digits and @max; the
 * end, or NULL. A longer run of digits is not ours (the scanner would
 * cut it differently).
 */
static const char *dec_parse(const char *s, unsigned int digits,
			     unsigned int max, unsigned int *v)
{
	unsigned int n = 0, i = 0;

	if (!is_digit(s[0]) || (s[0] == '0' && is_digit(s[1])))
		return NULL;
	while (i < digits && is_digit(s[i]))
		n = n * 10 + (unsigned int)(s[i++] - '0');
	if (is_digit(s[i]) || n > max)
		return NULL;
	*v = n;
	return s + i;
}

/*
 * IPv6 groups, at most one "::", no embedded IPv4: one of the scanner's
 * ip6addr forms, which nothing it has matches longer, and what
 * inet_pton() takes.
 */
static const char *ipv6_parse(const char *s, uint8_t *out)
{
	unsigned int g[8], n = 0, i, v, d;
	int gap = -1, x;

	if (s[0] == ':') {
		if (s[1] != ':')
			return NULL;
		gap = 0;
		s += 2;
	}
	for (;;) {
		v = 0;
		for (d = 0; d < 4 && (x = fmt_hex_digit(s[d])) >= 0; d++)
			v = v * 16 + (unsigned int)x;
		if (!d) {
			if (gap >= 0 && (unsigned int)gap == n)
				break;		/* "...::" */
			return NULL;
		}
		if (fmt_hex_digit(s[d]) >= 0 || n == 8)
			return NULL;
		g[n++] = v;
		s += d;
		if (*s != ':')
			break;
		if (s[1] == ':') {
			if (gap >= 0)
				return NULL;
			gap = (int)n;
			s += 2;
			continue;
		}
		s++;
	}
	if (*s == '.' || *s == ':' || (gap < 0 && n != 8) ||
	    (gap >= 0 && n > 7))
		return NULL;
	memset(out, 0, 16);
	for (i = 0; i < n; i++) {
		unsigned int at = (gap >= 0 && i >= (unsigned int)gap) ?
				  8 - n + i : i;

		out[2 * at] = (uint8_t)(g[i] >> 8);
		out[2 * at + 1] = (uint8_t)g[i];
	}
	return s;
}

static const char *port_parse(const char *s, uint8_t *out)
{
	unsigned int v;

	s = dec_parse(s, 5, 65535, &v);
	if (!s || !v)
		return NULL;
	out[0] = (uint8_t)(v >> 8);
	out[1] = (uint8_t)v;
	return s;
}

/**
 * struct scan_type - how keys of one kind are read
 * @parse: one key, its end or NULL
 * @bytes: key width
 * @prefix: "addr/N" is one
 */
struct scan_type {
	const char	*(*parse)(const char *s, uint8_t *out);
	unsigned int	bytes;
	bool		prefix;
};

static const struct scan_type scan_types[] = {
	[ELEM_SCAN_IPV4]	= { fmt_parse_ip4, 4, true },
	[ELEM_SCAN_IPV6]	= { ipv6_parse, 16, true },
	[ELEM_SCAN_PORT]	= { port_parse, 2, false },
};

/* Keys the fast scan reads, by the set's key type. */
static const struct {
	const struct datatype	*dtype;
	enum elem_scan_kind	kind;
} scan_kinds[] = {
	{ &ipaddr_type,		ELEM_SCAN_IPV4 },
	{ &ip6addr_type,	ELEM_SCAN_IPV6 },
	{ &inet_service_type,	ELEM_SCAN_PORT },
};

enum elem_scan_kind elem_scan_kind_of(const struct set *set)
{
	unsigned int i;

	if (!set || !set->key || set->key->kind != EXPR_VALUE ||
	    set->key_typeof || set->data || set->objtype ||
	    (set->flags & (SET_F_MAP | SET_F_OBJECT | SET_F_CONCAT |
			   SET_F_ANONYMOUS)))
		return ELEM_SCAN_NONE;
	for (i = 0; i < sizeof(scan_kinds) / sizeof(scan_kinds[0]); i++)
		if (set->key->dtype == scan_kinds[i].dtype)
			return scan_kinds[i].kind;
	return ELEM_SCAN_NONE;
}

/* After an element: what the scanner skips and cannot be part of it. */
static bool elem_ends(char c)
{
	return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '}' ||
	       c == '#';
}

/* Host bits of a /@plen prefix of @bytes bytes: clear in @low? */
static bool prefix_range(const uint8_t *low, uint8_t *high,
			 unsigned int bytes, unsigned int plen)
{
	unsigned int i, bits;
	uint8_t host;

	for (i = 0; i < bytes; i++) {
		bits = plen > i * 8 ? plen - i * 8 : 0;
		host = bits >= 8 ? 0 : (uint8_t)(0xff >> bits);
		if (low[i] & host)
			return false;
		high[i] = low[i] | host;
	}
	return true;
}

/**
 * struct scan_pos - the scan's place in the text
 * @s: the text (NUL after its end)
 * @p: next byte
 * @line: @line_offset: line of @p, its start
 */
struct scan_pos {
	const char	*s;
	uint32_t	p;
	uint32_t	line;
	uint32_t	line_offset;
};

/* Blanks, and with @nl newlines and comments. */
static void skip_gap(struct scan_pos *pos, bool nl)
{
	const char *s = pos->s;
	uint32_t p = pos->p;

	for (;;) {
		if (s[p] == ' ' || s[p] == '\t') {
			p++;
		} else if (s[p] == '#' && nl) {
			while (s[p] && s[p] != '\n')
				p++;
		} else if (s[p] == '\n' && nl) {
			p++;
			pos->line++;
			pos->line_offset = p;
		} else {
			break;
		}
	}
	pos->p = p;
}

/* One element at @pos; false if it is not one the fast scan takes. */
static bool elem_read(const struct scan_type *t, bool ranges,
		      const struct scan_pos *pos, struct scan_elem *e)
{
	const char *s = pos->s, *a = s + pos->p, *q;
	unsigned int plen;

	q = t->parse(a, e->low);
	if (!q)
		return false;
	e->bytes = t->bytes;
	e->plen = 0;
	e->b_start = 0;
	e->a_end = (uint32_t)(q - s);
	memcpy(e->high, e->low, t->bytes);
	if (ranges && *q == '/' && t->prefix) {
		q = dec_parse(q + 1, 3, t->bytes * 8, &plen);
		if (!q || !plen || !prefix_range(e->low, e->high, t->bytes,
						 plen))
			return false;
		e->plen = plen;
	} else if (ranges && *q == '-') {
		e->b_start = (uint32_t)(q + 1 - s);
		q = t->parse(q + 1, e->high);
		if (!q || memcmp(e->low, e->high, t->bytes) >= 0)
			return false;
	}
	if (!elem_ends(*q))
		return false;
	e->start = pos->p;
	e->end = (uint32_t)(q - s);
	e->loc.line_offset = pos->line_offset;
	e->loc.first_line = e->loc.last_line = pos->line;
	e->loc.first_column = e->start - pos->line_offset + 1;
	e->loc.last_column = e->end - pos->line_offset;
	return true;
}

/*
 * Read the list at @r, each element to @emit; 1 with @end at the '}'
 * when the whole list was read (or @emit stopped), 0 if something is
 * not taken, -1 if @emit failed.
 */
static int scan_run(const struct elem_scan_region *r, scan_emit_fn emit,
		    void *arg, struct elem_scan_region *end)
{
	const struct scan_type *t = &scan_types[r->kind];
	struct scan_pos pos = {
		.s		= r->indesc->data,
		.p		= r->offset,
		.line		= r->line,
		.line_offset	= r->line_offset,
	};
	struct scan_elem e;
	int ret;

	e.loc.indesc = r->indesc;
	skip_gap(&pos, true);
	if (pos.s[pos.p] == '}')
		return 0;		/* "{ }": the parser's */
	for (;;) {
		if (!elem_read(t, r->ranges, &pos, &e))
			return 0;
		ret = emit(arg, &e);
		if (ret < 0)
			return -1;
		if (ret > 0)
			break;
		pos.p = e.end;
		skip_gap(&pos, false);
		if (pos.s[pos.p] == ',') {
			pos.p++;
			skip_gap(&pos, true);
			if (pos.s[pos.p] == '}')
				break;		/* a comma before the '}' */
			continue;
		}
		/* no comma: a comment, newlines and the '}' only */
		skip_gap(&pos, true);
		if (pos.s[pos.p] == '}')
			break;
		return 0;
	}
	if (end) {
		*end = *r;
		end->offset = pos.p;
		end->line = pos.line;
		end->line_offset = pos.line_offset;
	}
	return 1;
}

/**
 * struct pack_sink - into a scanned pack
 * @p: the pack
 * @first_end: the byte after the first element (0: none yet)
 */
struct pack_sink {
	struct elem_pack	*p;
	uint32_t		first_end;
};

static int pack_emit(void *arg, const struct scan_elem *e)
{
	struct pack_sink *k = arg;

	if (!k->first_end)
		k->first_end = e->end + 1;
	return elem_pack_put(k->p, e->low, e->high, &e->loc);
}

struct elem_pack *elem_scan_list(const struct elem_scan_region *r,
				 struct elem_scan_region *end)
{
	struct pack_sink k = { 0 };
	struct elem_scan_region done;

	if (r->kind == ELEM_SCAN_NONE || !r->indesc || !r->indesc->data ||
	    r->offset >= r->indesc->size)
		return NULL;
	k.p = elem_pack_scanned(r, scan_types[r->kind].bytes);
	if (!k.p)
		return NULL;
	if (scan_run(r, pack_emit, &k, end) <= 0) {
		elem_pack_free(k.p);
		return NULL;
	}
	done = *r;
	done.end = end->offset;
	done.first_end = k.first_end;
	elem_pack_scan_region_set(k.p, &done);
	return k.p;
}

/**
 * struct ir_sink - elements made again as IR
 * @s: the input text
 * @list: where they go
 * @n: @max: made so far, at most
 */
struct ir_sink {
	const char	*s;
	struct expr	*list;
	unsigned int	n;
	unsigned int	max;
};

/* The word at [@from, @to) of @e's line as the scanner's STRING or NUM. */
static struct expr *word_sym(const struct ir_sink *k, const struct scan_elem *e,
			     uint32_t from, uint32_t to)
{
	struct location loc = e->loc;
	char *text = strndup(k->s + from, to - from);

	if (!text)
		return NULL;
	loc.first_column = from - loc.line_offset + 1;
	loc.last_column = to - loc.line_offset;
	return symbol_expr_alloc_own(&loc, SYMBOL_VALUE, text);
}

static int ir_emit(void *arg, const struct scan_elem *e)
{
	struct ir_sink *k = arg;
	struct expr *key, *high;

	key = word_sym(k, e, e->start, e->a_end);
	if (key && e->plen) {
		key = prefix_expr_alloc(&e->loc, key, e->plen);
	} else if (key && e->b_start) {
		high = word_sym(k, e, e->b_start, e->end);
		if (!high) {
			expr_free(key);
			return -1;
		}
		key = range_expr_alloc(&e->loc, key, high);
	}
	if (!key)
		return -1;
	key = set_elem_expr_alloc(&e->loc, key);
	if (!key)
		return -1;
	list_expr_add(k->list, key);
	return ++k->n == k->max ? 1 : 0;
}

int elem_scan_unpack(const struct elem_scan_region *r, struct expr *list,
		     unsigned int max)
{
	struct ir_sink k = {
		.s	= r->indesc->data,
		.list	= list,
		.max	= max,
	};

	/* the text may have been given back (input_map.h) */
	input_restore(r->indesc, r->offset,
		      max == 1 && r->first_end ? r->first_end + 1 : r->end + 1);
	if (max && scan_run(r, ir_emit, &k, NULL) < 0)
		return -1;
	return (int)k.n;
}

/**
 * struct locate_sink - looking for one element's location
 * @k: how many elements before it are left
 * @loc: where it goes
 */
struct locate_sink {
	unsigned int	k;
	struct location	*loc;
};

static int locate_emit(void *arg, const struct scan_elem *e)
{
	struct locate_sink *k = arg;

	if (k->k--)
		return 0;
	*k->loc = e->loc;
	return 1;
}

void elem_scan_locate(const struct elem_scan_region *r, unsigned int k,
		      struct location *loc)
{
	struct locate_sink sink = { .k = k, .loc = loc };

	input_restore(r->indesc, r->offset, r->end + 1);
	scan_run(r, locate_emit, &sink, NULL);
}
