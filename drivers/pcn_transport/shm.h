/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn shared-memory transport: what its files share (shm.c
 * describes it).
 */
#ifndef _PCN_TRANSPORT_SHM_H
#define _PCN_TRANSPORT_SHM_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <popcorn/auth.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "shm_layout.h"

#define PCN_SHM_HANDSHAKE_TIMEOUT	(3 * HZ)
/* The dialer waits longer: its peer may still be seeing the request. */
#define PCN_SHM_ANSWER_TIMEOUT		(10 * HZ)
#define PCN_SHM_SEND_TIMEOUT		(10 * HZ)
#define PCN_SHM_BEAT_MS			100

/* One direction of a connection, as this node sees it. */
struct pcn_shm_ring {
	struct pcn_shm_ring_ctl *ctl;	/* in the shared segment */
	u8 *data;			/* ring_bytes, in the segment */
	u32 size;			/* ring_bytes */
	/*
	 * This node's own index: head for the ring it writes, tail for
	 * the one it reads.  Kept here, never read back from the
	 * segment, where the peer could change it.
	 */
	u32 pos;
	u32 seq;			/* records written or read */
};

enum pcn_shm_state {
	PCN_SHM_DOWN,
	PCN_SHM_HANDSHAKE,
	PCN_SHM_UP,
};

struct pcn_shm_peer {
	int nid;
	int slot;
	struct pcn_shm_ring out;	/* this node -> peer */
	struct pcn_shm_ring in;		/* peer -> this node */
	/* Serialises state changes (connect, accept, loss). */
	struct mutex conn_lock;
	/* Serialises senders: the one producer of ->out. */
	struct mutex send_lock;
	int state;			/* enum pcn_shm_state */
	bool rx_on;			/* the poll thread reads ->in */
	bool dying;			/* senders give up their waits */
	u32 session;
	u64 peer_boot;			/* the peer's boot_id of the session */
	wait_queue_head_t wq;		/* woken when ->state goes DOWN */
	/* Listener side, poll thread: the last session request seen. */
	u32 seen_session;
	struct work_struct accept_work;
	/* Loss, found by a sender or the poll thread, handled here. */
	struct work_struct lost_work;
	int lost_why;			/* enum pcn_shm_counter */
	u32 lost_session;		/* the session it ends */
	/* The poll thread's hold on ->in while it reads; see shm_conn.c. */
	struct mutex rx_lock;
	/* Liveness, poll thread: the peer slot's last values. */
	u64 last_beat;
	u64 last_boot;
	unsigned long beat_seen_at;	/* jiffies of its last change, 0: never */
	/* Diagnostics. */
	atomic_t dials;
	int last_error;
};

/* The segment and this node's place in it. */
struct pcn_shm {
	void *base;
	size_t size;
	struct pcn_shm_header layout;	/* what the header must hold */
	struct pcn_shm_slot *slots;
	int my_slot;
	u64 boot_id;
	bool layout_ok;			/* the header held ->layout last check */
	bool layout_known;		/* it was checked once */
	bool lines_cleared;		/* pcn_shm_clear_lines() was done */
	struct task_struct *poll_task;
	atomic_t poll_hot;		/* a send was made: poll fast */
};

extern struct pcn_shm pcn_shm;
extern struct pcn_shm_peer pcn_shm_peers[POPCORN_MAX_NODES];
extern unsigned int pcn_shm_dead_ms;
extern unsigned int pcn_shm_poll_min_us;
extern unsigned int pcn_shm_poll_max_us;
extern unsigned int pcn_shm_poll_idle_us;

enum pcn_shm_counter {
	PCN_SHM_CONNECTS,		/* connections dialed */
	PCN_SHM_ACCEPTS,		/* connections accepted */
	PCN_SHM_REFUSED_HANDSHAKE,
	PCN_SHM_LOST_HEARTBEAT,		/* peer's heartbeat stopped */
	PCN_SHM_LOST_REBOOT,		/* peer's slot has a new boot id */
	PCN_SHM_LOST_BY_PEER,		/* peer ended the session */
	PCN_SHM_LOST_LAYOUT,		/* the layout header went bad */
	PCN_SHM_FRAME_ERRORS,		/* impossible ring index or record */
	PCN_SHM_LAYOUT_ERRORS,		/* times the header was found bad */
	PCN_SHM_SEND_ERRORS,
	PCN_SHM_MSGS_SENT,
	PCN_SHM_MSGS_RECEIVED,
	PCN_SHM_BYTES_SENT,
	PCN_SHM_PAGES_SENT,		/* copied from their page */
	PCN_SHM_PAGES_RECEIVED,		/* copied into their page */
	PCN_SHM_RING_FULL,		/* sends that waited for room */
	PCN_SHM_POLL_SLEEPS,		/* idle sleeps of the poll thread */
	PCN_SHM_NR_COUNTERS
};

/* shm_ring.c: the single-producer/single-consumer rings */
void pcn_shm_ring_init(struct pcn_shm_ring *r, int from, int to);
u32 pcn_shm_ring_room(struct pcn_shm_ring *r, bool *bad);
void pcn_shm_ring_write(struct pcn_shm_ring *r, const void *buf, size_t len);
void pcn_shm_ring_write_page(struct pcn_shm_ring *r, struct page *page);
void pcn_shm_ring_publish(struct pcn_shm_ring *r);
long pcn_shm_ring_avail(struct pcn_shm_ring *r);
void pcn_shm_ring_read(struct pcn_shm_ring *r, u32 off, void *buf,
		       size_t len);
void pcn_shm_ring_consume(struct pcn_shm_ring *r, u32 len);

/* shm_layout.c: the header, the slots, liveness */
int pcn_shm_layout_init(void);
bool pcn_shm_layout_check(void);
void pcn_shm_beat(void);
void pcn_shm_watch_peers(void);
bool pcn_shm_peer_alive(struct pcn_shm_peer *peer);
u64 pcn_shm_slot_boot(int slot);

/* shm_conn.c: sessions, handshakes, loss */
extern const struct pcn_handshake_io pcn_shm_hs_io;
int pcn_shm_connect(int nid);
void pcn_shm_check_requests(void);
void pcn_shm_accept_work(struct work_struct *work);
void pcn_shm_lost_work(struct work_struct *work);
void pcn_shm_drop(struct pcn_shm_peer *peer, enum pcn_shm_counter why,
		  u32 session);
bool pcn_shm_peer_left(struct pcn_shm_peer *peer, u32 session);
void pcn_shm_clear_lines(void);
void pcn_shm_disconnect(int nid);

/* shm_send.c */
int pcn_shm_send(int nid, struct pcn_kmsg_hdr *msg, size_t size);
int pcn_shm_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
		       struct page **pages, unsigned int npages);
int pcn_shm_wait_room(struct pcn_shm_peer *peer, size_t len,
		      unsigned long deadline);

/* shm_poll.c: the poll thread */
int pcn_shm_poll_start(void);
void pcn_shm_poll_stop(void);
void pcn_shm_poll_kick(void);
void pcn_shm_done(struct pcn_kmsg_hdr *msg);

/* shm_stats.c */
void pcn_shm_count(enum pcn_shm_counter c);
void pcn_shm_count_add(enum pcn_shm_counter c, u64 n);
void pcn_shm_show_stats(struct seq_file *seq);
void pcn_shm_reset_stats(void);

#endif /* _PCN_TRANSPORT_SHM_H */
