// SPDX-License-Identifier: GPL-2.0
/*
 * Migration proposed from outside the thread.
 *
 * popcorn_propose_migration(tid, nid) marks thread @tid: it migrates to
 * @nid on its next return to user space, with its registers as they are
 * then, so a program that knows nothing of Popcorn can be moved
 * (popcorn migrate TID NID).  The caller needs the right to
 * ptrace-attach to the thread.
 *
 * The mark is task_struct->pcn_proposal, and TIF_NOTIFY_RESUME brings
 * the thread to pcn_resume_user_mode() (patch 0012), called in
 * exit_to_user_mode_loop() once signals are delivered and task work has
 * run.  Not task work itself: get_signal() runs task work before an
 * interrupted call's -ERESTART* result is settled, which the thread
 * would carry away, and a move that ends the thread at a remote would
 * drop the rest of the batch.  A thread that blocks in a system call
 * moves when the call returns.
 *
 * A move that fails (the node refuses it, or left) leaves the proposal
 * pending: popcorn_get_status() reports it as proposed_nid and
 * migrate(-1) retries it, as in popcorn-kernel-lib where a proposal is
 * only advice.  Any move of the thread ends it; a new proposal replaces
 * it and is tried again on the way out.
 *
 * A thread away from its origin is named at the origin by its shadow's
 * tid: the proposal goes to the node it runs on (TASK_PROPOSE), where it
 * is marked the same way.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/ptrace.h>
#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/syscalls.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>
#include <popcorn/process_server.h>

#include "context.h"
#include "messages.h"
#include "placement.h"
#include "syscall_forward.h"

/* Changed with cmpxchg: the proposer and the thread race. */
static int pcn_proposal_nid(int v)
{
	return (v & PCN_PROPOSAL_NID) - 1;
}

/* From pcn_resume_user_mode(): try the move once. */
void __pcn_proposal_run(void)
{
	int v = READ_ONCE(current->pcn_proposal);
	bool traced;
	int nid, ret;

	/*
	 * Disarmed, and marked as on its way (placement counts it at the
	 * node): a proposal made from now on is tried again.
	 */
	while (!try_cmpxchg(&current->pcn_proposal, &v,
			    (v & ~PCN_PROPOSAL_ARMED) | PCN_PROPOSAL_MOVING))
		;
	v = (v & ~PCN_PROPOSAL_ARMED) | PCN_PROPOSAL_MOVING;
	nid = pcn_proposal_nid(v);
	if (nid < 0 || fatal_signal_pending(current)) {
		cmpxchg(&current->pcn_proposal, v, v & ~PCN_PROPOSAL_MOVING);
		return;
	}
	traced = READ_ONCE(current->ptrace);
	ret = pcn_migrate_proposed(nid);
	if (!ret) {
		pcn_proposal_moved();	/* there already, or back */
		return;
	}
	/* The policy's choice is not retried: it runs here. */
	if (v & PCN_PROPOSAL_PLACED) {
		cmpxchg(&current->pcn_proposal, v, 0);
		pcn_place_failed(nid, ret);
		if (!fatal_signal_pending(current))
			pr_info_ratelimited("thread %d of process %d: placement on node %d failed: %d; it runs here\n",
					    task_pid_nr(current),
					    task_tgid_nr(current), nid, ret);
		return;
	}
	cmpxchg(&current->pcn_proposal, v, v & ~PCN_PROPOSAL_MOVING);
	if (ret == -EBUSY && traced) {
		/*
		 * Its tracer may have let it go meanwhile, and seen it
		 * moving: armed again then, as pcn_ptrace_unlinked() does.
		 */
		smp_mb();	/* pairs with the one there */
		if (!READ_ONCE(current->ptrace))
			pcn_ptrace_unlinked(current);
		return;
	}
	/* Killed, here or there (the process ends): nothing to say. */
	if (!fatal_signal_pending(current))
		pr_info_ratelimited("thread %d: proposed migration to node %d failed: %d; still proposed\n",
				    task_pid_nr(current), nid, ret);
}

/* Mark @t to migrate to @nid on its way out to user space. */
void pcn_proposal_add(struct task_struct *t, int nid)
{
	xchg(&t->pcn_proposal, (nid + 1) | PCN_PROPOSAL_ARMED);
	/* Kicks it into the kernel if it runs: it leaves through the hook. */
	set_notify_resume(t);
}

/*
 * Mark @t to migrate to @nid, out of an interruptible sleep too: a call
 * it waits in ends and is made again there (it must stop, or its node
 * is being evacuated).
 */
void pcn_proposal_urgent(struct task_struct *t, int nid)
{
	pcn_proposal_add(t, nid);
	set_notify_signal(t);
}

/**
 * pcn_proposal_moved - the calling thread has migrated
 *
 * A pending proposal is done with: the thread went somewhere.  One made
 * meanwhile (still armed) stands, and is tried on the way out.
 */
void pcn_proposal_moved(void)
{
	int v = READ_ONCE(current->pcn_proposal);

	if (v && !(v & PCN_PROPOSAL_ARMED))
		cmpxchg(&current->pcn_proposal, v, 0);
}

/* The node proposed for the calling thread, or -1. */
int pcn_proposed_nid(void)
{
	return pcn_proposal_nid(READ_ONCE(current->pcn_proposal));
}

static int pcn_propose(pid_t tid, int nid)
{
	struct task_struct *t;
	int ret;

	rcu_read_lock();
	t = tid ? find_task_by_vpid(tid) : current;
	if (t)
		get_task_struct(t);
	rcu_read_unlock();
	if (!t)
		return -ESRCH;
	ret = -EINVAL;
	if ((t->flags & (PF_KTHREAD | PF_EXITING | PF_IO_WORKER)) ||
	    t->is_worker)
		goto out;
	ret = -EPERM;
	if (t != current &&
	    !ptrace_may_access(t, PTRACE_MODE_ATTACH_REALCREDS))
		goto out;
	/* Away: the node it runs on marks it. */
	ret = pcn_shadow_propose(t, nid);
	if (ret == -ENOENT) {
		pcn_proposal_add(t, nid);
		ret = 0;
	}
out:
	put_task_struct(t);
	return ret;
}

/*
 * Ask thread @tid (0: the caller) to migrate to @nid on its next return
 * to user space.  -EINVAL for a node id out of pcn.nodes or a kernel or
 * worker thread, -ESRCH for no such thread, -EPERM without the right to
 * ptrace-attach to it.
 */
SYSCALL_DEFINE2(popcorn_propose_migration, pid_t, tid, int, nid)
{
	if (!pcn_enabled())
		return -ENODEV;
	if (!pcn_nid_valid(nid) || tid < 0)
		return -EINVAL;
	return pcn_propose(tid, nid);
}

/* Remote: the origin proposes a move of one of its threads here. */
static void pcn_handle_task_propose(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_propose_msg *m = (struct pcn_propose_msg *)msg;
	struct remote_context *ctx = pcn_remote_context_get(nid, m->ctx_id);
	struct task_struct *t = NULL;

	if (!ctx || !pcn_nid_valid(m->nid) || m->remote_pid <= 0 ||
	    (m->flags & ~PCN_PROPOSE_URGENT))
		goto out;
	t = find_get_task_by_vpid(m->remote_pid);
	if (t && READ_ONCE(t->remote) == ctx && t->at_remote) {
		if (m->flags & PCN_PROPOSE_URGENT)
			pcn_proposal_urgent(t, m->nid);
		else
			pcn_proposal_add(t, m->nid);
	}
out:
	if (t)
		put_task_struct(t);
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_done(msg);
}

static int __init pcn_propose_init(void)
{
	return pcn_kmsg_register_handler(PCN_KMSG_TYPE_TASK_PROPOSE,
					 "task_propose",
					 sizeof(struct pcn_propose_msg),
					 sizeof(struct pcn_propose_msg),
					 pcn_handle_task_propose);
}
late_initcall(pcn_propose_init);
