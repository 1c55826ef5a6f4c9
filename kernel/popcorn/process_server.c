// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn process server: distributed-process lifetime.
 *
 * At the origin, the first migration of a process attaches a
 * remote_context (with an id unique at this origin) to its mm and asks
 * the destination for a remote worker (PROCESS_CREATE, answered by
 * PROCESS_CREATED).  The context records which nodes hold a worker;
 * when the mm's last user is gone (the process exited or was killed)
 * every one of them is told (PROCESS_EXIT) and ends its worker.  A
 * remote also ends the workers of an origin that goes offline, so
 * nothing of a process outlives it.
 *
 * The remote worker is the leader of a thread group made for the
 * process on this node: a user_mode_thread() that owns a new, empty mm
 * laid out like a 64-bit process's, in which the migrated threads are
 * created (CLONE_THREAD) and into which VMAs and pages come from the
 * origin on demand.  It blocks every signal so that signals to the group
 * reach the migrated threads, and ends the group when the process ends.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm_types.h>
#include <linux/mmu_context.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <asm/mmu_context.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>
#include <popcorn/process_server.h>

#include "clock.h"
#include "context.h"
#include "creds.h"
#include "debugfs.h"
#include "inject.h"
#include "kmsg_internal.h"
#include "messages.h"
#include "page_hold.h"

#define PCN_PROCESS_TIMEOUT	(5 * HZ)
#define PCN_MAX_WORKERS		1024
/* Migrations waiting for one worker to make their threads, at most. */
#define PCN_WORKER_MAX_QUEUED	64

struct pcn_process_msg {
	struct pcn_kmsg_hdr hdr;
	u32 ctx_id;		/* the origin's remote_context */
	s32 origin_tgid;
	s32 worker_pid;		/* PROCESS_CREATED: the worker, else 0 */
	s32 error;		/* PROCESS_CREATED: 0 or -errno, else 0 */
	char comm[TASK_COMM_LEN];	/* PROCESS_CREATE: the process's name */
	struct pcn_creds creds;		/* PROCESS_CREATE: the worker's */
	struct pcn_clock_sample clock;	/* PROCESS_CREATE: the origin's */
} __packed;

/* Remote side: one per (origin node, origin context). */
struct pcn_remote_worker {
	struct remote_context ctx;	/* its kref counts for the worker */
	struct task_struct *task;
	struct completion ready;
	int error;
	spinlock_t lock;		/* protects queue and exiting */
	struct list_head queue;		/* TASK_MIGRATE requests */
	unsigned int queued;		/* entries of queue */
	wait_queue_head_t wq;
	bool exiting;			/* takes no more requests */
	bool origin_ended;		/* the origin ended the process here */
	char comm[TASK_COMM_LEN];
	struct pcn_creds creds;		/* installed by the worker at start */
	struct pcn_clock_offsets clock;	/* to the origin's clocks */
};

struct pcn_worker_item {
	struct list_head list;
	struct pcn_kmsg_hdr *msg;
};

static DEFINE_XARRAY(pcn_contexts);	/* origin: id -> context */
static DEFINE_XARRAY(pcn_workers);	/* remote: (nid, id) -> worker */
static DEFINE_MUTEX(pcn_workers_lock);	/* creation and removal */
static unsigned int pcn_nr_workers;
/* Per origin node, under pcn_workers_lock: no origin takes every slot. */
static unsigned int pcn_nr_workers_of[POPCORN_MAX_NODES];

/*
 * pcn.max_workers=: remote workers this node hosts at most, 1 to
 * PCN_MAX_WORKERS (the default).  Read at each worker creation.
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."
static unsigned int pcn_max_workers = PCN_MAX_WORKERS;

static int pcn_max_workers_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret || n < 1 || n > PCN_MAX_WORKERS) {
		pr_err("pcn.max_workers=%s: not 1 to %d, keeping %u\n", val,
		       PCN_MAX_WORKERS, pcn_max_workers);
		return ret ?: -EINVAL;
	}
	WRITE_ONCE(pcn_max_workers, n);
	return 0;
}

static const struct kernel_param_ops pcn_max_workers_ops = {
	.set = pcn_max_workers_set,
	.get = param_get_uint,
};
module_param_cb(max_workers, &pcn_max_workers_ops, &pcn_max_workers, 0444);

/* The slots one origin may use: an equal share among the other nodes. */
static unsigned int pcn_worker_share(void)
{
	return max(READ_ONCE(pcn_max_workers) /
		   max(pcn_nr_nodes() - 1, 1), 1U);
}

static atomic_t pcn_ctx_ids;

static unsigned long pcn_worker_key(int nid, u32 ctx_id)
{
	return ((unsigned long)nid << 32) | ctx_id;
}

/* ---- contexts ------------------------------------------------------ */

/*
 * The three xarrays of a context would share one lock class (xa_init()
 * has a single spin_lock_init() site), yet a remote records a grant in
 * @grants under the lock of @faults (page_client.c), so lockdep must
 * tell them apart.  Nothing takes @faults under another xarray's lock.
 */
static struct lock_class_key pcn_pages_lock_key;
static struct lock_class_key pcn_grants_lock_key;
static struct lock_class_key pcn_faults_lock_key;

static void pcn_context_init(struct remote_context *ctx)
{
	kref_init(&ctx->kref);
	mutex_init(&ctx->lock);
	init_rwsem(&ctx->vma_sem);
	init_rwsem(&ctx->filter_sem);
	xa_init(&ctx->pages);
	xa_init(&ctx->grants);
	xa_init(&ctx->faults);
	xa_init(&ctx->untouched);
	xa_init(&ctx->holds);
	atomic_set(&ctx->nr_holds, 0);
	ctx->holds_pruned = jiffies - HZ;
	lockdep_set_class(&ctx->pages.xa_lock, &pcn_pages_lock_key);
	lockdep_set_class(&ctx->grants.xa_lock, &pcn_grants_lock_key);
	lockdep_set_class(&ctx->faults.xa_lock, &pcn_faults_lock_key);
	atomic64_set(&ctx->version, 1);
	init_waitqueue_head(&ctx->wq);
	pcn_share_init(&ctx->share);
	pcn_dsm_init(&ctx->dsm);
}

static void pcn_context_release(struct kref *kref)
{
	struct remote_context *ctx =
		container_of(kref, struct remote_context, kref);

	pcn_pages_release(ctx);
	xa_destroy(&ctx->pages);
	xa_destroy(&ctx->grants);
	xa_destroy(&ctx->untouched);
	pcn_holds_release(ctx);
	pcn_dsm_release(&ctx->dsm);
	if (ctx->mm)
		mmdrop(ctx->mm);
	if (ctx->at_origin) {
		kfree_rcu(ctx, rcu);
	} else {
		struct pcn_remote_worker *w = ctx->worker;

		if (w->task)
			put_task_struct(w->task);
		kfree_rcu(w, ctx.rcu);
	}
}

void pcn_context_put(struct remote_context *ctx)
{
	kref_put(&ctx->kref, pcn_context_release);
}

struct remote_context *pcn_context_get(u32 id)
{
	struct remote_context *ctx;

	rcu_read_lock();
	ctx = xa_load(&pcn_contexts, id);
	if (ctx && !kref_get_unless_zero(&ctx->kref))
		ctx = NULL;
	rcu_read_unlock();
	return ctx;
}

struct remote_context *pcn_remote_context_get(int nid, u32 id)
{
	struct pcn_remote_worker *w;
	struct remote_context *ctx = NULL;

	rcu_read_lock();
	w = xa_load(&pcn_workers, pcn_worker_key(nid, id));
	if (w && kref_get_unless_zero(&w->ctx.kref))
		ctx = &w->ctx;
	rcu_read_unlock();
	return ctx;
}

void pcn_process_live(unsigned int *contexts, unsigned int *workers)
{
	struct remote_context *ctx;
	unsigned long id;

	*contexts = 0;
	rcu_read_lock();
	xa_for_each(&pcn_contexts, id, ctx)
		(*contexts)++;
	rcu_read_unlock();
	*workers = READ_ONCE(pcn_nr_workers);
}

struct remote_context *pcn_context_next(unsigned long *id)
{
	struct remote_context *ctx = NULL, *c;

	rcu_read_lock();
	while ((c = xa_find(&pcn_contexts, id, ULONG_MAX, XA_PRESENT))) {
		if (kref_get_unless_zero(&c->kref)) {
			ctx = c;
			break;
		}
		(*id)++;	/* ids are u32: no wrap */
	}
	rcu_read_unlock();
	if (ctx)
		(*id)++;
	return ctx;
}

struct remote_context *pcn_worker_next(unsigned long *key)
{
	struct pcn_remote_worker *w;
	struct remote_context *ctx = NULL;

	rcu_read_lock();
	while ((w = xa_find(&pcn_workers, key, ULONG_MAX, XA_PRESENT))) {
		if (!READ_ONCE(w->exiting) &&
		    kref_get_unless_zero(&w->ctx.kref)) {
			ctx = &w->ctx;
			break;
		}
		(*key)++;	/* a node id and a u32: no wrap */
	}
	rcu_read_unlock();
	if (ctx)
		(*key)++;
	return ctx;
}

bool pcn_remote_context_exiting(struct remote_context *ctx)
{
	return READ_ONCE(ctx->worker->origin_ended);
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
	pcn_context_init(ctx);
	ctx->at_origin = true;
	ctx->origin_nid = pcn_my_nid();
	/* tgids are reused and shared by vfork children: ids are not. */
	ctx->id = atomic_inc_return(&pcn_ctx_ids);
	ctx->tgid = task_tgid_nr(current);
	mmgrab(mm);
	ctx->mm = mm;
	if (xa_err(xa_store(&pcn_contexts, ctx->id, ctx, GFP_KERNEL))) {
		pcn_context_put(ctx);
		return NULL;
	}
	/* Two threads may race here: one context wins. */
	old = cmpxchg(&mm->remote, NULL, ctx);
	if (old) {
		xa_erase(&pcn_contexts, ctx->id);
		pcn_context_put(ctx);
		return old;
	}
	return ctx;
}

/*
 * An error a remote reports is passed to user space only if it is one
 * the remote may legitimately return; anything else is a protocol error
 * (never a kernel-internal code such as -ERESTARTSYS).
 */
int pcn_remote_error(s32 error)
{
	switch (error) {
	case -ENOMEM:
	case -EAGAIN:
	case -EINVAL:
	case -ESRCH:
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
	/* Before any message: what cannot be carried is refused here. */
	ret = pcn_creds_capture(&req.creds);
	if (ret)
		return ret;
	if (mutex_lock_killable(&ctx->lock))
		return -EINTR;
	/* A worker made before the node last went offline is gone. */
	if (test_bit(nid, ctx->workers) && ctx->gen[nid] == gen)
		goto out;
	clear_bit(nid, ctx->workers);

	req.ctx_id = ctx->id;
	req.origin_tgid = ctx->tgid;
	get_task_comm(req.comm, current);
	/* Even if the answer is lost, the node may have made a worker. */
	set_bit(nid, ctx->asked);
	pcn_clock_sample(&req.clock);
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

void pcn_process_forget_worker(struct remote_context *ctx, int nid)
{
	mutex_lock(&ctx->lock);
	clear_bit(nid, ctx->workers);
	mutex_unlock(&ctx->lock);
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
		pcn_kmsg_send_vital(nid, &msg, sizeof(msg));
	pcn_context_put(ctx);
}

void __pcn_mm_exit(struct mm_struct *mm)
{
	struct remote_context *ctx = xchg(&mm->remote, NULL);

	if (!ctx->at_origin) {
		/* A remote's copy of the process is gone with its worker. */
		pcn_context_put(ctx);
		return;
	}
	xa_erase(&pcn_contexts, ctx->id);
	INIT_WORK(&ctx->exit_work, pcn_process_exit_work);
	queue_work(system_unbound_wq, &ctx->exit_work);
}

/* ---- remote -------------------------------------------------------- */

/*
 * Give the worker a new, empty address space, as exec does (see
 * exec_mmap() and setup_new_exec()): VMAs come from the origin later.
 */
static int pcn_worker_new_mm(struct pcn_remote_worker *w)
{
	struct task_struct *tsk = current;
	struct mm_struct *mm, *active_mm;

	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	mm->task_size = TASK_SIZE;
	arch_pick_mmap_layout(mm, &tsk->signal->rlim[RLIMIT_STACK]);

	task_lock(tsk);
	membarrier_exec_mmap(mm);
	local_irq_disable();
	active_mm = tsk->active_mm;
	tsk->active_mm = mm;
	tsk->mm = mm;
	lru_gen_add_mm(mm);
	local_irq_enable();
	activate_mm(active_mm, mm);
	task_unlock(tsk);
	lru_gen_use_mm(mm);
	/* A task without an mm held a reference to the one it borrowed. */
	mmdrop(active_mm);

	kref_get(&w->ctx.kref);		/* for mm->remote */
	mmgrab(mm);
	w->ctx.mm = mm;
	WRITE_ONCE(mm->remote, &w->ctx);
	return 0;
}

static struct pcn_worker_item *pcn_worker_pop(struct pcn_remote_worker *w)
{
	struct pcn_worker_item *item;

	spin_lock(&w->lock);
	item = list_first_entry_or_null(&w->queue, struct pcn_worker_item,
					list);
	if (item) {
		list_del(&item->list);
		w->queued--;
	}
	spin_unlock(&w->lock);
	return item;
}

static bool pcn_worker_has_work(struct pcn_remote_worker *w)
{
	bool ret;

	spin_lock(&w->lock);
	ret = !list_empty(&w->queue) || w->exiting;
	/* Test hook: a stalled worker starts nothing until one is refused. */
	if (!w->exiting && pcn_inject_armed(PCN_FAIL_WORKER_STALL))
		ret = false;
	spin_unlock(&w->lock);
	return ret;
}

static void pcn_worker_answer(struct pcn_remote_worker *w,
			      struct pcn_kmsg_hdr *msg, bool start)
{
	struct pcn_task_msg *req = (struct pcn_task_msg *)msg;
	struct pcn_task_reply reply = {
		.hdr.type = PCN_KMSG_TYPE_TASK_MIGRATED,
		.ctx_id = req->ctx_id,
		.shadow_pid = req->shadow_pid,
		.error = -ESRCH,
	};
	pid_t pid = 0;

	if (start) {
		reply.error = pcn_remote_thread_start(&w->ctx, msg, &pid);
		reply.remote_pid = pid;
	}
	pcn_kmsg_reply(w->ctx.origin_nid, msg, &reply, sizeof(reply));
	pcn_kmsg_done(msg);
}

static int pcn_worker_main(void *arg)
{
	struct pcn_remote_worker *w = arg;
	struct pcn_worker_item *item;
	struct nsproxy *nsp;
	unsigned long report;
	sigset_t blocked;
	long left;

	current->is_worker = true;
	set_task_comm(current, w->comm);
	/* The kworker it came from ignores every signal: a process does not. */
	flush_signal_handlers(current, 1);
	sigfillset(&blocked);
	sigdelsetmask(&blocked, sigmask(SIGKILL) | sigmask(SIGSTOP));
	set_current_blocked(&blocked);

	/* Made with the kernel's credentials, entered with an mm. */
	nsp = pcn_clock_ns_new(&w->clock);
	if (IS_ERR(nsp)) {
		w->error = PTR_ERR(nsp);
		nsp = NULL;
	}
	/* The origin's rlimits first: the mm's layout depends on them. */
	if (!w->error)
		w->error = pcn_creds_install(&w->creds);
	if (!w->error)
		w->error = pcn_worker_new_mm(w);
	if (nsp && !w->error)
		pcn_clock_ns_enter(nsp);
	else if (nsp)
		pcn_clock_ns_drop(nsp);
	w->task = get_task_struct(current);
	complete(&w->ready);

	report = jiffies + pcn_adapt_interval();
	while (!w->error) {
		left = (long)(report - jiffies);
		left = wait_event_killable_timeout(w->wq, pcn_worker_has_work(w),
						   max(left, 1L));
		if (left < 0)
			break;
		/* Between migrations too: the threads here compute meanwhile. */
		if (time_after_eq(jiffies, report)) {
			pcn_cputime_report(&w->ctx);
			report = jiffies + pcn_adapt_interval();
		}
		if (!left)
			continue;
		if (READ_ONCE(w->exiting))
			break;
		item = pcn_worker_pop(w);
		if (item) {
			pcn_worker_answer(w, item->msg, true);
			kfree(item);
		}
	}

	spin_lock(&w->lock);
	w->exiting = true;
	spin_unlock(&w->lock);
	while ((item = pcn_worker_pop(w))) {
		pcn_worker_answer(w, item->msg, false);
		kfree(item);
	}
	pcn_context_put(&w->ctx);	/* the thread's reference */
	/* Ends the migrated threads too; never returns to user space. */
	do_group_exit(SIGKILL);
}

int pcn_worker_queue(struct remote_context *ctx, struct pcn_kmsg_hdr *msg)
{
	struct pcn_remote_worker *w = ctx->worker;
	struct pcn_worker_item *item = kmalloc(sizeof(*item), GFP_KERNEL);
	int ret = 0;

	if (!item)
		return -ENOMEM;
	item->msg = msg;
	spin_lock(&w->lock);
	if (w->exiting) {
		ret = -ESRCH;
	} else if (w->queued >= PCN_WORKER_MAX_QUEUED) {
		ret = -EAGAIN;
	} else {
		list_add_tail(&item->list, &w->queue);
		w->queued++;
	}
	spin_unlock(&w->lock);
	if (ret == -EAGAIN) {
		pcn_kmsg_count_drop(PCN_DROP_BACKLOG);
		pr_warn_ratelimited("node %d: %d migrations queued for one worker: refused\n",
				    w->ctx.origin_nid, PCN_WORKER_MAX_QUEUED);
		pcn_inject_fail(PCN_FAIL_WORKER_STALL);
	}
	if (ret)
		kfree(item);
	wake_up(&w->wq);
	return ret;
}

/* Take @w out of the table (pcn_workers_lock held) and end its process. */
static void pcn_worker_end(struct pcn_remote_worker *w)
{
	xa_erase(&pcn_workers, pcn_worker_key(w->ctx.origin_nid, w->ctx.id));
	pcn_nr_workers--;
	pcn_nr_workers_of[w->ctx.origin_nid]--;
	spin_lock(&w->lock);
	w->exiting = true;
	w->origin_ended = true;
	spin_unlock(&w->lock);
	wake_up(&w->wq);
	/* The migrated threads may be in user space: kill the group. */
	send_sig_info(SIGKILL, SEND_SIG_PRIV, w->task);
	pcn_context_put(&w->ctx);	/* the table's reference */
}

static int pcn_worker_create(int nid, struct pcn_process_msg *req,
			     const struct pcn_clock_offsets *clock, pid_t *pid)
{
	unsigned long key = pcn_worker_key(nid, req->ctx_id);
	struct pcn_remote_worker *w;
	pid_t tid;
	int ret = 0;

	mutex_lock(&pcn_workers_lock);
	/* A request queued before its node went offline comes too late. */
	if (!pcn_node_online(nid)) {
		ret = -EAGAIN;
		goto unlock;
	}
	w = xa_load(&pcn_workers, key);
	if (w && !READ_ONCE(w->exiting))
		goto out;
	if (w)		/* its process ended here: make a new one */
		pcn_worker_end(w);
	if (pcn_nr_workers >= READ_ONCE(pcn_max_workers) ||
	    pcn_nr_workers_of[nid] >= pcn_worker_share()) {
		pcn_kmsg_count_drop(PCN_DROP_BACKLOG);
		pr_warn_ratelimited("node %d has %u workers here, its share: no more\n",
				    nid, pcn_nr_workers_of[nid]);
		ret = -EAGAIN;
		goto unlock;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		ret = -ENOMEM;
		goto unlock;
	}
	pcn_context_init(&w->ctx);
	w->ctx.origin_nid = nid;
	w->ctx.id = req->ctx_id;
	w->ctx.tgid = req->origin_tgid;
	w->ctx.worker = w;
	init_completion(&w->ready);
	spin_lock_init(&w->lock);
	INIT_LIST_HEAD(&w->queue);
	init_waitqueue_head(&w->wq);
	memcpy(w->comm, req->comm, sizeof(w->comm));
	w->comm[TASK_COMM_LEN - 1] = '\0';
	w->creds = req->creds;
	w->clock = *clock;

	kref_get(&w->ctx.kref);		/* for the worker thread */
	/* CLONE_PARENT: kthreadd, which reaps, is its parent, not us. */
	tid = user_mode_thread(pcn_worker_main, w, CLONE_PARENT | SIGCHLD);
	if (tid < 0) {
		kfree(w);
		ret = -ENOMEM;
		goto unlock;
	}
	wait_for_completion(&w->ready);
	if (w->error) {
		ret = w->error;
		pcn_context_put(&w->ctx);
		goto unlock;
	}
	ret = xa_err(xa_store(&pcn_workers, key, w, GFP_KERNEL));
	if (ret) {
		send_sig_info(SIGKILL, SEND_SIG_PRIV, w->task);
		pcn_context_put(&w->ctx);
		ret = -ENOMEM;
		goto unlock;
	}
	pcn_nr_workers++;
	pcn_nr_workers_of[nid]++;
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
	struct pcn_clock_offsets clock;
	pid_t pid = 0;

	/* First: the time the message waited here is error. */
	if (!pcn_process_msg_ok(req) || pcn_clock_offsets(&req->clock, &clock))
		resp.error = -EINVAL;
	else if (pcn_node_closed())	/* being evacuated */
		resp.error = -EAGAIN;
	else
		resp.error = pcn_worker_create(nid, req, &clock, &pid);
	resp.worker_pid = pid;
	pcn_kmsg_reply(nid, msg, &resp, sizeof(resp));
	pcn_kmsg_done(msg);
}

static void pcn_handle_process_exit(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_process_msg *req = (struct pcn_process_msg *)msg;
	struct pcn_remote_worker *w;

	if (pcn_process_msg_ok(req)) {
		mutex_lock(&pcn_workers_lock);
		w = xa_load(&pcn_workers, pcn_worker_key(nid, req->ctx_id));
		if (w)
			pcn_worker_end(w);
		mutex_unlock(&pcn_workers_lock);
	}
	pcn_kmsg_done(msg);
}

/* Node @nid went offline: end the workers of processes originating there. */
static void pcn_process_node_offline(int nid)
{
	struct pcn_remote_worker *w;
	unsigned long key;

	mutex_lock(&pcn_workers_lock);
	xa_for_each_range(&pcn_workers, key, w, pcn_worker_key(nid, 0),
			  pcn_worker_key(nid, U32_MAX))
		pcn_worker_end(w);
	mutex_unlock(&pcn_workers_lock);
	pcn_migrate_node_offline(nid);
}

static int pcn_process_node_change(struct notifier_block *nb,
				   unsigned long change, void *data)
{
	if (change == PCN_NODE_OFFLINE)
		pcn_process_node_offline((long)data);
	return NOTIFY_OK;
}

static struct notifier_block pcn_process_node_nb = {
	.notifier_call = pcn_process_node_change,
};

/* /sys/kernel/debug/popcorn/workers: "origin_nid origin_tgid pid ctx_id" */
static int pcn_workers_show(struct seq_file *seq, void *v)
{
	struct pcn_remote_worker *w;
	unsigned long key;

	mutex_lock(&pcn_workers_lock);
	xa_for_each(&pcn_workers, key, w)
		seq_printf(seq, "%d %d %d %u\n", w->ctx.origin_nid,
			   w->ctx.tgid, task_pid_nr(w->task), w->ctx.id);
	mutex_unlock(&pcn_workers_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pcn_workers);

/* /sys/kernel/debug/popcorn/pages: the origin's page directories. */
static int pcn_pages_show(struct seq_file *seq, void *v)
{
	struct remote_context *ctx;
	unsigned long id = 0;

	for (;;) {
		rcu_read_lock();
		ctx = xa_find(&pcn_contexts, &id, ULONG_MAX, XA_PRESENT);
		if (ctx && !kref_get_unless_zero(&ctx->kref))
			ctx = NULL;
		rcu_read_unlock();
		if (!ctx)
			break;
		pcn_pages_dump(seq, ctx);
		pcn_context_put(ctx);
		if (id++ == ULONG_MAX)
			break;
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pcn_pages);

static int __init pcn_process_server_init(void)
{
	size_t size = sizeof(struct pcn_process_msg);
	int ret;

	/* Every transport carries it (pcn_kmsg_register_transport()). */
	BUILD_BUG_ON(sizeof(struct pcn_process_msg) > PCN_KMSG_MIN_SIZE_LIMIT);

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
	if (!ret)
		ret = pcn_node_notifier_register(&pcn_process_node_nb);
	if (ret)
		return ret;
	debugfs_create_file("workers", 0400, pcn_debugfs_dir(), NULL,
			    &pcn_workers_fops);
	debugfs_create_file("pages", 0400, pcn_debugfs_dir(), NULL,
			    &pcn_pages_fops);
	return 0;
}
late_initcall(pcn_process_server_init);
