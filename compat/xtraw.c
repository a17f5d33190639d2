// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xt-compat expressions put into a rule message as netlink attributes:
 * what compat_xt_apply() does to a libnftnl rule (xtfall.c), without
 * parsing the message into libnftnl objects and building it again.
 * The rule's attributes are copied as they are; its expression list is
 * written again with the match/target expressions in iptables-nft's
 * places, and NFTA_RULE_COMPAT from the rule's protocol match.
 * check_compat compares both with libnftnl's reading of the results.
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>
#include "compat.h"
#include "nlr.h"	/* attributes walked inline: a rule has some fifty */

#define XR_MAX_EXPRS	128	/* on the stack; more are malloc'ed */

/* Nested attribute @type of @nest, NULL if absent. */
static const struct nlattr *nested(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *a;

	if (!nest)
		return NULL;
	na_foreach_nested(a, nest) {
		if (na_type(a) == type)
			return a;
	}
	return NULL;
}

/* A 32-bit attribute as libnftnl reads it: 0 when absent. */
static uint32_t u32_of(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *a = nested(nest, type);

	return a && mnl_attr_get_payload_len(a) >= 4 ?
	       ntohl(mnl_attr_get_u32(a)) : 0;
}

/* An expression (NFTA_LIST_ELEM): its name and its data nest. */
struct xr_expr {
	const struct nlattr	*elem;
	const char		*name;
	const struct nlattr	*data;
};

static bool named(const struct xr_expr *e, const char *name)
{
	return e->name && !strcmp(e->name, name);
}

/* Is @e "meta l4proto" or the ip/ip6 protocol field? (xtfall.c) */
static bool is_proto_load(uint8_t family, const struct xr_expr *e)
{
	if (named(e, "meta"))
		return u32_of(e->data, NFTA_META_KEY) == NFT_META_L4PROTO;
	if (!named(e, "payload") ||
	    u32_of(e->data, NFTA_PAYLOAD_BASE) != NFT_PAYLOAD_NETWORK_HEADER ||
	    u32_of(e->data, NFTA_PAYLOAD_LEN) != 1)
		return false;
	return u32_of(e->data, NFTA_PAYLOAD_OFFSET) ==
	       (family == NFPROTO_IPV6 ? 6 : 9);
}

/* The protocol the rule matches: *proto, *inv; false if none. */
static bool compat_proto(uint8_t family, const struct xr_expr *v,
			 unsigned int n, uint32_t *proto, bool *inv)
{
	const struct nlattr *val;
	unsigned int i;

	for (i = 0; i + 1 < n; i++) {
		if (!named(&v[i + 1], "cmp") || !is_proto_load(family, &v[i]))
			continue;
		val = nested(nested(v[i + 1].data, NFTA_CMP_DATA),
			     NFTA_DATA_VALUE);
		if (!val || mnl_attr_get_payload_len(val) != 1)
			continue;
		*proto = *(const uint8_t *)mnl_attr_get_payload(val);
		*inv = u32_of(v[i + 1].data, NFTA_CMP_OP) == NFT_CMP_NEQ;
		return true;
	}
	return false;
}

/* The expressions that end a match: each native match is one. */
static bool ends_match(const struct xr_expr *e)
{
	return named(e, "cmp") || named(e, "lookup") || named(e, "range");
}

/* Attribute @a appended to @dst as it is (flags and padding). */
static int put_raw(struct nlmsghdr *dst, size_t room, const struct nlattr *a)
{
	size_t len = MNL_ALIGN(a->nla_len);
	char *tail = (char *)dst + MNL_ALIGN(dst->nlmsg_len);

	if (dst->nlmsg_len + len > room)
		return -EMSGSIZE;
	memcpy(tail, a, a->nla_len);
	memset(tail + a->nla_len, 0, len - a->nla_len);
	dst->nlmsg_len += len;
	return 0;
}

/* A "match" or "target" expression, as libnftnl builds it. */
static int put_xt(struct nlmsghdr *dst, size_t room, const struct compat_xt *x)
{
	struct nlattr *elem, *data;

	elem = mnl_attr_nest_start_check(dst, room, NFTA_LIST_ELEM);
	if (!elem ||
	    !mnl_attr_put_strz_check(dst, room, NFTA_EXPR_NAME,
				     x->target ? "target" : "match"))
		return -EMSGSIZE;
	data = mnl_attr_nest_start_check(dst, room, NFTA_EXPR_DATA);
	/* NFTA_TARGET_* are numbered as NFTA_MATCH_* */
	if (!data ||
	    !mnl_attr_put_strz_check(dst, room, NFTA_MATCH_NAME, x->name) ||
	    !mnl_attr_put_u32_check(dst, room, NFTA_MATCH_REV, htonl(x->rev)) ||
	    !mnl_attr_put_check(dst, room, NFTA_MATCH_INFO, x->len, x->data))
		return -EMSGSIZE;
	mnl_attr_nest_end(dst, data);
	mnl_attr_nest_end(dst, elem);
	return 0;
}

/* The matches of @l at or before native match @upto (xtfall.c). */
static int put_matches(struct nlmsghdr *dst, size_t room,
		       const struct compat_xt_list *l, unsigned int upto,
		       unsigned int *done)
{
	int ret;

	for (; *done < l->n; (*done)++) {
		const struct compat_xt *x = &l->v[*done];

		if (x->target)
			continue;
		if (x->at > upto)
			break;
		ret = put_xt(dst, room, x);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The new expression list: natives, matches placed, targets last. */
static int put_exprs(struct nlmsghdr *dst, size_t room,
		     const struct xr_expr *v, unsigned int n,
		     const struct compat_xt_list *l)
{
	unsigned int i, k, done = 0, ends = 0;
	struct nlattr *list;
	bool placed = false;
	int ret = 0;

	list = mnl_attr_nest_start_check(dst, room, NFTA_RULE_EXPRESSIONS);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i <= n && ret == 0; i++) {
		if (!placed && (i == n || named(&v[i], "counter"))) {
			ret = put_matches(dst, room, l, ~0u, &done);
			placed = true;
		}
		if (!placed && ret == 0)
			ret = put_matches(dst, room, l, ends, &done);
		if (i < n && ret == 0) {
			ret = put_raw(dst, room, v[i].elem);
			/* a range as "cmp gte, cmp lte" is one match */
			ends += ends_match(&v[i]) &&
				!(i + 1 < n && named(&v[i], "cmp") &&
				  named(&v[i + 1], "cmp"));
		}
	}
	for (k = 0; k < l->n && ret == 0; k++) {
		if (l->v[k].target)
			ret = put_xt(dst, room, &l->v[k]);
	}
	if (ret == 0)
		mnl_attr_nest_end(dst, list);
	return ret;
}

static unsigned int collect(const struct nlattr *list, struct xr_expr *v,
			    unsigned int cap)
{
	const struct nlattr *a, *b;
	unsigned int n = 0;

	if (!list)
		return 0;
	na_foreach_nested(a, list) {
		if (na_type(a) != NFTA_LIST_ELEM)
			continue;
		if (n < cap) {
			v[n].elem = a;
			v[n].name = NULL;
			v[n].data = NULL;
			na_foreach_nested(b, a) {
				if (na_type(b) == NFTA_EXPR_NAME &&
				    b->nla_len > MNL_ATTR_HDRLEN &&
				    ((const char *)b)[b->nla_len - 1] == '\0')
					v[n].name = mnl_attr_get_str(b);
				else if (na_type(b) == NFTA_EXPR_DATA)
					v[n].data = b;
			}
		}
		n++;
	}
	return n;
}

int compat_xt_write(uint8_t family, const struct nlmsghdr *src,
		    struct nlmsghdr *dst, size_t room,
		    const struct compat_xt_list *l)
{
	struct xr_expr small[XR_MAX_EXPRS], *v = small;
	const char *attrs = mnl_nlmsg_get_payload_offset(src,
						sizeof(struct nfgenmsg));
	const char *end = (const char *)src + src->nlmsg_len;
	const struct nlattr *a, *list = NULL, *compat = NULL;
	unsigned int n = 0;
	uint32_t proto = 0;
	bool has_proto = false, inv = false;
	struct nlattr *nest;
	int ret = 0;

	na_foreach(a, attrs, end) {
		if (na_type(a) == NFTA_RULE_EXPRESSIONS)
			list = a;
	}
	if (l->n) {
		n = collect(list, v, XR_MAX_EXPRS);
		if (n > XR_MAX_EXPRS) {
			v = calloc(n, sizeof(*v));
			if (!v)
				return -ENOMEM;
			collect(list, v, n);
		}
		has_proto = compat_proto(family, v, n, &proto, &inv);
	}
	na_foreach(a, attrs, end) {
		uint16_t type = na_type(a);

		if (type == NFTA_RULE_COMPAT && l->n) {
			compat = a;	/* replaced if the rule has a protocol */
			continue;
		}
		if (type == NFTA_RULE_EXPRESSIONS && l->n)
			ret = put_exprs(dst, room, v, n, l);
		else
			ret = put_raw(dst, room, a);
		if (ret < 0)
			goto out;
	}
	if (!list && l->n)	/* no native expression at all */
		ret = put_exprs(dst, room, v, 0, l);
	if (ret == 0 && has_proto) {
		nest = mnl_attr_nest_start_check(dst, room, NFTA_RULE_COMPAT);
		if (!nest ||
		    !mnl_attr_put_u32_check(dst, room, NFTA_RULE_COMPAT_PROTO,
					    htonl(proto)) ||
		    !mnl_attr_put_u32_check(dst, room, NFTA_RULE_COMPAT_FLAGS,
					    htonl(inv ? NFT_RULE_COMPAT_F_INV :
							0)))
			ret = -EMSGSIZE;
		else
			mnl_attr_nest_end(dst, nest);
	} else if (ret == 0 && compat) {
		ret = put_raw(dst, room, compat);
	}
out:
	if (v != small)
		free(v);
	return ret;
}
