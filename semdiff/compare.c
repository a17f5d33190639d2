// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparison: for every (family, hook) either side has base chains in,
 * evaluate both sides over all packets (BDDs) and XOR what each
 * outcome (accept, drop, reject ..., queue ...) gets; for packets both
 * sides accept, also compare the fields they end up with (meta mark, ct
 * mark, NAT mapping, payload rewrites). Differences become
 * counterexample packets, replayed through both sides with tracing to
 * name the deciding rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "semdiff.h"
#include "sd_int.h"

#define SD_MAX_HOOKS	32

static int bdd_failed;	/* BuDDy reports errors through a callback */

static void bdd_err_hook(int code)
{
	bdd_failed = code;
}

static int scan_side(struct sd_vars *vars, const struct sd_ruleset *rs,
		     char *err, size_t errlen)
{
	struct sd_eval ev;
	unsigned int i, j, k;
	int ret = 0;

	for (i = 0; i < rs->ntables && ret == 0; i++) {
		const struct sd_table *t = rs->tables[i];

		sd_eval_init(&ev, vars, rs, t->family == NFPROTO_INET ?
			     NFPROTO_IPV4 : t->family);
		ev.scan = true;
		ev.err = err;
		ev.errlen = errlen;
		for (j = 0; j < t->nchains && ret == 0; j++)
			for (k = 0; k < t->chains[j]->nrules && ret == 0; k++)
				ret = sd_eval_rule(&ev, t->chains[j]->rules[k],
						   bddtrue);
		sd_eval_fini(&ev);
	}
	return ret;
}

static int find_space(const struct sd_vars *v, enum sd_space_kind kind,
		      uint32_t a, uint32_t b)
{
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->sp[i].kind == kind && v->sp[i].a == a && v->sp[i].b == b)
			return i;
	return -1;
}

static void and_value(struct sd_eval *ev, BDD *r, int sp, const void *val,
		      unsigned int len, bool any_of, const uint32_t *vals,
		      unsigned int nvals)
{
	BDD bits[64], c = bddfalse;
	unsigned int i, j;

	if (sp < 0)
		return;
	for (i = 0; i < len * 8; i++)
		bits[i] = b_ref(bdd_ithvar(sd_var_of(ev->vars, sp, i / 8,
						     i % 8)));
	if (!any_of) {
		c = bv_eq_const(bits, val, len);
	} else {
		for (j = 0; j < nvals; j++) {
			BDD e = bv_eq_const(bits, (const uint8_t *)&vals[j],
					    len);

			b_orin(&c, e);
			b_free(e);
		}
	}
	b_andin(r, c);
	b_free(c);
	for (i = 0; i < len * 8; i++)
		b_free(bits[i]);
}

/* Byte @off of space @sp is zero (@sp's variables, which must exist). */
static BDD byte_zero(struct sd_vars *v, int sp, unsigned int off)
{
	BDD r = bddtrue;
	int b;

	for (b = 7; b >= 0; b--)
		b_put(&r, b_and(bdd_nithvar(v->sp[sp].var[off] + b), r));
	return r;
}

/*
 * An interface name is NUL-padded: after its first NUL byte every byte
 * is NUL, so "lo" compared on 4 bytes (iptables-nft) and on 16 (nft)
 * are the same match. Over the bytes that have variables (in order): a
 * NUL byte implies a NUL next byte.
 */
static void and_ifname(struct sd_vars *v, BDD *r, int sp)
{
	const struct sd_space *s;
	int prev = -1;
	unsigned int i;

	if (sp < 0 || !(s = &v->sp[sp])->var)
		return;
	for (i = 0; i < 16 && i < s->nbytes; i++) {
		BDD z, nz, c;

		if (s->var[i] < 0)
			continue;
		if (prev >= 0) {
			z = byte_zero(v, sp, prev);
			nz = byte_zero(v, sp, i);
			c = bdd_addref(bdd_imp(z, nz));
			b_andin(r, c);
			b_free(c);
			b_free(z);
			b_free(nz);
		}
		prev = i;
	}
}

/*
 * What every packet of a hook of @family satisfies: its family and
 * ethertype, one ct state at a time, NUL-padded interface names.
 */
BDD sd_hook_constraint(struct sd_eval *ev, uint8_t family)
{
	static const uint32_t states[] = { 1, 2, 4, 8, 64 };
	static const uint32_t dirs[] = { 0, 1 };
	static const uint32_t ifnames[] = {
		NFT_META_IIFNAME, NFT_META_OIFNAME, NFT_META_BRI_IIFNAME,
		NFT_META_BRI_OIFNAME,
	};
	struct sd_vars *v = ev->vars;
	unsigned int i;
	BDD r = bddtrue;
	uint16_t proto = family == NFPROTO_IPV4 ? htons(0x0800) :
			 htons(0x86dd);
	uint8_t nfp = family;
	int sp;

	if (family == NFPROTO_IPV4 || family == NFPROTO_IPV6) {
		and_value(ev, &r, find_space(v, SP_META, NFT_META_NFPROTO, 0),
			  &nfp, 1, false, NULL, 0);
		and_value(ev, &r, find_space(v, SP_META, NFT_META_PROTOCOL, 0),
			  &proto, 2, false, NULL, 0);
	}
	sp = find_space(v, SP_CT, NFT_CT_STATE, 0);
	if (sp >= 0 && v->sp[sp].nbytes >= 4)
		and_value(ev, &r, sp, NULL, 4, true, states, 5);
	sp = find_space(v, SP_CT, NFT_CT_DIRECTION, 0);
	if (sp >= 0)
		and_value(ev, &r, sp, NULL, 1, true, dirs, 2);
	for (i = 0; i < sizeof(ifnames) / sizeof(ifnames[0]); i++)
		and_ifname(v, &r, find_space(v, SP_META, ifnames[i], 0));
	return r;
}

struct side {
	const struct sd_ruleset	*rs;
	struct sd_ruleset	**both;		/* for the VM replay */
	struct sd_replay	*rp;
	struct sd_eval		ev;
	struct sd_outcomes	out;
	char			*err;
	size_t			errlen;
	bool			raw;
	char			keybuf[96];	/* the BDD's outcome */
};

static BDD outcome_of(const struct sd_outcomes *o, const char *key)
{
	unsigned int i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->o[i].key, key))
			return o->o[i].set;
	return bddfalse;
}

static const char *outcome_at(const struct sd_outcomes *o, BDD cube)
{
	unsigned int i;

	for (i = 0; i < o->n; i++) {
		BDD x = b_and(o->o[i].set, cube);
		bool hit = x != bddfalse;

		b_free(x);
		if (hit)
			return o->o[i].key;
	}
	return "?";
}

/*
 * Packets both sides accept but leave with a different field: the
 * packets of the first written bit that differs (empty iff none does).
 * Not the union over every bit: an OR of the XORs of many written bits
 * (ct marks set under different conditions) can be far larger than
 * any of its parts, and one non-empty part proves the difference and
 * gives the counterexample.
 */
static BDD effect_diff(struct side *s, struct sd_vars *vars)
{
	BDD acc = b_and(outcome_of(&s[0].out, "accept"),
			outcome_of(&s[1].out, "accept"));
	BDD d = bddfalse;
	unsigned int sp, i;

	for (sp = 0; sp < vars->n && d == bddfalse && acc != bddfalse; sp++) {
		bool w0 = sp < s[0].ev.ncur && s[0].ev.cur[sp];
		bool w1 = sp < s[1].ev.ncur && s[1].ev.cur[sp];

		if (!w0 && !w1)
			continue;
		for (i = 0; i < SD_SPACE_BYTES * 8 && d == bddfalse; i++) {
			BDD a, b;

			if ((!w0 || s[0].ev.cur[sp][i] == -1) &&
			    (!w1 || s[1].ev.cur[sp][i] == -1))
				continue;
			a = sd_space_bit(&s[0].ev, sp, i / 8, i % 8);
			b = sd_space_bit(&s[1].ev, sp, i / 8, i % 8);
			if (a != b) {
				BDD x = b_xor(a, b);

				d = b_and(x, acc);
				b_free(x);
			}
			b_free(a);
			b_free(b);
		}
	}
	b_free(acc);
	return d;
}

static void print_trace(FILE *f, const struct sd_ruleset *rs,
			const char *label, const char *outcome,
			const struct sd_trace *t)
{
	const struct sd_step *s;
	unsigned int i;
	char where[256];

	fprintf(f, "    %-4s %s", label, outcome);
	for (i = 0; i < t->n; i++) {
		s = &t->step[i];
		if (s->rule && !s->rule->line && s->rule->handle)
			fprintf(f, "%s %s#%u(handle %llu) %s", i ? "," : " by",
				s->chain->name, s->rule->index + 1,
				(unsigned long long)s->rule->handle, s->what);
		else if (s->rule)
			fprintf(f, "%s %s#%u(line %u) %s", i ? "," : " by",
				s->chain->name, s->rule->index + 1,
				s->rule->line, s->what);
		else
			fprintf(f, "%s %s %s", i ? "," : " by",
				s->chain->name, s->what);
	}
	fputc('\n', f);
	if (!t->n)
		return;
	/* the rule (or policy) that decided, and where it comes from:
	 * the iptables-save line of a translated rule */
	s = &t->step[t->n - 1];
	if (s->rule) {
		sd_rule_where(where, sizeof(where), rs, s->rule);
		fprintf(f, "         deciding rule: %s\n", s->rule->text);
		fprintf(f, "         at %s%s%s\n", where,
			s->rule->src_text ? ": " : "",
			s->rule->src_text ? s->rule->src_text : "");
	} else if (s->chain->src_line) {
		fprintf(f, "         at %s:%u: %s\n", rs->label,
			s->chain->src_line,
			s->chain->src_text ? s->chain->src_text : "");
	}
}

/* Replay one packet through both sides with tracing, and print it. */
/*
 * The packet byte by byte, for independent replay (testcases): one line
 * per space: "raw KIND A B LABEL HEX" (don't-care bits as 0).
 */
static void print_raw(FILE *f, const struct sd_vars *v,
		      const struct sd_packet *p, const struct sd_hook *h)
{
	unsigned int i, j, b;

	fprintf(f, "    raw-hook %u %u\n", h->family, h->hook);
	for (i = 0; i < v->n; i++) {
		const struct sd_space *s = &v->sp[i];

		if (!s->var)
			continue;
		fprintf(f, "    raw %d %u %u %s ", s->kind, s->a, s->b,
			s->label ? s->label : "-");
		for (j = 0; j < s->nbytes; j++) {
			unsigned int x = 0;

			for (b = 0; b < 8 && s->var[j] >= 0; b++)
				x |= (p->bit[s->var[j] + b] == 1) << (7 - b);
			fprintf(f, "%02x", x);
		}
		fputc('\n', f);
	}
}

static int replay(FILE *f, struct sd_vars *vars, struct side *s,
		  const struct sd_hook *h, BDD set, const char *why,
		  bool effect)
{
	struct sd_packet p;
	const char *key[2] = { "?", "?" };
	char *sel = NULL;
	size_t slen = 0;
	FILE *sf;
	unsigned int k;
	BDD cube;
	int ret = 0;

	{
		/* free choices as a fresh VM makes them, where possible */
		BDD pset = sd_prefer_fresh(vars, set);

		ret = sd_packet_from(&p, pset, vars->nvars);
		b_free(pset);
		if (ret < 0)
			return -ENOMEM;
	}
	cube = sd_packet_cube(&p);
	sf = open_memstream(&sel, &slen);
	if (!sf) {
		b_free(cube);
		sd_packet_fini(&p);
		return -ENOMEM;
	}
	sd_print_packet(sf, vars, &p, h->family);
	fclose(sf);
	fprintf(f, "  counterexample (%s):\n    trace packet%s hook %s\n", why,
		sel, sd_hook_name(h->family, h->hook));
	if (s[0].raw)
		print_raw(f, vars, &p, h);
	for (k = 0; k < 2 && ret == 0; k++) {
		struct sd_trace tr = { .n = 0 };
		struct sd_outcomes o = { 0 };
		struct sd_eval ev;

		sd_eval_init(&ev, vars, s[k].rs, h->family);
		ev.trace = &tr;
		ev.err = s[k].err;
		ev.errlen = s[k].errlen;
		ret = sd_eval_hook(&ev, h, cube, &o);
		if (ret == 0) {
			/* o's keys go with o: keep a copy */
			snprintf(s[k].keybuf, sizeof(s[k].keybuf), "%s",
				 outcome_at(&o, cube));
			key[k] = s[k].keybuf;
			print_trace(f, s[k].rs, k ? "new:" : "old:", key[k],
				    &tr);
		}
		sd_outcomes_fini(&o);
		sd_eval_fini(&ev);
	}
	if (ret == 0 && s[0].rp)
		sd_replay_cex(s[0].rp, f, s[0].both, h, sel, key, effect);
	free(sel);
	b_free(cube);
	sd_packet_fini(&p);
	return ret;
}

static int report_hook(FILE *f, struct sd_vars *vars, struct side *s,
		       const struct sd_hook *h, unsigned int max_cex)
{
	unsigned int i, j, n = 0;
	BDD eff;
	int ret = 0;

	for (i = 0; i < s[0].out.n && n < max_cex && ret == 0; i++)
		for (j = 0; j < s[1].out.n && n < max_cex && ret == 0; j++) {
			BDD x;
			char why[256];

			if (!strcmp(s[0].out.o[i].key, s[1].out.o[j].key))
				continue;
			x = b_and(s[0].out.o[i].set, s[1].out.o[j].set);
			if (x != bddfalse) {
				snprintf(why, sizeof(why), "old %s, new %s",
					 s[0].out.o[i].key, s[1].out.o[j].key);
				ret = replay(f, vars, s, h, x, why, false);
				n++;
			}
			b_free(x);
		}
	eff = effect_diff(s, vars);
	if (eff != bddfalse && n < max_cex && ret == 0)
		ret = replay(f, vars, s, h, eff, "both accept, but the packet "
			     "leaves with different marks/NAT/rewrites", true);
	b_free(eff);
	return ret;
}

/* 1 different, 0 equivalent, <0 trouble */
static int compare_hook(FILE *f, struct sd_vars *vars, struct side *s,
			const struct sd_hook *h, const struct semdiff_opts *o)
{
	unsigned int k, i;
	BDD in, diff = bddfalse, eff;
	int ret = 0;

	for (k = 0; k < 2 && ret == 0; k++) {
		sd_eval_init(&s[k].ev, vars, s[k].rs, h->family);
		s[k].ev.err = s[k].err;
		s[k].ev.errlen = s[k].errlen;
		in = sd_hook_constraint(&s[k].ev, h->family);
		ret = sd_eval_hook(&s[k].ev, h, in, &s[k].out);
		b_free(in);
	}
	for (k = 0; k < 2 && ret == 0; k++)
		for (i = 0; i < s[k].out.n; i++) {
			BDD x = b_xor(s[k].out.o[i].set,
				      outcome_of(&s[!k].out, s[k].out.o[i].key));

			b_orin(&diff, x);
			b_free(x);
		}
	if (ret == 0) {
		eff = effect_diff(s, vars);
		b_orin(&diff, eff);
		b_free(eff);
	}
	if (ret == 0) {
		fprintf(f, "hook %s %s: %s\n", sd_family_name(h->family),
			sd_hook_name(h->family, h->hook),
			diff == bddfalse ? "equivalent" : "DIFFERENT");
		if (diff != bddfalse)
			ret = report_hook(f, vars, s, h, o->max_cex);
		if (ret == 0)
			ret = diff != bddfalse;
	}
	b_free(diff);
	for (k = 0; k < 2; k++) {
		sd_outcomes_fini(&s[k].out);
		sd_eval_fini(&s[k].ev);
	}
	return ret;
}

static int compare(FILE *f, FILE *errf, struct sd_ruleset **rs,
		   const struct semdiff_opts *o)
{
	struct sd_hook hooks[SD_MAX_HOOKS];
	struct sd_vars vars = { 0 };
	struct sd_replay rp = { 0 };
	struct side s[2] = {
		{ .rs = rs[0], .raw = o->raw, .both = rs, .rp = &rp },
		{ .rs = rs[1], .raw = o->raw, .both = rs, .rp = &rp } };
	char err[2][1024] = { "", "" };
	unsigned int nh, i;
	int ret = 0, any = 0;

	for (i = 0; i < 2; i++) {
		s[i].err = err[i];
		s[i].errlen = sizeof(err[i]);
		if (ret == 0)
			ret = scan_side(&vars, rs[i], err[i], sizeof(err[i]));
	}
	if (ret == 0)
		ret = sd_vars_freeze(&vars);
	nh = sd_hooks_of(rs[0], hooks, 0, SD_MAX_HOOKS);
	nh = sd_hooks_of(rs[1], hooks, nh, SD_MAX_HOOKS);
	for (i = 0; i < nh && ret >= 0; i++) {
		ret = compare_hook(f, &vars, s, &hooks[i], o);
		if (ret > 0)
			any = 1;
		if (bdd_failed) {
			snprintf(err[0], sizeof(err[0]), "BDD engine: %s",
				 bdd_errstring(bdd_failed));
			ret = -ENOMEM;
		}
	}
	if (rp.confirmed + rp.disagree + rp.stateful + rp.unreplayed)
		fprintf(f, "replayed through the VM: %u confirmed, %u "
			"disagree with the BDDs, %u on free choices, %u not "
			"replayable\n", rp.confirmed, rp.disagree,
			rp.stateful, rp.unreplayed);
	sd_replay_fini(&rp);
	if (o->stats)
		fprintf(errf, "semdiff: %d BDD variables, %d nodes in use\n",
			vars.nvars, bdd_getnodenum());
	for (i = 0; i < 2 && ret < 0; i++)
		if (err[i][0])
			fprintf(errf, "ipt2nft diff: error: %s\n", err[i]);
	sd_vars_fini(&vars);
	return ret < 0 ? ret : any;
}

int semdiff_run(const char *old, const char *new,
		const struct semdiff_opts *o, FILE *out, FILE *errf)
{
	static const enum sd_kind kinds[] = {
		[SEMDIFF_KIND_AUTO] = SD_KIND_AUTO,
		[SEMDIFF_KIND_IPTABLES] = SD_KIND_IPT,
		[SEMDIFF_KIND_NFT] = SD_KIND_NFT,
		[SEMDIFF_KIND_KERNEL] = SD_KIND_KERNEL,
		[SEMDIFF_KIND_STATE] = SD_KIND_STATE,
	};
	const char *path[2] = { old, new };
	struct sd_ruleset *rs[2] = { NULL, NULL };
	char err[4096];
	int i, ret = 2;

	for (i = 0; i < 2; i++) {
		rs[i] = sd_ruleset_alloc(path[i]);
		if (!rs[i] || sd_load(rs[i], path[i], kinds[o->kind[i]],
				      o->family, err, sizeof(err)) < 0) {
			fprintf(errf, "ipt2nft diff: error: %s\n",
				rs[i] ? err : "out of memory");
			goto out;
		}
		fprintf(out, "%s %s: %s, %u rules", i ? "+++" : "---",
			path[i], rs[i]->kind, rs[i]->nrules);
		if (rs[i]->untranslated)
			fprintf(out, " (%u iptables rules not translated, "
				"not modelled)", rs[i]->untranslated);
		fputc('\n', out);
		if (rs[i]->notes && rs[i]->notes[0])
			fprintf(errf, "%s", rs[i]->notes);
	}
	if (o->view != SEMDIFF_VIEW_NONE)
		sd_view_print(out, rs[0], rs[1], o->view == SEMDIFF_VIEW_DIFF,
			      o->width);
	bdd_failed = 0;
	if (bdd_init(1 << 22, 1 << 20) < 0) {
		fprintf(errf, "ipt2nft diff: error: cannot start BuDDy\n");
		goto out;
	}
	bdd_error_hook(bdd_err_hook);
	bdd_gbc_hook(NULL);
	bdd_setmaxincrease(1 << 22);
	ret = compare(out, errf, rs, o);
	bdd_done();
	if (ret < 0)
		ret = 2;
	else
		fprintf(out, "%s\n", ret ? "rulesets DIFFER" :
			"rulesets are equivalent");
out:
	sd_ruleset_free(rs[0]);
	sd_ruleset_free(rs[1]);
	return ret;
}
