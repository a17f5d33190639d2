// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xtables compat expressions (rules written by iptables-nft) in nft
 * syntax, through libxtables' translators, as stock nft lists them.
 *
 * libxtables keeps global state (loaded extensions, the current
 * family) and loads plugins: this glue is for the CLI's "list" only and
 * is handed to the decompiler as a hook (struct delin_ctx.xt_xlate).
 */
#include <config.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xtables.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include <linux/netfilter_arp/arp_tables.h>
#include <linux/netfilter_bridge/ebtables.h>
#include "listing.h"
#include "delinearize.h"

#define XT_XLATE_BUFSIZ		10240

union xt_nft_entry {
	struct ipt_entry	ipt;
	struct ip6t_entry	ip6t;
	struct arpt_entry	arpt;
	struct ebt_entry	ebt;
};

/* Revisions: trust what the kernel holds (it accepted them). */
static int xt_compat_rev(const char *name, uint8_t rev, int opt)
{
	return 1;
}

static struct option xt_orig_opts[] = {
	{ NULL },
};

static struct xtables_globals xt_nft_globals = {
	.program_name		= "nft",
	.program_version	= PACKAGE_VERSION,
	.orig_opts		= xt_orig_opts,
	.compat_rev		= xt_compat_rev,
};

/**
 * nftc_xt_init - set up libxtables for translations (once per process)
 */
void nftc_xt_init(void)
{
	static bool done;	/* libxtables itself is process-global */

	if (done)
		return;
	done = true;
	xtables_init_all(&xt_nft_globals, NFPROTO_IPV4);
}

/* The rule entry an extension's translator looks at (protocol). */
static void xt_entry_init(union xt_nft_entry *e, const struct delin_xt *xt)
{
	memset(e, 0, sizeof(*e));
	switch (xt->family) {
	case NFPROTO_IPV4:
		e->ipt.ip.proto = xt->proto;
		break;
	case NFPROTO_IPV6:
		e->ip6t.ipv6.proto = xt->proto;
		break;
	case NFPROTO_BRIDGE:
		e->ebt.ethproto = xt->proto;
		break;
	case NFPROTO_ARP:
		e->arpt.arp.arhln_mask = 0xff;
		e->arpt.arp.arhln = 6;
		break;
	default:
		break;
	}
}

static int xlate_match(struct xt_xlate *xl, const struct delin_xt *xt,
		       const union xt_nft_entry *entry)
{
	struct xt_xlate_mt_params p = { .ip = entry, .numeric = 1 };
	struct xtables_match *mt;
	struct xt_entry_match *m;
	size_t size;
	int rc;

	mt = xtables_find_match(xt->name, XTF_TRY_LOAD, NULL);
	if (!mt)
		return 0;	/* listed by name */
	if (!mt->xlate)
		return 0;
	size = XT_ALIGN(sizeof(*m)) + xt->len;
	m = calloc(1, size);
	if (!m)
		return 0;
	memcpy(m->data, xt->info, xt->len);
	m->u.match_size = size;
	m->u.user.revision = xt->rev;
	p.match = m;
	rc = mt->xlate(xl, &p);
	free(m);
	return rc;
}

static int xlate_target(struct xt_xlate *xl, const struct delin_xt *xt,
			const union xt_nft_entry *entry)
{
	struct xt_xlate_tg_params p = { .ip = entry, .numeric = 1 };
	struct xtables_target *tg;
	struct xt_entry_target *t;
	size_t size;
	int rc;

	tg = xtables_find_target(xt->name, XTF_TRY_LOAD);
	if (!tg)
		return 0;	/* listed by name */
	if (!tg->xlate)
		return 0;
	size = XT_ALIGN(sizeof(*t)) + xt->len;
	t = calloc(1, size);
	if (!t)
		return 0;
	memcpy(t->data, xt->info, xt->len);
	t->u.target_size = size;
	t->u.user.revision = xt->rev;
	snprintf(t->u.user.name, sizeof(t->u.user.name), "%s", tg->name);
	p.target = t;
	rc = tg->xlate(xl, &p);
	free(t);
	return rc;
}

/**
 * nftc_xt_xlate - nft text of an xtables extension, or NULL
 * (a struct delin_ctx.xt_xlate hook; @priv is unused)
 */
char *nftc_xt_xlate(void *priv, const struct delin_xt *xt)
{
	union xt_nft_entry entry;
	struct xt_xlate *xl;
	char *text = NULL;
	int rc;

	if (!xt->info)
		return NULL;
	nftc_xt_init();
	xtables_set_nfproto(xt->family);
	xt_entry_init(&entry, xt);
	xl = xt_xlate_alloc(XT_XLATE_BUFSIZ);
	if (!xl)
		return NULL;
	if (!strcmp(xt->kind, "match"))
		rc = xlate_match(xl, xt, &entry);
	else
		rc = xlate_target(xl, xt, &entry);
	if (rc == 1)
		text = strdup(xt_xlate_get(xl));
	xt_xlate_free(xl);
	return text;
}
