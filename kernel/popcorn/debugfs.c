// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/popcorn/: home of the test and measurement files
 * (ping, and inject with CONFIG_POPCORN_TEST_HOOKS).  Root only.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "debugfs.h"

static struct dentry *pcn_debugfs;

struct dentry *pcn_debugfs_dir(void)
{
	return pcn_debugfs;
}

int pcn_debugfs_scan(const char __user *ubuf, size_t len, const char *fmt,
		     ...)
{
	va_list args;
	char *buf;
	int n;

	if (len > PCN_DEBUGFS_CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	va_start(args, fmt);
	n = vsscanf(buf, fmt, args);
	va_end(args);
	kfree(buf);
	return n;
}

static int __init pcn_debugfs_init(void)
{
	pcn_debugfs = debugfs_create_dir("popcorn", NULL);
	return 0;
}
fs_initcall(pcn_debugfs_init);
