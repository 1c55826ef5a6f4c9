/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread placement (placement.c, adaptive.c): for propose.c,
 * /proc/popcorn_ps, KUnit.
 */
#ifndef _POPCORN_PLACEMENT_H
#define _POPCORN_PLACEMENT_H

#include <linux/bits.h>
#include <linux/jiffies.h>
#include <linux/types.h>
#include <uapi/linux/popcorn.h>

struct task_struct;

int pcn_thread_node(struct task_struct *t, int me);

/*
 * signal_struct->pcn_place_nodes holds a policy as its node mask (bit N:
 * node N), POPCORN_PLACE_ALL_NODES as itself, 0 for none.  An adaptive
 * policy (adaptive.c) is the mask of its nodes, every node of pcn.nodes
 * for "all", with PCN_PLACE_ADAPTIVE, and PCN_PLACE_ALL for "all": bits
 * above the node ids, which placement's masks ignore.
 */
#define PCN_PLACE_ALL		BIT(POPCORN_MAX_NODES)
#define PCN_PLACE_ADAPTIVE	BIT(POPCORN_MAX_NODES + 1)

bool pcn_place_adaptive(unsigned long policy);
bool pcn_place_all_nodes(unsigned long policy);

/* Adaptive placement (adaptive.c): how long new threads stay home. */
#define PCN_ADAPT_HOLD_MIN	HZ
#define PCN_ADAPT_HOLD_MAX	(64 * HZ)

bool pcn_adapt_bad(u64 run, u64 shared, unsigned int interval_ms,
		   unsigned int wait_pct);
unsigned long pcn_adapt_next_hold(unsigned long hold, unsigned long until,
				  unsigned long now);

int pcn_place_choose(unsigned long nodes, unsigned long online,
		     const unsigned int *count);

void pcn_place_failed(int nid, int err);

#endif /* _POPCORN_PLACEMENT_H */
