// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport.
 *
 * Nodes that are guests of one host share a memory segment: a file on
 * the host that QEMU gives each guest as an ivshmem-plain PCI device
 * (1af4:1110), the memory in its BAR2.  The segment holds a layout
 * header, one slot per node (its boot id and heartbeat) and one
 * single-producer/single-consumer ring per ordered pair of nodes
 * (shm_layout.h).  A node is identified by its slot: each entry of
 * pcn.nodes= is a slot number, below the number of nodes; no address
 * is needed, so pcn.nid= must say which entry is this node.
 *
 * Messages are copied once on each side: by the sender into the ring,
 * page data straight from its pages, and by the receiver out of it,
 * page data straight into the fresh pages that are then mapped.  There
 * is no interrupt between ivshmem-plain guests: a poll thread per node
 * reads the rings, sleeping longer the longer it finds nothing
 * (shm_poll.c).  Connections are sessions opened by the node with the
 * higher id, with the core's handshake over the rings (shm_conn.c); a
 * peer whose heartbeat stops is lost after pcn_shm.dead_ms, its waits
 * failing as with the other transports (shm_layout.c).
 *
 * Trust: every guest that has the device can read and write all of the
 * segment.  The handshake proves the cluster key between the two ends
 * of a session, but a guest with the device can still forge what a
 * ring carries: the guests sharing a segment are one trust domain,
 * which the host chooses by giving them the device.  Everything read
 * from the segment is nevertheless checked before use, so that what a
 * broken or hostile peer writes there ends a connection, never the
 * node (Documentation/popcorn/shm.rst).
 *
 * Split by concern: this file holds the PCI driver, the ops table and
 * start/stop; shm_layout.c the header, slots and liveness, shm_ring.c
 * the rings, shm_conn.c sessions, shm_send.c and shm_poll.c moving
 * messages, shm_stats.c the counters.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>

#include "shm.h"

#define PCN_SHM_VENDOR		0x1af4		/* Red Hat, Inc. */
#define PCN_SHM_DEVICE		0x1110		/* Inter-VM shared memory */
#define PCN_SHM_BAR		2

struct pcn_shm pcn_shm;
struct pcn_shm_peer pcn_shm_peers[POPCORN_MAX_NODES];

unsigned int pcn_shm_dead_ms = 4000;
module_param_named(dead_ms, pcn_shm_dead_ms, uint, 0644);
MODULE_PARM_DESC(dead_ms, "A peer whose heartbeat stops this long (ms) is lost");
unsigned int pcn_shm_poll_min_us = 20;
module_param_named(poll_min_us, pcn_shm_poll_min_us, uint, 0644);
MODULE_PARM_DESC(poll_min_us, "First sleep (us) of the poll thread after an idle pass");
unsigned int pcn_shm_poll_max_us = 2000;
module_param_named(poll_max_us, pcn_shm_poll_max_us, uint, 0644);
MODULE_PARM_DESC(poll_max_us, "Longest sleep (us) of the poll thread when idle");
unsigned int pcn_shm_poll_idle_us = 10000;
module_param_named(poll_idle_us, pcn_shm_poll_idle_us, uint, 0644);
MODULE_PARM_DESC(poll_idle_us, "Longest sleep (us) of the poll thread after a second without traffic");

/* ->parse_addr: a slot number. */
static int pcn_shm_parse_addr(const char *s, size_t len,
			      struct pcn_node_addr *addr)
{
	char buf[4];
	u8 slot;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (kstrtou8(buf, 10, &slot) || slot >= POPCORN_MAX_NODES)
		return -EINVAL;
	addr->len = 1;
	addr->bytes[0] = slot;
	return 0;
}

static void pcn_shm_stop(void)
{
	int nid;

	pcn_shm_poll_stop();
	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];

		if (nid == pcn_my_nid())
			continue;
		cancel_work_sync(&peer->accept_work);
		pcn_shm_drop(peer, PCN_SHM_NR_COUNTERS, READ_ONCE(peer->session));
		flush_work(&peer->lost_work);
	}
}

static int pcn_shm_start(void)
{
	int nid, ret;

	if (!pcn_shm.base) {
		pr_err("no ivshmem device (PCI %04x:%04x) with a shared segment\n",
		       PCN_SHM_VENDOR, PCN_SHM_DEVICE);
		return -ENODEV;
	}
	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];

		peer->nid = nid;
		peer->slot = pcn_node_addr(nid)->bytes[0];
		if (peer->slot >= pcn_nr_nodes()) {
			pr_err("node %d: slot %d, but the %d nodes have slots 0 to %d\n",
			       nid, peer->slot, pcn_nr_nodes(),
			       pcn_nr_nodes() - 1);
			return -EINVAL;
		}
		mutex_init(&peer->conn_lock);
		mutex_init(&peer->send_lock);
		mutex_init(&peer->rx_lock);
		init_waitqueue_head(&peer->wq);
		INIT_WORK(&peer->accept_work, pcn_shm_accept_work);
		INIT_WORK(&peer->lost_work, pcn_shm_lost_work);
	}
	ret = pcn_shm_layout_init();
	if (ret)
		return ret;
	ret = pcn_shm_poll_start();
	if (ret)
		return ret;
	pr_info("node %d in slot %d of a %zu-byte segment: rings of %u bytes, polling\n",
		pcn_my_nid(), pcn_shm.my_slot, pcn_shm.size,
		pcn_shm.layout.ring_bytes);
	return 0;
}

static struct pcn_kmsg_transport pcn_shm_transport = {
	.name = "shm",
	.owner = THIS_MODULE,
	.max_size = PCN_KMSG_MAX_SIZE,
	.parse_addr = pcn_shm_parse_addr,
	.start = pcn_shm_start,
	.stop = pcn_shm_stop,
	.connect = pcn_shm_connect,
	.send = pcn_shm_send,
	.send_pages = pcn_shm_send_pages,
	.disconnect = pcn_shm_disconnect,
	.done = pcn_shm_done,
	.show_stats = pcn_shm_show_stats,
	.reset_stats = pcn_shm_reset_stats,
};

/* Map the segment: ordinary, cacheable memory on the host's side. */
static int pcn_shm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	resource_size_t start, len;
	void *base;
	int ret;

	if (pcn_shm.base) {
		dev_warn(&pdev->dev, "a second shared segment, not used\n");
		return -EBUSY;
	}
	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	if (!(pci_resource_flags(pdev, PCN_SHM_BAR) & IORESOURCE_MEM) ||
	    !pci_resource_len(pdev, PCN_SHM_BAR)) {
		dev_err(&pdev->dev, "no shared memory in BAR%d (ivshmem-plain has it there)\n",
			PCN_SHM_BAR);
		return -ENODEV;
	}
	ret = pci_request_region(pdev, PCN_SHM_BAR, "pcn_shm");
	if (ret)
		return ret;
	start = pci_resource_start(pdev, PCN_SHM_BAR);
	len = pci_resource_len(pdev, PCN_SHM_BAR);
	base = devm_memremap(&pdev->dev, start, len, MEMREMAP_WB);
	if (IS_ERR(base))
		return PTR_ERR(base);
	pcn_shm.base = base;
	pcn_shm.size = len;
	dev_info(&pdev->dev, "shared segment of %pa bytes at %pa\n", &len,
		 &start);
	return 0;
}

static const struct pci_device_id pcn_shm_ids[] = {
	{ PCI_DEVICE(PCN_SHM_VENDOR, PCN_SHM_DEVICE) },
	{ }
};

static struct pci_driver pcn_shm_driver = {
	.name = "pcn_shm",
	.id_table = pcn_shm_ids,
	.probe = pcn_shm_probe,
	/*
	 * Built in, and the segment stays mapped for the kernel's life:
	 * it must not be unbound from sysfs while Popcorn uses it.
	 */
	.driver.suppress_bind_attrs = true,
};

static int __init pcn_shm_init(void)
{
	int ret = pci_register_driver(&pcn_shm_driver);

	if (ret)
		return ret;
	return pcn_kmsg_register_transport(&pcn_shm_transport);
}
device_initcall(pcn_shm_init);
