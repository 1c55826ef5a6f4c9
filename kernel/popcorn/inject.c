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
 *
 *   echo "NAME COUNT" > /sys/kernel/debug/popcorn/fail
 *
 * makes the next COUNT sends of message type NAME (as in
 * /proc/popcorn_stat) fail with -EIO before they reach the transport, as
 * a transport that lost them would, or the next COUNT passes through
 * fail point NAME (exit_alloc: the TASK_EXIT of a remote thread cannot
 * be allocated; worker_stall: remote workers start no migration until
 * one is refused because a worker's queue is full; vma_hold: the origin
 * holds a VMA change, with no page given out, 2 s before it has the
 * remotes drop their VMAs; grant_lie: the origin names the last
 * untouched page of a write grant one page further than the page it
 * gave, as a lying origin would).
 *
 *   echo N > /sys/kernel/debug/popcorn/msglog
 *
 * records the next N messages this node sends or accepts (valid ones,
 * at most 8 KiB each); reading the file gives them as records of a
 * 32-bit length, a 32-bit direction (0 sent, 1 received) and the bytes.
 * A fuzzer replays and mutates them.  "types" lists the registered
 * message types with their size limits.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <popcorn/nodes.h>

#include "debugfs.h"
#include "inject.h"
#include "kmsg_internal.h"

#define PCN_MSGLOG_MAX		1024	/* records, at most */
#define PCN_MSGLOG_MAX_BYTES	8192	/* per record */

struct pcn_msglog_rec {
	u32 len;
	u32 dir;
	u8 data[];
};

static atomic_t pcn_fail_send_left[PCN_KMSG_TYPE_MAX];
static atomic_t pcn_fail_left[PCN_FAIL_NR];
static const char * const pcn_fail_names[PCN_FAIL_NR] = {
	[PCN_FAIL_EXIT_ALLOC] = "exit_alloc",
	[PCN_FAIL_WORKER_STALL] = "worker_stall",
	[PCN_FAIL_VMA_HOLD] = "vma_hold",
	[PCN_FAIL_GRANT_LIE] = "grant_lie",
};

static DEFINE_SPINLOCK(pcn_msglog_lock);
static struct pcn_msglog_rec **pcn_msglog;	/* PCN_MSGLOG_MAX slots */
static unsigned int pcn_msglog_want;		/* records asked for */
static unsigned int pcn_msglog_count;		/* records taken */
static size_t pcn_msglog_bytes;			/* their size as read */

bool pcn_inject_fail_send(unsigned int type)
{
	if (type >= PCN_KMSG_TYPE_MAX ||
	    atomic_dec_if_positive(&pcn_fail_send_left[type]) < 0)
		return false;
	pr_info("popcorn: test hook: a %s message fails to send\n",
		pcn_kmsg_type_name(type) ?: "?");
	return true;
}

bool pcn_inject_fail(enum pcn_fail_point point)
{
	if (point >= PCN_FAIL_NR ||
	    atomic_dec_if_positive(&pcn_fail_left[point]) < 0)
		return false;
	pr_info("popcorn: test hook: %s fails\n", pcn_fail_names[point]);
	return true;
}

/* Is @point armed?  Does not consume it. */
bool pcn_inject_armed(enum pcn_fail_point point)
{
	return point < PCN_FAIL_NR && atomic_read(&pcn_fail_left[point]) > 0;
}

/*
 * Record the message as it went on the wire: @len bytes at @msg, then
 * the data of its @npages pages.  May be called in atomic context: no
 * sleeping allocation.
 */
void pcn_inject_msglog(int dir, const struct pcn_kmsg_hdr *msg, size_t len,
		       struct page **pages, unsigned int npages)
{
	size_t total = len + npages * PAGE_SIZE;
	struct pcn_msglog_rec *rec;
	unsigned long flags;
	unsigned int i;

	if (!READ_ONCE(pcn_msglog_want) || total > PCN_MSGLOG_MAX_BYTES)
		return;
	for (i = 0; i < npages; i++)
		if (!pages[i])
			return;		/* taken over already */
	rec = kmalloc(sizeof(*rec) + total, GFP_NOWAIT | __GFP_NOWARN);
	if (!rec)
		return;
	rec->len = total;
	rec->dir = dir;
	memcpy(rec->data, msg, len);
	for (i = 0; i < npages; i++)
		memcpy_from_page(rec->data + len + i * PAGE_SIZE, pages[i], 0,
				 PAGE_SIZE);
	spin_lock_irqsave(&pcn_msglog_lock, flags);
	if (pcn_msglog && pcn_msglog_count < pcn_msglog_want) {
		pcn_msglog[pcn_msglog_count++] = rec;
		pcn_msglog_bytes += sizeof(*rec) + total;
		rec = NULL;
	}
	spin_unlock_irqrestore(&pcn_msglog_lock, flags);
	kfree(rec);
}

static ssize_t pcn_fail_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char name[32];
	unsigned int type;
	int n, count;

	n = pcn_debugfs_scan(ubuf, len, "%31s %d", name, &count);
	if (n < 0)
		return n;
	if (n != 2 || count < 0 || count > 1000)
		return -EINVAL;
	for (n = 0; n < PCN_FAIL_NR; n++) {
		if (!strcmp(name, pcn_fail_names[n])) {
			atomic_set(&pcn_fail_left[n], count);
			return len;
		}
	}
	for (type = 0; type < PCN_KMSG_TYPE_MAX; type++) {
		const char *t = pcn_kmsg_type_name(type);

		if (t && !strcmp(name, t)) {
			atomic_set(&pcn_fail_send_left[type], count);
			return len;
		}
	}
	return -ENOENT;
}

static const struct file_operations pcn_fail_fops = {
	.owner = THIS_MODULE,
	.write = pcn_fail_write,
	.llseek = noop_llseek,
};

static void pcn_msglog_free(struct pcn_msglog_rec **log, unsigned int n)
{
	while (n--)
		kfree(log[n]);
	kvfree(log);
}

/* Start a new log of @want records (0: stop logging). */
static ssize_t pcn_msglog_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct pcn_msglog_rec **log = NULL, **old;
	unsigned int want, n;
	int ret;

	ret = pcn_debugfs_scan(ubuf, len, "%u", &want);
	if (ret < 0)
		return ret;
	if (ret != 1 || want > PCN_MSGLOG_MAX)
		return -EINVAL;
	if (want) {
		log = kvcalloc(PCN_MSGLOG_MAX, sizeof(*log), GFP_KERNEL);
		if (!log)
			return -ENOMEM;
	}
	spin_lock_irq(&pcn_msglog_lock);
	old = pcn_msglog;
	n = pcn_msglog_count;
	pcn_msglog = log;
	pcn_msglog_count = 0;
	pcn_msglog_bytes = 0;
	WRITE_ONCE(pcn_msglog_want, want);
	spin_unlock_irq(&pcn_msglog_lock);
	if (old)
		pcn_msglog_free(old, n);
	return len;
}

struct pcn_msglog_snap {
	size_t len;
	u8 buf[];
};

/* A snapshot of the records taken so far, read as one file. */
static int pcn_msglog_open(struct inode *inode, struct file *file)
{
	struct pcn_msglog_snap *snap;
	struct pcn_msglog_rec *rec;
	size_t need, off = 0;
	unsigned int i;

	for (;;) {
		need = READ_ONCE(pcn_msglog_bytes);
		snap = kvmalloc(sizeof(*snap) + need, GFP_KERNEL);
		if (!snap)
			return -ENOMEM;
		spin_lock_irq(&pcn_msglog_lock);
		if (pcn_msglog_bytes <= need)
			break;
		spin_unlock_irq(&pcn_msglog_lock);
		kvfree(snap);
	}
	for (i = 0; i < pcn_msglog_count; i++) {
		rec = pcn_msglog[i];
		memcpy(snap->buf + off, rec, sizeof(*rec) + rec->len);
		off += sizeof(*rec) + rec->len;
	}
	spin_unlock_irq(&pcn_msglog_lock);
	snap->len = off;
	file->private_data = snap;
	return 0;
}

static ssize_t pcn_msglog_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct pcn_msglog_snap *snap = file->private_data;

	return simple_read_from_buffer(ubuf, len, ppos, snap->buf, snap->len);
}

static int pcn_msglog_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations pcn_msglog_fops = {
	.owner = THIS_MODULE,
	.open = pcn_msglog_open,
	.read = pcn_msglog_read,
	.write = pcn_msglog_write,
	.release = pcn_msglog_release,
	.llseek = default_llseek,
};

/* "TYPE NAME MIN_SIZE MAX_SIZE request|response" per registered type. */
static int pcn_types_show(struct seq_file *seq, void *v)
{
	unsigned int type;
	bool request;
	u32 min, max;

	for (type = 0; type < PCN_KMSG_TYPE_MAX; type++) {
		const char *name = pcn_kmsg_type_limits(type, &min, &max,
							&request);

		if (name)
			seq_printf(seq, "%u %s %u %u %s\n", type, name, min, max,
				   request ? "request" : "response");
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pcn_types);

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
	debugfs_create_file("fail", 0200, pcn_debugfs_dir(), NULL,
			    &pcn_fail_fops);
	debugfs_create_file("msglog", 0600, pcn_debugfs_dir(), NULL,
			    &pcn_msglog_fops);
	debugfs_create_file("types", 0400, pcn_debugfs_dir(), NULL,
			    &pcn_types_fops);
	return 0;
}
late_initcall(pcn_inject_init);
