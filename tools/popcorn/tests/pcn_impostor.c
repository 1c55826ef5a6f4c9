// SPDX-License-Identifier: GPL-2.0
/*
 * Pose as a Popcorn node without its key: connect to a node's Popcorn
 * port from a listed node's address and run the handshake of
 * include/popcorn/auth.h as far as the node lets us.  Any local user of
 * a listed node can do this; the test runs it as an unprivileged user.
 *
 *   pcn_impostor MODE DST_IP PORT SRC_IP NID
 *
 * MODE: see impostor.h.
 *
 * Prints what the node did and exits 0 when it refused us (a non-zero
 * verdict, or the connection closed), 1 when it accepted us, 2 when the
 * attack could not be run (no connection, no answer).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "impostor.h"

static int io(int fd, void *buf, size_t len, int out)
{
	while (len) {
		ssize_t n = out ? send(fd, buf, len, MSG_NOSIGNAL) :
				  recv(fd, buf, len, 0);

		if (n <= 0)
			return -1;
		buf = (char *)buf + n;
		len -= n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 10 };
	struct hello_answer answer;
	struct hello_proof proof;
	struct hello h;
	const char *mode;
	uint32_t verdict;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: pcn_impostor badproof|reflect|noauth DST_IP PORT SRC_IP NID\n");
		return 2;
	}
	mode = argv[1];
	if (!impostor_mode(mode))
		return 2;
	dst.sin_port = htons(atoi(argv[3]));
	if (inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1 ||
	    inet_pton(AF_INET, argv[4], &src.sin_addr) != 1)
		return 2;

	if (impostor_hello(&h, mode, atoi(argv[5])))
		return 2;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, (struct sockaddr *)&src, sizeof(src)) ||
	    connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
		printf("cannot connect from %s: %s\n", argv[4], strerror(errno));
		return 2;
	}
	if (io(fd, &h, sizeof(h), 1) || io(fd, &answer, sizeof(answer), 0)) {
		printf("no answer to our hello as node %d\n", h.nid);
		return 2;
	}
	if (impostor_proof(&proof, mode, &answer))
		return 2;
	if (io(fd, &proof, sizeof(proof), 1)) {
		printf("refused: closed before our proof\n");
		return 0;
	}
	if (io(fd, &verdict, sizeof(verdict), 0)) {
		printf("refused: closed without a verdict\n");
		return 0;
	}
	return impostor_verdict(verdict, h.nid);
}
