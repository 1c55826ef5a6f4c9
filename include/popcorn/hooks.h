/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn hooks called from core kernel code.  Each is a static inline
 * that costs a store or a pointer test, and calls into kernel/popcorn/
 * only for a distributed process; without CONFIG_POPCORN they vanish.
 */
#ifndef _POPCORN_HOOKS_H
#define _POPCORN_HOOKS_H

#include <linux/ktime.h>
#include <linux/mm_types.h>
#include <linux/types.h>

struct pt_regs;

/* The address-space system calls pcn_vma_syscall() is given. */
enum pcn_vma_op {
	PCN_VMA_MMAP,
	PCN_VMA_MUNMAP,
	PCN_VMA_BRK,
	PCN_VMA_MPROTECT,
	PCN_VMA_MREMAP,
	PCN_VMA_MADVISE,
	PCN_VMA_NR_OPS
};

#ifdef CONFIG_POPCORN

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

/*
 * The hooks are __always_inline: the kernel may be built for size
 * (-Os), where the compiler would otherwise call them out of line, and
 * a process that is not distributed must pay a load and a test, not a
 * call (make bench, "cost when unused").
 *
 * On once a migrated thread has run on this node (migrate.c): until
 * then the system call hooks are a patched-out jump, not a test.
 */
DECLARE_STATIC_KEY_FALSE(pcn_remote_threads);

void __pcn_mm_exit(struct mm_struct *mm);
vm_fault_t __pcn_handle_mm_fault(struct vm_area_struct *vma,
				 unsigned long address, unsigned int flags);
void __pcn_vma_fault(struct mm_struct *mm, unsigned long address);
void __pcn_task_exit(struct task_struct *tsk, long code);
struct kernel_siginfo;
void __pcn_coredump_away(const struct kernel_siginfo *info);
void __pcn_coredump_begin(struct mm_struct *mm);
void __pcn_coredump_end(struct mm_struct *mm);
bool __pcn_vma_syscall(enum pcn_vma_op op, const unsigned long *args,
		       long *ret);
bool __pcn_remote_write(unsigned int fd, const char __user *buf,
			size_t count, ssize_t *ret);
bool __pcn_remote_futex(u32 __user *uaddr, int op, u32 val,
			const ktime_t *timeout, u32 __user *uaddr2, u32 val2,
			u32 val3, long *ret);
bool __pcn_futex_waitv_refused(void);
int __pcn_dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm,
		   int (*dup)(struct mm_struct *mm, struct mm_struct *oldmm));
int __pcn_remote_syscall(struct pt_regs *regs, int nr);
int __pcn_remote_syscall_32(struct pt_regs *regs, int nr);
void __pcn_proposal_run(void);
void __pcn_ptrace_unlinked(struct task_struct *child);
void __pcn_place_thread(struct task_struct *p);
void __pcn_seccomp_synced(void);

/*
 * task_struct->pcn_proposal (kernel/popcorn/propose.c): 0 for none,
 * else the proposed node + 1, with PCN_PROPOSAL_ARMED until the thread
 * has tried the move.
 */
#define PCN_PROPOSAL_ARMED	BIT(16)
#define PCN_PROPOSAL_NID	0xffff
/*
 * On a shadow while it makes a clone for its remote thread: a thread the
 * call creates goes to the node in PCN_PROPOSAL_NID (pcn_task_fork()).
 */
#define PCN_PROPOSAL_CHILD	BIT(17)
/*
 * Made by the process's placement policy (placement.c): a move that
 * fails is dropped, and the thread runs where it is.
 */
#define PCN_PROPOSAL_PLACED	BIT(18)
/* Being tried: the thread is on its way (propose.c). */
#define PCN_PROPOSAL_MOVING	BIT(19)

/* mm_init(): every new mm, allocated or duplicated, starts local. */
static __always_inline void pcn_mm_init(struct mm_struct *mm)
{
	mm->remote = NULL;
}

/* __mmput(): the last user of @mm is gone. */
static __always_inline void pcn_mm_exit(struct mm_struct *mm)
{
	if (unlikely(mm->remote))
		__pcn_mm_exit(mm);
}

/* copy_process(): a new task has not migrated. */
static __always_inline void pcn_task_fork(struct task_struct *p,
					  unsigned long clone_flags)
{
	p->remote = NULL;
	p->peer_nid = -1;
	p->peer_pid = 0;
	p->at_remote = false;
	p->is_worker = false;
	p->pcn_proposal = 0;
	if (!(clone_flags & CLONE_THREAD))
		return;
	/*
	 * A new thread of a process with a placement policy goes where
	 * the policy says; proposed before it can run, so that it runs
	 * nothing here.
	 */
	if (unlikely(READ_ONCE(current->signal->pcn_place_nodes))) {
		__pcn_place_thread(p);
		return;
	}
	/* A thread made for a remote thread goes where its creator runs. */
	if (unlikely(READ_ONCE(current->pcn_proposal) & PCN_PROPOSAL_CHILD)) {
		p->pcn_proposal = (current->pcn_proposal & PCN_PROPOSAL_NID) |
				  PCN_PROPOSAL_ARMED;
		set_tsk_thread_flag(p, TIF_NOTIFY_RESUME);
	}
}

/* copy_signal(): a new process keeps its parent's placement policy. */
static __always_inline void pcn_signal_fork(struct signal_struct *sig)
{
	sig->pcn_place_nodes = current->signal->pcn_place_nodes;
}

/*
 * begin_new_exec(), for an exec that changes privileges (setuid,
 * setgid, file capabilities): the policy its unprivileged caller set,
 * or a move proposed for it, does not bind the new program.
 */
static __always_inline void pcn_exec_secure(struct task_struct *me)
{
	WRITE_ONCE(me->signal->pcn_place_nodes, 0);
	/* Nor does a move proposed to the caller. */
	xchg(&me->pcn_proposal, 0);
}

/*
 * handle_mm_fault(): a page of a distributed mm may be owned by another
 * node.  Returns a VM_FAULT_ code when Popcorn handled the fault, 0 to
 * let the normal path run.
 */
static __always_inline vm_fault_t pcn_handle_mm_fault(struct vm_area_struct *vma,
						      unsigned long address,
						      unsigned int flags)
{
	if (likely(!vma->vm_mm->remote))
		return 0;
	return __pcn_handle_mm_fault(vma, address, flags);
}

/* should_fault_around(): pages of a distributed mm are mapped one by one. */
static __always_inline bool pcn_mm_distributed(struct mm_struct *mm)
{
	return unlikely(mm->remote);
}

/* x86 do_user_addr_fault(): fetch a VMA a remote node does not have. */
static __always_inline void pcn_vma_fault(struct mm_struct *mm, unsigned long address)
{
	if (unlikely(mm->remote))
		__pcn_vma_fault(mm, address);
}

/* do_exit(): a migrated thread's exit ends its counterpart. */
static __always_inline void pcn_task_exit(struct task_struct *tsk, long code)
{
	if (unlikely(tsk->remote))
		__pcn_task_exit(tsk, code);
}

/*
 * do_coredump(): a migrated thread dies of a signal that dumps core.  Its
 * process's core is written at its origin: the thread goes home with its
 * registers and the signal, and ends here.  Returns only if it could not.
 */
static __always_inline void pcn_coredump_away(const struct kernel_siginfo *info)
{
	if (unlikely(current->remote))
		__pcn_coredump_away(info);
}

/*
 * do_coredump(), around the dump of a distributed process's memory: the
 * pages remote nodes write come home first, and none leaves meanwhile.
 */
static __always_inline void pcn_coredump_begin(struct mm_struct *mm)
{
	if (unlikely(mm->remote))
		__pcn_coredump_begin(mm);
}

static __always_inline void pcn_coredump_end(struct mm_struct *mm)
{
	if (unlikely(mm->remote))
		__pcn_coredump_end(mm);
}

/*
 * mmap, munmap, brk, mprotect, mremap, madvise: true when Popcorn
 * executed the call (at the origin, for a remote thread) with result
 * *@ret; false to run it here.
 */
static __always_inline bool pcn_vma_syscall(enum pcn_vma_op op, unsigned long a0,
					    unsigned long a1, unsigned long a2,
					    unsigned long a3, unsigned long a4,
					    unsigned long a5, long *ret)
{
	struct mm_struct *mm = current->mm;

	if (likely(!mm || !mm->remote))
		return false;
	{
		const unsigned long args[6] = { a0, a1, a2, a3, a4, a5 };

		return __pcn_vma_syscall(op, args, ret);
	}
}

/*
 * ksys_write(): a migrated thread writes to its process's files, which
 * are open at its origin.  True when Popcorn did it, with result *@ret.
 */
static __always_inline bool pcn_remote_write(unsigned int fd, const char __user *buf,
					     size_t count, ssize_t *ret)
{
	if (likely(!current->remote))
		return false;
	return __pcn_remote_write(fd, buf, count, ret);
}

/*
 * do_futex(): the futexes of a migrated thread's process live at its
 * origin, where its other threads wait and wake.  True when Popcorn ran
 * the operation there, with result *@ret.
 */
static __always_inline bool pcn_remote_futex(u32 __user *uaddr, int op, u32 val,
					     const ktime_t *timeout,
					     u32 __user *uaddr2, u32 val2, u32 val3,
					     long *ret)
{
	if (likely(!current->remote))
		return false;
	return __pcn_remote_futex(uaddr, op, val, timeout, uaddr2, val2, val3,
				  ret);
}

/*
 * dup_mm(): @dup copies @oldmm into the child's @mm.  For a distributed
 * process Popcorn first brings home every page a remote node writes and
 * hands out none until the copy is made, so the child gets current data.
 */
static __always_inline int
pcn_dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm,
	     int (*dup)(struct mm_struct *mm, struct mm_struct *oldmm))
{
	if (likely(!oldmm->remote))
		return dup(mm, oldmm);
	return __pcn_dup_mmap(mm, oldmm, dup);
}

/*
 * do_syscall_64(): a system call of a thread running away from its
 * origin is made here when it is right here, else by its shadow at the
 * origin, or refused (kernel/popcorn/remote_syscalls.c).  Returns the
 * number of the call to run, or -1 when Popcorn answered it (result in
 * regs->ax).
 */
static __always_inline int pcn_remote_syscall(struct pt_regs *regs, int nr)
{
	if (!static_branch_unlikely(&pcn_remote_threads) ||
	    likely(!current->at_remote))
		return nr;
	return __pcn_remote_syscall(regs, nr);
}

/*
 * do_syscall_32_irqs_on(): the same for the 32-bit entries (int $0x80,
 * sysenter, syscall32), with i386 numbers.
 */
static __always_inline int pcn_remote_syscall_32(struct pt_regs *regs, int nr)
{
	if (!static_branch_unlikely(&pcn_remote_threads) ||
	    likely(!current->at_remote))
		return nr;
	return __pcn_remote_syscall_32(regs, nr);
}

/*
 * exit_to_user_mode_loop(), after resume_user_mode_work(): signals are
 * delivered and task work has run, so the registers are final.  A
 * thread someone proposed to move (TIF_NOTIFY_RESUME brought it here)
 * migrates now, with them as they are.
 */
static __always_inline void pcn_resume_user_mode(void)
{
	if (unlikely(READ_ONCE(current->pcn_proposal) & PCN_PROPOSAL_ARMED))
		__pcn_proposal_run();
}

/*
 * __ptrace_unlink(): the tracer let @child go.  A thread that came home
 * to be traced keeps the node it came from proposed, disarmed while it
 * could not move (kernel/popcorn/jobctl.c): it is armed again.
 */
static __always_inline void pcn_ptrace_unlinked(struct task_struct *child)
{
	int v;

	/* After ->ptrace is cleared: pairs with __pcn_proposal_run(). */
	smp_mb();
	v = READ_ONCE(child->pcn_proposal);

	if (unlikely(v & PCN_PROPOSAL_NID) &&
	    !(v & (PCN_PROPOSAL_ARMED | PCN_PROPOSAL_MOVING |
		   PCN_PROPOSAL_CHILD)))
		__pcn_ptrace_unlinked(child);
}

/* futex_waitv(): a vector of waits is not run at the origin: refused. */
static __always_inline bool pcn_futex_waitv_refused(void)
{
	if (likely(!current->remote))
		return false;
	return __pcn_futex_waitv_refused();
}

/*
 * seccomp_set_mode_filter(), with SECCOMP_FILTER_FLAG_TSYNC, once the
 * filter is every thread's: those of a distributed process at other
 * nodes must not make another call unfiltered.
 */
static __always_inline void pcn_seccomp_synced(void)
{
	if (unlikely(READ_ONCE(current->mm->remote)))
		__pcn_seccomp_synced();
}

#else /* !CONFIG_POPCORN */

struct task_struct;

static inline void pcn_mm_init(struct mm_struct *mm) {}
static inline void pcn_ptrace_unlinked(struct task_struct *child) {}
static inline void pcn_seccomp_synced(void) {}
static inline void pcn_mm_exit(struct mm_struct *mm) {}
static inline void pcn_task_fork(struct task_struct *p,
				 unsigned long clone_flags) {}
struct signal_struct;
static inline void pcn_signal_fork(struct signal_struct *sig) {}
static inline void pcn_exec_secure(struct task_struct *me) {}
static inline vm_fault_t pcn_handle_mm_fault(struct vm_area_struct *vma,
					     unsigned long address,
					     unsigned int flags)
{
	return 0;
}

static inline bool pcn_mm_distributed(struct mm_struct *mm)
{
	return false;
}

static inline void pcn_vma_fault(struct mm_struct *mm,
				 unsigned long address) {}
static inline void pcn_task_exit(struct task_struct *tsk, long code) {}
struct kernel_siginfo;
static inline void pcn_coredump_away(const struct kernel_siginfo *info) {}
static inline void pcn_coredump_begin(struct mm_struct *mm) {}
static inline void pcn_coredump_end(struct mm_struct *mm) {}

static inline bool pcn_vma_syscall(enum pcn_vma_op op, unsigned long a0,
				   unsigned long a1, unsigned long a2,
				   unsigned long a3, unsigned long a4,
				   unsigned long a5, long *ret)
{
	return false;
}

static inline bool pcn_remote_write(unsigned int fd, const char __user *buf,
				    size_t count, ssize_t *ret)
{
	return false;
}

static inline bool pcn_remote_futex(u32 __user *uaddr, int op, u32 val,
				    const ktime_t *timeout,
				    u32 __user *uaddr2, u32 val2, u32 val3,
				    long *ret)
{
	return false;
}

static inline bool pcn_futex_waitv_refused(void)
{
	return false;
}

static inline int pcn_dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm,
			       int (*dup)(struct mm_struct *mm,
					  struct mm_struct *oldmm))
{
	return dup(mm, oldmm);
}

static inline int pcn_remote_syscall(struct pt_regs *regs, int nr)
{
	return nr;
}

static inline void pcn_resume_user_mode(void) {}

static inline int pcn_remote_syscall_32(struct pt_regs *regs, int nr)
{
	return nr;
}

#endif /* CONFIG_POPCORN */
#endif /* _POPCORN_HOOKS_H */
