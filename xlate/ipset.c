// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipset references: "-m set --match-set NAME src,dst" and "-j SET
 * --add-set/--del-set" become lookups and updates of a named nft set.
 *
 * libxt_set resolves the set name in the running kernel while parsing,
 * so these options are parsed here instead (iptables-extensions(8)
 * syntax). What the set holds comes from `ipset save` output given to
 * xlate_read_ipsets(): each ipset type dimension is one table row (its
 * nft type and the packet fields a src/dst flag selects), each set one
 * nft set declared in the table of the first rule that uses it.
 */
#define _GNU_SOURCE
#include <config.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "xlate_int.h"
#include "xlate_map.h"
#include "datatype.h"
#include "keys.h"
#include "proto.h"

#define LOC	(&r->loc)

enum xl_ipdim {
	XL_DIM_IP,
	XL_DIM_NET,
	XL_DIM_PORT,		/* hash types: protocol and port */
	XL_DIM_BPORT,		/* bitmap:port: the port alone */
	XL_DIM_MAC,
	XL_DIM_IFACE,
	XL_DIM_MARK,
	__XL_DIM_MAX
};

/**
 * struct xl_dim_desc - one ipset dimension
 * @types: nft type names of its key part(s); @nparts: 1 or 2
 * @interval: its elements are networks
 */
static const struct xl_dim_desc {
	const char	*name;
	const char	*types[2];
	const char	*types6[2];
	unsigned int	nparts;
	bool		interval;
} xl_dims[__XL_DIM_MAX] = {
	[XL_DIM_IP]	= { "ip", { "ipv4_addr" }, { "ipv6_addr" }, 1 },
	[XL_DIM_NET]	= { "net", { "ipv4_addr" }, { "ipv6_addr" }, 1,
			    true },
	[XL_DIM_PORT]	= { "port", { "inet_proto", "inet_service" },
			    { "inet_proto", "inet_service" }, 2 },
	[XL_DIM_BPORT]	= { "port", { "inet_service" }, { "inet_service" },
			    1 },
	[XL_DIM_MAC]	= { "mac", { "ether_addr" }, { "ether_addr" }, 1 },
	[XL_DIM_IFACE]	= { "iface", { "ifname" }, { "ifname" }, 1 },
	[XL_DIM_MARK]	= { "mark", { "mark" }, { "mark" }, 1 },
};

#define XL_IPSET_DIMS	3

/**
 * struct xl_ipset - a set of the `ipset save` input
 * @elems: the "add" lines' element texts
 */
struct xl_ipset {
	struct list_head	list;
	char			*name;
	enum xl_ipdim		dims[XL_IPSET_DIMS];
	unsigned int		ndims;
	bool			v6;
	bool			interval;
	uint64_t		timeout;	/* ms, 0 none */
	char			**elems;
	unsigned int		nelems;
	struct location		loc;
};

struct xl_ipset *xl_ipset_find(struct xlate_ctx *ctx, const char *name)
{
	struct xl_ipset *s;

	list_for_each_entry(s, &ctx->ipsets, list) {
		if (!strcmp(s->name, name))
			return s;
	}
	return NULL;
}

void xl_ipsets_free(struct xlate_ctx *ctx)
{
	struct xl_ipset *s, *n;
	unsigned int i;

	list_for_each_entry_safe(s, n, &ctx->ipsets, list) {
		for (i = 0; i < s->nelems; i++)
			free(s->elems[i]);
		free(s->elems);
		free(s->name);
		free(s);
	}
}

/* "hash:ip,port" -> dims; -1 for a type nft sets cannot hold */
static int parse_type(struct xl_ipset *s, const char *type)
{
	char buf[64], *save, *d;
	bool bitmap = !strncmp(type, "bitmap:", 7);
	unsigned int k;

	if (strncmp(type, "hash:", 5) && !bitmap)
		return -1;
	snprintf(buf, sizeof(buf), "%s", strchr(type, ':') + 1);
	for (d = strtok_r(buf, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < __XL_DIM_MAX; k++) {
			if (!strcmp(xl_dims[k].name, d))
				break;
		}
		if (k == __XL_DIM_MAX || s->ndims == XL_IPSET_DIMS)
			return -1;
		if (k == XL_DIM_PORT && bitmap)
			k = XL_DIM_BPORT;
		s->dims[s->ndims++] = k;
		s->interval |= xl_dims[k].interval;
	}
	return s->ndims ? 0 : -1;
}

static void words(char *line, char **w, unsigned int *n, unsigned int max)
{
	char *save, *t;

	*n = 0;
	for (t = strtok_r(line, " \t", &save); t && *n < max;
	     t = strtok_r(NULL, " \t", &save))
		w[(*n)++] = t;
}

static int ipset_create(struct xlate_ctx *ctx, char **w, unsigned int n,
			const struct location *loc)
{
	struct xl_ipset *s;
	unsigned int i;

	if (n < 3)
		return erec_error(&ctx->erq, loc, "create: set name and type "
				  "expected");
	if (xl_ipset_find(ctx, w[1]))
		return erec_error(&ctx->erq, loc, "set %s created twice", w[1]);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	s->name = strdup(w[1]);
	s->loc = *loc;
	if (parse_type(s, w[2]) < 0) {
		erec_error(&ctx->erq, loc, "ipset type %s has no nftables "
			   "set equivalent", w[2]);
		free(s->name);
		free(s);
		return -1;
	}
	for (i = 3; i + 1 < n; i++) {
		if (!strcmp(w[i], "family"))
			s->v6 = !strcmp(w[++i], "inet6");
		else if (!strcmp(w[i], "timeout"))
			s->timeout = strtoull(w[++i], NULL, 10) * 1000;
	}
	list_add_tail(&s->list, &ctx->ipsets);
	return 0;
}

static int ipset_add(struct xlate_ctx *ctx, char **w, unsigned int n,
		     const struct location *loc)
{
	struct xl_ipset *s = n >= 3 ? xl_ipset_find(ctx, w[1]) : NULL;
	char **ne;
	unsigned int i;

	if (!s)
		return erec_error(&ctx->erq, loc, "add: unknown set%s", "");
	for (i = 3; i < n; i++) {
		if (!strcmp(w[i], "nomatch"))
			return erec_error(&ctx->erq, loc, "nomatch elements "
					  "(exceptions) have no nftables "
					  "equivalent%s", "");
	}
	ne = realloc(s->elems, (s->nelems + 1) * sizeof(*ne));
	if (!ne)
		return -1;
	s->elems = ne;
	s->elems[s->nelems++] = strdup(w[2]);
	if (strchr(w[2], '-') && s->dims[0] != XL_DIM_MAC &&
	    s->dims[0] != XL_DIM_IFACE)
		s->interval = true;
	if (strchr(w[2], '/'))
		s->interval = true;
	return 0;
}

/**
 * xlate_read_ipsets - the sets of `ipset save` output @data (taken over)
 *
 * "create" and "add" lines; other lines are ignored. Returns 0, -1 when
 * something was reported.
 */
int xlate_read_ipsets(struct xlate_ctx *ctx, const char *name, char *data)
{
	struct input_desc *in = xl_input_add(ctx, name, data);
	unsigned int errors = ctx->erq.num_errors, lineno = 0, n;
	char *line, *next, *copy, *w[32];
	struct location loc;

	if (!in)
		return -1;
	for (line = in->data; line && *line; line = next) {
		next = strchr(line, '\n');
		lineno++;
		memset(&loc, 0, sizeof(loc));
		loc.indesc = in;
		loc.line_offset = line - in->data;
		loc.first_line = loc.last_line = lineno;
		loc.first_column = 1;
		copy = next ? strndup(line, next - line) : strdup(line);
		loc.last_column = strlen(copy);
		if (next)
			next++;
		words(copy, w, &n, 32);
		if (n && !strcmp(w[0], "create"))
			ipset_create(ctx, w, n, &loc);
		else if (n && !strcmp(w[0], "add"))
			ipset_add(ctx, w, n, &loc);
		free(copy);
	}
	return ctx->erq.num_errors > errors ? -1 : 0;
}

/* ---------------------------------------------------------- nft sets */

static struct expr *key_type(struct xl_rule *r, const struct xl_ipset *s)
{
	const struct datatype *types[XL_IPSET_DIMS * 2], *dt;
	unsigned int i, k, n = 0;
	struct expr *e;

	for (i = 0; i < s->ndims; i++) {
		const struct xl_dim_desc *d = &xl_dims[s->dims[i]];

		for (k = 0; k < d->nparts; k++)
			types[n++] = datatype_lookup_byname(s->v6 ?
							    d->types6[k] :
							    d->types[k]);
	}
	if (n == 1)
		return constant_expr_alloc(LOC, types[0], types[0]->byteorder,
					   types[0]->size, NULL);
	dt = concat_type_alloc(types, n);
	if (!dt)
		return NULL;
	e = constant_expr_alloc(LOC, dt, BYTEORDER_INVALID, dt->size, NULL);
	datatype_free(dt);
	return e;
}

/* One element part: "10.0.0.0/8", "1.2.3.4-1.2.3.9", "80", "eth0" */
static struct expr *elem_part(struct xl_rule *r, enum xl_ipdim dim,
			      const char *text)
{
	const char *slash = strchr(text, '/'), *dash = strchr(text, '-');
	char *lo;
	struct expr *e;

	if (slash && (dim == XL_DIM_IP || dim == XL_DIM_NET)) {
		lo = strndup(text, slash - text);
		e = prefix_expr_alloc(LOC, xl_sym(LOC, "%s", lo),
				      strtoul(slash + 1, NULL, 10));
		free(lo);
		return e;
	}
	if (dash && dim != XL_DIM_MAC && dim != XL_DIM_IFACE) {
		lo = strndup(text, dash - text);
		e = range_expr_alloc(LOC, xl_sym(LOC, "%s", lo),
				     xl_sym(LOC, "%s", dash + 1));
		free(lo);
		return e;
	}
	if (dim == XL_DIM_IFACE)
		return xl_qsym(LOC, text);
	return xl_sym(LOC, "%s", text);
}

static void concat_add(struct expr **key, struct expr *part)
{
	if (!*key) {
		*key = part;
		return;
	}
	if ((*key)->kind != EXPR_CONCAT) {
		struct expr *c = list_expr_alloc(&part->location, EXPR_CONCAT);

		list_expr_add(c, *key);
		*key = c;
	}
	list_expr_add(*key, part);
}

/* "1.2.3.4,tcp:80": the parts in set key order */
static struct expr *elem_expr(struct xl_rule *r, const struct xl_ipset *s,
			      const char *text)
{
	char *copy = strdup(text), *save, *p, *colon;
	struct expr *key = NULL;
	unsigned int i = 0;

	for (p = strtok_r(copy, ",", &save); p && i < s->ndims;
	     p = strtok_r(NULL, ",", &save), i++) {
		if (s->dims[i] != XL_DIM_PORT) {
			concat_add(&key, elem_part(r, s->dims[i], p));
			continue;
		}
		/* ipset's port: [proto:]port, tcp when no protocol */
		colon = strchr(p, ':');
		concat_add(&key, xl_sym(LOC, "%.*s", colon ?
					(int)(colon - p) : 3,
					colon ? p : "tcp"));
		concat_add(&key, elem_part(r, XL_DIM_PORT,
					   colon ? colon + 1 : p));
	}
	free(copy);
	return key;
}

/* The nft set for ipset @s in the rule's table, declared on first use. */
static struct set *declare(struct xl_rule *r, const struct xl_ipset *s)
{
	struct expr *init = NULL;
	struct set *set;
	unsigned int i;

	set = xl_set_declare(r->ctx, r->table->layout->name, s->name,
			     key_type(r, s), 0, &s->loc);
	if (!set) {
		xl_error(r, "out of memory");
		return NULL;
	}
	set->flags |= (s->interval ? SET_F_INTERVAL : 0) |
		      (s->timeout ? SET_F_TIMEOUT : 0);
	set->timeout = s->timeout;
	if (set->init || !s->nelems)
		return set;
	for (i = 0; i < s->nelems; i++)
		init = xl_set_add(init, elem_expr(r, s, s->elems[i]));
	set->init = init;
	return set;
}

/* The packet's value for dimension @dim, @src or not: key part(s) */
static void dim_key(struct xl_rule *r, struct expr **key, enum xl_ipdim dim,
		    bool src)
{
	static const enum nft_meta_keys ifkey[2] = { NFT_META_OIFNAME,
						     NFT_META_IIFNAME };

	switch (dim) {
	case XL_DIM_IP:
	case XL_DIM_NET:
		concat_add(key, xl_payload(LOC, xl_l3_desc(r), src ? "saddr" :
					   "daddr"));
		return;
	case XL_DIM_PORT:
		concat_add(key, xl_meta(LOC, NFT_META_L4PROTO));
		/* fall through */
	case XL_DIM_BPORT:
		concat_add(key, xl_payload(LOC, &proto_th, src ? "sport" :
					   "dport"));
		return;
	case XL_DIM_MAC:
		concat_add(key, xl_payload(LOC, &proto_eth, src ? "saddr" :
					   "daddr"));
		return;
	case XL_DIM_IFACE:
		concat_add(key, xl_meta(LOC, ifkey[src]));
		return;
	case XL_DIM_MARK:
		concat_add(key, xl_meta(LOC, NFT_META_MARK));
		return;
	case __XL_DIM_MAX:
		return;
	}
}

static struct expr *packet_key(struct xl_rule *r, const struct xl_ipset *s,
			       const struct xl_setref *ref)
{
	struct expr *key = NULL;
	unsigned int i;

	for (i = 0; i < s->ndims; i++)
		dim_key(r, &key, s->dims[i], ref->src[i]);
	return key;
}

static struct expr *set_ref(struct xl_rule *r, const char *name)
{
	struct set *ph = set_alloc(LOC);

	ph->handle.set.name = strdup(name);
	ph->handle.set.location = r->loc;
	return set_ref_expr_alloc(LOC, ph);
}

int xl_map_setref(struct xl_rule *r, const struct xl_setref *ref)
{
	const struct xl_ipset *s = xl_ipset_find(r->ctx, ref->name);
	struct stmt *st;
	struct set *set;

	if (!s)
		return xl_error(r, "ipset %s is not known: give its "
				"definition (`ipset save` output) with "
				"--ipsets", ref->name);
	if (ref->ndir < s->ndims)
		return xl_error(r, "set %s has %u dimensions, the rule gives "
				"%u", ref->name, s->ndims, ref->ndir);
	set = declare(r, s);
	if (!set)
		return -1;
	if (ref->op == XL_SETREF_MATCH) {
		xl_match_inv(r, packet_key(r, s, ref), ref->inv,
			     set_ref(r, ref->name));
		return 0;
	}
	st = stmt_alloc(LOC, STMT_SET);
	st->set.set = set_ref(r, ref->name);
	st->set.key = set_elem_expr_alloc(LOC, packet_key(r, s, ref));
	st->set.op = ref->op == XL_SETREF_DEL ? NFT_DYNSET_OP_DELETE :
		     ref->exist ? NFT_DYNSET_OP_UPDATE : NFT_DYNSET_OP_ADD;
	if (ref->timeout)
		st->set.key->elem.timeout = ref->timeout * 1000ULL;
	set->flags |= SET_F_EVAL;	/* updated from the packet path */
	xl_add_stmt(r, st);
	return 0;
}

/* "src,dst" */
static int parse_dirs(struct xl_setref *ref, const char *text)
{
	char *copy = strdup(text), *save, *d;
	int ret = 0;

	ref->ndir = 0;
	for (d = strtok_r(copy, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		if (ref->ndir == XL_IPSET_DIMS ||
		    (strcmp(d, "src") && strcmp(d, "dst"))) {
			ret = -1;
			break;
		}
		ref->src[ref->ndir++] = !strcmp(d, "src");
	}
	free(copy);
	return ret;
}

/**
 * xl_setref_option - one option of the set match or the SET target
 * @opt: its long name (no dashes); @argv/@n: the tokens after it
 *
 * Returns the number of arguments used, or -1 after xl_error().
 */
int xl_setref_option(struct xl_rule *r, struct xl_setref *ref,
		     const char *opt, char **argv, unsigned int n, bool inv)
{
	if (!strcmp(opt, "match-set") || !strcmp(opt, "add-set") ||
	    !strcmp(opt, "del-set")) {
		if (n < 2)
			return xl_error(r, "--%s needs a set name and flags",
					opt);
		if (strlen(argv[0]) >= sizeof(ref->name))
			return xl_error(r, "set name `%s' is too long",
					argv[0]);
		strcpy(ref->name, argv[0]);
		if (parse_dirs(ref, argv[1]) < 0)
			return xl_error(r, "bad flags `%s': src or dst, comma "
					"separated, at most %u", argv[1],
					XL_IPSET_DIMS);
		ref->op = opt[0] == 'm' ? XL_SETREF_MATCH : opt[0] == 'a' ?
			  XL_SETREF_ADD : XL_SETREF_DEL;
		ref->inv = inv;
		ref->given = true;
		if (inv && ref->op != XL_SETREF_MATCH)
			return xl_error(r, "unexpected `!' before --%s", opt);
		return 2;
	}
	if (!strcmp(opt, "exist")) {
		ref->exist = true;
		return 0;
	}
	if (!strcmp(opt, "timeout")) {
		if (n < 1)
			return xl_error(r, "--timeout needs a value");
		ref->timeout = strtoul(argv[0], NULL, 10);
		return 1;
	}
	if ((!strcmp(opt, "update-counters") ||
	     !strcmp(opt, "update-subcounters")) && inv)
		return 0;	/* nft lookups update no counters anyway */
	return xl_error(r, "set option --%s is not translated", opt);
}
