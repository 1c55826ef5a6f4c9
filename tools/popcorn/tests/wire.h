/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The message header of include/popcorn/pcn_kmsg.h as user space sees it
 * (x86-64, host byte order), for the tests that craft messages through
 * the test hook /sys/kernel/debug/popcorn/inject_raw.
 */
#ifndef _POPCORN_TESTS_WIRE_H
#define _POPCORN_TESTS_WIRE_H

#include <stdint.h>

struct wire_hdr {
	uint32_t size;		/* whole message, header and pages included */
	uint16_t type;		/* enum pcn_kmsg_type */
	uint8_t from_nid;
	uint8_t npages;		/* pages of data that end the message */
	uint32_t seq;
	uint32_t wait_id;
} __attribute__((packed));

#define WIRE_HDR_SIZE	16
_Static_assert(sizeof(struct wire_hdr) == WIRE_HDR_SIZE, "pcn_kmsg_hdr");

#endif /* _POPCORN_TESTS_WIRE_H */
