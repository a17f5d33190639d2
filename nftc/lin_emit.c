// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing a rule's expressions as netlink attributes.
 *
 * When a rule is compiled into a batch (linearize.c), its message is
 * written in place in the batch and every expression is serialised the
 * moment it is made: the frequent ones (payload, meta, ct, cmp,
 * immediate verdicts) straight from the IR with libmnl, the others as a
 * libnftnl object serialised by libnftnl and freed at once. No libnftnl
 * object outlives its expression, so a rule costs its wire size and
 * nothing else.
 *
 * The attributes are the ones libnftnl writes for the same expression,
 * in the same order (NFTA_LIST_ELEM { NFTA_EXPR_NAME, NFTA_EXPR_DATA {
 * ... } }). --debug=netlink reads the message back with libnftnl,
 * rebuilds it with libnftnl and requires the bytes to be equal before
 * printing, so every rule the conformance corpus compiles checks the
 * direct encoders against libnftnl's.
 *
 * Without a message (lin_ctx.nlh NULL: unit tests, netlink.c's error
 * mapping), the directly written expressions go through a scratch
 * message and are parsed back into libnftnl objects on lin_ctx.nlr.
 * Past LIN_RULE_MAXEXPRS expressions nothing is written any more: they
 * are only counted, for the error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include "lin_int.h"

/* The one expression of the scratch message, as a libnftnl object. */
static struct nftnl_expr *scratch_to_object(struct nlmsghdr *nlh)
{
	struct nftnl_expr_iter *it;
	struct nftnl_rule *tmp;
	struct nftnl_expr *e = NULL;

	tmp = nftnl_rule_alloc();
	if (!tmp)
		return NULL;
	if (nftnl_rule_nlmsg_parse(nlh, tmp) == 0) {
		it = nftnl_expr_iter_create(tmp);
		e = it ? nftnl_expr_iter_next(it) : NULL;
		if (it)
			nftnl_expr_iter_destroy(it);
		if (e)
			nftnl_rule_del_expr(e);
	}
	nftnl_rule_free(tmp);
	return e;
}

/*
 * lin_emit_scratch - for lin_emit_begin() (lin_int.h), which starts
 * expression @name and returns the message to put its attributes into
 * (inside NFTA_EXPR_DATA; closed by lin_emit_end()): the scratch
 * message, when there is no rule message or the rule is past its limit
 */
struct nlmsghdr *lin_emit_scratch(struct lin_ctx *ctx)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(ctx->scratch);

	mnl_nlmsg_put_extra_header(nlh, sizeof(struct nfgenmsg));
	ctx->nest_list = nlw_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	return nlh;
}

static void lin_expr_seen(struct lin_ctx *ctx, const struct location *loc)
{
	ctx->nexprs++;
	if (ctx->expr_loc_cb)
		ctx->expr_loc_cb(ctx->expr_loc_priv, loc);
}

/*
 * lin_emit_object - an expression built as a libnftnl object (@e, taken
 * over) for a rule built as one (ctx->nlr): what libnftnl cannot read
 * back from a message, a jump to a chain named by its id
 */
void lin_emit_object(struct lin_ctx *ctx, struct nftnl_expr *e,
		     const struct location *loc)
{
	nftnl_rule_add_expr(ctx->nlr, e);
	lin_expr_seen(ctx, loc);
}

/*
 * lin_emit_end_rest - for lin_emit_end() (lin_int.h), once the nests are
 * closed: the scratch message's expression to a libnftnl object, the
 * location to the error mapping's callback
 */
void lin_emit_end_rest(struct lin_ctx *ctx, const struct location *loc)
{
	struct nlmsghdr *nlh = ctx->cur;
	struct nftnl_expr *e;

	if (nlh != ctx->nlh && ctx->nlr) {
		nlw_nest_end(nlh, ctx->nest_list);
		e = scratch_to_object(nlh);
		if (!e) {
			erec_error(&ctx->nft->erq, loc,
				   "Could not process rule: %s",
				   strerror(ENOMEM));
			return;
		}
		nftnl_rule_add_expr(ctx->nlr, e);
	}
	lin_expr_seen(ctx, loc);
}

/**
 * lin_add_expr - append the libnftnl expression @e to the rule being built
 * @loc: source token that produced it (kept for error mapping)
 *
 * Takes ownership of @e: serialised and freed when a message is being
 * written, else kept on ctx->nlr.
 */
void lin_add_expr(struct lin_ctx *ctx, struct nftnl_expr *e,
		  const struct location *loc)
{
	struct nlattr *nest;

	if (!e)
		return;
	if (ctx->nlh && ctx->nexprs < LIN_RULE_MAXEXPRS) {
		nest = nlw_nest_start(ctx->nlh, NFTA_LIST_ELEM);
		nftnl_expr_build_payload(ctx->nlh, e);
		nlw_nest_end(ctx->nlh, nest);
		nftnl_expr_free(e);
	} else if (!ctx->nlh && ctx->nlr) {
		nftnl_rule_add_expr(ctx->nlr, e);
	} else {
		nftnl_expr_free(e);
	}
	lin_expr_seen(ctx, loc);
}

/*
 * --debug=netlink: the rule message read back by libnftnl must be what
 * libnftnl itself writes for it, byte for byte.
 */
static int rule_check_bytes(const struct nlmsghdr *nlh, struct nftnl_rule *r)
{
	size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	struct nlmsghdr *ref;
	char *buf;
	int ret;

	buf = calloc(1, nlh->nlmsg_len + MNL_SOCKET_BUFFER_SIZE);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, nlh, hdr);
	ref = (struct nlmsghdr *)buf;
	ref->nlmsg_len = hdr;
	nftnl_rule_nlmsg_build_payload(ref, r);
	ret = ref->nlmsg_len == nlh->nlmsg_len &&
	      !memcmp(ref, nlh, nlh->nlmsg_len) ? 0 : -EPROTO;
	free(buf);
	return ret;
}

/*
 * libnftnl writes objref's names without a NUL (mnl_attr_put_str) and
 * reads them back as C strings: a name whose length is a multiple of 4
 * runs on into the next attribute. Such a read-back begins with the
 * name the message holds: cut it there, in place (setting the name
 * anew would leak libnftnl's copy).
 */
static int objref_names_fix(const struct nlmsghdr *nlh, struct nftnl_rule *r)
{
	static const struct { uint16_t nla; uint16_t attr; } names[] = {
		{ NFTA_OBJREF_IMM_NAME, NFTNL_EXPR_OBJREF_IMM_NAME },
		{ NFTA_OBJREF_SET_NAME, NFTNL_EXPR_OBJREF_SET_NAME },
	};
	const struct nlattr *a, *elem, *f, *data = NULL, *name;
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(r);
	struct nftnl_expr *e = NULL;
	unsigned int i;
	size_t len;
	char *cur;

	if (!it)
		return -ENOMEM;
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != NFTA_RULE_EXPRESSIONS)
			continue;
		mnl_attr_for_each_nested(elem, a) {
			e = nftnl_expr_iter_next(it);
			name = data = NULL;
			mnl_attr_for_each_nested(f, elem) {
				if (mnl_attr_get_type(f) == NFTA_EXPR_NAME)
					name = f;
				else if (mnl_attr_get_type(f) == NFTA_EXPR_DATA)
					data = f;
			}
			if (!e || !name || !data ||
			    strncmp(mnl_attr_get_payload(name), "objref", 7))
				continue;
			mnl_attr_for_each_nested(f, data) {
				for (i = 0; i < sizeof(names) / sizeof(names[0]);
				     i++) {
					if (mnl_attr_get_type(f) != names[i].nla)
						continue;
					len = mnl_attr_get_payload_len(f);
					cur = (char *)nftnl_expr_get_str(
						e, names[i].attr);
					if (cur && strlen(cur) > len &&
					    !memcmp(cur, mnl_attr_get_payload(f),
						    len))
						cur[len] = '\0';
				}
			}
		}
	}
	nftnl_expr_iter_destroy(it);
	return 0;
}

/**
 * lin_rule_debug - print the rule message @nlh as --debug=netlink does
 * @with_handle: the message carries NFTA_RULE_HANDLE (replace), which
 *               stock nft does not print
 *
 * Returns 0, -EPROTO if the bytes differ from libnftnl's for the same
 * rule (an encoder bug), or -ENOMEM.
 */
int lin_rule_debug(FILE *out, const struct nlmsghdr *nlh, bool with_handle)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	int ret = -ENOMEM;

	if (!r)
		return ret;
	ret = nftnl_rule_nlmsg_parse(nlh, r) < 0 ? -EPROTO : 0;
	if (ret == 0)
		ret = objref_names_fix(nlh, r);
	if (ret == 0)
		ret = rule_check_bytes(nlh, r);
	if (ret == 0) {
		if (with_handle)
			nftnl_rule_unset(r, NFTNL_RULE_HANDLE);
		nftnl_rule_fprintf(out, r, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', out);
	}
	nftnl_rule_free(r);
	return ret;
}
