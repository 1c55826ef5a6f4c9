// SPDX-License-Identifier: GPL-2.0
/*
 * test_untouched NID PAGES: fresh memory filled at a remote, where the
 * origin gives a write fault the untouched pages after it too
 * (page-server.rst, "Untouched pages"), with every race it has.
 *
 * A buffer of PAGES pages plus a tail of 64 is mapped at the origin and
 * never touched there.  Then, all at once:
 *
 *   - two threads at node NID fill the first half: one every page but
 *     each fifth, one each fifth page, both in ascending order, so that
 *     one's run of untouched pages covers pages the other is faulting on;
 *   - a thread at NID fills the second half but each seventh page, and
 *     a thread at the origin each seventh page of it, so that the
 *     origin's faults take pages just given away, written or not yet.
 *
 * Then the origin reads everything: each page holds its own pattern,
 * and the tail, which no one wrote but the remote may have been given,
 * reads zero.  Exits 0 when all is right; prints one line per check.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "popcorn.h"
#include "tap.h"

#define PAGE	4096UL
#define TAIL	64

static unsigned char *buf;
static unsigned long pages;
static int nid;
static int moved_ok = 1;

static uint64_t pattern(unsigned long page, unsigned long word)
{
	return (page + 1) * 0x9e3779b97f4a7c15ULL ^ word;
}

static void fill(unsigned long page)
{
	uint64_t *w = (uint64_t *)(buf + page * PAGE);
	unsigned long i;

	for (i = 0; i < PAGE / sizeof(*w); i++)
		w[i] = pattern(page, i);
}

struct part {
	unsigned long from, to;	/* pages [from, to) */
	unsigned int every;	/* 0: all; else pages with index % every ... */
	int only;		/* ... == 0 when only, != 0 when not */
	int remote;		/* at NID, not at the origin */
};

static void *filler(void *arg)
{
	struct part *p = arg;
	unsigned long i;

	if (p->remote && popcorn_migrate(nid)) {
		__atomic_store_n(&moved_ok, 0, __ATOMIC_SEQ_CST);
		return NULL;
	}
	for (i = p->from; i < p->to; i++) {
		if (p->every && ((i % p->every == 0) != p->only))
			continue;
		fill(i);
	}
	if (p->remote)
		popcorn_migrate(0);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long half, i, w, bad = 0, nonzero = 0;
	struct part part[4];
	pthread_t t[4];
	uint64_t *pw;
	int k;

	if (argc != 3 || atoi(argv[1]) < 1 || atol(argv[2]) < 16) {
		fprintf(stderr, "usage: test_untouched NID PAGES (PAGES >= 16)\n");
		return 2;
	}
	nid = atoi(argv[1]);
	pages = atol(argv[2]);
	half = pages / 2;
	buf = mmap(NULL, (pages + TAIL) * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	part[0] = (struct part){ 0, half, 5, 0, 1 };
	part[1] = (struct part){ 0, half, 5, 1, 1 };
	part[2] = (struct part){ half, pages, 7, 0, 1 };
	part[3] = (struct part){ half, pages, 7, 1, 0 };
	for (k = 0; k < 4; k++)
		if (pthread_create(&t[k], NULL, filler, &part[k])) {
			perror("pthread_create");
			return 1;
		}
	for (k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	tap_check(moved_ok, "three filler threads ran at node %d", nid);

	for (i = 0; i < pages; i++) {
		pw = (uint64_t *)(buf + i * PAGE);
		for (w = 0; w < PAGE / sizeof(*pw); w++)
			if (pw[w] != pattern(i, w)) {
				if (!bad)
					printf("# page %lu word %lu: %#llx, not %#llx\n",
					       i, w, (unsigned long long)pw[w],
					       (unsigned long long)pattern(i, w));
				bad++;
				break;
			}
	}
	tap_check(!bad, "every one of %lu pages filled at node %d or here reads as written (%lu wrong)",
		  pages, nid, bad);
	for (i = pages; i < pages + TAIL; i++) {
		pw = (uint64_t *)(buf + i * PAGE);
		for (w = 0; w < PAGE / sizeof(*pw); w++)
			if (pw[w]) {
				nonzero++;
				break;
			}
	}
	tap_check(!nonzero, "the %d pages after them, written by no one, read zero (%lu not)",
		  TAIL, nonzero);
	return tap_failed ? 1 : 0;
}
