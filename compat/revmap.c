// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reverse map: a decompiled rule (nftc IR, as nftc's delinearizer
 * reads it back from VM code) printed as an iptables-save "-A" line.
 *
 * The ip part (-s -d -i -o -p) is collected wherever it appears in the
 * rule and printed first, in iptables' order; matches follow in rule
 * order, then the target. xt-compat expressions written by stock
 * iptables-nft arrive as verdict symbols carrying COMPAT_XT_MARK and
 * the text libxtables printed for them (the CLI's delinearizer hook).
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "compat.h"
#include "revmap_int.h"
#include "rule.h"
#include "printer.h"

char *rv_expr_text(const struct expr *e)
{
	return compat_expr_text(e, NFTC_OUTPUT_STATELESS);
}

const char *rv_neg(bool inv)
{
	return inv ? "! " : "";
}

/*
 * A string option's value as libxtables saves it: bare when it is all
 * letters, digits, '_' and '-', else quoted with '"', '\\' and '\''
 * escaped.
 */
void rv_quote(FILE *f, const char *s)
{
	static const char bare[] = "_-0123456789abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t n = strspn(s, bare);

	if (n > 0 && !s[n]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '\'')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

bool rv_ip_set(struct rv_ctx *c, enum rv_ip_field fld, char *text, bool inv)
{
	if (!text || c->ip[fld]) {
		free(text);
		return false;
	}
	c->ip[fld] = text;
	c->ip_inv[fld] = inv;
	return true;
}

static const char *const rv_ip_opt[__RV_IP_MAX] = {
	[RV_SRC]	= "-s",
	[RV_DST]	= "-d",
	[RV_IIF]	= "-i",
	[RV_OIF]	= "-o",
	[RV_PROTO]	= "-p",
	[RV_FRAG]	= "-f",
};

void rv_l4_flush(struct rv_ctx *c)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (c->l4opt[i])
			fputs(c->l4opt[i], c->m);
		free(c->l4opt[i]);
		c->l4opt[i] = NULL;
	}
}

void rv_ctstate_flush(struct rv_ctx *c, bool conntrack)
{
	const char *name = conntrack ? "conntrack" : "state";
	char *states = c->ctstate;

	if (!states)
		return;
	c->ctstate = NULL;
	if (!c->last_match || strcmp(c->last_match, name)) {
		fputs(" -m ", c->m);
		fputs(name, c->m);
	}
	fputc(' ', c->m);
	fputs(rv_neg(c->ctstate_inv), c->m);
	fputs(conntrack ? "--ctstate " : "--state ", c->m);
	fputs(states, c->m);
	c->last_match = name;
	free(states);
}

void rv_match_open(struct rv_ctx *c, const char *name)
{
	rv_recent_flush(c);
	rv_ctstate_flush(c, name && !strcmp(name, "conntrack"));
	if (name && c->last_match && !strcmp(c->last_match, name))
		return;
	rv_l4_flush(c);
	if (name) {
		fputs(" -m ", c->m);
		fputs(name, c->m);
	}
	c->last_match = name;
}

/* Matches iptables prints as numbers where nft prints names. */
static const char *const rv_numeric_sel[] = { "icmp type ", "icmpv6 type " };

char *rv_stmt_text(const struct rv_ctx *c, const struct stmt *s)
{
	unsigned int i;
	char *buf;

	buf = rv_stmt_text_flags(c, s, NFTC_OUTPUT_STATELESS);
	for (i = 0; buf && i < sizeof(rv_numeric_sel) / sizeof(char *); i++) {
		if (strstr(buf, rv_numeric_sel[i])) {
			free(buf);
			return rv_stmt_text_flags(c, s, NFTC_OUTPUT_STATELESS |
						  NFTC_OUTPUT_NUMERIC_SYMBOL);
		}
	}
	return buf;
}

char *rv_stmt_text_flags(const struct rv_ctx *c, const struct stmt *s,
			 unsigned int flags)
{
	return compat_stmt_text(c->family, s, flags);
}

static void rv_note_unsupported(struct rv_ctx *c, const struct stmt *s)
{
	if (!c->unsupported)
		c->unsupported = rv_stmt_text(c, s);
}

static void rv_map_stmts(struct rv_ctx *c, const struct rule *r)
{
	const struct stmt *s;

	list_for_each_entry(s, &r->stmts, list) {
		bool ok, handled;
		char *text;

		ok = rv_recent_check(c, s, &handled);
		if (handled)
			;	/* -m recent's membership test */
		else if (s->kind == STMT_EXPRESSION) {
			text = rv_stmt_text(c, s);
			ok = text && rv_match(c, text);
			free(text);
		} else
			ok = rv_stmt(c, s);
		if (!ok)
			rv_note_unsupported(c, s);
	}
	rv_recent_flush(c);
	rv_ctstate_flush(c, false);
	rv_l4_flush(c);
	/* an interface type test without -m mac: no iptables form */
	if (c->ether_dep && !c->unsupported)
		c->unsupported = strdup("meta iiftype ether");
	if (r->comment) {
		rv_match_open(c, "comment");
		fputs(" --comment ", c->m);
		rv_quote(c->m, r->comment);
	}
}

static void rv_print(FILE *f, struct rv_ctx *c, const char *chain,
		     char *mtext, char *ttext)
{
	unsigned int i;

	/* fputs: fprintf's format parse cost ~800 a call here */
	fputs("-A ", f);
	fputs(chain, f);
	for (i = 0; i < __RV_IP_MAX; i++) {
		if (!c->ip[i])
			continue;
		fputc(' ', f);
		fputs(rv_neg(c->ip_inv[i]), f);
		fputs(rv_ip_opt[i], f);
		if (*c->ip[i])
			fputc(' ', f);
		fputs(c->ip[i], f);
	}
	fputs(mtext, f);
	fputs(ttext, f);
	fputc('\n', f);
}

static uint64_t rv_counter(const struct rule *r, bool bytes)
{
	const struct stmt *s;

	list_for_each_entry(s, &r->stmts, list) {
		if (s->kind == STMT_COUNTER)
			return bytes ? s->counter.bytes : s->counter.packets;
	}
	return 0;
}

/*
 * Map @r's statements to match text *@mtext and target text *@ttext:
 * 0, 1 when the stack buffers were too small (free both texts, reset
 * @c and do it again with @big), or -1.
 */
static int save_pass(struct rv_ctx *c, const struct rule *r, bool big,
		     char **mtext, char **ttext)
{
	struct compat_text tm, tt;
	int rm, rt;

	c->m = compat_text_open_slot(&tm, COMPAT_SLOT_MATCHES, big);
	c->t = compat_text_open_slot(&tt, COMPAT_SLOT_TARGET, big);
	if (c->m && c->t)
		rv_map_stmts(c, r);
	rm = compat_text_close(&tm, mtext);
	rt = compat_text_close(&tt, ttext);
	c->m = c->t = NULL;
	return rm < 0 || rt < 0 ? -1 : rm || rt;
}

static void rv_ctx_reset(struct rv_ctx *c)
{
	uint8_t family = c->family;
	unsigned int i;

	free(c->unsupported);
	free(c->recent.mask);
	free(c->ctstate);
	for (i = 0; i < __RV_IP_MAX; i++)
		free(c->ip[i]);
	memset(c, 0, sizeof(*c));
	c->family = family;
}

int compat_rule_save(FILE *f, uint8_t family, const char *chain,
		     const struct rule *r, bool counters)
{
	struct rv_ctx c = { .family = family };
	char *mtext = NULL, *ttext = NULL;
	int ret;

	ret = save_pass(&c, r, false, &mtext, &ttext);
	if (ret == 1) {
		free(mtext);
		free(ttext);
		rv_ctx_reset(&c);
		ret = save_pass(&c, r, true, &mtext, &ttext);
	}
	if (ret < 0) {
		ret = -ENOMEM;
		goto out;
	}
	if (c.unsupported) {
		/* a comment line: no counters before it (-c restore reads
		 * "[p:b] #" as a command) */
		fprintf(f, "# unsupported: -A %s: %s\n", chain, c.unsupported);
		ret = -EOPNOTSUPP;
	} else {
		if (counters)
			fprintf(f, "[%llu:%llu] ",
				(unsigned long long)rv_counter(r, false),
				(unsigned long long)rv_counter(r, true));
		rv_print(f, &c, chain, mtext, ttext);
	}
out:
	free(mtext);
	free(ttext);
	rv_ctx_reset(&c);
	return ret;
}
