// SPDX-License-Identifier: GPL-2.0
/*
 * Random kills of a process spread over three nodes.
 *
 *   test_kill ROUNDS SEED      at the origin, node 0
 *   test_kill --serve ROUNDS   at nodes 1 and 2, started before it
 *
 * Each round forks a victim with five threads.  Each thread goes to a
 * random node (mostly node 1 or 2) and does one thing there, the round
 * deciding what: compute (a spin loop), wait in a forwarded call (a
 * read() of a pipe no one writes), fault pages in (writes to pages the
 * other threads write too), migrate back and forth, wait on a futex (a
 * condition variable no one signals), or fork (children that exit at
 * once).  When every thread has started (one round in four: at once,
 * while threads are still being created and migrated), the parent waits
 * 0-150 ms and sends SIGKILL, SIGTERM or SIGINT to the victim.  Then:
 *
 *   - the victim ends within 5 s, and by that signal;
 *   - the live counts of /proc/popcorn_stat here come back to 0 within
 *     5 s (no context, shadow, worker, remote thread or wait is left);
 *   - the origin pings each peer once; a peer that sees the ping checks
 *     its own live counts the same way and pings the origin back, which
 *     waits for both answers before the next round.  Peers report their
 *     checks themselves.
 *
 * A first ping, before the rounds, lets each peer take its baseline (it
 * creates /tmp/stop-compaction first: stress.sh compacts memory in the
 * background until then) and answer that it is ready.
 *
 * Every node ends with the number of its threads back where it was and
 * its slab memory within 512 KiB of what it was after the first rounds.
 * Prints TAP lines; exits 0 when every check passed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

#define NODES		3
#define THREADS		5
#define PAGE		4096
#define PAGES		32
#define END_LIMIT	5.0	/* seconds for a victim to end */
#define LIVE_LIMIT	5.0	/* seconds for the live counts to be 0 */
#define ANSWER_LIMIT	30.0	/* seconds for the peers' answers */
#define SLAB_SLACK_KB	512
#define WARMUP		3	/* rounds before the slab baseline */
#define PING_FILE	"/sys/kernel/debug/popcorn/ping"

enum role { COMPUTE, CALL, FAULT, MIGRATE, FUTEX, FORK, NROLES };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

#define LIVE_LINES	5	/* contexts, shadows, workers, remote_threads, waits */

/*
 * Sum of the "live" lines of /proc/popcorn_stat, described in @what;
 * -1 if the file or one of its lines is missing.
 */
static long live_total(char *what, size_t len)
{
	char line[256], name[64];
	long total = 0, n;
	size_t off = 0;
	int lines = 0;
	FILE *f;

	snprintf(what, len, "no /proc/popcorn_stat");
	f = fopen("/proc/popcorn_stat", "r");
	if (!f)
		return -1;
	what[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "live %63s %ld", name, &n) != 2)
			continue;
		total += n;
		lines++;
		if (off < len)
			off += snprintf(what + off, len - off, "%s%s %ld",
					off ? ", " : "", name, n);
	}
	fclose(f);
	return lines == LIVE_LINES ? total : -1;
}

/* The "recv" column of the ping_request line of /proc/popcorn_stat. */
static long pings_received(void)
{
	char line[256], name[64];
	long sent, sent_bytes, recv = -1;
	FILE *f;

	f = fopen("/proc/popcorn_stat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %ld %ld %ld", name, &sent, &sent_bytes,
			   &recv) == 4 && !strcmp(name, "ping_request"))
			break;
		recv = -1;
	}
	fclose(f);
	return recv;
}

static int ping(int nid)
{
	char cmd[32], res[512];
	int fd, ok;

	fd = open(PING_FILE, O_RDWR);
	if (fd < 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "%d 64 1", nid);
	ok = write(fd, cmd, strlen(cmd)) > 0 && read(fd, res, sizeof(res)) > 0;
	close(fd);
	return ok ? 0 : -1;
}

/* Waits for the live counts to be 0; returns the seconds it took or -1. */
static double wait_live_zero(char *what, size_t len)
{
	double t0 = now();

	while (live_total(what, len) != 0) {
		if (now() - t0 > LIVE_LIMIT)
			return -1;
		sleep_ms(10);
	}
	return now() - t0;
}

static long field_kb(const char *file, const char *key)
{
	char line[256];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && sscanf(line + n, "%ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Unreclaimable slab, once the reclaimable caches are dropped. */
static long slab_kb(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "2", 1) < 0)
			perror("drop_caches");
		close(fd);
	}
	return field_kb("/proc/meminfo", "SUnreclaim:");
}

#define PF_KTHREAD	0x00200000

/*
 * User threads on this node: num_threads of every process that is not
 * a kernel thread (kernel workqueues grow and shrink with the load; a
 * thread left of a victim is a user thread).
 */
static long threads_here(void)
{
	char path[300], buf[1024], *p;
	unsigned long flags;
	long total = 0, n;
	struct dirent *d;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		/*
		 * After "(comm) ": state ppid pgrp session tty_nr tpgid
		 * flags, then 10 fields to num_threads.
		 */
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %ld",
				&flags, &n) == 2 && !(flags & PF_KTHREAD))
			total += n;
	}
	closedir(dir);
	return total;
}

/* Waits up to 5 s for the thread count to come back to @base. */
static long threads_settled(long base)
{
	double t0 = now();
	long n;

	while ((n = threads_here()) > base && now() - t0 < 5)
		sleep_ms(50);
	return n;
}

/*
 * Round @r is over: waits for the live counts to be 0, or counts it in
 * @leftover; @slowest keeps the longest wait.
 */
static void check_live(int r, int *leftover, double *slowest)
{
	char what[256];
	double took = wait_live_zero(what, sizeof(what));

	if (took < 0) {
		(*leftover)++;
		printf("# round %d: live counts not 0 after %.0f s: %s\n",
		       r, LIVE_LIMIT, what);
	} else if (took > *slowest) {
		*slowest = took;
	}
}

/* The end of a run: the threads and the slab back where they were. */
static void check_leaks(long threads0, long slab0)
{
	long threads1 = threads_settled(threads0), slab1 = slab_kb();

	tap_check(threads0 > 0 && threads1 <= threads0,
		  "user threads on this node back to %ld (%ld)", threads0, threads1);
	tap_check(slab0 > 0 && slab1 - slab0 < SLAB_SLACK_KB,
		  "slab after round %d: %ld kB, at the end %ld kB (less than %d kB more)",
		  WARMUP, slab0, slab1, SLAB_SLACK_KB);
}

/* --- the victim ------------------------------------------------------ */

static int roles[THREADS], nids[THREADS];
static int started, unplaced;	/* __atomic */
static char *pages;
static int dead_rd;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static void *victim_thread(void *arg)
{
	long i = (long)arg;
	unsigned int seed = (unsigned int)i * 7919 + getpid();
	volatile unsigned long spin = 0;
	char c;

	if (nids[i] && popcorn_migrate(nids[i]))
		__atomic_add_fetch(&unplaced, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	switch (roles[i]) {
	case COMPUTE:
		for (;;)
			spin++;
	case CALL:
		for (;;)
			if (read(dead_rd, &c, 1) < 0 && errno != EINTR)
				break;
		break;
	case FAULT:
		for (;;) {
			volatile long *p = (volatile long *)
				(pages + (rand_r(&seed) % PAGES) * PAGE);

			(*p)++;
		}
	case MIGRATE:
		for (;;)
			popcorn_migrate(rand_r(&seed) % NODES);
	case FUTEX:
		pthread_mutex_lock(&lock);
		for (;;)
			pthread_cond_wait(&cond, &lock);
	case FORK:
		for (;;) {
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
	}
	return NULL;
}

/* The victim's main thread; never returns. */
static void victim(int round, unsigned int seed, int ready_wr)
{
	int dead[2], i;
	char away = 0;
	pthread_t t;

	signal(SIGPIPE, SIG_IGN);
	if (pipe(dead))
		_exit(100);
	dead_rd = dead[0];
	pages = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		_exit(101);
	memset(pages, 1, PAGES * PAGE);
	for (i = 0; i < THREADS; i++) {
		roles[i] = (round + i) % NROLES;
		/* Mostly at nodes 1 and 2; now and then here. */
		nids[i] = rand_r(&seed) % 8 ? 1 + rand_r(&seed) % (NODES - 1) : 0;
	}
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t, NULL, victim_thread, (void *)(long)i))
			_exit(102);
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < THREADS)
		sleep_ms(5);
	/* How many threads are away: each was placed, or is here. */
	for (i = 0; i < THREADS; i++)
		away += nids[i] != 0;
	away = __atomic_load_n(&unplaced, __ATOMIC_SEQ_CST) ? -1 : away;
	if (write(ready_wr, &away, 1) != 1)
		_exit(103);
	for (;;)
		pause();
}

/* --- the origin ------------------------------------------------------ */

/*
 * Pings every peer and waits until each has pinged back: *@pings is the
 * count of pings received so far, and goes up by the answers.
 */
static int ask_peers(long *pings, int r)
{
	double t0 = now();
	int i;

	for (i = 1; i < NODES; i++)
		if (ping(i))
			printf("# round %d: ping node %d failed\n", r, i);
	*pings += NODES - 1;
	while (pings_received() < *pings && now() - t0 < ANSWER_LIMIT)
		sleep_ms(5);
	if (pings_received() >= *pings)
		return 0;
	printf("# round %d: no answer from the peers in %.0f s\n", r,
	       ANSWER_LIMIT);
	return -1;
}

static void task_states(pid_t pid)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd),
		 "cat /proc/%d/task/*/stat 2>/dev/null | cut -d' ' -f1-3 | sed 's/^/# task /'",
		 pid);
	if (system(cmd) < 0)
		perror("system");
	if (system("sed 's/^/# /' /proc/popcorn_ps 2>/dev/null") < 0)
		perror("system");
}

static int origin(int rounds, unsigned int seed)
{
	static const int sigs[] = { SIGKILL, SIGTERM, SIGINT };
	int sent[3] = { 0 }, late = 0, wrong = 0, unready = 0, leftover = 0;
	int unanswered = 0, at_once = 0, away = 0, r;
	double slowest = 0, slowest_live = 0;
	long pings, slab0 = -1, threads0;
	sigset_t mask;

	/*
	 * A background job's shell sets SIGINT to ignored, and a victim
	 * inherits it: SIGINT and SIGTERM take their default action from
	 * the fork on, whenever the signal comes.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	threads0 = threads_here();
	pings = pings_received();
	if (!tap_check(!ask_peers(&pings, -1), "nodes 1 and 2 are ready for the kills"))
		return 1;
	for (r = 0; r < rounds; r++) {
		int k = rand_r(&seed) % 3, sig = sigs[k], ready[2], status = 0;
		int now_kill = rand_r(&seed) % 4 == 0;
		unsigned int vseed = rand_r(&seed);
		double t0, took;
		pid_t pid, w;
		char c;

		if (r == WARMUP)
			slab0 = slab_kb();
		if (pipe(ready))
			return 1;
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			close(ready[0]);
			victim(r, vseed, ready[1]);
		}
		close(ready[1]);
		if (now_kill) {
			at_once++;
			sleep_ms(rand_r(&seed) % 30);
		} else {
			struct pollfd p = { ready[0], POLLIN, 0 };

			if (poll(&p, 1, 30000) != 1 || read(ready[0], &c, 1) != 1) {
				unready++;
				printf("# round %d: the victim did not start in 30 s\n", r);
			} else if (c < 0) {
				unready++;
				printf("# round %d: a thread could not go to its node\n", r);
			} else {
				away += c;
			}
			sleep_ms(rand_r(&seed) % 150);
		}
		sent[k]++;
		t0 = now();
		kill(pid, sig);
		while ((w = waitpid(pid, &status, WNOHANG)) == 0 &&
		       now() - t0 < END_LIMIT)
			sleep_ms(5);
		took = now() - t0;
		if (w == 0) {
			late++;
			printf("# round %d: signal %d, victim %d still there after %.0f s\n",
			       r, sig, pid, END_LIMIT);
			task_states(pid);
			kill(pid, SIGKILL);
			t0 = now();
			while ((w = waitpid(pid, &status, WNOHANG)) == 0 &&
			       now() - t0 < 60)
				sleep_ms(50);
			if (w == 0) {
				tap_check(0, "round %d: victim %d ended by SIGKILL within 60 s",
					  r, pid);
				return 1;
			}
		} else if (took > slowest) {
			slowest = took;
		}
		close(ready[0]);
		if (w != pid || !WIFSIGNALED(status) || WTERMSIG(status) != sig) {
			wrong++;
			printf("# round %d: signal %d, status 0x%x\n", r, sig, status);
		}
		check_live(r, &leftover, &slowest_live);
		/*
		 * Each peer checks itself, then pings back.  Without an
		 * answer the rounds stop: a late one would be taken for the
		 * next round's.
		 */
		if (ask_peers(&pings, r)) {
			unanswered++;
			break;
		}
	}
	tap_check(!late, "%d kills (%d SIGKILL, %d SIGTERM, %d SIGINT; %d while threads started; 5 of the 6 activities in each): each victim ended within %.0f s (slowest %.0f ms, late %d)",
		  rounds, sent[0], sent[1], sent[2], at_once, END_LIMIT,
		  slowest * 1000, late);
	tap_check(!wrong, "each victim was ended by the signal sent (wrong status %d)",
		  wrong);
	tap_check(!unready && away > 0, "each victim's threads started at their nodes (%d threads away, %d victims not ready)",
		  away, unready);
	tap_check(!leftover, "live counts here 0 within %.0f s after each kill (slowest %.0f ms, %d not)",
		  LIVE_LIMIT, slowest_live * 1000, leftover);
	tap_check(!unanswered, "nodes 1 and 2 answered after checking each kill (%d rounds, %d done)",
		  rounds, r);
	check_leaks(threads0, slab0);
	return tap_failed ? 1 : 0;
}

/* --- a peer ---------------------------------------------------------- */

/*
 * Asks stress.sh's compaction loop to stop and waits (30 s at most) for
 * it to say it has: its commands would change the thread count.
 */
static void stop_compaction(void)
{
	double t0 = now();
	int fd;

	fd = open("/tmp/stop-compaction", O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
	while (access("/tmp/compaction-stopped", F_OK) && now() - t0 < 30)
		sleep_ms(50);
}

static int serve(int rounds)
{
	int r, leftover = 0, lost = 0;
	long seen = pings_received(), slab0 = -1, threads0;
	double slowest = 0, limit = 1800;	/* first: the tests before */

	threads0 = -1;
	for (r = -1; r < rounds; r++) {
		double t0 = now();

		while (pings_received() <= seen && now() - t0 < limit)
			sleep_ms(5);
		if (pings_received() <= seen) {
			lost = r < 0 ? rounds : rounds - r;
			printf("# no ping from node 0 for %.0f s after %d rounds\n",
			       limit, r);
			break;
		}
		seen++;
		limit = 120;
		if (r < 0) {
			/* Node 0 is ready: stop compaction, take the baseline. */
			stop_compaction();
			threads0 = threads_here();
			if (ping(0))
				printf("# ping node 0 failed\n");
			continue;
		}
		check_live(r, &leftover, &slowest);
		if (r == WARMUP)
			slab0 = slab_kb();
		if (ping(0))
			printf("# round %d: ping node 0 failed\n", r);
	}
	stop_compaction();	/* if node 0 never came */
	tap_check(!lost, "node 0's %d kill rounds all came (%d missing)",
		  rounds, lost);
	tap_check(!leftover, "live counts here 0 within %.0f s after each kill (slowest %.0f ms, %d not)",
		  LIVE_LIMIT, slowest * 1000, leftover);
	check_leaks(threads0, slab0);
	return tap_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--serve"))
		return serve(atoi(argv[2]));
	if (argc != 3) {
		fprintf(stderr, "usage: test_kill ROUNDS SEED | --serve ROUNDS\n");
		return 2;
	}
	if (atoi(argv[1]) <= WARMUP) {
		fprintf(stderr, "test_kill: more than %d rounds\n", WARMUP);
		return 2;
	}
	printf("# test_kill seed %s\n", argv[2]);
	return origin(atoi(argv[1]), strtoul(argv[2], NULL, 0));
}
