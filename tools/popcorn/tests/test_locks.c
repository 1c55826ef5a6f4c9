// SPDX-License-Identifier: GPL-2.0
/*
 * test_locks THREADS ROUNDS [MUTEXES]: the pattern of sysbench's mutex
 * test, checked.  Each thread locks one of MUTEXES (default 64) mutexes
 * at random, increments the counter it protects, unlocks; ROUNDS times.
 * The counters must add up to THREADS * ROUNDS: a lost write or a lost
 * wake-up (a hang) is a coherence bug.  Knows nothing of Popcorn.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_MUTEXES 256

static pthread_mutex_t locks[MAX_MUTEXES];
static unsigned long counts[MAX_MUTEXES];
static unsigned long done[64];
static int rounds, mutexes;
/* Written by every thread without a lock, as sysbench's global_var. */
static volatile unsigned long racy;

static void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg * 7919 + 1;
	int i, m;

	for (i = 0; i < rounds; i++) {
		m = rand_r(&seed) % mutexes;
		pthread_mutex_lock(&locks[m]);
		counts[m]++;
		racy++;
		pthread_mutex_unlock(&locks[m]);
	}
	__atomic_add_fetch(&done[(long)arg], rounds, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long sum = 0, dsum = 0;
	pthread_t t[64];
	int n, i;

	n = argc > 1 ? atoi(argv[1]) : 3;
	rounds = argc > 2 ? atoi(argv[2]) : 300;
	mutexes = argc > 3 ? atoi(argv[3]) : 64;
	if (n < 1 || n > 64 || mutexes < 1 || mutexes > MAX_MUTEXES) {
		fprintf(stderr, "usage: test_locks THREADS ROUNDS [MUTEXES]\n");
		return 2;
	}
	for (i = 0; i < mutexes; i++)
		pthread_mutex_init(&locks[i], NULL);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < mutexes; i++)
		sum += counts[i];
	for (i = 0; i < n; i++)
		dsum += done[i];
	printf("counted %lu of %lu, done %lu\n", sum,
	       (unsigned long)n * rounds, dsum);
	return sum == (unsigned long)n * rounds &&
	       dsum == (unsigned long)n * rounds ? 0 : 1;
}
