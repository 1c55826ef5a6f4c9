// SPDX-License-Identifier: GPL-2.0
/*
 * test_jobctl NID1 NID2: job control of a process spread over three
 * nodes (jobctl.c).
 *
 * A child process, in a process group of its own, runs six threads:
 * its main thread here, serving commands on a pipe; two that compute at
 * NID1 and NID2; one blocked at NID1 in a read() of a pipe (a call made
 * at the origin for it); one waiting at NID2 on a condition variable (a
 * futex wait made at the origin); one blocked at NID2 writing a byte to
 * a full pipe (a write made at the origin).  For each of SIGSTOP, SIGTSTP and
 * SIGTTIN (default actions), sent to the process:
 *
 *   - the parent's waitpid(WUNTRACED) reports the stop, with that
 *     signal, within 10 s;
 *   - every thread is in state T in /proc;
 *   - the process's CPU time does not grow while it is stopped (a thread
 *     still computing at a remote would report its time every second);
 *   - after SIGCONT, waitpid(WCONTINUED) reports it, and the computing
 *     threads go on where they were.
 *
 * Then the blocked read gets its byte, the waiting thread its signal
 * and the writer's pipe is drained: each call returns normally (the
 * write its byte, not an interruption), at the node it waited at; the child
 * exits 0.  Prints one TAP line per check; exits 0 when all pass.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

enum { SPIN1, SPIN2, READER, WAITER, WRITER, NTHREADS };

/* What fills a pipe (its default size): the next byte blocks. */
#define PIPE_FILL	65536

struct th {
	long count;		/* spinners: rounds done */
	int where;		/* the node it last saw itself on */
	int state;		/* 0 starting, 1 at its node, 2 done */
	int ret, err;
	char byte;
};

/* A page each: the threads at two nodes do not share one. */
static struct {
	volatile struct th t;
} __attribute__((aligned(4096))) th[NTHREADS];
static int nids[NTHREADS];
static volatile int quit, go;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int data_rd, out_wr;
static char fill[PIPE_FILL];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *thread_main(void *arg)
{
	long i = (long)arg;
	volatile struct th *t = &th[i].t;
	ssize_t n;
	char byte = 0;

	if (popcorn_migrate(nids[i])) {
		t->err = errno;
		t->state = 2;
		return NULL;
	}
	t->where = popcorn_current_nid();
	t->state = 1;
	switch (i) {
	case SPIN1:
	case SPIN2:
		while (!quit) {
			t->count++;
			if (!(t->count & 0xffff))
				t->where = popcorn_current_nid();
		}
		break;
	case READER:
		n = read(data_rd, &byte, 1);
		t->byte = byte;
		t->ret = n;
		t->err = n < 0 ? errno : 0;
		t->where = popcorn_current_nid();
		break;
	case WRITER:
		/* Blocked in a write made at the origin, none of it done. */
		n = write(out_wr, fill, sizeof(fill));
		if (n == sizeof(fill))
			n = write(out_wr, "z", 1);
		t->ret = n;
		t->err = n < 0 ? errno : 0;
		t->where = popcorn_current_nid();
		break;
	case WAITER:
		pthread_mutex_lock(&lock);
		while (!go)
			t->ret = pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
		t->where = popcorn_current_nid();
		break;
	}
	t->state = 2;
	return NULL;
}

/* The child: threads spread, the main thread serves commands. */
static int child(int cmd_rd, int rep_wr)
{
	struct th out[NTHREADS];
	pthread_t tid[NTHREADS];
	long i;
	char c;

	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&tid[i], NULL, thread_main, (void *)i))
			return 2;
	while (read(cmd_rd, &c, 1) == 1) {
		if (c == 's') {
			for (i = 0; i < NTHREADS; i++)
				memcpy(&out[i], (void *)&th[i].t, sizeof(out[i]));
			if (write(rep_wr, out, sizeof(out)) != sizeof(out))
				return 3;
		} else if (c == 'w') {
			pthread_mutex_lock(&lock);
			go = 1;
			pthread_cond_signal(&cond);
			pthread_mutex_unlock(&lock);
		} else if (c == 'q') {
			break;
		}
	}
	quit = 1;
	for (i = 0; i < NTHREADS; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

static int cmd_wr, rep_rd;

static int status(struct th *out)
{
	size_t size = NTHREADS * sizeof(*out);

	return write(cmd_wr, "s", 1) == 1 &&
	       read(rep_rd, out, size) == (ssize_t)size;
}

/* Poll the child's threads until @ok holds, for @secs at most. */
static int wait_for(int (*ok)(const struct th *, const struct th *),
		    const struct th *before, double secs, struct th *out)
{
	double end = now() + secs;

	do {
		if (!status(out))
			return 0;
		if (ok(out, before))
			return 1;
		usleep(100000);
	} while (now() < end);
	return 0;
}

static int all_placed(const struct th *s, const struct th *unused __attribute__((unused)))
{
	int i;

	for (i = 0; i < NTHREADS; i++)
		if (s[i].state != 1 || s[i].where != nids[i])
			return 0;
	/* The blocked ones had time to block. */
	return s[SPIN1].count > 0x40000 && s[SPIN2].count > 0x40000;
}

static int spinning_there(const struct th *s, const struct th *before)
{
	return s[SPIN1].count > before[SPIN1].count + 0x20000 &&
	       s[SPIN2].count > before[SPIN2].count + 0x20000 &&
	       s[SPIN1].where == nids[SPIN1] && s[SPIN2].where == nids[SPIN2];
}

static int all_done(const struct th *s, const struct th *unused __attribute__((unused)))
{
	return s[READER].state == 2 && s[WAITER].state == 2 &&
	       s[WRITER].state == 2;
}

/* Drain the writer's pipe: the full buffer, then its last byte. */
static int drain(int fd, char *last)
{
	static char buf[PIPE_FILL + 1];
	size_t got = 0;
	ssize_t n;

	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (got < sizeof(buf)) {
		/* A writer that gave up writes no more: 20 s, not for ever. */
		if (poll(&pfd, 1, 20000) != 1)
			return 0;
		n = read(fd, buf + got, sizeof(buf) - got);
		if (n <= 0)
			return 0;
		got += n;
	}
	*last = buf[PIPE_FILL];
	return 1;
}

/* waitpid(@flags) for @pid, for 10 s at most; 0 on timeout. */
static int wait_change(pid_t pid, int flags, int *st, double *took)
{
	double start = now();
	pid_t r;

	do {
		r = waitpid(pid, st, flags | WNOHANG);
		if (r == pid) {
			*took = now() - start;
			return 1;
		}
		if (r < 0)
			return 0;
		usleep(10000);
	} while (now() - start < 10);
	return 0;
}

/* Threads of @pid in state T, and how many there are. */
static int threads_stopped(pid_t pid, int *total)
{
	char path[320], buf[512], *p;
	struct dirent *d;
	int stopped = 0;
	FILE *f;
	DIR *dir;

	*total = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", pid,
			 d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		(*total)++;
		if (p && p[1] == ' ' && p[2] == 'T')
			stopped++;
		else if (p)
			printf("# thread %s state %c\n", d->d_name, p[2]);
	}
	closedir(dir);
	return stopped;
}

/* utime + stime of process @pid, in clock ticks. */
static long cputicks(pid_t pid)
{
	char path[64], buf[1024], *p;
	long ut = -1, st = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld",
			 &ut, &st) != 2)
		return -1;
	return ut + st;
}

static void stop_cycle(pid_t pid, int sig)
{
	struct th before[NTHREADS], after[NTHREADS];
	int st = 0, total, stopped, got;
	double took = -1;
	long t0, t1;

	status(before);
	kill(pid, sig);
	got = wait_change(pid, WUNTRACED, &st, &took);
	tap_check(got && WIFSTOPPED(st) && WSTOPSIG(st) == sig,
		  "%s: waitpid(WUNTRACED) reports the stop (status %#x, %.2f s)",
		  strsignal(sig), st, took);
	stopped = threads_stopped(pid, &total);
	tap_check(total == NTHREADS + 1 && stopped == total,
		  "%s: %d of %d threads in state T", strsignal(sig), stopped,
		  total);
	t0 = cputicks(pid);
	usleep(2500000);
	t1 = cputicks(pid);
	tap_check(t0 >= 0 && t1 >= t0 && t1 - t0 <= 5,
		  "%s: no CPU time while stopped (%ld ticks in 2.5 s)",
		  strsignal(sig), t1 - t0);
	kill(pid, SIGCONT);
	got = wait_change(pid, WCONTINUED, &st, &took);
	tap_check(got && WIFCONTINUED(st),
		  "%s: waitpid(WCONTINUED) reports SIGCONT (status %#x)",
		  strsignal(sig), st);
	got = wait_for(spinning_there, before, 20, after);
	tap_check(got, "%s: after SIGCONT the threads compute at nodes %d and %d again (%d, %d)",
		  strsignal(sig), nids[SPIN1], nids[SPIN2], after[SPIN1].where,
		  after[SPIN2].where);
}

int main(int argc, char **argv)
{
	int cmd[2], rep[2], data[2], out[2], st = 0;
	char last = 0;
	struct th s[NTHREADS];
	pid_t pid;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NID1 NID2\n", argv[0]);
		return 2;
	}
	nids[SPIN1] = nids[READER] = atoi(argv[1]);
	nids[SPIN2] = nids[WAITER] = nids[WRITER] = atoi(argv[2]);
	if (pipe(cmd) || pipe(rep) || pipe(data) || pipe(out))
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		/* Its own group, with a parent in the session: not orphaned. */
		setpgid(0, 0);
		data_rd = data[0];
		out_wr = out[1];
		_exit(child(cmd[0], rep[1]));
	}
	setpgid(pid, pid);
	cmd_wr = cmd[1];
	rep_rd = rep[0];
	printf("# pid %d\n", pid);
	fflush(stdout);

	if (!tap_check(wait_for(all_placed, NULL, 60, s),
		       "threads at nodes %d/%d (spinning), %d (read), %d (futex wait), %d (write)",
		       nids[SPIN1], nids[SPIN2], nids[READER], nids[WAITER],
		       nids[WRITER])) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	stop_cycle(pid, SIGSTOP);
	stop_cycle(pid, SIGTSTP);
	stop_cycle(pid, SIGTTIN);

	if (write(cmd_wr, "w", 1) != 1 || write(data[1], "x", 1) != 1)
		tap_check(0, "commands to the child");
	tap_check(drain(out[0], &last) && last == 'z',
		  "the blocked writer's pipe drains to its last byte");
	wait_for(all_done, NULL, 20, s);
	tap_check(s[READER].state == 2 && s[READER].ret == 1 &&
		  s[READER].byte == 'x' && s[READER].where == nids[READER],
		  "read() blocked over the stops returns its byte at node %d (ret %d, errno %d, node %d)",
		  nids[READER], s[READER].ret, s[READER].err, s[READER].where);
	tap_check(s[WRITER].state == 2 && s[WRITER].ret == 1 &&
		  s[WRITER].where == nids[WRITER],
		  "write() blocked on a full pipe over the stops returns 1 at node %d (ret %d, errno %d, node %d)",
		  nids[WRITER], s[WRITER].ret, s[WRITER].err, s[WRITER].where);
	tap_check(s[WAITER].state == 2 && s[WAITER].ret == 0 &&
		  s[WAITER].where == nids[WAITER],
		  "pthread_cond_wait() over the stops returns at node %d (ret %d, node %d)",
		  nids[WAITER], s[WAITER].ret, s[WAITER].where);
	if (write(cmd_wr, "q", 1) != 1)
		tap_check(0, "quit command to the child");
	pid = waitpid(pid, &st, 0) == pid ? pid : -1;
	tap_check(pid > 0 && WIFEXITED(st) && !WEXITSTATUS(st),
		  "the child exits 0 (status %#x)", st);
	return tap_failed ? 1 : 0;
}
