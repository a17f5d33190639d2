// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sides that are not files of rules: `kernel` (the live ruleset of
 * the current network namespace, dumped over netlink) and an offline VM
 * state file (what `nft --offline STATEFILE` keeps; the VM it replays
 * is dumped the same way, through nftc's transport). The dump's
 * NEWTABLE/NEWCHAIN/NEWSET/NEWSETELEM/NEWRULE messages are the kernel's
 * own wire format, so they go to the model exactly as a compiled
 * batch's messages do (model.c). Each rule's text is its decompiled
 * form (nftc's `list ruleset`), found by the rule's handle.
 *
 * The raw messages are kept (rs->dump) for the replay of
 * counterexamples through the VM (replay.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/set.h>
#include "nftc.h"
#include "listing.h"
#include "printer.h"
#include "transport.h"
#include "sd_int.h"

#define LIVE_BUFSIZ	(256 * 1024)

bool sd_is_state_file(const char *data, size_t size)
{
	return size >= strlen(SD_STATE_MAGIC) &&
	       !memcmp(data, SD_STATE_MAGIC, strlen(SD_STATE_MAGIC));
}

/**
 * struct live - one series of dumps
 * @tp: the kernel socket or the offline VM's channel
 * @buf: receive buffer (and request buffer)
 */
struct live {
	struct nftc_transport	*tp;
	uint32_t		seq;
	char			*buf;
	struct sd_ruleset	*rs;
	char			*err;
	size_t			errlen;
	int			ret;
};

int sd_msgs_add(struct sd_msgs *m, const void *msg, size_t len)
{
	size_t alen = NLMSG_ALIGN(len);
	unsigned char *p;
	size_t cap;

	if (m->len + alen > m->cap) {
		cap = m->cap ? m->cap : 65536;
		while (cap < m->len + alen)
			cap *= 2;
		p = realloc(m->buf, cap);
		if (!p)
			return -ENOMEM;
		m->buf = p;
		m->cap = cap;
	}
	memcpy(m->buf + m->len, msg, len);
	memset(m->buf + m->len + len, 0, alen - len);
	m->len += alen;
	return 0;
}

static int msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct live *l = data;
	struct sd_msg_src src = { .dump = true };
	int ret;

	ret = sd_msgs_add(&l->rs->dump, nlh, nlh->nlmsg_len);
	if (ret == 0)
		ret = sd_model_add_msg(l->rs, nlh, &src, l->err, l->errlen);
	if (ret < 0) {
		l->ret = ret;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

/* Send the request in l->buf and feed every reply to the model. */
static int dump_run(struct live *l, struct nlmsghdr *nlh)
{
	int ret;

	l->ret = 0;
	ret = nftc_transport_send(l->tp, nlh, nlh->nlmsg_len);
	if (ret < 0)
		return ret;
	for (;;) {
		ret = nftc_transport_recv(l->tp, l->buf, LIVE_BUFSIZ, false);
		if (ret < 0)
			return ret;
		ret = mnl_cb_run(l->buf, ret, l->seq, l->tp->portid, msg_cb, l);
		if (ret <= 0)
			break;
	}
	if (l->ret < 0)
		return l->ret;
	return ret < 0 ? (errno ? -errno : -EIO) : 0;
}

static struct nlmsghdr *dump_hdr(struct live *l, uint16_t type,
				 uint32_t family)
{
	return nftnl_nlmsg_build_hdr(l->buf, type, family,
				     NLM_F_DUMP | NLM_F_ACK, ++l->seq);
}

/* Every set's elements, after the sets themselves. */
static int dump_elems(struct live *l)
{
	unsigned int i, j, nsets;
	struct nftnl_set *s;
	struct nlmsghdr *nlh;
	int ret;

	for (i = 0; i < l->rs->ntables; i++) {
		struct sd_table *t = l->rs->tables[i];

		nsets = t->nsets;
		for (j = 0; j < nsets; j++) {
			s = nftnl_set_alloc();
			if (!s)
				return -ENOMEM;
			nftnl_set_set_str(s, NFTNL_SET_TABLE, t->name);
			nftnl_set_set_str(s, NFTNL_SET_NAME, t->sets[j]->name);
			nlh = dump_hdr(l, NFT_MSG_GETSETELEM, t->family);
			nftnl_set_elems_nlmsg_build_payload(nlh, s);
			nftnl_set_free(s);
			ret = dump_run(l, nlh);
			if (ret < 0 && ret != -ENOENT)
				return ret;
		}
	}
	return 0;
}

static int dump_all(struct live *l)
{
	static const uint16_t types[] = {
		NFT_MSG_GETTABLE, NFT_MSG_GETCHAIN, NFT_MSG_GETSET,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		ret = dump_run(l, dump_hdr(l, types[i], NFPROTO_UNSPEC));
		if (ret < 0)
			return ret;
	}
	ret = dump_elems(l);
	if (ret < 0)
		return ret;
	return dump_run(l, dump_hdr(l, NFT_MSG_GETRULE, NFPROTO_UNSPEC));
}

/* The decompiled rule of @t/@c with @handle, one line, no counters. */
static char *rule_text(struct nftc_ruleset *irs, const struct sd_table *t,
		       const struct sd_chain *c, uint64_t handle)
{
	struct output_ctx octx = { .flags = NFTC_OUTPUT_STATELESS,
				   .family = t->family };
	struct table *it = nftc_ruleset_table(irs, t->family, t->name);
	struct chain *ic;
	struct rule *r;
	size_t len = 0;
	char *buf = NULL;

	if (!it)
		return NULL;
	list_for_each_entry(ic, &it->chains, list) {
		if (!ic->handle.chain.name || strcmp(ic->handle.chain.name,
						     c->name))
			continue;
		list_for_each_entry(r, &ic->rules, list) {
			if (r->handle.handle.id != handle)
				continue;
			octx.f = open_memstream(&buf, &len);
			if (!octx.f)
				return NULL;
			nftc_print_rule(&octx, r);
			fclose(octx.f);
			while (len && (buf[len - 1] == '\n' ||
				       buf[len - 1] == ' '))
				buf[--len] = '\0';
			return buf;
		}
	}
	return NULL;
}

static void name_rules(struct sd_ruleset *rs, struct nftc_offline *off)
{
	struct nftc_ruleset irs;
	unsigned int i, j, k;

	if (nftc_ruleset_dump(&irs, 0, off) < 0) {
		nftc_ruleset_free(&irs);
		return;
	}
	for (i = 0; i < rs->ntables; i++) {
		struct sd_table *t = rs->tables[i];

		for (j = 0; j < t->nchains; j++) {
			struct sd_chain *c = t->chains[j];

			for (k = 0; k < c->nrules; k++) {
				struct sd_rule *r = c->rules[k];
				char *text = rule_text(&irs, t, c, r->handle);

				if (!text)
					continue;
				free(r->text);
				r->text = text;
			}
		}
	}
	nftc_ruleset_free(&irs);
}

/**
 * sd_load_live - read the kernel's ruleset or an offline state file's
 * @state: the state file, NULL for the kernel
 */
int sd_load_live(struct sd_ruleset *rs, const char *state, char *err,
		 size_t errlen)
{
	struct live l = { .rs = rs, .err = err, .errlen = errlen };
	struct nftc_offline *off = NULL;
	char msg[256];
	int ret;

	rs->kind = state ? "VM state" : "kernel";
	if (state) {
		off = nftc_offline_open(state, msg, sizeof(msg));
		if (!off) {
			snprintf(err, errlen, "%s", msg);
			return -EINVAL;
		}
	}
	l.buf = malloc(LIVE_BUFSIZ);
	ret = l.buf ? nftc_transport_open(off, &l.tp) : -ENOMEM;
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot talk to %s: %s",
			 rs->label, state ? "the VM" : "nf_tables",
			 strerror(-ret));
		goto out;
	}
	err[0] = '\0';
	ret = dump_all(&l);
	if (ret < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s: cannot dump the ruleset: %s",
				 rs->label, strerror(-ret));
		goto out;
	}
	sd_model_finish(rs);
	name_rules(rs, off);
out:
	nftc_transport_close(l.tp);
	nftc_offline_close(off);
	free(l.buf);
	return ret;
}
