/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_RESTORE_FAST_H
#define SHIM_RESTORE_FAST_H

#include <stdbool.h>
#include <stdint.h>

struct nftc_batch;
struct xlate_fast_rule;

/*
 * restore_fast.c: rule @fr written into @batch as the IR path would
 * (@no_xt: only when it needs no xt-compat expression): 1, or 0 when
 * it is not one of the rules taken (the IR path's then), <0 on error.
 */
int shim_restore_fast(struct nftc_batch *batch, uint8_t family, bool no_xt,
		      const struct xlate_fast_rule *fr);

#endif
