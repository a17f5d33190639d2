// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names for the anonymous sets of a streamed batch: see anon_names.h.
 *
 * Each table the batch gives anonymous sets has two bitmaps of numbers
 * in use, one for "__set%d" and one for "__map%d" (the kernel keeps the
 * two apart: it matches names with the format it fills in), and the
 * lowest number that may be free. Numbers in use are those of the sets
 * the table held when the batch began (read by a set dump) and those
 * the batch gave out since.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include "anon_names.h"
#include "fmt.h"
#include "nlw.h"
#include "transport.h"

#define AN_DUMP_BUFSIZ	(64 * 1024)
/* families are small numbers (NFPROTO_*): one bit each */
#define AN_FAMILIES	32

static const char *const an_fmt[2] = { "__set%d", "__map%d" };

/* The numbers in use of one format in one table. */
struct an_space {
	uint64_t	*used;
	uint32_t	words;
	uint32_t	next;		/* lowest that may be free */
};

struct an_table {
	uint32_t	family;
	char		*name;
	bool		unknown;	/* its names could not be read */
	struct an_space	space[2];
};

struct anon_names {
	struct nftc_offline	*off;
	/* families whose tables are all gone since (flush ruleset) */
	uint32_t		empty_families;
	struct an_table		*t;
	unsigned int		n, cap;
	struct an_table		*last;	/* most rules are in one table */
};

struct anon_names *anon_names_new(struct nftc_offline *off)
{
	struct anon_names *an = calloc(1, sizeof(*an));

	if (an)
		an->off = off;
	return an;
}

/* No number of @t in use any more. */
static void table_empty(struct an_table *t)
{
	free(t->space[0].used);
	free(t->space[1].used);
	memset(t->space, 0, sizeof(t->space));
	t->unknown = false;
}

void anon_names_free(struct anon_names *an)
{
	unsigned int i;

	if (!an)
		return;
	for (i = 0; i < an->n; i++) {
		table_empty(&an->t[i]);
		free(an->t[i].name);
	}
	free(an->t);
	free(an);
}

/* ------------------------------------------------------------ bitmaps */

static bool space_test(const struct an_space *s, uint32_t v)
{
	return v / 64 < s->words && (s->used[v / 64] >> (v % 64) & 1);
}

static int space_set(struct an_space *s, uint32_t v)
{
	uint32_t words = s->words;
	uint64_t *p;

	if (v / 64 >= words) {
		while (v / 64 >= words)
			words = words ? words * 2 : 16;
		p = realloc(s->used, words * sizeof(*p));
		if (!p)
			return -1;
		memset(p + s->words, 0, (words - s->words) * sizeof(*p));
		s->used = p;
		s->words = words;
	}
	s->used[v / 64] |= 1ull << (v % 64);
	return 0;
}

/* The @i-th free number from s->next on. */
static uint32_t space_peek(const struct an_space *s, unsigned int i)
{
	uint32_t v = s->next;

	for (;; v++) {
		if (space_test(s, v))
			continue;
		if (!i--)
			return v;
	}
}

/* The number in @name as the kernel reads it (sscanf), -1: none. */
static int name_number(const char *name, unsigned int fmt)
{
	int v;

	if (sscanf(name, an_fmt[fmt], &v) != 1 || v < 0)
		return -1;
	return v;
}

/* --------------------------------------------------- what the table has */

struct an_dump {
	struct an_table	*t;
	int		err;
};

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct an_dump *d = data;
	const struct nlattr *a;
	unsigned int f;
	int v;

	if (NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWSET)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != NFTA_SET_NAME ||
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
			continue;
		for (f = 0; f < 2; f++) {
			v = name_number(mnl_attr_get_str(a), f);
			if (v >= 0 && space_set(&d->t->space[f], v) < 0)
				d->err = -ENOMEM;
		}
	}
	return MNL_CB_OK;
}

/*
 * Read the set names of @t from the kernel (or the offline VM). A table
 * that does not exist has none. Returns 0 or a negative errno.
 */
static int table_read(struct anon_names *an, struct an_table *t)
{
	struct nftc_transport *tp;
	struct an_dump d = { .t = t };
	uint32_t seq = (uint32_t)time(NULL);
	struct nlmsghdr *nlh;
	char *buf;
	int ret;

	buf = malloc(AN_DUMP_BUFSIZ);
	if (!buf)
		return -ENOMEM;
	ret = nftc_transport_open(an->off, &tp);
	if (ret < 0) {
		free(buf);
		return ret;
	}
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSET, t->family,
				    NLM_F_DUMP, seq);
	nlw_put_strz(nlh, NFTA_SET_TABLE, t->name);
	ret = nftc_transport_send(tp, nlh, nlh->nlmsg_len);
	while (ret >= 0) {
		ret = nftc_transport_recv(tp, buf, AN_DUMP_BUFSIZ, false);
		if (ret < 0)
			break;
		ret = mnl_cb_run(buf, ret, seq, tp->portid, dump_cb, &d);
		if (ret < 0)
			ret = errno ? -errno : -EIO;
		else if (ret == MNL_CB_STOP)
			break;
	}
	nftc_transport_close(tp);
	free(buf);
	if (ret == -ENOENT)	/* no such table yet */
		ret = 0;
	return ret < 0 ? ret : d.err;
}

static bool table_is(const struct an_table *t, uint32_t family,
		     const char *name)
{
	return t->family == family && !strcmp(t->name, name);
}

/* A new entry for @family @name, its names read unless @empty. */
static struct an_table *table_add(struct anon_names *an, uint32_t family,
				  const char *name, bool empty)
{
	struct an_table *t;

	if (an->n == an->cap) {
		unsigned int cap = an->cap ? an->cap * 2 : 4;

		t = realloc(an->t, cap * sizeof(*t));
		if (!t)
			return NULL;
		an->t = t;
		an->cap = cap;
		an->last = NULL;	/* it pointed into the old array */
	}
	t = &an->t[an->n];
	memset(t, 0, sizeof(*t));
	t->family = family;
	t->name = strdup(name);
	if (!t->name)
		return NULL;
	an->n++;
	an->last = t;
	if (family < AN_FAMILIES && (an->empty_families >> family & 1))
		empty = true;
	if (!empty && table_read(an, t) < 0)
		t->unknown = true;
	return t;
}

static struct an_table *table_find(struct anon_names *an, uint32_t family,
				   const char *name)
{
	unsigned int i;

	if (an->last && table_is(an->last, family, name))
		return an->last;
	for (i = 0; i < an->n; i++)
		if (table_is(&an->t[i], family, name))
			return an->last = &an->t[i];
	return NULL;
}

/* The entry of @family @name, read on first use; NULL: no memory. */
static struct an_table *table_get(struct anon_names *an, uint32_t family,
				  const char *name)
{
	struct an_table *t = table_find(an, family, name);

	return t ? t : table_add(an, family, name, false);
}

/* "__set%u" / "__map%u": the longest, with its NUL */
#define AN_NAME_MAX	(5 + 10 + 1)

/*
 * "__set" or "__map" and @v in decimal into @buf (@len bytes): its
 * length, -1 if @buf may be too short. Once or twice a rule: no printf.
 */
static int name_format(char *buf, size_t len, bool map, uint32_t v)
{
	if (len < AN_NAME_MAX)
		return -1;
	memcpy(buf, an_fmt[map], 5);	/* "__set", "__map" */
	return fmt_u64(buf + 5, v) - buf;
}

/* --------------------------------------------------------------- API */

int anon_names_peek(struct anon_names *an, uint32_t family,
		    const char *table, bool map, unsigned int i, char *buf,
		    size_t len)
{
	struct an_table *t;

	if (!an || !table)
		return -1;
	t = table_get(an, family, table);
	if (!t || t->unknown)
		return -1;
	return name_format(buf, len, map, space_peek(&t->space[map], i));
}

void anon_names_take(struct anon_names *an, uint32_t family,
		     const char *table, bool map, unsigned int n)
{
	struct an_table *t;
	struct an_space *s;

	if (!an || !table)
		return;
	t = table_get(an, family, table);
	if (!t || t->unknown)
		return;
	s = &t->space[map];
	while (n--) {
		s->next = space_peek(s, 0);
		/* out of memory: forget the table rather than reuse */
		if (space_set(s, s->next) < 0) {
			t->unknown = true;
			return;
		}
		s->next++;
	}
}

void anon_names_note(struct anon_names *an, uint32_t family,
		     const char *table, const char *name)
{
	struct an_table *t;
	unsigned int f;
	int v;

	if (!an || !table || !name)
		return;
	for (f = 0; f < 2; f++) {
		v = name_number(name, f);
		if (v < 0)
			continue;
		t = table_get(an, family, table);
		if (t && !t->unknown && space_set(&t->space[f], v) < 0)
			t->unknown = true;
	}
}

void anon_names_forget(struct anon_names *an, uint32_t family,
		       const char *table)
{
	unsigned int i;

	if (!an || family >= AN_FAMILIES)
		return;
	if (table) {
		/* later uses of the name find it empty, not as it was */
		if (!table_find(an, family, table))
			table_add(an, family, table, true);
	} else {
		an->empty_families |= family ? 1u << family : ~0u;
	}
	for (i = 0; i < an->n; i++) {
		struct an_table *t = &an->t[i];

		if ((!family || t->family == family) &&
		    (!table || !strcmp(t->name, table)))
			table_empty(t);
	}
}
