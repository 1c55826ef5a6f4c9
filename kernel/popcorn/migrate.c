// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn thread migration.
 *
 * popcorn_migrate(nid) at the origin sends the calling thread's user
 * state to @nid (TASK_MIGRATE), where the process's remote worker
 * creates a thread in its group that returns to user space with that
 * state.  The calling thread stays behind as the thread's *shadow*: it
 * sleeps in the system call and serves what only it can do for its
 * remote thread (address-space system calls, writes and futex operations
 * run with its mm, files and futex queues),
 * until the remote thread comes back (TASK_BACK: the shadow returns to
 * user space with the remote's registers) or exits (TASK_EXIT: the
 * shadow exits with the same status).  Migration between two remotes
 * goes through the origin: the shadow comes back and leaves again.
 *
 * Messages for a shadow are keyed by its tid at the origin and accepted
 * only from the node its thread runs on.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/init.h>
#include <linux/list.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <asm/compat.h>
#include <asm/ptrace.h>
#include <asm/vdso.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>
#include <popcorn/process_server.h>

#include "context.h"
#include "creds.h"
#include "inject.h"
#include "kmsg_internal.h"
#include "messages.h"
#include "regs.h"
#include "syscall_forward.h"
#include "trace.h"

/*
 * A remote thread waits for each request it sends its shadow, so a
 * well-behaved node has one or two queued at a time; more is a peer
 * flooding the shadow, refused rather than queued.
 */
#define PCN_SHADOW_MAX_QUEUED	8

/* The origin side of a migrated thread, on its stack while it waits. */
struct pcn_shadow {
	struct remote_context *ctx;
	int nid;			/* where the thread runs */
	pid_t remote_pid;
	bool lost;			/* that node went offline */
	struct list_head msgs;		/* under the xa_lock of pcn_shadows */
	unsigned int queued;		/* entries of msgs */
	wait_queue_head_t wq;
	struct task_struct *task;	/* the shadow */
	/* Under the xa_lock: SYSCALL_INTR (syscall_forward.c). */
	u64 serving;			/* seq of the call being made, or 0 */
	u64 interrupt;			/* seq of a call to interrupt */
	/* Under the xa_lock: what the thread used there (cputime.c). */
	struct pcn_cputime cpu;
	bool cpu_new;			/* a report to add */
	struct pcn_adapt adapt;		/* adaptive placement (adaptive.c) */
	/*
	 * Called home to stop (jobctl.c), when last, and whether it must
	 * still come (the process was not continued meanwhile).
	 */
	bool called_home;
	unsigned long called_at;
	bool homing;
	/* Under the xa_lock: last called home off its node (evacuate.c). */
	unsigned long evacuated_at;
};

struct pcn_shadow_item {
	struct list_head list;
	int nid;
	struct pcn_kmsg_hdr *msg;
};

static DEFINE_XARRAY(pcn_shadows);	/* tid at the origin -> shadow */

/* The registers a thread migrates with. */
enum pcn_regs_mode {
	PCN_REGS_CALL,		/* after popcorn_migrate(), which returns 0 */
	PCN_REGS_RESTART,	/* rewound to make its system call again */
	PCN_REGS_AS_IS,		/* as they are (a proposed migration) */
};

/* @r from the calling thread's user state, for @mode. */
static void pcn_regs_for(struct pcn_task_msg *m,
			 const struct popcorn_regset_x86_64 *uregs,
			 enum pcn_regs_mode mode)
{
	struct pt_regs *regs = current_pt_regs();
	struct pcn_uregs *r = &m->regs;

	pcn_regs_save(r, uregs);
	m->xstate_size = pcn_xstate_save(m->xstate);
	if (uregs && m->xstate_size)
		pcn_xstate_set_xmm(m->xstate, uregs->xmm);
	if (mode == PCN_REGS_RESTART) {
		r->ax = regs->orig_ax;
		r->ip -= 2;	/* the syscall instruction */
	} else if (mode == PCN_REGS_AS_IS) {
		r->ax = regs->ax;
	}
}

/* ---- origin: the shadow ----------------------------------------------- */

/* Answer a request the shadow will not serve with @err, and drop it. */
static void pcn_shadow_reject(int nid, struct pcn_kmsg_hdr *msg, int err)
{
	if (msg->type == PCN_KMSG_TYPE_VMA_OP)
		pcn_vma_op_reply(nid, msg, err, 0);
	if (msg->type == PCN_KMSG_TYPE_FILE_WRITE)
		pcn_file_write_reply(nid, msg, err);
	if (msg->type == PCN_KMSG_TYPE_FUTEX)
		pcn_futex_reply(nid, msg, err);
	if (msg->type == PCN_KMSG_TYPE_SYSCALL)
		pcn_syscall_reply(nid, msg, err, 0);
	pcn_kmsg_done(msg);
}

static void pcn_shadow_deliver(int nid, struct pcn_kmsg_hdr *msg,
			       u32 ctx_id, pid_t shadow_pid)
{
	struct pcn_shadow_item *item = kmalloc(sizeof(*item), GFP_KERNEL);
	struct pcn_shadow *sh;
	int err = -ESRCH;

	if (!item) {
		pcn_shadow_reject(nid, msg, -ENOMEM);
		return;
	}
	item->nid = nid;
	item->msg = msg;
	xa_lock(&pcn_shadows);
	sh = shadow_pid > 0 ? xa_load(&pcn_shadows, shadow_pid) : NULL;
	if (sh && sh->nid == nid && sh->ctx->id == ctx_id) {
		if (sh->queued < PCN_SHADOW_MAX_QUEUED) {
			list_add_tail(&item->list, &sh->msgs);
			sh->queued++;
			wake_up(&sh->wq);
			item = NULL;
		} else {
			err = -EBUSY;
		}
	}
	xa_unlock(&pcn_shadows);
	if (!item)
		return;
	kfree(item);
	if (err == -EBUSY) {
		pcn_kmsg_count_drop(PCN_DROP_BACKLOG);
		pr_warn_ratelimited("node %d floods the shadow of thread %d: request refused\n",
				    nid, shadow_pid);
	}
	pcn_shadow_reject(nid, msg, err);
}

static struct pcn_shadow_item *pcn_shadow_pop(struct pcn_shadow *sh)
{
	struct pcn_shadow_item *item;

	xa_lock(&pcn_shadows);
	item = list_first_entry_or_null(&sh->msgs, struct pcn_shadow_item,
					list);
	if (item) {
		list_del(&item->list);
		sh->queued--;
	}
	xa_unlock(&pcn_shadows);
	return item;
}

static bool pcn_shadow_pending(struct pcn_shadow *sh)
{
	bool ret;

	xa_lock(&pcn_shadows);
	ret = !list_empty(&sh->msgs) || sh->lost || sh->cpu_new;
	xa_unlock(&pcn_shadows);
	return ret;
}

/* Add the CPU time last reported to the shadow's; true if there was any. */
static bool pcn_shadow_cputime(struct pcn_shadow *sh)
{
	bool new;
	u64 ut, st;

	xa_lock(&pcn_shadows);
	new = sh->cpu_new;
	sh->cpu_new = false;
	ut = sh->cpu.utime;
	st = sh->cpu.stime;
	xa_unlock(&pcn_shadows);
	if (new)
		pcn_cputime_account(&sh->cpu, ut, st);
	return new;
}

/*
 * After a report: adaptive placement judges the thread (adaptive.c) and
 * may call it home, without hurry (a proposal it takes on its way back
 * to user space).
 */
static void pcn_shadow_adapt(struct pcn_shadow *sh)
{
	struct pcn_propose_msg m = {
		.hdr.type = PCN_KMSG_TYPE_TASK_PROPOSE,
		.ctx_id = sh->ctx->id,
		.nid = pcn_my_nid(),
	};
	u64 run, wait, shared;

	xa_lock(&pcn_shadows);
	run = sh->cpu.utime + sh->cpu.stime;
	wait = sh->cpu.wait;
	shared = sh->cpu.shared;
	m.remote_pid = sh->remote_pid;
	xa_unlock(&pcn_shadows);
	if (m.remote_pid &&
	    pcn_adapt_judge(sh->ctx, &sh->adapt, sh->nid, run, wait, shared))
		pcn_kmsg_send(sh->nid, &m, sizeof(m));
}

/**
 * pcn_shadow_figures() - what a thread away used there, as reported
 * @tid: the thread's id at the origin
 * @run: its CPU time there, ns
 * @wait: its wait on the DSM there, ns
 * @shared: the part of @wait that comes from sharing (dsm_wait.c)
 *
 * Return: false if @tid is not away.
 */
bool pcn_shadow_figures(pid_t tid, u64 *run, u64 *wait, u64 *shared)
{
	struct pcn_shadow *sh;

	xa_lock(&pcn_shadows);
	sh = xa_load(&pcn_shadows, tid);
	if (sh) {
		*run = sh->cpu.utime + sh->cpu.stime;
		*wait = sh->cpu.wait;
		*shared = sh->cpu.shared;
	}
	xa_unlock(&pcn_shadows);
	return sh;
}

/* The thread's last figure, in TASK_BACK or TASK_EXIT: add it. */
static void pcn_shadow_cputime_last(struct pcn_shadow *sh, u64 ut, u64 st)
{
	bool ok;

	xa_lock(&pcn_shadows);
	ok = pcn_cputime_take(&sh->cpu, ut, st);
	sh->cpu_new = true;
	xa_unlock(&pcn_shadows);
	if (!ok)
		pr_warn_ratelimited("node %d: CPU time of thread %d refused (%llu ns user, %llu ns system)\n",
				    sh->nid, task_pid_nr(current), ut, st);
	pcn_shadow_cputime(sh);
}

/* Remote -> origin: the CPU time of a thread there (TASK_CPUTIME). */
static void pcn_handle_task_cputime(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_cputime_msg *m = (struct pcn_cputime_msg *)msg;
	struct pcn_shadow *sh;
	bool ok = true;

	xa_lock(&pcn_shadows);
	sh = m->shadow_pid > 0 ? xa_load(&pcn_shadows, m->shadow_pid) : NULL;
	/* Not (or no longer) its shadow: a report that crossed its move. */
	if (sh && sh->nid == nid && sh->ctx->id == m->ctx_id &&
	    sh->remote_pid && sh->remote_pid == m->remote_pid) {
		ok = pcn_cputime_take(&sh->cpu, m->utime, m->stime) &&
		     pcn_cputime_take_wait(&sh->cpu, m->wait_ns,
					   m->shared_ns);
		if (ok) {
			sh->cpu_new = true;
			wake_up(&sh->wq);
		}
	}
	xa_unlock(&pcn_shadows);
	if (!ok)
		pr_warn_ratelimited("node %d: CPU time of thread %d refused (%llu ns user, %llu ns system, %llu ns DSM wait)\n",
				    nid, m->shadow_pid, m->utime, m->stime,
				    m->wait_ns);
	pcn_kmsg_done(msg);
}

static void pcn_shadow_remove(struct pcn_shadow *sh)
{
	struct pcn_shadow_item *item;

	xa_erase(&pcn_shadows, task_pid_nr(current));
	while ((item = pcn_shadow_pop(sh))) {
		pcn_shadow_reject(item->nid, item->msg, -ESRCH);
		kfree(item);
	}
	current->peer_nid = pcn_my_nid();
	current->peer_pid = task_pid_vnr(current);
}

void pcn_migrate_node_offline(int nid)
{
	struct pcn_shadow *sh;
	unsigned long tid;

	xa_lock(&pcn_shadows);
	xa_for_each(&pcn_shadows, tid, sh) {
		if (sh->nid == nid) {
			sh->lost = true;
			wake_up(&sh->wq);
		}
	}
	xa_unlock(&pcn_shadows);
}

unsigned int pcn_shadows_live(void)
{
	struct pcn_shadow *sh;
	unsigned long tid;
	unsigned int n = 0;

	xa_lock(&pcn_shadows);
	xa_for_each(&pcn_shadows, tid, sh)
		n++;
	xa_unlock(&pcn_shadows);
	return n;
}

/* Thread @remote_pid of context @ctx_id, at @nid: come home at once. */
static void pcn_send_home(int nid, u32 ctx_id, pid_t remote_pid)
{
	struct pcn_propose_msg m = {
		.hdr.type = PCN_KMSG_TYPE_TASK_PROPOSE,
		.ctx_id = ctx_id,
		.remote_pid = remote_pid,
		.nid = pcn_my_nid(),
		.flags = PCN_PROPOSE_URGENT,
	};

	pcn_kmsg_send(nid, &m, sizeof(m));
}

/**
 * pcn_migrate_call_home() - call home the threads of a process that run
 *	at a node
 * @ctx: the process, at its origin
 * @nid: the node
 *
 * Each gets an urgent proposal to come home (again if the last one is a
 * second old), as a stop would send it.  Return: how many of its threads
 * are still at @nid or on their way there.
 */
int pcn_migrate_call_home(struct remote_context *ctx, int nid)
{
	pid_t call[16];
	struct pcn_shadow *sh;
	unsigned long tid;
	int n = 0, i, k = 0;

	xa_lock(&pcn_shadows);
	xa_for_each(&pcn_shadows, tid, sh) {
		if (sh->ctx != ctx || sh->nid != nid)
			continue;
		n++;
		/* Not answered yet: called once it runs there. */
		if (!sh->remote_pid || k == ARRAY_SIZE(call) ||
		    (sh->evacuated_at &&
		     time_before(jiffies, sh->evacuated_at + HZ)))
			continue;
		sh->evacuated_at = jiffies ?: 1;
		call[k++] = sh->remote_pid;
	}
	xa_unlock(&pcn_shadows);
	for (i = 0; i < k; i++)
		pcn_send_home(nid, ctx->id, call[i]);
	return n;
}

int pcn_migrate_threads_at(struct remote_context *ctx, int nid)
{
	struct pcn_shadow *sh;
	unsigned long tid;
	int n = 0;

	xa_lock(&pcn_shadows);
	xa_for_each(&pcn_shadows, tid, sh)
		n += sh->ctx == ctx && sh->nid == nid;
	xa_unlock(&pcn_shadows);
	return n;
}

/* Remote -> origin: interrupt the call the shadow makes (SYSCALL_INTR). */
void pcn_handle_syscall_intr(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_syscall_intr *m = (struct pcn_syscall_intr *)msg;
	struct pcn_shadow *sh;

	xa_lock(&pcn_shadows);
	sh = m->shadow_pid > 0 ? xa_load(&pcn_shadows, m->shadow_pid) : NULL;
	if (sh && sh->nid == nid && sh->ctx->id == m->ctx_id && m->seq) {
		if (sh->serving == m->seq)
			set_notify_signal(sh->task);
		else		/* not begun yet, or over: noted */
			sh->interrupt = m->seq;
	}
	xa_unlock(&pcn_shadows);
	pcn_kmsg_done(msg);
}

/* Make the call of SYSCALL @item, interruptible by SYSCALL_INTR. */
static void pcn_shadow_syscall(struct pcn_shadow *sh,
			       struct pcn_shadow_item *item)
{
	u64 seq = ((struct pcn_syscall_msg *)item->msg)->seq;

	xa_lock(&pcn_shadows);
	sh->serving = seq;
	if (seq && sh->interrupt == seq)
		set_notify_signal(current);
	xa_unlock(&pcn_shadows);
	pcn_syscall_serve(sh->ctx, item->nid, sh->remote_pid, item->msg);
	xa_lock(&pcn_shadows);
	sh->serving = 0;
	xa_unlock(&pcn_shadows);
	kfree(item);
}

static bool pcn_task_back_ok(struct pcn_shadow *sh, struct pcn_task_msg *m)
{
	return m->remote_pid == sh->remote_pid && pcn_regs_valid(&m->regs) &&
	       (m->forward_nid == -1 || pcn_nid_valid(m->forward_nid)) &&
	       (!m->core_signo ||
		(pcn_core_signo_ok(m->core_signo) && m->forward_nid == -1));
}

/*
 * Call the thread home if it must stop (jobctl.c): an urgent proposal,
 * sent again each second until it comes, in case it was lost or the
 * thread was on its way elsewhere.
 */
static void pcn_shadow_send_home(struct pcn_shadow *sh)
{
	pcn_send_home(sh->nid, sh->ctx->id, sh->remote_pid);
}

static void pcn_shadow_call_home(struct pcn_shadow *sh)
{
	if (!sh->remote_pid ||
	    (sh->called_home && time_before(jiffies, sh->called_at + HZ)))
		return;
	sh->homing = pcn_jobctl_home_due();
	if (!sh->homing)
		return;
	sh->called_home = true;
	sh->called_at = jiffies;
	pcn_shadow_send_home(sh);
}

/**
 * pcn_shadow_home_check() - call the calling shadow's thread home if it
 *	must stop
 *
 * From a call the shadow makes for its thread, before it answers, so
 * that the thread meets the proposal before it makes the call again.
 */
void pcn_shadow_home_check(void)
{
	/* Its own entry, on its own stack: stable while it runs. */
	struct pcn_shadow *sh = xa_load(&pcn_shadows, task_pid_nr(current));

	if (sh && sh->task == current)
		pcn_shadow_call_home(sh);
}

/*
 * Until a message comes (> 0), a signal (-ERESTARTSYS) or, while the
 * thread is called home, a second passes (0): what is pending then
 * waits for the thread, here, and only a fatal signal wakes the shadow.
 */
static long pcn_shadow_sleep(struct pcn_shadow *sh)
{
	long ret;

	if (sh->homing)
		return wait_event_killable_timeout(sh->wq,
						   pcn_shadow_pending(sh), HZ);
	ret = wait_event_interruptible(sh->wq, pcn_shadow_pending(sh));
	return ret ? ret : 1;
}

/* Become the thread that came back in @tm: its registers and state. */
static void pcn_shadow_take_back(struct pcn_shadow *sh,
				 const struct pcn_task_msg *tm)
{
	pcn_shadow_cputime_last(sh, tm->utime, tm->stime);
	pcn_regs_load(&tm->regs);
	/* User registers as they were: no call to restart. */
	current_pt_regs()->orig_ax = -1;
	pcn_xstate_load(tm->xstate, tm->xstate_size);
	pcn_sigstate_load(tm);
	pcn_rseq_load(tm);
	/*
	 * Its restart block stayed there, and the shadow's may hold a call
	 * it made: a restart_syscall() the thread comes back to ends with
	 * -EINTR.
	 */
	current->restart_block.fn = do_no_restart_syscall;
}

/*
 * The process dumps core (another thread's fatal signal, zap_threads()
 * set core_state before it sent SIGKILL here): the core must hold the
 * thread's registers as they are where it runs, not the shadow's.  So
 * it is called home, urgently (again every half second, in case it was
 * on its way elsewhere), and waited for at most PCN_CORE_CALL_WAIT;
 * what it asks meanwhile is refused with -EINTR, which ends a call it
 * waits in.  True once its registers are loaded: the shadow then exits
 * as the thread, in coredump_task_exit().  A thread that does not come
 * in time is dumped with the shadow's registers.
 */
#define PCN_CORE_CALL_WAIT	(2 * HZ)

static bool pcn_shadow_core_call(struct pcn_shadow *sh)
{
	unsigned long deadline = jiffies + PCN_CORE_CALL_WAIT, called = 0;
	struct pcn_shadow_item *item;
	struct pcn_task_exit_msg *em;
	struct pcn_task_msg *tm;
	bool back = false, ended = false;
	long left;

	if (!READ_ONCE(current->signal->core_state) || !sh->remote_pid)
		return false;
	while (!back && !ended) {
		if (!called || time_after_eq(jiffies, called + HZ / 2)) {
			pcn_shadow_send_home(sh);
			called = jiffies;
		}
		left = (long)(deadline - jiffies);
		if (left <= 0)
			break;
		if (!wait_event_timeout(sh->wq, pcn_shadow_pending(sh),
					min_t(long, left, HZ / 2)))
			continue;
		if (pcn_shadow_cputime(sh))
			continue;
		item = pcn_shadow_pop(sh);
		if (!item)		/* its node is lost */
			break;
		tm = (struct pcn_task_msg *)item->msg;
		em = (struct pcn_task_exit_msg *)item->msg;
		if (item->msg->type == PCN_KMSG_TYPE_TASK_BACK &&
		    pcn_task_back_ok(sh, tm)) {
			/*
			 * With a signal of its own, it died there meanwhile:
			 * its registers all the same, the dump is under way.
			 */
			pcn_shadow_take_back(sh, tm);
			back = true;
		} else if (item->msg->type == PCN_KMSG_TYPE_TASK_EXIT &&
			   em->remote_pid == sh->remote_pid) {
			/* It ended there meanwhile: nothing to wait for. */
			pcn_shadow_cputime_last(sh, em->utime, em->stime);
			ended = true;
		}
		/* Answers a request, or drops a message that was used. */
		pcn_shadow_reject(item->nid, item->msg, -EINTR);
		kfree(item);
	}
	if (!back && !ended)
		pr_info_ratelimited("core of process %d: thread %d did not come back from node %d; its registers are its shadow's\n",
				    task_tgid_nr(current), task_pid_nr(current),
				    sh->nid);
	return back;
}

/*
 * Serve the remote thread until it comes back or ends.  Returns 0 with
 * the thread's registers loaded and *@next the node to go on to (-1:
 * stay here), -EINTR when the process is killed, or does not return.
 */
static int pcn_shadow_wait(struct pcn_shadow *sh, int *next_nid)
{
	struct pcn_shadow_item *item;
	struct pcn_task_exit_msg *em;
	struct pcn_task_msg *tm;
	bool home, adapted;
	long woken;
	int next;

	for (;;) {
		/*
		 * An interruption that came after its call ended, or task
		 * work queued with TWA_SIGNAL: run it, as the way out would.
		 */
		if (test_thread_flag(TIF_NOTIFY_SIGNAL)) {
			clear_notify_signal();
			if (task_work_pending(current))
				task_work_run();
		}
		pcn_shadow_call_home(sh);
		woken = pcn_shadow_sleep(sh);
		if (!woken)
			continue;
		if (woken < 0) {
			if (fatal_signal_pending(current)) {
				/* Its exit ends the worker and threads there. */
				if (pcn_shadow_core_call(sh)) {
					pcn_shadow_remove(sh);
					*next_nid = -1;
					return 0;
				}
				pcn_shadow_cputime(sh);
				pcn_shadow_remove(sh);
				return -EINTR;
			}
			/* Stopped or traced: it comes home for that. */
			if (pcn_jobctl_home_due())
				continue;
			/* The thread is away: its signals go after it. */
			pcn_signal_forward(sh->ctx, sh->nid, sh->remote_pid);
			if (signal_pending(current))	/* nothing to dequeue */
				schedule_timeout_killable(HZ / 10);
			continue;
		}
		/* Its CPU time, and nothing else maybe. */
		if (pcn_shadow_cputime(sh)) {
			pcn_shadow_adapt(sh);
			continue;
		}
		item = pcn_shadow_pop(sh);
		if (!item) {
			pr_warn("node %d lost with thread %d of process %d: killing it\n",
				sh->nid, task_pid_nr(current),
				task_tgid_nr(current));
			pcn_shadow_remove(sh);
			do_group_exit(SIGKILL);
		}
		/* A system call made here for the thread: counted. */
		if (item->msg->type != PCN_KMSG_TYPE_TASK_BACK &&
		    item->msg->type != PCN_KMSG_TYPE_TASK_EXIT)
			atomic64_inc(&sh->ctx->syscalls_served);
		switch (item->msg->type) {
		case PCN_KMSG_TYPE_VMA_OP:
			pcn_vma_op_serve(item->nid, item->msg);
			kfree(item);
			continue;
		case PCN_KMSG_TYPE_FILE_WRITE:
			pcn_file_write_serve(item->nid, item->msg);
			kfree(item);
			continue;
		case PCN_KMSG_TYPE_FUTEX:
			pcn_futex_serve(item->nid, item->msg);
			kfree(item);
			continue;
		case PCN_KMSG_TYPE_SYSCALL:
			pcn_shadow_syscall(sh, item);
			continue;
		case PCN_KMSG_TYPE_TASK_BACK:
			tm = (struct pcn_task_msg *)item->msg;
			if (!pcn_task_back_ok(sh, tm))
				break;
			pcn_shadow_take_back(sh, tm);
			/* It died there: it dies here, and the core is written. */
			if (tm->core_signo)
				pcn_core_signal(tm);
			next = tm->forward_nid;
			home = sh->called_home && !tm->core_signo;
			/* Called home by adaptive placement, and staying. */
			adapted = sh->adapt.called && !tm->core_signo &&
				  next < 0 && !home;
			pcn_kmsg_done(item->msg);
			kfree(item);
			pcn_shadow_remove(sh);
			if (adapted)
				pcn_adapt_came_home(sh->ctx, sh->nid);
			/*
			 * Called home to stop: once continued, it goes back
			 * on its way out, after its signals (jobctl.c).
			 */
			if (home) {
				pcn_proposal_add(current, next >= 0 ? next : sh->nid);
				next = -1;
			}
			*next_nid = next;
			return 0;
		case PCN_KMSG_TYPE_TASK_EXIT:
			em = (struct pcn_task_exit_msg *)item->msg;
			if (em->remote_pid != sh->remote_pid)
				break;
			pcn_shadow_cputime_last(sh, em->utime, em->stime);
			next = em->code & 0xffff;
			if (em->group) {
				pcn_kmsg_done(item->msg);
				kfree(item);
				pcn_shadow_remove(sh);
				do_group_exit(next);
			}
			pcn_kmsg_done(item->msg);
			kfree(item);
			pcn_shadow_remove(sh);
			do_exit(next);
		}
		/* Not from our thread: ignore it. */
		pcn_kmsg_done(item->msg);
		kfree(item);
	}
}

/* Send the caller's state in @m to @nid and become its shadow. */
static int pcn_migrate_out(int nid, struct pcn_task_msg *m, int *next_nid)
{
	struct pcn_shadow sh = { .nid = nid };
	struct pcn_task_reply *reply;
	struct pcn_kmsg_hdr *resp;
	pid_t tid = task_pid_nr(current);
	bool retried = false;
	int ret;

again:
	ret = pcn_process_prepare(nid);
	if (ret)
		return ret;
	sh.ctx = current->mm->remote;
	sh.task = current;
	sh.lost = false;
	sh.cpu_new = false;
	sh.called_home = false;
	sh.homing = false;
	sh.evacuated_at = 0;
	pcn_cputime_start(&sh.cpu);
	INIT_LIST_HEAD(&sh.msgs);
	init_waitqueue_head(&sh.wq);
	ret = xa_insert(&pcn_shadows, tid, &sh, GFP_KERNEL);
	if (ret)
		return ret == -EBUSY ? -EBUSY : -ENOMEM;

	m->hdr.type = PCN_KMSG_TYPE_TASK_MIGRATE;
	m->ctx_id = sh.ctx->id;
	m->origin_tgid = sh.ctx->tgid;
	m->shadow_pid = tid;
	m->remote_pid = 0;
	m->forward_nid = -1;
	pcn_sigstate_capture(m, true);
	pcn_rseq_capture(m);
	m->vdso = (unsigned long)current->mm->context.vdso;
	/*
	 * From the check of its credentials until it runs there: a seccomp
	 * filter given to every thread meanwhile is announced to its node
	 * after it arrived (seccomp.c).
	 */
	if (down_read_killable(&sh.ctx->filter_sem)) {
		ret = -EINTR;
		goto fail;
	}
	ret = pcn_creds_capture(&m->creds);
	/*
	 * No deadline: the thread may start there at any time until the
	 * answer comes, and must not also go on here.  The wait ends with
	 * the answer, the node's loss or the process's death, whose exit
	 * ends the thread there too.
	 */
	if (!ret)
		ret = pcn_kmsg_request_killable(nid, m, sizeof(*m),
						PCN_KMSG_TYPE_TASK_MIGRATED,
						&resp);
	up_read(&sh.ctx->filter_sem);
	if (ret)
		goto fail;
	reply = (struct pcn_task_reply *)resp;
	if (reply->ctx_id != sh.ctx->id || reply->shadow_pid != tid)
		ret = -EPROTO;
	else if (reply->error)
		ret = pcn_remote_error(reply->error);
	else if (reply->remote_pid <= 0)
		ret = -EPROTO;
	xa_lock(&pcn_shadows);		/* pcn_handle_task_cputime() reads it */
	sh.remote_pid = reply->remote_pid;
	xa_unlock(&pcn_shadows);
	pcn_kmsg_done(resp);
	if (ret == -ESRCH && !retried) {
		/* The worker there ended: make a new one, once. */
		retried = true;
		pcn_shadow_remove(&sh);
		pcn_process_forget_worker(sh.ctx, nid);
		goto again;
	}
	if (ret)
		goto fail;

	trace_pcn_migrate("out", nid, tid, 0);
	/*
	 * Before the proposal goes (a full barrier): placement, which reads
	 * them the other way round, counts it at @nid throughout.
	 */
	WRITE_ONCE(current->peer_nid, nid);
	current->peer_pid = sh.remote_pid;
	pcn_proposal_moved();
	return pcn_shadow_wait(&sh, next_nid);
fail:
	trace_pcn_migrate("out", nid, tid, ret);
	pcn_shadow_remove(&sh);
	return ret == -ESRCH ? -EAGAIN : ret;
}

/*
 * Take the caller to @nid and back, or on to where it goes next.
 * Returns 0 once it is back here with its registers loaded, or an error
 * without it having moved.
 */
static int pcn_migrate_from_origin(int nid,
				   const struct popcorn_regset_x86_64 *uregs,
				   enum pcn_regs_mode mode)
{
	struct pcn_task_msg *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int next, ret;

	if (!m)
		return -ENOMEM;
	pcn_regs_for(m, uregs, mode);
	for (;;) {
		ret = pcn_migrate_out(nid, m, &next);
		if (ret || next < 0 || next == pcn_my_nid())
			break;
		/* It must stop first: it goes on once continued. */
		if (pcn_jobctl_home_due()) {
			pcn_proposal_add(current, next);
			break;
		}
		/* Back from one remote on the way to another. */
		if (!pcn_node_online(next)) {
			ret = -EAGAIN;
			break;
		}
		nid = next;
		pcn_regs_for(m, NULL, PCN_REGS_AS_IS);
	}
	kfree(m);
	return ret;
}

/* ---- remote: the migrated thread --------------------------------------- */

DEFINE_STATIC_KEY_FALSE(pcn_remote_threads);

/*
 * ret_from_fork() zeroes rax after a kernel thread's function returns
 * (it is the return value of the execve() it may have made), which
 * suits popcorn_migrate() but not a thread moved with its registers as
 * they are: a task work item puts the value back on the way out.
 */
struct pcn_rax_fixup {
	struct callback_head work;
	u64 ax;
};

static void pcn_rax_fixup_run(struct callback_head *work)
{
	struct pcn_rax_fixup *f = container_of(work, struct pcn_rax_fixup,
					       work);

	if (!(current->flags & PF_EXITING))
		current_pt_regs()->ax = f->ax;
	kfree(f);
}

struct pcn_thread_start {
	struct remote_context *ctx;
	const struct pcn_task_msg *msg;
	struct pcn_rax_fixup *rax;	/* when rax is not 0 */
	struct completion done;
};

static int pcn_remote_thread_main(void *arg)
{
	struct pcn_thread_start *st = arg;
	const struct pcn_task_msg *m = st->msg;

	kref_get(&st->ctx->kref);
	/* Before at_remote: the hooks look at it only once this is on. */
	static_branch_enable(&pcn_remote_threads);
	current->remote = st->ctx;
	current->at_remote = true;
	current->peer_nid = st->ctx->origin_nid;
	current->peer_pid = m->shadow_pid;
	pcn_sigstate_load(m);
	pcn_rseq_load(m);
	pcn_creds_install_thread(&m->creds);
	pcn_regs_load(&m->regs);
	pcn_xstate_load(m->xstate, m->xstate_size);
	current_pt_regs()->orig_ax = -1;	/* not in a system call */
	if (st->rax) {
		st->rax->ax = m->regs.ax;
		init_task_work(&st->rax->work, pcn_rax_fixup_run);
		if (task_work_add(current, &st->rax->work, TWA_RESUME))
			kfree(st->rax);
	}
	complete(&st->done);
	/* ret_from_fork takes it to user space with those registers. */
	return 0;
}

/* Called by the remote worker, whose thread group the thread joins. */
int pcn_remote_thread_start(struct remote_context *ctx,
			    struct pcn_kmsg_hdr *msg, pid_t *pid)
{
	struct pcn_task_msg *m = (struct pcn_task_msg *)msg;
	struct pcn_thread_start st = { .ctx = ctx, .msg = m };
	const struct vdso_image *image = &vdso_image_64;
	pid_t tid;
	int ret;

	if (m->ctx_id != ctx->id || m->origin_tgid != ctx->tgid ||
	    m->shadow_pid <= 0 || !pcn_regs_valid(&m->regs) ||
	    m->vdso >= TASK_SIZE_MAX || (m->vdso & ~PAGE_MASK))
		return -EINVAL;
	/* Queued before the node closed: refused all the same. */
	if (pcn_node_closed())
		return -EAGAIN;
	/* The thread may call into the vDSO where its origin mapped it. */
	if (m->vdso && !current->mm->context.vdso) {
		ret = map_vdso_once(image, m->vdso + image->sym_vvar_start);
		if (ret || (unsigned long)current->mm->context.vdso != m->vdso)
			pr_warn_once("vDSO not mapped at %llx: %d\n", m->vdso,
				     ret);
	}
	/* The thread shares the worker's credentials: make them its own. */
	ret = pcn_creds_install(&m->creds);
	if (ret)
		return ret;
	/* And its signal handlers: the process's actions. */
	ret = pcn_sigactions_install(m);
	if (ret)
		return ret;
	if (m->regs.ax) {
		st.rax = kmalloc(sizeof(*st.rax), GFP_KERNEL);
		if (!st.rax)
			return -ENOMEM;
	}
	init_completion(&st.done);
	tid = user_mode_thread(pcn_remote_thread_main, &st,
			       CLONE_VM | CLONE_FS | CLONE_FILES |
			       CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM);
	if (tid < 0) {
		/* -EAGAIN: its user's RLIMIT_NPROC here, or no pid left. */
		pr_info_ratelimited("thread %d of process %d (origin node %d) not started here: %d\n",
				    m->shadow_pid, ctx->tgid, ctx->origin_nid,
				    tid);
		kfree(st.rax);
		return tid == -ENOMEM ? -ENOMEM : -EAGAIN;
	}
	wait_for_completion(&st.done);
	*pid = tid;
	trace_pcn_migrate("started", ctx->origin_nid, tid, 0);
	return 0;
}

/*
 * At a remote: hand the thread back to its shadow at the origin; with
 * @core, the signal it dies of, for its origin to dump core.
 */
static long pcn_migrate_back(int nid,
			     const struct popcorn_regset_x86_64 *uregs,
			     enum pcn_regs_mode mode,
			     const kernel_siginfo_t *core)
{
	struct remote_context *ctx = current->remote;
	struct pcn_task_msg *m;
	int ret;

	if (!pcn_node_online(ctx->origin_nid))
		return -EAGAIN;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->hdr.type = PCN_KMSG_TYPE_TASK_BACK;
	m->ctx_id = ctx->id;
	m->origin_tgid = ctx->tgid;
	m->shadow_pid = current->peer_pid;
	m->remote_pid = task_pid_nr(current);
	m->forward_nid = nid == ctx->origin_nid ? -1 : nid;
	pcn_regs_for(m, uregs, mode);
	pcn_sigstate_capture(m, false);
	pcn_rseq_capture(m);
	pcn_cputime_of(current, &m->utime, &m->stime);
	if (core)
		pcn_core_capture(m, core);
	ret = pcn_kmsg_send(ctx->origin_nid, m, sizeof(*m));
	kfree(m);
	trace_pcn_migrate("back", ctx->origin_nid, task_pid_nr(current), ret);
	if (ret)
		return ret;
	/* The thread goes on at the origin: end this copy without a word. */
	pcn_dsm_thread_end(ctx);
	current->remote = NULL;
	pcn_context_put(ctx);
	do_exit(0);
}

long pcn_migrate(int nid, const struct popcorn_regset_x86_64 *uregs)
{
	struct remote_context *ctx = READ_ONCE(current->mm->remote);
	long ret;

	if (current->remote && !current->remote->at_origin)
		return pcn_migrate_back(nid, uregs, PCN_REGS_CALL, NULL);
	/* A thread created at a remote has no shadow at the origin. */
	if (current->is_worker || (ctx && !ctx->at_origin))
		return -EOPNOTSUPP;
	/* A traced thread stays with its tracer (jobctl.c). */
	if (current->ptrace)
		return -EBUSY;
	ret = pcn_migrate_from_origin(nid, uregs, PCN_REGS_CALL);
	/*
	 * Back: the thread goes on with the registers it came with, rax
	 * included, which is this call's return value.
	 */
	return ret ? ret : current_pt_regs()->ax;
}

int pcn_migrate_proposed(int nid)
{
	struct remote_context *ctx = READ_ONCE(current->mm->remote);

	if (!pcn_enabled() || !pcn_nid_valid(nid))
		return -EINVAL;
	if (nid == pcn_my_nid())
		return 0;		/* there already */
	if (!pcn_node_online(nid))
		return -EAGAIN;
	/*
	 * 32-bit code, or just out of an int $0x80 call (TS_COMPAT is still
	 * set): not carried.  A traced thread stays with its tracer.
	 */
	if (!user_64bit_mode(current_pt_regs()) || in_ia32_syscall())
		return -EOPNOTSUPP;
	if (current->ptrace)
		return -EBUSY;
	if (current->remote && !current->remote->at_origin)
		return pcn_migrate_back(nid, NULL, PCN_REGS_AS_IS, NULL);
	if (current->is_worker || (ctx && !ctx->at_origin))
		return -EOPNOTSUPP;
	return pcn_migrate_from_origin(nid, NULL, PCN_REGS_AS_IS);
}

int pcn_shadow_propose(struct task_struct *t, int nid)
{
	struct pcn_propose_msg m = {
		.hdr.type = PCN_KMSG_TYPE_TASK_PROPOSE,
		.nid = nid,
	};
	struct pcn_shadow *sh;
	int where;

	xa_lock(&pcn_shadows);
	sh = xa_load(&pcn_shadows, task_pid_nr(t));
	if (sh) {
		m.ctx_id = sh->ctx->id;
		m.remote_pid = sh->remote_pid;
		where = sh->nid;
	}
	xa_unlock(&pcn_shadows);
	if (!sh)
		return -ENOENT;
	/* Not answered yet: it is marked when the message arrives. */
	if (!m.remote_pid)
		return -EAGAIN;
	return pcn_kmsg_send(where, &m, sizeof(m));
}

int pcn_migrate_back_restart(void)
{
	return pcn_migrate_back(current->remote->origin_nid, NULL,
				PCN_REGS_RESTART, NULL);
}

int pcn_migrate_back_as_is(void)
{
	return pcn_migrate_back(current->remote->origin_nid, NULL,
				PCN_REGS_AS_IS, NULL);
}

int pcn_migrate_back_core(const kernel_siginfo_t *info)
{
	return pcn_migrate_back(current->remote->origin_nid, NULL,
				PCN_REGS_AS_IS, info);
}

void pcn_thread_status(struct popcorn_thread_status *st)
{
	st->current_nid = pcn_my_nid();
	st->proposed_nid = pcn_proposed_nid();
	if (current->remote && !current->remote->at_origin) {
		st->peer_nid = current->peer_nid;
		st->peer_pid = current->peer_pid;
	} else {
		st->peer_nid = pcn_my_nid();
		st->peer_pid = task_pid_vnr(current);
	}
}

/* ---- exit of a remote thread -------------------------------------------- */

struct pcn_exit_work {
	struct work_struct work;
	int nid;
	struct pcn_task_exit_msg msg;
};

/* Sent from a work item: the exiting thread may have SIGKILL pending. */
static void pcn_exit_work_fn(struct work_struct *work)
{
	struct pcn_exit_work *ew = container_of(work, struct pcn_exit_work,
						work);

	pcn_kmsg_send_vital(ew->nid, &ew->msg, sizeof(ew->msg));
	kfree(ew);
}

void __pcn_task_exit(struct task_struct *tsk, long code)
{
	struct remote_context *ctx = tsk->remote;
	struct pcn_exit_work *ew;

	tsk->remote = NULL;
	if (!ctx->at_origin)
		pcn_dsm_thread_end(ctx);
	if (!ctx->at_origin && !pcn_remote_context_exiting(ctx)) {
		ew = NULL;
		if (!pcn_inject_fail(PCN_FAIL_EXIT_ALLOC))
			ew = kzalloc(sizeof(*ew), GFP_KERNEL);
		/* The shadow must not wait for a message that never comes. */
		if (!ew)
			pcn_kmsg_lost(ctx->origin_nid, PCN_KMSG_TYPE_TASK_EXIT,
				      -ENOMEM);
		if (ew) {
			INIT_WORK(&ew->work, pcn_exit_work_fn);
			ew->nid = ctx->origin_nid;
			ew->msg.hdr.type = PCN_KMSG_TYPE_TASK_EXIT;
			ew->msg.ctx_id = ctx->id;
			ew->msg.shadow_pid = tsk->peer_pid;
			ew->msg.remote_pid = task_pid_nr(tsk);
			pcn_cputime_of(tsk, &ew->msg.utime, &ew->msg.stime);
			if (tsk->signal->flags & SIGNAL_GROUP_EXIT) {
				ew->msg.group = 1;
				ew->msg.code = tsk->signal->group_exit_code;
			} else {
				ew->msg.code = code;
			}
			queue_work(system_unbound_wq, &ew->work);
		}
	}
	pcn_context_put(ctx);
}

/* ---- message handlers ---------------------------------------------------- */

static void pcn_handle_task_migrate(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_task_msg *m = (struct pcn_task_msg *)msg;
	struct remote_context *ctx = pcn_remote_context_get(nid, m->ctx_id);
	struct pcn_task_reply reply = {
		.hdr.type = PCN_KMSG_TYPE_TASK_MIGRATED,
		.ctx_id = m->ctx_id,
		.shadow_pid = m->shadow_pid,
		.error = -ESRCH,
	};

	/* Being evacuated: no thread comes (evacuate.c). */
	if (ctx && pcn_node_closed()) {
		reply.error = -EAGAIN;
		pcn_context_put(ctx);
	} else if (ctx) {
		/* The worker answers once the thread runs. */
		reply.error = pcn_worker_queue(ctx, msg);
		pcn_context_put(ctx);
		if (!reply.error)
			return;
	}
	pcn_kmsg_reply(nid, msg, &reply, sizeof(reply));
	pcn_kmsg_done(msg);
}

/* TASK_BACK, TASK_EXIT, VMA_OP, FILE_WRITE, FUTEX: for the shadow named. */
void pcn_handle_shadow_msg(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_shadow_msg_hdr *m = (struct pcn_shadow_msg_hdr *)msg;

	pcn_shadow_deliver(nid, msg, m->ctx_id, m->shadow_pid);
}

static int __init pcn_migrate_init(void)
{
	size_t tsize = sizeof(struct pcn_task_msg);
	size_t rsize = sizeof(struct pcn_task_reply);
	size_t esize = sizeof(struct pcn_task_exit_msg);

	/* Every transport carries them (pcn_kmsg_register_transport()). */
	BUILD_BUG_ON(sizeof(struct pcn_task_msg) > PCN_KMSG_MIN_SIZE_LIMIT);
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_TASK_MIGRATE,
					"task_migrate", tsize, tsize,
					pcn_handle_task_migrate);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_TASK_MIGRATED,
						 "task_migrated", rsize, rsize);
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_TASK_BACK,
						"task_back", tsize, tsize,
						pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_TASK_EXIT,
						"task_exit", esize, esize,
						pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_TASK_CPUTIME,
						"task_cputime",
						sizeof(struct pcn_cputime_msg),
						sizeof(struct pcn_cputime_msg),
						pcn_handle_task_cputime);
	return ret;
}
late_initcall(pcn_migrate_init);
