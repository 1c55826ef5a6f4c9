// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: connecting.  As with TCP, the node with the
 * higher id dials the lower one, from the core's dialer thread, which
 * retries with backoff until the peer (and the local RDMA device) is
 * up; both ends then run the core's handshake over SEND messages.  Each
 * connection manager step is waited for here, in the dialer's thread,
 * with a time limit.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

static int pcn_rdma_hs_send(void *hs_conn, const void *buf, size_t len)
{
	struct pcn_rdma_hs_conn *c = hs_conn;

	return pcn_rdma_post_send(c->conn, buf, len, NULL, 0, c->deadline);
}

const struct pcn_handshake_io pcn_rdma_hs_io = {
	.send = pcn_rdma_hs_send,
	.recv = pcn_rdma_hs_recv,
};

/* Wait for the event that ends the connection manager step begun. */
static int pcn_rdma_cm_wait(struct pcn_rdma_conn *conn, int ret)
{
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&conn->cm_done,
					 msecs_to_jiffies(PCN_RDMA_CM_TIMEOUT_MS) + HZ))
		return -ETIMEDOUT;
	if (pcn_rdma_conn_dead(conn))
		return conn->cm_status ? conn->cm_status : -ECONNRESET;
	return conn->cm_status;
}

static int pcn_rdma_dial_conn(struct pcn_rdma_conn *conn)
{
	struct pcn_rdma_peer *peer = conn->peer;
	struct sockaddr_in src = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = pcn_ipv4_node_addr(pcn_my_nid()),
	};
	struct sockaddr_in dst = {
		.sin_family = AF_INET,
		.sin_port = htons(PCN_RDMA_PORT),
		.sin_addr.s_addr = pcn_ipv4_node_addr(peer->nid),
	};
	struct pcn_rdma_cm_priv priv = {
		.magic = cpu_to_le32(PCN_RDMA_CM_MAGIC),
		.nid = cpu_to_le16(pcn_my_nid()),
	};
	struct rdma_conn_param param = {
		.private_data = &priv,
		.private_data_len = sizeof(priv),
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = PCN_RDMA_RETRY_COUNT,
		/* Credits keep a receive posted for every send. */
		.rnr_retry_count = PCN_RDMA_RETRY_COUNT,
	};
	struct pcn_rdma_hs_conn hs_conn = { .conn = conn };
	struct pcn_handshake hs = {
		.peer = peer->nid,
		.io = &pcn_rdma_hs_io,
		.conn = &hs_conn,
	};
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, pcn_rdma_cm_handler, conn, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	conn->cm_id = id;
	ret = rdma_set_ack_timeout(id, PCN_RDMA_ACK_TIMEOUT);
	if (ret)
		return ret;
	atomic_inc(&peer->dials);

	/* Fails at once while no RDMA device has our address yet. */
	ret = rdma_resolve_addr(id, (struct sockaddr *)&src,
				(struct sockaddr *)&dst, PCN_RDMA_CM_TIMEOUT_MS);
	ret = pcn_rdma_cm_wait(conn, ret);
	if (ret)
		return ret;
	reinit_completion(&conn->cm_done);
	ret = rdma_resolve_route(id, PCN_RDMA_CM_TIMEOUT_MS);
	ret = pcn_rdma_cm_wait(conn, ret);
	if (ret)
		return ret;
	ret = pcn_rdma_conn_setup(conn);
	if (ret)
		return ret;
	reinit_completion(&conn->cm_done);
	ret = rdma_connect(id, &param);
	ret = pcn_rdma_cm_wait(conn, ret);
	if (ret)
		return ret;

	pcn_rdma_node_event(peer, PCN_PEER_EV_CONNECT);
	hs_conn.deadline = jiffies + PCN_RDMA_ANSWER_TIMEOUT;
	ret = pcn_handshake_dial(&hs);
	if (ret) {
		pcn_rdma_count(PCN_RDMA_REFUSED_HANDSHAKE);
		pcn_rdma_node_event(peer, PCN_PEER_EV_HANDSHAKE_FAIL);
		pr_warn_ratelimited("handshake with node %d failed (%d)\n",
				    peer->nid, ret);
		return ret;
	}
	mutex_lock(&peer->attach_lock);
	ret = pcn_rdma_attach(conn, hs.arch);
	mutex_unlock(&peer->attach_lock);
	if (ret) {
		pcn_rdma_node_event(peer, PCN_PEER_EV_HANDSHAKE_FAIL);
		return ret;
	}
	pcn_rdma_count(PCN_RDMA_CONNECTS);
	return 0;
}

static int pcn_rdma_dial(struct pcn_rdma_peer *peer)
{
	struct pcn_rdma_conn *conn = pcn_rdma_conn_alloc(peer);
	int ret;

	if (!conn)
		return -ENOMEM;
	conn->dialer = true;
	kref_get(&conn->ref);		/* ours, while we dial */
	ret = pcn_rdma_dial_conn(conn);
	if (ret) {
		pcn_rdma_linger(conn);
		pcn_rdma_conn_lost(conn, "dial failed");
	}
	WRITE_ONCE(peer->last_error, ret);
	pcn_rdma_conn_put(conn);
	return ret;
}

/**
 * pcn_rdma_connect() - the ->connect op: dial a node with a lower id once
 * @nid: the node
 *
 * The core's dialer thread (kernel/popcorn/kmsg_dial.c) calls it and
 * retries with backoff, also while no RDMA device holds our address.
 *
 * Return: 0 once the node is online over the new connection; -EBUSY
 * while its previous connection is still being detached, or the error
 * of a connection manager step or of the handshake.
 */
int pcn_rdma_connect(int nid)
{
	struct pcn_rdma_peer *peer = &pcn_rdma_peers[nid];

	/* The node goes offline just before its connection is detached. */
	if (!wait_event_timeout(peer->wq, !READ_ONCE(peer->conn),
				PCN_RDMA_HANDSHAKE_TIMEOUT))
		return -EBUSY;
	return pcn_rdma_dial(peer);
}
