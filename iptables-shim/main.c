// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drop-ins' single binary: what it does is the name it is called
 * by (a table of names), as xtables-nft-multi does; "xtables-nftkit
 * NAME ARGS" works too. "--offline STATEFILE" (or NFTKIT_OFFLINE) is
 * taken out here for all of them (offline.c).
 */
#include <config.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "shim.h"

static const struct {
	const char	*name;
	uint8_t		family;
	int		(*main)(uint8_t family, int argc, char **argv);
} shim_progs[] = {
	{ "iptables-restore-nft",	NFPROTO_IPV4, shim_restore_main },
	{ "ip6tables-restore-nft",	NFPROTO_IPV6, shim_restore_main },
	{ "iptables-restore",		NFPROTO_IPV4, shim_restore_main },
	{ "ip6tables-restore",		NFPROTO_IPV6, shim_restore_main },
	{ "iptables-save-nft",		NFPROTO_IPV4, shim_save_main },
	{ "ip6tables-save-nft",		NFPROTO_IPV6, shim_save_main },
	{ "iptables-save",		NFPROTO_IPV4, shim_save_main },
	{ "iptables-nft",		NFPROTO_IPV4, shim_cmd_main },
	{ "ip6tables-nft",		NFPROTO_IPV6, shim_cmd_main },
	{ "ip6tables-save",		NFPROTO_IPV6, shim_save_main },
};

char *shim_read_all(FILE *in)
{
	size_t len = 0, cap = 65536, n;
	char *buf = malloc(cap + 1), *nb;

	while (buf && (n = fread(buf + len, 1, cap - len, in)) > 0) {
		len += n;
		if (len < cap)
			continue;
		cap *= 2;
		nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			return NULL;
		}
		buf = nb;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

int main(int argc, char **argv)
{
	const char *name = basename(argv[0]);
	unsigned int i;
	int ret;

	if (!strcmp(name, "xtables-nftkit") && argc > 1) {
		argv++;
		argc--;
		name = basename(argv[0]);
	}
	for (i = 0; i < sizeof(shim_progs) / sizeof(shim_progs[0]); i++) {
		if (strcmp(shim_progs[i].name, name))
			continue;
		if (shim_offline_setup(name, &argc, argv) < 0)
			return 1;
		ret = shim_progs[i].main(shim_progs[i].family, argc, argv);
		shim_offline_close();
		return ret;
	}
	fprintf(stderr, "xtables-nftkit: unknown program `%s'; call me as "
		"one of:", name);
	for (i = 0; i < sizeof(shim_progs) / sizeof(shim_progs[0]); i++)
		fprintf(stderr, " %s", shim_progs[i].name);
	fputc('\n', stderr);
	return 1;
}
