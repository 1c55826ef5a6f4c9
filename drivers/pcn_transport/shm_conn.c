// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport: connections.
 *
 * A connection between two nodes is a session: a random number that the
 * dialer (the higher id, from the core's dialer thread) writes into its
 * lines of both rings of the pair, with the listener's boot id, after
 * resetting its own index in each.  The listener's poll thread sees the
 * new session, and a work item resets the listener's indices and writes
 * the session into its lines too.  Each end uses a ring only while the
 * other end's line shows the session: the producer then knows the
 * consumer reset its tail, and the consumer that the producer reset its
 * head.  Both then run the core's handshake (include/popcorn/auth.h)
 * over the rings as byte streams; after it, messages go in records.
 *
 * A connection ends when one end clears its lines (it lost the peer, or
 * was told to disconnect); the other end sees it, as it sees the peer's
 * heartbeat stop or its boot id change (shm_layout.c), and ends its
 * side.  Loss is handled in a work item: reporting a node offline runs
 * the servers' notifiers, which must not run in the poll thread that
 * their own requests' answers need, nor in a sender.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include <linux/random.h>

#include "shm.h"

/*
 * Reset this node's indices and lines of both rings of @peer for
 * session @s.  The poll thread does not read ->in meanwhile (rx_lock).
 */
static void pcn_shm_rings_open(struct pcn_shm_peer *peer, u32 s)
{
	mutex_lock(&peer->rx_lock);
	peer->out.pos = 0;
	peer->out.seq = 0;
	peer->in.pos = 0;
	peer->in.seq = 0;
	mutex_unlock(&peer->rx_lock);

	WRITE_ONCE(peer->out.ctl->head, 0);
	WRITE_ONCE(peer->out.ctl->target_boot, peer->peer_boot);
	/* The session last: pairs with the acquire of pcn_shm_joined(). */
	virt_store_release(&peer->out.ctl->session, s);
	WRITE_ONCE(peer->in.ctl->tail, 0);
	/* Pairs with the producer's acquire in pcn_shm_joined(): tail 0. */
	virt_store_release(&peer->in.ctl->session_ack, s);
}

/* Clear this node's lines: the peer sees the connection end. */
static void pcn_shm_rings_close(struct pcn_shm_peer *peer)
{
	WRITE_ONCE(peer->out.ctl->session, 0);
	WRITE_ONCE(peer->in.ctl->session_ack, 0);
}

/* The peer's lines show session @s, set for this boot of this node. */
static bool pcn_shm_joined(struct pcn_shm_peer *peer, u32 s)
{
	/* Acquire: the peer's reset index is seen with its session. */
	return virt_load_acquire(&peer->in.ctl->session) == s &&
	       READ_ONCE(peer->in.ctl->target_boot) == pcn_shm.boot_id &&
	       /* as above, for the peer's tail */
	       virt_load_acquire(&peer->out.ctl->session_ack) == s;
}

/**
 * pcn_shm_peer_left() - whether @peer's lines no longer show @session
 * @peer: the peer
 * @session: the session this node is in
 *
 * Then the peer reset its indices for another session (or none): an
 * index of the old session's that looks impossible is no broken ring.
 */
bool pcn_shm_peer_left(struct pcn_shm_peer *peer, u32 session)
{
	return READ_ONCE(peer->in.ctl->session) != session ||
	       READ_ONCE(peer->out.ctl->session_ack) != session;
}

/* The handshake's view of a connection being set up. */
struct pcn_shm_hs_conn {
	struct pcn_shm_peer *peer;
	u32 session;
	unsigned long deadline;
};

static int pcn_shm_hs_send(void *conn, const void *buf, size_t len)
{
	struct pcn_shm_hs_conn *c = conn;
	struct pcn_shm_peer *peer = c->peer;
	int ret;

	if (!pcn_shm_joined(peer, c->session))
		return -ECONNRESET;
	ret = pcn_shm_wait_room(peer, len, c->deadline);
	if (ret)
		return ret;
	pcn_shm_ring_write(&peer->out, buf, len);
	pcn_shm_ring_publish(&peer->out);
	return 0;
}

static int pcn_shm_hs_recv(void *conn, void *buf, size_t len)
{
	struct pcn_shm_hs_conn *c = conn;
	struct pcn_shm_peer *peer = c->peer;
	long avail;

	for (;;) {
		avail = pcn_shm_ring_avail(&peer->in);
		if (avail < 0)
			return avail;
		if (avail >= len)
			break;
		if (!pcn_shm_joined(peer, c->session))
			return -ECONNRESET;
		if (time_after(jiffies, c->deadline))
			return -ETIMEDOUT;
		usleep_range(50, 200);
	}
	pcn_shm_ring_read(&peer->in, 0, buf, len);
	pcn_shm_ring_consume(&peer->in, len);
	return 0;
}

const struct pcn_handshake_io pcn_shm_hs_io = {
	.send = pcn_shm_hs_send,
	.recv = pcn_shm_hs_recv,
};

/* Start a session with @peer: HANDSHAKE, both rings reset. */
static int pcn_shm_begin(struct pcn_shm_peer *peer, u32 s)
{
	mutex_lock(&peer->conn_lock);
	if (peer->state != PCN_SHM_DOWN) {
		mutex_unlock(&peer->conn_lock);
		return -EBUSY;
	}
	peer->session = s;
	peer->peer_boot = pcn_shm_slot_boot(peer->slot);
	peer->state = PCN_SHM_HANDSHAKE;
	pcn_shm_rings_open(peer, s);
	mutex_unlock(&peer->conn_lock);
	return 0;
}

/* A session that did not come up: back to DOWN. */
static void pcn_shm_abort(struct pcn_shm_peer *peer, int err)
{
	mutex_lock(&peer->conn_lock);
	pcn_shm_rings_close(peer);
	peer->state = PCN_SHM_DOWN;
	WRITE_ONCE(peer->last_error, err);
	mutex_unlock(&peer->conn_lock);
	wake_up(&peer->wq);
}

/*
 * Handshake done: senders may use the rings, the node is online, then
 * the poll thread reads (so nothing is received from an offline node).
 */
static int pcn_shm_attach(struct pcn_shm_peer *peer, int arch)
{
	mutex_lock(&peer->conn_lock);
	/* The header went bad during the handshake: no connection. */
	if (!READ_ONCE(pcn_shm.layout_ok)) {
		mutex_unlock(&peer->conn_lock);
		return -EIO;
	}
	mutex_lock(&peer->send_lock);
	peer->state = PCN_SHM_UP;
	mutex_unlock(&peer->send_lock);
	if (pcn_node_event(peer->nid, PCN_PEER_EV_HANDSHAKE_OK, arch)) {
		mutex_lock(&peer->send_lock);
		peer->state = PCN_SHM_HANDSHAKE;
		mutex_unlock(&peer->send_lock);
		mutex_unlock(&peer->conn_lock);
		return -EPROTO;
	}
	WRITE_ONCE(peer->rx_on, true);
	WRITE_ONCE(peer->last_error, 0);
	mutex_unlock(&peer->conn_lock);
	pcn_shm_poll_kick();
	return 0;
}

/**
 * pcn_shm_connect() - the ->connect op: open a session with a node of a
 *	lower id and run the handshake over it, once
 * @nid: the node
 *
 * Return: 0 once the node is online; -EIO while the layout header is
 * bad, -EBUSY while the previous connection is being released,
 * -EHOSTUNREACH while the node's heartbeat is not seen, or the error of
 * the handshake.
 */
int pcn_shm_connect(int nid)
{
	struct pcn_shm_peer *peer = &pcn_shm_peers[nid];
	struct pcn_shm_hs_conn hs_conn = { .peer = peer };
	struct pcn_handshake hs = {
		.peer = nid,
		.io = &pcn_shm_hs_io,
		.conn = &hs_conn,
	};
	u32 s;
	int ret;

	if (!READ_ONCE(pcn_shm.layout_ok))
		return -EIO;
	if (!wait_event_timeout(peer->wq,
				READ_ONCE(peer->state) == PCN_SHM_DOWN,
				PCN_SHM_HANDSHAKE_TIMEOUT))
		return -EBUSY;
	if (!pcn_shm_peer_alive(peer))
		return -EHOSTUNREACH;

	do {
		s = get_random_u32();
	} while (!s || s == peer->session);
	ret = pcn_shm_begin(peer, s);
	if (ret)
		return ret;
	atomic_inc(&peer->dials);
	pcn_node_event(nid, PCN_PEER_EV_CONNECT, 0);

	hs_conn.session = s;
	hs_conn.deadline = jiffies + PCN_SHM_ANSWER_TIMEOUT;
	/* Until the peer joins, its deadline, or it boots again. */
	while (!pcn_shm_joined(peer, s) &&
	       time_before(jiffies, hs_conn.deadline) &&
	       pcn_shm_slot_boot(peer->slot) == peer->peer_boot)
		usleep_range(100, 300);
	ret = pcn_shm_joined(peer, s) ? pcn_handshake_dial(&hs) : -ETIMEDOUT;
	if (ret) {
		pcn_shm_count(PCN_SHM_REFUSED_HANDSHAKE);
		pcn_node_event(nid, PCN_PEER_EV_HANDSHAKE_FAIL, 0);
		pr_warn_ratelimited("handshake with node %d failed (%d)\n",
				    nid, ret);
		pcn_shm_abort(peer, ret);
		return ret;
	}
	ret = pcn_shm_attach(peer, hs.arch);
	if (ret) {
		pcn_node_event(nid, PCN_PEER_EV_HANDSHAKE_FAIL, 0);
		pcn_shm_abort(peer, ret);
		return ret;
	}
	pcn_shm_count(PCN_SHM_CONNECTS);
	return 0;
}

/*
 * Poll thread: a node of a higher id asks for a new session (one not
 * seen yet, made for this boot of this node): accept it in a work item.
 */
void pcn_shm_check_requests(void)
{
	int nid;

	if (!READ_ONCE(pcn_shm.layout_ok))
		return;
	for (nid = pcn_my_nid() + 1; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];
		/* Acquire: target_boot was written before the session. */
		u32 s = virt_load_acquire(&peer->in.ctl->session);

		if (!s || s == peer->seen_session ||
		    READ_ONCE(peer->in.ctl->target_boot) != pcn_shm.boot_id)
			continue;
		WRITE_ONCE(peer->seen_session, s);
		queue_work(system_unbound_wq, &peer->accept_work);
	}
}

/* Listener side: join the session the dialer asked for, then handshake. */
void pcn_shm_accept_work(struct work_struct *work)
{
	struct pcn_shm_peer *peer = container_of(work, struct pcn_shm_peer,
						 accept_work);
	struct pcn_shm_hs_conn hs_conn = { .peer = peer };
	struct pcn_handshake hs = {
		.peer = peer->nid,
		.io = &pcn_shm_hs_io,
		.conn = &hs_conn,
	};
	u32 s = READ_ONCE(peer->seen_session);
	int ret;

	/*
	 * A new session of a connected peer: it restarted its side.  Both
	 * rings are shared by every session of the pair, so the old one
	 * ends first.
	 */
	if (READ_ONCE(peer->state) == PCN_SHM_UP) {
		WRITE_ONCE(peer->lost_why, PCN_SHM_LOST_BY_PEER);
		WRITE_ONCE(peer->lost_session, READ_ONCE(peer->session));
		pcn_shm_lost_work(&peer->lost_work);
	}
	ret = pcn_shm_begin(peer, s);
	if (ret) {
		pr_warn_ratelimited("node %d asked for a session while its last one was being set up\n",
				    peer->nid);
		return;
	}
	hs_conn.session = s;
	hs_conn.deadline = jiffies + PCN_SHM_HANDSHAKE_TIMEOUT;
	ret = pcn_handshake_answer(&hs);
	if (ret) {
		pcn_shm_count(PCN_SHM_REFUSED_HANDSHAKE);
		pcn_kmsg_count_drop(PCN_DROP_HANDSHAKE);
		pr_warn_ratelimited("refused session of node %d: handshake failed (%d)\n",
				    peer->nid, ret);
		pcn_shm_abort(peer, ret);
		return;
	}
	ret = pcn_node_event(peer->nid, PCN_PEER_EV_CONNECT, 0);
	if (ret) {
		/* Not offline yet: the dialer tries again. */
		pcn_handshake_accept(&hs, -EBUSY);
		pcn_shm_abort(peer, ret);
		return;
	}
	ret = pcn_handshake_accept(&hs, 0);
	if (!ret)
		ret = pcn_shm_attach(peer, hs.arch);
	if (ret) {
		pcn_node_event(peer->nid, PCN_PEER_EV_HANDSHAKE_FAIL, 0);
		pr_warn_ratelimited("handshake with node %d failed (%d)\n",
				    peer->nid, ret);
		pcn_shm_abort(peer, ret);
		return;
	}
	pcn_shm_count(PCN_SHM_ACCEPTS);
}

static const char *pcn_shm_why(int why)
{
	switch (why) {
	case PCN_SHM_LOST_HEARTBEAT:
		return "its heartbeat stopped";
	case PCN_SHM_LOST_REBOOT:
		return "it booted again";
	case PCN_SHM_LOST_BY_PEER:
		return "it ended the session";
	case PCN_SHM_LOST_LAYOUT:
		return "the layout header is bad";
	case PCN_SHM_FRAME_ERRORS:
		return "its ring is broken";
	case PCN_SHM_SEND_ERRORS:
		return "a send to it failed";
	default:
		return "disconnected";
	}
}

/*
 * End @peer's connection, if it is up: senders leave their waits, the
 * poll thread stops reading, the lines are cleared, the node goes
 * offline.  Process context; not in the poll thread nor in a sender.
 */
void pcn_shm_lost_work(struct work_struct *work)
{
	struct pcn_shm_peer *peer = container_of(work, struct pcn_shm_peer,
						 lost_work);
	int why = READ_ONCE(peer->lost_why);

	mutex_lock(&peer->conn_lock);
	/* Up, and still the session the loss was found in. */
	if (peer->state != PCN_SHM_UP ||
	    peer->session != READ_ONCE(peer->lost_session)) {
		mutex_unlock(&peer->conn_lock);
		return;
	}
	WRITE_ONCE(peer->rx_on, false);
	WRITE_ONCE(peer->dying, true);
	mutex_lock(&peer->send_lock);
	peer->state = PCN_SHM_DOWN;
	pcn_shm_rings_close(peer);
	WRITE_ONCE(peer->dying, false);
	mutex_unlock(&peer->send_lock);

	/* The other causes were counted where they were found. */
	if (why >= PCN_SHM_LOST_HEARTBEAT && why <= PCN_SHM_LOST_LAYOUT)
		pcn_shm_count(why);
	pr_info("connection with node %d ended: %s\n", peer->nid,
		pcn_shm_why(why));
	/*
	 * Offline before conn_lock is released: a new session of the
	 * peer (accept_work) must not report its CONNECT while the node
	 * is still online.  The notifiers do not take conn_lock.
	 */
	pcn_node_event(peer->nid, PCN_PEER_EV_DISCONNECT, 0);
	mutex_unlock(&peer->conn_lock);
	wake_up(&peer->wq);
}

/**
 * pcn_shm_drop() - end @peer's connection, asynchronously
 * @peer: the peer
 * @why: the counter of the cause (its log line says it)
 * @session: the session the cause was found in: a later one stays
 */
void pcn_shm_drop(struct pcn_shm_peer *peer, enum pcn_shm_counter why,
		  u32 session)
{
	if (READ_ONCE(peer->state) != PCN_SHM_UP)
		return;
	WRITE_ONCE(peer->lost_why, why);
	WRITE_ONCE(peer->lost_session, session);
	queue_work(system_unbound_wq, &peer->lost_work);
}

/* ->disconnect */
void pcn_shm_disconnect(int nid)
{
	struct pcn_shm_peer *peer;

	if (!pcn_nid_valid(nid) || nid == pcn_my_nid())
		return;
	peer = &pcn_shm_peers[nid];
	pcn_shm_drop(peer, PCN_SHM_NR_COUNTERS, READ_ONCE(peer->session));
}
