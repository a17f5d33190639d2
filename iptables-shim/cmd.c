// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables-nft / ip6tables-nft: the command line (a table of commands
 * and options, as iptables 1.8.9 spells them) and its diagnostics and
 * exit codes. The commands themselves are in cmd_exec.c.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"
#include "cmd.h"
#include "cmd_exec.h"
#include "compat.h"

/* Commands: short and long spelling, what follows them. */
static const struct {
	char			letter;
	const char		*name;
	enum ipt_op		op;
	bool			chain_needed;
	bool			second_word;	/* -P TARGET, -E NEW */
	bool			rulenum;	/* a rule number may follow */
} cmd_ops[] = {
	{ 'A', "--append",	IPT_APPEND,	true,	false,	false },
	{ 'C', "--check",	IPT_CHECK,	true,	false,	false },
	{ 'D', "--delete",	IPT_DELETE,	true,	false,	true },
	{ 'I', "--insert",	IPT_INSERT,	true,	false,	true },
	{ 'R', "--replace",	IPT_REPLACE,	true,	false,	true },
	{ 'L', "--list",	IPT_LIST,	false,	false,	true },
	{ 'S', "--list-rules",	IPT_SAVE,	false,	false,	true },
	{ 'F', "--flush",	IPT_FLUSH,	false,	false,	false },
	{ 'Z', "--zero",	IPT_ZERO,	false,	false,	true },
	{ 'N', "--new-chain",	IPT_NEW,	true,	false,	false },
	{ 'X', "--delete-chain", IPT_DELCHAIN,	false,	false,	false },
	{ 'P', "--policy",	IPT_POLICY,	true,	true,	false },
	{ 'E', "--rename-chain", IPT_RENAME,	true,	true,	false },
};

/* Options without a rule meaning: flag bits and value-taking ones. */
static const struct {
	char		letter;
	const char	*name;
	unsigned int	flag;		/* enum cmd_list_flags */
	bool		value;		/* takes the next word */
	bool		optional;	/* ... only when it is a number */
} cmd_flags[] = {
	{ 'v', "--verbose",	CMD_L_VERBOSE,	false,	false },
	{ 'n', "--numeric",	CMD_L_NUMERIC,	false,	false },
	{ 'x', "--exact",	CMD_L_EXACT,	false,	false },
	{ 0,   "--line-numbers", CMD_L_LINENUM,	false,	false },
	{ 'w', "--wait",	0,		true,	true },
	{ 'W', "--wait-interval", 0,		true,	false },
	{ 't', "--table",	0,		true,	false },
};

#define CMD_CHAIN_MAX	29	/* XT_EXTENSION_MAXNAMELEN */
#define N(a) (sizeof(a) / sizeof((a)[0]))

void cmd_usage_error(uint8_t family, const char *msg, const char *arg,
		     bool blank)
{
	fprintf(stderr, "%s v1.8.9 (nf_tables): ", compat_prog_name(family));
	fprintf(stderr, msg, arg);
	fprintf(stderr, "\n%sTry `%s -h' or '%s --help' for more "
		"information.\n", blank ? "\n" : "",
		compat_prog_name(family), compat_prog_name(family));
}

static bool is_number(const char *s)
{
	return s && *s && strspn(s, "0123456789") == strlen(s);
}

static int find_op(const char *a)
{
	unsigned int i;

	for (i = 0; i < N(cmd_ops); i++) {
		if ((a[0] == '-' && a[1] == cmd_ops[i].letter && !a[2]) ||
		    !strcmp(a, cmd_ops[i].name))
			return i;
	}
	return -1;
}

static int find_flag(const char *a)
{
	unsigned int i;

	for (i = 0; i < N(cmd_flags); i++) {
		if ((cmd_flags[i].letter && a[0] == '-' &&
		     a[1] == cmd_flags[i].letter && !a[2]) ||
		    !strcmp(a, cmd_flags[i].name))
			return i;
	}
	return -1;
}

/* The rule word @a, quoted for restore text when it must be. */
static int spec_add(struct cmd_req *q, const char *a)
{
	size_t n = strlen(q->spec), m = strlen(a) + 4;
	bool quote = !*a || strpbrk(a, " \t\"'");
	char *s = realloc(q->spec, n + 2 * m);
	char *p;

	if (!s)
		return -1;
	q->spec = s;
	p = s + n;
	if (n)
		*p++ = ' ';
	if (quote)
		*p++ = '"';
	for (; *a; a++) {
		if (*a == '"' || *a == '\\')
			*p++ = '\\';
		*p++ = *a;
	}
	if (quote)
		*p++ = '"';
	*p = '\0';
	return 0;
}

/* The words after a command: chain, second word, rule number. */
static int op_args(struct cmd_req *q, int i, char **argv, int argc)
{
	if (i + 1 < argc && (cmd_ops[q->opi].chain_needed ||
			     (argv[i + 1][0] != '-' &&
			      strcmp(argv[i + 1], "!"))))
		q->chain = argv[++i];
	if (q->chain && cmd_ops[q->opi].second_word && i + 1 < argc)
		q->word2 = argv[++i];
	if (q->chain && i + 1 < argc && is_number(argv[i + 1]) &&
	    cmd_ops[q->opi].rulenum) {
		q->num = atoi(argv[++i]);
		q->has_num = true;
	}
	return i;
}

/* Short option clusters of flags and a command ("-nvL"): expanded. */
static bool cluster(const char *a)
{
	return a[0] == '-' && a[1] && a[1] != '-' && a[2] &&
	       strspn(a + 1, "vnxLSZFX") == strlen(a + 1);
}

static int parse_word(struct cmd_req *q, int *ip, int argc, char **argv)
{
	int i = *ip, j;
	const char *a = argv[i];

	if ((j = find_op(a)) >= 0) {
		if (q->op == IPT_LIST && cmd_ops[j].op == IPT_ZERO) {
			q->zero_after = true;	/* -L -Z: list, then zero */
			return 0;
		}
		if (q->op != IPT_NONE) {
			fprintf(stderr, "%s v1.8.9 (nf_tables): Cannot use -%c "
				"with -%c\n\n", compat_prog_name(q->family),
				cmd_ops[j].letter, cmd_ops[q->opi].letter);
			fprintf(stderr, "Try `%s -h' or '%s --help' for more "
				"information.\n", compat_prog_name(q->family),
				compat_prog_name(q->family));
			return -1;
		}
		q->opi = j;
		q->opword = a;
		q->op = cmd_ops[j].op;
		*ip = op_args(q, i, argv, argc);
		return 0;
	}
	if ((j = find_flag(a)) >= 0) {
		q->flags |= cmd_flags[j].flag;
		if (cmd_flags[j].value && (!cmd_flags[j].optional ||
					   (i + 1 < argc &&
					    is_number(argv[i + 1])))) {
			if (i + 1 >= argc) {
				cmd_usage_error(q->family, "option \"%s\" "
						"requires an argument", a,
						false);
				return -1;
			}
			if (cmd_flags[j].letter == 't')
				q->table = argv[i + 1];
			*ip = i + 1;
		}
		return 0;
	}
	return spec_add(q, a) < 0 ? -1 : 0;
}

static int parse(struct cmd_req *q, int argc, char **argv)
{
	char flag[3] = "-?";
	int i, j, n;

	for (i = 1; i < argc; i++) {
		if (cluster(argv[i])) {
			n = strlen(argv[i]);
			for (j = 1; j < n - 1; j++) {
				flag[1] = argv[i][j];
				q->flags |= cmd_flags[find_flag(flag) < 0 ? 0 :
					   find_flag(flag)].flag;
			}
			/* the last letter may take the next words */
			flag[1] = argv[i][n - 1];
			argv[i] = strdup(flag);
		}
		if (parse_word(q, &i, argc, argv) < 0)
			return -1;
	}
	return 0;
}

/* A rule word where no rule is taken, or no command: exit 2. */
static int check_usage(struct cmd_req *q)
{
	bool rule = q->op == IPT_APPEND || q->op == IPT_CHECK ||
		    q->op == IPT_INSERT || q->op == IPT_REPLACE ||
		    (q->op == IPT_DELETE && !q->has_num);
	char word[64];

	if (q->op == IPT_NONE && !*q->spec) {
		cmd_usage_error(q->family, "no command specified%s", "",
				false);
		return 2;
	}
	if ((!rule || q->op == IPT_NONE) && *q->spec) {
		sscanf(q->spec, "%63s", word);
		if (word[0] == '-')
			cmd_usage_error(q->family, "unknown option \"%s\"",
					word, false);
		else
			fprintf(stderr, "Bad argument `%s'\nTry `%s -h' or "
				"'%s --help' for more information.\n", word,
				compat_prog_name(q->family),
				compat_prog_name(q->family));
		return 2;
	}
	if (q->has_num && q->num == 0) {
		cmd_usage_error(q->family, "Invalid rule number `%s'", "0",
				false);
		return 2;
	}
	if (q->chain && q->chain[0] == '-') {
		cmd_usage_error(q->family, "chain name not allowed to start "
				"with `%s'", "-", false);
		return 2;
	}
	if (cmd_ops[q->opi].chain_needed && !q->chain) {
		cmd_usage_error(q->family, "option \"%s\" requires an argument",
				q->opword, false);
		return 2;
	}
	if (q->op == IPT_POLICY && !q->word2) {
		cmd_usage_error(q->family, "-P requires a chain and a "
				"policy%s", "", false);
		return 2;
	}
	if ((q->op == IPT_NEW && strlen(q->chain) >= CMD_CHAIN_MAX) ||
	    (q->op == IPT_RENAME && q->word2 &&
	     strlen(q->word2) >= CMD_CHAIN_MAX)) {
		cmd_usage_error(q->family, "chain name `%s' too long (must "
				"be under 29 chars)", q->op == IPT_NEW ?
				q->chain : q->word2, false);
		return 2;
	}
	if (q->op == IPT_REPLACE && !q->has_num) {
		cmd_usage_error(q->family, "-R requires a rule number%s", "",
				false);
		return 2;
	}
	return 0;
}

int shim_cmd_main(uint8_t family, int argc, char **argv)
{
	struct cmd_req q = { .family = family, .table = "filter",
			     .op = IPT_NONE };
	int ret;

	q.spec = calloc(1, 1);
	if (!q.spec)
		return 1;
	if (argc == 2 && (!strcmp(argv[1], "-V") ||
			  !strcmp(argv[1], "--version"))) {
		printf("%s v1.8.9 (nf_tables)\n", compat_prog_name(family));
		free(q.spec);
		return 0;
	}
	ret = parse(&q, argc, argv) < 0 ? 2 : check_usage(&q);
	if (ret == 0)
		ret = cmd_exec(&q);
	free(q.spec);
	return ret;
}
