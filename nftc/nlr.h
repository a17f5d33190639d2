/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_NLR_H
#define NFTC_NLR_H

/*
 * Netlink attributes read in place, the counterpart of nlw.h: walked
 * inline, as libmnl's mnl_attr_for_each*() walk them (4-byte aligned,
 * stopping at the first attribute that is not whole), since a call into
 * libmnl per attribute cost more than the rest of reading them. No
 * dependency beyond <linux/netlink.h>: the decompiler and compat/'s
 * xt-compat writer share it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <linux/netlink.h>

/* Is the attribute at @a whole before @end? */
static inline bool na_ok(const struct nlattr *a, const char *end)
{
	return end - (const char *)a >= NLA_HDRLEN &&
	       a->nla_len >= NLA_HDRLEN && a->nla_len <= end - (const char *)a;
}

/* Every whole attribute from @start up to @end. */
#define na_foreach(a, start, end) \
	for ((a) = (const struct nlattr *)(start); na_ok((a), (end)); \
	     (a) = (const struct nlattr *)((const char *)(a) + \
					   NLA_ALIGN((a)->nla_len)))

/* Every whole attribute nested in @nest. */
#define na_foreach_nested(a, nest) \
	na_foreach(a, (const char *)(nest) + NLA_HDRLEN, \
		   (const char *)(nest) + (nest)->nla_len)

static inline uint16_t na_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

#endif
