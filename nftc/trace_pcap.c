// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "nft --offline STATEFILE trace pcap FILE [hook NAME]": every IPv4 and
 * IPv6 packet of a capture file (libpcap) runs through the offline VM's
 * hook (input unless named); printed are the verdict totals and, per
 * rule, how many packets it matched.
 *
 * libpcap is loaded (dlopen) when a capture is replayed, not linked:
 * it brings eight more libraries (D-Bus, systemd, gcrypt, compressors)
 * that every "nft -f" would otherwise map and relocate, about 1 MB of
 * its peak memory.
 */
#include <config.h>
#ifdef HAVE_LIBPCAP
/* before the kernel headers: its netinet/in.h clashes with linux/in.h */
#include <pcap/pcap.h>
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <nftvm/nftvm.h>
#include "nftc.h"
#include "listing.h"
#include "printer.h"
#include "transport.h"
#include "trace.h"

#ifdef HAVE_LIBPCAP

/**
 * struct link_kind - a capture's link layer: how far the network header
 * is, and where the next protocol is said (-1: the IP version says)
 */
static const struct link_kind {
	int		dlt;
	unsigned int	hdrlen;
	int		ethertype_at;
} link_kinds[] = {
	{ DLT_EN10MB,		14,	12 },
	{ DLT_LINUX_SLL,	16,	14 },
	{ DLT_RAW,		0,	-1 },
	{ DLT_IPV4,		0,	-1 },
	{ DLT_IPV6,		0,	-1 },
	{ DLT_NULL,		4,	-1 },
	{ DLT_LOOP,		4,	-1 },
};

#define ETH_P_8021Q_	0x8100

/**
 * struct rule_hits - packets one rule matched
 */
struct rule_hits {
	uint8_t		family;
	char		*table;
	char		*chain;
	uint64_t	handle;
	uint64_t	hits;
};

struct pcap_stats {
	uint64_t		packets;
	uint64_t		skipped;
	uint64_t		accepted;
	uint64_t		dropped;
	uint64_t		other;
	struct rule_hits	*rules;
	unsigned int		nrules;
	unsigned int		cap;
};

static const struct link_kind *link_kind_of(int dlt)
{
	size_t i;

	for (i = 0; i < sizeof(link_kinds) / sizeof(link_kinds[0]); i++)
		if (link_kinds[i].dlt == dlt)
			return &link_kinds[i];
	return NULL;
}

/* The network header of a captured frame, NULL if not IPv4/IPv6. */
static const uint8_t *net_header(const struct link_kind *lk,
				 const uint8_t *p, uint32_t caplen,
				 uint32_t *len)
{
	unsigned int off = lk->hdrlen;
	uint16_t et;

	if (caplen < off + 1)
		return NULL;
	if (lk->ethertype_at >= 0) {
		et = (uint16_t)(p[lk->ethertype_at] << 8 |
				p[lk->ethertype_at + 1]);
		if (lk->dlt == DLT_EN10MB && et == ETH_P_8021Q_ &&
		    caplen >= 18) {
			et = (uint16_t)(p[16] << 8 | p[17]);
			off += 4;
		}
		if (et != 0x0800 && et != 0x86dd)
			return NULL;
	}
	if (caplen <= off)
		return NULL;
	if ((p[off] >> 4) != 4 && (p[off] >> 4) != 6)
		return NULL;
	*len = caplen - off;
	return p + off;
}

static int count_rule(struct pcap_stats *st, const struct nftvm_trace_step *s)
{
	struct rule_hits *r;
	unsigned int i;

	for (i = 0; i < st->nrules; i++) {
		r = &st->rules[i];
		if (r->handle == s->handle && r->family == s->family &&
		    !strcmp(r->table, s->table) && !strcmp(r->chain, s->chain)) {
			r->hits++;
			return 0;
		}
	}
	if (st->nrules == st->cap) {
		unsigned int cap = st->cap ? st->cap * 2 : 16;

		r = realloc(st->rules, cap * sizeof(*r));
		if (!r)
			return -1;
		st->rules = r;
		st->cap = cap;
	}
	r = &st->rules[st->nrules];
	r->family = s->family;
	r->table = strdup(s->table);
	r->chain = strdup(s->chain);
	r->handle = s->handle;
	r->hits = 1;
	if (!r->table || !r->chain) {
		free(r->table);
		free(r->chain);
		return -1;
	}
	st->nrules++;
	return 0;
}

static int run_one(struct nftvm *vm, unsigned int hook, struct pcap_stats *st,
		   const uint8_t *data, uint32_t len, struct nftvm_result *res)
{
	uint8_t *copy = malloc(len);
	struct nftvm_pkt pkt = { .data = copy, .len = len };
	unsigned int i;
	int ret;

	if (!copy)
		return -1;
	memcpy(copy, data, len);
	ret = nftvm_eval(vm, hook, (data[0] >> 4) == 6 ? NFPROTO_IPV6 :
			 NFPROTO_IPV4, &pkt, NULL, res);
	free(copy);
	if (ret < 0)
		return ret;
	for (i = 0; i < res->ntrace; i++)
		if (res->trace[i].type == NFT_TRACETYPE_RULE &&
		    count_rule(st, &res->trace[i]) < 0)
			return -1;
	switch ((unsigned int)res->verdict & NF_VERDICT_MASK) {
	case NF_ACCEPT:
		st->accepted++;
		break;
	case NF_DROP:
		st->dropped++;
		break;
	default:
		st->other++;
		break;
	}
	return 0;
}

static void print_rule(FILE *out, struct nftc_ruleset *rs,
		       const struct rule_hits *h)
{
	struct output_ctx octx = { .family = h->family };
	struct table *t = nftc_ruleset_table(rs, h->family, h->table);
	struct chain *c;
	struct rule *r;
	size_t len = 0;
	char *buf = NULL;

	fprintf(out, "%10llu  %s %s %s handle %llu: ",
		(unsigned long long)h->hits, nftc_family_name(h->family),
		h->table, h->chain, (unsigned long long)h->handle);
	if (!t)
		goto out;
	list_for_each_entry(c, &t->chains, list) {
		if (!c->handle.chain.name || strcmp(c->handle.chain.name,
						    h->chain))
			continue;
		list_for_each_entry(r, &c->rules, list) {
			if (r->handle.handle.id != h->handle)
				continue;
			octx.f = open_memstream(&buf, &len);
			if (!octx.f)
				goto out;
			nftc_print_rule(&octx, r);
			fclose(octx.f);
			while (len && (buf[len - 1] == '\n' ||
				       buf[len - 1] == ' '))
				buf[--len] = '\0';
			fputs(buf + strspn(buf, "\t "), out);
			free(buf);
			goto out;
		}
	}
out:
	fputc('\n', out);
}

static void print_stats(FILE *out, struct nftc_offline *off,
			const struct pcap_stats *st)
{
	struct nftc_ruleset rs;
	unsigned int i;

	fprintf(out, "packets %llu: accept %llu, drop %llu, other %llu, "
		"not IP %llu\n", (unsigned long long)st->packets,
		(unsigned long long)st->accepted,
		(unsigned long long)st->dropped,
		(unsigned long long)st->other,
		(unsigned long long)st->skipped);
	nftc_ruleset_dump(&rs, 0, off);
	for (i = 0; i < st->nrules; i++)
		print_rule(out, &rs, &st->rules[i]);
	nftc_ruleset_free(&rs);
}

/**
 * struct pcap_lib - the libpcap functions used, loaded
 * @handle: dlopen() handle
 */
struct pcap_lib {
	void		*handle;
	pcap_t		*(*open_offline)(const char *path, char *errbuf);
	int		(*datalink)(pcap_t *p);
	const char	*(*datalink_val_to_name)(int dlt);
	int		(*next_ex)(pcap_t *p, struct pcap_pkthdr **h,
				   const u_char **data);
	char		*(*geterr)(pcap_t *p);
	void		(*close)(pcap_t *p);
};

/* The names libpcap's library goes by (its soname differs). */
static const char *const pcap_sonames[] = {
	"libpcap.so.1", "libpcap.so.0.8", "libpcap.so",
};

static int pcap_lib_open(struct pcap_lib *l)
{
	const struct {
		const char	*name;
		void		**fn;
	} fns[] = {
		{ "pcap_open_offline",		(void **)&l->open_offline },
		{ "pcap_datalink",		(void **)&l->datalink },
		{ "pcap_datalink_val_to_name",	(void **)&l->datalink_val_to_name },
		{ "pcap_next_ex",		(void **)&l->next_ex },
		{ "pcap_geterr",		(void **)&l->geterr },
		{ "pcap_close",			(void **)&l->close },
	};
	unsigned int i;

	memset(l, 0, sizeof(*l));
	for (i = 0; !l->handle && i < sizeof(pcap_sonames) /
				      sizeof(pcap_sonames[0]); i++)
		l->handle = dlopen(pcap_sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!l->handle)
		return -1;
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		*fns[i].fn = dlsym(l->handle, fns[i].name);
		if (!*fns[i].fn) {
			dlclose(l->handle);
			l->handle = NULL;
			return -1;
		}
	}
	return 0;
}

int nftc_trace_pcap(struct nftc_ctx *ctx, struct nftc_offline *off,
		    const char *path, unsigned int hook, FILE *out)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_lib l;
	struct nftvm_result *res = NULL;
	struct pcap_stats st = { 0 };
	const struct link_kind *lk;
	struct pcap_pkthdr *ph;
	const uint8_t *data, *nh;
	pcap_t *p;
	uint32_t len;
	unsigned int i;
	int ret = -1, r;

	if (pcap_lib_open(&l) < 0) {
		erec_error(&ctx->erq, NULL, "trace pcap: cannot load libpcap");
		return -1;
	}
	p = l.open_offline(path, errbuf);
	if (!p) {
		erec_error(&ctx->erq, NULL, "%s", errbuf);
		dlclose(l.handle);
		return -1;
	}
	lk = link_kind_of(l.datalink(p));
	if (!lk) {
		erec_error(&ctx->erq, NULL, "%s: link type %s not supported",
			   path, l.datalink_val_to_name(l.datalink(p)));
		goto out;
	}
	res = malloc(sizeof(*res));
	if (!res)
		goto out;
	while ((r = l.next_ex(p, &ph, &data)) == 1) {
		st.packets++;
		nh = net_header(lk, data, ph->caplen, &len);
		if (!nh) {
			st.skipped++;
			continue;
		}
		if (run_one(nftc_offline_vm(off), hook, &st, nh, len,
			    res) < 0) {
			erec_error(&ctx->erq, NULL, "cannot replay %s", path);
			goto out;
		}
	}
	if (r == -1) {
		erec_error(&ctx->erq, NULL, "%s: %s", path, l.geterr(p));
		goto out;
	}
	print_stats(out, off, &st);
	ret = 0;
out:
	for (i = 0; i < st.nrules; i++) {
		free(st.rules[i].table);
		free(st.rules[i].chain);
	}
	free(st.rules);
	free(res);
	l.close(p);
	dlclose(l.handle);
	return ret;
}

#else /* !HAVE_LIBPCAP */

int nftc_trace_pcap(struct nftc_ctx *ctx, struct nftc_offline *off,
		    const char *path, unsigned int hook, FILE *out)
{
	erec_error(&ctx->erq, NULL, "trace pcap: built without libpcap");
	return -1;
}

#endif
