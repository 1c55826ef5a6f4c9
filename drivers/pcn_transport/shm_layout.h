/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn shared-memory transport: the layout of the shared segment
 * (the ivshmem device's BAR2, a file on the host).  Every node maps it;
 * the harness and the tests read and write it through the host file, so
 * this is a contract, described in Documentation/popcorn/shm.rst.  All
 * nodes are x86-64 guests of one host: fields are in host (little-
 * endian) byte order.
 *
 *   0                       struct pcn_shm_header
 *   PCN_SHM_SLOTS_OFFSET    struct pcn_shm_slot, one per node slot
 *   ring_base               nslots * nslots rings, ring_stride bytes each:
 *                           ring (from, to) at ring_base +
 *                           (from * nslots + to) * ring_stride, holding
 *                           a control page then ring_bytes of data.
 *
 * Every field has one writer: the header is written (identically) by
 * whichever node finds the segment unformatted, a slot by its node, a
 * ring's producer line by the sending node and its consumer line by the
 * receiving one.  Nothing relies on an atomic read-modify-write between
 * guests, which QEMU's TCG does not provide across processes.
 */
#ifndef _PCN_TRANSPORT_SHM_LAYOUT_H
#define _PCN_TRANSPORT_SHM_LAYOUT_H

#include <linux/types.h>

#define PCN_SHM_MAGIC		0x48534350	/* "PCSH" */
#define PCN_SHM_VERSION		1
#define PCN_SHM_SLOTS_OFFSET	256
#define PCN_SHM_HEADER_SIZE	4096		/* header and slots */
#define PCN_SHM_CTL_SIZE	4096		/* a ring's control page */
/* A ring holds at least two messages of the largest size. */
#define PCN_SHM_RING_MIN	(256 * 1024)
#define PCN_SHM_RING_MAX	(1024 * 1024)

struct pcn_shm_header {
	u32 magic;
	u32 version;
	u32 nslots;		/* nodes of pcn.nodes= */
	u32 ring_bytes;		/* data bytes of a ring, a power of two */
	u64 ring_base;
	u64 ring_stride;
	u64 size;		/* bytes of the segment the layout uses */
	u32 reserved;		/* 0 */
	u32 check;		/* crc32_le(~0, the bytes before it) */
};

/* A node's slot: one cache line, written by that node only. */
struct pcn_shm_slot {
	u64 boot_id;		/* random, never 0, new at each boot */
	u64 heartbeat;		/* counts up while the node runs */
	u8 pad[48];
};

/*
 * A ring's control page.  head and tail count bytes, free-running
 * modulo 2^32; a ring position is the count modulo ring_bytes.
 * A connection is a session: a number the dialer picks, which both
 * ends write into their lines of both rings before using them.
 */
struct pcn_shm_ring_ctl {
	/* The producer's line. */
	u32 head;		/* bytes written and published */
	u32 session;		/* the session it writes for, 0: none */
	u64 target_boot;	/* the consumer's boot_id it was set for */
	u8 pad1[48];
	/* The consumer's line. */
	u32 tail;		/* bytes consumed */
	u32 session_ack;	/* the session it reads for, 0: none */
	u8 pad2[56];
};

/* Each message in a ring follows a record header (none in handshakes). */
struct pcn_shm_rec {
	u32 len;		/* bytes of the message, pages included */
	u32 seq;		/* records before it in this session */
};

#endif /* _PCN_TRANSPORT_SHM_LAYOUT_H */
