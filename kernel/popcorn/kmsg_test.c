// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the validation of received messages (kmsg.c) and for
 * the receive queue of a sending node (kmsg_rx.c).
 */
#include <kunit/test.h>

#include "kmsg_internal.h"

#define HDR	sizeof(struct pcn_kmsg_hdr)

/*
 * Type 0: a request of 32..100 bytes; type 1: exactly 24 bytes; 2: none;
 * 3: 40 bytes of fields and up to 2 pages of data.
 */
#define PAGED	40
static const struct pcn_kmsg_type_desc test_types[] = {
	{ .name = "req", .min_size = 32, .max_size = 100, .registered = true,
	  .handler = (pcn_kmsg_handler_t)1 },
	{ .name = "resp", .min_size = 24, .max_size = 24, .registered = true },
	{ .name = "gone", .min_size = HDR, .max_size = 200 },
	{ .name = "paged", .min_size = PAGED,
	  .max_size = PAGED + 3 * PAGE_SIZE, .max_pages = 2,
	  .registered = true },
};

static struct pcn_kmsg_hdr mkhdr(u32 size, u16 type, u8 from)
{
	return (struct pcn_kmsg_hdr){ .size = size, .type = type,
				      .from_nid = from };
}

static enum pcn_kmsg_drop check(struct pcn_kmsg_hdr h, size_t len, int nid)
{
	return pcn_kmsg_check(&h, len, nid, test_types, ARRAY_SIZE(test_types));
}

static void pcn_kmsg_check_valid(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_DROP_NONE, check(mkhdr(32, 0, 1), 32, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_NONE, check(mkhdr(100, 0, 3), 100, 3));
	KUNIT_EXPECT_EQ(test, PCN_DROP_NONE, check(mkhdr(24, 1, 0), 24, 0));
}

static void pcn_kmsg_check_short(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_DROP_SHORT, check(mkhdr(32, 0, 1), 0, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_SHORT, check(mkhdr(32, 0, 1), HDR - 1, 1));
}

static void pcn_kmsg_check_size_mismatch(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_DROP_SIZE, check(mkhdr(32, 0, 1), 33, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_SIZE, check(mkhdr(0, 0, 1), 32, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_SIZE,
			check(mkhdr(0xffffffff, 0, 1), 32, 1));
}

static void pcn_kmsg_check_type(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE, check(mkhdr(32, 4, 1), 32, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE, check(mkhdr(32, 0xffff, 1), 32, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_UNHANDLED, check(mkhdr(32, 2, 1), 32, 1));
}

static void pcn_kmsg_check_type_size(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE_SIZE, check(mkhdr(31, 0, 1), 31, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE_SIZE, check(mkhdr(101, 0, 1), 101, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE_SIZE, check(mkhdr(HDR, 1, 1), HDR, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE_SIZE, check(mkhdr(25, 1, 1), 25, 1));
}

static void pcn_kmsg_check_nid(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_DROP_NID, check(mkhdr(32, 0, 2), 32, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_NID, check(mkhdr(32, 0, 255), 32, 1));
}

/* A message of @size bytes of type 3 claiming @npages pages. */
static enum pcn_kmsg_drop check_pages(u32 size, u16 type, u8 npages)
{
	struct pcn_kmsg_hdr h = mkhdr(size, type, 1);

	h.npages = npages;
	return check(h, size, 1);
}

static void pcn_kmsg_check_pages(struct kunit *test)
{
	struct pcn_kmsg_hdr h = mkhdr(PAGED + 2 * PAGE_SIZE, 3, 1);

	KUNIT_EXPECT_EQ(test, PCN_DROP_NONE,
			check_pages(PAGED + 2 * PAGE_SIZE, 3, 2));
	KUNIT_EXPECT_EQ(test, PCN_DROP_NONE,
			check_pages(PAGED + PAGE_SIZE, 3, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_NONE, check_pages(PAGED, 3, 0));
	/* More than the type takes, or than any message takes. */
	KUNIT_EXPECT_EQ(test, PCN_DROP_PAGES,
			check_pages(PAGED + 3 * PAGE_SIZE, 3, 3));
	KUNIT_EXPECT_EQ(test, PCN_DROP_PAGES,
			check_pages(PAGED + 3 * PAGE_SIZE, 3, 0x80));
	/* Pages on a type that takes none, or beyond the message. */
	KUNIT_EXPECT_EQ(test, PCN_DROP_PAGES, check_pages(100, 0, 1));
	KUNIT_EXPECT_EQ(test, PCN_DROP_PAGES, check_pages(PAGED, 3, 1));
	/* The type's fields must come before the pages. */
	KUNIT_EXPECT_EQ(test, PCN_DROP_PAGES,
			check_pages(HDR + 8 + 2 * PAGE_SIZE, 3, 2));
	/* The shape decides the receive layout: the front part. */
	h.npages = 2;
	KUNIT_EXPECT_EQ(test, (size_t)PAGED, pcn_kmsg_front_size(&h));
	KUNIT_EXPECT_EQ(test, 2U, pcn_kmsg_rx_npages(&h));
	h.npages = 3;
	KUNIT_EXPECT_EQ(test, (size_t)(PAGED + 2 * PAGE_SIZE),
			pcn_kmsg_front_size(&h));
	KUNIT_EXPECT_EQ(test, 0U, pcn_kmsg_rx_npages(&h));
}

static struct pcn_kmsg_rx_item *rx_items(struct kunit *test, int n,
					 size_t len)
{
	struct pcn_kmsg_rx_item *it = kunit_kcalloc(test, n, sizeof(*it),
						    GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, it);
	for (i = 0; i < n; i++)
		it[i].len = len;
	return it;
}

/* 2 run, 3 wait, the 6th is refused; they come out oldest first. */
static void pcn_kmsg_rx_burst_waits(struct kunit *test)
{
	struct pcn_kmsg_rx_item *it = rx_items(test, 7, 100);
	struct pcn_kmsg_rx_queue q;
	int i;

	pcn_kmsg_rx_init(&q, 2, 3, 1 << 20);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, PCN_RX_RUN, pcn_kmsg_rx_admit(&q, &it[i]));
		KUNIT_EXPECT_FALSE(test, it[i].waited);
	}
	for (i = 2; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, PCN_RX_QUEUED,
				pcn_kmsg_rx_admit(&q, &it[i]));
		KUNIT_EXPECT_TRUE(test, it[i].waited);
	}
	KUNIT_EXPECT_EQ(test, PCN_RX_FULL, pcn_kmsg_rx_admit(&q, &it[5]));
	KUNIT_EXPECT_EQ(test, 300, q.pending_bytes);

	/* Each handler that ends hands out the oldest waiting request. */
	KUNIT_EXPECT_PTR_EQ(test, &it[2], pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_EQ(test, PCN_RX_QUEUED, pcn_kmsg_rx_admit(&q, &it[6]));
	KUNIT_EXPECT_PTR_EQ(test, &it[3], pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_PTR_EQ(test, &it[4], pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_PTR_EQ(test, &it[6], pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_EQ(test, 2, q.running);
	KUNIT_EXPECT_EQ(test, 0, q.nr_pending);
	KUNIT_EXPECT_EQ(test, 0, q.pending_bytes);

	/* Nothing waits: each end frees a slot, and a new one runs. */
	KUNIT_EXPECT_NULL(test, pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_EQ(test, 1, q.running);
	KUNIT_EXPECT_EQ(test, PCN_RX_RUN, pcn_kmsg_rx_admit(&q, &it[5]));
	KUNIT_EXPECT_NULL(test, pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_NULL(test, pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_EQ(test, 0, q.running);
}

/* The bytes waiting are bounded too: one large request fills the queue. */
static void pcn_kmsg_rx_bytes_bound(struct kunit *test)
{
	struct pcn_kmsg_rx_item *it = rx_items(test, 4, 600);
	struct pcn_kmsg_rx_queue q;

	pcn_kmsg_rx_init(&q, 1, 100, 1000);
	KUNIT_EXPECT_EQ(test, PCN_RX_RUN, pcn_kmsg_rx_admit(&q, &it[0]));
	KUNIT_EXPECT_EQ(test, PCN_RX_QUEUED, pcn_kmsg_rx_admit(&q, &it[1]));
	KUNIT_EXPECT_EQ(test, PCN_RX_FULL, pcn_kmsg_rx_admit(&q, &it[2]));
	it[3].len = 400;
	KUNIT_EXPECT_EQ(test, PCN_RX_QUEUED, pcn_kmsg_rx_admit(&q, &it[3]));
	KUNIT_EXPECT_EQ(test, 1000, q.pending_bytes);
	KUNIT_EXPECT_PTR_EQ(test, &it[1], pcn_kmsg_rx_next(&q));
	KUNIT_EXPECT_EQ(test, 400, q.pending_bytes);
}

static struct kunit_case pcn_kmsg_cases[] = {
	KUNIT_CASE(pcn_kmsg_check_valid),
	KUNIT_CASE(pcn_kmsg_check_short),
	KUNIT_CASE(pcn_kmsg_check_size_mismatch),
	KUNIT_CASE(pcn_kmsg_check_type),
	KUNIT_CASE(pcn_kmsg_check_type_size),
	KUNIT_CASE(pcn_kmsg_check_nid),
	KUNIT_CASE(pcn_kmsg_check_pages),
	KUNIT_CASE(pcn_kmsg_rx_burst_waits),
	KUNIT_CASE(pcn_kmsg_rx_bytes_bound),
	{}
};

static struct kunit_suite pcn_kmsg_suite = {
	.name = "popcorn_kmsg",
	.test_cases = pcn_kmsg_cases,
};

kunit_test_suite(pcn_kmsg_suite);
