/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn boot configuration: parsing of pcn.transport=, pcn.nodes= and
 * pcn.nid=.  Kept free of global state so that KUnit can drive it.
 */
#ifndef _KERNEL_POPCORN_CONFIG_H
#define _KERNEL_POPCORN_CONFIG_H

#include <linux/types.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>
#include <uapi/linux/popcorn.h>

#define PCN_TRANSPORT_NAME_MAX	16

struct pcn_config {
	int nr_nodes;
	int my_nid;
	struct pcn_node_addr addr[POPCORN_MAX_NODES];	/* position = id */
	char transport[PCN_TRANSPORT_NAME_MAX];
	const char *error;	/* why the configuration was refused */
};

void pcn_config_init(struct pcn_config *cfg);
int pcn_config_parse_transport(const char *name, struct pcn_config *cfg);
int pcn_config_parse_nodes(const char *nodes, const char *nid,
			   const struct pcn_kmsg_transport *t,
			   struct pcn_config *cfg);

#endif /* _KERNEL_POPCORN_CONFIG_H */
