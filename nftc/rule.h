/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_RULE_H
#define NFTC_RULE_H

#include <stdint.h>
#include <stdbool.h>
#include "list.h"
#include "location.h"
#include "expr.h"
#include "stmt.h"

/**
 * struct name_ref - a name written in the source, with where it was
 */
struct name_ref {
	char			*name;
	struct location		location;
};

/**
 * struct id_ref - a number written in the source (handle, position, index)
 * @id: the number; @present: it was given
 */
struct id_ref {
	uint64_t		id;
	bool			present;
	struct location		location;
};

/**
 * struct handle - how a command names its object
 * @family: NFPROTO_* (ip when omitted, as in nft)
 */
struct handle {
	uint32_t		family;
	struct name_ref		table;
	struct name_ref		chain;
	struct name_ref		set;
	struct name_ref		obj;
	struct name_ref		flowtable;
	struct id_ref		handle;
	struct id_ref		position;	/* add/insert "position N" */
	struct id_ref		index;		/* add/insert "index N" */
	uint32_t		set_id;		/* batch-local set id */
	uint32_t		chain_id;	/* batch-local chain id */
	uint32_t		rule_id;	/* NFTA_RULE_ID (not merged) */
	uint32_t		position_id;	/* NFTA_RULE_POSITION_ID */
};

void handle_free(struct handle *h);
/* Copy names of @src missing from @dst (dst inherits table/family). */
void handle_merge(struct handle *dst, const struct handle *src);

/**
 * struct table - table and the objects declared in it (block syntax)
 */
struct table {
	struct list_head	list;
	struct handle		handle;
	struct location		location;
	struct list_head	chains;
	struct list_head	sets;
	struct list_head	objs;
	struct list_head	flowtables;
	/* a kernel dump's anonymous chains (NFT_CHAIN_BINDING) */
	struct list_head	bound;
	uint32_t		flags;		/* NFT_TABLE_F_* */
	char			*comment;
	unsigned int		refcnt;
};

/**
 * struct rule_slot - a rule of a chain as the evaluator's rule cache sees it
 * @handle: its kernel handle (0: a rule this batch adds)
 * @h: for a rule of this batch, its handle (where a rule id goes when a
 *     later rule is placed next to it), else NULL
 */
struct rule_slot {
	uint64_t		handle;
	struct handle		*h;
};

/**
 * struct chain - a chain; a base chain when @hook is set
 * @type: "filter", "nat", "route" (base chains)
 * @hook_name: as written; @hooknum: resolved NF_INET_* / NF_NETDEV_*
 * @priority: the priority expression as written (number or name +/- N)
 * @prio: evaluated priority
 * @policy: policy verdict expression (base chains)
 * @devices: device name expressions (netdev ingress/egress)
 * @slots: cache chains only, when the rule cache is on (rule "index N",
 *         "position N"): the chain's rules in order, @nslots of them
 * @bound_rule, @bound_stmt: an anonymous chain (flags NFT_CHAIN_BINDING)
 *         after evaluation: whose anonymous sets go before it
 */
struct chain {
	struct list_head	list;
	struct handle		handle;
	struct location		location;
	uint32_t		flags;
	bool			is_base;
	struct name_ref		type;
	struct name_ref		hook_name;
	unsigned int		hooknum;
	struct expr		*priority;
	int			prio;
	struct expr		*policy;
	struct expr		*devices;	/* EXPR_LIST or NULL */
	struct list_head	rules;
	char			*comment;
	/* a base chain's counters, to set (iptables-restore -c) */
	bool			has_counters;
	uint64_t		packets;
	uint64_t		bytes;
	unsigned int		refcnt;
	struct rule_slot	*slots;
	unsigned int		nslots;
	unsigned int		slots_cap;
	/* an anonymous chain: the rule and statement binding it (not owned) */
	const struct rule	*bound_rule;
	const struct stmt	*bound_stmt;
};

/* A kernel rule of cache chain @c, in order (eval_rule_cache.c). */
int rule_cache_append(struct chain *c, uint64_t handle);

/**
 * struct rule - a rule: statements in order
 */
struct rule {
	struct list_head	list;
	struct handle		handle;
	struct location		location;
	struct list_head	stmts;
	unsigned int		num_stmts;
	char			*comment;
};

struct elem_pack;

/**
 * struct set - named or anonymous set, map or verdict map
 * @flags: SET_F_*
 * @key: key type expression: a typed EXPR_VALUE placeholder for
 *       "type T" or the expression of "typeof EXPR" (after evaluation its
 *       dtype/len describe the key)
 * @data: for maps, the data type in the same form
 * @objtype: object maps (NFT_OBJECT_*)
 * @timeout: default element timeout (ms); @gc_int: gc interval (ms)
 * @size: max elements, 0 for unlimited
 * @policy: NFT_SET_POL_*
 * @init: EXPR_SET of initial elements (or NULL)
 * @stmts: statements attached to each element (counter, ...)
 * @key_typeof: @key came from "typeof" (kept for userdata)
 */
struct set {
	struct list_head	list;
	struct handle		handle;
	struct location		location;
	unsigned int		refcnt;
	uint32_t		flags;
	struct expr		*key;
	struct expr		*data;
	uint32_t		objtype;
	uint64_t		timeout;
	uint32_t		gc_int;
	uint32_t		size;
	uint32_t		policy;
	bool			automerge;
	bool			key_typeof;
	bool			data_typeof;
	struct expr		*init;
	struct elem_pack	*pack;	/* elements after init's (elem_pack.h) */
	struct delin_pack	*dpack;	/* listing (delin_pack.h) */
	struct list_head	stmts;
	char			*comment;
};

static inline bool set_is_anonymous(const struct set *set)
{
	return set->flags & SET_F_ANONYMOUS;
}

/* A map with data (not an object map: list.c asks that separately). */
static inline bool set_is_map(const struct set *set)
{
	return set->flags & SET_F_MAP;
}

/**
 * struct obj - stateful named object (counter, quota, limit, ct helper...)
 */
struct obj {
	struct list_head	list;
	struct handle		handle;
	struct location		location;
	uint32_t		type;		/* NFT_OBJECT_* */
	char			*comment;
	unsigned int		refcnt;
	union {
		struct {
			uint64_t	packets;
			uint64_t	bytes;
		} counter;
		struct {
			uint64_t	bytes;
			uint64_t	used;
			uint32_t	flags;
		} quota;
		struct {
			uint64_t	rate;
			uint64_t	unit;
			uint32_t	burst;
			uint32_t	type;
			uint32_t	flags;
		} limit;
		struct {
			char		name[16];
			uint16_t	l3proto;
			uint8_t		l4proto;
		} ct_helper;
		struct {
			uint32_t	mss;
			uint32_t	wscale;
			uint32_t	flags;
		} synproxy;
		struct {
			char		ctx[256];
		} secmark;
	};
};

/**
 * struct flowtable - flowtable declaration
 */
struct flowtable {
	struct list_head	list;
	struct handle		handle;
	struct location		location;
	struct name_ref		hook_name;
	unsigned int		hooknum;
	struct expr		*priority;
	int			prio;
	struct expr		*devices;
	uint32_t		flags;
	unsigned int		refcnt;
};

struct table *table_alloc(void);
void table_free(struct table *table);
struct chain *chain_alloc(void);
void chain_free(struct chain *chain);
struct rule *rule_alloc(const struct location *loc,
			const struct handle *h);
void rule_free(struct rule *rule);
struct set *set_alloc(const struct location *loc);
struct set *set_get(struct set *set);
void set_free(struct set *set);
struct obj *obj_alloc(const struct location *loc);
void obj_free(struct obj *obj);
struct flowtable *flowtable_alloc(const struct location *loc);
void flowtable_free(struct flowtable *ft);

/**
 * enum cmd_ops - what a command does
 */
enum cmd_ops {
	CMD_INVALID,
	CMD_ADD,
	CMD_REPLACE,
	CMD_CREATE,
	CMD_INSERT,
	CMD_DELETE,
	CMD_DESTROY,
	CMD_GET,
	CMD_LIST,
	CMD_RESET,
	CMD_FLUSH,
	CMD_RENAME,
	CMD_DESCRIBE,
	__CMD_MAX
};

/**
 * enum cmd_obj - what a command acts on
 */
enum cmd_obj {
	CMD_OBJ_INVALID,
	CMD_OBJ_TABLE,
	CMD_OBJ_CHAIN,
	CMD_OBJ_RULE,
	CMD_OBJ_SET,
	CMD_OBJ_MAP,
	CMD_OBJ_ELEMENTS,
	CMD_OBJ_RULESET,
	CMD_OBJ_TABLES,
	CMD_OBJ_CHAINS,
	CMD_OBJ_SETS,
	CMD_OBJ_MAPS,
	CMD_OBJ_COUNTER,
	CMD_OBJ_COUNTERS,
	CMD_OBJ_QUOTA,
	CMD_OBJ_QUOTAS,
	CMD_OBJ_LIMIT,
	CMD_OBJ_LIMITS,
	CMD_OBJ_CT_HELPER,
	CMD_OBJ_SYNPROXY,
	CMD_OBJ_SECMARK,
	CMD_OBJ_FLOWTABLE,
	CMD_OBJ_FLOWTABLES,
	CMD_OBJ_EXPR,		/* describe */
	__CMD_OBJ_MAX
};

/**
 * struct cmd - one command of a file or command line
 * @handle: the object named (family, table, chain, ...)
 * @data: the object built by the parser, by @obj:
 *        TABLE: struct table (with nested chains/sets/objs in block form),
 *        CHAIN: struct chain, RULE: struct rule, SET/MAP: struct set,
 *        ELEMENTS: struct expr (EXPR_SET), counters etc.: struct obj,
 *        FLOWTABLE: struct flowtable, EXPR: struct expr
 * @arg: rename's new name
 */
struct cmd {
	struct list_head	list;
	struct location		location;
	enum cmd_ops		op;
	enum cmd_obj		obj;
	struct handle		handle;
	union {
		void			*data;
		struct table		*table;
		struct chain		*chain;
		struct rule		*rule;
		struct set		*set;
		struct obj		*object;
		struct flowtable	*flowtable;
		struct expr		*expr;
	};
	struct elem_pack	*pack;	/* elements after expr's (elem_pack.h) */
	char			*arg;
};

struct cmd *cmd_alloc(enum cmd_ops op, enum cmd_obj obj,
		      const struct handle *h, const struct location *loc,
		      void *data);
void cmd_free(struct cmd *cmd);
void cmd_list_free(struct list_head *cmds);

#endif
