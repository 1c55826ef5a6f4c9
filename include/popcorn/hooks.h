/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn hooks called from core kernel code.  Each is a static inline
 * that costs a store or a pointer test, and calls into kernel/popcorn/
 * only for a distributed process; without CONFIG_POPCORN they vanish.
 */
#ifndef _POPCORN_HOOKS_H
#define _POPCORN_HOOKS_H

#ifdef CONFIG_POPCORN

#include <linux/compiler.h>
#include <linux/mm_types.h>
#include <linux/sched.h>

void __pcn_mm_exit(struct mm_struct *mm);

/* mm_init(): every new mm, allocated or duplicated, starts local. */
static inline void pcn_mm_init(struct mm_struct *mm)
{
	mm->remote = NULL;
}

/* __mmput(): the last user of @mm is gone. */
static inline void pcn_mm_exit(struct mm_struct *mm)
{
	if (unlikely(mm->remote))
		__pcn_mm_exit(mm);
}

/* copy_process(): a new task has not migrated. */
static inline void pcn_task_fork(struct task_struct *p,
				 unsigned long clone_flags)
{
	p->remote = NULL;
	p->peer_nid = -1;
	p->peer_pid = 0;
	p->at_remote = false;
	p->is_worker = false;
}

#else /* !CONFIG_POPCORN */

struct mm_struct;
struct task_struct;

static inline void pcn_mm_init(struct mm_struct *mm) {}
static inline void pcn_mm_exit(struct mm_struct *mm) {}
static inline void pcn_task_fork(struct task_struct *p,
				 unsigned long clone_flags) {}

#endif /* CONFIG_POPCORN */
#endif /* _POPCORN_HOOKS_H */
