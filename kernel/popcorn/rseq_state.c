// SPDX-License-Identifier: GPL-2.0
/*
 * A migrated thread's rseq registration.
 *
 * The C library registers every thread with rseq() (glibc since 2.35),
 * and reads the CPU number from the registered area (sched_getcpu()).
 * A thread that moves is a new task where it arrives, with no
 * registration, so the area would keep the last CPU number of the node
 * it left, and a restartable sequence it was in would go on unaborted.
 * The registration travels with the thread, both ways, and is loaded
 * as a migration between CPUs: on its way out to user space the kernel
 * writes the CPU it runs on into the area and aborts the sequence the
 * thread was in, as after a local migration (kernel/rseq.c).
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <uapi/linux/rseq.h>

#include "context.h"
#include "messages.h"

void pcn_rseq_capture(struct pcn_task_msg *m)
{
#ifdef CONFIG_RSEQ
	m->rseq = (unsigned long)current->rseq;
	m->rseq_sig = current->rseq_sig;
#endif
}

void pcn_rseq_load(const struct pcn_task_msg *m)
{
#ifdef CONFIG_RSEQ
	struct rseq __user *rseq = u64_to_user_ptr(m->rseq);

	/* What sys_rseq() accepts: aligned, in user space. */
	if (m->rseq && (!IS_ALIGNED(m->rseq, __alignof__(struct rseq)) ||
			!access_ok(rseq, sizeof(*rseq)))) {
		pr_warn_ratelimited("thread %d: rseq area %llx refused\n",
				    task_pid_nr(current), m->rseq);
		rseq = NULL;
	}
	current->rseq = rseq;
	current->rseq_sig = rseq ? m->rseq_sig : 0;
	/* The CPU number is written, a sequence aborted, on the way out. */
	if (rseq)
		rseq_migrate(current);
#endif
}
