// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * notrack: keep a packet out of connection tracking.  It only acts before
 * conntrack has seen the packet (no entry yet); the result records it and
 * the packet's ct state becomes "untracked" for the rules after it.
 */
#include "nftvm_int.h"

static int vm_notrack_init(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			   const struct nlattr * const *tb)
{
	return 0;
}

static void vm_notrack_eval(struct nftvm_expr *expr, struct nftvm_regs *regs,
			    const struct nftvm_pktinfo *pkt)
{
	if (nftvm_pkt_has_ct(pkt))
		return;
	pkt->res->notrack = true;
	pkt->res->meta.ct_state = NFTVM_CT_UNTRACKED;
}

static void vm_notrack_dump(struct nftvm_nlbuf *b,
			    const struct nftvm_expr *expr)
{
}

const struct nftvm_expr_ops nftvm_notrack_ops = {
	.name		= "notrack",
	.size		= 0,
	.maxattr	= 0,
	.policy		= NULL,
	.init		= vm_notrack_init,
	.eval		= vm_notrack_eval,
	.dump		= vm_notrack_dump,
};
