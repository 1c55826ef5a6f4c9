// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn page server: reader-replicate / writer-invalidate coherence of
 * the pages of a distributed process, the origin acting as home.
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
 *   invalidation that must take data from a writer first waits for that
 *   writer's grant to be installed.
 *
 * Ownership changes and the origin's own faults of one process are
 * serialised by ctx->pages_lock (always taken inside mmap_lock); its
 * holder's own faults (GUP by the page server) pass straight through.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/pgtable.h>
#include <linux/rmap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/xarray.h>
#include <asm/tlbflush.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "fault_stat.h"
#include "messages.h"

#define PCN_PAGE_TIMEOUT	(10 * HZ)
#define PCN_PG_WRITER		BIT(POPCORN_MAX_NODES)
#define PCN_PG_HOLDERS		GENMASK(POPCORN_MAX_NODES - 1, 0)

#define PCN_GRANT_HDR		offsetof(struct pcn_page_grant, data)
#define PCN_ACK_HDR		offsetof(struct pcn_page_inval_ack, data)

static unsigned long pcn_me(void)
{
	return BIT(pcn_my_nid());
}

static void pcn_pages_lock(struct remote_context *ctx)
{
	mutex_lock(&ctx->pages_lock);
	WRITE_ONCE(ctx->pages_owner, current);
}

static void pcn_pages_unlock(struct remote_context *ctx)
{
	WRITE_ONCE(ctx->pages_owner, NULL);
	mutex_unlock(&ctx->pages_lock);
}

/* Pages whose contents the protocol can move between nodes. */
static bool pcn_vma_distributable(struct vm_area_struct *vma)
{
	if (vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP | VM_MIXEDMAP |
			     VM_HUGETLB))
		return false;
	/* Special mappings (vDSO, vvar) are each node's own. */
	return vma_is_anonymous(vma) || vma->vm_file;
}

/* The PTE of @addr, locked, or NULL when there is no page table. */
static pte_t *pcn_pte_lock(struct mm_struct *mm, unsigned long addr,
			   spinlock_t **ptl)
{
	pgd_t *pgd = pgd_offset(mm, addr);
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;

	if (pgd_none_or_clear_bad(pgd))
		return NULL;
	p4d = p4d_offset(pgd, addr);
	if (p4d_none_or_clear_bad(p4d))
		return NULL;
	pud = pud_offset(p4d, addr);
	if (pud_none_or_clear_bad(pud))
		return NULL;
	pmd = pmd_offset(pud, addr);
	if (pmd_none(*pmd) || pmd_trans_huge(*pmd) || pmd_bad(*pmd))
		return NULL;
	return pte_offset_map_lock(mm, pmd, addr, ptl);
}

/*
 * Take the page mapped at @addr: zap the PTE, or write-protect it, and
 * then copy the contents to @buf (if given).  The copy is made after the
 * PTE stopped allowing writes, so it is the last data written.
 * Returns -ENOENT if no page is mapped there.
 */
static int pcn_take_pte(struct vm_area_struct *vma, unsigned long addr,
			void *buf, bool zap)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page *page;
	spinlock_t *ptl;	/* the page table lock */
	pte_t *pte, entry;
	void *kaddr;

	pte = pcn_pte_lock(mm, addr, &ptl);
	if (!pte)
		return -ENOENT;
	entry = *pte;
	if (!pte_present(entry)) {
		pte_unmap_unlock(pte, ptl);
		return -ENOENT;
	}
	page = vm_normal_page(vma, addr, entry);	/* NULL: zero page */
	if (page)
		get_page(page);
	if (zap) {
		ptep_clear_flush_notify(vma, addr, pte);
		if (page) {
			page_remove_rmap(page, vma, false);
			dec_mm_counter(mm, mm_counter(page));
			put_page(page);		/* the mapping's reference */
		}
	} else if (pte_write(entry)) {
		entry = ptep_clear_flush_notify(vma, addr, pte);
		set_pte_at(mm, addr, pte, pte_wrprotect(entry));
	}
	pte_unmap_unlock(pte, ptl);

	if (buf) {
		if (page) {
			kaddr = kmap_local_page(page);
			memcpy(buf, kaddr, PAGE_SIZE);
			kunmap_local(kaddr);
		} else {
			memset(buf, 0, PAGE_SIZE);
		}
	}
	if (page)
		put_page(page);
	return 0;
}

/* Remote: an invalidation newer than grant @version came first. */
static bool pcn_grant_stale(struct remote_context *ctx, unsigned long addr,
			    u64 version)
{
	void *e = xa_load(&ctx->pages, addr >> PAGE_SHIFT);

	return e && xa_to_value(e) > version;
}

/*
 * Map a new private page with @data at @addr (no page there yet), as
 * do_anonymous_page() does.  @rctx: at a remote, drop it if stale.
 */
static vm_fault_t pcn_install_page(struct vm_area_struct *vma,
				   unsigned long addr, const void *data,
				   bool writable, struct remote_context *rctx,
				   u64 version)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page *page;
	spinlock_t *ptl;	/* the page table lock */
	pte_t *pte, entry;
	void *kaddr;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;

	pgd = pgd_offset(mm, addr);
	p4d = p4d_alloc(mm, pgd, addr);
	if (!p4d)
		return VM_FAULT_OOM;
	pud = pud_alloc(mm, p4d, addr);
	if (!pud)
		return VM_FAULT_OOM;
	pmd = pmd_alloc(mm, pud, addr);
	if (!pmd || pte_alloc(mm, pmd))
		return VM_FAULT_OOM;
	if (unlikely(pmd_trans_unstable(pmd)))
		return VM_FAULT_NOPAGE;
	if (unlikely(anon_vma_prepare(vma)))
		return VM_FAULT_OOM;
	page = alloc_zeroed_user_highpage_movable(vma, addr);
	if (!page)
		return VM_FAULT_OOM;
	kaddr = kmap_local_page(page);
	memcpy(kaddr, data, PAGE_SIZE);
	kunmap_local(kaddr);
	if (mem_cgroup_charge(page_folio(page), mm, GFP_KERNEL)) {
		put_page(page);
		return VM_FAULT_OOM;
	}
	__SetPageUptodate(page);

	entry = mk_pte(page, vma->vm_page_prot);
	entry = pte_sw_mkyoung(entry);
	if (writable && (vma->vm_flags & VM_WRITE))
		entry = pte_mkwrite(pte_mkdirty(entry));

	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (!pte_none(*pte) ||
	    (rctx && pcn_grant_stale(rctx, addr, version))) {
		/* Raced with another fault or an invalidation: refault. */
		pte_unmap_unlock(pte, ptl);
		put_page(page);
		if (rctx)
			pcn_fault_account(PCN_FAULT_RETRY, 0);
		return VM_FAULT_NOPAGE;
	}
	inc_mm_counter(mm, MM_ANONPAGES);
	page_add_new_anon_rmap(page, vma, addr);
	lru_cache_add_inactive_or_unevictable(page, vma);
	set_pte_at(mm, addr, pte, entry);
	update_mmu_cache(vma, addr, pte);
	pte_unmap_unlock(pte, ptl);
	return VM_FAULT_NOPAGE;
}

/* ---- origin ------------------------------------------------------------ */

/*
 * Ask @nid to drop its copy of @addr, and to send its data when
 * @want_data.  Called with ctx->pages_lock held.
 */
static int pcn_revoke(struct remote_context *ctx, int nid, unsigned long addr,
		      bool want_data, void *buf)
{
	unsigned long idx = addr >> PAGE_SHIFT;
	struct pcn_page_inval req = {
		.hdr.type = PCN_KMSG_TYPE_PAGE_INVALIDATE,
		.ctx_id = ctx->id,
		.want_data = want_data,
		.addr = addr,
	};
	struct pcn_page_inval_ack *ack;
	struct pcn_kmsg_hdr *resp;
	void *e = xa_load(&ctx->pages, idx);
	void *g = xa_load(&ctx->grants, idx);
	u64 t0 = ktime_get_ns();
	int ret;

	if (e && (xa_to_value(e) & PCN_PG_WRITER) && g)
		req.grant = xa_to_value(g);
	req.version = atomic64_inc_return(&ctx->version);
	ret = pcn_kmsg_request(nid, &req, sizeof(req),
			       PCN_KMSG_TYPE_PAGE_INVALIDATED,
			       PCN_PAGE_TIMEOUT, &resp);
	if (ret)
		return ret;
	ack = (struct pcn_page_inval_ack *)resp;
	if (ack->ctx_id != ctx->id || ack->addr != addr)
		ret = -EPROTO;
	else if (want_data && (!ack->has_data ||
			       resp->size != sizeof(*ack)))
		ret = -ENODATA;
	else if (want_data)
		memcpy(buf, ack->data, PAGE_SIZE);
	pcn_kmsg_done(resp);
	pcn_fault_account(PCN_FAULT_INVALIDATION, ktime_get_ns() - t0);
	return ret;
}

/*
 * Invalidate the read copies of every holder in @v but the origin and
 * @except.  A node that is offline has lost its copy; any other failure
 * leaves a copy that may still be mapped: -EIO.
 */
static int pcn_revoke_readers(struct remote_context *ctx, unsigned long v,
			      unsigned long addr, int except)
{
	int nid, ret, err = 0;

	v &= PCN_PG_HOLDERS & ~pcn_me();
	for_each_set_bit(nid, &v, POPCORN_MAX_NODES) {
		if (nid == except)
			continue;
		ret = pcn_revoke(ctx, nid, addr, false, NULL);
		if (ret && pcn_node_online(nid)) {
			pr_warn_ratelimited("page %lx of process %d: node %d did not drop its copy: %d\n",
					    addr, ctx->tgid, nid, ret);
			err = -EIO;
		}
	}
	return err;
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
 * Bring the page of a remote writer back to the origin: its copy is
 * dropped and the data mapped here.  The origin is then its only holder.
 */
static int pcn_pull_writer(struct remote_context *ctx,
			   struct vm_area_struct *vma, unsigned long addr,
			   unsigned long v, void *buf)
{
	unsigned long idx = addr >> PAGE_SHIFT;
	vm_fault_t fault;
	int ret;

	ret = pcn_revoke(ctx, __ffs(v & PCN_PG_HOLDERS), addr, true, buf);
	if (ret) {
		/* An exiting process may find its remote copies gone first. */
		if (!(current->flags & PF_EXITING))
			pr_warn_ratelimited("page %lx of process %d lost: %d\n",
					    addr, ctx->tgid, ret);
		return -EIO;
	}
	xa_erase(&ctx->pages, idx);
	xa_erase(&ctx->grants, idx);
	if (!vma || !pcn_vma_distributable(vma))
		return 0;
	/* Nothing of it may be mapped here (no fault-around): no PTE. */
	fault = pcn_install_page(vma, addr, buf, true, NULL, 0);
	return fault & VM_FAULT_OOM ? -ENOMEM : 0;
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

static int pcn_page_grant(struct remote_context *ctx, struct mm_struct *mm,
			  int nid, unsigned long addr, bool write, void *buf,
			  u64 *version)
{
	unsigned long idx = addr >> PAGE_SHIFT, me = pcn_me(), v, nv;
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	void *e;
	int ret;

	if (!vma)
		return -EFAULT;
	if (!pcn_vma_distributable(vma))
		return -ENXIO;
	if (write && !(vma->vm_flags & VM_WRITE))
		return -EFAULT;

	e = xa_load(&ctx->pages, idx);
	v = e ? xa_to_value(e) : me;
	if (!(v & me)) {
		ret = pcn_pull_writer(ctx, vma, addr, v, buf);
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
	ret = pcn_origin_give(ctx, vma, addr, v, nv, buf, write);
	if (ret)
		return ret;
	*version = atomic64_inc_return(&ctx->version);
	if (!write) {
		xa_erase(&ctx->grants, idx);
		return 0;
	}
	ret = xa_err(xa_store(&ctx->grants, idx, xa_mk_value(*version),
			      GFP_KERNEL));
	/* Without it a later pull would not wait for the grant: undo. */
	if (ret) {
		xa_erase(&ctx->pages, idx);
		pcn_install_page(vma, addr, buf, true, NULL, 0);
	}
	return ret;
}

static void pcn_handle_page_request(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_page_req *req = (struct pcn_page_req *)msg;
	struct remote_context *ctx = pcn_context_get(req->ctx_id);
	unsigned long addr = req->addr & PAGE_MASK;
	struct pcn_page_grant *resp;
	struct mm_struct *mm;
	u64 version = 0;
	int err = -ESRCH;

	resp = kzalloc(sizeof(*resp), GFP_KERNEL);
	if (!resp) {
		if (ctx)
			pcn_context_put(ctx);
		pcn_kmsg_done(msg);
		return;
	}
	if (!ctx || !test_bit(nid, ctx->asked) || req->write > 1 ||
	    req->addr >= TASK_SIZE_MAX)
		goto reply;
	mm = ctx->mm;
	if (!mmget_not_zero(mm))
		goto reply;
	mmap_read_lock(mm);
	pcn_pages_lock(ctx);
	err = pcn_page_grant(ctx, mm, nid, addr, req->write, resp->data,
			     &version);
	pcn_pages_unlock(ctx);
	mmap_read_unlock(mm);
	mmput(mm);
reply:
	resp->hdr.type = PCN_KMSG_TYPE_PAGE_GRANT;
	resp->ctx_id = req->ctx_id;
	resp->addr = addr;
	resp->error = err;
	resp->write = req->write;
	resp->version = version;
	pcn_kmsg_reply(nid, msg, resp, err ? PCN_GRANT_HDR : sizeof(*resp));
	kfree(resp);
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_done(msg);
}

static vm_fault_t pcn_origin_fault(struct remote_context *ctx,
				   struct vm_area_struct *vma,
				   unsigned long addr, unsigned int flags)
{
	unsigned long idx = addr >> PAGE_SHIFT, me = pcn_me(), v;
	bool write = flags & FAULT_FLAG_WRITE;
	vm_fault_t ret;
	void *e, *buf;

	u64 t0;

	/* The page server's own access (GUP) while it holds the lock. */
	if (READ_ONCE(ctx->pages_owner) == current)
		return 0;

	t0 = ktime_get_ns();
	pcn_pages_lock(ctx);
	e = xa_load(&ctx->pages, idx);
	v = e ? xa_to_value(e) : me;
	if (!(v & me)) {
		/* A remote writer has it: take it back. */
		ret = VM_FAULT_OOM;
		buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (buf) {
			ret = pcn_pull_writer(ctx, vma, addr, v, buf) ?
			      VM_FAULT_SIGBUS : VM_FAULT_NOPAGE;
			kfree(buf);
		}
		pcn_pages_unlock(ctx);
		pcn_fault_account(write ? PCN_FAULT_REMOTE_WRITE :
					  PCN_FAULT_REMOTE_READ,
				  ktime_get_ns() - t0);
		return ret;
	}
	if (write && v != me) {
		/* A write here: the remotes' copies go first. */
		if (pcn_revoke_readers(ctx, v, addr, -1)) {
			pcn_pages_unlock(ctx);
			return VM_FAULT_SIGBUS;
		}
		xa_erase(&ctx->pages, idx);
	}
	/*
	 * The normal fault path, run with the lock held so that no grant
	 * changes this page (or gives a copy before its PTE is writable)
	 * meanwhile; it passes through here as the lock's owner.
	 */
	ret = handle_mm_fault(vma, addr, flags & ~FAULT_FLAG_USER, NULL);
	pcn_pages_unlock(ctx);
	pcn_fault_account(v == me ? PCN_FAULT_LOCAL : PCN_FAULT_REMOTE_WRITE,
			  ktime_get_ns() - t0);
	return ret ? ret : VM_FAULT_NOPAGE;
}

int pcn_pages_reclaim(struct remote_context *ctx, unsigned long start,
		      unsigned long end)
{
	unsigned long first = start >> PAGE_SHIFT, last, idx, v;
	struct mm_struct *mm = ctx->mm;
	void *e, *buf;

	if (end <= start)
		return 0;
	last = (end - 1) >> PAGE_SHIFT;
	idx = first;
	if (!xa_find(&ctx->pages, &idx, last, XA_PRESENT))
		return 0;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mmap_read_lock(mm);
	pcn_pages_lock(ctx);
	xa_for_each_range(&ctx->pages, idx, e, first, last) {
		unsigned long addr = idx << PAGE_SHIFT;

		v = xa_to_value(e);
		/* A writer that cannot give its data back keeps the entry. */
		if (!(v & pcn_me())) {
			pcn_pull_writer(ctx, vma_lookup(mm, addr), addr, v,
					buf);
			continue;
		}
		if (!pcn_revoke_readers(ctx, v, addr, -1))
			xa_erase(&ctx->pages, idx);
	}
	pcn_pages_unlock(ctx);
	mmap_read_unlock(mm);
	kfree(buf);
	return 0;
}

/* ---- remote ------------------------------------------------------------- */

static vm_fault_t pcn_remote_fault(struct remote_context *ctx,
				   struct vm_area_struct *vma,
				   unsigned long addr, unsigned int flags)
{
	bool write = flags & FAULT_FLAG_WRITE, present = false;
	struct pcn_page_req req = {
		.hdr.type = PCN_KMSG_TYPE_PAGE_REQUEST,
		.ctx_id = ctx->id,
		.write = write,
		.addr = addr,
	};
	struct pcn_page_grant *grant;
	struct pcn_kmsg_hdr *resp;
	spinlock_t *ptl;	/* the page table lock */
	pte_t *pte, entry;
	vm_fault_t ret;
	u64 t0;
	int err;

	pte = pcn_pte_lock(vma->vm_mm, addr, &ptl);
	if (pte) {
		entry = *pte;
		pte_unmap_unlock(pte, ptl);
		/* Swap and migration entries are this node's business. */
		if (!pte_none(entry) && !pte_present(entry))
			return 0;
		present = pte_present(entry);
		if (present && (!write || pte_write(entry)))
			return 0;
	}
	if (write && !(vma->vm_flags & VM_WRITE))
		return 0;

	t0 = ktime_get_ns();
	err = pcn_kmsg_request(ctx->origin_nid, &req, sizeof(req),
			       PCN_KMSG_TYPE_PAGE_GRANT, PCN_PAGE_TIMEOUT,
			       &resp);
	if (err)
		return VM_FAULT_SIGBUS;
	grant = (struct pcn_page_grant *)resp;
	if (grant->ctx_id != ctx->id || grant->addr != addr ||
	    grant->write != write) {
		ret = VM_FAULT_SIGBUS;
	} else if (grant->error) {
		ret = grant->error == -EFAULT ? VM_FAULT_SIGSEGV :
		      VM_FAULT_SIGBUS;
	} else if (resp->size != sizeof(*grant) || !grant->version ||
		   grant->version >= LONG_MAX) {
		ret = VM_FAULT_SIGBUS;
	} else {
		if (present)	/* our read-only copy gives way */
			pcn_take_pte(vma, addr, NULL, true);
		ret = pcn_install_page(vma, addr, grant->data, write, ctx,
				       grant->version);
		xa_store(&ctx->grants, addr >> PAGE_SHIFT,
			 xa_mk_value(grant->version), GFP_KERNEL);
		wake_up_all(&ctx->wq);
		pcn_fault_account(write ? PCN_FAULT_REMOTE_WRITE :
					  PCN_FAULT_REMOTE_READ,
				  ktime_get_ns() - t0);
	}
	pcn_kmsg_done(resp);
	return ret;
}

static bool pcn_grant_installed(struct remote_context *ctx,
				unsigned long idx, u64 grant)
{
	void *e = xa_load(&ctx->grants, idx);

	return e && xa_to_value(e) >= grant;
}

static void pcn_handle_page_invalidate(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_page_inval *req = (struct pcn_page_inval *)msg;
	unsigned long addr = req->addr & PAGE_MASK;
	unsigned long idx = addr >> PAGE_SHIFT;
	struct pcn_page_inval_ack *ack;
	struct remote_context *ctx;
	struct vm_area_struct *vma;
	u64 t0 = ktime_get_ns();
	struct mm_struct *mm;
	bool had = false;

	ack = kzalloc(sizeof(*ack), GFP_KERNEL);
	if (!ack) {
		pcn_kmsg_done(msg);
		return;
	}
	ctx = pcn_remote_context_get(nid, req->ctx_id);
	if (ctx && req->addr < TASK_SIZE_MAX && req->version < LONG_MAX &&
	    req->grant < LONG_MAX) {
		/* The writer's grant is on its way to its PTE: let it land. */
		if (req->grant)
			wait_event_timeout(ctx->wq,
					   pcn_grant_installed(ctx, idx,
							       req->grant),
					   PCN_PAGE_TIMEOUT);
		xa_store(&ctx->pages, idx, xa_mk_value(req->version),
			 GFP_KERNEL);
		mm = ctx->mm;
		/* Late (the origin gave up on it): a newer grant stays. */
		if (pcn_grant_installed(ctx, idx, req->version + 1))
			mm = NULL;
		if (mm && mmget_not_zero(mm)) {
			mmap_read_lock(mm);
			vma = vma_lookup(mm, addr);
			if (vma && pcn_vma_distributable(vma))
				had = !pcn_take_pte(vma, addr,
						    req->want_data ?
						    ack->data : NULL, true);
			mmap_read_unlock(mm);
			mmput(mm);
		}
	}
	if (ctx) {
		pcn_context_put(ctx);
		pcn_fault_account(PCN_FAULT_INVALIDATION, ktime_get_ns() - t0);
	}
	ack->hdr.type = PCN_KMSG_TYPE_PAGE_INVALIDATED;
	ack->ctx_id = req->ctx_id;
	ack->addr = req->addr;
	ack->has_data = had && req->want_data;
	pcn_kmsg_reply(nid, msg, ack,
		       ack->has_data ? sizeof(*ack) : PCN_ACK_HDR);
	kfree(ack);
	pcn_kmsg_done(msg);
}

vm_fault_t __pcn_handle_mm_fault(struct vm_area_struct *vma,
				 unsigned long address, unsigned int flags)
{
	struct remote_context *ctx = READ_ONCE(vma->vm_mm->remote);

	if (!ctx || !pcn_vma_distributable(vma))
		return 0;
	address &= PAGE_MASK;
	if (ctx->at_origin)
		return pcn_origin_fault(ctx, vma, address, flags);
	return pcn_remote_fault(ctx, vma, address, flags);
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
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PAGE_GRANT,
						 "page_grant", PCN_GRANT_HDR,
						 sizeof(struct pcn_page_grant));
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PAGE_INVALIDATE,
						"page_invalidate",
						sizeof(struct pcn_page_inval),
						sizeof(struct pcn_page_inval),
						pcn_handle_page_invalidate);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PAGE_INVALIDATED,
						 "page_invalidated", PCN_ACK_HDR,
						 sizeof(struct pcn_page_inval_ack));
	return ret;
}
late_initcall(pcn_page_server_init);
