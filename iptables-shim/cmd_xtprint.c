// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables -L's text of a rule's matches and target options: the saved
 * words of each "-m NAME ..." / "-j NAME ..." group are parsed by the
 * extension itself (xlate's libxtables glue, as restore does) and its
 * print() writes what stock iptables -L writes. All groups are parsed
 * before anything is printed, so a failure prints nothing and the
 * caller uses its own table.
 */
#define _GNU_SOURCE
#include <config.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <xtables.h>
#include "cmd.h"
#include "xlate_int.h"

/*
 * Extensions whose print() does not read what xlate's parse wrote
 * (state is conntrack's alias there): printed by cmd_list.c's table.
 */
static const char *const xp_own_table[] = { "state" };

struct xp_ctx {
	struct xl_xt_rule	*xr;
	char			**argv;		/* "iptables", words, NULL */
	unsigned int		argc;
	void			*fw;		/* ipt_entry / ip6t_entry */
	char			err[256];
};

/* Options of @e from argv[*i] to the next "-m", "-j" or the end. */
static int parse_group(struct xp_ctx *x, struct xl_ext *e, unsigned int *i)
{
	unsigned int id;
	int has_arg, optind;
	bool inv = false;
	char *a, *optarg_;

	while (*i < x->argc && strcmp(x->argv[*i], "-m")) {
		a = x->argv[*i];
		if (!strcmp(a, "!")) {
			inv = true;
			(*i)++;
			continue;
		}
		if (strncmp(a, "--", 2) ||
		    xl_xt_find_option(e, a + 2, false, &id, &has_arg) != 1)
			return -1;
		optind = *i + 1;
		optarg_ = NULL;
		if (has_arg != no_argument && optind < (int)x->argc)
			optarg_ = x->argv[optind++];
		if (xl_xt_parse(e, id, x->argv, &optind, optarg_, inv, x->fw,
				x->err, sizeof(x->err)) < 0)
			return -1;
		*i = optind;
		inv = false;
	}
	return xl_xt_final(e, x->err, sizeof(x->err));
}

static int parse_all(struct xp_ctx *x, const char *target)
{
	struct xl_ext *e;
	unsigned int i = 1, j;
	const char *name;

	while (i < x->argc) {
		if (strcmp(x->argv[i], "-m") || i + 1 >= x->argc)
			return -1;
		name = x->argv[i + 1];
		i += 2;
		for (j = 0; j < sizeof(xp_own_table) / sizeof(*xp_own_table);
		     j++) {
			if (!strcmp(xp_own_table[j], name))
				return -1;
		}
		x->err[0] = '\0';
		e = target && !strcmp(name, target) ?
			xl_xt_target(x->xr, name, x->err, sizeof(x->err)) :
			xl_xt_match(x->xr, name, x->err, sizeof(x->err));
		if (!e)
			return x->err[0] || i < x->argc ? -1 : 0;
		if (parse_group(x, e, &i) < 0)
			return -1;
	}
	return 0;
}

static void print_all(struct xp_ctx *x, bool numeric)
{
	struct xl_ext *e;

	fflush(stdout);
	list_for_each_entry(e, xl_xt_exts(x->xr), list) {
		if (e->match && e->match->print)
			e->match->print(x->fw, e->match->m, numeric);
		else if (e->target && e->target->print)
			e->target->print(x->fw, e->target->t, numeric);
	}
	fflush(stdout);
}

int cmd_xt_print(FILE *f, uint8_t family, char **tok, unsigned int ntok,
		 uint16_t proto, bool proto_inv, const char *target,
		 bool numeric)
{
	struct xp_ctx x = { .argc = ntok + 1 };
	unsigned int i;
	int ret = -1;

	if (f != stdout || xl_xt_init(family, x.err, sizeof(x.err)) < 0)
		return -1;
	x.argv = calloc(ntok + 2, sizeof(*x.argv));
	x.xr = xl_xt_rule_alloc();
	if (!x.argv || !x.xr)
		goto out;
	x.argv[0] = "iptables";
	for (i = 0; i < ntok; i++)
		x.argv[i + 1] = tok[i];
	x.fw = xl_xt_entry(family, proto, proto_inv);
	ret = parse_all(&x, target);
	if (ret == 0)
		print_all(&x, numeric);
out:
	xl_xt_rule_free(x.xr);
	free(x.argv);
	return ret;
}
