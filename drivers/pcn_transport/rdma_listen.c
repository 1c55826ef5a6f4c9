// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: listening.  One wildcard listener (it follows
 * RDMA devices created after it, such as init's rxe0).  A connection
 * request names its node in the private data; it is accepted only from
 * that node's address in pcn.nodes and only from a higher id, and then
 * runs the handshake in a thread of its own.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

static struct rdma_cm_id *pcn_rdma_listen_id;
/* Accepted connections whose handshake has not ended; woken at zero. */
static atomic_t pcn_rdma_handshakes;
static DECLARE_WAIT_QUEUE_HEAD(pcn_rdma_handshakes_wq);

void pcn_rdma_handshake_done(struct pcn_rdma_conn *conn)
{
	if (xchg(&conn->in_handshake, false) &&
	    atomic_dec_and_test(&pcn_rdma_handshakes))
		wake_up(&pcn_rdma_handshakes_wq);
}

static int pcn_rdma_refuse(struct rdma_cm_id *id, const char *why)
{
	pcn_rdma_count(PCN_RDMA_REFUSED);
	pcn_kmsg_count_drop(PCN_DROP_HANDSHAKE);
	pr_warn_ratelimited("refused connection request from %pISc: %s\n",
			    &id->route.addr.dst_addr, why);
	rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	return 1;	/* the connection manager destroys the id */
}

/*
 * A connection request (the event handler of the new id, under its
 * handler lock, so it may accept): check who it is, make the queue pair
 * with its receive buffers posted, accept.
 */
int pcn_rdma_connect_request(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	const struct pcn_rdma_cm_priv *priv = ev->param.conn.private_data;
	struct sockaddr_in *from = (struct sockaddr_in *)&id->route.addr.dst_addr;
	struct rdma_conn_param param = {
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = PCN_RDMA_RETRY_COUNT,
		.rnr_retry_count = PCN_RDMA_RETRY_COUNT,
	};
	struct pcn_rdma_conn *conn;
	int nid, ret;

	if (!priv || ev->param.conn.private_data_len < sizeof(*priv) ||
	    le32_to_cpu(priv->magic) != PCN_RDMA_CM_MAGIC)
		return pcn_rdma_refuse(id, "not a Popcorn request");
	nid = le16_to_cpu(priv->nid);
	if (from->sin_family != AF_INET ||
	    pcn_ipv4_node_by_addr(from->sin_addr.s_addr) != nid)
		return pcn_rdma_refuse(id, "not the address of the node it names");
	/* Only higher ids dial us. */
	if (nid <= pcn_my_nid())
		return pcn_rdma_refuse(id, "a lower node id");
	if (atomic_inc_return(&pcn_rdma_handshakes) > PCN_RDMA_MAX_HANDSHAKES) {
		atomic_dec(&pcn_rdma_handshakes);
		return pcn_rdma_refuse(id, "too many handshakes");
	}

	conn = pcn_rdma_conn_alloc(&pcn_rdma_peers[nid]);
	if (!conn) {
		if (atomic_dec_and_test(&pcn_rdma_handshakes))
			wake_up(&pcn_rdma_handshakes_wq);
		return pcn_rdma_refuse(id, "out of memory");
	}
	conn->in_handshake = true;
	conn->cm_id = id;
	id->context = conn;
	ret = rdma_set_ack_timeout(id, PCN_RDMA_ACK_TIMEOUT);
	if (!ret)
		ret = pcn_rdma_conn_setup(conn);
	if (!ret)
		ret = rdma_accept(id, &param);
	if (ret) {
		pr_warn_ratelimited("cannot accept node %d (%d)\n", nid, ret);
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		/* The teardown destroys the id, outside this handler. */
		pcn_rdma_conn_lost(conn, "accept failed");
	}
	return 0;
}

/*
 * Run node @conn->peer's handshake and attach the connection.  Only a
 * dialer that proved the key (when there is one) may replace the
 * connection the peer has: a peer that restarted.
 */
static int pcn_rdma_serve_thread(void *arg)
{
	struct pcn_rdma_conn *conn = arg;
	struct pcn_rdma_peer *peer = conn->peer;
	struct pcn_rdma_hs_conn hs_conn = {
		.conn = conn,
		.deadline = jiffies + PCN_RDMA_HANDSHAKE_TIMEOUT,
	};
	struct pcn_handshake hs = {
		.peer = peer->nid,
		.io = &pcn_rdma_hs_io,
		.conn = &hs_conn,
	};
	int ret;

	ret = pcn_handshake_answer(&hs);
	if (ret) {
		pcn_rdma_count(PCN_RDMA_REFUSED_HANDSHAKE);
		pcn_kmsg_count_drop(PCN_DROP_HANDSHAKE);
		pr_warn_ratelimited("refused connection from node %d: handshake failed (%d)\n",
				    peer->nid, ret);
		goto out_lost;
	}

	mutex_lock(&peer->attach_lock);
	if (pcn_rdma_conn_dead(conn)) {
		mutex_unlock(&peer->attach_lock);
		ret = -ECONNRESET;
		goto out_lost;
	}
	if (READ_ONCE(peer->conn) && pcn_rdma_drop_attached(peer)) {
		mutex_unlock(&peer->attach_lock);
		pr_warn_ratelimited("node %d reconnected, its old connection did not close\n",
				    peer->nid);
		ret = -EBUSY;
		goto out_lost;
	}
	pcn_rdma_node_event(peer, PCN_PEER_EV_CONNECT);
	hs_conn.deadline = jiffies + PCN_RDMA_HANDSHAKE_TIMEOUT;
	ret = pcn_handshake_accept(&hs, 0);
	if (!ret)
		ret = pcn_rdma_attach(conn, hs.arch);
	if (ret)
		pcn_rdma_node_event(peer, PCN_PEER_EV_HANDSHAKE_FAIL);
	mutex_unlock(&peer->attach_lock);
	if (ret) {
		pr_warn_ratelimited("handshake with node %d failed (%d)\n",
				    peer->nid, ret);
		goto out_lost;
	}
	pcn_rdma_count(PCN_RDMA_ACCEPTS);
	goto out;

out_lost:
	pcn_rdma_linger(conn);
	pcn_rdma_conn_lost(conn, "handshake failed");
out:
	pcn_rdma_handshake_done(conn);
	pcn_rdma_conn_put(conn);
	return 0;
}

/* The accepted connection is up: its handshake starts. */
void pcn_rdma_established(struct pcn_rdma_conn *conn)
{
	struct task_struct *t;

	/* Lost before the peer's RTU came: it is being freed. */
	if (pcn_rdma_conn_dead(conn) || !kref_get_unless_zero(&conn->ref))
		return;
	t = kthread_run(pcn_rdma_serve_thread, conn, "pcn_rdma_hs/%d",
			conn->peer->nid);
	if (IS_ERR(t)) {
		pcn_rdma_conn_lost(conn, "no handshake thread");
		pcn_rdma_conn_put(conn);
	}
}

int pcn_rdma_listen_start(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PCN_RDMA_PORT),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, pcn_rdma_cm_handler, NULL, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ret = rdma_bind_addr(id, (struct sockaddr *)&sin);
	if (!ret)
		ret = rdma_listen(id, POPCORN_MAX_NODES);
	if (ret) {
		pr_err("cannot listen on RDMA CM port %d (%d)\n", PCN_RDMA_PORT,
		       ret);
		rdma_destroy_id(id);
		return ret;
	}
	pcn_rdma_listen_id = id;
	return 0;
}

/* No new connections; those in their handshake end (by its deadline). */
void pcn_rdma_listen_stop(void)
{
	if (pcn_rdma_listen_id) {
		rdma_destroy_id(pcn_rdma_listen_id);
		pcn_rdma_listen_id = NULL;
	}
	wait_event(pcn_rdma_handshakes_wq, !atomic_read(&pcn_rdma_handshakes));
}
