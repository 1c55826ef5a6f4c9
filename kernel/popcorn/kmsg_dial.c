// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn messaging core: keeping connections up.
 *
 * Nodes may boot in any order, and a connection may end at any time
 * (a peer reboots, a link resets).  One rule decides who connects: the
 * node with the higher id dials the lower one, so for every node with a
 * lower id the core runs a dialer thread.  It asks the transport to
 * connect (->connect: dial, handshake, attach), retrying with
 * exponential backoff while that fails, and once the node is online it
 * sleeps until the node goes offline again (the membership notifier
 * wakes it), then dials anew.  A connection that held for a while earns
 * a fast retry; one that keeps dropping at once backs off.
 *
 * The transport accepts the connections of higher ids itself, and
 * keeps its per-peer connection state private: the core knows only
 * node ids.  Under pcn.auth=required nothing is dialed before the
 * cluster key is loaded: the handshake would fail anyway.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/notifier.h>
#include <linux/wait.h>
#include <popcorn/auth.h>
#include <popcorn/nodes.h>

#include "kmsg_internal.h"

#define PCN_DIAL_RETRY_MIN_MS	100
#define PCN_DIAL_RETRY_MAX_MS	2000
#define PCN_DIAL_STABLE_TIME	(5 * HZ)

static struct task_struct *pcn_dialers[POPCORN_MAX_NODES];
/* Woken when a node goes offline: its dialer dials again. */
static DECLARE_WAIT_QUEUE_HEAD(pcn_dial_wq);

static int pcn_dial_node_change(struct notifier_block *nb,
				unsigned long change, void *data)
{
	if (change == PCN_NODE_OFFLINE)
		wake_up_all(&pcn_dial_wq);
	return NOTIFY_DONE;
}

static struct notifier_block pcn_dial_nb = {
	.notifier_call = pcn_dial_node_change,
};

static struct pcn_kmsg_transport *pcn_dial_transport;

static int pcn_dialer_thread(void *data)
{
	struct pcn_kmsg_transport *t = pcn_dial_transport;
	int nid = (long)data;
	unsigned int delay = PCN_DIAL_RETRY_MIN_MS;
	unsigned int waited_for_key = 0;
	unsigned long up;

	while (!kthread_should_stop()) {
		if (!pcn_auth_can_connect()) {
			if (!waited_for_key++)
				pr_info("node %d: waiting for the cluster key (pcn.auth=required)\n",
					nid);
			msleep_interruptible(PCN_DIAL_RETRY_MIN_MS);
			continue;
		}
		if (!t->connect(nid)) {
			up = jiffies;
			wait_event_interruptible(pcn_dial_wq,
						 !pcn_node_online(nid) ||
						 kthread_should_stop());
			if (time_after(jiffies, up + PCN_DIAL_STABLE_TIME)) {
				delay = PCN_DIAL_RETRY_MIN_MS;
				continue;
			}
		}
		msleep_interruptible(delay);
		delay = min(delay * 2, PCN_DIAL_RETRY_MAX_MS);
	}
	return 0;
}

/* Stop every dialer; each finishes the connect it is in first. */
void pcn_kmsg_dial_stop(void)
{
	int nid;

	for (nid = 0; nid < POPCORN_MAX_NODES; nid++) {
		if (pcn_dialers[nid]) {
			kthread_stop(pcn_dialers[nid]);
			pcn_dialers[nid] = NULL;
		}
	}
}

/**
 * pcn_kmsg_dial_start() - dial every node with a lower id, for good
 * @t: the transport, started; nothing is dialed without its ->connect
 *
 * Return: 0, or -errno when a thread could not be made (the others are
 * stopped).
 */
int pcn_kmsg_dial_start(struct pcn_kmsg_transport *t)
{
	static bool notifier_registered;
	struct task_struct *task;
	int nid;

	if (!t->connect)
		return 0;
	if (!notifier_registered) {
		pcn_node_notifier_register(&pcn_dial_nb);
		notifier_registered = true;
	}
	pcn_dial_transport = t;
	for (nid = 0; nid < pcn_my_nid(); nid++) {
		task = kthread_run(pcn_dialer_thread, (void *)(long)nid,
				   "pcn_dial/%d", nid);
		if (IS_ERR(task)) {
			pcn_kmsg_dial_stop();
			return PTR_ERR(task);
		}
		pcn_dialers[nid] = task;
	}
	return 0;
}
