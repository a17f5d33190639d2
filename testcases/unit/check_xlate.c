// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libxlate: the exact semantics of extension mappings, through the
 * public API (one iptables command in, nft rule text out, evaluated
 * and printed by nftc).
 */
#define _GNU_SOURCE
#include <config.h>
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <xtables.h>
#include "../../xlate/xlate.h"
#include "../../xlate/xlate_int.h"

/*
 * Translate one command (after `ipset save` text @sets, when given);
 * returns the printed rule(s), malloc'ed.
 */
static char *xl_sets(uint8_t family, const char *sets, const char *cmd,
		     int *ret)
{
	char *argv[64], *copy = strdup(cmd), *save, *t, *buf = NULL;
	struct xlate_ctx *ctx = xlate_ctx_alloc(family, 0);
	int argc = 0;
	size_t len;
	FILE *f;

	if (sets)
		xlate_read_ipsets(ctx, "sets", strdup(sets));

	for (t = strtok_r(copy, " ", &save); t && argc < 63;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	xlate_read_command(ctx, argc, argv);
	f = open_memstream(&buf, &len);
	*ret = xlate_print(ctx, f);
	fclose(f);
	xlate_ctx_free(ctx);
	free(copy);
	return buf;
}

static char *xl(uint8_t family, const char *cmd, int *ret)
{
	return xl_sets(family, NULL, cmd, ret);
}

/* @cmd translates exactly (status 0) to @expect */
#define CHECK_XL_F(fam, cmd, expect) do {				\
	int _ret;							\
	char *_out = xl(fam, cmd, &_ret);				\
	ck_assert_str_eq(_out, expect "\n");				\
	ck_assert_int_eq(_ret, 0);					\
	free(_out);							\
} while (0)

#define CHECK_XL(cmd, expect)	CHECK_XL_F(NFPROTO_IPV4, cmd, expect)
#define CHECK_XL6(cmd, expect)	CHECK_XL_F(NFPROTO_IPV6, cmd, expect)

/* @cmd translates, approximately (status 1), to @expect */
#define CHECK_XL_INEXACT(cmd, expect) do {				\
	int _ret;							\
	char *_out = xl(NFPROTO_IPV4, cmd, &_ret);			\
	ck_assert_str_eq(_out, expect "\n");				\
	ck_assert_int_eq(_ret, 1);					\
	free(_out);							\
} while (0)

/* @cmd is refused: nothing printed, status 1 */
#define CHECK_XL_FAILS(cmd) do {					\
	int _ret;							\
	char *_out = xl(NFPROTO_IPV4, cmd, &_ret);			\
	ck_assert_str_eq(_out, "");					\
	ck_assert_int_eq(_ret, 1);					\
	free(_out);							\
} while (0)

START_TEST(test_basic)
{
	CHECK_XL("iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
		 "add rule ip filter INPUT tcp dport 22 counter accept");
	/* -p udp -m udp alone keeps the protocol test */
	CHECK_XL("iptables -A INPUT -p udp -m udp -j DROP",
		 "add rule ip filter INPUT meta l4proto udp counter drop");
	CHECK_XL("iptables -A INPUT -s 10.1.2.3/255.255.0.0 ! -i eth+",
		 "add rule ip filter INPUT iifname != \"eth*\" "
		 "ip saddr 10.1.0.0/16 counter");
}
END_TEST

START_TEST(test_conntrack)
{
	CHECK_XL("iptables -A INPUT -m state --state ESTABLISHED,RELATED "
		 "-j ACCEPT",
		 "add rule ip filter INPUT ct state established,related "
		 "counter accept");
	CHECK_XL("iptables -A INPUT -m conntrack --ctdir ORIGINAL",
		 "add rule ip filter INPUT ct direction original counter");
}
END_TEST

START_TEST(test_marks)
{
	/* xmark: new = (old & ~mask) ^ value */
	CHECK_XL("iptables -t mangle -A OUTPUT -j MARK --set-xmark "
		 "0x40/0x32",
		 "add rule ip mangle OUTPUT counter meta mark set "
		 "meta mark & 0xffffffcd ^ 0x00000040");
	CHECK_XL("iptables -t mangle -A OUTPUT -j CONNMARK --save-mark",
		 "add rule ip mangle OUTPUT counter ct mark set meta mark");
	/* two matches with the same option: the later -m takes it, as
	 * libxtables merges new options in front of older ones */
	CHECK_XL("iptables -A INPUT -m connmark --mark 0x1 -m mark ! "
		 "--mark 0x2 -j ACCEPT",
		 "add rule ip filter INPUT ct mark 0x00000001 "
		 "meta mark != 0x00000002 counter accept");
	CHECK_XL("iptables -A INPUT -m mark --mark 3 -m connmark --mark 4",
		 "add rule ip filter INPUT meta mark 0x00000003 "
		 "ct mark 0x00000004 counter");
}
END_TEST

START_TEST(test_limit)
{
	CHECK_XL("iptables -A INPUT -m limit --limit 3/hour "
		 "--limit-burst 7",
		 "add rule ip filter INPUT limit rate 3/hour burst 7 packets "
		 "counter");
}
END_TEST

START_TEST(test_errors)
{
	int ret;
	char *out = xl(NFPROTO_IPV4, "iptables -A INPUT -p tcp --dprt 1",
		       &ret);

	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

/*
 * iptables refuses -o where no output interface is known yet (INPUT,
 * PREROUTING) and -i on the way out (OUTPUT, POSTROUTING); FORWARD and
 * user chains take both.
 */
START_TEST(test_iface_chains)
{
	CHECK_XL_FAILS("iptables -A INPUT -o eth0 -j ACCEPT");
	CHECK_XL_FAILS("iptables -t nat -A PREROUTING -o eth0 -j ACCEPT");
	CHECK_XL_FAILS("iptables -A OUTPUT -i eth0 -j ACCEPT");
	CHECK_XL_FAILS("iptables -t nat -A POSTROUTING -i eth0 -j MASQUERADE");
	CHECK_XL("iptables -A FORWARD -i eth0 -o eth1 -j ACCEPT",
		 "add rule ip filter FORWARD iifname \"eth0\" "
		 "oifname \"eth1\" counter accept");
}
END_TEST

/* xt_cgroup: --cgroup is the socket's net_cls class id */
START_TEST(test_cgroup)
{
	CHECK_XL("iptables -A OUTPUT -m cgroup --cgroup 0x100001 -j DROP",
		 "add rule ip filter OUTPUT meta cgroup 1048577 counter drop");
	CHECK_XL("iptables -A OUTPUT -m cgroup ! --cgroup 7",
		 "add rule ip filter OUTPUT meta cgroup != 7 counter");
}
END_TEST

/*
 * xt_cluster: node = reciprocal_scale(jhash(ct original saddr), total);
 * --cluster-local-node N is bit N-1 of the mask, so node 2 of 2 is hash
 * value 1, and nodes 1 and 3 of 4 are values 0 and 2.
 */
START_TEST(test_cluster)
{
	CHECK_XL_INEXACT("iptables -t mangle -A PREROUTING -m cluster "
			 "--cluster-total-nodes 2 --cluster-local-node 2 "
			 "--cluster-hash-seed 0x1",
			 "add rule ip mangle PREROUTING jhash ct original saddr "
			 "mod 2 seed 0x1 1 meta pkttype set host counter");
	CHECK_XL_INEXACT("iptables -t mangle -A PREROUTING -m cluster "
			 "--cluster-total-nodes 4 --cluster-local-nodemask 5 "
			 "--cluster-hash-seed 0x1",
			 "add rule ip mangle PREROUTING jhash ct original saddr "
			 "mod 4 seed 0x1 { 0, 2 } meta pkttype set host "
			 "counter");
}
END_TEST

/*
 * xt_connbytes: from <= count <= to; "!" swaps the bounds and then
 * means count < to || count > from. No upper bound is "at least".
 */
START_TEST(test_connbytes)
{
	CHECK_XL("iptables -A INPUT -m connbytes --connbytes 10:20 "
		 "--connbytes-dir reply --connbytes-mode avgpkt",
		 "add rule ip filter INPUT ct reply avgpkt 10-20 counter");
	CHECK_XL("iptables -A INPUT -m connbytes --connbytes 1000 "
		 "--connbytes-dir both --connbytes-mode bytes",
		 "add rule ip filter INPUT ct bytes >= 1000 counter");
	CHECK_XL("iptables -A INPUT -m connbytes ! --connbytes 100 "
		 "--connbytes-dir original --connbytes-mode packets",
		 "add rule ip filter INPUT ct original packets < 100 counter");
	CHECK_XL("iptables -A INPUT -m connbytes ! --connbytes 5:9 "
		 "--connbytes-dir both --connbytes-mode packets",
		 "add rule ip filter INPUT ct packets != 5-9 counter");
}
END_TEST

/* xt_connlabel: a bit test; --set sets it and then always matches */
START_TEST(test_connlabel)
{
	CHECK_XL("iptables -A INPUT -m connlabel --label 3",
		 "add rule ip filter INPUT ct label 3 counter");
	CHECK_XL("iptables -A INPUT -m connlabel --label 3 --set",
		 "add rule ip filter INPUT ct label set 3 counter");
}
END_TEST

/* xt_dccp / xt_sctp: port ranges, DCCP packet types (4 bits) */
START_TEST(test_dccp_sctp)
{
	CHECK_XL("iptables -A INPUT -p dccp -m dccp ! --sport 1:2 "
		 "--dccp-types RESET",
		 "add rule ip filter INPUT dccp sport != 1-2 dccp type reset "
		 "counter");
	CHECK_XL("iptables -A INPUT -p sctp --sport 1:2 ! --dport 3",
		 "add rule ip filter INPUT sctp sport 1-2 sctp dport != 3 "
		 "counter");
}
END_TEST

/*
 * sctp --chunk-types, by xt_sctp's match_packet(): "all" = each listed
 * type present in a chunk with the wanted flags, "any" = one such
 * chunk, "only" = no chunk of another type. nft tests the first chunk of
 * a type, names 18 types, and "missing" holds on other protocols.
 */
START_TEST(test_sctp_chunks)
{
	/* presence alone is exact; in chunk type order */
	CHECK_XL("iptables -A INPUT -p sctp --chunk-types all "
		 "SACK,INIT,FORWARD_TSN,ASCONF_ACK",
		 "add rule ip filter INPUT sctp chunk init exists "
		 "sctp chunk sack exists sctp chunk asconf-ack exists "
		 "sctp chunk forward-tsn exists counter");
	CHECK_XL("iptables -A INPUT -p sctp --chunk-types any COOKIE_ECHO",
		 "add rule ip filter INPUT sctp chunk cookie-echo exists "
		 "counter");
	/* no type at all: "all" holds on every SCTP packet */
	CHECK_XL("iptables -A INPUT -p sctp --chunk-types all NONE",
		 "add rule ip filter INPUT meta l4proto sctp counter");
	/* flags: lower case clear, upper case set (iUbE: mask 15, U|E);
	 * only the first chunk of the type is looked at: approximate */
	CHECK_XL_INEXACT("iptables -A INPUT -p sctp --chunk-types all "
			 "INIT,DATA:iUbE,SACK,ABORT:T -j ACCEPT",
			 "add rule ip filter INPUT "
			 "sctp chunk data flags & 15 == 5 "
			 "sctp chunk init exists sctp chunk sack exists "
			 "sctp chunk abort flags & 1 == 1 counter accept");
	/* absence: the protocol test stays (missing holds on TCP too),
	 * and non-first fragments match: approximate */
	CHECK_XL_INEXACT("iptables -A INPUT -p sctp ! --chunk-types any "
			 "INIT,DATA",
			 "add rule ip filter INPUT meta l4proto sctp "
			 "sctp chunk data missing sctp chunk init missing "
			 "counter");
	CHECK_XL_INEXACT("iptables -A INPUT -p sctp ! --chunk-types all "
			 "ABORT",
			 "add rule ip filter INPUT meta l4proto sctp "
			 "sctp chunk abort missing counter");
	/* one of several, one missing of several, flags inverted: not one
	 * nft rule; "only" cannot exclude the unnamed types; a type nft
	 * has no name for (I_DATA, 64); "ALL" = every type */
	CHECK_XL_FAILS("iptables -A INPUT -p sctp --chunk-types any "
		       "INIT,DATA");
	CHECK_XL_FAILS("iptables -A INPUT -p sctp ! --chunk-types all "
		       "INIT,DATA");
	CHECK_XL_FAILS("iptables -A INPUT -p sctp ! --chunk-types all "
		       "DATA:U");
	CHECK_XL_FAILS("iptables -A INPUT -p sctp --chunk-types only "
		       "SHUTDOWN_COMPLETE");
	CHECK_XL_FAILS("iptables -A INPUT -p sctp --chunk-types all I_DATA");
	CHECK_XL_FAILS("iptables -A INPUT -p sctp --chunk-types all ALL");
	CHECK_XL_FAILS("iptables -A INPUT -p sctp --chunk-types any NONE");
	/* tcp: an absent option likewise keeps the protocol test */
	CHECK_XL("iptables -A INPUT -p tcp ! --tcp-option 4",
		 "add rule ip filter INPUT meta l4proto tcp "
		 "tcp option sack-perm missing counter");
	CHECK_XL("iptables -A INPUT -p tcp --tcp-option 4",
		 "add rule ip filter INPUT tcp option sack-perm exists "
		 "counter");
}
END_TEST

/*
 * TEE --oif: the device must exist where the rule is loaded; it is
 * printed by name, as written. Without XLATE_F_SYSTEM_IFACES only lo
 * is known.
 */
START_TEST(test_tee_oif)
{
	CHECK_XL("iptables -t mangle -A PREROUTING -j TEE --gateway "
		 "1.2.3.4 --oif lo",
		 "add rule ip mangle PREROUTING counter dup to 1.2.3.4 "
		 "device \"lo\"");
	CHECK_XL_FAILS("iptables -t mangle -A PREROUTING -j TEE --gateway "
		       "1.2.3.4 --oif nosuchdev0");
}
END_TEST

/* xt_ecn: the two ECN bits of the TOS byte; ECE/CWR are TCP flags */
START_TEST(test_ecn)
{
	CHECK_XL("iptables -A INPUT -m ecn --ecn-ip-ect 2",
		 "add rule ip filter INPUT ip ecn ect0 counter");
	CHECK_XL("iptables -A INPUT -p tcp -m ecn ! --ecn-tcp-cwr",
		 "add rule ip filter INPUT ip protocol tcp "
		 "tcp flags & cwr != cwr counter");
}
END_TEST

/*
 * rpfilter: a route back to the source through the input interface
 * (any with --loose), with the packet's mark for --validmark.
 */
START_TEST(test_rpfilter)
{
	CHECK_XL("iptables -t raw -A PREROUTING -m rpfilter --loose -j DROP",
		 "add rule ip raw PREROUTING fib saddr oif != 0 counter drop");
	CHECK_XL("iptables -t raw -A PREROUTING -m rpfilter --invert",
		 "add rule ip raw PREROUTING fib saddr . iif oif 0 counter");
	CHECK_XL_FAILS("iptables -t raw -A PREROUTING -m rpfilter "
		       "--accept-local");
}
END_TEST

/*
 * TOS target: tos = (tos & ~mask) ^ value over the whole byte; IPv4
 * fields can only be set to constants (a raw write would not fix the
 * header checksum).
 */
START_TEST(test_tos_target)
{
	/* 0x10/0xff: DSCP 4, ECN 0 */
	CHECK_XL("iptables -t mangle -A OUTPUT -j TOS --set-tos 0x10",
		 "add rule ip mangle OUTPUT counter ip dscp set 0x04 "
		 "ip ecn set not-ect");
	/* --and-tos 0xfc is 0x00/0x03: only ECN cleared */
	CHECK_XL("iptables -t mangle -A OUTPUT -j TOS --and-tos 0xfc",
		 "add rule ip mangle OUTPUT counter ip ecn set not-ect");
	CHECK_XL_FAILS("iptables -t mangle -A OUTPUT -j TOS "
		       "--set-tos 0x10/0x0c");
}
END_TEST

/* CHECKSUM has no nft action: the rule stays, approximated */
START_TEST(test_checksum)
{
	CHECK_XL_INEXACT("iptables -t mangle -A POSTROUTING -p udp "
			 "--dport 68 -j CHECKSUM --checksum-fill",
			 "add rule ip mangle POSTROUTING udp dport 68 counter");
}
END_TEST

/* rates as written: avg = scale * unit / rate, inverted */
START_TEST(test_rates)
{
	CHECK_XL("iptables -A INPUT -m limit --limit 7/min",
		 "add rule ip filter INPUT limit rate 7/minute counter");
	CHECK_XL("iptables -A INPUT -m hashlimit --hashlimit-upto 300/sec "
		 "--hashlimit-burst 15 --hashlimit-mode srcip "
		 "--hashlimit-name h --hashlimit-htable-expire 60000",
		 "add set ip filter h { typeof ip saddr; "
		 "flags dynamic,timeout; }\n"
		 "add rule ip filter INPUT update @h { ip saddr timeout 1m "
		 "limit rate 300/second burst 15 packets } counter");
}
END_TEST

START_TEST(test_misc_fixed)
{
	/* either port: { any . P, P . any } */
	CHECK_XL("iptables -A INPUT -p tcp -m multiport --ports 10",
		 "add rule ip filter INPUT ip protocol tcp tcp sport . "
		 "tcp dport { 0-65535 . 10, 10 . 0-65535 } counter");
	/* a literal '*' interface name is not a wildcard */
	CHECK_XL("iptables -A INPUT -i *",
		 "add rule ip filter INPUT iifname \"\\*\" counter");
	/* --socket-exists: skuid exists exactly for full sockets */
	CHECK_XL("iptables -A OUTPUT -m owner --socket-exists",
		 "add rule ip filter OUTPUT meta skuid 0-4294967295 counter");
	/* connlimit: the set goes with the rule */
	CHECK_XL("iptables -A INPUT -m connlimit --connlimit-above 4",
		 "add set ip filter connlimit0 { type ipv4_addr; "
		 "flags dynamic; }\n"
		 "add rule ip filter INPUT add @connlimit0 { ip saddr "
		 "ct count over 4 } counter");
	CHECK_XL("iptables -t nat -F", "flush table ip nat");
	CHECK_XL("iptables -F INPUT", "flush chain ip filter INPUT");
	CHECK_XL("iptables -N blocked", "add chain ip filter blocked");
}
END_TEST

/* ipset references: the ipset's dimensions in src/dst order */
START_TEST(test_ipset)
{
	static const char sets[] =
		"create svc hash:ip,port family inet hashsize 1024\n"
		"add svc 192.0.2.1,udp:53\n"
		"create nets hash:net family inet timeout 300\n";
	int ret;
	char *out;

	out = xl_sets(NFPROTO_IPV4, sets, "iptables -A INPUT -m set "
		      "--match-set svc dst,dst -j ACCEPT", &ret);
	ck_assert_str_eq(out, "add set ip filter svc { type ipv4_addr . "
			 "inet_proto . inet_service; elements = { 192.0.2.1 "
			 ". udp . 53 }; }\n"
			 "add rule ip filter INPUT ip daddr . meta l4proto . "
			 "th dport @svc counter accept\n");
	ck_assert_int_eq(ret, 0);
	free(out);
	out = xl_sets(NFPROTO_IPV4, sets, "iptables -A INPUT -m set "
		      "! --match-set nets src -j SET --del-set nets src",
		      &ret);
	ck_assert_str_eq(out, "add set ip filter nets { type ipv4_addr; "
			 "flags dynamic,interval,timeout; timeout 5m; }\n"
			 "add rule ip filter INPUT ip saddr != @nets counter "
			 "delete @nets { ip saddr }\n");
	ck_assert_int_eq(ret, 0);
	free(out);
	/* an ipset nobody described */
	out = xl_sets(NFPROTO_IPV4, sets, "iptables -A INPUT -m set "
		      "--match-set other src", &ret);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(ret, 1);
	free(out);
}
END_TEST

/*
 * xt_u32: word = ntohl(32 bits at OFF of the network header); &, <<,
 * >> in order; match when the result is in a range. A chain of them is
 * shift(word & M, s): compare word & M with the ranges shifted back.
 */
START_TEST(test_u32)
{
	/* IP version: word 0 >> 28: bits 28-31, 4 << 28 */
	CHECK_XL("iptables -A INPUT -m u32 --u32 0>>28=4",
		 "add rule ip filter INPUT @nh,0,32 & 0xf0000000 == "
		 "0x40000000 counter");
	/* protocol byte: word at 6 (frag off, ttl, protocol) & 0xff */
	CHECK_XL("iptables -A INPUT -m u32 --u32 6&0xFF=1,17",
		 "add rule ip filter INPUT @nh,48,32 & 0xff == "
		 "{ 0x1, 0x11 } counter");
	/* a left shift drops the top bits: [0x10, 0x20] >> 4 = [1, 2] */
	CHECK_XL("iptables -A INPUT -m u32 --u32 0<<4=0x10:0x20",
		 "add rule ip filter INPUT @nh,0,32 & 0xfffffff == 0x1-0x2 "
		 "counter");
	/* "!" of one test is the test negated */
	CHECK_XL("iptables -A INPUT -m u32 ! --u32 0&0xFFFF=0x100:0xFFFF",
		 "add rule ip filter INPUT @nh,0,32 & 0xffff != "
		 "0x100-0xffff counter");
	/* the IPv4 header length jump is nft's transport header */
	CHECK_XL_INEXACT("iptables -A INPUT -m u32 --u32 "
			 "0>>22&0x3C@0>>16=53",
			 "add rule ip filter INPUT @th,0,32 & 0xffff0000 == "
			 "0x350000 counter");
	/* any other "@" reads an offset from the packet: refused */
	CHECK_XL_FAILS("iptables -A INPUT -m u32 --u32 "
		       "0>>22&0x3C@12>>26&0x3C@0=1");
}
END_TEST

/*
 * xtports.c against libxtables: each case is a sequence of options given
 * to one tcp/udp match, once through the fast path (falling back to
 * libxtables as xl_xt_parse() does) and once through libxtables alone.
 * Same result for every step, same error text, same bytes of the match
 * data, same flags of options seen, same final check; and the fast path
 * takes exactly the steps marked FAST.
 */
#define FAST	1
#define LIB	0

struct port_step {
	const char	*opt;		/* long option, no dashes */
	const char	*arg;
	bool		inv;
	int		fast;		/* FAST: xtports.c must take it */
};

static const struct port_step port_single[] = {
	/* plain decimal: taken */
	{ "dport", "0", false, FAST },
	{ "dport", "1", false, FAST },
	{ "dport", "22", false, FAST },
	{ "dport", "65535", false, FAST },
	{ "dport", "1:2", false, FAST },
	{ "dport", "22:22", false, FAST },
	{ "dport", "0:0", false, FAST },
	{ "dport", "0:65535", false, FAST },
	{ "dport", "1024:65535", false, FAST },
	{ "dport", ":22", false, FAST },	/* 0..22 */
	{ "dport", ":0", false, FAST },
	{ "dport", "22:", false, FAST },	/* 22..65535 */
	{ "dport", "0:", false, FAST },
	{ "dport", "65535:", false, FAST },
	{ "dport", "60000:60099", true, FAST },
	{ "dport", "22", true, FAST },
	{ "sport", "53", false, FAST },
	{ "sport", "1024:", true, FAST },
	{ "source-port", ":1023", false, FAST },
	{ "destination-port", "443", true, FAST },
	/* anything else: libxtables' own parse or error */
	{ "dport", "65536", false, LIB },
	{ "dport", "99999", false, LIB },
	{ "dport", "100000", false, LIB },
	{ "dport", "99999999999", false, LIB },
	{ "dport", "4294967318", false, LIB },
	{ "dport", "00", false, LIB },
	{ "dport", "010", false, LIB },
	{ "dport", "0x16", false, LIB },
	{ "dport", "007:8", false, LIB },
	{ "dport", "8:009", false, LIB },
	{ "dport", "ssh", false, LIB },
	{ "dport", "http", true, LIB },
	{ "dport", "22:ssh", false, LIB },
	{ "dport", "2:1", false, LIB },		/* low > high */
	{ "dport", "65535:0", true, LIB },
	{ "dport", ":", false, LIB },
	{ "dport", "::", false, LIB },
	{ "dport", "22::33", false, LIB },
	{ "dport", "1:2:3", false, LIB },
	{ "dport", "22:65536", false, LIB },
	{ "dport", "", false, LIB },
	{ "dport", " 22", false, LIB },
	{ "dport", "22 ", false, LIB },
	{ "dport", "+22", false, LIB },
	{ "dport", "-1", false, LIB },
	{ "dport", "-0", false, LIB },
	{ "dport", "1e3", false, LIB },
	{ "dport", "1,2", false, LIB },
	{ "dport", "a:b", false, LIB },
	{ "sport", "0x0", true, LIB },
};

/* sequences on one match: repeats, both options, aliases */
static const struct port_step port_seqs[][3] = {
	{ { "dport", "22", false, FAST }, { "dport", "23", false, LIB } },
	{ { "sport", "22", true, FAST }, { "source-port", "23", false, LIB } },
	{ { "dport", "ssh", false, LIB }, { "dport", "23", false, LIB } },
	{ { "dport", "2:1", false, LIB }, { "dport", "23", false, LIB } },
	{ { "sport", "1:2", false, FAST }, { "dport", "3:4", true, FAST } },
	{ { "dport", "80", true, FAST }, { "sport", "1024:", true, FAST } },
	{ { "sport", "ssh", true, LIB }, { "dport", "22", false, FAST } },
	{ { "dport", "0x16", false, LIB }, { "sport", "22", true, FAST } },
};

struct port_run {
	struct xl_xt_rule	*xr;
	struct xl_ext		*e;
	int			rc[3];
	char			err[3][256];
	int			fast[3];
};

typedef int (*fast_fn)(struct xl_ext *ext, unsigned int id, const char *arg,
		       bool invert);

/* the rule's -p for multiport (protocol, inverted) */
static uint16_t mport_proto = IPPROTO_TCP;
static bool mport_inv;

static int mport_fast(struct xl_ext *ext, unsigned int id, const char *arg,
		      bool invert)
{
	return xl_xtmport_parse(ext, id, arg, invert,
				xl_xt_entry(NFPROTO_IPV4, mport_proto,
					    mport_inv));
}

/* the fast path for @match, and the protocol its rule names */
static fast_fn fast_for(const char *match, uint16_t *proto)
{
	if (!strcmp(match, "multiport")) {
		*proto = mport_proto;
		return mport_fast;
	}
	if (!strcmp(match, "icmp")) {
		*proto = IPPROTO_ICMP;
		return xl_xticmp_parse;
	}
	*proto = !strcmp(match, "tcp") ? IPPROTO_TCP : IPPROTO_UDP;
	return xl_xtports_parse;
}

static void port_apply(struct port_run *r, const char *match,
		       const struct port_step *steps, unsigned int n,
		       uint8_t family, bool lib_only)
{
	uint16_t proto;
	fast_fn fast = fast_for(match, &proto);
	char err[256];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(xl_xt_init(family, err, sizeof(err)), 0);
	r->xr = xl_xt_rule_alloc();
	r->e = xl_xt_match(r->xr, match, err, sizeof(err));
	ck_assert_msg(r->e, "load %s: %s", match, err);
	for (i = 0; i < n && steps[i].opt; i++) {
		char *argv[] = { "iptables", (char *)steps[i].opt,
				 (char *)steps[i].arg, NULL };
		unsigned int id;
		int has_arg, optind = 3;

		ck_assert_int_eq(xl_xt_find_option(r->e, steps[i].opt, false,
						   &id, &has_arg), 1);
		r->fast[i] = !lib_only &&
			     fast(r->e, id, steps[i].arg, steps[i].inv);
		if (!r->fast[i])
			r->rc[i] = xl_xt_parse_lib(r->e, id, argv, &optind,
						   (char *)steps[i].arg,
						   steps[i].inv,
						   xl_xt_entry(family, proto,
							       mport_inv),
						   r->err[i],
						   sizeof(r->err[i]));
		if (r->rc[i] < 0)
			break;
	}
}

static void port_compare(const char *match, const struct port_step *steps,
			 unsigned int n, uint8_t family)
{
	struct port_run f, l;
	char ferr[256] = "", lerr[256] = "";
	int frc, lrc;
	unsigned int i;

	port_apply(&f, match, steps, n, family, false);
	port_apply(&l, match, steps, n, family, true);
	for (i = 0; i < n && steps[i].opt; i++) {
		ck_assert_msg(f.fast[i] == steps[i].fast,
			      "%s --%s '%s': fast path %s", match,
			      steps[i].opt, steps[i].arg,
			      f.fast[i] ? "taken" : "not taken");
		ck_assert_msg(f.rc[i] == l.rc[i] &&
			      !strcmp(f.err[i], l.err[i]),
			      "%s --%s '%s': %d '%s' vs libxtables %d '%s'",
			      match, steps[i].opt, steps[i].arg, f.rc[i],
			      f.err[i], l.rc[i], l.err[i]);
		if (f.rc[i] < 0)
			break;
	}
	ck_assert_uint_eq(xl_ext_size(f.e), xl_ext_size(l.e));
	ck_assert_msg(!memcmp(xl_ext_data(f.e), xl_ext_data(l.e),
			      xl_ext_size(f.e)),
		      "%s --%s '%s': match data differs from libxtables'",
		      match, steps[0].opt, steps[0].arg);
	ck_assert_msg(f.e->match->mflags == l.e->match->mflags,
		      "%s --%s '%s': option flags %#x vs libxtables %#x",
		      match, steps[0].opt, steps[0].arg, f.e->match->mflags,
		      l.e->match->mflags);
	frc = xl_xt_final(f.e, ferr, sizeof(ferr));
	lrc = xl_xt_final(l.e, lerr, sizeof(lerr));
	ck_assert_int_eq(frc, lrc);
	ck_assert_str_eq(ferr, lerr);
	xl_xt_rule_free(f.xr);
	xl_xt_rule_free(l.xr);
}

static void port_cases(uint8_t family)
{
	static const char *const matches[] = { "tcp", "udp" };
	unsigned int m, i;

	for (m = 0; m < 2; m++) {
		for (i = 0; i < sizeof(port_single) / sizeof(port_single[0]);
		     i++)
			port_compare(matches[m], &port_single[i], 1, family);
		for (i = 0; i < sizeof(port_seqs) / sizeof(port_seqs[0]); i++)
			port_compare(matches[m], port_seqs[i], 3, family);
	}
}

/* xticmp.c against libxtables, as the ports above */
static const struct port_step icmp_single[] = {
	{ "icmp-type", "0", false, FAST },
	{ "icmp-type", "8", false, FAST },
	{ "icmp-type", "8", true, FAST },
	{ "icmp-type", "11", false, FAST },
	{ "icmp-type", "255", false, FAST },
	{ "icmp-type", "255", true, FAST },
	{ "icmp-type", "99", false, FAST },
	{ "icmp-type", "256", false, LIB },
	{ "icmp-type", "1000", false, LIB },
	{ "icmp-type", "08", false, LIB },
	{ "icmp-type", "00", false, LIB },
	{ "icmp-type", "0x8", false, LIB },
	{ "icmp-type", "3/4", false, LIB },
	{ "icmp-type", "3/", false, LIB },
	{ "icmp-type", "8/0", true, LIB },
	{ "icmp-type", "echo-request", false, LIB },
	{ "icmp-type", "echo-reply", true, LIB },
	{ "icmp-type", "any", false, LIB },
	{ "icmp-type", "e", false, LIB },
	{ "icmp-type", "", false, LIB },
	{ "icmp-type", " 8", false, LIB },
	{ "icmp-type", "8 ", false, LIB },
	{ "icmp-type", "+8", false, LIB },
	{ "icmp-type", "-1", false, LIB },
	{ "icmp-type", "nosuchtype", false, LIB },
};

static const struct port_step icmp_seqs[][3] = {
	{ { "icmp-type", "8", false, FAST }, { "icmp-type", "0", false, LIB } },
	{ { "icmp-type", "echo-request", false, LIB },
	  { "icmp-type", "0", false, LIB } },
};

START_TEST(test_xticmp)
{
	unsigned int i;

	CHECK_XL("iptables -A INPUT -p icmp --icmp-type 8",
		 "add rule ip filter INPUT icmp type echo-request counter");
	CHECK_XL("iptables -A INPUT -p icmp -m icmp ! --icmp-type 200",
		 "add rule ip filter INPUT icmp type != 200 counter");
	for (i = 0; i < sizeof(icmp_single) / sizeof(icmp_single[0]); i++)
		port_compare("icmp", &icmp_single[i], 1, NFPROTO_IPV4);
	for (i = 0; i < sizeof(icmp_seqs) / sizeof(icmp_seqs[0]); i++)
		port_compare("icmp", icmp_seqs[i], 3, NFPROTO_IPV4);
}
END_TEST

/* xtmport.c against libxtables, as the ports above */
static const struct port_step mport_single[] = {
	{ "dports", "22", false, FAST },
	{ "dports", "22,80,443", false, FAST },
	{ "dports", "22,80,443", true, FAST },
	{ "sports", "0,65535", false, FAST },
	{ "ports", "53", true, FAST },
	{ "source-ports", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", false, FAST },
	{ "destination-ports", "8080,8443", false, FAST },
	{ "dports", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", false, LIB },
	{ "dports", "22:25", false, LIB },
	{ "dports", "22,1000:2000,3", false, LIB },
	{ "dports", "ssh,80", false, LIB },
	{ "dports", "010", false, LIB },
	{ "dports", "0x16", false, LIB },
	{ "dports", "65536", false, LIB },
	{ "dports", "99999999999", false, LIB },
	{ "dports", "22,", false, LIB },
	{ "dports", ",22", false, LIB },
	{ "dports", "22,,23", false, LIB },
	{ "dports", "", false, LIB },
	{ "dports", " 22", false, LIB },
	{ "dports", "+22", false, LIB },
	{ "dports", "-1", false, LIB },
	{ "dports", "2:1", false, LIB },
};

static const struct port_step mport_seqs[][3] = {
	{ { "dports", "22", false, FAST }, { "dports", "23", false, LIB } },
	{ { "dports", "22", false, FAST }, { "sports", "23", false, LIB } },
	{ { "sports", "ssh", false, LIB }, { "dports", "23", false, LIB } },
	{ { "ports", "1,2", true, FAST }, { "dports", "3", true, LIB } },
};

START_TEST(test_xtmport)
{
	static const struct { uint16_t proto; bool inv; bool fast; } p[] = {
		{ IPPROTO_TCP, false, true }, { IPPROTO_UDP, false, true },
		{ IPPROTO_TCP, true, false }, { IPPROTO_SCTP, false, false },
		{ IPPROTO_ICMP, false, false }, { 0, false, false },
	};
	unsigned int i, k;

	CHECK_XL("iptables -A INPUT -p tcp -m multiport --dports 22,80,443",
		 "add rule ip filter INPUT ip protocol tcp tcp dport "
		 "{ 22, 80, 443 } counter");
	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		mport_proto = p[k].proto;
		mport_inv = p[k].inv;
		for (i = 0; i < sizeof(mport_single) / sizeof(mport_single[0]);
		     i++) {
			struct port_step s = mport_single[i];

			s.fast = s.fast && p[k].fast;
			port_compare("multiport", &s, 1, NFPROTO_IPV4);
		}
		for (i = 0; i < sizeof(mport_seqs) / sizeof(mport_seqs[0]);
		     i++) {
			struct port_step s[3];

			memcpy(s, mport_seqs[i], sizeof(s));
			s[0].fast = s[0].fast && p[k].fast;
			port_compare("multiport", s, 3, NFPROTO_IPV4);
		}
	}
	mport_proto = IPPROTO_TCP;
	mport_inv = false;
}
END_TEST

/* --tcp-flags against libxtables: data, flags, words used, final */
struct flags_step {
	const char	*mask, *cmp;	/* cmp NULL: the rule ends there */
	bool		inv;
	int		fast;
};

static void flags_apply(const struct flags_step *s, unsigned int n,
			bool lib_only, struct port_run *r, int optind_out[3])
{
	char err[256];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(xl_xt_init(NFPROTO_IPV4, err, sizeof(err)), 0);
	r->xr = xl_xt_rule_alloc();
	r->e = xl_xt_match(r->xr, "tcp", err, sizeof(err));
	ck_assert_msg(r->e, "load tcp: %s", err);
	for (i = 0; i < n && s[i].mask; i++) {
		char *argv[] = { "iptables", "--tcp-flags", (char *)s[i].mask,
				 (char *)s[i].cmp, NULL };
		unsigned int id;
		int has_arg, optind = 3;

		ck_assert_int_eq(xl_xt_find_option(r->e, "tcp-flags", false,
						   &id, &has_arg), 1);
		r->fast[i] = !lib_only &&
			     xl_xttcpflags_parse(r->e, id, s[i].mask,
						 s[i].inv, argv, &optind);
		if (!r->fast[i])
			r->rc[i] = xl_xt_parse_lib(r->e, id, argv, &optind,
						   (char *)s[i].mask,
						   s[i].inv,
						   xl_xt_entry(NFPROTO_IPV4,
							       IPPROTO_TCP,
							       false),
						   r->err[i],
						   sizeof(r->err[i]));
		optind_out[i] = optind;
		if (r->rc[i] < 0)
			break;
	}
}

static void flags_compare(const struct flags_step *s, unsigned int n)
{
	struct port_run f, l;
	char ferr[256] = "", lerr[256] = "";
	int fo[3] = { 0 }, lo[3] = { 0 };
	unsigned int i;

	flags_apply(s, n, false, &f, fo);
	flags_apply(s, n, true, &l, lo);
	for (i = 0; i < n && s[i].mask; i++) {
		ck_assert_msg(f.fast[i] == s[i].fast,
			      "--tcp-flags '%s' '%s': fast path %s", s[i].mask,
			      s[i].cmp ? s[i].cmp : "(none)",
			      f.fast[i] ? "taken" : "not taken");
		ck_assert_msg(f.rc[i] == l.rc[i] && !strcmp(f.err[i], l.err[i]),
			      "--tcp-flags '%s' '%s': %d '%s' vs libxtables "
			      "%d '%s'", s[i].mask,
			      s[i].cmp ? s[i].cmp : "(none)", f.rc[i],
			      f.err[i], l.rc[i], l.err[i]);
		if (f.rc[i] < 0)
			break;
		ck_assert_int_eq(fo[i], lo[i]);
	}
	ck_assert_msg(!memcmp(xl_ext_data(f.e), xl_ext_data(l.e),
			      xl_ext_size(f.e)),
		      "--tcp-flags '%s': match data differs from libxtables'",
		      s[0].mask);
	ck_assert_uint_eq(f.e->match->mflags, l.e->match->mflags);
	ck_assert_int_eq(xl_xt_final(f.e, ferr, sizeof(ferr)),
			 xl_xt_final(l.e, lerr, sizeof(lerr)));
	ck_assert_str_eq(ferr, lerr);
	xl_xt_rule_free(f.xr);
	xl_xt_rule_free(l.xr);
}

static const struct flags_step flags_single[] = {
	{ "FIN,SYN,RST,ACK", "SYN", false, FAST },
	{ "FIN,SYN,RST,ACK", "SYN", true, FAST },
	{ "SYN,ACK", "SYN,ACK", false, FAST },
	{ "ALL", "NONE", false, FAST },
	{ "ALL", "ALL", true, FAST },
	{ "NONE", "NONE", false, FAST },
	{ "syn,Ack,fin", "ack", false, FAST },
	{ "URG,PSH", "URG", false, FAST },
	{ "FIN,SYN,RST,PSH,ACK,URG", "FIN", false, FAST },
	{ "SYN", "-j", false, LIB },
	{ "SYN", "!", false, LIB },
	{ "SYN", NULL, false, LIB },
	{ "SYN,,ACK", "SYN", false, LIB },
	{ "SYN,", "SYN", false, LIB },
	{ ",SYN", "SYN", false, LIB },
	{ "", "SYN", false, LIB },
	{ "SYN", "", false, LIB },
	{ "SYNACK", "SYN", false, LIB },
	{ "ECE", "SYN", false, LIB },
	{ "SYN", "BOGUS", false, LIB },
	{ "0x02", "0x02", false, LIB },
	{ "SY", "SYN", false, LIB },
};

START_TEST(test_xttcpflags)
{
	static const struct flags_step twice[] = {
		{ "SYN", "SYN", false, FAST }, { "ACK", "ACK", false, LIB },
	};
	unsigned int i;

	CHECK_XL("iptables -A INPUT -p tcp -m tcp --tcp-flags "
		 "FIN,SYN,RST,ACK SYN",
		 "add rule ip filter INPUT tcp flags syn / fin,syn,rst,ack "
		 "counter");
	for (i = 0; i < sizeof(flags_single) / sizeof(flags_single[0]); i++)
		flags_compare(&flags_single[i], 1);
	flags_compare(twice, 2);
}
END_TEST

START_TEST(test_xtports)
{
	/* the translations the fast path feeds */
	CHECK_XL("iptables -A INPUT -p udp --dport 53",
		 "add rule ip filter INPUT udp dport 53 counter");
	CHECK_XL("iptables -A INPUT -p udp -m udp ! --sport 1024:",
		 "add rule ip filter INPUT udp sport != 1024-65535 counter");
	CHECK_XL("iptables -A INPUT -p tcp -m tcp --dport :1023",
		 "add rule ip filter INPUT tcp dport 0-1023 counter");
	port_cases(NFPROTO_IPV4);
}
END_TEST

START_TEST(test_xtports6)
{
	port_cases(NFPROTO_IPV6);
}
END_TEST

/* IPv6 (libxtables serves one family per process: a child runs these) */
START_TEST(test_ip6)
{
	/* ip6t_ah with nothing to test still needs the AH header */
	CHECK_XL6("ip6tables -A INPUT -m ah --ahspi 0:4294967295",
		  "add rule ip6 filter INPUT meta l4proto ah counter");
	/* --ahres: the reserved field must be zero */
	CHECK_XL6("ip6tables -A INPUT -m ah --ahspi 5 --ahres",
		  "add rule ip6 filter INPUT ah spi 5 ah reserved 0 counter");
	CHECK_XL6("ip6tables -A INPUT -j TOS --set-tos 0x10",
		  "add rule ip6 filter INPUT counter ip6 dscp set 0x04 "
		  "ip6 ecn set not-ect");
	/*
	 * --or-tos 0x01 is 0x01/0x01: one ECN bit; the traffic class is
	 * bits 4-11 of the first 16: keep 0xf00f | 0xfe << 4 = 0xffef,
	 * flip 0x01 << 4 = 0x0010.
	 */
	CHECK_XL6("ip6tables -A INPUT -j TOS --or-tos 0x01",
		  "add rule ip6 filter INPUT counter @nh,0,16 set @nh,0,16 & "
		  "65519 ^ 16");
	CHECK_XL6("ip6tables -A INPUT -m ecn --ecn-ip-ect 3",
		  "add rule ip6 filter INPUT ip6 ecn ce counter");
}
END_TEST


/*
 * -m recent in a save file: the list's set keeps entries for the
 * longest --seconds of the table's rules using it (iptables'
 * "within S seconds"), whatever the order of the rules, and a streamed
 * restore declares the set with that timeout at the list's first rule
 * (xlate_stream(): the declaration is handed over before later rules
 * are read).
 */
struct recent_stream {
	uint64_t	timeout;	/* ms, of the set when handed over */
	unsigned int	sets, rules;
};

static int rs_table(void *priv, const char *table,
		    const struct location *loc, struct list_head *cmds)
{
	(void)priv; (void)table; (void)loc; (void)cmds;
	return 0;
}

static int rs_chain(void *priv, const struct xlate_chain_info *ci,
		    struct list_head *cmds)
{
	(void)priv; (void)ci; (void)cmds;
	return 0;
}

static int rs_decls(void *priv, struct list_head *cmds)
{
	struct recent_stream *rs = priv;
	struct cmd *cmd;

	list_for_each_entry(cmd, cmds, list) {
		if (cmd->obj != CMD_OBJ_SET ||
		    strcmp(cmd->handle.set.name, "recent_ssh"))
			continue;
		rs->timeout = cmd->set->timeout;
		rs->sets++;
	}
	cmd_list_free(cmds);
	return 0;
}

static int rs_rule(void *priv, struct cmd *cmd)
{
	((struct recent_stream *)priv)->rules++;
	cmd_free(cmd);
	return 0;
}

static const struct xlate_cmd_ops rs_ops = {
	.table = rs_table, .chain = rs_chain, .decls = rs_decls,
	.rule = rs_rule,
};

static char *recent_file(const char *rules)
{
	char *buf;

	ck_assert_int_ge(asprintf(&buf, "*filter\n:INPUT ACCEPT [0:0]\n"
				  ":SSH - [0:0]\n%sCOMMIT\n", rules), 0);
	return buf;
}

/* the set's timeout (ms) in a streamed restore of @rules */
static uint64_t recent_streamed(const char *rules)
{
	struct xlate_ctx *ctx = xlate_ctx_alloc(NFPROTO_IPV4, 0);
	struct recent_stream rs = { 0 };

	xlate_stream(ctx, &rs_ops, &rs);
	ck_assert_int_eq(xlate_read_save(ctx, "f", recent_file(rules)), 0);
	ck_assert_int_eq(xlate_stream_status(ctx), 0);
	ck_assert_uint_eq(rs.sets, 1);
	ck_assert_uint_ge(rs.rules, 2);
	xlate_ctx_free(ctx);
	return rs.timeout;
}

/* whole file: the printed text, its status, and the warnings' lines */
static char *recent_printed(const char *rules, int *ret, char *warned,
			    size_t wlen)
{
	struct xlate_ctx *ctx = xlate_ctx_alloc(NFPROTO_IPV4, 0);
	const struct error_record *e;
	char *buf = NULL;
	size_t len, at = 0;
	FILE *f;

	ck_assert_int_eq(xlate_read_save(ctx, "f", recent_file(rules)), 0);
	f = open_memstream(&buf, &len);
	*ret = xlate_print(ctx, f);
	fclose(f);
	warned[0] = '\0';
	list_for_each_entry(e, &xlate_errors(ctx)->records, list) {
		if (e->type == EREC_WARNING && strstr(e->msg, "recent") &&
		    at + 16 < wlen)
			at += snprintf(warned + at, wlen - at, "%u,",
				       e->loc.first_line);
	}
	xlate_ctx_free(ctx);
	return buf;
}

START_TEST(test_recent_window)
{
	static const struct {
		const char	*rules;
		uint64_t	timeout;	/* ms: the longest --seconds */
		const char	*warned;	/* lines of inexact rules */
	} cases[] = {
		/* --set first, the window later: the reported bug */
		{ "-A INPUT -m recent --set --name ssh\n"
		  "-A INPUT -j SSH\n"
		  "-A SSH -m recent --rcheck --seconds 60 --name ssh "
		  "-j DROP\n", 60000, "" },
		/* a shorter window first: both rules see 60s entries */
		{ "-A INPUT -m recent --update --seconds 30 --name ssh "
		  "-j DROP\n"
		  "-A SSH -m recent --rcheck --seconds 60 --name ssh "
		  "-j DROP\n"
		  "-A INPUT -m recent --set --name ssh\n", 60000, "4," },
		/* "seen ever" (no --seconds) on a list that expires */
		{ "-A INPUT -m recent --set --name ssh\n"
		  "-A INPUT -m recent --rcheck --name ssh -j ACCEPT\n"
		  "-A SSH -m recent --update --seconds 60 --name ssh "
		  "-j DROP\n", 60000, "5," },
		/* counters and -I 1 are rules like the others */
		{ "[0:0] -A INPUT -m recent --set --name ssh\n"
		  "-I SSH 1 -m recent --rcheck --seconds 120 --name ssh "
		  "-j DROP\n", 120000, "" },
		/* no window anywhere: entries never expire */
		{ "-A INPUT -m recent --set --name ssh\n"
		  "-A SSH -m recent --rcheck --name ssh -j DROP\n",
		  0, "" },
	};
	char want[64], warned[64], *out;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(recent_streamed(cases[i].rules) ==
			      cases[i].timeout, "case %u: streamed", i);
		out = recent_printed(cases[i].rules, &ret, warned,
				     sizeof(warned));
		if (cases[i].timeout)
			snprintf(want, sizeof(want), "timeout %" PRIu64 "%s\n",
				 cases[i].timeout % 60000 ?
				 cases[i].timeout / 1000 :
				 cases[i].timeout / 60000,
				 cases[i].timeout % 60000 ? "s" : "m");
		else
			snprintf(want, sizeof(want), "timeout ");
		ck_assert_msg((strstr(out, want) != NULL) ==
			      (cases[i].timeout != 0), "case %u: %s", i, out);
		ck_assert_str_eq(warned, cases[i].warned);
		ck_assert_int_eq(ret, cases[i].warned[0] ? 1 : 0);
		free(out);
	}
}
END_TEST

/*
 * XLATE_F_STREAM (ipt2nft): rules evaluated, printed and freed as they
 * are read give the bytes, the status and the diagnostics (in their
 * order) of the whole-file evaluation: rules of several chains mixed,
 * -I, a table read twice, sets declared by rules (recent, meters,
 * connlimit), anonymous sets, a rule the evaluator rejects after
 * others, a rule that does not parse.
 */
static const char stream_file[] =
	"*filter\n:INPUT ACCEPT [3:4]\n:FORWARD DROP [0:0]\n"
	":OUTPUT ACCEPT [0:0]\n:u1 - [0:0]\n"
	"-A u1 -p tcp -m multiport --dports 1,2,3 -j ACCEPT\n"
	"-A INPUT -m recent --name r --rcheck --seconds 30 --hitcount 2 "
	"-j DROP\n"
	"-A INPUT -p tcp -m hashlimit --hashlimit-upto 3 "
	"--hashlimit-mode dstip --hashlimit-name h2 -j DROP\n"
	"-A INPUT -p tcp -m tcp --dport 443 -m hashlimit --hashlimit-upto 3 "
	"--hashlimit-mode srcip,dstip --hashlimit-name h2 -j DROP\n"
	"-I INPUT -p udp -m multiport --dports 7,8 -j ACCEPT\n"
	"[5:6] -A FORWARD -s 10.0.0.0/8 -j u1\n"
	"-A INPUT -p tcp -m hashlimit --hashlimit-above 10/sec "
	"--hashlimit-name h1 --hashlimit-mode srcip -j DROP\n"
	"-A OUTPUT -p tcp --dport 99999 -j ACCEPT\n"
	"-I INPUT -j u1\n"
	"-A INPUT -m recent --name r --rcheck --seconds 90 --hitcount 4 "
	"-j DROP\n"
	"-A OUTPUT -p tcp -m connlimit --connlimit-above 5 -j REJECT\n"
	"COMMIT\n"
	"*nat\n:PREROUTING ACCEPT [0:0]\n:POSTROUTING ACCEPT [0:0]\n"
	"-A POSTROUTING -o eth0 -j MASQUERADE\n"
	"COMMIT\n"
	"*filter\n:u2 - [0:0]\n-A u2 -j ACCEPT\n-I FORWARD -j u2\n"
	"-A FORWARD -m recent --name r --set\nCOMMIT\n";

/* the printed text, then the diagnostics as ipt2nft prints them */
static char *stream_run_text(const char *text, unsigned int flags, int *ret,
			     unsigned long *hits)
{
	struct xlate_ctx *ctx = xlate_ctx_alloc(NFPROTO_IPV4, flags);
	const struct error_record *e;
	unsigned long tm, pr;
	char *buf = NULL;
	size_t len;
	FILE *f;

	xlate_read_save(ctx, "f", strdup(text));
	f = open_memstream(&buf, &len);
	*ret = xlate_print(ctx, f);
	list_for_each_entry(e, &xlate_errors(ctx)->records, list)
		xlate_format_erec(f, e);
	fprintf(f, "stats %u %u %u %u\n", xlate_stats(ctx)->rules,
		xlate_stats(ctx)->translated, xlate_stats(ctx)->inexact,
		xlate_stats(ctx)->failed);
	fclose(f);
	if (hits)
		xlate_memo_stats(ctx, hits, &tm, &pr);
	xlate_ctx_free(ctx);
	return buf;
}

static char *stream_run(unsigned int flags, int *ret)
{
	return stream_run_text(stream_file, flags, ret, NULL);
}

START_TEST(test_stream_same)
{
	static const unsigned int flags[] = {
		0, XLATE_F_COMMANDS, XLATE_F_COUNTERS,
		XLATE_F_COMMANDS | XLATE_F_COUNTERS, XLATE_F_NO_COUNTER,
	};
	unsigned int i;
	int ret, sret;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		char *whole = stream_run(flags[i], &ret);
		char *streamed = stream_run(flags[i] | XLATE_F_STREAM, &sret);

		/* the whole-file run saw what this test is about */
		ck_assert_ptr_nonnull(strstr(whole, "datatype mismatch"));
		ck_assert_ptr_nonnull(strstr(whole, "99999"));
		ck_assert_ptr_nonnull(strstr(whole, "stats 15 11 2 2\n"));
		ck_assert_str_eq(streamed, whole);
		ck_assert_int_eq(sret, ret);
		ck_assert_int_eq(ret, 1);
		free(whole);
		free(streamed);
	}
}
END_TEST

/*
 * The memo (xlate/memo.c) prints what the full path prints: rules of a
 * few shapes with varied values, and the stream test's file, repeated;
 * every flag set. Rules with effects beyond their text (connlimit's
 * set, recent, a warning) are never printed from a template.
 */
START_TEST(test_memo_same)
{
	static const unsigned int flags[] = {
		XLATE_F_STREAM, XLATE_F_STREAM | XLATE_F_COMMANDS,
		XLATE_F_STREAM | XLATE_F_COUNTERS,
		XLATE_F_STREAM | XLATE_F_COMMANDS | XLATE_F_COUNTERS,
		XLATE_F_STREAM | XLATE_F_NO_COUNTER,
	};
	static const char *const shapes[] = {
		"-A INPUT -s 10.%u.1.%u/24 -j DROP\n",
		"-A u1 -p tcp -m tcp --dport %u:%u -j ACCEPT\n",
		"-A FORWARD -p udp -m multiport --dports %u,%u -j ACCEPT\n",
		"-A OUTPUT -m mark --mark 0x%x/0xff%x -j RETURN\n",
		"-A INPUT -m comment --comment \"c %u %u\" -j LOG\n",
		"[%u:%u] -A INPUT -p tcp --dport 22 -j ACCEPT\n",
	};
	char *text = NULL, *on, *off;
	unsigned long hits, nohits;
	unsigned int i, k;
	size_t len;
	int ret, mret;
	FILE *f;

	f = open_memstream(&text, &len);
	fputs("*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n"
	      ":OUTPUT ACCEPT [0:0]\n:u1 - [0:0]\n", f);
	for (i = 1; i < 200; i++) {
		k = i % (sizeof(shapes) / sizeof(shapes[0]));
		fprintf(f, shapes[k], i % 7 ? i : 0, i * 7 % 300);
		if (i % 5 == 0)	/* never from a template: a set each */
			fputs("-A OUTPUT -p tcp -m connlimit "
			      "--connlimit-above 5 -j REJECT\n", f);
	}
	fputs("COMMIT\n", f);
	fputs(stream_file, f);
	fputs(stream_file, f);
	fclose(f);
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		off = stream_run_text(text, flags[i], &ret, &nohits);
		on = stream_run_text(text, flags[i] | XLATE_F_MEMO, &mret,
				     &hits);
		ck_assert_str_eq(on, off);
		ck_assert_int_eq(mret, ret);
		ck_assert_uint_eq(nohits, 0);
		ck_assert_uint_gt(hits, 50);
		/* connlimit's sets: connlimit0 .. one per rule */
		ck_assert_ptr_nonnull(strstr(on, "connlimit38"));
		free(on);
		free(off);
	}
	free(text);
}
END_TEST

static Suite *xlate_suite(void)
{
	Suite *s = suite_create("xlate");
	TCase *tc = tcase_create("mappings");

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_conntrack);
	tcase_add_test(tc, test_marks);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_iface_chains);
	tcase_add_test(tc, test_cgroup);
	tcase_add_test(tc, test_cluster);
	tcase_add_test(tc, test_connbytes);
	tcase_add_test(tc, test_connlabel);
	tcase_add_test(tc, test_dccp_sctp);
	tcase_add_test(tc, test_sctp_chunks);
	tcase_add_test(tc, test_tee_oif);
	tcase_add_test(tc, test_ecn);
	tcase_add_test(tc, test_rpfilter);
	tcase_add_test(tc, test_tos_target);
	tcase_add_test(tc, test_checksum);
	tcase_add_test(tc, test_rates);
	tcase_add_test(tc, test_misc_fixed);
	tcase_add_test(tc, test_ipset);
	tcase_add_test(tc, test_u32);
	tcase_add_test(tc, test_xtports);
	tcase_add_test(tc, test_xticmp);
	tcase_add_test(tc, test_xtmport);
	tcase_add_test(tc, test_xttcpflags);
	tcase_add_test(tc, test_recent_window);
	tcase_add_test(tc, test_stream_same);
	tcase_add_test(tc, test_memo_same);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *xlate6_suite(void)
{
	Suite *s = suite_create("xlate6");
	TCase *tc = tcase_create("ip6 mappings");

	tcase_add_test(tc, test_ip6);
	tcase_add_test(tc, test_xtports6);
	suite_add_tcase(s, tc);
	return s;
}

static int run(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed;
}

int main(void)
{
	int status, failed;
	pid_t pid;

	/* libxtables is set up for one family per process */
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(run(xlate6_suite()) ? EXIT_FAILURE : EXIT_SUCCESS);
	failed = run(xlate_suite());
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		failed++;
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
