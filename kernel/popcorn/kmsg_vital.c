// SPDX-License-Identifier: GPL-2.0
/*
 * Messages that must arrive.
 *
 * A few one-way messages end a wait on the other node: TASK_EXIT (the
 * shadow at the origin waits for its thread), PROCESS_EXIT (the worker
 * at a remote lives until it comes) and TASK_SIGNAL (the remote thread
 * is to act on it).  There is no answer to time out on, so a message of
 * these that is lost would leave a shadow or a worker forever.
 *
 * The rule: such a message is sent on the live connection or the
 * connection ends.  When the connection ends, both nodes see the other
 * go offline, and the offline handlers end every shadow waiting on that
 * node and every worker of that origin (pcn_process_node_offline()).
 * A transport returns -EAGAIN or -EHOSTDOWN only when the connection is
 * already gone; on any other error, or when the sender could not even
 * build the message, the core asks the transport to end it.  That costs
 * the distributed processes shared by the two nodes, which is the price
 * of a link that loses messages; it never leaves one hanging.
 *
 * The reset is done from a work item, once per node and connection
 * generation: the caller may be an exiting task, and a connection made
 * after the loss must not be cut.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>
#include <popcorn/nodes.h>

#include "kmsg_internal.h"

struct pcn_vital_reset {
	struct work_struct work;
	int nid;
	unsigned int gen;	/* of the connection that lost a message */
};

static struct pcn_vital_reset pcn_vital_resets[POPCORN_MAX_NODES];
static atomic64_t pcn_vital_lost;
static atomic64_t pcn_vital_resets_done;

static void pcn_vital_reset_fn(struct work_struct *work)
{
	struct pcn_vital_reset *r = container_of(work, struct pcn_vital_reset,
						 work);
	struct pcn_kmsg_transport *t = pcn_kmsg_active_transport();

	/* Gone meanwhile, or already a new connection: nothing to end. */
	if (!pcn_node_online(r->nid) ||
	    pcn_node_generation(r->nid) != READ_ONCE(r->gen))
		return;
	if (!t || !t->disconnect) {
		pr_err("node %d: transport %s cannot end the connection: its shadows or workers may hang\n",
		       r->nid, pcn_kmsg_transport_name());
		return;
	}
	atomic64_inc(&pcn_vital_resets_done);
	t->disconnect(r->nid);
}

/* Ask for the end of connection generation @gen of @nid; see below. */
static void pcn_kmsg_lost_gen(int nid, unsigned int type, int err,
			      unsigned int gen)
{
	struct pcn_vital_reset *r;
	unsigned int old;

	/* The connection is gone already: both nodes clean up for it. */
	if (!pcn_nid_valid(nid) || nid == pcn_my_nid() || err == -EAGAIN ||
	    err == -EHOSTDOWN)
		return;
	atomic64_inc(&pcn_vital_lost);
	pr_warn_ratelimited("lost a %s message to node %d (%d): ending the connection so that both nodes clean up\n",
			    pcn_kmsg_type_name(type) ?: "?", nid, err);
	r = &pcn_vital_resets[nid];
	/* Of two losses, the newer connection's is the one to end. */
	old = READ_ONCE(r->gen);
	while ((int)(gen - old) > 0) {
		unsigned int seen = cmpxchg(&r->gen, old, gen);

		if (seen == old)
			break;
		old = seen;
	}
	queue_work(system_unbound_wq, &r->work);
}

/**
 * pcn_kmsg_lost() - a message that must arrive could not be sent
 * @nid: the node it was for
 * @type: its type, for the log
 * @err: why
 *
 * Ends the current connection to @nid (from a work item) so that both
 * nodes clean up what waited for the message.  Does not sleep.
 */
void pcn_kmsg_lost(int nid, unsigned int type, int err)
{
	pcn_kmsg_lost_gen(nid, type, err, pcn_node_generation(nid));
}

/**
 * pcn_kmsg_send_vital() - send a message whose loss must end the connection
 * @nid: destination node
 * @msg: the message (the caller keeps it)
 * @size: its size
 *
 * As pcn_kmsg_send(), and on failure pcn_kmsg_lost().  -EINTR (the
 * sender is being killed) ends nothing: only the sending side's wait
 * could be left, and the sender's own exit cleans it up.  May sleep.
 *
 * Return: 0 or the error of the send.
 */
int pcn_kmsg_send_vital(int nid, void *msg, size_t size)
{
	unsigned int type = ((struct pcn_kmsg_hdr *)msg)->type;
	/* The connection the message was for, not a later one. */
	unsigned int gen = pcn_node_generation(nid);
	int ret = pcn_kmsg_send(nid, msg, size);

	if (ret && ret != -EINTR)
		pcn_kmsg_lost_gen(nid, type, ret, gen);
	return ret;
}

void pcn_kmsg_vital_stat_show(struct seq_file *seq)
{
	seq_printf(seq, "lost_vital %lld\n", atomic64_read(&pcn_vital_lost));
	seq_printf(seq, "lost_vital_resets %lld\n",
		   atomic64_read(&pcn_vital_resets_done));
}

void pcn_kmsg_vital_stat_reset(void)
{
	atomic64_set(&pcn_vital_lost, 0);
	atomic64_set(&pcn_vital_resets_done, 0);
}

static int __init pcn_kmsg_vital_init(void)
{
	int nid;

	for (nid = 0; nid < POPCORN_MAX_NODES; nid++) {
		INIT_WORK(&pcn_vital_resets[nid].work, pcn_vital_reset_fn);
		pcn_vital_resets[nid].nid = nid;
	}
	return 0;
}
early_initcall(pcn_kmsg_vital_init);
