// SPDX-License-Identifier: LGPL-2.1
/*
 * libpopcorn: wrappers of the Popcorn system calls.
 *
 * The kernel's structures (include/uapi/linux/popcorn.h) and the
 * popcorn-kernel-lib structures share names but not layout, so the
 * kernel's are renamed while its header is included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define popcorn_thread_status	popcorn_kernel_thread_status
#define popcorn_node_info	popcorn_kernel_node_info
#include <linux/popcorn.h>
#undef popcorn_thread_status
#undef popcorn_node_info

#include "popcorn.h"

_Static_assert(MAX_POPCORN_NODES == POPCORN_MAX_NODES,
	       "node limit differs from the kernel's");
_Static_assert(MADV_RELEASE == 0x5043, "MADV_RELEASE differs from the kernel's");

int popcorn_sys_migrate(int nid, void *uregs)
{
	return syscall(POPCORN_SYS_MIGRATE, nid, uregs);
}

int popcorn_sys_get_thread_status(void *kernel_status)
{
	return syscall(POPCORN_SYS_GET_THREAD_STATUS, kernel_status);
}

int popcorn_sys_get_node_info(int *my_nid, void *kernel_info, int len)
{
	return syscall(POPCORN_SYS_GET_NODE_INFO, my_nid, kernel_info, len);
}

int popcorn_migrate(int nid)
{
	return popcorn_sys_migrate(nid, NULL);
}

void migrate(int nid, void (*callback)(void *), void *arg)
{
	int saved;

	popcorn_migrate(nid);
	saved = errno;
	if (callback)
		callback(arg);
	errno = saved;
}

int popcorn_get_status(struct popcorn_thread_status *status)
{
	struct popcorn_kernel_thread_status ks;

	if (popcorn_sys_get_thread_status(&ks))
		return -1;
	status->current_nid = ks.current_nid;
	status->proposed_nid = -1;
	status->peer_nid = ks.peer_nid;
	status->peer_pid = ks.peer_pid;
	return 0;
}

int popcorn_current_nid(void)
{
	struct popcorn_thread_status st;

	if (popcorn_get_status(&st))
		return -1;
	return st.current_nid;
}

int popcorn_get_node_info(struct popcorn_node_info *info)
{
	struct popcorn_kernel_node_info ki[POPCORN_MAX_NODES];
	int my_nid, i;

	if (popcorn_sys_get_node_info(&my_nid, ki, POPCORN_MAX_NODES))
		return -1;
	for (i = 0; i < POPCORN_MAX_NODES; i++) {
		info[i].status = ki[i].status ? POPCORN_NODE_ONLINE :
						POPCORN_NODE_OFFLINE;
		info[i].arch = ki[i].arch == POPCORN_ARCH_X86 ?
			       POPCORN_NODE_X86 : POPCORN_NODE_UNKNOWN;
		info[i].distance = ki[i].distance;
	}
	return 0;
}

int popcorn_gettid(void)
{
	return syscall(SYS_gettid);
}
