// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mappings of the matches that keep state in iptables and need named
 * sets in nftables (recent, hashlimit, connlimit, ipset references),
 * and of time and policy.
 *
 * recent: one dynamic set per list, with the longest --seconds of the
 * rules of the table using it as the element timeout, so that
 * membership means "seen within that time". That longest window comes
 * from a pre-pass over the table (reader.c, xl_scan_recent()), so a
 * set declared at the list's first rule (streamed restores) has it
 * too. Other windows, checks without --seconds on a list with a
 * timeout, and --hitcount have no exact nft equivalent: a warning,
 * and --hitcount becomes a per-element rate limit.
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_recent.h>
#include <linux/netfilter/xt_limit.h>
#include <linux/netfilter/xt_hashlimit.h>
#include <linux/netfilter/xt_connlimit.h>
#include <linux/netfilter/xt_set.h>
#include <linux/netfilter/xt_time.h>
#include <linux/netfilter/xt_policy.h>
#include "xlate_int.h"
#include "xlate_map.h"
#include "proto.h"

#define LOC	(&r->loc)

static struct xl_set_decl *set_find(struct xlate_ctx *ctx, const char *table,
				    const char *name)
{
	struct xl_set_decl *sd;

	list_for_each_entry(sd, &ctx->sets, list) {
		if (!strcmp(sd->table, table) &&
		    !strcmp(sd->set->handle.set.name, name))
			return sd;
	}
	return NULL;
}

/**
 * xl_set_declare - the named set @name of the rule's table
 * @key: key type expression (taken over; freed if the set exists)
 *
 * Returns the set (declared on first use), NULL on ENOMEM.
 */
struct set *xl_set_declare(struct xlate_ctx *ctx, const char *table,
			   const char *name, struct expr *key, uint32_t flags,
			   const struct location *loc)
{
	struct xl_set_decl *sd = set_find(ctx, table, name);
	struct set *s;

	if (sd) {
		expr_free(key);
		return sd->set;
	}
	sd = calloc(1, sizeof(*sd));
	s = set_alloc(loc);
	if (!sd || !s) {
		free(sd);
		set_free(s);
		expr_free(key);
		return NULL;
	}
	s->handle.family = ctx->family;
	s->handle.table.name = strdup(table);
	s->handle.set.name = strdup(name);
	s->handle.set.location = *loc;
	s->key = key;
	s->flags = flags;
	sd->set = s;
	sd->table = table;
	list_add_tail(&sd->list, &ctx->sets);
	return s;
}

static struct expr *set_ref(struct xl_rule *r, const char *name)
{
	struct set *ph = set_alloc(LOC);

	ph->handle.set.name = strdup(name);
	ph->handle.set.location = r->loc;
	return set_ref_expr_alloc(LOC, ph);
}

static struct expr *addr_key_type(struct xl_rule *r)
{
	bool v6 = r->ctx->family == NFPROTO_IPV6;

	return expr_alloc(LOC, EXPR_VALUE, v6 ? &ip6addr_type : &ipaddr_type,
			  BYTEORDER_BIG, v6 ? 128 : 32);
}

/* ip saddr (masked) */
static struct expr *addr_key(struct xl_rule *r, bool dst,
			     const union nf_inet_addr *mask)
{
	unsigned int alen = r->ctx->family == NFPROTO_IPV6 ? 16 : 4, i;
	struct expr *e = xl_payload(LOC, xl_l3_desc(r), dst ? "daddr" :
				    "saddr");
	const uint8_t *m = (const uint8_t *)mask;
	char buf[64];

	for (i = 0; mask && i < alen; i++) {
		if (m[i] != 0xff)
			break;
	}
	if (!mask || i == alen)
		return e;
	inet_ntop(alen == 4 ? AF_INET : AF_INET6, mask, buf, sizeof(buf));
	return xl_binop(LOC, OP_AND, e, xl_sym(LOC, "%s", buf));
}

static struct stmt *dynset(struct xl_rule *r, const char *name,
			   enum nft_dynset_ops op, struct expr *key)
{
	struct stmt *s = stmt_alloc(LOC, STMT_SET);

	s->set.set = set_ref(r, name);
	s->set.key = set_elem_expr_alloc(LOC, key);
	s->set.op = op;
	return s;
}

/* nft set names: letters, digits, '_' and '.' */
static void set_name(char *dst, size_t len, const char *prefix,
		     const char *name)
{
	size_t i;

	snprintf(dst, len, "%s%s", prefix, name);
	for (i = 0; dst[i]; i++) {
		char c = dst[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.'))
			dst[i] = '_';
	}
}

/*
 * N hits within S seconds as an nft rate: nft rates are per second,
 * minute, hour or day, so take the first unit at least S long.
 */
static void hits_rate(uint32_t hits, uint32_t secs, uint64_t *rate,
		      uint64_t *unit)
{
	static const uint64_t units[] = { 1, 60, 3600, 86400 };
	unsigned int i;
	uint64_t n = hits > 1 ? hits - 1 : 1;

	for (i = 0; i < 3 && units[i] < secs; i++)
		;
	*unit = units[i];
	*rate = (n * units[i] + secs - 1) / secs;
	if (!*rate)
		*rate = 1;
}

static struct xl_recent_hint *recent_hint(struct xlate_ctx *ctx,
					  const char *table, const char *name)
{
	struct xl_recent_hint *h;

	list_for_each_entry(h, &ctx->recent_hints, list) {
		if (!strcmp(h->table, table) && !strcmp(h->name, name))
			return h;
	}
	return NULL;
}

/* The pre-pass: the longest --seconds of the table's rules per list. */
void xl_scan_recent(struct xl_rule *r, const void *data)
{
	const struct xt_recent_mtinfo_v1 *re = data;
	const char *table = r->table->layout->name;
	struct xl_recent_hint *h;
	char name[sizeof(h->name)];

	set_name(name, sizeof(name), "recent_", re->name);
	h = recent_hint(r->ctx, table, name);
	if (!h) {
		h = calloc(1, sizeof(*h));
		if (!h)
			return;		/* the old way: a shorter timeout */
		h->table = table;
		snprintf(h->name, sizeof(h->name), "%s", name);
		list_add_tail(&h->list, &r->ctx->recent_hints);
	}
	if (re->seconds * 1000ULL > h->timeout)
		h->timeout = re->seconds * 1000ULL;
}

int xl_map_recent(struct xl_rule *r, const void *data)
{
	const struct xt_recent_mtinfo_v1 *re = data;
	const char *table = r->table->layout->name;
	bool dst = re->side == XT_RECENT_DEST;
	uint8_t cs = re->check_set;
	struct xl_recent_hint *h;
	struct expr *key;
	struct stmt *s;
	struct set *set;
	char name[256];

	set_name(name, sizeof(name), "recent_", re->name);
	set = xl_set_declare(r->ctx, table, name, addr_key_type(r),
			     SET_F_EVAL | SET_F_TIMEOUT, LOC);
	if (!set)
		return xl_error(r, "out of memory");
	/* the table's longest window, known before its first rule */
	h = recent_hint(r->ctx, table, name);
	if (h && h->timeout > set->timeout)
		set->timeout = h->timeout;
	if (re->seconds * 1000ULL > set->timeout) {
		/* a window the pre-pass did not see (one command) */
		if (set->timeout) {
			xl_warn(r, "recent list %s: checked within several "
				"windows, the set keeps entries %us", re->name,
				re->seconds);
			r->inexact = true;
		}
		set->timeout = re->seconds * 1000ULL;
	} else if (re->seconds && re->seconds * 1000ULL != set->timeout) {
		xl_warn(r, "recent list %s: checked within %us but entries "
			"are kept %" PRIu64 "s", re->name, re->seconds,
			set->timeout / 1000);
		r->inexact = true;
	} else if (!re->seconds && !(cs & XT_RECENT_SET) && set->timeout) {
		/* xt_recent: no --seconds is "ever seen" */
		xl_warn(r, "recent list %s: checked without --seconds but "
			"entries are kept only %" PRIu64 "s", re->name,
			set->timeout / 1000);
		r->inexact = true;
	}
	if (cs & (XT_RECENT_TTL | XT_RECENT_REAP)) {
		xl_warn(r, "recent --rttl/--reap are not kept");
		r->inexact = true;
	}
	if (cs & XT_RECENT_SET) {
		xl_add_stmt(r, dynset(r, name, NFT_DYNSET_OP_UPDATE,
				      addr_key(r, dst, &re->mask)));
		if (re->invert)
			return xl_error(r, "! --set never matches");
		return 0;
	}
	/* --rcheck / --update / --remove: membership first */
	xl_match_inv(r, addr_key(r, dst, &re->mask), re->invert,
		     set_ref(r, name));
	if (re->invert)
		return 0;
	if (cs & XT_RECENT_UPDATE) {
		s = dynset(r, name, NFT_DYNSET_OP_UPDATE,
			   addr_key(r, dst, &re->mask));
		xl_add_stmt(r, s);
	}
	if (cs & XT_RECENT_REMOVE)
		xl_add_stmt(r, dynset(r, name, NFT_DYNSET_OP_DELETE,
				      addr_key(r, dst, &re->mask)));
	if (re->hit_count) {
		struct stmt *l;

		/* N hits within S seconds ~ more than N per S seconds */
		set_name(name, sizeof(name), "recent_hits_", re->name);
		xl_set_declare(r->ctx, r->table->layout->name, name,
			       addr_key_type(r), SET_F_EVAL | SET_F_TIMEOUT,
			       LOC)->timeout = (re->seconds ? re->seconds :
						60) * 1000ULL;
		key = addr_key(r, dst, &re->mask);
		s = dynset(r, name, NFT_DYNSET_OP_UPDATE, key);
		l = stmt_alloc(LOC, STMT_LIMIT);
		hits_rate(re->hit_count, re->seconds ? re->seconds : 60,
			  &l->limit.rate, &l->limit.unit);
		l->limit.burst = re->hit_count > 1 ? re->hit_count - 1 : 1;
		l->limit.type = NFT_LIMIT_PKTS;
		l->limit.flags = NFT_LIMIT_F_INV;
		list_add_tail(&l->list, &s->set.stmts);
		xl_add_stmt(r, s);
		xl_warn(r, "recent --hitcount %u: translated as a per-address "
			"rate limit (token bucket, not a sliding window)",
			re->hit_count);
		r->inexact = true;
	}
	return 0;
}

int xl_map_connlimit(struct xl_rule *r, const void *data)
{
	const struct xt_connlimit_info *c = data;
	bool dst = c->flags & XT_CONNLIMIT_DADDR;
	struct stmt *s, *cl;
	char name[32];

	snprintf(name, sizeof(name), "connlimit%u", r->ctx->set_seq++);
	if (!xl_set_declare(r->ctx, r->table->layout->name, name,
			    addr_key_type(r), SET_F_EVAL, LOC))
		return xl_error(r, "out of memory");
	s = dynset(r, name, NFT_DYNSET_OP_ADD, addr_key(r, dst, &c->mask));
	cl = stmt_alloc(LOC, STMT_CONNLIMIT);
	cl->connlimit.count = c->limit;
	if (!(c->flags & XT_CONNLIMIT_INVERT))
		cl->connlimit.flags = NFT_CONNLIMIT_F_INV;
	list_add_tail(&cl->list, &s->set.stmts);
	xl_add_stmt(r, s);
	return 0;
}


static bool key_masked(const struct expr *key)
{
	const struct expr *e;

	if (key->kind == EXPR_BINOP)
		return true;
	if (key->kind != EXPR_CONCAT)
		return false;
	list_for_each_entry(e, &key->expressions, list) {
		if (e->kind == EXPR_BINOP)
			return true;
	}
	return false;
}

/*
 * Byte mode (--hashlimit-above 20kb/s): libxt_hashlimit keeps the rate
 * as a cost per byte, 2^32 / (bytes / 16 + 1), and the burst as a
 * multiple of the rate. Read back as libxt_hashlimit prints them: the
 * rate in the largest unit that leaves the cost as it is, the burst
 * in the largest unit it reaches (so "burst 1mb" stays 1 MiB).
 */
#define HL_BYTE_SHIFT	4

static uint64_t hl_cost_bytes(uint32_t cost)
{
	uint32_t r = cost ? UINT32_MAX / cost : UINT32_MAX;

	return (uint64_t)(r - 1) << HL_BYTE_SHIFT;
}

static uint32_t hl_bytes_cost(uint64_t bytes)
{
	return UINT32_MAX / ((uint32_t)(bytes >> HL_BYTE_SHIFT) + 1);
}

static void hashlimit_bytes(const struct hashlimit_cfg3 *cfg, struct stmt *l)
{
	static const uint64_t units[] = { 1 << 20, 1 << 10, 1 };
	uint64_t rate = hl_cost_bytes(cfg->avg), burst = cfg->burst * rate;
	unsigned int i;

	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]); i++) {
		if (rate >= units[i] &&
		    hl_bytes_cost(rate & ~(units[i] - 1)) == cfg->avg)
			break;
	}
	l->limit.rate = rate / units[i] * units[i];
	for (i = 0; burst && i + 1 < sizeof(units) / sizeof(units[0]); i++) {
		if (burst >= units[i])
			break;
	}
	l->limit.burst = burst / units[i] * units[i];
	l->limit.unit = 1;
	l->limit.type = NFT_LIMIT_PKT_BYTES;
}
int xl_map_hashlimit(struct xl_rule *r, const void *data)
{
	const struct xt_hashlimit_mtinfo3 *h = data;
	const struct hashlimit_cfg3 *cfg = &h->cfg;
	const struct proto_desc *l4 = xl_l4_desc(r->proto);
	struct expr *key = NULL, *k;
	struct stmt *s, *l;
	struct set *set;
	char name[64];
	unsigned int i;
	static const struct {
		uint32_t	mode;
		bool		dst;
		bool		port;
	} parts[] = {
		{ XT_HASHLIMIT_HASH_DIP, true, false },
		{ XT_HASHLIMIT_HASH_SIP, false, false },
		{ XT_HASHLIMIT_HASH_DPT, true, true },
		{ XT_HASHLIMIT_HASH_SPT, false, true },
	};

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(cfg->mode & parts[i].mode))
			continue;
		if (parts[i].port) {
			if (!l4 || !proto_field_lookup(l4, "dport"))
				return xl_error(r, "hashlimit port modes need "
						"a protocol with ports");
			k = xl_payload(LOC, l4, parts[i].dst ? "dport" :
				       "sport");
		} else {
			union nf_inet_addr m;
			unsigned int bits = parts[i].dst ? cfg->dstmask :
							   cfg->srcmask, b;

			memset(&m, 0, sizeof(m));
			for (b = 0; b < bits && b < 128; b++)
				((uint8_t *)&m)[b / 8] |= 0x80 >> (b % 8);
			k = addr_key(r, parts[i].dst, &m);
		}
		if (!key) {
			key = k;
			continue;
		}
		if (key->kind != EXPR_CONCAT) {
			struct expr *c = list_expr_alloc(LOC, EXPR_CONCAT);

			list_expr_add(c, key);
			key = c;
		}
		list_expr_add(key, k);
	}
	if (!key)
		return xl_error(r, "hashlimit without --hashlimit-mode is not "
				"translated");
	/* a meter: a dynamic set typed by its key */
	set_name(name, sizeof(name), "", h->name);
	set = xl_set_declare(r->ctx, r->table->layout->name, name,
			     expr_clone(key), SET_F_EVAL | SET_F_TIMEOUT, LOC);
	if (!set) {
		expr_free(key);
		return xl_error(r, "out of memory");
	}
	/* nft has no "typeof ip daddr & MASK": a masked key by its type */
	set->key_typeof = !key_masked(key);
	set->size = cfg->size;
	s = dynset(r, name, NFT_DYNSET_OP_UPDATE, key);
	s->set.key->elem.timeout = cfg->expire ? cfg->expire : 10000;
	l = stmt_alloc(LOC, STMT_LIMIT);
	if (cfg->mode & XT_HASHLIMIT_BYTES) {
		hashlimit_bytes(cfg, l);
	} else {
		if (!xl_limit_rate(cfg->avg, XT_HASHLIMIT_SCALE_v2,
				   &l->limit.rate, &l->limit.unit)) {
			xl_warn(r, "hashlimit rate rounded to %" PRIu64
				"/day", l->limit.rate);
			r->inexact = true;
		}
		l->limit.burst = cfg->burst;
		l->limit.type = NFT_LIMIT_PKTS;
	}
	if (cfg->mode & XT_HASHLIMIT_INVERT)
		l->limit.flags = NFT_LIMIT_F_INV;
	list_add_tail(&l->list, &s->set.stmts);
	xl_add_stmt(r, s);
	return 0;
}

static void time_text(char *buf, size_t len, uint32_t t)
{
	time_t tt = t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static struct expr *hour_sym(struct xl_rule *r, uint32_t s)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%02u:%02u:%02u", s / 3600, s / 60 % 60,
		 s % 60);
	return xl_qsym(LOC, buf);
}

int xl_map_time(struct xl_rule *r, const void *data)
{
	const struct xt_time_info *t = data;
	char a[32], b[32];
	struct expr *set = NULL;
	unsigned int d;

	if (t->monthdays_match != XT_TIME_ALL_MONTHDAYS)
		return xl_error(r, "time --monthdays cannot be expressed in "
				"nftables");
	if (t->flags & XT_TIME_LOCAL_TZ) {
		xl_warn(r, "time --kerneltz: nftables uses the local time "
			"zone of the host that loads the rules");
		r->inexact = true;
	}
	if (t->date_start != 0 || t->date_stop != INT32_MAX) {
		time_text(a, sizeof(a), t->date_start);
		time_text(b, sizeof(b), t->date_stop);
		xl_match(r, xl_meta(LOC, NFT_META_TIME_NS), OP_IMPLICIT,
			 range_expr_alloc(LOC, xl_qsym(LOC, a),
					  xl_qsym(LOC, b)));
	}
	if (t->daytime_start != XT_TIME_MIN_DAYTIME ||
	    t->daytime_stop != XT_TIME_MAX_DAYTIME) {
		if (t->daytime_start <= t->daytime_stop)
			xl_match(r, xl_meta(LOC, NFT_META_TIME_HOUR),
				 OP_IMPLICIT,
				 range_expr_alloc(LOC,
						  hour_sym(r, t->daytime_start),
						  hour_sym(r, t->daytime_stop)));
		else	/* across midnight: outside the gap */
			xl_match(r, xl_meta(LOC, NFT_META_TIME_HOUR), OP_NEQ,
				 range_expr_alloc(LOC,
					hour_sym(r, t->daytime_stop + 1),
					hour_sym(r, t->daytime_start - 1)));
	}
	if (t->weekdays_match != XT_TIME_ALL_WEEKDAYS) {
		/* bit 1 Monday .. bit 7 Sunday; nft: 0 Sunday .. 6 */
		for (d = 1; d <= 7; d++) {
			if (t->weekdays_match & (1 << d))
				set = xl_set_add(set, xl_sym(LOC, "%u", d % 7));
		}
		if (!set)
			return xl_error(r, "rule would never match");
		xl_match(r, xl_meta(LOC, NFT_META_TIME_DAY), OP_IMPLICIT, set);
	}
	return 0;
}

int xl_map_policy(struct xl_rule *r, const void *data)
{
	const struct xt_policy_info *p = data;
	bool in = p->flags & XT_POLICY_MATCH_IN;
	struct expr *e;

	if (p->len > 1 || (p->flags & XT_POLICY_MATCH_STRICT))
		return xl_error(r, "policy --strict/--next cannot be expressed "
				"in nftables");
	e = in ? xl_meta(LOC, NFT_META_SECPATH) :
		 rt_expr_alloc(LOC, NFT_RT_XFRM);
	e->dtype = &boolean_type;
	e->len = 1;
	xl_match(r, e, OP_IMPLICIT,
		 xl_sym(LOC, "%s", p->flags & XT_POLICY_MATCH_NONE ?
			"missing" : "exists"));
	if (p->flags & XT_POLICY_MATCH_NONE || !p->len)
		return 0;
	if (p->pol[0].match.reqid)
		xl_match_inv(r, xfrm_expr_alloc(LOC, NFT_XFRM_KEY_REQID,
						in ? 0 : 1, 0),
			     p->pol[0].invert.reqid,
			     xl_sym(LOC, "%u", p->pol[0].reqid));
	if (p->pol[0].match.spi)
		xl_match_inv(r, xfrm_expr_alloc(LOC, NFT_XFRM_KEY_SPI,
						in ? 0 : 1, 0),
			     p->pol[0].invert.spi,
			     xl_sym(LOC, "%u", ntohl(p->pol[0].spi)));
	if (p->pol[0].match.saddr || p->pol[0].match.daddr ||
	    p->pol[0].match.proto || p->pol[0].match.mode) {
		xl_warn(r, "policy --proto/--mode/--tunnel-src/--tunnel-dst "
			"are not translated");
		r->inexact = true;
	}
	return 0;
}

/*
 * libxtables resolves the ipset name to a kernel index while parsing,
 * so an unknown set already failed there; a known one has no name left.
 */
int xl_map_set(struct xl_rule *r, const void *data)
{
	const struct xt_set_info_match_v4 *m = data;

	return xl_error(r, "match set: ipset index %u cannot be named "
			"(ipset references are not translated yet)",
			m->match_set.index);
}
