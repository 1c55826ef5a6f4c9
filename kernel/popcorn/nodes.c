// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn node membership.
 *
 * The cluster is fixed at boot by pcn.nodes=; this file applies the
 * parsed configuration and keeps, per node id, whether the node is
 * online and its architecture.  Until a transport connects peers, only
 * this node is online.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <net/net_namespace.h>
#include <net/route.h>
#include <popcorn/nodes.h>

#include "config.h"

/* Parameters are spelled pcn.nodes=, pcn.nid=, pcn.transport=. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."

static char pcn_param_nodes[POPCORN_MAX_NODES * sizeof("255.255.255.255,")];
module_param_string(nodes, pcn_param_nodes, sizeof(pcn_param_nodes), 0444);
MODULE_PARM_DESC(nodes, "IPv4 addresses of the nodes, position = node id");

static char pcn_param_nid[12];
module_param_string(nid, pcn_param_nid, sizeof(pcn_param_nid), 0444);
MODULE_PARM_DESC(nid, "this node's id (default: found from its address)");

static char pcn_param_transport[PCN_TRANSPORT_NAME_MAX];
module_param_string(transport, pcn_param_transport,
		    sizeof(pcn_param_transport), 0444);
MODULE_PARM_DESC(transport, "message transport: tcp (default), rdma, shm");

static struct pcn_config pcn_cfg = { .my_nid = -1 };

static DECLARE_BITMAP(pcn_online, POPCORN_MAX_NODES);
static int pcn_arch[POPCORN_MAX_NODES];

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
	/* Pairs with smp_mb__before_atomic() in pcn_node_set_online(). */
	smp_rmb();
	return READ_ONCE(pcn_arch[nid]);
}

void pcn_node_set_online(int nid, int arch)
{
	if (WARN_ON_ONCE(!pcn_nid_valid(nid)))
		return;
	WRITE_ONCE(pcn_arch[nid], arch);
	/* Publish the arch before the online bit; see pcn_node_arch(). */
	smp_mb__before_atomic();
	if (!test_and_set_bit(nid, pcn_online))
		pr_info("node %d online\n", nid);
}

void pcn_node_set_offline(int nid)
{
	if (WARN_ON_ONCE(!pcn_nid_valid(nid)))
		return;
	if (test_and_clear_bit(nid, pcn_online))
		pr_info("node %d offline\n", nid);
}

static bool pcn_addr_is_local(__be32 addr, void *arg)
{
	return inet_addr_type(&init_net, addr) == RTN_LOCAL;
}

/*
 * Runs after ip= autoconfiguration (a late_initcall), so that this node
 * can recognise its own address in pcn.nodes.
 */
static int __init pcn_nodes_init(void)
{
	struct pcn_config cfg;
	int err;

	if (!pcn_param_nodes[0] && !pcn_param_nid[0] &&
	    !pcn_param_transport[0]) {
		pr_info("no pcn.nodes= given, Popcorn disabled\n");
		return 0;
	}

	err = pcn_config_parse(pcn_param_nodes, pcn_param_nid,
			       pcn_param_transport, pcn_addr_is_local, NULL,
			       &cfg);
	if (err) {
		pr_err("%s (pcn.nodes=\"%s\" pcn.nid=\"%s\" pcn.transport=\"%s\"): Popcorn disabled (%d)\n",
		       cfg.error, pcn_param_nodes, pcn_param_nid,
		       pcn_param_transport, err);
		return 0;
	}

	pcn_cfg = cfg;
	pcn_node_set_online(cfg.my_nid, POPCORN_ARCH_X86);
	pr_info("node %d of %d (%pI4), transport %s\n", cfg.my_nid,
		cfg.nr_nodes, &cfg.addr[cfg.my_nid], cfg.transport);
	return 0;
}
late_initcall_sync(pcn_nodes_init);
