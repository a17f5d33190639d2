// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counterexample extraction and printing: a satisfying assignment of a
 * difference BDD is a packet; its constrained bits are printed as nft
 * selectors (`trace packet` syntax): payload windows map back to
 * protocol fields through nftc's protocol tables (proto.c), meta and ct
 * keys through fields.c, anything else as a raw @base,offset,length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include "proto.h"
#include "sd_int.h"

int sd_packet_from(struct sd_packet *p, BDD set, int nvars)
{
	BDD c = b_ref(bdd_satone(set));
	BDD n;
	int i;

	p->nvars = nvars;
	p->bit = malloc(nvars + 1);
	if (!p->bit) {
		b_free(c);
		return -ENOMEM;
	}
	for (i = 0; i < nvars; i++)
		p->bit[i] = -1;
	n = c;
	while (n != bddtrue && n != bddfalse) {
		int v = bdd_var(n);

		if (bdd_low(n) == bddfalse) {
			p->bit[v] = 1;
			n = bdd_high(n);
		} else {
			p->bit[v] = 0;
			n = bdd_low(n);
		}
	}
	b_free(c);
	return 0;
}

/*
 * Free choices one at a time: the value a fresh VM takes (pref), unless
 * no packet of @set is left with it. Returns a referenced BDD.
 */
BDD sd_prefer_fresh(const struct sd_vars *v, BDD set)
{
	BDD r = b_ref(set);
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		const struct sd_space *s = &v->sp[i];
		BDD t;

		if (s->kind != SP_FREE || !s->pref || !s->var || s->var[0] < 0)
			continue;
		t = b_and(r, s->pref == 2 ? bdd_ithvar(s->var[0]) :
				    bdd_nithvar(s->var[0]));
		if (t != bddfalse)
			b_put(&r, t);
		else
			b_free(t);
	}
	return r;
}

/* The whole packet (don't-care bits as 0): one minterm. */
BDD sd_packet_cube(const struct sd_packet *p)
{
	BDD r = bddtrue;
	int i;

	for (i = p->nvars - 1; i >= 0; i--) {
		BDD lit = p->bit[i] == 1 ? bdd_ithvar(i) : bdd_nithvar(i);

		b_put(&r, b_and(lit, r));
	}
	return r;
}

void sd_packet_fini(struct sd_packet *p)
{
	free(p->bit);
	p->bit = NULL;
}

static int space_find(const struct sd_vars *v, enum sd_space_kind kind,
		      uint32_t a, uint32_t b)
{
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->sp[i].kind == kind && v->sp[i].a == a &&
		    v->sp[i].b == b)
			return i;
	return -1;
}

/* Bit @i (from the start of the space) of the packet: 0/1/-1. */
static int pbit(const struct sd_vars *v, const struct sd_packet *p, int sp,
		unsigned int i)
{
	const struct sd_space *s = &v->sp[sp];

	if (!s->var || i / 8 >= SD_SPACE_BYTES || s->var[i / 8] < 0)
		return -2;	/* never read */
	return p->bit[s->var[i / 8] + i % 8];
}

static bool range_cared(const struct sd_vars *v, const struct sd_packet *p,
			int sp, unsigned int off, unsigned int len)
{
	unsigned int i;

	for (i = off; i < off + len; i++)
		if (pbit(v, p, sp, i) >= 0)
			return true;
	return false;
}

static void range_bytes(const struct sd_vars *v, const struct sd_packet *p,
			int sp, unsigned int off, unsigned int len,
			uint8_t *out)
{
	unsigned int i;

	memset(out, 0, (len + 7) / 8);
	for (i = 0; i < len; i++)
		if (pbit(v, p, sp, off + i) == 1)
			out[i / 8] |= 0x80 >> (i % 8);
}

/* A big-endian field of @len bits as a number (right-aligned). */
static unsigned long long range_value(const struct sd_vars *v,
				      const struct sd_packet *p, int sp,
				      unsigned int off, unsigned int len)
{
	unsigned long long x = 0;
	unsigned int i;

	for (i = 0; i < len && i < 64; i++)
		x = x << 1 | (pbit(v, p, sp, off + i) == 1);
	return x;
}

static void print_proto(FILE *f, const struct sd_vars *v,
			const struct sd_packet *p, int sp,
			const struct proto_desc *d, const char *raw)
{
	bool covered[SD_SPACE_BYTES * 8] = { false };
	unsigned int i, j;
	uint8_t buf[16];

	for (i = 1; d && i < PROTO_HDRS_MAX; i++) {
		const struct proto_hdr_template *t = &d->templates[i];

		if (!t->token || !t->len)
			continue;
		for (j = t->offset; j < t->offset + t->len &&
		     j < SD_SPACE_BYTES * 8; j++)
			covered[j] = true;
		if (!range_cared(v, p, sp, t->offset, t->len))
			continue;
		fprintf(f, " %s %s ", d->name, t->token);
		if (t->len == 32 && (!strcmp(t->token, "saddr") ||
				     !strcmp(t->token, "daddr"))) {
			range_bytes(v, p, sp, t->offset, 32, buf);
			sd_format_value(f, FMT_IP4, buf, 4);
		} else if (t->len == 128) {
			range_bytes(v, p, sp, t->offset, 128, buf);
			sd_format_value(f, FMT_IP6, buf, 16);
		} else if (t->len == 48) {
			range_bytes(v, p, sp, t->offset, 48, buf);
			sd_format_value(f, FMT_MAC, buf, 6);
		} else {
			fprintf(f, "%llu", range_value(v, p, sp, t->offset,
						       t->len));
		}
	}
	for (i = 0; i < SD_SPACE_BYTES; i++) {
		if (range_cared(v, p, sp, i * 8, 8) &&
		    (!covered[i * 8] || !covered[i * 8 + 7]))
			fprintf(f, " @%s,%u,8 %llu", raw, i * 8,
				range_value(v, p, sp, i * 8, 8));
	}
}

static unsigned int l4proto_of(const struct sd_vars *v,
			       const struct sd_packet *p, uint8_t family)
{
	int nh = space_find(v, SP_PAYLOAD, NFT_PAYLOAD_NETWORK_HEADER, 0);
	int m = space_find(v, SP_META, NFT_META_L4PROTO, 0);

	if (family == NFPROTO_IPV4 && nh >= 0 && pbit(v, p, nh, 72) != -2)
		return range_value(v, p, nh, 72, 8);
	if (m >= 0)
		return range_value(v, p, m, 0, 8);
	if (family == NFPROTO_IPV6 && nh >= 0)
		return range_value(v, p, nh, 48, 8);
	return 256;
}

static void print_keyed(FILE *f, const struct sd_vars *v,
			const struct sd_packet *p, int sp, const char *pfx,
			const struct sd_meta_key *k)
{
	uint8_t buf[SD_SPACE_BYTES];

	if (!k || !range_cared(v, p, sp, 0, k->len * 8))
		return;
	range_bytes(v, p, sp, 0, k->len * 8, buf);
	/* no name: what `trace packet` gives a packet unless told */
	if (k->fmt == FMT_STR && !buf[0])
		return;
	fprintf(f, " %s%s ", pfx, k->name);
	sd_format_value(f, k->fmt, buf, k->len);
}

static void print_space(FILE *f, struct sd_vars *v, const struct sd_packet *p,
			int i, uint8_t family)
{
	static const char *const dirs[] = { "", "original ", "reply " };
	const struct sd_space *s = &v->sp[i];
	char pfx[32];

	switch (s->kind) {
	case SP_PAYLOAD:
		if (s->a == NFT_PAYLOAD_NETWORK_HEADER)
			print_proto(f, v, p, i, family == NFPROTO_IPV6 ?
				    &proto_ip6 : &proto_ip, "nh");
		else if (s->a == NFT_PAYLOAD_TRANSPORT_HEADER)
			print_proto(f, v, p, i, l4proto_of(v, p, family) < 256 ?
				    proto_find_upper(&proto_ip,
						l4proto_of(v, p, family)) :
				    NULL, "th");
		else if (s->a == NFT_PAYLOAD_LL_HEADER)
			print_proto(f, v, p, i, &proto_eth, "ll");
		else
			print_proto(f, v, p, i, NULL, "ih");
		return;
	case SP_META:
		if (s->a == NFT_META_L4PROTO && family == NFPROTO_IPV4)
			return;
		print_keyed(f, v, p, i, "meta ", sd_meta_key(s->a));
		return;
	case SP_CT:
		snprintf(pfx, sizeof(pfx), "ct %s", dirs[s->b < 3 ? s->b : 0]);
		print_keyed(f, v, p, i, pfx, sd_ct_key(s->a, family));
		return;
	case SP_FREE:
		if (range_cared(v, p, i, 0, 1))
			fprintf(f, " [free choice %s = %d]", s->label,
				pbit(v, p, i, 0) == 1);
		return;
	case SP_FIB: case SP_RT: case SP_SOCKET: case SP_EXTHDR:
		if (range_cared(v, p, i, 0, s->nbytes * 8))
			fprintf(f, " [%s %u,%u = 0x%llx]",
				s->kind == SP_FIB ? "fib" : s->kind == SP_RT ?
				"rt" : s->kind == SP_SOCKET ? "socket" :
				"exthdr", s->a, s->b,
				range_value(v, p, i, 0, s->nbytes * 8));
		return;
	case SP_NAT: case SP_EFFECT: case __SP_MAX:
		return;
	}
}

/* The packet's constrained fields, network header first. */
void sd_print_packet(FILE *f, struct sd_vars *v, const struct sd_packet *p,
		     uint8_t family)
{
	static const enum sd_space_kind order[] = {
		SP_PAYLOAD, SP_META, SP_CT, SP_EXTHDR, SP_FIB, SP_RT,
		SP_SOCKET, SP_FREE,
	};
	unsigned int k, i;

	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (i = 0; i < v->n; i++)
			if (v->sp[i].kind == order[k])
				print_space(f, v, p, i, family);
}
