// SPDX-License-Identifier: GPL-2.0
/*
 * test_traced NID1 NID2: a program for tracers to attach to (jobctl.c,
 * the debuggers checks of the migrate scenario).
 *
 * Two threads compute at NID1 and NID2.  The one at NID1 writes
 * `marker` there, so that its page is held at NID1.  Each calls
 * getppid() every 2^16 rounds (what strace -e trace=getppid sees) and
 * notes where it runs.  Once both are at their nodes it prints
 * "# ready PID".  It then waits, 120 s at most, for `poke` to become
 * non-zero (gdb sets it); each thread notes where it sees the new
 * value, and once both have seen it at their own nodes again it prints
 * "poke VALUE seen at N1 N2" and exits 0.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"

#define MARKER	0x5eed0001L

/* A page each: the threads at two nodes do not share one. */
struct slot {
	volatile long count;
	volatile int where, seen_at;
} __attribute__((aligned(4096)));

volatile long marker __attribute__((aligned(4096)));
volatile long poke __attribute__((aligned(4096)));
static struct slot slot[2];
static int nids[2];
static volatile int quit;

static void *thread_main(void *arg)
{
	long i = (long)arg;
	struct slot *s = &slot[i];

	if (nids[i] != popcorn_current_nid() && popcorn_migrate(nids[i]))
		return NULL;
	s->where = popcorn_current_nid();
	if (!i)
		marker = MARKER;
	while (!quit) {
		s->count++;
		if (s->count & 0xffff)
			continue;
		getppid();
		s->where = popcorn_current_nid();
		if (poke && s->seen_at < 0 && s->where == nids[i])
			s->seen_at = s->where;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[2];
	long i;
	int n;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NID1 NID2\n", argv[0]);
		return 2;
	}
	nids[0] = atoi(argv[1]);
	nids[1] = atoi(argv[2]);
	for (i = 0; i < 2; i++) {
		slot[i].where = slot[i].seen_at = -1;
		if (pthread_create(&tid[i], NULL, thread_main, (void *)i))
			return 2;
	}
	for (n = 0; n < 600; n++) {
		if (slot[0].where == nids[0] && slot[1].where == nids[1] &&
		    marker == MARKER)
			break;
		usleep(100000);
	}
	printf("# ready %d\n", getpid());
	fflush(stdout);
	for (n = 0; n < 1200; n++) {
		if (poke && slot[0].seen_at >= 0 && slot[1].seen_at >= 0)
			break;
		usleep(100000);
	}
	quit = 1;
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	printf("poke %ld seen at %d %d\n", poke, slot[0].seen_at,
	       slot[1].seen_at);
	return poke && slot[0].seen_at == nids[0] &&
	       slot[1].seen_at == nids[1] ? 0 : 1;
}
