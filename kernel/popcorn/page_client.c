// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn page client: the remote node's half of the page protocol (the
 * origin's is page_server.c).
 *
 * A fault on a page this node has no usable copy of asks the origin for
 * it (PAGE_REQUEST).  One request per page is in flight: it is a fault
 * handle in ctx->faults, and the threads faulting on that page meanwhile
 * wait for it.  While it waits, the faulting thread does not hold the
 * mmap_lock (it returns VM_FAULT_RETRY once the answer is in, and the
 * retried fault installs it), so that nothing the origin needs from this
 * node, an invalidation in particular, waits behind a VMA change queued
 * for the lock.  A page the origin is busy with is refused with -EAGAIN
 * and asked for again after a delay that doubles each time, up to
 * PCN_PAGE_TRIES times; the last request asks the origin to wait.  A
 * page another node holds a while yet (page_hold.c) is asked for again
 * when the origin says the hold ends.
 *
 * An invalidation of a writer may overtake the writer's grant (the
 * origin lets go of the page before it sends the grant), so it names
 * the grant's version, and one that wants the writer's data waits
 * until that grant is received here (ctx->grants: the version of the last
 * grant received), lets an install in progress finish, and then takes
 * the data from the page table or, if no thread installed the grant yet,
 * from the grant itself.  ctx->pages holds the version of the last
 * invalidation of each page: a grant older than that is never installed.
 *
 * Prefetch: a read fault right after the pages the last read of the
 * process brought in asks for read copies of the pages that follow as
 * well (the window doubles on each such hit, up to pcn.prefetch, and
 * halves on a miss).  They come in the same grant, each with its own
 * version, and are mapped read-only with the faulting page; a page that
 * is busy here (a request of its own in flight, a PTE) is skipped, the
 * origin merely counts this node as a holder of a copy it lacks.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "fault_stat.h"
#include "messages.h"
#include "page.h"
#include "page_hold.h"

#define PCN_PAGE_TRIES		8
#define PCN_BACKOFF_MIN_US	100

/*
 * pcn.prefetch=: read copies of following pages a sequential read fault
 * asks for (at a remote) or is given (at the origin) at most, 0 (off) to
 * PCN_PREFETCH_MAX; writable at run time
 * (/sys/module/pcn/parameters/prefetch).
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."
static unsigned int pcn_prefetch = PCN_PREFETCH_MAX;

/* Set the unsigned int of @kp to @val if it is 0 to @max. */
static int pcn_param_set_upto(const char *val, const struct kernel_param *kp,
			      unsigned int max)
{
	unsigned int *p = kp->arg, n;

	if (kstrtouint(val, 0, &n) || n > max) {
		pr_err("%s=%s: not 0 to %u, keeping %u\n", kp->name, val, max,
		       READ_ONCE(*p));
		return -EINVAL;
	}
	WRITE_ONCE(*p, n);
	return 0;
}

static int pcn_prefetch_set(const char *val, const struct kernel_param *kp)
{
	return pcn_param_set_upto(val, kp, PCN_PREFETCH_MAX);
}

static const struct kernel_param_ops pcn_prefetch_ops = {
	.set = pcn_prefetch_set,
	.get = param_get_uint,
};
module_param_cb(prefetch, &pcn_prefetch_ops, &pcn_prefetch, 0644);
MODULE_PARM_DESC(prefetch, "pages a sequential read fault prefetches at most (0: off)");

/* pcn.prefetch, and no more than a message of the transport carries. */
unsigned int pcn_prefetch_max(void)
{
	return min(READ_ONCE(pcn_prefetch),
		   pcn_grant_extra_limit(pcn_kmsg_max_size()));
}

/*
 * How many following pages a read fault at @addr asks for: readahead's
 * rule, per process (a heuristic: racing threads only blur it).
 */
static u32 pcn_prefetch_window(struct remote_context *ctx, unsigned long addr)
{
	unsigned int max = pcn_prefetch_max();
	unsigned int w = READ_ONCE(ctx->ra_window);

	if (addr == READ_ONCE(ctx->ra_next))
		w = w ? min(2 * w, max) : 1;
	else
		w /= 2;
	w = min(w, max);
	WRITE_ONCE(ctx->ra_window, w);
	return w;
}

/*
 * pcn.untouched: untouched pages a write fault asks for at most (0 to
 * PCN_UNTOUCHED_MAX, 0: off); writable at run time
 * (/sys/module/pcn/parameters/untouched).
 */
static unsigned int pcn_untouched = PCN_UNTOUCHED_MAX;

static int pcn_untouched_set(const char *val, const struct kernel_param *kp)
{
	return pcn_param_set_upto(val, kp, PCN_UNTOUCHED_MAX);
}

static const struct kernel_param_ops pcn_untouched_ops = {
	.set = pcn_untouched_set,
	.get = param_get_uint,
};
module_param_cb(untouched, &pcn_untouched_ops, &pcn_untouched, 0644);
MODULE_PARM_DESC(untouched, "untouched pages a sequential write fault asks for at most (0: off)");

/*
 * A write fault this far past where a stream's last grant ended still
 * continues it: the pages in between may have been taken by the origin
 * (a grant stops at the first page that is not untouched).
 */
#define PCN_WRITE_SLACK		(8 * PAGE_SIZE)

/*
 * How many untouched pages after @addr a write fault asks for, and in
 * *@stream which sequential write stream it continues (or starts).  The
 * prefetch rule, per stream so that threads filling memory side by
 * side do not blur each other's: a fault where a stream's last grant
 * ended, or a few pages past it, doubles its window (1, 2, 4 ... up to
 * pcn.untouched); any other fault starts a new stream, replacing the
 * oldest, and asks for none.  The slack bounds what a strided writer
 * costs: one that skips more than PCN_WRITE_SLACK never continues a
 * stream, so at least one page in eight of a run is written.
 * Only private anonymous memory has untouched pages (file pages have
 * data); a run given to a remote that the origin's threads then use
 * costs the origin a fault each, hence the slow start.  A heuristic:
 * racing updates only blur it.
 */
static u32 pcn_untouched_window(struct remote_context *ctx,
				struct vm_area_struct *vma, unsigned long addr,
				unsigned int *stream)
{
	unsigned int max = min(READ_ONCE(pcn_untouched),
			       pcn_grant_untouched_limit(pcn_kmsg_max_size()));
	/* The pages after the faulting one in its VMA. */
	unsigned long left = ((vma->vm_end - addr) >> PAGE_SHIFT) - 1;
	struct pcn_write_stream *s;
	unsigned long next;
	unsigned int i, w;

	for (i = 0; i < PCN_WRITE_STREAMS; i++) {
		s = &ctx->wa[i];
		next = READ_ONCE(s->next);
		if (addr >= next && addr - next < PCN_WRITE_SLACK) {
			w = READ_ONCE(s->window);
			w = min(w ? 2 * w : 1, max);
			WRITE_ONCE(s->window, w);
			*stream = i;
			return vma_is_anonymous(vma) ? min_t(unsigned long, w, left) : 0;
		}
	}
	i = READ_ONCE(ctx->wa_rotor) % PCN_WRITE_STREAMS;
	WRITE_ONCE(ctx->wa_rotor, i + 1);
	s = &ctx->wa[i];
	WRITE_ONCE(s->window, 0);
	WRITE_ONCE(s->next, addr + PAGE_SIZE);
	*stream = i;
	return 0;
}

/*
 * Room for the untouched notes and grant versions of the @n pages after
 * @idx, reserved before asking for them, so that receiving them needs
 * no memory: a page given without its note would have no data to give
 * back.  Returns how many have room.  Never given back: other faults
 * of the process share these slots (an xa_release() would take theirs
 * too), and a reserved slot reads as empty.
 */
static u32 pcn_untouched_reserve(struct remote_context *ctx,
				 unsigned long idx, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (xa_reserve(&ctx->untouched, idx + 1 + i, GFP_KERNEL) ||
		    xa_reserve(&ctx->grants, idx + 1 + i, GFP_KERNEL))
			break;
	return i;
}

/*
 * The untouched pages of write grant @grant, just received: each one's
 * grant version is kept in ctx->untouched until it is mapped here, so
 * that a revocation that finds nothing mapped knows its data is zero
 * (pcn_inval_page()); then the grants are recorded, which lets such a
 * revocation go on.
 */
static void pcn_untouched_received(struct remote_context *ctx,
				   const struct pcn_page_grant *grant)
{
	const struct pcn_page_extra *x = grant->x;
	unsigned long idx;
	void *e;
	u32 i;

	for (i = 0; i < grant->extra; i++, x++) {
		idx = x->addr >> PAGE_SHIFT;
		/* Room was reserved before the request. */
		if (xa_err(xa_store(&ctx->untouched, idx,
				    xa_mk_value(x->version), GFP_KERNEL)))
			pr_warn_ratelimited("page %llx of process %d: no memory to note it untouched\n",
					    x->addr, ctx->tgid);
		xa_lock(&ctx->grants);
		e = xa_load(&ctx->grants, idx);
		if ((!e || xa_to_value(e) < x->version) &&
		    xa_err(__xa_store(&ctx->grants, idx,
				      xa_mk_value(x->version), GFP_KERNEL)))
			pr_warn_ratelimited("page %llx of process %d: no memory to record its grant\n",
					    x->addr, ctx->tgid);
		xa_unlock(&ctx->grants);
	}
	if (grant->extra)
		wake_up_all(&ctx->wq);
}

/*
 * Ask the origin for the page at @addr until it is not busy; a write
 * asks for up to @untouched untouched pages after it too.
 */
static int pcn_page_fetch(struct remote_context *ctx, unsigned long addr,
			  bool write, u32 untouched,
			  struct pcn_page_grant **grantp)
{
	struct pcn_page_req req = {
		.hdr.type = PCN_KMSG_TYPE_PAGE_REQUEST,
		.ctx_id = ctx->id,
		.addr = addr,
	};
	u32 extra = write ? untouched : pcn_prefetch_window(ctx, addr);
	/* pcn.untouched=0 turns the untouched pages off, reads' too. */
	u32 upgrade = !write && READ_ONCE(pcn_untouched) ? PCN_PAGE_UPGRADE : 0;
	struct page *place[PCN_KMSG_MAX_PAGES];
	unsigned long idx = addr >> PAGE_SHIFT;
	struct pcn_page_grant *grant = NULL;
	struct pcn_kmsg_hdr *resp;
	unsigned int nplace = 0;
	u32 i, ndata;
	unsigned long us;
	int tries, holds = 0, err;

	/* Any grant with pages after this one may be of untouched ones. */
	if (write || upgrade)
		extra = pcn_untouched_reserve(ctx, idx, extra);
	/* Pages of data: a write grant's untouched pages come without. */
	ndata = 1 + (write ? 0 : extra);

	/*
	 * Where the transport can, the origin writes the grant's pages
	 * straight into pages prepared here, the ones that get mapped.
	 */
	if (pcn_kmsg_can_place() && !pcn_kmsg_alloc_pages(place, ndata))
		nplace = ndata;
	for (tries = 0; ; tries++) {
		req.flags = (write ? PCN_PAGE_WRITE : upgrade) |
			    FIELD_PREP(PCN_PAGE_EXTRA, extra);
		if (tries >= PCN_PAGE_TRIES)
			req.flags |= PCN_PAGE_WAIT;
		err = pcn_kmsg_request_into(ctx->origin_nid, &req, sizeof(req),
					    PCN_KMSG_TYPE_PAGE_GRANT, place,
					    nplace, &resp);
		if (err)
			goto out;
		grant = (struct pcn_page_grant *)resp;
		/* A read may be answered as a write: an untouched page. */
		if (grant->ctx_id != ctx->id || grant->addr != addr ||
		    grant->write > 1 || (write && !grant->write) ||
		    (!write && grant->write && !upgrade))
			goto bad;
		if (grant->error == -EAGAIN && !(req.flags & PCN_PAGE_WAIT)) {
			us = grant->hold_us;
			pcn_kmsg_done(resp);
			pcn_fault_account(PCN_FAULT_RETRY, 0);
			/*
			 * Held by another node a while yet: asked again when
			 * the hold ends, which is no busy try (but the
			 * origin's word is bounded).
			 */
			if (us && holds++ < PCN_HOLD_TRIES) {
				us = min_t(unsigned long, us,
					   PCN_HOLD_LIMIT_MAX_US);
				usleep_range(us, us + us / 8 + 10);
				tries--;
				continue;
			}
			us = PCN_BACKOFF_MIN_US << tries;
			usleep_range(us, 2 * us);
			continue;
		}
		if (grant->error) {
			err = grant->error == -EFAULT ? -EFAULT : -EIO;
			pcn_kmsg_done(resp);
			goto out;
		}
		/*
		 * The page and each read copy: a name and a page of data;
		 * each untouched page: a name.
		 */
		if (grant->extra > extra ||
		    resp->size != (grant->write ?
				   PCN_GRANT_UNTOUCHED_SIZE(grant->extra) :
				   PCN_GRANT_SIZE(grant->extra)) ||
		    resp->npages != 1 + (grant->write ? 0 : grant->extra) ||
		    !grant->version || grant->version >= LONG_MAX)
			goto bad;
		for (i = 0; i < grant->extra; i++)
			if (grant->x[i].addr != addr + (i + 1) * PAGE_SIZE ||
			    !grant->x[i].version ||
			    grant->x[i].version >= LONG_MAX)
				goto bad;
		if (!write)
			WRITE_ONCE(ctx->ra_next,
				   addr + (grant->extra + 1) * PAGE_SIZE);
		if (grant->write)
			pcn_untouched_received(ctx, grant);
		*grantp = grant;
		err = 0;
		goto out;
	}
bad:
	pr_warn_ratelimited("bad grant for page %lx of process %d from node %d\n",
			    addr, ctx->tgid, ctx->origin_nid);
	pcn_kmsg_done(resp);
	err = -EPROTO;
out:
	/* A grant placed in them holds references of its own. */
	for (i = 0; i < nplace; i++)
		put_page(place[i]);
	return err;
}

/*
 * Record grant @version of page @idx as received.  Called under the
 * faults lock, a spinlock: the slot was reserved before, so the store
 * needs no memory.
 */
static void pcn_grant_received(struct remote_context *ctx, unsigned long idx,
			       u64 version)
{
	void *e = xa_load(&ctx->grants, idx);

	if (!e || xa_to_value(e) < version)
		xa_store(&ctx->grants, idx, xa_mk_value(version), GFP_ATOMIC);
}

static bool pcn_grant_in(struct remote_context *ctx, unsigned long idx,
			 u64 version)
{
	void *e = xa_load(&ctx->grants, idx);

	return e && xa_to_value(e) >= version;
}

/* Let go of @f, answered or taken over, and wake who waits for it. */
static void pcn_fault_finish(struct remote_context *ctx, unsigned long idx,
			     struct pcn_fault *f)
{
	xa_lock(&ctx->faults);
	if (xa_load(&ctx->faults, idx) == f) {
		__xa_erase(&ctx->faults, idx);
		pcn_fault_put(f);		/* the xarray's reference */
	}
	f->state = PCN_F_GONE;
	xa_unlock(&ctx->faults);
	wake_up_all(&ctx->wq);
}

void pcn_untouched_forget(struct remote_context *ctx, unsigned long idx,
			  u64 version)
{
	void *u;

	xa_lock(&ctx->untouched);
	u = xa_load(&ctx->untouched, idx);
	/* Back to a reservation: it may be another request's room. */
	if (u && xa_to_value(u) <= version)
		__xa_cmpxchg(&ctx->untouched, idx, u, XA_ZERO_ENTRY, 0);
	xa_unlock(&ctx->untouched);
}

/*
 * Map the pages after the faulting one that came in @f's grant, where
 * nothing else is under way: the pages are in the faulting page's VMA,
 * no VMA was dropped since the request, and the stale check of
 * pcn_install_page() orders each against invalidations.  A read grant's
 * are read copies, their data received straight into the pages mapped;
 * a write grant's are untouched pages, mapped zeroed and writable, each
 * losing its note as it is mapped (a revocation then takes the page's
 * data).  A page skipped (busy here, or no memory: they are a bonus)
 * stays noted as untouched.  Called before @f's handle is let go:
 * mapped after it, the pages were asked for again by the node's other
 * threads meanwhile, which doubled zstd's remote faults; a revocation
 * of the faulting page waits for them instead.
 */
static void pcn_extras_install(struct remote_context *ctx,
			       struct vm_area_struct *vma,
			       struct pcn_fault *f)
{
	struct pcn_page_grant *grant = f->grant;
	struct pcn_page_extra *x = grant->x;
	spinlock_t *ptl;	/* the page table lock */
	struct page *page;
	bool busy, mapped;
	unsigned long a;
	pte_t *pte;
	u32 i;

	if (atomic_read(&ctx->vma_drops) != f->drops)
		return;
	for (i = 0; i < grant->extra; i++, x++) {
		a = x->addr;
		if (a < vma->vm_start || a >= vma->vm_end)
			return;
		busy = xa_load(&ctx->faults, a >> PAGE_SHIFT);
		pte = pcn_pte_lock(vma->vm_mm, a, &ptl);
		if (pte) {
			busy |= !pte_none(*pte);
			pte_unmap_unlock(pte, ptl);
		}
		if (busy)
			continue;
		if (grant->write)
			page = alloc_page_vma(GFP_HIGHUSER_MOVABLE | __GFP_ZERO |
					      __GFP_NOWARN, vma, a);
		else
			page = pcn_kmsg_take_page(&grant->hdr, i + 1);
		if (!page ||
		    pcn_install_page(vma, a, page, grant->write, ctx,
				     x->version) & VM_FAULT_OOM)
			return;
		if (!grant->write) {
			pcn_fault_account(PCN_FAULT_PREFETCH, 0);
			continue;
		}
		/* Counted if mapped, not refused as stale. */
		pte = pcn_pte_lock(vma->vm_mm, a, &ptl);
		mapped = pte && pte_present(*pte);
		if (pte)
			pte_unmap_unlock(pte, ptl);
		if (mapped)
			pcn_fault_account(PCN_FAULT_UNTOUCHED, 0);
	}
}

/*
 * Is the answer of @f for a mapping that is gone?  A VMA_DROP of its page
 * came after it was asked for, and the answer was given before that drop
 * (or is an error, which may be the old mapping's).  The origin forgets
 * the holders of an unmapped range, and takes back the copies of any
 * other changed range first, so such an answer is never installed nor
 * given back.  An answer given after the drop is for the new mapping:
 * the origin counts this node as its holder, the only one for a write.
 * Called under ctx->faults' lock, or by the handle's installer.
 */
static bool pcn_fault_stale(const struct pcn_fault *f)
{
	return f->dropped &&
	       (f->error || !f->grant || f->grant->version < f->dropped);
}

/* Map the answer of @f (a handle in PCN_F_INSTALLING). */
static vm_fault_t pcn_fault_install(struct remote_context *ctx,
				    struct vm_area_struct *vma,
				    unsigned long addr, struct pcn_fault *f)
{
	struct pcn_page_grant *grant = f->grant;
	vm_fault_t ret = VM_FAULT_NOPAGE;

	/* An answer for a mapping that is gone: ask again. */
	if (pcn_fault_stale(f))
		goto out;
	switch (f->error) {
	case 0:
		/* Our read-only copy gives way to a writable one. */
		if (grant->write)
			pcn_take_pte(vma, addr, NULL, true);
		ret = pcn_install_page(vma, addr,
				       pcn_kmsg_take_page(&grant->hdr, 0),
				       grant->write, ctx, grant->version);
		if (grant->extra)
			pcn_extras_install(ctx, vma, f);
		break;
	case -EINTR:
		break;		/* its requester was killed: ask again */
	case -EFAULT:
		ret = VM_FAULT_SIGSEGV;
		break;
	default:
		ret = VM_FAULT_SIGBUS;
	}
out:
	refcount_inc(&f->ref);
	pcn_fault_finish(ctx, addr >> PAGE_SHIFT, f);
	pcn_fault_put(f);
	return ret;
}

vm_fault_t pcn_remote_fault(struct remote_context *ctx,
			    struct vm_area_struct *vma, unsigned long addr,
			    unsigned int flags)
{
	bool can_drop = (flags & FAULT_FLAG_ALLOW_RETRY) &&
			!(flags & FAULT_FLAG_RETRY_NOWAIT);
	/* Asked not to wait, with the lock kept: try again later. */
	bool no_wait = (flags & FAULT_FLAG_ALLOW_RETRY) &&
		       (flags & FAULT_FLAG_RETRY_NOWAIT);
	bool write = flags & FAULT_FLAG_WRITE;
	unsigned long idx = addr >> PAGE_SHIFT;
	struct mm_struct *mm = vma->vm_mm;
	struct pcn_page_grant *grant = NULL;
	struct pcn_fault *f, *cur;
	spinlock_t *ptl;	/* the page table lock */
	pte_t *pte, entry;
	unsigned int stream = 0;
	u32 untouched;
	vm_fault_t ret;
	u64 t0;
	int err;

again:
	pte = pcn_pte_lock(mm, addr, &ptl);
	if (pte) {
		entry = *pte;
		pte_unmap_unlock(pte, ptl);
		/*
		 * Swap and migration entries are this node's business, but
		 * a write must not make a read copy writable on swap-in:
		 * bring it in for reading, then ask for the write.
		 */
		if (!pte_none(entry) && !pte_present(entry)) {
			if (!write)
				return 0;
			ret = handle_mm_fault(vma, addr,
					      flags & ~FAULT_FLAG_WRITE, NULL);
			if (ret & (VM_FAULT_RETRY | VM_FAULT_ERROR))
				return ret;
			goto again;
		}
		if (pte_present(entry) && (!write || pte_write(entry)))
			return 0;
	}
	if (write && !(vma->vm_flags & VM_WRITE))
		return 0;

	xa_lock(&ctx->faults);
	cur = xa_load(&ctx->faults, idx);
	if (cur && cur->state == PCN_F_ANSWERED) {
		cur->state = PCN_F_INSTALLING;
		xa_unlock(&ctx->faults);
		return pcn_fault_install(ctx, vma, addr, cur);
	}
	if (cur) {
		/* Someone else's request, or install: wait for it. */
		if (no_wait) {
			xa_unlock(&ctx->faults);
			return VM_FAULT_RETRY;
		}
		refcount_inc(&cur->ref);
		xa_unlock(&ctx->faults);
		if (cur->state == PCN_F_INSTALLING) {
			wait_event(ctx->wq, READ_ONCE(cur->state) == PCN_F_GONE);
			pcn_fault_put(cur);
			goto again;
		}
		if (can_drop) {
			mmap_read_unlock(mm);
			wait_for_completion_killable(&cur->done);
			pcn_fault_put(cur);
			return VM_FAULT_RETRY;
		}
		wait_for_completion_killable(&cur->done);
		pcn_fault_put(cur);
		if (fatal_signal_pending(current))
			return VM_FAULT_SIGBUS;
		goto again;
	}
	xa_unlock(&ctx->faults);

	/* The first to fault on this page asks the origin for it. */
	if (no_wait)
		return VM_FAULT_RETRY;
	f = pcn_fault_alloc();
	if (!f)
		return VM_FAULT_OOM;
	refcount_inc(&f->ref);			/* the xarray's */
	f->drops = atomic_read(&ctx->vma_drops);
	err = xa_insert(&ctx->faults, idx, f, GFP_KERNEL);
	if (err) {
		refcount_dec(&f->ref);
		pcn_fault_put(f);
		if (err == -EBUSY)
			goto again;
		return VM_FAULT_OOM;
	}
	untouched = write ? pcn_untouched_window(ctx, vma, addr, &stream) : 0;
	if (can_drop)
		mmap_read_unlock(mm);

	t0 = ktime_get_ns();
	err = pcn_page_fetch(ctx, addr, write, untouched, &grant);
	/* The stream goes on where this grant ends. */
	if (!err && write)
		WRITE_ONCE(ctx->wa[stream].next,
			   addr + (grant->extra + 1) * PAGE_SIZE);
	/* Room for the version, taken before the spinlock below. */
	if (grant && xa_reserve(&ctx->grants, idx, GFP_KERNEL))
		err = -ENOMEM;
	if (!err)
		pcn_fault_account(write ? PCN_FAULT_REMOTE_WRITE :
					  PCN_FAULT_REMOTE_READ,
				  ktime_get_ns() - t0);
	if (err && grant) {
		pcn_kmsg_done(&grant->hdr);
		grant = NULL;
	}
	xa_lock(&ctx->faults);
	f->error = err;
	f->grant = grant;
	if (f->state == PCN_F_WAITING)
		f->state = PCN_F_ANSWERED;
	/* Under the lock: an invalidation that sees it sees the answer. */
	if (grant)
		pcn_grant_received(ctx, idx, grant->version);
	xa_unlock(&ctx->faults);
	complete_all(&f->done);
	wake_up_all(&ctx->wq);
	pcn_fault_put(f);
	if (can_drop)
		return VM_FAULT_RETRY;	/* the retried fault installs it */
	if (fatal_signal_pending(current))
		return VM_FAULT_SIGBUS;
	goto again;
}

/* The state of page @idx's handle, or PCN_F_GONE without one. */
static enum pcn_fault_state pcn_fault_state(struct remote_context *ctx,
					    unsigned long idx)
{
	struct pcn_fault *f;
	enum pcn_fault_state state = PCN_F_GONE;

	xa_lock(&ctx->faults);
	f = xa_load(&ctx->faults, idx);
	if (f)
		state = f->state;
	xa_unlock(&ctx->faults);
	return state;
}

/*
 * Take over the answer to a request for page @idx that no thread has
 * installed yet, if it is older than invalidation @version.
 */
static struct pcn_fault *pcn_fault_take(struct remote_context *ctx,
					unsigned long idx, u64 version)
{
	struct pcn_fault *f;

	xa_lock(&ctx->faults);
	f = xa_load(&ctx->faults, idx);
	if (f && f->state == PCN_F_ANSWERED && !f->error &&
	    !pcn_fault_stale(f) && f->grant->version < version) {
		__xa_erase(&ctx->faults, idx);	/* its reference is ours */
		f->state = PCN_F_GONE;
	} else {
		f = NULL;
	}
	xa_unlock(&ctx->faults);
	return f;
}

/*
 * The VMAs of [@start, @end) are being dropped by VMA_DROP @version
 * (mmap_lock held for writing, so no answer is being installed): an
 * answer to a request made before, received or still to come, is for
 * the old mapping if the origin gave it before the drop
 * (pcn_fault_stale()); the next fault there asks again.
 */
void pcn_faults_drop(struct remote_context *ctx, unsigned long start,
		     unsigned long end, u64 version)
{
	struct pcn_fault *f;
	unsigned long idx;
	void *u;

	if (end <= start)
		return;
	xa_lock(&ctx->faults);
	xa_for_each_range(&ctx->faults, idx, f, start >> PAGE_SHIFT,
			  (end - 1) >> PAGE_SHIFT)
		f->dropped = max(f->dropped, version);
	xa_unlock(&ctx->faults);
	/* Nor is a page of the old mapping untouched in a new one. */
	xa_lock(&ctx->untouched);
	xa_for_each_range(&ctx->untouched, idx, u, start >> PAGE_SHIFT,
			  (end - 1) >> PAGE_SHIFT)
		__xa_cmpxchg(&ctx->untouched, idx, u, XA_ZERO_ENTRY, 0);
	xa_unlock(&ctx->untouched);
}

/* No grant older than invalidation @version of page @idx is installed. */
static void pcn_inval_record(struct remote_context *ctx, unsigned long idx,
			     u64 version)
{
	void *e;

	xa_lock(&ctx->pages);
	e = xa_load(&ctx->pages, idx);
	if (!e || xa_to_value(e) < version)
		__xa_store(&ctx->pages, idx, xa_mk_value(version), GFP_KERNEL);
	xa_unlock(&ctx->pages);
}

/*
 * Revocation @e of page @idx: any untouched note older than it goes.
 * If it found nothing mapped here (@found false) and the grant it takes
 * back was of an untouched page never mapped, the data is zero, put in
 * @data when wanted.  Returns whether the note says this node had the
 * page.  Called with the mmap lock held: an install that maps the page
 * drops its note under the page table lock, and one that has not yet
 * is refused as stale now.
 */
static bool pcn_untouched_taken(struct remote_context *ctx,
				unsigned long idx,
				const struct pcn_page_inval_entry *e,
				bool found, struct page *data)
{
	void *u = xa_load(&ctx->untouched, idx);
	bool had;

	if (!u || xa_to_value(u) >= e->version)
		return false;
	had = !found && e->grant && xa_to_value(u) == e->grant;
	if (had && (e->addr & PCN_INVAL_WANT_DATA))
		clear_highpage(data);
	pcn_untouched_forget(ctx, idx, e->version - 1);
	return had;
}

/*
 * Drop this node's copy of the page of entry @e.  When its data is
 * wanted, *@data is a private page to copy it into, replaced by the
 * page of an answer not mapped yet (no copy at all).  Returns the
 * answer's word for it.
 */
static u64 pcn_inval_page(struct remote_context *ctx,
			  const struct pcn_page_inval_entry *e,
			  struct page **data, unsigned long deadline)
{
	/* What is left of the origin's wait, at least a jiffy. */
	long left = max_t(long, (long)(deadline - jiffies), 1);
	unsigned long addr = e->addr & PAGE_MASK;
	unsigned long idx = addr >> PAGE_SHIFT;
	bool want = e->addr & PCN_INVAL_WANT_DATA;
	struct pcn_fault *taken = NULL;
	struct vm_area_struct *vma;
	u64 t0 = ktime_get_ns();
	struct mm_struct *mm;
	struct page *page;
	bool had = false, late;
	void *kaddr;

	if ((e->addr & ~PAGE_MASK & ~PCN_INVAL_WANT_DATA) ||
	    addr >= TASK_SIZE_MAX || e->version >= LONG_MAX ||
	    e->grant >= LONG_MAX || e->grant >= e->version)
		return addr | PCN_INVAL_REFUSED;
	/*
	 * The writer's grant came before this: let it arrive.  If it does
	 * not, change nothing: the origin keeps this node as the writer and
	 * asks again, and the grant, once here, is not dropped as stale.
	 */
	if (e->grant &&
	    !wait_event_timeout(ctx->wq, pcn_grant_in(ctx, idx, e->grant),
				left))
		return addr;
	/* Late (the origin gave up on it): a newer grant stays. */
	if (pcn_grant_in(ctx, idx, e->version + 1))
		return addr;
	/*
	 * An install in progress ends first (its thread waits for nothing
	 * but memory); an answer not installed yet is taken over here.
	 */
	for (;;) {
		wait_event_timeout(ctx->wq,
				   pcn_fault_state(ctx, idx) != PCN_F_INSTALLING,
				   left);
		/*
		 * A writer's data leaves this node only in an answer the
		 * origin still waits for: a late one would be dropped with
		 * the only copy.  Past the deadline nothing changes, and the
		 * origin keeps this node as the writer.
		 */
		if (want && time_after_eq(jiffies, deadline))
			return addr;
		taken = pcn_fault_take(ctx, idx, e->version);
		if (taken || pcn_fault_state(ctx, idx) != PCN_F_INSTALLING)
			break;
	}
	pcn_inval_record(ctx, idx, e->version);
	mm = ctx->mm;
	if (mmget_not_zero(mm)) {
		mmap_read_lock(mm);
		vma = vma_lookup(mm, addr);
		/* The lock may have taken long: the same rule. */
		late = want && !taken && time_after_eq(jiffies, deadline);
		if (!late && vma && pcn_vma_distributable(vma)) {
			kaddr = want && !taken ? kmap_local_page(*data) : NULL;
			had = !pcn_take_pte(vma, addr, kaddr, true);
			if (kaddr)
				kunmap_local(kaddr);
		}
		/* The note is used only where nothing else has the page. */
		if (!late &&
		    pcn_untouched_taken(ctx, idx, e, had || taken || !vma,
					*data))
			had = true;
		mmap_read_unlock(mm);
		mmput(mm);
	}
	if (taken) {
		had = true;
		if (want) {
			/* Never mapped: it goes back as it came. */
			page = pcn_kmsg_take_page(&taken->grant->hdr, 0);
			if (page) {
				put_page(*data);
				*data = page;
			}
			had = !!page;
		}
		complete_all(&taken->done);
		wake_up_all(&ctx->wq);
		pcn_fault_put(taken);
	}
	pcn_fault_account(PCN_FAULT_INVALIDATION, ktime_get_ns() - t0);
	return addr | (had && want ? PCN_INVAL_HAS_DATA : 0);
}

/*
 * The origin takes back copies (PAGE_INVALIDATE): each entry in turn,
 * the data of those that want it sent as the answer's pages, after its
 * words.
 */
static void pcn_handle_page_invalidate(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_page_inval *req = (struct pcn_page_inval *)msg;
	/*
	 * The origin waits PCN_PAGE_TIMEOUT for the whole message, counted
	 * from before it was sent: the entries share half of that, which
	 * leaves the other half for the message's time in queues and on
	 * the wire, and for the answer's.
	 */
	unsigned long deadline = jiffies + PCN_PAGE_TIMEOUT / 2;
	struct pcn_page_inval_ack *ack, refused = {};
	struct page *data[PCN_INVAL_DATA_MAX] = {};
	struct remote_context *ctx = NULL;
	unsigned int i, want = 0, used = 0;
	u64 w;

	/* The size and the count agree, with no more data than fits. */
	if (msg->size != PCN_INVAL_SIZE(req->n) || !req->n)
		goto refuse;
	for (i = 0; i < req->n; i++)
		want += !!(req->page[i].addr & PCN_INVAL_WANT_DATA);
	if (want > PCN_INVAL_DATA_MAX)
		goto refuse;
	ack = kvzalloc(PCN_INVAL_ACK_FRONT(req->n), GFP_KERNEL);
	if (!ack)
		goto refuse;
	if (pcn_kmsg_alloc_pages(data, want)) {
		kvfree(ack);
		goto refuse;
	}
	ctx = pcn_remote_context_get(nid, req->ctx_id);
	for (i = 0; i < req->n; i++) {
		/* No context here: this node holds none of its pages. */
		w = ctx ? pcn_inval_page(ctx, &req->page[i], &data[used],
					 deadline) :
			  req->page[i].addr & PAGE_MASK;
		used += !!(w & PCN_INVAL_HAS_DATA);
		ack->page[i] = w;
	}
	if (ctx)
		pcn_context_put(ctx);
	ack->hdr.type = PCN_KMSG_TYPE_PAGE_INVALIDATED;
	ack->ctx_id = req->ctx_id;
	ack->n = req->n;
	pcn_kmsg_reply_pages(nid, msg, ack, PCN_INVAL_ACK_FRONT(req->n), data,
			     used);
	kvfree(ack);
	for (i = 0; i < want; i++)
		put_page(data[i]);
	pcn_kmsg_done(msg);
	return;
refuse:
	/* An answer the origin takes as a failure of every entry. */
	pr_warn_ratelimited("invalidation from node %d refused: %u entries in %u bytes\n",
			    nid, req->n, msg->size);
	refused.hdr.type = PCN_KMSG_TYPE_PAGE_INVALIDATED;
	refused.ctx_id = req->ctx_id;
	pcn_kmsg_reply(nid, msg, &refused, sizeof(refused));
	pcn_kmsg_done(msg);
}

static int __init pcn_page_client_init(void)
{
	int ret;

	BUILD_BUG_ON(PCN_GRANT_SIZE_MAX > PCN_KMSG_MAX_SIZE);
	/* A write grant fits where the largest read grant does. */
	BUILD_BUG_ON(PCN_GRANT_UNTOUCHED_SIZE(PCN_UNTOUCHED_MAX) >
		     PCN_GRANT_SIZE_MAX);
	BUILD_BUG_ON(FIELD_MAX(PCN_PAGE_EXTRA) < PCN_UNTOUCHED_MAX);
	BUILD_BUG_ON(PCN_INVAL_ACK_SIZE(PCN_INVAL_MAX, PCN_INVAL_DATA_MAX) >
		     PCN_KMSG_MAX_SIZE);
	ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PAGE_GRANT,
					 "page_grant", PCN_GRANT_HDR,
					 PCN_GRANT_SIZE_MAX);
	if (!ret)
		ret = pcn_kmsg_allow_pages(PCN_KMSG_TYPE_PAGE_GRANT,
					   1 + PCN_PREFETCH_MAX);
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PAGE_INVALIDATE,
						"page_invalidate",
						PCN_INVAL_SIZE(1),
						PCN_INVAL_SIZE(PCN_INVAL_MAX),
						pcn_handle_page_invalidate);
	return ret;
}
late_initcall(pcn_page_client_init);
