// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reverse map of matches: one row per (protocol header field | meta
 * key | ct key) the iptables model has, with the option it becomes.
 */
#define _GNU_SOURCE
#include <config.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "revmap_int.h"
#include "datatype.h"

/* How a field's value is printed on the iptables side. */
enum rv_how {
	RV_IFNAME,	/* "eth*" -> eth+ */
	RV_ADDR,	/* a.b.c.d -> a.b.c.d/32 */
	RV_PROTO_NAME,	/* tcp, ipv6-icmp */
	RV_PORT,	/* -m tcp --dport, sets -> -m multiport */
	RV_CTSTATE,	/* -m conntrack --ctstate NEW,... */
	RV_NUMERIC,	/* -m icmp --icmp-type 8 */
	RV_MARK,	/* -m mark --mark 0x1 */
	RV_UPPER,	/* -m addrtype --dst-type LOCAL */
	RV_FLAGS,	/* -m tcp --tcp-flags MASK SET */
	RV_FLAG,	/* -f: "ip frag-off & 8191 != 0" */
	RV_PLAIN,	/* -m NAME --OPT VALUE, as nft prints it */
	RV_CTSTATUS,	/* -m conntrack --ctstatus, --ctstate SNAT,DNAT */
	RV_MAC,		/* -m mac --mac-source 58:94:6b:... */
	RV_ETHER_DEP,	/* meta iiftype ether: the dependency of -m mac */
	RV_POLICY,	/* -m policy --dir DIR --pol ipsec|none */
	RV_CTPROTO,	/* -m conntrack --ctproto 6 */
	RV_CTPORT,	/* -m conntrack --ctorigdstport 53:60 */
	RV_CTEXPIRE,	/* -m conntrack --ctexpire 10:20 */
};

/**
 * struct rv_field_map - one IR selector and its iptables option
 * @sel: the selector as nftc's printer writes it ("ip saddr")
 * @ip: field of the ip part, or __RV_IP_MAX for a match
 * @match: "-m NAME" of a match; @opt: its option (no dashes)
 * @multi: multiport's option for a set of values (addrtype: the
 *         interface option)
 *
 * Rules are read in the printer's source form, so lowered shapes
 * (prefixes as short loads, flag tests, merged adjacent loads) come back
 * as the selectors written here.
 */
struct rv_field_map {
	const char		*sel;
	enum rv_ip_field	ip;
	enum rv_how		how;
	const char		*match;
	const char		*opt;
	const char		*multi;
};

static const struct rv_field_map rv_fields[] = {
	{ "iifname", RV_IIF, RV_IFNAME },
	{ "oifname", RV_OIF, RV_IFNAME },
	{ "meta l4proto", RV_PROTO, RV_PROTO_NAME },
	{ "ip protocol", RV_PROTO, RV_PROTO_NAME },
	{ "ip6 nexthdr", RV_PROTO, RV_PROTO_NAME },
	{ "meta mark", __RV_IP_MAX, RV_MARK, "mark", "mark" },
	{ "ct mark", __RV_IP_MAX, RV_MARK, "connmark", "mark" },
	/* -m state and -m conntrack --ctstate are one VM code; the
	 * corpus of real rulesets uses state in more files */
	{ "ct state", __RV_IP_MAX, RV_CTSTATE, "state", "state" },
	{ "fib daddr type", __RV_IP_MAX, RV_UPPER, "addrtype", "dst-type" },
	{ "fib saddr type", __RV_IP_MAX, RV_UPPER, "addrtype", "src-type" },
	{ "fib daddr . iif type", __RV_IP_MAX, RV_UPPER, "addrtype",
	  "dst-type", "limit-iface-in" },
	{ "fib saddr . iif type", __RV_IP_MAX, RV_UPPER, "addrtype",
	  "src-type", "limit-iface-in" },
	{ "fib daddr . oif type", __RV_IP_MAX, RV_UPPER, "addrtype",
	  "dst-type", "limit-iface-out" },
	{ "fib saddr . oif type", __RV_IP_MAX, RV_UPPER, "addrtype",
	  "src-type", "limit-iface-out" },
	{ "ip saddr", RV_SRC, RV_ADDR },
	{ "ip daddr", RV_DST, RV_ADDR },
	{ "ip6 saddr", RV_SRC, RV_ADDR },
	{ "ip6 daddr", RV_DST, RV_ADDR },
	{ "tcp sport", __RV_IP_MAX, RV_PORT, "tcp", "sport", "sports" },
	{ "tcp dport", __RV_IP_MAX, RV_PORT, "tcp", "dport", "dports" },
	{ "udp sport", __RV_IP_MAX, RV_PORT, "udp", "sport", "sports" },
	{ "udp dport", __RV_IP_MAX, RV_PORT, "udp", "dport", "dports" },
	{ "sctp sport", __RV_IP_MAX, RV_PORT, "sctp", "sport", "sports" },
	{ "sctp dport", __RV_IP_MAX, RV_PORT, "sctp", "dport", "dports" },
	{ "tcp flags", __RV_IP_MAX, RV_FLAGS, "tcp", "tcp-flags" },
	{ "ip frag-off & 8191", RV_FRAG, RV_FLAG },
	{ "ip ttl", __RV_IP_MAX, RV_PLAIN, "ttl", "ttl-eq" },
	{ "ip6 hoplimit", __RV_IP_MAX, RV_PLAIN, "hl", "hl-eq" },
	{ "meta skuid", __RV_IP_MAX, RV_PLAIN, "owner", "uid-owner" },
	{ "meta skgid", __RV_IP_MAX, RV_PLAIN, "owner", "gid-owner" },
	{ "meta pkttype", __RV_IP_MAX, RV_PLAIN, "pkttype", "pkt-type" },
	{ "rt type", __RV_IP_MAX, RV_PLAIN, "rt", "rt-type" },
	{ "ct status", __RV_IP_MAX, RV_CTSTATUS, "conntrack", "ctstatus" },
	/* -m conntrack's other options, as xlate writes them (in
	 * libxt_conntrack's order, so they join one match); addresses as
	 * libxt_conntrack prints them: no /32 or /128 */
	{ "ct protocol", __RV_IP_MAX, RV_CTPROTO, "conntrack", "ctproto" },
	{ "ct original ip saddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctorigsrc" },
	{ "ct original ip daddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctorigdst" },
	{ "ct reply ip saddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctreplsrc" },
	{ "ct reply ip daddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctrepldst" },
	{ "ct original ip6 saddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctorigsrc" },
	{ "ct original ip6 daddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctorigdst" },
	{ "ct reply ip6 saddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctreplsrc" },
	{ "ct reply ip6 daddr", __RV_IP_MAX, RV_PLAIN, "conntrack",
	  "ctrepldst" },
	{ "ct original proto-src", __RV_IP_MAX, RV_CTPORT, "conntrack",
	  "ctorigsrcport" },
	{ "ct original proto-dst", __RV_IP_MAX, RV_CTPORT, "conntrack",
	  "ctorigdstport" },
	{ "ct reply proto-src", __RV_IP_MAX, RV_CTPORT, "conntrack",
	  "ctreplsrcport" },
	{ "ct reply proto-dst", __RV_IP_MAX, RV_CTPORT, "conntrack",
	  "ctrepldstport" },
	{ "ct expiration", __RV_IP_MAX, RV_CTEXPIRE, "conntrack",
	  "ctexpire" },
	{ "ct direction", __RV_IP_MAX, RV_UPPER, "conntrack", "ctdir" },
	{ "meta iiftype", __RV_IP_MAX, RV_ETHER_DEP },
	{ "ether saddr", __RV_IP_MAX, RV_MAC, "mac", "mac-source" },
	{ "icmp type", __RV_IP_MAX, RV_NUMERIC, "icmp", "icmp-type" },
	{ "icmpv6 type", __RV_IP_MAX, RV_NUMERIC, "icmp6", "icmpv6-type" },
	/* xlate's -m policy: the packet's secpath on the way in, the
	 * route's xfrm state on the way out (@opt: the direction) */
	{ "meta ipsec", __RV_IP_MAX, RV_POLICY, "policy", "in" },
	{ "rt ipsec", __RV_IP_MAX, RV_POLICY, "policy", "out" },
};

/* ct state bits in the order iptables prints them. */
static const char *const rv_ctstates[] = {
	"invalid", "new", "related", "established", "untracked",
};

#define RV_NFIELDS	(sizeof(rv_fields) / sizeof(rv_fields[0]))

/* The selector starting at @p (followed by a blank), or NULL. */
static const struct rv_field_map *rv_field_at(const char *p)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < RV_NFIELDS; i++) {
		if (*p != rv_fields[i].sel[0])	/* most differ right away */
			continue;
		n = strlen(rv_fields[i].sel);
		if (!strncmp(p, rv_fields[i].sel, n) && p[n] == ' ')
			return &rv_fields[i];
	}
	return NULL;
}

/* End of the value starting at @p: the next selector, or the end. */
static const char *rv_value_end(const char *p)
{
	bool quoted = false;

	for (; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && *p == ' ' && rv_field_at(p + 1))
			return p;
	}
	return p;
}

/* Drop the quotes nft prints around strings. */
static char *rv_unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
	return s;
}

/* "{ 53, 67-69 }" -> "53,67:69"; "1-2" -> "1:2". */
static char *rv_port_list(const char *s, bool *multi)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	*multi = false;
	for (; *s; s++) {
		if (*s == '{' || *s == '}' || *s == ' ')
			continue;
		if (*s == ',')
			*multi = true;
		*o++ = *s == '-' ? ':' : *s;
	}
	*o = '\0';
	return out;
}

/* The states, pending in rv_ctx.ctstate (rv_ctstate_flush() prints). */
static bool rv_ctstate(struct rv_ctx *c, const char *text, bool inv)
{
	char *buf = NULL;
	size_t len = 0, k;
	unsigned int i;
	bool first = true;
	FILE *f;

	rv_match_open(c, NULL);	/* what came before, printed */
	f = open_memstream(&buf, &len);
	if (!f)
		return false;
	for (i = 0; i < sizeof(rv_ctstates) / sizeof(rv_ctstates[0]); i++) {
		if (!strstr(text, rv_ctstates[i]))
			continue;
		if (!first)
			fputc(',', f);
		for (k = 0; rv_ctstates[i][k]; k++)
			fputc(toupper((unsigned char)rv_ctstates[i][k]), f);
		first = false;
	}
	if (fclose(f) || first) {
		free(buf);
		return false;
	}
	c->ctstate = buf;
	c->ctstate_inv = inv;
	return true;
}

/* "tcp" -> 6: the printer's protocol names, numbered as libxt_conntrack
 * prints --ctproto */
static char *rv_proto_number(char *text)
{
	unsigned int n;
	const char *name;
	char *p = NULL;

	for (n = 0; n <= 255; n++) {
		name = nftc_protocol_name(n);
		if (name && !strcmp(name, text))
			break;
	}
	if (n <= 255 && asprintf(&p, "%u", n) < 0)
		p = NULL;
	if (n > 255 && strspn(text, "0123456789") == strlen(text))
		return text;	/* printed as a number already */
	free(text);
	return p;
}

/*
 * ct status: the NAT bits are conntrack's virtual states SNAT and DNAT
 * (xt_conntrack has no such status name), the others its status names
 * (SEEN_REPLY with an underscore). A mix has no single option.
 */
static bool rv_ctstatus(struct rv_ctx *c, const char *text, bool inv,
			const struct rv_field_map *m)
{
	static const char *const nat[] = { "snat", "dnat" };
	unsigned int i, nnat = 0, nwords = 1;
	const char *p;

	for (p = text; *p; p++)
		nwords += *p == ',';
	for (i = 0; i < 2; i++) {
		p = strstr(text, nat[i]);
		nnat += p && (p == text || p[-1] == ',') &&
			(!p[4] || p[4] == ',');
	}
	if (nnat && nnat != nwords)
		return false;
	if (nnat)	/* a --ctstate of its own */
		rv_ctstate_flush(c, false);
	rv_match_open(c, m->match);
	fprintf(c->m, " %s--%s ", rv_neg(inv), nnat ? "ctstate" : m->opt);
	for (p = text; *p; p++)
		fputc(*p == '-' ? '_' : toupper((unsigned char)*p), c->m);
	return true;
}

/* Option @slot of the open tcp/udp match: " [! ]--OPT VALUE" (takes @val). */
static bool rv_l4_set(struct rv_ctx *c, unsigned int slot, bool inv,
		      const char *opt, char *val)
{
	const char *neg = rv_neg(inv);
	size_t ln = strlen(neg), lo = strlen(opt), lv = strlen(val);
	char *s, *p;

	/* put together by hand: asprintf cost 1,300 */
	if (c->l4opt[slot] || !(s = malloc(ln + lo + lv + 5))) {
		free(val);
		return false;
	}
	p = s;
	*p++ = ' ';
	memcpy(p, neg, ln);
	p += ln;
	memcpy(p, "--", 2);
	p += 2;
	memcpy(p, opt, lo);
	p += lo;
	*p++ = ' ';
	memcpy(p, val, lv + 1);
	free(val);
	c->l4opt[slot] = s;
	return true;
}

static void rv_upper(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		fputc(toupper((unsigned char)s[i]), f);
}

/* "syn / fin,syn,rst,ack" (SET / MASK) -> --tcp-flags MASK SET */
static bool rv_tcp_flags(struct rv_ctx *c, const struct rv_field_map *m,
			 char *text, bool inv)
{
	char *slash = strstr(text, " / ");

	if (!slash) {
		free(text);
		return false;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	rv_match_open(c, m->match);
	f = open_memstream(&buf, &len);
	if (!f) {
		free(text);
		return false;
	}
	rv_upper(f, slash + 3, strlen(slash + 3));
	fputc(' ', f);
	rv_upper(f, text, slash - text);
	fclose(f);
	free(text);
	return rv_l4_set(c, 2, inv, m->opt, buf);
}

/*
 * -m mark / -m connmark --mark V[/M]: "K V", "K != V", "K & M == V",
 * "K & M != V" (the printer's forms of xlate's masked compare); the
 * mask printed as libxt_mark does, only when it is not all ones.
 */
static bool rv_mark(struct rv_ctx *c, const struct rv_field_map *m,
		    const char *text, bool inv)
{
	unsigned long v, mask = 0xffffffffUL;
	char *e;

	if (!strncmp(text, "& ", 2)) {
		mask = strtoul(text + 2, &e, 0);
		if (e == text + 2 || (strncmp(e, " == ", 4) &&
				      strncmp(e, " != ", 4)))
			return false;
		inv = e[1] == '!';
		text = e + 4;
	}
	v = strtoul(text, &e, 0);
	if (e == text || *e || v > 0xffffffffUL || mask > 0xffffffffUL)
		return false;
	rv_match_open(c, m->match);
	fprintf(c->m, " %s--%s 0x%lx", rv_neg(inv), m->opt, v);
	if (mask != 0xffffffffUL)
		fprintf(c->m, "/0x%lx", mask);
	return true;
}

/* nft's time ("1h2m3s", "10s", "1d") in seconds; false if not whole. */
static bool rv_seconds(const char *s, const char *end, unsigned long *out)
{
	static const struct {
		char		unit;
		unsigned long	seconds;
	} units[] = { { 'd', 86400 }, { 'h', 3600 }, { 'm', 60 }, { 's', 1 } };
	unsigned long n, total = 0;
	unsigned int i;
	char *e;

	if (s == end)
		return false;
	while (s < end) {
		n = strtoul(s, &e, 10);
		if (e == s || e >= end)
			return false;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (*e == units[i].unit)
				break;
		}
		/* "ms": not a whole second */
		if (i == sizeof(units) / sizeof(units[0]) ||
		    (e + 1 < end && e[1] == 's' && *e == 'm'))
			return false;
		total += n * units[i].seconds;
		s = e + 1;
	}
	*out = total;
	return true;
}

/* "ct expiration 10s-20s" -> --ctexpire 10:20 ("10s": --ctexpire 10) */
static bool rv_ctexpire(struct rv_ctx *c, const struct rv_field_map *m,
			const char *text, bool inv)
{
	const char *dash = strchr(text, '-');
	unsigned long lo, hi;

	if (!rv_seconds(text, dash ? dash : text + strlen(text), &lo) ||
	    (dash && !rv_seconds(dash + 1, dash + 1 + strlen(dash + 1), &hi)))
		return false;
	rv_match_open(c, m->match);
	fprintf(c->m, " %s--%s %lu", rv_neg(inv), m->opt, lo);
	if (dash)
		fprintf(c->m, ":%lu", hi);
	return true;
}

static bool rv_value(struct rv_ctx *c, const struct rv_field_map *m,
		     char *text, bool inv)
{
	bool multi = false;
	char *p;

	switch (m->how) {
	case RV_IFNAME:
		rv_unquote(text);
		if (*text && text[strlen(text) - 1] == '*')
			text[strlen(text) - 1] = '+';
		return rv_ip_set(c, m->ip, text, inv);
	case RV_ADDR:
		if (strchr(text, '-')) {	/* a range: -m iprange */
			rv_match_open(c, "iprange");
			fprintf(c->m, " %s--%s-range %s", rv_neg(inv), m->ip == RV_SRC ? "src" : "dst",
				text);
			free(text);
			return true;
		}
		if (!strchr(text, '/')) {	/* asprintf cost 1,300 */
			const char *plen = c->family == NFPROTO_IPV6 ?
					   "/128" : "/32";
			size_t n = strlen(text);

			p = realloc(text, n + strlen(plen) + 1);
			if (!p)
				free(text);
			else
				strcpy(p + n, plen);
			text = p;
		}
		return rv_ip_set(c, m->ip, text, inv);
	case RV_PROTO_NAME:
		if (!strcmp(text, "icmpv6")) {
			free(text);
			text = strdup("ipv6-icmp");
		}
		if (c->ip[RV_PROTO] && text && !strcmp(c->ip[RV_PROTO], text)) {
			free(text);	/* the dependency of a port match */
			return true;
		}
		return rv_ip_set(c, m->ip, text, inv);
	case RV_PORT:
		if (strchr(text, '.')) {	/* a concatenation */
			free(text);
			return false;
		}
		if (!strncmp(text, "<= ", 3) || !strncmp(text, ">= ", 3)) {
			/* a range from 0 or to 65535, as a bound */
			p = NULL;
			if (asprintf(&p, text[0] == '<' ? "0-%s" : "%s-65535",
				     text + 3) < 0)
				p = NULL;
			free(text);
			text = p;
			if (!text)
				return false;
		}
		p = rv_port_list(text, &multi);
		free(text);
		if (!p)
			return false;
		/* one multiport match holds --sports or --dports, not both:
		 * a second one is opened as stock iptables-save prints it */
		if (multi && c->last_match &&
		    !strcmp(c->last_match, "multiport"))
			c->last_match = NULL;
		rv_match_open(c, multi ? "multiport" : m->match);
		if (multi) {
			fprintf(c->m, " %s--%s %s", rv_neg(inv), m->multi, p);
			free(p);
			return true;
		}
		return rv_l4_set(c, strcmp(m->opt, "sport") ? 1 : 0, inv,
				 m->opt, p);
	case RV_CTSTATE:
		multi = rv_ctstate(c, text, inv);
		free(text);
		return multi;
	case RV_CTPROTO:
		text = rv_proto_number(text);
		if (!text)
			return false;
		rv_match_open(c, m->match);
		fprintf(c->m, " %s--%s %s", rv_neg(inv), m->opt, text);
		free(text);
		return true;
	case RV_CTPORT:	/* "53-60" -> 53:60; a set has no form */
		if (strpbrk(text, "{,")) {
			free(text);
			return false;
		}
		for (p = text; *p; p++)
			*p = *p == '-' ? ':' : *p;
		rv_match_open(c, m->match);
		fprintf(c->m, " %s--%s %s", rv_neg(inv), m->opt, text);
		free(text);
		return true;
	case RV_UPPER:
		rv_match_open(c, m->match);
		fprintf(c->m, " %s--%s ", rv_neg(inv), m->opt);
		for (p = text; *p; p++)
			fputc(*p == ',' ? ',' : toupper((unsigned char)*p),
			      c->m);
		if (m->multi)
			fprintf(c->m, " --%s", m->multi);
		free(text);
		return true;
	case RV_MARK:
		multi = rv_mark(c, m, text, inv);
		free(text);
		return multi;
	case RV_CTEXPIRE:
		multi = rv_ctexpire(c, m, text, inv);
		free(text);
		return multi;
	case RV_NUMERIC:
	case RV_PLAIN:
		rv_match_open(c, m->match);
		fprintf(c->m, " %s--%s %s", rv_neg(inv), m->opt, text);
		free(text);
		return true;
	case RV_FLAGS:
		return rv_tcp_flags(c, m, text, inv);
	case RV_CTSTATUS:
		multi = rv_ctstatus(c, text, inv, m);
		free(text);
		return multi;
	case RV_ETHER_DEP:	/* only with -m mac (rv_ctx.ether_dep) */
		multi = !inv && !strcmp(text, "ether");
		c->ether_dep = multi;
		free(text);
		return multi;
	case RV_MAC:
		c->ether_dep = false;
		rv_match_open(c, m->match);
		/* libxt_mac prints it as nft does: lower-case hex */
		fprintf(c->m, " %s--%s %s", rv_neg(inv), m->opt, text);
		free(text);
		return true;
	case RV_POLICY:	/* "exists" is --pol ipsec, "missing" --pol none */
		multi = !inv && (!strcmp(text, "exists") ||
				 !strcmp(text, "missing"));
		if (multi) {
			rv_match_open(c, m->match);
			fprintf(c->m, " --dir %s --pol %s", m->opt,
				text[0] == 'e' ? "ipsec" : "none");
		}
		free(text);
		return multi;
	case RV_FLAG:	/* "& 8191 != 0" is -f, "== 0" is ! -f */
		free(text);
		return rv_ip_set(c, m->ip, strdup(""), !inv);
	}
	free(text);
	return false;
}

/*
 * -m multiport --ports P,...: "tcp sport . tcp dport { 0-65535 . P,
 * P . 0-65535, ... }" (xlate's form: either port). The length of what
 * was read at @p, 0 if it is not that.
 */
static const char *const rv_ports_l4[] = { "tcp", "udp", "sctp" };
static const char *const rv_ports_sel[] = {
	"tcp sport . tcp dport ", "udp sport . udp dport ",
	"sctp sport . sctp dport ",
};

static size_t rv_ports(struct rv_ctx *c, const char *p)
{
	char *body = NULL, *el, *save = NULL, *a, *b;
	const char *start = p, *close;
	char *any = NULL, *rev = NULL;
	unsigned int i, nany = 0, nrev = 0;
	size_t n = 0, la = 0, lr = 0;
	FILE *fa = NULL, *fr = NULL;
	bool inv = false;

	/* every statement is tried: the common ones fail at a letter */
	if (!strstr(p, " sport . "))
		return 0;
	for (i = 0; i < sizeof(rv_ports_l4) / sizeof(rv_ports_l4[0]); i++) {
		if (!strncmp(p, rv_ports_sel[i], strlen(rv_ports_sel[i])))
			break;
	}
	if (i == sizeof(rv_ports_l4) / sizeof(rv_ports_l4[0]))
		return 0;
	p += strlen(rv_ports_sel[i]);
	if (!strncmp(p, "!= ", 3)) {
		inv = true;
		p += 3;
	}
	if (*p != '{' || !(close = strchr(p, '}')) ||
	    !(body = strndup(p + 1, close - p - 1)) ||
	    !(fa = open_memstream(&any, &la)) ||
	    !(fr = open_memstream(&rev, &lr)))
		goto out;
	/* "0-65535 . P" gives P in the order read; "P . 0-65535" too */
	for (el = strtok_r(body, ",", &save); el;
	     el = strtok_r(NULL, ",", &save)) {
		a = el + strspn(el, " ");
		b = strstr(a, " . ");
		if (!b)
			goto out;
		*b = '\0';
		b += 3;
		b[strcspn(b, " ")] = '\0';
		if (!strcmp(a, "0-65535") && strcmp(b, "0-65535"))
			fprintf(fa, "%s%s", nany++ ? "," : "", b);
		else if (!strcmp(b, "0-65535") && strcmp(a, "0-65535"))
			fprintf(fr, "%s%s", nrev++ ? "," : "", a);
		else
			goto out;
	}
	fclose(fa);
	fclose(fr);
	fa = fr = NULL;
	if (!nany || strcmp(any, rev))
		goto out;
	for (a = any; *a; a++)
		*a = *a == '-' ? ':' : *a;
	if (!c->ip[RV_PROTO])
		c->ip[RV_PROTO] = strdup(rv_ports_l4[i]);
	c->last_match = NULL;	/* a multiport of its own */
	rv_match_open(c, "multiport");
	fprintf(c->m, " %s--ports %s", rv_neg(inv), any);
	n = close + 1 - start;
out:
	if (fa)
		fclose(fa);
	if (fr)
		fclose(fr);
	free(any);
	free(rev);
	free(body);
	return n;
}

bool rv_match(struct rv_ctx *c, const char *text)
{
	const struct rv_field_map *m;
	const char *p = text, *end;
	size_t n;
	bool inv;

	while (*p) {
		n = rv_ports(c, p);
		if (n) {
			p += n;
			p += *p == ' ';
			continue;
		}
		m = rv_field_at(p);
		if (!m)
			return false;
		p += strlen(m->sel) + 1;
		inv = false;
		if (!strncmp(p, "!= ", 3) || !strncmp(p, "! ", 2)) {
			inv = true;
			p += p[1] == '=' ? 3 : 2;
		}
		end = rv_value_end(p);
		if (*p == '.' || *p == '@' || *p == '|' ||
		    (*p == '&' && m->how != RV_MARK))
			return false;	/* concatenation, set, bit ops */
		/* a port match's protocol dependency comes before it */
		if (m->how == RV_PORT && !c->ip[RV_PROTO])
			c->ip[RV_PROTO] = strdup(m->match);
		if (!rv_value(c, m, strndup(p, end - p), inv))
			return false;
		p = *end ? end + 1 : end;
	}
	return true;
}
