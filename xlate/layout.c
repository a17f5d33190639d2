// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The standard iptables tables and their base chains, with the hooks,
 * chain types and priorities iptables-nft gives them, so a translated
 * ruleset replaces iptables-nft's in place.
 */
#include <config.h>
#include <string.h>
#include "xlate_int.h"

static const struct xl_table_layout xl_layouts[] = {
	{
		.name = "filter",
		.hooks = {
			{ "INPUT",	 "input",	"filter", 0 },
			{ "FORWARD",	 "forward",	"filter", 0 },
			{ "OUTPUT",	 "output",	"filter", 0 },
		},
	},
	{
		.name = "mangle",
		.hooks = {
			{ "PREROUTING",	 "prerouting",	"filter", -150 },
			{ "INPUT",	 "input",	"filter", -150 },
			{ "FORWARD",	 "forward",	"filter", -150 },
			{ "OUTPUT",	 "output",	"route",  -150 },
			{ "POSTROUTING", "postrouting",	"filter", -150 },
		},
	},
	{
		.name = "nat",
		.hooks = {
			{ "PREROUTING",	 "prerouting",	"nat", -100 },
			{ "INPUT",	 "input",	"nat", 100 },
			{ "OUTPUT",	 "output",	"nat", -100 },
			{ "POSTROUTING", "postrouting",	"nat", 100 },
		},
	},
	{
		.name = "raw",
		.hooks = {
			{ "PREROUTING",	 "prerouting",	"filter", -300 },
			{ "OUTPUT",	 "output",	"filter", -300 },
		},
	},
	{
		.name = "security",
		.hooks = {
			{ "INPUT",	 "input",	"filter", 50 },
			{ "FORWARD",	 "forward",	"filter", 50 },
			{ "OUTPUT",	 "output",	"filter", 50 },
		},
	},
};

const struct xl_table_layout *xl_layout_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(xl_layouts) / sizeof(xl_layouts[0]); i++) {
		if (!strcmp(xl_layouts[i].name, name))
			return &xl_layouts[i];
	}
	return NULL;
}

const struct xl_hook *xl_layout_hook(const struct xl_table_layout *l,
				     const char *chain)
{
	unsigned int i;

	for (i = 0; i < XL_HOOKS_MAX && l->hooks[i].chain; i++) {
		if (!strcmp(l->hooks[i].chain, chain))
			return &l->hooks[i];
	}
	return NULL;
}
