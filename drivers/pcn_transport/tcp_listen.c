// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport: listening.  The lower node accepts only
 * connections from addresses of pcn.nodes with a higher id; each runs
 * its handshake in a thread of its own, so that a peer that connects
 * and stays silent delays nobody else.
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include "tcp.h"

static struct socket *pcn_tcp_listen_sock;
/* Handshake threads of accepted connections; woken when one ends. */
static atomic_t pcn_tcp_handshakes;
static DECLARE_WAIT_QUEUE_HEAD(pcn_tcp_handshakes_wq);

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
	nid = pcn_ipv4_node_by_addr(sin.sin_addr.s_addr);
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
			msleep_interruptible(PCN_TCP_ACCEPT_RETRY_MS);
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

int pcn_tcp_listen_start(void)
{
	struct task_struct *t;
	int ret;

	ret = pcn_tcp_listen();
	if (ret) {
		pr_err("cannot listen on port %d (%d)\n", PCN_TCP_PORT, ret);
		return ret;
	}
	t = kthread_run(pcn_tcp_listener_thread, NULL, "pcn_tcp_listen");
	if (IS_ERR(t))
		return PTR_ERR(t);	/* the caller stops */
	pcn_tcp_listener = t;
	return 0;
}

/* No new connections; those in their handshake end (by its deadline). */
void pcn_tcp_listen_stop(void)
{
	if (pcn_tcp_listen_sock)
		kernel_sock_shutdown(pcn_tcp_listen_sock, SHUT_RDWR);
	if (pcn_tcp_listener) {
		kthread_stop(pcn_tcp_listener);
		pcn_tcp_listener = NULL;
	}
	wait_event(pcn_tcp_handshakes_wq, !atomic_read(&pcn_tcp_handshakes));
	if (pcn_tcp_listen_sock) {
		sock_release(pcn_tcp_listen_sock);
		pcn_tcp_listen_sock = NULL;
	}
}
