// SPDX-License-Identifier: GPL-2.0
/*
 * fork() of a distributed process at its origin.
 *
 * dup_mmap() copies the origin's page tables, but a page a remote node
 * writes is not mapped at the origin: the child would find anonymous
 * memory there and read zeros.  So the origin first brings every such
 * page home (read copies may stay: the origin has the same data), and
 * holds vma_sem for writing until the copy is made, so that no remote
 * is granted a page meanwhile.  The child's mm is an ordinary one
 * (pcn_mm_init()): its pages are its own from then on.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/mm_types.h>
#include <linux/printk.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <popcorn/hooks.h>

#include "context.h"

int __pcn_dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm,
		   int (*dup)(struct mm_struct *mm, struct mm_struct *oldmm))
{
	struct remote_context *ctx = oldmm->remote;
	int err;

	/* A remote node's copy of the mm is not forked from. */
	if (!ctx->at_origin)
		return dup(mm, oldmm);
	down_write(&ctx->vma_sem);
	err = pcn_pages_reclaim_writers(ctx, -1);
	if (err)
		pr_warn_ratelimited("fork of process %d: pages still at remote nodes: %d\n",
				    ctx->tgid, err);
	else
		err = dup(mm, oldmm);
	up_write(&ctx->vma_sem);
	return err;
}
