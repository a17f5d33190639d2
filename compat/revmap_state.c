// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reverse map of the matches xlate writes as statements on named sets
 * (xlate/map_state.c): "add @connlimitN { ip saddr ct count over 20 }"
 * is -m connlimit --connlimit-above 20 --connlimit-mask 32
 * --connlimit-saddr, printed as libxt_connlimit's save does.
 */
#define _GNU_SOURCE
#include <config.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include "revmap_int.h"

/* Prefix length of the dotted/colon mask @s; -1 if not a prefix. */
static int rv_mask_len(uint8_t family, const char *s)
{
	uint8_t a[16];
	unsigned int i, n = family == NFPROTO_IPV6 ? 16 : 4, len = 0;
	bool end = false;
	int bit;

	if (inet_pton(family == NFPROTO_IPV6 ? AF_INET6 : AF_INET, s, a) != 1)
		return -1;
	for (i = 0; i < n; i++) {
		for (bit = 7; bit >= 0; bit--) {
			if (!(a[i] >> bit & 1))
				end = true;
			else if (end)
				return -1;
			else
				len++;
		}
	}
	return len;
}

/* "add @connlimitN { KEY ct count [over ]N }" */
static bool rv_connlimit(struct rv_ctx *c, const char *text)
{
	const char *l3 = c->family == NFPROTO_IPV6 ? "ip6" : "ip";
	char proto[8], side[8], mask[64];
	unsigned int count;
	int n = 0, len;
	bool over;

	if (sscanf(text, "add @connlimit%*u { %7s %7s %n", proto, side,
		   &n) != 2 || !n || strcmp(proto, l3) ||
	    (strcmp(side, "saddr") && strcmp(side, "daddr")))
		return false;
	text += n;
	len = c->family == NFPROTO_IPV6 ? 128 : 32;
	n = 0;
	if (sscanf(text, "& %63s %n", mask, &n) == 1 && n) {
		len = rv_mask_len(c->family, mask);
		if (len < 0)
			return false;
		text += n;
	}
	over = !strncmp(text, "ct count over ", 14);
	n = 0;
	if (sscanf(text + (over ? 14 : 9), "%u }%n", &count, &n) != 1 ||
	    strncmp(text, "ct count ", 9) || text[(over ? 14 : 9) + n])
		return false;
	rv_match_open(c, "connlimit");
	fprintf(c->m, " --connlimit-%s %u --connlimit-mask %d --connlimit-%s",
		over ? "above" : "upto", count, len, side);
	return true;
}

bool rv_state_set(struct rv_ctx *c, const struct stmt *s)
{
	char *text = rv_stmt_text(c, s);
	bool ok = text && rv_connlimit(c, text);

	free(text);
	return ok;
}
