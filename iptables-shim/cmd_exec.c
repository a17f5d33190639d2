// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables-nft's commands on the table model: the table is read with
 * the save path, changed here, and written back whole with the restore
 * path (one batch: the table is replaced, counters kept). Rule specs
 * are compared in saved form: a spec that is not already a saved line
 * of the chain is put in a scratch chain of the table and read back,
 * which is how the kernel and the save path spell it (-C then deletes
 * the scratch chain alone; -D's store drops it with the rest).
 *
 * Another writer may change the ruleset between the read and the write:
 * the table is read at a known ruleset generation and every write goes
 * only onto that generation (nftc_netlink_send_at), as iptables-nft
 * does; if it changed, the command starts again from the read.
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shim.h"
#include "cmd.h"
#include "cmd_exec.h"
#include "compat.h"

/* iptables' messages for the failures of a command (exit 1). */
enum cmd_err {
	CMD_E_NOENT,
	CMD_E_EXIST,
	CMD_E_BADRULE,
	CMD_E_DELIDX,
	CMD_E_INSIDX,
	CMD_E_REPIDX,
	CMD_E_BUILTIN,
	CMD_E_POLICY,
	__CMD_E_MAX
};

static const char *const cmd_err_text[__CMD_E_MAX] = {
	[CMD_E_NOENT]	= "No chain/target/match by that name.",
	[CMD_E_EXIST]	= "Chain already exists.",
	[CMD_E_BADRULE]	= "Bad rule (does a matching rule exist in that "
			  "chain?).",
	[CMD_E_DELIDX]	= "Index of deletion too big.",
	[CMD_E_INSIDX]	= "Index of insertion too big.",
	[CMD_E_REPIDX]	= "Index of replacement too big.",
	[CMD_E_BUILTIN]	= "Bad built-in chain name.",
	[CMD_E_POLICY]	= "Bad policy name. Run `dmesg' for more "
			  "information.",
};

/* Interfaces a built-in chain never sees (iptables refuses them). */
static const struct {
	const char	*opt;
	const char	*chain;
} cmd_no_iface[] = {
	{ "-i", "OUTPUT" }, { "-i", "POSTROUTING" },
	{ "-o", "INPUT" }, { "-o", "PREROUTING" },
};

/* How iptables-nft names the batch message a rule command failed in. */
static const char *const cmd_kernel_op[__IPT_MAX] = {
	[IPT_APPEND]	= "RULE_APPEND",
	[IPT_INSERT]	= "RULE_INSERT",
	[IPT_REPLACE]	= "RULE_REPLACE",
};

/**
 * struct cmd_ctx - one command
 * @genid: the ruleset generation @t was read at (after each write of
 *         ours, the one that write made)
 * @attempt: 0, or how often the command started again
 */
struct cmd_ctx {
	const struct cmd_req	*q;
	struct cmd_table	t;
	uint32_t		genid;
	unsigned int		attempt;
};

/* Another writer came in between: read and try again (cmd_exec). */
#define CMD_AGAIN		(-EAGAIN)
#define CMD_ATTEMPTS		16

/* Say it once: a command that starts again does not print again. */
static bool first_attempt(const struct cmd_ctx *c)
{
	return c->attempt == 0;
}

static int fail(const struct cmd_req *q, enum cmd_err e)
{
	fprintf(stderr, "%s: %s\n", compat_prog_name(q->family),
		cmd_err_text[e]);
	return 1;
}

static void scratch_name(char *buf, size_t len);

/* The table as of one generation (the read repeated if it moved). */
static int read_table(struct cmd_ctx *c, char **text)
{
	uint32_t after = 0;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < CMD_ATTEMPTS; i++) {
		free(*text);
		*text = NULL;
		ret = shim_genid(&c->genid);
		if (ret < 0)
			return ret;
		ret = shim_save_text(c->q->family, c->q->table, true, text);
		if (ret < 0 && ret != -ENOENT)
			continue;	/* a dump cut by a change */
		if (shim_genid(&after) == 0 && after == c->genid)
			return ret;
	}
	return ret < 0 ? ret : -EAGAIN;
}

static int load(struct cmd_ctx *c)
{
	struct cmd_chain *sc;
	char *text = NULL, name[32];
	int ret;

	ret = read_table(c, &text);
	if (ret == 0)
		ret = cmd_table_parse(&c->t, c->q->family, c->q->table, text);
	free(text);
	/* a scratch chain left by an attempt that had to start again */
	scratch_name(name, sizeof(name));
	if (ret == 0 && (sc = cmd_chain_find(&c->t, name)))
		cmd_chain_del(&c->t, sc);
	if (ret == -ENOENT && !compat_table_find(c->q->family, c->q->table)) {
		fprintf(stderr, "%s v1.8.9 (nf_tables): table '%s' does not "
			"exist\nPerhaps iptables or your kernel needs to be "
			"upgraded.\n", compat_prog_name(c->q->family),
			c->q->table);
		return 3;
	}
	if (ret == -EOPNOTSUPP)
		fprintf(stderr, "%s v1.8.9 (nf_tables): table `%s' is "
			"incompatible, use 'nft' tool.\n",
			compat_prog_name(c->q->family), c->q->table);
	else if (ret < 0)
		fprintf(stderr, "%s: cannot read table %s: %s\n",
			compat_prog_name(c->q->family), c->q->table,
			strerror(-ret));
	return ret < 0 ? 1 : 0;
}

static int store(struct cmd_ctx *c)
{
	char *text = cmd_table_format(&c->t), obj[64];
	int ret;

	if (!text)
		return 1;
	snprintf(obj, sizeof(obj), "rule in chain %s",
		 c->q->chain ? c->q->chain : "");
	ret = shim_restore_text(c->q->family, text, false,
				cmd_kernel_op[c->q->op], obj, &c->genid);
	return ret == -EAGAIN ? CMD_AGAIN : ret == -2 ? 2 : ret == -4 ? 4 :
	       ret < 0 ? 1 : 0;
}

/* Does @spec name a user chain (restore -n knows only its input's)? */
static bool jumps_user(const struct cmd_table *t, const char *spec)
{
	unsigned int i;

	for (i = 0; i < t->nchains; i++) {
		if (!cmd_chain_builtin(t, t->chains[i].name) &&
		    cmd_spec_targets(spec, t->chains[i].name))
			return true;
	}
	return false;
}

/*
 * The restore text putting @spec alone in scratch chain @name: with
 * --noflush (*noflush), or, when it jumps to a user chain, the whole
 * table with the scratch chain added.
 */
static char *scratch_text(struct cmd_ctx *c, const char *name,
			  const char *spec, bool *noflush)
{
	char *table, *text = NULL, *body, *end;

	*noflush = !jumps_user(&c->t, spec);
	if (*noflush)
		return asprintf(&text, "*%s\n:%s - [0:0]\n-A %s %s\nCOMMIT\n",
				c->t.name, name, name, spec) < 0 ? NULL : text;
	/* the model's text, the scratch chain declared first */
	table = cmd_table_format(&c->t);
	body = table ? strchr(table, '\n') : NULL;
	end = body ? strstr(body, "COMMIT\n") : NULL;
	if (end && asprintf(&text, "*%s\n:%s - [0:0]%.*s-A %s %s\nCOMMIT\n",
			    c->t.name, name, (int)(end - body), body, name,
			    spec) < 0)
		text = NULL;
	free(table);
	return text;
}

/* The saved form of @spec (malloc'ed) via a scratch chain; NULL: failed. */
static char *canonical(struct cmd_ctx *c, const char *spec, int *rc)
{
	struct cmd_table s;
	struct cmd_chain *sc;
	char name[32], *text, *out = NULL;
	bool noflush;

	scratch_name(name, sizeof(name));
	text = scratch_text(c, name, spec, &noflush);
	if (!text)
		return NULL;
	*rc = shim_restore_text(c->q->family, text, noflush, "RULE_APPEND",
				"", &c->genid);
	if (*rc < 0) {
		*rc = *rc == -EAGAIN ? CMD_AGAIN : *rc == -2 ? 2 :
		      *rc == -4 ? 4 : 1;
		return NULL;
	}
	if (shim_save_text(c->q->family, c->t.name, true, &text) < 0)
		return NULL;
	if (cmd_table_parse(&s, c->t.family, c->t.name, text) == 0 &&
	    (sc = cmd_chain_find(&s, name)) && sc->nrules == 1)
		out = strdup(sc->rules[0].spec);
	cmd_table_free(&s);
	free(text);
	return out;
}

/* Where canonical() spells rules: it goes with the next store(). */
static void scratch_name(char *buf, size_t len)
{
	snprintf(buf, len, "nftkit-canon-%d", (int)getpid());
}

/* The command stores nothing: the scratch chain goes on its own. */
static int scratch_drop(struct cmd_ctx *c)
{
	char name[32];

	scratch_name(name, sizeof(name));
	return shim_chain_delete(c->q->family, c->t.name, name) < 0 ? 1 : 0;
}

/* The rule of @ch matching @spec (saved form), or -1; *err if none. */
static int find_rule(struct cmd_ctx *c, struct cmd_chain *ch,
		     const char *spec, bool *dirty, int *rc)
{
	unsigned int i;
	char *canon;
	int at = -1;

	for (i = 0; i < ch->nrules; i++) {
		if (!strcmp(ch->rules[i].spec, spec))
			return i;
	}
	canon = canonical(c, spec, rc);
	*dirty = true;
	for (i = 0; canon && i < ch->nrules; i++) {
		if (!strcmp(ch->rules[i].spec, canon)) {
			at = i;
			break;
		}
	}
	free(canon);
	return at;
}

static int check_iface(const struct cmd_req *q)
{
	char word[8];
	const char *p;
	unsigned int i;

	for (i = 0; i < sizeof(cmd_no_iface) / sizeof(cmd_no_iface[0]);
	     i++) {
		if (strcmp(cmd_no_iface[i].chain, q->chain))
			continue;
		snprintf(word, sizeof(word), "%s ", cmd_no_iface[i].opt);
		p = strstr(q->spec, word);
		if (p && (p == q->spec || p[-1] == ' ')) {
			fprintf(stderr, "%s v1.8.9 (nf_tables): Can't use %s "
				"with %s\n\n", compat_prog_name(q->family),
				cmd_no_iface[i].opt, q->chain);
			fprintf(stderr, "Try `%s -h' or '%s --help' for more "
				"information.\n", compat_prog_name(q->family),
				compat_prog_name(q->family));
			return 2;
		}
	}
	return 0;
}

/* -D by spec, -C: every rule of @sp is there (-D: deleted, stored). */
static int match_cmd(struct cmd_ctx *c, struct cmd_chain *ch,
		     const struct cmd_specs *sp)
{
	bool dirty = false, missing = false;
	unsigned int i;
	int at, rc = 0;

	for (i = 0; i < sp->n && !missing && !rc; i++) {
		at = find_rule(c, ch, sp->v[i], &dirty, &rc);
		missing = at < 0;
		if (!missing && c->q->op == IPT_DELETE)
			cmd_rule_del(ch, at);
	}
	if (!rc && !missing && c->q->op == IPT_DELETE)
		return store(c);
	if (dirty && scratch_drop(c) && !rc)
		rc = 1;
	return rc ? rc : missing ? fail(c->q, CMD_E_BADRULE) : 0;
}

/* -A -I -R: @sp's rules put at @at (-I: each there, as iptables). */
static int put_cmd(struct cmd_ctx *c, struct cmd_chain *ch,
		   const struct cmd_specs *sp)
{
	const struct cmd_req *q = c->q;
	unsigned int i, at = q->op == IPT_APPEND ? ch->nrules :
			     q->has_num ? q->num - 1 : 0;

	if (q->op == IPT_INSERT && at > ch->nrules)
		return fail(q, CMD_E_INSIDX);
	if (q->op == IPT_REPLACE && sp->n != 1) {
		cmd_usage_error(q->family, "Replacement rule does not specify "
				"a unique address%s", "", false);
		return 2;
	}
	if (q->op == IPT_REPLACE && at >= ch->nrules)
		return fail(q, CMD_E_REPIDX);
	if (q->op == IPT_REPLACE)
		cmd_rule_del(ch, at);
	for (i = 0; i < sp->n; i++) {
		if (cmd_rule_insert(ch, q->op == IPT_APPEND ? ch->nrules : at,
				    sp->v[i]))
			return 1;
	}
	return store(c);
}

/* -A -I -R -D -C: the rule commands. */
static int rule_cmd(struct cmd_ctx *c, struct cmd_chain *ch)
{
	const struct cmd_req *q = c->q;
	struct cmd_specs sp;
	int ret;

	if (q->op == IPT_DELETE && q->has_num) {
		if (q->num < 1 || q->num > ch->nrules)
			return fail(q, CMD_E_DELIDX);
		cmd_rule_del(ch, q->num - 1);
		return store(c);
	}
	ret = check_iface(q);
	if (ret)
		return ret;
	if (cmd_specs_expand(&sp, q->spec) < 0)
		return 1;
	for (ret = 0; (q->flags & CMD_L_VERBOSE) && first_attempt(c) &&
		     ret < (int)sp.n; ret++)
		cmd_print_verbose(stdout, &c->t, sp.v[ret]);
	fflush(stdout);
	if (q->op == IPT_DELETE || q->op == IPT_CHECK)
		ret = match_cmd(c, ch, &sp);
	else
		ret = put_cmd(c, ch, &sp);
	cmd_specs_free(&sp);
	return ret;
}

static void zero(struct cmd_chain *ch, unsigned int num)
{
	unsigned int i;

	if (!num)
		ch->packets = ch->bytes = 0;
	for (i = 0; i < ch->nrules; i++) {
		if (!num || i + 1 == num)
			strcpy(ch->rules[i].ctr, "[0:0]");
	}
}

/* -F -Z over one chain or all. */
static int each_chain(struct cmd_ctx *c, struct cmd_chain *ch)
{
	unsigned int i;

	for (i = 0; i < c->t.nchains; i++) {
		struct cmd_chain *x = &c->t.chains[i];

		bool z = c->q->op == IPT_ZERO || c->q->op == IPT_LIST;

		if (ch && x != ch)
			continue;
		if ((c->q->flags & CMD_L_VERBOSE) && !x->absent &&
		    first_attempt(c))
			printf("%s chain `%s'\n", z ? "Zeroing" : "Flushing",
			       x->name);
		if (z) {
			zero(x, c->q->num);
			continue;
		}
		while (x->nrules)
			cmd_rule_del(x, x->nrules - 1);
	}
	return store(c);
}

static int delete_chain(struct cmd_ctx *c, struct cmd_chain *ch)
{
	const struct cmd_req *q = c->q;
	unsigned int i;

	for (i = 0; i < c->t.nchains; i++) {
		struct cmd_chain *x = &c->t.chains[i];

		if (!ch && cmd_chain_builtin(&c->t, x->name)) {
			/* iptables-nft's -X drops unused base chains too */
			if (!x->nrules && !strcmp(x->policy, "ACCEPT")) {
				x->absent = true;
				x->packets = x->bytes = 0;
			}
			continue;
		}
		if (ch && x != ch)
			continue;
		/* the kernel refuses a base chain, a used or full one */
		if (cmd_chain_builtin(&c->t, x->name) || x->nrules ||
		    cmd_chain_refs(&c->t, x->name)) {
			fprintf(stderr, "%s v1.8.9 (nf_tables):  CHAIN_DEL "
				"failed (Device or resource busy): chain %s\n",
				compat_prog_name(q->family), x->name);
			return 4;
		}
		if ((q->flags & CMD_L_VERBOSE) && first_attempt(c))
			printf("Deleting chain `%s'\n", x->name);
		cmd_chain_del(&c->t, x);
		i--;
	}
	return store(c);
}

/* Rename @ch and the -j / -g words naming it. */
static int rename_chain(struct cmd_ctx *c, struct cmd_chain *ch,
			const char *to)
{
	char *n = strdup(to), *old = ch->name, *s, *p;
	unsigned int i, j;
	size_t lo = strlen(old);

	if (!n)
		return 1;
	for (i = 0; i < c->t.nchains; i++) {
		for (j = 0; j < c->t.chains[i].nrules; j++) {
			s = c->t.chains[i].rules[j].spec;
			p = strstr(s, "-j ");
			if (!p)
				p = strstr(s, "-g ");
			if (!p || strncmp(p + 3, old, lo) ||
			    (p[3 + lo] && p[3 + lo] != ' '))
				continue;
			if (asprintf(&c->t.chains[i].rules[j].spec, "%.*s%s%s",
				     (int)(p + 3 - s), s, to, p + 3 + lo) < 0)
				return 1;
			free(s);
		}
	}
	ch->name = n;
	free(old);
	return store(c);
}

static int chain_cmd(struct cmd_ctx *c, struct cmd_chain *ch)
{
	const struct cmd_req *q = c->q;
	unsigned int i;

	switch (q->op) {
	case IPT_NEW:
		if (ch)
			return fail(q, CMD_E_EXIST);
		return cmd_chain_add(&c->t, q->chain) ? store(c) : 1;
	case IPT_POLICY:
		if (!ch || !cmd_chain_builtin(&c->t, ch->name))
			return fail(q, CMD_E_BUILTIN);
		if (!q->word2 || (strcmp(q->word2, "ACCEPT") &&
				  strcmp(q->word2, "DROP")))
			return fail(q, CMD_E_POLICY);
		strcpy(ch->policy, q->word2);
		return store(c);
	case IPT_RENAME:
		if (!ch)
			return fail(q, CMD_E_NOENT);
		if (!q->word2 || cmd_chain_find(&c->t, q->word2))
			return fail(q, CMD_E_EXIST);
		return rename_chain(c, ch, q->word2);
	case IPT_FLUSH:
	case IPT_ZERO:
		return each_chain(c, ch);
	case IPT_DELCHAIN:
		return delete_chain(c, ch);
	case IPT_LIST:
		if (first_attempt(c))
			cmd_print_list(stdout, &c->t, ch, q->num, q->flags);
		fflush(stdout);
		if (!q->zero_after)
			return 0;
		/* as iptables-nft's -L -Z: every base chain is made */
		for (i = 0; i < c->t.nchains; i++)
			c->t.chains[i].absent = false;
		return each_chain(c, ch);
	case IPT_SAVE:
		cmd_print_rules(stdout, &c->t, ch, q->num,
				q->flags & CMD_L_VERBOSE);
		return 0;
	default:
		return rule_cmd(c, ch);
	}
}

static int exec_once(struct cmd_ctx *c)
{
	const struct cmd_req *q = c->q;
	struct cmd_chain *ch = NULL;
	int ret;

	ret = load(c);
	if (ret)
		return ret;
	if (q->chain)
		ch = cmd_chain_find(&c->t, q->chain);
	if (q->chain && !ch && (q->op == IPT_LIST || q->op == IPT_SAVE)) {
		fprintf(stderr, "%s v1.8.9 (nf_tables): chain `%s' in table "
			"`%s' is incompatible, use 'nft' tool.\n",
			compat_prog_name(q->family), q->chain, q->table);
		ret = 1;
	} else if (q->chain && !ch && q->op != IPT_NEW &&
		   q->op != IPT_POLICY) {
		ret = fail(q, CMD_E_NOENT);
	} else {
		ret = chain_cmd(c, ch);
	}
	return ret;
}

int cmd_exec(const struct cmd_req *q)
{
	struct cmd_ctx c = { .q = q };
	int ret;

	for (;;) {
		memset(&c.t, 0, sizeof(c.t));
		ret = exec_once(&c);
		cmd_table_free(&c.t);
		if (ret != CMD_AGAIN)
			return ret;
		if (++c.attempt == CMD_ATTEMPTS) {
			fprintf(stderr, "%s: the ruleset kept changing: "
				"giving up after %u attempts\n",
				compat_prog_name(q->family), c.attempt);
			return 4;
		}
	}
}
