/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_SHIM_H
#define SHIM_SHIM_H

/*
 * iptables drop-ins: one binary, dispatched on the name it is called
 * by (iptables-restore-nft, ip6tables-save-nft, ...). Each entry point
 * is a main(): it parses its options, prints its diagnostics and
 * returns iptables' exit status.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct delin_xt;

/* iptables-nft / ip6tables-nft (cmd.c). */
int shim_cmd_main(uint8_t family, int argc, char **argv);
/*
 * save.c: @table (NULL: all) as iptables-save -c text (malloc'ed), with
 * a SHIM_SAVE_ABSENT (cmd.h) line for each base chain not in the kernel.
 */
int shim_save_text(uint8_t family, const char *table, bool counters,
		   char **text);
/*
 * restore.c: @data (consumed) with -c, as one batch; 0, -1, -2 for an
 * error in the input (printed as iptables' option errors), or -4 when
 * the kernel refuses it (printed as "@kernel_op failed (...): @kernel_obj"
 * when @kernel_op is set). With @genid, only onto that ruleset
 * generation: -EAGAIN (nothing changed, nothing printed) if the ruleset
 * changed since, else *@genid is the generation the commit made.
 */
int shim_restore_text(uint8_t family, char *data, bool noflush,
		      const char *kernel_op, const char *kernel_obj,
		      uint32_t *genid);
/* dump.c: the ruleset generation; 0 or a negative errno. */
int shim_genid(uint32_t *genid);
/* restore.c: flush and delete one chain, as one batch; 0 or -1. */
int shim_chain_delete(uint8_t family, const char *table, const char *chain);

int shim_restore_main(uint8_t family, int argc, char **argv);
int shim_save_main(uint8_t family, int argc, char **argv);

/*
 * offline.c: the offline VM (nftc/transport.h) instead of the kernel,
 * from "--offline STATEFILE" (removed from @argv) or SHIM_OFFLINE_ENV;
 * opened once, before dispatch. 0, or -1 after printing why.
 */
#define SHIM_OFFLINE_ENV	"NFTKIT_OFFLINE"
/*
 * For tests of iptables-restore-nft: the batch it would send written to
 * this file instead (nothing is read from or sent to the kernel), and
 * the fast path for common rules (restore_fast.c) turned off.
 */
#define SHIM_RESTORE_DUMP_ENV	"NFTKIT_RESTORE_DUMP"
#define SHIM_RESTORE_SLOW_ENV	"NFTKIT_RESTORE_SLOW"
struct nftc_offline;
struct nftc_ctx;
int shim_offline_setup(const char *prog, int *argc, char **argv);
/* The open state, NULL for the kernel. */
struct nftc_offline *shim_offline(void);
/* An nftc context talking to the kernel or the offline state. */
struct nftc_ctx *shim_nftc_ctx_alloc(void);
void shim_offline_close(void);

/* The whole of @in (NUL terminated, malloc'ed), NULL on ENOMEM. */
char *shim_read_all(FILE *in);

/* xt.c: libxtables for @family (once per process); 0 or -1. */
int shim_xt_init(uint8_t family);
/**
 * struct shim_xt - the xt hook's state (its delin_ctx.xt_priv): the
 * extensions looked up so far. Initialise with SHIM_XT_INIT.
 */
#define SHIM_XT_CACHE	64

struct shim_xt_ext {
	bool		target;
	char		name[32];
	uint32_t	rev;
	void		*ext;	/* struct xtables_match / xtables_target */
};

struct shim_xt {
	/* extensions looked up: libxtables asks the kernel each time */
	struct shim_xt_ext	cache[SHIM_XT_CACHE];
	unsigned int		ncache;
};

#define SHIM_XT_INIT	{ .ncache = 0 }

/* A delin_ctx xt hook: COMPAT_XT_MARK + iptables text, or NULL. */
char *shim_xt_save(void *priv, const struct delin_xt *xt);
void shim_xt_done(struct shim_xt *c);

/**
 * struct shim_ruleset - the kernel's ruleset of one family, for save
 * @rs: decompiled declarations; the rules are read chain by chain with
 *      shim_dump_rules() (xt-compat expressions through shim_xt_save)
 * @ctrs: base chain counters (the IR has none), @nctrs rows
 * @dp: the open dump; @xt: its xt hook's state
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
	struct nftc_dumper	*dp;
	struct shim_xt		xt;
};

/* dump.c: 0 or a negative errno; free with shim_ruleset_free() always. */
int shim_dump(struct shim_ruleset *s, uint8_t family);
/* The rules of @c in @t, each to @sink (which frees it). */
int shim_dump_rules(struct shim_ruleset *s, struct table *t, struct chain *c,
		    nftc_rule_sink sink, void *priv);
void shim_ruleset_free(struct shim_ruleset *s);
const struct shim_chain_ctr *shim_chain_ctr(const struct shim_ruleset *s,
					    const char *table,
					    const char *chain);

#endif
