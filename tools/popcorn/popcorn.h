/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libpopcorn: user-space API of Popcorn distributed thread execution.
 *
 * Source-compatible with the popcorn-kernel-lib API (migrate(),
 * popcorn_get_status(), popcorn_current_nid(), popcorn_get_node_info(),
 * popcorn_gettid()), plus thin wrappers of the three system calls that
 * return -1 and set errno like syscall(2).
 */
#ifndef _POPCORN_H_
#define _POPCORN_H_

#include <sys/types.h>

#define MAX_POPCORN_NODES	32

/* System call numbers on x86-64 (Linux 6.1 + Popcorn). */
#define POPCORN_SYS_MIGRATE		451
#define POPCORN_SYS_GET_THREAD_STATUS	452
#define POPCORN_SYS_GET_NODE_INFO	453

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
	POPCORN_NODE_AARCH64 = 0,
	POPCORN_NODE_X86 = 1,
	POPCORN_NODE_PPC64 = 2,
	POPCORN_NODE_UNKNOWN,
};

struct popcorn_node_info {
	unsigned int status;	/* enum popcorn_node_status */
	int arch;		/* enum popcorn_arch_types */
	int distance;
};

struct popcorn_thread_status {
	int current_nid;
	int proposed_nid;	/* always -1: no migration proposals */
	int peer_nid;
	int peer_pid;
};

/*
 * Migrate the calling thread to node @nid, then run @callback(@arg)
 * there.  The kernel carries the thread's registers (the system call is
 * made with a NULL register set), so C code continues after the call.
 * On failure errno tells why (EINVAL, EBUSY, EAGAIN, ENODEV, and
 * EOPNOTSUPP while thread migration is not implemented) and the thread
 * stays where it is; @callback still runs, as in popcorn-kernel-lib.
 */
void migrate(int nid, void (*callback)(void *), void *arg);

/* Migrate the calling thread to @nid: 0, or -1 with errno set. */
int popcorn_migrate(int nid);

/* 0, or -1 with errno set. */
int popcorn_get_status(struct popcorn_thread_status *status);

/* Node the calling thread runs on, -1 if Popcorn is not available. */
int popcorn_current_nid(void);

/*
 * Fill @info[0 .. MAX_POPCORN_NODES-1], indexed by node id.
 * Return: 0, or -1 with errno set.
 */
int popcorn_get_node_info(struct popcorn_node_info *info);

int popcorn_gettid(void);

/* Raw system calls: kernel semantics, -1 and errno on error. */
int popcorn_sys_migrate(int nid, void *uregs);
int popcorn_sys_get_thread_status(void *kernel_status);
int popcorn_sys_get_node_info(int *my_nid, void *kernel_info, int len);

#endif /* _POPCORN_H_ */
