// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftvm batch interface: object model, handles, generation ids,
 * all-or-nothing transactions and the errno/attribute of rejected input.
 */
#define _GNU_SOURCE
#include "check_vm_common.h"
#include <libnftnl/object.h>
#include "check_vm_fixture.h"

/* table ip t with base chain in (policy accept) and chain c1 */
static void load_base(void)
{
	struct vmb v;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "t", 0);
	vmb_chain(&v, NFPROTO_IPV4, "t", "in", NF_INET_LOCAL_IN, 0, NF_ACCEPT,
		  NULL);
	vmb_chain(&v, NFPROTO_IPV4, "t", "c1", -1, 0, -1, NULL);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_counter(),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 4);
}

/* expect the batch in @v to fail with @err at message @index, attr @attr */
static void expect_fail(struct vmb *v, int err, int index, int attr)
{
	int before = nftvm_object_count(vm);
	__u32 gen = nftvm_genid(vm);
	struct nftvm_err e;

	ck_assert_int_eq(vmb_send(vm, v, &e), -err);
	ck_assert_int_eq(e.error, -err);
	if (index >= 0)
		ck_assert_int_eq(e.msg_index, index);
	if (attr >= 0)
		ck_assert_int_eq(e.attr, attr);
	ck_assert_int_eq(nftvm_object_count(vm), before);
	ck_assert_uint_eq(nftvm_genid(vm), gen);
}

START_TEST(test_genid_handles)
{
	struct vmb v;

	ck_assert_uint_eq(nftvm_genid(vm), 0);
	load_base();
	ck_assert_uint_eq(nftvm_genid(vm), 1);
	/* chains took handles 1 and 2, the rule 3 */
	ck_assert_int_eq(rule_packets(vm, NFPROTO_IPV4, "t", "in", 3), 0);

	/* an empty batch changes nothing */
	vmb_begin(&v);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_uint_eq(nftvm_genid(vm), 1);

	/* re-adding an existing table without EXCL is fine */
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "t", 0);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 4);

	/* same name in another family is another table */
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV6, "t", 0);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 5);
}
END_TEST

START_TEST(test_errors_leave_state)
{
	struct vmb v;

	load_base();

	/* table exists and NLM_F_EXCL: EEXIST, blamed on the name */
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	vmb_table(&v, NFPROTO_IPV4, "t", NLM_F_EXCL);
	expect_fail(&v, EEXIST, 2, NFTA_TABLE_NAME);

	/* chain in a missing table */
	vmb_begin(&v);
	vmb_chain(&v, NFPROTO_IPV4, "nope", "c", -1, 0, -1, NULL);
	expect_fail(&v, ENOENT, 1, NFTA_CHAIN_TABLE);

	/* bad policy, unknown chain type, nat priority, bad hook */
	vmb_begin(&v);
	vmb_chain(&v, NFPROTO_IPV4, "t", "b", NF_INET_LOCAL_IN, 0, 7, NULL);
	expect_fail(&v, EINVAL, 1, NFTA_CHAIN_POLICY);
	vmb_begin(&v);
	vmb_chain(&v, NFPROTO_IPV4, "t", "b", NF_INET_LOCAL_IN, 0, 1, "xx");
	expect_fail(&v, ENOENT, 1, NFTA_CHAIN_TYPE);
	vmb_begin(&v);
	vmb_chain(&v, NFPROTO_IPV4, "t", "b", NF_INET_POST_ROUTING, -300, -1,
		  "nat");
	expect_fail(&v, EOPNOTSUPP, 1, NFTA_HOOK_PRIORITY);
	vmb_begin(&v);
	vmb_chain(&v, NFPROTO_IPV4, "t", "b", NF_INET_FORWARD, 0, -1, "nat");
	expect_fail(&v, EOPNOTSUPP, 1, NFTA_HOOK_HOOKNUM);

	/* all or nothing: good table, chain and rule, then a bad rule */
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "new", 0);
	vmb_chain(&v, NFPROTO_IPV4, "new", "c", NF_INET_LOCAL_IN, 0,
		  NF_DROP, NULL);
	vmb_rule(&v, NFPROTO_IPV4, "new", "c", x_verdict(NF_ACCEPT, NULL));
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_counter());
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 3);
	vmb_rule(&v, NFPROTO_IPV4, "new", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 4, 42));
	expect_fail(&v, ERANGE, 6, NFTA_PAYLOAD_DREG);
	ck_assert_int_eq(nftvm_rule_count(vm, NFPROTO_IPV4, "t", "in"), 1);
	ck_assert_int_eq(nftvm_rule_count(vm, NFPROTO_IPV4, "new", "c"),
			 -ENOENT);
	{
		struct pkt p;

		/* the hook lists were not touched either */
		mk_ip4(&p, "1.1.1.1", "2.2.2.2", IPPROTO_TCP, 1, 2);
		ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p,
				     NULL, NULL), NF_DROP);
		/* the deleted-then-restored rule kept its counter */
		ck_assert_int_eq(rule_packets(vm, NFPROTO_IPV4, "t", "in", 3),
				 1);
	}
}
END_TEST

START_TEST(test_registers)
{
	uint32_t v32 = 1;
	struct vmb v;

	load_base();
	/* 32-bit register index out of range */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 4, NFT_REG32_15 + 1));
	expect_fail(&v, ERANGE, 1, NFTA_PAYLOAD_DREG);
	/* 8 bytes starting at the last 32-bit register overflow */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 8, NFT_REG32_15));
	expect_fail(&v, ERANGE, 1, NFTA_PAYLOAD_DREG);
	/* a value into the verdict register */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in",
		 x_imm(NFT_REG_VERDICT, &v32, 4));
	expect_fail(&v, EINVAL, 1, NFTA_IMMEDIATE_DREG);
	/* comparing from the verdict register */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in",
		 x_cmp(NFT_REG_VERDICT, NFT_CMP_EQ, &v32, 4));
	expect_fail(&v, EINVAL, 1, NFTA_CMP_SREG);
	/* bad cmp operator, payload base, byteorder size, unknown expr */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_cmp(NFT_REG_1, 9, &v32, 4));
	expect_fail(&v, EINVAL, 1, NFTA_CMP_OP);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_payload(7, 0, 4, NFT_REG_1));
	expect_fail(&v, EOPNOTSUPP, 1, NFTA_PAYLOAD_BASE);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in",
		 x_byteorder(NFT_REG_1, NFT_REG_1, NFT_BYTEORDER_HTON, 4, 3));
	expect_fail(&v, EINVAL, 1, NFTA_BYTEORDER_SIZE);
	/* libnftnl refuses unknown names: rename "counter" in the bytes */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_counter());
	{
		char *p = memmem(v.buf, VMB_SIZE, "counter", 7);

		ck_assert_ptr_nonnull(p);
		p[1] = 'x';
	}
	expect_fail(&v, ENOENT, 1, NFTA_EXPR_NAME);
	/*
	 * cmp, range and immediate hold a kernel struct nft_data: 16
	 * bytes, longer values are -EOVERFLOW (seen
	 * with "@nh,0,160 0x..." against kernel 6.18); a bitwise's mask
	 * and xor may be longer (the kernel takes them, and fails the cmp
	 * after it).
	 */
	{
		static const uint8_t v20[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9,
						 10, 11, 12, 13, 14, 15, 16,
						 17, 18, 19, 20 };
		static const uint8_t z20[20];

		vmb_begin(&v);
		vmb_rule(&v, NFPROTO_IPV4, "t", "in",
			 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 20,
				   NFT_REG_1),
			 x_cmp(NFT_REG_1, NFT_CMP_EQ, v20, 20));
		expect_fail(&v, EOVERFLOW, 1, -1);
		vmb_begin(&v);
		vmb_rule(&v, NFPROTO_IPV4, "t", "in",
			 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 20,
				   NFT_REG_1),
			 x_range(NFT_REG_1, NFT_RANGE_EQ, v20, v20, 20));
		expect_fail(&v, EOVERFLOW, 1, -1);
		vmb_begin(&v);
		vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_imm(NFT_REG_1, v20, 20));
		expect_fail(&v, EOVERFLOW, 1, -1);
		vmb_begin(&v);
		vmb_rule(&v, NFPROTO_IPV4, "t", "in",
			 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 20,
				   NFT_REG_1),
			 x_bitwise(NFT_REG_1, NFT_REG_1, 20, v20, z20));
		ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	}
	/* 16-byte load into NFT_REG_4 fits exactly */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 0, 16, NFT_REG_4));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
}
END_TEST

START_TEST(test_jump_validation)
{
	struct vmb v;
	char name[16], next[16];
	int i;

	load_base();
	/*
	 * As the kernel since 6.10 ("prefer nft_chain_validate"): a loop
	 * no base chain reaches loads (c1 -> c2 -> c1); the jump from "in"
	 * that reaches it makes the table too deep (-EMLINK, not -ELOOP).
	 * trace-kernel.sh compares this with the running kernel.
	 */
	vmb_begin(&v);
	vmb_chain(&v, NFPROTO_IPV4, "t", "c2", -1, 0, -1, NULL);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1", x_verdict(NFT_JUMP, "c2"));
	vmb_rule(&v, NFPROTO_IPV4, "t", "c2", x_verdict(NFT_GOTO, "c1"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_counter());
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_verdict(NFT_JUMP, "c1"));
	expect_fail(&v, EMLINK, 2, -1);
	/* c1 and c2 emptied, "in" reaches c1: a self jump there is too deep */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c1", 0);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c2", 0);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_verdict(NFT_JUMP, "c1"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1", x_verdict(NFT_JUMP, "c1"));
	expect_fail(&v, EMLINK, 1, -1);
	/* ... and in c2, which nothing reaches, it loads */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c2", x_verdict(NFT_JUMP, "c2"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	/* jump to a base chain, to a missing chain */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1", x_verdict(NFT_JUMP, "in"));
	expect_fail(&v, EOPNOTSUPP, 1, NFTA_VERDICT_CHAIN);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1", x_verdict(NFT_JUMP, "zz"));
	expect_fail(&v, ENOENT, 1, NFTA_VERDICT_CHAIN);

	/* in -> d1 -> ... -> d15 is allowed, one more level is not */
	vmb_begin(&v);
	for (i = 1; i <= 16; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		vmb_chain(&v, NFPROTO_IPV4, "t", name, -1, 0, -1, NULL);
	}
	for (i = 1; i < 15; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		snprintf(next, sizeof(next), "d%d", i + 1);
		vmb_rule(&v, NFPROTO_IPV4, "t", name,
			 x_verdict(NFT_JUMP, next));
	}
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_verdict(NFT_JUMP, "d1"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "d15", x_verdict(NFT_JUMP, "d16"));
	expect_fail(&v, EMLINK, 1, -1);

	/* a loop through a verdict map element */
	{
		uint16_t key = htons(1);
		struct nftnl_set *s;

		vmb_begin(&v);
		s = mk_set("t", "vm", 3, 0, 2, NFT_DATA_VERDICT, 0);
		vmb_set(&v, NFPROTO_IPV4, s);
		vmb_rule(&v, NFPROTO_IPV4, "t", "c1",
			 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2,
				   NFT_REG_1),
			 x_lookup("vm", 3, NFT_REG_1, NFT_REG_VERDICT, 0));
		set_add_verdict(s, &key, 2, NFT_JUMP, "c1");
		vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM,
			  NLM_F_CREATE);
		nftnl_set_free(s);
		/* "in" reaches c1: the element makes the loop */
		expect_fail(&v, EMLINK, 3, -1);
	}
}
END_TEST

START_TEST(test_delete_refs)
{
	struct vmb v;

	load_base();
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_verdict(NFT_JUMP, "c1"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	/* c1 is the target of a jump */
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	expect_fail(&v, EBUSY, 1, NFTA_CHAIN_NAME);

	/* flushing the chain first releases the reference */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 0);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 2);

	/* missing objects */
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	expect_fail(&v, ENOENT, 1, NFTA_CHAIN_NAME);
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 99);
	expect_fail(&v, ENOENT, 1, NFTA_RULE_HANDLE);
	vmb_begin(&v);
	vmb_deltable(&v, NFPROTO_IPV4, "zz");
	expect_fail(&v, ENOENT, 1, NFTA_TABLE_NAME);

	/* delete and re-create in one batch, then flush the ruleset */
	vmb_begin(&v);
	vmb_deltable(&v, NFPROTO_IPV4, "t");
	vmb_table(&v, NFPROTO_IPV4, "t", 0);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 1);
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_INET, "other", 0);
	vmb_deltable(&v, NFPROTO_UNSPEC, NULL);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 0);
}
END_TEST

START_TEST(test_set_elements)
{
	uint32_t k1 = 1, k2 = 2, big[2] = { 1, 2 };
	struct nftnl_set *s;
	struct vmb v;

	load_base();
	vmb_begin(&v);
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &k1, 4, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	/* identical element again: fine without EXCL, EEXIST with it */
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	set_add_key(s, &k1, 4, 0);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM,
		  NLM_F_CREATE | NLM_F_EXCL);
	expect_fail(&v, EEXIST, 1, NFTA_LIST_ELEM);
	nftnl_set_free(s);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "s"), 1);

	/* wrong key length; data on a plain set; missing element */
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	set_add_key(s, big, 8, 0);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	expect_fail(&v, EINVAL, 1, NFTA_DATA_VALUE);
	nftnl_set_free(s);
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	set_add_value(s, &k2, 4, &k2, 4);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	expect_fail(&v, EINVAL, 1, NFTA_SET_ELEM_DATA);
	nftnl_set_free(s);
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	set_add_key(s, &k1, 4, 0);
	set_add_key(s, &k2, 4, 0);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_DELSETELEM, 0);
	/* libnftnl numbers the element nests 1, 2, ...: the second fails */
	expect_fail(&v, ENOENT, 1, 2);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "s"), 1);
	nftnl_set_free(s);

	/* a bound set cannot go; the rule and the set can go together */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_lookup("s", 1, NFT_REG_1, -1, 0));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	vmb_begin(&v);
	{
		struct nlmsghdr *nlh = vmb_hdr(&v, NFT_MSG_DELSET,
					       NFPROTO_IPV4, 0);

		nftnl_set_nlmsg_build_payload(nlh, s);
		vmb_next(&v);
	}
	expect_fail(&v, EBUSY, 1, NFTA_SET_NAME);
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c1", 0);
	{
		struct nlmsghdr *nlh = vmb_hdr(&v, NFT_MSG_DELSET,
					       NFPROTO_IPV4, 0);

		nftnl_set_nlmsg_build_payload(nlh, s);
		vmb_next(&v);
	}
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	nftnl_set_free(s);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "s"),
			 -ENOENT);
}
END_TEST

START_TEST(test_anonymous_set_lifetime)
{
	uint32_t k = 5;
	struct nftnl_set *s;
	struct vmb v;

	load_base();
	vmb_begin(&v);
	s = mk_set("t", "__set%d", 9, NFT_SET_ANONYMOUS | NFT_SET_CONSTANT,
		   4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &k, 4, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1",
		 x_meta(NFT_META_MARK, NFT_REG_1),
		 x_lookup("__set%d", 9, NFT_REG_1, -1, 0));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "__set0"), 1);

	/* a constant bound set takes no new elements */
	s = mk_set("t", "__set0", 9, 0, 4, 0, 0);
	set_add_key(s, &(uint32_t){ 6 }, 4, 0);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	expect_fail(&v, EBUSY, 1, -1);
	nftnl_set_free(s);

	/* deleting the rule takes the anonymous set with it */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c1", 0);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "__set0"),
			 -ENOENT);
}
END_TEST

/* hand-made messages: framing and attribute bounds */
static size_t raw_batch(char *buf, const void *payload, size_t plen,
			int type, int family)
{
	struct nlmsghdr *nlh;
	struct mnl_nlmsg_batch *b = mnl_nlmsg_batch_start(buf, 4096);
	size_t len;

	nftnl_batch_begin(mnl_nlmsg_batch_current(b), 1);
	mnl_nlmsg_batch_next(b);
	nlh = nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(b), type, family,
				    NLM_F_CREATE, 2);
	memcpy(mnl_nlmsg_get_payload_tail(nlh), payload, plen);
	nlh->nlmsg_len += MNL_ALIGN(plen);
	mnl_nlmsg_batch_next(b);
	nftnl_batch_end(mnl_nlmsg_batch_current(b), 3);
	mnl_nlmsg_batch_next(b);
	len = mnl_nlmsg_batch_size(b);
	mnl_nlmsg_batch_stop(b);
	return len;
}

START_TEST(test_bad_framing)
{
	char buf[4096], attrs[64];
	struct nlattr *a = (struct nlattr *)attrs;
	struct nftvm_err e;
	struct vmb v;
	size_t len;

	/* name attribute claims more bytes than the message has: it is
	 * dropped, and a table without a name is EINVAL */
	memset(attrs, 0, sizeof(attrs));
	a->nla_type = NFTA_TABLE_NAME;
	a->nla_len = 40;
	memcpy(attrs + 4, "abc", 4);
	len = raw_batch(buf, attrs, 8, NFT_MSG_NEWTABLE, NFPROTO_IPV4);
	ck_assert_int_eq(nftvm_batch_process(vm, buf, len, &e), -EINVAL);
	ck_assert_int_eq(e.msg_index, 1);
	ck_assert_uint_eq(e.seq, 2);

	/* a u32 attribute of 2 bytes is ERANGE, blamed on it */
	a->nla_len = 8;
	a[2].nla_type = NFTA_TABLE_FLAGS;
	a[2].nla_len = 6;
	len = raw_batch(buf, attrs, 16, NFT_MSG_NEWTABLE, NFPROTO_IPV4);
	ck_assert_int_eq(nftvm_batch_process(vm, buf, len, &e), -ERANGE);
	ck_assert_int_eq(e.attr, NFTA_TABLE_FLAGS);
	ck_assert_int_gt(e.attr_off, 0);

	/* a name longer than NFT_NAME_MAXLEN - 1 is ERANGE */
	{
		static char big[400];

		a = (struct nlattr *)big;
		a->nla_type = NFTA_TABLE_NAME;
		a->nla_len = 4 + 300;
		memset(big + 4, 'x', 300);
		len = raw_batch(buf, big, 304, NFT_MSG_NEWTABLE, NFPROTO_IPV4);
		ck_assert_int_eq(nftvm_batch_process(vm, buf, len, &e),
				 -ERANGE);
		ck_assert_int_eq(e.attr, NFTA_TABLE_NAME);
	}

	/* message length beyond the buffer, truncated buffers */
	a = (struct nlattr *)attrs;
	a->nla_len = 8;
	len = raw_batch(buf, attrs, 8, NFT_MSG_NEWTABLE, NFPROTO_IPV4);
	for (size_t cut = 0; cut < len; cut++)
		ck_assert_int_lt(nftvm_batch_process(vm, buf, cut, &e), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 0);
	ck_assert_int_eq(nftvm_batch_process(vm, buf, len, &e), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 1);

	/* GET in a batch, unknown family, no BATCH_END */
	len = raw_batch(buf, attrs, 8, NFT_MSG_GETTABLE, NFPROTO_IPV4);
	ck_assert_int_eq(nftvm_batch_process(vm, buf, len, &e), -EINVAL);
	len = raw_batch(buf, attrs, 8, NFT_MSG_NEWTABLE, 99);
	ck_assert_int_eq(nftvm_batch_process(vm, buf, len, &e),
			 -EAFNOSUPPORT);
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "late", 0);
	ck_assert_int_eq(vmb_send_noend(vm, &v, &e), -EINVAL);
	ck_assert_int_eq(nftvm_object_count(vm), 1);
}
END_TEST

/* flipped bytes in a valid batch: an error or a success, never a crash */
START_TEST(test_mutations)
{
	uint16_t key = htons(22);
	struct nftnl_set *s;
	char *copy, *orig;
	unsigned int seed = 1, i;
	size_t len;
	struct vmb v;

	vmb_begin(&v);
	vmb_table(&v, NFPROTO_INET, "t", 0);
	vmb_chain(&v, NFPROTO_INET, "t", "in", NF_INET_LOCAL_IN, 0, NF_DROP,
		  NULL);
	vmb_chain(&v, NFPROTO_INET, "t", "c", -1, 0, -1, NULL);
	s = mk_set("t", "m", 4, NFT_SET_INTERVAL, 2, NFT_DATA_VERDICT, 0);
	vmb_set(&v, NFPROTO_INET, s);
	set_add_verdict(s, &key, 2, NFT_JUMP, "c");
	vmb_elems(&v, NFPROTO_INET, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_INET, "t", "in", X_L4PROTO(IPPROTO_TCP),
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1),
		 x_lookup("m", 4, NFT_REG_1, NFT_REG_VERDICT, 0),
		 x_counter());
	vmb_rule(&v, NFPROTO_INET, "t", "c", X_DPORT(22),
		 x_verdict(NF_ACCEPT, NULL));
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	len = mnl_nlmsg_batch_size(v.b);
	orig = malloc(len);
	copy = malloc(len);
	memcpy(orig, mnl_nlmsg_batch_head(v.b), len);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);

	for (i = 0; i < 3000; i++) {
		struct nftvm *m = nftvm_new();
		struct nftvm_err e;
		struct pkt p;
		int n = 1 + rand_r(&seed) % 4;

		memcpy(copy, orig, len);
		while (n--)
			copy[rand_r(&seed) % len] ^= 1 << (rand_r(&seed) % 8);
		if (nftvm_batch_process(m, copy, len, &e) == 0) {
			mk_ip4(&p, "1.1.1.1", "2.2.2.2", IPPROTO_TCP, 1, 22);
			run(m, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL, NULL);
		} else {
			ck_assert_int_eq(nftvm_object_count(m), 0);
		}
		/* the same VM still takes a valid batch afterwards */
		if (i % 50 == 0) {
			nftvm_batch_process(m, orig, len, &e);
			mk_ip4(&p, "1.1.1.1", "2.2.2.2", IPPROTO_TCP, 1, 22);
			run(m, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL, NULL);
		}
		nftvm_destroy(m);
	}
	free(copy);
	free(orig);
}
END_TEST

START_TEST(test_destroy)
{
	uint32_t k1 = 1, k2 = 2;
	struct nftnl_set *s;
	struct vmb v;

	load_base();

	/* a missing table, chain, rule (by handle or chain), set, element
	 * or object is no error ... */
	vmb_begin(&v);
	vmb_deltable(&v, NFPROTO_IPV4, "zz");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYTABLE);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "zz");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYCHAIN);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 99);
	vmb_retype_last(&v, NFTVM_MSG_DESTROYRULE);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "zz", 0);
	vmb_retype_last(&v, NFTVM_MSG_DESTROYRULE);
	s = mk_set("t", "zz", 1, 0, 4, 0, 0);
	nftnl_set_nlmsg_build_payload(vmb_hdr(&v, NFT_MSG_DELSET,
					      NFPROTO_IPV4, 0), s);
	vmb_next(&v);
	nftnl_set_free(s);
	vmb_retype_last(&v, NFTVM_MSG_DESTROYSET);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 4);
	/* ... and a missing chain does not turn into a flush of the table */
	ck_assert_int_eq(nftvm_rule_count(vm, NFPROTO_IPV4, "t", "in"), 1);

	/* the table or set the object would live in must exist */
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "zz", "c1");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYCHAIN);
	expect_fail(&v, ENOENT, 1, NFTA_CHAIN_TABLE);
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "zz", "in", 3);
	vmb_retype_last(&v, NFTVM_MSG_DESTROYRULE);
	expect_fail(&v, ENOENT, 1, NFTA_RULE_TABLE);

	/* elements: the missing one is skipped, the present one goes */
	vmb_begin(&v);
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &k1, 4, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "s"), 1);
	s = mk_set("t", "s", 1, 0, 4, 0, 0);
	set_add_key(s, &k2, 4, 0);
	set_add_key(s, &k1, 4, 0);
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_DELSETELEM, 0);
	vmb_retype_last(&v, NFTVM_MSG_DESTROYSETELEM);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "s"), 0);
	/* DEL of the same is still -ENOENT, blaming the first element */
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_DELSETELEM, 0);
	expect_fail(&v, ENOENT, 1, 1);
	nftnl_set_free(s);

	/* in use is in use: DESTROY is no force */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", x_verdict(NFT_JUMP, "c1"));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYCHAIN);
	expect_fail(&v, EBUSY, 1, NFTA_CHAIN_NAME);

	/* present objects go as with DEL */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 0);
	vmb_retype_last(&v, NFTVM_MSG_DESTROYRULE);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYCHAIN);
	vmb_deltable(&v, NFPROTO_IPV4, "t");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYTABLE);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_object_count(vm), 0);

	/* GETSETELEM_RESET and beyond are no batch messages */
	vmb_begin(&v);
	vmb_deltable(&v, NFPROTO_IPV4, "t");
	vmb_retype_last(&v, NFTVM_MSG_DESTROYFLOWTABLE + 1);
	expect_fail(&v, EINVAL, 1, -1);
}
END_TEST

static void key_be(uint8_t *k, unsigned int v)
{
	memset(k, 0, 4);
	k[3] = (uint8_t)v;
}

/* one NEWSETELEM of boundaries "s<k>" / "e<k>" into interval set "r" */
static int add_bounds(const char *spec, int flags)
{
	struct nftnl_set *s = mk_set("t", "r", 7, NFT_SET_INTERVAL, 4, 0, 0);
	const char *p = spec;
	uint8_t k[4];
	struct vmb v;
	char *end;

	while (*p) {
		key_be(k, (unsigned int)strtoul(p + 1, &end, 10));
		set_add_key(s, k, 4, *p == 'e' ? NFT_SET_ELEM_INTERVAL_END : 0);
		p = end;
		while (*p == ' ')
			p++;
	}
	vmb_begin(&v);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM,
		  NLM_F_CREATE | flags);
	nftnl_set_free(s);
	return vmb_send(vm, &v, NULL);
}

/*
 * Interval overlaps at insertion, as check_vm_set_kernel finds the
 * kernel's rbtree answering them: -EEXIST for an overlap with or without
 * NLM_F_EXCL, an identical interval again only with it, nft's end marker
 * at key 0 never.
 */
START_TEST(test_interval_overlap)
{
	struct nftnl_set *s;
	struct vmb v;

	load_base();
	vmb_begin(&v);
	s = mk_set("t", "r", 7, NFT_SET_INTERVAL, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	ck_assert_int_eq(add_bounds("e0 s10 e20", 0), 0);
	ck_assert_int_eq(add_bounds("s10 e20", 0), 0);
	ck_assert_int_eq(add_bounds("s10 e20", NLM_F_EXCL), -EEXIST);
	ck_assert_int_eq(add_bounds("e0", NLM_F_EXCL), 0);
	ck_assert_int_eq(add_bounds("s15 e25", 0), -EEXIST);	/* inside */
	ck_assert_int_eq(add_bounds("s5 e15", 0), -EEXIST);	/* across */
	ck_assert_int_eq(add_bounds("s5 e25", 0), -EEXIST);	/* around */
	ck_assert_int_eq(add_bounds("s10 e15", 0), -EEXIST);	/* same start */
	ck_assert_int_eq(add_bounds("s20 e30", 0), 0);		/* adjacent */
	ck_assert_int_eq(add_bounds("s5 e10", 0), 0);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "r"), 7);
}
END_TEST

/*
 * Expired elements leave the set once the clock passes them: count,
 * lookups, the dump; an interval's end goes with its start, and a
 * verdict map element gives back the chain it jumps to.
 */
START_TEST(test_expiry_gc)
{
	struct nftnl_set_elem *e;
	struct nftnl_set *s;
	uint8_t k[4];
	struct vmb v;

	load_base();
	nftvm_set_time(vm, 1000000000ull);
	vmb_begin(&v);
	s = mk_set("t", "h", 8, NFT_SET_TIMEOUT, 4, NFT_DATA_VERDICT, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	key_be(k, 1);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, k, 4);
	nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_VERDICT, NFT_JUMP);
	nftnl_set_elem_set_str(e, NFTNL_SET_ELEM_CHAIN, "c1");
	nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 100);
	nftnl_set_elem_add(s, e);
	key_be(k, 2);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, k, 4);
	nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_VERDICT, NF_DROP);
	nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 5000);
	nftnl_set_elem_add(s, e);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	s = mk_set("t", "i", 9, NFT_SET_TIMEOUT | NFT_SET_INTERVAL, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	key_be(k, 10);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, k, 4);
	nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 100);
	nftnl_set_elem_add(s, e);
	key_be(k, 20);
	set_add_key(s, k, 4, NFT_SET_ELEM_INTERVAL_END);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "h"), 2);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "i"), 2);

	/* c1 is a verdict map's jump target */
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	expect_fail(&v, EBUSY, 1, NFTA_CHAIN_NAME);

	nftvm_set_time(vm, 1000000000ull + 99 * 1000000ull);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "h"), 2);
	nftvm_set_time(vm, 1000000000ull + 100 * 1000000ull);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "h"), 1);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "i"), 0);

	/* the reference went with the element */
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "c1");
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
}
END_TEST

/* a chain to bind, named @name, in table t */
static void vmb_bind_chain(struct vmb *v, const char *name)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, "t");
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FLAGS, NFT_CHAIN_BINDING);
	nlh = vmb_hdr(v, NFT_MSG_NEWCHAIN, NFPROTO_IPV4, NLM_F_CREATE);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	vmb_next(v);
}

/*
 * Bound chains, the rules check_vm_kernel finds the kernel keeping: one
 * jump binds, a chain nobody binds fails the batch, a second jump and
 * own deletions are refused, and the chain goes with its rule; a packet
 * runs through it as through any chain.
 */
START_TEST(test_bound_chain)
{
	struct nftvm_result res;
	struct pkt p;
	struct vmb v;

	load_base();
	vmb_begin(&v);
	vmb_bind_chain(&v, "b1");
	vmb_rule(&v, NFPROTO_IPV4, "t", "b1", x_counter(),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1", x_verdict(NFT_JUMP, "b1"));
	vmb_rule_flags(&v, NFPROTO_IPV4, "t", "in",
		       NLM_F_CREATE | NLM_F_APPEND, 0,
		       x_verdict(NFT_JUMP, "c1"), NULL);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	vmb_begin(&v);
	vmb_bind_chain(&v, "b2");
	expect_fail(&v, EINVAL, -1, -1);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c1", x_verdict(NFT_GOTO, "b1"));
	expect_fail(&v, EINVAL, 1, -1);
	vmb_begin(&v);
	vmb_delchain(&v, NFPROTO_IPV4, "t", "b1");
	expect_fail(&v, EOPNOTSUPP, 1, NFTA_CHAIN_NAME);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "b1", x_counter());
	expect_fail(&v, EOPNOTSUPP, 1, -1);

	/* the base chain's first rule drops: move it out of the way */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 3);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1000, 22);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL,
			     &res), NF_ACCEPT);
	ck_assert_str_eq(res.trace[res.ntrace - 1].chain, "b1");

	/* flushing c1 takes b1 along */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c1", 0);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_rule_count(vm, NFPROTO_IPV4, "t", "b1"),
			 -ENOENT);
}
END_TEST

/* a quota object with @bytes, as NEWOBJ (@flags) */
static int send_quota(uint64_t bytes, int flags)
{
	struct nftnl_obj *o = nftnl_obj_alloc();
	struct nlmsghdr *nlh;
	struct vmb v;

	nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, "t");
	nftnl_obj_set_str(o, NFTNL_OBJ_NAME, "q");
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, NFT_OBJECT_QUOTA);
	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_BYTES, bytes);
	vmb_begin(&v);
	nlh = vmb_hdr(&v, NFT_MSG_NEWOBJ, NFPROTO_IPV4, NLM_F_CREATE | flags);
	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_free(o);
	vmb_next(&v);
	return vmb_send(vm, &v, NULL);
}

/*
 * NEWOBJ for a quota that exists takes its new limit and keeps what it
 * consumed (check_vm_kernel compares this with the kernel): a rule
 * "quota name q" matches again once the limit grows.
 */
START_TEST(test_obj_update)
{
	struct nftnl_expr *ref = nftnl_expr_alloc("objref");
	struct nftvm_result res;
	__u64 consumed;
	struct pkt p;
	struct vmb v;

	load_base();
	ck_assert_int_eq(send_quota(50, 0), 0);
	nftnl_expr_set_u32(ref, NFTNL_EXPR_OBJREF_IMM_TYPE, NFT_OBJECT_QUOTA);
	nftnl_expr_set_str(ref, NFTNL_EXPR_OBJREF_IMM_NAME, "q");
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "in", 3);
	vmb_rule(&v, NFPROTO_IPV4, "t", "in", ref, x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1000, 53);
	/* 28 bytes each: the second passes 50, the quota no longer matches */
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL,
			     &res), NF_DROP);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL,
			     &res), NF_ACCEPT);
	ck_assert_int_eq(send_quota(100, NLM_F_EXCL), -EEXIST);
	ck_assert_int_eq(send_quota(100, 0), 0);
	ck_assert_int_eq(nftvm_obj_quota(vm, NFPROTO_IPV4, "t", "q",
					 &consumed), 0);
	ck_assert_uint_eq(consumed, 56);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, NULL,
			     &res), NF_DROP);
}
END_TEST

static Suite *vm_batch_suite(void)
{
	Suite *s = suite_create("vm_batch");
	TCase *tc = tcase_create("batch");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_genid_handles);
	tcase_add_test(tc, test_errors_leave_state);
	tcase_add_test(tc, test_registers);
	tcase_add_test(tc, test_jump_validation);
	tcase_add_test(tc, test_delete_refs);
	tcase_add_test(tc, test_set_elements);
	tcase_add_test(tc, test_anonymous_set_lifetime);
	tcase_add_test(tc, test_bad_framing);
	tcase_add_test(tc, test_mutations);
	tcase_add_test(tc, test_destroy);
	tcase_add_test(tc, test_interval_overlap);
	tcase_add_test(tc, test_expiry_gc);
	tcase_add_test(tc, test_bound_chain);
	tcase_add_test(tc, test_obj_update);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vm_batch_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
