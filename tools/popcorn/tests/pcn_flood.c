// SPDX-License-Identifier: GPL-2.0
/*
 * A hostile peer: send N FILE_WRITE requests for one shadow of a node
 * as fast as the test hook allows, as a buggy or malicious remote could.
 * Root only (it writes /sys/kernel/debug/popcorn/inject_raw).
 *
 *   pcn_flood NID CTX_ID SHADOW_PID FD N
 *
 * Each asks the shadow SHADOW_PID of context CTX_ID at node NID to
 * write one byte to its descriptor FD.  Prints how many were sent;
 * exit 0 when all were.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../popcorn.h"
#include "wire.h"

/* The wire format of kernel/popcorn/messages.h (x86-64). */
#define TYPE_FILE_WRITE	18	/* enum pcn_kmsg_type */

struct file_write_msg {
	struct wire_hdr hdr;
	uint32_t ctx_id;
	int32_t shadow_pid;
	uint32_t fd;
	uint32_t reserved;
	uint64_t buf;
	uint64_t count;
	int64_t ret;
} __attribute__((packed));

int main(int argc, char **argv)
{
	struct {
		uint32_t nid;
		struct file_write_msg m;
	} __attribute__((packed)) raw;
	static const char byte = 'x';
	int fd, i, n, sent = 0;

	if (argc != 6) {
		fprintf(stderr, "usage: pcn_flood NID CTX_ID SHADOW_PID FD N\n");
		return 2;
	}
	memset(&raw, 0, sizeof(raw));
	raw.nid = atoi(argv[1]);
	raw.m.hdr.size = sizeof(raw.m);
	raw.m.hdr.type = TYPE_FILE_WRITE;
	raw.m.hdr.from_nid = popcorn_current_nid();
	raw.m.ctx_id = strtoul(argv[2], NULL, 0);
	raw.m.shadow_pid = atoi(argv[3]);
	raw.m.fd = atoi(argv[4]);
	raw.m.buf = (uintptr_t)&byte;
	raw.m.count = 1;
	n = atoi(argv[5]);
	fd = open("/sys/kernel/debug/popcorn/inject_raw", O_WRONLY);
	if (fd < 0) {
		perror("inject_raw");
		return 1;
	}
	for (i = 0; i < n; i++) {
		raw.m.hdr.seq = i + 1;
		raw.m.hdr.wait_id = 0x7f000000 + i;
		if (write(fd, &raw, sizeof(raw)) == (ssize_t)sizeof(raw))
			sent++;
	}
	close(fd);
	printf("sent %d of %d file_write requests to node %u\n", sent, n,
	       raw.nid);
	return sent == n ? 0 : 1;
}
