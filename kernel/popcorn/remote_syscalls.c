// SPDX-License-Identifier: GPL-2.0
/*
 * System calls of a thread that runs away from its origin.
 *
 * A migrated thread runs in its process's remote worker, whose files,
 * credentials, signal actions and process ids are not the process's.
 * A system call that acted on them would give a wrong answer without a
 * word, so only the calls below run at a remote:
 *
 * - run at the origin by the thread's shadow: write, mmap, munmap, brk,
 *   mprotect, mremap, madvise, futex (their own hooks);
 * - right wherever the thread runs: its own exit, signal mask, signal
 *   return and alternate stack, TLS base, sleeping, yielding, clocks,
 *   random bytes, CPU affinity queries, and the Popcorn calls; gettid()
 *   gives the thread's id on the node it runs on (its id at the origin
 *   is the peer_pid of popcorn_get_thread_status()); its ids, groups
 *   and rlimits (reading them: they travel with it, creds.c); its own
 *   scheduling policy (pid 0 only: another pid would name a task of
 *   this node), which needs the privilege it needs anywhere;
 * - answered with the process's own value: getpid(), the process id at
 *   the origin.
 *
 * Every other call fails with -EOPNOTSUPP and a rate-limited log line
 * naming it: read, open, close, fork, kill, ... (Documentation/popcorn/
 * migration.rst lists them).  The thread can migrate back to make them.
 * x32 calls come through the 64-bit entry with numbers above
 * NR_syscalls: refused.
 *
 * The 32-bit entries (int $0x80, sysenter, syscall32) get their own,
 * shorter list of i386 numbers: the calls that only read or end the
 * thread.  None of the calls Popcorn runs at the origin is taken there,
 * since their compat forms do not go through Popcorn's hooks.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitmap.h>
#include <linux/init.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <asm/ptrace.h>
#include <asm/unistd.h>
#include <asm/unistd_32_ia32.h>
#include <popcorn/hooks.h>

#include "context.h"

#define PCN_SYS_FIRST_POPCORN	451
#define PCN_SYS_LAST_POPCORN	453

static const unsigned int pcn_remote_ok[] __initconst = {
	/* Run at the origin (hooks of their own). */
	__NR_write, __NR_mmap, __NR_munmap, __NR_brk, __NR_mprotect,
	__NR_mremap, __NR_madvise, __NR_futex,
	/* The thread's own state, right wherever it runs. */
	__NR_exit, __NR_exit_group, __NR_rt_sigprocmask, __NR_rt_sigreturn,
	__NR_sigaltstack, __NR_arch_prctl, __NR_restart_syscall,
	__NR_sched_yield, __NR_nanosleep, __NR_clock_nanosleep,
	__NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_time,
	__NR_getrandom, __NR_sched_getaffinity, __NR_getcpu, __NR_gettid,
	__NR_getuid, __NR_geteuid, __NR_getgid, __NR_getegid, __NR_getresuid,
	__NR_getresgid, __NR_getgroups, __NR_getrlimit,
};

/* Calls on a task named by pid: allowed for the caller itself only. */
static const unsigned int pcn_remote_self_only[] __initconst = {
	__NR_sched_setscheduler, __NR_sched_getscheduler,
};

static DECLARE_BITMAP(pcn_remote_allowed, NR_syscalls);
static DECLARE_BITMAP(pcn_remote_self, NR_syscalls);

/* Answer the call with -EOPNOTSUPP (the call is skipped: -1). */
static int pcn_remote_refuse(struct pt_regs *regs, const char *abi, int nr)
{
	struct remote_context *ctx = current->remote;

	pr_warn_ratelimited("%ssystem call %d of thread %d (origin pid %d) refused at this node: migrate back to make it\n",
			    abi, nr, task_pid_nr(current), ctx ? ctx->tgid : 0);
	regs->ax = -EOPNOTSUPP;
	return -1;
}

/* getpid(): the process's id is its id at the origin. */
static int pcn_remote_getpid(struct pt_regs *regs, const char *abi, int nr)
{
	struct remote_context *ctx = current->remote;

	if (!ctx)
		return pcn_remote_refuse(regs, abi, nr);
	regs->ax = ctx->tgid;
	return -1;
}

int __pcn_remote_syscall(struct pt_regs *regs, int nr)
{
	unsigned int unr = nr;

	if (unr < NR_syscalls && test_bit(unr, pcn_remote_allowed))
		return nr;
	/* The pid is the first argument. */
	if (unr < NR_syscalls && test_bit(unr, pcn_remote_self) && !regs->di)
		return nr;
	/* getrlimit() of the C library: its own limits, none set. */
	if (unr == __NR_prlimit64 && !regs->di && !regs->dx)
		return nr;
	if (unr >= PCN_SYS_FIRST_POPCORN && unr <= PCN_SYS_LAST_POPCORN)
		return nr;
	if (unr == __NR_getpid)
		return pcn_remote_getpid(regs, "", nr);
	return pcn_remote_refuse(regs, "", nr);
}

int __pcn_remote_syscall_32(struct pt_regs *regs, int nr)
{
	switch (nr) {
	case __NR_ia32_exit:
	case __NR_ia32_exit_group:
	case __NR_ia32_gettid:
	case __NR_ia32_sched_yield:
	case __NR_ia32_getuid32:
	case __NR_ia32_geteuid32:
	case __NR_ia32_getgid32:
	case __NR_ia32_getegid32:
		return nr;
	case __NR_ia32_getpid:
		return pcn_remote_getpid(regs, "32-bit ", nr);
	}
	return pcn_remote_refuse(regs, "32-bit ", nr);
}

static int __init pcn_remote_syscalls_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pcn_remote_ok); i++)
		__set_bit(pcn_remote_ok[i], pcn_remote_allowed);
	for (i = 0; i < ARRAY_SIZE(pcn_remote_self_only); i++)
		__set_bit(pcn_remote_self_only[i], pcn_remote_self);
	return 0;
}
core_initcall(pcn_remote_syscalls_init);
