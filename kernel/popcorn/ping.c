// SPDX-License-Identifier: GPL-2.0
/*
 * Message round trips ("ping"): the baseline that page-fault latencies
 * are compared with.
 *
 * A ping request carries a payload that the peer echoes back in its
 * response.  /sys/kernel/debug/popcorn/ping runs a series: write
 * "NID SIZE COUNT" to it, then read the result from the same open file:
 *
 *   nid N size S count C ok C min_ns A mean_ns B p50_ns C p99_ns D
 *   total_ns T kbps K   (payload bytes both ways, KB/s)
 *
 * The write fails with -EINVAL (bad arguments), -EAGAIN (node offline),
 * -ETIMEDOUT, -EHOSTDOWN (node lost meanwhile) or -EIO (payload not
 * echoed intact).
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "debugfs.h"

struct pcn_ping_msg {
	struct pcn_kmsg_hdr hdr;
	u32 seq;
	u32 len;	/* payload bytes */
	u8 payload[];
} __packed;

#define PCN_PING_MAX_LEN	PCN_KMSG_MAX_PAYLOAD
#define PCN_PING_MAX_COUNT	100000
#define PCN_PING_TIMEOUT	(5 * HZ)

static bool pcn_ping_len_ok(const struct pcn_ping_msg *m)
{
	return m->len == m->hdr.size - sizeof(*m);
}

static void pcn_ping_handle_request(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_ping_msg *req = (struct pcn_ping_msg *)msg;
	struct pcn_ping_msg *resp;

	if (!pcn_ping_len_ok(req)) {
		pcn_kmsg_count_drop(PCN_DROP_TYPE_SIZE);
		goto out;
	}
	resp = kvmalloc(req->hdr.size, GFP_KERNEL);
	if (!resp)
		goto out;
	resp->hdr.type = PCN_KMSG_TYPE_PING_RESPONSE;
	resp->seq = req->seq;
	resp->len = req->len;
	memcpy(resp->payload, req->payload, req->len);
	pcn_kmsg_reply(nid, &req->hdr, resp, req->hdr.size);
	kvfree(resp);
out:
	pcn_kmsg_done(msg);
}

static void pcn_ping_fill(u8 *p, u32 len, u32 seq)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(seq * 31 + i * 7 + (i >> 8));
}

struct pcn_ping_result {
	int nid;
	u32 size, count, ok;
	u64 min_ns, mean_ns, p50_ns, p99_ns, total_ns;
};

static int pcn_ping_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int pcn_ping_run(struct pcn_ping_result *r)
{
	size_t size = sizeof(struct pcn_ping_msg) + r->size;
	struct pcn_ping_msg *req, *resp;
	struct pcn_kmsg_hdr *reply;
	u64 *lat, t0, start;
	int ret = 0;
	u32 i;

	req = kvzalloc(size, GFP_KERNEL);
	resp = kvmalloc(size, GFP_KERNEL);
	lat = kvmalloc_array(r->count, sizeof(*lat), GFP_KERNEL);
	if (!req || !resp || !lat) {
		ret = -ENOMEM;
		goto out;
	}

	start = ktime_get_ns();
	for (i = 0; i < r->count; i++) {
		req->hdr.type = PCN_KMSG_TYPE_PING_REQUEST;
		req->seq = i;
		req->len = r->size;
		pcn_ping_fill(req->payload, r->size, i);

		t0 = ktime_get_ns();
		ret = pcn_kmsg_request(r->nid, req, size,
				       PCN_KMSG_TYPE_PING_RESPONSE,
				       PCN_PING_TIMEOUT, &reply);
		if (ret)
			break;
		lat[i] = ktime_get_ns() - t0;

		/* Check the echo against a fresh copy of what was sent. */
		pcn_ping_fill(resp->payload, r->size, i);
		if (reply->size != size ||
		    ((struct pcn_ping_msg *)reply)->seq != i ||
		    ((struct pcn_ping_msg *)reply)->len != r->size ||
		    memcmp(((struct pcn_ping_msg *)reply)->payload,
			   resp->payload, r->size))
			ret = -EIO;
		pcn_kmsg_done(reply);
		if (ret)
			break;
		r->ok++;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
	r->total_ns = ktime_get_ns() - start;

	if (r->ok) {
		u64 sum = 0;

		for (i = 0; i < r->ok; i++)
			sum += lat[i];
		sort(lat, r->ok, sizeof(*lat), pcn_ping_cmp, NULL);
		r->min_ns = lat[0];
		r->mean_ns = div_u64(sum, r->ok);
		r->p50_ns = lat[(r->ok - 1) / 2];
		r->p99_ns = lat[div_u64((u64)(r->ok - 1) * 99, 100)];
	}
out:
	kvfree(lat);
	kvfree(resp);
	kvfree(req);
	return ret;
}

/* Per open file: its last result; series on one file are serialised. */
struct pcn_ping_file {
	struct mutex lock;	/* one series at a time; guards last */
	struct pcn_ping_result *last;
};

static int pcn_ping_open(struct inode *inode, struct file *file)
{
	struct pcn_ping_file *pf = kzalloc(sizeof(*pf), GFP_KERNEL);

	if (!pf)
		return -ENOMEM;
	mutex_init(&pf->lock);
	file->private_data = pf;
	return 0;
}

static ssize_t pcn_ping_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct pcn_ping_file *pf = file->private_data;
	struct pcn_ping_result *r;
	int nid, ret, n;
	u32 size, count;

	n = pcn_debugfs_scan(ubuf, len, "%d %u %u", &nid, &size, &count);
	if (n < 0)
		return n;
	if (n != 3 || !pcn_nid_valid(nid) || nid == pcn_my_nid() ||
	    size > PCN_PING_MAX_LEN || !count || count > PCN_PING_MAX_COUNT)
		return -EINVAL;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->nid = nid;
	r->size = size;
	r->count = count;
	if (mutex_lock_killable(&pf->lock)) {
		kfree(r);
		return -EINTR;
	}
	ret = pcn_ping_run(r);
	if (ret) {
		kfree(r);
	} else {
		kfree(pf->last);
		pf->last = r;
	}
	mutex_unlock(&pf->lock);
	return ret ? ret : len;
}

static ssize_t pcn_ping_read(struct file *file, char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct pcn_ping_file *pf = file->private_data;
	struct pcn_ping_result *r;
	char buf[256];
	int n;
	u64 kbps;

	if (mutex_lock_killable(&pf->lock))
		return -EINTR;
	r = pf->last;
	if (!r) {
		mutex_unlock(&pf->lock);
		return -ENODATA;
	}
	/* Request and response both carry the payload. */
	kbps = r->total_ns ?
	       div64_u64(2ULL * r->size * r->ok * 1000000, r->total_ns) : 0;
	n = scnprintf(buf, sizeof(buf),
		      "nid %d size %u count %u ok %u min_ns %llu mean_ns %llu p50_ns %llu p99_ns %llu total_ns %llu kbps %llu\n",
		      r->nid, r->size, r->count, r->ok, r->min_ns, r->mean_ns,
		      r->p50_ns, r->p99_ns, r->total_ns, kbps);
	mutex_unlock(&pf->lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static int pcn_ping_release(struct inode *inode, struct file *file)
{
	struct pcn_ping_file *pf = file->private_data;

	kfree(pf->last);
	kfree(pf);
	return 0;
}

static const struct file_operations pcn_ping_fops = {
	.owner = THIS_MODULE,
	.open = pcn_ping_open,
	.write = pcn_ping_write,
	.read = pcn_ping_read,
	.release = pcn_ping_release,
	.llseek = default_llseek,
};

static int __init pcn_ping_init(void)
{
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_PING_REQUEST,
					"ping_request",
					sizeof(struct pcn_ping_msg),
					PCN_KMSG_MAX_SIZE,
					pcn_ping_handle_request);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_PING_RESPONSE,
						 "ping_response",
						 sizeof(struct pcn_ping_msg),
						 PCN_KMSG_MAX_SIZE);
	if (ret)
		return ret;
	debugfs_create_file("ping", 0600, pcn_debugfs_dir(), NULL,
			    &pcn_ping_fops);
	return 0;
}
late_initcall(pcn_ping_init);
