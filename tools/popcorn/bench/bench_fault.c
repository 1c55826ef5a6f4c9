// SPDX-License-Identifier: GPL-2.0
/*
 * Page-fault and migration costs of a distributed process, run at the
 * origin with NID as the remote:
 *
 *   bench_fault NID PAGES SEQ_MIB ROUNDS BIG_MIB [OFFSET_NS ERROR_NS]
 *
 * Each fault figure has one sample per page of a fresh PAGES-page
 * buffer, timed around a single access, with prefetch off (so that a
 * remote read is one fault, not a share of a prefetch):
 *
 *   fault_local               first write at the origin, no message
 *   fault_remote_read         read at NID of a page the origin wrote
 *   fault_remote_write        write at NID of a page the origin wrote
 *   fault_write_replicated    write at the origin of a page NID holds a
 *                             copy of (the invalidation included)
 *   fault_origin_remote_owned read at the origin of a page NID wrote
 *
 * then, once per round (ROUNDS), on fresh SEQ_MIB MiB buffers, with
 * prefetch on and off in turn (pcn.prefetch of this node, the origin,
 * caps what NID gets):
 *
 *   seq_read_remote           sequential read at NID (MB/s)
 *   seq_read_remote_noprefetch
 *   rand_read_remote          the pages in a random order (MB/s)
 *   rand_read_remote_noprefetch
 *   free_remote_written       munmap at the origin of a buffer NID wrote
 *                             (ns) and the messages it cost (msgs:
 *                             all messages this node sent meanwhile, from
 *                             /proc/popcorn_stat)
 *   release_remote_written    madvise(MADV_RELEASE) at the origin of a
 *                             buffer NID wrote: its data comes home (ns,
 *                             and msgs as above)
 *   release_remote_read       the same of a buffer NID read (read copies)
 *
 * and ROUNDS migration round trips (there and back, ns) with a small
 * working set (migrate_rtt_small) and with BIG_MIB MiB touched at the
 * origin (migrate_rtt_big).  Given how far the clock the thread reads
 * at NID is ahead of this node's (OFFSET_NS, within ERROR_NS; 0 since a
 * thread reads its origin's clock everywhere, within about a one-way
 * delay), each round trip is also split into its one-way parts: out, from the
 * call here until the thread reads the clock at NID (its stack page
 * fetched on the way), and back, from there until it reads the clock
 * here (migrate_out_small, migrate_back_small, migrate_out_big,
 * migrate_back_big).  Output lines as in stats.h.
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

#define PREFETCH_PARAM	"/sys/module/pcn/parameters/prefetch"

/* Set this node's pcn.prefetch; returns the value it had, or -1. */
static int set_prefetch(int n)
{
	FILE *f = fopen(PREFETCH_PARAM, "r+");
	int old = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &old) != 1)
		old = -1;
	rewind(f);
	fprintf(f, "%d\n", n);
	if (fclose(f)) {
		perror("bench_fault: " PREFETCH_PARAM);
		exit(1);
	}
	return old;
}

static void fill(char *p, size_t len, char c)
{
	size_t i;

	for (i = 0; i < len; i += PAGE)
		p[i] = c;
}

static void go(int nid)
{
	int err = popcorn_migrate(nid);

	if (err) {
		fprintf(stderr, "bench_fault: migrate to %d: %s\n", nid,
			strerror(err));
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
		p = bench_map(len);
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

/*
 * Read @pages pages of a fresh buffer at NID, in order or in the order
 * of @perm; the buffer, then written there when @write, is returned (at
 * home).  *@mbs: the read's rate.
 */
static char *read_remote(size_t pages, const size_t *perm, int write,
			 double *mbs)
{
	size_t len = pages * PAGE, i;
	volatile char sink;
	char *p = bench_map(len);
	uint64_t t;

	fill(p, len, 7);
	go(remote);
	t = now_ns();
	for (i = 0; i < pages; i++)
		sink = p[(perm ? perm[i] : i) * PAGE];
	t = now_ns() - t;
	(void)sink;
	if (write)
		fill(p, len, 8);
	go(home);
	*mbs = len / 1e6 / (t / 1e9);
	return p;
}

/*
 * madvise(MADV_RELEASE) of @p at the origin, timed into @t, with the
 * messages it cost into @msgs; then @p is unmapped.
 */
static void release(char *p, size_t len, struct samples *t,
		    struct samples *msgs)
{
	long before = stat_sent("total");
	uint64_t t0 = now_ns();

	if (madvise(p, len, MADV_RELEASE)) {
		perror("bench_fault: MADV_RELEASE");
		exit(1);
	}
	samples_add(t, now_ns() - t0);
	if (before >= 0)
		samples_add(msgs, stat_sent("total") - before);
	munmap(p, len);
}

static void rounds(size_t seq_mib, int n, int prefetch)
{
	size_t len = seq_mib << 20, pages = len / PAGE, i, j, tmp;
	struct samples rate, rate_off, rnd, rnd_off, freed, msgs;
	struct samples rel_w, rel_w_msgs, rel_r, rel_r_msgs;
	size_t *perm = calloc(pages, sizeof(*perm));
	long before;
	double mbs;
	uint64_t t;
	char *p;
	int r;

	if (!perm)
		exit(1);
	srand(1);
	for (i = 0; i < pages; i++)
		perm[i] = i;
	for (i = pages - 1; i > 0; i--) {
		j = rand() % (i + 1);
		tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}
	samples_init(&rate, n);
	samples_init(&rate_off, n);
	samples_init(&rnd, n);
	samples_init(&rnd_off, n);
	samples_init(&freed, n);
	samples_init(&msgs, n);
	samples_init(&rel_w, n);
	samples_init(&rel_w_msgs, n);
	samples_init(&rel_r, n);
	samples_init(&rel_r_msgs, n);
	for (r = 0; r < n; r++) {
		set_prefetch(0);
		munmap(read_remote(pages, NULL, 0, &mbs), len);
		samples_add(&rate_off, mbs);
		munmap(read_remote(pages, perm, 0, &mbs), len);
		samples_add(&rnd_off, mbs);
		set_prefetch(prefetch);
		munmap(read_remote(pages, perm, 0, &mbs), len);
		samples_add(&rnd, mbs);
		p = read_remote(pages, NULL, 1, &mbs);
		samples_add(&rate, mbs);
		/* Free the one written at NID. */
		before = stat_sent("total");
		t = now_ns();
		munmap(p, len);
		samples_add(&freed, now_ns() - t);
		if (before >= 0)
			samples_add(&msgs, stat_sent("total") - before);
		/* Take back what NID wrote, then what it read. */
		p = read_remote(pages, NULL, 1, &mbs);
		release(p, len, &rel_w, &rel_w_msgs);
		p = read_remote(pages, NULL, 0, &mbs);
		release(p, len, &rel_r, &rel_r_msgs);
	}
	samples_print(&rate, "seq_read_remote", "MB/s");
	samples_print(&rate_off, "seq_read_remote_noprefetch", "MB/s");
	samples_print(&rnd, "rand_read_remote", "MB/s");
	samples_print(&rnd_off, "rand_read_remote_noprefetch", "MB/s");
	free(perm);
	samples_print(&freed, "free_remote_written", "ns");
	samples_print(&msgs, "free_remote_written_msgs", "msgs");
	samples_print(&rel_w, "release_remote_written", "ns");
	samples_print(&rel_w_msgs, "release_remote_written_msgs", "msgs");
	samples_print(&rel_r, "release_remote_read", "ns");
	samples_print(&rel_r_msgs, "release_remote_read_msgs", "msgs");
}

/* NID's clock minus this node's, and its error; ERROR < 0: unknown. */
static int64_t clock_offset, clock_error = -1;

/*
 * @n migration round trips (after @warm ones not counted) into @rtt,
 * and their one-way parts into @out and @back when the offset is known.
 */
static void round_trips(int n, int warm, struct samples *rtt,
			struct samples *out, struct samples *back)
{
	uint64_t t0, t1, t2;
	int r;

	samples_init(rtt, n);
	samples_init(out, n);
	samples_init(back, n);
	for (r = 0; r < n + warm; r++) {
		t0 = now_ns();
		go(remote);
		t1 = now_ns();		/* NID's clock */
		go(home);
		t2 = now_ns();
		if (r < warm)
			continue;
		samples_add(rtt, t2 - t0);
		samples_add(out, (int64_t)(t1 - t0) - clock_offset);
		samples_add(back, (int64_t)(t2 - t1) + clock_offset);
	}
}

static void migrations(int n, size_t big_mib)
{
	struct samples rtt, out, back;
	char *big;

	if (clock_error >= 0)
		printf("# one-way migration times: clock offset %lld ns, +/- %lld ns\n",
		       (long long)clock_offset, (long long)clock_error);
	/* The first makes the worker. */
	round_trips(n, 2, &rtt, &out, &back);
	samples_print(&rtt, "migrate_rtt_small", "ns");
	if (clock_error >= 0) {
		samples_print(&out, "migrate_out_small", "ns");
		samples_print(&back, "migrate_back_small", "ns");
	}

	big = bench_map(big_mib << 20);
	fill(big, big_mib << 20, 9);
	round_trips(n, 0, &rtt, &out, &back);
	samples_print(&rtt, "migrate_rtt_big", "ns");
	if (clock_error >= 0) {
		samples_print(&out, "migrate_out_big", "ns");
		samples_print(&back, "migrate_back_big", "ns");
	}
	munmap(big, big_mib << 20);
}

int main(int argc, char **argv)
{
	int prefetch;

	if (argc != 6 && argc != 8) {
		fprintf(stderr, "usage: bench_fault NID PAGES SEQ_MIB ROUNDS BIG_MIB [OFFSET_NS ERROR_NS]\n");
		return 2;
	}
	if (argc == 8) {
		clock_offset = atoll(argv[6]);
		clock_error = atoll(argv[7]);
	}
	remote = atoi(argv[1]);
	home = popcorn_current_nid();
	prefetch = set_prefetch(0);
	if (prefetch < 0) {
		fprintf(stderr, "bench_fault: no %s\n", PREFETCH_PARAM);
		return 1;
	}
	migrations(atoi(argv[4]), atoi(argv[5]));
	faults(atoi(argv[2]));
	rounds(atoi(argv[3]), atoi(argv[4]), prefetch ? prefetch : 14);
	set_prefetch(prefetch);
	return 0;
}
