// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model of a compiled ruleset: tables, chains, rules and sets as the
 * nfnetlink messages of a batch describe them (libnftnl parses each
 * message). Both sides of a diff end up here, whatever they came from.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/expr.h>
#include "sd_int.h"

static int grow(void **arr, unsigned int *cap, unsigned int n, size_t sz)
{
	unsigned int ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(*arr, ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

struct sd_ruleset *sd_ruleset_alloc(const char *label)
{
	struct sd_ruleset *rs = calloc(1, sizeof(*rs));

	if (rs && !(rs->label = strdup(label))) {
		free(rs);
		return NULL;
	}
	return rs;
}

static void chain_free(struct sd_chain *c)
{
	unsigned int i;

	for (i = 0; i < c->nrules; i++) {
		nftnl_rule_free(c->rules[i]->nl);
		free(c->rules[i]->text);
		free(c->rules[i]->src_text);
		free(c->rules[i]);
	}
	free(c->rules);
	free(c->src_text);
	free(c->name);
	free(c->type);
	free(c);
}

static void set_free(struct sd_set *s)
{
	unsigned int i;

	for (i = 0; i < s->nelems; i++)
		free(s->elems[i].chain);
	free(s->elems);
	free(s->name);
	free(s);
}

void sd_ruleset_free(struct sd_ruleset *rs)
{
	unsigned int i, j;

	if (!rs)
		return;
	for (i = 0; i < rs->ntables; i++) {
		struct sd_table *t = rs->tables[i];

		for (j = 0; j < t->nchains; j++)
			chain_free(t->chains[j]);
		for (j = 0; j < t->nsets; j++)
			set_free(t->sets[j]);
		free(t->chains);
		free(t->sets);
		free(t->name);
		free(t);
	}
	free(rs->tables);
	free(rs->dump.buf);
	free(rs->state);
	free(rs->label);
	free(rs->notes);
	free(rs);
}

struct sd_table *sd_table_get(struct sd_ruleset *rs, uint8_t family,
			      const char *name)
{
	struct sd_table *t;
	unsigned int i;

	for (i = 0; i < rs->ntables; i++)
		if (rs->tables[i]->family == family &&
		    !strcmp(rs->tables[i]->name, name))
			return rs->tables[i];
	if (grow((void **)&rs->tables, &rs->cap, rs->ntables,
		 sizeof(*rs->tables)) < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->name = strdup(name))) {
		free(t);
		return NULL;
	}
	t->family = family;
	rs->tables[rs->ntables++] = t;
	return t;
}

struct sd_chain *sd_chain_find(const struct sd_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nchains; i++)
		if (!strcmp(t->chains[i]->name, name))
			return t->chains[i];
	return NULL;
}

struct sd_chain *sd_chain_get(struct sd_table *t, const char *name)
{
	struct sd_chain *c = sd_chain_find(t, name);

	if (c)
		return c;
	if (grow((void **)&t->chains, &t->cap, t->nchains,
		 sizeof(*t->chains)) < 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->name = strdup(name))) {
		free(c);
		return NULL;
	}
	c->policy = NF_ACCEPT;
	c->table = t;
	c->order = t->nchains;
	t->chains[t->nchains++] = c;
	return c;
}

struct sd_set *sd_set_find(const struct sd_table *t, const char *name,
			   uint32_t id, bool use_id)
{
	unsigned int i;

	/* Anonymous sets share the name "__set%d": the batch id tells. */
	for (i = 0; i < t->nsets; i++) {
		if (use_id && t->sets[i]->id == id && strchr(name, '%'))
			return t->sets[i];
		if (!strchr(name, '%') && !strcmp(t->sets[i]->name, name))
			return t->sets[i];
	}
	return NULL;
}

static int add_chain(struct sd_ruleset *rs, const struct nlmsghdr *nlh)
{
	struct nftnl_chain *nc = nftnl_chain_alloc();
	struct sd_table *t;
	struct sd_chain *c;
	int ret = -ENOMEM;

	if (!nc)
		return -ENOMEM;
	if (nftnl_chain_nlmsg_parse(nlh, nc) < 0) {
		ret = -EINVAL;
		goto out;
	}
	t = sd_table_get(rs, nftnl_chain_get_u32(nc, NFTNL_CHAIN_FAMILY),
			 nftnl_chain_get_str(nc, NFTNL_CHAIN_TABLE));
	if (!t)
		goto out;
	c = sd_chain_get(t, nftnl_chain_get_str(nc, NFTNL_CHAIN_NAME));
	if (!c)
		goto out;
	if (nftnl_chain_is_set(nc, NFTNL_CHAIN_HOOKNUM)) {
		c->base = true;
		c->hook = nftnl_chain_get_u32(nc, NFTNL_CHAIN_HOOKNUM);
		c->prio = (int32_t)nftnl_chain_get_u32(nc, NFTNL_CHAIN_PRIO);
	}
	if (nftnl_chain_is_set(nc, NFTNL_CHAIN_TYPE)) {
		free(c->type);
		c->type = strdup(nftnl_chain_get_str(nc, NFTNL_CHAIN_TYPE));
	}
	if (nftnl_chain_is_set(nc, NFTNL_CHAIN_POLICY))
		c->policy = nftnl_chain_get_u32(nc, NFTNL_CHAIN_POLICY);
	ret = 0;
out:
	nftnl_chain_free(nc);
	return ret;
}

static int add_rule(struct sd_ruleset *rs, const struct nlmsghdr *nlh,
		    const struct sd_msg_src *src)
{
	struct nftnl_rule *nr = nftnl_rule_alloc();
	struct sd_rule *r;
	struct sd_table *t;
	struct sd_chain *c;

	if (!nr)
		return -ENOMEM;
	if (nftnl_rule_nlmsg_parse(nlh, nr) < 0) {
		nftnl_rule_free(nr);
		return -EINVAL;
	}
	t = sd_table_get(rs, nftnl_rule_get_u32(nr, NFTNL_RULE_FAMILY),
			 nftnl_rule_get_str(nr, NFTNL_RULE_TABLE));
	c = t ? sd_chain_get(t, nftnl_rule_get_str(nr, NFTNL_RULE_CHAIN))
	      : NULL;
	r = calloc(1, sizeof(*r));
	if (!c || !r || grow((void **)&c->rules, &c->cap, c->nrules,
			     sizeof(*c->rules)) < 0) {
		free(r);
		nftnl_rule_free(nr);
		return -ENOMEM;
	}
	r->nl = nr;
	r->chain = c;
	r->text = strdup(src && src->text ? src->text : "");
	r->line = src ? src->line : 0;
	if (nftnl_rule_is_set(nr, NFTNL_RULE_HANDLE))
		r->handle = nftnl_rule_get_u64(nr, NFTNL_RULE_HANDLE);
	/* "insert" (no NLM_F_APPEND) puts the rule first; a dump lists
	 * the rules in their order. */
	if (!(src && src->dump) && !(nlh->nlmsg_flags & NLM_F_APPEND)) {
		memmove(c->rules + 1, c->rules, c->nrules * sizeof(*c->rules));
		c->rules[0] = r;
	} else {
		c->rules[c->nrules] = r;
	}
	c->nrules++;
	rs->nrules++;
	return 0;
}

static int add_set(struct sd_ruleset *rs, const struct nlmsghdr *nlh)
{
	struct nftnl_set *ns = nftnl_set_alloc();
	struct sd_table *t;
	struct sd_set *s;
	const void *d;
	uint32_t len;
	int ret = -ENOMEM;

	if (!ns)
		return -ENOMEM;
	if (nftnl_set_nlmsg_parse(nlh, ns) < 0) {
		ret = -EINVAL;
		goto out;
	}
	t = sd_table_get(rs, nftnl_set_get_u32(ns, NFTNL_SET_FAMILY),
			 nftnl_set_get_str(ns, NFTNL_SET_TABLE));
	s = calloc(1, sizeof(*s));
	if (!t || !s || grow((void **)&t->sets, &t->scap, t->nsets,
			     sizeof(*t->sets)) < 0) {
		free(s);
		goto out;
	}
	s->name = strdup(nftnl_set_get_str(ns, NFTNL_SET_NAME));
	s->id = nftnl_set_get_u32(ns, NFTNL_SET_ID);
	s->flags = nftnl_set_get_u32(ns, NFTNL_SET_FLAGS);
	s->key_len = nftnl_set_get_u32(ns, NFTNL_SET_KEY_LEN);
	if (nftnl_set_is_set(ns, NFTNL_SET_DATA_LEN))
		s->data_len = nftnl_set_get_u32(ns, NFTNL_SET_DATA_LEN);
	if (nftnl_set_is_set(ns, NFTNL_SET_DATA_TYPE))
		s->data_type = nftnl_set_get_u32(ns, NFTNL_SET_DATA_TYPE);
	s->dynamic = s->flags & (NFT_SET_EVAL | NFT_SET_TIMEOUT);
	if (nftnl_set_is_set(ns, NFTNL_SET_DESC_CONCAT)) {
		d = nftnl_set_get_data(ns, NFTNL_SET_DESC_CONCAT, &len);
		if (len > sizeof(s->field_len))
			len = sizeof(s->field_len);
		memcpy(s->field_len, d, len);
		s->nfields = len;
	}
	t->sets[t->nsets++] = s;
	ret = 0;
out:
	nftnl_set_free(ns);
	return ret;
}

static void copy_data(uint8_t *dst, const void *src, uint32_t len)
{
	memcpy(dst, src, len > SD_KEY_MAX ? SD_KEY_MAX : len);
}

/* NFTA_DATA_VALUE or NFTA_DATA_VERDICT inside a data attribute. */
static void parse_data(const struct nlattr *nest, uint8_t *dst,
		       struct sd_elem *e)
{
	const struct nlattr *a, *v;

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == NFTA_DATA_VALUE) {
			copy_data(dst, mnl_attr_get_payload(a),
				  mnl_attr_get_payload_len(a));
		} else if (mnl_attr_get_type(a) == NFTA_DATA_VERDICT && e) {
			e->has_verdict = true;
			mnl_attr_for_each_nested(v, a) {
				if (mnl_attr_get_type(v) == NFTA_VERDICT_CODE)
					e->verdict = (int)ntohl(
						mnl_attr_get_u32(v));
				else if (mnl_attr_get_type(v) ==
					 NFTA_VERDICT_CHAIN)
					e->chain = strdup(
						mnl_attr_get_str(v));
			}
		}
	}
}

static int parse_elem(struct sd_set *s, const struct nlattr *nest)
{
	const struct nlattr *a;
	struct sd_elem *e;

	if (grow((void **)&s->elems, &s->cap, s->nelems, sizeof(*e)) < 0)
		return -ENOMEM;
	e = &s->elems[s->nelems++];
	memset(e, 0, sizeof(*e));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_SET_ELEM_KEY:
			parse_data(a, e->key, NULL);
			break;
		case NFTA_SET_ELEM_KEY_END:
			parse_data(a, e->key_end, NULL);
			e->has_end = true;
			break;
		case NFTA_SET_ELEM_FLAGS:
			e->flags = ntohl(mnl_attr_get_u32(a));
			break;
		case NFTA_SET_ELEM_DATA:
			parse_data(a, e->data, e);
			break;
		}
	}
	return 0;
}

/*
 * Set elements are read with libmnl directly: the message as a batch
 * carries it (by set name or batch id) is all we need.
 */
static int add_elems(struct sd_ruleset *rs, const struct nlmsghdr *nlh)
{
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
	const char *table = NULL, *name = "%";
	const struct nlattr *a, *list = NULL, *el;
	bool has_id = false;
	uint32_t id = 0;
	struct sd_table *t;
	struct sd_set *s;
	int ret;

	mnl_attr_for_each(a, nlh, sizeof(*g)) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_SET_ELEM_LIST_TABLE:
			table = mnl_attr_get_str(a);
			break;
		case NFTA_SET_ELEM_LIST_SET:
			name = mnl_attr_get_str(a);
			break;
		case NFTA_SET_ELEM_LIST_SET_ID:
			id = ntohl(mnl_attr_get_u32(a));
			has_id = true;
			break;
		case NFTA_SET_ELEM_LIST_ELEMENTS:
			list = a;
			break;
		}
	}
	if (!table)
		return -EINVAL;
	t = sd_table_get(rs, g->nfgen_family, table);
	if (!t)
		return -ENOMEM;
	s = sd_set_find(t, name, id, has_id);
	if (!s)
		return -ENOENT;
	if (!list)
		return 0;
	mnl_attr_for_each_nested(el, list) {
		ret = parse_elem(s, el);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int sd_model_add_msg(struct sd_ruleset *rs, const void *buf,
		     const struct sd_msg_src *src, char *err, size_t errlen)
{
	const struct nlmsghdr *nlh = buf;
	uint16_t type = nlh->nlmsg_type;
	int ret = 0;

	if ((type >> 8) != NFNL_SUBSYS_NFTABLES)
		return 0;	/* batch begin/end */
	switch (type & 0xff) {
	case NFT_MSG_NEWTABLE: {
		const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
		struct nftnl_table *nt = nftnl_table_alloc();

		if (!nt)
			return -ENOMEM;
		if (nftnl_table_nlmsg_parse(nlh, nt) == 0 &&
		    !sd_table_get(rs, g->nfgen_family,
				  nftnl_table_get_str(nt, NFTNL_TABLE_NAME)))
			ret = -ENOMEM;
		nftnl_table_free(nt);
		break;
	}
	case NFT_MSG_NEWCHAIN:
		ret = add_chain(rs, nlh);
		break;
	case NFT_MSG_NEWRULE:
		ret = add_rule(rs, nlh, src);
		break;
	case NFT_MSG_NEWSET:
		ret = add_set(rs, nlh);
		break;
	case NFT_MSG_NEWSETELEM:
		ret = add_elems(rs, nlh);
		break;
	default:
		/* deletions/flushes: a file describes what it loads */
		break;
	}
	if (ret < 0)
		snprintf(err, errlen, "%s: cannot read message type %u: %s",
			 rs->label, type & 0xff, strerror(-ret));
	return ret;
}

/* dynset targets are dynamic; free-choice ordinals per chain. */
static int dynset_cb(struct nftnl_expr *e, void *data)
{
	struct sd_table *t = data;
	struct sd_set *s;

	if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "dynset"))
		return 0;
	s = sd_set_find(t, nftnl_expr_get_str(e, NFTNL_EXPR_DYNSET_SET_NAME),
			nftnl_expr_get_u32(e, NFTNL_EXPR_DYNSET_SET_ID), true);
	if (s)
		s->dynamic = true;
	return 0;
}

void sd_model_finish(struct sd_ruleset *rs)
{
	unsigned int i, j, k;

	for (i = 0; i < rs->ntables; i++) {
		struct sd_table *t = rs->tables[i];

		for (j = 0; j < t->nchains; j++) {
			struct sd_chain *c = t->chains[j];

			for (k = 0; k < c->nrules; k++) {
				c->rules[k]->index = k;
				nftnl_expr_foreach(c->rules[k]->nl, dynset_cb,
						   t);
			}
		}
	}
}

/*
 * Where @r comes from, for messages: "FILE:LINE" of the iptables-save or
 * nft source, or "LABEL: FAMILY TABLE CHAIN handle N" for a dump.
 */
void sd_rule_where(char *buf, size_t len, const struct sd_ruleset *rs,
		   const struct sd_rule *r)
{
	const char *label = rs ? rs->label : "?";

	if (r->handle && !r->line && !r->src_line)
		snprintf(buf, len, "%s: %s %s %s handle %llu", label,
			 sd_family_name(r->chain->table->family),
			 r->chain->table->name, r->chain->name,
			 (unsigned long long)r->handle);
	else if (r->src_line)
		snprintf(buf, len, "%s:%u", label, r->src_line);
	else if (rs && rs->kind && !strcmp(rs->kind, "iptables-save"))
		snprintf(buf, len, "%s (translation):%u", label, r->line);
	else
		snprintf(buf, len, "%s:%u", label, r->line);
}

uint32_t sd_attr_u32(const struct nftnl_expr *e, uint16_t type)
{
	uint32_t len = 0;
	const void *d;

	if (!nftnl_expr_is_set(e, type))
		return 0;
	d = nftnl_expr_get(e, type, &len);
	if (!d)
		return 0;
	switch (len) {
	case 1:
		return *(const uint8_t *)d;
	case 2:
		return *(const uint16_t *)d;
	case 4:
		return *(const uint32_t *)d;
	}
	return 0;
}
