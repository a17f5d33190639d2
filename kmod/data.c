// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nft_data (values and verdicts) and register operands: the parsing and
 * load-time checks every expression shares.
 */
#include "nftvm_int.h"

static const struct nftvm_nla_policy nftvm_data_policy[NFTA_DATA_MAX + 1] = {
	[NFTA_DATA_VALUE]	= { .type = NFTVM_NLA_BINARY },
	[NFTA_DATA_VERDICT]	= { .type = NFTVM_NLA_NESTED },
};

static const struct nftvm_nla_policy
nftvm_verdict_policy[NFTA_VERDICT_MAX + 1] = {
	[NFTA_VERDICT_CODE]	= { .type = NFTVM_NLA_U32 },
	[NFTA_VERDICT_CHAIN]	= { .type = NFTVM_NLA_STRING,
				    .len = NFTVM_NAME_MAXLEN - 1 },
	[NFTA_VERDICT_CHAIN_ID]	= { .type = NFTVM_NLA_U32 },
};

static int nftvm_value_init(struct nftvm_ctx *ctx, struct nftvm_data *data,
			    struct nftvm_data_desc *desc,
			    const struct nlattr *nla)
{
	unsigned int len = nftvm_nla_len(nla);
	unsigned int size = desc->size ? desc->size : NFTVM_DATA_MAXLEN;

	if (len == 0)
		return nftvm_fail(ctx, nla, -NFTVM_EINVAL);
	if (len > size || len > NFTVM_DATA_MAXLEN)
		return nftvm_fail(ctx, nla, -NFTVM_EOVERFLOW);
	if (desc->len && len != desc->len)
		return nftvm_fail(ctx, nla, -NFTVM_EINVAL);
	nftvm_memset(data, 0, sizeof(*data));
	nftvm_memcpy(data->data, nftvm_nla_data(nla), len);
	desc->type = NFT_DATA_VALUE;
	desc->len = len;
	return 0;
}

static int nftvm_verdict_code_ok(int code)
{
	switch (code) {
	case NFT_CONTINUE:
	case NFT_BREAK:
	case NFT_RETURN:
	case NFT_JUMP:
	case NFT_GOTO:
		return 1;
	}
	switch ((__u32)code & NF_VERDICT_MASK) {
	case NF_ACCEPT:
	case NF_DROP:
	case NF_QUEUE:
		return 1;
	}
	return 0;
}

static int nftvm_verdict_init(struct nftvm_ctx *ctx, struct nftvm_data *data,
			      struct nftvm_data_desc *desc,
			      const struct nlattr *nla)
{
	const struct nlattr *tb[NFTA_VERDICT_MAX + 1];
	struct nftvm_chain *chain;
	int err;

	err = nftvm_nla_parse_nested(ctx, tb, NFTA_VERDICT_MAX,
				     nftvm_verdict_policy, nla);
	if (err < 0)
		return err;
	if (!tb[NFTA_VERDICT_CODE])
		return nftvm_fail(ctx, nla, -NFTVM_EINVAL);

	nftvm_memset(data, 0, sizeof(*data));
	data->verdict.code = (int)nftvm_nla_be32(tb[NFTA_VERDICT_CODE]);
	if (!nftvm_verdict_code_ok(data->verdict.code))
		return nftvm_fail(ctx, tb[NFTA_VERDICT_CODE], -NFTVM_EINVAL);

	if (data->verdict.code == NFT_JUMP || data->verdict.code == NFT_GOTO) {
		if (!ctx->table)
			return nftvm_fail(ctx, nla, -NFTVM_EINVAL);
		if (tb[NFTA_VERDICT_CHAIN]) {
			chain = nftvm_chain_lookup(ctx->table,
						   tb[NFTA_VERDICT_CHAIN]);
			nla = tb[NFTA_VERDICT_CHAIN];
		} else if (tb[NFTA_VERDICT_CHAIN_ID]) {
			chain = nftvm_chain_lookup_id(ctx->table,
					tb[NFTA_VERDICT_CHAIN_ID]);
			nla = tb[NFTA_VERDICT_CHAIN_ID];
		} else {
			return nftvm_fail(ctx, nla, -NFTVM_EINVAL);
		}
		if (!chain)
			return nftvm_fail(ctx, nla, -NFTVM_ENOENT);
		/* a base chain is entered by its hook, never by a jump */
		if (chain->base)
			return nftvm_fail(ctx, nla, -NFTVM_EOPNOTSUPP);
		/* a bound chain has its one jump already */
		if (chain->bound)
			return nftvm_fail(ctx, nla, -NFTVM_EINVAL);
		data->verdict.chain = chain;
		chain->use++;
	}
	desc->type = NFT_DATA_VERDICT;
	desc->len = sizeof(data->verdict);
	return 0;
}

/**
 * nftvm_data_init - parse a nested nft_data attribute
 * @ctx: message context (its table resolves jump targets)
 * @data: result
 * @desc: in: @type (0 = value or verdict), @len (0 = any), @size (max);
 *	  out: @type and @len found
 * @attr: the NFTA_*_DATA attribute
 *
 * A jump or goto verdict takes a reference on its chain: release it with
 * nftvm_data_release().
 *
 * Return: 0 or negative errno.
 */
int nftvm_data_init(struct nftvm_ctx *ctx, struct nftvm_data *data,
		    struct nftvm_data_desc *desc, const struct nlattr *attr)
{
	const struct nlattr *tb[NFTA_DATA_MAX + 1];
	__u32 want = desc->type;
	int err;

	err = nftvm_nla_parse_nested(ctx, tb, NFTA_DATA_MAX,
				     nftvm_data_policy, attr);
	if (err < 0)
		return err;

	if (tb[NFTA_DATA_VALUE]) {
		if (want && want != NFT_DATA_VALUE)
			return nftvm_fail(ctx, tb[NFTA_DATA_VALUE],
					  -NFTVM_EINVAL);
		return nftvm_value_init(ctx, data, desc, tb[NFTA_DATA_VALUE]);
	}
	if (tb[NFTA_DATA_VERDICT]) {
		if (want && want != NFT_DATA_VERDICT)
			return nftvm_fail(ctx, tb[NFTA_DATA_VERDICT],
					  -NFTVM_EINVAL);
		return nftvm_verdict_init(ctx, data, desc,
					  tb[NFTA_DATA_VERDICT]);
	}
	return nftvm_fail(ctx, attr, -NFTVM_EINVAL);
}

void nftvm_data_hold(const struct nftvm_data *data, __u32 type)
{
	if (type == NFT_DATA_VERDICT && data->verdict.chain &&
	    (data->verdict.code == NFT_JUMP || data->verdict.code == NFT_GOTO))
		data->verdict.chain->use++;
}

void nftvm_data_release(const struct nftvm_data *data, __u32 type)
{
	if (type == NFT_DATA_VERDICT && data->verdict.chain &&
	    (data->verdict.code == NFT_JUMP || data->verdict.code == NFT_GOTO))
		data->verdict.chain->use--;
}

void nftvm_data_dump(struct nftvm_nlbuf *b, __u16 attr,
		     const struct nftvm_data *data, __u32 type,
		     unsigned int len)
{
	struct nlattr *nest, *v;

	nest = nftvm_nla_nest_start(b, attr);
	if (type == NFT_DATA_VERDICT) {
		v = nftvm_nla_nest_start(b, NFTA_DATA_VERDICT);
		nftvm_nla_put_be32(b, NFTA_VERDICT_CODE,
				   (__u32)data->verdict.code);
		if (data->verdict.chain &&
		    (data->verdict.code == NFT_JUMP ||
		     data->verdict.code == NFT_GOTO))
			nftvm_nla_put_str(b, NFTA_VERDICT_CHAIN,
					  data->verdict.chain->name);
		nftvm_nla_nest_end(b, v);
	} else {
		nftvm_nla_put(b, NFTA_DATA_VALUE, data->data, len);
	}
	nftvm_nla_nest_end(b, nest);
}

/* NFT_REG_* / NFT_REG32_* to a word index of struct nftvm_regs */
static int nftvm_parse_register(const struct nlattr *attr, __u32 *reg)
{
	__u32 r = nftvm_nla_be32(attr);

	if (r <= NFT_REG_4) {
		*reg = r * (NFT_REG_SIZE / NFT_REG32_SIZE);
		return 0;
	}
	if (r >= NFT_REG32_00 && r <= NFT_REG32_15) {
		*reg = r - NFT_REG32_00 + NFT_REG_SIZE / NFT_REG32_SIZE;
		return 0;
	}
	return -NFTVM_ERANGE;
}

static int nftvm_check_data_reg(__u32 reg, unsigned int len)
{
	if (reg < NFT_REG_SIZE / NFT_REG32_SIZE)
		return -NFTVM_EINVAL;
	if (len == 0)
		return -NFTVM_EINVAL;
	if (reg * NFT_REG32_SIZE + len > NFTVM_REG32_WORDS * NFT_REG32_SIZE)
		return -NFTVM_ERANGE;
	return 0;
}

/**
 * nftvm_parse_reg_load - parse a source register of @len bytes
 * Return: 0 with the word index in *@reg, or negative errno.
 */
int nftvm_parse_reg_load(struct nftvm_ctx *ctx, const struct nlattr *attr,
			 __u8 *reg, unsigned int len)
{
	__u32 r;
	int err;

	err = nftvm_parse_register(attr, &r);
	if (!err)
		err = nftvm_check_data_reg(r, len);
	if (err < 0)
		return nftvm_fail(ctx, attr, err);
	*reg = (__u8)r;
	return 0;
}

/**
 * nftvm_parse_reg_store - parse a destination register
 * @data: the constant stored, if known at load time (immediate)
 * @type: NFT_DATA_VALUE or NFT_DATA_VERDICT
 *
 * Only verdicts go to the verdict register, only values elsewhere.
 * Return: 0 with the word index in *@reg, or negative errno.
 */
int nftvm_parse_reg_store(struct nftvm_ctx *ctx, const struct nlattr *attr,
			  __u8 *reg, const struct nftvm_data *data,
			  __u32 type, unsigned int len)
{
	__u32 r;
	int err;

	err = nftvm_parse_register(attr, &r);
	if (err < 0)
		return nftvm_fail(ctx, attr, err);
	if (r == NFT_REG_VERDICT) {
		if (type != NFT_DATA_VERDICT)
			return nftvm_fail(ctx, attr, -NFTVM_EINVAL);
	} else {
		err = nftvm_check_data_reg(r, len);
		if (!err && data && type != NFT_DATA_VALUE)
			err = -NFTVM_EINVAL;
		if (err < 0)
			return nftvm_fail(ctx, attr, err);
	}
	*reg = (__u8)r;
	return 0;
}

void nftvm_dump_reg(struct nftvm_nlbuf *b, __u16 attr, unsigned int reg)
{
	unsigned int per = NFT_REG_SIZE / NFT_REG32_SIZE;

	if (reg % per == 0)
		reg /= per;
	else
		reg = reg - per + NFT_REG32_00;
	nftvm_nla_put_be32(b, attr, reg);
}

int nftvm_parse_u32_check(struct nftvm_ctx *ctx, const struct nlattr *attr,
			  __u32 max, __u32 *dest)
{
	__u32 v = nftvm_nla_be32(attr);

	if (v > max)
		return nftvm_fail(ctx, attr, -NFTVM_ERANGE);
	*dest = v;
	return 0;
}
