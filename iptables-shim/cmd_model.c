// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The iptables command's model of one table: chains (policy, counters)
 * and rule lines in iptables-save -c form, read from save text and
 * written back as restore text.
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "compat.h"

struct cmd_chain *cmd_chain_find(struct cmd_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nchains; i++) {
		if (!strcmp(t->chains[i].name, name))
			return &t->chains[i];
	}
	return NULL;
}

bool cmd_chain_builtin(const struct cmd_table *t, const char *chain)
{
	return compat_chain_find(compat_table_find(t->family, t->name),
				 chain) != NULL;
}

struct cmd_chain *cmd_chain_add(struct cmd_table *t, const char *name)
{
	struct cmd_chain *v, *c;

	v = realloc(t->chains, (t->nchains + 1) * sizeof(*v));
	if (!v)
		return NULL;
	t->chains = v;
	c = &v[t->nchains];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	if (!c->name)
		return NULL;
	strcpy(c->policy, cmd_chain_builtin(t, name) ? "ACCEPT" : "-");
	t->nchains++;
	return c;
}

static void chain_free(struct cmd_chain *c)
{
	unsigned int i;

	for (i = 0; i < c->nrules; i++)
		free(c->rules[i].spec);
	free(c->rules);
	free(c->name);
}

void cmd_chain_del(struct cmd_table *t, struct cmd_chain *c)
{
	unsigned int at = c - t->chains;

	chain_free(c);
	memmove(c, c + 1, (t->nchains - at - 1) * sizeof(*c));
	t->nchains--;
}

int cmd_rule_insert(struct cmd_chain *c, unsigned int at, const char *spec)
{
	struct cmd_rule *v;

	v = realloc(c->rules, (c->nrules + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->rules = v;
	memmove(&v[at + 1], &v[at], (c->nrules - at) * sizeof(*v));
	strcpy(v[at].ctr, "[0:0]");
	v[at].spec = strdup(spec);
	c->nrules++;
	return v[at].spec ? 0 : -ENOMEM;
}

void cmd_rule_del(struct cmd_chain *c, unsigned int at)
{
	free(c->rules[at].spec);
	memmove(&c->rules[at], &c->rules[at + 1],
		(c->nrules - at - 1) * sizeof(c->rules[0]));
	c->nrules--;
}

/* Does @spec end in, or hold, "-j NAME" / "-g NAME" as whole words? */
bool cmd_spec_targets(const char *spec, const char *chain)
{
	static const char *const kw[] = { "-j ", "-g " };
	size_t n = strlen(chain);
	const char *p;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		for (p = spec; (p = strstr(p, kw[i])); p += 3) {
			if ((p == spec || p[-1] == ' ') &&
			    !strncmp(p + 3, chain, n) &&
			    (p[3 + n] == ' ' || p[3 + n] == '\0'))
				return true;
		}
	}
	return false;
}

unsigned int cmd_chain_refs(const struct cmd_table *t, const char *chain)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < t->nchains; i++) {
		for (j = 0; j < t->chains[i].nrules; j++)
			n += cmd_spec_targets(t->chains[i].rules[j].spec,
					      chain);
	}
	return n;
}

/* ":NAME POLICY [p:b]" */
static int parse_chain(struct cmd_table *t, const char *line)
{
	char name[64], policy[16];
	unsigned long long p = 0, b = 0;
	struct cmd_chain *c;

	if (sscanf(line, ":%63s %15s [%llu:%llu]", name, policy, &p, &b) < 2)
		return -EINVAL;
	c = cmd_chain_find(t, name);
	if (!c)
		c = cmd_chain_add(t, name);
	if (!c)
		return -ENOMEM;
	strcpy(c->policy, policy);
	c->packets = p;
	c->bytes = b;
	return 0;
}

/* "[p:b] -A CHAIN spec" */
static int parse_rule(struct cmd_table *t, char *line)
{
	char ctr[48] = "[0:0]", *p = line, *chain, *spec;
	struct cmd_chain *c;
	size_t n;

	if (*p == '[') {
		n = strcspn(p, "]") + 1;
		if (n >= sizeof(ctr))
			return -EINVAL;
		memcpy(ctr, p, n);
		ctr[n] = '\0';
		p += n;
		p += strspn(p, " ");
	}
	if (!strncmp(p, "# unsupported", 13))
		return -EOPNOTSUPP;	/* replacing the table would lose it */
	if (strncmp(p, "-A ", 3))
		return -EINVAL;
	chain = p + 3;
	spec = chain + strcspn(chain, " ");
	if (*spec)
		*spec++ = '\0';
	c = cmd_chain_find(t, chain);
	if (!c || cmd_rule_insert(c, c->nrules, spec) < 0)
		return c ? -ENOMEM : -EINVAL;
	strcpy(c->rules[c->nrules - 1].ctr, ctr);
	return 0;
}

static int mark_absent(struct cmd_table *t, const char *name)
{
	struct cmd_chain *c = cmd_chain_find(t, name);

	if (c)
		c->absent = true;
	return 0;
}

/*
 * A base chain is created as iptables-nft does, when it is first used:
 * a rule, a policy, counters. Until then it stays out of the kernel.
 */
static bool left_out(const struct cmd_chain *c)
{
	return c->absent && !c->nrules && !strcmp(c->policy, "ACCEPT") &&
	       !c->packets && !c->bytes;
}

static int parse_line(struct cmd_table *t, char *line, bool *in, bool *seen)
{
	if (*line == '*') {
		*in = !strcmp(line + 1, t->name);
		*seen |= *in;
		return 0;
	}
	if (*in && !strncmp(line, "# unsupported", 13))
		return -EOPNOTSUPP;
	if (*in && !strncmp(line, SHIM_SAVE_ABSENT, strlen(SHIM_SAVE_ABSENT)))
		return mark_absent(t, line + strlen(SHIM_SAVE_ABSENT));
	if (!*in || *line == '#' || !*line || !strcmp(line, "COMMIT"))
		return 0;
	if (*line == ':')
		return parse_chain(t, line);
	return parse_rule(t, line);
}

int cmd_table_parse(struct cmd_table *t, uint8_t family, const char *name,
		    const char *text)
{
	const struct compat_table *ct = compat_table_find(family, name);
	char *copy, *line, *save = NULL;
	bool in = false, seen = false;
	unsigned int i;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	t->family = family;
	t->name = strdup(name);
	if (!t->name || !ct)
		return t->name ? -ENOENT : -ENOMEM;
	for (i = 0; i < ct->nchains; i++) {
		if (!cmd_chain_add(t, ct->chains[i].name))
			return -ENOMEM;
	}
	copy = strdup(text ? text : "");
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && ret == 0;
	     line = strtok_r(NULL, "\n", &save))
		ret = parse_line(t, line, &in, &seen);
	free(copy);
	for (i = 0; !seen && i < t->nchains; i++)
		t->chains[i].absent = true;	/* no table in the kernel */
	return ret;
}

char *cmd_table_format(const struct cmd_table *t)
{
	const struct cmd_chain *c;
	unsigned int i, j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "*%s\n", t->name);
	for (i = 0; i < t->nchains; i++) {
		c = &t->chains[i];
		if (left_out(c))
			continue;
		fprintf(f, ":%s %s [%" PRIu64 ":%" PRIu64 "]\n", c->name,
			c->policy, c->packets, c->bytes);
	}
	for (i = 0; i < t->nchains; i++) {
		c = &t->chains[i];
		for (j = 0; j < c->nrules; j++)
			fprintf(f, "%s -A %s%s%s\n", c->rules[j].ctr, c->name,
				*c->rules[j].spec ? " " : "",
				c->rules[j].spec);
	}
	fputs("COMMIT\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void cmd_table_free(struct cmd_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nchains; i++)
		chain_free(&t->chains[i]);
	free(t->chains);
	free(t->name);
	memset(t, 0, sizeof(*t));
}
