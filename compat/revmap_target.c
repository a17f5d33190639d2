// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reverse map of statements: verdicts, targets (LOG, REJECT, NAT,
 * CT --notrack, TCPMSS, MARK, CONNMARK) and limit, as iptables'
 * target/match options. Facts in tables: the verdict words, the reject
 * codes per family, the limit units, the mark setters.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include "compat.h"
#include "revmap_int.h"

static const struct {
	int		verdict;
	const char	*target;
} rv_verdicts[] = {
	{ NF_ACCEPT,	"ACCEPT" },
	{ NF_DROP,	"DROP" },
	{ NFT_RETURN,	"RETURN" },
};

/* REJECT --reject-with by family and nft reject type/code. */
static const struct {
	uint8_t			family;
	enum nft_reject_types	type;
	int			code;	/* -1: the default */
	const char		*with;
} rv_rejects[] = {
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, -1, "icmp-port-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 3, "icmp-port-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 0, "icmp-net-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 1, "icmp-host-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 2, "icmp-proto-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 9, "icmp-net-prohibited" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 10, "icmp-host-prohibited" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMP_UNREACH, 13, "icmp-admin-prohibited" },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, -1, "icmp6-port-unreachable" },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 4, "icmp6-port-unreachable" },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 0, "icmp6-no-route" },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 1, "icmp6-adm-prohibited" },
	{ NFPROTO_IPV6, NFT_REJECT_ICMP_UNREACH, 3, "icmp6-addr-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_ICMPX_UNREACH, -1, "icmp-port-unreachable" },
	{ NFPROTO_IPV6, NFT_REJECT_ICMPX_UNREACH, -1, "icmp6-port-unreachable" },
	{ NFPROTO_IPV4, NFT_REJECT_TCP_RST, -1, "tcp-reset" },
	{ NFPROTO_IPV6, NFT_REJECT_TCP_RST, -1, "tcp-reset" },
};

static const struct {
	uint64_t	seconds;
	const char	*unit;
} rv_limit_units[] = {
	{ 1, "sec" }, { 60, "min" }, { 3600, "hour" }, { 86400, "day" },
};

/* LOG's flag options, in the order libxt_LOG's save prints them. */
static const struct {
	uint32_t	flag;	/* NF_LOG_* */
	const char	*opt;
} rv_log_flags[] = {
	{ 0x01, "--log-tcp-sequence" },
	{ 0x02, "--log-tcp-options" },
	{ 0x04, "--log-ip-options" },
	{ 0x08, "--log-uid" },
	{ 0x20, "--log-macdecode" },
};

#define ARRAY_N(a)	(sizeof(a) / sizeof((a)[0]))
#define RV_LIMIT_BURST_DEFAULT	5
#define RV_LOG_LEVEL_DEFAULT	4

static bool rv_target(struct rv_ctx *c, const char *fmt, const char *arg)
{
	if (c->has_target)
		return false;
	c->has_target = true;
	fprintf(c->t, fmt, arg);
	return true;
}

static bool rv_verdict(struct rv_ctx *c, const struct expr *e)
{
	const char *id;
	char *chain;
	unsigned int i;
	bool ok;

	if (e->kind == EXPR_SYMBOL) {
		id = e->sym.identifier;
		if (strncmp(id, COMPAT_XT_MARK, strlen(COMPAT_XT_MARK)))
			return false;
		id += strlen(COMPAT_XT_MARK);
		if (!strncmp(id, " -j ", 4) || !strncmp(id, " -g ", 4))
			return rv_target(c, "%s", id);
		rv_match_open(c, NULL);
		fputs(id, c->m);
		return true;
	}
	if (e->kind != EXPR_VERDICT)
		return false;
	for (i = 0; i < ARRAY_N(rv_verdicts); i++) {
		if (rv_verdicts[i].verdict == e->verdict.verdict)
			return rv_target(c, " -j %s", rv_verdicts[i].target);
	}
	if (e->verdict.verdict == NFT_CONTINUE)
		return true;
	if ((e->verdict.verdict != NFT_JUMP &&
	     e->verdict.verdict != NFT_GOTO) || !e->verdict.chain)
		return false;
	chain = rv_expr_text(e->verdict.chain);
	if (!chain)
		return false;
	if (chain[0] == '"') {	/* quoted by the printer */
		memmove(chain, chain + 1, strlen(chain));
		chain[strlen(chain) - 1] = '\0';
	}
	ok = rv_target(c, e->verdict.verdict == NFT_JUMP ? " -j %s" :
		       " -g %s", chain);
	free(chain);
	return ok;
}

static bool rv_log(struct rv_ctx *c, const struct stmt *s)
{
	unsigned int i;

	if (s->log.flags & STMT_LOG_GROUP) {
		if (!rv_target(c, "%s", " -j NFLOG"))
			return false;
		if (s->log.prefix) {
			fputs(" --nflog-prefix ", c->t);
			rv_quote(c->t, s->log.prefix);
		}
		if (s->log.group)
			fprintf(c->t, " --nflog-group %u", s->log.group);
		return true;
	}
	if (!rv_target(c, "%s", " -j LOG"))
		return false;
	if (s->log.prefix && *s->log.prefix) {
		fputs(" --log-prefix ", c->t);
		rv_quote(c->t, s->log.prefix);
	}
	if ((s->log.flags & STMT_LOG_LEVEL) &&
	    s->log.level != RV_LOG_LEVEL_DEFAULT)
		fprintf(c->t, " --log-level %u", s->log.level);
	for (i = 0; i < ARRAY_N(rv_log_flags); i++) {
		if (s->log.logflags & rv_log_flags[i].flag)
			fprintf(c->t, " %s", rv_log_flags[i].opt);
	}
	return true;
}

static bool rv_reject(struct rv_ctx *c, const struct stmt *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_N(rv_rejects); i++) {
		if (rv_rejects[i].family == c->family &&
		    rv_rejects[i].type == s->reject.type &&
		    rv_rejects[i].code == s->reject.icmp_code)
			return rv_target(c, " -j REJECT --reject-with %s",
					 rv_rejects[i].with);
	}
	return false;
}

/* "a.b.c.d[-e.f.g.h][:port[-port]]" from the nat statement. */
static void rv_nat_to(struct rv_ctx *c, const struct stmt *s, bool ports)
{
	char *a = s->nat.addr ? rv_expr_text(s->nat.addr) : NULL;
	char *p = s->nat.proto ? rv_expr_text(s->nat.proto) : NULL;

	if (a && p && !ports && c->family == NFPROTO_IPV6)
		fprintf(c->t, "[%s]", a);	/* addr:port is ambiguous */
	else if (a)
		fputs(a, c->t);
	if (p)
		fprintf(c->t, "%s%s", ports ? "" : ":", p);
	free(a);
	free(p);
}

static bool rv_nat(struct rv_ctx *c, const struct stmt *s)
{
	switch (s->nat.kind) {
	case NAT_SNAT:
		if (!rv_target(c, "%s", " -j SNAT --to-source "))
			return false;
		rv_nat_to(c, s, false);
		break;
	case NAT_DNAT:
		if (!rv_target(c, "%s", " -j DNAT --to-destination "))
			return false;
		rv_nat_to(c, s, false);
		break;
	case NAT_MASQ:
		if (!rv_target(c, "%s", " -j MASQUERADE"))
			return false;
		if (s->nat.proto) {
			fputs(" --to-ports ", c->t);
			rv_nat_to(c, s, true);
		}
		break;
	case NAT_REDIR:
		if (!rv_target(c, "%s", " -j REDIRECT"))
			return false;
		if (s->nat.proto) {
			fputs(" --to-ports ", c->t);
			rv_nat_to(c, s, true);
		}
		break;
	}
	if (s->nat.flags & NF_NAT_RANGE_PROTO_RANDOM)
		fputs(" --random", c->t);
	if (s->nat.flags & NF_NAT_RANGE_PERSISTENT)
		fputs(" --persistent", c->t);
	return true;
}

static bool rv_limit(struct rv_ctx *c, const struct stmt *s)
{
	unsigned int i;

	if (s->limit.type != NFT_LIMIT_PKTS)
		return false;
	for (i = 0; i < ARRAY_N(rv_limit_units); i++) {
		if (rv_limit_units[i].seconds != s->limit.unit)
			continue;
		rv_match_open(c, "limit");
		fprintf(c->m, " --limit %llu/%s",
			(unsigned long long)s->limit.rate,
			rv_limit_units[i].unit);
		if (s->limit.burst != RV_LIMIT_BURST_DEFAULT)
			fprintf(c->m, " --limit-burst %u", s->limit.burst);
		return true;
	}
	return false;
}

/*
 * The mark setters xlate writes for MARK and CONNMARK (xlate/
 * map_target.c), read back from the printer's text. The kernel's xmark
 * is new = (old & ~MASK) ^ VALUE; the delinearizer prints the bitwise
 * the VM holds, (old & A) ^ X, in its shortest form, so every form
 * gives VALUE X and MASK ~A back exactly:
 *   "K set V"                 V/0xffffffff
 *   "K set K & A ^ X"         X/~A
 *   "K set K & A"             0/~A
 *   "K set K | V"             V/V      (A = ~V, X = V)
 *   "K set K ^ V"             V/0      (A = all ones)
 *   "K set K"                 0/0      (nothing changes)
 * and the copies of one mark into the other, CONNMARK --save-mark and
 * --restore-mark with full masks (xlate writes no other), shifted for
 * --left-shift-mark / --right-shift-mark. Printed as
 * libxt_MARK and libxt_CONNMARK save them.
 */
static const struct {
	const char	*key;		/* the mark set */
	const char	*target;	/* its -j, with the xmark option */
} rv_marks[] = {
	{ "meta mark", " -j MARK --set-xmark" },
	{ "ct mark", " -j CONNMARK --set-xmark" },
};

static const struct {
	const char	*text;		/* the whole statement */
	const char	*target;
} rv_mark_copies[] = {
	{ "meta mark set ct mark", " -j CONNMARK --restore-mark"
	  " --nfmask 0xffffffff --ctmask 0xffffffff" },
	{ "ct mark set meta mark", " -j CONNMARK --save-mark"
	  " --nfmask 0xffffffff --ctmask 0xffffffff" },
};

/* "0x..." at *@p, ending at a blank or the end (*@p moves past it). */
static bool rv_hex(const char **p, uint32_t *v)
{
	unsigned long n;
	char *e;

	if (strncmp(*p, "0x", 2))
		return false;
	n = strtoul(*p, &e, 16);
	if (e == *p + 2 || n > UINT32_MAX || (*e && *e != ' '))
		return false;
	*v = n;
	*p = e + (*e == ' ');
	return true;
}

/* @p after "K set ": the xmark (value, mask) of the forms above. */
static bool rv_xmark(const char *p, const char *key, uint32_t *value,
		     uint32_t *mask)
{
	size_t n = strlen(key);
	uint32_t a = UINT32_MAX, x = 0;

	if (rv_hex(&p, value)) {
		*mask = UINT32_MAX;
		return !*p;
	}
	if (strncmp(p, key, n) || (p[n] && p[n] != ' '))
		return false;
	p += n + !!p[n];
	if (!strncmp(p, "| ", 2)) {
		p += 2;
		if (!rv_hex(&p, &x) || *p)
			return false;
		*value = *mask = x;
		return true;
	}
	if (!strncmp(p, "& ", 2)) {
		p += 2;
		if (!rv_hex(&p, &a))
			return false;
	}
	if (!strncmp(p, "^ ", 2)) {
		p += 2;
		if (!rv_hex(&p, &x))
			return false;
	}
	if (*p)
		return false;
	*value = x;
	*mask = ~a;
	return true;
}

/* " << N" or " >> N" after a copy: --left/right-shift-mark N */
static bool rv_mark_shift(const char *p, unsigned int *shift)
{
	unsigned long n;
	char *e;

	if (strncmp(p, " << ", 4) && strncmp(p, " >> ", 4))
		return false;
	n = strtoul(p + 4, &e, 10);
	if (e == p + 4 || *e || n > 31)
		return false;
	*shift = n;
	return true;
}

static bool rv_mark_set(struct rv_ctx *c, const struct stmt *s)
{
	char *text = rv_stmt_text(c, s);
	uint32_t value, mask;
	unsigned int shift = 0;
	bool ok = false;
	unsigned int i;
	size_t n;

	for (i = 0; text && i < ARRAY_N(rv_mark_copies); i++) {
		n = strlen(rv_mark_copies[i].text);
		if (!strncmp(text, rv_mark_copies[i].text, n) &&
		    (!text[n] || rv_mark_shift(text + n, &shift))) {
			ok = rv_target(c, "%s", rv_mark_copies[i].target);
			if (ok && text[n])
				fprintf(c->t, " --%s-shift-mark %u",
					text[n + 1] == '<' ? "left" : "right",
					shift);
			goto out;
		}
	}
	for (i = 0; text && i < ARRAY_N(rv_marks); i++) {
		n = strlen(rv_marks[i].key);
		if (strncmp(text, rv_marks[i].key, n) ||
		    strncmp(text + n, " set ", 5) ||
		    !rv_xmark(text + n + 5, rv_marks[i].key, &value, &mask))
			continue;
		if ((ok = rv_target(c, "%s", rv_marks[i].target)))
			fprintf(c->t, " 0x%x/0x%x", value, mask);
		break;
	}
out:
	free(text);
	return ok;
}

/* "ct zone set 1" (CT --zone), "meta nftrace set 1" (TRACE), marks */
static bool rv_set(struct rv_ctx *c, const struct stmt *s, bool ct)
{
	struct expr *e = ct ? s->ct.expr : s->meta.expr;
	char *v;
	bool ok;

	if (ct ? s->ct.key == NFT_CT_MARK : s->meta.key == NFT_META_MARK)
		return rv_mark_set(c, s);
	if (!e || e->kind != EXPR_VALUE)
		return false;
	v = ct ? NULL : rv_expr_text(e);
	/* -j TRACE: "meta nftrace set 1" */
	if (!ct && s->meta.key == NFT_META_NFTRACE && v && !strcmp(v, "1")) {
		free(v);
		return rv_target(c, "%s", " -j TRACE");
	}
	free(v);
	if (!ct || s->ct.key != NFT_CT_ZONE)
		return false;
	v = rv_expr_text(e);
	if (!v)
		return false;
	ok = rv_target(c, " -j CT --zone %s", v);
	free(v);
	return ok;
}

/*
 * "tcp option maxseg size set 1400" (TCPMSS --set-mss) and "... set rt
 * mtu" (TCPMSS --clamp-mss-to-pmtu), as xlate writes them.
 */
static bool rv_tcpmss(struct rv_ctx *c, const struct stmt *s)
{
	char *lhs = rv_expr_text(s->payload.lhs);
	char *val = rv_expr_text(s->payload.val);
	bool ok = false;

	if (lhs && val && !strcmp(lhs, "tcp option maxseg size")) {
		if (!strcmp(val, "rt mtu"))
			ok = rv_target(c, "%s", " -j TCPMSS --clamp-mss-to-pmtu");
		else if (s->payload.val->kind == EXPR_VALUE)
			ok = rv_target(c, " -j TCPMSS --set-mss %s", val);
	}
	free(lhs);
	free(val);
	return ok;
}

bool rv_stmt(struct rv_ctx *c, const struct stmt *s)
{
	switch (s->kind) {
	case STMT_COUNTER:
		return true;
	case STMT_VERDICT:
		return rv_verdict(c, s->expr);
	case STMT_LOG:
		return rv_log(c, s);
	case STMT_REJECT:
		return rv_reject(c, s);
	case STMT_NAT:
		return rv_nat(c, s);
	case STMT_LIMIT:
		return rv_limit(c, s);
	case STMT_META:
		return rv_set(c, s, false);
	case STMT_CT:
		return rv_set(c, s, true);
	case STMT_NOTRACK:
		return rv_target(c, "%s", " -j CT --notrack");
	case STMT_SET:
		return rv_state_set(c, s);
	case STMT_EXTHDR:
		return rv_tcpmss(c, s);
	default:
		return false;
	}
}
