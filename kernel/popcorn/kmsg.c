// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn messaging core.
 *
 * Servers register a handler per message type together with the sizes
 * the type allows; transports register an ops table; the transport
 * named by pcn.transport= is started at boot.  Every received message
 * is validated here before any handler sees it: invalid ones are
 * dropped, counted and logged (rate-limited), never trusted.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/atomic.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <popcorn/nodes.h>

#include "inject.h"
#include "kmsg_internal.h"
#include "trace.h"

static struct pcn_kmsg_type_desc pcn_kmsg_types[PCN_KMSG_TYPE_MAX];
static DEFINE_MUTEX(pcn_kmsg_lock);	/* registrations */
static LIST_HEAD(pcn_kmsg_transports);
static struct pcn_kmsg_transport *pcn_transport;	/* set once, at start */
static atomic_t pcn_kmsg_seq = ATOMIC_INIT(0);

/*
 * Requests are handled on a workqueue (see kmsg_rx.c for the queue of
 * each sending node).  64 handlers of one node at a time stay well
 * below the workqueue's concurrency; 4096 requests (16 MiB) may wait
 * behind them, far more than a node's threads have outstanding at once.
 */
#define PCN_KMSG_RX_RUNNING	64
#define PCN_KMSG_RX_PENDING	4096
#define PCN_KMSG_RX_BYTES	(16 << 20)
static struct workqueue_struct *pcn_kmsg_wq;
static struct pcn_kmsg_rx_queue pcn_kmsg_rx[POPCORN_MAX_NODES];

static const char * const pcn_drop_names[PCN_DROP_MAX] = {
	[PCN_DROP_NONE] = "none",
	[PCN_DROP_SHORT] = "short",
	[PCN_DROP_SIZE] = "size_mismatch",
	[PCN_DROP_TYPE] = "bad_type",
	[PCN_DROP_UNHANDLED] = "unhandled_type",
	[PCN_DROP_TYPE_SIZE] = "bad_size_for_type",
	[PCN_DROP_NID] = "bad_from_nid",
	[PCN_DROP_OFFLINE] = "node_offline",
	[PCN_DROP_PAGES] = "bad_pages",
	[PCN_DROP_WAIT] = "no_such_wait",
	[PCN_DROP_BACKLOG] = "backlog_full",
	[PCN_DROP_FRAME] = "bad_frame",
	[PCN_DROP_HANDSHAKE] = "refused_connection",
	[PCN_DROP_RX_FULL] = "rx_queue_full",
};

const char *pcn_kmsg_drop_name(enum pcn_kmsg_drop why)
{
	return why < PCN_DROP_MAX ? pcn_drop_names[why] : "unknown";
}

const char *pcn_kmsg_type_name(unsigned int type)
{
	if (type >= PCN_KMSG_TYPE_MAX || !READ_ONCE(pcn_kmsg_types[type].registered))
		return NULL;
	return pcn_kmsg_types[type].name;
}

const char *pcn_kmsg_type_limits(unsigned int type, u32 *min_size,
				 u32 *max_size, bool *request)
{
	const struct pcn_kmsg_type_desc *d;

	if (type >= PCN_KMSG_TYPE_MAX)
		return NULL;
	d = &pcn_kmsg_types[type];
	/* Pairs with smp_store_release() in pcn_kmsg_register(). */
	if (!smp_load_acquire(&d->registered))
		return NULL;
	*min_size = d->min_size;
	*max_size = d->max_size;
	*request = !!d->handler;
	return d->name;
}

static int pcn_kmsg_register(enum pcn_kmsg_type type, const char *name,
			     size_t min_size, size_t max_size,
			     pcn_kmsg_handler_t handler)
{
	struct pcn_kmsg_type_desc *d;
	int ret = 0;

	if (type >= PCN_KMSG_TYPE_MAX || min_size < sizeof(struct pcn_kmsg_hdr) ||
	    min_size > max_size || max_size > PCN_KMSG_MAX_SIZE)
		return -EINVAL;

	mutex_lock(&pcn_kmsg_lock);
	d = &pcn_kmsg_types[type];
	if (d->registered) {
		ret = -EBUSY;
	} else {
		d->name = name;
		d->min_size = min_size;
		d->max_size = max_size;
		d->handler = handler;
		/* Publish the fields before the flag receivers test. */
		smp_store_release(&d->registered, true);
	}
	mutex_unlock(&pcn_kmsg_lock);
	return ret;
}

int pcn_kmsg_register_handler(enum pcn_kmsg_type type, const char *name,
			      size_t min_size, size_t max_size,
			      pcn_kmsg_handler_t handler)
{
	if (!handler)
		return -EINVAL;
	return pcn_kmsg_register(type, name, min_size, max_size, handler);
}

int pcn_kmsg_register_response(enum pcn_kmsg_type type, const char *name,
			       size_t min_size, size_t max_size)
{
	return pcn_kmsg_register(type, name, min_size, max_size, NULL);
}

/**
 * pcn_kmsg_allow_pages() - let messages of a type end with pages of data
 * @type: a type registered before, by the caller
 * @max_pages: pages one message may carry, at most PCN_KMSG_MAX_PAGES
 *
 * Messages of other types that claim pages are dropped (bad_pages).
 * Called at boot, before the transport starts.
 *
 * Return: 0, or -EINVAL.
 */
int pcn_kmsg_allow_pages(enum pcn_kmsg_type type, unsigned int max_pages)
{
	if (type >= PCN_KMSG_TYPE_MAX || max_pages > PCN_KMSG_MAX_PAGES ||
	    !pcn_kmsg_types[type].registered ||
	    max_pages * PAGE_SIZE > pcn_kmsg_types[type].max_size -
				    sizeof(struct pcn_kmsg_hdr))
		return -EINVAL;
	WRITE_ONCE(pcn_kmsg_types[type].max_pages, max_pages);
	return 0;
}

/* A received message's table of pages, after its front part. */
static struct page **pcn_kmsg_page_table(struct pcn_kmsg_hdr *msg)
{
	return (void *)msg + ALIGN(pcn_kmsg_front_size(msg),
				   sizeof(struct page *));
}

/**
 * pcn_kmsg_alloc_pages() - fresh pages for page data, all or none
 * @pages: where to put them
 * @n: how many
 *
 * Not zeroed: the caller fills each before it is sent or passed on.
 * Such pages end up mapped in user space, so they are allocated as
 * anonymous memory is.
 *
 * Return: 0, or -ENOMEM with none allocated.
 */
int pcn_kmsg_alloc_pages(struct page **pages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_HIGHUSER_MOVABLE);
		if (!pages[i]) {
			while (i--)
				put_page(pages[i]);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Room for the front part and the page table of @hdr, @hdr copied in. */
static struct pcn_kmsg_hdr *pcn_kmsg_rx_alloc_front(const struct pcn_kmsg_hdr *hdr)
{
	unsigned int n = pcn_kmsg_rx_npages(hdr);
	size_t front = pcn_kmsg_front_size(hdr);
	struct pcn_kmsg_hdr *msg;

	msg = kvmalloc(n ? ALIGN(front, sizeof(struct page *)) +
			   n * sizeof(struct page *) : front, GFP_KERNEL);
	if (msg)
		memcpy(msg, hdr, sizeof(*hdr));
	return msg;
}

/**
 * pcn_kmsg_rx_alloc() - a buffer for a message about to be received
 * @hdr: its header, received already
 *
 * For a transport: room for the front part of the message, with @hdr
 * copied in, and when the header has pages (pcn_kmsg_rx_npages()) the
 * table of that many fresh pages, not zeroed: the transport fills the
 * front part and every page before it passes the message on.  Process
 * context.
 *
 * Return: the message (release it with pcn_kmsg_rx_free()), or NULL
 * without memory.
 */
struct pcn_kmsg_hdr *pcn_kmsg_rx_alloc(const struct pcn_kmsg_hdr *hdr)
{
	struct pcn_kmsg_hdr *msg = pcn_kmsg_rx_alloc_front(hdr);

	if (msg && pcn_kmsg_alloc_pages(pcn_kmsg_page_table(msg),
					pcn_kmsg_rx_npages(hdr))) {
		kvfree(msg);
		return NULL;
	}
	return msg;
}

/**
 * pcn_kmsg_rx_alloc_placed() - a buffer for a message whose pages are in
 *	place already
 * @hdr: its header, received already
 * @pages: the pages its data was placed in (pcn_kmsg_request_into()),
 *	at least pcn_kmsg_rx_npages(@hdr) of them
 *
 * As pcn_kmsg_rx_alloc(), but the table holds new references to @pages
 * instead of fresh pages.  Process context.
 *
 * Return: the message, or NULL without memory.
 */
struct pcn_kmsg_hdr *pcn_kmsg_rx_alloc_placed(const struct pcn_kmsg_hdr *hdr,
					      struct page **pages)
{
	struct pcn_kmsg_hdr *msg = pcn_kmsg_rx_alloc_front(hdr);
	unsigned int i;

	for (i = 0; msg && i < pcn_kmsg_rx_npages(hdr); i++) {
		get_page(pages[i]);
		pcn_kmsg_page_table(msg)[i] = pages[i];
	}
	return msg;
}

/**
 * pcn_kmsg_rx_free() - release a message of pcn_kmsg_rx_alloc()
 * @msg: the message, with the pages not taken over
 */
void pcn_kmsg_rx_free(struct pcn_kmsg_hdr *msg)
{
	unsigned int n = pcn_kmsg_rx_npages(msg), i;
	struct page **pages = pcn_kmsg_page_table(msg);

	for (i = 0; i < n; i++)
		if (pages[i])
			put_page(pages[i]);
	kvfree(msg);
}

/**
 * pcn_kmsg_page() - page @i of a received message
 * @msg: the message, validated (its type allows its pages)
 * @i: below msg->npages
 *
 * Return: the page, or NULL if taken over.
 */
struct page *pcn_kmsg_page(struct pcn_kmsg_hdr *msg, unsigned int i)
{
	if (WARN_ON_ONCE(i >= pcn_kmsg_rx_npages(msg)))
		return NULL;
	return pcn_kmsg_page_table(msg)[i];
}

/**
 * pcn_kmsg_take_page() - take over page @i of a received message
 * @msg: the message
 * @i: below msg->npages
 *
 * The caller gets the message's reference: the data arrived straight
 * into it, so it can be mapped as it is.
 *
 * Return: the page, or NULL if taken over before.
 */
struct page *pcn_kmsg_take_page(struct pcn_kmsg_hdr *msg, unsigned int i)
{
	struct page *page = pcn_kmsg_page(msg, i);

	if (page)
		pcn_kmsg_page_table(msg)[i] = NULL;
	return page;
}

/**
 * pcn_kmsg_check() - validate a received message
 * @hdr: the message, @len bytes of it were received
 * @len: bytes received
 * @conn_nid: node of the connection it came on
 * @types: table of registered types
 * @nr_types: entries in @types
 *
 * Pure function of its arguments, so KUnit can drive it.
 *
 * Return: PCN_DROP_NONE when the message may be dispatched, otherwise
 * the reason to drop it.
 */
enum pcn_kmsg_drop pcn_kmsg_check(const struct pcn_kmsg_hdr *hdr, size_t len,
				  int conn_nid,
				  const struct pcn_kmsg_type_desc *types,
				  unsigned int nr_types)
{
	const struct pcn_kmsg_type_desc *d;

	if (len < sizeof(*hdr))
		return PCN_DROP_SHORT;
	if (hdr->size != len)
		return PCN_DROP_SIZE;
	if (hdr->type >= nr_types)
		return PCN_DROP_TYPE;
	d = &types[hdr->type];
	/* Pairs with smp_store_release() in pcn_kmsg_register(). */
	if (!smp_load_acquire(&d->registered))
		return PCN_DROP_UNHANDLED;
	if (hdr->size < d->min_size || hdr->size > d->max_size)
		return PCN_DROP_TYPE_SIZE;
	if (hdr->from_nid != conn_nid)
		return PCN_DROP_NID;
	/* The type's fields come before the pages. */
	if (hdr->npages && (hdr->npages > READ_ONCE(d->max_pages) ||
			    pcn_kmsg_rx_npages(hdr) != hdr->npages ||
			    pcn_kmsg_front_size(hdr) < d->min_size))
		return PCN_DROP_PAGES;
	return PCN_DROP_NONE;
}

void pcn_kmsg_count_drop(enum pcn_kmsg_drop why)
{
	pcn_stat_drop(why);
}

static void pcn_kmsg_release(struct pcn_kmsg_hdr *msg)
{
	struct pcn_kmsg_transport *t = READ_ONCE(pcn_transport);

	if (t)
		t->done(msg);
	else
		pcn_kmsg_rx_free(msg);
}

void pcn_kmsg_done(void *msg)
{
	if (msg)
		pcn_kmsg_release(msg);
}

static void pcn_kmsg_drop(int nid, struct pcn_kmsg_hdr *msg, size_t len,
			  enum pcn_kmsg_drop why)
{
	pcn_stat_drop(why);
	trace_pcn_msg_dropped(nid, len >= sizeof(*msg) ? msg->type : 0, len,
			      pcn_kmsg_drop_name(why));
	pr_warn_ratelimited("dropped message from node %d: %s (type %u, size %u, %zu bytes)\n",
			    nid, pcn_kmsg_drop_name(why),
			    len >= sizeof(*msg) ? msg->type : 0,
			    len >= sizeof(*msg) ? msg->size : 0, len);
	pcn_kmsg_release(msg);
}

static void pcn_kmsg_work_fn(struct work_struct *work)
{
	struct pcn_kmsg_rx_item *it, *next;

	it = container_of(work, struct pcn_kmsg_rx_item, work);
	/*
	 * A request that waited past the end of its node's session is
	 * stale: the node's state here was reset when it went offline.
	 */
	if (it->waited && (!pcn_node_online(it->nid) ||
			   pcn_node_generation(it->nid) != it->gen))
		pcn_kmsg_drop(it->nid, it->msg, it->len, PCN_DROP_OFFLINE);
	else
		it->handler(it->nid, it->msg);
	next = pcn_kmsg_rx_next(&pcn_kmsg_rx[it->nid]);
	kfree(it);
	if (next)
		queue_work(pcn_kmsg_wq, &next->work);
}

void pcn_kmsg_process(int nid, struct pcn_kmsg_hdr *msg, size_t len)
{
	enum pcn_kmsg_drop why;
	struct pcn_kmsg_rx_item *it;
	pcn_kmsg_handler_t handler;

	if (!pcn_nid_valid(nid) || nid == pcn_my_nid()) {
		/* A transport bug, not a peer's doing. */
		WARN_ONCE(1, "popcorn: message on a connection to node %d\n", nid);
		pcn_kmsg_release(msg);
		return;
	}

	why = pcn_kmsg_check(msg, len, nid, pcn_kmsg_types, PCN_KMSG_TYPE_MAX);
	if (why == PCN_DROP_NONE && !pcn_node_online(nid))
		why = PCN_DROP_OFFLINE;
	if (why != PCN_DROP_NONE) {
		pcn_kmsg_drop(nid, msg, len, why);
		return;
	}
	pcn_stat_recv(msg->type, len);
	pcn_stat_pages_received(msg->npages);
	trace_pcn_msg_received(nid, msg->type, len, 0);
	pcn_inject_msglog(PCN_MSGLOG_RECEIVED, msg, pcn_kmsg_front_size(msg),
			  pcn_kmsg_page_table(msg), pcn_kmsg_rx_npages(msg));

	handler = pcn_kmsg_types[msg->type].handler;
	if (!handler) {
		if (pcn_kmsg_wait_complete(nid, msg))
			pcn_kmsg_drop(nid, msg, len, PCN_DROP_WAIT);
		return;
	}

	it = kmalloc(sizeof(*it), GFP_KERNEL);
	if (!it) {
		pcn_kmsg_drop(nid, msg, len, PCN_DROP_RX_FULL);
		return;
	}
	INIT_WORK(&it->work, pcn_kmsg_work_fn);
	it->nid = nid;
	it->gen = pcn_node_generation(nid);
	it->len = len;
	it->msg = msg;
	it->handler = handler;
	it->waited = false;
	switch (pcn_kmsg_rx_admit(&pcn_kmsg_rx[nid], it)) {
	case PCN_RX_RUN:
		queue_work(pcn_kmsg_wq, &it->work);
		break;
	case PCN_RX_QUEUED:	/* a handler that ends hands it out */
		break;
	case PCN_RX_FULL:
		kfree(it);
		pcn_kmsg_drop(nid, msg, len, PCN_DROP_RX_FULL);
		break;
	}
}

/*
 * Fill in the header of an outgoing message of @size bytes, the last
 * @npages pages of them; 0 or -errno.
 */
static int pcn_kmsg_prepare(int nid, struct pcn_kmsg_hdr *hdr, size_t size,
			    unsigned int npages)
{
	if (!pcn_transport)
		return -ENODEV;
	if (!pcn_nid_valid(nid) || nid == pcn_my_nid())
		return -EINVAL;
	if (size < sizeof(*hdr) || hdr->type >= PCN_KMSG_TYPE_MAX)
		return -EINVAL;
	if (size > pcn_transport->max_size)
		return -EMSGSIZE;
	if (!pcn_node_online(nid))
		return -EAGAIN;
	if (npages > PCN_KMSG_MAX_PAGES ||
	    size < sizeof(*hdr) + npages * PAGE_SIZE)
		return -EINVAL;
	hdr->size = size;
	hdr->from_nid = pcn_my_nid();
	hdr->npages = npages;
	hdr->seq = atomic_inc_return(&pcn_kmsg_seq);
	return 0;
}

int pcn_kmsg_send(int nid, void *msg, size_t size)
{
	return pcn_kmsg_send_pages(nid, msg, size, NULL, 0);
}

/* No send_pages in the transport: one buffer, the pages copied in. */
static int pcn_kmsg_send_copied(int nid, struct pcn_kmsg_hdr *hdr,
				size_t size, struct page **pages,
				unsigned int npages)
{
	void *buf = kvmalloc(hdr->size, GFP_KERNEL);
	unsigned int i;
	int ret;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, hdr, size);
	for (i = 0; i < npages; i++)
		memcpy_from_page(buf + size + i * PAGE_SIZE, pages[i], 0,
				 PAGE_SIZE);
	ret = pcn_transport->send(nid, buf, hdr->size);
	kvfree(buf);
	return ret;
}

/**
 * pcn_kmsg_send_pages() - send a message that ends with pages of data
 * @nid: the node
 * @msg: the message's front part, header first (the caller keeps it)
 * @size: bytes of the front part
 * @pages: the pages whose data follow it
 * @npages: how many, at most PCN_KMSG_MAX_PAGES
 *
 * The caller keeps its references to @pages and must not write to them
 * again: the transport may send from them after this returns (it holds
 * references of its own).  May sleep.
 *
 * Return: 0, or -errno as pcn_kmsg_send().
 */
int pcn_kmsg_send_pages(int nid, void *msg, size_t size, struct page **pages,
			unsigned int npages)
{
	return __pcn_kmsg_send(nid, msg, size, pages, npages, NULL, 0, false);
}

/*
 * Send @msg (@size bytes of front part, then @npages @pages of data).
 * @place/@nplace: pages prepared for the response to this request
 * (->send_request); @reply: @msg answers the request of its wait_id
 * (->reply_pages may place its pages where that request said).
 */
int __pcn_kmsg_send(int nid, struct pcn_kmsg_hdr *hdr, size_t size,
		    struct page **pages, unsigned int npages,
		    struct page **place, unsigned int nplace, bool reply)
{
	struct pcn_kmsg_transport *t = pcn_transport;
	size_t total = size + npages * PAGE_SIZE;
	int ret = pcn_kmsg_prepare(nid, hdr, total, npages);

	if (ret)
		return ret;
	/* Test hook: a transport that lost the message. */
	if (pcn_inject_fail_send(hdr->type))
		return -EIO;
	if (nplace && !npages)
		ret = t->send_request(nid, hdr, size, place, nplace);
	else if (reply && t->reply_pages)
		ret = t->reply_pages(nid, hdr, size, pages, npages);
	else if (!npages)
		ret = t->send(nid, hdr, size);
	else if (t->send_pages)
		ret = t->send_pages(nid, hdr, size, pages, npages);
	else
		ret = pcn_kmsg_send_copied(nid, hdr, size, pages, npages);
	trace_pcn_msg_sent(nid, hdr->type, total, ret);
	if (!ret) {
		pcn_stat_sent(hdr->type, total);
		pcn_stat_pages_sent(npages, !!pcn_transport->send_pages);
		pcn_inject_msglog(PCN_MSGLOG_SENT, hdr, size, pages, npages);
	}
	return ret;
}

int pcn_kmsg_reply(int nid, const struct pcn_kmsg_hdr *req, void *resp,
		   size_t size)
{
	((struct pcn_kmsg_hdr *)resp)->wait_id = req->wait_id;
	return __pcn_kmsg_send(nid, resp, size, NULL, 0, NULL, 0, true);
}

/**
 * pcn_kmsg_reply_pages() - answer a request with a message that ends
 * with pages of data
 * @nid: the requester
 * @req: its request
 * @resp: the answer's front part, type set by the caller
 * @size: bytes of the front part
 * @pages: the pages, as pcn_kmsg_send_pages() takes them
 * @npages: how many
 *
 * Return: 0, or -errno as pcn_kmsg_send().
 */
int pcn_kmsg_reply_pages(int nid, const struct pcn_kmsg_hdr *req, void *resp,
			 size_t size, struct page **pages,
			 unsigned int npages)
{
	((struct pcn_kmsg_hdr *)resp)->wait_id = req->wait_id;
	return __pcn_kmsg_send(nid, resp, size, pages, npages, NULL, 0, true);
}

int pcn_kmsg_register_transport(struct pcn_kmsg_transport *t)
{
	if (!t->name || !t->send || !t->done || !t->parse_addr ||
	    !t->send_request != !t->request_end ||
	    t->max_size < PCN_KMSG_MIN_SIZE_LIMIT ||
	    t->max_size > PCN_KMSG_MAX_SIZE)
		return -EINVAL;
	mutex_lock(&pcn_kmsg_lock);
	list_add_tail(&t->list, &pcn_kmsg_transports);
	mutex_unlock(&pcn_kmsg_lock);
	return 0;
}

void pcn_kmsg_unregister_transport(struct pcn_kmsg_transport *t)
{
	mutex_lock(&pcn_kmsg_lock);
	/* The active transport is built in and stays. */
	if (!WARN_ON(t == pcn_transport))
		list_del(&t->list);
	mutex_unlock(&pcn_kmsg_lock);
}

/**
 * pcn_kmsg_max_size() - the largest message the active transport carries
 *
 * Return: its max_size, or PCN_KMSG_MAX_SIZE before one is active.
 */
size_t pcn_kmsg_max_size(void)
{
	struct pcn_kmsg_transport *t = READ_ONCE(pcn_transport);

	return t ? t->max_size : PCN_KMSG_MAX_SIZE;
}

struct pcn_kmsg_transport *pcn_kmsg_active_transport(void)
{
	return pcn_transport;
}

bool pcn_kmsg_can_place(void)
{
	struct pcn_kmsg_transport *t = READ_ONCE(pcn_transport);

	return t && t->send_request;
}

const char *pcn_kmsg_transport_name(void)
{
	return pcn_transport ? pcn_transport->name : "none";
}

/* The registered transport called @name, or NULL. */
struct pcn_kmsg_transport *pcn_kmsg_find_transport(const char *name)
{
	struct pcn_kmsg_transport *t, *found = NULL;

	mutex_lock(&pcn_kmsg_lock);
	list_for_each_entry(t, &pcn_kmsg_transports, list) {
		if (!strcmp(t->name, name)) {
			found = t;
			break;
		}
	}
	mutex_unlock(&pcn_kmsg_lock);
	return found;
}

/* Start transport @t; done once, at boot, after the node table is set. */
int pcn_kmsg_start(struct pcn_kmsg_transport *t)
{
	int i, ret;

	pcn_kmsg_wq = alloc_workqueue("pcn_kmsg", WQ_UNBOUND, WQ_MAX_ACTIVE);
	if (!pcn_kmsg_wq)
		return -ENOMEM;
	for (i = 0; i < POPCORN_MAX_NODES; i++)
		pcn_kmsg_rx_init(&pcn_kmsg_rx[i], PCN_KMSG_RX_RUNNING,
				 PCN_KMSG_RX_PENDING, PCN_KMSG_RX_BYTES);

	if (!try_module_get(t->owner)) {
		ret = -ENOENT;
		goto out_wq;
	}
	WRITE_ONCE(pcn_transport, t);
	ret = t->start ? t->start() : 0;
	if (!ret) {
		ret = pcn_kmsg_dial_start(t);
		if (!ret)
			return 0;
		if (t->stop)
			t->stop();
	}
	WRITE_ONCE(pcn_transport, NULL);
	module_put(t->owner);
out_wq:
	destroy_workqueue(pcn_kmsg_wq);
	pcn_kmsg_wq = NULL;
	return ret;
}
