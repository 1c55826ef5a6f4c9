// SPDX-License-Identifier: GPL-2.0
/*
 * Write garbage to a Popcorn TCP port and check that the node closes the
 * connection.  Used by the guest tests as an untrusted peer.
 *
 *   pcn_garbage DST_IP PORT [SRC_IP]
 *
 * Exit 0 when the peer closed the connection within 10 s, 1 otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 10 };
	unsigned char junk[64];
	char buf[256];
	ssize_t n;
	int fd, i;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s DST_IP PORT [SRC_IP]\n", argv[0]);
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
	for (i = 0; i < (int)sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 73 + 11);
	if (write(fd, junk, sizeof(junk)) < 0)
		perror("write");
	/* The node must close on us: read until EOF or reset. */
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0);
	close(fd);
	if (n == 0) {
		printf("connection closed by peer\n");
		return 0;
	}
	/* A reset is also a refusal; only a timeout is a failure. */
	if (errno == ECONNRESET || errno == EPIPE) {
		printf("connection reset by peer\n");
		return 0;
	}
	perror("read");
	return 1;
}
