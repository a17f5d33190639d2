// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The multiport match's port lists without libxtables, when certain to
 * be stored the same: revision 1 (struct xt_multiport_v1) for IPv4, a
 * rule whose -p is tcp or udp and not inverted (libxt_multiport's
 * protocol check), the match's first option (its data still zero, no
 * other option to interact with), 1..15 comma-separated decimal ports
 * 0..65535 without leading zeros (libxtables reads "010" as octal,
 * "0x16" as hex and names as services), no ranges. The option entry
 * must be a plain string (no copy into the data, no length bounds):
 * the option's parse then only records the option as given. Anything
 * else, errors included, is left to libxtables, so its messages stay
 * its own. testcases/unit/check_xlate.c compares the bytes both
 * produce.
 */
#include <config.h>
#include <string.h>
#include <xtables.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter/xt_multiport.h>
#include "xlate_int.h"

/* the comparison each option name stands for (the first name of an id) */
static const struct {
	const char	*name;
	uint8_t		flags;
} mport_opts[] = {
	{ "source-ports",	XT_MULTIPORT_SOURCE },
	{ "sports",		XT_MULTIPORT_SOURCE },
	{ "destination-ports",	XT_MULTIPORT_DESTINATION },
	{ "dports",		XT_MULTIPORT_DESTINATION },
	{ "ports",		XT_MULTIPORT_EITHER },
};

/* [s, e): decimal 0..65535, no sign, no space, no leading zero */
static bool mport_num(const char *s, const char *e, uint16_t *port)
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

static bool mport_list(const char *arg, struct xt_multiport_v1 *mp)
{
	unsigned int n = 0;
	const char *s = arg, *e;

	for (;;) {
		e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		if (n == XT_MULTI_PORTS || !mport_num(s, e, &mp->ports[n]))
			return false;
		n++;
		if (!*e)
			break;
		s = e + 1;
	}
	mp->count = n;
	return true;
}

int xl_xtmport_parse(struct xl_ext *ext, unsigned int id, const char *arg,
		     bool invert, const void *fw)
{
	struct xtables_match *m = ext->match;
	const struct ipt_entry *e4 = fw;
	const struct xt_option_entry *o;
	struct xt_multiport_v1 mp;
	unsigned int i;

	if (!m || !m->m || !arg || !fw || m->name[0] != 'm' ||
	    strcmp(m->name, "multiport") || m->revision != 1 ||
	    m->real_name || m->family != NFPROTO_IPV4 || !m->x6_parse ||
	    m->size != XT_ALIGN(sizeof(struct xt_multiport_v1)) ||
	    m->mflags || id >= 32)
		return 0;
	if ((e4->ip.proto != IPPROTO_TCP && e4->ip.proto != IPPROTO_UDP) ||
	    (e4->ip.invflags & XT_INV_PROTO))
		return 0;
	for (o = m->x6_options; o && o->name; o++)
		if (o->id == id)
			break;
	if (!o || !o->name || o->type != XTTYPE_STRING ||
	    (o->flags & XTOPT_PUT) || o->min || o->max ||
	    (invert && !(o->flags & XTOPT_INVERT)))
		return 0;
	for (i = 0; i < sizeof(mport_opts) / sizeof(mport_opts[0]); i++)
		if (!strcmp(o->name, mport_opts[i].name))
			break;
	if (i == sizeof(mport_opts) / sizeof(mport_opts[0]))
		return 0;
	memset(&mp, 0, sizeof(mp));
	if (!mport_list(arg, &mp))
		return 0;
	mp.flags = mport_opts[i].flags;
	mp.invert = invert;
	memcpy(m->m->data, &mp, sizeof(mp));
	m->mflags |= 1U << id;
	return 1;
}
