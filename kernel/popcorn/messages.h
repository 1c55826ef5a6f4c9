/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wire formats of the migration, VMA and page messages.  Every field is
 * checked by its handler before use: the sender may be buggy or hostile.
 */
#ifndef _POPCORN_MESSAGES_H
#define _POPCORN_MESSAGES_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <asm/page_types.h>
#include <popcorn/pcn_kmsg.h>

/* User registers of a migrating thread (x86-64). */
struct pcn_uregs {
	u64 ip, sp, flags;
	u64 ax, bx, cx, dx, si, di, bp;
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 fsbase, gsbase;
	u8 fx[512];		/* FXSAVE image: x87 and SSE state */
} __packed;

/*
 * Credentials of a migrating thread and the rlimits of its process, as
 * the remote installs them (creds.c).  Ids are in the initial user
 * namespace; capability sets are 64-bit masks.
 */
#define PCN_CREDS_MAX_GROUPS	32
#define PCN_CREDS_NO_NEW_PRIVS	0x1
#define PCN_CREDS_NR_RLIMITS	16

struct pcn_creds {
	u32 uid, euid, suid, fsuid;
	u32 gid, egid, sgid, fsgid;
	u64 cap_inheritable, cap_permitted, cap_effective, cap_bset;
	u64 cap_ambient;
	u32 securebits;
	u32 flags;		/* PCN_CREDS_* */
	u32 ngroups;
	u32 groups[PCN_CREDS_MAX_GROUPS];
	struct {
		u64 cur, max;
	} rlim[PCN_CREDS_NR_RLIMITS];
} __packed;

/*
 * Messages for a shadow (TASK_BACK, TASK_EXIT, VMA_OP, FILE_WRITE, FUTEX)
 * all start with these fields, by which the origin finds the shadow.
 */
struct pcn_shadow_msg_hdr {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;		/* the thread at the origin */
} __packed;

#define PCN_SHADOW_MSG(type)						\
	static_assert(offsetof(struct type, ctx_id) ==			\
		      offsetof(struct pcn_shadow_msg_hdr, ctx_id) &&	\
		      offsetof(struct type, shadow_pid) ==		\
		      offsetof(struct pcn_shadow_msg_hdr, shadow_pid))

/* A signal action of the process, as struct k_sigaction has it. */
struct pcn_sigaction {
	u64 handler;
	u64 flags;
	u64 restorer;
	u64 mask;
} __packed;

#define PCN_NSIG	64
/* The largest XSAVE image carried (AVX-512 needs 2696 bytes; AMX more). */
#define PCN_XSTATE_MAX	4096

/* TASK_MIGRATE (origin -> remote) and TASK_BACK (remote -> origin). */
struct pcn_task_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;		/* the thread at the origin */
	s32 origin_tgid;
	s32 remote_pid;		/* TASK_BACK: the thread at the remote */
	s32 forward_nid;	/* TASK_BACK: go on to this node, or -1 */
	u32 rseq_sig;		/* its rseq registration (rseq_state.c) */
	u64 rseq;		/* its rseq area, 0 for none */
	u64 sigmask;		/* blocked signals */
	u64 pending;		/* TASK_BACK: signals pending for it there */
	u64 vdso;		/* TASK_MIGRATE: vDSO text address */
	u64 ss_sp;		/* alternate signal stack */
	u64 ss_size;
	u64 utime, stime;	/* TASK_BACK: CPU time there, ns */
	/*
	 * TASK_BACK: the signal the thread died of there, whose core the
	 * origin writes (coredump.c); core_signo 0 for none.
	 */
	u32 core_signo;
	s32 core_code;
	s32 core_errno;
	u32 reserved3;
	u64 core_addr;		/* si_addr, or si_pid and si_uid */
	u32 ss_flags;
	u32 nactions;		/* TASK_MIGRATE: PCN_NSIG, else 0 */
	struct pcn_sigaction actions[PCN_NSIG];	/* signal 1 first */
	struct pcn_uregs regs;
	struct pcn_creds creds;	/* TASK_MIGRATE: the thread's, else 0 */
	/*
	 * Every XSAVE component of the thread in the standard (ptrace)
	 * format, when the CPU has XSAVE: AVX upper halves and the rest.
	 * xstate_size 0: only regs.fx.
	 */
	u32 xstate_size;
	u32 reserved2;
	u8 xstate[PCN_XSTATE_MAX];
} __packed;
PCN_SHADOW_MSG(pcn_task_msg);

/* TASK_MIGRATED (remote -> origin). */
struct pcn_task_reply {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	s32 remote_pid;
	s32 error;
} __packed;

/* TASK_EXIT (remote -> origin). */
struct pcn_task_exit_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	s32 remote_pid;
	s32 code;		/* as given to do_exit() / do_group_exit() */
	u32 group;		/* 1: the whole process exits */
	u64 utime, stime;	/* CPU time there, ns */
} __packed;
PCN_SHADOW_MSG(pcn_task_exit_msg);

/*
 * TASK_CPUTIME (remote -> origin): the CPU time a thread used there
 * since it arrived, and the time it waited on the DSM (dsm_wait.c), sent
 * periodically while it stays (cputime.c).
 */
struct pcn_cputime_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	s32 remote_pid;
	u32 reserved;
	u64 utime, stime;	/* ns, since it arrived */
	u64 wait_ns;		/* ns, since it arrived */
	u64 shared_ns;		/* of which from sharing */
} __packed;
PCN_SHADOW_MSG(pcn_cputime_msg);

/*
 * TASK_SIGNAL (origin -> remote): a signal the shadow received, with the
 * process's action for it, to be delivered to the remote thread.
 */
struct pcn_signal_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 remote_pid;
	s32 signo;
	s32 code;		/* SI_USER or SI_KERNEL */
	s32 sender_pid;		/* SI_USER: the sender at the origin */
	u32 sender_uid;
	u64 handler;		/* struct sigaction of the origin */
	u64 flags;
	u64 restorer;
	u64 mask;
} __packed;

#define PCN_PATH_MAX	256

/* VMA_REQUEST (remote -> origin). */
struct pcn_vma_req {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	u32 reserved;
	u64 addr;
} __packed;

/* VMA_RESPONSE: the origin's VMA around addr; path empty if anonymous. */
struct pcn_vma_resp {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 error;
	u64 addr;
	u64 start, end;
	u64 vm_flags;
	u64 pgoff;
	char path[PCN_PATH_MAX];
} __packed;

/* VMA_OP (remote -> origin shadow) and VMA_OP_DONE. */
struct pcn_vma_op_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	u32 op;			/* enum pcn_vma_op */
	u32 reserved;
	u64 args[6];		/* VMA_OP_DONE: args[0] = old brk */
	s64 ret;
} __packed;
PCN_SHADOW_MSG(pcn_vma_op_msg);

/*
 * VMA_DROP (origin -> remote): unmap these ranges, whose VMAs changed at
 * the origin; they are fetched again on demand.  @version comes from the
 * counter of the page versions, taken after the change: a grant of a
 * page in the ranges with a lower version was given before the change,
 * one with a higher version after it.  VMA_DROPPED: done.
 */
#define PCN_VMA_DROP_RANGES	2

struct pcn_vma_drop_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	u32 nr;
	u64 version;
	u64 range[PCN_VMA_DROP_RANGES][2];	/* [start, end) */
} __packed;

/* PAGE_REQUEST (remote -> origin); flags in page.h. */
struct pcn_page_req {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	u32 flags;
	u64 addr;
} __packed;

/*
 * PAGE_GRANT: unless error is set, the page's data follows as the first
 * page of the message (pcn_kmsg.h, page data by reference), then
 * @extra read copies of the pages after it (prefetch), each named by a
 * pcn_page_extra: so the data can be received into the pages that are
 * mapped.  A write grant's @extra pages are the untouched pages after
 * it (no node ever had them, their data is zero), given writable
 * without data: the message carries the one page.  A request refused
 * with -EAGAIN because the page's holder keeps it a while yet
 * (page_hold.c) says in @hold_us how long: the remote asks again then.
 */
struct pcn_page_extra {
	u64 addr;
	u64 version;
} __packed;

struct pcn_page_grant {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 error;
	u64 addr;
	union {
		u64 version;	/* of the grant */
		u64 hold_us;	/* -EAGAIN: how long the page is held still */
	};
	u32 write;
	u32 extra;
	struct pcn_page_extra x[];
} __packed;

/* Read copies one grant carries at most: what fits in a message. */
#define PCN_PREFETCH_MAX	14
/* A grant with @n read copies: its front part, and in all. */
#define PCN_GRANT_FRONT(n)	(sizeof(struct pcn_page_grant) + \
				 (n) * sizeof(struct pcn_page_extra))
#define PCN_GRANT_SIZE(n)	(PCN_GRANT_FRONT(n) + (1 + (n)) * PAGE_SIZE)
#define PCN_GRANT_SIZE_MAX	PCN_GRANT_SIZE(PCN_PREFETCH_MAX)
/* Untouched pages one write grant gives at most (PCN_PAGE_EXTRA's bits). */
#define PCN_UNTOUCHED_MAX	64
/* A write grant with @n untouched pages: names only, one page of data. */
#define PCN_GRANT_UNTOUCHED_SIZE(n)	(PCN_GRANT_FRONT(n) + PAGE_SIZE)

/*
 * PAGE_INVALIDATE (origin -> remote): drop the copies of up to
 * PCN_INVAL_MAX pages, in ascending address order, and send the data of
 * those marked PCN_INVAL_WANT_DATA (at most PCN_INVAL_DATA_MAX).
 */
struct pcn_page_inval_entry {
	u64 addr;		/* page address | PCN_INVAL_WANT_DATA */
	u64 version;		/* of this invalidation */
	u64 grant;		/* version of the write grant to wait for, or 0 */
} __packed;

#define PCN_INVAL_WANT_DATA	BIT_ULL(0)

struct pcn_page_inval {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	u32 n;
	struct pcn_page_inval_entry page[];
} __packed;

/*
 * PAGE_INVALIDATED: one word per entry of the request, in its order: the
 * page address, PCN_INVAL_HAS_DATA when its data follows (the pages of
 * data come after the words, in the same order, as the message's pages:
 * pcn_kmsg.h), PCN_INVAL_REFUSED when the entry was not valid and
 * nothing was done.
 */
struct pcn_page_inval_ack {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	u32 n;
	u64 page[];
} __packed;

#define PCN_INVAL_HAS_DATA	BIT_ULL(0)
#define PCN_INVAL_REFUSED	BIT_ULL(1)

/* Pages one invalidation names, and pages of data its answer carries. */
#define PCN_INVAL_MAX		256
#define PCN_INVAL_DATA_MAX	15
#define PCN_INVAL_SIZE(n)	(sizeof(struct pcn_page_inval) + \
				 (n) * sizeof(struct pcn_page_inval_entry))
#define PCN_INVAL_ACK_FRONT(n) (sizeof(struct pcn_page_inval_ack) + \
				(n) * sizeof(u64))
#define PCN_INVAL_ACK_SIZE(n, data) (PCN_INVAL_ACK_FRONT(n) + \
				     (data) * PAGE_SIZE)

/*
 * FILE_WRITE (remote -> origin shadow): write(fd, buf, count) for the
 * shadow to make at the origin, where buf is read through the process's
 * own page tables.  FILE_WRITE_DONE: the result in ret.
 */
struct pcn_file_write_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	u32 fd;
	u32 reserved;
	u64 buf;
	u64 count;
	s64 ret;
} __packed;
PCN_SHADOW_MSG(pcn_file_write_msg);

/*
 * FUTEX (remote -> origin shadow): a futex operation of the thread, with
 * its timeout made relative (the nodes' clocks differ).  FUTEX_DONE: the
 * result in ret.
 */
struct pcn_futex_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	s32 op;
	u32 val;
	u64 uaddr;
	u64 uaddr2;
	u32 val2;
	u32 val3;
	/*
	 * FUTEX: relative, -1 for none.  FUTEX_DONE: how long the operation
	 * blocked at the origin, so that the thread counts only the rest as
	 * its wait on the DSM.
	 */
	s64 timeout_ns;
	s64 ret;
} __packed;
PCN_SHADOW_MSG(pcn_futex_msg);

/*
 * SYSCALL (remote -> origin shadow): system call @nr of the thread with
 * its six argument registers, for the shadow to make at the origin
 * (syscall_forward.c) with the thread's signal mask @sigmask.  @seq
 * names the call for SYSCALL_INTR.  With
 * PCN_SYSCALL_REGS, @regs are the thread's user registers, which a task
 * the call creates starts from (clone, fork); without, the message ends
 * before @regs.
 */
#define PCN_SYSCALL_REGS	0x1
/*
 * SYSCALL_DONE: @creds are the thread's, changed by the call; without,
 * the message ends before @creds.
 */
#define PCN_SYSCALL_CREDS	0x2
/* SYSCALL_DONE: signals that interrupted the call were sent before it. */
#define PCN_SYSCALL_SIGNALLED	0x4
/*
 * SYSCALL_DONE: the call changed the thread's credentials into ones that
 * cannot go to a remote (creds.c): the thread must come home.
 */
#define PCN_SYSCALL_CREDS_LOST	0x8
/*
 * SYSCALL_DONE: the call was not made, the thread's shadow having a
 * seccomp filter (seccomp.c): the thread comes home to make it there.
 */
#define PCN_SYSCALL_FILTERED	0x10

struct pcn_syscall_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	u32 nr;
	u32 flags;		/* PCN_SYSCALL_REGS */
	u64 seq;
	u64 args[6];
	u64 sigmask;		/* the thread's blocked signals in the call */
	struct pcn_uregs regs[];	/* one with PCN_SYSCALL_REGS */
} __packed;
PCN_SHADOW_MSG(pcn_syscall_msg);

/* SYSCALL_DONE (origin shadow -> remote): the call's result. */
struct pcn_syscall_done {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	u32 nr;
	u32 flags;		/* PCN_SYSCALL_CREDS */
	u64 seq;
	s64 ret;
	struct pcn_creds creds[];	/* one with PCN_SYSCALL_CREDS */
} __packed;

/*
 * SYSCALL_INTR (remote -> origin): a signal came for the thread while
 * its shadow makes call @seq: interrupt it as the signal would have.
 */
/*
 * PROCESS_FILTER (origin -> remote): every thread of process @ctx_id has
 * a seccomp filter now; its threads at the remote make their system
 * calls at home from now on (seccomp.c).  PROCESS_FILTERED, the same
 * message, answers once they do.
 */
struct pcn_process_filter_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
} __packed;

struct pcn_syscall_intr {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 shadow_pid;
	u64 seq;
} __packed;
PCN_SHADOW_MSG(pcn_syscall_intr);

/*
 * TASK_PROPOSE (origin -> remote): thread @remote_pid of context @ctx_id
 * is to migrate to @nid on its next return to user space (propose.c).
 * PCN_PROPOSE_URGENT: interrupt its sleep there, for it must come home
 * to stop (jobctl.c).
 */
struct pcn_propose_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 remote_pid;
	s32 nid;
	u32 flags;
} __packed;

#define PCN_PROPOSE_URGENT	BIT(0)

/*
 * PROCESS_LEAVE (remote -> origin): the sender is being evacuated; take
 * home context @ctx_id's threads there and the pages it writes
 * (evacuate.c).  PROCESS_LEFT (origin -> remote): done, @error 0, or
 * -ETIMEDOUT (a thread did not come), -EIO (a page's data did not),
 * -ESRCH (no such process).  @reserved is 0.
 */
struct pcn_leave_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;
	s32 error;
	u32 reserved;
} __packed;

#endif /* _POPCORN_MESSAGES_H */
