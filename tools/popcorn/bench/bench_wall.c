// SPDX-License-Identifier: GPL-2.0
/*
 * The wall time of one command, for make bench's scale-out figures:
 *
 *   bench_wall RESULT CMD [ARGS...]
 *
 * runs CMD (its standard streams are this program's) and, when it has
 * ended, writes one line to the file RESULT:
 *
 *   wall_ns NS status STATUS
 *
 * NS from CLOCK_MONOTONIC around fork() and waitpid(); STATUS is the
 * shell's view of how it ended (the exit code, or 128 + the signal).
 * The exit code is CMD's too, so that a caller can check it as usual.
 * A separate file, not stdout, keeps the figure apart from CMD's output
 * (compressors write their data to stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	int status, code;
	FILE *out;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_wall RESULT CMD [ARGS...]\n");
		return 2;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "bench_wall: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("bench_wall: fork");
		return 2;
	}
	if (pid == 0) {
		fclose(out);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "bench_wall: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("bench_wall: waitpid");
			return 2;
		}
	}
	t1 = now_ns();
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(out, "wall_ns %lld status %d\n", t1 - t0, code);
	if (fclose(out) != 0) {
		perror("bench_wall: writing the result");
		return 2;
	}
	return code;
}
