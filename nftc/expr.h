/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_EXPR_H
#define NFTC_EXPR_H

#include <stdint.h>
#include <stdbool.h>
#include <linux/netfilter/nf_tables.h>
#include "list.h"
#include "location.h"
#include "value.h"
#include "datatype.h"
#include "proto.h"

struct set;
struct chain;
struct stmt;

/**
 * enum expr_kind - the expressions of the nft language
 *
 * @EXPR_SYMBOL: text not yet typed ("ssh", "10.0.0.1", "eth0"): the
 *               evaluator parses it in the context of its left-hand side
 * @EXPR_VARIABLE: $name, bound by "define"
 * @EXPR_VALUE: a typed constant
 * @EXPR_VERDICT: accept, drop, jump CHAIN, ...
 * @EXPR_PREFIX: VALUE/len
 * @EXPR_RANGE: low-high
 * @EXPR_PAYLOAD: a protocol header field, or raw @base,offset,len
 * @EXPR_EXTHDR: an IPv6 extension header, TCP option or IP option field
 * @EXPR_META: meta key
 * @EXPR_CT: conntrack key, optionally per direction
 * @EXPR_RT: routing key
 * @EXPR_SOCKET: socket key
 * @EXPR_OSF: passive OS fingerprint
 * @EXPR_FIB: fib lookup
 * @EXPR_NUMGEN: numgen inc/random mod N
 * @EXPR_HASH: jhash EXPR / symhash mod N
 * @EXPR_XFRM: ipsec key
 * @EXPR_CONCAT: a . b . c
 * @EXPR_LIST: a, b, c outside braces (flag lists "syn,ack")
 * @EXPR_SET: an anonymous set or a set's elements { ... }
 * @EXPR_SET_REF: @name
 * @EXPR_SET_ELEM: one element with its options (timeout, comment)
 * @EXPR_MAPPING: key : value inside a map
 * @EXPR_MAP: KEY map { ... } / KEY vmap { ... } / KEY map @name
 * @EXPR_UNARY: byte order conversion (OP_HTON/OP_NTOH)
 * @EXPR_BINOP: & | ^ << >>
 * @EXPR_RELATIONAL: a match: LEFT OP RIGHT (OP_IMPLICIT when written
 *                   without an operator)
 */
enum expr_kind {
	EXPR_INVALID,
	EXPR_SYMBOL,
	EXPR_VARIABLE,
	EXPR_VALUE,
	EXPR_VERDICT,
	EXPR_PREFIX,
	EXPR_RANGE,
	EXPR_PAYLOAD,
	EXPR_EXTHDR,
	EXPR_META,
	EXPR_CT,
	EXPR_RT,
	EXPR_SOCKET,
	EXPR_OSF,
	EXPR_FIB,
	EXPR_NUMGEN,
	EXPR_HASH,
	EXPR_XFRM,
	EXPR_CONCAT,
	EXPR_LIST,
	EXPR_SET,
	EXPR_SET_REF,
	EXPR_SET_ELEM,
	EXPR_MAPPING,
	EXPR_MAP,
	EXPR_UNARY,
	EXPR_BINOP,
	EXPR_RELATIONAL,
	__EXPR_MAX
};

/**
 * enum ops - operators of unary, binary and relational expressions
 */
enum ops {
	OP_INVALID,
	OP_HTON,
	OP_NTOH,
	OP_LSHIFT,
	OP_RSHIFT,
	OP_AND,
	OP_XOR,
	OP_OR,
	OP_IMPLICIT,	/* no operator written: eq, or flag test for bitmasks */
	OP_EQ,
	OP_NEQ,
	OP_LT,
	OP_GT,
	OP_LTE,
	OP_GTE,
	OP_NEG,		/* "!" written before a flag value */
	OP_ADD,		/* chain priority "NAME + N" (parser only) */
	OP_SUB,		/* chain priority "NAME - N" (parser only) */
	__OP_MAX
};

extern const char *const op_names[__OP_MAX];

enum expr_flags {
	EXPR_F_CONSTANT		= (1 << 0),	/* value known at compile time */
	EXPR_F_SINGLETON	= (1 << 1),	/* one value (not a range/set) */
	EXPR_F_PROTOCOL		= (1 << 2),	/* selects an upper protocol */
	EXPR_F_INTERVAL_END	= (1 << 3),	/* closes an interval */
	EXPR_F_BOOLEAN		= (1 << 4),	/* existence test (exthdr, ...) */
	EXPR_F_INTERVAL		= (1 << 5),	/* set element is a range */
	EXPR_F_IMPLICIT_DEP	= (1 << 6),	/* generated dependency */
	EXPR_F_EXISTING		= (1 << 7),	/* set element added by an
						 * earlier command: kept for
						 * overlap checks, never
						 * emitted again */
};

enum symbol_kind {
	SYMBOL_VALUE,		/* bare word / number / quoted string */
	SYMBOL_QUOTED,		/* "..." (never a keyword) */
};

/* Set flags as the VM knows them, plus compiler-only ones. */
#define SET_F_ANONYMOUS		NFT_SET_ANONYMOUS
#define SET_F_CONSTANT		NFT_SET_CONSTANT
#define SET_F_INTERVAL		NFT_SET_INTERVAL
#define SET_F_MAP		NFT_SET_MAP
#define SET_F_TIMEOUT		NFT_SET_TIMEOUT
#define SET_F_EVAL		NFT_SET_EVAL
#define SET_F_OBJECT		NFT_SET_OBJECT
#define SET_F_CONCAT		NFT_SET_CONCAT
#define SET_F_EXPR		NFT_SET_EXPR
#define SET_F_VMAP		(1u << 16)	/* compiler: verdict map */
/* compiler, on an element batch (EXPR_SET): it starts an empty interval
 * set, so the linearizer emits the leading zero end element */
#define SET_F_ELEM_FIRST	(1u << 17)
/* parser, on a set declaration's element list: further plain elements
 * go into the parser's element pack (elem_pack.h) */
#define SET_F_ELEM_PACKING	(1u << 18)

/**
 * struct expr - a node of the IR expression tree
 * @list: linkage in a parent's list (concat members, set elements, ...)
 * @location: source span; every node has one
 * @kind: enum expr_kind
 * @flags: enum expr_flags
 * @op: operator (unary, binop, relational)
 * @byteorder: register byte order once typed
 * @dtype: type, &invalid_type until evaluated
 * @len: width in bits once typed
 * @refcnt: references (expr_get/expr_free)
 */
struct expr {
	struct list_head		list;
	struct location			location;
	const struct datatype		*dtype;
	uint8_t				kind;
	uint8_t				op;
	uint8_t				byteorder;
	uint16_t			flags;
	unsigned int			len;
	unsigned int			refcnt;
	union {
		/* EXPR_SYMBOL, EXPR_VARIABLE */
		struct {
			char			*identifier;
			enum symbol_kind	symtype;
			struct expr		*value;	/* variable binding */
		} sym;
		/* EXPR_VALUE */
		struct value			value;
		/* EXPR_VERDICT */
		struct {
			int			verdict; /* NF_ACCEPT, NFT_JUMP.. */
			struct expr		*chain;	 /* jump/goto target */
			uint32_t		chain_id; /* anonymous target */
		} verdict;
		/* EXPR_PREFIX */
		struct {
			struct expr		*expr;
			unsigned int		prefix_len;
		} prefix;
		/* EXPR_RANGE, EXPR_MAPPING, EXPR_BINOP, EXPR_RELATIONAL */
		struct {
			struct expr		*left;
			struct expr		*right;
		} pair;
		/* EXPR_UNARY */
		struct {
			struct expr		*arg;
		} unary;
		/* EXPR_PAYLOAD */
		struct {
			const struct proto_desc		*desc;
			const struct proto_hdr_template	*tmpl;
			enum proto_bases		base;
			unsigned int			offset;	/* bits */
			bool				is_raw;
			/* compiled-in dependency for raw "th" loads etc. */
		} payload;
		/* EXPR_EXTHDR */
		struct {
			const struct exthdr_desc	*desc;
			const struct proto_hdr_template	*tmpl;
			enum nft_exthdr_op		op;
			unsigned int			offset;	/* bits */
			uint8_t				raw_type;
			uint32_t			flags;	/* F_PRESENT */
		} exthdr;
		/* EXPR_META */
		struct {
			enum nft_meta_keys		key;
			enum proto_bases		base;	/* dep. base */
			bool				inner;
		} meta;
		/* EXPR_CT */
		struct {
			enum nft_ct_keys		key;
			int8_t				direction; /* -1 none */
			uint8_t				nfproto;
		} ct;
		/* EXPR_RT */
		struct {
			enum nft_rt_keys		key;
			uint8_t				nfproto; /* "rt ip
								  * nexthop": 2 */
		} rt;
		/* EXPR_SOCKET */
		struct {
			enum nft_socket_keys		key;
			uint32_t			level;
		} socket;
		/* EXPR_OSF */
		struct {
			uint8_t				ttl;
			uint32_t			flags;
		} osf;
		/* EXPR_FIB */
		struct {
			uint32_t			flags;
			uint32_t			result;
		} fib;
		/* EXPR_NUMGEN */
		struct {
			enum nft_ng_types		type;
			uint32_t			mod;
			uint32_t			offset;
		} numgen;
		/* EXPR_HASH */
		struct {
			struct expr			*expr;
			uint32_t			mod;
			uint32_t			seed;
			uint32_t			offset;
			bool				seed_set;
			enum nft_hash_types		type;
		} hash;
		/* EXPR_XFRM */
		struct {
			enum nft_xfrm_keys		key;
			uint8_t				direction;
			uint8_t				spnum;
		} xfrm;
		/* EXPR_CONCAT, EXPR_LIST, EXPR_SET */
		struct {
			struct list_head		expressions;
			unsigned int			size;
			uint32_t			set_flags; /* EXPR_SET */
			uint8_t				field_len[16]; /* bytes */
			uint8_t				field_count;
		};	/* anonymous: e->expressions, e->size (a member named
			 * "list" would clash with the linkage above) */
		/* EXPR_SET_REF */
		struct {
			struct set			*set;
		} set_ref;
		/* EXPR_SET_ELEM */
		struct {
			struct expr			*key;
			uint64_t			timeout;    /* ms */
			uint64_t			expiration; /* ms */
			char				*comment;
			struct list_head		stmts;
		} elem;
		/* EXPR_MAP */
		struct {
			struct expr			*key;
			struct expr			*mappings; /* SET/SET_REF */
		} map;
	};
};

/* Constructors take ownership of their children; each returns one ref. */
struct expr *expr_alloc(const struct location *loc, enum expr_kind kind,
			const struct datatype *dtype, enum byteorder byteorder,
			unsigned int len);
struct expr *expr_get(struct expr *expr);
/* A bare node, uninitialised, and giving one back (expr_free does that
 * for a whole tree): for code that moves node contents around. */
struct expr *expr_node_alloc(void);
void expr_node_release(struct expr *e);
void expr_free(struct expr *expr);
/* Deep copy. */
struct expr *expr_clone(const struct expr *expr);

struct expr *symbol_expr_alloc(const struct location *loc,
			       enum symbol_kind type, const char *text);
/* The same taking over @text (malloc'ed, freed on failure too). */
struct expr *symbol_expr_alloc_own(const struct location *loc,
				   enum symbol_kind type, char *text);
struct expr *variable_expr_alloc(const struct location *loc,
				 const char *name, struct expr *value);
struct expr *constant_expr_alloc(const struct location *loc,
				 const struct datatype *dtype,
				 enum byteorder byteorder, unsigned int len,
				 const struct value *v);
struct expr *constant_expr_u64(const struct location *loc,
			       const struct datatype *dtype,
			       enum byteorder byteorder, unsigned int len,
			       uint64_t n);
/* String constant, zero padded to @len bits (0: strlen * 8). */
struct expr *constant_expr_string(const struct location *loc,
				  const struct datatype *dtype,
				  const char *s, unsigned int len);
struct expr *verdict_expr_alloc(const struct location *loc, int verdict,
				struct expr *chain);
struct expr *prefix_expr_alloc(const struct location *loc, struct expr *expr,
			       unsigned int prefix_len);
struct expr *range_expr_alloc(const struct location *loc, struct expr *low,
			      struct expr *high);
struct expr *payload_expr_alloc(const struct location *loc,
				const struct proto_desc *desc,
				unsigned int field);
struct expr *payload_raw_alloc(const struct location *loc,
			       enum proto_bases base, unsigned int offset,
			       unsigned int len);
struct expr *exthdr_expr_alloc(const struct location *loc,
			       const struct exthdr_desc *desc,
			       unsigned int field, enum nft_exthdr_op op);
struct expr *meta_expr_alloc(const struct location *loc,
			     enum nft_meta_keys key);
struct expr *ct_expr_alloc(const struct location *loc, enum nft_ct_keys key,
			   int direction);
struct expr *rt_expr_alloc(const struct location *loc, enum nft_rt_keys key);
struct expr *socket_expr_alloc(const struct location *loc,
			       enum nft_socket_keys key, uint32_t level);
struct expr *osf_expr_alloc(const struct location *loc, uint8_t ttl,
			    uint32_t flags);
struct expr *fib_expr_alloc(const struct location *loc, uint32_t flags,
			    uint32_t result);
struct expr *numgen_expr_alloc(const struct location *loc,
			       enum nft_ng_types type, uint32_t mod,
			       uint32_t offset);
struct expr *hash_expr_alloc(const struct location *loc, uint32_t mod,
			     bool seed_set, uint32_t seed, uint32_t offset,
			     enum nft_hash_types type);
struct expr *xfrm_expr_alloc(const struct location *loc,
			     enum nft_xfrm_keys key, uint8_t direction,
			     uint8_t spnum);
/* EXPR_CONCAT / EXPR_LIST / EXPR_SET with an empty list. */
struct expr *list_expr_alloc(const struct location *loc, enum expr_kind kind);
void list_expr_add(struct expr *list, struct expr *member);
struct expr *set_ref_expr_alloc(const struct location *loc, struct set *set);
struct expr *set_elem_expr_alloc(const struct location *loc,
				 struct expr *key);
struct expr *mapping_expr_alloc(const struct location *loc,
				struct expr *key, struct expr *data);
struct expr *map_expr_alloc(const struct location *loc, struct expr *key,
			    struct expr *mappings);
struct expr *unary_expr_alloc(const struct location *loc, enum ops op,
			      struct expr *arg);
struct expr *binop_expr_alloc(const struct location *loc, enum ops op,
			      struct expr *left, struct expr *right);
struct expr *relational_expr_alloc(const struct location *loc, enum ops op,
				   struct expr *left, struct expr *right);

static inline bool expr_is_constant(const struct expr *e)
{
	return e->flags & EXPR_F_CONSTANT;
}

/* Name of a kind, for diagnostics ("payload expression"). */
const char *expr_kind_name(enum expr_kind kind);

#endif
