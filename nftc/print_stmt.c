// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IR printer: statements, one print function per kind in a const table,
 * in stock nft 1.0.6's listing format ("counter packets 0 bytes 0",
 * "limit rate 10/second", "dnat ip to 10.0.0.1:80", ...).
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_log.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_synproxy.h>
#include "printer.h"
#include "keys.h"
#include "fmt.h"
#include "list_tmpl.h"

typedef void (*stmt_print_fn)(struct output_ctx *octx, const struct stmt *s);

static bool stateless(const struct output_ctx *octx)
{
	return octx->flags & NFTC_OUTPUT_STATELESS;
}

static void print_expr_stmt(struct output_ctx *octx, const struct stmt *s)
{
	nftc_print_expr(octx, s->expr);
}

static void print_counter(struct output_ctx *octx, const struct stmt *s)
{
	char buf[64], *p;

	if (stateless(octx)) {
		nftc_puts("counter", octx->f);
		return;
	}
	p = stpcpy(buf, "counter packets ");
	p = fmt_u64(p, s->counter.packets);
	p = stpcpy(p, " bytes ");
	fmt_u64(p, s->counter.bytes);
	nftc_puts(buf, octx->f);
}

static const char *const log_levels[] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
	"audit",
};

static void print_log_flags(struct output_ctx *octx, uint32_t f)
{
	if ((f & NF_LOG_MASK) == NF_LOG_MASK) {
		nftc_puts(" flags all", octx->f);
		return;
	}
	if (f & (NF_LOG_TCPSEQ | NF_LOG_TCPOPT)) {
		nftc_puts(" flags tcp", octx->f);
		if (f & NF_LOG_TCPSEQ)
			nftc_puts(" sequence", octx->f);
		if (f & NF_LOG_TCPOPT)
			nftc_puts((f & NF_LOG_TCPSEQ) ? ",options" : " options",
			      octx->f);
	}
	if (f & NF_LOG_IPOPT)
		nftc_puts(" flags ip options", octx->f);
	if (f & NF_LOG_UID)
		nftc_puts(" flags skuid", octx->f);
	if (f & NF_LOG_MACDECODE)
		nftc_puts(" flags ether", octx->f);
}

static void print_log(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts("log", octx->f);
	if ((s->log.flags & STMT_LOG_PREFIX) && s->log.prefix) {
		nftc_puts(" prefix \"", octx->f);
		nftc_puts(s->log.prefix, octx->f);
		nftc_putc('"', octx->f);
	}
	if (s->log.flags & STMT_LOG_GROUP)
		fprintf(octx->f, " group %u", s->log.group);
	if (s->log.flags & STMT_LOG_SNAPLEN)
		fprintf(octx->f, " snaplen %u", s->log.snaplen);
	if (s->log.flags & STMT_LOG_QTHRESHOLD)
		fprintf(octx->f, " queue-threshold %u", s->log.qthreshold);
	/* warn is the default level: stock leaves it out */
	if ((s->log.flags & STMT_LOG_LEVEL) && s->log.level != 4)
		fprintf(octx->f, " level %s",
			s->log.level < 9 ? log_levels[s->log.level] :
					   "unknown");
	print_log_flags(octx, s->log.logflags);
}

/**
 * nftc_limit_unit_name - name of a limit's time unit in seconds
 */
const char *nftc_limit_unit_name(uint64_t unit)
{
	switch (unit) {
	case 1:
		return "second";
	case 60:
		return "minute";
	case 60 * 60:
		return "hour";
	case 60 * 60 * 24:
		return "day";
	case 60 * 60 * 24 * 7:
		return "week";
	}
	return "error";
}

/**
 * nftc_print_bytes - "N bytes|kbytes|mbytes", the largest exact unit
 */
void nftc_print_bytes(struct output_ctx *octx, uint64_t bytes)
{
	static const char *const units[] = { "bytes", "kbytes", "mbytes" };
	unsigned int i = 0;

	while (bytes && i < 2 && !(bytes % 1024)) {
		bytes /= 1024;
		i++;
	}
	fprintf(octx->f, "%" PRIu64 " %s", bytes, units[i]);
}

static void print_limit(struct output_ctx *octx, const struct stmt *s)
{
	bool inv = s->limit.flags & NFT_LIMIT_F_INV;

	nftc_puts(inv ? "limit rate over " : "limit rate ", octx->f);
	if (s->limit.type == NFT_LIMIT_PKT_BYTES) {
		nftc_print_bytes(octx, s->limit.rate);
		fprintf(octx->f, "/%s", nftc_limit_unit_name(s->limit.unit));
		if (s->limit.burst) {
			nftc_puts(" burst ", octx->f);
			nftc_print_bytes(octx, s->limit.burst);
		}
		return;
	}
	if (octx->rec && s->location.first_line >= TMPL_MARK)
		list_tmpl_rec_u64(octx, s->location.first_line - TMPL_MARK,
				  s->limit.rate);
	else
		nftc_putu(s->limit.rate, octx->f);
	nftc_putc('/', octx->f);
	nftc_puts(nftc_limit_unit_name(s->limit.unit), octx->f);
	if (s->limit.burst && s->limit.burst != 5)
		fprintf(octx->f, " burst %u packets", s->limit.burst);
}

static void print_quota(struct output_ctx *octx, const struct stmt *s)
{
	fprintf(octx->f, "quota %s",
		(s->quota.flags & NFT_QUOTA_F_INV) ? "over " : "");
	nftc_print_bytes(octx, s->quota.bytes);
	if (!stateless(octx) && s->quota.used) {
		nftc_puts(" used ", octx->f);
		nftc_print_bytes(octx, s->quota.used);
	}
}

/* The code as a constant of @dtype when the IR has no symbolic one. */
static void print_reject_code(struct output_ctx *octx, const struct stmt *s,
			      const struct datatype *dtype)
{
	struct expr *e;

	if (s->reject.expr) {
		nftc_print_expr(octx, s->reject.expr);
		return;
	}
	e = constant_expr_u64(&s->location, dtype, BYTEORDER_HOST, 8,
			      s->reject.icmp_code);
	if (!e)
		return;
	nftc_print_expr(octx, e);
	expr_free(e);
}

/*
 * Where the table carries more than one network family, stock names the
 * ICMP code even when it is the default port-unreachable.
 */
static bool verbose_reject(const struct output_ctx *octx)
{
	return octx->family == NFPROTO_INET ||
	       octx->family == NFPROTO_BRIDGE ||
	       octx->family == NFPROTO_NETDEV;
}

/* nat/tproxy name their address family in inet tables only. */
static void print_addr_family(struct output_ctx *octx, unsigned int family)
{
	if (octx->family && octx->family != NFPROTO_INET)
		return;
	if (family == NFPROTO_IPV4)
		nftc_puts(" ip", octx->f);
	else if (family == NFPROTO_IPV6)
		nftc_puts(" ip6", octx->f);
}

static void print_reject(struct output_ctx *octx, const struct stmt *s)
{
	int code = s->reject.icmp_code;
	bool have = s->reject.expr || code >= 0;

	nftc_puts("reject", octx->f);
	switch (s->reject.type) {
	case NFT_REJECT_TCP_RST:
		nftc_puts(" with tcp reset", octx->f);
		break;
	case NFT_REJECT_ICMPX_UNREACH:
		if (!have || code == NFT_REJECT_ICMPX_PORT_UNREACH)
			break;
		nftc_puts(" with icmpx ", octx->f);
		print_reject_code(octx, s, &icmpx_code_type);
		break;
	case NFT_REJECT_ICMP_UNREACH:
		if (!have)
			break;
		if (s->reject.family == NFPROTO_IPV4 &&
		    (code != 3 || verbose_reject(octx))) {
			nftc_puts(" with icmp ", octx->f);
			print_reject_code(octx, s, &icmp_code_type);
		} else if (s->reject.family == NFPROTO_IPV6 &&
			   (code != 4 || verbose_reject(octx))) {
			nftc_puts(" with icmpv6 ", octx->f);
			print_reject_code(octx, s, &icmpv6_code_type);
		}
		break;
	}
}

static const char *const nat_names[] = {
	[NAT_SNAT]	= "snat",
	[NAT_DNAT]	= "dnat",
	[NAT_MASQ]	= "masquerade",
	[NAT_REDIR]	= "redirect",
};

static void print_nat_flags(struct output_ctx *octx, uint32_t flags)
{
	const char *d = " ";

	if (flags & NF_NAT_RANGE_PROTO_RANDOM) {
		fprintf(octx->f, "%srandom", d);
		d = ",";
	}
	if (flags & NF_NAT_RANGE_PROTO_RANDOM_FULLY) {
		fprintf(octx->f, "%sfully-random", d);
		d = ",";
	}
	if (flags & NF_NAT_RANGE_PERSISTENT)
		fprintf(octx->f, "%spersistent", d);
}

static bool is_ip6_value(const struct expr *e)
{
	return e && e->kind == EXPR_VALUE && e->dtype == &ip6addr_type;
}

/* IPv6 addresses get brackets when a port follows. */
static void print_nat_addr(struct output_ctx *octx, const struct expr *a,
			   bool port)
{
	if (port && is_ip6_value(a)) {
		nftc_putc('[', octx->f);
		nftc_print_expr(octx, a);
		nftc_putc(']', octx->f);
	} else if (port && a->kind == EXPR_RANGE &&
		   is_ip6_value(a->pair.left)) {
		nftc_putc('[', octx->f);
		nftc_print_expr(octx, a->pair.left);
		nftc_puts("]-[", octx->f);
		nftc_print_expr(octx, a->pair.right);
		nftc_putc(']', octx->f);
	} else {
		nftc_print_expr(octx, a);
	}
}

static void print_nat(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts(s->nat.kind < 4 ? nat_names[s->nat.kind] : "nat", octx->f);
	if (s->nat.addr || s->nat.proto) {
		print_addr_family(octx, s->nat.family);
		if (s->nat.type_flags & STMT_NAT_F_PREFIX)
			nftc_puts(" prefix", octx->f);
		else if ((s->nat.type_flags & STMT_NAT_F_CONCAT) &&
			 !s->nat.proto)
			nftc_puts(" addr . port", octx->f);
		nftc_puts(" to", octx->f);
	}
	if (s->nat.addr) {
		nftc_putc(' ', octx->f);
		print_nat_addr(octx, s->nat.addr, s->nat.proto != NULL);
	}
	if (s->nat.proto) {
		if (!s->nat.addr)
			nftc_putc(' ', octx->f);
		nftc_putc(':', octx->f);
		nftc_print_expr(octx, s->nat.proto);
	}
	print_nat_flags(octx, s->nat.flags);
}

static void print_tproxy(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts("tproxy", octx->f);
	print_addr_family(octx, s->tproxy.family);
	nftc_puts(" to", octx->f);
	if (s->tproxy.addr) {
		nftc_putc(' ', octx->f);
		/* an IPv6 address always gets brackets here */
		print_nat_addr(octx, s->tproxy.addr, true);
	}
	if (s->tproxy.port) {
		if (!s->tproxy.addr)
			nftc_putc(' ', octx->f);
		nftc_putc(':', octx->f);
		nftc_print_expr(octx, s->tproxy.port);
	}
}

static void print_queue(struct output_ctx *octx, const struct stmt *s)
{
	const char *d = " flags ";

	nftc_puts("queue", octx->f);
	if (s->queue.flags & NFT_QUEUE_FLAG_BYPASS) {
		fprintf(octx->f, "%sbypass", d);
		d = ",";
	}
	if (s->queue.flags & NFT_QUEUE_FLAG_CPU_FANOUT)
		fprintf(octx->f, "%sfanout", d);
	nftc_puts(" to ", octx->f);
	if (s->queue.queue)
		nftc_print_expr(octx, s->queue.queue);
	else
		nftc_putc('0', octx->f);
}

static void print_dup(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts("dup", octx->f);
	if (!s->dup.to)
		return;
	nftc_puts(" to ", octx->f);
	nftc_print_expr(octx, s->dup.to);
	if (s->dup.dev) {
		nftc_puts(" device ", octx->f);
		nftc_print_expr(octx, s->dup.dev);
	}
}

static void print_fwd(struct output_ctx *octx, const struct stmt *s)
{
	if (s->fwd.addr) {
		fprintf(octx->f, "fwd %s to ",
			s->fwd.family == NFPROTO_IPV6 ? "ip6" : "ip");
		nftc_print_expr(octx, s->fwd.addr);
		nftc_puts(" device ", octx->f);
	} else {
		nftc_puts("fwd to ", octx->f);
	}
	nftc_print_expr(octx, s->fwd.dev);
}

static void print_meta_stmt(struct output_ctx *octx, const struct stmt *s)
{
	const char *tok = s->meta.key < META_KEYS_MAX ?
			  meta_templates[s->meta.key].token : NULL;

	/* only the interface keys list unqualified, and none is settable */
	fprintf(octx->f, "meta %s set ", tok ? tok : "unknown");
	nftc_print_expr(octx, s->meta.expr);
}

static void print_ct_stmt(struct output_ctx *octx, const struct stmt *s)
{
	unsigned int flags = octx->flags;

	nftc_print_ct_key(octx, s->ct.key, s->ct.direction, 0);
	nftc_puts(" set ", octx->f);
	/* flags as a list: "ct event set new,destroy" */
	octx->flags |= NFTC_OUTPUT_INT_FLAGLIST;
	nftc_print_expr(octx, s->ct.expr);
	octx->flags = flags;
}

static void print_payload_stmt(struct output_ctx *octx, const struct stmt *s)
{
	if (s->kind == STMT_PAYLOAD && nftc_print_payload_stmt_lowered(octx, s))
		return;
	nftc_print_expr(octx, s->payload.lhs);
	nftc_puts(" set ", octx->f);
	nftc_print_expr(octx, s->payload.val);
}

static void print_notrack(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts("notrack", octx->f);
}

static const char *const dynset_ops[] = {
	[NFT_DYNSET_OP_ADD]	= "add",
	[NFT_DYNSET_OP_UPDATE]	= "update",
	[NFT_DYNSET_OP_DELETE]	= "delete",
};

/* The per-element statements of a dynset print without their state. */
static void print_elem_stmts(struct output_ctx *octx,
			     const struct list_head *stmts)
{
	unsigned int flags = octx->flags;
	const struct stmt *i;

	octx->flags |= NFTC_OUTPUT_STATELESS;
	list_for_each_entry(i, stmts, list) {
		nftc_putc(' ', octx->f);
		nftc_print_stmt(octx, i);
	}
	octx->flags = flags;
}

/*
 * A dynset with statements on an anonymous set is a meter to stock:
 * "meter NAME size N { KEY STMT }".
 */
static bool print_meter_head(struct output_ctx *octx, const struct stmt *s)
{
	const struct set *set = s->set.set && s->set.set->kind ==
				EXPR_SET_REF ? s->set.set->set_ref.set : NULL;

	if (!set || !(set->flags & SET_F_ANONYMOUS) ||
	    list_empty(&s->set.stmts) || !set->handle.set.name)
		return false;
	fprintf(octx->f, "meter %s ", set->handle.set.name);
	if (set->size)
		fprintf(octx->f, "size %u ", set->size);
	return true;
}

static void print_set_stmt(struct output_ctx *octx, const struct stmt *s)
{
	if (print_meter_head(octx, s)) {
		nftc_puts("{ ", octx->f);
		nftc_print_expr(octx, s->set.key);
		print_elem_stmts(octx, &s->set.stmts);
		nftc_puts(" }", octx->f);
		return;
	}
	fprintf(octx->f, "%s ", s->set.op <= NFT_DYNSET_OP_DELETE ?
		dynset_ops[s->set.op] : "unknown");
	nftc_print_expr(octx, s->set.set);
	nftc_puts(" { ", octx->f);
	nftc_print_expr(octx, s->set.key);
	print_elem_stmts(octx, &s->set.stmts);
	if (s->kind == STMT_MAP && s->set.data) {
		nftc_puts(" : ", octx->f);
		nftc_print_expr(octx, s->set.data);
	}
	nftc_puts(" }", octx->f);
}

static const char *const objref_names[] = {
	[NFT_OBJECT_COUNTER]	= "counter name ",
	[NFT_OBJECT_QUOTA]	= "quota name ",
	[NFT_OBJECT_CT_HELPER]	= "ct helper set ",
	[NFT_OBJECT_LIMIT]	= "limit name ",
	[NFT_OBJECT_CT_TIMEOUT]	= "ct timeout set ",
	[NFT_OBJECT_SECMARK]	= "meta secmark set ",
	[NFT_OBJECT_SYNPROXY]	= "synproxy name ",
	[NFT_OBJECT_CT_EXPECT]	= "ct expectation set ",
};

static void print_objref(struct output_ctx *octx, const struct stmt *s)
{
	const char *name = NULL;

	if (s->objref.type < sizeof(objref_names) / sizeof(objref_names[0]))
		name = objref_names[s->objref.type];
	nftc_puts(name ? name : "unknown name ", octx->f);
	nftc_print_expr(octx, s->objref.expr);
}

static void print_connlimit(struct output_ctx *octx, const struct stmt *s)
{
	fprintf(octx->f, "ct count %s%u",
		(s->connlimit.flags & NFT_CONNLIMIT_F_INV) ? "over " : "",
		s->connlimit.count);
}

/* As stock: either of mss/wscale prints both. */
static void print_synproxy(struct output_ctx *octx, const struct stmt *s)
{
	uint32_t f = s->synproxy.flags;

	nftc_puts("synproxy", octx->f);
	if (f & (NF_SYNPROXY_OPT_MSS | NF_SYNPROXY_OPT_WSCALE))
		fprintf(octx->f, " mss %u wscale %u", s->synproxy.mss,
			s->synproxy.wscale);
	if (f & NF_SYNPROXY_OPT_TIMESTAMP)
		nftc_puts(" timestamp", octx->f);
	if (f & NF_SYNPROXY_OPT_SACK_PERM)
		nftc_puts(" sack-perm", octx->f);
}

static void print_flow_offload(struct output_ctx *octx, const struct stmt *s)
{
	fprintf(octx->f, "flow add @%s",
		s->flow.table_name ? s->flow.table_name : "?");
}

static void print_last(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts("last", octx->f);
	if (stateless(octx))
		return;
	nftc_puts(" used ", octx->f);
	if (s->last.set)
		nftc_print_time(octx, s->last.used);
	else
		nftc_puts("never", octx->f);
}

static void print_optstrip(struct output_ctx *octx, const struct stmt *s)
{
	nftc_puts("reset ", octx->f);
	nftc_print_expr(octx, s->optstrip.expr);
}

static void print_chain_stmt(struct output_ctx *octx, const struct stmt *s)
{
	const struct expr *v = s->chain.verdict;
	unsigned int flags = octx->flags;
	const struct rule *r;

	fprintf(octx->f, "%s {\n",
		v && v->kind == EXPR_VERDICT &&
		v->verdict.verdict == NFT_GOTO ? "goto" : "jump");
	/* as stock: the rules inside have no handles of their own */
	octx->flags &= ~NFTC_OUTPUT_HANDLE;
	if (s->chain.chain) {
		list_for_each_entry(r, &s->chain.chain->rules, list) {
			nftc_puts("\t\t\t", octx->f);
			nftc_print_rule(octx, r);
			nftc_putc('\n', octx->f);
		}
	}
	octx->flags = flags;
	nftc_puts("\t\t}", octx->f);
}

/* As stock nft lists an xtables expression it cannot translate. */
static void print_xt(struct output_ctx *octx, const struct stmt *s)
{
	fprintf(octx->f, "xt %s %s", s->xt.target ? "target" : "match",
		s->xt.name);
}

static void print_invalid(struct output_ctx *octx, const struct stmt *s)
{
	fprintf(octx->f, "<%s>", stmt_kind_name(s->kind));
}

static const stmt_print_fn stmt_printers[__STMT_MAX] = {
	[STMT_INVALID]		= print_invalid,
	[STMT_EXPRESSION]	= print_expr_stmt,
	[STMT_VERDICT]		= print_expr_stmt,
	[STMT_COUNTER]		= print_counter,
	[STMT_LOG]		= print_log,
	[STMT_LIMIT]		= print_limit,
	[STMT_QUOTA]		= print_quota,
	[STMT_REJECT]		= print_reject,
	[STMT_NAT]		= print_nat,
	[STMT_TPROXY]		= print_tproxy,
	[STMT_QUEUE]		= print_queue,
	[STMT_DUP]		= print_dup,
	[STMT_FWD]		= print_fwd,
	[STMT_META]		= print_meta_stmt,
	[STMT_CT]		= print_ct_stmt,
	[STMT_PAYLOAD]		= print_payload_stmt,
	[STMT_EXTHDR]		= print_payload_stmt,
	[STMT_NOTRACK]		= print_notrack,
	[STMT_SET]		= print_set_stmt,
	[STMT_MAP]		= print_set_stmt,
	[STMT_OBJREF]		= print_objref,
	[STMT_CONNLIMIT]	= print_connlimit,
	[STMT_SYNPROXY]		= print_synproxy,
	[STMT_FLOW_OFFLOAD]	= print_flow_offload,
	[STMT_LAST]		= print_last,
	[STMT_OPTSTRIP]		= print_optstrip,
	[STMT_CHAIN]		= print_chain_stmt,
	[STMT_XT]		= print_xt,
};

/**
 * nftc_print_stmt - print one statement as nft lists it
 * @octx: output context (NFTC_OUTPUT_STATELESS drops counter values)
 * @stmt: the statement
 */
void nftc_print_stmt(struct output_ctx *octx, const struct stmt *stmt)
{
	if (!stmt)
		return;
	if (stmt->kind >= __STMT_MAX || !stmt_printers[stmt->kind]) {
		print_invalid(octx, stmt);
		return;
	}
	stmt_printers[stmt->kind](octx, stmt);
}
