/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Name resolution for the compiler: the only place in nftc that turns
 * names into numbers by asking the system. The compiler core calls the
 * struct nftc_resolver it is given; "builtin" answers from compiled-in
 * tables (deterministic, for -c and tests), "system" asks
 * /etc/services, /etc/protocols, the user database, the interfaces and
 * the host resolver, then falls back to the built-in tables.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "datatype.h"

#define SYM(name, val)	{ .identifier = (name), .value = (val) }

/*
 * Protocol numbers, first name of each as Debian's /etc/protocols
 * (netbase) lists them, in number order.
 */
const struct symbolic_constant nftc_builtin_protocols[] = {
	SYM("ip", 0),
	SYM("hopopt", 0),
	SYM("icmp", 1),
	SYM("igmp", 2),
	SYM("ggp", 3),
	SYM("ipencap", 4),
	SYM("st", 5),
	SYM("tcp", 6),
	SYM("egp", 8),
	SYM("igp", 9),
	SYM("pup", 12),
	SYM("udp", 17),
	SYM("hmp", 20),
	SYM("xns-idp", 22),
	SYM("rdp", 27),
	SYM("iso-tp4", 29),
	SYM("dccp", 33),
	SYM("xtp", 36),
	SYM("ddp", 37),
	SYM("idpr-cmtp", 38),
	SYM("ipv6", 41),
	SYM("ipv6-route", 43),
	SYM("ipv6-frag", 44),
	SYM("idrp", 45),
	SYM("rsvp", 46),
	SYM("gre", 47),
	SYM("esp", 50),
	SYM("ah", 51),
	SYM("skip", 57),
	SYM("ipv6-icmp", 58),
	SYM("ipv6-nonxt", 59),
	SYM("ipv6-opts", 60),
	SYM("rspf", 73),
	SYM("vmtp", 81),
	SYM("eigrp", 88),
	SYM("ospf", 89),
	SYM("ax.25", 93),
	SYM("ipip", 94),
	SYM("etherip", 97),
	SYM("encap", 98),
	SYM("pim", 103),
	SYM("ipcomp", 108),
	SYM("vrrp", 112),
	SYM("l2tp", 115),
	SYM("isis", 124),
	SYM("sctp", 132),
	SYM("fc", 133),
	SYM("mobility-header", 135),
	SYM("udplite", 136),
	SYM("mpls-in-ip", 137),
	SYM("manet", 138),
	SYM("hip", 139),
	SYM("shim6", 140),
	SYM("wesp", 141),
	SYM("rohc", 142),
	SYM("ethernet", 143),
	SYM("mptcp", 262),
	SYMBOL_LIST_END
};

/* The aliases /etc/protocols gives (getprotobyname accepts them). */
static const struct symbolic_constant protocol_aliases[] = {
	SYM("IP", 0),
	SYM("HOPOPT", 0),
	SYM("ICMP", 1),
	SYM("IGMP", 2),
	SYM("GGP", 3),
	SYM("IP-ENCAP", 4),
	SYM("ST", 5),
	SYM("TCP", 6),
	SYM("EGP", 8),
	SYM("IGP", 9),
	SYM("PUP", 12),
	SYM("UDP", 17),
	SYM("HMP", 20),
	SYM("XNS-IDP", 22),
	SYM("RDP", 27),
	SYM("ISO-TP4", 29),
	SYM("DCCP", 33),
	SYM("XTP", 36),
	SYM("DDP", 37),
	SYM("IDPR-CMTP", 38),
	SYM("IPv6", 41),
	SYM("IPv6-Route", 43),
	SYM("IPv6-Frag", 44),
	SYM("IDRP", 45),
	SYM("RSVP", 46),
	SYM("GRE", 47),
	SYM("IPSEC-ESP", 50),
	SYM("IPSEC-AH", 51),
	SYM("SKIP", 57),
	SYM("IPv6-ICMP", 58),
	SYM("IPv6-NoNxt", 59),
	SYM("IPv6-Opts", 60),
	SYM("RSPF", 73),
	SYM("CPHB", 73),
	SYM("VMTP", 81),
	SYM("EIGRP", 88),
	SYM("OSPFIGP", 89),
	SYM("AX.25", 93),
	SYM("IPIP", 94),
	SYM("ETHERIP", 97),
	SYM("ENCAP", 98),
	SYM("PIM", 103),
	SYM("IPCOMP", 108),
	SYM("VRRP", 112),
	SYM("L2TP", 115),
	SYM("ISIS", 124),
	SYM("SCTP", 132),
	SYM("FC", 133),
	SYM("Mobility-Header", 135),
	SYM("UDPLite", 136),
	SYM("MPLS-in-IP", 137),
	SYM("HIP", 139),
	SYM("Shim6", 140),
	SYM("WESP", 141),
	SYM("ROHC", 142),
	SYM("Ethernet", 143),
	/* Keywords of the nft grammar that name protocols. */
	SYM("icmpv6", 58),
	SYM("MPTCP", 262),
	SYMBOL_LIST_END
};

/*
 * Service names and aliases with their ports, as Debian's
 * /etc/services (netbase) lists them, TCP entries first.
 */
static const struct symbolic_constant builtin_services[] = {
	SYM("tcpmux", 1),
	SYM("echo", 7),
	SYM("discard", 9),
	SYM("sink", 9),
	SYM("null", 9),
	SYM("systat", 11),
	SYM("users", 11),
	SYM("daytime", 13),
	SYM("netstat", 15),
	SYM("qotd", 17),
	SYM("quote", 17),
	SYM("chargen", 19),
	SYM("ttytst", 19),
	SYM("source", 19),
	SYM("ftp-data", 20),
	SYM("ftp", 21),
	SYM("fsp", 21),
	SYM("fspd", 21),
	SYM("ssh", 22),
	SYM("telnet", 23),
	SYM("smtp", 25),
	SYM("mail", 25),
	SYM("time", 37),
	SYM("timserver", 37),
	SYM("whois", 43),
	SYM("nicname", 43),
	SYM("tacacs", 49),
	SYM("domain", 53),
	SYM("bootps", 67),
	SYM("bootpc", 68),
	SYM("tftp", 69),
	SYM("gopher", 70),
	SYM("finger", 79),
	SYM("http", 80),
	SYM("www", 80),
	SYM("kerberos", 88),
	SYM("kerberos5", 88),
	SYM("krb5", 88),
	SYM("kerberos-sec", 88),
	SYM("iso-tsap", 102),
	SYM("tsap", 102),
	SYM("acr-nema", 104),
	SYM("dicom", 104),
	SYM("pop3", 110),
	SYM("pop-3", 110),
	SYM("sunrpc", 111),
	SYM("portmapper", 111),
	SYM("auth", 113),
	SYM("authentication", 113),
	SYM("tap", 113),
	SYM("ident", 113),
	SYM("nntp", 119),
	SYM("readnews", 119),
	SYM("untp", 119),
	SYM("ntp", 123),
	SYM("epmap", 135),
	SYM("loc-srv", 135),
	SYM("netbios-ns", 137),
	SYM("netbios-dgm", 138),
	SYM("netbios-ssn", 139),
	SYM("imap2", 143),
	SYM("imap", 143),
	SYM("snmp", 161),
	SYM("snmp-trap", 162),
	SYM("snmptrap", 162),
	SYM("cmip-man", 163),
	SYM("cmip-agent", 164),
	SYM("mailq", 174),
	SYM("xdmcp", 177),
	SYM("bgp", 179),
	SYM("smux", 199),
	SYM("qmtp", 209),
	SYM("z3950", 210),
	SYM("wais", 210),
	SYM("ipx", 213),
	SYM("ptp-event", 319),
	SYM("ptp-general", 320),
	SYM("pawserv", 345),
	SYM("zserv", 346),
	SYM("rpc2portmap", 369),
	SYM("codaauth2", 370),
	SYM("clearcase", 371),
	SYM("Clearcase", 371),
	SYM("ldap", 389),
	SYM("svrloc", 427),
	SYM("https", 443),
	SYM("snpp", 444),
	SYM("microsoft-ds", 445),
	SYM("kpasswd", 464),
	SYM("submissions", 465),
	SYM("ssmtp", 465),
	SYM("smtps", 465),
	SYM("urd", 465),
	SYM("saft", 487),
	SYM("isakmp", 500),
	SYM("rtsp", 554),
	SYM("nqs", 607),
	SYM("asf-rmcp", 623),
	SYM("qmqp", 628),
	SYM("ipp", 631),
	SYM("ldp", 646),
	SYM("exec", 512),
	SYM("biff", 512),
	SYM("comsat", 512),
	SYM("login", 513),
	SYM("who", 513),
	SYM("whod", 513),
	SYM("shell", 514),
	SYM("cmd", 514),
	SYM("syslog", 514),
	SYM("printer", 515),
	SYM("spooler", 515),
	SYM("talk", 517),
	SYM("ntalk", 518),
	SYM("route", 520),
	SYM("router", 520),
	SYM("routed", 520),
	SYM("gdomap", 538),
	SYM("uucp", 540),
	SYM("uucpd", 540),
	SYM("klogin", 543),
	SYM("kshell", 544),
	SYM("krcmd", 544),
	SYM("dhcpv6-client", 546),
	SYM("dhcpv6-server", 547),
	SYM("afpovertcp", 548),
	SYM("nntps", 563),
	SYM("snntp", 563),
	SYM("submission", 587),
	SYM("ldaps", 636),
	SYM("tinc", 655),
	SYM("silc", 706),
	SYM("kerberos-adm", 749),
	SYM("domain-s", 853),
	SYM("rsync", 873),
	SYM("ftps-data", 989),
	SYM("ftps", 990),
	SYM("telnets", 992),
	SYM("imaps", 993),
	SYM("pop3s", 995),
	SYM("socks", 1080),
	SYM("proofd", 1093),
	SYM("rootd", 1094),
	SYM("openvpn", 1194),
	SYM("rmiregistry", 1099),
	SYM("lotusnote", 1352),
	SYM("lotusnotes", 1352),
	SYM("ms-sql-s", 1433),
	SYM("ms-sql-m", 1434),
	SYM("ingreslock", 1524),
	SYM("datametrics", 1645),
	SYM("old-radius", 1645),
	SYM("sa-msg-port", 1646),
	SYM("old-radacct", 1646),
	SYM("kermit", 1649),
	SYM("groupwise", 1677),
	SYM("l2f", 1701),
	SYM("l2tp", 1701),
	SYM("radius", 1812),
	SYM("radius-acct", 1813),
	SYM("radacct", 1813),
	SYM("cisco-sccp", 2000),
	SYM("nfs", 2049),
	SYM("gnunet", 2086),
	SYM("rtcm-sc104", 2101),
	SYM("gsigatekeeper", 2119),
	SYM("gris", 2135),
	SYM("cvspserver", 2401),
	SYM("venus", 2430),
	SYM("venus-se", 2431),
	SYM("codasrv", 2432),
	SYM("codasrv-se", 2433),
	SYM("mon", 2583),
	SYM("dict", 2628),
	SYM("f5-globalsite", 2792),
	SYM("gsiftp", 2811),
	SYM("gpsd", 2947),
	SYM("gds-db", 3050),
	SYM("gds_db", 3050),
	SYM("icpv2", 3130),
	SYM("icp", 3130),
	SYM("isns", 3205),
	SYM("iscsi-target", 3260),
	SYM("mysql", 3306),
	SYM("ms-wbt-server", 3389),
	SYM("nut", 3493),
	SYM("distcc", 3632),
	SYM("daap", 3689),
	SYM("svn", 3690),
	SYM("subversion", 3690),
	SYM("suucp", 4031),
	SYM("sysrqd", 4094),
	SYM("sieve", 4190),
	SYM("epmd", 4369),
	SYM("remctl", 4373),
	SYM("f5-iquery", 4353),
	SYM("ntske", 4460),
	SYM("ipsec-nat-t", 4500),
	SYM("iax", 4569),
	SYM("mtn", 4691),
	SYM("radmin-port", 4899),
	SYM("sip", 5060),
	SYM("sip-tls", 5061),
	SYM("xmpp-client", 5222),
	SYM("jabber-client", 5222),
	SYM("xmpp-server", 5269),
	SYM("jabber-server", 5269),
	SYM("cfengine", 5308),
	SYM("mdns", 5353),
	SYM("postgresql", 5432),
	SYM("postgres", 5432),
	SYM("freeciv", 5556),
	SYM("rptp", 5556),
	SYM("amqps", 5671),
	SYM("amqp", 5672),
	SYM("x11", 6000),
	SYM("x11-0", 6000),
	SYM("x11-1", 6001),
	SYM("x11-2", 6002),
	SYM("x11-3", 6003),
	SYM("x11-4", 6004),
	SYM("x11-5", 6005),
	SYM("x11-6", 6006),
	SYM("x11-7", 6007),
	SYM("gnutella-svc", 6346),
	SYM("gnutella-rtr", 6347),
	SYM("redis", 6379),
	SYM("sge-qmaster", 6444),
	SYM("sge_qmaster", 6444),
	SYM("sge-execd", 6445),
	SYM("sge_execd", 6445),
	SYM("mysql-proxy", 6446),
	SYM("babel", 6696),
	SYM("ircs-u", 6697),
	SYM("bbs", 7000),
	SYM("afs3-fileserver", 7000),
	SYM("afs3-callback", 7001),
	SYM("afs3-prserver", 7002),
	SYM("afs3-vlserver", 7003),
	SYM("afs3-kaserver", 7004),
	SYM("afs3-volser", 7005),
	SYM("afs3-bos", 7007),
	SYM("afs3-update", 7008),
	SYM("afs3-rmtsys", 7009),
	SYM("font-service", 7100),
	SYM("xfs", 7100),
	SYM("http-alt", 8080),
	SYM("webcache", 8080),
	SYM("puppet", 8140),
	SYM("bacula-dir", 9101),
	SYM("bacula-fd", 9102),
	SYM("bacula-sd", 9103),
	SYM("xmms2", 9667),
	SYM("nbd", 10809),
	SYM("zabbix-agent", 10050),
	SYM("zabbix-trapper", 10051),
	SYM("amanda", 10080),
	SYM("hkp", 11371),
	SYM("db-lsp", 17500),
	SYM("dcap", 22125),
	SYM("gsidcap", 22128),
	SYM("wnn6", 22273),
	SYM("kerberos4", 750),
	SYM("kerberos-iv", 750),
	SYM("kdc", 750),
	SYM("kerberos-master", 751),
	SYM("kerberos_master", 751),
	SYM("passwd-server", 752),
	SYM("passwd_server", 752),
	SYM("krb-prop", 754),
	SYM("krb_prop", 754),
	SYM("krb5_prop", 754),
	SYM("hprop", 754),
	SYM("zephyr-srv", 2102),
	SYM("zephyr-clt", 2103),
	SYM("zephyr-hm", 2104),
	SYM("iprop", 2121),
	SYM("supfilesrv", 871),
	SYM("supfiledbg", 1127),
	SYM("poppassd", 106),
	SYM("moira-db", 775),
	SYM("moira_db", 775),
	SYM("moira-update", 777),
	SYM("moira_update", 777),
	SYM("moira-ureg", 779),
	SYM("moira_ureg", 779),
	SYM("spamd", 783),
	SYM("skkserv", 1178),
	SYM("predict", 1210),
	SYM("rmtcfg", 1236),
	SYM("xtel", 1313),
	SYM("xtelw", 1314),
	SYM("zebrasrv", 2600),
	SYM("zebra", 2601),
	SYM("ripd", 2602),
	SYM("ripngd", 2603),
	SYM("ospfd", 2604),
	SYM("bgpd", 2605),
	SYM("ospf6d", 2606),
	SYM("ospfapi", 2607),
	SYM("isisd", 2608),
	SYM("fax", 4557),
	SYM("hylafax", 4559),
	SYM("munin", 4949),
	SYM("lrrd", 4949),
	SYM("rplay", 5555),
	SYM("nrpe", 5666),
	SYM("nsca", 5667),
	SYM("canna", 5680),
	SYM("syslog-tls", 6514),
	SYM("sane-port", 6566),
	SYM("sane", 6566),
	SYM("saned", 6566),
	SYM("ircd", 6667),
	SYM("zope-ftp", 8021),
	SYM("tproxy", 8081),
	SYM("omniorb", 8088),
	SYM("clc-build-daemon", 8990),
	SYM("xinetd", 9098),
	SYM("git", 9418),
	SYM("zope", 9673),
	SYM("webmin", 10000),
	SYM("kamanda", 10081),
	SYM("amandaidx", 10082),
	SYM("amidxtape", 10083),
	SYM("sgi-cmsd", 17001),
	SYM("sgi-crsd", 17002),
	SYM("sgi-gcd", 17003),
	SYM("sgi-cad", 17004),
	SYM("binkp", 24554),
	SYM("asp", 27374),
	SYM("csync2", 30865),
	SYM("dircproxy", 57000),
	SYM("tfido", 60177),
	SYM("fido", 60179),
	SYMBOL_LIST_END
};

/* Accounts every Debian system has (base-passwd), for -c determinism. */
static const struct symbolic_constant builtin_users[] = {
	SYM("root", 0), SYM("daemon", 1), SYM("bin", 2), SYM("sys", 3),
	SYM("sync", 4), SYM("games", 5), SYM("man", 6), SYM("lp", 7),
	SYM("mail", 8), SYM("news", 9), SYM("uucp", 10), SYM("proxy", 13),
	SYM("www-data", 33), SYM("backup", 34), SYM("list", 38),
	SYM("irc", 39), SYM("nobody", 65534),
	SYMBOL_LIST_END
};

static const struct symbolic_constant builtin_groups[] = {
	SYM("root", 0), SYM("daemon", 1), SYM("bin", 2), SYM("sys", 3),
	SYM("adm", 4), SYM("tty", 5), SYM("disk", 6), SYM("lp", 7),
	SYM("mail", 8), SYM("news", 9), SYM("uucp", 10), SYM("man", 12),
	SYM("proxy", 13), SYM("kmem", 15), SYM("dialout", 20),
	SYM("cdrom", 24), SYM("sudo", 27), SYM("audio", 29),
	SYM("www-data", 33), SYM("backup", 34), SYM("operator", 37),
	SYM("list", 38), SYM("irc", 39), SYM("src", 40), SYM("shadow", 42),
	SYM("utmp", 43), SYM("video", 44), SYM("sasl", 45),
	SYM("plugdev", 46), SYM("staff", 50), SYM("games", 60),
	SYM("users", 100), SYM("nogroup", 65534),
	SYMBOL_LIST_END
};

/* Every network namespace has a loopback device, index 1. */
static const struct symbolic_constant builtin_interfaces[] = {
	SYM("lo", 1),
	SYMBOL_LIST_END
};

static int table_lookup(const struct symbolic_constant *tbl,
			const char *name, uint64_t *value)
{
	for (; tbl->identifier; tbl++) {
		if (!strcmp(tbl->identifier, name)) {
			*value = tbl->value;
			return 0;
		}
	}
	return -ENOENT;
}

static const char *table_name(const struct symbolic_constant *tbl,
			      uint64_t value)
{
	for (; tbl->identifier; tbl++) {
		if (tbl->value == value)
			return tbl->identifier;
	}
	return NULL;
}

/**
 * nftc_protocol_name - first /etc/protocols name of @proto, or NULL
 */
const char *nftc_protocol_name(unsigned int proto)
{
	return table_name(nftc_builtin_protocols, proto);
}

/**
 * nftc_service_name - first /etc/services name of port @port, or NULL
 */
const char *nftc_service_name(unsigned int port)
{
	return table_name(builtin_services, port);
}

static int builtin_service(void *priv, const char *name, uint16_t *port)
{
	uint64_t v;

	if (table_lookup(builtin_services, name, &v) < 0)
		return -ENOENT;
	*port = v;
	return 0;
}

static int builtin_protocol(void *priv, const char *name, uint8_t *proto)
{
	uint64_t v;

	if ((table_lookup(nftc_builtin_protocols, name, &v) < 0 &&
	     table_lookup(protocol_aliases, name, &v) < 0) || v > UINT8_MAX)
		return -ENOENT;
	*proto = v;
	return 0;
}

static int builtin_host(void *priv, const char *name, int family,
			uint8_t (*addrs)[16], unsigned int max)
{
	return -ENOENT;
}

static int builtin_id(const struct symbolic_constant *tbl, const char *name,
		      uint32_t *id)
{
	uint64_t v;

	if (table_lookup(tbl, name, &v) < 0)
		return -ENOENT;
	*id = v;
	return 0;
}

static int builtin_uid(void *priv, const char *name, uint32_t *uid)
{
	return builtin_id(builtin_users, name, uid);
}

static int builtin_gid(void *priv, const char *name, uint32_t *gid)
{
	return builtin_id(builtin_groups, name, gid);
}

static int builtin_ifindex(void *priv, const char *name, uint32_t *index)
{
	return builtin_id(builtin_interfaces, name, index);
}

const struct nftc_resolver nftc_resolver_builtin = {
	.service	= builtin_service,
	.protocol	= builtin_protocol,
	.host		= builtin_host,
	.uid		= builtin_uid,
	.gid		= builtin_gid,
	.ifindex	= builtin_ifindex,
};

/* The system: libc name services, then the built-in tables. */

static int system_service(void *priv, const char *name, uint16_t *port)
{
	struct servent *se = getservbyname(name, "tcp");

	if (!se)
		se = getservbyname(name, "udp");
	if (se) {
		*port = ntohs(se->s_port);
		return 0;
	}
	return builtin_service(priv, name, port);
}

static int system_protocol(void *priv, const char *name, uint8_t *proto)
{
	struct protoent *pe = getprotobyname(name);

	if (pe && pe->p_proto >= 0 && pe->p_proto <= UINT8_MAX) {
		*proto = pe->p_proto;
		return 0;
	}
	return builtin_protocol(priv, name, proto);
}

static int gai_to_errno(int err)
{
	switch (err) {
	case EAI_AGAIN:
		return -EAGAIN;
	case EAI_FAMILY:
	case EAI_ADDRFAMILY:
		return -EAFNOSUPPORT;
	case EAI_MEMORY:
		return -ENOMEM;
	default:
		return -ENOENT;
	}
}

static int system_host(void *priv, const char *name, int family,
		       uint8_t (*addrs)[16], unsigned int max)
{
	struct addrinfo hints = {
		.ai_family	= family,
		.ai_socktype	= SOCK_DGRAM,
	};
	struct addrinfo *ai, *p;
	unsigned int n = 0;
	int err;

	err = getaddrinfo(name, NULL, &hints, &ai);
	if (err)
		return gai_to_errno(err);
	for (p = ai; p; p = p->ai_next) {
		if (p->ai_family != family)
			continue;
		if (n < max) {
			memset(addrs[n], 0, 16);
			if (family == AF_INET)
				memcpy(addrs[n], &((struct sockaddr_in *)
					(void *)p->ai_addr)->sin_addr, 4);
			else
				memcpy(addrs[n], &((struct sockaddr_in6 *)
					(void *)p->ai_addr)->sin6_addr, 16);
		}
		n++;
	}
	freeaddrinfo(ai);
	return n ? (int)n : -ENOENT;
}

static int system_uid(void *priv, const char *name, uint32_t *uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwnam_r(name, &pw, buf, sizeof(buf), &res) == 0 && res) {
		*uid = res->pw_uid;
		return 0;
	}
	return builtin_uid(priv, name, uid);
}

static int system_gid(void *priv, const char *name, uint32_t *gid)
{
	struct group gr, *res = NULL;
	char buf[4096];

	if (getgrnam_r(name, &gr, buf, sizeof(buf), &res) == 0 && res) {
		*gid = res->gr_gid;
		return 0;
	}
	return builtin_gid(priv, name, gid);
}

static int system_ifindex(void *priv, const char *name, uint32_t *index)
{
	unsigned int i = if_nametoindex(name);

	if (!i)
		return -ENODEV;
	*index = i;
	return 0;
}

const struct nftc_resolver nftc_resolver_system = {
	.service	= system_service,
	.protocol	= system_protocol,
	.host		= system_host,
	.uid		= system_uid,
	.gid		= system_gid,
	.ifindex	= system_ifindex,
};

/*
 * A device a rule names ("dup to ... device eth0") must exist when the
 * rule is loaded, whatever resolves the rest: ipt2nft's default.
 */
const struct nftc_resolver nftc_resolver_builtin_ifaces = {
	.service	= builtin_service,
	.protocol	= builtin_protocol,
	.host		= builtin_host,
	.uid		= builtin_uid,
	.gid		= builtin_gid,
	.ifindex	= system_ifindex,
};
