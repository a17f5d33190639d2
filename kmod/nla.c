// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netlink attribute parsing and building for the VM.
 *
 * Parsing follows the kernel's lenient ("deprecated") nfnetlink rules so
 * that the VM accepts and rejects what nf_tables does: attributes of an
 * unknown type are ignored, trailing bytes that do not form an attribute
 * are ignored, fixed-size integers shorter than their type and strings or
 * binaries longer than the policy allows are -ERANGE.
 */
#include "nftvm_int.h"

static const __u8 nftvm_nla_minlen[__NFTVM_NLA_MAX] = {
	[NFTVM_NLA_U8]		= 1,
	[NFTVM_NLA_U16]		= 2,
	[NFTVM_NLA_U32]		= 4,
	[NFTVM_NLA_U64]		= 8,
	[NFTVM_NLA_NESTED]	= 0,
};

static int nftvm_nla_validate(const struct nlattr *nla,
			      const struct nftvm_nla_policy *pt)
{
	unsigned int len = nftvm_nla_len(nla);
	const char *s;

	switch (pt->type) {
	case NFTVM_NLA_STRING:
		if (len < 1)
			return -NFTVM_ERANGE;
		s = nftvm_nla_data(nla);
		if (s[len - 1] == '\0')
			len--;
		if (pt->len && len > pt->len)
			return -NFTVM_ERANGE;
		return 0;
	case NFTVM_NLA_BINARY:
		if (pt->len && len > pt->len)
			return -NFTVM_ERANGE;
		return 0;
	case NFTVM_NLA_NESTED:
		if (len && len < NLA_HDRLEN)
			return -NFTVM_ERANGE;
		return 0;
	case NFTVM_NLA_U8:
	case NFTVM_NLA_U16:
	case NFTVM_NLA_U32:
	case NFTVM_NLA_U64:
		if (len < nftvm_nla_minlen[pt->type])
			return -NFTVM_ERANGE;
		return 0;
	case NFTVM_NLA_UNSPEC:
		return 0;
	}
	return 0;
}

/**
 * nftvm_nla_parse - index the attributes of a stream by type
 * @ctx: message context, receives the culprit attribute on error
 * @tb: array of @maxtype + 1 entries, cleared here
 * @maxtype: highest attribute type kept
 * @pol: policy, @maxtype + 1 entries
 * @data: first attribute
 * @len: bytes of attributes
 *
 * Return: 0 or negative errno.
 */
int nftvm_nla_parse(struct nftvm_ctx *ctx, const struct nlattr **tb,
		    unsigned int maxtype, const struct nftvm_nla_policy *pol,
		    const void *data, size_t len)
{
	const struct nlattr *nla = data;
	size_t rem = len;
	unsigned int i, type;
	int err;

	for (i = 0; i <= maxtype; i++)
		tb[i] = NULL;

	while (rem >= sizeof(*nla) && nla->nla_len >= sizeof(*nla) &&
	       nla->nla_len <= rem) {
		type = nftvm_nla_type(nla);
		if (type > 0 && type <= maxtype) {
			err = nftvm_nla_validate(nla, &pol[type]);
			if (err < 0)
				return nftvm_fail(ctx, nla, err);
			tb[type] = nla;
		}
		if (NLA_ALIGN(nla->nla_len) >= rem)
			break;
		rem -= NLA_ALIGN(nla->nla_len);
		nla = (const struct nlattr *)((const char *)nla +
					      NLA_ALIGN(nla->nla_len));
	}
	return 0;
}

int nftvm_nla_parse_nested(struct nftvm_ctx *ctx, const struct nlattr **tb,
			   unsigned int maxtype,
			   const struct nftvm_nla_policy *pol,
			   const struct nlattr *nest)
{
	return nftvm_nla_parse(ctx, tb, maxtype, pol, nftvm_nla_data(nest),
			       nftvm_nla_len(nest));
}

int nftvm_nla_streq(const struct nlattr *nla, const char *s)
{
	const char *a = nftvm_nla_data(nla);
	size_t len = nftvm_strnlen(a, nftvm_nla_len(nla));
	size_t slen = nftvm_strnlen(s, NFTVM_NAME_MAXLEN + 1);

	return len == slen && !nftvm_memcmp(a, s, len);
}

char *nftvm_nla_strdup(const struct nlattr *nla)
{
	const char *a = nftvm_nla_data(nla);
	size_t len = nftvm_strnlen(a, nftvm_nla_len(nla));
	char *s = nftvm_alloc(len + 1);

	if (s)
		nftvm_memcpy(s, a, len);
	return s;
}

void *nftvm_nla_memdup(const struct nlattr *nla)
{
	void *p = nftvm_alloc(nftvm_nla_len(nla));

	if (p)
		nftvm_memcpy(p, nftvm_nla_data(nla), nftvm_nla_len(nla));
	return p;
}

struct nlattr *nftvm_nla_put(struct nftvm_nlbuf *b, __u16 type,
			     const void *data, size_t len)
{
	size_t total = NLA_ALIGN(NLA_HDRLEN + len);
	struct nlattr *nla;

	if (b->overflow || b->cap - b->len < total ||
	    len > 0xffff - NLA_HDRLEN) {
		b->overflow = true;
		return NULL;
	}
	nla = (struct nlattr *)(b->buf + b->len);
	nla->nla_type = type;
	nla->nla_len = (__u16)(NLA_HDRLEN + len);
	if (len)
		nftvm_memcpy((char *)nla + NLA_HDRLEN, data, len);
	nftvm_memset((char *)nla + NLA_HDRLEN + len, 0,
		     total - NLA_HDRLEN - len);
	b->len += total;
	return nla;
}

void nftvm_nla_put_be32(struct nftvm_nlbuf *b, __u16 type, __u32 v)
{
	__u32 be = nftvm_htonl(v);

	nftvm_nla_put(b, type, &be, sizeof(be));
}

void nftvm_nla_put_be64(struct nftvm_nlbuf *b, __u16 type, __u64 v)
{
	__u64 be = nftvm_htonll(v);

	nftvm_nla_put(b, type, &be, sizeof(be));
}

void nftvm_nla_put_str(struct nftvm_nlbuf *b, __u16 type, const char *s)
{
	nftvm_nla_put(b, type, s, nftvm_strnlen(s, NFTVM_NAME_MAXLEN) + 1);
}

struct nlattr *nftvm_nla_nest_start(struct nftvm_nlbuf *b, __u16 type)
{
	return nftvm_nla_put(b, type | NLA_F_NESTED, NULL, 0);
}

void nftvm_nla_nest_end(struct nftvm_nlbuf *b, struct nlattr *nest)
{
	if (!nest || b->overflow)
		return;
	nest->nla_len = (__u16)((b->buf + b->len) - (__u8 *)nest);
}
