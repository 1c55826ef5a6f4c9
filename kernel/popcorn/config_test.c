// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the Popcorn boot configuration parser (config.c).
 */
#include <kunit/test.h>
#include <linux/inet.h>

#include "config.h"

static __be32 ip(const char *s)
{
	__be32 a = 0;

	in4_pton(s, -1, (u8 *)&a, -1, NULL);
	return a;
}

/* is_local callback: the address passed as @arg is ours. */
static bool local_is(__be32 addr, void *arg)
{
	return addr == ip(arg);
}

static void pcn_config_valid_list(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_ASSERT_EQ(test, 0, pcn_config_parse("10.0.0.1,10.0.0.2,10.0.0.3",
						  "2", NULL, NULL, NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 3);
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 2);
	KUNIT_EXPECT_EQ(test, cfg.addr[0], ip("10.0.0.1"));
	KUNIT_EXPECT_EQ(test, cfg.addr[1], ip("10.0.0.2"));
	KUNIT_EXPECT_EQ(test, cfg.addr[2], ip("10.0.0.3"));
	KUNIT_EXPECT_STREQ(test, cfg.transport, "tcp");
	KUNIT_EXPECT_NULL(test, cfg.error);
}

static void pcn_config_single_node(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_ASSERT_EQ(test, 0, pcn_config_parse("192.168.7.9", "0", "shm",
						  NULL, NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 1);
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 0);
	KUNIT_EXPECT_STREQ(test, cfg.transport, "shm");
}

static void pcn_config_nid_from_address(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_ASSERT_EQ(test, 0, pcn_config_parse("10.0.0.1,10.0.0.2,10.0.0.3",
						  "", "rdma", local_is,
						  "10.0.0.2", &cfg));
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 1);
	KUNIT_EXPECT_STREQ(test, cfg.transport, "rdma");
}

static void pcn_config_own_address_absent(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -ENOENT,
			pcn_config_parse("10.0.0.1,10.0.0.2", NULL, NULL,
					 local_is, "10.0.0.9", &cfg));
	KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	KUNIT_EXPECT_EQ(test, cfg.my_nid, -1);
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			pcn_config_parse("10.0.0.1", NULL, NULL, NULL, NULL,
					 &cfg));
}

static void pcn_config_duplicates(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_config_parse("10.0.0.1,10.0.0.2,10.0.0.1", "0",
					 NULL, NULL, NULL, &cfg));
	KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);
}

static void pcn_config_garbage(struct kunit *test)
{
	static const char * const bad[] = {
		"", ",", "10.0.0.1,", ",10.0.0.1", "10.0.0.1,,10.0.0.2",
		"10.0.0", "10.0.0.1.5", "10.0.0.256", "10.0.0.1 ", "node0",
		"10.0.0.1;10.0.0.2", "0.0.0.0", "127.0.0.1", "224.0.0.1",
		"255.255.255.255", "10.0.0.1,10.0.0.x",
	};
	struct pcn_config cfg;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    pcn_config_parse(bad[i], "0", NULL, NULL,
						     NULL, &cfg),
				    "pcn.nodes=\"%s\"", bad[i]);
		KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	}
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_config_parse(NULL, "0", NULL, NULL, NULL, &cfg));
}

static void pcn_config_too_many_nodes(struct kunit *test)
{
	char *list = kunit_kzalloc(test, 40 * 16, GFP_KERNEL);
	struct pcn_config cfg;
	int i, len = 0;

	KUNIT_ASSERT_NOT_NULL(test, list);
	for (i = 0; i < POPCORN_MAX_NODES; i++)
		len += sprintf(list + len, "%s10.1.0.%d", i ? "," : "", i + 1);
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse(list, "31", NULL, NULL,
						  NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, POPCORN_MAX_NODES);

	sprintf(list + len, ",10.1.0.%d", POPCORN_MAX_NODES + 1);
	KUNIT_EXPECT_EQ(test, -E2BIG, pcn_config_parse(list, "0", NULL, NULL,
						       NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);
}

static void pcn_config_bad_nid(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -ERANGE, pcn_config_parse("10.0.0.1,10.0.0.2",
							"2", NULL, NULL, NULL,
							&cfg));
	KUNIT_EXPECT_EQ(test, -ERANGE, pcn_config_parse("10.0.0.1,10.0.0.2",
							"-1", NULL, NULL, NULL,
							&cfg));
	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_config_parse("10.0.0.1,10.0.0.2",
							"one", NULL, NULL,
							NULL, &cfg));
	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_config_parse("10.0.0.1,10.0.0.2",
							"1x", NULL, NULL, NULL,
							&cfg));
}

/*
 * Only the spelling is checked here: whether such a transport is built
 * in is the messaging core's question (the absent-transport scenario).
 */
static void pcn_config_bad_transport(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_config_parse("10.0.0.1", "0",
							"TCP", NULL, NULL,
							&cfg));
	KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_config_parse("10.0.0.1", "0",
							"tcp,rdma", NULL, NULL,
							&cfg));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_config_parse("10.0.0.1", "0", "a_name_too_long_",
					 NULL, NULL, &cfg));
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse("10.0.0.1", "0",
						  "a_name_15_long_", NULL,
						  NULL, &cfg));
	KUNIT_EXPECT_STREQ(test, cfg.transport, "a_name_15_long_");
}

static struct kunit_case pcn_config_cases[] = {
	KUNIT_CASE(pcn_config_valid_list),
	KUNIT_CASE(pcn_config_single_node),
	KUNIT_CASE(pcn_config_nid_from_address),
	KUNIT_CASE(pcn_config_own_address_absent),
	KUNIT_CASE(pcn_config_duplicates),
	KUNIT_CASE(pcn_config_garbage),
	KUNIT_CASE(pcn_config_too_many_nodes),
	KUNIT_CASE(pcn_config_bad_nid),
	KUNIT_CASE(pcn_config_bad_transport),
	{}
};

static struct kunit_suite pcn_config_suite = {
	.name = "popcorn_config",
	.test_cases = pcn_config_cases,
};

kunit_test_suite(pcn_config_suite);
