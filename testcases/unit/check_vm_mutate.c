// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Robustness of the newer expressions: a batch using all of them
 * (vmb_sample_ruleset) is loaded with random bit flips.  A rejected
 * batch must leave the VM empty; an accepted one must evaluate packets
 * (TCP with options, UDP, short and garbage packets) and then flush
 * completely, objects included, which checks the reference counting of
 * objrefs, object maps, sets and dynsets.  Meant to run under ASan or
 * valgrind as well (no leak, no invalid access).
 */
#include "check_vm_exprs.h"

static void run_some(struct nftvm *m)
{
	static const uint8_t opts[8] = { 2, 4, 0x05, 0xb4, 1, 1, 4, 2 };
	struct nftvm_pktmeta meta = { .ct_state = NFTVM_CT_NEW, .ct_id = 9,
				      .time_ns = 5000000000ull };
	struct nftvm_result res;
	struct pkt p;

	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1, 22);
	memcpy(p.data + 40, opts, 8);
	p.data[32] = 7 << 4;
	p.len += 8;
	p.data[3] = p.len;
	run(m, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &p, &meta, &res);
	run(m, NF_INET_POST_ROUTING, NFPROTO_IPV4, &p, &meta, &res);
	run(m, NF_INET_PRE_ROUTING, NFPROTO_IPV4, &p, &meta, &res);
	mk_ip4(&p, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 1, 53);
	run(m, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &p, NULL, &res);
	p.len = 21;
	p.data[3] = 21;
	run(m, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &p, &meta, &res);
	memset(p.data, 0xff, sizeof(p.data));
	p.len = 60;
	run(m, NF_INET_LOCAL_OUT, NFPROTO_IPV4, &p, &meta, &res);
}

/* DELTABLE for every family: nothing may stay behind */
static void flush_all(struct nftvm *m)
{
	struct nftvm_err e;
	struct vmb v;

	vmb_begin(&v);
	vmb_deltable(&v, NFPROTO_UNSPEC, NULL);
	ck_assert_int_eq(vmb_send(m, &v, &e), 0);
	ck_assert_int_eq(nftvm_object_count(m), 0);
}

START_TEST(test_mutations)
{
	unsigned int seed = 7, i, loaded = 0;
	char *copy, *orig;
	struct nftvm_err e;
	size_t len;
	struct vmb v;

	vmb_begin(&v);
	vmb_sample_ruleset(&v);
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	len = mnl_nlmsg_batch_size(v.b);
	orig = malloc(len);
	copy = malloc(len);
	memcpy(orig, mnl_nlmsg_batch_head(v.b), len);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);

	/* the original loads, runs and flushes */
	{
		struct nftvm *m = nftvm_new();

		ck_assert_int_eq(nftvm_batch_process(m, orig, len, &e), 0);
		run_some(m);
		flush_all(m);
		nftvm_destroy(m);
	}
	for (i = 0; i < 2000; i++) {
		struct nftvm *m = nftvm_new();
		int n = 1 + rand_r(&seed) % 3;

		memcpy(copy, orig, len);
		while (n--)
			copy[rand_r(&seed) % len] ^= 1 << (rand_r(&seed) % 8);
		if (nftvm_batch_process(m, copy, len, &e) == 0) {
			loaded++;
			run_some(m);
			flush_all(m);
		} else {
			ck_assert_int_eq(nftvm_object_count(m), 0);
		}
		nftvm_destroy(m);
	}
	/* flips in names, values and padding mostly still load */
	ck_assert_uint_gt(loaded, 100);
	free(copy);
	free(orig);
}
END_TEST

static Suite *vm_mutate_suite(void)
{
	Suite *s = suite_create("vm_mutate");
	TCase *tc = tcase_create("mutate");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_mutations);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_mutate_suite)
