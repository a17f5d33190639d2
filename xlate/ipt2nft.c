// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipt2nft: translate iptables-save / ip6tables-save output, or one
 * iptables command, into an nftables ruleset.
 *
 *   ipt2nft [-6] [-c] [--counters] [--stats] [--ipsets SETS] [FILE]
 *   ipt2nft [-6] [-c] -- iptables -t nat -A POSTROUTING -j MASQUERADE
 *
 * Diagnostics go to stderr as FILE:LINE:COL: error: ... with the line
 * and a caret. Exit status: 0 when every rule was translated exactly, 1
 * when some rule was approximated or left out, 2 on a fatal error.
 */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "xlate.h"
#include "semdiff.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ipt2nft [options] [FILE]\n"
"       ipt2nft [options] -- iptables|ip6tables COMMAND...\n"
"Translate iptables-save output (stdin by default) into nftables.\n"
"\n"
"  -6, --ipv6        the input is ip6tables-save output\n"
"  -c, --commands    print \"add rule\" commands, not a ruleset\n"
"      --counters    keep the packet and byte counters of the input\n"
"      --no-counter  do not add a counter to every rule\n"
"  -s, --stats       print how many rules were translated (stderr)\n"
"      --ipsets FILE `ipset save' output: the sets -m set and -j SET use\n"
"  -q, --quiet       no warnings, errors only\n"
"      --builtin-resolver  know no device but lo (TEE --oif names one\n"
"                    that must exist when the output is loaded; by\n"
"                    default it is looked up here)\n"
"  -h, --help        this text\n");
}

static char *read_all(FILE *in)
{
	size_t len = 0, cap = 65536, n;
	char *buf = malloc(cap + 1), *nb;

	while (buf && (n = fread(buf + len, 1, cap - len, in)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

static int read_ipsets(struct xlate_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "r");
	char *data;

	if (!f) {
		fprintf(stderr, "ipt2nft: %s: %s\n", path, strerror(errno));
		return -1;
	}
	data = read_all(f);
	fclose(f);
	if (!data) {
		fprintf(stderr, "ipt2nft: out of memory\n");
		return -1;
	}
	xlate_read_ipsets(ctx, path, data);
	return 0;
}

static void print_diagnostics(const struct xlate_ctx *ctx, bool quiet)
{
	const struct erec_queue *q = xlate_errors(ctx);
	const struct error_record *e;

	list_for_each_entry(e, &q->records, list) {
		if (quiet && e->type != EREC_ERROR)
			continue;
		xlate_format_erec(stderr, e);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ipv6",	no_argument, NULL, '6' },
		{ "commands",	no_argument, NULL, 'c' },
		{ "counters",	no_argument, NULL, 'C' },
		{ "no-counter",	no_argument, NULL, 'N' },
		{ "stats",	no_argument, NULL, 's' },
		{ "quiet",	no_argument, NULL, 'q' },
		{ "help",	no_argument, NULL, 'h' },
		{ "ipsets",	required_argument, NULL, 'S' },
		{ "builtin-resolver", no_argument, NULL, 'B' },
		{ NULL },
	};
	unsigned int flags = XLATE_F_SYSTEM_IFACES;
	uint8_t family = NFPROTO_IPV4;
	bool stats = false, quiet = false, dashdash;
	const char *path = "-", *ipsets = NULL;
	const struct xlate_stats *st;
	struct xlate_ctx *ctx;
	FILE *in;
	char *data;
	int c, ret;

	if (argc > 1 && !strcmp(argv[1], "diff"))	/* semantic diff */
		return semdiff_main(argc - 1, argv + 1);
	/*
	 * Each rule's IR (~34 blocks, expressions of 144 bytes) is freed
	 * as soon as it is printed: glibc's fast bins (up to 160 bytes, not
	 * its default 128) reuse such blocks without coalescing them.
	 */
	mallopt(M_MXFAST, 160);
	while ((c = getopt_long(argc, argv, "+6csqh", opts, NULL)) != -1) {
		switch (c) {
		case '6':
			family = NFPROTO_IPV6;
			break;
		case 'c':
			flags |= XLATE_F_COMMANDS;
			break;
		case 'C':
			flags |= XLATE_F_COUNTERS;
			break;
		case 'N':
			flags |= XLATE_F_NO_COUNTER;
			break;
		case 's':
			stats = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'S':
			ipsets = optarg;
			break;
		case 'B':
			flags &= ~XLATE_F_SYSTEM_IFACES;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	dashdash = optind > 1 && !strcmp(argv[optind - 1], "--");
	if (dashdash && optind < argc && strstr(argv[optind], "ip6tables"))
		family = NFPROTO_IPV6;
	if (!dashdash)		/* each rule printed as it is read */
		flags |= XLATE_F_STREAM;
	/* rules printed from an earlier rule's text; 0: each on its own */
	if (!getenv("NFTKIT_XLATE_MEMO") ||
	    strcmp(getenv("NFTKIT_XLATE_MEMO"), "0"))
		flags |= XLATE_F_MEMO;
	ctx = xlate_ctx_alloc(family, flags);
	if (!ctx) {
		fprintf(stderr, "ipt2nft: out of memory\n");
		return 2;
	}
	if (ipsets && read_ipsets(ctx, ipsets) < 0) {
		xlate_ctx_free(ctx);
		return 2;
	}
	if (dashdash) {
		xlate_read_command(ctx, argc - optind, argv + optind);
	} else {
		if (optind + 1 < argc) {
			usage(stderr);
			return 2;
		}
		if (optind < argc)
			path = argv[optind];
		in = strcmp(path, "-") ? fopen(path, "r") : stdin;
		if (!in) {
			fprintf(stderr, "ipt2nft: %s: %s\n", path,
				strerror(errno));
			xlate_ctx_free(ctx);
			return 2;
		}
		data = read_all(in);
		if (in != stdin)
			fclose(in);
		if (!data) {
			fprintf(stderr, "ipt2nft: out of memory\n");
			return 2;
		}
		xlate_read_save(ctx, strcmp(path, "-") ? path : "<stdin>",
				data);
	}
	ret = xlate_print(ctx, stdout);
	print_diagnostics(ctx, quiet);
	st = xlate_stats(ctx);
	if (stats)
		fprintf(stderr, "ipt2nft: %u rules: %u translated, %u "
			"approximated, %u not translated\n", st->rules,
			st->translated, st->inexact, st->failed);
	if (getenv("NFTKIT_XLATE_MEMO_STATS")) {
		unsigned long h, tm, pr;

		xlate_memo_stats(ctx, &h, &tm, &pr);
		fprintf(stderr, "ipt2nft: memo: %lu hits, %lu templates, %lu "
			"probes\n", h, tm, pr);
	}
	xlate_ctx_free(ctx);
	return ret < 0 ? 2 : ret;
}
