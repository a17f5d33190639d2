// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftvm stateful expressions: limit, quota, named objects (counter,
 * quota, limit) with objref and object maps, set element timeouts on the
 * VM clock, dynset add/update/delete, numgen and hash.
 */
#include "check_vm_exprs.h"
#include "check_vm_fixture.h"

#define NS_PER_MS	1000000ull
#define NS_PER_S	1000000000ull

static void base(struct vmb *v, int policy)
{
	vmb_begin(v);
	vmb_table(v, NFPROTO_IPV4, "t", 0);
	vmb_chain(v, NFPROTO_IPV4, "t", "c", NF_INET_LOCAL_IN, 0, policy,
		  NULL);
}

static int run_at(struct pkt *p, uint64_t t, struct nftvm_result *res)
{
	struct nftvm_pktmeta meta = { .time_ns = t };

	return run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, p, &meta, res);
}

START_TEST(test_limit)
{
	const uint64_t t0 = 1000 * NS_PER_S;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	nftvm_set_time(vm, t0);
	base(&v, NF_DROP);
	/* limit rate 1/second burst 2 packets accept */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_limit(1, 1, 2, NFT_LIMIT_PKTS, 0),
		 x_verdict(NF_ACCEPT, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 53);
	/* a full bucket holds 2 packets' worth */
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_DROP);
	/* half a second refills half a packet: still over */
	ck_assert_int_eq(run_at(&p, t0 + NS_PER_S / 2, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, t0 + NS_PER_S, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0 + NS_PER_S, NULL), NF_DROP);
	/* a long pause refills only up to the burst */
	ck_assert_int_eq(run_at(&p, t0 + 100 * NS_PER_S, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0 + 100 * NS_PER_S, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0 + 100 * NS_PER_S, NULL), NF_DROP);

	/* rate 0, unknown type, unknown flag */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_limit(0, 1, 0, 0, 0)), -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_LIMIT_RATE);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_limit(1, 1, 0, 2, 0)), -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_limit(1, 1, 0, 0, 2)), -EOPNOTSUPP);
	/* unit * 10^9 overflows */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_limit(1, 1ull << 62, 0, 0, 0)),
			 -EOVERFLOW);
}
END_TEST

START_TEST(test_limit_bytes_inverted)
{
	const uint64_t t0 = 50 * NS_PER_S;
	struct vmb v;
	struct pkt p;

	nftvm_set_time(vm, t0);
	base(&v, NF_ACCEPT);
	/* limit rate over 100 bytes/second burst 100 bytes drop */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_limit(100, 1, 100, NFT_LIMIT_PKT_BYTES, NFT_LIMIT_F_INV),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	/* 28-byte UDP packets: 3 fit in 100 bytes, the 4th is over */
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 53);
	ck_assert_uint_eq(p.len, 28);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_DROP);
	/* 0.28 s later there are 28 bytes again */
	ck_assert_int_eq(run_at(&p, t0 + 280 * NS_PER_MS, NULL), NF_ACCEPT);
}
END_TEST

START_TEST(test_quota)
{
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	base(&v, NF_DROP);
	/* quota 100 bytes accept; quota over 100 bytes counter */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_quota(100, 0),
		 x_verdict(NF_ACCEPT, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	/* 40, 80: within; 120 passes the quota */
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);

	/* "depleted" cannot be asked for */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_quota(100, NFT_QUOTA_F_DEPLETED)),
			 -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_quota(1ull << 63, 0)), -EOVERFLOW);
}
END_TEST

START_TEST(test_named_objects)
{
	struct nftnl_obj *o;
	struct nftvm_err err;
	__u64 pk, by, used;
	struct vmb v;
	struct pkt p;

	base(&v, NF_ACCEPT);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "c1", NFT_OBJECT_COUNTER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE);
	o = mk_obj("t", "q1", NFT_OBJECT_QUOTA);
	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_BYTES, 50);
	nftnl_obj_set_u32(o, NFTNL_OBJ_QUOTA_FLAGS, NFT_QUOTA_F_INV);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	/* counter name c1; quota name q1 (over 50 bytes) drop */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_objref(NFT_OBJECT_COUNTER, "c1"));
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_objref(NFT_OBJECT_QUOTA, "q1"), x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	ck_assert_int_eq(nftvm_obj_counter(vm, NFPROTO_IPV4, "t", "c1", &pk,
					   &by), 0);
	ck_assert_uint_eq(pk, 2);
	ck_assert_uint_eq(by, 80);
	ck_assert_int_eq(nftvm_obj_quota(vm, NFPROTO_IPV4, "t", "q1", &used),
			 0);
	ck_assert_uint_eq(used, 80);

	/* in use: -EBUSY, and the batch leaves everything as it was */
	vmb_begin(&v);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "c1", NFT_OBJECT_COUNTER),
		NFT_MSG_DELOBJ, 0);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EBUSY);
	/* re-creating with NLM_F_EXCL: -EEXIST; without: fine */
	vmb_begin(&v);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "c1", NFT_OBJECT_COUNTER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE | NLM_F_EXCL);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EEXIST);
	/* unknown object type, missing table */
	vmb_begin(&v);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "h", NFT_OBJECT_CT_HELPER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -ENOENT);
	ck_assert_uint_eq(err.attr, NFTA_OBJ_TYPE);
	/* objref to a missing object */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_objref(NFT_OBJECT_COUNTER, "nope")),
			 -ENOENT);
	/* a quota object that has consumed more than it allows */
	vmb_begin(&v);
	o = mk_obj("t", "q2", NFT_OBJECT_QUOTA);
	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_BYTES, 10);
	nftnl_obj_set_u64(o, NFTNL_OBJ_QUOTA_CONSUMED, 11);
	vmb_obj(&v, NFPROTO_IPV4, o, NFT_MSG_NEWOBJ, NLM_F_CREATE);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);

	/* flush the chain, then the object can go */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c", 0);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "c1", NFT_OBJECT_COUNTER),
		NFT_MSG_DELOBJ, 0);
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	ck_assert_int_eq(nftvm_obj_counter(vm, NFPROTO_IPV4, "t", "c1", &pk,
					   &by), -ENOENT);
	ck_assert_int_eq(nftvm_obj_quota(vm, NFPROTO_IPV4, "t", "q1", &used),
			 0);
}
END_TEST

START_TEST(test_object_map)
{
	uint16_t p22 = htons(22), p80 = htons(80);
	struct nftnl_set_elem *e;
	struct nftnl_set *s;
	struct nftvm_err err;
	__u64 pk, by;
	struct vmb v;
	struct pkt p;

	base(&v, NF_ACCEPT);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "ssh", NFT_OBJECT_COUNTER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "web", NFT_OBJECT_COUNTER),
		NFT_MSG_NEWOBJ, NLM_F_CREATE);
	/* counter name tcp dport map { 22 : "ssh", 80 : "web" } */
	s = mk_set("t", "m", 3, NFT_SET_OBJECT, 2, 0, 0);
	nftnl_set_set_u32(s, NFTNL_SET_OBJ_TYPE, NFT_OBJECT_COUNTER);
	vmb_set(&v, NFPROTO_IPV4, s);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &p22, 2);
	nftnl_set_elem_set_str(e, NFTNL_SET_ELEM_OBJREF, "ssh");
	nftnl_set_elem_add(s, e);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &p80, 2);
	nftnl_set_elem_set_str(e, NFTNL_SET_ELEM_OBJREF, "web");
	nftnl_set_elem_add(s, e);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1),
		 x_objref_map("m", 3, NFT_REG_1), x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	/* no element: no match */
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 443);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	nftvm_obj_counter(vm, NFPROTO_IPV4, "t", "ssh", &pk, &by);
	ck_assert_uint_eq(pk, 2);
	nftvm_obj_counter(vm, NFPROTO_IPV4, "t", "web", &pk, &by);
	ck_assert_uint_eq(pk, 1);

	/* an element names an object the map holds: "web" is in use */
	vmb_begin(&v);
	vmb_obj(&v, NFPROTO_IPV4, mk_obj("t", "web", NFT_OBJECT_COUNTER),
		NFT_MSG_DELOBJ, 0);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EBUSY);
	/* an object map needs its object type; objrefs need one */
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "m2", 4, NFT_SET_OBJECT,
					     2, 0, 0));
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);
	vmb_begin(&v);
	s = mk_set("t", "m3", 5, NFT_SET_OBJECT, 2, 0, 0);
	nftnl_set_set_u32(s, NFTNL_SET_OBJ_TYPE, NFT_OBJECT_COUNTER);
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &p22, 2, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);
	/* objref on a plain set */
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "plain", 6, 0, 2, 0, 0));
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_objref_map("plain", 6, NFT_REG_1));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);
}
END_TEST

START_TEST(test_element_timeouts)
{
	const uint64_t t0 = 7 * NS_PER_S;
	uint32_t a1 = inet_addr("10.0.0.1"), a2 = inet_addr("10.0.0.2");
	struct nftnl_set_elem *e;
	struct nftnl_set *s;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	nftvm_set_time(vm, t0);
	base(&v, NF_ACCEPT);
	/* set with timeout 2s; 10.0.0.1 has its own 500 ms */
	s = mk_set("t", "s", 1, NFT_SET_TIMEOUT, 4, 0, 0);
	nftnl_set_set_u64(s, NFTNL_SET_TIMEOUT, 2000);
	vmb_set(&v, NFPROTO_IPV4, s);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &a1, 4);
	nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 500);
	nftnl_set_elem_add(s, e);
	set_add_key(s, &a2, 4, 0);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_lookup("s", 1, NFT_REG_1, -1, 0), x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.9", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, t0 + 499 * NS_PER_MS, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, t0 + 500 * NS_PER_MS, NULL), NF_ACCEPT);
	mk_ip4(&p, "10.0.0.2", "10.0.0.9", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, t0 + 1999 * NS_PER_MS, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, t0 + 2 * NS_PER_S, NULL), NF_ACCEPT);

	/* a timeout on a set without the flag */
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "n", 2, 0, 4, 0, 0));
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &a1, 4);
	nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 500);
	nftnl_set_elem_add(s, e);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);
	ck_assert_uint_eq(err.attr, NFTA_SET_ELEM_TIMEOUT);
}
END_TEST

START_TEST(test_dynset)
{
	const uint64_t t0 = 100 * NS_PER_S;
	struct nftnl_set *s;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	nftvm_set_time(vm, t0);
	base(&v, NF_ACCEPT);
	s = mk_set("t", "seen", 1, NFT_SET_TIMEOUT | NFT_SET_EVAL, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	s = mk_set("t", "fixed", 2, NFT_SET_CONSTANT, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	/* tcp dport 22: update @seen { ip saddr timeout 1s } */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", X_DPORT(22),
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_dynset("seen", 1, NFT_DYNSET_OP_UPDATE, NFT_REG_1, 0, 1000),
		 x_counter());
	/* tcp dport 23: delete @seen { ip saddr } */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", X_DPORT(23),
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_dynset("seen", 1, NFT_DYNSET_OP_DELETE, NFT_REG_1, 0, 0));
	/* ip saddr @seen drop (for port 80) */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", X_DPORT(80),
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_lookup("seen", 1, NFT_REG_1, -1, 0),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, t0, NULL), NF_ACCEPT);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	run_at(&p, t0, NULL);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "seen"), 1);
	/* handles: chain 1, sets 2 and 3, the update rule 4 */
	ck_assert_uint_eq(rule_packets(vm, NFPROTO_IPV4, "t", "c", 4), 1);
	/* refreshed at 0.8 s: still there at 1.5 s, gone at 1.8 s */
	run_at(&p, t0 + 800 * NS_PER_MS, NULL);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "seen"), 1);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, t0 + 1500 * NS_PER_MS, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, t0 + 1800 * NS_PER_MS, NULL), NF_ACCEPT);
	/* back again, then deleted by a port 23 packet */
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	run_at(&p, t0 + 2 * NS_PER_S, NULL);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, t0 + 2 * NS_PER_S, NULL), NF_DROP);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 23);
	run_at(&p, t0 + 2 * NS_PER_S, NULL);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "seen"), 0);

	/* invalid: constant set, timeout on a set without timeouts,
	 * interval set, unknown op */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset("fixed", 2, NFT_DYNSET_OP_ADD, NFT_REG_1, 0, 0));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EBUSY);
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "plain", 3, 0, 4, 0, 0));
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset("plain", 3, NFT_DYNSET_OP_ADD, NFT_REG_1, 0, 1000));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
	ck_assert_uint_eq(err.attr, NFTA_DYNSET_TIMEOUT);
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "iv", 4, NFT_SET_INTERVAL,
					     4, 0, 0));
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset("iv", 4, NFT_DYNSET_OP_ADD, NFT_REG_1, 0, 0));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset("seen", 1, 7, NFT_REG_1, 0, 0));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
	/* a map needs the data register */
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "mp", 5, 0, 4, 0xffff, 4));
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset("mp", 5, NFT_DYNSET_OP_ADD, NFT_REG_1, 0, 0));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);
}
END_TEST

START_TEST(test_dynset_map_add)
{
	struct nftnl_set *s;
	struct vmb v;
	struct pkt p;

	base(&v, NF_ACCEPT);
	/* add @m { ip saddr : tcp dport }, then ip saddr map @m == 22 */
	s = mk_set("t", "m", 1, NFT_SET_EVAL, 4, 0xffff, 2);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_2),
		 x_dynset("m", 1, NFT_DYNSET_OP_ADD, NFT_REG_1, NFT_REG_2, 0));
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_lookup("m", 1, NFT_REG_1, NFT_REG_3, 0),
		 x_cmp(NFT_REG_3, NFT_CMP_EQ, (uint16_t[]){ htons(22) }, 2),
		 x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	/* the first packet stores 22; "add" keeps the first value */
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	mk_ip4(&p, "10.0.0.3", "10.0.0.2", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "m"), 2);
}
END_TEST

START_TEST(test_numgen_and_hash)
{
	static const char text[] = "Four score and seven years ago";
	struct nftvm_result res;
	struct nftvm_err err;
	unsigned int i;
	struct vmb v;
	struct pkt p;
	uint32_t m1;

	base(&v, NF_ACCEPT);
	/* meta mark set numgen inc mod 3 offset 10 */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_numgen(NFT_NG_INCREMENTAL, 3, 10, NFT_REG_1),
		 x_meta_set(NFT_META_MARK, NFT_REG_1));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	for (i = 0; i < 7; i++) {
		run_at(&p, 0, &res);
		ck_assert_uint_eq(res.meta.mark, 10 + i % 3);
	}

	/* jhash of lookup3's test string: hashlittle(s, 30, 0) is
	 * 0x17770551, with initval 1 it is 0xcd628161; modulus 2^31
	 * keeps the top 31 bits */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c", 0);
	/* (an immediate holds 16 bytes at most, as in the kernel: the
	 * string goes into NFT_REG_1 and the register after it) */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", x_imm(NFT_REG_1, text, 16),
		 x_imm(NFT_REG_2, text + 16, 14),
		 x_jhash(NFT_REG_1, 30, 1u << 31, 0, NFT_REG_3),
		 x_meta_set(NFT_META_MARK, NFT_REG_3),
		 x_jhash(NFT_REG_1, 30, 1u << 31, 1, NFT_REG_4),
		 x_meta_set(NFT_META_PRIORITY, NFT_REG_4));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	run_at(&p, 0, &res);
	ck_assert_uint_eq(res.meta.mark, 0x17770551u >> 1);
	ck_assert_uint_eq(res.meta.priority, 0xcd628161u >> 1);

	/* symhash: both directions of a flow get the same value */
	vmb_begin(&v);
	vmb_delrule(&v, NFPROTO_IPV4, "t", "c", 0);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_symhash(0xffffffffu, NFT_REG_1),
		 x_meta_set(NFT_META_MARK, NFT_REG_1));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 40000, 22);
	run_at(&p, 0, &res);
	m1 = res.meta.mark;
	mk_ip4(&p, "10.0.0.2", "10.0.0.1", IPPROTO_TCP, 22, 40000);
	run_at(&p, 0, &res);
	ck_assert_uint_eq(res.meta.mark, m1);
	mk_ip4(&p, "10.0.0.2", "10.0.0.1", IPPROTO_TCP, 23, 40000);
	run_at(&p, 0, &res);
	ck_assert_uint_ne(res.meta.mark, m1);

	/* invalid: modulus 0, offset + modulus overflows, len 0, type */
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_numgen(NFT_NG_RANDOM, 0, 0,
						 NFT_REG_1)), -ERANGE);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_numgen(NFT_NG_INCREMENTAL, 10,
						 0xfffffffa, NFT_REG_1)),
			 -EOVERFLOW);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_numgen(2, 10, 0, NFT_REG_1)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_jhash(NFT_REG_1, 0, 10, 0,
						NFT_REG_2)), -ERANGE);
}
END_TEST

START_TEST(test_meter_and_connlimit)
{
	struct nftvm_pktmeta meta = { .ct_state = NFTVM_CT_NEW };
	struct nftnl_set *s;
	struct nftvm_err err;
	struct vmb v;
	struct pkt p;

	base(&v, NF_ACCEPT);
	s = mk_set("t", "m", 1, NFT_SET_EVAL, 4, 0, 0);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	/* add @m { ip saddr limit rate over 1/minute burst 2 } drop:
	 * every source address gets a bucket of its own */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_dynset_expr(x_dynset("m", 1, NFT_DYNSET_OP_ADD, NFT_REG_1,
					0, 0),
			       x_limit(1, 60, 2, NFT_LIMIT_PKTS,
				       NFT_LIMIT_F_INV)),
		 x_verdict(NF_DROP, NULL));
	/* tcp dport 22 ct count over 2 drop */
	vmb_rule(&v, NFPROTO_IPV4, "t", "c", X_DPORT(22),
		 x_connlimit(2, NFT_CONNLIMIT_F_INV), x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.9", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	mk_ip4(&p, "10.0.0.2", "10.0.0.9", IPPROTO_TCP, 1, 80);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_ACCEPT);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "t", "m"), 2);

	/* connections 1 and 2 pass, a third is over, 1 again too */
	mk_ip4(&p, "10.0.0.3", "10.0.0.9", IPPROTO_TCP, 1, 22);
	meta.ct_id = 1;
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_ACCEPT);
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_ACCEPT);
	mk_ip4(&p, "10.0.0.4", "10.0.0.9", IPPROTO_TCP, 1, 22);
	meta.ct_id = 2;
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_ACCEPT);
	mk_ip4(&p, "10.0.0.5", "10.0.0.9", IPPROTO_TCP, 1, 22);
	meta.ct_id = 3;
	ck_assert_int_eq(run(vm, NF_INET_LOCAL_IN, NFPROTO_IPV4, &p, &meta,
			     NULL), NF_DROP);

	/* only stateful expressions per element; and only in EVAL sets */
	vmb_begin(&v);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset_expr(x_dynset("m", 1, NFT_DYNSET_OP_ADD, NFT_REG_1,
					0, 0), x_log("x", -1)));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
	vmb_begin(&v);
	vmb_set(&v, NFPROTO_IPV4, s = mk_set("t", "plain", 2, 0, 4, 0, 0));
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_dynset_expr(x_dynset("plain", 2, NFT_DYNSET_OP_ADD,
					NFT_REG_1, 0, 0), x_counter()));
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EINVAL);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, x_connlimit(1, 2)), -EOPNOTSUPP);
	ck_assert_uint_eq(err.attr, NFTA_CONNLIMIT_FLAGS);
	ck_assert_int_eq(load_one(vm, NFPROTO_IPV4, NF_INET_LOCAL_IN, NULL,
				  &err, nftnl_expr_alloc("connlimit")),
			 -EINVAL);
}
END_TEST

START_TEST(test_set_counters)
{
	uint32_t a1 = inet_addr("10.0.0.1"), a2 = inet_addr("10.0.0.2");
	struct nftnl_set_elem *e;
	struct nftnl_expr *c;
	struct nftnl_set *s;
	struct nftvm_err err;
	__u64 pk = 0, by = 0;
	struct vmb v;
	struct pkt p;

	base(&v, NF_ACCEPT);
	/* set s { type ipv4_addr; counter; elements = { 10.0.0.1,
	 * 10.0.0.2 counter packets 5 bytes 500 } } */
	s = mk_set("t", "s", 1, NFT_SET_EXPR, 4, 0, 0);
	nftnl_set_add_expr(s, nftnl_expr_alloc("counter"));
	vmb_set(&v, NFPROTO_IPV4, s);
	set_add_key(s, &a1, 4, 0);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &a2, 4);
	c = nftnl_expr_alloc("counter");
	nftnl_expr_set_u64(c, NFTNL_EXPR_CTR_PACKETS, 5);
	nftnl_expr_set_u64(c, NFTNL_EXPR_CTR_BYTES, 500);
	nftnl_set_elem_add_expr(e, c);
	nftnl_set_elem_add(s, e);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	vmb_rule(&v, NFPROTO_IPV4, "t", "c",
		 x_payload(NFT_PAYLOAD_NETWORK_HEADER, 12, 4, NFT_REG_1),
		 x_lookup("s", 1, NFT_REG_1, -1, 0), x_verdict(NF_DROP, NULL));
	ck_assert_int_eq(vmb_send(vm, &v, NULL), 0);

	mk_ip4(&p, "10.0.0.1", "10.0.0.9", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	mk_ip4(&p, "10.0.0.2", "10.0.0.9", IPPROTO_TCP, 1, 22);
	ck_assert_int_eq(run_at(&p, 0, NULL), NF_DROP);
	ck_assert_int_eq(nftvm_elem_counter(vm, NFPROTO_IPV4, "t", "s", &a1,
					    4, &pk, &by), 0);
	ck_assert_uint_eq(pk, 2);
	ck_assert_uint_eq(by, 80);
	ck_assert_int_eq(nftvm_elem_counter(vm, NFPROTO_IPV4, "t", "s", &a2,
					    4, &pk, &by), 0);
	ck_assert_uint_eq(pk, 6);
	ck_assert_uint_eq(by, 540);

	/* an element's expression must be of the set's type; only
	 * stateful expressions; connlimit not in a timeout set */
	vmb_begin(&v);
	s = mk_set("t", "s", 1, NFT_SET_EXPR, 4, 0, 0);
	e = nftnl_set_elem_alloc();
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &a1, 4);
	nftnl_set_elem_add_expr(e, x_quota(10, 0));
	nftnl_set_elem_add(s, e);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
	vmb_begin(&v);
	s = mk_set("t", "s2", 2, NFT_SET_EXPR, 4, 0, 0);
	nftnl_set_add_expr(s, x_log(NULL, -1));
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
	vmb_begin(&v);
	s = mk_set("t", "s3", 3, NFT_SET_EXPR | NFT_SET_TIMEOUT, 4, 0, 0);
	nftnl_set_add_expr(s, x_connlimit(1, 0));
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	ck_assert_int_eq(vmb_send(vm, &v, &err), -EOPNOTSUPP);
}
END_TEST

static Suite *vm_state_suite(void)
{
	Suite *s = suite_create("vm_state");
	TCase *tc = tcase_create("state");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_limit_bytes_inverted);
	tcase_add_test(tc, test_quota);
	tcase_add_test(tc, test_named_objects);
	tcase_add_test(tc, test_object_map);
	tcase_add_test(tc, test_element_timeouts);
	tcase_add_test(tc, test_dynset);
	tcase_add_test(tc, test_dynset_map_add);
	tcase_add_test(tc, test_numgen_and_hash);
	tcase_add_test(tc, test_meter_and_connlimit);
	tcase_add_test(tc, test_set_counters);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_state_suite)
