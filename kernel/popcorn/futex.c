// SPDX-License-Identifier: GPL-2.0
/*
 * Distributed futexes.
 *
 * The futex word of a pthread mutex, condition variable or barrier is in
 * memory that every node sees coherently, but futex wait queues belong
 * to one kernel.  All of a process's futex operations therefore run at
 * its origin: a thread running at a remote sends its operation to its
 * shadow (FUTEX), which runs it with do_futex() against the process's
 * own queues, where the origin's threads and the other shadows wait and
 * wake.  Reading the futex word there faults the page home through the
 * page server, so the value compared is the current one.
 *
 * A shadow blocked in a futex wait cannot serve its thread's other
 * messages, such as the exit of a thread killed at its node, so it waits
 * for at most PCN_FUTEX_SLICE at a time and then answers 0: a spurious
 * wake-up, which every futex user must already expect, after which the
 * thread waits again.
 *
 * Priority-inheritance futexes store the owner's thread id, which
 * differs between a thread and its shadow; they and futex_waitv() are
 * refused at a remote with -EOPNOTSUPP.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/errno.h>
#include <linux/futex.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

#define PCN_FUTEX_SLICE		(2 * NSEC_PER_SEC)

/* The futex commands that keep no thread id in the futex word. */
static bool pcn_futex_cmd_ok(int op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
	case FUTEX_WAKE:
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAKE_BITSET:
		return true;
	}
	return false;
}

/*
 * The commands that use uaddr2 and val2.  The others ignore them, and a
 * caller may leave anything there: glibc's FUTEX_WAKE passes only three
 * arguments, the rest of the registers as they happen to be.
 */
static bool pcn_futex_has_uaddr2(int op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP:
		return true;
	}
	return false;
}

static bool pcn_futex_waits(int op)
{
	int cmd = op & FUTEX_CMD_MASK;

	return cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET;
}

/* The clock do_futex() measures an absolute timeout of @op against. */
static ktime_t pcn_futex_now(int op)
{
	return op & FUTEX_CLOCK_REALTIME ? ktime_get_real() : ktime_get();
}

bool __pcn_remote_futex(u32 __user *uaddr, int op, u32 val,
			const ktime_t *timeout, u32 __user *uaddr2, u32 val2,
			u32 val3, long *ret)
{
	struct remote_context *ctx = current->remote;
	struct pcn_futex_msg req = {
		.hdr.type = PCN_KMSG_TYPE_FUTEX,
		.op = op,
		.val = val,
		.uaddr = (unsigned long)uaddr,
		.val3 = val3,
		.timeout_ns = -1,
	};
	struct pcn_futex_msg *done;
	struct pcn_kmsg_hdr *resp;
	u64 t0, hop;
	int err;

	if (ctx->at_origin)
		return false;
	if (!pcn_futex_cmd_ok(op)) {
		pr_warn_ratelimited("futex op %#x of thread %d at a remote: not supported\n",
				    op, task_pid_nr(current));
		*ret = -EOPNOTSUPP;
		return true;
	}
	/* Only what the command uses: the rest may be any garbage. */
	if (pcn_futex_has_uaddr2(op)) {
		req.uaddr2 = (unsigned long)uaddr2;
		req.val2 = val2;
	}
	if (timeout && pcn_futex_waits(op))
		req.timeout_ns = max_t(s64, 0, ktime_sub(*timeout,
							 pcn_futex_now(op)));
	req.ctx_id = ctx->id;
	req.shadow_pid = current->peer_pid;
	t0 = ktime_get_ns();
	err = pcn_kmsg_request_killable(ctx->origin_nid, &req, sizeof(req),
					PCN_KMSG_TYPE_FUTEX_DONE, &resp);
	if (err) {
		*ret = err == -EINTR ? -EINTR : -EIO;
		return true;
	}
	done = (struct pcn_futex_msg *)resp;
	/* The round trip is the DSM's; the time blocked is the program's. */
	hop = ktime_get_ns() - t0;
	if (done->timeout_ns > 0)
		hop -= min_t(u64, hop, done->timeout_ns);
	pcn_dsm_wait_add(ctx, "futex", hop, true);
	if (done->ctx_id != ctx->id || done->op != op ||
	    done->uaddr != req.uaddr || done->ret < -MAX_ERRNO ||
	    done->ret > INT_MAX)
		*ret = -EIO;
	else
		*ret = done->ret;
	pcn_kmsg_done(resp);
	return true;
}

bool __pcn_futex_waitv_refused(void)
{
	if (current->remote->at_origin)
		return false;
	pr_warn_ratelimited("futex_waitv of thread %d at a remote: not supported\n",
			    task_pid_nr(current));
	return true;
}

void pcn_futex_reply(int nid, struct pcn_kmsg_hdr *msg, long ret)
{
	struct pcn_futex_msg done = *(struct pcn_futex_msg *)msg;

	done.hdr.type = PCN_KMSG_TYPE_FUTEX_DONE;
	done.ret = ret;
	pcn_kmsg_reply(nid, msg, &done, sizeof(done));
}

/* In the shadow: the operation, as the thread's own call would run. */
void pcn_futex_serve(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_futex_msg *req = (struct pcn_futex_msg *)msg;
	struct remote_context *ctx;
	bool sliced = false;
	ktime_t t, *tp = NULL;
	long ret = -EINVAL;
	s64 wait = req->timeout_ns;
	u64 t0, blocked = 0;

	if (!pcn_futex_cmd_ok(req->op) || req->uaddr >= TASK_SIZE_MAX ||
	    (pcn_futex_has_uaddr2(req->op) && req->uaddr2 >= TASK_SIZE_MAX) ||
	    wait < -1)
		goto out;
	if (pcn_futex_waits(req->op)) {
		if (wait < 0 || wait > PCN_FUTEX_SLICE) {
			wait = PCN_FUTEX_SLICE;
			sliced = true;
		}
		t = ktime_add_safe(pcn_futex_now(req->op), ns_to_ktime(wait));
		tp = &t;
	}
	/* Its node's page holds are void meanwhile (page_hold.c). */
	ctx = current->mm ? READ_ONCE(current->mm->remote) : NULL;
	if (ctx && tp)
		atomic_inc(&ctx->dsm.futex_waiting[nid]);
	t0 = ktime_get_ns();
	ret = do_futex(u64_to_user_ptr(req->uaddr), req->op, req->val, tp,
		       u64_to_user_ptr(req->uaddr2), req->val2, req->val3);
	blocked = ktime_get_ns() - t0;
	if (ctx && tp)
		atomic_dec(&ctx->dsm.futex_waiting[nid]);
	if (ret == -ETIMEDOUT && sliced)
		ret = 0;	/* the thread waits again */
	else if (ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
		 ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK)
		ret = -EINTR;	/* the signal follows the thread */
	/*
	 * Or a stop, for which the thread comes home (jobctl.c): a spurious
	 * wake-up, after which it waits again, there.
	 */
	if (ret == -EINTR && pcn_jobctl_home_due()) {
		pcn_shadow_home_check();
		ret = 0;
	}
out:
	req->timeout_ns = blocked;	/* the reply's copy of it */
	pcn_futex_reply(nid, msg, ret);
	pcn_kmsg_done(msg);
}

static int __init pcn_futex_init(void)
{
	size_t size = sizeof(struct pcn_futex_msg);
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_FUTEX, "futex", size,
					size, pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_FUTEX_DONE,
						 "futex_done", size, size);
	return ret;
}
late_initcall(pcn_futex_init);
