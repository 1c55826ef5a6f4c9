// SPDX-License-Identifier: LGPL-2.1
/*
 * libpopcorn: the popcorn-kernel-lib API (popcorn.h) on the Popcorn
 * system calls.
 *
 * The kernel's structures (include/uapi/linux/popcorn.h) and the
 * library's share names, so the kernel's are renamed while its header is
 * included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define popcorn_thread_status	popcorn_kernel_thread_status
#define popcorn_node_info	popcorn_kernel_node_info
#include <linux/popcorn.h>
#undef popcorn_thread_status
#undef popcorn_node_info

#include "popcorn.h"

_Static_assert(POPCORN_PLACE_ALL == POPCORN_PLACE_ALL_NODES &&
	       POPCORN_PLACE_NOW == POPCORN_PLACE_EXISTING &&
	       POPCORN_PLACE_WITH_MAIN == POPCORN_PLACE_MAIN,
	       "placement constants as the kernel's");
_Static_assert(MAX_POPCORN_NODES == POPCORN_MAX_NODES,
	       "node limit differs from the kernel's");
_Static_assert(MADV_RELEASE == 0x5043, "MADV_RELEASE differs from the kernel's");
/* The node table is the kernel's, entry for entry. */
_Static_assert(sizeof(struct popcorn_node_info) ==
	       sizeof(struct popcorn_kernel_node_info), "node info layout");
_Static_assert(POPCORN_NODE_X86 == POPCORN_ARCH_X86 &&
	       POPCORN_NODE_UNKNOWN == POPCORN_ARCH_UNKNOWN &&
	       POPCORN_NODE_ONLINE == POPCORN_STATUS_ONLINE, "node info values");

int popcorn_sys_migrate(int nid, void *uregs)
{
	return syscall(POPCORN_SYS_MIGRATE, nid, uregs);
}

int popcorn_sys_get_thread_status(void *kernel_status)
{
	return syscall(POPCORN_SYS_GET_THREAD_STATUS, kernel_status);
}

int popcorn_sys_get_node_info(int *my_nid, void *kernel_info, int len)
{
	return syscall(POPCORN_SYS_GET_NODE_INFO, my_nid, kernel_info, len);
}

int popcorn_sys_propose_migration(int tid, int nid)
{
	return syscall(POPCORN_SYS_PROPOSE_MIGRATION, tid, nid);
}

int popcorn_sys_set_placement(int pid, unsigned long nodes, unsigned int flags)
{
	return syscall(POPCORN_SYS_SET_PLACEMENT, pid, nodes, flags);
}

int popcorn_set_placement(int pid, unsigned long nodes, unsigned int flags)
{
	return popcorn_sys_set_placement(pid, nodes, flags);
}

int popcorn_get_status(struct popcorn_thread_status *status)
{
	struct popcorn_kernel_thread_status ks;

	if (popcorn_sys_get_thread_status(&ks))
		return -1;
	status->current_nid = ks.current_nid;
	status->proposed_nid = ks.proposed_nid;
	status->peer_nid = ks.peer_nid;
	status->peer_pid = ks.peer_pid;
	return 0;
}

int migrate(int nid, void (*callback)(void *), void *callback_param)
{
	struct popcorn_thread_status st;
	int saved = errno, ret = 0;

	if (nid == -1) {
		/*
		 * The kernel moves a thread with a proposal on its way out
		 * of its next system call: it may be there already.
		 */
		if (popcorn_get_status(&st))
			ret = errno;
		else if (st.proposed_nid < 0)
			ret = EINVAL;
		else if (popcorn_current_nid() == st.proposed_nid)
			nid = -2;
		else
			nid = st.proposed_nid;
	}
	if (!ret && nid != -2 && popcorn_sys_migrate(nid, NULL))
		ret = errno;
	errno = saved;
	if (ret)
		return ret;
	if (callback)
		callback(callback_param);
	return 0;
}

int popcorn_migrate(int nid)
{
	return migrate(nid, NULL, NULL);
}

int popcorn_propose_migration(int tid, int nid)
{
	return popcorn_sys_propose_migration(tid, nid);
}

int popcorn_get_node_info(int *current_nid, struct popcorn_node_info *info)
{
	return popcorn_sys_get_node_info(current_nid, info, MAX_POPCORN_NODES);
}

int popcorn_gettid(void)
{
	return syscall(SYS_gettid);
}

/*
 * The thread schedule: lines of "REGION N NODE_0 ... NODE_N-1" giving
 * the node of each Popcorn thread id in a region; region -1 is the
 * default for regions without a line.  Read once, at the first call.
 */
struct pcn_schedule_line {
	long region;
	int n;
	int *node;
};

static struct pcn_schedule_line *pcn_schedule;
static int pcn_schedule_lines;

static void pcn_schedule_read(void)
{
	const char *name = getenv("POPCORN_THREAD_SCHEDULE");
	struct pcn_schedule_line l, *grown;
	FILE *f;
	int i;

	f = fopen(name ? name : "thread-schedule.txt", "r");
	if (!f)
		return;
	while (fscanf(f, "%ld %d", &l.region, &l.n) == 2) {
		if (l.n <= 0 || l.n > 1 << 20)
			break;
		l.node = calloc(l.n, sizeof(*l.node));
		if (!l.node)
			break;
		for (i = 0; i < l.n; i++)
			if (fscanf(f, "%d", &l.node[i]) != 1)
				break;
		grown = i < l.n ? NULL :
			realloc(pcn_schedule, (pcn_schedule_lines + 1) *
					      sizeof(*pcn_schedule));
		if (!grown) {
			fprintf(stderr, "libpopcorn: thread schedule: bad line for region %ld\n",
				l.region);
			free(l.node);
			break;
		}
		pcn_schedule = grown;
		pcn_schedule[pcn_schedule_lines++] = l;
	}
	fclose(f);
}

static int pcn_schedule_node(size_t region, int ptid)
{
	const struct pcn_schedule_line *def = NULL;
	int i;

	for (i = 0; i < pcn_schedule_lines; i++) {
		if (pcn_schedule[i].region == -1)
			def = &pcn_schedule[i];
		if (pcn_schedule[i].region == (long)region &&
		    ptid >= 0 && ptid < pcn_schedule[i].n)
			return pcn_schedule[i].node[ptid];
	}
	if (def && ptid >= 0 && ptid < def->n)
		return def->node[ptid];
	return 0;
}

void migrate_schedule(size_t region, int popcorn_tid,
		      void (*callback)(void *), void *callback_data)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int nid;

	pthread_once(&once, pcn_schedule_read);
	nid = pcn_schedule_node(region, popcorn_tid);
	/* Already there: the callback runs all the same. */
	if (nid == popcorn_current_nid()) {
		if (callback)
			callback(callback_data);
		return;
	}
	migrate(nid, callback, callback_data);
}
