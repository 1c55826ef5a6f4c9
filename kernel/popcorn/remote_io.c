// SPDX-License-Identifier: GPL-2.0
/*
 * Output of migrated threads.
 *
 * A process's files are open at its origin; a thread that migrated keeps
 * writing to them.  write() at a remote sends the descriptor, the buffer's
 * address and the count to the thread's shadow (FILE_WRITE), which makes
 * the very same write(2) call at the origin (ksys_write() on the process's
 * descriptor table and address space) and answers with its result
 * (FILE_WRITE_DONE).  The shadow reads the buffer through the origin's
 * page tables: pages the thread wrote at the remote come home by the page
 * protocol like any other fault.  So every check and effect of write(2)
 * is the origin's own (EBADF for a read-only descriptor, character
 * devices, fsnotify, file locks, RLIMIT_FSIZE), and no data is copied
 * into the message.  The thread waits for the answer, so its writes stay
 * in order.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/syscalls.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

bool __pcn_remote_write(unsigned int fd, const char __user *buf,
			size_t count, ssize_t *ret)
{
	struct remote_context *ctx = current->remote;
	struct pcn_file_write_msg req = {
		.hdr.type = PCN_KMSG_TYPE_FILE_WRITE,
	};
	struct pcn_file_write_msg *done;
	struct pcn_kmsg_hdr *resp;
	int err;

	if (ctx->at_origin)
		return false;
	/* As vfs_write() would: the origin's answer can be no longer. */
	count = min_t(size_t, count, MAX_RW_COUNT);
	req.ctx_id = ctx->id;
	req.shadow_pid = current->peer_pid;
	req.fd = fd;
	req.buf = (unsigned long)buf;
	req.count = count;
	/* A write(2) may block as long as it likes (a full pipe). */
	err = pcn_kmsg_request_killable(ctx->origin_nid, &req, sizeof(req),
					PCN_KMSG_TYPE_FILE_WRITE_DONE, &resp);
	if (err) {
		*ret = err == -EINTR ? -EINTR : -EIO;
		return true;
	}
	done = (struct pcn_file_write_msg *)resp;
	if (done->ctx_id != ctx->id || done->fd != fd ||
	    done->ret > (s64)count || done->ret < -MAX_ERRNO)
		*ret = -EIO;
	else
		*ret = done->ret;
	pcn_kmsg_done(resp);
	/*
	 * Interrupted at the origin before a byte went (a stop, for which
	 * the thread comes home): with no signal here, the way out must
	 * still restart it, as for a forwarded call (syscall_forward.c).
	 */
	if (*ret <= -ERESTARTSYS && *ret >= -ERESTARTNOHAND &&
	    !signal_pending(current))
		set_notify_signal(current);
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

	pcn_kmsg_reply(nid, msg, &done, sizeof(done));
}

/* In the shadow, at the origin: the thread's write(2), made here. */
void pcn_file_write_serve(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_file_write_msg *req = (struct pcn_file_write_msg *)msg;
	ssize_t ret = -EINVAL;

	if (req->count <= MAX_RW_COUNT && !req->ret && !req->reserved)
		ret = ksys_write(req->fd, u64_to_user_ptr(req->buf), req->count);
	/* A stop interrupted it: the thread comes home to restart it. */
	if (ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	    ret == -ERESTARTNOHAND)
		pcn_shadow_home_check();
	pcn_file_write_reply(nid, msg, ret);
	pcn_kmsg_done(msg);
}

static int __init pcn_remote_io_init(void)
{
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_FILE_WRITE,
					"file_write", sizeof(struct pcn_file_write_msg),
					sizeof(struct pcn_file_write_msg),
					pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_FILE_WRITE_DONE,
						 "file_write_done",
						 sizeof(struct pcn_file_write_msg),
						 sizeof(struct pcn_file_write_msg));
	return ret;
}
late_initcall(pcn_remote_io_init);
