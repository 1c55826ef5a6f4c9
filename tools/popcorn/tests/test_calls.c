// SPDX-License-Identifier: GPL-2.0
/*
 * test_calls NID: system calls real programs make, at a remote as at
 * the origin.
 *
 *   membarrier   at NID: QUERY lists the private expedited command,
 *                which fails with EPERM before its registration and
 *                succeeds after it (JITs and liburcu use it)
 *   madvise      each advice a program gives (normal, random,
 *                sequential, willneed, free, cold, pageout, dontfork,
 *                dofork, hugepage, populate_read, populate_write, an
 *                unknown one) returns at NID what it returns at the
 *                origin, on memory written at the origin, and the data
 *                is intact after it at both (MADV_FREE: each page is
 *                intact or zero)
 *   affinity     at NID, sched_getaffinity() gives the node's CPUs,
 *                sched_setaffinity() to the first of them works and
 *                to a CPU the node lacks fails with EINVAL, and
 *                sched_getcpu() is the CPU set
 *
 * Prints one TAP line per check; exits 0 when all pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

#define PAGE		4096UL
#define PAGES		16

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#define MADV_POPULATE_WRITE	23
#endif

static int nid = 1;

static long membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

static void test_membarrier(void)
{
	long q, before, reg, after;
	int e_before;

	if (popcorn_migrate(nid)) {
		tap_check(0, "membarrier: migrate to node %d", nid);
		return;
	}
	q = membarrier(MEMBARRIER_CMD_QUERY);
	before = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
	e_before = before ? errno : 0;
	reg = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
	after = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
	popcorn_migrate(0);
	tap_check(q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED),
		  "membarrier at node %d: QUERY lists PRIVATE_EXPEDITED (%#lx)",
		  nid, q);
	tap_check(before == -1 && e_before == EPERM && reg == 0 && after == 0,
		  "membarrier at node %d: PRIVATE_EXPEDITED fails with EPERM before registration (%ld, errno %d), then works (%ld, %ld)",
		  nid, before, e_before, reg, after);
}

static unsigned char *fresh(void)
{
	unsigned char *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long i;

	if (p == MAP_FAILED)
		return NULL;
	for (i = 0; i < PAGES * PAGE; i++)
		p[i] = (unsigned char)(i / PAGE * 7 + i % 251 + 1);
	return p;
}

/* Pages intact, zero (when @may_zero) or wrong: the wrong count. */
static int wrong_pages(const unsigned char *p, int may_zero)
{
	unsigned long i, pg;
	int wrong = 0, bad, zero;

	for (pg = 0; pg < PAGES; pg++) {
		bad = 0;
		zero = 1;
		for (i = pg * PAGE; i < (pg + 1) * PAGE; i++) {
			bad |= p[i] != (unsigned char)(i / PAGE * 7 + i % 251 + 1);
			zero &= !p[i];
		}
		wrong += bad && !(may_zero && zero);
	}
	return wrong;
}

struct advice {
	int advice;
	const char *name;
	int may_zero;
};

static const struct advice advices[] = {
	{ MADV_NORMAL, "normal", 0 },
	{ MADV_RANDOM, "random", 0 },
	{ MADV_SEQUENTIAL, "sequential", 0 },
	{ MADV_WILLNEED, "willneed", 0 },
	{ MADV_FREE, "free", 1 },
	{ MADV_COLD, "cold", 0 },
	{ MADV_PAGEOUT, "pageout", 0 },
	{ MADV_DONTFORK, "dontfork", 0 },
	{ MADV_DOFORK, "dofork", 0 },
	{ MADV_HUGEPAGE, "hugepage", 0 },
	{ MADV_POPULATE_READ, "populate_read", 0 },
	{ MADV_POPULATE_WRITE, "populate_write", 0 },
	{ 12345, "unknown", 0 },
};

/* madvise(@a) on fresh memory written here, made at @where. */
static void advise_at(int where, const struct advice *a, long *ret, int *err,
		      int *wrong_there, int *wrong_home)
{
	unsigned char *p = fresh();

	*ret = -2;
	*err = 0;
	*wrong_there = *wrong_home = -1;
	if (!p)
		return;
	if (where && popcorn_migrate(where)) {
		munmap(p, PAGES * PAGE);
		return;
	}
	*ret = madvise(p, PAGES * PAGE, a->advice);
	*err = *ret ? errno : 0;
	*wrong_there = wrong_pages(p, a->may_zero);
	if (where)
		popcorn_migrate(0);
	*wrong_home = wrong_pages(p, a->may_zero);
	munmap(p, PAGES * PAGE);
}

static void test_madvise(void)
{
	int e0, e1, w0, w1, h0, h1;
	long r0, r1;
	size_t i;

	for (i = 0; i < sizeof(advices) / sizeof(advices[0]); i++) {
		advise_at(0, &advices[i], &r0, &e0, &w0, &h0);
		advise_at(nid, &advices[i], &r1, &e1, &w1, &h1);
		tap_check(r0 != -2 && r1 == r0 && e1 == e0 && !w0 && !w1 &&
			  !h0 && !h1,
			  "madvise(MADV_%s) at node %d as at the origin: %ld errno %d (origin %ld errno %d), wrong pages %d there, %d home",
			  advices[i].name, nid, r1, e1, r0, e0, w1, h1);
	}
}

static void test_affinity(void)
{
	cpu_set_t set, got;
	int n, first = -1, cpu, i, bad_ret, bad_errno, ok_ret;

	if (popcorn_migrate(nid)) {
		tap_check(0, "affinity: migrate to node %d", nid);
		return;
	}
	CPU_ZERO(&set);
	n = sched_getaffinity(0, sizeof(set), &set) ? -1 : CPU_COUNT(&set);
	for (i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &set))
			first = i;
	CPU_ZERO(&got);
	CPU_SET(CPU_SETSIZE - 1, &got);
	bad_ret = sched_setaffinity(0, sizeof(got), &got);
	bad_errno = bad_ret ? errno : 0;
	CPU_ZERO(&got);
	CPU_SET(first < 0 ? 0 : first, &got);
	ok_ret = sched_setaffinity(0, sizeof(got), &got);
	cpu = sched_getcpu();
	CPU_ZERO(&got);
	sched_getaffinity(0, sizeof(got), &got);
	/* Back to every CPU of the node before leaving. */
	sched_setaffinity(0, sizeof(set), &set);
	popcorn_migrate(0);
	tap_check(n > 0 && first >= 0,
		  "affinity at node %d: %d CPUs of the node, the first %d", nid,
		  n, first);
	tap_check(bad_ret == -1 && bad_errno == EINVAL,
		  "affinity at node %d: a CPU the node lacks fails with EINVAL (%d, errno %d)",
		  nid, bad_ret, bad_errno);
	tap_check(!ok_ret && cpu == first && CPU_COUNT(&got) == 1 &&
		  CPU_ISSET(first, &got),
		  "affinity at node %d: set to CPU %d (%d), runs on CPU %d, reads back %d CPU",
		  nid, first, ok_ret, cpu, CPU_COUNT(&got));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		nid = atoi(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_membarrier();
	test_madvise();
	test_affinity();
	return tap_failed ? 1 : 0;
}
