// SPDX-License-Identifier: GPL-2.0
/*
 * Node addresses for the transports that run over IPv4 (tcp, rdma).
 *
 * The core splits pcn.nodes= at its commas and hands each entry to the
 * transport's ->parse_addr; these are that op and its inverse lookups.
 * An entry is a dotted quad, nothing around it, and must be a unicast
 * address another node can reach: not 0.0.0.0, loopback, multicast
 * or the limited broadcast.
 */
#include <linux/errno.h>
#include <linux/inet.h>
#include <linux/in.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/route.h>

#include "ipv4_addr.h"

/**
 * pcn_ipv4_parse_addr() - a transport's ->parse_addr for IPv4 addresses
 * @s: the entry of pcn.nodes=, not NUL-terminated
 * @len: its length
 * @addr: zeroed by the caller; set to the address, 4 bytes in network
 *	order
 *
 * Return: 0, or -EINVAL for anything but a unicast dotted quad.
 */
int pcn_ipv4_parse_addr(const char *s, size_t len, struct pcn_node_addr *addr)
{
	const char *end;
	__be32 ip;

	if (!len || !in4_pton(s, len, (u8 *)&ip, -1, &end) || end != s + len)
		return -EINVAL;
	if (ipv4_is_zeronet(ip) || ipv4_is_loopback(ip) ||
	    ipv4_is_multicast(ip) || ipv4_is_lbcast(ip))
		return -EINVAL;
	addr->len = sizeof(ip);
	memcpy(addr->bytes, &ip, sizeof(ip));
	return 0;
}

/* ->addr_is_local: the address is configured on an interface here. */
bool pcn_ipv4_addr_is_local(const struct pcn_node_addr *addr)
{
	__be32 ip;

	if (addr->len != sizeof(ip))
		return false;
	memcpy(&ip, addr->bytes, sizeof(ip));
	return inet_addr_type(&init_net, ip) == RTN_LOCAL;
}

/**
 * pcn_ipv4_node_addr() - the IPv4 address of a node
 * @nid: a node id
 *
 * Return: its address from pcn.nodes in network order, or 0 (INADDR_ANY)
 * for an id outside the cluster.
 */
__be32 pcn_ipv4_node_addr(int nid)
{
	const struct pcn_node_addr *addr = pcn_node_addr(nid);
	__be32 ip = 0;

	if (addr && addr->len == sizeof(ip))
		memcpy(&ip, addr->bytes, sizeof(ip));
	return ip;
}

/**
 * pcn_ipv4_node_by_addr() - the node an IPv4 address belongs to
 * @ip: the address, in network order
 *
 * Return: the node id whose pcn.nodes entry it is, or -1.
 */
int pcn_ipv4_node_by_addr(__be32 ip)
{
	struct pcn_node_addr addr = { .len = sizeof(ip) };

	memcpy(addr.bytes, &ip, sizeof(ip));
	return pcn_node_by_addr(&addr);
}
