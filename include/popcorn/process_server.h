/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn process server: the distributed-process context at the origin
 * and the remote workers that stand for it on other nodes.
 */
#ifndef _POPCORN_PROCESS_SERVER_H
#define _POPCORN_PROCESS_SERVER_H

#include <uapi/linux/popcorn.h>

/*
 * Make sure node @nid has a remote worker for the calling process,
 * creating the process's remote context on first use.  May sleep.
 * Return: 0, or -errno (-EAGAIN node offline, -ETIMEDOUT, -ENOMEM, or
 * the remote's refusal).
 */
int pcn_process_prepare(int nid);

/*
 * popcorn_migrate() once its arguments are checked: move the calling
 * thread to @nid (or back to its origin), with @uregs if not NULL.
 * Returns 0 where the thread continues, or -errno where it called.
 */
long pcn_migrate(int nid, const struct popcorn_regset_x86_64 *uregs);
/* popcorn_get_thread_status() of the calling thread. */
void pcn_thread_status(struct popcorn_thread_status *st);

#endif /* _POPCORN_PROCESS_SERVER_H */
