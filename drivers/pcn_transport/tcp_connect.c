// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport: connecting.  The node with the higher id dials
 * the lower one, from the core's dialer thread (which retries with
 * backoff until the peer is up); both ends then run the core's
 * handshake over these I/O functions.
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include "tcp.h"

static int pcn_tcp_hs_send(void *conn, const void *buf, size_t len)
{
	struct pcn_tcp_hs_conn *c = conn;

	return pcn_tcp_send_all(c->sock, buf, len, false, c->deadline);
}

static int pcn_tcp_hs_recv(void *conn, void *buf, size_t len)
{
	struct pcn_tcp_hs_conn *c = conn;

	return pcn_tcp_recv_all(c->sock, buf, len, c->deadline);
}

const struct pcn_handshake_io pcn_tcp_hs_io = {
	.send = pcn_tcp_hs_send,
	.recv = pcn_tcp_hs_recv,
};

/* Drop the peer's current connection and wait until it is gone. */
int pcn_tcp_drop_connection(struct pcn_tcp_peer *peer)
{
	mutex_lock(&peer->send_lock);
	if (peer->sock)
		kernel_sock_shutdown(peer->sock, SHUT_RDWR);
	mutex_unlock(&peer->send_lock);
	if (!wait_event_timeout(peer->wq, !READ_ONCE(peer->sock),
				PCN_TCP_HANDSHAKE_TIMEOUT))
		return -ETIMEDOUT;
	return 0;
}

static int pcn_tcp_dial(struct pcn_tcp_peer *peer)
{
	struct sockaddr_in local = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = pcn_ipv4_node_addr(pcn_my_nid()),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PCN_TCP_PORT),
		.sin_addr.s_addr = pcn_ipv4_node_addr(peer->nid),
	};
	struct pcn_tcp_hs_conn hs_conn;
	struct pcn_handshake hs = {
		.peer = peer->nid,
		.io = &pcn_tcp_hs_io,
		.conn = &hs_conn,
	};
	struct socket *sock;
	int ret;

	ret = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (ret)
		return ret;
	/* kernel_connect() waits for up to the send timeout. */
	WRITE_ONCE(sock->sk->sk_sndtimeo, PCN_TCP_HANDSHAKE_TIMEOUT);
	atomic_inc(&peer->dials);
	/* Our listed address: the peer checks it. */
	ret = kernel_bind(sock, (struct sockaddr *)&local, sizeof(local));
	if (!ret)
		ret = kernel_connect(sock, (struct sockaddr *)&sin, sizeof(sin), 0);
	if (ret)
		goto out_release;

	pcn_node_event(peer->nid, PCN_PEER_EV_CONNECT, 0);
	hs_conn.sock = sock;
	hs_conn.deadline = jiffies + PCN_TCP_ANSWER_TIMEOUT;
	ret = pcn_handshake_dial(&hs);
	if (ret) {
		pcn_tcp_count(PCN_TCP_REFUSED_HANDSHAKE);
		pcn_node_event(peer->nid, PCN_PEER_EV_HANDSHAKE_FAIL, 0);
		pr_warn_ratelimited("handshake with node %d failed (%d)\n",
				    peer->nid, ret);
		goto out_release;
	}
	pcn_tcp_count(PCN_TCP_CONNECTS);
	ret = pcn_tcp_attach(peer, sock, hs.arch);
	if (ret) {
		pcn_node_event(peer->nid, PCN_PEER_EV_HANDSHAKE_FAIL, 0);
		goto out_release;
	}
	WRITE_ONCE(peer->last_error, 0);
	return 0;

out_release:
	WRITE_ONCE(peer->last_error, ret);
	sock_release(sock);
	return ret;
}

/**
 * pcn_tcp_connect() - the ->connect op: dial a node with a lower id once
 * @nid: the node
 *
 * The core's dialer thread (kernel/popcorn/kmsg_dial.c) calls it and
 * retries with backoff.
 *
 * Return: 0 once the node is online over the new connection; -EBUSY
 * while its previous connection is still being released, or the error
 * of the connect or the handshake.
 */
int pcn_tcp_connect(int nid)
{
	struct pcn_tcp_peer *peer = &pcn_tcp_peers[nid];

	/* The node goes offline before its receive thread lets go. */
	if (!wait_event_timeout(peer->wq, !READ_ONCE(peer->sock),
				PCN_TCP_HANDSHAKE_TIMEOUT))
		return -EBUSY;
	return pcn_tcp_dial(peer);
}
