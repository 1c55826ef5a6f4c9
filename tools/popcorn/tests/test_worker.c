// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of the process server's remote worker lifetime:
 *
 *   test_worker NID SECONDS
 *
 * asks to migrate to NID (the destination creates a remote worker for
 * this process; moving the thread is not implemented yet, so the call
 * fails with EOPNOTSUPP), forks a child that exits at once (a child is
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
	int nid, ret, status;
	pid_t child;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NID SECONDS\n", argv[0]);
		return 2;
	}
	nid = atoi(argv[1]);
	ret = popcorn_migrate(nid);
	tap_check(ret == -1 && errno == EOPNOTSUPP,
		  "migrate to node %d: remote worker made, thread move not implemented (EOPNOTSUPP, got %d errno %d)",
		  nid, ret, ret ? errno : 0);
	ret = popcorn_migrate(nid);
	tap_check(ret == -1 && errno == EOPNOTSUPP,
		  "second migrate to node %d reuses the worker (EOPNOTSUPP)", nid);
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
