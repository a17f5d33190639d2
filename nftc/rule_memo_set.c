// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rule memo (rule_memo.c): the messages of a rule with anonymous sets.
 *
 * A rule "tcp dport { 22, 80 } accept" compiled the full way appends
 * NEWSET and NEWSETELEM for each of its sets (lin_anon_sets(), source
 * location the set's braces), then NEWRULE (the rule's location). The
 * memo keeps them as one template: this file finds the messages a rule
 * appended to the pipeline's segment, says whose location each has, and
 * where the set ids the evaluator took (NFTA_SET_ID,
 * NFTA_SET_ELEM_LIST_SET_ID, NFTA_LOOKUP_SET_ID) and the elements' key
 * bytes are in them. The elements are in the message as written (no
 * sorting, duplicates kept: the count is the key's), so element j of a
 * line is element j of its set's NEWSETELEM.
 */
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include "rule_memo_int.h"
#include "linearize.h"

/* Brace group @k of the line: from its '{' to its '}'. */
struct location memo_set_loc(const struct rule_memo *m, unsigned int k)
{
	return location_join(&m->tok[m->set_tok[k]].loc,
			     &m->tok[m->set_end[k]].loc);
}

/*
 * The messages appended to @seg since the mark of rule_memo_rule_begin(),
 * into @out; their number, 0 if they are more than @max, continue one
 * another (one sequence number) or the segment is not as marked.
 */
unsigned int memo_msgs_since(const struct rule_memo *m,
			     const struct nftc_batch *seg,
			     const struct nlmsghdr **out, unsigned int max)
{
	unsigned int c = m->mark_chunk, n = 0, want;
	size_t off = m->mark_off, len;
	const struct nlmsghdr *nlh;
	const uint8_t *buf;

	if (!seg)
		return 0;
	if (seg != m->mark_seg) {	/* a new segment: all its messages */
		c = 0;
		off = 0;
		want = nftc_batch_num_msgs(seg);
	} else {
		want = nftc_batch_num_msgs(seg) - m->mark_nmsgs;
	}
	if (!want || want > max || nftc_batch_num_msgs(seg) < want)
		return 0;
	for (; c < nftc_batch_chunks(seg); c++, off = 0) {
		buf = nftc_batch_chunk(seg, c, &len);
		while (off + sizeof(*nlh) <= len) {
			nlh = (const void *)(buf + off);
			if (nlh->nlmsg_len < sizeof(*nlh) ||
			    off + nlh->nlmsg_len > len || n == max)
				return 0;
			if (n && nlh->nlmsg_seq != out[n - 1]->nlmsg_seq + 1)
				return 0;
			out[n++] = nlh;
			off += MNL_ALIGN(nlh->nlmsg_len);
		}
	}
	return n == want ? n : 0;
}

/* The first top attribute @type of @nlh, NULL if none. */
static const struct nlattr *top(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

/* Payload offset of top attribute @type (@len bytes) of @nlh, 0: none. */
static uint32_t top_attr(const struct nlmsghdr *nlh, uint16_t type,
			 uint16_t len)
{
	const struct nlattr *a = top(nlh, type);

	if (!a || mnl_attr_get_payload_len(a) != len)
		return 0;
	return (const uint8_t *)mnl_attr_get_payload(a) -
	       (const uint8_t *)nlh;
}

/* One set id at @off of message @i: relative to @base, in range? */
static bool id_add(struct memo_msgs *mm, const struct nlmsghdr *nlh,
		   unsigned int i, uint32_t off, uint32_t base)
{
	uint32_t v;

	if (!off || mm->nid == MEMO_IDS)
		return false;
	memcpy(&v, (const uint8_t *)nlh + off, sizeof(v));
	v = ntohl(v) - base;
	if (v < 1 || v > mm->ids)
		return false;
	mm->id_off[mm->nid] = mm->off[i] + off;
	mm->id_rel[mm->nid++] = v;
	return true;
}

/*
 * The payloads of attribute @type (@len bytes, 0: any) in the data of
 * the @name expressions of rule message @nlh: their offsets from @nlh
 * into @off and (unless NULL) their lengths into @lens (the first
 * @max), their number returned, the expressions' in *@nexpr.
 */
unsigned int memo_expr_attrs(const struct nlmsghdr *nlh, const char *name,
			     uint16_t type, uint16_t len, uint32_t *off,
			     uint16_t *lens, unsigned int max,
			     unsigned int *nexpr)
{
	const struct nlattr *a = top(nlh, NFTA_RULE_EXPRESSIONS), *el, *x, *d;
	unsigned int n = 0;

	*nexpr = 0;
	if (!a)
		return 0;
	mnl_attr_for_each_nested(el, a) {
		const char *en = NULL;

		mnl_attr_for_each_nested(x, el) {
			if (mnl_attr_get_type(x) == NFTA_EXPR_NAME)
				en = mnl_attr_get_str(x);
			if (!en || strcmp(en, name) ||
			    mnl_attr_get_type(x) != NFTA_EXPR_DATA)
				continue;
			++*nexpr;
			mnl_attr_for_each_nested(d, x) {
				if (mnl_attr_get_type(d) != type ||
				    (len && mnl_attr_get_payload_len(d) != len))
					continue;
				if (n < max) {
					off[n] = (const uint8_t *)
						 mnl_attr_get_payload(d) -
						 (const uint8_t *)nlh;
					if (lens)
						lens[n] =
						mnl_attr_get_payload_len(d);
				}
				n++;
			}
		}
	}
	return n;
}

/* The set ids of the lookups of rule message @nlh (message @i). */
static bool rule_ids(struct memo_msgs *mm, const struct nlmsghdr *nlh,
		     unsigned int i, uint32_t base)
{
	uint32_t off[MEMO_IDS];
	unsigned int j, n, nexpr;

	n = memo_expr_attrs(nlh, "lookup", NFTA_LOOKUP_SET_ID, 4, off, NULL,
			    MEMO_IDS, &nexpr);
	if (n > MEMO_IDS)
		return false;
	for (j = 0; j < n; j++)
		if (!id_add(mm, nlh, i, off[j], base))
			return false;
	return true;
}

/*
 * A name slot of set @k: the string at @off (@len bytes with its NUL,
 * from message @i's start) of the message.
 */
static bool name_add(struct memo_msgs *mm, unsigned int i, uint32_t off,
		     uint32_t len, unsigned int k)
{
	if (mm->nname == MEMO_NAMES || len > MEMO_NAME_MAX)
		return false;
	mm->name_off[mm->nname] = mm->off[i] + off;
	mm->name_len[mm->nname] = len;
	mm->name_set[mm->nname++] = k;
	return true;
}

/* The string attribute @a, if it ends with its NUL. */
static const char *attr_str(const struct nlattr *a)
{
	uint16_t len = a ? mnl_attr_get_payload_len(a) : 0;
	const char *p = a ? mnl_attr_get_payload(a) : NULL;

	return len && !p[len - 1] ? p : NULL;
}

/*
 * The set names of @nl (set k's NEWSET is message 2k) into the name
 * slots of @mm, when we chose them (anon_names.h): each set's NEWSET,
 * NEWSETELEM and lookup name it. true if there are none ("__set%d") or
 * all are where they must be.
 */
static bool names_map(struct memo_msgs *mm, const struct nlmsghdr *const *nl,
		      unsigned int n)
{
	const char *name[MEMO_SETS], *p;
	const struct nlattr *a;
	uint32_t off[MEMO_NAMES];
	uint16_t len[MEMO_NAMES];
	unsigned int k, j, nl_sets = (n - 1) / 2, nexpr, found;

	for (k = 0; k < nl_sets; k++) {
		name[k] = attr_str(top(nl[2 * k], NFTA_SET_NAME));
		if (!name[k] || (k && !strchr(name[k], '%') !=
				      !strchr(name[0], '%')))
			return false;
	}
	if (!nl_sets || strchr(name[0], '%'))
		return true;
	for (k = 0; k < 2 * nl_sets; k++) {
		a = top(nl[k], k % 2 ? NFTA_SET_ELEM_LIST_SET : NFTA_SET_NAME);
		p = attr_str(a);
		if (!p || strcmp(p, name[k / 2]) ||
		    !name_add(mm, k, (const uint8_t *)p - (const uint8_t *)nl[k],
			      mnl_attr_get_payload_len(a), k / 2))
			return false;
	}
	found = memo_expr_attrs(nl[n - 1], "lookup", NFTA_LOOKUP_SET, 0, off,
				len, MEMO_NAMES, &nexpr);
	if (found > MEMO_NAMES)
		return false;
	for (j = 0; j < found; j++) {
		p = (const char *)nl[n - 1] + off[j];
		if (!len[j] || p[len[j] - 1])
			return false;
		for (k = 0; k < nl_sets && strcmp(p, name[k]); k++)
			;
		/* a named set's lookup is part of the template */
		if (k < nl_sets && !name_add(mm, n - 1, off[j], len[j], k))
			return false;
	}
	mm->names = nl_sets;
	return true;
}

/* Which location message @nlh of @seg was recorded with: 0, 1 + k. */
static int msg_source(const struct nftc_batch *seg,
		      const struct nlmsghdr *nlh,
		      const struct location *rule_loc,
		      const struct location *set_loc, unsigned int nset)
{
	struct nftc_seq_loc sl;
	unsigned int k;

	if (!nftc_batch_seq_lookup(seg, nlh->nlmsg_seq, &sl))
		return -1;
	if (location_equal(&sl.location, rule_loc))
		return 0;
	for (k = 0; k < nset; k++)
		if (location_equal(&sl.location, &set_loc[k]))
			return 1 + k;
	return -1;
}

/*
 * @mm for the @n messages @nl of @seg a rule appended, the evaluator
 * having taken set ids @id_base + 1 ... @id_next: pairs of NEWSET and
 * NEWSETELEM, each at one brace group's location and with one set id,
 * then NEWRULE at the rule's location. false if they are not so.
 */
bool memo_msgs_map(struct memo_msgs *mm, const struct nftc_batch *seg,
		   const struct nlmsghdr *const *nl, unsigned int n,
		   const struct location *rule_loc,
		   const struct location *set_loc, unsigned int nset,
		   uint32_t id_base, uint32_t id_next)
{
	static const uint16_t want[2] = { NFT_MSG_NEWSET, NFT_MSG_NEWSETELEM };
	static const uint16_t id_attr[2] = { NFTA_SET_ID,
					     NFTA_SET_ELEM_LIST_SET_ID };
	uint32_t off = 0;
	unsigned int i;
	int src;

	memset(mm, 0, sizeof(*mm));
	if (!n || n > MEMO_MSGS || n % 2 != 1)
		return false;
	mm->n = n;
	mm->ids = id_next - id_base;
	for (i = 0; i < n; i++) {
		src = msg_source(seg, nl[i], rule_loc, set_loc, nset);
		if (src < 0 || (i + 1 == n) != (src == 0) ||
		    (nl[i]->nlmsg_type & 0xff) !=
		    (i + 1 == n ? NFT_MSG_NEWRULE : want[i % 2]) ||
		    (i % 2 && src != mm->set[i - 1]) ||
		    off + nl[i]->nlmsg_len > MEMO_MSG_MAX)
			return false;
		mm->set[i] = src;
		mm->off[i] = off;
		mm->len[i] = nl[i]->nlmsg_len;
		off += nl[i]->nlmsg_len;
		if (i + 1 < n &&
		    !id_add(mm, nl[i], i, top_attr(nl[i], id_attr[i % 2], 4),
			    id_base))
			return false;
	}
	if (!rule_ids(mm, nl[n - 1], n - 1, id_base) || !names_map(mm, nl, n))
		return false;
	/*
	 * One id a set, each in its two messages and one lookup; a set of
	 * one element became a compare, maybe after taking an id.
	 */
	return mm->ids >= (n - 1) / 2 && mm->nid == 3 * ((n - 1) / 2);
}

/*
 * Where the key bytes of element @j of NEWSETELEM @nlh are: @off (from
 * @nlh) and @len. false if it has no such element.
 */
bool memo_elem_slot(const struct nlmsghdr *nlh, unsigned int j,
		    uint32_t *off, uint32_t *len)
{
	const struct nlattr *a = top(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	const struct nlattr *el, *k, *v;
	unsigned int i = 0;

	if (!a)
		return false;
	mnl_attr_for_each_nested(el, a) {
		if (i++ != j)
			continue;
		mnl_attr_for_each_nested(k, el) {
			if (mnl_attr_get_type(k) != NFTA_SET_ELEM_KEY)
				continue;
			mnl_attr_for_each_nested(v, k) {
				if (mnl_attr_get_type(v) != NFTA_DATA_VALUE)
					continue;
				*off = (const uint8_t *)
				       mnl_attr_get_payload(v) -
				       (const uint8_t *)nlh;
				*len = mnl_attr_get_payload_len(v);
				return true;
			}
		}
		return false;
	}
	return false;
}

/*
 * The set id patches of @mm for a rule whose first id is @base + 1:
 * values into @val, patches into @pt. Returns their number.
 */
unsigned int memo_ids_patch(const struct memo_msgs *mm, uint32_t base,
			    uint32_t *val, struct pipeline_patch *pt)
{
	unsigned int i;

	for (i = 0; i < mm->nid; i++) {
		val[i] = htonl(base + mm->id_rel[i]);
		pt[i].off = mm->id_off[i];
		pt[i].len = sizeof(val[i]);
		pt[i].data = &val[i];
	}
	return mm->nid;
}

/*
 * The name patches of @mm: the names the rule's sets would get now
 * (read with the line's key, m->nameval), patches into @pt. Returns
 * their number, -1 if a name is not known or not of the template's
 * length (the key has the lengths: it cannot be).
 */
int memo_names_patch(struct rule_memo *m, const struct memo_msgs *mm,
		     struct pipeline_patch *pt)
{
	unsigned int i, k;

	if (mm->names > m->nnameval)
		return -1;
	for (i = 0; i < mm->nname; i++) {
		k = mm->name_set[i];
		if (strlen(m->nameval[k]) + 1 != mm->name_len[i])
			return -1;
		pt[i].off = mm->name_off[i];
		pt[i].len = mm->name_len[i];
		pt[i].data = m->nameval[k];
	}
	return mm->nname;
}
