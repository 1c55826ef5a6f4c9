// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport (pcn.transport=rdma), over the in-kernel verbs
 * API and the RDMA connection manager; soft-RoCE (rxe) in the tests.
 *
 * One reliable-connected queue pair per pair of nodes, set up by the
 * connection manager over the nodes' pcn.nodes addresses with the rules
 * of the TCP transport: the higher id dials (->connect, from the core's
 * dialer thread, which retries with backoff, so nodes boot in any order
 * and the RDMA device may come after Popcorn),
 * the lower one accepts only listed addresses of higher ids, and both
 * run the core's handshake (include/popcorn/auth.h) before the peer is
 * online.  Each connection has its own protection domain, completion
 * queue and registered receive buffers.
 *
 * Messages are SENDs into pre-posted receive buffers, with credits so
 * that no peer can overrun a receiver (rdma_send.c); completions come
 * by interrupt, on a workqueue: nothing polls while idle.  A failed
 * completion, a QP error, a disconnect or a peer that stops answering
 * keepalives ends the connection and marks the node offline, which
 * fails its waits.  Page data is gathered from the sender's pages and
 * copied once on receipt (rdma_recv.c).
 *
 * Split by concern as tcp*.c: rdma_conn.c (resources and lifetime),
 * rdma_connect.c, rdma_listen.c, rdma_send.c, rdma_recv.c, rdma_stats.c.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

struct pcn_rdma_peer pcn_rdma_peers[POPCORN_MAX_NODES];
struct workqueue_struct *pcn_rdma_wq;

/* ->stop, after the core stopped its dialers: listener, connections. */
static void pcn_rdma_stop(void)
{
	int nid;

	pcn_rdma_listen_stop();
	for (nid = 0; nid < pcn_nr_nodes(); nid++)
		pcn_rdma_drop_attached(&pcn_rdma_peers[nid]);
	/* Waits for the connections' release works. */
	destroy_workqueue(pcn_rdma_wq);
	pcn_rdma_wq = NULL;
}

static int pcn_rdma_start(void)
{
	__be32 me = pcn_ipv4_node_addr(pcn_my_nid());
	int nid, ret;

	pcn_rdma_wq = alloc_workqueue("pcn_rdma", 0, 0);
	if (!pcn_rdma_wq)
		return -ENOMEM;
	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_rdma_peer *peer = &pcn_rdma_peers[nid];

		peer->nid = nid;
		spin_lock_init(&peer->lock);
		mutex_init(&peer->attach_lock);
		mutex_init(&peer->event_lock);
		init_waitqueue_head(&peer->wq);
		xa_init(&peer->placing);
	}

	ret = pcn_rdma_listen_start();
	if (ret) {
		destroy_workqueue(pcn_rdma_wq);
		pcn_rdma_wq = NULL;
		return ret;
	}
	pr_info("node %d at %pI4: listening on RDMA CM port %d\n", pcn_my_nid(),
		&me, PCN_RDMA_PORT);
	return 0;
}

static struct pcn_kmsg_transport pcn_rdma_transport = {
	.name = "rdma",
	.owner = THIS_MODULE,
	.max_size = PCN_RDMA_RX_SIZE,
	.parse_addr = pcn_ipv4_parse_addr,
	.addr_is_local = pcn_ipv4_addr_is_local,
	.start = pcn_rdma_start,
	.stop = pcn_rdma_stop,
	.connect = pcn_rdma_connect,
	.send = pcn_rdma_send,
	.send_pages = pcn_rdma_send_pages,
	.send_request = pcn_rdma_send_request,
	.request_end = pcn_rdma_request_end,
	.reply_pages = pcn_rdma_reply_pages,
	.disconnect = pcn_rdma_disconnect,
	.done = pcn_rdma_done,
	.show_stats = pcn_rdma_show_stats,
	.reset_stats = pcn_rdma_reset_stats,
};

static int __init pcn_rdma_init(void)
{
	return pcn_kmsg_register_transport(&pcn_rdma_transport);
}
device_initcall(pcn_rdma_init);
