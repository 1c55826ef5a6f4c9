// SPDX-License-Identifier: GPL-2.0
/*
 * Time-bounded stress of one process on several nodes, run at
 * the origin:
 *
 *   test_stress NODES SECONDS [THREADS]      (THREADS defaults to 6)
 *
 * Each thread, until the time is up, picks a random shared page, locks
 * it (a pthread mutex in the page), checks that the page's checksum
 * matches its data, changes a few random words, updates the checksum and
 * the page's sequence number, and unlocks.  Between steps it reads the
 * sequence number of random pages without the lock: on one page it must
 * never go down (a node never sees an older value after a newer one).
 * Every few steps it migrates to a random node, the origin included.
 * At the end the sequence numbers of all pages must add up to the steps
 * the threads counted, and every checksum must match.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

#define PAGE		4096
#define PAGES		64
#define MAX_THREADS	32
#define WORDS		((PAGE - 64) / sizeof(uint64_t) - 2)

struct shared_page {
	pthread_mutex_t lock;			/* 40 bytes */
	char pad[64 - sizeof(pthread_mutex_t)];
	uint64_t seq;
	uint64_t sum;
	uint64_t data[WORDS];
} __attribute__((aligned(PAGE)));

_Static_assert(sizeof(struct shared_page) == PAGE, "one page each");

struct stressor {
	pthread_t thread;
	unsigned int seed;
	long steps, migrations, bad_sums, regressions, failed_moves;
	uint64_t last_seq[PAGES];
};

static struct shared_page *pages;
static int nodes, threads = 6;
static volatile int stop;
static struct stressor st[MAX_THREADS];

static uint64_t checksum(const struct shared_page *p)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < WORDS; i++)
		s = (s ^ p->data[i]) * 0x100000001b3ull;
	return s;
}

static void one_step(struct stressor *s)
{
	struct shared_page *p = &pages[rand_r(&s->seed) % PAGES];
	int n = 1 + rand_r(&s->seed) % 8;

	pthread_mutex_lock(&p->lock);
	if (p->sum != checksum(p))
		s->bad_sums++;
	while (n--)
		p->data[rand_r(&s->seed) % WORDS] += rand_r(&s->seed) | 1;
	p->sum = checksum(p);
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&p->lock);
	s->steps++;
}

static void peek(struct stressor *s)
{
	int i = rand_r(&s->seed) % PAGES;
	uint64_t seq = __atomic_load_n(&pages[i].seq, __ATOMIC_ACQUIRE);

	if (seq < s->last_seq[i])
		s->regressions++;
	s->last_seq[i] = seq;
}

static void *stress(void *arg)
{
	struct stressor *s = arg;
	int until_move = 0, nid;

	while (!stop) {
		if (until_move-- <= 0) {
			nid = rand_r(&s->seed) % nodes;
			if (nid != popcorn_current_nid()) {
				if (popcorn_migrate(nid))
					s->failed_moves++;
				else
					s->migrations++;
			}
			until_move = 5 + rand_r(&s->seed) % 40;
		}
		one_step(s);
		peek(s);
	}
	if (popcorn_current_nid() != 0 && popcorn_migrate(0))
		s->failed_moves++;
	return NULL;
}

int main(int argc, char **argv)
{
	long steps = 0, moves = 0, bad_sums = 0, regressions = 0, failed = 0;
	uint64_t seqs = 0;
	int seconds, i, j, bad_pages = 0;

	if (argc < 3)
		return 2;
	nodes = atoi(argv[1]);
	seconds = atoi(argv[2]);
	if (argc > 3)
		threads = atoi(argv[3]);
	if (nodes < 1 || nodes > MAX_POPCORN_NODES || seconds < 1 ||
	    threads < 1 || threads > MAX_THREADS)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	pages = mmap(NULL, PAGES * sizeof(*pages), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 2;
	for (i = 0; i < PAGES; i++) {
		pthread_mutex_init(&pages[i].lock, NULL);
		for (j = 0; j < (int)WORDS; j++)
			pages[i].data[j] = i * 1000003ull + j;
		pages[i].sum = checksum(&pages[i]);
	}
	for (i = 0; i < threads; i++) {
		st[i].seed = 12345 + i;
		if (pthread_create(&st[i].thread, NULL, stress, &st[i]))
			return 2;
	}
	sleep(seconds);
	stop = 1;
	for (i = 0; i < threads; i++) {
		pthread_join(st[i].thread, NULL);
		steps += st[i].steps;
		moves += st[i].migrations;
		bad_sums += st[i].bad_sums;
		regressions += st[i].regressions;
		failed += st[i].failed_moves;
	}
	for (i = 0; i < PAGES; i++) {
		seqs += pages[i].seq;
		if (pages[i].sum != checksum(&pages[i]))
			bad_pages++;
	}
	printf("# stress: %d threads, %d nodes, %d s: %ld steps, %ld migrations\n",
	       threads, nodes, seconds, steps, moves);
	tap_check(moves >= threads && !failed,
		  "stress: threads moved between nodes %ld times, %ld moves failed",
		  moves, failed);
	tap_check(!bad_sums && !bad_pages,
		  "stress: every checksum matched under the lock (%ld bad) and at the end (%d bad pages)",
		  bad_sums, bad_pages);
	tap_check(!regressions,
		  "stress: no thread saw a page's sequence number go down (%ld times)",
		  regressions);
	tap_check(seqs == (uint64_t)steps,
		  "stress: the pages' sequence numbers add up to the steps taken (%llu, %ld)",
		  (unsigned long long)seqs, steps);
	return tap_failed ? 1 : 0;
}
