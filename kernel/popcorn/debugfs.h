/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_POPCORN_DEBUGFS_H
#define _KERNEL_POPCORN_DEBUGFS_H

struct dentry;

#include <linux/compiler.h>
#include <linux/types.h>

/* /sys/kernel/debug/popcorn/ */
struct dentry *pcn_debugfs_dir(void);

#define PCN_DEBUGFS_CMD_MAX	64

/*
 * Parse a command written to a debugfs file (at most
 * PCN_DEBUGFS_CMD_MAX bytes) with sscanf(@fmt): the number of fields
 * read, or -errno.
 */
__scanf(3, 4)
int pcn_debugfs_scan(const char __user *ubuf, size_t len, const char *fmt,
		     ...);

#endif /* _KERNEL_POPCORN_DEBUGFS_H */
