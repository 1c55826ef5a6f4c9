// SPDX-License-Identifier: GPL-2.0
/*
 * A seccomp filter given to every thread of a distributed process.
 *
 * A thread with a filter does not migrate (creds.c): its programs would
 * have to run where its system calls are made.  But a thread at the
 * origin may give one to every thread of its process at once
 * (SECCOMP_FILTER_FLAG_TSYNC) while others are away.  The filter then
 * lands on their shadows, which make their forwarded calls without the
 * syscall entry that would run it, while the threads themselves make
 * their other calls where they are, unfiltered.  So, before seccomp()
 * returns to the thread that installed it:
 *
 * - every node that runs threads of the process is told
 *   (PROCESS_FILTER) and answers once it has marked the process; from
 *   then on each of its threads there goes home at its next system call,
 *   with its registers rewound to the call (remote_syscalls.c), and
 *   makes it there, through the filter, as every later call.  A node
 *   that does not answer while online loses its connection, and the
 *   process's threads there with it.
 * - a thread on its way out waits no filter out: from the check of its
 *   credentials until it runs at its node, it holds @filter_sem for
 *   reading, which the announcement takes for writing.  A thread checked
 *   before the filter came is there when the nodes are told; one checked
 *   after has the filter and stays.
 * - a forwarded call the shadow gets after the filter is not made: the
 *   answer sends the thread home to make it (syscall_forward.c).
 *
 * Calls a thread at a remote began before the announcement end
 * unfiltered, as a call in progress does when TSYNC reaches its thread
 * locally.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/bitmap.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seccomp.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "kmsg_internal.h"
#include "messages.h"
#include "syscall_forward.h"
#include "seccomp.h"

#define PCN_FILTER_TIMEOUT	(10 * HZ)

/**
 * pcn_seccomp_on() - whether the calling thread has a seccomp filter
 *
 * Read under siglock, which TSYNC holds while it gives every thread the
 * filter: a thread that set its process's context before looking here
 * is seen by the thread that installs a filter after (pcn_seccomp_synced()
 * reads the context after releasing it).
 *
 * Return: true in strict or filter mode.
 */
bool pcn_seccomp_on(void)
{
#ifdef CONFIG_SECCOMP
	bool on;

	spin_lock_irq(&current->sighand->siglock);
	on = current->seccomp.mode != SECCOMP_MODE_DISABLED;
	spin_unlock_irq(&current->sighand->siglock);
	return on;
#else
	return false;
#endif
}

/* @nid did not confirm: its threads of the process must not run on. */
static void pcn_filter_failed(int nid, int err, void *arg)
{
	struct remote_context *ctx = arg;

	if (!pcn_node_online(nid))
		return;
	pr_warn_ratelimited("node %d did not confirm the seccomp filter of process %d: %d; ending its connection\n",
			    nid, ctx->tgid, err);
	pcn_kmsg_lost(nid, PCN_KMSG_TYPE_PROCESS_FILTER, err);
}

/* The nodes that run threads of @ctx learn of the filter and answer. */
static void pcn_filter_announce(struct remote_context *ctx)
{
	struct pcn_process_filter_msg m = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_FILTER,
		.ctx_id = ctx->id,
	};
	DECLARE_BITMAP(nodes, POPCORN_MAX_NODES);
	int nid, n;

	mutex_lock(&ctx->lock);
	bitmap_copy(nodes, ctx->workers, POPCORN_MAX_NODES);
	mutex_unlock(&ctx->lock);
	for_each_set_bit(nid, nodes, POPCORN_MAX_NODES)
		if (!pcn_node_online(nid))
			clear_bit(nid, nodes);
	n = bitmap_weight(nodes, POPCORN_MAX_NODES);
	if (!n)
		return;
	pcn_kmsg_request_nodes(nodes, &m, sizeof(m),
			       PCN_KMSG_TYPE_PROCESS_FILTERED,
			       PCN_FILTER_TIMEOUT, pcn_filter_failed, ctx);
	pr_info_ratelimited("process %d: seccomp filter on every thread; its threads at %d other node(s) make their system calls at home from now on\n",
			    ctx->tgid, n);
}

void __pcn_seccomp_synced(void)
{
	struct remote_context *ctx = READ_ONCE(current->mm->remote);

	/* Not distributed (yet: then no thread is past its check). */
	if (!ctx || !ctx->at_origin || !pcn_seccomp_on())
		return;
	/* Threads on their way out arrive first. */
	down_write(&ctx->filter_sem);
	if (!ctx->filtered) {
		WRITE_ONCE(ctx->filtered, true);
		pcn_filter_announce(ctx);
	}
	up_write(&ctx->filter_sem);
}

/* ---- remote ------------------------------------------------------------- */

static void pcn_handle_process_filter(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_process_filter_msg *m = (struct pcn_process_filter_msg *)msg;
	struct pcn_process_filter_msg done = {
		.hdr.type = PCN_KMSG_TYPE_PROCESS_FILTERED,
		.ctx_id = m->ctx_id,
	};
	struct remote_context *ctx = pcn_remote_context_get(nid, m->ctx_id);

	/* None: no thread of it here, or none any more. */
	if (ctx) {
		WRITE_ONCE(ctx->filtered, true);
		pcn_context_put(ctx);
	}
	pcn_kmsg_reply(nid, msg, &done, sizeof(done));
	pcn_kmsg_done(msg);
}

/**
 * pcn_remote_filtered() - send a thread at a remote home to make its
 *	system call, its process having a seccomp filter
 * @regs: its user registers
 * @abi: "" or "32-bit "
 * @nr: the call
 *
 * Return: -1 (the call is skipped here); only if the thread cannot go,
 * with the error in @regs->ax.
 */
int pcn_remote_filtered(struct pt_regs *regs, const char *abi, int nr)
{
	pr_info_ratelimited("thread %d (origin pid %d): seccomp filter at the origin; %ssystem call %d is made there\n",
			    task_pid_nr(current), current->remote->tgid, abi,
			    nr);
	regs->ax = pcn_migrate_back_restart();
	return -1;
}

static int __init pcn_seccomp_init(void)
{
	size_t size = sizeof(struct pcn_process_filter_msg);
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PROCESS_FILTER,
					"process_filter", size, size,
					pcn_handle_process_filter);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PROCESS_FILTERED,
						 "process_filtered", size,
						 size);
	return ret;
}
late_initcall(pcn_seccomp_init);
