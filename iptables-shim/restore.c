// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables-restore-nft / ip6tables-restore-nft: iptables-save text ->
 * xlate IR -> nftc evaluator and linearizer -> one netlink batch.
 *
 * The whole input is translated and compiled before anything is sent;
 * any error means nothing is sent, and every error is printed as
 * FILE:LINE:COL: error: ... The batch holds all the input's COMMIT
 * sections, so the file applies atomically: all of it or none. Rules
 * are streamed: each is translated, evaluated, linearized into the
 * batch and freed as it is read, so memory is the batch's, not the
 * IR's of every rule. Common rules skip all that: restore_fast.c writes
 * their messages from their words, the same bytes (on_fast()).
 *
 * Tables as iptables-nft: a table the input names is replaced (deleted
 * and created again in the same batch) unless --noflush; a table it
 * does not name is untouched. Base chains get iptables-nft's hooks,
 * types and priorities (compat/) and the policy of the input.
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/netfilter.h>
#include "shim.h"
#include "compat.h"
#include "xlate.h"
#include "nftc.h"
#include "evaluate.h"
#include "linearize.h"
#include "netlink.h"
#include "batch_edit.h"
#include "restore_fast.h"

struct restore_opts {
	bool		noflush;
	bool		counters;
	bool		chain_counters;	/* -c: base chains' too */
	bool		test;
	bool		verbose;
	const char	*table;		/* -T: only this one */
	bool		no_xt;		/* native VM code only */
	const char	*path;
	bool		cmd_style;	/* the first error as iptables' -A ... */
	const char	*kernel_op;	/* ... "RULE_APPEND" failed ... */
	const char	*kernel_obj;	/* ... : "rule in chain INPUT" */
	uint32_t	*genid;		/* only onto this generation */
};

/**
 * struct restore_ctx - one restore, streamed (xlate_stream())
 * @batch: everything so far, sent at the end if nothing failed
 * @seg: the rule being linearized, before its xt-compat edit
 * @decls: the declarations' commands (the evaluator's cache uses them)
 * @retry_native: a rule has no xt-compat form libnftnl reads back: do
 *                it all again with native VM code only
 */
struct restore_ctx {
	uint8_t			family;
	const struct restore_opts *o;
	struct nftc_ctx		*nft;
	struct nftc_batch	*batch;
	struct nftc_batch	*seg;		/* one rule's, reused */
	struct list_head	decls;
	bool			retry_native;
	unsigned int		fast;	/* rules by the fast path */
};

static void handle_init(struct handle *h, uint8_t family, const char *table,
			const char *chain)
{
	memset(h, 0, sizeof(*h));
	h->family = family;
	h->table.name = strdup(table);
	if (chain)
		h->chain.name = strdup(chain);
}

static int push(struct list_head *cmds, enum cmd_ops op, enum cmd_obj obj,
		uint8_t family, const char *table, const char *chain,
		const struct location *loc, void *data)
{
	struct handle h;
	struct cmd *cmd;

	handle_init(&h, family, table, chain);
	cmd = cmd_alloc(op, obj, &h, loc, data);
	handle_free(&h);
	if (!cmd)
		return -ENOMEM;
	list_add_tail(&cmd->list, cmds);
	return 0;
}

/* A table of the input: replaced unless --noflush; -T selects one. */
static int on_table(void *priv, const char *table, const struct location *loc,
		    struct list_head *cmds)
{
	struct restore_ctx *r = priv;

	if (r->o->table && strcmp(r->o->table, table))
		return 1;
	if (!r->o->noflush && table_cache_find(r->nft, r->family, table) &&
	    push(cmds, CMD_DELETE, CMD_OBJ_TABLE, r->family, table, NULL, loc,
		 NULL) < 0)
		return -ENOMEM;
	return push(cmds, CMD_ADD, CMD_OBJ_TABLE, r->family, table, NULL, loc,
		    table_alloc());
}

static struct chain *chain_decl(struct restore_ctx *r,
				const struct xlate_chain_info *ci)
{
	const struct compat_chain *cc = NULL;
	struct chain *ch = chain_alloc();
	char prio[16];

	if (!ch)
		return NULL;
	handle_init(&ch->handle, r->family, ci->table, ci->name);
	ch->location = *ci->loc;
	if (ci->base)
		cc = compat_chain_find(compat_table_find(r->family, ci->table),
				       ci->name);
	if (!cc)
		return ch;
	ch->is_base = true;
	ch->type.name = strdup(cc->type);
	ch->hook_name.name = strdup(cc->hook_name);
	snprintf(prio, sizeof(prio), "%d", cc->prio);
	ch->priority = symbol_expr_alloc(ci->loc, SYMBOL_VALUE, prio);
	ch->policy = symbol_expr_alloc(ci->loc, SYMBOL_VALUE,
				       ci->policy == NF_DROP ? "drop" :
							       "accept");
	/* -c: the base chain's counters too, as iptables-nft-restore */
	if (r->o->chain_counters) {
		ch->has_counters = true;
		ch->packets = ci->packets;
		ch->bytes = ci->bytes;
	}
	return ch;
}

/*
 * A chain of the input. With --noflush a user chain that exists is
 * flushed, as iptables-restore -n does with a declared user chain (a
 * built-in one only gets its policy).
 */
static int on_chain(void *priv, const struct xlate_chain_info *ci,
		    struct list_head *cmds)
{
	struct restore_ctx *r = priv;
	struct table *t = table_cache_find(r->nft, r->family, ci->table);
	struct chain *ch = chain_decl(r, ci);
	int ret;

	if (!ch)
		return -ENOMEM;
	ret = push(cmds, CMD_ADD, CMD_OBJ_CHAIN, r->family, ci->table,
		   ci->name, ci->loc, ch);
	if (ret == 0 && r->o->noflush && !ci->base && t &&
	    chain_cache_find(t, ci->name))
		ret = push(cmds, CMD_FLUSH, CMD_OBJ_CHAIN, r->family,
			   ci->table, ci->name, ci->loc, NULL);
	return ret;
}


#define RESTORE_KERNEL_PREFIX	"Could not process rule: "
#define RESTORE_RETRY_NATIVE	2
#define RESTORE_CMD_USAGE	3
#define RESTORE_CMD_KERNEL	4
#define RESTORE_PARAM_PROBLEM	5	/* exit status 2, as iptables' */
#define RESTORE_KERNEL_REFUSED	6	/* exit status 4 (resource problem) */
#define RESTORE_RESTART		7	/* o->genid is not the ruleset's */

/*
 * The first error as the iptables command prints it: an option error
 * (RESTORE_CMD_USAGE), or what the kernel refused (RESTORE_CMD_KERNEL).
 */
static int print_cmd_style(uint8_t family, const struct restore_opts *o,
			   const struct erec_queue *q)
{
	const size_t kp = strlen(RESTORE_KERNEL_PREFIX);
	const struct error_record *e;
	const char *prog = compat_prog_name(family);

	list_for_each_entry(e, &q->records, list) {
		if (e->type != EREC_ERROR)
			continue;
		if (o->kernel_op && !strncmp(e->msg, RESTORE_KERNEL_PREFIX,
					     kp)) {
			fprintf(stderr, "%s v1.8.9 (nf_tables):  %s failed "
				"(%s): %s\n", prog, o->kernel_op, e->msg + kp,
				o->kernel_obj);
			return RESTORE_CMD_KERNEL;
		}
		/* iptables prints this one without its prefix */
		if (strncmp(e->msg, "Bad argument", 12))
			fprintf(stderr, "%s v1.8.9 (nf_tables): ", prog);
		fprintf(stderr, "%s\n%sTry `%s -h' or '%s --help' for more "
			"information.\n", e->msg,
			strncmp(e->msg, "Couldn't load", 13) ? "" : "\n", prog,
			prog);
		return RESTORE_CMD_USAGE;
	}
	return RESTORE_CMD_USAGE;
}

static unsigned int print_erq(const struct erec_queue *q, bool warnings)
{
	const struct error_record *e;
	unsigned int n = 0;

	list_for_each_entry(e, &q->records, list) {
		if (e->type != EREC_ERROR && !warnings)
			continue;
		xlate_format_erec(stderr, e);
		n += e->type == EREC_ERROR;
	}
	return n;
}

/* xt-compat forms of the rules, by rule ordinal (compat/xtfall.c). */
struct xt_rules {
	uint8_t			family;
	struct compat_xt_list	*v;
	unsigned int		n;
};

/* Options of the input line the IR does not keep apart. */
static const struct {
	const char	*word;
	unsigned int	flag;	/* enum compat_xt_flags */
} xt_line_hints[] = {
	{ "--ctstate",			COMPAT_XT_CONNTRACK },
	{ "--sports",			COMPAT_XT_MP_SPORTS },
	{ "--source-ports",		COMPAT_XT_MP_SPORTS },
	{ "--dports",			COMPAT_XT_MP_DPORTS },
	{ "--destination-ports",	COMPAT_XT_MP_DPORTS },
};

/*
 * What the IR lost and the rule's input line still says (the rule
 * command's location is its whole line): enum compat_xt_flags.
 */
static unsigned int xt_line_flags(const struct cmd *cmd)
{
	const struct location *loc = &cmd->location;
	unsigned int i, flags = 0;
	const char *line, *end;

	if (!loc->indesc || !loc->indesc->data ||
	    loc->line_offset >= loc->indesc->size)
		return 0;
	line = loc->indesc->data + loc->line_offset;
	end = memchr(line, '\n', loc->indesc->size - loc->line_offset);
	if (!end)
		end = loc->indesc->data + loc->indesc->size;
	/* every hint starts with "--": look only where one does */
	for (; (line = memchr(line, '-', end - line)); line++) {
		if (line + 1 >= end || line[1] != '-')
			continue;
		for (i = 0; i < sizeof(xt_line_hints) /
				sizeof(xt_line_hints[0]); i++) {
			size_t n = strlen(xt_line_hints[i].word);

			if ((size_t)(end - line) >= n &&
			    !memcmp(line, xt_line_hints[i].word, n))
				flags |= xt_line_hints[i].flag;
		}
	}
	return flags;
}

static int xt_write(void *priv, unsigned int idx, const struct nlmsghdr *src,
		    struct nlmsghdr *dst, size_t room)
{
	static const struct compat_xt_list none;
	struct xt_rules *x = priv;

	return compat_xt_write(x->family, src, dst, room,
			       idx < x->n ? &x->v[idx] : &none);
}

static bool stream_failed(const struct restore_ctx *r)
{
	return r->nft->erq.num_errors || r->retry_native;
}

/*
 * A table's declarations: evaluated and linearized straight into the
 * batch, and kept (the evaluator's cache refers to them).
 */
static int on_decls(void *priv, struct list_head *cmds)
{
	struct restore_ctx *r = priv;

	if (!r->retry_native && nftc_evaluate(r->nft, cmds) == 0 &&
	    !stream_failed(r))
		nftc_linearize(r->nft, cmds, r->batch, NULL);
	list_splice_tail_init(cmds, &r->decls);
	return 0;
}

/*
 * Linearize evaluated rule @cmd: nftc's VM code, with the statements
 * iptables-nft writes as xt-compat expressions in that form (so stock
 * iptables-nft-save reads the rule), appended to the batch. A rule
 * libnftnl cannot read back sets retry_native.
 */
static int rule_emit(struct restore_ctx *r, struct cmd *cmd,
		     struct list_head *one)
{
	struct compat_xt_list xl = { 0 };
	struct xt_rules x = { .family = r->family, .v = &xl, .n = 1 };
	struct nftc_batch *seg;
	int ret = 0;

	if (!r->o->no_xt && compat_xt_fallback(r->family, cmd->rule,
					       xt_line_flags(cmd), &xl)) {
		compat_xt_list_free(&xl);
		return -ENOMEM;
	}
	if (xl.n == 0) {
		/* nothing to edit: straight into the batch */
		compat_xt_list_free(&xl);
		nftc_linearize(r->nft, one, r->batch, NULL);
		return 0;
	}
	if (!r->seg)
		r->seg = nftc_batch_segment_alloc();
	seg = r->seg;
	if (!seg) {
		ret = -ENOMEM;
		goto out;
	}
	if (nftc_linearize(r->nft, one, seg, NULL) < 0)
		goto out;	/* errors queued */
	ret = nftc_batch_rewrite_rules(seg, r->batch, xt_write, &x);
	if (ret < 0) {
		if (r->o->verbose)
			fprintf(stderr, "%s-restore: no xt-compat form (%s): "
				"native VM code only\n",
				compat_prog_name(r->family), strerror(-ret));
		r->retry_native = true;
		ret = 0;
	}
out:
	compat_xt_list_free(&xl);
	if (seg)
		nftc_batch_segment_reset(seg);
	return ret;
}

/* A rule, as it is read: evaluated (errors queued), emitted, freed. */
static int on_rule(void *priv, struct cmd *cmd)
{
	struct restore_ctx *r = priv;
	struct list_head one = LIST_HEAD_INIT(one);
	int ret = 0;

	list_add_tail(&cmd->list, &one);
	if (!r->retry_native && nftc_evaluate(r->nft, &one) == 0 &&
	    !stream_failed(r))
		ret = rule_emit(r, cmd, &one);
	cmd_list_free(&one);
	return ret;
}

/*
 * A common rule straight into the batch (restore_fast.c), without the
 * IR; 0 for the others. Off with SHIM_RESTORE_SLOW_ENV.
 */
static int on_fast(void *priv, const struct xlate_fast_rule *fr)
{
	struct restore_ctx *r = priv;
	int ret;

	if (r->retry_native || stream_failed(r))
		return 0;
	ret = shim_restore_fast(r->batch, r->family, r->o->no_xt, fr);
	r->fast += ret > 0;
	return ret;
}

/* --noflush: chains of the kernel's the input may use undeclared. */
static bool kernel_chain(void *priv, const char *table, const char *chain)
{
	struct restore_ctx *r = priv;
	struct table *t;

	if (!r->o->noflush)
		return false;
	t = table_cache_find(r->nft, r->family, table);
	return t && chain_cache_find(t, chain);
}

static const struct xlate_cmd_ops restore_ops = {
	.table	= on_table,
	.chain	= on_chain,
	.decls	= on_decls,
	.rule	= on_rule,
};

static const struct xlate_cmd_ops restore_ops_fast = {
	.table	= on_table,
	.chain	= on_chain,
	.decls	= on_decls,
	.rule	= on_rule,
	.fast	= on_fast,
};

/*
 * Send the batch: 0, or RESTORE_KERNEL_REFUSED. Its commands are gone,
 * so the kernel's errors are located by the lines the batch recorded.
 */
static int send_batch(struct restore_ctx *r)
{
	int ret = nftc_batch_end(r->batch);

	if (ret == 0 && r->o->test)
		ret = nftc_netlink_commit(r->nft, r->batch, true, 0);
	else if (ret == 0 && r->o->genid)
		ret = nftc_netlink_send_at(r->nft, r->batch, 0, *r->o->genid);
	else if (ret == 0)
		ret = nftc_netlink_send(r->nft, r->batch, 0);
	if (ret == NFTC_NL_RESTART)
		return RESTORE_RESTART;
	if (ret == 0 && r->o->genid && nftc_batch_num_msgs(r->batch))
		*r->o->genid = *r->o->genid + 1 ? *r->o->genid + 1 : 1;
	return ret ? RESTORE_KERNEL_REFUSED : 0;
}

/*
 * SHIM_RESTORE_DUMP_ENV (tests): the finished batch's bytes into that
 * file instead of the kernel; 0, or RESTORE_KERNEL_REFUSED.
 */
static int dump_batch(struct restore_ctx *r, const char *path)
{
	FILE *f = fopen(path, "we");
	unsigned int i;
	size_t len;
	int ret = nftc_batch_end(r->batch);

	for (i = 0; f && ret == 0 && i < nftc_batch_chunks(r->batch); i++) {
		const void *p = nftc_batch_chunk(r->batch, i, &len);

		if (fwrite(p, 1, len, f) != len)
			ret = -1;
	}
	if (!f || fclose(f) != 0)
		ret = -1;
	return ret ? RESTORE_KERNEL_REFUSED : 0;
}

/* The diagnostics of both queues, merged in input order. */
static void print_errors(const struct erec_queue *a, const struct erec_queue *b,
			 bool warnings)
{
	const struct list_head *end[2] = { &a->records, &b->records };
	const struct list_head *pos[2] = { a->records.next, b->records.next };
	const struct error_record *e[2];
	unsigned int i;

	for (;;) {
		for (i = 0; i < 2; i++)
			e[i] = pos[i] == end[i] ? NULL :
			       list_entry(pos[i], struct error_record, list);
		if (!e[0] && !e[1])
			return;
		i = !e[0] || (e[1] && e[1]->loc.first_line <
				       e[0]->loc.first_line);
		pos[i] = pos[i]->next;
		if (e[i]->type == EREC_ERROR || warnings)
			xlate_format_erec(stderr, e[i]);
	}
}

/*
 * Restore @data: malloc'ed and taken over, or with @mapped, a file
 * mapping of @mapped bytes the caller unmaps (map_input()).
 */
static int restore(uint8_t family, const struct restore_opts *o, char *data,
		   size_t mapped)
{
	struct restore_ctx r = { .family = family, .o = o };
	const char *dump = getenv(SHIM_RESTORE_DUMP_ENV);
	struct xlate_ctx *x;
	int ret = -1;

	init_list_head(&r.decls);
	/* extensions as iptables-nft writes them (native: without xt) */
	x = xlate_ctx_alloc(family, (o->counters ? XLATE_F_COUNTERS : 0) |
			    (o->no_xt ? 0 : XLATE_F_XT));
	r.nft = shim_nftc_ctx_alloc();
	r.batch = nftc_batch_alloc(1);
	if (!x || !r.nft || !r.batch) {
		fprintf(stderr, "%s-restore: out of memory\n",
			compat_prog_name(family));
		if (!mapped)
			free(data);
		goto out;
	}
	r.nft->resolver = &nftc_resolver_builtin;
	r.nft->erq.max_errors = ~0u;
	/* what the kernel holds: tables to replace, chains jumped to */
	if (!dump && (!o->test || !getenv(NFTC_OFFLINE_ENV)))
		nftc_netlink_cache_seed(r.nft);
	xlate_stream(x, getenv(SHIM_RESTORE_SLOW_ENV) ? &restore_ops :
			&restore_ops_fast, &r);
	xlate_set_chain_known(x, kernel_chain, &r);
	if (mapped)
		xlate_read_save_mapped(x, o->path, data, mapped);
	else
		xlate_read_save(x, strcmp(o->path, "-") ? o->path : "<stdin>",
				data);
	if (xlate_stream_status(x) < 0) {
		fprintf(stderr, "%s-restore: out of memory\n",
			compat_prog_name(family));
		goto report;
	}
	if (xlate_errors(x)->num_errors || r.nft->erq.num_errors)
		goto report;
	if (r.retry_native) {
		ret = RESTORE_RETRY_NATIVE;
		goto out;
	}
	ret = dump ? dump_batch(&r, dump) : send_batch(&r);
	if (dump)
		fprintf(stderr, "%s-restore: %u of %u rules by the fast "
			"path\n", compat_prog_name(family), r.fast,
			xlate_stats(x)->rules);
	if (ret == RESTORE_RESTART)
		goto out;
report:
	if (o->cmd_style && (xlate_errors(x)->num_errors ||
			     r.nft->erq.num_errors)) {
		ret = print_cmd_style(family, o, xlate_errors(x)->num_errors ?
				      xlate_errors(x) : &r.nft->erq);
		goto out;
	}
	print_errors(xlate_errors(x), &r.nft->erq, o->verbose);
	if (xlate_errors(x)->num_errors && xlate_stats(x)->param_problem)
		ret = RESTORE_PARAM_PROBLEM;
	if ((ret < 0 || ret == RESTORE_KERNEL_REFUSED) &&
	    xlate_errors(x)->num_errors + r.nft->erq.num_errors == 0)
		fprintf(stderr, "%s-restore: the ruleset was not applied\n",
			compat_prog_name(family));
out:
	cmd_list_free(&r.decls);
	nftc_batch_free(r.batch);
	nftc_batch_free(r.seg);
	nftc_ctx_free(r.nft);
	xlate_ctx_free(x);
	if (ret == RESTORE_CMD_USAGE || ret == RESTORE_CMD_KERNEL ||
	    ret == RESTORE_PARAM_PROBLEM || ret == RESTORE_KERNEL_REFUSED ||
	    ret == RESTORE_RETRY_NATIVE || ret == RESTORE_RESTART)
		return ret;
	return ret < 0 ? 1 : 0;
}

/* Commands without rules, sent as they are (native VM code). */
static int commit_cmds(struct restore_ctx *r, struct list_head *cmds)
{
	struct nftc_batch *batch = nftc_batch_alloc(1);
	int ret = -1;

	if (batch && nftc_evaluate(r->nft, cmds) == 0 &&
	    !r->nft->erq.num_errors &&
	    nftc_linearize(r->nft, cmds, batch, NULL) == 0 &&
	    nftc_batch_end(batch) == 0)
		ret = nftc_netlink_send(r->nft, batch, NFTC_NL_CMDS) ? -1 : 0;
	nftc_batch_free(batch);
	return ret;
}

int shim_chain_delete(uint8_t family, const char *table, const char *chain)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct restore_opts o = { .path = "-", .no_xt = true };
	struct restore_ctx r = { .family = family, .o = &o };
	int ret = -1;

	r.nft = shim_nftc_ctx_alloc();
	if (!r.nft)
		return -1;
	r.nft->resolver = &nftc_resolver_builtin;
	nftc_netlink_cache_seed(r.nft);
	if (push(&cmds, CMD_FLUSH, CMD_OBJ_CHAIN, family, table, chain,
		 &internal_location, NULL) == 0 &&
	    push(&cmds, CMD_DELETE, CMD_OBJ_CHAIN, family, table, chain,
		 &internal_location, NULL) == 0)
		ret = commit_cmds(&r, &cmds);
	print_erq(&r.nft->erq, false);
	cmd_list_free(&cmds);
	nftc_ctx_free(r.nft);
	return ret;
}

int shim_restore_text(uint8_t family, char *data, bool noflush,
		      const char *kernel_op, const char *kernel_obj,
		      uint32_t *genid)
{
	struct restore_opts o = { .path = "-", .noflush = noflush,
				  .counters = true, .cmd_style = true,
				  .kernel_op = kernel_op,
				  .kernel_obj = kernel_obj, .genid = genid,
				  /* the offline VM runs no xt-compat */
				  .no_xt = shim_offline() != NULL };
	char *copy = strdup(data);
	int ret;

	ret = restore(family, &o, data, 0);
	if (ret == RESTORE_RETRY_NATIVE && copy) {
		o.no_xt = true;
		ret = restore(family, &o, copy, 0);
		copy = NULL;
	}
	free(copy);
	return ret == 0 ? 0 : ret == RESTORE_CMD_USAGE ? -2 :
	       ret == RESTORE_CMD_KERNEL ? -4 :
	       ret == RESTORE_RESTART ? -EAGAIN : -1;
}

/* iptables' exit statuses: PARAMETER_PROBLEM, RESOURCE_PROBLEM */
static int exit_status(int ret)
{
	if (ret == RESTORE_PARAM_PROBLEM)
		return 2;
	if (ret == RESTORE_KERNEL_REFUSED)
		return 4;
	return ret == RESTORE_RETRY_NATIVE ? 1 : ret;
}

/*
 * A regular file mapped read-only, *size its length: NULL when it is
 * not one, is empty, or fills its last page (no NUL after it), and
 * then it is read as a stream is. The mapping is one byte longer than
 * the file (the NUL of the last page's padding).
 */
static char *map_input(const char *path, size_t *size)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	void *p;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = MAP_FAILED;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    page > 0 && st.st_size % page != 0)
		p = mmap(NULL, st.st_size + 1, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	return p;
}

/*
 * A mapped file cut short while it is read (a configuration tool
 * rewriting it) raises SIGBUS at the first page past its new end: say
 * so and stop, as a read error would, instead of dying of the signal.
 * Tables committed before that point stay, as with any reader.
 */
static const char *mapped_path;

static void mapped_truncated(int sig)
{
	static const char what[] = ": the file was cut short while being "
				   "read\n";

	ssize_t n;

	(void)sig;
	n = write(STDERR_FILENO, mapped_path, strlen(mapped_path));
	if (n >= 0)
		n = write(STDERR_FILENO, what, sizeof(what) - 1);
	(void)n;
	_exit(1);
}

static int restore_mapped(uint8_t family, struct restore_opts *o,
			  char *data, size_t mapped)
{
	struct sigaction sa = { .sa_handler = mapped_truncated }, old;
	int ret;

	mapped_path = o->path;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	ret = restore(family, o, data, mapped);
	if (ret == RESTORE_RETRY_NATIVE) {
		o->no_xt = true;
		ret = restore(family, o, data, mapped);
	}
	sigaction(SIGBUS, &old, NULL);
	return ret;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
"Usage: %s [-c] [-v] [-V] [-t] [-h] [-n] [-w secs] [-W usecs] [-T table] [-M command] [file]\n"
"	   [ --counters ]\n"
"	   [ --verbose ]\n"
"	   [ --version]\n"
"	   [ --test ]\n"
"	   [ --help ]\n"
"	   [ --noflush ]\n"
"	   [ --wait=<seconds>\n"
"	   [ --wait-interval=<usecs>\n"
"	   [ --table=<TABLE> ]\n"
"	   [ --modprobe=<command> ]\n", prog);
}

int shim_restore_main(uint8_t family, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "counters",	no_argument,		NULL, 'c' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "version",	no_argument,		NULL, 'V' },
		{ "test",	no_argument,		NULL, 't' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "noflush",	no_argument,		NULL, 'n' },
		{ "wait",	optional_argument,	NULL, 'w' },
		{ "wait-interval", required_argument,	NULL, 'W' },
		{ "table",	required_argument,	NULL, 'T' },
		{ "modprobe",	required_argument,	NULL, 'M' },
		{ NULL },
	};
	struct restore_opts o = { .path = "-",
				  .no_xt = shim_offline() != NULL };
	FILE *in = stdin;
	char *data, *copy;
	size_t mapped;
	int c, ret;

	while ((c = getopt_long(argc, argv, "cvVthnw::W:T:M:", opts,
				NULL)) != -1) {
		switch (c) {
		case 'c': o.counters = o.chain_counters = true; break;
		case 'v': o.verbose = true; break;
		case 't': o.test = true; break;
		case 'n': o.noflush = true; break;
		case 'T': o.table = optarg; break;
		case 'w': case 'W': case 'M':
			break;	/* nf_tables needs no lock, no modprobe */
		case 'V':
			printf("%s-restore v1.8.9 (nftkit)\n",
			       compat_prog_name(family));
			return 0;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 1;
		}
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "Unknown arguments found on commandline\n");
		return 1;
	}
	if (optind < argc && strcmp(argv[optind], "-") &&
	    (data = map_input(argv[optind], &mapped))) {
		o.path = argv[optind];
		ret = restore_mapped(family, &o, data, mapped);
		munmap(data, mapped + 1);
		return exit_status(ret);
	}
	if (optind < argc && strcmp(argv[optind], "-")) {
		o.path = argv[optind];
		in = fopen(o.path, "re");
		if (!in) {
			fprintf(stderr, "Can't open %s: %s\n", o.path,
				strerror(errno));
			return 1;
		}
	}
	data = shim_read_all(in);
	if (in != stdin)
		fclose(in);
	if (!data) {
		fprintf(stderr, "%s-restore: out of memory\n",
			compat_prog_name(family));
		return 1;
	}
	/* a second go needs the input again: a file is read again */
	copy = in == stdin ? strdup(data) : NULL;
	ret = restore(family, &o, data, 0);
	if (ret == RESTORE_RETRY_NATIVE && !copy && in != stdin &&
	    (in = fopen(o.path, "re"))) {
		copy = shim_read_all(in);
		fclose(in);
	}
	if (ret == RESTORE_RETRY_NATIVE && copy) {
		o.no_xt = true;
		ret = restore(family, &o, copy, 0);
		copy = NULL;
	}
	free(copy);
	return exit_status(ret);
}
