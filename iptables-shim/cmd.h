/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_CMD_H
#define SHIM_CMD_H

/*
 * iptables-nft's command front end: the table the command names is
 * read as iptables-save text (save.c), held as a model of chains and
 * rule lines, changed by the command, and written back with
 * iptables-restore (restore.c) as one batch replacing the table.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* shim_save_text()'s line for a base chain the kernel does not hold */
#define SHIM_SAVE_ABSENT	"# absent: "

/**
 * struct cmd_rule - one rule of the model
 * @ctr: "[packets:bytes]"; @spec: what follows "-A CHAIN " (saved form)
 */
struct cmd_rule {
	char	ctr[48];
	char	*spec;
};

struct cmd_chain {
	char		*name;
	char		policy[16];	/* "-" for a user chain */
	uint64_t	packets, bytes;
	struct cmd_rule	*rules;
	unsigned int	nrules;
	bool		absent;		/* a base chain not in the kernel */
};

struct cmd_table {
	char		*name;
	uint8_t		family;
	struct cmd_chain *chains;
	unsigned int	nchains;
};

/* cmd_model.c */
/* @text: iptables-save text of (at most) the table; builtins if absent */
int cmd_table_parse(struct cmd_table *t, uint8_t family, const char *name,
		    const char *text);
/* iptables-restore text of @t (malloc'ed), NULL on ENOMEM */
char *cmd_table_format(const struct cmd_table *t);
void cmd_table_free(struct cmd_table *t);
struct cmd_chain *cmd_chain_find(struct cmd_table *t, const char *name);
struct cmd_chain *cmd_chain_add(struct cmd_table *t, const char *name);
void cmd_chain_del(struct cmd_table *t, struct cmd_chain *c);
/* insert @spec (copied) before rule @at (0-based; nrules appends) */
int cmd_rule_insert(struct cmd_chain *c, unsigned int at, const char *spec);
void cmd_rule_del(struct cmd_chain *c, unsigned int at);
/* does @spec jump or go to @chain? */
bool cmd_spec_targets(const char *spec, const char *chain);
/* rules of the table jumping or going to @chain */
unsigned int cmd_chain_refs(const struct cmd_table *t, const char *chain);
bool cmd_chain_builtin(const struct cmd_table *t, const char *chain);

/* cmd_list.c */
enum cmd_list_flags {
	CMD_L_VERBOSE	= 1 << 0,
	CMD_L_NUMERIC	= 1 << 1,
	CMD_L_EXACT	= 1 << 2,
	CMD_L_LINENUM	= 1 << 3,
};

/* -S: of @chain (NULL: all), rule @num only when > 0 */
void cmd_print_rules(FILE *f, const struct cmd_table *t,
		     const struct cmd_chain *chain, unsigned int num,
		     bool counters);
/* -v with -A -I -R -C -D: the rule's one-line form */
void cmd_print_verbose(FILE *f, const struct cmd_table *t, const char *spec);
/* -L: of @chain (NULL: all), rule @num only when > 0 */
void cmd_print_list(FILE *f, const struct cmd_table *t,
		    const struct cmd_chain *chain, unsigned int num,
		    unsigned int flags);

/* cmd_spec.c: @spec, one per address pair ("-s a,b"); 0 or -ENOMEM */
struct cmd_specs {
	char		**v;
	unsigned int	n;
};

int cmd_specs_expand(struct cmd_specs *s, const char *spec);
void cmd_specs_free(struct cmd_specs *s);

/*
 * cmd_xtprint.c: the -L text of the "-m NAME opts" groups @tok (the
 * target's group named @target) by the extensions' print(), on stdout
 * only; -1 (nothing printed) when one does not parse.
 */
int cmd_xt_print(FILE *f, uint8_t family, char **tok, unsigned int ntok,
		 uint16_t proto, bool proto_inv, const char *target,
		 bool numeric);

#endif
