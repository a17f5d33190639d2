// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Evaluation of base chain and flowtable declarations: hook names per
 * family, priorities (numbers and stock's names, with offsets),
 * policies and device lists (split from evaluate.c).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include "evaluate.h"
#include "input_map.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"

/*
 * Base chains: hooks and priorities
 */

struct hook_name {
	const char	*name;
	unsigned int	num;
};

#define HOOKS_MAX	8

static const struct hook_name inet_hooks[HOOKS_MAX] = {
	{ "prerouting",		NF_INET_PRE_ROUTING },
	{ "input",		NF_INET_LOCAL_IN },
	{ "forward",		NF_INET_FORWARD },
	{ "output",		NF_INET_LOCAL_OUT },
	{ "postrouting",	NF_INET_POST_ROUTING },
};

static const struct hook_name inet_family_hooks[HOOKS_MAX] = {
	{ "prerouting",		NF_INET_PRE_ROUTING },
	{ "input",		NF_INET_LOCAL_IN },
	{ "forward",		NF_INET_FORWARD },
	{ "output",		NF_INET_LOCAL_OUT },
	{ "postrouting",	NF_INET_POST_ROUTING },
	{ "ingress",		NF_INET_INGRESS },
};

static const struct hook_name arp_hooks[HOOKS_MAX] = {
	{ "input",		0 },	/* NF_ARP_IN */
	{ "output",		1 },	/* NF_ARP_OUT */
	{ "forward",		2 },	/* NF_ARP_FORWARD */
};

static const struct hook_name netdev_hooks[HOOKS_MAX] = {
	{ "ingress",		NF_NETDEV_INGRESS },
	{ "egress",		NF_NETDEV_EGRESS },
};

static const struct hook_name *const family_hooks[NFPROTO_NUMPROTO] = {
	[NFPROTO_IPV4]		= inet_hooks,
	[NFPROTO_IPV6]		= inet_hooks,
	[NFPROTO_BRIDGE]	= inet_hooks,	/* NF_BR_* = NF_INET_* */
	[NFPROTO_INET]		= inet_family_hooks,
	[NFPROTO_ARP]		= arp_hooks,
	[NFPROTO_NETDEV]	= netdev_hooks,
};

static int hook_lookup(uint32_t family, const char *name)
{
	const struct hook_name *tbl;
	unsigned int i;

	if (family >= NFPROTO_NUMPROTO || !family_hooks[family] || !name)
		return -1;
	tbl = family_hooks[family];
	for (i = 0; i < HOOKS_MAX && tbl[i].name; i++) {
		if (!strcmp(tbl[i].name, name))
			return tbl[i].num;
	}
	return -1;
}

struct prio_name {
	const char	*name;
	int		prio;
};

#define PRIOS_MAX	8

static const struct prio_name std_prios[PRIOS_MAX] = {
	{ "raw",	NF_IP_PRI_RAW },
	{ "mangle",	NF_IP_PRI_MANGLE },
	{ "dstnat",	NF_IP_PRI_NAT_DST },
	{ "filter",	NF_IP_PRI_FILTER },
	{ "security",	NF_IP_PRI_SECURITY },
	{ "srcnat",	NF_IP_PRI_NAT_SRC },
};

static const struct prio_name bridge_prios[PRIOS_MAX] = {
	{ "dstnat",	-300 },	/* NF_BR_PRI_NAT_DST_BRIDGED */
	{ "filter",	-200 },	/* NF_BR_PRI_FILTER_BRIDGED */
	{ "out",	100 },	/* NF_BR_PRI_NAT_DST_OTHER */
	{ "srcnat",	300 },	/* NF_BR_PRI_NAT_SRC */
};

static const struct prio_name filter_prios[PRIOS_MAX] = {
	{ "filter",	0 },
};

/* NAT priority names make sense on NAT hooks only (stock nft's rule). */
static bool prio_hook_compat(uint32_t family, const char *name,
			     unsigned int hook)
{
	if (family == NFPROTO_BRIDGE) {
		if (!strcmp(name, "srcnat"))
			return hook == NF_INET_POST_ROUTING;
		if (!strcmp(name, "dstnat"))
			return hook == NF_INET_PRE_ROUTING;
		if (!strcmp(name, "out"))
			return hook == NF_INET_LOCAL_OUT;
		return true;
	}
	if (!strcmp(name, "srcnat"))
		return hook == NF_INET_POST_ROUTING;
	if (!strcmp(name, "dstnat"))
		return hook == NF_INET_PRE_ROUTING;
	return true;
}

static const struct prio_name *family_prios(uint32_t family)
{
	switch (family) {
	case NFPROTO_BRIDGE:
		return bridge_prios;
	case NFPROTO_ARP:
	case NFPROTO_NETDEV:
		return filter_prios;
	default:
		return std_prios;
	}
}

/* Text of a priority/policy/device expression, or NULL. */
static const char *expr_text(const struct expr *e, char *buf, size_t size)
{
	unsigned int n;

	while (e && e->kind == EXPR_VARIABLE)
		e = e->sym.value;
	if (!e)
		return NULL;
	if (e->kind == EXPR_SYMBOL)
		return e->sym.identifier;
	if (e->kind == EXPR_VALUE && datatype_is_a(e->dtype, &string_type)) {
		n = BITS_TO_BYTES(e->value.len);
		if (n >= size)
			n = size - 1;
		memcpy(buf, e->value.data, n);
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

/* "filter", "-150", "dstnat + 10", "mangle-5" */
static int parse_priority(uint32_t family, unsigned int hook,
			  const char *text, int *prio, bool *bad_context)
{
	const struct prio_name *tbl = family_prios(family);
	char name[32];
	const char *p = text;
	unsigned int i, n = 0;
	long base, off = 0;
	char *end;

	*bad_context = false;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || isdigit((unsigned char)*p)) {
		base = strtol(p, &end, 0);
		p = end;
	} else {
		while ((isalpha((unsigned char)*p) || *p == '_') &&
		       n < sizeof(name) - 1)
			name[n++] = *p++;
		name[n] = '\0';
		for (i = 0; i < PRIOS_MAX && tbl[i].name; i++) {
			if (!strcmp(tbl[i].name, name))
				break;
		}
		if (i == PRIOS_MAX || !tbl[i].name)
			return -1;
		if (!prio_hook_compat(family, name, hook)) {
			*bad_context = true;
			return -1;
		}
		base = tbl[i].prio;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '+' || *p == '-') {
			int sign = *p == '-' ? -1 : 1;

			p++;
			while (isspace((unsigned char)*p))
				p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			off = sign * strtol(p, &end, 0);
			p = end;
		}
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return -1;
	*prio = (int)(base + off);
	return 0;
}

/*
 * Stock nft underlines "priority VALUE": widen @loc back to @kw when the
 * keyword precedes it on the same line.
 */
static struct location keyword_location(const struct location *loc,
					const char *kw)
{
	struct location l = *loc;
	const char *line, *p;
	size_t n = strlen(kw), len;

	if (!loc->indesc || !loc->indesc->data || loc->first_column < 2 ||
	    loc->first_line != loc->last_line ||
	    loc->line_offset > loc->indesc->size)
		return l;
	/* a big file's text is given back behind the scanner */
	line = input_line(loc->indesc, loc->line_offset, &len);
	if (loc->first_column - 2 >= len)
		return l;
	p = line + loc->first_column - 2;
	while (p > line && (*p == ' ' || *p == '\t'))
		p--;
	if (p - line + 1 < (long)n || strncmp(p - n + 1, kw, n))
		return l;
	l.first_column = (p - n + 1 - line) + 1;
	return l;
}

static int priority_evaluate(struct eval_ctx *ctx, struct expr *expr,
			     uint32_t family, unsigned int hook, int *prio)
{
	const struct expr *e = expr;
	char buf[64], txt[96];
	const char *s;
	bool bad;

	while (e && e->kind == EXPR_VARIABLE)
		e = e->sym.value;
	if (!e)
		return eval_error(ctx, &expr->location,
				  "invalid priority expression");
	if (e->kind == EXPR_VALUE && !datatype_is_a(e->dtype, &string_type)) {
		*prio = (int32_t)value_get_u64(&e->value);
		return 0;
	}
	if (e->kind == EXPR_BINOP) {
		char rbuf[32];
		const char *r;

		s = expr_text(e->pair.left, buf, sizeof(buf));
		if (e->pair.right->kind == EXPR_VALUE) {
			snprintf(rbuf, sizeof(rbuf), "%llu",
				 (unsigned long long)
				 value_get_u64(&e->pair.right->value));
			r = rbuf;
		} else {
			r = expr_text(e->pair.right, rbuf, sizeof(rbuf));
		}
		snprintf(txt, sizeof(txt), "%s %c %s", s ? s : "",
			 e->op == OP_SUB ? '-' : '+', r ? r : "");
		s = txt;
	} else {
		s = expr_text(e, buf, sizeof(buf));
	}
	if (!s || parse_priority(family, hook, s, prio, &bad) < 0) {
		struct location loc = keyword_location(&expr->location,
						       "priority");

		return eval_error(ctx, &loc, "invalid priority expression "
				  "value in this context.");
	}
	return 0;
}

static int policy_evaluate(struct eval_ctx *ctx, struct chain *chain)
{
	struct expr *p = chain->policy, *v;
	char buf[32];
	const char *s;
	int verdict;

	if (!p || p->kind == EXPR_VERDICT)
		return 0;
	s = expr_text(p, buf, sizeof(buf));
	if (!s)
		return eval_error(ctx, &p->location,
				  "invalid policy expression %s",
				  expr_kind_name(p->kind));
	if (!strcmp(s, "accept"))
		verdict = NF_ACCEPT;
	else if (!strcmp(s, "drop"))
		verdict = NF_DROP;
	else
		return eval_error(ctx, &p->location,
				  "invalid policy expression %s", s);
	v = verdict_expr_alloc(&p->location, verdict, NULL);
	if (!v)
		return eval_error(ctx, &p->location, "out of memory");
	expr_free(chain->policy);
	chain->policy = v;
	return 0;
}

/* Replace variables in a device list by what they are bound to. */
static void devices_expand(struct expr *devs)
{
	struct expr *i, *next, *val, *c;

	if (!devs || (devs->kind != EXPR_LIST && devs->kind != EXPR_SET))
		return;
	list_for_each_entry_safe(i, next, &devs->expressions, list) {
		if (i->kind != EXPR_VARIABLE || !i->sym.value)
			continue;
		val = i->sym.value;
		if (val->kind == EXPR_LIST || val->kind == EXPR_SET) {
			struct expr *j;

			list_for_each_entry(j, &val->expressions, list) {
				c = expr_clone(j);
				if (c)
					list_add_tail(&c->list, &i->list);
			}
		} else {
			c = expr_clone(val);
			if (c)
				list_add_tail(&c->list, &i->list);
		}
		list_del(&i->list);
		expr_free(i);
	}
}

int chain_evaluate(struct eval_ctx *ctx, struct chain *chain)
{
	uint32_t family = chain->handle.family;
	int hook;

	if (!chain->is_base && !chain->hook_name.name)
		return 0;
	chain->is_base = true;
	hook = hook_lookup(family, chain->hook_name.name);
	if (hook < 0)
		return eval_error(ctx, chain->hook_name.location.indesc ?
				  &chain->hook_name.location :
				  &chain->location, "unknown chain hook");
	chain->hooknum = hook;
	if (chain->priority) {
		if (priority_evaluate(ctx, chain->priority, family, hook,
				      &chain->prio) < 0)
			return -1;
	}
	if (policy_evaluate(ctx, chain) < 0)
		return -1;
	devices_expand(chain->devices);
	if (family == NFPROTO_NETDEV && !chain->devices &&
	    hook == NF_NETDEV_INGRESS) {
		struct location loc = chain->location;

		/* stock underlines "type ... priority N;" */
		if (chain->type.location.indesc && chain->priority &&
		    chain->priority->location.first_line ==
		    chain->type.location.first_line) {
			loc = keyword_location(&chain->type.location, "type");
			loc.last_line = chain->priority->location.last_line;
			loc.last_column =
				chain->priority->location.last_column;
		}
		return eval_error(ctx, &loc, "Missing `device' in this chain "
				  "definition");
	}
	return 0;
}

int flowtable_evaluate(struct eval_ctx *ctx, struct flowtable *ft)
{
	if (ft->hook_name.name) {
		if (strcmp(ft->hook_name.name, "ingress"))
			return eval_error(ctx, ft->hook_name.location.indesc ?
					  &ft->hook_name.location :
					  &ft->location,
					  "unknown flowtable hook");
		ft->hooknum = NF_NETDEV_INGRESS;
	}
	if (ft->priority &&
	    priority_evaluate(ctx, ft->priority, NFPROTO_NETDEV,
			      NF_NETDEV_INGRESS, &ft->prio) < 0)
		return -1;
	devices_expand(ft->devices);
	return 0;
}
