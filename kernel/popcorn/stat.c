// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/popcorn_stat: message counters.
 *
 * Reading prints per message type the messages and bytes sent and
 * received, the totals of the active transport, its own counters, and
 * the received messages dropped by reason, then the page faults of
 * distributed processes by kind with their mean latency.  Writing
 * anything resets all counters.  The format is documented in Documentation/popcorn/.
 */
#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <popcorn/nodes.h>

#include "auth_internal.h"
#include "context.h"
#include "fault_stat.h"
#include "kmsg_internal.h"
#include "trace.h"

struct pcn_stat_type {
	atomic64_t sent, sent_bytes;
	atomic64_t recv, recv_bytes;
};

static atomic64_t pcn_fault_count[PCN_FAULT_NR];
static atomic64_t pcn_fault_ns[PCN_FAULT_NR];
/*
 * Latency histogram per kind: bucket i counts events of [2^i, 2^(i+1))
 * ns (bucket 0 also takes 0 and 1 ns, the last everything above).
 */
#define PCN_FAULT_BUCKETS	32
static atomic64_t pcn_fault_hist[PCN_FAULT_NR][PCN_FAULT_BUCKETS];

static const char * const pcn_fault_names[PCN_FAULT_NR] = {
	[PCN_FAULT_LOCAL]		= "local",
	[PCN_FAULT_REMOTE_READ]		= "remote_read",
	[PCN_FAULT_REMOTE_WRITE]	= "remote_write",
	[PCN_FAULT_INVALIDATION]	= "invalidation",
	[PCN_FAULT_RETRY]		= "retry",
	[PCN_FAULT_RELEASE]		= "release",
	[PCN_FAULT_PREFETCH]		= "prefetched",
	[PCN_FAULT_UNTOUCHED_GIVEN]	= "untouched_given",
	[PCN_FAULT_UNTOUCHED]		= "untouched",
	[PCN_FAULT_HOLD]		= "hold",
};

void pcn_fault_account(enum pcn_fault_kind kind, u64 ns)
{
	unsigned int b = ns > 1 ? min_t(unsigned int, ilog2(ns),
					PCN_FAULT_BUCKETS - 1) : 0;

	trace_pcn_fault(pcn_fault_names[kind], ns);
	atomic64_inc(&pcn_fault_count[kind]);
	atomic64_add(ns, &pcn_fault_ns[kind]);
	atomic64_inc(&pcn_fault_hist[kind][b]);
}

void pcn_fault_stat_show(struct seq_file *seq)
{
	s64 n, ns;
	int i, b;

	for (i = 0; i < PCN_FAULT_NR; i++) {
		n = atomic64_read(&pcn_fault_count[i]);
		ns = atomic64_read(&pcn_fault_ns[i]);
		seq_printf(seq, "fault %s %lld %lld\n", pcn_fault_names[i], n,
			   n ? div64_s64(ns, n) : 0);
	}
	for (i = 0; i < PCN_FAULT_NR; i++) {
		seq_printf(seq, "fault_hist %s", pcn_fault_names[i]);
		for (b = 0; b < PCN_FAULT_BUCKETS; b++)
			seq_printf(seq, " %lld",
				   atomic64_read(&pcn_fault_hist[i][b]));
		seq_putc(seq, '\n');
	}
}

void pcn_fault_stat_reset(void)
{
	int i, b;

	for (i = 0; i < PCN_FAULT_NR; i++) {
		atomic64_set(&pcn_fault_count[i], 0);
		atomic64_set(&pcn_fault_ns[i], 0);
		for (b = 0; b < PCN_FAULT_BUCKETS; b++)
			atomic64_set(&pcn_fault_hist[i][b], 0);
	}
}

static struct pcn_stat_type pcn_stat_types[PCN_KMSG_TYPE_MAX];
static atomic64_t pcn_stat_drops[PCN_DROP_MAX];

/*
 * Pages of data in messages (pcn_kmsg.h): sent by reference (the
 * transport sends from the pages), sent copied into one buffer (a
 * transport without send_pages), received into pages.
 */
enum {
	PCN_PAGES_SENT_REF,
	PCN_PAGES_SENT_COPIED,
	PCN_PAGES_RECEIVED,
	PCN_PAGES_NR
};

static const char * const pcn_pages_names[PCN_PAGES_NR] = {
	"page_data_sent_by_reference", "page_data_sent_copied",
	"page_data_received_into_pages",
};

static atomic64_t pcn_stat_pages[PCN_PAGES_NR];

void pcn_stat_pages_sent(unsigned int n, bool by_reference)
{
	atomic64_add(n, &pcn_stat_pages[by_reference ? PCN_PAGES_SENT_REF :
						       PCN_PAGES_SENT_COPIED]);
}

void pcn_stat_pages_received(unsigned int n)
{
	atomic64_add(n, &pcn_stat_pages[PCN_PAGES_RECEIVED]);
}

void pcn_stat_sent(unsigned int type, size_t bytes)
{
	if (type >= PCN_KMSG_TYPE_MAX)
		return;
	atomic64_inc(&pcn_stat_types[type].sent);
	atomic64_add(bytes, &pcn_stat_types[type].sent_bytes);
}

void pcn_stat_recv(unsigned int type, size_t bytes)
{
	if (type >= PCN_KMSG_TYPE_MAX)
		return;
	atomic64_inc(&pcn_stat_types[type].recv);
	atomic64_add(bytes, &pcn_stat_types[type].recv_bytes);
}

void pcn_stat_drop(enum pcn_kmsg_drop why)
{
	if (why < PCN_DROP_MAX)
		atomic64_inc(&pcn_stat_drops[why]);
}

/*
 * What exists now, not a count since boot or reset: all 0 on a node
 * where nothing distributed runs and no request is pending.
 */
static void pcn_stat_live_show(struct seq_file *seq)
{
	unsigned int contexts, workers;

	pcn_process_live(&contexts, &workers);
	seq_printf(seq, "live contexts %u\n", contexts);
	seq_printf(seq, "live shadows %u\n", pcn_shadows_live());
	seq_printf(seq, "live workers %u\n", workers);
	seq_printf(seq, "live remote_threads %u\n", pcn_remote_threads_live());
	seq_printf(seq, "live waits %u\n", pcn_kmsg_waits_live());
}

static int pcn_stat_show(struct seq_file *seq, void *v)
{
	struct pcn_kmsg_transport *t = pcn_kmsg_active_transport();
	s64 sent = 0, sent_bytes = 0, recv = 0, recv_bytes = 0;
	unsigned int i;

	seq_printf(seq, "popcorn_stat 1 node %d transport %s\n",
		   pcn_my_nid(), pcn_kmsg_transport_name());
	seq_printf(seq, "%-20s %12s %14s %12s %14s\n", "type",
		   "sent", "sent_bytes", "recv", "recv_bytes");
	for (i = 0; i < PCN_KMSG_TYPE_MAX; i++) {
		struct pcn_stat_type *s = &pcn_stat_types[i];
		const char *name = pcn_kmsg_type_name(i);
		s64 a = atomic64_read(&s->sent), b = atomic64_read(&s->sent_bytes);
		s64 c = atomic64_read(&s->recv), d = atomic64_read(&s->recv_bytes);

		sent += a;
		sent_bytes += b;
		recv += c;
		recv_bytes += d;
		if (!name)
			continue;
		seq_printf(seq, "%-20s %12lld %14lld %12lld %14lld\n", name,
			   a, b, c, d);
	}
	seq_printf(seq, "%-20s %12lld %14lld %12lld %14lld\n", "total",
		   sent, sent_bytes, recv, recv_bytes);

	seq_printf(seq, "transport %s\n", pcn_kmsg_transport_name());
	if (t && t->show_stats)
		t->show_stats(seq);
	pcn_auth_stat_show(seq);
	pcn_kmsg_vital_stat_show(seq);

	for (i = PCN_DROP_NONE + 1; i < PCN_DROP_MAX; i++)
		seq_printf(seq, "dropped %s %lld\n", pcn_kmsg_drop_name(i),
			   atomic64_read(&pcn_stat_drops[i]));
	for (i = 0; i < PCN_PAGES_NR; i++)
		seq_printf(seq, "%s %lld\n", pcn_pages_names[i],
			   atomic64_read(&pcn_stat_pages[i]));
	pcn_fault_stat_show(seq);
	pcn_stat_live_show(seq);
	return 0;
}

static int pcn_stat_open(struct inode *inode, struct file *file)
{
	return single_open(file, pcn_stat_show, NULL);
}

static ssize_t pcn_stat_write(struct file *file, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	struct pcn_kmsg_transport *t = pcn_kmsg_active_transport();
	unsigned int i;

	for (i = 0; i < PCN_KMSG_TYPE_MAX; i++) {
		atomic64_set(&pcn_stat_types[i].sent, 0);
		atomic64_set(&pcn_stat_types[i].sent_bytes, 0);
		atomic64_set(&pcn_stat_types[i].recv, 0);
		atomic64_set(&pcn_stat_types[i].recv_bytes, 0);
	}
	for (i = 0; i < PCN_DROP_MAX; i++)
		atomic64_set(&pcn_stat_drops[i], 0);
	for (i = 0; i < PCN_PAGES_NR; i++)
		atomic64_set(&pcn_stat_pages[i], 0);
	pcn_fault_stat_reset();
	pcn_auth_stat_reset();
	pcn_kmsg_vital_stat_reset();
	if (t && t->reset_stats)
		t->reset_stats();
	return len;
}

static const struct proc_ops pcn_stat_ops = {
	.proc_open = pcn_stat_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = pcn_stat_write,
};

static int __init pcn_stat_init(void)
{
	/* Root only: the counters reveal the cluster's activity. */
	if (!proc_create("popcorn_stat", 0600, NULL, &pcn_stat_ops))
		return -ENOMEM;
	return 0;
}
late_initcall(pcn_stat_init);
