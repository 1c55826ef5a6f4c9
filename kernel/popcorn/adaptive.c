// SPDX-License-Identifier: GPL-2.0
/*
 * Adaptive placement: a thread that waits on the DSM more than it
 * computes comes home.
 *
 * A process placed with POPCORN_PLACE_ADAPTIVE (the default of "popcorn
 * run" and "popcorn spread") has each of its threads away judged at the
 * origin, in its shadow, whenever the remote reports the thread's CPU
 * time and DSM wait (cputime.c, every pcn.adapt_interval_ms).  Only
 * the wait that comes from sharing counts (dsm_wait.c): faults on pages
 * another node took from the thread's, and futex round trips; a first
 * fetch of a page is paid once and says nothing of what comes next.
 * The threads at home that waited meanwhile for pages the thread's node
 * held count too: a worker away that keeps its output pages while the
 * main thread at home reads them makes the main thread wait, though it
 * waits little itself.  (Each thread at that node is charged all of it:
 * which of them held the page is not known at home.)  An
 * interval is bad when the thread waited so at least a tenth of the
 * interval and more than pcn.adapt_wait_pct percent of the time it ran:
 * its pages bounce between it and the threads it shares them with, and
 * each access pays a round trip that running the thread next to them
 * would not.  After pcn.adapt_strikes bad intervals in a row the thread
 * is asked home (a proposal it takes on its way back to user space).  A
 * single bad interval is forgiven: a burst of sharing (a start, a
 * phase change) passes.  A thread that computes on its own data, or
 * sleeps, has no bad interval and stays.
 *
 * Why home and not next to the threads it shares with: the origin holds
 * every page nobody else wrote, so home is where a thread that waits
 * finds most of them; and with two nodes it is the same place.
 *
 * Backing off: placement puts threads only as they are made, so a
 * thread called home is not sent out again.  The process's next threads
 * would be, and would be judged bad again: after a call home they stay
 * home for a hold, one second at first, doubled by each call home that
 * comes while a hold is on or just after (up to PCN_ADAPT_HOLD_MAX), so
 * a program that keeps making threads that share ends with all of them
 * home, and one whose sharing changed tries other nodes again.
 *
 * What the node wrote comes home with the last thread called from it:
 * otherwise the threads at home, the one called among them, would fetch
 * each page it wrote there (a worker's tables and buffers, megabytes)
 * with a fault of their own, a round trip a page, and the call home
 * would cost more than it saves.  In batches, as an evacuation takes
 * them, the same pages cost a round trip per PCN_INVAL_DATA_MAX.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <popcorn/nodes.h>

#include "context.h"
#include "placement.h"
#include "trace.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."

static unsigned int pcn_adapt_interval_ms = 100;
static unsigned int pcn_adapt_wait_pct = 100;
static unsigned int pcn_adapt_strikes = 2;

static int pcn_adapt_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int *p = kp->arg, n, min = 1, max = 1000;

	if (p == &pcn_adapt_interval_ms) {
		min = 50;
		max = 10000;
	} else if (p == &pcn_adapt_wait_pct) {
		max = 10000;
	} else {
		max = 100;
	}
	if (kstrtouint(val, 0, &n) || n < min || n > max) {
		pr_err("%s=%s: not %u to %u, keeping %u\n", kp->name, val,
		       min, max, READ_ONCE(*p));
		return -EINVAL;
	}
	WRITE_ONCE(*p, n);
	return 0;
}

static const struct kernel_param_ops pcn_adapt_param_ops = {
	.set = pcn_adapt_param_set,
	.get = param_get_uint,
};
module_param_cb(adapt_interval_ms, &pcn_adapt_param_ops,
		&pcn_adapt_interval_ms, 0644);
MODULE_PARM_DESC(adapt_interval_ms, "how often a remote reports its threads' CPU time and DSM wait, and adaptive placement judges them (50 to 10000 ms)");
module_param_cb(adapt_wait_pct, &pcn_adapt_param_ops, &pcn_adapt_wait_pct,
		0644);
MODULE_PARM_DESC(adapt_wait_pct, "an interval is bad when a thread waited on the DSM more than this percent of the time it ran (1 to 10000)");
module_param_cb(adapt_strikes, &pcn_adapt_param_ops, &pcn_adapt_strikes,
		0644);
MODULE_PARM_DESC(adapt_strikes, "bad intervals in a row after which adaptive placement calls a thread home (1 to 100)");

/**
 * pcn_adapt_interval() - how often a remote reports, in jiffies
 *
 * Return: pcn.adapt_interval_ms, at least one jiffy.
 */
unsigned long pcn_adapt_interval(void)
{
	return max(msecs_to_jiffies(READ_ONCE(pcn_adapt_interval_ms)), 1UL);
}

/**
 * pcn_adapt_bad - whether an interval of a thread away is bad
 * @run: the CPU time it used in the interval, ns
 * @shared: the time it waited on the DSM from sharing in it, ns
 * @interval_ms: pcn.adapt_interval_ms
 * @wait_pct: pcn.adapt_wait_pct
 *
 * Return: true if @shared is at least a tenth of the interval and more
 * than @wait_pct percent of @run.
 */
bool pcn_adapt_bad(u64 run, u64 shared, unsigned int interval_ms,
		   unsigned int wait_pct)
{
	u64 floor = (u64)interval_ms * NSEC_PER_MSEC / 10;

	return wait_pct && shared >= floor &&
	       div_u64(shared * 100, wait_pct) > run;
}

/**
 * pcn_adapt_next_hold - the length of the hold a call home begins
 * @hold: the last hold's length, 0 for none yet
 * @until: when the last hold ends (jiffies)
 * @now: jiffies
 *
 * Return: PCN_ADAPT_HOLD_MIN for a first call home or one that comes
 * more than a hold's length after the last hold ended, else twice the
 * last hold, up to PCN_ADAPT_HOLD_MAX.
 */
unsigned long pcn_adapt_next_hold(unsigned long hold, unsigned long until,
				  unsigned long now)
{
	if (!hold || time_after(now, until + hold))
		return PCN_ADAPT_HOLD_MIN;
	return min_t(unsigned long, 2 * hold, PCN_ADAPT_HOLD_MAX);
}

/* The process called a thread home: hold its new threads home a while. */
static void pcn_adapt_hold(struct pcn_dsm *d)
{
	unsigned long now = jiffies, hold;

	hold = pcn_adapt_next_hold(READ_ONCE(d->hold),
				   READ_ONCE(d->hold_until), now);
	WRITE_ONCE(d->hold, hold);
	WRITE_ONCE(d->hold_until, now + hold);
}

/**
 * pcn_adapt_holding() - whether a process's new threads stay home now
 * @ctx: its context at the origin, or NULL
 *
 * Return: true while the hold that its last call home began is on.
 */
bool pcn_adapt_holding(struct remote_context *ctx)
{
	return ctx && ctx->at_origin && READ_ONCE(ctx->dsm.hold) &&
	       time_before(jiffies, READ_ONCE(ctx->dsm.hold_until));
}

/**
 * pcn_adapt_judge() - judge a thread away on its latest report
 * @ctx: its process's context, at the origin
 * @a: the shadow's judging state
 * @nid: where the thread runs
 * @run: its CPU time there since it arrived, ns
 * @wait: its DSM wait there since it arrived, ns
 * @shared: the part of @wait that comes from sharing
 *
 * Called in the thread's shadow.  Adds the wait to the process's figures
 * whatever its policy.
 *
 * Return: true if the thread is to be called home now.
 */
bool pcn_adapt_judge(struct remote_context *ctx, struct pcn_adapt *a,
		     int nid, u64 run, u64 wait, u64 shared)
{
	u64 drun = run - min(run, a->run), dwait = wait - min(wait, a->wait);
	u64 dshared = shared - min(shared, a->shared);
	u64 caused = 0, dcaused;
	bool home = false;

	if (nid >= 0 && nid < POPCORN_MAX_NODES)
		caused = atomic64_read(&ctx->dsm.caused_ns[nid]);

	/* The waits at home its node caused before it arrived are not its. */
	if (!a->judged) {
		a->caused = caused;
		a->judged = true;
	}
	dcaused = caused - min(caused, a->caused);
	atomic64_add(dwait, &ctx->dsm.away_ns);
	a->run = max(run, a->run);
	a->wait = max(wait, a->wait);
	a->shared = max(shared, a->shared);
	a->caused = max(caused, a->caused);
	if (a->called ||
	    !pcn_place_adaptive(READ_ONCE(current->signal->pcn_place_nodes)))
		return false;
	/* Nothing happened (a report between two of its own): no verdict. */
	if (!drun && !dwait && !dcaused)
		return false;
	/* Its own waits from sharing, and those it made threads at home wait. */
	dshared += dcaused;
	if (pcn_adapt_bad(drun, dshared, READ_ONCE(pcn_adapt_interval_ms),
			  READ_ONCE(pcn_adapt_wait_pct)))
		a->strikes++;
	else
		a->strikes = 0;
	if (a->strikes >= READ_ONCE(pcn_adapt_strikes)) {
		home = true;
		a->called = true;
		atomic_inc(&ctx->dsm.called_home);
		pcn_adapt_hold(&ctx->dsm);
		pr_info_ratelimited("thread %d of process %d waits on the DSM at node %d more than it runs (%llu ms against %llu ms): calling it home\n",
				    task_pid_nr(current), task_tgid_nr(current),
				    nid, div_u64(dshared, NSEC_PER_MSEC),
				    div_u64(drun, NSEC_PER_MSEC));
	}
	trace_pcn_adapt(task_tgid_nr(current), task_pid_nr(current), nid,
			drun, dshared, a->strikes, home);
	return home;
}

/**
 * pcn_adapt_came_home() - a thread adaptive placement called is home
 * @ctx: its process's context, at the origin
 * @nid: the node it came from
 *
 * Called in the thread, back to stay, before it returns to user space.
 * If no thread of the process is left at @nid, the pages @nid writes
 * come home now, in batches; counted in the process's pages_home, with
 * a log line.  Not for a process that is being killed, exits or dumps
 * its core: exit drops the pages, a core dump takes them itself; and a
 * kill meanwhile ends it between two batches.
 */
void pcn_adapt_came_home(struct remote_context *ctx, int nid)
{
	int n;

	if (fatal_signal_pending(current) ||
	    (current->signal->flags & SIGNAL_GROUP_EXIT) ||
	    pcn_migrate_threads_at(ctx, nid))
		return;
	n = pcn_pages_writers_home(ctx, nid);
	if (n > 0) {
		atomic64_add(n, &ctx->dsm.pages_home);
		pr_info_ratelimited("process %d: %d pages written at node %d came home with its last thread there\n",
				    task_tgid_nr(current), n, nid);
	} else if (n < 0) {
		pr_warn_ratelimited("process %d: the pages written at node %d were not brought home (error %d)\n",
				    task_tgid_nr(current), nid, n);
	}
}
