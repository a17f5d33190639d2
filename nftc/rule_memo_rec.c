// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rule memo (rule_memo.c): converting a line's literals as the evaluator
 * does, and recording or checking templates from rules compiled the full
 * way.
 */
#include <stdlib.h>
#include <string.h>
#include <endian.h>
#include <arpa/inet.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>
#include "rule_memo_int.h"
#include "lin_int.h"
#include "linearize.h"

/* ------------------------------------------------------- conversions */

/* Types whose constants are plain values in a compare. */
static bool dtype_plain(const struct datatype *dt)
{
	return dt == &ipaddr_type || dt == &ip6addr_type ||
	       dt == &inet_service_type || dt == &integer_type ||
	       dt == &mark_type;
}

/*
 * Hole text @text as the evaluator makes it a constant in the context
 * of @h, laid out as the linearizer lays it out, into @buf. Returns its
 * length, 0 on any error (none is left queued).
 */
static unsigned int hole_convert(struct rule_memo *m,
				 const struct memo_hole *h, const char *text,
				 const struct location *loc, uint8_t *buf,
				 struct expr **keep)
{
	struct eval_ctx *ctx = &m->ectx;
	struct erec_queue *q = &m->nft->erq;
	struct expr sym, *e;
	unsigned int n = 0;

	if (q->num_errors || !list_empty(&q->records))
		return 0;
	/* the parser's symbol of the literal, on the stack */
	memset(&sym, 0, offsetof(struct expr, sym) + sizeof(sym.sym));
	sym.location = *loc;
	sym.kind = EXPR_SYMBOL;
	sym.byteorder = BYTEORDER_INVALID;
	sym.flags = EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	sym.refcnt = 1;
	sym.sym.symtype = SYMBOL_VALUE;
	sym.sym.identifier = (char *)text;
	ctx->ectx.dtype = h->dtype;
	ctx->ectx.byteorder = h->bo;
	ctx->ectx.len = h->len;
	if (eval_symbol_constant(ctx, &sym, &e) == 0 &&
	    e->kind == EXPR_VALUE && list_empty(&q->records) &&
	    !q->num_errors && BITS_TO_BYTES(e->len) <= MEMO_VAL_MAX)
		n = lin_value_data(e, buf, MEMO_VAL_MAX);
	if (keep && n) {
		*keep = e;
		e = NULL;
	}
	if (e)
		expr_free(e);
	if (q->num_errors || !list_empty(&q->records)) {
		erec_queue_free(q);
		n = 0;
	}
	return n;
}

/*
 * A limit's rate or burst text @text (@kind) as the parser and the
 * evaluator make it (the grammar's number: parse_u64(); limit_pkts(),
 * whose burst field is a u32; stmt_evaluate(), which makes a burst of
 * 0 5), laid out as lin_emit_stateful() writes NFTA_LIMIT_RATE (u64,
 * big endian) or NFTA_LIMIT_BURST (htonl(), written only if not 0),
 * into @buf. Returns 8 or 4, 0 on any error (none is left
 * queued).
 */
static unsigned int limit_convert(struct rule_memo *m, unsigned int kind,
				  const char *text,
				  const struct location *loc, uint8_t *buf)
{
	struct erec_queue *q = &m->nft->erq;
	struct stmt *s;
	uint64_t v, be;
	uint32_t be32;
	unsigned int n = 0;
	char *unit;

	if (q->num_errors || !list_empty(&q->records) ||
	    parse_u64(text, &v) < 0)
		return 0;
	/* the unit is exact in the key: it touches neither value */
	unit = strdup("second");
	if (!unit)
		return 0;
	if (kind == HK_LIMIT_RATE)
		s = limit_pkts(m->state, loc, 0, v, unit, loc, 0);
	else
		s = limit_pkts(m->state, loc, 0, 1, unit, loc, v);
	if (s && stmt_evaluate(&m->ectx, s) == 0 &&
	    !q->num_errors && list_empty(&q->records)) {
		if (kind == HK_LIMIT_RATE) {
			be = htobe64(s->limit.rate);
			memcpy(buf, &be, sizeof(be));
			n = sizeof(be);
		} else if (s->limit.burst > 0) {
			be32 = htonl(s->limit.burst);
			memcpy(buf, &be32, sizeof(be32));
			n = sizeof(be32);
		}
	}
	if (s)
		stmt_free(s);
	if (q->num_errors || !list_empty(&q->records)) {
		erec_queue_free(q);
		n = 0;
	}
	return n;
}

static unsigned int hole_value(struct rule_memo *m,
			       const struct memo_hole *h, const char *text,
			       const struct location *loc, uint8_t *buf)
{
	if (h->kind != HK_CONST)
		return limit_convert(m, h->kind, text, loc, buf);
	return hole_convert(m, h, text, loc, buf, NULL);
}

/*
 * The bounds of range holes @lo and @lo + 1 of the line, converted:
 * in the order the evaluator wants (eval_range_ordered())?
 */
static bool range_ok(struct rule_memo *m, const struct memo_tmpl *t,
		     unsigned int lo)
{
	struct expr *e[2] = { NULL, NULL };
	uint8_t v[MEMO_VAL_MAX];
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 2 && ok; i++)
		ok = hole_convert(m, &t->hole[lo + i], hole_text(m, lo + i),
				  &m->tok[m->hole_tok[lo + i]].loc, v,
				  &e[i]) == t->hole[lo + i].full;
	ok = ok && eval_range_ordered(e[0], e[1]);
	for (i = 0; i < 2; i++)
		if (e[i])
			expr_free(e[i]);
	return ok;
}

/*
 * The line's hole values for @t, into m->patch, then its set ids (the
 * evaluator would take the next ones); false if not.
 */
bool tmpl_values(struct rule_memo *m, const struct memo_tmpl *t)
{
	struct pipeline_patch *pt;
	unsigned int i;

	m->npatch = 0;
	for (i = 0; i < t->nhole; i++) {
		const struct memo_hole *h = &t->hole[i];

		if (h->exact)
			continue;
		if (h->range == RANGE_LO && !range_ok(m, t, i))
			return false;
		if (hole_value(m, h, hole_text(m, i),
			       &m->tok[m->hole_tok[i]].loc, m->val[i]) !=
		    h->full)
			return false;
		pt = &m->patch[m->npatch++];
		pt->off = h->off;
		pt->len = h->n;
		pt->data = m->val[i];
	}
	if (t->msgs.nid)
		m->npatch += memo_ids_patch(&t->msgs, m->nft->next_set_id,
					    m->idval, m->patch + m->npatch);
	if (t->msgs.nname) {
		int n = memo_names_patch(m, &t->msgs, m->patch + m->npatch);

		if (n < 0)
			return false;
		m->npatch += n;
	}
	return true;
}

/* The messages of @t with the line's values into @out; false if not. */
bool tmpl_fill(struct rule_memo *m, const struct memo_tmpl *t,
	       uint8_t *out)
{
	unsigned int i;

	if (!tmpl_values(m, t))
		return false;
	memcpy(out, t->msg, t->msg_len);
	for (i = 0; i < m->npatch; i++)
		memcpy(out + m->patch[i].off, m->patch[i].data,
		       m->patch[i].len);
	return true;
}

/* ---------------------------------------------------------- recording */

void rule_memo_note_sym(struct rule_memo_rec *rec,
			const struct location *loc,
			const struct datatype *dtype, unsigned int len,
			enum byteorder bo, const struct expr *res)
{
	struct memo_sym_note *s;

	if (rec->nsym == MEMO_NOTES) {
		rec->overflow = true;
		return;
	}
	s = &rec->sym[rec->nsym++];
	memset(s, 0, sizeof(*s));
	s->loc = *loc;
	s->dtype = dtype;
	s->bo = bo;
	s->len = len;
	s->ok = res->kind == EXPR_VALUE &&
		BITS_TO_BYTES(res->len) <= MEMO_VAL_MAX;
	if (s->ok)
		s->n = lin_value_data(res, s->val, MEMO_VAL_MAX);
	s->ok = s->ok && s->n;
}

void rule_memo_note_cmp(struct rule_memo_rec *rec, uint32_t off,
			uint32_t len)
{
	if (rec->ncmp == MEMO_NOTES) {
		rec->overflow = true;
		return;
	}
	rec->cmp_off[rec->ncmp] = off;
	rec->cmp_len[rec->ncmp++] = len;
}

void rule_memo_rule_begin(struct rule_memo *m, const struct chain *c,
			  const struct rule *r, const struct nftc_batch *seg)
{
	size_t len = 0;

	if (!m)
		return;
	m->recording = false;
	if (!m->pend_key || m->replaying || c != m->chain ||
	    !location_equal(&r->location, &m->pend_loc) ||
	    r->comment) {
		memo_pend_reset(m);
		return;
	}
	m->recording = true;
	/* where its messages will start */
	m->mark_seg = seg;
	m->mark_chunk = seg && nftc_batch_chunks(seg) ?
			nftc_batch_chunks(seg) - 1 : 0;
	if (seg)
		nftc_batch_chunk(seg, m->mark_chunk, &len);
	m->mark_off = len;
	m->mark_nmsgs = seg ? nftc_batch_num_msgs(seg) : 0;
	m->mark_id = m->nft->next_set_id;
	memset(&m->rec, 0, offsetof(struct rule_memo_rec, sym));
	m->rec.ncmp = 0;
	m->rec.overflow = false;
	m->nft->memo_rec = &m->rec;
}

static bool same_loc_start(const struct location *a,
			   const struct location *b)
{
	return a->indesc == b->indesc && a->first_line == b->first_line &&
	       a->first_column == b->first_column;
}

/* Where the hole bytes @v, @n are in the compare data of @msg: once. */
static bool hole_find(const struct rule_memo_rec *rec, const uint8_t *msg,
		      const uint8_t *v, unsigned int n, bool whole,
		      uint32_t *off)
{
	unsigned int i, found = 0;
	uint32_t o;

	for (i = 0; i < rec->ncmp; i++) {
		/* a prefix's bytes are a compare's whole data */
		if (whole && rec->cmp_len[i] != n)
			continue;
		for (o = 0; o + n <= rec->cmp_len[i]; o++) {
			if (memcmp(msg + rec->cmp_off[i] + o, v, n))
				continue;
			*off = rec->cmp_off[i] + o;
			found++;
		}
	}
	return found == 1;
}

/*
 * Where the payload (@len bytes) of attribute @type of the one limit
 * expression of rule message @nlh is, 0 if there is not exactly one
 * limit or it has no such attribute.
 */
static uint32_t limit_attr_off(const struct nlmsghdr *nlh, uint16_t type,
			       uint16_t len)
{
	unsigned int nexpr;
	uint32_t off;

	return memo_expr_attrs(nlh, "limit", type, len, &off, NULL, 1,
			       &nexpr) == 1 &&
	       nexpr == 1 ? off : 0;
}

/* Limit hole @h of text @text: its value where the message has it. */
static bool limit_hole(struct rule_memo *m, struct memo_hole *h,
		       unsigned int kind, const char *text,
		       const struct location *loc,
		       const struct nlmsghdr *nlh, uint8_t *v)
{
	uint16_t len = kind == HK_LIMIT_RATE ? 8 : 4;
	uint32_t off = limit_attr_off(nlh, kind == HK_LIMIT_RATE ?
					   NFTA_LIMIT_RATE : NFTA_LIMIT_BURST,
				      len);

	h->kind = kind;
	h->full = h->n = len;
	if (!off || off + len > nlh->nlmsg_len ||
	    limit_convert(m, kind, text, loc, v) != len ||
	    memcmp((const uint8_t *)nlh + off, v, len))
		return false;
	h->off = off;
	return true;
}

/* Range bounds are holes both or neither (range_ok() wants both). */
static void pairs_exact(struct memo_tmpl *t)
{
	unsigned int i;

	for (i = 0; i + 1 < t->nhole; i++) {
		if (t->hole[i].range != RANGE_LO ||
		    (!t->hole[i].exact && !t->hole[i + 1].exact))
			continue;
		t->hole[i].exact = true;
		t->hole[i + 1].exact = true;
	}
}

/*
 * Element hole @h of template @t, value @v: 1 if it is in its set's
 * NEWSETELEM (@h->off set), 0 if the set has no messages (one element:
 * a compare), -1 if its element is not @v.
 */
static int elem_hole(const struct memo_tmpl *t,
		     const struct nlmsghdr *const *nl, struct memo_hole *h,
		     const uint8_t *v)
{
	const struct memo_msgs *mm = &t->msgs;
	uint32_t off, len;
	unsigned int i;

	for (i = 1; i < mm->n; i += 2) {
		if (mm->set[i] != h->set)
			continue;
		if (!memo_elem_slot(nl[i], h->elem, &off, &len) ||
		    len != h->n ||
		    memcmp((const uint8_t *)nl[i] + off, v, len))
			return -1;
		h->off = mm->off[i] + off;
		return 1;
	}
	return 0;
}

/* Hole @i of new template @t: where its value is, if it is a hole. */
static void record_hole(struct rule_memo *m, struct memo_tmpl *t,
			unsigned int i, const struct nlmsghdr *const *nl)
{
	const struct rule_memo_rec *rec = &m->rec;
	const struct nlmsghdr *rule = nl[t->msgs.n - 1];
	uint32_t at = t->msgs.off[t->msgs.n - 1];
	const struct memo_sym_note *s, *one = NULL;
	struct memo_hole *h = &t->hole[i];
	uint8_t v[MEMO_VAL_MAX];
	unsigned int j, cnt;
	int r;

	if (m->hole_kind[i] != HK_CONST) {
		if (limit_hole(m, h, m->hole_kind[i], t->text[i],
			       &m->tok[m->hole_tok[i]].loc, rule, v)) {
			h->off += at;
			memcpy(h->first, v, h->n);
			h->exact = false;
		}
		return;
	}
	for (cnt = 0, j = 0; j < rec->nsym; j++) {
		s = &rec->sym[j];
		if (same_loc_start(&s->loc, &m->tok[m->hole_tok[i]].loc)) {
			one = s;
			cnt++;
		}
	}
	if (cnt != 1 || !one->ok || !dtype_plain(one->dtype))
		return;
	h->dtype = one->dtype;
	h->bo = one->bo;
	h->len = one->len;
	h->full = one->n;
	h->n = m->hole_plen[i] ? m->hole_plen[i] / 8 : one->n;
	h->set = m->hole_set[i];
	h->elem = m->hole_elem[i];
	/* the conversion here gives the evaluator's bytes */
	if (h->n > one->n ||
	    hole_convert(m, h, t->text[i], &one->loc, v, NULL) != one->n ||
	    memcmp(v, one->val, one->n))
		return;
	r = h->set ? elem_hole(t, nl, h, v) : 0;
	if (r < 0)
		return;
	if (r == 0) {
		if (!hole_find(rec, (const uint8_t *)rule, v, h->n,
			       !!m->hole_plen[i], &h->off))
			return;
		h->off += at;
	}
	memcpy(h->first, v, h->n);
	h->exact = false;
}

/* A template from the rule just compiled, messages @nl of @seg. */
static void record(struct rule_memo *m, const struct nftc_batch *seg,
		   const struct nlmsghdr *const *nl, unsigned int n)
{
	struct memo_key *k = m->pend_key;
	struct memo_msgs mm;
	struct memo_tmpl *t;
	unsigned int i;

	if (m->rec.overflow ||
	    !memo_msgs_map(&mm, seg, nl, n, &m->pend_loc, m->pend_set_loc,
			   m->pend_nset, m->mark_id, m->nft->next_set_id))
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		return;
	t->nhole = m->pend_nhole;
	memcpy(&t->msgs, &mm, sizeof(mm));	/* check() compares bytes */
	t->msg_len = mm.off[n - 1] + mm.len[n - 1];
	t->msg = malloc(t->msg_len);
	if (!t->msg) {
		memo_tmpl_free(t);
		return;
	}
	for (i = 0; i < n; i++)
		memcpy(t->msg + mm.off[i], nl[i], mm.len[i]);
	for (i = 0; i < t->nhole; i++) {
		t->text[i] = m->pend_text[i];
		m->pend_text[i] = NULL;
		t->hole[i].exact = true;
		t->hole[i].range = m->hole_range[i];
		record_hole(m, t, i, nl);
	}
	pairs_exact(t);
	m->pend_nhole = 0;
	t->next = k->tmpls;
	k->tmpls = t;
	k->ntmpl++;
	m->records++;
}

/*
 * The rule just compiled (messages @nl of @seg), on probation template
 * @t: as @t makes it? Its messages, sequence numbers aside, must be
 * m->pend_msg, their sources and set ids where @t has them.
 */
static void check(struct rule_memo *m, struct memo_tmpl *t,
		  const struct nftc_batch *seg,
		  const struct nlmsghdr *const *nl, unsigned int n)
{
	const uint8_t *want = m->pend_msg;
	const size_t seq = offsetof(struct nlmsghdr, nlmsg_seq);
	struct memo_msgs mm;
	unsigned int i;
	bool all = true;

	if (m->mark_id != m->pend_id ||
	    !memo_msgs_map(&mm, seg, nl, n, &m->pend_loc, m->pend_set_loc,
			   m->pend_nset, m->mark_id, m->nft->next_set_id) ||
	    memcmp(&mm, &t->msgs, sizeof(mm))) {
		t->state = TS_DEAD;
		return;
	}
	for (i = 0; i < n; i++) {
		const uint8_t *msg = (const void *)nl[i];
		const uint8_t *w = want + mm.off[i];

		if (memcmp(msg, w, seq) ||
		    memcmp(msg + seq + 4, w + seq + 4, mm.len[i] - seq - 4)) {
			t->state = TS_DEAD;
			return;
		}
	}
	for (i = 0; i < t->nhole; i++) {
		struct memo_hole *h = &t->hole[i];

		if (h->exact)
			continue;
		if (memcmp(want + h->off, h->first, h->n))
			h->verified = true;
		all = all && h->verified;
	}
	t->tries++;
	if (!all && t->tries < MEMO_TRIES)
		return;
	for (i = 0; i < t->nhole; i++)
		if (!t->hole[i].verified)
			t->hole[i].exact = true;
	pairs_exact(t);
	t->state = TS_ACTIVE;
}

void rule_memo_rule_end(struct rule_memo *m, const struct nftc_batch *seg)
{
	const struct nlmsghdr *nl[MEMO_MSGS];
	unsigned int n;

	if (!m || !m->recording)
		return;
	m->recording = false;
	m->nft->memo_rec = NULL;
	n = memo_msgs_since(m, seg, nl, MEMO_MSGS);
	if (n) {
		if (m->pend_tmpl)
			check(m, m->pend_tmpl, seg, nl, n);
		else
			record(m, seg, nl, n);
	} else if (m->pend_tmpl) {
		m->pend_tmpl->state = TS_DEAD;
	}
	memo_pend_reset(m);
}
