// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "nft --offline STATEFILE trace packet SELECTORS... [hook NAME]": one
 * packet described with selectors (packet_build.h) runs through the
 * offline VM's base chains of its hook; every step is printed as "nft
 * monitor trace" prints the kernel's trace events, then the verdict.
 *
 * The family follows from the selectors (ip6 ones make an IPv6 packet),
 * the hook from "hook NAME" or else from the interfaces named: iif only
 * (or none) input, oif only output, both forward.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <nftvm/nftvm.h>
#include "nftc.h"
#include "linearize.h"
#include "listing.h"
#include "printer.h"
#include "packet_build.h"
#include "transport.h"
#include "trace.h"

#define TRACE_TABLE	"__nftkit_trace"

static const struct {
	const char	*name;
	unsigned int	hook;
} trace_hooks[] = {
	{ "prerouting",		NF_INET_PRE_ROUTING },
	{ "input",		NF_INET_LOCAL_IN },
	{ "forward",		NF_INET_FORWARD },
	{ "output",		NF_INET_LOCAL_OUT },
	{ "postrouting",	NF_INET_POST_ROUTING },
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

/* "hook NAME" taken out of the words; the rest joined with spaces. */
static int split_args(struct nftc_ctx *ctx, int argc, char **argv,
		      char **sel, int *hook)
{
	size_t len = 1, i;
	int k;

	*hook = -1;
	for (k = 0; k < argc; k++)
		len += strlen(argv[k]) + 1;
	*sel = calloc(1, len);
	if (!*sel)
		return -1;
	for (k = 0; k < argc; k++) {
		if (!strcmp(argv[k], "hook") && k + 1 < argc) {
			for (i = 0; i < sizeof(trace_hooks) /
				    sizeof(trace_hooks[0]); i++)
				if (!strcmp(argv[k + 1], trace_hooks[i].name))
					*hook = (int)trace_hooks[i].hook;
			if (*hook < 0) {
				erec_error(&ctx->erq, NULL,
					   "unknown hook \"%s\"", argv[k + 1]);
				return -1;
			}
			k++;
			continue;
		}
		if (**sel)
			strcat(*sel, " ");
		strcat(*sel, argv[k]);
	}
	return 0;
}

/* The selectors as one rule of an inet table, compiled into @batch. */
static int compile_selectors(struct nftc_ctx *ctx, const char *sel,
			     struct nftc_batch **batch)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	size_t len = strlen(sel) + 128;
	char *text = malloc(len);
	int ret;

	*batch = NULL;
	if (!text)
		return -1;
	snprintf(text, len, "table inet " TRACE_TABLE
		 " { chain c { %s; }; }\n", sel);
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

static unsigned int default_hook(const struct pkt_spec *ps)
{
	bool in = ps->meta.iifname[0] || ps->meta.iif;
	bool out = ps->meta.oifname[0] || ps->meta.oif;

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
		fprintf(out, "handle %llu", (unsigned long long)st->handle);
		return;
	}
	octx.f = open_memstream(&buf, &len);
	if (!octx.f)
		return;
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
		fputs("rule ", out);
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

/* FNV-1a of the packet: the same packet, the same trace id. */
static uint32_t trace_id(const uint8_t *p, int len)
{
	uint32_t h = 2166136261u;
	int i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static int trace_run(struct nftc_ctx *ctx, struct nftc_offline *off,
		     const struct pkt_spec *ps, int hook, const char *sel,
		     FILE *out)
{
	struct nftvm_result *res = calloc(1, sizeof(*res));
	static uint8_t bytes[PKT_LEN_MAX];
	struct nftvm_pkt pkt = { .data = bytes };
	struct nftvm_pktmeta meta;
	struct nftc_ruleset rs;
	unsigned int family, i;
	uint32_t id;
	int len, ret;

	if (!res)
		return -1;
	len = pkt_build(ps, bytes, sizeof(bytes));
	if (len < 0) {
		free(res);
		erec_error(&ctx->erq, NULL, "packet too large to trace");
		return -1;
	}
	pkt.len = (uint32_t)len;
	family = (bytes[0] >> 4) == 6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
	meta = ps->meta;
	if (hook == NF_INET_PRE_ROUTING || hook == NF_INET_LOCAL_IN ||
	    hook == NF_INET_FORWARD) {
		/* a received packet has its Ethernet header (zero
		 * addresses): "ether type ip6", the dependency nft writes
		 * after "meta iiftype ether", reads it */
		meta.ll_len = 14;
		memset(meta.ll, 0, 12);
		meta.ll[12] = family == NFPROTO_IPV6 ? 0x86 : 0x08;
		meta.ll[13] = family == NFPROTO_IPV6 ? 0xdd : 0x00;
	}
	ret = nftvm_eval(nftc_offline_vm(off), (unsigned int)hook, family,
			 &pkt, &meta, res);
	if (ret < 0) {
		free(res);
		erec_error(&ctx->erq, NULL, "Could not trace: %s",
			   strerror(-ret));
		return -1;
	}
	nftc_ruleset_dump(&rs, 0, off);
	id = trace_id(bytes, len);
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
	char *rest = NULL;
	int hook, ret;

	if (argc < 1) {
		erec_error(&ctx->erq, NULL, "trace pcap needs a file");
		return -1;
	}
	ret = split_args(ctx, argc - 1, argv + 1, &rest, &hook);
	if (ret == 0 && *rest) {
		erec_error(&ctx->erq, NULL, "trace pcap: unexpected \"%s\"",
			   rest);
		ret = -1;
	}
	free(rest);
	if (ret < 0)
		return -1;
	return nftc_trace_pcap(ctx, off, argv[0],
			       hook >= 0 ? (unsigned int)hook :
					   NF_INET_LOCAL_IN, out);
}

/* The packet @sel describes (a compiled rule read back into @tr, @ps). */
static int selectors_spec(struct nftc_ctx *ctx, const char *sel,
			  struct nftc_batch **batch, struct trace_rule *tr,
			  struct pkt_spec *ps)
{
	char why[160];

	if (compile_selectors(ctx, sel, batch) < 0)
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
	struct pkt_spec ps;
	char *sel = NULL;
	int hook, ret = -1;

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
	if (split_args(ctx, argc, argv, &sel, &hook) < 0)
		goto out;
	if (selectors_spec(ctx, sel, &batch, &tr, &ps) < 0)
		goto out;
	ret = trace_run(ctx, off, &ps, hook >= 0 ? hook : (int)default_hook(&ps),
			sel, out);
out:
	trace_rule_free(&tr);
	nftc_batch_free(batch);
	free(sel);
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

	if (selectors_spec(ctx, sel, &batch, &tr, &ps) < 0)
		goto out;
	len = pkt_build(&ps, bytes, sizeof(bytes));
	if (len < 0) {
		erec_error(&ctx->erq, NULL, "packet too large to trace");
		goto out;
	}
	pkt.len = (uint32_t)len;
	memset(res, 0, sizeof(*res));
	ret = nftvm_eval(vm, hook >= 0 ? (unsigned int)hook :
			 default_hook(&ps),
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
