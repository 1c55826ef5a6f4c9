/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libpopcorn: user-space API of Popcorn distributed thread execution.
 *
 * The functions, structures and return conventions are those of the
 * popcorn-kernel-lib library, so its programs build unchanged against
 * this library (they include "migrate.h", which includes this header and
 * adds that library's helper macros).  On top of it come thin wrappers
 * of the system calls, popcorn_sys_*(), which return -1 and set errno
 * like syscall(2).  Documentation/popcorn/syscalls.rst maps each
 * function to the system call it makes.
 */
#ifndef _POPCORN_H_
#define _POPCORN_H_

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MAX_POPCORN_NODES	32

/* System call numbers on x86-64 (Linux 6.1 + Popcorn). */
#define POPCORN_SYS_MIGRATE		451
#define POPCORN_SYS_GET_THREAD_STATUS	452
#define POPCORN_SYS_GET_NODE_INFO	453
#define POPCORN_SYS_PROPOSE_MIGRATION	454
#define POPCORN_SYS_SET_PLACEMENT	455

/*
 * madvise() advice: give the pages of a range that this node holds back
 * to the process's origin (include/uapi/linux/popcorn.h).
 */
#ifndef MADV_RELEASE
#define MADV_RELEASE			0x5043
#endif

enum popcorn_node_status {
	POPCORN_NODE_OFFLINE = 0x00,
	POPCORN_NODE_ONLINE = 0x01,
};

enum popcorn_arch_types {
	POPCORN_NODE_UNKNOWN = -1,
	POPCORN_NODE_AARCH64 = 0,
	POPCORN_NODE_X86 = 1,
	POPCORN_NODE_PPC64 = 2,
};

struct popcorn_node_info {
	unsigned int status;	/* enum popcorn_node_status */
	int arch;		/* enum popcorn_arch_types */
	int distance;
};

struct popcorn_thread_status {
	int current_nid;
	int proposed_nid;	/* -1: no migration proposed */
	int peer_nid;
	int peer_pid;
};

/*
 * Migrate the calling thread to node @nid (-1: the node proposed for it
 * by popcorn_propose_migration()), then run @callback(@arg) there.  The
 * kernel carries the thread's registers, so C code continues after the
 * call on the other node.
 *
 * Return: 0 once the thread runs at @nid (and the callback has run);
 * else an errno value, positive (EINVAL, EBUSY, EAGAIN, ENODEV, ...),
 * the thread stays where it is and the callback does not run.  errno
 * itself is left as it was.
 */
int migrate(int nid, void (*callback)(void *), void *callback_param);

/* migrate(@nid, NULL, NULL). */
int popcorn_migrate(int nid);

/*
 * Run migrate(node, ...) with the node that the thread schedule (the
 * file named by $POPCORN_THREAD_SCHEDULE, else thread-schedule.txt)
 * gives @popcorn_tid in @region; node 0 without a schedule.
 */
void migrate_schedule(size_t region, int popcorn_tid,
		      void (*callback)(void *), void *callback_data);

static inline void popcorn_migrate_schedule(size_t region, int popcorn_tid)
{
	migrate_schedule(region, popcorn_tid, NULL, NULL);
}

/* 0, or -1 with errno set. */
int popcorn_get_status(struct popcorn_thread_status *status);

/* Node the calling thread runs on, -1 if Popcorn is not available. */
static inline int popcorn_current_nid(void)
{
	struct popcorn_thread_status status;

	if (popcorn_get_status(&status))
		return -1;
	return status.current_nid;
}

/*
 * Ask thread @tid (0: the caller) to migrate to @nid the next time it
 * returns to user space.  0, or -1 with errno set (ESRCH, EPERM, EINVAL).
 */
int popcorn_propose_migration(int tid, int nid);

/*
 * Write this node's id to *@current_nid and fill
 * @info[0 .. MAX_POPCORN_NODES-1], indexed by node id.
 * Return: 0, or -1 with errno set.
 */
int popcorn_get_node_info(int *current_nid, struct popcorn_node_info *info);

/* syscall(SYS_gettid). */
int popcorn_gettid(void);

/*
 * Not in popcorn-kernel-lib: the placement policy of process @pid (0:
 * the caller's).  Its new threads go to the node of @nodes (bit N: node
 * N; POPCORN_PLACE_ALL: every node; 0: no policy) with the fewest of its
 * threads.  @flags: POPCORN_PLACE_NOW places its existing threads too
 * (the main thread with POPCORN_PLACE_WITH_MAIN); POPCORN_PLACE_ADAPTIVE
 * calls home a thread away that waits on the shared memory more than it
 * computes, and keeps new threads home a while after.  Returns how many
 * existing threads move, or -1 with errno set (EINVAL: a node id not
 * in the cluster; ESRCH; EPERM: not allowed to ptrace the process).
 */
#define POPCORN_PLACE_ALL	(~0UL)
#define POPCORN_PLACE_NOW	0x1
#define POPCORN_PLACE_WITH_MAIN	0x2
#define POPCORN_PLACE_ADAPTIVE	0x4
int popcorn_set_placement(int pid, unsigned long nodes, unsigned int flags);

/* Raw system calls: kernel semantics, -1 and errno on error. */
int popcorn_sys_migrate(int nid, void *uregs);
int popcorn_sys_get_thread_status(void *kernel_status);
int popcorn_sys_get_node_info(int *my_nid, void *kernel_info, int len);
int popcorn_sys_propose_migration(int tid, int nid);
int popcorn_sys_set_placement(int pid, unsigned long nodes, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* _POPCORN_H_ */
