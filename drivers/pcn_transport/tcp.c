// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport.
 *
 * One TCP connection per pair of nodes, on port PCN_TCP_PORT.  The node
 * with the higher id dials the lower one (->connect, called by the
 * core's dialer thread, which retries with backoff until the peer is
 * up), so nodes may boot in any order; the lower one accepts
 * only connections from addresses of pcn.nodes with a higher id.  Both
 * ends then run the core's handshake (include/popcorn/auth.h: hellos,
 * and proofs of the cluster key when one is loaded); only after it does
 * the peer count as online, and only then may a new connection replace
 * the one a peer has.  Each accepted connection runs its handshake in a
 * thread of its own: a peer that connects and stays silent delays
 * nobody else.
 *
 * Each connection has a receive thread that reads header-framed
 * messages and hands them to the messaging core; a frame whose size is
 * impossible ends the connection (the stream cannot be resynchronised).
 * Page data is copied once on each side (include/popcorn/pcn_kmsg.h):
 * sent with sendpage() from the sender's pages, which TCP keeps
 * references to until the peer acknowledges them, and received straight
 * into the fresh pages of pcn_kmsg_rx_alloc().
 * Senders write directly to the socket under a per-peer mutex: the only
 * queue is the socket's bounded send buffer, and a send blocked longer
 * than PCN_TCP_SEND_TIMEOUT fails and drops the connection.  Keepalive
 * and TCP_USER_TIMEOUT notice a vanished peer within a few seconds.
 *
 * Split by concern, as net/rds/tcp*.c is: this file holds the ops table
 * and starts and stops the rest; tcp_connect.c dials, tcp_listen.c
 * accepts, tcp_send.c and tcp_recv.c move messages, tcp_stats.c counts.
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include "tcp.h"

struct pcn_tcp_peer pcn_tcp_peers[POPCORN_MAX_NODES];

static void pcn_tcp_stop(void)
{
	int nid;

	pcn_tcp_listen_stop();
	for (nid = 0; nid < POPCORN_MAX_NODES; nid++)
		if (READ_ONCE(pcn_tcp_peers[nid].sock))
			pcn_tcp_drop_connection(&pcn_tcp_peers[nid]);
}

static int pcn_tcp_start(void)
{
	__be32 me = pcn_ipv4_node_addr(pcn_my_nid());
	int nid, ret;

	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_tcp_peer *peer = &pcn_tcp_peers[nid];

		peer->nid = nid;
		mutex_init(&peer->send_lock);
		mutex_init(&peer->conn_lock);
		init_waitqueue_head(&peer->wq);
	}

	ret = pcn_tcp_listen_start();
	if (ret)
		return ret;

	pr_info("node %d at %pI4: listening on port %d\n", pcn_my_nid(), &me,
		PCN_TCP_PORT);
	return 0;
}

static struct pcn_kmsg_transport pcn_tcp_transport = {
	.name = "tcp",
	.owner = THIS_MODULE,
	.max_size = PCN_KMSG_MAX_SIZE,
	.parse_addr = pcn_ipv4_parse_addr,
	.addr_is_local = pcn_ipv4_addr_is_local,
	.start = pcn_tcp_start,
	.stop = pcn_tcp_stop,
	.connect = pcn_tcp_connect,
	.send = pcn_tcp_send,
	.send_pages = pcn_tcp_send_pages,
	.disconnect = pcn_tcp_disconnect,
	.done = pcn_tcp_done,
	.show_stats = pcn_tcp_show_stats,
	.reset_stats = pcn_tcp_reset_stats,
};

static int __init pcn_tcp_init(void)
{
	return pcn_kmsg_register_transport(&pcn_tcp_transport);
}
device_initcall(pcn_tcp_init);
