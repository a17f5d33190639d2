/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Datatypes of meta, ct, rt, fib and socket keys: marks, interfaces,
 * users, conntrack state bits, times and dates. Facts as in stock nft
 * 1.0.6. Names that stock nft reads from /etc files (iproute2 groups
 * and realms, users, connlabels) resolve here through the injected
 * resolver or the iproute2 default entries only: the core does no I/O.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "datatype_int.h"

#define SYM(name, val)	{ .identifier = (name), .value = (val) }

/* Relative time: "1d2h3m4s5ms" */

struct time_unit {
	const char	*suffix;
	const char	*what;
	uint64_t	ms;
};

/* Longest suffix first so that "ms" is not read as "m" then "s". */
static const struct time_unit time_units[] = {
	{ "ms",	"Millisecond",	1 },
	{ "d",	"Day",		24ULL * 3600 * 1000 },
	{ "h",	"Hour",		3600 * 1000 },
	{ "m",	"Minute",	60 * 1000 },
	{ "s",	"Second",	1000 },
};

#define TIME_MAX_DIGITS	8

/**
 * nftc_time_parse - parse a relative time into milliseconds
 *
 * Groups of at most 8 digits each followed by a unit d, h, m, s or ms,
 * each unit at most once; a bare number means seconds.
 */
int nftc_time_parse(struct erec_queue *erq, const struct location *loc,
		    const char *str, uint64_t *ms)
{
	unsigned int seen = 0, i, digits = 0;
	uint64_t total = 0, num = 0;
	const char *c = str;

	while (*c) {
		if (*c >= '0' && *c <= '9') {
			if (digits++ >= TIME_MAX_DIGITS)
				return erec_error(erq, loc, "value too large");
			num = num * 10 + (*c++ - '0');
			continue;
		}
		for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]);
		     i++) {
			size_t n = strlen(time_units[i].suffix);

			/* "ms" only counts as a unit at the very end. */
			if (n == 2 && strcmp(c, "ms"))
				continue;
			if (!strncmp(c, time_units[i].suffix, n))
				break;
		}
		if (i == sizeof(time_units) / sizeof(time_units[0]))
			return erec_error(erq, loc, "wrong time format");
		if (seen & (1u << i))
			return erec_error(erq, loc, "%s has been specified twice",
					  time_units[i].what);
		seen |= 1u << i;
		total += num * time_units[i].ms;
		num = 0;
		digits = 0;
		c += strlen(time_units[i].suffix);
	}
	*ms = seen ? total + 0 : num * 1000;
	return 0;
}

/**
 * nftc_time_print - print @ms as "1d2h3m4s5ms" ("0s" for zero)
 * @seconds: print plain seconds ("-T")
 */
void nftc_time_print(FILE *f, uint64_t ms, bool seconds)
{
	static const char *const sfx[] = { "d", "h", "m", "s", "ms" };
	static const uint64_t div[] = {
		86400000, 3600000, 60000, 1000, 1
	};
	bool printed = false;
	unsigned int i;

	if (seconds) {
		fprintf(f, "%" PRIu64 "s", ms / 1000);
		return;
	}
	for (i = 0; i < 5; i++) {
		uint64_t n = ms / div[i];

		ms %= div[i];
		if (n) {
			fprintf(f, "%" PRIu64 "%s", n, sfx[i]);
			printed = true;
		}
	}
	if (!printed)
		nftc_puts("0s", f);
}

static void time_type_print(const struct expr *expr, struct output_ctx *octx)
{
	nftc_time_print(octx->f, value_get_u64(&expr->value),
			octx->flags & NFTC_OUTPUT_SECONDS);
}

static int time_type_parse(struct dt_parse_ctx *ctx,
			   const struct datatype *dtype,
			   const struct expr *sym, struct expr **res)
{
	uint64_t ms;

	if (nftc_time_parse(ctx->erq, &sym->location, dt_text(sym), &ms) < 0)
		return -1;
	if (ms > UINT32_MAX)
		return dt_error(ctx, sym, "value too large");
	return dt_const_u64(dtype, sym, ms, res);
}

const struct datatype time_type = {
	.type		= TYPE_TIME,
	.name		= "time",
	.desc		= "relative time",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.print		= time_type_print,
	.parse		= time_type_parse,
};

/* Marks, classids, realms, groups */

const struct datatype mark_type = {
	.type		= TYPE_MARK,
	.name		= "mark",
	.desc		= "packet mark",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basefmt	= "0x%.8" PRIx64,
	.basetype	= &integer_type,
};

#define TC_ROOT		0xffffffffu

static void classid_type_print(const struct expr *expr,
			       struct output_ctx *octx)
{
	uint32_t h = value_get_u64(&expr->value);

	if (h == TC_ROOT)
		nftc_puts("root", octx->f);
	else if (h == 0)
		nftc_puts("none", octx->f);
	else
		fprintf(octx->f, "%x:%x", h >> 16, h & 0xffff);
}

/*
 * "root", "none", "MAJOR:MINOR" in hex (either may be empty), or a
 * number. Like stock nft, junk after the digits is ignored.
 */
static int classid_type_parse(struct dt_parse_ctx *ctx,
			      const struct datatype *dtype,
			      const struct expr *sym, struct expr **res)
{
	const char *s = dt_text(sym), *colon = strchr(s, ':');
	uint32_t handle;

	if (!strcmp(s, "root")) {
		handle = TC_ROOT;
	} else if (!strcmp(s, "none")) {
		handle = 0;
	} else if (colon) {
		errno = 0;
		handle = (uint32_t)(uint16_t)strtoull(s, NULL, 16) << 16;
		if (colon[1])
			handle |= (uint16_t)strtoull(colon + 1, NULL, 16);
		if (errno)
			return dt_error(ctx, sym, "Could not parse %s",
					dtype->desc);
	} else {
		handle = strtoull(s, NULL, 0);
	}
	return dt_const_u64(dtype, sym, handle, res);
}

const struct datatype classid_type = {
	.type		= TYPE_CLASSID,
	.name		= "classid",
	.desc		= "TC classid",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.print		= classid_type_print,
	.parse		= classid_type_parse,
};

/*
 * The entries iproute2 ships in /etc/iproute2/rt_realms and group.
 * Parsing only: stock "describe" lists nothing for these types.
 */
static const struct symbolic_constant realm_syms[] = {
	SYM("cosmos", 0),
	SYMBOL_LIST_END
};

static const struct symbol_table realm_tbl = {
	.base = DT_BASE_DECIMAL, .size = 32, .symbols = realm_syms,
};

static const struct symbolic_constant devgroup_syms[] = {
	SYM("default", 0),
	SYMBOL_LIST_END
};

static const struct symbol_table devgroup_tbl = {
	.base = DT_BASE_DECIMAL, .size = 32, .symbols = devgroup_syms,
};

static int realm_type_parse(struct dt_parse_ctx *ctx,
			    const struct datatype *dtype,
			    const struct expr *sym, struct expr **res)
{
	int ret = dt_symbol_parse(&realm_tbl, dtype, sym, res);

	if (ret)
		return ret < 0 ? -1 : 0;
	return integer_type_parse(ctx, dtype, sym, res);
}

static void realm_type_print(const struct expr *expr, struct output_ctx *octx)
{
	if (value_get_u64(&expr->value) == 0 &&
	    !(octx->flags & NFTC_OUTPUT_NUMERIC_SYMBOL)) {
		nftc_puts("\"cosmos\"", octx->f);
		return;
	}
	integer_type_print(expr, octx);
}

const struct datatype realm_type = {
	.type		= TYPE_REALM,
	.name		= "realm",
	.desc		= "routing realm",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.print		= realm_type_print,
	.parse		= realm_type_parse,
};

static int devgroup_type_parse(struct dt_parse_ctx *ctx,
			       const struct datatype *dtype,
			       const struct expr *sym, struct expr **res)
{
	int ret = dt_symbol_parse(&devgroup_tbl, dtype, sym, res);

	if (ret)
		return ret < 0 ? -1 : 0;
	return integer_type_parse(ctx, dtype, sym, res);
}

static void devgroup_type_print(const struct expr *expr,
				struct output_ctx *octx)
{
	if (value_get_u64(&expr->value) == 0 &&
	    !(octx->flags & NFTC_OUTPUT_NUMERIC_SYMBOL)) {
		nftc_puts("\"default\"", octx->f);
		return;
	}
	integer_type_print(expr, octx);
}

const struct datatype devgroup_type = {
	.type		= TYPE_DEVGROUP,
	.name		= "devgroup",
	.desc		= "devgroup name",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.flags		= DTYPE_F_PREFIX,
	.basetype	= &integer_type,
	.print		= devgroup_type_print,
	.parse		= devgroup_type_parse,
};

/* Interfaces, users, groups */

static int ifindex_type_parse(struct dt_parse_ctx *ctx,
			      const struct datatype *dtype,
			      const struct expr *sym, struct expr **res)
{
	const struct nftc_resolver *r = ctx->resolver;
	const char *s = dt_text(sym);
	uint32_t index = 0;
	char *end;
	long n;

	if (r && r->ifindex && r->ifindex(r->priv, s, &index) == 0 && index)
		return dt_const_u64(dtype, sym, index, res);
	errno = 0;
	n = strtol(s, &end, 10);
	if (end == s || *end || errno || n < 0 || n > INT32_MAX)
		return dt_error(ctx, sym, "Interface does not exist");
	return dt_const_u64(dtype, sym, n, res);
}

const struct datatype ifindex_type = {
	.type		= TYPE_IFINDEX,
	.name		= "iface_index",
	.desc		= "network interface index",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.parse		= ifindex_type_parse,
};

static const struct symbolic_constant arphrd_syms[] = {
	SYM("ether",	1),
	SYM("ppp",	512),
	SYM("ipip",	768),
	SYM("ipip6",	769),
	SYM("loopback",	772),
	SYM("sit",	776),
	SYM("ipgre",	778),
	SYMBOL_LIST_END
};

static const struct symbol_table arphrd_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_HOST, .size = 16,
	.symbols = arphrd_syms,
};

const struct datatype arphrd_type = {
	.type		= TYPE_ARPHRD,
	.name		= "iface_type",
	.desc		= "network interface type",
	.byteorder	= BYTEORDER_HOST,
	.size		= 2 * 8,
	.basetype	= &integer_type,
	.sym_tbl	= &arphrd_tbl,
};

/* A user or group name through the resolver, else a number. */
static int id_parse(struct dt_parse_ctx *ctx, const struct datatype *dtype,
		    const struct expr *sym, struct expr **res, bool user)
{
	const struct nftc_resolver *r = ctx->resolver;
	int (*cb)(void *, const char *, uint32_t *);
	const char *s = dt_text(sym);
	unsigned long long n;
	uint32_t id;
	char *end;

	cb = r ? (user ? r->uid : r->gid) : NULL;
	if (cb && cb(r->priv, s, &id) == 0)
		return dt_const_u64(dtype, sym, id, res);
	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno == ERANGE || n > UINT32_MAX)
		return dt_error(ctx, sym, "Value too large");
	if (end == s || *end)
		return dt_error(ctx, sym, "%s does not exist",
				user ? "User" : "Group");
	return dt_const_u64(dtype, sym, n, res);
}

static int uid_type_parse(struct dt_parse_ctx *ctx,
			  const struct datatype *dtype,
			  const struct expr *sym, struct expr **res)
{
	return id_parse(ctx, dtype, sym, res, true);
}

static int gid_type_parse(struct dt_parse_ctx *ctx,
			  const struct datatype *dtype,
			  const struct expr *sym, struct expr **res)
{
	return id_parse(ctx, dtype, sym, res, false);
}

const struct datatype uid_type = {
	.type		= TYPE_UID,
	.name		= "uid",
	.desc		= "user ID",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.parse		= uid_type_parse,
};

const struct datatype gid_type = {
	.type		= TYPE_GID,
	.name		= "gid",
	.desc		= "group ID",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.parse		= gid_type_parse,
};

static const struct symbolic_constant pkttype_syms[] = {
	SYM("host",		0),
	SYM("unicast",		0),
	SYM("broadcast",	1),
	SYM("multicast",	2),
	SYM("other",		3),
	SYMBOL_LIST_END
};

static const struct symbol_table pkttype_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_HOST, .size = 8,
	.symbols = pkttype_syms,
};

const struct datatype pkttype_type = {
	.type		= TYPE_PKTTYPE,
	.name		= "pkt_type",
	.desc		= "packet type",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &pkttype_tbl,
};

/* Conntrack */

static const struct symbolic_constant ct_state_syms[] = {
	SYM("invalid",		0x01),
	SYM("new",		0x08),
	SYM("established",	0x02),
	SYM("related",		0x04),
	SYM("untracked",	0x40),
	SYMBOL_LIST_END
};

static const struct symbol_table ct_state_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_HOST, .size = 32,
	.symbols = ct_state_syms,
};

const struct datatype ct_state_type = {
	.type		= TYPE_CT_STATE,
	.name		= "ct_state",
	.desc		= "conntrack state",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &bitmask_type,
	.sym_tbl	= &ct_state_tbl,
};

static const struct symbolic_constant ct_dir_syms[] = {
	SYM("original",	0),
	SYM("reply",	1),
	SYMBOL_LIST_END
};

static const struct symbol_table ct_dir_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_HOST, .size = 8,
	.symbols = ct_dir_syms,
};

const struct datatype ct_dir_type = {
	.type		= TYPE_CT_DIR,
	.name		= "ct_dir",
	.desc		= "conntrack direction",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &ct_dir_tbl,
};

static const struct symbolic_constant ct_status_syms[] = {
	SYM("expected",		0x001),
	SYM("seen-reply",	0x002),
	SYM("assured",		0x004),
	SYM("confirmed",	0x008),
	SYM("snat",		0x010),
	SYM("dnat",		0x020),
	SYM("dying",		0x200),
	SYMBOL_LIST_END
};

static const struct symbol_table ct_status_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_HOST, .size = 32,
	.symbols = ct_status_syms,
};

const struct datatype ct_status_type = {
	.type		= TYPE_CT_STATUS,
	.name		= "ct_status",
	.desc		= "conntrack status",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &bitmask_type,
	.sym_tbl	= &ct_status_tbl,
};

static const struct symbolic_constant ct_event_syms[] = {
	SYM("new",		0x001),
	SYM("related",		0x002),
	SYM("destroy",		0x004),
	SYM("reply",		0x008),
	SYM("assured",		0x010),
	SYM("protoinfo",	0x020),
	SYM("helper",		0x040),
	SYM("mark",		0x080),
	SYM("seqadj",		0x100),
	SYM("secmark",		0x200),
	SYM("label",		0x400),
	SYMBOL_LIST_END
};

static const struct symbol_table ct_event_tbl = {
	.base = DT_BASE_HEX, .byteorder = BYTEORDER_HOST, .size = 32,
	.symbols = ct_event_syms,
};

const struct datatype ct_event_type = {
	.type		= TYPE_CT_EVENTBIT,
	.name		= "ct_event",
	.desc		= "conntrack event bits",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &bitmask_type,
	.sym_tbl	= &ct_event_tbl,
};

#define CT_LABEL_BITS	128

static void ct_label_type_print(const struct expr *expr,
				struct output_ctx *octx)
{
	unsigned int i;

	/* A label constant is one bit: print its number. */
	for (i = 0; i < expr->value.len; i++) {
		if (value_test_bit(&expr->value, i)) {
			fprintf(octx->f, "%u", i);
			return;
		}
	}
	integer_type_print(expr, octx);
}

/* A label is a bit number; names need /etc/connlabel.conf (no I/O). */
static int ct_label_type_parse(struct dt_parse_ctx *ctx,
			       const struct datatype *dtype,
			       const struct expr *sym, struct expr **res)
{
	const char *s = dt_text(sym);
	unsigned long long bit;
	char *end;

	errno = 0;
	bit = strtoull(s, &end, 0);
	if (end == s || *end || errno)
		return dt_error(ctx, sym, "%s: could not parse conntrack label \"%s\"",
				"/etc/connlabel.conf", s);
	if (bit >= CT_LABEL_BITS)
		return dt_error(ctx, sym, "%s: bit %llu out of range (%u max)",
				s, bit, CT_LABEL_BITS);
	*res = constant_expr_alloc(&sym->location, dtype, BYTEORDER_HOST,
				   CT_LABEL_BITS, NULL);
	if (!*res)
		return -1;
	value_set_bit(&(*res)->value, bit);
	return 0;
}

const struct datatype ct_label_type = {
	.type		= TYPE_CT_LABEL,
	.name		= "ct_label",
	.desc		= "conntrack label",
	.byteorder	= BYTEORDER_HOST,
	.size		= CT_LABEL_BITS,
	.basetype	= &bitmask_type,
	.print		= ct_label_type_print,
	.parse		= ct_label_type_parse,
};

/* fib, boolean */

static const struct symbolic_constant fib_addr_syms[] = {
	SYM("unspec",		0),
	SYM("unicast",		1),
	SYM("local",		2),
	SYM("broadcast",	3),
	SYM("anycast",		4),
	SYM("multicast",	5),
	SYM("blackhole",	6),
	SYM("unreachable",	7),
	SYM("prohibit",		8),
	SYMBOL_LIST_END
};

static const struct symbol_table fib_addr_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_HOST, .size = 32,
	.symbols = fib_addr_syms,
};

const struct datatype fib_addr_type = {
	.type		= TYPE_FIB_ADDR,
	.name		= "fib_addrtype",
	.desc		= "fib address type",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.sym_tbl	= &fib_addr_tbl,
};

static const struct symbolic_constant boolean_syms[] = {
	SYM("exists",	1),
	SYM("missing",	0),
	SYMBOL_LIST_END
};

static const struct symbol_table boolean_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_HOST, .size = 1,
	.symbols = boolean_syms,
};

const struct datatype boolean_type = {
	.type		= TYPE_BOOLEAN,
	.name		= "boolean",
	.desc		= "boolean type",
	.byteorder	= BYTEORDER_HOST,
	.size		= 1,
	.basetype	= &integer_type,
	.sym_tbl	= &boolean_tbl,
};

/* meta time / hour / day */

#define NSEC_PER_SEC	1000000000ULL

/*
 * Dates and hours are local time, as in stock nft: converted to UTC
 * with the time zone libc knows (TZ). The nftables test suite runs
 * with TZ=UTC-2; a run under any other zone gives other values, as
 * stock nft would.
 */
static long local_gmtoff(time_t when)
{
	struct tm tm;

	if (!localtime_r(&when, &tm))
		return 0;
	return tm.tm_gmtoff;
}

static int date_type_parse(struct dt_parse_ctx *ctx,
			   const struct datatype *dtype,
			   const struct expr *sym, struct expr **res)
{
	static const char *const fmts[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	const char *s = dt_text(sym);
	unsigned long long secs;
	unsigned int i;
	struct tm tm;
	time_t ts;
	char *end;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		if (strptime(s, fmts[i], &tm))
			break;
	}
	if (i < sizeof(fmts) / sizeof(fmts[0])) {
		ts = timegm(&tm);
		ts -= local_gmtoff(ts);
		secs = ts;
	} else {
		errno = 0;
		secs = strtoull(s, &end, 10);
		if (end == s || *end || errno)
			return dt_error(ctx, sym, "Cannot parse date");
	}
	return dt_const_u64(dtype, sym, secs * NSEC_PER_SEC, res);
}

static void date_type_print(const struct expr *expr, struct output_ctx *octx)
{
	time_t secs = value_get_u64(&expr->value) / NSEC_PER_SEC;
	char buf[64];
	struct tm tm;

	if (localtime_r(&secs, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %T", &tm))
		fprintf(octx->f, "\"%s\"", buf);
	else
		integer_type_print(expr, octx);
}

const struct datatype date_type = {
	.type		= TYPE_TIME_DATE,
	.name		= "time",
	.desc		= "Relative time of packet reception",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8 * 8,
	.basetype	= &integer_type,
	.print		= date_type_print,
	.parse		= date_type_parse,
};

#define SECS_PER_DAY	86400

/*
 * "HH:MM[:SS]" local time, else a relative time: seconds since
 * midnight UTC. The zone offset is today's, as stock nft takes it.
 */
static int hour_type_parse(struct dt_parse_ctx *ctx,
			   const struct datatype *dtype,
			   const struct expr *sym, struct expr **res)
{
	const char *s = dt_text(sym);
	int64_t secs;
	struct tm tm;
	uint64_t ms;

	memset(&tm, 0, sizeof(tm));
	if (strptime(s, "%T", &tm) || strptime(s, "%R", &tm)) {
		secs = tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
	} else {
		if (nftc_time_parse(ctx->erq, &sym->location, s, &ms) < 0)
			return -1;
		secs = ms / 1000;
	}
	secs -= local_gmtoff(time(NULL));
	secs %= SECS_PER_DAY;
	if (secs < 0)
		secs += SECS_PER_DAY;
	return dt_const_u64(dtype, sym, secs, res);
}

static void hour_type_print(const struct expr *expr, struct output_ctx *octx)
{
	int64_t s = value_get_u64(&expr->value) % SECS_PER_DAY;

	s = (s + local_gmtoff(time(NULL))) % SECS_PER_DAY;
	if (s < 0)
		s += SECS_PER_DAY;
	if (s % 60)
		fprintf(octx->f, "\"%02u:%02u:%02u\"", (unsigned int)(s / 3600),
			(unsigned int)(s / 60 % 60), (unsigned int)(s % 60));
	else
		fprintf(octx->f, "\"%02u:%02u\"", (unsigned int)(s / 3600),
			(unsigned int)(s / 60 % 60));
}

const struct datatype hour_type = {
	.type		= TYPE_TIME_HOUR,
	.name		= "hour",
	.desc		= "Hour of day of packet reception",
	.byteorder	= BYTEORDER_HOST,
	.size		= 4 * 8,
	.basetype	= &integer_type,
	.print		= hour_type_print,
	.parse		= hour_type_parse,
};

static const struct symbolic_constant day_syms[] = {
	SYM("Sunday",		0),
	SYM("Monday",		1),
	SYM("Tuesday",		2),
	SYM("Wednesday",	3),
	SYM("Thursday",		4),
	SYM("Friday",		5),
	SYM("Saturday",		6),
	SYMBOL_LIST_END
};

static const struct symbol_table day_tbl = {
	.base = DT_BASE_DECIMAL, .byteorder = BYTEORDER_HOST, .size = 8,
	.symbols = day_syms,
};

static int day_type_parse(struct dt_parse_ctx *ctx,
			  const struct datatype *dtype,
			  const struct expr *sym, struct expr **res)
{
	char buf[NFTC_VALUE_MAX * 3 + 2];
	struct value v;

	if (dt_parse_number(dt_text(sym), &v) < 0)
		return dt_error(ctx, sym, "Could not parse %s", dtype->desc);
	if (!value_fits(&v, 3) || value_get_u64(&v) > 6) {
		value_to_dec(&v, buf, sizeof(buf));
		return dt_error(ctx, sym, "Value %s exceeds valid range 0-6",
				buf);
	}
	return dt_const_u64(dtype, sym, value_get_u64(&v), res);
}

/* Stock quotes day names in listings: meta day "Saturday". */
static void day_type_print(const struct expr *expr, struct output_ctx *octx)
{
	const struct symbolic_constant *s;
	uint64_t n = value_get_u64(&expr->value);

	for (s = day_syms; s->identifier; s++) {
		if (s->value == n &&
		    !(octx->flags & NFTC_OUTPUT_NUMERIC_SYMBOL)) {
			fprintf(octx->f, "\"%s\"", s->identifier);
			return;
		}
	}
	integer_type_print(expr, octx);
}

const struct datatype day_type = {
	.type		= TYPE_TIME_DAY,
	.name		= "day",
	.desc		= "Day of week of packet reception",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8,
	.basetype	= &integer_type,
	.sym_tbl	= &day_tbl,
	.parse		= day_type_parse,
	.print		= day_type_print,
};

/* cgroup v2 paths name inodes of the cgroup file system: needs I/O. */
static int cgroupv2_type_parse(struct dt_parse_ctx *ctx,
			       const struct datatype *dtype,
			       const struct expr *sym, struct expr **res)
{
	return dt_error(ctx, sym, "cgroupv2 path fails: %s",
			strerror(ENOENT));
}

const struct datatype cgroupv2_type = {
	.type		= TYPE_CGROUPV2,
	.name		= "cgroupsv2",
	.desc		= "cgroupsv2 path",
	.byteorder	= BYTEORDER_HOST,
	.size		= 8 * 8,
	.basetype	= &integer_type,
	.parse		= cgroupv2_type_parse,
};
