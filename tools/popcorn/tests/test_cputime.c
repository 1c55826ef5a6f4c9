// SPDX-License-Identifier: GPL-2.0
/*
 * test_cputime NID SECONDS: the CPU time a thread uses at a remote is
 * the process's CPU time at its origin (cputime.c).
 *
 *  back     a thread computes SECONDS at NID and comes back: its times
 *           at home (getrusage(RUSAGE_THREAD), /proc/self/task/TID/stat,
 *           the process's getrusage(RUSAGE_SELF) and times()) grew by
 *           what it used there, as its own clock there measured it;
 *  away     a thread computes SECONDS + 1.5 s at NID; SECONDS in, the
 *           origin reads its times in /proc: the periodic reports
 *           (every second) have brought at least SECONDS - 1.5 s;
 *  exit     a child process's thread computes SECONDS at NID and exits
 *           there: the parent's wait4() reports its time in the rusage.
 *
 * "Computes" is a loop that reads CLOCK_MONOTONIC (the vDSO, no system
 * call) until SECONDS have passed.  The thread's CPU time there is its
 * CLOCK_THREAD_CPUTIME_ID read there as it leaves: a remote thread reads
 * it locally, and it counts from its arrival, as the reports do.  A
 * figure at home must be at least 90% of that, less 50 ms, and at most
 * 110%, plus 500 ms for what was used at home meanwhile (no time
 * counted twice).
 * Prints one TAP line per check; exits 0 when all pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

static int nid;
static double seconds;

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv(const struct timeval *t)
{
	return t->tv_sec + t->tv_usec / 1e6;
}

static double rusage_of(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return -1;
	return tv(&ru.ru_utime) + tv(&ru.ru_stime);
}

/* utime + stime of thread @tid of this process, from /proc, in seconds. */
static double proc_times(pid_t tid)
{
	unsigned long ut, st;
	char path[64], buf[1024], *p;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;	/* the name may hold spaces */
	if (!p)
		return -1;
	/* After ") ": state is field 3, utime 14 and stime 15. */
	ok = sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		    &ut, &st);
	if (ok != 2)
		return -1;
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}

static double times_of_process(void)
{
	struct tms t;

	if (times(&t) == (clock_t)-1)
		return -1;
	return (double)(t.tms_utime + t.tms_stime) / sysconf(_SC_CLK_TCK);
}

/*
 * Compute for @secs of wall time; the thread's CPU time at this node
 * since it came (its thread clock at a remote starts there).
 */
static double compute(double secs)
{
	unsigned long x = 0;
	double end = now(CLOCK_MONOTONIC) + secs;

	while (now(CLOCK_MONOTONIC) < end)
		asm("" : "+r" (x));	/* work the compiler keeps */
	return now(CLOCK_THREAD_CPUTIME_ID);
}

/* @got accounts for @used: 90% - 50 ms .. 110% + 500 ms. */
static int about(double got, double used)
{
	return got >= used * 0.9 - 0.05 && got <= used * 1.1 + 0.5;
}

static void check_back(void)
{
	pid_t tid = syscall(SYS_gettid);
	double th0 = rusage_of(RUSAGE_THREAD), self0 = rusage_of(RUSAGE_SELF);
	double proc0 = proc_times(tid), tms0 = times_of_process();
	double used = -1, th, self, proc, tms;
	int where = -1;

	if (!popcorn_migrate(nid)) {
		where = popcorn_current_nid();
		used = compute(seconds);
		popcorn_migrate(0);
	}
	th = rusage_of(RUSAGE_THREAD) - th0;
	self = rusage_of(RUSAGE_SELF) - self0;
	proc = proc_times(tid) - proc0;
	tms = times_of_process() - tms0;
	printf("# back: used %.3f s at node %d; at home: thread %.3f, ",
	       used, where, th);
	printf("/proc %.3f, process %.3f, times() %.3f\n", proc, self, tms);
	tap_check(where == nid && used >= seconds * 0.5 &&
		  used <= seconds * 2 + 1,
		  "a thread computed at node %d (%.3f s of CPU time there)",
		  where, used);
	tap_check(about(th, used),
		  "back home, its getrusage(RUSAGE_THREAD) grew by that (%.3f s)",
		  th);
	tap_check(about(proc, used),
		  "and its utime + stime in /proc/self/task/%d/stat (%.3f s)",
		  tid, proc);
	tap_check(about(self, used) && about(tms, used),
		  "and the process's getrusage(RUSAGE_SELF) (%.3f s) and times() (%.3f s)",
		  self, tms);
}

struct away {
	pid_t tid;
	int there;		/* set by the thread, read by main */
	double used;
};

static void *away_thread(void *arg)
{
	struct away *a = arg;

	__atomic_store_n(&a->tid, syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (popcorn_migrate(nid))
		return NULL;
	__atomic_store_n(&a->there, 1, __ATOMIC_RELEASE);
	a->used = compute(seconds + 1.5);
	popcorn_migrate(0);
	return NULL;
}

static void check_away(void)
{
	struct away a = { .used = -1 };
	double t0, seen = -1, start;
	pthread_t t;

	if (pthread_create(&t, NULL, away_thread, &a)) {
		tap_check(0, "thread to compute away: %s", strerror(errno));
		return;
	}
	start = now(CLOCK_MONOTONIC);
	while (!__atomic_load_n(&a.there, __ATOMIC_ACQUIRE) &&
	       now(CLOCK_MONOTONIC) < start + 30)
		usleep(10000);
	t0 = proc_times(a.tid);
	if (a.there) {
		usleep((useconds_t)(seconds * 1e6));
		seen = proc_times(a.tid) - t0;
	}
	pthread_join(t, NULL);
	printf("# away: %.3f s seen at home after %.1f s away; it used %.3f s there\n",
	       seen, seconds, a.used);
	/* Reports come every second, not in step with its arrival. */
	tap_check(a.there && seen >= seconds - 1.5 && seen >= 0.3 &&
		  seen <= seconds + 1.0,
		  "while a thread computes at node %d, its CPU time at home grows every second (%.3f s after %.1f s)",
		  nid, seen, seconds);
}

static void check_exit(void)
{
	double used = -1, got = -1;
	struct rusage ru;
	int fd[2], status = -1;
	pid_t pid;

	if (pipe(fd)) {
		tap_check(0, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char buf[32];

		close(fd[0]);
		/* Its time here before it goes counts too. */
		used = now(CLOCK_THREAD_CPUTIME_ID);
		if (popcorn_migrate(nid))
			_exit(1);
		used += compute(seconds);
		snprintf(buf, sizeof(buf), "%.6f\n", used);
		if (write(fd[1], buf, strlen(buf)) < 0)
			_exit(2);
		_exit(7);	/* there */
	}
	close(fd[1]);
	if (pid > 0) {
		char buf[32] = "";
		ssize_t n = read(fd[0], buf, sizeof(buf) - 1);

		if (n > 0)
			used = atof(buf);
		if (wait4(pid, &status, 0, &ru) == pid)
			got = tv(&ru.ru_utime) + tv(&ru.ru_stime);
	}
	close(fd[0]);
	printf("# exit: child used %.3f s at node %d; wait4() reports %.3f s\n",
	       used, nid, got);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 7 && used > 0 &&
		  about(got, used),
		  "a child that computed at node %d and exited there: wait4() reports its CPU time (status %d, %.3f s for %.3f s)",
		  nid, WIFEXITED(status) ? WEXITSTATUS(status) : -1, got,
		  used);
}

int main(int argc, char *argv[])
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_cputime NID SECONDS\n");
		return 2;
	}
	nid = atoi(argv[1]);
	seconds = atof(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_back();
	check_away();
	check_exit();
	return tap_failed ? 1 : 0;
}
