// SPDX-License-Identifier: GPL-2.0
/*
 * A test in the style of popcorn-kernel-lib's "rw" (read sharing),
 * written against its API only (migrate.h, migrate()).
 *
 *   plib_rw [THREADS [MIB [LOOPS [PER_NODE]]]]   defaults 6 4 10 2
 *
 * The main thread fills a buffer of MIB MiB; thread i runs on node
 * i / PER_NODE and, LOOPS times between two barriers, sums the buffer.
 * Every sum must equal the main thread's.  One TAP line; exit 0 if so.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "migrate.h"

struct reader {
	pthread_t thread;
	int index;
	int nid;
	int bad;		/* loops whose sum differed */
};

static int threads = 6, mib = 4, loops = 10, per_node = 2;
static unsigned char *buffer;
static unsigned long long expect;
static pthread_barrier_t barrier;

static unsigned long long sum_buffer(void)
{
	unsigned long long s = 0;
	size_t i;

	for (i = 0; i < (size_t)mib << 20; i++)
		s += buffer[i];
	return s;
}

static void *read_loop(void *arg)
{
	struct reader *r = arg;
	int i;

	if (r->nid)
		migrate(r->nid, NULL, NULL);
	if (popcorn_current_nid() != r->nid)
		r->bad = loops;
	for (i = 0; i < loops; i++) {
		pthread_barrier_wait(&barrier);
		if (sum_buffer() != expect)
			r->bad++;
		pthread_barrier_wait(&barrier);
	}
	if (r->nid)
		migrate(0, NULL, NULL);
	return NULL;
}

int main(int argc, char *argv[])
{
	struct timeval t0, t1;
	struct reader *r;
	int i, bad = 0;
	size_t j;

	if (argc > 1)
		threads = atoi(argv[1]);
	if (argc > 2)
		mib = atoi(argv[2]);
	if (argc > 3)
		loops = atoi(argv[3]);
	if (argc > 4)
		per_node = atoi(argv[4]);
	if (threads < 1 || mib < 1 || loops < 1 || per_node < 1)
		return 2;
	r = calloc(threads, sizeof(*r));
	if (!r || posix_memalign((void **)&buffer, 4096, (size_t)mib << 20))
		return 2;
	srand(1);
	for (j = 0; j < (size_t)mib << 20; j++)
		buffer[j] = rand();
	expect = sum_buffer();

	pthread_barrier_init(&barrier, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		r[i].index = i;
		r[i].nid = i / per_node;
		if (pthread_create(&r[i].thread, NULL, read_loop, &r[i]))
			return 2;
	}
	for (i = 0; i < loops; i++) {
		gettimeofday(&t0, NULL);
		pthread_barrier_wait(&barrier);
		pthread_barrier_wait(&barrier);
		gettimeofday(&t1, NULL);
		printf("# rw: loop %d: %ld us\n", i,
		       (t1.tv_sec - t0.tv_sec) * 1000000L +
		       (t1.tv_usec - t0.tv_usec));
	}
	for (i = 0; i < threads; i++) {
		pthread_join(r[i].thread, NULL);
		bad += r[i].bad;
	}
	printf("%sok - rw: %d threads on %d nodes read %d MiB %d times, %d sums wrong\n",
	       bad ? "not " : "", threads, (threads + per_node - 1) / per_node,
	       mib, loops, bad);
	free(buffer);
	free(r);
	return bad ? 1 : 0;
}
