/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SEMDIFF_SD_INT_H
#define SEMDIFF_SD_INT_H

/*
 * libsemdiff internals: the model of a compiled ruleset (model.c), the
 * BDD variables of everything a ruleset reads or writes (vars.c), bit
 * vectors of BDDs (bvec.c), one symbolic interpreter per VM expression
 * (expr.c, expr_stmt.c), chain and hook evaluation (chain.c),
 * comparison (compare.c), counterexamples (cex.c, fields.c) and the
 * side-by-side view (view.c).
 *
 * BDD ownership: every BDD held in a variable or struct owns one BuDDy
 * reference (bdd_addref); the b_* helpers return referenced results and
 * b_put() replaces a held BDD, dropping the old reference.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <bdd.h>

struct nftnl_rule;
struct nftnl_expr;

/* --- model.c: a compiled ruleset as tables/chains/rules/sets --- */

#define SD_KEY_MAX	64	/* bytes of a set key or data (register file) */

struct sd_elem {
	uint8_t		key[SD_KEY_MAX];
	uint8_t		key_end[SD_KEY_MAX];
	uint8_t		data[SD_KEY_MAX];
	uint32_t	flags;		/* NFT_SET_ELEM_* */
	bool		has_end;	/* key_end valid (concatenated ranges) */
	bool		has_verdict;
	int		verdict;	/* NF_ACCEPT, NFT_JUMP, ... */
	char		*chain;
};

struct sd_set {
	char		*name;
	uint32_t	id;
	uint32_t	flags;		/* NFT_SET_* */
	uint32_t	key_len;
	uint32_t	data_len;
	uint32_t	data_type;
	uint8_t		field_len[16];
	unsigned int	nfields;
	bool		dynamic;	/* updated from the packet path */
	struct sd_elem	*elems;
	unsigned int	nelems, cap;
};

struct sd_chain;

/**
 * struct sd_rule - one rule
 * @nl: its VM code (libnftnl)
 * @text: the source line (nft text) it was compiled from
 * @line: that line's number in the source, 0 if unknown
 * @free_base: ordinal of its first free choice among its chain's rules
 *             (free choices of both sides pair up by this ordinal)
 */
struct sd_rule {
	struct nftnl_rule	*nl;
	char			*text;
	unsigned int		line;
	unsigned int		index;
	unsigned int		free_base;
	uint64_t		handle;		/* kernel/VM rule handle, 0: none */
	unsigned int		src_line;	/* iptables-save line, 0: none */
	char			*src_text;	/* that line */
	uint64_t		vm_handle;	/* its handle in the replay VM */
	struct sd_chain		*chain;
};

struct sd_table;

struct sd_chain {
	char		*name;
	bool		base;
	uint32_t	hook;
	int32_t		prio;
	char		*type;
	int		policy;		/* NF_ACCEPT / NF_DROP */
	unsigned int	order;		/* declaration order (priority ties) */
	struct sd_rule	**rules;
	unsigned int	nrules, cap;
	struct sd_table	*table;
	unsigned int	busy;		/* evaluation depth guard */
	unsigned int	src_line;	/* iptables-save ":NAME POLICY" line */
	char		*src_text;
};

struct sd_table {
	uint8_t		family;
	char		*name;
	struct sd_chain	**chains;
	unsigned int	nchains, cap;
	struct sd_set	**sets;
	unsigned int	nsets, scap;
};

/* Netlink messages one after another (NLMSG_ALIGNed). */
struct sd_msgs {
	unsigned char	*buf;
	size_t		len, cap;
};

int sd_msgs_add(struct sd_msgs *m, const void *msg, size_t len);

/**
 * struct sd_ruleset - one side of a diff
 * @label: what the user named (a path or "kernel")
 * @kind: "iptables-save", "nft", "kernel" or "VM state"
 * @untranslated: iptables rules xlate could not translate (not modelled)
 * @dump: the messages the model was built from (a compiled batch's
 *        object messages, or a kernel/VM dump), for the replay
 * @state: the state file of a "VM state" side
 */
struct sd_ruleset {
	char		*label;
	const char	*kind;
	struct sd_table	**tables;
	unsigned int	ntables, cap;
	unsigned int	nrules;
	unsigned int	untranslated;
	char		*notes;		/* xlate diagnostics, for the report */
	struct sd_msgs	dump;
	char		*state;
};

struct sd_ruleset *sd_ruleset_alloc(const char *label);
void sd_ruleset_free(struct sd_ruleset *rs);
struct sd_table *sd_table_get(struct sd_ruleset *rs, uint8_t family,
			      const char *name);
struct sd_chain *sd_chain_get(struct sd_table *t, const char *name);
struct sd_chain *sd_chain_find(const struct sd_table *t, const char *name);
struct sd_set *sd_set_find(const struct sd_table *t, const char *name,
			   uint32_t id, bool use_id);
/* Build the model from one nfnetlink message of a batch. */
struct sd_msg_src {
	const char	*text;		/* source line of the message */
	unsigned int	line;
	bool		dump;		/* a dump's NEWRULE: rules in order */
};
int sd_model_add_msg(struct sd_ruleset *rs, const void *nlh,
		     const struct sd_msg_src *src, char *err, size_t errlen);
void sd_model_finish(struct sd_ruleset *rs);
/* A numeric attribute of any width (u8 ones, such as the ct direction,
 * the exthdr type or the reject code, read 0 through get_u32); 0 when
 * not set. */
uint32_t sd_attr_u32(const struct nftnl_expr *e, uint16_t type);
void sd_rule_where(char *buf, size_t len, const struct sd_ruleset *rs,
		   const struct sd_rule *r);

/* --- load.c --- */
enum sd_kind { SD_KIND_AUTO, SD_KIND_IPT, SD_KIND_NFT, SD_KIND_KERNEL,
	       SD_KIND_STATE };
int sd_load(struct sd_ruleset *rs, const char *path, enum sd_kind kind,
	    int ipt_family, char *err, size_t errlen);

/* --- live.c: the live ruleset (kernel) or an offline VM state file --- */
#define SD_STATE_MAGIC	"NFTKIT-VMSTATE1\n"	/* nftc/offline.c */
bool sd_is_state_file(const char *data, size_t size);
/* Dump the kernel's ruleset (@state NULL) or the VM of @state. */
int sd_load_live(struct sd_ruleset *rs, const char *state, char *err,
		 size_t errlen);

/* --- vars.c: BDD variables of what the rulesets read and write --- */

enum sd_space_kind {
	SP_PAYLOAD,	/* a: payload base */
	SP_META,	/* a: NFT_META_* */
	SP_CT,		/* a: NFT_CT_*, b: direction + 1 (0: none) */
	SP_EXTHDR,	/* a: op << 8 | type, b: 1 for the present flag */
	SP_FIB,		/* a: flags, b: result */
	SP_RT,		/* a: key */
	SP_SOCKET,	/* a: key */
	SP_NAT,		/* effects of nat/masquerade/redirect */
	SP_EFFECT,	/* a: effect id (notrack, ...) */
	SP_FREE,	/* free choices (stateful expressions) */
	__SP_MAX
};

#define SD_SPACE_BYTES	512

struct sd_space {
	enum sd_space_kind	kind;
	uint32_t		a, b;
	char			*label;		/* SP_FREE: pairing key */
	unsigned int		nbytes;		/* bytes used so far */
	bool			used[SD_SPACE_BYTES];
	int			*var;		/* first var of each byte */
	uint8_t			family;		/* table family seen first */
	uint8_t			pref;		/* SP_FREE: 0 none, 1/2: 0/1 */
};

struct sd_vars {
	struct sd_space	*sp;
	unsigned int	n, cap;
	int		nvars;
	bool		frozen;
	bool		oom;
};

int sd_space_id(struct sd_vars *v, enum sd_space_kind kind, uint32_t a,
		uint32_t b, const char *label);
/* Note that bytes [off, off+len) of space @id are read or written. */
int sd_space_use(struct sd_vars *v, int id, unsigned int off,
		 unsigned int len);
/* Give variables to everything noted, in the canonical order. */
int sd_vars_freeze(struct sd_vars *v);
/* BDD variable of bit @bit (0 = MSB) of byte @off of space @id. */
int sd_var_of(struct sd_vars *v, int id, unsigned int off, unsigned int bit);
void sd_vars_fini(struct sd_vars *v);

/* --- bvec.c: bit vectors (memory order, bit 0 = MSB of byte 0) --- */
static inline BDD b_ref(BDD x) { return bdd_addref(x); }
static inline void b_free(BDD x) { bdd_delref(x); }
static inline void b_put(BDD *dst, BDD v) { bdd_delref(*dst); *dst = v; }
BDD b_and(BDD a, BDD b);
BDD b_or(BDD a, BDD b);
BDD b_not(BDD a);
BDD b_xor(BDD a, BDD b);
BDD b_ite(BDD c, BDD t, BDD e);
void b_andin(BDD *dst, BDD b);
void b_orin(BDD *dst, BDD b);
BDD bv_eq_const(const BDD *x, const uint8_t *c, unsigned int nbytes);
BDD bv_eq(const BDD *x, const BDD *y, unsigned int nbits);
/* Lexicographic (memcmp) compare with a constant. */
BDD bv_lt_const(const BDD *x, const uint8_t *c, unsigned int nbytes,
		bool or_equal);
BDD bv_gt_const(const BDD *x, const uint8_t *c, unsigned int nbytes,
		bool or_equal);
BDD bv_range_const(const BDD *x, const uint8_t *lo, const uint8_t *hi,
		   unsigned int nbytes);
/* Unsigned x < y over @nbits bits (MSB first). */
BDD bv_lt(const BDD *x, const BDD *y, unsigned int nbits);

/* --- expr.c / expr_stmt.c / chain.c: symbolic evaluation --- */

#define SD_REG_BYTES	64
#define SD_REG_BITS	(SD_REG_BYTES * 8)

struct sd_verdict {
	int		code;		/* NF_ACCEPT, NF_DROP, NFT_JUMP, ... */
	const char	*chain;
	char		key[96];	/* outcome key of a terminal verdict */
};

struct sd_pair {
	BDD			cond;
	struct sd_verdict	v;
};

/* A step of a concrete trace (counterexample replay). */
struct sd_step {
	const struct sd_rule	*rule;		/* NULL: policy / fall */
	const struct sd_chain	*chain;
	char			what[96];
};

#define SD_TRACE_MAX	64

struct sd_trace {
	struct sd_step	step[SD_TRACE_MAX];
	unsigned int	n;
};

struct sd_outcome {
	char	key[96];
	BDD	set;
};

struct sd_outcomes {
	struct sd_outcome	*o;
	unsigned int		n, cap;
};

/**
 * struct sd_eval - symbolic evaluation of one side through one hook
 * @cur: current value of every space, per bit (NULL: still the inputs)
 * @regs: the register file of the rule being evaluated
 * @alive: packets for which the rule is still running
 * @given: packets given a verdict by the rule so far
 * @family: the hook's family (NFPROTO_IPV4, ...)
 * @trace: record the rules that decide (counterexample replay)
 */
struct sd_eval {
	struct sd_vars		*vars;
	const struct sd_ruleset	*rs;
	BDD			**cur;
	unsigned int		ncur;
	BDD			regs[SD_REG_BITS];
	BDD			alive;
	BDD			in;	/* packets reaching the rule (writes) */
	struct sd_pair		*pairs;
	unsigned int		npairs, pcap;
	const struct sd_rule	*rule;
	unsigned int		free_ord;
	uint8_t			family;
	bool			scan;
	struct sd_trace		*trace;
	char			*err;
	size_t			errlen;
	int			error;
};

struct sd_expr_ops {
	const char	*name;
	/* scan: note spaces used; eval: interpret. <0 on error. */
	int		(*eval)(struct sd_eval *ev, struct nftnl_expr *e);
};

const struct sd_expr_ops *sd_expr_ops_find(const char *name);
int sd_eval_error(struct sd_eval *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Register helpers (expr.c) */
int sd_reg_off(struct sd_eval *ev, uint32_t reg, unsigned int len);
BDD *sd_reg_bits(struct sd_eval *ev, uint32_t reg, unsigned int len);
void sd_reg_set_const(struct sd_eval *ev, int off, const uint8_t *d,
		      unsigned int len);
void sd_reg_load_space(struct sd_eval *ev, int off, int space,
		       unsigned int soff, unsigned int len);
void sd_space_write(struct sd_eval *ev, int space, unsigned int soff,
		    const BDD *bits, unsigned int len);
BDD sd_space_bit(struct sd_eval *ev, int space, unsigned int soff,
		 unsigned int bit);
int sd_free_bits(struct sd_eval *ev, const char *what, BDD *out,
		 unsigned int nbits);
void sd_add_pair(struct sd_eval *ev, BDD cond, const struct sd_verdict *v);
void sd_terminal(struct sd_eval *ev, const char *key);
extern const struct sd_expr_ops sd_stmt_ops[];
int sd_nat_const(struct sd_eval *ev, uint8_t type, uint32_t flags,
		 const uint8_t *amin, const uint8_t *amax, unsigned int alen,
		 const uint8_t *pmin, const uint8_t *pmax);
/* xt.c: iptables-nft's xt compat match/target expressions */
int sd_expr_xt(struct sd_eval *ev, struct nftnl_expr *e);

int sd_eval_rule(struct sd_eval *ev, const struct sd_rule *r, BDD in);
void sd_eval_init(struct sd_eval *ev, struct sd_vars *vars,
		  const struct sd_ruleset *rs, uint8_t family);
void sd_eval_fini(struct sd_eval *ev);

/* A hook of a family: where base chains of both sides meet. */
struct sd_hook {
	uint8_t		family;		/* ip, ip6, arp, bridge, netdev */
	uint32_t	hook;
};

int sd_eval_hook(struct sd_eval *ev, const struct sd_hook *h, BDD in,
		 struct sd_outcomes *out);
/* Every (family, hook) with a base chain in @rs, appended to @h. */
unsigned int sd_hooks_of(const struct sd_ruleset *rs, struct sd_hook *h,
			 unsigned int n, unsigned int max);
void sd_outcomes_add(struct sd_outcomes *o, const char *key, BDD set);
void sd_outcomes_fini(struct sd_outcomes *o);
BDD sd_hook_constraint(struct sd_eval *ev, uint8_t family);
const char *sd_family_name(uint8_t family);
const char *sd_hook_name(uint8_t family, uint32_t hook);

/* --- fields.c / cex.c --- */
struct sd_meta_key {
	const char	*name;
	uint8_t		len;
	uint8_t		fmt;	/* enum sd_fmt */
};
enum sd_fmt { FMT_DEC, FMT_HEX, FMT_STR, FMT_IP4, FMT_IP6, FMT_CTSTATE,
	      FMT_CTSTATUS, FMT_MAC, FMT_BEDEC, __FMT_MAX };
const struct sd_meta_key *sd_meta_key(uint32_t key);
const struct sd_meta_key *sd_ct_key(uint32_t key, uint8_t family);
void sd_format_value(FILE *f, enum sd_fmt fmt, const uint8_t *v,
		     unsigned int len);

/* A packet: a value for every BDD variable (0/1). */
struct sd_packet {
	signed char	*bit;	/* per var: 0, 1, or -1 (don't care) */
	int		nvars;
};
int sd_packet_from(struct sd_packet *p, BDD set, int nvars);
/* @set narrowed to the free choices a fresh VM makes, where it can be. */
BDD sd_prefer_fresh(const struct sd_vars *v, BDD set);
BDD sd_packet_cube(const struct sd_packet *p);
void sd_packet_fini(struct sd_packet *p);
void sd_print_packet(FILE *f, struct sd_vars *v, const struct sd_packet *p,
		     uint8_t family);

/* --- replay.c: counterexamples through the VM's trace --- */
struct nftvm;
struct nftc_offline;
struct nftc_ctx;

struct sd_replay_side {
	struct nftvm		*vm;
	struct nftc_offline	*off;	/* a state file's, or NULL */
	bool			shared;	/* the other side's VM */
	bool			relisted;	/* built from the listing */
	char			why[256];	/* no VM: why */
};

struct sd_replay {
	bool			open;
	struct nftc_ctx		*ctx;
	struct sd_replay_side	side[2];
	unsigned int		confirmed, disagree, stateful, unreplayed;
};

void sd_replay_cex(struct sd_replay *rp, FILE *f, struct sd_ruleset **rs,
		   const struct sd_hook *h, const char *sel,
		   const char *const key[2], bool effect);
void sd_replay_fini(struct sd_replay *rp);

/* --- view.c --- */
void sd_view_print(FILE *f, const struct sd_ruleset *a,
		   const struct sd_ruleset *b, bool only_diff,
		   unsigned int width);

#endif
