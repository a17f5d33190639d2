// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables -S and -L output from the command's table model. -S is the
 * saved rule lines with -P / -N chain lines; -L reads each saved rule
 * line back into iptables' listing columns (target, prot, opt, in,
 * out, source, destination); matches and target options are printed
 * by the extensions' own print() (cmd_xtprint.c), or, where that is not
 * possible, the way the common ones print (a table below), any other
 * as its options unchanged.
 */
#define _GNU_SOURCE
#include <config.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "cmd.h"

/* Target words of a saved spec: where -S -v puts "-c PKTS BYTES". */
static const char *const cmd_target_words[] = { " -j ", " -g " };

static void print_rule_line(FILE *f, const char *chain,
			    const struct cmd_rule *r, bool counters)
{
	unsigned long long p = 0, b = 0;
	const char *at = NULL, *s = r->spec, *x;
	unsigned int i;

	if (!counters) {
		fprintf(f, "-A %s%s%s\n", chain, *s ? " " : "", s);
		return;
	}
	sscanf(r->ctr, "[%llu:%llu]", &p, &b);
	if (!strncmp(s, "-j ", 3) || !strncmp(s, "-g ", 3))
		at = s;
	for (i = 0; !at && i < 2; i++) {
		x = strstr(s, cmd_target_words[i]);
		if (x)
			at = x + 1;
	}
	if (!at)
		at = s + strlen(s);
	fprintf(f, "-A %s %.*s%s-c %llu %llu%s%s\n", chain, (int)(at - s), s,
		at > s && at[-1] != ' ' ? " " : "", p, b, *at ? " " : "", at);
}

void cmd_print_rules(FILE *f, const struct cmd_table *t,
		     const struct cmd_chain *chain, unsigned int num,
		     bool counters)
{
	const struct cmd_chain *c;
	unsigned int i, j;

	for (i = 0; i < t->nchains && !num; i++) {
		c = &t->chains[i];
		if (chain && c != chain)
			continue;
		if (strcmp(c->policy, "-") && counters)
			fprintf(f, "-P %s %s -c %" PRIu64 " %" PRIu64 "\n",
				c->name, c->policy, c->packets, c->bytes);
		else if (strcmp(c->policy, "-"))
			fprintf(f, "-P %s %s\n", c->name, c->policy);
		else
			fprintf(f, "-N %s\n", c->name);
	}
	for (i = 0; i < t->nchains; i++) {
		c = &t->chains[i];
		if (chain && c != chain)
			continue;
		for (j = 0; j < c->nrules; j++) {
			if (num && j + 1 != num)
				continue;
			print_rule_line(f, c->name, &c->rules[j], counters);
		}
	}
}

/* Protocol numbers as iptables -n prints them. */
static const struct {
	const char	*name;
	const char	*num;
} cmd_protos[] = {
	{ "all", "0" }, { "icmp", "1" }, { "tcp", "6" }, { "udp", "17" },
	{ "gre", "47" }, { "esp", "50" }, { "ah", "51" },
	{ "ipv6-icmp", "58" }, { "icmpv6", "58" }, { "sctp", "132" },
	{ "udplite", "136" },
};

/* Match and target options with a listing form: "opt" -> "label". */
static const struct {
	const char	*module;	/* -m NAME, or -j NAME */
	const char	*opt;
	const char	*label;		/* printed before the value */
	const char	*range_label;	/* when the value has a ':' */
	const char	*suffix;
} cmd_opt_labels[] = {
	{ "tcp",	"--sport",	"spt:",	"spts:",	"" },
	{ "tcp",	"--dport",	"dpt:",	"dpts:",	"" },
	{ "udp",	"--sport",	"spt:",	"spts:",	"" },
	{ "udp",	"--dport",	"dpt:",	"dpts:",	"" },
	{ "conntrack",	"--ctstate",	"ctstate ", NULL,	"" },
	{ "state",	"--state",	"state ", NULL,		"" },
	{ "comment",	"--comment",	"/* ",	NULL,		" */" },
	{ "multiport",	"--dports",	"dports ", NULL,	"" },
	{ "multiport",	"--sports",	"sports ", NULL,	"" },
	{ "multiport",	"--ports",	"ports ", NULL,		"" },
	{ "mark",	"--mark",	"mark match ", NULL,	"" },
	{ "REJECT",	"--reject-with", "reject-with ", NULL,	"" },
	{ "LOG",	"--log-prefix",	"prefix \"", NULL,	"\"" },
	{ "DNAT",	"--to-destination", "to:", NULL,	"" },
	{ "SNAT",	"--to-source",	"to:",	NULL,		"" },
};

/* Modules printed with their name first ("tcp dpt:22"). */
static const char *const cmd_named_modules[] = {
	"tcp", "udp", "multiport",
};

#define CMD_MAX_TOK	128

struct cmd_lrule {
	const char	*f[4];		/* -s -d -i -o */
	bool		neg[4];
	char		*proto;		/* in the tokenized buffer */
	bool		proto_neg;
	bool		frag;
	const char	*target;
	bool		go;
	char		*tok[CMD_MAX_TOK];
	unsigned int	ntok;
	unsigned int	first_extra;	/* tok[] after the basic fields */
};

/* Split a saved spec into words, quotes removed (tok[] into @buf). */
static void tokenize(struct cmd_lrule *r, char *buf)
{
	char *p = buf, *out;
	bool q;

	while (*p && r->ntok < CMD_MAX_TOK) {
		p += strspn(p, " ");
		if (!*p)
			break;
		r->tok[r->ntok++] = out = p;
		for (q = false; *p && (q || *p != ' '); p++) {
			if (*p == '"')
				q = !q;
			else if (*p == '\\' && p[1])
				*out++ = *++p;
			else
				*out++ = *p;
		}
		if (*p)
			p++;
		*out = '\0';
	}
}

static const char *const cmd_basic[] = { "-s", "-d", "-i", "-o" };

/* The basic fields of r->tok[]; the others are kept, in order. */
static void classify(struct cmd_lrule *r)
{
	unsigned int i, j, k = 0;
	bool neg = false;
	char **t = r->tok;

	for (i = 0; i < r->ntok; i++) {
		if (!strcmp(t[i], "!")) {
			neg = true;
			continue;
		}
		for (j = 0; j < 4 && i + 1 < r->ntok; j++) {
			if (!strcmp(t[i], cmd_basic[j]))
				break;
		}
		if (j < 4 && i + 1 < r->ntok) {
			r->f[j] = t[++i];
			r->neg[j] = neg;
		} else if (!strcmp(t[i], "-p") && i + 1 < r->ntok) {
			r->proto = t[++i];
			r->proto_neg = neg;
		} else if (!strcmp(t[i], "-f")) {
			r->frag = true;
		} else if ((!strcmp(t[i], "-j") || !strcmp(t[i], "-g")) &&
			   i + 1 < r->ntok) {
			r->go = t[i][1] == 'g';
			r->target = t[++i];
			t[k++] = "-m";
			t[k++] = (char *)r->target;
		} else {
			if (neg)
				t[k++] = "!";
			t[k++] = t[i];
		}
		neg = false;
	}
	r->ntok = k;
}

static const char *proto_text(const char *p, bool numeric)
{
	unsigned int i;

	if (!p)
		return numeric ? "0" : "all";
	for (i = 0; i < sizeof(cmd_protos) / sizeof(cmd_protos[0]); i++) {
		if (!strcmp(cmd_protos[i].name, p))
			return numeric ? cmd_protos[i].num : p;
	}
	return p;
}

static uint16_t proto_num(const char *p)
{
	const char *n = proto_text(p, true);

	return strspn(n, "0123456789") == strlen(n) ? atoi(n) : 0;
}

static void print_addr(FILE *f, const struct cmd_table *t, const char *a,
		       bool neg, unsigned int flags)
{
	char buf[80];
	size_t n;

	if (!a) {
		a = (flags & CMD_L_NUMERIC) ? (t->family == NFPROTO_IPV6 ?
					       "::/0" : "0.0.0.0/0") :
			"anywhere";
	} else {
		snprintf(buf, sizeof(buf), "%s", a);
		n = strlen(buf);
		if (n > 3 && !strcmp(buf + n - 3, "/32") &&
		    t->family == NFPROTO_IPV4)
			buf[n - 3] = '\0';
		if (n > 4 && !strcmp(buf + n - 4, "/128"))
			buf[n - 4] = '\0';
		a = buf;
	}
	fprintf(f, "%c%-19s ", neg ? '!' : ' ', a);
}

static bool named_module(const char *m)
{
	unsigned int i;

	for (i = 0; i < sizeof(cmd_named_modules) / sizeof(*cmd_named_modules);
	     i++) {
		if (!strcmp(cmd_named_modules[i], m))
			return true;
	}
	return false;
}

/* One option @opt of module @m with value @v (may be NULL). */
static void print_opt(FILE *f, const char *m, const char *opt, const char *v,
		      bool neg)
{
	unsigned int i;

	for (i = 0; i < sizeof(cmd_opt_labels) / sizeof(*cmd_opt_labels); i++) {
		if (strcmp(cmd_opt_labels[i].module, m) ||
		    strcmp(cmd_opt_labels[i].opt, opt))
			continue;
		fprintf(f, " %s%s%s%s",
			cmd_opt_labels[i].range_label && v && strchr(v, ':') ?
				cmd_opt_labels[i].range_label :
				cmd_opt_labels[i].label,
			neg ? "!" : "", v ? v : "", cmd_opt_labels[i].suffix);
		return;
	}
	fprintf(f, " %s%s%s%s", neg ? "! " : "", opt + strspn(opt, "-"),
		v ? " " : "", v ? v : "");
}

/* Matches and target options, from tok[] = "-m NAME opts..." groups. */
static void print_extras(FILE *f, const struct cmd_lrule *r)
{
	const char *m = "";
	unsigned int i;
	bool neg = false, named = false;

	for (i = 0; i < r->ntok; i++) {
		const char *t = r->tok[i], *v = NULL;

		if (!strcmp(t, "-m") && i + 1 < r->ntok) {
			m = r->tok[++i];
			named = named_module(m);
			if (named)
				fprintf(f, " %s", m);
			continue;
		}
		if (!strcmp(t, "!")) {
			neg = true;
			continue;
		}
		if (i + 1 < r->ntok && strncmp(r->tok[i + 1], "-", 1) &&
		    strcmp(r->tok[i + 1], "!"))
			v = r->tok[++i];
		print_opt(f, m, t, v, neg);
		neg = false;
	}
}

static void print_num(FILE *f, uint64_t n, unsigned int flags, int width)
{
	static const char units[] = "KMGT";
	unsigned int u = 0;

	if (flags & CMD_L_EXACT) {
		fprintf(f, "%*" PRIu64 " ", width, n);
		return;
	}
	if (n <= 99999) {
		fprintf(f, "%5" PRIu64 " ", n);
		return;
	}
	for (n /= 1000; n > 9999 && u < 3; u++)
		n /= 1000;
	fprintf(f, "%4" PRIu64 "%c ", n, units[u]);
}

static void print_rule(FILE *f, const struct cmd_table *t,
		       const struct cmd_rule *rule, unsigned int num,
		       unsigned int flags)
{
	struct cmd_lrule r = { 0 };
	unsigned long long p = 0, b = 0;
	char *buf = strdup(rule->spec), prot[24];

	if (!buf)
		return;
	tokenize(&r, buf);
	classify(&r);
	if (flags & CMD_L_LINENUM)
		fprintf(f, "%-4u ", num);
	if (flags & CMD_L_VERBOSE) {
		sscanf(rule->ctr, "[%llu:%llu]", &p, &b);
		print_num(f, p, flags, 8);
		print_num(f, b, flags, 8);
	}
	snprintf(prot, sizeof(prot), "%s%s", r.proto_neg ? "!" : "",
		 proto_text(r.proto, flags & CMD_L_NUMERIC));
	fprintf(f, "%-9s  %-4s %-3s", r.target ? r.target : "",
		prot, r.frag ? "-f" : "--");
	if (flags & CMD_L_VERBOSE) {
		fprintf(f, "%c%-6s", r.neg[2] ? '!' : ' ', r.f[2] ? r.f[2] :
			"*");
		fprintf(f, "%c%-6s ", r.neg[3] ? '!' : ' ', r.f[3] ? r.f[3] :
			"*");
	}
	print_addr(f, t, r.f[0], r.neg[0], flags);
	print_addr(f, t, r.f[1], r.neg[1], flags);
	if (r.go)
		fputs("[goto] ", f);
	if (r.go && r.ntok >= 2)
		r.ntok -= 2;	/* the -g target is not printed again */
	if (cmd_xt_print(f, t->family, r.tok, r.ntok, proto_num(r.proto),
			 r.proto_neg, r.target, flags & CMD_L_NUMERIC) < 0)
		print_extras(f, &r);
	fputc('\n', f);
	free(buf);
}

static void print_chain_head(FILE *f, const struct cmd_table *t,
			     const struct cmd_chain *c, unsigned int flags)
{
	fprintf(f, "Chain %s (", c->name);
	if (!strcmp(c->policy, "-"))
		fprintf(f, "%u references)\n", cmd_chain_refs(t, c->name));
	else if (flags & CMD_L_VERBOSE)
		fprintf(f, "policy %s %" PRIu64 " packets, %" PRIu64
			" bytes)\n", c->policy, c->packets, c->bytes);
	else
		fprintf(f, "policy %s)\n", c->policy);
	if (flags & CMD_L_LINENUM)
		fputs("num  ", f);
	if (flags & CMD_L_VERBOSE)
		fputs(flags & CMD_L_EXACT ? "    pkts      bytes " :
					    " pkts bytes ", f);
	fputs(flags & CMD_L_VERBOSE ?
	      "target     prot opt in     out     source               "
	      "destination         \n" :
	      "target     prot opt source               destination         \n",
	      f);
}

/* The one-line form -v prints of a rule it adds, checks or deletes. */
void cmd_print_verbose(FILE *f, const struct cmd_table *t, const char *spec)
{
	struct cmd_lrule r = { 0 };
	char *buf = strdup(spec), *tok[CMD_MAX_TOK + 2], *proto;
	char dash_m[] = "-m";
	unsigned int n = 0, i;

	if (!buf)
		return;
	tokenize(&r, buf);
	classify(&r);
	if (r.go && r.ntok >= 2)
		r.ntok -= 2;
	fprintf(f, "%s  %s%s opt %s in %s%s out %s%s %c%s  -> %s%s  ",
		r.target ? r.target : "", r.proto_neg ? "!" : "",
		proto_text(r.proto, false), r.frag ? "-f" : "--",
		r.neg[2] ? "!" : "", r.f[2] ? r.f[2] : "*",
		r.neg[3] ? "!" : "", r.f[3] ? r.f[3] : "*",
		r.neg[0] ? '!' : ' ', r.f[0] ? r.f[0] :
		t->family == NFPROTO_IPV6 ? "::/0" : "0.0.0.0/0",
		r.neg[1] ? "!" : "", r.f[1] ? r.f[1] :
		t->family == NFPROTO_IPV6 ? "::/0" : "0.0.0.0/0");
	if (r.go)
		fputs("[goto] ", f);
	/* options before any -m are the protocol's (as iptables loads it) */
	proto = r.proto && !r.proto_neg && r.ntok &&
		strcmp(r.tok[0], "-m") ? r.proto : NULL;
	if (proto) {
		tok[n++] = dash_m;
		tok[n++] = proto;
	}
	for (i = 0; i < r.ntok && n < CMD_MAX_TOK + 2; i++)
		tok[n++] = r.tok[i];
	fflush(f);
	if (cmd_xt_print(f, t->family, tok, n, proto_num(r.proto),
			 r.proto_neg, r.target, true) < 0)
		print_extras(f, &r);
	fputc('\n', f);
	free(buf);
}

void cmd_print_list(FILE *f, const struct cmd_table *t,
		    const struct cmd_chain *chain, unsigned int num,
		    unsigned int flags)
{
	const struct cmd_chain *c;
	unsigned int i, j;
	bool first = true;

	for (i = 0; i < t->nchains; i++) {
		c = &t->chains[i];
		if (chain && c != chain)
			continue;
		if (!num) {
			if (!first)
				fputc('\n', f);
			print_chain_head(f, t, c, flags);
		}
		first = false;
		for (j = 0; j < c->nrules; j++) {
			if (!num || j + 1 == num)
				print_rule(f, t, &c->rules[j], j + 1, flags);
		}
	}
}
