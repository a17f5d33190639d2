// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nft: command line front end of the nftc compiler.
 *
 * Only this file prints and chooses exit codes; the library returns
 * located diagnostics.
 */
#include <config.h>
#include <getopt.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include "nftc.h"
#include "linearize.h"
#include "describe.h"
#include "listing.h"
#include "printer.h"
#include "pipeline.h"
#include "netlink.h"
#include "parser_state.h"
#include "transport.h"
#include "trace.h"
#include "anon_names.h"
#include "env.h"
#include <sys/stat.h>

enum nft_exit {
	NFT_EXIT_SUCCESS	= 0,
	NFT_EXIT_FAILURE	= 1,
	NFT_EXIT_NOMEM		= 2,
};

struct cli_opts {
	bool		check;
	const char	*file;
	unsigned int	debug;
	bool		builtin_resolver;
	char		*cmdline;
	unsigned int	oflags;	/* enum nftc_output_flags (list) */
	const char	*offline;	/* --offline STATEFILE */
};

static const struct {
	const char	*name;
	unsigned int	mask;
} debug_levels[] = {
	{ "scanner",	NFTC_DEBUG_SCANNER },
	{ "parser",	NFTC_DEBUG_PARSER },
	{ "eval",	NFTC_DEBUG_EVALUATION },
	{ "netlink",	NFTC_DEBUG_NETLINK },
	{ "mnl",	0 },
	{ "proto-ctx",	0 },
	{ "segtree",	0 },
	{ "all",	~0u },
};

enum {
	OPT_BUILTIN_RESOLVER = 0x100,
	OPT_OFFLINE,
};

static const struct option long_options[] = {
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'v' },
	{ "check",		no_argument,		NULL, 'c' },
	{ "file",		required_argument,	NULL, 'f' },
	{ "includepath",	required_argument,	NULL, 'I' },
	{ "debug",		required_argument,	NULL, 'd' },
	{ "numeric",		no_argument,		NULL, 'n' },
	{ "stateless",		no_argument,		NULL, 's' },
	{ "handle",		no_argument,		NULL, 'a' },
	{ "echo",		no_argument,		NULL, 'e' },
	{ "builtin-resolver",	no_argument,		NULL,
						OPT_BUILTIN_RESOLVER },
	{ "offline",		required_argument,	NULL, OPT_OFFLINE },
	{ NULL }
};

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
"Usage: %s [ options ] [ cmds... ]\n"
"\n"
"Options:\n"
"  -h, --help                    Show this help\n"
"  -v, --version                 Show version information\n"
"  -c, --check                   Check commands validity without actually applying the changes.\n"
"  -f, --file <filename>         Read input from <filename> ('-' for stdin)\n"
"  -I, --includepath <directory> Add <directory> to the paths searched for include files.\n"
"      --debug <level [,level...]> Specify debugging level (scanner, parser, eval, netlink, all)\n"
"      --builtin-resolver        Resolve service and protocol names from built-in tables only\n"
"                                (deterministic; host names are not resolved)\n"
"      --offline <statefile>     Apply to and list the nftkit VM kept in <statefile>\n"
"                                instead of the kernel (created on first use);\n"
"                                \"trace packet SELECTORS... [hook NAME]\" runs one\n"
"                                packet through it, \"trace pcap FILE [hook NAME]\" a\n"
"                                capture with per-rule hit counts\n",
		argv0);
}

static int parse_debug(const char *arg, unsigned int *debug)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	size_t i;
	int ret = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(debug_levels) / sizeof(debug_levels[0]);
		     i++) {
			if (!strcmp(tok, debug_levels[i].name)) {
				*debug |= debug_levels[i].mask;
				break;
			}
		}
		if (i == sizeof(debug_levels) / sizeof(debug_levels[0])) {
			fprintf(stderr, "invalid debug parameter `%s'\n", tok);
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

/* The words after the options, joined with spaces, as nft does. */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *buf;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	buf = calloc(1, len);
	if (!buf)
		return NULL;
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, argv[i]);
	}
	return buf;
}

static int run_describe(struct nftc_ctx *ctx, struct list_head *cmds)
{
	struct cmd *cmd;

	list_for_each_entry(cmd, cmds, list) {
		if (cmd->op != CMD_DESCRIBE)
			continue;
		describe_expr(stdout, cmd->expr);
	}
	return 0;
}

static bool cmds_are_describe(const struct list_head *cmds)
{
	const struct cmd *cmd;

	list_for_each_entry(cmd, cmds, list)
		if (cmd->op != CMD_DESCRIBE)
			return false;
	return !list_empty(cmds);
}

/*
 * The system resolver reads /etc/protocols, /etc/services, ... through
 * NSS (or asks the kernel for an interface index) on every call: a
 * 100,000-rule file naming "udp" and "ssh" would read them 100,000
 * times. Within one run a name means one thing, so the answers are
 * remembered (host names are not: they are few, and an answer is a
 * list of addresses).
 */
#define MEMO_MAX	64

enum memo_kind {
	MEMO_SERVICE,
	MEMO_PROTOCOL,
	MEMO_UID,
	MEMO_GID,
	MEMO_IFINDEX,
};

struct resolver_memo {
	struct nftc_resolver		r;
	const struct nftc_resolver	*inner;
	struct {
		char		*name;
		enum memo_kind	kind;
		int		ret;
		uint32_t	value;
	} e[MEMO_MAX];
	unsigned int			n;
};

static int memo_ask(const struct nftc_resolver *in, enum memo_kind kind,
		    const char *name, uint32_t *value)
{
	uint16_t v16 = 0;
	uint8_t v8 = 0;
	int ret;

	switch (kind) {
	case MEMO_SERVICE:
		ret = in->service(in->priv, name, &v16);
		*value = v16;
		return ret;
	case MEMO_PROTOCOL:
		ret = in->protocol(in->priv, name, &v8);
		*value = v8;
		return ret;
	case MEMO_UID:
		return in->uid(in->priv, name, value);
	case MEMO_GID:
		return in->gid(in->priv, name, value);
	case MEMO_IFINDEX:
		return in->ifindex(in->priv, name, value);
	}
	return -1;
}

static int memo_lookup(void *priv, enum memo_kind kind, const char *name,
		       uint32_t *value)
{
	struct resolver_memo *m = priv;
	unsigned int i;
	int ret;

	for (i = 0; i < m->n; i++) {
		if (m->e[i].kind == kind && !strcmp(m->e[i].name, name)) {
			*value = m->e[i].value;
			return m->e[i].ret;
		}
	}
	ret = memo_ask(m->inner, kind, name, value);
	if (m->n < MEMO_MAX) {
		m->e[m->n].name = strdup(name);
		if (m->e[m->n].name) {
			m->e[m->n].kind = kind;
			m->e[m->n].ret = ret;
			m->e[m->n].value = *value;
			m->n++;
		}
	}
	return ret;
}

static int memo_service(void *priv, const char *name, uint16_t *port)
{
	uint32_t v = *port;
	int ret = memo_lookup(priv, MEMO_SERVICE, name, &v);

	*port = v;
	return ret;
}

static int memo_protocol(void *priv, const char *name, uint8_t *proto)
{
	uint32_t v = *proto;
	int ret = memo_lookup(priv, MEMO_PROTOCOL, name, &v);

	*proto = v;
	return ret;
}

static int memo_uid(void *priv, const char *name, uint32_t *id)
{
	return memo_lookup(priv, MEMO_UID, name, id);
}

static int memo_gid(void *priv, const char *name, uint32_t *id)
{
	return memo_lookup(priv, MEMO_GID, name, id);
}

static int memo_ifindex(void *priv, const char *name, uint32_t *index)
{
	return memo_lookup(priv, MEMO_IFINDEX, name, index);
}

static int memo_host(void *priv, const char *name, int family,
		     uint8_t (*addrs)[16], unsigned int max)
{
	const struct nftc_resolver *in = ((struct resolver_memo *)priv)->inner;

	return in->host(in->priv, name, family, addrs, max);
}

static void resolver_memo_init(struct resolver_memo *m,
			       const struct nftc_resolver *inner)
{
	memset(m, 0, sizeof(*m));
	m->inner = inner;
	m->r.priv = m;
	m->r.service = inner->service ? memo_service : NULL;
	m->r.protocol = inner->protocol ? memo_protocol : NULL;
	m->r.host = inner->host ? memo_host : NULL;
	m->r.uid = inner->uid ? memo_uid : NULL;
	m->r.gid = inner->gid ? memo_gid : NULL;
	m->r.ifindex = inner->ifindex ? memo_ifindex : NULL;
}

static void resolver_memo_fini(struct resolver_memo *m)
{
	while (m->n)
		free(m->e[--m->n].name);
}

/* A fresh context with @ctx's settings, for a streaming attempt. */
static struct nftc_ctx *ctx_clone_settings(const struct nftc_ctx *ctx)
{
	struct nftc_ctx *n = nftc_ctx_alloc();
	unsigned int i;

	if (!n)
		return NULL;
	n->resolver = ctx->resolver;
	n->debug = ctx->debug;
	n->erq.max_errors = ctx->erq.max_errors;
	n->offline = ctx->offline;
	n->echo = ctx->echo;
	n->echo_oflags = ctx->echo_oflags;
	for (i = 0; i < ctx->num_include_paths; i++)
		nftc_add_include_path(n, ctx->include_paths[i]);
	return n;
}

/*
 * NFTKIT_BATCH_DUMP=FILE: the streamed batch's bytes into FILE before it
 * is committed, for tests that compare two ways of making it byte for
 * byte (offline/rule-memo.sh); a commit the kernel or the offline VM
 * rejects is redone the whole-file way, which would hide a difference.
 */
#define BATCH_DUMP_ENV	"NFTKIT_BATCH_DUMP"

static void batch_dump(const struct nftc_batch *b)
{
	const char *path = getenv(BATCH_DUMP_ENV);
	unsigned int i;
	const void *p;
	size_t len;
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < nftc_batch_chunks(b); i++) {
		p = nftc_batch_chunk(b, i, &len);
		if (len && fwrite(p, 1, len, f) != len)
			break;
	}
	fclose(f);
}

/*
 * Anonymous sets of a streamed batch are named as the kernel would
 * (anon_names.h), unless the text must be stock's (--debug=netlink
 * prints "__set%d"), for echoes, where -c must not ask the kernel
 * (NFTKIT_OFFLINE_CHECK), or with NFTKIT_ANON_NAMES=0 (tests and
 * benchmarks compare).
 */
static bool anon_names_wanted(const struct nftc_ctx *sctx, bool check)
{
	if ((sctx->debug & NFTC_DEBUG_NETLINK) || sctx->echo ||
	    env_off(ANON_NAMES_ENV))
		return false;
	return sctx->offline || !(check && getenv(NFTC_OFFLINE_ENV));
}

/*
 * Files are first compiled streaming (pipeline.h): a rule is freed once
 * its VM code is in the batch. When streaming gives up (diagnostics,
 * unusual layouts, list/describe commands), the file is compiled the
 * whole-file way below, which finds and reports everything.
 */
static int compile_streaming(struct nftc_ctx *ctx, const struct cli_opts *o,
			     const char *data, size_t size)
{
	struct nftc_batch *batch;
	struct nftc_ctx *sctx;
	char *copy = NULL;
	int ret;

	if (!o->file || (ctx->debug & ~NFTC_DEBUG_NETLINK))
		return 1;
	if (data) {
		copy = malloc(size + 1);
		if (!copy)
			return 1;
		memcpy(copy, data, size + 1);
	}
	sctx = ctx_clone_settings(ctx);
	if (!sctx) {
		free(copy);
		return 1;
	}
	/* offline: what the VM holds is known, as the kernel's would be */
	if (sctx->offline)
		nftc_netlink_cache_seed(sctx);
	if (anon_names_wanted(sctx, o->check))
		sctx->anon_names = anon_names_new(sctx->offline);
	if (nftc_compile_file_streaming(sctx, o->file, copy, size, stdout,
					&batch) < 0) {
		nftc_ctx_free(sctx);
		return 1;
	}
	/*
	 * Kernel backend (netlink.h). A rejection is reported the
	 * whole-file way, which keeps the commands for precise locations,
	 * unless the debug text is out already. Diagnostics point into
	 * sctx's inputs: print them before it goes.
	 */
	batch_dump(batch);
	if (sctx->echo)
		nftc_batch_set_echo(batch);
	ret = nftc_netlink_commit(sctx, batch, o->check,
				  ctx->debug & NFTC_DEBUG_NETLINK ? 0 :
				  NFTC_NL_IMPRECISE_OK);
	erec_queue_format(stderr, &sctx->erq);
	nftc_batch_free(batch);
	nftc_ctx_free(sctx);
	return ret;
}

/* A pipe (-f -) can be read once: read it here for both attempts. */
static char *read_unless_regular(const char *path, size_t *size)
{
	struct stat st;

	if (!path || (stat(path, &st) == 0 && S_ISREG(st.st_mode)))
		return NULL;
	return parser_read_file(path, size);
}

static int compile(struct nftc_ctx *ctx, const struct cli_opts *o)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct nftc_batch *batch = NULL;
	size_t size = 0;
	char *data;
	int ret;

	data = read_unless_regular(o->file, &size);
	ret = compile_streaming(ctx, o, data, size);
	if (ret <= 0) {
		free(data);
		return ret;
	}
	if (o->file)
		ret = nftc_parse_file_pipe(ctx, o->file, data, size, &cmds,
					   NULL);
	else
		ret = nftc_parse_buffer(ctx, o->cmdline, &cmds);

	if (ret == 0 && cmds_are_describe(&cmds)) {
		ret = run_describe(ctx, &cmds);
		goto out;
	}
	/* "list ...": read back from the kernel (list.c) */
	if (ret == 0 && !list_empty(&cmds) &&
	    (list_first_entry(&cmds, struct cmd, list)->op == CMD_LIST ||
	     list_first_entry(&cmds, struct cmd, list)->op == CMD_RESET)) {
		struct cmd *cmd;

		/* one thread: stdio's lock per call showed in big listings */
		__fsetlocking(stdout, FSETLOCKING_BYCALLER);
		/* "reset counters" lists what it zeroes (list.c) */
		list_for_each_entry(cmd, &cmds, list)
			if ((cmd->op == CMD_LIST || cmd->op == CMD_RESET) &&
			    nftc_list(ctx, cmd, o->oflags, stdout, stderr) < 0)
				ret = -1;
		goto out;
	}
	/*
	 * As stock: what the kernel (or the offline VM) holds is known
	 * before evaluating (after parse errors too: stock evaluates the
	 * commands that parsed).
	 */
	if (ctx->offline || !(o->check && getenv(NFTC_OFFLINE_ENV))) {
		/* else: on its own */
		FILE *dbg = ctx->debug & NFTC_DEBUG_NETLINK ? stdout : NULL;

		if (nftc_cmds_need_rule_cache(&cmds))
			nftc_netlink_cache_seed_rules(ctx, dbg, true);
		else if (dbg && nftc_cmds_read_rules(&cmds))
			nftc_netlink_cache_seed_rules(ctx, dbg, false);
		else
			nftc_netlink_cache_seed(ctx);
	}
	/* Evaluate even after parse errors: report everything we can. */
	if (nftc_evaluate(ctx, &cmds) < 0 || ret < 0) {
		ret = -1;
		goto out;
	}

	batch = nftc_batch_alloc(1);
	if (!batch) {
		ret = -1;
		goto out;
	}
	ret = nftc_linearize(ctx, &cmds, batch,
			     ctx->debug & NFTC_DEBUG_NETLINK ? stdout : NULL);
	if (ret == 0)
		ret = nftc_batch_end(batch);
	if (ret == 0 && ctx->echo)
		nftc_batch_set_echo(batch);
	if (ret == 0)
		ret = nftc_netlink_commit(ctx, batch, o->check, NFTC_NL_CMDS);
out:
	nftc_batch_free(batch);
	cmd_list_free(&cmds);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli_opts o = { 0 };
	struct resolver_memo memo = { 0 };
	struct nftc_ctx *ctx;
	int c, ret;

	/*
	 * The IR is many small nodes (struct expr is 144 bytes) freed once
	 * a rule is compiled: keep chunks of that size on the fast bins
	 * (the largest size glibc allows) rather than consolidating them.
	 */
	mallopt(M_MXFAST, 160);
	ctx = nftc_ctx_alloc();
	if (!ctx) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return NFT_EXIT_NOMEM;
	}

	while ((c = getopt_long(argc, argv, "+hvcf:I:nsaeN", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout, argv[0]);
			nftc_ctx_free(ctx);
			return NFT_EXIT_SUCCESS;
		case 'v':
			printf("%s v%s (nftkit)\n", "nftables", PACKAGE_VERSION);
			nftc_ctx_free(ctx);
			return NFT_EXIT_SUCCESS;
		case 'c':
			o.check = true;
			break;
		case 'f':
			/* "-" is stdin, read like any file. */
			o.file = strcmp(optarg, "-") ? optarg : "/dev/stdin";
			break;
		case 'I':
			if (nftc_add_include_path(ctx, optarg) < 0) {
				fprintf(stderr, "too many include paths\n");
				goto err;
			}
			break;
		case 'd':
			if (parse_debug(optarg, &o.debug) < 0)
				goto err;
			break;
		case OPT_BUILTIN_RESOLVER:
			o.builtin_resolver = true;
			break;
		case OPT_OFFLINE:
			o.offline = optarg;
			break;
		case 'n':
			o.oflags |= NFTC_OUTPUT_NUMERIC_ALL |
				    NFTC_OUTPUT_NUMERIC_SYMBOL |
				    NFTC_OUTPUT_NUMERIC_PROTO |
				    NFTC_OUTPUT_SECONDS;	/* stock: -n is all */
			break;
		case 's':
			o.oflags |= NFTC_OUTPUT_STATELESS;
			break;
		case 'a':
			o.oflags |= NFTC_OUTPUT_HANDLE;
			break;
		case 'e':
			/* what the kernel echoes of the batch (echo.c) */
			ctx->echo = stdout;
			break;
		case 'N':
			break;
		default:
			usage(stderr, argv[0]);
			goto err;
		}
	}

	ctx->debug = o.debug;
	ctx->echo_oflags = o.oflags;
	resolver_memo_init(&memo, o.builtin_resolver ? &nftc_resolver_builtin :
						      &nftc_resolver_system);
	ctx->resolver = &memo.r;
	if (!o.file) {
		if (optind >= argc) {
			usage(stderr, argv[0]);
			goto err;
		}
		o.cmdline = join_args(argc - optind, argv + optind);
		if (!o.cmdline)
			goto err;
	} else if (optind < argc) {
		fprintf(stderr, "Error: -f and commands are exclusive\n");
		goto err;
	}

	if (o.offline) {
		char msg[512];

		ctx->offline = nftc_offline_open(o.offline, msg, sizeof(msg));
		if (!ctx->offline) {
			fprintf(stderr, "Error: %s\n", msg);
			goto err;
		}
	}
	/* "trace packet ...": not nft language, the words are selectors */
	if (!o.file && argc - optind >= 2 && !strcmp(argv[optind], "trace") &&
	    (!strcmp(argv[optind + 1], "packet") ||
	     !strcmp(argv[optind + 1], "pcap")))
		ret = nftc_trace_packet(ctx, ctx->offline, argc - optind - 1,
					argv + optind + 1, stdout, stderr);
	else
		ret = compile(ctx, &o);
	erec_queue_format(stderr, &ctx->erq);
	nftc_offline_close(ctx->offline);
	free(o.cmdline);
	nftc_ctx_free(ctx);
	resolver_memo_fini(&memo);
	return ret < 0 ? NFT_EXIT_FAILURE : NFT_EXIT_SUCCESS;
err:
	free(o.cmdline);
	nftc_ctx_free(ctx);
	resolver_memo_fini(&memo);
	return NFT_EXIT_FAILURE;
}
