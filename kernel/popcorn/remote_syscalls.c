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
 *   is the peer_pid of popcorn_get_thread_status());
 * - answered with the process's own value: getpid(), the process id at
 *   the origin.
 *
 * Every other call fails with -EOPNOTSUPP and a rate-limited log line
 * naming it: read, open, close, fork, kill, ... (Documentation/popcorn/
 * migration.rst lists them).  The thread can migrate back to make them.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitmap.h>
#include <linux/init.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <asm/ptrace.h>
#include <asm/unistd.h>
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
};

static DECLARE_BITMAP(pcn_remote_allowed, NR_syscalls);

int __pcn_remote_syscall(struct pt_regs *regs, int nr)
{
	struct remote_context *ctx = current->remote;
	unsigned int unr = nr;

	if (unr < NR_syscalls && test_bit(unr, pcn_remote_allowed))
		return nr;
	if (unr >= PCN_SYS_FIRST_POPCORN && unr <= PCN_SYS_LAST_POPCORN)
		return nr;
	if (unr == __NR_getpid && ctx) {
		regs->ax = ctx->tgid;
		return -1;
	}
	pr_warn_ratelimited("system call %d of thread %d (origin pid %d) refused at this node: migrate back to make it\n",
			    nr, task_pid_nr(current), ctx ? ctx->tgid : 0);
	regs->ax = -EOPNOTSUPP;
	return -1;
}

static int __init pcn_remote_syscalls_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pcn_remote_ok); i++)
		__set_bit(pcn_remote_ok[i], pcn_remote_allowed);
	return 0;
}
core_initcall(pcn_remote_syscalls_init);
