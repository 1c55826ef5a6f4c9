// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn system calls (x86-64 numbers 451-453).
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
	struct popcorn_thread_status st = {
		.current_nid = pcn_my_nid(),
		.peer_nid = pcn_my_nid(),
		.peer_pid = task_pid_vnr(current),
	};

	if (copy_to_user(status, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

/*
 * So far: the argument checks, and the remote worker of the process on
 * the destination.  Moving the thread is not implemented yet: a request
 * that gets that far fails with -EOPNOTSUPP.
 */
SYSCALL_DEFINE2(popcorn_migrate, int, nid, void __user *, uregs)
{
	struct popcorn_regset_x86_64 *regs;
	int ret;

	if (!pcn_enabled())
		return -ENODEV;
	if (!pcn_nid_valid(nid))
		return -EINVAL;
	if (nid == pcn_my_nid())
		return -EBUSY;
	if (!pcn_node_online(nid))
		return -EAGAIN;

	if (uregs) {
		regs = memdup_user(uregs, sizeof(*regs));
		if (IS_ERR(regs))
			return PTR_ERR(regs);
		kfree(regs);
	}

	/* The destination gets a remote worker for this process... */
	ret = pcn_process_prepare(nid);
	/* ...but moving the thread itself is not implemented yet. */
	return ret ? ret : -EOPNOTSUPP;
}
