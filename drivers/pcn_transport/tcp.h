/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn TCP transport: what its files share (tcp.c describes it).
 */
#ifndef _PCN_TRANSPORT_TCP_H
#define _PCN_TRANSPORT_TCP_H

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

#include "ipv4_addr.h"

#define PCN_TCP_PORT			30467
#define PCN_TCP_HANDSHAKE_TIMEOUT	(3 * HZ)
/*
 * The dialer's wait for the answer also covers the time its connection
 * waits to be accepted, and the dialer has nothing else to do: longer.
 */
#define PCN_TCP_ANSWER_TIMEOUT		(10 * HZ)
#define PCN_TCP_SEND_TIMEOUT		10		/* seconds */
#define PCN_TCP_USER_TIMEOUT_MS		5000
/* The listener's pause after a failed accept. */
#define PCN_TCP_ACCEPT_RETRY_MS		100
/* Accepted connections whose hello is awaited at once, at most. */
#define PCN_TCP_MAX_HANDSHAKES		(2 * POPCORN_MAX_NODES)

struct pcn_tcp_peer {
	int nid;
	/* Serialises senders; ->sock changes under it. */
	struct mutex send_lock;
	struct socket *sock;		/* NULL while not connected */
	wait_queue_head_t wq;		/* woken when ->sock is cleared */
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

extern struct pcn_tcp_peer pcn_tcp_peers[POPCORN_MAX_NODES];

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

/*
 * Time left until @deadline (in jiffies), for a socket timeout; 0 when
 * it has passed.  A deadline of 0 means none.
 */
static inline long pcn_tcp_time_left(unsigned long deadline)
{
	long left;

	if (!deadline)
		return MAX_SCHEDULE_TIMEOUT;
	left = (long)(deadline - jiffies);
	return left > 0 ? left : 0;
}

/* The handshake's view of a connection being set up. */
struct pcn_tcp_hs_conn {
	struct socket *sock;
	unsigned long deadline;
};

/* tcp_connect.c: dialing and dropping connections */
extern const struct pcn_handshake_io pcn_tcp_hs_io;
int pcn_tcp_connect(int nid);
int pcn_tcp_drop_connection(struct pcn_tcp_peer *peer);

/* tcp_listen.c: the listener and the handshakes of accepted connections */
int pcn_tcp_listen_start(void);
void pcn_tcp_listen_stop(void);

/* tcp_send.c */
int pcn_tcp_send_all(struct socket *sock, const void *buf, size_t len,
		     bool more, unsigned long deadline);
int pcn_tcp_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
		       struct page **pages, unsigned int npages);
int pcn_tcp_send(int nid, struct pcn_kmsg_hdr *msg, size_t size);
void pcn_tcp_disconnect(int nid);

/* tcp_recv.c */
int pcn_tcp_recv_all(struct socket *sock, void *buf, size_t len,
		     unsigned long deadline);
int pcn_tcp_attach(struct pcn_tcp_peer *peer, struct socket *sock, int arch);
void pcn_tcp_done(struct pcn_kmsg_hdr *msg);

/* tcp_stats.c */
void pcn_tcp_count(enum pcn_tcp_counter c);
void pcn_tcp_show_stats(struct seq_file *seq);
void pcn_tcp_reset_stats(void);

#endif /* _PCN_TRANSPORT_TCP_H */
