/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn node membership: who this node is and which nodes are online.
 */
#ifndef _POPCORN_NODES_H
#define _POPCORN_NODES_H

#include <linux/notifier.h>
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
/* Changes each time node @nid comes online (again). */
unsigned int pcn_node_generation(int nid);

/*
 * A node's address: its entry of pcn.nodes=, parsed by the active
 * transport (->parse_addr), which alone knows what the bytes mean (an
 * IPv4 address for tcp and rdma).  The core only stores and compares
 * them.
 */
#define PCN_NODE_ADDR_MAX	16

struct pcn_node_addr {
	u8 len;				/* bytes used, 1 to PCN_NODE_ADDR_MAX */
	u8 bytes[PCN_NODE_ADDR_MAX];	/* the rest are zero */
};

/* Address of node @nid, or NULL for an id outside the cluster. */
const struct pcn_node_addr *pcn_node_addr(int nid);
/* Node id whose address is @addr, or -1 when it is not in pcn.nodes. */
int pcn_node_by_addr(const struct pcn_node_addr *addr);

/* Membership: what a transport reports about a peer's connection. */
enum pcn_peer_state {
	PCN_PEER_OFFLINE,
	PCN_PEER_HANDSHAKE,
	PCN_PEER_ONLINE,
};

enum pcn_peer_event {
	PCN_PEER_EV_CONNECT,		/* connection up, handshake starts */
	PCN_PEER_EV_HANDSHAKE_OK,	/* peer identified: online */
	PCN_PEER_EV_HANDSHAKE_FAIL,	/* peer refused: offline */
	PCN_PEER_EV_DISCONNECT,		/* connection lost: offline */
};

/*
 * Apply @ev to peer @nid (@arch: its architecture, for HANDSHAKE_OK).
 * Going offline fails every request waiting for the node.
 * Return: 0, or -EINVAL for an event impossible in the peer's state.
 */
int pcn_node_event(int nid, enum pcn_peer_event ev, int arch);

/*
 * Membership changes, for the servers: PCN_NODE_ONLINE or
 * PCN_NODE_OFFLINE with the node id as data ((void *)(long)nid).  The
 * callbacks run in process context, in the order of the node's events
 * (after its waits failed, for OFFLINE), and may sleep.
 */
enum pcn_node_change {
	PCN_NODE_ONLINE,
	PCN_NODE_OFFLINE,
};

int pcn_node_notifier_register(struct notifier_block *nb);

#endif /* _POPCORN_NODES_H */
