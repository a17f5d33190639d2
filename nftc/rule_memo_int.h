/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rule memo internals, shared by rule_memo.c (lines, keys, hits) and
 * rule_memo_rec.c (conversions, recording, probation).
 */
#ifndef NFTC_RULE_MEMO_INT_H
#define NFTC_RULE_MEMO_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "parser_state.h"
#include "rule_memo.h"
#include "pipeline.h"
#include "evaluate.h"
#define YYSTYPE NFT_STYPE
#define YYLTYPE struct location
#include "parser.h"

#define MEMO_TOKS	64	/* tokens of a line at most */
#define MEMO_HOLES	32
#define MEMO_NOTES	64
#define MEMO_BUCKETS	1024
#define MEMO_KEY_WORDS	256
#define MEMO_MSG_MAX	4096
#define MEMO_TMPLS	4	/* templates of one key */
#define MEMO_KEYS	4096	/* keys of one chain body */
#define MEMO_TRIES	3	/* probation rules before promotion */
#define MEMO_VAL_MAX	16	/* bytes of a hole's value */
#define MEMO_ARENA	4096	/* token texts of a line */
#define MEMO_SETS	4	/* anonymous sets "{ A, B }" of a line */
#define MEMO_MSGS	(2 * MEMO_SETS + 1)	/* a rule's messages */
#define MEMO_IDS	(3 * MEMO_SETS)	/* set ids in them */
#define MEMO_NAMES	(3 * MEMO_SETS)	/* set names in them */
#define MEMO_NAME_MAX	16		/* "__set4294967295" */

/* what a token is for the memo (rule_memo.tokinfo) */
#define TOKINFO_MAX	1024
enum {
	TI_TEXT		= 1 << 0,	/* carries a malloc'ed string */
	TI_END		= 1 << 1,	/* ends a line */
	TI_STOP		= 1 << 2,	/* the line is the parser's */
	TI_NOTPLAIN	= 1 << 3,	/* a literal next to it is no hole */
};

enum hole_class {
	HC_NONE,
	HC_NUM,
	HC_IP4,
	HC_IP6,
};

struct memo_tok {
	int		tok;
	NFT_STYPE	val;
	struct location	loc;
};

/* what a hole's text is: a compare's constant or a limit's rate */
enum {
	HK_CONST	= 0,
	HK_LIMIT_RATE	= 1,	/* "limit rate [over] N/UNIT": N */
	HK_LIMIT_BURST	= 2,	/* "... N/UNIT burst B packets": B */
};

/* "A-B": A is a range's low bound, B (the next hole) its high one */
enum {
	RANGE_LO	= 1,
	RANGE_HI	= 2,
};

enum tmpl_state {
	TS_PROBATION,
	TS_ACTIVE,
	TS_DEAD,
};

/* how the bytes of hole k come from its text */
struct memo_hole {
	const struct datatype	*dtype;
	enum byteorder		bo;
	unsigned int		len;		/* context width, bits */
	uint32_t		off;		/* in the message */
	uint32_t		n;		/* bytes written there */
	uint32_t		full;		/* of the value */
	bool			exact;
	bool			verified;
	uint8_t			range;		/* RANGE_LO, RANGE_HI */
	uint8_t			kind;		/* HK_* */
	uint8_t			set;		/* 1 + brace group, 0 none */
	uint8_t			elem;		/* its element */
	uint8_t			first[MEMO_VAL_MAX];
};

/*
 * The messages of a rule, in batch order: each anonymous set's
 * declaration and elements (rule_memo_set.c), then the rule. @set of a
 * message: 0 if it has the rule's source location, 1 + k if brace group
 * k's. The set ids in them are the rule's first id + @id_rel - 1.
 */
struct memo_msgs {
	unsigned int		n;
	uint16_t		off[MEMO_MSGS];		/* in the buffer */
	uint16_t		len[MEMO_MSGS];
	uint8_t			set[MEMO_MSGS];
	unsigned int		nid;
	uint16_t		id_off[MEMO_IDS];
	uint8_t			id_rel[MEMO_IDS];
	unsigned int		ids;			/* ids taken */
	/* set names chosen by us (anon_names.h): set k took the k-th */
	unsigned int		nname;
	uint16_t		name_off[MEMO_NAMES];	/* NUL included */
	uint8_t			name_len[MEMO_NAMES];
	uint8_t			name_set[MEMO_NAMES];
	unsigned int		names;			/* names taken */
};

struct memo_tmpl {
	struct memo_tmpl	*next;
	enum tmpl_state		state;
	unsigned int		tries;
	unsigned int		nhole;
	struct memo_hole	hole[MEMO_HOLES];
	char			*text[MEMO_HOLES];	/* first rule's */
	uint8_t			*msg;
	uint32_t		msg_len;
	struct memo_msgs	msgs;
};

struct memo_key {
	struct memo_key		*next;
	uint64_t		hash;
	uint32_t		len;
	unsigned int		ntmpl;
	struct memo_tmpl	*tmpls;
	uint64_t		key[];
};

struct memo_sym_note {
	struct location		loc;
	const struct datatype	*dtype;
	enum byteorder		bo;
	unsigned int		len;
	bool			ok;
	uint8_t			val[MEMO_VAL_MAX];
	unsigned int		n;
};

struct rule_memo_rec {
	unsigned int		nsym;
	struct memo_sym_note	sym[MEMO_NOTES];
	unsigned int		ncmp;
	uint32_t		cmp_off[MEMO_NOTES];
	uint32_t		cmp_len[MEMO_NOTES];
	bool			overflow;
};

struct rule_memo {
	struct nftc_ctx		*nft;
	struct pipeline		*p;
	struct parser_state	*state;
	struct chain		*arm;
	struct chain		*chain;		/* the line's */
	/* the line */
	struct memo_tok		tok[MEMO_TOKS + 1];
	char			arena[MEMO_ARENA];
	unsigned int		ntok;
	unsigned int		rpos;		/* next to replay */
	bool			replaying;
	unsigned int		hole_tok[MEMO_HOLES];
	unsigned int		hole_plen[MEMO_HOLES];	/* "A/24": 24 */
	uint8_t			hole_range[MEMO_HOLES];
	uint8_t			hole_kind[MEMO_HOLES];	/* HK_* */
	uint8_t			hole_set[MEMO_HOLES];	/* 1 + group, 0 */
	uint8_t			hole_elem[MEMO_HOLES];
	unsigned int		nhole;
	/* brace groups "{ A, B }": tokens '{' and '}', the span */
	unsigned int		nset;
	unsigned int		set_tok[MEMO_SETS + 1];	/* then UINT_MAX */
	unsigned int		set_end[MEMO_SETS + 1];
	uint64_t		keybuf[MEMO_KEY_WORDS];
	uint32_t		keylen;		/* words */
	uint64_t		hash;
	/* a rule compiled the full way to record or check */
	struct memo_key		*pend_key;
	struct memo_tmpl	*pend_tmpl;	/* on probation: check */
	char			*pend_text[MEMO_HOLES];
	unsigned int		pend_nhole;
	struct location		pend_loc;
	struct location		pend_set_loc[MEMO_SETS];
	unsigned int		pend_nset;
	uint32_t		pend_id;	/* next_set_id then */
	uint8_t			pend_msg[MEMO_MSG_MAX];	/* expected */
	/* where the rule's messages start in the segment */
	const struct nftc_batch	*mark_seg;
	unsigned int		mark_chunk;
	size_t			mark_off;
	unsigned int		mark_nmsgs;
	uint32_t		mark_id;	/* next_set_id before */
	bool			recording;
	struct rule_memo_rec	rec;
	struct memo_key		*bucket[MEMO_BUCKETS];
	unsigned int		nkeys;
	struct eval_ctx		ectx;		/* for hole_convert() */
	uint8_t			val[MEMO_HOLES][MEMO_VAL_MAX];
	uint32_t		idval[MEMO_IDS];
	/* names_word(): the names the line's sets would take, the first
	 * nnameval known */
	char			nameval[MEMO_SETS][MEMO_NAME_MAX];
	unsigned int		nnameval;
	struct pipeline_patch	patch[MEMO_HOLES + MEMO_IDS + MEMO_NAMES];
	unsigned int		npatch;
	uint8_t			tokinfo[TOKINFO_MAX];
	/* giving up on files of shapes that never repeat */
	unsigned int		hits;
	unsigned int		records;
};

static inline const char *hole_text(const struct rule_memo *m,
				    unsigned int k)
{
	return m->tok[m->hole_tok[k]].val.string;
}

/* rule_memo.c */
void memo_pend_reset(struct rule_memo *m);
void memo_tmpl_free(struct memo_tmpl *t);

/* rule_memo_set.c */
struct nlmsghdr;
struct location memo_set_loc(const struct rule_memo *m, unsigned int k);
unsigned int memo_msgs_since(const struct rule_memo *m,
			     const struct nftc_batch *seg,
			     const struct nlmsghdr **out, unsigned int max);
bool memo_msgs_map(struct memo_msgs *mm, const struct nftc_batch *seg,
		   const struct nlmsghdr *const *nl, unsigned int n,
		   const struct location *rule_loc,
		   const struct location *set_loc, unsigned int nset,
		   uint32_t id_base, uint32_t id_next);
unsigned int memo_expr_attrs(const struct nlmsghdr *nlh, const char *name,
			     uint16_t type, uint16_t len, uint32_t *off,
			     uint16_t *lens, unsigned int max,
			     unsigned int *nexpr);
bool memo_elem_slot(const struct nlmsghdr *nlh, unsigned int j,
		    uint32_t *off, uint32_t *len);
unsigned int memo_ids_patch(const struct memo_msgs *mm, uint32_t base,
			    uint32_t *val, struct pipeline_patch *pt);
int memo_names_patch(struct rule_memo *m, const struct memo_msgs *mm,
		     struct pipeline_patch *pt);

/* rule_memo_rec.c */
bool tmpl_values(struct rule_memo *m, const struct memo_tmpl *t);
bool tmpl_fill(struct rule_memo *m, const struct memo_tmpl *t,
	       uint8_t *out);

#endif
