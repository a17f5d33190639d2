// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the kernel's ruleset for iptables-save-nft: nftc's listing
 * dump, plus what iptables needs and nft's listing does not keep: base
 * chain counters; and xt-compat expressions are decoded by libxtables
 * (shim_xt_save) in the same dump. The kernel's or, offline, the VM's
 * (offline.c): both through nftc's transport.
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
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "shim.h"
#include "netlink.h"
#include "transport.h"

#define SHIM_DUMP_BUFSIZ	(1 << 20)

struct shim_dump_ctx {
	struct nftc_transport	*nl;	/* the kernel or the offline VM */
	uint32_t		seq;
	char			*buf;
	struct shim_ruleset	*s;
	uint8_t			family;
};

static int run(struct shim_dump_ctx *d, uint16_t type, mnl_cb_t cb)
{
	struct nlmsghdr *nlh;
	int ret;

	nlh = nftnl_nlmsg_build_hdr(d->buf, type, d->family,
				    NLM_F_DUMP | NLM_F_ACK, ++d->seq);
	ret = nftc_transport_send(d->nl, nlh, nlh->nlmsg_len);
	if (ret < 0)
		return ret;
	for (;;) {
		ret = nftc_transport_recv(d->nl, d->buf, SHIM_DUMP_BUFSIZ,
					  false);
		if (ret < 0)
			return ret;
		errno = 0;
		ret = mnl_cb_run(d->buf, ret, d->seq, d->nl->portid, cb, d);
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

int shim_dump(struct shim_ruleset *s, uint8_t family)
{
	struct shim_dump_ctx d = { .s = s, .family = family };
	int ret;

	s->ctrs = NULL;
	s->nctrs = 0;
	s->xt = (struct shim_xt)SHIM_XT_INIT;
	/* compat expressions decompile to iptables text */
	s->dp = nftc_dumper_open(&s->rs, family, shim_offline(), shim_xt_save,
				 &s->xt, &ret);
	if (!s->dp)
		return ret;
	d.buf = malloc(SHIM_DUMP_BUFSIZ);
	if (!d.buf) {
		ret = -ENOMEM;
		goto out;
	}
	ret = nftc_transport_open(shim_offline(), &d.nl);
	if (ret < 0)
		goto out;
	d.seq = time(NULL);
	ret = run(&d, NFT_MSG_GETCHAIN, chain_cb);
	if (ret == -ENOENT)
		ret = 0;
out:
	nftc_transport_close(d.nl);
	free(d.buf);
	return ret;
}

int shim_dump_rules(struct shim_ruleset *s, struct table *t, struct chain *c,
		    nftc_rule_sink sink, void *priv)
{
	return nftc_dumper_rules(s->dp, t, c, sink, priv);
}

void shim_ruleset_free(struct shim_ruleset *s)
{
	unsigned int i;

	nftc_dumper_close(s->dp);
	s->dp = NULL;
	shim_xt_done(&s->xt);
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

int shim_genid(uint32_t *genid)
{
	struct nftc_ctx *nft = shim_nftc_ctx_alloc();
	int ret;

	if (!nft)
		return -ENOMEM;
	ret = nftc_netlink_genid(nft, genid);
	nftc_ctx_free(nft);
	return ret;
}
