/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn node membership: who this node is and which nodes are online.
 */
#ifndef _POPCORN_NODES_H
#define _POPCORN_NODES_H

#include <linux/types.h>
#include <uapi/linux/popcorn.h>

/* This node's id, or -1 when Popcorn is disabled on this boot. */
int pcn_my_nid(void);

static inline bool pcn_enabled(void)
{
	return pcn_my_nid() >= 0;
}

/* Number of nodes in pcn.nodes= (0 when disabled). */
int pcn_nr_nodes(void);

/* True for a node id of the configured cluster. */
static inline bool pcn_nid_valid(int nid)
{
	return nid >= 0 && nid < pcn_nr_nodes();
}

bool pcn_node_online(int nid);
int pcn_node_arch(int nid);
void pcn_node_set_online(int nid, int arch);
void pcn_node_set_offline(int nid);

#endif /* _POPCORN_NODES_H */
