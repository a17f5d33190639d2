// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The iptables-save / iptables-restore reader and the single command
 * reader. Lines are split into words as iptables-restore splits them
 * (double quotes group, backslash escapes inside quotes), each word
 * keeping its line and columns for diagnostics. A bad line is reported
 * and skipped; the rest of the file is still read.
 */
#define _GNU_SOURCE
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/netfilter.h>
#include "xlate_int.h"
#include "hash.h"

#define XL_MAX_TOKENS	1024

struct xl_line {
	const struct input_desc	*in;
	unsigned int		lineno;
	unsigned int		offset;		/* of the line in in->data */
	const char		*text;
	size_t			len;
	struct xl_token		tok[XL_MAX_TOKENS];
	unsigned int		n;
	struct location		loc;		/* the whole line */
	char			*arena;		/* the words of tokenize() */
	size_t			arena_size;
	bool			owned;		/* a word was malloc'ed */
};

static struct location line_loc(const struct xl_line *l, unsigned int col,
				unsigned int last)
{
	struct location loc = {
		.indesc = l->in, .line_offset = l->offset,
		.first_line = l->lineno, .last_line = l->lineno,
		.first_column = col, .last_column = last,
	};

	return loc;
}

/* A word's text: in the line's arena, or malloc'ed when replaced. */
static void tok_text_free(struct xl_line *l, char *text)
{
	if (!l->arena || text < l->arena || text >= l->arena + l->arena_size)
		free(text);
}

static void free_tokens(struct xl_line *l)
{
	unsigned int i;

	for (i = 0; l->owned && i < l->n; i++)
		tok_text_free(l, l->tok[i].text);
	l->owned = false;
	l->n = 0;
}

static void line_free(struct xl_line *l)
{
	if (l)
		free(l->arena);
	free(l);
}

static int line_error(struct xlate_ctx *ctx, const struct location *loc,
		      const char *fmt, const char *arg)
{
	return erec_error(&ctx->erq, loc, fmt, arg);
}

/*
 * What ends a word's unquoted run: a blank, or a quote; and what may end
 * the line (the byte after it is one of them: its newline, the '\r'
 * cut off its end, or the NUL after the input), which ends the run only
 * there: one test a byte instead of two.
 */
static const bool word_stop[256] = {
	[' '] = true, ['\t'] = true, ['"'] = true,
	['\n'] = true, ['\r'] = true, ['\0'] = true,
};

/*
 * Split l->text into words; -1 on an unterminated quote. The line is
 * copied into its arena (kept from line to line) once, and the words
 * are cut there in place: an unquoted run is where it was, a quoted
 * part is written over its quotes (never past what was read), and each
 * word ends with a NUL over the blank after it.
 */
static int tokenize(struct xlate_ctx *ctx, struct xl_line *l)
{
	size_t i = 0, w, len = l->len;
	const char *text = l->text;	/* a local: buf's stores alias l */
	unsigned int start;
	bool quoted;
	char *buf;

	if (l->arena_size < len + 1) {
		free(l->arena);
		l->arena_size = 0;
		l->arena = malloc(len + 1);
		if (!l->arena)
			return -1;
		l->arena_size = len + 1;
	}
	buf = l->arena;
	memcpy(buf, text, len);
	l->n = 0;
	while (i < len) {
		/* text[len] is no blank (word_stop) */
		while (text[i] == ' ' || text[i] == '\t')
			i++;
		if (i >= len)
			break;
		start = i;
		quoted = false;
		/* the unquoted run: in the arena already */
		for (;;) {
			while (!word_stop[(unsigned char)text[i]])
				i++;
			if (i >= len || text[i] == ' ' || text[i] == '\t' ||
			    text[i] == '"')
				break;
			i++;	/* a '\n', '\r' or NUL inside the line */
		}
		w = i;
		if (i < len && text[i] == '"') {
			/* a quote: up to the closing one, which ends the word */
			quoted = true;
			for (i++; i < len; i++) {
				char c = text[i];

				if (c == '\\' && i + 1 < len) {
					buf[w++] = text[++i];
				} else if (c == '"') {
					quoted = false;
					i++;
					break;
				} else {
					buf[w++] = c;
				}
			}
		}
		if (quoted) {
			struct location loc = line_loc(l, start + 1, len);

			free_tokens(l);
			return line_error(ctx, &loc, "unterminated quote%s",
					  "");
		}
		if (l->n == XL_MAX_TOKENS) {
			struct location loc = line_loc(l, start + 1, len);

			free_tokens(l);
			return line_error(ctx, &loc, "too many words%s", "");
		}
		buf[w] = '\0';
		l->tok[l->n].text = buf + start;
		l->tok[l->n].loc = line_loc(l, start + 1, i);
		l->n++;
	}
	return 0;
}

static struct xl_table *table_get(struct xlate_ctx *ctx,
				  const struct compat_table *layout,
				  const struct location *loc)
{
	struct xl_table *t;

	list_for_each_entry(t, &ctx->tables, list) {
		if (t->layout == layout)
			return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->layout = layout;
	t->loc = *loc;
	init_list_head(&t->chains);
	list_add_tail(&t->list, &ctx->tables);
	return t;
}

struct xl_chain *xl_chain_find(struct xl_table *t, const char *name)
{
	struct xl_chain *c;
	size_t n;
	uint32_t h = hash_str(name, &n);

	list_for_each_entry(c, &t->chains, list) {
		if (c->hash != h && !c->renamed)	/* most differ at once */
			continue;
		if (!strcmp(c->name, name) ||
		    (c->renamed && !strncmp(c->name, name, n) &&
		     !strcmp(c->name + n, "_")))
			return c;
	}
	return NULL;
}

/*
 * Words nft 1.0.6 cannot take as a chain name, quoted or not: such
 * chains get a trailing '_' (with a warning).
 */
static const char *const xl_chain_keywords[] = {
	"accept", "drop", "reject", "return", "jump", "goto", "continue",
	"queue", "log", "counter", "limit", "quota", "masquerade", "redirect",
	"snat", "dnat", "notrack", "meta", "ct", "ip", "ip6", "inet", "tcp",
	"udp", "icmp", "mark", "set", "map", "table", "chain", "rule", "add",
	"delete", "insert", "flush", "list", "reset", "comment", "type",
	"hook", "priority", "policy", "filter", "nat", "route", "element",
	"define", "include", "dup", "fwd", "synproxy", "tproxy", "meter",
	"vmap", "update", "exists", "missing", "ether", "vlan", "arp",
	"bridge", "netdev", "sctp", "dccp", "ah", "esp", "comp", "rt", "fib",
	"socket", "osf", "numgen", "jhash", "symhash", "ipsec", "last",
	"state", "status", "mh", "frag", "hbh", "dst", "srh", "exthdr",
	"option", "to", "with", "level", "prefix", "group", "snaplen",
	"flags", "timeout", "size", "over", "until", "burst", "bytes",
	"packets", "name", "handle", "position", "index", "describe",
	"monitor", "export", "import", "rename", "create", "replace",
	"destroy", "get", "random", "persistent", "fully-random",
	NULL,
};

static bool chain_keyword(const char *name)
{
	const char *const *k;

	for (k = xl_chain_keywords; *k; k++) {
		if (!strcmp(*k, name))
			return true;
	}
	return false;
}

struct xl_chain *xl_chain_add(struct xl_table *t, const char *name,
			     const struct location *loc)
{
	struct xl_chain *c = xl_chain_find(t, name);
	size_t n;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->name = strdup(name);
	c->hash = hash_str(name, &n);
	c->hook = compat_chain_find(t->layout, name);
	if (!c->hook && chain_keyword(name)) {
		free(c->name);
		if (asprintf(&c->name, "%s_", name) < 0)
			c->name = NULL;
		c->renamed = true;
	}
	c->policy = NF_ACCEPT;
	c->loc = *loc;
	init_list_head(&c->rules);
	list_add_tail(&c->list, &t->chains);
	return c;
}

struct xl_chain *xl_chain_external(struct xlate_ctx *ctx, struct xl_table *t,
				   const char *name,
				   const struct location *loc)
{
	struct xl_chain *c;

	if (!ctx->chain_known ||
	    !ctx->chain_known(ctx->chain_known_priv, t->layout->name, name))
		return NULL;
	c = xl_chain_add(t, name, loc);
	if (c)
		c->external = true;
	return c;
}

void xlate_set_chain_known(struct xlate_ctx *ctx, xlate_chain_known_fn fn,
			   void *priv)
{
	ctx->chain_known = fn;
	ctx->chain_known_priv = priv;
}

/* ":NAME POLICY [packets:bytes]" */
static int read_chain_decl(struct xlate_ctx *ctx, struct xl_table *t,
			   struct xl_line *l)
{
	const char *name = l->tok[0].text + 1;
	struct xl_chain *c;

	if (!*name || l->n < 2)
		return line_error(ctx, &l->loc, "bad chain declaration%s", "");
	if (strlen(name) > 28)
		return line_error(ctx, &l->tok[0].loc, "chain name `%s' too "
				  "long (must be under 29 chars)", name);
	c = xl_chain_add(t, name, &l->tok[0].loc);
	if (!c)
		return -1;
	if (c->renamed && !c->warned) {
		erec_warning(&ctx->erq, &l->tok[0].loc, "chain `%s' is an nft "
			     "keyword: named `%s' instead", name, c->name);
		c->warned = true;
	}
	if (c->hook) {
		if (!strcmp(l->tok[1].text, "ACCEPT"))
			c->policy = NF_ACCEPT;
		else if (!strcmp(l->tok[1].text, "DROP"))
			c->policy = NF_DROP;
		else
			return line_error(ctx, &l->tok[1].loc, "bad built-in "
					  "chain policy `%s'", l->tok[1].text);
	} else if (strcmp(l->tok[1].text, "-")) {
		return line_error(ctx, &l->tok[1].loc, "can't set policy `%s' "
				  "on user-defined chain", l->tok[1].text);
	}
	if (l->n > 2)
		sscanf(l->tok[2].text, "[%" SCNu64 ":%" SCNu64 "]",
		       &c->packets, &c->bytes);
	return 0;
}

/*
 * Translate one rule of chain @c from tokens @tok[0..n); @insert puts it
 * first. Counters "[p:b]" before the command are passed as "-c p b".
 */
static int read_rule(struct xlate_ctx *ctx, struct xl_table *t,
		     struct xl_chain *c, struct xl_token *tok, unsigned int n,
		     const struct location *loc, bool insert)
{
	struct handle h = { .family = ctx->family };
	struct xl_rule r = { .ctx = ctx, .table = t, .chain = c };
	struct xl_memo_cap *cap = NULL;
	struct xl_rule_ent *ent;
	bool memo;
	int ret;

	/* a common rule the stream writes itself, without a parse */
	if (ctx->stream && xl_stream_fast(ctx, t, c, tok, n, loc, insert)) {
		ctx->stats.rules++;
		return 0;
	}
	/* a rule printed from an earlier one's text (memo.c) */
	memo = ctx->flags & XLATE_F_MEMO && ctx->flags & XLATE_F_STREAM &&
	       !ctx->cmd_mode && !ctx->stream;
	if (memo && xl_memo_try(ctx, t, c, tok, n, insert)) {
		ctx->stats.rules++;
		return 0;
	}
	h.table.name = (char *)t->layout->name;
	h.chain.name = c->name;
	r.rule = rule_alloc(loc, &h);
	r.loc = *loc;
	ctx->stats.rules++;
	ctx->err_kind = XL_ERR_PARAM;
	cap = memo && xl_memo_learning(ctx) ? xl_memo_begin(ctx, t) : NULL;
	r.memo_want = cap != NULL;
	ret = xl_parse_rule(&r, tok, n);
	free(r.comment);
	if (ret == 1) {
		/* -4/-6 of the other family: iptables skips it too */
		ctx->stats.rules--;
		rule_free(r.rule);
		if (cap)
			xl_memo_end(ctx, t, c, loc, false);
		return 0;
	}
	if (ret < 0) {
		rule_free(r.rule);
		r.rule = NULL;
	}
	if (ctx->stream) {
		/* handed over (or, after an error, dropped) at once */
		if (r.rule)
			xl_stream_rule(ctx, t, c, r.rule, loc, insert);
		return ret < 0 ? -1 : 0;
	}
	if (ctx->flags & XLATE_F_STREAM && !ctx->cmd_mode) {
		/* evaluated, printed and freed at once */
		xl_out_rule_cap(ctx, t, c, r.rule, loc, insert, r.inexact,
				cap);
		if (cap)
			xl_memo_end(ctx, t, c, loc, ret == 0 && r.memo_ok &&
				    !r.inexact);
		return ret < 0 ? -1 : 0;
	}
	ent = calloc(1, sizeof(*ent));
	if (!ent) {
		rule_free(r.rule);
		return -1;
	}
	ent->loc = *loc;
	ent->rule = r.rule;
	ent->inexact = r.inexact;
	if (insert)
		list_add(&ent->list, &c->rules);
	else
		list_add_tail(&ent->list, &c->rules);
	return ret < 0 ? -1 : 0;
}

/* @t is short option @s ("-A") or long option @l ("--append"). */
static bool is_opt(const char *t, const char *s, const char *l)
{
	if (t[0] != '-')
		return false;
	if (t[1] != '-')
		return t[1] == s[1] && !t[2];
	return !strcmp(t, l);
}

/* "-A CHAIN ...", "-I CHAIN [N] ...", "-N CHAIN", "[p:b] -A ..." */
static int read_command(struct xlate_ctx *ctx, struct xl_table *t,
			struct xl_line *l)
{
	struct xl_token *tok = l->tok;
	unsigned int n = l->n, skip = 2;
	char pk[32], by[32];
	uint64_t p, b;
	struct xl_chain *c;
	bool insert;

	if (tok[0].text[0] == '[') {
		if (sscanf(tok[0].text, "[%" SCNu64 ":%" SCNu64 "]", &p, &b)
		    != 2)
			return line_error(ctx, &tok[0].loc, "bad counters "
					  "`%s'", tok[0].text);
		/* becomes "-c P B" after the chain name */
		snprintf(pk, sizeof(pk), "%" PRIu64, p);
		snprintf(by, sizeof(by), "%" PRIu64, b);
		tok_text_free(l, tok[0].text);
		l->owned = true;
		tok[0] = tok[1];
		tok[1] = tok[2];
		tok[2].text = strdup("-c");
		if (n + 2 > XL_MAX_TOKENS)
			return -1;
		memmove(&tok[5], &tok[3], (n - 3) * sizeof(*tok));
		tok[3].text = strdup(pk);
		tok[4].text = strdup(by);
		tok[3].loc = tok[4].loc = tok[2].loc = l->tok[0].loc;
		n += 2;
		l->n = n;
	}
	if (n < 2)
		return line_error(ctx, &l->loc, "missing chain name%s", "");
	if (strchr(tok[0].text, 't') && tok[0].text[1] != '-')
		return line_error(ctx, &tok[0].loc, "The -t option cannot be "
				  "used in iptables-restore.%s", "");
	if (is_opt(tok[0].text, "-N", "--new-chain")) {
		return xl_chain_add(t, tok[1].text, &tok[1].loc) ? 0 : -1;
	}
	insert = is_opt(tok[0].text, "-I", "--insert");
	if (!insert && !is_opt(tok[0].text, "-A", "--append"))
		return line_error(ctx, &tok[0].loc, "command `%s' is not "
				  "supported in a save file", tok[0].text);
	/* an undeclared chain: the kernel's (its policy kept), or built-in */
	c = xl_chain_find(t, tok[1].text);
	if (!c)
		c = xl_chain_external(ctx, t, tok[1].text, &tok[1].loc);
	if (!c && compat_chain_find(t->layout, tok[1].text))
		c = xl_chain_add(t, tok[1].text, &tok[1].loc);
	if (!c) {
		ctx->err_kind = XL_ERR_AT_COMMIT;
		return line_error(ctx, &tok[1].loc, "Chain '%s' does not exist",
				  tok[1].text);
	}
	if (insert && n > 2 && strtoul(tok[2].text, NULL, 10) > 0 &&
	    tok[2].text[0] != '-') {
		if (strtoul(tok[2].text, NULL, 10) != 1)
			return line_error(ctx, &tok[2].loc, "inserting at "
					  "position %s is not supported",
					  tok[2].text);
		skip = 3;
	}
	return read_rule(ctx, t, c, tok + skip, n - skip, &l->loc, insert);
}

/* The first error iptables-restore reports decides its exit status. */
static void status_decide(struct xlate_ctx *ctx, bool now, bool param)
{
	if (!now || ctx->status_known)
		return;
	ctx->status_known = true;
	ctx->stats.param_problem = param;
}

static void scan_table(struct xlate_ctx *ctx, struct xl_table *t,
		       const struct xl_line *start);
static void chain_free_xl(struct xl_chain *c);

static int read_line(struct xlate_ctx *ctx, struct xl_table **cur,
		     struct xl_line *l)
{
	const struct compat_table *layout;
	const char *t0;

	if (tokenize(ctx, l) < 0)
		return -1;
	if (l->n == 0 || l->tok[0].text[0] == '#')
		return 0;
	t0 = l->tok[0].text;
	if (t0[0] == '*' && !t0[1] && l->n > 1) {
		/* "* nat": iptables-restore skips the blank */
		tok_text_free(l, l->tok[0].text);
		l->owned = true;
		l->tok[0].text = malloc(strlen(l->tok[1].text) + 2);
		sprintf(l->tok[0].text, "*%s", l->tok[1].text);
		t0 = l->tok[0].text;
	}
	if (t0[0] == '*') {
		if (*cur) {
			ctx->err_kind = XL_ERR_PARAM;
			return line_error(ctx, &l->tok[0].loc, "table `%s' "
					  "started before COMMIT", t0 + 1);
		}
		layout = compat_table_find(ctx->family, t0 + 1);
		if (!layout) {
			ctx->err_kind = XL_ERR_PARAM;
			return line_error(ctx, &l->tok[0].loc, "unknown table "
					  "`%s'", t0 + 1);
		}
		*cur = table_get(ctx, layout, &l->tok[0].loc);
		if (!*cur)
			return -1;
		scan_table(ctx, *cur, l);
		return 0;
	}
	if (t0[0] == 'C' && !strcmp(t0, "COMMIT")) {
		if (!*cur)
			return line_error(ctx, &l->tok[0].loc, "COMMIT outside "
					  "a table%s", "");
		if (ctx->stream)
			xl_stream_table(ctx, *cur);
		*cur = NULL;
		status_decide(ctx, ctx->err_deferred, false);
		return 0;
	}
	if (!*cur)
		return line_error(ctx, &l->tok[0].loc, "no table specified "
				  "(missing `*TABLE' line)%s", "");
	if (t0[0] == ':')
		return read_chain_decl(ctx, *cur, l);
	return read_command(ctx, *cur, l);
}

static struct input_desc *input_add(struct xlate_ctx *ctx,
				    enum input_kind kind, const char *name,
				    char *data)
{
	struct input_desc *in = calloc(1, sizeof(*in));

	if (!in) {
		if (data != ctx->mapped)
			free(data);
		return NULL;
	}
	in->kind = kind;
	in->name = strdup(name);
	in->data = data;
	in->size = strlen(data);
	in->next = ctx->inputs;
	ctx->inputs = in;
	return in;
}

struct input_desc *xl_input_add(struct xlate_ctx *ctx, const char *name,
				char *data)
{
	return input_add(ctx, INPUT_FILE, name, data);
}

static void status_note(struct xlate_ctx *ctx, unsigned int errors_before)
{
	if (ctx->erq.num_errors == errors_before)
		return;
	if (ctx->err_kind == XL_ERR_AT_COMMIT)
		ctx->err_deferred = true;
	else
		status_decide(ctx, true, ctx->err_kind == XL_ERR_PARAM);
}

/* Bytes of a mapped input read between two MADV_DONTNEED. */
#define XL_DROP_STEP	(64u << 10)

/*
 * A mapped input: give back the whole pages before @off (the line
 * being read starts there), @done of them given back so far.
 */
static void drop_read(const struct xlate_ctx *ctx,
		      const struct input_desc *in, size_t off, size_t *done)
{
	size_t page, upto;

	if (!ctx->mapped || in->data != ctx->mapped || off < *done +
							XL_DROP_STEP)
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
	upto = off & ~(page - 1);
	if (upto > *done && madvise(in->data + *done, upto - *done,
				    MADV_DONTNEED) == 0)
		*done = upto;
}

/*
 * The pre-pass over a table, from its "*TABLE" line to its COMMIT:
 * what a rule needs known before the table's first rule is translated
 * (xl_scan_ext(): the longest --seconds of each recent list, which a
 * streamed set declaration must carry from the start). Only the rules
 * that may say it are parsed (the lines with "recent"), by the real
 * parser, against the table's chains as declared by then, in a scratch
 * copy of the table; what it reports is thrown away (the main pass
 * reports it). A mapped input's pages are given back as they are
 * read, as the main pass does.
 */
static bool scan_wanted(const struct xl_line *l)
{
	return memmem(l->text, l->len, "recent", 6) != NULL;
}

static void scan_command(struct xlate_ctx *ctx, struct xl_table *st,
			 struct xl_line *l)
{
	struct xl_token *tok = l->tok;
	unsigned int n = l->n, skip = 2;
	struct xl_rule r = { .ctx = ctx, .table = st };
	struct xl_chain *c;

	if (n && tok[0].text[0] == '[') {	/* "[p:b] -A ..." */
		tok++;
		n--;
	}
	if (n < 2)
		return;
	if (is_opt(tok[0].text, "-N", "--new-chain")) {
		xl_chain_add(st, tok[1].text, &tok[1].loc);
		return;
	}
	if (!(is_opt(tok[0].text, "-A", "--append") ||
	      is_opt(tok[0].text, "-I", "--insert")) || !scan_wanted(l))
		return;
	c = xl_chain_find(st, tok[1].text);
	if (!c)
		c = xl_chain_external(ctx, st, tok[1].text, &tok[1].loc);
	if (!c && compat_chain_find(st->layout, tok[1].text))
		c = xl_chain_add(st, tok[1].text, &tok[1].loc);
	if (!c)
		return;
	if (is_opt(tok[0].text, "-I", "--insert") && n > 2 &&
	    tok[2].text[0] != '-' && strtoul(tok[2].text, NULL, 10) > 0)
		skip = 3;
	r.chain = c;
	r.loc = l->loc;
	xl_scan_rule(&r, tok + skip, n - skip);
}

/*
 * Whether any line from @off on may say it: one search of the rest of
 * the input in steps (a mapped input's pages given back as they are
 * read) instead of a search a line. Without one the pre-pass has
 * nothing to note.
 */
static bool scan_any(const struct xlate_ctx *ctx, const struct input_desc *in,
		     size_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t dropped = (off + page - 1) & ~(page - 1);

	while (off < in->size) {
		size_t n = in->size - off;

		/* overlapping the next step by a word's length */
		if (n > XL_DROP_STEP + 6)
			n = XL_DROP_STEP + 6;
		if (memmem(in->data + off, n, "recent", 6))
			return true;
		/* never past the input: its mapping ends there */
		off = in->size - off > XL_DROP_STEP ? off + XL_DROP_STEP :
						      in->size;
		drop_read(ctx, in, off, &dropped);
	}
	return false;
}

static void scan_table(struct xlate_ctx *ctx, struct xl_table *t,
		       const struct xl_line *start)
{
	const struct input_desc *in = start->in;
	const char *nl = memchr(in->data + start->offset, '\n',
				in->size - start->offset);
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off, dropped;
	struct xl_table st = { .layout = t->layout, .loc = t->loc };
	unsigned int errors = ctx->erq.num_errors;
	enum xl_err_kind kind = ctx->err_kind;
	struct list_head saved = LIST_HEAD_INIT(saved);
	struct xl_chain *c, *cn;
	struct xl_line *l;

	if (!nl)
		return;
	off = nl - in->data + 1;
	if (!scan_any(ctx, in, off))
		return;
	l = calloc(1, sizeof(*l));
	if (!l)
		return;
	dropped = (off + page - 1) & ~(page - 1);
	l->in = in;
	l->lineno = start->lineno;
	init_list_head(&st.chains);
	list_for_each_entry(c, &t->chains, list) {
		char *orig = c->renamed ? strndup(c->name,
						  strlen(c->name) - 1) : NULL;

		xl_chain_add(&st, orig ? orig : c->name, &c->loc);
		free(orig);
	}
	list_splice_tail_init(&ctx->erq.records, &saved);
	while (off < in->size) {
		const char *p = in->data + off, *end;
		size_t len;

		nl = memchr(p, '\n', in->size - off);
		len = nl ? (size_t)(nl - p) : in->size - off;
		drop_read(ctx, in, off, &dropped);
		l->lineno++;
		l->offset = off;
		l->text = p;
		l->len = len && p[len - 1] == '\r' ? len - 1 : len;
		l->loc = line_loc(l, 1, l->len ? l->len : 1);
		off += len + 1;
		while (p < l->text + l->len && (*p == ' ' || *p == '\t'))
			p++;
		end = l->text + l->len;
		if (p == end || *p == '#')
			continue;
		if (*p == '*' || (end - p >= 6 && !strncmp(p, "COMMIT", 6) &&
				  (end - p == 6 || p[6] == ' ' ||
				   p[6] == '\t')))
			break;
		if (*p != ':' && !scan_wanted(l) && strncmp(p, "-N", 2) &&
		    strncmp(p, "--new-chain", 11))
			continue;
		if (tokenize(ctx, l) < 0 || !l->n)
			continue;
		if (l->tok[0].text[0] == ':' && l->tok[0].text[1])
			xl_chain_add(&st, l->tok[0].text + 1, &l->tok[0].loc);
		else
			scan_command(ctx, &st, l);
		free_tokens(l);
	}
	erec_queue_free(&ctx->erq);
	list_splice_tail_init(&saved, &ctx->erq.records);
	ctx->erq.num_errors = errors;
	ctx->err_kind = kind;
	list_for_each_entry_safe(c, cn, &st.chains, list)
		chain_free_xl(c);
	line_free(l);
}

int xlate_read_save(struct xlate_ctx *ctx, const char *name, char *data)
{
	struct input_desc *in = input_add(ctx, INPUT_FILE, name, data);
	struct xl_table *cur = NULL;
	struct xl_line *l;
	unsigned int errors = ctx->erq.num_errors, line_errors;
	size_t off = 0, dropped = 0;

	l = calloc(1, sizeof(*l));
	if (!in || !l) {
		line_free(l);
		return -1;
	}
	l->in = in;
	while (off < in->size) {
		const char *nl = memchr(in->data + off, '\n', in->size - off);
		size_t len = nl ? (size_t)(nl - in->data - off) :
				  in->size - off;

		l->lineno++;
		l->offset = off;
		l->text = in->data + off;
		l->len = len;
		if (len && l->text[len - 1] == '\r')
			l->len--;
		l->loc = line_loc(l, 1, l->len ? l->len : 1);
		line_errors = ctx->erq.num_errors;
		ctx->err_kind = XL_ERR_LINE;
		read_line(ctx, &cur, l);
		status_note(ctx, line_errors);
		free_tokens(l);
		off += len + 1;
		drop_read(ctx, in, off, &dropped);
	}
	if (cur) {
		struct location loc = line_loc(l, 1, 1);

		line_error(ctx, &loc, "COMMIT expected at end of file%s", "");
	}
	status_decide(ctx, true, false);
	line_free(l);
	return ctx->erq.num_errors > errors ? -1 : 0;
}

int xlate_read_save_mapped(struct xlate_ctx *ctx, const char *name,
			   char *data, size_t size)
{
	if (ctx->mapped || data[size] != '\0')
		return -1;	/* one mapped input, NUL-terminated */
	ctx->mapped = data;
	return xlate_read_save(ctx, name, data);
}

/*
 * Chain commands iptables-translate also translates: the nft command
 * for a chain (or, without one, for the whole table when it has one).
 */
static const struct {
	const char	*shortopt;
	const char	*longopt;
	const char	*chain_verb;
	const char	*table_verb;
} xl_plain_cmds[] = {
	{ "-F", "--flush",		"flush chain",	"flush table" },
	{ "-N", "--new-chain",		"add chain",	NULL },
	{ "-X", "--delete-chain",	"delete chain",	NULL },
};

/* -F/-N/-X [CHAIN] at tok[*i]: queued; 1 if it was one, -1 on error */
static int plain_command(struct xlate_ctx *ctx, struct xl_line *l,
			 unsigned int *i, const char *table)
{
	const char *t0 = l->tok[*i].text, *chain = NULL;
	struct xl_plain_cmd *pc;
	unsigned int k;

	for (k = 0; k < sizeof(xl_plain_cmds) / sizeof(xl_plain_cmds[0]); k++)
		if (is_opt(t0, xl_plain_cmds[k].shortopt,
			   xl_plain_cmds[k].longopt))
			break;
	if (k == sizeof(xl_plain_cmds) / sizeof(xl_plain_cmds[0]))
		return 0;
	if (*i + 1 < l->n && l->tok[*i + 1].text[0] != '-')
		chain = l->tok[++*i].text;
	if (!chain && !xl_plain_cmds[k].table_verb)
		return line_error(ctx, &l->tok[*i].loc, "%s needs a chain", t0);
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return -1;
	pc->verb = chain ? xl_plain_cmds[k].chain_verb :
			   xl_plain_cmds[k].table_verb;
	pc->table = table;
	pc->chain = chain ? strdup(chain) : NULL;
	list_add_tail(&pc->list, &ctx->plain);
	return 1;
}

/*
 * One command: "-t TABLE" and "-A/-I CHAIN [N]" may appear anywhere
 * in it (as getopt allows); what is left is the rule.
 */
int xlate_read_command(struct xlate_ctx *ctx, int argc, char **argv)
{
	const char *table = "filter", *chain = NULL;
	struct xl_line *l = calloc(1, sizeof(*l));
	struct xl_token rest[XL_MAX_TOKENS];
	const struct compat_table *layout;
	struct input_desc *in;
	unsigned int i, n = 0, first = 0;
	struct location cloc;
	struct xl_table *t;
	struct xl_chain *c;
	bool insert = false, plain_at = false;
	int plain = 0;
	size_t size = 1;
	char *text;
	int ret = -1;

	if (!l)
		return -1;
	for (i = 0; i < (unsigned int)argc; i++)
		size += strlen(argv[i]) * 2 + 3;
	text = calloc(1, size);
	for (i = 0; text && i < (unsigned int)argc; i++) {
		bool q = !argv[i][0] || strpbrk(argv[i], " \t\"");
		char *p = text + strlen(text), *s;

		if (i)
			*p++ = ' ';
		if (q)
			*p++ = '"';
		for (s = argv[i]; *s; s++) {
			if (q && (*s == '"' || *s == '\\'))
				*p++ = '\\';
			*p++ = *s;
		}
		if (q)
			*p++ = '"';
		*p = '\0';
	}
	in = text ? input_add(ctx, INPUT_CMDLINE, "<cmdline>", text) : NULL;
	if (!in)
		goto out;
	l->in = in;
	l->lineno = 1;
	l->text = in->data;
	l->len = in->size;
	l->loc = line_loc(l, 1, l->len ? l->len : 1);
	if (tokenize(ctx, l) < 0)
		goto out;
	if (l->n && (strstr(l->tok[0].text, "tables") ||
		     l->tok[0].text[0] != '-'))
		first = 1;
	for (i = first; i < l->n; i++) {
		const char *t0 = l->tok[i].text;

		if ((is_opt(t0, "-t", "--table")) && i + 1 < l->n) {
			table = l->tok[++i].text;
		} else if (!plain_at && !chain &&
			   (plain = plain_command(ctx, l, &i, NULL)) != 0) {
			if (plain < 0)
				goto out;
			plain_at = true;
		} else if ((is_opt(t0, "-A", "--append") ||
			    is_opt(t0, "-I", "--insert")) && i + 1 < l->n) {
			insert = t0[1] == 'I' || t0[2] == 'i';
			chain = l->tok[++i].text;
			cloc = l->tok[i].loc;
			if (insert && i + 1 < l->n &&
			    strtoul(l->tok[i + 1].text, NULL, 10) == 1)
				i++;
		} else {
			rest[n++] = l->tok[i];
		}
	}
	if (!chain && !plain_at) {
		line_error(ctx, &l->loc, "only -A, -I, -F, -N and -X commands "
			   "are translated%s", "");
		goto out;
	}
	layout = compat_table_find(ctx->family, table);
	if (!layout) {
		line_error(ctx, &l->loc, "unknown table `%s'", table);
		goto out;
	}
	ctx->cmd_mode = true;
	if (plain_at) {
		struct xl_plain_cmd *pc = list_last_entry(&ctx->plain,
							  struct xl_plain_cmd,
							  list);

		pc->table = layout->name;
		ret = n ? line_error(ctx, &rest[0].loc, "unexpected `%s'",
				     rest[0].text) : 0;
		goto out;
	}
	t = table_get(ctx, layout, &l->loc);
	c = t ? xl_chain_add(t, chain, &cloc) : NULL;
	if (!c)
		goto out;
	ctx->cmd_mode = true;
	ret = read_rule(ctx, t, c, rest, n, &l->loc, insert);
	ctx->cmd_insert = insert;
out:
	free_tokens(l);
	line_free(l);
	return ret;
}

struct xlate_ctx *xlate_ctx_alloc(uint8_t family, unsigned int flags)
{
	struct xlate_ctx *ctx = calloc(1, sizeof(*ctx));
	char err[256];

	if (!ctx)
		return NULL;
	ctx->family = family;
	ctx->flags = flags;
	erec_queue_init(&ctx->erq, ~0u);
	init_list_head(&ctx->tables);
	init_list_head(&ctx->sets);
	init_list_head(&ctx->recent_hints);
	init_list_head(&ctx->plain);
	init_list_head(&ctx->ipsets);
	if (xl_xt_init(family, err, sizeof(err)) < 0) {
		erec_error(&ctx->erq, &internal_location, "%s", err);
	}
	return ctx;
}

static void chain_free_xl(struct xl_chain *c)
{
	struct xl_rule_ent *e, *n;

	list_for_each_entry_safe(e, n, &c->rules, list) {
		list_del(&e->list);
		rule_free(e->rule);
		free(e);
	}
	xl_chain_text_free(c);
	free(c->name);
	free(c);
}

void xlate_ctx_free(struct xlate_ctx *ctx)
{
	struct xl_recent_hint *h, *hn;
	struct xl_set_decl *s, *sn;
	struct xl_plain_cmd *pc, *pn;
	struct input_desc *in, *next;
	struct xl_table *t, *tn;
	struct xl_chain *c, *cn;

	if (!ctx)
		return;
	xl_out_free(ctx);
	xl_memo_free(ctx);
	list_for_each_entry_safe(t, tn, &ctx->tables, list) {
		list_for_each_entry_safe(c, cn, &t->chains, list)
			chain_free_xl(c);
		free(t);
	}
	list_for_each_entry_safe(s, sn, &ctx->sets, list) {
		set_free(s->set);
		free(s);
	}
	list_for_each_entry_safe(h, hn, &ctx->recent_hints, list)
		free(h);
	list_for_each_entry_safe(pc, pn, &ctx->plain, list) {
		free(pc->chain);
		free(pc);
	}
	xl_ipsets_free(ctx);
	xl_xt_spares_free();
	erec_queue_free(&ctx->erq);
	for (in = ctx->inputs; in; in = next) {
		next = in->next;
		free(in->name);
		if (in->data != ctx->mapped)
			free(in->data);
		free(in);
	}
	free(ctx);
}

const struct erec_queue *xlate_errors(const struct xlate_ctx *ctx)
{
	return &ctx->erq;
}

const struct xlate_stats *xlate_stats(const struct xlate_ctx *ctx)
{
	return &ctx->stats;
}
