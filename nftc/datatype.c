/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Datatypes: the registry indexed by type id, the generic types
 * (invalid, verdict, bitmask, integer, string, priority, policy),
 * symbol parsing and printing, and concatenated types.
 *
 * The protocol specific types live in datatype_inet.c, the meta/ct/time
 * ones in datatype_misc.c. Every fact here (names, descriptions, sizes,
 * byte orders) is the one stock nft 1.0.6 uses, because type ids and
 * names travel in set definitions shared with it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "datatype_int.h"
#include "fmt.h"

const struct datatype *const datatypes[__TYPE_MAX] = {
	[TYPE_INVALID]		= &invalid_type,
	[TYPE_VERDICT]		= &verdict_type,
	[TYPE_NFPROTO]		= &nfproto_type,
	[TYPE_BITMASK]		= &bitmask_type,
	[TYPE_INTEGER]		= &integer_type,
	[TYPE_STRING]		= &string_type,
	[TYPE_LLADDR]		= &lladdr_type,
	[TYPE_IPADDR]		= &ipaddr_type,
	[TYPE_IP6ADDR]		= &ip6addr_type,
	[TYPE_ETHERADDR]	= &etheraddr_type,
	[TYPE_ETHERTYPE]	= &ethertype_type,
	[TYPE_ARPOP]		= &arpop_type,
	[TYPE_INET_PROTOCOL]	= &inet_protocol_type,
	[TYPE_INET_SERVICE]	= &inet_service_type,
	[TYPE_ICMP_TYPE]	= &icmp_type_type,
	[TYPE_TCP_FLAG]		= &tcp_flag_type,
	[TYPE_DCCP_PKTTYPE]	= &dccp_pkttype_type,
	[TYPE_MH_TYPE]		= &mh_type_type,
	[TYPE_TIME]		= &time_type,
	[TYPE_MARK]		= &mark_type,
	[TYPE_IFINDEX]		= &ifindex_type,
	[TYPE_ARPHRD]		= &arphrd_type,
	[TYPE_REALM]		= &realm_type,
	[TYPE_CLASSID]		= &classid_type,
	[TYPE_UID]		= &uid_type,
	[TYPE_GID]		= &gid_type,
	[TYPE_CT_STATE]		= &ct_state_type,
	[TYPE_CT_DIR]		= &ct_dir_type,
	[TYPE_CT_STATUS]	= &ct_status_type,
	[TYPE_ICMP6_TYPE]	= &icmp6_type_type,
	[TYPE_CT_LABEL]		= &ct_label_type,
	[TYPE_PKTTYPE]		= &pkttype_type,
	[TYPE_ICMP_CODE]	= &icmp_code_type,
	[TYPE_ICMPV6_CODE]	= &icmpv6_code_type,
	[TYPE_ICMPX_CODE]	= &icmpx_code_type,
	[TYPE_DEVGROUP]		= &devgroup_type,
	[TYPE_DSCP]		= &dscp_type,
	[TYPE_ECN]		= &ecn_type,
	[TYPE_FIB_ADDR]		= &fib_addr_type,
	[TYPE_BOOLEAN]		= &boolean_type,
	[TYPE_CT_EVENTBIT]	= &ct_event_type,
	[TYPE_IFNAME]		= &ifname_type,
	[TYPE_IGMP_TYPE]	= &igmp_type_type,
	[TYPE_TIME_DATE]	= &date_type,
	[TYPE_TIME_HOUR]	= &hour_type,
	[TYPE_TIME_DAY]		= &day_type,
	[TYPE_CGROUPV2]		= &cgroupv2_type,
};

_Static_assert(TYPE_MAX <= TYPE_MASK, "type ids must fit in TYPE_BITS");

/**
 * datatype_lookup - the built-in type with id @type
 *
 * Returns NULL for unknown ids (and for concatenation ids: use
 * concat_type_lookup for those).
 */
const struct datatype *datatype_lookup(enum datatype_id type)
{
	if ((unsigned int)type >= __TYPE_MAX)
		return NULL;
	return datatypes[type];
}

/**
 * datatype_lookup_byname - the built-in type called @name ("ipv4_addr")
 *
 * The first match in id order wins, as in stock nft: "time" is the
 * relative time type, not the meta time date type of the same name.
 * ct_label and ct_event are not known by name to stock nft 1.0.6
 * ("unknown datatype ct_label"), so they are not here either.
 */
const struct datatype *datatype_lookup_byname(const char *name)
{
	unsigned int i;

	for (i = 0; i < __TYPE_MAX; i++) {
		if (i == TYPE_CT_LABEL || i == TYPE_CT_EVENTBIT)
			continue;
		if (datatypes[i] && !strcmp(datatypes[i]->name, name))
			return datatypes[i];
	}
	return NULL;
}

/**
 * datatype_is_a - does @dtype equal @base or refine it?
 */
bool datatype_is_a(const struct datatype *dtype, const struct datatype *base)
{
	if (!dtype || !base)
		return false;
	for (; dtype; dtype = dtype->basetype) {
		if (dtype == base || dtype->type == base->type)
			return true;
	}
	return false;
}

/**
 * datatype_compatible - may values of @a stand where @b is expected?
 *
 * Same type (by id, so concatenations compare by member types), or one
 * refines the other: an integer constant fits a mark, a mark compares
 * with a raw integer load.
 */
bool datatype_compatible(const struct datatype *a, const struct datatype *b)
{
	if (!a || !b)
		return false;
	if (a->type == b->type)
		return true;
	return datatype_is_a(a, b) || datatype_is_a(b, a);
}

/* Helpers shared by the type implementations */

enum byteorder dt_byteorder(const struct datatype *dtype)
{
	for (; dtype; dtype = dtype->basetype) {
		if (dtype->byteorder != BYTEORDER_INVALID)
			return dtype->byteorder;
	}
	return BYTEORDER_HOST;
}

int dt_const_u64(const struct datatype *dtype, const struct expr *sym,
		 uint64_t n, struct expr **res)
{
	*res = constant_expr_u64(&sym->location, dtype, dt_byteorder(dtype),
				 dtype->size ? dtype->size : 64, n);
	return *res ? 0 : -ENOMEM;
}

/* @v = @v * @base + @d; returns -1 on overflow of the full width. */
static int value_mul_add(struct value *v, unsigned int base, unsigned int d)
{
	unsigned int carry = d;
	int i;

	for (i = NFTC_VALUE_MAX - 1; i >= 0; i--) {
		unsigned int cur = v->data[i] * base + carry;

		v->data[i] = cur & 0xff;
		carry = cur >> 8;
	}
	return carry ? -1 : 0;
}

int dt_parse_number(const char *s, struct value *v)
{
	unsigned int base = 10;
	uint64_t n = 0;

	value_init(v, NFTC_VALUE_MAX * 8);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1] != '\0') {
		base = 8;
		s++;
	}
	if (*s == '\0')
		return -1;
	/*
	 * Digits accumulate in a machine word while they fit (every number
	 * a ruleset usually holds); the first one that would overflow it
	 * moves the rest to the full-width value.
	 */
	for (; *s; s++) {
		int d = fmt_hex_digit(*s);

		if (d < 0 || d >= (int)base)
			return -1;
		if (n > (UINT64_MAX - d) / base)
			break;
		n = n * base + d;
	}
	value_set_u64(v, NFTC_VALUE_MAX * 8, n);
	for (; *s; s++) {
		int d = fmt_hex_digit(*s);

		if (d < 0 || d >= (int)base || value_mul_add(v, base, d) < 0)
			return -1;
	}
	return 0;
}

/**
 * symbol_table_lookup - value of @name in @tbl
 *
 * Returns 0 and sets *value on a hit, -ENOENT otherwise.
 */
int symbol_table_lookup(const struct symbol_table *tbl, const char *name,
			uint64_t *value)
{
	const struct symbolic_constant *s;

	if (!tbl || !tbl->symbols)
		return -ENOENT;
	for (s = tbl->symbols; s->identifier; s++) {
		if (!strcmp(s->identifier, name)) {
			*value = s->value;
			return 0;
		}
	}
	return -ENOENT;
}

int dt_symbol_parse(const struct symbol_table *tbl,
		    const struct datatype *dtype, const struct expr *sym,
		    struct expr **res)
{
	uint64_t n;

	if (symbol_table_lookup(tbl, dt_text(sym), &n) < 0)
		return 0;
	return dt_const_u64(dtype, sym, n, res) < 0 ? -1 : 1;
}

/**
 * datatype_parse_symbol - turn symbol text into a constant of @dtype
 *
 * Walks from @dtype to its base types; at each level the symbol table
 * is tried first, then the level's parser, which decides. A type
 * without either defers to its base type. Errors name @dtype (the type
 * the context expects), as stock nft's do: "Could not parse TCP flag".
 *
 * Numbers come back at the width of @dtype, or wider when they do not
 * fit (so the caller can report "Value N exceeds valid range"), and 64
 * bits for types without a size. Strings come back unpadded (strlen),
 * "eth*" as an EXPR_PREFIX of the prefix string padded to the type's
 * size, with prefix_len the prefix's bits.
 */
int datatype_parse_symbol(struct dt_parse_ctx *ctx,
			  const struct datatype *dtype,
			  const struct expr *sym, struct expr **res)
{
	const struct datatype *t;
	int ret;

	*res = NULL;
	if (!dtype || sym->kind != EXPR_SYMBOL)
		return erec_error(ctx->erq, &sym->location,
				  "No symbol type information");
	for (t = dtype; t; t = t->basetype) {
		if (t->sym_tbl) {
			ret = dt_symbol_parse(t->sym_tbl, dtype, sym, res);
			if (ret)
				return ret < 0 ? -1 : 0;
		}
		if (t->parse)
			return t->parse(ctx, dtype, sym, res);
	}
	return dt_error(ctx, sym, "Could not parse symbolic %s expression",
			dtype->desc);
}

/* Generic types */

static void invalid_type_print(const struct expr *expr,
			       struct output_ctx *octx)
{
	fprintf(octx->f, "0x%" PRIx64 " [invalid type]",
		value_get_u64(&expr->value));
}

const struct datatype invalid_type = {
	.type		= TYPE_INVALID,
	.name		= "invalid",
	.desc		= "invalid",
	.print		= invalid_type_print,
};

static const char *verdict_name(int verdict)
{
	switch (verdict) {
	case NFT_CONTINUE:
		return "continue";
	case NFT_BREAK:
		return "break";
	case NFT_JUMP:
		return "jump";
	case NFT_GOTO:
		return "goto";
	case NFT_RETURN:
		return "return";
	}
	switch (verdict & NF_VERDICT_MASK) {
	case NF_ACCEPT:
		return "accept";
	case NF_DROP:
		return "drop";
	case NF_QUEUE:
		return "queue";
	case NF_STOLEN:
		return "stolen";
	}
	return NULL;
}

static void verdict_type_print(const struct expr *expr,
			       struct output_ctx *octx)
{
	const char *name;

	if (expr->kind != EXPR_VERDICT) {
		integer_type_print(expr, octx);
		return;
	}
	name = verdict_name(expr->verdict.verdict);
	if (!name) {
		fprintf(octx->f, "unknown verdict value %u",
			(unsigned int)expr->verdict.verdict);
		return;
	}
	nftc_puts(name, octx->f);
	if (expr->verdict.chain) {
		nftc_putc(' ', octx->f);
		if (expr->verdict.chain->kind == EXPR_SYMBOL)
			nftc_puts(expr->verdict.chain->sym.identifier, octx->f);
		else
			datatype_print(expr->verdict.chain, octx);
	}
}

static int verdict_type_parse(struct dt_parse_ctx *ctx,
			      const struct datatype *dtype,
			      const struct expr *sym, struct expr **res)
{
	return dt_error(ctx, sym, "Could not parse %s; did you mean `jump %s'?",
			dtype->desc, dt_text(sym));
}

const struct datatype verdict_type = {
	.type		= TYPE_VERDICT,
	.name		= "verdict",
	.desc		= "netfilter verdict",
	.print		= verdict_type_print,
	.parse		= verdict_type_parse,
};

const struct datatype bitmask_type = {
	.type		= TYPE_BITMASK,
	.name		= "bitmask",
	.desc		= "bitmask",
	.basefmt	= "0x%" PRIx64,
	.basetype	= &integer_type,
};

/**
 * integer_type_parse - a number of @dtype ("22", "0x16", "026")
 */
int integer_type_parse(struct dt_parse_ctx *ctx, const struct datatype *dtype,
		       const struct expr *sym, struct expr **res)
{
	unsigned int len = dtype->size ? dtype->size : 64;
	struct value v;

	if (dt_parse_number(dt_text(sym), &v) < 0)
		return dt_error(ctx, sym, "Could not parse %s", dtype->desc);
	/* Keep too large numbers wide: the caller reports the range. */
	while (!value_fits(&v, len))
		len = (len + 8) & ~7u;
	value_resize(&v, len);
	*res = constant_expr_alloc(&sym->location, dtype, dt_byteorder(dtype),
				   len, &v);
	return *res ? 0 : -1;
}

static const char *dt_basefmt(const struct datatype *dtype)
{
	for (; dtype; dtype = dtype->basetype) {
		if (dtype->basefmt)
			return dtype->basefmt;
	}
	return NULL;
}

/* whether @fmt is "0x%" PRIx64 or "0x%.N" PRIx64 (N 1..9 = @digits) */
static bool hex_fmt(const char *fmt, unsigned int *digits)
{
	if (strncmp(fmt, "0x%", 3))
		return false;
	fmt += 3;
	*digits = 1;
	if (*fmt == '.') {
		if (fmt[1] < '1' || fmt[1] > '9')
			return false;
		*digits = fmt[1] - '0';
		fmt += 2;
	}
	return !strcmp(fmt, PRIx64);
}

/**
 * integer_type_print - decimal, or the type's base format (mark: hex)
 */
void integer_type_print(const struct expr *expr, struct output_ctx *octx)
{
	const char *fmt = dt_basefmt(expr->dtype);
	char buf[NFTC_VALUE_MAX * 3 + 2];
	unsigned int digits;

	if (expr->value.len > 64) {
		unsigned int i, nb = BITS_TO_BYTES(expr->value.len);
		bool lead = true;

		if (!fmt) {
			value_to_dec(&expr->value, buf, sizeof(buf));
			nftc_puts(buf, octx->f);
			return;
		}
		nftc_puts("0x", octx->f);
		for (i = 0; i < nb; i++) {
			if (lead && !expr->value.data[i] && i + 1 < nb)
				continue;
			fprintf(octx->f, lead ? "%x" : "%02x",
				expr->value.data[i]);
			lead = false;
		}
		return;
	}
	if (!fmt) {
		fmt_u64(buf, value_get_u64(&expr->value));
		nftc_puts(buf, octx->f);
		return;
	}
	if (hex_fmt(fmt, &digits)) {
		/* fmt without printf: marks are mostly printed */
		uint64_t n = value_get_u64(&expr->value);
		char *p = buf + sizeof(buf);

		*--p = '\0';
		do {
			*--p = "0123456789abcdef"[n & 0xf];
			n >>= 4;
		} while (n || buf + sizeof(buf) - 1 - p < (long)digits);
		*--p = 'x';
		*--p = '0';
		nftc_puts(p, octx->f);
		return;
	}
	fprintf(octx->f, fmt, value_get_u64(&expr->value));
}

const struct datatype integer_type = {
	.type		= TYPE_INTEGER,
	.name		= "integer",
	.desc		= "integer",
	.print		= integer_type_print,
	.parse		= integer_type_parse,
};

static void string_type_print(const struct expr *expr,
			      struct output_ctx *octx)
{
	unsigned int i, nb = BITS_TO_BYTES(expr->value.len);

	nftc_putc('"', octx->f);
	for (i = 0; i < nb && expr->value.data[i]; i++) {
		/* a literal trailing star is escaped: not a wildcard */
		if (expr->value.data[i] == '*' &&
		    (i + 1 == nb || !expr->value.data[i + 1]))
			nftc_putc('\\', octx->f);
		nftc_putc(expr->value.data[i], octx->f);
	}
	nftc_putc('"', octx->f);
}

/*
 * Strings. A trailing unescaped '*' makes a wildcard: the prefix before
 * it, as an EXPR_PREFIX. "\*" at the end is a literal star.
 */
static int string_type_parse(struct dt_parse_ctx *ctx,
			     const struct datatype *dtype,
			     const struct expr *sym, struct expr **res)
{
	const char *s = dt_text(sym);
	size_t slen = strlen(s), max = dtype->size / 8;
	char buf[NFTC_VALUE_MAX + 2];
	struct expr *e;

	if (slen >= sizeof(buf) - 1 || (max && slen + 1 > max))
		return dt_error(ctx, sym, "String exceeds maximum length of %zu",
				max ? max : (size_t)NFTC_VALUE_MAX);
	memcpy(buf, s, slen + 1);

	if (slen >= 2 && buf[slen - 1] == '*' && buf[slen - 2] == '\\') {
		buf[slen - 2] = '*';
		buf[--slen] = '\0';
	} else if (slen && buf[slen - 1] == '*') {
		if (slen == 1)
			return dt_error(ctx, sym,
					"All-wildcard strings are not supported");
		buf[--slen] = '\0';
		e = constant_expr_string(&sym->location, dtype, buf,
					 dtype->size);
		if (!e)
			return -1;
		*res = prefix_expr_alloc(&sym->location, e, slen * 8);
		return *res ? 0 : -1;
	}
	*res = constant_expr_string(&sym->location, dtype, buf, 0);
	return *res ? 0 : -1;
}

const struct datatype string_type = {
	.type		= TYPE_STRING,
	.name		= "string",
	.desc		= "string",
	.byteorder	= BYTEORDER_BIG,
	.print		= string_type_print,
	.parse		= string_type_parse,
};

const struct datatype ifname_type = {
	.type		= TYPE_IFNAME,
	.name		= "ifname",
	.desc		= "network interface name",
	.byteorder	= BYTEORDER_BIG,
	.size		= 16 * 8,
	.basetype	= &string_type,
};

/*
 * Chain priorities: a number (signed, 32 bits) or a name ("filter",
 * "dstnat + 10" is split by the parser); names stay strings for the
 * evaluator, which knows the family and hook.
 */
static int priority_type_parse(struct dt_parse_ctx *ctx,
			       const struct datatype *dtype,
			       const struct expr *sym, struct expr **res)
{
	const char *s = dt_text(sym);
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (*s && !*end && !errno && n >= INT32_MIN && n <= INT32_MAX) {
		*res = constant_expr_u64(&sym->location, &integer_type,
					 BYTEORDER_HOST, 32, (uint32_t)n);
		return *res ? 0 : -1;
	}
	*res = constant_expr_string(&sym->location, &string_type, s, 0);
	return *res ? 0 : -1;
}

const struct datatype priority_type = {
	.type		= TYPE_STRING,
	.name		= "priority",
	.desc		= "priority type",
	.parse		= priority_type_parse,
};

static int policy_type_parse(struct dt_parse_ctx *ctx,
			     const struct datatype *dtype,
			     const struct expr *sym, struct expr **res)
{
	uint32_t policy;

	if (!strcmp(dt_text(sym), "accept"))
		policy = NF_ACCEPT;
	else if (!strcmp(dt_text(sym), "drop"))
		policy = NF_DROP;
	else
		return dt_error(ctx, sym, "wrong policy");
	*res = constant_expr_u64(&sym->location, &integer_type,
				 BYTEORDER_HOST, 32, policy);
	return *res ? 0 : -1;
}

const struct datatype policy_type = {
	.type		= TYPE_STRING,
	.name		= "policy",
	.desc		= "policy type",
	.parse		= policy_type_parse,
};

/* Printing */

static void symbolic_constant_print(const struct symbol_table *tbl,
				    const struct expr *expr,
				    struct output_ctx *octx)
{
	const struct symbolic_constant *s;
	uint64_t n = value_get_u64(&expr->value);

	if (!(octx->flags & NFTC_OUTPUT_NUMERIC_SYMBOL) &&
	    expr->value.len <= 64) {
		for (s = tbl->symbols; s->identifier; s++) {
			if (s->value == n) {
				nftc_puts(s->identifier, octx->f);
				return;
			}
		}
	}
	integer_type_print(expr, octx);
}

/**
 * datatype_print - print constant @expr as stock nft lists it
 *
 * The nearest type (from expr->dtype to its bases) with a printer or a
 * symbol table decides; a value without a name prints as a number.
 */
void datatype_print(const struct expr *expr, struct output_ctx *octx)
{
	const struct datatype *dtype;

	for (dtype = expr->dtype; dtype; dtype = dtype->basetype) {
		if (dtype->print) {
			dtype->print(expr, octx);
			return;
		}
		if (dtype->sym_tbl) {
			symbolic_constant_print(dtype->sym_tbl, expr, octx);
			return;
		}
	}
	integer_type_print(expr, octx);
}

/**
 * symbol_table_print - list @tbl the way "nft describe" does
 * @size_bits: the type's width; hex values get two digits per byte
 * @swap: print the bytes of each value reversed (see describe.c)
 */
void symbol_table_print(FILE *f, const struct symbol_table *tbl,
			unsigned int size_bits, bool swap)
{
	unsigned int i, nb = BITS_TO_BYTES(size_bits);
	const struct symbolic_constant *s;
	uint64_t v;

	for (s = tbl->symbols; s->identifier; s++) {
		v = s->value;
		if (swap && nb <= 8) {
			v = 0;
			for (i = 0; i < nb; i++)
				v |= ((s->value >> (8 * i)) & 0xff) <<
				     (8 * (nb - 1 - i));
		}
		if (tbl->base == DT_BASE_DECIMAL)
			fprintf(f, "\t%-30s\t%20" PRIu64 "\n",
				s->identifier, v);
		else
			fprintf(f, "\t%-30s\t0x%.*" PRIx64 "\n",
				s->identifier, (int)(2 * nb), v);
	}
}

/* Concatenations */

/*
 * An allocated concat type: the datatype and the storage of its
 * generated name and description.
 */
struct concat_type {
	struct datatype	dtype;
	char		name[256];
	char		desc[256];
};

static int concat_type_parse(struct dt_parse_ctx *ctx,
			     const struct datatype *dtype,
			     const struct expr *sym, struct expr **res)
{
	return dt_error(ctx, sym, "invalid data type, expected %s",
			dtype->desc);
}

/* Registers hold concatenation members on 32-bit boundaries. */
static unsigned int padded_len(unsigned int bits)
{
	return (bits + 31) / 32 * 32;
}

static void strlcat_simple(char *dst, const char *src, size_t size)
{
	size_t len = strlen(dst);

	if (len + 1 < size)
		snprintf(dst + len, size - len, "%s", src);
}

static const struct datatype *concat_build(const struct datatype **types,
					   unsigned int n, uint32_t id)
{
	struct concat_type *ct;
	unsigned int i;

	ct = calloc(1, sizeof(*ct));
	if (!ct)
		return NULL;
	strcpy(ct->desc, "concatenation of (");
	for (i = 0; i < n; i++) {
		if (i) {
			strlcat_simple(ct->desc, ", ", sizeof(ct->desc));
			strlcat_simple(ct->name, " . ", sizeof(ct->name));
		}
		strlcat_simple(ct->desc, types[i]->desc, sizeof(ct->desc));
		strlcat_simple(ct->name, types[i]->name, sizeof(ct->name));
		ct->dtype.size += padded_len(types[i]->size);
	}
	strlcat_simple(ct->desc, ")", sizeof(ct->desc));
	ct->dtype.type = id;
	ct->dtype.subtypes = n;
	ct->dtype.name = ct->name;
	ct->dtype.desc = ct->desc;
	ct->dtype.flags = DTYPE_F_ALLOC;
	ct->dtype.parse = concat_type_parse;
	ct->dtype.refcnt = 1;
	return &ct->dtype;
}

/**
 * concat_type_alloc - the type of @n concatenated member types
 *
 * The id packs the member ids TYPE_BITS each, first member in the most
 * significant position, as stock nft stores it in set key types.
 * Returns a new DTYPE_F_ALLOC type (one reference), or NULL.
 */
const struct datatype *concat_type_alloc(const struct datatype **types,
					 unsigned int n)
{
	uint32_t id = 0;
	unsigned int i;

	if (n == 0 || n * TYPE_BITS > 32)
		return NULL;
	for (i = 0; i < n; i++)
		id = (id << TYPE_BITS) | (types[i]->type & TYPE_MASK);
	return concat_build(types, n, id);
}

/**
 * concat_type_lookup - rebuild a concatenated type from its id
 *
 * Returns a new DTYPE_F_ALLOC type, or NULL for an id naming unknown
 * member types.
 */
const struct datatype *concat_type_lookup(uint32_t id)
{
	const struct datatype *types[32 / TYPE_BITS + 1];
	unsigned int n = 0, bits = 0, i;
	uint32_t t;

	for (t = id; t; t >>= 1)
		bits++;
	n = (bits + TYPE_BITS - 1) / TYPE_BITS;
	if (n == 0)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned int shift = (n - 1 - i) * TYPE_BITS;
		unsigned int sub = (id >> shift) & TYPE_MASK;

		types[i] = datatype_lookup(sub);
		if (!types[i] || sub == TYPE_INVALID)
			return NULL;
	}
	return concat_build(types, n, id);
}

/**
 * datatype_get - take a reference to @dtype (no-op for built-in types)
 */
const struct datatype *datatype_get(const struct datatype *dtype)
{
	if (dtype && (dtype->flags & DTYPE_F_ALLOC))
		((struct datatype *)dtype)->refcnt++;
	return dtype;
}

/**
 * datatype_free - drop a reference to @dtype; accepts NULL and built-ins
 */
void datatype_free(const struct datatype *dtype)
{
	struct datatype *d = (struct datatype *)dtype;

	if (!d || !(d->flags & DTYPE_F_ALLOC))
		return;
	if (--d->refcnt > 0)
		return;
	free(container_of(d, struct concat_type, dtype));
}
