// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn pages: what both sides of the page protocol share.  Fault
 * handles, the mapping and unmapping of single private pages, and the
 * fault hook that hands a fault to the origin's or a remote's half
 * (page_server.c, page_client.c).
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/pgtable.h>
#include <linux/rmap.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/xarray.h>
#include <asm/tlbflush.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "fault_stat.h"
#include "page.h"

struct pcn_fault *pcn_fault_alloc(void)
{
	struct pcn_fault *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (f) {
		refcount_set(&f->ref, 1);
		init_completion(&f->done);
		f->state = PCN_F_WAITING;
	}
	return f;
}

/* Freed after a grace period: the origin reads f->owner under RCU. */
void pcn_fault_put(struct pcn_fault *f)
{
	if (!refcount_dec_and_test(&f->ref))
		return;
	if (f->grant)
		pcn_kmsg_done(&f->grant->hdr);
	kfree_rcu(f, rcu);
}

/* The context ends: drop the handles left (answers never installed). */
void pcn_pages_release(struct remote_context *ctx)
{
	struct pcn_fault *f;
	unsigned long idx;

	xa_for_each(&ctx->faults, idx, f) {
		xa_erase(&ctx->faults, idx);
		pcn_fault_put(f);
	}
	xa_destroy(&ctx->faults);
}

/* Pages whose contents the protocol can move between nodes. */
bool pcn_vma_distributable(struct vm_area_struct *vma)
{
	if (vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP | VM_MIXEDMAP |
			     VM_HUGETLB))
		return false;
	/* Special mappings (vDSO, vvar) are each node's own. */
	return vma_is_anonymous(vma) || vma->vm_file;
}

/* The PTE of @addr, locked, or NULL when there is no page table. */
pte_t *pcn_pte_lock(struct mm_struct *mm, unsigned long addr,
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

bool pcn_pte_untouched(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = pgd_offset(mm, addr);
	spinlock_t *ptl;	/* the page table lock */
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;
	pte_t *pte;
	bool none;

	if (pgd_none(*pgd))
		return true;
	p4d = p4d_offset(pgd, addr);
	if (p4d_none(*p4d))
		return true;
	if (p4d_bad(*p4d))
		return false;
	pud = pud_offset(p4d, addr);
	if (pud_none(*pud))
		return true;
	if (pud_bad(*pud) || pud_trans_huge(*pud))
		return false;
	pmd = pmd_offset(pud, addr);
	if (pmd_none(*pmd))
		return true;
	/* A huge page or a PMD under migration is a page. */
	if (!pmd_present(*pmd) || pmd_trans_huge(*pmd) || pmd_bad(*pmd))
		return false;
	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	none = pte_none(*pte);
	pte_unmap_unlock(pte, ptl);
	return none;
}

#define PCN_TAKE_TRIES	3

/*
 * Take the page mapped at @addr: zap the PTE, or write-protect it, and
 * then copy the contents to @buf (if given).  The copy is made after the
 * PTE stopped allowing writes, so it is the last data written.  A page
 * swapped out or under migration is brought in first: it is never taken
 * for a page this node does not have.  Returns -ENOENT if no page is
 * mapped there.  Called with the mmap lock held.
 */
int pcn_take_pte(struct vm_area_struct *vma, unsigned long addr, void *buf,
		 bool zap)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page *page;
	spinlock_t *ptl;	/* the page table lock */
	pte_t *pte, entry;
	void *kaddr;
	int tries;

	for (tries = 0; ; tries++) {
		pte = pcn_pte_lock(mm, addr, &ptl);
		if (!pte)
			return -ENOENT;
		entry = *pte;
		if (pte_present(entry))
			break;
		pte_unmap_unlock(pte, ptl);
		if (pte_none(entry) || tries == PCN_TAKE_TRIES)
			return -ENOENT;
		/*
		 * Swapped out or being migrated by this node's kernel: the
		 * page is still ours, so bring it in (the fault hook leaves
		 * such entries to the normal path) and look again.
		 */
		if (get_user_pages_remote(mm, addr, 1, FOLL_FORCE, &page, NULL,
					  NULL) == 1)
			put_page(page);
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
 * Map @page, full of the data that belongs at @addr (no page there yet),
 * as do_anonymous_page() maps a new one.  The caller's reference to
 * @page is taken over, mapped or dropped.  @rctx: at a remote, drop it
 * if stale.  The page came straight from the network (pcn_kmsg.h) or
 * was filled by the caller: never copied here.
 */
vm_fault_t pcn_install_page(struct vm_area_struct *vma, unsigned long addr,
			    struct page *page, bool writable,
			    struct remote_context *rctx, u64 version)
{
	struct mm_struct *mm = vma->vm_mm;
	spinlock_t *ptl;	/* the page table lock */
	pte_t *pte, entry;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;

	/* Taken over already: a bug, but the fault can ask again. */
	if (WARN_ON_ONCE(!page))
		return VM_FAULT_NOPAGE;
	pgd = pgd_offset(mm, addr);
	p4d = p4d_alloc(mm, pgd, addr);
	if (!p4d)
		goto oom;
	pud = pud_alloc(mm, p4d, addr);
	if (!pud)
		goto oom;
	pmd = pmd_alloc(mm, pud, addr);
	if (!pmd || pte_alloc(mm, pmd))
		goto oom;
	if (unlikely(pmd_trans_unstable(pmd))) {
		put_page(page);
		return VM_FAULT_NOPAGE;
	}
	if (unlikely(anon_vma_prepare(vma)))
		goto oom;
	if (mem_cgroup_charge(page_folio(page), mm, GFP_KERNEL))
		goto oom;
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
	/*
	 * Under the lock, so that a revocation finds either the page or the
	 * note: an untouched note no newer than this grant is void once the
	 * page is mapped (page_client.c).
	 */
	if (rctx)
		pcn_untouched_forget(rctx, addr >> PAGE_SHIFT, version);
	pte_unmap_unlock(pte, ptl);
	return VM_FAULT_NOPAGE;
oom:
	put_page(page);
	return VM_FAULT_OOM;
}

vm_fault_t __pcn_handle_mm_fault(struct vm_area_struct *vma,
				 unsigned long address, unsigned int flags)
{
	struct remote_context *ctx = READ_ONCE(vma->vm_mm->remote);
	bool shared = true;
	vm_fault_t ret;
	u64 t0;

	if (!ctx || !pcn_vma_distributable(vma))
		return 0;
	address &= PAGE_MASK;
	/* At a remote: whether another node took the page from here. */
	if (!ctx->at_origin)
		shared = !!xa_load(&ctx->pages, address >> PAGE_SHIFT);
	t0 = ktime_get_ns();
	if (ctx->at_origin)
		ret = pcn_origin_fault(ctx, vma, address, flags);
	else
		ret = pcn_remote_fault(ctx, vma, address, flags);
	/*
	 * 0: the page is here, the kernel's fault path maps it; anything
	 * else went through the protocol, locally or over the network.
	 * The context stays: the caller holds the mm, which holds it.
	 */
	if (ret)
		pcn_dsm_wait_add(ctx, "fault", ktime_get_ns() - t0, shared);
	return ret;
}
