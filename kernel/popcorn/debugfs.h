/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_POPCORN_DEBUGFS_H
#define _KERNEL_POPCORN_DEBUGFS_H

struct dentry;

/* /sys/kernel/debug/popcorn/ */
struct dentry *pcn_debugfs_dir(void);

#endif /* _KERNEL_POPCORN_DEBUGFS_H */
