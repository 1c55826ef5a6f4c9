// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn system calls (x86-64 numbers 451-453; 454 is in propose.c).
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <popcorn/nodes.h>
#include <popcorn/process_server.h>

#include "regs.h"

SYSCALL_DEFINE3(popcorn_get_node_info, int __user *, my_nid,
		struct popcorn_node_info __user *, info, int, len)
{
	int nid;

	if (len < 0)
		return -EINVAL;
	len = min(len, POPCORN_MAX_NODES);

	if (put_user(pcn_my_nid(), my_nid))
		return -EFAULT;

	for (nid = 0; nid < len; nid++) {
		struct popcorn_node_info ni = {
			.status = POPCORN_STATUS_OFFLINE,
			.arch = POPCORN_ARCH_UNKNOWN,
		};

		if (pcn_node_online(nid)) {
			ni.status = POPCORN_STATUS_ONLINE;
			ni.arch = pcn_node_arch(nid);
		}
		if (copy_to_user(&info[nid], &ni, sizeof(ni)))
			return -EFAULT;
	}
	return 0;
}

SYSCALL_DEFINE1(popcorn_get_thread_status,
		struct popcorn_thread_status __user *, status)
{
	struct popcorn_thread_status st;

	pcn_thread_status(&st);
	if (copy_to_user(status, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

/*
 * Move the calling thread to node @nid; at a remote, @nid may be its
 * origin (back home) or another remote (through the origin).  Returns 0
 * on the node where the thread goes on.
 */
SYSCALL_DEFINE2(popcorn_migrate, int, nid, void __user *, uregs)
{
	struct popcorn_regset_x86_64 regs;

	if (!pcn_enabled())
		return -ENODEV;
	if (!pcn_nid_valid(nid))
		return -EINVAL;
	if (nid == pcn_my_nid())
		return -EBUSY;
	if (!pcn_node_online(nid))
		return -EAGAIN;

	/* On the stack: a thread that leaves a remote does not return. */
	if (uregs && copy_from_user(&regs, uregs, sizeof(regs)))
		return -EFAULT;
	if (uregs && pcn_uregs_check(&regs))
		return -EINVAL;
	return pcn_migrate(nid, uregs ? &regs : NULL);
}
