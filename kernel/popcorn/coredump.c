// SPDX-License-Identifier: GPL-2.0
/*
 * Core dumps of a distributed process.
 *
 * A remote node cannot write a process's core: its worker's mm has no
 * binary format, the process's files and limits are the origin's, and
 * the remote holds only the pages its threads touched.  So a thread
 * that dies at a remote of a signal that dumps core (SIGSEGV, SIGBUS,
 * SIGABRT, ...) goes home to die: do_coredump() at the remote (patch
 * 0016) sends it back to its shadow (TASK_BACK, with its registers as
 * they were when the signal came and the signal), and ends it there
 * quietly, before anything else of the process is torn down.  The
 * shadow loads the registers and is forced the same signal, so that
 * its own way out to user space dumps core as the kernel does for a
 * local process: core_pattern, RLIMIT_CORE, the dumpable flag, the
 * core flag in the exit status.  Around the dump at the origin, every
 * page a remote writes comes home first and none leaves meanwhile
 * (vma_sem held for writing, as for fork()), so the core holds the
 * process's current memory.
 *
 * The core's other threads must show where they ran too: when the dump
 * begins, zap_threads() kills every shadow, and a shadow that finds the
 * process dumping core calls its thread home (an urgent TASK_PROPOSE)
 * and waits for it a bounded time, so that it exits with the thread's
 * registers (pcn_shadow_core_call() in migrate.c).  A thread that does
 * not come in time (its node is slow or lost) shows its shadow's state,
 * in popcorn_migrate() or a forwarded system call.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <popcorn/hooks.h>

#include "context.h"
#include "messages.h"

bool pcn_core_signo_ok(u32 signo)
{
	return signo > 0 && signo < SIGRTMIN && sig_kernel_coredump(signo);
}

void pcn_core_capture(struct pcn_task_msg *m, const kernel_siginfo_t *info)
{
	m->core_signo = info->si_signo;
	m->core_code = info->si_code;
	m->core_errno = info->si_errno;
	/* si_addr of a fault, or the sender's pid and uid: the same bytes. */
	BUILD_BUG_ON(sizeof(info->_sifields) < sizeof(m->core_addr));
	memcpy(&m->core_addr, &info->_sifields, sizeof(m->core_addr));
}

void pcn_core_signal(const struct pcn_task_msg *m)
{
	kernel_siginfo_t info;

	clear_siginfo(&info);
	info.si_signo = m->core_signo;
	info.si_code = m->core_code;
	info.si_errno = m->core_errno;
	memcpy(&info._sifields, &m->core_addr, sizeof(m->core_addr));
	/* Blocked or ignored here does not matter: it was fatal there. */
	force_sig_info(&info);
}

void __pcn_coredump_away(const kernel_siginfo_t *info)
{
	struct remote_context *ctx = current->remote;
	int ret;

	if (ctx->at_origin || !pcn_core_signo_ok(info->si_signo))
		return;
	ret = pcn_migrate_back_core(info);
	/* Still here: the origin is gone; the process dies as it is. */
	pr_warn_ratelimited("thread %d of process %d died of signal %d; no core: %d\n",
			    task_pid_nr(current), ctx->tgid, info->si_signo,
			    ret);
}

void __pcn_coredump_begin(struct mm_struct *mm)
{
	struct remote_context *ctx = mm->remote;
	int err;

	if (!ctx->at_origin)
		return;
	down_write(&ctx->vma_sem);
	err = pcn_pages_reclaim_writers(ctx, -1);
	if (err)
		pr_warn("core of process %d: pages still at remote nodes: %d\n",
			ctx->tgid, err);
}

void __pcn_coredump_end(struct mm_struct *mm)
{
	struct remote_context *ctx = mm->remote;

	if (ctx->at_origin)
		up_write(&ctx->vma_sem);
}
