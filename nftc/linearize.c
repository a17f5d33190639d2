/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-level linearization: one libnftnl object per evaluated command,
 * serialised into the batch right away and freed, with the debug text
 * "nft --debug=netlink" prints for it.
 *
 * What is printed, and when, follows stock nft: a chain, object or
 * flowtable is printed before the table and object names are added to
 * it (so its line reads "(null)"), a rule after its table, chain and
 * position are set, a table never. Anonymous sets are emitted (and
 * printed) just before the first rule that uses them.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include <libnftnl/udata.h>
#include "lin_int.h"
#include "evaluate.h"

/* Userdata buffer size stock nft uses for comments. */
#define LIN_UDATA_MAXLEN	256

/**
 * struct lin_cmd_ctx - state of the command-level pass
 * @nft: compiler context
 * @batch: output batch
 * @debug_out: where debug text goes, NULL when not wanted
 * @cmd: command being linearized
 */
struct lin_cmd_ctx {
	struct nftc_ctx		*nft;
	struct nftc_batch	*batch;
	FILE			*debug_out;
	const struct cmd	*cmd;
};

static int lin_nomem(struct lin_cmd_ctx *ctx)
{
	return erec_error(&ctx->nft->erq, &ctx->cmd->location,
			  "Could not process rule: %s", strerror(ENOMEM));
}

static int lin_batch_err(struct lin_cmd_ctx *ctx, int err)
{
	if (err >= 0)
		return 0;
	return erec_error(&ctx->nft->erq, &ctx->cmd->location,
			  "Could not process rule: %s", strerror(-err));
}

/**
 * lin_expr_to_string - text of a string constant or a symbol
 * @expr: EXPR_VALUE (canonical bytes are the characters) or EXPR_SYMBOL
 *
 * Returns the length, or -1 when @expr is neither or too long.
 */
int lin_expr_to_string(const struct expr *expr, char *buf, size_t size)
{
	size_t n;

	if (!expr || size == 0)
		return -1;
	switch (expr->kind) {
	case EXPR_SYMBOL:
	case EXPR_VARIABLE:
		if (!expr->sym.identifier)
			return -1;
		n = strlen(expr->sym.identifier);
		if (n >= size)
			return -1;
		memcpy(buf, expr->sym.identifier, n + 1);
		return n;
	case EXPR_VALUE:
		n = BITS_TO_BYTES(expr->value.len);
		if (n > NFTC_VALUE_MAX)
			n = NFTC_VALUE_MAX;
		if (n >= size)
			n = size - 1;
		memcpy(buf, expr->value.data, n);
		buf[n] = '\0';
		return strlen(buf);
	default:
		return -1;
	}
}

/* Userdata holding one string attribute (a comment). */
static struct nftnl_udata_buf *lin_udata_comment(uint8_t type,
						 const char *comment)
{
	struct nftnl_udata_buf *udbuf = nftnl_udata_buf_alloc(LIN_UDATA_MAXLEN);

	if (!udbuf)
		return NULL;
	if (!nftnl_udata_put_strz(udbuf, type, comment)) {
		nftnl_udata_buf_free(udbuf);
		return NULL;
	}
	return udbuf;
}

/*
 * Device names of a chain or flowtable, NULL terminated; the strings
 * live in one allocation after the pointers.
 */
static const char **lin_dev_array(const struct expr *devs, unsigned int *n)
{
	const struct expr *e;
	unsigned int cnt = 0, i = 0;
	const char **arr;
	char *names;

	*n = 0;
	if (!devs)
		return NULL;
	if (devs->kind != EXPR_LIST && devs->kind != EXPR_SET &&
	    devs->kind != EXPR_CONCAT) {
		arr = calloc(1, 2 * sizeof(char *) + IFNAMSIZ);
		if (!arr)
			return NULL;
		names = (char *)(arr + 2);
		if (lin_expr_to_string(devs, names, IFNAMSIZ) < 0)
			names[0] = '\0';
		arr[0] = names;
		*n = 1;
		return arr;
	}
	list_for_each_entry(e, &devs->expressions, list)
		cnt++;
	arr = calloc(1, (cnt + 1) * sizeof(char *) + cnt * IFNAMSIZ);
	if (!arr)
		return NULL;
	names = (char *)(arr + cnt + 1);
	list_for_each_entry(e, &devs->expressions, list) {
		const struct expr *d = e;

		if (d->kind == EXPR_SET_ELEM)
			d = d->elem.key;
		if (lin_expr_to_string(d, names, IFNAMSIZ) < 0)
			names[0] = '\0';
		arr[i++] = names;
		names += IFNAMSIZ;
	}
	*n = cnt;
	return arr;
}

static uint32_t lin_policy_value(const struct expr *policy)
{
	if (policy->kind == EXPR_VERDICT)
		return policy->verdict.verdict;
	if (policy->kind == EXPR_VALUE)
		return value_get_u64(&policy->value);
	if (policy->kind == EXPR_SYMBOL && policy->sym.identifier &&
	    !strcmp(policy->sym.identifier, "drop"))
		return NF_DROP;
	return NF_ACCEPT;
}

/*
 * Tables
 */
static int lin_table_add(struct lin_cmd_ctx *ctx, uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;
	const struct table *table = cmd->obj == CMD_OBJ_TABLE ? cmd->table :
								 NULL;
	struct nftnl_udata_buf *udbuf;
	struct nftnl_table *t;
	int ret;

	t = nftnl_table_alloc();
	if (!t)
		return lin_nomem(ctx);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, cmd->handle.family);
	nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS, table ? table->flags : 0);
	if (table && table->comment) {
		udbuf = lin_udata_comment(NFTNL_UDATA_TABLE_COMMENT,
					  table->comment);
		if (!udbuf)
			goto err_nomem;
		nftnl_table_set_data(t, NFTNL_TABLE_USERDATA,
				     nftnl_udata_buf_data(udbuf),
				     nftnl_udata_buf_len(udbuf));
		nftnl_udata_buf_free(udbuf);
	}
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, cmd->handle.table.name);
	ret = batch_add_table(ctx->batch, NFT_MSG_NEWTABLE, flags,
			      cmd->handle.family, t);
	nftnl_table_free(t);
	return lin_batch_err(ctx, ret);
err_nomem:
	nftnl_table_free(t);
	return lin_nomem(ctx);
}

/*
 * Chains
 */
static int lin_chain_devices(struct nftnl_chain *c, const struct expr *devs)
{
	unsigned int n;
	const char **arr = lin_dev_array(devs, &n);

	if (!devs)
		return 0;
	if (!arr)
		return -1;
	if (n == 1)
		nftnl_chain_set_str(c, NFTNL_CHAIN_DEV, arr[0]);
	else if (n > 1)
		nftnl_chain_set_array(c, NFTNL_CHAIN_DEVICES, arr);
	free(arr);
	return 0;
}

static int lin_anon_sets(struct lin_cmd_ctx *ctx, const struct rule *rule,
			 const struct stmt *upto);

/*
 * An anonymous chain: table, chain id and NFT_CHAIN_BINDING, in that
 * order, as stock writes it (its debug line shows the family only).
 */
static int lin_chain_bound_add(struct lin_cmd_ctx *ctx, uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;
	struct nftnl_chain *c;
	struct nlmsghdr *nlh;

	if (cmd->chain->bound_rule &&
	    lin_anon_sets(ctx, cmd->chain->bound_rule,
			  cmd->chain->bound_stmt) < 0)
		return -1;
	if (ctx->debug_out) {
		c = nftnl_chain_alloc();
		if (!c)
			return lin_nomem(ctx);
		nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, cmd->handle.family);
		nftnl_chain_fprintf(ctx->debug_out, c, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', ctx->debug_out);
		nftnl_chain_free(c);
	}
	nlh = batch_obj_begin(ctx->batch, NFT_MSG_NEWCHAIN,
			      NLM_F_CREATE | flags, cmd->handle.family);
	if (!nlh)
		return lin_nomem(ctx);
	nlw_put_strz(nlh, NFTA_CHAIN_TABLE, cmd->handle.table.name);
	if (cmd->handle.chain.name)
		nlw_put_strz(nlh, NFTA_CHAIN_NAME, cmd->handle.chain.name);
	nlw_put_u32(nlh, NFTA_CHAIN_ID, htobe32(cmd->handle.chain_id));
	nlw_put_u32(nlh, NFTA_CHAIN_FLAGS, htobe32(NFT_CHAIN_BINDING));
	return lin_batch_err(ctx, batch_obj_end(ctx->batch, nlh));
}

static int lin_chain_add(struct lin_cmd_ctx *ctx, uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;
	const struct chain *chain = cmd->chain;
	struct nftnl_udata_buf *udbuf;
	struct nftnl_chain *c;
	int ret;

	if (chain && (chain->flags & NFT_CHAIN_BINDING))
		return lin_chain_bound_add(ctx, flags);

	c = nftnl_chain_alloc();
	if (!c)
		return lin_nomem(ctx);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, cmd->handle.family);
	if (chain && (chain->flags & NFT_CHAIN_HW_OFFLOAD))
		nftnl_chain_set_u32(c, NFTNL_CHAIN_FLAGS,
				    NFT_CHAIN_HW_OFFLOAD);
	if (chain && chain->is_base) {
		nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, chain->hooknum);
		nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, chain->prio);
		nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, chain->type.name ?
				    chain->type.name : "filter");
	}
	if (chain && lin_chain_devices(c, chain->devices) < 0)
		goto err_nomem;
	if (chain && chain->comment) {
		udbuf = lin_udata_comment(NFTNL_UDATA_CHAIN_COMMENT,
					  chain->comment);
		if (!udbuf)
			goto err_nomem;
		nftnl_chain_set_data(c, NFTNL_CHAIN_USERDATA,
				     nftnl_udata_buf_data(udbuf),
				     nftnl_udata_buf_len(udbuf));
		nftnl_udata_buf_free(udbuf);
	}
	if (ctx->debug_out) {
		nftnl_chain_fprintf(ctx->debug_out, c, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', ctx->debug_out);
	}
	/* Names and policy go on the wire but not in the debug line. */
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, cmd->handle.table.name);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, cmd->handle.chain.name);
	if (chain && chain->is_base && chain->policy)
		nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY,
				    lin_policy_value(chain->policy));
	if (chain && chain->is_base && chain->has_counters) {
		nftnl_chain_set_u64(c, NFTNL_CHAIN_PACKETS, chain->packets);
		nftnl_chain_set_u64(c, NFTNL_CHAIN_BYTES, chain->bytes);
	}
	ret = batch_add_chain(ctx->batch, NFT_MSG_NEWCHAIN,
			      NLM_F_CREATE | flags, cmd->handle.family, c);
	nftnl_chain_free(c);
	return lin_batch_err(ctx, ret);
err_nomem:
	nftnl_chain_free(c);
	return lin_nomem(ctx);
}

static int lin_chain_rename(struct lin_cmd_ctx *ctx)
{
	const struct cmd *cmd = ctx->cmd;
	struct nftnl_chain *c;
	int ret;

	c = nftnl_chain_alloc();
	if (!c)
		return lin_nomem(ctx);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, cmd->handle.family);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, cmd->handle.table.name);
	if (cmd->handle.handle.present)
		nftnl_chain_set_u64(c, NFTNL_CHAIN_HANDLE,
				    cmd->handle.handle.id);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, cmd->arg ? cmd->arg : "");
	if (ctx->debug_out) {
		nftnl_chain_fprintf(ctx->debug_out, c, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', ctx->debug_out);
	}
	ret = batch_add_chain(ctx->batch, NFT_MSG_NEWCHAIN, 0,
			      cmd->handle.family, c);
	nftnl_chain_free(c);
	return lin_batch_err(ctx, ret);
}

/*
 * Rules
 */

/* Anonymous sets referenced by one rule, in order of first use. */
struct lin_set_vec {
	const struct set	**sets;
	unsigned int		n;
	unsigned int		cap;
	bool			nomem;
};

static void lin_set_vec_add(struct lin_set_vec *v, const struct set *set)
{
	const struct set **n;
	unsigned int i;

	if (!set || !(set->flags & SET_F_ANONYMOUS))
		return;
	for (i = 0; i < v->n; i++)
		if (v->sets[i] == set)
			return;
	if (v->n == v->cap) {
		unsigned int cap = v->cap ? v->cap * 2 : 4;

		n = realloc(v->sets, cap * sizeof(*n));
		if (!n) {
			v->nomem = true;
			return;
		}
		v->sets = n;
		v->cap = cap;
	}
	v->sets[v->n++] = set;
}

static void lin_collect_expr(struct lin_set_vec *v, const struct expr *e);
static void lin_collect_stmt(struct lin_set_vec *v, const struct stmt *s);

static void lin_collect_list(struct lin_set_vec *v, const struct expr *e)
{
	const struct expr *i;

	list_for_each_entry(i, &e->expressions, list)
		lin_collect_expr(v, i);
}

static void lin_collect_expr(struct lin_set_vec *v, const struct expr *e)
{
	const struct stmt *s;

	if (!e)
		return;
	switch (e->kind) {
	case EXPR_SET_REF:
		lin_set_vec_add(v, e->set_ref.set);
		break;
	case EXPR_RANGE:
	case EXPR_MAPPING:
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
		lin_collect_expr(v, e->pair.left);
		lin_collect_expr(v, e->pair.right);
		break;
	case EXPR_UNARY:
		lin_collect_expr(v, e->unary.arg);
		break;
	case EXPR_PREFIX:
		lin_collect_expr(v, e->prefix.expr);
		break;
	case EXPR_CONCAT:
	case EXPR_LIST:
	case EXPR_SET:
		lin_collect_list(v, e);
		break;
	case EXPR_SET_ELEM:
		lin_collect_expr(v, e->elem.key);
		list_for_each_entry(s, &e->elem.stmts, list)
			lin_collect_stmt(v, s);
		break;
	case EXPR_MAP:
		lin_collect_expr(v, e->map.key);
		lin_collect_expr(v, e->map.mappings);
		break;
	case EXPR_HASH:
		lin_collect_expr(v, e->hash.expr);
		break;
	default:
		break;
	}
}

static void lin_collect_stmt(struct lin_set_vec *v, const struct stmt *s)
{
	const struct stmt *i;

	switch (s->kind) {
	case STMT_EXPRESSION:
	case STMT_VERDICT:
		lin_collect_expr(v, s->expr);
		break;
	case STMT_NAT:
		lin_collect_expr(v, s->nat.addr);
		lin_collect_expr(v, s->nat.proto);
		break;
	case STMT_TPROXY:
		lin_collect_expr(v, s->tproxy.addr);
		lin_collect_expr(v, s->tproxy.port);
		break;
	case STMT_QUEUE:
		lin_collect_expr(v, s->queue.queue);
		break;
	case STMT_DUP:
		lin_collect_expr(v, s->dup.to);
		lin_collect_expr(v, s->dup.dev);
		break;
	case STMT_FWD:
		lin_collect_expr(v, s->fwd.dev);
		lin_collect_expr(v, s->fwd.addr);
		break;
	case STMT_META:
		lin_collect_expr(v, s->meta.expr);
		break;
	case STMT_CT:
		lin_collect_expr(v, s->ct.expr);
		break;
	case STMT_PAYLOAD:
	case STMT_EXTHDR:
		lin_collect_expr(v, s->payload.val);
		break;
	case STMT_SET:
	case STMT_MAP:
		lin_collect_expr(v, s->set.set);	/* meter sets */
		lin_collect_expr(v, s->set.key);
		lin_collect_expr(v, s->set.data);
		list_for_each_entry(i, &s->set.stmts, list)
			lin_collect_stmt(v, i);
		break;
	case STMT_OBJREF:
		lin_collect_expr(v, s->objref.expr);
		break;
	default:
		break;
	}
}

/*
 * The anonymous sets of @rule's statements after its last anonymous
 * chain before @upto (NULL: the end): stock sends them as it meets them,
 * a bound chain and its rules after the sets before it.
 */
static int lin_anon_sets(struct lin_cmd_ctx *ctx, const struct rule *rule,
			 const struct stmt *upto)
{
	struct lin_set_vec v = { 0 };
	const struct stmt *s;
	unsigned int i;
	int ret = 0;

	list_for_each_entry(s, &rule->stmts, list) {
		if (s == upto)
			break;
		if (s->kind == STMT_CHAIN) {
			v.n = 0;	/* sent before that chain */
			continue;
		}
		lin_collect_stmt(&v, s);
	}
	if (v.nomem) {
		free(v.sets);
		return lin_nomem(ctx);
	}
	for (i = 0; i < v.n && ret == 0; i++) {
		const struct set *set = v.sets[i];

		nftc_batch_set_source(ctx->batch, ctx->cmd, &set->location);
		/* the rule's own set: naming it is ours to do */
		ret = lin_anon_set_name(ctx->nft, (struct set *)set,
					rule->handle.family);
		if (ret == 0)
			ret = lin_set_add(ctx->nft, ctx->batch, set,
				  rule->handle.family, ctx->debug_out);
		if (ret == 0 && set->init)
			ret = lin_set_elems(ctx->nft, ctx->batch, set,
					    set->init, rule->handle.family,
					    CMD_ADD, ctx->debug_out);
	}
	free(v.sets);
	return ret < 0 ? -1 : 0;
}

static int lin_rule_comment(struct nlmsghdr *nlh, const char *comment)
{
	struct nftnl_udata_buf *udbuf;

	udbuf = lin_udata_comment(NFTNL_UDATA_RULE_COMMENT, comment);
	if (!udbuf)
		return -1;
	nlw_put(nlh, NFTA_RULE_USERDATA, nftnl_udata_buf_len(udbuf),
		     nftnl_udata_buf_data(udbuf));
	nftnl_udata_buf_free(udbuf);
	return 0;
}

/*
 * The kernel refuses a rule of more than LIN_RULE_MAXEXPRS expressions
 * with EINVAL; say so here, where the rule is known, as offline checks
 * must reject what the kernel would.
 */
static int lin_rule_too_long(struct nftc_ctx *nft, unsigned int n,
			     const struct rule *rule)
{
	if (n <= LIN_RULE_MAXEXPRS)
		return 0;
	return erec_error(&nft->erq, &rule->location,
			  "Could not process rule: Invalid argument "
			  "(%u expressions, the kernel takes %u at most)",
			  n, LIN_RULE_MAXEXPRS);
}

/**
 * struct lin_rule_ids - what a rule message carries besides the rule
 * @position: NFTA_RULE_POSITION, 0 for none
 * @handle: NFTA_RULE_HANDLE (replace) when @has_handle
 */
struct lin_rule_ids {
	uint64_t	position;
	uint64_t	handle;
	bool		has_handle;
	uint32_t	rule_id;
	uint32_t	position_id;
};

static struct lin_rule_ids lin_rule_ids(const struct cmd *cmd)
{
	const struct handle *rh = &cmd->rule->handle;
	struct lin_rule_ids ids = { 0 };

	if (rh->position.present && rh->position.id)
		ids.position = rh->position.id;
	/* "add/insert rule ... handle N" means position N */
	else if (cmd->op != CMD_REPLACE && rh->handle.present &&
		 rh->handle.id)
		ids.position = rh->handle.id;
	/* placed next to a rule of this batch (eval_rule_cache.c) */
	ids.rule_id = rh->rule_id;
	ids.position_id = rh->position_id;
	if (cmd->op == CMD_REPLACE && rh->handle.present) {
		ids.handle = rh->handle.id;
		ids.has_handle = true;
	} else if (cmd->op == CMD_REPLACE && cmd->handle.handle.present) {
		ids.handle = cmd->handle.handle.id;
		ids.has_handle = true;
	}
	return ids;
}

/*
 * The VM code of @rule into the message @nlh, in libnftnl's attribute
 * order: table, chain, handle, position, userdata, expressions. Returns
 * 0, or -1 with an error queued.
 */
static int lin_rule_write(struct lin_cmd_ctx *cctx, struct nlmsghdr *nlh,
			  const struct rule *rule, uint32_t family,
			  const struct lin_rule_ids *ids)
{
	struct nftc_ctx *nft = cctx->nft;
	unsigned int errors = nft->erq.num_errors;
	const struct stmt *s;
	struct lin_ctx lctx;
	size_t list_start;

	nlw_put_strz(nlh, NFTA_RULE_TABLE, rule->handle.table.name);
	if (rule->handle.chain.name)
		nlw_put_strz(nlh, NFTA_RULE_CHAIN,
				  rule->handle.chain.name);
	else if (rule->handle.chain_id)
		nlw_put_u32(nlh, NFTA_RULE_CHAIN_ID,
				 htobe32(rule->handle.chain_id));
	if (ids->has_handle)
		mnl_attr_put_u64(nlh, NFTA_RULE_HANDLE, htobe64(ids->handle));
	if (ids->position)
		mnl_attr_put_u64(nlh, NFTA_RULE_POSITION,
				 htobe64(ids->position));
	if (rule->comment && lin_rule_comment(nlh, rule->comment) < 0)
		return lin_nomem(cctx);

	memset(&lctx, 0, offsetof(struct lin_ctx, scratch));
	lctx.nft = nft;
	lctx.family = family;
	lctx.batch = cctx->batch;
	lctx.debug_out = cctx->debug_out;
	lctx.nlh = nlh;
	list_start = nlh->nlmsg_len;
	lctx.nest_list = nlw_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	list_for_each_entry(s, &rule->stmts, list)
		lin_stmt(&lctx, s);
	/* libnftnl leaves out the nest of an empty rule */
	if (lctx.nexprs)
		nlw_nest_end(nlh, lctx.nest_list);
	else
		nlh->nlmsg_len = list_start;
	/* after the expressions, as libnftnl puts them */
	if (ids->rule_id)
		mnl_attr_put_u32(nlh, NFTA_RULE_ID, htobe32(ids->rule_id));
	if (ids->position_id)
		mnl_attr_put_u32(nlh, NFTA_RULE_POSITION_ID,
				 htobe32(ids->position_id));
	lin_rule_too_long(nft, lctx.nexprs, rule);
	return nft->erq.num_errors != errors ? -1 : 0;
}

int nftc_lin_rule_debug(FILE *out, const struct nlmsghdr *nlh)
{
	int ret = lin_rule_debug_bound(out, nlh, false);

	if (ret == 1)
		ret = lin_rule_debug(out, nlh, false);
	return ret;
}

static int lin_rule_add(struct lin_cmd_ctx *ctx, uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;
	const struct rule *rule = cmd->rule;
	uint32_t family = cmd->handle.family;
	struct lin_rule_ids ids = lin_rule_ids(cmd);
	struct nlmsghdr *nlh;
	int ret;

	if (lin_anon_sets(ctx, rule, NULL) < 0)
		return -1;
	nftc_batch_set_source(ctx->batch, cmd, &rule->location);
	nlh = batch_obj_begin(ctx->batch, NFT_MSG_NEWRULE, flags, family);
	if (!nlh)
		return lin_nomem(ctx);
	if (lin_rule_write(ctx, nlh, rule, family, &ids) < 0)
		return -1;
	if (ctx->debug_out) {
		ret = lin_rule_debug_bound(ctx->debug_out, nlh,
					   ids.has_handle);
		if (ret == 1)
			ret = lin_rule_debug(ctx->debug_out, nlh,
					     ids.has_handle);
		if (ret == -EPROTO)
			return erec_error(&ctx->nft->erq, &rule->location,
					  "internal error: rule message "
					  "differs from libnftnl's");
		if (ret < 0)
			return lin_nomem(ctx);
	}
	ret = batch_obj_end(ctx->batch, nlh);
	return lin_batch_err(ctx, ret);
}

static int lin_rule_del(struct lin_cmd_ctx *ctx, bool flush)
{
	const struct handle *h = &ctx->cmd->handle;
	struct nftnl_rule *r;
	int ret;

	r = nftnl_rule_alloc();
	if (!r)
		return lin_nomem(ctx);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, h->family);
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, h->table.name);
	if (h->chain.name)
		nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, h->chain.name);
	if (!flush && h->handle.present)
		nftnl_rule_set_u64(r, NFTNL_RULE_HANDLE, h->handle.id);
	ret = batch_add_rule(ctx->batch, NFT_MSG_DELRULE, 0, h->family, r);
	nftnl_rule_free(r);
	return lin_batch_err(ctx, ret);
}

/*
 * Sets
 */
static const struct set *lin_cmd_set(struct lin_cmd_ctx *ctx)
{
	const struct cmd *cmd = ctx->cmd;
	struct table *table;

	if ((cmd->obj == CMD_OBJ_SET || cmd->obj == CMD_OBJ_MAP) && cmd->set)
		return cmd->set;
	table = table_cache_find(ctx->nft, cmd->handle.family,
				 cmd->handle.table.name);
	if (!table || !cmd->handle.set.name)
		return NULL;
	return set_cache_find(table, cmd->handle.set.name);
}

static int lin_set_cmd_add(struct lin_cmd_ctx *ctx)
{
	const struct set *set = ctx->cmd->set;
	uint32_t family = ctx->cmd->handle.family;

	/* Anonymous sets go out with the rule that uses them. */
	if (!set || (set->flags & SET_F_ANONYMOUS))
		return 0;
	if (lin_set_add(ctx->nft, ctx->batch, set, family,
			ctx->debug_out) < 0)
		return -1;
	if (set->init && lin_set_elems(ctx->nft, ctx->batch, set, set->init,
				       family, ctx->cmd->op,
				       ctx->debug_out) < 0)
		return -1;
	return 0;
}

static int lin_elems_cmd(struct lin_cmd_ctx *ctx)
{
	const struct set *set = lin_cmd_set(ctx);

	if (!set)
		return erec_error(&ctx->nft->erq, &ctx->cmd->location,
				  "Could not process rule: %s",
				  strerror(ENOENT));
	if (!ctx->cmd->expr)
		return 0;
	return lin_set_elems_packed(ctx->nft, ctx->batch, set,
				    ctx->cmd->expr, ctx->cmd->pack,
				    ctx->cmd->handle.family, ctx->cmd->op,
				    ctx->debug_out) < 0 ? -1 : 0;
}

/* "delete set", and "flush set" (delete all elements). */
static int lin_set_del(struct lin_cmd_ctx *ctx, bool flush)
{
	const struct handle *h = &ctx->cmd->handle;
	struct nftnl_set *s;
	int ret;

	s = nftnl_set_alloc();
	if (!s)
		return lin_nomem(ctx);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, h->family);
	nftnl_set_set_str(s, NFTNL_SET_TABLE, h->table.name);
	if (h->set.name)
		nftnl_set_set_str(s, NFTNL_SET_NAME, h->set.name);
	if (h->handle.present)
		nftnl_set_set_u64(s, NFTNL_SET_HANDLE, h->handle.id);
	if (flush) {
		if (ctx->debug_out) {
			nftnl_set_fprintf(ctx->debug_out, s,
					  NFTNL_OUTPUT_DEFAULT, 0);
			fputc('\n', ctx->debug_out);
		}
		ret = batch_add_setelems(ctx->batch, NFT_MSG_DELSETELEM, 0,
					 h->family, s);
	} else {
		ret = batch_add_set(ctx->batch, NFT_MSG_DELSET, 0, h->family,
				    s);
	}
	nftnl_set_free(s);
	return lin_batch_err(ctx, ret);
}

/*
 * Stateful objects
 */
static const uint32_t cmd_obj_type[__CMD_OBJ_MAX] = {
	[CMD_OBJ_COUNTER]	= NFT_OBJECT_COUNTER,
	[CMD_OBJ_COUNTERS]	= NFT_OBJECT_COUNTER,
	[CMD_OBJ_QUOTA]		= NFT_OBJECT_QUOTA,
	[CMD_OBJ_QUOTAS]	= NFT_OBJECT_QUOTA,
	[CMD_OBJ_LIMIT]		= NFT_OBJECT_LIMIT,
	[CMD_OBJ_LIMITS]	= NFT_OBJECT_LIMIT,
	[CMD_OBJ_CT_HELPER]	= NFT_OBJECT_CT_HELPER,
	[CMD_OBJ_SYNPROXY]	= NFT_OBJECT_SYNPROXY,
	[CMD_OBJ_SECMARK]	= NFT_OBJECT_SECMARK,
};

static void lin_obj_fill(struct nftnl_obj *o, const struct obj *obj)
{
	switch (obj->type) {
	case NFT_OBJECT_COUNTER:
		nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_PKTS, obj->counter.packets);
		nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_BYTES, obj->counter.bytes);
		break;
	case NFT_OBJECT_QUOTA:
		nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_BYTES, obj->quota.bytes);
		nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_CONSUMED,
				  obj->quota.used);
		nftnl_obj_set_u32(o, NFTNL_OBJ_QUOTA_FLAGS, obj->quota.flags);
		break;
	case NFT_OBJECT_LIMIT:
		nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_RATE, obj->limit.rate);
		nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_UNIT, obj->limit.unit);
		nftnl_obj_set_u32(o, NFTNL_OBJ_LIMIT_BURST, obj->limit.burst);
		nftnl_obj_set_u32(o, NFTNL_OBJ_LIMIT_TYPE, obj->limit.type);
		nftnl_obj_set_u32(o, NFTNL_OBJ_LIMIT_FLAGS, obj->limit.flags);
		break;
	case NFT_OBJECT_CT_HELPER:
		nftnl_obj_set_str(o, NFTNL_OBJ_CT_HELPER_NAME,
				  obj->ct_helper.name);
		nftnl_obj_set_u8(o, NFTNL_OBJ_CT_HELPER_L4PROTO,
				 obj->ct_helper.l4proto);
		if (obj->ct_helper.l3proto)
			nftnl_obj_set_u16(o, NFTNL_OBJ_CT_HELPER_L3PROTO,
					  obj->ct_helper.l3proto);
		break;
	case NFT_OBJECT_SECMARK:
		nftnl_obj_set_str(o, NFTNL_OBJ_SECMARK_CTX, obj->secmark.ctx);
		break;
	case NFT_OBJECT_SYNPROXY:
		nftnl_obj_set_u16(o, NFTNL_OBJ_SYNPROXY_MSS, obj->synproxy.mss);
		nftnl_obj_set_u8(o, NFTNL_OBJ_SYNPROXY_WSCALE,
				 obj->synproxy.wscale);
		nftnl_obj_set_u32(o, NFTNL_OBJ_SYNPROXY_FLAGS,
				  obj->synproxy.flags);
		break;
	default:
		break;
	}
}

static int lin_obj_add(struct lin_cmd_ctx *ctx, uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;
	const struct obj *obj = cmd->object;
	struct nftnl_udata_buf *udbuf;
	struct nftnl_obj *o;
	int ret;

	if (!obj)
		return 0;
	o = nftnl_obj_alloc();
	if (!o)
		return lin_nomem(ctx);
	nftnl_obj_set_u32(o, NFTNL_OBJ_FAMILY, cmd->handle.family);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, obj->type);
	if (obj->comment) {
		udbuf = lin_udata_comment(NFTNL_UDATA_OBJ_COMMENT,
					  obj->comment);
		if (!udbuf) {
			nftnl_obj_free(o);
			return lin_nomem(ctx);
		}
		nftnl_obj_set_data(o, NFTNL_OBJ_USERDATA,
				   nftnl_udata_buf_data(udbuf),
				   nftnl_udata_buf_len(udbuf));
		nftnl_udata_buf_free(udbuf);
	}
	lin_obj_fill(o, obj);
	if (ctx->debug_out) {
		nftnl_obj_fprintf(ctx->debug_out, o, NFTNL_OUTPUT_DEFAULT, 0);
		fputc('\n', ctx->debug_out);
	}
	nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, cmd->handle.table.name);
	nftnl_obj_set_str(o, NFTNL_OBJ_NAME, cmd->handle.obj.name);
	ret = batch_add_obj(ctx->batch, NFT_MSG_NEWOBJ, NLM_F_CREATE | flags,
			    cmd->handle.family, o);
	nftnl_obj_free(o);
	return lin_batch_err(ctx, ret);
}

static int lin_obj_del(struct lin_cmd_ctx *ctx)
{
	const struct handle *h = &ctx->cmd->handle;
	struct nftnl_obj *o;
	int ret;

	o = nftnl_obj_alloc();
	if (!o)
		return lin_nomem(ctx);
	nftnl_obj_set_u32(o, NFTNL_OBJ_FAMILY, h->family);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, cmd_obj_type[ctx->cmd->obj]);
	nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, h->table.name);
	if (h->obj.name)
		nftnl_obj_set_str(o, NFTNL_OBJ_NAME, h->obj.name);
	else if (h->handle.present)
		nftnl_obj_set_u64(o, NFTNL_OBJ_HANDLE, h->handle.id);
	ret = batch_add_obj(ctx->batch, NFT_MSG_DELOBJ, 0, h->family, o);
	nftnl_obj_free(o);
	return lin_batch_err(ctx, ret);
}

/*
 * Flowtables
 */
static int lin_flowtable_msg(struct lin_cmd_ctx *ctx, uint16_t type,
			     uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;
	const struct flowtable *ft = cmd->obj == CMD_OBJ_FLOWTABLE ?
				     cmd->flowtable : NULL;
	bool add = type == NFT_MSG_NEWFLOWTABLE;
	struct nftnl_flowtable *f;
	const char **devs = NULL;
	unsigned int n;
	int ret;

	f = nftnl_flowtable_alloc();
	if (!f)
		return lin_nomem(ctx);
	nftnl_flowtable_set_u32(f, NFTNL_FLOWTABLE_FAMILY, cmd->handle.family);
	if (ft && (add || ft->devices)) {
		bool hook = add && ft->hook_name.name;

		nftnl_flowtable_set_u32(f, NFTNL_FLOWTABLE_HOOKNUM,
					hook ? ft->hooknum : 0);
		nftnl_flowtable_set_s32(f, NFTNL_FLOWTABLE_PRIO,
					hook ? ft->prio : 0);
	}
	if (ft && ft->devices) {
		devs = lin_dev_array(ft->devices, &n);
		if (!devs) {
			nftnl_flowtable_free(f);
			return lin_nomem(ctx);
		}
		nftnl_flowtable_set_array(f, NFTNL_FLOWTABLE_DEVICES, devs);
		free(devs);
	}
	if (add) {
		nftnl_flowtable_set_u32(f, NFTNL_FLOWTABLE_FLAGS,
					ft ? ft->flags : 0);
		if (ctx->debug_out) {
			nftnl_flowtable_fprintf(ctx->debug_out, f,
						NFTNL_OUTPUT_DEFAULT, 0);
			fputc('\n', ctx->debug_out);
		}
	}
	nftnl_flowtable_set_str(f, NFTNL_FLOWTABLE_TABLE,
				cmd->handle.table.name);
	if (cmd->handle.flowtable.name)
		nftnl_flowtable_set_str(f, NFTNL_FLOWTABLE_NAME,
					cmd->handle.flowtable.name);
	else if (cmd->handle.handle.present)
		nftnl_flowtable_set_u64(f, NFTNL_FLOWTABLE_HANDLE,
					cmd->handle.handle.id);
	ret = batch_add_flowtable(ctx->batch, type,
				  add ? NLM_F_CREATE | flags : 0,
				  cmd->handle.family, f);
	nftnl_flowtable_free(f);
	return lin_batch_err(ctx, ret);
}

/*
 * Deleting tables and chains; "flush ruleset" is a table delete without
 * a name.
 */
static int lin_table_del(struct lin_cmd_ctx *ctx)
{
	const struct handle *h = &ctx->cmd->handle;
	struct nftnl_table *t;
	int ret;

	t = nftnl_table_alloc();
	if (!t)
		return lin_nomem(ctx);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, h->family);
	if (ctx->cmd->obj == CMD_OBJ_TABLE) {
		if (h->table.name)
			nftnl_table_set_str(t, NFTNL_TABLE_NAME,
					    h->table.name);
		else if (h->handle.present)
			nftnl_table_set_u64(t, NFTNL_TABLE_HANDLE,
					    h->handle.id);
	}
	ret = batch_add_table(ctx->batch, NFT_MSG_DELTABLE, 0, h->family, t);
	nftnl_table_free(t);
	return lin_batch_err(ctx, ret);
}

static int lin_chain_del(struct lin_cmd_ctx *ctx)
{
	const struct handle *h = &ctx->cmd->handle;
	struct nftnl_chain *c;
	int ret;

	c = nftnl_chain_alloc();
	if (!c)
		return lin_nomem(ctx);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, h->family);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, h->table.name);
	if (h->chain.name)
		nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, h->chain.name);
	else if (h->handle.present)
		nftnl_chain_set_u64(c, NFTNL_CHAIN_HANDLE, h->handle.id);
	ret = batch_add_chain(ctx->batch, NFT_MSG_DELCHAIN, 0, h->family, c);
	nftnl_chain_free(c);
	return lin_batch_err(ctx, ret);
}

/*
 * Command dispatch
 */
static int lin_cmd_add(struct lin_cmd_ctx *ctx, uint16_t flags)
{
	const struct cmd *cmd = ctx->cmd;

	switch (cmd->obj) {
	case CMD_OBJ_TABLE:
		return lin_table_add(ctx, flags);
	case CMD_OBJ_CHAIN:
		return lin_chain_add(ctx, flags);
	case CMD_OBJ_RULE:
		return lin_rule_add(ctx, NLM_F_CREATE | NLM_F_APPEND | flags);
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		return lin_set_cmd_add(ctx);
	case CMD_OBJ_ELEMENTS:
		return lin_elems_cmd(ctx);
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_LIMIT:
	case CMD_OBJ_CT_HELPER:
	case CMD_OBJ_SYNPROXY:
	case CMD_OBJ_SECMARK:
		return lin_obj_add(ctx, flags);
	case CMD_OBJ_FLOWTABLE:
		return lin_flowtable_msg(ctx, NFT_MSG_NEWFLOWTABLE, flags);
	default:
		return 0;
	}
}

static int lin_cmd_delete(struct lin_cmd_ctx *ctx)
{
	switch (ctx->cmd->obj) {
	case CMD_OBJ_TABLE:
		return lin_table_del(ctx);
	case CMD_OBJ_CHAIN:
		return lin_chain_del(ctx);
	case CMD_OBJ_RULE:
		return lin_rule_del(ctx, false);
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		return lin_set_del(ctx, false);
	case CMD_OBJ_ELEMENTS:
		return lin_elems_cmd(ctx);
	case CMD_OBJ_COUNTER:
	case CMD_OBJ_QUOTA:
	case CMD_OBJ_LIMIT:
	case CMD_OBJ_CT_HELPER:
	case CMD_OBJ_SYNPROXY:
	case CMD_OBJ_SECMARK:
		return lin_obj_del(ctx);
	case CMD_OBJ_FLOWTABLE:
		return lin_flowtable_msg(ctx, NFT_MSG_DELFLOWTABLE, 0);
	default:
		return 0;
	}
}

static int lin_cmd_flush(struct lin_cmd_ctx *ctx)
{
	switch (ctx->cmd->obj) {
	case CMD_OBJ_RULESET:
		return lin_table_del(ctx);
	case CMD_OBJ_TABLE:
	case CMD_OBJ_CHAIN:
		return lin_rule_del(ctx, true);
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		return lin_set_del(ctx, true);
	default:
		return 0;
	}
}

static int lin_cmd(struct lin_cmd_ctx *ctx)
{
	const struct cmd *cmd = ctx->cmd;

	nftc_batch_set_source(ctx->batch, cmd, &cmd->location);
	switch (cmd->op) {
	case CMD_ADD:
		return lin_cmd_add(ctx, 0);
	case CMD_CREATE:
		return lin_cmd_add(ctx, NLM_F_EXCL);
	case CMD_INSERT:
		if (cmd->obj == CMD_OBJ_RULE)
			return lin_rule_add(ctx, NLM_F_CREATE);
		return lin_cmd_add(ctx, 0);
	case CMD_REPLACE:
		if (cmd->obj == CMD_OBJ_RULE)
			return lin_rule_add(ctx, NLM_F_REPLACE);
		return 0;
	case CMD_DELETE:
	case CMD_DESTROY:
		return lin_cmd_delete(ctx);
	case CMD_FLUSH:
		return lin_cmd_flush(ctx);
	case CMD_RENAME:
		if (cmd->obj == CMD_OBJ_CHAIN)
			return lin_chain_rename(ctx);
		return 0;
	default:
		/* list, get, reset, describe: nothing to send in a batch */
		return 0;
	}
}

/**
 * nftc_linearize - VM code and messages for evaluated commands
 * @ctx: compiler context (errors go to ctx->erq)
 * @cmds: commands as left by nftc_evaluate()
 * @batch: batch to append to (not ended here)
 * @debug_out: with NFTC_DEBUG_NETLINK in ctx->debug, the debug text
 *
 * Every command is linearized even after an error, so that all problems
 * are reported. Returns 0, or -1 with errors queued.
 */
int nftc_linearize(struct nftc_ctx *ctx, struct list_head *cmds,
		   struct nftc_batch *batch, FILE *debug_out)
{
	struct lin_cmd_ctx lctx = {
		.nft		= ctx,
		.batch		= batch,
		.debug_out	= (ctx->debug & NFTC_DEBUG_NETLINK) ?
				  debug_out : NULL,
	};
	const struct cmd *cmd;
	int ret = 0;

	list_for_each_entry(cmd, cmds, list) {
		lctx.cmd = cmd;
		if (lin_cmd(&lctx) < 0)
			ret = -1;
		if (ctx->erq.max_errors &&
		    ctx->erq.num_errors >= ctx->erq.max_errors)
			break;
	}
	return ret;
}
