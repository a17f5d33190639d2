/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_BATCH_EDIT_H
#define NFTC_BATCH_EDIT_H

/*
 * Editing a finished batch: its messages are read back into libnftnl
 * objects and appended to a new batch, each attributed to the location
 * the old batch recorded (not to its command: the commands may be freed
 * once the old batch is built, so send the new one without
 * NFTC_NL_CMDS), so kernel errors map back to the source lines. A callback may change each rule on the way: the
 * iptables drop-ins put iptables-nft's xt-compat expressions into rules
 * this way (compat/).
 */

#include <stddef.h>
#include <stdint.h>

struct nftc_batch;
struct nftnl_rule;

/* Called for the @idx-th NEWRULE message (0-based); 0 or negative errno. */
typedef int (*nftc_rule_edit_fn)(void *priv, unsigned int idx,
				 struct nftnl_rule *r);

/*
 * Append every object message of @src (BATCH_BEGIN/END excluded) to
 * @dst (from nftc_batch_alloc(), not ended), passing rules through @fn.
 * Returns 0 or a negative errno.
 */
int nftc_batch_edit_rules(const struct nftc_batch *src,
			  struct nftc_batch *dst, nftc_rule_edit_fn fn,
			  void *priv);

/*
 * Called for the @idx-th NEWRULE message @src: write the rule's
 * attributes into @dst (its header and nfgenmsg written, @room bytes
 * from @dst on). 0 or a negative errno (-EMSGSIZE when it does not fit).
 */
struct nlmsghdr;
typedef int (*nftc_rule_write_fn)(void *priv, unsigned int idx,
				  const struct nlmsghdr *src,
				  struct nlmsghdr *dst, size_t room);

/*
 * Same as nftc_batch_edit_rules(), the rules rewritten by @fn from
 * their netlink attributes, without libnftnl's parse and build (the
 * other messages as there).
 */
int nftc_batch_rewrite_rules(const struct nftc_batch *src,
			     struct nftc_batch *dst, nftc_rule_write_fn fn,
			     void *priv);

#endif
