// SPDX-License-Identifier: GPL-2.0
/*
 * Signals of a migrated thread.
 *
 * Signals sent to a process at its origin reach the thread that stands
 * for a migrated one, its shadow.  The shadow takes each one off its
 * queue and forwards it (TASK_SIGNAL), with the process's action for it,
 * to the remote thread, which then runs the handler where it is.  Fatal
 * signals are not forwarded: they end the process at the origin, whose
 * exit ends the remote worker and threads.  Nor are those that stop the
 * process, nor any while the shadow is traced: the thread comes home
 * for them (jobctl.c).
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/init.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/signal_types.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "kmsg_internal.h"
#include "messages.h"

/* Origin, in the shadow: forward every signal it has pending; how many. */
int pcn_signal_forward(struct remote_context *ctx, int nid, pid_t remote_pid)
{
	struct pcn_signal_msg m = {
		.hdr.type = PCN_KMSG_TYPE_TASK_SIGNAL,
		.ctx_id = ctx->id,
		.remote_pid = remote_pid,
	};
	struct k_sigaction *ka;
	kernel_siginfo_t info;
	enum pid_type type;
	sigset_t kept;
	int sig, sent = 0;

	for (;;) {
		spin_lock_irq(&current->sighand->siglock);
		pcn_jobctl_kept(current, &kept);
		sig = dequeue_signal(current, &kept, &info, &type);
		if (sig) {
			ka = &current->sighand->action[sig - 1];
			m.handler = (unsigned long)ka->sa.sa_handler;
			m.flags = ka->sa.sa_flags;
			m.restorer = (unsigned long)ka->sa.sa_restorer;
			m.mask = ka->sa.sa_mask.sig[0];
		}
		spin_unlock_irq(&current->sighand->siglock);
		if (!sig)
			return sent;
		sent++;
		m.signo = sig;
		m.code = SI_KERNEL;
		m.sender_pid = 0;
		m.sender_uid = 0;
		if (info.si_code == SI_USER) {
			m.code = SI_USER;
			m.sender_pid = info.si_pid;
			m.sender_uid = info.si_uid;
		}
		/* Dequeued here: if it cannot go, the link must end. */
		pcn_kmsg_send_vital(nid, &m, sizeof(m));
	}
}

static bool pcn_signal_msg_ok(const struct pcn_signal_msg *m)
{
	return m->signo > 0 && m->signo <= _NSIG && m->signo != SIGKILL &&
	       m->signo != SIGSTOP && m->remote_pid > 0 &&
	       m->handler < TASK_SIZE_MAX && m->restorer < TASK_SIZE_MAX &&
	       !(m->flags & ~(u64)(UAPI_SA_FLAGS | SA_RESTORER)) &&
	       (m->code == SI_USER || m->code == SI_KERNEL);
}

/* Remote: install the process's action and signal the thread. */
static void pcn_handle_task_signal(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_signal_msg *m = (struct pcn_signal_msg *)msg;
	struct remote_context *ctx = pcn_remote_context_get(nid, m->ctx_id);
	struct task_struct *t = NULL;
	struct k_sigaction *ka;
	kernel_siginfo_t info;
	unsigned long flags;
	sigset_t mask;

	if (!ctx || !pcn_signal_msg_ok(m))
		goto out;
	t = find_get_task_by_vpid(m->remote_pid);
	if (!t || READ_ONCE(t->remote) != ctx)
		goto out;

	siginitset(&mask, m->mask);
	sigdelsetmask(&mask, sigmask(SIGKILL) | sigmask(SIGSTOP));
	/* The thread may be exiting: its sighand may be gone. */
	if (!lock_task_sighand(t, &flags))
		goto out;
	ka = &t->sighand->action[m->signo - 1];
	ka->sa.sa_handler = (__sighandler_t)(unsigned long)m->handler;
	ka->sa.sa_flags = m->flags;
	ka->sa.sa_restorer = (__sigrestore_t)(unsigned long)m->restorer;
	ka->sa.sa_mask = mask;
	unlock_task_sighand(t, &flags);

	clear_siginfo(&info);
	info.si_signo = m->signo;
	info.si_code = m->code;
	info.si_pid = m->sender_pid;
	info.si_uid = m->sender_uid;
	send_sig_info(m->signo, &info, t);
out:
	if (t)
		put_task_struct(t);
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_done(msg);
}

static int __init pcn_signal_init(void)
{
	return pcn_kmsg_register_handler(PCN_KMSG_TYPE_TASK_SIGNAL,
					 "task_signal",
					 sizeof(struct pcn_signal_msg),
					 sizeof(struct pcn_signal_msg),
					 pcn_handle_task_signal);
}
late_initcall(pcn_signal_init);
