/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The nfnetlink batch: BATCH_BEGIN, one message per object, BATCH_END.
 *
 * Messages are written straight into a list of chunks. Each chunk has a
 * fill threshold plus headroom for one maximal message (a 16-bit
 * attribute nest plus headers), so a message is always built in place
 * without knowing its size in advance and never straddles chunks. The
 * first chunk of a batch is small (32 pages); once a batch outgrows it,
 * chunks are huge pages (2 MiB, where the kernel has them): a 100,000
 * rule batch then takes 30 page faults instead of 13,000.
 * The caller frees each libnftnl object once it is serialised, so a batch
 * of 100,000 rules costs little more than its wire size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <sys/mman.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include "lin_int.h"
#include "seq_locs.h"
#include "pagesize.h"

#define BATCH_CHUNK_PAGES	32

/* Size of the chunks after the first: one huge page. */
#define BATCH_BIG_CHUNK		(2u << 20)

/**
 * struct batch_chunk - one contiguous piece of the batch
 * @len: bytes used
 * @threshold: a chunk filled beyond this starts a new one
 * @mapped: size of the mapping for big chunks, 0 if malloc'ed
 * @buf: BATCH_MSG_MAX bytes beyond the threshold are always free
 */
struct batch_chunk {
	size_t			len;
	size_t			threshold;
	size_t			mapped;
	char			buf[];
};

/**
 * struct nftc_batch - a batch under construction
 * @chunks: chunk pointers, in order; @nchunks used, @chunks_cap allocated
 * @threshold: fill threshold of the first chunk
 * @seq_first: sequence number of BATCH_BEGIN
 * @seq_next: sequence number the next message gets
 * @num_msgs: object messages (begin/end excluded)
 * @ended: BATCH_END written
 * @locs: source of each object message; record i is message @seq_loc0 + i
 *        (the messages of a batch are numbered without gaps)
 * @seq_loc0: sequence number of the first object message
 * @keep_cmds: record commands too (segments do not: their commands are
 *             gone by the time the batch is sent)
 * @cur_cmd: @cur_loc: source of the messages appended next
 */
struct nftc_batch {
	struct batch_chunk	**chunks;
	unsigned int		nchunks;
	unsigned int		chunks_cap;
	size_t			threshold;
	uint32_t		seq_first;
	uint32_t		seq_next;
	unsigned int		num_msgs;
	bool			ended;
	struct seq_locs		locs;
	uint32_t		seq_loc0;
	bool			keep_cmds;
	const struct cmd	*cur_cmd;
	struct location		cur_loc;
	const struct nlmsghdr	*last;
};

static struct batch_chunk *batch_tail(const struct nftc_batch *b)
{
	return b->chunks[b->nchunks - 1];
}

/*
 * A zeroed, 2 MiB aligned mapping of BATCH_BIG_CHUNK bytes, in small
 * pages: only what is written becomes resident. (A huge page makes the
 * whole chunk resident at its first byte: the last chunk's tail and
 * every chunk's BATCH_MSG_MAX headroom, 1.5 MB of the 18.4 MB of a
 * 50,000-rule iptables-restore, for no measurable gain in system time.)
 */
static struct batch_chunk *batch_big_chunk(void)
{
	size_t align = BATCH_BIG_CHUNK, size = BATCH_BIG_CHUNK;
	uintptr_t start, aligned;
	struct batch_chunk *c;
	void *p;

	p = mmap(NULL, size + align, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (uintptr_t)p;
	aligned = (start + align - 1) & ~(uintptr_t)(align - 1);
	if (aligned > start)
		munmap(p, aligned - start);
	munmap((void *)(aligned + size), start + align - aligned);
	c = (struct batch_chunk *)aligned;
	madvise(c, size, MADV_NOHUGEPAGE);	/* a hint: failure is fine */
	c->mapped = size;
	c->threshold = size - sizeof(*c) - BATCH_MSG_MAX;
	return c;
}

static int batch_chunk_add(struct nftc_batch *b)
{
	struct batch_chunk *c;

	if (b->nchunks == b->chunks_cap) {
		unsigned int cap = b->chunks_cap ? b->chunks_cap * 2 : 8;
		struct batch_chunk **n;

		n = realloc(b->chunks, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		b->chunks = n;
		b->chunks_cap = cap;
	}
	/*
	 * Zeroed (calloc, fresh mappings): libmnl leaves attribute padding
	 * as it finds it, and the batch must neither depend on nor leak
	 * what the heap held before.
	 */
	if (b->nchunks) {
		c = batch_big_chunk();
	} else {
		c = calloc(1, sizeof(*c) + b->threshold + BATCH_MSG_MAX);
		if (c)
			c->threshold = b->threshold;
	}
	if (!c)
		return -ENOMEM;
	b->chunks[b->nchunks++] = c;
	return 0;
}

static void batch_chunk_free(struct batch_chunk *c)
{
	if (c && c->mapped)
		munmap(c, c->mapped);
	else
		free(c);
}

/*
 * Where the next message goes: the tail chunk while it is below its
 * threshold (the headroom then guarantees BATCH_MSG_MAX bytes).
 */
static char *batch_msg_start(struct nftc_batch *b)
{
	struct batch_chunk *c = batch_tail(b);

	if (c->len >= c->threshold) {
		if (batch_chunk_add(b) < 0)
			return NULL;
		c = batch_tail(b);
	}
	memset(c->buf + c->len, 0, MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(
		struct nfgenmsg)));
	return c->buf + c->len;
}

static int batch_msg_commit(struct nftc_batch *b, struct nlmsghdr *nlh)
{
	struct batch_chunk *c = batch_tail(b);

	if (nlh->nlmsg_len > BATCH_MSG_MAX)
		return -EMSGSIZE;
	c->len += MNL_ALIGN(nlh->nlmsg_len);
	b->seq_next++;
	return 0;
}

/**
 * nftc_batch_alloc - start a batch
 * @seq: sequence number of BATCH_BEGIN; messages follow with seq + 1, ...
 *
 * Returns the batch with BATCH_BEGIN written, or NULL without memory.
 */
struct nftc_batch *nftc_batch_alloc(uint32_t seq)
{
	struct nftc_batch *b;
	char *buf;

	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->threshold = nftc_page_size() * BATCH_CHUNK_PAGES;
	b->seq_first = seq;
	b->seq_next = seq;
	b->seq_loc0 = seq + 1;
	b->keep_cmds = true;
	b->cur_loc = internal_location;
	if (batch_chunk_add(b) < 0)
		goto err_free;
	buf = batch_msg_start(b);
	if (batch_msg_commit(b, nftnl_batch_begin(buf, b->seq_next)) < 0)
		goto err_free;
	return b;
err_free:
	nftc_batch_free(b);
	return NULL;
}

/**
 * nftc_batch_segment_alloc - a run of messages to splice into a batch later
 *
 * No BATCH_BEGIN; sequence numbers start at 0 and are rewritten by
 * nftc_batch_splice(). Lets the pipeline serialise rules as they are
 * compiled while the objects declared around them still have to go in
 * front of them.
 */
struct nftc_batch *nftc_batch_segment_alloc(void)
{
	struct nftc_batch *b;

	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->threshold = nftc_page_size() * BATCH_CHUNK_PAGES;
	b->cur_loc = internal_location;
	if (batch_chunk_add(b) < 0) {
		nftc_batch_free(b);
		return NULL;
	}
	return b;
}

/**
 * nftc_batch_segment_reset - empty segment @b for reuse
 *
 * What nftc_batch_segment_alloc() gives, without zeroing its first
 * chunk again beyond what was used: a caller that linearizes one rule
 * at a time into a segment pays for the rule, not for the chunk. (A
 * message started and dropped may leave bytes past that; every byte of
 * a committed message is written, padding included, so none is sent.)
 */
void nftc_batch_segment_reset(struct nftc_batch *b)
{
	struct batch_chunk *c = b->chunks[0];
	unsigned int i;

	for (i = 1; i < b->nchunks; i++)
		batch_chunk_free(b->chunks[i]);
	b->nchunks = 1;
	memset(c->buf, 0, c->len);
	c->len = 0;
	b->seq_first = b->seq_next = 0;
	b->num_msgs = 0;
	b->ended = false;
	seq_locs_clear(&b->locs);
	b->last = NULL;
	b->cur_cmd = NULL;
	b->cur_loc = internal_location;
}

/* Make room for @nchunks more chunks in @b. */
static int batch_reserve(struct nftc_batch *b, unsigned int nchunks)
{
	if (b->nchunks + nchunks > b->chunks_cap) {
		unsigned int cap = b->nchunks + nchunks;
		struct batch_chunk **n = realloc(b->chunks, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		b->chunks = n;
		b->chunks_cap = cap;
	}
	return 0;
}

/**
 * nftc_batch_splice - append the messages of segment @seg to @b
 *
 * The chunks move (nothing is copied); the messages are numbered on
 * from @b's next sequence number, keeping the segment's numbering
 * (continued messages share their first one's number). The commands
 * the segment's messages came from are gone by now: a segment records
 * their locations only.
 * @seg is freed, also on error (-ENOMEM, @b unchanged).
 */
int nftc_batch_splice(struct nftc_batch *b, struct nftc_batch *seg)
{
	uint32_t base = b->seq_next;
	unsigned int i;
	size_t off;

	if (b->ended || batch_reserve(b, seg->nchunks) < 0 ||
	    seq_locs_join(&b->locs, &seg->locs) < 0) {
		nftc_batch_free(seg);
		return -ENOMEM;
	}
	for (i = 0; i < seg->nchunks; i++) {
		struct batch_chunk *c = seg->chunks[i];

		for (off = 0; off < c->len;) {
			struct nlmsghdr *nlh = (struct nlmsghdr *)(c->buf + off);

			nlh->nlmsg_seq = base + (nlh->nlmsg_seq - seg->seq_first);
			off += MNL_ALIGN(nlh->nlmsg_len);
		}
		b->chunks[b->nchunks++] = c;
	}
	b->seq_next = base + (seg->seq_next - seg->seq_first);
	b->num_msgs += seg->num_msgs;
	seg->nchunks = 0;
	nftc_batch_free(seg);
	return 0;
}

/**
 * nftc_batch_free - release a batch (NULL is fine)
 */
void nftc_batch_free(struct nftc_batch *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->nchunks; i++)
		batch_chunk_free(b->chunks[i]);
	free(b->chunks);
	seq_locs_free(&b->locs);
	free(b);
}

/**
 * nftc_batch_end - write BATCH_END; further messages are refused
 */
int nftc_batch_end(struct nftc_batch *b)
{
	char *buf;

	if (b->ended)
		return -EINVAL;
	buf = batch_msg_start(b);
	if (!buf)
		return -ENOMEM;
	b->ended = true;
	return batch_msg_commit(b, nftnl_batch_end(buf, b->seq_next));
}

/* The messages whose changes the kernel echoes back when asked. */
static bool batch_msg_echoes(uint16_t type)
{
	if (NFNL_SUBSYS_ID(type) != NFNL_SUBSYS_NFTABLES)
		return false;
	switch (NFNL_MSG_TYPE(type)) {
	case NFT_MSG_NEWTABLE:
	case NFT_MSG_NEWCHAIN:
	case NFT_MSG_NEWRULE:
	case NFT_MSG_NEWSET:
	case NFT_MSG_NEWSETELEM:
	case NFT_MSG_NEWOBJ:
	case NFT_MSG_NEWFLOWTABLE:
		return true;
	default:
		return false;
	}
}

/**
 * nftc_batch_set_echo - "nft -e": NLM_F_ECHO on every message that adds
 *
 * As stock: the kernel then sends each change back once committed (and,
 * when the batch's first message has it, the new generation).
 */
void nftc_batch_set_echo(struct nftc_batch *b)
{
	unsigned int i;

	for (i = 0; i < b->nchunks; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)b->chunks[i]->buf;
		int len = (int)b->chunks[i]->len;

		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
			if (batch_msg_echoes(nlh->nlmsg_type))
				nlh->nlmsg_flags |= NLM_F_ECHO;
	}
}

/**
 * nftc_batch_chunks - number of contiguous pieces of the batch
 */
unsigned int nftc_batch_chunks(const struct nftc_batch *b)
{
	return b->nchunks;
}

/**
 * nftc_batch_chunk - piece @i of the batch, for an iovec
 * @len: set to its length in bytes
 */
const void *nftc_batch_chunk(const struct nftc_batch *b, unsigned int i,
			     size_t *len)
{
	if (i >= b->nchunks) {
		*len = 0;
		return NULL;
	}
	*len = b->chunks[i]->len;
	return b->chunks[i]->buf;
}

uint32_t nftc_batch_seq_first(const struct nftc_batch *b)
{
	return b->seq_first;
}

uint32_t nftc_batch_seq_next(const struct nftc_batch *b)
{
	return b->seq_next;
}

/**
 * nftc_batch_num_msgs - object messages in the batch (begin/end excluded)
 *
 * Zero means there is nothing to send (stock nft skips the round trip).
 */
unsigned int nftc_batch_num_msgs(const struct nftc_batch *b)
{
	return b->num_msgs;
}

/**
 * nftc_batch_set_source - attribute the messages appended next
 * @cmd: command being linearized
 * @loc: its source span (a rule's location, a statement's, ...)
 */
void nftc_batch_set_source(struct nftc_batch *b, const struct cmd *cmd,
			   const struct location *loc)
{
	b->cur_cmd = cmd;
	b->cur_loc = loc ? *loc : internal_location;
}

/**
 * nftc_batch_seq_lookup - which command produced message @seq
 * @out: set to its command (NULL for spliced messages) and location
 *
 * Returns false for begin/end and unknown numbers.
 */
bool nftc_batch_seq_lookup(const struct nftc_batch *b, uint32_t seq,
			   struct nftc_seq_loc *out)
{
	/* begin (one before the first) wraps around to past the end */
	if (!seq_locs_get(&b->locs, seq - b->seq_loc0, &out->cmd,
			  &out->location))
		return false;
	out->seq = seq;
	return true;
}

/*
 * Start an object message: header with the next sequence number. The
 * caller fills the payload and calls batch_obj_commit().
 */
static struct nlmsghdr *batch_obj_start(struct nftc_batch *b, uint16_t type,
					uint16_t flags, uint32_t family)
{
	char *buf;

	if (b->ended)
		return NULL;
	buf = batch_msg_start(b);
	if (!buf)
		return NULL;
	return nftnl_nlmsg_build_hdr(buf, type, family, flags, b->seq_next);
}

static int batch_obj_commit(struct nftc_batch *b, struct nlmsghdr *nlh)
{
	int ret;

	/* batch_msg_commit()'s only failure, before the record is kept */
	if (nlh->nlmsg_len > BATCH_MSG_MAX)
		return -EMSGSIZE;
	ret = seq_locs_add(&b->locs, b->keep_cmds ? b->cur_cmd : NULL,
			   &b->cur_loc);
	if (ret < 0)
		return ret;
	batch_msg_commit(b, nlh);
	b->num_msgs++;
	b->last = nlh;
	return 0;
}

/**
 * nftc_batch_last_msg - the object message appended last (NULL: none)
 */
const struct nlmsghdr *nftc_batch_last_msg(const struct nftc_batch *b)
{
	return b->last;
}

struct nlmsghdr *batch_obj_begin(struct nftc_batch *b, uint16_t type,
				 uint16_t flags, uint32_t family)
{
	return batch_obj_start(b, type, flags, family);
}

int batch_obj_end(struct nftc_batch *b, struct nlmsghdr *nlh)
{
	return batch_obj_commit(b, nlh);
}

struct nlmsghdr *nftc_batch_msg_begin(struct nftc_batch *b, uint16_t type,
				      uint16_t flags, uint32_t family,
				      const struct location *loc)
{
	nftc_batch_set_source(b, NULL, loc);
	return batch_obj_start(b, type, flags, family);
}

int nftc_batch_msg_end(struct nftc_batch *b, struct nlmsghdr *nlh)
{
	return batch_obj_commit(b, nlh);
}

/**
 * batch_obj_begin_cont - a message continuing the one appended last
 *
 * It gets that message's sequence number (and its source): stock nft
 * sends the element messages one command needs under one number.
 * Appended by batch_obj_end_cont().
 */
struct nlmsghdr *batch_obj_begin_cont(struct nftc_batch *b, uint16_t type,
				      uint16_t flags, uint32_t family)
{
	char *buf;

	if (b->ended || b->seq_next == b->seq_first)
		return NULL;
	buf = batch_msg_start(b);
	if (!buf)
		return NULL;
	return nftnl_nlmsg_build_hdr(buf, type, family, flags,
				     b->seq_next - 1);
}

int batch_obj_end_cont(struct nftc_batch *b, struct nlmsghdr *nlh)
{
	struct batch_chunk *c = batch_tail(b);

	if (nlh->nlmsg_len > BATCH_MSG_MAX)
		return -EMSGSIZE;
	c->len += MNL_ALIGN(nlh->nlmsg_len);
	b->num_msgs++;
	return 0;
}

/**
 * batch_add_table - append a table message
 * @type: NFT_MSG_NEWTABLE / NFT_MSG_DELTABLE
 * @flags: NLM_F_* (NLM_F_REQUEST is always added)
 *
 * The add functions serialise the object; it stays owned by the caller,
 * who frees it right after. Return 0 or a negative errno.
 */
int batch_add_table(struct nftc_batch *b, uint16_t type, uint16_t flags,
		    uint32_t family, struct nftnl_table *t)
{
	struct nlmsghdr *nlh = batch_obj_start(b, type, flags, family);

	if (!nlh)
		return -ENOMEM;
	nftnl_table_nlmsg_build_payload(nlh, t);
	return batch_obj_commit(b, nlh);
}

int batch_add_chain(struct nftc_batch *b, uint16_t type, uint16_t flags,
		    uint32_t family, struct nftnl_chain *c)
{
	struct nlmsghdr *nlh = batch_obj_start(b, type, flags, family);

	if (!nlh)
		return -ENOMEM;
	nftnl_chain_nlmsg_build_payload(nlh, c);
	return batch_obj_commit(b, nlh);
}

int batch_add_rule(struct nftc_batch *b, uint16_t type, uint16_t flags,
		   uint32_t family, struct nftnl_rule *r)
{
	struct nlmsghdr *nlh = batch_obj_start(b, type, flags, family);

	if (!nlh)
		return -ENOMEM;
	nftnl_rule_nlmsg_build_payload(nlh, r);
	return batch_obj_commit(b, nlh);
}

int batch_add_set(struct nftc_batch *b, uint16_t type, uint16_t flags,
		  uint32_t family, struct nftnl_set *s)
{
	struct nlmsghdr *nlh = batch_obj_start(b, type, flags, family);

	if (!nlh)
		return -ENOMEM;
	nftnl_set_nlmsg_build_payload(nlh, s);
	return batch_obj_commit(b, nlh);
}

/**
 * batch_add_setelems - append the elements of @s as element messages
 *
 * A set's elements may not fit one message (the element list is a
 * 16-bit nest): they are split over as many messages as needed, each
 * with its own sequence number.
 */
int batch_add_setelems(struct nftc_batch *b, uint16_t type, uint16_t flags,
		       uint32_t family, struct nftnl_set *s)
{
	struct nftnl_set_elems_iter *iter;
	struct nlmsghdr *nlh;
	int more, ret = 0;

	iter = nftnl_set_elems_iter_create(s);
	if (!iter)
		return -ENOMEM;
	do {
		nlh = batch_obj_start(b, type, flags, family);
		if (!nlh) {
			ret = -ENOMEM;
			break;
		}
		more = nftnl_set_elems_nlmsg_build_payload_iter(nlh, iter);
		ret = batch_obj_commit(b, nlh);
	} while (ret == 0 && more > 0);
	nftnl_set_elems_iter_destroy(iter);
	return ret;
}

int batch_add_obj(struct nftc_batch *b, uint16_t type, uint16_t flags,
		  uint32_t family, struct nftnl_obj *o)
{
	struct nlmsghdr *nlh = batch_obj_start(b, type, flags, family);

	if (!nlh)
		return -ENOMEM;
	nftnl_obj_nlmsg_build_payload(nlh, o);
	return batch_obj_commit(b, nlh);
}

int batch_add_flowtable(struct nftc_batch *b, uint16_t type, uint16_t flags,
			uint32_t family, struct nftnl_flowtable *f)
{
	struct nlmsghdr *nlh = batch_obj_start(b, type, flags, family);

	if (!nlh)
		return -ENOMEM;
	nftnl_flowtable_nlmsg_build_payload(nlh, f);
	return batch_obj_commit(b, nlh);
}
