// SPDX-License-Identifier: GPL-2.0
/*
 * CPU time of a migrated thread.
 *
 * A thread that runs at a remote uses CPU time there, in a task of the
 * remote worker's process; at the origin its shadow sleeps.  So that the
 * process's times at the origin (getrusage(), times(), /proc/PID/stat,
 * wait4()'s rusage, RLIMIT_CPU) include it, the remote reports it to the
 * shadow, which adds it to its own (pcn_account_cputime_away()):
 *
 *  - every pcn.adapt_interval_ms while the thread stays there: the
 *    remote worker sends a TASK_CPUTIME for each thread of the process it
 *    runs, with its wait on the DSM (dsm_wait.c) for adaptive placement;
 *  - in TASK_BACK and TASK_EXIT, the final figure of the stay.
 *
 * Each figure is the thread's user and system time since it arrived
 * (task_cputime_adjusted(), never decreasing), so a lost or late report
 * costs nothing but its delay.  A report is checked: it never goes back,
 * and a thread cannot have used more CPU time than the time it has been
 * away, give or take the two machines' clocks.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/ktime.h>
#include <linux/rcupdate.h>
#include <linux/sched/cputime.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

/* A report may exceed the time away by this much, and by 1/8 of it. */
#define PCN_CPUTIME_SLACK_NS	(50 * NSEC_PER_MSEC)

void pcn_cputime_start(struct pcn_cputime *c)
{
	memset(c, 0, sizeof(*c));
	c->left = ktime_get_ns();
}

bool pcn_cputime_take(struct pcn_cputime *c, u64 utime, u64 stime)
{
	u64 away = ktime_get_ns() - c->left;

	if (utime < c->utime || stime < c->stime ||
	    utime > away || stime > away ||
	    utime + stime > away + away / 8 + PCN_CPUTIME_SLACK_NS)
		return false;
	c->utime = utime;
	c->stime = stime;
	return true;
}

bool pcn_cputime_take_wait(struct pcn_cputime *c, u64 wait, u64 shared)
{
	u64 away = ktime_get_ns() - c->left;

	/* A thread cannot have waited longer than it has been away. */
	if (wait < c->wait || shared < c->shared || shared > wait ||
	    wait > away + PCN_CPUTIME_SLACK_NS)
		return false;
	c->wait = wait;
	c->shared = shared;
	return true;
}

void pcn_cputime_account(struct pcn_cputime *c, u64 utime, u64 stime)
{
	u64 du = utime > c->utime_done ? utime - c->utime_done : 0;
	u64 ds = stime > c->stime_done ? stime - c->stime_done : 0;

	if (!du && !ds)
		return;
	c->utime_done += du;
	c->stime_done += ds;
	pcn_account_cputime_away(du, ds);
}

void pcn_cputime_of(struct task_struct *t, u64 *utime, u64 *stime)
{
	task_cputime_adjusted(t, utime, stime);
}

void pcn_cputime_report(struct remote_context *ctx)
{
	struct pcn_cputime_msg *m;
	struct task_struct *t;
	unsigned int i, n = 0, max;

	/* Threads made meanwhile wait for the next round. */
	max = get_nr_threads(current);
	m = kcalloc(max, sizeof(*m), GFP_KERNEL);
	if (!m)
		return;
	rcu_read_lock();
	for_each_thread(current, t) {
		if (n == max)
			break;
		if (t == current || READ_ONCE(t->remote) != ctx ||
		    (t->flags & PF_EXITING))
			continue;
		m[n].hdr.type = PCN_KMSG_TYPE_TASK_CPUTIME;
		m[n].ctx_id = ctx->id;
		m[n].shadow_pid = READ_ONCE(t->peer_pid);
		m[n].remote_pid = task_pid_nr(t);
		pcn_cputime_of(t, &m[n].utime, &m[n].stime);
		pcn_dsm_thread_wait(ctx, t, &m[n].wait_ns, &m[n].shared_ns);
		n++;
	}
	rcu_read_unlock();
	/* Best effort: the next report, or the last, carries it on. */
	for (i = 0; i < n; i++)
		pcn_kmsg_send(ctx->origin_nid, &m[i], sizeof(m[i]));
	kfree(m);
}
