/* SPDX-License-Identifier: GPL-2.0 */
/* Saving and loading the user registers of a migrating thread (x86-64). */
#ifndef _POPCORN_REGS_H
#define _POPCORN_REGS_H

#include <uapi/linux/popcorn.h>

#include "messages.h"

/*
 * Fill @r with the calling thread's user state as it should continue
 * after popcorn_migrate() returns 0: its system call registers, or the
 * general registers of @uregs when given; FS/GS base and x87/SSE state.
 */
void pcn_regs_save(struct pcn_uregs *r,
		   const struct popcorn_regset_x86_64 *uregs);
/* Registers from the network: only user addresses are acceptable. */
bool pcn_regs_valid(const struct pcn_uregs *r);
/* Make @r the calling thread's user state on its return to user space. */
void pcn_regs_load(const struct pcn_uregs *r);
/*
 * The calling thread's XSAVE state into @buf (PCN_XSTATE_MAX bytes) in
 * the standard format; its size, or 0 when it cannot be carried.
 */
u32 pcn_xstate_save(u8 *buf);
/* Make @buf of @size bytes the calling thread's XSAVE state, if valid. */
void pcn_xstate_load(const u8 *buf, u32 size);
/* Put @xmm (16 registers) into the XSAVE image @buf, marked in use. */
void pcn_xstate_set_xmm(u8 *buf, const void *xmm);
/* A register set from user space: 0, or -EINVAL for an ignored field set. */
int pcn_uregs_check(const struct popcorn_regset_x86_64 *u);
/* Where FXSAVE and XSAVE images keep xmm0-15. */
#define PCN_FX_XMM_OFFSET	160

#endif /* _POPCORN_REGS_H */
