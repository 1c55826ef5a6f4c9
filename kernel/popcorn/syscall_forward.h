/* SPDX-License-Identifier: GPL-2.0 */
/* System calls of migrated threads: classes, forwarding. */
#ifndef _POPCORN_SYSCALL_FORWARD_H
#define _POPCORN_SYSCALL_FORWARD_H

#include <linux/types.h>

struct pcn_kmsg_hdr;
struct pcn_syscall_msg;
struct pt_regs;
struct remote_context;

/* What becomes of a 64-bit system call of a thread at a remote. */
enum pcn_sys_class {
	PCN_SYS_FORWARD = 0,	/* made at the origin by the shadow */
	PCN_SYS_LOCAL,		/* made where the thread runs */
	PCN_SYS_SELF,		/* local on pid 0 (itself), else forwarded */
	PCN_SYS_GETPID,		/* answered with the origin's process id */
	PCN_SYS_GETTID,		/* answered with the origin's thread id */
	PCN_SYS_HOME,		/* the thread goes home and makes it there */
	PCN_SYS_REFUSED,	/* -EOPNOTSUPP */
};

/* remote_syscalls.c */
enum pcn_sys_class pcn_syscall_class(unsigned int nr);
/* A forwarded call refused for its first argument. */
bool pcn_syscall_refused_args(unsigned int nr, u64 arg0);

/* syscall_forward.c, at the remote: the result goes to regs->ax. */
void pcn_syscall_forward(struct pt_regs *regs, int nr);
/* At the remote: go home and make the call there (does not return). */
void pcn_syscall_at_origin(struct pt_regs *regs);
/* In the shadow, at the origin: make the call of SYSCALL @msg, answer. */
void pcn_syscall_serve(struct remote_context *ctx, int nid, pid_t remote_pid,
		       struct pcn_kmsg_hdr *msg);
void pcn_syscall_reply(int nid, struct pcn_kmsg_hdr *msg, long ret,
		       u32 flags);
/* May a shadow make the call SYSCALL @m asks for?  (From the network.) */
bool pcn_syscall_msg_ok(const struct pcn_syscall_msg *m);

/*
 * migrate.c, at the remote: back to the origin, which restarts the call,
 * or goes on after it with the registers as they are.  Return only with
 * an error.
 */
int pcn_migrate_back_restart(void);
int pcn_migrate_back_as_is(void);

#endif /* _POPCORN_SYSCALL_FORWARD_H */
