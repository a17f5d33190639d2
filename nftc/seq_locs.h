/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_SEQ_LOCS_H
#define NFTC_SEQ_LOCS_H

/*
 * The source of each message of a batch, a few bytes a message (see
 * seq_locs.c): record i is the command and location of the batch's
 * i-th object message.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "location.h"

struct cmd;

/**
 * struct seq_locs_mark - a record encoded without its predecessors
 * @rec: its index
 * @off: its first byte in the stream
 */
struct seq_locs_mark {
	uint32_t		rec;
	uint32_t		off;
};

/**
 * struct seq_locs - records of (command, location), delta encoded
 * @buf: the stream, @len bytes of @cap
 * @marks: where decoding may start (@nmarks of @marks_cap)
 * @n: records
 * @prev_cmd: @prev: what the next record is encoded against
 */
struct seq_locs {
	uint8_t			*buf;
	size_t			len;
	size_t			cap;
	struct seq_locs_mark	*marks;
	unsigned int		nmarks;
	unsigned int		marks_cap;
	unsigned int		n;
	const struct cmd	*prev_cmd;
	struct location		prev;
};

/* Records between marks: the most a lookup decodes. */
#define SEQ_LOCS_SPAN	64

/* Append a record (0, or -ENOMEM with @s unchanged). */
int seq_locs_add(struct seq_locs *s, const struct cmd *cmd,
		 const struct location *loc);
/* Record @i into *@cmd and *@loc; false past the end. */
bool seq_locs_get(const struct seq_locs *s, unsigned int i,
		  const struct cmd **cmd, struct location *loc);
/*
 * Move the records of @from behind those of @to (0, or -ENOMEM with
 * both unchanged); @from is left empty.
 */
int seq_locs_join(struct seq_locs *to, struct seq_locs *from);
/* Forget every record, keeping the memory. */
void seq_locs_clear(struct seq_locs *s);
void seq_locs_free(struct seq_locs *s);

#endif
