// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport: sending.  Senders write directly to the socket
 * under the peer's send_lock; pages of data go by reference.
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include "tcp.h"

/*
 * Send exactly @len bytes by @deadline: 0, or -errno.  @more: more of
 * the message follows (page data), so TCP need not push a segment yet.
 */
int pcn_tcp_send_all(struct socket *sock, const void *buf, size_t len,
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

int pcn_tcp_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
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

int pcn_tcp_send(int nid, struct pcn_kmsg_hdr *msg, size_t size)
{
	return pcn_tcp_send_pages(nid, msg, size, NULL, 0);
}

/*
 * ->disconnect: the core lost a message that had to arrive, so end the
 * connection.  Its receive thread then sees the end and the node goes
 * offline; the dialer makes a new connection as after any loss.
 */
void pcn_tcp_disconnect(int nid)
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
