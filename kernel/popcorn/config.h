/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn boot configuration: parsing of pcn.nodes=, pcn.nid= and
 * pcn.transport=.  Kept free of global state so that KUnit can drive it.
 */
#ifndef _KERNEL_POPCORN_CONFIG_H
#define _KERNEL_POPCORN_CONFIG_H

#include <linux/types.h>
#include <uapi/linux/popcorn.h>

#define PCN_TRANSPORT_NAME_MAX	16

struct pcn_config {
	int nr_nodes;
	int my_nid;
	__be32 addr[POPCORN_MAX_NODES];		/* position = node id */
	char transport[PCN_TRANSPORT_NAME_MAX];
	const char *error;	/* why the configuration was refused */
};

/* Tells whether @addr is configured on this node. */
typedef bool (*pcn_addr_is_local_t)(__be32 addr, void *arg);

int pcn_config_parse(const char *nodes, const char *nid,
		     const char *transport, pcn_addr_is_local_t is_local,
		     void *arg, struct pcn_config *cfg);

#endif /* _KERNEL_POPCORN_CONFIG_H */
