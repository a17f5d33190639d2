// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reverse map of the matches xlate writes as statements on named sets
 * (xlate/map_state.c): "add @connlimitN { ip saddr ct count over 20 }"
 * is -m connlimit --connlimit-above 20 --connlimit-mask 32
 * --connlimit-saddr, printed as libxt_connlimit's save does.
 *
 * -m recent is a list per name, set recent_NAME: --set is "update
 * @recent_NAME { KEY }"; --rcheck is "KEY @recent_NAME", followed by
 * "update @recent_NAME { KEY }" for --update or "delete ..." for
 * --remove, and --hitcount H by "update @recent_hits_NAME { KEY limit
 * rate over R/U burst H-1 packets }". --seconds is the set's timeout
 * (recent_hits_NAME's when there is one). The statements of one match
 * are gathered in rv_ctx.recent and printed as libxt_recent saves them
 * when the next match opens or the rule ends (rv_recent_flush()).
 *
 * -m hashlimit is a meter: see rv_hashlimit().
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "revmap_int.h"
#include "rule.h"

#define RV_RECENT	"recent_"
#define RV_RECENT_HITS	"recent_hits_"

/* Prefix length of the dotted/colon mask @s; -1 if not a prefix. */
static int rv_mask_len(uint8_t family, const char *s)
{
	uint8_t a[16];
	unsigned int i, n = family == NFPROTO_IPV6 ? 16 : 4, len = 0;
	bool end = false;
	int bit;

	if (inet_pton(family == NFPROTO_IPV6 ? AF_INET6 : AF_INET, s, a) != 1)
		return -1;
	for (i = 0; i < n; i++) {
		for (bit = 7; bit >= 0; bit--) {
			if (!(a[i] >> bit & 1))
				end = true;
			else if (end)
				return -1;
			else
				len++;
		}
	}
	return len;
}

/* "add @connlimitN { KEY ct count [over ]N }" */
static bool rv_connlimit(struct rv_ctx *c, const char *text)
{
	const char *l3 = c->family == NFPROTO_IPV6 ? "ip6" : "ip";
	char proto[8], side[8], mask[64];
	unsigned int count;
	int n = 0, len;
	bool over;

	if (sscanf(text, "add @connlimit%*u { %7s %7s %n", proto, side,
		   &n) != 2 || !n || strcmp(proto, l3) ||
	    (strcmp(side, "saddr") && strcmp(side, "daddr")))
		return false;
	text += n;
	len = c->family == NFPROTO_IPV6 ? 128 : 32;
	n = 0;
	if (sscanf(text, "& %63s %n", mask, &n) == 1 && n) {
		len = rv_mask_len(c->family, mask);
		if (len < 0)
			return false;
		text += n;
	}
	over = !strncmp(text, "ct count over ", 14);
	n = 0;
	if (sscanf(text + (over ? 14 : 9), "%u }%n", &count, &n) != 1 ||
	    strncmp(text, "ct count ", 9) || text[(over ? 14 : 9) + n])
		return false;
	rv_match_open(c, "connlimit");
	fprintf(c->m, " --connlimit-%s %u --connlimit-mask %d --connlimit-%s",
		over ? "above" : "upto", count, len, side);
	return true;
}

/* The set @e refers to if its name starts with @prefix, else NULL. */
static const struct set *rv_set_ref(const struct expr *e, const char *prefix)
{
	const struct set *set;

	if (!e || e->kind != EXPR_SET_REF || !(set = e->set_ref.set) ||
	    !set->handle.set.name ||
	    strncmp(set->handle.set.name, prefix, strlen(prefix)))
		return NULL;
	return set;
}

/* The key (ip saddr [& MASK]) as the -m recent options it means. */
static bool rv_recent_key(struct rv_ctx *c, const struct expr *key,
			  bool *dst, char **mask)
{
	const char *l3 = c->family == NFPROTO_IPV6 ? "ip6" : "ip";
	char *text = rv_expr_text(key), *m;
	size_t n = strlen(l3);
	bool ok = false;

	*mask = NULL;
	if (!text || strncmp(text, l3, n) || text[n] != ' ')
		goto out;
	m = text + n + 1;
	if (!strncmp(m, "saddr", 5) || !strncmp(m, "daddr", 5)) {
		*dst = m[0] == 'd';
		m += 5;
		if (!*m)
			ok = true;
		else if (!strncmp(m, " & ", 3) && rv_mask_len(c->family,
							     m + 3) >= 0)
			ok = (*mask = strdup(m + 3)) != NULL;
	}
out:
	free(text);
	return ok;
}

void rv_recent_flush(struct rv_ctx *c)
{
	struct rv_recent *re = &c->recent;
	static const char *const full[] = {
		"255.255.255.255", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	};

	if (!re->name)
		return;
	c->recent.name = NULL;	/* rv_match_open() flushes too */
	c->last_match = NULL;	/* each -m recent is a match of its own */
	rv_match_open(c, "recent");
	fprintf(c->m, " %s--%s", rv_neg(re->inv), re->cmd);
	if (re->seconds && strcmp(re->cmd, "set") && strcmp(re->cmd, "remove"))
		fprintf(c->m, " --seconds %llu",
			(unsigned long long)re->seconds);
	if (re->hits)
		fprintf(c->m, " --hitcount %u", re->hits);
	fprintf(c->m, " --name %s --mask %s --r%s", re->set_name +
		strlen(RV_RECENT), re->mask ? re->mask :
		full[c->family == NFPROTO_IPV6], re->dst ? "dest" : "source");
	free(re->mask);
	re->mask = NULL;
	c->last_match = "recent";
}

/* A key of @set: the open match's list, side and mask? */
static bool rv_recent_same(struct rv_ctx *c, const struct set *set,
			   const char *prefix, const struct expr *key)
{
	struct rv_recent *re = &c->recent;
	char *mask;
	bool dst, ok;

	if (!re->name || re->inv ||
	    strcmp(set->handle.set.name + strlen(prefix),
		   re->set_name + strlen(RV_RECENT)) ||
	    !rv_recent_key(c, key, &dst, &mask))
		return false;
	ok = dst == re->dst && (mask && re->mask ? !strcmp(mask, re->mask) :
				!mask && !re->mask);
	free(mask);
	return ok;
}

/* "KEY @recent_NAME": --rcheck (or ! --rcheck), opening the match. */
bool rv_recent_check(struct rv_ctx *c, const struct stmt *s, bool *handled)
{
	const struct expr *e = s->expr;
	struct rv_recent *re = &c->recent;
	const struct set *set;

	*handled = false;
	if (s->kind != STMT_EXPRESSION || e->kind != EXPR_RELATIONAL ||
	    !(set = rv_set_ref(e->pair.right, RV_RECENT)) ||
	    rv_set_ref(e->pair.right, RV_RECENT_HITS))
		return false;
	*handled = true;
	if (e->op != OP_IMPLICIT && e->op != OP_EQ && e->op != OP_NEQ)
		return false;
	rv_recent_flush(c);
	if (!rv_recent_key(c, e->pair.left, &re->dst, &re->mask))
		return false;
	re->inv = e->op == OP_NEQ;
	re->cmd = "rcheck";
	re->seconds = set->timeout / 1000;
	re->hits = 0;
	snprintf(re->set_name, sizeof(re->set_name), "%s",
		 set->handle.set.name);
	re->name = re->set_name;
	return true;
}

/*
 * xlate's --hitcount H --seconds S: at most H - 1 hits per S seconds as
 * a rate per the first unit at least S long, rounded up.
 */
static void rv_hits_rate(uint32_t hits, uint64_t secs, uint64_t *rate,
			 uint64_t *unit)
{
	static const uint64_t units[] = { 1, 60, 3600, 86400 };
	uint64_t n = hits > 1 ? hits - 1 : 1;
	unsigned int i;

	for (i = 0; i < 3 && units[i] < secs; i++)
		;
	*unit = units[i];
	*rate = (n * units[i] + secs - 1) / secs;
	if (!*rate)
		*rate = 1;
}

/*
 * --seconds from the rate: the window that gives @rate per @unit (the
 * set's timeout is the first rule's window, not necessarily this
 * one's); @timeout if it does too, else false.
 */
static bool rv_recent_seconds(struct rv_recent *re, uint64_t rate,
			      uint64_t unit, uint64_t timeout)
{
	uint64_t n = re->hits > 1 ? re->hits - 1 : 1, s, r, u, guess;

	if (timeout) {
		rv_hits_rate(re->hits, timeout, &r, &u);
		if (r == rate && u == unit) {
			re->seconds = timeout;
			return true;
		}
	}
	if (!rate)
		return false;
	guess = n * unit / rate;
	for (s = guess > 2 ? guess - 2 : 1; s <= guess + 2; s++) {
		rv_hits_rate(re->hits, s, &r, &u);
		if (r == rate && u == unit) {
			re->seconds = s;
			return true;
		}
	}
	return false;
}

/* update/delete on recent_NAME, update on recent_hits_NAME */
static bool rv_recent_set(struct rv_ctx *c, const struct stmt *s)
{
	struct rv_recent *re = &c->recent;
	const struct set *set, *hits;
	const struct stmt *l;

	hits = rv_set_ref(s->set.set, RV_RECENT_HITS);
	set = hits ? NULL : rv_set_ref(s->set.set, RV_RECENT);
	if (!hits && !set)
		return false;
	if (hits) {
		/* --hitcount H: a limit of burst H - 1 per element */
		if (s->set.op != NFT_DYNSET_OP_UPDATE || re->hits ||
		    !rv_recent_same(c, hits, RV_RECENT_HITS, s->set.key) ||
		    list_empty(&s->set.stmts))
			return false;
		l = list_first_entry(&s->set.stmts, struct stmt, list);
		if (l->kind != STMT_LIMIT || l->list.next != &s->set.stmts ||
		    l->limit.type != NFT_LIMIT_PKTS ||
		    !(l->limit.flags & NFT_LIMIT_F_INV))
			return false;
		re->hits = l->limit.burst + 1;
		return rv_recent_seconds(re, l->limit.rate, l->limit.unit,
					 hits->timeout / 1000);
	}
	if (!list_empty(&s->set.stmts))
		return false;
	if (s->set.op == NFT_DYNSET_OP_UPDATE &&
	    rv_recent_same(c, set, RV_RECENT, s->set.key) &&
	    !strcmp(re->cmd, "rcheck")) {
		re->cmd = "update";
		return true;
	}
	if (s->set.op == NFT_DYNSET_OP_DELETE &&
	    rv_recent_same(c, set, RV_RECENT, s->set.key) &&
	    !strcmp(re->cmd, "rcheck")) {
		re->cmd = "remove";
		return true;
	}
	if (s->set.op != NFT_DYNSET_OP_UPDATE)
		return false;
	/* --set: a match of its own */
	rv_recent_flush(c);
	if (!rv_recent_key(c, s->set.key, &re->dst, &re->mask))
		return false;
	re->inv = false;
	re->cmd = "set";
	re->seconds = 0;
	re->hits = 0;
	snprintf(re->set_name, sizeof(re->set_name), "%s",
		 set->handle.set.name);
	re->name = re->set_name;
	return true;
}

/*
 * -m hashlimit, as xlate/map_state.c writes it: "update @NAME { KEY
 * timeout EXPIRE limit rate [over] R/UNIT [burst B packets] }" on a set
 * named after --hashlimit-name, KEY the concatenation of the mode's
 * fields (dstip, srcip, dstport, srcport; an address masked when its
 * mask is not the full one). Printed as libxt_hashlimit (revision 3)
 * saves it. What the VM code does not hold: the name's characters
 * other than letters, digits, '_' and '.' (xlate writes them as '_',
 * the name is printed as the set has it), --hashlimit-htable-max and
 * -gcinterval (never written), a --hashlimit-htable-size of 65535 (the
 * size the VM gives a set without one).
 */
#define RV_HL_SCALE	1000000ULL	/* XT_HASHLIMIT_SCALE_v2 */
#define RV_HL_SIZE_DEFAULT	0xffff
/* ms: byte mode's default expiry without and with a burst */
#define RV_HL_BYTE_EXPIRE	15000
#define RV_HL_BYTE_EXPIRE_BURST	60000

/* libxt_hashlimit's rate units, largest first. */
static const struct {
	const char	*name;
	uint64_t	seconds;
} rv_hl_units[] = {
	{ "day", 86400 }, { "hour", 3600 }, { "min", 60 }, { "sec", 1 },
};

/* The mode's key fields, in the order libxt_hashlimit prints them. */
static const struct {
	const char	*suffix;	/* of the key field's text */
	const char	*mode;
	bool		addr;
} rv_hl_modes[] = {
	{ "saddr", "srcip", true },
	{ "sport", "srcport", false },
	{ "daddr", "dstip", true },
	{ "dport", "dstport", false },
};

#define RV_ARRAY_N(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The rate as libxt_hashlimit prints it: the cost per packet, avg =
 * SCALE * seconds / rate, in the largest unit that divides it evenly
 * enough; returns that unit in ms (the default --hashlimit-htable-expire).
 */
static uint64_t rv_hl_rate(FILE *f, uint64_t rate, uint64_t unit)
{
	uint64_t avg = RV_HL_SCALE * unit / rate, mult;
	unsigned int i;

	for (i = 1; i < RV_ARRAY_N(rv_hl_units); i++) {
		mult = RV_HL_SCALE * rv_hl_units[i].seconds;
		if (avg > mult || mult / avg < mult % avg)
			break;
	}
	mult = RV_HL_SCALE * rv_hl_units[i - 1].seconds;
	fprintf(f, " %llu/%s", (unsigned long long)(mult / avg),
		rv_hl_units[i - 1].name);
	return rv_hl_units[i - 1].seconds * 1000;
}

/*
 * Byte mode: xlate writes the bytes per second and the burst in bytes
 * that libxt_hashlimit prints (xlate/map_state.c), each already a whole
 * number of its unit: printed in the largest unit it reaches and that
 * divides it. (libxt_hashlimit picks the rate's unit from the rate
 * before rounding and needs the rate to exceed it: a rate of exactly
 * one unit, which the VM code cannot tell from one a little above,
 * prints one unit lower there.)
 */
static void rv_hl_bytes(FILE *f, uint64_t n, bool rate)
{
	static const struct {
		const char	*name;
		uint64_t	bytes;
	} units[] = { { "mb", 1 << 20 }, { "kb", 1 << 10 }, { "b", 1 } };
	unsigned int i;

	for (i = 0; i + 1 < RV_ARRAY_N(units); i++) {
		if (n >= units[i].bytes && n % units[i].bytes == 0)
			break;
	}
	fprintf(f, " %llu%s%s", (unsigned long long)(n / units[i].bytes),
		units[i].name, rate ? "/s" : "");
}

/* One field of the key: its mode bit (index in rv_hl_modes) and mask. */
static int rv_hl_field(struct rv_ctx *c, const struct expr *e, int *mask)
{
	const char *l3 = c->family == NFPROTO_IPV6 ? "ip6 " : "ip ";
	char *text = rv_expr_text(e), *m;
	unsigned int i;
	size_t n;
	int ret = -1;

	*mask = c->family == NFPROTO_IPV6 ? 128 : 32;
	if (!text)
		return -1;
	for (i = 0; i < RV_ARRAY_N(rv_hl_modes); i++) {
		if (rv_hl_modes[i].addr) {
			n = strlen(l3);
			if (strncmp(text, l3, n) ||
			    strncmp(text + n, rv_hl_modes[i].suffix, 5))
				continue;
			m = text + n + 5;
			if (!*m)
				ret = i;
			else if (!strncmp(m, " & ", 3) &&
				 (*mask = rv_mask_len(c->family, m + 3)) >= 0)
				ret = i;
			break;
		}
		m = strchr(text, ' ');
		if (m && !strcmp(m + 1, rv_hl_modes[i].suffix) &&
		    (!strncmp(text, "tcp ", 4) || !strncmp(text, "udp ", 4) ||
		     !strncmp(text, "sctp ", 5) || !strncmp(text, "dccp ", 5) ||
		     !strncmp(text, "udplite ", 8))) {
			ret = i;
			break;
		}
	}
	free(text);
	return ret;
}

static bool rv_hashlimit(struct rv_ctx *c, const struct stmt *s)
{
	const struct expr *key = s->set.key, *k;
	const struct set *set;
	const struct stmt *l;
	unsigned int used = 0, i;
	int masks[RV_ARRAY_N(rv_hl_modes)], full, bit, mask;
	uint64_t expire = 0, quantum;
	bool first = true;

	if (s->set.op != NFT_DYNSET_OP_UPDATE || list_empty(&s->set.stmts) ||
	    !s->set.set || s->set.set->kind != EXPR_SET_REF ||
	    !(set = s->set.set->set_ref.set) || !set->handle.set.name)
		return false;
	l = list_first_entry(&s->set.stmts, struct stmt, list);
	if (l->kind != STMT_LIMIT || l->list.next != &s->set.stmts ||
	    !l->limit.rate || !l->limit.unit ||
	    (l->limit.flags & ~NFT_LIMIT_F_INV) ||
	    (l->limit.type == NFT_LIMIT_PKT_BYTES && l->limit.unit != 1))
		return false;
	if (key && key->kind == EXPR_SET_ELEM) {
		expire = key->elem.timeout;
		key = key->elem.key;
	}
	if (!key || !expire)
		return false;
	full = c->family == NFPROTO_IPV6 ? 128 : 32;
	for (i = 0; i < RV_ARRAY_N(masks); i++)
		masks[i] = full;
	/* the fields in xlate's order: dstip, srcip, dstport, srcport */
	if (key->kind == EXPR_CONCAT) {
		list_for_each_entry(k, &key->expressions, list) {
			bit = rv_hl_field(c, k, &mask);
			if (bit < 0 || used & 1u << bit)
				return false;
			used |= 1u << bit;
			masks[bit] = mask;
		}
	} else {
		bit = rv_hl_field(c, key, &mask);
		if (bit < 0)
			return false;
		used = 1u << bit;
		masks[bit] = mask;
	}
	rv_match_open(c, "hashlimit");
	fprintf(c->m, " --hashlimit-%s", l->limit.flags & NFT_LIMIT_F_INV ?
		"above" : "upto");
	if (l->limit.type == NFT_LIMIT_PKT_BYTES) {
		rv_hl_bytes(c->m, l->limit.rate, true);
		/* libxt_hashlimit's default expiries in byte mode */
		quantum = l->limit.burst ? RV_HL_BYTE_EXPIRE_BURST :
					   RV_HL_BYTE_EXPIRE;
		if (l->limit.burst) {
			fputs(" --hashlimit-burst", c->m);
			rv_hl_bytes(c->m, l->limit.burst, false);
		}
	} else {
		quantum = rv_hl_rate(c->m, l->limit.rate, l->limit.unit);
		fprintf(c->m, " --hashlimit-burst %u", l->limit.burst);
	}
	fputs(" --hashlimit-mode", c->m);
	for (i = 0; i < RV_ARRAY_N(rv_hl_modes); i++) {
		if (used & 1u << i) {
			fprintf(c->m, "%c%s", first ? ' ' : ',',
				rv_hl_modes[i].mode);
			first = false;
		}
	}
	fprintf(c->m, " --hashlimit-name %s", set->handle.set.name);
	if (set->size && set->size != RV_HL_SIZE_DEFAULT)
		fprintf(c->m, " --hashlimit-htable-size %u", set->size);
	if (expire != quantum)
		fprintf(c->m, " --hashlimit-htable-expire %llu",
			(unsigned long long)expire);
	if (masks[0] != full)	/* srcip */
		fprintf(c->m, " --hashlimit-srcmask %d", masks[0]);
	if (masks[2] != full)	/* dstip */
		fprintf(c->m, " --hashlimit-dstmask %d", masks[2]);
	/* each -m hashlimit is a match of its own */
	c->last_match = NULL;
	return true;
}

bool rv_state_set(struct rv_ctx *c, const struct stmt *s)
{
	char *text;
	bool ok;

	if (s->set.set && s->set.set->kind == EXPR_SET_REF &&
	    rv_set_ref(s->set.set, RV_RECENT))
		return rv_recent_set(c, s);
	if (s->kind == STMT_SET && !list_empty(&s->set.stmts) &&
	    list_first_entry(&s->set.stmts, struct stmt, list)->kind ==
	    STMT_LIMIT)
		return rv_hashlimit(c, s);
	text = rv_stmt_text(c, s);
	ok = text && rv_connlimit(c, text);
	free(text);
	return ok;
}
