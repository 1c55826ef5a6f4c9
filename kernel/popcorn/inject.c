// SPDX-License-Identifier: GPL-2.0
/*
 * Test hook (CONFIG_POPCORN_TEST_HOOKS): send a hand-made, possibly
 * malformed message straight through the transport, bypassing every
 * check of the sending side, to exercise the receiver's validation.
 *
 *   echo "NID TYPE SIZE FROM_NID HDR_SIZE" > /sys/kernel/debug/popcorn/inject
 *
 * sends SIZE bytes (a header, then zeroes) to node NID with the header
 * fields type = TYPE, from_nid = FROM_NID and size = HDR_SIZE.
 *
 *   /sys/kernel/debug/popcorn/inject_raw
 *
 * takes one whole message per write(): a 32-bit node id, then the bytes
 * to send to that node as they are (header included), so that a test
 * can craft any message of the protocol.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <popcorn/nodes.h>

#include "debugfs.h"
#include "kmsg_internal.h"

static ssize_t pcn_inject_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct pcn_kmsg_transport *t = pcn_kmsg_active_transport();
	unsigned int type, size, from, hdr_size;
	struct pcn_kmsg_hdr *msg;
	int nid, ret, n;

	n = pcn_debugfs_scan(ubuf, len, "%d %u %u %u %u", &nid, &type, &size,
			     &from, &hdr_size);
	if (n < 0)
		return n;
	if (n != 5 || !pcn_nid_valid(nid) || nid == pcn_my_nid() ||
	    size < sizeof(*msg) || size > PCN_KMSG_MAX_SIZE)
		return -EINVAL;
	if (!t)
		return -ENODEV;
	if (!pcn_node_online(nid))
		return -EAGAIN;

	msg = kvzalloc(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->type = type;
	msg->from_nid = from;
	msg->size = hdr_size;
	ret = t->send(nid, msg, size);
	kvfree(msg);
	return ret ? ret : len;
}

static ssize_t pcn_inject_raw_write(struct file *file,
				    const char __user *ubuf, size_t len,
				    loff_t *ppos)
{
	struct pcn_kmsg_transport *t = pcn_kmsg_active_transport();
	struct pcn_kmsg_hdr *msg;
	u32 nid;
	int ret;

	if (len < sizeof(nid) + sizeof(*msg) ||
	    len > sizeof(nid) + PCN_KMSG_MAX_SIZE)
		return -EINVAL;
	if (copy_from_user(&nid, ubuf, sizeof(nid)))
		return -EFAULT;
	if (!pcn_nid_valid(nid) || nid == pcn_my_nid())
		return -EINVAL;
	if (!t)
		return -ENODEV;
	if (!pcn_node_online(nid))
		return -EAGAIN;
	msg = vmemdup_user(ubuf + sizeof(nid), len - sizeof(nid));
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	ret = t->send(nid, msg, len - sizeof(nid));
	kvfree(msg);
	return ret ? ret : len;
}

static const struct file_operations pcn_inject_raw_fops = {
	.owner = THIS_MODULE,
	.write = pcn_inject_raw_write,
	.llseek = noop_llseek,
};

static const struct file_operations pcn_inject_fops = {
	.owner = THIS_MODULE,
	.write = pcn_inject_write,
	.llseek = noop_llseek,
};

static int __init pcn_inject_init(void)
{
	debugfs_create_file("inject", 0200, pcn_debugfs_dir(), NULL,
			    &pcn_inject_fops);
	debugfs_create_file("inject_raw", 0200, pcn_debugfs_dir(), NULL,
			    &pcn_inject_raw_fops);
	return 0;
}
late_initcall(pcn_inject_init);
