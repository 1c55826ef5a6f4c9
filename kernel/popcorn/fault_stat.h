/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page-fault counters of /proc/popcorn_stat ("fault KIND COUNT MEAN_NS",
 * and "fault_hist KIND" with 32 log2 latency buckets).
 */
#ifndef _POPCORN_FAULT_STAT_H
#define _POPCORN_FAULT_STAT_H

#include <linux/types.h>

struct seq_file;

enum pcn_fault_kind {
	PCN_FAULT_LOCAL,	/* origin: served here, no message */
	PCN_FAULT_REMOTE_READ,	/* a copy fetched from the other side */
	PCN_FAULT_REMOTE_WRITE,	/* exclusive ownership fetched */
	PCN_FAULT_INVALIDATION,	/* a copy revoked (origin) or dropped (remote) */
	PCN_FAULT_RETRY,	/* a grant overtaken, or the origin busy */
	PCN_FAULT_RELEASE,	/* origin: a page taken home by MADV_RELEASE */
	PCN_FAULT_PREFETCH,	/* remote: a read copy mapped before a fault */
	PCN_FAULT_UNTOUCHED_GIVEN, /* origin: an untouched page given writable */
	PCN_FAULT_UNTOUCHED,	/* remote: one mapped before a fault */
	PCN_FAULT_HOLD,		/* origin: a request deferred by a page's hold */
	PCN_FAULT_NR
};

/* Count one event of @kind that took @ns nanoseconds. */
void pcn_fault_account(enum pcn_fault_kind kind, u64 ns);
void pcn_fault_stat_show(struct seq_file *seq);
void pcn_fault_stat_reset(void);

#endif /* _POPCORN_FAULT_STAT_H */
