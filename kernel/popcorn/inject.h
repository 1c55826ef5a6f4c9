/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test hooks (CONFIG_POPCORN_TEST_HOOKS, inject.c): failure injection
 * and a log of the messages this node sent and received, for the
 * lost-message and fuzzing tests.  Without the option they compile to
 * nothing.
 */
#ifndef _KERNEL_POPCORN_INJECT_H
#define _KERNEL_POPCORN_INJECT_H

#include <linux/types.h>

struct pcn_kmsg_hdr;

/* Places other than a send where a test can make an operation fail. */
enum pcn_fail_point {
	PCN_FAIL_EXIT_ALLOC,	/* the TASK_EXIT of a remote thread */
	/* Workers start no migration until one is refused (queue full). */
	PCN_FAIL_WORKER_STALL,
	/* The origin holds a VMA change 2 s before it drops remote VMAs. */
	PCN_FAIL_VMA_HOLD,
	/* The origin names, in a write grant, an untouched page it kept. */
	PCN_FAIL_GRANT_LIE,
	PCN_FAIL_NR
};

#define PCN_MSGLOG_SENT		0
#define PCN_MSGLOG_RECEIVED	1

#ifdef CONFIG_POPCORN_TEST_HOOKS
bool pcn_inject_fail_send(unsigned int type);
bool pcn_inject_fail(enum pcn_fail_point point);
bool pcn_inject_armed(enum pcn_fail_point point);
void pcn_inject_msglog(int dir, const struct pcn_kmsg_hdr *msg, size_t len,
		       struct page **pages, unsigned int npages);
#else
static inline bool pcn_inject_fail_send(unsigned int type)
{
	return false;
}

static inline bool pcn_inject_fail(enum pcn_fail_point point)
{
	return false;
}

static inline bool pcn_inject_armed(enum pcn_fail_point point)
{
	return false;
}

static inline void pcn_inject_msglog(int dir, const struct pcn_kmsg_hdr *msg,
				     size_t len, struct page **pages,
				     unsigned int npages)
{
}
#endif

#endif /* _KERNEL_POPCORN_INJECT_H */
