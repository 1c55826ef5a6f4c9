// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn node membership.
 *
 * The cluster is fixed at boot by pcn.nodes=; this file applies the
 * parsed configuration, starts the transport, and keeps per node id the
 * membership state that the transport drives (see membership.c).
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <popcorn/nodes.h>

#include "config.h"
#include "kmsg_internal.h"
#include "membership.h"

/* Parameters are spelled pcn.nodes=, pcn.nid=, pcn.transport=. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."

/* Up to 16 characters per entry (a dotted quad has 15) and the commas. */
static char pcn_param_nodes[POPCORN_MAX_NODES * 17];
module_param_string(nodes, pcn_param_nodes, sizeof(pcn_param_nodes), 0444);
MODULE_PARM_DESC(nodes, "the nodes' addresses in the transport's form, position = node id");

static char pcn_param_nid[12];
module_param_string(nid, pcn_param_nid, sizeof(pcn_param_nid), 0444);
MODULE_PARM_DESC(nid, "this node's id (default: found from its address)");

static char pcn_param_transport[PCN_TRANSPORT_NAME_MAX];
module_param_string(transport, pcn_param_transport,
		    sizeof(pcn_param_transport), 0444);
MODULE_PARM_DESC(transport, "message transport (default: " CONFIG_PCN_TRANSPORT_DEFAULT ")");

static struct pcn_config pcn_cfg = { .my_nid = -1 };

/*
 * Per node: membership state (under pcn_nodes_lock) and, for lockless
 * readers, an online bit and the architecture.
 */
static DEFINE_SPINLOCK(pcn_nodes_lock);
static enum pcn_peer_state pcn_state[POPCORN_MAX_NODES];
static DECLARE_BITMAP(pcn_online, POPCORN_MAX_NODES);
static int pcn_arch[POPCORN_MAX_NODES];
/* Bumped each time a node comes online: state from before is stale. */
static unsigned int pcn_gen[POPCORN_MAX_NODES];

unsigned int pcn_node_generation(int nid)
{
	return pcn_nid_valid(nid) ? READ_ONCE(pcn_gen[nid]) : 0;
}

int pcn_my_nid(void)
{
	return READ_ONCE(pcn_cfg.my_nid);
}

int pcn_nr_nodes(void)
{
	return READ_ONCE(pcn_cfg.nr_nodes);
}

bool pcn_node_online(int nid)
{
	return pcn_nid_valid(nid) && test_bit(nid, pcn_online);
}

int pcn_node_arch(int nid)
{
	if (!pcn_node_online(nid))
		return POPCORN_ARCH_UNKNOWN;
	/* Pairs with smp_mb__before_atomic() in pcn_node_event(). */
	smp_rmb();
	return READ_ONCE(pcn_arch[nid]);
}

const struct pcn_node_addr *pcn_node_addr(int nid)
{
	return pcn_nid_valid(nid) ? &pcn_cfg.addr[nid] : NULL;
}

int pcn_node_by_addr(const struct pcn_node_addr *addr)
{
	int nid;

	for (nid = 0; nid < pcn_nr_nodes(); nid++)
		if (pcn_cfg.addr[nid].len == addr->len &&
		    !memcmp(pcn_cfg.addr[nid].bytes, addr->bytes, addr->len))
			return nid;
	return -1;
}

static BLOCKING_NOTIFIER_HEAD(pcn_node_notifiers);

/**
 * pcn_node_notifier_register() - hear of nodes going online and offline
 * @nb: the callback, called with enum pcn_node_change
 *
 * For the servers: membership does not call them, it notifies.
 *
 * Return: 0.
 */
int pcn_node_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&pcn_node_notifiers, nb);
}

int pcn_node_event(int nid, enum pcn_peer_event ev, int arch)
{
	enum pcn_peer_state old;
	int next;

	if (WARN_ON_ONCE(!pcn_nid_valid(nid) || nid == pcn_my_nid()))
		return -EINVAL;

	spin_lock(&pcn_nodes_lock);
	old = pcn_state[nid];
	next = pcn_peer_next_state(old, ev);
	if (next < 0) {
		spin_unlock(&pcn_nodes_lock);
		pr_warn("node %d: event %d impossible in state %s\n", nid, ev,
			pcn_peer_state_name(old));
		return next;
	}
	pcn_state[nid] = next;
	if (next == PCN_PEER_ONLINE && old != PCN_PEER_ONLINE) {
		WRITE_ONCE(pcn_gen[nid], pcn_gen[nid] + 1);
		WRITE_ONCE(pcn_arch[nid], arch);
		/* Publish the arch before the online bit; see pcn_node_arch(). */
		smp_mb__before_atomic();
		set_bit(nid, pcn_online);
	} else if (next != PCN_PEER_ONLINE) {
		clear_bit(nid, pcn_online);
	}
	spin_unlock(&pcn_nodes_lock);

	if (next == PCN_PEER_ONLINE && old != PCN_PEER_ONLINE) {
		pr_info("node %d online\n", nid);
		blocking_notifier_call_chain(&pcn_node_notifiers,
					     PCN_NODE_ONLINE, (void *)(long)nid);
	}
	if (old == PCN_PEER_ONLINE && next != PCN_PEER_ONLINE) {
		pr_info("node %d offline\n", nid);
		pcn_kmsg_fail_waits(nid);
		blocking_notifier_call_chain(&pcn_node_notifiers,
					     PCN_NODE_OFFLINE, (void *)(long)nid);
	}
	return 0;
}

static void __init pcn_config_refused(const struct pcn_config *cfg, int err)
{
	pr_err("%s (pcn.nodes=\"%s\" pcn.nid=\"%s\" pcn.transport=\"%s\"): Popcorn disabled (%d)\n",
	       cfg->error, pcn_param_nodes, pcn_param_nid, pcn_param_transport,
	       err);
}

/*
 * Runs after ip= autoconfiguration (a late_initcall), so that this node
 * can recognise its own address in pcn.nodes, and after the transports
 * registered (device_initcall).
 */
static int __init pcn_nodes_init(void)
{
	struct pcn_kmsg_transport *t;
	struct pcn_config cfg;
	int err;

	if (!pcn_param_nodes[0] && !pcn_param_nid[0] &&
	    !pcn_param_transport[0]) {
		pr_info("no pcn.nodes= given, Popcorn disabled\n");
		return 0;
	}

	pcn_config_init(&cfg);
	err = pcn_config_parse_transport(pcn_param_transport, &cfg);
	if (err) {
		pcn_config_refused(&cfg, err);
		return 0;
	}
	t = pcn_kmsg_find_transport(cfg.transport);
	if (!t) {
		pr_err("transport %s: not built into this kernel (%d): Popcorn disabled\n",
		       cfg.transport, -ENOENT);
		return 0;
	}
	err = pcn_config_parse_nodes(pcn_param_nodes, pcn_param_nid, t, &cfg);
	if (err) {
		pcn_config_refused(&cfg, err);
		return 0;
	}

	pcn_cfg = cfg;
	pcn_state[cfg.my_nid] = PCN_PEER_ONLINE;
	WRITE_ONCE(pcn_arch[cfg.my_nid], POPCORN_ARCH_X86);
	set_bit(cfg.my_nid, pcn_online);
	pr_info("node %d of %d, transport %s\n", cfg.my_nid, cfg.nr_nodes,
		cfg.transport);

	err = pcn_kmsg_start(t);
	if (err) {
		pr_err("transport %s: failed to start (%d): Popcorn disabled\n",
		       cfg.transport, err);
		clear_bit(cfg.my_nid, pcn_online);
		WRITE_ONCE(pcn_cfg.nr_nodes, 0);
		WRITE_ONCE(pcn_cfg.my_nid, -1);
	}
	return 0;
}
late_initcall_sync(pcn_nodes_init);
