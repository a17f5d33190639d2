// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The port options of the tcp and udp matches without libxtables: a
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
