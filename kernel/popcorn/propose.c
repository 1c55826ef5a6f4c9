// SPDX-License-Identifier: GPL-2.0
/*
 * Migration proposed from outside the thread.
 *
 * popcorn_propose_migration(tid, nid) marks thread @tid: a task work
 * item makes it migrate to @nid on its next return to user space, with
 * its registers as they are then, so a program that knows nothing of
 * Popcorn can be moved (popcorn migrate TID NID).  The caller needs the
 * right to ptrace-attach to the thread.  A thread that blocks in a
 * system call moves when the call returns: the work runs after signal
 * delivery, once the registers are final (TWA_RESUME).
 *
 * A thread away from its origin is named at the origin by its shadow's
 * tid: the proposal goes to the node it runs on (TASK_PROPOSE), where it
 * is marked the same way.  A second proposal before the move replaces
 * the node of the first.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/init.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/syscalls.h>
#include <linux/task_work.h>
#include <linux/xarray.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>
#include <popcorn/process_server.h>

#include "context.h"
#include "messages.h"
#include "syscall_forward.h"

struct pcn_proposal {
	struct callback_head work;
	int nid;
};

/* Global tid of a marked thread -> its proposal, until the work runs. */
static DEFINE_XARRAY(pcn_proposals);

static void pcn_proposal_run(struct callback_head *work)
{
	struct pcn_proposal *p = container_of(work, struct pcn_proposal, work);
	int nid, ret;

	xa_lock(&pcn_proposals);
	__xa_erase(&pcn_proposals, task_pid_nr(current));
	nid = p->nid;
	xa_unlock(&pcn_proposals);
	kfree(p);
	/* Run by exit_task_work(): the thread is ending, not moving. */
	if (current->flags & PF_EXITING)
		return;
	ret = pcn_migrate_proposed(nid);
	if (ret)
		pr_info_ratelimited("thread %d: proposed migration to node %d failed: %d\n",
				    task_pid_nr(current), nid, ret);
}

/* Mark @t to migrate to @nid on its way out to user space. */
int pcn_proposal_add(struct task_struct *t, int nid)
{
	struct pcn_proposal *p, *old;
	int ret;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->nid = nid;
	init_task_work(&p->work, pcn_proposal_run);
	xa_lock(&pcn_proposals);
	old = xa_load(&pcn_proposals, task_pid_nr(t));
	if (old) {
		WRITE_ONCE(old->nid, nid);
		xa_unlock(&pcn_proposals);
		kfree(p);
		return 0;
	}
	ret = __xa_insert(&pcn_proposals, task_pid_nr(t), p, GFP_ATOMIC);
	if (!ret) {
		ret = task_work_add(t, &p->work, TWA_RESUME);
		if (ret) {
			__xa_erase(&pcn_proposals, task_pid_nr(t));
			ret = -ESRCH;	/* it is exiting */
		}
	}
	xa_unlock(&pcn_proposals);
	if (ret)
		kfree(p);
	return ret == -EBUSY ? -EAGAIN : ret;
}

/* The node proposed for the calling thread, or -1. */
int pcn_proposed_nid(void)
{
	struct pcn_proposal *p;
	int nid = -1;

	xa_lock(&pcn_proposals);
	p = xa_load(&pcn_proposals, task_pid_nr(current));
	if (p)
		nid = READ_ONCE(p->nid);
	xa_unlock(&pcn_proposals);
	return nid;
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
	if ((t->flags & (PF_KTHREAD | PF_EXITING)) || t->is_worker)
		goto out;
	ret = -EPERM;
	if (t != current &&
	    !ptrace_may_access(t, PTRACE_MODE_ATTACH_REALCREDS))
		goto out;
	/* Away: the node it runs on marks it. */
	ret = pcn_shadow_propose(t, nid);
	if (ret == -ENOENT)
		ret = pcn_proposal_add(t, nid);
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

	if (!ctx || !pcn_nid_valid(m->nid) || m->remote_pid <= 0 || m->reserved)
		goto out;
	t = find_get_task_by_vpid(m->remote_pid);
	if (t && READ_ONCE(t->remote) == ctx && t->at_remote)
		pcn_proposal_add(t, m->nid);
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
