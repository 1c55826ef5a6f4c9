// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport.
 *
 * One TCP connection per pair of nodes, on port PCN_TCP_PORT.  The node
 * with the higher id dials the lower one, retrying with backoff until
 * the peer is up, so nodes may boot in any order; the lower one accepts
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
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/in.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/seq_file.h>
#include <linux/tcp.h>
#include <linux/wait.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <popcorn/auth.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#define PCN_TCP_PORT			30467
#define PCN_TCP_HANDSHAKE_TIMEOUT	(3 * HZ)
/*
 * The dialer's wait for the answer also covers the time its connection
 * waits to be accepted, and the dialer has nothing else to do: longer.
 */
#define PCN_TCP_ANSWER_TIMEOUT		(10 * HZ)
#define PCN_TCP_SEND_TIMEOUT		10		/* seconds */
#define PCN_TCP_USER_TIMEOUT_MS		5000
#define PCN_TCP_RETRY_MIN_MS		100
#define PCN_TCP_RETRY_MAX_MS		2000
#define PCN_TCP_STABLE_TIME		(5 * HZ)
/* Accepted connections whose hello is awaited at once, at most. */
#define PCN_TCP_MAX_HANDSHAKES		(2 * POPCORN_MAX_NODES)

struct pcn_tcp_peer {
	int nid;
	/* Serialises senders; ->sock changes under it. */
	struct mutex send_lock;
	struct socket *sock;		/* NULL while not connected */
	wait_queue_head_t wq;		/* woken when ->sock is cleared */
	struct task_struct *dialer;	/* for peers with a lower id */
	/* Serialises accepted connections replacing ->sock. */
	struct mutex conn_lock;
	/*
	 * Accepted connections are numbered in the order they came (by the
	 * listener); one older than the attached one is stale (its dialer
	 * gave up on it) and must not replace it.  Under conn_lock.
	 */
	u64 accepted_seq;		/* listener only */
	u64 attached_seq;
	/* Diagnostics for /proc/popcorn_stat: dial attempts, last error. */
	atomic_t dials;
	int last_error;
};

static struct pcn_tcp_peer pcn_tcp_peers[POPCORN_MAX_NODES];
static struct socket *pcn_tcp_listen_sock;
/* Handshake threads of accepted connections; woken when one ends. */
static atomic_t pcn_tcp_handshakes;
static DECLARE_WAIT_QUEUE_HEAD(pcn_tcp_handshakes_wq);

enum pcn_tcp_counter {
	PCN_TCP_CONNECTS,		/* connections made (dialed) */
	PCN_TCP_ACCEPTS,		/* connections accepted */
	PCN_TCP_REFUSED_UNLISTED,	/* from an address not in pcn.nodes */
	PCN_TCP_REFUSED_HANDSHAKE,	/* bad hello, or wrong direction */
	PCN_TCP_FRAME_ERRORS,		/* impossible frame size */
	PCN_TCP_DISCONNECTS,
	PCN_TCP_SEND_ERRORS,
	PCN_TCP_REFUSED_STALE,		/* accepted after its dialer gave up */
	PCN_TCP_PAGES_SENT,		/* sent from their page (sendpage) */
	PCN_TCP_PAGES_RECEIVED,		/* received into their page */
	PCN_TCP_NR_COUNTERS
};

static const char * const pcn_tcp_counter_names[PCN_TCP_NR_COUNTERS] = {
	"tcp_connects", "tcp_accepts", "tcp_refused_unlisted",
	"tcp_refused_handshake", "tcp_frame_errors", "tcp_disconnects",
	"tcp_send_errors", "tcp_refused_stale", "tcp_pages_sent",
	"tcp_pages_received",
};

static atomic64_t pcn_tcp_counters[PCN_TCP_NR_COUNTERS];

static void pcn_tcp_count(enum pcn_tcp_counter c)
{
	atomic64_inc(&pcn_tcp_counters[c]);
}

/*
 * Time left until @deadline (in jiffies), for a socket timeout; 0 when
 * it has passed.  A deadline of 0 means none.
 */
static long pcn_tcp_time_left(unsigned long deadline)
{
	long left;

	if (!deadline)
		return MAX_SCHEDULE_TIMEOUT;
	left = (long)(deadline - jiffies);
	return left > 0 ? left : 0;
}

/*
 * Receive exactly @len bytes by @deadline (0: no deadline): 0, or
 * -errno (-ECONNRESET on EOF, -ETIMEDOUT past the deadline).  The
 * deadline covers the whole buffer, so a peer trickling bytes cannot
 * stretch it.
 */
static int pcn_tcp_recv_all(struct socket *sock, void *buf, size_t len,
			    unsigned long deadline)
{
	while (len) {
		struct kvec iov = { .iov_base = buf, .iov_len = len };
		struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
		long left = pcn_tcp_time_left(deadline);
		int n;

		if (!left)
			return -ETIMEDOUT;
		WRITE_ONCE(sock->sk->sk_rcvtimeo, left);
		n = kernel_recvmsg(sock, &msg, &iov, 1, len, MSG_WAITALL);
		if (n < 0)
			return n;
		if (n == 0)
			return -ECONNRESET;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Send exactly @len bytes by @deadline: 0, or -errno.  @more: more of
 * the message follows (page data), so TCP need not push a segment yet.
 */
static int pcn_tcp_send_all(struct socket *sock, const void *buf, size_t len,
			    bool more, unsigned long deadline)
{
	while (len) {
		struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
		struct msghdr msg = {
			.msg_flags = MSG_NOSIGNAL | (more ? MSG_MORE : 0),
		};
		long left = pcn_tcp_time_left(deadline);
		int n;

		if (!left)
			return -ETIMEDOUT;
		WRITE_ONCE(sock->sk->sk_sndtimeo, left);
		n = kernel_sendmsg(sock, &msg, &iov, 1, len);
		if (n < 0)
			return n;
		if (n == 0)
			return -EPIPE;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Send @page's data by reference by @deadline: TCP takes references and
 * sends from the page itself.  @more: more of the message follows.
 */
static int pcn_tcp_send_page(struct socket *sock, struct page *page,
			     bool more, unsigned long deadline)
{
	int flags = MSG_NOSIGNAL | (more ? MSG_MORE : 0);
	size_t off = 0;

	while (off < PAGE_SIZE) {
		long left = pcn_tcp_time_left(deadline);
		int n;

		if (!left)
			return -ETIMEDOUT;
		WRITE_ONCE(sock->sk->sk_sndtimeo, left);
		n = kernel_sendpage(sock, page, off, PAGE_SIZE - off, flags);
		if (n < 0)
			return n;
		if (n == 0)
			return -EPIPE;
		off += n;
	}
	pcn_tcp_count(PCN_TCP_PAGES_SENT);
	return 0;
}

/* Receive a page of data straight into @page (no deadline). */
static int pcn_tcp_recv_page(struct socket *sock, struct page *page)
{
	/* kmap_local: the mapping survives the sleeps of the receive. */
	void *kaddr = kmap_local_page(page);
	int ret = pcn_tcp_recv_all(sock, kaddr, PAGE_SIZE, 0);

	kunmap_local(kaddr);
	if (!ret)
		pcn_tcp_count(PCN_TCP_PAGES_RECEIVED);
	return ret;
}

/* The handshake's view of a connection being set up. */
struct pcn_tcp_hs_conn {
	struct socket *sock;
	unsigned long deadline;
};

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

static const struct pcn_handshake_io pcn_tcp_hs_io = {
	.send = pcn_tcp_hs_send,
	.recv = pcn_tcp_hs_recv,
};

/* A connection, owned by its receive thread. */
struct pcn_tcp_conn {
	struct pcn_tcp_peer *peer;
	struct socket *sock;
};

static void pcn_tcp_detach(struct pcn_tcp_peer *peer, struct socket *sock);

static int pcn_tcp_rx_thread(void *arg)
{
	struct pcn_tcp_conn *conn = arg;
	struct pcn_tcp_peer *peer = conn->peer;
	struct socket *sock = conn->sock;
	struct pcn_kmsg_hdr hdr, *msg;
	unsigned int i;
	int ret;

	kfree(conn);
	for (;;) {
		ret = pcn_tcp_recv_all(sock, &hdr, sizeof(hdr), 0);
		if (ret)
			break;
		if (hdr.size < sizeof(hdr) || hdr.size > PCN_KMSG_MAX_SIZE) {
			pcn_tcp_count(PCN_TCP_FRAME_ERRORS);
			pcn_kmsg_count_drop(PCN_DROP_FRAME);
			pr_warn_ratelimited("node %d sent a frame of %u bytes, dropping the connection\n",
					    peer->nid, hdr.size);
			break;
		}
		/* Page data, if any, goes straight into its pages. */
		msg = pcn_kmsg_rx_alloc(&hdr);
		if (!msg)
			break;	/* the peer reconnects and retries */
		ret = pcn_tcp_recv_all(sock, (void *)msg + sizeof(hdr),
				       pcn_kmsg_front_size(&hdr) - sizeof(hdr),
				       0);
		for (i = 0; !ret && i < pcn_kmsg_rx_npages(&hdr); i++)
			ret = pcn_tcp_recv_page(sock, pcn_kmsg_page(msg, i));
		if (ret) {
			pcn_kmsg_rx_free(msg);
			break;
		}
		pcn_kmsg_process(peer->nid, msg, hdr.size);
	}
	pcn_tcp_detach(peer, sock);
	return 0;
}

/*
 * Handshake done: make @sock the peer's connection, report the peer
 * online (before anything can be received on it), start reading.
 */
static int pcn_tcp_attach(struct pcn_tcp_peer *peer, struct socket *sock,
			  int arch)
{
	struct sock *sk = sock->sk;
	struct pcn_tcp_conn *conn;
	struct task_struct *rx;

	conn = kmalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		return -ENOMEM;
	conn->peer = peer;
	conn->sock = sock;

	sock_set_keepalive(sk);
	tcp_sock_set_keepidle(sk, 1);
	tcp_sock_set_keepintvl(sk, 1);
	tcp_sock_set_keepcnt(sk, 3);
	tcp_sock_set_user_timeout(sk, PCN_TCP_USER_TIMEOUT_MS);
	tcp_sock_set_nodelay(sk);

	mutex_lock(&peer->send_lock);
	peer->sock = sock;
	mutex_unlock(&peer->send_lock);
	pcn_node_event(peer->nid, PCN_PEER_EV_HANDSHAKE_OK, arch);

	rx = kthread_run(pcn_tcp_rx_thread, conn, "pcn_tcp_rx/%d", peer->nid);
	if (IS_ERR(rx)) {
		kfree(conn);
		pcn_node_event(peer->nid, PCN_PEER_EV_DISCONNECT, 0);
		mutex_lock(&peer->send_lock);
		peer->sock = NULL;
		mutex_unlock(&peer->send_lock);
		wake_up(&peer->wq);
		return PTR_ERR(rx);
	}
	return 0;
}

/* Connection lost (by the receive thread that owned it). */
static void pcn_tcp_detach(struct pcn_tcp_peer *peer, struct socket *sock)
{
	/* Wake up senders blocked on the socket before taking their lock. */
	kernel_sock_shutdown(sock, SHUT_RDWR);
	pcn_tcp_count(PCN_TCP_DISCONNECTS);
	/* Offline first: whoever waits for ->sock == NULL may reconnect. */
	pcn_node_event(peer->nid, PCN_PEER_EV_DISCONNECT, 0);
	mutex_lock(&peer->send_lock);
	/* Only one connection per peer is attached at a time. */
	WARN_ON_ONCE(peer->sock != sock);
	peer->sock = NULL;
	mutex_unlock(&peer->send_lock);
	sock_release(sock);
	wake_up(&peer->wq);
}

/* Drop the peer's current connection and wait until it is gone. */
static int pcn_tcp_drop_connection(struct pcn_tcp_peer *peer)
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
		.sin_addr.s_addr = pcn_node_addr(pcn_my_nid()),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PCN_TCP_PORT),
		.sin_addr.s_addr = pcn_node_addr(peer->nid),
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

/* Keeps the connection to a peer with a lower id up. */
static int pcn_tcp_dialer_thread(void *arg)
{
	struct pcn_tcp_peer *peer = arg;
	unsigned int delay = PCN_TCP_RETRY_MIN_MS;
	unsigned int waited_for_key = 0;
	unsigned long up;

	while (!kthread_should_stop()) {
		/* pcn.auth=required: no point dialing before init loads the key. */
		if (!pcn_auth_can_connect()) {
			if (!waited_for_key++)
				pr_info("node %d: waiting for the cluster key (pcn.auth=required)\n",
					peer->nid);
			msleep_interruptible(PCN_TCP_RETRY_MIN_MS);
			continue;
		}
		if (!pcn_tcp_dial(peer)) {
			up = jiffies;
			wait_event_interruptible(peer->wq, !READ_ONCE(peer->sock) ||
						 kthread_should_stop());
			/* A connection that held for a while earns a fast retry. */
			if (time_after(jiffies, up + PCN_TCP_STABLE_TIME)) {
				delay = PCN_TCP_RETRY_MIN_MS;
				continue;
			}
		}
		msleep_interruptible(delay);
		delay = min(delay * 2, PCN_TCP_RETRY_MAX_MS);
	}
	return 0;
}

/* An accepted connection of a listed node, for its handshake thread. */
struct pcn_tcp_accepted {
	struct socket *sock;
	int nid;
	u64 seq;	/* the peer's accepted_seq when it came */
};

/*
 * Run the handshake of node @a->nid's connection and attach it.  Only a
 * dialer that proved the key (when there is one) may replace the
 * connection the peer has.
 */
static int pcn_tcp_serve_thread(void *arg)
{
	struct pcn_tcp_accepted *a = arg;
	struct pcn_tcp_peer *peer = &pcn_tcp_peers[a->nid];
	struct pcn_tcp_hs_conn hs_conn = { .sock = a->sock };
	struct pcn_handshake hs = {
		.peer = a->nid,
		.io = &pcn_tcp_hs_io,
		.conn = &hs_conn,
	};
	struct socket *sock = a->sock;
	int nid = a->nid;
	u64 seq = a->seq;
	int ret;

	kfree(a);
	/* Only higher ids dial us; and the handshake must come first. */
	hs_conn.deadline = jiffies + PCN_TCP_HANDSHAKE_TIMEOUT;
	ret = nid > pcn_my_nid() ? pcn_handshake_answer(&hs) : -EPROTO;
	if (ret) {
		pcn_tcp_count(PCN_TCP_REFUSED_HANDSHAKE);
		pcn_kmsg_count_drop(PCN_DROP_HANDSHAKE);
		pr_warn_ratelimited("refused connection from node %d: handshake failed (%d)\n",
				    nid, ret);
		goto out_release;
	}

	mutex_lock(&peer->conn_lock);
	/*
	 * Handshake threads may get here out of order.  A connection older
	 * than the attached one, or one the peer already closed, was given
	 * up by its dialer: it must not replace a live connection.
	 */
	if (seq < peer->attached_seq ||
	    READ_ONCE(sock->sk->sk_state) != TCP_ESTABLISHED) {
		mutex_unlock(&peer->conn_lock);
		pcn_tcp_count(PCN_TCP_REFUSED_STALE);
		pr_info_ratelimited("connection from node %d given up by its dialer, closed\n",
				    nid);
		goto out_release;
	}
	/* A new valid connection from a connected peer: it restarted. */
	if (READ_ONCE(peer->sock) && pcn_tcp_drop_connection(peer)) {
		mutex_unlock(&peer->conn_lock);
		pr_warn_ratelimited("node %d reconnected, its old connection did not close\n",
				    nid);
		goto out_release;
	}
	pcn_node_event(nid, PCN_PEER_EV_CONNECT, 0);
	/* Dropping the old connection may have taken a while. */
	hs_conn.deadline = jiffies + PCN_TCP_HANDSHAKE_TIMEOUT;
	ret = pcn_handshake_accept(&hs, 0);
	if (!ret)
		ret = pcn_tcp_attach(peer, sock, hs.arch);
	if (ret)
		pcn_node_event(nid, PCN_PEER_EV_HANDSHAKE_FAIL, 0);
	else
		peer->attached_seq = seq;
	mutex_unlock(&peer->conn_lock);
	if (ret) {
		pr_warn_ratelimited("handshake with node %d failed (%d)\n",
				    nid, ret);
		goto out_release;
	}
	pcn_tcp_count(PCN_TCP_ACCEPTS);
	goto out;

out_release:
	sock_release(sock);
out:
	if (atomic_dec_and_test(&pcn_tcp_handshakes))
		wake_up(&pcn_tcp_handshakes_wq);
	return 0;
}

/*
 * Identify the peer of an accepted connection by its address and start
 * its handshake; unlisted addresses and connections beyond
 * PCN_TCP_MAX_HANDSHAKES waiting for their hello are closed at once.
 */
static void pcn_tcp_accept_one(struct socket *sock)
{
	struct pcn_tcp_accepted *a;
	struct task_struct *t;
	struct sockaddr_in sin;
	int nid;

	if (kernel_getpeername(sock, (struct sockaddr *)&sin) < 0)
		goto out_release;
	nid = pcn_node_by_addr(sin.sin_addr.s_addr);
	if (nid < 0) {
		pcn_tcp_count(PCN_TCP_REFUSED_UNLISTED);
		pcn_kmsg_count_drop(PCN_DROP_HANDSHAKE);
		pr_warn_ratelimited("refused connection from %pI4: not in pcn.nodes\n",
				    &sin.sin_addr);
		goto out_release;
	}
	if (atomic_inc_return(&pcn_tcp_handshakes) > PCN_TCP_MAX_HANDSHAKES) {
		atomic_dec(&pcn_tcp_handshakes);
		pcn_tcp_count(PCN_TCP_REFUSED_HANDSHAKE);
		pr_warn_ratelimited("refused connection from %pI4: too many handshakes\n",
				    &sin.sin_addr);
		goto out_release;
	}
	a = kmalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		goto out_uncount;
	a->sock = sock;
	a->nid = nid;
	a->seq = ++pcn_tcp_peers[nid].accepted_seq;
	t = kthread_run(pcn_tcp_serve_thread, a, "pcn_tcp_hs/%d", nid);
	if (!IS_ERR(t))
		return;
	kfree(a);
out_uncount:
	if (atomic_dec_and_test(&pcn_tcp_handshakes))
		wake_up(&pcn_tcp_handshakes_wq);
out_release:
	sock_release(sock);
}

static int pcn_tcp_listener_thread(void *arg)
{
	struct socket *sock;

	while (!kthread_should_stop()) {
		if (kernel_accept(pcn_tcp_listen_sock, &sock, 0) < 0) {
			msleep_interruptible(PCN_TCP_RETRY_MIN_MS);
			continue;
		}
		pcn_tcp_accept_one(sock);
	}
	return 0;
}

static int pcn_tcp_listen(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PCN_TCP_PORT),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int ret;

	ret = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &pcn_tcp_listen_sock);
	if (ret)
		return ret;
	sock_set_reuseaddr(pcn_tcp_listen_sock->sk);
	ret = kernel_bind(pcn_tcp_listen_sock, (struct sockaddr *)&sin,
			  sizeof(sin));
	if (!ret)
		ret = kernel_listen(pcn_tcp_listen_sock, POPCORN_MAX_NODES);
	if (ret) {
		sock_release(pcn_tcp_listen_sock);
		pcn_tcp_listen_sock = NULL;
	}
	return ret;
}

static struct task_struct *pcn_tcp_listener;

static void pcn_tcp_stop(void)
{
	int nid;

	for (nid = 0; nid < POPCORN_MAX_NODES; nid++) {
		struct pcn_tcp_peer *peer = &pcn_tcp_peers[nid];

		if (peer->dialer) {
			kthread_stop(peer->dialer);
			peer->dialer = NULL;
		}
	}
	if (pcn_tcp_listen_sock)
		kernel_sock_shutdown(pcn_tcp_listen_sock, SHUT_RDWR);
	if (pcn_tcp_listener) {
		kthread_stop(pcn_tcp_listener);
		pcn_tcp_listener = NULL;
	}
	/* Handshakes under way end (by their deadline) before the drops. */
	wait_event(pcn_tcp_handshakes_wq, !atomic_read(&pcn_tcp_handshakes));
	for (nid = 0; nid < POPCORN_MAX_NODES; nid++)
		if (READ_ONCE(pcn_tcp_peers[nid].sock))
			pcn_tcp_drop_connection(&pcn_tcp_peers[nid]);
	if (pcn_tcp_listen_sock) {
		sock_release(pcn_tcp_listen_sock);
		pcn_tcp_listen_sock = NULL;
	}
}

static int pcn_tcp_start(void)
{
	struct task_struct *t;
	int nid, ret;

	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_tcp_peer *peer = &pcn_tcp_peers[nid];

		peer->nid = nid;
		mutex_init(&peer->send_lock);
		mutex_init(&peer->conn_lock);
		init_waitqueue_head(&peer->wq);
	}

	ret = pcn_tcp_listen();
	if (ret) {
		pr_err("cannot listen on port %d (%d)\n", PCN_TCP_PORT, ret);
		goto fail;
	}
	t = kthread_run(pcn_tcp_listener_thread, NULL, "pcn_tcp_listen");
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto fail;
	}
	pcn_tcp_listener = t;

	for (nid = 0; nid < pcn_my_nid(); nid++) {
		t = kthread_run(pcn_tcp_dialer_thread, &pcn_tcp_peers[nid],
				"pcn_tcp_dial/%d", nid);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto fail;
		}
		pcn_tcp_peers[nid].dialer = t;
	}
	pr_info("listening on port %d, dialing %d lower node(s)\n",
		PCN_TCP_PORT, pcn_my_nid());
	return 0;

fail:
	pcn_tcp_stop();
	return ret;
}

static int pcn_tcp_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			      struct page **pages, unsigned int npages)
{
	struct pcn_tcp_peer *peer = &pcn_tcp_peers[nid];
	unsigned long deadline = jiffies + PCN_TCP_SEND_TIMEOUT * HZ;
	unsigned int i;
	int ret;

	if (mutex_lock_killable(&peer->send_lock))
		return -EINTR;
	if (!peer->sock) {
		ret = -EAGAIN;
	} else {
		ret = pcn_tcp_send_all(peer->sock, msg, size, npages > 0,
				       deadline);
		for (i = 0; !ret && i < npages; i++)
			ret = pcn_tcp_send_page(peer->sock, pages[i],
						i + 1 < npages, deadline);
		if (ret) {
			/* The stream is broken mid-frame: end it. */
			pcn_tcp_count(PCN_TCP_SEND_ERRORS);
			kernel_sock_shutdown(peer->sock, SHUT_RDWR);
			ret = -EHOSTDOWN;
		}
	}
	mutex_unlock(&peer->send_lock);
	return ret;
}

static int pcn_tcp_send(int nid, struct pcn_kmsg_hdr *msg, size_t size)
{
	return pcn_tcp_send_pages(nid, msg, size, NULL, 0);
}

/*
 * The core lost a message that had to arrive: end the connection.  Its
 * receive thread then sees the end and the node goes offline; the
 * dialer makes a new connection as after any loss.
 */
static void pcn_tcp_reset(int nid)
{
	struct pcn_tcp_peer *peer = &pcn_tcp_peers[nid];

	mutex_lock(&peer->send_lock);
	if (peer->sock) {
		pr_warn("node %d: ending the connection at the core's request\n",
			nid);
		kernel_sock_shutdown(peer->sock, SHUT_RDWR);
	}
	mutex_unlock(&peer->send_lock);
}

/* Any context that may sleep: a handler's, or the receive thread's. */
static void pcn_tcp_done(struct pcn_kmsg_hdr *msg)
{
	pcn_kmsg_rx_free(msg);
}

static void pcn_tcp_show_stats(struct seq_file *seq)
{
	int i;

	for (i = 0; i < PCN_TCP_NR_COUNTERS; i++)
		seq_printf(seq, "%s %lld\n", pcn_tcp_counter_names[i],
			   atomic64_read(&pcn_tcp_counters[i]));
	/* Per peer: is a connection attached; for dialed peers, attempts. */
	for (i = 0; i < pcn_nr_nodes(); i++) {
		struct pcn_tcp_peer *peer = &pcn_tcp_peers[i];

		if (i == pcn_my_nid())
			continue;
		seq_printf(seq, "tcp_peer %d connected %d dials %d last_error %d\n",
			   i, !!READ_ONCE(peer->sock), atomic_read(&peer->dials),
			   READ_ONCE(peer->last_error));
	}
}

static void pcn_tcp_reset_stats(void)
{
	int i;

	for (i = 0; i < PCN_TCP_NR_COUNTERS; i++)
		atomic64_set(&pcn_tcp_counters[i], 0);
}

static struct pcn_kmsg_transport pcn_tcp_transport = {
	.name = "tcp",
	.start = pcn_tcp_start,
	.send = pcn_tcp_send,
	.send_pages = pcn_tcp_send_pages,
	.reset = pcn_tcp_reset,
	.done = pcn_tcp_done,
	.show_stats = pcn_tcp_show_stats,
	.reset_stats = pcn_tcp_reset_stats,
};

static int __init pcn_tcp_init(void)
{
	return pcn_kmsg_register_transport(&pcn_tcp_transport);
}
device_initcall(pcn_tcp_init);
