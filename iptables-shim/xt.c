// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iptables-nft's xt-compat expressions ("match"/"target" carrying an
 * xtables extension's kernel structure) printed with the extension's
 * own save() from libxtables, which is how stock iptables-nft-save
 * prints them. save() writes to stdout: its output is caught in a
 * string. CLI code: libxtables may exit on a broken plugin.
 */
#define _GNU_SOURCE
#include <config.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <xtables.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include "shim.h"
#include "compat.h"
#include "delinearize.h"

static struct xtables_globals shim_xt_globals = {
	.option_offset = 0,
	.program_version = "1.8.9",
	.program_name = "iptables",
	/* xlate's restore path may run after us in the same process
	 * (iptables-nft commands): libxtables then asks this table */
	.compat_rev = xtables_compatible_revision,
};

/* Offline there is no kernel to ask: the VM gets native code anyway. */
static int shim_xt_rev_any(const char *name, uint8_t rev, int opt)
{
	return 1;
}

int shim_xt_init(uint8_t family)
{
	if (shim_offline())
		shim_xt_globals.compat_rev = shim_xt_rev_any;
	shim_xt_globals.program_name = family == NFPROTO_IPV6 ? "ip6tables" :
								"iptables";
	if (xtables_init_all(&shim_xt_globals, family) < 0)
		return -1;
	return 0;
}

/*
 * Run @fn(@a, @b) with stdout, where extensions' save() prints, pointed
 * at a string (glibc's stdout is a plain variable): no system call per
 * expression. The text (malloc'ed) or NULL.
 */
static char *catch_stdout(struct shim_xt *c, void (*fn)(const void *,
							   const void *),
			  const void *a, const void *b)
{
	FILE *real = stdout;
	struct compat_text t;
	char *text;
	int big, ret;

	for (big = 0; big < 2; big++) {
		stdout = compat_text_open_slot(&t, COMPAT_SLOT_XT, big);
		if (!stdout)
			break;
		fn(a, b);
		stdout = real;
		ret = compat_text_close(&t, &text);
		if (ret <= 0)
			return ret == 0 ? text : NULL;
	}
	stdout = real;
	return NULL;
}

void shim_xt_done(struct shim_xt *c)
{
	c->ncache = 0;
}

/* The extension @name/@rev, looked up once per process run. */
static void *find_ext(struct shim_xt *c, bool target, const char *name,
		      uint32_t rev)
{
	struct shim_xt_ext *e;
	unsigned int i;
	void *ext;

	for (i = 0; i < c->ncache; i++) {
		e = &c->cache[i];
		if (e->target == target && e->rev == rev &&
		    !strcmp(e->name, name))
			return e->ext;
	}
	if (target) {
		ext = xtables_find_target_revision(name, XTF_TRY_LOAD, NULL,
						   rev);
		if (!ext)
			ext = xtables_find_target(name, XTF_TRY_LOAD);
	} else {
		ext = xtables_find_match_revision(name, XTF_TRY_LOAD, NULL,
						  rev);
		if (!ext)
			ext = xtables_find_match(name, XTF_TRY_LOAD, NULL);
	}
	if (c->ncache < SHIM_XT_CACHE) {
		e = &c->cache[c->ncache++];
		e->target = target;
		snprintf(e->name, sizeof(e->name), "%s", name);
		e->rev = rev;
		e->ext = ext;
	}
	return ext;
}

/* MARK OPT NAME BODY, malloc'ed (asprintf's cost, per expression). */
static char *xt_text(const char *opt, const char *name, const char *body)
{
	size_t lm = strlen(COMPAT_XT_MARK), lo = strlen(opt),
	       ln = strlen(name), lb = strlen(body);
	char *text = malloc(lm + lo + ln + lb + 1), *p = text;

	if (!text)
		return NULL;
	memcpy(p, COMPAT_XT_MARK, lm);
	p += lm;
	memcpy(p, opt, lo);
	p += lo;
	memcpy(p, name, ln);
	p += ln;
	memcpy(p, body, lb + 1);
	return text;
}

/* @name into @dst of @size bytes, cut and NUL-terminated as snprintf. */
static void copy_name(char *dst, size_t size, const char *name)
{
	size_t n = strnlen(name, size - 1);

	memcpy(dst, name, n);
	dst[n] = '\0';
}

struct xt_call {
	struct xtables_match	*m;
	struct xtables_target	*t;
};

/* The rule's ip part as extensions see it: the protocol matched. */
union shim_ip {
	struct ipt_ip	v4;
	struct ip6t_ip6	v6;
};

struct save_args {
	const struct xt_call	*call;
	union shim_ip		ip;
};

static void call_save(const void *args, const void *ent)
{
	const struct save_args *a = args;

	if (a->call->m && a->call->m->save)
		a->call->m->save(&a->ip, ent);
	else if (a->call->t && a->call->t->save)
		a->call->t->save(&a->ip, ent);
}

static char *save_match(struct shim_xt *c, const struct delin_xt *xt,
			struct save_args *a)
{
	size_t sz = XT_ALIGN(sizeof(struct xt_entry_match)) + xt->len;
	struct xt_entry_match *em = calloc(1, sz);
	struct xt_call call = { 0 };
	char *body, *text = NULL;
	const char *name;

	if (!em)
		return NULL;
	call.m = find_ext(c, false, xt->name, xt->rev);
	if (!call.m)
		goto out;
	em->u.match_size = sz;
	copy_name(em->u.user.name, sizeof(em->u.user.name), xt->name);
	em->u.user.revision = xt->rev;
	memcpy(em->data, xt->info, xt->len);
	a->call = &call;
	body = catch_stdout(c, call_save, a, em);
	name = call.m->alias ? call.m->alias(em) : call.m->name;
	if (body)
		text = xt_text(" -m ", name, body);
	free(body);
out:
	free(em);
	return text;
}

static char *save_target(struct shim_xt *c, const struct delin_xt *xt,
			 struct save_args *a)
{
	size_t sz = XT_ALIGN(sizeof(struct xt_entry_target)) + xt->len;
	struct xt_entry_target *et = calloc(1, sz);
	struct xt_call call = { 0 };
	char *body, *text = NULL;
	const char *name;

	if (!et)
		return NULL;
	call.t = find_ext(c, true, xt->name, xt->rev);
	if (!call.t)
		goto out;
	et->u.target_size = sz;
	copy_name(et->u.user.name, sizeof(et->u.user.name), xt->name);
	et->u.user.revision = xt->rev;
	memcpy(et->data, xt->info, xt->len);
	a->call = &call;
	body = catch_stdout(c, call_save, a, et);
	name = call.t->alias ? call.t->alias(et) : call.t->name;
	if (body)
		text = xt_text(" -j ", name, body);
	free(body);
out:
	free(et);
	return text;
}

char *shim_xt_save(void *priv, const struct delin_xt *xt)
{
	struct save_args a;

	memset(&a, 0, sizeof(a));
	if (xt->family == NFPROTO_IPV6) {
		a.ip.v6.proto = xt->proto;
		if (xt->proto)
			a.ip.v6.flags |= IP6T_F_PROTO;
	} else {
		a.ip.v4.proto = xt->proto;
	}
	if (!strcmp(xt->kind, "match"))
		return save_match(priv, xt, &a);
	if (!strcmp(xt->kind, "target"))
		return save_target(priv, xt, &a);
	return NULL;
}
