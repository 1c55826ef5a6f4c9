// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads of one process migrate to one node at once, to meet the
 * limits of the remote's process server:
 *
 *   test_crowd NID THREADS SECONDS
 *
 * THREADS threads wait at a barrier, then each calls popcorn_migrate(NID)
 * and, if it got there, writes a page of its own (fetched from this
 * node) and migrates back.  The threads that got there wait for each
 * other (up to 64 of them, for at most 5 s) before they write, so that
 * NID asks this node for that many pages at once: a burst of requests
 * from one node must be queued, not lost.  Prints
 *
 *   # crowd: migrated M refused R other O
 *
 * (refused: EAGAIN, a limit of NID; other: any other error, the first
 * one's errno follows), then "# pid N", then keeps the process, and so
 * its remote worker, for SECONDS.  Exit 0 when every thread either
 * went and came back or was refused.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"

static pthread_barrier_t start;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int target, home;
static int migrated, refused, other, first_errno;
static atomic_int arrived;	/* threads that got to NID */
static int gate;		/* how many to wait for there */
static char *pages;		/* one page per thread */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* At NID: wait for the others, then write this thread's page. */
static void write_own_page(long i)
{
	double end = now() + 5;

	atomic_fetch_add(&arrived, 1);
	while (atomic_load(&arrived) < gate && now() < end)
		sched_yield();
	pages[i * 4096] = (char)i;
}

static void *crowd_thread(void *arg)
{
	long i = (long)arg;
	int ret, err = 0, there;

	pthread_barrier_wait(&start);
	ret = popcorn_migrate(target);
	if (ret) {
		err = ret;	/* an errno value */
	} else {
		there = popcorn_current_nid();
		write_own_page(i);
		ret = popcorn_migrate(home);
		if (ret)
			err = ret;
		else if (there != target)
			err = EPROTO;
		else if (pages[i * 4096] != (char)i)
			err = EIO;
	}
	pthread_mutex_lock(&lock);
	if (!ret && !err) {
		migrated++;
	} else if (ret && err == EAGAIN) {
		refused++;
	} else {
		if (!other++)
			first_errno = err;
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *threads;
	int i, n;

	if (argc != 4) {
		fprintf(stderr, "usage: %s NID THREADS SECONDS\n", argv[0]);
		return 2;
	}
	target = atoi(argv[1]);
	n = atoi(argv[2]);
	home = popcorn_current_nid();
	threads = calloc(n, sizeof(*threads));
	if (n < 1 || !threads || pthread_barrier_init(&start, NULL, n))
		return 2;
	gate = n < 64 ? n : 64;
	pages = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 2;
	memset(pages, 0xff, (size_t)n * 4096);	/* here first */
	for (i = 0; i < n; i++) {
		if (pthread_create(&threads[i], NULL, crowd_thread,
				   (void *)(long)i)) {
			fprintf(stderr, "pthread_create: %s\n", strerror(errno));
			return 2;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	printf("# crowd: migrated %d refused %d other %d", migrated, refused,
	       other);
	if (other)
		printf(" (first: %s)", strerror(first_errno));
	printf("\n# pid %d\n", getpid());
	fflush(stdout);
	sleep(atoi(argv[3]));
	return migrated + refused == n ? 0 : 1;
}
