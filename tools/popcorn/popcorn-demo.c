// SPDX-License-Identifier: GPL-2.0
/*
 * The make run demo: a thread migrates to another node and back.
 *
 *   popcorn-demo NID
 *
 * What the thread prints while it is away is written by its origin
 * (remote write() runs there), so it appears here like any other line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "popcorn.h"

#define WORDS	(256 * 1024)	/* 1 MiB of the origin's memory */

int main(int argc, char **argv)
{
	struct popcorn_thread_status st;
	unsigned int *data = malloc(WORDS * sizeof(*data));
	unsigned long long sum = 0, sum_there = 0;
	int nid = argc > 1 ? atoi(argv[1]) : 1, tid_there, i, ok, ret;

	if (!data)
		return 1;
	for (i = 0; i < WORDS; i++) {
		data[i] = i;
		sum += i;
	}
	printf("popcorn-demo: pid %d starts on node %d, 1 MiB written here (sum %llu)\n",
	       getpid(), popcorn_current_nid(), sum);
	fflush(stdout);

	ret = popcorn_migrate(nid);
	if (ret) {
		fprintf(stderr, "popcorn_migrate: %s\n", strerror(ret));
		return 1;
	}
	/* Now on node @nid: the pages come from the origin on demand. */
	popcorn_get_status(&st);
	tid_there = popcorn_gettid();
	for (i = 0; i < WORDS; i++)
		sum_there += data[i];
	data[0] = 42;
	printf("popcorn-demo: hello from node %d (printed by the thread there)\n",
	       popcorn_current_nid());
	fflush(stdout);
	ret = popcorn_migrate(0);
	if (ret) {
		fprintf(stderr, "popcorn_migrate back: %s\n", strerror(ret));
		return 1;
	}

	printf("popcorn-demo: the thread ran on node %d as tid %d (peer: node %d tid %d)\n",
	       st.current_nid, tid_there, st.peer_nid, st.peer_pid);
	printf("popcorn-demo: it summed the 1 MiB there: %llu (%s) and wrote data[0] = 42\n",
	       sum_there, sum_there == sum ? "same as here" : "DIFFERENT");
	printf("popcorn-demo: back on node %d as tid %d, data[0] = %u\n",
	       popcorn_current_nid(), popcorn_gettid(), data[0]);
	ok = sum_there == sum && data[0] == 42;
	free(data);
	return ok ? 0 : 1;
}
