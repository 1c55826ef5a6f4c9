// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport: receiving.  Each connection has a receive
 * thread that reads header-framed messages, page data straight into
 * fresh pages, and hands them to the messaging core; it owns the
 * connection and detaches it when the stream ends.
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include "tcp.h"

/*
 * Receive exactly @len bytes by @deadline (0: no deadline): 0, or
 * -errno (-ECONNRESET on EOF, -ETIMEDOUT past the deadline).  The
 * deadline covers the whole buffer, so a peer trickling bytes cannot
 * stretch it.
 */
int pcn_tcp_recv_all(struct socket *sock, void *buf, size_t len,
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
int pcn_tcp_attach(struct pcn_tcp_peer *peer, struct socket *sock, int arch)
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

/* Any context that may sleep: a handler's, or the receive thread's. */
void pcn_tcp_done(struct pcn_kmsg_hdr *msg)
{
	pcn_kmsg_rx_free(msg);
}
