// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the IPv4 node addresses of the tcp and rdma transports
 * (ipv4_addr.c): what pcn.nodes= entries they take and how they store
 * them.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "ipv4_addr.h"

static int parse(const char *s, struct pcn_node_addr *addr)
{
	memset(addr, 0, sizeof(*addr));
	return pcn_ipv4_parse_addr(s, strlen(s), addr);
}

static void pcn_ipv4_valid(struct kunit *test)
{
	static const u8 want[] = { 10, 0, 0, 2 };
	struct pcn_node_addr addr;

	KUNIT_ASSERT_EQ(test, 0, parse("10.0.0.2", &addr));
	KUNIT_EXPECT_EQ(test, addr.len, 4);
	KUNIT_EXPECT_EQ(test, 0, memcmp(addr.bytes, want, sizeof(want)));
	KUNIT_EXPECT_EQ(test, 0, parse("192.168.7.9", &addr));
	KUNIT_EXPECT_EQ(test, 0, parse("255.255.255.254", &addr));
}

/* Only the @len characters count: the core passes entries in place. */
static void pcn_ipv4_length_bounds(struct kunit *test)
{
	struct pcn_node_addr addr = {};

	KUNIT_EXPECT_EQ(test, 0, pcn_ipv4_parse_addr("10.0.0.1,10.0.0.2", 8,
						     &addr));
	KUNIT_EXPECT_EQ(test, addr.bytes[3], 1);
	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_ipv4_parse_addr("10.0.0.1", 7,
							   &addr));
	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_ipv4_parse_addr("10.0.0.1", 0,
							   &addr));
}

static void pcn_ipv4_garbage(struct kunit *test)
{
	static const char * const bad[] = {
		"10.0.0", "10.0.0.1.5", "10.0.0.256", "10.0.0.1 ", " 10.0.0.1",
		"node0", "10.0.0.x", "10.0.0.1;", "0.0.0.0",
		"127.0.0.1", "127.255.0.9", "224.0.0.1", "239.1.1.1",
		"255.255.255.255", "::1", "fe80::1",
	};
	struct pcn_node_addr addr;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, parse(bad[i], &addr),
				    "entry \"%s\"", bad[i]);
}

static void pcn_ipv4_not_local(struct kunit *test)
{
	struct pcn_node_addr addr;

	/* TEST-NET-3: configured on no test guest. */
	KUNIT_ASSERT_EQ(test, 0, parse("203.0.113.77", &addr));
	KUNIT_EXPECT_FALSE(test, pcn_ipv4_addr_is_local(&addr));
	addr.len = 3;
	KUNIT_EXPECT_FALSE(test, pcn_ipv4_addr_is_local(&addr));
}

static struct kunit_case pcn_ipv4_cases[] = {
	KUNIT_CASE(pcn_ipv4_valid),
	KUNIT_CASE(pcn_ipv4_length_bounds),
	KUNIT_CASE(pcn_ipv4_garbage),
	KUNIT_CASE(pcn_ipv4_not_local),
	{}
};

static struct kunit_suite pcn_ipv4_suite = {
	.name = "popcorn_ipv4_addr",
	.test_cases = pcn_ipv4_cases,
};

kunit_test_suite(pcn_ipv4_suite);
