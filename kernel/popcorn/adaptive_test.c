// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for adaptive placement's rule (adaptive.c): which interval
 * of a thread away is bad, how long new threads stay home after a call
 * home, and how an adaptive policy is kept (placement.c).
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/jiffies.h>
#include <linux/time64.h>
#include <uapi/linux/popcorn.h>

#include "placement.h"

#define MS	NSEC_PER_MSEC

static void pcn_adapt_verdict(struct kunit *test)
{
	/* Waits more than it runs, a quarter of a 250 ms interval: bad. */
	KUNIT_EXPECT_TRUE(test, pcn_adapt_bad(50 * MS, 60 * MS, 250, 100));
	/* As much as it runs is not more. */
	KUNIT_EXPECT_FALSE(test, pcn_adapt_bad(60 * MS, 60 * MS, 250, 100));
	/* Computes more than it waits: stays. */
	KUNIT_EXPECT_FALSE(test, pcn_adapt_bad(200 * MS, 40 * MS, 250, 100));
	/* Below a tenth of the interval, however little it ran: no verdict. */
	KUNIT_EXPECT_FALSE(test, pcn_adapt_bad(0, 24 * MS, 250, 100));
	KUNIT_EXPECT_TRUE(test, pcn_adapt_bad(0, 25 * MS, 250, 100));
	/* A lower percentage calls sooner, a higher one later. */
	KUNIT_EXPECT_TRUE(test, pcn_adapt_bad(200 * MS, 40 * MS, 250, 10));
	KUNIT_EXPECT_FALSE(test, pcn_adapt_bad(50 * MS, 60 * MS, 250, 200));
	/* Ten seconds of wait do not overflow the arithmetic. */
	KUNIT_EXPECT_TRUE(test, pcn_adapt_bad(1, 10000 * MS, 10000, 10000));
	/* 0 % would divide by zero: never bad. */
	KUNIT_EXPECT_FALSE(test, pcn_adapt_bad(0, 100 * MS, 250, 0));
}

static void pcn_adapt_hold_doubles(struct kunit *test)
{
	unsigned long now = 1000 * HZ, hold, until;

	/* The first call home holds new threads for the minimum. */
	hold = pcn_adapt_next_hold(0, 0, now);
	KUNIT_EXPECT_EQ(test, hold, (unsigned long)PCN_ADAPT_HOLD_MIN);
	until = now + hold;
	/* One during the hold doubles it, and again, up to the maximum. */
	hold = pcn_adapt_next_hold(hold, until, now + hold / 2);
	KUNIT_EXPECT_EQ(test, hold, 2UL * PCN_ADAPT_HOLD_MIN);
	while (hold < PCN_ADAPT_HOLD_MAX)
		hold = pcn_adapt_next_hold(hold, until, until);
	KUNIT_EXPECT_EQ(test, hold, (unsigned long)PCN_ADAPT_HOLD_MAX);
	KUNIT_EXPECT_EQ(test, pcn_adapt_next_hold(hold, until, until),
			(unsigned long)PCN_ADAPT_HOLD_MAX);
	/* Within a hold's length after it ended: still doubles. */
	hold = 4 * HZ;
	KUNIT_EXPECT_EQ(test, pcn_adapt_next_hold(hold, until, until + hold),
			8UL * HZ);
	/* Long after: the sharing changed, start over. */
	KUNIT_EXPECT_EQ(test,
			pcn_adapt_next_hold(hold, until, until + hold + 1),
			(unsigned long)PCN_ADAPT_HOLD_MIN);
	/* Across a jiffies wrap. */
	until = ULONG_MAX - HZ;
	KUNIT_EXPECT_EQ(test, pcn_adapt_next_hold(2 * HZ, until, until + HZ),
			4UL * HZ);
}

static void pcn_adapt_policy_kept(struct kunit *test)
{
	/* A static policy: the mask as given, POPCORN_PLACE_ALL_NODES too. */
	KUNIT_EXPECT_FALSE(test, pcn_place_adaptive(POPCORN_PLACE_ALL_NODES));
	KUNIT_EXPECT_TRUE(test, pcn_place_all_nodes(POPCORN_PLACE_ALL_NODES));
	KUNIT_EXPECT_FALSE(test, pcn_place_adaptive(GENMASK(1, 0)));
	KUNIT_EXPECT_FALSE(test, pcn_place_all_nodes(GENMASK(1, 0)));
	KUNIT_EXPECT_FALSE(test, pcn_place_adaptive(0));
	/* Adaptive: bits above the node ids, which placement ignores. */
	KUNIT_EXPECT_TRUE(test,
			  pcn_place_adaptive(GENMASK(1, 0) |
					     PCN_PLACE_ADAPTIVE));
	KUNIT_EXPECT_TRUE(test, pcn_place_all_nodes(GENMASK(2, 0) |
						    PCN_PLACE_ALL |
						    PCN_PLACE_ADAPTIVE));
}

static struct kunit_case pcn_adapt_cases[] = {
	KUNIT_CASE(pcn_adapt_verdict),
	KUNIT_CASE(pcn_adapt_hold_doubles),
	KUNIT_CASE(pcn_adapt_policy_kept),
	{}
};

static struct kunit_suite pcn_adapt_suite = {
	.name = "popcorn_adaptive",
	.test_cases = pcn_adapt_cases,
};

kunit_test_suite(pcn_adapt_suite);
