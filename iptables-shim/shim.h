/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_SHIM_H
#define SHIM_SHIM_H

/*
 * iptables drop-ins: one binary, dispatched on the name it is called
 * by (iptables-restore-nft, ip6tables-save-nft, ...). Each entry point
 * is a main(): it parses its options, prints its diagnostics and
 * returns iptables' exit status.
 */

#include <stdint.h>
#include <stdio.h>

struct delin_xt;

int shim_restore_main(uint8_t family, int argc, char **argv);
int shim_save_main(uint8_t family, int argc, char **argv);

/* The whole of @in (NUL terminated, malloc'ed), NULL on ENOMEM. */
char *shim_read_all(FILE *in);

/* xt.c: libxtables for @family (once per process); 0 or -1. */
int shim_xt_init(uint8_t family);
/* A delin_ctx xt hook: COMPAT_XT_MARK + iptables text, or NULL. */
char *shim_xt_save(void *priv, const struct delin_xt *xt);

/**
 * struct shim_ruleset - the kernel's ruleset of one family, for save
 * @rs: decompiled (xt-compat expressions through shim_xt_save)
 * @ctrs: base chain counters (the IR has none), @nctrs rows
 */
struct shim_chain_ctr {
	char		*table;
	char		*chain;
	uint64_t	packets;
	uint64_t	bytes;
};

#include "listing.h"

struct shim_ruleset {
	struct nftc_ruleset	rs;
	struct shim_chain_ctr	*ctrs;
	unsigned int		nctrs;
};

/* dump.c: 0 or a negative errno; free with shim_ruleset_free() always. */
int shim_dump(struct shim_ruleset *s, uint8_t family);
void shim_ruleset_free(struct shim_ruleset *s);
const struct shim_chain_ctr *shim_chain_ctr(const struct shim_ruleset *s,
					    const char *table,
					    const char *chain);

#endif
