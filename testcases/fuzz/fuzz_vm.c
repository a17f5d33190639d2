// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the VM's netlink interface and packet path (kmod/).
 * Whatever the bytes, nftvm_batch_process() either applies a batch or
 * refuses it with an errno and the failing message and attribute, the
 * dumps of what it holds stay well-formed, and nftvm_eval() runs any
 * packet bytes through any family and hook without a crash, leak,
 * out-of-bounds access or undefined behaviour.
 *
 * The first input byte picks the mode:
 *   0  raw: the rest is one batch for an empty VM;
 *   1  edit: one of the base rulesets below, compiled by nftc at start,
 *      with byte edits from the input (2-byte offset, value), then the
 *      rest of the input is a packet;
 *   2  second batch: a base ruleset loaded, then the input as a second
 *      batch against that state (deletes, flushes, updates, aborts),
 *      and its tail as a packet.
 * Edits keep the messages' framing mostly intact, so the attribute
 * parsers, validation and transactions are reached, not only the
 * netlink header checks.
 *
 * Build and run: testcases/fuzz/build-and-run.sh -T vm.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <nftvm/nftvm.h>
#include "nftc.h"
#include "linearize.h"

#define FUZZ_MAX_INPUT	(16 * 1024)
#define MAX_EDITS	16
#define DUMP_BUF	(64 * 1024)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Rulesets that use most expressions, sets and every family's hooks. */
static const char *const base_text[] = {
	"table inet f {\n"
	" set blk { type ipv4_addr; flags interval, timeout;"
	"  elements = { 10.0.0.0/8 timeout 1s, 192.0.2.1 } }\n"
	" set seen { type ipv4_addr . inet_service; flags dynamic, timeout;"
	"  timeout 2s; size 64; }\n"
	" map pm { type inet_service : verdict; elements = { 22 : jump ssh,"
	"  80 : accept } }\n"
	" counter c { }\n quota q { over 10 kbytes }\n"
	" chain ssh { ct state new limit rate 3/second burst 2 packets"
	"  accept; counter drop }\n"
	" chain in { type filter hook input priority 0; policy drop;\n"
	"  ct state established,related accept\n"
	"  ip saddr @blk counter drop\n"
	"  ip6 nexthdr ipv6-icmp accept\n"
	"  tcp flags & (syn | ack) == syn tcp option maxseg size 1-500 drop\n"
	"  update @seen { ip saddr . tcp dport counter }\n"
	"  tcp dport vmap @pm\n"
	"  udp dport { 53, 123, 1000-2000 } counter name c accept\n"
	"  meta mark set ip dscp map { 0 : 1, 46 : 2 } quota name q\n"
	"  ip6 saddr . udp dport { 2001:db8::1 . 53 } reject\n"
	"  jhash ip saddr mod 4 seed 7 0 numgen inc mod 2 1 log prefix \"x\"\n"
	"  ip6 hoplimit 1 tcp dport 8 reject with tcp reset\n"
	"  @th,16,16 0x16 @nh,8,8 != 6 ct mark set 0x5 notrack\n"
	" }\n"
	" chain out { type filter hook output priority 0;"
	"  meta skuid 0 meta l4proto icmp counter accept;"
	"  ip daddr 198.51.100.0/24 tcp dport 1-1024 drop }\n"
	"}\n"
	"table ip n {\n"
	" chain pre { type nat hook prerouting priority -100;"
	"  tcp dport 8080 dnat to 10.0.0.2:80;"
	"  udp dport 53 redirect to :5353 }\n"
	" chain post { type nat hook postrouting priority 100;"
	"  oifname \"eth0\" masquerade;"
	"  ip saddr 10.0.0.0/8 snat to 192.0.2.1-192.0.2.9 }\n"
	" chain mangle { type filter hook forward priority -150;"
	"  ip ttl set 64 ip checksum 0 tcp dport set 81 }\n"
	"}\n",

	"table bridge b {\n"
	" chain pre { type filter hook prerouting priority 0;"
	"  ether saddr 02:00:00:00:00:01 drop; vlan id 10 accept;"
	"  ether type arp counter; ip protocol udp udp dport 67 drop }\n"
	" chain forward { type filter hook forward priority 0; policy drop;"
	"  ether type ip6 ip6 daddr ff02::1 accept; meta iifname \"veth0\""
	"  accept }\n"
	"}\n"
	"table netdev d {\n"
	" chain ing { type filter hook ingress device \"lo\" priority 0;"
	"  ether type ip ip saddr 127.0.0.2 drop;"
	"  meta protocol ip6 ip6 nexthdr tcp tcp dport 22 accept }\n"
	"}\n"
	"table arp a {\n"
	" chain in { type filter hook input priority 0;"
	"  arp operation request arp htype 1 counter accept;"
	"  arp operation reply drop }\n"
	"}\n",
};
#define NBASE (sizeof(base_text) / sizeof(base_text[0]))

struct blob {
	uint8_t	*buf;
	size_t	len;
};

static struct blob base[NBASE];

/* nft text -> the batch bytes nft --offline would hand the VM */
static int compile(const char *text, struct blob *out)
{
	struct nftc_batch *batch = NULL;
	struct nftc_ctx *ctx;
	struct list_head cmds;
	unsigned int i, n;
	int ret = -1;

	ctx = nftc_ctx_alloc();
	if (!ctx)
		return -1;
	init_list_head(&cmds);
	if (nftc_parse_buffer(ctx, text, &cmds) < 0 ||
	    nftc_evaluate(ctx, &cmds) < 0)
		goto out;
	batch = nftc_batch_alloc(1);
	if (!batch || nftc_linearize(ctx, &cmds, batch, NULL) < 0 ||
	    nftc_batch_end(batch) < 0)
		goto out;
	n = nftc_batch_chunks(batch);
	out->len = 0;
	out->buf = NULL;
	for (i = 0; i < n; i++) {
		size_t len;
		const void *p = nftc_batch_chunk(batch, i, &len);
		uint8_t *nb = realloc(out->buf, out->len + len);

		if (!nb)
			goto out;
		out->buf = nb;
		memcpy(out->buf + out->len, p, len);
		out->len += len;
	}
	ret = 0;
out:
	if (ret < 0)
		erec_queue_format(stderr, &ctx->erq);
	nftc_batch_free(batch);
	cmd_list_free(&cmds);
	nftc_ctx_free(ctx);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsigned int i;

	(void)argc;
	(void)argv;
	for (i = 0; i < NBASE; i++) {
		struct nftvm *vm = nftvm_new();
		struct nftvm_err err;

		if (compile(base_text[i], &base[i]) < 0) {
			fprintf(stderr, "fuzz_vm: base ruleset %u does not "
				"compile\n", i);
			abort();
		}
		/* unedited, each must load: the edits start from a VM
		 * state, not from a refusal */
		if (!vm || nftvm_batch_process(vm, base[i].buf, base[i].len,
					       &err) < 0) {
			fprintf(stderr, "fuzz_vm: the VM refuses base ruleset "
				"%u (error %d, message %d)\n", i,
				vm ? err.error : 0, vm ? err.msg_index : -1);
			abort();
		}
		nftvm_destroy(vm);
	}
	return 0;
}

/* A batch the VM refused names a message of it and keeps nothing. */
static void load(struct nftvm *vm, const uint8_t *buf, size_t len)
{
	struct nftvm_err err;
	uint32_t gen = nftvm_genid(vm);
	int ret;

	memset(&err, 0, sizeof(err));
	ret = nftvm_batch_process(vm, buf, len, &err);
	if (ret < 0 && nftvm_genid(vm) != gen)
		abort();	/* a refused batch moved the generation */
	if (ret < 0 && err.attr_off > (long)len)
		abort();	/* the failing attribute lies outside the batch */
}

static int count_reply(void *arg, const void *msg, size_t len)
{
	(void)msg;
	*(size_t *)arg += len;
	return 0;
}

/* Dump every kind of object back, as nft list ruleset asks for them. */
static void dump_all(struct nftvm *vm)
{
	static const uint8_t types[] = {
		NFT_MSG_GETTABLE, NFT_MSG_GETCHAIN, NFT_MSG_GETSET,
		NFT_MSG_GETRULE, NFT_MSG_GETOBJ, NFT_MSG_GETGEN,
	};
	struct {
		struct nlmsghdr	nlh;
		struct nfgenmsg	nfg;
	} req;
	struct nftvm_err err;
	unsigned int i;
	size_t total;

	for (i = 0; i < sizeof(types); i++) {
		memset(&req, 0, sizeof(req));
		req.nlh.nlmsg_len = sizeof(req);
		req.nlh.nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | types[i];
		req.nlh.nlmsg_flags = NLM_F_REQUEST |
			(types[i] == NFT_MSG_GETGEN ? 0 : NLM_F_DUMP);
		req.nlh.nlmsg_seq = i + 1;
		req.nfg.nfgen_family = NFPROTO_UNSPEC;
		req.nfg.version = NFNETLINK_V0;
		total = 0;
		nftvm_request(vm, &req, sizeof(req), 1, count_reply, &total,
			      &err);
	}
}

/* The packet through every hook of every family, from fresh copies. */
static void run_packet(struct nftvm *vm, const uint8_t *p, size_t len,
		       uint8_t knobs)
{
	static const struct {
		uint8_t family;
		uint8_t nhooks;
	} fams[] = {
		{ NFPROTO_IPV4, 5 }, { NFPROTO_IPV6, 5 }, { NFPROTO_INET, 5 },
		{ NFPROTO_BRIDGE, 5 }, { NFPROTO_NETDEV, 2 },
		{ NFPROTO_ARP, 2 },
	};
	static struct nftvm_result res;
	struct nftvm_pktmeta meta;
	struct nftvm_pkt pkt;
	uint8_t *copy;
	unsigned int f, h;

	copy = malloc(len ? len : 1);
	if (!copy)
		return;
	for (f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		for (h = 0; h < fams[f].nhooks; h++) {
			memset(&meta, 0, sizeof(meta));
			meta.iif = meta.oif = 1;
			strcpy(meta.iifname, "lo");
			strcpy(meta.oifname, knobs & 1 ? "eth0" : "lo");
			meta.iiftype = 1;
			meta.mark = knobs;
			meta.ct_state = (uint32_t)1 << (knobs >> 5);
			meta.sk_valid = knobs & 2;
			meta.time_ns = (uint64_t)(knobs & 0x1c) * 250000000u;
			memcpy(copy, p, len);
			pkt.data = copy;
			pkt.len = len;
			memset(&res, 0, sizeof(res));
			nftvm_eval(vm, h, fams[f].family, &pkt, &meta, &res);
		}
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct blob *b;
	struct nftvm *vm;
	uint8_t *buf;
	size_t i, n, off;

	if (size < 3 || size > FUZZ_MAX_INPUT)
		return 0;
	vm = nftvm_new();
	if (!vm)
		return 0;
	b = &base[data[1] % NBASE];
	switch (data[0] % 3) {
	case 0:
		load(vm, data + 1, size - 1);
		break;
	case 1:
		buf = malloc(b->len);
		if (!buf)
			break;
		memcpy(buf, b->buf, b->len);
		n = data[2] % (MAX_EDITS + 1);
		for (i = 0, off = 3; i < n && off + 3 <= size; i++, off += 3)
			buf[(data[off] | data[off + 1] << 8) % b->len] =
				data[off + 2];
		load(vm, buf, b->len);
		free(buf);
		dump_all(vm);
		run_packet(vm, data + off, size - off, data[2]);
		break;
	default:
		load(vm, b->buf, b->len);
		/* a second batch, then a packet from its tail */
		n = size - 3;
		load(vm, data + 3, n);
		dump_all(vm);
		run_packet(vm, data + 3 + n / 2, n - n / 2, data[2]);
		break;
	}
	nftvm_destroy(vm);
	return 0;
}
