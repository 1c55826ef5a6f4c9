// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the validation of received messages (kmsg.c).
 */
#include <kunit/test.h>

#include "kmsg_internal.h"

#define HDR	sizeof(struct pcn_kmsg_hdr)

/* Type 0: a request of 32..100 bytes; type 1: exactly 24 bytes; 2: none. */
static const struct pcn_kmsg_type_desc test_types[] = {
	{ .name = "req", .min_size = 32, .max_size = 100, .registered = true,
	  .handler = (pcn_kmsg_handler_t)1 },
	{ .name = "resp", .min_size = 24, .max_size = 24, .registered = true },
	{ .name = "gone", .min_size = HDR, .max_size = 200 },
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
	KUNIT_EXPECT_EQ(test, PCN_DROP_TYPE, check(mkhdr(32, 3, 1), 32, 1));
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

static void pcn_kmsg_check_flags(struct kunit *test)
{
	struct pcn_kmsg_hdr h = mkhdr(32, 0, 1);

	h.flags = 0x80;
	KUNIT_EXPECT_EQ(test, PCN_DROP_FLAGS, check(h, 32, 1));
}

static struct kunit_case pcn_kmsg_cases[] = {
	KUNIT_CASE(pcn_kmsg_check_valid),
	KUNIT_CASE(pcn_kmsg_check_short),
	KUNIT_CASE(pcn_kmsg_check_size_mismatch),
	KUNIT_CASE(pcn_kmsg_check_type),
	KUNIT_CASE(pcn_kmsg_check_type_size),
	KUNIT_CASE(pcn_kmsg_check_nid),
	KUNIT_CASE(pcn_kmsg_check_flags),
	{}
};

static struct kunit_suite pcn_kmsg_suite = {
	.name = "popcorn_kmsg",
	.test_cases = pcn_kmsg_cases,
};

kunit_test_suite(pcn_kmsg_suite);
