/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nftvm internals: the object model (tables, chains, rules, sets), the
 * expression ops table, registers, the transaction log and the netlink
 * attribute helpers shared by the VM's files.
 */
#ifndef NFTVM_INT_H
#define NFTVM_INT_H

#include <nftvm/compat.h>
#include <nftvm/list.h>
#include <nftvm/nftvm.h>
#include <linux/netlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>

#define NFTVM_JUMP_STACK_SIZE	16
#define NFTVM_DATA_MAXLEN	64	/* NFT_DATA_VALUE_MAXLEN */
/* the kernel's struct nft_data: what cmp, range, bitwise and immediate
 * hold (longer values, -EOVERFLOW, are only for set keys and data) */
#define NFTVM_EXPR_DATA_LEN	16
#define NFTVM_REG32_WORDS	20	/* verdict (4 words) + 16 data words */
#define NFTVM_RULE_MAXEXPRS	128
#define NFTVM_NAME_MAXLEN	256	/* NFT_NAME_MAXLEN */
#define NFTVM_IFNAMSIZ		16
#define NFTVM_SET_MAXFIELDS	16	/* NFT_REG32_COUNT */

/* ------------------------------------------------------------ attributes */

enum nftvm_nla_type {
	NFTVM_NLA_UNSPEC,
	NFTVM_NLA_U8,
	NFTVM_NLA_U16,
	NFTVM_NLA_U32,
	NFTVM_NLA_U64,
	NFTVM_NLA_STRING,
	NFTVM_NLA_NESTED,
	NFTVM_NLA_BINARY,
	__NFTVM_NLA_MAX
};

/**
 * struct nftvm_nla_policy - what an attribute must look like
 * @type:	enum nftvm_nla_type
 * @len:	maximum length for strings (without the NUL) and binaries
 */
struct nftvm_nla_policy {
	__u8	type;
	__u16	len;
};

struct nftvm_ctx;

int nftvm_nla_parse(struct nftvm_ctx *ctx, const struct nlattr **tb,
		    unsigned int maxtype, const struct nftvm_nla_policy *pol,
		    const void *data, size_t len);
int nftvm_nla_parse_nested(struct nftvm_ctx *ctx, const struct nlattr **tb,
			   unsigned int maxtype,
			   const struct nftvm_nla_policy *pol,
			   const struct nlattr *nest);

static inline const void *nftvm_nla_data(const struct nlattr *nla)
{
	return (const char *)nla + NLA_HDRLEN;
}

static inline unsigned int nftvm_nla_len(const struct nlattr *nla)
{
	return nla->nla_len - NLA_HDRLEN;
}

static inline unsigned int nftvm_nla_type(const struct nlattr *nla)
{
	return nla->nla_type & NLA_TYPE_MASK;
}

/* Values are read byte-wise: attributes are only 4-byte aligned. */
static inline __u32 nftvm_nla_be32(const struct nlattr *nla)
{
	return nftvm_get_be32(nftvm_nla_data(nla));
}

static inline __u64 nftvm_nla_be64(const struct nlattr *nla)
{
	const __u8 *p = nftvm_nla_data(nla);

	return (__u64)nftvm_get_be32(p) << 32 | nftvm_get_be32(p + 4);
}

/* Compare a string attribute (maybe not NUL terminated) with @s. */
int nftvm_nla_streq(const struct nlattr *nla, const char *s);
char *nftvm_nla_strdup(const struct nlattr *nla);
void *nftvm_nla_memdup(const struct nlattr *nla);

/* Walk the attributes of a nested attribute; stops at the first bad one. */
#define nftvm_nla_for_each_nested(pos, nest, rem)			\
	for (pos = (const struct nlattr *)nftvm_nla_data(nest),		\
	     rem = (int)nftvm_nla_len(nest);				\
	     rem >= (int)sizeof(struct nlattr) &&			\
	     pos->nla_len >= sizeof(struct nlattr) &&			\
	     pos->nla_len <= rem;					\
	     rem -= NLA_ALIGN(pos->nla_len),				\
	     pos = (const struct nlattr *)((const char *)pos +		\
					   NLA_ALIGN(pos->nla_len)))

/**
 * struct nftvm_nlbuf - caller-supplied buffer for dumps
 * @overflow is sticky: once set, later puts are dropped and the caller
 * learns at the end that the buffer was too small.
 */
struct nftvm_nlbuf {
	__u8	*buf;
	size_t	cap;
	size_t	len;
	bool	overflow;
};

struct nlattr *nftvm_nla_put(struct nftvm_nlbuf *b, __u16 type,
			     const void *data, size_t len);
void nftvm_nla_put_be32(struct nftvm_nlbuf *b, __u16 type, __u32 v);
void nftvm_nla_put_be64(struct nftvm_nlbuf *b, __u16 type, __u64 v);
void nftvm_nla_put_str(struct nftvm_nlbuf *b, __u16 type, const char *s);
struct nlattr *nftvm_nla_nest_start(struct nftvm_nlbuf *b, __u16 type);
void nftvm_nla_nest_end(struct nftvm_nlbuf *b, struct nlattr *nest);

/* ------------------------------------------------------------ registers */

struct nftvm_chain;

struct nftvm_verdict {
	int			code;
	struct nftvm_chain	*chain;
};

/*
 * The register file as the kernel lays it out: word 0-3 are the verdict
 * register (kept apart here), words 4-19 the sixteen 32-bit data
 * registers; NFT_REG_1..4 name the 128-bit views starting at words 4, 8,
 * 12 and 16.
 */
struct nftvm_regs {
	struct nftvm_verdict	verdict;
	__u32			data[NFTVM_REG32_WORDS];
};

struct nftvm_data {
	union {
		__u32			data[NFTVM_DATA_MAXLEN / 4];
		struct nftvm_verdict	verdict;
	};
};

/**
 * struct nftvm_data_desc - what an nft_data attribute turned out to be
 * @type:	NFT_DATA_VALUE or NFT_DATA_VERDICT
 * @len:	bytes of value (or sizeof the verdict)
 * @size:	maximum accepted value length (input)
 */
struct nftvm_data_desc {
	__u32		type;
	unsigned int	len;
	unsigned int	size;
};

int nftvm_data_init(struct nftvm_ctx *ctx, struct nftvm_data *data,
		    struct nftvm_data_desc *desc, const struct nlattr *attr);
void nftvm_data_hold(const struct nftvm_data *data, __u32 type);
void nftvm_data_release(const struct nftvm_data *data, __u32 type);
void nftvm_data_dump(struct nftvm_nlbuf *b, __u16 attr,
		     const struct nftvm_data *data, __u32 type,
		     unsigned int len);

int nftvm_parse_reg_load(struct nftvm_ctx *ctx, const struct nlattr *attr,
			 __u8 *reg, unsigned int len);
int nftvm_parse_reg_store(struct nftvm_ctx *ctx, const struct nlattr *attr,
			  __u8 *reg, const struct nftvm_data *data,
			  __u32 type, unsigned int len);
void nftvm_dump_reg(struct nftvm_nlbuf *b, __u16 attr, unsigned int reg);
int nftvm_parse_u32_check(struct nftvm_ctx *ctx, const struct nlattr *attr,
			  __u32 max, __u32 *dest);

/* A store of @len bytes zeroes the rest of the last word it touches. */
static inline void nftvm_reg_store_bytes(__u32 *dst, const void *src,
					 unsigned int len)
{
	if (len % 4)
		dst[len / 4] = 0;
	nftvm_memcpy(dst, src, len);
}

static inline void nftvm_reg_store8(__u32 *dst, __u8 v)
{
	*dst = 0;
	*(__u8 *)dst = v;
}

static inline void nftvm_reg_store16(__u32 *dst, __u16 v)
{
	*dst = 0;
	*(__u16 *)dst = v;
}

/* ------------------------------------------------------------ packets */

/**
 * struct nftvm_pktinfo - a packet as the expressions see it (pkt.c)
 * @data:	the network header (the bytes after the Ethernet header and
 *		an outer VLAN tag for bridge and netdev)
 * @tprot_set:	transport header found: @thoff and @l4proto are valid
 * @fragoff:	fragment offset, non-zero for non-first fragments
 */
struct nftvm_pktinfo {
	const __u8			*data;
	__u32				len;
	const struct nftvm_pktmeta	*meta;
	__u8				*wdata;	/* @data, writable */
	struct nftvm_result		*res;	/* side effects; res->meta
						 * is what @meta points to */
	__u64				now;	/* ns, the packet's time */
	__u8				family;
	__u8				l3family;	/* NFPROTO_IPV4/6 of
							 * the network header,
							 * 0: neither */
	__u8				hook;
	__u8				l4proto;
	bool				tprot_set;
	__u16				fragoff;
	__u32				thoff;
	__u16				protocol;	/* EtherType, network
							 * order */
	const __u8			*ll;	/* link header before @data */
	__u32				ll_len;	/* 0: none */
};

int nftvm_pkt_parse(struct nftvm_pktinfo *p, unsigned int family);

/* ------------------------------------------------------------ expressions */

struct nftvm_expr;
struct nftvm_vctx;

/**
 * struct nftvm_expr_ops - one VM instruction family
 * @init:	parse and validate the attributes, take references
 * @eval:	run; never fails, sets regs->verdict.code = NFT_BREAK on
 *		mismatch or when the packet is too short
 * @dump:	write the attributes back in the kernel's format
 * @validate:	walk jump targets (loop and depth checks)
 * @activate:	take back the references dropped by @deactivate (undo)
 * @deactivate:	drop references when the rule leaves the ruleset
 * @destroy:	free private allocations
 * @clone:	copy @src's state into a fresh @dst (default: memcpy); for
 *		per-element instances made by dynset
 * @stateful:	may be instantiated per set element (counter, limit, ...)
 */
struct nftvm_expr_ops {
	const char			*name;
	unsigned int			size;
	unsigned int			maxattr;
	const struct nftvm_nla_policy	*policy;
	bool				stateful;
	int	(*init)(struct nftvm_ctx *ctx, struct nftvm_expr *expr,
			const struct nlattr * const *tb);
	void	(*eval)(struct nftvm_expr *expr, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt);
	void	(*dump)(struct nftvm_nlbuf *b, const struct nftvm_expr *expr);
	int	(*validate)(struct nftvm_vctx *v,
			    const struct nftvm_expr *expr);
	void	(*activate)(struct nftvm_ctx *ctx, struct nftvm_expr *expr);
	void	(*deactivate)(struct nftvm_ctx *ctx, struct nftvm_expr *expr);
	void	(*destroy)(struct nftvm_ctx *ctx, struct nftvm_expr *expr);
	int	(*clone)(struct nftvm_expr *dst, const struct nftvm_expr *src);
};

struct nftvm_expr {
	const struct nftvm_expr_ops	*ops;
	unsigned char			data[] __attribute__((aligned(8)));
};

#define nftvm_expr_priv(e)	((void *)(e)->data)

static inline unsigned int nftvm_expr_size(const struct nftvm_expr_ops *ops)
{
	return NFTVM_ALIGN(sizeof(struct nftvm_expr) + ops->size, 8);
}

const struct nftvm_expr_ops *nftvm_expr_find(const struct nlattr *name);
int nftvm_expr_init_nested(struct nftvm_ctx *ctx, const struct nlattr *nest,
			   struct nftvm_expr *e, unsigned int room);
void nftvm_expr_dump_nested(struct nftvm_nlbuf *b, __u16 attr,
			    const struct nftvm_expr *e);

/* expressions attached to one set element, packed like a rule */
#define NFTVM_EXT_EXPRS	2	/* NFT_SET_EXPR_MAX */

struct nftvm_elem_ext {
	unsigned int	dlen;
	unsigned int	n;
	unsigned char	data[] __attribute__((aligned(8)));
};

#define nftvm_ext_for_each_expr(e, ext)					\
	for (e = (struct nftvm_expr *)(ext)->data;			\
	     (unsigned char *)e < (ext)->data + (ext)->dlen;		\
	     e = (struct nftvm_expr *)((unsigned char *)e +		\
				       nftvm_expr_size(e->ops)))

struct nftvm_set;
int nftvm_ext_parse(struct nftvm_ctx *ctx, const struct nlattr *one,
		    const struct nlattr *list, const struct nftvm_set *set,
		    struct nftvm_elem_ext **out);
void nftvm_ext_free(struct nftvm_elem_ext *ext);
struct nftvm_elem_ext *nftvm_ext_clone(const struct nftvm_elem_ext *tmpl);
bool nftvm_ext_same_types(const struct nftvm_elem_ext *a,
			  const struct nftvm_elem_ext *b);
bool nftvm_ext_eval(struct nftvm_elem_ext *ext, struct nftvm_regs *regs,
		    const struct nftvm_pktinfo *pkt);

extern const struct nftvm_expr_ops nftvm_immediate_ops;
extern const struct nftvm_expr_ops nftvm_cmp_ops;
extern const struct nftvm_expr_ops nftvm_bitwise_ops;
extern const struct nftvm_expr_ops nftvm_byteorder_ops;
extern const struct nftvm_expr_ops nftvm_range_ops;
extern const struct nftvm_expr_ops nftvm_payload_ops;
extern const struct nftvm_expr_ops nftvm_meta_ops;
extern const struct nftvm_expr_ops nftvm_lookup_ops;
extern const struct nftvm_expr_ops nftvm_counter_ops;
extern const struct nftvm_expr_ops nftvm_ct_ops;
extern const struct nftvm_expr_ops nftvm_exthdr_ops;
extern const struct nftvm_expr_ops nftvm_limit_ops;
extern const struct nftvm_expr_ops nftvm_quota_ops;
extern const struct nftvm_expr_ops nftvm_objref_ops;
extern const struct nftvm_expr_ops nftvm_log_ops;
extern const struct nftvm_expr_ops nftvm_reject_ops;
extern const struct nftvm_expr_ops nftvm_nat_ops;
extern const struct nftvm_expr_ops nftvm_masq_ops;
extern const struct nftvm_expr_ops nftvm_redir_ops;
extern const struct nftvm_expr_ops nftvm_notrack_ops;
extern const struct nftvm_expr_ops nftvm_hash_ops;
extern const struct nftvm_expr_ops nftvm_numgen_ops;
extern const struct nftvm_expr_ops nftvm_last_ops;
extern const struct nftvm_expr_ops nftvm_dynset_ops;
extern const struct nftvm_expr_ops nftvm_connlimit_ops;
extern const struct nftvm_expr_ops nftvm_queue_ops;
extern const struct nftvm_expr_ops nftvm_dup_ops;
extern const struct nftvm_expr_ops nftvm_fib_ops;
extern const struct nftvm_expr_ops nftvm_rt_ops;

/* shared by nat, masq and redir (expr_nat.c) */
int nftvm_nat_chain_check(const struct nftvm_ctx *ctx, unsigned int hooks);
int nftvm_nat_parse_flags(struct nftvm_ctx *ctx, const struct nlattr *attr,
			  __u32 *flags);
int nftvm_nat_parse_range(struct nftvm_ctx *ctx, const struct nlattr *amin,
			  const struct nlattr *amax, __u8 *min, __u8 *max,
			  unsigned int len);
void nftvm_nat_record(struct nftvm_regs *regs,
		      const struct nftvm_pktinfo *pkt, __u8 kind,
		      __u32 flags, const __u32 *pmin, const __u32 *pmax);

/* Does the packet have a conntrack entry (ct state new/established/..)? */
static inline bool nftvm_pkt_has_ct(const struct nftvm_pktinfo *pkt)
{
	return pkt->meta->ct_state &
	       (NFTVM_CT_ESTABLISHED | NFTVM_CT_RELATED | NFTVM_CT_NEW);
}

/* ------------------------------------------------------------ objects */

struct nftvm_obj;

/**
 * struct nftvm_obj_type - a stateful object family (counter, quota, ...)
 * @type:	NFT_OBJECT_*
 * @init:	parse NFTA_OBJ_DATA's attributes
 * @eval:	run from an objref; may set NFT_BREAK like an expression
 * @dump:	write the NFTA_OBJ_DATA attributes back
 */
struct nftvm_obj_type {
	__u32				type;
	unsigned int			size;
	unsigned int			maxattr;
	const struct nftvm_nla_policy	*policy;
	int	(*init)(struct nftvm_ctx *ctx, struct nftvm_obj *obj,
			const struct nlattr * const *tb);
	void	(*eval)(struct nftvm_obj *obj, struct nftvm_regs *regs,
			const struct nftvm_pktinfo *pkt);
	void	(*dump)(struct nftvm_nlbuf *b, const struct nftvm_obj *obj);
	/* a NEWOBJ for an existing object: take @newobj's settings at
	 * commit (NULL: the object stays as it is) */
	void	(*update)(struct nftvm_obj *obj,
			  const struct nftvm_obj *newobj);
};

struct nftvm_obj {
	struct nftvm_list		list;
	struct nftvm_table		*table;
	const struct nftvm_obj_type	*type;
	char				*name;
	__u64				handle;
	__u32				use;	/* objrefs and map elements */
	bool				is_new;
	void				*udata;
	__u32				udlen;
	unsigned char			data[] __attribute__((aligned(8)));
};

#define nftvm_obj_priv(o)	((void *)(o)->data)

extern const struct nftvm_obj_type nftvm_obj_counter_type;
extern const struct nftvm_obj_type nftvm_obj_quota_type;
extern const struct nftvm_obj_type nftvm_obj_limit_type;

struct nftvm_obj *nftvm_obj_lookup(const struct nftvm_table *table,
				   const struct nlattr *name, __u32 type);
struct nftvm_obj *nftvm_obj_find(const struct nftvm_table *table,
				 const char *name, __u32 type);
void nftvm_obj_free(struct nftvm_obj *obj);

/* ------------------------------------------------------------ objects */

struct nftvm_table {
	struct nftvm_list	list;
	struct nftvm_list	chains;
	struct nftvm_list	sets;
	struct nftvm_list	objs;
	char			*name;
	__u64			handle;
	__u64			hgen;		/* last chain/rule/set handle */
	__u32			flags;
	__u8			family;
	bool			is_new;		/* created in this batch */
	void			*udata;
	__u32			udlen;
};

enum nftvm_chain_type {
	NFTVM_CHAIN_FILTER,
	NFTVM_CHAIN_NAT,
	NFTVM_CHAIN_ROUTE,
	__NFTVM_CHAIN_TYPE_MAX
};

struct nftvm_chain {
	struct nftvm_list	list;
	struct nftvm_list	rules;
	struct nftvm_table	*table;
	char			*name;
	__u64			handle;
	__u32			use;		/* jumps and gotos to it */
	__u32			flags;
	__u32			id;		/* NFTA_CHAIN_ID, this batch */
	bool			is_new;
	bool			base;
	bool			bound;		/* NFT_CHAIN_BINDING: a rule
						 * jumps to it */
	__u8			hooknum;
	__u8			type;		/* enum nftvm_chain_type */
	__s32			prio;
	__u32			policy;
	__u64			reg_seq;	/* registration order */
	void			*udata;
	__u32			udlen;
	char			(*devs)[NFTVM_IFNAMSIZ];	/* netdev hooks */
	__u32			ndevs;
	/*
	 * base chain counters (NFTA_CHAIN_COUNTERS): the packets that met
	 * the policy; an update's new values wait in stats_new until
	 * commit
	 */
	bool			has_stats;
	bool			stats_pending;
	__u64			stats[2];	/* packets, bytes */
	__u64			stats_new[2];
	/* validation scratch, see validate.c */
	__u32			vepoch;
	__u8			vlevel;
};

void nftvm_chain_stats_commit(struct nftvm_chain *c);

struct nftvm_rule {
	struct nftvm_list	list;
	struct nftvm_chain	*chain;
	__u64			handle;
	__u32			id;		/* NFTA_RULE_ID, this batch */
	bool			is_new;
	__u32			dlen;		/* bytes of expressions */
	void			*udata;
	__u32			udlen;
	unsigned char		data[] __attribute__((aligned(8)));
};

#define nftvm_rule_for_each_expr(e, rule)				\
	for (e = (struct nftvm_expr *)(rule)->data;			\
	     (unsigned char *)e < (rule)->data + (rule)->dlen;		\
	     e = (struct nftvm_expr *)((unsigned char *)e +		\
				       nftvm_expr_size(e->ops)))

/* ------------------------------------------------------------ sets */

/* netlink carries timeouts in ms, the VM clock counts ns */
#define NFTVM_NSEC_PER_MSEC	1000000ull

struct nftvm_set;

/**
 * struct nftvm_elem - one set element
 * @words: the key (rounded up to 32-bit words), then the closing key
 *	   (only for elements with @has_key_end), then the map value
 */
struct nftvm_elem {
	struct nftvm_elem	*next;
	__u32			flags;		/* NFT_SET_ELEM_* */
	bool			has_key_end;
	bool			dynamic;	/* added by dynset */
	struct nftvm_verdict	verdict;	/* verdict maps */
	struct nftvm_obj	*obj;		/* object maps */
	__u64			timeout;	/* ns, 0: none */
	__u64			expires;	/* VM clock, 0: never */
	struct nftvm_elem_ext	*ext;		/* dynset expressions */
	void			*udata;		/* comment and such */
	__u32			udlen;
	__u32			words[];
};

static inline unsigned int nftvm_set_kwords(const struct nftvm_set *set);

/**
 * struct nftvm_set_ins - how an element comes in (NEWSETELEM)
 * @batch:	the batch's sequence number: backends keep state per batch
 */
struct nftvm_set_ins {
	__u64	batch;
};

/**
 * struct nftvm_set_type - a set backend
 * @insert:	add @e; if an equal element exists, store it in *@dup and
 *		return -EEXIST; with @ins (NEWSETELEM, NULL for dynset and
 *		undo) refuse overlaps with -ENOTEMPTY, and return
 *		-ECANCELED for an element to drop silently
 * @find:	the element equal to @tmpl (same key, end flag, key end)
 * @lookup:	the element matching a packet key, or NULL
 * @walk:	call @fn on every element until it returns non-zero
 */
struct nftvm_set_type {
	const char	*name;
	int	(*init)(struct nftvm_set *set);
	void	(*destroy)(struct nftvm_set *set);
	int	(*insert)(struct nftvm_set *set, struct nftvm_elem *e,
			  const struct nftvm_set_ins *ins,
			  struct nftvm_elem **dup);
	void	(*remove)(struct nftvm_set *set, struct nftvm_elem *e);
	struct nftvm_elem *(*find)(const struct nftvm_set *set,
				   const struct nftvm_elem *tmpl);
	const struct nftvm_elem *(*lookup)(const struct nftvm_set *set,
					   const __u32 *key);
	int	(*walk)(const struct nftvm_set *set,
			int (*fn)(const struct nftvm_set *set,
				  struct nftvm_elem *e, void *arg),
			void *arg);
};

extern const struct nftvm_set_type nftvm_set_hash_type;
extern const struct nftvm_set_type nftvm_set_interval_type;

struct nftvm_set_binding {
	struct nftvm_list	list;
	struct nftvm_chain	*chain;
};

struct nftvm_set {
	struct nftvm_list		list;
	struct nftvm_list		bindings;
	struct nftvm_table		*table;
	char				*name;
	__u64				handle;
	__u32				flags;
	__u32				ktype;
	__u32				klen;
	__u32				dtype;
	__u32				dlen;
	__u32				policy;
	__u32				size;
	__u32				id;
	__u32				gc_interval;
	__u32				objtype;
	__u64				timeout;
	__u8				field_len[NFTVM_SET_MAXFIELDS];
	__u8				field_count;
	__u32				use;		/* bound lookups */
	__u32				nelems;
	bool				is_new;
	const struct nftvm_set_type	*type;
	void				*priv;
	struct nftvm_elem		*catchall;
	struct nftvm_elem_ext		*exprs;	/* per-element templates */
	void				*udata;
	__u32				udlen;
};

static inline unsigned int nftvm_set_kwords(const struct nftvm_set *set)
{
	return NFTVM_DIV_ROUND_UP(set->klen, 4);
}

static inline __u32 *nftvm_elem_key(const struct nftvm_elem *e)
{
	return (__u32 *)e->words;
}

static inline __u32 *nftvm_elem_key_end(const struct nftvm_set *set,
					const struct nftvm_elem *e)
{
	return (__u32 *)e->words + nftvm_set_kwords(set);
}

static inline __u32 *nftvm_elem_data(const struct nftvm_set *set,
				     const struct nftvm_elem *e)
{
	return (__u32 *)e->words + nftvm_set_kwords(set) * 2;
}

static inline bool nftvm_set_is_vmap(const struct nftvm_set *set)
{
	return (set->flags & NFT_SET_MAP) && set->dtype == NFT_DATA_VERDICT;
}

struct nftvm_elem *nftvm_elem_alloc(const struct nftvm_set *set);
void nftvm_elem_free(const struct nftvm_set *set, struct nftvm_elem *e);
int nftvm_set_elems(const struct nftvm_set *set, struct nftvm_elem ***out);
void nftvm_set_free(struct nftvm_set *set);
int nftvm_set_bind(struct nftvm_ctx *ctx, struct nftvm_set *set,
		   struct nftvm_set_binding *b);
void nftvm_set_unbind(struct nftvm_ctx *ctx, struct nftvm_set *set,
		      struct nftvm_set_binding *b);
void nftvm_set_rebind(struct nftvm_ctx *ctx, struct nftvm_set *set,
		      struct nftvm_set_binding *b);
struct nftvm_set *nftvm_set_lookup(struct nftvm_ctx *ctx,
				   const struct nlattr *name,
				   const struct nlattr *id);
const struct nftvm_elem *nftvm_set_match(const struct nftvm_set *set,
					 const __u32 *key, __u64 now);

static inline bool nftvm_elem_expired(const struct nftvm_elem *e, __u64 now)
{
	return e->expires && now >= e->expires;
}

void nftvm_set_gc(struct nftvm_set *set, __u64 now);
void nftvm_gc(struct nftvm *vm);

/* ------------------------------------------------------------ transactions */

enum nftvm_trans_type {
	NFTVM_TRANS_NEWTABLE,
	NFTVM_TRANS_DELTABLE,
	NFTVM_TRANS_UPDTABLE,
	NFTVM_TRANS_NEWCHAIN,
	NFTVM_TRANS_DELCHAIN,
	NFTVM_TRANS_UPDCHAIN,
	NFTVM_TRANS_NEWRULE,
	NFTVM_TRANS_DELRULE,
	NFTVM_TRANS_NEWSET,
	NFTVM_TRANS_DELSET,
	NFTVM_TRANS_NEWELEM,
	NFTVM_TRANS_DELELEM,
	NFTVM_TRANS_NEWOBJ,
	NFTVM_TRANS_DELOBJ,
	NFTVM_TRANS_UPDOBJ,	/* obj: the object, owner: its new settings */
	__NFTVM_TRANS_MAX
};

/**
 * struct nftvm_trans - one undoable change of the running batch
 * @prev:	list position the object was unlinked from (deletions)
 * @old:	previous flags/policy (updates)
 */
struct nftvm_trans {
	struct nftvm_list	list;
	__u8			type;
	void			*obj;
	void			*owner;
	struct nftvm_list	*prev;
	__u32			old[2];
};

int nftvm_trans_add(struct nftvm_ctx *ctx, enum nftvm_trans_type type,
		    void *obj, void *owner, struct nftvm_list *prev);
struct nftvm_trans *nftvm_trans_last(struct nftvm *vm);
void nftvm_trans_commit(struct nftvm *vm);
void nftvm_trans_abort(struct nftvm *vm);

/* ------------------------------------------------------------ the VM */

struct nftvm_hookent {
	__s32			prio;
	__u64			seq;
	struct nftvm_chain	*chain;
};

struct nftvm_hooklist {
	struct nftvm_hookent	*ents;
	unsigned int		n;
};

#define NFTVM_NFPROTO_MAX	13	/* NFPROTO_NUMPROTO */
#define NFTVM_HOOK_MAX		8

struct nftvm {
	struct nftvm_list	tables;
	struct nftvm_list	trans;
	__u32			genid;
	__u64			table_handle;
	__u64			reg_seq;
	__u32			vepoch;
	__u64			now;		/* the clock, ns */
	__u64			batch_seq;	/* batches seen */
	__u64			chain_seq;	/* names of bound chains */
	bool			hooks_dirty;
	struct nftvm_hooklist	hooks[NFTVM_NFPROTO_MAX][NFTVM_HOOK_MAX];
};

/**
 * struct nftvm_ctx - the message being processed
 * @bad_attr:	first attribute blamed for the error, for struct nftvm_err
 */
struct nftvm_ctx {
	struct nftvm		*vm;
	const struct nlattr	*bad_attr;
	__u16			nlflags;
	__u8			family;
	bool			in_batch;	/* may log changes */
	bool			destroy;	/* NFT_MSG_DESTROY*: see */
						/* nftvm_missing() */
	struct nftvm_table	*table;
	struct nftvm_chain	*chain;
};

/* Record @attr as the culprit (the innermost one wins) and return @err. */
static inline int nftvm_fail(struct nftvm_ctx *ctx, const struct nlattr *attr,
			     int err)
{
	if (!ctx->bad_attr && attr)
		ctx->bad_attr = attr;
	return err;
}

/*
 * The object a DEL or DESTROY names is not there: -ENOENT for DEL, success
 * for DESTROY (only the named object itself; a missing table or chain it
 * lives in is still -ENOENT, as in the kernel).
 */
static inline int nftvm_missing(struct nftvm_ctx *ctx,
				const struct nlattr *attr)
{
	if (ctx->destroy)
		return 0;
	return nftvm_fail(ctx, attr, -NFTVM_ENOENT);
}

struct nftvm_table *nftvm_table_lookup(struct nftvm *vm,
				       const struct nlattr *name, __u8 family);
struct nftvm_table *nftvm_table_find(const struct nftvm *vm, __u8 family,
				     const char *name);
struct nftvm_chain *nftvm_chain_lookup(const struct nftvm_table *table,
				       const struct nlattr *name);
struct nftvm_chain *nftvm_chain_lookup_id(const struct nftvm_table *table,
					  const struct nlattr *id);
struct nftvm_chain *nftvm_chain_find(const struct nftvm_table *table,
				     const char *name);
struct nftvm_set *nftvm_set_find(const struct nftvm_table *table,
				 const char *name);
void nftvm_table_free(struct nftvm_table *table);
void nftvm_chain_free(struct nftvm_chain *chain);
void nftvm_rule_free(struct nftvm_ctx *ctx, struct nftvm_rule *rule);
void nftvm_rule_deactivate(struct nftvm_ctx *ctx, struct nftvm_rule *rule);
void nftvm_rule_activate(struct nftvm_ctx *ctx, struct nftvm_rule *rule);
int nftvm_rule_del(struct nftvm_ctx *ctx, struct nftvm_rule *rule);
void nftvm_hooks_rebuild(struct nftvm *vm);
void nftvm_hooks_free(struct nftvm *vm);

/* message handlers, one per NFT_MSG_* (batch.c dispatches) */
typedef int (*nftvm_msg_fn)(struct nftvm_ctx *ctx, const struct nlattr **tb);

int nftvm_newtable(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_deltable(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_chain_bind_sweep(struct nftvm_ctx *ctx);
int nftvm_newchain(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_delchain(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_newrule(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_delrule(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_newset(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_delset(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_newsetelem(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_delsetelem(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_newobj(struct nftvm_ctx *ctx, const struct nlattr **tb);
int nftvm_delobj(struct nftvm_ctx *ctx, const struct nlattr **tb);

extern const struct nftvm_nla_policy nftvm_table_policy[NFTA_TABLE_MAX + 1];
extern const struct nftvm_nla_policy nftvm_chain_policy[NFTA_CHAIN_MAX + 1];
extern const struct nftvm_nla_policy nftvm_rule_policy[NFTA_RULE_MAX + 1];
extern const struct nftvm_nla_policy nftvm_set_policy[NFTA_SET_MAX + 1];
extern const struct nftvm_nla_policy
	nftvm_set_elem_list_policy[NFTA_SET_ELEM_LIST_MAX + 1];
extern const struct nftvm_nla_policy nftvm_obj_policy[NFTA_OBJ_MAX + 1];

/* ------------------------------------------------------------ validation */

enum nftvm_vmode {
	NFTVM_VALIDATE_PROBE,	/* does the rule jump at all? (no walk) */
	NFTVM_VALIDATE_DEPTH,	/* is the jump stack deep enough? */
};

struct nftvm_vctx {
	struct nftvm		*vm;
	enum nftvm_vmode	mode;
	unsigned int		level;
	__u32			epoch;
	bool			jumped;		/* a jump or goto was seen, or
						 * an expression with hook
						 * limits: walk the table */
	const struct nftvm_chain *base;	/* the walk's base chain */
};

int nftvm_validate_hooks(struct nftvm_vctx *v, unsigned int hooks);

int nftvm_validate_verdict(struct nftvm_vctx *v,
			   const struct nftvm_verdict *vd);
int nftvm_validate_rule_jumps(struct nftvm_ctx *ctx,
			      const struct nftvm_rule *rule);
int nftvm_validate_set_jumps(struct nftvm_ctx *ctx,
			     const struct nftvm_set *set,
			     const struct nftvm_elem *e);
int nftvm_validate_table(struct nftvm_ctx *ctx, struct nftvm_table *table);

/* ------------------------------------------------------------ dumps */

/**
 * struct nftvm_dump - one GET request being answered (dump.c)
 * @ctx:	message context, receives the culprit attribute on error
 * @nlflags:	the request's flags (NLM_F_DUMP: a dump)
 * @seq:	the request's sequence number, echoed in every reply
 * @portid:	the requester's port, echoed in every reply
 * @fn:		receives each reply message
 * @b:		scratch buffer the current reply is built in
 */
struct nftvm_dump {
	struct nftvm		*vm;
	struct nftvm_ctx	ctx;
	__u16			nlflags;
	__u8			family;
	__u32			seq;
	__u32			portid;
	nftvm_reply_fn		fn;
	void			*arg;
	struct nftvm_nlbuf	b;
};

typedef int (*nftvm_get_fn)(struct nftvm_dump *d, const struct nlattr **tb);

struct nlmsghdr *nftvm_dump_msg_start(struct nftvm_dump *d, __u16 event,
				      __u16 flags, __u8 family);
int nftvm_dump_msg_end(struct nftvm_dump *d, struct nlmsghdr *nlh);
int nftvm_dump_done(struct nftvm_dump *d);
struct nftvm_set *nftvm_set_find_attr(const struct nftvm_table *t,
				      const struct nlattr *name);

int nftvm_getgen(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_gettable(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_getchain(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_getrule(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_getset(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_getsetelem(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_getobj(struct nftvm_dump *d, const struct nlattr **tb);
int nftvm_getflowtable(struct nftvm_dump *d, const struct nlattr **tb);

#endif /* NFTVM_INT_H */
