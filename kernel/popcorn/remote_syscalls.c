// SPDX-License-Identifier: GPL-2.0
/*
 * System calls of a thread that runs away from its origin.
 *
 * A migrated thread runs in its process's remote worker, whose files,
 * signal actions, children and process ids are not the process's.  Its
 * shadow at the origin is: a thread of the process itself, sleeping in
 * popcorn_migrate().  So every system call of the thread is one of:
 *
 * - *local*: right wherever the thread runs, made here.  Its own exit,
 *   signal mask, signal waits, signal return and alternate stack, TLS
 *   base, rseq, sleeping, yielding, clocks, random bytes, CPU number;
 *   reading its ids, groups and rlimits (they travel with it, creds.c);
 *   the scheduling calls and popcorn_propose_migration() on itself
 *   (tid 0; on another they are forwarded); the Popcorn calls.  The
 *   calls Popcorn runs at the origin by hooks of their own (write, the
 *   address-space calls, futex) start here too.
 * - *answered here with the origin's ids*: getpid() is the process id
 *   at the origin, gettid() the thread's id there (its shadow's).
 * - *forwarded*: made at the origin by the shadow, with the thread's
 *   argument registers (syscall_forward.c).  Pointer arguments resolve
 *   there through the same address space, the page protocol bringing
 *   the pages over.  This is every other call: files, pipes, sockets,
 *   poll, identity changes (the new credentials come back), signals
 *   sent and actions set, children, clone (the new thread starts at the
 *   origin), process groups, ...
 * - *made at the origin by the thread itself*: execve(), execveat().
 *   The thread goes home with its registers rewound to the system call,
 *   which it then makes there: the new program starts at the origin.
 * - *refused* with -EOPNOTSUPP and a rate-limited log line, as they
 *   would bypass the page protocol or the VMA mirror, or act on this
 *   node's hardware: io_uring (the kernel writes its rings through its
 *   own mapping), userfaultfd (its faults would race the protocol's),
 *   modify_ldt, protection keys and remap_file_pages (per-mm state not
 *   mirrored), shmat/shmdt (System V segments are not mirrored),
 *   seccomp and prctl(PR_SET_SECCOMP) (the filter would be the
 *   shadow's), iopl/ioperm (this node's ports).  Documentation/popcorn/migration.rst lists them.
 *
 * Once the process has a seccomp filter (given to every thread at the
 * origin, seccomp.c), every call of the thread, whatever its class,
 * goes home with it, rewound, and is made there through the filter.
 *
 * x32 calls come through the 64-bit entry with numbers above
 * NR_syscalls: refused.  The 32-bit entries (int $0x80, sysenter,
 * syscall32) get their own, short list of i386 numbers, the calls that
 * only read or end the thread: their compat forms are not forwarded.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/init.h>
#include <linux/nospec.h>
#include <linux/printk.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <asm/ptrace.h>
#include <asm/unistd.h>
#include <asm/unistd_32_ia32.h>
#include <popcorn/hooks.h>

#include "context.h"
#include "seccomp.h"
#include "syscall_forward.h"

#define PCN_SYS_FIRST_POPCORN	451
#define PCN_SYS_LAST_POPCORN	454

static const unsigned int pcn_sys_local[] __initconst = {
	/* Run at the origin by hooks of their own. */
	__NR_write, __NR_mmap, __NR_munmap, __NR_brk, __NR_mprotect,
	__NR_mremap, __NR_madvise, __NR_futex,
	/* The thread's own state, right wherever it runs. */
	__NR_exit, __NR_exit_group, __NR_rt_sigprocmask, __NR_rt_sigreturn,
	__NR_rt_sigsuspend, __NR_rt_sigtimedwait, __NR_rt_sigpending,
	__NR_pause, __NR_sigaltstack, __NR_arch_prctl, __NR_restart_syscall,
	__NR_rseq, __NR_sched_yield, __NR_nanosleep, __NR_clock_nanosleep,
	__NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_time,
	__NR_getrandom, __NR_getcpu, __NR_getuid, __NR_geteuid, __NR_getgid,
	__NR_getegid, __NR_getresuid, __NR_getresgid, __NR_getgroups,
	__NR_getrlimit,
};

/* Calls on a task named by their first argument: pid 0 is the caller. */
static const unsigned int pcn_sys_self[] __initconst = {
	__NR_sched_setscheduler, __NR_sched_getscheduler,
	__NR_sched_setparam, __NR_sched_getparam, __NR_sched_setattr,
	__NR_sched_getattr, __NR_sched_setaffinity, __NR_sched_getaffinity,
	__NR_sched_rr_get_interval,
};

static const unsigned int pcn_sys_refused[] __initconst = {
	__NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
	__NR_userfaultfd, __NR_modify_ldt, __NR_pkey_mprotect,
	__NR_pkey_alloc, __NR_pkey_free, __NR_remap_file_pages, __NR_shmat,
	__NR_shmdt, __NR_seccomp, __NR_iopl, __NR_ioperm,
};

static u8 pcn_sys_class[NR_syscalls] __ro_after_init;

/* Answer the call with -EOPNOTSUPP (the call is skipped: -1). */
static int pcn_remote_refuse(struct pt_regs *regs, const char *abi, int nr)
{
	struct remote_context *ctx = current->remote;

	pr_warn_ratelimited("%ssystem call %d of thread %d (origin pid %d) refused at this node: migrate back to make it\n",
			    abi, nr, task_pid_nr(current), ctx ? ctx->tgid : 0);
	regs->ax = -EOPNOTSUPP;
	return -1;
}

/* getpid(), gettid(): the ids at the origin. */
static int pcn_remote_origin_id(struct pt_regs *regs, const char *abi,
				int nr, bool tid)
{
	struct remote_context *ctx = current->remote;

	if (!ctx)
		return pcn_remote_refuse(regs, abi, nr);
	regs->ax = tid ? current->peer_pid : ctx->tgid;
	return -1;
}

/* Whether the calling remote thread's process has a seccomp filter. */
static bool pcn_remote_filter_on(void)
{
	struct remote_context *ctx = current->remote;

	return ctx && READ_ONCE(ctx->filtered);
}

/* seccomp() by another name: the filter would be the shadow's. */
bool pcn_syscall_refused_args(unsigned int nr, u64 arg0)
{
	return nr == __NR_prctl && arg0 == PR_SET_SECCOMP;
}

enum pcn_sys_class pcn_syscall_class(unsigned int nr)
{
	if (nr >= NR_syscalls)
		return PCN_SYS_REFUSED;
	/* @nr is the caller's: no speculative read past the table. */
	return pcn_sys_class[array_index_nospec(nr, NR_syscalls)];
}

int __pcn_remote_syscall(struct pt_regs *regs, int nr)
{
	unsigned int unr = nr;

	/* Skipped by seccomp or a tracer: nothing to do. */
	if (nr == -1)
		return nr;
	/* Its process has a filter: every call goes through it, at home. */
	if (unlikely(pcn_remote_filter_on()))
		return pcn_remote_filtered(regs, "", nr);
	if (unr >= PCN_SYS_FIRST_POPCORN && unr <= PCN_SYS_LAST_POPCORN &&
	    pcn_syscall_class(unr) == PCN_SYS_LOCAL)
		return nr;
	switch (pcn_syscall_class(unr)) {
	case PCN_SYS_LOCAL:
		return nr;
	case PCN_SYS_SELF:
		/* The pid is the first argument. */
		if (!regs->di)
			return nr;
		break;
	case PCN_SYS_REFUSED:
		return pcn_remote_refuse(regs, "", nr);
	case PCN_SYS_GETPID:
		return pcn_remote_origin_id(regs, "", nr, false);
	case PCN_SYS_GETTID:
		return pcn_remote_origin_id(regs, "", nr, true);
	case PCN_SYS_HOME:
		pcn_syscall_at_origin(regs);
		return -1;
	default:
		break;
	}
	/* getrlimit() of the C library: its own limits, none set. */
	if (unr == __NR_prlimit64 && !regs->di && !regs->dx)
		return nr;
	if (pcn_syscall_refused_args(unr, regs->di))
		return pcn_remote_refuse(regs, "", nr);
	pcn_syscall_forward(regs, nr);
	return -1;
}

int __pcn_remote_syscall_32(struct pt_regs *regs, int nr)
{
	if (unlikely(pcn_remote_filter_on()))
		return pcn_remote_filtered(regs, "32-bit ", nr);
	switch (nr) {
	case __NR_ia32_exit:
	case __NR_ia32_exit_group:
	case __NR_ia32_sched_yield:
	case __NR_ia32_getuid32:
	case __NR_ia32_geteuid32:
	case __NR_ia32_getgid32:
	case __NR_ia32_getegid32:
		return nr;
	case __NR_ia32_getpid:
		return pcn_remote_origin_id(regs, "32-bit ", nr, false);
	case __NR_ia32_gettid:
		return pcn_remote_origin_id(regs, "32-bit ", nr, true);
	}
	return pcn_remote_refuse(regs, "32-bit ", nr);
}

static void __init pcn_sys_set(const unsigned int *nrs, unsigned int n,
			       enum pcn_sys_class class)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pcn_sys_class[nrs[i]] = class;
}

/*
 * The Popcorn calls are made where the thread runs, but a proposal for
 * another thread names it by its tid at the origin: made there.
 */
static void __init pcn_sys_set_popcorn(void)
{
	unsigned int nr;

	BUILD_BUG_ON(NR_syscalls <= PCN_SYS_LAST_POPCORN);
	for (nr = PCN_SYS_FIRST_POPCORN; nr <= PCN_SYS_LAST_POPCORN; nr++)
		pcn_sys_class[nr] = PCN_SYS_LOCAL;
	pcn_sys_class[__NR_popcorn_propose_migration] = PCN_SYS_SELF;
}

static int __init pcn_remote_syscalls_init(void)
{
	/* Every call not named below is forwarded. */
	BUILD_BUG_ON(PCN_SYS_FORWARD != 0);
	pcn_sys_set(pcn_sys_local, ARRAY_SIZE(pcn_sys_local), PCN_SYS_LOCAL);
	pcn_sys_set(pcn_sys_self, ARRAY_SIZE(pcn_sys_self), PCN_SYS_SELF);
	pcn_sys_set(pcn_sys_refused, ARRAY_SIZE(pcn_sys_refused),
		    PCN_SYS_REFUSED);
	pcn_sys_set_popcorn();
	pcn_sys_class[__NR_getpid] = PCN_SYS_GETPID;
	pcn_sys_class[__NR_gettid] = PCN_SYS_GETTID;
	pcn_sys_class[__NR_execve] = PCN_SYS_HOME;
	pcn_sys_class[__NR_execveat] = PCN_SYS_HOME;
	return 0;
}
core_initcall(pcn_remote_syscalls_init);
