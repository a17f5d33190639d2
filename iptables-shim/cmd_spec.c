// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A rule spec with several addresses ("-s a,b -d c") is, as in
 * iptables, one rule per source and destination pair, sources outer.
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

/* Address options, sources first: the order iptables expands them in. */
static const char *const cmd_addr_opts[][3] = {
	{ "-s", "--source", "--src" },
	{ "-d", "--destination", "--dst" },
};

/* End of the word at @p (restore text: "..." quoted, \ escaped). */
static const char *word_end(const char *p)
{
	bool q = false;

	for (; *p && (q || *p != ' '); p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '"')
			q = !q;
	}
	return p;
}

/* The value word of address option row @row holding a ',', or NULL. */
static const char *find_list(const char *spec, unsigned int row,
			     const char **end)
{
	const char *p = spec, *e, *v, *ve;
	unsigned int k;

	while (*p) {
		e = word_end(p);
		v = e + strspn(e, " ");
		ve = word_end(v);
		for (k = 0; k < 3 && *v; k++) {
			if (strlen(cmd_addr_opts[row][k]) == (size_t)(e - p) &&
			    !strncmp(p, cmd_addr_opts[row][k], e - p) &&
			    memchr(v, ',', ve - v)) {
				*end = ve;
				return v;
			}
		}
		p = e + strspn(e, " ");
	}
	return NULL;
}

static int push(struct cmd_specs *s, char *spec)
{
	char **v;

	if (!spec)
		return -ENOMEM;
	v = realloc(s->v, (s->n + 1) * sizeof(*v));
	if (!v) {
		free(spec);
		return -ENOMEM;
	}
	s->v = v;
	v[s->n++] = spec;
	return 0;
}

static int expand(struct cmd_specs *s, const char *spec, unsigned int row)
{
	const char *v, *end, *a, *b;
	char *one;
	int ret = 0;

	if (row == 2)
		return push(s, strdup(spec));
	v = find_list(spec, row, &end);
	if (!v)
		return expand(s, spec, row + 1);
	for (a = v; ret == 0 && a < end; a = b + 1) {
		b = memchr(a, ',', end - a);
		if (!b)
			b = end;
		if (asprintf(&one, "%.*s%.*s%s", (int)(v - spec), spec,
			     (int)(b - a), a, end) < 0)
			return -ENOMEM;
		ret = expand(s, one, row + 1);
		free(one);
	}
	return ret;
}

int cmd_specs_expand(struct cmd_specs *s, const char *spec)
{
	memset(s, 0, sizeof(*s));
	return expand(s, spec, 0);
}

void cmd_specs_free(struct cmd_specs *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
