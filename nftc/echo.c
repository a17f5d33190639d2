// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "nft -e": what the kernel echoes of a committed batch, printed as
 * stock nft 1.0.6 prints it (its monitor's one-line format).
 *
 * Every message of the batch that adds something carries NLM_F_ECHO
 * (nftc_batch_set_echo()), and the kernel sends each change back at
 * commit, in batch order; when the batch's first message asked for it,
 * the new generation follows. Each is one line:
 *
 *   add table ip t [{ flags dormant; }] [# handle N]
 *   add chain ip t c [{ type filter hook input priority 0; policy drop; }]
 *   add set ip t s { type ipv4_addr; flags interval; }       (then a space)
 *   add element ip t s { 10.0.0.0/8 }
 *   add counter ip t c { packets 0 bytes 0 }                 (then a space)
 *   add|insert rule ip t c [handle PREV] STATEMENTS [# handle N]
 *   delete rule ip t c handle N                  (the rule a replace took)
 *   # new generation 5 by process 1234 (nft)
 *
 * "add" or "insert" is the kernel's NLM_F_APPEND; "handle PREV" is the
 * position the kernel reports (the previous rule, for a rule that is
 * neither first nor last of its chain), which stock prints so. Anonymous
 * sets are not printed: their elements are kept for the rules using
 * them. An interval arrives as its start and its end element, printed
 * once both are there. Rules are decompiled against the kernel's
 * declarations, read after the commit.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/object.h>
#include <libnftnl/flowtable.h>
#include "netlink.h"
#include "listing.h"
#include "delinearize.h"
#include "printer.h"

/**
 * struct echo_ctx - printing one batch's echo
 * @octx: where and how
 * @rs: the kernel's declarations (rules decompile against them), with
 *      the anonymous sets' elements as they come
 * @idx: set name index of @idx_table
 * @pend_set: @pend: an interval start waiting for its end
 */
struct echo_ctx {
	struct nftc_ctx		*nft;
	struct output_ctx	octx;
	struct nftc_ruleset	rs;
	struct delin_set_index	*idx;
	const struct table	*idx_table;
	const struct set	*pend_set;
	struct expr		*pend;
};

static FILE *out(struct echo_ctx *e)
{
	return e->octx.f;
}

static bool with_handle(const struct echo_ctx *e)
{
	return e->octx.flags & NFTC_OUTPUT_HANDLE;
}

static void print_handle(struct echo_ctx *e, uint64_t h)
{
	if (with_handle(e))
		fprintf(out(e), " # handle %" PRIu64, h);
}

/* The table of @rs, created empty when the kernel's dump lacks it. */
static struct table *echo_table(struct echo_ctx *e, uint32_t family,
				const char *name)
{
	struct table *t = nftc_ruleset_table(&e->rs, family, name);

	if (t || !name)
		return t;
	t = table_alloc();
	if (!t)
		return NULL;
	t->handle.family = family;
	t->handle.table.name = strdup(name);
	list_add_tail(&t->list, &e->rs.tables);
	return t;
}

static void index_drop(struct echo_ctx *e)
{
	delin_set_index_free(e->idx);
	e->idx = NULL;
	e->idx_table = NULL;
}

/* ------------------------------------------------ block text -> line */

/*
 * The printer lays declarations out as listed: a header line, "\t\t"
 * lines, "\t}". @fn prints @obj so into memory; each inner line is
 * handed to @line (without tabs and newline).
 */
typedef void (*print_fn)(struct output_ctx *o, const void *obj);
typedef void (*line_fn)(struct echo_ctx *e, const char *line, void *priv);

static void inner_lines(struct echo_ctx *e, print_fn fn, const void *obj,
			line_fn line, void *priv)
{
	struct output_ctx o = e->octx;
	char *buf = NULL, *p, *nl;
	size_t len = 0;

	o.flags &= ~NFTC_OUTPUT_HANDLE;
	o.f = open_memstream(&buf, &len);
	if (!o.f)
		return;
	fn(&o, obj);
	fclose(o.f);
	for (p = buf; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (!strncmp(p, "\t\t", 2))
			line(e, p + 2, priv);
	}
	free(buf);
}

static void print_set_fn(struct output_ctx *o, const void *s)
{
	nftc_print_set(o, s);
}

static void print_obj_fn(struct output_ctx *o, const void *obj)
{
	nftc_print_obj(o, obj);
}

static void print_chain_fn(struct output_ctx *o, const void *c)
{
	nftc_print_chain(o, c);
}

static void print_ft_fn(struct output_ctx *o, const void *f)
{
	nftc_print_flowtable(o, f);
}

/* " LINE;" (sets, flowtables, ct helpers) */
static void line_semi(struct echo_ctx *e, const char *line, void *priv)
{
	fprintf(out(e), " %s;", line);
}

/* " LINE" (most objects) */
static void line_plain(struct echo_ctx *e, const char *line, void *priv)
{
	fprintf(out(e), " %s", line);
}

/* "{ LINE }" of a base chain's "type ... policy ...;" line */
static void line_hook(struct echo_ctx *e, const char *line, void *priv)
{
	if (!strncmp(line, "type ", 5))
		fprintf(out(e), " { %s }", line);
}

/* ------------------------------------------------------------ objects */

static void echo_table_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_table *nlt = nftnl_table_alloc();
	struct table *t = NULL;

	if (nlt && nftnl_table_nlmsg_parse(nlh, nlt) == 0)
		t = nftc_delinearize_table(nlt);
	nftnl_table_free(nlt);
	if (!t)
		return;
	fprintf(out(e), "add table %s %s", nftc_family_name(t->handle.family),
		t->handle.table.name);
	if (t->flags & NFT_TABLE_F_DORMANT)
		fputs(" { flags dormant; }", out(e));
	print_handle(e, t->handle.handle.id);
	fputc('\n', out(e));
	echo_table(e, t->handle.family, t->handle.table.name);
	table_free(t);
}

static void echo_chain_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_chain *nlc = nftnl_chain_alloc();
	struct chain *c = NULL;

	if (nlc && nftnl_chain_nlmsg_parse(nlh, nlc) == 0)
		c = nftc_delinearize_chain(nlc);
	nftnl_chain_free(nlc);
	if (!c)
		return;
	fprintf(out(e), "add chain %s %s %s",
		nftc_family_name(c->handle.family), c->handle.table.name,
		c->handle.chain.name);
	if (c->is_base) {
		/* stock's line has no devices (c has no rules) */
		struct expr *devs = c->devices;

		c->devices = NULL;
		inner_lines(e, print_chain_fn, c, line_hook, NULL);
		c->devices = devs;
	}
	print_handle(e, c->handle.handle.id);
	fputc('\n', out(e));
	chain_free(c);
}

static void echo_set_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_set *nls = nftnl_set_alloc();
	struct set *s = NULL;
	struct table *t;

	if (nls && nftnl_set_nlmsg_parse(nlh, nls) == 0)
		s = nftc_delinearize_set(nls);
	nftnl_set_free(nls);
	if (!s)
		return;
	t = echo_table(e, s->handle.family, s->handle.table.name);
	if (!(s->flags & SET_F_ANONYMOUS)) {
		fprintf(out(e), "add %s %s %s %s {",
			(s->flags & (SET_F_MAP | SET_F_OBJECT)) ? "map" : "set",
			nftc_family_name(s->handle.family),
			s->handle.table.name, s->handle.set.name);
		print_handle(e, s->handle.handle.id);
		/* elements come on their own (none here: a declaration) */
		inner_lines(e, print_set_fn, s, line_semi, NULL);
		fputs(" } \n", out(e));
	}
	if (!t || delin_set_lookup(t, s->handle.set.name)) {
		set_free(s);
		return;
	}
	list_add_tail(&s->list, &t->sets);
	index_drop(e);
}

static const char *const obj_kinds[] = {
	[NFT_OBJECT_COUNTER]	= "counter",
	[NFT_OBJECT_QUOTA]	= "quota",
	[NFT_OBJECT_CT_HELPER]	= "ct helper",
	[NFT_OBJECT_LIMIT]	= "limit",
	[NFT_OBJECT_SECMARK]	= "secmark",
	[NFT_OBJECT_SYNPROXY]	= "synproxy",
};

static void echo_obj_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_obj *nlo = nftnl_obj_alloc();
	struct obj *o = NULL;

	if (nlo && nftnl_obj_nlmsg_parse(nlh, nlo) == 0)
		o = nftc_delinearize_obj(nlo);
	nftnl_obj_free(nlo);
	if (!o)
		return;
	if (o->type >= sizeof(obj_kinds) / sizeof(obj_kinds[0]) ||
	    !obj_kinds[o->type]) {
		obj_free(o);
		return;
	}
	fprintf(out(e), "add %s %s %s %s {", obj_kinds[o->type],
		nftc_family_name(o->handle.family), o->handle.table.name,
		o->handle.obj.name);
	print_handle(e, o->handle.handle.id);
	if (o->comment)
		fprintf(out(e), " comment \"%s\"", o->comment);
	free(o->comment);	/* printed before the data, not among it */
	o->comment = NULL;
	switch (o->type) {
	case NFT_OBJECT_CT_HELPER:
		inner_lines(e, print_obj_fn, o, line_semi, NULL);
		break;
	case NFT_OBJECT_SYNPROXY:
		/* " mss 1460 wscale 7 timestamp sack-perm;" */
		inner_lines(e, print_obj_fn, o, line_plain, NULL);
		fputc(';', out(e));
		break;
	default:
		inner_lines(e, print_obj_fn, o, line_plain, NULL);
		break;
	}
	fputs(" } \n", out(e));
	obj_free(o);
}

static void echo_flowtable_msg(struct echo_ctx *e,
			       const struct nlmsghdr *nlh)
{
	struct nftnl_flowtable *nlf = nftnl_flowtable_alloc();
	struct flowtable *f = NULL;

	if (nlf && nftnl_flowtable_nlmsg_parse(nlh, nlf) == 0)
		f = nftc_delinearize_flowtable(nlf);
	nftnl_flowtable_free(nlf);
	if (!f)
		return;
	fprintf(out(e), "add flowtable %s %s %s {",
		nftc_family_name(f->handle.family), f->handle.table.name,
		f->handle.flowtable.name);
	print_handle(e, f->handle.handle.id);
	inner_lines(e, print_ft_fn, f, line_semi, NULL);
	fputs(" } \n", out(e));
	flowtable_free(f);
}

/* ----------------------------------------------------------- elements */

static bool set_is_interval(const struct set *s)
{
	return (s->flags & SET_F_INTERVAL) &&
	       !(s->key && s->key->kind == EXPR_CONCAT);
}

static void elems_print(struct echo_ctx *e, const struct set *s,
			struct expr *elems)
{
	if (!elems->size)
		return;
	nftc_list_ifnames(NULL, elems);
	fprintf(out(e), "add element %s %s %s ",
		nftc_family_name(s->handle.family), s->handle.table.name,
		s->handle.set.name);
	nftc_print_set_elems(&e->octx, elems,
			     s->key ? s->key->dtype : NULL, false);
	fputc('\n', out(e));
}

/*
 * Move the elements of @msg (this message's) that are complete to @done:
 * intervals once their end came. @s->init is free to use meanwhile.
 */
static void elems_complete(struct echo_ctx *e, struct set *s,
			   struct expr *msg, struct expr *done)
{
	struct expr *i, *next, *j, *jn, *pair;

	list_for_each_entry_safe(i, next, &msg->expressions, list) {
		list_del(&i->list);
		msg->size--;
		if (!set_is_interval(s)) {
			list_expr_add(done, i);
			continue;
		}
		if (!(i->flags & EXPR_F_INTERVAL_END)) {
			expr_free(e->pend);	/* a start replaces a start */
			e->pend = i;
			e->pend_set = s;
			continue;
		}
		if (!e->pend || e->pend_set != s) {
			expr_free(i);	/* an end without start */
			continue;
		}
		/* start and end folded into one range, as a listing does */
		pair = list_expr_alloc(&internal_location, EXPR_SET);
		if (!pair) {
			expr_free(i);
			continue;
		}
		list_expr_add(pair, e->pend);
		list_expr_add(pair, i);
		e->pend = NULL;
		e->pend_set = NULL;
		s->init = pair;
		nftc_delinearize_set_done(s);
		pair = s->init;
		s->init = NULL;
		list_for_each_entry_safe(j, jn, &pair->expressions, list) {
			list_del(&j->list);
			pair->size--;
			list_expr_add(done, j);
		}
		expr_free(pair);
	}
}

static void echo_elem_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_set *nls = nftnl_set_alloc();
	struct expr *done, *init, *msg;
	struct set *s = NULL;
	struct table *t;

	if (!nls || nftnl_set_elems_nlmsg_parse(nlh, nls) < 0)
		goto out;
	t = echo_table(e, nftnl_set_get_u32(nls, NFTNL_SET_FAMILY),
		       nftnl_set_get_str(nls, NFTNL_SET_TABLE));
	if (t)
		s = delin_set_lookup(t, nftnl_set_get_str(nls, NFTNL_SET_NAME));
	if (!s)
		goto out;
	if (s->flags & SET_F_ANONYMOUS) {
		/* for the rule that uses it, in the order they came (a
		 * listing sorts them, stock's echo does not) */
		nftc_delinearize_set_elems(s, nls);
		goto out;
	}
	/* the named set's own elements (none: a declaration) step aside */
	init = s->init;
	s->init = NULL;
	done = list_expr_alloc(&internal_location, EXPR_SET);
	if (done && nftc_delinearize_set_elems(s, nls) == 0) {
		msg = s->init;
		s->init = NULL;
		elems_complete(e, s, msg, done);
		expr_free(msg);
	}
	expr_free(s->init);
	s->init = init;
	if (done)
		elems_print(e, s, done);
	expr_free(done);
out:
	nftnl_set_free(nls);
}

/* -------------------------------------------------------------- rules */

static void echo_rule_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_rule *nlr = nftnl_rule_alloc();
	struct delin_ctx dctx = { 0 };
	struct rule *r = NULL;
	struct table *t;

	if (!nlr || nftnl_rule_nlmsg_parse(nlh, nlr) < 0)
		goto out;
	dctx.family = nftnl_rule_get_u32(nlr, NFTNL_RULE_FAMILY);
	t = echo_table(e, dctx.family,
		       nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE));
	if (!t)
		goto out;
	if (e->idx_table != t) {
		index_drop(e);
		e->idx = delin_set_index_build(t);
		e->idx_table = t;
	}
	dctx.table = t;
	dctx.sets = e->idx;
	r = nftc_delinearize_rule(&dctx, nlr);
	if (!r)
		goto out;
	nftc_list_ifnames(r, NULL);
	fprintf(out(e), "%s rule %s %s %s ",
		(nlh->nlmsg_flags & NLM_F_APPEND) ? "add" : "insert",
		nftc_family_name(dctx.family), t->handle.table.name,
		nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN));
	if (nftnl_rule_is_set(nlr, NFTNL_RULE_POSITION))
		fprintf(out(e), "handle %" PRIu64 " ",
			nftnl_rule_get_u64(nlr, NFTNL_RULE_POSITION));
	nftc_print_rule(&e->octx, r);
	fputc('\n', out(e));
	rule_free(r);
out:
	nftnl_rule_free(nlr);
}

/* A rule replaced: the kernel reports the old one gone first. */
static void echo_delrule_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	struct nftnl_rule *nlr = nftnl_rule_alloc();

	if (nlr && nftnl_rule_nlmsg_parse(nlh, nlr) == 0)
		fprintf(out(e), "delete rule %s %s %s handle %" PRIu64 "\n",
			nftc_family_name(nftnl_rule_get_u32(nlr,
						NFTNL_RULE_FAMILY)),
			nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE),
			nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN),
			nftnl_rule_get_u64(nlr, NFTNL_RULE_HANDLE));
	nftnl_rule_free(nlr);
}

/* ---------------------------------------------------------- generation */

static void echo_gen_msg(struct echo_ctx *e, const struct nlmsghdr *nlh)
{
	const struct nlattr *a;
	uint32_t id = 0, pid = 0;
	const char *name = "";

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_GEN_ID:
			if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				id = ntohl(mnl_attr_get_u32(a));
			break;
		case NFTA_GEN_PROC_PID:
			if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				pid = ntohl(mnl_attr_get_u32(a));
			break;
		case NFTA_GEN_PROC_NAME:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				name = mnl_attr_get_str(a);
			break;
		}
	}
	fprintf(out(e), "# new generation %u by process %u (%s)\n", id, pid,
		name);
}

/* ---------------------------------------------------------------- all */

typedef void (*msg_fn)(struct echo_ctx *e, const struct nlmsghdr *nlh);

static const msg_fn msg_fns[NFT_MSG_MAX] = {
	[NFT_MSG_NEWTABLE]	= echo_table_msg,
	[NFT_MSG_NEWCHAIN]	= echo_chain_msg,
	[NFT_MSG_NEWSET]	= echo_set_msg,
	[NFT_MSG_NEWSETELEM]	= echo_elem_msg,
	[NFT_MSG_NEWRULE]	= echo_rule_msg,
	[NFT_MSG_DELRULE]	= echo_delrule_msg,
	[NFT_MSG_NEWOBJ]	= echo_obj_msg,
	[NFT_MSG_NEWFLOWTABLE]	= echo_flowtable_msg,
	[NFT_MSG_NEWGEN]	= echo_gen_msg,
};

/* Rules and elements need the declarations they refer to. */
static bool needs_decls(const void *msgs, size_t len)
{
	const struct nlmsghdr *nlh = msgs;
	int left = (int)len;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		uint16_t t = NFNL_MSG_TYPE(nlh->nlmsg_type);

		if (t == NFT_MSG_NEWRULE || t == NFT_MSG_NEWSETELEM)
			return true;
	}
	return false;
}

/**
 * nftc_echo_print - print what the kernel echoed of a batch (see top)
 */
void nftc_echo_print(struct nftc_ctx *nft, const void *msgs, size_t len,
		     FILE *f, unsigned int oflags)
{
	struct echo_ctx e = {
		.nft	= nft,
		.octx	= { .f = f, .flags = oflags },
	};
	const struct nlmsghdr *nlh = msgs;
	int left = (int)len;

	if (!msgs || !len)
		return;
	nftc_ruleset_init(&e.rs);
	if (needs_decls(msgs, len) &&
	    nftc_ruleset_dump_decls(&e.rs, nft->offline, false, false,
				    NULL) < 0) {
		/* what the echo declares is still there */
		nftc_ruleset_free(&e.rs);
		nftc_ruleset_init(&e.rs);
	}
	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		uint16_t t = NFNL_MSG_TYPE(nlh->nlmsg_type);

		if (NFNL_SUBSYS_ID(nlh->nlmsg_type) == NFNL_SUBSYS_NFTABLES &&
		    t < NFT_MSG_MAX && msg_fns[t])
			msg_fns[t](&e, nlh);
	}
	expr_free(e.pend);
	index_drop(&e);
	nftc_ruleset_free(&e.rs);
	fflush(f);
}
