// SPDX-License-Identifier: GPL-2.0
/*
 * Evacuating a node: the threads of other nodes' processes that run here,
 * and the pages they wrote, go home before the node leaves.
 *
 * "popcorn evacuate" (this node's id written to /proc/popcorn_evacuate)
 * and this node's reboot, halt and power-off path (a reboot notifier,
 * which runs before any device, the transports' included, is shut down)
 * close the node to arrivals: TASK_MIGRATE and PROCESS_CREATE are
 * refused with -EAGAIN, which an origin's placement takes as a refusal.
 * Then every migrated thread here is proposed home at once (urgently, as
 * for a stop: a sleep is interrupted and the call made again at home),
 * and each origin with a worker here is asked to take its process back
 * (PROCESS_LEAVE).  The origin calls home each of the process's threads
 * here, waits for them, brings home every page this node writes (as
 * fork() does) and answers (PROCESS_LEFT).  Once every origin answered,
 * nothing of another node's process exists only here: the node may go.
 * Read copies stay: the origin counts an offline node's copies as gone.
 *
 * Another node's id written there evacuates from that node the processes
 * of this node only: the same calls home and page reclaim, run here for
 * each of its processes that has a worker there.  That node is not
 * closed: placement may send threads there again.
 *
 * What cannot be saved: a process whose origin is the node that leaves
 * (its pages' home is there) ends with it, and a thread that did not
 * come home within PCN_EVACUATE_WAIT is lost with its node as when the
 * node dies (its process is killed, migrate.c).  The whole evacuation
 * of a node takes PCN_EVACUATE_BUDGET at most, so that a slow origin
 * cannot hold a shutdown.  Hibernation is left alone: its tasks are
 * frozen, and come back with the image.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/capability.h>
#include <linux/freezer.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/proc_fs.h>
#include <linux/reboot.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

/* How long an origin waits for the threads of one process to come. */
#define PCN_EVACUATE_WAIT	(6 * HZ)
/* How long one evacuation of this node may take, in all. */
#define PCN_EVACUATE_BUDGET	(30 * HZ)
/* PROCESS_LEAVEs of one node being served at a time, at most. */
#define PCN_LEAVE_MAX_RUNNING	32

static bool pcn_closed;			/* refuses arrivals */
static DEFINE_MUTEX(pcn_evacuate_lock);	/* one evacuation at a time */
static atomic_t pcn_leaves_running[POPCORN_MAX_NODES];

/**
 * pcn_node_closed() - is this node closed to arriving threads?
 *
 * Return: true while it is being evacuated or once it was, until it is
 * opened again.
 */
bool pcn_node_closed(void)
{
	return READ_ONCE(pcn_closed);
}

/*
 * The migrated threads that run here, proposed home when @kick: how
 * many.  A context is freed after an RCU grace period, so its
 * origin_nid can be read here.
 */
static int pcn_threads_here(bool kick)
{
	struct task_struct *p, *t;
	struct remote_context *ctx;
	int n = 0;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		ctx = READ_ONCE(t->remote);
		if (!ctx || !READ_ONCE(t->at_remote) || ctx->at_origin ||
		    (t->flags & PF_EXITING))
			continue;
		n++;
		if (kick)
			pcn_proposal_urgent(t, ctx->origin_nid);
	}
	rcu_read_unlock();
	return n;
}

unsigned int pcn_remote_threads_live(void)
{
	return pcn_threads_here(false);
}

/* ---- origin ------------------------------------------------------------ */

/*
 * Take process @ctx back from node @nid: its threads there, then the
 * pages @nid writes (those too if a thread did not come: what can be
 * saved is).  0, or -ETIMEDOUT (a thread did not come by @deadline),
 * -EIO (a page's data did not come back).
 */
static int pcn_evacuate_process(struct remote_context *ctx, int nid,
				unsigned long deadline)
{
	int ret = 0, err;

	while (pcn_migrate_call_home(ctx, nid)) {
		if (time_after(jiffies, deadline) ||
		    fatal_signal_pending(current)) {
			ret = -ETIMEDOUT;
			break;
		}
		schedule_timeout_uninterruptible(HZ / 50);
	}
	/* The process ended meanwhile: nothing to take back. */
	if (!mmget_not_zero(ctx->mm))
		return 0;
	err = pcn_pages_reclaim_writers(ctx, nid);
	mmput(ctx->mm);
	return ret ?: err;
}

/*
 * Take this node's processes back from node @nid: every one's threads
 * called at once, then each waited for, by one deadline.
 */
static int pcn_evacuate_from(int nid)
{
	unsigned long deadline = jiffies + PCN_EVACUATE_WAIT;
	struct remote_context *ctx;
	unsigned long id;
	int ret = 0, err, pass;

	for (pass = 0; pass < 2; pass++) {
		id = 0;
		while ((ctx = pcn_context_next(&id))) {
			if (!ctx->at_origin || !test_bit(nid, ctx->asked)) {
				pcn_context_put(ctx);
				continue;
			}
			if (!pass) {
				pcn_migrate_call_home(ctx, nid);
				pcn_context_put(ctx);
				continue;
			}
			err = pcn_evacuate_process(ctx, nid, deadline);
			if (err) {
				pr_warn("evacuation of process %d from node %d: %d\n",
					ctx->tgid, nid, err);
				ret = ret ?: err;
			}
			pcn_context_put(ctx);
		}
	}
	return ret;
}

struct pcn_leave_work {
	struct work_struct work;
	int nid;
	struct pcn_kmsg_hdr *msg;
	struct remote_context *ctx;
};

/* Blocks for seconds: not in a receive handler's slot. */
static void pcn_leave_work_fn(struct work_struct *work)
{
	struct pcn_leave_work *lw = container_of(work, struct pcn_leave_work,
						 work);
	struct pcn_leave_msg *req = (struct pcn_leave_msg *)lw->msg;
	struct pcn_leave_msg resp = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_LEFT,
		.ctx_id = req->ctx_id,
	};

	resp.error = pcn_evacuate_process(lw->ctx, lw->nid,
					  jiffies + PCN_EVACUATE_WAIT);
	if (resp.error)
		pr_warn("evacuation of process %d from node %d: %d\n",
			lw->ctx->tgid, lw->nid, resp.error);
	pcn_kmsg_reply(lw->nid, lw->msg, &resp, sizeof(resp));
	pcn_kmsg_done(lw->msg);
	pcn_context_put(lw->ctx);
	atomic_dec(&pcn_leaves_running[lw->nid]);
	kfree(lw);
}

/* PROCESS_LEAVE: node @nid leaves; take process ctx_id back from it. */
static void pcn_handle_process_leave(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_leave_msg *req = (struct pcn_leave_msg *)msg;
	struct pcn_leave_msg resp = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_LEFT,
		.ctx_id = req->ctx_id,
		.error = -EINVAL,
	};
	struct remote_context *ctx = NULL;
	struct pcn_leave_work *lw;

	if (req->error || req->reserved)
		goto answer;
	resp.error = -ESRCH;
	ctx = pcn_context_get(req->ctx_id);
	/* Only a node that was asked for a worker has anything of it. */
	if (!ctx || !ctx->at_origin || !test_bit(nid, ctx->asked))
		goto answer;
	resp.error = -EAGAIN;
	if (atomic_inc_return(&pcn_leaves_running[nid]) >
	    PCN_LEAVE_MAX_RUNNING)
		goto answer_dec;
	resp.error = -ENOMEM;
	lw = kmalloc(sizeof(*lw), GFP_KERNEL);
	if (!lw)
		goto answer_dec;
	INIT_WORK(&lw->work, pcn_leave_work_fn);
	lw->nid = nid;
	lw->msg = msg;
	lw->ctx = ctx;
	queue_work(system_unbound_wq, &lw->work);
	return;
answer_dec:
	atomic_dec(&pcn_leaves_running[nid]);
answer:
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_reply(nid, msg, &resp, sizeof(resp));
	pcn_kmsg_done(msg);
}

/* ---- the node that leaves ---------------------------------------------- */

/* Ask the origin of @ctx to take it back, by @deadline; its answer. */
static int pcn_leave_process(struct remote_context *ctx,
			     unsigned long deadline)
{
	struct pcn_leave_msg req = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_LEAVE,
		.ctx_id = ctx->id,
	};
	struct pcn_leave_msg *resp;
	struct pcn_kmsg_hdr *reply;
	int ret;

	if (time_after_eq(jiffies, deadline))
		return -ETIMEDOUT;
	ret = pcn_kmsg_request(ctx->origin_nid, &req, sizeof(req),
			       PCN_KMSG_TYPE_PROCESS_LEFT, deadline - jiffies,
			       &reply);
	if (ret)
		return ret;
	resp = (struct pcn_leave_msg *)reply;
	if (resp->ctx_id != ctx->id || resp->reserved)
		ret = -EPROTO;
	else if (!resp->error || resp->error == -ETIMEDOUT ||
		 resp->error == -EIO)
		ret = resp->error;
	else
		ret = pcn_remote_error(resp->error);
	pcn_kmsg_done(reply);
	return ret;
}

/*
 * Close this node and send everything of other nodes' processes home,
 * within PCN_EVACUATE_BUDGET in all (pcn_evacuate_lock held).  0, or
 * -ETIMEDOUT when a thread or a process could not be sent home.
 */
static int pcn_evacuate_here(void)
{
	unsigned long deadline = jiffies + PCN_EVACUATE_BUDGET, key = 0;
	struct remote_context *ctx;
	int n = 0, failed = 0, left, err;

	lockdep_assert_held(&pcn_evacuate_lock);
	WRITE_ONCE(pcn_closed, true);
	/*
	 * Every thread on its way at once, so that each origin mostly finds
	 * its threads home and has the pages to take back.
	 */
	pcn_threads_here(true);
	while ((ctx = pcn_worker_next(&key))) {
		err = pcn_leave_process(ctx, deadline);
		/* -ESRCH: the process ended meanwhile. */
		if (err && err != -ESRCH) {
			pr_warn("evacuation: process %d of node %d not taken back: %d\n",
				ctx->tgid, ctx->origin_nid, err);
			failed++;
		}
		n++;
		pcn_context_put(ctx);
	}
	/* A thread whose origin could not answer may still be on its way. */
	deadline = min(deadline, jiffies + HZ);
	while ((left = pcn_threads_here(false)) &&
	       time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(HZ / 50);
	if (n || left)
		pr_info("node evacuated: %d processes of other nodes, %d not taken back, %d threads still here\n",
			n, failed, left);
	return failed || left ? -ETIMEDOUT : 0;
}

/* ---- /proc/popcorn_evacuate and the reboot path ------------------------- */

static int pcn_evacuate_show(struct seq_file *seq, void *v)
{
	seq_printf(seq, "node %d %s\nthreads_here %d\n", pcn_my_nid(),
		   pcn_node_closed() ? "closed" : "open",
		   pcn_threads_here(false));
	return 0;
}

static int pcn_evacuate_open(struct inode *inode, struct file *file)
{
	return single_open(file, pcn_evacuate_show, NULL);
}

/*
 * "NID": evacuate node NID (this one: close it and send everything
 * home; another: take this node's processes back from it).  "open":
 * take arrivals again.
 */
static ssize_t pcn_evacuate_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char buf[16];
	int nid, ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!pcn_enabled())
		return -ENODEV;
	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sysfs_streq(buf, "open")) {
		nid = -1;
	} else {
		ret = kstrtoint(buf, 10, &nid);
		if (ret)
			return ret;
		if (!pcn_nid_valid(nid))
			return -EINVAL;
	}
	/* Not while an evacuation runs: it would not hold. */
	if (mutex_lock_killable(&pcn_evacuate_lock))
		return -EINTR;
	if (nid < 0) {
		WRITE_ONCE(pcn_closed, false);
		pr_info("node open to arrivals again\n");
		ret = 0;
	} else if (nid == pcn_my_nid()) {
		ret = pcn_evacuate_here();
	} else {
		ret = pcn_evacuate_from(nid);
	}
	mutex_unlock(&pcn_evacuate_lock);
	return ret ? ret : len;
}

static const struct proc_ops pcn_evacuate_ops = {
	.proc_open = pcn_evacuate_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = pcn_evacuate_write,
};

/* Hibernation powers off with every task frozen: none could leave. */
static bool pcn_tasks_frozen(void)
{
#ifdef CONFIG_FREEZER
	return pm_freezing;
#else
	return false;
#endif
}

/*
 * The way down.  An evacuation from /proc under way ends within
 * PCN_EVACUATE_BUDGET: waited for that long at most, then this one
 * (quick if that one did it all); no longer, so that nothing holds the
 * shutdown for ever.
 */
static int pcn_evacuate_reboot(struct notifier_block *nb, unsigned long code,
			       void *unused)
{
	unsigned long deadline = jiffies + PCN_EVACUATE_BUDGET;

	if (!pcn_enabled() || pcn_tasks_frozen())
		return NOTIFY_DONE;
	while (!mutex_trylock(&pcn_evacuate_lock)) {
		if (time_after(jiffies, deadline)) {
			pr_warn("an evacuation is stuck: the shutdown goes on\n");
			return NOTIFY_DONE;
		}
		schedule_timeout_uninterruptible(HZ / 20);
	}
	pcn_evacuate_here();
	mutex_unlock(&pcn_evacuate_lock);
	return NOTIFY_DONE;
}

/* Early among reboot notifiers: the node still works as usual. */
static struct notifier_block pcn_evacuate_reboot_nb = {
	.notifier_call = pcn_evacuate_reboot,
	.priority = 100,
};

static int __init pcn_evacuate_init(void)
{
	size_t size = sizeof(struct pcn_leave_msg);
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PROCESS_LEAVE,
					"process_leave", size, size,
					pcn_handle_process_leave);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PROCESS_LEFT,
						 "process_left", size, size);
	if (ret)
		return ret;
	if (!proc_create("popcorn_evacuate", 0600, NULL, &pcn_evacuate_ops))
		return -ENOMEM;
	return register_reboot_notifier(&pcn_evacuate_reboot_nb);
}
late_initcall(pcn_evacuate_init);
