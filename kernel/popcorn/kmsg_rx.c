// SPDX-License-Identifier: GPL-2.0
/*
 * The receive queue of one sending node.
 *
 * Requests are handled on a workqueue, so that a receive thread never
 * blocks sending a reply.  At most max_running requests of one node are
 * handed to the workqueue at a time, so that one slow or hostile peer
 * cannot take every worker.  The requests past that wait here, in the
 * order they came, and each handler that ends hands the next one to the
 * workqueue.  They are not dropped: a legitimate burst (many threads of
 * a process faulting at once) is larger than max_running, and many of
 * its requests have senders that wait for the answer until they are
 * killed.  Only a node that has more than max_pending requests (or
 * max_bytes of them) waiting here loses the next ones; that is counted
 * as "dropped rx_queue_full".
 */
#include <linux/list.h>
#include <linux/spinlock.h>

#include "kmsg_internal.h"

/**
 * pcn_kmsg_rx_init() - set up an empty receive queue
 * @q: the queue
 * @max_running: requests handed to the workqueue at a time
 * @max_pending: requests that may wait beyond those
 * @max_bytes: bytes that may wait beyond those
 */
void pcn_kmsg_rx_init(struct pcn_kmsg_rx_queue *q, unsigned int max_running,
		      unsigned int max_pending, size_t max_bytes)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->pending);
	q->running = 0;
	q->nr_pending = 0;
	q->pending_bytes = 0;
	q->max_running = max_running;
	q->max_pending = max_pending;
	q->max_bytes = max_bytes;
}

/**
 * pcn_kmsg_rx_admit() - a request came: run it, queue it or refuse it
 * @q: the queue of the node it came from
 * @item: the request; its @len is set
 *
 * Return: PCN_RX_RUN when the caller must hand @item to the workqueue
 * now, PCN_RX_QUEUED when it waits in @q (pcn_kmsg_rx_next() hands it
 * out later), PCN_RX_FULL when @q is full and @item must be dropped.
 */
enum pcn_kmsg_rx_verdict pcn_kmsg_rx_admit(struct pcn_kmsg_rx_queue *q,
					   struct pcn_kmsg_rx_item *item)
{
	enum pcn_kmsg_rx_verdict v = PCN_RX_RUN;

	spin_lock(&q->lock);
	if (q->running < q->max_running) {
		q->running++;
	} else if (q->nr_pending >= q->max_pending ||
		   item->len > q->max_bytes - q->pending_bytes) {
		v = PCN_RX_FULL;
	} else {
		item->waited = true;
		list_add_tail(&item->list, &q->pending);
		q->nr_pending++;
		q->pending_bytes += item->len;
		v = PCN_RX_QUEUED;
	}
	spin_unlock(&q->lock);
	return v;
}

/**
 * pcn_kmsg_rx_next() - a handler of @q's node ended
 * @q: the queue
 *
 * Return: the oldest request waiting in @q, which now counts as running
 * and must be handed to the workqueue, or NULL (one running fewer).
 */
struct pcn_kmsg_rx_item *pcn_kmsg_rx_next(struct pcn_kmsg_rx_queue *q)
{
	struct pcn_kmsg_rx_item *item;

	spin_lock(&q->lock);
	item = list_first_entry_or_null(&q->pending, struct pcn_kmsg_rx_item,
					list);
	if (item) {
		list_del(&item->list);
		q->nr_pending--;
		q->pending_bytes -= item->len;
	} else if (!WARN_ON_ONCE(!q->running)) {
		q->running--;
	}
	spin_unlock(&q->lock);
	return item;
}
