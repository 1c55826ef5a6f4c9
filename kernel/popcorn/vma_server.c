// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn VMA server.
 *
 * The origin owns the VMAs of a distributed process.  A remote thread
 * that faults on an address its node has no VMA for asks the origin
 * (VMA_REQUEST) and maps the same range with the same protection: the
 * same file at the same offset when the origin's VMA maps a file (all
 * nodes have the same files), anonymous memory otherwise.  Its pages
 * come from the origin through the page server either way.
 *
 * mmap, munmap, brk, mprotect, mremap and madvise of a remote thread run
 * at the origin, in its shadow (which has the process's mm and files):
 * VMA_OP, answered by VMA_OP_DONE.  Every node's VMAs follow the
 * origin's (vma_mirror.c): before the answer, every node, the caller's
 * included, drops its VMAs in the changed ranges and fetches them anew.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/namei.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <popcorn/hooks.h>
#include <popcorn/pcn_kmsg.h>

#include "context.h"
#include "messages.h"

#define PCN_VMA_TIMEOUT		(10 * HZ)
#define PCN_VMA_TRIES		8
#define PCN_VM_PROT		(VM_READ | VM_WRITE | VM_EXEC)

/* ---- VMA info ---------------------------------------------------------- */

static int pcn_vma_describe(struct mm_struct *mm, unsigned long addr,
			    struct pcn_vma_resp *resp, char *buf)
{
	struct vm_area_struct *vma;
	char *path;

	mmap_read_lock(mm);
	vma = find_vma(mm, addr);
	if (vma && addr < vma->vm_start && (vma->vm_flags & VM_GROWSDOWN)) {
		/* The remote's stack grows: grow the origin's. */
		vma = expand_stack(mm, addr);
		if (!vma)
			return -EFAULT;		/* lock dropped */
	}
	if (!vma || addr < vma->vm_start) {
		mmap_read_unlock(mm);
		return -EFAULT;
	}
	if ((vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP | VM_MIXEDMAP |
			      VM_HUGETLB)) ||
	    (!vma_is_anonymous(vma) && !vma->vm_file)) {
		/* Shared and special mappings are not distributed. */
		mmap_read_unlock(mm);
		return -ENXIO;
	}
	resp->start = vma->vm_start;
	resp->end = vma->vm_end;
	resp->vm_flags = vma->vm_flags & PCN_VM_PROT;
	resp->pgoff = vma->vm_pgoff;
	if (vma->vm_file) {
		path = d_path(&vma->vm_file->f_path, buf, PCN_PATH_MAX);
		if (!IS_ERR(path))
			strscpy(resp->path, path, sizeof(resp->path));
	}
	mmap_read_unlock(mm);
	return 0;
}

static void pcn_handle_vma_request(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_vma_req *req = (struct pcn_vma_req *)msg;
	struct remote_context *ctx = pcn_context_get(req->ctx_id);
	struct pcn_vma_resp *resp = kzalloc(sizeof(*resp), GFP_KERNEL);
	char *buf = kmalloc(PCN_PATH_MAX, GFP_KERNEL);
	struct pcn_vma_resp nomem = { .error = -ENOMEM };
	int err = -ESRCH;

	if (!resp || !buf) {
		/* Still answer: the remote's fault waits for it. */
		kfree(resp);
		resp = &nomem;
		err = -ENOMEM;
		goto reply;
	}
	if (ctx && test_bit(nid, ctx->asked) && req->addr < TASK_SIZE_MAX &&
	    mmget_not_zero(ctx->mm)) {
		err = pcn_vma_describe(ctx->mm, req->addr, resp, buf);
		mmput(ctx->mm);
	}
reply:
	resp->hdr.type = PCN_KMSG_TYPE_VMA_RESPONSE;
	resp->ctx_id = req->ctx_id;
	resp->addr = req->addr;
	resp->error = err;
	pcn_kmsg_reply(nid, msg, resp, sizeof(*resp));
	kfree(buf);
	if (resp != &nomem)
		kfree(resp);
	if (ctx)
		pcn_context_put(ctx);
	pcn_kmsg_done(msg);
}

static bool pcn_vma_resp_ok(const struct pcn_vma_resp *r, u32 id,
			    unsigned long addr)
{
	return r->ctx_id == id && r->addr == addr && !r->error &&
	       r->start <= addr && addr < r->end && r->end <= TASK_SIZE_MAX &&
	       !(r->start & ~PAGE_MASK) && !(r->end & ~PAGE_MASK) &&
	       !(r->vm_flags & ~PCN_VM_PROT) &&
	       r->pgoff < (LONG_MAX >> PAGE_SHIFT) &&
	       memchr(r->path, '\0', sizeof(r->path));
}

/*
 * The file of a private mapping, opened as the faulting thread (whose
 * credentials are the origin thread's): a regular file it may read.
 * Opening anything else may act (a device), so it is refused, as is a
 * file the thread could not open at the origin either.  A file that
 * does not exist here is no error: NULL, and the VMA is anonymous (its
 * pages come from the origin in any case).
 */
static struct file *pcn_vma_open(const char *name)
{
	struct file *file;
	struct path path;
	int err;

	err = kern_path(name, LOOKUP_FOLLOW, &path);
	if (err)
		return err == -ENOENT ? NULL : ERR_PTR(err);
	if (!d_is_reg(path.dentry)) {
		file = ERR_PTR(-EACCES);
		goto out;
	}
	err = inode_permission(mnt_user_ns(path.mnt), d_inode(path.dentry),
			       MAY_READ);
	file = err ? ERR_PTR(err) :
		     dentry_open(&path, O_RDONLY | O_LARGEFILE, current_cred());
out:
	path_put(&path);
	return file;
}

/*
 * Map the origin's VMA @r around @addr, where this node has none, unless
 * a VMA_DROP came since the origin was asked (@drops: the count then,
 * -1 to map anyway): the answer may describe a VMA the origin has
 * changed since.  False when it did not map for that reason.
 */
static bool pcn_vma_install(struct remote_context *ctx, struct mm_struct *mm,
			    unsigned long addr, const struct pcn_vma_resp *r,
			    int drops)
{
	bool done = true;
	unsigned long start = r->start, end = r->end, prot = 0, ret;
	unsigned long flags = MAP_PRIVATE | MAP_FIXED_NOREPLACE, populate;
	struct vm_area_struct *next, *prev;
	struct file *file = NULL;

	if (r->vm_flags & VM_READ)
		prot |= PROT_READ;
	if (r->vm_flags & VM_WRITE)
		prot |= PROT_WRITE;
	if (r->vm_flags & VM_EXEC)
		prot |= PROT_EXEC;
	if (r->path[0]) {
		file = pcn_vma_open(r->path);
		if (IS_ERR(file)) {
			pr_warn_ratelimited("thread %d (uid %u): file %s of the VMA at %lx cannot be mapped here (%ld): not mapped\n",
					    task_pid_nr(current),
					    from_kuid(&init_user_ns, current_uid()),
					    r->path, addr, PTR_ERR(file));
			return true;	/* the fault gives SIGSEGV */
		}
	}
	if (!file)
		flags |= MAP_ANONYMOUS;

	mmap_write_lock(mm);
	/* Maybe stale: the caller asks again. */
	if (drops >= 0 && atomic_read(&ctx->vma_drops) != drops) {
		done = false;
		goto out;
	}
	/* Only the hole around @addr: what is mapped here stays. */
	next = find_vma_prev(mm, addr, &prev);
	if (prev && prev->vm_end > start)
		start = prev->vm_end;
	if (next && next->vm_start < end)
		end = next->vm_start;
	if (next && next->vm_start <= addr)
		goto out;
	ret = do_mmap(file, start, end - start, prot, flags,
		      r->pgoff + ((start - r->start) >> PAGE_SHIFT), &populate,
		      NULL);
	if (IS_ERR_VALUE(ret) && ret != -EEXIST)
		pr_warn_ratelimited("mapping %lx-%lx failed: %ld\n", start, end,
				    (long)ret);
out:
	mmap_write_unlock(mm);
	if (file)
		fput(file);
	return done;
}

void __pcn_vma_fault(struct mm_struct *mm, unsigned long addr)
{
	struct remote_context *ctx = READ_ONCE(mm->remote);
	struct pcn_vma_req req = {
		.hdr.type = PCN_KMSG_TYPE_VMA_REQUEST,
	};
	struct pcn_kmsg_hdr *resp;
	struct vm_area_struct *vma;
	int drops, tries;
	bool done;

	if (!ctx || ctx->at_origin || addr >= TASK_SIZE_MAX ||
	    current->mm != mm)
		return;
	addr &= PAGE_MASK;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, addr);
	mmap_read_unlock(mm);
	if (vma)
		return;

	req.ctx_id = ctx->id;
	req.addr = addr;
	/*
	 * Asked again while VMA changes elsewhere keep coming in (threads
	 * being created, say); the last answer is mapped as it is.
	 */
	for (tries = 1; ; tries++) {
		drops = tries < PCN_VMA_TRIES ? atomic_read(&ctx->vma_drops) : -1;
		if (pcn_kmsg_request(ctx->origin_nid, &req, sizeof(req),
				     PCN_KMSG_TYPE_VMA_RESPONSE,
				     PCN_VMA_TIMEOUT, &resp))
			return;		/* the fault gives SIGSEGV */
		done = !pcn_vma_resp_ok((struct pcn_vma_resp *)resp, ctx->id,
					addr) ||
		       pcn_vma_install(ctx, mm, addr,
				       (struct pcn_vma_resp *)resp, drops);
		pcn_kmsg_done(resp);
		if (done)
			return;
	}
}

/* ---- address-space system calls ----------------------------------------- */

/* mmap is not here: it is run through ksys_mmap_pgoff(). */
static const unsigned int pcn_vma_op_nr[PCN_VMA_NR_OPS] = {
	[PCN_VMA_MUNMAP]	= __NR_munmap,
	[PCN_VMA_BRK]		= __NR_brk,
	[PCN_VMA_MPROTECT]	= __NR_mprotect,
	[PCN_VMA_MREMAP]	= __NR_mremap,
	[PCN_VMA_MADVISE]	= __NR_madvise,
};

bool __pcn_vma_syscall(enum pcn_vma_op op, const unsigned long *args,
		       long *ret)
{
	struct remote_context *ctx = READ_ONCE(current->mm->remote);
	struct pcn_vma_op_msg req = {
		.hdr.type = PCN_KMSG_TYPE_VMA_OP,
	};
	struct pcn_vma_op_msg *done;
	struct pcn_kmsg_hdr *resp;
	int i, err;

	if (!ctx || op >= PCN_VMA_NR_OPS)
		return false;
	if (ctx->at_origin) {
		/* A shadow's call is mirrored by pcn_vma_op_serve(). */
		if (pcn_current_is_shadow())
			return false;
		if (op == PCN_VMA_MADVISE && args[2] == MADV_RELEASE) {
			*ret = pcn_vma_release(ctx, args);
			return true;
		}
		*ret = pcn_vma_change_origin(ctx, op, args);
		return *ret != 0;
	}
	if (current->remote != ctx) {
		/* A thread created here has no shadow to run it. */
		*ret = -EOPNOTSUPP;
		return true;
	}

	req.ctx_id = ctx->id;
	req.shadow_pid = current->peer_pid;
	req.op = op;
	for (i = 0; i < 6; i++)
		req.args[i] = args[i];
	/*
	 * As long as the call takes at the origin: this node's VMAs in the
	 * changed ranges are dropped meanwhile (VMA_DROP), like every
	 * other node's, while the origin holds the change.
	 */
	err = pcn_kmsg_request_killable(ctx->origin_nid, &req, sizeof(req),
					PCN_KMSG_TYPE_VMA_OP_DONE, &resp);
	if (err) {
		*ret = err == -EINTR ? -EINTR : -EAGAIN;
		return true;
	}
	done = (struct pcn_vma_op_msg *)resp;
	if (done->ctx_id != ctx->id || done->op != op)
		*ret = -EPROTO;
	else
		*ret = done->ret;
	pcn_kmsg_done(resp);
	return true;
}

void pcn_vma_op_reply(int nid, struct pcn_kmsg_hdr *msg, long ret,
		      unsigned long old_brk)
{
	struct pcn_vma_op_msg *req = (struct pcn_vma_op_msg *)msg;
	struct pcn_vma_op_msg done = {
		.hdr.type = PCN_KMSG_TYPE_VMA_OP_DONE,
		.ctx_id = req->ctx_id,
		.shadow_pid = req->shadow_pid,
		.op = req->op,
		.args[0] = old_brk,
		.ret = ret,
	};

	pcn_kmsg_reply(nid, msg, &done, sizeof(done));
}

/* In the shadow: run a remote thread's call as if it made it here. */
void pcn_vma_op_serve(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_vma_op_msg *req = (struct pcn_vma_op_msg *)msg;
	struct remote_context *ctx = current->mm->remote;
	unsigned long old_brk = current->mm->brk;
	struct pcn_vma_change *ch = NULL;
	struct pt_regs regs = { };
	long ret = -EINVAL;

	if (req->op == PCN_VMA_MADVISE && req->args[2] == MADV_RELEASE) {
		ret = pcn_vma_release(ctx, (unsigned long *)req->args);
	} else if (req->op < PCN_VMA_NR_OPS) {
		ch = pcn_vma_change_begin(ctx, req->op,
					  (unsigned long *)req->args);
		if (!ch)
			ret = -ENOMEM;
	}
	if (!ch) {
		/* Not run (or MADV_RELEASE): VMAs unchanged. */
	} else if (req->op == PCN_VMA_MMAP) {
		/* The hook saw ksys_mmap_pgoff(): offset in pages. */
		ret = ksys_mmap_pgoff(req->args[0], req->args[1], req->args[2],
				      req->args[3], req->args[4],
				      req->args[5]);
	} else if (req->op < PCN_VMA_NR_OPS) {
		regs.di = req->args[0];
		regs.si = req->args[1];
		regs.dx = req->args[2];
		regs.r10 = req->args[3];
		regs.r8 = req->args[4];
		regs.r9 = req->args[5];
		regs.orig_ax = pcn_vma_op_nr[req->op];
		ret = x64_sys_call(&regs, pcn_vma_op_nr[req->op]);
	}
	/* Every node, the caller's too, drops the changed ranges. */
	if (ch)
		pcn_vma_change_end(ch, ret, -1);
	pcn_vma_op_reply(nid, msg, ret, old_brk);
	pcn_kmsg_done(msg);
}

static int __init pcn_vma_server_init(void)
{
	size_t osize = sizeof(struct pcn_vma_op_msg);
	int ret;

	ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_VMA_REQUEST,
					"vma_request",
					sizeof(struct pcn_vma_req),
					sizeof(struct pcn_vma_req),
					pcn_handle_vma_request);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_VMA_RESPONSE,
						 "vma_response",
						 sizeof(struct pcn_vma_resp),
						 sizeof(struct pcn_vma_resp));
	if (!ret)
		ret = pcn_kmsg_register_handler(PCN_KMSG_TYPE_VMA_OP, "vma_op",
						osize, osize,
						pcn_handle_shadow_msg);
	if (!ret)
		ret = pcn_kmsg_register_response(PCN_KMSG_TYPE_VMA_OP_DONE,
						 "vma_op_done", osize, osize);
	return ret;
}
late_initcall(pcn_vma_server_init);
