// SPDX-License-Identifier: GPL-2.0
/*
 * User register state of a migrating thread (x86-64): general registers
 * from the thread's pt_regs, FS/GS base, and the x87/SSE state in FXSAVE
 * format.  Both ends run the same kernel on x86-64, so the state moves
 * as is; what comes from the network is checked before it is loaded.
 */
#include <linux/ptrace.h>
#include <linux/regset.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <asm/fpu/api.h>
#include <asm/fpu/regset.h>
#include <asm/fpu/types.h>
#include <asm/fsgsbase.h>
#include <asm/processor.h>
#include <asm/proto.h>
#include <asm/prctl.h>
#include <asm/ptrace.h>
#include <asm/segment.h>

#include "regs.h"
/* copy_uabi_from_kernel_to_xstate(): arch/x86/kernel/fpu/, internal.h first. */
#include "internal.h"
#include "xstate.h"

/* Flags user space may set (as ptrace allows, without TF and RF). */
#define PCN_USER_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_DF | \
			 X86_EFLAGS_OF | X86_EFLAGS_AC)

/*
 * MXCSR bits every SSE2 CPU accepts (the architectural default mask;
 * DAZ, bit 6, is left out as not all CPUs have it).
 */
#define PCN_MXCSR_MASK	0xffbf

void pcn_regs_save(struct pcn_uregs *r,
		   const struct popcorn_regset_x86_64 *u)
{
	struct pt_regs *regs = current_pt_regs();
	struct membuf fx = { .p = r->fx, .left = sizeof(r->fx) };

	memset(r, 0, sizeof(*r));
	r->ip = regs->ip;
	r->sp = regs->sp;
	r->flags = regs->flags;
	r->ax = 0;		/* popcorn_migrate() returns 0 there */
	r->bx = regs->bx;
	r->cx = regs->cx;
	r->dx = regs->dx;
	r->si = regs->si;
	r->di = regs->di;
	r->bp = regs->bp;
	r->r8 = regs->r8;
	r->r9 = regs->r9;
	r->r10 = regs->r10;
	r->r11 = regs->r11;
	r->r12 = regs->r12;
	r->r13 = regs->r13;
	r->r14 = regs->r14;
	r->r15 = regs->r15;
	if (u) {
		r->ip = u->rip;
		r->sp = u->rsp;
		r->flags = u->rflags;
		r->ax = u->rax;
		r->bx = u->rbx;
		r->cx = u->rcx;
		r->dx = u->rdx;
		r->si = u->rsi;
		r->di = u->rdi;
		r->bp = u->rbp;
		r->r8 = u->r8;
		r->r9 = u->r9;
		r->r10 = u->r10;
		r->r11 = u->r11;
		r->r12 = u->r12;
		r->r13 = u->r13;
		r->r14 = u->r14;
		r->r15 = u->r15;
	}
	r->fsbase = x86_fsbase_read_task(current);
	r->gsbase = x86_gsbase_read_task(current);
	/* Saves live registers first; copes with XSAVE's init optimisation. */
	xfpregs_get(current, NULL, fx);
	if (u)
		memcpy(r->fx + PCN_FX_XMM_OFFSET, u->xmm, sizeof(u->xmm));
}

/*
 * rip and rsp must be user addresses: the other end would refuse the
 * thread, after it has left.  The fields of struct popcorn_regset_x86_64
 * that are not taken: the x87 and MMX registers (st, mmx) must be zero;
 * the segment selectors zero or the thread's own (what a copy of the
 * live registers holds).
 */
int pcn_uregs_check(const struct popcorn_regset_x86_64 *u)
{
	struct pt_regs *regs = current_pt_regs();
	unsigned short ds, es, fs, gs;
	int i;

	if (u->rip >= TASK_SIZE_MAX || u->rsp >= TASK_SIZE_MAX)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(u->mmx); i++)
		if (u->mmx[i])
			return -EINVAL;
	if (memchr_inv(u->st, 0, sizeof(u->st)))
		return -EINVAL;
	savesegment(ds, ds);
	savesegment(es, es);
	savesegment(fs, fs);
	savesegment(gs, gs);
	if ((u->cs && u->cs != regs->cs) || (u->ss && u->ss != regs->ss) ||
	    (u->ds && u->ds != ds) || (u->es && u->es != es) ||
	    (u->fs && u->fs != fs) || (u->gs && u->gs != gs))
		return -EINVAL;
	return 0;
}

u32 pcn_xstate_save(u8 *buf)
{
	struct membuf to = { .p = buf, .left = fpu_user_cfg.max_size };

	if (!cpu_feature_enabled(X86_FEATURE_XSAVE))
		return 0;
	if (fpu_user_cfg.max_size > PCN_XSTATE_MAX) {
		/* AMX tile data, for one: not carried. */
		pr_warn_once("popcorn: an XSAVE image of %u bytes is over %u: x87/SSE state only\n",
			     fpu_user_cfg.max_size, PCN_XSTATE_MAX);
		return 0;
	}
	/* Saves live registers first, as xfpregs_get() does. */
	if (xstateregs_get(current, NULL, to))
		return 0;
	return fpu_user_cfg.max_size;
}

/*
 * As ptrace's xstateregs_set() loads a debugger's image into a stopped
 * task, with the same checks (header, xfeatures, MXCSR), but into the
 * caller's own state, which xstateregs_set() may not be given
 * (fpu_force_restore() warns under CONFIG_X86_DEBUG_FPU): the live
 * registers are saved first and kept from being saved again over the
 * new image (fpregs_lock()) until it is marked to be loaded on the way
 * out to user space.
 */
void pcn_xstate_load(const u8 *buf, u32 size)
{
	struct fpu *fpu = &current->thread.fpu;
	int ret;

	if (!size)
		return;
	if (!cpu_feature_enabled(X86_FEATURE_XSAVE) ||
	    size != fpu_user_cfg.max_size || size > PCN_XSTATE_MAX) {
		pr_warn_once("popcorn: an XSAVE image of %u bytes (%u here): x87/SSE state only\n",
			     size, fpu_user_cfg.max_size);
		return;
	}
	fpu_sync_fpstate(fpu);
	fpregs_lock();
	ret = copy_uabi_from_kernel_to_xstate(fpu->fpstate, buf,
					      &current->thread.pkru);
	fpu->last_cpu = -1;
	set_thread_flag(TIF_NEED_FPU_LOAD);
	fpregs_unlock();
	if (ret)
		pr_warn_ratelimited("popcorn: thread %d: XSAVE image refused (%d): x87/SSE state only\n",
				    task_pid_nr(current), ret);
}

void pcn_xstate_set_xmm(u8 *buf, const void *xmm)
{
	const size_t at = offsetof(struct xregs_state, header.xfeatures);
	u64 xfeatures;

	memcpy(buf + PCN_FX_XMM_OFFSET, xmm, 16 * 16);
	/*
	 * Registers in their initial state may be left out of the image
	 * (XSAVE's init optimisation): xstateregs_set() would then not
	 * take ours.
	 */
	memcpy(&xfeatures, buf + at, sizeof(xfeatures));
	xfeatures |= XFEATURE_MASK_SSE;
	memcpy(buf + at, &xfeatures, sizeof(xfeatures));
}

bool pcn_regs_valid(const struct pcn_uregs *r)
{
	return r->ip < TASK_SIZE_MAX && r->sp < TASK_SIZE_MAX &&
	       r->fsbase < TASK_SIZE_MAX && r->gsbase < TASK_SIZE_MAX;
}

/*
 * Replace the calling thread's x87/SSE state.  The registers may be
 * live: save them so that the other xstate components stay what they
 * were, overwrite the legacy area and force a reload from memory on the
 * way out to user space.
 */
static void pcn_fpu_load(const u8 *image)
{
	struct fpu *fpu = &current->thread.fpu;
	struct fxregs_state *fx;
	u32 mask;

	fpu_sync_fpstate(fpu);
	fpregs_lock();
	fx = &fpu->fpstate->regs.fxsave;
	mask = fx->mxcsr_mask;
	memcpy(fx, image, sizeof(*fx));
	fx->mxcsr_mask = mask;
	/* Reserved MXCSR bits would fault when the state is restored. */
	fx->mxcsr &= PCN_MXCSR_MASK;
	if (cpu_feature_enabled(X86_FEATURE_XSAVE))
		fpu->fpstate->regs.xsave.header.xfeatures |=
			XFEATURE_MASK_FPSSE;
	fpu->last_cpu = -1;
	set_thread_flag(TIF_NEED_FPU_LOAD);
	fpregs_unlock();
}

void pcn_regs_load(const struct pcn_uregs *r)
{
	struct pt_regs *regs = current_pt_regs();

	regs->ip = r->ip;
	regs->sp = r->sp;
	regs->flags = (r->flags & PCN_USER_FLAGS) | X86_EFLAGS_IF |
		      X86_EFLAGS_FIXED;
	regs->ax = r->ax;
	regs->bx = r->bx;
	regs->cx = r->cx;
	regs->dx = r->dx;
	regs->si = r->si;
	regs->di = r->di;
	regs->bp = r->bp;
	regs->r8 = r->r8;
	regs->r9 = r->r9;
	regs->r10 = r->r10;
	regs->r11 = r->r11;
	regs->r12 = r->r12;
	regs->r13 = r->r13;
	regs->r14 = r->r14;
	regs->r15 = r->r15;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	do_arch_prctl_64(current, ARCH_SET_FS, r->fsbase);
	do_arch_prctl_64(current, ARCH_SET_GS, r->gsbase);
	pcn_fpu_load(r->fx);
}
