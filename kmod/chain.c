// SPDX-License-Identifier: GPL-2.0-or-later
/* Chains: NFT_MSG_NEWCHAIN and NFT_MSG_DELCHAIN, base chain checks. */
#include "nftvm_int.h"

const struct nftvm_nla_policy nftvm_chain_policy[NFTA_CHAIN_MAX + 1] = {
	[NFTA_CHAIN_TABLE]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_CHAIN_HANDLE]	= { .type = NFTVM_NLA_U64 },
	[NFTA_CHAIN_NAME]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_CHAIN_HOOK]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_CHAIN_POLICY]	= { .type = NFTVM_NLA_U32 },
	[NFTA_CHAIN_TYPE]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_CHAIN_COUNTERS]	= { .type = NFTVM_NLA_NESTED },
	[NFTA_CHAIN_FLAGS]	= { .type = NFTVM_NLA_U32 },
	[NFTA_CHAIN_ID]		= { .type = NFTVM_NLA_U32 },
	[NFTA_CHAIN_USERDATA]	= { .type = NFTVM_NLA_BINARY,
				    .len = NFT_USERDATA_MAXLEN },
};

static const struct nftvm_nla_policy nftvm_hook_policy[NFTA_HOOK_MAX + 1] = {
	[NFTA_HOOK_HOOKNUM]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HOOK_PRIORITY]	= { .type = NFTVM_NLA_U32 },
	[NFTA_HOOK_DEV]		= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_IFNAMSIZ - 1 },
	[NFTA_HOOK_DEVS]	= { .type = NFTVM_NLA_NESTED },
};

#define H(x)	(1u << (x))
#define NFTVM_INET_HOOKS	(H(NF_INET_PRE_ROUTING) |		\
				 H(NF_INET_LOCAL_IN) |		\
				 H(NF_INET_FORWARD) |			\
				 H(NF_INET_LOCAL_OUT) |		\
				 H(NF_INET_POST_ROUTING))
#define NFTVM_NAT_HOOKS	(NFTVM_INET_HOOKS & ~H(NF_INET_FORWARD))

/**
 * struct nftvm_chain_kind - a chain type and where it may hook
 * @hooks: per family (NFPROTO_*), bitmap of allowed hooks; 0 = type not
 *	   available in that family
 */
struct nftvm_chain_kind {
	const char	*name;
	__u32		hooks[NFTVM_NFPROTO_MAX];
};

static const struct nftvm_chain_kind
nftvm_chain_types[__NFTVM_CHAIN_TYPE_MAX] = {
	[NFTVM_CHAIN_FILTER] = {
		.name = "filter",
		.hooks = {
			[NFPROTO_IPV4]	 = NFTVM_INET_HOOKS,
			[NFPROTO_IPV6]	 = NFTVM_INET_HOOKS,
			[NFPROTO_INET]	 = NFTVM_INET_HOOKS |
					   H(NF_INET_INGRESS),
			[NFPROTO_ARP]	 = H(0) | H(1) | H(2),
			[NFPROTO_BRIDGE] = NFTVM_INET_HOOKS,
			[NFPROTO_NETDEV] = H(NF_NETDEV_INGRESS) |
					   H(NF_NETDEV_EGRESS),
		},
	},
	[NFTVM_CHAIN_NAT] = {
		.name = "nat",
		.hooks = {
			[NFPROTO_IPV4]	= NFTVM_NAT_HOOKS,
			[NFPROTO_IPV6]	= NFTVM_NAT_HOOKS,
			[NFPROTO_INET]	= NFTVM_NAT_HOOKS,
		},
	},
	[NFTVM_CHAIN_ROUTE] = {
		.name = "route",
		.hooks = {
			[NFPROTO_IPV4]	= H(NF_INET_LOCAL_OUT),
			[NFPROTO_IPV6]	= H(NF_INET_LOCAL_OUT),
			[NFPROTO_INET]	= H(NF_INET_LOCAL_OUT) |
					  H(NF_INET_PRE_ROUTING),
		},
	},
};

/* NAT needs conntrack to have seen the packet first */
#define NFTVM_PRI_CONNTRACK	(-200)

static int nftvm_chain_type_lookup(const struct nlattr *attr, __u8 family)
{
	unsigned int i;

	if (family >= NFTVM_NFPROTO_MAX)
		return -NFTVM_EOPNOTSUPP;
	for (i = 0; i < __NFTVM_CHAIN_TYPE_MAX; i++)
		if (nftvm_chain_types[i].hooks[family] &&
		    (!attr || nftvm_nla_streq(attr, nftvm_chain_types[i].name)))
			return (int)i;
	return -NFTVM_ENOENT;
}

/**
 * struct nftvm_hook_spec - a parsed NFTA_CHAIN_HOOK
 * @dev, @devs: the device attributes of a netdev hook (one of them)
 */
struct nftvm_hook_spec {
	__u32			hooknum;
	__s32			prio;
	int			type;
	const struct nlattr	*dev;
	const struct nlattr	*devs;
};

#define NFTVM_NETDEVICE_MAX	256	/* NFT_NETDEVICE_MAX */

/* Hooks that attach to devices (nft_base_chain_netdev()). */
static bool nftvm_hook_netdev(__u8 family, __u32 hooknum)
{
	return family == NFPROTO_NETDEV ||
	       (family == NFPROTO_INET && hooknum == NF_INET_INGRESS);
}

/*
 * The device names of a netdev hook.  The VM has no devices: any name
 * is taken (the kernel wants the device to exist, -ENOENT).
 */
static int nftvm_chain_set_devs(struct nftvm_ctx *ctx, struct nftvm_chain *c,
				const struct nftvm_hook_spec *hs)
{
	const struct nlattr *pos;
	unsigned int n = 0, i;
	int rem;

	if (hs->dev) {
		n = 1;
	} else {
		nftvm_nla_for_each_nested(pos, hs->devs, rem) {
			if (nftvm_nla_type(pos) != NFTA_DEVICE_NAME ||
			    nftvm_nla_len(pos) < 1 ||
			    nftvm_strnlen(nftvm_nla_data(pos),
					  nftvm_nla_len(pos)) >= NFTVM_IFNAMSIZ)
				return nftvm_fail(ctx, pos, -NFTVM_EINVAL);
			if (++n == NFTVM_NETDEVICE_MAX)
				return nftvm_fail(ctx, pos, -NFTVM_EFBIG);
		}
		if (!n)
			return nftvm_fail(ctx, hs->devs, -NFTVM_EINVAL);
	}
	c->devs = nftvm_alloc(n * NFTVM_IFNAMSIZ);
	if (!c->devs)
		return -NFTVM_ENOMEM;
	if (hs->dev) {
		nftvm_memcpy(c->devs[0], nftvm_nla_data(hs->dev),
			     nftvm_strnlen(nftvm_nla_data(hs->dev),
					   nftvm_nla_len(hs->dev)));
	} else {
		i = 0;
		nftvm_nla_for_each_nested(pos, hs->devs, rem) {
			for (n = 0; n < i; n++)
				if (nftvm_nla_streq(pos, c->devs[n]))
					return nftvm_fail(ctx, pos,
							  -NFTVM_EEXIST);
			nftvm_memcpy(c->devs[i++], nftvm_nla_data(pos),
				     nftvm_strnlen(nftvm_nla_data(pos),
						   nftvm_nla_len(pos)));
		}
		n = i;
	}
	c->ndevs = n;
	return 0;
}

static int nftvm_chain_parse_hook(struct nftvm_ctx *ctx,
				  const struct nlattr **tb,
				  struct nftvm_hook_spec *hs)
{
	const struct nlattr *ha[NFTA_HOOK_MAX + 1];
	__u32 mask;
	int err;

	err = nftvm_nla_parse_nested(ctx, ha, NFTA_HOOK_MAX,
				     nftvm_hook_policy, tb[NFTA_CHAIN_HOOK]);
	if (err < 0)
		return err;
	if (!ha[NFTA_HOOK_HOOKNUM] || !ha[NFTA_HOOK_PRIORITY])
		return nftvm_fail(ctx, tb[NFTA_CHAIN_HOOK], -NFTVM_EINVAL);
	hs->hooknum = nftvm_nla_be32(ha[NFTA_HOOK_HOOKNUM]);
	hs->prio = (__s32)nftvm_nla_be32(ha[NFTA_HOOK_PRIORITY]);

	hs->type = nftvm_chain_type_lookup(tb[NFTA_CHAIN_TYPE], ctx->family);
	if (hs->type < 0)
		return nftvm_fail(ctx, tb[NFTA_CHAIN_TYPE], hs->type);
	mask = nftvm_chain_types[hs->type].hooks[ctx->family];
	if (hs->hooknum >= 32 || !(mask & H(hs->hooknum)))
		return nftvm_fail(ctx, ha[NFTA_HOOK_HOOKNUM],
				  -NFTVM_EOPNOTSUPP);
	if (hs->type == NFTVM_CHAIN_NAT && hs->prio <= NFTVM_PRI_CONNTRACK)
		return nftvm_fail(ctx, ha[NFTA_HOOK_PRIORITY],
				  -NFTVM_EOPNOTSUPP);
	hs->dev = ha[NFTA_HOOK_DEV];
	hs->devs = hs->dev ? NULL : ha[NFTA_HOOK_DEVS];
	if (nftvm_hook_netdev(ctx->family, hs->hooknum)) {
		if (!hs->dev && !hs->devs)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_HOOK],
					  -NFTVM_EINVAL);
	} else if (hs->dev || hs->devs) {
		return nftvm_fail(ctx, hs->dev ? hs->dev : hs->devs,
				  -NFTVM_EOPNOTSUPP);
	}
	return 0;
}

static int nftvm_chain_parse_policy(struct nftvm_ctx *ctx,
				    const struct nlattr *attr, __u32 *policy)
{
	*policy = nftvm_nla_be32(attr);
	if (*policy != NF_ACCEPT && *policy != NF_DROP)
		return nftvm_fail(ctx, attr, -NFTVM_EINVAL);
	return 0;
}

static const struct nftvm_nla_policy
nftvm_chain_stats_policy[NFTA_COUNTER_MAX + 1] = {
	[NFTA_COUNTER_BYTES]	= { .type = NFTVM_NLA_U64 },
	[NFTA_COUNTER_PACKETS]	= { .type = NFTVM_NLA_U64 },
};

/* NFTA_CHAIN_COUNTERS: both values or -EINVAL, as nft_stats_alloc() */
static int nftvm_chain_parse_stats(struct nftvm_ctx *ctx,
				   const struct nlattr *attr, __u64 *stats)
{
	const struct nlattr *tb[NFTA_COUNTER_MAX + 1];
	int err;

	err = nftvm_nla_parse_nested(ctx, tb, NFTA_COUNTER_MAX,
				     nftvm_chain_stats_policy, attr);
	if (err < 0)
		return err;
	if (!tb[NFTA_COUNTER_PACKETS] || !tb[NFTA_COUNTER_BYTES])
		return -NFTVM_EINVAL;
	stats[0] = nftvm_nla_be64(tb[NFTA_COUNTER_PACKETS]);
	stats[1] = nftvm_nla_be64(tb[NFTA_COUNTER_BYTES]);
	return 0;
}

static struct nftvm_chain *nftvm_chain_lookup_handle(
	const struct nftvm_table *table, const struct nlattr *h)
{
	__u64 handle = nftvm_nla_be64(h);
	struct nftvm_chain *c;

	nftvm_list_for_each_entry(c, &table->chains, list)
		if (c->handle == handle)
			return c;
	return NULL;
}

static int nftvm_chain_update(struct nftvm_ctx *ctx, struct nftvm_chain *c,
			      const struct nlattr **tb)
{
	struct nftvm_hook_spec hs;
	struct nftvm_trans *trans;
	__u64 stats[2];
	__u32 policy;
	int err;

	if (tb[NFTA_CHAIN_HOOK]) {
		if (!c->base)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_HOOK],
					  -NFTVM_EEXIST);
		err = nftvm_chain_parse_hook(ctx, tb, &hs);
		if (err < 0)
			return err;
		if (hs.hooknum != c->hooknum || hs.prio != c->prio ||
		    hs.type != c->type)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_HOOK],
					  -NFTVM_EEXIST);
	}
	policy = c->policy;
	if (tb[NFTA_CHAIN_POLICY]) {
		if (!c->base)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_POLICY],
					  -NFTVM_EOPNOTSUPP);
		err = nftvm_chain_parse_policy(ctx, tb[NFTA_CHAIN_POLICY],
					       &policy);
		if (err < 0)
			return err;
	}
	/* new counter values replace the chain's at commit */
	if (tb[NFTA_CHAIN_COUNTERS]) {
		if (!c->base)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_COUNTERS],
					  -NFTVM_EOPNOTSUPP);
		err = nftvm_chain_parse_stats(ctx, tb[NFTA_CHAIN_COUNTERS],
					      stats);
		if (err < 0)
			return err;
	}
	if (policy == c->policy && !tb[NFTA_CHAIN_COUNTERS])
		return 0;
	err = nftvm_trans_add(ctx, NFTVM_TRANS_UPDCHAIN, c, NULL, NULL);
	if (err < 0)
		return err;
	trans = nftvm_trans_last(ctx->vm);
	trans->old[0] = c->policy;
	c->policy = policy;
	if (tb[NFTA_CHAIN_COUNTERS]) {
		c->stats_pending = true;
		c->stats_new[0] = stats[0];
		c->stats_new[1] = stats[1];
	}
	return 0;
}

/* "__chainN", as the kernel names a chain to bind that came nameless */
static char *nftvm_chain_anon_name(struct nftvm *vm)
{
	static const char prefix[] = "__chain";
	char digits[24], *name;
	__u64 n = ++vm->chain_seq;
	unsigned int len = 0, i;

	do {
		digits[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	name = nftvm_alloc(sizeof(prefix) + len);
	if (!name)
		return NULL;
	nftvm_memcpy(name, prefix, sizeof(prefix) - 1);
	for (i = 0; i < len; i++)
		name[sizeof(prefix) - 1 + i] = digits[len - 1 - i];
	name[sizeof(prefix) - 1 + len] = '\0';
	return name;
}

static int nftvm_chain_add(struct nftvm_ctx *ctx, struct nftvm_table *table,
			   const struct nlattr **tb)
{
	struct nftvm_hook_spec hs = { 0 };
	__u32 policy = NF_ACCEPT, flags = 0;
	__u64 stats[2] = { 0, 0 };
	struct nftvm_chain *c;
	int err;

	if (tb[NFTA_CHAIN_FLAGS]) {
		flags = nftvm_nla_be32(tb[NFTA_CHAIN_FLAGS]);
		if (flags & ~(NFT_CHAIN_BASE | NFT_CHAIN_HW_OFFLOAD |
			      NFT_CHAIN_BINDING))
			return nftvm_fail(ctx, tb[NFTA_CHAIN_FLAGS],
					  -NFTVM_EOPNOTSUPP);
		/* a bound chain is entered by its rule, never by a hook */
		if ((flags & NFT_CHAIN_BINDING) && tb[NFTA_CHAIN_HOOK])
			return nftvm_fail(ctx, tb[NFTA_CHAIN_FLAGS],
					  -NFTVM_EOPNOTSUPP);
	}
	/* only a chain to bind may leave its naming to us */
	if (!tb[NFTA_CHAIN_NAME] && !(flags & NFT_CHAIN_BINDING))
		return -NFTVM_EINVAL;
	if (tb[NFTA_CHAIN_POLICY] && !tb[NFTA_CHAIN_HOOK])
		return nftvm_fail(ctx, tb[NFTA_CHAIN_POLICY],
				  -NFTVM_EOPNOTSUPP);
	if (tb[NFTA_CHAIN_HOOK]) {
		err = nftvm_chain_parse_hook(ctx, tb, &hs);
		if (err < 0)
			return err;
		if (tb[NFTA_CHAIN_POLICY]) {
			err = nftvm_chain_parse_policy(ctx,
						       tb[NFTA_CHAIN_POLICY],
						       &policy);
			if (err < 0)
				return err;
		}
		/* counters of a chain without a hook are ignored */
		if (tb[NFTA_CHAIN_COUNTERS]) {
			err = nftvm_chain_parse_stats(ctx,
						      tb[NFTA_CHAIN_COUNTERS],
						      stats);
			if (err < 0)
				return err;
		}
	} else if (flags & NFT_CHAIN_BASE) {
		return nftvm_fail(ctx, tb[NFTA_CHAIN_FLAGS], -NFTVM_EINVAL);
	}

	c = nftvm_alloc(sizeof(*c));
	if (!c)
		return -NFTVM_ENOMEM;
	nftvm_list_init(&c->rules);
	c->table = table;
	c->name = tb[NFTA_CHAIN_NAME] ? nftvm_nla_strdup(tb[NFTA_CHAIN_NAME]) :
					nftvm_chain_anon_name(ctx->vm);
	if (tb[NFTA_CHAIN_USERDATA]) {
		c->udlen = nftvm_nla_len(tb[NFTA_CHAIN_USERDATA]);
		c->udata = nftvm_nla_memdup(tb[NFTA_CHAIN_USERDATA]);
	}
	if (!c->name || (c->udlen && !c->udata)) {
		nftvm_chain_free(c);
		return -NFTVM_ENOMEM;
	}
	c->flags = flags;
	c->is_new = true;
	if (tb[NFTA_CHAIN_ID])
		c->id = nftvm_nla_be32(tb[NFTA_CHAIN_ID]);
	if (tb[NFTA_CHAIN_HOOK]) {
		c->base = true;
		c->flags |= NFT_CHAIN_BASE;
		c->hooknum = (__u8)hs.hooknum;
		c->prio = hs.prio;
		c->type = (__u8)hs.type;
		c->policy = policy;
		if (tb[NFTA_CHAIN_COUNTERS]) {
			c->has_stats = true;
			c->stats[0] = stats[0];
			c->stats[1] = stats[1];
		}
		if (hs.dev || hs.devs) {
			err = nftvm_chain_set_devs(ctx, c, &hs);
			if (err < 0) {
				nftvm_chain_free(c);
				return err;
			}
		}
	}
	err = nftvm_trans_add(ctx, NFTVM_TRANS_NEWCHAIN, c, table, NULL);
	if (err < 0) {
		nftvm_chain_free(c);
		return err;
	}
	c->handle = ++table->hgen;
	c->reg_seq = ++ctx->vm->reg_seq;
	nftvm_list_add_tail(&c->list, &table->chains);
	if (c->base)
		ctx->vm->hooks_dirty = true;
	return 0;
}

int nftvm_newchain(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_table *table;
	struct nftvm_chain *c = NULL;

	if (!tb[NFTA_CHAIN_TABLE])
		return -NFTVM_EINVAL;
	table = nftvm_table_lookup(ctx->vm, tb[NFTA_CHAIN_TABLE], ctx->family);
	if (!table)
		return nftvm_fail(ctx, tb[NFTA_CHAIN_TABLE], -NFTVM_ENOENT);
	ctx->table = table;

	if (tb[NFTA_CHAIN_HANDLE]) {
		c = nftvm_chain_lookup_handle(table, tb[NFTA_CHAIN_HANDLE]);
		if (!c)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_HANDLE],
					  -NFTVM_ENOENT);
	} else if (tb[NFTA_CHAIN_NAME]) {
		c = nftvm_chain_lookup(table, tb[NFTA_CHAIN_NAME]);
	}
	if (c) {
		if (ctx->nlflags & NLM_F_EXCL)
			return nftvm_fail(ctx, tb[NFTA_CHAIN_NAME],
					  -NFTVM_EEXIST);
		if (ctx->nlflags & NLM_F_REPLACE)
			return -NFTVM_EOPNOTSUPP;
		return nftvm_chain_update(ctx, c, tb);
	}
	return nftvm_chain_add(ctx, table, tb);
}

int nftvm_delchain(struct nftvm_ctx *ctx, const struct nlattr **tb)
{
	struct nftvm_rule *r, *tmp;
	const struct nlattr *attr;
	struct nftvm_table *table;
	struct nftvm_chain *c;
	int err;

	if (!tb[NFTA_CHAIN_TABLE])
		return -NFTVM_EINVAL;
	table = nftvm_table_lookup(ctx->vm, tb[NFTA_CHAIN_TABLE], ctx->family);
	if (!table)
		return nftvm_fail(ctx, tb[NFTA_CHAIN_TABLE], -NFTVM_ENOENT);
	ctx->table = table;

	if (tb[NFTA_CHAIN_HANDLE]) {
		attr = tb[NFTA_CHAIN_HANDLE];
		c = nftvm_chain_lookup_handle(table, attr);
	} else if (tb[NFTA_CHAIN_NAME]) {
		attr = tb[NFTA_CHAIN_NAME];
		c = nftvm_chain_lookup(table, attr);
	} else {
		return -NFTVM_EINVAL;
	}
	if (!c)
		return nftvm_missing(ctx, attr);
	/* a bound chain goes with the rule that jumps to it */
	if (c->flags & NFT_CHAIN_BINDING)
		return nftvm_fail(ctx, attr, -NFTVM_EOPNOTSUPP);

	if ((ctx->nlflags & NLM_F_NONREC) &&
	    (c->use || !nftvm_list_empty(&c->rules)))
		return nftvm_fail(ctx, attr, -NFTVM_EBUSY);

	ctx->chain = c;
	nftvm_list_for_each_entry_safe(r, tmp, &c->rules, list) {
		err = nftvm_rule_del(ctx, r);
		if (err < 0)
			return err;
	}
	/* jumps from other chains or verdict maps still lead here */
	if (c->use)
		return nftvm_fail(ctx, attr, -NFTVM_EBUSY);

	err = nftvm_trans_add(ctx, NFTVM_TRANS_DELCHAIN, c, table,
			      c->list.prev);
	if (err < 0)
		return err;
	nftvm_list_del(&c->list);
	if (c->base)
		ctx->vm->hooks_dirty = true;
	return 0;
}

/**
 * nftvm_chain_bind_sweep - settle the chains to bind at the end of a batch
 *
 * A chain to bind that no rule jumps to: one made in this batch fails
 * it (-EINVAL, the kernel's check of its pending chains at commit); one
 * whose rule went away in this batch goes too, with its rules, which
 * may in turn leave other chains unbound.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int nftvm_chain_bind_sweep(struct nftvm_ctx *ctx)
{
	struct nftvm_rule *r, *rtmp;
	struct nftvm_chain *c, *ctmp;
	struct nftvm_table *t;
	bool again = true;
	int err;

	while (again) {
		again = false;
		nftvm_list_for_each_entry(t, &ctx->vm->tables, list)
			nftvm_list_for_each_entry_safe(c, ctmp, &t->chains,
						       list) {
				if (!(c->flags & NFT_CHAIN_BINDING) ||
				    c->bound)
					continue;
				if (c->is_new)
					return -NFTVM_EINVAL;
				ctx->table = t;
				ctx->chain = c;
				nftvm_list_for_each_entry_safe(r, rtmp,
							       &c->rules,
							       list) {
					err = nftvm_rule_del(ctx, r);
					if (err < 0)
						return err;
				}
				err = nftvm_trans_add(ctx,
						      NFTVM_TRANS_DELCHAIN, c,
						      t, c->list.prev);
				if (err < 0)
					return err;
				nftvm_list_del(&c->list);
				again = true;
			}
	}
	return 0;
}

/**
 * nftvm_chain_stats_commit - an update's counter values take effect
 * @c: base chain; a no-op without pending values
 */
void nftvm_chain_stats_commit(struct nftvm_chain *c)
{
	if (!c->stats_pending)
		return;
	c->stats_pending = false;
	c->has_stats = true;
	c->stats[0] = c->stats_new[0];
	c->stats[1] = c->stats_new[1];
}
