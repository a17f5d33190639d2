// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IR printer: expressions.
 *
 * Each expression kind has one print function in a const table. The
 * layout follows stock nft 1.0.6's listing: relational operators are
 * omitted where stock omits them, binops get parentheses by precedence,
 * flag masks print as "VALUE / MASK", ranges print numerically.
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "printer.h"
#include "keys.h"
#include "fmt.h"
#include "list_tmpl.h"

typedef void (*expr_print_fn)(struct output_ctx *octx, const struct expr *e);

static const char *const op_symbols[__OP_MAX] = {
	[OP_LSHIFT]	= "<<",
	[OP_RSHIFT]	= ">>",
	[OP_AND]	= "&",
	[OP_XOR]	= "^",
	[OP_OR]		= "|",
	[OP_EQ]		= "==",
	[OP_NEQ]	= "!=",
	[OP_LT]		= "<",
	[OP_GT]		= ">",
	[OP_LTE]	= "<=",
	[OP_GTE]	= ">=",
	[OP_NEG]	= "!",
	[OP_ADD]	= "+",
	[OP_SUB]	= "-",
};

/* Lower binds tighter; 0: never parenthesised. */
static const unsigned char op_precedence[__OP_MAX] = {
	[OP_LSHIFT]	= 1,
	[OP_RSHIFT]	= 1,
	[OP_AND]	= 2,
	[OP_XOR]	= 3,
	[OP_OR]		= 4,
};

static bool dtype_is_bitmask(const struct datatype *dtype)
{
	return dtype && datatype_is_a(dtype, &bitmask_type) &&
	       dtype != &bitmask_type;
}

static const struct symbol_table *dtype_sym_tbl(const struct datatype *dt)
{
	for (; dt; dt = dt->basetype) {
		if (dt->sym_tbl)
			return dt->sym_tbl;
	}
	return NULL;
}

static const char *sym_name(const struct symbol_table *tbl, uint64_t v)
{
	const struct symbolic_constant *s;

	for (s = tbl->symbols; s->identifier; s++) {
		if (s->value == v)
			return s->identifier;
	}
	return NULL;
}

/*
 * A bitmask value with several flags set prints as a comma list of the
 * flags in bit order ("fin,syn,ack"), as stock does: a flag by its name,
 * or by its number where it has none ("established,0x80") or with -n
 * ("0x1,0x2"; in a set element "0x1 | 0x2").
 */
static bool print_flag_list(struct output_ctx *octx, const struct expr *e)
{
	const struct symbol_table *tbl = dtype_sym_tbl(e->dtype);
	const char *d = "", *sep;
	uint64_t v, bit;

	if (octx->flags & NFTC_OUTPUT_INT_FLAGLIST)
		sep = ",";
	else if (octx->flags & NFTC_OUTPUT_INT_FLAGOR)
		sep = " | ";
	else
		return false;
	if (!tbl || e->value.len > 64)
		return false;
	v = value_get_u64(&e->value);
	if (v == 0 || !(v & (v - 1)) || sym_name(tbl, v))
		return false;
	for (bit = 1; bit && bit <= v; bit <<= 1) {
		const char *name = sym_name(tbl, bit);

		if (!(v & bit))
			continue;
		if (name && !(octx->flags & NFTC_OUTPUT_NUMERIC_SYMBOL)) {
			nftc_puts(d, octx->f);
			nftc_puts(name, octx->f);
		} else
			fprintf(octx->f, "%s0x%" PRIx64, d, bit);
		d = sep;
	}
	return true;
}

/* Raw payload data prints in hex, as stock lists it. */
static void print_hex(struct output_ctx *octx, const struct expr *e)
{
	unsigned int i, nb = BITS_TO_BYTES(e->value.len);
	bool lead = true;

	nftc_puts("0x", octx->f);
	for (i = 0; i < nb; i++) {
		if (lead && !e->value.data[i] && i + 1 < nb)
			continue;
		fprintf(octx->f, lead ? "%x" : "%02x", e->value.data[i]);
		lead = false;
	}
	if (!nb)
		nftc_putc('0', octx->f);
}

static void print_value(struct output_ctx *octx, const struct expr *e)
{
	if ((octx->flags & NFTC_OUTPUT_INT_HEX) && e->dtype == &integer_type) {
		print_hex(octx, e);
		return;
	}
	if (dtype_is_bitmask(e->dtype) && print_flag_list(octx, e))
		return;
	datatype_print(e, octx);
}

static void print_symbol(struct output_ctx *octx, const struct expr *e)
{
	if (e->sym.symtype == SYMBOL_QUOTED)
		fprintf(octx->f, "\"%s\"", e->sym.identifier);
	else
		nftc_puts(e->sym.identifier, octx->f);
}

static void print_variable(struct output_ctx *octx, const struct expr *e)
{
	fprintf(octx->f, "$%s", e->sym.identifier);
}

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
	switch ((unsigned int)verdict & NF_VERDICT_MASK) {
	case NF_ACCEPT:
		return "accept";
	case NF_DROP:
		return "drop";
	case NF_QUEUE:
		return "queue";
	case NF_STOLEN:
		return "stolen";
	}
	return "unknown";
}

/* Chain names print bare, whatever form the target took. */
static void print_chain_name(struct output_ctx *octx, const struct expr *c)
{
	unsigned int i, nb;

	switch (c->kind) {
	case EXPR_SYMBOL:
		nftc_puts(c->sym.identifier, octx->f);
		break;
	case EXPR_VALUE:
		nb = BITS_TO_BYTES(c->value.len);
		for (i = 0; i < nb && c->value.data[i]; i++)
			nftc_putc(c->value.data[i], octx->f);
		break;
	default:
		nftc_print_expr(octx, c);
		break;
	}
}

static void print_verdict(struct output_ctx *octx, const struct expr *e)
{
	nftc_puts(verdict_name(e->verdict.verdict), octx->f);
	if (e->verdict.chain) {
		nftc_putc(' ', octx->f);
		print_chain_name(octx, e->verdict.chain);
	}
}

/* " OP ", as " %s " prints it */
static void print_op_symbol(struct output_ctx *octx, const char *op)
{
	nftc_putc(' ', octx->f);
	nftc_puts(op, octx->f);
	nftc_putc(' ', octx->f);
}

static void print_prefix(struct output_ctx *octx, const struct expr *e)
{
	const struct expr *v = e->prefix.expr;
	unsigned int i;

	/* a string prefix is a wildcard: "eth*" */
	if (v->kind == EXPR_VALUE && v->dtype &&
	    datatype_is_a(v->dtype, &string_type)) {
		nftc_putc('"', octx->f);
		for (i = 0; i < e->prefix.prefix_len / 8 &&
			    i < BITS_TO_BYTES(v->value.len); i++)
			nftc_putc(v->value.data[i], octx->f);
		nftc_puts("*\"", octx->f);
		return;
	}
	nftc_print_expr(octx, e->prefix.expr);
	nftc_putc('/', octx->f);
	nftc_putu(e->prefix.prefix_len, octx->f);
}

/*
 * Length of the prefix @lo-@hi spans, or -1: hi - lo must be 2^k - 1
 * with lo aligned to it.
 */
static int range_prefix_len(const struct expr *lo, const struct expr *hi)
{
	struct value x, t;

	if (lo->kind != EXPR_VALUE || hi->kind != EXPR_VALUE ||
	    lo->value.len != hi->value.len)
		return -1;
	value_xor(&x, &lo->value, &hi->value);
	value_and(&t, &lo->value, &x);
	if (!value_is_zero(&t) || value_cmp(&lo->value, &hi->value) > 0)
		return -1;
	t = x;
	value_inc(&t);
	if (!value_is_zero(&t) && value_popcount(&t) != 1)
		return -1;
	return lo->value.len - value_popcount(&x);
}

/*
 * In set elements stock lists a one-value range as the value and a
 * range that is a prefix of an address type as the prefix.
 */
static bool print_elem_range(struct output_ctx *octx, const struct expr *e)
{
	const struct expr *lo = e->pair.left, *hi = e->pair.right;
	int plen;

	if (lo->kind != EXPR_VALUE || hi->kind != EXPR_VALUE)
		return false;
	if (!value_cmp(&lo->value, &hi->value)) {
		nftc_print_expr(octx, lo);
		return true;
	}
	if (!lo->dtype || !(lo->dtype->flags & DTYPE_F_PREFIX))
		return false;
	plen = range_prefix_len(lo, hi);
	if (plen < 0)
		return false;
	nftc_print_expr(octx, lo);
	fputc('/', octx->f);
	nftc_putu(plen, octx->f);
	return true;
}

/* Stock prints both ends of a range numerically (no names, no -S). */
static void print_range(struct output_ctx *octx, const struct expr *e)
{
	unsigned int flags = octx->flags;

	if ((flags & NFTC_OUTPUT_INT_SETELEM) && print_elem_range(octx, e))
		return;

	octx->flags &= ~NFTC_OUTPUT_SERVICE;
	octx->flags |= NFTC_OUTPUT_NUMERIC_SYMBOL | NFTC_OUTPUT_NUMERIC_PROTO |
		       NFTC_OUTPUT_NUMERIC_ALL;
	nftc_print_expr(octx, e->pair.left);
	nftc_putc('-', octx->f);
	nftc_print_expr(octx, e->pair.right);
	octx->flags = flags;
}

static void print_payload(struct output_ctx *octx, const struct expr *e)
{
	const struct proto_hdr_template *t = e->payload.tmpl;
	const struct proto_desc *d = e->payload.desc;

	if (e->payload.is_raw || !d || !t || !t->token) {
		fprintf(octx->f, "@%s,%u,%u",
			proto_base_tokens[e->payload.base < __PROTO_BASE_MAX ?
					  e->payload.base : 0],
			e->payload.offset, e->len);
		return;
	}
	if (t->meta_key) {
		const struct key_template *k = &meta_templates[t->meta_key];

		nftc_puts("meta ", octx->f);
		nftc_puts(k->token ? k->token : t->token, octx->f);
		return;
	}
	nftc_puts(d->name, octx->f);
	nftc_putc(' ', octx->f);
	nftc_puts(t->token, octx->f);
}

static void print_exthdr(struct output_ctx *octx, const struct expr *e)
{
	const struct exthdr_desc *d = e->exthdr.desc;
	const struct proto_hdr_template *t = e->exthdr.tmpl;
	bool present = e->exthdr.flags & NFT_EXTHDR_F_PRESENT;

	switch (e->exthdr.op) {
	case NFT_EXTHDR_OP_TCPOPT:
		if (!d && present) {
			/* an unknown option's presence, by its kind */
			fprintf(octx->f, "tcp option %u", e->exthdr.raw_type);
			return;
		}
		if (!d) {
			fprintf(octx->f, "tcp option @%u,%u,%u",
				e->exthdr.raw_type, e->exthdr.offset, e->len);
			return;
		}
		fprintf(octx->f, "tcp option %s", d->name);
		break;
	case NFT_EXTHDR_OP_IPV4:
		fprintf(octx->f, "ip option %s", d ? d->name : "unknown");
		break;
	case NFT_EXTHDR_OP_SCTP:
		fprintf(octx->f, "sctp chunk %s", d ? d->name : "unknown");
		break;
	default:
		if (present) {
			fprintf(octx->f, "exthdr %s", d ? d->name : "unknown");
			return;
		}
		fprintf(octx->f, "%s", d ? d->name : "unknown-exthdr");
		break;
	}
	if (!present && t && t->token)
		fprintf(octx->f, " %s", t->token);
}

/* Keys stock lists without the "meta" prefix. */
static bool meta_key_unqualified(unsigned int key)
{
	switch (key) {
	case NFT_META_IIF:
	case NFT_META_OIF:
	case NFT_META_IIFNAME:
	case NFT_META_OIFNAME:
	case NFT_META_IIFGROUP:
	case NFT_META_OIFGROUP:
		return true;
	}
	return false;
}

static void print_meta(struct output_ctx *octx, const struct expr *e)
{
	const char *tok = e->meta.key < META_KEYS_MAX ?
			  meta_templates[e->meta.key].token : NULL;

	if (!tok)
		tok = "unknown";
	if (meta_key_unqualified(e->meta.key))
		nftc_puts(tok, octx->f);
	else {
		nftc_puts("meta ", octx->f);
		nftc_puts(tok, octx->f);
	}
}

/* Shared with the ct statement: "ct [original|reply] KEY". */
void nftc_print_ct_key(struct output_ctx *octx, unsigned int key,
		       int direction, unsigned int nfproto)
{
	const char *tok = key < CT_KEYS_MAX ? ct_templates[key].token : NULL;

	nftc_puts("ct ", octx->f);
	if (direction == 0)		/* IP_CT_DIR_ORIGINAL */
		nftc_puts("original ", octx->f);
	else if (direction == 1)	/* IP_CT_DIR_REPLY */
		nftc_puts("reply ", octx->f);
	if ((key == NFT_CT_SRC || key == NFT_CT_DST) &&
	    (nfproto == NFPROTO_IPV4 || nfproto == NFPROTO_IPV6))
		nftc_puts(nfproto == NFPROTO_IPV4 ? "ip " : "ip6 ", octx->f);
	nftc_puts(tok ? tok : "unknown", octx->f);
}

static void print_ct(struct output_ctx *octx, const struct expr *e)
{
	unsigned int nfproto = e->ct.nfproto;

	/* the address family shows in the type once evaluated */
	if (octx->flags & NFTC_OUTPUT_EXACT)
		;
	else if (!nfproto && e->dtype == &ipaddr_type)
		nfproto = NFPROTO_IPV4;
	else if (!nfproto && e->dtype == &ip6addr_type)
		nfproto = NFPROTO_IPV6;
	nftc_print_ct_key(octx, e->ct.key, e->ct.direction, nfproto);
}

static void print_rt(struct output_ctx *octx, const struct expr *e)
{
	const char *tok = e->rt.key < __NFT_RT_MAX ?
			  rt_templates[e->rt.key].token : NULL;

	nftc_puts("rt ", octx->f);
	if (e->rt.key == NFT_RT_NEXTHOP4)
		nftc_puts("ip ", octx->f);
	else if (e->rt.key == NFT_RT_NEXTHOP6)
		nftc_puts("ip6 ", octx->f);
	nftc_puts(tok ? tok : "unknown", octx->f);
}

static void print_socket(struct output_ctx *octx, const struct expr *e)
{
	const char *tok = e->socket.key < __NFT_SOCKET_MAX ?
			  socket_templates[e->socket.key].token : NULL;

	fprintf(octx->f, "socket %s", tok ? tok : "unknown");
	if (e->socket.key == NFT_SOCKET_CGROUPV2)
		fprintf(octx->f, " level %u", e->socket.level);
}

static void print_osf(struct output_ctx *octx, const struct expr *e)
{
	static const char *const ttl[] = { "", "ttl loose ", "ttl skip " };

	fprintf(octx->f, "osf %s%s", e->osf.ttl < 3 ? ttl[e->osf.ttl] : "",
		(e->osf.flags & NFT_OSF_F_VERSION) ? "version" : "name");
}

static const struct {
	uint32_t	flag;
	const char	*name;
} fib_flag_names[] = {
	{ NFTA_FIB_F_SADDR,	"saddr" },
	{ NFTA_FIB_F_DADDR,	"daddr" },
	{ NFTA_FIB_F_MARK,	"mark" },
	{ NFTA_FIB_F_IIF,	"iif" },
	{ NFTA_FIB_F_OIF,	"oif" },
};

static void print_fib(struct output_ctx *octx, const struct expr *e)
{
	const char *d = "", *tok = NULL;
	unsigned int i;

	nftc_puts("fib ", octx->f);
	for (i = 0; i < sizeof(fib_flag_names) / sizeof(fib_flag_names[0]);
	     i++) {
		if (e->fib.flags & fib_flag_names[i].flag) {
			fprintf(octx->f, "%s%s", d, fib_flag_names[i].name);
			d = " . ";
		}
	}
	if (e->fib.result < __NFT_FIB_RESULT_MAX)
		tok = fib_result_templates[e->fib.result].token;
	fprintf(octx->f, " %s", tok ? tok : "unknown");
}

static void print_numgen(struct output_ctx *octx, const struct expr *e)
{
	fprintf(octx->f, "numgen %s mod %u",
		e->numgen.type == NFT_NG_RANDOM ? "random" : "inc",
		e->numgen.mod);
	if (e->numgen.offset)
		fprintf(octx->f, " offset %u", e->numgen.offset);
}

static void print_hash(struct output_ctx *octx, const struct expr *e)
{
	if (e->hash.type == NFT_HASH_SYM) {
		fprintf(octx->f, "symhash mod %u", e->hash.mod);
	} else {
		nftc_puts("jhash ", octx->f);
		if (e->hash.expr)
			nftc_print_expr(octx, e->hash.expr);
		fprintf(octx->f, " mod %u", e->hash.mod);
		if (e->hash.seed_set)
			fprintf(octx->f, " seed 0x%x", e->hash.seed);
	}
	if (e->hash.offset)
		fprintf(octx->f, " offset %u", e->hash.offset);
}

static void print_xfrm(struct output_ctx *octx, const struct expr *e)
{
	const char *tok = e->xfrm.key < __NFT_XFRM_KEY_MAX ?
			  xfrm_templates[e->xfrm.key].token : NULL;

	fprintf(octx->f, "ipsec %s",
		e->xfrm.direction ? "out" : "in");
	if (e->xfrm.spnum)
		fprintf(octx->f, " spnum %u", e->xfrm.spnum);
	switch (e->xfrm.key) {
	case NFT_XFRM_KEY_DADDR_IP4:
	case NFT_XFRM_KEY_SADDR_IP4:
		nftc_puts(" ip", octx->f);
		break;
	case NFT_XFRM_KEY_DADDR_IP6:
	case NFT_XFRM_KEY_SADDR_IP6:
		nftc_puts(" ip6", octx->f);
		break;
	default:
		break;
	}
	fprintf(octx->f, " %s", tok ? tok : "unknown");
}

static void print_members(struct output_ctx *octx, const struct expr *e,
			  const char *delim)
{
	const struct expr *i;
	const char *d = "";

	list_for_each_entry(i, &e->expressions, list) {
		nftc_puts(d, octx->f);
		nftc_print_expr(octx, i);
		d = delim;
	}
}

static void print_concat(struct output_ctx *octx, const struct expr *e)
{
	print_members(octx, e, " . ");
}

static void print_list(struct output_ctx *octx, const struct expr *e)
{
	print_members(octx, e, ",");
}

/*
 * How many elements stock puts on one line of a set declaration, by key
 * type: 5 small numbers, 2 addresses/states, otherwise one per line.
 */
static unsigned int elems_per_line(const struct datatype *dtype)
{
	if (!dtype)
		return 1;
	switch (dtype->type) {
	case TYPE_NFPROTO:
	case TYPE_INTEGER:
	case TYPE_ARPOP:
	case TYPE_INET_PROTOCOL:
	case TYPE_INET_SERVICE:
	case TYPE_TCP_FLAG:
	case TYPE_DCCP_PKTTYPE:
	case TYPE_MARK:
	case TYPE_IFINDEX:
	case TYPE_CLASSID:
	case TYPE_UID:
	case TYPE_GID:
	case TYPE_CT_DIR:
		return 5;
	case TYPE_IPADDR:
	case TYPE_CT_STATE:
	case TYPE_CT_STATUS:
	case TYPE_PKTTYPE:
		return 2;
	default:
		return 1;
	}
}

/**
 * nftc_print_set_elems - "{ a, b, c }"
 * @octx: output
 * @set: EXPR_SET
 * @key_dtype: key type of the set (wrapping of declarations)
 * @multiline: wrap as in a set declaration's "elements = " line
 */
void nftc_print_set_elems(struct output_ctx *octx, const struct expr *set,
			  const struct datatype *key_dtype, bool multiline)
{
	unsigned int per_line = multiline ? elems_per_line(key_dtype) : 0;
	unsigned int count = 0, flags = octx->flags;
	const struct expr *i;
	const char *d = "";

	octx->flags |= NFTC_OUTPUT_INT_SETELEM | NFTC_OUTPUT_INT_FLAGOR;
	octx->flags &= ~NFTC_OUTPUT_INT_FLAGLIST;
	nftc_puts("{ ", octx->f);
	list_for_each_entry(i, &set->expressions, list) {
		if (i->flags & EXPR_F_EXISTING)
			continue;
		nftc_puts(d, octx->f);
		nftc_print_expr(octx, i);
		count++;
		d = ", ";
		if (per_line && count >= per_line) {
			d = ",\n\t\t\t     ";
			count = 0;
		}
	}
	nftc_puts(" }", octx->f);
	octx->flags = flags;
}

/**
 * nftc_print_set_elems_from - "{ a, b, c }" of elements made on the fly
 *
 * As nftc_print_set_elems() (packed elements of a listing: each is IR
 * only while it is printed).
 */
void nftc_print_set_elems_from(struct output_ctx *octx, unsigned int n,
			       void (*print)(const void *arg, unsigned int k,
					     struct output_ctx *octx),
			       const void *arg,
			       const struct datatype *key_dtype,
			       bool multiline)
{
	unsigned int per_line = multiline ? elems_per_line(key_dtype) : 0;
	unsigned int count = 0, flags = octx->flags, k;
	const char *d = "";

	octx->flags |= NFTC_OUTPUT_INT_SETELEM | NFTC_OUTPUT_INT_FLAGOR;
	octx->flags &= ~NFTC_OUTPUT_INT_FLAGLIST;
	nftc_puts("{ ", octx->f);
	for (k = 0; k < n; k++) {
		nftc_puts(d, octx->f);
		print(arg, k, octx);
		count++;
		d = ", ";
		if (per_line && count >= per_line) {
			d = ",\n\t\t\t     ";
			count = 0;
		}
	}
	nftc_puts(" }", octx->f);
	octx->flags = flags;
}

static void print_set(struct output_ctx *octx, const struct expr *e)
{
	nftc_print_set_elems(octx, e, NULL, false);
}

static void print_set_ref(struct output_ctx *octx, const struct expr *e)
{
	const struct set *s = e->set_ref.set;

	if (!s) {
		nftc_puts("@?", octx->f);
		return;
	}
	if ((s->flags & SET_F_ANONYMOUS) && !(s->flags & SET_F_EVAL) &&
	    s->init) {
		nftc_print_set_elems(octx, s->init, NULL, false);
		return;
	}
	fprintf(octx->f, "@%s", s->handle.set.name ? s->handle.set.name : "?");
}

static void print_set_elem(struct output_ctx *octx, const struct expr *e)
{
	unsigned int flags = octx->flags;
	const struct stmt *s;

	if (e->elem.key)
		nftc_print_expr(octx, e->elem.key);
	else
		nftc_putc('*', octx->f);	/* the catch-all element */
	list_for_each_entry(s, &e->elem.stmts, list) {
		nftc_putc(' ', octx->f);
		nftc_print_stmt(octx, s);
	}
	octx->flags = flags;
	if (e->elem.timeout) {
		nftc_puts(" timeout ", octx->f);
		nftc_print_time(octx, e->elem.timeout);
	}
	if (e->elem.expiration && !(octx->flags & NFTC_OUTPUT_STATELESS)) {
		nftc_puts(" expires ", octx->f);
		nftc_print_time(octx, e->elem.expiration);
	}
	if (e->elem.comment)
		fprintf(octx->f, " comment \"%s\"", e->elem.comment);
}

static void print_mapping(struct output_ctx *octx, const struct expr *e)
{
	unsigned int flags = octx->flags;

	nftc_print_expr(octx, e->pair.left);
	nftc_puts(" : ", octx->f);
	octx->flags &= ~NFTC_OUTPUT_INT_SETELEM;
	nftc_print_expr(octx, e->pair.right);
	octx->flags = flags;
}

static bool expr_is_verdict(const struct expr *e)
{
	return e && (e->kind == EXPR_VERDICT || e->dtype == &verdict_type);
}

/* Does a map's mappings (EXPR_SET or EXPR_SET_REF) map to verdicts? */
static bool mappings_are_verdicts(const struct expr *m)
{
	const struct expr *i;

	if (m->kind == EXPR_SET_REF) {
		const struct set *s = m->set_ref.set;

		if (!s)
			return false;
		if ((s->flags & SET_F_VMAP) || expr_is_verdict(s->data))
			return true;
		if (!s->init)
			return false;
		m = s->init;
	}
	if (m->kind != EXPR_SET)
		return false;
	if (m->set_flags & SET_F_VMAP)
		return true;
	list_for_each_entry(i, &m->expressions, list) {
		if (i->kind == EXPR_MAPPING)
			return expr_is_verdict(i->pair.right);
	}
	return false;
}

static void print_map(struct output_ctx *octx, const struct expr *e)
{
	const char *word = mappings_are_verdicts(e->map.mappings) ?
			   " vmap " : " map ";

	if (nftc_print_map_lowered(octx, e, word))
		return;
	nftc_print_expr(octx, e->map.key);
	nftc_puts(word, octx->f);
	nftc_print_expr(octx, e->map.mappings);
}

static void print_unary(struct output_ctx *octx, const struct expr *e)
{
	nftc_print_expr(octx, e->unary.arg);
}

/* Several flags in one value: stock lists them as flags or'ed. */
static bool is_multi_flag(const struct expr *e)
{
	uint64_t v;

	if (e->kind != EXPR_VALUE || !dtype_is_bitmask(e->dtype) ||
	    e->value.len > 64)
		return false;
	v = value_get_u64(&e->value);
	return v & (v - 1);
}

static void print_binop_arg(struct output_ctx *octx, const struct expr *op,
			    const struct expr *arg)
{
	unsigned int flags = octx->flags;
	bool paren = arg->kind == EXPR_BINOP && op_precedence[op->op] &&
		     op_precedence[op->op] < op_precedence[arg->op];

	if (op->kind == EXPR_BINOP && is_multi_flag(arg)) {
		octx->flags |= NFTC_OUTPUT_INT_FLAGOR;
		octx->flags &= ~NFTC_OUTPUT_INT_FLAGLIST;
		paren = op_precedence[op->op] &&
			op_precedence[op->op] < op_precedence[OP_OR];
	}
	if (paren)
		nftc_putc('(', octx->f);
	nftc_print_expr(octx, arg);
	if (paren)
		nftc_putc(')', octx->f);
	octx->flags = flags;
}

static void print_binop(struct output_ctx *octx, const struct expr *e)
{
	print_binop_arg(octx, e, e->pair.left);
	print_op_symbol(octx, op_symbols[e->op] ? op_symbols[e->op] : "?");
	print_binop_arg(octx, e, e->pair.right);
}

static bool is_flag_value(const struct expr *e)
{
	return e->kind == EXPR_VALUE && dtype_is_bitmask(e->dtype);
}

/* "tcp flags syn / syn,ack": a masked compare of a bitmask selector. */
static bool is_flagcmp(const struct expr *rel)
{
	const struct expr *l = rel->pair.left;

	return l->kind == EXPR_BINOP && l->op == OP_AND &&
	       is_multi_flag(l->pair.right) &&
	       dtype_is_bitmask(l->pair.left->dtype) &&
	       (rel->pair.right->kind == EXPR_VALUE ||
		rel->pair.right->kind == EXPR_LIST) &&
	       (rel->op == OP_EQ || rel->op == OP_IMPLICIT ||
		rel->op == OP_NEQ);
}

/* A raw payload load, possibly masked/shifted: its data prints in hex. */
static bool is_raw_data(const struct expr *l)
{
	while (l->kind == EXPR_BINOP)
		l = l->pair.left;
	return l->kind == EXPR_PAYLOAD && (l->payload.is_raw ||
					   !l->payload.tmpl);
}

static void print_relational_plain(struct output_ctx *octx,
				   const struct expr *e);

static void print_relational(struct output_ctx *octx, const struct expr *e)
{
	const struct expr *l = e->pair.left;

	if (nftc_print_rel_lowered(octx, e))
		return;
	if (is_raw_data(l)) {
		unsigned int flags = octx->flags;

		octx->flags |= NFTC_OUTPUT_INT_HEX;
		print_relational_plain(octx, e);
		octx->flags = flags;
		return;
	}
	print_relational_plain(octx, e);
}

static void print_relational_plain(struct output_ctx *octx,
				   const struct expr *e)
{
	const struct expr *l = e->pair.left, *r = e->pair.right;
	unsigned int flags = octx->flags;
	bool print_op;

	if (is_flagcmp(e)) {
		octx->flags |= NFTC_OUTPUT_INT_FLAGLIST;
		nftc_print_expr(octx, l->pair.left);
		nftc_puts(e->op == OP_NEQ ? " != " : " ", octx->f);
		nftc_print_expr(octx, r);
		nftc_puts(" / ", octx->f);
		nftc_print_expr(octx, l->pair.right);
		octx->flags = flags;
		return;
	}
	if (e->op == OP_IMPLICIT || e->op == OP_NEG)
		octx->flags |= NFTC_OUTPUT_INT_FLAGLIST;
	switch (e->op) {
	case OP_IMPLICIT:
		print_op = false;
		break;
	case OP_EQ:
		print_op = is_flag_value(r) || l->kind == EXPR_BINOP;
		break;
	default:
		print_op = op_symbols[e->op] != NULL;
		break;
	}
	print_binop_arg(octx, e, l);
	if (print_op)
		print_op_symbol(octx, op_symbols[e->op]);
	else
		nftc_putc(' ', octx->f);
	print_binop_arg(octx, e, r);
	octx->flags = flags;
}

static void print_invalid(struct output_ctx *octx, const struct expr *e)
{
	fprintf(octx->f, "<%s>", expr_kind_name(e->kind));
}

static const expr_print_fn expr_printers[__EXPR_MAX] = {
	[EXPR_INVALID]		= print_invalid,
	[EXPR_SYMBOL]		= print_symbol,
	[EXPR_VARIABLE]		= print_variable,
	[EXPR_VALUE]		= print_value,
	[EXPR_VERDICT]		= print_verdict,
	[EXPR_PREFIX]		= print_prefix,
	[EXPR_RANGE]		= print_range,
	[EXPR_PAYLOAD]		= print_payload,
	[EXPR_EXTHDR]		= print_exthdr,
	[EXPR_META]		= print_meta,
	[EXPR_CT]		= print_ct,
	[EXPR_RT]		= print_rt,
	[EXPR_SOCKET]		= print_socket,
	[EXPR_OSF]		= print_osf,
	[EXPR_FIB]		= print_fib,
	[EXPR_NUMGEN]		= print_numgen,
	[EXPR_HASH]		= print_hash,
	[EXPR_XFRM]		= print_xfrm,
	[EXPR_CONCAT]		= print_concat,
	[EXPR_LIST]		= print_list,
	[EXPR_SET]		= print_set,
	[EXPR_SET_REF]		= print_set_ref,
	[EXPR_SET_ELEM]		= print_set_elem,
	[EXPR_MAPPING]		= print_mapping,
	[EXPR_MAP]		= print_map,
	[EXPR_UNARY]		= print_unary,
	[EXPR_BINOP]		= print_binop,
	[EXPR_RELATIONAL]	= print_relational,
};

/**
 * nftc_print_expr - print one expression as nft lists it
 * @octx: output context
 * @expr: any expression (typed or not)
 */
void nftc_print_expr(struct output_ctx *octx, const struct expr *expr)
{
	if (!expr)
		return;
	if (expr->kind >= __EXPR_MAX || !expr_printers[expr->kind]) {
		print_invalid(octx, expr);
		return;
	}
	if (octx->rec && expr->location.first_line >= TMPL_MARK) {
		list_tmpl_rec_value(octx, expr);
		return;
	}
	expr_printers[expr->kind](octx, expr);
}
