// SPDX-License-Identifier: GPL-2.0
/*
 * Output of migrated threads.
 *
 * A process's files are open at its origin; a thread that migrated keeps
 * writing to them.  write() at a remote sends the data (at most
 * PCN_WRITE_MAX bytes a call: a short write, which callers such as stdio
 * complete) to the thread's shadow (FILE_WRITE), which writes it to the
 * process's descriptor and answers with the result (FILE_WRITE_DONE).
 * The thread waits for the answer, so its writes stay in order.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

#define PCN_WRITE_TIMEOUT	(30 * HZ)
#define PCN_WRITE_HDR		offsetof(struct pcn_file_write_msg, data)

bool __pcn_remote_write(unsigned int fd, const char __user *buf,
			size_t count, ssize_t *ret)
{
	struct remote_context *ctx = current->remote;
	struct pcn_file_write_msg *req, *done;
	struct pcn_kmsg_hdr *resp;
	int err;

	if (ctx->at_origin)
		return false;
	count = min_t(size_t, count, PCN_WRITE_MAX);
	req = kzalloc(PCN_WRITE_HDR + count, GFP_KERNEL);
	if (!req) {
		*ret = -ENOMEM;
		return true;
	}
	if (copy_from_user(req->data, buf, count)) {
		kfree(req);
		*ret = -EFAULT;
		return true;
	}
	req->hdr.type = PCN_KMSG_TYPE_FILE_WRITE;
	req->ctx_id = ctx->id;
	req->shadow_pid = current->peer_pid;
	req->fd = fd;
	req->count = count;
	err = pcn_kmsg_request(ctx->origin_nid, req, PCN_WRITE_HDR + count,
			       PCN_KMSG_TYPE_FILE_WRITE_DONE, PCN_WRITE_TIMEOUT,
			       &resp);
	kfree(req);
	if (err) {
		*ret = -EIO;
		return true;
	}
	done = (struct pcn_file_write_msg *)resp;
	if (done->ctx_id != ctx->id || done->fd != fd ||
	    done->ret > (s64)count || done->ret < -MAX_ERRNO)
		*ret = -EIO;
	else
		*ret = done->ret;
	pcn_kmsg_done(resp);
	return true;
}

void pcn_file_write_reply(int nid, struct pcn_kmsg_hdr *msg, ssize_t ret)
{
	struct pcn_file_write_msg *req = (struct pcn_file_write_msg *)msg;
	struct pcn_file_write_msg done = {
		.hdr.type = PCN_KMSG_TYPE_FILE_WRITE_DONE,
		.ctx_id = req->ctx_id,
		.shadow_pid = req->shadow_pid,
		.fd = req->fd,
		.ret = ret,
	};

	pcn_kmsg_reply(nid, msg, &done, PCN_WRITE_HDR);
}

/* In the shadow: write as ksys_write() would, from a kernel buffer. */
void pcn_file_write_serve(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_file_write_msg *req = (struct pcn_file_write_msg *)msg;
	ssize_t ret = -EINVAL;
	loff_t pos, *ppos;
	struct fd f;

	if (req->count == msg->size - PCN_WRITE_HDR) {
		ret = -EBADF;
		f = fdget_pos(req->fd);
		if (f.file) {
			ppos = f.file->f_mode & FMODE_STREAM ? NULL : &pos;
			if (ppos)
				pos = f.file->f_pos;
			ret = kernel_write(f.file, req->data, req->count, ppos);
			if (ret >= 0 && ppos)
				f.file->f_pos = pos;
			fdput_pos(f);
		}
	}
	pcn_file_write_reply(nid, msg, ret);
	pcn_kmsg_done(msg);
}

static int __init pcn_remote_io_init(void)
{
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_FILE_WRITE,
					"file_write", PCN_WRITE_HDR,
					PCN_WRITE_HDR + PCN_WRITE_MAX,
					pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_FILE_WRITE_DONE,
						 "file_write_done",
						 PCN_WRITE_HDR, PCN_WRITE_HDR);
	return ret;
}
late_initcall(pcn_remote_io_init);
