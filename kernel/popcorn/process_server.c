// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn process server: distributed-process lifetime.
 *
 * At the origin, the first migration of a process attaches a
 * remote_context (with an id unique at this origin) to its mm and asks
 * the destination for a remote worker
 * (PROCESS_CREATE, answered by PROCESS_CREATED).  The context records
 * which nodes hold a worker; when the mm's last user is gone (the
 * process exited or was killed) every one of them is told
 * (PROCESS_EXIT) and ends its worker.  A remote also ends the workers of
 * an origin that goes offline, so nothing of a process outlives it.
 *
 * The worker is the remote stand-in of the process; the migrated threads
 * and the remote mm it is to own come with thread migration (not yet).
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>
#include <popcorn/process_server.h>

#include "debugfs.h"

#define PCN_PROCESS_TIMEOUT	(5 * HZ)
#define PCN_MAX_WORKERS		1024

/* Origin side: hangs off mm->remote of a distributed process. */
struct remote_context {
	u32 id;				/* unique at this origin, names it */
	pid_t tgid;			/* the process at the origin */
	struct mutex lock;		/* serialises worker creation */
	/* Nodes asked for a worker: each is told when the process ends. */
	DECLARE_BITMAP(asked, POPCORN_MAX_NODES);
	/* Nodes holding a worker, valid while the node's generation holds. */
	DECLARE_BITMAP(workers, POPCORN_MAX_NODES);
	unsigned int gen[POPCORN_MAX_NODES];
	struct work_struct exit_work;
};

struct pcn_process_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;		/* the origin's remote_context */
	s32 origin_tgid;
	s32 worker_pid;		/* PROCESS_CREATED: the worker, else 0 */
	s32 error;		/* PROCESS_CREATED: 0 or -errno, else 0 */
} __packed;

/* Remote side: one per (origin node, origin context). */
struct pcn_remote_worker {
	int origin_nid;
	u32 ctx_id;
	pid_t origin_tgid;
	struct task_struct *task;
	struct list_head dead;		/* on a list of workers to stop */
};

static DEFINE_XARRAY(pcn_workers);
static DEFINE_MUTEX(pcn_workers_lock);	/* creation and removal */
static unsigned int pcn_nr_workers;
static atomic_t pcn_ctx_ids;

static unsigned long pcn_worker_key(int nid, u32 ctx_id)
{
	return ((unsigned long)nid << 32) | ctx_id;
}

/* ---- origin ------------------------------------------------------- */

static struct remote_context *pcn_get_context(struct mm_struct *mm)
{
	struct remote_context *ctx = READ_ONCE(mm->remote), *old;

	if (ctx)
		return ctx;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return NULL;
	/* tgids are reused and shared by vfork children: ids are not. */
	ctx->id = atomic_inc_return(&pcn_ctx_ids);
	ctx->tgid = task_tgid_nr(current);
	mutex_init(&ctx->lock);
	/* Two threads may race here: one context wins. */
	old = cmpxchg(&mm->remote, NULL, ctx);
	if (old) {
		kfree(ctx);
		return old;
	}
	return ctx;
}

/*
 * An error a remote reports is passed to user space only if it is one
 * the remote may legitimately return; anything else is a protocol error
 * (never a kernel-internal code such as -ERESTARTSYS).
 */
static int pcn_remote_error(s32 error)
{
	switch (error) {
	case -ENOMEM:
	case -EAGAIN:
	case -EINVAL:
		return error;
	}
	return -EPROTO;
}

int pcn_process_prepare(int nid)
{
	struct remote_context *ctx = pcn_get_context(current->mm);
	struct pcn_process_msg req = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_CREATE,
	};
	struct pcn_process_msg *resp;
	struct pcn_kmsg_hdr *reply;
	unsigned int gen = pcn_node_generation(nid);
	int ret = 0;

	if (!ctx)
		return -ENOMEM;
	if (mutex_lock_killable(&ctx->lock))
		return -EINTR;
	/* A worker made before the node last went offline is gone. */
	if (test_bit(nid, ctx->workers) && ctx->gen[nid] == gen)
		goto out;
	clear_bit(nid, ctx->workers);

	req.ctx_id = ctx->id;
	req.origin_tgid = ctx->tgid;
	/* Even if the answer is lost, the node may have made a worker. */
	set_bit(nid, ctx->asked);
	ret = pcn_kmsg_request(nid, &req, sizeof(req),
			       PCN_KMSG_TYPE_PROCESS_CREATED,
			       PCN_PROCESS_TIMEOUT, &reply);
	if (ret)
		goto out;
	resp = (struct pcn_process_msg *)reply;
	if (resp->ctx_id != ctx->id || resp->origin_tgid != ctx->tgid) {
		ret = -EPROTO;
	} else if (resp->error) {
		ret = pcn_remote_error(resp->error);
	} else {
		ctx->gen[nid] = gen;
		set_bit(nid, ctx->workers);
	}
	pcn_kmsg_done(reply);
out:
	mutex_unlock(&ctx->lock);
	return ret;
}

/*
 * Telling the remotes may block on the network: it is done from a work
 * item, not from whichever task dropped the mm's last reference (which
 * may be dying, or have signals pending that would cut a send short).
 */
static void pcn_process_exit_work(struct work_struct *work)
{
	struct remote_context *ctx =
		container_of(work, struct remote_context, exit_work);
	struct pcn_process_msg msg = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_EXIT,
		.ctx_id = ctx->id,
		.origin_tgid = ctx->tgid,
	};
	int nid;

	/* A node that is offline has ended the workers itself. */
	for_each_set_bit(nid, ctx->asked, POPCORN_MAX_NODES)
		pcn_kmsg_send(nid, &msg, sizeof(msg));
	kfree(ctx);
}

void __pcn_mm_exit(struct mm_struct *mm)
{
	struct remote_context *ctx = xchg(&mm->remote, NULL);

	INIT_WORK(&ctx->exit_work, pcn_process_exit_work);
	queue_work(system_unbound_wq, &ctx->exit_work);
}

/* ---- remote -------------------------------------------------------- */

static int pcn_worker_main(void *arg)
{
	/* Idle until the origin's process ends; work comes with migration. */
	while (!kthread_should_stop()) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule();
	}
	return 0;
}

/*
 * Take @w out of the table (pcn_workers_lock held) onto @dead; the
 * thread is stopped by pcn_workers_reap(), after the lock is dropped.
 */
static void pcn_worker_unlink(struct pcn_remote_worker *w,
			      struct list_head *dead)
{
	xa_erase(&pcn_workers, pcn_worker_key(w->origin_nid, w->ctx_id));
	pcn_nr_workers--;
	list_add_tail(&w->dead, dead);
}

static void pcn_workers_reap(struct list_head *dead)
{
	struct pcn_remote_worker *w, *tmp;

	list_for_each_entry_safe(w, tmp, dead, dead) {
		kthread_stop(w->task);
		put_task_struct(w->task);
		kfree(w);
	}
}

static int pcn_worker_create(int nid, u32 ctx_id, pid_t tgid, pid_t *pid)
{
	unsigned long key = pcn_worker_key(nid, ctx_id);
	struct pcn_remote_worker *w;
	int ret = 0;

	mutex_lock(&pcn_workers_lock);
	/* A request queued before its node went offline comes too late. */
	if (!pcn_node_online(nid)) {
		ret = -EAGAIN;
		goto unlock;
	}
	w = xa_load(&pcn_workers, key);
	if (w)
		goto out;
	if (pcn_nr_workers >= PCN_MAX_WORKERS) {
		ret = -EAGAIN;
		goto unlock;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		ret = -ENOMEM;
		goto unlock;
	}
	w->origin_nid = nid;
	w->ctx_id = ctx_id;
	w->origin_tgid = tgid;
	w->task = kthread_create(pcn_worker_main, w, "pcn_worker/%d:%d",
				 nid, tgid);
	if (IS_ERR(w->task)) {
		kfree(w);
		ret = -ENOMEM;
		goto unlock;
	}
	ret = xa_err(xa_store(&pcn_workers, key, w, GFP_KERNEL));
	if (ret) {
		kthread_stop(w->task);
		kfree(w);
		ret = -ENOMEM;
		goto unlock;
	}
	get_task_struct(w->task);
	pcn_nr_workers++;
	wake_up_process(w->task);
out:
	*pid = task_pid_nr(w->task);
unlock:
	mutex_unlock(&pcn_workers_lock);
	return ret;
}

static bool pcn_process_msg_ok(const struct pcn_process_msg *m)
{
	return m->origin_tgid > 0 && !m->worker_pid && !m->error;
}

static void pcn_handle_process_create(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_process_msg *req = (struct pcn_process_msg *)msg;
	struct pcn_process_msg resp = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_CREATED,
		.ctx_id = req->ctx_id,
		.origin_tgid = req->origin_tgid,
	};
	pid_t pid = 0;

	if (!pcn_process_msg_ok(req))
		resp.error = -EINVAL;
	else
		resp.error = pcn_worker_create(nid, req->ctx_id,
					       req->origin_tgid, &pid);
	resp.worker_pid = pid;
	pcn_kmsg_reply(nid, msg, &resp, sizeof(resp));
	pcn_kmsg_done(msg);
}

static void pcn_handle_process_exit(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_process_msg *req = (struct pcn_process_msg *)msg;
	struct pcn_remote_worker *w;
	LIST_HEAD(dead);

	if (pcn_process_msg_ok(req)) {
		mutex_lock(&pcn_workers_lock);
		w = xa_load(&pcn_workers, pcn_worker_key(nid, req->ctx_id));
		if (w)
			pcn_worker_unlink(w, &dead);
		mutex_unlock(&pcn_workers_lock);
		pcn_workers_reap(&dead);
	}
	pcn_kmsg_done(msg);
}

void pcn_process_node_offline(int nid)
{
	struct pcn_remote_worker *w;
	unsigned long key;
	LIST_HEAD(dead);

	mutex_lock(&pcn_workers_lock);
	xa_for_each_range(&pcn_workers, key, w, pcn_worker_key(nid, 0),
			  pcn_worker_key(nid, U32_MAX))
		pcn_worker_unlink(w, &dead);
	mutex_unlock(&pcn_workers_lock);
	pcn_workers_reap(&dead);
}

/* /sys/kernel/debug/popcorn/workers: "origin_nid origin_tgid pid ctx_id" */
static int pcn_workers_show(struct seq_file *seq, void *v)
{
	struct pcn_remote_worker *w;
	unsigned long key;

	mutex_lock(&pcn_workers_lock);
	xa_for_each(&pcn_workers, key, w)
		seq_printf(seq, "%d %d %d %u\n", w->origin_nid, w->origin_tgid,
			   task_pid_nr(w->task), w->ctx_id);
	mutex_unlock(&pcn_workers_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pcn_workers);

static int __init pcn_process_server_init(void)
{
	size_t size = sizeof(struct pcn_process_msg);
	int ret;

	atomic_set(&pcn_ctx_ids, get_random_u32());

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PROCESS_CREATE,
					"process_create", size, size,
					pcn_handle_process_create);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PROCESS_CREATED,
						 "process_created", size, size);
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PROCESS_EXIT,
						"process_exit", size, size,
						pcn_handle_process_exit);
	if (ret)
		return ret;
	debugfs_create_file("workers", 0400, pcn_debugfs_dir(), NULL,
			    &pcn_workers_fops);
	return 0;
}
late_initcall(pcn_process_server_init);
