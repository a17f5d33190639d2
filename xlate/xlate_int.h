/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef XLATE_XLATE_INT_H
#define XLATE_XLATE_INT_H

/* Internal to libxlate: shared by the reader, the rule parser, the
 * libxtables glue and the extension mappings. */

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "list.h"
#include "location.h"
#include "erec.h"
#include "expr.h"
#include "stmt.h"
#include "rule.h"
#include "xlate.h"
#include "compat.h"

struct xtables_match;
struct xtables_target;
struct xtables_rule_match;

/*
 * iptables-nft's tables and base chains (hooks, types, priorities) are
 * compat/'s facts: a table's layout is its struct compat_table, a base
 * chain's its struct compat_chain.
 */
/**
 * struct xl_rule_ent - one rule read, with its fate
 * @rule: the IR (NULL when the rule was not translated)
 * @loc: the whole input line
 * @inexact: translated with a warning
 */
struct xl_rule_ent {
	struct list_head	list;
	struct rule		*rule;
	struct location		loc;
	bool			inexact;
};

/**
 * struct xl_chain - a chain of the input
 * @hook: layout of the base chain, NULL for a user chain
 * @policy: NF_ACCEPT/NF_DROP for base chains
 */
struct xl_chain {
	struct list_head	list;
	char			*name;
	uint32_t		hash;		/* of the iptables name */
	const struct compat_chain	*hook;
	int			policy;
	uint64_t		packets;
	uint64_t		bytes;
	struct location		loc;
	struct list_head	rules;
	bool			renamed;	/* an nft keyword: name_ */
	bool			warned;
	bool			streamed;	/* declaration handed over */
	bool			external;	/* the kernel's (--noflush) */
	bool			declared;	/* evaluated (output.c) */
	struct xl_chain_text	*text;		/* printed rules (output.c) */
};

struct xl_table {
	struct list_head		list;
	const struct compat_table	*layout;
	struct list_head		chains;
	struct location			loc;
	bool				streamed;	/* ops->table called */
	bool				stream_skip;	/* ... said skip it */
	bool				declared;	/* evaluated (output.c) */
};

/**
 * struct xl_set_decl - a named set a translation needs (recent,
 * hashlimit meters, connlimit, ipset references)
 */
struct xl_set_decl {
	struct list_head	list;
	struct set		*set;
	const char		*table;
	bool			streamed;
	bool			declared;	/* evaluated (output.c) */
};

/**
 * struct xl_recent_hint - a recent list's element timeout, the longest
 * --seconds of the rules of the table using it, known from the
 * pre-pass over the table (reader.c) before its first rule is
 * translated, so that a streamed set declaration has it too.
 */
struct xl_recent_hint {
	struct list_head	list;
	const char		*table;
	char			name[256];	/* the set's */
	uint64_t		timeout;	/* ms */
};

/*
 * When iptables-restore reports an error: at once, as a parameter
 * problem (a rule's options, a table name: exit status 2), at once as
 * another problem (the file's structure: 1), or only at the table's
 * COMMIT (appending to a chain that does not exist: 1), after the
 * lines before that COMMIT were read.
 */
enum xl_err_kind {
	XL_ERR_LINE,
	XL_ERR_PARAM,
	XL_ERR_AT_COMMIT,
};

struct xlate_ctx {
	uint8_t			family;
	unsigned int		flags;
	struct erec_queue	erq;
	struct input_desc	*inputs;
	struct list_head	tables;
	struct list_head	sets;		/* struct xl_set_decl */
	struct list_head	recent_hints;	/* struct xl_recent_hint */
	struct xlate_stats	stats;
	unsigned int		set_seq;	/* connlimit%u names */
	bool			cmd_mode;	/* one command: chains jumped
						 * to exist elsewhere */
	bool			cmd_insert;	/* that command is -I */
	struct list_head	plain;		/* struct xl_plain_cmd */
	struct list_head	ipsets;		/* ipset.c: --ipsets */
	/* the exit status iptables-restore would give (reader.c) */
	enum xl_err_kind	err_kind;	/* of the line being read */
	bool			err_deferred;	/* one found at COMMIT */
	bool			status_known;	/* stats.param_problem is */
	/* chains the input does not declare but the kernel holds */
	xlate_chain_known_fn	chain_known;
	void			*chain_known_priv;
	/* shim_api.c: rules handed over as they are read */
	const struct xlate_cmd_ops *stream;
	void			*stream_priv;
	int			stream_err;
	/* reader.c: the input of xlate_read_save_mapped(), not owned */
	const char		*mapped;
	/* output.c: XLATE_F_STREAM's evaluator and printed text */
	struct xl_out		*out;
	/* memo.c: XLATE_F_MEMO's translations of rules seen before */
	struct xl_memo		*memo;
};

/**
 * struct xl_plain_cmd - a command that is not a rule (-F, -N, -X)
 * @verb: nft's "flush chain", "add chain", ...; @chain NULL for all
 */
struct xl_plain_cmd {
	struct list_head	list;
	const char		*verb;
	const char		*table;
	char			*chain;
};

struct xl_chain *xl_chain_add(struct xl_table *t, const char *name,
			      const struct location *loc);
/* By iptables name (also finds a chain renamed for being a keyword). */
struct xl_chain *xl_chain_find(struct xl_table *t, const char *name);

/**
 * struct xl_setref - "-m set" / "-j SET" as parsed by ipset.c
 * @src: per dimension, src (true) or dst
 * @given: --match-set/--add-set/--del-set was seen
 */
struct xl_setref {
	char			name[32];
	bool			src[3];
	unsigned int		ndir;
	enum {
		XL_SETREF_MATCH,
		XL_SETREF_ADD,
		XL_SETREF_DEL,
	}			op;
	bool			inv;
	bool			exist;
	bool			given;
	uint32_t		timeout;	/* s */
};

/**
 * struct xl_ext - one extension instance of the rule being parsed
 * @match/@target: the libxtables object (its ->m / ->t holds the data)
 * @loc: "-m NAME" / "-j NAME" and the options given to it
 */
struct xl_ext {
	struct list_head	list;
	struct xtables_match	*match;
	struct xtables_target	*target;
	const char		*name;
	struct location		loc;
	struct xl_setref	*setref;	/* set match / SET target */
};

/**
 * struct xl_rule - a rule being translated
 * @ctx: the translation
 * @table/@chain: where it goes
 * @rule: the IR built so far
 * @proto: -p protocol (0 none), @proto_inv "! -p"
 * @loc: location of the part being mapped (diagnostics)
 * @inexact: something could not be translated exactly
 * @failed: an error was reported: the rule is dropped
 * @proto_needed: the mapping's tests hold on other protocols too
 *	("tcp option N missing", "sctp chunk T missing"): -p stays
 */
struct xl_rule {
	struct xlate_ctx	*ctx;
	struct xl_table		*table;
	struct xl_chain		*chain;
	struct rule		*rule;
	uint16_t		proto;
	bool			proto_inv;
	struct location		loc;
	bool			inexact;
	bool			failed;
	bool			proto_needed;
	char			*comment;
	unsigned int		ext_size;	/* of the extension mapped */
	/* memo.c: asks whether every extension is one memo_ok() knows
	 * has no effect beyond the rule's text (xl_parse_rule() says) */
	bool			memo_want;
	bool			memo_ok;
};

/* xtables.c: libxtables glue; every call is guarded against exit. */
int xl_xt_init(uint8_t family, char *err, size_t len);
struct xl_xt_rule;
struct xl_xt_rule *xl_xt_rule_alloc(void);
void xl_xt_rule_free(struct xl_xt_rule *xr);
/* What xl_xt_rule_free() keeps for the next rule (xlate_ctx_free()). */
void xl_xt_spares_free(void);
/* Load match @name into @xr; NULL + *err on failure. */
struct xl_ext *xl_xt_match(struct xl_xt_rule *xr, const char *name,
			   char *err, size_t len);
/* Load target @name; NULL with err[0] == 0 when there is none. */
struct xl_ext *xl_xt_target(struct xl_xt_rule *xr, const char *name,
			    char *err, size_t len);
/* The loaded extensions, in load order (target included). */
struct list_head *xl_xt_exts(struct xl_xt_rule *xr);
/*
 * Find long option @name ("dport", no dashes) of @ext: exact match
 * first, unique prefix then. Returns 1 when found, filling @id and
 * @has_arg, 0 if not, -1 if ambiguous.
 */
int xl_xt_find_option(const struct xl_ext *ext, const char *name,
		      bool prefix, unsigned int *id, int *has_arg);
/* Parse one option: argv NULL terminated, *optind after its argument. */
int xl_xt_parse(struct xl_ext *ext, unsigned int id, char **argv,
		int *optind, char *optarg, bool invert, void *fw, char *err,
		size_t len);
/* xl_xt_parse() with libxtables alone, without the fast paths (tests). */
int xl_xt_parse_lib(struct xl_ext *ext, unsigned int id, char **argv,
		    int *optind, char *optarg, bool invert, void *fw,
		    char *err, size_t len);
/*
 * xtports.c: tcp/udp port options parsed as libxtables would; 1 when
 * done, 0 when libxtables must parse it (anything unusual, errors).
 */
int xl_xtports_parse(struct xl_ext *ext, unsigned int id, const char *arg,
		     bool invert);
/* xticmp.c: --icmp-type N the same way (1 taken, 0 for libxtables). */
int xl_xticmp_parse(struct xl_ext *ext, unsigned int id, const char *arg,
		    bool invert);
/*
 * xtports.c: tcp --tcp-flags MASK COMP the same way; COMP is
 * argv[*optind], which it steps over when taken.
 */
int xl_xttcpflags_parse(struct xl_ext *ext, unsigned int id, const char *arg,
			bool invert, char **argv, int *optind);
/* xtmport.c: multiport port lists, @fw the rule's xl_xt_entry() (idem). */
int xl_xtmport_parse(struct xl_ext *ext, unsigned int id, const char *arg,
		     bool invert, const void *fw);
/* The rule's ipt_entry/ip6t_entry as extensions see it (thread-local). */
void *xl_xt_entry(uint8_t family, uint16_t proto, bool inv);
/* Final checks (mandatory options, combinations). */
int xl_xt_final(struct xl_ext *ext, char *err, size_t len);
/* Data, size and revision of the parsed kernel structure. */
const void *xl_ext_data(const struct xl_ext *ext);
unsigned int xl_ext_size(const struct xl_ext *ext);
unsigned int xl_ext_rev(const struct xl_ext *ext);
const char *xl_ext_name(const struct xl_ext *ext);
/* map.c: @ext goes as it is, an xtables expression (XLATE_F_XT)? */
bool xl_ext_as_xt(const struct xl_rule *r, const struct xl_ext *ext);

/* map.c: the table of extension mappings. */
int xl_map_ext(struct xl_rule *r, const struct xl_ext *ext);
/* map.c: what the pre-pass over a table notes of @ext (no IR). */
void xl_scan_ext(struct xl_rule *r, const struct xl_ext *ext);

/* ir.c: IR construction helpers (all take ownership of arguments). */
struct expr *xl_sym(const struct location *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct expr *xl_qsym(const struct location *loc, const char *text);
struct expr *xl_payload(const struct location *loc,
			const struct proto_desc *desc, const char *field);
struct expr *xl_exthdr(const struct location *loc, const char *hdr,
		       const char *field);
struct expr *xl_meta(const struct location *loc, enum nft_meta_keys key);
struct expr *xl_ct(const struct location *loc, enum nft_ct_keys key,
		   int dir);
struct expr *xl_range(const struct location *loc, uint64_t lo, uint64_t hi,
		      const char *fmt);
/*
 * @v for field @lhs: the constant the evaluator would make of its text
 * when the field's type takes numbers as they are (ports, protocols,
 * ICMP types, marks), its text otherwise.
 */
struct expr *xl_value(const struct location *loc, const struct expr *lhs,
		      uint64_t v);
/* The same constant, or NULL where xl_value() falls back to text. */
struct expr *xl_typed(const struct location *loc, const struct expr *lhs,
		      uint64_t v);
struct expr *xl_binop(const struct location *loc, enum ops op,
		      struct expr *l, struct expr *r);
void xl_add_stmt(struct xl_rule *r, struct stmt *stmt);
void xl_match(struct xl_rule *r, struct expr *lhs, enum ops op,
	      struct expr *rhs);
/* "lhs [!=] value" (inv selects OP_NEQ). */
void xl_match_inv(struct xl_rule *r, struct expr *lhs, bool inv,
		  struct expr *rhs);
/* Port/id style range: nothing when lo..hi covers @max unless inverted. */
void xl_match_range(struct xl_rule *r, struct expr *lhs, uint64_t lo,
		    uint64_t hi, bool inv);
/* Addresses: @addr/@mask of @alen bytes on @lhs (ip saddr ...). */
void xl_match_addr(struct xl_rule *r, struct expr *lhs, const void *addr,
		   const void *mask, unsigned int alen, bool inv);
/* mark-like "lhs & mask == value" / "lhs value" */
void xl_match_masked(struct xl_rule *r, struct expr *lhs, uint32_t value,
		     uint32_t mask, bool inv);
struct expr *xl_set_add(struct expr *set, struct expr *key);
int xl_error(struct xl_rule *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void xl_warn(struct xl_rule *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Protocol description for the transport match of the rule's -p. */
const struct proto_desc *xl_l4_desc(uint16_t proto);
/* ip or ip6, by the context's family */
const struct proto_desc *xl_l3_desc(const struct xl_rule *r);

/* map_state.c: a named set of @table the translation needs. */
struct set *xl_set_declare(struct xlate_ctx *ctx, const char *table,
			   const char *name, struct expr *key, uint32_t flags,
			   const struct location *loc);

/* ipset.c: ipset references (libxt_set needs the kernel's sets). */
struct xl_ipset;
struct xl_ipset *xl_ipset_find(struct xlate_ctx *ctx, const char *name);
void xl_ipsets_free(struct xlate_ctx *ctx);
int xl_setref_option(struct xl_rule *r, struct xl_setref *ref,
		     const char *opt, char **argv, unsigned int n, bool inv);
int xl_map_setref(struct xl_rule *r, const struct xl_setref *ref);
/* reader.c: an input buffer (@data taken over) for diagnostics */
struct input_desc *xl_input_add(struct xlate_ctx *ctx, const char *name,
				char *data);

/* rule.c: the command line rule parser. */
struct xl_token {
	char		*text;
	struct location	loc;
};

/*
 * Parse the rule tokens @tok[0..n) (after "-A CHAIN" / "-I CHAIN [N]")
 * into @r->rule. Errors go to the context's queue.
 */
int xl_parse_rule(struct xl_rule *r, struct xl_token *tok, unsigned int n);
/*
 * The same parse, for the pre-pass over a table: no IR, only what the
 * matches note (xl_scan_ext()) of a rule that parses. Diagnostics go
 * to the queue as they would: the caller throws them away.
 */
int xl_scan_rule(struct xl_rule *r, struct xl_token *tok, unsigned int n);

/* output.c */
int xl_output(struct xlate_ctx *ctx, FILE *f);
/*
 * XLATE_F_STREAM: evaluate @rule (taken over; NULL when it was not
 * translated) of @c and print it into @c's text at once, then free it.
 */
void xl_out_rule(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		 struct rule *rule, const struct location *loc, bool insert,
		 bool inexact);
/*
 * The same, with the rule's printed text (not its lead) also written to
 * @cap->f for memo.c: @cap->done says it is all there.
 */
struct xl_memo_cap {
	FILE		*f;
	char		*buf;
	size_t		len;
	bool		done;
};
void xl_out_rule_cap(struct xlate_ctx *ctx, struct xl_table *t,
		     struct xl_chain *c, struct rule *rule,
		     const struct location *loc, bool insert, bool inexact,
		     struct xl_memo_cap *cap);
/*
 * memo.c's probe: @rule (taken over) evaluated and printed into @f as
 * xl_out_rule() prints it, nothing kept or counted; 0 only when the
 * evaluator said nothing.
 */
int xl_out_probe(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		 struct rule *rule, FILE *f);
/*
 * memo.c's hit: the stream a rule of @c is printed to, its lead written
 * and the rule counted as translated, as xl_out_rule() does; NULL when
 * xl_out_rule() would drop the rule.
 */
FILE *xl_out_memo_file(struct xlate_ctx *ctx, struct xl_table *t,
		       struct xl_chain *c, bool insert);
/* The evaluator's diagnostics kept so far (memo.c: did a rule add?). */
unsigned long xl_out_diag_count(const struct xlate_ctx *ctx);

/*
 * memo.c (XLATE_F_MEMO): a rule printed from an earlier rule's text.
 * xl_memo_try(): 1 when the rule was printed so (nothing else to do),
 * 0 when it must be translated; then, if xl_memo_learning(), the
 * translation goes through xl_memo_begin() (before the parse; its
 * capture to xl_out_rule_cap()) and xl_memo_end() (after the output,
 * @ok when it parsed, every extension memo_ok).
 */
int xl_memo_try(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		struct xl_token *tok, unsigned int n, bool insert);
bool xl_memo_learning(const struct xlate_ctx *ctx);
struct xl_memo_cap *xl_memo_begin(struct xlate_ctx *ctx, struct xl_table *t);
void xl_memo_end(struct xlate_ctx *ctx, struct xl_table *t, struct xl_chain *c,
		 const struct location *loc, bool ok);
void xl_memo_free(struct xlate_ctx *ctx);

/* What the streaming output holds of @c (chain_free_xl()). */
void xl_chain_text_free(struct xl_chain *c);
/* xlate_ctx_free(): the streaming output's state. */
void xl_out_free(struct xlate_ctx *ctx);

/*
 * reader.c: @name in @t as a chain the kernel holds (chain_known), or
 * NULL: what a --noflush restore may append to or jump to undeclared.
 */
struct xl_chain *xl_chain_external(struct xlate_ctx *ctx, struct xl_table *t,
				   const char *name,
				   const struct location *loc);

/* shim_api.c: streaming (xlate_stream()); the rule is taken over. */
int xl_stream_rule(struct xlate_ctx *ctx, struct xl_table *t,
		   struct xl_chain *c, struct rule *r,
		   const struct location *loc, bool insert);
void xl_stream_table(struct xlate_ctx *ctx, struct xl_table *t);
/*
 * The rule's words to the stream's fast callback: 1 when it took the
 * rule (or the stream drops it anyway), 0 to parse it.
 */
int xl_stream_fast(struct xlate_ctx *ctx, struct xl_table *t,
		   struct xl_chain *c, const struct xl_token *tok,
		   unsigned int n, const struct location *loc, bool insert);

#endif
