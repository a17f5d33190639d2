/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_DATATYPE_H
#define NFTC_DATATYPE_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include "value.h"
#include "fmt.h"
#include "location.h"

struct expr;
struct erec_queue;
struct nftc_resolver;
struct output_ctx;

/**
 * enum datatype_id - type identifiers
 *
 * The numbers are part of the ABI with stock nft: they are stored in set
 * key types (NFTA_SET_KEY_TYPE) and concatenation type ids, so a set
 * written by either tool reads back right in the other. Never renumber.
 */
enum datatype_id {
	TYPE_INVALID,
	TYPE_VERDICT,
	TYPE_NFPROTO,
	TYPE_BITMASK,
	TYPE_INTEGER,
	TYPE_STRING,
	TYPE_LLADDR,
	TYPE_IPADDR,
	TYPE_IP6ADDR,
	TYPE_ETHERADDR,
	TYPE_ETHERTYPE,
	TYPE_ARPOP,
	TYPE_INET_PROTOCOL,
	TYPE_INET_SERVICE,
	TYPE_ICMP_TYPE,
	TYPE_TCP_FLAG,
	TYPE_DCCP_PKTTYPE,
	TYPE_MH_TYPE,
	TYPE_TIME,
	TYPE_MARK,
	TYPE_IFINDEX,
	TYPE_ARPHRD,
	TYPE_REALM,
	TYPE_CLASSID,
	TYPE_UID,
	TYPE_GID,
	TYPE_CT_STATE,
	TYPE_CT_DIR,
	TYPE_CT_STATUS,
	TYPE_ICMP6_TYPE,
	TYPE_CT_LABEL,
	TYPE_PKTTYPE,
	TYPE_ICMP_CODE,
	TYPE_ICMPV6_CODE,
	TYPE_ICMPX_CODE,
	TYPE_DEVGROUP,
	TYPE_DSCP,
	TYPE_ECN,
	TYPE_FIB_ADDR,
	TYPE_BOOLEAN,
	TYPE_CT_EVENTBIT,
	TYPE_IFNAME,
	TYPE_IGMP_TYPE,
	TYPE_TIME_DATE,
	TYPE_TIME_HOUR,
	TYPE_TIME_DAY,
	TYPE_CGROUPV2,
	__TYPE_MAX
};
#define TYPE_MAX		(__TYPE_MAX - 1)

/* Concatenated types: each member's id in TYPE_BITS bits. */
#define TYPE_BITS		6
#define TYPE_MASK		((1u << TYPE_BITS) - 1)

/**
 * struct symbolic_constant - a name for a value, e.g. "ssh" = 22
 */
struct symbolic_constant {
	const char	*identifier;
	uint64_t	value;
};
#define SYMBOL_LIST_END		{ .identifier = NULL }

/**
 * struct symbol_table - the named constants of a type
 * @base: print base for "describe" (10 or 16)
 * @byteorder: order the constants are written in
 * @size: width in bits
 * @symbols: NULL-terminated array
 */
struct symbol_table {
	unsigned int			base;
	enum byteorder			byteorder;
	unsigned int			size;
	const struct symbolic_constant	*symbols;
};

enum datatype_flags {
	DTYPE_F_ALLOC		= (1 << 0),	/* heap allocated (concat) */
	DTYPE_F_PREFIX		= (1 << 1),	/* accepts "/len" prefixes */
};

/**
 * struct dt_parse_ctx - what parsing a constant may consult
 * @erq: where errors go
 * @resolver: host/service/protocol names; NULL means numeric only
 */
struct dt_parse_ctx {
	struct erec_queue		*erq;
	const struct nftc_resolver	*resolver;
};

/**
 * struct datatype - one type of the nft language
 * @type: id (ABI, see enum datatype_id)
 * @name: name as in "type ipv4_addr"
 * @desc: human description ("IPv4 address")
 * @byteorder: register byte order of values of this type
 * @size: width in bits, 0 for variable size (strings)
 * @subtypes: number of members for concatenations
 * @flags: enum datatype_flags
 * @basetype: type this one refines (integer, bitmask, string)
 * @basefmt: printf format for numeric printing (e.g. "0x%.8" PRIx64)
 * @sym_tbl: symbolic constants, tried before @parse and @basetype
 * @parse: parse symbol text into a constant; NULL means use @basetype's
 * @print: print a constant; NULL means symbolic table, then @basetype
 * @refcnt: references, for DTYPE_F_ALLOC types only
 */
struct datatype {
	enum datatype_id		type;
	const char			*name;
	const char			*desc;
	enum byteorder			byteorder;
	unsigned int			size;
	unsigned int			subtypes;
	unsigned int			flags;
	const struct datatype		*basetype;
	const char			*basefmt;
	const struct symbol_table	*sym_tbl;
	int				(*parse)(struct dt_parse_ctx *ctx,
						 const struct datatype *dtype,
						 const struct expr *sym,
						 struct expr **res);
	void				(*print)(const struct expr *expr,
						 struct output_ctx *octx);
	unsigned int			refcnt;
};

/* Every built-in type, indexed by enum datatype_id (NULL where none). */
extern const struct datatype *const datatypes[__TYPE_MAX];

extern const struct datatype invalid_type;
extern const struct datatype verdict_type;
extern const struct datatype nfproto_type;
extern const struct datatype bitmask_type;
extern const struct datatype integer_type;
extern const struct datatype string_type;
extern const struct datatype lladdr_type;
extern const struct datatype ipaddr_type;
extern const struct datatype ip6addr_type;
extern const struct datatype etheraddr_type;
extern const struct datatype ethertype_type;
extern const struct datatype arpop_type;
extern const struct datatype inet_protocol_type;
extern const struct datatype inet_service_type;
extern const struct datatype icmp_type_type;
extern const struct datatype tcp_flag_type;
extern const struct datatype dccp_pkttype_type;
extern const struct datatype mh_type_type;
extern const struct datatype time_type;
extern const struct datatype mark_type;
extern const struct datatype ifindex_type;
extern const struct datatype arphrd_type;
extern const struct datatype realm_type;
extern const struct datatype classid_type;
extern const struct datatype uid_type;
extern const struct datatype gid_type;
extern const struct datatype ct_state_type;
extern const struct datatype ct_dir_type;
extern const struct datatype ct_status_type;
extern const struct datatype icmp6_type_type;
extern const struct datatype ct_label_type;
extern const struct datatype pkttype_type;
extern const struct datatype icmp_code_type;
extern const struct datatype icmpv6_code_type;
extern const struct datatype icmpx_code_type;
extern const struct datatype devgroup_type;
extern const struct datatype dscp_type;
extern const struct datatype ecn_type;
extern const struct datatype fib_addr_type;
extern const struct datatype boolean_type;
extern const struct datatype ct_event_type;
extern const struct datatype ifname_type;
extern const struct datatype igmp_type_type;
extern const struct datatype date_type;
extern const struct datatype hour_type;
extern const struct datatype day_type;
extern const struct datatype cgroupv2_type;
/* Not in the id space: */
extern const struct datatype priority_type;
extern const struct datatype policy_type;

const struct datatype *datatype_lookup(enum datatype_id type);
const struct datatype *datatype_lookup_byname(const char *name);

/* Does @dtype derive from (or equal) @base? */
bool datatype_is_a(const struct datatype *dtype, const struct datatype *base);
/* Are values of @a usable where @b is expected (same type or base)? */
bool datatype_compatible(const struct datatype *a, const struct datatype *b);

/*
 * Parse the text of symbol expression @sym as a constant of @dtype:
 * symbolic table first, then @dtype->parse, then the base types. On
 * success *res is a new EXPR_VALUE (or EXPR_PREFIX/EXPR_SET for names that
 * resolve to several addresses). On failure an error located at @sym is
 * queued in ctx->erq and -1 returned.
 */
int datatype_parse_symbol(struct dt_parse_ctx *ctx,
			  const struct datatype *dtype,
			  const struct expr *sym, struct expr **res);

/* Look up @name in @tbl. Returns 0 and sets *value on success. */
int symbol_table_lookup(const struct symbol_table *tbl, const char *name,
			uint64_t *value);

/*
 * Concatenated type of @n member types; returns a DTYPE_F_ALLOC type
 * with one reference.
 */
const struct datatype *concat_type_alloc(const struct datatype **types,
					 unsigned int n);
const struct datatype *concat_type_lookup(uint32_t id);
const struct datatype *datatype_get(const struct datatype *dtype);
void datatype_free(const struct datatype *dtype);

/* Write "describe" style information about @dtype into @f. */
void datatype_describe(FILE *f, const struct datatype *dtype);

/**
 * struct nftc_resolver - name resolution, injected into the compiler
 * @service: name ("ssh") -> port in host order
 * @protocol: name ("tcp") -> protocol number
 * @host: name -> up to @max addresses of @family (AF_INET/AF_INET6)
 *        as network-order bytes; returns the count
 * @priv: opaque for the callbacks
 *
 * The compiler core does no I/O: the CLI installs a resolver backed by
 * /etc/services and getaddrinfo(), tests install the numeric-only one.
 * Every callback returns a negative errno when the name is unknown.
 */
struct nftc_resolver {
	int	(*service)(void *priv, const char *name, uint16_t *port);
	int	(*protocol)(void *priv, const char *name, uint8_t *proto);
	int	(*host)(void *priv, const char *name, int family,
			uint8_t (*addrs)[16], unsigned int max);
	void	*priv;
	/* Added: user, group and interface names (NULL: numeric only). */
	int	(*uid)(void *priv, const char *name, uint32_t *uid);
	int	(*gid)(void *priv, const char *name, uint32_t *gid);
	int	(*ifindex)(void *priv, const char *name, uint32_t *index);
};

/*
 * The compiled-in protocol table (Debian's /etc/protocols), in number
 * order, used to print protocol names and by "describe inet_proto".
 * NULL-terminated.
 */
extern const struct symbolic_constant nftc_builtin_protocols[];
/* First name of protocol @proto, NULL if none. */
const char *nftc_protocol_name(unsigned int proto);
/* First name of port @port (host order), NULL if none. */
const char *nftc_service_name(unsigned int port);

struct list_tmpl_rec;

/**
 * struct output_ctx - how constants are printed (listing, describe)
 * @f: stream written to
 * @flags: enum nftc_output_flags
 */
struct output_ctx {
	FILE		*f;
	unsigned int	flags;
	/* Added by the printer: family of the table being printed (set by
	 * nftc_print_table/rule; 0 when unknown). */
	unsigned int	family;
	/* Listing: a template being recorded (list_tmpl.h), or NULL */
	struct list_tmpl_rec *rec;
};

/*
 * fputs()/fputc() for the printers' many short tokens: a rule line is
 * some ten fputs() calls, each a strlen, a lock check and
 * _IO_file_xsputn (~110 instructions). Writing the characters into the
 * stream's buffer with putc_unlocked() is a few per character; the
 * printers run single-threaded on a stream they own. Same bytes, same
 * buffering, same error state.
 */
static inline void nftc_puts(const char *s, FILE *f)
{
	for (; *s; s++)
		putc_unlocked(*s, f);
}

static inline void nftc_putc(int c, FILE *f)
{
	putc_unlocked(c, f);
}

/* "%" PRIu64 without printf */
static inline void nftc_putu(uint64_t v, FILE *f)
{
	char buf[24];

	fmt_u64(buf, v);
	nftc_puts(buf, f);
}

enum nftc_output_flags {
	NFTC_OUTPUT_NUMERIC_PROTO	= (1 << 0),	/* -p: 6, not tcp */
	NFTC_OUTPUT_NUMERIC_SYMBOL	= (1 << 1),	/* -y: no symbol names */
	NFTC_OUTPUT_NUMERIC_ALL		= (1 << 2),	/* -nnn: uid/gid too */
	NFTC_OUTPUT_SERVICE		= (1 << 3),	/* -S: port names */
	NFTC_OUTPUT_SECONDS		= (1 << 4),	/* -T: times in s */
	/* Added by the printer: */
	NFTC_OUTPUT_STATELESS		= (1 << 5),	/* -s: no counters */
	NFTC_OUTPUT_HANDLE		= (1 << 6),	/* -a: # handle N */
	/* text that parses back to the same VM code where listings are
	 * lossy ("ct original saddr", not "ct original ip saddr") */
	NFTC_OUTPUT_EXACT		= (1 << 7),
};

/*
 * Print constant @expr (EXPR_VALUE) as stock nft lists it: symbol name,
 * address, "0x%08x" mark, quoted string, ... per its dtype.
 */
void datatype_print(const struct expr *expr, struct output_ctx *octx);

/*
 * Parse a relative time "1d2h3m4s5ms" (a bare number means seconds)
 * into milliseconds; errors are located at @loc. Returns 0 or -1.
 */
int nftc_time_parse(struct erec_queue *erq, const struct location *loc,
		    const char *str, uint64_t *ms);
/* Print @ms as nft does ("1h2m", "0s"). */
void nftc_time_print(FILE *f, uint64_t ms, bool seconds);

/*
 * Built-in resolvers. "builtin" knows protocol and service names from
 * compiled-in tables (IANA well-known names, as Debian's /etc/services)
 * and no host names: deterministic, used by -c tests. "system" asks
 * /etc/protocols, /etc/services and getaddrinfo() first.
 */
extern const struct nftc_resolver nftc_resolver_builtin;
extern const struct nftc_resolver nftc_resolver_system;
/* "builtin", but interface names from the running network namespace */
extern const struct nftc_resolver nftc_resolver_builtin_ifaces;

#endif
