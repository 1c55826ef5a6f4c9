// SPDX-License-Identifier: GPL-2.0
/*
 * A test in the style of popcorn-kernel-lib's "mt": written against its
 * API only (migrate.h, migrate(nid, callback, arg)), so it shows that
 * such programs build against libpopcorn unchanged.
 *
 *   plib_mt [THREADS [ROUNDS [SLEEP_MS]]]     defaults 32 100 1000
 *
 * Each round, every thread waits at a barrier with the main thread,
 * migrates to node 1, sleeps there, migrates back and meets the others at
 * a second barrier.  A thread notes where it found itself each time; the
 * program prints one TAP line and exits 0 when every trip went right.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "migrate.h"

struct traveller {
	pthread_t thread;
	int index;
	int wrong;		/* trips that did not end where they should */
};

static int threads = 32, rounds = 100, sleep_ms = 1000;
static pthread_barrier_t leave, arrive;

static void *travel(void *arg)
{
	struct traveller *t = arg;
	int r;

	for (r = 0; r < rounds; r++) {
		pthread_barrier_wait(&leave);
		migrate(1, NULL, NULL);
		if (popcorn_current_nid() != 1)
			t->wrong++;
		usleep(sleep_ms * 1000);
		migrate(0, NULL, NULL);
		if (popcorn_current_nid() != 0)
			t->wrong++;
		pthread_barrier_wait(&arrive);
	}
	return NULL;
}

int main(int argc, char *argv[])
{
	struct traveller *t;
	int i, r, wrong = 0;

	if (argc > 1)
		threads = atoi(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (argc > 3)
		sleep_ms = atoi(argv[3]);
	if (threads < 1 || rounds < 1 || sleep_ms < 0)
		return 2;
	t = calloc(threads, sizeof(*t));
	if (!t)
		return 2;
	pthread_barrier_init(&leave, NULL, threads + 1);
	pthread_barrier_init(&arrive, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		t[i].index = i;
		if (pthread_create(&t[i].thread, NULL, travel, &t[i]))
			return 2;
	}
	for (r = 0; r < rounds; r++) {
		pthread_barrier_wait(&leave);
		pthread_barrier_wait(&arrive);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i].thread, NULL);
		wrong += t[i].wrong;
	}
	printf("%sok - mt: %d threads, %d rounds to node 1 and back, %d trips wrong\n",
	       wrong ? "not " : "", threads, rounds, wrong);
	free(t);
	return wrong ? 1 : 0;
}
