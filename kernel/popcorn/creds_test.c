// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the credentials a remote takes (creds.c): the user
 * the limits are counted against is the thread's, not root's.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/resource.h>
#include <linux/sched/user.h>
#include <linux/user_namespace.h>

#include "creds.h"

static void pcn_creds_fill(struct pcn_creds *c, u32 id)
{
	int i;

	c->uid = id;
	c->euid = id;
	c->suid = id;
	c->fsuid = id;
	c->gid = id;
	c->egid = id;
	c->sgid = id;
	c->fsgid = id;
	for (i = 0; i < RLIM_NLIMITS; i++) {
		c->rlim[i].cur = RLIM_INFINITY;
		c->rlim[i].max = RLIM_INFINITY;
	}
}

static u32 pcn_user_uid(void)
{
	return from_kuid(&init_user_ns, current_user()->uid);
}

static u32 pcn_ucounts_uid(void)
{
	return from_kuid(&init_user_ns, current_cred()->ucounts->uid);
}

/* Run in the test's own kthread: its credentials are its to change. */
static void pcn_creds_user_follows(struct kunit *test)
{
	struct pcn_creds *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	pcn_creds_fill(c, 1000);
	KUNIT_ASSERT_EQ(test, pcn_creds_install(c), 0);
	KUNIT_EXPECT_EQ(test, from_kuid(&init_user_ns, current_uid()), 1000u);
	/* The user and the counts of uid 1000, as setuid(1000) makes them. */
	KUNIT_EXPECT_EQ(test, pcn_user_uid(), 1000u);
	KUNIT_EXPECT_EQ(test, pcn_ucounts_uid(), 1000u);
	KUNIT_EXPECT_PTR_NE(test, current_user(), INIT_USER);

	/* Another user replaces it. */
	pcn_creds_fill(c, 1001);
	KUNIT_ASSERT_EQ(test, pcn_creds_install(c), 0);
	KUNIT_EXPECT_EQ(test, pcn_user_uid(), 1001u);
	KUNIT_EXPECT_EQ(test, pcn_ucounts_uid(), 1001u);

	/* Root again: root's user, whose count the kernel exempts. */
	pcn_creds_fill(c, 0);
	KUNIT_ASSERT_EQ(test, pcn_creds_install(c), 0);
	KUNIT_EXPECT_PTR_EQ(test, current_user(), INIT_USER);
	KUNIT_EXPECT_EQ(test, pcn_ucounts_uid(), 0u);
}

/* A malformed set changes nothing. */
static void pcn_creds_bad_set(struct kunit *test)
{
	struct pcn_creds *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const struct cred *before = current_cred();

	KUNIT_ASSERT_NOT_NULL(test, c);
	pcn_creds_fill(c, 1000);
	c->uid = (u32)-1;
	KUNIT_EXPECT_EQ(test, pcn_creds_install(c), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, current_cred(), before);
}

static struct kunit_case pcn_creds_cases[] = {
	KUNIT_CASE(pcn_creds_user_follows),
	KUNIT_CASE(pcn_creds_bad_set),
	{}
};

static struct kunit_suite pcn_creds_suite = {
	.name = "popcorn_creds",
	.test_cases = pcn_creds_cases,
};

kunit_test_suite(pcn_creds_suite);
