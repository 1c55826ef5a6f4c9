// SPDX-License-Identifier: GPL-2.0
/*
 * Write garbage to a Popcorn TCP port and check that the node closes the
 * connection.  Used by the guest tests as an untrusted peer.
 *
 *   pcn_garbage [-s] [-t SECONDS] DST_IP PORT [SRC_IP]
 *
 * -s: send nothing (a peer that never says hello).
 * Exit 0 when the peer closed the connection within SECONDS (10 by
 * default), 1 otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 10 };
	struct timespec t0, t1;
	unsigned char junk[64];
	int fd, i, opt, silent = 0;
	double secs;
	char buf[256];
	ssize_t n;

	while ((opt = getopt(argc, argv, "st:")) != -1) {
		if (opt == 's')
			silent = 1;
		else if (opt == 't' && atoi(optarg) > 0)
			tv.tv_sec = atoi(optarg);
		else
			return 2;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: pcn_garbage [-s] [-t SECONDS] DST_IP PORT [SRC_IP]\n");
		return 2;
	}
	dst.sin_port = htons(atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1)
		return 2;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return 1;
	if (argc == 4) {
		if (inet_pton(AF_INET, argv[3], &src.sin_addr) != 1 ||
		    bind(fd, (struct sockaddr *)&src, sizeof(src))) {
			perror("bind");
			return 1;
		}
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
		perror("connect");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < (int)sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 73 + 11);
	if (!silent && write(fd, junk, sizeof(junk)) < 0)
		perror("write");
	/* The node must close on us: read until EOF or reset. */
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0);
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (n == 0) {
		printf("connection closed by peer after %.2f s\n", secs);
		return 0;
	}
	/* A reset is also a refusal; only a timeout is a failure. */
	if (errno == ECONNRESET || errno == EPIPE) {
		printf("connection reset by peer after %.2f s\n", secs);
		return 0;
	}
	perror("read");
	return 1;
}
