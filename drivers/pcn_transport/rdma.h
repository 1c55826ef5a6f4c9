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
#include <linux/xarray.h>
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
/*
 * Page data placed by RDMA WRITE (rdma_place.c): memory registrations
 * per connection, each for the pages of one request in flight.
 */
#define PCN_RDMA_NR_MRS			PCN_RDMA_RX_DEPTH
/*
 * Work requests in flight at most: a SEND per credit and the control
 * messages, a registration and an invalidation per MR, an RDMA WRITE
 * per SEND that answers with placed pages.
 */
#define PCN_RDMA_SQ_DEPTH		(3 * PCN_RDMA_RX_DEPTH + \
					 2 * PCN_RDMA_NR_MRS)
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

/*
 * Immediate data of a SEND: credits returned in the low bits, and what
 * the message is besides.
 */
#define PCN_RDMA_IMM_CREDITS		GENMASK(15, 0)
#define PCN_RDMA_IMM_TOKEN		BIT(31)	/* a token follows it */
#define PCN_RDMA_IMM_PLACED		BIT(30)	/* its pages were written */
#define PCN_RDMA_IMM_REPLY		BIT(29)	/* answers our wait_id */
#define PCN_RDMA_IMM_FLAGS		(PCN_RDMA_IMM_TOKEN | \
					 PCN_RDMA_IMM_PLACED | \
					 PCN_RDMA_IMM_REPLY)

/*
 * A token, after a request that carries one: where the answer's pages
 * may be written (RDMA WRITE), into the requester's registration @slot.
 */
struct pcn_rdma_token {
	__le64 addr;
	__le32 rkey;
	__le32 len;
	__le16 slot;
	__le16 reserved;
} __packed;

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
	/* Our requests whose answer may be placed, by wait id. */
	struct xarray placing;
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
	u32 flags;		/* of its immediate data */
};

/* What a connection's receive completions do with messages. */
enum pcn_rdma_rx_mode {
	PCN_RDMA_RX_HANDSHAKE,	/* queued for the handshake to read */
	PCN_RDMA_RX_DELIVER,	/* passed to the messaging core */
};

/*
 * One registration of a connection (rdma_place.c): its MR and the
 * completions of its work requests, which may come as long as the
 * connection lives; and the peer's token for the slot of the same
 * number of its own registrations.
 */
struct pcn_rdma_slot {
	struct pcn_rdma_conn *conn;
	struct ib_mr *mr;
	struct ib_cqe reg_cqe;
	struct ib_cqe inv_cqe;
	struct completion inv_done;
	int inv_status;
	struct pcn_rdma_token peer_tok;	/* under place_lock */
	u32 peer_wait_id;		/* 0: no token */
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

	/*
	 * Placement (rdma_place.c), under place_lock: our registrations
	 * (free ones in mr_free), and the peer's tokens, one per slot of
	 * its registrations (wait_id 0: none).
	 */
	spinlock_t place_lock;
	struct pcn_rdma_slot slots[PCN_RDMA_NR_MRS];
	unsigned long mr_free;		/* slots whose MR is free */
	bool placing_closed;		/* under peer->placing's lock */
	struct list_head deferred_places;	/* under place_lock */

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
	PCN_RDMA_REGISTRATIONS,		/* requests that carried a token */
	PCN_RDMA_NO_MR,			/* ... that could not: none free */
	PCN_RDMA_PAGES_WRITTEN,		/* placed in the peer's pages */
	PCN_RDMA_BYTES_WRITTEN,
	PCN_RDMA_PAGES_PLACED,		/* received placed in our pages */
	PCN_RDMA_NR_COUNTERS
};

extern struct workqueue_struct *pcn_rdma_wq;

/* What pcn_rdma_post_send_extra() posts besides the SEND. */
struct pcn_rdma_post_extra {
	struct ib_send_wr *reg;		/* a registration posted first */
	bool reg_posted;		/* out */
	const struct pcn_rdma_token *token;	/* sent after the message */
	const struct pcn_rdma_token *write_to;	/* the pages go there */
	u32 imm_flags;
};

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
int pcn_rdma_post_send_extra(struct pcn_rdma_conn *conn, const void *buf,
			     size_t len, struct page **pages,
			     unsigned int npages,
			     struct pcn_rdma_post_extra *x,
			     unsigned long deadline);

void pcn_rdma_send_control(struct pcn_rdma_conn *conn);
void pcn_rdma_linger(struct pcn_rdma_conn *conn);
void pcn_rdma_keepalive(struct work_struct *work);
int pcn_rdma_send(int nid, struct pcn_kmsg_hdr *msg, size_t size);
int pcn_rdma_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			struct page **pages, unsigned int npages);
void pcn_rdma_disconnect(int nid);

/* rdma_place.c: page data placed by RDMA WRITE */
void pcn_rdma_place_setup(struct pcn_rdma_conn *conn);
void pcn_rdma_place_close(struct pcn_rdma_conn *conn);
void pcn_rdma_place_free(struct pcn_rdma_conn *conn);
int pcn_rdma_send_request(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			  struct page **pages, unsigned int npages);
bool pcn_rdma_request_end(int nid, u32 wait_id);
int pcn_rdma_reply_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			 struct page **pages, unsigned int npages);
int pcn_rdma_rx_token(struct pcn_rdma_conn *conn, struct pcn_kmsg_hdr *hdr,
		      const void *tok, size_t len);
void pcn_rdma_rx_reply(struct pcn_rdma_conn *conn, struct pcn_kmsg_hdr *hdr);
struct pcn_kmsg_hdr *pcn_rdma_rx_placed(struct pcn_rdma_conn *conn,
					struct pcn_kmsg_hdr *hdr, u32 len);

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
