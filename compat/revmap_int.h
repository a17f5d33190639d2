/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef COMPAT_REVMAP_INT_H
#define COMPAT_REVMAP_INT_H

/* Internal to the reverse map: the state of one rule being mapped. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "expr.h"
#include "stmt.h"

/* The rule's "ip part", printed first in iptables' fixed order. */
enum rv_ip_field {
	RV_SRC,
	RV_DST,
	RV_IIF,
	RV_OIF,
	RV_PROTO,
	RV_FRAG,	/* -f: no value */
	__RV_IP_MAX
};

/**
 * struct rv_ctx - one rule being mapped back
 * @ip: text of the ip part fields (malloc'ed), @ip_inv their "!"
 * @m: matches, in rule order; @t: the target
 * @unsupported: first statement without an iptables form (its text)
 */
struct rv_ctx {
	uint8_t		family;
	char		*ip[__RV_IP_MAX];
	bool		ip_inv[__RV_IP_MAX];
	FILE		*m;
	FILE		*t;
	bool		has_target;
	const char	*last_match;	/* options join the match before */
	/* options of the open tcp/udp match, printed in libxt_tcp's order
	 * (sport, dport, flags) when it closes */
	char		*l4opt[3];
	char		*unsupported;
	/* ct state read, its match not printed yet: -m state, or -m
	 * conntrack --ctstate when conntrack options follow (one VM code;
	 * libxt_conntrack prints the state first) */
	char		*ctstate;
	bool		ctstate_inv;
	/* "meta iiftype ether" read and no -m mac after it yet */
	bool		ether_dep;
	/* -m recent being gathered (revmap_state.c); open when @name */
	struct rv_recent {
		const char	*name;
		char		set_name[256];
		const char	*cmd;	/* set, rcheck, update, remove */
		bool		inv;
		bool		dst;
		char		*mask;	/* NULL: the full mask */
		uint64_t	seconds;
		unsigned int	hits;
	} recent;
};

/* Text of @e as nft prints it (malloc'ed), numeric. */
char *rv_expr_text(const struct expr *e);
/* "!" + " " when @inv */
const char *rv_neg(bool inv);
/* Print @s quoted the way xtables_save_string() does. */
void rv_quote(FILE *f, const char *s);
/* " -m NAME" unless the match printed last is NAME already. */
void rv_match_open(struct rv_ctx *c, const char *name);
/* Print the pending ct state, in -m conntrack if @conntrack. */
void rv_ctstate_flush(struct rv_ctx *c, bool conntrack);
/* Print the pending tcp/udp options (rv_ctx.l4opt). */
void rv_l4_flush(struct rv_ctx *c);
/* Set field @fld; false when it was set already (cannot be mapped). */
bool rv_ip_set(struct rv_ctx *c, enum rv_ip_field fld, char *text,
	       bool inv);

/*
 * revmap_match.c: a match statement in the printer's text ("ip saddr
 * 10.0.0.0/8 tcp dport 22"); false when some part has no mapping.
 */
bool rv_match(struct rv_ctx *c, const char *text);
/* Text of statement @s as nftc's printer writes it (malloc'ed). */
char *rv_stmt_text(const struct rv_ctx *c, const struct stmt *s);
char *rv_stmt_text_flags(const struct rv_ctx *c, const struct stmt *s,
			 unsigned int flags);
/* revmap_target.c: statements other than matches. */
bool rv_stmt(struct rv_ctx *c, const struct stmt *s);
/* revmap_state.c: a set statement of a stateful match (connlimit,
 * recent). */
bool rv_state_set(struct rv_ctx *c, const struct stmt *s);
/* "KEY @recent_NAME" (*@handled then), opening a -m recent. */
bool rv_recent_check(struct rv_ctx *c, const struct stmt *s, bool *handled);
/* Print the -m recent gathered so far, if any. */
void rv_recent_flush(struct rv_ctx *c);

#endif
