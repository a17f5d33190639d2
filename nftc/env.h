/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_ENV_H
#define NFTC_ENV_H

/*
 * The short cuts that tests and benchmarks compare against the general
 * path are turned off with NAME=0 in the environment
 * (NFTKIT_RULE_MEMO, NFTKIT_ELEM_SCAN, NFTKIT_ANON_NAMES).
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool env_off(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "0");
}

#endif
