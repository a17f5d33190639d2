/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_KEYS_H
#define NFTC_KEYS_H

#include <stdbool.h>
#include <linux/netfilter/nf_tables.h>
#include "datatype.h"
#include "value.h"

/**
 * struct key_template - one key of a keyed expression (meta, ct, rt, ...)
 * @token: name in the language ("mark", "iifname")
 * @dtype: type of its values
 * @len: width in bits
 * @byteorder: register byte order
 * @unqualified: usable without the "meta" prefix (iifname, mark, ...)
 * @dir: ct: may (1) or must (2) carry a direction; 0 never
 * @settable: may appear in "meta KEY set" / "ct KEY set"
 *
 * Each table is indexed by the VM's key number (NFT_META_*, NFT_CT_*, ...)
 * and has a NULL token where a key number has no name in the language.
 */
struct key_template {
	const char		*token;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
	bool			unqualified;
	unsigned char		dir;
	bool			settable;
};

#define META_KEYS_MAX		64
#define CT_KEYS_MAX		32

extern const struct key_template meta_templates[META_KEYS_MAX];
extern const struct key_template ct_templates[CT_KEYS_MAX];
extern const struct key_template rt_templates[__NFT_RT_MAX];
extern const struct key_template socket_templates[__NFT_SOCKET_MAX];
extern const struct key_template xfrm_templates[__NFT_XFRM_KEY_MAX];
extern const struct key_template fib_result_templates[__NFT_FIB_RESULT_MAX];

/* Key number of @token in @tbl (n entries), -1 if none. */
int key_lookup(const struct key_template *tbl, unsigned int n,
	       const char *token);

#define meta_key_lookup(t)	key_lookup(meta_templates, META_KEYS_MAX, t)
#define ct_key_lookup(t)	key_lookup(ct_templates, CT_KEYS_MAX, t)

#endif
