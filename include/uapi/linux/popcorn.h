/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Popcorn distributed thread execution: user-visible ABI.
 *
 * System calls (x86-64):
 *   451 popcorn_migrate(int nid, void *uregs)
 *   452 popcorn_get_thread_status(struct popcorn_thread_status *status)
 *   453 popcorn_get_node_info(int *my_nid, struct popcorn_node_info *info,
 *                             int len)
 *   454 popcorn_propose_migration(pid_t tid, int nid)
 *   455 popcorn_set_placement(pid_t pid, unsigned long nodes,
 *                             unsigned int flags)
 *
 * See Documentation/popcorn/ for their semantics and error codes.
 */
#ifndef _UAPI_LINUX_POPCORN_H
#define _UAPI_LINUX_POPCORN_H

#include <linux/types.h>

/* Largest cluster: node ids are 0 .. POPCORN_MAX_NODES - 1. */
#define POPCORN_MAX_NODES	32

/* Values of popcorn_node_info.arch */
#define POPCORN_ARCH_UNKNOWN	(-1)
#define POPCORN_ARCH_X86	1

/* Values of popcorn_node_info.status */
#define POPCORN_STATUS_OFFLINE	0
#define POPCORN_STATUS_ONLINE	1

struct popcorn_node_info {
	unsigned int status;	/* POPCORN_STATUS_OFFLINE or _ONLINE */
	int arch;		/* POPCORN_ARCH_*, UNKNOWN while offline */
	int distance;		/* reserved, always 0 */
};

/*
 * A thread that has not migrated is its own peer: current_nid and
 * peer_nid are both the node it runs on and peer_pid is its own tid.
 * With Popcorn disabled on this boot, both node ids are -1.
 */
struct popcorn_thread_status {
	int current_nid;	/* node the calling thread runs on */
	int peer_nid;		/* node of its counterpart thread */
	__kernel_pid_t peer_pid; /* tid of the counterpart on peer_nid */
	int proposed_nid;	/* node proposed for it, -1: none */
};

/*
 * Register set given to popcorn_migrate() (x86-64): the thread resumes
 * on the destination with these values.  Same layout as popcorn-kernel-
 * lib's struct regset_x86_64.  A NULL uregs means "continue after the
 * system call with the registers it was made with".
 */
struct popcorn_regset_x86_64 {
	__u64 rip;
	__u64 rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp;
	__u64 r8, r9, r10, r11, r12, r13, r14, r15;
	__u64 mmx[8];
	__u8 xmm[16][16] __attribute__((aligned(16)));
	__u8 st[8][16] __attribute__((aligned(16)));	/* x87, 80 bits each */
	__u32 cs, ss, ds, es, fs, gs;
	__u64 rflags;
};

/*
 * popcorn_set_placement(pid, nodes, flags): the placement policy of
 * process @pid (0: the caller's).  Each thread the process makes from
 * then on goes, before it runs, to the node of @nodes (bit N: node N)
 * that is online and has the fewest of its threads, the lowest id on a
 * tie.  POPCORN_PLACE_ALL_NODES means every node of the cluster, 0 no
 * policy.  Child processes inherit the policy, execve() keeps it, an
 * exec that changes privileges clears it.
 */
#define POPCORN_PLACE_ALL_NODES	(~0UL)
/* Place the threads the process has now too; returns how many move. */
#define POPCORN_PLACE_EXISTING	0x1
/* With POPCORN_PLACE_EXISTING: the main thread too. */
#define POPCORN_PLACE_MAIN	0x2
/*
 * Adaptive: a thread away that waits on the distributed memory more than
 * it computes is called home, and the process's next threads stay home a
 * while (Documentation/popcorn/placement.rst).
 */
#define POPCORN_PLACE_ADAPTIVE	0x4
#define POPCORN_PLACE_FLAGS	(POPCORN_PLACE_EXISTING | POPCORN_PLACE_MAIN | \
				 POPCORN_PLACE_ADAPTIVE)

/*
 * madvise(addr, len, MADV_RELEASE) in a process that runs on several
 * nodes: every copy other nodes hold of the pages in the range goes back
 * to the process's origin (the data of a node that wrote a page first),
 * so the next access from any other node fetches them anew.  Called at
 * the origin it takes them back from every node.  VMAs are unchanged.
 * EINVAL in a process that never migrated, as for any unknown advice.
 * The value is far from the kernel's own MADV_* numbers.
 */
#define MADV_RELEASE		0x5043

#endif /* _UAPI_LINUX_POPCORN_H */
