// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables-restore-nft's fast path: the common rules written straight
 * into the batch from their words, without libxtables,
 * the xlate IR, nftc's evaluator or its linearizer. The message is the
 * one the IR path writes (restore.c: the same expressions in the same
 * order, the xt-compat matches and targets iptables-nft 1.8.9 writes,
 * NFTA_RULE_COMPAT); testcases/shim/restore-fast.sh compares the two
 * byte for byte over the real-world corpus and the benchmark's file.
 *
 * A rule is taken only when every word of it is understood here, in
 * the strict forms iptables-save prints (no abbreviated options, no
 * names for ports or hosts); anything else, and anything libxtables
 * would warn about or refuse, returns 0 and goes the IR path, so its
 * diagnostics stay libxtables' own.
 *
 *   base:    [!] -s|-d A.B.C.D[/N] | IPV6[/N]   [!] -i|-o NAME[+]
 *            [!] -p tcp|udp|icmp|ipv6-icmp|icmpv6|all
 *   -m tcp|udp  [!] --sport|--dport N[:M]   -m tcp [!] --tcp-flags M C
 *     (also without -m tcp/udp/icmp/icmp6 after -p, as libxtables)
 *   -m multiport [!] --sports|--dports|--ports N[:M][,...]
 *   -m state [!] --state S,...   -m conntrack [!] --ctstate S,...
 *   -m comment --comment TEXT    -m icmp [!] --icmp-type N|NAME
 *   -m icmp6 [!] --icmpv6-type N
 *   -m mac [!] --mac-source XX:XX:XX:XX:XX:XX
 *   -j ACCEPT|DROP|RETURN|CHAIN  -g CHAIN
 *   -j LOG [--log-prefix P] [--log-level L]
 *   -j REJECT [--reject-with W]  (filter table)
 * in any table, for iptables and ip6tables; the rest go the IR path.
 */
#include <config.h>
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_comment.h>
#include <linux/netfilter/xt_conntrack.h>
#include <linux/netfilter/xt_mac.h>
#include <linux/netfilter/xt_multiport.h>
#include <linux/netfilter/xt_LOG.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv4/ipt_REJECT.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include <linux/netfilter_ipv6/ip6t_REJECT.h>
#include "shim.h"
#include "xlate.h"
#include "linearize.h"
#include "nlw.h"
#include "fmt.h"
#include "restore_fast.h"

#define ARRAY_N(a)	(sizeof(a) / sizeof((a)[0]))
#define FR_MAX_MATCHES	6
#define FR_IFNAMSIZ	16

struct fr_addr {
	bool		set, inv;
	uint8_t		addr[16];	/* network order, masked */
	unsigned int	plen;
};

struct fr_iface {
	bool		set, inv;
	char		name[FR_IFNAMSIZ];
	size_t		len;		/* bytes compared */
};

struct fr_port {
	bool		set, inv;
	uint16_t	lo, hi;
};

enum fr_match_kind {
	FM_PORTS,	/* -m tcp / -m udp: native */
	FM_XT,		/* an xt-compat match */
};

/* A match: native ports, or an xt structure (@info of @len bytes). */
struct fr_match {
	enum fr_match_kind	kind;
	unsigned int		k;	/* in fr_matches[] */
	const char		*name;	/* the -m name */
	struct fr_port		sport, dport;
	bool			flags_set, flags_inv;	/* --tcp-flags */
	uint8_t			flg_mask, flg_cmp;
	const char		*xt_name;
	uint32_t		rev;
	size_t			len;
	union {
		struct xt_conntrack_mtinfo3	ct;
		struct xt_multiport_v1		mp;
		struct xt_comment_info		comment;
		struct ipt_icmp			icmp;
		struct ip6t_icmp		icmp6;
		struct xt_mac_info		mac;
	} info;
};

enum fr_target_kind {
	FT_NONE,
	FT_VERDICT,	/* @verdict, @chain for jump/goto */
	FT_LOG,
	FT_REJECT,
};

struct fr_rule {
	uint8_t			family;
	struct fr_addr		src, dst;
	struct fr_iface		in, out;
	bool			proto_seen;	/* -p, even "all" */
	bool			proto_set, proto_inv;
	uint8_t			proto;
	unsigned int		nm;
	enum fr_target_kind	target;
	int32_t			verdict;
	const char		*chain;
	struct xt_log_info	log;
	uint32_t		reject;
	bool			xt;	/* any xt-compat expression */
	const char		*val2;	/* --tcp-flags' second word */
	/* last: zeroed one by one as they are used */
	struct fr_match		m[FR_MAX_MATCHES];
};

/* A decimal number without leading zeros (libxtables reads octal). */
static bool number(const char *s, unsigned long max, unsigned long *v)
{
	unsigned long n = 0;
	unsigned int i;

	if (!s[0] || (s[0] == '0' && s[1]))
		return false;
	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9' || i == 9)
			return false;
		n = n * 10 + (s[i] - '0');
	}
	*v = n;
	return n <= max;
}

static bool port(const char *s, uint16_t *p)
{
	unsigned long v;

	if (!number(s, 65535, &v) || v == 0)
		return false;
	*p = v;
	return true;
}

/* "N" or "N:M" (N < M, N > 0), the forms iptables-save prints. */
static bool port_range(const char *s, struct fr_port *p)
{
	const char *colon = strchr(s, ':');
	char lo[8];

	if (!colon)
		return port(s, &p->lo) && (p->hi = p->lo, true);
	if ((size_t)(colon - s) >= sizeof(lo))
		return false;
	memcpy(lo, s, colon - s);
	lo[colon - s] = '\0';
	return port(lo, &p->lo) && port(colon + 1, &p->hi) && p->lo < p->hi;
}

/* "A.B.C.D" or "A.B.C.D/N", 0 < N <= 32. */
static bool addr4(const char *s, struct fr_addr *a)
{
	unsigned long plen = 32;
	uint32_t host;

	s = fmt_parse_ip4(s, a->addr);
	if (!s || (*s == '/' ? !number(s + 1, 32, &plen) || plen == 0 : *s))
		return false;
	memcpy(&host, a->addr, sizeof(host));
	host = ntohl(host);
	if (plen < 32)
		host &= ~(0xffffffffu >> plen);
	host = htonl(host);
	memcpy(a->addr, &host, sizeof(host));
	a->plen = plen;
	return true;
}

/* "2001:db8::1" or "2001:db8::/N", 0 < N <= 128: hex digits and colons. */
static bool addr6(const char *s, struct fr_addr *a)
{
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long plen = 128;
	char text[INET6_ADDRSTRLEN];
	unsigned int i;

	if (n == 0 || n >= sizeof(text) || strspn(s, "0123456789abcdefABCDEF:")
	    != n)
		return false;
	memcpy(text, s, n);
	text[n] = '\0';
	if (inet_pton(AF_INET6, text, a->addr) != 1)
		return false;
	if (slash && (!number(slash + 1, 128, &plen) || plen == 0))
		return false;
	for (i = plen; i < 128; i++)
		a->addr[i / 8] &= ~(0x80 >> (i % 8));
	a->plen = plen;
	return true;
}

static bool addr(const struct fr_rule *r, const char *s, struct fr_addr *a)
{
	return r->family == NFPROTO_IPV6 ? addr6(s, a) : addr4(s, a);
}

/* "eth0", or "eth+" (any "eth..."); not "+" alone. */
static bool iface(const char *s, struct fr_iface *f)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= FR_IFNAMSIZ || !strcmp(s, "+"))
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-' || (c == '+' && i == n - 1)))
			return false;
	}
	memset(f->name, 0, sizeof(f->name));
	memcpy(f->name, s, n);
	f->len = s[n - 1] == '+' ? n - 1 : FR_IFNAMSIZ;
	return true;
}

/* Printable text without quotes or backslashes, 1..max bytes. */
static bool plain_text(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' ||
		    s[i] == '\\')
			return false;
	}
	return true;
}

static bool opt_is(const char *w, const char *s, const char *l)
{
	return (s && !strcmp(w, s)) || (l && !strcmp(w, l));
}

/*
 * Matches
 */

/* --tcp-flags MASK COMP: a mask that tests nothing is written as none */
static bool flags_opt(struct fr_rule *r, struct fr_match *m, bool inv,
		      const char *val)
{
	if (m->flags_set || strcmp(m->name, "tcp") || !r->val2 ||
	    !xlate_tcp_flag_list(val, &m->flg_mask) ||
	    !xlate_tcp_flag_list(r->val2, &m->flg_cmp) ||
	    !m->flg_mask)
		return false;
	m->flags_set = true;
	m->flags_inv = inv;
	return true;
}

static bool ports_opt(struct fr_rule *r, struct fr_match *m, const char *opt,
		      bool inv, const char *val)
{
	struct fr_port *p;

	if (!strcmp(opt, "--tcp-flags"))
		return flags_opt(r, m, inv, val);
	if (opt_is(opt, "--sport", "--source-port"))
		p = &m->sport;
	else if (opt_is(opt, "--dport", "--destination-port"))
		p = &m->dport;
	else
		return false;
	if (p->set || !port_range(val, p))
		return false;
	p->set = true;
	p->inv = inv;
	return true;
}

static bool multiport_opt(struct fr_rule *r, struct fr_match *m,
			  const char *opt, bool inv, const char *val)
{
	struct xt_multiport_v1 *mp = &m->info.mp;
	const char *s = val;
	struct fr_port p;
	char one[16];

	if (m->len)	/* one option per match */
		return false;
	if (opt_is(opt, "--sports", "--source-ports"))
		mp->flags = XT_MULTIPORT_SOURCE;
	else if (opt_is(opt, "--dports", "--destination-ports"))
		mp->flags = XT_MULTIPORT_DESTINATION;
	else if (opt_is(opt, "--ports", NULL))
		mp->flags = XT_MULTIPORT_EITHER;
	else
		return false;
	for (;;) {
		size_t n = strcspn(s, ",");

		if (n == 0 || n >= sizeof(one))
			return false;
		memcpy(one, s, n);
		one[n] = '\0';
		if (!port_range(one, &p))
			return false;
		if (mp->count + (p.lo != p.hi) >= XT_MULTI_PORTS)
			return false;
		if (p.lo != p.hi) {
			mp->pflags[mp->count] = 1;
			mp->ports[mp->count++] = p.lo;
		}
		mp->ports[mp->count++] = p.hi;
		s += n;
		if (!*s)
			break;
		s++;
	}
	mp->invert = inv;
	m->len = sizeof(*mp);
	return true;
}

static const struct {
	const char	*name;
	uint16_t	bit;
} fr_ct_states[] = {
	{ "INVALID",		XT_CONNTRACK_STATE_INVALID },
	{ "ESTABLISHED",	XT_CONNTRACK_STATE_BIT(IP_CT_ESTABLISHED) },
	{ "RELATED",		XT_CONNTRACK_STATE_BIT(IP_CT_RELATED) },
	{ "NEW",		XT_CONNTRACK_STATE_BIT(IP_CT_NEW) },
	{ "UNTRACKED",		XT_CONNTRACK_STATE_UNTRACKED },
};

static bool state_opt(struct fr_rule *r, struct fr_match *m, const char *opt,
		      bool inv, const char *val)
{
	struct xt_conntrack_mtinfo3 *ct = &m->info.ct;
	bool state = !strcmp(m->name, "state");
	const char *s = val;
	unsigned int i;

	if (m->len || strcmp(opt, state ? "--state" : "--ctstate"))
		return false;
	for (;;) {
		size_t n = strcspn(s, ",");

		for (i = 0; i < ARRAY_N(fr_ct_states); i++) {
			if (strlen(fr_ct_states[i].name) == n &&
			    !memcmp(s, fr_ct_states[i].name, n))
				break;
		}
		if (i == ARRAY_N(fr_ct_states))
			return false;
		ct->state_mask |= fr_ct_states[i].bit;
		s += n;
		if (!*s)
			break;
		s++;
	}
	ct->match_flags = XT_CONNTRACK_STATE |
			  (state ? XT_CONNTRACK_STATE_ALIAS : 0);
	ct->invert_flags = inv ? XT_CONNTRACK_STATE : 0;
	m->len = sizeof(*ct);
	return true;
}

static bool comment_opt(struct fr_rule *r, struct fr_match *m,
			const char *opt, bool inv, const char *val)
{
	if (m->len || inv || strcmp(opt, "--comment") ||
	    !plain_text(val, XT_MAX_COMMENT_LEN - 1))
		return false;
	strcpy((char *)m->info.comment.comment, val);
	m->len = sizeof(m->info.comment);
	return true;
}

/* "58:94:6b:17:41:7c": two hex digits a byte */
static bool mac_opt(struct fr_rule *r, struct fr_match *m, const char *opt,
		    bool inv, const char *val)
{
	static const char hex[] = "0123456789abcdef";
	struct xt_mac_info *mi = &m->info.mac;
	unsigned int i, k;

	if (m->len || strcmp(opt, "--mac-source") || strlen(val) != 17)
		return false;
	for (i = 0; i < 6; i++) {
		const char *d = val + 3 * i;
		unsigned int v = 0;

		if (i < 5 && d[2] != ':')
			return false;
		for (k = 0; k < 2; k++) {
			const char *x = d[k] ? strchr(hex, d[k] | 0x20) : NULL;

			if (!x)
				return false;
			v = v << 4 | (unsigned int)(x - hex);
		}
		mi->srcaddr[i] = v;
	}
	mi->invert = inv;
	m->len = sizeof(*mi);
	return true;
}

/* ICMP types by name, as libipt_icmp's (every code). */
static const struct {
	const char	*name;
	uint8_t		type;
} fr_icmp_types[] = {
	{ "any",			0xff },
	{ "echo-reply",			0 },
	{ "destination-unreachable",	3 },
	{ "source-quench",		4 },
	{ "redirect",			5 },
	{ "echo-request",		8 },
	{ "router-advertisement",	9 },
	{ "router-solicitation",	10 },
	{ "time-exceeded",		11 },
	{ "parameter-problem",		12 },
	{ "timestamp-request",		13 },
	{ "timestamp-reply",		14 },
	{ "address-mask-request",	17 },
	{ "address-mask-reply",		18 },
};

static bool icmp_opt(struct fr_rule *r, struct fr_match *m, const char *opt,
		     bool inv, const char *val)
{
	struct ipt_icmp *ic = &m->info.icmp;
	unsigned long v;
	unsigned int i;

	if (m->len || strcmp(opt, "--icmp-type"))
		return false;
	if (number(val, 255, &v)) {
		ic->type = v;
	} else {
		for (i = 0; i < ARRAY_N(fr_icmp_types); i++) {
			if (!strcmp(val, fr_icmp_types[i].name))
				break;
		}
		if (i == ARRAY_N(fr_icmp_types))
			return false;
		ic->type = fr_icmp_types[i].type;
	}
	ic->code[0] = 0;
	ic->code[1] = 0xff;
	ic->invflags = inv ? IPT_ICMP_INV : 0;
	m->len = sizeof(*ic);
	return true;
}

/* --icmpv6-type N: the type, every code */
static bool icmp6_opt(struct fr_rule *r, struct fr_match *m, const char *opt,
		      bool inv, const char *val)
{
	struct ip6t_icmp *ic = &m->info.icmp6;
	unsigned long v;

	if (m->len || strcmp(opt, "--icmpv6-type") || !number(val, 255, &v))
		return false;
	ic->type = v;
	ic->code[0] = 0;
	ic->code[1] = 0xff;
	ic->invflags = inv ? IP6T_ICMP_INV : 0;
	m->len = sizeof(*ic);
	return true;
}

/*
 * The matches taken: @proto the protocol the rule must match (not
 * inverted), 0 for any; @xt_name the xt-compat match it becomes.
 */
static const struct {
	const char	*name;
	uint8_t		proto;
	const char	*xt_name;
	uint32_t	rev;
	bool		(*opt)(struct fr_rule *r, struct fr_match *m,
			       const char *opt, bool inv, const char *val);
	uint8_t		family;	/* 0: both */
} fr_matches[] = {
	{ "tcp",	IPPROTO_TCP,	NULL,		0, ports_opt },
	{ "udp",	IPPROTO_UDP,	NULL,		0, ports_opt },
	{ "multiport",	0,		"multiport",	1, multiport_opt },
	{ "state",	0,		"conntrack",	3, state_opt },
	{ "conntrack",	0,		"conntrack",	3, state_opt },
	{ "comment",	0,		"comment",	0, comment_opt },
	{ "icmp",	IPPROTO_ICMP,	"icmp",		0, icmp_opt,
	  NFPROTO_IPV4 },
	{ "icmp6",	IPPROTO_ICMPV6,	"icmp6",	0, icmp6_opt,
	  NFPROTO_IPV6 },
	{ "mac",	0,		"mac",		0, mac_opt },
};

static int match_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_N(fr_matches); i++) {
		if (!strcmp(name, fr_matches[i].name))
			return i;
	}
	return -1;
}

/* Whether the rule's protocol allows match @k (after the whole rule). */
static bool match_proto_ok(const struct fr_rule *r, const struct fr_match *m)
{
	unsigned int k = m->k;

	if (fr_matches[k].proto)
		return r->proto_set && !r->proto_inv &&
		       r->proto == fr_matches[k].proto;
	if (!strcmp(m->name, "multiport"))
		return r->proto_set && !r->proto_inv &&
		       (r->proto == IPPROTO_TCP || r->proto == IPPROTO_UDP);
	return true;
}

/*
 * Targets
 */

static const struct {
	const char	*name;
	int32_t		verdict;
} fr_verdicts[] = {
	{ "ACCEPT",	NF_ACCEPT },
	{ "DROP",	NF_DROP },
	{ "RETURN",	NFT_RETURN },
};

static const struct {
	const char	*name;
	uint8_t		level;
} fr_log_levels[] = {
	{ "emerg", 0 }, { "alert", 1 }, { "crit", 2 }, { "error", 3 },
	{ "warning", 4 }, { "notice", 5 }, { "info", 6 }, { "debug", 7 },
};

static bool log_opt(struct fr_rule *r, const char *opt, const char *val,
		    unsigned int *seen)
{
	unsigned long v;
	unsigned int i;

	if (!strcmp(opt, "--log-prefix") && !(*seen & 1)) {
		*seen |= 1;
		if (!plain_text(val, sizeof(r->log.prefix) - 1))
			return false;
		strcpy(r->log.prefix, val);
		return true;
	}
	if (strcmp(opt, "--log-level") || (*seen & 2))
		return false;
	*seen |= 2;
	if (number(val, 7, &v)) {
		r->log.level = v;
		return true;
	}
	for (i = 0; i < ARRAY_N(fr_log_levels); i++) {
		if (!strcmp(val, fr_log_levels[i].name)) {
			r->log.level = fr_log_levels[i].level;
			return true;
		}
	}
	return false;
}

static const struct {
	uint8_t		family;
	const char	*name;
	uint32_t	with;
} fr_rejects[] = {
	{ NFPROTO_IPV4, "icmp-net-unreachable",	IPT_ICMP_NET_UNREACHABLE },
	{ NFPROTO_IPV4, "icmp-host-unreachable", IPT_ICMP_HOST_UNREACHABLE },
	{ NFPROTO_IPV4, "icmp-proto-unreachable", IPT_ICMP_PROT_UNREACHABLE },
	{ NFPROTO_IPV4, "icmp-port-unreachable", IPT_ICMP_PORT_UNREACHABLE },
	{ NFPROTO_IPV4, "icmp-net-prohibited",	IPT_ICMP_NET_PROHIBITED },
	{ NFPROTO_IPV4, "icmp-host-prohibited",	IPT_ICMP_HOST_PROHIBITED },
	{ NFPROTO_IPV4, "icmp-admin-prohibited", IPT_ICMP_ADMIN_PROHIBITED },
	{ NFPROTO_IPV4, "tcp-reset",		IPT_TCP_RESET },
	{ NFPROTO_IPV6, "icmp6-no-route",	IP6T_ICMP6_NO_ROUTE },
	{ NFPROTO_IPV6, "icmp6-adm-prohibited",	IP6T_ICMP6_ADM_PROHIBITED },
	{ NFPROTO_IPV6, "icmp6-addr-unreachable", IP6T_ICMP6_ADDR_UNREACH },
	{ NFPROTO_IPV6, "icmp6-port-unreachable", IP6T_ICMP6_PORT_UNREACH },
	{ NFPROTO_IPV6, "tcp-reset",		IP6T_TCP_RESET },
};

static bool reject_opt(struct fr_rule *r, const char *opt, const char *val,
		       unsigned int *seen)
{
	unsigned int i;

	if (strcmp(opt, "--reject-with") || *seen)
		return false;
	*seen = 1;
	for (i = 0; i < ARRAY_N(fr_rejects); i++) {
		if (fr_rejects[i].family == r->family &&
		    !strcmp(val, fr_rejects[i].name)) {
			r->reject = fr_rejects[i].with;
			return true;
		}
	}
	return false;
}

/* "-j NAME" / "-g NAME": @goto_ for -g. A chain comes first. */
static bool target(struct fr_rule *r, const struct xlate_fast_rule *fr,
		   const char *name, bool goto_)
{
	unsigned int i;
	int chain;

	for (i = 0; i < ARRAY_N(fr_verdicts); i++) {
		if (!strcmp(name, fr_verdicts[i].name)) {
			r->target = FT_VERDICT;
			r->verdict = fr_verdicts[i].verdict;
			return !goto_;
		}
	}
	chain = fr->jump_ok(fr, name);
	if (chain) {
		r->target = FT_VERDICT;
		r->verdict = goto_ ? NFT_GOTO : NFT_JUMP;
		r->chain = name;
		return chain > 0;
	}
	if (!goto_ && !strcmp(name, "LOG")) {
		r->target = FT_LOG;
		r->log.level = 4;
		return r->xt = true;
	}
	if (!goto_ && !strcmp(name, "REJECT")) {
		r->target = FT_REJECT;
		r->reject = r->family == NFPROTO_IPV6 ?
			    IP6T_ICMP6_PORT_UNREACH : IPT_ICMP_PORT_UNREACHABLE;
		return r->xt = true;
	}
	return false;
}

/* The rule's own options (matches' and targets' are theirs). */
enum fr_opt {
	FO_NONE,
	FO_SRC,
	FO_DST,
	FO_IN,
	FO_OUT,
	FO_PROTO,
	FO_MATCH,
	FO_JUMP,
	FO_GOTO,
};

/* -s, -d, -i, -o, -p, -m, -j, -g by their letter */
static const enum fr_opt fr_short[26] = {
	['s' - 'a'] = FO_SRC, ['d' - 'a'] = FO_DST, ['i' - 'a'] = FO_IN,
	['o' - 'a'] = FO_OUT, ['p' - 'a'] = FO_PROTO, ['m' - 'a'] = FO_MATCH,
	['j' - 'a'] = FO_JUMP, ['g' - 'a'] = FO_GOTO,
};

static const struct {
	const char	*name;
	enum fr_opt	opt;
} fr_long[] = {
	{ "--source", FO_SRC }, { "--src", FO_SRC },
	{ "--destination", FO_DST }, { "--dst", FO_DST },
	{ "--in-interface", FO_IN }, { "--out-interface", FO_OUT },
	{ "--protocol", FO_PROTO }, { "--match", FO_MATCH },
	{ "--jump", FO_JUMP }, { "--goto", FO_GOTO },
};

static enum fr_opt opt_find(const char *w)
{
	unsigned int i;

	if (w[0] != '-')
		return FO_NONE;
	if (w[1] != '-')
		return w[1] >= 'a' && w[1] <= 'z' && !w[2] ?
		       fr_short[w[1] - 'a'] : FO_NONE;
	/* most long options are a match's: first tell by a letter */
	for (i = 0; i < ARRAY_N(fr_long); i++) {
		if (fr_long[i].name[2] == w[2] && !strcmp(w, fr_long[i].name))
			return fr_long[i].opt;
	}
	return FO_NONE;
}

static bool proto(struct fr_rule *r, bool inv, const char *val)
{
	static const struct {
		const char	*name;
		uint8_t		proto;
		uint8_t		family;	/* 0: both */
	} protos[] = {
		{ "tcp", IPPROTO_TCP, 0 }, { "udp", IPPROTO_UDP, 0 },
		{ "icmp", IPPROTO_ICMP, NFPROTO_IPV4 },
		{ "ipv6-icmp", IPPROTO_ICMPV6, NFPROTO_IPV6 },
		{ "icmpv6", IPPROTO_ICMPV6, NFPROTO_IPV6 },
	};
	unsigned int i;

	if (r->proto_seen)
		return false;
	r->proto_seen = true;
	if (!inv && !strcmp(val, "all"))
		return true;	/* iptables-nft writes nothing for it */
	for (i = 0; i < ARRAY_N(protos); i++) {
		if (!strcmp(val, protos[i].name) &&
		    (!protos[i].family || protos[i].family == r->family)) {
			r->proto_set = true;
			r->proto_inv = inv;
			r->proto = protos[i].proto;
			return true;
		}
	}
	return false;
}

static struct fr_match *match_add(struct fr_rule *r, const char *name)
{
	int k = match_find(name);
	struct fr_match *m;

	if (k < 0 || r->nm == FR_MAX_MATCHES ||
	    (fr_matches[k].family && fr_matches[k].family != r->family))
		return NULL;
	m = &r->m[r->nm++];
	memset(m, 0, sizeof(*m));
	m->k = k;
	m->name = fr_matches[k].name;
	m->kind = fr_matches[k].xt_name ? FM_XT : FM_PORTS;
	m->xt_name = fr_matches[k].xt_name;
	m->rev = fr_matches[k].rev;
	r->xt |= m->kind == FM_XT;
	return m;
}

/*
 * An option no match took: -p's own match, loaded there as libxtables
 * loads it ("-p tcp --dport 22" without -m tcp); NULL when the protocol
 * has none here or it is loaded already, or when multiport is: its
 * --sports and --dports take --sport and --dport as abbreviations.
 */
static struct fr_match *match_implicit(struct fr_rule *r)
{
	unsigned int k, i;

	if (!r->proto_set || r->proto_inv)
		return NULL;
	for (k = 0; k < ARRAY_N(fr_matches); k++) {
		if (fr_matches[k].proto == r->proto &&
		    (!fr_matches[k].family || fr_matches[k].family == r->family))
			break;
	}
	if (k == ARRAY_N(fr_matches))
		return NULL;
	for (i = 0; i < r->nm; i++) {
		if (r->m[i].k == k || !strcmp(r->m[i].name, "multiport"))
			return NULL;
	}
	return match_add(r, fr_matches[k].name);
}

/* A rule option @o of value @val, inverted with @inv. */
static bool rule_opt(struct fr_rule *r, const struct xlate_fast_rule *fr,
		     enum fr_opt o, bool inv, const char *val)
{
	struct fr_addr *a;
	struct fr_iface *f;

	switch (o) {
	case FO_SRC:
	case FO_DST:
		a = o == FO_SRC ? &r->src : &r->dst;
		if (a->set || !addr(r, val, a))
			return false;
		a->set = true;
		a->inv = inv;
		return true;
	case FO_IN:
	case FO_OUT:
		f = o == FO_IN ? &r->in : &r->out;
		if (f->set || !iface(val, f))
			return false;
		f->set = true;
		f->inv = inv;
		return true;
	case FO_PROTO:
		return proto(r, inv, val);
	default:
		return false;
	}
}

/*
 * The whole rule, or false. The rule's options come first, then the
 * matches and their options, then the target and its options, each
 * option once; "!" goes right before the option it inverts.
 */
static bool parse(struct fr_rule *r, const struct xlate_fast_rule *fr)
{
	const char *const *w = fr->argv;
	struct fr_match *m = NULL;
	unsigned int i = 0, n = fr->argc, seen = 0;
	enum fr_opt o;
	bool inv, ok;

	while (i < n) {
		const char *opt = w[i], *val;

		inv = opt[0] == '!' && !opt[1];
		if (inv) {
			if (++i >= n)
				return false;
			opt = w[i];
		}
		if (++i >= n)
			return false;	/* every option takes a value */
		val = w[i++];
		if (r->target == FT_LOG) {
			ok = !inv && log_opt(r, opt, val, &seen);
		} else if (r->target == FT_REJECT) {
			ok = !inv && reject_opt(r, opt, val, &seen);
		} else if (r->target != FT_NONE) {
			ok = false;
		} else if ((o = opt_find(opt)) == FO_JUMP || o == FO_GOTO) {
			ok = !inv && target(r, fr, val, o == FO_GOTO);
		} else if (o == FO_MATCH) {
			ok = !inv && (m = match_add(r, val));
		} else if (o == FO_NONE) {
			/* the one option of two words */
			r->val2 = NULL;
			if (!strcmp(opt, "--tcp-flags") && i < n)
				r->val2 = w[i++];
			ok = m && fr_matches[m->k].opt(r, m, opt, inv, val);
			if (!ok && (m = match_implicit(r)))
				ok = fr_matches[m->k].opt(r, m, opt, inv, val);
		} else if (m) {
			ok = false;	/* the rule's options come first */
		} else {
			ok = rule_opt(r, fr, o, inv, val);
		}
		if (!ok)
			return false;
	}
	return true;
}

/* What parse() cannot see word by word: the rule as a whole. */
static bool rule_ok(const struct fr_rule *r, const struct xlate_fast_rule *fr)
{
	unsigned int i, j;

	/* iptables refuses -i on output hooks, -o on input ones */
	if (r->in.set && (!strcmp(fr->chain, "OUTPUT") ||
			  !strcmp(fr->chain, "POSTROUTING")))
		return false;
	if (r->out.set && (!strcmp(fr->chain, "INPUT") ||
			   !strcmp(fr->chain, "PREROUTING")))
		return false;
	for (i = 0; i < r->nm; i++) {
		const struct fr_match *m = &r->m[i];

		if (!match_proto_ok(r, m))
			return false;
		/* a match without its option, or given twice */
		if (m->kind == FM_XT ? !m->len :
		    !m->sport.set && !m->dport.set && !m->flags_set)
			return false;
		for (j = 0; j < i; j++) {
			if (!strcmp(r->m[j].name, m->name))
				return false;
		}
	}
	if (r->target == FT_REJECT && strcmp(fr->table, "filter"))
		return false;
	if (r->target == FT_REJECT &&
	    r->reject == (r->family == NFPROTO_IPV6 ? IP6T_TCP_RESET :
						      IPT_TCP_RESET) &&
	    !(r->proto_set && !r->proto_inv && r->proto == IPPROTO_TCP))
		return false;
	return true;
}

/*
 * Expressions, as libnftnl writes them
 */

/*
 * Attributes are written in place (nlw.h): a call into libmnl per
 * attribute was a fifth of the fast path.
 */
static struct nlattr *expr_start(struct nlmsghdr *nlh, const char *name)
{
	struct nlattr *elem = nlw_nest_start(nlh, NFTA_LIST_ELEM);

	nlw_put_strz(nlh, NFTA_EXPR_NAME, name);
	return elem;
}

static void put_payload(struct nlmsghdr *nlh, uint32_t base, uint32_t off,
			uint32_t len)
{
	struct nlattr *e = expr_start(nlh, "payload");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);

	nlw_put_u32(nlh, NFTA_PAYLOAD_DREG, htonl(NFT_REG_1));
	nlw_put_u32(nlh, NFTA_PAYLOAD_BASE, htonl(base));
	nlw_put_u32(nlh, NFTA_PAYLOAD_OFFSET, htonl(off));
	nlw_put_u32(nlh, NFTA_PAYLOAD_LEN, htonl(len));
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static void put_meta(struct nlmsghdr *nlh, uint32_t key)
{
	struct nlattr *e = expr_start(nlh, "meta");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);

	nlw_put_u32(nlh, NFTA_META_KEY, htonl(key));
	nlw_put_u32(nlh, NFTA_META_DREG, htonl(NFT_REG_1));
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static void put_cmp(struct nlmsghdr *nlh, uint32_t op, const void *p,
		    size_t len)
{
	struct nlattr *e = expr_start(nlh, "cmp");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);

	nlw_put_u32(nlh, NFTA_CMP_SREG, htonl(NFT_REG_1));
	nlw_put_u32(nlh, NFTA_CMP_OP, htonl(op));
	nlw_put_data(nlh, NFTA_CMP_DATA, p, len);
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static void put_bitwise(struct nlmsghdr *nlh, const void *mask,
			const void *xor, size_t len)
{
	struct nlattr *e = expr_start(nlh, "bitwise");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);

	nlw_put_u32(nlh, NFTA_BITWISE_SREG, htonl(NFT_REG_1));
	nlw_put_u32(nlh, NFTA_BITWISE_DREG, htonl(NFT_REG_1));
	nlw_put_u32(nlh, NFTA_BITWISE_OP, htonl(NFT_BITWISE_BOOL));
	nlw_put_u32(nlh, NFTA_BITWISE_LEN, htonl(len));
	nlw_put_data(nlh, NFTA_BITWISE_MASK, mask, len);
	nlw_put_data(nlh, NFTA_BITWISE_XOR, xor, len);
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static void put_range(struct nlmsghdr *nlh, uint32_t op, const void *from,
		      const void *to, size_t len)
{
	struct nlattr *e = expr_start(nlh, "range");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);

	nlw_put_u32(nlh, NFTA_RANGE_SREG, htonl(NFT_REG_1));
	nlw_put_u32(nlh, NFTA_RANGE_OP, htonl(op));
	nlw_put_data(nlh, NFTA_RANGE_FROM_DATA, from, len);
	nlw_put_data(nlh, NFTA_RANGE_TO_DATA, to, len);
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static void put_xt(struct nlmsghdr *nlh, bool tg, const char *name,
		   uint32_t rev, const void *info, size_t len)
{
	struct nlattr *e = expr_start(nlh, tg ? "target" : "match");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);

	/* NFTA_TARGET_* are numbered as NFTA_MATCH_* */
	nlw_put_strz(nlh, NFTA_MATCH_NAME, name);
	nlw_put_u32(nlh, NFTA_MATCH_REV, htonl(rev));
	/* the structure and zeroes up to its xtables alignment */
	nlw_put_padded(nlh, NFTA_MATCH_INFO, len, info, XT_ALIGN(len));
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static void put_counter(struct nlmsghdr *nlh)
{
	struct nlattr *e = expr_start(nlh, "counter");

	nlw_nest_end(nlh, nlw_nest_start(nlh, NFTA_EXPR_DATA));
	nlw_nest_end(nlh, e);
}

static void put_verdict(struct nlmsghdr *nlh, int32_t code, const char *chain)
{
	struct nlattr *e = expr_start(nlh, "immediate");
	struct nlattr *d = nlw_nest_start(nlh, NFTA_EXPR_DATA);
	struct nlattr *data, *v;

	nlw_put_u32(nlh, NFTA_IMMEDIATE_DREG, htonl(NFT_REG_VERDICT));
	data = nlw_nest_start(nlh, NFTA_IMMEDIATE_DATA);
	v = nlw_nest_start(nlh, NFTA_DATA_VERDICT);
	nlw_put_u32(nlh, NFTA_VERDICT_CODE, htonl(code));
	if (chain)
		nlw_put_strz(nlh, NFTA_VERDICT_CHAIN, chain);
	nlw_nest_end(nlh, v);
	nlw_nest_end(nlh, data);
	nlw_nest_end(nlh, d);
	nlw_nest_end(nlh, e);
}

static uint32_t cmp_op(bool inv)
{
	return inv ? NFT_CMP_NEQ : NFT_CMP_EQ;
}

/* A prefix: the whole bytes loaded, or the address and a mask. */
static void emit_addr(struct nlmsghdr *nlh, const struct fr_addr *a,
		      uint32_t off, unsigned int alen)
{
	uint8_t mask[16] = { 0 }, zero[16] = { 0 };
	unsigned int i;

	if (a->plen % 8 == 0) {
		put_payload(nlh, NFT_PAYLOAD_NETWORK_HEADER, off, a->plen / 8);
		put_cmp(nlh, cmp_op(a->inv), a->addr, a->plen / 8);
		return;
	}
	for (i = 0; i < a->plen; i++)
		mask[i / 8] |= 0x80 >> (i % 8);
	put_payload(nlh, NFT_PAYLOAD_NETWORK_HEADER, off, alen);
	put_bitwise(nlh, mask, zero, alen);
	put_cmp(nlh, cmp_op(a->inv), a->addr, alen);
}

static void emit_iface(struct nlmsghdr *nlh, const struct fr_iface *f,
		       uint32_t key)
{
	put_meta(nlh, key);
	put_cmp(nlh, cmp_op(f->inv), f->name, f->len);
}

/* One port or range at @off of the transport header. */
static void emit_port(struct nlmsghdr *nlh, const struct fr_port *p,
		      uint32_t off)
{
	uint16_t lo = htons(p->lo), hi = htons(p->hi);

	put_payload(nlh, NFT_PAYLOAD_TRANSPORT_HEADER, off, 2);
	if (p->lo == p->hi) {
		put_cmp(nlh, cmp_op(p->inv), &lo, 2);
	} else if (p->inv) {
		put_range(nlh, NFT_RANGE_NEQ, &lo, &hi, 2);
	} else {
		put_cmp(nlh, NFT_CMP_GTE, &lo, 2);
		put_cmp(nlh, NFT_CMP_LTE, &hi, 2);
	}
}

/* Source then destination; both single and not inverted: one load. */
static void emit_ports(struct nlmsghdr *nlh, const struct fr_match *m)
{
	uint32_t both;

	if (m->sport.set && m->dport.set && m->sport.lo == m->sport.hi &&
	    m->dport.lo == m->dport.hi && !m->sport.inv && !m->dport.inv) {
		both = htonl((uint32_t)m->sport.lo << 16 | m->dport.lo);
		put_payload(nlh, NFT_PAYLOAD_TRANSPORT_HEADER, 0, 4);
		put_cmp(nlh, NFT_CMP_EQ, &both, 4);
		return;
	}
	if (m->sport.set)
		emit_port(nlh, &m->sport, 0);
	if (m->dport.set)
		emit_port(nlh, &m->dport, 2);
}

/* "tcp flags & MASK == COMP" */
static void emit_flags(struct nlmsghdr *nlh, const struct fr_match *m)
{
	uint8_t zero = 0;

	put_payload(nlh, NFT_PAYLOAD_TRANSPORT_HEADER, 13, 1);
	put_bitwise(nlh, &m->flg_mask, &zero, 1);
	put_cmp(nlh, cmp_op(m->flags_inv), &m->flg_cmp, 1);
}

/*
 * -p: "meta l4proto" as iptables-nft (and as the evaluator's dependency
 * of a port match); without xt-compat expressions, a protocol no match
 * took stays the IPv4 header's field (xlate's proto_fold()).
 */
static void emit_proto(struct nlmsghdr *nlh, const struct fr_rule *r,
		       bool header)
{
	if (header)
		put_payload(nlh, NFT_PAYLOAD_NETWORK_HEADER, 9, 1);
	else
		put_meta(nlh, NFT_META_L4PROTO);
	put_cmp(nlh, cmp_op(r->proto_inv), &r->proto, 1);
}

/*
 * The IR path's order: interfaces, protocol, addresses, matches in
 * their order, counter, target. A port match of -p's protocol takes
 * the protocol's test along (xlate's proto_fold()): it goes right
 * before the ports, as the evaluator's dependency does.
 */
static void emit(struct nlmsghdr *nlh, const struct fr_rule *r,
		 const struct xlate_fast_rule *fr, bool no_xt)
{
	bool folded = false, v6 = r->family == NFPROTO_IPV6;
	struct nlattr *list, *compat;
	unsigned int i;

	/* rule_ok(): a port match is always of -p's protocol */
	for (i = 0; i < r->nm; i++)
		folded |= r->m[i].kind == FM_PORTS;

	nlw_put_strz(nlh, NFTA_RULE_TABLE, fr->table);
	nlw_put_strz(nlh, NFTA_RULE_CHAIN, fr->chain);
	list = nlw_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	if (r->in.set)
		emit_iface(nlh, &r->in, NFT_META_IIFNAME);
	if (r->out.set)
		emit_iface(nlh, &r->out, NFT_META_OIFNAME);
	if (r->proto_set && !folded)
		emit_proto(nlh, r, no_xt && !v6);
	if (r->src.set)
		emit_addr(nlh, &r->src, v6 ? 8 : 12, v6 ? 16 : 4);
	if (r->dst.set)
		emit_addr(nlh, &r->dst, v6 ? 24 : 16, v6 ? 16 : 4);
	for (i = 0; i < r->nm; i++) {
		const struct fr_match *m = &r->m[i];

		if (m->kind == FM_PORTS && folded)
			emit_proto(nlh, r, false);
		if (m->kind == FM_XT) {
			put_xt(nlh, false, m->xt_name, m->rev, &m->info,
			       m->len);
			continue;
		}
		emit_ports(nlh, m);
		if (m->flags_set)
			emit_flags(nlh, m);
	}
	put_counter(nlh);
	if (r->target == FT_VERDICT)
		put_verdict(nlh, r->verdict, r->chain);
	else if (r->target == FT_LOG)
		put_xt(nlh, true, "LOG", 0, &r->log, sizeof(r->log));
	else if (r->target == FT_REJECT)
		put_xt(nlh, true, "REJECT", 0, &r->reject,
		       sizeof(r->reject));
	nlw_nest_end(nlh, list);
	if (!r->xt || !r->proto_set)
		return;
	compat = nlw_nest_start(nlh, NFTA_RULE_COMPAT);
	nlw_put_u32(nlh, NFTA_RULE_COMPAT_PROTO, htonl(r->proto));
	nlw_put_u32(nlh, NFTA_RULE_COMPAT_FLAGS,
			 htonl(r->proto_inv ? NFT_RULE_COMPAT_F_INV : 0));
	nlw_nest_end(nlh, compat);
}

int shim_restore_fast(struct nftc_batch *batch, uint8_t family, bool no_xt,
		      const struct xlate_fast_rule *fr)
{
	struct nlmsghdr *nlh;
	struct fr_rule r;
	int ret;

	if (family != NFPROTO_IPV4 && family != NFPROTO_IPV6)
		return 0;
	memset(&r, 0, offsetof(struct fr_rule, m));
	r.family = family;
	if (!parse(&r, fr) || !rule_ok(&r, fr) || (no_xt && r.xt))
		return 0;
	/* the table's declarations first; a skipped table's rule goes */
	ret = fr->ready(fr);
	if (ret)
		return ret < 0 ? ret : 1;
	nlh = nftc_batch_msg_begin(batch, NFT_MSG_NEWRULE, fr->insert ?
				   NLM_F_CREATE : NLM_F_CREATE | NLM_F_APPEND,
				   family, fr->loc);
	if (!nlh)
		return -ENOMEM;
	emit(nlh, &r, fr, no_xt);
	ret = nftc_batch_msg_end(batch, nlh);
	return ret < 0 ? ret : 1;
}
