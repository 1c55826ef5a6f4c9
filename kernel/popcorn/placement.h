/* SPDX-License-Identifier: GPL-2.0 */
/* Thread placement (placement.c): for propose.c, /proc/popcorn_ps, KUnit. */
#ifndef _POPCORN_PLACEMENT_H
#define _POPCORN_PLACEMENT_H

struct task_struct;

int pcn_thread_node(struct task_struct *t, int me);

bool pcn_place_adaptive(unsigned long policy);
bool pcn_place_all_nodes(unsigned long policy);

int pcn_place_choose(unsigned long nodes, unsigned long online,
		     const unsigned int *count);

void pcn_place_failed(int nid, int err);

#endif /* _POPCORN_PLACEMENT_H */
