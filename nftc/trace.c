// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "nft --offline STATEFILE trace packet SELECTORS... [hook NAME]": one
 * packet described with selectors (packet_build.h) runs through the
 * offline VM's base chains of its hook; every step is printed as "nft
 * monitor trace" prints the kernel's trace events, then the verdict.
 *
 * The family follows from "family NAME", else from the hook (ingress,
 * egress: netdev) or the selectors: an arp header field ("arp operation
 * request") makes an arp packet, an ether or vlan one ("ether saddr",
 * "vlan id") a bridge frame, otherwise an IP packet (IPv6 when ip6
 * selectors say so) of ip, ip6 and inet tables.  The hook follows from
 * "hook NAME" or else from the interfaces named: iif only (or none)
 * input, oif only output, both forward (netdev: ingress, oif only
 * egress).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <linux/netfilter.h>
#include <linux/netfilter_arp.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <nftvm/nftvm.h>
#include "nftc.h"
#include "linearize.h"
#include "hash.h"
#include "listing.h"
#include "printer.h"
#include "packet_build.h"
#include "transport.h"
#include "trace.h"

#define TRACE_TABLE	"__nftkit_trace"

/* the hooks "hook NAME" names, per family (NFPROTO_INET: ip, ip6) */
static const struct trace_hook {
	unsigned int	family;
	const char	*name;
	unsigned int	hook;
} trace_hooks[] = {
	{ NFPROTO_INET,		"prerouting",	NF_INET_PRE_ROUTING },
	{ NFPROTO_INET,		"input",	NF_INET_LOCAL_IN },
	{ NFPROTO_INET,		"forward",	NF_INET_FORWARD },
	{ NFPROTO_INET,		"output",	NF_INET_LOCAL_OUT },
	{ NFPROTO_INET,		"postrouting",	NF_INET_POST_ROUTING },
	{ NFPROTO_BRIDGE,	"prerouting",	NF_INET_PRE_ROUTING },
	{ NFPROTO_BRIDGE,	"input",	NF_INET_LOCAL_IN },
	{ NFPROTO_BRIDGE,	"forward",	NF_INET_FORWARD },
	{ NFPROTO_BRIDGE,	"output",	NF_INET_LOCAL_OUT },
	{ NFPROTO_BRIDGE,	"postrouting",	NF_INET_POST_ROUTING },
	{ NFPROTO_ARP,		"input",	NF_ARP_IN },
	{ NFPROTO_ARP,		"output",	NF_ARP_OUT },
	{ NFPROTO_NETDEV,	"ingress",	NF_NETDEV_INGRESS },
	{ NFPROTO_NETDEV,	"egress",	NF_NETDEV_EGRESS },
};

/* the families "family NAME" names; the table the selectors compile in */
static const struct trace_family {
	const char	*name;
	unsigned int	family;
} trace_families[] = {
	{ "ip",		NFPROTO_INET },
	{ "ip6",	NFPROTO_INET },
	{ "inet",	NFPROTO_INET },
	{ "arp",	NFPROTO_ARP },
	{ "bridge",	NFPROTO_BRIDGE },
	{ "netdev",	NFPROTO_NETDEV },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static int hook_lookup(unsigned int family, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(trace_hooks); i++)
		if (trace_hooks[i].family == family &&
		    !strcmp(trace_hooks[i].name, name))
			return (int)trace_hooks[i].hook;
	return -1;
}

/*
 * A header selector of protocol @proto among the words: "@proto FIELD"
 * (so "meta iiftype ether" names no Ethernet field).
 */
static bool has_header(const char *sel, const char *proto)
{
	static const char *const fields[] = {
		"saddr", "daddr", "type", "id", "pcp", "cfi", "dei",
		"htype", "ptype", "hlen", "plen", "operation",
	};
	size_t n = strlen(proto), i, f;
	const char *p;

	for (p = sel; (p = strstr(p, proto)) != NULL; p += n) {
		if ((p != sel && p[-1] != ' ') || p[n] != ' ')
			continue;
		for (i = 0; i < ARRAY_LEN(fields); i++) {
			f = strlen(fields[i]);
			if (!strncmp(p + n + 1, fields[i], f) &&
			    (p[n + 1 + f] == ' ' || !p[n + 1 + f]))
				return true;
		}
	}
	return false;
}

/**
 * struct trace_args - the words of "trace packet" sorted out
 * @sel: the selectors, joined with spaces
 * @hook: NF_*_ hook number of @family, -1 to follow from the selectors
 * @family: NFPROTO_INET (ip, ip6, inet tables), _ARP, _BRIDGE, _NETDEV
 */
struct trace_args {
	char		*sel;
	int		hook;
	unsigned int	family;
};

static const struct {
	int		code;
	const char	*name;
} trace_verdicts[] = {
	{ NF_ACCEPT,	"accept" },
	{ NF_DROP,	"drop" },
	{ NF_QUEUE,	"queue" },
	{ NF_STOLEN,	"stolen" },
	{ NFT_CONTINUE,	"continue" },
	{ NFT_BREAK,	"break" },
	{ NFT_RETURN,	"return" },
	{ NFT_JUMP,	"jump" },
	{ NFT_GOTO,	"goto" },
};

static const char *verdict_name(int code)
{
	size_t i;

	if (code >= 0)
		code &= NF_VERDICT_MASK;
	for (i = 0; i < sizeof(trace_verdicts) / sizeof(trace_verdicts[0]);
	     i++)
		if (trace_verdicts[i].code == code)
			return trace_verdicts[i].name;
	return "unknown";
}

/*
 * "hook NAME" and "family NAME" taken out of the words, the rest joined
 * with spaces; then the family and the hook number decided.
 */
static int split_args(struct nftc_ctx *ctx, int argc, char **argv,
		      struct trace_args *ta)
{
	const char *hook = NULL, *fam = NULL;
	size_t len = 1, i;
	int k;

	ta->hook = -1;
	ta->family = NFPROTO_INET;
	for (k = 0; k < argc; k++)
		len += strlen(argv[k]) + 1;
	ta->sel = calloc(1, len);
	if (!ta->sel)
		return -1;
	for (k = 0; k < argc; k++) {
		if (!strcmp(argv[k], "hook") && k + 1 < argc) {
			hook = argv[++k];
			continue;
		}
		if (!strcmp(argv[k], "family") && k + 1 < argc) {
			fam = argv[++k];
			continue;
		}
		if (*ta->sel)
			strcat(ta->sel, " ");
		strcat(ta->sel, argv[k]);
	}
	if (fam) {
		for (i = 0; i < ARRAY_LEN(trace_families); i++)
			if (!strcmp(fam, trace_families[i].name))
				break;
		if (i == ARRAY_LEN(trace_families)) {
			erec_error(&ctx->erq, NULL, "unknown family \"%s\"",
				   fam);
			return -1;
		}
		ta->family = trace_families[i].family;
	} else if (hook && (!strcmp(hook, "ingress") ||
			    !strcmp(hook, "egress"))) {
		ta->family = NFPROTO_NETDEV;
	} else if (has_header(ta->sel, "arp")) {
		ta->family = NFPROTO_ARP;
	} else if (has_header(ta->sel, "ether") ||
		   has_header(ta->sel, "vlan")) {
		ta->family = NFPROTO_BRIDGE;
	}
	if (hook) {
		ta->hook = hook_lookup(ta->family, hook);
		if (ta->hook < 0) {
			erec_error(&ctx->erq, NULL,
				   "unknown hook \"%s\" for family %s", hook,
				   nftc_family_name(ta->family));
			return -1;
		}
	}
	return 0;
}

/* The selectors as one rule of a @family table, compiled into @batch. */
static int compile_selectors(struct nftc_ctx *ctx, const char *sel,
			     unsigned int family, struct nftc_batch **batch)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	size_t len = strlen(sel) + 128;
	char *text = malloc(len);
	int ret;

	*batch = NULL;
	if (!text)
		return -1;
	snprintf(text, len, "table %s " TRACE_TABLE
		 " { chain c { %s; }; }\n", nftc_family_name(family), sel);
	ret = nftc_parse_buffer(ctx, text, &cmds);
	if (ret == 0)
		ret = nftc_evaluate(ctx, &cmds);
	if (ret == 0) {
		*batch = nftc_batch_alloc(1);
		ret = *batch ? nftc_linearize(ctx, &cmds, *batch, NULL) : -1;
	}
	if (ret == 0)
		ret = nftc_batch_end(*batch);
	cmd_list_free(&cmds);
	/* the parser keeps its own copy for diagnostics */
	free(text);
	return ret;
}

/**
 * struct trace_rule - what the compiled selectors became
 * @rule: the rule's VM code; @sets: its anonymous sets with elements
 */
struct trace_rule {
	struct nftnl_rule	*rule;
	struct nftnl_set_list	*sets;
};

static void trace_msg(struct trace_rule *tr, const struct nlmsghdr *nlh)
{
	struct nftnl_set *s;
	const char *name;

	switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
	case NFT_MSG_NEWRULE:
		if (tr->rule)
			return;
		tr->rule = nftnl_rule_alloc();
		if (tr->rule && nftnl_rule_nlmsg_parse(nlh, tr->rule) < 0) {
			nftnl_rule_free(tr->rule);
			tr->rule = NULL;
		}
		return;
	case NFT_MSG_NEWSET:
		s = nftnl_set_alloc();
		if (s && nftnl_set_nlmsg_parse(nlh, s) == 0)
			nftnl_set_list_add(s, tr->sets);
		else if (s)
			nftnl_set_free(s);
		return;
	case NFT_MSG_NEWSETELEM:
		s = nftnl_set_alloc();
		if (!s)
			return;
		if (nftnl_set_elems_nlmsg_parse(nlh, s) == 0 &&
		    (name = nftnl_set_get_str(s, NFTNL_SET_NAME)) != NULL) {
			struct nftnl_set *to =
				nftnl_set_list_lookup_byname(tr->sets, name);

			if (to)
				nftnl_set_elems_nlmsg_parse(nlh, to);
		}
		nftnl_set_free(s);
		return;
	}
}

static int trace_rule_read(struct trace_rule *tr,
			   const struct nftc_batch *batch)
{
	const struct nlmsghdr *nlh;
	unsigned int i, n = nftc_batch_chunks(batch);
	size_t len;
	int rest;

	tr->sets = nftnl_set_list_alloc();
	if (!tr->sets)
		return -1;
	for (i = 0; i < n; i++) {
		nlh = nftc_batch_chunk(batch, i, &len);
		for (rest = (int)len; mnl_nlmsg_ok(nlh, rest);
		     nlh = mnl_nlmsg_next(nlh, &rest))
			trace_msg(tr, nlh);
	}
	return tr->rule ? 0 : -1;
}

static void trace_rule_free(struct trace_rule *tr)
{
	if (tr->rule)
		nftnl_rule_free(tr->rule);
	if (tr->sets)
		nftnl_set_list_free(tr->sets);
}

static unsigned int default_hook(const struct pkt_spec *ps,
				 unsigned int family)
{
	bool in = ps->meta.iifname[0] || ps->meta.iif;
	bool out = ps->meta.oifname[0] || ps->meta.oif;

	switch (family) {
	case NFPROTO_ARP:
		return out && !in ? NF_ARP_OUT : NF_ARP_IN;
	case NFPROTO_NETDEV:
		return out && !in ? NF_NETDEV_EGRESS : NF_NETDEV_INGRESS;
	}
	if (in && out)
		return NF_INET_FORWARD;
	return out ? NF_INET_LOCAL_OUT : NF_INET_LOCAL_IN;
}

static struct rule *find_rule(struct nftc_ruleset *rs,
			      const struct nftvm_trace_step *st)
{
	struct table *t = nftc_ruleset_table(rs, st->family, st->table);
	struct chain *c;
	struct rule *r;

	if (!t)
		return NULL;
	list_for_each_entry(c, &t->chains, list) {
		if (!c->handle.chain.name || strcmp(c->handle.chain.name,
						    st->chain))
			continue;
		list_for_each_entry(r, &c->rules, list)
			if (r->handle.handle.id == st->handle)
				return r;
	}
	return NULL;
}

static void print_rule_text(FILE *out, struct nftc_ruleset *rs,
			    const struct nftvm_trace_step *st)
{
	struct output_ctx octx = { .flags = 0, .family = st->family };
	struct rule *r = find_rule(rs, st);
	size_t len = 0;
	char *buf = NULL;

	if (!r) {
		/* stock's words: a rule its cache lacks (a bound chain's) */
		fprintf(out, "unknown rule handle %llu",
			(unsigned long long)st->handle);
		return;
	}
	octx.f = open_memstream(&buf, &len);
	if (!octx.f)
		return;
	fputs("rule ", out);
	nftc_print_rule(&octx, r);
	fclose(octx.f);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	fputs(buf + strspn(buf, "\t "), out);
	free(buf);
}

static void print_step(FILE *out, uint32_t id, struct nftc_ruleset *rs,
		       const struct nftvm_trace_step *st)
{
	fprintf(out, "trace id %08x %s %s %s ", id,
		nftc_family_name(st->family), st->table, st->chain);
	switch (st->type) {
	case NFT_TRACETYPE_RULE:
		print_rule_text(out, rs, st);
		fprintf(out, " (verdict %s", verdict_name(st->verdict));
		if (st->target)
			fprintf(out, " %s", st->target);
		fputs(")\n", out);
		break;
	case NFT_TRACETYPE_RETURN:
		fprintf(out, "verdict %s\n", verdict_name(st->verdict));
		break;
	default:
		fprintf(out, "policy %s\n", verdict_name(st->verdict));
		break;
	}
}

/*
 * The packet of @ps for @family at @hook into @bytes and @meta; @family
 * becomes the one nftvm_eval() takes.  Returns the length or -1.
 */
static int trace_build(const struct pkt_spec *ps, unsigned int *family,
		       int hook, uint8_t *bytes, size_t cap,
		       struct nftvm_pktmeta *meta)
{
	bool rx;
	int len;

	*meta = ps->meta;
	switch (*family) {
	case NFPROTO_BRIDGE:
	case NFPROTO_NETDEV:
		/* frames travel on Ethernet devices */
		if (meta->iif && !meta->iiftype)
			meta->iiftype = 1;
		if (meta->oif && !meta->oiftype)
			meta->oiftype = 1;
		return pkt_build_l2(ps, *family, bytes, cap);
	case NFPROTO_ARP:
		rx = hook == NF_ARP_IN;
		len = pkt_build_l2(ps, *family, bytes, cap);
		if (rx)
			meta->ll_len = (uint8_t)pkt_build_ether(ps, 0x0806,
								meta->ll);
		return len;
	}
	len = pkt_build(ps, bytes, cap);
	if (len < 0)
		return -1;
	*family = (bytes[0] >> 4) == 6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
	pkt_rt_meta(ps, (unsigned int)hook, *family == NFPROTO_IPV6, meta);
	if (hook == NF_INET_PRE_ROUTING || hook == NF_INET_LOCAL_IN ||
	    hook == NF_INET_FORWARD) {
		/* a received packet has its Ethernet header: "ether type
		 * ip6", the dependency nft writes after "meta iiftype
		 * ether", reads it, "ether saddr" its address */
		meta->ll_len = (uint8_t)pkt_build_ether(ps,
			*family == NFPROTO_IPV6 ? 0x86dd : 0x0800, meta->ll);
	}
	return len;
}

static int trace_run(struct nftc_ctx *ctx, struct nftc_offline *off,
		     const struct pkt_spec *ps, unsigned int family, int hook,
		     const char *sel, FILE *out)
{
	struct nftvm_result *res = calloc(1, sizeof(*res));
	static uint8_t bytes[PKT_LEN_MAX + PKT_LL_MAX];
	struct nftvm_pkt pkt = { .data = bytes };
	struct nftvm_pktmeta meta;
	struct nftc_ruleset rs;
	unsigned int i;
	uint32_t id;
	int len, ret;

	if (!res)
		return -1;
	len = trace_build(ps, &family, hook, bytes, sizeof(bytes), &meta);
	if (len < 0) {
		free(res);
		erec_error(&ctx->erq, NULL, "packet too large to trace");
		return -1;
	}
	pkt.len = (uint32_t)len;
	ret = nftvm_eval(nftc_offline_vm(off), (unsigned int)hook, family,
			 &pkt, &meta, res);
	if (ret < 0) {
		free(res);
		erec_error(&ctx->erq, NULL, "Could not trace: %s",
			   strerror(-ret));
		return -1;
	}
	nftc_ruleset_dump(&rs, 0, off);
	id = hash_bytes(bytes, len);	/* the same packet, the same id */
	if (res->ntrace)
		fprintf(out, "trace id %08x %s %s %s packet: %s\n", id,
			nftc_family_name(res->trace[0].family),
			res->trace[0].table, res->trace[0].chain, sel);
	for (i = 0; i < res->ntrace; i++)
		print_step(out, id, &rs, &res->trace[i]);
	if (res->truncated)
		fprintf(out, "trace id %08x (more steps not shown)\n", id);
	fprintf(out, "verdict %s\n", verdict_name(res->verdict));
	nftc_ruleset_free(&rs);
	free(res);
	return 0;
}

/* "trace pcap FILE [hook NAME]" */
static int trace_pcap_args(struct nftc_ctx *ctx, struct nftc_offline *off,
			   int argc, char **argv, FILE *out)
{
	struct trace_args ta = { 0 };
	int ret;

	if (argc < 1) {
		erec_error(&ctx->erq, NULL, "trace pcap needs a file");
		return -1;
	}
	ret = split_args(ctx, argc - 1, argv + 1, &ta);
	if (ret == 0 && *ta.sel) {
		erec_error(&ctx->erq, NULL, "trace pcap: unexpected \"%s\"",
			   ta.sel);
		ret = -1;
	}
	if (ret == 0 && ta.family != NFPROTO_INET) {
		erec_error(&ctx->erq, NULL, "trace pcap: IP packets only");
		ret = -1;
	}
	free(ta.sel);
	if (ret < 0)
		return -1;
	return nftc_trace_pcap(ctx, off, argv[0],
			       ta.hook >= 0 ? (unsigned int)ta.hook :
					      NF_INET_LOCAL_IN, out);
}

/* The packet @sel describes (a compiled rule read back into @tr, @ps). */
static int selectors_spec(struct nftc_ctx *ctx, const char *sel,
			  unsigned int family, struct nftc_batch **batch,
			  struct trace_rule *tr, struct pkt_spec *ps)
{
	char why[160];

	if (compile_selectors(ctx, sel, family, batch) < 0)
		return -1;
	if (trace_rule_read(tr, *batch) < 0) {
		erec_error(&ctx->erq, NULL, "no selectors to trace");
		return -1;
	}
	if (pkt_spec_from_rule(ps, tr->rule, tr->sets, why, sizeof(why)) < 0) {
		erec_error(&ctx->erq, NULL, "cannot trace: %s", why);
		return -1;
	}
	return 0;
}

int nftc_trace_packet(struct nftc_ctx *ctx, struct nftc_offline *off,
		      int argc, char **argv, FILE *out, FILE *warn)
{
	struct trace_rule tr = { 0 };
	struct nftc_batch *batch = NULL;
	struct trace_args ta = { 0 };
	struct pkt_spec ps;
	int ret = -1;

	if (!off) {
		erec_error(&ctx->erq, NULL,
			   "trace needs --offline STATEFILE");
		return -1;
	}
	if (argc >= 1 && !strcmp(argv[0], "pcap"))
		return trace_pcap_args(ctx, off, argc - 1, argv + 1, out);
	/* "packet" */
	argc--;
	argv++;
	if (split_args(ctx, argc, argv, &ta) < 0)
		goto out;
	if (selectors_spec(ctx, ta.sel, ta.family, &batch, &tr, &ps) < 0)
		goto out;
	ret = trace_run(ctx, off, &ps, ta.family,
			ta.hook >= 0 ? ta.hook :
				       (int)default_hook(&ps, ta.family),
			ta.sel, out);
out:
	trace_rule_free(&tr);
	nftc_batch_free(batch);
	free(ta.sel);
	return ret;
}

/**
 * nftc_trace_eval - one packet through @vm, without printing
 * @sel: the selectors, as after "trace packet" (no "hook" word)
 * @hook: NF_INET_* hook, -1 to follow from the selectors
 * @res: the VM's result (verdict, trace steps, side effects)
 *
 * What "trace packet" runs, for callers holding a VM of their own (the
 * semantic diff replays its counterexamples so). Returns 0, or -1 with
 * errors queued in ctx->erq.
 */
int nftc_trace_eval(struct nftc_ctx *ctx, struct nftvm *vm, const char *sel,
		    int hook, struct nftvm_result *res)
{
	struct trace_rule tr = { 0 };
	struct nftc_batch *batch = NULL;
	uint8_t bytes[2 * PKT_HDR_MAX + 64];
	struct nftvm_pkt pkt = { .data = bytes };
	struct pkt_spec ps;
	int len, ret = -1;

	if (selectors_spec(ctx, sel, NFPROTO_INET, &batch, &tr, &ps) < 0)
		goto out;
	len = pkt_build(&ps, bytes, sizeof(bytes));
	if (len < 0) {
		erec_error(&ctx->erq, NULL, "packet too large to trace");
		goto out;
	}
	pkt.len = (uint32_t)len;
	memset(res, 0, sizeof(*res));
	if (hook < 0)
		hook = (int)default_hook(&ps, NFPROTO_INET);
	pkt_rt_meta(&ps, (unsigned int)hook, (bytes[0] >> 4) == 6, &ps.meta);
	ret = nftvm_eval(vm, (unsigned int)hook,
			 (bytes[0] >> 4) == 6 ? NFPROTO_IPV6 : NFPROTO_IPV4,
			 &pkt, &ps.meta, res);
	if (ret < 0) {
		erec_error(&ctx->erq, NULL, "Could not trace: %s",
			   strerror(-ret));
		ret = -1;
	}
out:
	trace_rule_free(&tr);
	nftc_batch_free(batch);
	return ret;
}
