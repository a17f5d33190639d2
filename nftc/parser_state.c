/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parser support: the parse state, "define" bindings, inputs, the public
 * entry points nftc_parse_file()/nftc_parse_buffer() and the small
 * number/unit parsers the grammar actions share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/mman.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include "parser_state.h"
#include "env.h"
#include "keys.h"
#include "pipeline.h"
#include "elem_pack.h"
#include "elem_scan.h"
#include "hash.h"
#include "input_map.h"
#include "rule.h"
#include "evaluate.h"
#include "rule_memo.h"

void parser_state_init(struct parser_state *state, struct nftc_ctx *nft,
		       struct list_head *cmds)
{
	memset(state, 0, sizeof(*state));
	state->nft = nft;
	state->erq = &nft->erq;
	state->cmds = cmds;
	init_list_head(&state->symbols);
	state->scan_off = env_off(ELEM_SCAN_ENV);
}

void parser_state_fini(struct parser_state *state)
{
	struct symbol *s, *next;

	list_for_each_entry_safe(s, next, &state->symbols, list) {
		list_del(&s->list);
		free(s->name);
		expr_free(s->expr);
		free(s);
	}
	while (state->nstrpool)
		free(state->strpool[--state->nstrpool]);
	free(state->strpool);
	state->strpool = NULL;
	state->strpool_cap = 0;
	free(state->strhash);
	state->strhash = NULL;
	state->strhash_size = 0;
	elem_pack_free(state->pack);
	state->pack = NULL;
	state->pack_armed = false;
	state->scan_set = NULL;
}

/**
 * parser_elements_begin - an element list follows: "elements =" of a set
 * declaration or the elements of an element command
 * @set: the set it is for when its key is known by now (the declaration,
 *       or parser_elements_cmd_set()); NULL otherwise
 *
 * The element list that follows may pack its elements; the list of a
 * known @set may be read by the scanner itself, at its '{'
 * (elem_scan.h). A pack
 * left from a list that a syntax error abandoned is dropped (its list,
 * and the compilation, are gone).
 */
void parser_elements_begin(struct parser_state *state,
			   const struct set *set)
{
	elem_pack_free(state->pack);
	state->pack = NULL;
	state->pack_armed = true;
	state->scan_set = !state->scan_off &&
			  elem_scan_kind_of(set) != ELEM_SCAN_NONE ? set : NULL;
}

/**
 * parser_elements_cmd_set - the set an element command names, if known
 *
 * Declared earlier in the file (and evaluated: a streaming parse) or
 * read from the kernel; not an interval set, whose elements an element
 * command checks as IR. NULL otherwise: the parser reads the elements.
 */
const struct set *parser_elements_cmd_set(struct parser_state *state,
					  const struct handle *h)
{
	struct table *t;
	struct set *set;

	if (!h || !h->table.name || !h->set.name)
		return NULL;
	t = table_cache_find(state->nft, h->family, h->table.name);
	set = set_cache_find(t, h->set.name);
	return set && !(set->flags & SET_F_INTERVAL) ? set : NULL;
}

/* Put what @list packed back in it as IR: it takes no more. */
static void elems_unpack(struct parser_state *state, struct expr *list)
{
	list->set_flags &= ~SET_F_ELEM_PACKING;
	if (state->pack && elem_pack_unpack(state->pack, list) < 0)
		erec_error(state->erq, &list->location,
			   "Could not process rule: %s", strerror(ENOMEM));
	elem_pack_free(state->pack);
	state->pack = NULL;
	state->pack_armed = false;
}

/**
 * parser_set_elems_add - append @elem to the element list @list
 *
 * The first list of a set declaration's elements to reach
 * ELEM_PACK_MIN elements packs the plain ones that follow; the first
 * other element it gets ends that, in order.
 */
void parser_set_elems_add(struct parser_state *state, struct expr *list,
			  struct expr *elem)
{
	int ret;

	if (!elem)
		return;
	if (state->pack_armed && !(list->set_flags & SET_F_ELEM_PACKING) &&
	    !state->pack && list->kind == EXPR_SET &&
	    list->size >= ELEM_PACK_MIN)
		list->set_flags |= SET_F_ELEM_PACKING;
	if (list->set_flags & SET_F_ELEM_PACKING) {
		ret = elem_pack_take(&state->pack, elem);
		if (ret > 0)
			return;
		elems_unpack(state, list);
	}
	list_expr_add(list, elem);
}

/* The list inside @e that packs (a set nested in the elements). */
static struct expr *packing_list(struct expr *e)
{
	struct expr *i, *found;

	if (!e)
		return NULL;
	switch (e->kind) {
	case EXPR_SET:
		if (e->set_flags & SET_F_ELEM_PACKING)
			return e;
		/* fall through */
	case EXPR_LIST:
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->expressions, list) {
			found = packing_list(i);
			if (found)
				return found;
		}
		return NULL;
	case EXPR_SET_ELEM:
		return packing_list(e->elem.key);
	case EXPR_MAPPING:
	case EXPR_RANGE:
		found = packing_list(e->pair.left);
		return found ? found : packing_list(e->pair.right);
	case EXPR_PREFIX:
		return packing_list(e->prefix.expr);
	default:
		return NULL;
	}
}

/**
 * parser_elements_end - @list is the element list that began last
 * @dst: where its pack goes (set->pack, cmd->pack: after @list's own
 *       elements); NULL: nowhere, @list takes them back
 *
 * A set nested in the list takes back what it packed.
 */
void parser_elements_end(struct parser_state *state, struct elem_pack **dst,
			 struct expr *list)
{
	struct expr *owner = list ? packing_list(list) : NULL;

	state->scan_set = NULL;
	if (dst) {
		elem_pack_free(*dst);
		*dst = NULL;
	}
	if (elem_pack_region(state->pack) && dst && list &&
	    list->kind == EXPR_SET && !list->size) {
		/* the scanner read the list: the parser saw "{ }" */
		*dst = state->pack;
		state->pack = NULL;
	} else if (owner == list && state->pack && dst) {
		list->set_flags &= ~SET_F_ELEM_PACKING;
		*dst = state->pack;
		state->pack = NULL;
	} else if (owner) {
		elems_unpack(state, owner);
	} else if (state->pack && list) {
		erec_error(state->erq, &list->location,
			   "Could not process rule: elements lost");
	}
	elem_pack_free(state->pack);
	state->pack = NULL;
	state->pack_armed = false;
}

int parser_cmd_done(struct parser_state *state, struct cmd *cmd)
{
	if (!state->pipe) {
		list_add_tail(&cmd->list, state->cmds);
		return 0;
	}
	return pipeline_cmd(state->pipe, cmd);
}

struct symbol *symbol_lookup(struct parser_state *state, const char *name)
{
	struct symbol *s;

	list_for_each_entry(s, &state->symbols, list) {
		if (!strcmp(s->name, name))
			return s;
	}
	return NULL;
}

/**
 * symbol_bind - bind @name to @expr (taken over), replacing a binding
 */
int symbol_bind(struct parser_state *state, const char *name,
		struct expr *expr)
{
	struct symbol *s = symbol_lookup(state, name);

	if (s) {
		expr_free(s->expr);
		s->expr = expr;
		return 0;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		expr_free(expr);
		return -ENOMEM;
	}
	s->name = strdup(name);
	s->expr = expr;
	list_add_tail(&s->list, &state->symbols);
	return 0;
}

int symbol_unbind(struct parser_state *state, const char *name)
{
	struct symbol *s = symbol_lookup(state, name);

	if (!s)
		return -ENOENT;
	list_del(&s->list);
	free(s->name);
	expr_free(s->expr);
	free(s);
	return 0;
}

struct input_desc *parser_input_add(struct parser_state *state,
				    enum input_kind kind, const char *name,
				    char *data, size_t size)
{
	struct input_desc *in = calloc(1, sizeof(*in));
	char *d;

	/* two NULs after the text: the scanner reads it in place */
	d = in ? realloc(data, size + 2) : NULL;
	if (!d) {
		free(in);
		free(data);
		return NULL;
	}
	data = d;
	data[size] = data[size + 1] = '\0';
	in->kind = kind;
	in->name = strdup(name);
	in->data = data;
	in->size = size;
	in->next = state->nft->inputs;
	state->nft->inputs = in;
	return in;
}

/* parser_input_add() for a mapped file (input_map.h): NULs are there. */
struct input_desc *parser_input_add_map(struct parser_state *state,
					const char *name, char *data,
					size_t size, size_t map_len)
{
	struct input_desc *in = calloc(1, sizeof(*in));

	if (in)
		in->name = strdup(name);
	if (!in || !in->name) {
		free(in);
		munmap(data, map_len);
		return NULL;
	}
	in->kind = INPUT_FILE;
	in->data = data;
	in->size = size;
	in->map_len = map_len;
	in->next = state->nft->inputs;
	state->nft->inputs = in;
	return in;
}

/**
 * parser_input_file - file @path as a new input, into *@in
 *
 * A big regular file is mapped and read as the scanner reaches it
 * (input_map.h), others are read into the heap. Returns -1 with errno
 * when the file cannot be read, else 0 (*@in NULL without memory).
 */
int parser_input_file(struct parser_state *state, const char *path,
		      struct input_desc **in)
{
	size_t size, map_len = 0, loaded;
	int fd = -1;
	char *data = input_map_file(path, &size, &map_len, &loaded, &fd);

	if (data) {
		*in = parser_input_add_map(state, path, data, size, map_len);
		if (*in)
			input_defer(*in, loaded, fd);
		else
			close(fd);
		return 0;
	}
	data = parser_read_file(path, &size);
	if (!data)
		return -1;
	*in = parser_input_add(state, INPUT_FILE, path, data, size);
	return 0;
}

char *parser_read_file(const char *path, size_t *size)
{
	size_t cap = 4096, len = 0, n;
	char *buf, *nbuf;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto err_close;
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto err_free;
			buf = nbuf;
			cap *= 2;
		}
	}
	if (ferror(f))
		goto err_free;
	fclose(f);
	buf[len] = '\0';
	*size = len;
	return buf;
err_free:
	free(buf);
err_close:
	fclose(f);
	return NULL;
}

static int parse_run(struct nftc_ctx *ctx, struct input_desc *in,
		     struct parser_state *state)
{
	int ret;

	if (scanner_init(state) < 0)
		return -1;
	if (scanner_push_buffer(state, in) < 0) {
		scanner_destroy(state);
		return -1;
	}
	ret = nft_parse(state, state->scanner);
	scanner_destroy(state);
	if (ret != 0 || state->erq->num_errors > 0)
		return -1;
	return 0;
}

/**
 * nftc_parse_file - parse an nft file into commands
 * @ctx: compiler context; the file's text is kept in ctx->inputs
 * @path: file name, "-" is not special
 * @cmds: parsed commands are appended here
 *
 * Returns 0, or -1 with diagnostics queued in ctx->erq.
 */
int nftc_parse_file(struct nftc_ctx *ctx, const char *path,
		    struct list_head *cmds)
{
	return nftc_parse_file_pipe(ctx, path, NULL, 0, cmds, NULL);
}

/**
 * nftc_parse_file_pipe - parse an nft file, commands to a pipeline
 * @data: the file's text (@size bytes) if read already, taken over;
 *        NULL to read @path
 * @p: where complete commands go (NULL: appended to @cmds)
 */
int nftc_parse_file_pipe(struct nftc_ctx *ctx, const char *path,
			 char *data, size_t size, struct list_head *cmds,
			 struct pipeline *p)
{
	struct parser_state state;
	struct input_desc *in;
	int ret;

	parser_state_init(&state, ctx, cmds);
	state.pipe = p;
	state.memo = pipeline_memo(p);
	rule_memo_attach(state.memo, &state);
	if (data)
		in = parser_input_add(&state, INPUT_FILE, path, data, size);
	else if (parser_input_file(&state, path, &in) < 0) {
		erec_error(&ctx->erq, NULL, "Could not open file \"%s\": %s",
			   path, strerror(errno));
		return -1;
	}
	if (!in)
		return -1;
	ret = parse_run(ctx, in, &state);
	parser_state_fini(&state);
	return ret;
}

/**
 * nftc_parse_buffer - parse nft text given on the command line
 *
 * Diagnostics name the input "<cmdline>".
 */
int nftc_parse_buffer(struct nftc_ctx *ctx, const char *buf,
		      struct list_head *cmds)
{
	struct parser_state state;
	struct input_desc *in;
	char *data;
	int ret;

	parser_state_init(&state, ctx, cmds);
	data = strdup(buf);
	if (!data)
		return -1;
	in = parser_input_add(&state, INPUT_CMDLINE, "<cmdline>", data,
			      strlen(data));
	if (!in)
		return -1;
	ret = parse_run(ctx, in, &state);
	parser_state_fini(&state);
	return ret;
}

/* Decimal, 0x hex or 0 octal, as strtoull, the whole string. */
int parse_u64(const char *s, uint64_t *n)
{
	char *end;

	errno = 0;
	*n = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	return 0;
}

struct unit {
	const char	*name;
	uint64_t	mult;
};

static const struct unit time_units_ms[] = {
	{ "ms",	1 },
	{ "s",	1000 },
	{ "m",	60 * 1000 },
	{ "h",	3600 * 1000 },
	{ "d",	86400 * 1000ULL },
	{ NULL, 0 },
};

/**
 * parse_time_ms - "1d2h3m4s5ms" or a plain number of seconds -> ms
 */
int parse_time_ms(const char *s, uint64_t *ms)
{
	uint64_t total = 0, n;
	const struct unit *u;
	const char *p = s;
	char *end;

	if (!parse_u64(s, &n)) {
		*ms = n * 1000;
		return 0;
	}
	while (*p) {
		size_t best = 0;
		const struct unit *bu = NULL;

		if (*p < '0' || *p > '9')
			return -1;
		n = strtoull(p, &end, 10);
		p = end;
		for (u = time_units_ms; u->name; u++) {
			size_t l = strlen(u->name);

			if (!strncasecmp(p, u->name, l) && l > best &&
			    (p[l] == '\0' || (p[l] >= '0' && p[l] <= '9'))) {
				best = l;
				bu = u;
			}
		}
		if (!bu)
			return -1;
		total += n * bu->mult;
		p += best;
	}
	*ms = total;
	return 0;
}

static const struct unit byte_units[] = {
	{ "bytes",	1 },
	{ "kbytes",	1024 },
	{ "mbytes",	1024 * 1024 },
	{ "gbytes",	1024 * 1024 * 1024ULL },
	{ NULL, 0 },
};

static const struct unit rate_time_units[] = {
	{ "second",	1 },
	{ "minute",	60 },
	{ "hour",	3600 },
	{ "day",	86400 },
	{ "week",	86400 * 7 },
	{ NULL, 0 },
};

static int unit_lookup(const struct unit *tbl, const char *s, uint64_t *m)
{
	for (; tbl->name; tbl++) {
		if (!strcasecmp(tbl->name, s)) {
			*m = tbl->mult;
			return 0;
		}
	}
	return -1;
}

int parse_byte_unit(const char *s, uint64_t *mult)
{
	return unit_lookup(byte_units, s, mult);
}

int parse_time_unit(const char *s, uint64_t *secs)
{
	return unit_lookup(rate_time_units, s, secs);
}

static const struct unit log_levels[] = {
	{ "emerg",	0 },
	{ "alert",	1 },
	{ "crit",	2 },
	{ "err",	3 },
	{ "warn",	4 },
	{ "notice",	5 },
	{ "info",	6 },
	{ "debug",	7 },
	{ "audit",	8 },
	{ NULL, 0 },
};

int parse_log_level(const char *s, uint32_t *level)
{
	uint64_t l;

	if (unit_lookup(log_levels, s, &l))
		return -1;
	*level = l;
	return 0;
}

/*
 * Grammar action helpers. They keep the grammar's actions one line long.
 * On a semantic error they queue a located diagnostic and still return a
 * valid node (a symbol) so the tree stays well formed; the parse then
 * fails as a whole.
 */

/* Index @i of the pool into the hash table of @size slots. */
static void strpool_index(unsigned int *tab, unsigned int size,
			  char *const *pool, unsigned int i)
{
	unsigned int h = hash_str(pool[i], NULL) & (size - 1);

	while (tab[h])
		h = (h + 1) & (size - 1);
	tab[h] = i + 1;
}

/*
 * Field and key names outlive their token (the grammar passes them as
 * <kw>): keep one copy of each distinct word until the parse ends. A
 * 100,000-rule file names "saddr" 100,000 times, so the pool is a set.
 */
const char *keep_string(struct parser_state *state, char *s)
{
	unsigned int size = state->strhash_size, h, i, cap;
	unsigned int *tab;
	char **n;

	if (size) {
		for (h = hash_str(s, NULL) & (size - 1); state->strhash[h];
		     h = (h + 1) & (size - 1)) {
			i = state->strhash[h] - 1;
			if (!strcmp(state->strpool[i], s)) {
				free(s);
				return state->strpool[i];
			}
		}
	}
	if (state->nstrpool == state->strpool_cap) {
		cap = state->strpool_cap ? state->strpool_cap * 2 : 64;
		n = realloc(state->strpool, cap * sizeof(*n));
		tab = calloc(cap * 2, sizeof(*tab));
		if (!n || !tab) {
			if (n)
				state->strpool = n;
			free(tab);
			return s;	/* leaks one word rather than failing */
		}
		state->strpool = n;
		state->strpool_cap = cap;
		free(state->strhash);
		state->strhash = tab;
		state->strhash_size = cap * 2;
		for (i = 0; i < state->nstrpool; i++)
			strpool_index(tab, cap * 2, n, i);
	}
	state->strpool[state->nstrpool] = s;
	strpool_index(state->strhash, state->strhash_size, state->strpool,
		      state->nstrpool);
	state->nstrpool++;
	return s;
}

struct expr *sym_expr(const struct location *loc, char *s)
{
	return symbol_expr_alloc_own(loc, SYMBOL_VALUE, s);
}

struct expr *neg_sym_expr(const struct location *loc, char *s)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "-%s", s);
	free(s);
	return symbol_expr_alloc(loc, SYMBOL_VALUE, buf);
}

struct expr *kw_expr(const struct location *loc, const char *kw)
{
	return symbol_expr_alloc(loc, SYMBOL_VALUE, kw);
}

struct expr *var_expr(struct parser_state *state, const struct location *loc,
		      char *name)
{
	struct symbol *sym = symbol_lookup(state, name);
	struct expr *e;

	if (!sym) {
		/* NULL: the action drops the statement with YYERROR */
		erec_error(state->erq, loc, "unknown identifier '%s'", name);
		e = NULL;
	} else {
		e = variable_expr_alloc(loc, name, expr_get(sym->expr));
	}
	free(name);
	return e;
}

struct expr *set_ref(const struct location *loc, char *name,
		     const struct location *nloc)
{
	struct set *set = set_alloc(nloc);

	if (!set) {
		free(name);
		return NULL;
	}
	set->handle.set.name = name;
	set->handle.set.location = *nloc;
	return set_ref_expr_alloc(loc, set);
}

/* a . b, flattened: concatenations never nest. */
struct expr *concat(struct expr *a, struct expr *b,
		    const struct location *loc)
{
	struct expr *c, *i, *next;

	if (a->kind == EXPR_CONCAT) {
		c = a;
	} else {
		c = list_expr_alloc(loc, EXPR_CONCAT);
		list_expr_add(c, a);
	}
	c->location = *loc;
	if (b->kind == EXPR_CONCAT) {
		list_for_each_entry_safe(i, next, &b->expressions, list) {
			list_del(&i->list);
			list_expr_add(c, i);
		}
		expr_free(b);
	} else {
		list_expr_add(c, b);
	}
	return c;
}

static bool is_number(const struct expr *e)
{
	const char *p;

	if (e->kind != EXPR_SYMBOL || e->sym.symtype != SYMBOL_VALUE)
		return false;
	for (p = e->sym.identifier; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
	}
	return p != e->sym.identifier;
}

/*
 * "a / N" is a prefix; "value / mask" (nft 1.0.6 flag syntax) stays a
 * binop marked OP_INVALID until match() turns it into a masked compare.
 */
struct expr *slash(const struct location *loc, struct expr *l,
		   struct expr *r)
{
	struct expr *p;

	if (is_number(r)) {
		p = prefix_expr_alloc(loc, l, strtoul(r->sym.identifier,
						      NULL, 10));
		expr_free(r);
		return p;
	}
	return binop_expr_alloc(loc, OP_INVALID, l, r);
}

static bool is_slash(const struct expr *e)
{
	return e->kind == EXPR_BINOP && e->op == OP_INVALID;
}

static struct expr *list_unwrap(struct expr *list)
{
	struct expr *e;

	if (list->size != 1)
		return list;
	e = list_first_entry(&list->expressions, struct expr, list);
	list_del(&e->list);
	expr_free(list);
	return e;
}

/* Split "v1,v2 / m1,m2" (parsed as v1, v2/m1, m2) into value and mask. */
static bool split_flagcmp(struct expr *rhs, struct expr **value,
			  struct expr **mask)
{
	struct expr *i, *next, *v, *m;
	bool in_mask = false, found = false;

	if (is_slash(rhs)) {
		*value = expr_get(rhs->pair.left);
		*mask = expr_get(rhs->pair.right);
		expr_free(rhs);
		return true;
	}
	if (rhs->kind != EXPR_LIST)
		return false;
	list_for_each_entry(i, &rhs->expressions, list) {
		if (is_slash(i))
			found = true;
	}
	if (!found)
		return false;
	v = list_expr_alloc(&rhs->location, EXPR_LIST);
	m = list_expr_alloc(&rhs->location, EXPR_LIST);
	list_for_each_entry_safe(i, next, &rhs->expressions, list) {
		list_del(&i->list);
		if (!in_mask && is_slash(i)) {
			list_expr_add(v, expr_get(i->pair.left));
			list_expr_add(m, expr_get(i->pair.right));
			expr_free(i);
			in_mask = true;
		} else {
			list_expr_add(in_mask ? m : v, i);
		}
	}
	expr_free(rhs);
	*value = list_unwrap(v);
	*mask = list_unwrap(m);
	return true;
}

struct stmt *match(struct parser_state *state, const struct location *loc,
		   int op, struct expr *lhs, struct expr *rhs)
{
	struct expr *value, *mask;

	if (split_flagcmp(rhs, &value, &mask)) {
		lhs = binop_expr_alloc(loc, OP_AND, lhs, mask);
		rhs = value;
		if (op == OP_IMPLICIT)
			op = OP_EQ;
	}
	return expr_stmt_alloc(loc, relational_expr_alloc(loc, op, lhs, rhs));
}

/*
 * Semantic errors in selectors: queue the diagnostic and return NULL; the
 * grammar action then uses YYERROR so the statement is dropped and
 * parsing resumes at the next line, as for a syntax error.
 */
static struct expr *bad_selector(struct parser_state *state,
				 const struct location *loc,
				 const char *fmt, const char *a,
				 const char *b)
{
	erec_error(state->erq, loc, fmt, a, b);
	return NULL;
}

/*
 * The memo slot of a selector: open addressing from the pointers'
 * (Fibonacci) hash, so that up to PARSER_SELECTOR_MEMO selectors all
 * stay remembered, whatever addresses the heap gave the pooled words
 * (a direct-mapped table lost some to collisions, more or fewer with
 * every change of allocation pattern). Returns the selector's slot, or
 * a free one, or (full) the first one probed.
 */
static struct selector_memo *selector_memo_slot(struct parser_state *state,
						const char *proto,
						const char *field)
{
	uint64_t h = (uint64_t)(uintptr_t)proto ^
		     ((uint64_t)(uintptr_t)field << 1);
	unsigned int i, first, n = PARSER_SELECTOR_MEMO;
	struct selector_memo *m;

	first = (unsigned int)((h * 0x9e3779b97f4a7c15ull) >> 32) % n;
	for (i = 0; i < n; i++) {
		m = &state->selector_memo[(first + i) % n];
		if (!m->proto || (m->proto == proto && m->field == field))
			return m;
	}
	return &state->selector_memo[first];
}

struct expr *payload_sel(struct parser_state *state,
			 const struct location *loc, const char *proto,
			 const struct location *ploc, const char *field,
			 const struct location *floc)
{
	struct selector_memo *m;
	const struct proto_desc *desc;
	unsigned int f;

	/*
	 * Protocol names are keywords (static strings) and field names are
	 * pooled (keep_string), so the pair of pointers identifies the
	 * selector: remember the last lookups instead of two table scans.
	 */
	m = selector_memo_slot(state, proto, field);
	if (m->proto == proto && m->field == field)
		return payload_expr_alloc(loc, m->desc, m->field_id);
	desc = proto_desc_lookup(strcmp(proto, "eth") ? proto : "ether");
	if (!desc)
		return bad_selector(state, ploc, "unknown protocol %s%s",
				    strcmp(proto, "eth") ? proto : "ether",
				    "");
	f = proto_field_lookup(desc, field);
	if (!f)
		return bad_selector(state, floc,
				    "syntax error, unexpected string%s%s", "",
				    "");
	m->proto = proto;
	m->field = field;
	m->desc = desc;
	m->field_id = f;
	return payload_expr_alloc(loc, desc, f);
}

static const struct {
	const char		*name;
	enum proto_bases	base;
} raw_bases[] = {
	{ "ll", PROTO_BASE_LL_HDR },
	{ "nh", PROTO_BASE_NETWORK_HDR },
	{ "th", PROTO_BASE_TRANSPORT_HDR },
	{ "ih", PROTO_BASE_INNER_HDR },
};

struct expr *raw_payload(struct parser_state *state,
			 const struct location *loc, char *base,
			 const struct location *bloc, uint64_t off,
			 uint64_t len)
{
	unsigned int i;
	struct expr *e;

	for (i = 0; i < sizeof(raw_bases) / sizeof(raw_bases[0]); i++) {
		if (!strcmp(base, raw_bases[i].name)) {
			free(base);
			return payload_raw_alloc(loc, raw_bases[i].base, off,
						 len);
		}
	}
	e = bad_selector(state, bloc, "syntax error, unexpected %s%s", base,
			 "");
	free(base);
	return e;
}

/* The header/option itself, as an existence test (see PARSER-IR.md). */
static void exthdr_make_present(struct expr *e)
{
	e->exthdr.flags = NFT_EXTHDR_F_PRESENT;
	e->dtype = &boolean_type;
}

/*
 * The expression of @desc (looked up from the name at @nloc): the
 * header's presence (template @presence with the present flag) without
 * @field, else @field's value; a bad name or field is an error at its
 * own location.
 */
static struct expr *exthdr_pick(struct parser_state *state,
				const struct location *loc,
				const struct exthdr_desc *desc,
				const struct location *nloc,
				enum nft_exthdr_op op, unsigned int presence,
				const char *field, const struct location *floc)
{
	struct expr *e;
	unsigned int f;

	if (!desc)
		return bad_selector(state, nloc,
				    "syntax error, unexpected string%s%s", "",
				    "");
	if (!field) {
		e = exthdr_expr_alloc(loc, desc, presence, op);
		if (e)
			exthdr_make_present(e);
		return e;
	}
	f = exthdr_field_lookup(desc, field);
	if (!f)
		return bad_selector(state, floc,
				    "syntax error, unexpected string%s%s", "",
				    "");
	return exthdr_expr_alloc(loc, desc, f, op);
}

struct expr *exthdr_sel(struct parser_state *state,
			const struct location *loc, const char *name,
			const struct location *nloc, const char *field,
			const struct location *floc)
{
	return exthdr_pick(state, loc, exthdr_ipv6_lookup(name), nloc,
			   NFT_EXTHDR_OP_IPV6, 1, field, floc);
}

struct expr *option_sel(struct parser_state *state,
			const struct location *loc, const char *proto,
			const struct location *ploc, const char *opt,
			const struct location *oloc, const char *field,
			const struct location *floc)
{
	const struct exthdr_desc *desc;
	enum nft_exthdr_op op;
	const char *kind;
	unsigned int f;

	if (!strcmp(proto, "tcp")) {
		/* names stock nft accepts besides the table's own */
		if (!strcmp(opt, "mss"))
			opt = "maxseg";
		else if (!strcmp(opt, "sack-permitted"))
			opt = "sack-perm";
		desc = exthdr_tcpopt_lookup(opt);
		op = NFT_EXTHDR_OP_TCPOPT;
		kind = "kind";
	} else if (!strcmp(proto, "ip")) {
		desc = exthdr_ipopt_lookup(opt);
		op = NFT_EXTHDR_OP_IPV4;
		kind = "type";
	} else {
		return bad_selector(state, ploc, "%s has no options%s", proto,
				    "");
	}
	f = desc ? exthdr_field_lookup(desc, kind) : 0;
	return exthdr_pick(state, loc, desc, oloc, op, f ? f : 1, field, floc);
}

/* "sctp chunk NAME [FIELD]": without a field, the chunk's presence */
struct expr *chunk_sel(struct parser_state *state,
		       const struct location *loc, const char *proto,
		       const struct location *ploc, const char *chunk,
		       const struct location *cloc, const char *field,
		       const struct location *floc)
{
	if (strcmp(proto, "sctp"))
		return bad_selector(state, ploc, "%s has no chunks%s", proto,
				    "");
	/* stock loads the type byte with the present flag */
	return exthdr_pick(state, loc, exthdr_sctp_lookup(chunk), cloc,
			   NFT_EXTHDR_OP_SCTP, 1, field, floc);
}

struct expr *raw_option(struct parser_state *state,
			const struct location *loc, const char *proto,
			const struct location *ploc, uint64_t kind,
			uint64_t off, uint64_t len)
{
	struct expr *e;

	if (strcmp(proto, "tcp"))
		return bad_selector(state, ploc, "%s has no raw options%s",
				    proto, "");
	e = exthdr_expr_alloc(loc, NULL, 0, NFT_EXTHDR_OP_TCPOPT);
	if (!e)
		return NULL;
	e->exthdr.raw_type = kind;
	e->exthdr.offset = off;
	e->len = len;
	return e;
}

struct expr *meta_sel(struct parser_state *state, const struct location *loc,
		      const char *key, const struct location *kloc)
{
	char known[1024];
	size_t len = 0;
	unsigned int i;
	int k = meta_key_lookup(key);

	if (k >= 0)
		return meta_expr_alloc(loc, k);
	known[0] = '\0';
	for (i = 0; i < META_KEYS_MAX; i++) {
		if (!meta_templates[i].token || len >= sizeof(known))
			continue;
		len += snprintf(known + len, sizeof(known) - len, "%s%s",
				len ? ", " : "", meta_templates[i].token);
	}
	return bad_selector(state, loc,
			    "syntax error, unexpected %s, known keys are %s",
			    key, known);
}

struct expr *ct_sel(struct parser_state *state, const struct location *loc,
		    int dir, uint64_t family, const char *key,
		    const struct location *kloc)
{
	bool v6 = family == NFPROTO_IPV6;
	struct expr *e;
	int k;

	if (family && !strcmp(key, "saddr"))
		k = v6 ? NFT_CT_SRC_IP6 : NFT_CT_SRC_IP;
	else if (family && !strcmp(key, "daddr"))
		k = v6 ? NFT_CT_DST_IP6 : NFT_CT_DST_IP;
	else
		k = ct_key_lookup(key);
	if (k < 0)
		return bad_selector(state, kloc,
				    "syntax error, unexpected string%s%s", "",
				    "");
	e = ct_expr_alloc(loc, k, dir);
	if (e)
		e->ct.nfproto = family;
	return e;
}

struct expr *rt_sel(struct parser_state *state, const struct location *loc,
		    uint64_t family, const char *key,
		    const struct location *kloc)
{
	const struct exthdr_desc *rt = exthdr_ipv6_lookup("rt");
	struct expr *e;
	unsigned int f;
	int k;

	if (!family && rt) {
		f = exthdr_field_lookup(rt, key);
		if (f)
			return exthdr_expr_alloc(loc, rt, f,
						 NFT_EXTHDR_OP_IPV6);
	}
	if (!strcmp(key, "nexthop"))
		k = family == NFPROTO_IPV6 ? NFT_RT_NEXTHOP6 :
					     NFT_RT_NEXTHOP4;
	else
		k = key_lookup(rt_templates, __NFT_RT_MAX, key);
	if (k < 0)
		return bad_selector(state, kloc, "unknown rt key %s%s", key,
				    "");
	e = rt_expr_alloc(loc, k);
	if (e)
		e->rt.nfproto = (uint8_t)family;
	return e;
}

struct expr *socket_sel(struct parser_state *state,
			const struct location *loc, const char *key,
			const struct location *kloc, uint64_t level)
{
	int k = key_lookup(socket_templates, __NFT_SOCKET_MAX, key);

	if (k < 0)
		return bad_selector(state, kloc, "unknown socket key %s%s",
				    key, "");
	return socket_expr_alloc(loc, k, level);
}

uint64_t osf_ttl_lookup(struct parser_state *state, char *s,
			const struct location *loc)
{
	uint64_t ttl = 0;

	if (!strcmp(s, "loose"))
		ttl = 1;
	else if (!strcmp(s, "skip"))
		ttl = 2;
	else
		erec_error(state->erq, loc, "invalid ttl option %s", s);
	free(s);
	return ttl;
}

static const struct {
	const char	*name;
	uint32_t	value;
} fib_flag_names[] = {
	{ "saddr",	NFTA_FIB_F_SADDR },
	{ "daddr",	NFTA_FIB_F_DADDR },
	{ "mark",	NFTA_FIB_F_MARK },
	{ "iif",	NFTA_FIB_F_IIF },
	{ "oif",	NFTA_FIB_F_OIF },
}, fib_result_names[] = {
	{ "oif",	NFT_FIB_RESULT_OIF },
	{ "oifname",	NFT_FIB_RESULT_OIFNAME },
	{ "type",	NFT_FIB_RESULT_ADDRTYPE },
};

uint64_t fib_flag_lookup(struct parser_state *state, char *s,
			 const struct location *loc)
{
	unsigned int i;

	for (i = 0; i < sizeof(fib_flag_names) / sizeof(fib_flag_names[0]);
	     i++) {
		if (!strcmp(s, fib_flag_names[i].name)) {
			free(s);
			return fib_flag_names[i].value;
		}
	}
	erec_error(state->erq, loc, "unknown fib flag %s", s);
	free(s);
	return 0;
}

struct expr *fib_sel(struct parser_state *state, const struct location *loc,
		     uint64_t flags, const char *result,
		     const struct location *rloc)
{
	unsigned int i;

	for (i = 0;
	     i < sizeof(fib_result_names) / sizeof(fib_result_names[0]);
	     i++) {
		if (!strcmp(result, fib_result_names[i].name))
			return fib_expr_alloc(loc, flags,
					      fib_result_names[i].value);
	}
	return bad_selector(state, rloc, "unknown fib result %s%s", result,
			    "");
}

struct expr *numgen_sel(struct parser_state *state,
			const struct location *loc, char *type,
			const struct location *tloc, uint64_t mod,
			uint64_t offset)
{
	if (strcmp(type, "inc"))
		erec_error(state->erq, tloc, "unknown numgen type %s", type);
	free(type);
	return numgen_expr_alloc(loc, NFT_NG_INCREMENTAL, mod, offset);
}

struct expr *xfrm_sel(struct parser_state *state, const struct location *loc,
		      char *dir, const struct location *dloc, uint64_t spnum,
		      uint64_t family, const char *key,
		      const struct location *kloc)
{
	uint8_t d = 0;
	int k;

	if (!strcmp(dir, "out"))
		d = 1;
	else if (strcmp(dir, "in"))
		erec_error(state->erq, dloc, "invalid ipsec direction %s",
			   dir);
	free(dir);
	if (!strcmp(key, "saddr"))
		k = family == NFPROTO_IPV6 ? NFT_XFRM_KEY_SADDR_IP6 :
					     NFT_XFRM_KEY_SADDR_IP4;
	else if (!strcmp(key, "daddr"))
		k = family == NFPROTO_IPV6 ? NFT_XFRM_KEY_DADDR_IP6 :
					     NFT_XFRM_KEY_DADDR_IP4;
	else
		k = key_lookup(xfrm_templates, __NFT_XFRM_KEY_MAX, key);
	if (k < 0)
		return bad_selector(state, kloc, "unknown ipsec key %s%s", key,
				    "");
	return xfrm_expr_alloc(loc, k, d, spnum);
}

uint64_t time_ms(struct parser_state *state, const struct location *loc,
		 char *s)
{
	uint64_t ms = 0;

	if (parse_time_ms(s, &ms) < 0)
		erec_error(state->erq, loc, "invalid time %s", s);
	free(s);
	return ms;
}

struct stmt *limit_pkts(struct parser_state *state,
			const struct location *loc, uint64_t over,
			uint64_t rate, char *unit,
			const struct location *uloc, uint64_t burst)
{
	struct stmt *s = stmt_alloc(loc, STMT_LIMIT);
	uint64_t secs = 1;

	if (parse_time_unit(unit, &secs) < 0)
		erec_error(state->erq, uloc, "syntax error, unexpected string");
	free(unit);
	if (!s)
		return NULL;
	s->limit.rate = rate;
	s->limit.unit = secs;
	s->limit.burst = burst;
	s->limit.type = NFT_LIMIT_PKTS;
	s->limit.flags = over ? NFT_LIMIT_F_INV : 0;
	return s;
}

/* "10 mbytes/second": @unit may carry the time unit after a slash. */
struct stmt *limit_bytes(struct parser_state *state,
			 const struct location *loc, uint64_t over,
			 uint64_t rate, char *unit,
			 const struct location *uloc, char *tunit,
			 uint64_t burst, uint64_t burst_mult)
{
	struct stmt *s = stmt_alloc(loc, STMT_LIMIT);
	uint64_t mult = 1, secs = 1;
	char *slash_pos = NULL;

	if (unit) {
		slash_pos = strchr(unit, '/');
		if (slash_pos)
			*slash_pos++ = '\0';
		if (parse_byte_unit(unit, &mult) < 0)
			erec_error(state->erq, uloc, "wrong rate format");
	}
	if (slash_pos && parse_time_unit(slash_pos, &secs) < 0)
		erec_error(state->erq, uloc, "wrong rate format");
	if (tunit && parse_time_unit(tunit, &secs) < 0)
		erec_error(state->erq, uloc, "wrong rate format");
	if (!slash_pos && !tunit)
		erec_error(state->erq, uloc, "wrong rate format");
	free(unit);
	free(tunit);
	if (!s)
		return NULL;
	s->limit.rate = rate * mult;
	s->limit.unit = secs;
	s->limit.burst = burst * burst_mult;
	s->limit.type = NFT_LIMIT_PKT_BYTES;
	s->limit.flags = over ? NFT_LIMIT_F_INV : 0;
	return s;
}

struct stmt *reject_with(struct parser_state *state,
			 const struct location *loc, const char *proto,
			 const struct location *ploc, struct expr *code)
{
	struct stmt *s = stmt_alloc(loc, STMT_REJECT);

	if (!s) {
		expr_free(code);
		return NULL;
	}
	s->reject.expr = code;
	s->reject.type = NFT_REJECT_ICMP_UNREACH;
	if (!strcmp(proto, "icmp") && code) {
		s->reject.family = NFPROTO_IPV4;
	} else if (!strcmp(proto, "icmpv6") && code) {
		s->reject.family = NFPROTO_IPV6;
	} else if (!strcmp(proto, "icmpx") && code) {
		s->reject.type = NFT_REJECT_ICMPX_UNREACH;
	} else if (!strcmp(proto, "tcp") && !code) {
		s->reject.type = NFT_REJECT_TCP_RST;
	} else {
		erec_error(state->erq, ploc,
			   "syntax error, unexpected %s", proto);
	}
	return s;
}

struct stmt *nat_new(const struct location *loc, enum nat_kind kind)
{
	struct stmt *s = stmt_alloc(loc, STMT_NAT);

	if (s)
		s->nat.kind = kind;
	return s;
}

struct stmt *objref(const struct location *loc, uint32_t type,
		    struct expr *expr)
{
	struct stmt *s = stmt_alloc(loc, STMT_OBJREF);

	if (!s) {
		expr_free(expr);
		return NULL;
	}
	s->objref.type = type;
	s->objref.expr = expr;
	return s;
}

struct stmt *assign(struct parser_state *state, const struct location *loc,
		    struct expr *sel, struct expr *val)
{
	struct stmt *s = NULL;

	switch (sel->kind) {
	case EXPR_META:
		/* "meta secmark set "name"" names a secmark object */
		if (sel->meta.key == NFT_META_SECMARK &&
		    val->kind == EXPR_SYMBOL &&
		    val->sym.symtype == SYMBOL_QUOTED) {
			expr_free(sel);
			return objref(loc, NFT_OBJECT_SECMARK, val);
		}
		s = stmt_alloc(loc, STMT_META);
		s->meta.key = sel->meta.key;
		s->meta.expr = val;
		expr_free(sel);
		return s;
	case EXPR_CT:
		if (sel->ct.key == NFT_CT_HELPER) {
			expr_free(sel);
			return objref(loc, NFT_OBJECT_CT_HELPER, val);
		}
		s = stmt_alloc(loc, STMT_CT);
		s->ct.key = sel->ct.key;
		s->ct.direction = sel->ct.direction;
		s->ct.expr = val;
		expr_free(sel);
		return s;
	case EXPR_PAYLOAD:
	case EXPR_EXTHDR:
		s = stmt_alloc(loc, sel->kind == EXPR_PAYLOAD ?
				    STMT_PAYLOAD : STMT_EXTHDR);
		s->payload.lhs = sel;
		s->payload.val = val;
		return s;
	default:
		break;
	}
	erec_error(state->erq, &sel->location, "%s expression cannot be set",
		   expr_kind_name(sel->kind));
	s = expr_stmt_alloc(loc, relational_expr_alloc(loc, OP_EQ, sel, val));
	return s;
}

struct stmt *set_stmt(const struct location *loc, uint64_t op,
		      struct expr *set, struct expr *key, struct expr *data)
{
	struct stmt *s = stmt_alloc(loc, data ? STMT_MAP : STMT_SET);

	if (!s) {
		expr_free(set);
		expr_free(key);
		expr_free(data);
		return NULL;
	}
	s->set.op = op;
	s->set.set = set;
	s->set.key = key;
	s->set.data = data;
	if (key && key->kind == EXPR_SET_ELEM)
		list_splice_tail_init(&key->elem.stmts, &s->set.stmts);
	return s;
}

/*
 * "meter NAME size N { KEY stmts }": a dynset update on a set the
 * evaluator declares; the placeholder set carries SET_F_EVAL and the size.
 */
struct stmt *meter_stmt(const struct location *loc, char *name,
			const struct location *nloc, uint64_t size,
			struct expr *key)
{
	struct expr *ref = set_ref(nloc, name, nloc);

	if (ref && ref->set_ref.set) {
		ref->set_ref.set->flags |= SET_F_EVAL;
		ref->set_ref.set->size = size;
	}
	return set_stmt(loc, NFT_DYNSET_OP_UPDATE, ref, key, NULL);
}

struct obj *obj_new(const struct location *loc, uint32_t type)
{
	struct obj *o = obj_alloc(loc);

	if (o)
		o->type = type;
	return o;
}

static const struct {
	const char	*name;
	uint8_t		proto;
} l4protos[] = {
	{ "tcp", IPPROTO_TCP },
	{ "udp", IPPROTO_UDP },
	{ "dccp", IPPROTO_DCCP },
	{ "sctp", IPPROTO_SCTP },
	{ "udplite", IPPROTO_UDPLITE },
	{ "icmp", IPPROTO_ICMP },
	{ "icmpv6", IPPROTO_ICMPV6 },
};

uint8_t l4proto_lookup(struct parser_state *state, const char *s,
		       const struct location *loc)
{
	unsigned int i;

	for (i = 0; i < sizeof(l4protos) / sizeof(l4protos[0]); i++) {
		if (!strcmp(s, l4protos[i].name))
			return l4protos[i].proto;
	}
	erec_error(state->erq, loc, "unknown protocol %s", s);
	return 0;
}
