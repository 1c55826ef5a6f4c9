// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of popcorn_get_node_info, popcorn_get_thread_status and the
 * argument checks of popcorn_migrate.
 *
 *   test_nodeinfo NID NR_NODES ONLINE_LIST
 *
 * NID is the id this node must report (-1: Popcorn must be disabled),
 * NR_NODES the length of pcn.nodes, ONLINE_LIST the comma-separated ids
 * that must be online (empty string: none).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define popcorn_thread_status	popcorn_kernel_thread_status
#define popcorn_node_info	popcorn_kernel_node_info
#include <linux/popcorn.h>
#undef popcorn_thread_status
#undef popcorn_node_info

#include "../popcorn.h"
#include "tap.h"

#define GUARD 8

static int expect_err(int ret, int err)
{
	return ret == -1 && errno == err;
}

static void parse_online(const char *list, int *online)
{
	char *copy = strdup(list), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		online[atoi(tok)] = 1;
	free(copy);
}

static void check_node_info(int nid, int online[])
{
	struct popcorn_kernel_node_info ni[POPCORN_MAX_NODES + GUARD];
	int my_nid = -42, i, ret, ok_status = 1, ok_arch = 1;
	int ok_guard = 1;

	memset(ni, 0xa5, sizeof(ni));
	ret = popcorn_sys_get_node_info(&my_nid, ni, POPCORN_MAX_NODES);
	tap_check(ret == 0, "get_node_info returns 0 (got %d, errno %d)",
		  ret, ret ? errno : 0);
	tap_check(my_nid == nid, "get_node_info: my_nid is %d (got %d)",
		  nid, my_nid);
	for (i = 0; i < POPCORN_MAX_NODES; i++) {
		if (ni[i].status != (online[i] ? POPCORN_STATUS_ONLINE :
						 POPCORN_STATUS_OFFLINE))
			ok_status = 0;
		if (ni[i].arch != (online[i] ? POPCORN_ARCH_X86 :
					       POPCORN_ARCH_UNKNOWN))
			ok_arch = 0;
	}
	tap_check(ok_status, "get_node_info: online nodes as expected");
	tap_check(ok_arch, "get_node_info: arch x86 for online nodes, unknown otherwise");
	if (nid >= 0)
		tap_check(ni[nid].status == POPCORN_STATUS_ONLINE &&
			  ni[nid].arch == POPCORN_ARCH_X86,
			  "get_node_info: own node %d online, arch x86", nid);

	/* len above the maximum is clipped: entries past it untouched */
	memset(ni, 0xa5, sizeof(ni));
	ret = popcorn_sys_get_node_info(&my_nid, ni, POPCORN_MAX_NODES + GUARD);
	for (i = POPCORN_MAX_NODES; i < POPCORN_MAX_NODES + GUARD; i++)
		if (ni[i].status != 0xa5a5a5a5u)
			ok_guard = 0;
	tap_check(ret == 0 && ok_guard,
		  "get_node_info: len above POPCORN_MAX_NODES is clipped");
	ret = popcorn_sys_get_node_info(&my_nid, ni, 1 << 30);
	tap_check(ret == 0, "get_node_info: huge len is clipped, no error");

	/* len 0: only my_nid is written */
	my_nid = -42;
	ret = popcorn_sys_get_node_info(&my_nid, NULL, 0);
	tap_check(ret == 0 && my_nid == nid, "get_node_info: len 0 with NULL info");

	tap_check(expect_err(popcorn_sys_get_node_info(&my_nid, ni, -1), EINVAL),
		  "get_node_info: negative len gives EINVAL");
	tap_check(expect_err(popcorn_sys_get_node_info((int *)8, ni, 1), EFAULT),
		  "get_node_info: bad my_nid pointer gives EFAULT");
	tap_check(expect_err(popcorn_sys_get_node_info(NULL, ni, 1), EFAULT),
		  "get_node_info: NULL my_nid gives EFAULT");
	tap_check(expect_err(popcorn_sys_get_node_info(&my_nid, (void *)8, 1), EFAULT),
		  "get_node_info: bad info pointer gives EFAULT");
	tap_check(expect_err(popcorn_sys_get_node_info(&my_nid,
						       (void *)0xffff800000000000ul, 1),
			     EFAULT),
		  "get_node_info: kernel address as info gives EFAULT");
}

static void check_thread_status(int nid)
{
	struct popcorn_kernel_thread_status st;
	struct popcorn_thread_status lib;
	int ret;

	memset(&st, 0x5a, sizeof(st));
	ret = popcorn_sys_get_thread_status(&st);
	tap_check(ret == 0, "get_thread_status returns 0");
	tap_check(st.current_nid == nid && st.peer_nid == nid,
		  "get_thread_status: current_nid = peer_nid = %d (got %d, %d)",
		  nid, st.current_nid, st.peer_nid);
	tap_check(st.peer_pid == (pid_t)syscall(SYS_gettid),
		  "get_thread_status: not migrated, peer_pid is own tid");
	tap_check(st.proposed_nid == -1,
		  "get_thread_status: no migration proposed (got %d)",
		  st.proposed_nid);
	tap_check(expect_err(popcorn_sys_get_thread_status((void *)8), EFAULT),
		  "get_thread_status: bad pointer gives EFAULT");
	tap_check(popcorn_get_status(&lib) == 0 && lib.current_nid == nid &&
		  popcorn_current_nid() == nid &&
		  popcorn_gettid() == (int)syscall(SYS_gettid),
		  "libpopcorn: popcorn_get_status/current_nid/gettid agree");
}

static void check_migrate_errors(int nid, int nr_nodes, int online[])
{
	int other;

	if (nid < 0) {
		tap_check(expect_err(popcorn_sys_migrate(0, NULL), ENODEV),
			  "migrate with Popcorn disabled gives ENODEV");
		return;
	}
	tap_check(expect_err(popcorn_sys_migrate(nid, NULL), EBUSY),
		  "migrate to own node gives EBUSY");
	tap_check(expect_err(popcorn_sys_migrate(nr_nodes, NULL), EINVAL),
		  "migrate to node %d (past pcn.nodes) gives EINVAL", nr_nodes);
	tap_check(expect_err(popcorn_sys_migrate(-1, NULL), EINVAL),
		  "migrate to node -1 gives EINVAL");
	tap_check(expect_err(popcorn_sys_migrate(POPCORN_MAX_NODES + 100, NULL), EINVAL),
		  "migrate to node far out of range gives EINVAL");
	for (other = 0; other < nr_nodes; other++)
		if (!online[other])
			break;
	if (other < nr_nodes)
		tap_check(expect_err(popcorn_sys_migrate(other, NULL), EAGAIN),
			  "migrate to offline node %d gives EAGAIN", other);
	for (other = 0; other < nr_nodes; other++)
		if (online[other] && other != nid)
			break;
	if (other < nr_nodes)
		tap_check(expect_err(popcorn_sys_migrate(other, (void *)8), EFAULT),
			  "migrate to online node %d with a bad uregs gives EFAULT",
			  other);
}

int main(int argc, char **argv)
{
	int online[POPCORN_MAX_NODES] = { 0 };
	int nid, nr_nodes;

	if (argc != 4) {
		fprintf(stderr, "usage: %s NID NR_NODES ONLINE_LIST\n", argv[0]);
		return 2;
	}
	nid = atoi(argv[1]);
	nr_nodes = atoi(argv[2]);
	parse_online(argv[3], online);

	check_node_info(nid, online);
	check_thread_status(nid);
	check_migrate_errors(nid, nr_nodes, online);
	return tap_failed ? 1 : 0;
}
