// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of one process whose threads run on several nodes at once,
 * run at the origin (node 0) of a cluster of NODES nodes:
 *
 *   test_dsm NODES ITERS
 *
 * Thread i of a test runs on node i % NODES: it migrates there, waits at
 * a pthread barrier until all threads of the test are in place, does its
 * part, and migrates back before it ends.  Each test prints one TAP line
 * and, as a comment, how long it took.
 *
 *   mutex      8 threads add 1 to one counter ITERS times each under a
 *              pthread mutex (distributed futex + page coherence); the
 *              lock must have gone from node to node many times
 *   atomic     the same with __atomic_fetch_add and no lock
 *   false      8 threads each write their own word of one page ITERS times
 *   condvar    a producer and two consumers on three nodes pass items
 *              through a small ring guarded by a mutex and two condvars
 *   barrier    6 threads, rounds separated by a pthread barrier: each
 *              round every thread sees every other thread's last write
 *   printf     8 threads print a line each from their node (the guest
 *              script finds them in this process's output)
 *   futex      a thread at node 1 wakes one waiting at the origin with a
 *              raw FUTEX_WAKE whose unused uaddr2 and val3 are garbage,
 *              as glibc leaves them
 *   sum        a 32 MiB array written at the origin is summed in 6 slices
 *              on all nodes; the total equals the single-node sum
 *
 * With ITERS under 500 (the debug kernel's shorter loops) condvar passes
 * 100 items, barrier runs 20 rounds and sum sums 8 MiB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

#define NTHREADS	8
#define RING		4
#define MIN_HANDOFFS	20
#define SHORT_ITERS	500

static int nodes = 3;
static long iters = 2000;
/* The sizes of condvar, barrier and sum: shorter with short loops. */
static int items = 300, rounds = 40;
static unsigned long sum_bytes = 32UL << 20, sum_words;

struct worker {
	pthread_t thread;
	int index;
	int nid;		/* where it runs */
	int ran_at;		/* where it found itself */
	int back_at;		/* where it was after coming back */
	int error;
	void *(*fn)(struct worker *w);
	uint64_t result;
};

static struct worker workers[NTHREADS];
/* Every thread of a test starts its part once all are in place. */
static pthread_barrier_t start_line;

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	if (w->nid && popcorn_migrate(w->nid))
		w->error = 1;
	w->ran_at = popcorn_current_nid();
	/* Waited for even after a failed migration: no one hangs. */
	pthread_barrier_wait(&start_line);
	if (w->error)
		return NULL;
	w->fn(w);
	if (w->nid && popcorn_migrate(0))
		w->error = 1;
	w->back_at = popcorn_current_nid();
	return NULL;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Run @fn in @n threads spread over the nodes; 0 when all went well. */
static int run_spread(int n, void *(*fn)(struct worker *w), const char *name)
{
	double t0 = now_ms();
	int i, bad = 0;

	memset(workers, 0, sizeof(workers));
	pthread_barrier_init(&start_line, NULL, n);
	for (i = 0; i < n; i++) {
		workers[i].index = i;
		workers[i].nid = i % nodes;
		workers[i].fn = fn;
		if (pthread_create(&workers[i].thread, NULL, worker_main,
				   &workers[i]))
			return -1;
	}
	for (i = 0; i < n; i++) {
		pthread_join(workers[i].thread, NULL);
		if (workers[i].error || workers[i].ran_at != workers[i].nid ||
		    workers[i].back_at != 0) {
			printf("# %s: thread %d ran at %d (want %d), back at %d, error %d\n",
			       name, i, workers[i].ran_at, workers[i].nid,
			       workers[i].back_at, workers[i].error);
			bad++;
		}
	}
	pthread_barrier_destroy(&start_line);
	printf("# %s: %d threads on %d nodes, %.0f ms\n", name, n, nodes,
	       now_ms() - t0);
	return bad;
}

/* ---- mutex / atomic counters -------------------------------------------- */

/*
 * A page moves between nodes in milliseconds, a loop of increments takes
 * microseconds: a short pause after each step makes the threads of
 * different nodes take turns many times within one test.
 */
#define STEP_PAUSE_US	100

static struct {
	pthread_mutex_t lock;
	long counter;
	int last_nid;
	long handoffs;		/* the lock went to a thread on another node */
	long atomic;
} shared = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *count_mutex(struct worker *w)
{
	long i;

	for (i = 0; i < iters; i++) {
		if (pthread_mutex_lock(&shared.lock)) {
			w->error = 1;
			break;
		}
		shared.counter++;
		if (shared.last_nid != w->nid)
			shared.handoffs++;
		shared.last_nid = w->nid;
		pthread_mutex_unlock(&shared.lock);
		usleep(STEP_PAUSE_US);
	}
	return NULL;
}

static void *count_atomic(struct worker *w)
{
	long i;

	(void)w;
	for (i = 0; i < iters; i++) {
		__atomic_fetch_add(&shared.atomic, 1, __ATOMIC_SEQ_CST);
		usleep(STEP_PAUSE_US);
	}
	return NULL;
}

/* ---- false sharing ------------------------------------------------------ */

static volatile long own_words[NTHREADS] __attribute__((aligned(4096)));

static void *write_own_word(struct worker *w)
{
	long i;

	for (i = 1; i <= iters; i++) {
		own_words[w->index] = i;
		usleep(STEP_PAUSE_US);
	}
	return NULL;
}

/* ---- producer / consumer ------------------------------------------------ */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	int ring[RING];
	int head, tail, count, produced_done;
	long consumed_sum;
	int consumed;
} pc = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.not_empty = PTHREAD_COND_INITIALIZER,
	.not_full = PTHREAD_COND_INITIALIZER,
};

static void *producer(struct worker *w)
{
	int i;

	(void)w;
	for (i = 1; i <= items; i++) {
		pthread_mutex_lock(&pc.lock);
		while (pc.count == RING)
			pthread_cond_wait(&pc.not_full, &pc.lock);
		pc.ring[pc.head] = i;
		pc.head = (pc.head + 1) % RING;
		pc.count++;
		pthread_cond_signal(&pc.not_empty);
		pthread_mutex_unlock(&pc.lock);
	}
	pthread_mutex_lock(&pc.lock);
	pc.produced_done = 1;
	pthread_cond_broadcast(&pc.not_empty);
	pthread_mutex_unlock(&pc.lock);
	return NULL;
}

static void *consumer(struct worker *w)
{
	int item;

	for (;;) {
		pthread_mutex_lock(&pc.lock);
		while (!pc.count && !pc.produced_done)
			pthread_cond_wait(&pc.not_empty, &pc.lock);
		if (!pc.count) {
			pthread_mutex_unlock(&pc.lock);
			break;
		}
		item = pc.ring[pc.tail];
		pc.tail = (pc.tail + 1) % RING;
		pc.count--;
		pc.consumed_sum += item;
		pc.consumed++;
		w->result++;
		pthread_cond_signal(&pc.not_full);
		pthread_mutex_unlock(&pc.lock);
	}
	return NULL;
}

static void *prod_or_cons(struct worker *w)
{
	return w->index == 0 ? producer(w) : consumer(w);
}

/* ---- barrier ------------------------------------------------------------ */

#define BARRIER_THREADS	6

static pthread_barrier_t barrier;
static volatile int round_of[BARRIER_THREADS];

static void *barrier_rounds(struct worker *w)
{
	int r, i;

	for (r = 1; r <= rounds; r++) {
		round_of[w->index] = r;
		pthread_barrier_wait(&barrier);
		for (i = 0; i < BARRIER_THREADS; i++)
			if (round_of[i] != r)
				w->result++;	/* a stale value seen */
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

/* ---- output ------------------------------------------------------------- */

/* The guest script counts these lines in this process's stdout. */
static void *say_hello(struct worker *w)
{
	printf("# thread %d says hello from node %d\n", w->index,
	       popcorn_current_nid());
	return NULL;
}

/* ---- a futex wake with unused arguments left as garbage ----------------- */

/*
 * glibc's FUTEX_WAKE passes three arguments and leaves uaddr2 and val3 as
 * the registers happen to be; the kernel ignores them.  A wake from node
 * 1 with garbage there must still wake the waiter at the origin.
 */
#define WAKE_TRIES	1000

static struct {
	unsigned int word;
	long wait_ret, wake_ret;
	int wait_errno, wake_errno;
} fw;

static void *futex_garbage(struct worker *w)
{
	struct timespec ts = { .tv_sec = 20 };
	long r = 0;
	int i;

	if (w->index == 0) {
		fw.wait_ret = syscall(SYS_futex, &fw.word, FUTEX_WAIT_PRIVATE,
				      0, &ts, NULL, 0);
		fw.wait_errno = fw.wait_ret ? errno : 0;
		__atomic_store_n(&fw.word, 1, __ATOMIC_SEQ_CST);
		return NULL;
	}
	/* Until the waiter is woken: it may not be waiting yet. */
	for (i = 0; i < WAKE_TRIES && !__atomic_load_n(&fw.word,
						      __ATOMIC_SEQ_CST); i++) {
		r = syscall(SYS_futex, &fw.word, FUTEX_WAKE_PRIVATE, 1, NULL,
			    (void *)~0UL, ~0U);
		if (r)
			break;
		usleep(10000);
	}
	fw.wake_ret = r;
	fw.wake_errno = r < 0 ? errno : 0;
	return NULL;
}

/* ---- parallel sum ------------------------------------------------------- */

#define SUM_THREADS	6

static uint64_t *array;

static void *sum_slice(struct worker *w)
{
	size_t per = sum_words / SUM_THREADS, i;
	size_t first = w->index * per;
	size_t last = w->index == SUM_THREADS - 1 ? sum_words : first + per;
	uint64_t s = 0;

	for (i = first; i < last; i++)
		s += array[i];
	w->result = s;
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t expect = 0, got = 0;
	long consumed_by_all;
	int i, bad, stale;

	if (argc > 1)
		nodes = atoi(argv[1]);
	if (argc > 2)
		iters = atol(argv[2]);
	if (nodes < 2 || nodes > MAX_POPCORN_NODES || iters < 1) {
		fprintf(stderr, "usage: test_dsm NODES ITERS\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (iters < SHORT_ITERS) {
		items = 100;
		rounds = 20;
		sum_bytes = 8UL << 20;
	}
	sum_words = sum_bytes / sizeof(uint64_t);

	bad = run_spread(NTHREADS, count_mutex, "mutex");
	tap_check(!bad && shared.counter == NTHREADS * iters,
		  "mutex: %d threads on %d nodes add %ld each: counter %ld (want %ld)",
		  NTHREADS, nodes, iters, shared.counter, NTHREADS * iters);
	/* Else the threads ran one after the other: nothing was shown. */
	tap_check(shared.handoffs >= MIN_HANDOFFS,
		  "mutex: the lock went across nodes %ld times (want >= %d)",
		  shared.handoffs, MIN_HANDOFFS);

	bad = run_spread(NTHREADS, count_atomic, "atomic");
	tap_check(!bad && shared.atomic == NTHREADS * iters,
		  "atomic: __atomic_fetch_add counter %ld (want %ld)",
		  shared.atomic, NTHREADS * iters);

	bad = run_spread(NTHREADS, write_own_word, "false");
	for (i = 0; i < NTHREADS; i++)
		if (own_words[i] != iters)
			bad++;
	tap_check(!bad, "false sharing: %d threads each wrote their word of one page %ld times, all exact",
		  NTHREADS, iters);

	bad = run_spread(3, prod_or_cons, "condvar");
	consumed_by_all = workers[1].result + workers[2].result;
	tap_check(!bad && pc.consumed == items &&
		  pc.consumed_sum == (long)items * (items + 1) / 2 &&
		  consumed_by_all == items,
		  "condvar: %d items from node 0 to consumers at nodes 1 and 2 (%lu + %lu), sum %ld",
		  items, (unsigned long)workers[1].result,
		  (unsigned long)workers[2].result, pc.consumed_sum);

	pthread_barrier_init(&barrier, NULL, BARRIER_THREADS);
	bad = run_spread(BARRIER_THREADS, barrier_rounds, "barrier");
	stale = 0;
	for (i = 0; i < BARRIER_THREADS; i++)
		stale += workers[i].result;
	tap_check(!bad && !stale,
		  "barrier: %d threads, %d rounds, %d stale values seen",
		  BARRIER_THREADS, rounds, stale);

	bad = run_spread(NTHREADS, say_hello, "printf");
	tap_check(!bad, "printf: %d threads on %d nodes printed a line each",
		  NTHREADS, nodes);

	bad = run_spread(2, futex_garbage, "futex-garbage");
	tap_check(!bad && fw.wake_ret == 1 && fw.wait_ret == 0,
		  "futex: a wake from node 1 with garbage in uaddr2 and val3 woke the waiter at the origin (wake %ld errno %d, wait %ld errno %d)",
		  fw.wake_ret, fw.wake_errno, fw.wait_ret, fw.wait_errno);

	array = mmap(NULL, sum_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (array == MAP_FAILED) {
		tap_check(0, "sum: mmap of %lu MiB", sum_bytes >> 20);
		return 1;
	}
	for (i = 0; i < (int)sum_words; i++) {
		array[i] = (uint64_t)i * 2654435761u;
		expect += array[i];
	}
	bad = run_spread(SUM_THREADS, sum_slice, "sum");
	for (i = 0; i < SUM_THREADS; i++)
		got += workers[i].result;
	tap_check(!bad && got == expect,
		  "sum: %lu MiB summed in %d slices on %d nodes: %llx (want %llx)",
		  sum_bytes >> 20, SUM_THREADS, nodes, (unsigned long long)got,
		  (unsigned long long)expect);

	return tap_failed ? 1 : 0;
}
