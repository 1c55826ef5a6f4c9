// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/popcorn/: home of the test and measurement files
 * (ping, and inject with CONFIG_POPCORN_TEST_HOOKS).  Root only.
 */
#include <linux/debugfs.h>
#include <linux/init.h>

#include "debugfs.h"

static struct dentry *pcn_debugfs;

struct dentry *pcn_debugfs_dir(void)
{
	return pcn_debugfs;
}

static int __init pcn_debugfs_init(void)
{
	pcn_debugfs = debugfs_create_dir("popcorn", NULL);
	return 0;
}
fs_initcall(pcn_debugfs_init);
