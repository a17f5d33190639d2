// SPDX-License-Identifier: GPL-2.0-or-later
/* `ipt2nft diff OLD NEW`: the command line of the semantic diff. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "semdiff.h"

static void usage(FILE *f)
{
	fputs("Usage: ipt2nft diff [options] OLD NEW\n"
	      "Prove that OLD and NEW treat every packet alike, or show\n"
	      "packets they treat differently. Each side is an iptables-save\n"
	      "file, an nft ruleset file, an `nft --offline` state file\n"
	      "(detected from the content) or `kernel`: the live ruleset of\n"
	      "the current network namespace (whatever is named kernel).\n"
	      "  --old-kind, --new-kind iptables|nft|kernel|state\n"
	      "                         force a side's kind\n"
	      "  -6, --ipv6             iptables-save input is ip6tables-save\n"
	      "  -n, --counterexamples N  per hook (default 3)\n"
	      "  --view none|diff|all   side-by-side view (default diff)\n"
	      "  --width N              columns of the left side (default 60)\n"
	      "  --stats                engine statistics on stderr\n"
	      "  --raw                  counterexample bytes, for replay\n"
	      "Exit status: 0 equivalent, 1 different, 2 trouble.\n", f);
}

static int parse_kind(const char *s, enum semdiff_kind *k)
{
	if (!strcmp(s, "iptables") || !strcmp(s, "iptables-save"))
		*k = SEMDIFF_KIND_IPTABLES;
	else if (!strcmp(s, "nft"))
		*k = SEMDIFF_KIND_NFT;
	else if (!strcmp(s, "kernel"))
		*k = SEMDIFF_KIND_KERNEL;
	else if (!strcmp(s, "state"))
		*k = SEMDIFF_KIND_STATE;
	else if (!strcmp(s, "auto"))
		*k = SEMDIFF_KIND_AUTO;
	else
		return -1;
	return 0;
}

int semdiff_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "old-kind",		required_argument, NULL, 'o' },
		{ "new-kind",		required_argument, NULL, 'N' },
		{ "ipv6",		no_argument,	   NULL, '6' },
		{ "counterexamples",	required_argument, NULL, 'n' },
		{ "view",		required_argument, NULL, 'v' },
		{ "width",		required_argument, NULL, 'w' },
		{ "stats",		no_argument,	   NULL, 's' },
		{ "raw",		no_argument,	   NULL, 'r' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL },
	};
	struct semdiff_opts o = {
		.max_cex = 3, .view = SEMDIFF_VIEW_DIFF, .width = 60,
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "6n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
		case 'N':
			if (parse_kind(optarg, &o.kind[c == 'N']) < 0)
				goto bad;
			break;
		case '6':
			o.family = NFPROTO_IPV6;
			break;
		case 'n':
			o.max_cex = strtoul(optarg, NULL, 10);
			break;
		case 'v':
			if (!strcmp(optarg, "none"))
				o.view = SEMDIFF_VIEW_NONE;
			else if (!strcmp(optarg, "diff"))
				o.view = SEMDIFF_VIEW_DIFF;
			else if (!strcmp(optarg, "all"))
				o.view = SEMDIFF_VIEW_ALL;
			else
				goto bad;
			break;
		case 'w':
			o.width = strtoul(optarg, NULL, 10);
			if (o.width < 10)
				o.width = 10;
			break;
		case 's':
			o.stats = true;
			break;
		case 'r':
			o.raw = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (argc - optind != 2)
		goto bad;
	return semdiff_run(argv[optind], argv[optind + 1], &o, stdout,
			   stderr);
bad:
	usage(stderr);
	return 2;
}
