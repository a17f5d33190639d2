// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm-packet: the per-packet cost of a ruleset, in the VM or in the
 * kernel (the driver of vm-packet.sh; not part of make check).
 *
 *   vm-packet vm STATEFILE SADDR DADDR DPORT N
 *	loads the offline state file (nft --offline STATEFILE -f ...) and
 *	runs one IPv4 TCP SYN SADDR:40000 -> DADDR:DPORT, iif "eth0",
 *	through the input hook N times: prints the verdict, the trace
 *	length of one run and the nanoseconds per evaluation: the thread's
 *	CPU time around the loop, then the wall clock time.
 *
 *   vm-packet kernel IFACE DSTMAC SADDR DADDR DPORT N
 *	writes the same packet N times as an Ethernet frame with a packet
 *	socket on IFACE (one end of a veth pair: the frame is received by
 *	the other end and runs the whole receive path, nf_tables included,
 *	in the sending thread's softirq): prints the nanoseconds per send
 *	(CPU time of the thread, then wall clock).
 *	vm-packet.sh subtracts the time with an empty ruleset.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/netfilter.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <nftvm/nftvm.h>
#include "transport.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall and CPU time of the thread (the CPU time leaves out waiting for
 * a CPU on a shared machine; the kernel's softirq work done on the way
 * out of send() is the thread's system time). */
struct stamp {
	uint64_t	wall, cpu;
};

static struct stamp now(void)
{
	struct stamp s = { clock_ns(CLOCK_MONOTONIC),
			   clock_ns(CLOCK_THREAD_CPUTIME_ID) };

	return s;
}

static void report(struct stamp t0, long n)
{
	struct stamp t1 = now();

	printf("ns/packet %.1f wall %.1f\n",
	       (double)(t1.cpu - t0.cpu) / (double)n,
	       (double)(t1.wall - t0.wall) / (double)n);
}

static uint16_t csum(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* IPv4 + TCP SYN, checksums right: 40 bytes at @p. */
static int build(uint8_t *p, const char *src, const char *dst, int dport)
{
	struct in_addr s, d;
	uint32_t ph = 0;
	uint16_t c;
	int i;

	if (!inet_aton(src, &s) || !inet_aton(dst, &d))
		return -1;
	memset(p, 0, 40);
	p[0] = 0x45;
	p[3] = 40;
	p[8] = 64;
	p[9] = IPPROTO_TCP;
	memcpy(p + 12, &s, 4);
	memcpy(p + 16, &d, 4);
	c = csum(p, 20, 0);
	p[10] = (uint8_t)(c >> 8);
	p[11] = (uint8_t)c;
	p[20] = 40000 >> 8;
	p[21] = 40000 & 0xff;
	p[22] = (uint8_t)(dport >> 8);
	p[23] = (uint8_t)dport;
	p[32] = 5 << 4;
	p[33] = 0x02;
	p[34] = 0xff;
	for (i = 12; i < 20; i += 2)
		ph += (uint32_t)p[i] << 8 | p[i + 1];
	ph += IPPROTO_TCP + 20;
	c = csum(p + 20, 20, ph);
	p[36] = (uint8_t)(c >> 8);
	p[37] = (uint8_t)c;
	return 40;
}

static int run_vm(char **argv)
{
	static struct nftvm_result res;
	struct nftvm_pktmeta meta = { .iif = 2, .iifname = "eth0",
				      .iiftype = 1 };
	uint8_t bytes[40], pkt_bytes[40];
	struct nftvm_pkt pkt = { .data = pkt_bytes, .len = 40 };
	struct nftc_offline *off;
	long n = atol(argv[5]), i;
	struct stamp t0;
	char err[256];
	int v = 0;

	if (build(bytes, argv[2], argv[3], atoi(argv[4])) < 0 || n <= 0)
		return 2;
	off = nftc_offline_open(argv[1], err, sizeof(err));
	if (!off) {
		fprintf(stderr, "vm-packet: %s\n", err);
		return 1;
	}
	memcpy(pkt_bytes, bytes, 40);
	if (nftvm_eval(nftc_offline_vm(off), NF_INET_LOCAL_IN, NFPROTO_IPV4,
		       &pkt, &meta, &res) < 0)
		return 1;
	printf("verdict %d trace %u\n", res.verdict, res.ntrace);
	t0 = now();
	for (i = 0; i < n; i++) {
		/* payload writes would edit the bytes: start from a copy */
		memcpy(pkt_bytes, bytes, 40);
		v |= nftvm_eval(nftc_offline_vm(off), NF_INET_LOCAL_IN,
				NFPROTO_IPV4, &pkt, &meta, &res);
	}
	report(t0, n);
	nftc_offline_close(off);
	return v < 0;
}

static int parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int run_kernel(char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	uint8_t frame[54];
	long n = atol(argv[6]), i;
	struct stamp t0;
	int fd;

	memset(frame, 0, sizeof(frame));
	if (parse_mac(argv[2], frame) < 0 ||
	    build(frame + 14, argv[3], argv[4], atoi(argv[5])) < 0 || n <= 0)
		return 2;
	frame[12] = 0x08;
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	sll.sll_ifindex = (int)if_nametoindex(argv[1]);
	if (fd < 0 || !sll.sll_ifindex ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("vm-packet: packet socket");
		return 1;
	}
	t0 = now();
	for (i = 0; i < n; i++)
		if (send(fd, frame, sizeof(frame), 0) < 0) {
			perror("vm-packet: send");
			return 1;
		}
	report(t0, n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "vm"))
		return run_vm(argv + 1);
	if (argc == 8 && !strcmp(argv[1], "kernel"))
		return run_kernel(argv + 1);
	fprintf(stderr, "usage: vm-packet vm STATEFILE SADDR DADDR DPORT N\n"
		"       vm-packet kernel IFACE DSTMAC SADDR DADDR DPORT N\n");
	return 2;
}
