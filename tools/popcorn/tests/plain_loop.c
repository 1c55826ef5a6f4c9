// SPDX-License-Identifier: GPL-2.0
/*
 * An ordinary program with no Popcorn in it: rounds of arithmetic over
 * 1 MiB of memory until the file /tmp/plain_loop.stop exists (or for
 * ROUNDS rounds), then the number of rounds and a checksum.  The guest
 * test moves it between nodes from a shell (popcorn migrate PID NID);
 * a run of the same number of rounds must print the same line.
 *
 *   plain_loop [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WORDS	(1 << 18)
#define STOP	"/tmp/plain_loop.stop"

static unsigned int data[WORDS];

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : -1, r;
	unsigned long long sum = 0;
	unsigned int x = 1;
	int i;

	for (r = 0; rounds < 0 || r < rounds; r++) {
		if (rounds < 0 && !access(STOP, F_OK)) {
			fprintf(stderr, "# plain_loop: %s found after %ld rounds\n",
				STOP, r);
			break;
		}
		for (i = 0; i < WORDS; i++) {
			x = x * 1103515245u + 12345u;
			data[i] += x >> 7;
			sum += data[i];
		}
	}
	printf("rounds %ld sum %llx\n", r, sum);
	return 0;
}
