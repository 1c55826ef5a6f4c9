// SPDX-License-Identifier: GPL-2.0
/*
 * Known patterns of sharing between threads, for make bench's sharing
 * table: how much slower (or faster) each gets when its threads are
 * spread over nodes, against the same run on one node.
 *
 *   bench_share PATTERN THREADS ITERS WORK
 *
 * Each of THREADS threads does ITERS iterations of WORK steps of a
 * private computation (a random number generator in registers) and one
 * access of the pattern's kind:
 *
 *   private     reads and writes a word of its own 64 KiB buffer
 *   readmostly  reads a random word of a 1 MiB table the main thread
 *               filled; thread 0 rewrites one word (the same value)
 *               every 256 iterations, so the readers' copies go
 *   prodcons    thread 0 produces an item into a 64-slot ring under a
 *               mutex, the others consume them (condition variables)
 *   false       adds 1 to its own counter; all counters share a page
 *   lock        adds 1 to one counter under one pthread mutex
 *   barrier     writes its slot, waits at a pthread barrier, reads its
 *               neighbour's slot, waits again
 *
 * Prints one line with a checksum that does not depend on where the
 * threads ran nor on their interleaving: the spread run must print the
 * same line as the one-node run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS	16
#define PAGE		4096
#define PRIVATE_WORDS	(65536 / 8)
#define TABLE_WORDS	(1048576 / 8)
#define RING		64
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum pattern { PRIVATE, READMOSTLY, PRODCONS, FALSE_SHARING, LOCK, BARRIER };

static const char *const names[] = {
	"private", "readmostly", "prodcons", "false", "lock", "barrier",
};

static enum pattern pattern;
static long threads, iters, work;
static uint64_t *table;
static uint64_t sums[MAX_THREADS], last_x[MAX_THREADS];

/* The shared page of the false-sharing counters: a word each. */
static struct {
	uint64_t count[MAX_THREADS];
} __attribute__((aligned(PAGE))) counters;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static uint64_t shared_count, ring[RING];
static long head, tail, produced_all;
static pthread_barrier_t barrier;
static uint64_t slots[MAX_THREADS];

static inline uint64_t step(uint64_t x)
{
	return x * 6364136223846793005ULL + 1442695040888963407ULL;
}

/* WORK steps of computation on registers only. */
static uint64_t compute(uint64_t x)
{
	long i;

	for (i = 0; i < work; i++)
		x = step(x);
	return x;
}

static uint64_t run_private(long id, uint64_t *xp)
{
	uint64_t x = *xp;
	uint64_t *buf = aligned_alloc(PAGE, PRIVATE_WORDS * 8), sum = 0;
	long i;

	if (!buf)
		exit(1);
	memset(buf, 0, PRIVATE_WORDS * 8);
	for (i = 0; i < iters; i++) {
		x = compute(x);
		buf[(x >> 33) % PRIVATE_WORDS] += x >> 40;
	}
	for (i = 0; i < PRIVATE_WORDS; i++)
		sum += buf[i] * (i + 1);
	free(buf);
	*xp = x;
	return sum + id;
}

static uint64_t run_readmostly(long id, uint64_t *xp)
{
	uint64_t x = *xp;
	uint64_t sum = 0;
	long i, k;

	for (i = 0; i < iters; i++) {
		x = compute(x);
		k = (x >> 33) % TABLE_WORDS;
		sum += table[k];
		if (id == 0 && i % 256 == 0)
			__atomic_store_n(&table[k], table[k], __ATOMIC_RELAXED);
	}
	*xp = x;
	return sum;
}

static uint64_t run_prodcons(long id, uint64_t *xp)
{
	uint64_t x = *xp;
	uint64_t sum = 0, item;
	long i;

	if (id == 0) {
		/* iters items per consumer, each the result of WORK steps. */
		for (i = 0; i < iters * (threads - 1); i++) {
			x = compute(x);
			pthread_mutex_lock(&lock);
			while (head - tail == RING)
				pthread_cond_wait(&not_full, &lock);
			ring[head++ % RING] = x >> 20;
			pthread_cond_signal(&not_empty);
			pthread_mutex_unlock(&lock);
		}
		pthread_mutex_lock(&lock);
		produced_all = 1;
		pthread_cond_broadcast(&not_empty);
		pthread_mutex_unlock(&lock);
		*xp = x;
		return 0;
	}
	for (;;) {
		pthread_mutex_lock(&lock);
		while (head == tail && !produced_all)
			pthread_cond_wait(&not_empty, &lock);
		if (head == tail) {
			pthread_mutex_unlock(&lock);
			break;
		}
		item = ring[tail++ % RING];
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&lock);
		sum += item;
	}
	return sum;	/* the total over consumers is fixed, not each */
}

static uint64_t run_false(long id, uint64_t *xp)
{
	uint64_t x = *xp;
	long i;

	for (i = 0; i < iters; i++) {
		x = compute(x);
		/* A store each time: kept in a register, nothing would move. */
		__atomic_store_n(&counters.count[id], counters.count[id] + 1,
				 __ATOMIC_RELAXED);
	}
	*xp = x;
	return counters.count[id];
}

static uint64_t run_lock(long id, uint64_t *xp)
{
	uint64_t x = *xp;
	long i;

	(void)id;	/* every thread adds to the one counter */
	for (i = 0; i < iters; i++) {
		x = compute(x);
		pthread_mutex_lock(&lock);
		shared_count++;
		pthread_mutex_unlock(&lock);
	}
	*xp = x;
	return 0;
}

static uint64_t run_barrier(long id, uint64_t *xp)
{
	uint64_t x = *xp;
	uint64_t sum = 0;
	long i;

	for (i = 0; i < iters; i++) {
		x = compute(x);
		slots[id] = x;
		pthread_barrier_wait(&barrier);
		sum += slots[(id + 1) % threads] >> 32;
		pthread_barrier_wait(&barrier);
	}
	*xp = x;
	return sum;
}

static void *thread_main(void *arg)
{
	long id = (long)arg;
	uint64_t x = step(id + 1), sum = 0;

	/*
	 * Each computes on x, whose last value joins the checksum: the
	 * compiler may not drop the computation.
	 */

	switch (pattern) {
	case PRIVATE:
		sum = run_private(id, &x);
		break;
	case READMOSTLY:
		sum = run_readmostly(id, &x);
		break;
	case PRODCONS:
		sum = run_prodcons(id, &x);
		break;
	case FALSE_SHARING:
		sum = run_false(id, &x);
		break;
	case LOCK:
		sum = run_lock(id, &x);
		break;
	case BARRIER:
		sum = run_barrier(id, &x);
		break;
	}
	sums[id] = sum;
	last_x[id] = x;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	uint64_t total = 0;
	long i;

	if (argc != 5)
		goto usage;
	for (i = 0; i < (long)ARRAY_SIZE(names); i++)
		if (!strcmp(argv[1], names[i]))
			break;
	pattern = i;
	threads = atol(argv[2]);
	iters = atol(argv[3]);
	work = atol(argv[4]);
	if (i == (long)ARRAY_SIZE(names) || threads < 1 ||
	    threads > MAX_THREADS || iters < 1 || work < 0 ||
	    (pattern == PRODCONS && threads < 2))
		goto usage;
	if (pattern == READMOSTLY) {
		table = aligned_alloc(PAGE, TABLE_WORDS * 8);
		if (!table)
			return 1;
		for (i = 0; i < TABLE_WORDS; i++)
			table[i] = step(i) >> 16;
	}
	if (pattern == BARRIER)
		pthread_barrier_init(&barrier, NULL, threads);
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		/* prodcons: who consumed what varies; the total does not. */
		total += pattern == PRODCONS ? sums[i] : sums[i] * (i + 1);
		total += last_x[i];
	}
	if (pattern == LOCK)
		total += shared_count;
	printf("bench_share %s threads %ld iters %ld work %ld checksum %llx\n",
	       names[pattern], threads, iters, work,
	       (unsigned long long)total);
	return 0;
usage:
	fprintf(stderr,
		"usage: bench_share private|readmostly|prodcons|false|lock|barrier THREADS ITERS WORK\n");
	return 2;
}
