// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the page hold time (page_hold.c): how a page's window
 * adapts, and which requests it defers, on a context of the test's own.
 */
#include <kunit/test.h>
#include <linux/time64.h>
#include <linux/xarray.h>

#include "context.h"
#include "page_hold.h"

#define US	1000ULL
/* pcn.page_hold_us's default; tests of a window need it. */
#define LIMIT	(20000 * US)

static void pcn_hold_window_adapts(struct kunit *test)
{
	/* A quick return starts a window, and each doubles it... */
	KUNIT_EXPECT_EQ(test, pcn_hold_next(0, 300 * US, true, LIMIT),
			LIMIT / 16);
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT / 16, 300 * US, true, LIMIT),
			LIMIT / 8);
	/* ...up to the limit. */
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT, 300 * US, true, LIMIT),
			LIMIT);
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT / 2 + 1, 0, true, LIMIT),
			LIMIT);
	/* A slow return, or a move to another node, halves it... */
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT, LIMIT, true, LIMIT),
			LIMIT / 2);
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT, 0, false, LIMIT),
			LIMIT / 2);
	/* ...and below the start it is none. */
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT / 16, 0, false, LIMIT), 0U);
	KUNIT_EXPECT_EQ(test, pcn_hold_next(0, 0, false, LIMIT), 0U);
	/* Off: no window at all. */
	KUNIT_EXPECT_EQ(test, pcn_hold_next(LIMIT, 0, true, 0), 0U);
}

static struct remote_context *pcn_hold_ctx(struct kunit *test)
{
	struct remote_context *ctx = kunit_kzalloc(test, sizeof(*ctx),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	xa_init(&ctx->holds);
	return ctx;
}

/* Nodes 0 (the origin) and 1 write page 7 in turn, 300 us apart. */
static void pcn_hold_ping_pong(struct kunit *test)
{
	struct remote_context *ctx = pcn_hold_ctx(test);
	u64 now = 1000000 * US, left = 0;
	int i, to = 0;

	if (pcn_hold_limit() != LIMIT)
		kunit_skip(test, "pcn.page_hold_us is not its default");

	/* Nothing bounced yet: no hold, no entry. */
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, 1, 0, now), 0ULL);
	pcn_hold_moved(ctx, 7, -1, 1, now, false);
	KUNIT_EXPECT_TRUE(test, xa_empty(&ctx->holds));

	/* The origin takes it back from writer 1: an entry, no window. */
	pcn_hold_moved(ctx, 7, 1, 0, now, true);
	KUNIT_EXPECT_FALSE(test, xa_empty(&ctx->holds));
	for (i = 0; i < 8; i++) {
		int from = to;

		to = 1 - to;
		now += 300 * US;
		left = pcn_hold_left(ctx, 7, from, to, now);
		now += left;
		pcn_hold_moved(ctx, 7, from, to, now, from == 1);
	}
	/* Every return was quick: the window reached the limit... */
	now += 100 * US;
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, to, 1 - to, now),
			LIMIT - 100 * US);
	/* ...and holds only against others: the holder, the shared page. */
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, to, to, now), 0ULL);
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, -1, 1 - to, now), 0ULL);
	/* A stale entry (the page was taken back meanwhile) holds nothing. */
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, 2, 1 - to, now), 0ULL);
	/* The window ends. */
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, to, 1 - to, now + LIMIT),
			0ULL);

	/*
	 * Then it moves on slowly, each asking well after it lost it: the
	 * window halves down to nothing.
	 */
	for (i = 0; i < 6; i++) {
		int from = to;

		to = 1 - to;
		now += 10 * LIMIT;
		KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 7, from, to, now),
				0ULL);
		pcn_hold_moved(ctx, 7, from, to, now, false);
	}
	KUNIT_EXPECT_TRUE(test, xa_empty(&ctx->holds));
	pcn_holds_release(ctx);
}

/* A read copy made writable where it is: no move, the window stays. */
static void pcn_hold_upgrade(struct kunit *test)
{
	struct remote_context *ctx = pcn_hold_ctx(test);

	if (pcn_hold_limit() != LIMIT)
		kunit_skip(test, "pcn.page_hold_us is not its default");
	/* Taken back from writer 1, read there again at once... */
	pcn_hold_moved(ctx, 5, 1, 0, 0, true);
	pcn_hold_moved(ctx, 5, 0, 1, 300 * US, false);
	/* ...and written: node 1 holds it from then on. */
	pcn_hold_moved(ctx, 5, -1, 1, 400 * US, false);
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 5, 1, 0, 500 * US),
			LIMIT / 16 - 100 * US);
	pcn_holds_release(ctx);
}

/* A node deferred waits pcn.page_hold_us in all, holder after holder. */
static void pcn_hold_bounded(struct kunit *test)
{
	struct remote_context *ctx = pcn_hold_ctx(test);
	u64 t = 100 * US;

	if (pcn_hold_limit() != LIMIT)
		kunit_skip(test, "pcn.page_hold_us is not its default");
	/* Taken back from 1, and 1 back for it at once: 1 holds it. */
	pcn_hold_moved(ctx, 9, 1, 0, 0, true);
	pcn_hold_moved(ctx, 9, 0, 1, t, false);
	/* Node 2 asks: deferred, and waiting from now. */
	KUNIT_EXPECT_GT(test, pcn_hold_left(ctx, 9, 1, 2, 2 * t), 0ULL);
	/* The origin gets it first, and back quickly: a longer window. */
	pcn_hold_moved(ctx, 9, 1, 0, LIMIT, false);
	/* Node 1 is deferred by it, node 2 no longer: it waited LIMIT. */
	KUNIT_EXPECT_GT(test, pcn_hold_left(ctx, 9, 0, 1, LIMIT + 3 * t),
			0ULL);
	KUNIT_EXPECT_EQ(test, pcn_hold_left(ctx, 9, 0, 2, LIMIT + 3 * t),
			0ULL);
	pcn_holds_release(ctx);
}

/* A munmap forgets the range's holds, and only those. */
static void pcn_hold_forget_range(struct kunit *test)
{
	struct remote_context *ctx = pcn_hold_ctx(test);

	if (!pcn_hold_limit())
		kunit_skip(test, "pcn.page_hold_us is 0: no holds");

	pcn_hold_moved(ctx, 3, 1, 0, 1, true);
	pcn_hold_moved(ctx, 9, 1, 0, 1, true);
	pcn_holds_forget(ctx, 2 * PAGE_SIZE, 4 * PAGE_SIZE);
	KUNIT_EXPECT_NULL(test, xa_load(&ctx->holds, 3));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&ctx->holds, 9));
	pcn_holds_release(ctx);
}

static struct kunit_case pcn_hold_cases[] = {
	KUNIT_CASE(pcn_hold_window_adapts),
	KUNIT_CASE(pcn_hold_ping_pong),
	KUNIT_CASE(pcn_hold_upgrade),
	KUNIT_CASE(pcn_hold_bounded),
	KUNIT_CASE(pcn_hold_forget_range),
	{}
};

static struct kunit_suite pcn_hold_suite = {
	.name = "popcorn_page_hold",
	.test_cases = pcn_hold_cases,
};

kunit_test_suite(pcn_hold_suite);
