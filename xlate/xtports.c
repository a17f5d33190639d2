// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The port options of the tcp and udp matches (and tcp's --tcp-flags,
 * at the end) without libxtables: a
 * plain decimal port or range is stored exactly as libxt_tcp/libxt_udp
 * would store it. libxt_udp resolves every port with getaddrinfo()
 * (a service lookup, then an address sort that opens sockets), which
 * was a third of the time of translating a large file.
 *
 * Only what is certain to parse the same is taken: 0..65535 written
 * in decimal without leading zeros (libxt_tcp reads "010" as octal and
 * "0x16" as hex, libxt_udp both as names), in the forms "a", "a:b",
 * ":b" and "a:" with a <= b, an option not given before, on the layout
 * of struct xt_tcp/xt_udp this file knows. Anything else, errors
 * included, is left to libxtables, so its messages stay its own.
 *
 * --tcp-flags MASK COMP: each a comma-separated list of the flag names
 * libxt_tcp knows (any case, no empty name), COMP a word that does not
 * start with '-' or '!', no --syn or --tcp-flags before.
 * testcases/unit/check_xlate.c compares the bytes both produce.
 */
#include <config.h>
#include <getopt.h>
#include <stddef.h>
#include <string.h>
#include <xtables.h>
#include <linux/netfilter/xt_tcpudp.h>
#include "xlate_int.h"

/* libxt_tcp's option ids and its flags of options seen (old API) */
#define TCP_OPT_SPORT	'1'
#define TCP_OPT_DPORT	'2'
#define TCP_SRC_PORTS	0x01
#define TCP_DST_PORTS	0x02

/* libxt_udp's option ids (x6 API) */
#define UDP_O_SOURCE_PORT	0
#define UDP_O_DEST_PORT		1

/* [s, e): decimal 0..65535, no sign, no space, no leading zero */
static bool port_num(const char *s, const char *e, uint16_t *port)
{
	unsigned int v = 0;

	if (s == e || e - s > 5 || (*s == '0' && e - s > 1))
		return false;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
	}
	if (v > 65535)
		return false;
	*port = v;
	return true;
}

/* "a", "a:b", ":b", "a:" into ports[2]; false for anything else */
static bool port_range(const char *arg, uint16_t ports[2])
{
	const char *colon = strchr(arg, ':'), *end;

	if (!colon) {
		if (!port_num(arg, arg + strlen(arg), &ports[0]))
			return false;
		ports[1] = ports[0];
		return true;
	}
	end = colon + 1 + strlen(colon + 1);
	if (colon == arg && end == colon + 1)
		return false;			/* ":" alone */
	if (strchr(colon + 1, ':'))
		return false;
	if (colon == arg)
		ports[0] = 0;
	else if (!port_num(arg, colon, &ports[0]))
		return false;
	if (end == colon + 1)
		ports[1] = 65535;
	else if (!port_num(colon + 1, end, &ports[1]))
		return false;
	return ports[0] <= ports[1];
}

static bool tcp_option_is(const struct xtables_match *m, unsigned int id,
			  const char *name)
{
	const struct option *o;

	for (o = m->extra_opts; o && o->name; o++)
		if ((unsigned int)o->val == id && !strcmp(o->name, name))
			return true;
	return false;
}

/* libxt_tcp: tcp_parse() cases '1' and '2' */
static int tcp_port(struct xtables_match *m, unsigned int id,
		    const char *arg, bool invert)
{
	struct xt_tcp *tcp = (struct xt_tcp *)m->m->data;
	unsigned int flag;
	uint16_t ports[2], *dst;
	uint8_t inv;

	if (m->x6_parse || !m->parse ||
	    m->size != XT_ALIGN(sizeof(struct xt_tcp)))
		return 0;
	if (id == TCP_OPT_SPORT && tcp_option_is(m, id, "source-port")) {
		flag = TCP_SRC_PORTS;
		dst = tcp->spts;
		inv = XT_TCP_INV_SRCPT;
	} else if (id == TCP_OPT_DPORT &&
		   tcp_option_is(m, id, "destination-port")) {
		flag = TCP_DST_PORTS;
		dst = tcp->dpts;
		inv = XT_TCP_INV_DSTPT;
	} else {
		return 0;
	}
	if (m->mflags & flag)		/* "Only one `--source-port' allowed" */
		return 0;
	if (!port_range(arg, ports))
		return 0;
	dst[0] = ports[0];
	dst[1] = ports[1];
	if (invert)
		tcp->invflags |= inv;
	m->mflags |= flag;
	return 1;
}

static const struct xt_option_entry *x6_entry(const struct xtables_match *m,
					      unsigned int id)
{
	const struct xt_option_entry *o;

	for (o = m->x6_options; o && o->name; o++)
		if (o->id == id)
			return o;
	return NULL;
}

/*
 * libxt_udp: xtables_option_parse() of an XTTYPE_PORTRC option with
 * XTOPT_PUT, then udp_parse()'s inversion flag.
 */
static int udp_port(struct xtables_match *m, unsigned int id,
		    const char *arg, bool invert)
{
	struct xt_udp *udp = (struct xt_udp *)m->m->data;
	const struct xt_option_entry *o;
	unsigned int eflag = 1U << id;
	uint16_t ports[2];
	size_t off;
	uint8_t inv;

	if (!m->x6_parse || m->size != XT_ALIGN(sizeof(struct xt_udp)))
		return 0;
	if (id == UDP_O_SOURCE_PORT) {
		off = offsetof(struct xt_udp, spts);
		inv = XT_UDP_INV_SRCPT;
	} else if (id == UDP_O_DEST_PORT) {
		off = offsetof(struct xt_udp, dpts);
		inv = XT_UDP_INV_DSTPT;
	} else {
		return 0;
	}
	o = x6_entry(m, id);
	if (!o || o->type != XTTYPE_PORTRC || o->ptroff != off ||
	    o->size != sizeof(ports) || !(o->flags & XTOPT_PUT) ||
	    (o->flags & XTOPT_NBO))
		return 0;
	/* xtables_option_parse()'s checks: let it report them */
	if ((!(o->flags & XTOPT_MULTI) || (o->excl & eflag)) &&
	    (m->mflags & eflag))
		return 0;
	if (invert && !(o->flags & XTOPT_INVERT))
		return 0;
	if (!port_range(arg, ports))
		return 0;
	memcpy((char *)udp + off, ports, sizeof(ports));
	if (invert)
		udp->invflags |= inv;
	m->mflags |= eflag;
	return 1;
}

int xl_xtports_parse(struct xl_ext *ext, unsigned int id, const char *arg,
		     bool invert)
{
	struct xtables_match *m = ext->match;

	if (!m || !m->m || !arg || m->revision != 0 || m->real_name)
		return 0;
	if (!strcmp(m->name, "tcp"))
		return tcp_port(m, id, arg, invert);
	if (!strcmp(m->name, "udp"))
		return udp_port(m, id, arg, invert);
	return 0;
}

/* libxt_tcp's flag names (compared without case) and its TCP_FLAGS */
#define TCP_FLAGS_SEEN	0x04
/* a name of up to 4 letters as one number, its characters in order */
#define FLAG_KEY(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))
static const struct {
	uint32_t	key;
	uint8_t		flag;
} tcp_flag_names[] = {
	{ FLAG_KEY(0, 'F', 'I', 'N'), 0x01 },
	{ FLAG_KEY(0, 'S', 'Y', 'N'), 0x02 },
	{ FLAG_KEY(0, 'R', 'S', 'T'), 0x04 },
	{ FLAG_KEY(0, 'P', 'S', 'H'), 0x08 },
	{ FLAG_KEY(0, 'A', 'C', 'K'), 0x10 },
	{ FLAG_KEY(0, 'U', 'R', 'G'), 0x20 },
	{ FLAG_KEY(0, 'A', 'L', 'L'), 0x3f },
	{ FLAG_KEY('N', 'O', 'N', 'E'), 0 },
};

/* "NAME[,NAME]...": no empty name, each one of the table */
bool xlate_tcp_flag_list(const char *s, uint8_t *flags)
{
	unsigned int i, n;
	uint32_t key;

	*flags = 0;
	for (;;) {
		/* the name upper-cased (ASCII letters only), at most 4 */
		for (n = 0, key = 0; s[n] && s[n] != ','; n++) {
			if (n == 4)
				return false;
			key = key << 8 | (uint8_t)(s[n] >= 'a' && s[n] <= 'z' ?
						   s[n] - 32 : s[n]);
		}
		for (i = 0; i < sizeof(tcp_flag_names) /
				sizeof(tcp_flag_names[0]); i++)
			if (n && tcp_flag_names[i].key == key)
				break;
		if (i == sizeof(tcp_flag_names) / sizeof(tcp_flag_names[0]))
			return false;
		*flags |= tcp_flag_names[i].flag;
		if (!s[n])
			return true;
		s += n + 1;
	}
}

int xl_xttcpflags_parse(struct xl_ext *ext, unsigned int id, const char *arg,
			bool invert, char **argv, int *optind_p)
{
	struct xtables_match *m = ext->match;
	const char *cmp;
	struct xt_tcp *tcp;
	uint8_t fmask, fcmp;

	if (!m || !m->m || !arg || !argv || m->revision != 0 ||
	    m->real_name || m->name[0] != 't' || strcmp(m->name, "tcp") ||
	    m->x6_parse || !m->parse ||
	    m->size != XT_ALIGN(sizeof(struct xt_tcp)) ||
	    !tcp_option_is(m, id, "tcp-flags"))
		return 0;
	/* "Only one of `--syn' or `--tcp-flags' allowed" */
	if (m->mflags & TCP_FLAGS_SEEN)
		return 0;
	cmp = argv[*optind_p];
	if (!cmp || cmp[0] == '-' || cmp[0] == '!')
		return 0;		/* "--tcp-flags requires two args." */
	if (!xlate_tcp_flag_list(arg, &fmask) ||
	    !xlate_tcp_flag_list(cmp, &fcmp))
		return 0;
	tcp = (struct xt_tcp *)m->m->data;
	tcp->flg_mask = fmask;
	tcp->flg_cmp = fcmp;
	if (invert)
		tcp->invflags |= XT_TCP_INV_FLAGS;
	m->mflags |= TCP_FLAGS_SEEN;
	(*optind_p)++;
	return 1;
}
