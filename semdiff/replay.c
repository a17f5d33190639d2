// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replay of counterexamples through the nftkit VM: each side's ruleset
 * is put into a VM (libnftvm) and the counterexample, in the `trace
 * packet` selector syntax it is printed in, goes through it as `nft
 * --offline STATE trace packet ...` would send it (nftc_trace_eval()).
 * The verdicts (or, for an effect difference, the marks and NAT
 * decisions) must differ as the BDDs say; where they do not, the report
 * says so.
 *
 * A side's VM: a compiled side loads its batch's messages (rs->dump); a
 * state-file side is the state file's own VM (nftc_offline_open()); the
 * kernel side loads its dump, the messages turned into a batch (handles,
 * use counts and chain counters left out, NEWRULE appended), or, when
 * the VM refuses that (iptables-nft's xt expressions), its listing
 * compiled again. Rule
 * handles of the VM are matched to the model's rules by their position
 * in their chain (a GETRULE dump of the VM), so a trace step names the
 * model's rule and its source.
 *
 * Built on the first counterexample only: equivalent rulesets cost
 * nothing here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/rule.h>
#include <nftvm/nftvm.h>
#include "nftc.h"
#include "erec.h"
#include "linearize.h"
#include "listing.h"
#include "printer.h"
#include "trace.h"
#include "transport.h"
#include "sd_int.h"

/* ------------------------------------------------ a side's VM */

/* Top-level attributes a dump carries that a batch must not. */
static bool dump_only_attr(uint16_t msg, uint16_t attr)
{
	switch (msg) {
	case NFT_MSG_NEWTABLE:
		return attr == NFTA_TABLE_HANDLE || attr == NFTA_TABLE_USE;
	case NFT_MSG_NEWCHAIN:
		return attr == NFTA_CHAIN_HANDLE || attr == NFTA_CHAIN_USE ||
		       attr == NFTA_CHAIN_COUNTERS;
	case NFT_MSG_NEWSET:
		return attr == NFTA_SET_HANDLE;
	case NFT_MSG_NEWRULE:
		return attr == NFTA_RULE_HANDLE || attr == NFTA_RULE_POSITION ||
		       attr == NFTA_RULE_ID;
	}
	return false;
}

/* One dumped message as a batch message (appended to @b). */
static int dump_to_batch(struct sd_msgs *b, const struct nlmsghdr *nlh,
			 uint32_t seq)
{
	uint16_t msg = NFNL_MSG_TYPE(nlh->nlmsg_type);
	size_t hdr = NLMSG_ALIGN(NLMSG_LENGTH(sizeof(struct nfgenmsg)));
	unsigned char *out;
	struct nlmsghdr *o;
	const struct nlattr *a;
	size_t pos, len = hdr;
	int ret;

	out = malloc(nlh->nlmsg_len + 16);
	if (!out)
		return -ENOMEM;
	memcpy(out, nlh, hdr);
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (dump_only_attr(msg, mnl_attr_get_type(a)))
			continue;
		pos = NLMSG_ALIGN(a->nla_len);
		memcpy(out + len, a, a->nla_len);
		memset(out + len + a->nla_len, 0, pos - a->nla_len);
		len += pos;
	}
	if (msg == NFT_MSG_NEWSET) {
		/* a batch names each new set with an id (the dump has none) */
		struct nlattr *id = (struct nlattr *)(out + len);
		uint32_t be = htonl(seq);

		id->nla_type = NFTA_SET_ID;
		id->nla_len = NLA_HDRLEN + sizeof(be);
		memcpy(out + len + NLA_HDRLEN, &be, sizeof(be));
		len += NLA_ALIGN(id->nla_len);
	}
	o = (struct nlmsghdr *)out;
	o->nlmsg_len = (uint32_t)len;
	o->nlmsg_seq = seq;
	o->nlmsg_pid = 0;
	o->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE |
			 (msg == NFT_MSG_NEWRULE ? NLM_F_APPEND : 0);
	ret = sd_msgs_add(b, out, len);
	free(out);
	return ret;
}

static int load_vm(struct nftvm *vm, const struct sd_ruleset *rs,
		   char *why, size_t whylen)
{
	bool dumped = !strcmp(rs->kind, "kernel");
	struct sd_msgs b = { 0 };
	const struct nlmsghdr *nlh;
	struct nftvm_err verr;
	char hdr[MNL_SOCKET_BUFFER_SIZE];
	uint32_t seq = 1;
	int rest = (int)rs->dump.len, ret;

	ret = sd_msgs_add(&b, hdr, nftnl_batch_begin(hdr, seq++) ?
			  ((struct nlmsghdr *)hdr)->nlmsg_len : 0);
	for (nlh = (const struct nlmsghdr *)rs->dump.buf;
	     ret == 0 && mnl_nlmsg_ok(nlh, rest);
	     nlh = mnl_nlmsg_next(nlh, &rest)) {
		if (dumped) {
			ret = dump_to_batch(&b, nlh, seq++);
		} else {
			ret = sd_msgs_add(&b, nlh, nlh->nlmsg_len);
		}
	}
	if (ret == 0) {
		nftnl_batch_end(hdr, seq);
		ret = sd_msgs_add(&b, hdr, ((struct nlmsghdr *)hdr)->nlmsg_len);
	}
	if (ret == 0) {
		memset(&verr, 0, sizeof(verr));
		ret = nftvm_batch_process(vm, b.buf, b.len, &verr);
		if (ret < 0)
			snprintf(why, whylen, "the VM refuses the ruleset: "
				 "message %d (type %u): %s", verr.msg_index,
				 verr.msg_type, strerror(-ret));
	} else {
		snprintf(why, whylen, "%s", strerror(-ret));
	}
	free(b.buf);
	return ret;
}

/*
 * The kernel's ruleset as its listing (xt expressions as libxtables
 * translates them, as `nft list ruleset` shows them), compiled again:
 * the VM has no xt expressions, so a ruleset iptables-nft loaded is
 * replayed so. Rules stay one to one and in order.
 */
static int load_vm_listing(struct nftvm *vm, char *why, size_t whylen)
{
	struct output_ctx octx = { .flags = NFTC_OUTPUT_STATELESS };
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct nftc_batch *batch = NULL;
	struct nftc_ruleset irs;
	struct nftc_ctx *ctx = NULL;
	struct sd_msgs b = { 0 };
	struct nftvm_err verr;
	char *text = NULL;
	size_t tlen = 0;
	unsigned int i;
	int ret = -EINVAL;

	if (nftc_ruleset_dump(&irs, 0, NULL) < 0)
		goto out;
	octx.f = open_memstream(&text, &tlen);
	if (!octx.f)
		goto out;
	nftc_print_ruleset(&octx, &irs.tables);
	fclose(octx.f);
	ctx = nftc_ctx_alloc();
	if (!ctx)
		goto out;
	ctx->resolver = &nftc_resolver_builtin;
	if (nftc_parse_buffer(ctx, text, &cmds) < 0 ||
	    nftc_evaluate(ctx, &cmds) < 0 ||
	    !(batch = nftc_batch_alloc(1)) ||
	    nftc_linearize(ctx, &cmds, batch, NULL) < 0 ||
	    nftc_batch_end(batch) < 0) {
		snprintf(why, whylen, "its listing does not compile");
		goto out;
	}
	for (i = 0, ret = 0; i < nftc_batch_chunks(batch) && ret == 0; i++) {
		size_t len;
		const void *chunk = nftc_batch_chunk(batch, i, &len);

		ret = sd_msgs_add(&b, chunk, len);
	}
	if (ret == 0) {
		ret = nftvm_batch_process(vm, b.buf, b.len, &verr);
		if (ret < 0)
			snprintf(why, whylen, "the VM refuses its listing: "
				 "message %d: %s", verr.msg_index,
				 strerror(-ret));
	}
out:
	free(b.buf);
	cmd_list_free(&cmds);
	nftc_batch_free(batch);
	nftc_ctx_free(ctx);
	free(text);
	nftc_ruleset_free(&irs);
	return ret;
}

/* The VM's rules, in chain order: their handles to the model's rules. */
static int handle_cb(void *arg, const void *msg, size_t len)
{
	struct sd_ruleset *rs = arg;
	const struct nlmsghdr *nlh = msg;
	struct nftnl_rule *r;
	struct sd_table *t = NULL;
	struct sd_chain *c = NULL;
	unsigned int i;

	if (NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWRULE)
		return 0;
	r = nftnl_rule_alloc();
	if (!r)
		return -ENOMEM;
	if (nftnl_rule_nlmsg_parse(nlh, r) < 0)
		goto out;
	for (i = 0; i < rs->ntables && !t; i++)
		if (rs->tables[i]->family ==
		    nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY) &&
		    !strcmp(rs->tables[i]->name,
			    nftnl_rule_get_str(r, NFTNL_RULE_TABLE)))
			t = rs->tables[i];
	if (t)
		c = sd_chain_find(t, nftnl_rule_get_str(r, NFTNL_RULE_CHAIN));
	for (i = 0; c && i < c->nrules; i++)
		if (!c->rules[i]->vm_handle) {
			c->rules[i]->vm_handle =
				nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE);
			break;
		}
out:
	nftnl_rule_free(r);
	return 0;
}

static void map_handles(struct nftvm *vm, struct sd_ruleset *rs)
{
	char buf[256];
	struct nlmsghdr *nlh;
	struct nftvm_err verr;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETRULE, NFPROTO_UNSPEC,
				    NLM_F_DUMP, 1);
	nftvm_request(vm, nlh, nlh->nlmsg_len, 0, handle_cb, rs, &verr);
}

static int side_open(struct sd_replay_side *s, struct sd_ruleset *rs)
{
	int ret;

	if (rs->state) {
		s->off = nftc_offline_open(rs->state, s->why, sizeof(s->why));
		if (!s->off)
			return -EINVAL;
		s->vm = nftc_offline_vm(s->off);
	} else {
		s->vm = nftvm_new();
		if (!s->vm) {
			snprintf(s->why, sizeof(s->why), "out of memory");
			return -ENOMEM;
		}
		ret = load_vm(s->vm, rs, s->why, sizeof(s->why));
		if (ret < 0 && !strcmp(rs->kind, "kernel")) {
			/* xt expressions (iptables-nft): its listing */
			nftvm_destroy(s->vm);
			s->vm = nftvm_new();
			ret = s->vm ? load_vm_listing(s->vm, s->why,
						      sizeof(s->why)) : -ENOMEM;
			s->relisted = ret == 0;
		}
		if (ret < 0) {
			nftvm_destroy(s->vm);
			s->vm = NULL;
			return ret;
		}
	}
	map_handles(s->vm, rs);
	return 0;
}

static void side_close(struct sd_replay_side *s)
{
	if (s->off)
		nftc_offline_close(s->off);
	else
		nftvm_destroy(s->vm);
	s->off = NULL;
	s->vm = NULL;
}

/*
 * Both sides' VMs; a second state-file side naming the same file as the
 * first shares its VM (the file is locked while open).
 */
static void replay_open(struct sd_replay *rp, struct sd_ruleset **rs)
{
	unsigned int k;

	rp->open = true;
	rp->ctx = nftc_ctx_alloc();
	if (rp->ctx)
		rp->ctx->resolver = &nftc_resolver_builtin;
	for (k = 0; k < 2; k++) {
		if (k == 1 && rs[0]->state && rs[1]->state &&
		    !strcmp(rs[0]->state, rs[1]->state) && rp->side[0].vm) {
			rp->side[1].vm = rp->side[0].vm;
			rp->side[1].shared = true;
			map_handles(rp->side[1].vm, rs[1]);
			continue;
		}
		side_open(&rp->side[k], rs[k]);
	}
}

void sd_replay_fini(struct sd_replay *rp)
{
	unsigned int k;

	for (k = 0; k < 2; k++)
		if (!rp->side[k].shared)
			side_close(&rp->side[k]);
	nftc_ctx_free(rp->ctx);
	rp->ctx = NULL;
}

/* ------------------------------------------------ one counterexample */

/* The outcome key the BDDs use (compare.c), for the VM's result. */
static void vm_key(const struct nftvm_result *res, char *key, size_t len)
{
	int v = res->verdict & NF_VERDICT_MASK;

	if (res->reject.set)
		snprintf(key, len, "reject type %u code %u", res->reject.type,
			 res->reject.icmp_code);
	else if (v == NF_ACCEPT)
		snprintf(key, len, "accept");
	else if (v == NF_DROP)
		snprintf(key, len, "drop");
	else if (v == NF_QUEUE)
		snprintf(key, len, "queue num %u", (unsigned int)res->verdict >> 16);
	else
		snprintf(key, len, "verdict %d", res->verdict);
}

/* Same outcome? Queues compare by number only (total/flags unseen). */
static bool same_key(const char *bdd, const char *vm)
{
	if (!strncmp(vm, "queue ", 6))
		return !strncmp(bdd, vm, strlen(vm)) &&
		       (bdd[strlen(vm)] == ' ' || !bdd[strlen(vm)]);
	return !strcmp(bdd, vm);
}

static bool same_effects(const struct nftvm_result *a,
			 const struct nftvm_result *b)
{
	return a->meta.mark == b->meta.mark &&
	       a->meta.ct_mark == b->meta.ct_mark &&
	       a->meta.priority == b->meta.priority &&
	       a->notrack == b->notrack &&
	       a->pkt_modified == b->pkt_modified &&
	       !memcmp(&a->nat, &b->nat, sizeof(a->nat));
}

static const struct sd_rule *rule_of(const struct sd_ruleset *rs,
				     const struct nftvm_trace_step *st)
{
	unsigned int i, j;

	for (i = 0; i < rs->ntables; i++) {
		const struct sd_table *t = rs->tables[i];
		const struct sd_chain *c;

		if (t->family != st->family || strcmp(t->name, st->table))
			continue;
		c = sd_chain_find(t, st->chain);
		for (j = 0; c && j < c->nrules; j++)
			if (c->rules[j]->vm_handle == st->handle)
				return c->rules[j];
	}
	return NULL;
}

/* The step that decided: the last rule or policy of the trace. */
static void print_decider(FILE *f, const struct sd_ruleset *rs,
			  const struct nftvm_result *res)
{
	const struct nftvm_trace_step *st;
	const struct sd_rule *r;
	char where[256];

	if (!res->ntrace) {
		fputs(" (no base chain)", f);
		return;
	}
	st = &res->trace[res->ntrace - 1];
	if (st->type != NFT_TRACETYPE_RULE) {
		const struct sd_chain *c = NULL;
		unsigned int i;

		fprintf(f, " by the policy of %s %s %s",
			sd_family_name(st->family), st->table, st->chain);
		for (i = 0; i < rs->ntables && !c; i++)
			if (rs->tables[i]->family == st->family &&
			    !strcmp(rs->tables[i]->name, st->table))
				c = sd_chain_find(rs->tables[i], st->chain);
		if (c && c->src_line)
			fprintf(f, " at %s:%u", rs->label, c->src_line);
		return;
	}
	r = rule_of(rs, st);
	if (!r) {
		fprintf(f, " by %s %s %s handle %llu",
			sd_family_name(st->family), st->table, st->chain,
			(unsigned long long)st->handle);
		return;
	}
	sd_rule_where(where, sizeof(where), rs, r);
	fprintf(f, " by %s#%u at %s", r->chain->name, r->index + 1, where);
}

/* TCP option kinds by the names nft gives them */
static const char *const tcpopt_names[] = {
	[2] = "maxseg", [3] = "window", [4] = "sack-perm", [5] = "sack",
	[8] = "timestamp",
};

/*
 * A field note the trace can build after all, as selectors into @out
 * (room for 64 bytes): the route's answers ("[rt KEY,0 = V]": ipsec,
 * mtu, the IPv4 nexthop) and TCP options (op 1: whether one is there,
 * the MSS, the window scale).  The value's bytes run from the field's
 * start to the last one the rules read: an MSS option read at its size
 * holds the size in its low 16 bits, a window option its count in the
 * low 8.  Returns false for the others.
 */
static bool note_selectors(const char *note, size_t n, char *out,
			   size_t olen)
{
	unsigned int a, b, op, kind;
	unsigned long long v;
	uint8_t mb[2];
	uint16_t mss;
	char buf[96];

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, note, n);
	buf[n] = '\0';
	if (sscanf(buf, "[rt %u,%u = 0x%llx]", &a, &b, &v) == 3) {
		switch (a) {
		case NFT_RT_XFRM:
			snprintf(out, olen, " rt ipsec %s",
				 v ? "exists" : "missing");
			return true;
		case NFT_RT_TCPMSS:
			/* the register holds host order, the note its bytes */
			mb[0] = (uint8_t)(v >> 8);
			mb[1] = (uint8_t)v;
			memcpy(&mss, mb, 2);
			snprintf(out, olen, " rt mtu %u", mss);
			return true;
		case NFT_RT_NEXTHOP4:
			snprintf(out, olen, " rt ip nexthop %llu.%llu.%llu.%llu",
				 v >> 24 & 0xff, v >> 16 & 0xff,
				 v >> 8 & 0xff, v & 0xff);
			return true;
		}
		return false;
	}
	if (sscanf(buf, "[exthdr %u,%u = 0x%llx]", &a, &b, &v) != 3)
		return false;
	op = a >> 8;
	kind = a & 0xff;
	if (op != NFT_EXTHDR_OP_TCPOPT ||
	    kind >= sizeof(tcpopt_names) / sizeof(tcpopt_names[0]) ||
	    !tcpopt_names[kind])
		return false;
	if (b == 1) {
		snprintf(out, olen, " tcp option %s %s", tcpopt_names[kind],
			 v ? "exists" : "missing");
		return true;
	}
	/* kind and length, where the rules left them open, print as 0 */
	if (kind == 2 && (v >> 16 == 0x0204 || !(v >> 16))) {
		snprintf(out, olen, " tcp option maxseg size %llu",
			 v & 0xffff);
		return true;
	}
	if (kind == 3 && (v >> 8 == 0x0303 || !(v >> 8))) {
		snprintf(out, olen, " tcp option window count %llu", v & 0xff);
		return true;
	}
	return false;
}

/*
 * The selectors the VM's trace takes: bracketed notes dropped, those of
 * fields it can build turned into selectors (note_selectors()). @notes
 * says whether free choices were among them, @fields the first field
 * the VM's packet cannot carry (fib/socket results, extension headers,
 * other TCP options), "" if none.
 */
static char *replay_selectors(const char *sel, uint8_t family, bool *notes,
			      char *fields, size_t flen)
{
	size_t len = 2 * strlen(sel) + 64, o = 0;
	char conv[64];
	char *out = malloc(len);
	const char *p;

	if (!out)
		return NULL;
	*notes = false;
	fields[0] = '\0';
	if (family == NFPROTO_IPV6)
		o = (size_t)snprintf(out, len, "meta nfproto ipv6 ");
	for (p = sel; *p; p++) {
		if (*p == '[') {
			/* notes nest: "[free choice ... expr [ limit ... ]
			 * #0 = 1]" ends at its own bracket */
			const char *e = p;
			unsigned int depth = 0;

			for (; *e; e++) {
				if (*e == '[')
					depth++;
				else if (*e == ']' && !--depth)
					break;
			}
			if (!*e)
				break;
			if (!strncmp(p, "[free choice ", 13)) {
				*notes = true;
			} else if (note_selectors(p, (size_t)(e - p + 1),
						  conv, sizeof(conv))) {
				o += (size_t)snprintf(out + o, len - o, "%s",
						      conv);
			} else if (!fields[0])
				snprintf(fields, flen, "%.*s", (int)(e - p + 1),
					 p);
			p = e;
			continue;
		}
		out[o++] = *p;
	}
	out[o] = '\0';
	/* ct state left open: any will do, and the VM runs nat chains
	 * for new connections only (the BDDs for every packet) */
	if (!strstr(sel, "ct state"))
		snprintf(out + o, len - o, " ct state new");
	return out;
}

static void ctx_error(struct nftc_ctx *ctx, char *buf, size_t len)
{
	const struct error_record *e;

	buf[0] = '\0';
	list_for_each_entry(e, &ctx->erq.records, list) {
		snprintf(buf, len, "%s", e->msg);
		break;
	}
	erec_queue_free(&ctx->erq);
}

/**
 * sd_replay_cex - replay one counterexample through both sides' VMs
 * @sel: its selectors, as printed after "trace packet"
 * @key: the outcome each side's BDD gives it
 * @effect: the difference is in the packet's fields (both accept)
 *
 * Prints the VM's verdict and deciding rule per side and whether they
 * agree with the BDDs; counts in @rp.
 */
void sd_replay_cex(struct sd_replay *rp, FILE *f, struct sd_ruleset **rs,
		   const struct sd_hook *h, const char *sel,
		   const char *const key[2], bool effect)
{
	struct nftvm_result *res = calloc(2, sizeof(*res));
	char vkey[2][96], why[256] = "", fields[128];
	bool notes = false, ok[2] = { false, false };
	char *s = NULL;
	unsigned int k;

	if (!rp->open)
		replay_open(rp, rs);
	if (h->family != NFPROTO_IPV4 && h->family != NFPROTO_IPV6)
		snprintf(why, sizeof(why), "the VM traces ip and ip6 only");
	else if (!res || !rp->ctx || !(s = replay_selectors(sel, h->family,
							     &notes, fields,
							     sizeof(fields))))
		snprintf(why, sizeof(why), "out of memory");
	for (k = 0; k < 2 && !why[0]; k++) {
		if (!rp->side[k].vm) {
			snprintf(why, sizeof(why), "%s: %s", rs[k]->label,
				 rp->side[k].why);
			break;
		}
		if (nftc_trace_eval(rp->ctx, rp->side[k].vm, s, (int)h->hook,
				    &res[k]) < 0) {
			ctx_error(rp->ctx, why, sizeof(why));
			break;
		}
		vm_key(&res[k], vkey[k], sizeof(vkey[k]));
		ok[k] = effect ? !strcmp(vkey[k], "accept") :
				 same_key(key[k], vkey[k]);
	}
	if (why[0]) {
		fprintf(f, "    replay: not possible: %s\n", why);
		rp->unreplayed++;
		goto out;
	}
	for (k = 0; k < 2; k++) {
		fprintf(f, "    vm %s%s: %s", k ? "new" : "old",
			rp->side[k].relisted ? " (its listing)" : "", vkey[k]);
		print_decider(f, rs[k], &res[k]);
		fputc('\n', f);
	}
	if (effect && ok[0] && ok[1])
		ok[0] = !same_effects(&res[0], &res[1]);
	if (ok[0] && ok[1]) {
		fputs("    replay: confirmed by the VM\n", f);
		rp->confirmed++;
	} else if (fields[0]) {
		/* what the VM's packet could not carry was left at zero */
		fprintf(f, "    replay: not possible: the VM's packet cannot "
			"carry %s\n", fields);
		rp->unreplayed++;
	} else if (notes) {
		/* limits, quotas, set contents: the VM decides by its own
		 * state what the BDDs left free */
		fputs("    replay: not confirmed: the counterexample rests on "
		      "free choices (stateful expressions) the VM makes "
		      "itself\n", f);
		rp->stateful++;
	} else {
		fputs("    replay: DISAGREES with the BDDs\n", f);
		rp->disagree++;
	}
out:
	free(s);
	free(res);
}
