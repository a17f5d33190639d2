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
#include "parser_state.h"

void parser_state_init(struct parser_state *state, struct nftc_ctx *nft,
		       struct list_head *cmds)
{
	memset(state, 0, sizeof(*state));
	state->nft = nft;
	state->erq = &nft->erq;
	state->cmds = cmds;
	init_list_head(&state->symbols);
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

	if (!in) {
		free(data);
		return NULL;
	}
	in->kind = kind;
	in->name = strdup(name);
	in->data = data;
	in->size = size;
	in->next = state->nft->inputs;
	state->nft->inputs = in;
	return in;
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
	struct parser_state state;
	struct input_desc *in;
	size_t size;
	char *data;
	int ret;

	parser_state_init(&state, ctx, cmds);
	data = parser_read_file(path, &size);
	if (!data) {
		erec_error(&ctx->erq, NULL, "Could not open file \"%s\": %s",
			   path, strerror(errno));
		return -1;
	}
	in = parser_input_add(&state, INPUT_FILE, path, data, size);
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
