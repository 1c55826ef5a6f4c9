// SPDX-License-Identifier: GPL-2.0
/*
 * The raw transport baseline: a user-space TCP ping-pong between two
 * guests over the same link Popcorn uses.
 *
 *   bench_tcp server PORT
 *   bench_tcp client IP PORT SIZE COUNT
 *   bench_tcp offset IP PORT COUNT
 *
 * The server echoes every message of its clients (one at a time) until
 * killed.  The client sends SIZE bytes, waits for them back, COUNT times
 * after 5 warm-up rounds, checks the echo and prints
 * "# bench tcp_rtt_SIZE ns COUNT MEAN P50 P99" (stats.h).
 *
 * "offset" estimates how far the server's CLOCK_MONOTONIC is ahead of
 * this node's, as NTP does: an empty message asks the server for its
 * clock, read at some point between sending (t0) and the answer (t2);
 * of COUNT exchanges the one with the shortest round trip gives the
 * offset, t1 - (t0 + t2) / 2, within half that round trip.  It prints
 * "OFFSET_NS ERROR_NS".
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "stats.h"

#define MAX_SIZE	(64 * 1024)

static int xfer(int fd, char *buf, size_t len, int out)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = out ? write(fd, buf + done, len - done) :
			  read(fd, buf + done, len - done);
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static int server(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	static char buf[MAX_SIZE];
	int one = 1, s, c;
	uint32_t len;

	s = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(s, 4)) {
		perror("bench_tcp server");
		return 1;
	}
	for (;;) {
		c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		/*
		 * Each message: a 32-bit length, then that many bytes; an
		 * empty one asks for this node's clock (8 bytes).
		 */
		while (!xfer(c, (char *)&len, 4, 0) && len <= MAX_SIZE) {
			if (!len) {
				uint64_t now = now_ns();

				if (xfer(c, (char *)&now, sizeof(now), 1))
					break;
			} else if (xfer(c, buf, len, 0) || xfer(c, buf, len, 1)) {
				break;
			}
		}
		close(c);
	}
}

/* A connection to the server at @ip:@port (it may still be starting). */
static int dial(const char *ip, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int one = 1, fd, tries;

	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1)
		return -1;
	for (tries = 0;; tries++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			break;
		close(fd);
		if (tries == 100) {
			perror("bench_tcp: connect");
			return -1;
		}
		usleep(100000);
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static int offset(const char *ip, int port, int count)
{
	uint64_t t0, t1, t2, best = UINT64_MAX;
	uint32_t zero = 0;
	int64_t off = 0;
	int fd, i;

	fd = dial(ip, port);
	if (fd < 0 || count < 1)
		return 1;
	for (i = 0; i < count; i++) {
		t0 = now_ns();
		if (xfer(fd, (char *)&zero, 4, 1) ||
		    xfer(fd, (char *)&t1, sizeof(t1), 0)) {
			perror("bench_tcp offset");
			return 1;
		}
		t2 = now_ns();
		if (t2 - t0 < best) {
			best = t2 - t0;
			off = (int64_t)(t1 - t0) - (int64_t)(best / 2);
		}
	}
	close(fd);
	printf("%lld %llu\n", (long long)off, (unsigned long long)(best / 2));
	return 0;
}

static int client(const char *ip, int port, uint32_t size, int count)
{
	static char out[MAX_SIZE], in[MAX_SIZE];
	struct samples s;
	char name[32];
	int fd, i;
	uint64_t t;

	if (size > MAX_SIZE)
		return 2;
	fd = dial(ip, port);
	if (fd < 0)
		return 1;
	samples_init(&s, count);
	for (i = 0; i < count + 5; i++) {
		memset(out, i, size);
		t = now_ns();
		if (xfer(fd, (char *)&size, 4, 1) || xfer(fd, out, size, 1) ||
		    xfer(fd, in, size, 0)) {
			perror("bench_tcp client");
			return 1;
		}
		t = now_ns() - t;
		if (memcmp(in, out, size)) {
			fprintf(stderr, "bench_tcp: echo differs\n");
			return 1;
		}
		if (i >= 5)
			samples_add(&s, t);
	}
	close(fd);
	snprintf(name, sizeof(name), "tcp_rtt_%u", size);
	samples_print(&s, name, "ns");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "server"))
		return server(atoi(argv[2]));
	if (argc == 6 && !strcmp(argv[1], "client"))
		return client(argv[2], atoi(argv[3]), atoi(argv[4]),
			      atoi(argv[5]));
	if (argc == 5 && !strcmp(argv[1], "offset"))
		return offset(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: bench_tcp server PORT | client IP PORT SIZE COUNT | offset IP PORT COUNT\n");
	return 2;
}
