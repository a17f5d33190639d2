// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IR printer: tables, chains, sets, objects, flowtables and rules, laid
 * out as stock nft 1.0.6 lists a ruleset. Expressions are in
 * print_expr.c, statements in print_stmt.c.
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_synproxy.h>
#include "printer.h"
#include "delin_pack.h"

static bool with_handles(const struct output_ctx *octx)
{
	return octx->flags & NFTC_OUTPUT_HANDLE;
}

static void print_handle(struct output_ctx *octx, const struct handle *h)
{
	if (with_handles(octx))
		fprintf(octx->f, " # handle %" PRIu64, h->handle.id);
}

static const char *const family_names[] = {
	[NFPROTO_INET]		= "inet",
	[NFPROTO_IPV4]		= "ip",
	[NFPROTO_ARP]		= "arp",
	[NFPROTO_NETDEV]	= "netdev",
	[NFPROTO_BRIDGE]	= "bridge",
	[NFPROTO_IPV6]		= "ip6",
};

/**
 * nftc_family_name - the nft name of NFPROTO_* @family
 */
const char *nftc_family_name(uint32_t family)
{
	if (family < sizeof(family_names) / sizeof(family_names[0]) &&
	    family_names[family])
		return family_names[family];
	return "unknown";
}

/**
 * nftc_print_time - print a time in ms as nft does ("1h2m", "10s")
 */
void nftc_print_time(struct output_ctx *octx, uint64_t ms)
{
	nftc_time_print(octx->f, ms, octx->flags & NFTC_OUTPUT_SECONDS);
}

/* -------------------------------------------------------------- hooks */

static const char *const inet_hooks[] = {
	[NF_INET_PRE_ROUTING]	= "prerouting",
	[NF_INET_LOCAL_IN]	= "input",
	[NF_INET_FORWARD]	= "forward",
	[NF_INET_LOCAL_OUT]	= "output",
	[NF_INET_POST_ROUTING]	= "postrouting",
	[NF_INET_INGRESS]	= "ingress",
};

static const char *const arp_hooks[] = {
	[0] = "input", [1] = "output", [2] = "forward",
};

static const char *const netdev_hooks[] = {
	[NF_NETDEV_INGRESS]	= "ingress",
	[NF_NETDEV_EGRESS]	= "egress",
};

static const char *hook_name(uint32_t family, unsigned int hook,
			     const struct name_ref *written)
{
	const char *const *tbl = inet_hooks;
	size_t n = sizeof(inet_hooks) / sizeof(inet_hooks[0]);

	if (family == NFPROTO_ARP) {
		tbl = arp_hooks;
		n = sizeof(arp_hooks) / sizeof(arp_hooks[0]);
	} else if (family == NFPROTO_NETDEV) {
		tbl = netdev_hooks;
		n = sizeof(netdev_hooks) / sizeof(netdev_hooks[0]);
	}
	if (hook < n && tbl[hook])
		return tbl[hook];
	return written && written->name ? written->name : "unknown";
}

/* ---------------------------------------------------------- priorities */

/*
 * Standard priority names. A name applies to some families and hooks
 * only (dstnat: prerouting, srcnat: postrouting, ...): @hooks is a mask
 * of NF_INET_* hooks, 0 meaning every hook.
 */
struct std_prio {
	const char	*name;
	int		prio;
	bool		bridge;		/* bridge table (else ip/ip6/inet) */
	bool		netdev_arp;	/* also usable in netdev/arp */
	unsigned int	hooks;
};

static const struct std_prio std_prios[] = {
	{ "raw",	-300,	false,	false,	0 },
	{ "mangle",	-150,	false,	false,	0 },
	{ "dstnat",	-100,	false,	false,	1 << NF_INET_PRE_ROUTING },
	{ "filter",	0,	false,	true,	0 },
	{ "security",	50,	false,	false,	0 },
	{ "srcnat",	100,	false,	false,	1 << NF_INET_POST_ROUTING },
	{ "dstnat",	-300,	true,	false,	1 << NF_INET_PRE_ROUTING },
	{ "filter",	-200,	true,	false,	0 },
	{ "out",	100,	true,	false,	1 << NF_INET_LOCAL_OUT },
	{ "srcnat",	300,	true,	false,	1 << NF_INET_POST_ROUTING },
};

static bool std_prio_usable(const struct std_prio *p, uint32_t family,
			    unsigned int hook)
{
	if (family == NFPROTO_BRIDGE)
		return p->bridge && (!p->hooks || (p->hooks & (1u << hook)));
	if (p->bridge)
		return false;
	if (family == NFPROTO_NETDEV || family == NFPROTO_ARP)
		return p->netdev_arp;
	return !p->hooks || (hook < 32 && (p->hooks & (1u << hook)));
}

/* "filter", "filter + 5", "mangle - 10", or the number (as stock). */
static void print_priority(struct output_ctx *octx, uint32_t family,
			   unsigned int hook, int prio)
{
	unsigned int i;
	int off;

	if (!(octx->flags & NFTC_OUTPUT_NUMERIC_ALL)) {
		for (i = 0; i < sizeof(std_prios) / sizeof(std_prios[0]);
		     i++) {
			if (!std_prio_usable(&std_prios[i], family, hook))
				continue;
			off = prio - std_prios[i].prio;
			if (off < -10 || off > 10)
				continue;
			nftc_puts(std_prios[i].name, octx->f);
			if (off > 0)
				fprintf(octx->f, " + %d", off);
			else if (off < 0)
				fprintf(octx->f, " - %d", -off);
			return;
		}
	}
	fprintf(octx->f, "%d", prio);
}

/* ------------------------------------------------------------ devices */

/* A device name from the IR: symbol text or string constant. */
static void print_dev_name(struct output_ctx *octx, const struct expr *e,
			   bool quoted)
{
	unsigned int i, nb;

	if (quoted)
		nftc_putc('"', octx->f);
	if (e->kind == EXPR_SYMBOL || e->kind == EXPR_VARIABLE) {
		nftc_puts(e->sym.identifier, octx->f);
	} else if (e->kind == EXPR_VALUE) {
		nb = BITS_TO_BYTES(e->value.len);
		for (i = 0; i < nb && e->value.data[i]; i++)
			nftc_putc(e->value.data[i], octx->f);
	} else if (e->kind == EXPR_SET_ELEM && e->elem.key) {
		print_dev_name(octx, e->elem.key, false);
	} else {
		nftc_print_expr(octx, e);
	}
	if (quoted)
		nftc_putc('"', octx->f);
}

static unsigned int dev_count(const struct expr *devs)
{
	if (!devs)
		return 0;
	if (devs->kind == EXPR_LIST || devs->kind == EXPR_SET)
		return devs->size;
	return 1;
}

static void print_devs(struct output_ctx *octx, const struct expr *devs,
		       bool quoted)
{
	const struct expr *i;
	const char *d = "";

	if (devs->kind != EXPR_LIST && devs->kind != EXPR_SET) {
		print_dev_name(octx, devs, quoted);
		return;
	}
	list_for_each_entry(i, &devs->expressions, list) {
		nftc_puts(d, octx->f);
		print_dev_name(octx, i, quoted);
		d = ", ";
	}
}

/* -------------------------------------------------------------- rules */

/*
 * Dependencies. Stock lists a rule without the protocol matches that a
 * later statement implies ("meta l4proto tcp tcp dport 22" is "tcp dport
 * 22"), whether generated or written, since the kernel keeps no
 * difference. A candidate is "SELECTOR == VALUE" on a protocol selector;
 * it goes when a later statement reads a header it selects.
 */
struct dep_cand {
	const struct stmt		*stmt;
	const struct proto_desc		*upper;	/* header it selects */
	const struct proto_desc		*icmp;	/* or: icmp type match */
	uint64_t			type;
	bool				dropped;
};

#define MAX_DEPS	16

static const struct expr *dep_rel(const struct stmt *s)
{
	const struct expr *e = s->kind == STMT_EXPRESSION ? s->expr : NULL;

	if (!e || e->kind != EXPR_RELATIONAL ||
	    (e->op != OP_EQ && e->op != OP_IMPLICIT) ||
	    e->pair.right->kind != EXPR_VALUE ||
	    e->pair.right->value.len > 64)
		return NULL;
	return e;
}

static bool dep_candidate(const struct stmt *s, struct dep_cand *c)
{
	const struct expr *rel = dep_rel(s), *l;
	const struct proto_desc *d;
	uint64_t v;

	if (!rel)
		return false;
	l = rel->pair.left;
	v = value_get_u64(&rel->pair.right->value);
	memset(c, 0, sizeof(*c));
	c->stmt = s;
	if (l->kind == EXPR_META) {
		switch (l->meta.key) {
		case NFT_META_NFPROTO:
			c->upper = proto_find_upper(&proto_inet, v);
			break;
		case NFT_META_L4PROTO:
			c->upper = proto_find_upper(&proto_inet_service, v);
			break;
		case NFT_META_PROTOCOL:
			c->upper = proto_find_upper(&proto_netdev, v);
			break;
		case NFT_META_IIFTYPE:
			c->upper = proto_dev_desc(v);
			break;
		default:
			break;
		}
		return c->upper != NULL;
	}
	if (l->kind != EXPR_PAYLOAD || l->payload.is_raw || !l->payload.tmpl)
		return false;
	d = l->payload.desc;
	if (!d || !d->protocol_key ||
	    l->payload.tmpl != &d->templates[d->protocol_key])
		return false;
	if (d == &proto_icmp || d == &proto_icmp6) {
		c->icmp = d;
		c->type = v;
		return true;
	}
	c->upper = proto_find_upper(d, v);
	return c->upper != NULL;
}

/* Does reading header @x tell that @d is there (@x is @d or sits on it
 * and on no other family's network header)? */
static bool desc_implies(const struct proto_desc *x,
			 const struct proto_desc *d)
{
	if (x == d)
		return true;
	/* the transport tables of ip and ip6 are shared: only the ICMP
	 * flavours tell the network header */
	if (d == &proto_ip)
		return x == &proto_icmp || x == &proto_igmp;
	if (d == &proto_ip6)
		return x == &proto_icmp6;
	return proto_find_num(d, x) >= 0;
}

static void dep_use(struct dep_cand *c, unsigned int n,
		    const struct proto_desc *x,
		    const struct proto_hdr_template *t)
{
	unsigned int i;

	for (i = n; i-- > 0;) {
		if (!c[i].stmt)
			break;		/* behind a non-match statement */
		if (c[i].dropped)
			continue;
		if (c[i].upper && x && desc_implies(x, c[i].upper)) {
			/* what it selected tells what lies below it */
			c[i].dropped = true;
			x = c[i].upper;
			continue;
		}
		if (c[i].icmp && c[i].icmp == x && t &&
		    t->icmp_dep != PROTO_ICMP_ANY &&
		    proto_icmp_deps[t->icmp_dep].ntypes == 1 &&
		    proto_icmp_deps[t->icmp_dep].types[0] == c[i].type) {
			c[i].dropped = true;
			return;
		}
	}
}

static void dep_walk(struct dep_cand *c, unsigned int n, const struct expr *e)
{
	const struct expr *i;

	if (!e)
		return;
	switch (e->kind) {
	case EXPR_PAYLOAD:
		if (!e->payload.is_raw)
			dep_use(c, n, e->payload.desc, e->payload.tmpl);
		break;
	case EXPR_EXTHDR:
		/* sctp chunks have no dependency: stock keeps the match */
		if (e->exthdr.op == NFT_EXTHDR_OP_SCTP)
			break;
		dep_use(c, n, e->exthdr.op == NFT_EXTHDR_OP_TCPOPT ?
			&proto_tcp : e->exthdr.op == NFT_EXTHDR_OP_IPV4 ?
			&proto_ip : &proto_ip6, NULL);
		break;
	case EXPR_CT:
		if (e->dtype == &ipaddr_type)
			dep_use(c, n, &proto_ip, NULL);
		else if (e->dtype == &ip6addr_type)
			dep_use(c, n, &proto_ip6, NULL);
		break;
	case EXPR_PREFIX:
		dep_walk(c, n, e->prefix.expr);
		break;
	case EXPR_RANGE:
	case EXPR_MAPPING:
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
		dep_walk(c, n, e->pair.left);
		dep_walk(c, n, e->pair.right);
		break;
	case EXPR_UNARY:
		dep_walk(c, n, e->unary.arg);
		break;
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->expressions, list)
			dep_walk(c, n, i);
		break;
	case EXPR_MAP:
		dep_walk(c, n, e->map.key);
		break;
	case EXPR_HASH:
		dep_walk(c, n, e->hash.expr);
		break;
	case EXPR_SET_ELEM:
		dep_walk(c, n, e->elem.key);
		break;
	default:
		break;
	}
}

/*
 * Stock keeps the dependency of a nat port map keyed by one transport
 * field: "ip6 nexthdr tcp redirect to :tcp dport map { ... }" (not so
 * for address maps and concatenations).
 */
static bool nat_map_keeps_dep(const struct expr *e)
{
	return e && e->kind == EXPR_MAP && e->map.key &&
	       e->map.key->kind == EXPR_PAYLOAD &&
	       e->map.key->payload.base == PROTO_BASE_TRANSPORT_HDR;
}

static void dep_walk_stmt(struct dep_cand *c, unsigned int n,
			  const struct stmt *s)
{
	switch (s->kind) {
	case STMT_EXPRESSION:
	case STMT_VERDICT:
		dep_walk(c, n, s->expr);
		break;
	case STMT_PAYLOAD:
	case STMT_EXTHDR:
		dep_walk(c, n, s->payload.lhs);
		dep_walk(c, n, s->payload.val);
		break;
	case STMT_META:
		dep_walk(c, n, s->meta.expr);
		break;
	case STMT_CT:
		dep_walk(c, n, s->ct.expr);
		break;
	case STMT_SET:
	case STMT_MAP:
		dep_walk(c, n, s->set.key);
		dep_walk(c, n, s->set.data);
		break;
	case STMT_NAT:
		dep_walk(c, n, s->nat.addr);
		if (!nat_map_keeps_dep(s->nat.proto))
			dep_walk(c, n, s->nat.proto);
		break;
	case STMT_DUP:
		dep_walk(c, n, s->dup.to);
		break;
	case STMT_OBJREF:
		dep_walk(c, n, s->objref.expr);
		break;
	case STMT_REJECT:
		if (s->reject.type == NFT_REJECT_TCP_RST)
			break;
		if (s->reject.family == NFPROTO_IPV4)
			dep_use(c, n, &proto_ip, NULL);
		else if (s->reject.family == NFPROTO_IPV6)
			dep_use(c, n, &proto_ip6, NULL);
		break;
	default:
		break;
	}
}

/*
 * A generated dependency is left out, except an icmp type set (echo
 * request/reply for "icmp id"), which stock lists.
 */
static bool stmt_is_implicit(const struct stmt *s)
{
	return s->kind == STMT_EXPRESSION && s->expr &&
	       (s->expr->flags & EXPR_F_IMPLICIT_DEP) &&
	       (s->expr->kind != EXPR_RELATIONAL ||
		s->expr->pair.right->kind == EXPR_VALUE);
}

static bool stmt_dropped(const struct dep_cand *c, unsigned int n,
			 const struct stmt *s)
{
	unsigned int i;

	if (stmt_is_implicit(s))
		return true;
	for (i = 0; i < n; i++) {
		if (c[i].stmt == s)
			return c[i].dropped;
	}
	return false;
}

/*
 * In tables of several network families, a transport header depends on
 * "meta l4proto": an "ip protocol" match is the user's own.
 */
static bool dep_kept_by_family(const struct output_ctx *octx,
			       const struct stmt *s)
{
	const struct expr *l = s->expr->pair.left;

	if (octx->family != NFPROTO_INET && octx->family != NFPROTO_BRIDGE &&
	    octx->family != NFPROTO_NETDEV)
		return false;
	return l->kind == EXPR_PAYLOAD &&
	       l->payload.base == PROTO_BASE_NETWORK_HDR;
}

/*
 * Only matches that follow a dependency directly can drop it: any other
 * statement in between (counter, mark set, ...) keeps it, as in stock.
 * A slot with a NULL stmt marks such a barrier.
 */
static unsigned int deps_find(const struct output_ctx *octx,
			      const struct rule *rule, struct dep_cand *c)
{
	const struct stmt *s;
	unsigned int n = 0;

	list_for_each_entry(s, &rule->stmts, list) {
		dep_walk_stmt(c, n, s);
		if (n >= MAX_DEPS - 1)
			continue;
		if (s->kind != STMT_EXPRESSION) {
			memset(&c[n++], 0, sizeof(*c));
			continue;
		}
		if (dep_candidate(s, &c[n]) && !dep_kept_by_family(octx, s))
			n++;
	}
	return n;
}

/**
 * nftc_print_rule - print a rule's statements on one line
 * @octx: output context
 * @rule: the rule; generated dependencies are left out
 */
void nftc_print_rule(struct output_ctx *octx, const struct rule *rule)
{
	nftc_print_rule_stmts(octx, rule);
	if (rule->comment) {
		nftc_puts(" comment \"", octx->f);
		nftc_puts(rule->comment, octx->f);
		nftc_putc('"', octx->f);
	}
	print_handle(octx, &rule->handle);
}

/**
 * nftc_print_rule_stmts - the statements part of nftc_print_rule()
 */
void nftc_print_rule_stmts(struct output_ctx *octx, const struct rule *rule)
{
	struct dep_cand deps[MAX_DEPS];
	unsigned int family = octx->family, n;
	const struct stmt *s;
	const char *d = "";

	if (rule->handle.family)
		octx->family = rule->handle.family;
	/* exact text keeps the protocol matches written (not generated) */
	n = octx->flags & NFTC_OUTPUT_EXACT ? 0 : deps_find(octx, rule, deps);
	list_for_each_entry(s, &rule->stmts, list) {
		if (stmt_dropped(deps, n, s))
			continue;
		nftc_puts(d, octx->f);
		nftc_print_stmt(octx, s);
		d = " ";
	}
	octx->family = family;
}

/* " # handle N" with -a */
void nftc_print_handle(struct output_ctx *octx, const struct handle *h)
{
	print_handle(octx, h);
}

/* ------------------------------------------------------------- chains */

static const char *policy_name(const struct expr *p)
{
	if (!p)
		return "accept";
	switch (p->kind) {
	case EXPR_SYMBOL:
	case EXPR_VARIABLE:
		return p->sym.identifier;
	case EXPR_VERDICT:
		return p->verdict.verdict == NF_DROP ? "drop" : "accept";
	case EXPR_VALUE:
		return value_get_u64(&p->value) == NF_DROP ? "drop" : "accept";
	default:
		return "accept";
	}
}

static void print_chain_hook(struct output_ctx *octx,
			     const struct chain *chain)
{
	uint32_t family = chain->handle.family;
	unsigned int n = dev_count(chain->devices);

	fprintf(octx->f, "\t\ttype %s hook %s",
		chain->type.name ? chain->type.name : "filter",
		hook_name(family, chain->hooknum, &chain->hook_name));
	if (n == 1) {
		nftc_puts(" device ", octx->f);
		print_devs(octx, chain->devices, true);
	} else if (n > 1) {
		nftc_puts(" devices = { ", octx->f);
		print_devs(octx, chain->devices, true);
		nftc_puts(" }", octx->f);
	}
	nftc_puts(" priority ", octx->f);
	print_priority(octx, family, chain->hooknum, chain->prio);
	fprintf(octx->f, "; policy %s;\n", policy_name(chain->policy));
}

/**
 * nftc_print_chain_open - a chain block up to its rules: its name,
 * comment and hook lines
 */
void nftc_print_chain_open(struct output_ctx *octx, const struct chain *chain)
{
	fprintf(octx->f, "\tchain %s {", chain->handle.chain.name ?
		chain->handle.chain.name : "");
	print_handle(octx, &chain->handle);
	nftc_putc('\n', octx->f);
	if (chain->comment)
		fprintf(octx->f, "\t\tcomment \"%s\"\n", chain->comment);
	if (chain->is_base)
		print_chain_hook(octx, chain);
}

/**
 * nftc_print_chain - print a chain block ("\tchain NAME { ... }\n")
 */
void nftc_print_chain(struct output_ctx *octx, const struct chain *chain)
{
	const struct rule *r;

	nftc_print_chain_open(octx, chain);
	list_for_each_entry(r, &chain->rules, list) {
		nftc_puts("\t\t", octx->f);
		nftc_print_rule(octx, r);
		nftc_putc('\n', octx->f);
	}
	nftc_puts("\t}\n", octx->f);
}

/* --------------------------------------------------------------- sets */

static const char *const obj_type_names[] = {
	[NFT_OBJECT_COUNTER]	= "counter",
	[NFT_OBJECT_QUOTA]	= "quota",
	[NFT_OBJECT_CT_HELPER]	= "ct helper",
	[NFT_OBJECT_LIMIT]	= "limit",
	[NFT_OBJECT_CT_TIMEOUT]	= "ct timeout",
	[NFT_OBJECT_SECMARK]	= "secmark",
	[NFT_OBJECT_SYNPROXY]	= "synproxy",
	[NFT_OBJECT_CT_EXPECT]	= "ct expectation",
};

static const char *obj_type_name(uint32_t type)
{
	if (type < sizeof(obj_type_names) / sizeof(obj_type_names[0]) &&
	    obj_type_names[type])
		return obj_type_names[type];
	return "unknown";
}

static void print_type_of(struct output_ctx *octx, const struct expr *e,
			  bool typeof_expr)
{
	if (!e)
		return;
	if (typeof_expr)
		nftc_print_expr(octx, e);
	else
		nftc_puts(e->dtype && e->dtype->name ? e->dtype->name : "invalid",
		      octx->f);
}

static void print_set_type(struct output_ctx *octx, const struct set *set)
{
	nftc_puts(set->key_typeof ? "\t\ttypeof " : "\t\ttype ", octx->f);
	print_type_of(octx, set->key, set->key_typeof);
	if (set->flags & SET_F_OBJECT) {
		fprintf(octx->f, " : %s", obj_type_name(set->objtype));
	} else if ((set->flags & SET_F_MAP) && set->data) {
		nftc_puts(" : ", octx->f);
		/* stock writes typeof data only with a typeof key */
		print_type_of(octx, set->data,
			      set->data_typeof && set->key_typeof);
	}
	nftc_putc('\n', octx->f);
}

static const struct {
	uint32_t	flag;
	const char	*name;
} set_flag_names[] = {
	{ SET_F_CONSTANT,	"constant" },
	{ SET_F_EVAL,		"dynamic" },
	{ SET_F_INTERVAL,	"interval" },
	{ SET_F_TIMEOUT,	"timeout" },
};

static void print_set_flags(struct output_ctx *octx, uint32_t flags)
{
	const char *d = "\t\tflags ";
	unsigned int i;

	for (i = 0; i < sizeof(set_flag_names) / sizeof(set_flag_names[0]);
	     i++) {
		if (flags & set_flag_names[i].flag) {
			fprintf(octx->f, "%s%s", d, set_flag_names[i].name);
			d = ",";
		}
	}
	if (*d == ',')
		nftc_putc('\n', octx->f);
}

static const struct datatype *set_key_dtype(const struct set *set)
{
	return set->key ? set->key->dtype : NULL;
}

/**
 * nftc_print_set - print a named set or map declaration
 */
/* A listing's packed element @k (delin_pack.h). */
static void pack_print(const void *arg, unsigned int k,
		       struct output_ctx *octx)
{
	const struct delin_pack *p = arg;
	struct expr *e;

	if (delin_pack_print(p, k, octx->f))
		return;
	e = delin_pack_elem(p, k);
	nftc_print_expr(octx, e);
	expr_free(e);
}

void nftc_print_set(struct output_ctx *octx, const struct set *set)
{
	unsigned int flags = octx->flags;
	const struct stmt *s;

	fprintf(octx->f, "\t%s %s {",
		(set->flags & (SET_F_MAP | SET_F_OBJECT)) ? "map" : "set",
		set->handle.set.name ? set->handle.set.name : "");
	print_handle(octx, &set->handle);
	nftc_putc('\n', octx->f);
	print_set_type(octx, set);
	if (set->policy != NFT_SET_POL_PERFORMANCE)
		fprintf(octx->f, "\t\tpolicy %s\n",
			set->policy == NFT_SET_POL_MEMORY ? "memory" :
							    "unknown");
	if (set->size)
		fprintf(octx->f, "\t\tsize %u\n", set->size);
	print_set_flags(octx, set->flags);
	octx->flags |= NFTC_OUTPUT_STATELESS;
	list_for_each_entry(s, &set->stmts, list) {
		nftc_puts("\t\t", octx->f);
		nftc_print_stmt(octx, s);
		nftc_putc('\n', octx->f);
	}
	octx->flags = flags;
	if (set->automerge)
		nftc_puts("\t\tauto-merge\n", octx->f);
	if (set->timeout) {
		nftc_puts("\t\ttimeout ", octx->f);
		nftc_print_time(octx, set->timeout);
		nftc_putc('\n', octx->f);
	}
	if (set->gc_int) {
		nftc_puts("\t\tgc-interval ", octx->f);
		nftc_print_time(octx, set->gc_int);
		nftc_putc('\n', octx->f);
	}
	if (set->comment)
		fprintf(octx->f, "\t\tcomment \"%s\"\n", set->comment);
	if (set->init && set->init->kind == EXPR_SET && set->init->size) {
		nftc_puts("\t\telements = ", octx->f);
		nftc_print_set_elems(octx, set->init, set_key_dtype(set),
				     true);
		nftc_putc('\n', octx->f);
	} else if (delin_pack_count(set->dpack)) {
		nftc_puts("\t\telements = ", octx->f);
		nftc_print_set_elems_from(octx, delin_pack_count(set->dpack),
					  pack_print, set->dpack,
					  set_key_dtype(set), true);
		nftc_putc('\n', octx->f);
	}
	nftc_puts("\t}\n", octx->f);
}

/* ------------------------------------------------------------ objects */

static void print_limit_obj(struct output_ctx *octx, const struct obj *o)
{
	bool inv = o->limit.flags & NFT_LIMIT_F_INV;

	fprintf(octx->f, "\t\trate %s", inv ? "over " : "");
	if (o->limit.type == NFT_LIMIT_PKT_BYTES) {
		nftc_print_bytes(octx, o->limit.rate);
		fprintf(octx->f, "/%s", nftc_limit_unit_name(o->limit.unit));
		if (o->limit.burst) {
			nftc_puts(" burst ", octx->f);
			nftc_print_bytes(octx, o->limit.burst);
		}
	} else {
		fprintf(octx->f, "%" PRIu64 "/%s", o->limit.rate,
			nftc_limit_unit_name(o->limit.unit));
		if (o->limit.burst && o->limit.burst != 5)
			fprintf(octx->f, " burst %u packets", o->limit.burst);
	}
	nftc_putc('\n', octx->f);
}

static void print_synproxy_obj(struct output_ctx *octx, const struct obj *o)
{
	uint32_t f = o->synproxy.flags;

	if (f & NF_SYNPROXY_OPT_MSS)
		fprintf(octx->f, "\t\tmss %u\n", o->synproxy.mss);
	if (f & NF_SYNPROXY_OPT_WSCALE)
		fprintf(octx->f, "\t\twscale %u\n", o->synproxy.wscale);
	if (f & (NF_SYNPROXY_OPT_TIMESTAMP | NF_SYNPROXY_OPT_SACK_PERM)) {
		nftc_puts("\t\t", octx->f);
		if (f & NF_SYNPROXY_OPT_TIMESTAMP)
			nftc_puts("timestamp", octx->f);
		if ((f & NF_SYNPROXY_OPT_TIMESTAMP) &&
		    (f & NF_SYNPROXY_OPT_SACK_PERM))
			nftc_putc(' ', octx->f);
		if (f & NF_SYNPROXY_OPT_SACK_PERM)
			nftc_puts("sack-perm", octx->f);
		nftc_putc('\n', octx->f);
	}
}

static void print_obj_data(struct output_ctx *octx, const struct obj *o)
{
	bool stateless = octx->flags & NFTC_OUTPUT_STATELESS;
	struct expr *p;

	switch (o->type) {
	case NFT_OBJECT_COUNTER:
		if (stateless)	/* stock: an empty block */
			break;
		fprintf(octx->f, "\t\tpackets %" PRIu64 " bytes %" PRIu64 "\n",
			o->counter.packets, o->counter.bytes);
		break;
	case NFT_OBJECT_QUOTA:
		fprintf(octx->f, "\t\t%s",
			(o->quota.flags & NFT_QUOTA_F_INV) ? "over " : "");
		nftc_print_bytes(octx, o->quota.bytes);
		if (!stateless && o->quota.used) {
			nftc_puts(" used ", octx->f);
			nftc_print_bytes(octx, o->quota.used);
		}
		nftc_putc('\n', octx->f);
		break;
	case NFT_OBJECT_LIMIT:
		print_limit_obj(octx, o);
		break;
	case NFT_OBJECT_CT_HELPER:
		p = constant_expr_u64(&o->location, &inet_protocol_type,
				      BYTEORDER_HOST, 8, o->ct_helper.l4proto);
		fprintf(octx->f, "\t\ttype \"%s\" protocol ",
			o->ct_helper.name);
		nftc_print_expr(octx, p);
		expr_free(p);
		fprintf(octx->f, "\n\t\tl3proto %s\n",
			nftc_family_name(o->ct_helper.l3proto));
		break;
	case NFT_OBJECT_SYNPROXY:
		print_synproxy_obj(octx, o);
		break;
	case NFT_OBJECT_SECMARK:
		fprintf(octx->f, "\t\t\"%s\"\n", o->secmark.ctx);
		break;
	}
}

/**
 * nftc_print_obj - print a named stateful object block
 */
void nftc_print_obj(struct output_ctx *octx, const struct obj *obj)
{
	fprintf(octx->f, "\t%s %s {", obj_type_name(obj->type),
		obj->handle.obj.name ? obj->handle.obj.name : "");
	print_handle(octx, &obj->handle);
	nftc_putc('\n', octx->f);
	if (obj->comment)
		fprintf(octx->f, "\t\tcomment \"%s\"\n", obj->comment);
	print_obj_data(octx, obj);
	nftc_puts("\t}\n", octx->f);
}

/**
 * nftc_print_flowtable - print a flowtable block
 */
void nftc_print_flowtable(struct output_ctx *octx, const struct flowtable *ft)
{
	fprintf(octx->f, "\tflowtable %s {", ft->handle.flowtable.name ?
		ft->handle.flowtable.name : "");
	print_handle(octx, &ft->handle);
	fprintf(octx->f, "\n\t\thook %s priority ",
		hook_name(NFPROTO_NETDEV, ft->hooknum, &ft->hook_name));
	print_priority(octx, NFPROTO_NETDEV, ft->hooknum, ft->prio);
	nftc_putc('\n', octx->f);
	if (dev_count(ft->devices)) {
		nftc_puts("\t\tdevices = { ", octx->f);
		print_devs(octx, ft->devices, false);
		nftc_puts(" }\n", octx->f);
	}
	if (ft->flags & NFT_FLOWTABLE_COUNTER)
		nftc_puts("\t\tcounter\n", octx->f);
	if (ft->flags & NFT_FLOWTABLE_HW_OFFLOAD)
		nftc_puts("\t\tflags offload\n", octx->f);
	nftc_puts("\t}\n", octx->f);
}

/* ------------------------------------------------------------- tables */

static void print_table_options(struct output_ctx *octx,
				const struct table *table, const char **delim)
{
	if (table->flags & NFT_TABLE_F_DORMANT) {
		nftc_puts("\tflags dormant\n", octx->f);
		*delim = "\n";
	}
	if (table->comment)
		fprintf(octx->f, "\tcomment \"%s\"\n", table->comment);
}

/**
 * nftc_print_table - print a table with everything declared in it
 *
 * Order as stock lists it: objects, named sets, flowtables, chains, a
 * blank line between blocks.
 */
void nftc_print_table(struct output_ctx *octx, const struct table *table)
{
	const struct flowtable *ft;
	const struct chain *chain;
	const struct obj *obj;
	const struct set *set;
	unsigned int family = octx->family;
	const char *delim = "";

	octx->family = table->handle.family;
	fprintf(octx->f, "table %s %s {",
		nftc_family_name(table->handle.family),
		table->handle.table.name ? table->handle.table.name : "");
	print_handle(octx, &table->handle);
	nftc_putc('\n', octx->f);
	print_table_options(octx, table, &delim);
	list_for_each_entry(obj, &table->objs, list) {
		nftc_puts(delim, octx->f);
		nftc_print_obj(octx, obj);
		delim = "\n";
	}
	list_for_each_entry(set, &table->sets, list) {
		if (set->flags & SET_F_ANONYMOUS)
			continue;
		nftc_puts(delim, octx->f);
		nftc_print_set(octx, set);
		delim = "\n";
	}
	list_for_each_entry(ft, &table->flowtables, list) {
		nftc_puts(delim, octx->f);
		nftc_print_flowtable(octx, ft);
		delim = "\n";
	}
	list_for_each_entry(chain, &table->chains, list) {
		nftc_puts(delim, octx->f);
		nftc_print_chain(octx, chain);
		delim = "\n";
	}
	nftc_puts("}\n", octx->f);
	octx->family = family;
}

/**
 * nftc_print_ruleset - print every table of @tables (struct table list)
 */
void nftc_print_ruleset(struct output_ctx *octx,
			const struct list_head *tables)
{
	const struct table *table;

	list_for_each_entry(table, tables, list)
		nftc_print_table(octx, table);
}
