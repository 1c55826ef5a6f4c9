// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn page server: the origin's half of the reader-replicate /
 * writer-invalidate coherence of a distributed process's pages; the
 * origin is home to every page.  The remote half is page_client.c.
 *
 * The origin's directory (ctx->pages, indexed by page number) holds an
 * entry only for a page some remote has a copy of: a mask of the nodes
 * that hold a valid copy, plus PCN_PG_WRITER when the one holder (a
 * remote) may write it.  No entry means the origin alone has the page.
 * The invariants (Documentation/popcorn/page-server.rst):
 *
 * - a node maps a page only while the directory lists it as a holder,
 *   and writable only while it is the writer: a copy is given out only
 *   after the directory says so, and taken back (the origin's own PTE
 *   zapped or write-protected) before the entry leaves the directory;
 * - an entry is stored before the origin's PTE is changed, so that an
 *   origin thread faulting meanwhile finds it and waits;
 * - a remote that gets a grant after a later invalidation of the same
 *   page drops the grant (versions from one counter per process); an
 *   invalidation that must take data from a writer reaches the writer
 *   after that writer's grant (page_client.c).
 *
 * Every change of one page's ownership, and every fault of an origin
 * thread on it, is made by the owner of the page's fault handle (always
 * taken inside mmap_lock); others wait for it, or, for a remote's
 * request, are told to retry.  Different pages never wait for each
 * other.  The owner's own faults (GUP by the page server) pass straight
 * through.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/userfaultfd_k.h>
#include <linux/xarray.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "fault_stat.h"
#include "inject.h"
#include "messages.h"
#include "page.h"
#include "page_hold.h"
#include "trace.h"

#define PCN_PG_WRITER		BIT(POPCORN_MAX_NODES)
#define PCN_PG_HOLDERS		GENMASK(POPCORN_MAX_NODES - 1, 0)

static unsigned long pcn_me(void)
{
	return BIT(pcn_my_nid());
}

/*
 * Become the owner of page @idx's fault handle.  A handle owned by
 * another task is waited for when @wait, else -EAGAIN.
 */
static struct pcn_fault *pcn_page_lock(struct remote_context *ctx,
				       unsigned long idx, bool wait)
{
	struct pcn_fault *f = pcn_fault_alloc(), *cur;

	if (!f)
		return ERR_PTR(-ENOMEM);
	f->owner = current;
	for (;;) {
		xa_lock(&ctx->faults);
		cur = __xa_cmpxchg(&ctx->faults, idx, NULL, f, GFP_KERNEL);
		if (!cur) {
			xa_unlock(&ctx->faults);
			return f;
		}
		if (xa_is_err(cur) || !wait) {
			xa_unlock(&ctx->faults);
			pcn_fault_put(f);
			return ERR_PTR(xa_is_err(cur) ? -ENOMEM : -EAGAIN);
		}
		refcount_inc(&cur->ref);
		xa_unlock(&ctx->faults);
		wait_for_completion(&cur->done);
		pcn_fault_put(cur);
	}
}

static void pcn_page_unlock(struct remote_context *ctx, unsigned long idx,
			    struct pcn_fault *f)
{
	xa_erase(&ctx->faults, idx);
	complete_all(&f->done);
	pcn_fault_put(f);
}

/* True when current owns page @idx (handles are freed after RCU). */
static bool pcn_page_owned(struct remote_context *ctx, unsigned long idx)
{
	struct pcn_fault *f;
	bool ret;

	rcu_read_lock();
	f = xa_load(&ctx->faults, idx);
	ret = f && READ_ONCE(f->owner) == current;
	rcu_read_unlock();
	return ret;
}

/*
 * Invalidate the read copies of every holder in @v but the origin and
 * @except (-1 for none), all at once.  A node that is offline has lost
 * its copy; any other failure leaves a copy that may still be mapped:
 * -EIO.
 */
static int pcn_revoke_readers(struct remote_context *ctx, unsigned long v,
			      unsigned long addr, int except)
{
	struct pcn_revoke *r;
	int ret;

	v &= PCN_PG_HOLDERS & ~pcn_me();
	if (except >= 0)
		v &= ~BIT(except);
	if (!v)
		return 0;
	r = pcn_revoke_alloc(ctx, 1);
	if (!r)
		return -ENOMEM;
	pcn_revoke_add(r, addr, v, -1);
	pcn_revoke_run(r);
	ret = r->page[0].error;
	pcn_revoke_free(r);
	return ret;
}

/* The node a directory entry says has its page alone, -1 when shared. */
static int pcn_dir_owner(unsigned long v)
{
	if (v == pcn_me())
		return pcn_my_nid();
	if (!(v & pcn_me()))
		return __ffs(v & PCN_PG_HOLDERS);
	return -1;
}

static int pcn_dir_set(struct remote_context *ctx, unsigned long idx,
		       unsigned long v)
{
	if (v == pcn_me()) {
		xa_erase(&ctx->pages, idx);
		return 0;
	}
	return xa_err(xa_store(&ctx->pages, idx, xa_mk_value(v), GFP_KERNEL));
}

/*
 * The data of a remote writer's page, taken back in @page (as it was
 * received: mapped without a copy, the reference taken over), is the
 * origin's again: mapped here, and the origin its only holder.  The
 * entry goes only once the data is mapped: if it cannot be (no memory),
 * the page stays listed at the writer, which no longer has it, so that
 * every later access fails loudly instead of finding a zeroed page.
 */
static int pcn_writer_home(struct remote_context *ctx,
			   struct vm_area_struct *vma, unsigned long addr,
			   struct page *page)
{
	unsigned long idx = addr >> PAGE_SHIFT;

	/* Nothing of it may be mapped here (no fault-around): no PTE. */
	if (vma && pcn_vma_distributable(vma)) {
		if (pcn_install_page(vma, addr, page, true, NULL, 0) &
		    VM_FAULT_OOM) {
			pr_warn_ratelimited("page %lx of process %d lost: no memory to map it back\n",
					    addr, ctx->tgid);
			return -ENOMEM;
		}
	} else {
		put_page(page);
	}
	xa_erase(&ctx->pages, idx);
	xa_erase(&ctx->grants, idx);
	return 0;
}

/*
 * Bring the page of a remote writer back to the origin: its copy is
 * dropped and the data mapped here.  The origin is then its only holder.
 */
static int pcn_pull_writer(struct remote_context *ctx,
			   struct vm_area_struct *vma, unsigned long addr,
			   unsigned long v)
{
	struct pcn_revoke *r = pcn_revoke_alloc(ctx, 1);
	int ret;

	if (!r)
		return -ENOMEM;
	pcn_revoke_add(r, addr, 0, __ffs(v & PCN_PG_HOLDERS));
	pcn_revoke_run(r);
	ret = r->page[0].error;
	if (!ret) {
		ret = pcn_writer_home(ctx, vma, addr, r->page[0].page);
		r->page[0].page = NULL;
	}
	pcn_revoke_free(r);
	return ret;
}

/*
 * Copy the origin's page at @addr to @buf after recording @v as its new
 * directory entry, then zap (@zap) or write-protect the origin's PTE.
 */
static int pcn_origin_give(struct remote_context *ctx,
			   struct vm_area_struct *vma, unsigned long addr,
			   unsigned long old, unsigned long v, void *buf,
			   bool zap)
{
	unsigned long idx = addr >> PAGE_SHIFT;
	struct page *page;
	long got;
	int tries;

	for (tries = 0; tries < 3; tries++) {
		/* Fault it in here first: the origin still holds it. */
		got = get_user_pages_remote(vma->vm_mm, addr, 1, FOLL_FORCE,
					    &page, NULL, NULL);
		if (got < 0)
			return got;
		put_page(page);
		if (pcn_dir_set(ctx, idx, v))
			return -ENOMEM;
		if (!pcn_take_pte(vma, addr, buf, zap))
			return 0;
		/* Unmapped meanwhile: fault it in again. */
		pcn_dir_set(ctx, idx, old);
	}
	return -EAGAIN;
}

/*
 * Give @nid page @addr, its data copied into @page (the one copy of
 * the sending side: the message is sent from @page).  Unless @hold is
 * NULL, a page its owner holds a while yet (page_hold.c) is refused
 * with -EAGAIN and the ns left in @hold.
 */
static int pcn_page_grant(struct remote_context *ctx, struct mm_struct *mm,
			  int nid, unsigned long addr, bool write,
			  struct page *page, u64 *version, u64 *hold)
{
	unsigned long idx = addr >> PAGE_SHIFT, me = pcn_me(), v, nv;
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	u64 now = ktime_get_ns();
	void *e, *buf;
	int ret, owner;

	if (!vma)
		return -EFAULT;
	if (!pcn_vma_distributable(vma))
		return -ENXIO;
	if (write && !(vma->vm_flags & VM_WRITE))
		return -EFAULT;

	e = xa_load(&ctx->pages, idx);
	v = e ? xa_to_value(e) : me;
	owner = pcn_dir_owner(v);
	if (hold) {
		*hold = pcn_hold_left(ctx, idx, owner, nid, now);
		if (*hold)
			return -EAGAIN;
	}
	if (!(v & me)) {
		ret = pcn_pull_writer(ctx, vma, addr, v);
		if (ret)
			return ret;
		v = me;
	}
	if (write) {
		ret = pcn_revoke_readers(ctx, v, addr, nid);
		if (ret)
			return ret;
		nv = BIT(nid) | PCN_PG_WRITER;
		v &= ~(PCN_PG_HOLDERS & ~(me | BIT(nid)));
	} else {
		nv = v | BIT(nid);
	}
	buf = kmap_local_page(page);
	ret = pcn_origin_give(ctx, vma, addr, v, nv, buf, write);
	kunmap_local(buf);
	if (ret)
		return ret;
	*version = atomic64_inc_return(&ctx->version);
	pcn_hold_moved(ctx, idx, owner, nid, now,
		       owner >= 0 && owner != pcn_my_nid());
	if (!write) {
		xa_erase(&ctx->grants, idx);
		return 0;
	}
	ret = xa_err(xa_store(&ctx->grants, idx, xa_mk_value(*version),
			      GFP_KERNEL));
	/*
	 * Without it a later pull would not wait for the grant: undo, the
	 * entry last (as in pcn_writer_home()).  The page is not sent.
	 */
	if (ret) {
		get_page(page);
		if (!(pcn_install_page(vma, addr, page, true, NULL, 0) &
		      VM_FAULT_OOM))
			xa_erase(&ctx->pages, idx);
	}
	return ret;
}

/*
 * Prefetch: read copies of up to @n pages after @addr, given to @nid
 * as pcn_page_grant() gives one: named in @x, their data in fresh pages
 * put in @pages.  It stops at the first page
 * it cannot give at once: outside @addr's VMA, busy, held by a remote
 * writer (never taken from it for a guess) or already held by @nid.
 * Returns how many it gave.
 */
static u32 pcn_page_prefetch(struct remote_context *ctx, struct mm_struct *mm,
			     int nid, unsigned long addr, u32 n,
			     struct pcn_page_extra *x, struct page **pages)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	unsigned long me = pcn_me(), idx, v;
	struct pcn_fault *f;
	void *e, *buf;
	u32 given;
	int ret;

	for (given = 0; given < n && vma; given++, x++) {
		addr += PAGE_SIZE;
		idx = addr >> PAGE_SHIFT;
		if (addr >= vma->vm_end)
			break;
		if (pcn_kmsg_alloc_pages(&pages[given], 1))
			break;
		f = pcn_page_lock(ctx, idx, false);
		if (IS_ERR(f))
			break;
		e = xa_load(&ctx->pages, idx);
		v = e ? xa_to_value(e) : me;
		ret = -EBUSY;
		if ((v & me) && !(v & BIT(nid))) {
			buf = kmap_local_page(pages[given]);
			ret = pcn_origin_give(ctx, vma, addr, v, v | BIT(nid),
					      buf, false);
			kunmap_local(buf);
		}
		if (!ret) {
			x->addr = addr;
			x->version = atomic64_inc_return(&ctx->version);
			xa_erase(&ctx->grants, idx);
		}
		pcn_page_unlock(ctx, idx, f);
		if (ret)
			break;
	}
	return given;
}

/*
 * Whether @vma can have untouched pages: private anonymous memory
 * (file pages have data), writable, not watched by a userfaultfd
 * (which wants to see every first fault).
 */
static bool pcn_vma_untouchable(struct vm_area_struct *vma)
{
	return vma && vma_is_anonymous(vma) && !userfaultfd_armed(vma) &&
	       (vma->vm_flags & VM_WRITE) && pcn_vma_distributable(vma);
}

/*
 * Page @addr, whose handle the caller owns, is untouched: no node ever
 * had it.  A remote's read of it is then given it for writing, as the
 * untouched pages after a write fault are: its first write asks again
 * otherwise.
 */
static bool pcn_page_is_untouched(struct remote_context *ctx,
				  struct mm_struct *mm, unsigned long addr)
{
	return pcn_vma_untouchable(vma_lookup(mm, addr)) &&
	       !xa_load(&ctx->pages, addr >> PAGE_SHIFT) &&
	       pcn_pte_untouched(mm, addr);
}

/*
 * Untouched pages: after a write grant of @addr to @nid, up to @n of
 * the pages that follow it in its VMA that no node has ever had (no
 * directory entry, nothing ever mapped here), given writable to @nid
 * as pcn_page_grant() gives a page for writing, but without data: a
 * private anonymous page no one touched is zero.  A thread filling
 * fresh memory at a remote (a new heap or arena, a table it clears)
 * then asks once for a run of pages, not once a page.  It stops at the
 * first page that is not untouched or is busy.  Returns how many it
 * gave, named in @x.
 */
static u32 pcn_page_untouched(struct remote_context *ctx,
			      struct mm_struct *mm, int nid,
			      unsigned long addr, u32 n,
			      struct pcn_page_extra *x)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	unsigned long idx;
	struct pcn_fault *f;
	u64 version;
	u32 given;

	if (!pcn_vma_untouchable(vma))
		return 0;
	for (given = 0; given < n; given++, x++) {
		addr += PAGE_SIZE;
		idx = addr >> PAGE_SHIFT;
		if (addr >= vma->vm_end)
			break;
		f = pcn_page_lock(ctx, idx, false);
		if (IS_ERR(f))
			break;
		version = 0;
		/* Under the handle: no fault here can map it meanwhile. */
		if (!xa_load(&ctx->pages, idx) && pcn_pte_untouched(mm, addr) &&
		    !pcn_dir_set(ctx, idx, BIT(nid) | PCN_PG_WRITER)) {
			version = atomic64_inc_return(&ctx->version);
			/* A later pull waits for this grant (page_client.c). */
			if (xa_err(xa_store(&ctx->grants, idx,
					    xa_mk_value(version), GFP_KERNEL))) {
				xa_erase(&ctx->pages, idx);
				version = 0;
			}
		}
		pcn_page_unlock(ctx, idx, f);
		if (!version)
			break;
		x->addr = addr;
		x->version = version;
		pcn_fault_account(PCN_FAULT_UNTOUCHED_GIVEN, 0);
	}
	return given;
}

/*
 * A remote's request for a page (PAGE_REQUEST); a read of an untouched
 * page is answered as a write (pcn_page_is_untouched()).  A page busy with
 * another operation is refused with -EAGAIN, which the remote retries
 * with a growing delay, unless the request says it waited long enough
 * (PCN_PAGE_WAIT): it then queues behind the operation.
 */
static void pcn_handle_page_request(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_page_req *req = (struct pcn_page_req *)msg;
	struct remote_context *ctx = pcn_context_get(req->ctx_id);
	unsigned long addr = req->addr & PAGE_MASK;
	bool write = req->flags & PCN_PAGE_WRITE, upgraded;
	u32 extra = FIELD_GET(PCN_PAGE_EXTRA, req->flags), given = 0, i;
	struct pcn_page_grant *resp, nomem = {};	/* header only */
	/* The data: the page's, then the read copies'. */
	struct page *pages[1 + PCN_PREFETCH_MAX] = {};
	struct mm_struct *mm;
	struct pcn_fault *f;
	size_t max = pcn_kmsg_max_size();
	u64 version = 0, hold = 0;
	int err = -ESRCH;

	if (extra > (write ? PCN_UNTOUCHED_MAX : PCN_PREFETCH_MAX))
		extra = 0;		/* refused below if asked for */
	resp = kzalloc(PCN_GRANT_FRONT(extra), GFP_KERNEL);
	if (!resp || pcn_kmsg_alloc_pages(pages, 1)) {
		/* Still answer: the remote waits for this reply. */
		kfree(resp);
		resp = &nomem;
		err = -ENOMEM;
		goto reply;
	}
	if (!ctx || !test_bit(nid, ctx->asked) ||
	    (req->flags & ~PCN_PAGE_FLAGS) || req->addr >= TASK_SIZE_MAX ||
	    extra != FIELD_GET(PCN_PAGE_EXTRA, req->flags)) {
		err = ctx ? -EINVAL : -ESRCH;
		goto reply;
	}
	mm = ctx->mm;
	if (!mmget_not_zero(mm))
		goto reply;
	/* Not while a VMA change is under way (vma_mirror.c). */
	down_read(&ctx->vma_sem);
	mmap_read_lock(mm);
	f = pcn_page_lock(ctx, addr >> PAGE_SHIFT,
			  req->flags & PCN_PAGE_WAIT);
	if (IS_ERR(f)) {
		err = PTR_ERR(f);
	} else {
		/* Counted once given: the grant may still fail. */
		upgraded = !write && (req->flags & PCN_PAGE_UPGRADE) &&
			   pcn_page_is_untouched(ctx, mm, addr);
		write |= upgraded;
		/* One that waited long enough no longer waits for a hold. */
		err = pcn_page_grant(ctx, mm, nid, addr, write, pages[0],
				     &version, req->flags & PCN_PAGE_WAIT ?
				     NULL : &hold);
		if (hold)
			pcn_fault_account(PCN_FAULT_HOLD, hold);
		if (!err && upgraded)
			pcn_fault_account(PCN_FAULT_UNTOUCHED_GIVEN, 0);
		atomic64_inc(&ctx->faults_served);
		if (!err)
			pcn_share_transfer(ctx, addr >> PAGE_SHIFT, nid);
		pcn_page_unlock(ctx, addr >> PAGE_SHIFT, f);
		if (write)
			extra = min(extra, pcn_grant_untouched_limit(max));
		else
			extra = min(extra, pcn_prefetch_max());
		if (!err && extra && write)
			given = pcn_page_untouched(ctx, mm, nid, addr, extra,
						   resp->x);
		/* Test hook: a lie that the remote must refuse. */
		if (given && write && pcn_inject_fail(PCN_FAIL_GRANT_LIE))
			resp->x[given - 1].addr += PAGE_SIZE;
		if (!err && extra && !write)
			given = pcn_page_prefetch(ctx, mm, nid, addr, extra,
						  resp->x, pages + 1);
	}
	mmap_read_unlock(mm);
	up_read(&ctx->vma_sem);
	mmput(mm);
reply:
	resp->hdr.type = PCN_KMSG_TYPE_PAGE_GRANT;
	resp->ctx_id = req->ctx_id;
	resp->addr = addr;
	resp->error = err;
	resp->write = write;
	if (hold)
		resp->hold_us = DIV_ROUND_UP_ULL(hold, NSEC_PER_USEC);
	else
		resp->version = version;
	resp->extra = given;
	/* The data: the page, and a read grant's copies. */
	pcn_kmsg_reply_pages(nid, msg, resp,
			     err ? PCN_GRANT_HDR : PCN_GRANT_FRONT(given),
			     pages, err ? 0 : 1 + (write ? 0 : given));
	if (resp != &nomem)
		kfree(resp);
	for (i = 0; i < ARRAY_SIZE(pages); i++)
		if (pages[i])
			put_page(pages[i]);
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_done(msg);
}

/*
 * Drop the mmap lock of @mm and wait until the owner of page @idx's
 * handle lets go, for a fault that then returns VM_FAULT_RETRY (as
 * page_client.c does): the owner may wait up to PCN_PAGE_TIMEOUT for a
 * remote, and a VMA change need not wait behind it too.
 */
static void pcn_page_wait_unlocked(struct remote_context *ctx,
				   unsigned long idx, struct mm_struct *mm)
{
	struct pcn_fault *cur;

	xa_lock(&ctx->faults);
	cur = xa_load(&ctx->faults, idx);
	if (cur)
		refcount_inc(&cur->ref);
	xa_unlock(&ctx->faults);
	mmap_read_unlock(mm);
	if (cur) {
		wait_for_completion_killable(&cur->done);
		pcn_fault_put(cur);
	}
}

vm_fault_t pcn_origin_fault(struct remote_context *ctx,
			    struct vm_area_struct *vma, unsigned long addr,
			    unsigned int flags)
{
	unsigned long idx = addr >> PAGE_SHIFT, me = pcn_me(), v;
	bool write = flags & FAULT_FLAG_WRITE;
	struct pcn_fault *f;
	vm_fault_t ret;
	u64 t0, left;
	void *e;

	/* The page server's own access (GUP) while it owns the page. */
	if (pcn_page_owned(ctx, idx))
		return 0;

	t0 = ktime_get_ns();
	/* A fault that may be retried waits for a busy page unlocked. */
	f = pcn_page_lock(ctx, idx, !(flags & FAULT_FLAG_ALLOW_RETRY));
	if (f == ERR_PTR(-EAGAIN)) {
		if (!(flags & FAULT_FLAG_RETRY_NOWAIT))
			pcn_page_wait_unlocked(ctx, idx, vma->vm_mm);
		return VM_FAULT_RETRY;
	}
	if (IS_ERR(f))
		return VM_FAULT_OOM;
	e = xa_load(&ctx->pages, idx);
	v = e ? xa_to_value(e) : me;
	if (!(v & me)) {
		/* A remote writer has it: take it back, once its hold ends. */
		left = 0;
		/* Not a shadow's: its thread at that node waits for it. */
		if ((flags & FAULT_FLAG_ALLOW_RETRY) &&
		    !(flags & FAULT_FLAG_RETRY_NOWAIT) &&
		    !(pcn_current_is_shadow() &&
		      current->peer_nid == pcn_dir_owner(v)))
			left = pcn_hold_left(ctx, idx, pcn_dir_owner(v),
					     pcn_my_nid(), t0);
		if (left) {
			pcn_page_unlock(ctx, idx, f);
			mmap_read_unlock(vma->vm_mm);
			left = min_t(u64, left,
				     PCN_HOLD_SLICE_US * NSEC_PER_USEC);
			pcn_fault_account(PCN_FAULT_HOLD, left);
			/* The holder's node makes this thread wait. */
			pcn_dsm_caused(ctx, v & PCN_PG_HOLDERS, left);
			usleep_range_state(left / NSEC_PER_USEC,
					   left / NSEC_PER_USEC + 20,
					   TASK_KILLABLE);
			return VM_FAULT_RETRY;
		}
		ret = pcn_pull_writer(ctx, vma, addr, v) ?
		      VM_FAULT_SIGBUS : VM_FAULT_NOPAGE;
		if (ret == VM_FAULT_NOPAGE)
			pcn_hold_moved(ctx, idx, pcn_dir_owner(v),
				       pcn_my_nid(), t0, true);
		pcn_page_unlock(ctx, idx, f);
		pcn_fault_account(write ? PCN_FAULT_REMOTE_WRITE :
					  PCN_FAULT_REMOTE_READ,
				  ktime_get_ns() - t0);
		pcn_dsm_caused(ctx, v & PCN_PG_HOLDERS, ktime_get_ns() - t0);
		return ret;
	}
	if (write && v != me) {
		/* A write here: the remotes' copies go first. */
		if (pcn_revoke_readers(ctx, v, addr, -1)) {
			pcn_page_unlock(ctx, idx, f);
			return VM_FAULT_SIGBUS;
		}
		xa_erase(&ctx->pages, idx);
		pcn_hold_moved(ctx, idx, -1, pcn_my_nid(), t0, false);
		pcn_dsm_caused(ctx, v & PCN_PG_HOLDERS, ktime_get_ns() - t0);
	}
	/*
	 * The normal fault path, run while this task owns the page so that
	 * no grant changes it (or gives a copy before its PTE is writable)
	 * meanwhile; it passes through here as the owner.
	 */
	ret = handle_mm_fault(vma, addr, flags & ~FAULT_FLAG_USER, NULL);
	pcn_page_unlock(ctx, idx, f);
	pcn_fault_account(v == me ? PCN_FAULT_LOCAL : PCN_FAULT_REMOTE_WRITE,
			  ktime_get_ns() - t0);
	return ret ? ret : VM_FAULT_NOPAGE;
}

/* A batch of __pcn_pages_reclaim(): the handles it owns. */
struct pcn_reclaim {
	struct pcn_fault *f[PCN_INVAL_MAX];
};

/*
 * Add page @idx, whose handle @f is owned, to @r: only if a remote
 * writes it when @writers_only, and only if a node of @holders holds it
 * (0: any node).  Returns 1 when added, 0 when there is nothing to take
 * back, -ENOSPC when @r is full.
 */
static int pcn_reclaim_add(struct remote_context *ctx, struct pcn_revoke *r,
			   struct pcn_reclaim *w, unsigned long idx,
			   struct pcn_fault *f, bool writers_only,
			   unsigned long holders)
{
	unsigned long addr = idx << PAGE_SHIFT, v;
	void *e = xa_load(&ctx->pages, idx);
	bool added;

	v = e ? xa_to_value(e) : pcn_me();
	if (holders && !(v & holders))
		return 0;
	if (!(v & pcn_me()))
		added = pcn_revoke_add(r, addr, 0, __ffs(v & PCN_PG_HOLDERS));
	else if (v != pcn_me() && !writers_only)
		added = pcn_revoke_add(r, addr, v, -1);
	else
		return 0;
	if (!added)
		return -ENOSPC;
	w->f[r->n - 1] = f;
	return 1;
}

/*
 * Take back the remote copies of the pages in [start, end): only those a
 * remote writes when @writers_only, only those a node of @holders holds
 * unless it is 0.  Up to PCN_INVAL_MAX pages at a time
 * go in one revocation, every holder asked at once.  The first page of
 * a batch is waited for if busy; a later busy one ends the batch and
 * starts the next, so that no handle is waited for while others are
 * held.  With @killable, a fatal signal of the caller ends it between
 * two batches: what is not home yet stays where it is.  Returns how
 * many came home, and in *@kept how many pages a remote writer still
 * holds (it could not give its data back).
 */
static int __pcn_pages_reclaim(struct remote_context *ctx,
			       unsigned long start, unsigned long end,
			       bool writers_only, unsigned long holders,
			       bool killable, int *kept)
{
	unsigned long first = start >> PAGE_SHIFT, last, idx;
	struct mm_struct *mm = ctx->mm;
	struct pcn_revoke_page *p;
	struct pcn_reclaim *w;
	struct pcn_revoke *r;
	struct pcn_fault *f;
	int ret = 0, n = 0, added;
	unsigned int i;
	bool more;

	if (end <= start)
		return 0;
	last = (end - 1) >> PAGE_SHIFT;
	idx = first;
	if (!xa_find(&ctx->pages, &idx, last, XA_PRESENT))
		return 0;
	r = pcn_revoke_alloc(ctx, PCN_INVAL_MAX);
	w = kvmalloc(sizeof(*w), GFP_KERNEL);
	if (!r || !w) {
		ret = -ENOMEM;
		goto out_free;
	}
	mmap_read_lock(mm);
	more = true;
	while (more) {
		pcn_revoke_reset(r);
		for (;;) {
			f = pcn_page_lock(ctx, idx, !r->n);
			if (IS_ERR(f)) {
				if (!r->n)
					ret = PTR_ERR(f);
				break;		/* busy: first of the next batch */
			}
			added = pcn_reclaim_add(ctx, r, w, idx, f, writers_only,
						holders);
			if (added <= 0)
				pcn_page_unlock(ctx, idx, f);
			if (added < 0)
				break;		/* full: first of the next batch */
			if (++idx > last ||
			    !xa_find(&ctx->pages, &idx, last, XA_PRESENT)) {
				more = false;
				break;
			}
		}
		if (ret)
			break;
		pcn_revoke_run(r);
		for (i = 0; i < r->n; i++) {
			p = &r->page[i];
			if (p->data_nid >= 0) {
				if (!p->error &&
				    !pcn_writer_home(ctx, vma_lookup(mm, p->addr),
						     p->addr, p->page))
					n++;
				else
					(*kept)++;
				p->page = NULL;	/* taken over, or none */
			} else if (!p->error) {
				xa_erase(&ctx->pages, p->addr >> PAGE_SHIFT);
				n++;
			}
			pcn_page_unlock(ctx, p->addr >> PAGE_SHIFT, w->f[i]);
		}
		if (more && killable && fatal_signal_pending(current))
			break;
		/* Let a writer of the mmap lock in between batches. */
		if (more) {
			mmap_read_unlock(mm);
			cond_resched();
			mmap_read_lock(mm);
		}
	}
	mmap_read_unlock(mm);
out_free:
	kvfree(w);
	pcn_revoke_free(r);
	return ret ? ret : n;
}

int pcn_pages_reclaim(struct remote_context *ctx, unsigned long start,
		      unsigned long end)
{
	int kept = 0;

	return __pcn_pages_reclaim(ctx, start, end, false, 0, false, &kept);
}

void pcn_pages_forget(struct remote_context *ctx, unsigned long start,
		      unsigned long end)
{
	struct xarray *xa[] = { &ctx->pages, &ctx->grants };
	void *e;
	int i;

	if (end <= start)
		return;
	for (i = 0; i < ARRAY_SIZE(xa); i++) {
		XA_STATE(xas, xa[i], start >> PAGE_SHIFT);

		xas_lock(&xas);
		xas_for_each(&xas, e, (end - 1) >> PAGE_SHIFT)
			xas_store(&xas, NULL);
		xas_unlock(&xas);
	}
	pcn_holds_forget(ctx, start, end);
}

int pcn_pages_reclaim_writers(struct remote_context *ctx, int nid)
{
	unsigned long holders = nid >= 0 ? BIT(nid) : 0;
	int kept = 0, ret;

	ret = __pcn_pages_reclaim(ctx, 0, TASK_SIZE_MAX, true, holders, false,
				  &kept);
	if (ret >= 0 && kept)
		ret = -EIO;
	return ret < 0 ? ret : 0;
}

int pcn_pages_writers_home(struct remote_context *ctx, int nid)
{
	int kept = 0;

	return __pcn_pages_reclaim(ctx, 0, TASK_SIZE_MAX, true, BIT(nid),
				   true, &kept);
}

void pcn_pages_dump(struct seq_file *seq, struct remote_context *ctx)
{
	unsigned long idx, v;
	void *e;

	xa_for_each(&ctx->pages, idx, e) {
		v = xa_to_value(e);
		seq_printf(seq, "%d %lx %lx %c\n", ctx->tgid, idx << PAGE_SHIFT,
			   v & PCN_PG_HOLDERS, v & PCN_PG_WRITER ? 'w' : 'r');
	}
}

static int __init pcn_page_server_init(void)
{
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PAGE_REQUEST,
					"page_request",
					sizeof(struct pcn_page_req),
					sizeof(struct pcn_page_req),
					pcn_handle_page_request);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PAGE_INVALIDATED,
						 "page_invalidated",
						 PCN_INVAL_ACK_SIZE(0, 0),
						 PCN_INVAL_ACK_SIZE(PCN_INVAL_MAX,
								    PCN_INVAL_DATA_MAX));
	if (!ret)
		ret = pcn_kmsg_allow_pages(PCN_KMSG_TYPE_PAGE_INVALIDATED,
					   PCN_INVAL_DATA_MAX);
	return ret;
}
late_initcall(pcn_page_server_init);
