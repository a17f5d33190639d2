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
#include <stdlib.h>
#include <string.h>
#include "nftc.h"
#include "linearize.h"
#include "describe.h"
#include "listing.h"
#include "printer.h"
#include "pipeline.h"

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
"                                (deterministic; host names are not resolved)\n",
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
	for (i = 0; i < ctx->num_include_paths; i++)
		nftc_add_include_path(n, ctx->include_paths[i]);
	return n;
}

/*
 * Files are first compiled streaming (pipeline.h): a rule is freed once
 * its VM code is in the batch. When streaming gives up (diagnostics,
 * unusual layouts, list/describe commands), the file is compiled the
 * whole-file way below, which finds and reports everything.
 */
static int compile_streaming(struct nftc_ctx *ctx, const struct cli_opts *o)
{
	struct nftc_batch *batch;
	struct nftc_ctx *sctx;
	int ret;

	if (!o->file || (ctx->debug & ~NFTC_DEBUG_NETLINK))
		return 1;
	sctx = ctx_clone_settings(ctx);
	if (!sctx)
		return 1;
	if (nftc_compile_file_streaming(sctx, o->file, stdout, &batch) < 0) {
		nftc_ctx_free(sctx);
		return 1;
	}
	ret = 0;
	if (!o->check) {
		erec_error(&ctx->erq, NULL,
			   "no kernel backend in this build: use -c to "
			   "check without committing");
		ret = -1;
	}
	nftc_batch_free(batch);
	nftc_ctx_free(sctx);
	return ret;
}

static int compile(struct nftc_ctx *ctx, const struct cli_opts *o)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct nftc_batch *batch = NULL;
	int ret;

	ret = compile_streaming(ctx, o);
	if (ret <= 0)
		return ret;
	if (o->file)
		ret = nftc_parse_file(ctx, o->file, &cmds);
	else
		ret = nftc_parse_buffer(ctx, o->cmdline, &cmds);

	if (ret == 0 && cmds_are_describe(&cmds)) {
		ret = run_describe(ctx, &cmds);
		goto out;
	}
	/* "list ...": read back from the kernel (list.c) */
	if (ret == 0 && !list_empty(&cmds) &&
	    list_first_entry(&cmds, struct cmd, list)->op == CMD_LIST) {
		struct cmd *cmd;

		list_for_each_entry(cmd, &cmds, list)
			if (cmd->op == CMD_LIST &&
			    nftc_list(ctx, cmd, o->oflags, stdout) < 0)
				ret = -1;
		goto out;
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
	if (ret == 0 && !o->check) {
		erec_error(&ctx->erq, NULL,
			   "no kernel backend in this build: use -c to "
			   "check without committing");
		ret = -1;
	}
out:
	nftc_batch_free(batch);
	cmd_list_free(&cmds);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli_opts o = { 0 };
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
		case 'n':
			o.oflags |= NFTC_OUTPUT_NUMERIC_ALL |
				    NFTC_OUTPUT_NUMERIC_SYMBOL |
				    NFTC_OUTPUT_NUMERIC_PROTO;
			break;
		case 's':
			o.oflags |= NFTC_OUTPUT_STATELESS;
			break;
		case 'a':
			o.oflags |= NFTC_OUTPUT_HANDLE;
			break;
		case 'e':
		case 'N':
			/* Output options: meaningful once listing exists. */
			break;
		default:
			usage(stderr, argv[0]);
			goto err;
		}
	}

	ctx->debug = o.debug;
	ctx->resolver = o.builtin_resolver ? &nftc_resolver_builtin :
					     &nftc_resolver_system;
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

	ret = compile(ctx, &o);
	erec_queue_format(stderr, &ctx->erq);
	free(o.cmdline);
	nftc_ctx_free(ctx);
	return ret < 0 ? NFT_EXIT_FAILURE : NFT_EXIT_SUCCESS;
err:
	free(o.cmdline);
	nftc_ctx_free(ctx);
	return NFT_EXIT_FAILURE;
}
