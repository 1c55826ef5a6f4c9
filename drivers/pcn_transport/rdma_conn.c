// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: a connection's resources and lifetime.
 *
 * A connection holds a reference for as long as it is alive; its loss
 * (pcn_rdma_conn_lost(), once, from any context) detaches it from its
 * peer, reports the node offline and drops that reference.  Senders,
 * the handshake and the dialer hold references of their own while they
 * use it.  The last one queues the teardown: the QP is drained first, so
 * every buffer posted to it has completed before it is freed.
 *
 * Locks of a peer: attach_lock serialises attaching connections (held
 * while an old connection is dropped for a new one); event_lock orders
 * the membership events of the peer's connections (never held while
 * waiting for the network); the spinlock guards ->conn for senders.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

static void pcn_rdma_lost_work(struct work_struct *work);
static void pcn_rdma_free_work(struct work_struct *work);

struct pcn_rdma_conn *pcn_rdma_conn_alloc(struct pcn_rdma_peer *peer)
{
	struct pcn_rdma_conn *conn = kzalloc(sizeof(*conn), GFP_KERNEL);

	if (!conn)
		return NULL;
	kref_init(&conn->ref);
	conn->peer = peer;
	init_completion(&conn->cm_done);
	atomic_set(&conn->credits, PCN_RDMA_RX_DEPTH);
	init_waitqueue_head(&conn->credit_wq);
	spin_lock_init(&conn->rx_lock);
	spin_lock_init(&conn->place_lock);
	INIT_LIST_HEAD(&conn->deferred_places);
	conn->rx_mode = PCN_RDMA_RX_HANDSHAKE;
	INIT_LIST_HEAD(&conn->hs_queue);
	init_waitqueue_head(&conn->hs_wq);
	INIT_DELAYED_WORK(&conn->keepalive, pcn_rdma_keepalive);
	INIT_WORK(&conn->lost_work, pcn_rdma_lost_work);
	INIT_WORK(&conn->free_work, pcn_rdma_free_work);
	return conn;
}

static void pcn_rdma_qp_event(struct ib_event *ev, void *context)
{
	struct pcn_rdma_conn *conn = context;

	switch (ev->event) {
	case IB_EVENT_COMM_EST:
	case IB_EVENT_SQ_DRAINED:
	case IB_EVENT_QP_LAST_WQE_REACHED:
		break;
	default:
		pcn_rdma_count(PCN_RDMA_QP_ERRORS);
		pcn_rdma_conn_lost(conn, ib_event_msg(ev->event));
	}
}

/*
 * Protection domain, completion queue, queue pair and posted receive
 * buffers, on the device the connection manager chose for the peer.
 * Completions run on a workqueue: receiving may allocate and sleep.
 */
int pcn_rdma_conn_setup(struct pcn_rdma_conn *conn)
{
	struct ib_device *dev = conn->cm_id->device;
	struct ib_qp_init_attr attr = {
		.event_handler = pcn_rdma_qp_event,
		.qp_context = conn,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
		.cap = {
			/* One more each for ib_drain_qp(). */
			.max_send_wr = PCN_RDMA_SQ_DEPTH + 1,
			.max_recv_wr = PCN_RDMA_RX_DEPTH + 1,
			/* The front part, then the pages, gathered. */
			.max_send_sge = 1 + PCN_KMSG_MAX_PAGES,
			.max_recv_sge = 1,
		},
	};
	int ret;

	conn->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(conn->pd)) {
		ret = PTR_ERR(conn->pd);
		conn->pd = NULL;
		return ret;
	}
	conn->cq = ib_alloc_cq(dev, conn,
			       PCN_RDMA_SQ_DEPTH + PCN_RDMA_RX_DEPTH + 2, 0,
			       IB_POLL_WORKQUEUE);
	if (IS_ERR(conn->cq)) {
		ret = PTR_ERR(conn->cq);
		conn->cq = NULL;
		return ret;
	}
	attr.send_cq = conn->cq;
	attr.recv_cq = conn->cq;
	ret = rdma_create_qp(conn->cm_id, conn->pd, &attr);
	if (ret)
		return ret;
	conn->qp = conn->cm_id->qp;
	pcn_rdma_place_setup(conn);
	return pcn_rdma_rx_init(conn);
}

struct pcn_rdma_conn *pcn_rdma_conn_get_attached(struct pcn_rdma_peer *peer)
{
	struct pcn_rdma_conn *conn;

	spin_lock(&peer->lock);
	conn = peer->conn;
	if (conn)
		kref_get(&conn->ref);
	spin_unlock(&peer->lock);
	return conn;
}

static void pcn_rdma_conn_release(struct kref *ref)
{
	struct pcn_rdma_conn *conn = container_of(ref, struct pcn_rdma_conn,
						  ref);

	/* Draining waits for completions: not in a completion handler. */
	queue_work(pcn_rdma_wq, &conn->free_work);
}

void pcn_rdma_conn_put(struct pcn_rdma_conn *conn)
{
	kref_put(&conn->ref, pcn_rdma_conn_release);
}

/**
 * pcn_rdma_conn_lost() - end a connection
 * @conn: the connection
 * @why: for the log
 *
 * Any context; the first call wins.  Wakes whoever waits on the
 * connection and leaves the rest to process context.
 */
void pcn_rdma_conn_lost(struct pcn_rdma_conn *conn, const char *why)
{
	if (test_and_set_bit(PCN_RDMA_CONN_DEAD, &conn->flags))
		return;
	if (conn->online)
		pr_info_ratelimited("node %d: connection lost (%s)\n",
				    conn->peer->nid, why);
	wake_up_all(&conn->credit_wq);
	wake_up_all(&conn->hs_wq);
	complete(&conn->cm_done);
	kref_get(&conn->ref);
	queue_work(pcn_rdma_wq, &conn->lost_work);
}

static void pcn_rdma_lost_work(struct work_struct *work)
{
	struct pcn_rdma_conn *conn = container_of(work, struct pcn_rdma_conn,
						  lost_work);
	struct ib_qp_attr err_attr = { .qp_state = IB_QPS_ERR };
	struct pcn_rdma_peer *peer = conn->peer;

	/*
	 * Offline first, then detached: whoever waits for ->conn == NULL
	 * (a dialer, a replacing connection) may start the next
	 * connection's events at once.
	 */
	mutex_lock(&peer->event_lock);
	if (conn->online) {
		conn->online = false;
		pcn_rdma_count(PCN_RDMA_DISCONNECTS);
		pcn_node_event(peer->nid, PCN_PEER_EV_DISCONNECT, 0);
	}
	spin_lock(&peer->lock);
	if (peer->conn == conn)
		peer->conn = NULL;
	spin_unlock(&peer->lock);
	mutex_unlock(&peer->event_lock);
	/* The peer sees it at once; the QP flushes what is posted. */
	if (conn->cm_id)
		rdma_disconnect(conn->cm_id);
	/*
	 * In the error state, the QP takes no more RDMA WRITEs: only then
	 * may registrations be let go without invalidating them.
	 */
	if (!conn->qp || !ib_modify_qp(conn->qp, &err_attr, IB_QP_STATE))
		pcn_rdma_place_close(conn);
	else
		pr_err("node %d: QP not in the error state, its registrations are kept\n",
		       peer->nid);
	wake_up_all(&peer->wq);
	pcn_rdma_conn_put(conn);	/* the connection's own */
	pcn_rdma_conn_put(conn);	/* this work's */
}

static void pcn_rdma_free_work(struct work_struct *work)
{
	struct pcn_rdma_conn *conn = container_of(work, struct pcn_rdma_conn,
						  free_work);

	cancel_delayed_work_sync(&conn->keepalive);
	if (conn->qp) {
		/* Every posted send and receive completes (flushed). */
		ib_drain_qp(conn->qp);
		rdma_destroy_qp(conn->cm_id);
	}
	pcn_rdma_rx_free_all(conn);
	pcn_rdma_place_free(conn);
	if (conn->cq)
		ib_free_cq(conn->cq);
	if (conn->pd)
		ib_dealloc_pd(conn->pd);
	/* Waits for a running event handler of the id. */
	if (conn->cm_id)
		rdma_destroy_id(conn->cm_id);
	pcn_rdma_handshake_done(conn);
	kfree(conn);
}

/*
 * Handshake done: make @conn the peer's connection, report the node
 * online, then pass what arrived meanwhile and all that follows to the
 * messaging core.  The caller holds the peer's attach_lock.
 */
int pcn_rdma_attach(struct pcn_rdma_conn *conn, int arch)
{
	struct pcn_rdma_peer *peer = conn->peer;

	mutex_lock(&peer->event_lock);
	if (pcn_rdma_conn_dead(conn)) {
		mutex_unlock(&peer->event_lock);
		return -ECONNRESET;
	}
	/* Refused when the peer is not in its handshake (a stale event). */
	if (pcn_node_event(peer->nid, PCN_PEER_EV_HANDSHAKE_OK, arch)) {
		mutex_unlock(&peer->event_lock);
		return -ECONNRESET;
	}
	conn->online = true;
	spin_lock(&peer->lock);
	peer->conn = conn;
	spin_unlock(&peer->lock);
	mutex_unlock(&peer->event_lock);

	pcn_rdma_rx_deliver_queued(conn);
	WRITE_ONCE(conn->last_send, jiffies);
	queue_delayed_work(pcn_rdma_wq, &conn->keepalive,
			   PCN_RDMA_KEEPALIVE);
	return 0;
}

/* A membership event of a connection that is not attached (yet). */
void pcn_rdma_node_event(struct pcn_rdma_peer *peer, enum pcn_peer_event ev)
{
	mutex_lock(&peer->event_lock);
	pcn_node_event(peer->nid, ev, 0);
	mutex_unlock(&peer->event_lock);
}

/* End the peer's attached connection and wait until it is detached. */
int pcn_rdma_drop_attached(struct pcn_rdma_peer *peer)
{
	struct pcn_rdma_conn *conn = pcn_rdma_conn_get_attached(peer);

	if (!conn)
		return 0;
	pcn_rdma_conn_lost(conn, "replaced by a new connection");
	pcn_rdma_conn_put(conn);
	if (!wait_event_timeout(peer->wq, !READ_ONCE(peer->conn),
				PCN_RDMA_HANDSHAKE_TIMEOUT))
		return -ETIMEDOUT;
	return 0;
}

/* Connection manager events of every id of ours (process context). */
int pcn_rdma_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct pcn_rdma_conn *conn = id->context;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return pcn_rdma_connect_request(id, ev);
	if (!conn)
		return 0;	/* the listener's own id */

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		conn->cm_status = 0;
		complete(&conn->cm_done);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		conn->cm_status = 0;
		if (conn->dialer)
			complete(&conn->cm_done);
		else
			pcn_rdma_established(conn);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		conn->cm_status = ev->status < 0 ? ev->status : -EHOSTUNREACH;
		complete(&conn->cm_done);
		pcn_rdma_conn_lost(conn, rdma_event_msg(ev->event));
		break;
	case RDMA_CM_EVENT_REJECTED:
		conn->cm_status = -ECONNREFUSED;
		complete(&conn->cm_done);
		pcn_rdma_conn_lost(conn, rdma_event_msg(ev->event));
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		conn->cm_status = -ECONNRESET;
		complete(&conn->cm_done);
		pcn_rdma_conn_lost(conn, rdma_event_msg(ev->event));
		break;
	default:
		break;
	}
	return 0;
}
