// SPDX-License-Identifier: GPL-2.0
/*
 * The signal state that travels with a migrating thread: its blocked
 * mask and alternate signal stack, both ways, and the process's signal
 * actions on the way out, so that a handler the program installed runs
 * where the thread is for a signal raised there (SIGSEGV, SIGFPE,
 * SIGBUS).  The actions go into the remote worker's signal handlers,
 * which all of the process's threads on that node share: each
 * migration brings them up to date, and rt_sigaction() at a remote sets
 * them at both ends (syscall_forward.c).
 *
 * Everything here comes from the network: an action or a stack that is
 * not a user address is refused.
 */
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/string.h>

#include "context.h"
#include "messages.h"

/* Fill @m's signal state from the calling thread; the actions too. */
void pcn_sigstate_capture(struct pcn_task_msg *m, bool actions)
{
	struct k_sigaction *ka;
	int i;

	m->sigmask = current->blocked.sig[0];
	/* Blocked there and going home: they must not be lost. */
	if (!actions) {
		spin_lock_irq(&current->sighand->siglock);
		m->pending = current->pending.signal.sig[0] &
			     ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
		spin_unlock_irq(&current->sighand->siglock);
	}
	m->ss_sp = current->sas_ss_sp;
	m->ss_size = current->sas_ss_size;
	m->ss_flags = current->sas_ss_flags;
	m->nactions = 0;
	if (!actions)
		return;
	BUILD_BUG_ON(PCN_NSIG != _NSIG);
	spin_lock_irq(&current->sighand->siglock);
	for (i = 0; i < PCN_NSIG; i++) {
		ka = &current->sighand->action[i];
		m->actions[i].handler = (unsigned long)ka->sa.sa_handler;
		m->actions[i].flags = ka->sa.sa_flags;
		m->actions[i].restorer = (unsigned long)ka->sa.sa_restorer;
		m->actions[i].mask = ka->sa.sa_mask.sig[0];
	}
	spin_unlock_irq(&current->sighand->siglock);
	m->nactions = PCN_NSIG;
}

static bool pcn_sigaction_ok(const struct pcn_sigaction *a)
{
	return a->handler < TASK_SIZE_MAX && a->restorer < TASK_SIZE_MAX &&
	       !(a->flags & ~(u64)(UAPI_SA_FLAGS | SA_RESTORER));
}

/*
 * Remote, in the worker: take the process's actions of @m.  SIGKILL and
 * SIGSTOP keep theirs.  Return: 0, or -EINVAL (nothing taken).
 */
int pcn_sigactions_install(const struct pcn_task_msg *m)
{
	struct k_sigaction *ka;
	sigset_t mask;
	int i;

	if (!m->nactions)
		return 0;
	if (m->nactions != PCN_NSIG)
		return -EINVAL;
	for (i = 0; i < PCN_NSIG; i++)
		if (!pcn_sigaction_ok(&m->actions[i]))
			return -EINVAL;
	spin_lock_irq(&current->sighand->siglock);
	for (i = 0; i < PCN_NSIG; i++) {
		if (i + 1 == SIGKILL || i + 1 == SIGSTOP)
			continue;
		ka = &current->sighand->action[i];
		siginitset(&mask, m->actions[i].mask);
		sigdelsetmask(&mask, sigmask(SIGKILL) | sigmask(SIGSTOP));
		ka->sa.sa_handler =
			(__sighandler_t)(unsigned long)m->actions[i].handler;
		ka->sa.sa_flags = m->actions[i].flags;
		ka->sa.sa_restorer =
			(__sigrestore_t)(unsigned long)m->actions[i].restorer;
		ka->sa.sa_mask = mask;
	}
	spin_unlock_irq(&current->sighand->siglock);
	return 0;
}

/* Make @m's mask and alternate stack the calling thread's. */
void pcn_sigstate_load(const struct pcn_task_msg *m)
{
	sigset_t blocked;

	int sig;

	siginitset(&blocked, m->sigmask);
	sigdelsetmask(&blocked, sigmask(SIGKILL) | sigmask(SIGSTOP));
	set_current_blocked(&blocked);
	/* What was pending for it at the remote is pending here. */
	for (sig = 1; sig <= 64 && m->pending; sig++)
		if ((m->pending & sigmask(sig)) && sig != SIGKILL &&
		    sig != SIGSTOP)
			send_sig_info(sig, SEND_SIG_PRIV, current);
	/* As sigaltstack() would take it; else no alternate stack. */
	if (!(m->ss_flags & ~(u32)(SS_DISABLE | SS_AUTODISARM)) &&
	    m->ss_sp < TASK_SIZE_MAX && m->ss_size < TASK_SIZE_MAX - m->ss_sp) {
		current->sas_ss_sp = m->ss_sp;
		current->sas_ss_size = m->ss_size;
		current->sas_ss_flags = m->ss_flags;
	} else {
		current->sas_ss_sp = 0;
		current->sas_ss_size = 0;
		current->sas_ss_flags = SS_DISABLE;
	}
}
