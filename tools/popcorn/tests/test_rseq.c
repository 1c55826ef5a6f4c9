// SPDX-License-Identifier: GPL-2.0
/*
 * test_rseq: glibc's rseq registration follows a migrated thread.
 *
 * glibc registers every thread with rseq() and sched_getcpu() reads the
 * CPU number the kernel writes into the registered area.  A thread that
 * moves must keep a registration where it runs: the area names a CPU of
 * the node it is on, and a restartable sequence it was in when it moved
 * is aborted there, as after a local migration between CPUs.
 *
 *   - at node 1, pinned to each CPU in turn: the area's cpu_id,
 *     sched_getcpu() and getcpu() agree, and a sentinel written into the
 *     area is replaced by the kernel at the next signal delivery;
 *   - a thread placed at node 1 before it ran (it registered there),
 *     back at the origin: the same there;
 *   - a thread spinning inside a restartable sequence is moved to node
 *     1: it leaves by the sequence's abort handler, at node 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "popcorn.h"
#include "tests/tap.h"

static struct rseq *rseq_area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

static int cpus;

static void on_usr1(int sig)
{
	(void)sig;
}

/*
 * The kernel writes the area on every signal delivery to a registered
 * thread: a sentinel left in it must be gone after one, wherever the
 * thread runs.  (The guests may have a single CPU, where a stale CPU
 * number would look right.)
 */
static int area_live(const char *where)
{
	volatile struct rseq *rs = rseq_area();
	unsigned int sys_cpu;

	rs->cpu_id_start = 0x7fff0000;
	rs->cpu_id = 0x7fff0000;
	raise(SIGUSR1);
	syscall(SYS_getcpu, &sys_cpu, NULL, NULL);
	return tap_check(rs->cpu_id == sys_cpu && rs->cpu_id_start == sys_cpu,
			 "%s: a signal made the kernel rewrite the rseq area (cpu_id %#x, cpu_id_start %#x, getcpu() %u)",
			 where, rs->cpu_id, rs->cpu_id_start, sys_cpu);
}

/* Pinned to each CPU in turn, the three views agree; returns 1 if so. */
static int cpu_views_agree(const char *where)
{
	volatile struct rseq *rs = rseq_area();
	unsigned int sys_cpu;
	int cpu, ok = 1;
	cpu_set_t set;

	/* The highest CPU first: the area must change as the thread does. */
	for (cpu = cpus - 1; cpu >= 0; cpu--) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			tap_check(0, "%s: sched_setaffinity to CPU %d: %s",
				  where, cpu, strerror(errno));
			return 0;
		}
		sched_yield();
		syscall(SYS_getcpu, &sys_cpu, NULL, NULL);
		ok &= tap_check(rs->cpu_id == (unsigned int)cpu &&
				sched_getcpu() == cpu && sys_cpu == (unsigned int)cpu,
				"%s, pinned to CPU %d: rseq cpu_id %u, sched_getcpu() %d, getcpu() %u",
				where, cpu, rs->cpu_id, sched_getcpu(), sys_cpu);
	}
	CPU_ZERO(&set);
	for (cpu = 0; cpu < cpus; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	return area_live(where) && ok;
}

/* A thread placed at node 1 before it ran, then back at the origin. */
static void *placed_thread(void *arg)
{
	(void)arg;
	tap_check(popcorn_current_nid() == 1,
		  "a placed thread starts at node 1 (at %d)",
		  popcorn_current_nid());
	tap_check(rseq_area()->cpu_id < (unsigned int)cpus,
		  "its rseq registration, made at node 1, holds a CPU (%u)",
		  rseq_area()->cpu_id);
	cpu_views_agree("placed thread at node 1");
	if (!tap_check(popcorn_migrate(0) == 0, "the placed thread goes home"))
		return NULL;
	cpu_views_agree("placed thread back at the origin");
	return NULL;
}

static volatile int in_cs, spin_tid;
static volatile int aborted_at = -2, aborts;

/* Spin inside a restartable sequence until the kernel aborts it. */
static void *spin_in_sequence(void *arg)
{
	struct rseq *rs = rseq_area();

	(void)arg;
	spin_tid = popcorn_gettid();
	for (;;) {
		in_cs = 1;
		asm volatile(".pushsection __rseq_cs, \"aw\"\n\t"
			     ".balign 32\n\t"
			     "3:\n\t"
			     ".long 0, 0\n\t"		/* version, flags */
			     ".quad 1f, 2f - 1f, 4f\n\t"
			     ".popsection\n\t"
			     "leaq 3b(%%rip), %%rax\n\t"
			     "movq %%rax, %[cs]\n\t"
			     "1:\n\t"
			     "jmp 1b\n\t"		/* the sequence */
			     "2:\n\t"
			     ".long 0x53053053\n\t"	/* RSEQ_SIG */
			     "4:\n\t"			/* abort handler */
			     : [cs] "=m" (rs->rseq_cs)
			     : : "rax", "memory");
		aborts++;
		aborted_at = popcorn_current_nid();
		/* Preempted here first: in again, the move is still due. */
		if (aborted_at != 0)
			break;
	}
	return NULL;
}

int main(void)
{
	struct timespec deadline;
	pthread_t t;
	int ret;

	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	signal(SIGUSR1, on_usr1);
	if (!tap_check(__rseq_size >= 20 && rseq_area()->cpu_id < 1024,
		       "glibc registered rseq (size %u, cpu_id %u)", __rseq_size,
		       rseq_area()->cpu_id))
		return 1;
	cpu_views_agree("at the origin");

	if (!tap_check(popcorn_migrate(1) == 0, "migrate to node 1"))
		return 1;
	cpu_views_agree("migrated to node 1");
	tap_check(popcorn_migrate(0) == 0, "back to the origin");
	cpu_views_agree("back at the origin");

	ret = popcorn_set_placement(0, 1UL << 1, 0);
	tap_check(ret == 0, "placement policy: node 1 (%d)", ret);
	pthread_create(&t, NULL, placed_thread, NULL);
	pthread_join(t, NULL);
	popcorn_set_placement(0, 0, 0);

	pthread_create(&t, NULL, spin_in_sequence, NULL);
	while (!in_cs)
		sched_yield();
	usleep(100000);
	ret = popcorn_propose_migration(spin_tid, 1);
	tap_check(ret == 0, "the thread spinning in a restartable sequence proposed to node 1 (%d)",
		  ret);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 60;
	ret = pthread_timedjoin_np(t, NULL, &deadline);
	tap_check(ret == 0 && aborted_at == 1,
		  "its sequence was aborted at node 1, where it left by the abort handler (join %d, aborted at node %d, %d abort(s))",
		  ret, aborted_at, aborts);
	/* A thread still spinning ends with the process. */
	return tap_failed ? 1 : 0;
}
