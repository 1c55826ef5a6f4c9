// SPDX-License-Identifier: GPL-2.0
/*
 * System calls of a migrated thread, made at its origin by its shadow.
 *
 * The remote thread sends the call's number and its six argument
 * registers (SYSCALL) and waits.  Its shadow, a thread of the process at
 * the origin sleeping in popcorn_migrate(), makes the very same call
 * there: on the process's files, credentials, signal actions, children
 * and pid namespace, in the process's address space, where pointer
 * arguments resolve (pages the thread wrote at the remote come home by
 * the page protocol).  The result comes back (SYSCALL_DONE).  So every
 * check and effect is the origin's own, and no data is copied into the
 * messages.
 *
 * - clone, clone3, fork, vfork: the thread's user registers go along
 *   and the shadow takes them as its own before the call, so that the
 *   new task starts where the thread made the call.  The shadow's
 *   registers are free: it takes the thread's again when the thread
 *   comes back.  A new process stays at the origin; a new thread is
 *   proposed to go where its creator runs (propose.c) as it is made, in
 *   copy_process(), and leaves before it runs any of its code.
 * - Identity changes (set*id, setgroups, capset, setrlimit, prlimit64,
 *   prctl, unshare, setns): the thread's credentials and rlimits come
 *   back with the answer and are installed at the remote, which checks
 *   them itself.  Credentials that cannot go to a remote (a user
 *   namespace, too many groups, creds.c) bring the thread home, with the
 *   call's result: it must not run on with the ones it had.
 * - rt_sigaction: also set at the remote, so that a signal raised there
 *   finds its handler.
 *
 * Signals.  A blocking call at the origin ends as it would locally:
 * a signal for the thread at the remote makes it send SYSCALL_INTR, on
 * which the origin interrupts the shadow's call (TIF_NOTIFY_SIGNAL, as
 * io_uring does), and the -ERESTART* or -EINTR result goes back to the
 * thread, whose signal delivery restarts the call or not by the
 * action's SA_RESTART.  A signal sent to the process at the origin
 * while the shadow makes a call interrupts it the same way; the shadow
 * forwards it before it answers, and the answer says so: the thread
 * waits for it (a second at most), as received signals are handled in
 * work items while an answer wakes the thread at once.  A call to be
 * restarted by its restart
 * block (poll, nanosleep-like waits) returns -EINTR instead, as that
 * block is the shadow's.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/errno.h>
#include <linux/init.h>
#include <linux/overflow.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <asm/ptrace.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "creds.h"
#include "messages.h"
#include "regs.h"
#include "seccomp.h"
#include "syscall_forward.h"

static atomic64_t pcn_syscall_seq = ATOMIC64_INIT(0);

/* Calls that create a task, which starts from the caller's registers. */
static bool pcn_syscall_needs_regs(unsigned int nr)
{
	switch (nr) {
	case __NR_clone:
	case __NR_clone3:
	case __NR_fork:
	case __NR_vfork:
		return true;
	}
	return false;
}

/* Calls that may change the caller's credentials or rlimits. */
static bool pcn_syscall_sets_creds(unsigned int nr)
{
	switch (nr) {
	case __NR_setuid:
	case __NR_setgid:
	case __NR_setreuid:
	case __NR_setregid:
	case __NR_setresuid:
	case __NR_setresgid:
	case __NR_setfsuid:
	case __NR_setfsgid:
	case __NR_setgroups:
	case __NR_capset:
	case __NR_setrlimit:
	case __NR_prlimit64:
	case __NR_prctl:
	case __NR_unshare:
	case __NR_setns:
		return true;
	}
	return false;
}

/* ---- remote: the thread ------------------------------------------------ */

/*
 * ppoll, pselect6, epoll_pwait(2), io_pgetevents wait with a signal mask
 * of their own: the thread takes it here, where its signals are
 * delivered, as the call would (set_user_sigmask()).  Returns 1 when it
 * did, 0 for none, or an error.
 */
static int pcn_syscall_wait_mask(int nr, const struct pt_regs *regs)
{
	const sigset_t __user *umask;
	struct {
		u64 mask;
		u64 size;
	} pack;
	size_t size;
	int err;

	switch (nr) {
	case __NR_ppoll:
		umask = (const sigset_t __user *)regs->r10;
		size = regs->r8;
		break;
	case __NR_epoll_pwait:
	case __NR_epoll_pwait2:
		umask = (const sigset_t __user *)regs->r8;
		size = regs->r9;
		break;
	case __NR_pselect6:
	case __NR_io_pgetevents:
		/* A pointer to { mask, size }. */
		if (!regs->r9)
			return 0;
		if (copy_from_user(&pack, (const void __user *)regs->r9,
				   sizeof(pack)))
			return -EFAULT;
		umask = u64_to_user_ptr(pack.mask);
		size = pack.size;
		break;
	default:
		return 0;
	}
	if (!umask)
		return 0;
	err = set_user_sigmask(umask, size);
	return err ? err : 1;
}

/*
 * The signals that interrupted a call at the origin were sent before
 * its answer, but are handled in a work item while the answer wakes the
 * thread at once: let them come first, so that the call's -ERESTART*
 * meets them as it would have locally (a second or so at most).
 */
static void pcn_syscall_wait_signal(void)
{
	unsigned long deadline = jiffies + HZ;

	while (!signal_pending(current) && time_before(jiffies, deadline))
		schedule_timeout_interruptible(1);
}

static bool pcn_syscall_done_ok(const struct pcn_syscall_msg *req,
				const struct pcn_syscall_done *done)
{
	u32 creds = done->flags & (PCN_SYSCALL_CREDS | PCN_SYSCALL_CREDS_LOST);

	if (done->ctx_id != req->ctx_id || done->nr != req->nr ||
	    done->seq != req->seq ||
	    (done->flags & ~(PCN_SYSCALL_CREDS | PCN_SYSCALL_SIGNALLED |
			     PCN_SYSCALL_CREDS_LOST | PCN_SYSCALL_FILTERED)))
		return false;
	/* Not made: nothing else to say. */
	if ((done->flags & PCN_SYSCALL_FILTERED) &&
	    done->flags != PCN_SYSCALL_FILTERED)
		return false;
	if (creds && (!pcn_syscall_sets_creds(req->nr) ||
		      creds == (PCN_SYSCALL_CREDS | PCN_SYSCALL_CREDS_LOST)))
		return false;
	return done->hdr.size == struct_size(done, creds,
					     creds == PCN_SYSCALL_CREDS);
}

/*
 * The answer of call @req, checked: the result, or -EIO.  *@home is set
 * when the thread must go home, its credentials being no longer ones it
 * may have here; *@filtered when the call was not made, the process
 * having a seccomp filter.
 */
static long pcn_syscall_result(const struct pcn_syscall_msg *req,
			       struct pcn_syscall_done *done, bool *home,
			       bool *filtered)
{
	long ret = done->ret;
	int err;

	if (!pcn_syscall_done_ok(req, done)) {
		pr_warn_ratelimited("bad answer to system call %u of thread %d\n",
				    req->nr, task_pid_nr(current));
		return -EIO;
	}
	if (done->flags & PCN_SYSCALL_FILTERED) {
		*filtered = true;
		return -EINTR;
	}
	/* The restart block is the shadow's: nothing to restart here. */
	if (ret == -ERESTART_RESTARTBLOCK)
		ret = -EINTR;
	if (done->flags & PCN_SYSCALL_SIGNALLED)
		pcn_syscall_wait_signal();
	/*
	 * A call to restart, with no signal for the thread here (it was
	 * blocked here, or went elsewhere): the way out must still restart
	 * it, not hand user space a kernel-internal value.
	 */
	if (ret <= -ERESTARTSYS && ret >= -ERESTARTNOHAND &&
	    !signal_pending(current))
		set_notify_signal(current);
	if (done->flags & PCN_SYSCALL_CREDS_LOST)
		*home = true;
	if (done->flags & PCN_SYSCALL_CREDS) {
		err = pcn_creds_install(&done->creds[0]);
		if (err) {
			/* The call was made: its effect holds at home. */
			pr_warn_ratelimited("thread %d: credentials from the origin refused here: %d; it goes home\n",
					    task_pid_nr(current), err);
			*home = true;
			return ret;
		}
		pcn_creds_install_thread(&done->creds[0]);
	}
	return ret;
}

/**
 * pcn_syscall_forward() - make a system call of the calling remote
 *	thread at its origin
 * @regs: its user registers; the result goes to @regs->ax
 * @nr: the call's number
 *
 * Sleeps until the shadow answers.  A signal for the thread interrupts
 * the call at the origin; a fatal one ends the wait with -EINTR.  If the
 * origin is lost, -EIO (the process is ending with it).
 */
void pcn_syscall_forward(struct pt_regs *regs, int nr)
{
	struct remote_context *ctx = current->remote;
	struct pcn_syscall_msg *req;
	struct pcn_kmsg_hdr *resp;
	bool home = false, filtered = false;
	bool with_regs = pcn_syscall_needs_regs(nr);
	size_t size = struct_size(req, regs, with_regs);
	struct pcn_kmsg_wait w;
	int err, wait_mask;
	long ret;

	req = kzalloc(size, GFP_KERNEL);
	if (!req) {
		regs->ax = -ENOMEM;
		return;
	}
	wait_mask = pcn_syscall_wait_mask(nr, regs);
	if (wait_mask < 0) {
		kfree(req);
		regs->ax = wait_mask;
		return;
	}
	req->hdr.type = PCN_KMSG_TYPE_SYSCALL;
	req->ctx_id = ctx->id;
	req->shadow_pid = current->peer_pid;
	req->nr = nr;
	req->seq = atomic64_inc_return(&pcn_syscall_seq);
	req->args[0] = regs->di;
	req->args[1] = regs->si;
	req->args[2] = regs->dx;
	req->args[3] = regs->r10;
	req->args[4] = regs->r8;
	req->args[5] = regs->r9;
	req->sigmask = current->blocked.sig[0];
	if (with_regs) {
		pcn_regs_save(&req->regs[0], NULL);
		req->flags |= PCN_SYSCALL_REGS;
	}

	err = pcn_kmsg_request_begin(&w, ctx->origin_nid, req, size,
				     PCN_KMSG_TYPE_SYSCALL_DONE);
	if (!err && pcn_kmsg_request_wait_interruptible(&w)) {
		struct pcn_syscall_intr intr = {
			.hdr.type = PCN_KMSG_TYPE_SYSCALL_INTR,
			.ctx_id = ctx->id,
			.shadow_pid = current->peer_pid,
			.seq = req->seq,
		};

		/* If it cannot go, the call ends when it ends. */
		pcn_kmsg_send(ctx->origin_nid, &intr, sizeof(intr));
	}
	err = pcn_kmsg_request_end_killable(&w, &resp);
	if (err) {
		ret = err == -EINTR ? -EINTR : -EIO;
	} else {
		ret = pcn_syscall_result(req, (struct pcn_syscall_done *)resp,
					 &home, &filtered);
		pcn_kmsg_done(resp);
	}
	if (filtered) {
		/* Its mask as before the call, which it makes again at home. */
		if (wait_mask)
			restore_saved_sigmask();
		kfree(req);
		WRITE_ONCE(ctx->filtered, true);
		pcn_remote_filtered(regs, "", nr);
		return;
	}
	/* Interrupted, the signal is delivered with the call's mask. */
	if (wait_mask)
		restore_saved_sigmask_unless(ret == -EINTR ||
					     ret == -ERESTARTNOHAND);
	/* Its action is set here too: a signal raised here runs it. */
	if (nr == __NR_rt_sigaction && !ret) {
		struct pt_regs local = *regs;

		local.dx = 0;		/* the old action was the origin's */
		x64_sys_call(&local, __NR_rt_sigaction);
	}
	kfree(req);
	regs->ax = ret;
	if (home) {
		/* Only back at the origin may it go on, with the result. */
		ret = pcn_migrate_back_as_is();
		pr_warn_ratelimited("thread %d: its new credentials cannot stay at this node, and it cannot go home: %ld\n",
				    task_pid_nr(current), ret);
		force_sig(SIGKILL);
	}
}

/**
 * pcn_syscall_at_origin() - make a system call of the calling remote
 *	thread at its origin, by the thread itself
 * @regs: its user registers
 *
 * For execve(): the thread goes home with its registers rewound to the
 * call, and makes it there.  Returns only if it cannot go (the error is
 * the call's result).
 */
void pcn_syscall_at_origin(struct pt_regs *regs)
{
	regs->ax = pcn_migrate_back_restart();
}

/* ---- origin: the shadow ------------------------------------------------ */

void pcn_syscall_reply(int nid, struct pcn_kmsg_hdr *msg, long ret,
		       u32 flags)
{
	struct pcn_syscall_msg *req = (struct pcn_syscall_msg *)msg;
	struct pcn_syscall_done short_done = {}, *done = &short_done;
	struct pcn_syscall_done *full = NULL;
	size_t size = sizeof(*done);

	if (ret >= 0 && pcn_syscall_sets_creds(req->nr)) {
		/* The thread's credentials now: they go, or it comes home. */
		flags |= PCN_SYSCALL_CREDS_LOST;
		full = kzalloc(struct_size(full, creds, 1), GFP_KERNEL);
		if (full && !pcn_creds_capture(&full->creds[0])) {
			flags ^= PCN_SYSCALL_CREDS_LOST | PCN_SYSCALL_CREDS;
			done = full;
			size = struct_size(full, creds, 1);
		}
	}
	done->hdr.type = PCN_KMSG_TYPE_SYSCALL_DONE;
	done->ctx_id = req->ctx_id;
	done->shadow_pid = req->shadow_pid;
	done->nr = req->nr;
	done->seq = req->seq;
	done->ret = ret;
	done->flags = flags;
	pcn_kmsg_reply(nid, msg, done, size);
	kfree(full);
}

bool pcn_syscall_msg_ok(const struct pcn_syscall_msg *m)
{
	enum pcn_sys_class class = pcn_syscall_class(m->nr);
	bool regs = m->flags & PCN_SYSCALL_REGS;

	if (class != PCN_SYS_FORWARD && !(class == PCN_SYS_SELF && m->args[0]))
		return false;
	if (pcn_syscall_refused_args(m->nr, m->args[0]))
		return false;
	if (m->flags & ~PCN_SYSCALL_REGS)
		return false;
	if (regs != pcn_syscall_needs_regs(m->nr))
		return false;
	if (m->hdr.size != struct_size(m, regs, regs))
		return false;
	return !regs || pcn_regs_valid(&m->regs[0]);
}

void pcn_syscall_serve(struct remote_context *ctx, int nid, pid_t remote_pid,
		       struct pcn_kmsg_hdr *msg)
{
	struct pcn_syscall_msg *m = (struct pcn_syscall_msg *)msg;
	struct pt_regs args = {}, *regs = &args;
	sigset_t own = current->blocked, mask;
	int proposal = current->pcn_proposal;
	long ret = -EINVAL;
	u32 flags = 0;

	if (!pcn_syscall_msg_ok(m)) {
		pr_warn_ratelimited("node %d: system call %u for thread %d refused\n",
				    nid, m->nr, task_pid_nr(current));
		goto out;
	}
	/*
	 * A filter came to every thread since the thread left (seccomp.c):
	 * it makes the call at home, where the filter runs.
	 */
	if (pcn_seccomp_on()) {
		flags = PCN_SYSCALL_FILTERED;
		ret = -EINTR;
		goto out;
	}
	if (m->flags & PCN_SYSCALL_REGS) {
		pcn_regs_load(&m->regs[0]);
		regs = current_pt_regs();
	}
	regs->di = m->args[0];
	regs->si = m->args[1];
	regs->dx = m->args[2];
	regs->r10 = m->args[3];
	regs->r8 = m->args[4];
	regs->r9 = m->args[5];
	regs->orig_ax = m->nr;
	/*
	 * With the thread's mask: a signal it blocks does not interrupt
	 * the call, and a task the call creates inherits that mask.
	 */
	siginitset(&mask, m->sigmask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP)));
	set_current_blocked(&mask);
	/*
	 * A thread the call creates (not a new process) goes where its
	 * creator runs: proposed in copy_process(), before it can run.
	 */
	if (m->flags & PCN_SYSCALL_REGS)
		WRITE_ONCE(current->pcn_proposal, (nid + 1) | PCN_PROPOSAL_CHILD);
	ret = x64_sys_call(regs, m->nr);
	if (m->flags & PCN_SYSCALL_REGS)
		WRITE_ONCE(current->pcn_proposal, proposal);

	/* An interruption by the thread's signal has done its work. */
	clear_notify_signal();
	/* Deferred work of the call (the last fput of a close) first. */
	if (task_work_pending(current))
		task_work_run();
	/*
	 * A signal that came here during the call (one that interrupted
	 * it, or raise()'s own) goes first, and the answer says so: the
	 * thread then has it before the call returns, as locally.  Only
	 * those the thread does not block are taken: the mask is still its.
	 */
	if (signal_pending(current) && !fatal_signal_pending(current) &&
	    pcn_signal_forward(ctx, nid, remote_pid))
		flags |= PCN_SYSCALL_SIGNALLED;
	/*
	 * Then the shadow's own mask again, with which it forwards what
	 * comes while it waits: the thread may unblock a signal at any
	 * time there, without a word, and keeps those it blocks pending,
	 * home with it if it comes back (signal_state.c).
	 */
	restore_saved_sigmask();
	set_current_blocked(&own);
	/* A stop interrupted it: the thread comes home to restart it. */
	pcn_shadow_home_check();
out:
	pcn_syscall_reply(nid, msg, ret, flags);
	pcn_kmsg_done(msg);
}

static int __init pcn_syscall_forward_init(void)
{
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_SYSCALL, "syscall",
					sizeof(struct pcn_syscall_msg),
					sizeof(struct pcn_syscall_msg) +
					sizeof(struct pcn_uregs),
					pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_SYSCALL_DONE,
						 "syscall_done",
						 sizeof(struct pcn_syscall_done),
						 sizeof(struct pcn_syscall_done) +
						 sizeof(struct pcn_creds));
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_SYSCALL_INTR,
						"syscall_intr",
						sizeof(struct pcn_syscall_intr),
						sizeof(struct pcn_syscall_intr),
						pcn_handle_syscall_intr);
	return ret;
}
late_initcall(pcn_syscall_forward_init);
