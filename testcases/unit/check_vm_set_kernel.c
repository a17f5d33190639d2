// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set element insertion and expiry against the running kernel, in a
 * private network namespace (never the root one): the very same batches
 * of random interval elements go to nf_tables and to libnftvm, and their
 * answers (0, -EEXIST for a duplicate with NLM_F_EXCL or an overlap) must
 * agree, for boundary intervals (the kernel's rbtree backend) and for
 * concatenated ranges with a key end (pipapo).  Then elements with short
 * timeouts expire in both, and both dumps must leave them out.
 * Needs root and nf_tables: otherwise each test says SKIP and passes.
 */
#define _GNU_SOURCE
#include "check_vm_exprs.h"
#include "check_vm_netns.h"

#include <sched.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static struct nftvm *vm;
static struct mnl_socket *nl;

static void setup(void)
{
	vm = nftvm_new();
	ck_assert_ptr_nonnull(vm);
	nl = NULL;
	if (!netns_enter(false))
		return;
	nl = nfnl_open(300000);
}

static void teardown(void)
{
	if (nl)
		mnl_socket_close(nl);
	nftvm_destroy(vm);
	vm = NULL;
}

/*
 * Close the batch (its last message acknowledged), run it in both.  The
 * kernel's rbtree remembers a repeated start for the rest of a
 * transaction, which it tells by a jiffies time stamp: batches sent
 * within one jiffy share it, so the rbtree test waits one out (HZ 250
 * or more) first.
 */
static bool jiffy_apart;	/* set by the rbtree test */

static void both(struct vmb *v, int *kret, int *vret)
{
	struct nftvm_err err;

	if (jiffy_apart)
		usleep(4100);

	vmb_last(v)->nlmsg_flags |= NLM_F_ACK;
	nftnl_batch_end(mnl_nlmsg_batch_current(v->b), v->seq++);
	mnl_nlmsg_batch_next(v->b);
	*vret = nftvm_batch_process(vm, mnl_nlmsg_batch_head(v->b),
				    mnl_nlmsg_batch_size(v->b), &err);
	ck_assert_int_ge(mnl_socket_sendto(nl, mnl_nlmsg_batch_head(v->b),
					   mnl_nlmsg_batch_size(v->b)), 0);
	*kret = nfnl_ack(nl);
	mnl_nlmsg_batch_stop(v->b);
	free(v->buf);
	v->buf = NULL;
}

static void load(struct vmb *v)
{
	int k, r;

	both(v, &k, &r);
	ck_assert_int_eq(k, 0);
	ck_assert_int_eq(r, 0);
}

static struct nftnl_set *ivl_set(const char *name, uint32_t flags,
				 uint32_t klen)
{
	return mk_set("x", name, 1, NFT_SET_INTERVAL | flags, klen, 0, 0);
}

static void key4(uint8_t *k, unsigned int v)
{
	memset(k, 0, 4);
	k[3] = (uint8_t)v;
}

/* one to three boundaries of keys 0..15, each a start or an end */
static void raw_bounds(struct nftnl_set *s, unsigned int *seed)
{
	unsigned int j, n = 1 + rand_r(seed) % 3;
	uint8_t k[4];

	for (j = 0; j < n; j++) {
		key4(k, rand_r(seed) % 16);
		set_add_key(s, k, 4, rand_r(seed) % 2 ?
			    NFT_SET_ELEM_INTERVAL_END : 0);
	}
}

/*
 * One or two intervals as nft sends them, a start and the end past it
 * (an end at 0 in front now and then, as nft writes before a first
 * interval that starts above 0; a start without end now and then, an
 * interval open to the top).
 */
static void nft_bounds(struct nftnl_set *s, unsigned int *seed)
{
	unsigned int j, n = 1 + rand_r(seed) % 2, a, b;
	uint8_t k[4];

	if (rand_r(seed) % 4 == 0) {
		key4(k, 0);
		set_add_key(s, k, 4, NFT_SET_ELEM_INTERVAL_END);
	}
	for (j = 0; j < n; j++) {
		a = rand_r(seed) % 15;
		b = a + 1 + rand_r(seed) % (15 - a);
		key4(k, a);
		set_add_key(s, k, 4, 0);
		if (rand_r(seed) % 8 == 0)
			continue;	/* open to the top */
		key4(k, b);
		set_add_key(s, k, 4, NFT_SET_ELEM_INTERVAL_END);
	}
}

/*
 * Batches of interval boundaries, half as nft sends them, half any
 * starts and ends at all (which reach the kernel's odd corners: two
 * starts in a row, a repeated start remembered for the end that
 * follows), with and without NLM_F_EXCL, now and then a flush; every
 * answer compared.
 */
START_TEST(test_diff_rbtree_overlap)
{
	unsigned int seed = 4242, i, nexist = 0, nok = 0;
	const unsigned int nbatch = 600;
	struct nftnl_set *s;
	struct vmb v;
	int kr, vr;

	if (!nl)
		return;
	jiffy_apart = true;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	s = ivl_set("s", 0, 4);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	load(&v);

	for (i = 0; i < nbatch; i++) {
		vmb_begin(&v);
		s = ivl_set("s", 0, 4);
		if (rand_r(&seed) % 12 == 0) {
			vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_DELSETELEM, 0);
		} else {
			if (rand_r(&seed) % 2)
				nft_bounds(s, &seed);
			else
				raw_bounds(s, &seed);
			vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM,
				  NLM_F_CREATE |
				  (rand_r(&seed) % 3 ? 0 : NLM_F_EXCL));
		}
		nftnl_set_free(s);
		both(&v, &kr, &vr);
		ck_assert_msg(kr == vr, "batch %u: kernel %d, VM %d", i, kr,
			      vr);
		nok += kr == 0;
		nexist += kr == -EEXIST;
	}
	/* both answers occur, or the test proves little */
	ck_assert_uint_gt(nok, 100);
	ck_assert_uint_gt(nexist, 100);
	printf("rbtree intervals: %u batches, %u accepted, %u -EEXIST, "
	       "kernel and VM agree\n", nbatch, nok, nexist);
}
END_TEST

/* concatenations of two 4-byte fields, each a range of 0..7 */
START_TEST(test_diff_pipapo_overlap)
{
	unsigned int seed = 777, i, a, b, nexist = 0, nok = 0;
	uint8_t fl[NFT_REG32_COUNT] = { 4, 4 };
	struct nftnl_set_elem *e;
	uint8_t lo[8], hi[8];
	struct nftnl_set *s;
	struct vmb v;
	int kr, vr;

	if (!nl)
		return;
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	s = ivl_set("c", NFT_SET_CONCAT, 8);
	nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT, fl, 2);
	vmb_set(&v, NFPROTO_IPV4, s);
	nftnl_set_free(s);
	load(&v);

	for (i = 0; i < 300; i++) {
		vmb_begin(&v);
		s = ivl_set("c", NFT_SET_CONCAT, 8);
		if (rand_r(&seed) % 15 == 0) {
			vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_DELSETELEM, 0);
		} else {
			a = rand_r(&seed) % 8;
			b = a + rand_r(&seed) % (8 - a);
			key4(lo, a);
			key4(hi, b);
			a = rand_r(&seed) % 8;
			b = a + rand_r(&seed) % (8 - a);
			key4(lo + 4, a);
			key4(hi + 4, b);
			e = nftnl_set_elem_alloc();
			nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, lo, 8);
			nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, hi, 8);
			nftnl_set_elem_add(s, e);
			vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM,
				  NLM_F_CREATE |
				  (rand_r(&seed) % 3 ? 0 : NLM_F_EXCL));
		}
		nftnl_set_free(s);
		both(&v, &kr, &vr);
		ck_assert_msg(kr == vr, "batch %u: kernel %d, VM %d", i, kr,
			      vr);
		nok += kr == 0;
		nexist += kr == -EEXIST;
	}
	ck_assert_uint_gt(nok, 30);
	ck_assert_uint_gt(nexist, 30);
	printf("pipapo ranges: 300 batches, %u accepted, %u -EEXIST, "
	       "kernel and VM agree\n", nok, nexist);
}
END_TEST

/**
 * struct seen - what a GETSETELEM dump listed
 * @exp: per start key (its last byte, keys below 64), the time left it
 *	 was dumped with in ms, -1 for none
 */
struct seen {
	unsigned int	n;
	long long	exp[64];
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_set *s = nftnl_set_alloc();
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;
	struct seen *sn = data;
	const uint8_t *key;
	uint32_t len;

	if (nftnl_set_elems_nlmsg_parse(nlh, s) == 0) {
		it = nftnl_set_elems_iter_create(s);
		while (it && (e = nftnl_set_elems_iter_next(it))) {
			sn->n++;
			key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
			if (!key || len != 4 || key[3] >= 64 ||
			    (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS) &&
			     nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS) &
			     NFT_SET_ELEM_INTERVAL_END))
				continue;
			if (nftnl_set_elem_is_set(e,
						  NFTNL_SET_ELEM_EXPIRATION))
				sn->exp[key[3]] = (long long)
					nftnl_set_elem_get_u64(e,
						NFTNL_SET_ELEM_EXPIRATION);
		}
		nftnl_set_elems_iter_destroy(it);
	}
	nftnl_set_free(s);
	return MNL_CB_OK;
}

static void seen_init(struct seen *sn)
{
	unsigned int i;

	sn->n = 0;
	for (i = 0; i < 64; i++)
		sn->exp[i] = -1;
}

static void getelem_msg(char *buf, const char *set)
{
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;

	memset(buf, 0, MNL_SOCKET_BUFFER_SIZE);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM, NFPROTO_IPV4,
				    NLM_F_DUMP, 7);
	nftnl_set_set_str(s, NFTNL_SET_TABLE, "x");
	nftnl_set_set_str(s, NFTNL_SET_NAME, set);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
}

/* what a GETSETELEM dump of @set lists, kernel */
static unsigned int kernel_dump(const char *set, struct seen *sn)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	seen_init(sn);
	getelem_msg(buf, set);
	nfnl_dump(nl, (const struct nlmsghdr *)buf, count_cb, sn);
	return sn->n;
}

static unsigned int kernel_dump_count(const char *set)
{
	struct seen sn;

	return kernel_dump(set, &sn);
}

static int vm_reply(void *arg, const void *msg, size_t len)
{
	const struct nlmsghdr *nlh = msg;

	if (nlh->nlmsg_type != NLMSG_DONE)
		count_cb(nlh, arg);
	return 0;
}

/* ... and the VM */
static unsigned int vm_dump(const char *set, struct seen *sn)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;

	seen_init(sn);
	getelem_msg(buf, set);
	ck_assert_int_eq(nftvm_request(vm, buf, nlh->nlmsg_len, 0, vm_reply,
				       sn, NULL), 0);
	return sn->n;
}

static unsigned int vm_dump_count(const char *set)
{
	struct seen sn;

	return vm_dump(set, &sn);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Both dumps list the same elements with the same time left, give or
 * take what passes between the two (the kernel counts in jiffies).
 */
static void same_expirations(const char *set)
{
	struct seen k, v;
	unsigned int i;

	kernel_dump(set, &k);
	nftvm_set_time(vm, now_ns());
	vm_dump(set, &v);
	ck_assert_uint_eq(k.n, v.n);
	for (i = 0; i < 64; i++) {
		ck_assert_msg((k.exp[i] < 0) == (v.exp[i] < 0),
			      "set %s key %u: expiration kernel %lld, VM %lld",
			      set, i, k.exp[i], v.exp[i]);
		ck_assert_msg(llabs(k.exp[i] - v.exp[i]) < 100,
			      "set %s key %u: %lld ms left in the kernel, "
			      "%lld in the VM", set, i, k.exp[i], v.exp[i]);
	}
}

/*
 * Elements of 100 ms and of 60 s in a hash set and in an interval set,
 * dumped with the same time left by both; after 400 ms the short ones
 * are gone from both dumps.  The kernel
 * dumps no expired element; an interval's end boundary (which has no
 * timeout) stays until its garbage collector takes it with its start,
 * which an insertion walking past the expired start does: one is made
 * in both before comparing the interval set.
 */
START_TEST(test_diff_expired_dump)
{
	static const char *const names[] = { "h", "i" };
	struct nftnl_set_elem *e;
	struct nftnl_set *s;
	unsigned int i, kn, vn;
	uint8_t k[4];
	struct vmb v;

	if (!nl)
		return;
	nftvm_set_time(vm, now_ns());
	vmb_begin(&v);
	vmb_table(&v, NFPROTO_IPV4, "x", 0);
	for (i = 0; i < 2; i++) {
		s = mk_set("x", names[i], 10 + i,
			   NFT_SET_TIMEOUT | (i ? NFT_SET_INTERVAL : 0), 4,
			   0, 0);
		vmb_set(&v, NFPROTO_IPV4, s);
		key4(k, 10);
		e = nftnl_set_elem_alloc();
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, k, 4);
		nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 100);
		nftnl_set_elem_add(s, e);
		if (i) {
			key4(k, 20);
			set_add_key(s, k, 4, NFT_SET_ELEM_INTERVAL_END);
		}
		key4(k, 30);
		e = nftnl_set_elem_alloc();
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, k, 4);
		nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, 60000);
		nftnl_set_elem_add(s, e);
		if (i) {
			key4(k, 40);
			set_add_key(s, k, 4, NFT_SET_ELEM_INTERVAL_END);
		}
		vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM,
			  NLM_F_CREATE);
		nftnl_set_free(s);
	}
	load(&v);
	for (i = 0; i < 2; i++) {
		kn = kernel_dump_count(names[i]);
		vn = vm_dump_count(names[i]);
		ck_assert_uint_eq(kn, vn);
		ck_assert_uint_eq(kn, i ? 4 : 2);
		same_expirations(names[i]);
	}
	usleep(400000);
	nftvm_set_time(vm, now_ns());
	kn = kernel_dump_count("h");
	vn = vm_dump_count("h");
	ck_assert_msg(kn == vn, "hash set: kernel dumps %u, VM %u", kn, vn);
	ck_assert_uint_eq(kn, 1);
	same_expirations("h");
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "x", "h"), 1);

	/* [5, 8) walks past the expired [10, 20) */
	vmb_begin(&v);
	s = mk_set("x", "i", 11, NFT_SET_TIMEOUT | NFT_SET_INTERVAL, 4, 0, 0);
	key4(k, 5);
	set_add_key(s, k, 4, 0);
	key4(k, 8);
	set_add_key(s, k, 4, NFT_SET_ELEM_INTERVAL_END);
	vmb_elems(&v, NFPROTO_IPV4, s, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_free(s);
	load(&v);
	kn = kernel_dump_count("i");
	vn = vm_dump_count("i");
	ck_assert_msg(kn == vn, "interval set: kernel dumps %u, VM %u", kn,
		      vn);
	ck_assert_uint_eq(kn, 4);
	ck_assert_int_eq(nftvm_set_nelems(vm, NFPROTO_IPV4, "x", "i"), 4);
	printf("expiry: after 400 ms both dump 1 of 2 hash elements and "
	       "2 of 3 intervals\n");
}
END_TEST

static Suite *vm_set_kernel_suite(void)
{
	Suite *s = suite_create("vm_set_kernel");
	TCase *tc = tcase_create("kernel");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_diff_rbtree_overlap);
	tcase_add_test(tc, test_diff_pipapo_overlap);
	tcase_add_test(tc, test_diff_expired_dump);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_set_kernel_suite)
