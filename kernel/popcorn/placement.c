// SPDX-License-Identifier: GPL-2.0
/*
 * Thread placement: where the threads of a process go as they are made.
 *
 * popcorn_set_placement(pid, nodes, flags) gives process @pid a policy,
 * kept in signal_struct->pcn_place_nodes (a node mask, 0 for none):
 * every thread it makes from then on is proposed, in copy_process()
 * before it can run, to the node of @nodes that is online and has the
 * fewest threads of the process, the lowest id on a tie.  The thread
 * moves on its first way out to user space (pcn_resume_user_mode()),
 * with the registers clone() gave it, so it runs none of its code where
 * it was made.  POPCORN_PLACE_EXISTING places the threads the process
 * already has the same way; the main thread stays unless
 * POPCORN_PLACE_MAIN says otherwise.
 *
 * The policy is the process's: its threads share it, a child process
 * inherits it (copy_signal()), it survives execve() so that a launcher
 * can set it on itself and exec the program ("popcorn run"), and an
 * exec that changes privileges (setuid, setgid, file capabilities)
 * clears it (begin_new_exec()).  Setting it on another process needs
 * the right to ptrace-attach to it, as popcorn_propose_migration().
 *
 * A placement that fails (the node went offline, or refused the process
 * a worker) is not retried: the thread runs where it was made, and the
 * log says why (propose.c).  The process's next threads skip that node
 * for PCN_PLACE_HOLD_OFF, as if it were offline, rather than each paying
 * a round trip to be refused the same way; after that a thread tries it
 * again, since a share may have freed meanwhile.  Threads are counted at
 * the node they run on, or the node they are on their way to.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bits.h>
#include <linux/init.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/syscalls.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>

#include "context.h"
#include "placement.h"

/* How long a node that failed a placed thread is skipped. */
#define PCN_PLACE_HOLD_OFF	HZ

/**
 * pcn_place_adaptive - whether a placement policy is adaptive
 * @policy: signal_struct->pcn_place_nodes
 */
bool pcn_place_adaptive(unsigned long policy)
{
	return policy != POPCORN_PLACE_ALL_NODES &&
	       (policy & PCN_PLACE_ADAPTIVE);
}

/**
 * pcn_place_all_nodes - whether a placement policy names every node
 * @policy: signal_struct->pcn_place_nodes
 */
bool pcn_place_all_nodes(unsigned long policy)
{
	return policy == POPCORN_PLACE_ALL_NODES ||
	       (policy & PCN_PLACE_ALL);
}

/**
 * pcn_thread_node - where a thread of a process of this node runs
 * @t: a thread of a process whose origin is this node
 * @me: this node's id
 *
 * Return: the node @t runs on, or the node it is on its way to.
 */
int pcn_thread_node(struct task_struct *t, int me)
{
	int v = READ_ONCE(t->pcn_proposal), peer;

	/* Pairs with the barrier between the two stores in migrate.c. */
	smp_rmb();
	peer = READ_ONCE(t->peer_nid);
	if (peer >= 0 && peer != me)
		return peer;		/* a shadow: its thread is there */
	/* Stopped at home, its way back proposed for when it goes on. */
	if (task_is_stopped_or_traced(t))
		return me;
	if (v & (PCN_PROPOSAL_ARMED | PCN_PROPOSAL_MOVING))
		return (v & PCN_PROPOSAL_NID) - 1;	/* on its way */
	return me;	/* here, with at most a proposal that failed */
}

/* Threads of @leader's process per node, in @count. */
static void pcn_place_count(struct task_struct *leader, unsigned int *count)
{
	int me = pcn_my_nid(), nid;
	struct task_struct *t;

	for_each_thread(leader, t) {
		if (READ_ONCE(t->flags) & PF_EXITING)
			continue;
		nid = pcn_thread_node(t, me);
		if (nid >= 0 && nid < POPCORN_MAX_NODES)
			count[nid]++;
	}
}

/**
 * pcn_place_choose - the node a new thread of a process goes to
 * @nodes: the process's policy, a mask of node ids
 * @online: the mask of the nodes that can take a thread now
 * @count: the process's threads on each node (POPCORN_MAX_NODES)
 *
 * Return: the node of @nodes & @online with the fewest threads, the
 * lowest id on a tie, or -1 when there is none.
 */
int pcn_place_choose(unsigned long nodes, unsigned long online,
		     const unsigned int *count)
{
	int nid, best = -1;

	for (nid = 0; nid < POPCORN_MAX_NODES; nid++) {
		if (!(nodes & online & BIT(nid)))
			continue;
		if (best < 0 || count[nid] < count[best])
			best = nid;
	}
	return best;
}

/* The mask of every node id of pcn.nodes. */
static unsigned long pcn_place_all(void)
{
	int nr = pcn_nr_nodes();

	BUILD_BUG_ON(POPCORN_MAX_NODES > BITS_PER_LONG);
	return nr >= BITS_PER_LONG ? ~0UL : BIT(nr) - 1;
}

/* Whether @ctx's process had a thread placed on @nid fail just now. */
static bool pcn_place_held_off(struct remote_context *ctx, int nid)
{
	unsigned long at;

	if (!ctx || !ctx->at_origin)
		return false;
	at = READ_ONCE(ctx->place_failed[nid]);
	return at && time_before(jiffies, at + PCN_PLACE_HOLD_OFF);
}

/*
 * This node, and the nodes online now that have not just failed a
 * thread of the process of @ctx (NULL: none left out, for the explicit
 * popcorn_set_placement() call).
 */
static unsigned long pcn_place_online(struct remote_context *ctx)
{
	unsigned long online = 0;
	int nid;

	for (nid = 0; nid < pcn_nr_nodes(); nid++)
		if (nid == pcn_my_nid() ||
		    (pcn_node_online(nid) && !pcn_place_held_off(ctx, nid)))
			online |= BIT(nid);
	return online;
}

/**
 * pcn_place_failed - a thread placed on a node could not go there
 * @nid: the node
 * @err: why: the node is offline or refused (-EAGAIN), or another error
 *
 * The calling thread's process skips @nid for its next placements for a
 * while.  Errors that are the thread's own (-EOPNOTSUPP for a 32-bit
 * thread, -EBUSY for a traced one, -EINTR) say nothing of the node.
 */
void pcn_place_failed(int nid, int err)
{
	struct remote_context *ctx = READ_ONCE(current->mm->remote);

	if (!ctx || !ctx->at_origin || nid < 0 || nid >= POPCORN_MAX_NODES ||
	    err == -EOPNOTSUPP || err == -EBUSY || err == -EINTR)
		return;
	/* 0 means never: jiffies wraps through it once in a long while. */
	WRITE_ONCE(ctx->place_failed[nid], jiffies ?: 1);
}

/*
 * Mark @t to go to @nid on its way out; a failure leaves it where it
 * is.  A running thread is marked only if nobody proposed a move for it
 * meanwhile: false if not.
 */
static bool pcn_place_mark(struct task_struct *t, int nid, bool running)
{
	int v = (nid + 1) | PCN_PROPOSAL_ARMED | PCN_PROPOSAL_PLACED;

	if (!running) {		/* copy_process(): not running yet */
		t->pcn_proposal = v;
		set_tsk_thread_flag(t, TIF_NOTIFY_RESUME);
		return true;
	}
	if (cmpxchg(&t->pcn_proposal, 0, v))
		return false;
	set_notify_resume(t);
	return true;
}

/* copy_process(): new thread @p of a process with a placement policy. */
void __pcn_place_thread(struct task_struct *p)
{
	unsigned long nodes = READ_ONCE(current->signal->pcn_place_nodes);
	unsigned int count[POPCORN_MAX_NODES] = {};
	struct remote_context *ctx;
	int nid;

	/* Threads of the kernel's (io_uring workers) stay. */
	if (!pcn_enabled() || (p->flags & (PF_KTHREAD | PF_IO_WORKER)) ||
	    current->is_worker)
		return;
	ctx = READ_ONCE(current->mm->remote);
	/* Adaptive: threads of its kind were just called home. */
	if (pcn_place_adaptive(nodes) && pcn_adapt_holding(ctx))
		return;
	rcu_read_lock();
	pcn_place_count(current->group_leader, count);
	rcu_read_unlock();
	nid = pcn_place_choose(nodes, pcn_place_online(ctx), count);
	if (nid >= 0 && nid != pcn_my_nid())
		pcn_place_mark(p, nid, false);
}

/* A thread the policy may move now: here, idle of any proposal. */
static bool pcn_place_movable(struct task_struct *t, int me)
{
	int peer = READ_ONCE(t->peer_nid);

	return !(READ_ONCE(t->flags) &
		 (PF_KTHREAD | PF_IO_WORKER | PF_EXITING)) &&
	       !t->is_worker && (peer < 0 || peer == me) &&
	       !READ_ONCE(t->pcn_proposal);
}

/* Place the threads @leader's process has; returns how many will move. */
static int pcn_place_existing(struct task_struct *leader,
			      unsigned long nodes, bool main)
{
	unsigned int count[POPCORN_MAX_NODES] = {};
	unsigned long online = pcn_place_online(NULL);
	int me = pcn_my_nid(), nid, moved = 0;
	struct task_struct *t;

	rcu_read_lock();
	pcn_place_count(leader, count);
	for_each_thread(leader, t) {
		if ((t == leader && !main) || !pcn_place_movable(t, me))
			continue;
		/* Chosen as if it were not here yet. */
		if (count[me])
			count[me]--;
		nid = pcn_place_choose(nodes, online, count);
		if (nid >= 0 && nid != me && pcn_place_mark(t, nid, true)) {
			count[nid]++;
			moved++;
		} else {
			count[me]++;
		}
	}
	rcu_read_unlock();
	return moved;
}

/*
 * Give process @pid (0: the caller's) the placement policy @nodes: a
 * mask of node ids, POPCORN_PLACE_ALL_NODES for every node, 0 for none;
 * adaptive (adaptive.c) with POPCORN_PLACE_ADAPTIVE.
 * Returns the number of existing threads that will move
 * (POPCORN_PLACE_EXISTING), else 0.  -EINVAL for a node id that is not
 * in pcn.nodes, an unknown flag or a kernel thread, -ESRCH for no such
 * process, -EPERM without the right to ptrace-attach to it, -EINTR when
 * killed while the process execs.
 */
SYSCALL_DEFINE3(popcorn_set_placement, pid_t, pid, unsigned long, nodes,
		unsigned int, flags)
{
	struct task_struct *t, *leader;
	unsigned long policy;
	int ret;

	if (!pcn_enabled())
		return -ENODEV;
	if (pid < 0 || (flags & ~POPCORN_PLACE_FLAGS) ||
	    (!nodes && (flags & POPCORN_PLACE_EXISTING)) ||
	    ((flags & POPCORN_PLACE_MAIN) && !(flags & POPCORN_PLACE_EXISTING)))
		return -EINVAL;
	if (nodes != POPCORN_PLACE_ALL_NODES && (nodes & ~pcn_place_all())) {
		pr_info_ratelimited("placement asked by %d: node mask %#lx names a node beyond pcn.nodes (%d nodes)\n",
				    task_pid_nr(current), nodes,
				    pcn_nr_nodes());
		return -EINVAL;
	}

	policy = nodes;
	if (nodes && (flags & POPCORN_PLACE_ADAPTIVE))
		policy = (nodes == POPCORN_PLACE_ALL_NODES ?
			  PCN_PLACE_ALL | pcn_place_all() : nodes) |
			 PCN_PLACE_ADAPTIVE;

	rcu_read_lock();
	t = pid ? find_task_by_vpid(pid) : current;
	leader = t ? t->group_leader : NULL;
	if (leader)
		get_task_struct(leader);
	rcu_read_unlock();
	if (!leader)
		return -ESRCH;
	ret = -EINVAL;
	if ((leader->flags & PF_KTHREAD) || leader->is_worker)
		goto out;
	/*
	 * Not across an exec of the process: one that changes privileges
	 * clears the policy (pcn_exec_secure()) under this lock, held for
	 * writing, after which the right to trace it is checked anew.
	 */
	ret = down_read_killable(&leader->signal->exec_update_lock);
	if (ret)
		goto out;
	ret = -EPERM;
	if (!same_thread_group(leader, current) &&
	    !ptrace_may_access(leader, PTRACE_MODE_ATTACH_REALCREDS))
		goto unlock;
	WRITE_ONCE(leader->signal->pcn_place_nodes, policy);
	ret = 0;
	if (flags & POPCORN_PLACE_EXISTING)
		ret = pcn_place_existing(leader, nodes,
					 flags & POPCORN_PLACE_MAIN);
unlock:
	up_read(&leader->signal->exec_update_lock);
out:
	put_task_struct(leader);
	return ret;
}
