// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of the process server's remote worker lifetime:
 *
 *   test_worker NID SECONDS
 *
 * migrates to NID and back twice (the destination creates one remote
 * worker for this process, reused the second time), forks a child that exits at once (a child is
 * not distributed: its exit must not touch the worker), prints this
 * process's pid as "# pid N", then exits after SECONDS, which must end
 * the remote worker.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

int main(int argc, char **argv)
{
	int nid, ret, status, there;
	pid_t child;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NID SECONDS\n", argv[0]);
		return 2;
	}
	nid = atoi(argv[1]);
	ret = popcorn_migrate(nid);
	there = popcorn_current_nid();
	ret |= popcorn_migrate(0);
	tap_check(ret == 0 && there == nid,
		  "migrate to node %d (ran there: %d) and back", nid, there);
	ret = popcorn_migrate(nid);
	ret |= popcorn_migrate(0);
	tap_check(ret == 0, "second trip to node %d reuses the worker", nid);
	child = fork();
	if (child == 0)
		_exit(0);
	tap_check(child > 0 && waitpid(child, &status, 0) == child &&
		  WIFEXITED(status), "a forked child exits normally");
	printf("# pid %d\n", getpid());
	fflush(stdout);
	sleep(atoi(argv[2]));
	return tap_failed ? 1 : 0;
}
