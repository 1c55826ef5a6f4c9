// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn process server: distributed-process lifetime.
 *
 * At the origin, the first migration of a process attaches a
 * remote_context to its mm and asks the destination for a remote worker
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
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
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
	pid_t tgid;			/* the process at the origin */
	struct mutex lock;		/* serialises worker creation */
	DECLARE_BITMAP(workers, POPCORN_MAX_NODES);	/* nodes with one */
};

struct pcn_process_msg {
	struct pcn_kmsg_hdr hdr;
	s32 origin_tgid;
	s32 worker_pid;		/* PROCESS_CREATED: the worker, else 0 */
	s32 error;		/* PROCESS_CREATED: 0 or -errno, else 0 */
	u32 reserved;
} __packed;

/* Remote side: one per (origin node, origin process). */
struct pcn_remote_worker {
	int origin_nid;
	pid_t origin_tgid;
	struct task_struct *task;
};

static DEFINE_XARRAY(pcn_workers);
static DEFINE_MUTEX(pcn_workers_lock);	/* creation and removal */
static unsigned int pcn_nr_workers;

static unsigned long pcn_worker_key(int nid, pid_t tgid)
{
	return ((unsigned long)nid << 32) | (u32)tgid;
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

int pcn_process_prepare(int nid)
{
	struct remote_context *ctx = pcn_get_context(current->mm);
	struct pcn_process_msg req = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_CREATE,
	};
	struct pcn_process_msg *resp;
	struct pcn_kmsg_hdr *reply;
	int ret = 0;

	if (!ctx)
		return -ENOMEM;
	if (mutex_lock_killable(&ctx->lock))
		return -EINTR;
	if (test_bit(nid, ctx->workers))
		goto out;

	req.origin_tgid = ctx->tgid;
	ret = pcn_kmsg_request(nid, &req, sizeof(req),
			       PCN_KMSG_TYPE_PROCESS_CREATED,
			       PCN_PROCESS_TIMEOUT, &reply);
	if (ret)
		goto out;
	resp = (struct pcn_process_msg *)reply;
	if (resp->origin_tgid != ctx->tgid)
		ret = -EPROTO;
	else if (resp->error)
		ret = resp->error < 0 && resp->error >= -MAX_ERRNO ?
		      resp->error : -EPROTO;
	else
		set_bit(nid, ctx->workers);
	pcn_kmsg_done(reply);
out:
	mutex_unlock(&ctx->lock);
	return ret;
}

void __pcn_mm_exit(struct mm_struct *mm)
{
	struct remote_context *ctx = mm->remote;
	struct pcn_process_msg msg = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_EXIT,
		.origin_tgid = ctx->tgid,
	};
	int nid;

	/* A node that is offline has ended the workers itself. */
	for_each_set_bit(nid, ctx->workers, POPCORN_MAX_NODES)
		pcn_kmsg_send(nid, &msg, sizeof(msg));
	mm->remote = NULL;
	kfree(ctx);
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

/* Called with pcn_workers_lock held. */
static void pcn_worker_destroy(struct pcn_remote_worker *w)
{
	xa_erase(&pcn_workers, pcn_worker_key(w->origin_nid, w->origin_tgid));
	pcn_nr_workers--;
	kthread_stop(w->task);
	put_task_struct(w->task);
	kfree(w);
}

static int pcn_worker_create(int nid, pid_t tgid, pid_t *pid)
{
	unsigned long key = pcn_worker_key(nid, tgid);
	struct pcn_remote_worker *w;
	int ret = 0;

	mutex_lock(&pcn_workers_lock);
	w = xa_load(&pcn_workers, key);
	if (w)
		goto out;
	if (pcn_nr_workers >= PCN_MAX_WORKERS) {
		ret = -EAGAIN;
		goto out;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		ret = -ENOMEM;
		goto out;
	}
	w->origin_nid = nid;
	w->origin_tgid = tgid;
	w->task = kthread_create(pcn_worker_main, w, "pcn_worker/%d:%d",
				 nid, tgid);
	if (IS_ERR(w->task)) {
		ret = PTR_ERR(w->task);
		kfree(w);
		w = NULL;
		goto out;
	}
	ret = xa_err(xa_store(&pcn_workers, key, w, GFP_KERNEL));
	if (ret) {
		kthread_stop(w->task);
		kfree(w);
		w = NULL;
		goto out;
	}
	get_task_struct(w->task);
	pcn_nr_workers++;
	wake_up_process(w->task);
out:
	if (w)
		*pid = task_pid_nr(w->task);
	mutex_unlock(&pcn_workers_lock);
	return ret;
}

static void pcn_handle_process_create(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_process_msg *req = (struct pcn_process_msg *)msg;
	struct pcn_process_msg resp = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_CREATED,
		.origin_tgid = req->origin_tgid,
	};
	pid_t pid = 0;

	if (req->origin_tgid <= 0 || req->worker_pid || req->error ||
	    req->reserved)
		resp.error = -EINVAL;
	else
		resp.error = pcn_worker_create(nid, req->origin_tgid, &pid);
	resp.worker_pid = pid;
	pcn_kmsg_reply(nid, msg, &resp, sizeof(resp));
	pcn_kmsg_done(msg);
}

static void pcn_handle_process_exit(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_process_msg *req = (struct pcn_process_msg *)msg;
	struct pcn_remote_worker *w;

	mutex_lock(&pcn_workers_lock);
	w = xa_load(&pcn_workers, pcn_worker_key(nid, req->origin_tgid));
	if (w)
		pcn_worker_destroy(w);
	mutex_unlock(&pcn_workers_lock);
	pcn_kmsg_done(msg);
}

void pcn_process_node_offline(int nid)
{
	struct pcn_remote_worker *w;
	unsigned long key;

	mutex_lock(&pcn_workers_lock);
	xa_for_each_range(&pcn_workers, key, w, pcn_worker_key(nid, 0),
			  pcn_worker_key(nid, U32_MAX))
		pcn_worker_destroy(w);
	mutex_unlock(&pcn_workers_lock);
}

/* /sys/kernel/debug/popcorn/workers: "origin_nid origin_tgid pid" lines */
static int pcn_workers_show(struct seq_file *seq, void *v)
{
	struct pcn_remote_worker *w;
	unsigned long key;

	mutex_lock(&pcn_workers_lock);
	xa_for_each(&pcn_workers, key, w)
		seq_printf(seq, "%d %d %d\n", w->origin_nid, w->origin_tgid,
			   task_pid_nr(w->task));
	mutex_unlock(&pcn_workers_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pcn_workers);

static int __init pcn_process_server_init(void)
{
	size_t size = sizeof(struct pcn_process_msg);
	int ret;

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
