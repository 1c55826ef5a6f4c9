// SPDX-License-Identifier: GPL-2.0
/*
 * test_clock NID: a thread's monotonic clocks do not jump as it moves.
 *
 * The nodes booted at different times, so their CLOCK_MONOTONIC and
 * CLOCK_BOOTTIME differ by the difference of their boot times; a thread
 * at a remote must read its origin's (clock.c).  Ten times: read the
 * clocks here, move to NID, read them there (through the vDSO and
 * through the system call), move back, read them again; each reading
 * must lie between the one before and the one after, give or take
 * SKEW_NS: the offset is taken once, as the process is created at NID,
 * and the clocks of two guests drift apart afterwards (TCG guests by up
 * to a few ms a second), while a wrong offset is off by the difference
 * of the boot times, seconds.  At NID, an
 * absolute CLOCK_MONOTONIC sleep and futex wait 50 ms ahead must end
 * after 50 ms and not much later, as locally.  Prints one TAP line per
 * check; exits 0 when all pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

#define ROUNDS		10
#define AHEAD_NS	50000000LL	/* the absolute waits: 50 ms ahead */
#define LATE_NS		2000000000LL	/* and over by at most 2 s */
#define SKEW_NS		20000000LL	/* drift since the offset was taken */

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static int64_t vdso_now(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return ns_of(&t);
}

static int64_t sys_now(clockid_t c)
{
	struct timespec t;

	syscall(SYS_clock_gettime, c, &t);
	return ns_of(&t);
}

static struct timespec ts_of(int64_t ns)
{
	struct timespec t = { ns / 1000000000LL, ns % 1000000000LL };

	return t;
}

int main(int argc, char **argv)
{
	int64_t m0, m1, s1, b0, b1, m2, b2, worst = 0, t, late;
	int nid = argc > 1 ? atoi(argv[1]) : 1, i, bad = 0, moved = 0;
	int64_t slept_min = INT64_MAX, slept_max = 0;
	int64_t waited_min = INT64_MAX, waited_max = 0;
	struct timespec until;
	unsigned int word = 0;
	long r;

	for (i = 0; i < ROUNDS; i++) {
		m0 = vdso_now(CLOCK_MONOTONIC);
		b0 = vdso_now(CLOCK_BOOTTIME);
		if (popcorn_migrate(nid))
			break;
		m1 = vdso_now(CLOCK_MONOTONIC);
		s1 = sys_now(CLOCK_MONOTONIC);
		b1 = vdso_now(CLOCK_BOOTTIME);
		moved += popcorn_current_nid() == nid;

		t = vdso_now(CLOCK_MONOTONIC);
		until = ts_of(t + AHEAD_NS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
		late = vdso_now(CLOCK_MONOTONIC) - t;
		slept_min = late < slept_min ? late : slept_min;
		slept_max = late > slept_max ? late : slept_max;

		t = vdso_now(CLOCK_MONOTONIC);
		until = ts_of(t + AHEAD_NS);
		r = syscall(SYS_futex, &word, FUTEX_WAIT_BITSET_PRIVATE, 0,
			    &until, NULL, FUTEX_BITSET_MATCH_ANY);
		late = vdso_now(CLOCK_MONOTONIC) - t;
		if (r != -1 || errno != ETIMEDOUT)
			late = -1;
		waited_min = late < waited_min ? late : waited_min;
		waited_max = late > waited_max ? late : waited_max;

		if (popcorn_migrate(0))
			break;
		m2 = vdso_now(CLOCK_MONOTONIC);
		b2 = vdso_now(CLOCK_BOOTTIME);
		if (!(m0 <= m1 + SKEW_NS && m1 <= m2 + SKEW_NS &&
		      m0 <= s1 + SKEW_NS && s1 <= m2 + SKEW_NS &&
		      b0 <= b1 + SKEW_NS && b1 <= b2 + SKEW_NS)) {
			printf("# round %d: monotonic %lld %lld (syscall %lld) %lld, boottime %lld %lld %lld\n",
			       i, (long long)m0, (long long)m1, (long long)s1,
			       (long long)m2, (long long)b0, (long long)b1,
			       (long long)b2);
			bad++;
		}
		t = m1 - m0 > m2 - m1 ? m1 - m0 : m2 - m1;
		worst = t > worst ? t : worst;
	}
	tap_check(i == ROUNDS && moved == ROUNDS,
		  "clock: %d of %d round trips to node %d made", moved, ROUNDS,
		  nid);
	tap_check(i == ROUNDS && !bad,
		  "clock: CLOCK_MONOTONIC and CLOCK_BOOTTIME at node %d lie between the origin's readings before and after, within %lld ms (%d rounds out of order; longest step %lld us)",
		  nid, SKEW_NS / 1000000, bad, (long long)worst / 1000);
	tap_check(slept_min >= AHEAD_NS && slept_max < AHEAD_NS + LATE_NS,
		  "clock: an absolute CLOCK_MONOTONIC sleep 50 ms ahead at node %d took %lld to %lld ms",
		  nid, (long long)slept_min / 1000000,
		  (long long)slept_max / 1000000);
	tap_check(waited_min >= AHEAD_NS && waited_max < AHEAD_NS + LATE_NS,
		  "clock: an absolute CLOCK_MONOTONIC futex wait 50 ms ahead at node %d timed out after %lld to %lld ms",
		  nid, (long long)waited_min / 1000000,
		  (long long)waited_max / 1000000);
	return tap_failed ? 1 : 0;
}
