/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_STMT_H
#define NFTC_STMT_H

#include <stdbool.h>
#include <stdint.h>
#include "expr.h"

/**
 * enum stmt_kind - statements of a rule
 */
enum stmt_kind {
	STMT_INVALID,
	STMT_EXPRESSION,	/* a match: relational expr */
	STMT_VERDICT,		/* verdict or vmap */
	STMT_COUNTER,
	STMT_LOG,
	STMT_LIMIT,
	STMT_QUOTA,
	STMT_REJECT,
	STMT_NAT,		/* snat, dnat, masquerade, redirect */
	STMT_TPROXY,
	STMT_QUEUE,
	STMT_DUP,
	STMT_FWD,
	STMT_META,		/* meta KEY set EXPR */
	STMT_CT,		/* ct KEY set EXPR */
	STMT_PAYLOAD,		/* PAYLOAD set EXPR */
	STMT_EXTHDR,		/* tcp option ... set / reset */
	STMT_NOTRACK,
	STMT_SET,		/* add/update/delete @set { key } */
	STMT_MAP,		/* add/update @map { key : data } */
	STMT_OBJREF,		/* counter name X, ... map */
	STMT_CONNLIMIT,
	STMT_SYNPROXY,
	STMT_FLOW_OFFLOAD,
	STMT_LAST,
	STMT_OPTSTRIP,		/* tcp option X reset */
	STMT_CHAIN,		/* anonymous chain (jump { ... }) */
	STMT_XT,		/* an xtables extension, kept whole */
	__STMT_MAX
};

enum nat_kind {
	NAT_SNAT = NFT_NAT_SNAT,
	NAT_DNAT = NFT_NAT_DNAT,
	NAT_MASQ,
	NAT_REDIR,
};

/**
 * struct stmt - one statement of a rule
 * @list: linkage in rule->stmts
 * @location: source span
 * @kind: enum stmt_kind
 */
struct stmt {
	struct list_head		list;
	struct location			location;
	enum stmt_kind			kind;
	union {
		/* STMT_EXPRESSION, STMT_VERDICT */
		struct expr			*expr;
		struct {
			uint64_t		packets;
			uint64_t		bytes;
		} counter;
		struct {
			char			*prefix;
			uint32_t		group;
			uint32_t		snaplen;
			uint16_t		qthreshold;
			uint32_t		level;
			uint32_t		logflags;
			uint32_t		flags;	/* STMT_LOG_* set */
		} log;
		struct {
			uint64_t		rate;
			uint64_t		unit;	/* seconds */
			uint32_t		burst;
			enum nft_limit_type	type;
			uint32_t		flags;	/* NFT_LIMIT_F_INV */
		} limit;
		struct {
			uint64_t		bytes;
			uint64_t		used;
			uint32_t		flags;	/* NFT_QUOTA_F_* */
		} quota;
		struct {
			enum nft_reject_types	type;
			int			icmp_code; /* -1 default */
			struct expr		*expr;	   /* symbolic code */
			uint8_t			family;
		} reject;
		struct {
			enum nat_kind		kind;
			struct expr		*addr;
			struct expr		*proto;
			uint32_t		flags;	/* NF_NAT_RANGE_* */
			uint8_t			family;
			uint32_t		type_flags; /* ip/ip6 prefix, ... */
		} nat;
		struct {
			struct expr		*addr;
			struct expr		*port;
			uint8_t			family;
		} tproxy;
		struct {
			struct expr		*queue;
			uint16_t		flags;	/* NFT_QUEUE_FLAG_* */
		} queue;
		struct {
			struct expr		*to;
			struct expr		*dev;
		} dup;
		struct {
			struct expr		*dev;
			struct expr		*addr;
			uint8_t			family;
		} fwd;
		struct {
			enum nft_meta_keys	key;
			struct expr		*expr;
		} meta;
		struct {
			enum nft_ct_keys	key;
			int8_t			direction;
			struct expr		*expr;
		} ct;
		/* STMT_PAYLOAD, STMT_EXTHDR */
		struct {
			struct expr		*lhs;
			struct expr		*val;
		} payload;
		/* STMT_SET, STMT_MAP */
		struct {
			struct expr		*set;	/* EXPR_SET_REF */
			struct expr		*key;
			struct expr		*data;	/* STMT_MAP */
			enum nft_dynset_ops	op;
			struct list_head	stmts;	/* per-element */
		} set;
		struct {
			uint32_t		type;	/* NFT_OBJECT_* */
			struct expr		*expr;	/* name or map */
		} objref;
		struct {
			uint32_t		count;
			uint32_t		flags;
		} connlimit;
		struct {
			uint16_t		mss;
			uint8_t			wscale;
			uint32_t		flags;
		} synproxy;
		struct {
			char			*table_name;
		} flow;
		struct {
			uint64_t		used;
			uint32_t		set;
		} last;
		struct {
			struct expr		*expr;	/* EXPR_EXTHDR */
		} optstrip;
		struct {
			struct chain		*chain;
			struct expr		*verdict;
		} chain;
		/*
		 * STMT_XT: a match or target of iptables' as libxtables
		 * parsed it (kernel name, revision, structure), for the
		 * iptables drop-ins, which write it as iptables-nft does
		 */
		struct {
			char			*name;
			uint32_t		rev;
			bool			target;
			void			*info;
			uint32_t		len;
		} xt;
	};
};

/*
 * stmt->nat.type_flags: how the address/port expression is laid out.
 * The parser sets PREFIX ("prefix to") and CONCAT ("addr . port to");
 * the evaluator adds INTERVAL (map data are ranges) and CONCAT (map data
 * are addr . port).
 */
enum stmt_nat_type_flags {
	STMT_NAT_F_PREFIX	= (1 << 0),
	STMT_NAT_F_CONCAT	= (1 << 1),
	STMT_NAT_F_INTERVAL	= (1 << 2),
};

enum stmt_log_flags {
	STMT_LOG_PREFIX		= (1 << 0),
	STMT_LOG_SNAPLEN	= (1 << 1),
	STMT_LOG_GROUP		= (1 << 2),
	STMT_LOG_QTHRESHOLD	= (1 << 3),
	STMT_LOG_LEVEL		= (1 << 4),
};

struct stmt *stmt_alloc(const struct location *loc, enum stmt_kind kind);
struct stmt *expr_stmt_alloc(const struct location *loc, struct expr *expr);
struct stmt *verdict_stmt_alloc(const struct location *loc,
				struct expr *expr);
/* STMT_XT with copies of @name and @info (@len bytes); NULL on ENOMEM. */
struct stmt *xt_stmt_alloc(const struct location *loc, const char *name,
			   uint32_t rev, bool target, const void *info,
			   uint32_t len);
void stmt_free(struct stmt *stmt);
/* Deep copy (set element statements, cloned definitions). */
struct stmt *stmt_clone(const struct stmt *stmt);
void stmt_list_free(struct list_head *stmts);

const char *stmt_kind_name(enum stmt_kind kind);

#endif
