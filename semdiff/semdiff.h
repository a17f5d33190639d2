/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SEMDIFF_SEMDIFF_H
#define SEMDIFF_SEMDIFF_H

/*
 * libsemdiff: prove that two rulesets treat every packet alike, or find
 * the packets they treat differently. Each side (an iptables-save file,
 * an nft ruleset file, `kernel`: the live ruleset of the current network
 * namespace, or an offline VM state file) is compiled or dumped to VM code (xlate, nftc) and the
 * VM code is interpreted symbolically with BDDs (see DESIGN.md).
 */

#include <stdbool.h>
#include <stdio.h>

enum semdiff_kind {
	SEMDIFF_KIND_AUTO,
	SEMDIFF_KIND_IPTABLES,
	SEMDIFF_KIND_NFT,
	SEMDIFF_KIND_KERNEL,	/* the live ruleset, whatever the name */
	SEMDIFF_KIND_STATE,	/* an `nft --offline` state file */
};

enum semdiff_view {
	SEMDIFF_VIEW_NONE,
	SEMDIFF_VIEW_DIFF,	/* chains whose rule texts differ */
	SEMDIFF_VIEW_ALL,
};

/**
 * struct semdiff_opts - what to compare and what to print
 * @kind: per side (0 old, 1 new)
 * @family: NFPROTO_IPV4/IPV6 for iptables-save input, 0 to detect
 * @max_cex: counterexamples per hook
 * @width: columns of the side-by-side view
 * @raw: also print each counterexample byte by byte ("raw" lines)
 */
struct semdiff_opts {
	enum semdiff_kind	kind[2];
	int			family;
	unsigned int		max_cex;
	enum semdiff_view	view;
	unsigned int		width;
	bool			stats;
	bool			raw;	/* counterexample bytes, for replay */
};

/*
 * Compare @old and @new; the report goes to @out, trouble to @err.
 * Returns 0 when equivalent, 1 when different, 2 on trouble (a side
 * does not load, an expression the engine does not model, ...).
 */
int semdiff_run(const char *old, const char *new,
		const struct semdiff_opts *o, FILE *out, FILE *err);

/* `ipt2nft diff [options] OLD NEW` (argv[0] is "diff"). */
int semdiff_main(int argc, char **argv);

#endif
