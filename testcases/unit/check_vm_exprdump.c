// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The expressions' ops->dump against the kernel's dump.  One batch with
 * rules using the VM's newer expressions (writes, ct, exthdr, stateful,
 * objects, NAT, reject, log, dynset, queue, dup, ...) is loaded into
 * nf_tables (private network namespace) and into libnftvm; every rule
 * the kernel lists (GETRULE dump) is printed with libnftnl and compared
 * with the same rule rebuilt from the VM's ops->dump attributes.  This
 * is white-box: it walks the VM's rules through nftvm_int.h, the way the
 * GET answers will.  Needs root and nf_tables: otherwise SKIP (pass).
 */
#define _GNU_SOURCE
#include "check_vm_exprs.h"
#include "check_vm_netns.h"
#include "../../kmod/nftvm_int.h"

#include <sched.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MAXRULES	64

static struct nftvm *vm;
static struct mnl_socket *nl;
static char *kdump[MAXRULES];
static uint64_t khandle[MAXRULES];
static unsigned int nk;

static void setup(void)
{
	vm = nftvm_new();
	ck_assert_ptr_nonnull(vm);
	nl = NULL;
	if (netns_enter(false))
		nl = nfnl_open(200000);
}

static void teardown(void)
{
	unsigned int i;

	for (i = 0; i < nk; i++)
		free(kdump[i]);
	nk = 0;
	if (nl)
		mnl_socket_close(nl);
	nftvm_destroy(vm);
	vm = NULL;
}

static char *rule_text(const struct nftnl_rule *r)
{
	char buf[4096];

	nftnl_rule_snprintf(buf, sizeof(buf), r, NFTNL_OUTPUT_DEFAULT, 0);
	return strdup(buf);
}

static int krule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *r = nftnl_rule_alloc();

	if (nftnl_rule_nlmsg_parse(nlh, r) == 0 && nk < MAXRULES) {
		khandle[nk] = nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE);
		kdump[nk++] = rule_text(r);
	}
	nftnl_rule_free(r);
	return MNL_CB_OK;
}

static void kernel_rules(const char *table)
{
	nfnl_dump_rules(nl, NFPROTO_IPV4, table, krule_cb, NULL);
}

/* the VM's rule as a NEWRULE message built from ops->dump, printed */
static char *vm_rule_text(const struct nftvm_rule *rule)
{
	static uint8_t msg[16384];
	struct nlmsghdr *nlh = (struct nlmsghdr *)msg;
	struct nfgenmsg *nfg = (struct nfgenmsg *)(msg + NLMSG_HDRLEN);
	struct nftvm_nlbuf b = { 0 };
	struct nlattr *list, *el, *data;
	const struct nftvm_expr *e;
	struct nftnl_rule *r;
	char *text;

	memset(msg, 0, sizeof(msg));
	nlh->nlmsg_type = NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWRULE;
	nfg->nfgen_family = rule->chain->table->family;
	b.buf = msg + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*nfg));
	b.cap = sizeof(msg) - (b.buf - msg);
	nftvm_nla_put_str(&b, NFTA_RULE_TABLE, rule->chain->table->name);
	nftvm_nla_put_str(&b, NFTA_RULE_CHAIN, rule->chain->name);
	nftvm_nla_put_be64(&b, NFTA_RULE_HANDLE, rule->handle);
	/* the kernel lists the handle of the rule before as position */
	if (rule->list.prev != &rule->chain->rules)
		nftvm_nla_put_be64(&b, NFTA_RULE_POSITION,
				   nftvm_list_entry(rule->list.prev,
						    struct nftvm_rule,
						    list)->handle);
	list = nftvm_nla_nest_start(&b, NFTA_RULE_EXPRESSIONS);
	nftvm_rule_for_each_expr(e, rule) {
		el = nftvm_nla_nest_start(&b, NFTA_LIST_ELEM);
		nftvm_nla_put_str(&b, NFTA_EXPR_NAME, e->ops->name);
		data = nftvm_nla_nest_start(&b, NFTA_EXPR_DATA);
		e->ops->dump(&b, e);
		nftvm_nla_nest_end(&b, data);
		nftvm_nla_nest_end(&b, el);
	}
	nftvm_nla_nest_end(&b, list);
	ck_assert(!b.overflow);
	nlh->nlmsg_len = (uint32_t)(b.buf - msg + b.len);
	r = nftnl_rule_alloc();
	ck_assert_int_eq(nftnl_rule_nlmsg_parse(nlh, r), 0);
	text = rule_text(r);
	nftnl_rule_free(r);
	return text;
}

static const struct nftvm_rule *vm_rule(uint64_t handle)
{
	const struct nftvm_table *t;
	const struct nftvm_chain *c;
	const struct nftvm_rule *r;

	nftvm_list_for_each_entry(t, &vm->tables, list)
		nftvm_list_for_each_entry(c, &t->chains, list)
			nftvm_list_for_each_entry(r, &c->rules, list)
				if (r->handle == handle)
					return r;
	return NULL;
}

START_TEST(test_dump_like_kernel)
{
	const struct nftvm_rule *r;
	struct nftvm_err err;
	unsigned int i, same = 0;
	struct vmb v;
	char *mine;

	if (!nl)
		return;
	vmb_begin(&v);
	vmb_sample_ruleset(&v);
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	ck_assert_int_eq(nftvm_batch_process(vm, mnl_nlmsg_batch_head(v.b),
					     mnl_nlmsg_batch_size(v.b), &err),
			 0);
	ck_assert_int_ge(mnl_socket_sendto(nl, mnl_nlmsg_batch_head(v.b),
					   mnl_nlmsg_batch_size(v.b)), 0);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);
	ck_assert_int_eq(nfnl_drain(nl), 0);

	kernel_rules("d");
	ck_assert_uint_eq(nk, 20);
	for (i = 0; i < nk; i++) {
		r = vm_rule(khandle[i]);
		ck_assert_msg(r != NULL, "no VM rule %llu",
			      (unsigned long long)khandle[i]);
		mine = vm_rule_text(r);
		ck_assert_msg(!strcmp(mine, kdump[i]),
			      "rule %llu\n kernel: %s\n vm:     %s",
			      (unsigned long long)khandle[i], kdump[i], mine);
		free(mine);
		same++;
	}
	ck_assert_uint_eq(same, nk);
}
END_TEST

static int kobj_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_obj *o = nftnl_obj_alloc();
	char buf[1024];

	if (nftnl_obj_nlmsg_parse(nlh, o) == 0 && nk < MAXRULES) {
		nftnl_obj_snprintf(buf, sizeof(buf), o, NFTNL_OUTPUT_DEFAULT,
				   0);
		kdump[nk++] = strdup(buf);
	}
	nftnl_obj_free(o);
	return MNL_CB_OK;
}

/* the VM's object as a NEWOBJ message from its type's dump, printed */
static char *vm_obj_text(const struct nftvm_obj *obj)
{
	static uint8_t msg[4096];
	struct nlmsghdr *nlh = (struct nlmsghdr *)msg;
	struct nfgenmsg *nfg = (struct nfgenmsg *)(msg + NLMSG_HDRLEN);
	struct nftvm_nlbuf b = { 0 };
	struct nftnl_obj *o;
	struct nlattr *data;
	char buf[1024];

	memset(msg, 0, sizeof(msg));
	nlh->nlmsg_type = NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWOBJ;
	nfg->nfgen_family = obj->table->family;
	b.buf = msg + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*nfg));
	b.cap = sizeof(msg) - (b.buf - msg);
	nftvm_nla_put_str(&b, NFTA_OBJ_TABLE, obj->table->name);
	nftvm_nla_put_str(&b, NFTA_OBJ_NAME, obj->name);
	nftvm_nla_put_be32(&b, NFTA_OBJ_TYPE, obj->type->type);
	nftvm_nla_put_be32(&b, NFTA_OBJ_USE, obj->use);
	nftvm_nla_put_be64(&b, NFTA_OBJ_HANDLE, obj->handle);
	data = nftvm_nla_nest_start(&b, NFTA_OBJ_DATA);
	obj->type->dump(&b, obj);
	nftvm_nla_nest_end(&b, data);
	ck_assert(!b.overflow);
	nlh->nlmsg_len = (uint32_t)(b.buf - msg + b.len);
	o = nftnl_obj_alloc();
	ck_assert_int_eq(nftnl_obj_nlmsg_parse(nlh, o), 0);
	nftnl_obj_snprintf(buf, sizeof(buf), o, NFTNL_OUTPUT_DEFAULT, 0);
	nftnl_obj_free(o);
	return strdup(buf);
}

START_TEST(test_obj_dump_like_kernel)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const struct nftvm_table *t;
	const struct nftvm_obj *obj;
	struct nftnl_obj *o;
	struct nlmsghdr *nlh;
	struct nftvm_err err;
	unsigned int i = 0;
	struct vmb v;
	char *mine;
	int ret;

	if (!nl)
		return;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "o", 0);
	o = mk_obj("o", "c", NFT_OBJECT_COUNTER);
	nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_PKTS, 7);
	nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_BYTES, 700);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	o = mk_obj("o", "q", NFT_OBJECT_QUOTA);
	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_BYTES, 1000);
	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_CONSUMED, 1000);
	nftnl_obj_set_u32(o, NFTNL_OBJ_QUOTA_FLAGS, NFT_QUOTA_F_INV);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	o = mk_obj("o", "l", NFT_OBJECT_LIMIT);
	nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_RATE, 10);
	nftnl_obj_set_u64(o, NFTNL_OBJ_LIMIT_UNIT, 60);
	nftnl_obj_set_u32(o, NFTNL_OBJ_LIMIT_BURST, 4);
	nftnl_obj_set_u32(o, NFTNL_OBJ_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	vmb_chain(&v, NFPROTO_IPV4, "o", "c", -1, 0, -1, NULL);
	vmb_rule(&v, NFPROTO_IPV4, "o", "c", x_objref(NFT_OBJECT_QUOTA, "q"));
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	ck_assert_int_eq(nftvm_batch_process(vm, mnl_nlmsg_batch_head(v.b),
					     mnl_nlmsg_batch_size(v.b), &err),
			 0);
	ck_assert_int_ge(mnl_socket_sendto(nl, mnl_nlmsg_batch_head(v.b),
					   mnl_nlmsg_batch_size(v.b)), 0);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);
	ck_assert_int_eq(nfnl_drain(nl), 0);

	memset(buf, 0, sizeof(buf));
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETOBJ, NFPROTO_IPV4,
				    NLM_F_DUMP, 1);
	ck_assert_int_ge(mnl_socket_sendto(nl, nlh, nlh->nlmsg_len), 0);
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		ck_assert_int_gt(ret, 0);
		ret = mnl_cb_run(buf, ret, 0, 0, kobj_cb, NULL);
	} while (ret > 0);
	ck_assert_uint_eq(nk, 3);
	if (getenv("VM_DUMP_VERBOSE"))
		for (i = 0; i < nk; i++)
			printf("%s\n", kdump[i]);
	i = 0;
	/* the kernel lists a table's objects in creation order */
	t = nftvm_table_find(vm, NFPROTO_IPV4, "o");
	ck_assert_ptr_nonnull(t);
	nftvm_list_for_each_entry(obj, &t->objs, list) {
		mine = vm_obj_text(obj);
		ck_assert_msg(i < nk && !strcmp(mine, kdump[i]),
			      "object %s\n kernel: %s\n vm:     %s", obj->name,
			      i < nk ? kdump[i] : "-", mine);
		free(mine);
		i++;
	}
	ck_assert_uint_eq(i, 3);
}
END_TEST

static Suite *vm_dump_suite(void)
{
	Suite *s = suite_create("vm_dump");
	TCase *tc = tcase_create("dump");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dump_like_kernel);
	tcase_add_test(tc, test_obj_dump_like_kernel);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_dump_suite)
