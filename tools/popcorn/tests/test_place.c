// SPDX-License-Identifier: GPL-2.0
/*
 * test_place N [SPIN_MS [serial]]: make N threads and print the node
 * each one saw as its first act ("first 1 0 2 ..."), in the order they
 * were made, and the node it ended on ("last ...").  Placement (popcorn
 * run, popcorn spread) decides in the kernel, before a new thread runs:
 * under a policy no thread placed elsewhere may see the origin first.
 * Every thread lives until all are made (a barrier), so that the counts
 * the policy sees do not depend on timing; then it computes for SPIN_MS
 * (default 0) before its last look.  "serial" makes a thread only once
 * the one before has had its first look, so that each placement sees
 * how the last one went; "serial=MS" also waits MS ms after it.  The
 * program knows nothing of placement: it only reads its status.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "popcorn.h"

#define MAX_THREADS 64

static int first[MAX_THREADS], last[MAX_THREADS];
static int looked[MAX_THREADS];	/* atomic builtins */
static pthread_barrier_t all_made;
static long spin_ms;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *thread_main(void *arg)
{
	int i = (int)(long)arg;
	volatile unsigned long x = 0;
	long end;

	first[i] = popcorn_current_nid();
	__atomic_store_n(&looked[i], 1, __ATOMIC_RELEASE);
	pthread_barrier_wait(&all_made);
	end = now_ms() + spin_ms;
	while (now_ms() < end)
		x += i;
	last[i] = popcorn_current_nid();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	int n, i, serial = 0;
	long gap_ms = 0;

	n = argc > 1 ? atoi(argv[1]) : 0;
	spin_ms = argc > 2 ? atol(argv[2]) : 0;
	if (argc > 3) {
		serial = !strcmp(argv[3], "serial") ||
			 sscanf(argv[3], "serial=%ld", &gap_ms) == 1;
		if (!serial || gap_ms < 0)
			n = 0;
	}
	if (n < 1 || n > MAX_THREADS) {
		fprintf(stderr,
			"usage: test_place N [SPIN_MS [serial[=MS]]], N <= %d\n",
			MAX_THREADS);
		return 2;
	}
	pthread_barrier_init(&all_made, NULL, n + 1);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, thread_main, (void *)(long)i)) {
			perror("pthread_create");
			return 1;
		}
		while (serial && !__atomic_load_n(&looked[i], __ATOMIC_ACQUIRE))
			usleep(1000);
		if (gap_ms)
			usleep(gap_ms * 1000);
	}
	pthread_barrier_wait(&all_made);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("main %d\nfirst", popcorn_current_nid());
	for (i = 0; i < n; i++)
		printf(" %d", first[i]);
	printf("\nlast");
	for (i = 0; i < n; i++)
		printf(" %d", last[i]);
	printf("\n");
	return 0;
}
