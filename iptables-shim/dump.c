// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the kernel's ruleset for iptables-save-nft: nftc's listing
 * dump, plus what iptables needs and nft's listing does not keep: base
 * chain counters, and xt-compat expressions decoded by libxtables
 * (their rules are dumped again and decompiled with shim_xt_save).
 */
#define _GNU_SOURCE
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/rule.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "shim.h"
#include "delinearize.h"

#define SHIM_DUMP_BUFSIZ	(1 << 20)

struct shim_dump_ctx {
	struct mnl_socket	*nl;
	uint32_t		portid;
	uint32_t		seq;
	char			*buf;
	struct shim_ruleset	*s;
	uint8_t			family;
	struct table		*index_table;
	struct delin_set_index	*index;
	struct shim_xt		xt;
};

static int run(struct shim_dump_ctx *d, uint16_t type, mnl_cb_t cb)
{
	struct nlmsghdr *nlh;
	int ret;

	nlh = nftnl_nlmsg_build_hdr(d->buf, type, d->family,
				    NLM_F_DUMP | NLM_F_ACK, ++d->seq);
	if (mnl_socket_sendto(d->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ret = mnl_socket_recvfrom(d->nl, d->buf, SHIM_DUMP_BUFSIZ);
		if (ret < 0)
			return -errno;
		ret = mnl_cb_run(d->buf, ret, d->seq, d->portid, cb, d);
		if (ret <= 0)
			break;
	}
	return ret < 0 ? (errno ? -errno : -EIO) : 0;
}

static int chain_cb(const struct nlmsghdr *nlh, void *data)
{
	struct shim_dump_ctx *d = data;
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct shim_chain_ctr *n, *row;

	if (!c)
		return MNL_CB_ERROR;
	if (nftnl_chain_nlmsg_parse(nlh, c) < 0 ||
	    !nftnl_chain_is_set(c, NFTNL_CHAIN_PACKETS))
		goto out;
	n = realloc(d->s->ctrs, (d->s->nctrs + 1) * sizeof(*n));
	if (!n)
		goto out;
	d->s->ctrs = n;
	row = &n[d->s->nctrs++];
	row->table = strdup(nftnl_chain_get_str(c, NFTNL_CHAIN_TABLE));
	row->chain = strdup(nftnl_chain_get_str(c, NFTNL_CHAIN_NAME));
	row->packets = nftnl_chain_get_u64(c, NFTNL_CHAIN_PACKETS);
	row->bytes = nftnl_chain_get_u64(c, NFTNL_CHAIN_BYTES);
out:
	nftnl_chain_free(c);
	return MNL_CB_OK;
}

static struct chain *find_chain(struct table *t, const char *name)
{
	struct chain *c;

	list_for_each_entry(c, &t->chains, list) {
		if (!strcmp(c->handle.chain.name, name))
			return c;
	}
	return NULL;
}

static void rule_parsed(struct shim_dump_ctx *d, const struct nftnl_rule *nlr)
{
	struct delin_ctx dctx = { .xt_xlate = shim_xt_save, .xt_priv = &d->xt };
	struct table *t;
	struct chain *c;
	struct rule *r;

	t = nftc_ruleset_table(&d->s->rs, d->family,
			       nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE));
	if (!t || !(t->flags & NFTC_TABLE_F_XT))
		return;
	c = find_chain(t, nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN));
	if (!c)
		return;
	if (d->index_table != t) {
		delin_set_index_free(d->index);
		d->index = delin_set_index_build(t);
		d->index_table = t;
	}
	dctx.family = d->family;
	dctx.table = t;
	dctx.sets = d->index;
	r = nftc_delinearize_rule(&dctx, nlr);
	if (r)
		list_add_tail(&r->list, &c->rules);
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *nlr = nftnl_rule_alloc();

	if (!nlr)
		return MNL_CB_ERROR;
	if (nftnl_rule_nlmsg_parse(nlh, nlr) == 0)
		rule_parsed(data, nlr);
	nftnl_rule_free(nlr);
	return MNL_CB_OK;
}

/* Tables holding xt expressions lose their rules: read them again. */
static bool drop_xt_rules(struct shim_ruleset *s)
{
	struct rule *r, *rn;
	struct table *t;
	struct chain *c;
	bool any = false;

	list_for_each_entry(t, &s->rs.tables, list) {
		if (!(t->flags & NFTC_TABLE_F_XT))
			continue;
		any = true;
		list_for_each_entry(c, &t->chains, list) {
			list_for_each_entry_safe(r, rn, &c->rules, list) {
				list_del(&r->list);
				rule_free(r);
			}
		}
	}
	return any;
}

int shim_dump(struct shim_ruleset *s, uint8_t family)
{
	struct shim_dump_ctx d = {
		.s = s, .family = family, .xt = SHIM_XT_INIT,
	};
	int ret;

	s->ctrs = NULL;
	s->nctrs = 0;
	ret = nftc_ruleset_dump(&s->rs, family, NULL);
	if (ret < 0)
		return ret;
	d.buf = malloc(SHIM_DUMP_BUFSIZ);
	d.nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!d.buf || !d.nl || mnl_socket_bind(d.nl, 0, MNL_SOCKET_AUTOPID)) {
		ret = -errno;
		goto out;
	}
	d.portid = mnl_socket_get_portid(d.nl);
	d.seq = time(NULL);
	ret = run(&d, NFT_MSG_GETCHAIN, chain_cb);
	if (ret == 0 && drop_xt_rules(s))
		ret = run(&d, NFT_MSG_GETRULE, rule_cb);
	if (ret == -ENOENT)
		ret = 0;
out:
	shim_xt_done(&d.xt);
	delin_set_index_free(d.index);
	if (d.nl)
		mnl_socket_close(d.nl);
	free(d.buf);
	return ret;
}

void shim_ruleset_free(struct shim_ruleset *s)
{
	unsigned int i;

	nftc_ruleset_free(&s->rs);
	for (i = 0; i < s->nctrs; i++) {
		free(s->ctrs[i].table);
		free(s->ctrs[i].chain);
	}
	free(s->ctrs);
	s->ctrs = NULL;
	s->nctrs = 0;
}

const struct shim_chain_ctr *shim_chain_ctr(const struct shim_ruleset *s,
					    const char *table,
					    const char *chain)
{
	unsigned int i;

	for (i = 0; i < s->nctrs; i++) {
		if (!strcmp(s->ctrs[i].table, table) &&
		    !strcmp(s->ctrs[i].chain, chain))
			return &s->ctrs[i];
	}
	return NULL;
}
