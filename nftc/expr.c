/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IR expression nodes: allocation, reference counting, deep copies and
 * the constructors of every expression kind.
 *
 * Ownership (see STYLE.md rule 8): every constructor returns one
 * reference and takes ownership of the children passed to it. A
 * constructor returns NULL only when memory is exhausted; children are
 * then released so callers need not unwind them.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"
#include "stmt.h"
#include "rule.h"
#include "keys.h"
#include "node_cache.h"

static struct node_cache expr_cache;

/* expr_node_alloc - an uninitialised node (the cache of freed ones first) */
struct expr *expr_node_alloc(void)
{
	return node_cache_get(&expr_cache, sizeof(struct expr));
}

/* expr_node_release - give back a node whose contents are gone or moved */
void expr_node_release(struct expr *e)
{
	node_cache_put(&expr_cache, e, sizeof(*e));
}

const char *const op_names[__OP_MAX] = {
	[OP_INVALID]	= "invalid",
	[OP_HTON]	= "hton",
	[OP_NTOH]	= "ntoh",
	[OP_LSHIFT]	= "<<",
	[OP_RSHIFT]	= ">>",
	[OP_AND]	= "&",
	[OP_XOR]	= "^",
	[OP_OR]		= "|",
	[OP_IMPLICIT]	= "implicit",
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

static const char *const expr_kind_names[__EXPR_MAX] = {
	[EXPR_INVALID]		= "invalid",
	[EXPR_SYMBOL]		= "symbol",
	[EXPR_VARIABLE]		= "variable",
	[EXPR_VALUE]		= "value",
	[EXPR_VERDICT]		= "verdict",
	[EXPR_PREFIX]		= "prefix",
	[EXPR_RANGE]		= "range",
	[EXPR_PAYLOAD]		= "payload",
	[EXPR_EXTHDR]		= "exthdr",
	[EXPR_META]		= "meta",
	[EXPR_CT]		= "ct",
	[EXPR_RT]		= "rt",
	[EXPR_SOCKET]		= "socket",
	[EXPR_OSF]		= "osf",
	[EXPR_FIB]		= "fib",
	[EXPR_NUMGEN]		= "numgen",
	[EXPR_HASH]		= "hash",
	[EXPR_XFRM]		= "ipsec",
	[EXPR_CONCAT]		= "concat",
	[EXPR_LIST]		= "list",
	[EXPR_SET]		= "set",
	[EXPR_SET_REF]		= "set reference",
	[EXPR_SET_ELEM]		= "set element",
	[EXPR_MAPPING]		= "mapping",
	[EXPR_MAP]		= "map",
	[EXPR_UNARY]		= "unary",
	[EXPR_BINOP]		= "binop",
	[EXPR_RELATIONAL]	= "relational",
};

_Static_assert(sizeof(expr_kind_names) / sizeof(expr_kind_names[0]) ==
	       __EXPR_MAX, "expr_kind_names out of sync");

/**
 * expr_kind_name - printable name of an expression kind
 * @kind: the kind
 *
 * Returns the bare name ("payload", "set reference") as stock nft's
 * expression ops name them.
 */
const char *expr_kind_name(enum expr_kind kind)
{
	if ((unsigned int)kind >= __EXPR_MAX)
		return "unknown";
	return expr_kind_names[kind];
}

static bool expr_kind_is_list(enum expr_kind kind)
{
	return kind == EXPR_CONCAT || kind == EXPR_LIST || kind == EXPR_SET;
}

/**
 * expr_alloc - allocate a bare expression node with one reference
 * @loc: source span (NULL: internal)
 * @kind: expression kind
 * @dtype: datatype (NULL: invalid_type)
 * @byteorder: register byte order
 * @len: width in bits
 */
struct expr *expr_alloc(const struct location *loc, enum expr_kind kind,
			const struct datatype *dtype, enum byteorder byteorder,
			unsigned int len)
{
	struct expr *e = expr_node_alloc();

	if (!e)
		return NULL;
	/* the header is set field by field: only the union is cleared */
	memset(&e->sym, 0, sizeof(*e) - offsetof(struct expr, sym));
	init_list_head(&e->list);
	e->location = loc ? *loc : internal_location;
	e->kind = kind;
	e->op = OP_INVALID;
	e->flags = 0;
	e->dtype = dtype ? dtype : &invalid_type;
	if (e->dtype->flags & DTYPE_F_ALLOC)
		datatype_get(e->dtype);
	e->byteorder = byteorder;
	e->len = len;
	e->refcnt = 1;
	if (expr_kind_is_list(kind))
		init_list_head(&e->expressions);
	else if (kind == EXPR_SET_ELEM)
		init_list_head(&e->elem.stmts);
	return e;
}

/**
 * expr_get - take another reference to @expr
 */
struct expr *expr_get(struct expr *expr)
{
	if (expr)
		expr->refcnt++;
	return expr;
}

static void expr_list_free(struct list_head *head)
{
	struct expr *i, *next;

	list_for_each_entry_safe(i, next, head, list) {
		list_del(&i->list);
		expr_free(i);
	}
}

/* Release what the node owns; the switch names every kind on purpose. */
static void expr_destroy(struct expr *e)
{
	switch ((enum expr_kind)e->kind) {
	case EXPR_SYMBOL:
	case EXPR_VARIABLE:
		free(e->sym.identifier);
		expr_free(e->sym.value);
		break;
	case EXPR_VERDICT:
		expr_free(e->verdict.chain);
		break;
	case EXPR_PREFIX:
		expr_free(e->prefix.expr);
		break;
	case EXPR_RANGE:
	case EXPR_MAPPING:
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
		expr_free(e->pair.left);
		expr_free(e->pair.right);
		break;
	case EXPR_UNARY:
		expr_free(e->unary.arg);
		break;
	case EXPR_HASH:
		expr_free(e->hash.expr);
		break;
	case EXPR_CONCAT:
	case EXPR_LIST:
	case EXPR_SET:
		expr_list_free(&e->expressions);
		break;
	case EXPR_SET_REF:
		set_free(e->set_ref.set);
		break;
	case EXPR_SET_ELEM:
		expr_free(e->elem.key);
		free(e->elem.comment);
		stmt_list_free(&e->elem.stmts);
		break;
	case EXPR_MAP:
		expr_free(e->map.key);
		expr_free(e->map.mappings);
		break;
	case EXPR_INVALID:
	case EXPR_VALUE:
	case EXPR_PAYLOAD:
	case EXPR_EXTHDR:
	case EXPR_META:
	case EXPR_CT:
	case EXPR_RT:
	case EXPR_SOCKET:
	case EXPR_OSF:
	case EXPR_FIB:
	case EXPR_NUMGEN:
	case EXPR_XFRM:
	case __EXPR_MAX:
		break;
	}
}

/**
 * expr_free - drop one reference; the last one frees the tree
 * @expr: expression or NULL
 */
void expr_free(struct expr *expr)
{
	if (!expr)
		return;
	if (--expr->refcnt > 0)
		return;
	expr_destroy(expr);
	if (expr->dtype && (expr->dtype->flags & DTYPE_F_ALLOC))
		datatype_free(expr->dtype);
	expr_node_release(expr);
}

static void expr_list_clone(struct expr *dst, const struct expr *src)
{
	const struct expr *i;

	init_list_head(&dst->expressions);
	list_for_each_entry(i, &src->expressions, list) {
		struct expr *c = expr_clone(i);

		if (c)
			list_add_tail(&c->list, &dst->expressions);
	}
}

static char *strdup_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Deep-copy the children of @src into @dst (a bitwise copy of @src). */
static void expr_clone_children(struct expr *dst, const struct expr *src)
{
	const struct stmt *s;

	switch ((enum expr_kind)src->kind) {
	case EXPR_SYMBOL:
	case EXPR_VARIABLE:
		dst->sym.identifier = strdup_null(src->sym.identifier);
		/* A variable's binding is shared, not copied. */
		dst->sym.value = expr_get(src->sym.value);
		break;
	case EXPR_VERDICT:
		dst->verdict.chain = expr_clone(src->verdict.chain);
		break;
	case EXPR_PREFIX:
		dst->prefix.expr = expr_clone(src->prefix.expr);
		break;
	case EXPR_RANGE:
	case EXPR_MAPPING:
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
		dst->pair.left = expr_clone(src->pair.left);
		dst->pair.right = expr_clone(src->pair.right);
		break;
	case EXPR_UNARY:
		dst->unary.arg = expr_clone(src->unary.arg);
		break;
	case EXPR_HASH:
		dst->hash.expr = expr_clone(src->hash.expr);
		break;
	case EXPR_CONCAT:
	case EXPR_LIST:
	case EXPR_SET:
		expr_list_clone(dst, src);
		break;
	case EXPR_SET_REF:
		dst->set_ref.set = set_get(src->set_ref.set);
		break;
	case EXPR_SET_ELEM:
		dst->elem.key = expr_clone(src->elem.key);
		dst->elem.comment = strdup_null(src->elem.comment);
		init_list_head(&dst->elem.stmts);
		list_for_each_entry(s, &src->elem.stmts, list) {
			struct stmt *c = stmt_clone(s);

			if (c)
				list_add_tail(&c->list, &dst->elem.stmts);
		}
		break;
	case EXPR_MAP:
		dst->map.key = expr_clone(src->map.key);
		dst->map.mappings = expr_clone(src->map.mappings);
		break;
	case EXPR_INVALID:
	case EXPR_VALUE:
	case EXPR_PAYLOAD:
	case EXPR_EXTHDR:
	case EXPR_META:
	case EXPR_CT:
	case EXPR_RT:
	case EXPR_SOCKET:
	case EXPR_OSF:
	case EXPR_FIB:
	case EXPR_NUMGEN:
	case EXPR_XFRM:
	case __EXPR_MAX:
		break;
	}
}

/**
 * expr_clone - deep copy of an expression tree
 * @expr: source (may be NULL)
 *
 * The copy has one reference and is not linked in any list. Variable
 * bindings and set references are shared (their reference is taken).
 */
struct expr *expr_clone(const struct expr *expr)
{
	struct expr *e;

	if (!expr)
		return NULL;
	e = expr_node_alloc();
	if (!e)
		return NULL;
	*e = *expr;
	init_list_head(&e->list);
	e->refcnt = 1;
	if (e->dtype && (e->dtype->flags & DTYPE_F_ALLOC))
		datatype_get(e->dtype);
	expr_clone_children(e, expr);
	return e;
}

struct expr *symbol_expr_alloc(const struct location *loc,
			       enum symbol_kind type, const char *text)
{
	struct expr *e = expr_alloc(loc, EXPR_SYMBOL, NULL, BYTEORDER_INVALID,
				    0);

	if (!e)
		return NULL;
	e->flags = EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	e->sym.symtype = type;
	e->sym.identifier = strdup(text ? text : "");
	return e;
}

/**
 * symbol_expr_alloc_own - symbol whose text the caller hands over
 *
 * The scanner's strings become symbols without another copy.
 */
struct expr *symbol_expr_alloc_own(const struct location *loc,
				   enum symbol_kind type, char *text)
{
	struct expr *e;

	if (!text)
		return symbol_expr_alloc(loc, type, NULL);
	e = expr_alloc(loc, EXPR_SYMBOL, NULL, BYTEORDER_INVALID, 0);
	if (!e) {
		free(text);
		return NULL;
	}
	e->flags = EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	e->sym.symtype = type;
	e->sym.identifier = text;
	return e;
}

/**
 * variable_expr_alloc - "$name" bound to @value
 * @value: the bound expression; the new node owns this reference
 */
struct expr *variable_expr_alloc(const struct location *loc,
				 const char *name, struct expr *value)
{
	struct expr *e = expr_alloc(loc, EXPR_VARIABLE, NULL,
				    BYTEORDER_INVALID, 0);

	if (!e) {
		expr_free(value);
		return NULL;
	}
	e->flags = EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	e->sym.identifier = strdup(name);
	e->sym.value = value;
	return e;
}

struct expr *constant_expr_alloc(const struct location *loc,
				 const struct datatype *dtype,
				 enum byteorder byteorder, unsigned int len,
				 const struct value *v)
{
	struct expr *e = expr_alloc(loc, EXPR_VALUE, dtype, byteorder, len);

	if (!e)
		return NULL;
	e->flags = EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	if (v) {
		e->value = *v;
		if (e->value.len != len)
			value_resize(&e->value, len);
	} else {
		value_init(&e->value, len);
	}
	return e;
}

struct expr *constant_expr_u64(const struct location *loc,
			       const struct datatype *dtype,
			       enum byteorder byteorder, unsigned int len,
			       uint64_t n)
{
	struct expr *e = constant_expr_alloc(loc, dtype, byteorder, len,
					     NULL);

	if (e)
		value_set_u64(&e->value, len, n);
	return e;
}

struct expr *constant_expr_string(const struct location *loc,
				  const struct datatype *dtype,
				  const char *s, unsigned int len)
{
	uint8_t buf[NFTC_VALUE_MAX] = { 0 };
	size_t slen = strlen(s);
	struct expr *e;

	if (!len)
		len = slen * 8;
	if (len > NFTC_VALUE_MAX * 8)
		len = NFTC_VALUE_MAX * 8;
	if (slen > len / 8)
		slen = len / 8;
	memcpy(buf, s, slen);
	e = constant_expr_alloc(loc, dtype, BYTEORDER_BIG, len, NULL);
	if (e)
		value_set_bytes(&e->value, len, buf);
	return e;
}

/**
 * verdict_expr_alloc - a verdict
 * @verdict: NF_ACCEPT, NF_DROP, NF_QUEUE, NFT_CONTINUE, NFT_RETURN,
 *           NFT_JUMP, NFT_GOTO
 * @chain: jump/goto target (EXPR_SYMBOL or EXPR_VARIABLE), else NULL
 */
struct expr *verdict_expr_alloc(const struct location *loc, int verdict,
				struct expr *chain)
{
	struct expr *e = expr_alloc(loc, EXPR_VERDICT, &verdict_type,
				    BYTEORDER_INVALID, 0);

	if (!e) {
		expr_free(chain);
		return NULL;
	}
	e->flags = EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	e->verdict.verdict = verdict;
	e->verdict.chain = chain;
	return e;
}

struct expr *prefix_expr_alloc(const struct location *loc, struct expr *expr,
			       unsigned int prefix_len)
{
	struct expr *e = expr_alloc(loc, EXPR_PREFIX,
				    expr ? expr->dtype : NULL,
				    BYTEORDER_INVALID, expr ? expr->len : 0);

	if (!e) {
		expr_free(expr);
		return NULL;
	}
	e->flags = EXPR_F_CONSTANT;
	e->prefix.expr = expr;
	e->prefix.prefix_len = prefix_len;
	return e;
}

/*
 * The expressions of two operands (range, mapping, binop, relational)
 * take ownership of both: on allocation failure both are freed, so a
 * caller never leaks on the error path.
 */
static struct expr *pair_expr_alloc(const struct location *loc,
				    enum expr_kind kind,
				    const struct datatype *dtype,
				    enum byteorder byteorder,
				    unsigned int len, struct expr *left,
				    struct expr *right)
{
	struct expr *e = expr_alloc(loc, kind, dtype, byteorder, len);

	if (!e) {
		expr_free(left);
		expr_free(right);
		return NULL;
	}
	e->pair.left = left;
	e->pair.right = right;
	return e;
}

struct expr *range_expr_alloc(const struct location *loc, struct expr *low,
			      struct expr *high)
{
	struct expr *e = pair_expr_alloc(loc, EXPR_RANGE, NULL,
					 BYTEORDER_INVALID, 0, low, high);

	if (e)
		e->flags = EXPR_F_CONSTANT;
	return e;
}

/**
 * payload_expr_alloc - header field @field of @desc
 *
 * Type, width and byte order come from the field's template; the
 * protocol key field (ip protocol, ether type, ...) is flagged
 * EXPR_F_PROTOCOL.
 */
struct expr *payload_expr_alloc(const struct location *loc,
				const struct proto_desc *desc,
				unsigned int field)
{
	const struct proto_hdr_template *tmpl = &desc->templates[field];
	struct expr *e;

	e = expr_alloc(loc, EXPR_PAYLOAD, tmpl->dtype, tmpl->byteorder,
		       tmpl->len);
	if (!e)
		return NULL;
	e->payload.desc = desc;
	e->payload.tmpl = tmpl;
	e->payload.base = desc->base;
	e->payload.offset = tmpl->offset;
	if (desc->protocol_key && desc->protocol_key == field)
		e->flags |= EXPR_F_PROTOCOL;
	return e;
}

/**
 * payload_raw_alloc - "@base,offset,len": an integer in network order
 */
struct expr *payload_raw_alloc(const struct location *loc,
			       enum proto_bases base, unsigned int offset,
			       unsigned int len)
{
	struct expr *e = expr_alloc(loc, EXPR_PAYLOAD, &integer_type,
				    BYTEORDER_BIG, len);

	if (!e)
		return NULL;
	e->payload.base = base;
	e->payload.offset = offset;
	e->payload.is_raw = true;
	return e;
}

/**
 * exthdr_expr_alloc - field @field of extension header/option @desc
 * @desc: NULL for raw option loads (the caller fills raw_type, offset
 *        and len)
 * @field: template index; 0 means "the header itself" (existence test)
 * @op: NFT_EXTHDR_OP_IPV6, _TCPOPT, _IPV4 or _SCTP
 */
struct expr *exthdr_expr_alloc(const struct location *loc,
			       const struct exthdr_desc *desc,
			       unsigned int field, enum nft_exthdr_op op)
{
	const struct proto_hdr_template *tmpl = NULL;
	struct expr *e;

	if (desc)
		tmpl = &desc->templates[field];
	e = expr_alloc(loc, EXPR_EXTHDR,
		       tmpl && tmpl->dtype ? tmpl->dtype : &integer_type,
		       tmpl ? tmpl->byteorder : BYTEORDER_BIG,
		       tmpl ? tmpl->len : 0);
	if (!e)
		return NULL;
	e->exthdr.desc = desc;
	e->exthdr.tmpl = tmpl;
	e->exthdr.op = op;
	e->exthdr.offset = tmpl ? tmpl->offset : 0;
	e->exthdr.raw_type = desc ? desc->type : 0;
	return e;
}

static struct expr *key_expr_alloc(const struct location *loc,
				   enum expr_kind kind,
				   const struct key_template *t)
{
	return expr_alloc(loc, kind, t->dtype ? t->dtype : &invalid_type,
			  t->byteorder, t->len);
}

struct expr *meta_expr_alloc(const struct location *loc,
			     enum nft_meta_keys key)
{
	struct expr *e;

	if ((unsigned int)key >= META_KEYS_MAX)
		return NULL;
	e = key_expr_alloc(loc, EXPR_META, &meta_templates[key]);
	if (e)
		e->meta.key = key;
	return e;
}

/**
 * ct_expr_alloc - conntrack key
 * @direction: IP_CT_DIR_ORIGINAL/REPLY, or -1 for none
 */
struct expr *ct_expr_alloc(const struct location *loc, enum nft_ct_keys key,
			   int direction)
{
	struct expr *e;

	if ((unsigned int)key >= CT_KEYS_MAX)
		return NULL;
	e = key_expr_alloc(loc, EXPR_CT, &ct_templates[key]);
	if (!e)
		return NULL;
	e->ct.key = key;
	e->ct.direction = direction;
	return e;
}

struct expr *rt_expr_alloc(const struct location *loc, enum nft_rt_keys key)
{
	struct expr *e;

	if ((unsigned int)key >= __NFT_RT_MAX)
		return NULL;
	e = key_expr_alloc(loc, EXPR_RT, &rt_templates[key]);
	if (e)
		e->rt.key = key;
	return e;
}

struct expr *socket_expr_alloc(const struct location *loc,
			       enum nft_socket_keys key, uint32_t level)
{
	struct expr *e;

	if ((unsigned int)key >= __NFT_SOCKET_MAX)
		return NULL;
	e = key_expr_alloc(loc, EXPR_SOCKET, &socket_templates[key]);
	if (!e)
		return NULL;
	e->socket.key = key;
	e->socket.level = level;
	return e;
}

/* The OS name is a string of the VM's maximum genre length (16 bytes). */
#define OSF_NAME_BITS	(16 * 8)

struct expr *osf_expr_alloc(const struct location *loc, uint8_t ttl,
			    uint32_t flags)
{
	/* A string: raw bytes, big endian in our value model. */
	struct expr *e = expr_alloc(loc, EXPR_OSF, &string_type,
				    BYTEORDER_BIG, OSF_NAME_BITS);

	if (!e)
		return NULL;
	e->osf.ttl = ttl;
	e->osf.flags = flags;
	return e;
}

/**
 * fib_expr_alloc - fib lookup
 * @flags: NFTA_FIB_F_* (saddr, daddr, mark, iif, oif, present)
 * @result: NFT_FIB_RESULT_*
 */
struct expr *fib_expr_alloc(const struct location *loc, uint32_t flags,
			    uint32_t result)
{
	const struct key_template *t;
	struct expr *e;

	if (result >= __NFT_FIB_RESULT_MAX)
		return NULL;
	t = &fib_result_templates[result];
	if (flags & NFTA_FIB_F_PRESENT)
		e = expr_alloc(loc, EXPR_FIB, &boolean_type, BYTEORDER_HOST,
			       1);
	else
		e = key_expr_alloc(loc, EXPR_FIB, t);
	if (!e)
		return NULL;
	e->fib.flags = flags;
	e->fib.result = result;
	return e;
}

struct expr *numgen_expr_alloc(const struct location *loc,
			       enum nft_ng_types type, uint32_t mod,
			       uint32_t offset)
{
	struct expr *e = expr_alloc(loc, EXPR_NUMGEN, &integer_type,
				    BYTEORDER_HOST, 32);

	if (!e)
		return NULL;
	e->numgen.type = type;
	e->numgen.mod = mod;
	e->numgen.offset = offset;
	return e;
}

/**
 * hash_expr_alloc - jhash/symhash; the caller sets hash.expr for jhash
 */
struct expr *hash_expr_alloc(const struct location *loc, uint32_t mod,
			     bool seed_set, uint32_t seed, uint32_t offset,
			     enum nft_hash_types type)
{
	struct expr *e = expr_alloc(loc, EXPR_HASH, &integer_type,
				    BYTEORDER_HOST, 32);

	if (!e)
		return NULL;
	e->hash.mod = mod;
	e->hash.seed_set = seed_set;
	e->hash.seed = seed;
	e->hash.offset = offset;
	e->hash.type = type;
	return e;
}

struct expr *xfrm_expr_alloc(const struct location *loc,
			     enum nft_xfrm_keys key, uint8_t direction,
			     uint8_t spnum)
{
	struct expr *e;

	if ((unsigned int)key >= __NFT_XFRM_KEY_MAX)
		return NULL;
	e = key_expr_alloc(loc, EXPR_XFRM, &xfrm_templates[key]);
	if (!e)
		return NULL;
	e->xfrm.key = key;
	e->xfrm.direction = direction;
	e->xfrm.spnum = spnum;
	return e;
}

/**
 * list_expr_alloc - empty EXPR_CONCAT, EXPR_LIST or EXPR_SET
 */
struct expr *list_expr_alloc(const struct location *loc, enum expr_kind kind)
{
	struct expr *e = expr_alloc(loc, kind, NULL, BYTEORDER_INVALID, 0);

	if (e && kind == EXPR_SET)
		e->flags = EXPR_F_CONSTANT;
	return e;
}

/**
 * list_expr_add - append @member (ownership passes to @list)
 */
void list_expr_add(struct expr *list, struct expr *member)
{
	if (!member)
		return;
	list_add_tail(&member->list, &list->expressions);
	list->size++;
}

/**
 * set_ref_expr_alloc - "@name" / reference to an anonymous set
 * @set: the set; the new node takes over this reference (pass
 *       set_get(set) to keep your own)
 */
struct expr *set_ref_expr_alloc(const struct location *loc, struct set *set)
{
	const struct expr *key = set ? set->key : NULL;
	struct expr *e;

	e = expr_alloc(loc, EXPR_SET_REF, key ? key->dtype : NULL,
		       key ? key->byteorder : BYTEORDER_INVALID,
		       key ? key->len : 0);
	if (!e) {
		set_free(set);
		return NULL;
	}
	e->set_ref.set = set;
	return e;
}

struct expr *set_elem_expr_alloc(const struct location *loc,
				 struct expr *key)
{
	struct expr *e = expr_alloc(loc, EXPR_SET_ELEM,
				    key ? key->dtype : NULL,
				    key ? key->byteorder : BYTEORDER_INVALID,
				    key ? key->len : 0);

	if (!e) {
		expr_free(key);
		return NULL;
	}
	e->elem.key = key;
	if (key)
		e->flags = key->flags & (EXPR_F_CONSTANT | EXPR_F_SINGLETON);
	return e;
}

struct expr *mapping_expr_alloc(const struct location *loc,
				struct expr *key, struct expr *data)
{
	struct expr *e = pair_expr_alloc(loc, EXPR_MAPPING, NULL,
					 BYTEORDER_INVALID, 0, key, data);

	if (e)
		e->flags = EXPR_F_CONSTANT;
	return e;
}

struct expr *map_expr_alloc(const struct location *loc, struct expr *key,
			    struct expr *mappings)
{
	struct expr *e = expr_alloc(loc, EXPR_MAP, NULL, BYTEORDER_INVALID,
				    0);

	if (!e) {
		expr_free(key);
		expr_free(mappings);
		return NULL;
	}
	e->map.key = key;
	e->map.mappings = mappings;
	return e;
}

struct expr *unary_expr_alloc(const struct location *loc, enum ops op,
			      struct expr *arg)
{
	struct expr *e = expr_alloc(loc, EXPR_UNARY, arg ? arg->dtype : NULL,
				    BYTEORDER_INVALID, arg ? arg->len : 0);

	if (!e) {
		expr_free(arg);
		return NULL;
	}
	e->op = op;
	e->unary.arg = arg;
	return e;
}

struct expr *binop_expr_alloc(const struct location *loc, enum ops op,
			      struct expr *left, struct expr *right)
{
	struct expr *e = pair_expr_alloc(loc, EXPR_BINOP,
				left ? left->dtype : NULL,
				left ? left->byteorder : BYTEORDER_INVALID,
				left ? left->len : 0, left, right);

	if (e)
		e->op = op;
	return e;
}

struct expr *relational_expr_alloc(const struct location *loc, enum ops op,
				   struct expr *left, struct expr *right)
{
	struct expr *e = pair_expr_alloc(loc, EXPR_RELATIONAL, &boolean_type,
					 BYTEORDER_INVALID, 0, left, right);

	if (e)
		e->op = op;
	return e;
}
