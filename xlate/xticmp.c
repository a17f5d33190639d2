// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The icmp match's --icmp-type without libxtables when it is a plain
 * number: libipt_icmp first compares the text with the prefixes of
 * every ICMP type name (names are letters: a number is none of them),
 * then reads the number, and a type without "/code" matches codes
 * 0..255. Only what is certain to parse the same is taken: 0..255 in
 * decimal without leading zeros (libxtables reads "010" as octal and
 * "0x8" as hex), no code, the option not given before, on the option
 * table and layout of struct ipt_icmp this file knows. Anything else,
 * errors included, is left to libxtables, so its messages stay its own.
 * testcases/unit/check_xlate.c compares the bytes both produce.
 */
#include <config.h>
#include <string.h>
#include <xtables.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include "xlate_int.h"

/* [s, ...): decimal 0..255, no sign, no space, no leading zero */
static bool type_num(const char *s, uint8_t *type)
{
	unsigned int v = 0;
	size_t n = strlen(s);

	if (!n || n > 3 || (*s == '0' && n > 1))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
	}
	if (v > 255)
		return false;
	*type = v;
	return true;
}

int xl_xticmp_parse(struct xl_ext *ext, unsigned int id, const char *arg,
		    bool invert)
{
	struct xtables_match *m = ext->match;
	const struct xt_option_entry *o;
	struct ipt_icmp *icmp;
	uint8_t type;

	if (!m || m->name[0] != 'i' || strcmp(m->name, "icmp") || !m->m ||
	    !arg || m->revision != 0 || m->real_name || !m->x6_parse ||
	    m->size != XT_ALIGN(sizeof(struct ipt_icmp)))
		return 0;
	for (o = m->x6_options; o && o->name; o++)
		if (o->id == id)
			break;
	if (!o || !o->name || strcmp(o->name, "icmp-type") ||
	    o->type != XTTYPE_STRING || (o->flags & XTOPT_PUT) ||
	    !(o->flags & XTOPT_INVERT) || id >= 32)
		return 0;
	/* xtables_option_parse()'s "only once": let it report it */
	if (m->mflags & (1U << id))
		return 0;
	if (!type_num(arg, &type))
		return 0;
	icmp = (struct ipt_icmp *)m->m->data;
	icmp->type = type;
	icmp->code[0] = 0;
	icmp->code[1] = 0xff;
	if (invert)
		icmp->invflags |= IPT_ICMP_INV;
	m->mflags |= 1U << id;
	return 1;
}
