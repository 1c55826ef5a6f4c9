// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test: a migrated thread runs with its credentials and rlimits
 * at the remote, and a change at the origin reaches it.  Run as root at
 * the origin:
 *
 *   test_creds NID
 *
 * 1. As root: at NID the thread has uid 0 and may take SCHED_FIFO.
 * 2. At the origin it sets RLIMIT_NOFILE to 77/99, its groups to 4242
 *    and drops to uid and gid 1000; at NID it reads the same ids, groups
 *    and limits, and SCHED_FIFO fails with EPERM.
 * 3. At NID, a call that names another task is made at the origin
 *    (sched_setscheduler of pid 1: EPERM there, as for any uid 1000).
 * 4. A child with a seccomp filter (which cannot travel) is refused
 *    migration with EPERM.
 * Results are kept in memory at NID and reported back at the origin.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

struct view {
	int nid;
	uid_t r, e, s;
	gid_t rg, eg, sg;
	int ngroups;
	gid_t groups[8];
	struct rlimit nofile;
	int fifo, fifo_errno;
};

/* Taken at the remote: nothing here may print or open a file. */
static void look(struct view *v)
{
	struct sched_param fifo = { .sched_priority = 1 };
	struct sched_param other = { .sched_priority = 0 };

	v->nid = popcorn_current_nid();
	getresuid(&v->r, &v->e, &v->s);
	getresgid(&v->rg, &v->eg, &v->sg);
	v->ngroups = getgroups(8, v->groups);
	getrlimit(RLIMIT_NOFILE, &v->nofile);
	v->fifo = sched_setscheduler(0, SCHED_FIFO, &fifo);
	v->fifo_errno = errno;
	if (!v->fifo)
		sched_setscheduler(0, SCHED_OTHER, &other);
}

/* In a child: a filter that allows everything, then migrate. */
static void seccomp_refused(int nid)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	int status = -1;
	pid_t child;

	child = fork();
	if (!child) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(2);
		/* The library's convention: an errno value, not -1. */
		int err = popcorn_migrate(nid);

		if (!err)
			_exit(3);
		_exit(err == EPERM ? 0 : 4);
	}
	waitpid(child, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "creds: a process with a seccomp filter is refused migration with EPERM (child status %#x: 2 no filter, 3 migrated, 4 other error)",
		  status);
}

int main(int argc, char **argv)
{
	struct sched_param other = { .sched_priority = 0 };
	struct rlimit lim = { 77, 99 };
	gid_t g = 4242;
	struct view root, user;
	int nid, ret, other_pid, other_errno;

	if (argc != 2) {
		fprintf(stderr, "usage: test_creds NID\n");
		return 2;
	}
	nid = atoi(argv[1]);
	memset(&root, 0, sizeof(root));
	memset(&user, 0, sizeof(user));

	seccomp_refused(nid);
	ret = popcorn_migrate(nid);
	look(&root);
	ret |= popcorn_migrate(0);
	tap_check(!ret && root.nid == nid, "creds: root thread went to node %d and back",
		  nid);
	tap_check(root.r == 0 && root.e == 0 && root.s == 0,
		  "creds: root at the origin is uid 0 at node %d (%d %d %d)",
		  nid, root.r, root.e, root.s);
	tap_check(root.fifo == 0,
		  "creds: root may take SCHED_FIFO at node %d (%d, errno %d)",
		  nid, root.fifo, root.fifo_errno);

	if (setrlimit(RLIMIT_NOFILE, &lim) || setgroups(1, &g) ||
	    setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000)) {
		tap_check(0, "creds: drop to uid 1000 at the origin (%s)",
			  strerror(errno));
		return 1;
	}
	ret = popcorn_migrate(nid);
	look(&user);
	other_pid = sched_setscheduler(1, SCHED_OTHER, &other);
	other_errno = errno;
	ret |= popcorn_migrate(0);
	tap_check(!ret && user.nid == nid, "creds: uid 1000 thread went to node %d and back",
		  nid);
	tap_check(user.r == 1000 && user.e == 1000 && user.s == 1000,
		  "creds: setresuid(1000) at the origin reached node %d (%d %d %d)",
		  nid, user.r, user.e, user.s);
	tap_check(user.rg == 1000 && user.eg == 1000 && user.sg == 1000,
		  "creds: setresgid(1000) at the origin reached node %d (%d %d %d)",
		  nid, user.rg, user.eg, user.sg);
	tap_check(user.ngroups == 1 && user.groups[0] == 4242,
		  "creds: setgroups(4242) at the origin reached node %d (%d groups, first %d)",
		  nid, user.ngroups, user.ngroups > 0 ? (int)user.groups[0] : -1);
	tap_check(user.nofile.rlim_cur == 77 && user.nofile.rlim_max == 99,
		  "creds: RLIMIT_NOFILE 77/99 reached node %d (%llu/%llu)", nid,
		  (unsigned long long)user.nofile.rlim_cur,
		  (unsigned long long)user.nofile.rlim_max);
	tap_check(user.fifo == -1 && user.fifo_errno == EPERM,
		  "creds: SCHED_FIFO as uid 1000 at node %d fails with EPERM (%d, errno %d)",
		  nid, user.fifo, user.fifo_errno);
	tap_check(other_pid == -1 && other_errno == EPERM,
		  "creds: sched_setscheduler of pid 1 at node %d, made at the origin: EPERM (%d, errno %d)",
		  nid, other_pid, other_errno);
	return tap_failed ? 1 : 0;
}
