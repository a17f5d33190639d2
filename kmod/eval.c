// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packet path: parse the packet's headers once, then run it through
 * the base chains of the hook in priority order.  Each chain is one tight
 * interpreter loop over rules and their expressions, with a jump stack
 * for jump/return; goto replaces the current chain.
 */
#include "nftvm_int.h"

#define NFTVM_IPV6_MAX_EXTHDRS	16

static void nftvm_pkt_ipv4(struct nftvm_pktinfo *p)
{
	const __u8 *d = p->data;
	unsigned int ihl, totlen;

	if (p->len < 20 || (d[0] >> 4) != 4)
		return;
	ihl = (d[0] & 0x0f) * 4u;
	totlen = nftvm_get_be16(d + 2);
	if (ihl < 20 || totlen < ihl || totlen > p->len)
		return;
	/* the stack trims the buffer to the IP total length */
	p->len = totlen;
	p->l4proto = d[9];
	p->thoff = ihl;
	p->fragoff = nftvm_get_be16(d + 6) & 0x1fff;
	p->tprot_set = true;
}

static bool nftvm_ipv6_exthdr(__u8 nh)
{
	switch (nh) {
	case 0:		/* hop-by-hop options */
	case 43:	/* routing */
	case 44:	/* fragment */
	case 51:	/* authentication */
	case 59:	/* no next header */
	case 60:	/* destination options */
		return true;
	}
	return false;
}

static void nftvm_pkt_ipv6(struct nftvm_pktinfo *p)
{
	const __u8 *d = p->data;
	unsigned int off = 40, hlen, i, plen;
	__u8 nh;

	if (p->len < 40 || (d[0] >> 4) != 6)
		return;
	plen = nftvm_get_be16(d + 4);
	if (40 + plen > p->len)
		return;
	p->len = 40 + plen;
	nh = d[6];
	for (i = 0; i < NFTVM_IPV6_MAX_EXTHDRS; i++) {
		if (!nftvm_ipv6_exthdr(nh)) {
			p->l4proto = nh;
			p->thoff = off;
			p->tprot_set = true;
			return;
		}
		if (nh == 59 || off + 8 > p->len)
			return;
		if (nh == 44) {
			p->fragoff = nftvm_get_be16(d + off + 2) & 0xfff8;
			nh = d[off];
			off += 8;
			/* a later fragment: no upper layer header here */
			if (p->fragoff) {
				if (nftvm_ipv6_exthdr(nh))
					return;
				p->l4proto = nh;
				p->thoff = off;
				p->tprot_set = true;
				return;
			}
			continue;
		}
		/* AH counts 32-bit words, the others 64-bit words */
		if (nh == 51)
			hlen = (d[off + 1] + 2u) * 4u;
		else
			hlen = (d[off + 1] + 1u) * 8u;
		nh = d[off];
		off += hlen;
		if (off > p->len)
			return;
	}
}

static void nftvm_trace(struct nftvm_result *res,
			const struct nftvm_chain *chain,
			const struct nftvm_rule *rule, __u8 type, int verdict,
			const struct nftvm_chain *target)
{
	struct nftvm_trace_step *s;

	if (res->ntrace == NFTVM_TRACE_MAX) {
		res->truncated = true;
		return;
	}
	s = &res->trace[res->ntrace++];
	s->table = chain->table->name;
	s->chain = chain->name;
	s->family = chain->table->family;
	s->type = type;
	s->handle = rule ? rule->handle : 0;
	s->verdict = verdict;
	s->target = target ? target->name : NULL;
}

struct nftvm_jump {
	const struct nftvm_chain	*chain;
	const struct nftvm_list		*next;	/* rule to resume at */
};

/* Run the rules from @pos on; returns the verdict code of the rule that
 * ended the walk, or NFT_CONTINUE at the end of the chain. */
static int nftvm_run_rules(const struct nftvm_chain *chain,
			   const struct nftvm_list **pos,
			   struct nftvm_regs *regs,
			   const struct nftvm_pktinfo *pkt,
			   struct nftvm_result *res)
{
	const struct nftvm_list *p;
	struct nftvm_rule *rule;
	struct nftvm_expr *e;

	for (p = *pos; p != &chain->rules; p = p->next) {
		rule = nftvm_list_entry(p, struct nftvm_rule, list);
		regs->verdict.code = NFT_CONTINUE;
		nftvm_rule_for_each_expr(e, rule) {
			e->ops->eval(e, regs, pkt);
			if (regs->verdict.code != NFT_CONTINUE)
				break;
		}
		if (regs->verdict.code == NFT_BREAK)
			continue;
		nftvm_trace(res, chain, rule, NFT_TRACETYPE_RULE,
			    regs->verdict.code,
			    (regs->verdict.code == NFT_JUMP ||
			     regs->verdict.code == NFT_GOTO) ?
			    regs->verdict.chain : NULL);
		if (regs->verdict.code == NFT_CONTINUE)
			continue;
		*pos = p->next;
		return regs->verdict.code;
	}
	*pos = p;
	return NFT_CONTINUE;
}

static int nftvm_do_chain(struct nftvm_chain *base,
			  const struct nftvm_pktinfo *pkt,
			  struct nftvm_result *res)
{
	struct nftvm_jump stack[NFTVM_JUMP_STACK_SIZE];
	const struct nftvm_chain *chain = base;
	const struct nftvm_list *pos = base->rules.next;
	/* a register read before any write is zero, never stack garbage */
	struct nftvm_regs regs = { { 0 } };
	unsigned int sp = 0;
	int code;

	for (;;) {
		code = nftvm_run_rules(chain, &pos, &regs, pkt, res);
		switch ((__u32)code & NF_VERDICT_MASK) {
		case NF_ACCEPT:
		case NF_DROP:
		case NF_QUEUE:
		case NF_STOLEN:
			return code;
		}
		switch (code) {
		case NFT_JUMP:
			/* load-time validation bounds the depth */
			if (sp == NFTVM_JUMP_STACK_SIZE)
				return NF_DROP;
			stack[sp].chain = chain;
			stack[sp].next = pos;
			sp++;
			/* fall through */
		case NFT_GOTO:
			chain = regs.verdict.chain;
			pos = chain->rules.next;
			continue;
		case NFT_CONTINUE:
			/* fell off the end of the chain */
			if (chain != base)
				nftvm_trace(res, chain, NULL,
					    NFT_TRACETYPE_RETURN,
					    NFT_CONTINUE, NULL);
			break;
		case NFT_RETURN:
			break;
		}
		if (sp == 0)
			break;
		sp--;
		chain = stack[sp].chain;
		pos = stack[sp].next;
	}
	nftvm_trace(res, base, NULL, NFT_TRACETYPE_POLICY, (int)base->policy,
		    NULL);
	return (int)base->policy;
}

/*
 * A nat chain sees only the first packet of a connection (ct state new or
 * related): later packets follow the binding made then, and a packet
 * without conntrack is never NATed.
 */
static bool nftvm_chain_runs(const struct nftvm_chain *chain,
			     const struct nftvm_pktinfo *pkt)
{
	if (chain->type != NFTVM_CHAIN_NAT)
		return true;
	return pkt->meta->ct_state & (NFTVM_CT_NEW | NFTVM_CT_RELATED);
}

/**
 * nftvm_eval - run one packet through the base chains of a hook
 * @vm: the ruleset
 * @hook: NF_INET_* hook number
 * @family: NFPROTO_IPV4 or NFPROTO_IPV6; NFPROTO_INET picks one from the
 *	    IP version of the packet
 * @pkt: packet bytes starting at the network header
 * @meta: packet metadata (NULL: all zero)
 * @res: verdict, number of base chains run, the trace and the side
 *	 effects; @pkt's bytes are edited in place by payload writes
 *
 * Chains of ip (ip6) tables and of inet tables see the packet, ordered by
 * priority.  An accept moves on to the next base chain, anything else
 * ends the walk.
 *
 * Return: 0, or -EINVAL/-EOPNOTSUPP for a hook or family the VM cannot
 * evaluate.
 */
int nftvm_eval(struct nftvm *vm, unsigned int hook, unsigned int family,
	       struct nftvm_pkt *pkt, const struct nftvm_pktmeta *meta,
	       struct nftvm_result *res)
{
	struct nftvm_pktinfo p = {
		.data = pkt->data, .wdata = pkt->data, .len = pkt->len,
		.meta = &res->meta, .res = res, .hook = (__u8)hook,
	};
	const struct nftvm_hooklist *hl;
	unsigned int i;
	int v;

	/* the trace and log arrays are only valid up to their counts:
	 * reset the small fields, not the whole (7 KB) result */
	res->verdict = NF_ACCEPT;
	res->chains = 0;
	res->ntrace = 0;
	res->truncated = false;
	res->pkt_modified = false;
	res->notrack = false;
	res->nlog = 0;
	res->log_truncated = false;
	nftvm_memset(&res->nat, 0, sizeof(res->nat));
	nftvm_memset(&res->reject, 0, sizeof(res->reject));
	nftvm_memset(&res->dup, 0, sizeof(res->dup));
	/* meta set and ct set write into the result's copy */
	if (meta)
		res->meta = *meta;
	else
		nftvm_memset(&res->meta, 0, sizeof(res->meta));
	if (res->meta.time_ns > vm->now)
		vm->now = res->meta.time_ns;
	p.now = vm->now;
	if (hook >= NFTVM_HOOK_MAX)
		return -NFTVM_EINVAL;
	if (family == NFPROTO_INET)
		family = (pkt->len && (pkt->data[0] >> 4) == 6) ?
			 NFPROTO_IPV6 : NFPROTO_IPV4;
	if (family == NFPROTO_IPV4)
		nftvm_pkt_ipv4(&p);
	else if (family == NFPROTO_IPV6)
		nftvm_pkt_ipv6(&p);
	else
		return -NFTVM_EOPNOTSUPP;
	p.family = (__u8)family;

	hl = &vm->hooks[family][hook];
	for (i = 0; i < hl->n; i++) {
		if (!nftvm_chain_runs(hl->ents[i].chain, &p))
			continue;
		res->chains++;
		v = nftvm_do_chain(hl->ents[i].chain, &p, res);
		if (((__u32)v & NF_VERDICT_MASK) != NF_ACCEPT) {
			res->verdict = v;
			return 0;
		}
	}
	res->verdict = NF_ACCEPT;
	return 0;
}
