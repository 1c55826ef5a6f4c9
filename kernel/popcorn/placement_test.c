// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the placement policy's choice of a node for a new
 * thread (placement.c): fewest threads of the process, lowest id on a
 * tie, only nodes of the policy that are online.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <uapi/linux/popcorn.h>

#include "placement.h"

static void pcn_place_fewest(struct kunit *test)
{
	unsigned int count[POPCORN_MAX_NODES] = {};
	unsigned long all = POPCORN_PLACE_ALL_NODES, up = GENMASK(2, 0);

	/* Main thread on node 0: the next ones go 1, 2, then 0 on a tie. */
	count[0] = 1;
	KUNIT_EXPECT_EQ(test, pcn_place_choose(all, up, count), 1);
	count[1]++;
	KUNIT_EXPECT_EQ(test, pcn_place_choose(all, up, count), 2);
	count[2]++;
	KUNIT_EXPECT_EQ(test, pcn_place_choose(all, up, count), 0);
	count[0]++;
	KUNIT_EXPECT_EQ(test, pcn_place_choose(all, up, count), 1);
	/* Uneven: the least loaded wins whatever its id. */
	count[0] = 5;
	count[1] = 4;
	count[2] = 3;
	KUNIT_EXPECT_EQ(test, pcn_place_choose(all, up, count), 2);
}

static void pcn_place_mask(struct kunit *test)
{
	unsigned int count[POPCORN_MAX_NODES] = {};
	unsigned long up = GENMASK(3, 0);

	count[0] = 1;
	/* Only the nodes of the policy. */
	KUNIT_EXPECT_EQ(test, pcn_place_choose(BIT(2) | BIT(3), up, count), 2);
	count[2] = 2;
	KUNIT_EXPECT_EQ(test, pcn_place_choose(BIT(2) | BIT(3), up, count), 3);
	/* An offline node is skipped, even if it has the fewest. */
	KUNIT_EXPECT_EQ(test, pcn_place_choose(BIT(2) | BIT(3),
					       up & ~BIT(3), count), 2);
	/* None of the policy's nodes is up: nowhere. */
	KUNIT_EXPECT_EQ(test, pcn_place_choose(BIT(5), up, count), -1);
	KUNIT_EXPECT_EQ(test, pcn_place_choose(0, up, count), -1);
	/* The highest node id there can be. */
	KUNIT_EXPECT_EQ(test,
			pcn_place_choose(BIT(POPCORN_MAX_NODES - 1),
					 BIT(POPCORN_MAX_NODES - 1), count),
			POPCORN_MAX_NODES - 1);
}

static struct kunit_case pcn_placement_cases[] = {
	KUNIT_CASE(pcn_place_fewest),
	KUNIT_CASE(pcn_place_mask),
	{}
};

static struct kunit_suite pcn_placement_suite = {
	.name = "popcorn_placement",
	.test_cases = pcn_placement_cases,
};

kunit_test_suite(pcn_placement_suite);
