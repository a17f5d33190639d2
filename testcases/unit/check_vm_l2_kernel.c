// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Differential test of the layer 2 packet path against the running
 * kernel: in a private network namespace (never the root one) a veth
 * pair va/vb is created, the same batch (a netdev table with two ingress
 * chains on vb and an inet table with an ingress chain on vb; or, with
 * vb a port of bridge br0, a bridge table with two prerouting chains) is
 * loaded into nf_tables and into libnftvm, random Ethernet frames (IPv4
 * TCP/UDP, IPv6, ARP, 802.1Q tagged, double tagged, short) are sent on
 * va with a packet socket, so the kernel's vb ingress (or br0's
 * prerouting) sees them, and through the VM's; then every rule counter
 * is read back from the kernel and compared with the VM's.  Frames of the kernel's own (IPv6 neighbour
 * discovery, ...) are told apart by their source MAC address.
 * Needs root, nf_tables with netdev ingress, ip(8): otherwise SKIP.
 */
#define _GNU_SOURCE
#include "check_vm_exprs.h"
#include "check_vm_netns.h"

#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define NFRAMES		400
#define MAXRULES	64

static const uint8_t mark_mac[6] = { 0x02, 0x6e, 0x66, 0x74, 0x00, 0x01 };

struct kctr {
	char		chain[16];
	uint64_t	handle;
	uint64_t	packets;
};

static struct nftvm *vm;
static struct mnl_socket *nl;
static int pk = -1;
static unsigned int vb_index;
static struct kctr kc[MAXRULES];
static unsigned int nkc;

static void setup(void)
{
	vm = nftvm_new();
	ck_assert_ptr_nonnull(vm);
	nl = NULL;
	pk = -1;
	if (!netns_enter(false))
		return;
	if (system("ip link add va type veth peer name vb 2>/dev/null && "
		   "ip link set va up && ip link set vb up") != 0) {
		printf("SKIP: no veth pair\n");
		return;
	}
	vb_index = if_nametoindex("vb");
	nl = nfnl_open(300000);
	if (!nl)
		return;
	pk = socket(AF_PACKET, SOCK_RAW, 0);
}

static void teardown(void)
{
	if (nl)
		mnl_socket_close(nl);
	if (pk >= 0)
		close(pk);
	nftvm_destroy(vm);
	vm = NULL;
}

static struct nftnl_expr *eq(const void *v, uint32_t len)
{
	return x_cmp(NFT_REG_1, NFT_CMP_EQ, v, len);
}

static struct nftnl_expr *eq16(uint16_t v)
{
	uint16_t be = htons(v);

	return eq(&be, 2);
}

static struct nftnl_expr *eq8(uint8_t v)
{
	return eq(&v, 1);
}

static struct nftnl_expr *ll(uint32_t off, uint32_t len)
{
	return x_payload(NFT_PAYLOAD_LL_HEADER, off, len, NFT_REG_1);
}

static struct nftnl_expr *nh(uint32_t off, uint32_t len)
{
	return x_payload(NFT_PAYLOAD_NETWORK_HEADER, off, len, NFT_REG_1);
}

static struct nftnl_expr *th(uint32_t off, uint32_t len)
{
	return x_payload(NFT_PAYLOAD_TRANSPORT_HEADER, off, len, NFT_REG_1);
}

static struct nftnl_expr *meta(uint32_t key)
{
	return x_meta(key, NFT_REG_1);
}

/**
 * struct l2fam - where the ruleset hooks: netdev ingress on vb (with an
 * inet ingress table beside it) or bridge prerouting (vb a port of br0)
 */
struct l2fam {
	int		family;
	const char	*table;
	unsigned int	hook;
};

static const struct l2fam fam_netdev = {
	NFPROTO_NETDEV, "n", NF_NETDEV_INGRESS
};
/* NF_BR_PRE_ROUTING is 0 too; linux/netfilter_bridge.h and net/if.h
 * do not go together */
static const struct l2fam fam_bridge = {
	NFPROTO_BRIDGE, "b", NF_INET_PRE_ROUTING
};

static void l2chain(struct vmb *v, const struct l2fam *f, const char *name,
		    int prio)
{
	if (f->family == NFPROTO_NETDEV)
		vmb_devchain(v, f->family, f->table, name, (int)f->hook, prio,
			     "vb");
	else
		vmb_chain(v, f->family, f->table, name, (int)f->hook, prio,
			  NF_ACCEPT, NULL);
}

/* the ruleset: every rule counts, few decide */
static void ruleset(struct vmb *v, const struct l2fam *f)
{
	uint16_t vmask = htons(0x0fff);
	uint32_t len60 = 60, len40 = 40;
	uint8_t a1[4], a6[16];

	inet_pton(AF_INET, "10.0.0.1", a1);
	inet_pton(AF_INET6, "2001:db8::1", a6);
	vmb_begin(v);
	vmb_table(v, f->family, f->table, 0);
	l2chain(v, f, "first", -10);
	l2chain(v, f, "second", 10);

	/* the kernel's own frames leave at once, in every chain */
	vmb_rule(v, f->family, f->table, "first", ll(6, 6),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, mark_mac, 6),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(v, f->family, f->table, "first", x_counter());
	vmb_rule(v, f->family, f->table, "first", ll(12, 2), eq16(0x0800),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", ll(12, 2), eq16(0x8100),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", ll(12, 2), eq16(0x88a8),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", ll(12, 2), eq16(0x8100),
		 ll(14, 2), x_bitwise(NFT_REG_1, NFT_REG_1, 2, &vmask, "\0\0"),
		 eq16(10), x_counter());
	vmb_rule(v, f->family, f->table, "first", ll(16, 2), eq16(0x0800),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_PROTOCOL),
		 eq16(0x0800), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_PROTOCOL),
		 eq16(0x86dd), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_PROTOCOL),
		 eq16(0x0806), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_PROTOCOL),
		 eq16(0x8100), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_L4PROTO),
		 eq8(IPPROTO_TCP), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_L4PROTO),
		 eq8(IPPROTO_UDP), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_NFPROTO),
		 eq8((uint8_t)f->family), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_LEN),
		 eq(&len60, 4), x_counter());
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_LEN),
		 eq(&len40, 4), x_counter());
	vmb_rule(v, f->family, f->table, "first", nh(12, 4), eq(a1, 4),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", nh(8, 16), eq(a6, 16),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", nh(6, 2), eq16(1),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", th(2, 2), eq16(22),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", th(2, 2), eq16(53),
		 x_counter());
	vmb_rule(v, f->family, f->table, "first", ll(0, 1), eq8(0xff),
		 x_counter());
	/* vlan 99 and tcp dport 23 stop here */
	vmb_rule(v, f->family, f->table, "first", ll(12, 2), eq16(0x8100),
		 ll(14, 2), x_bitwise(NFT_REG_1, NFT_REG_1, 2, &vmask, "\0\0"),
		 eq16(99), x_counter(), x_verdict(NF_DROP, NULL));
	vmb_rule(v, f->family, f->table, "first", meta(NFT_META_L4PROTO),
		 eq8(IPPROTO_TCP), th(2, 2), eq16(23), x_counter(),
		 x_verdict(NF_DROP, NULL));

	vmb_rule(v, f->family, f->table, "second", ll(6, 6),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, mark_mac, 6),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(v, f->family, f->table, "second", x_counter());
	vmb_rule(v, f->family, f->table, "second", meta(NFT_META_PROTOCOL),
		 eq16(0x0800), x_counter());

	if (f->family != NFPROTO_NETDEV)
		return;
	vmb_table(v, NFPROTO_INET, "i", 0);
	vmb_devchain(v, NFPROTO_INET, "i", "ing", NF_INET_INGRESS, 0, "vb");
	vmb_rule(v, NFPROTO_INET, "i", "ing", ll(6, 6),
		 x_cmp(NFT_REG_1, NFT_CMP_NEQ, mark_mac, 6),
		 x_verdict(NF_ACCEPT, NULL));
	vmb_rule(v, NFPROTO_INET, "i", "ing", x_counter());
	vmb_rule(v, NFPROTO_INET, "i", "ing", meta(NFT_META_NFPROTO),
		 eq8(NFPROTO_IPV4), x_counter());
	vmb_rule(v, NFPROTO_INET, "i", "ing", meta(NFT_META_NFPROTO),
		 eq8(NFPROTO_IPV6), x_counter());
	vmb_rule(v, NFPROTO_INET, "i", "ing", nh(12, 4), eq(a1, 4),
		 x_counter());
	vmb_rule(v, NFPROTO_INET, "i", "ing", th(2, 2), eq16(53),
		 x_counter());
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nftnl_expr_iter *it;
	struct nftnl_expr *e;

	if (nftnl_rule_nlmsg_parse(nlh, r) < 0) {
		nftnl_rule_free(r);
		return MNL_CB_ERROR;
	}
	it = nftnl_expr_iter_create(r);
	while ((e = nftnl_expr_iter_next(it)))
		if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME),
			    "counter") && nkc < MAXRULES) {
			snprintf(kc[nkc].chain, sizeof(kc[nkc].chain), "%s",
				 nftnl_rule_get_str(r, NFTNL_RULE_CHAIN));
			kc[nkc].handle = nftnl_rule_get_u64(r,
							NFTNL_RULE_HANDLE);
			kc[nkc].packets = nftnl_expr_get_u64(e,
						NFTNL_EXPR_CTR_PACKETS);
			nkc++;
		}
	nftnl_expr_iter_destroy(it);
	nftnl_rule_free(r);
	return MNL_CB_OK;
}

/* read every counter of @table from the kernel into kc[] */
static void kernel_counters(int family, const char *table)
{
	nkc = 0;
	nfnl_dump_rules(nl, family, table, rule_cb, NULL);
}

/* the kernel's count of our frames seen by the first chain */
static uint64_t kernel_seen(const struct l2fam *f)
{
	kernel_counters(f->family, f->table);
	return nkc ? kc[0].packets : 0;
}

static unsigned int compare(int family, const char *table)
{
	__u64 p, b;
	unsigned int i, n = 0;

	kernel_counters(family, table);
	for (i = 0; i < nkc; i++) {
		ck_assert_int_eq(nftvm_rule_counters(vm, family, table,
						     kc[i].chain,
						     kc[i].handle, &p, &b),
				 0);
		ck_assert_msg(p == kc[i].packets,
			      "%s %s rule %llu: kernel %llu, VM %llu", table,
			      kc[i].chain, (unsigned long long)kc[i].handle,
			      (unsigned long long)kc[i].packets,
			      (unsigned long long)p);
		n++;
	}
	return n;
}

/* a random frame from our source MAC */
static void mk_random(struct pkt *f, unsigned int *seed)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x09 };
	static const uint16_t vids[] = { 10, 99, 7 };
	static const char *const a4[] = { "10.0.0.1", "10.0.0.2" };
	static const char *const a6[] = { "2001:db8::1", "2001:db8::2" };
	static const uint16_t ports[] = { 22, 23, 53, 80 };
	unsigned int kind = rand_r(seed) % 6, tags = rand_r(seed) % 4;
	uint8_t proto = rand_r(seed) % 2 ? IPPROTO_TCP : IPPROTO_UDP;
	uint16_t dport = ports[rand_r(seed) % 4], type;
	struct pkt l3;
	uint32_t off = 12, i;

	switch (kind) {
	case 0:
	case 1:
	case 2:
		mk_ip4(&l3, a4[rand_r(seed) % 2], "10.0.0.9", proto, 1000,
		       dport);
		type = 0x0800;
		break;
	case 3:
		mk_ip6(&l3, a6[rand_r(seed) % 2], "2001:db8::9", proto, 1000,
		       dport);
		type = 0x86dd;
		break;
	case 4:
		memset(&l3, 0, sizeof(l3));
		l3.data[1] = 1;
		l3.data[2] = 0x08;
		l3.data[4] = 6;
		l3.data[5] = 4;
		l3.data[7] = 1 + rand_r(seed) % 2;
		l3.len = 28;
		type = 0x0806;
		break;
	default:
		/* something else, a few bytes of it */
		memset(&l3, 0xab, sizeof(l3));
		l3.len = 2 + rand_r(seed) % 40;
		type = 0x88b5;
		break;
	}
	memset(f, 0, sizeof(*f));
	memcpy(f->data, rand_r(seed) % 2 ? bcast : other, 6);
	memcpy(f->data + 6, mark_mac, 6);
	/* 0 or 3: untagged; 1: one 802.1Q tag; 2: 802.1ad + 802.1Q */
	if (tags == 2) {
		f->data[off++] = 0x88;
		f->data[off++] = 0xa8;
		f->data[off++] = 0;
		f->data[off++] = 5;
	}
	if (tags == 1 || tags == 2) {
		i = vids[rand_r(seed) % 3];
		f->data[off++] = 0x81;
		f->data[off++] = 0x00;
		f->data[off++] = (uint8_t)(i >> 8);
		f->data[off++] = (uint8_t)i;
	}
	f->data[off++] = (uint8_t)(type >> 8);
	f->data[off++] = (uint8_t)type;
	/* an IPv4 header cut short now and then */
	if (type == 0x0800 && rand_r(seed) % 8 == 0)
		l3.len = 12;
	memcpy(f->data + off, l3.data, l3.len);
	f->len = off + l3.len;
}

/* the same random frames through the kernel's hook and the VM's */
static void diff_frames(const struct l2fam *fam)
{
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = 6 };
	struct nftvm_pktmeta m = { .iiftype = 1 };
	struct nftvm_result res;
	struct nftvm_pkt vp;
	struct nftvm_err err;
	unsigned int i, seed = 20261206, n, tries;
	struct pkt f;
	struct vmb v;

	ruleset(&v, fam);
	nftnl_batch_end(mnl_nlmsg_batch_current(v.b), v.seq++);
	mnl_nlmsg_batch_next(v.b);
	ck_assert_int_eq(nftvm_batch_process(vm, mnl_nlmsg_batch_head(v.b),
					     mnl_nlmsg_batch_size(v.b),
					     &err), 0);
	ck_assert_int_ge(mnl_socket_sendto(nl, mnl_nlmsg_batch_head(v.b),
					   mnl_nlmsg_batch_size(v.b)), 0);
	i = nfnl_drain(nl);
	mnl_nlmsg_batch_stop(v.b);
	free(v.buf);
	if ((int)i < 0) {
		printf("SKIP: kernel refused the %s ruleset (%d)\n",
		       fam->table, (int)i);
		return;
	}

	to.sll_ifindex = (int)if_nametoindex("va");
	m.iif = vb_index;
	strcpy(m.iifname, "vb");
	for (i = 0; i < NFRAMES; i++) {
		mk_random(&f, &seed);
		ck_assert_int_eq(sendto(pk, f.data, f.len, 0,
					(struct sockaddr *)&to, sizeof(to)),
				 (ssize_t)f.len);
		vp.data = f.data;
		vp.len = f.len;
		ck_assert_int_eq(nftvm_eval(vm, fam->hook,
					    (unsigned int)fam->family, &vp,
					    &m, &res), 0);
	}
	/* delivery through the backlog is asynchronous: wait for all */
	for (tries = 0; tries < 50 && kernel_seen(fam) < NFRAMES; tries++)
		usleep(20000);
	ck_assert_uint_eq(kernel_seen(fam), NFRAMES);
	n = compare(fam->family, fam->table);
	if (fam->family == NFPROTO_NETDEV)
		n += compare(NFPROTO_INET, "i");
	printf("%s: %u frames, %u counters, kernel and VM agree\n",
	       fam->family == NFPROTO_NETDEV ? "netdev ingress" :
	       "bridge prerouting", NFRAMES, n);
}

START_TEST(test_diff_netdev_ingress)
{
	if (!nl || pk < 0)
		return;
	diff_frames(&fam_netdev);
}
END_TEST

/*
 * vb a port of bridge br0: its frames pass the bridge's prerouting.
 * br_netfilter, when loaded, hooks there too (priority 0) and sends IP
 * frames through the IP stack's hooks, dropping bad headers: not
 * nf_tables, so it is switched off in this namespace.
 */
START_TEST(test_diff_bridge_prerouting)
{
	if (!nl || pk < 0)
		return;
	if (system("ip link add br0 type bridge 2>/dev/null && "
		   "ip link set vb master br0 && ip link set br0 up") != 0) {
		printf("SKIP: no bridge\n");
		return;
	}
	if (system("for f in iptables ip6tables arptables; do "
		   "p=/proc/sys/net/bridge/bridge-nf-call-$f; "
		   "[ ! -e $p ] || echo 0 > $p || exit 1; done") != 0) {
		printf("SKIP: cannot switch br_netfilter off\n");
		return;
	}
	diff_frames(&fam_bridge);
}
END_TEST

static Suite *vm_l2_kernel_suite(void)
{
	Suite *s = suite_create("vm_l2_kernel");
	TCase *tc = tcase_create("kernel");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_diff_netdev_ingress);
	tcase_add_test(tc, test_diff_bridge_prerouting);
	suite_add_tcase(s, tc);
	return s;
}

VM_SUITE_MAIN(vm_l2_kernel_suite)
