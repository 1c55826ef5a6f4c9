// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the Popcorn boot configuration parser (config.c).
 *
 * The node list is parsed by a made-up transport whose addresses are
 * lower-case words: the core must not care what an address is (the
 * IPv4 addresses of tcp and rdma have their own suite,
 * drivers/pcn_transport/ipv4_addr_test.c).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "config.h"

/*
 * What is configured "here", for ->addr_is_local: every word that
 * starts with it, so that a test can make several entries local.
 */
static const char *pcn_test_local;

static int word_parse(const char *s, size_t len, struct pcn_node_addr *addr)
{
	if (!len || len > PCN_NODE_ADDR_MAX ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyz") < len)
		return -EINVAL;
	addr->len = len;
	memcpy(addr->bytes, s, len);
	return 0;
}

static bool word_is_local(const struct pcn_node_addr *addr)
{
	return pcn_test_local && addr->len >= strlen(pcn_test_local) &&
	       !memcmp(addr->bytes, pcn_test_local, strlen(pcn_test_local));
}

static const struct pcn_kmsg_transport words = {
	.name = "words",
	.parse_addr = word_parse,
	.addr_is_local = word_is_local,
};

/* The same without ->addr_is_local: pcn.nid= is then required. */
static const struct pcn_kmsg_transport words_nolocal = {
	.name = "words_nolocal",
	.parse_addr = word_parse,
};

static int parse(const char *nodes, const char *nid, const char *local,
		 struct pcn_config *cfg)
{
	pcn_test_local = local;
	pcn_config_init(cfg);
	return pcn_config_parse_nodes(nodes, nid, &words, cfg);
}

static bool addr_is(const struct pcn_node_addr *addr, const char *word)
{
	return addr->len == strlen(word) &&
	       !memcmp(addr->bytes, word, addr->len);
}

static void pcn_config_valid_list(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_ASSERT_EQ(test, 0, parse("alpha,beta,gamma", "2", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 3);
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 2);
	KUNIT_EXPECT_TRUE(test, addr_is(&cfg.addr[0], "alpha"));
	KUNIT_EXPECT_TRUE(test, addr_is(&cfg.addr[1], "beta"));
	KUNIT_EXPECT_TRUE(test, addr_is(&cfg.addr[2], "gamma"));
	KUNIT_EXPECT_EQ(test, cfg.addr[1].bytes[4], 0);
	KUNIT_EXPECT_NULL(test, cfg.error);
}

static void pcn_config_single_node(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_ASSERT_EQ(test, 0, parse("solo", "0", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 1);
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 0);
}

static void pcn_config_nid_from_address(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_ASSERT_EQ(test, 0, parse("alpha,beta,gamma", "", "beta", &cfg));
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 1);
	KUNIT_ASSERT_EQ(test, 0, parse("alpha,beta,gamma", NULL, "gamma",
				       &cfg));
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 2);
}

static void pcn_config_own_address_absent(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -ENOENT, parse("alpha,beta", NULL, "delta",
					     &cfg));
	KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	KUNIT_EXPECT_EQ(test, cfg.my_nid, -1);
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);

	/* A transport that cannot tell its own addresses. */
	pcn_test_local = "alpha";
	pcn_config_init(&cfg);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			pcn_config_parse_nodes("alpha", NULL, &words_nolocal,
					       &cfg));
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse_nodes("alpha", "0",
							&words_nolocal, &cfg));
}

static void pcn_config_duplicates(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -EINVAL, parse("alpha,beta,alpha", "0", NULL,
					     &cfg));
	KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);
	/* Several local addresses: ambiguous. */
	KUNIT_EXPECT_EQ(test, -EINVAL, parse("ab,abc", NULL, "ab", &cfg));
	KUNIT_EXPECT_EQ(test, 0, parse("ab,abc", NULL, "abc", &cfg));
	KUNIT_EXPECT_EQ(test, cfg.my_nid, 1);
}

/* Entries the transport refuses, and lists the core cannot split. */
static void pcn_config_garbage(struct kunit *test)
{
	static const char * const bad[] = {
		"", ",", "alpha,", ",alpha", "alpha,,beta", "Alpha",
		"alpha;beta", "alpha beta", "alpha,b3ta",
		"abcdefghijklmnopq",	/* 17 letters: too long */
	};
	struct pcn_config cfg;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, parse(bad[i], "0", NULL,
							 &cfg),
				    "pcn.nodes=\"%s\"", bad[i]);
		KUNIT_EXPECT_NOT_NULL(test, cfg.error);
		KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);
	}
	KUNIT_EXPECT_EQ(test, -EINVAL, parse(NULL, "0", NULL, &cfg));
}

static void pcn_config_too_many_nodes(struct kunit *test)
{
	char *list = kunit_kzalloc(test, 4 * (POPCORN_MAX_NODES + 2),
				   GFP_KERNEL);
	struct pcn_config cfg;
	int i, len = 0;

	KUNIT_ASSERT_NOT_NULL(test, list);
	for (i = 0; i < POPCORN_MAX_NODES; i++)
		len += sprintf(list + len, "%sn%c%c", i ? "," : "",
			       'a' + i / 26, 'a' + i % 26);
	KUNIT_EXPECT_EQ(test, 0, parse(list, "31", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, POPCORN_MAX_NODES);

	strcpy(list + len, ",nzz");
	KUNIT_EXPECT_EQ(test, -E2BIG, parse(list, "0", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.nr_nodes, 0);
}

static void pcn_config_bad_nid(struct kunit *test)
{
	struct pcn_config cfg;

	KUNIT_EXPECT_EQ(test, -ERANGE, parse("alpha,beta", "2", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, -ERANGE, parse("alpha,beta", "-1", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, -EINVAL, parse("alpha,beta", "one", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, -EINVAL, parse("alpha,beta", "1x", NULL, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.my_nid, -1);
}

/*
 * Only the spelling is checked here: whether such a transport is built
 * in is the messaging core's question (the absent-transport scenario).
 */
static void pcn_config_transport_name(struct kunit *test)
{
	struct pcn_config cfg;

	pcn_config_init(&cfg);
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse_transport(NULL, &cfg));
	KUNIT_EXPECT_STREQ(test, cfg.transport, CONFIG_PCN_TRANSPORT_DEFAULT);
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse_transport("", &cfg));
	KUNIT_EXPECT_STREQ(test, cfg.transport, CONFIG_PCN_TRANSPORT_DEFAULT);
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse_transport("shm", &cfg));
	KUNIT_EXPECT_STREQ(test, cfg.transport, "shm");
	KUNIT_EXPECT_EQ(test, 0, pcn_config_parse_transport("a_name_15_long_",
							    &cfg));
	KUNIT_EXPECT_STREQ(test, cfg.transport, "a_name_15_long_");

	pcn_config_init(&cfg);
	KUNIT_EXPECT_EQ(test, -EINVAL, pcn_config_parse_transport("TCP", &cfg));
	KUNIT_EXPECT_NOT_NULL(test, cfg.error);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_config_parse_transport("tcp,rdma", &cfg));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_config_parse_transport("a_name_too_long_", &cfg));
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
	KUNIT_CASE(pcn_config_transport_name),
	{}
};

static struct kunit_suite pcn_config_suite = {
	.name = "popcorn_config",
	.test_cases = pcn_config_cases,
};

kunit_test_suite(pcn_config_suite);
