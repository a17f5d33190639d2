// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading one side of a diff: an iptables-save file goes through xlate
 * (iptables-save -> IR -> nft text), an nft file is read as is; both are
 * compiled by nftc (parse, evaluate, linearize) into an nfnetlink batch
 * whose messages become the model (model.c). So both sides are the VM
 * code the kernel or the nftkit VM would run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <libmnl/libmnl.h>
#include "nftc.h"
#include "linearize.h"
#include "pipeline.h"
#include "xlate.h"
#include "sd_int.h"

static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (!p)
				goto err;
			buf = p;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f))
		goto err;
	fclose(f);
	buf[len] = '\0';
	*size = len;
	return buf;
err:
	free(buf);
	fclose(f);
	return NULL;
}

/* "*filter" or "COMMIT" at a line start: iptables-save. */
static enum sd_kind detect_kind(const char *data)
{
	const char *p = data;

	while (p && *p) {
		if (!strncmp(p, "COMMIT", 6) ||
		    (*p == '*' && p[1] >= 'a' && p[1] <= 'z'))
			return SD_KIND_IPT;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return SD_KIND_NFT;
}

/* ip6tables-save header, or an IPv6 address/ICMPv6 option in a rule. */
static int detect_family(const char *data)
{
	if (strstr(data, "ip6tables") || strstr(data, "icmpv6") ||
	    strstr(data, "ipv6-icmp") || strstr(data, "-p icmp6"))
		return NFPROTO_IPV6;
	return NFPROTO_IPV4;
}

static char *line_text(const struct location *loc)
{
	const char *s, *end;

	if (!loc->indesc || !loc->indesc->data)
		return NULL;
	s = loc->indesc->data + loc->line_offset;
	end = strchr(s, '\n');
	if (!end)
		end = s + strlen(s);
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return strndup(s, end - s);
}

/**
 * struct src_map - the iptables-save line of each translated chain/rule
 * @v: one per chain (index -1) and printed rule, in print order
 */
struct src_ent {
	char		*table, *chain, *text;
	int		index;
	unsigned int	line;
};

struct src_map {
	struct src_ent	*v;
	unsigned int	n, cap;
	int		family;
};

static int src_add(void *priv, const struct xlate_source *src)
{
	struct src_map *m = priv;
	struct src_ent *e;

	if (m->n == m->cap) {
		unsigned int cap = m->cap ? m->cap * 2 : 64;
		struct src_ent *v = realloc(m->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		m->v = v;
		m->cap = cap;
	}
	e = &m->v[m->n++];
	e->table = strdup(src->table);
	e->chain = strdup(src->chain);
	e->text = line_text(src->loc);
	e->index = src->index;
	e->line = src->loc->first_line;
	return 0;
}

static void src_map_free(struct src_map *m)
{
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].table);
		free(m->v[i].chain);
		free(m->v[i].text);
	}
	free(m->v);
}

/*
 * The model's rules get their iptables-save lines: a chain's printed
 * rules are its rules in the model, in order, when their numbers agree
 * (else the chain keeps only its translation's lines).
 */
static void src_map_apply(struct sd_ruleset *rs, struct src_map *m)
{
	unsigned int i, j, n;

	for (i = 0; i < m->n; i++) {
		struct src_ent *e = &m->v[i];
		struct sd_table *t = NULL;
		struct sd_chain *c;

		if (e->index >= 0 || !e->table || !e->chain)
			continue;
		for (j = 0; j < rs->ntables && !t; j++)
			if (rs->tables[j]->family == m->family &&
			    !strcmp(rs->tables[j]->name, e->table))
				t = rs->tables[j];
		c = t ? sd_chain_find(t, e->chain) : NULL;
		if (!c)
			continue;
		c->src_line = e->line;
		c->src_text = e->text;
		e->text = NULL;
		for (n = 0; i + 1 + n < m->n && m->v[i + 1 + n].index >= 0; n++)
			;
		if (n != c->nrules)
			continue;
		for (j = 0; j < n; j++) {
			c->rules[j]->src_line = m->v[i + 1 + j].line;
			c->rules[j]->src_text = m->v[i + 1 + j].text;
			m->v[i + 1 + j].text = NULL;
		}
	}
}

/* iptables-save text -> nft text, diagnostics kept as notes. */
static char *ipt_to_nft(struct sd_ruleset *rs, const char *path,
			char *data, int family, struct src_map *map,
			char *err, size_t errlen)
{
	const struct error_record *e;
	struct xlate_ctx *x;
	char *out = NULL, *notes = NULL;
	size_t olen = 0, nlen = 0;
	FILE *f, *nf;

	x = xlate_ctx_alloc(family, XLATE_F_NO_COUNTER);
	if (!x) {
		free(data);
		snprintf(err, errlen, "%s: cannot start xlate", path);
		return NULL;
	}
	xlate_read_save(x, path, data);
	f = open_memstream(&out, &olen);
	if (!f || xlate_print(x, f) < 0) {
		if (f)
			fclose(f);
		snprintf(err, errlen, "%s: translation failed", path);
		xlate_ctx_free(x);
		free(out);
		return NULL;
	}
	fclose(f);
	map->family = family;
	xlate_sources(x, src_add, map);
	nf = open_memstream(&notes, &nlen);
	list_for_each_entry(e, &xlate_errors(x)->records, list) {
		if (e->type == EREC_ERROR)
			rs->untranslated++;
		if (nf && e->type == EREC_ERROR)
			xlate_format_erec(nf, e);
	}
	if (nf)
		fclose(nf);
	rs->notes = notes;
	xlate_ctx_free(x);
	return out;
}

static int batch_to_model(struct sd_ruleset *rs, struct nftc_batch *batch,
			  char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nftc_batch_chunks(batch); i++) {
		size_t len;
		const void *buf = nftc_batch_chunk(batch, i, &len);
		const struct nlmsghdr *nlh = buf;
		int rem = len;

		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			const struct nftc_seq_loc *sl;
			struct sd_msg_src src = { 0 };
			char *text = NULL;

			sl = nftc_batch_seq_lookup(batch, nlh->nlmsg_seq);
			if (sl && sl->location.indesc) {
				text = line_text(&sl->location);
				src.text = text;
				src.line = sl->location.first_line;
			}
			ret = sd_model_add_msg(rs, nlh, &src, err, errlen);
			free(text);
			if (ret == 0 &&
			    (nlh->nlmsg_type >> 8) == NFNL_SUBSYS_NFTABLES)
				ret = sd_msgs_add(&rs->dump, nlh,
						  nlh->nlmsg_len);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int compile_nft(struct sd_ruleset *rs, const char *name, char *data,
		       size_t size, char *err, size_t errlen)
{
	struct list_head cmds = LIST_HEAD_INIT(cmds);
	struct nftc_batch *batch = NULL;
	struct nftc_ctx *ctx = nftc_ctx_alloc();
	int ret = -1;

	if (!ctx) {
		free(data);
		return -ENOMEM;
	}
	if (nftc_parse_file_pipe(ctx, name, data, size, &cmds, NULL) < 0 ||
	    nftc_evaluate(ctx, &cmds) < 0)
		goto diag;
	batch = nftc_batch_alloc(1);
	if (!batch || nftc_linearize(ctx, &cmds, batch, NULL) < 0 ||
	    nftc_batch_end(batch) < 0)
		goto diag;
	ret = batch_to_model(rs, batch, err, errlen);
	goto out;
diag: {
		char *msg = NULL;
		size_t mlen = 0;
		FILE *f = open_memstream(&msg, &mlen);

		if (f) {
			erec_queue_format(f, &ctx->erq);
			fclose(f);
		}
		snprintf(err, errlen, "%s: does not compile:\n%s", name,
			 msg ? msg : "");
		free(msg);
		ret = -EINVAL;
	}
out:
	nftc_batch_free(batch);
	cmd_list_free(&cmds);
	nftc_ctx_free(ctx);
	return ret;
}

/**
 * sd_load - read one side
 * @path: a file, or "kernel": the live ruleset (even if a file of that
 *        name exists; --old-kind/--new-kind nft reads the file)
 * @kind: SD_KIND_AUTO detects a VM state file by its magic and
 *        iptables-save by "*table"/"COMMIT" lines
 * @ipt_family: NFPROTO_IPV4/IPV6 for iptables-save, 0 to detect
 */
int sd_load(struct sd_ruleset *rs, const char *path, enum sd_kind kind,
	    int ipt_family, char *err, size_t errlen)
{
	struct src_map map = { 0 };
	size_t size = 0;
	char *data;
	int ret;

	if (kind == SD_KIND_KERNEL ||
	    (kind == SD_KIND_AUTO && !strcmp(path, "kernel")))
		return sd_load_live(rs, NULL, err, errlen);
	data = read_file(path, &size);
	if (!data) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (kind == SD_KIND_AUTO && sd_is_state_file(data, size))
		kind = SD_KIND_STATE;
	if (kind == SD_KIND_STATE) {
		free(data);
		rs->state = strdup(path);
		if (!rs->state)
			return -ENOMEM;
		return sd_load_live(rs, path, err, errlen);
	}
	if (kind == SD_KIND_AUTO)
		kind = detect_kind(data);
	if (kind == SD_KIND_IPT) {
		rs->kind = "iptables-save";
		if (!ipt_family)
			ipt_family = detect_family(data);
		data = ipt_to_nft(rs, path, data, ipt_family, &map, err,
				  errlen);
		if (!data) {
			src_map_free(&map);
			return -EINVAL;
		}
		size = strlen(data);
	} else {
		rs->kind = "nft";
	}
	ret = compile_nft(rs, path, data, size, err, errlen);
	if (ret == 0) {
		sd_model_finish(rs);
		src_map_apply(rs, &map);
	}
	src_map_free(&map);
	return ret;
}
