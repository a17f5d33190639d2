// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --debug=netlink for the rules of anonymous chains and the rules that
 * jump to them. libnftnl 1.2.4 reads neither NFTA_RULE_CHAIN_ID nor a
 * jump that names its chain by NFTA_VERDICT_CHAIN_ID (it reads a chain
 * name it was not given), so stock prints these rules from its own
 * objects: the table without a chain, "[ immediate reg 0 jump ]".
 * Here the message is copied for libnftnl without the rule's chain id
 * and with a placeholder name for the verdict's, read and checked as
 * any rule message, and printed without the placeholder.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "lin_int.h"
#include "nlr.h"

/* Not a chain name the kernel accepts: no rule can print it. */
#define BOUND_NAME	"\x01"
#define BOUND_TEXT	" -> " BOUND_NAME

static bool has_chain_ids(const struct nlattr *a, const struct nlattr *end,
			  unsigned int depth, uint16_t path)
{
	const struct nlattr *c;
	uint16_t type;

	na_foreach(a, a, (const char *)end) {
		type = na_type(a);
		if (depth == 0 && type == NFTA_RULE_CHAIN_ID)
			return true;
		if (depth == 5 && path == 0x1222 &&
		    type == NFTA_VERDICT_CHAIN_ID)
			return true;
		if (!(a->nla_type & NLA_F_NESTED) || depth > 4)
			continue;
		if (depth == 0 && type != NFTA_RULE_EXPRESSIONS)
			continue;
		c = (const struct nlattr *)((const char *)a + NLA_HDRLEN);
		if (has_chain_ids(c, (const struct nlattr *)((const char *)a +
							     a->nla_len),
				  depth + 1, depth ? (path << 4) | type : 0))
			return true;
	}
	return false;
}

/* A chain id as the name of the chain it stands for, "__chainID". */
static void put_id_name(struct nlmsghdr *nlh, uint16_t type,
			const struct nlattr *id)
{
	char name[32];
	uint32_t v;

	memcpy(&v, (const char *)id + NLA_HDRLEN, sizeof(v));
	snprintf(name, sizeof(name), "__chain%u", ntohl(v));
	nlw_put_strz(nlh, type, name);
}

/*
 * Copy the attributes [@a, @end) to @nlh: depth 0 is the rule, 1 the
 * expression list, 2 an expression, 3 its data, 4 the immediate's data
 * and 5 its verdict; @path holds the nests' types from depth 1 on (list
 * element, expression data, immediate data, verdict: 0x1222).
 */
static void copy_attrs(struct nlmsghdr *nlh, const struct nlattr *a,
		       const struct nlattr *end, unsigned int depth,
		       uint16_t path, bool named)
{
	const struct nlattr *c;
	struct nlattr *nest;
	uint16_t type;

	na_foreach(a, a, (const char *)end) {
		type = na_type(a);
		if (depth == 0 && type == NFTA_RULE_CHAIN_ID) {
			if (named)
				put_id_name(nlh, NFTA_RULE_CHAIN, a);
			continue;
		}
		if (depth == 5 && path == 0x1222 &&
		    type == NFTA_VERDICT_CHAIN_ID) {
			if (named)
				put_id_name(nlh, NFTA_VERDICT_CHAIN, a);
			else
				nlw_put_strz(nlh, NFTA_VERDICT_CHAIN,
						  BOUND_NAME);
			continue;
		}
		if (!(a->nla_type & NLA_F_NESTED) || depth > 4 ||
		    (depth == 0 && type != NFTA_RULE_EXPRESSIONS)) {
			nlw_put(nlh, a->nla_type, a->nla_len - NLA_HDRLEN,
				     (const char *)a + NLA_HDRLEN);
			continue;
		}
		nest = nlw_nest_start(nlh, type);
		c = (const struct nlattr *)((const char *)a + NLA_HDRLEN);
		copy_attrs(nlh, c, (const struct nlattr *)((const char *)a +
							   a->nla_len),
			   depth + 1, depth ? (path << 4) | type : 0, named);
		nlw_nest_end(nlh, nest);
	}
}

/* @text without the placeholder, to @out. */
static void print_without_placeholder(FILE *out, const char *text)
{
	const char *p;

	while ((p = strstr(text, BOUND_TEXT))) {
		fwrite(text, 1, p - text, out);
		text = p + strlen(BOUND_TEXT);
	}
	fputs(text, out);
}

/**
 * lin_rule_debug_bound - lin_rule_debug() for a rule message that names
 * chains by id; returns 1 when @nlh names none (print it as usual)
 */
int lin_rule_debug_bound(FILE *out, const struct nlmsghdr *nlh,
			 bool with_handle)
{
	size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	const struct nlattr *first = (const struct nlattr *)
				     ((const char *)nlh + hdr);
	const struct nlattr *end = (const struct nlattr *)
				   ((const char *)nlh + nlh->nlmsg_len);
	struct nlmsghdr *copy;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int ret;

	if (!has_chain_ids(first, end, 0, 0))
		return 1;
	/* a placeholder name is at most 8 bytes more per 8-byte id */
	copy = calloc(1, 2 * (size_t)nlh->nlmsg_len + MNL_SOCKET_BUFFER_SIZE);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, nlh, hdr);
	copy->nlmsg_len = hdr;
	copy_attrs(copy, first, end, 0, 0, false);
	mem = open_memstream(&text, &len);
	if (!mem) {
		free(copy);
		return -ENOMEM;
	}
	ret = lin_rule_debug(mem, copy, with_handle);
	fclose(mem);
	if (ret == 0 && text)
		print_without_placeholder(out, text);
	free(text);
	free(copy);
	return ret;
}

/**
 * nftc_rule_msg_named - rule message @nlh with the chains it names by
 * id (NFTA_RULE_CHAIN_ID, NFTA_VERDICT_CHAIN_ID) named "__chainID"
 * instead, for libnftnl to read (a batch read as the kernel would store
 * it); NULL when it names none or without memory (*@err -ENOMEM)
 */
struct nlmsghdr *nftc_rule_msg_named(const struct nlmsghdr *nlh, int *err)
{
	size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	const struct nlattr *first = (const struct nlattr *)
				     ((const char *)nlh + hdr);
	const struct nlattr *end = (const struct nlattr *)
				   ((const char *)nlh + nlh->nlmsg_len);
	struct nlmsghdr *copy;

	*err = 0;
	if (!has_chain_ids(first, end, 0, 0))
		return NULL;
	/* a name is at most 20 bytes more than its 8-byte id */
	copy = calloc(1, 4 * (size_t)nlh->nlmsg_len + MNL_SOCKET_BUFFER_SIZE);
	if (!copy) {
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(copy, nlh, hdr);
	copy->nlmsg_len = hdr;
	copy_attrs(copy, first, end, 0, 0, true);
	return copy;
}
