// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drop-ins against the offline VM (nftc/transport.h) instead of the
 * kernel: "--offline STATEFILE" anywhere on the command line (taken out
 * before the program's own option parsing sees it), or NFTKIT_OFFLINE=
 * STATEFILE in the environment for scripts that call iptables by name.
 * The state is opened once per process (and locked for its life); every
 * nftc context the drop-ins make talks to it.
 */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"
#include "nftc.h"
#include "transport.h"

static struct nftc_offline *shim_off;

static const char *offline_arg(int *argc, char **argv, int *err)
{
	const char *path = NULL;
	int i, j, drop;

	*err = 0;
	for (i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strncmp(argv[i], "--offline=", 10)) {
			path = argv[i] + 10;
			drop = 1;
		} else if (!strcmp(argv[i], "--offline")) {
			if (i + 1 >= *argc) {
				*err = -1;
				return NULL;
			}
			path = argv[i + 1];
			drop = 2;
		} else {
			continue;
		}
		for (j = i; j + drop <= *argc; j++)
			argv[j] = argv[j + drop];
		*argc -= drop;
		i--;
	}
	return path;
}

int shim_offline_setup(const char *prog, int *argc, char **argv)
{
	const char *path;
	char msg[256];
	int err;

	path = offline_arg(argc, argv, &err);
	if (err < 0) {
		fprintf(stderr, "%s: option \"--offline\" requires a state "
			"file\n", prog);
		return -1;
	}
	if (!path)
		path = getenv(SHIM_OFFLINE_ENV);
	if (!path || !*path)
		return 0;
	shim_off = nftc_offline_open(path, msg, sizeof(msg));
	if (!shim_off) {
		fprintf(stderr, "%s: %s\n", prog, msg);
		return -1;
	}
	return 0;
}

struct nftc_offline *shim_offline(void)
{
	return shim_off;
}

struct nftc_ctx *shim_nftc_ctx_alloc(void)
{
	struct nftc_ctx *nft = nftc_ctx_alloc();

	if (nft)
		nft->offline = shim_off;
	return nft;
}

void shim_offline_close(void)
{
	nftc_offline_close(shim_off);
	shim_off = NULL;
}
