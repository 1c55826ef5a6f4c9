// SPDX-License-Identifier: GPL-2.0
/*
 * What Popcorn costs an ordinary process:
 * the hooks in the fault, fork, exit, mmap and system-call paths must be
 * near free for a process that never migrates.  make bench runs this on
 * a kernel with CONFIG_POPCORN and on one without, boot after boot, and
 * compares.
 *
 *   bench_unused SAMPLES
 *
 * Each figure has SAMPLES samples, each the mean time of one operation
 * over a batch of about 300,000 to 400,000 instructions, well below the
 * 4 ms (4,000,000 instructions under make bench's instruction counting)
 * between two timer ticks: so most batches, and the median, hold no
 * tick, whose tens of thousands of instructions would otherwise be
 * spread over the batch's operations and differ from boot to boot.
 *
 *   unused_fault     first write to an anonymous page (256 KiB mapped,
 *                    written, unmapped per sample)
 *   unused_fork      fork(), the child's _exit(0), waitpid()
 *   unused_mmap      mmap() and munmap() of 64 KiB
 *   unused_syscall   getppid()
 *
 * Output lines as in stats.h (ns per operation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		4096UL
#define FAULT_LEN	(256UL << 10)
#define FORKS		2
#define MMAPS		20
#define SYSCALLS	2000

static double fault_batch(void)
{
	char *p = bench_map(FAULT_LEN);
	uint64_t t = now_ns();
	size_t i;

	for (i = 0; i < FAULT_LEN; i += PAGE)
		p[i] = 1;
	t = now_ns() - t;
	munmap(p, FAULT_LEN);
	return (double)t / (FAULT_LEN / PAGE);
}

static double fork_batch(void)
{
	uint64_t t = now_ns();
	int i, status;
	pid_t pid;

	for (i = 0; i < FORKS; i++) {
		pid = fork();
		if (pid < 0) {
			perror("bench_unused: fork");
			exit(1);
		}
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || status) {
			fprintf(stderr, "bench_unused: child %d: %d\n", pid,
				status);
			exit(1);
		}
	}
	return (double)(now_ns() - t) / FORKS;
}

static double mmap_batch(void)
{
	uint64_t t = now_ns();
	int i;

	for (i = 0; i < MMAPS; i++)
		munmap(bench_map(64 * 1024), 64 * 1024);
	return (double)(now_ns() - t) / MMAPS;
}

static double syscall_batch(void)
{
	uint64_t t = now_ns();
	int i;

	for (i = 0; i < SYSCALLS; i++)
		getppid();
	return (double)(now_ns() - t) / SYSCALLS;
}

static const struct {
	const char *name;
	double (*batch)(void);
} figures[] = {
	{ "unused_fault", fault_batch },
	{ "unused_fork", fork_batch },
	{ "unused_mmap", mmap_batch },
	{ "unused_syscall", syscall_batch },
};

int main(int argc, char **argv)
{
	struct samples s;
	unsigned int i;
	int n, r;

	n = argc == 2 ? atoi(argv[1]) : 0;
	if (n < 1) {
		fprintf(stderr, "usage: bench_unused SAMPLES\n");
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(figures); i++) {
		samples_init(&s, n);
		figures[i].batch();		/* warm up */
		for (r = 0; r < n; r++)
			samples_add(&s, figures[i].batch());
		samples_print(&s, figures[i].name, "ns");
	}
	return 0;
}
