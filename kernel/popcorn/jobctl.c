// SPDX-License-Identifier: GPL-2.0
/*
 * Job control and tracing of a migrated thread: it comes home to stop.
 *
 * A group stop (SIGSTOP, or SIGTSTP, SIGTTIN, SIGTTOU with their default
 * action), a cgroup freeze or a tracer must reach every thread of the
 * process, and the kernel's own code does it right only for a thread
 * that runs here: do_signal_stop() counts the threads down, reports the
 * stop to the parent and sleeps in TASK_STOPPED; ptrace_stop() hands the
 * thread to its tracer.  So a shadow whose thread must stop does not
 * forward the signal: it calls its thread home (an urgent TASK_PROPOSE,
 * which also interrupts a sleep there), keeps serving it until it comes
 * back, and returns to user space with its registers, where
 * get_signal() stops it as any local thread.  Before that it proposes
 * the node it came from: once the process is continued the thread goes
 * back there on its way out (the proposal runs after signals are
 * delivered), so it resumes where it was.  A traced thread stays home
 * while it is traced (pcn_migrate_proposed() refuses to move it, and
 * its proposal is disarmed); when its tracer lets it go the proposal is
 * armed again (pcn_ptrace_unlinked(), patch 0017).
 *
 * A stopped process thus has every thread at home, in TASK_STOPPED: it
 * runs nowhere, holds no page request open and its CPU time does not
 * grow.  The price is one migration there and back per stop, which
 * job control can afford.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/jobctl.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>

#include <popcorn/hooks.h>

#include "context.h"

/* The stop signals whose action here is to stop the process. */
static void pcn_stop_signals(struct task_struct *t, sigset_t *set)
{
	static const int stops[] = { SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU };
	int i;

	lockdep_assert_held(&t->sighand->siglock);
	sigemptyset(set);
	for (i = 0; i < ARRAY_SIZE(stops); i++)
		if (stops[i] == SIGSTOP ||
		    t->sighand->action[stops[i] - 1].sa.sa_handler == SIG_DFL)
			sigaddset(set, stops[i]);
}

/**
 * pcn_jobctl_kept() - the signals a shadow must not forward
 * @t: the shadow (current), its siglock held
 * @kept: set to the signals it blocks, plus those its thread comes home
 *	for: the stop signals with their default action, or every signal
 *	while it is traced (its tracer sees them, at home)
 */
void pcn_jobctl_kept(struct task_struct *t, sigset_t *kept)
{
	sigset_t stops;

	if (t->ptrace) {
		sigfillset(kept);
		return;
	}
	pcn_stop_signals(t, &stops);
	sigorsets(kept, &t->blocked, &stops);
}

/**
 * pcn_jobctl_home_due() - must the calling shadow's thread come home?
 *
 * Yes while the shadow is traced, a group stop or a trap is pending for
 * it (JOBCTL_PENDING_MASK, a cgroup freeze), or it has a stop signal
 * pending that it does not block and whose action is to stop.
 */
bool pcn_jobctl_home_due(void)
{
	struct task_struct *t = current;
	sigset_t stops, pending;
	bool due;

	if (!signal_pending(t) && !t->ptrace)
		return false;
	spin_lock_irq(&t->sighand->siglock);
	due = t->ptrace ||
	      (t->jobctl & (JOBCTL_PENDING_MASK | JOBCTL_TRAP_FREEZE));
	if (!due) {
		pcn_stop_signals(t, &stops);
		sigorsets(&pending, &t->pending.signal,
			  &t->signal->shared_pending.signal);
		sigandsets(&pending, &pending, &stops);
		sigandnsets(&pending, &pending, &t->blocked);
		due = !sigisemptyset(&pending);
	}
	spin_unlock_irq(&t->sighand->siglock);
	return due;
}

/**
 * __pcn_ptrace_unlinked() - arm again the way back of a thread let go
 *	by its tracer
 * @child: the thread, no longer traced; tasklist_lock held for writing
 *
 * Unless the thread changed its proposal meanwhile: then it stands.
 */
void __pcn_ptrace_unlinked(struct task_struct *child)
{
	int v = READ_ONCE(child->pcn_proposal);

	if (!(v & (PCN_PROPOSAL_ARMED | PCN_PROPOSAL_MOVING |
		   PCN_PROPOSAL_CHILD)) && (v & PCN_PROPOSAL_NID) &&
	    cmpxchg(&child->pcn_proposal, v, v | PCN_PROPOSAL_ARMED) == v)
		set_notify_resume(child);
}
