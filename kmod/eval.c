// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packet path: parse the packet's headers once, then run it through
 * the base chains of the hook in priority order.  Each chain is one tight
 * interpreter loop over rules and their expressions, with a jump stack
 * for jump/return; goto replaces the current chain.
 */
#include "nftvm_int.h"

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
	/* the base chain's counters count the packets its policy takes */
	if (base->has_stats) {
		base->stats[0]++;
		base->stats[1] += pkt->len;
	}
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

/* the device a netdev-style chain (netdev, inet ingress) is hooked on */
static bool nftvm_chain_on_dev(const struct nftvm_chain *c, const char *dev)
{
	unsigned int i;

	for (i = 0; i < c->ndevs; i++)
		if (!nftvm_memcmp(c->devs[i], dev,
				  nftvm_strnlen(dev, NFTVM_IFNAMSIZ - 1) + 1))
			return true;
	return false;
}

/**
 * struct nftvm_walk - the base chains one hook runs, in priority order
 * @hl:		up to two sorted lists merged by priority: a device's
 *		ingress runs netdev and inet ingress chains together
 * @fam:	the family each list's chains see (meta nfproto)
 * @dev:	only chains hooked on this device run (NULL: all)
 */
struct nftvm_walk {
	const struct nftvm_hooklist	*hl[2];
	__u8				fam[2];
	unsigned int			n;
	const char			*dev;
};

static void nftvm_walk_add(struct nftvm_walk *w, const struct nftvm *vm,
			   unsigned int family, unsigned int hook)
{
	w->hl[w->n] = &vm->hooks[family][hook];
	w->fam[w->n] = (__u8)family;
	w->n++;
}

/* Which lists a packet of @family at @hook walks (@p parsed). */
static void nftvm_walk_init(struct nftvm_walk *w, const struct nftvm *vm,
			    unsigned int family, unsigned int hook,
			    const struct nftvm_pktinfo *p)
{
	w->n = 0;
	w->dev = NULL;
	nftvm_walk_add(w, vm, family, hook);
	if (family != NFPROTO_NETDEV)
		return;
	if (hook == NF_NETDEV_INGRESS) {
		w->dev = p->meta->iifname;
		/* inet ingress chains see IPv4 and IPv6 only, as such */
		if (p->protocol == nftvm_htons(0x0800))
			nftvm_walk_add(w, vm, NFPROTO_IPV4, NF_INET_INGRESS);
		else if (p->protocol == nftvm_htons(0x86dd))
			nftvm_walk_add(w, vm, NFPROTO_IPV6, NF_INET_INGRESS);
	} else {
		w->dev = p->meta->oifname;
	}
}

/* The next chain of the merged lists; @pos[] are the list positions. */
static const struct nftvm_hookent *nftvm_walk_next(const struct nftvm_walk *w,
						   unsigned int *pos,
						   unsigned int *which)
{
	const struct nftvm_hookent *best = NULL, *e;
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		if (pos[i] >= w->hl[i]->n)
			continue;
		e = &w->hl[i]->ents[pos[i]];
		if (!best || e->prio < best->prio ||
		    (e->prio == best->prio && e->seq < best->seq)) {
			best = e;
			*which = i;
		}
	}
	if (best)
		pos[*which]++;
	return best;
}

/**
 * nftvm_eval - run one packet through the base chains of a hook
 * @vm: the ruleset
 * @hook: the hook number of @family: NF_INET_* for ip, ip6, inet and
 *	  bridge (NF_BR_* has the same values), NF_NETDEV_INGRESS/EGRESS,
 *	  NF_ARP_IN/OUT/FORWARD
 * @family: NFPROTO_IPV4 or NFPROTO_IPV6; NFPROTO_INET picks one from the
 *	    IP version of the packet; NFPROTO_ARP, NFPROTO_BRIDGE,
 *	    NFPROTO_NETDEV
 * @pkt: packet bytes: from the network header for ip, ip6 and inet,
 *	 from the ARP header for arp, from the Ethernet header (an 802.1Q
 *	 tag may follow the addresses) for bridge and netdev
 * @meta: packet metadata (NULL: all zero)
 * @res: verdict, number of base chains run, the trace and the side
 *	 effects; @pkt's bytes are edited in place by payload writes
 *
 * Chains of ip (ip6) tables and of inet tables see the packet, ordered by
 * priority.  An accept moves on to the next base chain, anything else
 * ends the walk.  A netdev ingress (egress) runs the chains hooked on the
 * input (output) interface's name, and at ingress the inet tables'
 * ingress chains too for IPv4 and IPv6, merged by priority.
 *
 * Return: 0, or -EINVAL/-EOPNOTSUPP for a hook, family or frame the VM
 * cannot evaluate.
 */
int nftvm_eval(struct nftvm *vm, unsigned int hook, unsigned int family,
	       struct nftvm_pkt *pkt, const struct nftvm_pktmeta *meta,
	       struct nftvm_result *res)
{
	struct nftvm_pktinfo p = {
		.data = pkt->data, .wdata = pkt->data, .len = pkt->len,
		.meta = &res->meta, .res = res, .hook = (__u8)hook,
	};
	const struct nftvm_hookent *e;
	unsigned int pos[2] = { 0, 0 }, which = 0;
	struct nftvm_walk w;
	int v, err;

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
	if (res->meta.time_ns > vm->now) {
		vm->now = res->meta.time_ns;
		nftvm_gc(vm);
	}
	p.now = vm->now;
	if (hook >= NFTVM_HOOK_MAX)
		return -NFTVM_EINVAL;
	if (family == NFPROTO_INET)
		family = (pkt->len && (pkt->data[0] >> 4) == 6) ?
			 NFPROTO_IPV6 : NFPROTO_IPV4;
	err = nftvm_pkt_parse(&p, family);
	if (err < 0)
		return err;

	nftvm_walk_init(&w, vm, family, hook, &p);
	while ((e = nftvm_walk_next(&w, pos, &which))) {
		if (w.dev && !nftvm_chain_on_dev(e->chain, w.dev))
			continue;
		if (!nftvm_chain_runs(e->chain, &p))
			continue;
		p.family = w.fam[which];
		/* an inet ingress chain drops what has no valid IP header
		 * (nft_do_chain_inet_ingress()) */
		if (p.family != family && !p.tprot_set) {
			res->verdict = NF_DROP;
			return 0;
		}
		res->chains++;
		v = nftvm_do_chain(e->chain, &p, res);
		if (((__u32)v & NF_VERDICT_MASK) != NF_ACCEPT) {
			res->verdict = v;
			return 0;
		}
	}
	res->verdict = NF_ACCEPT;
	return 0;
}
