/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef COMPAT_COMPAT_H
#define COMPAT_COMPAT_H

/*
 * libcompat: the conventions iptables-nft 1.8.9 follows when it lays
 * iptables' tables out in nf_tables, so that nftkit's drop-ins and
 * stock iptables-nft can share a host, and the reverse map from
 * decompiled rules (nftc IR) to iptables-save text.
 *
 * Facts are const tables: one row per table, per base chain, per
 * match the reverse map knows.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rule;
struct chain;

#define COMPAT_CHAINS_MAX	5

/**
 * struct compat_chain - a base chain of a standard table
 * @name: iptables name ("INPUT"); @hook: NF_INET_* hook number
 * @hook_name: nft hook name; @type: nft chain type; @prio: priority
 */
struct compat_chain {
	const char	*name;
	unsigned int	hook;
	const char	*hook_name;
	const char	*type;
	int		prio;
};

/**
 * struct compat_table - a standard iptables table in one family
 * @name: "filter", "nat", ...
 * @chains: base chains, in the order iptables-nft-save prints them
 * @nchains: rows used in @chains
 * @save_rank: position of the table in iptables-nft-save output
 */
struct compat_table {
	const char		*name;
	struct compat_chain	chains[COMPAT_CHAINS_MAX];
	unsigned int		nchains;
	unsigned int		save_rank;
};

/* Standard tables of @family (NFPROTO_IPV4/IPV6); *n set. NULL if none. */
const struct compat_table *compat_tables(uint8_t family, unsigned int *n);
const struct compat_table *compat_table_find(uint8_t family,
					     const char *name);
const struct compat_chain *compat_chain_find(const struct compat_table *t,
					     const char *name);
/* The base chain a kernel chain (hook, prio, type) is, or NULL. */
const struct compat_chain *compat_chain_by_hook(const struct compat_table *t,
						unsigned int hook, int prio,
						const char *type);

/**
 * enum compat_comment_store - where a rule's "-m comment" lives
 * @COMPAT_COMMENT_XT: iptables-nft 1.8.9 writes an xt "comment" match
 *                     (struct xt_comment_info) into the rule
 * @COMPAT_COMMENT_UDATA: nft (and nftkit's translation) puts it in the
 *                        rule's userdata, TLV NFTNL_UDATA_RULE_COMMENT;
 *                        iptables-nft-save reads both
 */
enum compat_comment_store {
	COMPAT_COMMENT_XT,
	COMPAT_COMMENT_UDATA,
};

/**
 * struct compat_convention - iptables-nft's in-kernel conventions
 */
struct compat_convention {
	enum compat_comment_store	comment_write;	/* by iptables-nft */
	unsigned int			comment_udata_type;
	unsigned int			comment_max;	/* bytes, with NUL */
	bool				counter_per_rule;
	bool				builtin_chains_on_demand;
};

extern const struct compat_convention compat_iptables_nft;

/* "iptables" / "ip6tables" */
const char *compat_prog_name(uint8_t family);

/**
 * compat_rule_save - a decompiled rule as iptables-save prints it
 * @f: where "-A CHAIN ..." goes (one line, with newline)
 * @family: NFPROTO_IPV4/IPV6
 * @chain: the chain's iptables name
 * @r: the rule (nftc IR from the delinearizer)
 * @counters: "[packets:bytes] " before -A (iptables-save -c)
 *
 * Returns 0, or -EOPNOTSUPP when some statement has no iptables form
 * (the line is then printed with a "# unsupported: ..." note instead).
 */
int compat_rule_save(FILE *f, uint8_t family, const char *chain,
		     const struct rule *r, bool counters);

/**
 * struct compat_xt - an xtables match/target as iptables-nft writes it
 * @target: a target (else a match); @name, @rev: the extension
 * @data, @len: its kernel structure (XT_ALIGNed length, malloc'ed)
 * @at: matches kept natively before it in the rule (its place)
 */
struct compat_xt {
	bool		target;
	unsigned int	at;
	char		name[29];
	uint8_t		rev;
	uint32_t	len;
	void		*data;
};

struct compat_xt_list {
	struct compat_xt	*v;
	unsigned int		n;
};

/**
 * enum compat_xt_flags - what the IR does not tell
 * @COMPAT_XT_CONNTRACK: the rule said "-m conntrack --ctstate", not
 *                       "-m state" (both are "ct state" in the IR; the
 *                       xt form differs in the state alias flag)
 * @COMPAT_XT_MP_SPORTS/@COMPAT_XT_MP_DPORTS: "-m multiport --sports /
 *                       --dports" with one port: the IR holds a plain
 *                       port match
 */
enum compat_xt_flags {
	COMPAT_XT_CONNTRACK	= (1 << 0),
	COMPAT_XT_MP_SPORTS	= (1 << 1),
	COMPAT_XT_MP_DPORTS	= (1 << 2),
};

/*
 * Take the statements of evaluated rule @r that iptables-nft writes as
 * xt-compat expressions (state, multiport, addrtype, owner, icmp, LOG,
 * REJECT, MASQUERADE, MARK) out of @r and append their xtables form to
 * @out, in rule order. Returns 0 or -ENOMEM.
 */
int compat_xt_fallback(uint8_t family, struct rule *r, unsigned int flags,
		       struct compat_xt_list *out);
void compat_xt_list_free(struct compat_xt_list *l);
/* Put @l's expressions into linearized rule @r; 0 or -ENOMEM. */
struct nftnl_rule;
int compat_xt_apply(uint8_t family, struct nftnl_rule *r,
		    const struct compat_xt_list *l);
/*
 * xtraw.c: the same on netlink attributes: rule message @src written
 * into @dst (header and nfgenmsg there, @room bytes from @dst on) with
 * @l's expressions. 0, -ENOMEM or -EMSGSIZE.
 */
struct nlmsghdr;
int compat_xt_write(uint8_t family, const struct nlmsghdr *src,
		    struct nlmsghdr *dst, size_t room,
		    const struct compat_xt_list *l);

/* A marker the xt hook puts before iptables text in an xt statement. */
#define COMPAT_XT_MARK	"\001ipt:"

/*
 * text.c: short texts printed through stdio, into a stack buffer first
 * (see there). compat_text_open() gives a stream into @small (@cap
 * bytes), or with @big a memstream; compat_text_close() puts the text
 * (malloc'ed) in *@text and returns 0, 1 when @small was too small (do
 * it again with @big), or -1 (ENOMEM).
 */
struct compat_text {
	FILE	*f;
	char	*small;
	size_t	cap;
	bool	big;
	char	*buf;
	size_t	len;
	char	iobuf[512];	/* stdio's buffer for @small */
	bool	slot;		/* a slot's stream (not closed) */
	void	*sl;		/* ... and its buffer (text.c) */
};
FILE *compat_text_open(struct compat_text *t, char *small, size_t cap,
		       bool big);
/*
 * The same with a stream of its own per @slot, opened once per thread
 * and reused: texts being printed at the same time need other slots.
 */
enum compat_text_slot {
	COMPAT_SLOT_TEXT,	/* compat_print_text() */
	COMPAT_SLOT_MATCHES,	/* the reverse map's match text */
	COMPAT_SLOT_TARGET,	/* ... and target text */
	COMPAT_SLOT_XT,		/* an extension's save() output */
	__COMPAT_SLOT_MAX
};
FILE *compat_text_open_slot(struct compat_text *t, unsigned int slot,
			    bool big);
int compat_text_close(struct compat_text *t, char **text);

struct output_ctx;
struct stmt;
struct expr;
typedef void (*compat_print_fn)(struct output_ctx *octx, const void *obj);
/* @fn's output for @obj with a copy of @tmpl as its context; or NULL. */
char *compat_print_text(const struct output_ctx *tmpl, compat_print_fn fn,
			const void *obj);
/* nft's text of a statement / expression with output flags @flags. */
char *compat_stmt_text(uint8_t family, const struct stmt *s,
		       unsigned int flags);
char *compat_expr_text(const struct expr *e, unsigned int flags);

#endif
