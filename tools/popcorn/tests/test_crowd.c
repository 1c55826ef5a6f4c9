// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads of one process migrate to one node at once, to meet the
 * limits of the remote's process server (issue 11):
 *
 *   test_crowd NID THREADS SECONDS
 *
 * THREADS threads wait at a barrier, then each calls popcorn_migrate(NID)
 * and, if it got there, migrates back to this node.  Prints
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../popcorn.h"

static pthread_barrier_t start;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int target, home;
static int migrated, refused, other, first_errno;

static void *crowd_thread(void *arg)
{
	int ret, err = 0, there;

	(void)arg;
	pthread_barrier_wait(&start);
	ret = popcorn_migrate(target);
	if (ret) {
		err = errno;
	} else {
		there = popcorn_current_nid();
		if (popcorn_migrate(home))
			err = errno ? errno : EIO;
		else if (there != target)
			err = EPROTO;
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
	for (i = 0; i < n; i++) {
		if (pthread_create(&threads[i], NULL, crowd_thread, NULL)) {
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
