/* SPDX-License-Identifier: GPL-2.0 */
/* A seccomp filter of a distributed process (seccomp.c). */
#ifndef _POPCORN_SECCOMP_H
#define _POPCORN_SECCOMP_H

struct pt_regs;

bool pcn_seccomp_on(void);
int pcn_remote_filtered(struct pt_regs *regs, const char *abi, int nr);

#endif /* _POPCORN_SECCOMP_H */
