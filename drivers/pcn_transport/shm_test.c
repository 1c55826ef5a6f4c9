// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the shared-memory transport's layout and rings: the
 * layout every node must compute alike, the header's check value, and
 * the rings' handling of wrap-around and of impossible indices written
 * by the other end.  Included at the end of shm_layout.c (its layout
 * functions are private); the rings are in ordinary memory here.
 */
#include <kunit/test.h>

static void pcn_shm_test_layout(struct kunit *test)
{
	static const unsigned int nodes[] = { 1, 2, 3, 8 };
	struct pcn_shm_header l;
	int i;

	for (i = 0; i < ARRAY_SIZE(nodes); i++) {
		unsigned int n = nodes[i];

		KUNIT_ASSERT_EQ(test, pcn_shm_layout_compute(&l, SZ_32M, n), 0);
		KUNIT_EXPECT_EQ(test, l.magic, PCN_SHM_MAGIC);
		KUNIT_EXPECT_EQ(test, l.nslots, n);
		KUNIT_EXPECT_TRUE(test, is_power_of_2(l.ring_bytes));
		KUNIT_EXPECT_GE(test, l.ring_bytes, PCN_SHM_RING_MIN);
		KUNIT_EXPECT_LE(test, l.ring_bytes, PCN_SHM_RING_MAX);
		/* Two of the largest records fit. */
		KUNIT_EXPECT_GE(test, (size_t)l.ring_bytes,
				2 * (sizeof(struct pcn_shm_rec) + PCN_KMSG_MAX_SIZE));
		KUNIT_EXPECT_GE(test, l.ring_base, (u64)PCN_SHM_SLOTS_OFFSET +
				POPCORN_MAX_NODES * sizeof(struct pcn_shm_slot));
		KUNIT_EXPECT_EQ(test, l.ring_stride,
				(u64)PCN_SHM_CTL_SIZE + l.ring_bytes);
		KUNIT_EXPECT_LE(test, l.size, (u64)SZ_32M);
	}
	/* Eight nodes in 32 MiB: 64 rings of 256 KiB. */
	pcn_shm_layout_compute(&l, SZ_32M, 8);
	KUNIT_EXPECT_EQ(test, l.ring_bytes, 256 * 1024);
	/* 32 nodes need more than 32 MiB; a tiny segment holds nothing. */
	KUNIT_EXPECT_EQ(test, pcn_shm_layout_compute(&l, SZ_32M, 32), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pcn_shm_layout_compute(&l, 1024, 1), -ENOSPC);
}

/* Every field is covered by the check value. */
static void pcn_shm_test_header_check(struct kunit *test)
{
	struct pcn_shm_header l, bad;
	size_t i;

	KUNIT_ASSERT_EQ(test, pcn_shm_layout_compute(&l, SZ_32M, 3), 0);
	KUNIT_EXPECT_EQ(test, pcn_shm_header_check(&l), l.check);
	for (i = 0; i < offsetof(struct pcn_shm_header, check); i++) {
		bad = l;
		((u8 *)&bad)[i] ^= 0x10;
		KUNIT_EXPECT_NE(test, pcn_shm_header_check(&bad), l.check);
	}
}

struct pcn_shm_test_ring {
	struct pcn_shm_ring prod, cons;
	struct pcn_shm_ring_ctl ctl;
};

/* A producer's and a consumer's view of one small ring. */
static struct pcn_shm_test_ring *pcn_shm_test_ring(struct kunit *test,
						   u32 size, u32 start)
{
	struct pcn_shm_test_ring *t = kunit_kzalloc(test, sizeof(*t),
						    GFP_KERNEL);
	u8 *data = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, data);
	t->prod.ctl = &t->ctl;
	t->prod.data = data;
	t->prod.size = size;
	t->prod.pos = start;
	t->cons = t->prod;
	t->ctl.head = start;
	t->ctl.tail = start;
	return t;
}

/* Bytes written across the end of the ring come back in order. */
static void pcn_shm_test_ring_wrap(struct kunit *test)
{
	struct pcn_shm_test_ring *t = pcn_shm_test_ring(test, 256, 0xfffffff0);
	u8 in[200], out[200];
	bool bad;
	int i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = i;
	/* 16 bytes before the index wraps, at 240 in the ring. */
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_room(&t->prod, &bad), 256u);
	KUNIT_EXPECT_FALSE(test, bad);
	pcn_shm_ring_write(&t->prod, in, sizeof(in));
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_avail(&t->cons), 0);
	pcn_shm_ring_publish(&t->prod);
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_avail(&t->cons), (long)sizeof(in));
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_room(&t->prod, &bad), 56u);
	pcn_shm_ring_read(&t->cons, 0, out, sizeof(out));
	KUNIT_EXPECT_EQ(test, memcmp(in, out, sizeof(in)), 0);
	pcn_shm_ring_consume(&t->cons, sizeof(out));
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_avail(&t->cons), 0);
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_room(&t->prod, &bad), 256u);
	KUNIT_EXPECT_EQ(test, t->ctl.tail, 0xfffffff0u + 200);
}

/* Indices the other end could not have written are refused. */
static void pcn_shm_test_ring_bad_index(struct kunit *test)
{
	struct pcn_shm_test_ring *t = pcn_shm_test_ring(test, 256, 100);
	bool bad;

	/* A head more than a ring ahead of the consumer, or behind it. */
	t->ctl.head = 100 + 257;
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_avail(&t->cons), -EPROTO);
	t->ctl.head = 99;
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_avail(&t->cons), -EPROTO);
	t->ctl.head = 100 + 256;
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_avail(&t->cons), 256);
	/* A tail ahead of the producer's head, or a ring behind. */
	t->ctl.tail = 101;
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_room(&t->prod, &bad), 0u);
	KUNIT_EXPECT_TRUE(test, bad);
	t->ctl.tail = 100 - 257;
	pcn_shm_ring_room(&t->prod, &bad);
	KUNIT_EXPECT_TRUE(test, bad);
	t->ctl.tail = 100 - 256;
	KUNIT_EXPECT_EQ(test, pcn_shm_ring_room(&t->prod, &bad), 0u);
	KUNIT_EXPECT_FALSE(test, bad);
}

static struct kunit_case pcn_shm_test_cases[] = {
	KUNIT_CASE(pcn_shm_test_layout),
	KUNIT_CASE(pcn_shm_test_header_check),
	KUNIT_CASE(pcn_shm_test_ring_wrap),
	KUNIT_CASE(pcn_shm_test_ring_bad_index),
	{}
};

static struct kunit_suite pcn_shm_test_suite = {
	.name = "popcorn_shm",
	.test_cases = pcn_shm_test_cases,
};

kunit_test_suite(pcn_shm_test_suite);
