/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn RDMA transport: what its files share (rdma.c describes it).
 */
#ifndef _PCN_TRANSPORT_RDMA_H
#define _PCN_TRANSPORT_RDMA_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <popcorn/auth.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "ipv4_addr.h"

/* RDMA CM port (its own port space, not the IP stack's TCP ports). */
#define PCN_RDMA_PORT			30469
/*
 * Receive buffers posted per connection, each PCN_RDMA_RX_SIZE bytes:
 * also the sender's credits, so no peer can overrun them.
 */
#define PCN_RDMA_RX_DEPTH		16
#define PCN_RDMA_RX_SIZE		PCN_KMSG_MAX_SIZE
/* Sends in flight at most: one per credit, and the control messages. */
#define PCN_RDMA_SQ_DEPTH		(2 * PCN_RDMA_RX_DEPTH)
/* Receive buffers consumed before the receiver announces them. */
#define PCN_RDMA_CREDIT_BATCH		(PCN_RDMA_RX_DEPTH / 2)
/* A message for the core leaves this many credits for control ones. */
#define PCN_RDMA_CREDIT_RESERVE		1
#define PCN_RDMA_CM_TIMEOUT_MS		2000
#define PCN_RDMA_HANDSHAKE_TIMEOUT	(3 * HZ)
#define PCN_RDMA_ANSWER_TIMEOUT		(10 * HZ)
#define PCN_RDMA_SEND_TIMEOUT		(10 * HZ)
/* An idle connection sends a control message this often. */
#define PCN_RDMA_KEEPALIVE		HZ
/*
 * RC retransmission: 4.096 us * 2^16 = 268 ms per try, 6 retries, so a
 * peer that vanished is noticed about 2 s after the next keepalive.
 * Not 7: rxe (as the specification for RNR) takes 7 as "for ever".
 */
#define PCN_RDMA_ACK_TIMEOUT		16
#define PCN_RDMA_RETRY_COUNT		6
#define PCN_RDMA_MAX_HANDSHAKES		(2 * POPCORN_MAX_NODES)

/* Private data of a connection request: who dials. */
#define PCN_RDMA_CM_MAGIC		0x50434e52	/* "PCNR" */
struct pcn_rdma_cm_priv {
	__le32 magic;
	__le16 nid;
	__le16 reserved;
} __packed;

struct pcn_rdma_conn;

struct pcn_rdma_peer {
	int nid;
	/* Protects ->conn (the attached connection, one reference). */
	spinlock_t lock;
	struct pcn_rdma_conn *conn;
	/* Serialises attaching connections (rdma_conn.c). */
	struct mutex attach_lock;
	/* Orders the membership events of its connections. */
	struct mutex event_lock;
	wait_queue_head_t wq;		/* woken when ->conn is cleared */
	atomic_t dials;
	int last_error;
};

extern struct pcn_rdma_peer pcn_rdma_peers[POPCORN_MAX_NODES];

/* A posted receive buffer. */
struct pcn_rdma_rx {
	struct ib_cqe cqe;
	struct pcn_rdma_conn *conn;
	void *buf;
	u64 dma;
	struct ib_sge sge;
	struct ib_recv_wr wr;
	/* While the handshake reads it: bytes received and read. */
	struct list_head hs_entry;
	u32 len;
	u32 off;
};

/* What a connection's receive completions do with messages. */
enum pcn_rdma_rx_mode {
	PCN_RDMA_RX_HANDSHAKE,	/* queued for the handshake to read */
	PCN_RDMA_RX_DELIVER,	/* passed to the messaging core */
};

struct pcn_rdma_conn {
	struct kref ref;
	struct pcn_rdma_peer *peer;
	struct rdma_cm_id *cm_id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	/* Result of the connection manager step the dialer waits for. */
	struct completion cm_done;
	int cm_status;
	bool dialer;			/* we dialed (the peer's id is lower) */
	bool in_handshake;		/* counted in the listener's handshakes */

	struct pcn_rdma_rx rx[PCN_RDMA_RX_DEPTH];
	/* Receive buffers the peer may still fill: our sends. */
	atomic_t credits;
	/* Buffers we reposted and have not announced to the peer yet. */
	atomic_t credits_to_return;
	/* Sends posted and not completed yet. */
	atomic_t tx_inflight;
	wait_queue_head_t credit_wq;
	unsigned long last_send;	/* jiffies */

	/* Under rx_lock: the mode and the messages the handshake reads. */
	spinlock_t rx_lock;
	enum pcn_rdma_rx_mode rx_mode;
	struct list_head hs_queue;
	wait_queue_head_t hs_wq;

	/* Set once, by pcn_rdma_conn_lost(). */
	unsigned long flags;
	bool online;			/* reported online to membership */
	struct delayed_work keepalive;
	struct work_struct lost_work;
	struct work_struct free_work;
};

#define PCN_RDMA_CONN_DEAD	0

static inline bool pcn_rdma_conn_dead(struct pcn_rdma_conn *conn)
{
	return test_bit(PCN_RDMA_CONN_DEAD, &conn->flags);
}

/* The handshake's view of a connection being set up. */
struct pcn_rdma_hs_conn {
	struct pcn_rdma_conn *conn;
	unsigned long deadline;
};

enum pcn_rdma_counter {
	PCN_RDMA_CONNECTS,		/* connections made (dialed) */
	PCN_RDMA_ACCEPTS,		/* connections accepted */
	PCN_RDMA_REFUSED,		/* bad request, unlisted or wrong side */
	PCN_RDMA_REFUSED_HANDSHAKE,	/* bad hello or proof */
	PCN_RDMA_DISCONNECTS,
	PCN_RDMA_QP_ERRORS,		/* failed work completions, QP events */
	PCN_RDMA_CREDIT_STALLS,		/* sends that waited for a credit */
	PCN_RDMA_SENDS,			/* messages sent (SEND) */
	PCN_RDMA_BYTES_SENT,
	PCN_RDMA_RECVS,			/* messages received */
	PCN_RDMA_BYTES_RECEIVED,
	PCN_RDMA_PAGES_SENT,		/* gathered from their page */
	PCN_RDMA_CONTROL_SENT,		/* credit announcements, keepalives */
	PCN_RDMA_BAD_MESSAGES,		/* received frames that made no sense */
	PCN_RDMA_NR_COUNTERS
};

extern struct workqueue_struct *pcn_rdma_wq;

/* rdma_conn.c: a connection's resources and lifetime */
struct pcn_rdma_conn *pcn_rdma_conn_alloc(struct pcn_rdma_peer *peer);
int pcn_rdma_conn_setup(struct pcn_rdma_conn *conn);
void pcn_rdma_conn_put(struct pcn_rdma_conn *conn);
struct pcn_rdma_conn *pcn_rdma_conn_get_attached(struct pcn_rdma_peer *peer);
void pcn_rdma_conn_lost(struct pcn_rdma_conn *conn, const char *why);
int pcn_rdma_attach(struct pcn_rdma_conn *conn, int arch);
void pcn_rdma_node_event(struct pcn_rdma_peer *peer, enum pcn_peer_event ev);
int pcn_rdma_drop_attached(struct pcn_rdma_peer *peer);
int pcn_rdma_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev);
extern const struct pcn_handshake_io pcn_rdma_hs_io;

/* rdma_connect.c */
int pcn_rdma_connect(int nid);

/* rdma_listen.c */
int pcn_rdma_listen_start(void);
void pcn_rdma_listen_stop(void);
int pcn_rdma_connect_request(struct rdma_cm_id *id,
			     struct rdma_cm_event *ev);
void pcn_rdma_established(struct pcn_rdma_conn *conn);
void pcn_rdma_handshake_done(struct pcn_rdma_conn *conn);

/* rdma_send.c */
int pcn_rdma_post_send(struct pcn_rdma_conn *conn, const void *buf,
		       size_t len, struct page **pages, unsigned int npages,
		       unsigned long deadline);
void pcn_rdma_send_control(struct pcn_rdma_conn *conn);
void pcn_rdma_linger(struct pcn_rdma_conn *conn);
void pcn_rdma_keepalive(struct work_struct *work);
int pcn_rdma_send(int nid, struct pcn_kmsg_hdr *msg, size_t size);
int pcn_rdma_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			struct page **pages, unsigned int npages);
void pcn_rdma_disconnect(int nid);

/* rdma_recv.c */
int pcn_rdma_rx_init(struct pcn_rdma_conn *conn);
void pcn_rdma_rx_free_all(struct pcn_rdma_conn *conn);
void pcn_rdma_rx_deliver_queued(struct pcn_rdma_conn *conn);
int pcn_rdma_hs_recv(void *hs_conn, void *buf, size_t len);
void pcn_rdma_done(struct pcn_kmsg_hdr *msg);

/* rdma_stats.c */
void pcn_rdma_count(enum pcn_rdma_counter c);
void pcn_rdma_count_add(enum pcn_rdma_counter c, u64 n);
void pcn_rdma_show_stats(struct seq_file *seq);
void pcn_rdma_reset_stats(void);

#endif /* _PCN_TRANSPORT_RDMA_H */
