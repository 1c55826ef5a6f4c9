/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benchmark samples and their summary line, the format vm-test/bench.sh
 * reads from the guests:
 *
 *   # bench NAME UNIT COUNT MEAN P50 P99
 *
 * UNIT is "ns" (a latency per sample), "MB/s" (a rate per sample) or
 * "msgs" (a message count per sample).
 */
#ifndef _POPCORN_BENCH_STATS_H
#define _POPCORN_BENCH_STATS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

struct samples {
	double *v;
	unsigned int n, max;
};

/* A fresh private anonymous mapping of @len bytes; exits on failure. */
static inline char *bench_map(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline void samples_init(struct samples *s, unsigned int max)
{
	s->v = calloc(max ? max : 1, sizeof(*s->v));
	s->n = 0;
	s->max = s->v ? max : 0;
}

static inline void samples_add(struct samples *s, double v)
{
	if (s->n < s->max)
		s->v[s->n++] = v;
}

static int samples_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted samples. */
static inline double samples_pct(const struct samples *s, unsigned int pct)
{
	unsigned int rank = (s->n * pct + 99) / 100;

	return s->n ? s->v[rank ? rank - 1 : 0] : 0;
}

static inline void samples_print(struct samples *s, const char *name,
				 const char *unit)
{
	double sum = 0;
	unsigned int i;

	qsort(s->v, s->n, sizeof(*s->v), samples_cmp);
	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	printf("# bench %s %s %u %.1f %.1f %.1f\n", name, unit, s->n,
	       s->n ? sum / s->n : 0, samples_pct(s, 50), samples_pct(s, 99));
	fflush(stdout);
	free(s->v);
	s->v = NULL;
	s->n = s->max = 0;
}

#endif /* _POPCORN_BENCH_STATS_H */
