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
 * 5. In a child whose second thread runs at NID, the main thread gives
 *    every thread a filter (SECCOMP_FILTER_FLAG_TSYNC): the thread's
 *    next calls, a forwarded one (openat) and one made where it runs
 *    (getrandom), are filtered all the same.
 * 6. As uid 1000, RLIMIT_NPROC binds at NID: the thread and its worker
 *    there are tasks of that user, not of root.
 * Results are kept in memory at NID and reported back at the origin.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/syscall.h>
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

/* What the thread away saw, once the filter was on. */
struct tsync_view {
	int away_nid, after_nid;
	long open_ret, rnd_ret;
	int open_errno, rnd_errno;
};

static int tsync_stage;		/* 1: the thread is away, 2: filter on */
static int tsync_nid;

static void *tsync_thread(void *arg)
{
	struct tsync_view *v = arg;
	char buf[8];

	if (popcorn_migrate(tsync_nid)) {
		v->away_nid = -1;
		__atomic_store_n(&tsync_stage, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	v->away_nid = popcorn_current_nid();
	__atomic_store_n(&tsync_stage, 1, __ATOMIC_RELEASE);
	/* No system call until the filter is on: a spin on shared memory. */
	while (__atomic_load_n(&tsync_stage, __ATOMIC_ACQUIRE) != 2)
		__builtin_ia32_pause();
	v->open_ret = syscall(SYS_openat, AT_FDCWD, "/", O_RDONLY);
	v->open_errno = errno;
	v->rnd_ret = syscall(SYS_getrandom, buf, sizeof(buf), 0);
	v->rnd_errno = errno;
	v->after_nid = popcorn_current_nid();
	return NULL;
}

/* openat: EPERM, getrandom: EDOM, anything else allowed. */
static int tsync_install(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EDOM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(f) / sizeof(f[0]),
		.filter = f,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		       SECCOMP_FILTER_FLAG_TSYNC, &prog);
}

/*
 * In a child (the filter stays there): its second thread goes to @nid,
 * the main thread installs the filter for all, and the thread's view
 * comes back through a pipe.
 */
static void seccomp_tsync(int nid)
{
	struct tsync_view v = { .away_nid = -2, .after_nid = -2 };
	int fds[2], status = -1, installed = -1;
	pthread_t t;
	pid_t child;

	if (pipe(fds)) {
		tap_check(0, "creds: pipe for the TSYNC case (%s)",
			  strerror(errno));
		return;
	}
	child = fork();
	if (!child) {
		close(fds[0]);
		tsync_nid = nid;
		if (pthread_create(&t, NULL, tsync_thread, &v))
			_exit(2);
		while (!__atomic_load_n(&tsync_stage, __ATOMIC_ACQUIRE))
			sched_yield();
		if (v.away_nid == nid)
			installed = tsync_install();
		__atomic_store_n(&tsync_stage, 2, __ATOMIC_RELEASE);
		pthread_join(t, NULL);
		if (write(fds[1], &installed, sizeof(installed)) !=
			  sizeof(installed) ||
		    write(fds[1], &v, sizeof(v)) != sizeof(v))
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &installed, sizeof(installed)) != sizeof(installed) ||
	    read(fds[0], &v, sizeof(v)) != sizeof(v))
		installed = -2;
	close(fds[0]);
	waitpid(child, &status, 0);
	tap_check(installed == 0 && v.away_nid == nid,
		  "creds: a TSYNC filter was installed at the origin while a thread ran at node %d (%d, thread at %d, child status %#x)",
		  nid, installed, v.away_nid, status);
	tap_check(v.open_ret == -1 && v.open_errno == EPERM,
		  "creds: then openat() by the thread at node %d is filtered: EPERM (%ld, errno %d)",
		  nid, v.open_ret, v.open_errno);
	tap_check(v.rnd_ret == -1 && v.rnd_errno == EDOM,
		  "creds: and getrandom(), a call made where it runs, too: EDOM (%ld, errno %d)",
		  v.rnd_ret, v.rnd_errno);
	tap_check(v.after_nid == 0,
		  "creds: the filtered thread made them at home (now at node %d)",
		  v.after_nid);
}

/*
 * As uid 1000, in a child with RLIMIT_NPROC 1: its thread at @nid would
 * be one more task of the user there (its worker is one already), so it
 * is refused as a new thread would be here.
 */
static void nproc_at_remote(int nid)
{
	struct rlimit one = { 1, 1 };
	int status = -1, err;
	pid_t child;

	child = fork();
	if (!child) {
		if (setrlimit(RLIMIT_NPROC, &one))
			_exit(2);
		err = popcorn_migrate(nid);
		if (!err) {
			popcorn_migrate(0);
			_exit(3);
		}
		_exit(err == EAGAIN ? 0 : 4);
	}
	waitpid(child, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "creds: a uid 1000 process under RLIMIT_NPROC 1 cannot run a thread at node %d: EAGAIN (child status %#x: 2 setrlimit, 3 migrated, 4 other error)",
		  nid, status);
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
	seccomp_tsync(nid);
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
	nproc_at_remote(nid);
	return tap_failed ? 1 : 0;
}
