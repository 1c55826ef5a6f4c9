// SPDX-License-Identifier: GPL-2.0
/*
 * Print the host's TSC rate in kHz.
 *
 * A QEMU TCG guest reads the host's TSC (scaled by nothing), but the
 * guest kernel often fails to calibrate it against the emulated PIT and
 * falls back to jiffies.  The harness passes this figure to every guest
 * as tsc_early_khz=, which skips that calibration.  The rate is measured
 * against CLOCK_MONOTONIC_RAW over a few short windows and the median is
 * printed, so a window in which the host preempted us does not count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#define WINDOWS 5
#define WINDOW_NS 100000000LL	/* 100 ms */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	double khz[WINDOWS];
	int i;

	for (i = 0; i < WINDOWS; i++) {
		int64_t t0 = now_ns(), t1;
		uint64_t c0 = __rdtsc(), c1;

		do {
			t1 = now_ns();
		} while (t1 - t0 < WINDOW_NS);
		c1 = __rdtsc();
		khz[i] = (double)(c1 - c0) * 1e6 / (double)(t1 - t0);
	}
	qsort(khz, WINDOWS, sizeof(khz[0]), cmp);
	if (khz[WINDOWS / 2] < 100000) {
		fprintf(stderr, "tsc-khz: implausible TSC rate %.0f kHz\n", khz[WINDOWS / 2]);
		return 1;
	}
	printf("%.0f\n", khz[WINDOWS / 2]);
	return 0;
}
