// SPDX-License-Identifier: GPL-2.0
/*
 * The scale-out ceiling of a cluster of guests: THREADS threads that
 * compute on their own registers and stack and share nothing until
 * each writes its result once, at the end.  Spread over two nodes it
 * shows what the guests and the host give two vCPUs when the DSM has
 * almost nothing to do (make bench's scale-out table).
 *
 *   bench_spin THREADS ITERATIONS
 *
 * Prints one checksum line, the same wherever the threads ran.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS	64

/* One cache line each: the threads' only shared writes. */
static struct {
	unsigned long long sum;
	char pad[56];
} result[MAX_THREADS];
static long iterations;

static void *spin(void *arg)
{
	long id = (long)arg, i;
	unsigned long long x = id + 1, sum = 0;

	for (i = 0; i < iterations; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sum ^= x >> 33;
	}
	result[id].sum = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long total = 0;
	pthread_t t[MAX_THREADS];
	long n, i;

	n = argc == 3 ? atol(argv[1]) : 0;
	iterations = argc == 3 ? atol(argv[2]) : 0;
	if (n < 1 || n > MAX_THREADS || iterations < 1) {
		fprintf(stderr, "usage: bench_spin THREADS ITERATIONS\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, spin, (void *)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += result[i].sum;
	}
	printf("bench_spin %ld threads %ld iterations checksum %llx\n", n,
	       iterations, total);
	return 0;
}
