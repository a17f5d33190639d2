/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_NLW_H
#define NFTC_NLW_H

/*
 * Netlink attributes written in place into a message being built, as
 * libmnl's mnl_attr_put*() and mnl_attr_nest_*() write them (4-byte
 * aligned, padding zeroed, nests flagged NLA_F_NESTED), but inline: a
 * rule puts some 30 of them, and a call into libmnl per attribute cost
 * a fifth of writing a rule. The caller makes sure @nlh has room (the
 * batch keeps room for the message being written).
 */

#include <stdint.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/netfilter/nf_tables.h>

static inline struct nlattr *nlw_tail(struct nlmsghdr *nlh)
{
	return (struct nlattr *)((char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len));
}

/* @len bytes of @data, zeroes up to @padded, then to the alignment. */
static inline void nlw_put_padded(struct nlmsghdr *nlh, uint16_t type,
				  size_t len, const void *data, size_t padded)
{
	struct nlattr *attr = nlw_tail(nlh);
	char *payload = (char *)attr + NLA_HDRLEN;

	attr->nla_type = type;
	attr->nla_len = NLA_HDRLEN + padded;
	memcpy(payload, data, len);
	memset(payload + len, 0, NLA_ALIGN(padded) - len);
	nlh->nlmsg_len += NLA_ALIGN(attr->nla_len);
}

static inline void nlw_put(struct nlmsghdr *nlh, uint16_t type, size_t len,
			   const void *data)
{
	nlw_put_padded(nlh, type, len, data, len);
}

/* @v in network order already */
static inline void nlw_put_u32(struct nlmsghdr *nlh, uint16_t type,
			       uint32_t v)
{
	nlw_put(nlh, type, sizeof(v), &v);
}

static inline void nlw_put_u8(struct nlmsghdr *nlh, uint16_t type, uint8_t v)
{
	nlw_put(nlh, type, sizeof(v), &v);
}

static inline void nlw_put_strz(struct nlmsghdr *nlh, uint16_t type,
				const char *s)
{
	nlw_put(nlh, type, strlen(s) + 1, s);
}

static inline struct nlattr *nlw_nest_start(struct nlmsghdr *nlh,
					    uint16_t type)
{
	struct nlattr *start = nlw_tail(nlh);

	start->nla_type = NLA_F_NESTED | type;
	nlh->nlmsg_len += NLA_HDRLEN;
	return start;
}

static inline void nlw_nest_end(struct nlmsghdr *nlh, struct nlattr *start)
{
	start->nla_len = (char *)nlw_tail(nlh) - (char *)start;
}

/* Value data as libnftnl writes it: NFTA_xxx_DATA { NFTA_DATA_VALUE }. */
static inline void nlw_put_data(struct nlmsghdr *nlh, uint16_t type,
				const void *buf, size_t len)
{
	struct nlattr *nest = nlw_nest_start(nlh, type);

	nlw_put(nlh, NFTA_DATA_VALUE, len, buf);
	nlw_nest_end(nlh, nest);
}

#endif
