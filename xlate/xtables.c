// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libxtables glue: load iptables extensions, hand them their options and
 * run their final checks, so that option parsing and its errors are
 * exactly iptables'.
 *
 * libxtables reports errors through xtables_globals.exit_err, which must
 * not return. Ours records the message and longjmps back to the guarded
 * call that led there (xl_guard), so a bad option never ends the
 * process. libxtables itself is process-global (loaded extensions, the
 * family, xt_params), hence the few statics here: the jump buffer of
 * the guarded call in progress and the message.
 */
#include <config.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xtables.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include "xlate_int.h"

static __thread jmp_buf *xl_jmp;
static __thread char xl_msg[512];

static void __attribute__((noreturn)) xl_exit_err(enum xtables_exittype status,
						 const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(xl_msg, sizeof(xl_msg), fmt, ap);
	va_end(ap);
	n = strlen(xl_msg);
	while (n && (xl_msg[n - 1] == '\n' || xl_msg[n - 1] == ' '))
		xl_msg[--n] = '\0';
	if (xl_jmp)
		longjmp(*xl_jmp, 1);
	/* every libxtables call goes through xl_guard(): unreachable */
	abort();
}

/* Our translations pick the newest revision the extension offers. */
static int xl_compat_rev(const char *name, uint8_t rev, int opt)
{
	return 1;
}

static struct option xl_orig_opts[] = {
	{ NULL },
};

static struct xtables_globals xl_globals = {
	.program_name		= "iptables",
	.program_version	= "1.8.9",
	.orig_opts		= xl_orig_opts,
	.opts			= xl_orig_opts,
	.exit_err		= xl_exit_err,
	.compat_rev		= xl_compat_rev,
};

/**
 * struct xl_xt_rule - the extensions of one rule
 * @matches: libxtables' list (it clones a match used twice)
 * @target: the target, if any
 * @exts: struct xl_ext in load order
 */
struct xl_xt_rule {
	struct xtables_rule_match	*matches;
	struct xtables_target		*target;
	struct list_head		exts;
};

struct xl_call {
	void	(*fn)(struct xl_call *c);
	void	*ext;
	unsigned int id;
	char	**argv;
	char	*optarg;
	bool	invert;
	const char *name;
	void	*result;
	uint8_t	family;
};

/* Run c->fn with libxtables' exit redirected; -1 and @err on error. */
static int xl_guard(struct xl_call *c, char *err, size_t len)
{
	jmp_buf jb, *saved = xl_jmp;

	if (setjmp(jb)) {
		xl_jmp = saved;
		snprintf(err, len, "%s", xl_msg);
		return -1;
	}
	xl_jmp = &jb;
	c->fn(c);
	xl_jmp = saved;
	return 0;
}

static void do_init(struct xl_call *c)
{
	xtables_init_all(&xl_globals, c->family);
	xtables_set_nfproto(c->family);
}

/**
 * xl_xt_entry - the ipt_entry/ip6t_entry some extensions look at while
 * parsing (multiport and others read the rule's protocol from it)
 */
void *xl_xt_entry(uint8_t family, uint16_t proto, bool inv)
{
	static __thread union {
		struct ipt_entry	e4;
		struct ip6t_entry	e6;
	} fw;

	memset(&fw, 0, sizeof(fw));
	if (family == NFPROTO_IPV6) {
		fw.e6.ipv6.proto = proto;
		if (proto)
			fw.e6.ipv6.flags |= IP6T_F_PROTO;
		if (inv)
			fw.e6.ipv6.invflags |= XT_INV_PROTO;
	} else {
		fw.e4.ip.proto = proto;
		if (inv)
			fw.e4.ip.invflags |= XT_INV_PROTO;
	}
	return &fw;
}

/**
 * xl_xt_init - set libxtables up for @family (once per process)
 */
int xl_xt_init(uint8_t family, char *err, size_t len)
{
	static int done = -1;	/* libxtables is process-global */
	struct xl_call c = { .fn = do_init, .family = family };

	if (done == family)
		return 0;
	if (done >= 0) {
		snprintf(err, len, "libxtables is set up for another family");
		return -1;
	}
	if (xl_guard(&c, err, len) < 0)
		return -1;
	done = family;
	return 0;
}

/*
 * A rule's extension list and its entries are kept for the next rule
 * (per thread) instead of being freed and allocated again for each.
 */
static __thread struct xl_xt_rule *xl_spare_rule;
static __thread struct list_head xl_spare_ext_list;

static struct list_head *spare_exts(void)
{
	if (!xl_spare_ext_list.next)
		init_list_head(&xl_spare_ext_list);
	return &xl_spare_ext_list;
}

void xl_xt_spares_free(void)
{
	struct list_head *head = spare_exts();
	struct xl_ext *e, *n;

	list_for_each_entry_safe(e, n, head, list) {
		list_del(&e->list);
		free(e);
	}
	free(xl_spare_rule);
	xl_spare_rule = NULL;
}

struct xl_xt_rule *xl_xt_rule_alloc(void)
{
	struct xl_xt_rule *xr = xl_spare_rule;

	if (xr)
		xl_spare_rule = NULL;
	else
		xr = calloc(1, sizeof(*xr));
	if (xr)
		init_list_head(&xr->exts);
	return xr;
}

void xl_xt_rule_free(struct xl_xt_rule *xr)
{
	struct xl_ext *e, *n;

	if (!xr)
		return;
	list_for_each_entry_safe(e, n, &xr->exts, list) {
		list_del(&e->list);
		free(e->setref);
		list_add(&e->list, spare_exts());
	}
	xtables_rule_matches_free(&xr->matches);
	if (xr->target) {
		free(xr->target->t);
		xr->target->t = NULL;
		free(xr->target->udata);
		xr->target->udata = NULL;
	}
	if (xl_spare_rule) {
		free(xr);
		return;
	}
	memset(xr, 0, sizeof(*xr));
	xl_spare_rule = xr;
}

struct list_head *xl_xt_exts(struct xl_xt_rule *xr)
{
	return &xr->exts;
}

/*
 * The matches found so far, by the name asked for. xtables_find_match()
 * walks libxtables' lists (its pending registrations, then every match
 * loaded) for each -m of each rule; for a match not yet in the rule it
 * then only appends it to the rule's list, which is all we do here for
 * a name seen before. A match already in the rule (libxtables then
 * clones it) still goes through libxtables.
 */
#define XL_MATCH_CACHE	32

static struct {
	char			name[XT_EXTENSION_MAXNAMELEN];
	struct xtables_match	*match;
} xl_match_cache[XL_MATCH_CACHE];

static struct xtables_match *cached_match(struct xl_xt_rule *xr,
					  const char *name)
{
	struct xtables_rule_match **i, *entry;
	unsigned int k;

	for (k = 0; k < XL_MATCH_CACHE && xl_match_cache[k].match; k++) {
		if (xl_match_cache[k].name[0] != name[0] ||
		    strcmp(xl_match_cache[k].name, name))
			continue;
		if (xl_match_cache[k].match->m)
			return NULL;	/* in the rule already: a clone */
		entry = xtables_malloc(sizeof(*entry));
		entry->match = xl_match_cache[k].match;
		entry->completed = false;
		entry->next = NULL;
		for (i = &xr->matches; *i; i = &(*i)->next)
			;
		*i = entry;
		return entry->match;
	}
	return NULL;
}

static void cache_match(const char *name, struct xtables_match *m)
{
	unsigned int k;

	if (m->next == m || strlen(name) >= XT_EXTENSION_MAXNAMELEN)
		return;		/* a clone, or a name libxtables refuses */
	for (k = 0; k < XL_MATCH_CACHE; k++) {
		if (!xl_match_cache[k].match) {
			strcpy(xl_match_cache[k].name, name);
			xl_match_cache[k].match = m;
			return;
		}
		if (!strcmp(xl_match_cache[k].name, name))
			return;
	}
}

static void do_find_match(struct xl_call *c)
{
	struct xl_xt_rule *xr = c->ext;
	struct xtables_match *m;
	size_t size;

	m = cached_match(xr, c->name);
	if (!m) {
		m = xtables_find_match(c->name, XTF_TRY_LOAD, &xr->matches);
		if (m)
			cache_match(c->name, m);
	}
	c->result = m;
	if (!m)
		return;
	size = XT_ALIGN(sizeof(struct xt_entry_match)) + m->size;
	m->m = xtables_calloc(1, size);
	m->m->u.match_size = size;
	strcpy(m->m->u.user.name, m->real_name ? m->real_name : m->name);
	m->m->u.user.revision = m->revision;
	m->mflags = 0;
	if (m->udata_size) {
		free(m->udata);
		m->udata = xtables_calloc(1, m->udata_size);
	}
	if (m->init)
		m->init(m->m);
}

static struct xl_ext *ext_new(struct xl_xt_rule *xr, const char *name)
{
	struct xl_ext *e;

	if (!list_empty(spare_exts())) {
		e = list_first_entry(spare_exts(), struct xl_ext, list);
		list_del(&e->list);
		memset(e, 0, sizeof(*e));
	} else {
		e = calloc(1, sizeof(*e));
	}
	if (!e)
		return NULL;
	list_add_tail(&e->list, &xr->exts);
	return e;
}

struct xl_ext *xl_xt_match(struct xl_xt_rule *xr, const char *name,
			   char *err, size_t len)
{
	struct xl_call c = { .fn = do_find_match, .ext = xr, .name = name };
	struct xl_ext *e;

	if (xl_guard(&c, err, len) < 0)
		return NULL;
	if (!c.result) {
		snprintf(err, len, "Couldn't load match `%s':No such file or "
			 "directory", name);
		return NULL;
	}
	e = ext_new(xr, name);
	if (e) {
		e->match = c.result;
		e->name = e->match->name;
	}
	return e;
}

static void do_find_target(struct xl_call *c)
{
	struct xl_xt_rule *xr = c->ext;
	struct xtables_target *t;
	size_t size;

	t = xtables_find_target(c->name, XTF_TRY_LOAD);
	c->result = t;
	if (!t)
		return;
	size = XT_ALIGN(sizeof(struct xt_entry_target)) + t->size;
	t->t = xtables_calloc(1, size);
	t->t->u.target_size = size;
	strcpy(t->t->u.user.name, t->real_name ? t->real_name : c->name);
	t->t->u.user.revision = t->revision;
	t->tflags = 0;
	if (t->udata_size) {
		free(t->udata);
		t->udata = xtables_calloc(1, t->udata_size);
	}
	if (t->init)
		t->init(t->t);
	xr->target = t;
}

struct xl_ext *xl_xt_target(struct xl_xt_rule *xr, const char *name,
			    char *err, size_t len)
{
	struct xl_call c = { .fn = do_find_target, .ext = xr, .name = name };
	struct xl_ext *e;

	err[0] = '\0';
	if (xr->target) {
		snprintf(err, len, "multiple -j flags not allowed");
		return NULL;
	}
	if (xl_guard(&c, err, len) < 0)
		return NULL;
	if (!c.result)
		return NULL;
	e = ext_new(xr, name);
	if (e) {
		e->target = c.result;
		e->name = e->target->name;
	}
	return e;
}

static const struct xt_option_entry *ext_x6(const struct xl_ext *e)
{
	return e->match ? e->match->x6_options : e->target->x6_options;
}

static const struct option *ext_opts(const struct xl_ext *e)
{
	return e->match ? e->match->extra_opts : e->target->extra_opts;
}

static bool opt_match(const char *opt, const char *name, bool prefix)
{
	return prefix ? !strncmp(opt, name, strlen(name)) : !strcmp(opt, name);
}

int xl_xt_find_option(const struct xl_ext *ext, const char *name,
		      bool prefix, unsigned int *id, int *has_arg)
{
	const struct xt_option_entry *x6 = ext_x6(ext);
	const struct option *o = ext_opts(ext);
	int found = 0;

	if (x6) {
		for (; x6->name; x6++) {
			if (!opt_match(x6->name, name, prefix))
				continue;
			if (found && *id != x6->id)
				return -1;
			*id = x6->id;
			*has_arg = x6->type == XTTYPE_NONE ? no_argument :
							      required_argument;
			found = 1;
			if (!prefix)
				break;
		}
		return found;
	}
	for (; o && o->name; o++) {
		if (!opt_match(o->name, name, prefix))
			continue;
		if (found && *id != (unsigned int)o->val)
			return -1;
		*id = o->val;
		*has_arg = o->has_arg;
		found = 1;
		if (!prefix)
			break;
	}
	return found;
}

static void do_parse(struct xl_call *c)
{
	struct xl_ext *e = c->ext;

	optarg = c->optarg;
	if (e->match) {
		e->match->option_offset = 0;
		xtables_option_mpcall(c->id, c->argv, c->invert, e->match,
				      c->result);
	} else {
		e->target->option_offset = 0;
		xtables_option_tpcall(c->id, c->argv, c->invert, e->target,
				      c->result);
	}
}

int xl_xt_parse_lib(struct xl_ext *ext, unsigned int id, char **argv,
		    int *optind_p, char *arg, bool invert, void *fw, char *err,
		    size_t len)
{
	struct xl_call c = { .fn = do_parse, .ext = ext, .id = id,
			     .argv = argv, .optarg = arg, .invert = invert,
			     .result = fw };
	int ret;

	optind = *optind_p;
	ret = xl_guard(&c, err, len);
	*optind_p = optind;
	return ret;
}

/* The fast paths first (they take what libxtables surely parses alike). */
int xl_xt_parse(struct xl_ext *ext, unsigned int id, char **argv,
		int *optind_p, char *arg, bool invert, void *fw, char *err,
		size_t len)
{
	if (xl_xtports_parse(ext, id, arg, invert) ||
	    xl_xticmp_parse(ext, id, arg, invert) ||
	    xl_xtmport_parse(ext, id, arg, invert, fw) ||
	    xl_xttcpflags_parse(ext, id, arg, invert, argv, optind_p))
		return 0;
	return xl_xt_parse_lib(ext, id, argv, optind_p, arg, invert, fw, err,
			       len);
}

/*
 * Whether xtables_options_fcheck() surely finds nothing to report in
 * @opts with @xflags given: every mandatory option given, every option
 * an "also" of a given one given, none a given one excludes given. It
 * reports only such cases (for "also"/"excl" ids that are on the table:
 * this is stricter). It looks up each of the 32 ids in the table for
 * every given option of every extension of every rule, a tenth of the
 * parse; when in doubt the caller lets it run.
 */
static bool fcheck_passes(const struct xt_option_entry *opts,
			  unsigned int xflags)
{
	for (; opts->name; opts++) {
		unsigned int self;

		if (opts->id >= 32)
			return false;
		self = 1U << opts->id;
		if (!(xflags & self)) {
			if (opts->flags & XTOPT_MAND)
				return false;
			continue;
		}
		if ((opts->also & ~xflags & ~self) ||
		    (opts->excl & xflags & ~self))
			return false;
	}
	return true;
}

/* xtables_option_mfcall()/tfcall(), without the fcheck that cannot fail */
static void do_final(struct xl_call *c)
{
	struct xl_ext *e = c->ext;
	struct xt_fcheck_call cb = { 0 };

	if (e->match) {
		struct xtables_match *m = e->match;

		if (!m->x6_options || !fcheck_passes(m->x6_options, m->mflags)) {
			xtables_option_mfcall(m);
			return;
		}
		if (m->x6_fcheck) {
			cb.ext_name = m->name;
			cb.data = m->m->data;
			cb.xflags = m->mflags;
			cb.udata = m->udata;
			m->x6_fcheck(&cb);
		} else if (m->final_check) {
			m->final_check(m->mflags);
		}
	} else {
		struct xtables_target *t = e->target;

		if (!t->x6_options || !fcheck_passes(t->x6_options, t->tflags)) {
			xtables_option_tfcall(t);
			return;
		}
		if (t->x6_fcheck) {
			cb.ext_name = t->name;
			cb.data = t->t->data;
			cb.xflags = t->tflags;
			cb.udata = t->udata;
			t->x6_fcheck(&cb);
		} else if (t->final_check) {
			t->final_check(t->tflags);
		}
	}
}

int xl_xt_final(struct xl_ext *ext, char *err, size_t len)
{
	struct xl_call c = { .fn = do_final, .ext = ext };

	return xl_guard(&c, err, len);
}

const void *xl_ext_data(const struct xl_ext *ext)
{
	return ext->match ? (const void *)ext->match->m->data :
			    (const void *)ext->target->t->data;
}

unsigned int xl_ext_size(const struct xl_ext *ext)
{
	return ext->match ? ext->match->size : ext->target->size;
}

unsigned int xl_ext_rev(const struct xl_ext *ext)
{
	return ext->match ? ext->match->revision : ext->target->revision;
}

/* The kernel name: "state" is conntrack's alias, for instance. */
const char *xl_ext_name(const struct xl_ext *ext)
{
	if (ext->match)
		return ext->match->real_name ? ext->match->real_name :
					       ext->match->name;
	return ext->target->real_name ? ext->target->real_name :
					ext->target->name;
}
