// SPDX-License-Identifier: GPL-2.0
/*
 * Page-fault and migration costs of a distributed process, run at the
 * origin with NID as the remote:
 *
 *   bench_fault NID PAGES SEQ_MIB ROUNDS BIG_MIB
 *
 * Each fault figure has one sample per page of a fresh PAGES-page
 * buffer, timed around a single access:
 *
 *   fault_local               first write at the origin, no message
 *   fault_remote_read         read at NID of a page the origin wrote
 *   fault_remote_write        write at NID of a page the origin wrote
 *   fault_write_replicated    write at the origin of a page NID holds a
 *                             copy of (the invalidation included)
 *   fault_origin_remote_owned read at the origin of a page NID wrote
 *
 * then, once per round (ROUNDS), on a fresh SEQ_MIB MiB buffer:
 *
 *   seq_read_remote           sequential read at NID (MB/s)
 *   free_remote_written       munmap at the origin of a buffer NID wrote
 *                             (ns) and the messages it cost (msgs:
 *                             all messages this node sent meanwhile, from
 *                             /proc/popcorn_stat)
 *
 * and ROUNDS migration round trips (there and back, ns) with a small
 * working set (migrate_rtt_small) and with BIG_MIB MiB touched at the
 * origin (migrate_rtt_big).  One-way times are not measured: the two
 * nodes' clocks are not comparable.  Output lines as in stats.h.
 * Nothing is printed at NID (output there is forwarded to the origin).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../popcorn.h"
#include "stats.h"

#define PAGE	4096UL

static int remote, home;

static char *buf_new(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("bench_fault: mmap");
		exit(1);
	}
	return p;
}

static void fill(char *p, size_t len, char c)
{
	size_t i;

	for (i = 0; i < len; i += PAGE)
		p[i] = c;
}

static void go(int nid)
{
	if (popcorn_migrate(nid)) {
		fprintf(stderr, "bench_fault: migrate to %d: %s\n", nid,
			strerror(errno));
		exit(1);
	}
}

/*
 * The samples array is written once where it will be used, so that
 * storing a sample costs no fault inside a timed region nor after.
 */
static void samples_touch(struct samples *s)
{
	memset(s->v, 0, s->max * sizeof(*s->v));
}

/*
 * Time one access per page of @p: a read when @write is 0.  (volatile:
 * each access must reach memory, this is what is measured.)
 */
static void time_pages(struct samples *s, volatile char *p, size_t pages,
		       int write)
{
	volatile char sink;
	uint64_t t;
	size_t i;

	for (i = 0; i < pages; i++) {
		t = now_ns();
		if (write)
			p[i * PAGE] = 1;
		else
			sink = p[i * PAGE];
		samples_add(s, now_ns() - t);
	}
	(void)sink;
}

static long stat_sent(const char *type)
{
	char line[256], name[64];
	long sent = -1, v;
	FILE *f = fopen("/proc/popcorn_stat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &v) == 2 &&
		    !strcmp(name, type))
			sent = v;
	fclose(f);
	return sent;
}

/*
 * A fault figure: a fresh buffer, written at the origin first (@filled),
 * then read or written at NID untimed (@prep: 'r', 'w' or 0), then one
 * timed access per page at NID (@at_remote) or at the origin.
 */
struct figure {
	const char *name;
	int filled;
	char prep;
	int at_remote;
	int write;
};

static const struct figure figures[] = {
	{ "fault_local",		0, 0,   0, 1 },
	{ "fault_remote_read",		1, 0,   1, 0 },
	{ "fault_remote_write",		1, 0,   1, 1 },
	{ "fault_write_replicated",	1, 'r', 0, 1 },
	{ "fault_origin_remote_owned",	1, 'w', 0, 0 },
};

static void faults(size_t pages)
{
	size_t len = pages * PAGE, i;
	const struct figure *f;
	struct samples s;
	char *p;

	for (i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		f = &figures[i];
		samples_init(&s, pages);
		p = buf_new(len);
		if (f->filled)
			fill(p, len, 2);
		if (f->prep || f->at_remote)
			go(remote);
		if (f->prep == 'r')
			time_pages(&s, p, pages, 0);	/* copies at NID */
		if (f->prep == 'w')
			fill(p, len, 3);		/* NID owns them */
		s.n = 0;
		samples_touch(&s);
		if (f->prep)
			go(home);
		time_pages(&s, p, pages, f->write);
		if (f->at_remote)
			go(home);
		samples_print(&s, f->name, "ns");
	}
}

static void rounds(size_t seq_mib, int n)
{
	size_t len = seq_mib << 20, pages = len / PAGE;
	struct samples rate, freed, msgs;
	long before;
	uint64_t t;
	char *p;
	int r;

	samples_init(&rate, n);
	samples_init(&freed, n);
	samples_init(&msgs, n);
	for (r = 0; r < n; r++) {
		volatile char sink;
		size_t i;

		p = buf_new(len);
		fill(p, len, 7);
		go(remote);
		t = now_ns();
		for (i = 0; i < pages; i++)
			sink = p[i * PAGE];
		t = now_ns() - t;
		(void)sink;
		/* Then written there, for the free below. */
		fill(p, len, 8);
		go(home);
		samples_add(&rate, len / 1e6 / (t / 1e9));
		before = stat_sent("total");
		t = now_ns();
		munmap(p, len);
		samples_add(&freed, now_ns() - t);
		if (before >= 0)
			samples_add(&msgs, stat_sent("total") - before);
	}
	samples_print(&rate, "seq_read_remote", "MB/s");
	samples_print(&freed, "free_remote_written", "ns");
	samples_print(&msgs, "free_remote_written_msgs", "msgs");
}

static void migrations(int n, size_t big_mib)
{
	struct samples s;
	uint64_t t;
	char *big;
	int r;

	samples_init(&s, n);
	for (r = 0; r < n + 2; r++) {
		t = now_ns();
		go(remote);
		go(home);
		if (r >= 2)	/* the first makes the worker */
			samples_add(&s, now_ns() - t);
	}
	samples_print(&s, "migrate_rtt_small", "ns");

	big = buf_new(big_mib << 20);
	fill(big, big_mib << 20, 9);
	samples_init(&s, n);
	for (r = 0; r < n; r++) {
		t = now_ns();
		go(remote);
		go(home);
		samples_add(&s, now_ns() - t);
	}
	samples_print(&s, "migrate_rtt_big", "ns");
	munmap(big, big_mib << 20);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: bench_fault NID PAGES SEQ_MIB ROUNDS BIG_MIB\n");
		return 2;
	}
	remote = atoi(argv[1]);
	home = popcorn_current_nid();
	migrations(atoi(argv[4]), atoi(argv[5]));
	faults(atoi(argv[2]));
	rounds(atoi(argv[3]), atoi(argv[4]));
	return 0;
}
