/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the two sides of the page protocol: page_server.c (the
 * origin, home of every page) and page_client.c (a remote node).
 */
#ifndef _POPCORN_PAGE_H
#define _POPCORN_PAGE_H

#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

/*
 * Requests and invalidations that cannot get an answer in this time
 * fail; the ones that stand for a thread's fault wait until the origin
 * answers or goes offline.
 */
#define PCN_PAGE_TIMEOUT	(10 * HZ)

#define PCN_GRANT_HDR		sizeof(struct pcn_page_grant)

/* pcn_page_req.flags */
#define PCN_PAGE_WRITE		BIT(0)	/* exclusive ownership wanted */
#define PCN_PAGE_WAIT		BIT(1)	/* wait for a busy page, no -EAGAIN */
/*
 * A read: read copies of up to this many following pages wanted too.
 * A write: the untouched pages among them (messages.h), writable.
 */
#define PCN_PAGE_EXTRA		GENMASK(15, 8)
/* A read: an untouched page may be given for writing (page_server.c). */
#define PCN_PAGE_UPGRADE	BIT(2)
#define PCN_PAGE_FLAGS		(PCN_PAGE_WRITE | PCN_PAGE_WAIT | \
				 PCN_PAGE_UPGRADE | PCN_PAGE_EXTRA)

/*
 * A fault handle: the one operation in progress on one page of a
 * distributed process, in ctx->faults under the page's index; later
 * comers wait for it instead of starting their own.
 *
 * At the origin it is held by the task changing the page's ownership
 * (an origin thread's fault or a remote's request), and @done completes
 * when it lets go.  At a remote it is the request in flight for the page
 * (PCN_F_WAITING), then its answer (PCN_F_ANSWERED, @done completes)
 * until a faulting thread installs it (PCN_F_INSTALLING) or an
 * invalidation takes it over.
 */
enum pcn_fault_state {
	PCN_F_WAITING,
	PCN_F_ANSWERED,
	PCN_F_INSTALLING,
	PCN_F_GONE,
};

struct pcn_fault {
	refcount_t ref;
	struct rcu_head rcu;
	struct completion done;
	struct task_struct *owner;	/* origin: the holder */
	enum pcn_fault_state state;	/* remote, under the xa_lock */
	/*
	 * Remote, under the xa_lock: the version of the newest VMA_DROP
	 * of its page since it was asked for, or 0.  An answer given
	 * before that drop is for the old mapping (pcn_fault_stale()).
	 */
	u64 dropped;
	int drops;			/* remote: ctx->vma_drops when asked */
	int error;			/* remote: of the request */
	struct pcn_page_grant *grant;	/* remote: the answer, a message */
};

struct pcn_fault *pcn_fault_alloc(void);
void pcn_fault_put(struct pcn_fault *f);

bool pcn_vma_distributable(struct vm_area_struct *vma);
/* The PTE of @addr, with the page table lock (*@ptl) held, or NULL. */
pte_t *pcn_pte_lock(struct mm_struct *mm, unsigned long addr,
		    spinlock_t **ptl);	/* the page table lock, out */
int pcn_take_pte(struct vm_area_struct *vma, unsigned long addr, void *buf,
		 bool zap);
vm_fault_t pcn_install_page(struct vm_area_struct *vma, unsigned long addr,
			    struct page *page, bool writable,
			    struct remote_context *rctx, u64 version);

/* pcn.prefetch: following pages one read grant may carry at most. */
unsigned int pcn_prefetch_max(void);

/*
 * Remote: forget page @idx's untouched note if it is no newer than grant
 * @version.  Process context; takes the note xarray's lock, so it may be
 * called under the page table lock.
 */
void pcn_untouched_forget(struct remote_context *rctx, unsigned long idx,
			  u64 version);

/*
 * No page has ever been mapped at @addr of @mm: no page table, or a
 * PTE that is none.  Called with the mmap lock held.
 */
bool pcn_pte_untouched(struct mm_struct *mm, unsigned long addr);

/* Untouched pages one write grant may name, in messages of @max bytes. */
static inline unsigned int pcn_grant_untouched_limit(size_t max)
{
	unsigned int n = PCN_UNTOUCHED_MAX;

	while (n && PCN_GRANT_UNTOUCHED_SIZE(n) > max)
		n--;
	return n;
}

/*
 * Read copies one grant may carry, and pages of data one answer to a
 * revocation may carry, in messages of at most @max bytes (the active
 * transport's pcn_kmsg_max_size(), at least PCN_KMSG_MIN_SIZE_LIMIT:
 * one page of data always fits).
 */
static inline unsigned int pcn_grant_extra_limit(size_t max)
{
	unsigned int n = PCN_PREFETCH_MAX;

	while (n && PCN_GRANT_SIZE(n) > max)
		n--;
	return n;
}

static inline unsigned int pcn_inval_data_limit(size_t max)
{
	unsigned int n = PCN_INVAL_DATA_MAX;

	while (n > 1 && PCN_INVAL_ACK_SIZE(PCN_INVAL_MAX, n) > max)
		n--;
	return n;
}

/*
 * A revocation (page_revoke.c): pages whose remote copies the origin
 * takes back, every holder asked at once.
 */
struct pcn_revoke_page {
	unsigned long addr;
	unsigned long holders;	/* nodes asked to drop their copy */
	int data_nid;		/* the holder whose data is wanted, or -1 */
	int error;		/* outcome, after pcn_revoke_run() */
	u64 version;		/* of this invalidation */
	u64 grant;		/* data_nid's write grant, to wait for */
	struct page *page;	/* data_nid's data, taken over by the caller */
};

struct pcn_revoke {
	struct remote_context *ctx;
	unsigned int n, max, ndata;
	unsigned int max_data;	/* pcn_inval_data_limit() of the transport */
	struct pcn_kmsg_wait wait[POPCORN_MAX_NODES];
	struct pcn_revoke_page page[];
};

struct pcn_revoke *pcn_revoke_alloc(struct remote_context *ctx,
				    unsigned int max);
void pcn_revoke_free(struct pcn_revoke *r);
void pcn_revoke_reset(struct pcn_revoke *r);
bool pcn_revoke_add(struct pcn_revoke *r, unsigned long addr,
		    unsigned long holders, int data_nid);
void pcn_revoke_run(struct pcn_revoke *r);
void pcn_revoke_ack(struct pcn_revoke *r, int nid,
		    struct pcn_page_inval_ack *ack, size_t size, u64 ns);

/* page_server.c / page_client.c: the two halves of the fault hook. */
vm_fault_t pcn_origin_fault(struct remote_context *ctx,
			    struct vm_area_struct *vma, unsigned long addr,
			    unsigned int flags);
vm_fault_t pcn_remote_fault(struct remote_context *ctx,
			    struct vm_area_struct *vma, unsigned long addr,
			    unsigned int flags);

#endif /* _POPCORN_PAGE_H */
