// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The standard tables as iptables-nft 1.8.9 creates them: one row per
 * base chain (checked against stock iptables-nft-restore followed by
 * "nft list ruleset" in a private namespace). IPv4 and IPv6 use the
 * same layout.
 */
#include <config.h>
#include <string.h>
#include <linux/netfilter.h>
#include "compat.h"

#define CH(n, h, hn, t, p) \
	{ .name = n, .hook = h, .hook_name = hn, .type = t, .prio = p }

static const struct compat_table compat_inet_tables[] = {
	{
		.name = "filter", .nchains = 3, .save_rank = 3,
		.chains = {
			CH("INPUT", NF_INET_LOCAL_IN, "input", "filter", 0),
			CH("FORWARD", NF_INET_FORWARD, "forward", "filter", 0),
			CH("OUTPUT", NF_INET_LOCAL_OUT, "output", "filter", 0),
		},
	},
	{
		.name = "nat", .nchains = 4, .save_rank = 4,
		.chains = {
			CH("PREROUTING", NF_INET_PRE_ROUTING, "prerouting",
			   "nat", -100),
			CH("INPUT", NF_INET_LOCAL_IN, "input", "nat", 100),
			CH("OUTPUT", NF_INET_LOCAL_OUT, "output", "nat", -100),
			CH("POSTROUTING", NF_INET_POST_ROUTING, "postrouting",
			   "nat", 100),
		},
	},
	{
		.name = "mangle", .nchains = 5, .save_rank = 0,
		.chains = {
			CH("PREROUTING", NF_INET_PRE_ROUTING, "prerouting",
			   "filter", -150),
			CH("INPUT", NF_INET_LOCAL_IN, "input", "filter", -150),
			CH("FORWARD", NF_INET_FORWARD, "forward", "filter",
			   -150),
			CH("OUTPUT", NF_INET_LOCAL_OUT, "output", "route",
			   -150),
			CH("POSTROUTING", NF_INET_POST_ROUTING, "postrouting",
			   "filter", -150),
		},
	},
	{
		.name = "raw", .nchains = 2, .save_rank = 2,
		.chains = {
			CH("PREROUTING", NF_INET_PRE_ROUTING, "prerouting",
			   "filter", -300),
			CH("OUTPUT", NF_INET_LOCAL_OUT, "output", "filter",
			   -300),
		},
	},
	{
		.name = "security", .nchains = 3, .save_rank = 1,
		.chains = {
			CH("INPUT", NF_INET_LOCAL_IN, "input", "filter", 150),
			CH("FORWARD", NF_INET_FORWARD, "forward", "filter",
			   150),
			CH("OUTPUT", NF_INET_LOCAL_OUT, "output", "filter",
			   150),
		},
	},
};

const struct compat_convention compat_iptables_nft = {
	.comment_write			= COMPAT_COMMENT_XT,
	.comment_udata_type		= 0,	/* NFTNL_UDATA_RULE_COMMENT */
	.comment_max			= 256,	/* XT_MAX_COMMENT_LEN */
	.counter_per_rule		= true,
	.builtin_chains_on_demand	= true,
};

const struct compat_table *compat_tables(uint8_t family, unsigned int *n)
{
	if (family != NFPROTO_IPV4 && family != NFPROTO_IPV6) {
		*n = 0;
		return NULL;
	}
	*n = sizeof(compat_inet_tables) / sizeof(compat_inet_tables[0]);
	return compat_inet_tables;
}

const struct compat_table *compat_table_find(uint8_t family,
					     const char *name)
{
	const struct compat_table *t;
	unsigned int i, n;

	t = compat_tables(family, &n);
	for (i = 0; i < n; i++) {
		if (!strcmp(t[i].name, name))
			return &t[i];
	}
	return NULL;
}

const struct compat_chain *compat_chain_find(const struct compat_table *t,
					     const char *name)
{
	unsigned int i;

	for (i = 0; t && i < t->nchains; i++) {
		if (!strcmp(t->chains[i].name, name))
			return &t->chains[i];
	}
	return NULL;
}

const struct compat_chain *compat_chain_by_hook(const struct compat_table *t,
						unsigned int hook, int prio,
						const char *type)
{
	unsigned int i;

	for (i = 0; t && i < t->nchains; i++) {
		if (t->chains[i].hook == hook && t->chains[i].prio == prio &&
		    (!type || !strcmp(t->chains[i].type, type)))
			return &t->chains[i];
	}
	return NULL;
}

const char *compat_prog_name(uint8_t family)
{
	return family == NFPROTO_IPV6 ? "ip6tables" : "iptables";
}
