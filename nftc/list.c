// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "nft list": netlink dumps of the kernel's ruleset (libmnl + libnftnl),
 * decompiled to IR and printed as stock nft 1.0.6 lists it.
 *
 * Objects are dumped in dependency order: tables, chains, sets (and each
 * set's elements), objects, flowtables, then rules, so that a rule's
 * lookups find their (anonymous) sets with elements already read.
 */
#define _GNU_SOURCE	/* fopencookie */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/object.h>
#include <libnftnl/flowtable.h>
#include "listing.h"
#include "delinearize.h"
#include "delin_pack.h"
#include "list_tmpl.h"
#include "printer.h"
#include "linearize.h"
#include "transport.h"

#define DUMP_BUFSIZ	(256 * 1024)
#define DUMP_RETRIES	8

/**
 * struct dump_ctx - one netlink socket used for a series of dumps
 * @nl: the socket or offline VM (transport.h); @portid: its port;
 * @seq: last sequence number
 * @buf: receive buffer
 * @rs: ruleset being filled
 * @set: set whose elements the current dump returns
 */
struct dump_ctx {
	struct nftc_transport	*nl;
	uint32_t		portid;
	uint32_t		seq;
	char			*buf;
	struct nftc_ruleset	*rs;
	struct set		*set;
	int			err;
	bool			no_xt;	/* no libxtables translations */
	nftc_xt_hook		xt_hook;	/* else nftc_xt_xlate */
	void			*xt_priv;
	nftc_rule_sink		sink;		/* gets each rule, if set */
	void			*sink_priv;
	struct output_ctx	*stream;	/* print rules as they come */
	struct table		*stream_table;
	struct chain		*stream_chain;	/* whose rules are dumped */
	FILE			*warn;		/* warnings, or NULL */
	struct delin_set_index	*index;		/* of index_table's sets */
	const struct table	*index_table;
	bool			no_elems;	/* cache: declarations only */
	bool			pack_anon;	/* anonymous sets packed too */
	struct list_tmpl	*tmpl;		/* streamed rules' templates */
	bool			rule_handles;	/* cache: rules read only */
	bool			rule_slots;	/* ... as slots */
	FILE			*rule_debug;	/* ... printed here */
	const struct cmd	*reset;		/* reset counters/quotas */
};

typedef int (*dump_cb)(const struct nlmsghdr *nlh, void *data);

static void xt_warn(FILE *err, const struct table *t);

void nftc_ruleset_init(struct nftc_ruleset *rs)
{
	init_list_head(&rs->tables);
	rs->warn = NULL;
}

void nftc_ruleset_free(struct nftc_ruleset *rs)
{
	struct table *t, *tn;

	list_for_each_entry_safe(t, tn, &rs->tables, list) {
		list_del(&t->list);
		table_free(t);
	}
}

static struct table *table_find(struct nftc_ruleset *rs, uint32_t family,
				const char *name)
{
	struct table *t;

	if (!name)
		return NULL;
	list_for_each_entry(t, &rs->tables, list) {
		if (t->handle.family == family && t->handle.table.name &&
		    !strcmp(t->handle.table.name, name))
			return t;
	}
	return NULL;
}

/**
 * nftc_ruleset_table - the table @name of @family in @rs, or NULL
 */
struct table *nftc_ruleset_table(struct nftc_ruleset *rs, uint32_t family,
				 const char *name)
{
	return table_find(rs, family, name);
}

static struct chain *chain_find(const struct table *t, const char *name)
{
	struct chain *c;

	if (!t || !name)
		return NULL;
	list_for_each_entry(c, &t->chains, list) {
		if (c->handle.chain.name && !strcmp(c->handle.chain.name, name))
			return c;
	}
	return NULL;
}

/* ------------------------------------------------------------ dumping */

/*
 * Send a dump request and feed every reply message to @cb. The kernel
 * marks a dump that raced with a change (NLM_F_DUMP_INTR): -EINTR lets
 * the caller start over.
 */
static int dump_run(struct dump_ctx *d, struct nlmsghdr *nlh, dump_cb cb,
		    void *data)
{
	int ret;

	ret = nftc_transport_send(d->nl, nlh, nlh->nlmsg_len);
	if (ret < 0)
		return ret;
	for (;;) {
		ret = nftc_transport_recv(d->nl, d->buf, DUMP_BUFSIZ, false);
		if (ret < 0)
			return ret;
		ret = mnl_cb_run(d->buf, ret, d->seq, d->portid, cb, data);
		if (ret <= 0)
			break;
	}
	if (ret < 0)
		return errno ? -errno : -EIO;
	return d->err;
}

static struct nlmsghdr *dump_hdr(struct dump_ctx *d, uint16_t type,
				 uint32_t family)
{
	d->seq++;
	return nftnl_nlmsg_build_hdr(d->buf, type, family,
				     NLM_F_DUMP | NLM_F_ACK, d->seq);
}

static int table_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_table *nlt = nftnl_table_alloc();
	struct table *t = NULL;

	if (!nlt)
		return MNL_CB_ERROR;
	if (nftnl_table_nlmsg_parse(nlh, nlt) == 0)
		t = nftc_delinearize_table(nlt);
	nftnl_table_free(nlt);
	if (t)
		list_add_tail(&t->list, &d->rs->tables);
	return MNL_CB_OK;
}

static int chain_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_chain *nlc = nftnl_chain_alloc();
	struct chain *c = NULL;
	struct table *t;

	if (!nlc)
		return MNL_CB_ERROR;
	if (nftnl_chain_nlmsg_parse(nlh, nlc) == 0)
		c = nftc_delinearize_chain(nlc);
	/* an anonymous chain of a batch: named as its rules will be */
	if (c && !c->handle.chain.name &&
	    nftnl_chain_is_set(nlc, NFTNL_CHAIN_ID)) {
		char name[32];

		snprintf(name, sizeof(name), "__chain%u",
			 nftnl_chain_get_u32(nlc, NFTNL_CHAIN_ID));
		c->handle.chain.name = strdup(name);
	}
	nftnl_chain_free(nlc);
	if (!c)
		return MNL_CB_OK;
	t = table_find(d->rs, c->handle.family, c->handle.table.name);
	if (!t) {
		chain_free(c);
		return MNL_CB_OK;
	}
	list_add_tail(&c->list, (c->flags & NFT_CHAIN_BINDING) ?
				&t->bound : &t->chains);
	return MNL_CB_OK;
}

static int set_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_set *nls;
	struct set *s;
	struct table *t;
	bool other;

	s = delin_set_msg(nlh, &other);
	if (other) {
		nls = nftnl_set_alloc();
		if (!nls)
			return MNL_CB_ERROR;
		if (nftnl_set_nlmsg_parse(nlh, nls) == 0)
			s = nftc_delinearize_set(nls);
		nftnl_set_free(nls);
	}
	if (!s)
		return MNL_CB_OK;
	t = table_find(d->rs, s->handle.family, s->handle.table.name);
	if (!t) {
		set_free(s);
		return MNL_CB_OK;
	}
	/* a batch's anonymous sets are all "__set%d": the kernel numbers
	 * them, here their batch ids do (rules find them by id too) */
	if (s->handle.set.name && strchr(s->handle.set.name, '%')) {
		char name[32];

		snprintf(name, sizeof(name), "__set%u", s->handle.set_id);
		free(s->handle.set.name);
		s->handle.set.name = strdup(name);
	}
	list_add_tail(&s->list, &t->sets);
	return MNL_CB_OK;
}

static int elem_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_set *nls;
	int ret;

	/* plain sets' elements stay key bytes until printed */
	ret = delin_pack_msg(d->set, nlh, d->pack_anon);
	if (ret < 0)
		return MNL_CB_ERROR;
	if (ret > 0)
		return MNL_CB_OK;
	nls = nftnl_set_alloc();
	if (!nls)
		return MNL_CB_ERROR;
	if (nftnl_set_elems_nlmsg_parse(nlh, nls) == 0)
		nftc_delinearize_set_elems(d->set, nls);
	nftnl_set_free(nls);
	return MNL_CB_OK;
}

static int obj_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_obj *nlo = nftnl_obj_alloc();
	struct obj *o = NULL;
	struct table *t;

	if (!nlo)
		return MNL_CB_ERROR;
	if (nftnl_obj_nlmsg_parse(nlh, nlo) == 0)
		o = nftc_delinearize_obj(nlo);
	nftnl_obj_free(nlo);
	if (!o)
		return MNL_CB_OK;
	t = table_find(d->rs, o->handle.family, o->handle.table.name);
	if (!t) {
		obj_free(o);
		return MNL_CB_OK;
	}
	list_add_tail(&o->list, &t->objs);
	return MNL_CB_OK;
}

static int flowtable_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_flowtable *nlf = nftnl_flowtable_alloc();
	struct flowtable *f = NULL;
	struct table *t;

	if (!nlf)
		return MNL_CB_ERROR;
	if (nftnl_flowtable_nlmsg_parse(nlh, nlf) == 0)
		f = nftc_delinearize_flowtable(nlf);
	nftnl_flowtable_free(nlf);
	if (!f)
		return MNL_CB_OK;
	t = table_find(d->rs, f->handle.family, f->handle.table.name);
	if (!t) {
		flowtable_free(f);
		return MNL_CB_OK;
	}
	list_add_tail(&f->list, &t->flowtables);
	return MNL_CB_OK;
}

/*
 * The elements of the anonymous sets a streamed rule printed: no other
 * rule uses them, and 20,000 such sets held to the end took most of a
 * listing's memory.
 */
static void anon_drop(struct delin_ctx *dctx)
{
	unsigned int i;

	for (i = 0; i < dctx->nanon; i++) {
		expr_free(dctx->anon[i]->init);
		dctx->anon[i]->init = NULL;
	}
}

/* The name index of @t's sets (one table's at a time). */
static const struct delin_set_index *table_index(struct dump_ctx *d,
						 const struct table *t)
{
	if (d->index_table != t) {
		delin_set_index_free(d->index);
		d->index = delin_set_index_build(t);
		d->index_table = t;
	}
	return d->index;
}

/*
 * Print streamed rule @r (of message @m) while recording its template:
 * through a memory stream, for the template's text.
 */
static void print_recorded(struct dump_ctx *d, const struct table *t,
			   const struct delin_rmsg *m, struct rule *r,
			   struct list_tmpl_rec *rec)
{
	struct output_ctx o = *d->stream;
	char *buf = NULL;
	size_t len = 0;

	o.f = open_memstream(&buf, &len);
	if (!o.f) {
		nftc_print_rule(d->stream, r);
		return;
	}
	o.rec = rec;
	rec->buf = &buf;
	nftc_print_rule_stmts(&o, r);
	fclose(o.f);
	fwrite(buf, 1, len, d->stream->f);
	if (r->comment)
		fprintf(d->stream->f, " comment \"%s\"", r->comment);
	else
		list_tmpl_add(d->tmpl, t, m, rec, buf);
	nftc_print_handle(d->stream, &r->handle);
	list_tmpl_rec_done(rec);
	free(buf);
}

/*
 * Decompile a rule into its chain (a rule of an unknown chain is left):
 * a dump message @nlh read in place into @m, or libnftnl's @nlr (a
 * batch's).
 */
static void rule_cb_parsed(struct dump_ctx *d, const struct nlmsghdr *nlh,
			   const struct delin_rmsg *m,
			   const struct nftnl_rule *nlr)
{
	struct delin_ctx dctx = { 0 };
	struct list_tmpl_rec rec;
	struct rule *r;
	struct chain *c;
	struct table *t;

	if (d->stream_chain) {
		/* a dump of one chain's rules (a kernel that ignores the
		 * filter sends others too: skip them) */
		t = d->stream_table;
		c = d->stream_chain;
		if (strcmp(m->chain, c->handle.chain.name) ||
		    m->family != t->handle.family ||
		    strcmp(m->table, t->handle.table.name))
			return;
	} else {
		t = table_find(d->rs, m->family, m->table);
		c = chain_find(t, m->chain);
		if (!c)
			c = nftc_bound_find(t, m->chain);
	}
	if (!c)
		return;
	/* streamed: a rule of a shape listed before, from its text */
	if (d->stream && !d->sink && !nlr && d->tmpl &&
	    list_tmpl_print(d->tmpl, t, table_index(d, t), m, d->stream,
			    "\t\t")) {
		struct handle h = { .handle.id = m->handle };

		nftc_print_handle(d->stream, &h);
		fputc('\n', d->stream->f);
		return;
	}
	if (d->stream && !d->sink && !nlr && d->tmpl &&
	    list_tmpl_rec_start(&rec, d->tmpl, m))
		dctx.rec = &rec;
	dctx.family = t->handle.family;
	dctx.table = t;
	dctx.xt_xlate = d->no_xt ? NULL :
			d->xt_hook ? d->xt_hook : nftc_xt_xlate;
	dctx.xt_priv = d->xt_priv;
	dctx.sets = table_index(d, t);
	r = nlr ? nftc_delinearize_rule(&dctx, nlr) :
		  nftc_delinearize_rmsg(&dctx, nlh, m);
	if (dctx.xt_count && d->stream && !(t->flags & NFTC_TABLE_F_XT)) {
		t->flags |= NFTC_TABLE_F_XT;
		xt_warn(d->warn, t);
	}
	if (dctx.xt_count)
		t->flags |= NFTC_TABLE_F_XT;
	if (!r)
		return;
	if (d->sink) {
		d->sink(d->sink_priv, c, r);
		return;
	}
	if (!d->stream) {
		list_add_tail(&r->list, &c->rules);
		return;
	}
	/* streamed: printed and gone, so memory stays flat */
	nftc_bind_rule(t, r);
	nftc_list_ifnames(r, NULL);
	fputs("\t\t", d->stream->f);
	if (dctx.rec)
		print_recorded(d, t, m, r, dctx.rec);
	else
		nftc_print_rule(d->stream, r);
	fputc('\n', d->stream->f);
	rule_free(r);
	anon_drop(&dctx);
}

/* The evaluator's rule cache: only where the rule is, by its handle. */
static void rule_cb_slot(struct dump_ctx *d, const struct nftnl_rule *nlr)
{
	struct table *t;
	struct chain *c;

	if (d->rule_debug) {
		nftnl_rule_fprintf(d->rule_debug, nlr, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', d->rule_debug);
	}
	t = table_find(d->rs, nftnl_rule_get_u32(nlr, NFTNL_RULE_FAMILY),
		       nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE));
	c = chain_find(t, nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN));
	if (c && d->rule_slots && rule_cache_append(c, nftnl_rule_get_u64(nlr,
						NFTNL_RULE_HANDLE)) < 0)
		d->err = -ENOMEM;
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_rule *nlr;
	struct delin_rmsg m;

	if (!d->rule_handles) {
		if (delin_rmsg_parse(nlh, &m) == 0)
			rule_cb_parsed(d, nlh, &m, NULL);
		return MNL_CB_OK;
	}
	nlr = nftnl_rule_alloc();
	if (!nlr)
		return MNL_CB_ERROR;
	if (nftnl_rule_nlmsg_parse(nlh, nlr) == 0)
		rule_cb_slot(d, nlr);
	nftnl_rule_free(nlr);
	return MNL_CB_OK;
}

static int dump_simple(struct dump_ctx *d, uint16_t type, uint32_t family,
		       dump_cb cb)
{
	return dump_run(d, dump_hdr(d, type, family), cb, d);
}

static int dump_elems(struct dump_ctx *d)
{
	struct table *t;
	struct set *s;
	struct nlmsghdr *nlh;
	int ret;

	list_for_each_entry(t, &d->rs->tables, list) {
		list_for_each_entry(s, &t->sets, list) {
			/* the request libnftnl's set object would make, its
			 * two names put in directly (20,000 anonymous sets
			 * are as many requests) */
			d->seq++;
			nlh = nftnl_nlmsg_build_hdr(d->buf, NFT_MSG_GETSETELEM,
						    t->handle.family,
						    NLM_F_DUMP | NLM_F_ACK,
						    d->seq);
			if (s->handle.set.name)
				mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET,
						  s->handle.set.name);
			if (t->handle.table.name)
				mnl_attr_put_strz(nlh,
						  NFTA_SET_ELEM_LIST_TABLE,
						  t->handle.table.name);
			d->set = s;
			ret = dump_run(d, nlh, elem_cb, d);
			d->set = NULL;
			if (ret < 0 && ret != -ENOENT)
				return ret;
			nftc_delinearize_set_done(s);
		}
	}
	return 0;
}

/* "reset counter(s)/quota(s)": the objects' values, zeroed as read */
static uint32_t reset_obj_type(enum cmd_obj obj)
{
	switch (obj) {
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_COUNTERS:
		return NFT_OBJECT_COUNTER;
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_QUOTAS:
		return NFT_OBJECT_QUOTA;
	default:
		return 0;
	}
}

static int dump_objs(struct dump_ctx *d, uint32_t family)
{
	const struct cmd *c = d->reset;
	const struct handle *h;
	struct nftnl_obj *o;
	struct nlmsghdr *nlh;
	bool one;

	if (!c || !reset_obj_type(c->obj))
		return dump_simple(d, NFT_MSG_GETOBJ, family, obj_cb);
	h = &c->handle;
	one = c->obj == CMD_OBJ_COUNTER || c->obj == CMD_OBJ_QUOTA;
	o = nftnl_obj_alloc();
	if (!o)
		return -ENOMEM;
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, reset_obj_type(c->obj));
	if (h->table.name)
		nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, h->table.name);
	if (one && h->obj.name)
		nftnl_obj_set_str(o, NFTNL_OBJ_NAME, h->obj.name);
	d->seq++;
	nlh = nftnl_nlmsg_build_hdr(d->buf, NFT_MSG_GETOBJ_RESET,
				    h->family, NLM_F_ACK |
				    (one ? 0 : NLM_F_DUMP), d->seq);
	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_free(o);
	return dump_run(d, nlh, obj_cb, d);
}

static int dump_all(struct dump_ctx *d, uint32_t family, bool rules)
{
	static const struct {
		uint16_t	type;
		dump_cb		cb;
	} steps[] = {
		{ NFT_MSG_GETTABLE,	table_cb },
		{ NFT_MSG_GETCHAIN,	chain_cb },
		{ NFT_MSG_GETSET,	set_cb },
		{ NFT_MSG_GETOBJ,	obj_cb },
		{ NFT_MSG_GETFLOWTABLE,	flowtable_cb },
	};
	struct table *t;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].type == NFT_MSG_GETOBJ)
			ret = dump_objs(d, family);
		else
			ret = dump_simple(d, steps[i].type, family,
					  steps[i].cb);
		/* old kernels know no flowtables/objects */
		if (ret < 0 && ret != -EOPNOTSUPP && ret != -ENOENT)
			return ret;
		if (i == 2 && !d->no_elems) {
			ret = dump_elems(d);
			if (ret < 0)
				return ret;
		}
	}
	if (!rules)
		return 0;
	ret = dump_simple(d, NFT_MSG_GETRULE, family, rule_cb);
	if (ret == 0 || ret == -ENOENT)
		list_for_each_entry(t, &d->rs->tables, list)
			nftc_bind_table(t);
	return ret == -ENOENT ? 0 : ret;
}

static int dump_open(struct dump_ctx *d, struct nftc_ruleset *rs,
		     struct nftc_offline *off)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->rs = rs;
	d->buf = malloc(DUMP_BUFSIZ);
	if (!d->buf)
		return -ENOMEM;
	ret = nftc_transport_open(off, &d->nl);
	if (ret < 0)
		return ret;
	d->portid = d->nl->portid;
	d->seq = time(NULL);
	return 0;
}

static void dump_close(struct dump_ctx *d)
{
	delin_set_index_free(d->index);
	list_tmpl_free(d->tmpl);
	nftc_transport_close(d->nl);
	free(d->buf);
}

/* Everything of @family but (unless @rules) the rules, retried on races. */
static int dump_ruleset(struct dump_ctx *d, uint32_t family, bool rules)
{
	int ret = 0, tries;

	for (tries = 0; tries < DUMP_RETRIES; tries++) {
		ret = dump_all(d, family, rules);
		if (ret != -EINTR)
			break;
		nftc_ruleset_free(d->rs);
		nftc_ruleset_init(d->rs);
		delin_set_index_free(d->index);
		d->index = NULL;
		d->index_table = NULL;
	}
	return ret;
}

/**
 * nftc_ruleset_dump - read the kernel's ruleset of @family into @rs
 */
int nftc_ruleset_dump(struct nftc_ruleset *rs, uint32_t family,
		      struct nftc_offline *off)
{
	struct dump_ctx d;
	int ret;

	nftc_ruleset_init(rs);
	ret = dump_open(&d, rs, off);
	if (ret == 0)
		ret = dump_ruleset(&d, family, true);
	dump_close(&d);
	return ret;
}

/**
 * nftc_ruleset_dump_decls - the kernel's declarations into @rs
 *
 * Tables, chains, named sets (without their elements), objects and
 * flowtables; no rules: what the evaluator's cache needs, at a cost
 * independent of the number of rules and elements.
 */
int nftc_ruleset_dump_decls(struct nftc_ruleset *rs, struct nftc_offline *off,
			    bool rules, bool slots, FILE *debug)
{
	struct dump_ctx d;
	int ret;

	nftc_ruleset_init(rs);
	ret = dump_open(&d, rs, off);
	if (ret == 0) {
		d.no_elems = true;
		d.rule_handles = rules;
		d.rule_slots = slots;
		d.rule_debug = debug;
		ret = dump_ruleset(&d, 0, rules);
	}
	dump_close(&d);
	return ret;
}

/* ------------------------------------------------- offline: batches */

/*
 * A batch's messages are what the kernel would have stored: reading
 * them back gives the ruleset a batch creates, with no kernel (unit
 * tests, the in-process VM backend). Rules wait until every set has its
 * elements, as in a dump.
 */
struct batch_rd {
	struct dump_ctx		d;
	struct nftnl_rule	**rules;
	unsigned int		nrules;
	unsigned int		cap;
};

/*
 * libnftnl numbers the elements of a message it builds 1, 2, 3, ... but
 * parses only NFTA_LIST_ELEM (1), which is what the kernel dumps: renumber
 * a copy.
 */
static struct nlmsghdr *elems_renumbered(const struct nlmsghdr *nlh)
{
	struct nlmsghdr *copy = malloc(nlh->nlmsg_len);
	struct nlattr *a, *e;

	if (!copy)
		return NULL;
	memcpy(copy, nlh, nlh->nlmsg_len);
	mnl_attr_for_each(a, copy, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != NFTA_SET_ELEM_LIST_ELEMENTS)
			continue;
		mnl_attr_for_each_nested(e, a)
			e->nla_type = (e->nla_type & ~NLA_TYPE_MASK) |
				      NFTA_LIST_ELEM;
	}
	return copy;
}

/* The set of a batch element message: by name, or by id ("__set%d"). */
static struct set *batch_set(struct table *t, struct nftnl_set *nls)
{
	const char *name = nftnl_set_is_set(nls, NFTNL_SET_NAME) ?
			   nftnl_set_get_str(nls, NFTNL_SET_NAME) : NULL;
	struct set *s;
	uint32_t id;

	if (!t)
		return NULL;
	if (name && !strchr(name, '%'))
		return delin_set_lookup(t, name);
	if (!nftnl_set_is_set(nls, NFTNL_SET_ID))
		return NULL;
	id = nftnl_set_get_u32(nls, NFTNL_SET_ID);
	list_for_each_entry(s, &t->sets, list) {
		if (s->handle.set_id == id)
			return s;
	}
	return NULL;
}

static int batch_setelem(struct batch_rd *b, const struct nlmsghdr *msg)
{
	struct nlmsghdr *nlh = elems_renumbered(msg);
	struct nftnl_set *nls = nftnl_set_alloc();
	struct table *t;
	struct set *s;

	if (!nls || !nlh) {
		nftnl_set_free(nls);
		free(nlh);
		return -ENOMEM;
	}
	if (nftnl_set_elems_nlmsg_parse(nlh, nls) == 0) {
		t = table_find(b->d.rs,
			       nftnl_set_get_u32(nls, NFTNL_SET_FAMILY),
			       nftnl_set_get_str(nls, NFTNL_SET_TABLE));
		s = batch_set(t, nls);
		if (s)
			nftc_delinearize_set_elems(s, nls);
	}
	nftnl_set_free(nls);
	free(nlh);
	return 0;
}

static int batch_rule(struct batch_rd *b, const struct nlmsghdr *nlh)
{
	struct nftnl_rule *r, **n;
	struct nlmsghdr *named;
	int err, ret;

	if (b->nrules == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		n = realloc(b->rules, b->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		b->rules = n;
	}
	r = nftnl_rule_alloc();
	if (!r)
		return -ENOMEM;
	/* a rule of an anonymous chain, or jumping to one */
	named = nftc_rule_msg_named(nlh, &err);
	if (err < 0) {
		nftnl_rule_free(r);
		return err;
	}
	ret = nftnl_rule_nlmsg_parse(named ? named : nlh, r);
	free(named);
	if (ret < 0) {
		nftnl_rule_free(r);
		return 0;
	}
	/* the batch names the family in the message header only */
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY,
		((const struct nfgenmsg *)mnl_nlmsg_get_payload(nlh))
		->nfgen_family);
	b->rules[b->nrules++] = r;
	return 0;
}

static void batch_rule_parsed(struct dump_ctx *d, const struct nftnl_rule *r)
{
	struct delin_rmsg m = { 0 };

	m.family = nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY);
	if (nftnl_rule_is_set(r, NFTNL_RULE_TABLE))
		m.table = nftnl_rule_get_str(r, NFTNL_RULE_TABLE);
	if (nftnl_rule_is_set(r, NFTNL_RULE_CHAIN))
		m.chain = nftnl_rule_get_str(r, NFTNL_RULE_CHAIN);
	rule_cb_parsed(d, NULL, &m, r);
}

static int batch_msg(struct batch_rd *b, const struct nlmsghdr *nlh)
{
	switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
	case NFT_MSG_NEWTABLE:
		table_cb(nlh, &b->d);
		return 0;
	case NFT_MSG_NEWCHAIN:
		chain_cb(nlh, &b->d);
		return 0;
	case NFT_MSG_NEWSET:
		set_cb(nlh, &b->d);
		return 0;
	case NFT_MSG_NEWSETELEM:
		return batch_setelem(b, nlh);
	case NFT_MSG_NEWOBJ:
		obj_cb(nlh, &b->d);
		return 0;
	case NFT_MSG_NEWFLOWTABLE:
		flowtable_cb(nlh, &b->d);
		return 0;
	case NFT_MSG_NEWRULE:
		return batch_rule(b, nlh);
	default:
		return 0;	/* batch begin/end, deletions */
	}
}

static void sets_done(struct nftc_ruleset *rs)
{
	struct table *t;
	struct set *s;

	list_for_each_entry(t, &rs->tables, list)
		list_for_each_entry(s, &t->sets, list)
			nftc_delinearize_set_done(s);
}

/**
 * nftc_ruleset_from_batch - the ruleset @batch would create
 * @rs: filled (initialised by the call; free with nftc_ruleset_free)
 *
 * Only "add"/"create" messages count; the batch is read as if applied
 * to an empty ruleset. Returns 0 or a negative errno.
 */
int nftc_ruleset_from_batch(struct nftc_ruleset *rs,
			    const struct nftc_batch *batch)
{
	struct batch_rd b = { .d = { .rs = rs, .no_xt = true } };
	const struct nlmsghdr *nlh;
	struct table *t;
	unsigned int i;
	const void *buf;
	size_t len;
	int ret = 0;

	nftc_ruleset_init(rs);
	for (i = 0; (buf = nftc_batch_chunk(batch, i, &len)); i++) {
		int rest = len;

		for (nlh = buf; mnl_nlmsg_ok(nlh, rest) && !ret;
		     nlh = mnl_nlmsg_next(nlh, &rest))
			ret = batch_msg(&b, nlh);
	}
	sets_done(rs);
	for (i = 0; i < b.nrules; i++) {
		if (!ret)
			batch_rule_parsed(&b.d, b.rules[i]);
		nftnl_rule_free(b.rules[i]);
	}
	list_for_each_entry(t, &rs->tables, list)
		nftc_bind_table(t);
	delin_set_index_free(b.d.index);
	free(b.rules);
	return ret;
}

/* ----------------------------------------------------------- printing */

static bool family_match(uint32_t want, uint32_t family)
{
	return !want || want == family;
}

/* Stock warns (on stderr) before listing a table iptables-nft manages. */
static void xt_warn(FILE *err, const struct table *t)
{
	if (err && (t->flags & NFTC_TABLE_F_XT))
		fprintf(err, "# Warning: table %s %s is managed by "
			"iptables-nft, do not touch!\n",
			nftc_family_name(t->handle.family),
			t->handle.table.name);
}

static void table_open(struct output_ctx *octx, const struct table *t)
{
	fprintf(octx->f, "table %s %s {\n", nftc_family_name(t->handle.family),
		t->handle.table.name);
}

/* A table header with only the parts @pick selects. */
enum pick {
	PICK_CHAINS,
	PICK_SETS,
	PICK_MAPS,
	PICK_OBJS,
	PICK_FLOWTABLES,
};

static bool set_is_map_or_objmap(const struct set *s)
{
	return s->flags & (SET_F_MAP | SET_F_OBJECT);
}

/*
 * The plural forms list declarations: chains without their rules (moved
 * aside while printing; the objects are ours to change), sets with their
 * elements, as stock 1.0.6 does.
 */
static void print_table_part(struct output_ctx *octx, struct table *t,
			     enum pick pick, uint32_t objtype)
{
	struct list_head rules;
	struct chain *c;
	struct set *s;
	const struct obj *o;
	const struct flowtable *f;

	table_open(octx, t);
	octx->family = t->handle.family;
	switch (pick) {
	case PICK_CHAINS:
		list_for_each_entry(c, &t->chains, list) {
			init_list_head(&rules);
			list_splice_tail_init(&c->rules, &rules);
			nftc_print_chain(octx, c);
			list_splice_tail_init(&rules, &c->rules);
		}
		break;
	case PICK_SETS:
	case PICK_MAPS:
		list_for_each_entry(s, &t->sets, list) {
			if ((s->flags & SET_F_ANONYMOUS) ||
			    set_is_map_or_objmap(s) != (pick == PICK_MAPS))
				continue;
			nftc_print_set(octx, s);
		}
		break;
	case PICK_OBJS:
		list_for_each_entry(o, &t->objs, list) {
			if (o->type == objtype)
				nftc_print_obj(octx, o);
		}
		break;
	case PICK_FLOWTABLES:
		list_for_each_entry(f, &t->flowtables, list)
			nftc_print_flowtable(octx, f);
		break;
	}
	fputs("}\n", octx->f);
}

static int not_found(struct nftc_ctx *ctx, const struct cmd *cmd,
		     const struct name_ref *what)
{
	erec_error(&ctx->erq, what && what->location.indesc ?
		   &what->location : &cmd->location,
		   "No such file or directory");
	return -1;
}

static const struct set *set_find(const struct table *t, const char *name)
{
	return delin_set_lookup(t, name);
}

static const struct obj *obj_find(const struct table *t, const char *name,
				  uint32_t type)
{
	const struct obj *o;

	list_for_each_entry(o, &t->objs, list) {
		if (o->type == type && o->handle.obj.name &&
		    !strcmp(o->handle.obj.name, name))
			return o;
	}
	return NULL;
}

static const uint32_t cmd_objtypes[__CMD_OBJ_MAX] = {
	[CMD_OBJ_COUNTER]	= NFT_OBJECT_COUNTER,
	[CMD_OBJ_COUNTERS]	= NFT_OBJECT_COUNTER,
	[CMD_OBJ_QUOTA]		= NFT_OBJECT_QUOTA,
	[CMD_OBJ_QUOTAS]	= NFT_OBJECT_QUOTA,
	[CMD_OBJ_LIMIT]		= NFT_OBJECT_LIMIT,
	[CMD_OBJ_LIMITS]	= NFT_OBJECT_LIMIT,
	[CMD_OBJ_CT_HELPER]	= NFT_OBJECT_CT_HELPER,
	[CMD_OBJ_SYNPROXY]	= NFT_OBJECT_SYNPROXY,
	[CMD_OBJ_SECMARK]	= NFT_OBJECT_SECMARK,
};

/* One named thing of one table: "table F T { THING }". */
static int print_one(struct nftc_ctx *ctx, const struct cmd *cmd,
		     struct output_ctx *octx, const struct table *t)
{
	const struct handle *h = &cmd->handle;
	const struct chain *c;
	const struct set *s;
	const struct obj *o;

	switch (cmd->obj) {
	case CMD_OBJ_CHAIN:
		c = chain_find(t, h->chain.name);
		if (!c)
			return not_found(ctx, cmd, &h->chain);
		table_open(octx, t);
		nftc_print_chain(octx, c);
		break;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		s = set_find(t, h->set.name);
		if (!s || (s->flags & SET_F_ANONYMOUS))
			return not_found(ctx, cmd, &h->set);
		table_open(octx, t);
		nftc_print_set(octx, s);
		break;
	case CMD_OBJ_FLOWTABLE: {
		const struct flowtable *f;

		list_for_each_entry(f, &t->flowtables, list) {
			if (f->handle.flowtable.name && h->flowtable.name &&
			    !strcmp(f->handle.flowtable.name,
				    h->flowtable.name))
				break;
		}
		if (&f->list == &t->flowtables)
			return not_found(ctx, cmd, &h->flowtable);
		table_open(octx, t);
		nftc_print_flowtable(octx, f);
		break;
	}
	default:
		o = obj_find(t, h->obj.name ? h->obj.name : "",
			     cmd_objtypes[cmd->obj]);
		if (!o)
			return not_found(ctx, cmd, &h->obj);
		table_open(octx, t);
		nftc_print_obj(octx, o);
		break;
	}
	fputs("}\n", octx->f);
	return 0;
}

static void print_plural(const struct cmd *cmd, struct output_ctx *octx,
			 struct nftc_ruleset *rs)
{
	struct table *t;
	const char *tname = cmd->handle.table.name;

	list_for_each_entry(t, &rs->tables, list) {
		if (!family_match(cmd->handle.family, t->handle.family) ||
		    (tname && strcmp(tname, t->handle.table.name)))
			continue;
		switch (cmd->obj) {
		case CMD_OBJ_TABLES:
			fprintf(octx->f, "table %s %s\n",
				nftc_family_name(t->handle.family),
				t->handle.table.name);
			break;
		case CMD_OBJ_CHAINS:
			print_table_part(octx, t, PICK_CHAINS, 0);
			break;
		case CMD_OBJ_SETS:
			print_table_part(octx, t, PICK_SETS, 0);
			break;
		case CMD_OBJ_MAPS:
			print_table_part(octx, t, PICK_MAPS, 0);
			break;
		case CMD_OBJ_FLOWTABLES:
			print_table_part(octx, t, PICK_FLOWTABLES, 0);
			break;
		default:
			/*
			 * stock skips tables without objects; a table with
			 * objects of other types only is listed empty
			 */
			if (!list_empty(&t->objs))
				print_table_part(octx, t, PICK_OBJS,
						 cmd_objtypes[cmd->obj]);
			break;
		}
	}
}

/**
 * nftc_list_print - print what @cmd asks for from @rs
 */
int nftc_list_print(struct nftc_ctx *ctx, const struct cmd *cmd,
		    struct nftc_ruleset *rs, unsigned int oflags, FILE *out)
{
	struct output_ctx octx = { .f = out, .flags = oflags };
	const struct table *t;

	switch (cmd->obj) {
	case CMD_OBJ_RULESET:
		list_for_each_entry(t, &rs->tables, list) {
			if (!family_match(cmd->handle.family, t->handle.family))
				continue;
			xt_warn(rs->warn, t);
			nftc_print_table(&octx, t);
		}
		return 0;
	case CMD_OBJ_TABLES:
	case CMD_OBJ_CHAINS:
	case CMD_OBJ_SETS:
	case CMD_OBJ_MAPS:
	case CMD_OBJ_COUNTERS:
	case CMD_OBJ_QUOTAS:
	case CMD_OBJ_LIMITS:
	case CMD_OBJ_FLOWTABLES:
		print_plural(cmd, &octx, rs);
		return 0;
	default:
		break;
	}
	t = table_find(rs, cmd->handle.family, cmd->handle.table.name);
	if (!t)
		return not_found(ctx, cmd, &cmd->handle.table);
	if (cmd->obj == CMD_OBJ_TABLE) {
		xt_warn(rs->warn, t);
		nftc_print_table(&octx, t);
		return 0;
	}
	return print_one(ctx, cmd, &octx, t);
}

/* ---------------------------------------------------------- streaming */

/*
 * "list ruleset/table/chain" print rules as the kernel dumps them, one
 * chain at a time, so 100,000 rules never sit in memory together. The
 * surrounding blocks come from the printer (a chain or table printed
 * without rules, its closing brace held back).
 */
/*
 * The block goes straight to the output through a stream that holds
 * back its last @cut bytes (the closing brace), not through a buffer of
 * the whole text: a table with a million-element set is 14 MB of it.
 */
struct held {
	FILE	*out;
	size_t	cut;
	size_t	n;		/* bytes held in tail */
	char	tail[4];
};

static ssize_t held_write(void *cookie, const char *buf, size_t len)
{
	struct held *h = cookie;
	size_t emit, from_tail, from_buf;

	if (h->n + len <= h->cut) {
		memcpy(h->tail + h->n, buf, len);
		h->n += len;
		return len;
	}
	emit = h->n + len - h->cut;
	from_tail = emit < h->n ? emit : h->n;
	fwrite(h->tail, 1, from_tail, h->out);
	memmove(h->tail, h->tail + from_tail, h->n - from_tail);
	h->n -= from_tail;
	from_buf = emit - from_tail;
	fwrite(buf, 1, from_buf, h->out);
	memcpy(h->tail + h->n, buf + from_buf, len - from_buf);
	h->n += len - from_buf;
	return len;
}

static void print_held(const struct output_ctx *octx, size_t cut,
		       void (*fn)(struct output_ctx *, const void *),
		       const void *obj)
{
	static const cookie_io_functions_t io = { .write = held_write };
	struct held h = { .out = octx->f, .cut = cut };
	struct output_ctx o = *octx;

	o.f = fopencookie(&h, "w", io);
	if (!o.f)
		return;
	fn(&o, obj);
	fclose(o.f);
}

static void print_chain_fn(struct output_ctx *o, const void *c)
{
	nftc_print_chain(o, c);
}

static void print_table_fn(struct output_ctx *o, const void *t)
{
	nftc_print_table(o, t);
}

static int stream_rules(struct dump_ctx *d, struct table *t, struct chain *c)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nlmsghdr *nlh;
	int ret;

	if (!r)
		return -ENOMEM;
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, t->handle.table.name);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, c->handle.chain.name);
	nlh = dump_hdr(d, NFT_MSG_GETRULE, t->handle.family);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	d->stream_table = t;
	d->stream_chain = c;
	ret = dump_run(d, nlh, rule_cb, d);
	d->stream_chain = NULL;
	return ret == -ENOENT ? 0 : ret;
}

/*
 * The rules of @t's bound chains, kept (not printed): the rules that
 * jump to them print them inside.
 */
static int stream_bound(struct dump_ctx *d, struct table *t)
{
	struct output_ctx *stream = d->stream;
	struct chain *c;
	int ret = 0;

	d->stream = NULL;
	list_for_each_entry(c, &t->bound, list) {
		ret = stream_rules(d, t, c);
		if (ret < 0)
			break;
	}
	d->stream = stream;
	if (ret == 0)
		nftc_bind_table(t);
	return ret;
}

static int stream_chain(struct dump_ctx *d, struct output_ctx *octx,
			struct table *t, struct chain *c)
{
	int ret;

	print_held(octx, 3, print_chain_fn, c);		/* "\t}\n" */
	ret = stream_rules(d, t, c);
	fputs("\t}\n", octx->f);
	return ret;
}

/* The printer's blank line before the first chain: after any block. */
static bool table_has_blocks(const struct table *t)
{
	const struct set *s;

	if ((t->flags & NFT_TABLE_F_DORMANT) || !list_empty(&t->objs) ||
	    !list_empty(&t->flowtables))
		return true;
	list_for_each_entry(s, &t->sets, list) {
		if (!(s->flags & SET_F_ANONYMOUS))
			return true;
	}
	return false;
}

static int stream_table(struct dump_ctx *d, struct output_ctx *octx,
			struct table *t)
{
	struct list_head chains;
	const char *delim;
	struct chain *c;
	int ret = 0;

	init_list_head(&chains);
	list_splice_tail_init(&t->chains, &chains);
	print_held(octx, 2, print_table_fn, t);		/* "}\n" */
	list_splice_tail_init(&chains, &t->chains);
	delim = table_has_blocks(t) ? "\n" : "";
	ret = stream_bound(d, t);
	d->stream_table = t;
	list_for_each_entry(c, &t->chains, list) {
		if (ret < 0)
			break;
		fputs(delim, octx->f);
		ret = stream_chain(d, octx, t, c);
		if (ret < 0)
			break;
		delim = "\n";
	}
	fputs("}\n", octx->f);
	return ret;
}

/* list ruleset / table / chain, rules streamed; 1 if not one of these. */
static int list_streamed(struct nftc_ctx *ctx, const struct cmd *cmd,
			 struct dump_ctx *d, struct output_ctx *octx)
{
	struct table *t;
	struct chain *c;
	int ret = 0;

	switch (cmd->obj) {
	case CMD_OBJ_RULESET:
		list_for_each_entry(t, &d->rs->tables, list) {
			if (!family_match(cmd->handle.family, t->handle.family))
				continue;
			ret = stream_table(d, octx, t);
			if (ret < 0)
				break;
		}
		return ret;
	case CMD_OBJ_TABLE:
	case CMD_OBJ_CHAIN:
		break;
	default:
		return 1;
	}
	t = table_find(d->rs, cmd->handle.family, cmd->handle.table.name);
	if (!t)
		return not_found(ctx, cmd, &cmd->handle.table);
	if (cmd->obj == CMD_OBJ_TABLE)
		return stream_table(d, octx, t);
	c = chain_find(t, cmd->handle.chain.name);
	if (!c)
		return not_found(ctx, cmd, &cmd->handle.chain);
	ret = stream_bound(d, t);
	if (ret < 0)
		return ret;
	table_open(octx, t);
	ret = stream_chain(d, octx, t, c);
	fputs("}\n", octx->f);
	return ret;
}

/**
 * nftc_list - run a "list" command against the kernel
 *
 * Rulesets, tables and chains are printed while their rules are read;
 * the other forms need no rules at all.
 */
int nftc_list(struct nftc_ctx *ctx, const struct cmd *cmd,
	      unsigned int oflags, FILE *out, FILE *err)
{
	struct output_ctx octx = { .f = out, .flags = oflags };
	struct nftc_ruleset rs;
	struct dump_ctx d;
	struct table *t;
	struct set *s;
	int ret;

	nftc_ruleset_init(&rs);
	ret = dump_open(&d, &rs, ctx->offline);
	if (ret == 0) {
		if (cmd->op == CMD_RESET)
			d.reset = cmd;
		/* rules are printed streamed only: their sets unpacked there */
		d.pack_anon = true;
		d.tmpl = getenv("NFTKIT_LIST_NO_TEMPLATES") ? NULL :
			 list_tmpl_new();
		ret = dump_ruleset(&d, 0, false);
	}
	if (ret < 0) {
		erec_error(&ctx->erq, &cmd->location,
			   "Could not process rule: %s", strerror(-ret));
		ret = -1;
		goto out;
	}
	list_for_each_entry(t, &rs.tables, list)
		list_for_each_entry(s, &t->sets, list)
			if (!(s->flags & SET_F_ANONYMOUS))
				nftc_list_ifnames(NULL, s->init);
	d.stream = &octx;
	d.warn = err;
	rs.warn = err;
	ret = list_streamed(ctx, cmd, &d, &octx);
	if (ret == 1)
		ret = nftc_list_print(ctx, cmd, &rs, oflags, out);
	if (ret < 0 && !ctx->erq.num_errors)
		erec_error(&ctx->erq, &cmd->location,
			   "Could not process rule: %s", strerror(-ret));
	ret = ret < 0 ? -1 : 0;
out:
	dump_close(&d);
	nftc_ruleset_free(&rs);
	return ret;
}

/*
 * A dump kept open: declarations first, then the rules of one chain at a
 * time, each handed over as it is decompiled (iptables-save-nft).
 */
struct nftc_dumper {
	struct dump_ctx		d;
};

struct nftc_dumper *nftc_dumper_open(struct nftc_ruleset *rs,
				     uint32_t family, struct nftc_offline *off,
				     nftc_xt_hook hook, void *priv, int *err)
{
	struct nftc_dumper *dp = malloc(sizeof(*dp));

	*err = -ENOMEM;
	nftc_ruleset_init(rs);
	if (!dp)
		return NULL;
	*err = dump_open(&dp->d, rs, off);
	if (*err == 0) {
		dp->d.xt_hook = hook;
		dp->d.xt_priv = priv;
		*err = dump_ruleset(&dp->d, family, false);
	}
	if (*err < 0) {
		nftc_dumper_close(dp);
		return NULL;
	}
	return dp;
}

int nftc_dumper_rules(struct nftc_dumper *dp, struct table *t,
		      struct chain *c, nftc_rule_sink sink, void *priv)
{
	int ret;

	dp->d.sink = sink;
	dp->d.sink_priv = priv;
	ret = stream_rules(&dp->d, t, c);
	dp->d.sink = NULL;
	return ret;
}

void nftc_dumper_close(struct nftc_dumper *dp)
{
	if (!dp)
		return;
	dump_close(&dp->d);
	free(dp);
}
