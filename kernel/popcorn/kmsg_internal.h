/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Messaging core internals shared by kmsg.c, wait.c, stat.c and the
 * KUnit suites.
 */
#ifndef _KERNEL_POPCORN_KMSG_INTERNAL_H
#define _KERNEL_POPCORN_KMSG_INTERNAL_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <popcorn/pcn_kmsg.h>

struct pcn_kmsg_type_desc {
	const char *name;
	u32 min_size;
	u32 max_size;
	u32 max_pages;			/* pcn_kmsg_allow_pages() */
	pcn_kmsg_handler_t handler;	/* NULL for a response type */
	bool registered;
};

enum pcn_kmsg_drop pcn_kmsg_check(const struct pcn_kmsg_hdr *hdr, size_t len,
				  int conn_nid,
				  const struct pcn_kmsg_type_desc *types,
				  unsigned int nr_types);

struct seq_file;

const char *pcn_kmsg_type_name(unsigned int type);
/* The name of a registered type and its limits, or NULL. */
const char *pcn_kmsg_type_limits(unsigned int type, u32 *min_size,
				 u32 *max_size, bool *request);
const char *pcn_kmsg_drop_name(enum pcn_kmsg_drop why);
const char *pcn_kmsg_transport_name(void);
struct pcn_kmsg_transport *pcn_kmsg_active_transport(void);
struct pcn_kmsg_transport *pcn_kmsg_find_transport(const char *name);
int __pcn_kmsg_send(int nid, struct pcn_kmsg_hdr *hdr, size_t size,
		    struct page **pages, unsigned int npages,
		    struct page **place, unsigned int nplace, bool reply);
int pcn_kmsg_start(struct pcn_kmsg_transport *t);

/* kmsg_dial.c: the dialers of the nodes with lower ids */
int pcn_kmsg_dial_start(struct pcn_kmsg_transport *t);
void pcn_kmsg_dial_stop(void);

/* kmsg_rx.c: the receive queue of one sending node */
struct pcn_kmsg_rx_queue {
	spinlock_t lock;		/* guards the fields below it */
	struct list_head pending;	/* pcn_kmsg_rx_item, oldest first */
	unsigned int running;		/* handed to the workqueue */
	unsigned int nr_pending;
	size_t pending_bytes;
	unsigned int max_running;
	unsigned int max_pending;
	size_t max_bytes;
};

struct pcn_kmsg_rx_item {
	struct list_head list;		/* in pcn_kmsg_rx_queue.pending */
	struct work_struct work;
	int nid;
	unsigned int gen;		/* of the node, when it came */
	bool waited;			/* was in the pending list */
	size_t len;
	struct pcn_kmsg_hdr *msg;
	pcn_kmsg_handler_t handler;
};

enum pcn_kmsg_rx_verdict {
	PCN_RX_RUN,
	PCN_RX_QUEUED,
	PCN_RX_FULL,
};

void pcn_kmsg_rx_init(struct pcn_kmsg_rx_queue *q, unsigned int max_running,
		      unsigned int max_pending, size_t max_bytes);
enum pcn_kmsg_rx_verdict pcn_kmsg_rx_admit(struct pcn_kmsg_rx_queue *q,
					   struct pcn_kmsg_rx_item *item);
struct pcn_kmsg_rx_item *pcn_kmsg_rx_next(struct pcn_kmsg_rx_queue *q);

/* wait.c */
int pcn_kmsg_wait_complete(int nid, struct pcn_kmsg_hdr *msg);
void pcn_kmsg_fail_waits(int nid);
unsigned int pcn_kmsg_waits_live(void);

/* kmsg_vital.c: messages whose loss must end the connection */
int pcn_kmsg_send_vital(int nid, void *msg, size_t size);
void pcn_kmsg_lost(int nid, unsigned int type, int err);
void pcn_kmsg_vital_stat_show(struct seq_file *seq);
void pcn_kmsg_vital_stat_reset(void);

/* stat.c */
void pcn_stat_sent(unsigned int type, size_t bytes);
void pcn_stat_recv(unsigned int type, size_t bytes);
void pcn_stat_drop(enum pcn_kmsg_drop why);
void pcn_stat_pages_sent(unsigned int n, bool by_reference);
void pcn_stat_pages_received(unsigned int n);

#endif /* _KERNEL_POPCORN_KMSG_INTERNAL_H */
