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

#endif /* _POPCORN_REGS_H */
