/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef XLATE_XLATE_H
#define XLATE_XLATE_H

/*
 * libxlate: iptables syntax -> nftc IR.
 *
 * An xlate context reads iptables-save / ip6tables-save text (or single
 * iptables command lines), parses every extension's options with
 * libxtables, maps the parsed kernel structures to the nft IR (one table
 * entry per extension), lays tables and chains out as iptables-nft does,
 * evaluates the IR with nftc and prints it with nftc's printer. It never
 * writes nft text for a rule by itself.
 *
 * Diagnostics are queued in xlate_errors() with locations in the input
 * (line, and the column of the option that caused them); the library
 * never prints them and never exits.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "erec.h"

struct xlate_ctx;

/**
 * enum xlate_flags - how to translate and print
 * @XLATE_F_COMMANDS: print "add table/chain/rule" commands instead of a
 *                    "table { chain { } }" ruleset
 * @XLATE_F_COUNTERS: keep the packet/byte counters of the input
 * @XLATE_F_NO_COUNTER: no "counter" statement (iptables-nft adds one to
 *                      every rule, so by default we do too)
 * @XLATE_F_XT: what iptables-nft writes as xtables expressions (every
 *              match but tcp, udp, mark and limit; every target but
 *              TRACE) is kept whole as STMT_XT, as libxtables parsed it:
 *              for the iptables drop-ins, not for nft text
 * @XLATE_F_SYSTEM_IFACES: devices the output names (TEE --oif: "dup to
 *              ... device NAME") are looked up in the running network
 *              namespace, as nft does when it loads the rule; without
 *              it only "lo" is known (deterministic, for tests)
 * @XLATE_F_STREAM: xlate_read_save() evaluates, prints (into per-chain
 *              text) and frees each rule as it is read, so memory holds
 *              the output text, not the whole file's IR; xlate_print()
 *              then writes the ruleset out. The output is the same;
 *              xlate_sources() sees only chains then (no rules).
 * @XLATE_F_MEMO: with XLATE_F_STREAM, a rule that differs from one seen
 *              before only by values its text was proven to print as
 *              they are is printed from that text (xlate/memo.c); the
 *              output is the same
 */
enum xlate_flags {
	XLATE_F_COMMANDS	= (1 << 0),
	XLATE_F_COUNTERS	= (1 << 1),
	XLATE_F_NO_COUNTER	= (1 << 2),
	XLATE_F_XT		= (1 << 3),
	XLATE_F_SYSTEM_IFACES	= (1 << 4),
	XLATE_F_STREAM		= (1 << 5),
	XLATE_F_MEMO		= (1 << 6),
};

/**
 * struct xlate_stats - what a translation did
 * @rules: rules read
 * @translated: rules translated exactly (natively)
 * @inexact: rules translated with a warning (approximation, compat)
 * @failed: rules not translated (errors)
 */
struct xlate_stats {
	unsigned int	rules;
	unsigned int	translated;
	unsigned int	inexact;
	unsigned int	failed;
	/*
	 * The first error was in a rule's options or target: what
	 * iptables reports as a parameter problem (exit status 2).
	 */
	bool		param_problem;
};

/*
 * A context for @family (NFPROTO_IPV4 or NFPROTO_IPV6). libxtables is
 * process-global: one family per process. NULL on failure.
 */
struct xlate_ctx *xlate_ctx_alloc(uint8_t family, unsigned int flags);
void xlate_ctx_free(struct xlate_ctx *ctx);

/*
 * Read iptables-save text @data (@name for diagnostics, data taken
 * over). Bad lines are reported and skipped. Returns 0 when everything
 * was read, -1 when anything was reported as an error.
 */
int xlate_read_save(struct xlate_ctx *ctx, const char *name, char *data);

/*
 * Same, @data being a read-only private mapping of a whole file of
 * @size bytes, NUL-terminated by its last page's padding: not taken
 * over (unmap it after xlate_ctx_free()). The pages already read are
 * handed back to the kernel as reading goes on (MADV_DONTNEED), so the
 * input costs no memory once it is translated; diagnostics that print
 * a line read it again from the file.
 */
int xlate_read_save_mapped(struct xlate_ctx *ctx, const char *name,
			   char *data, size_t size);

/*
 * The sets of `ipset save` output @data (@name for diagnostics, data
 * taken over): rules that reference them (-m set, -j SET) get nft sets
 * with their elements. Returns 0, or -1 when anything was reported.
 */
int xlate_read_ipsets(struct xlate_ctx *ctx, const char *name, char *data);

/*
 * One command ("iptables -t nat -A POSTROUTING ..."), argv[0] being
 * iptables or ip6tables (or the first option). Returns 0 or -1.
 */
int xlate_read_command(struct xlate_ctx *ctx, int argc, char **argv);

/*
 * Evaluate what was read and print it to @f. Rules the evaluator
 * rejects are reported and left out. Returns 0 when every rule was
 * translated exactly, 1 when some were only approximated or left out,
 * -1 on a fatal error.
 */
int xlate_print(struct xlate_ctx *ctx, FILE *f);

/**
 * struct xlate_source - where a printed chain or rule came from
 * @index: the rule's position among its chain's printed rules (0 first),
 *         -1 for the chain itself (its ":NAME POLICY" line)
 * @loc: its line in the input
 */
struct location;
struct xlate_source {
	const char		*table;
	const char		*chain;
	int			index;
	const struct location	*loc;
};

/*
 * After xlate_print(): @fn for every chain and every rule it printed,
 * in the order printed (per table, per chain). The semantic diff maps
 * the translation's rules back to iptables-save lines so. Returns 0 or
 * the first negative return of @fn.
 */
int xlate_sources(struct xlate_ctx *ctx,
		  int (*fn)(void *priv, const struct xlate_source *src),
		  void *priv);

/* Diagnostics so far (errors and warnings, in input order). */
const struct erec_queue *xlate_errors(const struct xlate_ctx *ctx);
const struct xlate_stats *xlate_stats(const struct xlate_ctx *ctx);

/*
 * Print one diagnostic as "FILE:LINE:COL: error: MSG", the input line
 * and a caret line under the offending span.
 */
void xlate_format_erec(FILE *f, const struct error_record *erec);

/*
 * shim_api.c: what is read, as nftc commands, for iptables-restore-nft,
 * which linearizes them itself instead of printing (xlate_stream()
 * below): @ops->table once per table (the caller may add commands
 * before the table's, e.g. to replace it; returning 1 skips the table),
 * the table's sets, @ops->chain for each chain, then the rules.
 */
struct list_head;
struct location;

/**
 * struct xlate_chain_info - a chain read (":NAME POLICY [p:b]")
 * @base: a built-in chain of the table; @policy NF_ACCEPT/NF_DROP
 */
struct xlate_chain_info {
	const char		*table;
	const char		*name;
	bool			base;
	int			policy;
	uint64_t		packets;
	uint64_t		bytes;
	const struct location	*loc;
};

struct cmd;

/**
 * struct xlate_fast_rule - a rule's words for xlate_cmd_ops.fast
 * @argv: the words after "-A CHAIN" / "-I CHAIN [1]", unquoted
 * @loc: the rule's line
 * @insert: -I (prepended)
 */
struct xlate_fast_rule {
	const char		*table;
	const char		*chain;
	const char		**argv;
	unsigned int		argc;
	const struct location	*loc;
	bool			insert;
	/* @name as a chain of the table: 1 a user chain a rule may jump
	 * to by that very name, 0 no chain, -1 another kind of chain */
	int			(*jump_ok)(const struct xlate_fast_rule *fr,
					   const char *name);
	/* before the callee writes the rule: the declarations so far to
	 * the stream; 0, 1 when the table is skipped (-T), <0 on error */
	int			(*ready)(const struct xlate_fast_rule *fr);
	void			*priv[2];
};

struct xlate_cmd_ops {
	int	(*table)(void *priv, const char *table,
			 const struct location *loc, struct list_head *cmds);
	int	(*chain)(void *priv, const struct xlate_chain_info *ci,
			 struct list_head *cmds);
	/* streaming only: declarations to evaluate now; @cmds taken */
	int	(*decls)(void *priv, struct list_head *cmds);
	/* streaming only: a rule command (CMD_ADD/CMD_INSERT), taken */
	int	(*rule)(void *priv, struct cmd *cmd);
	/*
	 * streaming, optional: a rule's words before any parse; 1 when
	 * the callee handled the rule itself (after @fr->ready() sent the
	 * declarations so far to @decls), 0 to have it parsed and handed
	 * to @rule, <0 on error (as @rule's).
	 */
	int	(*fast)(void *priv, const struct xlate_fast_rule *fr);
};

/*
 * Streaming, set before xlate_read_save(): the same commands handed
 * over while the file is read, so only one rule's IR is ever held.
 * Before a rule (and at a table's COMMIT), what was declared since the
 * last call goes through @ops->table (once per table), the table's sets
 * and @ops->chain, then @ops->decls; each translated rule then goes to
 * @ops->rule, in input order (-I as CMD_INSERT). After the first error
 * nothing more is handed over (the rest is still read, to report its
 * errors), and rules are freed as they are read. Returns the first
 * negative return of a callback, or 0, from xlate_stream_status().
 */
void xlate_stream(struct xlate_ctx *ctx, const struct xlate_cmd_ops *ops,
		  void *priv);

/*
 * For iptables-restore --noflush: a chain of @table the input does not
 * declare may still be appended to or jumped to when @fn says the
 * kernel holds it (it is then neither created nor flushed).
 */
typedef bool (*xlate_chain_known_fn)(void *priv, const char *table,
				     const char *chain);
void xlate_set_chain_known(struct xlate_ctx *ctx, xlate_chain_known_fn fn,
			   void *priv);
int xlate_stream_status(const struct xlate_ctx *ctx);

/*
 * A --tcp-flags list ("SYN,ACK", libxt_tcp's names in any case) into
 * its bits: false for anything libxt_tcp might read otherwise
 * (xtports.c, which parses --tcp-flags this way without libxtables).
 */
bool xlate_tcp_flag_list(const char *s, uint8_t *flags);

/*
 * XLATE_F_MEMO's work: rules printed from a template, templates made,
 * probe translations run (for benchmarks and tests).
 */
void xlate_memo_stats(const struct xlate_ctx *ctx, unsigned long *hits,
		      unsigned long *templates, unsigned long *probes);

#endif
