// SPDX-License-Identifier: GPL-2.0
/*
 * One monotonic clock for a distributed process.
 *
 * CLOCK_MONOTONIC and CLOCK_BOOTTIME count from each node's boot, so a
 * thread that moves to another node would see them jump by the
 * difference of the boot times, seconds or days, forward or back: a
 * program that measures a time limit across its threads (sysbench's
 * --time) ends at once or never.  The origin's clocks are the
 * process's: the origin sends them with PROCESS_CREATE, and the remote
 * worker, with every thread it runs, lives in a time namespace
 * (CONFIG_TIME_NS) whose offsets make this node's clocks read as the
 * origin's, in the vDSO and in system calls alike.  The error is the
 * time from the sample to the handler (this node reads that much
 * behind), usually the one-way delay of a message and less than a
 * migration takes, so a thread's clock does not go back as it moves; a
 * sample delayed in a queue, or the nodes' clocks drifting apart over
 * days, make it larger.  CLOCK_REALTIME is the nodes' business (NTP),
 * as in any cluster.
 *
 * Without CONFIG_TIME_NS the clocks stay this node's, with a log line.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/err.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/time_namespace.h>
#include <linux/timekeeping.h>

#include "clock.h"

/* Far beyond any uptime, and far within the offsets a namespace takes. */
#define PCN_CLOCK_MAX_NS	(100LL * 365 * 24 * 3600 * NSEC_PER_SEC)

/**
 * pcn_clock_sample - the origin's clocks, for a new remote worker
 * @s: filled with CLOCK_MONOTONIC and CLOCK_BOOTTIME now
 */
void pcn_clock_sample(struct pcn_clock_sample *s)
{
	struct timespec64 mono;

	/* As the process reads them: in its own time namespace, if any. */
	ktime_get_ts64(&mono);
	timens_add_monotonic(&mono);
	s->mono_ns = timespec64_to_ns(&mono);
	s->boot_ns = timens_add_boottime_ns(ktime_get_boottime_ns());
}

/**
 * pcn_clock_offsets - how far this node's clocks are from an origin's
 * @s: the origin's clocks, as received (untrusted)
 * @off: the offsets to add to this node's clocks
 *
 * Called as the sample arrives: the message's time on the way is lost.
 *
 * Return: 0, or -EINVAL for a sample no booted node can have sent.
 */
int pcn_clock_offsets(const struct pcn_clock_sample *s,
		      struct pcn_clock_offsets *off)
{
	if (s->mono_ns < 0 || s->mono_ns > PCN_CLOCK_MAX_NS ||
	    s->boot_ns < s->mono_ns || s->boot_ns > PCN_CLOCK_MAX_NS)
		return -EINVAL;
	off->mono_ns = s->mono_ns - (s64)ktime_get_ns();
	off->boot_ns = s->boot_ns - (s64)ktime_get_boottime_ns();
	return 0;
}

#ifdef CONFIG_TIME_NS
/**
 * pcn_clock_ns_new - a time namespace with the origin's clocks
 * @off: the offsets of pcn_clock_offsets()
 *
 * Called by a new worker before it takes the process's credentials:
 * the namespace is the kernel's, not the user's, who cannot change it.
 *
 * Return: namespaces to enter with pcn_clock_ns_enter(), or an ERR_PTR.
 */
struct nsproxy *pcn_clock_ns_new(const struct pcn_clock_offsets *off)
{
	struct time_namespace *ns;
	struct nsproxy *nsp = NULL;
	int err;

	err = unshare_nsproxy_namespaces(CLONE_NEWTIME, &nsp, NULL, NULL);
	if (err)
		return ERR_PTR(err);
	/* Nothing is in it yet: its offsets can still be set. */
	ns = nsp->time_ns_for_children;
	ns->offsets.monotonic = ns_to_timespec64(off->mono_ns);
	ns->offsets.boottime = ns_to_timespec64(off->boot_ns);
	return nsp;
}

/**
 * pcn_clock_ns_enter - the calling worker enters @nsp
 * @nsp: from pcn_clock_ns_new(); the reference is taken over
 *
 * Called once the worker has its mm and before it makes any thread:
 * its threads share its namespaces.
 */
void pcn_clock_ns_enter(struct nsproxy *nsp)
{
	switch_task_namespaces(current, nsp);
	timens_on_fork(nsp, current);
}

/**
 * pcn_clock_ns_drop - let go of @nsp, not entered
 * @nsp: from pcn_clock_ns_new()
 */
void pcn_clock_ns_drop(struct nsproxy *nsp)
{
	put_nsproxy(nsp);
}
#else
struct nsproxy *pcn_clock_ns_new(const struct pcn_clock_offsets *off)
{
	pr_warn_once("no CONFIG_TIME_NS: threads here read this node's monotonic clock, not their origin's\n");
	return NULL;
}

void pcn_clock_ns_enter(struct nsproxy *nsp)
{
}

void pcn_clock_ns_drop(struct nsproxy *nsp)
{
}
#endif
