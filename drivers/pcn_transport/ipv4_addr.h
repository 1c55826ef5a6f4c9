/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Node addresses of the transports that run over IPv4 (tcp, rdma):
 * each entry of pcn.nodes= is a dotted-quad unicast address, kept by
 * the core as its four bytes in network order.
 */
#ifndef _PCN_TRANSPORT_IPV4_ADDR_H
#define _PCN_TRANSPORT_IPV4_ADDR_H

#include <linux/types.h>
#include <popcorn/nodes.h>

int pcn_ipv4_parse_addr(const char *s, size_t len,
			struct pcn_node_addr *addr);
bool pcn_ipv4_addr_is_local(const struct pcn_node_addr *addr);
__be32 pcn_ipv4_node_addr(int nid);
int pcn_ipv4_node_by_addr(__be32 ip);

#endif /* _PCN_TRANSPORT_IPV4_ADDR_H */
