// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/popcorn_ps: the distributed processes of this node, their
 * origin, and where each of their threads runs ("popcorn ps").
 *
 * A process is listed when it has a placement policy or has had a
 * thread away (its remote context), to a reader that may read its
 * details (the rule of /proc/PID/environ: its owner or root):
 *
 *   process PID placement MASK remote_faults N syscalls N comm COMM
 *   share PID remote_faults_per_s N window_s S
 *   hot PID ADDR transfers N nodes MASK
 *   dsm PID policy adaptive|static wait_home_ms N wait_away_ms N
 *       called_home N pages_home N          (one line)
 *   thread TID node NID [run_ms N wait_ms N shared_ms N]
 *
 * MASK is the policy's node mask in hex, "all" or "-" for none;
 * remote_faults the page requests of its remote threads served here,
 * syscalls the system calls made here for them (forwarded ones, writes,
 * futex and address-space calls).  "share" and "hot" lines, for a
 * process with a remote context here (share.c): the page requests served
 * per second, and up to 8 of the pages that moved most in the last S
 * seconds, most first, with the nodes they went to.  "dsm": the time
 * its threads waited on the DSM at home and away (dsm_wait.c), and how
 * many adaptive placement called home (adaptive.c) and the pages that
 * came home in batches after them.  A thread's node is
 * where it runs, or where it is on its way to; a thread away has the CPU
 * time it used there and its DSM wait there, all of it and the part
 * that comes from sharing, since it arrived, as of its node's last
 * report; a thread at home its CPU time and its DSM wait at home, the
 * part other nodes caused (they held the page) as from sharing.  Format
 * in Documentation/popcorn/.
 */
#include <linux/bits.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>

#include "context.h"
#include "placement.h"

struct pcn_ps_counts {
	struct remote_context *ctx;	/* valid in the RCU section */
	s64 faults, syscalls;
	struct pcn_share_figures share;
	s64 home_ns, away_ns;
	int called_home;
	s64 pages_home;
};

/*
 * @p's counters at its origin; false if it has no context here.  No
 * reference is taken: the context is freed after an RCU grace period,
 * and the caller is in an RCU read-side section.
 */
static bool pcn_ps_counts(struct task_struct *p, struct pcn_ps_counts *c)
{
	struct remote_context *ctx;
	bool ret = false;

	task_lock(p);
	ctx = p->mm ? READ_ONCE(p->mm->remote) : NULL;
	if (ctx && ctx->at_origin) {
		c->faults = atomic64_read(&ctx->faults_served);
		c->syscalls = atomic64_read(&ctx->syscalls_served);
		pcn_share_copy(ctx, &c->share);
		c->home_ns = atomic64_read(&ctx->dsm.home_ns);
		c->away_ns = atomic64_read(&ctx->dsm.away_ns);
		c->called_home = atomic_read(&ctx->dsm.called_home);
		c->pages_home = atomic64_read(&ctx->dsm.pages_home);
		c->ctx = ctx;
		ret = true;
	}
	task_unlock(p);
	return ret;
}

static void pcn_ps_process(struct seq_file *seq, struct task_struct *p,
			   const struct pcn_ps_counts *c, unsigned long nodes,
			   bool dist)
{
	int me = pcn_my_nid();
	char comm[TASK_COMM_LEN];
	struct task_struct *t;

	seq_printf(seq, "process %d placement ", task_tgid_vnr(p));
	if (pcn_place_all_nodes(nodes))
		seq_puts(seq, "all");
	else if (nodes)
		seq_printf(seq, "%#lx", nodes & GENMASK(POPCORN_MAX_NODES - 1, 0));
	else
		seq_putc(seq, '-');
	seq_printf(seq, " remote_faults %lld syscalls %lld comm ",
		   c->faults, c->syscalls);
	/* A name is the process's to choose: no line of its own. */
	__get_task_comm(comm, sizeof(comm), p);
	seq_escape(seq, comm, "\n\\");
	seq_putc(seq, '\n');
	if (dist) {
		pcn_share_show(seq, task_tgid_vnr(p), &c->share);
		seq_printf(seq, "dsm %d policy %s wait_home_ms %lld wait_away_ms %lld called_home %d pages_home %lld\n",
			   task_tgid_vnr(p),
			   pcn_place_adaptive(nodes) ? "adaptive" : "static",
			   div_s64(c->home_ns, NSEC_PER_MSEC),
			   div_s64(c->away_ns, NSEC_PER_MSEC), c->called_home,
			   c->pages_home);
	}
	for_each_thread(p, t) {
		u64 run, wait, shared;
		bool figures;
		int node;

		if (t->flags & PF_EXITING)
			continue;
		node = pcn_thread_node(t, me);
		seq_printf(seq, "thread %d node %d", task_pid_vnr(t), node);
		/*
		 * At home: its CPU time and its waits at home; away: what it
		 * used there, as last reported.
		 */
		figures = dist && node == me;
		if (figures) {
			run = READ_ONCE(t->se.sum_exec_runtime);
			pcn_dsm_thread_wait(c->ctx, t, &wait, &shared);
		} else if (dist) {
			figures = pcn_shadow_figures(task_pid_nr(t), &run,
						     &wait, &shared);
		}
		if (figures)
			seq_printf(seq, " run_ms %llu wait_ms %llu shared_ms %llu",
				   div_u64(run, NSEC_PER_MSEC),
				   div_u64(wait, NSEC_PER_MSEC),
				   div_u64(shared, NSEC_PER_MSEC));
		seq_putc(seq, '\n');
	}
}

static int pcn_ps_show(struct seq_file *seq, void *v)
{
	struct task_struct *p;
	struct pcn_ps_counts c;
	unsigned long nodes;
	bool dist;

	seq_printf(seq, "popcorn_ps 1 node %d\n", pcn_my_nid());
	rcu_read_lock();
	for_each_process(p) {
		/* Kernel threads; processes outside the reader's namespace. */
		if ((p->flags & PF_KTHREAD) || !task_tgid_vnr(p))
			continue;
		c = (struct pcn_ps_counts){};
		nodes = READ_ONCE(p->signal->pcn_place_nodes);
		dist = pcn_ps_counts(p, &c);
		if ((nodes || dist) &&
		    ptrace_may_access(p, PTRACE_MODE_READ_FSCREDS |
					 PTRACE_MODE_NOAUDIT))
			pcn_ps_process(seq, p, &c, nodes, dist);
	}
	rcu_read_unlock();
	return 0;
}

static int __init pcn_ps_init(void)
{
	/* Everyone may read it: each sees only the processes it may trace. */
	if (!proc_create_single("popcorn_ps", 0444, NULL, pcn_ps_show))
		return -ENOMEM;
	return 0;
}
late_initcall(pcn_ps_init);
