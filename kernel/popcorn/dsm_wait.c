// SPDX-License-Identifier: GPL-2.0
/*
 * Time a distributed process's threads spend waiting on the DSM rather
 * than running: in page faults the origin serves (a remote thread's
 * fetch, a home thread's wait for a page to be taken back) and in the
 * network part of a remote thread's futex calls (the round trip, not the
 * time the futex itself blocked at the origin).
 *
 * Of a remote thread's waits, those that come from sharing are told
 * apart: faults on pages other nodes took from this one (the page has an
 * invalidation recorded here, page_client.c) and futex round trips.  The
 * rest, a first fetch of a page (the program's text, data the origin
 * filled, fresh memory), is paid once: a thread that starts by reading
 * its inputs and then computes does not keep waiting.
 *
 * At the origin, a thread at home that waits for a page a remote holds
 * (taken back from its writer, or its read copies revoked for a write)
 * waits because of the threads at that node: the wait is also counted
 * for the node (pcn_dsm_caused()), and adaptive placement weighs it with
 * the waits of the threads there.
 *
 * At a remote, each thread's figures since it arrived are kept by pid in
 * ctx->dsm.threads, made at its first wait and dropped when it leaves or
 * exits; the worker reports them home with the thread's CPU time
 * (cputime.c).  At the origin, a thread at home adds to the process's
 * home_ns and to its own record in ctx->dsm.threads (its waits at home;
 * the part other nodes caused counts as from sharing), and each report
 * adds a thread's progress away to away_ns; adaptive.c judges each away
 * thread on its report.  A thread at home has no exit hook here: every
 * PCN_DSM_SWEEP new records, those of threads gone are dropped.  Each
 * wait is also a pcn_dsm_wait trace event.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/ktime.h>
#include <linux/rcupdate.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <popcorn/nodes.h>

#include "context.h"
#include "trace.h"

/* Origin: new records of threads at home between two sweeps. */
#define PCN_DSM_SWEEP	256

struct pcn_dsm_thread {
	atomic64_t wait_ns;
	atomic64_t shared_ns;		/* of which from sharing */
	struct rcu_head rcu;
};

void pcn_dsm_init(struct pcn_dsm *d)
{
	int nid;

	xa_init(&d->threads);
	for (nid = 0; nid < POPCORN_MAX_NODES; nid++) {
		atomic64_set(&d->caused_ns[nid], 0);
		atomic_set(&d->futex_waiting[nid], 0);
	}
	atomic64_set(&d->home_ns, 0);
	atomic64_set(&d->away_ns, 0);
	atomic_set(&d->called_home, 0);
	atomic_set(&d->recorded, 0);
	d->hold_until = jiffies;
	d->hold = 0;
}

/* The context's last reference is gone: no thread can add any more. */
void pcn_dsm_release(struct pcn_dsm *d)
{
	struct pcn_dsm_thread *t;
	unsigned long pid;

	/* /proc/popcorn_ps may be reading one (ps.c). */
	xa_for_each(&d->threads, pid, t)
		kfree_rcu(t, rcu);
	xa_destroy(&d->threads);
}

/* Origin: drop the records of threads that are gone. */
static void pcn_dsm_sweep(struct remote_context *ctx)
{
	struct pcn_dsm_thread *t;
	struct task_struct *p;
	unsigned long pid;
	bool live;

	xa_for_each(&ctx->dsm.threads, pid, t) {
		rcu_read_lock();
		p = find_task_by_pid_ns(pid, &init_pid_ns);
		live = p && READ_ONCE(p->mm) == ctx->mm &&
		       !(p->flags & PF_EXITING);
		rcu_read_unlock();
		if (!live && xa_cmpxchg(&ctx->dsm.threads, pid, t, NULL, 0) == t)
			kfree_rcu(t, rcu);
	}
}

/*
 * Add @wait and @shared ns to the calling thread's record, made at its
 * first wait.  Under RCU: at the origin a sweep may drop the record of
 * a thread while it still faults (its exit writes clear_child_tid).
 */
static void pcn_dsm_mine_add(struct remote_context *ctx, u64 wait,
			     u64 shared)
{
	unsigned long pid = task_pid_nr(current);
	struct pcn_dsm_thread *t;

	rcu_read_lock();
	t = xa_load(&ctx->dsm.threads, pid);
	if (t) {
		atomic64_add(wait, &t->wait_ns);
		atomic64_add(shared, &t->shared_ns);
	}
	rcu_read_unlock();
	if (t)
		return;
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!t)
		return;		/* this wait goes uncounted */
	atomic64_set(&t->wait_ns, wait);
	atomic64_set(&t->shared_ns, shared);
	/* Only this thread adds its own record. */
	if (xa_insert(&ctx->dsm.threads, pid, t, GFP_KERNEL)) {
		kfree(t);
		return;
	}
	if (ctx->at_origin &&
	    !(atomic_inc_return(&ctx->dsm.recorded) % PCN_DSM_SWEEP))
		pcn_dsm_sweep(ctx);
}

/* Origin: a thread of the process at home, not on its way out. */
static bool pcn_dsm_home_thread(struct remote_context *ctx)
{
	return current->mm == ctx->mm && !(current->flags & PF_EXITING);
}

/**
 * pcn_dsm_wait_add() - count a wait of the calling thread on the DSM
 * @ctx: its process's context
 * @kind: what it waited for, for the trace event ("fault", "futex")
 * @ns: how long
 * @shared: whether the wait comes from sharing (see above)
 *
 * Kernel threads and shadows (which serve threads away, whose own waits
 * count where they run) are not counted.
 */
void pcn_dsm_wait_add(struct remote_context *ctx, const char *kind, u64 ns,
		      bool shared)
{
	if ((current->flags & PF_KTHREAD) || !ns)
		return;
	if (ctx->at_origin) {
		if (pcn_current_is_shadow())
			return;
		atomic64_add(ns, &ctx->dsm.home_ns);
		if (pcn_dsm_home_thread(ctx))
			pcn_dsm_mine_add(ctx, ns, 0);
	} else {
		if (!current->at_remote || current->remote != ctx)
			return;
		pcn_dsm_mine_add(ctx, ns, shared ? ns : 0);
	}
	trace_pcn_dsm_wait(kind, task_pid_nr(current), ns, shared);
}

/**
 * pcn_dsm_caused() - count a home thread's wait for pages nodes held
 * @ctx: its process's context, at the origin
 * @nodes: the nodes that held the page (a mask; the origin's bit is
 *	ignored)
 * @ns: how long the calling thread waited for them
 *
 * Kernel threads and shadows are not counted, as in pcn_dsm_wait_add().
 * For the calling thread it is a wait from sharing.
 */
void pcn_dsm_caused(struct remote_context *ctx, unsigned long nodes, u64 ns)
{
	int nid;

	if ((current->flags & PF_KTHREAD) || pcn_current_is_shadow() || !ns)
		return;
	if (pcn_dsm_home_thread(ctx))
		pcn_dsm_mine_add(ctx, 0, ns);
	for_each_set_bit(nid, &nodes, POPCORN_MAX_NODES)
		if (nid != pcn_my_nid())
			atomic64_add(ns, &ctx->dsm.caused_ns[nid]);
}

/**
 * pcn_dsm_thread_wait() - a thread's DSM wait
 * @ctx: its process's context: at a remote, the wait since the thread
 *	arrived; at the origin, its waits at home
 * @t: the thread
 * @wait: all of it, ns (0 before its first wait)
 * @shared: the part that comes from sharing, ns
 */
void pcn_dsm_thread_wait(struct remote_context *ctx, struct task_struct *t,
			 u64 *wait, u64 *shared)
{
	struct pcn_dsm_thread *d;

	*wait = 0;
	*shared = 0;
	rcu_read_lock();
	d = xa_load(&ctx->dsm.threads, task_pid_nr(t));
	if (d) {
		*shared = atomic64_read(&d->shared_ns);
		*wait = atomic64_read(&d->wait_ns);
	}
	rcu_read_unlock();
}

/**
 * pcn_dsm_thread_end() - the calling thread leaves this remote or exits
 * @ctx: its process's context, at this remote
 */
void pcn_dsm_thread_end(struct remote_context *ctx)
{
	struct pcn_dsm_thread *t;

	t = xa_erase(&ctx->dsm.threads, task_pid_nr(current));
	if (t)
		kfree_rcu(t, rcu);	/* a report may be reading it */
}
