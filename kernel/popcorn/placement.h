/* SPDX-License-Identifier: GPL-2.0 */
/* Thread placement (placement.c): for /proc/popcorn_ps and KUnit. */
#ifndef _POPCORN_PLACEMENT_H
#define _POPCORN_PLACEMENT_H

struct task_struct;

int pcn_thread_node(struct task_struct *t, int me);

int pcn_place_choose(unsigned long nodes, unsigned long online,
		     const unsigned int *count);

#endif /* _POPCORN_PLACEMENT_H */
