// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stateful expressions attached to set elements ("set s { counter; }",
 * "elements = { 10.0.0.1 counter }", dynset's "{ ip saddr limit ... }"):
 * parsing up to NFTVM_EXT_EXPRS of them into a packed block, copying a
 * set's or dynset's templates into a new element, running and freeing
 * them.  Lookups and dynsets run an element's expressions when a packet
 * finds it.
 */
#include "nftvm_int.h"

#define NFTVM_EXT_ROOM	256	/* bytes of expressions per block */

static int nftvm_ext_add(struct nftvm_ctx *ctx, struct nftvm_elem_ext *ext,
			 const struct nlattr *nest, const struct nftvm_set *set)
{
	struct nftvm_expr *x = (struct nftvm_expr *)(ext->data + ext->dlen);
	int err;

	if (ext->n == NFTVM_EXT_EXPRS)
		return nftvm_fail(ctx, nest, -NFTVM_E2BIG);
	err = nftvm_expr_init_nested(ctx, nest, x, NFTVM_EXT_ROOM - ext->dlen);
	if (err < 0)
		return err;
	ext->dlen += nftvm_expr_size(x->ops);
	ext->n++;
	/* connlimit forgets nothing by itself: not in sets that expire */
	if (set && (set->flags & NFT_SET_TIMEOUT) &&
	    x->ops == &nftvm_connlimit_ops)
		return nftvm_fail(ctx, nest, -NFTVM_EOPNOTSUPP);
	return 0;
}

/**
 * nftvm_ext_parse - NFTA_*_EXPR (@one) or NFTA_*_EXPRESSIONS (@list)
 * @set: the set the expressions are for, or NULL
 * @out: the block, NULL when neither attribute is there
 * Return: 0 or negative errno (nothing allocated then).
 */
int nftvm_ext_parse(struct nftvm_ctx *ctx, const struct nlattr *one,
		    const struct nlattr *list, const struct nftvm_set *set,
		    struct nftvm_elem_ext **out)
{
	struct nftvm_elem_ext *ext;
	const struct nlattr *pos;
	int rem, err = 0;

	*out = NULL;
	if (!one && !list)
		return 0;
	ext = nftvm_alloc(sizeof(*ext) + NFTVM_EXT_ROOM);
	if (!ext)
		return -NFTVM_ENOMEM;
	if (one) {
		err = nftvm_ext_add(ctx, ext, one, set);
	} else {
		nftvm_nla_for_each_nested(pos, list, rem) {
			if (nftvm_nla_type(pos) != NFTA_LIST_ELEM)
				err = nftvm_fail(ctx, pos, -NFTVM_EINVAL);
			else
				err = nftvm_ext_add(ctx, ext, pos, set);
			if (err < 0)
				break;
		}
	}
	if (err < 0) {
		nftvm_ext_free(ext);
		return err;
	}
	*out = ext;
	return 0;
}

void nftvm_ext_free(struct nftvm_elem_ext *ext)
{
	struct nftvm_ctx ctx = { 0 };
	struct nftvm_expr *x;

	if (!ext)
		return;
	nftvm_ext_for_each_expr(x, ext)
		if (x->ops->destroy)
			x->ops->destroy(&ctx, x);
	nftvm_free(ext);
}

/**
 * nftvm_ext_clone - fresh copies of the templates in @tmpl
 * Return: the copy, or NULL when out of memory.
 */
struct nftvm_elem_ext *nftvm_ext_clone(const struct nftvm_elem_ext *tmpl)
{
	struct nftvm_elem_ext *ext;
	const struct nftvm_expr *src;
	struct nftvm_expr *dst;

	ext = nftvm_alloc(sizeof(*ext) + tmpl->dlen);
	if (!ext)
		return NULL;
	nftvm_memcpy(ext->data, tmpl->data, tmpl->dlen);
	ext->n = tmpl->n;
	ext->dlen = tmpl->dlen;
	nftvm_ext_for_each_expr(dst, ext) {
		src = (const struct nftvm_expr *)(tmpl->data +
			((unsigned char *)dst - ext->data));
		if (dst->ops->clone && dst->ops->clone(dst, src) < 0) {
			/* the rest still share the templates' memory */
			ext->dlen = (unsigned int)((unsigned char *)dst -
						   ext->data);
			nftvm_ext_free(ext);
			return NULL;
		}
	}
	return ext;
}

/* the same expression types in the same order (element vs. set) */
bool nftvm_ext_same_types(const struct nftvm_elem_ext *a,
			  const struct nftvm_elem_ext *b)
{
	const struct nftvm_expr *x, *y;

	if (a->n != b->n || a->dlen != b->dlen)
		return false;
	y = (const struct nftvm_expr *)b->data;
	nftvm_ext_for_each_expr(x, a) {
		if (x->ops != y->ops)
			return false;
		y = (const struct nftvm_expr *)((const unsigned char *)y +
						nftvm_expr_size(y->ops));
	}
	return true;
}

/* Run an element's expressions; false if one of them said NFT_BREAK. */
bool nftvm_ext_eval(struct nftvm_elem_ext *ext, struct nftvm_regs *regs,
		    const struct nftvm_pktinfo *pkt)
{
	struct nftvm_expr *x;

	nftvm_ext_for_each_expr(x, ext) {
		x->ops->eval(x, regs, pkt);
		if (regs->verdict.code == NFT_BREAK)
			return false;
	}
	return true;
}
