/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn process server: the distributed-process context at the origin
 * and the remote workers that stand for it on other nodes.
 */
#ifndef _POPCORN_PROCESS_SERVER_H
#define _POPCORN_PROCESS_SERVER_H

/*
 * Make sure node @nid has a remote worker for the calling process,
 * creating the process's remote context on first use.  May sleep.
 * Return: 0, or -errno (-EAGAIN node offline, -ETIMEDOUT, -ENOMEM, or
 * the remote's refusal).
 */
int pcn_process_prepare(int nid);

/* Node @nid went offline: end the workers of processes originating there. */
void pcn_process_node_offline(int nid);

#endif /* _POPCORN_PROCESS_SERVER_H */
