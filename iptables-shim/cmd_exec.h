/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_CMD_EXEC_H
#define SHIM_CMD_EXEC_H

#include <stdbool.h>
#include <stdint.h>

enum ipt_op {
	IPT_NONE,
	IPT_APPEND,
	IPT_CHECK,
	IPT_DELETE,
	IPT_INSERT,
	IPT_REPLACE,
	IPT_LIST,
	IPT_SAVE,
	IPT_FLUSH,
	IPT_ZERO,
	IPT_NEW,
	IPT_DELCHAIN,
	IPT_POLICY,
	IPT_RENAME,
	__IPT_MAX
};

/**
 * struct cmd_req - one iptables command line
 * @opi: row of cmd.c's command table; @word2: -P's target, -E's new name
 * @spec: the rule words, as restore text; @flags: enum cmd_list_flags
 */
struct cmd_req {
	uint8_t		family;
	enum ipt_op	op;
	int		opi;
	const char	*opword;	/* as typed */
	const char	*table;
	const char	*chain;
	const char	*word2;
	unsigned int	num;
	bool		has_num;
	char		*spec;
	unsigned int	flags;
	bool		zero_after;	/* -L -Z */
};

/* cmd.c: "PROG v1.8.9 (nf_tables): MSG\n[\n]Try ..." */
void cmd_usage_error(uint8_t family, const char *msg, const char *arg,
		     bool blank);
/* cmd_exec.c: run @q against the kernel; iptables' exit status. */
int cmd_exec(const struct cmd_req *q);

#endif
