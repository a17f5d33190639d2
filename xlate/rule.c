// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The iptables rule parser: the built-in options (-s -d -p -i -o -f -m
 * -j -g -c), negations, the implicit protocol match ("-p tcp --dport"),
 * and handing every other option to the extension it belongs to, in the
 * order iptables' getopt would. The result is the rule's IR, in the
 * order iptables-nft translates it: interfaces, fragment, protocol,
 * addresses, matches, counter, target, comment.
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "xlate_int.h"
#include "datatype.h"
#include "keys.h"
#include "proto.h"

#define XL_ERRLEN	512

enum xl_basic {
	XL_OPT_SOURCE,
	XL_OPT_DEST,
	XL_OPT_PROTO,
	XL_OPT_IN,
	XL_OPT_OUT,
	XL_OPT_FRAG,
	XL_OPT_MATCH,
	XL_OPT_JUMP,
	XL_OPT_GOTO,
	XL_OPT_COUNTERS,
	XL_OPT_IPV4,
	XL_OPT_IPV6,
	__XL_OPT_MAX
};

/**
 * struct xl_basic_opt - a built-in option
 * @nargs: arguments it takes; @inv: "!" allowed
 */
static const struct xl_basic_opt {
	char		shortopt;
	const char	*longopt;
	const char	*alias;
	unsigned int	nargs;
	bool		inv;
} xl_basic_opts[__XL_OPT_MAX] = {
	[XL_OPT_SOURCE]	  = { 's', "source", "src", 1, true },
	[XL_OPT_DEST]	  = { 'd', "destination", "dst", 1, true },
	[XL_OPT_PROTO]	  = { 'p', "protocol", NULL, 1, true },
	[XL_OPT_IN]	  = { 'i', "in-interface", NULL, 1, true },
	[XL_OPT_OUT]	  = { 'o', "out-interface", NULL, 1, true },
	[XL_OPT_FRAG]	  = { 'f', "fragment", NULL, 0, true },
	[XL_OPT_MATCH]	  = { 'm', "match", NULL, 1, false },
	[XL_OPT_JUMP]	  = { 'j', "jump", NULL, 1, false },
	[XL_OPT_GOTO]	  = { 'g', "goto", NULL, 1, false },
	[XL_OPT_COUNTERS] = { 'c', "set-counters", NULL, 2, false },
	[XL_OPT_IPV4]	  = { '4', "ipv4", NULL, 0, false },
	[XL_OPT_IPV6]	  = { '6', "ipv6", NULL, 0, false },
};

struct xl_addr {
	uint8_t		addr[16];
	uint8_t		mask[16];
	bool		set;
	bool		inv;
	unsigned int	n;		/* addresses in a comma list */
	char		*list;		/* the list text when n > 1 */
};

struct xl_iface {
	const char	*name;
	bool		inv;
	struct location	loc;
};

/**
 * struct xl_parse - state of parsing one rule
 * @tok/@n: the tokens; @argv: their texts for libxtables (NULL ended)
 * @xr: extensions loaded so far
 * @target: target extension, or @verdict/@jump for the standard ones
 */
struct xl_parse {
	struct xl_rule		*r;
	struct xl_token		*tok;
	unsigned int		n;
	char			**argv;
	struct xl_xt_rule	*xr;
	struct xl_addr		src, dst;
	struct xl_iface		in, out;
	bool			frag, frag_inv;
	struct location		proto_loc, src_loc, dst_loc, frag_loc;
	struct xl_ext		*target;
	/*
	 * -p's match, built only when no match takes it (most do: "-p tcp
	 * -m tcp --dport" is "tcp dport"), after @proto_at
	 */
	bool			proto_due;
	struct list_head	*proto_at;
	int			verdict;
	const char		*jump;
	struct location		jump_loc;
	bool			has_counters;
	uint64_t		packets, bytes;
	bool			skip;		/* -4/-6 of the other family */
	char			err[XL_ERRLEN];	/* last: parse_rule() zeroes the rest */
};

/* snprintf(dst, size, "%s", src) without printf: truncated the same */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int tok_error(struct xl_parse *p, unsigned int i, const char *fmt,
		     const char *arg)
{
	p->r->loc = p->tok[i < p->n ? i : p->n - 1].loc;
	return xl_error(p->r, fmt, arg);
}

/*
 * The built-in options by the letter that tells them apart: "-X" by X,
 * "--long" by its first letter (every alias starts as its option);
 * most words looked up are an extension's options, found in none.
 * Built at the first lookup (per thread: no lock).
 */
static int basic_lookup(const char *t)
{
	static __thread struct {
		bool		built;
		uint8_t		by_short[128];	/* index + 1 */
		uint16_t	by_long[128];	/* indexes, as bits */
	} idx;
	unsigned int i, c;

	if (!idx.built) {
		for (i = 0; i < __XL_OPT_MAX; i++) {
			const struct xl_basic_opt *o = &xl_basic_opts[i];

			if (!idx.by_short[(uint8_t)o->shortopt & 127])
				idx.by_short[(uint8_t)o->shortopt & 127] =
					i + 1;
			idx.by_long[(uint8_t)o->longopt[0] & 127] |= 1u << i;
		}
		idx.built = true;
	}
	if (t[0] != '-' || !t[1])
		return -1;
	c = (unsigned char)t[1];
	if (c != '-')
		return t[2] == '\0' && c < 128 && idx.by_short[c] ?
		       idx.by_short[c] - 1 : -1;
	c = (unsigned char)t[2];
	for (i = 0; c < 128 && i < __XL_OPT_MAX; i++) {
		const struct xl_basic_opt *o = &xl_basic_opts[i];

		if (!(idx.by_long[c] & (1u << i)))
			continue;
		if (!strcmp(t + 2, o->longopt) ||
		    (o->alias && !strcmp(t + 2, o->alias)))
			return i;
	}
	return -1;
}

/* "1.2.3.4", "1.2.3.0/24", "1.2.3.4/255.255.0.0" (IPv6 alike). */
static int parse_one_addr(struct xl_parse *p, const char *text,
			  uint8_t *addr, uint8_t *mask)
{
	int af = p->r->ctx->family == NFPROTO_IPV6 ? AF_INET6 : AF_INET;
	unsigned int alen = af == AF_INET ? 4 : 16, i;
	char buf[128], *slash, *end;
	unsigned long plen = alen * 8;

	copy_str(buf, sizeof(buf), text);
	slash = strchr(buf, '/');
	if (slash) {
		*slash++ = '\0';
		if (strchr(slash, af == AF_INET ? '.' : ':')) {
			if (inet_pton(af, slash, mask) != 1)
				return -1;
			plen = ~0UL;
		} else {
			plen = strtoul(slash, &end, 10);
			if (*slash == '\0' || *end || plen > alen * 8)
				return -1;
		}
	}
	if (af == AF_INET6 && buf[0] == '[') {
		size_t l = strlen(buf);

		if (buf[l - 1] != ']')
			return -1;
		buf[l - 1] = '\0';
		memmove(buf, buf + 1, l - 1);
	}
	if (inet_pton(af, buf, addr) != 1)
		return -1;
	if (plen != ~0UL) {
		memset(mask, 0, alen);
		for (i = 0; i < plen / 8; i++)
			mask[i] = 0xff;
		if (plen % 8)
			mask[i] = 0xff << (8 - plen % 8);
	}
	return 0;
}

static int parse_addr(struct xl_parse *p, unsigned int i, struct xl_addr *a)
{
	const char *text = p->tok[i].text;

	if (a->set)
		return tok_error(p, i, "multiple -%s flags not allowed",
				 a == &p->src ? "s" : "d");
	a->set = true;
	a->n = 1;
	if (strchr(text, ',')) {
		/* several addresses make an anonymous set */
		char *copy = strdup(text), *save, *s;

		a->list = strdup(text);
		a->n = 0;
		for (s = strtok_r(copy, ",", &save); s;
		     s = strtok_r(NULL, ",", &save)) {
			if (parse_one_addr(p, s, a->addr, a->mask) < 0) {
				/* the message is made now: s is in copy */
				int ret = tok_error(p, i, "host/network `%s' "
						    "not found", s);

				free(copy);
				return ret;
			}
			a->n++;
		}
		free(copy);
		return 0;
	}
	if (parse_one_addr(p, text, a->addr, a->mask) < 0)
		return tok_error(p, i, "host/network `%s' not found", text);
	return 0;
}

static const struct {
	const char	*name;
	uint8_t		num;
} xl_proto_names[] = {
	{ "all", 0 }, { "tcp", IPPROTO_TCP }, { "udp", IPPROTO_UDP },
	{ "udplite", IPPROTO_UDPLITE }, { "icmp", IPPROTO_ICMP },
	{ "icmpv6", IPPROTO_ICMPV6 }, { "ipv6-icmp", IPPROTO_ICMPV6 },
	{ "esp", IPPROTO_ESP }, { "ah", IPPROTO_AH },
	{ "sctp", IPPROTO_SCTP }, { "dccp", IPPROTO_DCCP },
	{ "mh", IPPROTO_MH }, { "ipv6-mh", IPPROTO_MH },
	{ "gre", IPPROTO_GRE }, { "comp", IPPROTO_COMP },
};

static int parse_proto(const char *text, uint16_t *proto)
{
	const struct symbolic_constant *s;
	unsigned long n;
	unsigned int i;
	char *end;

	n = strtoul(text, &end, 0);
	if (*text && !*end) {
		if (n > 255)
			return -1;
		*proto = n;
		return 0;
	}
	for (i = 0; i < sizeof(xl_proto_names) / sizeof(xl_proto_names[0]);
	     i++) {
		if (!strcasecmp(text, xl_proto_names[i].name)) {
			*proto = xl_proto_names[i].num;
			return 0;
		}
	}
	for (s = nftc_builtin_protocols; s->identifier; s++) {
		if (!strcasecmp(text, s->identifier)) {
			*proto = s->value;
			return 0;
		}
	}
	return -1;
}

/* The match -p loads by itself ("-p tcp --dport 22"). */
static const char *proto_match_name(uint16_t proto, uint8_t family)
{
	switch (proto) {
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_UDPLITE:
		return "udplite";
	case IPPROTO_SCTP:
		return "sctp";
	case IPPROTO_DCCP:
		return "dccp";
	case IPPROTO_ICMP:
		return family == NFPROTO_IPV4 ? "icmp" : NULL;
	case IPPROTO_ICMPV6:
		return family == NFPROTO_IPV6 ? "icmp6" : NULL;
	case IPPROTO_MH:
		return family == NFPROTO_IPV6 ? "mh" : NULL;
	case IPPROTO_ESP:
		return "esp";
	case IPPROTO_AH:
		return "ah";
	}
	return NULL;
}

static struct xl_ext *find_ext(struct xl_parse *p, const char *name)
{
	struct xl_ext *e;

	list_for_each_entry(e, xl_xt_exts(p->xr), list) {
		if (e->match && !strcmp(e->name, name))
			return e;
	}
	return NULL;
}

/* A match loaded again later takes the options from then on. */
static bool completed(struct xl_parse *p, const struct xl_ext *e)
{
	const struct list_head *head = xl_xt_exts(p->xr), *pos;
	const struct xl_ext *n;

	if (!e->match)
		return false;
	for (pos = e->list.next; pos != head; pos = pos->next) {
		n = list_entry(pos, struct xl_ext, list);
		if (n->match && !strcmp(n->name, e->name))
			return true;
	}
	return false;
}

/*
 * Look up long option @name in the loaded extensions as getopt_long
 * does over iptables' merged option table: exact match first, then a
 * unique prefix. libxtables puts each newly loaded extension's options
 * in front of the older ones, so of two extensions with the same option
 * the later one takes it ("-m connmark --mark 1 -m mark --mark 2").
 */
static struct xl_ext *find_option(struct xl_parse *p, const char *name,
				  unsigned int *id, int *has_arg, bool *amb)
{
	struct list_head *exts = xl_xt_exts(p->xr), *pos;
	struct xl_ext *e, *found = NULL;
	unsigned int fid = 0;
	int fa = 0, ret;

	*amb = false;
	for (pos = exts->prev; pos != exts; pos = pos->prev) {
		e = list_entry(pos, struct xl_ext, list);
		if (!completed(p, e) &&
		    xl_xt_find_option(e, name, false, id, has_arg) == 1)
			return e;
	}
	list_for_each_entry(e, xl_xt_exts(p->xr), list) {
		if (completed(p, e))
			continue;
		ret = xl_xt_find_option(e, name, true, &fid, &fa);
		if (ret < 0 || (ret == 1 && found)) {
			*amb = true;
			return NULL;
		}
		if (ret == 1) {
			found = e;
			*id = fid;
			*has_arg = fa;
		}
	}
	return found;
}

static void ext_extend(struct xl_ext *e, const struct location *loc)
{
	e->loc = location_join(&e->loc, loc);
}

/*
 * The drop-ins take what iptables 1.8.9 takes: no "-d ! addr" (old
 * iptables' negation after the option), which ipt2nft still translates.
 */
static bool strict_iptables(const struct xl_parse *p)
{
	return p->r->ctx->flags & XLATE_F_XT;
}

/*
 * -m set / -j SET, parsed by ipset.c into nft sets. The drop-ins
 * (XLATE_F_XT) let libxt_set parse them against the kernel's ipsets,
 * as iptables-nft does.
 */
static bool is_setref_ext(const struct xl_parse *p, const struct xl_ext *e)
{
	return !(p->r->ctx->flags & XLATE_F_XT) &&
	       !strcmp(xl_ext_name(e), e->match ? "set" : "SET");
}

/* An option of -m set / -j SET: parsed by ipset.c, not libxt_set. */
static int setref_option(struct xl_parse *p, struct xl_ext *e,
			 unsigned int *i, const char *name, bool inv)
{
	int used;

	if (!e->setref)
		e->setref = calloc(1, sizeof(*e->setref));
	if (!e->setref)
		return tok_error(p, *i, "out of memory%s", "");
	p->r->loc = p->tok[*i].loc;
	used = xl_setref_option(p->r, e->setref, name, p->argv + *i + 1,
				p->n - *i - 1, inv);
	if (used < 0)
		return -1;
	*i += 1 + used;
	ext_extend(e, &p->tok[*i - 1].loc);
	return 0;
}

/* An extension option at tok[*i]; advances *i past its arguments. */
static int ext_option(struct xl_parse *p, unsigned int *i, bool inv)
{
	const char *t = p->tok[*i].text;
	char name[64], *eq, *arg = NULL;
	struct xl_ext *e;
	unsigned int id, start = *i;
	int has_arg, optind;
	bool amb;

	if (t[0] != '-' || t[1] != '-' || !t[2])
		return tok_error(p, *i, "unknown option \"%s\"", t);
	copy_str(name, sizeof(name), t + 2);
	eq = strchr(name, '=');
	if (eq)
		*eq = '\0';
	e = find_option(p, name, &id, &has_arg, &amb);
	if (!e && !amb && p->r->proto && !p->r->proto_inv) {
		const char *pm = proto_match_name(p->r->proto,
						  p->r->ctx->family);

		if (pm && !find_ext(p, pm)) {
			e = xl_xt_match(p->xr, pm, p->err, sizeof(p->err));
			if (!e)
				return tok_error(p, *i, "%s", p->err);
			e->loc = p->proto_loc;
			e = find_option(p, name, &id, &has_arg, &amb);
		}
	}
	if (amb)
		return tok_error(p, *i, "option \"%s\" is ambiguous", t);
	if (!e)
		return tok_error(p, *i, "unknown option \"%s\"", t);
	if (is_setref_ext(p, e))
		return setref_option(p, e, i, name, inv);
	optind = *i + 1;
	if (has_arg != no_argument) {
		if (eq) {
			arg = (char *)t + 2 + (eq - name) + 1;
		} else if (optind < (int)p->n) {
			/* pre-2010 "--opt ! value" (iptables-nft: no) */
			if (!strcmp(p->tok[optind].text, "!") &&
			    optind + 1 < (int)p->n && !strict_iptables(p)) {
				p->r->loc = p->tok[optind].loc;
				xl_warn(p->r, "using intrapositioned negation "
					"(`--option ! this`) is deprecated in "
					"favor of extrapositioned (`! --option "
					"this`)");
				if (inv)
					return tok_error(p, optind, "multiple "
							 "`!' flags not "
							 "allowed%s", "");
				inv = true;
				optind++;
			}
			arg = p->tok[optind++].text;
		} else if (has_arg == required_argument) {
			return tok_error(p, *i, "option \"%s\" requires an "
					 "argument", t);
		}
	}
	if (xl_xt_parse(e, id, p->argv, &optind, arg, inv,
			xl_xt_entry(p->r->ctx->family, p->r->proto,
				    p->r->proto_inv),
			p->err, sizeof(p->err)) < 0)
		return tok_error(p, start, "%s", p->err);
	if (optind > (int)p->n)
		optind = p->n;
	*i = optind;
	ext_extend(e, &p->tok[*i - 1].loc);
	return 0;
}

static int opt_arg(struct xl_parse *p, unsigned int *i, unsigned int k,
		   bool *inv)
{
	if (*i + k >= p->n)
		return tok_error(p, *i, "option \"%s\" requires an argument",
				 p->tok[*i].text);
	if (!strcmp(p->tok[*i + k].text, "!") && *i + k + 1 < p->n &&
	    !strict_iptables(p)) {
		p->r->loc = p->tok[*i + k].loc;
		xl_warn(p->r, "using intrapositioned negation (`%s ! this`) "
			"is deprecated in favor of extrapositioned (`! %s "
			"this`)", p->tok[*i].text, p->tok[*i].text);
		if (*inv)
			return tok_error(p, *i + k,
					 "multiple `!' flags not allowed%s", "");
		*inv = true;
		(*i)++;
	}
	return 0;
}

/*
 * iptables refuses an interface its base chain never has: no output
 * interface before routing in, no input interface on the way out.
 */
static const struct {
	const char	*hook;
	char		opt;
} xl_iface_refused[] = {
	{ "prerouting",  'o' },
	{ "input",	 'o' },
	{ "output",	 'i' },
	{ "postrouting", 'i' },
};

static int iface_check(struct xl_parse *p, unsigned int at, char opt)
{
	const struct xl_chain *c = p->r->chain;
	char msg[64];
	unsigned int k;

	if (!c || !c->hook)
		return 0;
	for (k = 0; k < sizeof(xl_iface_refused) / sizeof(xl_iface_refused[0]);
	     k++) {
		if (xl_iface_refused[k].opt != opt ||
		    strcmp(xl_iface_refused[k].hook, c->hook->hook_name))
			continue;
		snprintf(msg, sizeof(msg), "Can't use -%c with %%s", opt);
		return tok_error(p, at, msg, c->name);
	}
	return 0;
}

static int parse_iface(struct xl_parse *p, unsigned int i, struct xl_iface *f,
		       bool inv)
{
	const char *s = p->tok[i].text;

	if (f->name)
		return tok_error(p, i, "multiple -%s flags not allowed",
				 f == &p->in ? "i" : "o");
	if (strlen(s) >= 16)
		return tok_error(p, i, "interface name `%s' must be shorter "
				 "than IFNAMSIZ (15)", s);
	f->name = s;
	f->inv = inv;
	f->loc = p->tok[i].loc;
	return 0;
}

static int parse_target(struct xl_parse *p, unsigned int i, bool go)
{
	static const struct {
		const char	*name;
		int		verdict;
	} std[] = {
		{ "ACCEPT", NF_ACCEPT }, { "DROP", NF_DROP },
		{ "RETURN", NFT_RETURN },
	};
	const char *name = p->tok[i].text;
	struct xl_chain *c;
	unsigned int k;

	if (p->target || p->jump || p->verdict != NFT_CONTINUE)
		return tok_error(p, i, "multiple -j flags not allowed%s", "");
	p->jump_loc = location_join(&p->tok[i - 1].loc, &p->tok[i].loc);
	for (k = 0; k < sizeof(std) / sizeof(std[0]); k++) {
		if (!strcmp(name, std[k].name)) {
			if (go)
				return tok_error(p, i, "goto '%s' is not a "
						 "chain", name);
			p->verdict = std[k].verdict;
			return 0;
		}
	}
	c = xl_chain_find(p->r->table, name);
	if (c) {
		if (c->hook)
			return tok_error(p, i, "cannot jump to built-in "
					 "chain %s", name);
		p->jump = c->name;
		p->verdict = go ? NFT_GOTO : NFT_JUMP;
		return 0;
	}
	if (!go) {
		p->target = xl_xt_target(p->xr, name, p->err, sizeof(p->err));
		if (p->target) {
			p->target->loc = p->jump_loc;
			return 0;
		}
		if (p->err[0])
			return tok_error(p, i, "%s", p->err);
	}
	c = xl_chain_external(p->r->ctx, p->r->table, name, &p->tok[i].loc);
	if (c || (p->r->ctx->cmd_mode &&
		  (c = xl_chain_add(p->r->table, name, &p->tok[i].loc)))) {
		p->jump = c->name;
		p->verdict = go ? NFT_GOTO : NFT_JUMP;
		return 0;
	}
	return tok_error(p, i, "Chain '%s' does not exist", name);
}

static int parse_counters(struct xl_parse *p, unsigned int i)
{
	char *end1, *end2;

	p->packets = strtoull(p->tok[i + 1].text, &end1, 10);
	p->bytes = strtoull(p->tok[i + 2].text, &end2, 10);
	if (*end1 || *end2)
		return tok_error(p, i, "bad counter values%s", "");
	p->has_counters = true;
	return 0;
}

/* One built-in option at tok[*i]. */
static int basic_option(struct xl_parse *p, int opt, unsigned int *i,
			bool inv)
{
	const struct xl_basic_opt *o = &xl_basic_opts[opt];
	unsigned int at = *i;
	struct xl_ext *e;
	int ret = 0;

	if (inv && !o->inv)
		return tok_error(p, at, "cannot have ! before %s",
				 p->tok[at].text);
	if (o->nargs && opt_arg(p, i, 1, &inv) < 0)
		return -1;
	at = *i;
	if (at + o->nargs >= p->n)
		return tok_error(p, at, "option \"%s\" requires an argument",
				 p->tok[at].text);
	switch (opt) {
	case XL_OPT_SOURCE:
		p->src.inv = inv;
		p->src_loc = location_join(&p->tok[at].loc, &p->tok[at + 1].loc);
		ret = parse_addr(p, at + 1, &p->src);
		break;
	case XL_OPT_DEST:
		p->dst.inv = inv;
		p->dst_loc = location_join(&p->tok[at].loc, &p->tok[at + 1].loc);
		ret = parse_addr(p, at + 1, &p->dst);
		break;
	case XL_OPT_PROTO:
		if (p->r->proto || p->r->proto_inv)
			return tok_error(p, at, "multiple -p flags not "
					 "allowed%s", "");
		if (parse_proto(p->tok[at + 1].text, &p->r->proto) < 0)
			return tok_error(p, at + 1, "unknown protocol \"%s\" "
					 "specified", p->tok[at + 1].text);
		p->r->proto_inv = inv;
		p->proto_loc = location_join(&p->tok[at].loc,
					     &p->tok[at + 1].loc);
		if (inv && !p->r->proto)
			return tok_error(p, at, "rule would never match "
					 "protocol%s", "");
		break;
	case XL_OPT_IN:
		ret = iface_check(p, at, 'i');
		if (ret == 0)
			ret = parse_iface(p, at + 1, &p->in, inv);
		break;
	case XL_OPT_OUT:
		ret = iface_check(p, at, 'o');
		if (ret == 0)
			ret = parse_iface(p, at + 1, &p->out, inv);
		break;
	case XL_OPT_FRAG:
		if (p->r->ctx->family != NFPROTO_IPV4)
			return tok_error(p, at, "unknown option \"%s\"",
					 p->tok[at].text);
		p->frag = true;
		p->frag_inv = inv;
		p->frag_loc = p->tok[at].loc;
		break;
	case XL_OPT_MATCH:
		e = xl_xt_match(p->xr, p->tok[at + 1].text, p->err,
				sizeof(p->err));
		if (!e)
			return tok_error(p, at + 1, "%s", p->err);
		e->loc = location_join(&p->tok[at].loc, &p->tok[at + 1].loc);
		break;
	case XL_OPT_JUMP:
	case XL_OPT_GOTO:
		ret = parse_target(p, at + 1, opt == XL_OPT_GOTO);
		break;
	case XL_OPT_COUNTERS:
		ret = parse_counters(p, at);
		break;
	case XL_OPT_IPV4:
		p->skip |= p->r->ctx->family != NFPROTO_IPV4;
		break;
	case XL_OPT_IPV6:
		p->skip |= p->r->ctx->family != NFPROTO_IPV6;
		break;
	}
	*i = at + 1 + o->nargs;
	return ret;
}

static int parse_tokens(struct xl_parse *p)
{
	unsigned int i = 0;
	bool inv = false;
	int opt;

	while (i < p->n) {
		const char *t = p->tok[i].text;

		if (!strcmp(t, "!")) {
			if (inv)
				return tok_error(p, i, "multiple consecutive "
						 "! not allowed%s", "");
			inv = true;
			i++;
			continue;
		}
		opt = basic_lookup(t);
		if (opt >= 0) {
			if (basic_option(p, opt, &i, inv) < 0)
				return -1;
		} else if (t[0] == '-') {
			if (ext_option(p, &i, inv) < 0)
				return -1;
		} else {
			return tok_error(p, i, "Bad argument `%s'", t);
		}
		inv = false;
	}
	if (inv)
		return tok_error(p, p->n - 1, "trailing `!'%s", "");
	return 0;
}

static int final_checks(struct xl_parse *p)
{
	struct xl_ext *e;

	list_for_each_entry(e, xl_xt_exts(p->xr), list) {
		if (is_setref_ext(p, e)) {
			if (e->setref && e->setref->given)
				continue;
			p->r->loc = e->loc;
			return xl_error(p->r, "You must specify `--%s' with "
					"proper arguments", e->match ?
					"match-set" : "add-set' or `--del-set");
		}
		if (xl_xt_final(e, p->err, sizeof(p->err)) < 0) {
			p->r->loc = e->loc;
			return xl_error(p->r, "%s", p->err);
		}
	}
	return 0;
}

static void build_iface(struct xl_parse *p, const struct xl_iface *f,
			enum nft_meta_keys key)
{
	size_t len = f->name ? strlen(f->name) : 0;
	char buf[40];

	if (!len || !strcmp(f->name, "+"))
		return;
	p->r->loc = f->loc;
	if (f->name[len - 1] == '+')
		snprintf(buf, sizeof(buf), "%.*s*", (int)len - 1, f->name);
	else if (f->name[len - 1] == '*')
		snprintf(buf, sizeof(buf), "%.*s\\*", (int)len - 1, f->name);
	else
		copy_str(buf, sizeof(buf), f->name);
	xl_match_inv(p->r, xl_meta(&f->loc, key), f->inv,
		     xl_qsym(&f->loc, buf));
}

static void build_addr(struct xl_parse *p, const struct xl_addr *a,
		       const struct location *loc, const char *field)
{
	unsigned int alen = p->r->ctx->family == NFPROTO_IPV6 ? 16 : 4;
	struct expr *lhs, *set = NULL;
	char *copy, *save, *s;
	uint8_t ad[16], m[16];

	if (!a->set)
		return;
	p->r->loc = *loc;
	lhs = xl_payload(loc, xl_l3_desc(p->r), field);
	if (a->n <= 1) {
		xl_match_addr(p->r, lhs, a->addr, a->mask, alen, a->inv);
		return;
	}
	copy = strdup(a->list);
	for (s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		char buf[INET6_ADDRSTRLEN];
		int plen = 0, k;

		parse_one_addr(p, s, ad, m);
		for (k = 0; k < (int)alen * 8 && (m[k / 8] & (0x80 >> (k % 8)));
		     k++)
			plen++;
		for (k = 0; k < (int)alen; k++)
			ad[k] &= m[k];
		inet_ntop(alen == 4 ? AF_INET : AF_INET6, ad, buf, sizeof(buf));
		set = xl_set_add(set, plen == (int)alen * 8 ?
				 xl_sym(loc, "%s", buf) :
				 prefix_expr_alloc(loc, xl_sym(loc, "%s", buf),
						   plen));
	}
	free(copy);
	xl_match_inv(p->r, lhs, a->inv, set);
}

static void build_basic(struct xl_parse *p)
{
	struct xl_rule *r = p->r;

	build_iface(p, &p->in, NFT_META_IIFNAME);
	build_iface(p, &p->out, NFT_META_OIFNAME);
	if (p->frag) {
		r->loc = p->frag_loc;
		xl_match(r, xl_binop(&r->loc, OP_AND,
				     xl_payload(&r->loc, &proto_ip, "frag-off"),
				     xl_sym(&r->loc, "0x1fff")),
			 p->frag_inv ? OP_EQ : OP_NEQ, xl_sym(&r->loc, "0"));
	}
	if (r->proto) {
		p->proto_due = true;
		p->proto_at = r->rule->stmts.prev;
	}
	build_addr(p, &p->src, &p->src_loc, "saddr");
	build_addr(p, &p->dst, &p->dst_loc, "daddr");
}

static void build_verdict(struct xl_parse *p)
{
	struct expr *chain = NULL;

	if (p->verdict == NFT_CONTINUE)
		return;
	if (p->jump)
		chain = xl_sym(&p->jump_loc, "%s", p->jump);
	xl_add_stmt(p->r, verdict_stmt_alloc(&p->jump_loc,
			verdict_expr_alloc(&p->jump_loc, p->verdict, chain)));
}

static int xl_strcmp0(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : 1;
}

/*
 * The protocol's own match (-p tcp -m tcp) implies the protocol when it
 * matched a header field: the explicit protocol test goes, as in
 * iptables-nft's translation (the evaluator adds the dependency). When
 * it matched nothing, the protocol is tested as "meta l4proto", which is
 * what iptables-nft writes for it.
 */
/*
 * -p's match, in its place (after the interfaces and the fragment
 * test): "ip protocol P", or "meta l4proto P" (@l4proto, and always on
 * IPv6).
 */
static void proto_build(struct xl_parse *p, bool l4proto)
{
	const struct location *loc = &p->proto_loc;
	struct xl_rule *r = p->r;
	struct location saved = r->loc;
	struct expr *lhs;
	struct stmt *s;

	p->proto_due = false;
	r->loc = *loc;
	lhs = l4proto || r->ctx->family == NFPROTO_IPV6 ?
	      xl_meta(loc, NFT_META_L4PROTO) :
	      xl_payload(loc, &proto_ip, "protocol");
	xl_match_inv(r, lhs, r->proto_inv, xl_value(loc, lhs, r->proto));
	s = list_last_entry(&r->rule->stmts, struct stmt, list);
	list_del(&s->list);
	list_add(&s->list, p->proto_at);
	r->loc = saved;
}

/* A match took -p: implied by what it built, or tested as l4proto. */
static void proto_fold(struct xl_parse *p, bool implied)
{
	if (implied)
		p->proto_due = false;
	else
		proto_build(p, true);
}

static int build_rule(struct xl_parse *p)
{
	struct xl_rule *r = p->r;
	struct xl_ext *e;
	struct stmt *s;

	build_basic(p);
	list_for_each_entry(e, xl_xt_exts(p->xr), list) {
		unsigned int n = r->rule->num_stmts;

		if (!e->match)
			continue;
		r->loc = e->loc;
		r->proto_needed = false;
		if (xl_map_ext(r, e) < 0)
			return -1;
		/*
		 * an xt match implies no protocol, nor does an absence
		 * test: it stays, as l4proto
		 */
		if (p->proto_due && !r->proto_inv &&
		    !xl_strcmp0(proto_match_name(r->proto, r->ctx->family),
				e->name))
			proto_fold(p, r->rule->num_stmts > n &&
				      !xl_ext_as_xt(r, e) &&
				      !r->proto_needed);
	}
	/* iptables-nft tests -p as "meta l4proto" when no match took it */
	if (p->proto_due)
		proto_build(p, r->ctx->flags & XLATE_F_XT);
	if (!(r->ctx->flags & XLATE_F_NO_COUNTER)) {
		s = stmt_alloc(&r->rule->location, STMT_COUNTER);
		if (p->has_counters && (r->ctx->flags & XLATE_F_COUNTERS)) {
			s->counter.packets = p->packets;
			s->counter.bytes = p->bytes;
		}
		xl_add_stmt(r, s);
	}
	if (p->target) {
		r->loc = p->target->loc;
		if (xl_map_ext(r, p->target) < 0)
			return -1;
	}
	build_verdict(p);
	if (r->comment) {
		r->rule->comment = r->comment;
		r->comment = NULL;
	}
	return 0;
}

/* the rule's recent lists (the pre-pass of a streamed table) */
static int scan_exts(struct xl_parse *p)
{
	struct xl_ext *e;

	list_for_each_entry(e, xl_xt_exts(p->xr), list) {
		if (e->match)
			xl_scan_ext(p->r, e);
	}
	return 0;
}

/*
 * The extensions whose mapping does nothing but build the rule's IR: no
 * set, meter or chain declared, nothing noted for later rules, nothing
 * looked up outside the input, and whose libxtables parse writes nothing
 * to stderr on a rule it takes (NFLOG warns of --nflog-range, libxt_iprange
 * has an fprintf: neither is here). memo.c prints later rules of the same
 * words from this one's text.
 */
static const char *const xl_memo_exts[] = {
	"CHECKSUM", "CLASSIFY", "CONNMARK", "DNAT", "DSCP", "HL", "LOG",
	"MARK", "MASQUERADE", "NFQUEUE", "NOTRACK", "REDIRECT",
	"REJECT", "SNAT", "TCPMSS", "TOS", "TTL",
	"addrtype", "ah", "comment", "connmark", "conntrack", "dscp", "esp",
	"hl", "icmp", "icmp6", "length", "limit", "mac", "mark",
	"multiport", "owner", "pkttype", "state", "tcp", "tcpmss", "tos",
	"ttl", "udp", "udplite",
};

static bool exts_memo_ok(struct xl_parse *p)
{
	struct xl_ext *e;
	unsigned int k;

	list_for_each_entry(e, xl_xt_exts(p->xr), list) {
		for (k = 0; k < sizeof(xl_memo_exts) / sizeof(xl_memo_exts[0]);
		     k++) {
			if (!xl_strcmp0(e->name, xl_memo_exts[k]))
				break;
		}
		if (k == sizeof(xl_memo_exts) / sizeof(xl_memo_exts[0]))
			return false;
	}
	return true;
}

/*
 * Parse the options of @tok, then either build the IR rule or, with
 * @scan, only look at the extensions parsed (xl_scan_ext).
 */
static int parse_rule(struct xl_rule *r, struct xl_token *tok,
		      unsigned int n, bool scan)
{
	struct xl_parse p;
	char *argv[64];		/* most rules: no allocation */
	unsigned int i;
	int ret = -1;

	/* zeroed but for the error text (the last member, 512 bytes) */
	memset(&p, 0, offsetof(struct xl_parse, err));
	p.err[0] = '\0';
	p.r = r;
	p.tok = tok;
	p.n = n;
	p.verdict = NFT_CONTINUE;

	p.argv = n < 64 ? argv : calloc(n + 1, sizeof(char *));
	p.xr = xl_xt_rule_alloc();
	if (!p.argv || !p.xr)
		goto out;
	for (i = 0; i < n; i++)
		p.argv[i] = tok[i].text;
	p.argv[n] = NULL;
	if (parse_tokens(&p) < 0 || final_checks(&p) < 0)
		goto out;
	if (p.skip) {
		ret = scan ? 0 : 1;
		goto out;
	}
	ret = scan ? scan_exts(&p) : build_rule(&p);
	if (!scan && r->memo_want && ret == 0)
		r->memo_ok = exts_memo_ok(&p);
out:
	free(p.src.list);
	free(p.dst.list);
	xl_xt_rule_free(p.xr);
	if (p.argv != argv)
		free(p.argv);
	return ret;
}

/**
 * xl_parse_rule - parse a rule's options into r->rule
 * @r: the rule being translated (table, chain and an empty IR rule set)
 * @tok: the tokens after "-A CHAIN"; @n: how many
 *
 * Returns 0, 1 when the rule is for the other family (-4/-6) and is
 * skipped, or -1 with the error queued.
 */
int xl_parse_rule(struct xl_rule *r, struct xl_token *tok, unsigned int n)
{
	return parse_rule(r, tok, n, false);
}

int xl_scan_rule(struct xl_rule *r, struct xl_token *tok, unsigned int n)
{
	return parse_rule(r, tok, n, true);
}
