// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the membership state machine (membership.c).
 */
#include <kunit/test.h>

#include "membership.h"

static void pcn_peer_join(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_PEER_HANDSHAKE,
			pcn_peer_next_state(PCN_PEER_OFFLINE, PCN_PEER_EV_CONNECT));
	KUNIT_EXPECT_EQ(test, PCN_PEER_ONLINE,
			pcn_peer_next_state(PCN_PEER_HANDSHAKE,
					    PCN_PEER_EV_HANDSHAKE_OK));
}

static void pcn_peer_refused(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PCN_PEER_OFFLINE,
			pcn_peer_next_state(PCN_PEER_HANDSHAKE,
					    PCN_PEER_EV_HANDSHAKE_FAIL));
	KUNIT_EXPECT_EQ(test, PCN_PEER_OFFLINE,
			pcn_peer_next_state(PCN_PEER_HANDSHAKE,
					    PCN_PEER_EV_DISCONNECT));
}

static void pcn_peer_lost_and_rejoin(struct kunit *test)
{
	int s = PCN_PEER_ONLINE;

	s = pcn_peer_next_state(s, PCN_PEER_EV_DISCONNECT);
	KUNIT_EXPECT_EQ(test, s, PCN_PEER_OFFLINE);
	s = pcn_peer_next_state(s, PCN_PEER_EV_CONNECT);
	KUNIT_EXPECT_EQ(test, s, PCN_PEER_HANDSHAKE);
	s = pcn_peer_next_state(s, PCN_PEER_EV_HANDSHAKE_OK);
	KUNIT_EXPECT_EQ(test, s, PCN_PEER_ONLINE);
	/* Disconnect is idempotent: a lost link may be reported twice. */
	KUNIT_EXPECT_EQ(test, PCN_PEER_OFFLINE,
			pcn_peer_next_state(PCN_PEER_OFFLINE,
					    PCN_PEER_EV_DISCONNECT));
}

static void pcn_peer_impossible(struct kunit *test)
{
	/* A second connection while one is up: the old one must go first. */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_peer_next_state(PCN_PEER_ONLINE, PCN_PEER_EV_CONNECT));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_peer_next_state(PCN_PEER_HANDSHAKE,
					    PCN_PEER_EV_CONNECT));
	/* No handshake result without a handshake. */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_peer_next_state(PCN_PEER_OFFLINE,
					    PCN_PEER_EV_HANDSHAKE_OK));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_peer_next_state(PCN_PEER_ONLINE,
					    PCN_PEER_EV_HANDSHAKE_OK));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_peer_next_state(PCN_PEER_OFFLINE,
					    PCN_PEER_EV_HANDSHAKE_FAIL));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			pcn_peer_next_state(PCN_PEER_ONLINE, 42));
}

static struct kunit_case pcn_membership_cases[] = {
	KUNIT_CASE(pcn_peer_join),
	KUNIT_CASE(pcn_peer_refused),
	KUNIT_CASE(pcn_peer_lost_and_rejoin),
	KUNIT_CASE(pcn_peer_impossible),
	{}
};

static struct kunit_suite pcn_membership_suite = {
	.name = "popcorn_membership",
	.test_cases = pcn_membership_cases,
};

kunit_test_suite(pcn_membership_suite);
