// SPDX-License-Identifier: GPL-2.0
/*
 * Keeping every node's VMAs of a distributed process in step with the
 * origin's.
 *
 * Every address-space call of the process (mmap, munmap, brk, mprotect,
 * mremap, madvise) runs at the origin: an origin thread's directly, a
 * remote thread's in its shadow (vma_server.c).  Around each call the
 * origin holds ctx->vma_sem for writing, so that the page server gives
 * no page out meanwhile, and:
 *
 * - before it, takes back every remote copy of the pages in the ranges
 *   the call changes (data of a remote writer comes home first), except
 *   for munmap, whose data nobody will read again;
 * - after it, has every other node that runs threads of the process
 *   unmap those ranges (VMA_DROP, answered by VMA_DROPPED once done).
 *   A remote fetches a VMA again, as the origin now has it, on its next
 *   fault there; the node that made the call drops them itself.  After
 *   a munmap the origin then forgets who held the range's pages: one
 *   message per node instead of one invalidation per page.  A node
 *   that does not confirm the drop while online loses its connection
 *   (as for a lost message, kmsg_vital.c), which ends its copies too.
 *
 * So a page unmapped at the origin faults with SIGSEGV everywhere, and a
 * range made read-only gives SIGSEGV to a later write on any node.  The
 * end of an origin thread's call runs as task work on its way back to
 * user space, where the call's result is in its registers.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/err.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <asm/syscall.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "fault_stat.h"
#include "inject.h"
#include "kmsg_internal.h"
#include "messages.h"

#define PCN_VMA_DROP_TIMEOUT	(10 * HZ)
/* Test hook vma_hold: how long a change waits before its drops. */
#define PCN_VMA_HOLD_MS		2000

struct pcn_vma_change {
	struct callback_head twork;
	struct remote_context *ctx;
	enum pcn_vma_op op;
	unsigned long args[6];
	unsigned long old_brk;
};

/* Ranges an operation changed: at most two, [i][0] = start, [i][1] = end. */
static int pcn_vma_op_ranges(enum pcn_vma_op op, const unsigned long *a,
			     long ret, unsigned long old_brk,
			     unsigned long r[2][2])
{
	switch (op) {
	case PCN_VMA_MMAP:
		if (IS_ERR_VALUE(ret))
			return 0;
		r[0][0] = ret;
		r[0][1] = ret + a[1];
		return 1;
	case PCN_VMA_BRK:
		r[0][0] = min_t(unsigned long, old_brk, ret);
		r[0][1] = max_t(unsigned long, old_brk, ret);
		return 1;
	case PCN_VMA_MADVISE:
		/* Only the pages moved: every node keeps its VMAs. */
		if (a[2] == MADV_RELEASE)
			return 0;
		r[0][0] = a[0];
		r[0][1] = a[0] + a[1];
		return 1;
	case PCN_VMA_MREMAP:
		r[0][0] = a[0];
		r[0][1] = a[0] + max(a[1], a[2]);
		if (IS_ERR_VALUE(ret))
			return 1;
		r[1][0] = ret;
		r[1][1] = ret + a[2];
		return 2;
	default:
		r[0][0] = a[0];
		r[0][1] = a[0] + a[1];
		return 1;
	}
}

/* MADV_RELEASE: the pages come home, counted in /proc/popcorn_stat. */
static void pcn_pages_release_range(struct remote_context *ctx,
				    unsigned long start, unsigned long len)
{
	u64 t0 = ktime_get_ns();
	int n, i;

	n = pcn_pages_reclaim(ctx, start & PAGE_MASK,
			      PAGE_ALIGN(start + len));
	for (i = 0; i < n; i++)
		pcn_fault_account(PCN_FAULT_RELEASE,
				  div_u64(ktime_get_ns() - t0, n));
}

/*
 * Take back remote copies in the ranges @op changes.  The range of a
 * MAP_FIXED mmap or an mremap target is only known for sure after the
 * call; both are covered by their addresses as given.
 */
static void pcn_vma_op_prepare(struct remote_context *ctx,
			       enum pcn_vma_op op, const unsigned long *a,
			       unsigned long old_brk)
{
	switch (op) {
	case PCN_VMA_MMAP:
		if (a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE))
			pcn_pages_reclaim(ctx, a[0], a[0] + a[1]);
		break;
	case PCN_VMA_BRK:
		/* brk(0) and other refused values change nothing. */
		if (a[0] >= ctx->mm->start_brk)
			pcn_pages_reclaim(ctx, min(a[0], old_brk) & PAGE_MASK,
					  PAGE_ALIGN(max(a[0], old_brk)));
		break;
	case PCN_VMA_MREMAP:
		pcn_pages_reclaim(ctx, a[0], a[0] + max(a[1], a[2]));
		if (a[3] & MREMAP_FIXED)
			pcn_pages_reclaim(ctx, a[4], a[4] + a[2]);
		break;
	case PCN_VMA_MADVISE:
		if (a[2] == MADV_RELEASE) {
			pcn_pages_release_range(ctx, a[0], a[1]);
			break;
		}
		fallthrough;
	default:
		/* Unmapped data is not wanted: see pcn_vma_change_end(). */
		if (op == PCN_VMA_MUNMAP)
			break;
		pcn_pages_reclaim(ctx, a[0], a[0] + a[1]);
		break;
	}
}

struct pcn_vma_drop_failure {
	struct remote_context *ctx;
	bool vital;
};

/* @nid did not confirm a drop: log it, and end its connection if vital. */
static void pcn_vma_drop_failed(int nid, int err, void *arg)
{
	struct pcn_vma_drop_failure *f = arg;

	if (!pcn_node_online(nid))
		return;
	pr_warn_ratelimited("node %d did not drop VMAs of process %d: %d\n",
			    nid, f->ctx->tgid, err);
	if (f->vital && err != -EINTR)
		pcn_kmsg_lost(nid, PCN_KMSG_TYPE_VMA_DROP, err);
}

/*
 * Every node but @except with threads of the process drops @m's ranges,
 * all asked at once.  When the drop is @vital (the origin forgets the
 * range's copies), an online node that does not confirm it loses its
 * connection.
 */
static void pcn_vma_drop_everywhere(struct remote_context *ctx,
				    struct pcn_vma_drop_msg *m, int except,
				    bool vital)
{
	struct pcn_vma_drop_failure f = { .ctx = ctx, .vital = vital };
	DECLARE_BITMAP(nodes, POPCORN_MAX_NODES);
	int nid;

	mutex_lock(&ctx->lock);
	bitmap_copy(nodes, ctx->workers, POPCORN_MAX_NODES);
	mutex_unlock(&ctx->lock);
	for_each_set_bit(nid, nodes, POPCORN_MAX_NODES)
		if (nid == except || !pcn_node_online(nid))
			clear_bit(nid, nodes);
	pcn_kmsg_request_nodes(nodes, m, sizeof(*m),
			       PCN_KMSG_TYPE_VMA_DROPPED, PCN_VMA_DROP_TIMEOUT,
			       pcn_vma_drop_failed, &f);
}

struct pcn_vma_change *pcn_vma_change_begin(struct remote_context *ctx,
					    enum pcn_vma_op op,
					    const unsigned long *args)
{
	struct pcn_vma_change *ch = kzalloc(sizeof(*ch), GFP_KERNEL);

	if (!ch)
		return NULL;
	kref_get(&ctx->kref);
	ch->ctx = ctx;
	ch->op = op;
	memcpy(ch->args, args, sizeof(ch->args));
	down_write(&ctx->vma_sem);
	ch->old_brk = ctx->mm->brk;
	pcn_vma_op_prepare(ctx, op, args, ch->old_brk);
	return ch;
}

void pcn_vma_change_end(struct pcn_vma_change *ch, long ret, int except)
{
	struct remote_context *ctx = ch->ctx;
	struct pcn_vma_drop_msg m = {
		.hdr.type = PCN_KMSG_TYPE_VMA_DROP,
		.ctx_id = ctx->id,
	};
	unsigned long r[2][2];
	int i, n;

	n = pcn_vma_op_ranges(ch->op, ch->args, ret, ch->old_brk, r);
	/* A munmap that failed changed nothing; its copies were kept. */
	if (ch->op == PCN_VMA_MUNMAP && ret)
		n = 0;
	for (i = 0; i < n; i++) {
		r[i][0] &= PAGE_MASK;
		r[i][1] = PAGE_ALIGN(r[i][1]);
		/* A result that is no address (the call failed) drops nothing. */
		if (r[i][0] >= r[i][1] || r[i][1] > TASK_SIZE_MAX)
			continue;
		m.range[m.nr][0] = r[i][0];
		m.range[m.nr][1] = r[i][1];
		m.nr++;
	}
	/*
	 * After a munmap the directory forgets the range, so even the
	 * calling node must have dropped it before the lock goes.
	 */
	if (ch->op == PCN_VMA_MUNMAP)
		except = -1;
	/*
	 * Grants of the ranges given before this (under vma_sem, none
	 * meanwhile) have lower versions, those given after it higher.
	 */
	m.version = atomic64_inc_return(&ctx->version);
	if (pcn_inject_fail(PCN_FAIL_VMA_HOLD))
		msleep(PCN_VMA_HOLD_MS);
	/*
	 * A node that did not confirm the drop is offline, or loses its
	 * connection now, and its copies with it: forget them all.
	 */
	if (m.nr)
		pcn_vma_drop_everywhere(ctx, &m, except,
					ch->op == PCN_VMA_MUNMAP);
	if (m.nr && ch->op == PCN_VMA_MUNMAP)
		pcn_pages_forget(ctx, m.range[0][0], m.range[0][1]);
	up_write(&ctx->vma_sem);
	pcn_context_put(ctx);
	kfree(ch);
}

/* An origin thread's call is over: its result is in its registers. */
static void pcn_vma_change_work(struct callback_head *head)
{
	struct pcn_vma_change *ch = container_of(head, struct pcn_vma_change,
						 twork);

	pcn_vma_change_end(ch, syscall_get_return_value(current,
							current_pt_regs()),
			   -1);
}

int pcn_vma_change_origin(struct remote_context *ctx, enum pcn_vma_op op,
			  const unsigned long *args)
{
	struct pcn_vma_change *ch = pcn_vma_change_begin(ctx, op, args);

	if (!ch)
		return -ENOMEM;
	init_task_work(&ch->twork, pcn_vma_change_work);
	/* Exiting: nothing runs after the call; mirror what is known. */
	if (task_work_add(current, &ch->twork, TWA_RESUME))
		pcn_vma_change_end(ch, -ESRCH, -1);
	return 0;
}

/* madvise(MADV_RELEASE) at the origin, by a thread or for a shadow's. */
long pcn_vma_release(struct remote_context *ctx, const unsigned long *args)
{
	struct pcn_vma_change *ch;

	if (args[0] & ~PAGE_MASK)
		return -EINVAL;
	ch = pcn_vma_change_begin(ctx, PCN_VMA_MADVISE, args);
	if (!ch)
		return -ENOMEM;
	pcn_vma_change_end(ch, 0, -1);
	return 0;
}

/* ---- remote ------------------------------------------------------------- */

static bool pcn_vma_drop_ok(const struct pcn_vma_drop_msg *m)
{
	u32 i;

	if (m->nr > PCN_VMA_DROP_RANGES || !m->version ||
	    m->version >= LONG_MAX)
		return false;
	for (i = 0; i < m->nr; i++)
		if (m->range[i][0] >= m->range[i][1] ||
		    m->range[i][1] > TASK_SIZE_MAX ||
		    (m->range[i][0] | m->range[i][1]) & ~PAGE_MASK)
			return false;
	return true;
}

static void pcn_handle_vma_drop(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_vma_drop_msg *m = (struct pcn_vma_drop_msg *)msg;
	struct pcn_vma_drop_msg done = {
		.hdr.type = PCN_KMSG_TYPE_VMA_DROPPED,
		.ctx_id = m->ctx_id,
	};
	struct remote_context *ctx = pcn_remote_context_get(nid, m->ctx_id);
	struct mm_struct *mm;
	u32 i;

	if (!pcn_vma_drop_ok(m)) {
		pr_warn_ratelimited("bad vma_drop from node %d\n", nid);
	} else if (ctx && mmget_not_zero(ctx->mm)) {
		mm = ctx->mm;
		mmap_write_lock(mm);
		atomic_inc(&ctx->vma_drops);
		for (i = 0; i < m->nr; i++) {
			pcn_faults_drop(ctx, m->range[i][0], m->range[i][1],
					m->version);
			do_munmap(mm, m->range[i][0],
				  m->range[i][1] - m->range[i][0], NULL);
			done.nr++;
		}
		mmap_write_unlock(mm);
		mmput(mm);
	}
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_reply(nid, msg, &done, sizeof(done));
	pcn_kmsg_done(msg);
}

static int __init pcn_vma_mirror_init(void)
{
	size_t size = sizeof(struct pcn_vma_drop_msg);
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_VMA_DROP, "vma_drop",
					size, size, pcn_handle_vma_drop);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_VMA_DROPPED,
						 "vma_dropped", size, size);
	return ret;
}
late_initcall(pcn_vma_mirror_init);
