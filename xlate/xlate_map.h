/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef XLATE_XLATE_MAP_H
#define XLATE_XLATE_MAP_H

/*
 * The extension mappings (map_match.c, map_target.c, map_state.c), each
 * registered by one row of the table in map.c. A mapping reads the
 * kernel structure @data (r->ext_size bytes) and appends IR to r->rule;
 * it returns 0, or -1 after xl_error() when the extension's options
 * cannot be expressed.
 */

#include <stdbool.h>
#include <stdint.h>

struct xl_rule;

typedef int (*xl_map_fn)(struct xl_rule *r, const void *data);
typedef void (*xl_scan_fn)(struct xl_rule *r, const void *data);

bool xl_limit_rate(uint64_t avg, uint64_t scale, uint64_t *rate,
		   uint64_t *unit);

int xl_map_tcp(struct xl_rule *r, const void *data);
int xl_map_udp(struct xl_rule *r, const void *data);
int xl_map_icmp(struct xl_rule *r, const void *data);
int xl_map_icmp6(struct xl_rule *r, const void *data);
int xl_map_multiport(struct xl_rule *r, const void *data);
int xl_map_conntrack(struct xl_rule *r, const void *data);
int xl_map_state(struct xl_rule *r, const void *data);
int xl_map_comment(struct xl_rule *r, const void *data);
int xl_map_limit(struct xl_rule *r, const void *data);
int xl_map_mark(struct xl_rule *r, const void *data);
int xl_map_connmark(struct xl_rule *r, const void *data);
int xl_map_addrtype(struct xl_rule *r, const void *data);
int xl_map_iprange(struct xl_rule *r, const void *data);
int xl_map_owner(struct xl_rule *r, const void *data);
int xl_map_pkttype(struct xl_rule *r, const void *data);
int xl_map_mac(struct xl_rule *r, const void *data);
int xl_map_ttl(struct xl_rule *r, const void *data);
int xl_map_hl(struct xl_rule *r, const void *data);
int xl_map_length(struct xl_rule *r, const void *data);
int xl_map_tcpmss(struct xl_rule *r, const void *data);
int xl_map_dscp(struct xl_rule *r, const void *data);
int xl_map_tos(struct xl_rule *r, const void *data);
int xl_map_esp(struct xl_rule *r, const void *data);
int xl_map_ipcomp(struct xl_rule *r, const void *data);
int xl_map_ah(struct xl_rule *r, const void *data);
int xl_map_helper(struct xl_rule *r, const void *data);
int xl_map_cpu(struct xl_rule *r, const void *data);
int xl_map_devgroup(struct xl_rule *r, const void *data);
int xl_map_quota(struct xl_rule *r, const void *data);
int xl_map_realm(struct xl_rule *r, const void *data);
int xl_map_statistic(struct xl_rule *r, const void *data);
int xl_map_socket(struct xl_rule *r, const void *data);
int xl_map_frag(struct xl_rule *r, const void *data);
int xl_map_hbh(struct xl_rule *r, const void *data);
int xl_map_dst(struct xl_rule *r, const void *data);
int xl_map_rt(struct xl_rule *r, const void *data);
int xl_map_mh(struct xl_rule *r, const void *data);
int xl_map_log(struct xl_rule *r, const void *data);
int xl_map_nflog(struct xl_rule *r, const void *data);
int xl_map_audit(struct xl_rule *r, const void *data);
int xl_map_reject(struct xl_rule *r, const void *data);
int xl_map_snat(struct xl_rule *r, const void *data);
int xl_map_dnat(struct xl_rule *r, const void *data);
int xl_map_masquerade(struct xl_rule *r, const void *data);
int xl_map_redirect(struct xl_rule *r, const void *data);
int xl_map_mark_tg(struct xl_rule *r, const void *data);
int xl_map_connmark_tg(struct xl_rule *r, const void *data);
int xl_map_notrack(struct xl_rule *r, const void *data);
int xl_map_trace(struct xl_rule *r, const void *data);
int xl_map_ct(struct xl_rule *r, const void *data);
int xl_map_tcpmss_tg(struct xl_rule *r, const void *data);
int xl_map_dscp_tg(struct xl_rule *r, const void *data);
int xl_map_classify(struct xl_rule *r, const void *data);
int xl_map_nfqueue(struct xl_rule *r, const void *data);
int xl_map_tee(struct xl_rule *r, const void *data);
int xl_map_tproxy(struct xl_rule *r, const void *data);
int xl_map_synproxy(struct xl_rule *r, const void *data);
int xl_map_ttl_tg(struct xl_rule *r, const void *data);
int xl_map_hl_tg(struct xl_rule *r, const void *data);
int xl_map_recent(struct xl_rule *r, const void *data);
void xl_scan_recent(struct xl_rule *r, const void *data);
int xl_map_hashlimit(struct xl_rule *r, const void *data);
int xl_map_connlimit(struct xl_rule *r, const void *data);
int xl_map_time(struct xl_rule *r, const void *data);
int xl_map_policy(struct xl_rule *r, const void *data);
int xl_map_set(struct xl_rule *r, const void *data);
/* map_ext.c */
int xl_map_cgroup_v1(struct xl_rule *r, const void *data);
int xl_map_cgroup_v2(struct xl_rule *r, const void *data);
int xl_map_cluster(struct xl_rule *r, const void *data);
int xl_map_connbytes(struct xl_rule *r, const void *data);
int xl_map_connlabel(struct xl_rule *r, const void *data);
int xl_map_dccp(struct xl_rule *r, const void *data);
int xl_map_sctp(struct xl_rule *r, const void *data);
int xl_map_ecn(struct xl_rule *r, const void *data);
int xl_map_rpfilter(struct xl_rule *r, const void *data);
int xl_map_tos_tg(struct xl_rule *r, const void *data);
int xl_map_checksum(struct xl_rule *r, const void *data);
/* map_u32.c */
int xl_map_u32(struct xl_rule *r, const void *data);

#endif
