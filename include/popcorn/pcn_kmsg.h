/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn messaging core: message format, handler registration, the
 * send/post/get/put/done API, request/response waits, and the ops table
 * a transport registers.  The core knows no transport.
 *
 * Every message starts with struct pcn_kmsg_hdr.  All nodes are x86-64,
 * so the header is in host (little-endian) byte order.
 */
#ifndef _POPCORN_PCN_KMSG_H
#define _POPCORN_PCN_KMSG_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/types.h>

struct pcn_node_addr;
struct seq_file;

enum pcn_kmsg_type {
	PCN_KMSG_TYPE_PING_REQUEST,
	PCN_KMSG_TYPE_PING_RESPONSE,
	PCN_KMSG_TYPE_PROCESS_CREATE,	/* origin -> remote: make a worker */
	PCN_KMSG_TYPE_PROCESS_CREATED,	/* remote -> origin: its answer */
	PCN_KMSG_TYPE_PROCESS_EXIT,	/* origin -> remote: process gone */
	PCN_KMSG_TYPE_TASK_MIGRATE,	/* origin -> remote: run this thread */
	PCN_KMSG_TYPE_TASK_MIGRATED,	/* remote -> origin: its answer */
	PCN_KMSG_TYPE_TASK_BACK,	/* remote -> origin: thread comes back */
	PCN_KMSG_TYPE_TASK_EXIT,	/* remote -> origin: thread exited */
	PCN_KMSG_TYPE_TASK_SIGNAL,	/* origin -> remote: deliver a signal */
	PCN_KMSG_TYPE_VMA_REQUEST,	/* remote -> origin: VMA at an address */
	PCN_KMSG_TYPE_VMA_RESPONSE,
	PCN_KMSG_TYPE_VMA_OP,		/* remote -> origin: mmap, munmap, ... */
	PCN_KMSG_TYPE_VMA_OP_DONE,
	PCN_KMSG_TYPE_PAGE_REQUEST,	/* remote -> origin: a copy of a page */
	PCN_KMSG_TYPE_PAGE_GRANT,
	PCN_KMSG_TYPE_PAGE_INVALIDATE,	/* origin -> remote: drop a page */
	PCN_KMSG_TYPE_PAGE_INVALIDATED,
	PCN_KMSG_TYPE_FILE_WRITE,	/* remote -> origin: write(fd, data) */
	PCN_KMSG_TYPE_FILE_WRITE_DONE,
	PCN_KMSG_TYPE_FUTEX,		/* remote -> origin: a futex operation */
	PCN_KMSG_TYPE_FUTEX_DONE,
	PCN_KMSG_TYPE_VMA_DROP,		/* origin -> remote: VMAs changed */
	PCN_KMSG_TYPE_VMA_DROPPED,
	PCN_KMSG_TYPE_SYSCALL,		/* remote -> origin: any system call */
	PCN_KMSG_TYPE_SYSCALL_DONE,
	PCN_KMSG_TYPE_SYSCALL_INTR,	/* remote -> origin: interrupt it */
	PCN_KMSG_TYPE_TASK_PROPOSE,	/* origin -> remote: migrate this one */
	PCN_KMSG_TYPE_TASK_CPUTIME,	/* remote -> origin: CPU time used */
	PCN_KMSG_TYPE_PROCESS_LEAVE,	/* remote -> origin: take all back */
	PCN_KMSG_TYPE_PROCESS_LEFT,	/* origin -> remote: its answer */
	PCN_KMSG_TYPE_PROCESS_FILTER,	/* origin -> remote: seccomp filter on */
	PCN_KMSG_TYPE_PROCESS_FILTERED,	/* remote -> origin: its answer */
	PCN_KMSG_TYPE_MAX
};

struct pcn_kmsg_hdr {
	u32 size;	/* whole message, header and pages included */
	u16 type;	/* enum pcn_kmsg_type */
	u8 from_nid;	/* sender, must match the connection's node */
	u8 npages;	/* pages of data that end the message, see below */
	u32 seq;	/* per-node send sequence */
	u32 wait_id;	/* request: sender's wait id; response: echoed */
} __packed;

/*
 * Size limit: a header, up to 64 KiB of data (a page set, a ping
 * payload) and up to PCN_KMSG_MAX_FIELDS bytes of the type's own fields.
 */
#define PCN_KMSG_MAX_PAYLOAD	(64 * 1024)
#define PCN_KMSG_MAX_FIELDS	64
#define PCN_KMSG_MAX_SIZE	(sizeof(struct pcn_kmsg_hdr) + \
				 PCN_KMSG_MAX_FIELDS + PCN_KMSG_MAX_PAYLOAD)

/*
 * Page data by reference.  A message may end with hdr.npages whole pages
 * of data (at most PCN_KMSG_MAX_PAGES, counted in hdr.size), for the
 * types registered to carry them.  The sender hands them over as struct
 * pages (pcn_kmsg_send_pages()), and a transport that can sends them
 * from the pages and receives them into fresh pages, so page data is
 * copied once on each side: out of the page it was in, and from the
 * network into the page that is then mapped.
 *
 * A received message with pages is, in memory, its front part (hdr.size
 * less the pages) in one buffer followed by a table of the pages:
 * pcn_kmsg_page() reads one, pcn_kmsg_take_page() takes one over (to map
 * it).  The table follows only a header of a valid shape (at most
 * PCN_KMSG_MAX_PAGES, all within hdr.size): pcn_kmsg_rx_npages().
 */
#define PCN_KMSG_MAX_PAGES	(PCN_KMSG_MAX_PAYLOAD / PAGE_SIZE)

/* Pages a received message of this header has in its page table. */
static inline unsigned int pcn_kmsg_rx_npages(const struct pcn_kmsg_hdr *hdr)
{
	if (hdr->npages > PCN_KMSG_MAX_PAGES ||
	    hdr->size < sizeof(*hdr) + hdr->npages * PAGE_SIZE)
		return 0;
	return hdr->npages;
}

/* Bytes of the message before its pages (all of it without pages). */
static inline size_t pcn_kmsg_front_size(const struct pcn_kmsg_hdr *hdr)
{
	return hdr->size - pcn_kmsg_rx_npages(hdr) * PAGE_SIZE;
}

int pcn_kmsg_alloc_pages(struct page **pages, unsigned int n);
struct pcn_kmsg_hdr *pcn_kmsg_rx_alloc(const struct pcn_kmsg_hdr *hdr);
struct pcn_kmsg_hdr *pcn_kmsg_rx_alloc_placed(const struct pcn_kmsg_hdr *hdr,
					      struct page **pages);
void pcn_kmsg_rx_free(struct pcn_kmsg_hdr *msg);
struct page *pcn_kmsg_page(struct pcn_kmsg_hdr *msg, unsigned int i);
struct page *pcn_kmsg_take_page(struct pcn_kmsg_hdr *msg, unsigned int i);
int pcn_kmsg_allow_pages(enum pcn_kmsg_type type, unsigned int max_pages);

/*
 * A request handler gets a received message and must release it with
 * pcn_kmsg_done().  It runs in process context on the core's workqueue,
 * so it may sleep and send.
 */
typedef void (*pcn_kmsg_handler_t)(int from_nid, struct pcn_kmsg_hdr *msg);

int pcn_kmsg_register_handler(enum pcn_kmsg_type type, const char *name,
			      size_t min_size, size_t max_size,
			      pcn_kmsg_handler_t handler);
/* A response type: messages are matched to the wait named by wait_id. */
int pcn_kmsg_register_response(enum pcn_kmsg_type type, const char *name,
			       size_t min_size, size_t max_size);
/* Types stay registered for the kernel's lifetime: there is no unregister. */

/* Send a copy of @msg (the caller keeps it).  May sleep. */
int pcn_kmsg_send(int nid, void *msg, size_t size);
int pcn_kmsg_send_pages(int nid, void *msg, size_t size, struct page **pages,
			unsigned int npages);
/* Release a received message. */
void pcn_kmsg_done(void *msg);

/*
 * Send request @req to @nid and wait for its response of @resp_type.
 * Returns 0 with *@resp set (release it with pcn_kmsg_done()), or
 * -ETIMEDOUT, -EHOSTDOWN when @nid goes offline meanwhile, -EAGAIN when
 * it is offline, or another error of the send.
 */
int pcn_kmsg_request(int nid, void *req, size_t size,
		     enum pcn_kmsg_type resp_type, unsigned long timeout,
		     struct pcn_kmsg_hdr **resp);
/*
 * The same, for a request that may take as long as the caller's own
 * system call (a futex wait): no timeout, ended by a fatal signal with
 * -EINTR.
 */
int pcn_kmsg_request_killable(int nid, void *req, size_t size,
			      enum pcn_kmsg_type resp_type,
			      struct pcn_kmsg_hdr **resp);
/*
 * A request in flight, for pcn_kmsg_request_begin()/_end(): requests to
 * several nodes at once.  The fields are the core's (wait.c).
 */
struct pcn_kmsg_wait {
	struct completion done;
	struct pcn_kmsg_hdr *resp;
	int error;
	u32 id;
	int nid;
	u16 resp_type;
	bool placing;		/* the transport holds pages for it */
	bool answered;		/* done was waited for already */
};

/*
 * Page data placed by the peer.  A requester that will map the pages of
 * the response (a page grant) may prepare them: fresh pages, passed
 * with the request.  A transport that can (->send_request: RDMA) has
 * the responder write the response's pages straight into them, with a
 * token (a registration of the pages) it carries in the request, and
 * the response arrives with them in its page table: the data is copied
 * zero times on the requester's side.  Otherwise the prepared pages are
 * left unused.
 */
int pcn_kmsg_request_into(int nid, void *req, size_t size,
			  enum pcn_kmsg_type resp_type, struct page **pages,
			  unsigned int npages, struct pcn_kmsg_hdr **resp);
/* Whether the active transport places page data (worth preparing). */
bool pcn_kmsg_can_place(void);

int pcn_kmsg_request_begin(struct pcn_kmsg_wait *w, int nid, void *req,
			   size_t size, enum pcn_kmsg_type resp_type);
int pcn_kmsg_request_end(struct pcn_kmsg_wait *w, unsigned long deadline,
			 struct pcn_kmsg_hdr **resp);
int pcn_kmsg_request_end_killable(struct pcn_kmsg_wait *w,
				  struct pcn_kmsg_hdr **resp);
int pcn_kmsg_request_wait_interruptible(struct pcn_kmsg_wait *w);
int pcn_kmsg_request_nodes(const unsigned long *nodes, void *req,
			   size_t size, enum pcn_kmsg_type resp_type,
			   unsigned long timeout,
			   void (*failed)(int nid, int err, void *arg),
			   void *arg);
/* Answer request @req with @resp (type and size set by the caller). */
int pcn_kmsg_reply(int nid, const struct pcn_kmsg_hdr *req, void *resp,
		   size_t size);
int pcn_kmsg_reply_pages(int nid, const struct pcn_kmsg_hdr *req, void *resp,
			 size_t size, struct page **pages,
			 unsigned int npages);

/* ---- transports ---------------------------------------------------- */

/*
 * A transport's ops table.  The core calls ->start once, at boot, and
 * then ->connect from its dialer threads (kernel/popcorn/kmsg_dial.c:
 * the node with the higher id dials, with backoff, and dials again
 * when the node goes offline); the transport accepts the connections
 * of higher ids itself.  Per-peer connection state is the transport's
 * own, found by node id; it reports each connection's life to
 * membership (pcn_node_event()).
 */
struct pcn_kmsg_transport {
	const char *name;
	struct module *owner;		/* pinned while it is the active one */
	/*
	 * Largest message it carries, header and pages included: from
	 * PCN_KMSG_MIN_SIZE_LIMIT to PCN_KMSG_MAX_SIZE (a ring slot, a
	 * receive buffer).  Larger messages fail with -EMSGSIZE, and the
	 * page servers size their batches to it (pcn_kmsg_max_size()).
	 */
	size_t max_size;

	/*
	 * Parse one entry of pcn.nodes= (@len characters at @s, not
	 * NUL-terminated) into @addr, which is zeroed.  Return 0, or
	 * -EINVAL for text that is not an address the transport can use
	 * (a loopback or broadcast address, say).  Called at boot, before
	 * ->start, on the transport pcn.transport= names.
	 */
	int (*parse_addr)(const char *s, size_t len,
			  struct pcn_node_addr *addr);
	/*
	 * Optional: whether @addr is one of this node's own, so that the
	 * node finds its id when pcn.nid= is not given.
	 */
	bool (*addr_is_local)(const struct pcn_node_addr *addr);
	/*
	 * Set up what the peers of the node table need (listen for the
	 * higher ids); on error, undo.  Process context, once, at boot.
	 */
	int (*start)(void);
	/*
	 * Optional: undo ->start and end every connection, after the
	 * core stopped its dialers (when Popcorn fails to start).
	 */
	void (*stop)(void);
	/*
	 * Optional: connect to node @nid, a lower id, once: set up a
	 * connection, run the handshake (include/popcorn/auth.h) and
	 * attach it, so that the node is online when this returns 0.
	 * Waits first, within its time limits, for the node's previous
	 * connection to be released.  Called from the core's dialer
	 * thread of @nid, which retries on error; process context, may
	 * sleep for as long as the transport's handshake time limits.
	 * Without it the transport keeps its connections up itself.
	 */
	int (*connect)(int nid);
	/* Send @size bytes of @msg to @nid, framed; the caller keeps @msg. */
	int (*send)(int nid, struct pcn_kmsg_hdr *msg, size_t size);
	/*
	 * Optional, with ->request_end: send request @msg (@size bytes, no
	 * pages, its wait_id set) and let the peer write the first
	 * @npages pages of data of its response straight into @pages
	 * (fresh, the requester's).  A response so placed reaches
	 * pcn_kmsg_process() with @pages (newly referenced) as its page
	 * table.  On success the core calls ->request_end once, however
	 * the wait ends; on error the transport has undone everything.
	 */
	int (*send_request)(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			    struct page **pages, unsigned int npages);
	/*
	 * The wait of request @wait_id to @nid ended.  Return true when
	 * a response with placed pages can no longer change (the peer
	 * cannot write into them any more), false when that could not
	 * be made sure (the core then drops the response).  Either way
	 * the requester's own references to the pages are its own
	 * again.  Process context, may sleep.
	 */
	bool (*request_end)(int nid, u32 wait_id);
	/*
	 * Optional: as ->send_pages, for every response, with or without
	 * pages (@msg->wait_id names the request): the pages may be
	 * placed where the request asked.
	 */
	int (*reply_pages)(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			   struct page **pages, unsigned int npages);
	/*
	 * Optional: send the @size bytes at @msg followed by the data of
	 * @npages pages (msg->size covers both).  The caller keeps @msg
	 * and its references to the pages, and does not write to them
	 * again: a transport may keep references and send from them after
	 * it returns.  Without it the core copies them into one buffer.
	 */
	int (*send_pages)(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			  struct page **pages, unsigned int npages);
	/*
	 * End the connection of @nid, so that both nodes see it go
	 * offline (a message that had to arrive was lost); the release
	 * follows asynchronously.  Process context, may sleep; optional,
	 * but without it such a loss leaves the peer's waits to their own
	 * time-outs, if any.
	 */
	void (*disconnect)(int nid);
	/*
	 * Release a message the transport passed to pcn_kmsg_process()
	 * (with its pages, if it has any).  Called in process context,
	 * from a handler, a waiter or the transport's own receive path.
	 */
	void (*done)(struct pcn_kmsg_hdr *msg);
	/* Optional: transport lines of /proc/popcorn_stat. */
	void (*show_stats)(struct seq_file *seq);
	void (*reset_stats)(void);

	struct list_head list;
};

/*
 * The smallest limit a transport may have: a header, the largest fields
 * of a type (a revocation's answer for PCN_INVAL_MAX pages) and a page.
 */
#define PCN_KMSG_MIN_SIZE_LIMIT	(8192 + PAGE_SIZE)

int pcn_kmsg_register_transport(struct pcn_kmsg_transport *t);
size_t pcn_kmsg_max_size(void);
void pcn_kmsg_unregister_transport(struct pcn_kmsg_transport *t);

/*
 * Called by a transport for every message received on the connection of
 * node @nid: @len bytes at @msg, at least a header; a message with pages
 * (pcn_kmsg_rx_npages()) in the layout of pcn_kmsg_rx_alloc().  The core validates
 * it and releases it through ->done when it is rejected or handled.
 */
void pcn_kmsg_process(int nid, struct pcn_kmsg_hdr *msg, size_t len);

/* Why a received message was dropped (counted in /proc/popcorn_stat). */
enum pcn_kmsg_drop {
	PCN_DROP_NONE,
	PCN_DROP_SHORT,		/* shorter than a header */
	PCN_DROP_SIZE,		/* header size differs from the bytes received */
	PCN_DROP_TYPE,		/* type out of range */
	PCN_DROP_UNHANDLED,	/* no handler for the type */
	PCN_DROP_TYPE_SIZE,	/* size not what the type needs */
	PCN_DROP_NID,		/* from_nid is not the connection's node */
	PCN_DROP_OFFLINE,	/* node not online */
	PCN_DROP_PAGES,		/* pages a message of its type cannot have */
	PCN_DROP_WAIT,		/* response to no (or another node's) wait */
	PCN_DROP_BACKLOG,	/* too many requests of this node queued */
	PCN_DROP_FRAME,		/* transport: unframeable input, link reset */
	PCN_DROP_HANDSHAKE,	/* transport: refused peer or handshake */
	PCN_DROP_RX_FULL,	/* too many requests of this node waiting */
	PCN_DROP_MAX
};

/* Lets a transport count input it rejected before pcn_kmsg_process(). */
void pcn_kmsg_count_drop(enum pcn_kmsg_drop why);

#endif /* _POPCORN_PCN_KMSG_H */
